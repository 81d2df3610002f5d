"""Injury 5, Tests with Grievous Injury, on the fight page's engine: an attacker whose Melee
test needs a zone a Grievous injury made unusable (every zone, the IMPAIRED TESTS table)
makes an automatic CF with no roll; a test that is not rolled is not listed with its EML;
and against missiles such an injured target counts as Still (assumption
grievous_missile_still)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest

from rulescore.dice import DiceSource
from rulescore.errors import RulesError
from rulescore.systems import percentile as pc
from tests.rulescore.test_percentile_fight import roster


def _with_injury(fight: pc.Fight, name: str, location: str, level: int) -> pc.Fight:
    c = fight.combatant(name)
    return fight.with_combatant(replace(c, record=c.record.add_injury(location, "Edge", level)))


def _texts(result) -> list[str]:
    return [s.text for s in result.trace]


def test_an_attack_with_a_grievous_arm_is_an_automatic_cf_with_no_roll():
    """The Swordsman's G4E shoulder: his attack is an automatic CF with its automatic fumble
    (INJURY MISHAP, arm), only the Brigand's d100 is read, and a CF never lands a blow. The
    Brigand's Counterstrike EML 60 then wins on S or CS: a 35 is S, his blow lands."""
    rows = roster()
    fight = _with_injury(pc.fight_for(rows), "Swordsman", "Shoulder", 4)
    swordsman, brigand = rows.fighter("Swordsman"), rows.fighter("Brigand")
    strike = pc.melee_attack(fight, swordsman, brigand, dice=DiceSource.typed([35, 1, 1, 1, 1]))
    assert strike.rolled[0] == ("defender's d100", 35)
    assert "attacker's d100" not in [name for name, _ in strike.rolled]
    ex = strike.exchange
    assert (ex.attack_level, ex.attacker_mishap, ex.striker) == ("CF", "Automatic Fumble",
                                                                 "defender")
    texts = _texts(strike)
    assert not any(t.startswith("Attacker's test: Melee ML") for t in texts)
    assert ("Attacker's test: not rolled, the attack is an automatic CF: Swordsman's G4E "
            "Shoulder left the arms zone unusable") in texts
    assert texts.index("Attacker's test: not rolled, the attack is an automatic CF: "
                       "Swordsman's G4E Shoulder left the arms zone unusable") \
        < texts.index("Defender declares Counterstrike with broadsword")
    assert ("Attack with the arms zone unusable (Grievous injury): an automatic CF, no roll; "
            "automatic fumble") in texts


def test_the_odds_before_an_attack_that_is_an_automatic_cf():
    """Before the roll: no blow of the attacker's lands; the Counterstrike EML 60 lands on
    1-60 (60%: 2 or 3 stars as the matrix gives), else no strike. Brute force over the
    defender's 100 faces with the exchange itself gives the same exact odds."""
    rows = roster()
    fight = _with_injury(pc.fight_for(rows), "Swordsman", "Thigh", 4)
    swordsman, brigand = rows.fighter("Swordsman"), rows.fighter("Brigand")
    before = pc.melee_odds(fight, swordsman, brigand)
    assert before.outcome == ("Swordsman's attack is an automatic CF, no roll (the legs zone "
                              "is unusable), against Counterstrike EML 60")
    counts: Counter = Counter()
    for face in range(1, 101):
        r = pc.melee_exchange(None, 60, "Counterstrike", face, 60,
                              attacker_unusable_zone="Legs")
        counts[(r.outcome, r.stars)] += 1
    assert before.odds == {k: Fraction(n, 100) for k, n in counts.items()}
    assert not any(outcome == "strike" for outcome, _ in before.odds)
    assert sum(p for (o, _), p in before.odds.items() if o == "counterstrike") == Fraction(3, 5)
    assert before.odds[("no strike", 0)] == Fraction(2, 5)


