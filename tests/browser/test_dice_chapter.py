"""The served dice chapter, used as a reader would: type, roll, replay, type own dice, err."""

import re

from playwright.sync_api import Page, expect


def _open_roller(page: Page, book_url: str):
    page.goto(f"{book_url}/00_dice/dice.ipynb")
    roller = page.locator(".rulebook-dice-roller").first
    expect(roller.get_by_label("Dice expression")).to_be_visible(timeout=60_000)
    return roller


def _set(field, text: str) -> None:
    field.fill(text)
    field.press("Enter")


def _total(roller) -> int:
    text = roller.locator(".rulebook-total").inner_text()
    return int(re.search(r"Total (\d+)", text).group(1))


def test_landing_page_links_the_dice_chapter(page: Page, book_url):
    page.goto(f"{book_url}/index.ipynb")
    link = page.get_by_role("link", name="Dice, seeds and exact odds")
    expect(link).to_be_visible(timeout=60_000)
    link.click()
    expect(page.get_by_role("heading", name=re.compile("^Dice, seeds and exact odds"))).to_be_visible()


def test_roll_with_seed_and_replay(page: Page, book_url):
    roller = _open_roller(page, book_url)
    _set(roller.get_by_label("Dice expression"), "3d6+2")
    _set(roller.get_by_label("Target (total at least)"), "12")
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
    assert roller.locator(".rulebook-trace").inner_text() == steps


def test_type_my_dice(page: Page, book_url):
    roller = _open_roller(page, book_url)
    _set(roller.get_by_label("Dice expression"), "3d6+2")
    roller.get_by_label("My dice").fill("1, 2, 3")
    roller.get_by_role("button", name="Use my dice").click()
    expect(roller.locator(".rulebook-total")).to_contain_text("Total 8")
    expect(roller.locator(".rulebook-trace")).to_contain_text("3d6: rolled 1, 2, 3")

    roller.get_by_label("My dice").fill("1, 2, 9")
    roller.get_by_role("button", name="Use my dice").click()
    expect(roller.get_by_role("alert")).to_contain_text("die value 3 (9) is not on a d6")


def test_bad_notation_says_where(page: Page, book_url):
    roller = _open_roller(page, book_url)
    _set(roller.get_by_label("Dice expression"), "3d6x")
    expect(roller.get_by_role("alert")).to_contain_text(
        "column 4 of '3d6x': unexpected 'x'")
    _set(roller.get_by_label("Dice expression"), "2d6")
    expect(roller.get_by_role("alert")).to_have_count(0)


def test_odds_explorer_compares(page: Page, book_url):
    page.goto(f"{book_url}/00_dice/dice.ipynb")
    explorer = page.locator(".rulebook-odds-explorer")
    expect(explorer.get_by_label("First expression")).to_be_visible(timeout=60_000)
    _set(explorer.get_by_label("Target (total at least)"), "15")
    expect(explorer.locator(".rulebook-compare")).to_contain_text("5/54 (9.26%)")


def test_served_pages_need_no_other_host(page: Page, book_url, external_requests):
    for path in ("index.ipynb", "00_dice/dice.ipynb"):
        page.goto(f"{book_url}/{path}")
        expect(page.locator(".widget-html").first).to_be_attached(timeout=60_000)
        page.wait_for_load_state("networkidle")
    assert external_requests == []
