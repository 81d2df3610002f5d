"""Special attacks (K.O., disarming, two weapons, support, coup de grâce) and throwing."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Sequence

from rulescore.dice import DiceSource
from rulescore.errors import RulesError, require_int, shown
from rulescore.trace import Resolution, step
from rulescore.errors import require_bool as flag, require_choice as one_of

from ._system import DATA
from .inputs import Chains, count, die_totals, drawn_chains, finished, plural, threshold

STATES = ("unconscious", "sleeping", "dying")


@dataclass(frozen=True, kw_only=True)
class Contest(Resolution):
    """A K.O. or disarming contest: ``value`` the defender's successes; ``success`` whether the
    attacker's aim (knock out, disarm) came off."""

    success: bool


def ko_attack(hits: int, resistance_successes: int, *, blunt: bool = True) -> Contest:
    """A K.O. attack (§K.O. Attack), after cover and armour: the target rolls resistance and is
    knocked out unless its successes reach the hits. No wounds. Needs a blunt weapon or
    object."""
    if not flag("blunt", blunt):
        raise RulesError("blunt must be True: a K.O. attack needs a blunt weapon or object, "
                         "got False")
    h = count("hits", hits)
    r = count("resistance_successes", resistance_successes)
    out = h > 0 and r < h
    ref = DATA.rule("K.O. Attack")
    steps = (step(f"{plural(h, 'hit')} after cover and armour; resistance "
                  f"{plural(r, 'success', 'successes')}", ref, hits=h, successes=r),
             step("Knocked out" if out else "Stays conscious", ref),
             step("A K.O. attack deals no wounds", ref))
    return Contest(value=r, outcome="knocked out" if out else "conscious", trace=steps,
                   success=out)


def disarm(attacker_hits: int, defender_successes: int) -> Contest:
    """A disarming attack (§Disarming attack; its minimum roll is 3 higher): the defender rolls
    Strength or Deftness and keeps the weapon with as many successes as the attacker's hits.
    No wounds."""
    h = count("attacker_hits", attacker_hits)
    r = count("defender_successes", defender_successes)
    out = h > 0 and r < h
    ref = DATA.rule("Disarming attack")
    steps = (step(f"Attacker {plural(h, 'hit')}; defender {plural(r, 'success', 'successes')}"
                  f" on Strength or Deftness", ref, hits=h, successes=r),
             step("Disarmed" if out else "Keeps the weapon", ref),
             step("A disarming attack deals no wounds", ref))
    return Contest(value=r, outcome="disarmed" if out else "keeps weapon", trace=steps,
                   success=out)


@dataclass(frozen=True, kw_only=True)
class TwoWeapons(Resolution):
    """Two-handed fighting: ``value`` extra actions a round; the off hand's minimum roll."""

    off_hand_min_roll: int


def two_weapons(one_handed: bool, same_type: bool, min_roll: int = 5) -> TwoWeapons:
    """Fighting with two weapons of one type (§Two-handed fighting): only one-handed weapons;
    one more action a round; the off hand attacks with a minimum roll 1 higher."""
    if not flag("one_handed", one_handed):
        raise RulesError("one_handed must be True: two-handed weapons cannot be wielded "
                         "in pairs, got False")
    if not flag("same_type", same_type):
        raise RulesError("same_type must be True: both weapons must be of the same type, "
                         "got False")
    base = threshold("min_roll", min_roll)
    off = base + DATA.table("combat", "hit_modifiers").find("modifier", "off_hand")["min_roll"]
    ref = DATA.rule("Two-handed fighting")
    steps = (step("One more action a round", ref, actions=1),
             step(f"Off-hand attacks hit on {off}+", ref, min_roll=off))
    return TwoWeapons(value=1, outcome="two weapons", trace=steps, off_hand_min_roll=off)


