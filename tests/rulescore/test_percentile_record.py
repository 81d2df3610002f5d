"""The injury record across fights and its recovery roll by roll (Healing 5-8)."""

import dataclasses
import json
import random

import pytest

from rulescore.dice import DiceSource
from rulescore.errors import RulesError
from rulescore.systems import percentile as pc
from rulescore.systems.percentile.record import InjuryRecord, Snapshot, recover


def abdomen() -> InjuryRecord:
    """The seed's Treatment example: an S2 edge abdomen injury, F treatment → HR4 with an
    infection chance; the character's Healing Base is 13."""
    treated = pc.treatment_roll(99, 60, "Edge", "S2")
    assert (treated.level, treated.healing_rate, treated.infection) == ("F", 4, True)
    return InjuryRecord("Ana", healing_base=13).add_injury("Abdomen", "Edge", 2).treat(0, treated)


def test_the_seeds_healing_and_infection_example_heals_on_day_21():
    record = abdomen()
    assert record.injuries[0].impairment == 10          # Serious: 10 impairment
    rec = recover(record, dice=[62, 24, 95, 42, 42])
    days = [name for name, _ in rec.rolled]
    assert days == ["day 5 Healing Roll (S2E abdomen)", "day 10 Healing Roll (S2E abdomen)",
                    "day 15 Healing Roll (M1E abdomen)", "day 16 Infection Course Roll",
                    "day 21 Healing Roll (M1E abdomen)"]
    texts = [s.text for s in rec.trace]
    assert "Day 5, S2E abdomen: HB 13 × HR 4 = EML 52; roll 62: F" in texts
    assert any("EML 65; roll 42: S" in t for t in texts)      # infection HR5 = HR4 + 1
    assert rec.outcome == "recovered" and rec.value == 21
    assert rec.record.injuries[0].healed_day == 21


def test_typed_dice_stop_where_they_run_out_and_name_the_next_roll():
    rec = recover(abdomen(), dice=[62, 24])
    assert rec.needs == "day 15: Healing Roll for M1E abdomen (d100)"
    assert rec.record.injuries[0].code == "M1E"
    assert rec.record.injuries[0].impairment == 5        # Minor with HR4: 5
    again = recover(rec.record, dice=[95])
    assert again.record.infection == (0, 5)
    assert again.needs == "day 16: Infection Course Roll (d100)"


def test_infection_death_when_the_course_reaches_zero():
    rec = recover(abdomen(), dice=[62, 24, 95, 99, 100])   # HR5 → 4 (F) → 2 (CF)
    assert rec.record.infection == (0, 2)
    dead = recover(rec.record, dice=[100])                  # CF: 2 → 0, the patient dies
    assert dead.record.dead and dead.outcome == "dead"
    assert pc.next_roll(dead.record) is None


def test_several_injuries_roll_in_order_on_the_same_day_and_untreated_do_not_heal():
    record = abdomen().add_injury("Thigh", "Blunt", 1)
    rec = recover(record, dice=[10])     # a CS heals the S2 at once; the thigh waits
    assert "untreated" in rec.trace[0].text
    assert pc.next_roll(rec.record) is None and rec.record.injuries[1].level == 1
    both = record.treat(1, pc.untreated("Blunt", "M1"))
    first = recover(both, dice=[30])       # abdomen S2 → M1 (30 is CS: -2 → healed)
    assert pc.next_roll(first.record) == (5, "Healing Roll", 1)
    second = recover(first.record, dice=[1])
    assert pc.next_roll(second.record) is None and second.record.recovered


def test_blood_regeneration_every_ten_days_and_a_cf_skips_the_next_period():
    record = InjuryRecord(endurance_eml=60, blood_loss=3)
    rec = recover(record, dice=[30, 100, 7])
    assert [n for n, _ in rec.rolled] == ["day 10 Blood Loss Healing Roll",
                                          "day 20 Blood Loss Healing Roll",
                                          "day 30 Blood Loss Healing Roll"]
    assert rec.record.blood_loss == 1                      # CS -2, CF 0, then the skip
    assert "no blood regeneration this period" in rec.record.log[-1]


