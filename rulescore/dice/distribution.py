"""Exact distributions of dice expressions behind our own type.

Plain dice, summed or kept (``6d8kh2``), are counted here; exploding dice and success counts
are built with icepool. Both are checked against brute-force enumeration in the tests.

Probabilities are ``fractions.Fraction``. Exploding dice can in principle roll forever, so
their distribution is exact up to ``explode_depth`` explosions per die: every outcome listed is
exact, and the probability that some die explodes further is reported as
:attr:`Distribution.truncated`, never folded into other outcomes.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import TYPE_CHECKING, Iterator

from ..errors import DiceLimitError, RulesError
from .notation import Constant, DiceExpr, DiceTerm, Keep

if TYPE_CHECKING:
    import icepool

DEFAULT_EXPLODE_DEPTH = 10
MAX_EXPLODE_DEPTH = 40


@dataclass(frozen=True)
class Distribution:
    """Exact probabilities of each total, plus the mass beyond the explosion depth."""

    pmf: tuple[tuple[int, Fraction], ...]
    truncated: Fraction = Fraction(0)
    explode_depth: int | None = None

    def items(self) -> Iterator[tuple[int, Fraction]]:
        """(total, probability) pairs in increasing order of total."""
        return iter(self.pmf)

    def outcomes(self) -> tuple[int, ...]:
        return tuple(v for v, _ in self.pmf)

    def p(self, total: int) -> Fraction:
        """Probability of exactly *total*."""
        return next((p for v, p in self.pmf if v == total), Fraction(0))

    def p_at_least(self, total: int) -> Fraction:
        """Probability of *total* or more (over the listed outcomes; see ``truncated``)."""
        return sum((p for v, p in self.pmf if v >= total), Fraction(0))

    def p_at_most(self, total: int) -> Fraction:
        """Probability of *total* or less (over the listed outcomes; see ``truncated``)."""
        return sum((p for v, p in self.pmf if v <= total), Fraction(0))

    def mean(self) -> Fraction:
        """Mean total; with explosions, the mean given that no die exploded past the depth."""
        mass = sum((p for _, p in self.pmf), Fraction(0))
        return sum((v * p for v, p in self.pmf), Fraction(0)) / mass

    def min(self) -> int:
        return self.pmf[0][0]

    def max(self) -> int:
        return self.pmf[-1][0]


def _binomial(n: int, p_success: Fraction) -> icepool.Die:
    """Number of successes among *n* independent dice (relative quantities)."""
    one = icepool.Die({0: p_success.denominator - p_success.numerator,
                       1: p_success.numerator})
    return n @ one


def _kept(keep: Keep | None, pool: int) -> tuple[bool, int]:
    """(whether the highest dice are kept, how many) of a pool of *pool* dice; with no keep,
    every die (counted as the highest)."""
    if keep is None:
        return True, pool
    kept = keep.count if keep.mode in ("kh", "kl") else pool - keep.count
    return keep.mode in ("kh", "dl"), kept


def _kept_successes(term: DiceTerm, successes: int, pool: int) -> int:
    """Successes among the kept dice, given *successes* among all *pool* dice.

    The successes are the highest dice, so keeping the highest h keeps min(h, C) of them and
    keeping the lowest l keeps max(0, l - (pool - C)).
    """
    high, kept = _kept(term.keep, pool)
    return min(kept, successes) if high else max(0, kept - (pool - successes))


def _compound_die(sides: int, depth: int) -> icepool.Die:
    """One compounding die, up to *depth* explosions (chains past it are left out)."""
    return icepool.Die({k * sides + r: sides ** (depth - k)
                        for k in range(depth + 1) for r in range(1, sides)})


def _geometric(sides: int, depth: int) -> icepool.Die:
    """How many times one exploding die shows its top face, up to *depth* (relative)."""
    return icepool.Die({k: (sides - 1) * sides ** (depth - k) for k in range(depth + 1)})


def _pool_sum(die: icepool.Die, term: DiceTerm) -> icepool.Die:
    if term.keep is None:  # plain sums: repeated convolution, far cheaper than a pool
        return die if term.count == 1 else term.count @ die
    high, kept = _kept(term.keep, term.count)
    pool = die.pool(term.count)
    return (pool.highest(kept) if high else pool.lowest(kept)).sum()


def _p_at_least(die: icepool.Die, threshold: int) -> Fraction:
    hits = sum(q for v, q in die.items() if v >= threshold)
    return Fraction(hits, die.denominator())


def _plain_or_compound(term: DiceTerm, depth: int) -> icepool.Die:
    """Terms whose dice are single values: compounding ('!!') dice, or plain dice counting
    successes."""
    die = _compound_die(term.sides, depth) if term.explode else icepool.d(term.sides)
    if term.count_at_least is None:
        return _pool_sum(die, term)
    c = _binomial(term.count, _p_at_least(die, term.count_at_least))
    return c.map(lambda n: _kept_successes(term, n, term.count))


# --- plain dice, counted without icepool ------------------------------------------------------
# Weights: {total: number of the sides ** count equally likely rolls that give it}. Building
# icepool's pool evaluator costs a fresh kernel 2-3 ms, which these few loops do not.

Weights = dict[int, int]


def _plain_sum(count: int, sides: int) -> Weights:
    """The sum of *count* dice: one die at a time, each new total a window of the old ones."""
    ways = [1]                                    # ways[t] = rolls summing to t (+ dice so far)
    for _ in range(count):
        running, nxt = 0, []
        for t in range(len(ways) + sides - 1):
            running += ways[t] if t < len(ways) else 0
            running -= ways[t - sides] if t >= sides else 0
            nxt.append(running)
        ways = nxt
    return {t + count: w for t, w in enumerate(ways)}


def _highest_sum(count: int, sides: int, keep: int) -> Weights:
    """The sum of the highest *keep* of *count* dice, faces taken from the top down.

    A state is (dice placed so far, their sum) while every placed die is kept. When a face f
    completes the kept dice, the rest of the pool (n - placed) shows faces below f, in
    (f - 1) ** rest ways; C(left, c) places the c dice that show f."""
    done: dict[int, int] = {}
    states = {(0, 0): 1}
    for face in range(sides, 0, -1):
        nxt: dict[tuple[int, int], int] = {}
        for (placed, total), w in states.items():
            left = count - placed
            row = [comb(left, c) for c in range(left + 1)]
            for c in range(keep - placed):          # all kept, still short of *keep*
                key = (placed + c, total + c * face)
                nxt[key] = nxt.get(key, 0) + w * row[c]
            rest = sum(row[c] * (face - 1) ** (left - c) for c in range(keep - placed, left + 1))
            kept = total + (keep - placed) * face
            done[kept] = done.get(kept, 0) + w * rest
        states = nxt
    return {t: w for t, w in sorted(done.items()) if w}


def _plain_weights(term: DiceTerm) -> Weights:
    """A plain term (no explosion, no success count): its sum, or the sum of its kept dice."""
    n, x = term.count, term.sides
    high, kept = _kept(term.keep, n)
    if kept == n:
        return _plain_sum(n, x)
    if high:
        return _highest_sum(n, x, kept)
    # The lowest k of faces v are the highest k of faces x + 1 - v.
    return {kept * (x + 1) - t: w for t, w in reversed(_highest_sum(n, x, kept).items())}


def _add(a: Weights, b: Weights) -> Weights:
    """The weights of the sum of two independent totals.

    Small tables are convolved pair by pair. Large ones (``50d100+50d100``: 25 million pairs,
    about 6 s that way) by Kronecker substitution: each table becomes one integer whose
    base-2**(8·width) digits are its weights, wide enough that no digit of the product
    overflows, and Python's big-integer product does the convolution in one call."""
    if len(a) * len(b) <= 4096:
        out: dict[int, int] = {}
        for u, wu in a.items():
            for v, wv in b.items():
                out[u + v] = out.get(u + v, 0) + wu * wv
        return dict(sorted(out.items()))
    lo_a, lo_b = min(a), min(b)
    span_a, span_b = max(a) - lo_a + 1, max(b) - lo_b + 1
    width = (max(a.values()).bit_length() + max(b.values()).bit_length()
             + min(span_a, span_b).bit_length() + 7) // 8         # bytes a product digit needs

    def packed(weights: Weights, lo: int, span: int) -> int:
        return int.from_bytes(b"".join(weights.get(lo + i, 0).to_bytes(width, "little")
                                       for i in range(span)), "little")

    digits = (packed(a, lo_a, span_a) * packed(b, lo_b, span_b)).to_bytes(
        width * (span_a + span_b - 1), "little")
    out = {}
    for i in range(span_a + span_b - 1):
        w = int.from_bytes(digits[i * width:(i + 1) * width], "little")
        if w:
            out[lo_a + lo_b + i] = w
    return out


