"""Checks written in dice ("a 4D check") and their exact odds.

The seed gives every difficulty as a number of dice but never says how such a check is rolled.
We state our reading once, as the assumption ``nd_check`` (switch: ``nd_rule``):

* ``"opposed"`` (default): the character rolls their skill pool of d6 and adds any bonus; the
  difficulty ``nD`` is rolled as n d6 (by the GM) and added up. The check succeeds when the
  character's total meets or beats the difficulty's total (a tie goes to the character).
* ``"average"``: the difficulty is a fixed number, the average of nD rounded up
  (3.5 × n, so 4D is 14); the character's total must meet or beat it.

The margin is the character's total minus the difficulty's. Criticals (assumption
``criticals``, switch: ``critical_margin``): a margin of +6 or more is a critical success and
−6 or less a critical failure (a fumble).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable, Mapping, Sequence

from rulescore.dice import DiceSource, Distribution
from rulescore.dice.source import count_to_draw, dice_to_draw_from, not_both
from rulescore.errors import RulesError, require_int, require_seed, shown
from rulescore.trace import Resolution, Step, step
from rulescore.errors import require_choice as one_of, require_text as text

from ._system import DATA
from .inputs import MAX_DIFFICULTY, MAX_POOL, bonus, d6_faces, pool

ND_RULES = ("opposed", "average")
OUTCOMES = ("critical success", "success", "failure", "critical failure")
CHECK_SECTION = "Checks in dice"
#: A critical margin past any margin two pools of dice can reach.
MAX_CRITICAL_MARGIN = 60
#: The most d6 one roll of several groups takes (a shot: skill, cover and difficulty). The
#: largest legal check is a pool of MAX_POOL against MAX_DIFFICULTY dice, and a Stealth roll
#: is at most three pools; all stay under this, which stays under the notation parser's
#: limit (rulescore.dice.MAX_DICE), so the seeded roll below never meets that limit.
MAX_ROLLED = 3 * MAX_POOL


@dataclass(frozen=True, kw_only=True)
class CheckResult(Resolution):
    """A resolved check: ``value`` is the character's total; ``margin`` = total − difficulty."""

    difficulty: int
    target: int
    margin: int
    success: bool
    critical: bool
    nd_rule: str


@dataclass(frozen=True)
class Odds:
    """Exact odds of a roll before it is made.

    ``outcomes`` maps each outcome label to its probability; ``margins`` is the distribution
    of the margin (total − difficulty); ``dice`` says how many d6 each input of the resolving
    function takes (for :func:`roll_groups`).
    """

    outcomes: dict[str, Fraction]
    margins: Distribution
    dice: dict[str, int] = field(default_factory=dict)

    @property
    def success(self) -> Fraction:
        """Chance of succeeding (a critical success included)."""
        return self.margins.p_at_least(0)


def difficulty_dice_count(difficulty: int, nd_rule: str = "opposed") -> int:
    """How many d6 the difficulty rolls: n under ``"opposed"``, none under ``"average"``."""
    require_int("difficulty", difficulty, minimum=1, maximum=MAX_DIFFICULTY)
    one_of("nd_rule", nd_rule, ND_RULES)
    return difficulty if nd_rule == "opposed" else 0


def fixed_target(difficulty: int) -> int:
    """The fixed number an nD difficulty stands for under ``"average"``: 3.5 × n, rounded up."""
    require_int("difficulty", difficulty, minimum=1, maximum=MAX_DIFFICULTY)
    return (7 * difficulty + 1) // 2


def _outcome(margin: int, critical_margin: int) -> str:
    if margin >= critical_margin:
        return "critical success"
    if margin >= 0:
        return "success"
    if margin <= -critical_margin:
        return "critical failure"
    return "failure"


def _critical_margin(value: int) -> int:
    return require_int("critical_margin", value, minimum=1, maximum=MAX_CRITICAL_MARGIN)


def check_rulings(nd_rule: object, critical_margin: object) -> None:
    """Check the two switchable rulings of a check where no check is rolled (easy terrain)."""
    one_of("nd_rule", nd_rule, ND_RULES)
    _critical_margin(critical_margin)  # type: ignore[arg-type]


def drawn(dice: object, given: Mapping[str, object],
          counts: Callable[[], Mapping[str, int]]) -> tuple[dict[str, Any], tuple[Step, ...]]:
    """The dice inputs of a resolving function (dice §Seeds and typed dice): *given* as they
    are without *dice*; with it, each group drawn from *dice* in the order of *counts* (a
    pool's count is the whole number given in its input), and the roll's step for the trace.
    Typed dice too few or too many are named by the count the roll wants (:func:`roll_groups`)."""
    source = dice_to_draw_from(dice)
    if source is None:
        return dict(given), ()
    rolled = roll_groups(counts(), dice=source)
    # Nothing to roll (no check is made) leaves no step: the dice were only checked unused.
    return {**given, **rolled.groups}, rolled.trace if rolled.value else ()


