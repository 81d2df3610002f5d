"""The hit roll: compounding d6 totals against a minimum roll, criticals and megacriticals,
recoil, aiming, the accurate attack, attack modes and the wrong distance.

Dice are inputs: each entry of ``dice_totals`` is one die's whole chain added up (4, 5, 1 and
6+6+5 = 17 are the totals of four dice).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from rulescore.errors import RulesError, require_int, require_list, shown
from rulescore.trace import Resolution, Step, step
from rulescore.errors import require_bool as flag, require_choice as one_of, require_row as choice

from ._system import DATA
from rulescore.dice import DiceSource

from .inputs import (Chains, attribute, count, d6_faces, die_totals, drawn_chains, finished,
                     plural, threshold)

BASE_MIN_ROLL = 5
BASE_CRIT_AT = 11
MODES = ("melee", "single", "burst", "throw")
SPECIALS = ("none", "ko", "massive", "disarm")


def _band_constants() -> tuple[int, int, int]:
    """Base minimum roll, base critical threshold and the megacritical step, from the data."""
    bands = DATA.table("combat", "hit_bands")
    hit = next(r for r in bands if r["result"] == "hit").span.low
    crit = next(r for r in bands if r["result"] == "critical").span.low
    mega = next(r for r in bands if r["result"] == "megacritical").span.low
    return hit, crit, mega - crit


def megacritical_step() -> int:
    """Points a die must go past the critical threshold for each extra wound (6, from data)."""
    return _band_constants()[2]


def classify(total: int, min_roll: int = BASE_MIN_ROLL, crit_at: int = BASE_CRIT_AT,
             *, criticals: bool = True) -> tuple[str, int]:
    """What one die of a hit roll scores (§Critical hits, §Megacritical hits).

    Returns ``("miss" | "hit" | "critical" | "megacritical", extra_wounds)``. A die must reach
    the minimum roll to hit at all; a hit that reaches ``crit_at`` is critical, and every
    further 6 points (17, 23, 29 … at the base threshold) make it megacritical with one more
    wound. With ``criticals=False`` (a burst) every hit is a normal hit.
    """
    total = threshold("total", total)
    min_roll = threshold("min_roll", min_roll)
    crit_at = threshold("crit_at", crit_at)
    flag("criticals", criticals)
    if total < min_roll:
        return "miss", 0
    if not criticals or total < crit_at:
        return "hit", 0
    extra = (total - crit_at) // megacritical_step()
    return ("megacritical" if extra else "critical"), extra


@dataclass(frozen=True, kw_only=True)
class HitRoll(Resolution):
    """A resolved hit roll. ``value`` is every hit; ``hits`` the normal ones, ``criticals`` the
    critical ones (megacriticals included), ``extra_wounds`` what megacriticals add, and
    ``critical_extras`` the extra wounds of each critical, heaviest first."""

    hits: int
    criticals: int
    extra_wounds: int
    megacriticals: int
    critical_extras: tuple[int, ...]
    dice: tuple[tuple[int, str, int], ...]   # (total, class, extra wounds) per die
    min_roll: int
    crit_at: int
    burst: bool
    chains: Chains = ()   # the dice as rolled, when they were drawn from a DiceSource

    @property
    def announcement(self) -> str:
        """How the seed announces it: '2 crits, 3 normal hits'."""
        return announce(self.hits, self.criticals)


def announce(hits: int, criticals: int) -> str:
    """'1 crit, 2 normal hits', 'no hits'."""
    hits, criticals = count("hits", hits), count("criticals", criticals)
    if not hits and not criticals:
        return "no hits"
    parts = []
    if criticals:
        parts.append(plural(criticals, "crit"))
    if hits or not criticals:
        parts.append(plural(hits, "normal hit"))
    return ", ".join(parts)


def hit_roll(dice_totals: Sequence[int] | int, min_roll: int = BASE_MIN_ROLL,
             crit_at: int = BASE_CRIT_AT, burst: bool = False, *,
             dice: DiceSource | None = None) -> HitRoll:
    """Score a hit roll die by die (§The hit roll, §Critical hits, §Megacritical hits).

    Each die that reaches ``min_roll`` is a hit; criticals are counted apart from normal hits,
    as they are announced apart. A burst (``burst=True``) never scores criticals (§Burst).
    With *dice* (a DiceSource), *dice_totals* is how many dice to roll, drawn from it.
    """
    result = scored_hits(*drawn_chains("dice_totals", dice_totals, dice), min_roll, crit_at,
                         burst)
    finished(dice, "hit roll")
    return result


def scored_hits(dice_totals: Sequence[int], chains: Chains, min_roll: int, crit_at: int,
                burst: bool) -> HitRoll:
    """:func:`hit_roll` on the dice's totals (and their *chains*, when they were drawn)."""
    totals = die_totals("dice_totals", dice_totals)
    min_roll = threshold("min_roll", min_roll)
    crit_at = threshold("crit_at", crit_at)
    flag("burst", burst)
    ref = DATA.rule("The hit roll")
    rolled = ", ".join(chain_text(c) for c in chains) if chains else \
        (", ".join(map(str, totals)) or "none")
    steps: list[Step] = [step(f"Rolled {plural(len(totals), 'die', 'dice')}: {rolled} "
                              "(each die's chain added up)", ref, dice=len(totals))]
    if burst:
        steps.append(step("Burst: no die can be critical", DATA.rule("Burst")))
        limit = f"hit on {min_roll}+"
    else:
        limit = f"hit on {min_roll}+, critical on {crit_at}+"
    classes = [(t, *classify(t, min_roll, crit_at, criticals=not burst)) for t in totals]
    hits = sum(1 for _, c, _ in classes if c == "hit")
    extras = sorted((e for _, c, e in classes if c in ("critical", "megacritical")), reverse=True)
    mega = sum(1 for e in extras if e)
    steps.append(step(f"Each die: {limit}: " + ", ".join(
        f"{t} {c}" + (f" (+{e} wound{'s' if e > 1 else ''})" if e else "")
        for t, c, e in classes), ref, min_roll=min_roll, crit_at=crit_at))
    if extras:
        steps.append(step(f"{plural(len(extras), 'critical hit')} (ignore ordinary armour)"
                          + (f", {mega} of them megacritical for {sum(extras)} extra "
                             f"wound{'s' if sum(extras) != 1 else ''}" if mega else ""),
                          DATA.rule("Megacritical hits" if mega else "Critical hits"),
                          criticals=len(extras), extra_wounds=sum(extras)))
    text = announce(hits, len(extras))
    steps.append(step(f"Announced: {text}", DATA.rule("Critical hits"), hits=hits,
                      criticals=len(extras)))
    outcome = "miss" if not hits and not extras else ("critical" if extras else "hit")
    return HitRoll(value=hits + len(extras), outcome=outcome, trace=tuple(steps), hits=hits,
                   criticals=len(extras), extra_wounds=sum(extras), megacriticals=mega,
                   critical_extras=tuple(extras),
                   dice=tuple((t, c, e) for t, c, e in classes), min_roll=min_roll,
                   crit_at=crit_at, burst=burst, chains=chains)


