"""The web benchmark's arithmetic (no browser, no timing): each chapter open's baseline is the
median of the bare opens nearest it, the window shifted, not cut, at either end."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks" / "web"))
import run_web as R  # noqa: E402


def test_nearby_medians_take_the_bare_opens_around_each_chapter_open():
    bare = [10.0, 30.0, 20.0, 50.0, 40.0, 60.0, 70.0]
    # the middle: indices 1..5 -> median of 30, 20, 50, 40, 60
    assert R.nearby_medians(bare, [3], 5) == [40.0]
    # the ends: the window is shifted inside the list, never shortened
    assert R.nearby_medians(bare, [0, 6], 5) == [30.0, 50.0]


def test_one_slow_bare_open_does_not_set_a_chapters_baseline():
    bare = [1800.0, 1790.0, 2800.0, 1810.0, 1795.0]
    assert R.nearby_medians(bare, [2], 5) == [1800.0]


def test_fewer_bare_opens_than_the_window_use_them_all():
    assert R.nearby_medians([5.0, 1.0, 3.0], [0, 2], 5) == [3.0, 3.0]


def test_every_chapter_open_comes_right_after_a_bare_open():
    """A round alternates bare and chapter opens (so every chapter open has bare opens around
    it), in the book's order, reversed every other round."""
    names = [R.BARE, R.ECHO, "a/one", "b/two"]
    order = R._round_order(names, 0) + R._round_order(names, 1)
    assert order[::2] == [R.BARE] * (len(order) // 2)
    assert order[1::2] == [R.ECHO, "a/one", "b/two", "b/two", "a/one", R.ECHO]
