"""A tracked encounter's history (undo, redo) and its JSON file."""

import json

import pytest

from rulescore import RulesError
from rulescore.systems.veil_and_lead.encounter import (ENCOUNTER_FORMAT, Encounter,
                                                        EncounterHistory, remove_fighter)


def _two() -> EncounterHistory:
    h = EncounterHistory()
    h = h.push(h.encounter.join("Ada", pc=True, quick=3, margin=5), "Ada joins at Tick 3")
    return h.push(h.encounter.join("Bandit", pc=False, quick=2, margin=-1),
                  "Bandit joins at Tick 6, Surprised")


def test_undo_redo_and_a_new_move_drops_the_redo():
    h = _two()
    assert [f.name for f in h.encounter.fighters] == ["Ada", "Bandit"]
    back = h.undo()
    assert [f.name for f in back.encounter.fighters] == ["Ada"] and back.can_redo
    assert back.log == ("A new encounter", "Ada joins at Tick 3")
    assert back.redo() == h
    moved, _ = back.encounter.next_turn()
    branched = back.push(moved, "Hammer to Tick 3")
    assert not branched.can_redo and len(branched.states) == 3
    with pytest.raises(RulesError, match="nothing to redo"):
        branched.redo()
    with pytest.raises(RulesError, match="nothing to undo"):
        EncounterHistory().undo()


def test_file_round_trip_keeps_undo_and_redo():
    h = _two().undo()
    again = EncounterHistory.from_json(h.to_json())
    assert again == h and again.redo() == _two()
    assert json.loads(h.to_json())["format"] == ENCOUNTER_FORMAT


@pytest.mark.parametrize("text, message", [
    ("{not json", "encounter: the file is not JSON"),
    ('["a"]', "not an encounter file: it holds a list of 1"),
    ('{"format": "rulebook/tsl-board", "version": 1}', "its format is 'rulebook/tsl-board'"),
    ('{"format": "rulebook/vl-encounter", "version": 2}', "the file is version 2; this book reads version 1"),
    ('{"format": "rulebook/vl-encounter", "version": 1, "states": []}', "missing the field 'index'"),
    ('{"format": "rulebook/vl-encounter", "version": 1, "index": 0, "states": []}',
     "states must hold from 1 to 200 entries, got 0"),
    ('{"format": "rulebook/vl-encounter", "version": 1, "index": 0, "states": '
     '[{"log": "x", "encounter": {"hammer": 25, "elapsed": 0, "fighters": []}}]}',
     r"states\[1\]\.encounter\.hammer must be a whole number from 0 to 19, got 25"),
    ('{"format": "rulebook/vl-encounter", "version": 1, "index": 3, "states": '
     '[{"log": "x", "encounter": {"hammer": 0, "elapsed": 0, "fighters": []}}]}',
     "index must be from 0 to 0, got 3"),
])
def test_bad_files_are_refused_with_a_reason(text, message):
    with pytest.raises(RulesError, match=message):
        EncounterHistory.from_json(text)


def test_history_is_capped():
    h = EncounterHistory()
    for i in range(250):
        h = h.push(Encounter(elapsed=i), f"move {i}")
    assert len(h.states) == 200 and h.log[-1] == "move 249"


def test_remove_fighter():
    enc = _two().encounter
    assert [f.name for f in remove_fighter(enc, "Ada").fighters] == ["Bandit"]
    with pytest.raises(RulesError, match="name must be one of the fighters"):
        remove_fighter(enc, "Cy")
