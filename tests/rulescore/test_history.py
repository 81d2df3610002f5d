"""The generic undo/redo history (rulescore.history)."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from rulescore.errors import RulesError
from rulescore.history import MAX_STATES, History


def test_push_undo_redo_and_the_log():
    h = History.start(0, "start").push(1, "one").push(2, "two")
    assert (h.current, h.log, h.can_undo, h.can_redo) == (2, ("start", "one", "two"), True, False)
    h = h.undo()
    assert (h.current, h.log, h.can_redo) == (1, ("start", "one"), True)
    assert h.redo().current == 2
    h = h.push(5, "five")
    assert (h.states, h.log, h.can_redo) == ((0, 1, 5), ("start", "one", "five"), False)


def test_nothing_to_undo_or_redo_is_a_rules_error():
    h = History.start("a")
    with pytest.raises(RulesError, match="Undo: there is nothing to undo"):
        h.undo()
    with pytest.raises(RulesError, match="Redo: there is nothing to redo"):
        h.redo()
    with pytest.raises(RulesError, match="position must be from 0 to 0, got 3"):
        History(("a",), ("start",), 3)
    with pytest.raises(RulesError, match="one line for each of its states"):
        History(("a", "b"), ("start",), 0)


def test_only_the_latest_states_are_kept():
    h = History.start(0)
    for i in range(1, 250):
        h = h.push(i, f"step {i}")
    assert len(h.states) == MAX_STATES and h.current == 249 and h.states[0] == 50
    assert h.log[0] == "step 50"
    for _ in range(MAX_STATES - 1):
        h = h.undo()
    assert h.current == 50 and not h.can_undo


@given(st.lists(st.sampled_from(["push", "undo", "redo"]), max_size=60))
def test_undo_after_push_gives_back_the_state_before(ops):
    h, n = History.start(0), 0
    for op in ops:
        before = h.current
        if op == "push":
            n += 1
            h = h.push(n, str(n))
            assert h.undo().current == before and not h.can_redo
        elif op == "undo" and h.can_undo:
            assert h.undo().redo() == h
            h = h.undo()
        elif op == "redo" and h.can_redo:
            h = h.redo()
        assert h.log[-1] == h.lines[h.position]
