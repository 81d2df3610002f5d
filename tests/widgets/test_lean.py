"""Shared, sealed layouts and styles (widgets/lean.py): fewer models, and no change leaks;
widgets opened once their tool is built."""

import ipywidgets as w
import pytest
from ipywidgets.widgets.widget import _instances
from ipywidgets.widgets.widget_string import HTMLStyle, TextStyle

import widgets  # noqa: F401  (installs the sharing)
from rulescore import RulesError
from widgets import lean
from widgets.common import labelled_text
from widgets.dice import DiceRoller
from widgets.lean import own_layout, shared_layout, shared_style
from widgets.tsl import AttackResolver


def test_widgets_without_layout_or_style_share_one_of_each_kind():
    a, b = w.HTML("a"), w.HTML("b")
    assert a.layout is b.layout and a.style is b.style
    assert w.VBox([]).layout is a.layout
    assert isinstance(a.style, HTMLStyle) and isinstance(w.Text().style, TextStyle)
    assert w.Text().style is not a.style                 # one shared model per style class


def test_dict_styles_and_shared_layouts_are_one_model_per_value():
    one, two = labelled_text("One", width="20em"), labelled_text("Two", width="20em")
    assert one.style is two.style and one.layout is two.layout
    assert one.style.description_width == "11em" and one.layout.width == "20em"
    assert labelled_text("Three", width="21em").layout is not one.layout
    assert shared_layout(width="20em") is one.layout
    assert shared_style(TextStyle, description_width="11em") is one.style


def test_shared_models_are_sealed():
    field = labelled_text("Sealed", width="20em")
    with pytest.raises(AttributeError, match="own_layout"):
        field.layout.display = "none"
    with pytest.raises(AttributeError, match="shared by many widgets"):
        field.style.description_width = "3em"
    assert field.layout.display is None                  # nothing leaked to the others


def test_own_layout_copies_the_shared_one_and_can_change():
    field, other = labelled_text("Mine", width="20em"), labelled_text("Other", width="20em")
    own_layout(field).display = "none"
    assert field.layout.width == "20em" and field.layout.display == "none"
    assert other.layout.display is None
    mine = field.layout
    assert own_layout(field) is mine                      # the second call keeps it


def test_a_tool_has_far_fewer_models_than_widgets_would_bring():
    AttackResolver()                                      # the shared models exist now
    before = set(_instances)
    tool = AttackResolver("opposed", "Trained", defender_tier="Untrained")
    new = [_instances[k] for k in set(_instances) - before]
    views = [m for m in new if isinstance(m, w.DOMWidget)]
    # Without sharing every view brings a layout and (for most) a style: about 2.6 models a
    # view. Shared, only the layouts the tool shows or hides at runtime are its own.
    assert len(new) < 1.3 * len(views)
    assert tool.target.layout is not tool.defender_tier.layout


def test_widgets_made_inside_are_opened_once_built_children_first():
    opened = []
    real_open = lean._open

    def record(widget):
        opened.append(widget)
        real_open(widget)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(lean, "_open", record)
        with lean.opened_when_built():
            box = w.VBox()
            label = w.HTML("first")
            box.children = [label]
            label.value = "final"
            with lean.opened_when_built():          # an inner block opens nothing itself
                inner = w.Text()
            assert box.comm is None and label.comm is None and inner.comm is None
            assert opened == []
    assert opened.index(label) < opened.index(box)   # the box's state names the label's id
    assert all(x.comm is not None for x in (box, label, inner))
    assert box.get_state()["children"] == ["IPY_MODEL_" + label.model_id]
    label.value = "after"                             # an opened widget syncs as usual
    assert label.get_state()["value"] == "after"


def test_a_failed_build_opens_nothing():
    with pytest.raises(RulesError):
        with lean.opened_when_built():
            lost = w.HTML("never shown")
            raise RulesError("bad input")
    assert lost.comm is None
    assert w.HTML("next").comm is not None           # outside the block: opened at once


def test_a_tool_sends_no_update_while_it_is_built(monkeypatch):
    """A tool's widgets reach the page with their final state in their opening message:
    building a dice roller sends no separate update of any widget."""
    updates = []
    monkeypatch.setattr(w.Widget, "send_state",
                        lambda self, key=None: updates.append((type(self).__name__, key)))
    roller = DiceRoller("2d6+1", target="8")
    assert updates == []
    assert roller.comm is not None and all(c.comm is not None for c in roller.children)
    roller.expression.value = "3d6"                   # a reader's change is sent as before
    assert updates
