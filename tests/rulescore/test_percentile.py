"""Percentile system: d100 tests, success levels and the missile sequence (seed 003)."""

from fractions import Fraction
import pytest

from rulescore import RulesError
from rulescore.systems import percentile as pc


# --- success levels ----------------------------------------------------------------------

@pytest.mark.parametrize("roll, eml, level", [
    # every d100 test of the seed's worked examples
    (45, 85, "CS"), (25, 35, "CS"), (16, 35, "S"), (35, 60, "CS"), (71, 60, "F"),
    (36, 60, "S"), (51, 60, "S"), (75, 65, "CF"), (42, 45, "S"), (61, 65, "S"),
    (29, 60, "S"), (93, 55, "F"), (41, 42, "S"), (13, 55, "S"), (62, 52, "F"),
    (24, 52, "S"), (95, 52, "CF"), (42, 65, "S"),
])
def test_success_level_worked_examples(roll, eml, level):
    assert pc.success_level(roll, eml) == level


def test_success_level_thresholds_and_multiples_of_five():
    assert pc.success_level(60, 60) == "CS"      # at the EML and a multiple of 5
    assert pc.success_level(59, 59) == "S"       # at the EML
    assert pc.success_level(60, 59) == "CF"      # one over, multiple of 5
    assert pc.success_level(61, 60) == "F"
    assert pc.success_level(5, 5) == "CS"
    assert pc.success_level(1, 0) == "F"         # EML 0 as given: nothing succeeds
    assert pc.success_level(5, -10) == "CF"
    assert pc.success_level(100, 99) == "CF"     # 00 is 100, critical
    assert pc.success_level(100, 100) == "CS"
    assert pc.success_level(100, 150) == "CS"


@pytest.mark.parametrize("roll, eml", [(0, 50), (101, 50), (-5, 50), ("45", 50), (45.0, 50),
                                       (True, 50), (45, "60")])
def test_success_level_rejects_bad_input(roll, eml):
    with pytest.raises(RulesError, match="roll|eml"):
        pc.success_level(roll, eml)


def test_d100_reads_two_dice_and_00_is_100():
    assert pc.d100(4, 5) == 45
    assert pc.d100(0, 7) == 7
    assert pc.d100(0, 0) == 100
    assert pc.d100(9, 0) == 90
    with pytest.raises(RulesError, match="ones must be from 0 to 9, got 10"):
        pc.d100(1, 10)


def _enumerated(eml):
    counts = {"CF": 0, "F": 0, "S": 0, "CS": 0}
    for face in range(1, 101):
        crit = face % 5 == 0
        if face <= eml:
            counts["CS" if crit else "S"] += 1
        else:
            counts["CF" if crit else "F"] += 1
    return {k: Fraction(v, 100) for k, v in counts.items()}


@pytest.mark.parametrize("eml", [-50, 0, 1, 4, 5, 6, 35, 59, 60, 61, 85, 95, 99, 100, 140])
def test_success_level_probabilities_match_enumeration(eml):
    got = pc.success_level_probabilities(eml)
    assert got == _enumerated(eml)
    assert sum(got.values()) == 1
    assert all(isinstance(p, Fraction) for p in got.values())


def test_success_level_probabilities_exact_values():
    assert pc.success_level_probabilities(60) == {
        "CF": Fraction(8, 100), "F": Fraction(32, 100), "S": Fraction(48, 100),
        "CS": Fraction(12, 100)}
    assert pc.success_level_probabilities(5)["CS"] == Fraction(1, 100)
    assert pc.success_level_probabilities(100) == {"CF": 0, "F": 0, "S": Fraction(80, 100),
                                                   "CS": Fraction(20, 100)}


def test_effective_eml_floor_and_cap_are_options():
    assert pc.effective_eml(-30) == 5
    assert pc.effective_eml(120) == 120
    assert pc.effective_eml(120, eml_cap=95) == 95
    assert pc.effective_eml(-30, eml_floor=None) == -30


