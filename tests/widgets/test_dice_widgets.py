"""The dice chapter's widgets, driven in plain pytest by setting values and reading the output."""

import html
from fractions import Fraction

import pytest

from widgets.book import chapter_nav, landing_page, worked_odds, worked_roll
from widgets.common import ErrorLine, odds_html, steps_html
from rulescore.dice import parse
from widgets.dice import DiceRoller, OddsExplorer
from widgets.lean import is_shown


def test_roller_shows_exact_odds_before_rolling():
    r = DiceRoller("6d8kh2+5", target="15")
    assert r.error.message == ""
    assert "Chance of 15 or more: 31281/32768 (95.46%)" in r.odds.value
    assert "keep the highest 2" in r.reading.value


def test_roller_seeded_roll_replays():
    r = DiceRoller("4d6dl1")
    r.entry.roll(seed=99)
    first = r.last
    assert r.entry.seed.value == "99"
    assert f"Total <b>{first.total}</b>" in r.result.value
    r.entry.seed.value = "99"
    r.entry.replay()
    assert r.last.total == first.total and r.last.faces() == first.faces()
    assert "Rolled with seed 99" in r.explanation.value


def test_roll_button_picks_and_shows_a_new_seed():
    r = DiceRoller("3d6")
    r.entry.roll_button.click()
    seed = int(r.entry.seed.value)
    assert r.last.seed == seed
    assert r.last.total == parse("3d6").roll(seed=seed).total


def test_roller_typed_dice_and_verdict():
    r = DiceRoller("6d8kh2+5", target="21")
    r.entry.my_dice.value = "2, 3, 5, 6, 7, 8"
    r.entry.use_dice()
    assert r.last.total == 20
    assert "failure against 21" in r.result.value
    assert "kh2: kept 7, 8; dropped 2, 3, 5, 6" in r.explanation.value


@pytest.mark.parametrize("typed, message", [
    ("1, 2", "not enough dice"),
    ("1, 2, 3, 4", "too many dice"),
    ("1, 2, 9", "not on a d6"),
    ("1, two, 3", "got 'two'"),
    ("", "My dice is empty"),
])
def test_roller_bad_typed_dice_show_message(typed, message):
    r = DiceRoller("3d6")
    r.entry.my_dice.value = typed
    r.entry.use_dice()
    assert message in r.entry.error.message
    assert "Total" not in r.result.value


def test_roller_bad_expression_and_target():
    r = DiceRoller("2d6")
    r.expression.value = "3d6x"
    assert r.error.message.startswith("column 4 of '3d6x'")
    assert r.odds.value == ""
    r.entry.roll(seed=1)
    assert "Fix the dice expression" in r.entry.error.message
    r.expression.value = "3d6"
    r.target.value = "lots"
    assert "Target (total at least) must be a whole number, got 'lots'" in r.error.message
    r.target.value = "10"
    assert r.error.message == ""
    assert "Chance of 10 or more: 5/8 (62.50%)" in r.odds.value


def test_bad_seed_shows_message():
    r = DiceRoller("3d6")
    r.entry.seed.value = "abc"
    r.entry.replay()
    assert "Seed must be a whole number, got 'abc'" in r.entry.error.message
    r.expression.value = "2d6"                  # a new expression: the old roll's error goes
    assert r.entry.error.message == ""


def test_percentile_tens_and_ones():
    r = DiceRoller("2d6")
    assert r.entry.percentile_row is None                   # not built until a d100 needs it
    r.expression.value = "d%"
    assert is_shown(r.entry.percentile_row)
    assert r.entry.children[-2] is r.entry.percentile_row and r.entry.children[-1] is r.entry.error
    r.expression.value = "2d6"
    assert not is_shown(r.entry.percentile_row)
    r.expression.value = "d%"
    r.entry.tens.value, r.entry.ones.value = "00", "0"
    r.entry.use_tens_ones()
    assert r.last.total == 100
    r.entry.tens.value, r.entry.ones.value = "7", "3"
    r.entry.use_tens_ones()
    assert r.last.total == 73
    r.entry.tens.value = "75"
    r.entry.use_tens_ones()
    assert "tens die must show 00, 10" in r.entry.error.message


def test_odds_explorer_compares_two_expressions():
    o = OddsExplorer("3d6", "4d6kh3", "12")
    assert "3/8 (37.50%)" in o.summary.value
    assert "799/1296 (61.65%)" in o.summary.value
    o.second.value = ""
    assert "4d6kh3" not in o.summary.value and o.odds_second.value == ""
    o.first.value = "2d"
    assert "ends too early" in o.error.message


