"""Initiative (§II), the attack sequence (§VI), firing into melee (§VII) and the special
combat situations (§XIII) of The Veil & Lead."""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from ...dice import DiceSource, Distribution
from ...dice.source import dice_to_draw_from, die_or_draw
from ...errors import RulesError, require_int, shown
from ...formulas import Formula
from ...trace import Resolution, RuleRef, Step, cite_rulings, step
from . import records
from ._system import DATA
from .core import (CHARGE, RESIST_TN, aim_bonus, check, dice_rolled, exposes, margin_distribution,
                   read_die, read_faces, require_attribute, require_dice, require_skill,
                   require_small_pool, signed,
                   starting_tick, tempo, two_highest)
from .injury import DamageResolution, damage
from .reactions import ally_names, stray_ally
from .odds import AttackOdds
from ...errors import require_bool as _flag

INITIATIVE = DATA.rule("II The Initiative Roll")
START = DATA.rule("II Determining Starting Tick")
SEQUENCE = DATA.rule("VI The Attack Sequence")
DEFENSE_RULE = DATA.rule("VI Defense Rating")
RANGE = DATA.rule("V Range and Weapons")
COVER = DATA.rule("V Cover")
EXPOSURE = DATA.rule("IV Becoming Exposed")
MELEE = DATA.rule("VII Firing into Melee")
AVOID = DATA.rule("VII Avoiding the Risk")
SCATTER = DATA.rule("VII Scatter Weapons")
CONDITIONS = DATA.rule("XI Combat Conditions")
EXPOSED = DATA.rule("XI Exposed")
WOUNDED = DATA.rule("VIII The Wounded Threshold")
SUPPRESSED = DATA.rule("XI Suppressed")
CALLED = DATA.rule("III Called Shot")
CLEAVE = DATA.rule("III Heavy Cleave")
BLEED = DATA.rule("VI The Attack Sequence")
HORDE = DATA.rule("XIII The Horde")
COUP = DATA.rule("XIII Coup de Grâce")
TWO_WEAPONS = DATA.rule("XIII Two-Weapon Fighting")
GRAPPLE = DATA.rule("III Grapple")
STUNNED = DATA.rule("XI Stunned")
CHARGE_RULE = DATA.rule("V Movement Actions")
DOWNED = "Downed"

INITIATIVE_POOL = Formula("Pool", "QUICK + Awareness", INITIATIVE)
ATTACK_POOL = Formula("Pool", "Attribute + Skill - Penalties", SEQUENCE)
ATTACK_TN = Formula("TN", "Defense + Modifiers", SEQUENCE)
HORDE_POOL = Formula("Pool", "Base + Size", HORDE)
HORDE_CASUALTIES = Formula("Casualties", "(1 + Steps + Heavy) * Multiplier", HORDE)

BACKLASH_RULES = ("unresolved", "any_one")
MAX_BLEED = 3
GRAPPLED_MAX_TEMPO = 3  # §XI Grappled: light weapons or unarmed, Tempo 3 max




def _names(name: str, value: object) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, (tuple, list, set, frozenset)):
        raise RulesError(f"{name} must be a list of condition names, got {shown(value)}")
    for item in value:
        if not isinstance(item, str):
            raise RulesError(f"{name} must hold condition names, got {shown(item)}")
        records.find_condition(item, param=name)
    return tuple(dict.fromkeys(value))  # a condition counts once


def _capped(penalties: list[tuple[str, int]], trace: list[Step], rule: RuleRef) -> int:
    """Total pool penalty, at most the cap (5 dice)."""
    cap = records.settings("injury", "damage_rules")["pool_penalty_cap"]
    total = sum(n for _, n in penalties)
    for why, n in penalties:
        trace.append(step(f"{why}: −{n} dice", rule, penalty=n))
    if total > cap:
        trace.append(step(f"Pool penalties total −{total}; they stop at −{cap}", WOUNDED,
                          cap=cap))
    return min(total, cap)


def _check_count(name: str, faces: tuple[int, ...], wanted: int, why: str) -> None:
    if len(faces) != wanted:
        raise RulesError(f"{name} must be {wanted} d8 ({why}), got {len(faces)}")


# --- initiative ----------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class InitiativeResolution(Resolution):
    """An initiative roll: ``value`` is the starting tick, ``outcome`` the state."""

    tick: int
    state: str
    margin: int
    pool: int
    final_sum: int
    tn: int


@dataclass(frozen=True)
class InitiativePlan:
    """An initiative roll before the dice: the pool, the dice to roll, the roll bonus, the TN
    and the explanation so far. :meth:`odds` gives the exact starting-tick odds."""

    pool: int
    dice_to_roll: int
    roll_bonus: int
    tn: int
    trace: tuple[Step, ...]

    def odds(self, bleed_dice: int = 0) -> dict[tuple[int, str], Fraction]:
        """Exact chance of each (starting tick, state), with *bleed_dice* Bleed Dice added."""
        require_int("bleed_dice", bleed_dice, minimum=0, maximum=MAX_BLEED)
        out: dict[tuple[int, str], Fraction] = {}
        margins = margin_distribution(self.dice_to_roll + bleed_dice, self.tn, self.roll_bonus)
        for margin, p in margins.items():
            key = starting_tick(margin)
            out[key] = out.get(key, Fraction(0)) + p
        return dict(sorted(out.items()))


