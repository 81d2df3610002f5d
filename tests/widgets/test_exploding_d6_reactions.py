"""The exploding-d6 reactions tool (§Reactions): who may react is read from the engine's
verdicts, the typed list is capped, and the list can be filled from the roster's fighters."""

import gc
import re

import pytest

from rulescore.roster import Roster
from rulescore.systems import exploding_d6 as x6
from tests.widgets.closing import close_whole
from widgets.exploding_d6 import _ON_ROLL, MAX_REACTORS, InitiativeRoller, ReactionsTool
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
    # §Actor and actions: a human has 2 actions a round, one with two weapons 3; each picked
    # fighter carries their own round, and the Actions a round stays for the typed Hagen.
    assert x6.max_actions("human", 0, True) == 3
    assert t.reactors.value == "Hagen 12 1, Rogue 27 2 of 2, Robber 6 3 of 3"
    assert t.maximum.value == "2" and t.unrolled.value == ""
    done = x6.reactions([("Hagen", 12, x6.ActionPool(2, 1), True),
                         ("Rogue", 27, x6.ActionPool(2, 2), True),
                         ("Robber", 6, x6.ActionPool(3, 3), True)])
    assert done.order == ("Rogue", "Hagen", "Robber")
    assert "React in this order: Rogue, Hagen, Robber" in t.result.value
    assert _items(t) == ["Rogue reacts: 1 of 2 actions left", "Hagen reacts: 0 of 2 actions left",
                         "Robber reacts: 2 of 3 actions left"]
    t.reactors.value = "Hagen 12 1, Rogue 27 0 of 2, Robber 6 3 of 3 unaware"
    t.picks.value = ("Rogue",)   # unpicking drops that fighter; edits to the others stay
    assert t.reactors.value == "Hagen 12 1, Rogue 27 0 of 2"
    assert _items(t)[-1] == "Rogue cannot react: has no action left"
    t.picks.value = ("Rogue", "Robber")
    assert t.reactors.value == "Hagen 12 1, Rogue 27 0 of 2, Robber 6 3 of 3"


def test_an_entrys_own_round_of_actions_is_checked_by_the_engine_in_the_readers_words():
    t = ReactionsTool("Robber 6 3 of 3")
    assert _items(t) == ["Robber reacts: 2 of 3 actions left"]
    # §Bonus dice actions: a bonus die spent on a full round of 3 leaves 4 in hand, usable
    # even as a reaction, so 4 left of 3 reacts (the engine's pool, not a typo refused)
    assert x6.bonus_die_action(x6.ActionPool(3, 3)).pool == x6.ActionPool(3, 4)
    t.reactors.value = "Robber 6 4 of 3"
    assert t.error.message == "" and _items(t) == ["Robber reacts: 3 of 3 actions left"]
    # §Actor and actions: 1 to 12 actions a round; at most 40 in hand (turns.MAX_AVAILABLE)
    t.reactors.value = "Robber 6 0 of 13"
    assert t.error.message == ("“Who would react”: Robber's actions a round must be from 1 to "
                               "12, got 13")
    t.reactors.value = "Robber 6 41 of 3"
    assert t.error.message == ("“Who would react”: Robber's actions left must be from 0 to "
                               "40, got 41")
    t.reactors.value = "Robber 6 1 of x"
    assert t.error.message.startswith("“Who would react”: entry 1 must be a name, the initiative")
    t.reactors.value = "Robber 6 1"
    t.maximum.value = "13"   # the Actions a round is Robber's round: the engine names him
    assert t.error.message == ("“Who would react”: Robber's actions a round must be from 1 to "
                               "12, got 13")
    t.maximum.value = "0"
    assert t.error.message == "Actions a round must be 1 or more, got 0"


def test_a_fighter_typed_already_is_not_added_twice_and_unrolled_initiative_is_said():
    shared_roster("exploding_d6").set_roster(Roster(x6.ROSTER).add("Hagen").add("Guard")
                                             .add("Rogue"))
    t = ReactionsTool("Hagen 12 1")
    t.picks.value = ("Hagen", "Guard")
    assert t.reactors.value == "Hagen 12 1, Guard 0 2 of 2"
    assert t.error.message == ""
    assert "React in this order: Hagen, Guard" in t.result.value
    # no initiative rolled yet: the 0 is said in place, not silently taken
    assert t.unrolled.value == (
        "<small class='rulebook-x6-unrolled'>Guard's initiative is not rolled yet: Guard is "
        "listed with 0, after everyone with a higher one. Roll initiative above and the list "
        "takes it, or type it in place of the 0.</small>")
    t.picks.value = ("Hagen", "Guard", "Rogue")
    assert "Initiative is not rolled yet for Guard and Rogue: they are listed with 0" in \
        t.unrolled.value
    t.reactors.value = "Hagen 12 1, Guard 7 2 of 2, Rogue 0 2 of 2"   # Guard's typed in
    assert "Rogue's initiative is not rolled yet" in t.unrolled.value
    t.reactors.value = "Hagen 12 1, Guard 7 2 of 2, Rogue 3 2 of 2"
    assert t.unrolled.value == ""
    assert "React in this order: Hagen, Guard, Rogue" in t.result.value


