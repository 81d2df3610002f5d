"""Damage, the health track, grievous wounds, bleeding out, death and stabilisation (§VIII–§X),
and healing (§XIV)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ...errors import RulesError, require_bool, require_int, shown
from ...formulas import Formula
from ...trace import Resolution, step
from . import records
from ._system import DATA
from .records import GrievousWound
from ...dice import DiceSource
from .core import (ATTRIBUTE_RANGE, VITALITY, check, read_die, read_faces,
                   require_attribute, signed)
from .core import require_skill, require_vitality
from .core import vitality as full_vitality

DAMAGE_RULE = DATA.rule("VIII Calculating Damage")
HEALTH = DATA.rule("VIII The Health Track")
GRIEVOUS = DATA.rule("IX Triggering a Grievous Wound")
GRIEVOUS_TABLE = DATA.rule("IX The Grievous Wound Table")
GRIEVOUS_NOTES = DATA.rule("IX Grievous Wound Notes")
BLEEDING = DATA.rule("X Bleeding Out")
DEATH = DATA.rule("X Death Threshold")
STABILIZATION = DATA.rule("X Stabilization")
HEALING = DATA.rule("XIV In-Combat Healing")
LONG_REST = DATA.rule("XIV Long Rest")

STEPS = Formula("Steps", "Margin // 3 + Critical", DAMAGE_RULE)
DAMAGE = Formula("Damage", "max(WR + Steps - AR, 0)", DAMAGE_RULE)
DEATH_AT = Formula("Death", "-(IRON + 2)", DEATH)
STABILIZATION_TN = Formula("TN", "11 + max(0, -Vitality)", STABILIZATION)
HEALTH_STATES = ("Healthy", "Wounded", "Downed", "Dead")
FUMBLE_RULES = ("all_ones", "declared")


def _rules() -> dict[str, int]:
    return records.settings("injury", "damage_rules")


@dataclass(frozen=True, kw_only=True)
class DamageResolution(Resolution):
    """Damage of one hit: ``value`` is the damage after armour (0 or more)."""

    steps: int
    grievous: bool
    grievous_negated: bool = False


def steps(margin: int, critical: int = 0, step_modifier: int = 0) -> int:
    """Steps = margin ÷ 3 rounded down + any Critical bonus (+ action/situation modifiers)."""
    require_int("margin", margin, minimum=0)
    require_int("critical", critical, minimum=0)
    require_int("step_modifier", step_modifier)
    return margin // _rules()["steps_divisor"] + critical + step_modifier


def damage(wr: int, margin: int, ar: int, critical: int = 0, *, step_modifier: int = 0,
           damage_bonus: int = 0, hardened: bool = False,
           hardened_spent: bool = False) -> DamageResolution:
    """Damage = WR + Steps − AR, never below 0 (§VIII Calculating Damage).

    *margin* is the hit's margin (0 or more: a miss deals no damage). Steps = margin ÷ 3
    (rounded down) + *critical* (the Critical bonus, which the chapter does not define: see
    assumption critical_bonus) + *step_modifier* (Shiv −1, melee from horseback +1).
    *damage_bonus* adds to the damage (a mounted Charge, +2). 5 or more damage after armour is a
    Grievous Wound (§IX), unless *hardened* armour negates it: Hardened armour negates only the
    first Grievous Wound of the scene, so the caller says with *hardened_spent* whether this
    scene's negation is already used (``grievous_negated`` on the result says it was used now).
    """
    require_int("wr", wr, minimum=0)
    require_int("ar", ar, minimum=0)
    require_int("damage_bonus", damage_bonus)
    require_bool("hardened", hardened)
    require_bool("hardened_spent", hardened_spent)
    n = steps(margin, critical, step_modifier)
    divisor = _rules()["steps_divisor"]
    trace = [step(f"Steps: margin {margin} ÷ {divisor} = {margin // divisor}"
                  + (f", + Critical {critical}" if critical else "")
                  + (f", {signed(step_modifier)} from the action" if step_modifier else "")
                  + f" → {n} Step{'s' if n != 1 else ''}", DAMAGE_RULE, steps=n)]
    raw = wr + n - ar + damage_bonus
    dealt = max(raw, 0)
    text = f"Damage: WR {wr} + {n} Steps − AR {ar}"
    if damage_bonus:
        text += f" {signed(damage_bonus)} bonus"
    text += f" = {raw}" + (" → 0 (damage never drops below 0)" if raw < 0 else "")
    trace.append(step(text, DAMAGE_RULE, damage=dealt))
    threshold = _rules()["grievous_at"]
    grievous = dealt >= threshold
    negated = False
    if grievous and hardened and not hardened_spent:
        grievous, negated = False, True
        trace.append(step(f"{dealt} damage is a Grievous Wound, but Hardened armour negates the "
                          "first one of the scene; the damage still applies", GRIEVOUS_NOTES))
    elif grievous and hardened:
        trace.append(step("Hardened armour already negated a Grievous Wound this scene: this "
                          "one stands", GRIEVOUS_NOTES))
    elif grievous:
        trace.append(step(f"{dealt} damage (≥ {threshold}) after armour: a Grievous Wound; roll "
                          "1d8 on the Grievous Wound table", GRIEVOUS, threshold=threshold))
    outcome = "Grievous" if grievous else ("No damage" if dealt == 0 else "Damage")
    return DamageResolution(value=dealt, outcome=outcome, trace=tuple(trace), steps=n,
                            grievous=grievous, grievous_negated=negated)


def death_threshold(iron: int) -> int:
    """The Vitality at which a character dies: −(IRON + 2) (§X Death Threshold)."""
    records.check_formula_tables()
    return DEATH_AT.evaluate(IRON=require_attribute("iron", iron))


def health_state(vitality: int, iron: int) -> str:
    """"Healthy" | "Wounded" | "Downed" | "Dead" for current Vitality (§VIII The Health Track).

    Full Vitality is IRON + 8. Healthy above half of it, Wounded at or below half, Downed at 0
    or below, Dead at −(IRON + 2) or below. Half of an odd total counts down: 5 of 11 is
    Wounded, 6 Healthy (assumption wounded_odd_vitality).
    """
    full = full_vitality(iron)
    require_vitality(vitality, iron)
    if vitality <= death_threshold(iron):
        return "Dead"
    if vitality <= 0:
        return "Downed"
    if 2 * vitality <= full:
        return "Wounded"
    return "Healthy"


def wounded_penalty(vitality: int, iron: int) -> int:
    """Dice lost on physical actions from the health track: 1 when Wounded, else 0."""
    state = health_state(vitality, iron)
    return _rules()["wounded_pool_penalty"] if state == "Wounded" else 0


@dataclass(frozen=True, kw_only=True)
class GrievousResolution(Resolution):
    """A grievous wound rolled on the table; ``value`` is the d8 roll."""

    wound: GrievousWound
    limb: str | None
    bleeding_out: bool


def grievous_wound(roll: int | None = None, *, called_limb: str | None = None,
                   dice: DiceSource | None = None) -> GrievousResolution:
    """The Grievous Wound for a d8 *roll* (§IX The Grievous Wound Table), or for the d8 drawn
    from *dice*, a DiceSource (seeded or typed).

    A Broken Bone from a Called Shot at a limb affects that limb (§IX Grievous Wound Notes); an
    Arterial Hit starts Bleeding Out even with Vitality left.
    """
    limbs = ("Arm/Hand", "Leg")
    if called_limb is not None and called_limb not in limbs:
        raise RulesError(f"called_limb must be one of {', '.join(limbs)} or None, "
                         f"got {shown(called_limb)}")
    roll = read_die("roll", roll, dice, 8)
    row = records.grievous_row(roll)
    trace = [step(f"d8 {roll}: {row.wound} — {row.effect} (treatment: {row.treatment})",
                  GRIEVOUS_TABLE, roll=roll, wound=row.wound)]
    limb = None
    if row.wound == "Broken Bone" and called_limb:
        limb = called_limb
        trace.append(step(f"The Called Shot aimed at the {called_limb}: that limb is broken",
                          GRIEVOUS_NOTES, limb=called_limb))
    if row.bleeding_out:
        trace.append(step("Bleeding Out begins now, even with Vitality left", GRIEVOUS_NOTES))
    return GrievousResolution(value=roll, outcome=row.wound, trace=tuple(trace), wound=row,
                              limb=limb, bleeding_out=row.bleeding_out)


@dataclass(frozen=True, kw_only=True)
class BleedResolution(Resolution):
    """One start-of-turn loss while Bleeding Out: ``value`` is the new Vitality."""

    state: str
    turns_left: int


def bleed_out_turn(vitality: int, iron: int) -> BleedResolution:
    """Start of a Bleeding Out character's turn: lose 1 Vitality (§X Bleeding Out).

    ``turns_left`` is how many more such losses the character survives before dying.
    """
    state = health_state(vitality, iron)
    if state == "Dead":
        raise RulesError(f"vitality {vitality} is at or below the death threshold "
                         f"{death_threshold(iron)} for iron {iron}: the character is already "
                         "dead")
    loss = records.settings("injury", "bleeding_out")["vitality_loss_per_turn"]
    new = vitality - loss
    new_state = health_state(new, iron)
    left = max(new - death_threshold(iron), 0)
    trace = (step(f"Bleeding Out: Vitality {vitality} − {loss} = {new}", BLEEDING,
                  vitality=new),
             step(f"Death at {death_threshold(iron)} (−(IRON {iron} + 2)): "
                  + ("dead" if new_state == "Dead" else f"{left} more turn(s) to live"),
                  DEATH, death_at=death_threshold(iron)))
    return BleedResolution(value=new, outcome=new_state, trace=trace, state=new_state,
                           turns_left=left)


def turns_to_death(vitality: int, iron: int) -> int:
    """Start-of-turn losses a Bleeding Out character takes before dying (the last one kills).

    IRON 1 at 0 Vitality: −1, −2, −3 → 3 turns (§X Death Threshold example).
    """
    state = health_state(vitality, iron)
    if state == "Dead":
        return 0
    return vitality - death_threshold(iron)


def stabilization_tn(vitality: int) -> int:
    """Stabilisation TN = 11 + how far below 0 the patient is (§X Stabilization).

    A patient still above 0 (Bleeding Out from an Arterial Hit) needs TN 11. *vitality* is
    that of a living character: from −6 (IRON 5 dies at −7) to 13 (full Vitality at IRON 5).
    """
    require_patient_vitality(vitality)
    records.check_formula_tables()
    base = records.settings("injury", "stabilization_rules")["base_tn"]
    return base + max(0, -vitality)


def healer_pool(attribute: int, medicine: int) -> int:
    """The healer's stabilisation pool: an attribute + Medicine (§X Stabilization: a Medicine
    check). The seed names the skill, not the attribute; the book reads SAVVY, and the fight
    page lets the table choose another (assumption healer_attribute)."""
    require_attribute("attribute", attribute)
    require_skill("medicine", medicine)
    return attribute + medicine


def require_patient_vitality(vitality: object) -> int:
    """The Vitality of a living character of any IRON: above the lowest death threshold, at
    most the highest full Vitality (§VIII The Health Track, §X Death Threshold)."""
    strongest = ATTRIBUTE_RANGE[1]
    return require_int("vitality", vitality, minimum=DEATH_AT.evaluate(IRON=strongest) + 1,
                       maximum=VITALITY.evaluate(IRON=strongest))


@dataclass(frozen=True, kw_only=True)
class StabilizeResolution(Resolution):
    """A stabilisation attempt: ``value`` is the patient's Vitality afterwards."""

    tn: int
    margin: int
    stabilized: bool
    fumble: bool
    dice: tuple[int, ...] = ()  # the healer's d8


