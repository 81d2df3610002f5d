"""Bounded work: the budget that refuses expressions too large to work out exactly, the
memory-bounded cache of distributions, and rolling bounded for anything the parser accepts.

No timing is asserted here (timings are in benchmarks/fuzz_dice.py); these tests check what
is refused, what is said, that what is allowed is exact, and what the cache holds."""

import itertools
import json
import re
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulescore import RulesError
from rulescore.dice import (BUDGET, CACHE_MIB, DiceError, DiceLimitError, DiceTooLargeError,
                            Distribution, parse)
from rulescore.dice import distribution as D
from rulescore.dice.budget import estimate
from rulescore.dice.cache import MIB, SizedCache
from rulescore.dice.rolling import MAX_CHAIN, max_values

ROOT = Path(__file__).resolve().parents[2]


def cost(text: str, depth: int = 10) -> float:
    terms = D._merged(tuple(D._normalised(t) for t in parse(text).terms))
    return estimate(terms, depth)[0]


# --- refused, with a message naming the part to change -------------------------------------

@pytest.mark.parametrize("text, part, advice", [
    ("100d200kh50", "keeping the highest 50 of 100 dice of 200 faces", "Keep fewer dice"),
    ("20d1000kh10", "keeping the highest 10 of 20 dice of 1000 faces", "Keep fewer dice"),
    ("100d200dl1", "dropping the lowest 1 of 100 dice of 200 faces", "Drop more dice"),
    ("100d100kh99", "keeping the highest 99 of 100 dice of 100 faces", "Keep fewer dice"),
    ("40d100kh20", "keeping the highest 20 of 40 dice of 100 faces", "Keep fewer dice"),
    ("100d6!dh3", "dropping the highest 3 of 100 dice of 6 faces that explode",
     "Roll fewer dice (at most"),
])
def test_refused_at_once_naming_the_part(text, part, advice):
    with pytest.raises(DiceTooLargeError) as info:
        parse(text).distribution()
    message = str(info.value)
    assert message.startswith(f"{text} is too large to work out exactly: {part}")
    assert advice in message
    assert isinstance(info.value, DiceLimitError) and isinstance(info.value, RulesError)


@pytest.mark.parametrize("text", ["100d200kh50", "40d100kh20", "20d1000kh10"])
def test_the_advice_works(text):
    """Every alternative the message offers is within the budget and computes."""
    with pytest.raises(DiceTooLargeError) as info:
        parse(text).distribution()
    message = str(info.value)
    n, x = re.match(r"(\d+)d(\d+)", text).groups()
    k = re.search(rf"at most (\d+) of {n}d{x}\)", message).group(1)
    smaller = re.search(r"use a smaller die \(at most (\S+)\)", message).group(1)
    for alternative in (f"{n}d{x}kh{k}", smaller):
        assert isinstance(parse(alternative).distribution(), Distribution)


def test_the_advice_is_the_largest_that_works():
    message = str(pytest.raises(DiceTooLargeError, parse("40d100kh20").distribution).value)
    k = int(re.search(r"at most (\d+) of 40d100", message).group(1))
    assert cost(f"40d100kh{k}") <= BUDGET < cost(f"40d100kh{k + 2}")


def test_terms_too_large_together():
    with pytest.raises(DiceTooLargeError, match=r"^20d1000\+10d999 is too large to work out "
                                                r"exactly: its terms together"):
        parse("20d1000+10d999").distribution()


def test_deep_explosions_suggest_a_lower_depth():
    with pytest.raises(DiceTooLargeError, match=r"or explode fewer times \(an explosion depth of at most \d+\)\.$"):
        parse("30d10!").distribution(explode_depth=40)
    message = str(pytest.raises(DiceTooLargeError, parse("30d10!").distribution, 40).value)
    depth = int(re.search(r"explosion depth of at most (\d+)\)\.$", message).group(1))
    assert isinstance(parse("30d10!").distribution(explode_depth=depth), Distribution)
    assert isinstance(parse("30d10!").distribution(explode_depth=5), Distribution)


@pytest.mark.parametrize("text", ["7d200!!", "5d200!!", "1d90!!kh1", "2d90!!kh1", "3d1000!kh1", "80d200",
                                  "20d1000", "50d100+50d100", "50d6!kh3"])
def test_large_but_quick_expressions_are_counted(text):
    """Expressions that icepool's pools take up to minutes over (or recurse too deep on) are
    within the budget of our own counting."""
    assert cost(text) <= BUDGET
    dist = parse(text).distribution()
    assert sum(p for _, p in dist.items()) + dist.truncated == 1


def test_the_estimate_is_deterministic_and_grows_with_the_work():
    assert cost("40d100kh20") == cost("40d100kh20")
    assert cost("10d6kh3") < cost("20d6kh3") < cost("20d6kh10") < cost("20d60kh10")
    assert cost("3d6!!") < cost("3d6!!", depth=20)


# --- the book's own expressions are never refused -------------------------------------------

def _quoted_notation(source: str) -> set[str]:
    """Every quoted string in *source* that parses as dice notation with a die in it."""
    found = set()
    for text in re.findall(r"""["']([0-9dD%!khlsc>=+\- ]{2,60})["']""", source):
        try:
            parse(text)
        except RulesError:
            continue
        if "d" in text.lower():
            found.add(text)
    return found


