"""The healing sequence walker in plain pytest: record, treatment, recovery, keeping."""

import dataclasses
import html
import json

import pytest

from rulescore.errors import RulesError
from rulescore.roster import Roster
from rulescore.systems import percentile as pc
from widgets.lean import is_shown
from widgets.percentile_healing import HealingWalker, timeline_svg


def treated() -> HealingWalker:
    h = HealingWalker("Ana", 13, 60)
    h.location.value = "Abdomen"
    h.aspect.value = "Edge"
    h.level.value = 2
    h.add_button.click()
    h.treat_entry.my_dice.value = "99"
    h.treat_entry.use_dice()
    return h


def test_adding_an_injury_shows_it_and_the_exact_treatment_odds():
    h = HealingWalker()
    h.add_button.click()
    assert "<td>Abdomen</td><td>S2E</td>" in h.sheet.value
    assert "waiting for treatment" in h.sheet.value
    # Physician 60 + CLN +10 = EML 70: CS 14 %, S 56 %, F 24 %, CF 6 %.
    assert "Critical Success: HR6</td><td>14.00%</td><td>7/50" in h.treat_odds.value
    h.delay.value = 2
    assert "Critical Success: HR6</td><td>12.00%" in h.treat_odds.value   # EML 60


def test_the_seeds_treatment_and_healing_example_end_to_end():
    h = treated()
    assert "<td>F</td><td>HR4</td><td>10</td>" in h.sheet.value
    assert "Day 5: Healing Roll (S2E abdomen, HB × HR4), EML 52" in h.next_odds.value
    h.heal_entry.my_dice.value = "62, 24, 95"
    h.heal_entry.use_dice()
    assert "Infection Course Roll (HB × Infection HR5), EML 65" in h.next_odds.value
    assert "infected" in h.sheet.value
    h.heal_entry.my_dice.value = "42, 42"
    h.heal_entry.use_dice()
    assert "healed on day 21" in h.sheet.value
    assert "Nothing left to roll" in h.next_odds.value
    assert "<polyline" in h.timeline.value and "infected" in h.timeline.value


def test_untreated_injury_takes_the_cf_result():
    h = HealingWalker()
    h.add_button.click()
    h.untreated_button.click()
    assert "<td>CF</td><td>HR3</td>" in h.sheet.value
    assert "No Treatment Roll" in h.explanation.value
    h.untreated_button.click()
    assert "add an injury first" in h.error.message


def test_seeded_simulation_replays_and_respects_the_stop_day():
    a = treated()
    a.until.value = 12
    a.heal_entry.roll(seed=8)
    assert a.record.day == 12
    b = treated()
    b.until.value = 12
    b.heal_entry.roll(seed=8)
    assert a.record == b.record
    a.until.value = 0
    a.heal_entry.roll(seed=9)
    assert a.record.dead or a.record.recovered


def test_typed_dice_errors_are_shown_in_place():
    h = treated()
    h.heal_entry.my_dice.value = "101"
    h.heal_entry.use_dice()
    assert "must be from 1 to 100" in h.heal_entry.error.message
    h.treat_entry.my_dice.value = "5, 6"
    h.treat_entry.use_dice()
    assert h.treat_entry.error.message == "“Treatment dice” must be one d100, got 2 numbers"


def test_character_and_blood_loss_inputs_reach_the_record():
    h = treated()
    h.name.value = "Bram"
    h.healing_base.value = 10
    h.blood.value = 3
    assert (h.record.name, h.record.healing_base, h.record.blood_loss) == ("Bram", 10, 3)
    assert "HB × HR4), EML 40" in h.next_odds.value
    h.name.value = "  "
    assert "“Character” must be a non-empty text" in h.error.message


def test_every_change_is_kept_and_a_download_round_trips():
    h = treated()
    text = h.record.to_json()
    assert "data:application/json" in h.kept.transfer.link.value
    other = HealingWalker()
    other.load_json(text)
    assert other.record == h.record and "HR4" in other.sheet.value
    with pytest.raises(RulesError, match="not an injury record"):
        other.load_json(json.dumps({"format": "rulebook/vl-encounter", "version": 1}))
    assert other.record == h.record