def test_permanent_impairment_from_days_to_minor_with_a_black_box_treatment():
    treated = pc.treatment_roll(99, 60, "Edge", "S2")      # impairment chance
    record = InjuryRecord(healing_base=13).add_injury("Shoulder", "Edge", 2).treat(0, treated)
    rec = recover(record, dice=[62, 62, 62, 62, 24])        # Minor on day 25
    inj = rec.record.injuries[0]
    assert (inj.minor_day, inj.permanent, inj.impairment) == (25, 5, 5)


def test_seeded_recovery_replays_and_days_never_go_back():
    record = InjuryRecord(blood_loss=2).add_injury("Skull", "Blunt", 4).treat(
        0, pc.untreated("Blunt", "G4"))
    a = recover(record, rng=random.Random(5))
    b = recover(record, rng=random.Random(5))
    assert a.rolled == b.rolled and a.record == b.record
    for seed in range(100):
        r = recover(record, rng=random.Random(seed)).record
        days = [s.day for s in r.timeline]
        assert days == sorted(days)
        assert r.dead or r.recovered


def test_until_day_stops_the_simulation():
    rec = recover(abdomen(), rng=random.Random(1), until_day=12)
    assert rec.value == 12 and all(int(n.split()[1]) <= 12 for n, _ in rec.rolled)


def test_json_round_trip_and_refusals():
    rec = recover(abdomen(), dice=[62, 24, 95]).record
    assert InjuryRecord.from_json(rec.to_json()) == rec
    with pytest.raises(RulesError, match="not JSON"):
        InjuryRecord.from_json("{oops")
    with pytest.raises(RulesError, match="not an injury record"):
        InjuryRecord.from_json(json.dumps({"format": "rulebook/tsl-board", "version": 1}))
    with pytest.raises(RulesError, match="version 2"):
        InjuryRecord.from_json(json.dumps({"format": "rulebook/pc-injury-record", "version": 2}))
    data = json.loads(rec.to_json())
    data["record"]["injuries"][0]["location"] = "Tail"
    with pytest.raises(RulesError, match=r"injuries\[1\]\.location must be one of 'Skull'"):
        InjuryRecord.from_json(json.dumps(data))
    data["record"] = "nothing"
    with pytest.raises(RulesError, match="record must be an object, got 'nothing'"):
        InjuryRecord.from_json(json.dumps(data))


@pytest.mark.parametrize("call, message", [
    (lambda r: r.add_injury("Tail", "Edge", 2), "location"),
    (lambda r: r.add_injury("Abdomen", "Slash", 2), "aspect must be one of"),
    (lambda r: r.add_injury("Abdomen", "Edge", 6), "level"),
    (lambda r: r.treat(3, pc.untreated("Edge", "S2")), "index"),
    (lambda r: r.treat(0, pc.untreated("Edge", "S2")), "already treated"),
    (lambda r: recover(r, dice=[101]), "must be from 1 to 100"),
    (lambda r: recover(r, dice=[5] * 40), "more typed than this recovery uses"),
])
def test_bad_input_names_the_input(call, message):
    with pytest.raises(RulesError, match=message):
        call(abdomen())


def test_rolls_fall_due_from_the_day_of_treatment_or_blood_loss_never_earlier():
    healed = recover(abdomen(), dice=[62, 24, 95, 42, 42]).record          # day 21
    later = healed.with_blood_loss(2).add_injury("Thigh", "Blunt", 2)
    assert pc.next_roll(later) == (31, "Blood Loss Healing Roll", None)
    treated = later.treat(1, pc.untreated("Blunt", "S2"))
    assert pc.next_roll(treated) == (26, "Healing Roll", 1)


# -- a record built or edited by hand is held to the file's declaration ---------------------------