def supported_min_roll(min_roll: int, weapon: str = "firearm") -> int:
    """Minimum roll of a shot from a supported weapon (§Support weapon): 1 lower. Propping takes
    an action, picking it up none; bows cannot be supported."""
    base = threshold("min_roll", min_roll)
    one_of("weapon", weapon, ("firearm", "bow"))
    if weapon == "bow":
        raise RulesError("weapon must be a firearm to be supported: a bow cannot, got 'bow'")
    change = DATA.table("combat", "hit_modifiers").find("modifier", "supported")["min_roll"]
    return max(1, base + change)


@dataclass(frozen=True, kw_only=True)
class CoupDeGrace(Resolution):
    """A coup de grâce: ``value`` the successes; ``dead_level`` the level of the Dead state
    (None if the attack failed); ``may_wake`` for a sleeping victim after a failure."""

    dead_level: int | None
    may_wake: bool
    chains: Chains = ()   # the attack dice as rolled, when drawn from a DiceSource


def coup_de_grace(successes: int, state: str, dying_level: int = 0) -> CoupDeGrace:
    """Finish a helpless opponent (§Coup de grâce): with at least one success on a normal attack
    roll the victim becomes dead at a level equal to the successes; a dying victim's level
    rises by them. A failure may wake a sleeper."""
    s = count("successes", successes)
    one_of("state", state, STATES)
    level = require_int("dying_level", dying_level, minimum=0, maximum=50)
    if level and state != "dying":
        raise RulesError(f"dying_level must be 0 unless the state is 'dying', got {level}")
    ref = DATA.rule("Coup de grâce")
    if not s:
        wake = state == "sleeping"
        return CoupDeGrace(value=0, outcome="failed", trace=(step(
            "No success: the coup de grâce fails" + ("; the sleeper will likely wake" if wake
                                                      else ""), ref),),
            dead_level=None, may_wake=wake)
    if state == "dying":
        new = level + s
        text = f"Dying level {level} + {s} = {new}"
    else:
        new = s
        text = f"Dead at level {s}"
    return CoupDeGrace(value=s, outcome="dead" if state != "dying" else "worse",
                       trace=(step(text, ref, level=new),), dead_level=new, may_wake=False)


def coup_de_grace_roll(dice_totals: Sequence[int] | int, state: str, dying_level: int = 0,
                       min_roll: int = 5, *, dice: DiceSource | None = None) -> CoupDeGrace:
    """A coup de grâce from its attack roll (§Coup de grâce): a normal attack roll, each die
    that reaches *min_roll* one success, read by :func:`coup_de_grace`.

    With *dice* (a DiceSource), *dice_totals* is how many exploding dice to roll; they are
    drawn from it."""
    one_of("state", state, STATES)
    totals, chains = drawn_chains("dice_totals", dice_totals, dice)
    totals = die_totals("dice_totals", totals)
    finished(dice, "coup de grâce")
    base = threshold("min_roll", min_roll)
    successes = sum(1 for t in totals if t >= base)
    result = coup_de_grace(successes, state, dying_level)
    roll = step(f"Attack roll: {', '.join(map(str, totals)) or 'no dice'} on {base}+: "
                f"{plural(successes, 'success', 'successes')}", DATA.rule("Coup de grâce"),
                successes=successes)
    return replace(result, trace=(roll, *result.trace), chains=chains)


@dataclass(frozen=True, kw_only=True)
class Throw(Resolution):
    """A throw: ``value`` successes; on a miss, where it lands: ``clock`` (d12), ``metres``
    (d6), ``direction`` in words and ``offset`` (right, beyond) in metres from the target."""

    hit: bool
    clock: int | None
    metres: int | None
    direction: str | None
    offset: tuple[float, float] | None
    chains: Chains = ()   # the throwing dice as rolled, when drawn from a DiceSource


def _clock(value: object) -> int:
    return require_int("clock", value, minimum=1, maximum=12)


def _metres(value: object) -> int:
    return require_int("metres", value, minimum=1, maximum=6)


