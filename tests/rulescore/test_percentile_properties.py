"""Percentile system: every public rules function returns its declared type or raises a
RulesError naming the bad parameter (hypothesis)."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulescore import RulesError
from rulescore.systems import percentile as pc
from rulescore.trace import Resolution

SETTINGS = settings(deadline=None, max_examples=120)
ints = st.integers(min_value=-300, max_value=300)
anything = st.one_of(ints, st.none(), st.text(max_size=3), st.floats(allow_nan=False),
                     st.booleans())
LEVELS = {"CF", "F", "S", "CS"}


def _named(exc: RulesError, *names: str) -> bool:
    return any(n in str(exc) for n in names)


@SETTINGS
@given(anything, anything)
def test_success_level_type_or_named_error(roll, eml):
    try:
        assert pc.success_level(roll, eml) in LEVELS
    except RulesError as exc:
        assert _named(exc, "roll", "eml")


@SETTINGS
@given(st.integers(1, 100), ints)
def test_success_level_is_monotone_in_eml(roll, eml):
    succeeded = pc.success_level(roll, eml) in ("S", "CS")
    assert succeeded == (roll <= eml)
    assert (pc.success_level(roll, eml) in ("CF", "CS")) == (roll % 5 == 0)


@SETTINGS
@given(ints)
def test_success_level_probabilities_sum_to_one(eml):
    p = pc.success_level_probabilities(eml)
    assert set(p) == LEVELS and sum(p.values()) == 1
    assert all(isinstance(v, Fraction) for v in p.values())


@SETTINGS
@given(anything)
def test_injury_level_type_or_named_error(impact):
    try:
        assert pc.injury_level(impact) in (None, "M1", "S2", "S3", "G4", "G5")
    except RulesError as exc:
        assert _named(exc, "effective_impact")


@SETTINGS
@given(st.integers(-100, 100), st.integers(-100, 100))
def test_injury_level_never_falls_as_impact_rises(a, b):
    order = [None, "M1", "S2", "S3", "G4", "G5"]
    lo, hi = sorted((a, b))
    assert order.index(pc.injury_level(lo)) <= order.index(pc.injury_level(hi))


@SETTINGS
@given(anything)
def test_shock_state_type_or_named_error(shk):
    try:
        assert pc.shock_state(shk) in (None, "STN", "INC", "UNC", "KIA")
    except RulesError as exc:
        assert _named(exc, "shk")


@SETTINGS
@given(anything, anything, anything)
def test_strike_location_type_or_named_error(zone, loc, aim):
    try:
        result = pc.strike_location(zone, loc, aim)
        assert result is None or isinstance(result, str)
        if isinstance(aim, int) and isinstance(zone, int) and aim + zone - 1 > 10:
            assert result is None
    except RulesError as exc:
        assert _named(exc, "zone_roll", "location_roll", "aim_zone")


@SETTINGS
@given(anything, anything)
def test_missile_range_type_or_named_error(range_ft, base):
    try:
        r = pc.missile_range(range_ft, base)
        assert isinstance(r, pc.MissileRange) and r.zone_die in (6, 8, 10)
        assert range_ft <= r.max_range
    except RulesError as exc:
        assert _named(exc, "range_ft", "base_range")


@SETTINGS
@given(st.integers(1, 100), ints, st.sampled_from(["Block", "Dodge", "Counterstrike"]),
       st.integers(1, 100), ints)
def test_melee_exchange_returns_a_resolution(a, ae, defence, d, de):
    r = pc.melee_exchange(a, ae, defence, d, de)
    assert isinstance(r, pc.MeleeResolution) and isinstance(r, Resolution)
    assert r.outcome in ("strike", "counterstrike", "blocked", "dodged", "no strike")
    assert (r.stars == 0) == (r.winner is None)
    assert r.tactical_advantages == max(0, r.stars - 1)
    assert (r.attacker_mishap is not None) == (r.attack_level == "CF")
    assert all(s.rule.system == "percentile" for s in r.trace)


@SETTINGS
@given(anything, anything, st.one_of(st.sampled_from(["Block", "Ignore", "Dodge"]), anything),
       anything, anything)
def test_melee_exchange_bad_input_is_named(a, ae, defence, d, de):
    try:
        assert isinstance(pc.melee_exchange(a, ae, defence, d, de), pc.MeleeResolution)
    except RulesError as exc:
        assert _named(exc, "roll", "eml", "defence")


@settings(deadline=None, max_examples=15)
@given(st.integers(-20, 120), st.sampled_from(["Block", "Counterstrike", "Ignore"]),
       st.integers(-20, 120))
def test_melee_distribution_sums_to_one(ae, defence, de):
    d = pc.melee_outcome_distribution(ae, defence, None if defence == "Ignore" else de)
    assert sum(d.values()) == 1 and all(isinstance(v, Fraction) for v in d.values())


@SETTINGS
@given(st.lists(st.integers(1, 12), min_size=1, max_size=3), st.integers(1, 10),
       st.integers(1, 10))
def test_locate_strike_or_named_error(zones, ln, aim):
    try:
        r = pc.locate_strike(zones, [ln], aim)
        assert isinstance(r, pc.LocationResolution)
        assert (r.location is None) == (r.outcome == "miss")
    except RulesError as exc:
        assert _named(exc, "location_rolls")


@SETTINGS
@given(st.integers(1, 30), st.integers(-10, 10), st.integers(0, 15))
def test_injury_distribution_sums_to_one(die, mod, armour):
    d = pc.injury_level_distribution(die, mod, armour)
    assert sum(d.values()) == 1


@SETTINGS
@given(st.integers(-5, 40), st.sampled_from("BEPF"),
       st.sampled_from(["Skull", "Neck", "Hand", "Thigh", "Abdomen", "Eye"]), st.booleans())
def test_injury_resolution(impact, aspect, location, rigid):
    r = pc.injury(impact, aspect, location, rigid_armour=rigid)
    assert isinstance(r, pc.InjuryResolution)
    assert r.injury == (None if r.glancing else pc.injury_level(impact))
    if r.bleeder:
        assert r.injury in ("S3", "G4", "G5") and aspect != "F"


@SETTINGS
@given(st.integers(0, 6), st.integers(0, 6), st.integers(1, 100), ints)
def test_shock_total_matches_state(loc, inj, roll, eml):
    r = pc.shock(loc, inj, roll, eml)
    assert r.state == pc.shock_state(r.shk)
    assert r.shk - loc - inj in (-1, 0, 1, 2)


@SETTINGS
@given(st.lists(st.sampled_from(["M1E", "S2B", "S3P", "G4E", "G5B", "S2F"]), max_size=4),
       st.sampled_from(["M1E", "S2B", "G4P", "G5E", "S3F"]), st.integers(1, 10))
def test_compound_injury_raises_at_most_one_level(existing, new, d10):
    r = pc.compound_injury(existing, new, d10)
    assert isinstance(r, pc.CompoundResolution)
    assert r.value in range(1, 7)
    if r.compounded:
        assert r.raised is not None


@pytest.mark.parametrize("call, name", [
    (lambda: pc.missile_eml("60", "Direct"), "ml"),
    (lambda: pc.impact(0, 3), "impact_roll"),
    (lambda: pc.impact(5, 3, -1), "armour"),
    (lambda: pc.location_distribution(0), "zone_die"),
    (lambda: pc.injury_level_distribution(0, 1), "impact_die"),
    (lambda: pc.compound_injury(["M1E"], "S2E", 11), "d10"),
    (lambda: pc.shock(-1, 2, 50, 50), "location_shock"),
    (lambda: pc.shock_reroll(50, 60, "INC", fatigue=-5), "fatigue"),
    (lambda: pc.bleeder("Tail", "G4", "E"), "location"),
    (lambda: pc.stray_strike([1], 1, 3, die=12), "die"),
    (lambda: pc.direct_missile_attack(0, 50), "roll"),
    (lambda: pc.volley_missile_attack(50, "x"), "eml"),
    (lambda: pc.heft_penalty(10, -1), "heft"),
    (lambda: pc.reach_modifier(-1, 2), "reach"),
])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(RulesError, match=name):
        call()


@SETTINGS
@given(st.integers(1, 100), ints, st.integers(0, 3), st.sampled_from([None, "STN", "INC", "UNC"]))
def test_blood_loss_advance_adds_0_to_3(roll, eml, bp, state):
    r = pc.blood_loss_advance(roll, eml, bp, state)
    assert isinstance(r, pc.BloodLossResolution) and r.bp - bp in (0, 1, 2, 3)
    assert r.anaemia_fatigue == 5 * r.bp
    if r.bp >= 4:
        assert r.state == "KIA"


@SETTINGS
@given(st.integers(1, 100), st.integers(0, 20), st.integers(1, 6), st.integers(0, 30),
       st.integers(-10, 10))
def test_course_rolls_move_hr_by_at_most_two(roll, hb, hr, fatigue, bonus):
    for fn in (pc.extended_shock_course, pc.infection_course):
        r = fn(roll, hb, hr, fatigue=fatigue, bonus=bonus)
        assert abs(r.healing_rate - hr) in (1, 2)
        assert r.outcome in ("continues", "recovered", "dies")
    coma = pc.coma_course(roll, hb, hr, fatigue=fatigue)
    assert coma.healing_rate >= 1


@SETTINGS
@given(st.integers(1, 100), st.integers(0, 20), st.integers(1, 6), st.integers(1, 5),
       st.booleans(), st.booleans())
def test_healing_roll_never_raises_the_level(roll, hb, hr, il, chance, wider):
    r = pc.healing_roll(roll, hb, hr, il, infection_chance=chance, wider_cf=wider)
    assert 0 <= r.injury_level <= il and il - r.injury_level in (0, 1, 2)
    assert not r.infected or (chance and r.level == "CF")


@SETTINGS
@given(st.integers(1, 100), ints,
       st.sampled_from(["Blunt", "Edge", "Point", "Projectile", "Fire", "Frost"]),
       st.sampled_from(["M1", "S2", "S3", "G4", "G5"]), st.integers(0, 10),
       st.one_of(st.none(), st.integers(0, 6)))
def test_treatment_roll_returns_a_result(roll, eml, aspect, injury, days, index):
    r = pc.treatment_roll(roll, eml, aspect, injury, days=days, physician_index=index)
    assert isinstance(r, pc.TreatmentResolution)
    assert r.healed or r.healing_rate in range(1, 7) or r.new_injury in ("G5E", "G4E", "S3E",
                                                                         "S2E")
    if r.grim_wound:
        assert injury[0] == "G"


@SETTINGS
@given(anything, anything, anything, anything)
def test_treatment_roll_bad_input_is_named(roll, eml, aspect, injury):
    try:
        assert isinstance(pc.treatment_roll(roll, eml, aspect, injury), pc.TreatmentResolution)
    except RulesError as exc:
        assert _named(exc, "roll", "eml", "aspect", "injury")


# Every public function, called with arbitrary values for its positional parameters, returns
# or raises a RulesError that names one of its parameters: never a TypeError or KeyError.
import inspect  # noqa: E402

_FUNCTIONS = [getattr(pc, n) for n in pc.__all__
              if inspect.isfunction(getattr(pc, n))]
_value = st.one_of(st.integers(-30, 130), st.none(), st.sampled_from(
    ["S2", "G4", "M1E", "Edge", "Block", "Thigh", "INC", "CF", "Arms", "Serious", "bow",
     "Direct", "x", ""]), st.lists(st.integers(-2, 12), max_size=3), st.booleans())


@pytest.mark.parametrize("fn", _FUNCTIONS, ids=lambda f: f.__name__)
@settings(deadline=None, max_examples=60)
@given(data=st.data())
def test_public_functions_fail_only_with_named_rules_errors(fn, data):
    params = [p for p in inspect.signature(fn).parameters.values()
              if p.default is inspect.Parameter.empty and p.kind == p.POSITIONAL_OR_KEYWORD]
    args = [data.draw(_value, label=p.name) for p in params]
    try:
        fn(*args)
    except RulesError as exc:
        names = [p.name for p in inspect.signature(fn).parameters.values()]
        assert any(n in str(exc) for n in names + ["range_ft"]), (fn.__name__, str(exc))