def plan_initiative(quick: int, awareness: int, *, ambush: bool = False,
                    off_guard: bool = False, supernatural: int = 0, fatigued: bool = False,
                    armour: str = "None", small_pool: str = "literal") -> InitiativePlan:
    """Everything about an initiative roll that comes before the dice (§II The Initiative
    Roll); the inputs are those of :func:`initiative`."""
    require_attribute("quick", quick)
    require_skill("awareness", awareness)
    for name, flag in (("ambush", ambush), ("off_guard", off_guard), ("fatigued", fatigued)):
        _flag(name, flag)
    require_int("supernatural", supernatural)
    small_pool = require_small_pool(small_pool)
    settings = records.settings("timeline", "initiative_roll")
    worn = records.find_armour(armour)
    trace: list[Step] = []
    q = max(quick + worn.quick_timing_modifier, 0)
    base = INITIATIVE_POOL.evaluate(QUICK=q, Awareness=awareness)
    trace.append(step(f"Pool: QUICK {q} + Awareness {awareness} = {base}", INITIATIVE,
                      pool=base))
    if worn.quick_timing_modifier:
        trace.append(step(f"{worn.name}: QUICK {quick} counts as {q} for timing",
                          INITIATIVE.citing("ironbrand_quick")))
    penalties = [("Fatigued", settings["fatigued_pool_penalty"])] if fatigued else []
    pool = base - _capped(penalties, trace, INITIATIVE)
    rolled = dice_rolled(pool, small_pool)
    bonus = supernatural + (settings["ambush_prepared"] if ambush else 0) \
        + (settings["caught_off_guard"] if off_guard else 0)
    for flag, name, key in ((ambush, "Ambush prepared", "ambush_prepared"),
                            (off_guard, "Caught completely off-guard", "caught_off_guard")):
        if flag:
            trace.append(step(f"{name}: {signed(settings[key])}", INITIATIVE))
    if supernatural:
        trace.append(step(f"Supernatural senses: {signed(supernatural)}", INITIATIVE))
    return InitiativePlan(pool=pool, dice_to_roll=rolled, roll_bonus=bonus, tn=settings["tn"],
                          trace=tuple(trace))


def initiative(faces: Sequence[int] | None, quick: int, awareness: int, *,
               ambush: bool = False, off_guard: bool = False, supernatural: int = 0,
               fatigued: bool = False, bleed: Sequence[int] = (), armour: str = "None",
               small_pool: str = "literal",
               dice: DiceSource | None = None) -> InitiativeResolution:
    """Roll initiative: QUICK + Awareness d8 against TN 11 (§II The Initiative Roll).

    Roll modifiers: ambush prepared +2, caught off-guard −2, *supernatural* as the ability
    says. Fatigued costs one die. *bleed* are Bleed Dice added to the roll (assumption
    bleed_dice). Ironbrand armour's −1 QUICK for tempo lowers the QUICK in the pool (assumption
    ironbrand_quick). The margin sets the starting tick and state. *faces* must number the
    pool; or give *dice*, a DiceSource, and the pool is drawn from it.
    """
    plan = plan_initiative(quick, awareness, ambush=ambush, off_guard=off_guard,
                           supernatural=supernatural, fatigued=fatigued, armour=armour,
                           small_pool=small_pool)
    trace = list(plan.trace)
    # Name every input the count depends on, so a caller sees which one disagrees.
    why = [f"quick {quick} + awareness {awareness}"]
    if records.find_armour(armour).quick_timing_modifier:
        why.append(f"armour {shown(armour)}")
    if fatigued:
        why.append("fatigued −1")
    if plan.dice_to_roll != max(plan.pool, 0):
        why.append(f"small_pool {shown(small_pool)}")
    faces = read_faces("faces", faces, dice, plan.dice_to_roll, why=", ".join(why))
    extra = require_dice("bleed", bleed)
    if len(extra) > MAX_BLEED:
        raise RulesError(f"bleed must be 0 to {MAX_BLEED} Bleed Dice, got {len(extra)}")
    if extra:
        trace.append(step(f"Bleed Dice {list(extra)} join the roll",
                          BLEED.citing("bleed_dice"), bleed=len(extra)))
    result = check(faces + extra, plan.tn, plan.roll_bonus)  # dice counted above
    trace.extend(result.trace)
    tick, state = starting_tick(result.margin)
    trace.append(step(f"Margin {signed(result.margin)}: start at Tick {tick}, {state}", START,
                      tick=tick, state=state))
    return InitiativeResolution(value=tick, outcome=state, trace=tuple(trace), tick=tick,
                                state=state, margin=result.margin, pool=plan.pool,
                                final_sum=result.value, tn=plan.tn)


# --- the attack sequence ---------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class AttackResolution(Resolution):
    """One attack, steps 1–9 of §VI: ``value`` is the damage dealt (0 on a miss)."""

    action: str
    weapon: str
    tempo: int
    exposed_after: bool
    pool: int
    tn: int
    dice: tuple[int, ...]
    bleed: tuple[int, ...]
    kept: tuple[int, ...]
    base_sum: int
    roll_bonus: int
    final_sum: int
    margin: int
    hit: bool
    automatic: bool
    near_miss: bool
    suppresses: bool
    ally_risk: bool
    steps: int
    damage: int
    grievous: bool
    backlash: bool | None
    effect: str
    grievous_negated: bool = False  # Hardened armour spent its negation for the scene on it


