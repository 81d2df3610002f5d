"""Data tables: parsing, validation with clear messages, lookups, display, and tables as data."""

import dataclasses

import pytest

from rulescore import RulesError
from rulescore.errors import TableError
from rulescore.tables import Span, Table, load_tables, parse_span, parse_tables

HEAD = '''
[bands]
title = "Hit bands"
source = "§Hit rolls"
columns = ["total", "result"]
range_column = "total"
'''


def band_table(*rows, covers=None, head=HEAD):
    text = head
    if covers is not None:
        text += f"covers = {covers}\n"
    for total, result in rows:
        text += f'[[bands.rows]]\ntotal = {total}\nresult = "{result}"\n'
    return text


GOOD = band_table(('"..0"', "none"), ('"1-5"', "miss"), ("6", "graze"), ('"7..16"', "hit"),
                  ('"17.."', "crit"), covers='["..", ".."]')


def bands(text=GOOD):
    return parse_tables(text)["bands"]


def error(text):
    with pytest.raises(TableError) as info:
        parse_tables(text, "test.toml")
    assert isinstance(info.value, RulesError)
    return str(info.value)


# --- valid tables --------------------------------------------------------------------------------

@pytest.mark.parametrize("n, result", [
    (-1000, "none"), (-1, "none"), (0, "none"), (1, "miss"), (3, "miss"), (5, "miss"),
    (6, "graze"), (7, "hit"), (16, "hit"), (17, "crit"), (10 ** 9, "crit"),
])
def test_lookup(n, result):
    assert bands().lookup(n)["result"] == result


def test_table_fields():
    t = bands()
    assert isinstance(t, Table)
    assert (t.name, t.title, t.source, t.columns, t.range_column) == (
        "bands", "Hit bands", "§Hit rolls", ("total", "result"), "total")
    assert len(t) == 5
    assert [r["result"] for r in t] == ["none", "miss", "graze", "hit", "crit"]
    assert [r.span for r in t] == [Span(None, 0), Span(1, 5), Span(6, 6), Span(7, 16),
                                   Span(17, None)]
    assert t.rows[2]["total"] == 6
    assert t.rows[1]["total"] == "1-5"


def test_rows_read_by_column():
    row = bands().lookup(3)
    assert row["result"] == "miss"
    assert row.get("result") == "miss"
    assert row.get("nope") is None and row.get("nope", 7) == 7
    assert row.as_dict() == {"total": "1-5", "result": "miss"}
    with pytest.raises(KeyError):
        row["nope"]


def test_tables_are_frozen():
    t = bands()
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.title = "x"
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.rows[0].span = Span(1, 1)


def test_title_defaults_to_name():
    text = '[plain]\nsource = "§1"\ncolumns = ["a"]\n[[plain.rows]]\na = 1\n'
    assert parse_tables(text)["plain"].title == "plain"


def test_several_tables_and_top_level_values():
    text = 'version = 2\n' + GOOD + '''
[weapons]
source = "§Weapons"
columns = ["name", "damage"]
[[weapons.rows]]
name = "Sabre"
damage = 3
[[weapons.rows]]
name = "Pistol"
damage = 4
'''
    tables = parse_tables(text)
    assert sorted(tables) == ["bands", "weapons"]
    assert tables["weapons"].find("name", "Pistol")["damage"] == 4
    assert tables["weapons"].range_column is None


def test_covers_exact_span():
    text = band_table(('"1-5"', "a"), ('"6-10"', "b"), covers="[1, 10]")
    assert bands(text).lookup(10)["result"] == "b"
    text = band_table(('"1-5"', "a"), ('"6.."', "b"), covers='[1, ".."]')
    assert bands(text).lookup(99)["result"] == "b"


def test_lookup_off_the_table():
    t = bands(band_table(('"1-5"', "a"), ('"6-10"', "b"), covers="[1, 10]"))
    with pytest.raises(TableError) as info:
        t.lookup(11)
    assert str(info.value) == ("total 11 is not on the table 'Hit bands' "
                               "(its rows cover 1–5, 6–10)")
    with pytest.raises(TableError, match="total 0 is not on the table"):
        t.lookup(0)


