"""IMPAIRED ACTIONS AND MOVEMENT, Example 1: "a right shoulder injury affects only right-arm
actions … Left arm actions and movement are unaffected." The injury sequence keeps the side
of an arm or leg on the record, the roster says which arm a fighter fights with, and only a
Grievous injury on that arm (or one the record holds no side for) makes the attack, Block or
Counterstrike an automatic CF (assumption grievous_arm_defence, switchable)."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest

from rulescore.dice import DiceSource
from rulescore.errors import RulesError
from rulescore.systems import percentile as pc
from tests.rulescore.test_percentile_fight import roster


def _hurt(rows, name: str, side: str | None, location: str = "Shoulder") -> pc.Fight:
    fight = pc.fight_for(rows)
    c = fight.combatant(name)
    return fight.with_combatant(replace(c, record=c.record.add_injury(location, "Edge", 4,
                                                                      side=side)))


ROLLED = ["attacker's d100", "defender's d100"]


def test_a_left_arm_injury_leaves_a_right_handed_attack_rolled():
    rows = roster()
    fight = _hurt(rows, "Swordsman", "left")
    swordsman, brigand = rows.fighter("Swordsman"), rows.fighter("Brigand")
    assert pc.attack_untested(fight, swordsman, brigand) is None
    strike = pc.melee_attack(fight, swordsman, brigand, dice=DiceSource.typed([95, 96]))
    assert [n for n, _ in strike.rolled] == ROLLED
    assert pc.melee_odds(fight, swordsman, brigand).odds == \
        pc.melee_odds(pc.fight_for(rows), swordsman, brigand).odds


def test_a_right_arm_injury_makes_a_right_handed_attack_an_automatic_cf():
    rows = roster()
    fight = _hurt(rows, "Swordsman", "right")
    swordsman, brigand = rows.fighter("Swordsman"), rows.fighter("Brigand")
    assert pc.attack_untested(fight, swordsman, brigand) == (
        "Swordsman's right arm is unusable (Grievous injury): the attack is an automatic CF, "
        "no test")
    strike = pc.melee_attack(fight, swordsman, brigand, dice=DiceSource.typed([96]))
    assert [n for n, _ in strike.rolled] == ["defender's d100"]
    assert ("Attacker's test: not rolled, the attack is an automatic CF: Swordsman's G4E "
            "right shoulder left the arms zone unusable") in [s.text for s in strike.trace]


def test_an_injury_with_no_side_counts_on_either_arm():
    rows = roster()
    fight = _hurt(rows, "Swordsman", None)
    assert pc.attack_untested(fight, rows.fighter("Swordsman"), rows.fighter("Brigand")) == (
        "Swordsman's arms zone is unusable (Grievous injury): the attack is an automatic CF, "
        "no test")


def test_the_other_reading_lets_any_grievous_arm_injury_stop_the_attack():
    rows = roster()
    fight = _hurt(rows, "Swordsman", "left")
    swordsman, brigand = rows.fighter("Swordsman"), rows.fighter("Brigand")
    assert pc.attack_untested(fight, swordsman, brigand, grievous_arm="any") == (
        "Swordsman's left arm is unusable (Grievous injury): the attack is an automatic CF, "
        "no test")
    strike = pc.melee_attack(fight, swordsman, brigand, grievous_arm="any",
                             dice=DiceSource.typed([96]))
    assert [n for n, _ in strike.rolled] == ["defender's d100"]
    assert pc.melee_odds(fight, swordsman, brigand, grievous_arm="any").outcome == (
        "Swordsman's attack is an automatic CF, no roll (the arms zone is unusable), against "
        "Counterstrike EML 60")


def test_a_left_handed_fighter_loses_the_left_arm_and_keeps_the_right():
    rows = roster().set("Swordsman", "weapon_arm", "left")
    swordsman, brigand = rows.fighter("Swordsman"), rows.fighter("Brigand")
    assert pc.attack_untested(_hurt(rows, "Swordsman", "right"), swordsman, brigand) is None
    assert pc.attack_untested(_hurt(rows, "Swordsman", "left"), swordsman, brigand) == (
        "Swordsman's left arm is unusable (Grievous injury): the attack is an automatic CF, "
        "no test")


def test_a_two_handed_grip_needs_both_arms():
    rows = roster().set("Swordsman", "grip", "two-handed")
    assert pc.attack_untested(_hurt(rows, "Swordsman", "left"), rows.fighter("Swordsman"),
                              rows.fighter("Brigand")) is not None


@pytest.mark.parametrize(("side", "defence", "rolled"), [
    ("left", "Block", True), ("left", "Counterstrike", True), ("right", "Block", False),
    ("right", "Counterstrike", False), (None, "Block", False), ("right", "Dodge", True)])
def test_the_defence_follows_the_weapon_arm(side, defence, rolled):
    """The Brigand fights right-handed: a Block or Counterstrike needs his right arm, a
    Dodge no arm."""
    rows = roster()
    fight = _hurt(rows, "Brigand", side)
    swordsman, brigand = rows.fighter("Swordsman"), rows.fighter("Brigand")
    why = pc.defence_untested(fight, brigand, defence=defence)
    assert (why is None) == rolled
    strike = pc.melee_attack(fight, swordsman, brigand, defence=defence,
                             dice=DiceSource.typed([95, 96] if rolled else [95]))
    assert [n for n, _ in strike.rolled] == (ROLLED if rolled else ROLLED[:1])


def test_a_shot_still_needs_both_arms():
    """A bow needs both hands: a Grievous left arm stops a right-handed archer's shot."""
    rows = roster()
    fight = _hurt(rows, "Nolora", "left")
    odds = pc.missile_odds(fight, rows.fighter("Nolora"), rows.fighter("Brigand"), range_ft=20)
    assert odds.odds == {("mishap", 0): 1}