def _with_roll(result: Resolution, rolled: tuple[Step, ...]) -> Resolution:
    """*result* with the step that drew its dice first (none when the dice were given)."""
    return replace(result, trace=rolled + result.trace) if rolled else result


def check_counts(skill_dice: object, difficulty: int, difficulty_dice: object, nd_rule: str,
                 dice: DiceSource) -> dict[str, int]:
    """How many d6 a check draws from *dice*: the pool given in *skill_dice*, then the
    difficulty's (none under ``"average"``)."""
    not_both("difficulty_dice", difficulty_dice, dice)
    return {"skill_dice": count_to_draw("skill_dice", skill_dice, dice, minimum=1,
                                        maximum=MAX_POOL),
            "difficulty_dice": difficulty_dice_count(difficulty, nd_rule)}


def check(skill_dice: Sequence[int] | int, difficulty: int,
          difficulty_dice: Sequence[int] | None = None, roll_bonus: int = 0, *,
          nd_rule: str = "opposed", critical_margin: int = 6, section: str = CHECK_SECTION,
          what: str = "Check", dice: DiceSource | None = None) -> CheckResult:
    """Resolve an nD check from the dice rolled (see the module docstring for the reading).

    *skill_dice* are the character's d6; *difficulty_dice* the n d6 of the difficulty (none
    under ``nd_rule="average"``); *roll_bonus* is added to the character's total. With
    *dice* (a :class:`~rulescore.dice.DiceSource`), *skill_dice* is the pool, a number, and
    both groups are drawn from it.
    """
    got, rolled = drawn(dice, {"skill_dice": skill_dice, "difficulty_dice": difficulty_dice},
                        lambda: check_counts(skill_dice, difficulty, difficulty_dice, nd_rule,
                                             dice))
    return _with_roll(_check(got["skill_dice"], difficulty, got["difficulty_dice"], roll_bonus,
                             nd_rule, critical_margin, section, what), rolled)


def _check(skill_dice: Sequence[int], difficulty: int, difficulty_dice: Sequence[int] | None,
           roll_bonus: int, nd_rule: str, critical_margin: int, section: str,
           what: str) -> CheckResult:
    """:func:`check` on the faces rolled."""
    one_of("nd_rule", nd_rule, ND_RULES)
    require_int("difficulty", difficulty, minimum=1, maximum=MAX_DIFFICULTY)
    skill = d6_faces("skill_dice", skill_dice, minimum=1)
    # Absent difficulty dice are none at all: right under "average", too few under "opposed".
    rolled = d6_faces("difficulty_dice", () if difficulty_dice is None else difficulty_dice,
                      maximum=MAX_DIFFICULTY)
    extra = bonus("roll_bonus", roll_bonus)
    crit = _critical_margin(critical_margin)
    ref = DATA.rule(text("section", section))
    text("what", what)
    total = sum(skill) + extra
    plus = f" {'+' if extra >= 0 else '−'} {abs(extra)}" if extra else ""
    steps = [step(f"{what}: the character's {len(skill)} d6 show "
                  f"{', '.join(map(str, skill))}{plus} = {total}", ref, total=total)]
    if nd_rule == "opposed":
        if len(rolled) != difficulty:
            raise RulesError(f"difficulty_dice must hold exactly {difficulty} d6, "
                             f"got {len(rolled)}")
        target = sum(rolled)
        steps.append(step(f"The {difficulty}D difficulty is rolled: {', '.join(map(str, rolled))}"
                          f" = {target}", DATA.rule(CHECK_SECTION, "nd_check"), target=target))
    else:
        if rolled:
            raise RulesError("difficulty_dice must be empty when nd_rule is 'average' "
                             f"(the difficulty is a fixed number), got {list(rolled)}")
        target = fixed_target(difficulty)
        steps.append(step(f"The {difficulty}D difficulty is the fixed number 3.5 × {difficulty}, "
                          f"rounded up: {target}", DATA.rule(CHECK_SECTION, "nd_check"),
                          target=target))
    margin = total - target
    outcome = _outcome(margin, crit)
    verb = "meets or beats" if margin >= 0 else "falls short of"
    steps.append(step(f"{total} {verb} {target}: margin {margin:+d}, a {outcome}"
                      + (f" (criticals at a margin of ±{crit})" if "critical" in outcome else ""),
                      DATA.rule("Criticals", "criticals"), margin=margin))
    return CheckResult(value=total, outcome=outcome, trace=tuple(steps), difficulty=difficulty,
                       target=target, margin=margin, success=margin >= 0,
                       critical="critical" in outcome, nd_rule=nd_rule)


