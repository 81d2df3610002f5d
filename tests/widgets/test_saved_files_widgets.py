"""Issue 18's saved-file findings, one by one, at the tools a reader uses: each forged or
oversize file is refused with a message naming the field, nothing changes (the record, the
page, the autosave), and every button still answers afterwards."""

import json

import pytest

from rulescore.systems import tsl
from widgets.lean import is_shown
from widgets.percentile_healing import HealingWalker
from widgets.tsl import TurnBoard
from widgets.veil_and_lead_count import CountTracker


def walker() -> HealingWalker:
    """A walker holding an S2 abdomen injury treated F (HR4, infection chance) and a second,
    untreated injury; its autosave writes go to ``walker.saved``."""
    h = HealingWalker("Ana", 13, 60)
    h.add_button.click()
    h.treat_entry.my_dice.value = "99"
    h.treat_entry.use_dice()
    h.level.value = 1
    h.add_button.click()
    h.saved = []
    h.kept.store.save = h.saved.append
    return h


def _upload(tool, text: str) -> None:
    tool.kept.transfer.receive("file.json", text.encode())


def forged(h: HealingWalker, **changes) -> str:
    data = json.loads(h.record.to_json())
    for path, value in changes.items():
        target = data["record"]
        *parents, last = path.split("__")
        for key in parents:
            target = target[int(key) if key.isdigit() else key]
        target[int(last) if last.isdigit() else last] = value
    return json.dumps(data)


def still_answers(h: HealingWalker) -> None:
    """The six buttons that raised TypeError after a forged record loaded."""
    before = len(h.record.injuries)
    h.add_button.click()
    assert len(h.record.injuries) == before + 1 and h.error.value == ""
    h.untreated_button.click()
    h.treat_entry.roll(5)
    h.heal_entry.my_dice.value = "50"
    h.heal_entry.use_dice()
    h.heal_entry.roll(7)
    h.new_button.click()
    assert h.record.injuries == () and h.error.value == ""


@pytest.mark.parametrize("changes, message", [
    ({"day": "x"}, "day must be a whole number from 0 to 1000, got 'x'"),
    ({"dead": "yes"}, "dead must be true or false, got 'yes'"),
    ({"healing_done": ["a"]}, "healing_done[1] must be a whole number from 0 to 29, got 'a'"),
    ({"infection": [99, 3]}, "infection[1] must be a whole number from 0 to 29, got 99"),
    ({"infection": [0]}, "infection must be a list of two: injury number and Infection HR"),
    ({"injuries__0__level": True}, "injuries[1].level must be a whole number from 0 to 5, "
                                   "got true"),
    ({"injuries__0__hr": -4}, "injuries[1].hr must be a whole number from 1 to 6, got -4"),
    ({"injuries__0__treatment": "<img src=x onerror=alert(1)>"},
     "injuries[1].treatment must be one of 'CF', 'F', 'S', 'CS', got "
     "'<img src=x onerror=alert(1)>'"),
    ({"timeline": [{"day": "soon", "levels": [], "blood_loss": 0, "infected": False}]},
     "timeline[1].day must be a whole number"),
    ({"timeline": [[1, 2]]}, "timeline[1] must be an object, got a list of 2"),
    ({"blood_loss": 100000}, "blood_loss must be a whole number from 0 to 20, got 100000"),
])
def test_each_forged_healing_record_is_refused_by_name_and_changes_nothing(changes, message):
    h = walker()
    before, sheet = h.record, h.sheet.value
    _upload(h, forged(h, **changes))
    shown = h.kept.transfer.error.message
    assert shown.startswith(f"The upload changed nothing: injury record: {message}")
    assert h.record == before and h.sheet.value == sheet and h.saved == []
    assert "<img" not in h.kept.transfer.error.value
    still_answers(h)


OVERSIZE = [
    ("[" * 100_000 + "]" * 100_000, "the file is nested more than 16 levels deep"),
    ('{"day": ' + "9" * 5000 + "}", "the file holds a number 5000 digits long"),
    (" " * 50_000_000, "That file is 50 MB; a saved {label} is at most 1 MB. Nothing was sent "
                       "or changed."),
]


@pytest.mark.parametrize("text, message", OVERSIZE, ids=["deep", "long number", "50 MB"])
@pytest.mark.parametrize("make, label, state", [
    (walker, "injury record", lambda t: t.record),
    (CountTracker, "encounter", lambda t: t.history),
    (lambda: TurnBoard("Vela, Mar"), "board", lambda t: t.encounter),
], ids=["healing walker", "Count", "turn board"])
def test_deep_long_and_huge_files_get_a_message_in_every_tool(make, label, state, text,
                                                               message):
    tool = make()
    before = state(tool)
    _upload(tool, text)
    assert message.format(label=label) in tool.kept.transfer.error.message
    assert "changed nothing" in tool.kept.transfer.error.message
    assert state(tool) == before


def test_a_forged_autosave_is_named_escaped_and_never_restored():
    h = walker()
    text = forged(h, injuries__0__treatment="<img src=x onerror=alert(1)>")
    fresh = HealingWalker()
    fresh.kept.store.stored = text
    assert is_shown(fresh.kept.offer) and not is_shown(fresh.kept.restore_button)
    assert "injuries[1].treatment must be one of" in fresh.kept.note.value
    assert "<img" not in fresh.kept.note.value and "&lt;img" in fresh.kept.note.value
    before = fresh.record
    fresh.kept.restore()      # even if asked: refused, named, nothing changes
    assert fresh.record == before
    assert "The restore changed nothing: injury record: injuries[1].treatment" in \
        fresh.kept.transfer.error.message


def test_count_and_board_fields_with_no_upper_bound_before_are_refused():
    t = CountTracker()
    t.name.value, t.margin.value = "Ada", "4"
    t.add_button.click()
    data = json.loads(t.history.to_json())
    data["states"][-1]["encounter"]["elapsed"] = 10**14
    before = t.history
    _upload(t, json.dumps(data))
    assert "encounter: states[2].encounter.elapsed must be a whole number from 0 to " \
           "1000000, got 100000000000000" in t.kept.transfer.error.message
    assert t.history == before
    t.margin.value = "1000000000000000000000000000000"
    t.name.value = "Bo"
    t.add_button.click()
    assert "must be from -100 to 100" in t.error.message and t.history == before
    b = TurnBoard("Vela, Mar")
    data = tsl.encounter_to_dict(b.encounter)
    data["round"] = 10**14
    _upload(b, json.dumps(data))
    assert "TSL turn board: round must be a whole number from 1 to 100000" in \
        b.kept.transfer.error.message
