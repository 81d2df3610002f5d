"""Healing sequence: bleeding, extended shock, coma, healing rolls, infection, impairment."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from ...errors import RulesError, require_bool, require_int, require_list, shown
from ...formulas import Formula
from ...trace import Resolution, Step, step
from ._system import DATA
from ...dice import DiceSource
from .checks import effective_eml, rolled, success_level
from .injury import combine_shock_states, require_shock_state

BLEEDING = "Healing 1 Bleeding"
EXTENDED = "Healing 2 Extended Shock"
COMA = "Healing 3 Coma"
HEALING = "Healing 6 Healing"
INFECTION = "Healing 7 Infection"
IMPAIRMENT = "Healing 8 Impairment"

MAX_HEALERS = 20  # healers' Treatment Rolls combined for one injury
MAX_SOURCES = 20  # arcane sources offering a bonus to one roll

COMA_HR = Formula("HR", "12 - location_shock - injury_level", DATA.rule(COMA))
_CODES = {5: "G5", 4: "G4", 3: "S3", 2: "S2", 1: "M1"}


def _rule(name: str, file: str = "healing", tab: str = "course_rules") -> int:
    return DATA.setting(file, tab, name)


@dataclass(frozen=True, kw_only=True)
class BloodStoppageResolution(Resolution):
    """A Blood Stoppage Roll: value = the roll, outcome = "stopped" or "bleeding"."""

    level: str
    stopped: bool
    extra_advance_roll: bool
    next_bonus: int


def blood_stoppage(roll: int | None, physician_eml: int, *, bleeders: int = 1,
                   cauterise: bool = False, tourniquet: bool = False,
                   dice: DiceSource | None = None) -> BloodStoppageResolution:
    """Step 1: a Physician test to stop one bleeder (Staunch, or Cauterisation +30; a
    tourniquet on a limb +20), -10 for each other bleeder treated in the same 5 minutes.
    *roll* None draws the d100 from *dice*."""
    require_int("physician_eml", physician_eml)
    roll = rolled("roll", roll, dice, what="Blood Stoppage Roll (d100)")
    require_int("bleeders", bleeders, minimum=1)
    require_bool("cauterise", cauterise)
    require_bool("tourniquet", tourniquet)
    mods = DATA.table("healing", "blood_stoppage_modifiers")
    eml = physician_eml + mods.find("modifier", "per_extra_bleeder")["value"] * (bleeders - 1)
    if cauterise:
        eml += mods.find("modifier", "cauterisation")["value"]
    if tourniquet:
        eml += mods.find("modifier", "tourniquet")["value"]
    used = effective_eml(eml)
    level = success_level(roll, used)
    row = DATA.table("healing", "blood_stoppage").find("level", level)
    trace = [step(f"Physician EML {physician_eml} → {used} (bleeders {bleeders}"
                  f"{', cauterisation' if cauterise else ''}{', tourniquet' if tourniquet else ''}"
                  f"); roll {roll}: {level}", DATA.rule(BLEEDING), roll=roll, eml=used, level=level),
             step(row["result"], DATA.rule(BLEEDING))]
    return BloodStoppageResolution(value=roll, outcome="stopped" if row["stopped"] else
                                   "bleeding", trace=tuple(trace), level=level,
                                   stopped=bool(row["stopped"]),
                                   extra_advance_roll=bool(row["extra_advance_roll"]),
                                   next_bonus=row["next_bonus"])


def blood_loss_state(bp: int) -> str | None:
    """The Shock State the blood loss track gives for *bp* Blood Loss Points (4: KIA)."""
    require_int("bp", bp, minimum=0)
    return DATA.table("healing", "blood_loss_states").lookup(bp)["state"] or None


@dataclass(frozen=True, kw_only=True)
class BloodLossResolution(Resolution):
    """A Blood Loss Advance Roll: value = total BP, outcome = the resulting state."""

    level: str
    gained: int
    bp: int
    state: str | None
    anaemia_fatigue: int


def blood_loss_advance(roll: int | None, strength_eml: int | None, bp: int = 0,
                       state: str | None = None, *, beast: bool = False,
                       dice: DiceSource | None = None) -> BloodLossResolution:
    """Step 1: every 5 minutes per bleeder, a Strength test (no fatigue or impairment) adds
    3/2/1/0 BP for CF/F/S/CS. Each box checked off brings its Shock State on top of the
    current *state* (INC while INC is UNC); 4 BP kills. Anaemia: 5 weakness fatigue per BP.
    A *beast* (not one of the Folk) has average Strength for its size and tests ML50; leave
    *strength_eml* None for it. *roll* None draws the d100 from *dice*."""
    require_bool("beast", beast)
    if beast:
        if strength_eml is not None:
            raise RulesError(f"strength_eml must be None for a beast (it tests ML"
                             f"{_rule('beast_ml', tab='blood_loss_rules')}), "
                             f"got {shown(strength_eml)}")
        strength_eml = _rule("beast_ml", tab="blood_loss_rules")
    require_int("strength_eml", strength_eml)
    require_int("bp", bp, minimum=0, maximum=3)  # a fourth BP has already killed
    require_shock_state("state", state)
    roll = rolled("roll", roll, dice, what="Blood Loss Advance Roll (d100)")
    used = effective_eml(strength_eml)
    level = success_level(roll, used)
    gained = DATA.table("healing", "blood_loss_advance").find("level", level)["bp"]
    total = bp + gained
    new_state = state
    trace = [step(f"Strength EML {used}; roll {roll}: {level}: +{gained} BP, {total} in all",
                  DATA.rule(BLEEDING), roll=roll, eml=used, gained=gained, bp=total)]
    for box in range(bp + 1, total + 1):
        box_state = blood_loss_state(box)
        before = new_state
        new_state = combine_shock_states(new_state, box_state)
        trace.append(step(f"Box {box}: {box_state}" + (f" while {before}: now {new_state}"
                                                       if before else ""), DATA.rule(BLEEDING)))
    fatigue = total * _rule("anaemia_fatigue_per_bp", tab="blood_loss_rules")
    trace.append(step(f"Anaemia: {fatigue} weakness fatigue", DATA.rule(BLEEDING), fatigue=fatigue))
    return BloodLossResolution(value=total, outcome=new_state or "none", trace=tuple(trace),
                               level=level, gained=gained, bp=total, state=new_state,
                               anaemia_fatigue=fatigue)


@dataclass(frozen=True, kw_only=True)
class BleedingResolution(Resolution):
    """Five minutes of one bleeder: value = the BP in all, outcome "stopped", "bleeding" or
    "dead" (a fourth BP). ``stoppage`` is the healer's roll (None without one), ``advance`` the
    Blood Loss Advance Roll (None when a CS stopped the bleeding at once); ``next_bonus`` the
    bonus a failed Staunch leaves for the next try."""

    stoppage: BloodStoppageResolution | None
    advance: BloodLossResolution | None
    bp: int
    state: str | None
    stopped: bool
    next_bonus: int
    anaemia_fatigue: int


def bleeding_period(strength_eml: int | None, bp: int = 0, state: str | None = None, *,
                    physician_eml: int | None = None, bleeders: int = 1,
                    cauterise: bool = False, tourniquet: bool = False, staunch_bonus: int = 0,
                    beast: bool = False, dice: DiceSource | None = None
                    ) -> BleedingResolution:
    """One five-minute period of one bleeder (Healing 1 Bleeding): the healer's Blood Stoppage
    Roll when there is a healer (*physician_eml*; a failed Staunch leaves +10, given back as
    *staunch_bonus*), then the patient's Blood Loss Advance Roll, unless a CS stopped the
    bleeding at once; an S stops it after that roll. Dice from *dice*, in that order."""
    require_int("staunch_bonus", staunch_bonus, minimum=0)
    require_int("bp", bp, minimum=0, maximum=3)
    if physician_eml is None and staunch_bonus:
        raise RulesError(f"staunch_bonus {staunch_bonus} needs a healer: give physician_eml")
    trace: list[Step] = []
    stoppage = None
    if physician_eml is not None:
        require_int("physician_eml", physician_eml)
        bonus = 0 if cauterise else staunch_bonus
        stoppage = blood_stoppage(None, physician_eml + bonus, bleeders=bleeders,
                                  cauterise=cauterise, tourniquet=tourniquet, dice=dice)
        if bonus:
            trace.append(step(f"The last Staunch failed: +{bonus} to this one",
                              DATA.rule(BLEEDING), bonus=bonus))
        trace += stoppage.trace
        if stoppage.stopped and not stoppage.extra_advance_roll:
            return BleedingResolution(
                value=bp, outcome="stopped", trace=tuple(trace), stoppage=stoppage,
                advance=None, bp=bp, state=state, stopped=True, next_bonus=0,
                anaemia_fatigue=bp * _rule("anaemia_fatigue_per_bp", tab="blood_loss_rules"))
    advance = blood_loss_advance(None, strength_eml, bp, state, beast=beast, dice=dice)
    trace += advance.trace
    stopped = stoppage is not None and stoppage.stopped
    outcome = _bleeding_outcome(advance.state, stopped)
    return BleedingResolution(
        value=advance.bp, outcome=outcome, trace=tuple(trace), stoppage=stoppage,
        advance=advance, bp=advance.bp, state=advance.state, stopped=stopped,
        next_bonus=0 if stoppage is None or cauterise else stoppage.next_bonus,
        anaemia_fatigue=advance.anaemia_fatigue)


def _bleeding_outcome(state: str | None, stopped: bool) -> str:
    """A fourth BP kills, even as the healer stops the bleeding."""
    return "dead" if state == "KIA" else "stopped" if stopped else "bleeding"


def bleeding_odds(strength_eml: int | None, bp: int = 0, state: str | None = None, *,
                  physician_eml: int | None = None, bleeders: int = 1, cauterise: bool = False,
                  tourniquet: bool = False, staunch_bonus: int = 0, beast: bool = False
                  ) -> dict[tuple[str, int], Fraction]:
    """Exact chance of each (outcome, BP in all) of :func:`bleeding_period` with these
    inputs, over every face of the Blood Stoppage d100 and of the Blood Loss d100 when it is
    rolled."""
    # The Blood Loss d100 does not depend on the Stoppage roll: count its outcomes once.
    losses = Counter((advance.state, advance.bp) for advance in (
        blood_loss_advance(face, strength_eml, bp, state, beast=beast) for face in range(1, 101)))
    out: dict[tuple[str, int], Fraction] = {}

    def add(key: tuple[str, int], p: Fraction) -> None:
        out[key] = out.get(key, Fraction(0)) + p

    if physician_eml is None:
        for (loss_state, loss_bp), n in losses.items():
            add((_bleeding_outcome(loss_state, False), loss_bp), Fraction(n, 100))
        return out
    for face in range(1, 101):
        # the second value stands in for the loss die, read only when the roll is made
        first = bleeding_period(strength_eml, bp, state, physician_eml=physician_eml,
                                bleeders=bleeders, cauterise=cauterise, tourniquet=tourniquet,
                                staunch_bonus=staunch_bonus, beast=beast,
                                dice=DiceSource.typed([face, 1]))
        if first.advance is None:
            add((first.outcome, first.bp), Fraction(1, 100))
            continue
        for (loss_state, loss_bp), n in losses.items():
            add((_bleeding_outcome(loss_state, first.stopped), loss_bp), Fraction(n, 10000))
    return out


def course_odds(course: str, healing_base: int, hr: int, *, fatigue: int = 0, bonus: int = 0,
                sheltered: bool = True, arcane: Sequence[int] = ()
                ) -> dict[tuple[int, str], Fraction]:
    """Exact chance of each (new HR, outcome) of the next Extended Shock (*course*
    "extended shock") or Coma ("coma") Course Roll, over the 100 faces of its d100; *bonus*
    is the healer's (extended shock only), *sheltered* the coma's."""
    if course not in ("extended shock", "coma"):
        raise RulesError(f"course must be 'extended shock' or 'coma', got {shown(course)}")
    if course == "coma" and bonus:
        raise RulesError(f"bonus {shown(bonus)}: no healer's test helps a coma (Healing 3)")
    if course == "extended shock" and sheltered is not True:
        raise RulesError("sheltered applies to a coma only (Healing 3)")
    out: dict[tuple[int, str], Fraction] = {}
    for face in range(1, 101):
        r = (extended_shock_course(face, healing_base, hr, fatigue=fatigue, bonus=bonus,
                                   arcane=arcane) if course == "extended shock" else
             coma_course(face, healing_base, hr, fatigue=fatigue, sheltered=sheltered,
                         arcane=arcane))
        key = (r.healing_rate, r.outcome)
        out[key] = out.get(key, Fraction(0)) + Fraction(1, 100)
    return out


@dataclass(frozen=True, kw_only=True)
class CourseResolution(Resolution):
    """A Course Roll: value = the new Healing Rate, outcome = "continues", "recovered" or
    "dies"."""

    level: str
    eml: int
    healing_rate: int


def arcane_bonus(bonuses: Sequence[int] = ()) -> int:
    """Arcane Recovery: of the test bonuses arcane sources grant a patient's Course or Healing
    Roll, only the single highest applies (0 for none). The other choice the rule offers, an
    immediate extra roll, is simply one more call of the roll. Healing 2, 3, 6, 7."""
    return _arcane("bonuses", bonuses)


def _arcane(name: str, bonuses: object) -> int:
    values = require_list(name, bonuses, "arcane test bonuses", max_length=MAX_SOURCES)
    for b in values:
        require_int(name, b, minimum=0)
    return max(values, default=0)


def _course(roll: int, healing_base: int, hr: int, fatigue: int, bonus: int, section: str,
            what: str, arcane: Sequence[int] = ()) -> tuple[str, int, int, list]:
    require_int("healing_base", healing_base, minimum=0)
    require_int("hr", hr, minimum=1)
    require_int("fatigue", fatigue, minimum=0)
    require_int("bonus", bonus)
    magic = _arcane("arcane", arcane)
    eml = effective_eml(healing_base * hr - fatigue + bonus + magic)
    level = success_level(roll, eml)
    change = DATA.table("healing", "course_roll").find("level", level)["hr_change"]
    extra = f" + arcane {magic}" if magic else ""
    trace = [step(f"{what}: HB {healing_base} × HR {hr} - fatigue {fatigue} + bonus {bonus}"
                  f"{extra} = EML {eml}; roll {roll}: {level}: HR {change:+d}", DATA.rule(section),
                  roll=roll, eml=eml, level=level)]
    return level, eml, hr + change, trace


def extended_shock_course(roll: int | None, healing_base: int, hr: int, *, fatigue: int = 0,
                          bonus: int = 0, arcane: Sequence[int] = (),
                          dice: DiceSource | None = None) -> CourseResolution:
    """Step 2: every four hours, HB × HR (less fatigue, plus a healer's bonus, see
    :func:`extended_shock_healer_bonus`, plus the highest *arcane* bonus). HR 0 or less: the
    patient dies; HR 6 or more: Extended Shock (and INC/UNC) ends. *roll* None draws the d100
    from *dice*."""
    require_int("healing_base", healing_base, minimum=0)
    roll = rolled("roll", roll, dice, what="Extended Shock Course Roll (d100)")
    level, eml, new, trace = _course(roll, healing_base, hr, fatigue, bonus, EXTENDED,
                                     "Extended Shock Course Roll", arcane)
    if new <= _rule("dies_at"):
        outcome = "dies"
    elif new >= _rule("recovered_at"):
        outcome = "recovered"
    else:
        outcome = "continues"
    trace.append(step(f"HR {hr} → {new}: {outcome}", DATA.rule(EXTENDED), hr=new))
    return CourseResolution(value=new, outcome=outcome, trace=tuple(trace), level=level,
                            eml=eml, healing_rate=new)


def extended_shock_healer_bonus(stars: Sequence[int]) -> int:
    """The healers' bonus to Extended Shock Course Rolls: each healer makes one Physician test
    for the patient, worth 5 per victory star, and only the single best healer's bonus counts
    (*stars*: one entry per healer; assumption extended_shock_healer_bonus)."""
    values = require_list("stars", stars, "star counts, one per healer",
                          max_length=MAX_HEALERS)
    for n in values:
        require_int("stars", n, minimum=0)
    return _rule("healer_bonus_per_star") * max(values, default=0)


def extended_shock_movement(state: str, minutes: int, *, supported: bool = True) -> Resolution:
    """Extended Shock: an INC patient may be helped along at a Difficult half Move (if the
    injuries allow it) and accrues Personal Fatigue once for every full 10 minutes of such
    movement; an UNC patient cannot be moved this way. value = the times fatigue is accrued
    (how much each time is in the fatigue rules, a chapter the seed lacks)."""
    if state not in ("INC", "UNC"):
        raise RulesError(f"state must be INC or UNC (Extended Shock), got {shown(state)}")
    require_int("minutes", minutes, minimum=0)
    require_bool("supported", supported)
    if state == "UNC":
        raise RulesError("state UNC: an unconscious patient takes no actions and does not "
                         "move under its own power")
    if not supported and minutes:
        raise RulesError("supported must be True: an INC patient in Extended Shock moves only "
                         "when someone supports them")
    period = _rule("extended_shock_fatigue_minutes")
    times = minutes // period
    trace = [step(f"INC in Extended Shock, helped along for {minutes} minutes at a Difficult "
                  f"half Move: Personal Fatigue accrued {times} time(s) (once per {period} "
                  "minutes)", DATA.rule(EXTENDED), minutes=minutes, accruals=times)]
    return Resolution(value=times, outcome=f"{times} fatigue accrual(s)", trace=tuple(trace))


def coma_healing_rate(location_shock: int, injury_level: int) -> int:
    """The initial coma HR: 12 - location shock - injury level."""
    require_int("location_shock", location_shock, minimum=0)
    require_int("injury_level", injury_level, minimum=1, maximum=6)
    return int(COMA_HR.evaluate(location_shock=location_shock, injury_level=injury_level))


def coma_course(roll: int | None, healing_base: int, hr: int, *, fatigue: int = 0,
                sheltered: bool = True, arcane: Sequence[int] = (),
                dice: DiceSource | None = None) -> CourseResolution:
    """Step 3: every 10 days, HB × HR (-20 if not restful and sheltered, plus the highest
    *arcane* bonus); HR never drops below 1; at 6 or more the coma ends. *roll* None draws the
    d100 from *dice*."""
    require_bool("sheltered", sheltered)
    require_int("healing_base", healing_base, minimum=0)
    roll = rolled("roll", roll, dice, what="Coma Course Roll (d100)")
    bonus = 0 if sheltered else _rule("coma_unsheltered")
    level, eml, new, trace = _course(roll, healing_base, hr, fatigue, bonus, COMA,
                                     "Coma Course Roll", arcane)
    new = max(new, _rule("coma_minimum_hr"))
    outcome = "recovered" if new >= _rule("recovered_at") else "continues"
    trace.append(step(f"HR {hr} → {new} (at least 1): {outcome}", DATA.rule(COMA), hr=new))
    return CourseResolution(value=new, outcome=outcome, trace=tuple(trace), level=level,
                            eml=eml, healing_rate=new)


def coma_weariness(days: int) -> int:
    """Weariness fatigue after a coma: its length in days, rounded down to a 0 or 5."""
    require_int("days", days, minimum=0)
    return days - days % 5


def infection_healing_rate(injury_hr: int) -> int:
    """The Infection HR: the injury's HR plus 1, at most 5."""
    require_int("injury_hr", injury_hr, minimum=1, maximum=6)
    return min(injury_hr + 1, _rule("infection_max_hr"))


