"""The core of The Veil & Lead: d8 checks, the Cylinder, tempo, derived numbers.

A check rolls a pool of d8 and adds the two highest dice, plus roll modifiers, against a Target
Number (TN); the margin is the final sum minus the TN (§VI The Attack Sequence, steps 5–8).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Sequence

from ...dice import DiceSource, Distribution
from ...dice.source import dice_to_draw_from, die_or_draw
from ...errors import DiceError, RulesError, require_bool, require_int, require_list, shown
from ...formulas import Formula
from ...trace import Resolution, step
from . import records
from ._system import DATA

DIE = 8
TICKS = 20                    # the Cylinder: segments 0..19
MAX_POOL = 40                 # a guard against runaway input, far above any pool the rules make
ATTRIBUTE_RANGE = (1, 5)      # "+1 to +5" (§VI Defense Rating); QUICK 5 is the maximum (§II)
SKILL_RANGE = (0, 4)          # Awareness 4 is the highest natural skill (§II Initiative Ceiling)
RESIST_TN = 11                # GRIT + Resilience against a Stun or a knock-down (§XI, §III)
SMALL_POOL_RULES = ("literal", "floor_two")

CHECK = DATA.rule("VI The Attack Sequence")
CYLINDER = DATA.rule("I The Setup: The Cylinder")
FLOW = DATA.rule("I The Flow of Combat")

DEFENSE = Formula("Defense", "8 + max(QUICK, SAVVY) + equipment", DATA.rule("VI Defense Rating"))
VITALITY = Formula("Vitality", "IRON + 8", DATA.rule("VIII The Health Track"))
SPEED = Formula("Speed", "QUICK + Athletics + 3", DATA.rule("V Speed Calculation"))
MARGIN = Formula("Margin", "Sum - TN", CHECK)


# --- input checks --------------------------------------------------------------------------------

def require_dice(name: str, dice: object, *, minimum: int = 0) -> tuple[int, ...]:
    """A sequence of d8 faces (1–8); a RulesError naming *name* otherwise."""
    if isinstance(dice, (str, bytes)) or not isinstance(dice, Sequence):
        raise RulesError(f"{name} must be a list of d8 faces (1 to 8), got {shown(dice)}")
    faces = tuple(dice)
    for face in faces:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= DIE:
            raise RulesError(f"{name} must hold d8 faces from 1 to 8, got {shown(face)}")
    if len(faces) < minimum:
        raise RulesError(f"{name} must hold at least {minimum} d8, got {len(faces)}")
    if len(faces) > MAX_POOL:
        raise RulesError(f"{name} may hold at most {MAX_POOL} dice, got {len(faces)}")
    return faces


def read_faces(name: str, faces: object, dice: object, count: object, *,
               count_name: str = "pool", why: str = "") -> tuple[int, ...]:
    """The d8 faces of one roll: *faces* as the caller gives them, or *count* d8 drawn from
    *dice*, a :class:`~rulescore.dice.DiceSource` (seeded or the reader's typed dice; typed
    dice left over are refused). Give one of the two, not both (dice §Seeds and typed dice).
    *count* None: any number of *faces*, and *count_name* must be given with *dice*; *why*
    says where a fixed count comes from."""
    if count is not None:
        count = require_int(count_name, count, minimum=0, maximum=MAX_POOL)
    if dice is not None and faces is not None:
        raise RulesError(f"give {name} (the faces rolled) or dice (a DiceSource), not both")
    if dice is None:
        if faces is None:
            raise RulesError(f"{name} must be the d8 faces rolled, or give dice (a DiceSource)")
        got = require_dice(name, faces)
        if count is not None and len(got) != count:
            raise RulesError(f"{name} must be {count} d8{f' ({why})' if why else ''}, "
                             f"got {len(got)}")
        return got
    if not isinstance(dice, DiceSource):
        raise RulesError(f"dice must be a DiceSource (seeded or typed) or None, got {shown(dice)}")
    if count is None:
        raise RulesError(f"{count_name} must say how many d8 to draw from dice, got None")
    return _draw(dice, count, why)


def _draw(dice: DiceSource, count: int, why: str = "") -> tuple[int, ...]:
    """*count* d8 from *dice*; typed dice that are too few or too many are refused by the
    count the roll wants (and, with *why*, where that count comes from)."""
    given = len(dice.leftover()) if dice.is_typed else None
    wrong = (f"dice must be {count} d8{f' ({why})' if why else ''}, got {given} "
             f"{'number' if given == 1 else 'numbers'}")
    try:
        got = dice.dice(count, DIE, "die")
    except DiceError:
        if given is not None and given < count:
            raise RulesError(wrong) from None
        raise
    if given is not None and given > count:
        raise RulesError(wrong)
    dice.finish()
    return got


def read_die(name: str, value: object, dice: object, sides: int) -> int:
    """One die that is the whole roll: *value* as the caller gives it (1 to *sides*), or drawn
    from *dice*, a :class:`~rulescore.dice.DiceSource` (typed dice must hold exactly that die);
    one of the two, not both (:func:`~rulescore.dice.source.die_or_draw`)."""
    dice = dice_to_draw_from(dice)
    if dice is None:
        return require_int(name, die_or_draw(name, value, None, sides), minimum=1, maximum=sides)
    given = len(dice.leftover()) if dice.is_typed and value is None else None
    if given is not None and given != 1:
        raise RulesError(f"dice must be one d{sides} ({name}), got {given} numbers")
    got = die_or_draw(name, value, dice, sides)
    dice.finish()
    return got


def require_small_pool(small_pool: object) -> str:
    if small_pool not in SMALL_POOL_RULES:
        raise RulesError(f"small_pool must be one of {', '.join(SMALL_POOL_RULES)}, "
                         f"got {shown(small_pool)}")
    return small_pool  # type: ignore[return-value]


def require_attribute(name: str, value: object) -> int:
    return require_int(name, value, minimum=ATTRIBUTE_RANGE[0], maximum=ATTRIBUTE_RANGE[1])


def require_skill(name: str, value: object) -> int:
    return require_int(name, value, minimum=SKILL_RANGE[0], maximum=SKILL_RANGE[1])


def require_tick(name: str, value: object) -> int:
    return require_int(name, value, minimum=0, maximum=TICKS - 1)


def require_vitality(current: object, iron: object) -> int:
    """Current Vitality (the input ``vitality``) of a character of *iron*: a whole number up to
    full Vitality, IRON + 8 (§VIII The Health Track); the message names both inputs when the
    two disagree."""
    full = VITALITY.evaluate(IRON=require_attribute("iron", iron))
    require_int("vitality", current)
    if current > full:  # type: ignore[operator]
        raise RulesError(f"vitality must be {full} or less (full Vitality for iron {iron}), "
                         f"got {shown(current)}")
    return current  # type: ignore[return-value]


def dice_rolled(pool: int, small_pool: str = "literal") -> int:
    """How many d8 a pool of *pool* dice (after penalties) rolls (assumption small_pools).

    ``"literal"``: a pool of 0 or fewer rolls no dice (the sum is 0); ``"floor_two"``: every
    check rolls at least two dice.
    """
    require_int("pool", pool)
    require_small_pool(small_pool)
    if small_pool == "floor_two":
        return max(2, pool)
    return max(0, pool)


def signed(n: int) -> str:
    """A signed number as printed in the rules: +2, −1, +0."""
    return f"+{n}" if n >= 0 else f"−{-n}"


# --- the check -----------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class CheckResolution(Resolution):
    """A d8 check: ``value`` is the final sum; ``margin`` is final sum − TN."""

    dice: tuple[int, ...]
    kept: tuple[int, ...]
    base_sum: int
    roll_bonus: int
    tn: int
    margin: int
    success: bool


def two_highest(dice: Sequence[int]) -> tuple[int, ...]:
    """The two highest faces (fewer if fewer dice were rolled), highest first (§VI The Attack
    Sequence, step 5)."""
    return tuple(sorted(require_dice("dice", dice), reverse=True)[:2])


def roll_pools(dice: DiceSource | int, pools: Sequence[int], *,
               names: Sequence[str] | None = None) -> tuple[tuple[int, ...], ...]:
    """Roll each pool of d8 in turn from *dice*, a :class:`~rulescore.dice.DiceSource` (a
    seed as a whole number is kept for existing callers): ``roll_pools(src, (3, 4))`` gives the
    three faces of the first pool, then the four of the second (§VI The Attack Sequence, step
    5: roll). Typed dice must all be used. *names*, one a pool, say whose pool a missing die
    belongs to ("not enough dice: Bo's die 2 …") where a page rolls for several fighters."""
    source = DiceSource.from_seed_or_source(dice)
    pools = require_list("pools", pools, "pool sizes", max_length=MAX_POOL)
    if not pools:
        raise RulesError("pools must be a list of pool sizes, got an empty list")
    sizes = [require_int(f"pools: pool {i}", n, minimum=0, maximum=MAX_POOL)
             for i, n in enumerate(pools, start=1)]
    labels = _pool_labels(names, sizes)
    faces = tuple(source.dice(n, DIE, label) for n, label in zip(sizes, labels))
    source.finish()
    return faces


def _pool_labels(names: Sequence[str] | None, sizes: Sequence[int]) -> list[str]:
    """How :func:`roll_pools` names a die of each pool in an error: by its fighter's name when
    *names* are given (one non-empty name a pool), else by the pool's place."""
    if names is None:
        return [f"pool {i} die" if len(sizes) > 1 else "die" for i in range(1, len(sizes) + 1)]
    names = require_list("names", names, "names, one a pool", max_length=MAX_POOL)
    if len(names) != len(sizes):
        raise RulesError(f"names must name each of the {len(sizes)} pools, got {len(names)}")
    for i, name in enumerate(names, start=1):
        if not isinstance(name, str) or not name.strip():
            raise RulesError(f"names: name {i} must be a non-empty text, got {shown(name)}")
    return [f"{name}'s die" for name in names]


