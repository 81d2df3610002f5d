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
from .pipeline import COVER_STACKING, FLOW_REACTIONS

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

    def criticals(self) -> dict[int, Fraction]:
        """Odds of each number of critical hits (§Critical hits)."""
        out: dict[int, Fraction] = {}
        for (_, c), p in self.pmf.items():
            out[c] = out.get(c, Fraction(0)) + p
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
    return attack_odds(n, min_roll, crit_at, burst, cover=cover, pool=pool,
                       critical_pool=cpool, piercing=pierce, wounds_per_hit=per,
                       prevent=prevent, explode_depth=d)


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


#: One attack's standing hits between stages: (normal hits, the criticals' extra wounds in the
#: order they are stopped) → weight, all weights of a stage over one denominator.
_States = dict[tuple[int, tuple[int, ...]], int]


def _add(out: _States, key: tuple[int, tuple[int, ...]], weight: int) -> None:
    if weight:
        out[key] = out.get(key, 0) + weight


def _rolled_states(n: int, min_roll: int, crit_at: int, burst: bool, prevent: str,
                   depth: int) -> tuple[_States, int]:
    """The hit roll's (normal hits, criticals' extras) weighted, and their denominator; chains
    of up to *depth* explosions a die (the rest is the truncated mass)."""
    weights = _category_weights(min_roll, crit_at, burst, depth)
    cats = [k for k, w in weights.items() if w]
    out: _States = {}
    for combo in combinations_with_replacement(range(len(cats)), n):
        counts = Counter(combo)
        ways = factorial(n)
        weight = 1
        for i, k in counts.items():
            ways //= factorial(k)
            weight *= weights[cats[i]] ** k
        hits = sum(k for i, k in counts.items() if cats[i][0] == "hit")
        extras = tuple(sorted((cats[i][1] for i, k in counts.items() if cats[i][0] == "crit"
                               for _ in range(k)), reverse=prevent == "heaviest"))
        _add(out, (hits, extras), ways * weight)
    return out, 6 ** ((depth + 1) * n)


def _stop_each(states: _States, n: int, stop: int, sides: int) -> tuple[_States, int]:
    """A cover-like roll: each hit, normal or critical, stopped on *stop* of *sides* equal
    chances; criticals stopped are taken from the front of the order (§Cover). Every state is
    brought to *sides* ** *n* (the most hits there can be)."""
    out: _States = {}
    keep = sides - stop
    for (h, extras), w in states.items():
        c = len(extras)
        scale = w * sides ** (n - h - c)
        for kn in range(h + 1):
            wn = scale * comb(h, kn) * stop ** kn * keep ** (h - kn)
            for kc in range(c + 1):
                _add(out, (h - kn, extras[kc:]), wn * comb(c, kc) * stop ** kc * keep ** (c - kc))
    return out, sides ** n


def _chance(t: int) -> tuple[int, int]:
    """:func:`p_total_at_least` as (numerator, power of 6 below it)."""
    k, r = (t - 1) // 6, (t - 1) % 6 + 1
    return 7 - r, k + 1


def _reacted_states(states: _States, n: int, kind: str, dice: int,
                    min_roll: int) -> tuple[_States, int]:
    """After a dodge (all or nothing; the minimum roll rises by the hits) or a parry (each
    success removes a normal hit) of *dice* compounding d6 (§Dodge, §Parry melee attacks)."""
    out: _States = {}
    if kind == "parry":
        a, k = _chance(min_roll)
        side = 6 ** k
        for (h, extras), w in states.items():
            for s in range(dice + 1):
                _add(out, (max(0, h - s), extras),
                     w * comb(dice, s) * a ** s * (side - a) ** (dice - s))
        return out, side ** dice
    top = _chance(min_roll + n)[1]
    denom = 6 ** (top * dice)
    for (h, extras), w in states.items():
        if not h + len(extras):
            _add(out, (h, extras), w * denom)
            continue
        a, k = _chance(min_roll + h + len(extras))
        miss = (6 ** k - a) ** dice * 6 ** ((top - k) * dice)
        _add(out, (0, ()), w * (denom - miss))
        _add(out, (h, extras), w * miss)
    return out, denom


