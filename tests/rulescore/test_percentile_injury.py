"""Percentile system: the injury sequence (location, impact, injury, bleeding, amputation,
compound injuries, shock) with the seed's worked examples and exact odds."""

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from rulescore import RulesError
from rulescore.systems import percentile as pc

# The human BODY LOCATION table written out here, independent of the data file.
ZONES = {1: "Head", 2: "Arms", 3: "Arms", 4: "Torso", 5: "Torso", 6: "Torso", 7: "Torso",
         8: "Legs", 9: "Legs", 10: "Legs"}
LOCS = {
    "Head": ["Skull"] * 5 + ["Face"] * 3 + ["Neck"] * 2,
    "Arms": ["Shoulder"] * 3 + ["Upper arm"] * 3 + ["Elbow"] + ["Forearm"] * 2 + ["Hand"],
    "Torso": ["Thorax"] * 4 + ["Abdomen"] * 3 + ["Pelvis"] * 3,
    "Legs": ["Thigh"] * 4 + ["Knee"] + ["Calf"] * 3 + ["Foot"] * 2,
}


# --- step 1: location -------------------------------------------------------------------

def test_location_example():
    """Broadsword, d6 ZD aimed at ZN4: ZD 2 → zone 5 (torso), LD 7 → abdomen."""
    assert pc.strike_location(2, 7, aim_zone=4) == "Abdomen"
    r = pc.locate_strike([2], [7], 4)
    assert (r.zone_number, r.zone, r.location, r.location_shock) == (5, "Torso", "Abdomen", 4)
    assert all(s.rule.section == "Injury 1 Location" for s in r.trace)


def test_zone_aim_counts_up_and_misses_off_the_table():
    assert pc.strike_location(4, 1, aim_zone=3) is not None            # ZN6
    assert pc.locate_strike([4], [1], 3).zone_number == 6               # the text's 3 → 8 count
    assert pc.strike_location(4, 5, aim_zone=8) is None                 # 8 → 11: miss
    assert pc.strike_location(3, 5, aim_zone=8) == "Knee"               # ZN10
    assert pc.strike_location(1, 10) == "Neck"
    assert pc.strike_location(2, 10) == "Hand"                          # the HAND row's place
    assert pc.strike_location(10, 10) == "Foot"
    assert pc.strike_location(20, 1) is None                            # a d20 against a human
    miss = pc.locate_strike([4], [], 8)
    assert (miss.outcome, miss.value, miss.location) == ("miss", 0, None)


def test_every_cell_of_the_body_table():
    for zn, ln in product(range(1, 11), range(1, 11)):
        assert pc.strike_location(zn, ln) == LOCS[ZONES[zn]][ln - 1]


def test_precision_zone_dice_and_extra_location_dice():
    # two d6 ZD aimed at ZN1: 5 (torso) and 6 (torso): one extra Location Die
    r = pc.locate_strike([5, 6], [2, 9], zone_pick=1, location_pick=1)
    assert (r.zone_number, r.location) == (6, "Pelvis")
    # the direct missile example: three d6 ZD at ZN1, results in different zones
    r = pc.locate_strike([1, 3, 5], [4], zone_pick=2)
    assert (r.zone, r.location) == ("Torso", "Thorax")
    with pytest.raises(RulesError, match="location_rolls must hold 2 d10 roll"):
        pc.locate_strike([5, 6], [2])
    with pytest.raises(RulesError, match="zone_pick must be from 0 to 1, got 2"):
        pc.locate_strike([5, 6], [2, 3], zone_pick=2)


def test_limb_side_odd_left_even_right():
    assert pc.locate_strike([2], [1]).side == "left"                   # LD 1: shoulder, left
    assert pc.locate_strike([2], [4]).side == "right"
    assert pc.locate_strike([3], [4], side_from="zone").side == "left"
    assert pc.locate_strike([5], [4]).side is None                     # torso has no side