@dataclass(frozen=True)
class AttackPlan:
    """Steps 1–3 and 6 of an attack, known before any die is rolled: the tempo, the pool, the
    TN and the roll modifiers. :meth:`odds` gives the exact odds; :func:`attack` resolves it
    with the dice."""

    action: str
    weapon: str
    kind: str
    band: str
    tempo: int
    exposed_after: bool
    pool: int
    dice_to_roll: int
    tn: int
    roll_bonus: int
    bonuses: tuple[tuple[str, int], ...]
    automatic: bool
    wr: int
    ar: int
    critical: int
    step_modifier: int
    damage_bonus: int
    hardened: bool
    scatter: bool
    firing_into_melee: bool
    called_location: str | None
    stationary_target: bool
    trace: tuple[Step, ...]
    hardened_spent: bool = False

    def _outcome(self, margin: int) -> tuple[bool, int]:
        """(hit, margin used for damage) for a rolled margin."""
        if self.automatic:
            return False, margin
        if margin >= 0:
            return True, margin
        if self.stationary_target and self.band == "Point-Blank":
            return True, 0
        return False, margin

    def ally_risk_on_miss(self, margin: int) -> bool:
        """Whether a miss at *margin* sends the shot towards an ally (§VII)."""
        if not self.firing_into_melee or self.automatic or margin >= 0:
            return False
        if self.action == "Called Shot" and self.called_location in HIGH_LOCATIONS:
            return False
        return self.scatter or -2 <= margin <= -1

    def odds(self, bleed_dice: int = 0):
        """Exact odds of this attack, with *bleed_dice* Bleed Dice added to the roll."""
        require_int("bleed_dice", bleed_dice, minimum=0, maximum=MAX_BLEED)
        hit = near = grievous = Fraction(0)
        dealt: dict[int, Fraction] = {}
        margins = margin_distribution(self.dice_to_roll + bleed_dice, self.tn, self.roll_bonus)
        for margin, p in margins.items():
            landed, used = self._outcome(margin)
            amount = 0
            if landed:
                hit += p
                d = damage(self.wr, used, self.ar, self.critical,
                           step_modifier=self.step_modifier, damage_bonus=self.damage_bonus,
                           hardened=self.hardened, hardened_spent=self.hardened_spent)
                amount = d.value
                grievous += p if d.grievous else 0
            elif not self.automatic and -2 <= margin <= -1:
                near += p
            dealt[amount] = dealt.get(amount, Fraction(0)) + p
        suppressed = near if self.kind == "ranged" else Fraction(0)  # gunfire only (§XI)
        return AttackOdds(hit, near, grievous, Distribution(tuple(sorted(dealt.items()))),
                          suppressed)


HIGH_LOCATIONS = ("Head", "Torso")


CHECK_KINDS = ("melee", "ranged", "movement", "limb", "physical", "mental", "initiative")
REACHES = {  # which kinds of check a condition's penalty_on reaches
    "all": CHECK_KINDS, "physical": ("melee", "ranged", "movement", "limb", "physical"),
    "sight": ("melee", "ranged"), "limb": ("melee", "ranged", "limb"),
    "movement": ("movement",), "none": ()}


def _applies(penalty_on: str, kind: str) -> bool:
    """Whether a condition's pool penalty reaches a check of *kind*. A limb hurt by a Called
    Shot counts for an attack when the attacker marks it: the attack uses that arm
    (assumption called_limb)."""
    return kind in REACHES.get(penalty_on, (penalty_on,))


def pool_with_conditions(pool: int, conditions: Sequence[str], *, kind: str) -> Resolution:
    """The pool of a check of *kind* after the pool penalties of the character's *conditions*,
    at most −5 in all (§XI Combat Conditions, §VIII The Wounded Threshold). A Called Shot's Arm
    Hit costs 2 dice on actions with that limb, a Leg Hit 2 dice on movement checks (§III
    Called Shot). ``value`` is the pool left."""
    require_int("pool", pool, minimum=0)
    if kind not in CHECK_KINDS:
        raise RulesError(f"kind must be one of {', '.join(CHECK_KINDS)}, got {shown(kind)}")
    trace: list[Step] = []
    penalties = []
    for name in _names("conditions", conditions):
        c = records.find_condition(name)
        if c.pool_penalty and _applies(c.penalty_on, kind):
            penalties.append((f"{name} ({c.effect})", c.pool_penalty))
    left = pool - _capped(penalties, trace, CONDITIONS)
    trace.append(step(f"Pool for a {kind} check: {pool} → {left} d8", CONDITIONS, pool=left))
    return Resolution(value=left, outcome=f"{left} dice", trace=tuple(trace))


def attack_pool(attribute: int, skill: int) -> int:
    """An attack's pool before any penalty: attribute + skill (§VI step 2); a Horde's base
    creature's pool, to which the Horde's size is added (§XIII The Volley)."""
    require_attribute("attribute", attribute)
    require_skill("skill", skill)
    return ATTACK_POOL.evaluate(Attribute=attribute, Skill=skill, Penalties=0)


