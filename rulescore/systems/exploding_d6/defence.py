"""After the hit roll: cover rolls, shields, the protection pool, wounds, dodge and parry."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from rulescore.errors import RulesError, require_int, require_list, shown
from rulescore.trace import Resolution, Step, step
from rulescore.errors import require_bool as flag, require_choice as one_of, require_row as choice

from ._system import DATA
from rulescore.dice import DiceSource

from .inputs import (MAX_DICE, Chains, attribute, count, d6_faces, die_totals, drawn_chains,
                     drawn_faces, finished, per_hit, plural, threshold)

PREVENT = ("heaviest", "lightest")


def cover_levels() -> tuple[int, ...]:
    """The cover values there are (4+, 5+, 6+), from the data."""
    return tuple(r["threshold"] for r in DATA.table("combat", "cover_levels"))


def _cover(value: int) -> int:
    levels = cover_levels()
    if isinstance(value, bool) or value not in levels:
        raise RulesError(f"cover must be one of {', '.join(f'{c}+' for c in levels)} "
                         f"(written {', '.join(map(str, levels))}), got {shown(value)}")
    return value


def _extras(criticals: int, critical_extras: Sequence[int] | None) -> tuple[int, ...]:
    if critical_extras is None:
        return (0,) * criticals
    extras = require_list("critical_extras", critical_extras, "whole numbers",
                          max_length=2 * MAX_DICE)
    for i, e in enumerate(extras, start=1):
        require_int(f"critical_extras: critical {i}", e, minimum=0, maximum=100)
    if len(extras) != criticals:
        raise RulesError(f"critical_extras must hold one entry a critical ({criticals}), "
                         f"got {len(extras)}")
    return extras


def _remove(extras: tuple[int, ...], n: int, prevent: str) -> tuple[int, ...]:
    """Remove *n* criticals: the heaviest (most extra wounds) or the lightest first."""
    ordered = sorted(extras, reverse=prevent == "heaviest")
    return tuple(sorted(ordered[n:], reverse=True))


@dataclass(frozen=True, kw_only=True)
class CoverRoll(Resolution):
    """Hits left after a cover roll. ``value`` = hits + criticals left."""

    hits: int
    criticals: int
    critical_extras: tuple[int, ...]
    prevented_hits: int
    prevented_criticals: int


def cover_roll(hits: int, criticals: int, normal_faces: Sequence[int] = (),
               critical_faces: Sequence[int] = (), cover: int = 5, *,
               critical_extras: Sequence[int] | None = None,
               prevent: str = "heaviest", dice: DiceSource | None = None) -> CoverRoll:
    """A cover roll (§Cover, §Critical hits): one d6 a hit; each die at the cover value or
    higher removes one hit. Criticals are rolled for apart from normal hits. Which criticals
    are removed first is assumption ``prevent_order`` (the heaviest, by default). With *dice*
    (a DiceSource) the faces are drawn from it, the criticals' first."""
    hits = count("hits", hits)
    criticals = count("criticals", criticals)
    critical_faces = drawn_faces("critical_faces", critical_faces, dice, criticals,
                                 "critical's cover die")
    normal_faces = drawn_faces("normal_faces", normal_faces, dice, hits, "cover die")
    finished(dice, "cover roll")
    cover = _cover(cover)
    one_of("prevent", prevent, PREVENT)
    extras = _extras(criticals, critical_extras)
    nf = d6_faces("normal_faces", normal_faces, expected=hits)
    cf = d6_faces("critical_faces", critical_faces, expected=criticals)
    ref = DATA.rule("Cover")
    stop_n = sum(1 for f in nf if f >= cover)
    stop_c = sum(1 for f in cf if f >= cover)
    left = _remove(extras, stop_c, prevent)
    steps: list[Step] = []
    if criticals:
        steps.append(step(f"Cover {cover}+ against {plural(criticals, 'critical hit')}: rolled "
                          f"{', '.join(map(str, cf))}: {stop_c} stopped", ref,
                          prevented=stop_c))
    steps.append(step(f"Cover {cover}+ against {plural(hits, 'normal hit')}: rolled "
                      f"{', '.join(map(str, nf)) or 'nothing'}: {stop_n} stopped", ref,
                      prevented=stop_n))
    if stop_c and any(extras):
        steps.append(step(f"The {prevent} criticals are stopped first; the criticals left add "
                          f"{sum(left)} extra wound(s)", DATA.rule("Megacritical hits"),
                          extra_wounds=sum(left)))
    h, c = hits - stop_n, criticals - stop_c
    steps.append(step(f"Left after cover: {plural(c, 'critical')}, {plural(h, 'normal hit')}",
                      ref, hits=h, criticals=c))
    return CoverRoll(value=h + c, outcome="all stopped" if h + c == 0 else "hits left",
                     trace=tuple(steps), hits=h, criticals=c, critical_extras=left,
                     prevented_hits=stop_n, prevented_criticals=stop_c)


