"""Checks of the range-band system's plain values: dice typed in, pools and bonuses, and the
yes/no cells of its tables. Nothing here is a rule; the rules live in the modules that use it."""

from __future__ import annotations

from typing import Any

from rulescore.errors import RulesError, TableError, require_faces, require_int, shown
from rulescore.tables import Row

MAX_POOL = 30
#: Dice of a difficulty: a little past the hardest shot the rules build, 21D (a target four
#: bands from the optimal band 8D, heavy cover +3D, snapshot +1D, called shot +2D, area
#: fire +2D and the GM's largest adjustment +5D).
MAX_DIFFICULTY = 24
MAX_BONUS = 30


def yes(row: Row, column: str) -> bool:
    """Read a yes/no cell of a data table; a TableError if it is neither."""
    value = row[column]
    if value not in ("yes", "no"):
        raise TableError(f"column {shown(column)} must be 'yes' or 'no', got {shown(value)}")
    return value == "yes"


def d6_faces(name: str, dice: Any, count: int | None = None, *, minimum: int = 0,
             maximum: int = MAX_POOL) -> tuple[int, ...]:
    """Check a list of d6 faces (and, if given, that there are exactly *count* of them)."""
    faces = require_faces(name, dice, 6, max_length=3 * MAX_POOL)
    if count is not None and len(faces) != count:
        raise RulesError(f"{name} must hold exactly {count} d6, got {len(faces)}")
    if not minimum <= len(faces) <= maximum:
        raise RulesError(f"{name} must hold from {minimum} to {maximum} d6, got {len(faces)}")
    return faces


def pool(name: str, value: Any, minimum: int = 1) -> int:
    """A number of d6 a character rolls."""
    return require_int(name, value, minimum=minimum, maximum=MAX_POOL)


def bonus(name: str, value: Any) -> int:
    """A flat addition to a roll."""
    return require_int(name, value, minimum=-MAX_BONUS, maximum=MAX_BONUS)
