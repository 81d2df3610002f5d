"""The missile attack walker in plain pytest: inputs → one rules call → odds, result, steps."""

import re

from rulescore.systems import percentile as pc
from widgets.percentile_missile import MissileWalker


def test_setup_shows_the_range_row_used_and_the_exact_test_odds():
    m = MissileWalker(ml=60, base_range=40, range_ft=100)
    assert "Volley 3 attack, test EML <b>40</b>" in m.setup.value
    used = re.findall(r"<tr class='rulebook-row-used'[^>]*>(.*?)</tr>", m.setup.value)
    assert len(used) == 1 and "Volley 3" in used[0]
    # EML 40: CS 5..40 (8), S 32, CF 45..100 by fives (12), F 48.
    assert "Critical: a potential strike with Volley Precision</td><td>8.00%</td><td>2/25" \
        in m.odds.value
    assert "Failure: the volley deviates</td><td>48.00%</td><td>12/25" in m.odds.value


def test_every_modifier_input_reaches_the_eml():
    m = MissileWalker(ml=60, base_range=40, range_ft=40)
    m.target.value = "evading"
    m.dodge_index.value = 2
    m.moving.value = True
    m.aimed.value = True
    m.windforce.value = 3
    m.trauma.value = 5
    m.tar.value = 2
    expected = pc.missile_eml(60, "Direct", "evading", dodge_index=2, shooter_moving=True,
                              aimed=True, windforce=3, trauma=5, tar=2).test_eml
    assert f"test EML <b>{expected}</b>" in m.setup.value
    assert m.dodge_index.disabled is False and m.heft.disabled is True
    m.weapon.value = "thrown object"
    m.heft.value = 10
    assert m.heft.disabled is False
    thrown = pc.missile_eml(60, "Direct", "evading", dodge_index=2, aimed=True, windforce=3,
                            trauma=5, tar=2, thrown="object", heft_penalty=10).test_eml
    assert f"test EML <b>{thrown}</b>" in m.setup.value


def test_wet_string_and_overhead_change_the_attack():
    m = MissileWalker(ml=60, base_range=40, range_ft=40)
    m.wet.value = True
    assert "Volley 2 attack" in m.setup.value
    m.overhead.value = 8
    assert "a Volley 2 attack is not possible with “Low ceiling (ft)” 8 " in m.error.message
    assert m.setup.value == ""
    m.overhead.value = 0
    assert m.error.message == ""


def test_seeded_roll_replays_and_typed_dice_walk_the_stray_strike():
    m = MissileWalker()
    m.entry.roll(seed=11)
    first = m.result.value
    m.entry.replay()
    assert m.result.value == first and "(seed 11)" in first
    m.count.value = 3
    m.entry.my_dice.value = "61, 2, 10"
    m.entry.use_dice()
    assert "F: target 2 is struck with a bonus Impact TA" in m.result.value
    assert "Target count 3; d20 roll 2 ≤ 3" in m.explanation.value


def test_missing_and_extra_dice_are_explained_in_place():
    m = MissileWalker()
    m.entry.my_dice.value = "61"
    m.entry.use_dice()
    assert "still to roll: target d20, impact d10" in m.result.value
    m.entry.my_dice.value = "33, 4"
    m.entry.use_dice()
    assert "1 more typed than this shot uses" in m.entry.error.message
    m.entry.my_dice.value = "101"
    m.entry.use_dice()
    assert "shot roll (d100) must be from 1 to 100, got 101" in m.entry.error.message


def test_spoiled_attack_switch():
    m = MissileWalker(ml=0, base_range=40, range_ft=150)
    assert "spoiled at -40" in m.setup.value
    m.spoiled.value = "no_attack"
    assert "Spoiled: no attack</td><td>100.00%" in m.odds.value
    m.entry.roll(seed=1)
    assert "spoiled: no attack" in m.result.value


def test_a_stray_strike_after_a_direct_miss_asks_for_a_d10_zone_die():
    """Direct Missile Results, Miss: the bystander hit is located with a d10 Zone Die, even
    though the Direct range row (shown before the roll) gives the target a d8."""
    m = MissileWalker(ml=60, base_range=40, range_ft=40)
    assert "Zone Die d8 on the target itself" in m.setup.value
    m.count.value = 3
    m.entry.my_dice.value = "61, 2, 4"
    m.entry.use_dice()
    assert "Roll a d10 Zone Die" in m.result.value
    m.zones.value = 16
    m.entry.use_dice()
    assert "Roll a d16 Zone Die" in m.result.value


def test_a_grievously_wounded_target_counts_as_still():
    """Injury 5, Tests with Grievous Injury: against missiles such a target is Still. A moving
    target costs -10 (ML60 at Direct: EML 50); ticked, the shot is back at EML 60."""
    m = MissileWalker(ml=60, base_range=40, range_ft=40)
    m.target.value = "moving"
    assert "test EML <b>50</b>" in m.setup.value
    m.grievous.value = True
    assert "test EML <b>60</b>" in m.setup.value