def test_face_feature_table():
    assert [pc.face_feature(n) for n in (1, 2, 3, 4, 5, 12, 13, 14, 15, 16, 17, 20)] == \
        ["Eye", "Eye", "Nose", "Nose", "Cheek", "Cheek", "Ear", "Ear", "Mouth", "Mouth",
         "Jaw", "Jaw"]
    assert pc.location_shock("Eye") == 5 and pc.location_shock("Cheek") == 4
    with pytest.raises(RulesError, match="d20 must be from 1 to 20, got 21"):
        pc.face_feature(21)


def test_location_shock_column():
    expected = {"Skull": 5, "Face": 4, "Neck": 5, "Shoulder": 3, "Upper arm": 1, "Elbow": 2,
                "Forearm": 1, "Hand": 2, "Thorax": 4, "Abdomen": 4, "Pelvis": 4, "Thigh": 3,
                "Knee": 2, "Calf": 1, "Foot": 2}
    assert {loc: pc.location_shock(loc) for loc in expected} == expected
    assert pc.area_location_shock() == 6


@pytest.mark.parametrize("zone_die, aim", [(6, 1), (4, 8), (8, 3), (10, 1), (20, 1), (1, 10)])
def test_location_distribution_matches_enumeration(zone_die, aim):
    counts = Counter()
    for z, ln in product(range(1, zone_die + 1), range(1, 11)):
        zn = aim + z - 1
        counts[LOCS[ZONES[zn]][ln - 1] if zn <= 10 else None] += 1
    expected = {k: Fraction(v, zone_die * 10) for k, v in counts.items()}
    assert pc.location_distribution(zone_die, aim) == expected


def test_location_distribution_exact_values():
    d = pc.location_distribution(4, 8)               # the seed's d4 at ZN8: 4 → 11 misses
    assert d[None] == Fraction(1, 4)
    assert pc.location_distribution(6)["Skull"] == Fraction(5, 60)


# --- step 2: impact ---------------------------------------------------------------------

def test_impact_example():
    """d10+3E broadsword, STR +1, roll 8: strike 12E; quilt AV4: effective 8E."""
    r = pc.impact(8, 3, 4, aspect="E", strength_modifier=1)
    assert (r.strike_impact, r.value, r.outcome) == (12, 8, "8E")
    assert r.trace[0].rule.section == "Injury 2 Impact"


def test_volley_example_impact_on_the_horse():
    """d12+4 bow, -3 at volley 3, AR4 against AV3: d12+1; a final 7 (die 6) is S2P."""
    r = pc.impact(6, 4, 3, aspect="P", range_modifier=-3, armour_reduction=4)
    assert (r.armour, r.value) == (0, 7)
    assert pc.injury(r.value, "P").outcome == "S2P"


def test_impact_tactical_advantage_by_aspect():
    assert [pc.impact_ta_bonus(a) for a in "BEPF"] == [3, 5, 4, 2]
    assert pc.impact(5, 0, 0, aspect="E", impact_tas=1).value == 10   # +5E (Block example)
    assert pc.impact(5, 0, 0, aspect="B", impact_tas=2).value == 11
    with pytest.raises(RulesError, match="aspect must be one of"):
        pc.impact(5, 0, aspect="X")


# --- step 3: injury ---------------------------------------------------------------------

@pytest.mark.parametrize("impact, level", [
    (-5, None), (0, None), (1, "M1"), (4, "M1"), (5, "S2"), (9, "S2"), (10, "S3"),
    (14, "S3"), (15, "G4"), (19, "G4"), (20, "G5"), (45, "G5"),
])
def test_injury_level_thresholds(impact, level):
    assert pc.injury_level(impact) == level


def test_injury_example_s2e_abdomen():
    r = pc.injury(8, "E", "Abdomen")
    assert (r.injury, r.outcome, r.severity, r.value, r.bleeder) == \
        ("S2", "S2E", "Serious", 2, False)


def test_glancing_blow_against_rigid_armour():
    g = pc.injury(3, "E", "Thorax", rigid_armour=True)
    assert (g.glancing, g.injury, g.injury_shock, g.shock_bonus) == (True, None, 1, 10)
    assert g.trace[-1].rule.section == "Injury 3.2 Glancing Blow"
    assert pc.injury(3, "B", rigid_armour=True).injury == "M1"        # blunt never glances
    assert pc.injury(5, "P", rigid_armour=True).injury == "S2"        # only impact 1-4
    assert pc.injury(4, "P", rigid_armour=False).injury == "M1"


