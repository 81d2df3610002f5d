"""A chapter of the static book whose tools cannot run in the reader's browser. Without
WebAssembly the page says so in a reader's words, links the same chapter in the live book,
keeps its text and the snapshot of its tools, and fetches none of Python's runtime. Where the
runtime fails to start, the page says so, links the live chapter and keeps the snapshot.

Chromium hides WebAssembly under V8's ``--jitless`` (this V8 has no ``--noexpose_wasm`` any
more: WebAssembly stays visible with it)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.static_book import open_static
from voila_process import CHROMIUM, CHROMIUM_ARGS  # noqa: I001 - on the path once served is
import wasm_page  # noqa: I001

NO_WASM_ARGS = ["--js-flags=--jitless"]


@pytest.fixture(scope="module")
def no_wasm_page(playwright):
    browser = playwright.chromium.launch(
        executable_path=CHROMIUM, args=CHROMIUM_ARGS + wasm_page.FENCE_ARGS + NO_WASM_ARGS)
    page = browser.new_page()
    page.traffic = wasm_page.Traffic(page)  # type: ignore[attr-defined]
    yield page
    browser.close()


def test_without_webassembly_the_page_says_so_and_links_the_live_book(no_wasm_page, static_site):
    page = no_wasm_page
    visit = page.traffic.start()
    page.goto("about:blank")
    assert page.evaluate("() => typeof WebAssembly") == "undefined"
    assert open_static(page, f"{static_site}/00_dice/dice.html") == "unsupported"
    status = page.locator("#rulebook-wasm-status")
    expect(status).to_be_visible()
    expect(status).to_contain_text("cannot run WebAssembly")
    link = status.get_by_role("link", name="open this chapter in the live book")
    expect(link).to_have_attribute("href", re.compile(r"00_dice/dice\.ipynb$"))
    assert "Traceback" not in status.inner_text() and "Error" not in status.inner_text()
    expect(page.get_by_role("heading", name=re.compile("^Dice, seeds and exact odds"))) \
        .to_be_visible()
    expect(page.locator(".rulebook-dice-roller").first).to_be_attached()
    page.wait_for_load_state("networkidle")
    fetched = [url for url in visit.by_url if "/_pyodide/" in url]
    assert not [u for u in fetched if "/runtime-" in u or "/archives/" in u], fetched
    assert visit.offsite == []


def test_when_python_fails_to_start_the_page_keeps_its_snapshot(static_page, static_site):
    """The runtime's entry module missing (as on a host that lost a file): the page keeps the
    build's snapshot of the chapter's two dice rollers, each drawn once."""
    page = static_page
    page.route("**/_pyodide/runtime-*/pyodide.mjs", lambda route: route.fulfill(status=404))
    assert open_static(page, f"{static_site}/00_dice/dice.html") == "failed"
    status = page.locator("#rulebook-wasm-status")
    expect(status).to_contain_text("could not start")
    expect(status).to_contain_text("as they were when the book was built")
    expect(status.get_by_role("link", name="open this chapter in the live book")) \
        .to_have_attribute("href", re.compile(r"00_dice/dice\.ipynb$"))
    rollers = page.locator(".cell .rulebook-dice-roller")
    expect(rollers).to_have_count(2)
    expect(rollers.first.get_by_label("Seed", exact=True)).to_be_visible()
    assert page.locator(".rulebook-wasm-output").count() == 0
