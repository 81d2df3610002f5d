"""Exact distributions, checked against brute-force enumeration written here (never icepool)."""

from collections import defaultdict
from fractions import Fraction
from functools import cache
from itertools import product
from math import prod

import pytest

from rulescore import RulesError
from rulescore.dice import DEFAULT_EXPLODE_DEPTH, DiceLimitError, Distribution, parse

# --- brute force ---------------------------------------------------------------------------------


def keep(pool, rule):
    """The dice kept from *pool* by rule ("kh", 2) etc. (None keeps all)."""
    if rule is None:
        return list(pool)
    mode, n = rule
    ordered = sorted(pool)
    size = len(ordered)
    return {"kh": ordered[size - n:], "kl": ordered[:n],
            "dh": ordered[:size - n], "dl": ordered[n:]}[mode]


def score(pool, rule, cs):
    kept = keep(pool, rule)
    if cs is None:
        return sum(kept)
    return sum(1 for v in kept if v >= cs)


@cache
def plain(n, x, rule=None, cs=None):
    """Every one of the x**n equally likely throws."""
    pmf = defaultdict(Fraction)
    each = Fraction(1, x ** n)
    for faces in product(range(1, x + 1), repeat=n):
        pmf[score(faces, rule, cs)] += each
    return dict(pmf)


def chains(x, depth):
    """One exploding die: k top faces then a face below the top, k = 0..depth."""
    return [((x,) * k + (r,), Fraction(1, x ** (k + 1)))
            for k in range(depth + 1) for r in range(1, x)]


@cache
def exploding(n, x, depth, mode, rule=None, cs=None):
    """Every combination of chains; with '!' each roll is its own die, with '!!' one die
    shows its chain's sum. Chains longer than *depth* explosions are the truncated mass."""
    pmf = defaultdict(Fraction)
    for combo in product(chains(x, depth), repeat=n):
        p = prod(c[1] for c in combo)
        if mode == "!":
            pool = [v for faces, _ in combo for v in faces]
        else:
            pool = [sum(faces) for faces, _ in combo]
        pmf[score(pool, rule, cs)] += p
    return dict(pmf)


def constant(c):
    return {c: Fraction(1)}


def combine(*signed):
    """Sum of independent terms, each (sign, pmf)."""
    out = {0: Fraction(1)}
    for sign, pmf in signed:
        nxt = defaultdict(Fraction)
        for a, pa in out.items():
            for b, pb in pmf.items():
                nxt[a + sign * b] += pa * pb
        out = dict(nxt)
    return out


def check(dist, expected, truncated=Fraction(0)):
    """*dist* lists exactly the outcomes of *expected*, in order, with their probabilities."""
    expected = {v: p for v, p in expected.items() if p}
    assert list(dist.items()) == sorted(expected.items())
    assert all(type(v) is int and type(p) is Fraction for v, p in dist.items())
    assert dist.truncated == truncated
    assert sum(p for _, p in dist.items()) + dist.truncated == 1


def test_the_brute_force_itself():
    assert plain(2, 6)[7] == Fraction(1, 6)
    assert plain(3, 6, ("kh", 1))[6] == 1 - Fraction(5 ** 3, 6 ** 3)
    assert exploding(1, 4, 1, "!") == {1: Fraction(1, 4), 2: Fraction(1, 4),
                                       3: Fraction(1, 4), 5: Fraction(1, 16),
                                       6: Fraction(1, 16), 7: Fraction(1, 16)}
    assert combine((1, plain(1, 4)), (-1, plain(1, 4)))[0] == Fraction(1, 4)