def check(faces: Sequence[int] | None, tn: int, roll_bonus: int = 0, *,
          small_pool: str = "literal", dice: DiceSource | None = None,
          pool: int | None = None) -> CheckResolution:
    """Resolve a d8 check: sum the two highest dice, add the roll bonus, compare with the TN.

    §VI The Attack Sequence, steps 5–8. ``value`` is the final sum, ``margin`` = sum − TN
    (negative on a miss), ``success`` when the margin is 0 or more. With one die the die alone
    counts; with none the sum is 0 (assumption small_pools; ``small_pool="floor_two"`` demands at
    least two dice). *faces* are the dice rolled; or give *dice*, a DiceSource, and the *pool*
    to draw from it.
    """
    require_small_pool(small_pool)
    faces = read_faces("faces", faces, dice, pool)
    if small_pool == "floor_two" and len(faces) < 2:
        raise RulesError(f"faces must hold at least 2 d8 with small_pool 'floor_two', "
                         f"got {len(faces)}")
    require_int("tn", tn)
    require_int("roll_bonus", roll_bonus)
    kept = two_highest(faces)
    base = sum(kept)
    total = base + roll_bonus
    margin = total - tn
    rolled = ", ".join(map(str, faces)) or "no dice"
    trace = [
        step(f"Rolled {rolled}; the two highest are {' + '.join(map(str, kept)) or 'none'} "
             f"= {base}", CHECK, base_sum=base),
    ]
    if len(faces) < 2:
        trace.append(step(f"Only {len(faces)} die rolled: the sum is what was rolled",
                          CHECK.citing("small_pools"), dice=len(faces)))
    if roll_bonus:
        trace.append(step(f"Roll modifiers {signed(roll_bonus)}: final sum {total}", CHECK,
                          roll_bonus=roll_bonus, final_sum=total))
    verdict = "success" if margin >= 0 else "miss"
    trace.append(step(f"Final sum {total} against TN {tn}: margin {signed(margin)}, {verdict}",
                      CHECK, margin=margin, tn=tn))
    return CheckResolution(value=total, outcome="Success" if margin >= 0 else "Failure",
                           trace=tuple(trace), dice=faces, kept=kept, base_sum=base,
                           roll_bonus=roll_bonus, tn=tn, margin=margin, success=margin >= 0)


