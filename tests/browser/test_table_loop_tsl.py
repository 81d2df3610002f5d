"""The scripted GM of benchmarks/web/loop_tsl.py on the suite's served book: a TSL attack after
the first leaves on the fight page the state rulescore works out for the same dice, within the
interaction goal (loop_tsl.GOAL_TSL). Counts of presses, not timings, so they are
asserted."""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import Page

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks" / "web"))

import loop_tsl


def test_tsl_attack_after_the_first_within_its_goal(page: Page, book_url):
    page.set_viewport_size({"width": 1280, "height": 1600})
    (loop,) = loop_tsl.loops(page, book_url)
    assert loop.checked, loop.why
    assert loop.pages == 1
    assert loop.interactions <= loop_tsl.GOAL_TSL, loop.line()
    assert loop.met
    # Next turn, the dice typed and used, Apply: the board passes over the Broken Thug A, and
    # the page fills in the attacker (Thug B) and the target (Vela) itself.
    assert loop.interactions == 4, loop.line()
