"""The static book's tools run in the reader's browser (Pyodide): served as files on 127.0.0.1
(``static_site``), in a chromium that reaches no other host and counts every try
(``static_page``), a chapter's page starts Python itself and a tool answers from it."""

from __future__ import annotations

import html
import re
import time

from playwright.sync_api import Page, expect

from .served import ROOT
from .static_book import open_static

SCREENSHOTS = ROOT / "_build" / "screenshots"


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


def _flat(text: str) -> str:
    """Text with every space left out (a die's face sits in a box of its own, so the page's
    text runs faces together)."""
    return re.sub(r"\s+", "", text)


def test_the_dice_chapter_rolls_in_the_browser_with_no_other_host(static_page: Page,
                                                                   static_site):
    """The fenced page (static_page fails the test on any request to another host) starts
    Python, and the first tool answers a seeded roll as the same tool does in CPython."""
    errors: list[str] = []
    static_page.on("pageerror", lambda e: errors.append(str(e)))
    started = time.monotonic()
    assert open_static(static_page, f"{static_site}/00_dice/dice.html") == "ready"
    print(f"dice chapter ready in {time.monotonic() - started:.1f} s")
    tool = static_page.locator(".rulebook-dice-roller").first
    seed = tool.get_by_label("Seed", exact=True)
    expect(seed).to_be_enabled()
    seed.fill("2024")
    seed.press("Enter")
    tool.get_by_role("button", name="Replay seed", exact=True).click()
    expect(tool).to_contain_text("(seed 2024)", timeout=30_000)
    assert _flat(_replayed_in_cpython("2024")) in _flat(tool.text_content() or "")
    # Each tool's live view took its snapshot's place: two rollers, as the chapter has.
    assert static_page.locator(".cell .rulebook-dice-roller").count() == 2
    # The progress line counted each file once: no more than the network brought from the site's
    # Python folder (a file counted twice would exceed it).
    counted = static_page.evaluate("performance.getEntriesByName('rulebook-wasm:cells-run')[0]"
                                   ".detail.counted")
    fetched = sum(size for url, size in static_page.traffic.visit.by_url.items()
                  if "/_pyodide/" in url)
    assert 0 < counted <= fetched, (counted, fetched)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    static_page.screenshot(path=str(SCREENSHOTS / "wasm_dice.png"))
    tool.screenshot(path=str(SCREENSHOTS / "wasm_dice_roller.png"))
    assert errors == []
