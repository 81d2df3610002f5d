"""The range-band roster and fight (DESIGN.md §5 "At the table"): positions pair by pair filling
a shot's difficulty, hits with their margins, falls with their damage dice, hiding, saving."""

from __future__ import annotations

import pytest

from rulescore import RulesError
from rulescore.dice import DiceSource
from rulescore.roster import Roster
from rulescore.systems import range_bands as rb
from rulescore.systems.range_bands.fight import starter_fight
from rulescore.systems.range_bands.roster import optimal_bands


def _roster() -> Roster:
    return (Roster(rb.ROSTER)
            .add("Ada", pc=True, shooting=5, weapon="crossbow", optimal="close",
                 optimal2="distant", shot_bonus=1)
            .add("Bo", shooting=3, weapon="burst", optimal="very_close")
            .add("Cy"))


def _fight() -> rb.Fight:
    return starter_fight(("Ada", "Bo", "Cy"), {("Ada", "Bo"): "far", ("Bo", "Cy"): "very_close"},
                            {"Bo": "medium"})


def test_positions_are_kept_pair_by_pair():
    fight = _fight()
    assert fight.band_between("Ada", "Bo") == fight.band_between("Bo", "Ada") == "far"
    assert fight.band_between("Ada", "Cy") is None
    moved = fight.place("Bo", "Ada", "close").fight
    assert moved.band_between("Ada", "Bo") == "close"
    assert moved.bands.count(("Ada", "Bo", "close")) == 1
    with pytest.raises(RulesError, match="band_between must be one of"):
        fight.place("Ada", "Bo", "nowhere")
    with pytest.raises(RulesError, match="no band from themselves"):
        fight.band_between("Ada", "Ada")
    with pytest.raises(RulesError, match="no fighter called 'Zed'"):
        fight.place("Ada", "Zed", "close")


def test_shot_difficulty_is_filled_from_the_two_fighters():
    roster, fight = _roster(), _fight()
    setup = fight.shot_inputs(roster.fighter("Ada"), roster.fighter("Bo"), "Ada", "Bo")
    assert setup == dict(target_band="far", optimal_bands=("close", "distant"), cover="medium",
                         target_movement="still", weapon="crossbow", target_hidden=False,
                         skill_pool=5, roll_bonus=1)
    plan = rb.plan_shot(**setup)
    # far is one band past distant (+1D) and medium cover +2D on the 4D base
    assert plan.difficulty.value == rb.shot_difficulty("far", ["close", "distant"], "medium").value == 7
    dashing = fight.mark("Bo", movement="dash").fight
    assert dashing.shot_inputs(roster.fighter("Ada"), roster.fighter("Bo"), "Ada",
                               "Bo")["target_movement"] == "dash"
    with pytest.raises(RulesError, match="Ada and Cy are not placed yet"):
        fight.shot_inputs(roster.fighter("Ada"), roster.fighter("Cy"), "Ada", "Cy")


def test_a_hit_is_recorded_with_its_margin():
    roster, fight = _roster(), _fight()
    setup = fight.shot_inputs(roster.fighter("Ada"), roster.fighter("Bo"), "Ada", "Bo")
    plan = rb.plan_shot(**setup)
    dice = [6, 6, 6, 6, 5] + [1] * plan.difficulty.value
    result = rb.shot(plan.difficulty.value, setup["skill_pool"], roll_bonus=plan.roll_bonus,
                     dice=DiceSource.typed(dice))
    assert result.hit
    after = fight.apply_shot("Ada", "Bo", result)
    assert after.fight.of("Bo").hits == (rb.Hit("Ada", result.margin, critical=True),)
    assert "hit by" in after.line and str(result.margin) in after.line
    miss = rb.shot(plan.difficulty.value, 5, dice=DiceSource.typed([1] * 5 + [6] * 7))
    assert fight.apply_shot("Ada", "Bo", miss).fight == fight


