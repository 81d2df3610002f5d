"""What the exploding-d6 browser tests do on the fight page as a GM: open it on one screen,
join the fight with the initiative dice rolled at the table, pass turns, attack with typed dice."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from tests.browser.reader import open_tool, use_my_dice

FIGHT = "exploding_d6/fight"
# The screen the fight page is laid out for: a 1280 px wide laptop, 900 px tall.
SCREEN = {"width": 1280, "height": 900}


def open_fight(page: Page, book_url: str) -> Locator:
    """Open the fight page on a 1280 × 900 screen and return its panel."""
    page.set_viewport_size(SCREEN)
    return open_tool(page, book_url, FIGHT, ".rulebook-x6-fight")


def join_fight(panel: Locator, dice: str) -> None:
    """Type everyone's initiative dice into the page's join entry and use them (§Start of
    combat): the roster's fighters join in the order the dice give."""
    use_my_dice(panel, dice, name="initiative")


def acting(panel: Locator) -> Locator:
    """The line naming the round and the fighter whose turn it is."""
    return panel.locator(".rulebook-x6-acting")


def next_turns(panel: Locator, *turns: str) -> None:
    """Press Next turn once for each of *turns*, each time checking the acting line shows it
    (e.g. "Round 1: Robber")."""
    for turn in turns:
        panel.get_by_role("button", name="Next turn").click()
        expect(acting(panel)).to_contain_text(turn)


def attack_with(panel: Locator, dice: str) -> None:
    """Type the attack's dice (hits, then the target's rolls) into the attack entry and use
    them."""
    use_my_dice(panel.locator(".rulebook-x6-fight-attack"), dice)


def fighter_row(panel: Locator, name: str) -> Locator:
    """The fight board's row of the fighter called *name*."""
    return panel.locator(f".rulebook-x6-fight-board tr[data-fighter='{name}']")
