"""The roster editor (widgets.roster): every action, the error paths, and the roster kept in the
browser and loaded again on the next page without a click."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from rulescore.errors import RulesError
from rulescore.roster import Roster
from rulescore.systems import veil_and_lead as vl
from tests.rulescore.test_roster_model import OTHER, TOY, party
from widgets import roster as roster_widgets
from widgets.lean import is_shown
from widgets.roster import RESTORED, RosterEditor, roster, store_key


@pytest.fixture(autouse=True)
def live(monkeypatch):
    monkeypatch.delenv("RULEBOOK_TARGET", raising=False)


def editor(starter: Roster | None = None, saves: list | None = None, monkeypatch=None) -> RosterEditor:
    e = RosterEditor(TOY, starter=starter if starter is not None else party())
    if saves is not None:
        monkeypatch.setattr(e.store, "save", saves.append)
    return e


def browser_says(e: RosterEditor, kept: str) -> None:
    """The page's browser half reporting what localStorage holds under the key."""
    e.store._from_browser(e.store, {"op": "hello", "stored": kept}, [])


def field(e: RosterEditor, name: str, key: str):
    return e.rows[e.roster.names().index(name)][e._keys.index(key)]


def test_one_row_per_fighter_under_headers_shown_once():
    e = editor()
    heads = [c.value for c in e.headers]
    # a group row (blank over Name and PC, "Attributes" over QUICK, blank over the ungrouped
    # rest), then one label per field
    assert heads[:7] == ["", "", "Attributes", "", "", "", ""] and len(e.headers) == 7 + 7
    assert [h.split(">")[1].split("<")[0] for h in heads[7:]] == [
        "Name", "PC", "QUICK", "Vitality", "Weapon", "Hardened armour", "Notes"]
    assert 'title="Vitality when unhurt"' in heads[10]
    assert len(e.grid.children) == len(e.headers) + 2 * 7
    assert [f.value for f in e.rows[0]] == ["Ada", True, 5, 10, "Sword", False, ""]
    assert field(e, "Bandit", "weapon").options == ("Sword", "Bow")
    assert field(e, "Bandit", "vitality").description == "Vitality of Bandit"
    assert field(e, "Bandit", "name").description == "Name of fighter 2"
    assert "grid_template_columns" in e.grid.layout.keys
    assert e.grid.layout.grid_template_columns.startswith("12em 2.2em ")


def test_a_field_change_is_one_roster_change_and_is_kept(monkeypatch):
    saves, seen = [], []
    e = editor(saves=saves, monkeypatch=monkeypatch)
    e.on_change(seen.append)
    field(e, "Bandit", "vitality").value = 4
    field(e, "Bandit", "weapon").value = "Sword"
    field(e, "Ada", "hardened").value = True
    field(e, "Ada", "pc").value = False
    assert e.roster.fighter("Bandit")["vitality"] == 4
    assert e.roster.fighter("Bandit")["weapon"] == "Sword"
    assert e.roster.fighter("Ada")["hardened"] and not e.roster.fighter("Ada").pc
    assert e.last_line == "Ada: PC yes → no"
    assert len(seen) == 4 and seen[-1] == e.roster
    assert Roster.from_json(TOY, saves[-1]) == e.roster
    assert "Download roster (JSON)" in e.transfer.link.value and "href" in e.transfer.link.value


def test_a_bad_value_shows_in_place_changes_nothing_and_clears_once_fixed(monkeypatch):
    saves = []
    e = editor(saves=saves, monkeypatch=monkeypatch)
    before = e.roster
    vit = field(e, "Bandit", "vitality")
    vit.value = 0
    assert e.error.message == "Vitality of Bandit must be a whole number from 1 to 30, got 0"
    assert "rulebook-roster-bad" in vit._dom_classes
    assert e.roster == before and saves == []
    # another field fixed meanwhile: the refused one stays named and marked
    field(e, "Ada", "quick").value = 4
    assert e.error.message.startswith("Vitality of Bandit") and "rulebook-roster-bad" in vit._dom_classes
    vit.value = 7
    assert e.error.message == "" and "rulebook-roster-bad" not in vit._dom_classes
    assert e.roster.fighter("Bandit")["vitality"] == 7


