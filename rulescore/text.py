"""Plain-text formatting shared by the CLI and the widgets (no markup)."""

from __future__ import annotations

from fractions import Fraction


def percent(p: Fraction) -> str:
    """A probability as a percentage, with enough digits to tell small values apart."""
    value = float(p) * 100
    if value == 0 or value >= 0.01:
        return f"{value:.2f}%"
    return f"{value:.2g}%"


def odds(p: Fraction) -> str:
    """A probability as 'exact fraction (percent)', e.g. '7/12 (58.33%)'."""
    return f"{p} ({percent(p)})"


def yes_no(value: bool) -> str:
    """A yes-or-no value for a reader: ``"yes"`` or ``"no"``."""
    return "yes" if value else "no"
