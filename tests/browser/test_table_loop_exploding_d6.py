"""The scripted GM of benchmarks/web/loop_exploding_d6.py on the suite's served book: an
exploding-d6 attack with a parry leaves on the page the state rulescore works out for the same
dice, within its interaction goal (loop_exploding_d6.GOAL_X6). Counts of presses, not timings."""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.x6_fight import (acting, attack_with, fighter_row, join_fight, next_turns,
                                    open_fight)

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks" / "web"))

import loop_exploding_d6


def test_exploding_d6_attack_with_a_parry_within_its_goal(page: Page, book_url):
    page.set_viewport_size({"width": 1280, "height": 900})
    expected = loop_exploding_d6.x6_expected(loop_exploding_d6.x6_roster())
    assert "megacritical" in expected.headline  # the dice make the headline name it
    (loop,) = loop_exploding_d6.loops(page, book_url)
    assert loop.checked, loop.line()
    assert loop.pages == 1
    assert loop.interactions <= loop_exploding_d6.GOAL_X6, loop.line()
    assert loop.met
    # Next turn, Parry picked, the dice typed and used, Apply: the page fills in the attacker
    # and the target itself.
    assert loop.interactions == 5, loop.line()
    print(loop.line().split("  (")[0])


def test_a_shield_block_raised_a_round_before_stops_hits_as_in_hagens_example(page: Page,
                                                                               book_url):
    """§Reactions: three hits on Hagen, his round shield rolls 5, 5 and 2 at 5+, two hits are
    stopped and the third hits him; here the shield is a Shield Block raised in round 1
    (§Shields: two actions, cover from the next round), and his protection takes the third."""
    panel = open_fight(page, book_url)
    join_fight(panel, "5, 5, 5, 1, 1, 1")
    expect(acting(panel)).to_contain_text("Round 1: Hagen")
    panel.get_by_role("button", name="Other actions").click()
    panel.get_by_role("button", name="Raise shield").click()
    hagen = fighter_row(panel, "Hagen")
    expect(hagen.locator(".status")).to_have_text("Shield Block from round 2")
    next_turns(panel, "Round 1: Robber", "Round 2: Hagen", "Round 2: Robber")
    expect(panel.locator(".rulebook-x6-fight-setup")).to_contain_text(
        "Hagen's Shield Block covers 5+")
    attack_with(panel, "5, 5, 5, 1, 1, 5, 5, 2")
    expect(panel.locator(".rulebook-x6-fight-result")).to_contain_text(
        "0 critical(s) and 2 hit(s) stopped")
    panel.get_by_role("button", name="Apply to Hagen").click()
    expect(hagen.locator(".protection")).to_have_text("1")
    expect(hagen.locator(".wounds")).to_have_text("0")