def test_bleeding_example_g4_blunt_shoulder_is_not_a_bleeder():
    assert pc.bleeder("Shoulder", "G4", "B") is False
    assert pc.bleeder("Shoulder", "G4", "E") is True                 # the healing example
    assert pc.injury(17, "E", "Shoulder").bleeder is True


@pytest.mark.parametrize("location, s3, g4, g5", [
    ("Skull", "", "", "EPB"), ("Shoulder", "", "EP", "EPB"), ("Neck", "E", "EP", "EPB"),
    ("Hand", "", "", ""), ("Foot", "", "", ""), ("Eye", "", "EP", "EPB"),
])
def test_bleeding_table_by_shade(location, s3, g4, g5):
    for injury, aspects in (("S3", s3), ("G4", g4), ("G5", g5)):
        assert "".join(a for a in "EPBF" if pc.bleeder(location, injury, a)) == aspects
    assert not pc.bleeder(location, "S2", "E") and not pc.bleeder(location, None, "E")


def test_amputation_check_needs_g5_edge_and_a_triangle():
    assert pc.injury(22, "E", "Forearm").amputation_test
    assert not pc.injury(22, "B", "Forearm").amputation_test
    assert not pc.injury(22, "E", "Thorax").amputation_test
    assert not pc.injury(19, "E", "Forearm").amputation_test


def test_amputation_test_results():
    # Upper arm: white triangle +20. Strength 50 → EML70.
    assert pc.amputation_test(71, 50, "Upper arm").severed
    s = pc.amputation_test(69, 50, "Upper arm")
    assert (s.level, s.severed, s.shock_modifier) == ("S", False, -20)
    cs = pc.amputation_test(70, 50, "Upper arm")
    assert (cs.level, cs.severed, cs.shock_modifier) == ("CS", False, 0)
    # Hand: black -20; no circle, so F severs without a Bleeder, CF always bleeds
    f = pc.amputation_test(31, 50, "Hand")
    assert (f.level, f.severed, f.bleeder) == ("F", True, False)
    cf = pc.amputation_test(35, 50, "Hand")
    assert (cf.level, cf.severed, cf.bleeder) == ("CF", True, True)
    assert pc.amputation_test(81, 60, "Thigh").bleeder                 # thigh can bleed
    neck = pc.amputation_test(99, 50, "Neck")
    assert neck.killed and "the target dies" in neck.explain()
    with pytest.raises(RulesError, match="has no amputation triangle"):
        pc.amputation_test(50, 50, "Thorax")


def test_compound_injury_example():
    """G4 blunt to a shoulder with an M1 edge injury: TN5; a 4 makes the G4 a G5."""
    r = pc.compound_injury(["M1E"], "G4B", 4)
    assert (r.compounded, r.levels, r.raised, r.value) == (True, (1, 5), 1, 5)
    assert pc.compound_injury(["M1E"], "G4B", 6).compounded is False
    assert pc.compound_injury(["M1E"], "G4B", 5).compounded is True


def test_compound_injury_rules():
    newest = pc.compound_injury(["S2E", "M1B"], "S2P", 1)            # ties: the newest rises
    assert newest.levels == (2, 1, 3) and newest.raised == 2
    older = pc.compound_injury(["S3E"], "S2P", 1)                    # the highest rises
    assert older.levels == (4, 2) and older.value == 4
    g5 = pc.compound_injury(["G5E"], "M1B", 2)
    assert g5.levels == (5, 1) and g5.value == 6                    # G5 stays, shock 6
    fire = pc.compound_injury(["S3E"], "S2F", 1)                     # fire only with fire
    assert (fire.compounded, fire.outcome) == (False, "no compound roll")
    assert pc.compound_injury([], "S2E", 1).compounded is False
    with pytest.raises(RulesError, match="new must be an injury code"):
        pc.compound_injury([], "S9E", 1)
    with pytest.raises(RulesError, match="existing must be a list"):
        pc.compound_injury("M1E", "S2E", 1)