def test_skill_test_mishap_by_ones_die():
    fumble = pc.skill_test(80, 60, test="attack")
    assert (fumble.level, fumble.mishap) == ("CF", "Fumble")
    stumble = pc.skill_test(75, 60, test="block")
    assert (stumble.level, stumble.mishap) == ("CF", "Stumble")
    assert pc.skill_test(80, 60, test="dodge").mishap == "Stumble"   # Dodge: 0 or 5 stumbles
    assert pc.skill_test(100, 60, test="counterstrike").mishap == "Fumble"
    assert pc.skill_test(61, 60).mishap is None
    floored = pc.skill_test(5, -20)
    assert (floored.eml, floored.level) == (5, "CS")
    assert "EML -20 is tested as EML 5" in floored.explain()
    assert floored.trace[-1].rule.section == "Tests and success levels"


def test_mishap_type_needs_a_critical_roll_and_a_known_test():
    with pytest.raises(RulesError, match="roll must end in 0 or 5"):
        pc.mishap_type("attack", 71)
    with pytest.raises(RulesError, match="test must be one of"):
        pc.mishap_type("parry", 70)


def test_shift_level_stays_within_cf_and_cs():
    assert pc.shift_level("S", -1) == "F"
    assert pc.shift_level("CF", -1) == "CF"
    assert pc.shift_level("CS", 2) == "CS"
    with pytest.raises(RulesError, match="level must be one of"):
        pc.shift_level("X", 1)


# --- missile: actions and range --------------------------------------------------------

def test_missile_actions_by_weapon():
    crossbow = pc.missile_actions("Crossbow")
    assert [a["action"] for a in crossbow] == ["Span", "Load", "Aim", "Shoot"]
    assert crossbow[3]["movement"] == "Half Move" and crossbow[3]["defence"] == "Any"
    assert [a["action"] for a in pc.missile_actions("Thrown")] == ["Aim", "Throw", "Charge"]
    with pytest.raises(RulesError, match="weapon must be one of"):
        pc.missile_actions("Musket")


@pytest.mark.parametrize("range_ft, kind, mod, zd, imp", [
    (0, "Direct PB", 10, 6, 2), (50, "Direct PB", 10, 6, 2), (51, "Direct", 0, 8, 0),
    (100, "Direct", 0, 8, 0), (101, "Volley 2", 0, 10, -2), (200, "Volley 2", 0, 10, -2),
    (201, "Volley 3", -20, 10, -3), (300, "Volley 3", -20, 10, -3),
    (301, "Volley 4", -40, 10, -4), (400, "Volley 4", -40, 10, -4),
])
def test_missile_range_by_multiples_of_base_range(range_ft, kind, mod, zd, imp):
    r = pc.missile_range(range_ft, 100)
    assert (r.attack_type, r.modifier, r.zone_die, r.impact) == (kind, mod, zd, imp)


def test_missile_range_half_base_range_odd_and_extras():
    assert pc.missile_range(12, 25).attack_type == "Direct PB"     # 12 <= 12.5
    assert pc.missile_range(13, 25).attack_type == "Direct"
    assert pc.missile_range(500, 200).attack_type == "Volley 3"    # the volley example's 500 ft
    assert pc.missile_range(400, 100).charge_impact is None
    assert pc.missile_range(100, 100).charge_impact == 1
    assert pc.missile_range(10, 100).zone_die_notation == "d6"
    assert pc.missile_range(10, 100, thrown_pb_zone_die=4).zone_die == 4
    assert pc.missile_range(60, 100, wet=True).attack_type == "Volley 2"   # BR halved to 50
    assert pc.missile_range(300, 100).area_ft == 15


def test_missile_range_refuses_out_of_range_and_bad_values():
    with pytest.raises(RulesError, match="range_ft must be at most 400"):
        pc.missile_range(401, 100)
    with pytest.raises(RulesError, match="base_range must be 1 or more, got 0"):
        pc.missile_range(10, 0)
    with pytest.raises(RulesError, match="range_ft must be 0 or more, got -1"):
        pc.missile_range(-1, 100)


# --- missile test EML -------------------------------------------------------------------

