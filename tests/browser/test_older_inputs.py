"""The inputs of the older chapters' tools that their own tests did not change yet: the dice
chapter's second expression, the TSL ammunition count, turn order and weapon name."""

from playwright.sync_api import Page, expect

from rulescore.dice import parse
from rulescore.text import odds
from tests.browser.reader import open_tool, set_value


def test_odds_explorer_second_expression(page: Page, book_url):
    tool = open_tool(page, book_url, "00_dice/dice", ".rulebook-odds-explorer")
    set_value(tool.get_by_label("First expression"), "3d6")
    set_value(tool.get_by_label("Second expression"), "2d10")
    set_value(tool.get_by_label("Target (total at least)"), "12")
    table = tool.locator(".rulebook-compare")
    for text in ("3d6", "2d10"):
        p = parse(text).distribution().p_at_least(12)
        expect(table.get_by_role("row", name=f"{text} {odds(p)}", exact=False)).to_be_visible()
    set_value(tool.get_by_label("Second expression"), "")
    expect(table.get_by_role("row")).to_have_count(2)          # the head and one expression
    set_value(tool.get_by_label("Second expression"), "2d")
    expect(tool.get_by_role("alert")).to_be_visible()
    set_value(tool.get_by_label("First expression"), "")
    set_value(tool.get_by_label("Second expression"), "")
    expect(tool.get_by_role("alert")).to_contain_text("First expression is empty")


def test_tsl_ammunition_turn_order_and_weapon_name(page: Page, book_url):
    resolver = open_tool(page, book_url, "tsl/combat", ".rulebook-tsl-attack")
    resolver.get_by_label("Weapon zone").select_option("Ranged")
    resolver.get_by_label("Distance to target").select_option("Near")
    set_value(resolver.get_by_label("Ammunition uses left"), "x")
    resolver.get_by_label("My dice").fill("6, 6, 5, 4, 1")
    resolver.get_by_role("button", name="Use my dice").click()
    expect(resolver.get_by_role("alert").filter(has_text="Ammunition uses left")).to_be_visible()
    set_value(resolver.get_by_label("Ammunition uses left"), "3")
    resolver.get_by_role("button", name="Use my dice").click()
    expect(resolver.locator(".rulebook-trace")).to_contain_text(
        "The attack spends 1 use, hit or miss: 3 → 2")
    board = page.locator(".rulebook-tsl-turns")
    set_value(board.get_by_label("Turn order (GM's call)"), "Mar, Vela")
    board.get_by_role("button", name="Start encounter").click()
    expect(board.locator(".rulebook-tsl-round")).to_contain_text("Round 1: Mar is acting")
    set_value(board.get_by_label("Turn order (GM's call)"), "Vela, Mar")
    board.get_by_role("button", name="Re-call order").click()
    expect(board).to_contain_text("the GM calls Vela, Mar")
    set_value(board.get_by_label("Turn order (GM's call)"), "Vela, Vela")
    board.get_by_role("button", name="Start encounter").click()
    expect(board.get_by_role("alert").first).to_be_visible()
    weapon = page.locator(".rulebook-tsl-weapon")
    set_value(weapon.get_by_label("Name", exact=True), "Gaff hook")
    expect(weapon).to_contain_text("Gaff hook")
