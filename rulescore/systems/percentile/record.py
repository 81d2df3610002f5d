"""A character's injury record and its recovery, day by day (Healing 5-8).

The record holds what a character sheet holds between fights: each injury by location with its
aspect, level, treatment and Healing Rate, the blood loss, an infection, and the day count.
:func:`recover` advances it, one roll at a time, with typed or seeded dice: the Healing Roll
every five days, the daily Infection Course Roll while infected (which stops all healing), and
the Blood Loss Healing Roll every ten days. A record saves to and loads from JSON with a format
name and version, and a foreign or corrupt file is refused with the reason.
"""

from __future__ import annotations

import functools
import json
import random
from fractions import Fraction
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields, is_dataclass, replace

from ... import saved
from ...errors import RulesError, require_int, shown
from ...trace import Resolution, Step, step
from ._system import DATA
from .healing import (TREATMENT_ASPECTS, BleedingResolution, TreatmentResolution,
                      _arcane,  # names its input
                      blood_regeneration, current_impairment, healing_period, healing_roll,
                      infection_course,
                      infection_healing_rate, infection_weakness,
                      permanent_impairment)
from ...dice import DiceSource
from .checks import DiceDraw, effective_eml, success_level_probabilities
from .healing import blood_loss_state
from .injury import (combine_shock_states, location_names, location_row,
                     require_shock_state)
from .terms import SHOCK_STATES

FORMAT = "rulebook/pc-injury-record"
VERSION = 1
LEVEL_CODES = {1: "M1", 2: "S2", 3: "S3", 4: "G4", 5: "G5"}
ASPECT_LETTER = {"Blunt": "B", "Edge": "E", "Point": "P", "Projectile": "P", "Fire": "F",
                 "Frost": "F"}
HEALING_EVERY = 5
REGENERATION_EVERY = 10
MAX_DAYS = 400          # the most days one recovery run rolls through
MAX_DAY = 1000          # the last day a record reaches: close to three years of healing
MAX_INJURIES = 30       # far past any survivable count; bounds the file and the walker's work
MAX_BLOOD_LOSS = 20     # the walker's Blood loss field allows 20; a fourth BP already kills
MAX_HEALING_BASE = 30
EML_LIMIT = 999         # an Endurance EML beyond this is a typing slip
MAX_LOG = 500           # the record keeps its latest log lines
MAX_LINE = 1000
MAX_HR = 6
MAX_INFECTION_HR = 5    # an Infection HR of 6 defeats it, 0 kills (Healing 7)
MAX_COMA_HR = 12        # 12 - location shock - injury level, before any Course Roll (Healing 3)
MAX_STAUNCH_BONUS = 10  # a failed Staunch adds 10 to the next try (Healing 1)
TREATMENT_LEVELS = ("CF", "F", "S", "CS")
LASTING_STATES = ("STN", "INC", "UNC")   # a Shock state a patient lives on in (KIA is death)
SIDES = ("left", "right")
LIMB_ZONES = ("Arms", "Legs")            # the zones whose locations have a side (Injury 1)


@dataclass(frozen=True)
class RecordedInjury:
    """One injury on the sheet: where, what, how it was treated and how it is healing."""

    location: str
    aspect: str
    level: int
    day: int = 0
    treatment: str | None = None      # the Treatment Roll's level, or "untreated"
    hr: int | None = None              # None until treated
    infection_chance: bool = False
    impairment_chance: bool = False
    bleeder: bool = False
    minor_day: int | None = None       # the day it healed to Minor (or better)
    healed_day: int | None = None
    aggravated: int = 0                # HR lost to aggravation before any treatment
    blood_lost: int = 0                # BP its own Blood Loss Advance Rolls added (Healing 1)
    shock: str | None = None           # the Shock state its own Shock Roll gave (Injury 4)
    # True once its Shock Roll is on the record, *shock* None then meaning no effect; an
    # injury written in by hand (or saved before) does not say what its roll gave.
    shock_rolled: bool = False
    # The arm or leg struck, as the injury sequence found it (assumption limb_side); None when
    # it was written in by hand or saved without it, or the location has no side.
    side: str | None = None

    @property
    def where(self) -> str:
        """The location with its side when the record has one: "left shoulder"."""
        return f"{self.side} {self.location.lower()}" if self.side else self.location

    @property
    def code(self) -> str:
        """E.g. "S2E"; "healed" once the level reaches 0."""
        return f"{LEVEL_CODES[self.level]}{ASPECT_LETTER[self.aspect]}" if self.level else \
            "healed"

    @property
    def grim(self) -> bool:
        """A grim wound: Grievous (the INJURY table's severity) with CF treatment, rolled or
        for want of one; it makes a Shock Roll each day (Healing 5 Untreated Injury and Grim
        Wound)."""
        return bool(self.level) and self.treatment in (None, "CF") and \
            DATA.table("injury", "injury_levels").find("level", self.level)["severity"] \
            == "Grievous"

    @property
    def permanent(self) -> int:
        """Permanent impairment accrued (a black-box treatment only): 5 per 20 days to Minor."""
        if not self.impairment_chance or self.hr is None:
            return 0
        return permanent_impairment((self.minor_day or 0) - self.day) if self.minor_day else 0

    @property
    def impairment(self) -> int | None:
        """Impairment to the zone now: None means unusable (Grievous)."""
        if self.level == 0:
            return self.permanent
        return current_impairment(LEVEL_CODES[self.level], self.hr or 1, self.permanent)


@dataclass(frozen=True)
class Snapshot:
    """The record's state at the end of a day, for the timeline."""

    day: int
    levels: tuple[int, ...]
    blood_loss: int
    infected: bool