def infection_course(roll: int | None, healing_base: int, hr: int, *, bonus: int = 0,
                     fatigue: int = 0, arcane: Sequence[int] = (),
                     dice: DiceSource | None = None) -> CourseResolution:
    """Step 7: once a day, HB × Infection HR (+ a healer's Physician SV, + the highest *arcane*
    bonus). HR 0 or less: the patient dies; 6 or more: the infection is defeated."""
    roll = rolled("roll", roll, dice, what="Infection Course Roll (d100)")
    level, eml, new, trace = _course(roll, healing_base, hr, fatigue, bonus, INFECTION,
                                     "Infection Course Roll", arcane)
    if new <= _rule("dies_at"):
        outcome = "dies"
    elif new >= _rule("recovered_at"):
        outcome = "recovered"
    else:
        outcome = "continues"
    trace.append(step(f"Infection HR {hr} → {new}: {outcome}", DATA.rule(INFECTION), hr=new))
    return CourseResolution(value=new, outcome=outcome, trace=tuple(trace), level=level,
                            eml=eml, healing_rate=new)


def infection_weakness(hr: int) -> int:
    """Weakness fatigue while infected, by Infection HR (1-2: 10, 3-4: 5, 5: none)."""
    require_int("hr", hr, minimum=1, maximum=5)
    return DATA.table("healing", "infection_weakness").lookup(hr)["fatigue"]