@pytest.mark.parametrize("change, message", [
    ({"day": "x"}, r"record\.day must be a whole number from 0 to 1000, got 'x'"),
    ({"dead": "yes"}, r"record\.dead must be true or false, got 'yes'"),
    ({"injuries": [3]}, r"record\.injuries\[1\] must be an object, got 3"),
    ({"injuries": {"a": 1}}, r"record\.injuries must be a list, got an object"),
    ({"healing_done": ("a",)}, r"record\.healing_done\[1\] must be a whole number"),
    ({"infection": (0, 99)}, r"record\.infection\[2\] must be a whole number from 1 to 5"),
    ({"infection": (4, 3)}, r"record\.infection\[1\] must be the number of an injury"),
    ({"name": ""}, r"record\.name must be a non-empty text"),
    ({"log": ("x",) * 501}, r"record\.log must hold at most 500 entries, got 501"),
    ({"timeline": 1.5}, r"record\.timeline must be a list, got 1\.5"),
    ({"next_healing": 10**5000}, r"record\.next_healing must be a whole number from 0 to 1005, "
                                 r"got a number of more than 4300 digits"),
])
@pytest.mark.parametrize("call", [pc.next_roll, pc.next_roll_odds, recover])
def test_a_hand_built_record_with_a_bad_field_is_refused_by_name(change, message, call):
    record = dataclasses.replace(abdomen(), **change)
    with pytest.raises(RulesError, match=message):
        call(record)


def test_a_bad_injury_field_and_a_broken_timeline_are_named():
    record = abdomen()
    bad = dataclasses.replace(record.injuries[0], treatment="<img src=x>")
    with pytest.raises(RulesError, match=r"record\.injuries\[1\]\.treatment must be one of"):
        pc.next_roll(dataclasses.replace(record, injuries=(bad,)))
    later = dataclasses.replace(record, timeline=record.timeline + (Snapshot(99, (2,), 0, False),))
    with pytest.raises(RulesError, match=r"record\.timeline must run day by day"):
        recover(later, dice=[62])
    with pytest.raises(RulesError, match="record must be an InjuryRecord, got dict"):
        pc.next_roll({})
    with pytest.raises(RulesError, match=r"record\.infection\[1\] must be the number of an "
                                         r"injury on the record \(it has none\), got 0"):
        pc.next_roll(InjuryRecord(infection=(0, 3)))


def test_a_hand_built_record_holding_lists_reads_as_the_same_record():
    record = abdomen()
    listed = dataclasses.replace(record, injuries=list(record.injuries), log=list(record.log))
    assert pc.next_roll(listed) == pc.next_roll(record)
    assert pc.next_roll_odds(listed) == pc.next_roll_odds(record)
    assert recover(listed, dice=[62, 24]).record == recover(record, dice=[62, 24]).record


@pytest.mark.parametrize("kwargs, message", [
    ({"rng": "bow"}, "rng must be a random.Random (seeded) or None, got 'bow'"),
    ({"rng": 7}, "rng must be a random.Random (seeded) or None, got 7"),
    ({"dice": "62"}, "dice must be a list of numbers, got '62'"),
    ({"dice": 10**5000}, "dice must be a list of numbers, got a number of more than 4300"),
    ({"dice": [62, "x"]}, "dice must be a whole number, got 'x'"),
    ({"dice": [True]}, "dice must be a whole number, got True"),
    ({"dice": [5] * 41}, "dice may hold at most 40 values, got 41"),
    ({"until_day": True}, "until_day must be a whole number, got True"),
    ({"until_day": 1001}, "until_day must be from 0 to 1000, got 1001"),
])
def test_recover_checks_every_input_at_the_door(kwargs, message):
    with pytest.raises(RulesError) as refused:
        recover(abdomen(), **kwargs)
    assert message in str(refused.value)


def test_a_typed_die_out_of_range_names_dice_and_the_roll():
    with pytest.raises(RulesError, match=r"dice: day 5 Healing Roll \(S2E abdomen\) must be "
                                         r"from 1 to 100, got 101"):
        recover(abdomen(), dice=[101])