# --- exact odds of a check -----------------------------------------------------------------------

@lru_cache(maxsize=None)
def _two_highest_counts(n: int) -> tuple[tuple[int, int], ...]:
    """For *n* d8: (sum of the two highest, number of the 8**n outcomes giving it).

    Order statistics: the two highest are (a, b), a > b, when exactly one die shows a and the
    other n − 1 dice have b as their highest: n·(b^(n−1) − (b−1)^(n−1)) ways. They are (a, a)
    when at least two dice show a and none more: a^n − (a−1)^n − n·(a−1)^(n−1) ways.
    """
    if n == 0:
        return ((0, 1),)
    if n == 1:
        return tuple((face, 1) for face in range(1, DIE + 1))
    counts: dict[int, int] = {}
    for a in range(1, DIE + 1):
        pair = a ** n - (a - 1) ** n - n * (a - 1) ** (n - 1)
        counts[2 * a] = counts.get(2 * a, 0) + pair
        for b in range(1, a):
            ways = n * (b ** (n - 1) - (b - 1) ** (n - 1))
            counts[a + b] = counts.get(a + b, 0) + ways
    return tuple(sorted((s, c) for s, c in counts.items() if c))


def sum_distribution(pool: int, roll_bonus: int = 0, *,
                     small_pool: str = "literal") -> Distribution:
    """Exact distribution of a check's final sum: two highest of *pool* d8, plus the bonus."""
    n = dice_rolled(require_int("pool", pool, maximum=MAX_POOL), small_pool)
    require_int("roll_bonus", roll_bonus)
    counts = _two_highest_counts(n)
    whole = DIE ** n
    return Distribution(tuple((s + roll_bonus, Fraction(c, whole)) for s, c in counts))


