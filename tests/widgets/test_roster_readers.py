"""The tools that read a chapter's shared roster (widgets.roster.shared_roster): the roster lives
as long as the page and holds their methods weakly (widgets.common.Callbacks), so a tool the
page dropped is collected and no longer told of the roster's changes."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable

import pytest

from rulescore.roster import Roster
from rulescore.systems import veil_and_lead as vl
from tests.widgets.closing import close_whole
from widgets.common import Tool
from widgets.exploding_d6 import InitiativeRoller, ReactionsTool
from widgets.roster import NONE_PICKED, shared_roster
from widgets.veil_and_lead_count import CountTracker
from widgets.veil_and_lead_more import TempoCalculator
from widgets.veil_and_lead_table import AttackCalculator, PartyInitiative
from tests.widgets.fresh_rosters import fresh  # noqa: F401 (autouse)

DROPPED = 20

#: (system, a tool reading its shared roster, the roster callbacks one such tool adds): a
#: tool of every way of reading it (a pick, two picks, the tool's own method, the Count given
#: the roster, and the exploding-d6 tools whose initiative rolls reach the reactions tool).
READERS: dict[str, tuple[str, Callable[[], Tool], int]] = {
    "one pick": ("veil_and_lead", TempoCalculator, 1),
    "two picks": ("veil_and_lead", AttackCalculator, 2),
    "party initiative": ("veil_and_lead", PartyInitiative, 1),
    "the Count": ("veil_and_lead", lambda: CountTracker(shared_roster("veil_and_lead")), 1),
    "x6 initiative": ("exploding_d6", InitiativeRoller, 1),
    "x6 reactions": ("exploding_d6", ReactionsTool, 1),
}


def party() -> Roster:
    return (Roster(vl.ROSTER).add("Ada", pc=True, quick=4, awareness=2)
            .add("Bo", quick=3, weapon="Saber"))


def build_and_drop(build: Callable[[], Tool], count: int,
                   kept: Tool) -> list[weakref.ref[Tool]]:
    """*count* tools built and dropped as a page drops them, beside the tool *kept*; a weak
    reference to each."""
    dropped = []
    for _ in range(count):
        tool = build()
        dropped.append(weakref.ref(tool))
        close_whole(tool, keep=[kept])
    del tool
    gc.collect()
    return dropped


@pytest.mark.parametrize("reader", READERS)
def test_tools_built_and_dropped_are_collected_and_leave_the_roster(reader):
    system, build, each = READERS[reader]
    editor = shared_roster(system)
    kept = build()
    assert len(editor._callbacks) == each
    dropped = build_and_drop(build, DROPPED, kept)
    assert [ref() for ref in dropped] == [None] * DROPPED
    assert len(editor._callbacks) == each
    close_whole(kept)
    del kept
    gc.collect()
    assert len(editor._callbacks) == 0


def test_a_kept_pick_still_fills_its_tool_after_the_others_went():
    kept = TempoCalculator(action="Strike", weapon="Peacemaker")
    build_and_drop(TempoCalculator, DROPPED, kept)
    shared_roster("veil_and_lead").set_roster(party())
    assert kept.pick.menu.options == (NONE_PICKED, "Ada", "Bo")
    kept.pick.menu.value = "Bo"
    assert (kept.action.value, kept.weapon.value) == ("Strike", "Saber")


def test_a_kept_party_initiative_still_lists_the_roster_after_the_others_went():
    kept = PartyInitiative()
    build_and_drop(PartyInitiative, DROPPED, kept)
    shared_roster("veil_and_lead").set_roster(party())
    assert list(kept.lines) == ["Ada", "Bo"]
    assert kept.lines["Ada"][0].value == "<b>Ada</b> <small>QUICK 4, Awareness 2</small>"


def test_the_roster_tells_its_readers_in_the_order_they_came_and_forgets_the_dead():
    told: list[tuple[str, tuple[str, ...]]] = []

    class Reader:
        def __init__(self, name: str) -> None:
            self.name = name

        def follow(self, roster: Roster) -> None:
            told.append((self.name, roster.names()))

    first, second, third = Reader("first"), Reader("second"), Reader("third")
    editor = shared_roster("veil_and_lead")
    editor.on_change(first.follow)
    editor.on_change(second.follow)
    editor.on_change(lambda roster: told.append(("a function", roster.names())))
    editor.on_change(third.follow)
    del second
    gc.collect()
    editor.set_roster(party())
    names = ("Ada", "Bo")
    assert told == [("first", names), ("a function", names), ("third", names)]
    assert len(editor._callbacks) == 3
