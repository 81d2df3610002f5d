"""Between-turn choices and after-care: Reactions, leaving an Engaged enemy, a stray shot among
several allies, laudanum and medical attention (§III Free Reaction, §VII Firing into Melee,
§XI Engaged, §XIV In-Combat Healing and Medical Attention). Numbers live in
``data/reactions.toml``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ...errors import RulesError, require_bool, require_int, shown
from ...trace import Resolution, step
from . import records
from ._system import DATA
from ...dice import DiceSource
from ...dice.source import die_or_draw
from .core import read_die, require_vitality
from .core import vitality as full_vitality
from .timing import MAX_TOKENS

FREE_REACTION = DATA.rule("III Free Reaction")
SURPRISED = DATA.rule("II The Surprised State")
ENGAGED = DATA.rule("XI Engaged")
MULTIPLE_ALLIES = DATA.rule("VII Firing into Melee — Multiple Allies")
IN_COMBAT_HEALING = DATA.rule("XIV In-Combat Healing")
MEDICAL = DATA.rule("XIV Medical Attention")


def reaction_names() -> tuple[str, ...]:
    """The Reactions the chapter names (their own effects live in another chapter)."""
    return tuple(r["reaction"] for r in DATA.table("reactions", "reactions"))


@dataclass(frozen=True, kw_only=True)
class ReactionResolution(Resolution):
    """Whether a Reaction may be declared now. ``value`` is the Mettle left afterwards
    (unchanged when refused); ``allowed`` says whether it happens."""

    allowed: bool


def free_reaction(reaction: str, mettle: int, *, reactions_since_turn: int = 0,
                  surprised: bool = False) -> ReactionResolution:
    """Declare a Reaction outside your turn (§III Free Reaction): it costs no Tempo but Mettle
    (1, assumption reaction_cost), one between two of your turns; a Surprised character may
    not (§II). A Stunned character still may (§XI Stunned)."""
    names = reaction_names()
    if reaction not in names:
        raise RulesError(f"reaction must be one of {', '.join(names)}, got {shown(reaction)}")
    require_int("mettle", mettle, minimum=0)
    require_int("reactions_since_turn", reactions_since_turn, minimum=0)
    require_bool("surprised", surprised)
    rules = records.settings("reactions", "reaction_rules")
    cost, limit = rules["mettle_cost"], rules["per_gap_between_turns"]
    said = step(f"{reaction}: a Reaction costs Tempo {rules['tempo']} and {cost} Mettle",
                FREE_REACTION.citing("reaction_cost"), cost=cost)
    refusal = None
    if surprised:
        refusal = step("Refused: a Surprised character may not spend Mettle on Reactions "
                       "until their first action", SURPRISED)
    elif reactions_since_turn >= limit:
        refusal = step(f"Refused: already {reactions_since_turn} Reaction since your last turn "
                       f"(limit {limit})", FREE_REACTION)
    elif mettle < cost:
        refusal = step(f"Refused: {mettle} Mettle left, the Reaction needs {cost}",
                       FREE_REACTION)
    if refusal is not None:
        return ReactionResolution(value=mettle, outcome="Refused", allowed=False,
                                  trace=(said, refusal))
    left = mettle - cost
    return ReactionResolution(value=left, outcome=reaction, allowed=True, trace=(
        said, step(f"Declared: Mettle {mettle} − {cost} = {left}; no other Reaction until "
                   "your next turn", FREE_REACTION, mettle=left)))


def engaged_ways() -> tuple[str, ...]:
    """The ways of leaving (or acting while) Engaged that the chapter names."""
    return tuple(r["way"] for r in DATA.table("reactions", "engaged_triggers"))


def engaged_exit(way: str) -> Resolution:
    """What an Engaged character's choice gives the enemy at Point Blank (§XI Engaged): moving
    away or shooting lets them spend 1 Mettle for a free melee attack; Disengage, a fighting
    withdrawal, killing them or an ally pulling them off does not. ``value`` is True when the
    enemy may attack."""
    row = DATA.table("reactions", "engaged_triggers").find("way", way) \
        if way in engaged_ways() else None
    if row is None:
        raise RulesError(f"way must be one of {', '.join(engaged_ways())}, got {shown(way)}")
    cost = records.settings("reactions", "engaged_rules")["free_attack_mettle"]
    if row["free_attack"]:
        text = f"{way}: the engaging enemy may spend {cost} Mettle for a free melee attack"
        outcome = "Free attack possible"
    else:
        text = f"{way}: no free attack ({row['note']})"
        outcome = "No free attack"
    return Resolution(value=bool(row["free_attack"]), outcome=outcome,
                      trace=(step(text, ENGAGED),))


def ally_names(allies: Sequence[str]) -> list[str]:
    """The allies in a melee as distinct, non-empty names (§VII Firing into Melee — Multiple
    Allies); a RulesError names what is wrong."""
    if isinstance(allies, str) or not isinstance(allies, Sequence):
        raise RulesError(f"allies must be a list of names, got {shown(allies)}")
    if len(allies) > MAX_TOKENS:
        raise RulesError(f"allies may hold at most {MAX_TOKENS} names, got {len(allies)}")
    names = [a.strip() if isinstance(a, str) else a for a in allies]
    if not names or any(not isinstance(a, str) or not a for a in names):
        raise RulesError(f"allies must be one or more non-empty names, got {shown(list(allies))}")
    if len(set(names)) != len(names):
        raise RulesError(f"allies must be different names, got {shown(names)}")
    return names


def stray_ally(allies: Sequence[str], die: int | None = None, *,
               dice: DiceSource | None = None) -> Resolution:
    """Which ally a stray shot strikes when several are in the melee (§VII Firing into Melee):
    chosen at random, by a die with one face per ally (*die*, or drawn from *dice*), read in
    the order given (assumption stray_ally_die). ``value`` is the ally's name."""
    names = ally_names(allies)
    n = len(names)
    if not (n == 1 and die is None and dice is not None):   # one ally: nothing to roll
        die = die_or_draw("die", die, dice, n, f"the stray shot's d{n}")
    else:
        die = 1
    require_int("die", die)
    if not 1 <= die <= n:
        raise RulesError(f"die must be from 1 to {n} (one face for each of the {n} allies), "
                         f"got {shown(die)}")
    if n == 1:
        return Resolution(value=names[0], outcome=names[0], trace=(
            step(f"Only one ally in the melee: {names[0]} is struck", MULTIPLE_ALLIES),))
    hit = names[die - 1]
    listing = ", ".join(f"{i} {a}" for i, a in enumerate(names, start=1))
    return Resolution(value=hit, outcome=hit, trace=(
        step(f"{n} allies in the melee: roll d{n} ({listing})",
             MULTIPLE_ALLIES.citing("stray_ally_die"), faces=n),
        step(f"d{n} {die}: {hit} is struck", MULTIPLE_ALLIES, die=die)))


