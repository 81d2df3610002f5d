"""Our widget classes keep ipywidgets' own protocol working: a page that reconnects (or whose
quick state request timed out under load) asks each widget for its state, one by one."""

import ast
import importlib
import inspect
import pkgutil
import textwrap

import ipywidgets as w
import pytest
import traitlets

import widgets
from widgets.common import DiceEntry

# What every traitlets class carries in its own __dict__ (bookkeeping, not a method we wrote).
_BOOKKEEPING = set(vars(type("Probe", (w.VBox,), {})))
_IPYWIDGETS_CLASSES = (w.DOMWidget, w.Box, w.VBox, w.HBox, w.GridBox, w.HTML)
_IPYWIDGETS_NAMES = set().union(*(dir(c) for c in _IPYWIDGETS_CLASSES))


def _our_widget_classes():
    for info in pkgutil.iter_modules(widgets.__path__):
        module = importlib.import_module(f"widgets.{info.name}")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__ and issubclass(cls, w.Widget):
                yield cls


@pytest.mark.parametrize("cls", list(_our_widget_classes()), ids=lambda c: c.__qualname__)
def test_no_widget_class_shadows_an_ipywidgets_name(cls):
    """DiceEntry once had its own ``_send(request)``: ipywidgets' ``send_state`` calls
    ``self._send(msg, buffers=...)``, so the entry could not answer a page's state request and
    the page never drew its tools."""
    own = {n for n in vars(cls) if not n.startswith("__")} - _BOOKKEEPING - _redeclared_traits(cls)
    assert not own & _IPYWIDGETS_NAMES, sorted(own & _IPYWIDGETS_NAMES)


def _redeclared_traits(cls) -> set[str]:
    """Traits a class declares under the name of an ipywidgets trait (a widget of our own names
    its view with ``_view_name`` and ``_view_module``, its words with ``description``): a
    trait for a trait, never a method's name."""
    theirs = set().union(*(c.class_traits() for c in _IPYWIDGETS_CLASSES))
    return {n for n, v in vars(cls).items() if isinstance(v, traitlets.TraitType) and n in theirs}


def _attributes_set_on_self(cls) -> set[str]:
    """The names a class's own methods assign as ``self.<name> = ...``."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    return {node.attr for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name) and node.value.id == "self"}


@pytest.mark.parametrize("cls", list(_our_widget_classes()), ids=lambda c: c.__qualname__)
def test_no_widget_sets_an_attribute_that_shadows_an_ipywidgets_name(cls):
    """The percentile melee exchange once kept its "In Close" checkbox as ``self.close``, which
    hid ipywidgets' ``close()``: the tool could not be closed, and every one that Python
    collected printed "'Checkbox' object is not callable"."""
    mine = _attributes_set_on_self(cls) - set(cls.class_traits())   # traits are meant to be set
    assert not mine & _IPYWIDGETS_NAMES, sorted(mine & _IPYWIDGETS_NAMES)


def test_a_dice_entry_answers_a_state_request():
    entry = DiceEntry()
    sent = []
    entry.comm.send = lambda data=None, buffers=None, **kw: sent.append(data)
    entry._handle_msg({"content": {"data": {"method": "request_state"}}})
    assert sent and sent[-1]["method"] == "update"
    assert sent[-1]["state"]["_model_name"] == entry._model_name == "HBoxModel"