@pytest.mark.parametrize("die, mod, armour", [(10, 3, 4), (12, 1, 0), (6, 0, 2), (20, 5, 3),
                                              (4, -2, 0)])
def test_injury_level_distribution_matches_enumeration(die, mod, armour):
    counts = Counter()
    for face in range(1, die + 1):
        eff = face + mod - armour
        counts[None if eff <= 0 else "M1" if eff <= 4 else "S2" if eff <= 9 else
               "S3" if eff <= 14 else "G4" if eff <= 19 else "G5"] += 1
    assert pc.injury_level_distribution(die, mod, armour) == \
        {k: Fraction(v, die) for k, v in counts.items()}


def test_injury_level_distribution_example_and_glancing():
    d = pc.injury_level_distribution(10, 4, 4)     # the example: d10+3, STR +1, AV4
    assert d == {"M1": Fraction(4, 10), "S2": Fraction(5, 10), "S3": Fraction(1, 10)}
    g = pc.injury_level_distribution(6, 0, 0, aspect="E", rigid_armour=True)
    assert g == {"glancing": Fraction(4, 6), "S2": Fraction(2, 6)}
    assert pc.injury_level_distribution(6, 0, 0, aspect="B", rigid_armour=True)["M1"] == \
        Fraction(4, 6)


# --- step 4: shock ----------------------------------------------------------------------

@pytest.mark.parametrize("shk, state", [(-3, None), (0, None), (6, None), (7, "STN"),
                                        (8, "INC"), (9, "UNC"), (10, "KIA"), (15, "KIA")])
def test_shock_state_thresholds(shk, state):
    assert pc.shock_state(shk) == state


def test_shock_example():
    """S2E abdomen, Shock ML65, roll 75 (CF): SHK 4 + 2 + 2 = 8, INC."""
    r = pc.shock(4, 2, 75, 65)
    assert (r.level, r.shk, r.state, r.outcome) == ("CF", 8, "INC", "INC")
    assert [s.rule.section for s in r.trace] == ["Injury 4 Shock"] * 2


def test_shock_roll_modifiers_and_bonus():
    assert pc.shock(4, 2, 30, 65).shk == 5                          # CS -1
    assert pc.shock(4, 2, 31, 65).shk == 6                          # S 0
    assert pc.shock(4, 2, 66, 65).shk == 7                          # F +1: STN
    assert pc.shock(4, 1, 72, 65, bonus=10).level == "S"            # glancing +10
    assert pc.shock(5, 5, 1, 90).state == "KIA"                     # 5 + 5 + S 0 = 10


def test_shock_reroll_example_and_results():
    r = pc.shock_reroll(42, 65, "INC")                              # EML45, S: stunned
    assert (r.level, r.state, r.extended_shock_hr) == ("S", "STN", None)
    f = pc.shock_reroll(47, 65, "UNC")
    assert (f.level, f.state, f.extended_shock_hr, f.coma) == ("F", "UNC", 5, False)
    cf = pc.shock_reroll(50, 65, "UNC")
    assert (cf.extended_shock_hr, cf.coma) == (4, True)
    assert pc.shock_reroll(50, 65, "INC").coma is False
    assert pc.shock_reroll(40, 65, "INC").state is None            # CS: removed
    assert pc.shock_reroll(41, 65, "INC", fatigue=5).level == "F"   # EML 40
    with pytest.raises(RulesError, match="state must be INC or UNC"):
        pc.shock_reroll(40, 65, "STN")


def test_combine_shock_states():
    assert pc.combine_shock_states("STN", "STN") == "INC"
    assert pc.combine_shock_states("INC", "INC") == "UNC"            # the bleeding example
    assert pc.combine_shock_states("UNC", "STN") == "UNC"
    assert pc.combine_shock_states(None, "STN") == "STN"
    assert pc.combine_shock_states("UNC", "UNC") == "UNC"
    with pytest.raises(RulesError, match="new must be None, STN"):
        pc.combine_shock_states(None, "DAZED")


