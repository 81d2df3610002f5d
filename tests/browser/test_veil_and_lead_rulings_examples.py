"""The rulings chapter's worked edge cases, entered in the book's tools (chromium). The rulings
page itself holds no tools: each case goes into the tool of the chapter it rules on, and reads
the result the rulings chapter prints (its asserts check the same numbers against the engine)."""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect

from rulescore.roster import Roster
from rulescore.systems import veil_and_lead as vl
from rulescore.text import percent
from tests.browser.reader import open_tool, set_value
from widgets.roster import store_key


def test_running_past_19_and_a_quick_shot_with_a_slow_gun(page: Page, book_url):
    """A token at tick 18 spending tempo 6 lands on tick 4; a Quick Shot with a Buffalo Rifle
    is tempo 5, not Exposed by tempo, Exposed by the table as printed."""
    tool = open_tool(page, book_url, "veil_and_lead/actions", ".rulebook-vl-tempo")
    result = tool.locator(".rulebook-vl-tempo-result")
    tool.get_by_label("Action").select_option("Reload (Manual)")
    set_value(tool.get_by_label("Acting at tick"), "18")
    expect(result).to_contain_text("the token moves from Tick 18 to Tick 4")
    tool.get_by_label("Action").select_option("Quick Shot")
    tool.get_by_label("Weapon", exact=True).select_option("Buffalo Rifle")
    tool.get_by_label("Exposure rule").select_option(label="By tempo (3 or less exposes)")
    expect(result).to_contain_text("Quick Shot with Buffalo Rifle: tempo 5")
    expect(result).to_contain_text("not Exposed")
    tool.get_by_label("Exposure rule").select_option(label="As each action prints it")
    expect(result).to_contain_text("Exposed until the fighter's next turn")


def test_the_initiative_ceiling_with_and_without_an_ambush(page: Page, book_url):
    """Nine dice (QUICK 5, Awareness 4) start only at ticks 3, 4 or 6; a prepared ambush opens
    tick 2 (nearly one roll in three), never tick 0."""
    best = Roster(vl.ROSTER).add("Nine", quick=5, awareness=4)
    page.add_init_script(f"window.localStorage.setItem({json.dumps(store_key('veil_and_lead'))}"
                         f", {json.dumps(best.to_json())})")
    tool = open_tool(page, book_url, "veil_and_lead/table", ".rulebook-vl-initiative")
    odds = tool.locator(".rulebook-vl-init-odds")
    expect(odds).to_contain_text("Nine (9d8)", timeout=20_000)
    for (tick, state), p in vl.starting_tick_distribution(9).items():
        expect(odds).to_contain_text(f"Tick {tick} {state}: {percent(p)}")
    expect(odds).not_to_contain_text("Tick 2 Fast")
    tool.get_by_label("Situation of Nine").select_option("Prepared ambush (+2)")
    ambush = vl.starting_tick_distribution(9, 2)
    expect(odds).to_contain_text(f"Tick 2 Fast: {percent(ambush[(2, 'Fast')])}")
    expect(odds).not_to_contain_text("Tick 0")


def test_reactions_refused_and_half_of_an_odd_vitality(page: Page, book_url):
    """A Dodge while Surprised (Mettle 3) and a second Reaction before your turn are refused;
    IRON 3 (11 Vitality) is Healthy at 6 and Wounded at 5."""
    tool = open_tool(page, book_url, "veil_and_lead/conditions", ".rulebook-vl-reaction")
    result = tool.locator(".rulebook-vl-reaction-result")
    set_value(tool.get_by_label("Mettle", exact=True), "3")
    tool.get_by_label("Surprised").check()
    expect(result).to_have_text("Refused: Mettle stays at 3")
    tool.get_by_label("Surprised").uncheck()
    set_value(tool.get_by_label("Mettle", exact=True), "2")
    set_value(tool.get_by_label("Reactions since your last turn"), "1")
    expect(result).to_have_text("Refused: Mettle stays at 2")
    walker = open_tool(page, book_url, "veil_and_lead/injury", ".rulebook-vl-downed")
    set_value(walker.get_by_label("IRON", exact=True), "3")
    set_value(walker.get_by_label("Vitality now"), "6")
    expect(walker).to_contain_text("Healthy at Vitality 6 of 11")
    set_value(walker.get_by_label("Vitality now"), "5")
    expect(walker).to_contain_text("Wounded at Vitality 5 of 11")