@dataclass(frozen=True)
class InjuryRecord:
    """A character's injuries and recovery state. Frozen: every change returns a new record."""

    name: str = "Character"
    healing_base: int = 13
    endurance_eml: int = 60
    injuries: tuple[RecordedInjury, ...] = ()
    blood_loss: int = 0
    day: int = 0
    next_healing: int = HEALING_EVERY
    next_regeneration: int = REGENERATION_EVERY
    skip_regeneration: bool = False
    infection: tuple[int, int] | None = None    # (injury index, Infection HR)
    healing_done: tuple[int, ...] = ()          # injuries already rolled this healing day
    dead: bool = False
    random_period: bool = False    # Healing 6 Random Option: d3 + 3 days a healing period
    period_open: bool = False      # next_healing is the earliest day until the d3 is rolled
    timeline: tuple[Snapshot, ...] = ()
    log: tuple[str, ...] = ()
    # The first hours (Healing 1-3), kept so a walker resumes where the sheet left off: the
    # Shock state, the Extended Shock and coma HRs a failed Shock Reroll set, the days spent in
    # a coma so far and a failed Staunch's bonus to the next try.
    shock: str | None = None
    extended_hr: int | None = None
    coma_hr: int | None = None
    coma_days: int = 0
    staunch_bonus: int = 0

    def __post_init__(self) -> None:
        require_int("healing_base", self.healing_base, minimum=0, maximum=MAX_HEALING_BASE)
        require_int("endurance_eml", self.endurance_eml, minimum=-EML_LIMIT,
                    maximum=EML_LIMIT)
        require_int("blood_loss", self.blood_loss, minimum=0, maximum=MAX_BLOOD_LOSS)

    @property
    def active(self) -> tuple[int, ...]:
        """Indices of the injuries not yet healed."""
        return tuple(i for i, inj in enumerate(self.injuries) if inj.level)

    @property
    def open_bleeders(self) -> tuple[int, ...]:
        """Indices of the injuries still bleeding: not healed, marked Bleeder, and not stopped
        by a Blood Stoppage Roll (Healing 1). Their number is how many a healer staunching
        them all treats in one five minutes, each test taking -10 for every treated bleeder
        beyond one (Blood Stoppage Roll); the healer may treat fewer."""
        return tuple(i for i in self.active if self.injuries[i].bleeder)

    @property
    def infection_fatigue(self) -> int:
        """The weakness fatigue an infection brings while it lasts, by Infection HR (Healing 7
        INFECTION WEAKNESS): taken off the patient's tests (assumption infection_weakness)."""
        return 0 if self.infection is None else infection_weakness(self.infection[1])

    @property
    def recovered(self) -> bool:
        return not self.active and not self.blood_loss and self.infection is None

    def snapshot(self) -> Snapshot:
        return Snapshot(self.day, tuple(i.level for i in self.injuries), self.blood_loss,
                        self.infection is not None)

    def add_injury(self, location: str, aspect: str, level: int, *, bleeder: bool = False,
                   shock: str | None = None, shock_rolled: bool = False,
                   side: str | None = None) -> InjuryRecord:
        """Record a new, untreated injury taken today (Injury Sequence step 3); *shock* is the
        Shock state its own Shock Roll gave (step 4), kept so removing it can take that back.
        *shock_rolled* says the roll was made, so a *shock* of None is its result (no effect)
        rather than unknown; a state given implies it. *side* is the arm or leg struck (left
        or right, Injury 1), None when unknown; an arm's decides which arm's actions a
        Grievous injury stops (IMPAIRED ACTIONS AND MOVEMENT)."""
        row = location_row(location)
        where = row["location"]
        require_side(side, row["zone"], where)
        if aspect not in TREATMENT_ASPECTS:
            raise RulesError(f"aspect must be one of {', '.join(TREATMENT_ASPECTS)}, "
                             f"got {shown(aspect)}")
        require_int("level", level, minimum=1, maximum=5)
        require_shock_state("shock", shock)
        if not isinstance(shock_rolled, bool):
            raise RulesError(f"shock_rolled must be True or False, got {shown(shock_rolled)}")
        if len(self.injuries) >= MAX_INJURIES:
            raise RulesError(f"the record holds {MAX_INJURIES} injuries, the most it keeps: "
                             "remove a healed one first")
        new = RecordedInjury(where, aspect, level, self.day, bleeder=bleeder, shock=shock,
                             shock_rolled=shock_rolled or shock is not None, side=side)
        return self._with(injuries=self.injuries + (new,),
                          text=f"Day {self.day}: {new.code} to the {new.where.lower()}")

    def treat(self, index: int, treatment: TreatmentResolution) -> InjuryRecord:
        """Apply a Treatment Roll (or :func:`untreated`) to injury *index* (Healing 5)."""
        inj = self._injury(index)
        if inj.hr is not None:
            raise RulesError(f"injury {index + 1} ({inj.code}) is already treated; each "
                             "injury takes one Treatment Roll (or one per better healer)")
        if treatment.healed:
            done = replace(inj, level=0, treatment=treatment.level, hr=6,
                           healed_day=self.day, minor_day=self.day)
            text = f"Day {self.day}: {inj.code} {inj.location.lower()} treated: healed at once"
        elif treatment.new_injury:
            raise RulesError("an amputation result replaces the injury: remove it and add "
                             f"the {treatment.new_injury} injury the amputation inflicts")
        else:
            hr = max(1, (treatment.healing_rate or 1) - inj.aggravated)
            done = replace(inj, treatment=treatment.level, hr=hr, aggravated=0,
                           infection_chance=treatment.infection,
                           impairment_chance=treatment.impairment,
                           bleeder=inj.bleeder or treatment.bleeder)
            text = (f"Day {self.day}: {inj.code} {inj.location.lower()} treated "
                    f"({treatment.level}): HR{treatment.healing_rate}"
                    + (f", less {inj.aggravated} aggravated: HR{hr}" if inj.aggravated
                       else ""))
        healing = [i for i in self.active if self.injuries[i].hr is not None]
        due = ({"next_healing": self.next_healing, "period_open": self.period_open} if healing
               else self._period_from(self.day))
        return self._with(injuries=_put(self.injuries, index, done), text=text, **due)

    def _period_from(self, day: int) -> dict[str, object]:
        """The next healing day after *day*: five days on, or with the random option d3 + 3,
        kept as its earliest day until :func:`recover` rolls the d3."""
        if self.random_period:
            return {"next_healing": day + healing_period(1), "period_open": True}
        return {"next_healing": day + HEALING_EVERY, "period_open": False}

    def with_random_period(self, on: bool) -> InjuryRecord:
        """The Random Option of Healing 6 on or off: each healing period that starts from now
        lasts d3 + 3 days (rolled by :func:`recover`) instead of five."""
        if not isinstance(on, bool):
            raise RulesError(f"on must be True or False, got {shown(on)}")
        return self._with(random_period=on,
                          text=f"Day {self.day}: healing periods of "
                               + ("d3 + 3 days" if on else "five days"))

    def remove_injury(self, index: int) -> InjuryRecord:
        """The record without injury *index* (one written in by mistake). An infection of that
        injury goes with it; every later injury moves up one place, in the infection, the
        Healing Rolls already made today and each day of the timeline. What came from that
        injury is taken back (:func:`removal`): the blood its bleeding cost, and the part of
        the Shock state nothing left on the record explains; the log says what stays and why."""
        inj = self._injury(index)
        taken = removal(self, index, self.shock, extended_hr=self.extended_hr,
                        coma_hr=self.coma_hr, coma_days=self.coma_days)

        def moved(i: int) -> int:
            return i - 1 if i > index else i
        infection = (None if self.infection is None or self.infection[0] == index
                     else (moved(self.infection[0]), self.infection[1]))
        timeline = tuple(replace(snap, levels=snap.levels[:index] + snap.levels[index + 1:])
                         for snap in self.timeline)
        return self._with(injuries=self.injuries[:index] + self.injuries[index + 1:],
                          infection=infection, timeline=timeline, blood_loss=taken.blood_loss,
                          shock=taken.shock, extended_hr=taken.extended_hr,
                          coma_hr=taken.coma_hr, coma_days=taken.coma_days,
                          healing_done=tuple(moved(i) for i in self.healing_done
                                             if i != index),
                          text=f"Day {self.day}: removed {inj.code} "
                               f"{inj.location.lower()}" + "".join(
                                   f"; {said}" for said in taken.said))

    def with_character(self, name: str, healing_base: int, endurance_eml: int
                       ) -> InjuryRecord:
        """The same record for a renamed character or new Healing Base / Endurance."""
        if not isinstance(name, str) or not name.strip():
            raise RulesError(f"name must be a non-empty text, got {shown(name)}")
        if len(name.strip()) > saved.NAME_LENGTH:
            raise RulesError(f"name must be at most {saved.NAME_LENGTH} characters long, "
                             f"got {len(name.strip())}")
        return replace(self, name=name.strip(), healing_base=healing_base,
                       endurance_eml=endurance_eml)

    def with_blood_loss(self, bp: int) -> InjuryRecord:
        require_int("blood_loss", bp, minimum=0, maximum=MAX_BLOOD_LOSS)
        regen = self.next_regeneration if self.blood_loss else self.day + REGENERATION_EVERY
        return self._with(blood_loss=bp, next_regeneration=regen,
                          text=f"Day {self.day}: blood loss set to {bp} BP")

    def bleed(self, index: int, period: BleedingResolution) -> InjuryRecord:
        """Five minutes of bleeder *index* (:func:`bleeding_period` rolled from this record's
        blood loss, Healing 1): the blood loss becomes the period's BP, the BP it added are
        that injury's own (removing it takes them back, :func:`removal`), a bleeder the healer
        stopped is no longer marked as one, and a fourth BP kills. Blood starts growing back
        ten days after the first BP (Healing 6). The Shock state the BP bring is the
        caller's to keep (:meth:`with_shock`, or the fight's)."""
        inj = self._injury(index)
        if not isinstance(period, BleedingResolution):
            raise RulesError(f"period must be five minutes of bleeding (bleeding_period), got "
                             f"{shown(period)}")
        if not inj.level or not inj.bleeder:
            raise RulesError(f"injury {index + 1} ({inj.code} {inj.location.lower()}) is not "
                             "bleeding: pick a Bleeder")
        if self.dead or self.blood_loss > 3:
            raise RulesError(f"{self.name} is dead: there is nothing more to roll")
        if period.bp < self.blood_loss:
            raise RulesError(f"period must start from the record's {self.blood_loss} BP, got "
                             f"one ending at {period.bp} BP")
        bled = replace(inj, blood_lost=inj.blood_lost + period.bp - self.blood_loss,
                       bleeder=not period.stopped)
        record = self._with(injuries=_put(self.injuries, index, bled), blood_loss=period.bp,
                            next_regeneration=self.next_regeneration if self.blood_loss
                            else self.day + REGENERATION_EVERY,
                            text=f"Day {self.day}: {inj.code} {inj.location.lower()} "
                                 f"bleeding: {period.outcome}, {period.bp} BP")
        return record.died("a fourth Blood Loss Point") if period.outcome == "dead" else record

    def with_shock(self, state: str | None, *, extended_hr: int | None = None,
                   coma_hr: int | None = None, coma_days: int = 0,
                   staunch_bonus: int = 0) -> InjuryRecord:
        """The same record with the patient's first-hours state (Healing 1-3): the Shock state
        (None, STN, INC or UNC; death is :meth:`died`), the Extended Shock HR of an INC or UNC
        patient, the coma HR and days of an Unconscious one, and a failed Staunch's bonus."""
        if state not in LASTING_STATES and state is not None:
            raise RulesError(f"state must be None or one of {', '.join(LASTING_STATES)}, "
                             f"got {shown(state)}")
        if extended_hr is not None:
            require_int("extended_hr", extended_hr, minimum=1, maximum=MAX_HR)
            if state not in ("INC", "UNC"):
                raise RulesError("extended_hr is kept only for an Incapacitated or "
                                 f"Unconscious patient (state INC or UNC), got state "
                                 f"{shown(state)}")
        if coma_hr is not None:
            require_int("coma_hr", coma_hr, minimum=1, maximum=MAX_COMA_HR)
            if state != "UNC":
                raise RulesError("coma_hr is kept only for an Unconscious patient (state UNC), "
                                 f"got state {shown(state)}")
        require_int("coma_days", coma_days, minimum=0, maximum=MAX_DAY)
        require_int("staunch_bonus", staunch_bonus, minimum=0, maximum=MAX_STAUNCH_BONUS)
        return replace(self, shock=state, extended_hr=extended_hr, coma_hr=coma_hr,
                       coma_days=coma_days, staunch_bonus=staunch_bonus)

    def aggravate(self, index: int, check: Resolution) -> InjuryRecord:
        """Apply an aggravation Shock test (:func:`aggravation_check`, the optional rule of
        Healing 8) to injury *index*: a failure lowers its HR by 1, to at least HR1; an untreated
        injury carries the loss to the HR its treatment will give."""
        inj = self._injury(index)
        if not isinstance(check, Resolution) or check.outcome not in ("aggravated", "steady"):
            raise RulesError(f"check must be an aggravation check (aggravation_check), got "
                             f"{shown(check)}")
        if not inj.level or LEVEL_CODES[inj.level][0] == "M":
            raise RulesError(f"injury {index + 1} ({inj.code}) is not Serious or Grievous: "
                             "only those are checked for aggravation")
        where = f"{inj.code} {inj.location.lower()}"
        if check.outcome == "steady":
            return self._with(text=f"Day {self.day}: {where} holds (aggravation check passed)")
        if inj.hr is None:
            done = replace(inj, aggravated=min(inj.aggravated + 1, MAX_HR - 1))
            text = f"Day {self.day}: {where} aggravated: its treatment's HR will be 1 lower"
        else:
            done = replace(inj, hr=max(1, inj.hr - 1))
            text = f"Day {self.day}: {where} aggravated: HR{inj.hr} → HR{done.hr}"
        return self._with(injuries=_put(self.injuries, index, done), text=text)

    def amputate_infected(self, amputation: TreatmentResolution) -> InjuryRecord:
        """Amputating the infected limb (:func:`infection_amputation`) defeats the infection
        (Healing 7, Amputation): the infected injury goes with the limb, the amputation's own
        new Edge injury, untreated, takes its place, and the other injuries heal again."""
        if self.infection is None:
            raise RulesError("the record has no infection: only an infected limb is amputated "
                             "to defeat one")
        if not isinstance(amputation, TreatmentResolution) or not amputation.new_injury:
            raise RulesError(f"amputation must be the result of infection_amputation, got "
                             f"{shown(amputation)}")
        index = self.infection[0]
        old = self.injuries[index]
        code = amputation.new_injury
        level = {v: k for k, v in LEVEL_CODES.items()}.get(code[:2])
        if level is None or code[2:] != "E":
            raise RulesError(f"amputation must inflict an Edge injury such as 'S2E', got "
                             f"{shown(code)}")
        new = RecordedInjury(old.location, "Edge", level, self.day, side=old.side)
        return self._with(injuries=_put(self.injuries, index, new), infection=None,
                          healing_done=(), **self._period_from(self.day),
                          text=f"Day {self.day}: the infected {old.location.lower()} is "
                               f"amputated ({amputation.level}): the infection is defeated; "
                               f"a new {code} injury, to be treated")

    def died(self, cause: str) -> InjuryRecord:
        """The record of a character who died of *cause* (a fourth Blood Loss Point, an
        Extended Shock or Infection HR of 0): nothing more is rolled for them."""
        if not isinstance(cause, str) or not cause.strip():
            raise RulesError(f"cause must say what killed the character, got {shown(cause)}")
        return self._with(dead=True, text=f"Day {self.day}: died ({cause.strip()[:200]})")

    def _injury(self, index: int) -> RecordedInjury:
        require_int("index", index, minimum=0, maximum=max(0, len(self.injuries) - 1))
        if not self.injuries:
            raise RulesError("the record has no injuries yet")
        return self.injuries[index]

    def _with(self, text: str | None = None, **changes: object) -> InjuryRecord:
        new = replace(self, **changes)
        log = (new.log + ((text[:MAX_LINE],) if text else ()))[-MAX_LOG:]
        return replace(new, log=log, timeline=_stamp(new.timeline, new.snapshot()))

    # --- files ---------------------------------------------------------------------------
    def to_json(self) -> str:
        # Compact: a long recovery's timeline runs to a thousand snapshots.
        return json.dumps({"format": FORMAT, "version": VERSION, "record": asdict(self)},
                          separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> InjuryRecord:
        """Read a record file; anything foreign or corrupt raises RulesError naming the field
        (see :func:`record_format`)."""
        fmt = record_format()
        return _from_body(saved.read(fmt, text), f"{fmt.noun}: ")


def _from_body(body: dict, where: str) -> InjuryRecord:
    """The record a checked body holds, after the rules no one field can state (indices that
    point at injuries, a timeline in day order); *where* starts each message."""
    count = len(body.get("injuries", ()))
    timeline = body.get("timeline", ())
    infection = body.get("infection")
    numbers = f"0 to {count - 1}" if count else "it has none"
    if infection is not None and infection[0] >= count:
        raise RulesError(f"{where}infection[1] must be the number of an injury on the record "
                         f"({numbers}), got {infection[0]}")
    if any(i >= count for i in body.get("healing_done", ())):
        raise RulesError(f"{where}healing_done must hold only numbers of injuries on the "
                         f"record ({numbers})")
    shock = body.get("shock")
    if body.get("extended_hr") is not None and shock not in ("INC", "UNC"):
        raise RulesError(f"{where}extended_hr is kept only with shock INC or UNC, got shock "
                         f"{shown(shock)}")
    if body.get("coma_hr") is not None and shock != "UNC":
        raise RulesError(f"{where}coma_hr is kept only with shock UNC, got shock {shown(shock)}")
    days = [snap["day"] for snap in timeline]
    if days != sorted(days) or any(d > body.get("day", 0) for d in days):
        raise RulesError(f"{where}timeline must run day by day up to the record's day")
    if any(len(snap["levels"]) > count for snap in timeline):
        raise RulesError(f"{where}timeline levels must hold at most one level for each "
                         "injury")
    for i, inj in enumerate(body.get("injuries", ()), start=1):
        require_side(inj.get("side"), location_row(inj["location"])["zone"],
                     inj["location"], f"{where}injuries[{i}].side")
    return InjuryRecord(**{
        **body,
        "injuries": tuple(RecordedInjury(**i) for i in body.get("injuries", ())),
        "timeline": tuple(Snapshot(snap["day"], tuple(snap["levels"]), snap["blood_loss"],
                                   snap["infected"]) for snap in timeline),
        "infection": tuple(infection) if infection else None,
        "healing_done": tuple(body.get("healing_done", ())),
        "log": tuple(body.get("log", ())),
    })


@functools.cache
def record_format() -> saved.SavedFormat:
    """The injury record file, field by field: every bound here is one the walker keeps."""
    day = saved.Int(0, MAX_DAY)
    places = location_names() + tuple(r["feature"] for r in DATA.table("injury", "face_features"))
    injury = saved.Record({
        "location": saved.Text(40, places), "aspect": saved.Text(20, TREATMENT_ASPECTS),
        "level": saved.Int(0, 5), "day": day,
        "treatment": saved.Maybe(saved.Text(2, TREATMENT_LEVELS)),
        "hr": saved.Maybe(saved.Int(1, MAX_HR)), "infection_chance": saved.Flag(),
        "impairment_chance": saved.Flag(), "bleeder": saved.Flag(),
        "minor_day": saved.Maybe(day), "healed_day": saved.Maybe(day),
        "aggravated": saved.Int(0, MAX_HR - 1),
        "blood_lost": saved.Int(0, MAX_BLOOD_LOSS),
        "shock": saved.Maybe(saved.Text(3, SHOCK_STATES[1:])), "shock_rolled": saved.Flag(),
        "side": saved.Maybe(saved.Text(5, SIDES)),
    }, optional=frozenset({"day", "treatment", "hr", "infection_chance", "impairment_chance",
                           "bleeder", "minor_day", "healed_day", "aggravated", "blood_lost",
                           "shock", "shock_rolled", "side"}))
    snapshot = saved.Record({"day": day, "levels": saved.ListOf(saved.Int(0, 5), MAX_INJURIES),
                             "blood_loss": saved.Int(0, MAX_BLOOD_LOSS),
                             "infected": saved.Flag()})
    index = saved.Int(0, MAX_INJURIES - 1)
    return saved.SavedFormat("injury record", FORMAT, VERSION, envelope="record",
                             body=saved.Record({
        "name": saved.Text(saved.NAME_LENGTH, blank=False),
        "healing_base": saved.Int(0, MAX_HEALING_BASE),
        "endurance_eml": saved.Int(-EML_LIMIT, EML_LIMIT),
        "injuries": saved.ListOf(injury, MAX_INJURIES),
        "blood_loss": saved.Int(0, MAX_BLOOD_LOSS), "day": day,
        "next_healing": saved.Int(0, MAX_DAY + HEALING_EVERY),
        "next_regeneration": saved.Int(0, MAX_DAY + REGENERATION_EVERY),
        "skip_regeneration": saved.Flag(),
        "random_period": saved.Flag(), "period_open": saved.Flag(),
        "infection": saved.Maybe(saved.Pair(index, saved.Int(1, MAX_INFECTION_HR),
                                            ("injury number", "Infection HR"))),
        "healing_done": saved.ListOf(index, MAX_INJURIES), "dead": saved.Flag(),
        "timeline": saved.ListOf(snapshot, MAX_DAY + 1),
        "log": saved.ListOf(saved.Text(MAX_LINE), MAX_LOG),
        "shock": saved.Maybe(saved.Text(3, LASTING_STATES)),
        "extended_hr": saved.Maybe(saved.Int(1, MAX_HR)),
        "coma_hr": saved.Maybe(saved.Int(1, MAX_COMA_HR)), "coma_days": day,
        "staunch_bonus": saved.Int(0, MAX_STAUNCH_BONUS),
    }, optional=frozenset({"next_healing", "next_regeneration", "skip_regeneration",
                           "random_period", "period_open",
                           "infection", "healing_done", "dead", "timeline", "log", "day",
                           "blood_loss", "injuries", "shock", "extended_hr", "coma_hr",
                           "coma_days", "staunch_bonus"})))


def has_side(location: str) -> bool:
    """Whether an injury to *location* is on a left or a right limb (Injury 1: the arms' and
    the legs' locations have a side; no other zone's have)."""
    return location_row(location)["zone"] in LIMB_ZONES


def require_side(side: object, zone: str, location: str, name: str = "side") -> None:
    """A RulesError unless *side* is None, or left or right for a location of an arm or leg
    (Injury 1: odd left, even right; no other zone has a side)."""
    if side is None:
        return
    if zone not in LIMB_ZONES:
        raise RulesError(f"{name} is only for an arm or leg location; the "
                         f"{location.lower()} has none, got {shown(side)}")
    if side not in SIDES:
        raise RulesError(f"{name} must be left or right (or None, not known), got "
                         f"{shown(side)}")


@dataclass(frozen=True)
class Removal:
    """What taking one injury off a record leaves: the blood loss, the Shock state and the
    Extended Shock and coma that go with it, and the words saying what was taken back and
    what stays."""

    blood_loss: int
    shock: str | None
    extended_hr: int | None
    coma_hr: int | None
    coma_days: int
    said: tuple[str, ...]


def removal(record: InjuryRecord, index: int, state: str | None, *,
            extended_hr: int | None = None, coma_hr: int | None = None, coma_days: int = 0
            ) -> Removal:
    """What removing injury *index* takes back, for a patient in Shock *state* with that
    Extended Shock HR and coma (Healing 1 Blood Loss Advance Roll, Injury 4 Shock, Healing
    2-3). The one computation behind both the record's and the fight's removal.

    Removing an injury undoes a slip of data entry; no rule takes an injury away. The BP its
    own bleeding added come off, except those the other injuries' bleeding still accounts
    for (blood regained is counted against the removed injury first); BP typed in by hand
    stay. A Shock state eases only by the rolls that recover from it (Shock test, Shock
    Reroll, Course Rolls, the end of bleeding: Injury 4, Healing 1-3), which the record does
    not keep, so the state after is what the rest of the record gives (each remaining
    injury's own Shock Roll, then the blood loss track's boxes, a repeated STN or INC
    worsening, Injury 4), and never worse than the state now. The state stays as it is
    when the record cannot say: a remaining injury whose Shock Roll is not on it (written
    in by hand) or a grim wound (its daily Shock Roll leaves no mark), or a state the whole
    record, the removed injury included, does not reach (a Glancing Blow or a state set by
    hand). Extended Shock lasts only while INC or UNC, a coma only while UNC."""
    inj = record._injury(index)
    others = record.injuries[:index] + record.injuries[index + 1:]
    owed = sum(o.blood_lost for o in others)
    back = max(0, min(inj.blood_lost, record.blood_loss - owed))
    bp = record.blood_loss - back
    said = [(f"the {back} BP its bleeding cost {'is' if back == 1 else 'are'} taken back: "
             f"blood loss {record.blood_loss} → {bp} BP")] if back else []
    if bp and (inj.bleeder or inj.blood_lost):
        said.append(f"{bp} BP stay{'s' if bp == 1 else ''}: other bleeders' or entered by hand")
    after, why = _shock_after(record.injuries, index, state, record.blood_loss, bp)
    lasting = after in ("INC", "UNC")
    return Removal(bp, after, extended_hr if lasting else None,
                   coma_hr if after == "UNC" else None, coma_days if after == "UNC" else 0,
                   tuple(said + ([why] if why else [])))


def _replayed(injuries: Sequence[RecordedInjury], bp: int) -> str | None:
    """The Shock state *injuries* give by their own Shock Rolls, in record order, then the
    blood loss track's boxes up to *bp*, each worsening a repeated STN or INC (Injury 4,
    Healing 1)."""
    state = None
    for inj in injuries:
        state = combine_shock_states(state, inj.shock)
    for box in range(1, min(bp, 4) + 1):
        state = combine_shock_states(state, blood_loss_state(box))
    return state


def _sources(others: Sequence[RecordedInjury], bp: int) -> str:
    """What on the record gives a Shock state, in words."""
    parts = [f"the Shock Roll of {o.code} {o.location.lower()} ({o.shock})"
             for o in others if o.shock]
    parts += [f"the {bp} BP lost ({blood_loss_state(min(bp, 4))})"] if bp else []
    return " and ".join(parts)


def _shock_after(injuries: tuple[RecordedInjury, ...], index: int, state: str | None,
                 bp_before: int, bp: int) -> tuple[str | None, str | None]:
    """The Shock state once injury *index* is gone (see :func:`removal`) and the words for
    it (None when there was no state to recompute)."""
    if state is None or state == "KIA":
        return state, None
    order = SHOCK_STATES.index
    others = injuries[:index] + injuries[index + 1:]
    left, sources = _replayed(others, bp), _sources(others, bp)
    if order(left) >= order(state):
        return state, (f"the Shock state {state} stays: {sources} "
                       f"{'are' if ' and ' in sources else 'is'} behind it too")
    unknown = [o for o in others if o.grim or not (o.shock_rolled or o.shock)]
    if unknown:
        names = ", ".join(f"{o.code} {o.location.lower()}" for o in unknown)
        return state, (f"the Shock state {state} stays: the Shock Roll of {names} may be "
                       "behind it too")
    if order(_replayed(injuries, bp_before)) < order(state):
        return state, (f"the Shock state {state} stays: the record does not show that this "
                       "injury's Shock Roll alone brought it")
    if left is None:
        return None, (f"the Shock state {state} came from this injury alone: now no Shock "
                      "state")
    return left, (f"the Shock state {state} came in part from this injury: now {left}, from "
                  f"{sources}")


def _put(items: tuple, index: int, item: object) -> tuple:
    return items[:index] + (item,) + items[index + 1:]


def _stamp(timeline: tuple[Snapshot, ...], snap: Snapshot) -> tuple[Snapshot, ...]:
    """Keep one snapshot per day: the latest."""
    if timeline and timeline[-1].day == snap.day:
        return timeline[:-1] + (snap,)
    return timeline + (snap,)


@dataclass(frozen=True, kw_only=True)
class Recovery(Resolution):
    """The record after :func:`recover`: value = the day reached, outcome a summary; ``needs``
    names the next roll when typed dice ran out."""

    record: InjuryRecord
    rolled: tuple[tuple[str, int], ...]
    needs: str | None


_DATA_DEPTH = 4   # record → injuries → an injury (or a snapshot) → its levels


def _as_data(value: object, depth: int = 0) -> object:
    """A record as its file holds it: each record a dict of its fields, each tuple a list.
    Deeper than any saved field nests, a value is left as it is for the check to refuse."""
    if depth > _DATA_DEPTH:
        return value
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _as_data(getattr(value, f.name), depth + 1) for f in fields(value)}
    if isinstance(value, (tuple, list)):
        return [_as_data(item, depth + 1) for item in value]
    return value


