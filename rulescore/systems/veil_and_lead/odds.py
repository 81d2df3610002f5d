"""Exact odds of The Veil & Lead's rolls: starting ticks, attacks (hit, near miss, damage,
grievous wounds) and stabilisation. Every probability is a ``Fraction``."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ...dice import Distribution
from ...errors import RulesError, require_int, shown
from . import records
from .core import (MAX_POOL, RESIST_TN, margin_distribution, require_attribute,
                   require_skill, starting_tick, sum_distribution)
from .injury import (damage, death_threshold, health_state, stabilization_tn,
                     treatable_grievous)


def starting_tick_distribution(pool: int, roll_bonus: int = 0, *,
                               small_pool: str = "literal") -> dict[tuple[int, str], Fraction]:
    """Exact chance of each (starting tick, state) for an initiative pool of *pool* d8 with
    *roll_bonus* (ambush +2, off-guard −2, …) against TN 11 (§II)."""
    tn = records.settings("timeline", "initiative_roll")["tn"]
    out: dict[tuple[int, str], Fraction] = {}
    for margin, p in margin_distribution(pool, tn, roll_bonus, small_pool=small_pool).items():
        key = starting_tick(margin)
        out[key] = out.get(key, Fraction(0)) + p
    return dict(sorted(out.items()))


@dataclass(frozen=True)
class AttackOdds:
    """Exact odds of one attack set-up.

    ``damage`` is the distribution of damage dealt over every roll (a miss deals 0);
    ``p_grievous`` the chance of a Grievous Wound (5+ damage after armour); ``p_suppressed``
    the chance the target ends Suppressed: a near miss (by 1–2) from gunfire only (§XI
    Suppressed), so 0 for a melee attack."""

    p_hit: Fraction
    p_near_miss: Fraction
    p_grievous: Fraction
    damage: Distribution
    p_suppressed: Fraction


def attack_odds(pool: int, tn: int, wr: int, ar: int = 0, roll_bonus: int = 0, *,
                critical: int = 0, step_modifier: int = 0, damage_bonus: int = 0,
                small_pool: str = "literal", gunfire: bool = True) -> AttackOdds:
    """Exact odds of an attack with *pool* d8 (two highest + *roll_bonus*) against *tn*, dealing
    WR + Steps − AR on a hit (§VI, §VIII, §IX). A near miss Suppresses only when *gunfire*
    (a ranged attack; §XI Suppressed)."""
    if not isinstance(gunfire, bool):
        raise RulesError(f"gunfire must be True or False, got {shown(gunfire)}")
    require_int("wr", wr, minimum=0)
    require_int("ar", ar, minimum=0)
    hit = near = grievous = Fraction(0)
    dealt: dict[int, Fraction] = {}
    for margin, p in margin_distribution(pool, tn, roll_bonus, small_pool=small_pool).items():
        if margin < 0:
            near += p if margin >= -2 else 0
            dealt[0] = dealt.get(0, Fraction(0)) + p
            continue
        hit += p
        d = damage(wr, margin, ar, critical, step_modifier=step_modifier,
                   damage_bonus=damage_bonus)
        dealt[d.value] = dealt.get(d.value, Fraction(0)) + p
        grievous += p if d.grievous else 0
    return AttackOdds(hit, near, grievous, Distribution(tuple(sorted(dealt.items()))),
                      near if gunfire else Fraction(0))


def stabilization_probability(pool: int, vitality: int, *, medical_kit: bool = False,
                              roll_bonus: int = 0, small_pool: str = "literal") -> Fraction:
    """Exact chance that one stabilisation attempt with *pool* d8 succeeds on a patient at
    *vitality* (§X Stabilization; a Medical Kit adds +2)."""
    if not isinstance(medical_kit, bool):
        raise RulesError(f"medical_kit must be True or False, got {shown(medical_kit)}")
    bonus = require_int("roll_bonus", roll_bonus) + (
        records.settings("injury", "stabilization_rules")["medical_kit_bonus"] if medical_kit
        else 0)
    tn = stabilization_tn(vitality)
    return sum((p for m, p in margin_distribution(pool, tn, bonus, small_pool=small_pool).items()
                if m >= 0), Fraction(0))


def first_aid_probability(pool: int, *, roll_bonus: int = 0,
                          small_pool: str = "literal") -> Fraction:
    """Exact chance that First Aid with *pool* d8 succeeds: Medicine against TN 11 (§XIV
    In-Combat Healing)."""
    require_int("pool", pool, minimum=0, maximum=MAX_POOL)
    tn = records.settings("conditions", "rest_rules")["first_aid_tn"]
    return _at_least(pool, tn, require_int("roll_bonus", roll_bonus), small_pool)


def treat_grievous_probability(pool: int, wound: str, *, roll_bonus: int = 0,
                               small_pool: str = "literal") -> Fraction:
    """Exact chance that a Medicine check with *pool* d8 treats the Grievous Wound *wound*
    at its TN (§IX table, §XIV Long Rest): the odds of :func:`treat_grievous`."""
    require_int("pool", pool, minimum=0, maximum=MAX_POOL)
    tn = treatable_grievous(wound).treatment_tn
    return _at_least(pool, tn, require_int("roll_bonus", roll_bonus), small_pool)


def resist_probability(grit: int, resilience: int, *, roll_bonus: int = 0) -> Fraction:
    """Exact chance that GRIT + Resilience d8 resist a Stun (§XI Stunned) or a Heavy Cleave's
    knock-down (§III Heavy Cleave): TN 11."""
    pool = require_attribute("grit", grit) + require_skill("resilience", resilience)
    return _at_least(pool, RESIST_TN, require_int("roll_bonus", roll_bonus))


def grapple_probability(iron: int, brawl: int, defense: int, *, roll_bonus: int = 0) -> Fraction:
    """Exact chance that a Grapple, IRON + Brawl d8 against the target's Defense, takes hold
    (§III Grapple)."""
    pool = require_attribute("iron", iron) + require_skill("brawl", brawl)
    require_int("defense", defense, minimum=0)
    return _at_least(pool, defense, require_int("roll_bonus", roll_bonus))


def _at_least(pool: int, tn: int, roll_bonus: int, small_pool: str = "literal") -> Fraction:
    """The chance a check of *pool* d8 (two highest + *roll_bonus*) reaches *tn*."""
    margins = margin_distribution(pool, tn, roll_bonus, small_pool=small_pool)
    return sum((p for m, p in margins.items() if m >= 0), Fraction(0))


@dataclass(frozen=True)
class DuelOdds:
    """Exact odds of a Duel between two Holds: A first on the higher sum, B first, or equal
    sums (then the higher QUICK goes first, or both at once: assumption duel_ties)."""

    a_first: Fraction
    b_first: Fraction
    equal_sums: Fraction


def duel_odds(pool_a: int, pool_b: int, bonus_a: int = 0, bonus_b: int = 0) -> DuelOdds:
    """Exact chances in an opposed QUICK + Awareness Duel (§XII Duel Resolution)."""
    for name, pool in (("pool_a", pool_a), ("pool_b", pool_b)):
        require_int(name, pool, maximum=MAX_POOL)
    require_int("bonus_a", bonus_a)
    require_int("bonus_b", bonus_b)
    a = sum_distribution(pool_a, bonus_a)
    b = sum_distribution(pool_b, bonus_b)
    wins = losses = ties = Fraction(0)
    for x, p in a.items():
        for y, q in b.items():
            if x > y:
                wins += p * q
            elif x < y:
                losses += p * q
            else:
                ties += p * q
    return DuelOdds(wins, losses, ties)


def rescue_probability(pool: int, vitality: int, iron: int, *, medical_kit: bool = False,
                       roll_bonus: int = 0) -> Fraction:
    """Exact chance that a Downed patient is stabilised before dying, if an ally with *pool*
    dice tries once before each of the patient's start-of-turn losses (§X; assumption
    rescue_timing). Each failed try leaves the patient 1 lower and the next TN 1 higher."""
    if not isinstance(medical_kit, bool):
        raise RulesError(f"medical_kit must be True or False, got {shown(medical_kit)}")
    state = health_state(vitality, iron)
    if state == "Dead":
        return Fraction(0)
    still_bleeding = Fraction(1)
    for v in range(vitality, death_threshold(iron), -1):
        p = stabilization_probability(pool, v, medical_kit=medical_kit, roll_bonus=roll_bonus)
        still_bleeding *= 1 - p
    return 1 - still_bleeding
