"""Dice notation: the parse tree and the parser.

Grammar (spaces are ignored, letters are case-insensitive)::

    expression := ["+"|"-"] term (("+"|"-") term)*
    term       := number | dice
    dice       := [count] "d" (sides | "%") modifier*
    modifier   := "!" | "!!"                  explode / compound on the highest face
                | ("kh"|"kl"|"dh"|"dl"|"k") [n]   keep or drop the highest/lowest n (n = 1)
                | "cs>=" n                        count dice showing n or more

Each modifier may appear once a term; they act in the order explode, keep/drop, count,
whatever order they are written in. Limits guard against runaway input (see ``MAX_*``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Sequence

from ..errors import DiceSyntaxError, NotationLimitError
from ..trace import RuleRef

if TYPE_CHECKING:  # pragma: no cover
    from .distribution import Distribution
    from .rolling import DiceRoll
    from .source import DiceSource

MAX_DICE = 100          # dice in one expression (before explosions)
MAX_SIDES = 1000        # faces of one die
MAX_CONSTANT = 1_000_000
MAX_TERMS = 20

ExplodeMode = Literal["explode", "compound"]
KeepMode = Literal["kh", "kl", "dh", "dl"]

_KEEP_WORDS = {"kh": "keep the highest", "kl": "keep the lowest",
               "dh": "drop the highest", "dl": "drop the lowest"}


def rule(section: str) -> RuleRef:
    """A reference to a section of the book's dice chapter."""
    return RuleRef("dice", section)


@dataclass(frozen=True)
class Keep:
    """Keep or drop the highest or lowest ``count`` dice of a term."""

    mode: KeepMode
    count: int

    def __str__(self) -> str:
        return f"{self.mode}{self.count}"


@dataclass(frozen=True)
class DiceTerm:
    """``count`` dice of ``sides`` faces with their modifiers, added (sign +1) or subtracted."""

    sign: int
    count: int
    sides: int
    explode: ExplodeMode | None = None
    keep: Keep | None = None
    count_at_least: int | None = None
    percentile: bool = False
    column: int = 1

    def notation(self) -> str:
        """The term in canonical notation, without its sign."""
        die = "d%" if self.percentile else f"d{self.sides}"
        text = f"{self.count}{die}"
        text += {"explode": "!", "compound": "!!", None: ""}[self.explode]
        text += str(self.keep) if self.keep else ""
        text += f"cs>={self.count_at_least}" if self.count_at_least is not None else ""
        return text

    def describe(self) -> str:
        """What this term does, in words."""
        dice = "die" if self.count == 1 else "dice"
        parts = [f"roll {self.count} {dice} of {self.sides} faces"]
        if self.explode == "explode":
            parts.append(f"each {self.sides} rolls one more die, which joins the pool "
                         "(and can explode again)")
        elif self.explode == "compound":
            parts.append(f"each {self.sides} rolls again and adds to the same die "
                         "(and can go on)")
        if self.keep:
            parts.append(f"{_KEEP_WORDS[self.keep.mode]} {self.keep.count}")
        if self.count_at_least is not None:
            parts.append(f"count the dice showing {self.count_at_least} or more "
                         "(one success each) instead of adding them")
        elif self.count > 1 or self.explode:
            parts.append("add them up")
        verb = "subtract" if self.sign < 0 else "add"
        return f"{self.notation()}: " + "; ".join(parts) + ("" if self.sign > 0 else
                                                           f" — and {verb} the result")


@dataclass(frozen=True)
class Constant:
    """A fixed number added (sign +1) or subtracted."""

    sign: int
    value: int
    column: int = 1

    def notation(self) -> str:
        return str(self.value)

    def describe(self) -> str:
        return f"{'+' if self.sign > 0 else '−'}{self.value}: " \
               f"{'add' if self.sign > 0 else 'subtract'} {self.value}"


Term = DiceTerm | Constant


