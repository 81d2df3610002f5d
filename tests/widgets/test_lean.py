"""Our tools' widgets (widgets/lean.py): shared, sealed layouts and styles and widgets opened once
their tool is built; and every other widget of the kernel left exactly as ipywidgets makes it."""

import threading

import ipywidgets as w
import pytest
from ipywidgets.widgets.widget import _instances
from ipywidgets.widgets.widget_string import HTMLStyle, TextStyle

import widgets  # noqa: F401  (importing our tools must change nothing below)
from rulebook.patches import patch, problems
from rulescore import RulesError
from widgets import lean
from widgets.common import ErrorLine, Tool, labelled_text, section
from widgets.dice import DiceRoller
from widgets.lean import (
    is_shown,
    set_layout,
    set_shown,
    set_style,
    shared_layout,
    shared_style,
)
from widgets.roster import FighterPick
from widgets.tsl import AttackResolver


def _made(build):
    """The models opened while *build* runs, and what it returns."""
    before = set(_instances)
    made = build()
    return made, [_instances[k] for k in set(_instances) - before]


def _views(root: w.Widget) -> list[w.Widget]:
    """*root* and every widget under it (children of boxes)."""
    found, stack = [], [root]
    while stack:
        widget = stack.pop()
        found.append(widget)
        stack.extend(getattr(widget, "children", ()))
    return found


# ---------------------------------------------------------------- nothing changed outside

def test_plain_widgets_made_after_our_tools_are_as_ipywidgets_makes_them():
    """A GM's own widgets beside our tools: each has its own layout and style, which change in
    place, and is opened at once."""
    DiceRoller("2d6+1", target="8")
    button, slider = w.Button(description="Mine"), w.IntSlider(description="Mine")
    box = w.HBox([button, slider])
    button.layout.width = "100px"
    slider.layout.width = "100px"
    slider.style.description_width = "5em"
    button.style.button_color = "lightblue"
    box.layout.border = "1px solid red"
    assert (button.layout.width, slider.layout.width, box.layout.border) == \
        ("100px", "100px", "1px solid red")
    assert slider.style.description_width == "5em"
    models = [button.layout, slider.layout, box.layout, button.style, slider.style]
    assert len({id(m) for m in models}) == 5                      # each its own
    assert not any(lean.is_shared(m) for m in models)
    assert all(x.comm is not None for x in (button, slider, box, *models))
    other = w.Button()
    assert other.layout.width is None and other.style.button_color is None
    # A style given by value is the widget's own model too.
    one, two = (w.Text(style={"description_width": "3em"}) for _ in range(2))
    assert one.style is not two.style and not lean.is_shared(one.style)


def test_ipywidgets_classes_and_traits_are_left_as_they_were():
    DiceRoller()
    assert "open" not in vars(w.Widget) or vars(w.Widget)["open"].__module__ == \
        "ipywidgets.widgets.widget"
    for cls in (w.Button, w.IntSlider, w.Text, w.HTML, w.VBox, w.Layout):
        for name in ("layout", "style"):
            trait = cls.class_traits().get(name)
            if trait is not None:
                assert not {"make_dynamic_default", "validate"} & set(vars(trait)), (cls, name)
    assert w.Widget._widget_construction_callback is None       # set only while a tool is built


def test_a_construction_callback_set_by_someone_else_is_kept_and_still_called():
    seen = []
    w.Widget.on_widget_constructed(seen.append)
    try:
        tool = DiceRoller("2d6")
        assert tool in seen                                       # called while we built too
        assert w.Widget._widget_construction_callback == seen.append
        mine = w.Button()
        assert mine in seen and not lean.is_shared(mine.layout)
    finally:
        w.Widget.on_widget_constructed(None)


def test_a_widget_made_in_another_thread_while_a_tool_is_built_is_left_alone():
    made = {}
    started, finish = threading.Event(), threading.Event()

    def gm():
        started.wait(10)
        made["button"] = w.Button()
        finish.set()

    thread = threading.Thread(target=gm)
    thread.start()
    with lean.opened_when_built():
        ours = w.HTML("ours")
        started.set()
        finish.wait(10)
    thread.join(10)
    assert lean.is_shared(ours.layout) and not lean.is_shared(made["button"].layout)
    assert made["button"].comm is not None


def test_the_names_our_tools_rely_on_are_there_in_the_versions_written_for():
    """The construction callback and ipykernel's comm kernel are listed in rulebook.patches;
    a version out of range or a name gone fails here, naming the patch."""
    for name in ("ipywidgets-construction-callback", "ipykernel-quiet-comm"):
        assert problems(patch(name)) == []


