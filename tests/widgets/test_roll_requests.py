"""How a tool asks the engine to roll: a DiceEntry hands every tool a typed RollRequest (a
seeded or typed DiceSource), the same seed replays the same roll, and typed dice give the
result worked by hand."""

from __future__ import annotations

import pytest

from rulescore.dice import DiceSource
from rulescore.errors import RulesError
from rulescore.roster import Roster
from rulescore.systems import percentile as pc
from rulescore.systems import tsl
from rulescore.systems import veil_and_lead as vl
from widgets.common import ERROR, SUCCESS, DiceEntry, RollRequest


def test_a_request_holds_a_dice_source_and_says_how_it_was_made():
    seeded = RollRequest.seeded(7)
    assert (seeded.seed, seeded.describe(), seeded.groups) == (7, "seed 7", ())
    assert seeded.dice.dice(3, 6) == DiceSource.seeded(7).dice(3, 6)
    typed = RollRequest.typed([6, 2])
    assert (typed.seed, typed.describe()) == (None, "your dice")
    sides = RollRequest.typed_groups([[8, 7], [3]])
    assert sides.groups == ((8, 7), (3,))
    assert vl.roll_pools(sides.dice, (2, 1)) == ((8, 7), (3,))


def test_each_handler_gets_its_own_undrawn_dice():
    entry, seen = DiceEntry(), []
    for _ in range(2):
        entry.on_request(lambda request: seen.append(request.dice.dice(2, 6)))
    entry.my_dice.value = "4, 5"
    entry.use_dice()
    assert seen == [(4, 5), (4, 5)]
    entry.roll(11)
    assert seen[2] == seen[3] == DiceSource.seeded(11).dice(2, 6)


def test_typed_counts_are_refused_in_the_readers_words():
    RollRequest.typed([40]).expect_typed(1, "one d100")
    RollRequest.seeded(3).expect_typed(1, "one d100")  # a seed rolls what it needs
    with pytest.raises(RulesError, match="My dice must be one d100, got 2 numbers"):
        RollRequest.typed([40, 3]).expect_typed(1, "one d100")


def test_a_two_sided_entry_names_the_lists_it_wants():
    entry = DiceEntry(groups=2, each="one a side")
    entry.my_dice.value = "8, 7"
    entry.use_dice()
    assert entry.error.message == "My dice must be 2 lists separated by |, one a side, got 1"


def _names(entry: DiceEntry) -> list[str]:
    return [c.description for c in (entry.roll_button, entry.seed, entry.replay_button,
                                     entry.my_dice, entry.use_dice_button)]


def test_the_entry_reads_roll_seed_replay_then_the_typed_dice_on_a_line_below():
    """Roll, Seed and Replay share the entry's wrapping row; the typed dice take a full line
    under them (so they never sit beside Replay at desktop width), the error line follows."""
    entry = DiceEntry()
    assert entry.layout.flex_flow == "row wrap"
    assert list(entry.children[:3]) == [entry.roll_button, entry.seed, entry.replay_button]
    dice_line = entry.children[3]
    assert list(dice_line.children) == [entry.my_dice, entry.use_dice_button]
    assert dice_line.layout.width == "100%" and dice_line.layout.flex_flow == "row wrap"
    assert entry.children[-1] is entry.error


