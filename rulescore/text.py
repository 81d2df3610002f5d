"""Plain-text formatting shared by the CLI and the widgets (no markup)."""

from __future__ import annotations

import math
from fractions import Fraction


def percent(p: Fraction) -> str:
    """A probability as a percentage, with enough digits to tell small values apart: only a
    certainty reads 100.00% (262137/262144 reads 99.997%) and only an impossibility 0.00%."""
    value = float(p) * 100
    if 0 < value < 0.01:
        return f"{value:.2g}%"
    if p == 1 or round(value, 2) < 100:
        return f"{value:.2f}%"
    for digits in range(3, 7):      # the first length at which a near-certainty is not 100
        if round(value, digits) < 100:
            return f"{value:.{digits}f}%"
    cut = math.floor(Fraction(p) * 100 * 10**6)      # cut, not rounded, so never 100
    return f"{cut // 10**6}.{cut % 10**6:06d}%"


def odds(p: Fraction) -> str:
    """A probability as 'exact fraction (percent)', e.g. '7/12 (58.33%)'."""
    return f"{p} ({percent(p)})"


def yes_no(value: bool) -> str:
    """A yes-or-no value for a reader: ``"yes"`` or ``"no"``."""
    return "yes" if value else "no"