def _exploding_given_maxes(term: DiceTerm, maxes: int) -> icepool.Die:
    """A '!' term given that *maxes* top faces were rolled in all.

    Each die's chain ends in one face below the top, uniform and independent of how often it
    exploded, so the pool is *maxes* top faces plus ``count`` dice of ``sides - 1`` faces.
    """
    x, n, t = term.sides, term.count, term.count_at_least
    pool = n + maxes
    high, kept = _kept(term.keep, pool)
    finals = icepool.d(x - 1)
    if high:
        top, rest = min(kept, maxes), max(0, kept - maxes)
        if t is None:
            return finals.pool(n).highest(rest).sum() + x * top
        c = _binomial(n, _p_at_least(finals, t))
        return c.map(lambda s: min(rest, s) + (top if t <= x else 0))
    take, top = min(kept, n), max(0, kept - n)
    if t is None:
        return finals.pool(n).lowest(take).sum() + x * top
    c = _binomial(n, _p_at_least(finals, t))
    return c.map(lambda s: max(0, take - (n - s)) + (top if t <= x else 0))


def _exploding(term: DiceTerm, depth: int) -> icepool.Die:
    """Terms with '!': every explosion adds a die to the pool."""
    if term.keep is None and term.count_at_least is None:
        return term.count @ _compound_die(term.sides, depth)
    maxes = _geometric(term.sides, depth).pool(term.count).sum()
    return icepool.Die([_exploding_given_maxes(term, m) for m, _ in maxes.items()],
                       times=[q for _, q in maxes.items()])


