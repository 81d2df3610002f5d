"""What the TSL browser tests do in a chapter's tools as a reader: open a chapter at one tool,
type the dice rolled at the table, set a roll against a static T-number."""

from __future__ import annotations

from collections.abc import Iterable

from playwright.sync_api import Locator, Page, expect

from tests.browser.reader import open_chapter, set_value, use_my_dice


def open_tsl_tool(page: Page, book_url: str, chapter: str, css: str, index: int = 0) -> Locator:
    """Open *chapter* (e.g. "tsl/gear.ipynb") and wait for its *index*-th tool matching
    *css*."""
    open_chapter(page, f"{book_url}/{chapter}")
    tool = page.locator(css).nth(index)
    expect(tool).to_be_visible(timeout=60_000)
    return tool


def use_dice(tool: Locator, faces: Iterable[int]) -> None:
    """Type *faces* into the tool's "My dice" entry, comma-separated, and use them."""
    use_my_dice(tool, ", ".join(map(str, faces)))


def static_t_number(tool: Locator, tier: str, target: int) -> None:
    """Set the attack resolver to a roll of an attacker of *tier* against a static T-number
    (§Static T-numbers), picked and typed by the fields' labels."""
    tool.get_by_label("Kind of roll").select_option(label="Static T-number")
    tool.get_by_label("Attacker tier").select_option(label=tier)
    set_value(tool.get_by_label("T-number"), str(target))