def plan_attack(*, attribute: int, skill: int, defense: int, weapon: str = "Peacemaker",
                action: str = "Steady Shot", band: str = "Near", cover: str = "No Cover",
                attacker_conditions: Sequence[str] = (), target_conditions: Sequence[str] = (),
                pool_penalty: int = 0, tn_modifier: int = 0, roll_bonus: int = 0,
                aim_actions: int = 0, ar: int = 0, critical: int = 0, step_modifier: int = 0,
                damage_bonus: int = 0, hardened: bool = False, hardened_spent: bool = False,
                firing_into_melee: bool = False,
                braced: bool = False, called_location: str | None = None,
                stationary_target: bool = False, small_pool: str = "literal",
                exposure: str = "by_tempo", off_hand: bool = False,
                horde_size: int = 0) -> AttackPlan:
    """Everything about an attack that comes before the dice (§VI steps 1–3 and 6).

    Takes the same inputs as :func:`attack` except the dice; see there. *horde_size* is the
    attacking Horde's current size (0 for one fighter): a Horde's volley rolls the base
    creature's pool + its size, at the Horde's fixed tempo (§XIII The Horde, The Volley).
    """
    require_attribute("attribute", attribute)
    require_skill("skill", skill)
    require_int("defense", defense, minimum=0)
    for name, value in (("tn_modifier", tn_modifier), ("roll_bonus", roll_bonus),
                        ("step_modifier", step_modifier), ("damage_bonus", damage_bonus)):
        require_int(name, value)
    for name, value in (("aim_actions", aim_actions), ("ar", ar), ("critical", critical),
                        ("pool_penalty", pool_penalty)):
        require_int(name, value, minimum=0)
    for name, flag in (("hardened", hardened), ("hardened_spent", hardened_spent),
                       ("firing_into_melee", firing_into_melee),
                       ("braced", braced), ("stationary_target", stationary_target),
                       ("off_hand", off_hand)):
        _flag(name, flag)
    small_pool = require_small_pool(small_pool)
    _require_horde_size(horde_size)
    mine = _names("attacker_conditions", attacker_conditions)
    theirs = _names("target_conditions", target_conditions)
    arm = records.find_weapon(weapon)
    act = records.find_action(action)
    kind = arm.kind
    if act.attack in ("none", "grapple"):
        attacks = ", ".join(n for n, a in records.actions().items()
                            if a.attack not in ("none", "grapple"))
        raise RulesError(f"action must be an attack ({attacks}), got {shown(action)}")
    if DOWNED in mine:
        raise RulesError("attacker_conditions: a Downed character may only Crawl (Tempo 6) or "
                         "Speak (Tempo 0), not attack")
    if act.attack != "any" and act.attack != kind:
        raise RulesError(f"action {shown(action)} is a {act.attack} attack; "
                         f"weapon {shown(weapon)} is a {kind} weapon")
    if action == "Heavy Cleave" and not arm.two_handed:
        raise RulesError(f"weapon must be a two-handed melee weapon for Heavy Cleave, "
                         f"got {shown(weapon)}")
    locations = records.called_locations()
    if action == "Called Shot":
        if called_location not in locations:
            raise RulesError(f"called_location must be one of {', '.join(locations)} for a "
                             f"Called Shot, got {shown(called_location)}")
    elif called_location is not None:
        raise RulesError(f"called_location is only for a Called Shot, got {shown(called_location)} "
                         f"with {action}")
    if aim_actions and kind != "ranged":
        raise RulesError(f"aim_actions must be 0 for a melee attack (Aim helps the next ranged "
                         f"attack), got {shown(aim_actions)}")
    if firing_into_melee and kind != "ranged":
        raise RulesError("firing_into_melee is for ranged attacks, got a melee weapon")
    trace: list[Step] = []

    # 1. declare
    used = tempo(action, weapon, attack_on_arrival=action == CHARGE)
    if "Grappled" in mine:
        light = arm.weapon_class.startswith("Light")
        if not light or used > GRAPPLED_MAX_TEMPO:
            raise RulesError(f"weapon {shown(weapon)} with {action} (Tempo {used}): a Grappled "
                             f"attacker uses only a light weapon at Tempo "
                             f"{GRAPPLED_MAX_TEMPO} or less "
                             f"({cite_rulings(DATA.name, ('grappled_weapons',))})")
    exposed = exposes(action, used, exposure=exposure, light_weapon=arm.light)
    trace.append(step(f"Declare: {action} with the {weapon}: Tempo {used}"
                      + ("; you will be Exposed after it" if exposed and not horde_size
                         else ""), SEQUENCE, tempo=used))
    if horde_size:
        used, exposed = horde_tempo(kind), False
        trace.append(step(f"A Horde acts at its fixed tempo {used} "
                          f"({'firing line' if kind == 'ranged' else 'swarm'})", HORDE,
                          tempo=used))
    if action == CHARGE:
        trace.append(step(f"Rush / Charge reaches the enemy: a melee attack on arrival, "
                          f"move {tempo(action)} + 1 = Tempo {used}",
                          CHARGE_RULE.citing("charge_attack_tempo"), tempo=used))

    # 2. pool
    base = attribute + skill
    trace.append(step(f"Pool: attribute {attribute} + skill {skill} = {base}", SEQUENCE,
                      pool=base))
    penalties: list[tuple[str, int]] = []
    if act.pool_penalty:
        penalties.append((action, act.pool_penalty))
    for name in mine:
        c = records.find_condition(name)
        if c.pool_penalty and _applies(c.penalty_on, kind):
            penalties.append((f"{name} ({c.effect})", c.pool_penalty))
    if off_hand:
        penalties.append(("Off-hand attack",
                          records.settings("conditions", "two_weapons")["off_hand_pool_penalty"]))
    if firing_into_melee:
        penalties.append(("Firing into melee",
                          DATA.table("conditions", "firing_into_melee")
                          .find("weapon", "ordinary")["pool_penalty"]))
    if pool_penalty:
        penalties.append(("Other pool penalties", pool_penalty))
    pool = ATTACK_POOL.evaluate(Attribute=attribute, Skill=skill,
                                Penalties=_capped(penalties, trace, SEQUENCE))
    rolled = dice_rolled(pool, small_pool)
    if pool != base or rolled != pool:
        trace.append(step(f"Pool after penalties: {pool} → roll {rolled} d8", SEQUENCE,
                          pool=pool))
    if horde_size:
        volley = horde_pool(max(pool, 0), horde_size)
        trace.append(step(f"The Volley: base pool {pool} + Horde size {horde_size} = "
                          f"{volley} d8", HORDE, pool=volley))
        pool, rolled = volley, dice_rolled(volley, small_pool)

    # 3. TN
    mods: list[tuple[str, int]] = []
    cover_mod, targetable = records.find_cover(cover)
    if not targetable:
        raise RulesError(f"cover {shown(cover)}: a target behind total cover cannot be attacked")
    if cover_mod:
        mods.append((cover, cover_mod))
    automatic = False
    scope_bonus = 0
    if kind == "melee":
        if band != "Point-Blank":
            raise RulesError(f"band must be Point-Blank for a melee attack, got {shown(band)}")
    else:
        rm = records.range_modifier(arm.range_class, band)
        if "Blinded" in mine and records.BANDS.index(band) > records.BANDS.index("Close"):
            raise RulesError(f"band {shown(band)}: a Blinded attacker cannot shoot beyond Close")
        if not rm.allowed:
            automatic = True
            trace.append(step(f"A {arm.range_class} cannot reach {band}: the attack fails",
                              RANGE))
        if rm.tn_modifier:
            mods.append((f"{band} range ({arm.range_class})", rm.tn_modifier))
        scope_bonus = rm.roll_modifier
    for name in theirs:
        c = records.find_condition(name)
        m = c.tn_melee if kind == "melee" else c.tn_ranged
        if name == "Exposed" and cover == "Exposed":
            trace.append(step("Exposed counts once, whether from haste or from standing in the "
                              "open", EXPOSED.citing("exposed_once")))
            continue
        if m:
            mods.append((f"target {name}", m))
    if tn_modifier:
        mods.append(("other TN modifiers", tn_modifier))
    tn = ATTACK_TN.evaluate(Defense=defense, Modifiers=sum(m for _, m in mods))
    listed = "".join(f" {signed(m)} ({why})" for why, m in mods)
    trace.append(step(f"TN: Defense {defense}{listed} = {tn}", SEQUENCE, tn=tn))

    # 6. roll modifiers (known before the roll)
    bonuses: list[tuple[str, int]] = []
    if aim_actions:
        bonuses.append((f"{aim_actions} Aim action{'s' if aim_actions > 1 else ''}",
                        aim_bonus(aim_actions)))
    if scope_bonus:
        bonuses.append((f"scope at {band}", scope_bonus))
    if braced and kind == "ranged" and "Prone" in mine:
        bonuses.append(("braced while Prone", records.find_condition("Prone").ranged_roll_bonus))
    if roll_bonus:
        bonuses.append(("other roll modifiers", roll_bonus))
    return AttackPlan(
        action=action, weapon=weapon, kind=kind, band=band, tempo=used, exposed_after=exposed,
        pool=pool, dice_to_roll=rolled, tn=tn, roll_bonus=sum(b for _, b in bonuses),
        bonuses=tuple(bonuses), automatic=automatic, wr=arm.wr, ar=ar, critical=critical,
        step_modifier=act.step_modifier + step_modifier, damage_bonus=damage_bonus,
        hardened=hardened, scatter=arm.scatter, firing_into_melee=firing_into_melee,
        called_location=called_location, stationary_target=stationary_target,
        trace=tuple(trace), hardened_spent=hardened_spent)