@dataclass(frozen=True, kw_only=True)
class HealingResolution(Resolution):
    """An Injury Healing Roll: value = the new Injury Level (0: healed), outcome = the new
    injury ("healed")."""

    level: str
    injury_level: int
    injury: str | None
    infected: bool


def healing_roll(roll: int | None, healing_base: int, hr: int, injury_level: int, *,
                 infection_chance: bool = False, wider_cf: bool = False,
                 arcane: Sequence[int] = (), dice: DiceSource | None = None
                 ) -> HealingResolution:
    """Step 6: every healing period (five days, or :func:`healing_period`), HB × HR (+ the
    highest *arcane* bonus). S lowers the Injury Level by 1, CS by 2 (0: healed); a CF infects
    the injury if its treatment left the chance. *wider_cf* (a cauterised bleeder or an Area
    injury): a failed roll whose ones die is 3, 5, 8 or 0 is a CF."""
    roll = rolled("roll", roll, dice, what="Healing Roll (d100)")
    require_int("healing_base", healing_base, minimum=0)
    require_int("hr", hr, minimum=1, maximum=6)
    require_int("injury_level", injury_level, minimum=1, maximum=5)
    require_bool("infection_chance", infection_chance)
    require_bool("wider_cf", wider_cf)
    magic = _arcane("arcane", arcane)
    eml = effective_eml(healing_base * hr + magic)
    level = success_level(roll, eml)
    trace = [step(f"HB {healing_base} × HR {hr}" + (f" + arcane {magic}" if magic else "")
                  + f" = EML {eml}; roll {roll}: {level}", DATA.rule(HEALING), roll=roll, eml=eml,
                  level=level)]
    if wider_cf and level == "F" and roll % 10 in {r["ones"] for r in
                                                   DATA.table("healing", "wider_cf")}:
        level = "CF"
        trace.append(step(f"Failed with ones die {roll % 10}: CF (cauterised or Area injury)",
                          DATA.rule(HEALING), level=level))
    row = DATA.table("healing", "healing_roll").find("level", level)
    new = max(0, injury_level - row["il_reduction"])
    infected = bool(row["infection"]) and infection_chance
    code = _CODES.get(new)
    text = (f"IL {injury_level} → {new}: " + (code or "healed")) if row["il_reduction"] else \
        "no healing this period"
    if infected:
        text += "; the injury is infected"
    trace.append(step(text, DATA.rule(HEALING), injury_level=new))
    return HealingResolution(value=new, outcome=code or "healed", trace=tuple(trace),
                             level=level, injury_level=new, injury=code, infected=infected)


