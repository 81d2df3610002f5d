"""One strike through the whole injury sequence (Injury 1-5) with the record."""

import random
from fractions import Fraction

import pytest

from rulescore.errors import RulesError
from rulescore.systems import percentile as pc

SWORD = dict(zone_die=6, aim_zone=4, impact_die=10, impact_modifier=3, strength_modifier=1,
             armour=4, shock_eml=65)


def test_the_seeds_sword_blow_to_the_abdomen():
    """Aimed at ZN4, Zone Die 2 → ZN5 torso, Location Die 7 abdomen; 8 + 3 + 1 = 12 less
    armour 4 = 8: S2E; Shock 75 against 65 is CF: 4 + 2 + 2 = 8, Incapacitated."""
    r = pc.injury_sequence(**SWORD, dice=[2, 7, 8, 75])
    assert r.outcome == "Abdomen: S2E injury; shock 8 → INC"
    assert (r.value, r.state) == (2, "INC")
    assert [t for t, _ in r.stages] == ["1 Location", "2 Impact", "3 Injury", "4 Shock",
                                        "5 Effect"]
    assert ("locations_torso", 1) in r.rows and ("injury_levels", 2) in r.rows
    assert ("shock_states", 2) in r.rows
    assert r.effects[0] == "10 impairment to the torso zone"


def test_the_seeds_shock_reroll_improves_incapacitated_to_stunned():
    # Shock ML 65 - 20 = EML 45; the reroll 42 is a success: Stunned.
    r = pc.injury_sequence(**SWORD, reroll=True, dice=[2, 7, 8, 75, 42])
    assert r.reroll.level == "S" and r.state == "STN"
    assert "Shock ML 65 -20 - fatigue 0 = EML 45; roll 42: S" in r.reroll.trace[0].text


def test_dice_are_asked_for_one_step_at_a_time():
    assert pc.injury_sequence(**SWORD).needs == "Zone Die (d6)"
    assert pc.injury_sequence(**SWORD, dice=[2]).needs == "Location Die (d10)"
    assert pc.injury_sequence(**SWORD, dice=[2, 7]).needs == "impact d10"
    assert pc.injury_sequence(**SWORD, dice=[2, 7, 8]).needs == "Shock d100"
    with pytest.raises(RulesError, match="1 more typed than this injury sequence uses"):
        pc.injury_sequence(**SWORD, dice=[2, 7, 8, 75, 1])


def test_a_miss_and_a_blow_the_armour_stops_end_early():
    miss = pc.injury_sequence(zone_die=8, aim_zone=8, dice=[5])       # ZN12: off the body
    assert miss.value == 0 and "miss" in miss.outcome and miss.needs is None
    stopped = pc.injury_sequence(zone_die=6, impact_die=4, armour=10, dice=[1, 1, 3])
    assert stopped.outcome == "Skull: the armour takes it, no injury"


def test_precision_zone_dice_in_the_same_zone_add_location_dice():
    r = pc.injury_sequence(**SWORD, precision=1, dice=[2, 3, 7, 1, 8, 75])
    assert [n for n, _ in r.rolled][:4] == ["Zone Die 1 (d6)", "Zone Die 2 (d6)",
                                           "Location Die 1 (d10)", "Location Die 2 (d10)"]
    assert r.location.outcome == "Abdomen"


def test_glancing_blow_on_rigid_armour():
    r = pc.injury_sequence(zone_die=6, impact_die=4, impact_modifier=0, aspect="E",
                           rigid_armour=True, dice=[1, 1, 3, 50])
    assert r.injury.glancing and r.effects == ()
    assert "a glancing blow" in r.outcome


def test_compounding_with_the_record_raises_the_injury_and_writes_it_down():
    first = pc.injury_sequence(**SWORD, dice=[2, 7, 8, 10], record=pc.InjuryRecord())
    assert [i.code for i in first.record.injuries] == ["S2E"]
    second = pc.injury_sequence(zone_die=6, aim_zone=4, impact_modifier=3, dice=[2, 7, 8, 3, 1],
                                record=first.record)
    assert second.compound.compounded and second.value == 4        # S3 → G4
    assert [i.code for i in second.record.injuries] == ["S2E", "G4E"]
    calm = pc.injury_sequence(zone_die=6, aim_zone=4, impact_modifier=3, dice=[2, 7, 8, 9, 1],
                              record=first.record)
    assert not calm.compound.compounded and calm.value == 3


