"""Exact odds of The Veil & Lead, each checked against brute-force enumeration of every d8
outcome written here (itertools.product over the faces)."""

import itertools
from fractions import Fraction
from functools import lru_cache

import pytest

from rulescore import RulesError
from rulescore.systems import veil_and_lead as vl

FACES = range(1, 9)


@lru_cache(maxsize=None)
def brute_sums(n):
    """Enumerate every roll of n d8 (itertools.product) once: sum of its two highest → count."""
    counts = {}
    for roll in itertools.product(FACES, repeat=n):
        s = sum(sorted(roll, reverse=True)[:2])
        counts[s] = counts.get(s, 0) + 1
    return tuple(sorted(counts.items()))


def outcomes(n):
    """(sum of the two highest, probability) over every roll of n d8, from the enumeration."""
    for s, c in brute_sums(n):
        yield s, Fraction(c, 8 ** n)


def brute_hit(n, tn, bonus):
    return sum((p for s, p in outcomes(n) if s + bonus >= tn), Fraction(0))


@pytest.mark.parametrize("pool", [1, 2, 3, 4, 5, 6])
def test_hit_probability_equals_enumeration(pool):
    for tn in range(0, 22):
        for bonus in (-3, 0, 2, 5):
            assert vl.hit_probability(pool, tn, bonus) == brute_hit(pool, tn, bonus), (tn, bonus)


@pytest.mark.parametrize("pool", [1, 2, 3, 4, 5, 6])
def test_sum_distribution_equals_enumeration(pool):
    expected = {}
    for s, p in outcomes(pool):
        expected[s] = expected.get(s, Fraction(0)) + p
    dist = vl.sum_distribution(pool)
    assert dict(dist.items()) == expected
    assert sum(p for _, p in dist.items()) == 1


def test_known_values():
    assert vl.hit_probability(2, 16) == Fraction(1, 64)
    assert vl.hit_probability(2, 2) == 1
    assert vl.hit_probability(1, 8) == Fraction(1, 8)
    assert vl.hit_probability(1, 9) == 0
    # The §VI example set-up: 6 dice, TN 15, +5 from aim and a masterwork gun.
    assert vl.hit_probability(6, 15, 5) == brute_hit(6, 15, 5)
    assert vl.hit_probability(9, 17) == 0         # the initiative ceiling: the best sum is 16


def test_pool_of_zero_or_less_rolls_nothing():
    for pool in (0, -1, -5):
        assert vl.hit_probability(pool, 2, roll_bonus=2) == 1
        assert vl.hit_probability(pool, 3, roll_bonus=2) == 0
        assert dict(vl.sum_distribution(pool, 4).items()) == {4: Fraction(1)}


def test_floor_two_rolls_two_dice_for_small_pools():
    for pool in (-3, 0, 1, 2):
        assert vl.hit_probability(pool, 12, small_pool="floor_two") == brute_hit(2, 12, 0)


def test_larger_pools_are_monotone_and_fast():
    ps = [vl.hit_probability(n, 15) for n in range(0, 41)]
    assert ps == sorted(ps) and ps[-1] < 1
    with pytest.raises(RulesError, match="pool must be 40 or less, got 41"):
        vl.hit_probability(41, 15)


def test_margin_distribution():
    margins = vl.margin_distribution(3, 11, 1)
    expected = {}
    for s, p in outcomes(3):
        expected[s + 1 - 11] = expected.get(s + 1 - 11, Fraction(0)) + p
    assert margins == expected