def shield_cover(shield: str = "round shield") -> int:
    """The cover value of a shield (§Shields): a round shield gives 5+."""
    return choice("shield", shield, DATA.table("combat", "shields"), "shield")["cover"]


@dataclass(frozen=True, kw_only=True)
class ShieldUse(Resolution):
    """How a shield is used: ``value`` = its cover value; the actions it costs, when, and
    what happens to the bearer's movement."""

    cover: int
    actions: int
    reaction: bool
    movement_factor: float


def shield_use(use: str, shield: str = "round shield", *, one_handed_weapon: bool = True,
               actions_left: int | None = None) -> ShieldUse:
    """Shield Block or Shield Parry (§Shields). Only beside a one-handed weapon. A block costs
    two actions in one's own turn, covers every attack from the next round on and halves
    movement; a parry costs one action as a reaction and covers one attack."""
    row = choice("use", use, DATA.table("combat", "shield_uses"), "use")
    cover = shield_cover(shield)
    if not flag("one_handed_weapon", one_handed_weapon):
        raise RulesError("one_handed_weapon must be True: a shield is used only beside a "
                         "one-handed weapon, got False")
    if actions_left is not None:
        left = count("actions_left", actions_left)
        if left < row["actions"]:
            raise RulesError(f"actions_left must be at least {row['actions']} for a "
                             f"{row['label']}, got {left}")
    ref = DATA.rule("Shields")
    block = use == "block"
    steps = (step(f"{row['label']} with a {shield}: cover {cover}+ ({row['lasts']})", ref,
                  cover=cover),
             step(f"Costs {plural(row['actions'], 'action')} {row['when']}", ref,
                  actions=row["actions"]))
    return ShieldUse(value=cover, outcome=use, trace=steps, cover=cover,
                     actions=row["actions"], reaction=not block,
                     movement_factor=0.5 if block else 1.0)


def protection_use(hits: int, criticals: int, pool: int, critical_pool: int, piercing: int,
                   limit: int) -> tuple[int, int, int]:
    """Units used (ordinary on hits, critical on criticals, critical on hits), at most *limit*:
    ordinary units go to normal hits first, critical units to criticals, and what is left of
    the critical units to normal hits still standing. Inputs are trusted (already checked)."""
    on_hits = min(hits, max(0, pool - critical_pool - piercing), limit)
    limit -= on_hits
    on_crits = min(criticals, critical_pool, limit)
    limit -= on_crits
    extra = min(hits - on_hits, critical_pool - on_crits, limit)
    return on_hits, on_crits, extra


@dataclass(frozen=True, kw_only=True)
class Protection(Resolution):
    """Hits left after protection. ``value`` = hits + criticals left; ``spent`` units used;
    ``pool_left`` and ``critical_pool_left`` what remains of the pool."""

    hits: int
    criticals: int
    critical_extras: tuple[int, ...]
    spent: int
    pool_left: int
    critical_pool_left: int


