"""The roster shared by a chapter's tools (widgets.roster.shared_roster) and the FighterPick
that fills a tool's fields from a fighter's row."""

from __future__ import annotations

import pytest

from rulescore.roster import Fighter, Roster
from rulescore.systems import veil_and_lead as vl
from widgets.lean import is_shown
from widgets.roster import (EMPTY_HINT, NONE_PICKED, FighterPick, RosterEditor,
                            forget_shared_rosters, roster, shared_roster)
from tests.widgets.fresh_rosters import fresh  # noqa: F401 (autouse)


def party() -> Roster:
    return Roster(vl.ROSTER).add("Ada", pc=True, quick=4, iron=3).add("Bo", savvy=4)


def browser_says(e: RosterEditor, kept: str) -> None:
    e.store._from_browser(e.store, {"op": "hello", "stored": kept}, [])


def test_one_shared_editor_per_system_and_roster_returns_it():
    e = shared_roster("veil_and_lead")
    assert roster("veil_and_lead") is e and shared_roster("veil_and_lead") is e
    assert isinstance(e, RosterEditor) and e.format is vl.ROSTER and e.foldable
    forget_shared_rosters()
    assert shared_roster("veil_and_lead") is not e


def test_the_pick_lists_the_roster_and_fills_once_per_pick():
    filled: list[Fighter] = []
    pick = FighterPick("veil_and_lead", filled.append)
    shared_roster("veil_and_lead").set_roster(party())
    assert pick.menu.options == (NONE_PICKED, "Ada", "Bo") and pick.menu.value == NONE_PICKED
    assert is_shown(pick.menu) and not is_shown(pick.hint)
    pick.menu.value = "Bo"
    assert [f.name for f in filled] == ["Bo"] and filled[0]["savvy"] == 4
    pick.menu.value = NONE_PICKED  # back to none: nothing is filled
    pick.menu.value = "Ada"
    assert [f.name for f in filled] == ["Bo", "Ada"] and filled[1]["quick"] == 4


def test_the_pick_follows_renames_removals_and_additions():
    filled: list[Fighter] = []
    pick = FighterPick("veil_and_lead", filled.append, label="Attacker")
    editor = roster("veil_and_lead")
    editor.set_roster(party())
    pick.menu.value = "Ada"
    editor.rows[0][0].value = "Adeline"  # the reader renames Ada in her row
    assert pick.menu.options == (NONE_PICKED, "Adeline", "Bo")
    assert pick.menu.value == "Adeline" and len(filled) == 1  # followed, not filled again
    editor.new_name.value = "Cy"
    assert pick.menu.options[-1] == "Cy" and pick.menu.value == "Adeline"
    editor.pick.value = "Adeline"
    editor.remove()
    assert pick.menu.options == (NONE_PICKED, "Bo", "Cy") and pick.menu.value == NONE_PICKED
    assert len(filled) == 1 and pick.menu.description == "Attacker"


def test_an_empty_roster_shows_the_hint_instead_of_the_menu():
    pick = FighterPick("veil_and_lead", lambda f: None)
    assert not is_shown(pick.menu) and is_shown(pick.hint) and EMPTY_HINT in pick.hint.value
    shared_roster("veil_and_lead").set_roster(party())
    assert is_shown(pick.menu) and not is_shown(pick.hint)
    shared_roster("veil_and_lead").start_new()
    assert not is_shown(pick.menu) and is_shown(pick.hint)


def test_picks_made_before_the_browser_answers_fill_from_the_kept_roster():
    filled: list[Fighter] = []
    pick = FighterPick("veil_and_lead", filled.append)
    editor = shared_roster("veil_and_lead")
    browser_says(editor, party().to_json())
    assert pick.menu.options == (NONE_PICKED, "Ada", "Bo")
    pick.menu.value = "Ada"
    assert filled[0]["iron"] == 3


def test_the_chapter_roster_opens_folded_and_makes_its_table_when_first_opened():
    editor = shared_roster("veil_and_lead")
    assert editor.folded and editor.children == (editor.store, editor.store.offer,
                                                 editor.fold_line)
    assert not {"grid", "entry", "transfer", "error"} & set(vars(editor))
    assert "Fighters: none yet —" in editor.fighters_line.value
    assert is_shown(editor.new_name) and is_shown(editor.add_button)  # added from the line
    browser_says(editor, party().to_json())
    assert editor.folded and "grid" not in vars(editor)
    assert "Fighters: Ada, Bo —" in editor.fighters_line.value
    assert not is_shown(editor.new_name) and editor.fold_button.description == "edit"
    editor.fold_button.click()
    assert not editor.folded and editor.grid in editor.children and is_shown(editor.grid)
    assert editor.get_state("children")["children"][-1] == f"IPY_MODEL_{editor.transfer.model_id}"
    assert editor.rows[1][0].value == "Bo" and is_shown(editor.new_name)
    assert editor.fold_button.description == "fold"
    editor.fold_button.click()
    assert editor.folded and not is_shown(editor.grid) and not is_shown(editor.entry)
    assert not is_shown(editor.new_name) and editor.fold_button.description == "edit"