def hit_probability(pool: int, tn: int, roll_bonus: int = 0, *,
                    small_pool: str = "literal") -> Fraction:
    """Exact chance that a check with *pool* d8 (two highest + bonus) reaches *tn*.

    A pool of 1 rolls one die, which counts alone; a pool of 0 or less rolls nothing (sum 0),
    so only roll bonuses can reach the TN (assumption small_pools).
    """
    require_int("tn", tn)
    return sum_distribution(pool, roll_bonus, small_pool=small_pool).p_at_least(tn)


def margin_distribution(pool: int, tn: int, roll_bonus: int = 0, *,
                        small_pool: str = "literal") -> dict[int, Fraction]:
    """Exact chance of each signed margin (final sum − TN)."""
    require_int("tn", tn)
    dist = sum_distribution(pool, roll_bonus, small_pool=small_pool)
    return {total - tn: p for total, p in dist.items()}


# --- the Cylinder and tempo ----------------------------------------------------------------------

def advance(tick: int, tempo: int) -> int:
    """The tick a token lands on after an action of *tempo* from *tick* (§I The Flow of Combat).

    The Cylinder has 20 segments, 0–19; moving past 19 continues from 0 (18 + 6 → 4).
    """
    require_tick("tick", tick)
    require_int("tempo", tempo, minimum=0)
    return (tick + tempo) % TICKS