def test_restore_offer_only_for_a_record_worth_restoring():
    h = HealingWalker()
    h.kept.store.stored = treated().record.to_json()
    assert is_shown(h.kept.offer)
    assert "A saved injury record was found" in h.kept.note.value
    h.kept.restore()
    assert h.record.injuries[0].hr == 4 and not is_shown(h.kept.offer)
    g = HealingWalker()
    g.kept.store.stored = "{broken"       # named, never restored, only discarded
    assert is_shown(g.kept.offer) and not is_shown(g.kept.restore_button)
    assert "cannot be restored</b>: injury record: the file is not JSON" in g.kept.note.value
    g.kept.discard_button.click()
    assert not is_shown(g.kept.offer)


def test_timeline_draws_one_line_per_injury():
    rec = pc.InjuryRecord().add_injury("Thigh", "Blunt", 1).add_injury("Skull", "Edge", 3)
    svg = timeline_svg(rec)
    assert svg.count("<polyline") == 2 and "1. Thigh" in svg and "2. Skull" in svg
    assert timeline_svg(pc.InjuryRecord()) == ""          # the sheet says there are none


def test_the_sheet_says_whose_record_it_is_and_shows_each_change_of_its_numbers():
    h = HealingWalker("Ana", 13, 60)
    assert "<b>Ana</b>: Healing Base 13, Endurance EML 60. Day <b>0</b>, blood loss <b>0 BP</b>." \
        in h.sheet.value and "No injuries on the record." in h.sheet.value
    h.name.value = "Bea"
    h.healing_base.value = 12
    h.endurance.value = 55
    h.blood.value = 2
    assert "<b>Bea</b>: Healing Base 12, Endurance EML 55. Day <b>0</b>, blood loss <b>2 BP</b>." \
        in h.sheet.value


def test_a_frozen_compress_adds_ten_to_the_treatment_odds():
    """Healing Treatments, Compress: +10 if frozen. A Blunt M1 needs CMP (+30): Physician 60
    tests at EML 90, a CS on the 18 multiples of 5 up to 90; the frozen compress makes it
    EML 100, where all 20 multiples of 5 are a CS. An Edge wound takes no compress."""
    h = HealingWalker()
    h.aspect.value = "Blunt"
    h.level.value = 1
    h.add_button.click()
    assert "Critical Success: HEAL</td><td>18.00%" in h.treat_odds.value
    h.frozen.value = True
    assert "Critical Success: HEAL</td><td>20.00%" in h.treat_odds.value
    h.aspect.value = "Edge"
    h.add_button.click()
    h.which.value = 1
    assert "“The compress is frozen” applies to the Compress treatment (CMP) only" in \
        h.treat_entry.error.message


def shoulder_bleeder() -> HealingWalker:
    """Healing 1 example: a G4E right shoulder Bleeder, the victim INC in extended shock."""
    h = HealingWalker("Ana", 13, 60)
    h.location.value, h.aspect.value, h.level.value = "Shoulder", "Edge", 4
    h.bleeder.value = True
    h.add_button.click()
    h.state.value = "INC"
    return h


def test_the_seeds_bleeding_example_in_two_presses():
    """Five minutes with nobody staunching: Strength ML60 rolls 62 (F), 2 BP, INC while INC is
    UNC. Then the ally's Staunch at Physician ML40 rolls 33 (S) and the last Blood Loss roll 33
    (S): 3 BP, still UNC, 15 weakness fatigue; the BP are on the record."""
    h = shoulder_bleeder()
    h.no_healer.value = True
    # Strength EML 60 from 0 BP: F on the 32 faces 61-100 that are not multiples of 5
    assert "still bleeding, 2 BP in all</td><td>32.00%</td><td>8/25" in h.bleed_odds.value
    h.bleed_entry.my_dice.value = "62"
    h.bleed_entry.use_dice()
    assert h.record.blood_loss == 2 and h.state.value == "UNC"
    h.no_healer.value = False
    h.bleed_entry.my_dice.value = "33, 33"
    h.bleed_entry.use_dice()
    assert "Bleeding stopped: 3 BP, UNC, 15 weakness fatigue from anaemia" in \
        h.bleed_result.value
    assert h.record.blood_loss == 3 and "blood loss <b>3 BP</b>" in h.sheet.value


