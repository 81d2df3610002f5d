"""The exploding-d6 tools, driven in plain pytest by setting values and reading the output."""

import re

from rulescore.systems import exploding_d6 as x6
from widgets.exploding_d6 import (AttackPipeline, InitiativeRoller, ReactionHelper,
                                  ThrowDeviation, chain_html, clock_svg)


def _order(tool):
    return re.findall(r"<td>\d+</td><td>(\w+)</td>", tool.result.value)


def test_initiative_rogue_example_typed():
    t = InitiativeRoller("Rogue 4 3; Robber 2 2")
    assert "Rogue: 4 dice, 16.8 on average" in t.odds.value
    t.entry.my_dice.value = "4, 5, 1, 6, 6, 5, 3, 3"
    t.entry.use_dice()
    assert t.entry.error.message == ""
    assert _order(t) == ["Rogue", "Robber"]
    assert "6→6→5 = 17" in t.result.value
    assert "<b>27</b>" in t.result.value
    assert "Initiative 27" in t.explanation.value


def test_initiative_seed_replays_and_ties_are_named():
    t = InitiativeRoller("A 2 1; B 2 1")
    t.entry.roll(seed=11)
    first = t.result.value
    t.entry.seed.value = "11"
    t.entry.replay()
    assert t.result.value == first
    t.entry.my_dice.value = "3, 4, 4, 3"
    t.entry.use_dice()
    assert "Tied on everything: A, B" in t.result.value


def test_initiative_errors_in_place():
    t = InitiativeRoller("Rogue 4")
    assert "entry 1 must be a name, Quickness and Deftness" in t.error.message
    t.combatants.value = "Rogue 4 3"
    assert t.error.message == ""
    t.entry.my_dice.value = "4, 5, 1"
    t.entry.use_dice()
    assert "My dice must hold 4 dice (as chains), got 3" in t.entry.error.message
    t.entry.my_dice.value = "4, 5, 1, 6"
    t.entry.use_dice()
    assert "faces end on a 6" in t.entry.error.message


def test_initiative_takes_any_quickness_the_engine_takes():
    """The seed puts no ceiling on Quickness: the roller takes the engine's bounds (0 to
    x6.MAX_DICE dice) and names the combatant whose value is out of them."""
    t = InitiativeRoller("Rogue 13 3; Robber 0 2")
    assert t.error.message == "" and "Rogue: 13 dice" in t.odds.value
    t.combatants.value = f"Rogue {x6.MAX_DICE + 1} 3"
    assert t.error.message == (f"Quickness of Rogue must be from 0 to {x6.MAX_DICE}, "
                               f"got {x6.MAX_DICE + 1}")
    t.combatants.value = "Rogue 4 -1"
    assert t.error.message == f"Deftness of Rogue must be from 0 to {x6.MAX_DICE}, got -1"


def test_attack_odds_before_roll_and_maragas_typed():
    a = AttackPipeline(skill=2, weapon_dice=2, mode="melee", cover=0, pool=2)
    assert "hit on <b>5+</b>, critical on <b>11+</b>" in a.setup_view.value
    p = x6.hit_odds(4).p_at_least(1)
    assert f"At least one hit: {p}" in a.odds.value
    a.entry.my_dice.value = "4, 5, 5, 6, 6, 2"
    a.entry.use_dice()
    assert a.entry.error.message == ""
    assert "1 crit, 2 normal hits" in a.result.value
    assert "Wounds <b>1</b>" in a.result.value
    assert "critical" in a.result.value   # the 14 is marked as a critical chain


def test_attack_recoil_across_the_round():
    a = AttackPipeline(skill=3, weapon_dice=2, mode="single")
    a.next_button.click()
    assert a.attack_number.value == "2"
    assert "hit on <b>7+</b>, critical on <b>13+</b>" in a.setup_view.value
    a.next_button.click()
    assert "hit on <b>9+</b>, critical on <b>15+</b>" in a.setup_view.value
    a.compensation.value = "1"
    assert "hit on <b>7+</b>" in a.setup_view.value
    a.round_button.click()
    assert "hit on <b>5+</b>, critical on <b>11+</b>" in a.setup_view.value
    a.mode.value = "burst"
    assert "Roll <b>7</b> dice" in a.setup_view.value and "no criticals" in a.setup_view.value


def test_attack_an_aim_between_shots_removes_recoil():
    """§Recoil and §Aiming: a second shot after one aim action has no recoil (5+, and the
    critical threshold 11 − 2 = 9). The aimed shot starts a new run, so the shot fired
    straight after it is the second in a row: 5 + 2 = 7 and 11 + 2 = 13."""
    a = AttackPipeline(skill=3, weapon_dice=2, mode="single")
    a.next_button.click()
    a.aim.value = "1"
    assert "hit on <b>5+</b>, critical on <b>9+</b>" in a.setup_view.value
    assert "no recoil" in a.setup_view.value
    a.next_button.click()
    assert (a.aim.value, a.attack_number.value) == ("0", "2")
    assert "hit on <b>7+</b>, critical on <b>13+</b>" in a.setup_view.value