def test_renaming_in_place_and_refused_names():
    e = editor()
    name = field(e, "Bandit", "name")
    name.value = "Bo"
    assert e.roster.names() == ("Ada", "Bo") and e.last_line == "Bandit is now called Bo"
    assert field(e, "Bo", "quick").description == "QUICK of Bo"
    name.value = "Ada"
    assert e.error.message == "Name of Bo: there is already a fighter called 'Ada'"
    name.value = "  "
    assert e.error.message.startswith("Name of Bo must not be blank")
    assert e.roster.names() == ("Ada", "Bo")
    name.value = "Bob"
    assert e.error.message == "" and e.roster.names() == ("Ada", "Bob")


def test_add_duplicate_remove():
    e = editor()
    e.new_name.value = "Cy"
    e.new_pc.value = True
    e.add_button.click()
    assert e.roster.names()[-1] == "Cy" and e.roster.fighter("Cy").pc
    assert e.new_name.value == "" and e.pick.value == "Cy"
    assert len(e.grid.children) == len(e.headers) + 3 * 7
    e.pick.value = "Bandit"
    e.how_many.value = 3
    e.duplicate_button.click()
    assert e.roster.names() == ("Ada", "Bandit", "Bandit 2", "Bandit 3", "Bandit 4", "Cy")
    assert field(e, "Bandit 3", "weapon").value == "Bow"
    assert e.last_line == "3 copies of Bandit"
    e.pick.value = "Bandit 2"
    e.remove_button.click()
    assert e.roster.names() == ("Ada", "Bandit", "Bandit 3", "Bandit 4", "Cy")
    assert len(e.grid.children) == len(e.headers) + 5 * 7
    assert e.pick.value in e.roster.names()


@pytest.mark.parametrize("setup, message", [
    (lambda e: setattr(e.new_name, "value", "Ada"), "there is already a fighter called 'Ada'"),
    (lambda e: setattr(e.new_name, "value", " "), "Name must not be blank"),
])
def test_add_refusals_show_and_change_nothing(setup, message):
    e = editor()
    before = e.roster
    setup(e)
    e.add_button.click()
    assert message in e.error.message and e.roster == before


def test_duplicate_and_remove_refusals():
    e = editor()
    e.pick.value = "Ada"
    e.how_many.value = 0
    e.duplicate_button.click()
    assert e.error.message.startswith("How many copies of Ada must be a whole number from 1")
    e.how_many.value = 7
    e.duplicate_button.click()
    assert "has room for 6 more, got 7" in e.error.message and len(e.roster) == 2
    e.how_many.value = 1
    e.duplicate_button.click()
    assert e.error.message == "" and len(e.roster) == 3
    empty = editor(Roster(TOY))
    empty.remove_button.click()
    assert empty.error.message == "Remove: the roster has no fighter to remove"
    empty.duplicate_button.click()
    assert empty.error.message == "Duplicate: add a fighter first"


def test_the_browser_s_roster_is_loaded_without_a_click(monkeypatch):
    saves = []
    first = editor(Roster(TOY), saves, monkeypatch)
    browser_says(first, "")
    assert first.kept_note.value == ("No fighters yet: add them below. They are kept in this "
                                     "browser for every Toy Game chapter.")
    assert not is_shown(first.new_button)
    first.new_name.value = "Ada"
    first.add_button.click()
    first.pick.value = "Ada"
    first.how_many.value = 4
    first.duplicate_button.click()
    # the next chapter of the system: a new editor, the same key, the fighters are there
    seen = []
    nextpage = RosterEditor(TOY)
    nextpage.on_change(seen.append)
    assert nextpage.store.key == first.store.key == store_key("toy") == "rulebook-roster-toy"
    browser_says(nextpage, saves[-1])
    assert nextpage.roster.names() == ("Ada", "Ada 2", "Ada 3", "Ada 4", "Ada 5")
    assert nextpage.last_line == RESTORED and seen == [nextpage.roster]
    assert nextpage.kept_note.value.startswith("Fighters kept in this browser: 5")
    assert is_shown(nextpage.new_button)
    assert nextpage.new_button.description == "Start a new roster"


def test_a_starter_is_offered_as_an_example_until_the_first_change(monkeypatch):
    saves = []
    e = editor(saves=saves, monkeypatch=monkeypatch)
    browser_says(e, "")
    assert e.roster == party() and saves == []
    assert e.kept_note.value.startswith("These example fighters are not kept yet")
    assert "href" in e.transfer.link.value  # the example party can be downloaded already
    field(e, "Ada", "quick").value = 2
    assert e.kept_note.value.startswith("Fighters kept in this browser: 2") and len(saves) == 1


