"""How much work an exact distribution takes, estimated before any counting, and the budget.

Exact odds of some short expressions take minutes (keeping 50 of 100d200 has billions of
partial sums to count), and a reader who types one into a page stops that page's kernel for
everyone using it. So :func:`check_budget` estimates the work of each step the counting in
:mod:`rulescore.dice.weights` will take — from the parsed terms alone, in a few arithmetic
operations, the same answer every time — and refuses beyond :data:`BUDGET` with a
:class:`DiceTooLargeError` that says what is too large and what would work.

The estimate is in CPU seconds of this project's reference machine (a 2-CPU container,
Python 3.11): each step's count of big-integer operations times a coefficient set from
``benchmarks/fuzz_dice.py --calibrate``, which prints the measured time beside the estimate
for terms of every kind. The measured time runs from about half the estimate to 1.5 times
it, and the coefficients lean to the high side; the budget, 0.3 s, leaves room under the
one-second goal for an estimate that falls short and for a slower or busier machine.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import log2
from typing import Callable

from ..errors import DiceLimitError
from .notation import Constant, DiceExpr, DiceTerm

DEFAULT_EXPLODE_DEPTH = 10
"""Explosions a die counted exactly unless the caller asks for another depth."""

BUDGET = 0.3
"""Estimated seconds one distribution may take; beyond it the expression is refused."""

# Seconds per operation of each step, measured (see the module's docstring). A big-integer
# operation costs more as its numbers grow, hence the bits terms.
_SUM_OP = 5.0e-8          # one window step of a sum of plain dice
_BLOCK_OP = 6.0e-8        # one window step of one block of a weighted die
_STATE_OP = 1.2e-7        # one placement in the kept-dice count
_PAIR_OP = 2.5e-7         # one pair of a small convolution, or one weight mixed
_KRONECKER_BIT = 4.8e-11  # the big product of a large convolution, per bit ** 1.585
_FRACTION_OP = 1.5e-6     # one outcome turned into a Fraction
_BITS = 600               # bits at which a big-integer operation costs twice a small one


class DiceTooLargeError(DiceLimitError):
    """An expression whose exact odds would take too long to work out: the message says which
    part is too large and what would work."""


@dataclass(frozen=True)
class Shape:
    """A table of totals as the counting sees it: how many totals, and the bits of their
    weights (which make each big-integer operation slower)."""

    span: int
    bits: float


def _slow(bits: float) -> float:
    return 1 + bits / _BITS


def sum_cost(blocks: int, span: int, count: int, bits: float) -> float:
    """:func:`~rulescore.dice.weights.sum_of_dice`: each die added runs a window over the
    totals so far (i · (span − 1) + 1 of them) once a block, plus a prefix table."""
    windows = count * (count - 1) / 2 * (span - 1) + count * span
    if blocks == 1:
        return windows * _SUM_OP * _slow(bits)
    return windows * (blocks + 1) * _BLOCK_OP * _slow(bits)


def highest_cost(faces: int, count: int, keep: int, bits: float) -> float:
    """:func:`~rulescore.dice.weights.highest_sum`: before the i-th face from the top there
    are p·(i − 2) + 1 partial sums of p placed dice (p below *keep*); each makes keep − p new
    states (a dictionary update, about three times a multiplication), sums count − keep + 1
    products for the pools it completes, and costs about eight more in its loop's own steps
    (which is most of the work for few dice of many faces: 3d1000kh2); each face also raises
    two weights to every power up to *count*."""
    triangle = (faces - 1) * (faces - 2) / 2
    work = sum((3 * (keep - p) + count - keep + 9) * (p * triangle + faces) for p in range(keep))
    return (work * _STATE_OP + faces * count * _PAIR_OP) * _slow(bits)


def add_cost(a: Shape, b: Shape) -> float:
    """:func:`~rulescore.dice.weights.add`: pair by pair when small, otherwise one product of
    two packed integers (Karatsuba, bits ** 1.585 when both are alike; a lopsided product
    costs the longer one's bits times the shorter's ** 0.585) plus packing and unpacking."""
    if a.span * b.span <= 4096:
        return a.span * b.span * _PAIR_OP * _slow(a.bits + b.bits)
    width = a.bits + b.bits + log2(min(a.span, b.span) + 1) + 8
    short, long = sorted((a.span * width, b.span * width))
    return long * short ** 0.585 * _KRONECKER_BIT + (a.span + b.span) * _PAIR_OP * _slow(width)


def fractions_cost(shape: Shape) -> float:
    """Turning each total's weight into a Fraction: a gcd of numbers of *bits* bits each."""
    return shape.span * _FRACTION_OP * _slow(shape.bits) ** 2


