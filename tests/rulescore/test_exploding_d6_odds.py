"""Exact odds of the exploding-d6 hit roll and wounds, against enumeration written here."""

from fractions import Fraction
from itertools import product

import pytest

from rulescore.errors import DiceLimitError, RulesError
from rulescore.systems import exploding_d6 as x6


def chains(depth):
    """Every compounding d6 total with at most *depth* explosions, with its probability."""
    return [(6 * k + r, Fraction(1, 6 ** (k + 1))) for k in range(depth + 1) for r in range(1, 6)]


def brute_hits(n, depth, min_roll, crit_at, burst=False):
    out = {}
    for dice in product(chains(depth), repeat=n):
        p = Fraction(1)
        hits = crits = 0
        for total, q in dice:
            p *= q
            if total >= min_roll:
                if not burst and total >= crit_at:
                    crits += 1
                else:
                    hits += 1
        out[(hits, crits)] = out.get((hits, crits), Fraction(0)) + p
    return out


@pytest.mark.parametrize("n, depth, min_roll, crit_at, burst", [
    (1, 2, 5, 11, False), (2, 2, 5, 11, False), (3, 2, 5, 11, False), (3, 1, 7, 13, False),
    (2, 3, 5, 9, False), (3, 2, 5, 11, True), (2, 2, 9, 7, False), (0, 2, 5, 11, False),
])
def test_hit_distribution_matches_enumeration(n, depth, min_roll, crit_at, burst):
    got = x6.hit_distribution(n, min_roll, crit_at, burst, explode_depth=depth)
    want = brute_hits(n, depth, min_roll, crit_at, burst)
    assert got == want
    odds = x6.hit_odds(n, min_roll, crit_at, burst, explode_depth=depth)
    assert sum(got.values()) + odds.truncated == 1
    assert odds.truncated == 1 - (1 - Fraction(1, 6 ** (depth + 1))) ** n


def test_one_die_hit_and_critical_chances():
    d = x6.hit_distribution(1)
    # 5+ : a 5, or a 6 that rolls on to 7-10 = 1/6 + 4/36 ; criticals 11+ : a 6, then 5 or 6
    assert d[(1, 0)] == Fraction(1, 6) + Fraction(4, 36)
    assert d[(0, 1)] == Fraction(1, 18)
    assert x6.hit_odds(1).truncated == 0


@pytest.mark.parametrize("t, p", [(1, 1), (5, Fraction(2, 6)), (6, Fraction(1, 6)),
                                  (7, Fraction(1, 6)), (11, Fraction(2, 36)),
                                  (12, Fraction(1, 36)), (17, Fraction(2, 216))])
def test_p_total_at_least_by_hand(t, p):
    assert x6.p_total_at_least(t) == p


@pytest.mark.parametrize("n, min_roll, crit_at, burst", [
    (1, 5, 11, False), (3, 5, 11, False), (3, 7, 13, False), (2, 5, 9, False),
    (3, 5, 11, True), (2, 9, 7, False),
])
def test_exact_hit_distribution_matches_enumeration(n, min_roll, crit_at, burst):
    # Enumerate chains to depth 2 (totals up to 17); every longer chain starts with three
    # sixes, so it totals 18+ and is a critical (a hit in a burst): add its mass there.
    depth, beyond = 2, Fraction(1, 6 ** 3)
    outcomes = chains(depth) + [(10 ** 3, beyond)]
    want = {}
    for dice in product(outcomes, repeat=n):
        p = Fraction(1)
        hits = crits = 0
        for total, q in dice:
            p *= q
            if total >= min_roll:
                if not burst and total >= crit_at:
                    crits += 1
                else:
                    hits += 1
        want[(hits, crits)] = want.get((hits, crits), Fraction(0)) + p
    got = x6.hit_distribution(n, min_roll, crit_at, burst)
    assert got == want
    assert sum(got.values()) == 1


