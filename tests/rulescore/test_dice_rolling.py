"""Rolling: typed dice, seeded rolls, exploding chains, keep/drop, successes, errors, traces."""

import random
import re

import pytest

from rulescore import RulesError
from rulescore.dice import DiceError, DiceLimitError, DiceRoll, DieRoll, d100_from_digits, parse
from rulescore.dice.rolling import MAX_CHAIN
from rulescore.trace import Resolution, RuleRef, Step


def typed(text, values):
    return parse(text).roll(dice=values)


# --- worked examples -----------------------------------------------------------------------------

def test_keep_highest_two_plus_five():
    r = typed("6d8kh2+5", [2, 3, 5, 6, 7, 8])
    assert r.total == 20 == r.value
    assert isinstance(r.total, int)
    assert r.term_values == (15, 5)
    assert [d.kept for d in r.dice] == [False, False, False, False, True, True]
    assert r.typed is True and r.seed is None and r.outcome == "typed"
    assert isinstance(r, DiceRoll) and isinstance(r, Resolution)


def test_keep_highest_ignores_order_of_typing():
    r = typed("6d8kh2+5", [8, 2, 7, 3, 5, 6])
    assert r.total == 20
    assert [d.value for d in r.dice if d.kept] == [8, 7]


def test_plain_sum_and_subtraction():
    r = typed("2d6-1d4+3", [6, 5, 4])
    assert r.total == 10
    assert r.term_values == (11, -4, 3)
    assert [(d.term, d.die, d.value) for d in r.dice] == [(0, 1, 6), (0, 2, 5), (1, 1, 4)]


def test_leading_minus():
    assert typed("-2d6+10", [3, 4]).total == 3


def test_constant_only_needs_no_dice():
    r = typed("7", [])
    assert r.total == 7 and r.dice == ()


# --- exploding and compounding chains ------------------------------------------------------------

def test_exploding_chain_typed_as_6_6_3():
    r = typed("3d6!", [6, 6, 3, 2, 5])
    assert r.total == 22
    assert len(r.dice) == 5
    assert [d.exploded for d in r.dice] == [False, True, True, False, False]
    assert [(d.die, d.rolls, d.value) for d in r.dice] == [
        (1, (6,), 6), (1, (6,), 6), (1, (3,), 3), (2, (2,), 2), (3, (5,), 5)]
    assert r.faces() == (6, 6, 3, 2, 5)


def test_compounding_chain_typed_as_6_6_3():
    r = typed("3d6!!", [6, 6, 3, 2, 5])
    assert r.total == 22
    assert len(r.dice) == 3
    first = r.dice[0]
    assert first.rolls == (6, 6, 3) and first.value == 15 and not first.exploded
    assert [d.rolls for d in r.dice[1:]] == [(2,), (5,)]
    assert r.faces() == (6, 6, 3, 2, 5)


def test_explosion_of_a_later_die():
    r = typed("2d4!", [1, 4, 4, 2])
    assert r.total == 11
    assert [(d.die, d.value, d.exploded) for d in r.dice] == [
        (1, 1, False), (2, 4, False), (2, 4, True), (2, 2, True)]


def test_exploded_dice_join_the_pool_for_keep():
    # 3d6!kh2 with 6,6,3 | 2 | 5: the pool is 6, 6, 3, 2, 5; keep the two 6s.
    r = typed("3d6!kh2", [6, 6, 3, 2, 5])
    assert r.total == 12
    assert [d.kept for d in r.dice] == [True, True, False, False, False]


def test_compounded_die_is_one_die_for_keep():
    # 3d6!!kh2 with 6+6+3=15 | 2 | 5: keep 15 and 5.
    r = typed("3d6!!kh2", [6, 6, 3, 2, 5])
    assert r.total == 20
    assert [d.kept for d in r.dice] == [True, False, True]


def test_compound_success_counts_the_whole_chain():
    # 2d6!!cs>=7: 6+1 = 7 is a success, a plain 6 can't be (it would explode anyway)
    r = typed("2d6!!cs>=7", [6, 1, 5])
    assert r.total == 1
    assert [d.success for d in r.dice] == [True, False]


