"""Percentile rules of location, Grievous zones, the order after an injury, Extended Shock,
treatment, healing and beasts: each test names the seed passage it follows, and its numbers are
worked out by hand from that passage."""

import pytest

from rulescore.errors import RulesError
from rulescore.systems import percentile as pc


# --- Injury 1 Location: helpless targets and hard cover ------------------------------------

def test_a_helpless_target_has_its_zone_and_location_chosen():
    """Injury 1, Helpless targets: after a round concentrating, the attacker names the zone and
    location. ZN5 is in the Torso (ZN4-7) and LN7 is the Abdomen (LN5-7), location shock 4;
    ZN8 (Legs) with LN3 is the thigh (LN1-4), an odd number: the left one."""
    belly = pc.helpless_location(5, 7)
    assert (belly.zone, belly.outcome, belly.location_shock) == ("Torso", "Abdomen", 4)
    thigh = pc.helpless_location(8, 3)
    assert (thigh.outcome, thigh.side) == ("Thigh", "left")
    with pytest.raises(RulesError, match="zone_number must be from 1 to 10"):
        pc.helpless_location(11, 3)


def test_the_injury_walk_rolls_no_location_dice_against_a_helpless_target():
    """Injury 1-4: the chosen Abdomen, a d10 impact die showing 8 with no modifier: 8E is an
    S2 (5+); Shock roll 61 against ML65 is S (+0): SHK 4 + 2 + 0 = 6, no effect. Only the
    impact die and the Shock roll are used."""
    walk = pc.injury_sequence(helpless=(5, 7), dice=[8, 61])
    assert walk.outcome == "Abdomen: S2E injury; shock 6 → no effect"
    assert [name for name, _ in walk.rolled] == ["impact die (d10)", "Shock test (d100)"]


def test_a_location_behind_hard_cover_makes_the_strike_fail():
    """Injury 1, Location Die Roll: a location behind hard cover means the strike fails. The
    seed's location example (aim ZN4, d6 shows 2 → ZN5, LD 7 → abdomen) against a target whose
    abdomen is behind a wall: no strike, and no impact die is asked for."""
    where = pc.locate_strike([2], [7], 4, hard_cover=["Abdomen"])
    assert (where.outcome, where.value, where.location) == ("hard cover", 0, "Abdomen")
    assert pc.locate_strike([2], [7], 4, hard_cover=["Thigh"]).outcome == "Abdomen"
    walk = pc.injury_sequence(aim_zone=4, hard_cover=["Abdomen", "Pelvis"], dice=[2, 7])
    assert (walk.value, walk.outcome) == (0, "the abdomen is behind hard cover: the strike fails")
    with pytest.raises(RulesError, match="hard_cover must name locations"):
        pc.locate_strike([2], [7], 4, hard_cover=["Wall"])


# --- Injury 5 Tests with Grievous Injury -----------------------------------------------------

def test_a_grievous_zone_makes_any_test_that_needs_it_an_automatic_cf():
    """Injury 5, Tests with Grievous Injury and the INJURY MISHAP table: an arm brings an
    automatic Fumble, a leg or the torso an automatic Stumble, the head both."""
    arm = pc.grievous_zone_test("Arms", "Block")
    assert (arm.level, arm.mishap) == ("CF", "Automatic Fumble")
    assert pc.grievous_zone_test("Legs").mishap == "Automatic Stumble"
    assert pc.grievous_zone_test("Head").mishap == "Automatic Fumble & Stumble"


def test_a_defender_blocking_with_a_grievous_arm_fails_automatically():
    """Injury 5, Tests with Grievous Injury: a Block with the unusable arm is an automatic CF
    (no roll) with the automatic Fumble. The attacker's 36 against EML 60 is S; S against CF
    wins two stars (assumption melee_star_counts), so the blow lands with one TA."""
    r = pc.melee_exchange(36, 60, "Block", None, 60, defender_unusable_zone="Arms")
    assert (r.defence_level, r.outcome, r.stars) == ("CF", "strike", 2)
    assert r.defender_mishap == "Automatic Fumble"
    with pytest.raises(RulesError, match="defence_roll must be empty"):
        pc.melee_exchange(36, 60, "Block", 40, 60, defender_unusable_zone="Arms")
    with pytest.raises(RulesError, match="defender_unusable_zone must be one of"):
        pc.melee_exchange(36, 60, "Block", None, 60, defender_unusable_zone="Tail")


