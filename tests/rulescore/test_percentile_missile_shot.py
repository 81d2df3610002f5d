"""The whole missile shot (Missile 2-4 and the Direct/Volley results) walked in one call."""

from fractions import Fraction

import pytest

from rulescore.errors import RulesError
from rulescore.systems import percentile as pc


def test_direct_hit_on_a_still_target_names_the_target_and_the_free_precision():
    shot = pc.missile_shot(60, 40, 40, roll=33)  # Direct range (≤ 1 × BR), EML 60
    assert shot.range.attack_type == "Direct"
    assert (shot.attack.level, shot.value, shot.needs) == ("S", 1, ())
    assert shot.attack.precision == 1
    assert shot.trace[0].text.startswith("Range 40 ft with Base Range 40 → Direct")


def test_point_blank_adds_ten_and_a_critical_success_gives_two_stars():
    shot = pc.missile_shot(60, 20, 40, roll=70)  # Direct PB: EML 70, 70 is a CS
    assert (shot.range.attack_type, shot.eml.test_eml) == ("Direct PB", 70)
    assert (shot.attack.level, shot.attack.stars, shot.value) == ("CS", 2, 1)


def test_a_direct_miss_over_eml_5_asks_for_the_stray_d20_then_settles_it():
    first = pc.missile_shot(60, 40, 40, roll=61, target_count=2)
    assert (first.attack.level, first.value, first.needs) == ("F", 0, ("target d20", "impact d10"))
    struck = pc.missile_shot(60, 40, 40, roll=61, target_count=2, target_roll=2, impact_d10=10)
    assert (struck.value, struck.strike.impact_ta) == (2, True)
    missed = pc.missile_shot(60, 40, 40, roll=61, target_count=2, target_roll=3, impact_d10=1)
    assert (missed.value, missed.outcome) == (0, "F: nobody is struck")


def test_a_critical_failure_is_a_mishap_by_its_ones_digit():
    assert pc.missile_shot(60, 40, 40, roll=95).attack.mishap == "Stumble"
    assert pc.missile_shot(60, 40, 40, roll=100).attack.mishap == "Fumble"
    assert pc.missile_shot(60, 40, 40, roll=100).outcome == "CF: Fumble roll, no attack"


def test_volley_success_is_a_potential_strike_and_a_cs_rolls_the_precision_d10():
    s = pc.missile_shot(60, 60, 40, roll=33, target_count=3)  # Volley 2, EML 60
    assert (s.range.attack_type, s.needs) == ("Volley 2", ("target d20", "impact d10"))
    cs = pc.missile_shot(60, 60, 40, roll=30, target_count=3, target_roll=3, impact_d10=5)
    assert (cs.attack.precision, cs.value, cs.strike.impact_ta) == (1, 3, True)
    with pytest.raises(RulesError, match="stray strike"):
        pc.missile_shot(60, 60, 40, roll=30, target_count=3, target_roll=11, impact_d10=5)


def test_volley_deviation_asks_for_the_d8_then_the_area_count():
    dev = pc.missile_shot(60, 100, 40, roll=94)  # Volley 3: EML 40, 94 fails
    assert (dev.eml.test_eml, dev.attack.level, dev.needs) == (40, "F", ("deviation d8",))
    landed = pc.missile_shot(60, 100, 40, roll=94, deviation_d8=3, target_count=4,
                             target_roll=3, impact_d10=4)
    assert (landed.attack.deviation, landed.value) == (3, 3)


def test_wet_string_halves_base_range_but_not_for_thrown_weapons():
    assert pc.missile_shot(60, 40, 40, wet=True).range.attack_type == "Volley 2"
    thrown = pc.missile_shot(60, 40, 40, weapon="thrown weapon", wet=True)
    assert thrown.range.attack_type == "Direct"


def test_situational_modifiers_reach_the_eml():
    shot = pc.missile_shot(60, 40, 40, target="moving", shooter_moving=True, aimed=True)
    moving = pc.missile_eml(60, "Direct", "moving", shooter_moving=True, aimed=True)
    assert shot.eml.value == moving.value
    assert shot.needs == ("d100",)