def protection(hits: int, criticals: int, pool: int, critical_pool: int = 0, *,
               critical_extras: Sequence[int] | None = None, piercing: int = 0,
               spend: int | None = None, prevent: str = "heaviest") -> Protection:
    """Spend protection from the pool (§Protection Pool, §Wounds and Piercing).

    One unit stops one hit. Ordinary armour cannot stop criticals; the *critical_pool* units
    (armour of the type 'protection against critical hits', part of *pool*) can stop either
    (assumption ``critical_protection``). Piercing lowers the ordinary units usable against
    this attack (assumption ``piercing``). *spend* caps the units the defender chooses to use;
    by default as many as help.
    """
    hits = count("hits", hits)
    criticals = count("criticals", criticals)
    pool = require_int("pool", pool, minimum=0, maximum=200)
    cpool = require_int("critical_pool", critical_pool, minimum=0, maximum=pool)
    pierce = require_int("piercing", piercing, minimum=0, maximum=50)
    one_of("prevent", prevent, PREVENT)
    extras = _extras(criticals, critical_extras)
    budget = None if spend is None else require_int("spend", spend, minimum=0, maximum=pool)
    usable_ordinary = max(0, pool - cpool - pierce)
    ref = DATA.rule("Protection Pool")
    steps: list[Step] = [step(f"Protection pool {pool} ({cpool} of it against criticals)"
                              + (f"; Piercing {pierce}: {usable_ordinary} ordinary units usable"
                                 if pierce else ""), ref, pool=pool)]
    used_o, used_c_on_crit, used_c_on_hit = protection_use(
        hits, criticals, pool, cpool, pierce, pool if budget is None else budget)
    h = hits - used_o - used_c_on_hit
    left = _remove(extras, used_c_on_crit, prevent)
    c = criticals - used_c_on_crit
    spent = used_o + used_c_on_crit + used_c_on_hit
    if criticals:
        steps.append(step(f"Criticals ignore ordinary armour: {used_c_on_crit} of "
                          f"{criticals} stopped by protection against critical hits",
                          DATA.rule("Critical hits"), prevented=used_c_on_crit))
    steps.append(step(f"{used_o + used_c_on_hit} of {plural(hits, 'normal hit')} stopped, "
                      f"one unit each", DATA.rule("Wounds and Piercing"),
                      prevented=used_o + used_c_on_hit))
    steps.append(step(f"Spent {spent} unit(s); {pool - spent} left in the pool for this fight",
                      ref, spent=spent))
    return Protection(value=h + c, outcome="all stopped" if h + c == 0 else "hits left",
                      trace=tuple(steps), hits=h, criticals=c, critical_extras=left,
                      spent=spent, pool_left=pool - spent,
                      critical_pool_left=cpool - used_c_on_crit - used_c_on_hit)


@dataclass(frozen=True, kw_only=True)
class Wounds(Resolution):
    """Wounds taken: ``value``."""

    hits: int
    extra_wounds: int


def wounds(hits: int, criticals: int = 0, extra_wounds: int = 0,
           wounds_per_hit: int = 1) -> Wounds:
    """Hits that got through become wounds (§Wounds and Piercing, §Wounds): each hit, normal
    or critical, deals the weapon's wounds (1 unless stated), and megacriticals add theirs."""
    hits = count("hits", hits)
    criticals = count("criticals", criticals)
    extra = require_int("extra_wounds", extra_wounds, minimum=0, maximum=1000)
    per = per_hit("wounds_per_hit", wounds_per_hit)
    if extra and not criticals:
        raise RulesError(f"extra_wounds must be 0 when no critical got through, got {extra}")
    total = (hits + criticals) * per + extra
    steps = (step(f"{hits + criticals} hit(s) through × {per} wound(s) a hit"
                  + (f" + {extra} from megacriticals" if extra else "") + f" = {total}",
                  DATA.rule("Wounds and Piercing"), wounds=total),
             step(f"{plural(total, 'wound')} added to the wounds already taken",
                  DATA.rule("Wounds")))
    return Wounds(value=total, outcome="wounded" if total else "unhurt", trace=steps,
                  hits=hits + criticals, extra_wounds=extra)