def attack(faces: Sequence[int] | None = None, *, bleed: Sequence[int] = (),
           backlash_rule: str = "unresolved", dice: DiceSource | None = None,
           **setup) -> AttackResolution:
    """Resolve one attack through the nine steps of §VI The Attack Sequence.

    1 declare (*action* with *weapon*: tempo and exposure; a Rush / Charge is the melee attack
    at the end of the run, at +1 tempo); 2 pool = *attribute* + *skill* minus pool penalties
    (the action's, *attacker_conditions* such as an Arm Hit, *off_hand* −2, *firing_into_melee*,
    *pool_penalty*), at most −5 in all; a Downed attacker is refused; 3 TN = *defense* + *cover* + range (*band*) +
    *target_conditions* + *tn_modifier*; 4 Bleed Dice (*bleed*, 0–3 d8); 5 sum the two highest
    of *faces* (exactly the pool) and *bleed*; 6 roll modifiers (*aim_actions*, scope, *braced*
    while Prone, *roll_bonus*); 7 compare; 8 margin and Steps (a ranged miss by 1–2
    Suppresses); 9 damage = WR + Steps (+ *critical*, *step_modifier*) − *ar*
    (+ *damage_bonus*), *hardened* armour negating the scene's first Grievous Wound unless
    *hardened_spent* says this scene's negation is used (§IX Grievous Wound Notes).

    *faces* are the pool's d8; or give *dice*, a DiceSource (seeded or typed), and the pool
    is drawn from it. The other keywords are those of :func:`plan_attack`. Options: *small_pool* (assumption
    small_pools), *backlash_rule* (assumption bleed_dice), *exposure* (assumption
    exposure_by_tempo), *stationary_target* (assumption point_blank_stationary).
    """
    if backlash_rule not in BACKLASH_RULES:
        raise RulesError(f"backlash_rule must be one of {', '.join(BACKLASH_RULES)}, "
                         f"got {shown(backlash_rule)}")
    known = inspect.signature(plan_attack).parameters
    unknown = sorted(set(setup) - set(known))
    if unknown:
        raise RulesError(f"attack does not take {', '.join(unknown)}; it takes faces, dice, "
                         f"bleed, backlash_rule and {', '.join(known)}")
    missing = [n for n in ("attribute", "skill", "defense") if n not in setup]
    if missing:
        raise RulesError(f"attack needs {', '.join(missing)}")
    plan = plan_attack(**setup)
    trace = list(plan.trace)

    # 4. bleed dice
    faces = read_faces("faces", faces, dice, plan.dice_to_roll, why=f"a pool of {plan.pool}")
    extra = require_dice("bleed", bleed)
    if len(extra) > MAX_BLEED:
        raise RulesError(f"bleed must be 0 to {MAX_BLEED} Bleed Dice, got {len(extra)}")
    backlash: bool | None = None
    if extra:
        if backlash_rule == "any_one":
            backlash = 1 in extra
            note = "Backlash (a Bleed Die shows 1)" if backlash else "no Backlash"
        else:
            note = "Backlash is judged by the rules of Book III"
        trace.append(step(f"Bleed Dice: {list(extra)} join the roll; {note}",
                          BLEED.citing("bleed_dice"), bleed=len(extra)))
    else:
        trace.append(step("Bleed Dice: none", BLEED))

    # 5–7. roll, roll modifiers, compare
    all_dice = faces + extra
    kept = two_highest(all_dice)
    base_sum = sum(kept)
    trace.append(step(f"Roll: {list(all_dice) or 'no dice'}: two highest "
                      f"{' + '.join(map(str, kept)) or '—'} = {base_sum}", SEQUENCE,
                      base_sum=base_sum))
    final = base_sum + plan.roll_bonus
    listed = "".join(f" {signed(b)} ({why})" for why, b in plan.bonuses)
    trace.append(step(f"Roll modifiers:{listed or ' none'}; final sum {final}", SEQUENCE,
                      roll_bonus=plan.roll_bonus, final_sum=final))
    rolled_margin = final - plan.tn
    hit, margin = plan._outcome(rolled_margin)
    if hit and margin != rolled_margin:
        trace.append(step("A stationary target at Point-Blank cannot be missed: a hit at "
                          "margin 0", RANGE.citing("point_blank_stationary")))
    trace.append(step(f"Compare: {final} against TN {plan.tn}: "
                      + ("automatic failure" if plan.automatic else "hit" if hit else "miss"),
                      SEQUENCE, margin=margin))

    # 8. margin and steps; near misses
    near = not hit and not plan.automatic and -2 <= margin <= -1
    suppresses = near and plan.kind == "ranged"
    if suppresses:
        trace.append(step(f"Margin: missed by {-margin}: a near miss from gunfire leaves the "
                          "target Suppressed", SUPPRESSED))
    ally_risk = not hit and plan.ally_risk_on_miss(margin)
    if ally_risk:
        if plan.scatter:
            trace.append(step("Scatter weapon missed into a melee: roll 1d6, 1–4 hits an ally",
                              SCATTER))
        else:
            trace.append(step("Missed into a melee by 1–2: roll 1d6, 1–3 hits an ally", MELEE))
    elif plan.firing_into_melee and not hit and plan.called_location in HIGH_LOCATIONS:
        trace.append(step("A Called Shot high over the ally: no risk of hitting them",
                          AVOID.citing("called_shot_high")))
    dealt = n_steps = 0
    grievous = negated = False
    effect = ""
    if hit:
        hurt: DamageResolution = damage(plan.wr, margin, plan.ar, plan.critical,
                                        step_modifier=plan.step_modifier,
                                        damage_bonus=plan.damage_bonus, hardened=plan.hardened,
                                        hardened_spent=plan.hardened_spent)
        trace.append(step(f"Margin: {final} − {plan.tn} = {rolled_margin}", SEQUENCE,
                          margin=rolled_margin))
        trace.extend(hurt.trace)
        dealt, n_steps, grievous = hurt.value, hurt.steps, hurt.grievous
        negated = hurt.grievous_negated
        if plan.action == "Called Shot":
            effect = DATA.table("conditions", "called_shots").find(
                "location", plan.called_location)["effect"]
            trace.append(step(f"Called Shot to the {plan.called_location}: {effect}", CALLED))
        if plan.action == "Heavy Cleave":
            effect = "Target checks GRIT + Resilience (TN 11) or falls Prone"
            trace.append(step(effect, CLEAVE))
    outcome = ("Automatic failure" if plan.automatic else "Hit" if hit
               else "Near miss" if near else "Miss")
    return AttackResolution(
        value=dealt, outcome=outcome, trace=tuple(trace), action=plan.action,
        weapon=plan.weapon, tempo=plan.tempo, exposed_after=plan.exposed_after, pool=plan.pool,
        tn=plan.tn, dice=faces, bleed=extra, kept=kept, base_sum=base_sum,
        roll_bonus=plan.roll_bonus, final_sum=final, margin=margin, hit=hit,
        automatic=plan.automatic, near_miss=near, suppresses=suppresses, ally_risk=ally_risk,
        steps=n_steps, damage=dealt, grievous=grievous, backlash=backlash, effect=effect,
        grievous_negated=negated)