@dataclass(frozen=True, kw_only=True)
class RegenerationResolution(Resolution):
    """A Blood Loss Healing Roll: value = the BP left."""

    level: str
    bp: int
    skip_next: bool


def blood_regeneration(roll: int | None, endurance_eml: int, bp: int, *,
                       dice: DiceSource | None = None) -> RegenerationResolution:
    """Step 6: every ten days, Endurance: S regenerates 1 BP, CS 2; a CF also skips the next
    period."""
    roll = rolled("roll", roll, dice, what="Blood Regeneration Roll (d100)")
    require_int("endurance_eml", endurance_eml)
    require_int("bp", bp, minimum=1)
    eml = effective_eml(endurance_eml)
    level = success_level(roll, eml)
    row = DATA.table("healing", "blood_regeneration").find("level", level)
    left = max(0, bp - row["bp_reduction"])
    trace = [step(f"Endurance EML {eml}; roll {roll}: {level}: BP {bp} → {left}"
                  + ("; no regeneration next period either" if row["skip_next"] else ""),
                  DATA.rule(HEALING), roll=roll, eml=eml, bp=left)]
    return RegenerationResolution(value=left, outcome=f"{left} BP", trace=tuple(trace),
                                  level=level, bp=left, skip_next=bool(row["skip_next"]))