@lru_cache(maxsize=None)
def _sum_counts(n: int) -> tuple[tuple[int, int], ...]:
    """Ways each total of n d6 can fall: (total, count) pairs, by convolution."""
    counts = {0: 1}
    for _ in range(n):
        nxt: dict[int, int] = {}
        for total, ways in counts.items():
            for face in range(1, 7):
                nxt[total + face] = nxt.get(total + face, 0) + ways
        counts = nxt
    return tuple(sorted(counts.items()))


def margin_counts(pool_size: int, difficulty_dice: int, shift: int) -> dict[int, Fraction]:
    """Exact distribution of (pool d6) − (difficulty d6) + *shift* (faster than a dice pool)."""
    require_int("pool_size", pool_size, minimum=0, maximum=MAX_POOL + 6)
    require_int("difficulty_dice", difficulty_dice, minimum=0, maximum=MAX_POOL)
    require_int("shift", shift, minimum=-200, maximum=200)
    denom = 6 ** (pool_size + difficulty_dice)
    out: dict[int, int] = {}
    for a, wa in _sum_counts(pool_size):
        for b, wb in _sum_counts(difficulty_dice):
            out[a - b + shift] = out.get(a - b + shift, 0) + wa * wb
    return {m: Fraction(w, denom) for m, w in sorted(out.items())}


def _odds(margins: Mapping[int, Fraction], critical_margin: int,
          dice: dict[str, int]) -> Odds:
    outcomes = {o: Fraction(0) for o in OUTCOMES}
    for m, p in margins.items():
        outcomes[_outcome(m, critical_margin)] += p
    dist = Distribution(tuple(margins.items()))
    return Odds(outcomes, dist, dice)


def check_odds(skill_pool: int, difficulty: int, roll_bonus: int = 0, *,
               nd_rule: str = "opposed", critical_margin: int = 6) -> Odds:
    """Exact odds of each outcome of an nD check with *skill_pool* d6 (+ *roll_bonus*)."""
    one_of("nd_rule", nd_rule, ND_RULES)
    n = pool("skill_pool", skill_pool)
    require_int("difficulty", difficulty, minimum=1, maximum=MAX_DIFFICULTY)
    extra = bonus("roll_bonus", roll_bonus)
    crit = _critical_margin(critical_margin)
    if nd_rule == "opposed":
        margins = margin_counts(n, difficulty, extra)
    else:
        margins = margin_counts(n, 0, extra - fixed_target(difficulty))
    return _odds(margins, crit, {"skill_dice": n,
                                 "difficulty_dice": difficulty_dice_count(difficulty, nd_rule)})


@dataclass(frozen=True, kw_only=True)
class OpposedResult(Resolution):
    """An opposed roll: ``value`` is the margin of the active side (ties go to it)."""

    active_total: int
    passive_total: int
    margin: int
    success: bool


def opposed(active_dice: Sequence[int] | int, passive_dice: Sequence[int] | int,
            active_bonus: int = 0, passive_bonus: int = 0, *,
            section: str = "Extreme range engagements", active: str = "The active side",
            passive: str = "the other side", dice: DiceSource | None = None) -> OpposedResult:
    """Resolve an opposed roll of two d6 pools: the active side wins ties (assumption ``ties``).
    With *dice*, each side's input is its pool (a number) and the faces are drawn from it."""
    got, rolled = drawn(dice, {"active_dice": active_dice, "passive_dice": passive_dice},
                        lambda: {name: count_to_draw(name, value, dice, minimum=1,
                                                     maximum=MAX_POOL)
                                 for name, value in (("active_dice", active_dice),
                                                     ("passive_dice", passive_dice))})
    a = d6_faces("active_dice", got["active_dice"], minimum=1)
    b = d6_faces("passive_dice", got["passive_dice"], minimum=1)
    ab, pb = bonus("active_bonus", active_bonus), bonus("passive_bonus", passive_bonus)
    text("active", active)
    text("passive", passive)
    at, pt = sum(a) + ab, sum(b) + pb
    margin = at - pt
    ref = DATA.rule(text("section", section))
    steps = (step(f"{active} rolls {', '.join(map(str, a))}" + (f" {ab:+d}" if ab else "")
                  + f" = {at}", ref, total=at),
             step(f"{passive[:1].upper() + passive[1:]} rolls {', '.join(map(str, b))}"
                  + (f" {pb:+d}" if pb else "") + f" = {pt}", ref, total=pt),
             step(f"{at} against {pt}: margin {margin:+d}; "
                  + ("the active side wins (a tie goes to it)" if margin >= 0 else
                     "the other side wins"), DATA.rule("Ties", "ties"), margin=margin))
    return OpposedResult(value=margin, outcome="wins" if margin >= 0 else "loses",
                         trace=rolled + steps, active_total=at, passive_total=pt, margin=margin,
                         success=margin >= 0)