@pytest.mark.parametrize("n", ["3", 3.0, None, True])
def test_lookup_needs_a_whole_number(n):
    with pytest.raises(TableError, match=r"total must be a whole number to look up in 'Hit bands'"):
        bands().lookup(n)


def test_lookup_without_range_column():
    t = parse_tables('[w]\nsource = "§1"\ncolumns = ["a"]\n[[w.rows]]\na = 1\n')["w"]
    with pytest.raises(TableError, match="table 'w' has no range column to look up 3 in"):
        t.lookup(3)


def test_find_lists_the_choices():
    t = bands()
    assert t.find("result", "hit").span == Span(7, 16)
    with pytest.raises(TableError) as info:
        t.find("result", "miss!")
    assert str(info.value) == ("result must be one of 'none', 'miss', 'graze', 'hit', 'crit', "
                               "got 'miss!'")


def test_display_rows():
    assert bands().display_rows() == [
        {"total": "0 or less", "result": "none"},
        {"total": "1–5", "result": "miss"},
        {"total": "6", "result": "graze"},
        {"total": "7–16", "result": "hit"},
        {"total": "17+", "result": "crit"},
    ]


def test_display_rows_without_range_column_are_strings():
    text = '[w]\nsource = "§1"\ncolumns = ["name", "dmg"]\n[[w.rows]]\nname = "Sabre"\ndmg = 3\n'
    assert parse_tables(text)["w"].display_rows() == [{"name": "Sabre", "dmg": "3"}]


SHOWN = ('[w]\nsource = "§1"\ncolumns = ["name", "tn"]\n{shown}'
         '[[w.rows]]\nname = "Rest"\ntn = 0\n[[w.rows]]\nname = "Surgery"\ntn = 15\n')


def test_shown_as_words_a_special_value_for_the_reader_only():
    t = parse_tables(SHOWN.format(shown='[w.shown_as]\ntn = { "0" = "no check" }\n'))["w"]
    assert t.display_rows() == [{"name": "Rest", "tn": "no check"},
                                {"name": "Surgery", "tn": "15"}]
    assert t.find("name", "Rest")["tn"] == 0                # the engine still reads the number


@pytest.mark.parametrize("shown, message", [
    ('[w.shown_as]\ntn = "none"\n', "shown_as must map a column to {value = words}"),
    ('[w.shown_as]\ntn = { "0" = 1 }\n', "shown_as must map a column to {value = words}"),
    ('[w.shown_as]\ndmg = { "0" = "none" }\n', "shown_as names ['dmg'], which are not columns"),
])
def test_shown_as_is_checked(shown, message):
    with pytest.raises(TableError) as info:
        parse_tables(SHOWN.format(shown=shown))
    assert message in str(info.value)



def test_headings_title_a_printed_column_and_words_read_a_value():
    t = parse_tables(SHOWN.format(shown='[w.shown_as]\ntn = { "0" = "no check" }\n'
                                        '[w.headings]\ntn = "Medicine TN"\n'))["w"]
    assert (t.heading("tn"), t.heading("name")) == ("Medicine TN", None)
    assert (t.words("tn", 0), t.words("tn", 15), t.words("name", "Rest")) == \
        ("no check", "15", "Rest")


@pytest.mark.parametrize("headings, message", [
    ('[w.headings]\ntn = 3\n', "headings must map a column to its heading text"),
    ('[w.headings]\ntn = " "\n', "headings must map a column to its heading text"),
    ('[w.headings]\ndmg = "Damage"\n', "headings names ['dmg'], which are not columns"),
])
def test_headings_are_checked(headings, message):
    with pytest.raises(TableError) as info:
        parse_tables(SHOWN.format(shown=headings))
    assert message in str(info.value)


# --- ranges --------------------------------------------------------------------------------------