# ---------------------------------------------------------------- our tools share their models

def test_widgets_of_a_build_without_layout_or_style_share_one_of_each_kind():
    with lean.opened_when_built():
        a, b = w.HTML("a"), w.HTML("b")
        box, text = w.VBox([]), w.Text()
    assert a.layout is b.layout is box.layout and a.style is b.style
    assert isinstance(a.style, HTMLStyle) and isinstance(text.style, TextStyle)
    assert text.style is not a.style                     # one shared model per style class
    assert lean.is_shared(a.layout) and lean.is_shared(text.style)


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


def test_a_model_given_by_value_in_a_build_is_shared_and_the_given_one_sealed():
    """Inside a build, ``layout=w.Layout(width=...)`` is taken by value like a dict: the widget
    gets the shared model, and changing the one given raises rather than change nothing."""
    with lean.opened_when_built():
        given = w.Layout(width="13.5em")
        field = w.Text(layout=given)
    assert field.layout is shared_layout(width="13.5em") and field.layout is not given
    assert given.comm is None                            # never sent to the page
    with pytest.raises(AttributeError, match="set_layout"):
        given.width = "20em"


def test_hiding_a_field_moves_it_to_a_shared_model_and_showing_moves_it_back():
    one, two = labelled_text("One", width="20em"), labelled_text("Two", width="20em")
    set_shown(one, False)
    set_shown(two, False)
    assert one.layout is two.layout is shared_layout(width="20em", display="none")
    assert not is_shown(one) and is_shown(labelled_text("Three", width="20em"))
    set_shown(one, True)
    assert one.layout is shared_layout(width="20em") and is_shown(one)
    assert not is_shown(two)                              # the other stayed hidden


def test_set_layout_and_set_style_keep_the_other_properties_and_change_own_models_in_place():
    field = labelled_text("Wide", width="20em")
    set_layout(field, width="30em", min_width="10em")
    assert field.layout is shared_layout(width="30em", min_width="10em")
    set_layout(field, min_width=None)
    assert field.layout is shared_layout(width="30em")
    set_style(field, description_width="12em")
    assert field.style is shared_style(TextStyle, description_width="12em")
    mine = w.Layout(width="30em")                         # a layout given as a model, not shared
    field.layout = mine
    set_layout(field, display="none")
    assert field.layout is mine and mine.display == "none" and mine.width == "30em"
    plain = w.Text()
    set_style(plain, description_width="4em")
    assert not lean.is_shared(plain.style) and plain.style.description_width == "4em"


def test_a_shared_model_made_in_a_failed_build_is_opened_when_it_is_next_used():
    with pytest.raises(RulesError), lean.opened_when_built():
        made = shared_layout(width="17.25em")
        raise RulesError("bad input")
    assert made.comm is None
    field = labelled_text("Later", width="17.25em")
    assert field.layout is made and made.comm is not None
    assert field.get_state()["layout"] == "IPY_MODEL_" + made.model_id


def test_a_layout_a_build_tries_and_drops_is_not_opened_until_a_widget_uses_it():
    """A build that sets a widget one layout, then another, sends only the one kept; the one
    dropped is opened with the first widget that uses it, at once for a widget already open.
    (Widths no tool uses, so no other test has made these layouts.)"""
    with lean.opened_when_built():
        field = w.Text()
        set_layout(field, width="31.37em")
        set_layout(field, width="31.37em", max_width="97.3%")
    tried = lean._SHARED[(w.Layout, (("width", "31.37em"),))]
    assert field.layout.comm is not None and tried.comm is None
    with lean.opened_when_built():
        set_layout(field, max_width=None)                 # an open widget: its state names it
        assert tried.comm is not None
    assert field.layout is tried
    assert field.get_state()["layout"] == "IPY_MODEL_" + tried.model_id
    with lean.opened_when_built():
        other = w.Text()
        set_layout(other, width="31.37em", max_width="96.3%")
        dropped = other.layout
        set_layout(other, width="31.37em", max_width="97.3%")
    assert dropped.comm is None
    again = labelled_text("Again", width="31.37em")
    set_layout(again, max_width="96.3%")                   # a later use opens it
    assert again.layout is dropped and dropped.comm is not None


def test_a_section_lays_its_title_and_widgets_in_the_tool_itself():
    odds, result = w.HTML("odds"), w.HTML("result")
    tool = Tool([section("Odds", odds), section("Result", result)], "rulebook-test")
    title, first, title2, second = tool.children
    assert (first, second) == (odds, result)
    assert "Odds" in title.value and "Result" in title2.value
    assert not any(isinstance(c, w.Box) for c in tool.children)   # no box a section


