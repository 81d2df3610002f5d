"""The exploding-d6 reactions tool (§Reactions): who may react is read from the engine's
verdicts, the typed list is capped, and the list can be filled from the roster's fighters."""

import re

import pytest

from rulescore.roster import Roster
from rulescore.systems import exploding_d6 as x6
from widgets.exploding_d6 import MAX_REACTORS, InitiativeRoller, ReactionsTool
from widgets.roster import forget_shared_rosters, shared_roster


@pytest.fixture(autouse=True)
def _fresh_rosters():
    forget_shared_rosters()
    yield
    forget_shared_rosters()


def _items(tool: ReactionsTool) -> list[str]:
    return re.findall(r"<li>(.*?)</li>", tool.result.value)


def test_the_chapter_example_and_those_who_cannot_react():
    # §Reactions: Hagen kept one of his two actions and perceives the robber.
    t = ReactionsTool("Hagen 12 1")
    done = x6.reactions([("Hagen", 12, x6.ActionPool(2, 1), True)])
    assert done.order == ("Hagen",) and done.pools == (x6.ActionPool(2, 0),)
    assert "React in this order: Hagen" in t.result.value
    assert _items(t) == ["Hagen reacts: 0 of 2 actions left"]
    t.reactors.value = "Hagen 12 1, Rogue 9 0, Guard 14 2 unaware"
    refused = x6.reactions([("Hagen", 12, x6.ActionPool(2, 1), True),
                            ("Rogue", 9, x6.ActionPool(2, 0), True),
                            ("Guard", 14, x6.ActionPool(2, 2), False)]).refused
    assert [f"{v.name} cannot react: {v.reason}" for v in refused] == _items(t)[1:]
    assert _items(t) == ["Hagen reacts: 0 of 2 actions left",
                         "Rogue cannot react: has no action left",
                         "Guard cannot react: does not perceive the actor"]
    t.reactors.value = "Rogue 9 0"
    assert "Nobody can react" in t.result.value


def test_the_list_is_capped_in_the_readers_words():
    t = ReactionsTool()
    assert MAX_REACTORS == x6.ROSTER.max_fighters
    t.reactors.value = ", ".join(f"F{i} 3 1" for i in range(MAX_REACTORS))
    assert t.error.message == ""
    assert len(_items(t)) == MAX_REACTORS
    t.reactors.value += ", Last 3 1"
    assert t.error.message == (f"“Who would react”: at most {MAX_REACTORS} fighters, got "
                               f"{MAX_REACTORS + 1}")
    t.reactors.value = "Hagen 12 1, Hagen 3 1"
    assert t.error.message == "“Who would react”: Hagen may react only once to one action"


def test_the_list_fills_from_the_roster_with_the_initiative_rolled():
    t = ReactionsTool("Hagen 12 1")
    assert t.from_roster.layout.display == "none"   # no fighters yet: the typed list alone
    roster = shared_roster("exploding_d6")
    roster.set_roster(Roster(x6.ROSTER).add("Rogue", quickness=4, deftness=3)
                      .add("Robber", quickness=2, deftness=2, two_weapons=True))
    assert t.from_roster.layout.display != "none"
    assert t.picks.options == ("Rogue", "Robber")
    # §Start of combat: the rogue's 4, 5, 1 and 6+6+5 make 27; the robber's 3 and 3 make 6.
    roller = InitiativeRoller()
    roller.entry.my_dice.value = "4, 5, 1, 6, 6, 5, 3, 3"
    roller.entry.use_dice()
    assert [r.value for r in roller.last.rolls] == [27, 6]
    t.picks.value = ("Rogue", "Robber")
    # §Actor and actions: a human has 2 actions a round, one with two weapons 3.
    assert x6.max_actions("human", 0, True) == 3
    assert t.reactors.value == "Hagen 12 1, Rogue 27 2, Robber 6 3"
    assert t.maximum.value == "3"
    assert "React in this order: Rogue, Hagen, Robber" in t.result.value
    t.reactors.value = "Hagen 12 1, Rogue 27 0, Robber 6 3 unaware"
    t.picks.value = ("Rogue",)   # unpicking drops that fighter; edits to the others stay
    assert t.reactors.value == "Hagen 12 1, Rogue 27 0"
    assert _items(t)[-1] == "Rogue cannot react: has no action left"
    t.picks.value = ("Rogue", "Robber")
    assert t.reactors.value == "Hagen 12 1, Rogue 27 0, Robber 6 3"


def test_a_fighter_typed_already_is_not_added_twice_and_unrolled_initiative_is_0():
    shared_roster("exploding_d6").set_roster(Roster(x6.ROSTER).add("Hagen").add("Guard"))
    t = ReactionsTool("Hagen 12 1")
    t.picks.value = ("Hagen", "Guard")
    assert t.reactors.value == "Hagen 12 1, Guard 0 2"
    assert t.error.message == ""
    assert "React in this order: Hagen, Guard" in t.result.value
