"""Saved files: the one reader and checker (rulescore.saved) and the three formats declared
with it. Each finding of issue 18's "saved files trusted too far" has its test here."""

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from rulescore import saved
from rulescore.errors import RulesError
from rulescore.systems import percentile as pc
from rulescore.systems import tsl
from rulescore.systems.percentile import record as rec
from rulescore.systems.tsl.turns import encounter_from_json
from rulescore.systems.veil_and_lead.encounter import Encounter, EncounterHistory


def injury_record() -> pc.InjuryRecord:
    """Two injuries, one treated and infected, a blood loss, a timeline and a log."""
    r = pc.InjuryRecord("Ana").add_injury("Abdomen", "Edge", 2).add_injury("Thigh", "Blunt", 1)
    r = r.treat(0, pc.treatment_roll(99, 60, "Edge", "S2")).with_blood_loss(2)
    return rec.recover(r, dice=[62, 24, 95]).record


def count_history() -> EncounterHistory:
    enc = Encounter().join("Ada", pc=True, quick=3, margin=4).join("Bo", pc=False, quick=2,
                                                                    margin=None)
    enc, _ = enc.next_turn()
    return EncounterHistory().push(enc, "Ada and Bo join")


def board() -> tsl.Encounter:
    return tsl.take(tsl.new_encounter(["Vela", "Mar"]), "Vela", "Action").encounter


def record_with(change) -> str:
    data = json.loads(injury_record().to_json())
    change(data["record"])
    return json.dumps(data)


# -- the healing record findings: each refused, naming the field --------------------------------

def _set(path, value):
    def change(body):
        *parents, last = path
        for key in parents:
            body = body[key]
        body[last] = value
    return change


@pytest.mark.parametrize("path, value, message", [
    (("day",), "x", "injury record: day must be a whole number from 0 to 1000, got 'x'"),
    (("dead",), "yes", "injury record: dead must be true or false, got 'yes'"),
    (("healing_done",), ["a"], "healing_done[1] must be a whole number from 0 to 29, got 'a'"),
    (("infection",), [99, 3], "infection[1] must be a whole number from 0 to 29, got 99"),
    (("infection",), [5, 3], "infection[1] must be the number of an injury on the record"),
    (("infection",), [0], "infection must be a list of two: injury number and Infection HR, "
                          "got a list of 1"),
    (("injuries", 0, "level"), True,
     "injuries[1].level must be a whole number from 0 to 5, got true"),
    (("injuries", 0, "hr"), -4, "injuries[1].hr must be a whole number from 1 to 6, got -4"),
    (("injuries", 0, "treatment"), "<img src=x onerror=alert(1)>",
     "injuries[1].treatment must be one of 'CF', 'F', 'S', 'CS', got "
     "'<img src=x onerror=alert(1)>'"),
    (("injuries", 1, "day"), "<b>1</b>", "injuries[2].day must be a whole number"),
    (("timeline",), [{"day": 1}], "timeline[1] is missing the field 'levels'"),
    (("timeline",), "soon", "timeline must be a list, got 'soon'"),
    (("timeline", 0, "levels"), [2, 1, 1], "timeline levels must hold at most one level"),
    (("timeline", 0, "day"), 900, "timeline must run day by day up to the record's day"),
    (("log",), ["<script>alert(1)</script>", 5], "log[2] must be text, got 5"),
    (("blood_loss",), 100000, "blood_loss must be a whole number from 0 to 20, got 100000"),
    (("name",), "x" * 61, "name must be at most 60 characters long, got 61"),
    (("name",), "Ana\ud800", "name must be text, got a broken character at position 4"),
    (("injuries", 0, "colour"), "red", "injuries[1] has a field this book does not know: "
                                       "'colour'"),
])
def test_a_damaged_healing_record_is_refused_naming_the_field(path, value, message):
    with pytest.raises(RulesError) as refused:
        pc.InjuryRecord.from_json(record_with(_set(path, value)))
    assert message in str(refused.value)
    assert str(refused.value).startswith("injury record: ")


def test_a_good_record_round_trips_and_older_files_without_optional_fields_load():
    r = injury_record()
    assert pc.InjuryRecord.from_json(r.to_json()) == r
    data = json.loads(r.to_json())
    for key in ("timeline", "log", "healing_done", "skip_regeneration"):
        data["record"].pop(key)
    old = pc.InjuryRecord.from_json(json.dumps(data))
    assert old.injuries == r.injuries and old.log == ()