def attack_tn(defense: int, *, cover: str = "No Cover", weapon: str | None = None,
              band: str = "Near", target_conditions: Sequence[str] = (),
              tn_modifier: int = 0) -> int:
    """The TN of an attack: Defense + cover + range + target conditions + other modifiers
    (§VI step 3). Melee weapons take no range modifier."""
    require_int("defense", defense, minimum=0)
    require_int("tn_modifier", tn_modifier)
    if band not in records.BANDS:  # checked even for a melee weapon, which ignores it
        raise RulesError(f"band must be one of {', '.join(records.BANDS)}, got {shown(band)}")
    mod, targetable = records.find_cover(cover)
    if not targetable:
        raise RulesError(f"cover {shown(cover)}: a target behind total cover cannot be attacked")
    kind = "ranged"
    if weapon is not None:
        arm = records.find_weapon(weapon)
        kind = arm.kind
        if kind == "ranged":
            mod += records.range_modifier(arm.range_class, band).tn_modifier
    for name in _names("target_conditions", target_conditions):
        if name == "Exposed" and cover == "Exposed":
            continue  # counted once (assumption exposed_once)
        c = records.find_condition(name)
        mod += c.tn_melee if kind == "melee" else c.tn_ranged
    return defense + mod + tn_modifier


def wrong_target(d6: int | None, *, scatter: bool = False,
                 dice: DiceSource | None = None) -> bool:
    """After a miss into a melee: does the shot hit an ally? (§VII) 1–3 on the d6 does, 1–4 for
    a Scatter weapon. *d6* is the die rolled (or give *dice*, a DiceSource)."""
    d6 = read_die("d6", d6, dice, 6)
    row = DATA.table("conditions", "firing_into_melee").find(
        "weapon", "scatter" if _flag("scatter", scatter) else "ordinary")
    return d6 <= row["ally_hit_d6_max"]


def grapple(faces: Sequence[int] | None, iron: int, brawl: int, defense: int, *,
            roll_bonus: int = 0, dice: DiceSource | None = None) -> Resolution:
    """Grapple (Tempo 5): IRON + Brawl against the target's Defense; on success both are
    Grappled (§III Grapple). *faces* must number IRON + Brawl (or give *dice*, a
    DiceSource)."""
    require_attribute("iron", iron)
    require_skill("brawl", brawl)
    require_int("defense", defense, minimum=0)
    faces = read_faces("faces", faces, dice, iron + brawl, why=f"iron {iron} + brawl {brawl}")
    result = check(faces, defense, roll_bonus)
    outcome = "Grappled" if result.success else "Failed"
    return Resolution(value=result.margin, outcome=outcome, trace=result.trace + (
        step("Success: attacker and target are both Grappled" if result.success
             else "Failure: no hold", GRAPPLE),))


