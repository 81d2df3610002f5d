"""The scripted GM of benchmarks/web/loop_exploding_d6.py on the suite's served book: an
exploding-d6 attack with a parry leaves on the page the state rulescore works out for the same
dice, within the issue's interaction goal (issue 22 item 5). Counts of presses, not timings."""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import Page

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