def permanent_impairment(days: int) -> int:
    """Permanent impairment for the days an injury took to heal to Minor (5 per 20 days, at
    most 25)."""
    require_int("days", days, minimum=0)
    return DATA.table("healing", "permanent_impairment").lookup(days)["impairment"]


TREATMENT = "Healing 5 Treatment"
TREATMENT_ASPECTS = ("Blunt", "Edge", "Point", "Projectile", "Fire", "Frost")
TREATMENT_OPTIONS = ("days", "broadhead", "dex_modifier", "area", "physician_index",
                     "frozen_compress")

MAX_CONDITIONS = 50  # conditions one character carries at once


@dataclass(frozen=True, kw_only=True)
class TreatmentResolution(Resolution):
    """A Treatment Roll: value = the Healing Rate (0 if healed at once or amputated),
    outcome = the table's result ("HR4", "HEAL", or the Edge injury an amputation inflicts)."""

    level: str
    treatment: str
    healing_rate: int | None
    healed: bool
    new_injury: str | None
    infection: bool
    impairment: bool
    bleeder: bool
    grim_wound: bool


def _severity(injury: object) -> str:
    if injury in _CODES.values():
        return injury[0]  # type: ignore[index]
    raise RulesError(f"injury must be one of M1, S2, S3, G4, G5, got {shown(injury)}")