def test_fire_does_not_compound_with_edge():
    first = pc.injury_sequence(**SWORD, dice=[2, 7, 8, 10], record=pc.InjuryRecord())
    burn = pc.injury_sequence(zone_die=6, aim_zone=4, aspect="F", impact_modifier=3,
                              dice=[2, 7, 8, 10], record=first.record)
    assert burn.compound is None and [i.aspect for i in burn.record.injuries] == ["Edge", "Fire"]


def test_a_g5_edge_blow_to_the_neck_tests_amputation():
    r = pc.injury_sequence(zone_die=6, impact_die=10, impact_modifier=20, dice=[1, 9, 10, 99])
    assert r.amputation is not None and r.amputation.killed and r.state == "KIA"


def test_seeded_walks_replay_and_always_finish():
    a = pc.injury_sequence(**SWORD, reroll=True, rng=random.Random(3))
    b = pc.injury_sequence(**SWORD, reroll=True, rng=random.Random(3))
    assert a.rolled == b.rolled and a.outcome == b.outcome
    for seed in range(200):
        r = pc.injury_sequence(**SWORD, precision=1, reroll=True, rng=random.Random(seed),
                               record=pc.InjuryRecord())
        assert r.needs is None


def test_location_odds_match_a_brute_force_walk():
    """Over every Zone Die and Location Die face, the walk lands where location_distribution
    says, with the exact chances."""
    counts: dict = {}
    for z in range(1, 7):
        for ld in range(1, 11):
            r = pc.injury_sequence(zone_die=6, aim_zone=4, dice=[z, ld, 1, 50])
            where = r.location.outcome if r.location.outcome != "miss" else None
            counts[where] = counts.get(where, 0) + 1
    assert {k: Fraction(v, 60) for k, v in counts.items()} == pc.location_distribution(6, 4)


@pytest.mark.parametrize("kwargs, message", [
    (dict(aspect="X"), "aspect must be one of"),
    (dict(precision=-1), "precision"),
    (dict(aim_zone=11), "aim_zone"),
    (dict(zone_pick=1), "zone_pick"),
    (dict(record="sheet"), "record must be an InjuryRecord"),
    (dict(dice=[7]), r"Zone Die 1 \(d6\) must be from 1 to 6"),
])
def test_bad_input_names_the_input(kwargs, message):
    with pytest.raises(RulesError, match=message):
        pc.injury_sequence(**kwargs)


def test_existing_injuries_typed_as_codes_compound_without_a_record():
    r = pc.injury_sequence(zone_die=6, aim_zone=4, impact_modifier=3, dice=[2, 7, 8, 3, 1],
                           existing=["S2E"])
    assert r.compound.compounded and r.value == 4 and r.record is None
    with pytest.raises(RulesError, match="existing must be an injury code"):
        pc.injury_sequence(zone_die=6, aim_zone=4, impact_modifier=3, dice=[2, 7, 8, 3, 1],
                           existing=["S9X"])


def test_nolora_s_point_blank_critical_hands_the_injury_walk_its_zone_die_and_precision():
    """Missile 4a: EML 85, roll 45 is CS: the target is struck with one Precision TA and one
    TA of choice; Direct PB: Zone Die d6, impact +2 (MISSILE RANGE table)."""
    strike = pc.strike_from_missile(pc.missile_shot(75, 20, 60, roll=45))
    assert strike == pc.StrikeInputs(zone_die=6, precision=1, impact_tas=0, range_modifier=2,
                                      aspect="P", projectile=True, free_tas=1,
                                      source=strike.source)
    assert strike.as_keywords() == {"zone_die": 6, "precision": 1, "impact_tas": 0,
                                    "range_modifier": 2, "aspect": "P", "projectile": True}