def _book_sources() -> str:
    cells = []
    for notebook in sorted((ROOT / "book").rglob("*.ipynb")):
        cells += ["".join(c["source"]) for c in json.loads(notebook.read_text())["cells"]]
    return "\n".join(cells)


def test_the_book_the_tests_and_the_benchmarks_are_within_the_budget():
    sources = [_book_sources(), (ROOT / "benchmarks" / "cases.py").read_text()]
    refusing = {"test_dice_budget.py", "test_dice_widgets.py"}   # refuse examples on purpose
    sources += [p.read_text() for p in sorted((ROOT / "tests").rglob("test_*.py"))
                if p.name not in refusing]
    found = set().union(*map(_quoted_notation, sources))
    found |= {f"{n}d8kh2" for n in range(2, 16)} | {"100d6", "d%", "15d6!!cs>=5"}
    assert {"6d8kh2+5", "4d6kh3", "50d100+50d100", "100d100"} <= found
    too_large = {"100d1000", "20d100!"}          # refused on purpose by the tests above
    for text in sorted(found - too_large):
        assert cost(text) <= BUDGET, text


# --- every valid expression returns or is refused --------------------------------------------

@st.composite
def terms(draw):
    n = draw(st.integers(1, 40))
    x = draw(st.sampled_from([2, 3, 6, 10, 20, 90, 200, 1000]))
    mods = [draw(st.sampled_from(["", "!", "!!"]))]
    mode = draw(st.sampled_from(["", "kh", "kl", "dh", "dl"]))
    if mode:
        mods.append(f"{mode}{draw(st.integers(1, n) if mode[0] == 'k' else st.integers(0, n - 1))}")
    if draw(st.booleans()):
        mods.append(f"cs>={draw(st.integers(1, 2 * x))}")
    return f"{n}d{x}" + "".join(draw(st.permutations(mods)))


@settings(max_examples=40, deadline=None)
@given(st.lists(terms(), min_size=1, max_size=2), st.sampled_from(["+", "-"]))
def test_valid_expressions_return_or_are_refused(parts, sign):
    expr = parse(sign.join(parts))
    try:
        dist = expr.distribution()
    except DiceTooLargeError as exc:
        assert str(exc).startswith(f"{expr.text} is too large to work out exactly: ")
        return
    assert sum(p for _, p in dist.items()) + dist.truncated == 1


# --- the cache is bounded in memory ----------------------------------------------------------

def test_sized_cache_evicts_the_least_recently_used():
    cache = SizedCache(1)
    cache.put("a", 1, MIB // 2)
    cache.put("b", 2, MIB // 4)
    assert cache.get("a") == 1                 # a is now the most recent
    cache.put("c", 3, MIB // 2)                # over 1 MiB: b, the oldest, goes
    assert (cache.get("b"), cache.get("a"), cache.get("c")) == (None, 1, 3)
    assert cache.bytes == MIB
    cache.put("a", 4, 10)                      # replacing an entry counts its new size
    assert cache.bytes == MIB // 2 + 10 and cache.get("a") == 4
    cache.put("huge", 5, 2 * MIB)              # larger than the bound: not kept, nothing lost
    assert cache.get("huge") is None and len(cache) == 2


def test_the_distribution_cache_stays_within_its_bound(monkeypatch):
    """Fill a small cache with large-but-allowed distributions: the tracked size never passes
    the bound, the newest stays cached, and the oldest went."""
    monkeypatch.setattr(D, "_cache", SizedCache(4))
    texts = [f"{n}d200" for n in range(30, 42)]     # each about 0.7 to 1.1 MiB
    for text in texts:
        first = parse(text).distribution()
        assert D.cache_bytes() <= 4 * MIB
        assert parse(text).distribution() is first
    assert 2 <= len(D._cache) < len(texts)
    assert D._cache.get(D._cache_key(parse(texts[0]), 10)) is None
    assert D._cache.get(D._cache_key(parse(texts[-1]), 10)) is not None


def test_the_tracked_size_follows_the_memory_held():
    """The size counted for a distribution is within a quarter of what Python allocates."""
    terms = D._merged(tuple(D._normalised(t) for t in parse("60d150").terms))
    tracemalloc.start()
    dist = D._compute(terms, 10)
    held = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert 0.75 * held <= D._size(dist) <= 1.25 * held


def test_the_default_bound():
    assert D._cache.limit == CACHE_MIB * MIB


# --- rolling is bounded too -------------------------------------------------------------------

def test_rolling_the_largest_expressions():
    assert max_values(parse("100d1000!")) == 100 * MAX_CHAIN
    r = parse("100d1000kh50+0").roll(seed=3)
    assert len(r.dice) == 100 and sum(d.kept for d in r.dice) == 50
    chains = ([2] * (MAX_CHAIN - 1) + [1]) * 100       # every die exploding to the limit
    assert parse("100d2!!").roll(dice=chains).total == 100 * (2 * (MAX_CHAIN - 1) + 1)


@pytest.mark.parametrize("values", [itertools.count(1), itertools.repeat(1)])
def test_endless_typed_dice_are_refused(values):
    with pytest.raises(DiceError, match=r"too many dice: this roll used 3 values, got more "
                                        r"than 12 \(extra: 4?.*…\)"):
        parse("3d6").roll(dice=values)


def test_a_huge_list_of_typed_dice_is_refused_by_its_length():
    with pytest.raises(DiceError, match=r"got 1000000 \(extra: 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, "
                                        r"…\)"):
        parse("3d6").roll(dice=[1] * 1_000_000)
