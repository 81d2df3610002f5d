"""Fewer widget models and messages for our own tools, and no change to any other widget.

Every ipywidgets widget brings two more models, its Layout and its Style, and each model costs a
page time to open: the kernel sends it, the server relays it, the browser builds it. A chapter's
tools hold hundreds of widgets, and a tool changes many of them after creating them (labels
fitted to their text, rows set to wrap, its first odds and result computed), each change one
more message. So while one of our tools is built (inside :func:`opened_when_built`, which the
:class:`BuiltWhole` metaclass puts around the building of every tool), each widget it creates:

- shares one sealed layout, and one sealed style, with every widget of the same properties: a
  widget given none gets the shared default of its kind; one given them by value
  (``style={"description_width": "12em"}``, or a model made for it in the same build) gets the
  shared model with those properties;
- is opened only when the outermost build ends, once, with its final state, after the widgets
  its state names by their ids; if the build raises, the widgets it made are dropped unopened;
- is opened quietly where that is safe (below).

None of this reaches a widget built anywhere else. A reader's own widget in JupyterLab, or one
that another library makes, is exactly what ipywidgets makes: its own layout and style, changed
in place, opened at once. The hook is ipywidgets' public construction callback, set only while a
build runs and chained to any callback already set; no class or trait of ipywidgets is changed.
What the hook relies on is listed in ``rulebook/patches.py`` and checked by the tests.

:func:`shared_layout` and :func:`shared_style` give the shared model for given properties;
:func:`set_layout`, :func:`set_style` and :func:`set_shown` change one widget's layout or style
(resize, show, hide) by moving it to the shared model with the new properties, so a tool that
hides a field makes no model of its own for it; a widget's own model is changed in place.
Shared models are sealed: changing one raises ``AttributeError`` naming :func:`set_layout`,
because the change would reach every widget that shares it.

Quiet opens. Voilà runs a page's cells before the browser has loaded its script, and the
browser then asks the kernel for the state of every widget in one message (the widget manager's
``request_states``). A message sent while a cell runs reaches only Voilà's notebook client, which
decodes it and keeps the state for nobody. So in the live book (``RULEBOOK_TARGET=live``, set by
``rulebook serve``), while a cell runs, a widget of our tools is opened *quietly*: registered in
the kernel, with no message. A widget made later, by a reader's click, is announced as usual, and
so is an Output widget, whose captured output the notebook client must know where to put.
Elsewhere (JupyterLab, nbval, the static build) a page may already be listening, so every
widget is announced.
"""

from __future__ import annotations

import functools
import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

import comm
import ipywidgets as w
from ipywidgets.widgets.trait_types import InstanceDict

_SEALED: dict[type, type] = {}
_SHARED: dict[tuple, w.Widget] = {}

# The widgets made by the tool being built in this thread or task, in the order made (keyed by
# id); None while no tool is built.
_BUILD: ContextVar[dict[int, w.Widget] | None] = ContextVar("rulebook_build", default=None)


class _Sealed:
    """Mixin: the model's synced properties cannot change once it is built."""

    def __setattr__(self, name: str, value: Any) -> None:
        if getattr(self, "_sealed", False) and not name.startswith("_") \
                and name in getattr(self, "keys", ()):
            raise AttributeError(
                f"{type(self).__name__}.{name}: this model is shared by many widgets of our "
                "tools; use set_layout(widget, ...) or set_style(widget, ...) to change one "
                "widget's layout or style")
        super().__setattr__(name, value)


def _sealed_class(klass: type) -> type:
    if klass not in _SEALED:
        _SEALED[klass] = type(f"Shared{klass.__name__}", (_Sealed, klass),
                              {"_shared_base": klass})
    return _SEALED[klass]


def _base_class(model: w.Widget) -> type:
    """The ipywidgets class of a layout or style model, shared or not."""
    return getattr(type(model), "_shared_base", type(model))


def _shared(klass: type, props: dict[str, Any]) -> w.Widget:
    key = (klass, tuple(sorted(props.items())))
    model = _SHARED.get(key)
    if model is None:
        building = _BUILD.get()
        with opened_when_built():    # one of ours: opened quietly where that is safe
            model = _sealed_class(klass)(**props)
            model._sealed = True
            if building is not None:
                # Opened with the first widget of the build that uses it: a build may set a
                # widget one layout and then another, and the one no widget keeps is not sent.
                building.pop(id(model), None)
                vars(model).pop("open", None)
        _SHARED[key] = model
    elif model.comm is None and _BUILD.get() is None:
        # made unused by a build, or in one that raised, or closed (a build opens it with the
        # first widget that uses it)
        _open_now(model)
    return model


