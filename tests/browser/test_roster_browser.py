"""The roster and the fight page in a served page, as a reader uses them (chromium): a fighter
typed on one page is there after a reload and on the next page of the same system, a corrupt
upload changes nothing and says why, and Undo / Redo step over the whole fight page.

The pages are two small notebooks beside this file (a made-up system's format, no rules), served
by a Voilà of their own, started as the book's is."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser import served
from tests.browser.reader import SHOTS, open_chapter, set_value

PAGES = Path(__file__).with_name("roster_pages")


@pytest.fixture(scope="module")
def pages_url(tmp_path_factory):
    folder = tmp_path_factory.mktemp("roster-pages")
    for notebook in PAGES.glob("*.ipynb"):
        shutil.copy(notebook, folder / notebook.name)
    real = served.voila_command
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(served, "voila_command", lambda host, port, _book: real(host, port, folder))
        book = served.ServedBook(folder / "voila.log", warm_up=False)
    yield book.base + "/voila/render"
    book.stop()


def editor(page: Page):
    tool = page.locator(".rulebook-roster").first
    expect(tool).to_be_visible(timeout=60_000)
    return tool


def add(tool, name: str) -> None:
    tool.get_by_label("New fighter").fill(name)
    tool.get_by_role("button", name="Add fighter").click()
    expect(tool.get_by_label(f"QUICK of {name}", exact=True)).to_be_visible()


def test_a_fighter_typed_is_there_after_a_reload_and_on_the_next_page(page: Page, pages_url):
    open_chapter(page, f"{pages_url}/roster.ipynb")
    tool = editor(page)
    expect(tool.get_by_text("No fighters yet: add them below.")).to_be_visible()
    add(tool, "Ada")
    set_value(tool.get_by_label("Vitality of Ada"), "7")
    tool.get_by_label("Weapon of Ada").select_option("Knife")
    expect(tool.get_by_text("Fighters kept in this browser: 1")).to_be_visible()
    # a refused value: named in place, nothing changed, gone once fixed
    set_value(tool.get_by_label("QUICK of Ada"), "9")
    error = tool.locator(".rulebook-error").first
    expect(error).to_have_text("⚠ QUICK of Ada must be a whole number from 1 to 5, got 9")
    set_value(tool.get_by_label("QUICK of Ada"), "4")
    expect(error).to_have_text("")
    page.reload()
    tool = editor(page)
    expect(tool.get_by_label("Vitality of Ada")).to_have_value("7", timeout=20_000)
    expect(tool.get_by_label("QUICK of Ada")).to_have_value("4")
    expect(tool.get_by_label("Weapon of Ada")).to_have_value("Knife")
    # the fight page of the same system finds the same fighters, without a click
    open_chapter(page, f"{pages_url}/fight.ipynb")
    fight = page.locator(".rulebook-fight").first
    expect(fight.get_by_label("Vitality of Ada")).to_have_value("7", timeout=20_000)


def test_a_corrupt_upload_changes_nothing_and_says_why(page: Page, pages_url, tmp_path):
    open_chapter(page, f"{pages_url}/roster.ipynb")
    tool = editor(page)
    expect(tool.get_by_text("No fighters yet: add them below.")).to_be_visible()
    add(tool, "Bo")
    bad = tmp_path / "roster.json"
    bad.write_text(json.dumps({"format": "rulebook roster", "version": 1, "system": "toy",
                               "fighters": [{"name": "Zed", "pc": False, "vitality": 99}]}))
    with page.expect_file_chooser() as chooser:
        tool.get_by_role("button", name="Upload roster (JSON)").click()
    chooser.value.set_files(str(bad))
    expect(tool.get_by_text("The upload changed nothing: roster: Vitality of Zed must be a "
                            "whole number from 0 to 30, got 99")).to_be_visible()
    expect(tool.get_by_label("QUICK of Bo")).to_be_visible()
    expect(tool.get_by_label("QUICK of Zed")).to_have_count(0)


def test_undo_and_redo_step_over_the_roster_and_the_state(page: Page, pages_url):
    open_chapter(page, f"{pages_url}/fight.ipynb")
    fight = page.locator(".rulebook-fight").first
    expect(fight).to_be_visible(timeout=60_000)
    expect(fight.get_by_text("No fighters yet: add them below.")).to_be_visible()
    expect(fight.locator(".toy-round")).to_contain_text("Round 1")
    name = "Cy"
    add(fight, name)
    fight.get_by_role("button", name="Next round").click()
    expect(fight.locator(".toy-round")).to_contain_text("Round 2")
    set_value(fight.get_by_label(f"Strain of {name}"), "3")
    expect(fight.get_by_text("Last: Cy: Strain 0 → 3")).to_be_visible()
    log = fight.locator(".rulebook-roll-log")
    expect(log).to_contain_text("Next round · seed 7 · round 2")
    undo = fight.get_by_role("button", name="Undo", exact=True)
    redo = fight.get_by_role("button", name="Redo", exact=True)
    undo.click()
    expect(fight.get_by_label(f"Strain of {name}")).to_have_value("0")
    expect(fight.locator(".toy-round")).to_contain_text("Round 2")
    undo.click()
    expect(fight.locator(".toy-round")).to_contain_text("Round 1")
    redo.click()
    redo.click()
    expect(fight.locator(".toy-round")).to_contain_text("Round 2")
    expect(fight.get_by_label(f"Strain of {name}")).to_have_value("3")
    # the fight itself is kept: a reload comes back at round 2
    page.reload()
    fight = page.locator(".rulebook-fight").first
    expect(fight.locator(".toy-round")).to_contain_text("Round 2", timeout=20_000)
    expect(fight.get_by_label(f"Strain of {name}")).to_have_value("3")
    SHOTS.mkdir(parents=True, exist_ok=True)
    fight.screenshot(path=str(SHOTS / "fight_page.png"))


def test_screenshot_of_the_editor_with_four_fighters(page: Page, pages_url):
    page.set_viewport_size({"width": 1100, "height": 800})
    open_chapter(page, f"{pages_url}/roster.ipynb")
    tool = editor(page)
    expect(tool.get_by_text("No fighters yet: add them below.")).to_be_visible()
    add(tool, "Ada")
    tool.get_by_label("PC of Ada").check()
    add(tool, "Caleb")
    add(tool, "Bandit")
    tool.get_by_label("How many").fill("1")
    tool.get_by_label("How many").press("Enter")
    tool.get_by_role("button", name="Duplicate").click()
    expect(tool.get_by_label("QUICK of Bandit 2")).to_be_visible()
    expect(tool.get_by_text("Fighters kept in this browser: 4")).to_be_visible()
    SHOTS.mkdir(parents=True, exist_ok=True)
    tool.screenshot(path=str(SHOTS / "roster_editor.png"))
    box = tool.bounding_box()
    assert box["height"] < 420, f"the editor with 4 fighters is {box['height']:.0f}px tall"
    # one row a fighter: the four rows of fields sit one under another, 40px apart at most
    tops = [tool.get_by_label(f"QUICK of {n}", exact=True).bounding_box()["y"]
            for n in ("Ada", "Caleb", "Bandit", "Bandit 2")]
    assert all(0 < b - a <= 40 for a, b in zip(tops, tops[1:])), tops


def test_enter_in_the_new_fighter_field_adds_the_fighter(page: Page, pages_url):
    open_chapter(page, f"{pages_url}/roster.ipynb")
    tool = editor(page)
    expect(tool.get_by_text("No fighters yet: add them below.")).to_be_visible()
    field = tool.get_by_label("New fighter")
    field.fill("Ada")
    field.press("Enter")
    expect(tool.get_by_label("QUICK of Ada", exact=True)).to_be_visible()
    expect(field).to_have_value("")
    # typed, then PC ticked: leaving the field added the fighter, and the tick is theirs
    field.fill("Bo")
    tool.get_by_label("PC", exact=True).first.check()
    expect(tool.get_by_label("PC of Bo")).to_be_checked()
    tool.get_by_role("button", name="Add fighter").click()
    expect(tool.get_by_text("Fighters kept in this browser: 2")).to_be_visible()
    expect(tool.locator(".rulebook-error").first).to_have_text("")


def _second_tab(page: Page) -> Page:
    """Another tab of the same browser (same localStorage), refusing other hosts as `page`."""
    other = page.context.new_page()
    other.route("**/*", lambda route: route.continue_()
                if route.request.url.startswith(("http://127.0.0.1", "data:", "blob:"))
                else route.abort())
    other.set_default_timeout(30_000)
    return other


def _kept_names(page: Page) -> list[str]:
    text = page.evaluate("() => window.localStorage.getItem('rulebook-roster-toy')")
    return [f["name"] for f in json.loads(text)["fighters"]]


def test_two_tabs_never_overwrite_each_other_s_roster_unasked(page: Page, pages_url):
    open_chapter(page, f"{pages_url}/roster.ipynb")
    one = editor(page)
    expect(one.get_by_text("No fighters yet: add them below.")).to_be_visible()
    add(one, "Ada")
    tab = _second_tab(page)
    open_chapter(tab, f"{pages_url}/roster.ipynb")
    two = editor(tab)
    expect(two.get_by_label("QUICK of Ada", exact=True)).to_be_visible(timeout=20_000)
    add(two, "Bo")
    # the first tab is told, and its own change waits: the kept roster stays the second's
    offer = one.locator(".rulebook-elsewhere")
    expect(offer).to_contain_text("Changed in another tab", timeout=20_000)
    add(one, "Cy")
    page.wait_for_timeout(500)
    assert _kept_names(page) == ["Ada", "Bo"]
    offer.get_by_role("button", name="Load it").click()
    expect(one.get_by_label("QUICK of Bo", exact=True)).to_be_visible()
    expect(one.get_by_label("QUICK of Cy", exact=True)).to_have_count(0)
    expect(offer).to_be_hidden()
    SHOTS.mkdir(parents=True, exist_ok=True)
    # the other way round: the first tab writes, the second keeps its own when asked
    add(one, "Dee")
    offer_two = two.locator(".rulebook-elsewhere")
    expect(offer_two).to_contain_text("Changed in another tab", timeout=20_000)
    two.screenshot(path=str(SHOTS / "roster_changed_in_another_tab.png"))
    set_value(two.get_by_label("Vitality of Bo"), "6")
    offer_two.get_by_role("button", name="Keep mine").click()
    expect(offer_two).to_be_hidden()
    page.wait_for_timeout(500)
    assert _kept_names(page) == ["Ada", "Bo"]
    expect(offer).to_contain_text("Changed in another tab", timeout=20_000)
    tab.close()
