"""Dice: notation, one dice source (seeded or typed), rolling and exact distributions.

>>> e = parse("6d8kh2+5")
>>> e.roll(dice=[2, 3, 5, 6, 7, 8]).total
20
"""

from ..errors import DiceError, DiceLimitError, DiceSyntaxError
from .budget import BUDGET, DiceTooLargeError
from .distribution import CACHE_MIB, DEFAULT_EXPLODE_DEPTH, Distribution
from .notation import MAX_DICE, MAX_SIDES, Constant, DiceExpr, DiceTerm, Keep, parse
from .rolling import DiceRoll, DieRoll, d100_from_digits
from .source import DiceSource

__all__ = [
    "parse", "DiceExpr", "DiceTerm", "Constant", "Keep", "Distribution", "DiceRoll",
    "DieRoll", "DiceSource", "DiceSyntaxError", "DiceError", "DiceLimitError", "d100_from_digits",
    "DEFAULT_EXPLODE_DEPTH", "MAX_DICE", "MAX_SIDES", "DiceTooLargeError", "BUDGET", "CACHE_MIB",
]