def test_missile_eml_direct_example():
    """Nolora: Archery ML75, point blank (+10), still target: EML85."""
    r = pc.missile_eml(75, "Direct PB", "still")
    assert (r.value, r.test_eml, r.spoiled) == (85, 85, False)
    assert r.trace[1].rule.section == "Missile 2 Missile Range"


def test_missile_eml_volley_example():
    """Nolora: ML75 at volley 3 (-20) in a light crosswind (-20): EML35."""
    r = pc.missile_eml(75, "Volley 3", "still", windforce=1)
    assert r.test_eml == 35
    assert [s.value("amount") for s in r.trace[1:]] == [-20, -20]


def test_missile_eml_situational_modifiers():
    assert pc.missile_eml(60, "Direct", "moving").value == 50
    assert pc.missile_eml(60, "Direct", "evading", dodge_index=3).value == 45
    assert pc.missile_eml(60, "Direct", shooter_moving=True).value == 50
    assert pc.missile_eml(60, "Direct", shooter_moving=True, thrown="weapon").value == 60
    assert pc.missile_eml(60, "Direct", thrown="object", heft_penalty=5).value == 45
    assert pc.missile_eml(60, "Direct", thrown="oblong object").value == 40
    assert pc.missile_eml(60, "Direct", windforce=1).value == 60       # Direct: from 2
    assert pc.missile_eml(60, "Direct", windforce=3).value == 30
    assert pc.missile_eml(60, "Volley 2", windforce=2).value == 20
    assert pc.missile_eml(60, "Direct", aimed=True, trauma=15).value == 55
    assert pc.missile_eml(60, "Direct", tar=2).value == 70
    assert pc.missile_eml(60, "Direct", tar=1).value == 60
    assert pc.missile_eml(60, "Volley 2", tar=3).value == 60
    assert pc.missile_eml(60, "Direct", overhead_ft=4).value == 40
    assert pc.missile_eml(60, "Direct PB", overhead_ft=4).value == 70
    assert pc.missile_eml(60, "Direct", overhead_ft=4, launcher="sling").value == 60
    with pytest.raises(RulesError, match="not possible with overhead_ft 9 "):
        pc.missile_eml(60, "Volley 2", overhead_ft=9)


def test_missile_eml_floor_and_spoiled_threshold():
    low = pc.missile_eml(20, "Volley 4", "moving")            # 20 - 40 - 10 = -30
    assert (low.value, low.test_eml, low.spoiled) == (-30, 5, False)
    spoiled = pc.missile_eml(20, "Volley 4", "moving", windforce=1)   # -50
    assert (spoiled.value, spoiled.spoiled, spoiled.test_eml) == (-50, True, None)
    edge = pc.missile_eml(30, "Volley 4", "moving", windforce=1)      # exactly -40
    assert edge.spoiled and edge.outcome == "spoiled"
    assert not pc.missile_eml(31, "Volley 4", "moving", windforce=1).spoiled


def test_missile_eml_bad_inputs_name_the_parameter():
    with pytest.raises(RulesError, match="attack_type must be one of"):
        pc.missile_eml(60, "Lob")
    with pytest.raises(RulesError, match="target must be one of still, moving, evading"):
        pc.missile_eml(60, "Direct", "running")
    with pytest.raises(RulesError, match="windforce must be from 0 to 4, got 5"):
        pc.missile_eml(60, "Direct", windforce=5)


# --- direct and volley results -----------------------------------------------------------

def test_direct_missile_example_cs_still_target():
    r = pc.direct_missile_attack(45, 85, still=True)
    assert (r.level, r.outcome, r.stars, r.tactical_advantages, r.precision) == \
        ("CS", "strike", 2, 1, 1)
    assert any(s.rule.section == "Direct Missile Attack" for s in r.trace)


