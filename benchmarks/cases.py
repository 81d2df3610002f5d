"""The benchmark cases: our dice notation beside the direct icepool expression for the same roll.

Nothing here imports icepool or rulescore at module level, so a cold worker can time those
imports on their own. Each case computes usable probabilities: ours ``parse(text).distribution()``
(our exact Fraction ``Distribution``), icepool the die plus ``{outcome: Fraction}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

# Keep in step with rulescore.dice.distribution.DEFAULT_EXPLODE_DEPTH (the worker checks it).
EXPLODE_DEPTH = 10


@dataclass(frozen=True)
class Case:
    name: str            # label in the table
    ours: str            # our dice notation
    icepool_expr: str    # the icepool expression, shown in the README / --list
    icepool_fn: Callable[[], dict[int, Fraction]]
    note: str = ""


def _probs(die) -> dict[int, Fraction]:
    """icepool die -> {outcome: Fraction}, the same shape as our Distribution.items()."""
    return dict(zip(die.outcomes(), die.probabilities()))


def _top2(n: int) -> Callable[[], dict[int, Fraction]]:
    def run() -> dict[int, Fraction]:
        import icepool
        return _probs(icepool.d8.pool(n).highest(2).sum())
    return run


def _keep(k: int) -> Callable[[], dict[int, Fraction]]:
    def run() -> dict[int, Fraction]:
        import icepool
        return _probs(icepool.d6.pool(5).highest(k).sum())
    return run


def _compound_count(threshold: int, dice: int = 15,
                    depth: int = EXPLODE_DEPTH) -> Callable[[], dict[int, Fraction]]:
    """Successes among *dice* compounding d6, each chain exact up to *depth* explosions.

    ``d6.explode(depth=D)`` alone puts every chain longer than D explosions at its top outcome
    6*(D+1) (which would count as a success). We leave those chains out instead, as our
    Distribution does: map the top outcome to Reroll (conditioning each die on a chain of at
    most D explosions), count, sum the pool, then multiply by the chance that no die went past
    the depth, so the numbers are absolute probabilities like ours (ours reports the missing
    mass as ``truncated``).
    """
    def run() -> dict[int, Fraction]:
        import icepool
        top = 6 * (depth + 1)
        hit = icepool.d6.explode(depth=depth).map(
            lambda x: icepool.Reroll if x == top else int(x >= threshold))
        inside = (1 - Fraction(1, 6 ** (depth + 1))) ** dice
        return {v: p * inside for v, p in _probs(hit.pool(dice).sum()).items()}
    return run


def _d100() -> dict[int, Fraction]:
    import icepool
    return _probs(icepool.d100)


def build_cases() -> list[Case]:
    cases = []
    for n in range(1, 16):
        # kh2 of a single die is rejected by our parser (keep 1..count); top-2 of one die is
        # the die itself, i.e. 1d8kh1.
        ours = f"{n}d8kh2" if n >= 2 else "1d8kh1"
        note = "" if n >= 2 else "ours 1d8kh1: kh2 of 1 die is rejected by the parser"
        cases.append(Case(f"top2 {n:2d}d8", ours, f"icepool.d8.pool({n}).highest(2).sum()",
                          _top2(n), note))
    for k in (3, 4, 5):
        cases.append(Case(f"5d6 kh{k}", f"5d6kh{k}", f"icepool.d6.pool(5).highest({k}).sum()",
                          _keep(k)))
    for t in (5, 11):
        cases.append(Case(
            f"15d6!! cs>={t}", f"15d6!!cs>={t}",
            f"icepool.d6.explode(depth={EXPLODE_DEPTH}).map(Reroll if x == "
            f"{6 * (EXPLODE_DEPTH + 1)} else int(x >= {t})).pool(15).sum() × P(inside depth)",
            _compound_count(t)))
    cases.append(Case("d100", "d%", "icepool.d100", _d100))
    return cases


CASES = build_cases()
BY_NAME = {c.name: c for c in CASES}


def ours(text: str):
    """Our computation as a widget makes it: parse, then the exact Fraction Distribution."""
    from rulescore.dice import parse
    return parse(text).distribution()
