"""d100 tests: success levels, their exact odds, EML limits and the mishap a CF brings."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ...dice import DiceSource
from ...dice.source import die_or_draw
from ...errors import RulesError, require_int, shown
from ...trace import Resolution, step
from ._system import DATA
from .terms import LEVELS, MAX_TYPED_DICE

TESTS = "Tests and success levels"
MISHAPS = "Melee Test Results"


def _critical_multiple() -> int:
    return DATA.setting("tests", "test_rules", "critical_multiple")


def d100(tens: int, ones: int) -> int:
    """The d100 roll read from a tens die and a ones die (0-9 each); 0 and 0 read as 100."""
    require_int("tens", tens, minimum=0, maximum=9)
    require_int("ones", ones, minimum=0, maximum=9)
    return 10 * tens + ones or 100


def success_level(roll: int, eml: int) -> str:
    """CF, F, S or CS for a d100 *roll* (1-100, 00 typed as 100) against *eml*.

    A roll at or under the EML succeeds; a roll that is a multiple of 5 is critical. The EML
    is used as given: floors and caps are :func:`effective_eml`'s business.
    """
    require_int("roll", roll, minimum=1, maximum=100)
    require_int("eml", eml)
    critical = roll % _critical_multiple() == 0
    if roll <= eml:
        return "CS" if critical else "S"
    return "CF" if critical else "F"


def success_level_probabilities(eml: int) -> dict[str, Fraction]:
    """Exact chance of each success level when a d100 is rolled against *eml* (as given)."""
    require_int("eml", eml)
    counts = dict.fromkeys(LEVELS, 0)
    for roll in range(1, 101):
        counts[success_level(roll, eml)] += 1
    return {level: Fraction(n, 100) for level, n in counts.items()}


def level_rank(level: str) -> int:
    """0 for CF up to 3 for CS (the order of the success levels table)."""
    return DATA.table("tests", "success_levels").find("level", level)["rank"]


def shift_level(level: str, steps: int) -> str:
    """The success level *steps* better (negative: worse), held within CF..CS.

    Used where a rule moves a result by whole levels (a Stunned character's impaired tests are
    one level worse). Levels beyond CS are not modelled (assumption beyond_cs).
    """
    require_int("steps", steps)
    rank = level_rank(_level_arg("level", level)) + steps
    return LEVELS[max(0, min(len(LEVELS) - 1, rank))]


def _level_arg(name: str, level: object) -> str:
    if level not in LEVELS:
        raise RulesError(f"{name} must be one of {', '.join(LEVELS)}, got {shown(level)}")
    return level  # type: ignore[return-value]


def effective_eml(eml: int, *, eml_floor: int | None = 5, eml_cap: int | None = None) -> int:
    """The EML a test is rolled against: at least *eml_floor*, at most *eml_cap*.

    Assumption eml_limits: the seed names a minimum EML 05 test roll, and no maximum; pass
    ``eml_floor=None`` for none, ``eml_cap=95`` for a table that caps tests at 95.
    """
    require_int("eml", eml)
    if eml_floor is not None:
        require_int("eml_floor", eml_floor)
        eml = max(eml, eml_floor)
    if eml_cap is not None:
        require_int("eml_cap", eml_cap)
        eml = min(eml, eml_cap)
    return eml


def mishap_type(test: str, roll: int) -> str:
    """"Fumble" or "Stumble": the mishap roll a CF brings, chosen by the ones die of *roll*."""
    row = _mishap_row(test)
    require_int("roll", roll, minimum=1, maximum=100)
    ones = roll % 10
    if ones not in (0, 5):
        raise RulesError(f"roll must end in 0 or 5 to be a critical failure, got {roll}")
    return row["ones_0"] if ones == 0 else row["ones_5"]


def _mishap_row(test: str):
    tests = DATA.table("tests", "mishap_types")
    if not isinstance(test, str) or test.lower() not in [r["test"] for r in tests]:
        raise RulesError(f"test must be one of {', '.join(r['test'] for r in tests)}, "
                         f"got {shown(test)}")
    return tests.find("test", test.lower())


@dataclass(frozen=True, kw_only=True)
class TestResolution(Resolution):
    """A d100 test: value = the roll, outcome = the success level."""

    level: str
    eml: int
    mishap: str | None = None

    @property
    def succeeded(self) -> bool:
        return self.level in ("S", "CS")


def rolled(name: str, value: int | None, dice: DiceSource | None, sides: int = 100,
           what: str = "") -> int:
    """The die a resolving function uses: *value* as given, or (None) the next die of *dice*
    (seeded or the reader's own); see :func:`~rulescore.dice.source.die_or_draw`."""
    return die_or_draw(name, value, dice, sides, what)


def skill_test(roll: int | None, eml: int, *, test: str = "attack", eml_floor: int | None = 5,
               eml_cap: int | None = None, dice: DiceSource | None = None) -> TestResolution:
    """Roll a d100 test: the success level, and on a CF the mishap its ones die names.

    *test* is the kind of test (attack, block, counterstrike, dodge, ignore, missile): a Dodge
    CF is always a Stumble, the others Fumble on a 0 and Stumble on a 5. *roll* None draws the
    d100 from *dice*.
    """
    _mishap_row(test)
    require_int("eml", eml)
    roll = rolled("roll", roll, dice)
    used = effective_eml(eml, eml_floor=eml_floor, eml_cap=eml_cap)
    level = success_level(roll, used)
    trace = []
    if used != eml:
        trace.append(step(f"EML {eml} is tested as EML {used}", DATA.rule(TESTS), eml=eml, used=used))
    how = "at or under" if roll <= used else "over"
    crit = " and a multiple of 5 (critical)" if level in ("CF", "CS") else ""
    trace.append(step(f"Roll {roll} is {how} EML {used}{crit}: {level}", DATA.rule(TESTS),
                      roll=roll, eml=used, level=level))
    mishap = None
    if level == "CF":
        mishap = mishap_type(test, roll)
        trace.append(step(f"CF with ones die {roll % 10} on a {test} test: {mishap} roll",
                          DATA.rule(MISHAPS), mishap=mishap))
    return TestResolution(value=roll, outcome=level, trace=tuple(trace), level=level,
                          eml=used, mishap=mishap)


class DiceDraw:
    """Dice for a walker (any sequence): a keyword value, else the next die of its
    :class:`DiceSource` (typed values first, then a generator if one is given); ``rolled``
    lists every die used by name, ``finish`` refuses typed values left over. Typed values as a
    list and *rng* are kept for existing callers."""

    def __init__(self, dice: DiceSource | Sequence[int], rng: random.Random | None = None,
                 what: str = "shot") -> None:
        if not isinstance(dice, DiceSource):
            if not isinstance(dice, (list, tuple)):
                raise RulesError(f"dice must be a list of numbers, got {shown(dice)}")
            if len(dice) > MAX_TYPED_DICE:
                raise RulesError(f"dice may hold at most {MAX_TYPED_DICE} values, "
                                 f"got {len(dice)}")
            for value in dice:  # each is checked against its own die when it is drawn
                require_int("dice", value)
        if rng is not None and not isinstance(rng, random.Random):
            raise RulesError(f"rng must be a random.Random (seeded) or None, got {shown(rng)}")
        self.source, self.what = DiceSource.of(dice, rng), what
        self.rolled: list[tuple[str, int]] = []

    def __call__(self, name: str, sides: int, given: int | None = None) -> int | None:
        if given is None and self.source is not None and self.source.has_next():
            # a typed value is named as the caller typed it, in dice
            given = self.source.d(sides, f"dice: {name}")
        if given is not None:
            require_int(name, given, minimum=1, maximum=sides)
            self.rolled.append((name, given))
        return given

    def finish(self) -> None:
        extra = () if self.source is None else self.source.leftover()
        if extra:
            raise RulesError(f"dice: {len(extra)} more typed than this {self.what} uses "
                             f"({', '.join(n for n, _ in self.rolled) or 'none'} used)")