def test_injury_mishap_by_zone():
    assert pc.injury_mishap("Arms", "Serious") == "Fumble roll"
    assert pc.injury_mishap("Head", "Grievous") == "Automatic Fumble & Stumble"
    assert pc.injury_mishap("Torso", "Serious") == "Stumble roll (pelvis only)"
    with pytest.raises(RulesError, match="severity must be"):
        pc.injury_mishap("Legs", "Minor")


def test_full_sequence_from_the_examples():
    """Location → impact → injury → shock, chained as the seed's steps 1-4 do."""
    loc = pc.locate_strike([2], [7], 4)
    hit = pc.impact(8, 3, 4, aspect="E", strength_modifier=1)
    inj = pc.injury(hit.value, "E", loc.location)
    sh = pc.shock(loc.location_shock, inj.injury_shock, 75, 65)
    assert (loc.location, inj.outcome, sh.shk, sh.state) == ("Abdomen", "S2E", 8, "INC")


@pytest.mark.parametrize("loc, inj, eml", [(4, 2, 65), (5, 5, 40), (1, 1, 90), (6, 0, 5),
                                           (0, 0, -10)])
def test_shock_state_distribution_matches_enumeration(loc, inj, eml):
    counts = Counter()
    for face in range(1, 101):
        used = max(eml, 5)
        crit = face % 5 == 0
        mod = (-1 if crit else 0) if face <= used else (2 if crit else 1)
        shk = loc + inj + mod
        counts[None if shk <= 6 else {7: "STN", 8: "INC", 9: "UNC"}.get(shk, "KIA")] += 1
    assert pc.shock_state_distribution(loc, inj, eml) == \
        {k: Fraction(v, 100) for k, v in counts.items()}


def test_shock_state_distribution_example():
    """The step 4 example's odds: location 4 + S2 at Shock ML65."""
    assert pc.shock_state_distribution(4, 2, 65) == {
        None: Fraction(65, 100), "STN": Fraction(28, 100), "INC": Fraction(7, 100)}


def test_grim_wound_daily_shock():
    r = pc.grim_wound_shock(66, 65, "Thigh", "G4")                  # 3 + 4 + F 1 = 8
    assert (r.shk, r.state) == (8, "INC")
    assert r.trace[0].rule.section == "Healing 5 Grim Wound"
    with pytest.raises(RulesError, match="injury must be G4 or G5"):
        pc.grim_wound_shock(50, 65, "Thigh", "S3")


def test_injury_distribution_rigid_armour_without_aspect_counts_m1():
    """Rigid armour alone does not glance: only an E or P aspect does."""
    assert pc.injury_level_distribution(10, 0, 0, rigid_armour=True) == {
        "M1": Fraction(4, 10), "S2": Fraction(5, 10), "S3": Fraction(1, 10)}


@pytest.mark.parametrize("die, mod, armour, rng", [(12, 4, 3, -3), (10, 3, 0, 2), (6, 0, 0, -4)])
def test_injury_level_distribution_counts_a_missiles_range_impact(die, mod, armour, rng):
    """Missile 2 IMPACT column: the range adjusts strike impact; the odds follow impact()."""
    counts = Counter(pc.injury(pc.impact(face, mod, armour, aspect="P",
                                         range_modifier=rng).value, "P", "Thorax").injury
                     for face in range(1, die + 1))
    assert pc.injury_level_distribution(die, mod, armour, aspect="P", range_modifier=rng) == \
        {k: Fraction(v, die) for k, v in counts.items()}


def test_a_zone_number_falls_in_its_body_zone():
    """Injury 1, the BODY ZONES table: 1 the head, 2-3 the arms, 4-7 the torso, 8-10 the legs."""
    assert [pc.zone_name(n) for n in (1, 2, 3, 4, 7, 8, 10)] == [
        "Head", "Arms", "Arms", "Torso", "Torso", "Legs", "Legs"]
    with pytest.raises(RulesError, match="zone_number must be from 1 to 10, got 11"):
        pc.zone_name(11)
