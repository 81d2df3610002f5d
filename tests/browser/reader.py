"""What every browser test does as a reader: open a chapter at one tool, type into a field."""

from playwright.sync_api import Locator, Page, expect


def open_tool(page: Page, book_url: str, chapter: str, css: str) -> Locator:
    """Open *chapter* (e.g. "percentile/injury") in the served book and wait for its first
    tool matching *css*."""
    page.goto(f"{book_url}/{chapter}.ipynb")
    tool = page.locator(css).first
    expect(tool).to_be_visible(timeout=60_000)
    return tool


def set_value(field: Locator, text: str) -> None:
    """Type into a field and commit it, as a reader pressing Enter would."""
    field.fill(text)
    field.press("Enter")