@pytest.mark.parametrize("value, span", [
    (7, Span(7, 7)), (-2, Span(-2, -2)), ("1-5", Span(1, 5)), ("1 – 5", Span(1, 5)),
    ("3..8", Span(3, 8)), ("17..", Span(17, None)), ("..0", Span(None, 0)),
    ("-5..-1", Span(-5, -1)), (" 2 .. 4 ", Span(2, 4)), ("4-4", Span(4, 4)),
])
def test_parse_span(value, span):
    assert parse_span(value, "here") == span


@pytest.mark.parametrize("value", ["abc", "..", "", "1-", "-5-3", "1..2..3", 1.5, True, None,
                                   [1, 2], "1,5"])
def test_bad_ranges(value):
    with pytest.raises(TableError) as info:
        parse_span(value, "table 't' row 2")
    assert str(info.value) == (f"table 't' row 2: '{value}' is not a range "
                               "(use 7, '1-5', '3..8', '17..' or '..0')")


@pytest.mark.parametrize("value", ["5-1", "8..3"])
def test_backwards_ranges(value):
    with pytest.raises(TableError, match=f"table 't' row 2: range '{value}' runs backwards"):
        parse_span(value, "table 't' row 2")


@pytest.mark.parametrize("span, text", [
    (Span(3, 3), "3"), (Span(1, 5), "1–5"), (Span(None, 0), "0 or less"), (Span(17, None), "17+"),
])
def test_span_text(span, text):
    assert str(span) == text


def test_span_contains():
    assert 5 in Span(1, 5) and 6 not in Span(1, 5)
    assert -10 ** 9 in Span(None, 0) and 1 not in Span(None, 0)
    assert 10 ** 9 in Span(17, None) and 16 not in Span(17, None)


# --- invalid tables ------------------------------------------------------------------------------

def test_gap():
    msg = error(band_table(('"1-5"', "a"), ('"7-10"', "b")))
    assert msg == "table 'bands': gap between 1–5 and 7–10 (6 is on no row)"


def test_gap_found_whatever_the_row_order():
    msg = error(band_table(('"7-10"', "b"), ('"1-5"', "a")))
    assert msg == "table 'bands': gap between 1–5 and 7–10 (6 is on no row)"


@pytest.mark.parametrize("rows, pair", [
    ([('"1-5"', "a"), ('"5-10"', "b")], "1–5 and 5–10"),
    ([('"1-5"', "a"), ("3", "b")], "1–5 and 3"),
    ([('"..5"', "a"), ('"..10"', "b")], "5 or less and 10 or less"),
    ([('"1.."', "a"), ('"20-30"', "b")], "1+ and 20–30"),
    ([("4", "a"), ("4", "b")], "4 and 4"),
])
def test_overlap(rows, pair):
    assert error(band_table(*rows)) == f"table 'bands': ranges {pair} overlap"


@pytest.mark.parametrize("covers, have, want", [
    ("[1, 20]", "1–10", "1–20"),
    ("[0, 10]", "1–10", "0–10"),
    ('[1, ".."]', "1–10", "1+"),
    ('["..", 10]', "1–10", "10 or less"),
])
def test_covers_mismatch(covers, have, want):
    msg = error(band_table(('"1-5"', "a"), ('"6-10"', "b"), covers=covers))
    assert msg == f"table 'bands': ranges cover {have}, must cover {want}"


@pytest.mark.parametrize("covers", ["[1]", "[1, 2, 3]", '[1, "x"]', "5", "[1.5, 10]",
                                    "[true, 10]"])
def test_covers_malformed(covers):
    msg = error(band_table(('"1-5"', "a"), covers=covers))
    assert msg.startswith("table 'bands': covers must be [low, high] (whole numbers, '..' "
                          "for an open end), got ")


def test_bad_range_cell_names_table_and_row():
    msg = error(band_table(('"1-5"', "a"), ('"six"', "b")))
    assert msg == ("table 'bands' row 2: 'six' is not a range "
                   "(use 7, '1-5', '3..8', '17..' or '..0')")
    msg = error(band_table(('"1-5"', "a"), ('"9-6"', "b")))
    assert msg == "table 'bands' row 2: range '9-6' runs backwards"