def shared_layout(**props: str) -> w.Layout:
    """The one sealed Layout with these properties (e.g. ``width="26em"``)."""
    return _shared(w.Layout, props)


def shared_style(klass: type, **props: str) -> w.Widget:
    """The one sealed style of class *klass* (e.g. ``TextStyle``) with these properties."""
    return _shared(klass, props)


def is_shared(model: w.Widget) -> bool:
    """Whether *model* is one of the sealed models many widgets share."""
    return isinstance(model, _Sealed)


def props_of(model: w.Widget) -> dict[str, Any]:
    """The set properties of a layout or style model (None and empty left out). A shared
    model's are read once: it is sealed, and a layout has some forty properties to read."""
    known = vars(model).get("_props")
    if known is not None:
        return dict(known)
    props = {k: getattr(model, k) for k in model.keys
             if not k.startswith("_") and getattr(model, k) not in (None, "")}
    if is_shared(model) and getattr(model, "_sealed", False):
        model._props = props
    return dict(props)


def _set_model(widget: w.DOMWidget, name: str, props: dict[str, str | None]) -> None:
    """Change the *name* model (layout or style) of *widget*; see :func:`set_layout`."""
    model = getattr(widget, name)
    if is_shared(model):
        merged = {**props_of(model), **props}
        shared = _shared(_base_class(model), {k: v for k, v in merged.items()
                                              if v not in (None, "")})
        if widget.comm is not None and shared.comm is None:
            _open_now(shared)    # an open widget's state names it at once, even in a build
        setattr(widget, name, shared)
    else:
        for key, value in props.items():
            setattr(model, key, value)


def set_layout(widget: w.DOMWidget, **props: str | None) -> None:
    """Change *widget*'s layout properties (None or "" unsets one). A widget on a shared layout
    moves to the shared layout with the changed properties; its own layout is changed in place."""
    _set_model(widget, "layout", props)


def set_style(widget: w.DOMWidget, **props: str | None) -> None:
    """Change *widget*'s style properties, as :func:`set_layout` does its layout."""
    _set_model(widget, "style", props)


def set_shown(widget: w.DOMWidget, shown: bool) -> None:
    """Show *widget* (its usual display) or hide it (``display: none``)."""
    set_layout(widget, display=None if shown else "none")


def is_shown(widget: w.DOMWidget) -> bool:
    """Whether *widget* shows (its layout does not hide it)."""
    return widget.layout.display != "none"


# ---------------------------------------------------------------- opened quietly in the live book

TARGET_VAR = "RULEBOOK_TARGET"


def book_target() -> str:
    """Where the chapters run: "live" (``rulebook serve``), "static" (the static book's build),
    "wasm" (a static page running them in the reader's browser, on Pyodide) or "" (Jupyter,
    nbval, tests)."""
    target = os.environ.get(TARGET_VAR, "")
    if not target and sys.platform == "emscripten":
        return "wasm"
    return target


def _rendering_kernel() -> Any:
    """The kernel, if a cell of a live-book page runs in it now, so that no browser listens yet:
    the live book's kernel runs an execute request (a reader's click arrives as a comm message
    instead). None otherwise."""
    if book_target() != "live":
        return None
    from ipykernel.kernelbase import Kernel
    if not Kernel.initialized():
        return None
    kernel = Kernel.instance()
    parent = kernel.get_parent("shell") or {}
    return kernel if parent.get("header", {}).get("msg_type") == "execute_request" else None


def _open_quietly(widget: w.Widget, kernel: Any) -> None:
    """Open *widget*'s comm in *kernel* without sending its state: the browser asks for every
    state at once when it connects. (ipykernel's comm learns its kernel when it first sends,
    and ipywidgets sends nothing through a comm that has no kernel yet, so it is told at once.)"""
    quiet = comm.create_comm(target_name="jupyter.widget", primary=False)
    quiet.kernel = kernel
    comm.get_comm_manager().register_comm(quiet)
    widget.comm = quiet


