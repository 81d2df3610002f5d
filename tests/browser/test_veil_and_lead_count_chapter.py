"""The served Count tracker, used as a GM would: add fighters, turn the Hammer, act, and survive
download → page reload → upload → undo with nothing lost; the autosave offered after a reload."""

import json
import re

from playwright.sync_api import Page, expect

CHAPTER = "veil_and_lead/count.ipynb"
KEY = "rulebook/veil_and_lead/count"


def _open(page: Page, book_url: str):
    page.goto(f"{book_url}/{CHAPTER}")
    tool = page.locator(".rulebook-vl-count")
    expect(tool).to_be_visible(timeout=60_000)
    return tool


def _add(tool, name: str, margin: str, pc: bool = True) -> None:
    tool.get_by_label("Name", exact=True).fill(name)
    tool.get_by_label("Player character").set_checked(pc)
    tool.get_by_label("Initiative margin").fill(margin)
    tool.get_by_role("button", name="Add to the Count").click()
    expect(tool.locator(".rulebook-vl-log")).to_contain_text(f"{name} joins")


def _upload(page: Page, tool, content: bytes) -> None:
    with page.expect_file_chooser() as chooser:
        tool.get_by_role("button", name=re.compile("Upload encounter")).click()
    chooser.value.set_files(files=[{"name": "encounter.json", "mimeType": "application/json",
                                    "buffer": content}])


def test_moves_download_reload_upload_undo(page: Page, book_url):
    tool = _open(page, book_url)
    _add(tool, "Ada", "5")
    _add(tool, "Bandit", "", pc=False)
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


def test_autosave_is_offered_after_a_reload(page: Page, book_url):
    tool = _open(page, book_url)
    _add(tool, "Cy", "8")
    page.wait_for_function(f"() => (localStorage.getItem('{KEY}') || '').includes('Cy')")
    page.reload()
    tool = page.locator(".rulebook-vl-count")
    expect(tool.get_by_text("A saved encounter was found in this browser")).to_be_visible(
        timeout=60_000)
    tool.get_by_role("button", name="Restore saved encounter").click()
    expect(tool.locator(".rulebook-vl-board").get_by_role("row", name="Cy Tick 2 PC")) \
        .to_be_visible()
    expect(tool.get_by_role("button", name="Undo")).to_be_enabled()
