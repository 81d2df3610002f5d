"""Who acts when: ties at one tick (§II Handling Ties), Wait, Hold, Duel (§XII), Stunned
(§XI) and the Tension Pool's clock (§XV)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ...errors import RulesError, require_int, shown
from ...trace import Resolution, Step, step
from ._system import DATA
from ...dice import DiceSource
from .core import (DIE, advance, check, read_faces, require_attribute,
                   require_skill, require_tick)

TIES = DATA.rule("II Handling Ties")
WAIT = DATA.rule("XII The Wait (Nudging)")
HOLD = DATA.rule("XII The Hold (Overwatch)")
DUEL = DATA.rule("XII Duel Resolution")
STUNNED = DATA.rule("XI Stunned")
TENSION = DATA.rule("XV Tension Pool in Combat")
MAX_TOKENS = 100  # tokens in one fight (a Horde is one): far more than a table runs


@dataclass(frozen=True)
class Combatant:
    """A token at one tick: its name, PC or NPC, initiative margin and QUICK."""

    name: str
    pc: bool
    margin: int
    quick: int


@dataclass(frozen=True, kw_only=True)
class TieResolution(Resolution):
    """Order at one tick. ``order`` lists groups acting in turn (a group of several acts
    simultaneously); ``decided_by[i]`` is the rule that put group i before group i + 1."""

    order: tuple[tuple[str, ...], ...]
    decided_by: tuple[str, ...]


def _rule_names() -> tuple[str, ...]:
    """The names of the tie-break steps, in order, from the tie-order table."""
    rows = sorted(DATA.table("timeline", "tie_order"), key=lambda r: r["order"])
    return tuple(r["rule"] for r in rows)


def _key(c: Combatant) -> tuple[int, int, int]:
    return (0 if c.pc else 1, -c.margin, -c.quick)


def tie_order(combatants: Sequence[Combatant]) -> TieResolution:
    """Order tokens sharing a tick (§II Handling Ties): PCs before NPCs, then the higher
    initiative margin, then the higher QUICK; still tied, they act simultaneously and may hit
    each other. ``value`` is the number of turns (groups)."""
    if isinstance(combatants, (str, bytes)) or not isinstance(combatants, Sequence) \
            or not combatants:
        raise RulesError(f"combatants must be a non-empty list of Combatant, "
                         f"got {shown(combatants)}")
    if len(combatants) > MAX_TOKENS:
        raise RulesError(f"combatants may hold at most {MAX_TOKENS}, got {len(combatants)}")
    names = set()
    for c in combatants:
        if not isinstance(c, Combatant):
            raise RulesError(f"combatants must hold Combatant records, got {shown(c)}")
        if not isinstance(c.name, str) or not c.name or c.name in names:
            raise RulesError(f"combatants need distinct names, got {shown(c.name)}")
        names.add(c.name)
        if not isinstance(c.pc, bool):
            raise RulesError(f"pc of {c.name} must be True or False, got {shown(c.pc)}")
        require_int(f"margin of {c.name}", c.margin)
        require_attribute(f"quick of {c.name}", c.quick)
    ranked = sorted(combatants, key=_key)
    groups: list[list[Combatant]] = []
    for c in ranked:
        if groups and _key(groups[-1][0]) == _key(c):
            groups[-1].append(c)
        else:
            groups.append([c])
    rules = _rule_names()
    decided = []
    trace: list[Step] = []
    for a, b in zip(groups, groups[1:]):
        ka, kb = _key(a[0]), _key(b[0])
        i = next(i for i in range(3) if ka[i] != kb[i])
        decided.append(rules[i])
        trace.append(step(f"{' & '.join(x.name for x in a)} before "
                          f"{' & '.join(x.name for x in b)}: {rules[i]}", TIES, tie_rule=i + 1))
    for g in groups:
        if len(g) > 1:
            trace.append(step(f"{' & '.join(x.name for x in g)} tie on every count: they act "
                              "simultaneously and may hit each other", TIES, tie_rule=4))
    order = tuple(tuple(x.name for x in g) for g in groups)
    return TieResolution(value=len(order), outcome=" → ".join(" & ".join(g) for g in order),
                         trace=tuple(trace) or (step("A single token acts", TIES),),
                         order=order, decided_by=tuple(decided))


def wait(tick: int, times: int = 1) -> int:
    """Wait (nudge): +1 to your tick each time, as often as you like (§XII The Wait)."""
    require_int("times", times, minimum=1)
    return advance(tick, times * DATA.table("timeline", "timing").find("move", "Wait")["ticks"])


def stunned_turn(tick: int) -> Resolution:
    """A Stunned character's tick comes: no action (Reactions still allowed), the token moves
    3 ticks, and the Stun ends (§XI Stunned). ``value`` is the new tick."""
    ticks = DATA.table("timeline", "timing").find("move", "Stunned")["ticks"]
    new = advance(tick, ticks)
    return Resolution(value=new, outcome="No action", trace=(
        step(f"Stunned at Tick {tick}: no action; the token moves {ticks} ticks to Tick {new}; "
             "the Stun is over", STUNNED, new_tick=new),))


def held_action(trigger_tick: int, tempo_used: int) -> int:
    """Where a Held action puts your token: the tick its trigger happened + the action's tempo
    (§XII The Hold). The held action goes before the triggering one."""
    require_tick("trigger_tick", trigger_tick)
    require_tick("tempo_used", tempo_used)  # a longer action would lap the Cylinder
    return advance(trigger_tick, tempo_used)


@dataclass(frozen=True, kw_only=True)
class DuelResolution(Resolution):
    """A Duel between two Holds: ``outcome`` names who acts first (or "Simultaneous")."""

    sums: tuple[int, int]
    decided_by: str
    dice: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())  # each side's d8


def duel(dice_a: Sequence[int] | None, dice_b: Sequence[int] | None, *, quick_a: int,
         awareness_a: int, quick_b: int, awareness_b: int, bonus_a: int = 0, bonus_b: int = 0,
         name_a: str = "A", name_b: str = "B",
         dice: DiceSource | None = None) -> DuelResolution:
    """Held against held (§XII Duel Resolution): opposed QUICK + Awareness with roll modifiers;
    the higher sum acts first, the other right after. Equal sums: the higher QUICK, then
    simultaneous (assumption duel_ties). ``value`` is 1 when A acts first, 2 for B, 0 for both.
    *dice_a* and *dice_b* are each side's faces; or give *dice*, a DiceSource, and A's pool then
    B's are drawn from it."""
    if dice is not None and (dice_a is not None or dice_b is not None):
        raise RulesError("give dice_a and dice_b (the faces rolled) or dice (a DiceSource), "
                         "not both")
    if dice is not None and not isinstance(dice, DiceSource):
        raise RulesError(f"dice must be a DiceSource (seeded or typed) or None, got {shown(dice)}")
    for name, text in (("name_a", name_a), ("name_b", name_b)):
        if not isinstance(text, str) or not text.strip():
            raise RulesError(f"{name} must be a non-empty name, got {shown(text)}")
    sums, rolled = [], []
    for side, roll, q, aw, bonus in (("a", dice_a, quick_a, awareness_a, bonus_a),
                                     ("b", dice_b, quick_b, awareness_b, bonus_b)):
        require_attribute(f"quick_{side}", q)
        require_skill(f"awareness_{side}", aw)
        if dice is not None:
            faces = dice.dice(q + aw, DIE, f"die of {'A' if side == 'a' else 'B'}")
            if side == "b":
                dice.finish("duel")
        else:
            faces = read_faces(f"dice_{side}", roll, None, q + aw,
                               why=f"quick_{side} {q} + awareness_{side} {aw}")
        sums.append(check(faces, 0, require_int(f"bonus_{side}", bonus)).value)
        rolled.append(faces)
    trace = [step(f"{name_a} {sums[0]} against {name_b} {sums[1]}", DUEL, a=sums[0], b=sums[1])]
    if sums[0] != sums[1]:
        first, decided = (1 if sums[0] > sums[1] else 2), "Higher sum"
    elif quick_a != quick_b:
        first, decided = (1 if quick_a > quick_b else 2), "Higher QUICK"
        trace.append(step("Equal sums: the higher QUICK goes first", DUEL.citing("duel_ties")))
    else:
        first, decided = 0, "Simultaneous"
        trace.append(step("Equal sums and QUICK: both fire at once",
                          DUEL.citing("duel_ties")))
    winner = {1: name_a, 2: name_b, 0: "Simultaneous"}[first]
    if first:
        loser = name_b if first == 1 else name_a
        trace.append(step(f"{winner} acts first; {loser} acts right after, if still alive",
                          DUEL))
    return DuelResolution(value=first, outcome=winner, trace=tuple(trace),
                          sums=(sums[0], sums[1]), decided_by=decided,
                          dice=(rolled[0], rolled[1]))


