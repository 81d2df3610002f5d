"""Where dice values come from: a seeded generator, or the values a reader rolled at the table.

Every system's resolving functions take one :class:`DiceSource` (keyword ``dice``), so a roll
can be replayed from its seed or read from the dice on the table alike (dice §Seeds and typed
dice). The source keeps its own count of what it has handed out; its description says how it
was made, so a tool shows "seed 7" or "your dice" without looking inside.

>>> DiceSource.seeded(7).dice(3, 6) == DiceSource.seeded(7).dice(3, 6)
True
>>> src = DiceSource.typed([6, 6, 2, 4])
>>> src.chain(6), src.d(6), src.describe()
((6, 6, 2), 4, 'your dice')
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from itertools import islice

from ..errors import DiceError, DiceLimitError, RulesError, require_int, require_seed, shown

MAX_CHAIN = 100      # rolls of one exploding die before we call it a runaway
MAX_TYPED = 10_000   # typed values read at most: the most any roll the notation allows can use
#: Dice whose face "0" (or "00") stands for their highest number, as players read them
#: (dice §Percentile dice): a d10 shows 0 for 10, a d100 thrown as one die shows 00 for 100.
ZERO_READS_TOP = (10, 100)


class DiceSource:
    """Dice values, handed out one at a time: seeded (:meth:`seeded`, replayable), typed
    (:meth:`typed`, the reader's own dice, checked against each die), or a generator a caller
    already holds (:meth:`from_rng`). How it was made is fixed; only the count of values used
    moves as it is drawn from."""

    __slots__ = ("_given", "_label", "_rng", "_seed", "_then", "_used", "_values")

    def __init__(self, *, seed: int | None = None, rng: random.Random | None = None,
                 values: tuple[object, ...] | None = None, given: str = "0",
                 then: DiceSource | None = None, label: str) -> None:
        self._seed, self._rng, self._values, self._given = seed, rng, values, given
        self._then, self._used, self._label = then, 0, label

    # -- making one --------------------------------------------------------------------------

    @classmethod
    def seeded(cls, seed: int) -> DiceSource:
        """Dice from a generator seeded with *seed*: the same seed gives the same dice."""
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise RulesError(f"seed must be a whole number, got {shown(seed)}")
        return cls(seed=seed, rng=random.Random(seed), label=f"seed {seed}")

    @classmethod
    def typed(cls, values: Iterable[int], *, then: DiceSource | None = None,
              limit: int = MAX_TYPED) -> DiceSource:
        """The dice a reader rolled, in the order the rules ask for them. Each value is checked
        against its die when it is drawn; when they run out the draw continues from *then*,
        or is refused naming the die. A typed 0 on a d10 reads 10 and on a d100 reads 100
        ("00"), as players read those dice (dice §Percentile dice). At most *limit* values are read (so an endless iterable
        is refused, not read to its end)."""
        if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
            raise DiceError(f"dice must be a list of numbers, got {shown(values)}")
        if then is not None and not isinstance(then, DiceSource):
            raise RulesError(f"then must be a DiceSource or None, got {shown(then)}")
        read = tuple(islice(iter(values), limit))
        given = str(len(read))
        if len(read) == limit:
            given = str(len(values)) if hasattr(values, "__len__") else f"more than {limit - 1}"
        label = "your dice" if then is None else f"your dice, then {then.describe()}"
        return cls(values=read, given=given, then=then, label=label)

    @classmethod
    def from_seed_or_source(cls, dice: DiceSource | int, name: str = "dice") -> DiceSource:
        """*dice* as it is when it is a DiceSource; a whole number is a seed (kept for callers
        that pass one)."""
        if isinstance(dice, DiceSource):
            return dice
        if isinstance(dice, bool) or not isinstance(dice, int):
            raise RulesError(f"{name} must be a DiceSource or a seed (a whole number), "
                             f"got {shown(dice)}")
        return cls.seeded(require_seed(name, dice))

    @classmethod
    def from_rng(cls, rng: random.Random) -> DiceSource:
        """Dice from a ``random.Random`` the caller holds (kept for existing callers)."""
        if not isinstance(rng, random.Random):
            raise RulesError(f"rng must be a random.Random, got {type(rng).__name__}")
        return cls(rng=rng, label="the given generator")

    @classmethod
    def of(cls, dice: DiceSource | Iterable[int] | None = None,
           rng: random.Random | None = None, seed: int | None = None) -> DiceSource | None:
        """The one source a resolving function reads, from its arguments: a DiceSource as it
        is, typed values (then *rng* when they run out), a *seed*, or *rng*; None if none."""
        if isinstance(dice, DiceSource):
            if rng is not None or seed is not None:
                raise RulesError("give the dice as one DiceSource, without rng or seed")
            return dice
        later = None if rng is None else cls.from_rng(rng)
        if seed is not None:
            if later is not None:
                raise RulesError("give rng or seed, not both")
            later = cls.seeded(seed)
        if dice is None or (isinstance(dice, (list, tuple)) and not dice and later):
            return later
        return cls.typed(dice, then=later)

    # -- what it is --------------------------------------------------------------------------

    @property
    def seed(self) -> int | None:
        """The seed that replays these dice (None for typed dice or a caller's generator)."""
        return self._seed

    @property
    def is_typed(self) -> bool:
        """True when the values come (at least first) from the reader's own dice."""
        return self._values is not None

    @property
    def used(self) -> int:
        """How many typed values have been drawn so far."""
        return self._used

    def describe(self) -> str:
        """How the dice were made, as a reader reads it: "seed 7" or "your dice"."""
        return self._label

    def __repr__(self) -> str:
        return f"DiceSource({self._label})"

    def replay(self) -> DiceSource:
        """A fresh source made the same way, nothing drawn: the same dice again."""
        if self._values is not None:
            then = None if self._then is None else self._then.replay()
            return DiceSource(values=self._values, given=self._given, then=then,
                              label=self._label)
        if self._seed is None:
            raise RulesError("dice from a caller's generator cannot be replayed: use a seed")
        return DiceSource.seeded(self._seed)

    def has_next(self) -> bool:
        """Whether another die can be drawn (always, for a generator)."""
        if self._values is not None and self._used < len(self._values):
            return True
        return self._rng is not None or (self._then is not None and self._then.has_next())

    def leftover(self) -> tuple[object, ...]:
        """The typed values not drawn yet."""
        return () if self._values is None else self._values[self._used:]

    # -- drawing -----------------------------------------------------------------------------

    def d(self, sides: int, name: str | None = None, *, shows: str | None = None,
          missing: str | None = None) -> int:
        """One die of *sides* faces. *name* names it in an error (default "die value N", its
        place among the typed values); *shows* replaces the default "must be from 1 to N" and
        *missing* the default message when typed dice run out."""
        require_int("sides", sides, minimum=1)
        if self._values is not None and self._used < len(self._values):
            self._used += 1
            value = self._values[self._used - 1]
            label = name or f"die value {self._used}"
            if isinstance(value, bool) or not isinstance(value, int):
                raise DiceError(f"{label} must be a whole number, got {shown(value)}")
            if value == 0 and sides in ZERO_READS_TOP:
                return sides
            if not 1 <= value <= sides:
                raise DiceError(f"{label} ({value}) is not on a d{sides}: {shows}" if shows
                                else f"{label} must be from 1 to {sides}, got {value}")
            return value
        if self._rng is not None:
            return self._rng.randint(1, sides)
        if self._then is not None and self._then.has_next():
            return self._then.d(sides, name, shows=shows, missing=missing)
        raise DiceError(missing or f"not enough dice: {name or f'a d{sides}'} needs a value "
                        f"(all {len(self._values or ())} typed are used)")

    def dice(self, count: int, sides: int, name: str = "") -> tuple[int, ...]:
        """*count* dice of *sides* faces, in order (named "<name> N" in an error)."""
        require_int("count", count, minimum=0)
        return tuple(self.d(sides, f"{name} {i}" if name else None)
                     for i in range(1, count + 1))

    def chain(self, sides: int, name: str | None = None, *, die: str | None = None,
              shortage: Callable[[list[int]], str] | None = None,
              shows: str | None = None) -> tuple[int, ...]:
        """One exploding die: rolls while it shows its top face (at most MAX_CHAIN rolls).
        *name* names each value in an error, *die* the whole die (default: *name*);
        *shortage* words the error when typed dice stop (given the chain so far)."""
        label = die or name or f"d{sides}"

        def missing(chain: list[int]) -> str:
            if shortage is not None:
                return shortage(chain)
            if chain:
                return (f"not enough dice: {label} showed {chain[-1]}, so it explodes — type "
                        "the next roll of its chain")
            return f"not enough dice: {label} needs a value"

        chain = [self.d(sides, name, shows=shows, missing=missing([]))]
        while chain[-1] == sides:
            if len(chain) >= MAX_CHAIN:
                raise DiceLimitError(f"{label} exploded {MAX_CHAIN} times; stopping a runaway "
                                     "chain")
            chain.append(self.d(sides, name, shows=shows, missing=missing(chain)))
        return tuple(chain)

    def finish(self, what: str = "roll") -> None:
        """Refuse typed values left over once the *what* is resolved."""
        extra = self.leftover()
        if extra:
            more = len(extra) > 10 or self._given != str(len(self._values or ()))
            listed = ", ".join(shown(v) for v in extra[:10]) + (", …" if more else "")
            raise DiceError(f"too many dice: this {what} used {self._used} values, got "
                            f"{self._given} (extra: {listed})")


# -- what a resolving function reads: the values, or dice to draw them from ---------------------

def dice_to_draw_from(dice: object) -> DiceSource | None:
    """*dice* as a resolving function's ``dice=`` argument: a DiceSource, or None for values
    given directly."""
    if dice is not None and not isinstance(dice, DiceSource):
        raise RulesError(f"dice must be a DiceSource (seeded or typed) or None, "
                         f"got {shown(dice)}")
    return dice


def count_to_draw(name: str, given: object, dice: DiceSource, *, maximum: int,
                  minimum: int = 0) -> int:
    """How many dice *name* draws from *dice*: with ``dice=`` the input *name* is a whole
    number, the count; faces given there as well are refused, naming both."""
    if isinstance(given, bool) or not isinstance(given, int):
        raise RulesError(f"{name} and dice are both given: with dice, {name} is how many dice "
                         f"to draw (a whole number), got {shown(given)}")
    return require_int(name, given, minimum=minimum, maximum=maximum)


def die_or_draw(name: str, value: object, dice: object, sides: int, what: str = "") -> object:
    """The one die a resolving function reads as *name*: *value* as the caller gives it, or,
    when *value* is None, the next d*sides* of *dice* (seeded or the reader's own), named
    *what* in a refusal. Giving both, or neither, is refused naming both. The value given is
    the caller's to check (its rule says what a die may show)."""
    dice = dice_to_draw_from(dice)
    if dice is not None and value is not None:
        raise RulesError(f"give {name} or dice, not both: got {name} {shown(value)} and dice "
                         f"({dice.describe()})")
    if dice is not None:
        return dice.d(sides, what or f"{name} (d{sides})")
    if value is None:
        raise RulesError(f"{name} is needed: give the d{sides} rolled, or dice to roll it")
    return value


def not_both(name: str, given: object, dice: DiceSource | None) -> None:
    """Refuse values typed in *name* when they are also to be drawn from *dice*."""
    if dice is not None and given is not None and not (isinstance(given, (list, tuple))
                                                       and not given):
        raise RulesError(f"{name} and dice are both given: give the values in {name} or draw "
                         "them from dice, not both")