def resist(faces: Sequence[int] | None, grit: int, resilience: int, *,
           effect: str = "Stunned", roll_bonus: int = 0,
           dice: DiceSource | None = None) -> Resolution:
    """GRIT + Resilience against TN 11 to resist being Stunned (§XI Stunned) or knocked Prone
    by a Heavy Cleave (§III). ``outcome`` is "Resisted" or the *effect* suffered. *faces*
    number GRIT + Resilience (or give *dice*, a DiceSource)."""
    require_attribute("grit", grit)
    require_skill("resilience", resilience)
    if effect not in ("Stunned", "Prone"):
        raise RulesError(f"effect must be Stunned or Prone, got {shown(effect)}")
    faces = read_faces("faces", faces, dice, grit + resilience,
                       why=f"grit {grit} + resilience {resilience}")
    result = check(faces, RESIST_TN, roll_bonus)
    rule = STUNNED if effect == "Stunned" else CLEAVE
    return Resolution(value=result.margin, outcome="Resisted" if result.success else effect,
                      trace=result.trace + (step(
                          "Resisted" if result.success else f"Failed: {effect}", rule),))


def coup_de_grace(wr: int, tn: int, ar: int, *, roll_bonus: int = 0, critical: int = 0,
                  hardened: bool = False, hardened_spent: bool = False) -> DamageResolution:
    """Coup de grâce on a helpless target: an automatic hit with the highest possible sum
    (8 + 8), so the most Steps that sum earns against *tn* (§XIII Coup de Grâce). *hardened*
    and *hardened_spent* are the target's armour, as for :func:`damage`."""
    require_int("tn", tn)
    require_int("roll_bonus", roll_bonus)
    best = 16 + roll_bonus
    margin = max(best - tn, 0)
    hurt = damage(wr, margin, ar, critical, hardened=hardened, hardened_spent=hardened_spent)
    return DamageResolution(
        value=hurt.value, outcome=hurt.outcome, steps=hurt.steps, grievous=hurt.grievous,
        grievous_negated=hurt.grievous_negated,
        trace=(step(f"Automatic hit at the highest sum 16 {signed(roll_bonus)} = {best} against "
                    f"TN {tn}: margin {margin}", COUP, margin=margin),) + hurt.trace)


def two_weapon_tempo(main_weapon: str, off_weapon: str) -> int:
    """Tempo of a two-weapon attack: the slower weapon's base tempo + 1 (§XIII Two-Weapon
    Fighting; two knives at 3 → 4). The off-hand attack rolls at −2 dice."""
    extra = records.settings("conditions", "two_weapons")["extra_tempo"]
    main = records.find_weapon(main_weapon, param="main_weapon")
    off = records.find_weapon(off_weapon, param="off_weapon")
    return max(main.base_tempo, off.base_tempo) + extra


# --- the horde -----------------------------------------------------------------------------------

def _horde() -> dict[str, int]:
    return records.settings("conditions", "horde")


def horde_pool(base_pool: int, size: int) -> int:
    """A Horde's pool: the base creature's pool + the Horde's current size (§XIII The Horde)."""
    h = _horde()
    require_int("base_pool", base_pool, minimum=0)
    require_int("size", size, minimum=h["breaks_at"] + 1, maximum=h["max_size"])
    return HORDE_POOL.evaluate(Base=base_pool, Size=size)


@dataclass(frozen=True, kw_only=True)
class HordeResolution(Resolution):
    """Casualties of one hit on a Horde: ``value`` is the casualties."""

    size: int
    broken: bool


def horde_casualties(margin: int, wr: int, size: int, *,
                     mass_destruction: bool = False) -> HordeResolution:
    """Casualties from a hit on a Horde: 1, +1 a Step (margin ÷ 3), +1 with WR 4+, doubled for
    Scatter or Blast (§XIII The Horde). At size 2 or less the Horde breaks into 2 NPCs."""
    h = _horde()
    require_int("margin", margin, minimum=0)
    require_int("wr", wr, minimum=0)
    require_int("size", size, minimum=h["breaks_at"] + 1, maximum=h["max_size"])
    _flag("mass_destruction", mass_destruction)
    n_steps = margin // records.settings("injury", "damage_rules")["steps_divisor"]
    heavy = h["heavy_weapon_casualties"] if wr >= h["heavy_weapon_wr"] else 0
    mult = h["mass_destruction_multiplier"] if mass_destruction else 1
    dead = HORDE_CASUALTIES.evaluate(Steps=n_steps, Heavy=heavy, Multiplier=mult)
    left = max(size - dead, 0)
    broken = left <= h["breaks_at"]
    text = f"1 (base) + {n_steps} (Steps) + {heavy} (WR {wr})"
    if mult != 1:
        text = f"({text}) × {mult} (Scatter or Blast)"
    trace = [step(f"Casualties: {text} = {dead}", HORDE, casualties=dead),
             step(f"Size {size} − {dead} = {left}"
                  + (": the Horde breaks; 2 individual NPCs remain" if broken else ""),
                  HORDE, size=left)]
    return HordeResolution(value=dead, outcome="Broken" if broken else "Horde",
                           trace=tuple(trace), size=left, broken=broken)


def _require_horde_size(horde_size: object) -> int:
    """0 for one fighter, or a Horde's size: more than it breaks at, at most its maximum."""
    h = _horde()
    require_int("horde_size", horde_size, minimum=0, maximum=h["max_size"])
    if 0 < horde_size <= h["breaks_at"]:  # type: ignore[operator]
        raise RulesError(f"horde_size must be 0 (one fighter) or from {h['breaks_at'] + 1} to "
                         f"{h['max_size']} (a Horde), got {horde_size}")
    return horde_size  # type: ignore[return-value]


def horde_tempo(kind: str) -> int:
    """A Horde's fixed tempo: Swarm (melee) 6, Firing Line (ranged) 5 (§XIII The Horde)."""
    if kind not in ("melee", "ranged"):
        raise RulesError(f"kind must be melee or ranged, got {shown(kind)}")
    return _horde()[f"{kind}_tempo"]