# -- every format: no file breaks the reader ------------------------------------------------------

READERS = {"injury record": pc.InjuryRecord.from_json, "encounter": EncounterHistory.from_json,
           "TSL turn board": encounter_from_json}


@pytest.mark.parametrize("noun", READERS)
@pytest.mark.parametrize("text, message", [
    ("[" * 100_000 + "]" * 100_000, "nested more than 16 levels deep"),
    ('{"a":' * 5000 + "1" + "}" * 5000, "nested more than 16 levels deep"),
    ("[" * 17 + "]" * 17, "nested more than 16 levels deep"),
    ('{"round": ' + "9" * 5000 + "}", "holds a number 5000 digits long; numbers in a saved"),
    ("x" * 50_000_000, "the file is 50 MB; a saved"),
    ("", "the file is not JSON"),
    ('"just text"', "it holds 'just text', not an object"),
    ('{"format": "rulebook/other", "version": 1}', "its format is 'rulebook/other'"),
])
def test_hostile_text_is_refused_with_a_message_in_every_format(noun, text, message):
    with pytest.raises(RulesError) as refused:
        READERS[noun](text)
    assert str(refused.value).startswith(f"{noun}: ") and message in str(refused.value)


def test_count_and_board_numbers_are_bounded():
    data = json.loads(count_history().to_json())
    fighter = data["states"][1]["encounter"]["fighters"][0]
    for field, value, allowed in (("margin", 10**12, "from -100 to 100"),
                                  ("quick", 6, "from 1 to 5"), ("aim", 4, "from 0 to 3")):
        bad = json.loads(json.dumps(data))
        bad["states"][1]["encounter"]["fighters"][0][field] = value
        with pytest.raises(RulesError, match=rf"states\[2\]\.encounter\.fighters\[1\]\.{field} "
                                             rf"must be a whole number {allowed}"):
            EncounterHistory.from_json(json.dumps(bad))
    data["states"][1]["encounter"]["elapsed"] = 10**14
    with pytest.raises(RulesError, match="elapsed must be a whole number from 0 to 1000000"):
        EncounterHistory.from_json(json.dumps(data))
    assert fighter["name"] == "Ada"
    fighter["margin"] = 10**30
    with pytest.raises(RulesError, match="a number 31 digits long; numbers in a saved "
                                         "encounter have at most 15 digits"):
        EncounterHistory.from_json(json.dumps(data))
    saved_board = tsl.encounter_to_dict(board())
    saved_board["round"] = 10**15
    with pytest.raises(RulesError, match="round must be a whole number from 1 to 100000"):
        tsl.encounter_from_dict(saved_board)


def test_cross_field_rules_of_the_count_and_the_board():
    data = json.loads(count_history().to_json())
    fighters = data["states"][1]["encounter"]["fighters"]
    fighters[1]["name"] = "Ada"
    with pytest.raises(RulesError, match="fighters must have distinct names"):
        EncounterHistory.from_json(json.dumps(data))
    fighters[1]["name"], fighters[1]["holding"] = "Bo", "the door"
    with pytest.raises(RulesError, match=r"fighters\[2\]: a fighter has a tick or is holding"):
        EncounterHistory.from_json(json.dumps(data))
    data = tsl.encounter_to_dict(board())
    data["used"]["Nobody"] = []
    with pytest.raises(RulesError, match="used must name only combatants of the order, got "
                                         "'Nobody'"):
        tsl.encounter_from_dict(data)