def _aspect(aspect: object) -> str:
    if aspect not in TREATMENT_ASPECTS:
        raise RulesError(f"aspect must be one of {', '.join(TREATMENT_ASPECTS)}, "
                         f"got {shown(aspect)}")
    return aspect  # type: ignore[return-value]


def required_treatment(aspect: str, injury: str) -> str:
    """The treatment an injury type requires (TRT row); a projectile S2 takes CLN, not EXT."""
    sev = _severity(injury)
    row = _requirements(_aspect(aspect), sev)
    if aspect == "Projectile" and injury == "S2":
        return "CLN"
    return row["treatment"]


def _requirements(aspect: str, sev: str):
    for row in DATA.table("healing", "treatment_requirements"):
        if row["aspect"] == aspect and row["severity"] == sev:
            return row
    raise RulesError(f"no treatment is listed for {aspect} {sev}")


def _cell(aspect: str, sev: str, level: str):
    for row in DATA.table("healing", "treatment_results"):
        if (row["aspect"], row["severity"], row["level"]) == (aspect, sev, level):
            return row
    raise RulesError(f"no treatment result is listed for {aspect} {sev} {level}")


def _treated(aspect: str, injury: str, level: str, trace: list,
             physician_index: int | None, area: bool = False) -> TreatmentResolution:
    sev = injury[0]
    row = _cell(aspect, sev, level)
    cf_row = _cell(aspect, sev, "CF")
    result = row["result"]
    if (sev == "G" and physician_index is not None and result.startswith("HR")
            and cf_row["result"].startswith("HR")):
        cap = max(physician_index, int(cf_row["result"][2:]))
        if int(result[2:]) > cap:
            capped = next(r for r in DATA.table("healing", "treatment_results")
                          if (r["aspect"], r["severity"], r["result"]) == (aspect, sev,
                                                                           f"HR{cap}"))
            trace.append(step(f"Grievous injury: HR at most the Physician Index "
                              f"{physician_index} (or the CF HR): HR{cap}, with that result's "
                              "effects", DATA.rule(TREATMENT), cap=cap))
            row, result = capped, capped["result"]
    healed = result == "HEAL"
    hr = int(result[2:]) if result.startswith("HR") else None
    new_injury = result if not (healed or hr) else None
    grim = sev == "G" and level == "CF" and aspect != "Frost"
    if area and sev == "G" and aspect in ("Fire", "Frost"):
        grim = True  # Area G4/G5 fire and frost: grim whatever the treatment
        trace.append(step("Area fire/frost Grievous injury: always a grim wound",
                          DATA.rule("Healing Area Injury Treatment")))
    effects = [name for name, on in (("infection chance", row["infection"]),
                                     ("permanent impairment chance", row["impairment"]),
                                     ("a Bleeder", row["bleeding"]),
                                     ("a grim wound", grim)) if on]
    text = ("healed at once" if healed else f"Healing Rate {hr}" if hr
            else f"amputation inflicts a {new_injury} injury")
    trace.append(step(f"{aspect} {injury}, {level}: {text}"
                      + (f"; {', '.join(effects)}" if effects else ""), DATA.rule(TREATMENT),
                      result=result))
    return TreatmentResolution(value=hr or 0, outcome=result, trace=tuple(trace), level=level,
                               treatment=required_treatment(aspect, injury), healing_rate=hr,
                               healed=healed, new_injury=new_injury,
                               infection=bool(row["infection"]),
                               impairment=bool(row["impairment"]), bleeder=bool(row["bleeding"]),
                               grim_wound=grim)