# --- plain dice ----------------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("1d6", lambda: plain(1, 6)),
    ("2d6", lambda: plain(2, 6)),
    ("3d6", lambda: plain(3, 6)),
    ("4d4", lambda: plain(4, 4)),
    ("1d2", lambda: plain(1, 2)),
    ("1d1", lambda: plain(1, 1)),
    ("3d1", lambda: plain(3, 1)),
    ("4d6dl1", lambda: plain(4, 6, ("dl", 1))),
    ("4d6dh1", lambda: plain(4, 6, ("dh", 1))),
    ("4d6dl0", lambda: plain(4, 6, ("dl", 0))),
    ("5d6kh3", lambda: plain(5, 6, ("kh", 3))),
    ("3d8kl2", lambda: plain(3, 8, ("kl", 2))),
    ("6d8kh2", lambda: plain(6, 8, ("kh", 2))),
    ("4d10kl1", lambda: plain(4, 10, ("kl", 1))),
    ("2d20kh1", lambda: plain(2, 20, ("kh", 1))),
    ("5d4dh2", lambda: plain(5, 4, ("dh", 2))),
    ("3d6k", lambda: plain(3, 6, ("kh", 1))),
    ("5d6kh4", lambda: plain(5, 6, ("kh", 4))),       # TSL's Proficient roll
    ("4d6kh4", lambda: plain(4, 6, ("kh", 4))),       # keeping every die is the plain sum
    ("7d4kh3", lambda: plain(7, 4, ("kh", 3))),
    ("3d20dh1", lambda: plain(3, 20, ("dh", 1))),
    ("2d100kl1", lambda: plain(2, 100, ("kl", 1))),
    ("6d3dl5", lambda: plain(6, 3, ("dl", 5))),
])
def test_sums_and_keep_drop(text, expected):
    dist = parse(text).distribution()
    check(dist, expected())
    assert dist.explode_depth is None


@pytest.mark.parametrize("text, expected", [
    ("2d6-1d4+3", lambda: combine((1, plain(2, 6)), (-1, plain(1, 4)), (1, constant(3)))),
    ("6d8kh2+5", lambda: combine((1, plain(6, 8, ("kh", 2))), (1, constant(5)))),
    ("-2d6+10", lambda: combine((-1, plain(2, 6)), (1, constant(10)))),
    ("1d8-1d8", lambda: combine((1, plain(1, 8)), (-1, plain(1, 8)))),
    ("3d4kh2+2d6kl1-1", lambda: combine((1, plain(3, 4, ("kh", 2))),
                                        (1, plain(2, 6, ("kl", 1))), (-1, constant(1)))),
    ("7", lambda: constant(7)),
    ("-3", lambda: constant(-3)),
    ("2-5", lambda: constant(-3)),
    ("4d6cs>=5-2d6cs>=6", lambda: combine((1, plain(4, 6, None, 5)), (-1, plain(2, 6, None, 6)))),
])
def test_several_terms(text, expected):
    check(parse(text).distribution(), expected())


@pytest.mark.parametrize("text, expected", [
    # Terms with thousands of pairs of totals are added by big-integer products.
    ("1d200+1d300-1d50", lambda: combine((1, plain(1, 200)), (1, plain(1, 300)),
                                         (-1, plain(1, 50)))),
    ("3d20kh2+2d100", lambda: combine((1, plain(3, 20, ("kh", 2))), (1, plain(2, 100)))),
    ("-1d100-1d90+4", lambda: combine((-1, plain(1, 100)), (-1, plain(1, 90)), (1, constant(4)))),
])
def test_large_sums_of_terms(text, expected):
    check(parse(text).distribution(), expected())


def test_two_halves_of_a_pool_add_up_to_the_pool():
    """50d100 + 50d100 is 100d100: the product of two large tables (once about 6 s of pair
    by pair convolution) against the one-die-at-a-time count of the whole pool."""
    assert parse("50d100+50d100").distribution() == parse("100d100").distribution()
    assert parse("40d6-40d6").distribution().p(0) == parse("80d6").distribution().p(280)


