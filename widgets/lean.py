"""Fewer widget models per page: layouts and styles shared by value, sealed against change.

Every ipywidgets widget normally brings two extra models, its Layout and its Style, and every
model costs a page time to open: the kernel sends it, Voilà relays it, the browser builds it
(about 1.2 ms a model end to end, measured with the web benchmark's bare page plus 100 HTML
widgets: 2.59 s with their own layouts and styles, 2.36 s sharing them). A chapter's tools hold
hundreds of widgets, so the book shares one model per distinct set of properties instead:

- :func:`install` (run when the ``widgets`` package is imported) makes every widget created
  without a layout or a style share one default of each kind, and every layout or style given
  as a dict (``style={"description_width": "12em"}``) the one model with those properties;
- :func:`shared_layout` and :func:`shared_style` give the shared model for given properties;
- :func:`set_layout` and :func:`set_shown` change one widget's layout (resize, show, hide) by
  moving it to the shared model with the new properties, so a tool that hides a field makes no
  model of its own for it (an AttackResolver held seven such layouts).

Shared models are sealed: changing one raises ``AttributeError`` naming :func:`set_layout`,
because the change would reach every widget that shares it.

A tool also sets many properties after creating its widgets (labels fitted to their text, rows
set to wrap, its first odds and result computed): each change of an opened widget is one more
message. :func:`opened_when_built` holds back the opening of every widget created inside it, so
each is opened once, with its final state, when the outermost block ends (a widget after the
widgets it refers to); :class:`BuiltWhole` is the metaclass that builds every tool that way.
A DiceRoller sent 49 messages before (28 opens, 21 updates) and 28 after.

In the live book even those opens need not be sent one by one. Voilà runs a page's cells before
the browser has loaded its script, and the browser then asks the kernel for the state of every
widget in one message (the widget manager's ``request_states``). A message sent while a cell
runs reaches only Voilà's notebook client, which decodes it and keeps the state for nobody (about
0.7 ms a model on the server, measured per cell). So while a cell of a page served by the live
book runs (``RULEBOOK_TARGET=live``, set by ``rulebook serve``), a widget's comm is opened
*quietly*: registered in the kernel, with no message. A widget made later, by a reader's click,
is announced as usual, and so is an Output widget, whose captured output the notebook client
must know where to put.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import comm
import ipywidgets as w
from ipywidgets.widgets.trait_types import InstanceDict

_SEALED: dict[type, type] = {}
_SHARED: dict[tuple, w.Widget] = {}


class _Sealed:
    """Mixin: the model's synced properties cannot change once it is built."""

    def __setattr__(self, name: str, value: Any) -> None:
        if getattr(self, "_sealed", False) and not name.startswith("_") \
                and name in getattr(self, "keys", ()):
            raise AttributeError(
                f"{type(self).__name__}.{name}: this model is shared by many widgets; "
                "use set_layout(widget, ...) to change one widget's layout")
        super().__setattr__(name, value)


def _sealed_class(klass: type) -> type:
    if klass not in _SEALED:
        _SEALED[klass] = type(f"Shared{klass.__name__}", (_Sealed, klass), {})
    return _SEALED[klass]


def _shared(klass: type, props: dict[str, Any]) -> w.Widget:
    key = (klass, tuple(sorted(props.items())))
    if key not in _SHARED:
        model = _sealed_class(klass)(**props)
        model._sealed = True
        _SHARED[key] = model
    model = _SHARED[key]
    if model.comm is None and _PENDING is None:
        _open_now(model)  # made in a build that raised (its widgets dropped unopened), or closed
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
    """The set properties of a layout or style model (None and empty left out)."""
    return {k: getattr(model, k) for k in model.keys
            if not k.startswith("_") and getattr(model, k) not in (None, "")}


def set_layout(widget: w.DOMWidget, **props: str | None) -> None:
    """Change *widget*'s layout properties (None or "" unsets one). A widget on a shared layout
    moves to the shared layout with the changed properties; its own layout is changed in place."""
    if is_shared(widget.layout):
        merged = {**props_of(widget.layout), **props}
        widget.layout = shared_layout(**{k: v for k, v in merged.items() if v not in (None, "")})
    else:
        for key, value in props.items():
            setattr(widget.layout, key, value)