def test_a_named_entry_says_what_it_rolls_and_the_default_keeps_its_words():
    """A tool's second entry (a fall after a check) is told apart by its names: its buttons
    and fields, and the messages naming them; an unnamed entry keeps Roll … Use my dice."""
    assert _names(DiceEntry()) == ["Roll", "Seed", "Replay seed", "My dice", "Use my dice"]
    fall = DiceEntry(name="fall")
    assert _names(fall) == ["Roll the fall", "Fall seed", "Replay the fall's seed",
                            "Fall dice", "Use the fall dice"]
    fall.seed.value = "x"
    fall.replay()
    assert fall.error.message == "Fall seed must be a whole number, got 'x'"
    fall.my_dice.value = "3, y"
    fall.use_dice()
    assert fall.error.message == ("Fall dice takes whole numbers separated by commas or "
                                  "spaces, got 'y'")
    assert fall.reader_words({"faces": "My dice", "who": "Fighter"}) == \
        {"faces": "Fall dice", "who": "Fighter", "dice": "Fall dice", "My dice": "Fall dice"}
    # a count refused by RollRequest.expect_typed names the entry's own field
    with pytest.raises(RulesError) as refused:
        RollRequest.typed([3, 4]).expect_typed(1, "one d3")
    fall.error.words = fall.reader_words({})
    fall.error.show(str(refused.value))
    assert fall.error.message == "“Fall dice” must be one d3, got 2 numbers"
    assert DiceEntry().reader_words({"who": "Fighter"}) == {"who": "Fighter"}
    sides = DiceEntry(groups=2, name="duel")
    sides.my_dice.value = "8, 7"
    sides.use_dice()
    assert sides.error.message == "Duel dice must be 2 lists separated by |, got 1"


def _vl_party():
    """A Veil & Lead roster of two, for the initiative roller (it reads a roster)."""
    from widgets.roster import RosterEditor
    return RosterEditor(vl.ROSTER, starter=Roster(vl.ROSTER).add("Ada").add("Bandit"))


def _x6_party():
    """An exploding-d6 roster of two, for the initiative roller (it reads a roster)."""
    from rulescore.systems import exploding_d6 as x6
    from widgets.roster import RosterEditor
    return RosterEditor(x6.ROSTER, starter=Roster(x6.ROSTER).add("Rogue").add("Robber"))


def _tools():
    """(tool factory, its DiceEntry, the widget its roll shows in) for every rolling tool."""
    from widgets.dice import DiceRoller
    from widgets.exploding_d6 import AttackPipeline, InitiativeRoller, ThrowDeviation
    from widgets.percentile_healing import HealingWalker
    from widgets.percentile_injury import InjuryWalker
    from widgets.percentile_missile import MissileWalker
    from widgets.percentile_table import BlowWalker, MeleeExchange, TestRoller
    from widgets.range_bands import DashHelper, QuickLoadHelper, ShotBuilder, StealthHelper
    from widgets.tsl import AttackResolver
    from widgets.veil_and_lead_more import DuelRoller
    from widgets.veil_and_lead_table import AttackCalculator, DownedWalker, PartyInitiative
    return [
        (lambda: DiceRoller("3d6!"), "entry", "result"),
        (lambda: InitiativeRoller(_x6_party()), "entry", "result"),
        (AttackPipeline, "entry", "result"),
        (ThrowDeviation, "entry", "result"),
        (TestRoller, "entry", "result"),
        (MeleeExchange, "entry", "result"),
        (BlowWalker, "entry", "result"),
        (InjuryWalker, "entry", "summary"),
        (MissileWalker, "entry", "result"),
        (lambda: HealingWalker("Ana", 13, 60), "heal_entry", "sheet"),
        (ShotBuilder, "entry", "result"),
        (DashHelper, "entry", "result"),
        (QuickLoadHelper, "entry", "result"),
        (StealthHelper, "entry", "result"),
        (AttackResolver, "entry", "result"),
        (DuelRoller, "entry", "result"),
        (lambda: PartyInitiative(_vl_party()), "entry", "result"),
        (AttackCalculator, "entry", "result"),
        (DownedWalker, "entry", "result"),
    ]


TOOLS = _tools()


@pytest.mark.parametrize("seed", [1, 29])
@pytest.mark.parametrize(("make", "entry_name", "shown"), TOOLS,
                         ids=[f"{i}-{m.__name__.strip('<>')}" for i, (m, _, _) in enumerate(TOOLS)])
def test_every_tool_replays_a_seed(make, entry_name, shown, seed):
    first, again = make(), make()
    getattr(first, entry_name).roll(seed)
    entry = getattr(again, entry_name)
    entry.seed.value = str(seed)
    entry.replay_button.click()
    assert getattr(first, entry_name).error.message == ""
    assert getattr(first, shown).value == getattr(again, shown).value