@pytest.mark.parametrize("text, expected", [
    ("5d6cs>=5", lambda: plain(5, 6, None, 5)),
    ("4d10cs>=8", lambda: plain(4, 10, None, 8)),
    ("3d6cs>=1", lambda: plain(3, 6, None, 1)),
    ("3d6cs>=6", lambda: plain(3, 6, None, 6)),
    ("3d6cs>=7", lambda: plain(3, 6, None, 7)),
    ("5d6kh3cs>=4", lambda: plain(5, 6, ("kh", 3), 4)),
    ("5d6kl3cs>=4", lambda: plain(5, 6, ("kl", 3), 4)),
    ("5d6dh2cs>=3", lambda: plain(5, 6, ("dh", 2), 3)),
    ("5d6dl2cs>=5", lambda: plain(5, 6, ("dl", 2), 5)),
    ("4d8kl1cs>=2", lambda: plain(4, 8, ("kl", 1), 2)),
])
def test_counting_successes(text, expected):
    check(parse(text).distribution(), expected())


def test_cs_above_every_face_is_always_zero():
    assert list(parse("3d6cs>=7").distribution().items()) == [(0, Fraction(1))]


def test_percentile_is_uniform():
    dist = parse("d%").distribution()
    assert list(dist.items()) == [(v, Fraction(1, 100)) for v in range(1, 101)]
    assert dist.mean() == Fraction(101, 2)


# --- exploding and compounding -------------------------------------------------------------------

def truncated(n, x, depth):
    return 1 - (1 - Fraction(1, x ** (depth + 1))) ** n


@pytest.mark.parametrize("text, depth, n, x, mode, rule, cs", [
    ("2d4!", 3, 2, 4, "!", None, None),
    ("1d6!", 3, 1, 6, "!", None, None),
    ("3d4!kh2", 2, 3, 4, "!", ("kh", 2), None),
    ("3d4!kh1", 3, 3, 4, "!", ("kh", 1), None),
    ("2d6!kl1", 3, 2, 6, "!", ("kl", 1), None),
    ("3d4!kl2", 2, 3, 4, "!", ("kl", 2), None),
    ("3d4!dl1", 2, 3, 4, "!", ("dl", 1), None),
    ("3d4!dh1", 2, 3, 4, "!", ("dh", 1), None),
    ("3d4!dh2", 2, 3, 4, "!", ("dh", 2), None),
    ("3d6!cs>=5", 2, 3, 6, "!", None, 5),
    ("2d6!cs>=6", 3, 2, 6, "!", None, 6),
    ("2d4!cs>=5", 2, 2, 4, "!", None, 5),
    ("3d4!kh2cs>=3", 2, 3, 4, "!", ("kh", 2), 3),
    ("3d4!kl2cs>=3", 2, 3, 4, "!", ("kl", 2), 3),
    ("3d4!kl2cs>=4", 2, 3, 4, "!", ("kl", 2), 4),
    ("3d4!dl1cs>=2", 2, 3, 4, "!", ("dl", 1), 2),
    ("3d4!dh1cs>=4", 2, 3, 4, "!", ("dh", 1), 4),
    ("2d2!", 3, 2, 2, "!", None, None),
    ("2d2!kl1", 3, 2, 2, "!", ("kl", 1), None),
    ("2d4!", 0, 2, 4, "!", None, None),
    ("2d4!kh1", 0, 2, 4, "!", ("kh", 1), None),
    ("2d6!!", 3, 2, 6, "!!", None, None),
    ("2d6!!cs>=5", 3, 2, 6, "!!", None, 5),
    ("2d4!!cs>=6", 3, 2, 4, "!!", None, 6),
    ("2d4!!cs>=9", 3, 2, 4, "!!", None, 9),
    ("3d4!!kh2", 2, 3, 4, "!!", ("kh", 2), None),
    ("3d4!!kl1", 2, 3, 4, "!!", ("kl", 1), None),
    ("3d4!!dl1", 2, 3, 4, "!!", ("dl", 1), None),
    ("3d4!!kh2cs>=5", 2, 3, 4, "!!", ("kh", 2), 5),
    ("3d4!!kl2cs>=3", 2, 3, 4, "!!", ("kl", 2), 3),
    ("1d4!!", 0, 1, 4, "!!", None, None),
    # pools large enough that several numbers of top faces mix (each keep mode's cases)
    ("5d3!kh2", 2, 5, 3, "!", ("kh", 2), None),
    ("5d3!kh4", 1, 5, 3, "!", ("kh", 4), None),
    ("5d3!kl2", 2, 5, 3, "!", ("kl", 2), None),
    ("5d3!dl2", 2, 5, 3, "!", ("dl", 2), None),
    ("5d3!dh2", 2, 5, 3, "!", ("dh", 2), None),
    ("5d3!dh4", 1, 5, 3, "!", ("dh", 4), None),
    ("4d3!dh0", 2, 4, 3, "!", ("dh", 0), None),
    ("5d3!kh3cs>=2", 2, 5, 3, "!", ("kh", 3), 2),
    ("5d3!dh2cs>=3", 2, 5, 3, "!", ("dh", 2), 3),
    # compounding dice kept: a weighted die in the kept-dice count
    ("4d3!!kh2", 2, 4, 3, "!!", ("kh", 2), None),
    ("4d3!!dh1", 2, 4, 3, "!!", ("dh", 1), None),
    ("4d3!!kl3", 2, 4, 3, "!!", ("kl", 3), None),
    ("1d5!!kh1", 3, 1, 5, "!!", ("kh", 1), None),
    ("2d9!!kl1", 2, 2, 9, "!!", ("kl", 1), None),
])
def test_exploding_against_chains(text, depth, n, x, mode, rule, cs):
    dist = parse(text).distribution(explode_depth=depth)
    check(dist, exploding(n, x, depth, mode, rule, cs), truncated(n, x, depth))
    assert dist.explode_depth == depth


