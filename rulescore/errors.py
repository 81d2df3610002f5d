"""Input errors of the rules engine.

Every invalid input raises a :class:`RulesError` (a ``ValueError``) whose message names the
input, the value given and what is allowed. Widgets and the CLI catch ``RulesError`` and show
the message; nothing else is ever turned into one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from .tables import Row, Table


class RulesError(ValueError):
    """Base of every input error of the rules engine."""


class DiceError(RulesError):
    """Dice that cannot be rolled or read: a wrong number of values, or a value off the die.

    An error found in dice notation carries the ``text`` and the 1-based ``column`` of the
    problem (0 when it is about the whole expression).
    """

    def __init__(self, message: str, text: str = "", column: int = 0) -> None:
        self.text = text
        self.column = column
        self.reason = message
        where = f"column {column} of '{text}': " if text and column else ""
        super().__init__(f"{where}{message}")

    def caret(self) -> str:
        """The expression with a caret under the column that went wrong (two lines)."""
        if not self.text or not self.column:
            return self.text
        return f"{self.text}\n{' ' * (self.column - 1)}^"


class DiceSyntaxError(DiceError):
    """Dice notation that does not parse; carries the text and the 1-based column of the problem."""


class DiceLimitError(DiceError):
    """Dice too large to roll or enumerate safely (a runaway expression)."""


class NotationLimitError(DiceSyntaxError, DiceLimitError):
    """Notation that parses but asks for too much (10000d6): ``parse`` raises only syntax errors."""


class TableError(RulesError):
    """A data table that is malformed: gaps, overlaps, missing columns or bad values."""


class FormulaError(RulesError):
    """A formula evaluated with missing or invalid values."""


def require_int(name: str, value: object, *, minimum: int | None = None,
                maximum: int | None = None) -> int:
    """Check that *value* is an int within bounds; raise a RulesError naming *name* if not."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"{name} must be a whole number, got {shown(value)}")
    if minimum is not None and value < minimum:
        allowed = f"{minimum} or more" if maximum is None else f"from {minimum} to {maximum}"
        raise RulesError(f"{name} must be {allowed}, got {shown(value)}")
    if maximum is not None and value > maximum:
        allowed = f"{maximum} or less" if minimum is None else f"from {minimum} to {maximum}"
        raise RulesError(f"{name} must be {allowed}, got {shown(value)}")
    if not -_TOO_LONG < value < _TOO_LONG:
        raise RulesError(f"{name} must have at most {MAX_DIGITS} digits, got {shown(value)}")
    return value


#: Python's limit on printing a whole number: no rule counts that high, and every number the
#: engine accepts must fit in the trace that shows the working.
MAX_DIGITS = 4300
_TOO_LONG = 10**MAX_DIGITS


#: Seeds of replayable rolls: any whole number a 64-bit generator seed can hold.
MAX_SEED = 2**63 - 1


def require_seed(name: str, value: object) -> int:
    """Check the seed of a replayable roll: a whole number from -MAX_SEED to MAX_SEED."""
    return require_int(name, value, minimum=-MAX_SEED, maximum=MAX_SEED)


def shown(value: object, limit: int = 80) -> str:
    """*value* as a message shows it: its repr, cut to *limit* characters (a whole number too
    long for Python to print is described by its length)."""
    try:
        text = repr(value)
    except ValueError:  # an int past Python's 4,300-digit limit for str()
        return f"a number of more than {MAX_DIGITS} digits"
    return text if len(text) <= limit else text[:limit - 1] + "…"


def parse_int_text(name: str, text: str, *, blank: int | None = None) -> int | None:
    """Read a whole number a reader typed; blank gives *blank* (or an error if None)."""
    cleaned = text.strip().replace("−", "-")
    if not cleaned:
        if blank is None:
            raise RulesError(f"{name} is empty: type a whole number")
        return blank
    try:
        return int(cleaned)
    except ValueError:
        raise RulesError(f"{name} must be a whole number, got '{text.strip()}'") from None


def parse_int_list(name: str, text: str) -> list[int]:
    """Read numbers typed as '6, 6, 3' or '6 6 3'; a RulesError names the first bad one."""
    values = []
    for part in text.replace(",", " ").replace(";", " ").split():
        try:
            values.append(int(part.replace("−", "-")))
        except ValueError:
            raise RulesError(f"{name} takes whole numbers separated by commas or spaces, "
                             f"got '{part}'") from None
    if not values:
        raise RulesError(f"{name} is empty: type the faces you rolled, e.g. 6, 6, 3")
    return values


def require_bool(name: str, value: object) -> bool:
    """Check a yes/no input; a RulesError naming *name* if it is not True or False."""
    if not isinstance(value, bool):
        raise RulesError(f"{name} must be True or False, got {shown(value)}")
    return value


def require_choice(name: str, value: object, allowed: Sequence[str]) -> str:
    """Check that *value* is one of the *allowed* words; the message lists them."""
    if value not in allowed:
        raise RulesError(f"{name} must be one of {', '.join(map(repr, allowed))}, "
                         f"got {shown(value)}")
    return value  # type: ignore[return-value]


def require_row(name: str, value: object, table: "Table", column: str) -> "Row":
    """The row of *table* whose *column* is *value*; a RulesError naming *name* and the choices."""
    for row in table.rows:
        if row[column] == value:
            return row
    choices = ", ".join(repr(r[column]) for r in table.rows)
    raise RulesError(f"{name} must be one of {choices}, got {shown(value)}")


def require_text(name: str, value: object, *, max_length: int = 200) -> str:
    """Check a free text input (a label, a display name): a string of at most *max_length*."""
    if not isinstance(value, str):
        raise RulesError(f"{name} must be text, got {shown(value)}")
    if len(value) > max_length:
        raise RulesError(f"{name} must be at most {max_length} characters, got {len(value)}")
    return value


def require_list(name: str, value: object, what: str, *, max_length: int) -> tuple:
    """Check a collection input: a list or tuple of at most *max_length* items (the items are
    the caller's to check). A string, a mapping or a set is refused: each would be read item
    by item as something it is not."""
    if not isinstance(value, (list, tuple)):
        raise RulesError(f"{name} must be a list of {what}, got {shown(value)}")
    if len(value) > max_length:
        raise RulesError(f"{name} must hold at most {max_length} {what}, got {len(value)}")
    return tuple(value)


def require_faces(name: str, value: object, sides: int, *, max_length: int) -> tuple[int, ...]:
    """Check a list of plain die faces, each a whole number from 1 to *sides*, naming the first
    wrong die by its place (the reader counts dice from 1)."""
    faces = require_list(name, value, f"d{sides} faces", max_length=max_length)
    for i, face in enumerate(faces, start=1):
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= sides:
            raise RulesError(f"{name}: die {i} must be a d{sides} face from 1 to {sides}, "
                             f"got {shown(face)}")
    return faces