def test_an_infections_weakness_is_taken_off_its_course_roll_and_shown_in_the_odds():
    """Healing 7 INFECTION WEAKNESS: Infection HR 2 brings 10 weakness fatigue; HB13 × HR2 -
    10 = EML 16 (assumption infection_weakness). Rolled 16 (S): HR 3, whose weakness is 5."""
    infected = InjuryRecord("Ana", 13, injuries=(pc.RecordedInjury(
        "Abdomen", "Edge", 2, treatment="F", hr=1, infection_chance=True),), infection=(0, 2))
    assert infected.infection_fatigue == 10
    what, eml, _ = pc.next_roll_odds(infected)
    assert eml == 16 and "less infection weakness 10" in what
    run = recover(infected, dice=[16])
    assert "fatigue 10" in run.trace[0].text and run.record.infection == (0, 3)
    assert run.record.infection_fatigue == 5


def test_aggravation_lowers_the_hr_or_waits_for_the_treatment():
    """Healing 8 Serious Injury Aggravation Option: a failed Shock test lowers the HR by 1
    (at least HR1); for an untreated injury the loss is carried to its treatment's HR."""
    record = abdomen()                                           # S2E, treated: HR4
    failed = pc.aggravation_check(80, 65, 4)                     # 80 > 65: F
    assert pc.aggravation_check(None, 65, 4, dice=pc_dice([80])).outcome == failed.outcome
    worse = record.aggravate(0, failed)
    assert worse.injuries[0].hr == 3 and "HR4 → HR3" in worse.log[-1]
    held = record.aggravate(0, pc.aggravation_check(20, 65, 4))
    assert held.injuries[0].hr == 4 and "holds" in held.log[-1]
    fresh = InjuryRecord("Ana", 13).add_injury("Thigh", "Edge", 3).aggravate(0, failed)
    assert fresh.injuries[0].aggravated == 1
    treated = fresh.treat(0, pc.treatment_roll(99, 60, "Edge", "S3"))
    assert treated.injuries[0].hr == pc.treatment_roll(99, 60, "Edge", "S3").healing_rate - 1
    assert InjuryRecord.from_json(fresh.to_json()).injuries[0].aggravated == 1
    with pytest.raises(RulesError, match="not Serious or Grievous"):
        InjuryRecord().add_injury("Thigh", "Edge", 1).aggravate(0, failed)


def pc_dice(values):
    from rulescore.dice import DiceSource
    return DiceSource.typed(values)


def test_the_highest_arcane_bonus_goes_on_every_healing_roll_of_the_run():
    """Healing 6 Arcane Recovery: HB13 × HR4 = EML 52, + the highest of 5 and 10 = 62; the
    seed's first Healing Roll, 62, is then an S (it failed against 52)."""
    what, eml, _ = pc.next_roll_odds(abdomen(), arcane=[5, 10])
    assert eml == 62 and "+ arcane 10" in what
    plain = recover(abdomen(), dice=[62])
    helped = recover(abdomen(), dice=[62], arcane=[5, 10])
    assert plain.record.injuries[0].level == 2 and helped.record.injuries[0].level == 1
    assert "+ arcane 10 = EML 62" in helped.trace[0].text.replace("EML  ", "EML ")


def test_amputating_the_infected_limb_defeats_the_infection():
    """Healing 7 Amputation, as for frost: Physician 50, roll 45 is CS, a new S2E injury in
    the place of the infected forearm's; the infection ends and healing resumes."""
    infected = InjuryRecord("Ana", 13, injuries=(
        pc.RecordedInjury("Forearm", "Edge", 3, treatment="F", hr=3, infection_chance=True),
        pc.RecordedInjury("Thigh", "Blunt", 1, treatment="S", hr=5)), infection=(0, 4), day=12)
    cut = infected.amputate_infected(pc.infection_amputation(45, 50, "Forearm"))
    assert cut.infection is None and cut.infection_fatigue == 0
    assert (cut.injuries[0].code, cut.injuries[0].hr, cut.injuries[0].day) == ("S2E", None, 12)
    assert pc.next_roll(cut) == (17, "Healing Roll", 1)
    assert "the infected forearm is amputated (CS)" in cut.log[-1]
    with pytest.raises(RulesError, match="the record has no infection"):
        cut.amputate_infected(pc.infection_amputation(45, 50, "Forearm"))


