"""Percentile system: the healing sequence's worked examples and rules, and the remaining
melee/injury pieces (melee EML, evasion, injury effect)."""

import pytest

from rulescore import RulesError
from rulescore.dice import DiceSource
from rulescore.systems import percentile as pc


# --- step 1: bleeding (the seed's bleeding example) --------------------------------------

def test_bleeding_example():
    """G4E shoulder bleeder, already INC: Strength ML60 F → 2 BP and UNC; Physician ML40 S
    stops it after one more roll; that roll S → 3 BP, still UNC, 15 weakness fatigue."""
    first = pc.blood_loss_advance(61, 60, bp=0, state="INC")
    assert (first.level, first.gained, first.bp, first.state) == ("F", 2, 2, "UNC")
    staunch = pc.blood_stoppage(31, 40)
    assert (staunch.level, staunch.stopped, staunch.extra_advance_roll) == ("S", True, True)
    last = pc.blood_loss_advance(41, 60, bp=2, state="UNC")
    assert (last.gained, last.bp, last.state, last.anaemia_fatigue) == (1, 3, "UNC", 15)


def test_the_bleeding_example_as_two_five_minute_periods():
    """Healing 1 example: first five minutes with no healer, Strength ML60 rolls 62 (F): 2 BP,
    INC while INC is UNC. Next period the ally's Staunch (Physician ML40) rolls 33 (S): stopped
    after one more Blood Loss roll, 33 (S): 3 BP in all, still UNC, 15 anaemia fatigue."""
    first = pc.bleeding_period(60, 0, "INC", dice=DiceSource.typed([62]))
    assert (first.stoppage, first.advance.level, first.bp, first.state, first.outcome) == \
        (None, "F", 2, "UNC", "bleeding")
    second = pc.bleeding_period(60, 2, "UNC", physician_eml=40, dice=DiceSource.typed([33, 33]))
    assert (second.stoppage.level, second.advance.level, second.bp, second.state) == \
        ("S", "S", 3, "UNC")
    assert (second.outcome, second.stopped, second.anaemia_fatigue) == ("stopped", True, 15)


def test_a_critical_staunch_stops_the_bleeding_with_no_more_blood_lost():
    done = pc.bleeding_period(60, 1, "STN", physician_eml=40, dice=DiceSource.typed([35]))
    assert (done.outcome, done.advance, done.bp, done.anaemia_fatigue) == ("stopped", None, 1, 5)


def test_a_failed_staunch_leaves_ten_for_the_next_and_a_fourth_bp_kills():
    failed = pc.bleeding_period(60, 2, "INC", physician_eml=40, dice=DiceSource.typed([41, 70]))
    assert (failed.stoppage.level, failed.next_bonus, failed.outcome, failed.state) == \
        ("F", 10, "dead", "KIA")
    again = pc.bleeding_period(60, 1, None, physician_eml=40, staunch_bonus=10,
                               dice=DiceSource.typed([48, 30]))
    assert again.stoppage.trace[0].value("eml") == 50 and again.stoppage.level == "S"
    assert "The last Staunch failed: +10 to this one" in again.trace[0].text


def test_bleeding_period_odds_match_enumeration_of_both_d100s():
    """Healer EML 40, Strength EML 60, 1 BP: count every pair of d100 faces."""
    from collections import Counter
    from fractions import Fraction
    counts = Counter()
    for stop in range(1, 101):
        for loss in range(1, 101):
            # a CS stoppage never reads the loss die: each pair is still one of 10 000
            r = pc.bleeding_period(60, 1, None, physician_eml=40,
                                   dice=DiceSource.typed([stop, loss]) if stop % 5 or stop > 40
                                   else DiceSource.typed([stop]))
            counts[(r.outcome, r.bp)] += 1
    # Against EML 40: CS on 5, 10, ..., 40 (8 faces), S on the other 32 faces up to 40.
    # Against EML 60: CS on 12 faces, CF on 65, 70, ..., 100 (8 faces), which from 1 BP is 4.
    assert counts[("stopped", 1)] == 8 * 100 + 32 * 12
    assert counts[("dead", 4)] == (100 - 8) * 8
    assert sum(v for (o, _), v in counts.items() if o == "stopped") == 8 * 100 + 32 * 92
    assert Fraction(counts[("dead", 4)], 10000) == Fraction(92, 100) * Fraction(8, 100)


