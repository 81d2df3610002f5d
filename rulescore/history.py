"""Undo and redo over any frozen state: a page's whole history, one step per change.

A :class:`History` is itself frozen: pushing, undoing and redoing return a new history, so a
tool holds one value and a test compares two. ``lines[i]`` says what made ``states[i]`` (the
log a reader reads); pushing after an undo drops the steps that were undone, as every editor
does, and only the latest :data:`MAX_STATES` states are kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from .errors import RulesError

__all__ = ["History", "MAX_STATES"]

S = TypeVar("S")

MAX_STATES = 200
"""How many states a history keeps; the oldest go first (a long fight stays small to save)."""


@dataclass(frozen=True)
class History(Generic[S]):
    """States *states* with the line that made each, and the *position* of the current one."""

    states: tuple[S, ...]
    lines: tuple[str, ...]
    position: int

    def __post_init__(self) -> None:
        if not self.states or len(self.states) != len(self.lines):
            raise RulesError("a history needs one line for each of its states, and a state")
        if not 0 <= self.position < len(self.states):
            raise RulesError(f"a history's position must be from 0 to {len(self.states) - 1}, "
                             f"got {self.position}")

    @classmethod
    def start(cls, state: S, line: str = "start") -> History[S]:
        """A history holding only *state*."""
        return cls((state,), (line,), 0)

    @property
    def current(self) -> S:
        return self.states[self.position]

    @property
    def log(self) -> tuple[str, ...]:
        """What made each state up to the current one, oldest first."""
        return self.lines[:self.position + 1]

    @property
    def can_undo(self) -> bool:
        return self.position > 0

    @property
    def can_redo(self) -> bool:
        return self.position < len(self.states) - 1

    def push(self, state: S, line: str) -> History[S]:
        """*state*, made by *line*, after the current one; the undone steps are dropped."""
        states = self.states[:self.position + 1] + (state,)
        lines = self.lines[:self.position + 1] + (line,)
        drop = max(0, len(states) - MAX_STATES)
        return History(states[drop:], lines[drop:], len(states) - 1 - drop)

    def undo(self) -> History[S]:
        """The history one step back; a RulesError when there is nothing to undo."""
        if not self.can_undo:
            raise RulesError("Undo: there is nothing to undo")
        return History(self.states, self.lines, self.position - 1)

    def redo(self) -> History[S]:
        """The history one step forward again; a RulesError when there is nothing to redo."""
        if not self.can_redo:
            raise RulesError("Redo: there is nothing to redo")
        return History(self.states, self.lines, self.position + 1)
