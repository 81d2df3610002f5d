"""The scripted GM of benchmarks/web/loop_range_bands.py on the suite's served book: one shot on
the range-band fight page leaves on the page the difficulty, result and recorded hit that
rulescore works out for the same fighters and dice, within its goal
(loop_range_bands.GOAL_RANGE_BANDS). Counts of presses, not timings, so they are asserted."""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import Page

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks" / "web"))

import loop_range_bands  # noqa: E402


def test_range_band_shot_within_its_goal(page: Page, book_url):
    page.set_viewport_size({"width": 1280, "height": 1600})
    (loop,) = loop_range_bands.loops(page, book_url)
    assert loop.checked, loop.why
    assert loop.pages == 1
    assert loop.interactions <= loop_range_bands.GOAL_RANGE_BANDS, loop.line()
    assert loop.met
    # The target picked, the dice typed and used, the hit recorded: the shooter is the page's
    # own first fighter.
    assert loop.interactions == 4, loop.line()
    print(loop.line().split("  (")[0])
