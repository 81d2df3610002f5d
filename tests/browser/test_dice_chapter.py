"""The served dice chapter, used as a reader would: type, roll, replay, type own dice, err.
The roll and replay, the typed dice and the error run against the live book and against the
static book, whose Python runs in the page (static_book.Book)."""

import re

import pytest
from playwright.sync_api import Page, expect

from rulescore.dice import parse
from tests.browser.reader import controls, open_chapter, set_value

CHAPTER = "00_dice/dice"
BOTH_BOOKS = pytest.mark.parametrize("book", ["live", "static"], indirect=True)


def _roller(page: Page):
    roller = page.locator(".rulebook-dice-roller").first
    expect(roller.get_by_label("Dice expression")).to_be_visible(timeout=60_000)
    return roller


def _open_roller(page: Page, book_url: str):
    open_chapter(page, f"{book_url}/{CHAPTER}.ipynb")
    return _roller(page)


def _total(roller) -> int:
    text = roller.locator(".rulebook-total").inner_text()
    return int(re.search(r"Total (\d+)", text).group(1))


def test_landing_page_links_the_dice_chapter(page: Page, book_url):
    open_chapter(page, f"{book_url}/index.ipynb")
    link = page.get_by_role("link", name="Dice, seeds and exact odds")
    expect(link).to_be_visible(timeout=60_000)
    link.click()
    expect(page.get_by_role("heading", name=re.compile("^Dice, seeds and exact odds"))).to_be_visible()


@BOTH_BOOKS
def test_roll_with_seed_and_replay(page: Page, book):
    book.open(page, CHAPTER)
    roller = _roller(page)
    set_value(roller.get_by_label("Dice expression"), "3d6+2")
    set_value(roller.get_by_label("Target (total at least)"), "12")
    expect(roller.get_by_text("Chance of 12 or more: 5/8 (62.50%)")).to_be_visible()

    roller.get_by_role("button", name="Roll", exact=True).click()
    expect(roller.locator(".rulebook-total")).to_be_visible()
    seed = roller.get_by_label("Seed", exact=True).input_value()
    assert seed.isdigit(), repr(seed)
    first = _total(roller)
    assert 5 <= first <= 20
    steps = roller.locator(".rulebook-trace").inner_text()
    assert f"Rolled with seed {seed}" in steps

    roller.get_by_role("button", name="Roll", exact=True).click()
    expect(roller.locator(".rulebook-trace")).not_to_contain_text(f"seed {seed}:")
    roller.get_by_label("Seed", exact=True).fill(seed)
    roller.get_by_role("button", name="Replay seed").click()
    expect(roller.locator(".rulebook-trace")).to_contain_text(f"Rolled with seed {seed}")
    assert _total(roller) == first
    # The explanation updates a moment after the total: wait for its first line, then compare.
    expect(roller.locator(".rulebook-trace")).to_contain_text(steps.splitlines()[0])
    assert roller.locator(".rulebook-trace").inner_text() == steps


@BOTH_BOOKS
def test_type_my_dice(page: Page, book):
    book.open(page, CHAPTER)
    roller = _roller(page)
    set_value(roller.get_by_label("Dice expression"), "3d6+2")
    roller.get_by_label("My dice").fill("1, 2, 3")
    roller.get_by_role("button", name="Use my dice").click()
    expect(roller.locator(".rulebook-total")).to_contain_text("Total 8")
    expect(roller.locator(".rulebook-trace")).to_contain_text("3d6: rolled 1, 2, 3")

    roller.get_by_label("My dice").fill("1, 2, 9")
    roller.get_by_role("button", name="Use my dice").click()
    expect(roller.get_by_role("alert")).to_contain_text("die value 3 (9) is not on a d6")


@BOTH_BOOKS
def test_bad_notation_says_where(page: Page, book):
    book.open(page, CHAPTER)
    roller = _roller(page)
    set_value(roller.get_by_label("Dice expression"), "3d6x")
    expect(roller.get_by_role("alert")).to_contain_text(
        "column 4 of '3d6x': unexpected 'x'")
    set_value(roller.get_by_label("Dice expression"), "2d6")
    expect(roller.get_by_role("alert")).to_have_count(0)


def test_odds_explorer_compares(page: Page, book_url):
    open_chapter(page, f"{book_url}/00_dice/dice.ipynb")
    explorer = page.locator(".rulebook-odds-explorer")
    expect(explorer.get_by_label("First expression")).to_be_visible(timeout=60_000)
    set_value(explorer.get_by_label("Target (total at least)"), "15")
    expect(explorer.locator(".rulebook-compare")).to_contain_text("5/54 (9.26%)")