def _announce(widget: w.Widget) -> None:
    """Open *widget* as ipywidgets does: its comm opened with a message holding its state."""
    widget.open()


def _open_now(widget: w.Widget) -> None:
    """Open *widget*: quietly while a live-book page is rendered, otherwise as ipywidgets does."""
    kernel = None if isinstance(widget, w.Output) else _rendering_kernel()
    if kernel is not None and widget.comm is None:
        _open_quietly(widget, kernel)
    else:
        _announce(widget)


# ---------------------------------------------------------------- built whole

def _held() -> None:
    """Stands in for a widget's ``open`` while its tool is built (it is opened at the end)."""


_SHAREABLE: dict[type, tuple[tuple[str, type], ...]] = {}


def _shareable(cls: type) -> tuple[tuple[str, type], ...]:
    """The layout and style traits of widget class *cls*, with the model class of each."""
    if cls not in _SHAREABLE:
        traits = cls.class_traits()
        _SHAREABLE[cls] = tuple((name, traits[name].klass) for name in ("layout", "style")
                                if isinstance(traits.get(name), InstanceDict))
    return _SHAREABLE[cls]


def _drop(model: w.Widget, pending: dict[int, w.Widget]) -> None:
    """Leave *model* (a layout or style replaced by a shared one) unopened, and seal it: a later
    change to it would reach no widget, so it raises instead of doing nothing."""
    del pending[id(model)]
    vars(model).pop("open", None)
    model.__class__ = _sealed_class(type(model))
    model._sealed = True


def _adopt(widget: w.Widget, pending: dict[int, w.Widget]) -> None:
    """Take *widget*, just made while a tool is built, into the build: its layout and style
    shared, its opening held back until the build ends."""
    for name, klass in _shareable(type(widget)):
        if not widget.trait_has_value(name):          # none given: the shared default
            setattr(widget, name, _shared(klass, {}))
            continue
        model = getattr(widget, name)
        if id(model) in pending and not is_shared(model):   # given by value in this build
            setattr(widget, name, _shared(_base_class(model), props_of(model)))
            _drop(model, pending)
    if widget.comm is None:
        pending[id(widget)] = widget
        widget.open = _held       # ipywidgets calls self.open() once this callback returns


_hook_lock = threading.Lock()
_hook_users = 0
_hook_outer: Callable[[w.Widget], None] | None = None   # the callback set before ours


def _constructed(widget: w.Widget) -> None:
    """ipywidgets' construction callback while a build runs: it takes in the widgets made by
    the build of this thread or task and leaves every other widget alone."""
    if _hook_outer is not None:
        _hook_outer(widget)
    pending = _BUILD.get()
    if pending is not None:
        _adopt(widget, pending)


def _hook(on: bool) -> None:
    """Set our construction callback while any build runs; put back the one before after."""
    global _hook_users, _hook_outer
    with _hook_lock:
        if on:
            if _hook_users == 0:
                # ipywidgets keeps one callback; read it (rulebook/patches.py lists the name)
                # to chain it and to put it back.
                _hook_outer = w.Widget._widget_construction_callback
                w.Widget.on_widget_constructed(_constructed)
            _hook_users += 1
            return
        _hook_users -= 1
        if _hook_users == 0:
            if w.Widget._widget_construction_callback is _constructed:
                w.Widget.on_widget_constructed(_hook_outer)
            _hook_outer = None


