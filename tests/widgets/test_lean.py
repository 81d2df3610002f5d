"""Shared, sealed layouts and styles (widgets/lean.py): fewer models, and no change leaks;
widgets opened once their tool is built."""

import ipywidgets as w
import pytest
from ipywidgets.widgets.widget import _instances
from ipywidgets.widgets.widget_string import HTMLStyle, TextStyle

import widgets  # noqa: F401  (installs the sharing)
from rulescore import RulesError
from widgets import lean
from widgets.common import Tool, labelled_text, section
from widgets.dice import DiceRoller
from widgets.lean import is_shown, set_layout, set_shown, shared_layout, shared_style
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
    with pytest.raises(AttributeError, match="set_layout"):
        field.layout.display = "none"
    with pytest.raises(AttributeError, match="shared by many widgets"):
        field.style.description_width = "3em"
    assert field.layout.display is None                  # nothing leaked to the others


def test_hiding_a_field_moves_it_to_a_shared_model_and_showing_moves_it_back():
    one, two = labelled_text("One", width="20em"), labelled_text("Two", width="20em")
    set_shown(one, False)
    set_shown(two, False)
    assert one.layout is two.layout is shared_layout(width="20em", display="none")
    assert not is_shown(one) and is_shown(labelled_text("Three", width="20em"))
    set_shown(one, True)
    assert one.layout is shared_layout(width="20em") and is_shown(one)
    assert not is_shown(two)                              # the other stayed hidden


def test_set_layout_keeps_the_other_properties_and_changes_an_own_layout_in_place():
    field = labelled_text("Wide", width="20em")
    set_layout(field, width="30em", min_width="10em")
    assert field.layout is shared_layout(width="30em", min_width="10em")
    set_layout(field, min_width=None)
    assert field.layout is shared_layout(width="30em")
    mine = w.Layout(width="30em")                         # a layout given as a model, not shared
    field.layout = mine
    set_layout(field, display="none")
    assert field.layout is mine and mine.display == "none" and mine.width == "30em"


def test_a_shared_model_made_in_a_failed_build_is_opened_when_it_is_next_used():
    with pytest.raises(RulesError):
        with lean.opened_when_built():
            made = shared_layout(width="17.25em")
            raise RulesError("bad input")
    assert made.comm is None
    field = labelled_text("Later", width="17.25em")
    assert field.layout is made and made.comm is not None
    assert field.get_state()["layout"] == "IPY_MODEL_" + made.model_id


def test_a_section_lays_its_title_and_widgets_in_the_tool_itself():
    odds, result = w.HTML("odds"), w.HTML("result")
    tool = Tool([section("Odds", odds), section("Result", result)], "rulebook-test")
    title, first, title2, second = tool.children
    assert (first, second) == (odds, result)
    assert "Odds" in title.value and "Result" in title2.value
    assert not any(isinstance(c, w.Box) for c in tool.children)   # no box a section


def test_a_tool_has_far_fewer_models_than_widgets_would_bring():
    AttackResolver()                                      # the shared models exist now
    before = set(_instances)
    tool = AttackResolver("opposed", "Trained", defender_tier="Untrained")
    new = [_instances[k] for k in set(_instances) - before]
    views = [m for m in new if isinstance(m, w.DOMWidget)]
    # Without sharing every view brings a layout and (for most) a style: about 2.6 models a
    # view. Shared (hidden fields too), the tool makes next to no layout or style of its own.
    assert len(new) < 1.1 * len(views)
    assert not [m for m in new if isinstance(m, (w.Layout, w.Style)) and not lean.is_shared(m)]
    assert not is_shown(tool.target) and is_shown(tool.defender_tier)


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