def test_served_pages_need_no_other_host(page: Page, book_url, external_requests):
    for path, drawn in (("index.ipynb", "nav.rulebook-contents"),
                        ("00_dice/dice.ipynb", ".rulebook-dice-roller .widget-html")):
        open_chapter(page, f"{book_url}/{path}")
        expect(page.locator(drawn).first).to_be_attached(timeout=60_000)
        page.wait_for_load_state("networkidle")
    assert external_requests == []


# -- every input of every tool in the chapter ---------------------------------------------------

DICE_ROLLER_INPUTS = [("textbox", "Dice expression"), ("textbox", "Target (total at least)"),
                      ("button", "Roll"), ("textbox", "Seed"), ("button", "Replay seed"),
                      ("textbox", "My dice"), ("button", "Use my dice")]
PERCENTILE_INPUTS = [("textbox", "Tens die (00–90)"), ("textbox", "Ones die (0–9)"),
                     ("button", "Use tens and ones")]


def test_every_input_has_a_label(page: Page, book_url):
    open_chapter(page, f"{book_url}/00_dice/dice.ipynb")
    rollers = page.locator(".rulebook-dice-roller")
    expect(rollers.nth(1).get_by_label("Tens die (00–90)")).to_be_visible(timeout=60_000)
    assert controls(rollers.nth(0)) == DICE_ROLLER_INPUTS
    assert controls(rollers.nth(1)) == DICE_ROLLER_INPUTS + PERCENTILE_INPUTS
    assert controls(page.locator(".rulebook-odds-explorer")) == [
        ("textbox", "First expression"), ("textbox", "Second expression"),
        ("textbox", "Target (total at least)")]


def test_roller_own_dice_result_and_explanation(page: Page, book_url):
    roller = _open_roller(page, book_url)
    set_value(roller.get_by_label("Dice expression"), "4d6dl1")
    set_value(roller.get_by_label("Target (total at least)"), "")
    expect(roller.get_by_text("Average total 12.2, from 3 to 18")).to_be_visible()
    expect(roller.get_by_role("img", name="Chart of the odds of each total")).to_be_visible()
    roller.get_by_label("My dice").fill("1, 3, 4, 6")
    roller.get_by_role("button", name="Use my dice").click()
    expect(roller.locator(".rulebook-total")).to_have_text("Total 13")
    expect(roller.get_by_text("(your dice)")).to_be_visible()
    steps = roller.get_by_role("listitem")
    expect(steps.filter(has_text="dl1: kept 3, 4, 6; dropped 1")).to_contain_text(
        "[dice §Keep and drop]")
    expect(steps.filter(has_text="Read the dice you typed: 4d6dl1")).to_be_visible()
    set_value(roller.get_by_label("Target (total at least)"), "14")
    expect(roller.get_by_text("Chance of 14 or more:")).to_be_visible()
    roller.get_by_role("button", name="Use my dice").click()
    expect(roller.locator(".rulebook-total")).to_have_text("Total 13 — failure against 14")


def test_roller_bad_target_seed_and_expression_in_place(page: Page, book_url):
    roller = _open_roller(page, book_url)
    set_value(roller.get_by_label("Target (total at least)"), "lots")
    expect(roller.get_by_role("alert")).to_have_text(
        "⚠ Target (total at least) must be a whole number, got 'lots'")
    set_value(roller.get_by_label("Target (total at least)"), "8")
    expect(roller.get_by_role("alert")).to_have_count(0)

    roller.get_by_label("Seed", exact=True).fill("abc")
    roller.get_by_role("button", name="Replay seed").click()
    expect(roller.get_by_role("alert")).to_contain_text("Seed must be a whole number, got 'abc'")

    set_value(roller.get_by_label("Dice expression"), "2d6+")
    expect(roller.get_by_role("alert").first).to_contain_text(
        "column 5 of '2d6+': the expression ends too early")
    roller.get_by_role("button", name="Roll", exact=True).click()
    expect(roller.get_by_role("alert").last).to_have_text("⚠ Fix the dice expression first.")
    expect(page.get_by_text("Traceback")).to_have_count(0)


