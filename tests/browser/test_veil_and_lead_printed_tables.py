"""The Veil & Lead chapters' printed tables as a reader sees them in the served book: the
grievous wounds' recovery column and the actions' weapon column under headings in words, their
values in words a player reads; screenshotted for a person to look at."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.reader import SHOTS, open_chapter

from rulescore.systems import veil_and_lead as vl


def _table(page: Page, title: str):
    """The printed table whose caption begins with *title*."""
    return page.locator("figure.rulebook-table").filter(
        has=page.locator("figcaption b", has_text=title)).first


def _cell(table, row_text: str, heading: str):
    """The cell of the row holding *row_text* under the column headed *heading*."""
    heads = table.locator("thead th").all_inner_texts()
    return table.locator("tbody tr").filter(has_text=row_text).first.locator("td").nth(
        heads.index(heading))


def test_the_grievous_wounds_table_reads_recovery_in_days(page: Page, book_url):
    page.set_viewport_size({"width": 1280, "height": 900})
    open_chapter(page, f"{book_url}/veil_and_lead/injury.ipynb")
    table = _table(page, "Grievous wounds")
    expect(table.locator("thead th", has_text="Recovery (days)")).to_have_count(1)
    expect(_cell(table, "Broken Bone", "Recovery (days)")).to_have_text("1")
    expect(_cell(table, "Flesh Wound", "Recovery (days)")).to_have_text("none")
    table.scroll_into_view_if_needed()
    table.screenshot(path=str(SHOTS / "veil_and_lead_grievous_wounds_table.png"))


def test_the_actions_table_says_which_actions_are_done_with_the_weapon(page: Page, book_url):
    page.set_viewport_size({"width": 1280, "height": 900})
    open_chapter(page, f"{book_url}/veil_and_lead/actions.ipynb")
    table = _table(page, "Actions")
    expect(table.locator("thead th", has_text="Done with the weapon")).to_have_count(1)
    expect(table.locator("tbody tr")).to_have_count(len(vl.action_rows()))
    for action, words in (("Steady Shot", "Yes"), ("Sprint", "No"),
                          ("Rush / Charge", "Only if it ends in a melee attack")):
        expect(_cell(table, action, "Done with the weapon")).to_have_text(words)
    table.scroll_into_view_if_needed()
    table.screenshot(path=str(SHOTS / "veil_and_lead_actions_table.png"))