def test_a_fourth_bp_kills_and_the_rows_stop_offering_rolls():
    h = shoulder_bleeder()
    h.blood.value = 2
    h.no_healer.value = True
    h.bleed_entry.my_dice.value = "70"            # CF: 3 BP more
    h.bleed_entry.use_dice()
    assert h.record.dead and "Dead" in h.sheet.value
    assert "dead" in h.bleed_odds.value
    h.bleed_entry.my_dice.value = "50"
    h.bleed_entry.use_dice()
    assert h.bleed_entry.error.message == "The character is dead: there is nothing more to roll"


def test_a_failed_staunch_carries_its_ten_to_the_next_and_extra_dice_are_refused():
    h = shoulder_bleeder()
    h.bleed_entry.my_dice.value = "41, 20"        # Staunch F (+10 next); Strength CS
    h.bleed_entry.use_dice()
    assert h.staunch_bonus.value == 10 and h.record.blood_loss == 0
    h.bleed_entry.my_dice.value = "35, 20, 20"    # CS stops at once: two dice left over
    h.bleed_entry.use_dice()
    assert "too many dice" in h.bleed_entry.error.message


def test_bleeders_treated_together_are_counted_from_the_record():
    """Blood Stoppage Roll (Healing 1): a healer treating more than one bleeding injury in the
    same five minutes tests each at -10 for every treated bleeder beyond one. The record's
    two open Bleeders fill Bleeders treated together with 2 (the Staunch at Physician EML 40
    tests at 30: 41 F, then Strength 20 CS); the GM may lower it to 1 (EML 40: 35 a CS that
    stops the shoulder at once), never past the record's two; with the shoulder stopped the
    count follows the record to 1, and a record opened with two bleeders reads 2 again."""
    h = shoulder_bleeder()
    assert (h.bleeders.value, h.bleeders.max) == (1, 1)
    h.location.value, h.level.value = "Thigh", 3
    h.add_button.click()                                 # A Bleeder still ticked
    assert h.record.open_bleeders == (0, 1)
    assert (h.bleeders.value, h.bleeders.max) == (2, 2)
    h.bleed_entry.my_dice.value = "41, 20"
    h.bleed_entry.use_dice()
    assert "Physician EML 40 → 30 (bleeders 2); roll 41: F" in h.explanation.value
    assert h.bleeders.value == 2                         # both still bleed
    h.bleeders.value = 1
    h.bleeders.value = 3                                 # more than the record holds
    assert h.bleeders.value == 2
    h.bleeders.value = 1
    h.bleed_entry.my_dice.value = "35"
    h.bleed_entry.use_dice()
    assert "Physician EML 50 → 50 (bleeders 1); roll 35: CS" in h.explanation.value
    assert h.record.open_bleeders == (1,) and (h.bleeders.value, h.bleeders.max) == (1, 1)
    two = pc.InjuryRecord("Bo").add_injury("Shoulder", "Edge", 4, bleeder=True) \
        .add_injury("Thigh", "Edge", 3, bleeder=True).add_injury("Skull", "Blunt", 2)
    h.open_record(two)
    assert h.bleeders.value == 2


def test_the_seeds_extended_shock_example_three_course_rolls():
    """HB13 × HR5 - 15 fatigue + 5 (an ally's SV5: one star) = EML55; 93 F: HR4 (EML42);
    41 S: HR5; 13 S: HR6, recovered after twelve hours."""
    h = shoulder_bleeder()
    h.fatigue.value, h.stars.value = 15, 1
    assert "HR 6: recovers</td><td>44.00%" in h.es_odds.value
    for roll, hr in (("93", 4), ("41", 5)):
        h.es_entry.my_dice.value = roll
        h.es_entry.use_dice()
        assert h.es_hr.value == hr
    assert "= EML 42; roll 41: S" in h.explanation.value
    h.es_entry.my_dice.value = "13"
    h.es_entry.use_dice()
    assert "HR 6, the patient recovers" in h.es_result.value and h.state.value == ""


