"""The live book's front door, its page for a missing chapter, and a page whose widget states
arrive late; the warm-up of every page as the server starts."""

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
    """On the one-by-one path every widget must answer its own state request (a widget class
    that shadowed ipywidgets' own _send would not, and the page would wait forever). The dice
    chapter holds dice entries in three kinds of tool."""
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
    and links, and a later reader's kernel skips those cells (rulebook.serving). The later
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


def test_the_server_warms_every_page_up_at_start_and_stops_their_kernels(book_url, book_log):
    """As it starts, the live server opens every page of the book once, so that a chapter's
    first reader is served the kept tables, examples and links like every later reader, and it
    stops each of those pages' kernels (no reader will connect to them)."""
    import time

    from rulebook.toc import load_book

    book = load_book()
    pages = 1 + sum((book.book_dir / c.notebook).is_file() for c in book.chapters)
    deadline = time.time() + 300
    while "warm-up:" not in (text := book_log.read_text()) and time.time() < deadline:
        time.sleep(1)
    found = re.search(r"warm-up: (\d+) pages rendered in [\d.]+ s, "
                      r"(\d+) outputs kept for their readers(.*)", text)
    assert found, "the server never reported its warm-up"
    assert int(found.group(1)) == pages and found.group(3).strip() == ""   # none failed
    assert int(found.group(2)) >= 50            # the book's tables, examples and links
    # Every warm-up page's kernel is stopped by the time of the report. A reader's page frees
    # its kernel too when it is closed or left (rulebook.connection), and the other tests'
    # readers may have come and gone during the warm-up, so there may be more.
    assert len(set(re.findall(r"Kernel shutdown: ([0-9a-f-]+)", text[:found.start()]))) >= pages