def opposed_odds(active_pool: int, passive_pool: int, active_bonus: int = 0,
                 passive_bonus: int = 0) -> Odds:
    """Exact odds that the active side of an opposed roll wins (ties included)."""
    a, b = pool("active_pool", active_pool), pool("passive_pool", passive_pool)
    shift = bonus("active_bonus", active_bonus) - bonus("passive_bonus", passive_bonus)
    margins = margin_counts(a, b, shift)
    win = sum((p for m, p in margins.items() if m >= 0), Fraction(0))
    return Odds({"wins": win, "loses": 1 - win}, Distribution(tuple(margins.items())),
                {"active_dice": a, "passive_dice": b})


@dataclass(frozen=True, kw_only=True)
class RolledDice(Resolution):
    """Dice rolled with a seed or typed by a player, split into the named groups."""

    groups: dict[str, tuple[int, ...]]
    seed: int | None = None


_LABELS = {"skill_dice": "the character", "difficulty_dice": "the difficulty",
           "active_dice": "the active side", "passive_dice": "the other side",
           "stealth_dice": "Stealth", "cover_dice": "cover", "perception_dice": "Perception",
           "first_dice": "the first side", "second_dice": "the second side",
           "damage_dice": "the damage"}


def roll_groups(counts: Mapping[str, int], *, dice: DiceSource | Sequence[int] | None = None,
                seed: int | None = None) -> RolledDice:
    """Roll the d6 groups *counts* (name → how many) from *dice*, a
    :class:`~rulescore.dice.DiceSource` (seeded or typed); typed faces as a list and *seed*
    are kept for existing callers.

    Typed dice are read in the order of *counts*: e.g. the character's dice, then the
    difficulty's. Groups of zero dice are skipped.
    """
    if not isinstance(counts, Mapping):
        raise RulesError(f"counts must map group names to numbers of d6, got {shown(counts)}")
    for group in counts:
        if group not in _LABELS:
            raise RulesError(f"counts: each group must be one of {', '.join(map(repr, _LABELS))}"
                             f", got {shown(group)}")
    wanted = {k: require_int(f"counts[{shown(k)}]", v, minimum=0, maximum=MAX_POOL)
              for k, v in counts.items()}
    total = sum(wanted.values())
    if total > MAX_ROLLED:
        raise RulesError(f"counts must add up to at most {MAX_ROLLED} d6, got {total}")
    if (seed is None) == (dice is None):
        raise RulesError("roll_groups needs exactly one of: dice (a DiceSource, or the faces "
                         "you rolled), or seed")
    order = ", then ".join(f"{n} for {_LABELS.get(k, k)}" for k, n in wanted.items() if n)

    def wrong(got: int) -> str:
        if not total:
            return f"dice: this roll needs no dice, got {got}: leave the dice empty"
        return f"dice: type {total} d6 ({order}), got {got}"

    if seed is not None:
        source = DiceSource.seeded(require_seed("seed", seed))
    elif isinstance(dice, DiceSource):
        source = dice
    else:
        typed = d6_faces("dice", dice, minimum=0, maximum=MAX_ROLLED)
        if len(typed) != total:
            raise RulesError(wrong(len(typed)))
        source = DiceSource.typed(typed)
    # Typed dice that are too few or too many are named by the count the roll wants.
    given = len(source.leftover())
    if given > total:
        raise RulesError(wrong(given))
    faces = [source.d(6, f"dice: die {i}", missing=wrong(given))
             for i in range(1, total + 1)]
    source.finish()
    how = (f"Rolled {total} d6 with {source.describe()}" if not source.is_typed
           else f"Read the {total} d6 you typed")
    groups, at = {}, 0
    for name, n in wanted.items():
        groups[name] = tuple(faces[at:at + n])
        at += n
    listed = "; ".join(f"{_LABELS.get(k, k)}: {', '.join(map(str, v))}"
                      for k, v in groups.items() if v)
    trace = (step(f"{how} ({order or 'this roll needs none'}). {listed}",
                  DATA.rule(CHECK_SECTION, "nd_check")),)
    return RolledDice(value=total, outcome="typed" if source.is_typed else "rolled",
                      trace=trace, groups=groups, seed=source.seed)