def _die_bits(term: DiceTerm, depth: int) -> float:
    """Bits of the total weight of one die as the counting weighs it."""
    if term.explode:
        return (depth + 1) * log2(term.sides) + 1
    return log2(term.sides) + 1


def term_cost(term: DiceTerm, depth: int) -> tuple[float, Shape]:
    """Estimated seconds to count *term*, and the shape of its table of totals."""
    n, x = term.count, term.sides
    bits = n * _die_bits(term, depth)
    keep = term.keep
    if keep is None:
        kept = n
    else:          # the lowest dice cost what the highest do (counted as negated faces)
        kept = keep.count if keep.mode in ("kh", "kl") else n - keep.count
    if term.explode == "explode":
        return _exploding_cost(term, depth, bits)
    faces = x if not term.explode else (depth + 1) * (x - 1)
    top = x if not term.explode else (depth + 1) * x
    if term.count_at_least is not None:
        return faces * _PAIR_OP + (n + 1) ** 2 * _PAIR_OP, Shape(n + 1, bits)
    blocks = 1 if not term.explode else depth + 1
    if kept == n:
        return sum_cost(blocks, top, n, bits), Shape(n * (top - 1) + 1, bits)
    return highest_cost(faces, n, kept, bits), Shape(kept * (top - 1) + 1, bits)


def _exploding_cost(term: DiceTerm, depth: int, bits: float) -> tuple[float, Shape]:
    """'!' terms: the number of top faces rolled (a sum of n small dice), then per keep mode
    the kept finals (dice of sides − 1 faces) for each case, mixed by that number."""
    n, x = term.count, term.sides
    maxes = Shape(n * depth + 1, bits)
    if term.keep is None and term.count_at_least is None:
        top = (depth + 1) * x
        return sum_cost(depth + 1, top, n, bits), Shape(n * (top - 1) + 1, bits)
    cost = sum_cost(depth + 1, depth + 1, n, bits)
    if term.count_at_least is not None:
        return cost + maxes.span * (n + 1) * _PAIR_OP * _slow(bits), Shape(n + 2, bits)
    mode, k = term.keep.mode, term.keep.count
    finals = x - 1
    small = n * (log2(finals) + 1)     # the finals' weights: plain dice, far fewer bits
    if mode == "kl":
        return cost + highest_cost(finals, n, k, small), Shape(k * finals, bits)
    if mode == "dl":
        kept = (n - k) * finals
        mixing = kept * maxes.span * _PAIR_OP * _slow(bits)     # each m shifts the kept sums
        return (cost + highest_cost(finals, n, n - k, small) + mixing,
                Shape(kept + x * maxes.span, bits))
    # kh: the highest j = k − m finals for each m below k; dh: the lowest n + m − k for m < k
    cases = range(1, min(k, n) + 1) if mode == "kh" else range(max(1, n - k), n)
    for j in cases:
        cost += highest_cost(finals, n, j, small)
        cost += min(maxes.span, k) * (j * finals) * _PAIR_OP * _slow(bits)
    if mode == "kh":   # at most k dice kept, none above the top face
        return cost, Shape(k * x, bits)
    cost += sum_cost(1, finals, n, small)
    return cost, Shape(n * x + maxes.span * x, bits)


def estimate(terms: tuple[DiceTerm | Constant, ...], depth: int) -> tuple[float, list]:
    """Estimated seconds for the whole expression, and each step as (seconds, what, term):
    every term, each addition of a term's totals to the running table, and the Fractions."""
    steps: list[tuple[float, str, DiceTerm | None]] = []
    total: Shape | None = None
    for term in terms:
        if isinstance(term, Constant):
            continue
        cost, shape = term_cost(term, depth)
        steps.append((cost, "term", term))
        if total is not None:
            steps.append((add_cost(total, shape), "add", term))
            total = Shape(total.span + shape.span - 1, total.bits + shape.bits)
        else:
            total = shape
    if total is not None:
        steps.append((fractions_cost(total), "fractions", None))
    return sum(s for s, _, _ in steps), steps


def _within(term: DiceTerm, depth: int, **change: int) -> bool:
    """Whether *term* with one number changed (count, sides, keep or explosions) takes at most
    half the budget, leaving the other half to the rest of the expression."""
    depth = change.get("explosions", depth)
    changed = DiceTerm(term.sign, change.get("count", term.count), change.get("sides", term.sides),
                       term.explode, term.keep, term.count_at_least)
    if term.keep is not None and "keep" in change:
        changed = DiceTerm(term.sign, term.count, term.sides, term.explode,
                           type(term.keep)(term.keep.mode, change["keep"]), term.count_at_least)
    return term_cost(changed, depth)[0] <= BUDGET / 2


