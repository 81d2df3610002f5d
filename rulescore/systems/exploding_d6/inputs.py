"""Checks of the exploding-d6 system's plain inputs: counts, attributes, thresholds and dice
typed in. Nothing here is a rule; the rules live in the modules that use it.
"""

from __future__ import annotations

from typing import Any

from rulescore.dice import DiceSource
from rulescore.dice.source import count_to_draw, dice_to_draw_from, not_both
from rulescore.errors import RulesError, require_faces, require_int, require_list, require_text, shown

MAX_DICE = 40
MAX_TOTAL = 600  # a compounding d6 total past this is a runaway chain (100 sixes)
MAX_WOUNDS_PER_HIT = 20
MAX_LABEL = 80   # a name a message uses for an input or a combatant


#: Exploding dice as rolled, each a chain (6→6→3).
Chains = tuple[tuple[int, ...], ...]


def drawn_chains(name: str, given: Any, dice: Any) -> tuple[Any, Chains]:
    """A resolving function's exploding dice (dice §Seeds and typed dice): *given* (their
    totals) as they are without *dice*; with a DiceSource, *given* is how many exploding d6 to
    draw, and their totals come back with the chains rolled. The caller finishes the source
    once it has drawn everything, so typed dice left over are refused."""
    source = dice_to_draw_from(dice)
    if source is None:
        return given, ()
    n = count_to_draw(name, given, source, maximum=MAX_DICE)
    chains = tuple(source.chain(6, f"exploding die {i}") for i in range(1, n + 1))
    return tuple(sum(c) for c in chains), chains


def drawn_faces(name: str, given: Any, dice: DiceSource | None, wanted: int,
                label: str) -> Any:
    """Plain d6 faces for *name*: *given* without *dice*; with it, *wanted* drawn (each named
    *label* N in an error), faces given there as well refused, naming both."""
    if dice is None:
        return given
    not_both(name, given, dice)
    return dice.dice(wanted, 6, label)


def finished(dice: DiceSource | None, what: str) -> None:
    """Refuse typed dice left over once the *what* has drawn all it needs."""
    if dice is not None:
        dice.finish(what)


def count(name: str, value: Any, maximum: int = MAX_DICE) -> int:
    """A count of dice, hits, actions or units: 0 or more."""
    return require_int(name, value, minimum=0, maximum=maximum)


def attribute(name: str, value: Any) -> int:
    """An attribute or skill value (Quickness, Deftness, Perception, Strength…); *name* is
    how a message calls it."""
    return require_int(require_text("name", name, max_length=MAX_LABEL), value, minimum=0,
                       maximum=MAX_DICE)


def per_hit(name: str, value: Any) -> int:
    """Wounds each hit deals (1 unless the weapon says more)."""
    return require_int(name, value, minimum=1, maximum=MAX_WOUNDS_PER_HIT)


def threshold(name: str, value: Any) -> int:
    """A minimum roll or a critical threshold (on compounding dice it may exceed 6)."""
    return require_int(name, value, minimum=1, maximum=MAX_TOTAL)


def die_total(name: str, value: Any) -> int:
    """One compounding d6's total: 1–5, 7–11, 13–17… (a chain never ends on a 6)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"{name} must be a whole number, got {shown(value)}")
    if not 1 <= value <= MAX_TOTAL:
        raise RulesError(f"{name} must be from 1 to {MAX_TOTAL}, got {value}")
    if value % 6 == 0:
        raise RulesError(f"{name} cannot be {value}: an exploding d6 that shows a 6 is rolled "
                         f"again, so its total is never a multiple of 6 (type the whole chain)")
    return value


def die_totals(name: str, values: Any, *, expected: int | None = None) -> tuple[int, ...]:
    """A list of compounding d6 totals (and, if given, exactly *expected* of them)."""
    out = tuple(die_total(f"{name}: die {i}", v) for i, v in enumerate(
        require_list(name, values, "die totals", max_length=MAX_DICE), start=1))
    if expected is not None and len(out) != expected:
        raise RulesError(f"{name} must hold exactly {expected} dice, got {len(out)}")
    return out


def d6_faces(name: str, values: Any, *, expected: int | None = None) -> tuple[int, ...]:
    """A list of plain d6 faces (cover dice), and if given exactly *expected* of them."""
    # One die a hit, normal and critical together: up to twice the largest pool.
    out = require_faces(name, values, 6, max_length=2 * MAX_DICE)
    if expected is not None and len(out) != expected:
        raise RulesError(f"{name} must hold exactly {expected} dice (one a hit), got {len(out)}")
    return out


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 hit', '3 hits'."""
    return f"{n} {word if n == 1 else (many or word + 's')}"