def test_a_coma_starts_from_its_injury_and_ends_with_weariness():
    """Coma HR = 12 - location shock - injury level: shoulder (location shock 3 by the
    BODY LOCATION table) G4 gives HR 5 when that is the table's value."""
    h = shoulder_bleeder()
    want = pc.coma_healing_rate(pc.location_shock("Shoulder"), 4)
    h.coma_cause.value = 0
    assert h.coma_hr.value == want
    h.coma_hr.value = 5
    h.coma_entry.my_dice.value = "30"          # HB13 × HR5 = 65: CS, HR 7: the coma ends
    h.coma_entry.use_dice()
    assert "After 10 days the coma ends: 10 weariness fatigue" in h.coma_result.value


def test_an_untreated_grievous_wound_is_grim_and_rolls_its_daily_shock():
    h = shoulder_bleeder()
    assert "No grim wound" in h.grim_odds.value
    h.untreated_button.click()
    assert h.grim.value == 0
    odds = pc.shock_state_distribution(pc.location_shock("Shoulder"), 4, 65)
    assert sum(odds.values()) == 1
    h.grim_entry.my_dice.value = "72"
    h.grim_entry.use_dice()
    shaken = pc.grim_wound_shock(72, 65, "Shoulder", "G4")
    assert f"SHK {shaken.shk}" in h.grim_result.value


def test_the_aggravation_option_is_a_switch_and_costs_a_failed_injury_one_hr():
    from widgets.lean import is_shown
    h = treated()                                  # S2E abdomen, HR4
    assert not is_shown(h.aggr_row)
    h.aggravation.value = True
    assert is_shown(h.aggr_row)
    assert "Failure (F): aggravated</td><td>28.00%" in h.aggr_odds.value   # Shock ML 65
    assert h.aggr_which.value == 0                 # the one Serious injury, chosen already
    h.aggr_entry.my_dice.value = "80"
    h.aggr_entry.use_dice()
    assert h.record.injuries[0].hr == 3 and "HR4 → HR3" in h.aggr_result.value


def test_the_arcane_bonus_reaches_the_recovery_rolls_and_their_odds():
    h = treated()
    h.arcane.value = 10
    assert "+ arcane 10), EML 62" in h.next_odds.value
    h.heal_entry.my_dice.value = "62"
    h.heal_entry.use_dice()
    assert h.record.injuries[0].level == 1


def test_an_infected_limb_can_be_amputated_to_defeat_the_infection():
    h = HealingWalker("Ana", 13, 60)
    h.location.value, h.aspect.value, h.level.value = "Forearm", "Edge", 2
    h.add_button.click()
    h.treat_entry.my_dice.value = "99"            # F: HR4 with the chance of infection
    h.treat_entry.use_dice()
    assert not is_shown(h.amp_row)
    h.heal_entry.my_dice.value = "95"             # CF: infected
    h.heal_entry.use_dice()
    assert h.record.infection is not None and is_shown(h.amp_row)
    h.physician.value, h.amp_entry.my_dice.value = 50, "45"     # CS: a new S2E
    h.amp_entry.use_dice()
    assert h.record.infection is None and h.record.injuries[0].code == "S2E"
    assert not is_shown(h.amp_row)


def test_the_random_healing_period_is_a_switch_of_the_record():
    h = HealingWalker("Ana", 13, 60)
    h.random_period.value = True
    assert h.record.random_period
    h.add_button.click()
    h.treat_entry.my_dice.value = "99"
    h.treat_entry.use_dice()
    assert "Day 4–6 (the healing period&#x27;s d3 first)" in h.next_odds.value
    h.heal_entry.my_dice.value = "2, 62"
    h.heal_entry.use_dice()
    assert h.record.day == 5 and "d3 2 + 3 = 5 days" in h.explanation.value