def deviation_offset(clock: int, metres: int) -> tuple[float, float]:
    """Where a deviated throw lands from its target, in metres (right, beyond), seen from the
    thrower: 12 o'clock straight beyond, 3 to the right, 6 short, 9 to the left
    (assumption ``clock_face``)."""
    c, m = _clock(clock), _metres(metres)
    angle = math.radians(30 * c)
    return (round(m * math.sin(angle), 2), round(m * math.cos(angle), 2))


_DEVIATES = "a missed throw deviates: give clock (the d12, 1–12) and metres (the d6, 1–6)"


def throw(dice_totals: Sequence[int] | int, min_roll: int = 5, *, clock: int | None = None,
          metres: int | None = None, dice: DiceSource | None = None) -> Throw:
    """Throw an object at a target (§Throwing objects, §Deviation): one success hits. A miss
    deviates: a d12 read as a clock face (seen from the thrower) gives the direction, a d6 the
    metres, and the object lands there.

    With *dice* (a DiceSource), *dice_totals* is how many throwing dice to roll; they are
    drawn from it, and on a miss the d12 and the d6 after them, unless *clock* and *metres*
    were typed."""
    totals, chains = drawn_chains("dice_totals", dice_totals, dice)
    totals = die_totals("dice_totals", totals)
    if dice is not None and not any(t >= threshold("min_roll", min_roll) for t in totals):
        clock = dice.d(12, "deviation d12", missing=_DEVIATES) if clock is None else clock
        metres = dice.d(6, "deviation d6", missing=_DEVIATES) if metres is None else metres
    finished(dice, "throw")
    base = threshold("min_roll", min_roll)
    # The deviation dice are checked even on a hit, which does not read them.
    if clock is not None:
        _clock(clock)
    if metres is not None:
        _metres(metres)
    successes = sum(1 for t in totals if t >= base)
    steps = [step(f"Throw: {', '.join(map(str, totals)) or 'no dice'} on {base}+: "
                  f"{plural(successes, 'success', 'successes')}", DATA.rule("Throwing objects"),
                  successes=successes)]
    if successes:
        steps.append(step("On target" + ("; the deviation dice are not needed" if
                                         clock is not None or metres is not None else ""),
                          DATA.rule("Throwing objects")))
        return Throw(value=successes, outcome="hit", trace=tuple(steps), hit=True, clock=None,
                     metres=None, direction=None, offset=None, chains=chains)
    if clock is None or metres is None:
        raise RulesError(f"{_DEVIATES}, got clock={shown(clock)}, metres={shown(metres)}")
    offset = deviation_offset(clock, metres)
    direction = DATA.table("combat", "deviation").lookup(clock)["direction"]
    steps.append(step(f"Missed: d12 shows {clock} o'clock ({direction}), d6 shows {metres}: "
                      f"lands {metres} m {direction} of the target", DATA.rule("Deviation"),
                      clock=clock, metres=metres))
    return Throw(value=0, outcome="deviated", trace=tuple(steps), hit=False, clock=clock,
                 metres=metres, direction=direction, offset=offset, chains=chains)


@dataclass(frozen=True)
class ThrowDice:
    """A throw's dice: the chains of the throwing dice, then a d12 and a d6 for the deviation
    (read only if the throw misses); ``seed`` replays them (None when they were typed)."""

    seed: int | None
    chains: tuple[tuple[int, ...], ...]
    clock: int
    metres: int

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(c) for c in self.chains)


def roll_throw(dice: DiceSource | int, pool: int) -> ThrowDice:
    """Roll a throw's dice from *dice* (a DiceSource; a seed is kept for existing callers):
    *pool* compounding d6, then a d12 and a d6 for the deviation (§Throwing objects,
    §Deviation)."""
    source = DiceSource.from_seed_or_source(dice)
    n = count("pool", pool)
    chains = tuple(source.chain(6, f"throwing die {i}") for i in range(1, n + 1))
    rolled = ThrowDice(source.seed, chains, source.d(12, "deviation d12"),
                       source.d(6, "deviation d6"))
    source.finish()
    return rolled