def stabilize(faces: Sequence[int] | None, vitality: int, *, medical_kit: bool = False,
              roll_bonus: int = 0, fumble: bool = False, fumble_rule: str = "all_ones",
              dice: DiceSource | None = None, pool: int | None = None) -> StabilizeResolution:
    """A Medicine check (Tempo 6) to stop Bleeding Out (§X Stabilization).

    TN from :func:`stabilization_tn`; a Medical Kit gives +2. Success: the bleeding stops at the
    current Vitality. Failure: it goes on. Fumble: the patient loses 1 more Vitality. The
    chapter does not define a fumble (assumption fumble): by default (``fumble_rule=
    "all_ones"``) every die showing 1 is one, and the table may also declare one with
    *fumble*; with ``"declared"`` only the table's *fumble* counts. *faces* are the healer's
    Medicine dice; or give *dice*, a DiceSource, and the healer's *pool* to draw.
    """
    faces = read_faces("faces", faces, dice, pool)
    if fumble_rule not in FUMBLE_RULES:
        raise RulesError(f"fumble_rule must be one of {', '.join(FUMBLE_RULES)}, "
                         f"got {shown(fumble_rule)}")
    require_bool("medical_kit", medical_kit)
    require_bool("fumble", fumble)
    rules = records.settings("injury", "stabilization_rules")
    tn = stabilization_tn(vitality)
    bonus = require_int("roll_bonus", roll_bonus) + (rules["medical_kit_bonus"] if medical_kit
                                                     else 0)
    result = check(faces, tn, bonus)
    all_ones = fumble_rule == "all_ones" and bool(faces) and all(f == 1 for f in faces)
    fumble = fumble or all_ones
    trace = [step(f"Patient at Vitality {vitality}: TN {rules['base_tn']} + "
                  f"{max(0, -vitality)} below 0 = {tn}", STABILIZATION, tn=tn)]
    if medical_kit:
        trace.append(step(f"Medical Kit: +{rules['medical_kit_bonus']} roll bonus", STABILIZATION))
    trace.extend(result.trace)
    after = vitality
    if result.success:
        outcome = "Stabilized"
        trace.append(step("Success: the bleeding stops; the patient stays Downed at "
                          f"Vitality {after}", STABILIZATION))
    else:
        outcome = "Still bleeding"
        trace.append(step("Failure: the patient keeps Bleeding Out; try again", STABILIZATION))
    if fumble and not result.success:
        after -= rules["fumble_vitality_loss"]
        outcome = "Fumble"
        if all_ones:
            trace.append(step("Every die shows 1: a fumble", STABILIZATION.citing("fumble")))
        trace.append(step(f"Fumble: the patient loses {rules['fumble_vitality_loss']} more "
                          f"Vitality, now {after}", STABILIZATION, vitality=after))
    return StabilizeResolution(value=after, outcome=outcome, trace=tuple(trace), tn=tn,
                               margin=result.margin, stabilized=result.success,
                               fumble=fumble and not result.success, dice=faces)


