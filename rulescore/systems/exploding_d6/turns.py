"""Initiative, rounds, actions, reactions and spending bonus and destiny dice for actions."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Sequence

from rulescore.errors import RulesError, require_int, require_list, shown
from rulescore.trace import Resolution, RuleRef, step
from rulescore.errors import require_bool as flag, require_choice as one_of
from rulescore.errors import require_row as choice, require_text as text

from ._system import DATA
from rulescore.dice import DiceSource
from rulescore.dice.source import dice_to_draw_from, not_both

from .inputs import (MAX_DICE, MAX_LABEL, MAX_TOTAL, Chains, attribute, count, die_totals,
                     plural)

MAX_ACTIONS = 12      # actions a round, templates and two weapons included
MAX_AVAILABLE = 40    # actions in hand, bonus and destiny dice included
MAX_COMBATANTS = 100  # one fight

ROUND_PHASES = ("Start of round", "Start of player combat round", "Actions refreshed",
                "Actions", "End of player combat round", "End of round")


@dataclass(frozen=True, kw_only=True)
class Initiative(Resolution):
    """One combatant's initiative: ``value`` is the sum of the Quickness dice."""

    name: str
    quickness: int
    deftness: int
    dice: tuple[int, ...]
    chains: Chains = ()   # the Quickness dice as rolled, when drawn from a DiceSource


def initiative(dice_totals: Sequence[int] | None, quickness: int, deftness: int = 0,
               name: str = "combatant", *, dice: DiceSource | None = None) -> Initiative:
    """Roll initiative (§Start of combat): as many exploding d6 as Quickness, added up.

    The rogue with Quickness 4 rolls 4, 5, 1 and 6+6+5 = 17: her initiative is 27. With
    *dice* (a DiceSource) the Quickness dice are drawn from it (*dice_totals* None).
    """
    q = attribute("quickness", quickness)
    d = attribute("deftness", deftness)
    text("name", name, max_length=MAX_LABEL)
    result = _initiative(*_drawn(dice_totals, q, dice, name), q, d, name)
    if dice is not None:
        dice.finish("initiative roll")
    return result


def _drawn(dice_totals: object, quickness: int, dice: object,
           name: str) -> tuple[object, Chains]:
    """One combatant's Quickness dice: the totals given, or *quickness* chains drawn."""
    source = dice_to_draw_from(dice)
    if source is None:
        return dice_totals, ()
    not_both("dice_totals", dice_totals, source)
    chains = tuple(source.chain(6, f"{name}'s die {i}") for i in range(1, quickness + 1))
    return tuple(sum(c) for c in chains), chains


def _initiative(dice_totals: object, chains: Chains, q: int, d: int,
                name: str) -> Initiative:
    """:func:`initiative` on the dice's totals (and their *chains*, when drawn)."""
    totals = die_totals("dice_totals", dice_totals, expected=q)
    total = sum(totals)
    rolled_on = [t for t in totals if t > 6]
    steps = [step(f"{name}: Quickness {q}, so {plural(q, 'die', 'dice')}: "
                  f"{', '.join(map(str, totals))}", DATA.rule("Start of combat"), dice=q)]
    if rolled_on:
        steps.append(step(f"Rolled on after a 6: {', '.join(map(str, rolled_on))} (whole chains)",
                          DATA.rule("Start of combat")))
    steps.append(step(f"Initiative {total}", DATA.rule("Start of combat"), initiative=total))
    return Initiative(value=total, outcome="rolled", trace=tuple(steps), name=name,
                      quickness=q, deftness=d, dice=totals, chains=chains)


@dataclass(frozen=True, kw_only=True)
class InitiativeOrder(Resolution):
    """The acting order, first to last; ``ties`` lists groups still tied after both tie-breaks
    (kept in the order given, assumption ``full_tie``)."""

    order: tuple[str, ...]
    ties: tuple[tuple[str, ...], ...]
    rolls: tuple[Initiative, ...] = ()