def test_a_grievously_injured_target_counts_as_still_against_missiles():
    """Injury 5: against missile attacks such a target is Still: no -10 for a moving target
    (ML60 at Direct range stays 60), and a strike earns the Still target's free Precision."""
    assert pc.missile_eml(60, "Direct", "moving").value == 50
    assert pc.missile_eml(60, "Direct", "moving", target_grievous=True).value == 60
    shot = pc.missile_shot(60, 40, 40, target="moving", target_grievous=True, roll=33)
    assert (shot.attack.level, shot.attack.precision) == ("S", 1)


# --- Melee 3 Outcome: what follows the injury ----------------------------------------------

def test_after_the_injury_mishaps_then_free_press_rolls_then_bonus_actions():
    """Melee 3 Outcome, Injuries: after the injury come 1) mishaps, 2) Free Press Rolls,
    3) the Action TA's bonus action. A Block with a Grievous arm: the defender's automatic
    Fumble comes first; the attacker's one TA, spent on an action, comes last."""
    r = pc.melee_exchange(36, 60, "Block", None, 60, defender_unusable_zone="Arms")
    spent = pc.spend_advantages(r, ["action"])
    order = pc.after_injury(r, spent, free_press_rolls=1)
    assert order.value == 3
    assert order.outcome == ("the defender's automatic fumble, a Free Press Roll, "
                             "a bonus action (Action TA)")
    # an attacker's CF (95 against EML 60, ones die 5) is a Stumble roll, and nothing else
    blocked = pc.melee_exchange(95, 60, "Block", 30, 60)
    assert pc.after_injury(blocked).outcome == "the attacker's stumble roll"


# --- Healing 2: Extended Shock --------------------------------------------------------------

def test_the_extended_shock_healer_bonus_is_the_best_healers_five_per_star():
    """Healing 2, Treatment: 5 × the stars of one Physician test per healer, only the highest
    healer's bonus. The seed's example: HB13 × HR5 = 65, -15 fatigue, +5 from the ally = 55
    (one star, by assumption extended_shock_healer_bonus); a roll of 93 fails: HR4."""
    assert pc.extended_shock_healer_bonus([1]) == 5
    assert pc.extended_shock_healer_bonus([1, 2]) == 10        # not 15: only the best counts
    assert pc.extended_shock_healer_bonus([]) == 0
    course = pc.extended_shock_course(93, 13, 5, fatigue=15,
                                      bonus=pc.extended_shock_healer_bonus([1]))
    assert (course.eml, course.level, course.healing_rate) == (55, "F", 4)


def test_moving_an_incapacitated_patient_accrues_fatigue_every_ten_minutes():
    """Healing 2, INC: a supported Difficult half Move accrues Personal Fatigue every 10
    minutes: 25 minutes is twice, 9 minutes never. UNC patients take no actions."""
    assert pc.extended_shock_movement("INC", 25).value == 2
    assert pc.extended_shock_movement("INC", 9).value == 0
    with pytest.raises(RulesError, match="state UNC"):
        pc.extended_shock_movement("UNC", 10)
    with pytest.raises(RulesError, match="supported must be True"):
        pc.extended_shock_movement("INC", 10, supported=False)


def test_only_the_single_highest_arcane_bonus_applies():
    """Healing 2, 3, 6, 7, Arcane Recovery: the single highest arcane test bonus. The seed's
    healing example, HB13 × HR4 = EML52: with arcane bonuses 5 and 10 it is EML62, and its
    roll of 62 succeeds (S2 → M1) where it failed against 52."""
    assert pc.arcane_bonus([5, 10]) == 10 and pc.arcane_bonus([]) == 0
    assert pc.healing_roll(62, 13, 4, 2).level == "F"
    helped = pc.healing_roll(62, 13, 4, 2, arcane=[5, 10])
    assert (helped.level, helped.injury) == ("S", "M1")
    assert pc.infection_course(70, 13, 5, arcane=[10]).eml == 75
    assert pc.coma_course(50, 10, 3, arcane=[20]).eml == 50
    assert pc.extended_shock_course(10, 13, 5, arcane=[5]).eml == 70


