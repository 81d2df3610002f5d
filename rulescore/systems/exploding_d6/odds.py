"""Exact odds of the hit roll, and of wounds after cover and protection.

A compounding d6 has no largest total, so, as in :mod:`rulescore.dice`, every chain of up to
``explode_depth`` explosions a die is counted exactly and the chance that some die explodes
further is reported as ``truncated``: never folded into the listed outcomes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb, factorial

from rulescore.errors import DiceLimitError, require_int
from rulescore.errors import require_bool as flag, require_choice as one_of

from .inputs import count, per_hit, threshold
from .defence import PREVENT, REACTIONS, _cover, protection_use, shield_use
from .hits import BASE_CRIT_AT, BASE_MIN_ROLL, classify

DEFAULT_DEPTH = 10
MAX_DEPTH = 20
WOUND_DEPTH = 4
MAX_WOUND_DICE = 12
MAX_WOUND_DEPTH = 6
#: Work the exact wound odds may take, in combinations of die categories counted (each about
#: 3.5 times dearer with cover to roll): small enough for a tool to show the odds while its
#: inputs change; 12 dice at depth 6 with cover go past it.
WOUND_BUDGET = 30_000


def _depth(value: object, maximum: int) -> int:
    return require_int("explode_depth", value, minimum=0, maximum=maximum)


def die_outcomes(explode_depth: int = DEFAULT_DEPTH) -> tuple[tuple[int, int], ...]:
    """Every total of one compounding d6 with at most *explode_depth* explosions, with its
    weight out of 6 ** (explode_depth + 1): total 6k + r (r 1–5) has weight 6 ** (depth − k)."""
    d = _depth(explode_depth, MAX_DEPTH)
    return tuple((6 * k + r, 6 ** (d - k)) for k in range(d + 1) for r in range(1, 6))


def _category_weights(min_roll: int, crit_at: int, burst: bool,
                      depth: int) -> dict[tuple[str, int], int]:
    weights: Counter = Counter()
    for total, w in die_outcomes(depth):
        kind, extra = classify(total, min_roll, crit_at, criticals=not burst)
        key = ("crit", extra) if kind in ("critical", "megacritical") else (kind, 0)
        weights[key] += w
    return dict(weights)


def p_total_at_least(t: int) -> Fraction:
    """Chance that one compounding d6 totals *t* or more, exactly: with t = 6k + r (r 1–6),
    the die must show k sixes and then r or more, so (1/6) ** k × (7 − r)/6."""
    t = threshold("t", t)
    k, r = (t - 1) // 6, (t - 1) % 6 + 1
    return Fraction(7 - r, 6 ** (k + 1))


@dataclass(frozen=True)
class HitOdds:
    """Odds of (normal hits, criticals), the mass past the depth, and the depth (None: exact,
    nothing left out)."""

    pmf: dict[tuple[int, int], Fraction]
    truncated: Fraction
    explode_depth: int | None

    def p_at_least(self, hits: int) -> Fraction:
        """Chance of at least *hits* hits, normal and critical together."""
        return sum((p for (h, c), p in self.pmf.items() if h + c >= hits), Fraction(0))

    def p_criticals_at_least(self, criticals: int) -> Fraction:
        return sum((p for (h, c), p in self.pmf.items() if c >= criticals), Fraction(0))

    def total_hits(self) -> dict[int, Fraction]:
        """Odds of each number of hits, normal and critical together."""
        out: dict[int, Fraction] = {}
        for (h, c), p in self.pmf.items():
            out[h + c] = out.get(h + c, Fraction(0)) + p
        return dict(sorted(out.items()))


def hit_odds(dice: int, min_roll: int = BASE_MIN_ROLL, crit_at: int = BASE_CRIT_AT,
             burst: bool = False, explode_depth: int | None = None) -> HitOdds:
    """Joint odds of normal hits and criticals of a hit roll (§The hit roll).

    Which of miss, hit or critical a die scores depends only on whether its total reaches the
    two thresholds, and those chances are exact in closed form (:func:`p_total_at_least`), so
    by default nothing is left out. With *explode_depth* the odds count only chains of up to
    that many explosions, as :mod:`rulescore.dice` does, and report the rest as ``truncated``.
    """
    n = count("dice", dice)
    min_roll = threshold("min_roll", min_roll)
    crit_at = threshold("crit_at", crit_at)
    flag("burst", burst)
    d = None if explode_depth is None else _depth(explode_depth, MAX_DEPTH)
    return _hit_odds(n, min_roll, crit_at, burst, d)


def _exact_categories(min_roll: int, crit_at: int, burst: bool) -> tuple[Fraction, ...]:
    """Exact chances that one die misses, hits, or is critical."""
    p_hit_or_better = p_total_at_least(min_roll)
    p_crit = Fraction(0) if burst else p_total_at_least(max(crit_at, min_roll))
    return 1 - p_hit_or_better, p_hit_or_better - p_crit, p_crit


@lru_cache(maxsize=256)
def _hit_odds(n: int, min_roll: int, crit_at: int, burst: bool, d: int | None) -> HitOdds:
    if d is None:
        p_miss, p_hit, p_crit = _exact_categories(min_roll, crit_at, burst)
        inside = Fraction(1)
    else:
        weights = _category_weights(min_roll, crit_at, burst, d)
        scale = Fraction(1, 6 ** (d + 1))
        p_hit = weights.get(("hit", 0), 0) * scale
        p_miss = weights.get(("miss", 0), 0) * scale
        p_crit = sum(w for (kind, _), w in weights.items() if kind == "crit") * scale
        inside = (1 - Fraction(1, 6 ** (d + 1))) ** n
    pmf = {}
    for h in range(n + 1):
        for c in range(n - h + 1):
            m = n - h - c
            ways = factorial(n) // (factorial(h) * factorial(c) * factorial(m))
            q = ways * p_hit ** h * p_crit ** c * p_miss ** m
            if q:
                pmf[(h, c)] = q
    return HitOdds(pmf, 1 - inside, d)


def hit_distribution(dice: int, min_roll: int = BASE_MIN_ROLL,
                     crit_at: int = BASE_CRIT_AT, burst: bool = False,
                     explode_depth: int | None = None) -> dict[tuple[int, int], Fraction]:
    """``{(normal hits, criticals): probability}`` of a hit roll of *dice* compounding d6.

    Exact by default (the odds add up to 1); with *explode_depth* only chains of up to that
    many explosions a die are counted and the rest is left out (see :func:`hit_odds`)."""
    return dict(hit_odds(dice, min_roll, crit_at, burst, explode_depth).pmf)


@dataclass(frozen=True)
class WoundOdds:
    """Exact odds of the wounds an attack deals, with the mass past the depth."""

    pmf: dict[int, Fraction]
    truncated: Fraction
    explode_depth: int

    def p_at_least(self, n: int) -> Fraction:
        return sum((p for w, p in self.pmf.items() if w >= n), Fraction(0))

    def mean(self) -> Fraction:
        mass = sum(self.pmf.values(), Fraction(0))
        return sum((w * p for w, p in self.pmf.items()), Fraction(0)) / mass


def wound_distribution(dice: int, min_roll: int = BASE_MIN_ROLL, crit_at: int = BASE_CRIT_AT,
                       burst: bool = False, *, cover: int | None = None, pool: int = 0,
                       critical_pool: int = 0, piercing: int = 0, wounds_per_hit: int = 1,
                       prevent: str = "heaviest",
                       explode_depth: int = WOUND_DEPTH) -> WoundOdds:
    """Exact odds of the wounds of one attack: hit roll, then the cover roll (criticals rolled
    apart, *prevent* choosing which criticals go first), then as much protection as helps,
    then wounds (§Cover, §Protection Pool, §Wounds and Piercing, §Megacritical hits).
    Up to 12 dice and a depth of 6 explosions a die."""
    n = require_int("dice", dice, minimum=0, maximum=MAX_WOUND_DICE)
    min_roll = threshold("min_roll", min_roll)
    crit_at = threshold("crit_at", crit_at)
    flag("burst", burst)
    if cover is not None:
        _cover(cover)
    pool = require_int("pool", pool, minimum=0, maximum=200)
    cpool = require_int("critical_pool", critical_pool, minimum=0, maximum=pool)
    pierce = require_int("piercing", piercing, minimum=0, maximum=50)
    per = per_hit("wounds_per_hit", wounds_per_hit)
    one_of("prevent", prevent, PREVENT)
    d = _depth(explode_depth, MAX_WOUND_DEPTH)
    _check_wound_cost(n, d, _category_weights(min_roll, crit_at, burst, d), cover is not None)
    return _wounds(n, min_roll, crit_at, burst, cover, pool, cpool, pierce, per, prevent, d)


def _wound_cost(n: int, categories: int, cover: bool) -> int:
    return comb(n + categories - 1, n) * (7 if cover else 2) // 2


def _check_wound_cost(n: int, depth: int, weights: dict, cover: bool) -> None:
    """Refuse at once the wound odds that would take too long to count exactly."""
    categories = sum(1 for w in weights.values() if w)
    if _wound_cost(n, categories, cover) <= WOUND_BUDGET:
        return
    fits = max(k for k in range(n) if _wound_cost(k, categories, cover) <= WOUND_BUDGET)
    raise DiceLimitError(f"dice {n} at explode_depth {depth}{' with cover' if cover else ''} "
                         f"is too much to count exactly: use at most {fits} dice, or a smaller "
                         f"explode_depth")


@lru_cache(maxsize=128)
def _wounds(n: int, min_roll: int, crit_at: int, burst: bool, cover: int | None, pool: int,
            cpool: int, pierce: int, per: int, prevent: str, d: int) -> WoundOdds:
    weights = _category_weights(min_roll, crit_at, burst, d)
    cats = [k for k, w in weights.items() if w]
    stop = 0 if cover is None else 7 - cover          # faces of a d6 that stop a hit

    def after(h: int, extras: tuple[int, ...]) -> int:
        c = len(extras)
        on_hits, on_crits, extra = protection_use(h, c, pool, cpool, pierce, pool)
        ordered = sorted(extras, reverse=prevent == "heaviest")[on_crits:]
        return (h - on_hits - extra + len(ordered)) * per + sum(ordered)

    totals: Counter = Counter()
    for combo in combinations_with_replacement(range(len(cats)), n):
        counts = Counter(combo)
        ways = factorial(n)
        weight = 1
        for i, k in counts.items():
            ways //= factorial(k)
            weight *= weights[cats[i]] ** k
        base = ways * weight
        hits = sum(k for i, k in counts.items() if cats[i][0] == "hit")
        extras = sorted((cats[i][1] for i, k in counts.items() if cats[i][0] == "crit"
                         for _ in range(k)), reverse=prevent == "heaviest")
        crits = len(extras)
        rolled = hits + crits
        for kn in range(hits + 1):
            pn = comb(hits, kn) * stop ** kn * (6 - stop) ** (hits - kn)
            for kc in range(crits + 1):
                pc = comb(crits, kc) * stop ** kc * (6 - stop) ** (crits - kc)
                q = base * pn * pc * 6 ** (n - rolled)
                if q:
                    totals[after(hits - kn, tuple(extras[kc:]))] += q
    denom = 6 ** ((d + 1) * n) * 6 ** n
    pmf = {w: Fraction(q, denom) for w, q in sorted(totals.items())}
    inside = (1 - Fraction(1, 6 ** (d + 1))) ** n
    return WoundOdds(pmf, 1 - inside, d)


def reaction_odds(kind: str, dice: int, hits: int, criticals: int = 0, min_roll: int = 5,
                  shield: str = "round shield") -> dict[int, Fraction]:
    """Exact odds of the hits left (normal and critical together) after a dodge, a parry or a
    shield parry (see :func:`reaction`). *dice* is the Dodge value or the parry dice; a shield
    parry rolls one plain d6 a hit instead. Exact: only whether a die reaches the minimum roll
    matters (:func:`p_total_at_least`)."""
    one_of("kind", kind, REACTIONS)
    n = count("dice", dice)
    h = count("hits", hits)
    c = count("criticals", criticals)
    base = threshold("min_roll", min_roll)
    cover = shield_use("parry", shield).cover
    if kind == "shield parry":
        stop = 7 - cover
        out: dict[int, Fraction] = {}
        n = h + c
        for k in range(n + 1):
            p = Fraction(comb(n, k) * stop ** k * (6 - stop) ** (n - k), 6 ** n)
            if p:
                out[n - k] = out.get(n - k, Fraction(0)) + p
        return dict(sorted(out.items()))
    if kind == "dodge":
        need = base + h + c
        ok = hit_odds(n, need, need, True).p_at_least(1)
        miss = hit_odds(n, need, need, True).pmf.get((0, 0), Fraction(0))
        return {k: v for k, v in ((0, ok), (h + c, miss)) if v} if h + c else {0: ok + miss}
    successes = hit_odds(n, base, base, True).total_hits()
    out = {}
    for s, p in successes.items():
        left = max(0, h - s) + c
        out[left] = out.get(left, Fraction(0)) + p
    return dict(sorted(out.items()))


def initiative_mean(quickness: int) -> Fraction:
    """Average initiative of *quickness* compounding d6: 21/5 a die (a d6 averages 3.5, and a 6
    rolls on, so the mean m solves m = 3.5 + m / 6)."""
    return Fraction(21, 5) * count("quickness", quickness)