def chain_text(chain: Sequence[int]) -> str:
    """One exploding die as a reader follows it: "6→6→3 = 15", or just "4"."""
    return f"{'→'.join(map(str, chain))} = {sum(chain)}" if len(chain) > 1 else str(chain[0])


def chain_total(chain: Sequence[int]) -> int:
    """Add up one compounding d6's chain: every face but the last is a 6 (6, 6, 5 -> 17)."""
    faces = d6_faces("chain", chain)
    if not faces:
        raise RulesError("chain is empty: type the faces of one die, e.g. 6, 6, 5")
    if any(f != 6 for f in faces[:-1]) or faces[-1] == 6:
        raise RulesError(f"chain must be sixes ending in a face below 6, got "
                         f"{', '.join(map(str, faces))}")
    return sum(faces)


def chains_from_faces(faces: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Split faces typed in rolling order into chains: 4, 6, 6, 5, 2 -> (4), (6, 6, 5), (2)."""
    values = d6_faces("faces", faces)
    chains: list[tuple[int, ...]] = []
    current: list[int] = []
    for f in values:
        current.append(f)
        if f != 6:
            chains.append(tuple(current))
            current = []
    if current:
        raise RulesError("faces end on a 6: that die explodes, so type the next roll of its chain")
    return tuple(chains)


def recoil_malus(attack_number: int, compensation: int = 0) -> int:
    """Recoil (§Recoil): added to the minimum roll and the critical threshold of the
    *attack_number*-th attack in a row this round. The first attack has none; each further one
    adds 2 less the weapon's compensation (compensation 2 or more removes recoil)."""
    n = require_int("attack_number", attack_number, minimum=1, maximum=MAX_ATTACKS)
    comp = require_int("compensation", compensation, minimum=0, maximum=10)
    per = DATA.table("combat", "hit_modifiers").find("modifier", "recoil")["min_roll"]
    return max(0, per - comp) * (n - 1)


MAX_ATTACKS = 20


def round_recoil(actions: Sequence[str], compensation: int = 0,
                 recoil: bool = True) -> tuple[int, ...]:
    """Recoil malus of each action of one character's round (§Recoil).

    *actions* are words in order, ``"attack"`` for an attack with the weapon and anything else
    for another action, which breaks the run. Weapons without recoil (bows) pass
    ``recoil=False``. Recoil never carries into the next round: call this once a round.
    """
    acts = require_list("actions", actions, "action words", max_length=MAX_ATTACKS)
    flag("recoil", recoil)
    out, run = [], 0
    for i, a in enumerate(acts, start=1):
        if not isinstance(a, str) or not a:
            raise RulesError(f"actions: entry {i} must be a word such as 'attack', got {shown(a)}")
        if a == "attack":
            run += 1
            out.append(recoil_malus(run, compensation) if recoil else 0)
        else:
            run = 0
            out.append(0)
    return tuple(out)


def attack_mode(mode: str) -> dict[str, Any]:
    """The row of the attack-modes table for *mode* (§Attack modes): extra dice, ammunition,
    whether it can be parried or dodged, cause criticals, or be aimed."""
    return choice("mode", mode, DATA.table("combat", "attack_modes"), "mode").as_dict()


def aim_bonus(aim_actions: int, perception: int, mode: str = "melee",
              interrupted: bool = False) -> int:
    """How far aiming lowers the critical threshold of the next attack (§Aiming).

    2 a point per action, never more than Perception (assumption ``aim_cap``); none in burst or
    throwing, and none if the aimer was hit while aiming.
    """
    n = count("aim_actions", aim_actions)
    per = -DATA.table("combat", "hit_modifiers").find("modifier", "aim")["crit_at"]
    cap = attribute("perception", perception)
    flag("interrupted", interrupted)
    if n and not attack_mode(mode)["aim"]:
        raise RulesError(f"aim_actions must be 0 for a {mode} attack: it cannot be aimed, "
                         f"got {n}")
    return 0 if interrupted else min(per * n, cap)


def accurate_min_roll(min_roll: int, actions: int, perception: int) -> int:
    """The minimum roll after an accurate attack (§Accurate Attack): 1 lower an action spent,
    by at most Perception, and never below 2."""
    base = threshold("min_roll", min_roll)
    n = count("actions", actions)
    cap = attribute("perception", perception)
    return max(min(2, base), base - min(n, cap))


#: Metres, for a target's distance and a weapon's range: past any battlefield.
MAX_DISTANCE = 100_000


def distance_penalty(distance: int, weapon_range: int) -> int | None:
    """Extra minimum roll for the target's distance (optional §Hit rolls for incorrect distance):
    0 up to the weapon's distance, +2 up to twice it, ``None`` beyond (no attack possible)."""
    d = require_int("distance", distance, minimum=0, maximum=MAX_DISTANCE)
    r = require_int("weapon_range", weapon_range, minimum=1, maximum=MAX_DISTANCE)
    rows = DATA.table("combat", "distance").rows
    if d <= r:
        return rows[0]["min_roll"]
    if d <= 2 * r:
        return rows[1]["min_roll"]
    return None


@dataclass(frozen=True, kw_only=True)
class AttackSetup(Resolution):
    """Everything fixed before the dice of an attack are rolled: ``value`` is the number of
    dice; ``min_roll``, ``crit_at`` and ``burst`` go to :func:`hit_roll`."""

    dice: int
    min_roll: int
    crit_at: int
    burst: bool
    ammunition: int
    can_parry: bool
    can_dodge: bool
    wounds: bool
    #: True when aiming before this shot broke a run of shots that would have had recoil.
    recoil_broken: bool = False


def _mod(name: str) -> int:
    return DATA.table("combat", "hit_modifiers").find("modifier", name)["min_roll"]


def attack_setup(skill: int, weapon_dice: int, mode: str = "melee", *,
                 min_roll: int = BASE_MIN_ROLL, attack_number: int = 1, compensation: int = 0,
                 aim_actions: int = 0, accurate_actions: int = 0, perception: int = 0,
                 walking: bool = False, distance: int | None = None,
                 weapon_range: int | None = None, supported: bool = False,
                 off_hand: bool = False, special: str = "none", massive_actions: int = 0,
                 strength: int = 0, recoil: bool = True,
                 aim_interrupted: bool = False) -> AttackSetup:
    """Assemble an attack (§Sequence of an attack, §The hit roll and the sections it cites):
    dice = skill + weapon dice (+2 burst, +3 an action of a massive attack up to Strength);
    the minimum roll and critical threshold after recoil, aiming, walking, distance, support,
    the off hand and the accurate or disarming attack. Recoil counts only for shots
    (assumption ``recoil_scope``; ``recoil=False`` for a weapon without it, such as a bow).
    *attack_number* counts the shots this round; aim or accurate-attack actions spent on this
    shot come between it and the one before, so they break the run and it has no recoil.
    *aim_interrupted*: the aimer was hit while aiming, so the aim is lost (§Aiming)."""
    skill = attribute("skill", skill)
    weapon = attribute("weapon_dice", weapon_dice)
    row = attack_mode(mode)
    base = threshold("min_roll", min_roll)
    # Inputs only some attacks read are still checked, under the names given here.
    count("accurate_actions", accurate_actions)
    count("aim_actions", aim_actions)
    count("massive_actions", massive_actions)
    attribute("perception", perception)
    attribute("strength", strength)
    for name, value in (("walking", walking), ("supported", supported), ("off_hand", off_hand),
                        ("recoil", recoil), ("aim_interrupted", aim_interrupted)):
        flag(name, value)
    special = one_of("special", special, SPECIALS)
    steps = [step(f"Dice: skill {skill} + weapon {weapon}", DATA.rule("The hit roll"),
                  skill=skill, weapon_dice=weapon)]
    dice = skill + weapon
    if row["extra_dice"]:
        dice += row["extra_dice"]
        steps.append(step(f"{row['label']}: +{row['extra_dice']} dice", DATA.rule("Burst"),
                          extra=row["extra_dice"]))
    if special == "massive":
        extra = massive_dice(massive_actions, strength)
        dice += extra
        steps.append(step(f"Massive attack: {massive_actions} more action(s): +{extra} dice "
                          f"(at most Strength {strength})", DATA.rule("Massive attack"),
                          extra=extra))
    low = base
    crit = BASE_CRIT_AT
    malus = recoil_malus(attack_number, compensation)
    between = aim_actions + accurate_actions
    broken = bool(malus and recoil and mode in ("single", "burst") and between)
    if malus and recoil and mode in ("single", "burst"):
        if broken:
            # Aiming is an action of its own, taken just before this shot: the run is broken.
            steps.append(step(f"Recoil: attack {attack_number} this round, but "
                              f"{plural(between, 'action')} of aiming came before it, so it "
                              "does not follow a shot directly: no recoil", DATA.rule("Recoil")))
        else:
            low += malus
            crit += malus
            steps.append(step(f"Recoil: attack {attack_number} in a row: +{malus} to the "
                              f"minimum roll and the critical threshold", DATA.rule("Recoil"),
                              malus=malus))
    bonus = aim_bonus(aim_actions, perception, mode, interrupted=aim_interrupted)
    if aim_actions and aim_interrupted:
        steps.append(step(f"Aimed {aim_actions} action(s), but hit while aiming: the aim is "
                          "lost, critical threshold unchanged", DATA.rule("Aiming")))
    if bonus:
        crit -= bonus
        steps.append(step(f"Aimed {aim_actions} action(s): critical threshold −{bonus} "
                          f"(at most Perception {perception})", DATA.rule("Aiming"), bonus=bonus))
    for on, name, section in ((walking, "walking", "Actor and actions"),
                              (supported, "supported", "Support weapon"),
                              (off_hand, "off_hand", "Two-handed fighting"),
                              (special == "disarm", "disarm", "Disarming attack")):
        if on:
            change = _mod(name)
            low += change
            label = DATA.table("combat", "hit_modifiers").find("modifier", name)["label"]
            steps.append(step(f"{label}: minimum roll {change:+d}", DATA.rule(section),
                              change=change))
    if distance is not None or weapon_range is not None:
        if distance is None or weapon_range is None:
            raise RulesError("distance and weapon_range go together: give both or neither, "
                             f"got distance={shown(distance)}, weapon_range={shown(weapon_range)}")
        pen = distance_penalty(distance, weapon_range)
        if pen is None:
            raise RulesError(f"distance must be at most twice the weapon's {weapon_range} m "
                             f"({2 * weapon_range} m), got {distance} m: farther, the target "
                             "cannot be attacked")
        if pen:
            low += pen
            steps.append(step(f"Target at {distance} m, beyond the weapon's {weapon_range} m: "
                              f"minimum roll +{pen}", DATA.rule("Hit rolls for incorrect distance"),
                              change=pen))
    if accurate_actions:
        if not row["aim"]:
            raise RulesError(f"accurate_actions must be 0 for a {mode} attack, "
                             f"got {accurate_actions}")
        before = low
        low = accurate_min_roll(low, accurate_actions, perception)
        steps.append(step(f"Accurate attack, {accurate_actions} action(s): minimum roll "
                          f"{before}+ → {low}+ (at most Perception {perception}, never below 2+)",
                          DATA.rule("Accurate Attack"), min_roll=low))
    low = max(1, low)
    burst = not row["criticals"]
    steps.append(step(f"Roll {dice} dice: hit on {low}+" +
                      ("" if burst else f", critical on {crit}+"),
                      DATA.rule("Sequence of an attack"), dice=dice, min_roll=low, crit_at=crit))
    if special in ("ko", "disarm"):
        steps.append(step("This attack causes no wounds", DATA.rule(
            "K.O. Attack" if special == "ko" else "Disarming attack")))
    return AttackSetup(value=dice, outcome=mode, trace=tuple(steps), dice=dice, min_roll=low,
                       crit_at=crit, burst=burst, ammunition=row["ammunition"],
                       can_parry=row["parry"], can_dodge=row["dodge"],
                       wounds=special not in ("ko", "disarm"), recoil_broken=broken)


def massive_dice(extra_actions: int, strength: int) -> int:
    """Extra dice of a massive attack (§Massive attack): 3 for each further action, never more
    than the character's Strength (assumption ``massive_cap``)."""
    n = count("extra_actions", extra_actions)
    s = attribute("strength", strength)
    return min(3 * n, s)


@dataclass(frozen=True, kw_only=True)
class UnarmedAttack(Resolution):
    """A weaponless melee attack: ``value`` dice, its piercing and its reach in metres."""

    dice: int
    piercing: int
    reach: int


def unarmed_attack(hand_to_hand: int, strength: int, quickness: int) -> UnarmedAttack:
    """Weaponless melee (§Weaponless melee): Hand-to-hand dice, +1 die with Quickness above 2,
    Piercing 1 with Strength above 2, reach 1 metre."""
    h = attribute("hand_to_hand", hand_to_hand)
    s = attribute("strength", strength)
    q = attribute("quickness", quickness)
    ref = DATA.rule("Weaponless melee")
    dice = h + (1 if q > 2 else 0)
    piercing = 1 if s > 2 else 0
    steps = (step(f"Hand-to-hand {h} dice" + (f", +1 for Quickness {q} (above 2)" if q > 2 else
                                              f" (Quickness {q} adds none)"), ref, dice=dice),
             step(f"Piercing {piercing}" + (f" (Strength {s} is above 2)" if piercing else
                                            f" (Strength {s} is 2 or less)"), ref,
                  piercing=piercing),
             step("Reach 1 metre; minimum roll as the character's (usually 5+)", ref))
    return UnarmedAttack(value=dice, outcome="unarmed", trace=steps, dice=dice,
                         piercing=piercing, reach=1)