def laudanum(d3: int | None, strain: int, *, dice: DiceSource | None = None) -> Resolution:
    """A dose of laudanum (§XIV In-Combat Healing): Tempo 4, clears 1d3 Strain (never below 0);
    a consumable, and addictive. *d3* is the die rolled (or give *dice*, a DiceSource).
    ``value`` is the Strain left."""
    rules = records.settings("reactions", "laudanum")
    require_int("strain", strain, minimum=0)
    d3 = read_die("d3", d3, dice, rules["strain_die"])
    left = max(strain - d3, 0)
    return Resolution(value=left, outcome="Laudanum", trace=(
        step(f"Laudanum takes Tempo {rules['tempo']}; it is used up, and addictive",
             IN_COMBAT_HEALING, tempo=rules["tempo"]),
        step(f"1d{rules['strain_die']} = {d3}: Strain {strain} − {d3} = {left}"
             + (" (never below 0)" if strain < d3 else ""), IN_COMBAT_HEALING, strain=left)))


def medical_attention(vitality: int, iron: int, hours: int, *,
                      grievous_wounds: int = 0) -> Resolution:
    """Professional care (§XIV Medical Attention): full HP after 24–48 hours under care —
    24 with no Grievous Wound, 48 with any, which that treatment then clears (assumption
    medical_hours); it costs §50–200 by severity and place (the GM's call). ``value`` is the
    Vitality after ``hours`` of care."""
    full = full_vitality(iron)
    require_vitality(vitality, iron)
    require_int("hours", hours, minimum=0)
    require_int("grievous_wounds", grievous_wounds, minimum=0)
    rules = records.settings("reactions", "medical_attention")
    needed = rules["max_hours"] if grievous_wounds else rules["min_hours"]
    cost = f"§{rules['min_cost']}–{rules['max_cost']}"
    plan = step(f"Under a doctor's care: full HP after {needed} hours "
                f"({'with' if grievous_wounds else 'without'} Grievous Wounds); cost {cost} by "
                "severity and place", MEDICAL.citing("medical_hours"), hours=needed)
    if hours < needed:
        return Resolution(value=vitality, outcome="Under care", trace=(
            plan, step(f"{hours} of {needed} hours so far: still {vitality} HP", MEDICAL)))
    cleared = (f"; {grievous_wounds} Grievous Wound{'s' if grievous_wounds != 1 else ''} "
               "treated and cleared") if grievous_wounds else ""
    return Resolution(value=full, outcome="Recovered", trace=(
        plan, step(f"{hours} hours: back to full Vitality {full}{cleared}", MEDICAL,
                   vitality=full)))
