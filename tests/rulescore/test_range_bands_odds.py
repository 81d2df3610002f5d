"""Exact odds of the range-band checks, against brute-force enumeration written here."""

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from rulescore.systems import range_bands as rb

FACES = range(1, 7)


def enumerate_margins(pool, difficulty_dice, shift=0):
    """Every combination of faces, counted by margin (pool total − difficulty total + shift)."""
    counts = Counter()
    for skill in itertools.product(FACES, repeat=pool):
        for diff in itertools.product(FACES, repeat=difficulty_dice):
            counts[sum(skill) - sum(diff) + shift] += 1
    total = 6 ** (pool + difficulty_dice)
    return {m: Fraction(c, total) for m, c in counts.items()}


def outcome_of(margin, critical=6):
    if margin >= critical:
        return "critical success"
    if margin >= 0:
        return "success"
    if margin <= -critical:
        return "critical failure"
    return "failure"


def enumerate_outcomes(margins, critical=6):
    out = Counter()
    for m, p in margins.items():
        out[outcome_of(m, critical)] += p
    return {k: out.get(k, Fraction(0)) for k in rb.OUTCOMES}


@pytest.mark.parametrize("pool, difficulty, bonus", [
    (1, 1, 0), (2, 3, 0), (3, 3, 2), (3, 4, 0), (2, 4, -1), (4, 2, 0), (1, 5, 3),
])
def test_check_odds_match_enumeration(pool, difficulty, bonus):
    odds = rb.check_odds(pool, difficulty, bonus)
    margins = enumerate_margins(pool, difficulty, bonus)
    assert dict(odds.margins.items()) == margins
    assert odds.outcomes == enumerate_outcomes(margins)
    assert sum(odds.outcomes.values()) == 1
    assert odds.success == sum(p for m, p in margins.items() if m >= 0)
    assert odds.dice == {"skill_dice": pool, "difficulty_dice": difficulty}


@pytest.mark.parametrize("pool, difficulty, bonus", [(1, 1, 0), (3, 4, 0), (4, 3, -2), (2, 6, 5)])
def test_average_rule_odds_match_enumeration(pool, difficulty, bonus):
    target = -(-7 * difficulty // 2)
    margins = enumerate_margins(pool, 0, bonus - target)
    odds = rb.check_odds(pool, difficulty, bonus, nd_rule="average")
    assert dict(odds.margins.items()) == margins
    assert odds.outcomes == enumerate_outcomes(margins)
    assert odds.dice["difficulty_dice"] == 0


def test_critical_margin_option_changes_the_odds():
    margins = enumerate_margins(3, 3)
    assert rb.check_odds(3, 3, critical_margin=4).outcomes == enumerate_outcomes(margins, 4)


def test_known_values():
    # 1d6 against 1D: a tie (6 of 36) goes to the character, so 21/36
    assert rb.check_odds(1, 1).success == Fraction(7, 12)
    # 4 dice against 4D are level: success is exactly the chance of a tie or better
    assert rb.check_odds(4, 4).success == Fraction(1, 2) + enumerate_margins(4, 4)[0] / 2


def test_odds_agree_with_resolving_every_roll():
    """Resolving every combination with check() gives the odds check_odds() reports."""
    counts = Counter()
    for skill in itertools.product(FACES, repeat=2):
        for diff in itertools.product(FACES, repeat=3):
            counts[rb.check(skill, 3, diff, 1).outcome] += 1
    expected = {k: Fraction(counts[k], 6 ** 5) for k in rb.OUTCOMES}
    assert rb.check_odds(2, 3, 1).outcomes == expected


def test_terrain_odds_match_enumeration():
    margins = enumerate_margins(3, 4)
    o = enumerate_outcomes(margins)
    dash = rb.terrain_odds("dash", "hard", 3)
    assert dash.outcomes == {"full move": o["critical success"] + o["success"],
                             "one band": o["failure"], "prone": o["critical failure"]}
    cross = rb.terrain_odds("impassable", "hard", 3)
    assert cross.outcomes["no progress"] == o["failure"]
    easy = rb.terrain_odds("dash", "easy", 3)
    assert easy.outcomes == {"full move": 1} and easy.dice["skill_dice"] == 0


def test_stealth_odds_match_enumeration():
    # Stealth 2 + light cover 1 against Perception 2, with +1 to Perception
    margins = enumerate_margins(3, 2, -1)
    hidden = sum(p for m, p in margins.items() if m >= 0)
    odds = rb.stealth_odds(2, 2, "light", perception_bonus=1)
    assert odds.outcomes == {"hidden": hidden, "seen": 1 - hidden}
    assert odds.dice == {"stealth_dice": 2, "cover_dice": 1, "perception_dice": 2}


def test_opposed_odds_match_enumeration():
    margins = enumerate_margins(2, 3, 2)
    win = sum(p for m, p in margins.items() if m >= 0)
    assert rb.opposed_odds(2, 3, 3, 1).outcomes == {"wins": win, "loses": 1 - win}


def test_shot_odds_with_miss_effects_match_enumeration():
    margins = enumerate_margins(3, 4, 2)
    hit = sum(p for m, p in margins.items() if m >= 0)
    crowd = sum(p for m, p in margins.items() if -6 <= m < 0)
    mount = margins.get(-3, Fraction(0))
    odds = rb.shot_odds(4, 3, 2, situation="crowd")
    assert odds.outcomes == {"hit": hit, "miss: the shot hits a random target": crowd,
                             "miss": 1 - hit - crowd}
    exact = rb.shot_odds(4, 3, 2, situation="horseman", miss_reading="exactly")
    assert exact.outcomes["miss: the shot hits the mount"] == mount
    assert set(rb.shot_odds(4, 3).outcomes) == {"hit", "miss"}


def test_quick_load_odds_match_enumeration():
    margins = enumerate_margins(2, 4)
    assert rb.quick_load_odds("crossbow", 2).outcomes == enumerate_outcomes(margins)


def test_margin_counts_checks_its_inputs():
    from rulescore import RulesError
    assert rb.margin_counts(1, 0, 0) == {m: Fraction(1, 6) for m in range(1, 7)}
    with pytest.raises(RulesError, match="pool_size must be from 0 to 36, got -1"):
        rb.margin_counts(-1, 1, 0)