def first_aid(faces: Sequence[int] | None, vitality: int, iron: int, *, roll_bonus: int = 0,
              already_treated: bool = False, dice: DiceSource | None = None,
              pool: int | None = None) -> Resolution:
    """First Aid (Tempo 6, Medicine TN 11): stop bleeding and heal 1 HP (§XIV In-Combat
    Healing). Once per character per scene. *faces* are the Medicine dice; or give *dice*, a
    DiceSource, and the *pool* to draw."""
    full = full_vitality(iron)
    require_vitality(vitality, iron)
    require_bool("already_treated", already_treated)
    if already_treated:
        raise RulesError("already_treated is True: First Aid heals a character once a scene")
    tn = records.settings("conditions", "rest_rules")["first_aid_tn"]
    result = check(read_faces("faces", faces, dice, pool), tn, roll_bonus)
    after = min(vitality + 1, full) if result.success else vitality
    said = (f"succeeds: bleeding stops, +1 HP → {after}" if result.success
            else "fails: no healing")
    trace = result.trace + (step(f"First Aid {said}", HEALING, vitality=after),)
    return Resolution(value=after, outcome="Treated" if result.success else "Failed",
                      trace=trace)


def long_rest(vitality: int, iron: int) -> int:
    """Vitality after a Long Rest: + IRON, up to full Vitality (§XIV Long Rest)."""
    full = full_vitality(iron)
    require_vitality(vitality, iron)
    return min(vitality + iron, full)