def treatment_roll(roll: int | None, physician_eml: int, aspect: str, injury: str, *,
                   days: int = 0, broadhead: bool = False, dex_modifier: int = 0,
                   area: bool = False, physician_index: int | None = None,
                   frozen_compress: bool = False, dice: DiceSource | None = None
                   ) -> TreatmentResolution:
    """Step 5: the healer tests Physician with the injury type's modifier, -5 a day of delay,
    a broadhead's modifier, the DEX secondary modifier for boxed treatments (SUR, EXT, AMP),
    -20 for an Area injury and +10 for a Compress (CMP) made with something frozen
    (*frozen_compress*). The TREATMENT ROLL table gives the HR and its effects; a Grievous
    injury's HR is capped by *physician_index* (or the CF HR, if higher). *roll* None draws
    the d100 from *dice*."""
    _aspect(aspect)
    sev = _severity(injury)
    require_int("physician_eml", physician_eml)
    require_int("days", days, minimum=0)
    require_int("dex_modifier", dex_modifier)
    require_bool("broadhead", broadhead)
    require_bool("area", area)
    require_bool("frozen_compress", frozen_compress)
    if physician_index is not None:
        require_int("physician_index", physician_index, minimum=0)
    req = _requirements(aspect, sev)
    trt = required_treatment(aspect, injury)
    roll = rolled("roll", roll, dice, what="Treatment Roll (d100)")
    if frozen_compress and trt != "CMP":
        raise RulesError(f"frozen_compress applies to the Compress treatment (CMP) only; "
                         f"{aspect} {injury} takes {trt}")
    rules = DATA.table("healing", "treatment_rules")
    eml = physician_eml + req["modifier"]
    parts = [f"Physician {physician_eml}", f"{trt} modifier {req['modifier']:+d}"]
    if days:
        delay = rules.find("rule", "delay_per_day")["value"] * days
        eml += delay
        parts.append(f"{days} day(s) of delay {delay:+d}")
    if broadhead and req["broadhead"]:
        eml += req["broadhead"]
        parts.append(f"broadhead {req['broadhead']:+d}")
    if dex_modifier and DATA.table("healing", "treatments").find("abbr", trt)["dex"]:
        eml += dex_modifier
        parts.append(f"DEX {dex_modifier:+d}")
    if area:
        eml += rules.find("rule", "area_penalty")["value"]
        parts.append("Area injury -20")
    if frozen_compress:
        cold = rules.find("rule", "frozen_compress")["value"]
        eml += cold
        parts.append(f"frozen compress {cold:+d}")
    used = effective_eml(eml)
    level = success_level(roll, used)
    trace = [step(f"{', '.join(parts)} = EML {used}; roll {roll}: {level}", DATA.rule(TREATMENT),
                  roll=roll, eml=used, level=level)]
    return _treated(aspect, injury, level, trace, physician_index, area)


def treatment_odds(physician_eml: int, aspect: str, injury: str, **options: object
                   ) -> dict[tuple[str, str], Fraction]:
    """Exact chance of each (success level, result) of a Treatment Roll, over the 100 faces;
    *options* as for :func:`treatment_roll`."""
    unknown = sorted(set(options) - set(TREATMENT_OPTIONS))
    if unknown:
        raise RulesError(f"{unknown[0]} is not an option of treatment_odds (its options are "
                         f"{', '.join(TREATMENT_OPTIONS)}; the roll runs over every face)")
    out: dict[tuple[str, str], Fraction] = {}
    for face in range(1, 101):
        r = treatment_roll(face, physician_eml, aspect, injury, **options)  # type: ignore[arg-type]
        out[(r.level, r.outcome)] = out.get((r.level, r.outcome), Fraction(0)) + Fraction(1, 100)
    return out


def untreated(aspect: str, injury: str) -> TreatmentResolution:
    """An injury with no Treatment Roll has every characteristic of a CF result."""
    _aspect(aspect)
    _severity(injury)
    trace = [step("No Treatment Roll: the injury is treated as a CF result",
                  DATA.rule("Healing 5 Untreated Injury"))]
    return _treated(aspect, injury, "CF", trace, None)


def combined_treatment_level(levels: list[str] | tuple[str, ...]) -> str:
    """Several healers' Treatment Rolls for one injury: the highest level applies, but any CF
    replaces all the others."""
    order = ("CF", "F", "S", "CS")
    require_list("levels", levels, "success levels", max_length=MAX_HEALERS)
    if not levels or any(lv not in order for lv in levels):
        raise RulesError(f"levels must be a list of CF, F, S or CS, got {shown(levels)}")
    return "CF" if "CF" in levels else max(levels, key=order.index)


def combine_treatment_rolls(rolls: Sequence[tuple[str, int, str]]) -> Resolution:
    """Several healers' Treatment Rolls for one injury, in the order they were made, each as
    (healer, Physician Index, success level). A healer (or assistant) takes part in one roll
    only, and each later healer must have a higher Physician Index than every earlier one;
    then the highest level applies, unless any roll is a CF, which replaces them all.
    value = outcome = the level that applies. Healing 5 Multiple Treatment Rolls."""
    entries = require_list("rolls", rolls, "(healer, Physician Index, level) entries",
                           max_length=MAX_HEALERS)
    if not entries:
        raise RulesError("rolls must hold at least one (healer, Physician Index, level) entry")
    seen: list[str] = []
    best_index: int | None = None
    trace = []
    for entry in entries:
        if not isinstance(entry, (tuple, list)) or len(entry) != 3:
            raise RulesError(f"rolls must hold (healer, Physician Index, level) entries, "
                             f"got {shown(entry)}")
        healer, index, level = entry
        if not isinstance(healer, str) or not healer.strip():
            raise RulesError(f"rolls: a healer must be named, got {shown(healer)}")
        require_int("rolls: Physician Index", index, minimum=0)
        if level not in ("CF", "F", "S", "CS"):
            raise RulesError(f"rolls: level must be CF, F, S or CS, got {shown(level)}")
        if healer.strip().lower() in seen:
            raise RulesError(f"rolls: {healer} already made a Treatment Roll for this injury "
                             "(one roll per healer)")
        if best_index is not None and index <= best_index:
            raise RulesError(f"rolls: {healer} (Physician Index {index}) may not follow a "
                             f"healer of Physician Index {best_index}: each later healer needs "
                             "a higher index")
        seen.append(healer.strip().lower())
        best_index = index
        trace.append(step(f"{healer} (Physician Index {index}): {level}", DATA.rule(TREATMENT),
                          level=level))
    final = combined_treatment_level([e[2] for e in entries])
    trace.append(step(("A CF among them replaces every other result" if final == "CF"
                       else "The highest level applies") + f": {final}", DATA.rule(TREATMENT),
                      level=final))
    return Resolution(value=final, outcome=final, trace=tuple(trace))