def test_explode_too_few_values_asks_for_the_chain():
    with pytest.raises(DiceError) as info:
        typed("2d6!", [3, 6])
    assert str(info.value) == ("not enough dice: die 2 of 2d6! showed 6, so it explodes — "
                               "type the next roll of its chain")


# --- keep / drop / successes ---------------------------------------------------------------------

@pytest.mark.parametrize("text, values, kept, total", [
    ("4d6kh3", [1, 5, 3, 6], [False, True, True, True], 14),
    ("4d6kl2", [1, 5, 3, 6], [True, False, True, False], 4),
    ("4d6dh1", [1, 5, 3, 6], [True, True, True, False], 9),
    ("4d6dl1", [1, 5, 3, 6], [False, True, True, True], 14),
    ("4d6dh0", [1, 5, 3, 6], [True, True, True, True], 15),
    ("3d6k", [2, 2, 1], [True, False, False], 2),          # ties: first rolled wins
    ("3d6kl1", [4, 2, 2], [False, True, False], 2),
    ("4d6dl1", [3, 3, 3, 3], [True, True, True, False], 9),  # ties: earlier dice are kept
])
def test_keep_and_drop_marks(text, values, kept, total):
    r = typed(text, values)
    assert [d.kept for d in r.dice] == kept
    assert r.total == total


def test_no_keep_marks_every_die_kept_and_no_success():
    r = typed("3d6", [1, 2, 3])
    assert all(d.kept for d in r.dice)
    assert all(d.success is None for d in r.dice)


def test_successes_marked_and_counted():
    r = typed("5d10cs>=8", [8, 3, 10, 7, 9])
    assert r.total == 3
    assert [d.success for d in r.dice] == [True, False, True, False, True]


def test_successes_count_only_kept_dice():
    # 4d6kl2cs>=4 with 6, 4, 5, 1: keep the lowest two (4 and 1), one success.
    r = typed("4d6kl2cs>=4", [6, 4, 5, 1])
    assert [d.kept for d in r.dice] == [False, True, False, True]
    assert [d.success for d in r.dice] == [False, True, False, False]
    assert r.total == 1


def test_successes_after_explosion():
    # 3d6!cs>=5 with 6,5 | 2 | 6,1: pool 6, 5, 2, 6, 1 → 3 successes
    r = typed("3d6!cs>=5", [6, 5, 2, 6, 1])
    assert r.total == 3
    assert [d.success for d in r.dice] == [True, True, False, True, False]


def test_subtracted_successes():
    assert typed("10-2d6cs>=5", [5, 6]).total == 8


# --- bad typed values ----------------------------------------------------------------------------

def test_too_few_values():
    with pytest.raises(DiceError) as info:
        typed("3d6", [1, 2])
    assert str(info.value) == "not enough dice: 3d6 needs a value for die 3 of 3"


def test_too_few_values_for_a_later_term():
    with pytest.raises(DiceError, match="not enough dice: 1d4 needs a value for die 1 of 1"):
        typed("2d6+1d4", [1, 2])


def test_too_many_values():
    with pytest.raises(DiceError) as info:
        typed("3d6", [1, 2, 3, 4, 5])
    assert str(info.value) == "too many dice: this roll used 3 values, got 5 (extra: 4, 5)"


@pytest.mark.parametrize("values, message", [
    ([0, 1, 2], "die value 1 (0) is not on a d6: 3d6 dice show 1 to 6"),
    ([1, 7, 2], "die value 2 (7) is not on a d6: 3d6 dice show 1 to 6"),
    ([1, 2, -3], "die value 3 (-3) is not on a d6: 3d6 dice show 1 to 6"),
    ([1.0, 2, 3], "die value 1 must be a whole number, got 1.0"),
    (["1", 2, 3], "die value 1 must be a whole number, got '1'"),
    ([1, True, 3], "die value 2 must be a whole number, got True"),
    ([1, 2, None], "die value 3 must be a whole number, got None"),
])
def test_values_off_the_die_or_not_whole(values, message):
    with pytest.raises(DiceError) as info:
        typed("3d6", values)
    assert str(info.value) == message