def long_rest_recovery(vitality: int, iron: int) -> Resolution:
    """A Long Rest of 8 hours, step by step (§XIV Long Rest): Vitality + IRON, up to full
    Vitality (:func:`long_rest`); all Strain and all Mettle come back; one Grievous Wound may
    be cleared with a Medicine check at its TN (:func:`treat_grievous`); Erosion stays. It
    needs food, water and a secure camp. ``value`` is the Vitality after the rest."""
    after = long_rest(vitality, iron)
    full = full_vitality(iron)
    added = (f"{vitality + iron}, at most full Vitality {full}: {after}"
             if vitality + iron > full else f"{after} of {full}")
    rows = {r["wound"]: r["treatment_tn"] for r in DATA.table("injury", "grievous_wounds")}
    tns = ", ".join(f"{wound} {tn}" for wound, tn in rows.items() if tn)
    return Resolution(value=after, outcome="Rested", trace=(
        step(f"Long Rest (8 hours): Vitality {vitality} + IRON {iron} = {added}", LONG_REST,
             vitality=after),
        step("All Strain and all Mettle recovered; Erosion does not recover", LONG_REST),
        step(f"One Grievous Wound may be cleared with a Medicine check at its TN ({tns})",
             LONG_REST)))


def treatable_grievous(wound: str) -> GrievousWound:
    """The row of a Grievous Wound a Medicine check treats (§IX table); a RulesError for one
    that needs rest or a stabilisation instead."""
    row = records.grievous_by_name(wound)
    if not row.treatment_tn:
        raise RulesError(f"wound {shown(wound)} is not treated by a Medicine check: "
                         f"{row.treatment}")
    return row