def test_direct_missile_results_by_level():
    s = pc.direct_missile_attack(30, 40, still=False)
    assert (s.level, s.stars, s.precision) == ("CS", 2, 0)
    s = pc.direct_missile_attack(31, 40, still=False)
    assert (s.outcome, s.stars, s.tactical_advantages) == ("strike", 1, 0)
    miss = pc.direct_missile_attack(41, 40)
    assert (miss.outcome, miss.stray_possible, miss.stars) == ("miss", True, 0)
    assert not pc.direct_missile_attack(41, 5).stray_possible          # EML 05: no stray
    assert not pc.direct_missile_attack(41, -20).stray_possible        # floored to 05
    cf = pc.direct_missile_attack(50, 40)
    assert (cf.outcome, cf.mishap) == ("mishap", "Fumble")
    assert pc.direct_missile_attack(45, 40).mishap == "Stumble"


def test_spoiled_missile_attack_options():
    auto = pc.direct_missile_attack(3, -45)
    assert (auto.level, auto.outcome) == ("F", "miss")                 # success becomes F
    assert pc.direct_missile_attack(5, -45).level == "F"
    assert pc.direct_missile_attack(10, -45).outcome == "mishap"
    none = pc.direct_missile_attack(None, -40, spoiled_as="no_attack")
    assert (none.outcome, none.level) == ("no attack", None)
    with pytest.raises(RulesError, match="spoiled_as must be"):
        pc.direct_missile_attack(3, -45, spoiled_as="maybe")
    with pytest.raises(RulesError, match="roll is missing"):
        pc.direct_missile_attack(None, 50)


def test_volley_missile_example():
    first = pc.volley_missile_attack(25, 35)
    assert (first.level, first.outcome, first.precision) == ("CS", "potential strike", 1)
    strike = pc.stray_strike([7], 2, 7, die=10)
    assert (strike.hit, strike.target, strike.impact_ta) == (True, 7, False)
    second = pc.volley_missile_attack(16, 35)
    assert (second.level, second.outcome, second.precision) == ("S", "potential strike", 0)
    miss = pc.stray_strike([14], 3, 7, volley=True)
    assert (miss.hit, miss.value, miss.outcome) == (False, 0, "miss")
    assert miss.trace[0].rule.section == "Volley Missile Attack"


def test_volley_deviation_and_mishap():
    dev = pc.volley_missile_attack(36, 35)
    assert (dev.outcome, dev.stray_possible) == ("deviation", True)
    assert not pc.volley_missile_attack(36, 5).stray_possible
    assert pc.volley_missile_attack(40, 35).mishap == "Fumble"


def test_stray_strike_rules():
    assert pc.stray_strike([3], 10, 3).impact_ta                    # d10 "0" adds Impact TA
    assert pc.stray_strike([3], 5, 3).impact_ta
    assert not pc.stray_strike([4], 5, 3).impact_ta                 # no hit, no bonus
    assert pc.stray_strike([9, 2], 1, 4, die=10).target == 2        # first hitting d10
    assert pc.stray_strike([9, 2], 1, 4, die=10, pick=0).hit is False
    assert pc.stray_strike([1], 1, 0).hit is False                  # nobody nearby
    with pytest.raises(RulesError, match="target_rolls takes one d20 roll"):
        pc.stray_strike([1, 2], 1, 3)
    with pytest.raises(RulesError, match="target_rolls must be from 1 to 10, got 11"):
        pc.stray_strike([11], 1, 3, die=10)


def test_direct_missile_odds_by_enumeration():
    """Chance of each Direct result at EML 85, counted over the 100 faces."""
    counts = {}
    for face in range(1, 101):
        r = pc.direct_missile_attack(face, 85)
        counts[r.outcome] = counts.get(r.outcome, 0) + 1
    # faces <= 85 strike (85), 90/95/100 are CF mishaps (3), the rest miss
    assert counts == {"strike": 85, "mishap": 3, "miss": 12}
    assert sum(1 for f in range(1, 101) if pc.direct_missile_attack(f, 85).stars == 2) == 17


