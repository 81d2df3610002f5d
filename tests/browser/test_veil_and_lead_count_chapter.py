"""The served Count tracker, used as a GM would: add fighters, turn the Hammer, act, and survive
download → page reload → upload → undo with nothing lost; the autosave offered after a reload,
in the live book and in the static book (its Python in the page keeps the same browser
storage)."""

import json
import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.reader import open_chapter, use_my_dice
from tests.browser.vl_count_steps import act, add_fighter, mark_condition

CHAPTER = "veil_and_lead/count.ipynb"
KEY = "rulebook/veil_and_lead/count"


def _tool(page: Page):
    tool = page.locator(".rulebook-vl-count")
    expect(tool).to_be_visible(timeout=60_000)
    return tool


def _open(page: Page, book_url: str):
    open_chapter(page, f"{book_url}/{CHAPTER}")
    return _tool(page)


def _upload(page: Page, tool, content: bytes) -> None:
    with page.expect_file_chooser() as chooser:
        tool.get_by_role("button", name=re.compile("Upload encounter")).click()
    chooser.value.set_files(files=[{"name": "encounter.json", "mimeType": "application/json",
                                    "buffer": content}])


def test_moves_download_reload_upload_undo(page: Page, book_url):
    tool = _open(page, book_url)
    add_fighter(tool, "Ada", "5")
    add_fighter(tool, "Bandit", "", pc=False)
    board = tool.locator(".rulebook-vl-board")
    expect(board.get_by_role("row", name="Bandit Tick 6 NPC, Surprised")).to_be_visible()
    tool.get_by_role("button", name="Next turn (turn the Hammer)").click()
    expect(tool.locator(".rulebook-vl-log")).to_contain_text("The Hammer turns 3 to Tick 3: Ada acts")
    tool.get_by_role("button", name="Act", exact=True).click()
    expect(tool.locator(".rulebook-vl-log")).to_contain_text(
        "Ada: Steady Shot with Peacemaker, tempo 4 → Tick 7")
    expect(board.get_by_role("row", name="Ada Tick 7 PC")).to_be_visible()
    tool.get_by_role("button", name="Act", exact=True).click()
    expect(tool.get_by_role("alert")).to_contain_text("only a fighter at the Hammer's tick")
    link = tool.get_by_role("link", name="Download encounter (JSON)")
    with page.expect_download() as download:
        link.click()
    saved = open(download.value.path()).read()
    assert json.loads(saved)["format"] == "rulebook/vl-encounter"
    page.wait_for_function(f"() => (localStorage.getItem('{KEY}') || '').includes('Tick 7')")
    page.reload()
    tool = page.locator(".rulebook-vl-count")
    expect(tool.get_by_text("A saved encounter was found in this browser")).to_be_visible(
        timeout=60_000)
    expect(tool.get_by_text("No fighters yet")).to_be_visible()
    _upload(page, tool, saved.encode())
    board = tool.locator(".rulebook-vl-board")
    expect(board.get_by_role("row", name="Ada Tick 7 PC")).to_be_visible()
    tool.get_by_role("button", name="Undo").click()
    expect(board.get_by_role("row", name="Ada Tick 3 PC")).to_be_visible()
    tool.get_by_role("button", name="Redo").click()
    expect(board.get_by_role("row", name="Ada Tick 7 PC")).to_be_visible()
    _upload(page, tool, b'{"format": "rulebook/tsl-board", "version": 1}')
    expect(tool.get_by_role("alert")).to_contain_text("not an encounter file")
    expect(board.get_by_role("row", name="Ada Tick 7 PC")).to_be_visible()


@pytest.mark.parametrize("book", ["live", "static"], indirect=True)
def test_autosave_is_offered_after_a_reload(page: Page, book):
    book.open(page, CHAPTER.removesuffix(".ipynb"))
    tool = _tool(page)
    add_fighter(tool, "Cy", "8")
    page.wait_for_function(f"() => (localStorage.getItem('{KEY}') || '').includes('Cy')")
    book.reload(page)
    tool = page.locator(".rulebook-vl-count")
    expect(tool.get_by_text("A saved encounter was found in this browser")).to_be_visible(
        timeout=60_000)
    tool.get_by_role("button", name="Restore saved encounter").click()
    expect(tool.locator(".rulebook-vl-board").get_by_role("row", name="Cy Tick 2 PC")) \
        .to_be_visible()
    expect(tool.get_by_role("button", name="Undo")).to_be_enabled()