def escape(faces: Sequence[int] | None, grappler_dice: Sequence[int] | None, *, iron: int,
           brawl: int, grappler_iron: int, grappler_brawl: int,
           dice: DiceSource | None = None) -> Resolution:
    """Escape a grapple (§XI Grappled): opposed IRON + Brawl; the grappled character must beat
    the grappler's sum, a tie keeps the hold (assumption escape_ties). ``value`` is the
    difference of the sums. *faces* and *grappler_dice* are each side's d8; or give *dice*, a
    DiceSource, and the escaper's pool then the grappler's are drawn from it."""
    if dice is not None and (faces is not None or grappler_dice is not None):
        raise RulesError("give faces and grappler_dice (the faces rolled) or dice (a "
                         "DiceSource), not both")
    sums = []
    for name, given, iron_, brawl_ in (("faces", faces, iron, brawl),
                                       ("grappler_dice", grappler_dice, grappler_iron,
                                        grappler_brawl)):
        prefix = "" if name == "faces" else "grappler_"
        require_attribute(f"{prefix}iron", iron_)
        require_skill(f"{prefix}brawl", brawl_)
        if dice is not None and not isinstance(dice, DiceSource):
            raise RulesError(f"dice must be a DiceSource (seeded or typed) or None, "
                             f"got {shown(dice)}")
        got = (dice.dice(iron_ + brawl_, 8, f"{prefix or 'escaper '}die") if dice is not None
               else read_faces(name, given, None, iron_ + brawl_,
                               why=f"{prefix}iron {iron_} + {prefix}brawl {brawl_}"))
        sums.append(sum(two_highest(got)))
    if dice is not None:
        dice.finish("escape")
    free = sums[0] > sums[1]
    tie = sums[0] == sums[1]
    return Resolution(value=sums[0] - sums[1], outcome="Escaped" if free else "Held", trace=(
        step(f"Escape {sums[0]} against the grappler's {sums[1]}: "
             + ("free" if free else "still Grappled (a tie keeps the hold)" if tie
                else "still Grappled"),
             DATA.rule("XI Grappled", *(("escape_ties",) if tie else ())), escape=sums[0],
             hold=sums[1]),))


def stray_shot(d6: int | None, wr: int, ar: int, *, scatter: bool = False,
               dice: DiceSource | None = None) -> DamageResolution:
    """A miss into a melee that may strike an ally (§VII Firing into Melee): on 1–3 on the d6
    (1–4 for a Scatter weapon) the ally takes damage as if hit — WR − the ally's AR, with no
    Steps (assumption ally_damage). ``value`` is the ally's damage, 0 on a clean miss. *d6* is
    the die rolled (or give *dice*, a DiceSource)."""
    require_int("wr", wr, minimum=0)
    require_int("ar", ar, minimum=0)
    d6 = read_die("d6", d6, dice, 6)
    struck = wrong_target(d6, scatter=scatter)
    rule = SCATTER if scatter else MELEE
    if not struck:
        return DamageResolution(value=0, outcome="Clean miss", steps=0, grievous=False,
                                trace=(step(f"d6 {d6}: a clean miss", rule, d6=d6),))
    hurt = damage(wr, 0, ar)
    return DamageResolution(value=hurt.value, outcome="Ally hit", steps=hurt.steps,
                            grievous=hurt.grievous,
                            trace=(step(f"d6 {d6}: the shot hits the ally (a hit at margin "
                                        "0)", rule.citing("ally_damage"), d6=d6),)
                            + hurt.trace)


@dataclass(frozen=True, kw_only=True)
class StrayShotResolution(DamageResolution):
    """A miss into a melee among allies: ``value`` is the struck ally's damage (0 on a clean
    miss) and ``struck`` the ally's name (None on a clean miss)."""

    struck: str | None


def stray_shot_among(allies: Sequence[str], wr: int, ar: int, d6: int | None = None,
                     ally_die: int | None = None, *, scatter: bool = False,
                     dice: DiceSource | None = None) -> StrayShotResolution:
    """A miss that risks the allies in a melee (§VII Firing into Melee, Multiple Allies): the
    d6 says whether the shot strikes an ally (:func:`stray_shot`), then a die with one face
    per ally says which (:func:`~.reactions.stray_ally`, assumption stray_ally_die); one ally
    needs no second die. Give the dice as *d6* and *ally_die*, or draw them in that order
    from *dice* (a DiceSource); a clean miss reads no ally die."""
    names = ally_names(allies)
    _flag("scatter", scatter)
    drawn = dice_to_draw_from(dice)
    if ally_die is not None:
        if drawn is not None:
            raise RulesError(f"give ally_die or dice, not both: got ally_die {shown(ally_die)} "
                             f"and dice ({drawn.describe()})")
        require_int("ally_die", ally_die, minimum=1, maximum=len(names))
    d6 = require_int("d6", die_or_draw("d6", d6, drawn, 6, "the stray shot's d6"),
                     minimum=1, maximum=6)
    shot = stray_shot(d6, wr, ar, scatter=scatter)
    if shot.outcome != "Ally hit":
        if ally_die is not None:
            raise RulesError(f"ally_die is read only when the shot strikes an ally: d6 {d6} is "
                             f"a clean miss, got ally_die {shown(ally_die)}")
        if drawn is not None:
            drawn.finish("stray shot")
        return StrayShotResolution(value=0, outcome=shot.outcome, steps=0, grievous=False,
                                   struck=None, trace=shot.trace)
    if len(names) == 1 and ally_die is None:
        ally_die = 1
    who = stray_ally(names, ally_die, dice=None if ally_die is not None else drawn)
    if drawn is not None:
        drawn.finish("stray shot")
    return StrayShotResolution(value=shot.value, outcome=f"{who.value} is hit",
                               steps=shot.steps, grievous=shot.grievous, struck=who.value,
                               trace=shot.trace[:1] + who.trace + shot.trace[1:])


def stray_shot_chances(allies: Sequence[str], *,
                       scatter: bool = False) -> dict[str | None, Fraction]:
    """The exact chance that a miss into a melee strikes each ally, and (key None) that it
    strikes no one (§VII Firing into Melee, assumption stray_ally_die: each ally alike)."""
    names = ally_names(allies)
    _flag("scatter", scatter)
    struck = Fraction(sum(wrong_target(d, scatter=scatter) for d in range(1, 7)), 6)
    return {None: 1 - struck, **{name: struck / len(names) for name in names}}