def test_the_option_is_checked():
    rows = roster()
    with pytest.raises(RulesError, match="grievous_arm must be one of"):
        pc.attack_untested(pc.fight_for(rows), rows.fighter("Swordsman"),
                           rows.fighter("Brigand"), grievous_arm="left")


# --- the side on the record --------------------------------------------------------------

def test_the_injury_sequence_keeps_the_side_it_found():
    """ZN2 is the arms zone; Location Die 3 is odd: the left shoulder (assumption limb_side)."""
    walk = pc.injury_sequence(zone_die=6, aim_zone=2, impact_modifier=20, dice=[1, 3, 10, 50],
                              record=pc.InjuryRecord())
    (inj,) = walk.record.injuries
    assert (inj.location, inj.side, inj.code) == ("Shoulder", "left", "G5E")
    assert walk.record.log == ("Day 0: G5E to the left shoulder",)


def test_a_side_is_only_left_or_right_and_only_on_a_limb():
    record = pc.InjuryRecord()
    assert record.add_injury("Thigh", "Edge", 2, side="right").injuries[0].side == "right"
    with pytest.raises(RulesError, match="side must be left or right"):
        record.add_injury("Hand", "Edge", 2, side="up")
    with pytest.raises(RulesError, match="side is only for an arm or leg location; the "
                                         "abdomen has none"):
        record.add_injury("Abdomen", "Edge", 2, side="left")


def test_a_saved_record_keeps_the_side_and_an_older_one_loads_without_it():
    record = pc.InjuryRecord().add_injury("Shoulder", "Edge", 4, side="left")
    assert pc.InjuryRecord.from_json(record.to_json()) == record
    data = json.loads(record.to_json())
    del data["record"]["injuries"][0]["side"]
    older = pc.InjuryRecord.from_json(json.dumps(data))
    assert older.injuries[0].side is None


@pytest.mark.parametrize(("location", "side", "message"), [
    ("Shoulder", "middle", "injuries[1].side must be one of 'left', 'right'"),
    ("Shoulder", 3, "injuries[1].side must be text, got 3"),
    ("Abdomen", "left", "injuries[1].side is only for an arm or leg location; the abdomen "
                        "has none")])
def test_a_file_with_a_wrong_side_is_refused_by_name(location, side, message):
    data = json.loads(pc.InjuryRecord().add_injury(location, "Edge", 2).to_json())
    data["record"]["injuries"][0]["side"] = side
    with pytest.raises(RulesError, match=re.escape(f"injury record: {message}")):
        pc.InjuryRecord.from_json(json.dumps(data))


def test_a_saved_fight_keeps_the_side_and_refuses_a_wrong_one_by_name():
    fight = _hurt(roster(), "Brigand", "left")
    assert pc.Fight.from_json(fight.to_json()) == fight
    data = json.loads(fight.to_json())
    row = [c["record"]["name"] for c in data["fight"]["combatants"]].index("Brigand")
    data["fight"]["combatants"][row]["record"]["injuries"][0]["side"] = "Abdomen"
    with pytest.raises(RulesError, match=re.escape(
            f"combatants[{row + 1}].record.injuries[1].side must be one of 'left', 'right'")):
        pc.Fight.from_json(json.dumps(data))