def test_a_serious_injury_leaves_the_attack_rolled():
    rows = roster()
    fight = _with_injury(pc.fight_for(rows), "Swordsman", "Shoulder", 3)
    strike = pc.melee_attack(fight, rows.fighter("Swordsman"), rows.fighter("Brigand"),
                             dice=DiceSource.typed([95, 96]))
    assert [n for n, _ in strike.rolled] == ["attacker's d100", "defender's d100"]


def test_both_sides_with_grievous_injuries_roll_nothing():
    """Both tests automatic CFs: no die is read, no strike, each side its zone's mishap;
    neither test is listed with an EML."""
    rows = roster().set("Brigand", "defence", "Block")
    fight = _with_injury(_with_injury(pc.fight_for(rows), "Swordsman", "Shoulder", 4),
                         "Brigand", "Abdomen", 4)
    swordsman, brigand = rows.fighter("Swordsman"), rows.fighter("Brigand")
    strike = pc.melee_attack(fight, swordsman, brigand, dice=DiceSource.typed([]))
    assert strike.rolled == () and strike.struck is None
    assert (strike.exchange.attacker_mishap, strike.exchange.defender_mishap) == (
        "Automatic Fumble", "Automatic Stumble")
    assert not any(t.startswith(("Attacker's test: Melee", "Defender's test: Melee"))
                   for t in _texts(strike))
    assert pc.melee_odds(fight, swordsman, brigand).odds == {("no strike", 0): Fraction(1)}


def test_the_defender_s_test_not_rolled_is_not_listed_as_rolled():
    """The Brigand's Grievous shoulder: his Block's EML is not listed; the step that stands
    in its place names the injury and cites Injury 5."""
    rows = roster().set("Brigand", "defence", "Block")
    fight = _with_injury(pc.fight_for(rows), "Brigand", "Shoulder", 4)
    strike = pc.melee_attack(fight, rows.fighter("Swordsman"), rows.fighter("Brigand"),
                             dice=DiceSource.typed([71]))
    texts = _texts(strike)
    assert "Defender's test: Melee ML 60" not in texts
    said = next(s for s in strike.trace if s.text.startswith("Defender's test: not rolled"))
    assert said.text == ("Defender's test: not rolled, the Block is an automatic CF: "
                         "Brigand's G4E Shoulder left the arms zone unusable")
    assert "Tests with Grievous Injury" in str(said.rule)
    assert texts.index(said.text) == texts.index("Defender declares Block with broadsword") + 1


def test_a_helpless_defender_and_an_attacker_who_cannot_strike():
    """Against a helpless defender the attacker's automatic CF still stands: no strike, no
    die; the attacker's Setup has no test to lift."""
    rows = roster()
    fight = _with_injury(pc.fight_for(rows), "Swordsman", "Skull", 4)
    swordsman, brigand = rows.fighter("Swordsman"), rows.fighter("Brigand")
    strike = pc.melee_attack(fight, swordsman, brigand, helpless=True, attack_setups=1,
                             dice=DiceSource.typed([]))
    assert strike.rolled == () and strike.struck is None
    assert strike.exchange.attacker_mishap == "Automatic Fumble & Stumble"
    assert any(t.startswith("Attacker's Setup TA from the last round (1) does not apply")
               for t in _texts(strike))
    assert pc.melee_odds(fight, swordsman, brigand, helpless=True).odds == {
        ("no strike", 0): Fraction(1)}


def test_melee_exchange_refuses_a_typed_attack_roll_with_an_unusable_zone():
    with pytest.raises(RulesError, match="attack_roll must be empty when the attacker's Arms"):
        pc.melee_exchange(40, 60, "Block", 30, 60, attacker_unusable_zone="Arms")
    with pytest.raises(RulesError, match="attacker_unusable_zone must be one of"):
        pc.melee_exchange(None, 60, "Block", 30, 60, attacker_unusable_zone=True)
    with pytest.raises(RulesError, match="attacker_unusable_zone must be one of"):
        pc.melee_outcome_distribution(60, "Block", 60, attacker_unusable_zone="Tail")