def test_exploding_with_other_terms():
    depth = 2
    dist = parse("2d4!+1d6-2").distribution(explode_depth=depth)
    expected = combine((1, exploding(2, 4, depth, "!")), (1, plain(1, 6)), (-1, constant(2)))
    check(dist, expected, truncated(2, 4, depth))


def test_subtracted_exploding_term():
    depth = 3
    dist = parse("1d6-1d4!").distribution(explode_depth=depth)
    expected = combine((1, plain(1, 6)), (-1, exploding(1, 4, depth, "!")))
    check(dist, expected, truncated(1, 4, depth))
    assert dist.min() == 1 - (4 * depth + 3) == -14


def test_two_exploding_terms_truncated_mass():
    depth = 2
    dist = parse("2d4!+1d6!!").distribution(explode_depth=depth)
    expected = combine((1, exploding(2, 4, depth, "!")), (1, exploding(1, 6, depth, "!!")))
    inside = (1 - Fraction(1, 4 ** 3)) ** 2 * (1 - Fraction(1, 6 ** 3))
    check(dist, expected, 1 - inside)


def test_default_depth():
    dist = parse("1d6!").distribution()
    assert dist.explode_depth == DEFAULT_EXPLODE_DEPTH
    assert dist.truncated == Fraction(1, 6 ** (DEFAULT_EXPLODE_DEPTH + 1))
    assert dist.max() == 6 * DEFAULT_EXPLODE_DEPTH + 5
    # a single exploding d6: 1..5 at 1/6, 7..11 at 1/36, ...
    assert dist.p(5) == Fraction(1, 6) and dist.p(6) == 0 and dist.p(7) == Fraction(1, 36)


def test_exploding_p_at_least_excludes_the_truncated_mass():
    dist = parse("2d6!").distribution(explode_depth=2)
    assert dist.p_at_least(dist.min()) == 1 - dist.truncated
    assert dist.p_at_most(dist.max()) == 1 - dist.truncated


def test_exploding_mean_is_conditional_on_the_depth():
    depth = 3
    bf = exploding(2, 4, depth, "!")
    mass = sum(bf.values())
    dist = parse("2d4!").distribution(explode_depth=depth)
    assert dist.mean() == sum(v * p for v, p in bf.items()) / mass