def test_what_the_tools_can_build_they_can_load_again():
    """The engine keeps the bounds the files declare: a long fight, a long recovery."""
    h = EncounterHistory()
    enc = Encounter()
    for i in range(20):
        enc = enc.join(f"{'N' * 55}{i:02d}", pc=False, quick=3, margin=i)
    with pytest.raises(RulesError, match="holds 20 fighters"):
        enc.join("One more", pc=False, quick=3, margin=1)
    horde = Encounter().join("H" * 60, pc=False, quick=3, margin=2, horde=3)
    broken, _ = horde.hit_horde("H" * 60, 2)
    assert Encounter.from_dict(broken.to_dict()) == broken
    with pytest.raises(RulesError, match="margin must be from -100 to 100"):
        Encounter().join("A", pc=True, quick=3, margin=10**30)
    for i in range(300):
        enc, _ = enc.next_turn()
        h = h.push(enc, f"move {i} " + "x" * 200)
    h = h.push(enc, "The scene ends: " + ", ".join(f.name for f in enc.fighters) * 2)
    text = h.to_json()
    assert len(text.encode()) <= saved.MAX_BYTES
    assert EncounterHistory.from_json(text) == h
    r = injury_record()
    for _ in range(40):
        r = rec.recover(r, rng=random.Random(1), until_day=min(rec.MAX_DAY, r.day + 400)).record
    assert r.day <= rec.MAX_DAY and len(r.log) <= rec.MAX_LOG
    assert pc.InjuryRecord.from_json(r.to_json()) == r
    with pytest.raises(RulesError, match="blood_loss must be from 0 to 20"):
        r.with_blood_loss(100000)
    with pytest.raises(RulesError, match="order must list at most 30 combatants"):
        tsl.new_encounter([f"n{i}" for i in range(31)])
    long_board = board()
    for _ in range(500):
        long_board = tsl.next_turn(long_board)
    data = tsl.encounter_to_dict(long_board)
    assert len(data["log"]) == tsl.turns.MAX_LOG
    assert tsl.encounter_from_dict(data).round == long_board.round


# -- Roll never hangs ------------------------------------------------------------------------------

def _worst_record() -> pc.InjuryRecord:
    """The most work a valid record can ask of one Roll: every injury slot treated at HR1 (the
    slowest healing), an infection and the most blood loss."""
    r = pc.InjuryRecord("Worst", healing_base=0, endurance_eml=-rec.EML_LIMIT)
    for i in range(rec.MAX_INJURIES):
        r = r.add_injury("Thigh", "Blunt", 5).treat(i, pc.untreated("Blunt", "G5"))
    data = json.loads(r.with_blood_loss(rec.MAX_BLOOD_LOSS).to_json())
    data["record"]["infection"] = [0, 5]
    return pc.InjuryRecord.from_json(json.dumps(data))


@settings(deadline=None, max_examples=25)
@given(st.integers(0, 2**32), st.integers(0, rec.MAX_DAY))
def test_roll_on_any_valid_record_ends_within_its_day_bounds(seed, start):
    worst = _worst_record()
    data = json.loads(worst.to_json())
    data["record"].update(day=start, next_healing=start + 5, next_regeneration=start + 10,
                          timeline=[])
    r = pc.InjuryRecord.from_json(json.dumps(data))
    run = rec.recover(r, rng=random.Random(seed))
    assert run.record.day <= min(rec.MAX_DAY, start + rec.MAX_DAYS + rec.REGENERATION_EVERY)
    # At most one roll per injury per healing day, one infection roll a day, one blood roll
    # every ten days: the loop cannot outrun its day bound.
    assert len(run.rolled) <= (rec.MAX_DAYS + 10) * (rec.MAX_INJURIES + 2)


def test_blood_loss_100000_cannot_reach_a_roll():
    with pytest.raises(RulesError, match="blood_loss must be a whole number from 0 to 20"):
        pc.InjuryRecord.from_json(record_with(_set(("blood_loss",), 100000)))
    with pytest.raises(RulesError, match="blood_loss must be from 0 to 20"):
        pc.InjuryRecord("A", blood_loss=100000)


# -- the checker itself ----------------------------------------------------------------------------

def test_messages_quote_a_wrong_value_briefly_in_the_file_s_words():
    assert saved.shown(None) == "null" and saved.shown(True) == "true"
    assert saved.shown("x" * 100) == repr("x" * 40 + "…")
    assert saved.shown(10**50) == "a number 51 digits long"
    assert saved.shown([1, 2]) == "a list of 2" and saved.shown({}) == "an object"


def test_megabytes_round_up_so_a_file_over_the_limit_never_reads_as_the_limit():
    assert saved.megabytes(saved.MAX_BYTES) == "1 MB"
    assert saved.megabytes(saved.MAX_BYTES + 1) == "1.1 MB"
