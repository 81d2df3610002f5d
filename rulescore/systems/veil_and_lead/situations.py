"""Mounted combat (§XIII), rests (§XIV) and combat pacing (§XV)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from ...errors import RulesError, require_int, shown
from ...trace import Resolution, Step, step
from . import records
from ._system import DATA
from ...dice import DiceSource
from .core import (check, hit_probability, read_die, read_faces, require_attribute,
                   require_skill)
from .core import require_vitality
from .core import vitality as full_vitality
from .injury import health_state
from ...errors import require_bool as _flag

MOUNTED = DATA.rule("XIII Mounted Combat")
SHORT_REST = DATA.rule("XIV Short Rest")
PACING = DATA.rule("XV Ideal Combat Duration")
DRAGGING = DATA.rule("XV Signs Combat is Dragging")
TENSION = DATA.rule("XV Tension Pool in Combat")




@dataclass(frozen=True, kw_only=True)
class MountedResolution(Resolution):
    """What fighting from horseback does to one attack; pass the fields on to ``attack``.
    ``value`` is the pool penalty."""

    pool_penalty: int
    step_modifier: int
    damage_bonus: int


def mounted_modifiers(weapon: str, *, target_mounted: bool = False,
                      first_charge_attack: bool = False,
                      mount_stationary: bool = False) -> MountedResolution:
    """Modifiers for an attack made on horseback (§XIII Mounted Combat): melee from height
    +1 Step against a target on foot, +2 damage on the first melee attack of a Charge, −2 dice
    with a rifle unless the mount stands still."""
    for name, flag in (("target_mounted", target_mounted),
                       ("first_charge_attack", first_charge_attack),
                       ("mount_stationary", mount_stationary)):
        _flag(name, flag)
    rules = records.settings("conditions", "mounted_rules")
    arm = records.find_weapon(weapon)
    pool = steps = bonus = 0
    trace: list[Step] = []
    if arm.kind == "melee":
        if not target_mounted:
            steps = rules["height_step_bonus"]
            trace.append(step(f"Melee from height against a target on foot: +{steps} Step",
                              MOUNTED))
        if first_charge_attack:
            bonus = rules["charge_damage_bonus"]
            trace.append(step(f"First melee attack of a Charge: +{bonus} damage", MOUNTED))
    elif arm.range_class in ("rifle", "scoped rifle") and not mount_stationary:
        pool = rules["long_gun_pool_penalty"]
        trace.append(step(f"Long gun from a moving mount: −{pool} dice", MOUNTED))
    if not trace:
        trace.append(step("No mounted modifier applies", MOUNTED))
    return MountedResolution(value=pool, outcome="Mounted", trace=tuple(trace),
                             pool_penalty=pool, step_modifier=steps, damage_bonus=bonus)


def short_rest(faces: Sequence[int] | None, vitality: int, iron: int, tension_pool: int, *,
               roll_bonus: int = 0, dice: DiceSource | None = None,
               pool: int | None = None) -> Resolution:
    """A Short Rest of 10 minutes (§XIV Short Rest): +1 HP on Medicine TN 11 (Strain: recover 1;
    Suppressed and Stunned clear). Refused with 4 or more Tension dice; it adds 1 die.
    ``value`` is the new Vitality. *faces* are the Medicine dice; or give *dice*, a DiceSource,
    and the *pool* to draw."""
    full = full_vitality(iron)
    require_vitality(vitality, iron)
    rules = records.settings("conditions", "rest_rules")
    require_int("tension_pool", tension_pool, minimum=0)
    if tension_pool >= rules["short_rest_tension_limit"]:
        raise RulesError(f"tension_pool must be below {rules['short_rest_tension_limit']} for a "
                         f"Short Rest, got {shown(tension_pool)}")
    result = check(read_faces("faces", faces, dice, pool), rules["short_rest_medicine_tn"],
                   roll_bonus)
    after = min(vitality + 1, full) if result.success else vitality
    trace = result.trace + (
        step(f"Medicine {'succeeds: +1 HP → ' + str(after) if result.success else 'fails: no HP'}"
             "; recover 1 Strain; Suppressed and Stunned clear", SHORT_REST, vitality=after),
        step(f"Tension Pool {tension_pool} + 1 = {tension_pool + 1}", SHORT_REST,
             tension=tension_pool + 1))
    return Resolution(value=after, outcome="Rested", trace=trace)


def combat_pacing(ticks_elapsed: int) -> Resolution:
    """How long a fight has run (§XV): the Tension dice it has added (1 at the start, +1 each
    10 ticks), whether it is within the ideal 10–20 ticks, and past 30 ticks a sign it drags.
    ``value`` is the Tension dice added; ``outcome`` "Short", "Ideal", "Long" or "Dragging"."""
    require_int("ticks_elapsed", ticks_elapsed, minimum=0)
    p = records.settings("conditions", "pacing")
    start, per_ten = (r["dice"] for r in DATA.table("timeline", "tension"))
    dice = start + per_ten * (ticks_elapsed // 10)
    if ticks_elapsed > p["dragging_after_ticks"]:
        outcome, rule = "Dragging", DRAGGING
    elif ticks_elapsed > p["ideal_max_ticks"]:
        outcome, rule = "Long", PACING
    elif ticks_elapsed >= p["ideal_min_ticks"]:
        outcome, rule = "Ideal", PACING
    else:
        outcome, rule = "Short", PACING
    return Resolution(value=dice, outcome=outcome, trace=(
        step(f"{ticks_elapsed} ticks: {start} Tension die at the start + {per_ten} for each "
             f"10 ticks = {dice}", TENSION, dice=dice),
        step(f"{outcome} (ideal {p['ideal_min_ticks']}–{p['ideal_max_ticks']} ticks; past "
             f"{p['dragging_after_ticks']} the fight drags)", rule)))


def _ride_rule(situation: str) -> tuple[str, int]:
    """The attribute a riding check adds to Ride and its TN (§XIII): QUICK against TN 11 to stay
    on a killed or panicking mount, ECHO against TN 13 to control one."""
    if situation not in ("mount", "panic"):
        raise RulesError(f"situation must be mount or panic, got {shown(situation)}")
    rules = records.settings("conditions", "mounted_rules")
    if situation == "mount":
        return "QUICK", rules["mount_check_tn"]
    return "ECHO", rules["panic_control_tn"]


def ride_probability(attribute: int, ride: int, *, situation: str = "mount") -> Fraction:
    """Exact chance that a riding check (:func:`ride_check`) succeeds (§XIII Mounted Combat)."""
    require_attribute("attribute", attribute)
    require_skill("ride", ride)
    return hit_probability(attribute + ride, _ride_rule(situation)[1])


def ride_check(faces: Sequence[int] | None, attribute: int, ride: int, *,
               situation: str = "mount", dice: DiceSource | None = None) -> Resolution:
    """A riding check (§XIII Mounted Combat): when the mount is killed or panics, QUICK + Ride
    against TN 11 or fall (1d3 damage, Prone); to control a panicking mount near the
    supernatural, ECHO + Ride against TN 13 (*situation* "mount" or "panic"). *faces* number
    the attribute + Ride (or give *dice*, a DiceSource)."""
    require_attribute("attribute", attribute)
    require_skill("ride", ride)
    named, tn = _ride_rule(situation)
    faces = read_faces("faces", faces, dice, attribute + ride,
                       why=f"{named} {attribute} + Ride {ride}")
    result = check(faces, tn)
    if situation == "mount":
        said = "Stays in the saddle" if result.success else "Falls: 1d3 damage and Prone"
    else:
        said = "The mount is under control" if result.success else "The mount panics"
    return Resolution(value=result.margin, outcome=said, trace=result.trace + (
        step(said, MOUNTED),))


def mount_fall(d3: int | None, vitality: int, iron: int, *,
               dice: DiceSource | None = None) -> Resolution:
    """Falling from a mount that was killed or panicked (§XIII Mounted Combat): 1d3 damage
    and the rider is Prone. The fall is not an attack, so armour does not absorb it
    (assumption fall_damage). *d3* is the die rolled (or give *dice*, a DiceSource);
    ``value`` is the Vitality left."""
    sides = records.settings("conditions", "mounted_rules")["fall_damage_die"]
    require_vitality(vitality, iron)
    d3 = read_die("d3", d3, dice, sides)
    after = vitality - d3
    state = health_state(after, iron)
    return Resolution(value=after, outcome=f"Prone, {state}", trace=(
        step(f"Falls from the mount: 1d{sides} shows {d3}, Vitality {vitality} − {d3} = "
             f"{after}, {state} (armour does not absorb a fall); the rider is Prone",
             MOUNTED.citing("fall_damage"), damage=d3, vitality=after),))


def mounted_speed(horse_speed: int) -> int:
    """A rider moves at the horse's Speed, not their own (§XIII Mounted Combat); horses run
    about 8–14 m, but a table may field a slower or faster mount."""
    return require_int("horse_speed", horse_speed, minimum=1)