def test_start_a_new_roster_and_put_the_old_one_back(monkeypatch):
    saves = []
    e = editor(saves=saves, monkeypatch=monkeypatch)
    browser_says(e, party().to_json())
    e.new_button.click()
    assert len(e.roster) == 0 and Roster.from_json(TOY, saves[-1]) == Roster(TOY)
    assert "href" not in e.transfer.link.value  # nothing to download
    assert e.new_button.description == "Put back the 2 fighters"
    e.new_button.click()
    assert e.roster == party() and e.new_button.description == "Start a new roster"
    e.new_button.click()
    e.new_name.value = "Zed"
    e.add_button.click()
    assert e.new_button.description == "Start a new roster"
    assert e.roster.names() == ("Zed",)


def test_a_damaged_autosave_is_named_and_changes_nothing(monkeypatch):
    saves = []
    e = editor(saves=saves, monkeypatch=monkeypatch)
    bad = json.loads(party().to_json())
    bad["fighters"][0]["quick"] = 99
    browser_says(e, json.dumps(bad))
    assert e.roster == party() and saves == []
    assert "cannot be read" in e.kept_note.value
    assert "QUICK of Ada must be a whole number from 1 to 5, got 99" in e.kept_note.value
    field(e, "Ada", "quick").value = 2
    assert e.kept_note.value.startswith("Fighters kept in this browser: 2")


def test_a_reader_s_changes_before_the_browser_answers_are_not_overwritten():
    e = editor()
    field(e, "Ada", "quick").value = 1
    browser_says(e, Roster(TOY).add("Old").to_json())
    assert e.roster.names() == ("Ada", "Bandit") and e.roster.fighter("Ada")["quick"] == 1


def _file(content: bytes) -> tuple[dict, ...]:
    return ({"name": "roster.json", "type": "application/json", "size": len(content),
             "content": memoryview(content),
             "last_modified": datetime(2026, 1, 1, tzinfo=timezone.utc)},)


@pytest.mark.parametrize("content, message", [
    (b"{not json", "the file is not JSON"),
    (Roster(OTHER).to_json().encode(), "this file holds 'other_game' fighters"),
    (json.dumps({**json.loads(party().to_json()), "fighters": [
        {"name": "Ada", "pc": True}, {"name": "Ada", "pc": False}]}).encode(),
     "two fighters are called 'Ada'"),
    (b"\xff\xfe", "is not a UTF-8 text file"),
])
def test_a_refused_upload_changes_nothing_and_says_why(monkeypatch, content, message):
    saves = []
    e = editor(saves=saves, monkeypatch=monkeypatch)
    before = e.roster
    e.transfer.receive("roster.json", content)
    assert message in e.transfer.error.message
    assert e.transfer.error.message.startswith("The upload changed nothing")
    assert e.roster == before and saves == []


def test_a_good_upload_replaces_the_roster(monkeypatch):
    saves = []
    e = editor(Roster(TOY), saves, monkeypatch)
    text = party().duplicate("Bandit", 2).to_json()
    e.transfer.receive("roster.json", text.encode())
    assert e.roster.names() == ("Ada", "Bandit", "Bandit 2", "Bandit 3")
    assert e.transfer.error.message == "" and "Loaded roster" in e.transfer.status.value
    assert saves[-1] == text


def test_set_roster_quietly_and_wrong_formats():
    e = editor()
    seen = []
    e.on_change(seen.append)
    e.set_roster(Roster(TOY).add("Q"), notify=False)
    assert e.roster.names() == ("Q",) and seen == []
    with pytest.raises(RulesError, match="this editor keeps Toy Game fighters"):
        e.set_roster(Roster(OTHER))
    with pytest.raises(RulesError, match="starting roster must be a Toy Game roster"):
        RosterEditor(TOY, starter=Roster(OTHER))


def test_roster_finds_the_system_s_format(monkeypatch):
    with pytest.raises(RulesError, match="system must be one of"):
        roster("no_such_game")
    monkeypatch.delattr(vl, "ROSTER", raising=False)
    with pytest.raises(RulesError, match="declares no roster yet"):
        roster("veil_and_lead")
    monkeypatch.setattr(vl, "ROSTER", TOY, raising=False)
    e = roster("veil_and_lead")
    assert isinstance(e, RosterEditor) and e.format is TOY
    assert "rulebook-roster" in e._dom_classes
    assert roster_widgets.roster_format("veil_and_lead") is TOY


def test_static_book_shows_the_starter_and_keeps_nothing(monkeypatch):
    monkeypatch.setenv("RULEBOOK_TARGET", "static")
    e = editor()
    field(e, "Ada", "quick").value = 2
    assert e.roster.fighter("Ada")["quick"] == 2 and e.kept_note.value == ""