def test_the_random_option_rolls_each_healing_period_as_d3_plus_3():
    """Healing 6 Random Option: the seed's Healing Rolls (62 F, then 24 S) with periods of
    d3 2 + 3 = 5 days (day 5) and d3 3 + 3 = 6 days (day 11); the d3 comes before its rolls."""
    record = InjuryRecord("Ana", 13).with_random_period(True).add_injury("Abdomen", "Edge", 2)
    record = record.treat(0, pc.treatment_roll(99, 60, "Edge", "S2"))
    assert pc.next_roll_odds(record)[0].startswith("Day 4–6 (the healing period's d3 first)")
    first = recover(record, dice=[2, 62])
    assert [n for n, _ in first.rolled] == ["day 0 healing period (d3)",
                                            "day 5 Healing Roll (S2E abdomen)"]
    assert first.needs == "day 5: the healing period's d3"
    second = recover(first.record, dice=[3, 24])
    assert second.record.day == 11 and second.record.injuries[0].code == "M1E"
    assert InjuryRecord.from_json(second.record.to_json()).period_open
    with pytest.raises(RulesError, match="healing period \\(d3\\) must be from 1 to 3"):
        recover(record, dice=[4])


def test_the_record_keeps_the_first_hours_state_and_reads_older_files():
    """Healing 1-3: the Shock state, the Extended Shock HR a failed reroll set, a coma's HR and
    days and a failed Staunch's bonus go into the file and come back; a file written before
    the record kept them still reads (nothing in shock); each field is checked on load."""
    shaken = abdomen().with_shock("UNC", extended_hr=5, coma_hr=3, coma_days=10,
                                  staunch_bonus=10)
    back = InjuryRecord.from_json(shaken.to_json())
    assert back == shaken
    assert (back.shock, back.extended_hr, back.coma_hr, back.coma_days, back.staunch_bonus) \
        == ("UNC", 5, 3, 10, 10)
    older = json.loads(abdomen().to_json())
    for key in ("shock", "extended_hr", "coma_hr", "coma_days", "staunch_bonus"):
        del older["record"][key]
    assert InjuryRecord.from_json(json.dumps(older)) == abdomen()
    for key, value, says in (("shock", "KIA", "shock must be one of 'STN', 'INC', 'UNC'"),
                             ("extended_hr", 7, "extended_hr must be"),
                             ("coma_hr", 0, "coma_hr must be"),
                             ("staunch_bonus", 11, "staunch_bonus must be")):
        bad = json.loads(shaken.to_json())
        bad["record"][key] = value
        with pytest.raises(RulesError, match=says):
            InjuryRecord.from_json(json.dumps(bad))
    awake = json.loads(shaken.to_json())
    awake["record"]["shock"] = "INC"
    with pytest.raises(RulesError, match="coma_hr is kept only with shock UNC"):
        InjuryRecord.from_json(json.dumps(awake))
    with pytest.raises(RulesError, match="extended_hr is kept only for an Incapacitated"):
        abdomen().with_shock("STN", extended_hr=4)
    with pytest.raises(RulesError, match="state must be None or one of STN, INC, UNC"):
        abdomen().with_shock("KIA")


