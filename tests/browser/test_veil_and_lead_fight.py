"""The served Veil & Lead fight page, used as a GM would: the starter roster rolled onto the
Count, one exchange (next turn, the acting fighter's attack on the chosen target, apply) counted
and checked on the page, the Grievous Wound d8 rolled, undone and redone; the page screenshotted
for a person to look at."""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.reader import open_tool

SHOTS = Path(os.environ.get("RULEBOOK_SHOTS", "/tmp"))
# Initiative: Caleb's 4 d8 [8, 7, 1, 1] make 15 against 11, margin 4: Tick 3; the Enforcer's 2 d8
# [2, 1] make 3: a failure, Tick 6 and Surprised (§II).
INITIATIVE = "8, 7, 1, 1, 2, 1"
# Caleb's Peacemaker: 6 d8 against Defense 9 − 2 (Surprised) = TN 7; 8 + 8 + 2 (Masterwork) = 18,
# margin 11: 3 Steps; WR 3 + 3 − AR 1 (Duster) = 5 damage: 10 → 5, Wounded, a Grievous Wound.
ATTACK = "8, 8, 1, 1, 1, 1"


def _typed(entry, dice: str) -> None:
    entry.get_by_label("My dice").fill(dice)
    entry.get_by_role("button", name="Use my dice").click()


def test_one_exchange_lands_on_the_target(page: Page, book_url):
    page.set_viewport_size({"width": 1280, "height": 1600})
    panel = open_tool(page, book_url, "veil_and_lead/fight", ".rulebook-vl-fight")
    _typed(panel.locator(".rulebook-vl-fight-join"), INITIATIVE)
    board = panel.locator(".rulebook-vl-fight-board")
    enforcer = board.locator("tr[data-fighter='Enforcer']")
    expect(enforcer.locator(".conditions")).to_have_text("Surprised")
    expect(enforcer.locator(".vitality")).to_have_text("10 / 10")
    page.screenshot(path=str(SHOTS / "veil_and_lead_fight_top.png"))

    interactions = 0
    panel.get_by_role("button", name="Next turn").click()
    interactions += 1
    expect(panel.locator(".rulebook-vl-acting")).to_contain_text("Caleb to act")
    expect(panel.get_by_label("Acting fighter", exact=True)).to_have_value("Caleb")
    expect(panel.get_by_label("Target", exact=True)).to_have_value("Enforcer")
    expect(panel.locator(".rulebook-vl-fight-odds")).to_contain_text("6 d8 against TN 7")
    _typed(panel.locator(".rulebook-vl-fight-attack"), ATTACK)
    interactions += 2
    expect(panel.locator(".rulebook-vl-fight-result")).to_contain_text("Hit: 5 damage")
    panel.get_by_role("button", name="Apply to the target").click()
    interactions += 1
    expect(enforcer.locator(".vitality")).to_have_text("5 / 10")
    expect(enforcer.locator(".state")).to_have_text("Wounded")
    expect(board.locator("tr[data-fighter='Caleb'] td").nth(1)).to_have_text("Tick 7")
    assert interactions <= 6

    grievous = panel.locator(".rulebook-vl-fight-grievous")
    expect(grievous).to_be_visible()
    grievous.get_by_role("button", name="Roll", exact=True).click()
    expect(page.locator(".rulebook-roll-log")).to_contain_text("Grievous Wound d8 for Enforcer")
    expect(grievous).to_be_hidden()
    expect(page.locator(".rulebook-roll-log")).to_contain_text("Caleb's Steady Shot at Enforcer")
    page.locator(".rulebook-fight").screenshot(path=str(SHOTS / "veil_and_lead_fight.png"))
    page.get_by_role("button", name="Undo", exact=True).click()
    expect(grievous).to_be_visible()
    page.get_by_role("button", name="Undo", exact=True).click()
    expect(enforcer.locator(".vitality")).to_have_text("10 / 10")
    page.get_by_role("button", name="Redo", exact=True).click()
    expect(enforcer.locator(".state")).to_have_text("Wounded")
