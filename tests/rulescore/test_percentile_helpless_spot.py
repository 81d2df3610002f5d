"""Injury 1, Helpless targets: a melee attacker who spends one round concentrating on a
helpless defender picks the zone and location instead of rolling the Zone and Location Dice."""

import pytest

from rulescore.dice import DiceSource
from rulescore.errors import RulesError
from rulescore.systems import percentile as pc
from tests.rulescore.test_percentile_fight import roster


def test_an_attacker_who_lines_up_the_blow_picks_the_spot():
    """The swordsman, aiming at ZN5 (the torso), picks location 6, the abdomen, on a bound
    brigand: no d100, no Zone or Location Die; the d10 8 + 3 + STR 1 + three Impact TAs of 5
    = 27E, less the quilt coat's AV4 = 23: G5E; Shock 50."""
    rows = roster()
    fight = pc.fight_for(rows)
    strike = pc.melee_attack(fight, rows.fighter("Swordsman"), rows.fighter("Brigand"),
                             helpless=True, aim_zone=5, picked_location=6,
                             dice=DiceSource.typed([8, 50]))
    assert [name for name, _ in strike.walk.rolled] == ["impact die (d10)", "Shock test (d100)"]
    assert strike.walk.location.outcome == "Abdomen" and strike.walk.impact.value == 23
    assert strike.outcome.startswith("Brigand: Abdomen: G5E injury")
    rolled = pc.melee_attack(fight, rows.fighter("Swordsman"), rows.fighter("Brigand"),
                             helpless=True, aim_zone=4, dice=DiceSource.typed([2, 6, 8, 50]))
    assert rolled.walk.location.outcome == "Abdomen"           # the dice: aimed ZN4, d6 2: ZN5


def test_a_picked_spot_needs_a_helpless_defender_and_a_location_number():
    rows = roster()
    fight = pc.fight_for(rows)
    with pytest.raises(RulesError, match="picked_location is for a helpless defender"):
        pc.melee_attack(fight, rows.fighter("Swordsman"), rows.fighter("Brigand"),
                        picked_location=6, dice=DiceSource.typed([36, 80]))
    for wrong in (True, 0, 11, "6"):
        with pytest.raises(RulesError, match="picked_location must be"):
            pc.melee_attack(fight, rows.fighter("Swordsman"), rows.fighter("Brigand"),
                            helpless=True, picked_location=wrong, dice=DiceSource.typed([8, 50]))