def _require_record(record: object) -> InjuryRecord:
    """*record* as the engine can use it: a record built by hand (or edited) is held to the
    file's declaration (:func:`record_format`) and its cross-field rules, so a refusal names
    ``record`` and the field. Checked once at each public door: a check in the constructor
    would run on every step of a recovery, and the steps only ever build valid records."""
    if not isinstance(record, InjuryRecord):
        raise RulesError(f"record must be an InjuryRecord, got {type(record).__name__}")
    data = _as_data(record)
    saved.check_field(record_format().body, data, "record")
    return _from_body(data, "record.")  # type: ignore[arg-type]


def next_roll(record: InjuryRecord) -> tuple[int, str, int | None] | None:
    """The day, kind and injury index of the next roll the record calls for (None: nothing
    left to roll). Blood regeneration comes before the Healing Rolls of the same day."""
    return _next_roll(_require_record(record))


def _next_roll(record: InjuryRecord) -> tuple[int, str, int | None] | None:
    if record.dead:
        return None
    days: list[tuple[int, int, str, int | None]] = []
    if record.infection is not None:
        days.append((record.day + 1, 1, "Infection Course Roll", record.infection[0]))
    elif (index := _healing_due(record)) is not None:
        days.append((record.next_healing, 1, "Healing Roll", index))
    if record.blood_loss:
        days.append((record.next_regeneration, 0, "Blood Loss Healing Roll", None))
    if not days:
        return None
    day, _, kind, index = min(days)
    return day, kind, index