def test_value_checked_against_its_own_term():
    with pytest.raises(DiceError, match=r"die value 3 \(5\) is not on a d4: 1d4 dice show 1 to 4"):
        typed("2d6+1d4", [6, 6, 5])
    assert typed("2d6+1d4", [6, 6, 4]).total == 16


@pytest.mark.parametrize("values", ["6,6,3", 5, b"\x01\x02\x03"])
def test_dice_not_a_list(values):
    with pytest.raises(DiceError, match="dice must be a list of numbers"):
        typed("3d6", values)


def test_dice_may_be_any_iterable():
    assert typed("3d6", (1, 2, 3)).total == 6
    assert typed("3d6", iter([1, 2, 3])).total == 6


# --- sources -------------------------------------------------------------------------------------

def test_same_seed_same_roll():
    e = parse("4d6!kh3+2d8-1")
    a, b = e.roll(seed=123), e.roll(seed=123)
    assert a == b
    assert a.seed == 123 and a.typed is False and a.outcome == "rolled"


def test_seed_equals_random_with_that_seed():
    e = parse("10d6!!+3d8kl2")
    a, b = e.roll(seed=7), e.roll(random.Random(7))
    assert a.faces() == b.faces()
    assert a.total == b.total
    assert a.dice == b.dice
    assert b.seed is None


def test_different_seeds_differ_somewhere():
    e = parse("10d20")
    assert len({e.roll(seed=s).faces() for s in range(20)}) == 20


@pytest.mark.parametrize("text", ["6d8kh2+5", "3d6!", "3d6!!", "4d6!kl2cs>=3", "2d6-1d4+3",
                                  "5d10cs>=8", "d%", "4d6dl1", "-3d4!!+2", "2d2!kh1+2d2!!dl1"])
def test_faces_typed_back_reproduce_the_roll(text):
    e = parse(text)
    for seed in range(60):
        r = e.roll(seed=seed)
        again = e.roll(dice=r.faces())
        assert again.total == r.total
        assert again.dice == r.dice
        assert again.term_values == r.term_values


def test_no_source_or_two_sources():
    e = parse("2d6")
    message = re.escape("roll needs exactly one of: dice (a DiceSource, or the values you "
                        "rolled), seed, or rng (a random.Random)")
    with pytest.raises(RulesError, match=message):
        e.roll()
    with pytest.raises(RulesError, match=message):
        e.roll(random.Random(1), seed=1)
    with pytest.raises(RulesError, match=message):
        e.roll(seed=1, dice=[1, 2])
    with pytest.raises(RulesError, match=message):
        e.roll(random.Random(1), dice=[1, 2])


@pytest.mark.parametrize("seed", [1.5, "7", True])
def test_bad_seed(seed):
    with pytest.raises(RulesError, match="seed must be a whole number"):
        parse("2d6").roll(seed=seed)


def test_bad_rng():
    with pytest.raises(RulesError, match="rng must be a random.Random, got int"):
        parse("2d6").roll(42)


class AlwaysMax(random.Random):
    """A generator whose every die shows its top face."""

    def randint(self, a, b):
        return b


@pytest.mark.parametrize("text", ["d6!", "2d6!!", "3d4!kh1"])
def test_runaway_chain_stops(text):
    with pytest.raises(DiceLimitError) as info:
        parse(text).roll(AlwaysMax())
    assert f"exploded {MAX_CHAIN} times; stopping a runaway chain" in str(info.value)


def test_long_typed_chain_below_the_guard():
    values = [6] * (MAX_CHAIN - 1) + [1]
    r = typed("d6!!", values)
    assert r.total == 6 * (MAX_CHAIN - 1) + 1
    with pytest.raises(DiceLimitError):
        typed("d6!!", [6] * MAX_CHAIN + [1])


def test_all_max_without_explosion_is_fine():
    r = parse("3d6").roll(AlwaysMax())
    assert r.total == 18


# --- d100 from two dice --------------------------------------------------------------------------

@pytest.mark.parametrize("tens, ones, value", [
    (0, 0, 100), (0, 7, 7), (90, 9, 99), (9, 9, 99), (10, 0, 10), (1, 0, 10), (50, 5, 55),
    (5, 5, 55), (0, 1, 1), (90, 0, 90), (9, 0, 90),
])
def test_d100_from_digits(tens, ones, value):
    assert d100_from_digits(tens, ones) == value


