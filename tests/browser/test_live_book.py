"""The live book's front door and its page for a missing chapter."""

import re

from playwright.sync_api import Page, expect


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