@pytest.mark.parametrize("options", [{"physician_eml": 40}, {"physician_eml": 25,
                                     "cauterise": True, "bleeders": 2}, {}, {"beast": True}])
def test_bleeding_odds_match_brute_force_over_both_d100s(options):
    from collections import Counter
    from fractions import Fraction
    strength = None if options.get("beast") else 60
    counts = Counter()
    for stop in range(1, 101) if "physician_eml" in options else (None,):
        for loss in range(1, 101):
            dice = [loss] if stop is None else [stop, loss]
            r = pc.bleeding_period(strength, 1, "STN", **options, dice=DiceSource.typed(dice))
            counts[(r.outcome, r.bp)] += 1
    total = sum(counts.values())
    assert pc.bleeding_odds(strength, 1, "STN", **options) == \
        {k: Fraction(v, total) for k, v in counts.items()}


def test_the_extended_shock_example_odds_and_rolls():
    """Healing 2 example: HB13 × HR5 - 15 fatigue + 5 (ally's SV5) = EML55. 93 is F: HR4;
    then EML42, 41 is S: HR5; then 13 is S: HR6, recovered."""
    from fractions import Fraction
    odds = pc.course_odds("extended shock", 13, 5, fatigue=15, bonus=5)
    brute = {}
    for face in range(1, 101):
        r = pc.extended_shock_course(face, 13, 5, fatigue=15, bonus=5)
        brute[(r.healing_rate, r.outcome)] = brute.get((r.healing_rate, r.outcome), 0) + 1
    assert odds == {k: Fraction(v, 100) for k, v in brute.items()}
    assert odds[(6, "recovered")] == Fraction(44, 100)    # S: 1-55 less 11 multiples of 5
    hr = 5
    for roll, want in ((93, 4), (41, 5), (13, 6)):
        hr = pc.extended_shock_course(None, 13, hr, fatigue=15, bonus=5,
                                      dice=DiceSource.typed([roll])).healing_rate
        assert hr == want
    coma = pc.course_odds("coma", 13, 3, sheltered=False)
    assert sum(coma.values()) == 1 and all(h >= 1 for h, _ in coma)
    with pytest.raises(RulesError, match="no healer's test helps a coma"):
        pc.course_odds("coma", 13, 3, bonus=5)


def test_a_record_keeps_a_death_and_rolls_nothing_more():
    record = pc.InjuryRecord("Ana").add_injury("Shoulder", "Edge", 4).died("a fourth BP")
    assert record.dead and record.log[-1] == "Day 0: died (a fourth BP)"
    assert pc.next_roll(record) is None


def test_dice_or_a_value_not_both():
    with pytest.raises(RulesError, match="give roll or dice, not both: got roll 33 and dice"):
        pc.blood_stoppage(33, 40, dice=DiceSource.seeded(3))
    with pytest.raises(RulesError, match="roll is needed: give the d100 rolled, or dice"):
        pc.skill_test(None, 60)
    assert pc.skill_test(None, 60, dice=DiceSource.typed([44])).level == "S"
    seeded = pc.extended_shock_course(None, 13, 5, dice=DiceSource.seeded(8))
    assert seeded.value == pc.extended_shock_course(
        seeded.trace[0].value("roll"), 13, 5).value


def test_blood_loss_track_and_death():
    assert [pc.blood_loss_state(n) for n in range(6)] == [None, "STN", "INC", "UNC", "KIA",
                                                          "KIA"]
    fresh = pc.blood_loss_advance(80, 60)                          # CF: 3 BP from nothing
    assert (fresh.bp, fresh.state) == (3, "UNC")
    dead = pc.blood_loss_advance(70, 60, bp=2)                     # CF: 5 BP
    assert dead.state == "KIA"
    assert pc.blood_loss_advance(30, 60, bp=1, state="STN").bp == 1   # CS: no loss
    with pytest.raises(RulesError, match="bp must be from 0 to 3, got 4"):
        pc.blood_loss_advance(30, 60, bp=4)                       # already dead