def test_the_bleeding_example_s_blood_is_the_shoulder_s_and_goes_with_it():
    """Healing 1 Bleeding example: a G4E right shoulder Bleeder, the character INC. Strength
    ML60 rolls 62 (F): 2 BP; then the ally's Staunch at Physician ML40 rolls 33 (S) and the
    last Blood Loss roll 33 (S): 3 BP in all, the bleeding stopped. The 3 BP are the
    shoulder's: removing it takes them back."""
    record = InjuryRecord("Ana").add_injury("Shoulder", "Edge", 4, bleeder=True) \
        .add_injury("Thigh", "Edge", 2)
    first = pc.bleeding_period(60, 0, "INC", dice=DiceSource.typed([62]))
    assert (first.outcome, first.bp) == ("bleeding", 2)
    record = record.bleed(0, first)
    assert (record.blood_loss, record.injuries[0].blood_lost, record.injuries[0].bleeder) == \
        (2, 2, True)
    assert record.next_regeneration == 10               # ten days after the first BP
    assert record.log[-1] == "Day 0: G4E shoulder bleeding: bleeding, 2 BP"
    second = pc.bleeding_period(60, 2, "UNC", physician_eml=40, dice=DiceSource.typed([33, 33]))
    assert (second.outcome, second.bp, second.stopped) == ("stopped", 3, True)
    record = record.bleed(0, second)
    assert (record.blood_loss, record.injuries[0].blood_lost, record.injuries[0].bleeder) == \
        (3, 3, False)
    gone = record.remove_injury(0)
    assert gone.blood_loss == 0
    assert gone.log[-1] == ("Day 0: removed G4E shoulder; the 3 BP its bleeding cost are "
                            "taken back: blood loss 3 → 0 BP")


def test_a_bleeding_period_goes_only_to_an_open_bleeder_from_the_record_s_blood_loss():
    record = InjuryRecord("Ana").add_injury("Shoulder", "Edge", 4, bleeder=True) \
        .add_injury("Thigh", "Edge", 2)
    first = pc.bleeding_period(60, 0, "INC", dice=DiceSource.typed([62]))
    with pytest.raises(RulesError, match=r"injury 2 \(S2E thigh\) is not bleeding: pick a "
                                         "Bleeder"):
        record.bleed(1, first)
    with pytest.raises(RulesError, match="period must start from the record's 3 BP, got "
                                         "one ending at 2 BP"):
        record.with_blood_loss(3).bleed(0, first)
    with pytest.raises(RulesError, match="period must be five minutes of bleeding"):
        record.bleed(0, first.advance)
    with pytest.raises(RulesError, match="index must be a whole number, got True"):
        record.bleed(True, first)
    # a CF from 2 BP adds three: the fourth kills, and the three are the shoulder's
    fatal = pc.bleeding_period(60, 2, None, dice=DiceSource.typed([70]))
    dead = record.with_blood_loss(2).bleed(0, fatal)
    assert (dead.dead, dead.blood_loss, dead.injuries[0].blood_lost) == (True, 5, 3)
    assert dead.log[-1] == "Day 0: died (a fourth Blood Loss Point)"
    with pytest.raises(RulesError, match="Ana is dead: there is nothing more to roll"):
        dead.bleed(0, first)


def test_open_bleeders_are_the_unhealed_bleeders_not_yet_stopped():
    """Healing 1: each Bleeder bleeds until a Blood Stoppage Roll stops it; their number is
    how many a healer staunching them all treats together (-10 a test for each beyond one).
    A G4E shoulder and an S3E thigh bleed, an S2B skull does not; the Staunch's CS on the
    shoulder stops it, leaving the thigh alone."""
    record = InjuryRecord("Bo").add_injury("Shoulder", "Edge", 4, bleeder=True) \
        .add_injury("Skull", "Blunt", 2).add_injury("Thigh", "Edge", 3, bleeder=True)
    assert record.open_bleeders == (0, 2)
    stopped = pc.bleeding_period(60, 0, physician_eml=40, bleeders=2,
                                 dice=DiceSource.typed([30]))
    assert stopped.outcome == "stopped"
    assert record.bleed(0, stopped).open_bleeders == (2,)
    assert InjuryRecord("Bo").open_bleeders == ()