# --- queries -------------------------------------------------------------------------------------

def test_two_d6_queries():
    dist = parse("2d6").distribution()
    assert dist.p_at_least(7) == Fraction(7, 12)
    assert dist.p_at_most(4) == Fraction(1, 6)
    assert dist.p(7) == Fraction(1, 6)
    assert dist.p(13) == 0 and dist.p(1) == 0
    assert dist.p_at_least(2) == 1 and dist.p_at_least(13) == 0
    assert dist.p_at_most(1) == 0 and dist.p_at_most(12) == 1
    assert dist.mean() == 7
    assert (dist.min(), dist.max()) == (2, 12)
    assert dist.outcomes() == tuple(range(2, 13))
    assert dist.truncated == 0


def test_six_d8_keep_two_plus_five():
    bf = combine((1, plain(6, 8, ("kh", 2))), (1, constant(5)))
    dist = parse("6d8kh2+5").distribution()
    for target in (7, 12, 15, 18, 21, 22):
        assert dist.p_at_least(target) == sum(p for v, p in bf.items() if v >= target)
        assert dist.p_at_most(target) == sum(p for v, p in bf.items() if v <= target)
    assert dist.p_at_least(15) == Fraction(31281, 32768)  # two highest of 6d8 total 10+
    assert dist.mean() == sum(v * p for v, p in bf.items())


def test_four_d6_drop_lowest_mean():
    assert parse("4d6dl1").distribution().mean() == Fraction(15869, 1296)


def test_p_at_least_and_at_most_are_complements():
    dist = parse("3d6kh2-1d4").distribution()
    for t in range(-5, 15):
        assert dist.p_at_least(t) + dist.p_at_most(t - 1) == 1


def test_results_are_plain_fractions_and_ints():
    dist = parse("2d6").distribution()
    assert type(dist.p_at_least(7)) is Fraction
    assert type(dist.p_at_most(7)) is Fraction
    assert type(dist.p(7)) is Fraction
    assert type(dist.mean()) is Fraction
    assert type(dist.min()) is int
    assert isinstance(dist, Distribution)


# --- errors --------------------------------------------------------------------------------------

@pytest.mark.parametrize("depth", [-1, 41, 1.5, True, "3"])
def test_bad_explode_depth(depth):
    with pytest.raises(RulesError, match=r"explode_depth must be a whole number from 0 to 40, got"):
        parse("2d6!").distribution(explode_depth=depth)


def test_too_large_to_work_out():
    with pytest.raises(DiceLimitError, match="100d1000 is too large to work out exactly"):
        parse("100d1000").distribution()
    with pytest.raises(DiceLimitError, match="or explode fewer times"):
        parse("20d100!").distribution(explode_depth=40)


@pytest.mark.parametrize("text, x", [("1d90!!kh1", 90), ("2d90!!kh1", 90), ("2d200!!kl1", 200)])
def test_large_compounding_dice_kept(text, x):
    """Kept compounding dice of many faces (icepool's pool evaluation recurses past Python's
    limit on these, so our own count does them) are exact: checked against the two dice's
    chains, depth 1."""
    n = int(text.split("d")[0])
    mode = text[-3:-1]
    dist = parse(text).distribution(explode_depth=1)
    if n == 1:
        expected = exploding(1, x, 1, "!!")
    else:
        expected = defaultdict(Fraction)
        for (a, pa), (b, pb) in product(chains(x, 1), repeat=2):
            pair = (sum(a), sum(b))
            expected[max(pair) if mode == "kh" else min(pair)] += pa * pb
    check(dist, expected, truncated(n, x, 1))


def test_plain_dice_of_one_kind_are_added_as_one_term():
    """50d100+50d100 is counted as 100d100 (far cheaper than adding two tables); the odds
    are the same as adding the two."""
    two = parse("2d6+1d6-1d4-2d4").distribution()
    check(two, combine((1, plain(3, 6)), (-1, plain(3, 4))))