def test_missile_skill_by_weapon():
    assert pc.missile_skill("bow", archery=75) == 75
    assert pc.missile_skill("crossbow", archery=40, archery_sb=15) == 45   # SB × 3 is higher
    assert pc.missile_skill("crossbow", archery=60, archery_sb=15) == 60
    assert pc.missile_skill("crossbow", archery_sb=12) == 36
    assert pc.missile_skill("sling", slings=50) == 50
    assert pc.missile_skill("thrown", throwing=45, archery=90) == 45
    with pytest.raises(RulesError, match="throwing is needed for a thrown"):
        pc.missile_skill("thrown", archery=60)


def test_volley_deviation_direction():
    r = pc.volley_missile_attack(36, 35, deviation_d8=3)
    assert (r.outcome, r.deviation) == ("deviation", 3)
    assert pc.volley_missile_attack(36, 5, deviation_d8=3).deviation is None   # lands harmlessly
    with pytest.raises(RulesError, match="deviation_d8 must be from 1 to 8, got 9"):
        pc.volley_missile_attack(36, 35, deviation_d8=9)


@pytest.mark.parametrize("eml", [-60, -40, -39, 0, 5, 35, 85, 100])
@pytest.mark.parametrize("volley", [False, True])
def test_missile_outcome_distribution_matches_enumeration(eml, volley):
    counts = {}
    for face in range(1, 101):
        used = max(eml, 5)
        spoiled = eml <= -40
        crit = face % 5 == 0
        ok = face <= used and not spoiled
        if spoiled and face <= 5:
            ok = False
            crit = crit and face > 5
        if ok:
            key = ("potential strike" if volley else "strike", 2 if crit else 1)
        elif crit:
            key = ("mishap", 0)
        else:
            key = ("deviation" if volley else "miss", 0)
        counts[key] = counts.get(key, 0) + 1
    expected = {k: Fraction(v, 100) for k, v in counts.items()}
    assert pc.missile_outcome_distribution(eml, volley=volley) == expected


def test_missile_outcome_distribution_spoiled_no_attack():
    assert pc.missile_outcome_distribution(-40, spoiled_as="no_attack") == \
        {("no attack", 0): Fraction(1)}


def test_charging_throw_impact():
    assert pc.missile_range(10, 100, charge_ft=20).impact == 3       # Direct PB: +3
    assert pc.missile_range(10, 100, charge_ft=19).impact == 2       # short charge: +2
    assert pc.missile_range(250, 100, charge_ft=30).impact == -3
    with pytest.raises(RulesError, match="no charging throw reaches"):
        pc.missile_range(350, 100, charge_ft=30)


def test_a_charging_throw_needs_a_target_five_feet_away():
    """Missile 1 Missile Actions, Charge: the thrown attack after the Charge movement must be at
    a target at least five feet off. Base Range 40: 3 ft is refused, 5 ft is Direct PB (up to
    20 ft) with the CHARGE impact +3 after a 20-ft charge; without a charge 3 ft is fine."""
    with pytest.raises(RulesError, match="range_ft must be at least 5 for a throw after a "
                                         "Charge"):
        pc.missile_range(3, 40, charge_ft=20)
    with pytest.raises(RulesError, match="range_ft must be at least 5"):
        pc.missile_range(4, 40, charge_ft=10)
    five = pc.missile_range(5, 40, charge_ft=20)
    assert (five.attack_type, five.impact) == ("Direct PB", 3)
    assert pc.missile_range(3, 40).attack_type == "Direct PB"


def test_a_bystander_struck_after_a_direct_miss_is_located_with_a_d10():
    """Direct Missile Results, Miss: a creature struck by the stray missile takes a d10 Zone
    Die (not the Direct range's d8), or a die with one side per body zone when that is larger.
    Volley Missile Results: the same d10-or-larger die; the example's destrier (20 zones) is
    located with a d20."""
    hit = pc.stray_strike([2], 4, 3)
    assert (hit.hit, hit.zone_die) == (True, 10)
    assert pc.stray_strike([2], 4, 3, body_zones=3).zone_die == 10      # tiny: still a d10
    assert pc.stray_strike([7], 2, 7, die=10, volley=True, body_zones=20).zone_die == 20
    assert pc.stray_strike([5], 4, 3).zone_die is None                  # nobody struck
    assert "d10 Zone Die" in hit.trace[-1].text
