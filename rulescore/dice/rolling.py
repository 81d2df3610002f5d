"""Rolling: faces from one :class:`~rulescore.dice.DiceSource`, seeded (replayable) or the
values a player rolled at the table.

Either way the same evaluation runs: every die is recorded (its chain of rolls when it
explodes, whether it was kept, whether it counted as a success) and the trace says what was
done, citing the dice chapter's sections.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

from ..errors import DiceError, RulesError
from ..trace import Resolution, Step, step
from .notation import Constant, DiceExpr, DiceTerm, rule
from .source import MAX_CHAIN, DiceSource


def max_values(expr: DiceExpr) -> int:
    """The most dice values one roll of *expr* can use: one a die, or a whole chain of
    MAX_CHAIN for an exploding die. With the notation's limits (100 dice) at most 10,000, so
    rolling anything the parser accepts stays quick."""
    return sum(t.count * (MAX_CHAIN if t.explode else 1) for t in expr.dice_terms)


@dataclass(frozen=True)
class DieRoll:
    """One die as it lies on the table.

    ``rolls`` is the chain of faces (``(6, 6, 3)`` for a compounding die that exploded twice);
    with ``!`` every roll of a chain is its own DieRoll and ``exploded`` marks the added ones.
    """

    term: int
    die: int
    rolls: tuple[int, ...]
    value: int
    kept: bool = True
    success: bool | None = None
    exploded: bool = False


@dataclass(frozen=True, kw_only=True)
class DiceRoll(Resolution):
    """A rolled expression: ``total`` (= ``value``), every die, and how it was rolled."""

    expr: DiceExpr
    dice: tuple[DieRoll, ...]
    term_values: tuple[int, ...]
    seed: int | None = None
    typed: bool = False

    @property
    def total(self) -> int:
        return self.value

    def faces(self) -> tuple[int, ...]:
        """Every face in rolling order: typing them back as ``dice`` reproduces this roll."""
        return tuple(v for d in self.dice for v in d.rolls)


def term_bounds(term: DiceTerm | Constant) -> tuple[int, int | None]:
    """Smallest and largest value of a term before its sign (None: unbounded by explosion)."""
    if isinstance(term, Constant):
        return term.value, term.value
    kept = _kept_count(term, term.count)   # dice kept when nothing explodes
    most, top = kept, term.sides           # the most dice kept (None: no limit), their top face
    if term.explode == "explode":          # explosions add dice to the pool
        mode = term.keep.mode if term.keep else None
        most = term.keep.count if mode in ("kh", "kl") else None
        if mode == "kl":                   # the lowest dice end their chains, below the top
            top = term.sides - 1
    elif term.explode == "compound":
        top = None
    t = term.count_at_least
    if t is not None:
        low = kept if t <= 1 else 0        # cs>=1 counts every kept die
        if top is not None and t > top:
            return low, 0                  # no kept die can reach t
        return low, most
    return kept, None if most is None or top is None else most * top


def _kept_count(term: DiceTerm, pool: int) -> int:
    if term.keep is None:
        return pool
    if term.keep.mode in ("kh", "kl"):
        return min(term.keep.count, pool)
    return max(pool - term.keep.count, 0)


def d100_from_digits(tens: int, ones: int) -> int:
    """Read a d100 thrown as a tens die (00–90, or its digit 0–9) and a ones die (0–9).

    00 and 0 together read 100; otherwise the result is tens + ones (dice §Percentile dice).
    """
    for name, value in (("tens die", tens), ("ones die", ones)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise DiceError(f"{name} must be a whole number, got {value!r}")
    if 0 <= tens <= 9:
        tens *= 10
    elif not (tens % 10 == 0 and 0 <= tens <= 90):
        raise DiceError(f"tens die must show 00, 10, … 90 (or its digit 0–9), got {tens}")
    if not 0 <= ones <= 9:
        raise DiceError(f"ones die must show 0 to 9, got {ones}")
    return tens + ones or 100


class _Source:
    """The faces one roll reads from a :class:`DiceSource`, with the dice chapter's wording
    for a typed value that is missing or off its die."""

    def __init__(self, source: DiceSource) -> None:
        self.source = source

    def chain(self, term: DiceTerm, die: int) -> list[int]:
        shows = f"{term.notation()} dice show 1 to {term.sides}"
        if not term.explode:
            return [self.source.d(term.sides, shows=shows,
                                  missing=self._shortage(term, die, []))]
        return list(self.source.chain(term.sides, die=f"die {die} of {term.notation()}",
                                      shows=shows,
                                      shortage=lambda chain: self._shortage(term, die, chain)))

    @staticmethod
    def _shortage(term: DiceTerm, die: int, chain: list[int]) -> str:
        if chain:
            return (f"not enough dice: die {die} of {term.notation()} showed {chain[-1]}, "
                    f"so it explodes — type the next roll of its chain")
        return f"not enough dice: {term.notation()} needs a value for die {die} of {term.count}"


def _roll_term(index: int, term: DiceTerm, source: _Source) -> list[DieRoll]:
    dice: list[DieRoll] = []
    for n in range(1, term.count + 1):
        chain = source.chain(term, n)
        if term.explode == "explode":
            dice.extend(DieRoll(index, n, (v,), v, exploded=i > 0) for i, v in enumerate(chain))
        else:
            dice.append(DieRoll(index, n, tuple(chain), sum(chain)))
    return dice


def _select(term: DiceTerm, dice: list[DieRoll]) -> list[DieRoll]:
    """Mark kept dice (ties resolved in rolling order) and successes."""
    keep = _kept_count(term, len(dice))
    highest_first = term.keep is None or term.keep.mode in ("kh", "dl")
    order = sorted(range(len(dice)), key=lambda i: (-dice[i].value if highest_first
                                                    else dice[i].value, i))
    kept_idx = set(order[:keep])
    t = term.count_at_least
    out = []
    for i, d in enumerate(dice):
        kept = i in kept_idx
        success = (kept and d.value >= t) if t is not None else None
        out.append(DieRoll(d.term, d.die, d.rolls, d.value, kept, success, d.exploded))
    return out


def _faces(dice: list[DieRoll]) -> str:
    return ", ".join("+".join(map(str, d.rolls)) if len(d.rolls) > 1 else str(d.value)
                     for d in dice)


def _term_steps(term: DiceTerm, dice: list[DieRoll], value: int) -> list[Step]:
    steps = [step(f"{term.notation()}: rolled {_faces(dice)}", rule("Rolling"),
                  dice=term.count)]
    chains = [d for d in dice if len(d.rolls) > 1]
    extra = [d for d in dice if d.exploded]
    if chains:
        steps.append(step("Compounded: " + "; ".join(
            f"die {d.die} rolled {' → '.join(map(str, d.rolls))} = {d.value}" for d in chains),
            rule("Exploding dice")))
    if extra:
        steps.append(step(f"Exploded: each {term.sides} added a die ({len(extra)} in all), "
                          f"pool of {len(dice)}", rule("Exploding dice"), added=len(extra)))
    if term.keep:
        kept = [d for d in dice if d.kept]
        dropped = [d for d in dice if not d.kept]
        steps.append(step(f"{term.keep}: kept {_faces(kept)}; dropped "
                          f"{_faces(dropped) or 'none'}", rule("Keep and drop"),
                          kept=len(kept)))
    if term.count_at_least is not None:
        steps.append(step(f"Counted dice showing {term.count_at_least} or more: "
                          f"{value} success{'es' if value != 1 else ''}",
                          rule("Counting successes"), successes=value))
    else:
        steps.append(step(f"{term.notation()} adds up to {value}", rule("Rolling"),
                          value=value))
    return steps


def roll(expr: DiceExpr, rng: random.Random | None = None, *,
         dice: DiceSource | Sequence[int] | None = None, seed: int | None = None) -> DiceRoll:
    """Roll *expr* from *dice*, a :class:`DiceSource` (seeded or typed); typed values as a
    list, *rng* and *seed* are kept for existing callers (dice §Seeds and typed dice)."""
    given = sum(x is not None for x in (rng, dice, seed))
    if given != 1:
        raise RulesError("roll needs exactly one of: dice (a DiceSource, or the values you "
                         "rolled), seed, or rng (a random.Random)")
    if seed is not None:
        source = DiceSource.seeded(seed)
    elif rng is not None:
        source = DiceSource.from_rng(rng)
    elif isinstance(dice, DiceSource):
        source = dice
    else:
        source = DiceSource.typed(dice, limit=max_values(expr) + 10)
    how = (f"Rolled with seed {source.seed}" if source.seed is not None else
           "Read the dice you typed" if source.is_typed else "Rolled with the given generator")
    typed = source.is_typed
    rolled_from = _Source(source)
    steps = [step(f"{how}: {expr}", rule("Seeds and typed dice"))]
    all_dice: list[DieRoll] = []
    values: list[int] = []
    for index, term in enumerate(expr.terms):
        if isinstance(term, Constant):
            values.append(term.sign * term.value)
            steps.append(step(f"{'Added' if term.sign > 0 else 'Subtracted'} {term.value}",
                              rule("Notation"), constant=term.value))
            continue
        rolled = _select(term, _roll_term(index, term, rolled_from))
        value = (sum(1 for d in rolled if d.success) if term.count_at_least is not None
                 else sum(d.value for d in rolled if d.kept))
        steps.extend(_term_steps(term, rolled, value))
        if term.sign < 0:
            steps.append(step(f"Subtracted {term.notation()}: −{value}", rule("Notation")))
        values.append(term.sign * value)
        all_dice.extend(rolled)
    source.finish()
    total = sum(values)
    steps.append(step(f"Total: {total}", rule("Notation"), total=total))
    return DiceRoll(value=total, outcome="typed" if typed else "rolled",
                    trace=tuple(steps), expr=expr, dice=tuple(all_dice),
                    term_values=tuple(values), seed=source.seed, typed=typed)