def test_attack_with_cover_seeded_and_typed():
    a = AttackPipeline(skill=3, weapon_dice=2, mode="single", cover=5, pool=0)
    a.entry.roll(seed=21)
    rolled = x6.roll_attack(21, 5, cover=5)
    want = x6.resolve_attack(rolled.totals, cover=5, cover_faces=list(rolled.plain))
    assert a.last.value == want.value
    assert a.cover_dice.value == ", ".join(map(str, rolled.plain))
    assert f"Wounds <b>{want.value}</b>" in a.result.value
    a.entry.my_dice.value = "6, 5, 5, 2, 1, 1"
    a.cover_dice.value = "2, 6"
    a.entry.use_dice()
    assert a.last.cover.prevented_hits == 1 and a.last.value == 1
    a.cover_dice.value = "2"
    a.entry.use_dice()
    assert "“Cover dice” must hold one die a hit" in a.entry.error.message


def test_attack_bad_inputs():
    a = AttackPipeline()
    a.skill.value = "lots"
    assert "Skill must be a whole number, got 'lots'" in a.error.message
    assert a.odds.value == ""
    a.entry.roll(seed=1)
    assert "Fix the attack's inputs first" in a.entry.error.message
    a.skill.value = "3"
    a.mode.value = "melee"
    a.aim.value = "2"
    a.perception.value = "3"
    assert "critical on <b>8+</b>" in a.setup_view.value
    a.critical_pool.value = "5"
    assert "“Of it against crits” must be from 0 to 2, got 5" in a.error.message


def test_reaction_shield_parry_hagen():
    r = ReactionHelper("shield parry", hits=3)
    assert "1/27 (3.70%)" in r.odds.value
    r.entry.my_dice.value = "5, 5, 2"
    r.entry.use_dice()
    assert "Hits left <b>1</b>" in r.result.value
    assert "2 stopped" in r.explanation.value


def test_reaction_dodge_and_parry():
    r = ReactionHelper("dodge", hits=2, dice=2)
    r.entry.my_dice.value = "6, 2, 3"
    r.entry.use_dice()
    assert "Hits left <b>0</b>" in r.result.value and "7+" in r.explanation.value
    r.kind.value = "parry"
    r.criticals.value = "1"
    r.entry.my_dice.value = "5, 5"
    r.entry.use_dice()
    assert "Hits left <b>1</b> (1 critical)" in r.result.value
    r.entry.my_dice.value = "5"
    r.entry.use_dice()
    assert "My dice must hold 2 dice" in r.entry.error.message
    r.hits.value = "-1"
    assert "Attacker's normal hits must be 0 or more, got -1" in r.error.message


def test_throw_deviation_typed_and_seeded():
    t = ThrowDeviation(dice=2)
    assert "Chance to hit: 5/9 (55.56%)" in t.odds.value
    t.entry.my_dice.value = "2, 4"
    t.clock.value, t.metres.value = "3", "4"
    t.entry.use_dice()
    assert "lands 4 m right of the target" in t.result.value
    assert "Lands 4 m towards 3 o&#x27;clock" in t.picture.value or \
        "Lands 4 m towards 3 o'clock" in t.picture.value
    t.clock.value = ""
    t.entry.use_dice()
    assert "a missed throw deviates" in t.entry.error.message
    t.entry.roll(seed=9)
    again = t.last
    t.entry.seed.value = "9"
    t.entry.replay()
    assert t.last == again


def test_pictures():
    assert "6→6→5 = 17" in chain_html((6, 6, 5), "megacritical")
    svg = clock_svg(12, 2)
    assert svg.startswith("<svg") and "lands here" in svg and ">12</text>" in svg


def test_attack_special_walking_and_support():
    a = AttackPipeline(skill=3, weapon_dice=1, mode="melee", cover=0, pool=0)
    a.walking.value = True
    assert "hit on <b>6+</b>" in a.setup_view.value
    a.special.value = "disarm"
    assert "hit on <b>9+</b>" in a.setup_view.value
    assert "deals no wounds" in a.setup_view.value
    assert "After cover and protection" not in a.odds.value
    a.entry.my_dice.value = "6, 3, 6, 4, 2, 1"
    a.entry.use_dice()
    assert "Wounds <b>0</b>" in a.result.value and a.last.protection.value == 2
    assert "deals no wounds" in a.explanation.value
    a.special.value = "none"
    a.walking.value = False
    a.mode.value = "single"
    a.supported.value = True
    assert "hit on <b>4+</b>" in a.setup_view.value