def dodge_value(lineage_dodge: int, quickness: int, deftness: int, load: int = 0,
                template: int = 0) -> int:
    """The Dodge value (§Dodge): the lineage's dodge + the average of Quickness and Deftness
    rounded up, less the load of armour and weapons, plus template changes; never below 0."""
    ld = attribute("lineage_dodge", lineage_dodge)
    q = attribute("quickness", quickness)
    d = attribute("deftness", deftness)
    ld_load = require_int("load", load, minimum=0, maximum=40)
    t = require_int("template", template, minimum=-40, maximum=40)
    return max(0, ld + -(-(q + d) // 2) - ld_load + t)


@dataclass(frozen=True, kw_only=True)
class Dodge(Resolution):
    """A dodge: ``value`` successes; ``dodged`` whether the whole attack is avoided."""

    dodged: bool
    min_roll: int


def dodge(dice_totals: Sequence[int] | int, attacker_hits: int, min_roll: int = 5, *,
          mode: str = "melee", perceives: bool = True,
          dice: DiceSource | None = None) -> Dodge:
    """Dodge a melee attack as a reaction (§Dodge): roll the Dodge value; the minimum roll
    rises by the attacker's hits (criticals included, assumption ``dodge_hits``); one success
    avoids the whole attack. An attack the dodger cannot perceive cannot be dodged. With
    *dice* (a DiceSource), *dice_totals* is the Dodge value, the dice drawn from it."""
    totals, _ = drawn_chains("dice_totals", dice_totals, dice)
    finished(dice, "dodge")
    totals = die_totals("dice_totals", totals)
    hits = count("attacker_hits", attacker_hits)
    base = threshold("min_roll", min_roll)
    row = choice("mode", mode, DATA.table("combat", "attack_modes"), "mode")
    if not row["dodge"]:
        raise RulesError(f"mode must be a melee attack to dodge it, got {shown(mode)}")
    if not flag("perceives", perceives):
        raise RulesError("perceives must be True: an attack the defender cannot sense "
                         "(from behind) cannot be dodged, got False")
    need = base + hits
    successes = sum(1 for t in totals if t >= need)
    ref = DATA.rule("Dodge")
    steps = (step(f"Minimum roll {base}+ raised by the attacker's {plural(hits, 'hit')}: "
                  f"{need}+", ref, min_roll=need),
             step(f"Rolled {', '.join(map(str, totals)) or 'nothing'}: "
                  f"{plural(successes, 'success', 'successes')}", ref, successes=successes),
             step("Dodged: the whole attack misses" if successes else
                  "Not dodged: every hit stands", ref))
    return Dodge(value=successes, outcome="dodged" if successes else "hit", trace=steps,
                 dodged=successes > 0, min_roll=need)


@dataclass(frozen=True, kw_only=True)
class Parry(Resolution):
    """A parry: ``value`` successes; the hits and criticals left."""

    hits: int
    criticals: int
    prevented: int


def parry(dice_totals: Sequence[int] | int, hits: int, criticals: int = 0,
          min_roll: int = 5, *, mode: str = "melee", dice: DiceSource | None = None) -> Parry:
    """Parry a melee attack as a reaction (§Parry melee attacks): roll the parrying weapon as if
    attacking; each success removes one normal hit. Criticals always get through. With *dice*
    (a DiceSource), *dice_totals* is how many dice the parry rolls, drawn from it."""
    totals, _ = drawn_chains("dice_totals", dice_totals, dice)
    finished(dice, "parry")
    totals = die_totals("dice_totals", totals)
    hits = count("hits", hits)
    criticals = count("criticals", criticals)
    base = threshold("min_roll", min_roll)
    row = choice("mode", mode, DATA.table("combat", "attack_modes"), "mode")
    if not row["parry"]:
        raise RulesError(f"mode must be a melee attack to parry it, got {shown(mode)}")
    successes = sum(1 for t in totals if t >= base)
    stopped = min(successes, hits)
    ref = DATA.rule("Parry melee attacks")
    steps = (step(f"Parry roll {', '.join(map(str, totals)) or 'nothing'} on {base}+: "
                  f"{plural(successes, 'success', 'successes')}", ref, successes=successes),
             step(f"{stopped} of {plural(hits, 'normal hit')} parried"
                  + (f"; {plural(criticals, 'critical')} cannot be parried" if criticals
                     else ""), ref, prevented=stopped))
    return Parry(value=successes, outcome="parried" if stopped == hits and not criticals
                 else "hits left", trace=steps, hits=hits - stopped, criticals=criticals,
                 prevented=stopped)


REACTIONS = ("dodge", "parry", "shield parry")


@dataclass(frozen=True, kw_only=True)
class ReactionResult(Resolution):
    """A reaction's outcome: ``value`` the hits left; ``hits`` and ``criticals`` apart."""

    hits: int
    criticals: int
    chains: Chains = ()   # the reaction's dice as rolled, when drawn from a DiceSource


def reaction(kind: str, dice: Sequence[int] | DiceSource, hits: int, criticals: int = 0,
             min_roll: int = 5, shield: str = "round shield", *,
             pool: int | None = None) -> ReactionResult:
    """Resolve a defensive reaction to a melee attack's hits (§Reactions): ``"dodge"`` (dice
    are the Dodge dice' totals), ``"parry"`` (the parrying weapon's dice totals) or
    ``"shield parry"`` (plain d6, one a critical first, then one a normal hit). The result's
    ``value`` is the hits left, normal and critical together.

    *dice* may be a DiceSource to draw them from: a dodge or a parry rolls *pool* exploding
    d6 (the Dodge value or the parrying dice), a shield parry one d6 a hit."""
    one_of("kind", kind, REACTIONS)
    hits = count("hits", hits)
    criticals = count("criticals", criticals)
    if hits + criticals > MAX_DICE:
        raise RulesError(f"hits and criticals must add up to at most {MAX_DICE}, "
                         f"got {hits + criticals}")
    threshold("min_roll", min_roll)
    use = shield_use("parry", shield)
    chains: Chains = ()
    if isinstance(dice, DiceSource):
        source = dice
        if kind == "shield parry":
            dice = source.dice(hits + criticals, 6, "shield die")
            chains = tuple((f,) for f in dice)
        else:
            dice, chains = drawn_chains("pool", pool, source)
        source.finish(kind)
    elif pool is not None:
        raise RulesError("pool and dice are both given: pool counts the dice to draw from a "
                         f"DiceSource, but dice holds the values, got pool={shown(pool)}")
    # The dice under this function's name, before dodge() or parry() reads them.
    if kind == "shield parry":
        d6_faces("dice", dice, expected=hits + criticals)
    else:
        die_totals("dice", dice)
    if kind == "dodge":
        r = dodge(dice, hits + criticals, min_roll)
        left = 0 if r.dodged else hits + criticals
        return ReactionResult(value=left, outcome=r.outcome, trace=r.trace,
                              hits=0 if r.dodged else hits,
                              criticals=0 if r.dodged else criticals, chains=chains)
    if kind == "parry":
        p = parry(dice, hits, criticals, min_roll)
        return ReactionResult(value=p.hits + p.criticals, outcome=p.outcome, trace=p.trace,
                              hits=p.hits, criticals=p.criticals, chains=chains)
    faces = d6_faces("dice", dice, expected=hits + criticals)
    c = cover_roll(hits, criticals, faces[criticals:], faces[:criticals], use.cover)
    return ReactionResult(value=c.value, outcome=c.outcome, trace=use.trace + c.trace,
                          hits=c.hits, criticals=c.criticals, chains=chains)
