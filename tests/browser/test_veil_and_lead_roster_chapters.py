"""The Veil & Lead roster found on every chapter whose tools take a fighter's numbers (chromium):
the fighters kept in the browser come back folded to one line, and a tool's Fill from fighter
menu fills its fields from the row."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from rulescore.roster import Roster
from rulescore.systems import veil_and_lead as vl
from tests.browser.reader import SHOTS, open_chapter
from widgets.roster import store_key

PARTY = Roster(vl.ROSTER).add("Ada", pc=True, quick=4, savvy=3, iron=3, grit=3, awareness=2,
                              resilience=2, medicine=2, weapon="Saber", weapon_attribute="IRON",
                              armour="Boiler Plate").add("Bart", quick=2, awareness=1)
CHAPTERS = ("actions", "conditions", "injury", "movement", "table", "count")


def keep(page: Page, roster: Roster) -> None:
    page.add_init_script(f"window.localStorage.setItem({json.dumps(store_key('veil_and_lead'))}, "
                         f"{json.dumps(roster.to_json())})")


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_chapter_shows_the_kept_roster_once_folded(page: Page, book_url, chapter):
    keep(page, PARTY)
    open_chapter(page, f"{book_url}/veil_and_lead/{chapter}.ipynb")
    fighters = page.locator(".rulebook-roster")
    expect(fighters).to_have_count(1, timeout=60_000)
    expect(fighters).to_contain_text("Fighters: Ada, Bart —", timeout=20_000)
    expect(fighters.get_by_label("QUICK of Ada")).to_be_hidden()
    if chapter != "count":
        picks = page.get_by_role("combobox", name=re.compile(r"^Fill .*from fighter$"))
        expect(picks.first).to_be_visible()
        assert picks.count() >= 1


def _tool_with_the_party(page: Page, book_url: str, chapter: str, css: str):
    """Open the V&L *chapter* at its tool matching *css*, once the kept roster shows PARTY."""
    open_chapter(page, f"{book_url}/veil_and_lead/{chapter}.ipynb")
    tool = page.locator(css)
    expect(tool).to_be_visible(timeout=60_000)
    expect(page.locator(".rulebook-roster")).to_contain_text("Fighters: Ada, Bart —",
                                                             timeout=20_000)
    return tool


def test_a_pick_fills_the_duel_and_the_downed_walker(page: Page, book_url):
    keep(page, PARTY)
    duel = _tool_with_the_party(page, book_url, "conditions", ".rulebook-vl-duel")
    duel.get_by_label("Fill other from fighter").select_option("Ada")
    expect(duel.get_by_label("The other")).to_have_value("Ada")
    expect(duel.get_by_label("QUICK (other)")).to_have_value("4")
    expect(duel.get_by_label("Awareness (other)")).to_have_value("2")
    walker = _tool_with_the_party(page, book_url, "injury", ".rulebook-vl-downed")
    walker.get_by_label("Fill healer from fighter").select_option("Ada")
    expect(walker.get_by_label("Healer's Medicine dice")).to_have_value("5")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(".rulebook-roster").screenshot(path=str(SHOTS / "vl_roster_folded.png"))
    fighters = page.locator(".rulebook-roster")
    fighters.get_by_role("button", name="edit").click()  # the table is made when opened
    expect(fighters.get_by_label("Medicine of Ada")).to_have_value("2")
    walker.screenshot(path=str(SHOTS / "vl_downed_walker_pick.png"))


def test_an_empty_roster_is_one_line_and_each_pick_says_where_to_add_fighters(page: Page,
                                                                             book_url):
    open_chapter(page, f"{book_url}/veil_and_lead/movement.ipynb")
    fighters = page.locator(".rulebook-roster")
    expect(fighters).to_contain_text("Fighters: none yet —", timeout=60_000)
    expect(fighters.get_by_role("button", name="Upload roster (JSON)")).to_have_count(0)
    tool = page.locator(".rulebook-vl-movement")
    expect(tool.get_by_text("No fighters yet: add them in the roster above")).to_be_visible()
    field = fighters.get_by_label("New fighter")
    field.fill("Cy")
    field.press("Enter")
    tool.get_by_label("Fill from fighter").select_option("Cy")
    expect(tool.get_by_label("QUICK", exact=True)).to_have_value("3")
    expect(tool.get_by_text("No fighters yet: add them in the roster above")).to_be_hidden()
    # adding from the one line opened the roster on the new fighter's row
    expect(fighters.get_by_label("QUICK of Cy", exact=True)).to_have_value("3")
    fighters.get_by_role("button", name="fold").click()
    expect(fighters).to_contain_text("Fighters: Cy —")
    expect(fighters.get_by_label("QUICK of Cy", exact=True)).to_be_hidden()
