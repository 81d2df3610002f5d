"""The roster model (rulescore.roster): every change checked, every refusal naming the field by
its label and the fighter by name, and saved files read field by field from the declaration."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from rulescore import saved
from rulescore.errors import RulesError
from rulescore.roster import FILE_FORMAT, Column, Fighter, Roster, RosterFormat

TOY = RosterFormat("toy", (
    Column("quick", "QUICK", saved.Int(1, 5), 3, group="Attributes"),
    Column("vitality", "Vitality", saved.Int(1, 30), 10, help="Vitality when unhurt"),
    Column("weapon", "Weapon", saved.Text(20, choices=("Sword", "Bow")), "Sword"),
    Column("hardened", "Hardened armour", saved.Flag(), False),
    Column("notes", "Notes", saved.Text(40), ""),
), max_fighters=8, title="Toy Game")
OTHER = RosterFormat("other_game", (Column("quick", "QUICK", saved.Int(1, 5), 3),))


def party() -> Roster:
    return Roster(TOY).add("Ada", pc=True, quick=5).add("Bandit", vitality=6, weapon="Bow")


# -- the model ----------------------------------------------------------------------------------

def test_add_takes_defaults_and_keeps_column_order():
    r = party()
    assert r.names() == ("Ada", "Bandit")
    ada = r.fighter("Ada")
    assert ada.pc and ada["quick"] == 5 and ada["vitality"] == 10 and ada["weapon"] == "Sword"
    assert [k for k, _ in ada.values] == ["quick", "vitality", "weapon", "hardened", "notes"]
    assert ada.as_dict() == {"quick": 5, "vitality": 10, "weapon": "Sword", "hardened": False,
                             "notes": ""}
    assert TOY.blank("Zed") == Fighter("Zed", False, tuple((c.key, c.default)
                                                           for c in TOY.columns))


def test_names_are_trimmed_and_must_be_distinct_and_not_blank():
    assert Roster(TOY).add("  Ada ").names() == ("Ada",)
    with pytest.raises(RulesError, match="there is already a fighter called 'Ada'"):
        party().add("Ada ")
    with pytest.raises(RulesError, match="Name must not be blank"):
        party().add("   ")
    with pytest.raises(RulesError, match="Name must be at most 60 characters long, got 61"):
        party().add("x" * 61)


@pytest.mark.parametrize("key, value, message", [
    ("quick", 0, "QUICK of Bandit must be a whole number from 1 to 5, got 0"),
    ("quick", "3", "QUICK of Bandit must be a whole number from 1 to 5, got '3'"),
    ("quick", True, "QUICK of Bandit must be a whole number from 1 to 5, got true"),
    ("vitality", 10**40, "Vitality of Bandit must be a whole number from 1 to 30, got a number"),
    ("weapon", "Gun", "Weapon of Bandit must be one of 'Sword', 'Bow', got 'Gun'"),
    ("hardened", 1, "Hardened armour of Bandit must be true or false, got 1"),
    ("notes", "x" * 41, "Notes of Bandit must be at most 40 characters long, got 41"),
    ("pc", "yes", "PC of Bandit must be true or false, got 'yes'"),
    ("speed", 3, "has no field 'speed'"),
])
def test_set_refuses_naming_the_label_and_the_fighter(key, value, message):
    r = party()
    with pytest.raises(RulesError) as refused:
        r.set("Bandit", key, value)
    assert message in str(refused.value)


def test_set_update_rename_remove():
    r = party().set("Bandit", "vitality", 4).set("Bandit", "pc", True)
    assert r.fighter("Bandit")["vitality"] == 4 and r.fighter("Bandit").pc
    r = r.update("Ada", quick=1, hardened=True)
    assert (r.fighter("Ada")["quick"], r.fighter("Ada")["hardened"]) == (1, True)
    with pytest.raises(RulesError, match="QUICK of Ada must be"):
        r.update("Ada", vitality=5, quick=9)
    r = r.rename("Bandit", "Bo")
    assert r.names() == ("Ada", "Bo") and r.fighter("Bo")["vitality"] == 4
    with pytest.raises(RulesError, match="Name of Bo: there is already a fighter called 'Ada'"):
        r.rename("Bo", "Ada")
    assert r.rename("Bo", "Bo").names() == r.names()
    assert r.remove("Ada").names() == ("Bo",)
    with pytest.raises(RulesError, match=r"no fighter called 'Cy' in the roster \(it has Ada, Bo\)"):
        r.remove("Cy")
    with pytest.raises(RulesError, match="no fighter called 'Cy' in the roster "
                                         r"\(it has no one yet\)"):
        Roster(TOY).fighter("Cy")


def test_duplicate_numbers_on_from_the_highest_and_keeps_the_group_together():
    r = party().duplicate("Bandit", 2)
    assert r.names() == ("Ada", "Bandit", "Bandit 2", "Bandit 3")
    assert all(r.fighter(n)["vitality"] == 6 for n in ("Bandit 2", "Bandit 3"))
    r = r.add("Cy").remove("Bandit 2").duplicate("Bandit 3")
    assert r.names() == ("Ada", "Bandit", "Bandit 3", "Bandit 4", "Cy")
    r = r.duplicate("Ada")
    assert r.names()[:2] == ("Ada", "Ada 2") and r.fighter("Ada 2").pc


def test_duplicate_refuses_a_bad_count_and_a_full_roster_and_fits_long_names():
    with pytest.raises(RulesError, match="How many copies of Ada must be a whole number from 1"):
        party().duplicate("Ada", 0)
    with pytest.raises(RulesError, match="has room for 6 more, got 7"):
        party().duplicate("Ada", 7)
    assert len(party().duplicate("Ada", 6)) == 8
    with pytest.raises(RulesError, match="the roster is full: it holds at most 8 fighters"):
        party().duplicate("Ada", 6).add("Cy")
    long = Roster(TOY).add("x" * 60).duplicate("x" * 60)
    assert long.names()[1] == "x" * 58 + " 2"


def test_a_roster_built_by_hand_is_checked_too():
    good = party()
    with pytest.raises(RulesError, match="there is already a fighter called 'Ada'"):
        Roster(TOY, good.fighters + (good.fighters[0],))
    bad = Fighter("Zed", False, (("quick", 9),))
    with pytest.raises(RulesError, match="Zed's fields must be those of a Toy Game fighter"):
        Roster(TOY, (bad,))


def test_a_format_is_checked_when_declared():
    with pytest.raises(RulesError, match="the default must be a whole number from 1 to 5"):
        Column("quick", "QUICK", saved.Int(1, 5), 9)
    with pytest.raises(RulesError, match="a word other than name and pc"):
        Column("name", "Name", saved.Text(10), "")
    with pytest.raises(RulesError, match="distinct keys and labels"):
        RosterFormat("toy", (Column("a", "A", saved.Flag(), False),
                             Column("b", "A", saved.Flag(), False)))
    assert TOY.column("weapon").label == "Weapon"
    with pytest.raises(RulesError, match="a Toy Game fighter has no field 'gun'"):
        TOY.column("gun")


# -- saved files --------------------------------------------------------------------------------

def test_a_roster_round_trips_through_its_file():
    r = party().duplicate("Bandit", 2).set("Ada", "notes", "<b>brave</b> & \"bold\"")
    assert Roster.from_json(TOY, r.to_json()) == r
    assert Roster.from_json(TOY, Roster(TOY).to_json()) == Roster(TOY)


def file_with(change) -> str:
    data = json.loads(party().to_json())
    change(data)
    return json.dumps(data)


def _put(path, value):
    def change(data):
        *parents, last = path
        for key in parents:
            data = data[key]
        data[last] = value
    return change


@pytest.mark.parametrize("path, value, message", [
    (("fighters", 1, "vitality"), 0, "roster: Vitality of Bandit must be a whole number from "
                                     "1 to 30, got 0"),
    (("fighters", 1, "vitality"), "6", "Vitality of Bandit must be a whole number"),
    (("fighters", 0, "quick"), 10**14, "QUICK of Ada must be a whole number from 1 to 5, got "
                                       "100000000000000"),
    (("fighters", 0, "weapon"), "<img src=x onerror=alert(1)>",
     "Weapon of Ada must be one of 'Sword', 'Bow', got '<img src=x onerror=alert(1)>'"),
    (("fighters", 0, "pc"), "true", "PC of Ada must be true or false, got 'true'"),
    (("fighters", 0, "colour"), "red", "fighters[1] has a field this book does not know: "
                                       "'colour'"),
    (("fighters", 1, "name"), "", "fighters[2].name must be a non-empty text"),
    (("fighters", 1, "name"), "Ada", "two fighters are called 'Ada' (fighters 1 and 2)"),
    (("fighters", 1, "name"), " Ada ", "two fighters are called 'Ada' (fighters 1 and 2)"),
    (("fighters", 1, "name"), 7, "fighters[2].name must be text, got 7"),
    (("fighters", 1, "name"), "x" * 61, "fighters[2].name must be at most 60 characters"),
    (("fighters", 1), "Bandit", "fighters[2] must be an object, got 'Bandit'"),
    (("fighters",), {"Ada": {}}, "fighters must be a list, got an object"),
    (("fighters",), [{"name": f"N{i}", "pc": False} for i in range(9)],
     "fighters must hold at most 8 entries, got 9"),
    (("version",), 2, "the file is version 2; this book reads version 1"),
    (("format",), "encounter", "the file is not a roster file"),
    (("system",), "other_game", "this file holds 'other_game' fighters; this page keeps Toy "
                                "Game fighters ('toy')"),
    (("system",), 5, "system must be text, got 5"),
    (("extra",), 1, "has a field this book does not know: 'extra'"),
])
def test_a_damaged_file_is_refused_naming_the_field(path, value, message):
    with pytest.raises(RulesError) as refused:
        Roster.from_json(TOY, file_with(_put(path, value)))
    assert message in str(refused.value)
    assert str(refused.value).startswith("roster: ")


def test_missing_fields_older_files_and_another_system():
    data = json.loads(party().to_json())
    del data["fighters"][1]["notes"]  # a column added after the file was saved
    assert Roster.from_json(TOY, json.dumps(data)).fighter("Bandit")["notes"] == ""
    del data["fighters"][1]["pc"]
    with pytest.raises(RulesError, match=r"fighters\[2\] is missing the field 'pc'"):
        Roster.from_json(TOY, json.dumps(data))
    with pytest.raises(RulesError, match="this file holds 'toy' fighters; this page keeps "
                                         "other game fighters"):
        Roster.from_json(OTHER, party().to_json())


@pytest.mark.parametrize("text, message", [
    ("", "roster: the file is not JSON"),
    ("[" * 5000 + "]" * 5000, "nested more than 16 levels deep"),
    ('{"format": "rulebook roster", "version": 1, "system": "toy", "fighters": [{"name": "A",'
     ' "pc": false, "quick": 1' + "0" * 40 + "}]}", "a number 41 digits long"),
    ("x" * 1_000_001, "the file is 1.1 MB"),
    ("[1, 2]", "the file is not a roster file: it holds a list of 2"),
    (b"{}", "the file must be text"),
])
def test_hostile_text_is_refused(text, message):
    with pytest.raises(RulesError) as refused:
        Roster.from_json(TOY, text)
    assert message in str(refused.value)


# -- property: any file is a roster or a RulesError ---------------------------------------------

def _value_for(spec: object) -> st.SearchStrategy:
    """Values a field of *spec* allows, and some it does not (of every JSON kind)."""
    wrong = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20),
                      st.text(max_size=70), st.lists(st.integers(), max_size=3),
                      st.dictionaries(st.text(max_size=5), st.integers(), max_size=2))
    if isinstance(spec, saved.Int):
        good = st.integers(spec.minimum, spec.maximum)
    elif isinstance(spec, saved.Flag):
        good = st.booleans()
    elif isinstance(spec, saved.Text) and spec.choices:
        good = st.sampled_from(spec.choices)
    else:
        good = st.text(max_size=getattr(spec, "max_length", 20))
    return st.one_of(good, good, wrong)


def _fighter() -> st.SearchStrategy:
    """A fighter object built from the declaration, fields sometimes dropped or foreign."""
    fields = TOY.declaration.body.fields["fighters"].item.fields
    names = st.one_of(st.sampled_from(["Ada", "Bo", "Bo ", "Bandit 2"]), st.text(max_size=70))
    entries = {key: (names if key == "name" else _value_for(spec))
               for key, spec in fields.items()}
    return st.fixed_dictionaries({}, optional={**entries, "colour": st.text(max_size=3)})


FILES = st.fixed_dictionaries(
    {"format": st.sampled_from([FILE_FORMAT, FILE_FORMAT, "encounter"]),
     "version": st.sampled_from([1, 1, 2]),
     "system": st.sampled_from(["toy", "toy", "other_game", 3]),
     "fighters": st.one_of(st.lists(_fighter(), max_size=10), st.text(max_size=3))})


@settings(max_examples=300, deadline=None)
@given(FILES)
def test_any_file_gives_a_roster_or_a_rules_error(data):
    try:
        r = Roster.from_json(TOY, json.dumps(data))
    except RulesError as exc:
        assert str(exc).startswith("roster: ")
        return
    assert isinstance(r, Roster) and len(set(r.names())) == len(r)
    assert Roster.from_json(TOY, r.to_json()) == r


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["add", "set", "remove", "duplicate", "rename"]),
                          st.sampled_from(["Ada", "Bo", "Bo 2", ""]),
                          st.sampled_from(["quick", "vitality", "weapon", "pc", "speed"]),
                          st.one_of(st.integers(-3, 40), st.booleans(), st.text(max_size=4))),
                max_size=20))
def test_any_sequence_of_changes_gives_a_valid_roster_or_a_rules_error(steps):
    r = Roster(TOY)
    for op, name, key, value in steps:
        try:
            if op == "add":
                r = r.add(name)
            elif op == "set":
                r = r.set(name, key, value)
            elif op == "remove":
                r = r.remove(name)
            elif op == "duplicate":
                r = r.duplicate(name, value if isinstance(value, int) else 1)
            else:
                r = r.rename(name, str(value))
        except RulesError:
            continue
        assert Roster.from_json(TOY, r.to_json()) == r
