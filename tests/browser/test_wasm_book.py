"""The static book's tools run in the reader's browser (Pyodide): served as plain files on
127.0.0.1, with every request to another host refused and counted, a chapter's page starts
Python itself, and a tool answers from Python in the page."""

from __future__ import annotations

import html
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .served import ROOT

READY = "html[data-rulebook-wasm=ready]"
SCREENSHOTS = ROOT / "_build" / "screenshots"


@pytest.fixture(scope="session")
def wasm_book() -> Path:
    """The static book with its _pyodide/ folder, built once (what `make book` does)."""
    from rulebook.build import build
    return build(ROOT)


@pytest.fixture(scope="session")
def wasm_url(wasm_book):
    from rulebook.static_server import serve
    server = serve(wasm_book)
    yield server.url
    server.stop()


def _text(markup: str) -> str:
    """What a reader reads in some HTML: tags dropped, entities read, spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def _replayed_in_cpython(seed: str) -> str:
    """What the chapter's first tool shows for *seed* when it runs here, in CPython."""
    from widgets.dice import DiceRoller
    tool = DiceRoller("2d6+1", target="8")
    tool.entry.seed.value = seed
    tool.entry.replay()
    return _text(tool.result.value)


def open_wasm_chapter(page: Page, url: str) -> float:
    """Open a chapter of the static book; wait until its tools run; return the seconds taken."""
    started = time.monotonic()
    page.goto(url)
    page.wait_for_selector(READY, state="attached", timeout=180_000)
    return time.monotonic() - started


def test_the_dice_chapter_rolls_in_the_browser_with_no_other_host(page: Page, wasm_url,
                                                                   external_requests):
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    seconds = open_wasm_chapter(page, f"{wasm_url}/00_dice/dice.html")
    tool = page.locator(".rulebook-dice-roller").first
    seed = tool.get_by_label("Seed", exact=True)
    expect(seed).to_be_enabled()
    seed.fill("2024")
    seed.press("Enter")
    tool.get_by_role("button", name="Replay seed", exact=True).click()
    expected = _replayed_in_cpython("2024")
    expect(tool).to_contain_text(expected, timeout=30_000)
    # The live view took the snapshot's place: one roller where the snapshot had one.
    assert page.locator(".cell .rulebook-dice-roller").count() == 2
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "wasm_dice.png"), full_page=False)
    tool.screenshot(path=str(SCREENSHOTS / "wasm_dice_roller.png"))
    print(f"dice chapter ready in {seconds:.1f} s")
    assert external_requests == []
    assert errors == []