@pytest.mark.parametrize("pool", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("bonus", [-2, 0, 2, 7])
def test_starting_tick_distribution_equals_enumeration(pool, bonus):
    expected = {}
    for s, p in outcomes(pool):
        m = s + bonus - 11
        key = ((6, "Surprised") if m < 0 else (4, "Slow") if m <= 3 else (3, "Ready")
               if m <= 6 else (2, "Fast") if m <= 9 else (0, "Instant"))
        expected[key] = expected.get(key, Fraction(0)) + p
    assert vl.starting_tick_distribution(pool, bonus) == expected


def test_initiative_ceiling_odds():
    # QUICK 5 + Awareness 4: never better than Tick 3 without modifiers (§II Initiative Ceiling).
    dist = vl.starting_tick_distribution(9)
    assert set(dist) == {(6, "Surprised"), (4, "Slow"), (3, "Ready")}
    assert dist[(3, "Ready")] == brute_hit_sum_at_least_fast(9, 15)
    assert (0, "Instant") in vl.starting_tick_distribution(9, 5)


def brute_hit_sum_at_least_fast(n, target):
    """P(two highest of n d8 >= target), by enumerating sorted multisets of n faces
    (itertools.combinations_with_replacement) weighted by their multinomial counts."""
    from math import factorial
    from collections import Counter
    hit = 0
    for roll in itertools.combinations_with_replacement(FACES, n):
        if sum(sorted(roll)[-2:]) >= target:
            ways = factorial(n)
            for c in Counter(roll).values():
                ways //= factorial(c)
            hit += ways
    return Fraction(hit, 8 ** n)


def brute_attack(pool, tn, wr, ar, bonus, critical=0, step_modifier=0):
    hit = near = grievous = Fraction(0)
    dealt = {}
    for s, p in outcomes(pool):
        m = s + bonus - tn
        if m < 0:
            near += p if m >= -2 else 0
            d = 0
        else:
            hit += p
            d = max(wr + m // 3 + critical + step_modifier - ar, 0)
            grievous += p if d >= 5 else 0
        dealt[d] = dealt.get(d, Fraction(0)) + p
    return hit, near, grievous, dealt


@pytest.mark.parametrize("pool, tn, wr, ar, bonus, critical, step_mod", [
    (1, 8, 3, 0, 0, 0, 0), (2, 11, 3, 1, 0, 0, 0), (3, 13, 4, 0, 2, 0, 0),
    (4, 15, 3, 0, 5, 1, 0), (5, 9, 5, 2, 0, 0, -1), (6, 15, 3, 0, 5, 1, 0),
])
def test_attack_odds_equal_enumeration(pool, tn, wr, ar, bonus, critical, step_mod):
    odds = vl.attack_odds(pool, tn, wr, ar, bonus, critical=critical, step_modifier=step_mod)
    hit, near, grievous, dealt = brute_attack(pool, tn, wr, ar, bonus, critical, step_mod)
    assert (odds.p_hit, odds.p_near_miss, odds.p_grievous) == (hit, near, grievous)
    assert dict(odds.damage.items()) == dealt
    assert odds.p_hit == vl.hit_probability(pool, tn, bonus)


def test_attack_odds_of_the_worked_example_include_grievous():
    odds = vl.attack_odds(6, 15, 3, 0, 5, critical=1)
    assert odds.p_grievous > 0 and odds.damage.min() == 0
    assert odds.damage.p(5) + odds.damage.p(6) + odds.damage.p(7) == odds.p_grievous


@pytest.mark.parametrize("pool", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("vitality, kit", [(0, False), (-1, True), (-3, False), (4, True)])
def test_stabilization_probability_equals_enumeration(pool, vitality, kit):
    tn = 11 + max(0, -vitality)
    bonus = 2 if kit else 0
    assert vl.stabilization_probability(pool, vitality, medical_kit=kit) == \
        brute_hit(pool, tn, bonus)


def test_stabilization_probability_bad_input():
    with pytest.raises(RulesError, match="medical_kit must be True or False"):
        vl.stabilization_probability(3, 0, medical_kit="yes")


@pytest.mark.parametrize("pool_a, pool_b, bonus_a, bonus_b", [
    (1, 1, 0, 0), (2, 3, 0, 0), (4, 2, 0, 3), (3, 3, 2, 0),
])
def test_duel_odds_equal_enumeration(pool_a, pool_b, bonus_a, bonus_b):
    a_first = b_first = equal = Fraction(0)
    for ra in itertools.product(FACES, repeat=pool_a):
        sa = sum(sorted(ra)[-2:]) + bonus_a
        for sb, p in outcomes(pool_b):
            w = p / 8 ** pool_a
            if sa > sb + bonus_b:
                a_first += w
            elif sa < sb + bonus_b:
                b_first += w
            else:
                equal += w
    odds = vl.duel_odds(pool_a, pool_b, bonus_a, bonus_b)
    assert (odds.a_first, odds.b_first, odds.equal_sums) == (a_first, b_first, equal)
    assert odds.a_first + odds.b_first + odds.equal_sums == 1


@pytest.mark.parametrize("pool, vitality, iron, kit", [(2, 0, 1, False), (3, -1, 2, True),
                                                       (4, 0, 3, False), (3, 2, 1, False)])
def test_rescue_probability_equals_enumeration(pool, vitality, iron, kit):
    # One attempt at each Vitality from the current one down to one above death, every
    # attempt enumerated over all rolls of the pool.
    death = -(iron + 2)
    fail_all = Fraction(1)
    for v in range(vitality, death, -1):
        tn = 11 + max(0, -v)
        fail = Fraction(sum(1 for roll in itertools.product(FACES, repeat=pool)
                            if sum(sorted(roll)[-2:]) + (2 if kit else 0) < tn), 8 ** pool)
        fail_all *= fail
    assert vl.rescue_probability(pool, vitality, iron, medical_kit=kit) == 1 - fail_all


def test_rescue_probability_edges():
    assert vl.rescue_probability(3, -3, 1) == 0          # already dead
    assert vl.rescue_probability(0, 0, 1) == 0           # no dice, no rescue
    assert vl.rescue_probability(5, 0, 5) > vl.rescue_probability(5, 0, 1)