def test_blood_stoppage_modifiers():
    assert pc.blood_stoppage(55, 40, cauterise=True).level == "CS"    # EML 70
    assert pc.blood_stoppage(31, 40, bleeders=2).level == "F"         # EML 30
    assert pc.blood_stoppage(59, 40, tourniquet=True).level == "S"    # EML 60
    f = pc.blood_stoppage(41, 40)
    assert (f.stopped, f.next_bonus) == (False, 10)
    assert pc.blood_stoppage(10, 40).extra_advance_roll is False


# --- step 2: extended shock (the seed's example) ------------------------------------------

def test_extended_shock_example():
    first = pc.extended_shock_course(93, 13, 5, fatigue=15, bonus=5)
    assert (first.eml, first.level, first.healing_rate, first.outcome) == (55, "F", 4,
                                                                          "continues")
    second = pc.extended_shock_course(41, 13, 4, fatigue=15, bonus=5)
    assert (second.eml, second.healing_rate) == (42, 5)
    third = pc.extended_shock_course(13, 13, 5, fatigue=15, bonus=5)
    assert (third.healing_rate, third.outcome) == (6, "recovered")


def test_extended_shock_death():
    r = pc.extended_shock_course(100, 13, 2)
    assert (r.level, r.healing_rate, r.outcome) == ("CF", 0, "dies")


# --- step 3: coma -----------------------------------------------------------------------

def test_coma_healing_rate_formula():
    assert pc.coma_healing_rate(4, 2) == 6                          # 12 - 4 - 2
    assert pc.coma_healing_rate(5, 5) == 2
    assert pc.COMA_HR.evaluate(location_shock=3, injury_level=4) == 5
    with pytest.raises(RulesError, match="injury_level must be from 1 to 6"):
        pc.coma_healing_rate(4, 0)


def test_coma_course_minimum_and_shelter():
    low = pc.coma_course(100, 13, 2)
    assert (low.level, low.healing_rate) == ("CF", 1)               # never below HR1
    unsheltered = pc.coma_course(11, 13, 2, sheltered=False)        # EML 26 - 20 = 6
    assert unsheltered.eml == 6 and unsheltered.level == "F"
    assert pc.coma_course(5, 13, 4).outcome == "recovered"          # CS: 4 → 6
    assert [pc.coma_weariness(d) for d in (0, 4, 5, 23, 30)] == [0, 0, 5, 20, 30]


# --- steps 6 and 7: healing and infection (the seed's example) ----------------------------

def test_healing_and_infection_example():
    assert pc.healing_roll(62, 13, 4, 2).outcome == "S2"             # F: no effect
    second = pc.healing_roll(24, 13, 4, 2)
    assert (second.level, second.injury, second.injury_level) == ("S", "M1", 1)
    third = pc.healing_roll(95, 13, 4, 1, infection_chance=True)
    assert (third.level, third.infected, third.injury) == ("CF", True, "M1")
    hr = pc.infection_healing_rate(4)
    infection = pc.infection_course(42, 13, hr)
    assert (hr, infection.eml, infection.outcome) == (5, 65, "recovered")
    final = pc.healing_roll(42, 13, 4, 1)
    assert (final.outcome, final.value) == ("healed", 0)


def test_healing_roll_rules():
    assert pc.healing_roll(10, 13, 4, 5).injury == "S3"             # CS: G5 → S3
    assert pc.healing_roll(95, 13, 4, 3).infected is False          # no infection chance
    assert pc.healing_roll(53, 13, 4, 3, wider_cf=True).level == "CF"   # ones 3
    assert pc.healing_roll(58, 13, 4, 3, wider_cf=True).level == "CF"
    assert pc.healing_roll(54, 13, 4, 3, wider_cf=True).level == "F"
    assert pc.infection_healing_rate(5) == 5 and pc.infection_healing_rate(6) == 5
    assert [pc.infection_weakness(h) for h in range(1, 6)] == [10, 10, 5, 5, 0]
    assert pc.infection_course(100, 13, 2).outcome == "dies"