def _largest(test: Callable[[int], bool], low: int, high: int) -> int | None:
    """The largest value in low..high that passes *test* (assumed monotone), or None."""
    if low > high or not test(low):
        return None
    while low < high:
        mid = (low + high + 1) // 2
        low, high = (mid, high) if test(mid) else (low, mid - 1)
    return low


def _what(term: DiceTerm) -> str:
    """The term's work in a reader's words."""
    n, x = term.count, term.sides
    dice = f"{n} {'die' if n == 1 else 'dice'} of {x} faces"
    if term.explode:
        dice = f"{dice} that {'explode' if term.explode == 'explode' else 'compound'}"
    if term.keep is None:
        return f"adding up {dice}" if term.count_at_least is None else f"counting {dice}"
    k = term.keep.count
    words = {"kh": f"keeping the highest {k} of {dice}", "kl": f"keeping the lowest {k} of {dice}",
             "dh": f"dropping the highest {k} of {dice}", "dl": f"dropping the lowest {k} of {dice}"}
    return words[term.keep.mode]


def _advice(term: DiceTerm, depth: int) -> str:
    """What would work instead: the most dice, faces or kept dice within the budget, and a
    lower explosion depth when one above the default was asked for."""
    n, x = term.count, term.sides
    notation = f"{n}d{x}"
    ideas = []
    if term.keep is not None and term.keep.mode in ("kh", "kl"):
        k = _largest(lambda v: _within(term, depth, keep=v), 1, term.keep.count - 1)
        if k:
            ideas.append(f"keep fewer dice (at most {k} of {notation})")
    elif term.keep is not None:
        # dropping d keeps n - d: dropping more keeps fewer
        d = _largest(lambda v: _within(term, depth, keep=n - v), 1, n - term.keep.count - 1)
        if d and n - d > term.keep.count:
            ideas.append(f"drop more dice (at least {n - d} of {notation}, "
                         f"keeping {d})")
    least = 1 + (term.keep.count if term.keep is not None and term.keep.mode in ("kh", "kl")
                 else term.keep.count + 1 if term.keep is not None else 0)
    count = _largest(lambda v: _within(term, depth, count=v), max(1, least), n - 1)
    if count:
        ideas.append(f"roll fewer dice (at most {count}d{x}{_rest(term)})")
    sides = _largest(lambda v: _within(term, depth, sides=v), 2, x - 1)
    if sides:
        ideas.append(f"use a smaller die (at most {n}d{sides}{_rest(term)})")
    if term.explode and depth > DEFAULT_EXPLODE_DEPTH:
        lower = _largest(lambda v: _within(term, depth, explosions=v), 0, depth - 1)
        if lower is not None:
            ideas.append(f"explode fewer times (an explosion depth of at most {lower})")
    if not ideas:
        return "Use fewer or smaller dice."
    text = ", or ".join([", ".join(ideas[:-1]), ideas[-1]] if len(ideas) > 1 else ideas)
    return text[0].upper() + text[1:] + "."


def _rest(term: DiceTerm) -> str:
    """The term's modifiers as written after NdX."""
    text = {"explode": "!", "compound": "!!", None: ""}[term.explode]
    text += str(term.keep) if term.keep else ""
    return text + (f"cs>={term.count_at_least}" if term.count_at_least is not None else "")


def check_budget(expr: DiceExpr, terms: tuple[DiceTerm | Constant, ...], depth: int) -> None:
    """Refuse *expr* (its *terms* as they will be counted) when the estimated work is beyond
    :data:`BUDGET`, naming the largest step and what would work instead."""
    cost, steps = estimate(terms, depth)
    if cost <= BUDGET:
        return
    worst, kind, term = max(steps, key=lambda s: s[0])
    head = f"{expr.text.strip()} is too large to work out exactly"
    if kind == "term" and worst > BUDGET / 2:
        raise DiceTooLargeError(f"{head}: {_what(term)} has too many ways to count. "
                                f"{_advice(term, depth)}")
    deep = " or explode fewer times" if depth > DEFAULT_EXPLODE_DEPTH and any(
        isinstance(t, DiceTerm) and t.explode for t in terms) else ""
    raise DiceTooLargeError(f"{head}: its terms together have too many totals to add up "
                            f"exactly. Use fewer or smaller dice{deep}.")
