"""The static book's first tool answers before the chapter's last cell has run: the loader puts
each cell's live view in place of its snapshot as the cell runs and takes the reader's input
between cells, marks the page's first tool live (``rulebook-wasm:first-tool``,
``data-rulebook-wasm-tool="live"``), and a fighter typed into the percentile injury chapter's
roster at that moment is added, not lost, while the cells after it run."""

from __future__ import annotations

import wasm_page
from playwright.sync_api import Page, expect

from tests.browser.reader import SHOTS
from tests.browser.static_book import READY_TIMEOUT_MS

CHAPTER = "percentile/injury"
MARKS_JS = """() => Object.fromEntries(performance.getEntriesByType('mark')
    .filter(m => m.name.startsWith('rulebook-wasm:'))
    .map(m => [m.name.slice('rulebook-wasm:'.length), m.startTime]))"""
# A reader quicker than Playwright's round trips: the moment the page marks its first tool
# live, a fighter's name is typed into the live roster and "Add fighter" clicked, from the page
# itself, and the page's state at that click is kept (loading: later cells still to run).
EAGER_READER_JS = """(() => {
  window.__click_states = [];
  const act = () => {
    const html = document.documentElement;
    if (html.dataset.rulebookWasmTool !== 'live' || window.__click_states.length) return;
    const roster = document.querySelector('.rulebook-wasm-output .rulebook-roster');
    const name = Array.from(roster.querySelectorAll('input[type=text]'))
      .find((f) => f.closest('.widget-inline-hbox, .widget-text')?.innerText.includes('New fighter'));
    const add = Array.from(roster.querySelectorAll('button'))
      .find((b) => b.textContent.trim() === 'Add fighter');
    name.value = 'Ada';
    name.dispatchEvent(new Event('input', {bubbles: true}));
    name.dispatchEvent(new Event('change', {bubbles: true}));
    window.__click_states.push(html.getAttribute('data-rulebook-wasm'));
    add.click();
  };
  new MutationObserver(act).observe(document, {subtree: true, attributes: true,
    attributeFilter: ['data-rulebook-wasm-tool']});
})();"""


def test_the_first_tool_is_live_before_the_last_cell_and_keeps_a_click(static_page: Page,
                                                                        static_site):
    page = static_page
    page.add_init_script(EAGER_READER_JS)
    page.goto(f"{static_site}/{CHAPTER}.html", wait_until="commit")
    page.wait_for_function("() => document.documentElement.dataset.rulebookWasmTool === 'live'",
                           timeout=READY_TIMEOUT_MS, polling=20)
    roster = page.locator(".rulebook-wasm-output .rulebook-roster").first

    assert wasm_page.wait_settled(page, READY_TIMEOUT_MS) == "ready"
    marks = page.evaluate(MARKS_JS)
    assert marks["first-tool"] < marks["cells-run"], marks
    # TTI (READY_JS) is that first tool's live view, not the snapshot the page showed first.
    assert page.evaluate("window.__tti") >= marks["first-tool"] - 1, marks
    # The click came while later cells were still to run, and Python took it.
    assert page.evaluate("window.__click_states") == ["loading"]
    expect(roster.get_by_label("Initiative of Ada", exact=True)).to_be_visible()
    # And a reader's own click, once every cell has run, as well.
    roster.get_by_label("New fighter").fill("Bo")
    roster.get_by_role("button", name="Add fighter").click()
    expect(roster.get_by_label("Initiative of Bo", exact=True)).to_be_visible()
    # The snapshot's roster is gone: the one the reader sees is the live one.
    assert page.locator(".rulebook-roster").count() == page.locator(
        ".rulebook-wasm-output .rulebook-roster").count()
    page.screenshot(path=str(SHOTS / "static-first-tool.png"))
    print(f"first tool live {marks['first-tool']:.0f} ms, every cell run "
          f"{marks['cells-run']:.0f} ms")