def test_percentile_roller_tens_ones_seed_and_replay(page: Page, book_url):
    open_chapter(page, f"{book_url}/00_dice/dice.ipynb")
    roller = page.locator(".rulebook-dice-roller").nth(1)
    tens = roller.get_by_label("Tens die (00–90)")
    expect(tens).to_be_visible(timeout=60_000)
    expect(roller.get_by_label("Dice expression")).to_have_value("d%")
    set_value(roller.get_by_label("Target (total at least)"), "50")
    expect(roller.get_by_text("Chance of 50 or more: 51/100 (51.00%)")).to_be_visible()

    tens.fill("70")
    roller.get_by_label("Ones die (0–9)").fill("3")
    roller.get_by_role("button", name="Use tens and ones").click()
    expect(roller.locator(".rulebook-total")).to_have_text("Total 73 — success against 50")
    expect(roller.get_by_label("My dice")).to_have_value("73")
    expect(roller.get_by_role("listitem").filter(has_text="1d%: rolled 73")).to_be_visible()
    tens.fill("00")
    roller.get_by_label("Ones die (0–9)").fill("0")
    roller.get_by_role("button", name="Use tens and ones").click()
    expect(roller.locator(".rulebook-total")).to_have_text("Total 100 — success against 50")
    tens.fill("75")
    roller.get_by_role("button", name="Use tens and ones").click()
    expect(roller.get_by_role("alert")).to_contain_text(
        "tens die must show 00, 10, … 90 (or its digit 0–9), got 75")

    seed_box = roller.get_by_label("Seed", exact=True)
    roller.get_by_role("button", name="Roll", exact=True).click()
    expect(seed_box).not_to_have_value("")
    seed = seed_box.input_value()
    expected = parse("d%").roll(seed=int(seed)).total
    expect(roller.locator(".rulebook-total")).to_contain_text(f"Total {expected}")
    expect(roller.get_by_text(f"(seed {seed})")).to_be_visible()
    steps = roller.locator(".rulebook-trace").inner_text()
    assert f"Rolled with seed {seed}" in steps
    roller.get_by_label("My dice").fill("1")
    roller.get_by_role("button", name="Use my dice").click()
    expect(roller.locator(".rulebook-total")).to_contain_text("Total 1 — failure")
    seed_box.fill(seed)
    roller.get_by_role("button", name="Replay seed").click()
    expect(roller.locator(".rulebook-total")).to_contain_text(f"Total {expected}")
    # The explanation updates a moment after the total: wait for its first line, then compare.
    expect(roller.locator(".rulebook-trace")).to_contain_text(steps.splitlines()[0])
    assert roller.locator(".rulebook-trace").inner_text() == steps


def test_odds_explorer_every_field_and_errors(page: Page, book_url):
    open_chapter(page, f"{book_url}/00_dice/dice.ipynb")
    explorer = page.locator(".rulebook-odds-explorer")
    first = explorer.get_by_label("First expression")
    expect(first).to_be_visible(timeout=60_000)
    expect(explorer.get_by_role("row", name=re.compile(r"^4d6kh3 "))).to_contain_text(
        "799/1296 (61.65%)")
    set_value(explorer.get_by_label("Second expression"), "")
    expect(explorer.get_by_role("row", name=re.compile(r"^4d6kh3 "))).to_have_count(0)
    expect(explorer.get_by_role("row", name=re.compile(r"^3d6 "))).to_contain_text("3/8 (37.50%)")

    set_value(first, "2d6")
    set_value(explorer.get_by_label("Second expression"), "1d12")
    set_value(explorer.get_by_label("Target (total at least)"), "7")
    expect(explorer.get_by_role("columnheader", name="Chance of 7 or more")).to_be_visible()
    expect(explorer.get_by_role("row", name=re.compile(r"^2d6 "))).to_contain_text(
        "7/12 (58.33%)")
    expect(explorer.get_by_role("row", name=re.compile(r"^1d12 "))).to_contain_text(
        "1/2 (50.00%)")

    set_value(first, "2x6")
    expect(explorer.get_by_role("alert")).to_contain_text("column 2 of '2x6': unexpected 'x'")
    expect(explorer.get_by_role("row")).to_have_count(0)
    set_value(first, "")
    set_value(explorer.get_by_label("Second expression"), "")
    expect(explorer.get_by_role("alert")).to_contain_text(
        "First expression is empty: type dice such as 3d6")
    set_value(first, "3d6")
    set_value(explorer.get_by_label("Target (total at least)"), "x")
    expect(explorer.get_by_role("alert")).to_contain_text("Target (total at least) must be a whole number, got 'x'")
    set_value(explorer.get_by_label("Target (total at least)"), "12")
    expect(explorer.get_by_role("alert")).to_have_count(0)
    expect(page.get_by_text("Traceback")).to_have_count(0)