# --- Healing 5: several healers, the frozen compress ----------------------------------------

def test_several_healers_take_turns_by_rising_physician_index():
    """Healing 5, Multiple Treatment Rolls: each healer rolls once per injury; a later healer
    needs a higher Physician Index than all before; the best level counts, but a CF from
    anyone replaces everything."""
    assert pc.combine_treatment_rolls([("Ana", 2, "F"), ("Bo", 3, "S")]).outcome == "S"
    assert pc.combine_treatment_rolls([("Ana", 2, "S"), ("Bo", 3, "CF")]).outcome == "CF"
    with pytest.raises(RulesError, match="Ana already made a Treatment Roll"):
        pc.combine_treatment_rolls([("Ana", 2, "F"), ("Ana", 4, "S")])
    with pytest.raises(RulesError, match="each later healer needs a higher index"):
        pc.combine_treatment_rolls([("Ana", 3, "F"), ("Bo", 3, "S")])


def test_a_frozen_compress_adds_ten():
    """Healing Treatments, Compress: +10 if frozen. A Blunt M1 takes CMP at +30: Physician 50
    is EML 80, and a roll of 85 is a CF (HR4); with a frozen compress EML 90 and 85 is a CS,
    which heals a minor blunt injury at once. An Edge S2 takes CLN, so no compress bonus."""
    assert pc.treatment_roll(85, 50, "Blunt", "M1").outcome == "HR4"
    frozen = pc.treatment_roll(85, 50, "Blunt", "M1", frozen_compress=True)
    assert (frozen.level, frozen.outcome, frozen.healed) == ("CS", "HEAL", True)
    with pytest.raises(RulesError, match="frozen_compress applies to the Compress"):
        pc.treatment_roll(85, 50, "Edge", "S2", frozen_compress=True)


# --- Healing 6 and 7: random healing period, amputating an infected limb --------------------

def test_the_random_healing_period_is_d3_plus_3_days():
    """Healing 6, Random Option: five days, or d3 + 3 (four to six) rolled each period."""
    assert pc.healing_period() == 5
    assert [pc.healing_period(d3) for d3 in (1, 2, 3)] == [4, 5, 6]
    with pytest.raises(RulesError, match="d3 must be from 1 to 3"):
        pc.healing_period(4)


def test_amputating_an_infected_limb_uses_the_frost_amputation_results():
    """Healing 7, Amputation: it defeats the infection, done as the Amputation treatment of
    Grievous frost injuries (MOD 0, DEX counts): CF G5E, F G4E, S S3E, CS S2E. Physician 50:
    45 is a CS (S2E), 51 an F (G4E); DEX +5 makes 55 a CS."""
    cs = pc.infection_amputation(45, 50, "Forearm")
    assert (cs.level, cs.new_injury) == ("CS", "S2E")
    assert "the infection is defeated" in cs.trace[-1].text
    assert pc.infection_amputation(51, 50, "Calf").new_injury == "G4E"
    assert pc.infection_amputation(55, 50, "Calf", dex_modifier=5).new_injury == "S2E"
    with pytest.raises(RulesError, match="location must be on an arm or leg"):
        pc.infection_amputation(45, 50, "Thorax")


# --- Beasts' average Strength ------------------------------------------------------------------

def test_beasts_test_amputation_and_blood_loss_at_their_fixed_mls():
    """Injury 3.4 and Healing 1: beasts have average Strength: amputation ML70 (white
    triangle), ML50 (grey), ML30 (black); Blood Loss Advance Rolls ML50. Neck (white) roll 70:
    a CS, not severed. Forearm (grey) roll 51: F, severed. Hand (black) roll 30: CS. Blood
    loss roll 51 against ML50: F, 2 BP: Stunned then Incapacitated."""
    assert pc.amputation_test(70, None, "Neck", beast=True).level == "CS"
    forearm = pc.amputation_test(51, None, "Forearm", beast=True)
    assert (forearm.level, forearm.severed) == ("F", True)
    assert pc.amputation_test(30, None, "Hand", beast=True).level == "CS"
    loss = pc.blood_loss_advance(51, None, beast=True)
    assert (loss.bp, loss.state) == (2, "INC")
    with pytest.raises(RulesError, match="strength_eml must be None for a beast"):
        pc.amputation_test(70, 60, "Neck", beast=True)


