"""The fight page frame (widgets.fight): page-wide undo/redo over the roster and a toy state,
one step per apply, the state kept in the browser, both restored on open, and the roll log."""

from __future__ import annotations

import json
from dataclasses import dataclass

import ipywidgets as w
import pytest
from hypothesis import given, settings, strategies as st

from rulescore.errors import RulesError
from rulescore.roster import Roster
from tests.rulescore.test_roster_model import OTHER, TOY, party
from widgets.common import RollRequest
from widgets import fight as fight_widgets
from widgets.fight import FightPage, RollLog, dice_words, fight_key
from widgets.lean import is_shown
from widgets.roster import RESTORED


@dataclass(frozen=True)
class Tally:
    """A toy fight state: a round counter."""

    round: int = 1


def save(state: Tally) -> str:
    return json.dumps({"round": state.round})


def load(text: str) -> Tally:
    data = json.loads(text)
    if not isinstance(data, dict) or not isinstance(data.get("round"), int):
        raise RulesError("fight: round must be a whole number")
    return Tally(data["round"])


@pytest.fixture(autouse=True)
def live(monkeypatch):
    monkeypatch.delenv("RULEBOOK_TARGET", raising=False)


def page(monkeypatch=None, saves=None, starter=None) -> FightPage:
    panel = w.HTML("panel")
    p = FightPage(TOY, Tally(), save=save, load=load, panels=[panel], title="Running a fight",
                  starter=starter if starter is not None else party())
    if saves is not None:
        monkeypatch.setattr(p.store, "save", saves.append)
    return p


def kept(state: Tally, rolls: list[dict] | None = None) -> str:
    """What the page keeps in the browser: the fight, as the system saves it, and the log."""
    return json.dumps({"format": "rulebook/fight-page", "version": 1, "fight": save(state),
                       "rolls": rolls or []}, separators=(",", ":"))


def hello(store, text: str) -> None:
    store._from_browser(store, {"op": "hello", "stored": text}, [])


def test_one_step_per_apply_and_undo_redo_over_roster_and_state(monkeypatch):
    saves, seen = [], []
    p = page(monkeypatch, saves)
    p.on_change(lambda r, s: seen.append((r.names(), s.round)))
    assert p.undo_button.disabled and p.redo_button.disabled
    p.apply("round 2", state=Tally(2))
    p.apply("Bandit hurt", roster=p.roster.set("Bandit", "vitality", 2), state=Tally(3))
    assert (p.state, p.roster.fighter("Bandit")["vitality"]) == (Tally(3), 2)
    assert p.editor.roster == p.roster and saves == [kept(Tally(2)), kept(Tally(3))]
    assert p.undo_button.tooltip == "Undo: Bandit hurt" and "Last: Bandit hurt" in p.last.value
    p.undo_button.click()
    assert (p.state, p.roster.fighter("Bandit")["vitality"]) == (Tally(2), 6)
    assert p.editor.roster.fighter("Bandit")["vitality"] == 6 and saves[-1] == kept(Tally(2))
    assert p.redo_button.tooltip == "Redo: Bandit hurt" and not p.redo_button.disabled
    p.redo_button.click()
    assert (p.state, p.roster.fighter("Bandit")["vitality"]) == (Tally(3), 2)
    assert seen == [(("Ada", "Bandit"), 2), (("Ada", "Bandit"), 3), (("Ada", "Bandit"), 2),
                    (("Ada", "Bandit"), 3)]
    assert p.history.log == ("start", "round 2", "Bandit hurt")


def test_an_edit_in_the_roster_is_one_step_of_the_page():
    p = page()
    p.apply("round 2", state=Tally(2))
    p.editor.rows[1][3].value = 4  # Bandit's Vitality
    assert p.roster.fighter("Bandit")["vitality"] == 4 and p.state == Tally(2)
    assert p.history.log[-1] == "Bandit: Vitality 6 → 4"
    p.editor.new_name.value = "Cy"
    p.editor.add_button.click()
    p.undo()
    p.undo()
    assert p.roster == party() and p.state == Tally(2)
    assert p.editor.rows[1][3].value == 6 and p.editor.roster == party()
    p.undo()
    assert p.state == Tally(1) and p.undo_button.disabled