def test_conditions_duel_horde_and_scene_end(page: Page, book_url):
    tool = _open(page, book_url)
    add_fighter(tool, "Ada", "10")
    add_fighter(tool, "Bart", "10", pc=False)
    expect(tool.locator(".rulebook-vl-tension")).to_contain_text("this fight has added 1 die")
    board = tool.locator(".rulebook-vl-board")
    log = tool.locator(".rulebook-vl-log")
    mark_condition(tool, "Ada", "Prone")
    expect(board.get_by_role("row", name="Ada Tick 0 PC, Prone")).to_be_visible()
    act(tool, "Aim")
    expect(board.get_by_role("row", name=re.compile("Ada Tick 2 PC.*Aim \\+2.*Prone"))) \
        .to_be_visible()
    tool.get_by_role("button", name="Lose Aim (damage or new target)").click()
    expect(log).to_contain_text("Ada loses the banked Aim")
    tool.get_by_role("button", name="Clear condition").click()
    expect(log).to_contain_text("Ada is no longer Prone")
    tool.get_by_role("button", name="Next turn (turn the Hammer)").click()
    expect(log).to_contain_text("Bart acts")
    tool.get_by_label("Hold trigger").fill("Ada moves")
    tool.get_by_role("button", name="Hold", exact=True).click()
    tool.get_by_role("button", name="Next turn (turn the Hammer)").click()
    tool.get_by_label("Hold trigger").fill("Bart moves")
    tool.get_by_role("button", name="Hold", exact=True).click()
    _set = lambda label, v: (tool.get_by_label(label).fill(v),  # noqa: E731
                             tool.get_by_label(label).press("Enter"))
    _set("Awareness (one)", "0")
    _set("Awareness (other)", "0")
    tool.get_by_label("Action", exact=True).select_option("Steady Shot")
    tool.get_by_label("Duel: one").select_option("Bart")
    tool.get_by_label("Duel: other").select_option("Ada")
    use_my_dice(tool, "8, 8, 8 | 1, 1, 1", -1)   # the duel's entry, the tracker's last
    expect(log).to_contain_text("Duel Bart 16 against Ada 2")
    expect(log).to_contain_text("Bart first, then Ada")
    tool.get_by_role("button", name="Undo").click()
    tool.get_by_role("button", name="End the scene").click()
    expect(log).to_contain_text("lose their Hold")
    tool.get_by_label("Name", exact=True).fill("Posse")
    tool.get_by_label("Player character").set_checked(False)
    tool.get_by_label("Initiative margin").fill("4")
    _set("Horde size", "5")
    tool.get_by_role("button", name="Add to the Count").click()
    expect(board.get_by_role("row", name=re.compile("Posse Tick 3 NPC, Horde of 5"))) \
        .to_be_visible()
    tool.get_by_label("Fighter", exact=True).select_option("Posse")
    _set("Casualties", "3")
    tool.get_by_role("button", name="Hit the Horde").click()
    expect(log).to_contain_text("Posse breaks: Posse 1 and Posse 2 fight on")
    mark_condition(tool, "Bart", "Grappled")
    expect(board.get_by_role("row", name=re.compile("Bart .*Grappled"))).to_be_visible()
    tool.get_by_label("Fighter", exact=True).select_option("Posse 1")
    tool.get_by_role("button", name="Next turn (turn the Hammer)").click()
    tool.get_by_label("Action", exact=True).select_option("Channel")
    tool.get_by_label("Chosen tempo").fill("5")
    tool.get_by_label("Exposed afterwards (when the table decides)").check()
    tool.get_by_role("button", name="Act", exact=True).click()
    expect(log).to_contain_text("Channel")
    expect(log).to_contain_text("Exposed until their next turn")


def test_a_fighter_from_the_chapter_s_roster_fills_the_tracker(page: Page, book_url):
    open_chapter(page, f"{book_url}/{CHAPTER}")
    fighters = page.locator(".rulebook-roster")
    expect(fighters).to_be_visible(timeout=60_000)
    fighters.get_by_placeholder("name").fill("Maeve")
    fighters.get_by_role("button", name="Add fighter").click()
    tool = page.locator(".rulebook-vl-count")
    pick = tool.get_by_label("From the roster")
    expect(pick.locator("option", has_text="Maeve")).to_have_count(1)
    pick.select_option("Maeve")
    expect(tool.get_by_label("Name", exact=True)).to_have_value("Maeve")
    tool.get_by_label("Initiative margin").fill("4")
    tool.get_by_role("button", name="Add to the Count").click()
    expect(tool.locator(".rulebook-vl-log")).to_contain_text("Maeve joins at Tick 3 (Ready)")
    expect(pick.locator("option", has_text="Maeve")).to_have_count(0)