def test_area_hit_reaches_the_targets_square():
    fight = _fight()
    hit = rb.shot(3, [6, 6, 6], [1, 1, 1], area_fire=True)
    after = fight.apply_shot("Ada", "Bo", hit).fight
    assert fight.in_square("Bo") == ("Bo", "Cy")
    for name in ("Bo", "Cy"):
        assert after.of(name).hits == (rb.Hit("Ada", 3, area=True),)
    assert after.of("Ada").hits == ()


def test_a_fall_keeps_its_damage_dice_and_its_roll():
    fight = _fight().place("Ada", "Cy", "distant").fight
    fall = rb.dash("distant", "closer", "very_hard", [1, 1], [6, 6, 6, 6, 6])
    after = fight.apply_move("Cy", "Ada", fall).fight
    cy = after.of("Cy")
    assert cy.prone and cy.falls == (rb.Fall(3),) and cy.movement == "dash"
    assert after.band_between("Ada", "Cy") == "distant"      # no progress on a fall
    rolled = after.roll_fall("Cy", dice=DiceSource.typed([2, 5, 6]))
    assert rolled.fight.of("Cy").falls == (rb.Fall(3, 13),)
    assert rb.fall_damage(3, dice=DiceSource.typed([2, 5, 6])).value == 13
    with pytest.raises(RulesError, match="no fall waiting"):
        rolled.fight.roll_fall("Cy", dice=DiceSource.typed([1, 1, 1]))


def test_a_move_changes_the_band_between_the_two_and_ends_hiding_when_dashing():
    fight = _fight().place("Ada", "Cy", "distant").fight
    fight = fight.apply_stealth("Cy", rb.stealth([6, 6], [1, 1])).fight
    assert fight.of("Cy").hidden and fight.of("Cy").streak == 1
    moved = fight.apply_move("Cy", "Ada", rb.move("distant", "closer")).fight
    assert moved.band_between("Ada", "Cy") == "close" and moved.of("Cy").hidden
    dashed = fight.apply_move("Cy", "Ada", rb.dash("distant", "closer")).fight
    assert dashed.band_between("Ada", "Cy") == "very_close"
    assert not dashed.of("Cy").hidden and dashed.of("Cy").movement == "dash"
    with pytest.raises(RulesError, match="the move starts at close, but Cy is distant"):
        fight.apply_move("Cy", "Ada", rb.move("close", "closer"))
    assert dashed.new_turn().fight.of("Cy").movement == "still"


def test_stealth_streak_makes_unaware_and_seen_resets():
    fight = _fight()
    once = fight.apply_stealth("Cy", rb.stealth([6, 6], [1, 1])).fight
    twice = once.apply_stealth("Cy", rb.stealth([6, 6], [1, 1], streak=1)).fight
    assert twice.of("Cy").unaware
    assert not twice.mark("Cy", hidden=False).fight.of("Cy").streak


def test_follow_rename_and_saving():
    fight = _fight().apply_shot("Ada", "Bo", rb.shot(3, [6, 6, 6], [1, 1, 1])).fight
    assert fight.follow(("Ada", "Cy")).bands == ()
    renamed = fight.rename("Ada", "Ana")
    assert renamed.band_between("Ana", "Bo") == "far"
    assert renamed.of("Bo").hits[0].shooter == "Ana"
    with pytest.raises(RulesError, match="already has a fighter called 'Bo'"):
        fight.rename("Ada", "Bo")
    assert rb.Fight.from_json(fight.to_json()) == fight
    bad = fight.to_json().replace('"far"', '"nowhere"')
    with pytest.raises(RulesError, match="band"):
        rb.Fight.from_json(bad)
    stray = fight.to_json().replace('"a":"Ada"', '"a":"Zed"')
    with pytest.raises(RulesError, match="not two fighters"):
        rb.Fight.from_json(stray)


def test_roster_optimal_bands():
    roster = _roster()
    assert optimal_bands(roster.fighter("Ada")) == ("close", "distant")
    assert optimal_bands(roster.fighter("Bo")) == ("very_close",)
    with pytest.raises(RulesError, match="Optimal band of Bo"):
        roster.set("Bo", "optimal", "extreme")