def test_blood_regeneration():
    r = pc.blood_regeneration(30, 60, 3)
    assert (r.level, r.bp, r.skip_next) == ("CS", 1, False)
    assert pc.blood_regeneration(31, 60, 1).bp == 0
    assert pc.blood_regeneration(90, 60, 2).skip_next is True


@pytest.mark.parametrize("days, impairment", [(0, 0), (19, 0), (20, 5), (25, 5), (39, 5),
                                              (40, 10), (60, 15), (80, 20), (99, 20),
                                              (100, 25), (400, 25)])
def test_permanent_impairment_by_days(days, impairment):
    assert pc.permanent_impairment(days) == impairment


# --- melee EML, evasion and injury effect ---------------------------------------------------

def test_melee_eml_modifiers():
    assert pc.melee_eml(60, aim=True).value == 50
    assert pc.melee_eml(60, defence=True, aim=True).value == 50     # a counterstrike aims too
    assert pc.melee_eml(60, defence=True, outnumbered=3).value == 40
    assert pc.melee_eml(60, outnumbered=3).value == 60              # attacks: no penalty
    assert pc.melee_eml(60, prone=True, heft=-10, reach=-5, trauma=10).value == 15
    with pytest.raises(RulesError, match="heft must be 0 or less"):
        pc.melee_eml(60, heft=5)


def test_evade_area_attack():
    assert [pc.evade_area_attack(r, 60).shk_reduction for r in (30, 31, 61, 65)] == \
        [2, 1, 0, 0]
    assert pc.evade_area_attack(61, 60).prone


def test_injury_effect_rules():
    assert pc.injury_impairment("Minor") == 0
    assert pc.injury_impairment("Minor", minutes=10) == 5
    assert pc.injury_impairment("Minor", shock_succeeded=False) == 5
    assert pc.injury_impairment("Serious") == 10
    assert pc.injury_impairment("Grievous") is None
    assert pc.impaired_test("Melee", "Legs") and not pc.impaired_test("Awareness", "Torso")
    assert pc.impaired_test("Legerdemain", "Arms") and not pc.impaired_test("Dodge", "Arms")
    assert pc.impaled("S3", True) and not pc.impaled("S2", True) and not pc.impaled("G5", False)
    with pytest.raises(RulesError, match="test must be one of"):
        pc.impaired_test("Singing", "Head")


# --- steps 4 and 5: treatment ---------------------------------------------------------------

def test_treatment_example_s2_edge_failure():
    """S2 edge abdomen, failed Treatment Roll: HR4 with the chance of infection."""
    r = pc.treatment_roll(51, 40, "Edge", "S2")                     # EML 50 (CLN +10)
    assert (r.level, r.treatment, r.healing_rate, r.infection) == ("F", "CLN", 4, True)
    assert r.trace[0].value("eml") == 50


def test_grievous_hr_cap_example():
    """Physician Index 3, CS on a G4 Edge: HR3 with a bleeder, infection and impairment."""
    r = pc.treatment_roll(10, 60, "Edge", "G4", physician_index=3)
    assert (r.level, r.healing_rate, r.bleeder, r.infection, r.impairment) == \
        ("CS", 3, True, True, True)
    assert pc.treatment_roll(10, 60, "Edge", "G4", physician_index=5).healing_rate == 5
    assert pc.treatment_roll(10, 60, "Edge", "G4", physician_index=1).healing_rate == 2
    assert pc.treatment_roll(10, 60, "Edge", "S3", physician_index=1).healing_rate == 6


def test_treatment_tables_by_aspect():
    assert pc.treatment_roll(10, 60, "Blunt", "M1").healed                  # CS: HEAL
    fire = pc.treatment_roll(61, 60, "Fire", "G4")                          # F: HR2
    assert (fire.healing_rate, fire.treatment) == (2, "CLN")
    frost = pc.treatment_roll(66, 60, "Frost", "G5")                        # F: G4E
    assert (frost.new_injury, frost.treatment, frost.healing_rate) == ("G4E", "AMP", None)
    assert pc.treatment_roll(45, 20, "Frost", "M1").healed                  # +40: S heals
    assert pc.required_treatment("Projectile", "S2") == "CLN"
    assert pc.required_treatment("Projectile", "S3") == "EXT"