def next_roll_odds(record: InjuryRecord, arcane: Sequence[int] = ()
                   ) -> tuple[str, int, dict[str, Fraction]] | None:
    """The next roll's description, its EML and the exact chance of each success level;
    *arcane* as for :func:`recover` (on Healing and Infection Course Rolls)."""
    record = _require_record(record)
    magic = _arcane("arcane", arcane)
    due = _next_roll(record)
    if due is None:
        return None
    day, kind, index = due
    weak = record.infection_fatigue
    if kind == "Infection Course Roll":
        ihr = record.infection[1]  # type: ignore[index]
        eml, what = record.healing_base * ihr - weak, f"HB × Infection HR{ihr}"
    elif kind == "Healing Roll":
        inj = record.injuries[index]  # type: ignore[index]
        eml = record.healing_base * (inj.hr or 1)
        what = f"{inj.code} {inj.location.lower()}, HB × HR{inj.hr}"
    else:
        eml, what = record.endurance_eml - weak, "Endurance"
    if weak and kind != "Healing Roll":
        what += f", less infection weakness {weak}"
    if magic and kind != "Blood Loss Healing Roll":
        eml += magic
        what += f", + arcane {magic}"
    used = effective_eml(eml)
    when = (f"Day {day}–{day + 2} (the healing period's d3 first)"
            if kind == "Healing Roll" and record.period_open else f"Day {day}")
    return f"{when}: {kind} ({what})", used, success_level_probabilities(used)