@dataclass(frozen=True)
class DiceExpr:
    """A parsed dice expression: its text, its terms, and ways to roll it or get its odds."""

    text: str
    terms: tuple[Term, ...]

    def __str__(self) -> str:
        out = ""
        for i, term in enumerate(self.terms):
            sign = "-" if term.sign < 0 else ("+" if i else "")
            out += sign + term.notation()
        return out

    @property
    def dice_terms(self) -> tuple[DiceTerm, ...]:
        return tuple(t for t in self.terms if isinstance(t, DiceTerm))

    @property
    def dice_count(self) -> int:
        """The number of dice rolled before any explosion."""
        return sum(t.count for t in self.dice_terms)

    def explain(self) -> tuple[str, ...]:
        """The parse tree in words, one line a term."""
        return tuple(t.describe() for t in self.terms)

    def min_total(self) -> int | None:
        """The smallest total the expression can produce (None: no lowest total, because an
        exploding term is subtracted)."""
        from .rolling import term_bounds
        bounds = [term_bounds(t)[0 if t.sign > 0 else 1] for t in self.terms]
        if None in bounds:
            return None
        return sum(b * t.sign for b, t in zip(bounds, self.terms))

    def roll(self, rng: random.Random | None = None, *,
             dice: "DiceSource | Sequence[int] | None" = None,
             seed: int | None = None) -> "DiceRoll":
        """Roll from ``dice``: a DiceSource (seeded or typed) or the values a player rolled;
        ``rng`` and ``seed`` are kept for existing callers."""
        from .rolling import roll
        return roll(self, rng, dice=dice, seed=seed)

    def distribution(self, explode_depth: int | None = None) -> "Distribution":
        """The exact distribution of the total (see :mod:`rulescore.dice.distribution`)."""
        from .distribution import distribution
        return distribution(self, explode_depth)