def tension_dice(ticks_elapsed: int) -> int:
    """Tension Pool dice added by a fight so far: 1 when it starts, +1 each 10 ticks
    (§XV Tension Pool in Combat), that is each time the Hammer crosses a red Tension Line
    (assumption tension_lines)."""
    require_int("ticks_elapsed", ticks_elapsed, minimum=0)
    start, per_ten = (r["dice"] for r in DATA.table("timeline", "tension"))
    return start + per_ten * (ticks_elapsed // 10)


@dataclass(frozen=True)
class Token:
    """A character's token on the Cylinder."""

    name: str
    tick: int
    pc: bool = False
    margin: int = 0
    quick: int = 1


@dataclass(frozen=True, kw_only=True)
class NextTurn(Resolution):
    """Who acts next: ``value`` is the tick, ``order`` the tie order there, ``ticks`` how far
    the Hammer turns to get there."""

    order: tuple[tuple[str, ...], ...]
    ticks: int


def next_turn(hammer: int, tokens: Sequence[Token]) -> NextTurn:
    """Turn the Hammer from *hammer* to the next tick holding a token, clockwise and past 19
    to 0 (§I The Flow of Combat); order the tokens there by §II Handling Ties. A token on the
    Hammer's own tick acts now. Held tokens are off the track: leave them out."""
    require_tick("hammer", hammer)
    if isinstance(tokens, (str, bytes)) or not isinstance(tokens, Sequence) or not tokens:
        raise RulesError(f"tokens must be a non-empty list of Token, got {shown(tokens)}")
    if len(tokens) > MAX_TOKENS:
        raise RulesError(f"tokens may hold at most {MAX_TOKENS}, got {len(tokens)}")
    for t in tokens:
        if not isinstance(t, Token):
            raise RulesError(f"tokens must hold Token records, got {shown(t)}")
        require_tick(f"tick of {t.name}", t.tick)
    wait_for = min((t.tick - hammer) % 20 for t in tokens)
    tick = (hammer + wait_for) % 20
    here = [Combatant(t.name, t.pc, t.margin, t.quick) for t in tokens if t.tick == tick]
    ties = tie_order(here)
    trace = (step(f"The Hammer turns {wait_for} tick{'s' if wait_for != 1 else ''} from "
                  f"{hammer} to {tick}", DATA.rule("I The Flow of Combat"), tick=tick),) + (
        ties.trace if len(here) > 1 else ())
    return NextTurn(value=tick, outcome=ties.outcome, trace=trace, order=ties.order,
                    ticks=wait_for)