def test_initiative_rolled_after_the_pick_fills_the_0_in():
    """§Start of combat rolled after the picks: the fighters still listed with 0 take the
    initiative rolled (one typed over the 0 keeps it), and the note goes."""
    shared_roster("exploding_d6").set_roster(
        Roster(x6.ROSTER).add("Rogue", quickness=4, deftness=3)
        .add("Robber", quickness=2, deftness=2, two_weapons=True))
    t = ReactionsTool("Hagen 12 1")
    t.picks.value = ("Rogue", "Robber")
    assert t.reactors.value == "Hagen 12 1, Rogue 0 2 of 2, Robber 0 3 of 3"
    t.reactors.value = "Hagen 12 1, Rogue 0 1 of 2 unaware, Robber 5 3 of 3"
    assert "Rogue's initiative is not rolled yet" in t.unrolled.value
    roller = InitiativeRoller()
    roller.entry.my_dice.value = "4, 5, 1, 6, 6, 5, 3, 3"   # the rogue's 27, the robber's 6
    roller.entry.use_dice()
    assert [(r.name, r.value) for r in roller.last.rolls] == [("Rogue", 27), ("Robber", 6)]
    assert t.reactors.value == "Hagen 12 1, Rogue 27 1 of 2 unaware, Robber 5 3 of 3"
    assert t.unrolled.value == ""
    assert _items(t)[-1] == "Rogue cannot react: does not perceive the actor"


def test_copied_fighters_keep_their_number_in_the_list():
    """The roster's duplicate makes "Bandit 2": its number is part of its name, so picking and
    unpicking it touches that entry alone, and Bandit himself is listed apart."""
    shared_roster("exploding_d6").set_roster(Roster(x6.ROSTER).add("Bandit").add("Bandit 2"))
    t = ReactionsTool("Hagen 12 1")
    t.picks.value = ("Bandit 2",)
    assert t.reactors.value == "Hagen 12 1, Bandit 2 0 2 of 2"
    t.picks.value = ("Bandit 2", "Bandit")
    assert t.reactors.value == "Hagen 12 1, Bandit 2 0 2 of 2, Bandit 0 2 of 2"
    t.picks.value = ("Bandit",)
    assert t.reactors.value == "Hagen 12 1, Bandit 0 2 of 2"
    t.picks.value = ("Bandit", "Bandit 2")
    assert t.reactors.value == "Hagen 12 1, Bandit 0 2 of 2, Bandit 2 0 2 of 2"


def test_tools_built_and_dropped_leave_the_rosters_readers():
    """Each reactions tool is told of the roster's changes and of initiative rolled with it by
    a method held weakly (widgets.common.Callbacks): ten built and dropped (closed, as
    ipywidgets holds every open widget) leave the kept tool the one told of both."""
    editor = shared_roster("exploding_d6")
    kept = ReactionsTool("Hagen 12 1")
    told = [kept._follow], [kept._initiative_rolled]
    assert (editor._callbacks.live(), _ON_ROLL[editor].live()) == told
    for _ in range(10):
        close_whole(ReactionsTool("Hagen 12 1"), keep=[kept])
    gc.collect()
    assert (editor._callbacks.live(), _ON_ROLL[editor].live()) == told
    # the one kept still follows the roster and the initiative rolled
    editor.set_roster(Roster(x6.ROSTER).add("Rogue", quickness=4, deftness=3))
    assert kept.picks.options == ("Rogue",)
    kept.picks.value = ("Rogue",)
    roller = InitiativeRoller()
    roller.entry.my_dice.value = "4, 5, 1, 6, 6, 5"   # the rogue's 27
    roller.entry.use_dice()
    assert kept.reactors.value == "Hagen 12 1, Rogue 27 2 of 2"