def test_the_volley_strike_on_the_horse_uses_the_target_die_not_precision_and_range_minus_3():
    """Missile 4b: Volley 3 (impact -3); Volley Precision picks the target (d10 7), so no
    extra Zone Die; the special-impact d10 2 adds no Impact TA. body_zones 20 (the destrier)
    makes the Zone Die a d20."""
    shot = pc.missile_shot(75, 500, 200, windforce=1, target_count=7, body_zones=20,
                           dice=[25, 7, 2])
    strike = pc.strike_from_missile(shot)
    assert (strike.zone_die, strike.precision, strike.impact_tas, strike.range_modifier,
            strike.free_tas) == (20, 0, 0, -3, 0)


def test_a_stray_strike_with_a_5_on_the_impact_d10_brings_one_impact_ta():
    # Direct range (impact 0) at EML 60: 61 is F, a stray may follow; d20 3 of 5 people
    # strikes number 3; impact d10 5 adds the Impact TA.
    shot = pc.missile_shot(60, 40, 40, target_count=5, dice=[61, 3, 5])
    assert shot.value == 3 and shot.strike.impact_ta
    assert pc.strike_from_missile(shot).impact_tas == 1


def test_a_shot_that_struck_nobody_hands_nothing_on():
    with pytest.raises(RulesError, match="shot must have struck someone"):
        pc.strike_from_missile(pc.missile_shot(60, 40, 40, roll=100))
    with pytest.raises(RulesError, match="shot must be a walked missile shot"):
        pc.strike_from_missile({"zone_die": 6})


def test_the_ignored_blow_spends_precision_and_impact_into_the_injury_walk():
    """Melee Ignore example: 36 against ML60 with no defence roll is three stars, two TAs;
    one Precision (an extra d6 Zone Die for the broadsword) and one Impact (+5E)."""
    ignored = pc.melee_exchange(36, 60, "Ignore")
    sword = pc.Weapon("broadsword", reach=3, heft=5, zone_die=6, aspect="E")
    spent = pc.spend_advantages(ignored, ["precision", "impact"])
    strike = pc.strike_from_melee(ignored, sword, spent)
    assert (strike.zone_die, strike.precision, strike.impact_tas, strike.aspect,
            strike.projectile, strike.free_tas) == (6, 1, 1, "E", False, 0)
    assert pc.strike_from_melee(ignored, sword).free_tas == 2
    walk = pc.injury_sequence(**{**SWORD, **strike.as_keywords()}, dice=[2, 5, 7, 8, 75])
    assert walk.impact.strike_impact == 8 + 3 + 1 + 5


def test_a_blow_that_did_not_land_hands_nothing_on():
    dodged = pc.melee_exchange(36, 60, "Dodge", 51, 60)
    sword = pc.Weapon("broadsword")
    with pytest.raises(RulesError, match="a blow that landed"):
        pc.strike_from_melee(dodged, sword)


def test_the_walked_sword_blow_is_written_to_the_record_in_one_call():
    walk = pc.injury_sequence(**SWORD, dice=[2, 7, 8, 75])
    record = pc.record_injury(pc.InjuryRecord("Ana"), walk)
    (inj,) = record.injuries
    assert (inj.location, inj.aspect, inj.level, inj.code) == ("Abdomen", "Edge", 2, "S2E")
    assert (inj.shock, inj.shock_rolled) == ("INC", True)   # its own Shock Roll: 75, CF
    assert record.log[-1] == "Day 0: S2E to the abdomen"


def test_an_arrow_is_recorded_as_a_projectile_wound():
    walk = pc.injury_sequence(zone_die=6, aim_zone=4, impact_die=12, impact_modifier=4,
                              aspect="P", projectile=True, shock_eml=65, dice=[2, 7, 8, 75])
    inj = pc.record_injury(pc.InjuryRecord(), walk).injuries[0]
    assert (inj.aspect, inj.code) == ("Projectile", "S3P")


def test_an_unfinished_or_harmless_walk_is_not_recorded():
    half = pc.injury_sequence(**SWORD, dice=[2, 7])
    with pytest.raises(RulesError, match="walk must be finished: roll the impact d10"):
        pc.record_injury(pc.InjuryRecord(), half)
    missed = pc.injury_sequence(**{**SWORD, "armour": 40}, dice=[2, 7, 8])
    with pytest.raises(RulesError, match="walk must have inflicted an injury"):
        pc.record_injury(pc.InjuryRecord(), missed)
