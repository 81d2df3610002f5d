"""Exact distributions of dice expressions behind our own type.

Every term is counted here in integer weights (:mod:`rulescore.dice.weights`): plain and
compounding dice summed or kept, exploding pools, success counts. The tests check each path
against brute-force enumeration and the benchmarks against icepool. Before anything is
counted, :mod:`rulescore.dice.budget` estimates the work and refuses an expression that would
keep a reader's page busy, so every answer comes back within about a second.

Probabilities are ``fractions.Fraction``. Exploding dice can in principle roll forever, so
their distribution is exact up to ``explode_depth`` explosions per die: every outcome listed is
exact, and the probability that some die explodes further is reported as
:attr:`Distribution.truncated`, never folded into other outcomes.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from sys import getsizeof
from typing import Iterator

from ..errors import RulesError
from . import weights as W
from .budget import DEFAULT_EXPLODE_DEPTH, check_budget
from .cache import SizedCache
from .notation import Constant, DiceExpr, DiceTerm, Keep
from .weights import Weights


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


def compound_die(sides: int, depth: int) -> tuple[W.Block, ...]:
    """One compounding die, up to *depth* explosions (chains past it are left out): k
    explosions then a face r below the top total k·sides + r, weight sides ** (depth − k)."""
    return tuple((k * sides + 1, sides - 1, sides ** (depth - k)) for k in range(depth + 1))


def top_faces(sides: int, depth: int) -> tuple[W.Block, ...]:
    """How many times one exploding die shows its top face, up to *depth* (relative)."""
    return tuple((k, 1, (sides - 1) * sides ** (depth - k)) for k in range(depth + 1))


def _kept_sum(die: tuple[W.Block, ...], count: int, keep: Keep | None) -> Weights:
    """The sum of the kept dice of *count* dice like *die*."""
    high, kept = _kept(keep, count)
    if kept == count:
        return W.sum_of_dice(die, count)
    faces = W.faces(die)
    return W.highest_sum(faces, count, kept) if high else W.lowest_sum(faces, count, kept)


def _plain_or_compound(term: DiceTerm, depth: int) -> Weights:
    """Terms whose dice are single values: plain dice, or compounding ('!!') dice."""
    die = compound_die(term.sides, depth) if term.explode else W.uniform(term.sides)
    t = term.count_at_least
    if t is None:
        return _kept_sum(die, term.count, term.keep)
    hits = sum(w * sum(1 for f in range(s, s + n) if f >= t) for s, n, w in die)
    misses = sum(w * n for _, n, w in die) - hits
    out: Weights = {}
    for s, w in W.binomial(term.count, hits, misses).items():
        kept = _kept_successes(term, s, term.count)
        out[kept] = out.get(kept, 0) + w
    return dict(sorted(out.items()))


def _exploding(term: DiceTerm, depth: int) -> Weights:
    """Terms with '!': every explosion adds a die to the pool.

    Each die's chain ends in one face below the top, uniform and independent of how often it
    exploded, so given m top faces rolled in all, the pool is m top faces plus ``count`` dice
    of ``sides - 1`` faces (the *finals*), every one of them below the top faces. Which dice
    are kept then depends on m only through a few cases, worked out per keep mode below; every
    case's weights add up to the same (sides − 1) ** count, so they mix by m's weight."""
    x, n, t = term.sides, term.count, term.count_at_least
    if term.keep is None and t is None:
        return W.sum_of_dice(compound_die(x, depth), n)
    maxes = W.sum_of_dice(top_faces(x, depth), n)
    finals = W.uniform(x - 1)
    out: Weights = {}

    def mix(weights: Weights, shift: int, g: int) -> None:
        for v, w in weights.items():
            out[v + shift] = out.get(v + shift, 0) + g * w

    if t is not None:
        hits = max(0, min(x - 1, x - t))          # finals showing t or more
        successes = W.binomial(n, hits, x - 1 - hits)
        top_hit = t <= x
        for m, g in maxes.items():
            high, kept = _kept(term.keep, n + m)
            if high:
                top, rest = min(kept, m), max(0, kept - m)
                count = {s: min(rest, s) + (top if top_hit else 0) for s in successes}
            else:
                take, top = min(kept, n), max(0, kept - n)
                count = {s: max(0, take - (n - s)) + (top if top_hit else 0) for s in successes}
            for s, w in successes.items():
                out[count[s]] = out.get(count[s], 0) + g * w
        return dict(sorted(out.items()))
    mode, k = term.keep.mode, term.keep.count
    if mode == "kl":      # the lowest k are finals, whatever m is
        return W.lowest_sum(W.faces(finals), n, k) if k < n else W.sum_of_dice(finals, n)
    if mode == "dl":      # every top face kept, with the highest n - k finals
        kept = W.highest_sum(W.faces(finals), n, n - k) if k else W.sum_of_dice(finals, n)
        for m, g in maxes.items():   # pair by pair: x·m leaves gaps a packed product would fill
            mix(kept, x * m, g)
        return dict(sorted(out.items()))
    whole = (x - 1) ** n  # the weight of every roll of the finals
    parts: dict[int, Weights] = {}
    for m, g in maxes.items():
        if mode == "kh":  # the m top faces first, then the highest k - m finals
            if m >= k:
                mix({x * k: whole}, 0, g)
                continue
            j = k - m
            if j not in parts:
                parts[j] = (W.highest_sum(W.faces(finals), n, j) if j < n
                            else W.sum_of_dice(finals, n))
            mix(parts[j], x * m, g)
        else:             # dh: drop the k highest, top faces first
            j = n + m - k if m < k else n
            if j not in parts:
                parts[j] = (W.lowest_sum(W.faces(finals), n, j) if j < n
                            else W.sum_of_dice(finals, n))
            mix(parts[j], x * max(0, m - k), g)
    return dict(sorted(out.items()))


def _term_weights(term: DiceTerm, depth: int) -> tuple[Weights, Fraction]:
    """The term's weights (relative, before its sign) and the chance no die exploded past
    *depth*."""
    if term.explode == "explode":
        weights = _exploding(term, depth)
    else:
        weights = _plain_or_compound(term, depth)
    inside = Fraction(1)
    if term.explode:
        inside = (1 - Fraction(1, term.sides ** (depth + 1))) ** term.count
    return weights, inside


def _check_depth(depth: object) -> int:
    if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= MAX_EXPLODE_DEPTH:
        raise RulesError(f"explode_depth must be a whole number from 0 to {MAX_EXPLODE_DEPTH}, "
                         f"got {depth!r}")
    return depth


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


CACHE_MIB = 64
"""Memory the cache of distributions may hold. One of the largest the budget allows (80d200:
15,921 outcomes of fractions of about 600 bits) takes about 3.5 MiB, so over a dozen of them
fit beside many small ones; the bound is on memory because the number of entries says
nothing about their size."""

_cache: SizedCache[tuple, Distribution] = SizedCache(CACHE_MIB)


def _merged(terms: tuple[DiceTerm | Constant, ...]) -> tuple[DiceTerm | Constant, ...]:
    """Plain dice of the same die and sign added into one term (50d100+50d100 as 100d100):
    one sum of dice is far cheaper than adding two large tables of totals."""
    plain: dict[tuple[int, int], int] = {}
    out: list[DiceTerm | Constant] = []
    for term in terms:
        if (isinstance(term, DiceTerm) and not term.explode and term.keep is None
                and term.count_at_least is None):
            plain[term.sign, term.sides] = plain.get((term.sign, term.sides), 0) + term.count
        else:
            out.append(term)
    return tuple(DiceTerm(sign, count, sides) for (sign, sides), count in plain.items()) \
        + tuple(out)


def _compute(terms: tuple[DiceTerm | Constant, ...], depth: int) -> Distribution:
    total: Weights | None = None
    constant = 0
    inside = Fraction(1)
    for term in terms:
        if isinstance(term, Constant):
            constant += term.sign * term.value
            continue
        weights, p_inside = _term_weights(term, depth)
        if term.sign < 0:
            weights = {-v: w for v, w in reversed(weights.items())}
        total = weights if total is None else W.add(total, weights)
        inside *= p_inside
    if total is None:
        return Distribution(((constant, Fraction(1)),))
    scale = Fraction(1, sum(total.values())) * inside
    pmf = tuple((v + constant, p) for v, p in _scaled(dict(sorted(total.items())), scale))
    has_explosion = any(isinstance(t, DiceTerm) and t.explode for t in terms)
    return Distribution(pmf, 1 - inside, depth if has_explosion else None)


def distribution(expr: DiceExpr, explode_depth: int | None = None) -> Distribution:
    """Exact distribution of *expr*'s total; explosions exact up to *explode_depth* per die.

    Raises :class:`~rulescore.dice.budget.DiceTooLargeError` at once, before any counting, when
    the estimated work is beyond the budget."""
    depth = _check_depth(DEFAULT_EXPLODE_DEPTH if explode_depth is None else explode_depth)
    key = _cache_key(expr, depth)
    found = _cache.get(key)
    if found is None:
        terms = _merged(tuple(_normalised(t) for t in expr.terms))
        check_budget(expr, terms, depth)
        found = _compute(terms, depth)
        _cache.put(key, found, _size(found))
    return found


def _size(dist: Distribution) -> int:
    """Bytes a distribution holds: its tuples, outcomes and Fractions with their two ints
    (a Fraction shared by outcomes of equal chance counted once). One pass over the outcomes,
    far cheaper than computing them."""
    seen: set[int] = set()
    size = getsizeof(dist) + getsizeof(dist.pmf)
    for pair in dist.pmf:
        v, p = pair
        size += getsizeof(pair) + getsizeof(v)
        if id(p) not in seen:
            seen.add(id(p))
            size += getsizeof(p) + getsizeof(p.numerator) + getsizeof(p.denominator)
    return size * 11 // 10      # the allocator rounds each object up: about 5 % measured


def clear_cache() -> None:
    """Forget every cached distribution (for benchmarks and tests of the cache)."""
    _cache.clear()


def cache_bytes() -> int:
    """Estimated bytes the cached distributions hold."""
    return _cache.bytes


def _cache_key(expr: DiceExpr, depth: int) -> tuple:
    """What the distribution depends on: each term's numbers and modifiers without its text
    position, so equal terms typed differently share an entry. Plain tuples, because building
    frozen dataclasses would cost more than the cached lookup itself."""
    return depth, tuple((t.sign, t.value) if isinstance(t, Constant) else
                        (t.sign, t.count, t.sides, t.explode, t.keep, t.count_at_least)
                        for t in expr.terms)


def _normalised(term: DiceTerm | Constant) -> DiceTerm | Constant:
    """The term without its text position, so equal terms share a cache entry."""
    if isinstance(term, Constant):
        return Constant(term.sign, term.value)
    return DiceTerm(term.sign, term.count, term.sides, term.explode, term.keep,
                    term.count_at_least, term.percentile)