def test_the_first_hours_are_kept_on_the_record_and_come_back_from_its_file():
    """The Shock state, the Extended Shock HR and the Staunch bonus the rows show go into the
    record (and so its file); a walker that loads the file resumes with them."""
    h = shoulder_bleeder()
    h.bleed_entry.my_dice.value = "41, 20"        # Staunch F (+10 next); Strength CS
    h.bleed_entry.use_dice()
    h.es_hr.value = 4
    assert (h.record.shock, h.record.extended_hr, h.record.staunch_bonus) == ("INC", 4, 10)
    assert "Shock state <b>Incapacitated (INC)</b>, Extended Shock HR 4" in h.sheet.value
    again = HealingWalker()
    again.load_json(h.record.to_json())
    assert (again.state.value, again.es_hr.value, again.staunch_bonus.value) == ("INC", 4, 10)
    again.state.value = "UNC"
    again.coma_hr.value = 5
    again.coma_entry.my_dice.value = "90"         # HB13 × HR5 = 65: CF, HR 4, ten days on
    again.coma_entry.use_dice()
    assert (again.record.coma_hr, again.record.coma_days) == (pc.coma_course(
        90, 13, 5).healing_rate, 10)
    back = HealingWalker()
    back.load_json(again.record.to_json())
    assert back.coma_hr.value == again.record.coma_hr and back.record.coma_days == 10


def _kept_fight() -> str:
    """A fight page's kept text: Bo took an S2E abdomen wound and is INC in extended shock."""
    rows = Roster(pc.ROSTER).add("Ana").add("Bo", healing_base=12)
    fight = pc.fight_for(rows)
    bo = fight.combatant("Bo")
    hurt = bo.record.add_injury("Abdomen", "Edge", 2)
    fight = fight.with_combatant(dataclasses.replace(bo, record=hurt, shock="INC",
                                                     extended_hr=5))
    return json.dumps({"format": "rulebook/fight-page", "version": 1,
                       "fight": fight.to_json(), "rolls": []})


def test_a_fighter_wounded_in_the_fight_opens_in_the_walker_by_name():
    h = HealingWalker()
    assert not is_shown(h.from_fight.row)            # no fight kept: nothing offered
    h.from_fight.found(_kept_fight())
    assert is_shown(h.from_fight.row)
    assert h.from_fight.menu.value == "Bo"           # the wounded first
    h.from_fight.open_button.click()
    assert h.record.name == "Bo" and h.record.healing_base == 12
    assert "<td>Abdomen</td><td>S2E</td>" in h.sheet.value
    assert (h.state.value, h.es_hr.value) == ("INC", 5)
    assert "Opened Bo's record from the fight" in h.from_fight.note.value
    h.from_fight.found('{"format": "rulebook/fight-page", "version": 1, "fight": "{}"}')
    assert "cannot be read" in h.from_fight.error.message


def test_an_injury_added_by_mistake_comes_off_the_sheet():
    h = HealingWalker()
    assert h.remove_button.disabled and h.gone.options == ()
    h.add_button.click()                                  # S2E abdomen
    h.location.value = "Thigh"
    h.add_button.click()
    assert h.gone.value == 1                              # the newest is offered first
    h.gone.value = 0
    h.remove_button.click()
    assert [(i.code, i.location) for i in h.record.injuries] == [("S2E", "Thigh")]
    assert h.record.log[-1] == "Day 0: removed S2E abdomen"
    assert "Abdomen" not in h.sheet.value and [v for _, v in h.which.options] == [0]
    assert all(len(s.levels) == 1 for s in h.record.timeline)


def test_removing_a_bleeder_says_what_stays_and_why():
    """Blood loss typed in by hand is not tied to the injury removed (Healing 1): it stays,
    and the INC its two boxes give keeps the Shock state (Injury 4); the sheet's last line
    says so."""
    h = HealingWalker()
    h.bleeder.value = True
    h.add_button.click()                                  # S2E abdomen, a bleeder
    h.blood.value = 2
    h.state.value = "INC"
    h.gone.value = 0
    h.remove_button.click()
    assert (h.record.blood_loss, h.record.shock) == (2, "INC")
    said = ("Day 0: removed S2E abdomen; 2 BP stay: other bleeders' or entered by hand; the "
            "Shock state INC stays: the 2 BP lost (INC) is behind it too")
    assert h.record.log[-1] == said
    assert html.escape(said) in h.log_view.value


