"""The reader's work kept in the browser, by the same reader script in the live book and in
the static book (whose Python in the page reads and writes localStorage itself): the percentile
roster typed on one chapter is there after a reload and on another chapter of the system, the
injury record is offered back after a reload, another tab's change is offered before it is
taken, and the roster goes out as a JSON file and comes back in, a corrupt file refused with
nothing changed."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from rulescore.roster import Roster
from tests.browser.reader import set_value
from widgets.roster import roster_format, store_key
from widgets.storage import MAX_UPLOAD_BYTES, too_large

ROSTER_KEY = store_key("percentile")
RECORD_KEY = "rulebook/percentile/injury-record"


def _kept(page: Page, key: str, text: str) -> None:
    """Wait until the browser keeps *text* under *key*."""
    page.wait_for_function("([k, t]) => (localStorage.getItem(k) || '').includes(t)",
                           arg=[key, text], timeout=30_000)


def _upload(roster, name: str, content: bytes) -> None:
    """Pick a file with the roster's upload button, as a reader's file picker hands it over.
    Both books' button is the same picker, which reads "Upload roster (JSON)" and nothing more,
    and keeps its file input in the page under the button's words."""
    expect(roster.get_by_role("button", name="Upload roster (JSON)", exact=True)).to_have_text(
        "Upload roster (JSON)")
    roster.get_by_label("Upload roster (JSON)", exact=True).set_input_files(
        files=[{"name": name, "mimeType": "application/json", "buffer": content}])


def _write_in_another_tab(page: Page, key: str, text: str) -> None:
    """Another tab of the same book writes *key*, as another chapter's tools would: the
    browser tells every other tab of the site (its storage event). The tab's page is any of
    the same site (one that does not exist: no redirect, no tools of its own)."""
    parts = urlsplit(page.url)
    other = page.context.new_page()
    try:
        other.goto(f"{parts.scheme}://{parts.netloc}/another-tab")
        other.evaluate("([k, t]) => localStorage.setItem(k, t)", [key, text])
    finally:
        other.close()


@pytest.mark.parametrize("book", ["live", "static"], indirect=True)
def test_the_roster_and_the_injury_record_are_kept_in_the_browser(page: Page, book):
    book.open(page, "percentile/healing")
    fighters = page.locator(".rulebook-roster")
    expect(fighters).to_contain_text("Fighters: none yet —", timeout=60_000)
    set_value(fighters.get_by_label("New fighter"), "Cy")
    expect(fighters.get_by_text("Fighters kept in this browser: 1")).to_be_visible()
    _kept(page, ROSTER_KEY, "Cy")
    record = page.locator(".rulebook-pc-healing")
    set_value(record.get_by_label("Character"), "Bram")
    record.get_by_label("Location").select_option(label="Shoulder")
    record.get_by_label("Injury", exact=True).select_option(label="G4")
    record.get_by_role("button", name="Add injury").click()
    sheet = record.locator(".rulebook-pc-sheet")
    expect(sheet).to_contain_text("G4")
    written = sheet.text_content()
    _kept(page, RECORD_KEY, "Bram")

    # a reload: the record is offered, never restored unasked; the roster carries on
    book.reload(page)
    record = page.locator(".rulebook-pc-healing")
    expect(record.get_by_text("A saved injury record was found in this browser")).to_be_visible(
        timeout=90_000)   # a loaded machine: the live kernel hears the browser late
    expect(page.locator(".rulebook-roster")).to_contain_text("Fighters: Cy —")
    record.get_by_role("button", name="Restore saved injury record").click()
    expect(sheet).to_have_text(written)
    expect(record.get_by_label("Character")).to_have_value("Bram")

    # another chapter of the system finds the same roster
    book.open(page, "percentile/injury")
    fighters = page.locator(".rulebook-roster")
    expect(fighters).to_contain_text("Fighters: Cy —", timeout=60_000)

    # another tab changes it: offered, taken only when the reader says so
    theirs = Roster(roster_format("percentile")).add("Dee")
    _write_in_another_tab(page, ROSTER_KEY, theirs.to_json())
    offer = fighters.locator(".rulebook-elsewhere")
    expect(offer).to_contain_text("Changed in another tab")
    expect(fighters).to_contain_text("Fighters: Cy —")
    offer.get_by_role("button", name="Load it").click()
    expect(fighters).to_contain_text("Fighters: Dee —")
    expect(offer).to_be_hidden()

    # out as a file, then back in; a corrupt file changes nothing and says why
    fighters.get_by_role("button", name="edit").click()
    with page.expect_download() as download:
        fighters.get_by_role("link", name="Download roster (JSON)").click()
    saved = Path(download.value.path()).read_text(encoding="utf-8")
    assert Roster.from_json(roster_format("percentile"), saved).names() == ("Dee",)
    set_value(fighters.get_by_label("New fighter"), "Eve")
    expect(fighters.get_by_text("Fighters kept in this browser: 2")).to_be_visible()
    _upload(fighters, "roster.json", saved.replace('"Dee"', '"Dee", "Dee"', 1).encode())
    refused = fighters.get_by_role("alert").filter(has_text="The upload changed nothing")
    expect(refused).to_be_visible()
    expect(fighters.get_by_text("Fighters kept in this browser: 2")).to_be_visible()
    # a file over the limit is refused by the page itself, with its size, and never read
    _upload(fighters, "huge.json", b" " * (MAX_UPLOAD_BYTES + 1))
    expect(fighters.get_by_role("alert").filter(has_text="That file is 1.1 MB")).to_have_text(
        "\u26a0 " + too_large("roster", MAX_UPLOAD_BYTES + 1))
    expect(fighters.get_by_text("Fighters kept in this browser: 2")).to_be_visible()
    _upload(fighters, "roster.json", saved.encode())
    expect(fighters.get_by_text("Loaded roster from the file.")).to_be_visible()
    expect(refused).to_have_count(0)
    expect(fighters.get_by_text("Fighters kept in this browser: 1")).to_be_visible()
    _kept(page, ROSTER_KEY, "Dee")
    assert "Eve" not in page.evaluate("k => localStorage.getItem(k)", ROSTER_KEY)
    assert re.search(r"\bDee\b", fighters.inner_text())