def test_a_target_with_a_grievous_injury_counts_as_still_against_missiles():
    """Nolora (Archery 75) shoots at the moving Brigand, 30 ft, Direct: EML 75 - 10 = 65.
    With a G4E shoulder on his record he counts as Still: EML 75, with a step citing Injury
    5, and a strike carries the Still target's free Precision TA."""
    rows = roster()
    fight = pc.fight_for(rows)
    hurt = _with_injury(fight, "Brigand", "Shoulder", 4)
    nolora, brigand = rows.fighter("Nolora"), rows.fighter("Brigand")
    assert pc.missile_odds(fight, nolora, brigand, range_ft=30,
                           target_moves="moving").value == 65
    still = pc.missile_odds(hurt, nolora, brigand, range_ft=30, target_moves="moving")
    assert still.value == 75 and still.outcome == "Direct shot, test EML 75"
    said = next(s for s in still.trace if "counts as Still" in s.text)
    assert said.text == "The target has a Grievous injury: it counts as Still, not moving"
    assert "Tests with Grievous Injury" in str(said.rule)
    assert still.odds == pc.missile_outcome_distribution(75)
    shot = pc.missile_attack(hurt, nolora, brigand, range_ft=30, target_moves="moving",
                             dice=DiceSource.seeded(3))
    moving = pc.missile_attack(fight, nolora, brigand, range_ft=30, target_moves="moving",
                               dice=DiceSource.typed([41, 1, 1, 1, 1]))   # one Zone Die
    assert moving.shot.attack.level == "S" and moving.shot.attack.precision == 0
    hit = pc.missile_attack(hurt, nolora, brigand, range_ft=30, target_moves="moving",
                            dice=DiceSource.typed([41, 1, 1, 1, 1, 1, 1]))  # two Zone Dice
    assert hit.shot.attack.level == "S" and hit.shot.attack.precision == 1
    assert [n for n, _ in hit.rolled][:3] == ["shot roll (d100)", "Zone Die 1 (d8)",
                                              "Zone Die 2 (d8)"]
    assert shot.shot.eml.value == 75


def test_a_shooter_with_a_grievous_injury_makes_an_automatic_cf():
    """Nolora's G4E hand: Archery needs every zone (IMPAIRED TESTS), so her shot is an
    automatic CF with no d100, the arm's automatic fumble, and no attack takes place; the
    odds before the roll are that one certain result."""
    rows = roster()
    fight = _with_injury(pc.fight_for(rows), "Nolora", "Hand", 4)
    nolora, brigand = rows.fighter("Nolora"), rows.fighter("Brigand")
    before = pc.missile_odds(fight, nolora, brigand, range_ft=30)
    assert before.odds == {("mishap", 0): Fraction(1)}
    assert before.outcome == ("Nolora's shot is an automatic CF, no roll (the arms zone is "
                              "unusable): a mishap, no attack")
    shot = pc.missile_attack(fight, nolora, brigand, range_ft=30, dice=DiceSource.typed([]))
    assert shot.rolled == () and shot.struck is None
    assert shot.shot.attack.mishap == "Automatic Fumble"
    assert shot.outcome == "CF: Automatic Fumble, no attack"
    assert ("Missile test with the arms zone unusable (Grievous injury): an automatic CF, no "
            "roll; automatic fumble") in _texts(shot)
    with pytest.raises(RulesError, match="roll must be empty when the shooter's Arms zone"):
        pc.missile_shot(75, 30, 40, roll=50, shooter_unusable_zone="Arms")
    with pytest.raises(RulesError, match="shooter_unusable_zone must be one of"):
        pc.missile_shot(75, 30, 40, shooter_unusable_zone=False)