def test_location_odds_with_hard_cover_match_enumeration():
    """Injury 1, Location Die Roll: the odds of a d6 aimed at ZN4 with the legs' thigh and knee
    behind cover, counted face by face here: ZN 4-7 torso on 1-4, ZN 8-9 legs on 5-6; thigh is
    LN 1-4 and knee LN 5, so 2 × 5 of the 60 (Zone, Location) pairs fail: 1/6."""
    from fractions import Fraction
    legs = {1: "Thigh", 2: "Thigh", 3: "Thigh", 4: "Thigh", 5: "Knee"}
    failing = sum(1 for z in range(1, 7) for ln in range(1, 11)
                  if 4 + z - 1 >= 8 and ln in legs)
    odds = pc.location_distribution(6, 4, hard_cover=["Thigh", "Knee"])
    assert odds["hard cover"] == Fraction(failing, 60) == Fraction(1, 6)
    assert "Thigh" not in odds and sum(odds.values()) == 1


def test_exchange_odds_against_a_defender_with_a_lost_zone_match_enumeration():
    """Injury 5, Tests with Grievous Injury, with the melee matrix (assumption
    melee_star_counts): the defender's automatic CF leaves only the attacker's d100. Counted
    here face by face at EML 60: a success beats CF by two stars, a critical success by three,
    a failure or critical failure strikes nothing."""
    from collections import Counter
    from fractions import Fraction
    counts = Counter()
    for roll in range(1, 101):
        if roll <= 60:
            counts[("strike", 3 if roll % 5 == 0 else 2)] += 1
        else:
            counts[("no strike", 0)] += 1
    want = {k: Fraction(n, 100) for k, n in counts.items()}
    for defence in ("Block", "Dodge", "Counterstrike"):
        assert pc.melee_outcome_distribution(60, defence, None,
                                             defender_unusable_zone="Legs") == want


# --- named readings (data/assumptions.toml) -----------------------------------------------------

def test_the_named_readings_hold():
    """critical_multiples: any roll ending in 0 or 5 is critical (05 and 00 too).
    off_hand_minimum: off-hand use costs at least -10 even when Strength 15 covers the raised
    HFT 5 + 5 = 10; HFT 12 off-hand is 17, 2 over STR 15: -10; HFT 14 is 19, 4 over: -20.
    crossbow_skill: the higher of Archery 40 and Archery SB 15 × 3 = 45."""
    assert [pc.success_level(r, 50) for r in (5, 50, 55, 100, 51)] == ["CS", "CS", "CF", "CF", "F"]
    assert pc.heft_penalty(15, 5, grip="off-handed") == -10
    assert pc.heft_penalty(15, 12, grip="off-handed") == -10
    assert pc.heft_penalty(15, 14, grip="off-handed") == -20
    assert pc.heft_penalty(15, 14, grip="off-handed", shield_block=True) == 0
    assert pc.missile_skill("crossbow", archery=40, archery_sb=15) == 45
    assert pc.missile_skill("crossbow", archery=50, archery_sb=15) == 50


def test_a_beast_walked_through_an_amputation_test():
    """Injury 3.4, beasts at average Strength: a helpless beast's neck (ZN1, LN9; white
    triangle) takes d10 10 + 12 = 22E, a G5 edge injury: the amputation test is against ML70,
    whatever Strength EML is typed, and 70 is a CS: not severed. Shock: neck 5 + injury 5 +
    roll 61 against 65 (S, +0) = SHK 10, killed."""
    walk = pc.injury_sequence(helpless=(1, 9), impact_modifier=12, beast=True, strength_eml=10,
                              dice=[10, 70, 61])
    assert (walk.amputation.level, walk.amputation.severed) == ("CS", False)
    assert walk.amputation.trace[0].text == ("Neck: a beast tests ML70 at a white triangle; "
                                             "roll 70: CS")
    assert (walk.shock.shk, walk.state) == (10, "KIA")