class _Scanner:
    """A cursor over the text that skips spaces and reports 1-based columns."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.skip()

    def skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    @property
    def column(self) -> int:
        return self.pos + 1

    def peek(self, n: int = 1) -> str:
        return self.text[self.pos:self.pos + n].lower()

    def take(self, token: str) -> bool:
        if self.peek(len(token)) == token:
            self.pos += len(token)
            self.skip()
            return True
        return False

    def number(self) -> int | None:
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in "0123456789":
            self.pos += 1
        if start == self.pos:
            return None
        digits = self.text[start:self.pos]
        self.skip()
        if len(digits) > 9:
            raise NotationLimitError(f"the number {digits[:12]}… is too large", self.text,
                                 start + 1)
        return int(digits)

    def fail(self, message: str, column: int | None = None) -> DiceSyntaxError:
        return DiceSyntaxError(message, self.text, column or self.column)

    def unexpected(self, expected: str) -> DiceSyntaxError:
        if self.pos >= len(self.text):
            return self.fail(f"the expression ends too early (expected {expected})")
        return self.fail(f"unexpected '{self.text[self.pos]}' (expected {expected})")


def _modifiers(sc: _Scanner, count: int, sides: int, column: int) -> dict:
    """Read the modifiers after ``NdX``; each at most once."""
    mods: dict = {}
    while True:
        col = sc.column
        if sc.peek() == "!":
            mode = "compound" if sc.take("!!") else ("explode" if sc.take("!") else None)
            if "explode" in mods:
                raise sc.fail("a die can only explode once ('!' or '!!')", col)
            if sides < 2:
                raise sc.fail("a one-sided die cannot explode (it would never stop)", col)
            mods["explode"] = mode
        elif sc.peek(2) in _KEEP_WORDS or sc.peek() == "k":
            mode = sc.peek(2) if sc.peek(2) in _KEEP_WORDS else "kh"
            sc.take(mode if sc.peek(2) == mode else "k")
            n = sc.number()
            n = 1 if n is None else n
            if "keep" in mods:
                raise sc.fail("keep or drop may be given only once a term", col)
            _check_keep(sc, mode, n, count, col)
            mods["keep"] = Keep(mode, n)
        elif sc.peek(2) == "cs":
            sc.take("cs")
            if not sc.take(">="):
                raise sc.unexpected("'>=' after 'cs', as in cs>=5")
            n = sc.number()
            if n is None:
                raise sc.unexpected("a number after 'cs>=', as in cs>=5")
            if n < 1:
                raise sc.fail("the success threshold after cs>= must be 1 or more", col)
            if "count_at_least" in mods:
                raise sc.fail("cs>= may be given only once a term", col)
            mods["count_at_least"] = n
        else:
            return mods


def _check_keep(sc: _Scanner, mode: str, n: int, count: int, column: int) -> None:
    """Keep 1..count dice; drop 0..count-1 (so at least one die is left)."""
    if mode in ("kh", "kl") and not 1 <= n <= count:
        raise sc.fail(f"{mode}{n} keeps {n} of {count} dice: keep from 1 to {count}", column)
    if mode in ("dh", "dl") and not 0 <= n < count:
        raise sc.fail(f"{mode}{n} drops {n} of {count} dice: drop from 0 to {count - 1}",
                      column)


def _term(sc: _Scanner, sign: int) -> Term:
    column = sc.column
    count = sc.number()
    if sc.peek() != "d":
        if count is None:
            raise sc.unexpected("a number or dice such as 2d6")
        if count > MAX_CONSTANT:
            raise NotationLimitError(f"the number {count} is too large (at most {MAX_CONSTANT})",
                                 sc.text, column)
        return Constant(sign, count, column)
    sc.take("d")
    if count is None:
        count = 1
    if count < 1:
        raise sc.fail("the number of dice must be at least 1", column)
    sides_column = sc.column
    percentile = sc.take("%")
    sides = 100 if percentile else sc.number()
    if sides is None:
        raise sc.unexpected("the number of faces after 'd', as in d6 or d%")
    if sides < 1:
        raise sc.fail("a die needs at least 1 face", sides_column)
    if sides > MAX_SIDES:
        raise NotationLimitError(f"d{sides} has too many faces (at most {MAX_SIDES})",
                             sc.text, sides_column)
    if count > MAX_DICE:
        raise NotationLimitError(f"{count}d{sides} rolls too many dice (at most {MAX_DICE} "
                             "in one expression)", sc.text, column)
    mods = _modifiers(sc, count, sides, column)
    return DiceTerm(sign, count, sides, percentile=percentile, column=column, **mods)


def parse(text: str) -> DiceExpr:
    """Parse dice notation such as ``"6d8kh2+5"``; a DiceSyntaxError says where it went wrong."""
    if not isinstance(text, str):
        raise DiceSyntaxError(f"dice notation must be text, got {text!r}")
    if len(text) > 200:
        raise NotationLimitError("dice notation is too long (at most 200 characters)")
    sc = _Scanner(text)
    if sc.pos >= len(text):
        raise DiceSyntaxError("the dice expression is empty: type something like 2d6+1")
    terms: list[Term] = []
    sign = -1 if sc.take("-") else (sc.take("+") and 1) or 1
    while True:
        terms.append(_term(sc, sign))
        if sc.pos >= len(text):
            break
        if sc.take("+"):
            sign = 1
        elif sc.take("-"):
            sign = -1
        else:
            raise sc.unexpected("'+', '-' or the end of the expression")
    if len(terms) > MAX_TERMS:
        raise NotationLimitError(f"too many terms ({len(terms)}; at most {MAX_TERMS})")
    total = sum(t.count for t in terms if isinstance(t, DiceTerm))
    if total > MAX_DICE:
        raise NotationLimitError(f"the expression rolls {total} dice (at most {MAX_DICE})")
    return DiceExpr(text, tuple(terms))