def test_nothing_to_undo_and_a_wrong_roster():
    p = page()
    p.undo()
    assert p.error.message == "Undo: there is nothing to undo"
    p.redo()
    assert p.error.message == "Redo: there is nothing to redo"
    p.apply("round 2", state=Tally(2))
    p.undo()
    assert p.error.message == ""
    with pytest.raises(RulesError, match="this page keeps Toy Game fighters"):
        p.apply("x", roster=Roster(OTHER))


def test_a_new_step_after_undo_drops_the_redo_tail_and_a_new_fight_keeps_the_fighters():
    p = page()
    p.apply("round 2", state=Tally(2))
    p.apply("round 3", state=Tally(3))
    p.undo()
    p.apply("round 5", state=Tally(5))
    assert not p.history.can_redo and p.history.log[-1] == "round 5"
    p.new_fight_button.click()
    assert p.state == Tally(1) and p.roster == party()
    p.undo()
    assert p.state == Tally(5)


def test_both_come_back_from_the_browser_without_a_click(monkeypatch):
    p = page(starter=Roster(TOY))
    hello(p.editor.store, party().duplicate("Bandit", 2).to_json())
    hello(p.store, save(Tally(7)))
    assert p.roster.names() == ("Ada", "Bandit", "Bandit 2", "Bandit 3")
    assert p.state == Tally(7) and p.editor.roster == p.roster
    # what the browser kept is the page's start: undo does not empty the page
    assert not p.history.can_undo and p.history.log == ("the fight kept in this browser",)
    # the other order: the state first, then the roster
    q = page(starter=Roster(TOY))
    hello(q.store, save(Tally(4)))
    hello(q.editor.store, party().to_json())
    assert (q.state, q.roster, q.history.log) == (Tally(4), party(), (RESTORED,))
    assert fight_key("toy") == q.store.key == "rulebook-fight-toy"


def test_a_damaged_kept_fight_is_named_and_the_fight_starts_afresh():
    p = page()
    hello(p.store, '{"round": "x"}')
    assert p.state == Tally() and "cannot be read, so this one starts afresh: fight: round" \
        in p.error.message


def test_a_kept_fight_does_not_replace_steps_already_taken():
    p = page()
    p.apply("round 2", state=Tally(2))
    hello(p.store, save(Tally(9)))
    assert p.state == Tally(2)


def test_roll_log_lines_newest_first_and_replay_with_the_same_dice():
    log = RollLog()
    replays = []
    log.add("Ada shoots Bo", RollRequest.seeded(123), "hit, 5 damage", replays.append)
    log.add("Bo bleeds", RollRequest.typed([6, 2, 1]), "stable", replays.append)
    log.add("Duel", RollRequest.typed_groups([[7, 5], [8]]), "Bo first", replays.append)
    texts = [line.children[1].value for line in log.children]
    assert "Duel" in texts[0] and "your dice 7, 5 | 8" in texts[0]
    assert "<b>Bo bleeds</b> · your dice 6, 2, 1 · stable" == texts[1]
    assert "seed 123" in texts[2] and "hit, 5 damage" in texts[2]
    log.children[2].children[0].click()
    log.children[1].children[0].click()
    assert replays[0].seed == 123 and replays[1].dice.leftover() == (6, 2, 1)
    assert dice_words(RollRequest.seeded(7)) == "seed 7"