@dataclass(frozen=True, kw_only=True)
class MoveResolution(Resolution):
    """A token moved on the Cylinder: ``value`` is the new tick."""

    start: int
    tempo: int
    wrapped: bool


def move_token(tick: int, tempo: int) -> MoveResolution:
    """:func:`advance` with its explanation, and whether the token passed 19 and wrapped."""
    new = advance(tick, tempo)
    wrapped = tick + tempo > TICKS - 1
    text = f"Tick {tick} + Tempo {tempo} = {tick + tempo}"
    if wrapped:
        text += f"; past 19 the count goes on from 0: Tick {new}"
    return MoveResolution(value=new, outcome=f"Tick {new}", start=tick, tempo=tempo,
                          wrapped=wrapped, trace=(step(text, FLOW, tick=tick, tempo=tempo,
                                                       new_tick=new),))


def red_lines() -> tuple[int, ...]:
    """The Tension Lines of the Cylinder (ticks 0 and 10)."""
    t = DATA.table("timeline", "cylinder")
    return tuple(r["value"] for r in t if r["setting"] == "red_line")


def starting_tick(margin: int | None) -> tuple[int, str]:
    """Starting tick and state from an initiative margin (§II Determining Starting Tick).

    ``None`` or a negative margin is a failed roll: Tick 6, Surprised.
    """
    if margin is None:
        margin = -1
    require_int("margin", margin)
    row = DATA.table("timeline", "initiative_bands").lookup(margin)
    return row["tick"], row["state"]


def aim_bonus(aim_actions: int) -> int:
    """Roll bonus banked by Aim actions: 0 → 0, 1 → +2, 2 → +3, 3 or more → +4 (§III Aim)."""
    require_int("aim_actions", aim_actions, minimum=0)
    return DATA.table("timeline", "aim_bonus").lookup(aim_actions)["roll_bonus"]


def tempo(action: str, weapon: str | None = None, *, chosen: int | None = None,
          attack_on_arrival: bool = False) -> int:
    """The tempo of *action*, using *weapon*'s base tempo where the action needs it (§III).

    Quick Shot is Base − 1 (at least 3), Shiv Base − 1 (at least 2), Called Shot and Heavy
    Cleave Base + 2; Channel takes the *chosen* tempo (4–9). An attack action must suit the
    weapon: Quick Shot and Steady Shot are ranged, Strike, Shiv and Heavy Cleave melee, and
    Heavy Cleave needs a two-handed weapon. *attack_on_arrival*: a Rush / Charge that ends
    with a melee attack on the enemy reached costs 1 more tick (§V Movement Actions; assumption
    charge_attack_tempo).
    """
    act = records.find_action(action)
    if chosen is not None:
        require_int("chosen", chosen, minimum=0, maximum=TICKS - 1)
    arm = None if weapon is None else records.find_weapon(weapon)
    if _attacks_on_arrival(act, attack_on_arrival):
        return _charge_tempo(act, arm)
    if act.tempo_rule == "fixed":
        return act.tempo
    if act.tempo_rule == "varies":
        if chosen is None:
            raise RulesError(f"chosen must be given for {action} (a tempo from "
                             f"{act.tempo_min} to {act.tempo_max}), got None")
        return require_int("chosen", chosen, minimum=act.tempo_min, maximum=act.tempo_max)
    if arm is None:
        raise RulesError(f"weapon must be given for {action}, whose tempo is the weapon's base "
                         "tempo, got None")
    require_weapon_suits(act, arm)
    return max(act.tempo_min, arm.base_tempo + act.tempo)