@pytest.mark.parametrize("build", [
    lambda: DiceRoller("2d6+1", target="8"),
    lambda: AttackResolver("opposed", "Trained", defender_tier="Untrained"),
], ids=["DiceRoller", "AttackResolver"])
def test_a_tool_opens_one_model_a_widget_and_no_layout_or_style_of_its_own(build):
    """Built again once its shared models exist, a tool opens exactly its own widgets: no
    layout and no style. ipywidgets alone would open a layout for each and a style for most."""
    build()                                               # the shared models exist now
    tool, new = _made(build)
    # The roster's "no fighters yet" hint is one model for every pick of a system, made once.
    hints = {id(v.hint) for v in _views(tool) if isinstance(v, FighterPick)}
    views = [v for v in _views(tool) if id(v) not in hints]
    assert {id(m) for m in new} == {id(v) for v in views}
    unshared = len(views) + sum(1 for v in views for name, _ in lean._shareable(type(v)))
    assert len(new) < 0.45 * unshared


def test_hidden_fields_of_a_tool_use_shared_layouts_too():
    tool = AttackResolver("opposed", "Trained", defender_tier="Untrained")
    assert not is_shown(tool.target) and is_shown(tool.defender_tier)
    assert lean.is_shared(tool.target.layout) and lean.is_shared(tool.defender_tier.layout)


def test_widgets_made_inside_are_opened_once_built_children_first():
    opened = []
    real_announce = lean._announce

    def record(widget):
        opened.append(widget)
        real_announce(widget)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(lean, "_announce", record)
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
    assert "open" not in vars(label)                  # ipywidgets' own open again


def test_a_failed_build_opens_nothing():
    with pytest.raises(RulesError), lean.opened_when_built():
        lost = w.HTML("never shown")
        raise RulesError("bad input")
    assert lost.comm is None and "open" not in vars(lost)
    assert w.HTML("next").comm is not None           # outside the block: opened at once
    assert w.Widget._widget_construction_callback is None


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


def test_the_tens_and_ones_row_built_on_a_readers_click_shares_its_models():
    roller = DiceRoller("2d6")
    entry = roller.entry
    assert entry.percentile_row is None
    _, new = _made(lambda: setattr(roller.expression, "value", "d%"))   # a reader types d%
    row = entry.percentile_row
    assert row in entry.children and is_shown(row)
    assert all(lean.is_shared(m) for m in new if isinstance(m, (w.Layout, w.Style)))
    assert all(x.comm is not None for x in _views(row))


# ---------------------------------------------------------------- held back until shown

class _Held(Tool):
    """A tool that holds back its blank lines and hidden parts (Tool.holds_blank_lines)."""

    holds_blank_lines = True

    def __init__(self) -> None:
        self.field = labelled_text("Dice", "4")
        self.hidden = labelled_text("Rarely used", "0")
        set_shown(self.hidden, False)
        self.error = ErrorLine()
        self.result = w.HTML("<b>Waiting</b>")
        super().__init__([self.field, self.hidden, self.error, self.result], "rulebook-test")


def test_a_tools_blank_error_line_is_opened_and_placed_when_it_first_shows():
    tool = _Held()
    assert tool.children == (tool.field, tool.result)
    assert tool.error.comm is None and lean.is_held(tool.error)
    assert lean.held_children(tool) == (tool.hidden, tool.error)
    tool.error.clear()                                  # still blank: still held
    assert tool.error.comm is None
    tool.error.show("Dice must be 1 or more, got 0")
    assert tool.children == (tool.field, tool.error, tool.result)
    assert tool.error.comm is not None and not lean.is_held(tool.error)
    assert lean.held_children(tool) == (tool.hidden,)


def test_a_tools_hidden_field_is_opened_and_placed_when_it_is_shown():
    tool = _Held()
    assert tool.hidden.comm is None
    set_shown(tool.hidden, True)
    assert tool.children == (tool.field, tool.hidden, tool.result)
    assert tool.hidden.comm is not None and tool.hidden.layout.comm is not None
    set_shown(tool.hidden, False)                       # hidden again: stays in its place
    assert tool.children == (tool.field, tool.hidden, tool.result)


def test_a_tool_that_does_not_ask_keeps_its_blank_lines_in_place():
    tool = AttackResolver("opposed", "Trained", defender_tier="Untrained")
    plain = DiceRoller("2d6+1", target="8")
    assert not type(plain).holds_blank_lines and plain.error in _views(plain)
    assert plain.error.comm is not None
    assert tool.error not in _views(tool) and tool.error.comm is None