def test_roll_log_escapes_and_keeps_the_newest_fifty():
    log = RollLog()
    assert "No rolls yet" in log.children[0].value
    for i in range(60):
        log.add(f"<b>roll {i}</b>", RollRequest.seeded(i), "ok", lambda r: None)
    assert len(log.children) == 50 and len(log.entries) == 50
    assert "&lt;b&gt;roll 59&lt;/b&gt;" in log.children[0].children[1].value


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(["round", "hurt", "edit", "undo", "redo", "new"]), max_size=20))
def test_any_sequence_keeps_the_editor_and_the_page_in_step(steps):
    p = page()
    told = []
    p.on_change(lambda r, s: told.append((r, s)))
    for step in steps:
        if step == "round":
            p.apply("round", state=Tally(p.state.round + 1))
        elif step == "hurt":
            hurt = max(1, p.roster.fighter("Ada")["vitality"] - 1)
            p.apply("hurt", roster=p.roster.set("Ada", "vitality", hurt))
        elif step == "edit" and "Bandit" in p.roster.names():
            p.editor.rows[p.roster.names().index("Bandit")][2].value = 1 + p.state.round % 5
        elif step == "undo":
            p.undo()
        elif step == "redo":
            p.redo()
        else:
            p.new_fight_button.click()
        assert p.editor.roster == p.roster
        assert p.undo_button.disabled == (not p.history.can_undo)
        if told:
            assert told[-1] == (p.roster, p.state)


def test_the_fighters_fold_to_one_line_once_there_are_fighters_and_open_when_empty():
    p = page()  # opens on a roster with fighters: folded, the panels on the first screen
    assert p.folded and not is_shown(p.editor)
    assert "Fighters: Ada, Bandit —" in p.fighters_line.value
    assert p.fold_button.description == "edit" and is_shown(p.fold_button)
    p.fold_button.click()
    assert is_shown(p.editor) and p.fighters_line.value.endswith(">Fighters</h4>")
    assert p.fold_button.description == "fold"
    p.editor.new_name.value = "Cy"
    p.editor.add_button.click()  # the reader is editing: the roster stays open
    assert is_shown(p.editor)
    p.fold_button.click()
    assert "Fighters: Ada, Bandit, Cy —" in p.fighters_line.value and not is_shown(p.editor)
    p.undo()  # an undo changes the roster, not whether it is folded
    assert "Fighters: Ada, Bandit —" in p.fighters_line.value and not is_shown(p.editor)
    empty = page(starter=Roster(TOY))
    assert not empty.folded and is_shown(empty.editor) and not is_shown(empty.fold_button)
    # a page opened on a roster kept in the browser folds it as it comes back
    hello(empty.editor.store, party().to_json())
    assert empty.folded and not is_shown(empty.editor)
    assert "Fighters: Ada, Bandit —" in empty.fighters_line.value


def test_a_long_roster_folds_to_its_first_names_and_a_count(monkeypatch):
    monkeypatch.setattr(fight_widgets, "SUMMARY_NAMES", 5)
    roster = Roster(TOY)
    for n in range(8):
        roster = roster.add(f"F{n}")
    p = page(starter=roster)
    assert "Fighters: F0, F1, F2, F3, F4 and 3 more —" in p.fighters_line.value


def test_a_rename_in_the_roster_is_handed_to_the_system_as_one_step(monkeypatch):
    calls = []

    def rename(state, old, new):
        calls.append((old, new))
        if new == "Taken":
            raise RulesError("Name 'Taken' is a token's name in the fight already")
        return Tally(state.round + 10)
    p = FightPage(TOY, Tally(), save=save, load=load, panels=[], title="t", starter=party(),
                  rename=rename)
    saves = []
    monkeypatch.setattr(p.store, "save", saves.append)
    p.editor.rows[1][3].value = 4          # not a rename: the state is left alone
    p.editor.rows[1][0].value = "Bo"
    assert calls == [("Bandit", "Bo")] and p.state == Tally(11) and saves == [kept(Tally(11))]
    assert p.history.log[-1] == "Bandit is now called Bo"
    p.undo()
    assert p.roster.names() == ("Ada", "Bandit") and p.state == Tally(1)
    p.editor.rows[1][0].value = "Taken"    # the fight refuses: the roster keeps its name
    assert p.roster.names() == ("Ada", "Bandit") and p.editor.roster == p.roster
    assert "Taken" in p.error.message and p.editor.rows[1][0].value == "Bandit"


def _roll_round(p: FightPage, seed: int) -> None:
    """A panel's roll that makes a step: logged, then applied (as the fight pages do)."""
    p.rolls.add(f"Round roll {seed}", RollRequest.seeded(seed), f"round {p.state.round + 1}",
                lambda r: None)
    p.apply(f"round {p.state.round + 1}", state=Tally(p.state.round + 1))


