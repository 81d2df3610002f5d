"""The live book's front door, its page for a missing chapter, and a page whose widget states
arrive late."""

import re

from playwright.sync_api import Page, expect

from tests.browser.reader import open_chapter


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