def recover(record: InjuryRecord, *, dice: DiceSource | Sequence[int] = (),
            rng: random.Random | None = None, until_day: int | None = None,
            arcane: Sequence[int] = ()) -> Recovery:
    """Advance the recovery (Healing 6-8) roll by roll, one d100 each from *dice* (a
    :class:`~rulescore.dice.DiceSource`, in the order the rolls fall due); stop when typed dice
    run out, at *until_day*, on death, or when nothing is left to heal. Untreated injuries do
    not heal: treat them (or apply :func:`untreated`) first. *arcane*: the test bonuses arcane
    sources grant the patient; the single highest goes on every Healing and Infection Course
    Roll (Healing 6, 7 Arcane Recovery). Typed values as a list, then *rng*, are kept for
    existing callers."""
    record = _require_record(record)
    magic = _arcane("arcane", arcane)
    draw = DiceDraw(dice, rng, "recovery")
    if until_day is not None:
        require_int("until_day", until_day, minimum=record.day, maximum=MAX_DAY)
    trace: list[Step] = []
    waiting = [i for i in record.active if record.injuries[i].hr is None]
    if waiting:
        trace.append(step(f"{len(waiting)} injury(ies) not yet treated: untreated injuries "
                          "heal as a CF treatment (apply it first)",
                          DATA.rule("Healing 5 Untreated Injury")))
    needs = None
    start = record.day
    while True:
        # Every roll moves a due day on (a healing day by 5, an infection by 1, blood loss by
        # 10), so these bounds end the loop after at most MAX_DAYS days of rolls.
        due = _next_roll(record)
        if due is None or (until_day is not None and due[0] > until_day):
            break
        if due[0] > MAX_DAY:
            trace.append(step(f"Day {MAX_DAY} is the last day an injury record keeps",
                              DATA.rule("Healing 6 Healing")))
            break
        if due[0] - start > MAX_DAYS:
            break
        if due[1] == "Healing Roll" and record.period_open:
            began = record.next_healing - healing_period(1)
            d3 = draw(f"day {began} healing period (d3)", 3)
            if d3 is None:
                needs = f"day {began}: the healing period's d3"
                break
            record = replace(record, next_healing=began + healing_period(d3),
                             period_open=False)
            trace.append(step(f"Healing period from day {began}: d3 {d3} + 3 = "
                              f"{healing_period(d3)} days: the Healing Rolls fall on day "
                              f"{record.next_healing}", DATA.rule("Healing 6 Healing")))
            continue
        what = (f"{record.injuries[due[2]].code} {record.injuries[due[2]].location.lower()}"
                if due[1] == "Healing Roll" else "")
        roll = draw(f"day {due[0]} {due[1]}" + (f" ({what})" if what else ""), 100)
        if roll is None:
            needs = f"day {due[0]}: {due[1]}" + (f" for {what}" if what else "") + " (d100)"
            break
        record, steps = _apply(record, due, roll, magic)
        trace += steps
    if until_day is not None and not record.dead:
        record = replace(record, day=max(record.day, until_day),
                         timeline=_stamp(record.timeline, replace(record.snapshot(),
                                                                  day=max(record.day,
                                                                          until_day))))
    draw.finish()
    outcome = ("dead" if record.dead else "recovered" if record.recovered
               else f"day {record.day}")
    return Recovery(value=record.day, outcome=outcome, trace=tuple(trace), record=record,
                    rolled=tuple(draw.rolled), needs=needs)