def require_weapon_suits(act: records.Action, arm: records.Weapon) -> None:
    """Refuse an attack action the weapon cannot make (§III: Quick Shot is a ranged attack,
    Heavy Cleave a two-handed swing), naming the weapons it allows."""
    if act.name == "Heavy Cleave" and not arm.two_handed:
        allowed = ", ".join(n for n, w in records.weapons().items() if w.two_handed)
        raise RulesError(f"weapon {shown(arm.name)} cannot make a Heavy Cleave: it needs a "
                         f"two-handed melee weapon ({allowed})")
    if act.attack in ("ranged", "melee") and arm.kind != act.attack:
        allowed = ", ".join(n for n, w in records.weapons().items() if w.kind == act.attack)
        raise RulesError(f"weapon {shown(arm.name)} cannot make a {act.name}: it is a "
                         f"{act.attack} attack, so the weapon must be a {act.attack} weapon "
                         f"({allowed})")


def _attacks_on_arrival(act: records.Action, attack_on_arrival: object) -> bool:
    """*attack_on_arrival* read for *act*: yes or no, and yes only for a Rush / Charge, the one
    move that can end in a melee attack on the enemy reached (§V Movement Actions)."""
    require_bool("attack_on_arrival", attack_on_arrival)
    if attack_on_arrival and act.name != CHARGE:
        raise RulesError(f"attack_on_arrival is only for {CHARGE}, got action {shown(act.name)}")
    return attack_on_arrival


def _charge_tempo(act: records.Action, arm: records.Weapon | None) -> int:
    """Rush / Charge with a melee attack on arrival: the move's tempo + 1 (§V)."""
    extra = records.settings("actions", "charge")["arrival_attack_extra_tempo"]
    if arm is None or arm.kind != "melee":
        allowed = ", ".join(n for n, w in records.weapons().items() if w.kind == "melee")
        raise RulesError(f"weapon must be a melee weapon for an attack on arrival ({allowed}), "
                         f"got {shown(None if arm is None else arm.name)}")
    return act.tempo + extra


CHARGE = "Rush / Charge"


def uses_weapon(action: str, *, attack_on_arrival: bool = False) -> bool:
    """Whether *action* is done with the fighter's weapon (§III, §V; the actions table's weapon
    column): attacks, Aim, the reloads and Draw Weapon do; a Rush / Charge only when it ends in
    a melee attack (*attack_on_arrival*); moving, speaking, healing and Recover do not."""
    act = records.find_action(action)
    arrives_attacking = _attacks_on_arrival(act, attack_on_arrival)
    return act.weapon == "used" or (act.weapon == "on_arrival" and arrives_attacking)


def tempo_text(action: str) -> str:
    """The tempo of *action* as a reader reads it (§III): "3", "Weapon base",
    "Base − 1 (at least 3)", "Base + 2", "4–9 (chosen)"."""
    act = records.find_action(action)
    if act.tempo_rule == "fixed":
        return str(act.tempo)
    if act.tempo_rule == "varies":
        return f"{act.tempo_min}–{act.tempo_max} (chosen)"
    if act.tempo == 0:
        return "Weapon base"
    text = f"Base {'+' if act.tempo > 0 else '−'} {abs(act.tempo)}"
    return text + (f" (at least {act.tempo_min})" if act.tempo_min > 0 else "")


PRINTED_EXPOSURE = {"yes": "Yes", "no": "No", "light": "Only with a light weapon",
                    "varies": "By the power"}


def action_rows() -> list[dict[str, str]]:
    """Every action of §III as the book prints it: name, kind, tempo (:func:`tempo_text`),
    whether the seed marks it Exposed, whether it is done with the fighter's weapon (as the
    actions table words it) and what it does."""
    table = DATA.table("actions", "actions")
    weapon = table.heading("weapon") or "Weapon"
    return [{"Action": a.name, "Kind": a.category, "Tempo": tempo_text(a.name),
             "Exposed?": PRINTED_EXPOSURE[a.printed], weapon: table.words("weapon", a.weapon),
             "What it does": a.description}
            for a in records.actions().values()]


EXPOSURE_RULES = ("by_tempo", "as_printed")