def test_spoiled_attack_at_minus_forty_fails_or_never_happens():
    shot = pc.missile_shot(20, 150, 40, roll=3)  # Volley 4: 20 - 40 = -20; moving: -40
    assert shot.eml.value == -20
    spoiled = pc.missile_shot(0, 150, 40, roll=3)
    assert spoiled.eml.spoiled and spoiled.attack.level == "F"
    none = pc.missile_shot(0, 150, 40, roll=3, spoiled_as="no_attack")
    assert none.outcome == "spoiled: no attack"


@pytest.mark.parametrize("kwargs, message", [
    (dict(weapon="trebuchet"), "weapon must be one of"),
    (dict(range_ft=200), "out of range"),
    (dict(roll=0), "roll"),
    (dict(weapon="bow", charge_ft=20), "charge_ft applies to thrown weapons only"),
])
def test_bad_input_names_the_input(kwargs, message):
    args = dict(ml=60, range_ft=kwargs.pop("range_ft", 40), base_range=40)
    with pytest.raises(RulesError, match=message):
        pc.missile_shot(**args, **kwargs)


def test_every_d100_face_gives_a_result_matching_the_exact_odds():
    """Brute force over the 100 faces against missile_outcome_distribution."""
    counts: dict = {}
    for face in range(1, 101):
        shot = pc.missile_shot(60, 60, 40, roll=face)
        key = (shot.attack.outcome, shot.attack.stars)
        counts[key] = counts.get(key, 0) + 1
    expected = {("mishap", 0): 8, ("deviation", 0): 32, ("potential strike", 1): 48,
                ("potential strike", 2): 12}
    assert counts == expected
    dist = pc.missile_outcome_distribution(60, volley=True)
    assert dist == {k: Fraction(v, 100) for k, v in expected.items()}


def test_typed_dice_are_taken_in_order_and_extra_dice_are_refused():
    shot = pc.missile_shot(60, 100, 40, dice=[94, 3, 3, 4], target_count=4)
    assert shot.rolled == (("shot roll (d100)", 94), ("deviation (d8)", 3),
                           ("stray strike (d20)", 3), ("Impact TA check (d10)", 4))
    assert shot.value == 3
    with pytest.raises(RulesError, match="1 more typed than this shot uses"):
        pc.missile_shot(60, 40, 40, dice=[33, 5])
    with pytest.raises(RulesError, match=r"roll \(d100\) must be from 1 to 100"):
        pc.missile_shot(60, 40, 40, dice=[101])


def test_a_seeded_shot_replays_and_rolls_only_the_dice_it_needs():
    import random
    a = pc.missile_shot(60, 100, 40, target_count=4, rng=random.Random(7))
    b = pc.missile_shot(60, 100, 40, target_count=4, rng=random.Random(7))
    assert a.rolled == b.rolled and a.outcome == b.outcome and not a.needs
    for seed in range(60):
        shot = pc.missile_shot(60, 100, 40, target_count=4, rng=random.Random(seed))
        names = [n for n, _ in shot.rolled]
        assert names[0] == "shot roll (d100)" and not shot.needs
        assert ("deviation (d8)" in names) == (shot.attack.deviation is not None)


def test_the_struck_bystander_of_a_direct_miss_uses_a_d10_zone_die_not_the_ranges_d8():
    """Direct Missile Results, Miss: at Direct range (Zone Die d8) a miss that strikes someone
    within five feet is located with a d10; a Direct hit on the target keeps the range's d8."""
    stray = pc.missile_shot(60, 40, 40, roll=61, target_count=2, target_roll=2, impact_d10=3)
    assert (stray.range.zone_die, stray.value, stray.zone_die) == (8, 2, 10)
    assert stray.outcome == "F: target 2 is struck, located with a d10 Zone Die"
    hit = pc.missile_shot(60, 40, 40, roll=33)
    assert hit.zone_die == 8
    big = pc.missile_shot(60, 40, 40, roll=61, target_count=2, target_roll=1, impact_d10=3,
                          body_zones=16)
    assert big.zone_die == 16
    assert pc.missile_shot(60, 40, 40, roll=61, target_count=2, target_roll=3,
                           impact_d10=3).zone_die is None