def initiative_order(rolls: Sequence[Initiative]) -> InitiativeOrder:
    """Order combatants (§Start of combat): highest initiative first; ties go to the higher
    Quickness, then the higher Deftness."""
    rolls = list(require_list("rolls", rolls, "initiative results", max_length=MAX_COMBATANTS))
    for i, r in enumerate(rolls, start=1):
        if not isinstance(r, Initiative):
            raise RulesError(f"rolls: entry {i} must be an Initiative (from initiative()), "
                             f"got {type(r).__name__}")
        # One built by hand is held to initiative()'s rules for what ordering reads.
        text(f"rolls: entry {i}: name", r.name, max_length=MAX_LABEL)
        attribute(f"rolls: entry {i}: quickness", r.quickness)
        attribute(f"rolls: entry {i}: deftness", r.deftness)
        require_int(f"rolls: entry {i}: value", r.value, minimum=0, maximum=MAX_DICE * MAX_TOTAL)
    names = [r.name for r in rolls]
    if len(set(names)) != len(names):
        raise RulesError(f"rolls: combatant names must differ, got {names}")
    key = lambda r: (-r.value, -r.quickness, -r.deftness)  # noqa: E731
    ordered = sorted(rolls, key=key)  # stable: full ties stay in the order given
    ref = DATA.rule("Start of combat")
    steps = []
    for a, b in zip(ordered, ordered[1:]):
        if a.value == b.value:
            why = ("Quickness" if a.quickness != b.quickness else
                   "Deftness" if a.deftness != b.deftness else None)
            steps.append(step(f"{a.name} and {b.name} tie on {a.value}: " +
                              (f"{a.name} goes first on {why}" if why else
                               "Quickness and Deftness tie too; kept in the order given"), ref))
    groups: dict[tuple, list[str]] = {}
    for r in ordered:
        groups.setdefault(key(r), []).append(r.name)
    ties = tuple(tuple(g) for g in groups.values() if len(g) > 1)
    order = tuple(r.name for r in ordered)
    steps.append(step("Order: " + ", ".join(f"{r.name} ({r.value})" for r in ordered), ref))
    steps.append(step("Nobody has actions before their first turn", ref))
    return InitiativeOrder(value=len(order), outcome="ordered", trace=tuple(steps), order=order,
                           ties=ties, rolls=tuple(ordered))


def initiative_table(combatants: Sequence[tuple[str, int, int]],
                     dice_totals: Sequence[int] | None = None, *,
                     dice: DiceSource | None = None) -> InitiativeOrder:
    """Initiative for everyone at once (§Start of combat): *combatants* are (name, Quickness,
    Deftness); *dice_totals* hold each one's Quickness dice in the same order, or with *dice*
    (a DiceSource) each one's dice are drawn from it in that order."""
    people = list(require_list("combatants", combatants, "(name, quickness, deftness)",
                               max_length=MAX_COMBATANTS))
    if not people:
        raise RulesError("combatants must name at least one combatant, got none")
    for i, c in enumerate(people, start=1):
        if not isinstance(c, tuple) or len(c) != 3:
            raise RulesError(f"combatants: entry {i} must be (name, quickness, deftness), "
                             f"got {shown(c)}")
        text(f"combatants: entry {i}: name", c[0], max_length=MAX_LABEL)
    need = sum(attribute(f"quickness of {c[0]}", c[1]) for c in people)
    rolls, start = [], 0
    if dice_to_draw_from(dice) is not None:
        not_both("dice_totals", dice_totals, dice)
        for name, q, d in people:
            rolls.append(_initiative(*_drawn(None, q, dice, name), q,
                                     attribute("deftness", d), name))
        dice.finish("initiative roll")
    else:
        totals = die_totals("dice_totals", () if dice_totals is None else dice_totals,
                            expected=need)
        for name, q, d in people:
            rolls.append(initiative(totals[start:start + q], q, d, name))
            start += q
    order = initiative_order(rolls)
    steps = tuple(s for r in rolls for s in r.trace) + order.trace
    return replace(order, trace=steps)


def max_actions(lineage: str = "human", extra: int = 0, two_weapons: bool = False) -> int:
    """Actions a round (§Actor and actions): the lineage's (a human has 2), plus any from
    templates, plus one for fighting with two weapons (§Two-handed fighting)."""
    row = choice("lineage", lineage, DATA.table("combat", "lineages"), "lineage")
    return row["actions"] + count("extra", extra, maximum=10) + int(flag("two_weapons",
                                                                          two_weapons))