def test_a_hostile_name_is_shown_as_text_everywhere(monkeypatch):
    saves = []
    e = editor(Roster(TOY), saves, monkeypatch)
    evil = "<img src=x onerror=alert(1)>"
    e.new_name.value = evil
    e.add_button.click()
    assert e.roster.names() == (evil,)
    # descriptions and menu options are rendered as text by ipywidgets, never as HTML
    assert not field(e, evil, "quick").description_allow_html
    assert field(e, evil, "quick").description == f"QUICK of {evil}"
    field(e, evil, "quick").value = 9
    assert "<img" not in e.error.value and "&lt;img" in e.error.value
    e.new_name.value = evil
    e.add_button.click()
    assert "<img" not in e.error.value

ACTIONS = st.lists(st.one_of(
    st.tuples(st.just("field"), st.integers(0, 5), st.integers(0, 6),
              st.one_of(st.integers(-2, 40), st.booleans(), st.sampled_from(
                  ["Bow", "Gun", "", "Ada", "Bandit 2", "x" * 70]))),
    st.tuples(st.just("add"), st.sampled_from(["Ada", "Bo", " ", "Bandit"]), st.booleans()),
    st.tuples(st.just("duplicate"), st.integers(-1, 9)),
    st.tuples(st.just("remove")),
    st.tuples(st.just("new")),
), max_size=15)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ACTIONS)
def test_any_sequence_of_actions_keeps_the_table_and_the_roster_in_step(actions):
    e = editor()
    for action in actions:
        kind = action[0]
        if kind == "field" and action[1] < len(e.roster):
            row = e.rows[action[1]]
            widget = row[action[2]]
            try:
                widget.value = action[3]
            except Exception:  # a widget's own type check (a checkbox takes no text)
                continue
        elif kind == "add":
            e.new_name.value, e.new_pc.value = action[1], action[2]
            e.add_button.click()
        elif kind == "duplicate":
            e.how_many.value = action[1]
            e.duplicate_button.click()
        elif kind == "remove":
            e.remove_button.click()
        elif kind == "new":
            e.new_button.click()
        assert len(e.grid.children) == len(e.headers) + len(e.roster) * len(e._keys)
        assert e.pick.options == e.roster.names()
        for i, fighter in enumerate(e.roster.fighters):
            for key, widget in zip(e._keys, e.rows[i]):
                if (i, key) not in e._bad:
                    assert widget.value == fighter[key]
        if e._bad:  # a refused field stays named (or the latest refusal shows) until fixed
            assert e.error.message


def test_a_wide_roster_shows_one_group_of_columns_at_a_time_and_reaches_every_one():
    from rulescore.systems import percentile as pc
    e = RosterEditor(pc.ROSTER, starter=Roster(pc.ROSTER).add("Nolora").add("Brigand"))
    assert is_shown(e.columns_pick) and e.columns_pick.options == tuple(e.groups)
    # a group wider than a page is cut in two parts named by their first and last columns
    assert list(e.groups)[:2] == ["Skills (EML): Initiative–Slings",
                                  "Skills (EML): Throwing–Healing Base"]
    assert "Armour: Torso" in e.groups
    reached: list[str] = []
    for part, members in e.groups.items():
        e.columns_pick.value = part
        keys = [pc.ROSTER.columns[i].key for i in members]
        assert sum(roster_widgets._column_em(pc.ROSTER.column(k)) for k in keys) <= \
            roster_widgets.PART_EM
        labels = [h.value.split(">")[1].split("<")[0] for h in e.grid.children[:2 + len(keys)]]
        assert labels == ["Name", "PC", *(pc.ROSTER.column(k).label for k in keys)]
        # each row: its name (so a GM reads whose row it is), PC, then the part's fields
        assert e.grid.children[2 + len(keys)] is field(e, "Nolora", "name")
        assert list(e.grid.children[4 + len(keys):2 * (2 + len(keys))]) == [
            field(e, "Nolora", k) for k in keys]
        assert len(e.grid.children) == 3 * (2 + len(keys))
        assert len(e.grid.layout.grid_template_columns.split()) == 2 + len(keys)
        reached += keys
    assert reached == [c.key for c in pc.ROSTER.columns]  # every column, once, in order
    e.columns_pick.value = "Armour: Torso"
    field(e, "Brigand", "av_torso_e").value = 6
    assert e.roster.fighter("Brigand")["av_torso_e"] == 6
    # a narrow roster shows every column at once, no buttons
    assert editor().groups == {} and not is_shown(editor().columns_pick)