def test_d100_from_digits_covers_1_to_100_once():
    values = sorted(d100_from_digits(t, o) for t in range(0, 100, 10) for o in range(10))
    assert values == list(range(1, 101))


@pytest.mark.parametrize("tens, ones, message", [
    (15, 3, "tens die must show 00, 10, … 90 (or its digit 0–9), got 15"),
    (100, 0, "tens die must show 00, 10, … 90 (or its digit 0–9), got 100"),
    (-10, 0, "tens die must show 00, 10, … 90 (or its digit 0–9), got -10"),
    (-1, 0, "tens die must show 00, 10, … 90 (or its digit 0–9), got -1"),
    (10, 10, "ones die must show 0 to 9, got 10"),
    (10, -1, "ones die must show 0 to 9, got -1"),
    (1.0, 1, "tens die must be a whole number, got 1.0"),
    (1, "3", "ones die must be a whole number, got '3'"),
    (True, 3, "tens die must be a whole number, got True"),
])
def test_d100_from_digits_errors(tens, ones, message):
    with pytest.raises(DiceError) as info:
        d100_from_digits(tens, ones)
    assert str(info.value) == message


# --- the trace -----------------------------------------------------------------------------------

def test_trace_steps_cite_the_dice_chapter():
    r = typed("3d6!kh2cs>=4+2d6!!-1d4-2", [6, 6, 3, 2, 5, 6, 1, 4, 3])
    assert r.trace
    assert all(isinstance(s, Step) for s in r.trace)
    assert all(isinstance(s.rule, RuleRef) and s.rule.system == "dice" for s in r.trace)
    sections = {s.rule.section for s in r.trace}
    assert sections == {"Seeds and typed dice", "Rolling", "Exploding dice", "Keep and drop",
                        "Counting successes", "Notation"}


def test_trace_of_a_typed_keep_roll():
    r = typed("6d8kh2+5", [2, 3, 5, 6, 7, 8])
    assert r.explain() == "\n".join([
        "1. Read the dice you typed: 6d8kh2+5  [dice §Seeds and typed dice]",
        "2. 6d8kh2: rolled 2, 3, 5, 6, 7, 8  [dice §Rolling]",
        "3. kh2: kept 7, 8; dropped 2, 3, 5, 6  [dice §Keep and drop]",
        "4. 6d8kh2 adds up to 15  [dice §Rolling]",
        "5. Added 5  [dice §Notation]",
        "6. Total: 20  [dice §Notation]",
    ])
    assert r.trace[-1].value("total") == 20
    assert r.trace[3].value("value") == 15
    assert r.trace[2].value("kept") == 2


def test_trace_of_chains():
    ex = typed("3d6!", [6, 6, 3, 2, 5])
    assert "Exploded: each 6 added a die (2 in all), pool of 5" in ex.explain()
    assert [s.value("added") for s in ex.trace if s.text.startswith("Exploded")] == [2]
    co = typed("3d6!!", [6, 6, 3, 2, 5])
    assert "3d6!!: rolled 6+6+3, 2, 5" in co.explain()
    assert "Compounded: die 1 rolled 6 → 6 → 3 = 15" in co.explain()


def test_trace_of_successes_and_seed():
    r = parse("5d10cs>=8").roll(seed=3)
    assert r.trace[0].text == "Rolled with seed 3: 5d10cs>=8"
    counted = [s for s in r.trace if s.rule.section == "Counting successes"]
    assert len(counted) == 1
    assert counted[0].value("successes") == r.total
    one = typed("2d10cs>=8", [8, 1])
    assert "1 success" in one.explain() and "1 successes" not in one.explain()


def test_trace_of_subtraction():
    r = typed("2d6-1d4", [3, 4, 2])
    texts = [s.text for s in r.trace]
    assert "Subtracted 1d4: −2" in texts
    assert texts[-1] == "Total: 5"


def test_trace_with_a_generator():
    r = parse("2d6").roll(random.Random(1))
    assert r.trace[0].text == "Rolled with the given generator: 2d6"


def test_die_roll_is_frozen():
    import dataclasses
    d = DieRoll(0, 1, (3,), 3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.value = 4
