"""Every engine input is reachable (DESIGN.md §5): each tool lists the engine calls
it makes (``Tool.reaches``), and for each the field a reader fills in for every argument or why
the tool fixes it. The lists are held to the functions' signatures, so a new engine argument
cannot silently stay out of a tool; and messages name fields as the reader sees them."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import ipywidgets as w
import pytest

import widgets
from widgets.common import Reach, Tool, reader_words
from widgets.lean import held_children


def _tools() -> list[type[Tool]]:
    """Every public Tool subclass of the widgets package."""
    for module in pkgutil.iter_modules(widgets.__path__):
        importlib.import_module(f"widgets.{module.name}")
    found, stack = [], [Tool]
    while stack:
        for sub in stack.pop().__subclasses__():
            stack.append(sub)
            if sub.__module__.startswith("widgets.") and not sub.__name__.startswith("_"):
                found.append(sub)
    return sorted(set(found), key=lambda c: (c.__module__, c.__name__))


TOOLS = _tools()
REACHES = [(tool, reach) for tool in TOOLS for reach in tool.reaches]


def _declares(tool: type[Tool]) -> bool:
    """Whether *tool* (or a base of its own, below Tool) says which engine calls it makes."""
    return any("reaches" in vars(c) for c in tool.__mro__[:tool.__mro__.index(Tool)])


def _name(call: object) -> str:
    return getattr(call, "__qualname__", repr(call))


def test_every_tool_says_which_engine_calls_it_makes() -> None:
    silent = [f"{t.__module__}.{t.__name__}" for t in TOOLS if not _declares(t)]
    assert not silent, f"tools that declare no reaches (Tool.reaches): {silent}"


def test_a_tool_that_calls_the_engine_lists_at_least_one_reach() -> None:
    assert REACHES and all(isinstance(r, Reach) for _, r in REACHES)


@pytest.mark.parametrize(("tool", "reach"), REACHES,
                         ids=[f"{t.__name__}-{_name(r.call)}" for t, r in REACHES])
def test_a_reach_names_every_argument_of_its_engine_call(tool: type[Tool], reach: Reach) -> None:
    params = {name for name, p in inspect.signature(reach.call).parameters.items()
              if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}
    listed = set(reach.fields) | set(reach.fixed)
    assert not set(reach.fields) & set(reach.fixed), "an argument is both a field and fixed"
    assert listed == params, (f"{tool.__name__} → {_name(reach.call)}: not reached "
                              f"{sorted(params - listed)}; not arguments {sorted(listed - params)}")
    assert all(why.strip() for why in reach.fixed.values())


def _labels(tool: Tool) -> set[str]:
    stack, labels = [tool], set()
    while stack:
        widget = stack.pop()
        if isinstance(widget, w.Box):     # a part held back until it shows is the tool's too
            stack.extend((*widget.children, *held_children(widget)))
        labels.add(getattr(widget, "description", "") or "")
    return labels


#: Labels a tool shows only in another state than the one it opens in (the Stress field is
#: named after the pool the attack type hits; the Downed walker builds its Grievous Wound
#: fields when the reader opens them).
SHOWN_LATER = {"Stress already on its Mind pool", "Stress already on its Spirit pool",
               "Grievous Wound d8", "Called Shot at a limb"}


@pytest.mark.parametrize("tool", [t for t in TOOLS if t.reaches],
                         ids=[t.__name__ for t in TOOLS if t.reaches])
def test_each_field_a_reach_names_is_a_field_of_the_tool(tool: type[Tool]) -> None:
    try:
        built = tool()
    except TypeError:
        pytest.skip(f"{tool.__name__} needs arguments to be built")
    labels = _labels(built)
    # A label may name two fields that set one argument together ("First tag and Second tag").
    named = {part for r in tool.reaches for label in r.fields.values()
             for part in ([label] if label in labels else label.split(" and "))}
    missing = named - labels - SHOWN_LATER
    assert not missing, f"{tool.__name__} names fields it does not show: {sorted(missing)}"


def test_an_engine_name_becomes_the_fields_label_in_quotes() -> None:
    words = {"target_band": "Target's band", "who": "Combatant", "cover": "Target's cover"}
    assert reader_words("target_band 'x' needs more; who must be A", words) == \
        "“Target's band” 'x' needs more; “Combatant” must be A"
    # A plain word is a name only where an input is named, never inside the prose.
    assert reader_words("a target in cover", words) == "a target in cover"
    assert reader_words("target_band[2] must be a band", words) == \
        "“Target's band”[2] must be a band"


# -- messages in the words of the fields (DESIGN.md §5, reader words) -----------------------

def test_a_band_the_weapon_cannot_reach_names_the_target_and_optimal_band_fields() -> None:
    from widgets.range_bands import ShotBuilder
    tool = ShotBuilder(target="extreme", optimal="close")
    assert tool.error.message == ("“Target's band” extreme needs a weapon whose optimal band "
                                  "is far or very far, but “Optimal band” is close")


def test_a_pool_out_of_range_names_the_pool_field() -> None:
    from widgets.range_bands import ShotBuilder
    tool = ShotBuilder()
    tool.pool.value = "0"
    assert tool.error.message == "“Your dice (shooting skill)” must be from 1 to 30, got 0"
    tool.pool.value = "4"
    assert tool.error.message == ""


def test_a_support_action_out_of_turn_names_the_combatant_field() -> None:
    from widgets.tsl import TurnBoard
    board = TurnBoard("Vela, Thug A, Mar")
    board.who.value, board.option.value = "Mar", "Grant Reroll"
    board.spend()
    assert board.error.message.startswith("“Combatant” must be Vela for Grant Reroll")
    assert "who" not in board.error.message.split()


def test_a_negative_range_of_a_printed_table_reads_in_words() -> None:
    from widgets.book import print_table
    page = print_table("tsl", "dice", "bands_meet_is_mixed").data
    assert "<td>−6 to −1</td>" in page and "<td>−7 or less</td>" in page
    assert "-6–-1" not in page and "-6--1" not in page