def test_the_bleeding_example_s_blood_goes_to_the_bleeder_picked_and_back_when_removed():
    """Healing 1 example on the sheet: a thigh Bleeder, then the G4E shoulder Bleeder picked
    as the one that bleeds. 62 (F) then 33, 33 (Staunch S, last roll S): 3 BP, all the
    shoulder's; removing the shoulder takes them back, as the log says."""
    h = HealingWalker("Ana", 13, 60)
    h.location.value, h.aspect.value, h.level.value = "Thigh", "Edge", 2
    h.bleeder.value = True
    h.add_button.click()
    h.location.value, h.level.value = "Shoulder", 4
    h.add_button.click()
    assert list(h.bleeding.options) == [("1. S2E thigh (bleeding)", 0),
                                        ("2. G4E shoulder (bleeding)", 1)]
    assert h.bleeding.value == 0
    h.bleeding.value = 1
    h.state.value = "INC"
    h.no_healer.value = True
    h.bleed_entry.my_dice.value = "62"
    h.bleed_entry.use_dice()
    assert h.bleeding.value == 1                       # the pick stays while it bleeds
    h.no_healer.value = False
    assert h.bleeders.value == 2                       # both bleed: counted from the record
    h.bleeders.value = 1                               # the ally staunches the shoulder alone
    h.bleed_entry.my_dice.value = "33, 33"
    h.bleed_entry.use_dice()
    assert "Bleeding stopped: 3 BP, UNC" in h.bleed_result.value
    assert [(i.blood_lost, i.bleeder) for i in h.record.injuries] == [(0, True), (3, False)]
    assert h.record.log[-1] == "Day 0: G4E shoulder bleeding: stopped, 3 BP"
    assert list(h.bleeding.options) == [("1. S2E thigh (bleeding)", 0)]
    h.gone.value = 1
    h.remove_button.click()
    assert h.record.blood_loss == 0 and h.blood.value == 0
    assert h.record.log[-1].startswith("Day 0: removed G4E shoulder; the 3 BP its bleeding "
                                       "cost are taken back: blood loss 3 → 0 BP")
    assert html.escape("the 3 BP its bleeding cost are taken back") in h.log_view.value


def test_with_no_bleeder_on_the_record_there_is_no_bleeding_to_roll():
    h = HealingWalker("Ana", 13, 60)
    h.add_button.click()                               # S2E abdomen, not a Bleeder
    assert list(h.bleeding.options) == [] and h.bleeding.value is None
    assert h.bleed_odds.value == ("<p><i>No injury on the record is bleeding: add one with "
                                  "A Bleeder ticked.</i></p>")
    h.bleed_entry.my_dice.value = "41, 20"
    h.bleed_entry.use_dice()
    assert h.bleed_entry.error.message == ("Bleeding injury: no injury on the record is "
                                           "bleeding: add one with A Bleeder ticked")
    assert h.record.blood_loss == 0


def test_an_injury_added_by_hand_to_an_arm_or_leg_keeps_its_side():
    """Injury 1: arms' and legs' locations have a side, which decides the arm whose actions a
    Grievous injury stops; the Side field shows only for them, and "not known" is no side."""
    h = HealingWalker()
    assert not is_shown(h.side)                        # Abdomen has no side
    h.location.value = "Hand"
    assert is_shown(h.side) and h.side.value == "not known"
    h.side.value = "left"
    h.level.value = 4
    h.add_button.click()
    added = h.record.injuries[-1]
    assert (added.location, added.side, added.where) == ("Hand", "left", "left hand")
    h.location.value = "Thorax"
    assert not is_shown(h.side) and h.side.value == "not known"
    h.add_button.click()
    assert h.record.injuries[-1].side is None
    h.location.value = "Knee"
    h.add_button.click()                               # not known: no side recorded
    assert h.record.injuries[-1].side is None


def test_has_side_is_the_arms_and_legs_locations():
    assert [loc for loc in pc.location_names() if pc.has_side(loc)] == [
        "Shoulder", "Upper arm", "Elbow", "Forearm", "Hand", "Thigh", "Knee", "Calf", "Foot"]
    with pytest.raises(RulesError, match="location"):
        pc.has_side("Tail")
