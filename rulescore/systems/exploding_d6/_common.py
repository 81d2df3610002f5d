"""Shared plumbing of the exploding-d6 system: data tables, rule references and input checks.

Nothing here is a rule; the rules live in the modules that use it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulescore.errors import RulesError, require_int
from rulescore.errors import require_bool as flag  # noqa: F401  (shared checks, re-exported)
from rulescore.errors import require_choice as one_of  # noqa: F401
from rulescore.errors import require_row as choice  # noqa: F401
from rulescore.tables import Table, load_tables, system_data_dir
from rulescore.trace import RuleRef

SYSTEM = "exploding_d6"
#: Folder of the data files; a test may point it at an edited copy.
DATA_DIR: Path = system_data_dir(SYSTEM)

MAX_DICE = 40
MAX_TOTAL = 600  # a compounding d6 total past this is a runaway chain (100 sixes)


def rule(section: str) -> RuleRef:
    """A reference to a section of the exploding-d6 combat chapter."""
    return RuleRef(SYSTEM, section)


def table(name: str, file: str = "combat") -> Table:
    """Table *name* of ``data/<file>.toml`` (read from :data:`DATA_DIR`)."""
    return load_tables(DATA_DIR / f"{file}.toml")[name]






def count(name: str, value: Any, maximum: int = MAX_DICE) -> int:
    """A count of dice, hits, actions or units: 0 or more."""
    return require_int(name, value, minimum=0, maximum=maximum)


def attribute(name: str, value: Any) -> int:
    """An attribute or skill value (Quickness, Deftness, Perception, Strength…)."""
    return require_int(name, value, minimum=0, maximum=MAX_DICE)


def threshold(name: str, value: Any) -> int:
    """A minimum roll or a critical threshold (on compounding dice it may exceed 6)."""
    return require_int(name, value, minimum=1, maximum=MAX_TOTAL)


def die_total(name: str, value: Any) -> int:
    """One compounding d6's total: 1–5, 7–11, 13–17… (a chain never ends on a 6)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"{name} must be a whole number, got {value!r}")
    if not 1 <= value <= MAX_TOTAL:
        raise RulesError(f"{name} must be from 1 to {MAX_TOTAL}, got {value}")
    if value % 6 == 0:
        raise RulesError(f"{name} cannot be {value}: an exploding d6 that shows a 6 is rolled "
                         f"again, so its total is never a multiple of 6 (type the whole chain)")
    return value


def die_totals(name: str, values: Any, *, expected: int | None = None) -> tuple[int, ...]:
    """A list of compounding d6 totals (and, if given, exactly *expected* of them)."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise RulesError(f"{name} must be a list of die totals, got {values!r}")
    out = tuple(die_total(f"{name}: die {i}", v) for i, v in enumerate(values, start=1))
    if len(out) > MAX_DICE:
        raise RulesError(f"{name} must hold at most {MAX_DICE} dice, got {len(out)}")
    if expected is not None and len(out) != expected:
        raise RulesError(f"{name} must hold exactly {expected} dice, got {len(out)}")
    return out


def d6_faces(name: str, values: Any, *, expected: int | None = None) -> tuple[int, ...]:
    """A list of plain d6 faces (cover dice), and if given exactly *expected* of them."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise RulesError(f"{name} must be a list of d6 faces, got {values!r}")
    out = tuple(values)
    for i, face in enumerate(out, start=1):
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
            raise RulesError(f"{name}: die {i} must be a d6 face from 1 to 6, got {face!r}")
    if expected is not None and len(out) != expected:
        raise RulesError(f"{name} must hold exactly {expected} dice (one a hit), got {len(out)}")
    return out




def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 hit', '3 hits'."""
    return f"{n} {word if n == 1 else (many or word + 's')}"