def attack_odds(dice: int, min_roll: int = BASE_MIN_ROLL, crit_at: int = BASE_CRIT_AT,
                burst: bool = False, *, reaction: str = "none", reaction_dice: int = 0,
                reaction_min_roll: int = BASE_MIN_ROLL, shield: str = "round shield",
                cover: int | None = None, stacking: str = "best", pool: int = 0,
                critical_pool: int = 0, piercing: int = 0, wounds_per_hit: int = 1,
                prevent: str = "heaviest", explode_depth: int = WOUND_DEPTH) -> WoundOdds:
    """Exact odds of the wounds of one attack as :func:`~.pipeline.attack` resolves it: the
    hit roll, the defender's *reaction* (a dodge or a parry of *reaction_dice* dice at
    *reaction_min_roll*, or a shield parry at the shield's cover, once at the better of shield
    and terrain cover or once each by *stacking*), the cover roll, protection and wounds.
    Counted like :func:`wound_distribution` (chains of up to *explode_depth* explosions a hit
    die; the rest reported as ``truncated``)."""
    n = require_int("dice", dice, minimum=0, maximum=MAX_WOUND_DICE)
    min_roll, crit_at = threshold("min_roll", min_roll), threshold("crit_at", crit_at)
    flag("burst", burst)
    kind = one_of("reaction", reaction, FLOW_REACTIONS)
    r_dice = count("reaction_dice", reaction_dice)
    r_min = threshold("reaction_min_roll", reaction_min_roll)
    shield_cover = shield_use("parry", shield).cover
    terrain = None if cover is None else _cover(cover)
    stacking = one_of("stacking", stacking, COVER_STACKING)
    pool = require_int("pool", pool, minimum=0, maximum=200)
    cpool = require_int("critical_pool", critical_pool, minimum=0, maximum=pool)
    pierce = require_int("piercing", piercing, minimum=0, maximum=50)
    per = per_hit("wounds_per_hit", wounds_per_hit)
    one_of("prevent", prevent, PREVENT)
    d = _depth(explode_depth, MAX_WOUND_DEPTH)
    weights = _category_weights(min_roll, crit_at, burst, d)
    _check_wound_cost(n, d, weights, cover is not None or kind != "none")
    return _attack_odds(n, min_roll, crit_at, burst, kind, r_dice, r_min, shield_cover,
                        terrain, stacking, pool, cpool, pierce, per, prevent, d)


@lru_cache(maxsize=128)
def _attack_odds(n: int, min_roll: int, crit_at: int, burst: bool, kind: str, r_dice: int,
                 r_min: int, shield_cover: int, terrain: int | None, stacking: str, pool: int,
                 cpool: int, pierce: int, per: int, prevent: str, d: int) -> WoundOdds:
    states, denom = _rolled_states(n, min_roll, crit_at, burst, prevent, d)
    stages = []
    if kind in ("dodge", "parry"):
        states, more = _reacted_states(states, n, kind, r_dice, r_min)
        stages.append(more)
    elif kind == "shield parry" and (terrain is None or stacking == "best"):
        value = shield_cover if terrain is None else min(shield_cover, terrain)
        states, more = _stop_each(states, n, 7 - value, 6)
        stages.append(more)
        terrain = None
    elif kind == "shield parry":
        # Shield, then cover: a hit stays only if neither stops it, one chance in 36 a pair.
        stop = 36 - (shield_cover - 1) * (terrain - 1)
        states, more = _stop_each(states, n, stop, 36)
        stages.append(more)
        terrain = None
    if terrain is not None:
        states, more = _stop_each(states, n, 7 - terrain, 6)
        stages.append(more)
    for more in stages:
        denom *= more
    totals: Counter = Counter()
    for (h, extras), w in states.items():
        on_hits, on_crits, extra = protection_use(h, len(extras), pool, cpool, pierce, pool)
        left = extras[on_crits:]
        totals[(h - on_hits - extra + len(left)) * per + sum(left)] += w
    inside = (1 - Fraction(1, 6 ** (d + 1))) ** n
    return WoundOdds({k: Fraction(v, denom) for k, v in sorted(totals.items())}, 1 - inside, d)