def exposes(action: str, tempo_used: int, *, exposure: str = "by_tempo",
            light_weapon: bool = False) -> bool:
    """Whether finishing *action* at *tempo_used* leaves you Exposed (§IV The Exposure Rule).

    ``"by_tempo"`` (default): Tempo 3 or less exposes, unless the action is exempt (Take Cover);
    instant actions never do; Sprint always does. ``"as_printed"``: the action's own Exposed
    entry (Quick Shot always, Steady Shot never, Strike only with a light weapon). See the
    assumption exposure_by_tempo.
    """
    if exposure not in EXPOSURE_RULES:
        raise RulesError(f"exposure must be one of {', '.join(EXPOSURE_RULES)}, "
                         f"got {shown(exposure)}")
    act = records.find_action(action)
    require_int("tempo_used", tempo_used, minimum=0)
    require_bool("light_weapon", light_weapon)
    if exposure == "as_printed":
        if act.printed == "varies":
            raise RulesError(f"action {shown(action)} exposes or not by the power used; "
                             "decide it at the table")
        return act.printed == "yes" or (act.printed == "light" and light_weapon)
    if act.exposure == "varies":
        raise RulesError(f"action {shown(action)} exposes or not by the power used; "
                         "decide it at the table")
    limit = records.settings("actions", "exposure")["max_tempo"]
    return {"exempt": False, "none": False, "always": True}.get(act.exposure,
                                                                 tempo_used <= limit)


# --- derived numbers -----------------------------------------------------------------------------

def defense(quick: int, savvy: int, equipment: int = 0) -> int:
    """Defense = 8 + the higher of QUICK and SAVVY + equipment (§VI Defense Rating)."""
    require_attribute("quick", quick)
    require_attribute("savvy", savvy)
    require_int("equipment", equipment)
    return DEFENSE.evaluate(QUICK=quick, SAVVY=savvy, equipment=equipment)


def vitality(iron: int) -> int:
    """Full Vitality = IRON + 8 (§VIII The Health Track)."""
    return VITALITY.evaluate(IRON=require_attribute("iron", iron))


def speed(quick: int, athletics: int) -> int:
    """Speed in metres = QUICK + Athletics + 3 (§V Speed Calculation)."""
    require_attribute("quick", quick)
    require_skill("athletics", athletics)
    return SPEED.evaluate(QUICK=quick, Athletics=athletics)


def move_distance(action: str, speed_m: int) -> int:
    """Metres moved by a movement action at *speed_m* (§V Movement Actions).

    Shift: half Speed rounded down; Scramble: Speed + 4; Rush / Charge: double; Sprint: triple.
    """
    require_int("speed_m", speed_m, minimum=0)
    t = DATA.table("ranges", "movement")
    row = t.find("action", action)
    return speed_m * row["multiplier"] // row["divisor"] + row["extra"]


def range_band(metres: int) -> str:
    """The range band of a distance in metres (§V Range Bands)."""
    require_int("metres", metres, minimum=0)
    return DATA.table("ranges", "range_bands").lookup(metres)["band"]


def pool_after_penalties(base: int, penalties: int) -> int:
    """Pool = base − penalties, the penalties counting at most 5 dice (§VIII The Wounded
    Threshold: pool penalties stack to the −5 cap)."""
    require_int("base", base, minimum=0)
    require_int("penalties", penalties, minimum=0)
    cap = records.settings("injury", "damage_rules")["pool_penalty_cap"]
    return base - min(penalties, cap)


def effective_speed(base_speed: int, *, prone: bool = False, leg_hit: bool = False) -> int:
    """Speed after conditions: 2 while Prone (§XI Prone); halved, rounded down, after a Called
    Shot to the leg (§III Called Shot; assumption leg_speed). Prone wins when both apply."""
    require_int("base_speed", base_speed, minimum=0)
    require_bool("prone", prone)
    require_bool("leg_hit", leg_hit)
    if prone:
        return min(2, base_speed)
    return base_speed // 2 if leg_hit else base_speed