def test_hit_odds_helpers():
    odds = x6.hit_odds(2, explode_depth=3)
    totals = odds.total_hits()
    assert sum(totals.values()) == 1 - odds.truncated
    assert odds.p_at_least(1) == 1 - totals[0] - odds.truncated
    assert odds.p_criticals_at_least(1) == sum(p for (h, c), p in odds.pmf.items() if c)


def brute_wounds(n, depth, cover, pool, critical_pool=0, wph=1, prevent="heaviest"):
    out = {}
    for dice in product(chains(depth), repeat=n):
        p = Fraction(1)
        for _, q in dice:
            p *= q
        totals = [t for t, _ in dice]
        hit = x6.hit_roll(totals)
        rolls = [()] if cover is None else list(product(range(1, 7), repeat=hit.value))
        for faces in rolls:
            r = x6.resolve_attack(totals, cover=cover, cover_faces=list(faces), pool=pool,
                                  critical_pool=critical_pool, wounds_per_hit=wph,
                                  prevent=prevent)
            w = r.value
            out[w] = out.get(w, Fraction(0)) + p / len(rolls)
    return out


@pytest.mark.parametrize("n, depth, cover, pool, cpool, wph, prevent", [
    (1, 3, None, 0, 0, 1, "heaviest"),
    (2, 2, 5, 1, 0, 1, "heaviest"),
    (2, 3, 4, 1, 1, 2, "heaviest"),
    (2, 3, 5, 1, 1, 1, "lightest"),
    (3, 2, None, 2, 0, 1, "heaviest"),
])
def test_wound_distribution_matches_enumeration(n, depth, cover, pool, cpool, wph, prevent):
    got = x6.wound_distribution(n, cover=cover, pool=pool, critical_pool=cpool,
                                wounds_per_hit=wph, prevent=prevent, explode_depth=depth)
    want = brute_wounds(n, depth, cover, pool, cpool, wph, prevent)
    assert got.pmf == want
    assert sum(got.pmf.values()) + got.truncated == 1


def test_wounds_by_hand_one_die_no_cover():
    # one die, depth 2: 1-4 miss; 5, 7-10 hit and 11-16 critical: 1 wound; 17: megacritical, 2
    got = x6.wound_distribution(1, explode_depth=2).pmf
    assert got[0] == Fraction(4, 6)
    assert got[1] == Fraction(1, 6) + Fraction(5, 36) + Fraction(4, 216)
    assert got[2] == Fraction(1, 216)


def test_wound_distribution_limits():
    with pytest.raises(RulesError, match="dice must be from 0 to 12"):
        x6.wound_distribution(13)
    with pytest.raises(RulesError, match="explode_depth must be from 0 to 6"):
        x6.wound_distribution(2, explode_depth=7)
    with pytest.raises(RulesError, match="cover must be one of"):
        x6.wound_distribution(2, cover=2)


def test_wound_distribution_refuses_work_past_its_budget_at_once():
    # 12 dice at depth 4 with cover (the widget's largest case) is counted; 12 at depth 6
    # with cover is past the counting budget, so it is refused naming what will work.
    assert x6.wound_distribution(12, cover=5).explode_depth == 4
    with pytest.raises(DiceLimitError, match="dice 12 at explode_depth 6 with cover is too "
                                             "much to count exactly: use at most 8 dice"):
        x6.wound_distribution(12, explode_depth=6, cover=5)


def test_p_total_at_least_is_bounded():
    assert x6.p_total_at_least(600) == Fraction(1, 6 ** 100)
    with pytest.raises(RulesError, match="t must be from 1 to 600, got 1000000000"):
        x6.p_total_at_least(10**9)


def test_odds_of_each_number_of_criticals_sum_the_joint_odds():
    """§Exact odds: two dice are both critical once in 324 (1/18 squared)."""
    crits = x6.hit_odds(2).criticals()
    assert crits == {0: Fraction(289, 324), 1: Fraction(34, 324), 2: Fraction(1, 324)}
    assert x6.hit_odds(4, burst=True).criticals() == {0: Fraction(1)}