def test_treatment_modifiers():
    base = pc.treatment_roll(50, 50, "Projectile", "G4")                    # -10 → 40
    assert base.trace[0].value("eml") == 40
    r = pc.treatment_roll(50, 50, "Projectile", "G4", broadhead=True, days=2, dex_modifier=5)
    assert r.trace[0].value("eml") == 40 - 30 - 10 + 5
    cln = pc.treatment_roll(50, 50, "Edge", "M1", dex_modifier=5)           # CLN: no DEX
    assert cln.trace[0].value("eml") == 70
    assert pc.treatment_roll(50, 50, "Edge", "M1", area=True).trace[0].value("eml") == 50


def test_untreated_and_grim_wounds():
    u = pc.untreated("Point", "G4")
    assert (u.level, u.healing_rate, u.grim_wound, u.bleeder) == ("CF", 2, True, True)
    assert pc.untreated("Blunt", "S2").grim_wound is False
    assert pc.combined_treatment_level(["F", "CS", "S"]) == "CS"
    assert pc.combined_treatment_level(["CS", "CF"]) == "CF"
    with pytest.raises(RulesError, match="aspect must be one of"):
        pc.untreated("Acid", "G4")
    with pytest.raises(RulesError, match="injury must be one of"):
        pc.treatment_roll(50, 50, "Edge", "G6")


# --- step 8: impairment, concentration, aggravation, descriptions ---------------------------

def test_impairment_example_g4e_shoulder():
    """G4E shoulder with HR3: unusable while Grievous; as S2 after 20 days, 5 permanent but the
    10 indefinite applies; as M1 after 25 days, 5 (permanent and indefinite agree)."""
    assert pc.current_impairment("G4", 3, pc.permanent_impairment(15)) is None
    assert pc.current_impairment("S2", 3, pc.permanent_impairment(20)) == 10
    assert pc.current_impairment("M1", 3, pc.permanent_impairment(25)) == 5
    assert pc.current_impairment("M1", 6) == 0                      # HR6: no impairment
    assert pc.current_impairment("M1", 6, 15) == 15                 # permanent wins


def test_area_grievous_fire_is_always_grim():
    assert pc.treatment_roll(10, 60, "Fire", "G4", area=True).grim_wound
    assert not pc.treatment_roll(10, 60, "Fire", "G4").grim_wound
    assert not pc.treatment_roll(10, 60, "Fire", "S3", area=True).grim_wound


def test_concentration_and_aggravation():
    assert pc.concentration_broken(["STN"]) and pc.concentration_broken(["Grim wound"])
    assert not pc.concentration_broken(["Serious thigh injury"])
    assert not pc.concentration_broken([])
    assert pc.aggravation_check(66, 65, 3).value == 2               # F: HR -1
    assert pc.aggravation_check(66, 65, 1).value == 1               # never below HR1
    assert pc.aggravation_check(64, 65, 3).value == 3
    assert pc.aggravation_period("Charge") == "per turn"
    assert pc.aggravation_period("Half Move") == "per four hours"
    with pytest.raises(RulesError, match="conditions must be a list"):
        pc.concentration_broken("STN")


def test_injury_descriptions():
    assert pc.injury_description("Grievous", "Blunt") == "compound fracture"
    assert pc.injury_description("Minor", "Frost") == "numb, swollen skin"
    with pytest.raises(RulesError, match="severity must be"):
        pc.injury_description("Mortal", "Edge")


def test_area_injuries_impair_like_the_head():
    assert pc.impaired_test("Awareness", "Area") and pc.impaired_test("Legerdemain", "Area")
    assert pc.injury_mishap("Area", "Grievous") == "Automatic Fumble & Stumble"
    with pytest.raises(RulesError, match="zone must be Head, Arms, Torso, Legs or Area"):
        pc.impaired_test("Melee", "Tail")
