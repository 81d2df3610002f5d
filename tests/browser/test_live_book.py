"""The live book's front door, its page for a missing chapter, and a page whose widget states
arrive late."""

import re

from playwright.sync_api import Page, expect

from tests.browser.reader import open_chapter, open_tool


def test_root_opens_the_landing_page(page: Page, book_url):
    root = book_url.split("/voila/")[0] + "/"
    page.goto(root)
    expect(page).to_have_url(re.compile(r"/voila/render/index\.ipynb$"), timeout=60_000)
    expect(page.get_by_role("link", name="Dice, seeds and exact odds")).to_be_visible(
        timeout=60_000)


def test_missing_chapter_page_leads_back(page: Page, book_url):
    response = page.goto(f"{book_url}/no_such_chapter.ipynb")
    assert response.status == 404
    expect(page.get_by_role("heading", name="This page is not in the book")).to_be_visible()
    page.get_by_role("link", name="Go to the contents of the book").click()
    expect(page.get_by_role("link", name="Dice, seeds and exact odds")).to_be_visible(
        timeout=60_000)


# ipywidgets' page script asks the kernel for every widget's state in one message and, when
# no answer comes within 4 s (a busy server), asks each widget in turn. This makes that wait
# end at once, so the page takes the second path.
SLOW_STATE_ANSWER = """(() => { const later = window.setTimeout;
  window.setTimeout = (fn, ms, ...rest) => {
    if (ms === 4000) { console.warn('state request: taking the one-by-one path'); ms = 0; }
    return later(fn, ms, ...rest);
  }; })();"""


def test_a_page_whose_state_answer_is_late_still_draws_every_tool(page: Page, book_url):
    """Under a 20-reader rush some pages never drew a tool: on the one-by-one path, the dice
    entry (which then shadowed ipywidgets' own _send) never answered, so the page waited
    forever. The dice chapter holds dice entries in three kinds of tool."""
    warnings = []
    page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    page.add_init_script(SLOW_STATE_ANSWER)
    open_chapter(page, f"{book_url}/00_dice/dice.ipynb")
    assert "state request: taking the one-by-one path" in warnings
    roller = page.locator(".rulebook-dice-roller").first
    expect(roller.get_by_label("Dice expression")).to_be_visible()
    roller.get_by_role("button", name="Roll", exact=True).click()
    expect(roller.get_by_label("Seed", exact=True)).not_to_have_value("")


SHOWN_OUTPUTS = ".jp-OutputArea-output.jp-RenderedHTMLCommon"


def test_a_later_reader_sees_the_whole_chapter_and_its_tool_works(page: Page, book_url):
    """The server keeps what a chapter's first reader was shown of its tables, worked examples
    and links, and a later reader's kernel skips those cells (rulescore.serving). The later
    page shows the same text, and its tool, whose kernel never ran the skipped cells, still
    answers."""
    url = f"{book_url}/percentile/injury.ipynb"
    open_chapter(page, url)
    first = page.locator(SHOWN_OUTPUTS).all_inner_texts()
    assert len(first) >= 15 and any("Thorax" in text for text in first)
    tool = open_tool(page, book_url, "percentile/injury", ".rulebook-pc-injury")
    assert page.locator(SHOWN_OUTPUTS).all_inner_texts() == first
    expect(page.get_by_role("navigation", name="Chapter navigation").first).to_be_visible()
    tool.get_by_label("Next die").fill("2")
    tool.get_by_role("button", name="Add this die").click()
    expect(tool.locator(".rulebook-pc-injury-result")).to_contain_text("next: roll the Location Die")