@pytest.mark.parametrize(("expression", "typed", "total"), [
    ("2d6", "3, 4", 7),
    # A d10's 0 and a d100's 00 are typed as they show, and read 10 and 100.
    ("1d100", "00", 100), ("1d100", "0", 100), ("2d10", "0, 3", 13), ("1d10", "10", 10)])
def test_the_dice_roller_reads_typed_dice_as_players_read_them(expression, typed, total):
    from widgets.dice import DiceRoller
    r = DiceRoller(expression)
    r.entry.my_dice.value = typed
    r.entry.use_dice()
    assert r.entry.error.message == "" and r.last.total == total
    assert "(your dice)" in r.result.value
    r.entry.roll(5)
    assert "(seed 5)" in r.result.value


def test_percentile_test_roller_typed_by_hand():
    from widgets.percentile_table import TestRoller
    t = TestRoller()
    t.eml.value = 65
    t.entry.my_dice.value = "33"  # 33 ≤ 65 and not a multiple of 5: a plain success
    t.entry.use_dice()
    assert "Success" in t.result.value and "Critical" not in t.result.value
    t.entry.roll(8)
    assert f"{DiceSource.seeded(8).d(100)}" in t.result.value and "seed 8" in t.result.value


def test_blow_walker_seeded_is_the_engines_walk():
    from widgets.percentile_table import BlowWalker
    tool = BlowWalker()
    tool.entry.roll(21)
    walk = pc.injury_sequence(zone_die=6, aim_zone=1, impact_die=10, impact_modifier=3,
                              aspect="E", armour=0, shock_eml=65, dice=DiceSource.seeded(21))
    assert f"Dice {', '.join(str(v) for _, v in walk.rolled)}:" in tool.result.value
    assert "(seed 21)" in tool.result.value


def test_range_bands_verdict_colour_reads_success():
    from widgets.range_bands import ShotBuilder
    s = ShotBuilder(target="close", optimal="close", cover="none", pool="4")
    skill, difficulty = s.counts["skill_dice"], s.counts["difficulty_dice"]
    s.entry.my_dice.value = ", ".join(["6"] * skill + ["1"] * difficulty)
    s.entry.use_dice()
    assert s.last.success and f"color:{SUCCESS}" in s.result.value
    s.entry.my_dice.value = ", ".join(["1"] * skill + ["6"] * difficulty)
    s.entry.use_dice()
    assert not s.last.success and f"color:{ERROR}" in s.result.value


def test_tsl_seeded_roll_is_the_engines_faces():
    from widgets.tsl import AttackResolver
    r = AttackResolver()
    r.entry.roll(13)
    seeded = r.last
    assert "(seed 13)" in r.result.value
    r.entry.my_dice.value = ", ".join(map(str, tsl.roll_dice(DiceSource.seeded(13))))
    r.entry.use_dice()
    assert r.last == seeded and "(your dice)" in r.result.value


def test_veil_and_lead_initiative_seeded_and_typed():
    from widgets.veil_and_lead_table import PartyInitiative
    from widgets.roster import RosterEditor
    party = Roster(vl.ROSTER).add("Ada", quick=3, awareness=2).add("Bandit", quick=2,
                                                                     awareness=1)
    tool = PartyInitiative(RosterEditor(vl.ROSTER, starter=party))
    sizes = [vl.plan_initiative(quick=3, awareness=2).dice_to_roll,
             vl.plan_initiative(quick=2, awareness=1).dice_to_roll]
    tool.entry.roll(17)
    for faces in vl.roll_pools(DiceSource.seeded(17), sizes):
        assert f"<td>{' '.join(map(str, faces))}</td>" in tool.result.value
    typed = [[8] * sizes[0], [1] * sizes[1]]
    tool.entry.my_dice.value = " | ".join(", ".join(map(str, g)) for g in typed)
    tool.entry.use_dice()
    assert tool.entry.error.message == ""
    assert f"<td>{' '.join(map(str, typed[0]))}</td>" in tool.result.value