@dataclass(frozen=True, kw_only=True)
class TreatResolution(Resolution):
    """A Medicine check on a Grievous Wound: ``value`` is the margin; ``headline`` says what
    happens to the wound in the table's words (cleared, or set with days of recovery left)."""

    wound: str
    treated: bool
    recovery_days: int  # days the wound still takes after a successful check; 0 = cleared
    headline: str


def _treated_headline(row: GrievousWound, treated: bool) -> str:
    """What a Medicine check does to the wound (§IX table's Treatment column): a failed check
    leaves it; a success clears it, or starts its recovery ("then 1 day recovery"), during
    which its effect lasts."""
    if not treated:
        return f"Not treated: the {row.wound} stays"
    if not row.recovery_days:
        return f"Treated: the {row.wound} is cleared"
    days = f"{row.recovery_days} day{'s' if row.recovery_days != 1 else ''}"
    return (f"Treated: the {row.wound} is set and clears after {days} of recovery "
            f"(until then: {row.effect[0].lower()}{row.effect[1:]})")


def treat_grievous(faces: Sequence[int] | None, wound: str, *, roll_bonus: int = 0,
                   dice: DiceSource | None = None, pool: int | None = None) -> TreatResolution:
    """A Medicine check to treat or clear a Grievous Wound at its TN (§IX table, §XIV Long
    Rest): Flesh Wound 9, Broken Bone 13 (then a day's recovery), Internal Bleeding 15
    (surgery). Concussion needs 24 hours' rest and an Arterial Hit stabilisation instead.
    *faces* are the Medicine dice; or give *dice*, a DiceSource, and the *pool* to draw."""
    row = treatable_grievous(wound)
    result = check(read_faces("faces", faces, dice, pool), row.treatment_tn, roll_bonus)
    headline = _treated_headline(row, result.success)
    # the recovery comes from the table's Treatment column; clearing from §XIV Long Rest
    said_by = GRIEVOUS_TABLE if result.success and row.recovery_days else LONG_REST
    trace = (step(f"{wound}: {row.treatment}", GRIEVOUS_TABLE, tn=row.treatment_tn),
             *result.trace, step(headline, said_by))
    return TreatResolution(value=result.margin,
                           outcome="Treated" if result.success else "Untreated", trace=trace,
                           wound=row.wound, treated=result.success,
                           recovery_days=row.recovery_days if result.success else 0,
                           headline=headline)


def knit_flesh(d3: int | None, vitality: int, iron: int, *,
               dice: DiceSource | None = None) -> int:
    """Vitality after Knit Flesh heals 1d3 HP, up to full Vitality (§XIV In-Combat Healing).
    *d3* is the die rolled (or give *dice*, a DiceSource)."""
    full = full_vitality(iron)
    require_vitality(vitality, iron)
    d3 = read_die("d3", d3, dice, 3)
    return min(vitality + d3, full)