def test_an_undone_roll_stays_in_the_log_marked_undone_and_redo_unmarks_it():
    p = page()
    _roll_round(p, 1)
    _roll_round(p, 2)
    p.rolls.add("Look only", RollRequest.seeded(3), "no step", lambda r: None)
    assert [e.undone for e in p.rolls.entries] == [False, False, False]
    p.undo()
    # the roll that made the last step is marked; one made after it and not yet applied is
    # not (nothing of it was undone)
    assert [(e.what, e.undone) for e in p.rolls.entries] == [
        ("Look only", False), ("Round roll 2", True), ("Round roll 1", False)]
    line = p.rolls.children[1].children[-1].value
    assert line.startswith("<s") and line.endswith("<i>— undone</i>")
    p.redo()
    assert [e.undone for e in p.rolls.entries] == [False, False, False]
    assert "undone" not in p.rolls.children[1].children[-1].value
    p.undo()
    p.undo()
    assert [e.undone for e in p.rolls.entries] == [False, True, True]
    p.redo()
    p.apply("another way", state=Tally(7))  # the undone step can no longer be redone
    assert [e.undone for e in p.rolls.entries] == [False, True, False]
    assert p.rolls.entries[1].dropped
    p.undo()
    p.redo()
    assert [e.undone for e in p.rolls.entries] == [False, True, False]


def test_the_roll_log_is_kept_with_the_fight_and_comes_back_on_reload(monkeypatch):
    saves = []
    p = page(monkeypatch, saves)
    _roll_round(p, 11)
    p.rolls.add("Bo bleeds", RollRequest.typed([6, 2, 1]), "stable", lambda r: None)
    _roll_round(p, 12)
    p.undo()
    lines = [{"what": "Round roll 12", "dice": "seed 12", "outcome": "round 3", "undone": True},
             {"what": "Round roll 11", "dice": "seed 11", "outcome": "round 2",
              "undone": False}]
    # a roll logged between two steps made the next one: it was undone with it
    bo = {"what": "Bo bleeds", "dice": "your dice 6, 2, 1", "outcome": "stable",
          "undone": True}
    assert saves[-1] == kept(Tally(2), [lines[0], bo, lines[1]])
    q = page()
    hello(q.editor.store, party().to_json())
    hello(q.store, saves[-1])
    assert q.state == Tally(2) and q.rolls.saved() == [lines[0], bo, lines[1]]
    texts = [line.children[-1].value for line in q.rolls.children]
    assert "your dice 6, 2, 1" in texts[1] and "— undone" in texts[0]
    # a kept line has its words, not its replay: no Replay button
    assert all(len(line.children) == 1 for line in q.rolls.children)
    # the kept lines stay marked as they were, through the new page's own undo and redo
    _roll_round(q, 13)
    q.undo()
    assert [e.undone for e in q.rolls.entries] == [True, True, True, False]
    q.redo()
    assert [e.undone for e in q.rolls.entries] == [False, True, True, False]


@pytest.mark.parametrize("change, message", [
    (lambda d: d["rolls"][0].update(undone="yes"),
     "rolls[1].undone must be true or false"),
    (lambda d: d["rolls"][0].update(what=7), "rolls[1].what must be"),
    (lambda d: d["rolls"][0].pop("dice"), "rolls[1]"),
    (lambda d: d["rolls"][0].update(extra=1), "extra"),
    (lambda d: d.update(rolls=[d["rolls"][0]] * 51), "rolls"),
    (lambda d: d.update(fight='{"round": "x"}'), "round must be a whole number"),
    (lambda d: d.pop("fight"), "fight"),
])
def test_a_damaged_kept_log_is_refused_by_field_and_the_fight_starts_afresh(change, message):
    data = json.loads(kept(Tally(5), [{"what": "Round roll", "dice": "seed 1",
                                       "outcome": "round 5", "undone": False}]))
    change(data)
    p = page()
    hello(p.store, json.dumps(data))
    assert p.state == Tally(1) and p.rolls.entries == []
    assert "cannot be read" in p.error.message and message in p.error.message