def _references(value: Any) -> Iterator[w.Widget]:
    """The widgets a property's value refers to (a child, a layout, a list of children)."""
    if isinstance(value, w.Widget):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _references(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _references(item)


_REFERRING: dict[type, tuple[str, ...]] = {}


def _referring_keys(cls: type) -> tuple[str, ...]:
    """The synced properties of widget class *cls* that can hold widgets: those with a JSON
    serializer of their own (ipywidgets' ``widget_serialization`` for children, layout, style,
    a link's ends), since the default one cannot send a widget. The others (a layout alone has
    forty) need not be read."""
    if cls not in _REFERRING:
        _REFERRING[cls] = tuple(name for name, trait in cls.class_traits(sync=True).items()
                                if trait.metadata.get("to_json") is not None)
    return _REFERRING[cls]


def _open_after_references(widget: w.Widget, seen: set[int]) -> None:
    """Open *widget*, after every unopened widget its state refers to (a state names the
    widgets it holds by their model ids, which exist once a widget is open)."""
    if widget.comm is not None or id(widget) in seen:
        return
    seen.add(id(widget))
    for key in _referring_keys(type(widget)):
        for ref in _references(getattr(widget, key)):
            _open_after_references(ref, seen)
    _open_now(widget)


@contextmanager
def opened_when_built() -> Iterator[None]:
    """Build one of our tools: the widgets created inside share their layouts and styles and
    are opened when the outermost block ends, each with its final state (one message a widget
    instead of one plus one for each later change). If the block raises, the widgets it made
    are dropped unopened."""
    if _BUILD.get() is not None:
        yield
        return
    pending: dict[int, w.Widget] = {}
    token = _BUILD.set(pending)
    _hook(True)
    try:
        yield
    finally:
        _BUILD.reset(token)
        _hook(False)
        for widget in pending.values():
            vars(widget).pop("open", None)
    seen: set[int] = set()
    for widget in list(pending.values()):
        _open_after_references(widget, seen)


F = TypeVar("F", bound=Callable[..., Any])


def built_whole(func: F) -> F:
    """Decorator: *func* builds (part of) one of our tools, inside :func:`opened_when_built`."""
    @functools.wraps(func)
    def build(*args: Any, **kwargs: Any) -> Any:
        with opened_when_built():
            return func(*args, **kwargs)
    return build  # type: ignore[return-value]


class BuiltWhole(type(w.VBox)):
    """Metaclass: a class built with it creates its instances inside :func:`opened_when_built`."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        with opened_when_built():
            return super().__call__(*args, **kwargs)


# ---------------------------------------------------------------- held back until shown

def hold_until_shown(widget: w.DOMWidget, box: w.Box, blank: bool = False) -> None:
    """Leave *widget*, made by the tool being built and shown by nothing yet, out of *box*
    and unopened until it first shows: a hidden widget (``display: none``) until it is shown,
    and with *blank* (an error line, an explanation not yet given) until its ``value`` first
    holds something. Most readers never see a tool's error line or its rarely used parts, and
    each widget costs the page one model to open. When it shows, it is opened and put back
    in *box* where it stood: before the first sibling that followed it and is still there
    (last if none is). A hidden box is held with everything in it."""
    building = _BUILD.get()
    if building is None or id(widget) not in building or widget not in box.children:
        return
    after = box.children[list(box.children).index(widget) + 1:]
    for held in _subtree(widget):
        if building.pop(id(held), None) is not None:
            vars(held).pop("open", None)
    box.children = tuple(c for c in box.children if c is not widget)
    vars(box).setdefault("_held_back", []).append(widget)
    widget._held_in = (box, tuple(id(c) for c in after), blank)
    widget.observe(_release_when_shown, ("value", "layout") if blank else "layout")


def _subtree(widget: w.Widget) -> Iterator[w.Widget]:
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _subtree(child)


def held_children(box: w.Box) -> tuple[w.Widget, ...]:
    """The children of *box* held back by :func:`hold_until_shown` and not shown yet."""
    return tuple(vars(box).get("_held_back", ()))


def is_held(widget: w.Widget) -> bool:
    """Whether *widget* is still held back by :func:`hold_until_shown`."""
    return vars(widget).get("_held_in") is not None


def _release_when_shown(change: dict[str, Any]) -> None:
    widget = change["owner"]
    if not is_held(widget):
        return
    blank = widget._held_in[2]
    if widget.layout.display != "none" and (not blank or widget.value):
        _release(widget)


def _release(widget: w.DOMWidget) -> None:
    """Open a held widget and put it back in its box (see :func:`hold_until_shown`)."""
    box, after, blank = widget._held_in
    widget._held_in = None
    box._held_back.remove(widget)
    widget.unobserve(_release_when_shown, ("value", "layout") if blank else "layout")
    children = list(box.children)
    place = next((i for i, c in enumerate(children) if id(c) in after), len(children))
    building = _BUILD.get()
    if box.comm is None and building is not None:
        building[id(widget)] = widget      # the build that holds its box opens it
    elif widget.comm is None:
        _open_after_references(widget, set())
    box.children = (*children[:place], widget, *children[place:])
