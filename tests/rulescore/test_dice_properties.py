"""Property tests of the dice engine (hypothesis): parsing, distributions and rolls agree."""

from collections import Counter
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from rulescore import RulesError
from rulescore.dice.source import ZERO_READS_TOP
from rulescore.dice import DiceError, DiceExpr, DiceLimitError, DiceSyntaxError, DiceTerm, parse

DEPTH = 3
SETTINGS = settings(deadline=None, max_examples=200)

NOTATION = "0123456789dD%!khlKHLcs>=+- x.*"


@SETTINGS
@given(st.one_of(st.text(max_size=30), st.text(alphabet=NOTATION, max_size=30)))
def test_any_text_parses_or_raises_a_dice_error(text):
    try:
        expr = parse(text)
    except (DiceSyntaxError, DiceLimitError) as exc:
        assert isinstance(exc, RulesError)
        assert isinstance(str(exc), str) and exc.reason
        assert 0 <= exc.column <= len(text) + 1
        if exc.column:
            assert str(exc) == f"column {exc.column} of '{text}': {exc.reason}"
        return
    assert isinstance(expr, DiceExpr)
    assert expr.terms
    again = parse(str(expr))
    assert [(t.sign, t.notation()) for t in again.terms] == \
           [(t.sign, t.notation()) for t in expr.terms]


def join_pair(pair):
    return f"{pair[0]}{pair[1]}"


@st.composite
def dice_terms(draw):
    n = draw(st.integers(1, 4))
    x = draw(st.sampled_from([2, 4, 6, 8, 10]))
    explode = draw(st.sampled_from(["", "!", "!!"]))
    keep = draw(st.one_of(
        st.just(""),
        st.just("k"),
        st.tuples(st.sampled_from(["kh", "kl"]), st.integers(1, n)).map(join_pair),
        st.tuples(st.sampled_from(["dh", "dl"]), st.integers(0, n - 1)).map(join_pair),
    ))
    cs = draw(st.one_of(st.just(""), st.integers(1, 2 * x + 1).map(lambda t: f"cs>={t}")))
    mods = draw(st.permutations([explode, keep, cs]))
    return f"{n}d{x}" + "".join(mods)


@st.composite
def expressions(draw):
    terms = draw(st.lists(st.one_of(dice_terms(), dice_terms(), st.integers(0, 20).map(str)),
                          min_size=1, max_size=3))
    signs = draw(st.lists(st.sampled_from(["+", "-"]), min_size=len(terms),
                          max_size=len(terms)))
    lead = "-" if signs[0] == "-" else draw(st.sampled_from(["", "+"]))
    return lead + terms[0] + "".join(s + t for s, t in zip(signs[1:], terms[1:]))


@SETTINGS
@given(expressions())
def test_valid_expressions_parse(text):
    expr = parse(text)
    assert str(parse(str(expr))) == str(expr)
    assert len(expr.terms) == text.count("+") + text.count("-") - text.startswith(("+", "-")) + 1


def _inside(expr, depth):
    p = Fraction(1)
    for t in expr.dice_terms:
        if t.explode:
            p *= (1 - Fraction(1, t.sides ** (depth + 1))) ** t.count
    return p


@SETTINGS
@given(expressions())
def test_distribution_sums_to_one(text):
    expr = parse(text)
    dist = expr.distribution(explode_depth=DEPTH)
    assert all(type(v) is int and type(p) is Fraction and p > 0 for v, p in dist.items())
    assert list(dist.outcomes()) == sorted(dist.outcomes())
    assert sum(p for _, p in dist.items()) + dist.truncated == 1
    assert dist.truncated == 1 - _inside(expr, DEPTH)
    low = expr.min_total()
    if low is not None:
        assert low == dist.min()


def _explosions(roll):
    """The most explosions any one die of the roll went through."""
    most = 0
    per_die = Counter()
    for d in roll.dice:
        per_die[(d.term, d.die)] += 1
        most = max(most, len(d.rolls) - 1)
    return max([most] + [c - 1 for c in per_die.values()])


@SETTINGS
@given(expressions(), st.integers(0, 2 ** 32))
def test_rolls_are_outcomes_of_the_distribution(text, seed):
    expr = parse(text)
    dist = expr.distribution(explode_depth=DEPTH)
    r = expr.roll(seed=seed)
    assert type(r.total) is int
    exploding = any(t.explode for t in expr.dice_terms)
    if not exploding or _explosions(r) <= DEPTH:
        assert dist.p(r.total) > 0
    if expr.min_total() is not None:
        assert r.total >= dist.min()


@SETTINGS
@given(expressions(), st.integers(0, 2 ** 32))
def test_faces_typed_back_give_the_same_roll(text, seed):
    expr = parse(text)
    r = expr.roll(seed=seed)
    again = expr.roll(dice=list(r.faces()))
    assert again.total == r.total
    assert again.dice == r.dice
    assert again.term_values == r.term_values
    assert sum(again.term_values) == again.total


@SETTINGS
@given(expressions(), st.lists(st.integers(-2, 12), max_size=12))
def test_typed_dice_roll_or_raise_a_dice_error(text, values):
    expr = parse(text)
    try:
        r = expr.roll(dice=values)
    except DiceError as exc:
        assert str(exc)
        return
    # A typed 0 on a d10 or a d100 reads its top face, as players read those dice.
    faces = list(r.faces())
    assert len(faces) == len(values)
    assert all(f == v or (v == 0 and f in ZERO_READS_TOP) for f, v in zip(faces, values))
    for d in r.dice:
        term = expr.terms[d.term]
        assert isinstance(term, DiceTerm)
        assert all(1 <= v <= term.sides for v in d.rolls)
