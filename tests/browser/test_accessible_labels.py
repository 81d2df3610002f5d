"""Every input of every widget in every chapter has an accessible name, so readers with a
screen reader (and these tests) can find it by its label rather than by its look."""

import pytest
from playwright.sync_api import Page, expect

from rulebook.toc import load_book
from tests.browser.reader import open_chapter

CHAPTERS = [c.file for c in load_book().chapters]

UNNAMED = """() => {
  const fields = [...document.querySelectorAll(
      '.jupyter-widgets input, .jupyter-widgets select, .jupyter-widgets textarea')];
  const named = el => (el.labels && el.labels.length && el.labels[0].innerText.trim())
      || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')
      || el.getAttribute('title');
  return fields.filter(el => el.type !== 'hidden' && el.type !== 'file' && !named(el))
               .map(el => el.outerHTML.slice(0, 120));
}"""

COUNT = """() => document.querySelectorAll(
    '.jupyter-widgets input, .jupyter-widgets select, .jupyter-widgets textarea').length"""


def unfold(page: Page, chapter: str) -> None:
    """Open what a page keeps folded, so the fields inside are checked too: each roster's
    "edit", and on a fight page the panels it opens on demand."""
    folded = page.get_by_role("button", name="edit", exact=True)
    for _ in range(folded.count()):
        folded.first.click()
        page.wait_for_load_state("networkidle")
    if chapter.endswith("/fight"):
        closed = page.locator(".jupyter-widgets .widget-toggle-button:not(.mod-active)")
        for _ in range(closed.count()):
            closed.first.click()
            page.wait_for_load_state("networkidle")
    page.wait_for_timeout(500)      # the views of the widgets just opened are drawn


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_input_has_a_label(page: Page, book_url, chapter):
    open_chapter(page, f"{book_url}/{chapter}.ipynb")
    expect(page.locator(".rulebook-nav").first).to_be_visible(timeout=60_000)
    page.wait_for_load_state("networkidle")
    unfold(page, chapter)
    fields = page.evaluate(COUNT)
    unnamed = page.evaluate(UNNAMED)
    if not chapter.endswith("rulings"):
        assert fields > 0, f"{chapter}: no widget inputs rendered"
    assert unnamed == [], f"{chapter}: {len(unnamed)} of {fields} inputs have no label"