def test_missing_column():
    text = HEAD + '[[bands.rows]]\ntotal = 1\nresult = "a"\n[[bands.rows]]\ntotal = 2\n'
    assert error(text) == ("table 'bands' row 2: missing columns ['result'] "
                           "(the columns are ['total', 'result'])")


def test_unknown_column():
    text = HEAD + '[[bands.rows]]\ntotal = 1\nresult = "a"\nresul = "typo"\n'
    assert error(text) == ("table 'bands' row 1: unknown columns ['resul'] "
                           "(the columns are ['total', 'result'])")


def test_missing_and_unknown_column():
    text = HEAD + '[[bands.rows]]\ntotal = 1\nresul = "typo"\n'
    assert error(text) == ("table 'bands' row 1: missing columns ['result'], unknown columns "
                           "['resul'] (the columns are ['total', 'result'])")


@pytest.mark.parametrize("key", ["source", "columns", "rows"])
def test_missing_required_key(key):
    spec = {"source": 'source = "§1"', "columns": 'columns = ["a"]',
            "rows": '[[t.rows]]\na = 1'}
    text = "[t]\n" + "\n".join(v for k, v in spec.items() if k != key) + "\n"
    assert error(text) == f"table 't' is missing '{key}'"


def test_no_rows():
    assert error('[t]\nsource = "§1"\ncolumns = ["a"]\nrows = []\n') == "table 't' has no rows"


def test_range_column_not_a_column():
    text = '[t]\nsource = "§1"\ncolumns = ["a"]\nrange_column = "roll"\n[[t.rows]]\na = 1\n'
    assert error(text) == "table 't': range_column 'roll' is not a column"


@pytest.mark.parametrize("columns", ['"ab"', "[]", "[1, 2]", "5"])
def test_columns_malformed(columns):
    text = f'[t]\nsource = "§1"\ncolumns = {columns}\n[[t.rows]]\na = 1\n'
    assert error(text).startswith("table 't': columns must be a list of column names, got ")


@pytest.mark.parametrize("rows", ["5", "[1, 2]", '"a"'])
def test_rows_malformed(rows):
    text = f'[t]\nsource = "§1"\ncolumns = ["a"]\nrows = {rows}\n'
    assert error(text) == "table 't': rows must be written as [[t.rows]] tables"


@pytest.mark.parametrize("text", ['[t\nsource = "x"', "a = ", '[t]\n[t]\n'])
def test_invalid_toml(text):
    msg = error(text)
    assert msg.startswith("test.toml is not valid TOML: ")


# --- tables are data -----------------------------------------------------------------------------

def test_editing_a_copy_of_a_table_changes_the_answer(tmp_path):
    original = tmp_path / "bands.toml"
    original.write_text(GOOD, encoding="utf-8")
    assert load_tables(original)["bands"].lookup(6)["result"] == "graze"
    assert load_tables(original)["bands"].lookup(17)["result"] == "crit"

    edited = tmp_path / "bands_edited.toml"
    edited.write_text(original.read_text(encoding="utf-8")
                      .replace('total = 6\nresult = "graze"', 'total = 6\nresult = "glancing"')
                      .replace('"7..16"', '"7..18"').replace('"17.."', '"19.."'),
                      encoding="utf-8")
    changed = load_tables(edited)["bands"]
    assert changed.lookup(6)["result"] == "glancing"
    assert changed.lookup(17)["result"] == "hit"
    assert changed.lookup(19)["result"] == "crit"
    # the original file still gives its own answers
    assert load_tables(original)["bands"].lookup(17)["result"] == "crit"


def test_a_broken_copy_is_refused_on_load(tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text(GOOD.replace('"7..16"', '"8..16"'), encoding="utf-8")
    with pytest.raises(TableError,
                       match=r"table 'bands': gap between 6 and 8–16 \(7 is on no row\)"):
        load_tables(broken)


def test_load_names_the_file_when_toml_is_invalid(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[bands\n", encoding="utf-8")
    with pytest.raises(TableError, match=f"{bad} is not valid TOML"):
        load_tables(bad)