def test_odds_html_reports_truncated_mass_and_highlights_success():
    dist = parse("2d6!").distribution()
    page = odds_html(dist, lambda v: v >= 13, "x")
    assert "Exact up to 10 explosions a die" in page
    assert "#2e7d32" in page


def test_error_line_round_trip():
    e = ErrorLine()
    e.show("seed must be <b>")
    assert e.message == "seed must be <b>"
    assert "&lt;b&gt;" in e.value
    e.clear()
    assert e.message == ""


def test_steps_html_numbers_steps_with_rules():
    page = steps_html(parse("2d6+1").roll(dice=[3, 4]).trace)
    assert page.count("<li>") == 5 and "[dice §Rolling]" in page


def test_landing_page_lists_every_chapter():
    from rulebook.toc import load_book
    page = landing_page().data
    for chapter in load_book().chapters:
        assert f'href="{chapter.file}.ipynb"' in page
        assert html.escape(chapter.title) in page


def test_chapter_nav_links_contents(monkeypatch):
    page = chapter_nav("00_dice/dice").data
    assert 'href="../index.ipynb" target="_self"' in page    # the live page keeps one tab
    monkeypatch.setenv("RULEBOOK_TARGET", "static")
    page = chapter_nav("00_dice/dice").data
    assert 'href="../index.html"' in page
    assert "open this chapter live" in page


def test_worked_examples_return_results():
    assert worked_roll("6d8kh2+5", dice=[2, 3, 5, 6, 7, 8]).total == 20
    assert worked_odds("2d6", at_least=7).p_at_least(7) == Fraction(7, 12)


def test_table_html_prints_data_rows_and_source():
    from rulescore.tables import parse_tables
    from widgets.book import table_html
    table = parse_tables('''
[bands]
title = "Bands"
source = "§Test"
columns = ["total", "result"]
range_column = "total"
rows = [{total = "..4", result = "miss"}, {total = "5..", result = "hit <b>"}]
''')["bands"]
    page = table_html(table)
    assert "4 or less" in page and "5+" in page and "hit &lt;b&gt;" in page and "§Test" in page


# --- expressions too large for exact odds ---------------------------------------------------

@pytest.mark.parametrize("text, words", [
    ("100d200kh50", "keeping the highest 50 of 100 dice of 200 faces"),
    ("20d1000kh10", "Keep fewer dice (at most"),
    ("100d200dl1", "dropping the lowest 1 of 100 dice of 200 faces"),
])
def test_roller_refuses_odds_too_large_in_place_and_clears_the_old_ones(text, words):
    r = DiceRoller("6d8kh2+5", target="15")
    r.entry.roll(seed=4)
    assert "Chance of 15 or more" in r.odds.value and "Total <b>" in r.result.value
    r.expression.value = text
    assert r.error.message.startswith(f"{text} is too large to work out exactly: ")
    assert words in r.error.message
    assert r.error.message.endswith("You can still roll it below.")
    assert r.odds.value == ""                        # the old odds are gone
    assert "Total" not in r.result.value and r.explanation.value == ""
    assert "keep" in r.reading.value or "drop" in r.reading.value   # what it rolls, still
    r.entry.roll(seed=4)                             # rolling it is quick, so still allowed
    assert r.entry.error.message == ""
    assert r.last.total == parse(text).roll(seed=4).total
    assert f"Total <b>{r.last.total}</b>" in r.result.value
    r.expression.value = "2d6"                       # and a smaller one clears the message
    assert r.error.message == ""
    assert "Chance of 15 or more: 0 (0.00%)" in r.odds.value


def test_roller_shows_odds_of_kept_compounding_dice_of_many_faces():
    r = DiceRoller("1d90!!kh1", target="100")
    assert r.error.message == ""
    assert "Chance of 100 or more" in r.odds.value


def test_roller_syntax_error_clears_the_reading_and_disables_rolling():
    r = DiceRoller("3d6")
    r.expression.value = "3d6kh9"
    assert "kh9 keeps 9 of 3 dice" in r.error.message
    assert r.reading.value == "" and r.odds.value == ""
    r.entry.roll(seed=1)
    assert "Fix the dice expression" in r.entry.error.message


def test_explorer_refused_expression_clears_both_charts():
    o = OddsExplorer("3d6", "4d6kh3", "12")
    assert o.odds_first.value and o.odds_second.value
    o.second.value = "40d100kh20"
    assert o.error.message.startswith("40d100kh20 is too large to work out exactly: ")
    assert o.summary.value == "" and o.odds_first.value == "" and o.odds_second.value == ""
    o.second.value = "4d6kh3"
    assert o.error.message == "" and o.odds_second.value
