"""The injury record across fights and its recovery roll by roll (Healing 5-8)."""

import json
import random

import pytest

from rulescore.errors import RulesError
from rulescore.systems import percentile as pc
from rulescore.systems.percentile.record import InjuryRecord, recover


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
    (lambda r: recover(r, dice=[0]), "must be from 1 to 100"),
    (lambda r: recover(r, dice=[5] * 40), "more typed than the recovery uses"),
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