def test_a_fighter_added_from_the_folded_line_opens_the_roster_on_their_row():
    editor = shared_roster("veil_and_lead")
    editor.new_name.value = "Cy"
    assert editor.roster.names() == ("Cy",) and not editor.folded
    assert is_shown(editor.grid) and editor.rows[0][0] in editor.grid.children
    editor.start_new()  # an emptied roster stays open, offering to put Cy back
    assert not editor.folded and "Put back the 1 fighter" in editor.new_button.description


def test_a_roster_opened_before_the_browser_answers_stays_open():
    editor = shared_roster("veil_and_lead")
    editor.fold(False)
    browser_says(editor, party().to_json())
    assert not editor.folded and editor.rows[0][0].value == "Ada" and is_shown(editor.grid)


def test_a_damaged_kept_roster_is_named_on_the_folded_line():
    editor = shared_roster("veil_and_lead")
    browser_says(editor, '{"format": "rulebook roster"')
    assert editor.folded and "cannot be read" in editor.fighters_line.value
    editor.fold(False)
    assert "cannot be read" in editor.kept_note.value
    assert "cannot be read" not in editor.fighters_line.value


def test_a_plain_editor_has_no_fold_line():
    e = RosterEditor(vl.ROSTER, starter=party())
    browser_says(e, party().to_json())
    assert not is_shown(e.fold_line) and is_shown(e.grid)


def test_enter_in_the_name_field_adds_the_fighter():
    editor = shared_roster("veil_and_lead")
    editor.new_name.value = "Ada"  # the field commits on Enter (continuous_update off)
    assert editor.roster.names() == ("Ada",) and editor.new_name.value == ""
    assert not editor.roster.fighter("Ada").pc
    editor.new_pc.value = True  # ticking PC left the field, which added Ada: the tick is hers
    assert editor.roster.fighter("Ada").pc and len(editor.roster) == 1
    editor.add_button.click()  # the press that left the field adds nothing twice
    assert editor.roster.names() == ("Ada",) and editor.error.value == ""
    editor.new_name.value = "Bo"
    assert editor.roster.fighter("Bo").pc  # PC stays ticked for the next fighter
    editor.new_name.value = "Bo"  # the same name again, in a new entry: refused, shown
    editor.add_button.click()
    assert len(editor.roster) == 2 and "Bo" in editor.error.value


def test_a_roster_changed_in_another_tab_is_offered_and_nothing_is_overwritten(monkeypatch):
    editor = shared_roster("veil_and_lead")
    sent: list[dict] = []
    monkeypatch.setattr(editor.store, "send", sent.append)
    editor.new_name.value = "Ada"
    theirs = party().add("Cy").to_json()
    editor.store._from_browser(editor.store, {"op": "elsewhere", "stored": theirs}, [])
    assert editor.store.offer in editor.children and is_shown(editor.store.offer)
    writes = len(sent)
    editor.new_name.value = "Bo"  # this tab's change: shown here, not written over theirs
    assert editor.roster.names() == ("Ada", "Bo") and len(sent) == writes
    editor.store.offer.load_button.click()
    assert editor.roster.names() == ("Ada", "Bo", "Cy") and not is_shown(editor.store.offer)
    assert len(sent) == writes  # the browser already holds their copy


def test_keep_mine_writes_this_tab_s_roster_over_the_other(monkeypatch):
    editor = shared_roster("veil_and_lead")
    sent: list[dict] = []
    monkeypatch.setattr(editor.store, "send", sent.append)
    editor.new_name.value = "Ada"
    editor.store._from_browser(editor.store, {"op": "elsewhere", "stored": party().to_json()},
                               [])
    editor.new_name.value = "Bo"
    editor.store.offer.keep_button.click()
    assert Roster.from_json(vl.ROSTER, sent[-1]["text"]).names() == ("Ada", "Bo")
    assert editor.roster.names() == ("Ada", "Bo")


def test_a_lazy_editor_makes_its_table_when_built_or_read():
    e = RosterEditor(vl.ROSTER, starter=party(), lazy=True)
    assert not e.folded and "grid" not in vars(e) and e.children[-1] is e.fold_line
    e.build()
    assert e.grid in e.children and e.rows[0][0] in e.grid.children
    assert e.new_name in e.entry.children  # not a chapter's: added from the row under the table
    again = RosterEditor(vl.ROSTER, starter=party(), lazy=True)
    assert again.pick.options == ("Ada", "Bo")  # reading a part makes them all