def round_phases(order: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """The phases of one round (§Sequence of rounds), as (phase, who) pairs in order."""
    names = require_list("order", order, "combatant names", max_length=MAX_COMBATANTS)
    for n in names:
        text("order", n, max_length=MAX_LABEL)
    if not names:
        raise RulesError("order must name at least one combatant, got none")
    out = [("Start of round", "")]
    for n in names:
        out += [(p, n) for p in ROUND_PHASES[1:5]]
    out.append(("End of round", ""))
    return tuple(out)


@dataclass(frozen=True)
class ActionPool:
    """A combatant's actions: the most a round and those still available."""

    maximum: int
    available: int


def start_combat(maximum: int) -> ActionPool:
    """At the start of combat nobody has actions until their first turn (§Start of combat)."""
    return ActionPool(require_int("maximum", maximum, minimum=1, maximum=MAX_ACTIONS), 0)


def refresh(pool: ActionPool) -> ActionPool:
    """Start of one's combat round: all actions are available again (§Actor and actions)."""
    _pool(pool)
    return replace(pool, available=pool.maximum)


def _pool(pool: ActionPool, whose: str = "pool") -> ActionPool:
    """*pool* held to the bounds start_combat and the die actions keep (§Actor and actions,
    §Bonus dice actions): 1 to MAX_ACTIONS a round, and 0 to MAX_AVAILABLE in hand, more than
    the round when bonus or destiny dice bought actions. A message names the pool's parts as
    the reader knows them, *whose* actions a round and actions left: the argument ("pool",
    "victim") or a reactor ("reactors: Hagen"), never the dataclass's field names."""
    if not isinstance(pool, ActionPool):
        raise RulesError(f"{whose} must be an ActionPool (actions a round and actions left), "
                         f"got {type(pool).__name__}")
    require_int(f"{whose}'s actions a round", pool.maximum, minimum=1, maximum=MAX_ACTIONS)
    count(f"{whose}'s actions left", pool.available, maximum=MAX_AVAILABLE)
    return pool


@dataclass(frozen=True, kw_only=True)
class Spend(Resolution):
    """Actions spent: ``value`` the cost; ``pool`` what is left."""

    pool: ActionPool


def spend(pool: ActionPool, action: str) -> Spend:
    """Spend actions on *action* (§Actor and actions); the table gives its cost."""
    _pool(pool)
    row = choice("action", action, DATA.table("combat", "actions"), "action")
    cost = row["cost"]
    if pool.available < cost:
        raise RulesError(f"action: {row['label']} costs {plural(cost, 'action')}, but only "
                         f"{pool.available} available")
    left = replace(pool, available=pool.available - cost)
    s = step(f"{row['label']}: {plural(cost, 'action')}" + (f" ({row['note']})" if row["note"]
                                                             else "") +
             f"; {left.available} left", DATA.rule("Actor and actions"), cost=cost)
    return Spend(value=cost, outcome=action, trace=(s,), pool=left)


def can_react(pool: ActionPool, perceives: bool) -> bool:
    """Whether a combatant may react (§Reactions): they perceive the actor and have an action,
    i.e. :func:`_why_not` finds no reason against it."""
    _pool(pool)
    return not _why_not(pool, perceives)


NOT_PERCEIVED = "does not perceive the actor"
NO_ACTION = "has no action left"


@dataclass(frozen=True)
class ReactorVerdict:
    """Whether one would-be reactor may react (§Reactions): ``reacts`` when they perceive the
    actor and have an action; otherwise ``reason`` says why not, in a reader's words
    ("does not perceive the actor" or "has no action left"; empty when they react), and
    ``rule`` is the section that decides it."""

    name: str
    initiative: int
    reacts: bool
    reason: str
    rule: RuleRef


@dataclass(frozen=True, kw_only=True)
class Reactions(Resolution):
    """Who reacts, in order (highest initiative first); each pays one action. ``pools`` are
    the reactors' pools afterwards, in the same order. ``verdicts`` holds one
    :class:`ReactorVerdict` for each would-be reactor, in the order given, those refused
    included. Reactions happen before the action."""

    order: tuple[str, ...]
    pools: tuple[ActionPool, ...]
    verdicts: tuple[ReactorVerdict, ...]

    @property
    def refused(self) -> tuple[ReactorVerdict, ...]:
        """The verdicts of those who cannot react, in the order given."""
        return tuple(v for v in self.verdicts if not v.reacts)


def reactions(reactors: Sequence[tuple[str, int, ActionPool, bool]]) -> Reactions:
    """Resolve who may react to one action (§Reactions).

    *reactors* are (name, initiative, pool, perceives) of everyone who wants to react; one
    reaction each. Those who do not perceive the actor or have no action are refused (named in
    the trace). The rest react in initiative order, each paying one action; in the fiction the
    reactions happen before the action they answer.
    """
    require_list("reactors", reactors, "(name, initiative, pool, perceives)",
                 max_length=MAX_COMBATANTS)
    ref = DATA.rule("Reactions")
    entries = []
    steps = []
    verdicts = []
    seen = set()
    for i, r in enumerate(reactors, start=1):
        if not isinstance(r, tuple) or len(r) != 4:
            raise RulesError(f"reactors: entry {i} must be (name, initiative, pool, perceives), "
                             f"got {shown(r)}")
        name, init, pool, perceives = r
        text(f"reactors: entry {i}: name", name, max_length=MAX_LABEL)
        if name in seen:
            raise RulesError(f"reactors: {name} may react only once to one action")
        seen.add(name)
        require_int(f"reactors: initiative of {name}", init, minimum=0,
                    maximum=MAX_DICE * MAX_TOTAL)
        _pool(pool, f"reactors: {name}")
        why = _why_not(pool, perceives)
        verdicts.append(ReactorVerdict(name, init, not why, why, ref))
        if why:
            steps.append(step(f"{name} cannot react: {why}", ref))
            continue
        entries.append((i, name, init, pool))
    entries.sort(key=lambda e: (-e[2], e[0]))
    pools = tuple(replace(p, available=p.available - 1) for _, _, _, p in entries)
    order = tuple(n for _, n, _, _ in entries)
    if order:
        steps.append(step("React in initiative order: " + ", ".join(
            f"{n} ({init})" for _, n, init, _ in entries) + "; one action each", ref))
        steps.append(step("The reactions are announced after the action but happen before it",
                          ref))
    return Reactions(value=len(order), outcome="reactions" if order else "none",
                     trace=tuple(steps), order=order, pools=pools, verdicts=tuple(verdicts))


def _why_not(pool: ActionPool, perceives: bool) -> str:
    """Why a would-be reactor cannot react (§Reactions), or "" when they can: not perceiving
    the actor is named first, as it rules them out whatever actions they kept."""
    if not flag("perceives", perceives):
        return NOT_PERCEIVED
    return "" if pool.available >= 1 else NO_ACTION


@dataclass(frozen=True, kw_only=True)
class DiceForActions(Resolution):
    """A bonus or destiny die spent on an action: the spender's and the victim's pools."""

    pool: ActionPool
    victim: ActionPool | None


def bonus_die_action(pool: ActionPool) -> DiceForActions:
    """Spend a bonus die for one more action, usable at once, even as a reaction
    (§Bonus dice actions). Spending the die costs no action."""
    _pool(pool)
    new = replace(pool, available=pool.available + 1)
    s = step(f"Bonus die spent: one more action, now {new.available}",
             DATA.rule("Bonus dice actions"))
    return DiceForActions(value=1, outcome="gained", trace=(s,), pool=new, victim=None)


def destiny_die_action(pool: ActionPool, victim: ActionPool) -> DiceForActions:
    """Spend a destiny die to steal an action (§Bonus dice actions): the spender has it at once;
    the victim loses one from this turn (or the next, if it is not theirs), never below 0
    (assumption ``steal_empty``)."""
    _pool(pool)
    _pool(victim, "victim")
    new = replace(pool, available=pool.available + 1)
    taken = replace(victim, available=max(0, victim.available - 1))
    s = step(f"Destiny die spent: an action stolen; spender has {new.available}, the "
             f"opponent {taken.available}", DATA.rule("Bonus dice actions"))
    return DiceForActions(value=1, outcome="stolen", trace=(s,), pool=new, victim=taken)


def movement(kind: str, quickness: int, *, hunkered: bool = False,
             shield_block: bool = False) -> int:
    """Metres moved (§Actor and actions): walk Quickness + 1, run Quickness + 5, crawl
    Quickness ÷ 2 rounded up + 1 (only while Hunkered); halved, rounded down, behind a
    Shield Block (§Shields; rounding is assumption ``half_movement``)."""
    one_of("kind", kind, ("walk", "run", "crawl"))
    q = attribute("quickness", quickness)
    flag("hunkered", hunkered)
    flag("shield_block", shield_block)
    if kind == "crawl":
        if not hunkered:
            raise RulesError("hunkered must be True to crawl, got False")
        metres = math.ceil(q / 2) + 1
    else:
        metres = q + (1 if kind == "walk" else 5)
    return metres // 2 if shield_block else metres
