"""How a probability reads: a percentage that never claims a certainty or an impossibility the
odds do not have."""

from fractions import Fraction

import pytest

from rulescore.text import odds, percent


@pytest.mark.parametrize(("p", "shown"), [
    (Fraction(1), "100.00%"),
    (Fraction(0), "0.00%"),
    (Fraction(1, 2), "50.00%"),
    (Fraction(2, 3), "66.67%"),
    (Fraction(1, 10**6), "0.0001%"),
    (Fraction(99999, 100000), "99.999%"),             # 99.999 would round to 100.00
    (Fraction(262137, 262144), "99.997%"),            # one miss in 37,449 (6d8, two highest)
    (Fraction(999999, 10**6), "99.9999%"),
    (Fraction(10**20 - 1, 10**20), "99.999999%"),     # cut at six places, never 100
])
def test_percent(p: Fraction, shown: str) -> None:
    assert percent(p) == shown


def test_only_a_certainty_reads_one_hundred() -> None:
    for denominator in (7, 6**6, 8**6, 10**9):
        assert not percent(Fraction(denominator - 1, denominator)).startswith("100")


def test_odds_puts_the_fraction_first() -> None:
    assert odds(Fraction(7, 12)) == "7/12 (58.33%)"