@lru_cache(maxsize=512)
def _term_weights(term: DiceTerm, depth: int) -> tuple[Weights, Fraction]:
    """The term's weights (relative, before its sign) and the chance no die exploded past
    *depth*."""
    if not term.explode and term.count_at_least is None:
        return _plain_weights(term), Fraction(1)
    _import_icepool()
    if term.explode == "explode":
        die = _exploding(term, depth)
    else:
        die = _plain_or_compound(term, depth)
    inside = Fraction(1)
    if term.explode:
        inside = (1 - Fraction(1, term.sides ** (depth + 1))) ** term.count
    return {int(v): q for v, q in die.items() if q}, inside


def _check_depth(expr: DiceExpr, depth: int) -> None:
    if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= MAX_EXPLODE_DEPTH:
        raise RulesError(f"explode_depth must be a whole number from 0 to {MAX_EXPLODE_DEPTH}, "
                         f"got {depth!r}")
    size = sum(t.count * t.sides * (depth + 1 if t.explode else 1) for t in expr.dice_terms)
    if size > 20_000:
        raise DiceLimitError(f"{expr} is too large to enumerate exactly "
                             f"(reduce the dice, the faces or the explosion depth)")


def _import_icepool() -> None:
    """Bind ``icepool`` when the first term that needs it is computed, not when the package is
    imported: a live chapter whose tools use only plain dice or their systems' own odds
    functions never pays its import (about 15 ms of the page's start)."""
    global icepool
    import icepool


def _scaled(weights: Weights, scale: Fraction) -> Iterator[tuple[int, Fraction]]:
    """(outcome, weight × scale) for each outcome that can occur. Equal weights share one
    Fraction (every face of a plain die has the same chance), so d100 builds one, not 100."""
    made: dict[int, Fraction] = {}
    for v, q in weights.items():
        if q:
            p = made.get(q)
            if p is None:
                p = made[q] = q * scale
            yield v, p


@lru_cache(maxsize=256)
def _distribution(expr_terms: tuple, depth: int) -> Distribution:
    total: Weights | None = None
    constant = 0
    inside = Fraction(1)
    for term in expr_terms:
        if isinstance(term, Constant):
            constant += term.sign * term.value
            continue
        weights, p_inside = _term_weights(term, depth)
        if term.sign < 0:
            weights = {-v: w for v, w in reversed(weights.items())}
        total = weights if total is None else _add(total, weights)
        inside *= p_inside
    if total is None:
        return Distribution(((constant, Fraction(1)),))
    scale = Fraction(1, sum(total.values())) * inside
    pmf = tuple((v + constant, p) for v, p in _scaled(total, scale))
    has_explosion = any(isinstance(t, DiceTerm) and t.explode for t in expr_terms)
    return Distribution(pmf, 1 - inside, depth if has_explosion else None)


def distribution(expr: DiceExpr, explode_depth: int | None = None) -> Distribution:
    """Exact distribution of *expr*'s total; explosions exact up to *explode_depth* per die."""
    depth = DEFAULT_EXPLODE_DEPTH if explode_depth is None else explode_depth
    _check_depth(expr, depth)
    return _distribution(tuple(_normalised(t) for t in expr.terms), depth)


def _normalised(term: DiceTerm | Constant) -> DiceTerm | Constant:
    """The term without its text position, so equal terms share a cache entry."""
    if isinstance(term, Constant):
        return Constant(term.sign, term.value)
    return DiceTerm(term.sign, term.count, term.sides, term.explode, term.keep,
                    term.count_at_least, term.percentile)