def _apply(record: InjuryRecord, due: tuple[int, str, int | None], roll: int, magic: int = 0
           ) -> tuple[InjuryRecord, list[Step]]:
    day, kind, index = due
    record = replace(record, day=day)
    if kind == "Infection Course Roll":
        return _infection(record, roll, magic)
    steps: list[Step] = []
    if kind == "Blood Loss Healing Roll":
        if record.skip_regeneration:
            steps.append(step(f"Day {day}: no blood regeneration this period (the last roll "
                              "was a CF)", DATA.rule("Healing 6 Healing")))
            record = replace(record, skip_regeneration=False,
                             next_regeneration=day + REGENERATION_EVERY)
            return record._with(text=steps[-1].text), steps
        weak = record.infection_fatigue
        regen = blood_regeneration(roll, record.endurance_eml - weak, record.blood_loss)
        if weak:
            steps.append(step(f"Day {day}: infection weakness {weak} off the Endurance test "
                              "(only anaemia's weakness is left out)",
                              DATA.rule("Healing 6 Blood Loss Healing Roll")))
        steps += [step(f"Day {day}: " + regen.trace[0].text, regen.trace[0].rule)]
        record = replace(record, blood_loss=regen.bp, skip_regeneration=regen.skip_next,
                         next_regeneration=day + REGENERATION_EVERY)
        return record._with(text=steps[-1].text), steps
    return _healing(record, index, roll, magic)