def test_attack_untested_says_why_exactly_when_the_attacker_rolls_no_test():
    """The attacker makes no Melee test when a Grievous injury left a zone the attack needs
    unusable (an automatic CF, Injury 5) or when the defender is helpless (a CS Ignore
    result, no roll: Injury 4); the reason comes back in a reader's words exactly when the
    exchange reads no attacker's d100. A G4 shoulder or thigh counts, a Serious S3 shoulder
    does not; the injury's automatic CF stands against a helpless defender too."""
    rows = roster()
    fight = pc.fight_for(rows)
    swordsman, brigand = rows.fighter("Swordsman"), rows.fighter("Brigand")
    arms = ("Swordsman's arms zone is unusable (Grievous injury): the attack is an automatic "
            "CF, no test")
    unconscious = fight.with_combatant(replace(fight.combatant("Brigand"), shock="UNC"))
    cases = [
        (fight, False, None),
        (_with_injury(fight, "Swordsman", "Shoulder", 3), False, None),
        (_with_injury(fight, "Swordsman", "Shoulder", 4), False, arms),
        (_with_injury(fight, "Swordsman", "Thigh", 4), False,
         "Swordsman's legs zone is unusable (Grievous injury): the attack is an automatic CF, "
         "no test"),
        (fight, True, "Brigand is helpless: the attack is a CS with no roll"),
        (unconscious, False, "Brigand is helpless: the attack is a CS with no roll"),
        (_with_injury(fight, "Swordsman", "Shoulder", 4), True, arms),
    ]
    for now, helpless, why in cases:
        assert pc.attack_untested(now, swordsman, brigand, helpless=helpless) == why
        strike = pc.melee_attack(now, swordsman, brigand, helpless=helpless, attack_setups=1,
                                 dice=DiceSource.seeded(3))
        rolled = [name for name, _ in strike.rolled]
        assert ("attacker's d100" in rolled) == (why is None), (helpless, why)
        lifted = any(t.startswith("Attacker's Setup TA from the last round (1) does not apply")
                     for t in _texts(strike))
        assert lifted == (why is not None and "zone" in why)


def test_attack_untested_names_an_attacker_who_cannot_act():
    """Injury 4 Shock states: an Incapacitated or Unconscious attacker, or a dead one, makes
    no attack at all; melee_attack refuses them with the same words."""
    rows = roster()
    fight = pc.fight_for(rows)
    swordsman, brigand = rows.fighter("Swordsman"), rows.fighter("Brigand")
    for shock, why in (("INC", "Swordsman is Incapacitated and cannot act"),
                       ("UNC", "Swordsman is Unconscious and cannot act"),
                       ("KIA", "Swordsman is dead")):
        now = fight.with_combatant(replace(fight.combatant("Swordsman"), shock=shock))
        assert pc.attack_untested(now, swordsman, brigand) == why
        with pytest.raises(RulesError, match=f"^the attacker {why}$"):
            pc.melee_attack(now, swordsman, brigand, dice=DiceSource.seeded(3))
    with pytest.raises(RulesError, match="helpless must be True or False, got 1"):
        pc.attack_untested(fight, swordsman, brigand, helpless=1)
    with pytest.raises(RulesError, match="defender must be"):
        pc.attack_untested(fight, swordsman, "Brigand")


def test_each_sides_test_steps_carry_its_tag_and_only_those_are_left_out():
    """The declaration tags each side's EML steps (value ``test``); an attack that is an
    automatic CF leaves out exactly the attacker's tagged steps, whatever their wording, and
    keeps every defender's step."""
    rows = roster()
    swordsman, brigand = rows.fighter("Swordsman"), rows.fighter("Brigand")
    fresh = pc.melee_odds(pc.fight_for(rows), swordsman, brigand)
    tags = [dict(s.values).get("test") for s in fresh.trace]
    assert tags == [None, "attacker", None, "defender"]
    assert [t.startswith("Attacker's test: ") for t in _texts(fresh)] == \
        [tag == "attacker" for tag in tags]
    assert [t.startswith("Defender's test: ") for t in _texts(fresh)] == \
        [tag == "defender" for tag in tags]
    hurt = pc.melee_odds(_with_injury(pc.fight_for(rows), "Swordsman", "Thigh", 4),
                         swordsman, brigand)
    assert [dict(s.values).get("test") for s in hurt.trace].count("attacker") == 0
    assert [s for s in hurt.trace if dict(s.values).get("test") == "defender"] == \
        [s for s in fresh.trace if dict(s.values).get("test") == "defender"]
