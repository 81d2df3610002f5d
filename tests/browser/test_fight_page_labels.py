"""Every label on a "Running a fight" page reads whole at desktop width (DESIGN.md §5, reader
words): a field's label is its name for the reader and a screen reader alike, and a label cut
to "Exchange se…" leaves the GM guessing which of two dice entries it belongs to. Each page
is opened with every panel it folds away open."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.reader import open_chapter

FIGHT_PAGES = ("veil_and_lead/fight", "percentile/fight", "exploding_d6/fight", "tsl/fight",
               "range_bands/fight")

#: The labels shown on the page whose text runs past the room their column gives it.
CUT_LABELS_JS = """() => [...document.querySelectorAll('.widget-label')]
  .filter(label => label.offsetParent !== null && label.scrollWidth > label.clientWidth + 1)
  .map(label => label.textContent)"""


@pytest.mark.parametrize("chapter", FIGHT_PAGES)
def test_every_label_on_a_fight_page_reads_whole(page: Page, book_url, chapter):
    page.set_viewport_size({"width": 1280, "height": 900})
    open_chapter(page, f"{book_url}/{chapter}.ipynb")
    for opener in page.locator(".widget-toggle-button").all():
        if opener.get_attribute("aria-pressed") != "true":
            opener.click()
    page.wait_for_timeout(500)
    labels = page.locator(".widget-label")
    assert labels.filter(has_text="seed").count() >= 1   # a dice entry is on the page
    assert page.evaluate(CUT_LABELS_JS) == []