def set_shown(widget: w.DOMWidget, shown: bool) -> None:
    """Show *widget* (its usual display) or hide it (``display: none``)."""
    set_layout(widget, display=None if shown else "none")


def is_shown(widget: w.DOMWidget) -> bool:
    """Whether *widget* shows (its layout does not hide it)."""
    return widget.layout.display != "none"


def _widget_classes(base: type = w.DOMWidget):
    yield base
    for sub in base.__subclasses__():
        yield from _widget_classes(sub)


def _share(trait: InstanceDict) -> None:
    """Make *trait* (a widget's layout or style) default to, and read dicts as, shared models."""
    klass, validate = trait.klass, trait.validate
    trait.make_dynamic_default = lambda: _shared(klass, {})
    trait.validate = lambda obj, value: validate(
        obj, _shared(klass, value) if isinstance(value, dict) else value)
    trait._rulebook_shared = True


def install() -> None:
    """Every widget's layout and style come from the shared, sealed models, and a widget's
    opening can be held back until its tool is built (see above)."""
    w.Widget.open = _open_or_hold
    for cls in _widget_classes():
        for name in ("layout", "style"):
            trait = cls.class_traits().get(name)
            if isinstance(trait, InstanceDict) and not getattr(trait, "_rulebook_shared", False):
                _share(trait)


# ---------------------------------------------------------------- opened quietly in the live book

TARGET_VAR = "RULEBOOK_TARGET"
_open = w.Widget.open            # ipywidgets' own: opens the comm and announces the widget


def book_target() -> str:
    """Where the chapters run: "live" (``rulebook serve``), "static" (the static book's build)
    or "" (Jupyter, nbval, tests)."""
    return os.environ.get(TARGET_VAR, "")


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
    state at once when it connects. (The comm learns its kernel when it first sends; ipywidgets
    sends nothing through a comm that has no kernel yet, so it is told at once.)"""
    quiet = comm.create_comm(target_name="jupyter.widget", primary=False,
                             **({"comm_id": widget._model_id} if widget._model_id else {}))
    quiet.kernel = kernel
    comm.get_comm_manager().register_comm(quiet)
    widget.comm = quiet


def _open_now(widget: w.Widget) -> None:
    """Open *widget*: quietly while a live-book page is rendered, otherwise as ipywidgets does."""
    kernel = None if isinstance(widget, w.Output) else _rendering_kernel()
    if kernel is not None and widget.comm is None:
        _open_quietly(widget, kernel)
    else:
        _open(widget)


# ---------------------------------------------------------------- opened once built

_PENDING: list[w.Widget] | None = None     # widgets created inside opened_when_built, in order


def _open_or_hold(self: w.Widget) -> None:
    """``Widget.open``, held back inside :func:`opened_when_built`."""
    if _PENDING is not None and self.comm is None:
        _PENDING.append(self)
    else:
        _open_now(self)


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


def _open_after_references(widget: w.Widget, seen: set[int]) -> None:
    """Open *widget*, after every unopened widget its state refers to (a state names the
    widgets it holds by their model ids, which exist once a widget is open)."""
    if widget.comm is not None or id(widget) in seen:
        return
    seen.add(id(widget))
    for key in widget.keys:
        for ref in _references(getattr(widget, key)):
            _open_after_references(ref, seen)
    _open_now(widget)


@contextmanager
def opened_when_built() -> Iterator[None]:
    """Open the widgets created inside only when the outermost block ends, each with its final
    state: one message a widget instead of one plus one for each later change. If the block
    raises, the widgets it made are dropped unopened."""
    global _PENDING
    if _PENDING is not None:
        yield
        return
    _PENDING = []
    try:
        yield
        pending = _PENDING
    finally:
        _PENDING = None
    seen: set[int] = set()
    for widget in pending:
        _open_after_references(widget, seen)


class BuiltWhole(type(w.VBox)):
    """Metaclass: a class built with it creates its instances inside :func:`opened_when_built`."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        with opened_when_built():
            return super().__call__(*args, **kwargs)