def _healing(record: InjuryRecord, index: int, roll: int, magic: int = 0
             ) -> tuple[InjuryRecord, list[Step]]:
    """The Healing Roll of injury *index* (Healing 6): HB × HR; S lowers the level by 1, CS by
    2; a CF infects an injury whose treatment left the chance. When every treated injury has
    rolled (or an infection stops all healing) the next Healing Rolls fall five days later."""
    inj = record.injuries[index]
    result = healing_roll(roll, record.healing_base, inj.hr or 1, inj.level,
                          arcane=[magic] if magic else [],
                          infection_chance=inj.infection_chance)
    steps = [step(f"Day {record.day}, {inj.code} {inj.location.lower()}: {s.text}", s.rule)
             for s in result.trace]
    new = replace(inj, level=result.injury_level)
    if result.injury_level <= 1 and inj.minor_day is None:
        new = replace(new, minor_day=record.day)
        if new.permanent:
            steps.append(step(f"Minor after {record.day - inj.day} days: {new.permanent} "
                              "permanent impairment to its zone", DATA.rule("Healing 8 Impairment")))
    if result.injury_level == 0:
        new = replace(new, healed_day=record.day)
    record = replace(record, injuries=_put(record.injuries, index, new),
                     healing_done=record.healing_done + (index,))
    if result.infected:
        ihr = infection_healing_rate(inj.hr or 1)
        steps.append(step(f"Infected: an Infection Course Roll every day at HR{ihr}; all "
                          "healing stops until it is defeated", DATA.rule("Healing 7 Infection")))
        record = replace(record, infection=(index, ihr), healing_done=())
    elif _healing_due(record) is None:
        record = replace(record, healing_done=(), **record._period_from(record.day))
    return record._with(text=" ".join(s.text for s in steps)), steps


def _healing_due(record: InjuryRecord) -> int | None:
    """The next injury to roll for on the current healing day, if any."""
    for i in record.active:
        if record.injuries[i].hr is not None and i not in record.healing_done:
            return i
    return None


def _infection(record: InjuryRecord, roll: int, magic: int = 0
               ) -> tuple[InjuryRecord, list[Step]]:
    index, ihr = record.infection  # type: ignore[misc]
    course = infection_course(roll, record.healing_base, ihr,
                              fatigue=record.infection_fatigue,
                              arcane=[magic] if magic else [])
    steps = [step(f"Day {record.day}: {s.text}", s.rule) for s in course.trace]
    weak = infection_weakness(min(max(ihr, 1), 5))
    if weak and course.outcome != "dies":
        steps.append(step(f"Weakness while infected at HR{ihr}: {weak} fatigue",
                          DATA.rule("Healing 7 Infection")))
    if course.outcome == "dies":
        record = replace(record, dead=True, infection=None)
    elif course.outcome == "recovered":
        record = replace(record, infection=None, **record._period_from(record.day))
    else:
        record = replace(record, infection=(index, course.healing_rate))
    return record._with(text=" ".join(s.text for s in steps)), steps