def healing_period(d3: int | None = None) -> int:
    """Days between an injury's Healing Rolls: five, or, with the random option, d3 + 3 (four
    to six, rolled afresh each period). Healing 6, Random Option."""
    if d3 is None:
        return _rule("healing_period_days")
    require_int("d3", d3, minimum=1, maximum=3)
    return d3 + _rule("healing_period_random_add")


def infection_amputation(roll: int | None, physician_eml: int, location: str, *,
                         dex_modifier: int = 0, dice: DiceSource | None = None
                         ) -> TreatmentResolution:
    """Amputating an infected limb defeats the infection (Healing 7, Amputation). It follows
    the Amputation treatment of Grievous frost injuries: a Physician test with the DEX
    secondary modifier, whose level gives the new Edge injury it inflicts (CF G5E, F G4E,
    S S3E, CS S2E)."""
    from .injury import location_row  # the location's zone says whether it is a limb
    zone = location_row(location)["zone"]
    if zone not in ("Arms", "Legs"):
        raise RulesError(f"location must be on an arm or leg (a limb can be amputated), got "
                         f"{shown(location)} in the {zone} zone")
    done = treatment_roll(roll, physician_eml, "Frost", "G4", dex_modifier=dex_modifier,
                          dice=dice)
    more = step(f"The infected {location.lower()} is amputated: the infection is defeated; the "
                f"amputation inflicts a new {done.new_injury} injury", DATA.rule(INFECTION))
    return replace(done, trace=done.trace + (more,))


def current_impairment(injury: str, hr: int, permanent: int = 0) -> int | None:
    """The impairment an injury imposes on its zone while healing: None while Grievous (the
    zone is unusable, permanent impairment waits); Serious 10; Minor 5 with HR 5 or less, none
    with HR 6. Permanent impairment overlaps: the higher of the two applies."""
    sev = _severity(injury)
    require_int("hr", hr, minimum=1, maximum=6)
    require_int("permanent", permanent, minimum=0)
    row = DATA.table("healing", "indefinite_impairment").find("severity", sev)
    if row["impairment"] < 0:
        return None
    indefinite = row["impairment"] if hr <= row["max_hr"] else 0
    return max(indefinite, permanent)


def concentration_broken(conditions: list[str] | tuple[str, ...]) -> bool:
    """Whether any of *conditions* (STN, INC, UNC, Grievous skull injury, Grim wound, Afraid,
    Terrified, Catatonic, or others that do not) interrupts and prevents concentration."""
    for c in require_list("conditions", conditions, "names", max_length=MAX_CONDITIONS):
        if not isinstance(c, str):
            raise RulesError(f"conditions must hold names such as 'STN', got {shown(c)}")
    breaking = {r["condition"] for r in DATA.table("healing", "concentration")}
    return any(c in breaking for c in conditions)


def aggravation_check(roll: int | None, shock_eml: int, hr: int, *,
                      dice: DiceSource | None = None) -> Resolution:
    """Optional rule: after a CF impaired test using a Serious injury, a Shock test; a failure
    lowers the injury's HR by 1 (at least HR1). value = the HR after the check. *roll* None
    draws the d100 from *dice*."""
    require_int("hr", hr, minimum=1, maximum=6)
    require_int("shock_eml", shock_eml)
    roll = rolled("roll", roll, dice, what="Aggravation Shock test (d100)")
    eml = effective_eml(shock_eml)
    level = success_level(roll, eml)
    new = max(1, hr - 1) if level in ("CF", "F") else hr
    trace = [step(f"Aggravation Shock test: roll {roll} against EML {eml}: {level}; HR {hr} → "
                  f"{new}", DATA.rule("Healing 8 Serious Injury Aggravation Option"), roll=roll,
                  eml=eml, hr=new)]
    return Resolution(value=new, outcome="aggravated" if new != hr or level in ("CF", "F")
                      else "steady", trace=tuple(trace))


def aggravation_period(rate: str) -> str:
    """How often a Serious head, torso or leg injury calls for an Agility test at a move rate
    (optional aggravation rule)."""
    rows = DATA.table("healing", "aggravation_periods")
    names = [r["rate"] for r in rows]
    if rate not in names:
        raise RulesError(f"rate must be one of {', '.join(names)}, got {shown(rate)}")
    return rows.find("rate", rate)["period"]


def injury_description(severity: str, aspect: str) -> str:
    """What an injury of this severity and aspect looks like."""
    rows = DATA.table("healing", "injury_descriptions")
    if severity not in [r["severity"] for r in rows]:
        raise RulesError(f"severity must be Minor, Serious or Grievous, got {shown(severity)}")
    _aspect(aspect)
    return rows.find("severity", severity)[aspect]
