"""The scripted GM of benchmarks/web/table_loop.py on the suite's served book: each fight page's
exchange leaves on the page the state rulescore works out for the same dice, within their
interaction goals (table_loop.GOAL_VL, GOAL_PERCENTILE). Counts of presses, not timings, so they
are asserted."""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import Page

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks" / "web"))

import table_loop  # noqa: E402


def test_veil_and_lead_exchange_within_its_goal(page: Page, book_url):
    page.set_viewport_size({"width": 1280, "height": 1600})
    loop, before = table_loop.vl_loop(page, book_url)
    assert loop.checked, loop.why
    assert loop.pages == 1
    assert loop.interactions <= table_loop.GOAL_VL, loop.line()
    assert loop.met
    # Next turn, the dice typed and used, Apply: the page fills in the acting fighter and the
    # target itself.
    assert loop.interactions == 4, loop.line()
    assert before == 2  # the initiative dice typed and used, once a fight


def test_percentile_shot_melee_and_healing(page: Page, book_url):
    page.set_viewport_size({"width": 1280, "height": 1600})
    shot, melee, healing = table_loop.percentile_loops(page, book_url)
    for loop in (shot, melee, healing):
        assert loop.checked, loop.line()
        assert loop.pages == 1
    assert shot.interactions <= table_loop.GOAL_PERCENTILE, shot.line()
    assert shot.met
    # The missile panel opened, the range typed, the dice typed and used, Write it into the
    # record: the shooter is the fighter acting and the target the other, filled in by the page.
    assert shot.interactions == 5, shot.line()
    assert melee.interactions == 5, melee.line()   # Next turn, the panel, the dice, Write
    assert healing.interactions == 6, healing.line()
