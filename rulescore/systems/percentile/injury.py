"""Injury sequence: location, impact, injury level, compounding, bleeding, amputation, shock."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from ...errors import RulesError, require_bool, require_int, require_list, shown
from ...tables import Row
from ...trace import Resolution, step
from ._system import DATA
from ...dice import DiceSource
from .terms import ASPECTS, MAX_DIE, MAX_ZONE_DICE, SHOCK_STATES
from .checks import TestResolution, effective_eml, rolled, success_level

LOCATION = "Injury 1 Location"
HELPLESS = "Injury 1 Location — Helpless Targets"
GRIEVOUS_TESTS = "Injury 5 Tests with Grievous Injury"
IMPACT = "Injury 2 Impact"
INJURY = "Injury 3 Injury"
COMPOUND = "Injury 3.1 Compound Injury"
GLANCING = "Injury 3.2 Glancing Blow"
BLEEDING = "Injury 3.3 Bleeding"
AMPUTATION = "Injury 3.4 Amputation"
SHOCK = "Injury 4 Shock"
MAX_EXISTING = 50  # earlier injuries at one location: far more than a body survives
EFFECT = "Injury 5 Injury Effect"


# --- step 1: location -------------------------------------------------------------------

def _zones():
    return DATA.table("injury", "body_zones")


def zone_count() -> int:
    """The number of zone numbers on the (human) body location table."""
    return max(r.span.high for r in _zones())


def zone_name(zone_number: int) -> str:
    """The body zone (Head, Arms, Torso or Legs) a zone number falls in (Injury 1): the zone
    whose armour a strike aimed there meets."""
    require_int("zone_number", zone_number, minimum=1, maximum=zone_count())
    return _zones().lookup(zone_number)["zone"]


def _zone_row(zn: int) -> Row | None:
    if zn < 1 or zn > zone_count():
        return None
    return _zones().lookup(zn)


def _location_row(zone: Row, ln: int) -> Row:
    return DATA.table("injury", zone["locations"]).lookup(ln)


def strike_location(zone_roll: int, location_roll: int, aim_zone: int = 1) -> str | None:
    """The body location a strike hits, or None when the zone die misses.

    The Zone Die counts up from the aimed zone number (aim 3, roll 4 → ZN6); a zone number past
    the table is a miss. The d10 Location Die (1-10, type 10 for a 0) picks the location.
    """
    require_int("zone_roll", zone_roll, minimum=1)
    require_int("location_roll", location_roll, minimum=1, maximum=10)
    require_int("aim_zone", aim_zone, minimum=1, maximum=zone_count())
    zone = _zone_row(aim_zone + zone_roll - 1)
    return None if zone is None else _location_row(zone, location_roll)["location"]


def location_row(location: str) -> dict:
    """The body location table row of *location* (a face feature reads as the Face row with
    its own shock and triangle; assumption face_features), plus its zone."""
    if not isinstance(location, str):
        raise RulesError(f"location must be a location name, got {shown(location)}")
    wanted = location.strip().lower()
    names = []
    for zone in _zones():
        for row in DATA.table("injury", zone["locations"]):
            names.append(row["location"])
            if row["location"].lower() == wanted:
                return {**row.as_dict(), "zone": zone["zone"]}
    face = location_row("Face") if wanted != "face" else None
    for row in DATA.table("injury", "face_features"):
        names.append(row["feature"])
        if row["feature"].lower() == wanted and face is not None:
            return {**face, "location": row["feature"], "location_shock": row["location_shock"],
                    "amputation": row["amputation"]}
    raise RulesError(f"location must be one of {', '.join(names)}, got {shown(location)}")


def location_names() -> tuple[str, ...]:
    """Every location of the body location table, head to feet."""
    return tuple(row["location"] for zone in _zones()
                 for row in DATA.table("injury", zone["locations"]))


def face_feature(d20: int) -> str:
    """The feature a Face strike hits on the optional d20 Face table."""
    require_int("d20", d20, minimum=1, maximum=20)
    return DATA.table("injury", "face_features").lookup(d20)["feature"]


@dataclass(frozen=True, kw_only=True)
class LocationResolution(Resolution):
    """Where a strike lands: value = the zone number (0 on a miss), outcome = the location."""

    zone_number: int
    zone: str | None
    location: str | None
    location_shock: int | None
    side: str | None


def locate_strike(zone_rolls: Sequence[int], location_rolls: Sequence[int],
                  aim_zone: int = 1, *, zone_pick: int = 0, location_pick: int = 0,
                  side_from: str = "location", hard_cover: Sequence[str] = ()
                  ) -> LocationResolution:
    """Step 1 with Precision: roll every Zone Die, choose one; extra Location Dice follow.

    *zone_rolls* are the Zone Dice (one, plus one per Precision TA); *zone_pick* chooses one.
    Each other Zone Die landing in the same body zone grants one more d10 Location Die:
    *location_rolls* must hold exactly that many, and *location_pick* chooses one. An Arm or
    Leg is on the left for an odd die, right for an even one (*side_from* "location" or "zone",
    assumption limb_side). When the chosen Zone Die misses, no Location Die is read. A
    location named in *hard_cover* (behind a wall or tree) stops the strike: outcome "hard
    cover", value 0.
    """
    covered = require_cover(hard_cover)
    zs = _int_list("zone_rolls", zone_rolls, 1, MAX_DIE)
    if len(zs) > MAX_ZONE_DICE:
        raise RulesError(f"zone_rolls takes at most {MAX_ZONE_DICE} Zone Dice (one, plus one per "
                         f"Precision TA), got {len(zs)}")
    ls = _int_list("location_rolls", location_rolls, 1, 10, allow_empty=True)
    require_int("aim_zone", aim_zone, minimum=1, maximum=zone_count())
    require_int("zone_pick", zone_pick, minimum=0, maximum=len(zs) - 1)
    if side_from not in ("location", "zone"):
        raise RulesError(f"side_from must be 'location' or 'zone', got {shown(side_from)}")
    zns = [aim_zone + z - 1 for z in zs]
    trace = [step("Zone Dice " + ", ".join(f"{z} → ZN{n}" for z, n in zip(zs, zns))
                  + f" (aimed at ZN{aim_zone})", DATA.rule(LOCATION), aim_zone=aim_zone)]
    zn = zns[zone_pick]
    zone = _zone_row(zn)
    if zone is None:
        trace.append(step(f"ZN{zn} is not on the {zone_count()}-zone table: the strike misses",
                          DATA.rule(LOCATION), zn=zn))
        return LocationResolution(value=0, outcome="miss", trace=tuple(trace), zone_number=zn,
                                  zone=None, location=None, location_shock=None, side=None)
    same = sum(1 for i, n in enumerate(zns) if i != zone_pick and _zone_row(n) is not None
               and _zone_row(n)["zone"] == zone["zone"])
    if len(ls) != 1 + same:
        raise RulesError(f"location_rolls must hold {1 + same} d10 roll(s) (one, plus one for "
                         f"each other Zone Die of zone_rolls in the {zone['zone']} zone), "
                         f"got {len(ls)}")
    require_int("location_pick", location_pick, minimum=0, maximum=len(ls) - 1)
    trace.append(step(f"ZN{zn} is in the {zone['zone']} zone"
                      + (f"; {same} other Zone Die in it: {1 + same} Location Dice" if same
                         else ""), DATA.rule(LOCATION), zn=zn))
    ln = ls[location_pick]
    row = _location_row(zone, ln)
    side = None
    if zone["zone"] in ("Arms", "Legs"):
        die = ln if side_from == "location" else zs[zone_pick]
        side = "left" if die % 2 else "right"
    where = f"{side} {row['location'].lower()}" if side else row["location"]
    trace.append(step(f"Location Die {ln}: {where} (location shock {row['location_shock']})",
                      DATA.rule(LOCATION), ln=ln, location=row["location"]))
    if row["location"].lower() in covered:
        return _behind_cover(trace, zn, zone["zone"], row["location"], side)
    return LocationResolution(value=zn, outcome=row["location"], trace=tuple(trace),
                              zone_number=zn, zone=zone["zone"], location=row["location"],
                              location_shock=row["location_shock"], side=side)


def require_cover(hard_cover: object) -> set[str]:
    """The locations named as behind hard cover, checked against the body location table."""
    names = location_names()
    items = require_list("hard_cover", hard_cover, "locations such as ['Thigh', 'Knee']",
                         max_length=len(names))
    known = {n.lower() for n in names}
    for name in items:
        if not isinstance(name, str) or name.strip().lower() not in known:
            raise RulesError(f"hard_cover must name locations of the body table "
                             f"({', '.join(names)}), got {shown(name)}")
    return {name.strip().lower() for name in items}


def _behind_cover(trace: list, zn: int, zone: str, location: str, side: str | None
                  ) -> LocationResolution:
    trace.append(step(f"The {location.lower()} is behind hard cover: the strike fails",
                      DATA.rule(LOCATION), location=location))
    return LocationResolution(value=0, outcome="hard cover", trace=tuple(trace), zone_number=zn,
                              zone=zone, location=location, location_shock=None, side=side)


def helpless_location(zone_number: int, location_number: int, *,
                      hard_cover: Sequence[str] = ()) -> LocationResolution:
    """Step 1 against a helpless target: a melee attacker who spent a round concentrating on
    it names the zone number and location number instead of rolling any Zone or Location Die.
    An Arm or Leg side follows the location number as for a rolled die (assumption limb_side).
    """
    require_int("zone_number", zone_number, minimum=1, maximum=zone_count())
    require_int("location_number", location_number, minimum=1, maximum=10)
    covered = require_cover(hard_cover)
    zone = _zone_row(zone_number)
    row = _location_row(zone, location_number)
    side = ("left" if location_number % 2 else "right") if zone["zone"] in ("Arms", "Legs") \
        else None
    where = f"{side} {row['location'].lower()}" if side else row["location"]
    trace = [step(f"Helpless target, a round spent concentrating: ZN{zone_number} "
                  f"({zone['zone']}) and LN{location_number} are chosen, not rolled: {where} "
                  f"(location shock {row['location_shock']})", DATA.rule(HELPLESS),
                  zn=zone_number, ln=location_number, location=row["location"])]
    if row["location"].lower() in covered:
        return _behind_cover(trace, zone_number, zone["zone"], row["location"], side)
    return LocationResolution(value=zone_number, outcome=row["location"], trace=tuple(trace),
                              zone_number=zone_number, zone=zone["zone"],
                              location=row["location"], location_shock=row["location_shock"],
                              side=side)


def location_distribution(zone_die: int, aim_zone: int = 1, *,
                          hard_cover: Sequence[str] = ()) -> dict[str | None, Fraction]:
    """Exact chance of each location (None = miss) for a Zone Die aimed at *aim_zone*
    (Injury 1 Location). Locations named in *hard_cover* count under "hard cover" (the strike
    fails). The die has at most 100 faces (a d100: no table rolls more)."""
    require_int("zone_die", zone_die, minimum=1, maximum=MAX_DIE)
    require_int("aim_zone", aim_zone, minimum=1, maximum=zone_count())
    covered = require_cover(hard_cover)
    counts: Counter = Counter()
    for z in range(1, zone_die + 1):
        for ln in range(1, 11):
            where = strike_location(z, ln, aim_zone)
            counts["hard cover" if where and where.lower() in covered else where] += 1
    total = zone_die * 10
    return {k: Fraction(n, total) for k, n in counts.items()}


def _int_list(name: str, values: object, low: int, high: int | None,
              allow_empty: bool = False) -> list[int]:
    if not isinstance(values, (list, tuple)) or (not values and not allow_empty):
        raise RulesError(f"{name} must be a list of die rolls, got {shown(values)}")
    for v in values:
        require_int(name, v, minimum=low, maximum=high)
    return list(values)


# --- step 2: impact ---------------------------------------------------------------------

def _aspect_arg(aspect: object) -> str:
    if aspect not in ASPECTS:
        raise RulesError(f"aspect must be one of B (blunt), E (edge), P (point), F (fire/frost), "
                         f"got {shown(aspect)}")
    return aspect  # type: ignore[return-value]


def impact_ta_bonus(aspect: str) -> int:
    """The extra impact one Impact TA adds for a strike *aspect* (3B, 5E, 4P, 2F)."""
    return DATA.table("melee", "impact_ta").find("aspect", _aspect_arg(aspect))["bonus"]


@dataclass(frozen=True, kw_only=True)
class ImpactResolution(Resolution):
    """Strike and effective impact: value = effective impact (may be 0 or less)."""

    strike_impact: int
    armour: int
    aspect: str


def impact(impact_roll: int, impact_modifier: int, armour: int = 0, *, aspect: str = "E",
           strength_modifier: int = 0, impact_tas: int = 0, range_modifier: int = 0,
           armour_reduction: int = 0) -> ImpactResolution:
    """Step 2: strike impact = impact die + modifier + Strength modifier (+ Impact TAs, + range
    modifier for missiles); effective impact = strike impact - the location's AV for the aspect.

    *armour_reduction* (a projectile's AR) lowers the AV, not below 0 (assumption
    armour_reduction).
    """
    require_int("impact_roll", impact_roll, minimum=1)
    require_int("impact_modifier", impact_modifier)
    require_int("armour", armour, minimum=0)
    require_int("strength_modifier", strength_modifier)
    require_int("impact_tas", impact_tas, minimum=0)
    require_int("range_modifier", range_modifier)
    require_int("armour_reduction", armour_reduction, minimum=0)
    _aspect_arg(aspect)
    ta = impact_tas * impact_ta_bonus(aspect)
    strike = impact_roll + impact_modifier + strength_modifier + ta + range_modifier
    parts = f"{impact_roll} + {impact_modifier} + STR {strength_modifier}"
    if ta:
        parts += f" + {impact_tas} Impact TA {ta}"
    if range_modifier:
        parts += f" + range {range_modifier}"
    trace = [step(f"Strike impact {parts} = {strike}{aspect}", DATA.rule(IMPACT), strike=strike)]
    av = max(0, armour - armour_reduction)
    if armour_reduction:
        trace.append(step(f"Armour reduction {armour_reduction}: AV {armour} → {av}",
                          DATA.rule(IMPACT), av=av))
    effective = strike - av
    trace.append(step(f"Effective impact {strike} - AV {av} = {effective}{aspect}", DATA.rule(IMPACT),
                      effective=effective))
    return ImpactResolution(value=effective, outcome=f"{effective}{aspect}", trace=tuple(trace),
                            strike_impact=strike, armour=av, aspect=aspect)


# --- step 3: injury ---------------------------------------------------------------------

def _injury_row(effective_impact: int) -> Row:
    require_int("effective_impact", effective_impact)
    return DATA.table("injury", "injury_levels").lookup(effective_impact)


def injury_level(effective_impact: int) -> str | None:
    """The injury an effective impact inflicts: None (0 or less), M1, S2, S3, G4 or G5."""
    return _injury_row(effective_impact)["injury"] or None


def injury_level_distribution(impact_die: int, impact_modifier: int, armour: int = 0, *,
                              aspect: str | None = None, rigid_armour: bool = False,
                              strength_modifier: int = 0, impact_tas: int = 0,
                              range_modifier: int = 0) -> dict[str | None, Fraction]:
    """Exact chance of each injury (None = no injury) for a weapon's d*impact_die* + modifier
    (+ Strength modifier, + the aspect's bonus per Impact TA, + a missile's *range_modifier*)
    against an armour value. With
    *rigid_armour* and an E or P *aspect*, impacts 1-4 are counted under "glancing" (a
    Glancing Blow, not an M1). The impact die has at most 100 faces (Injury 2 Impact)."""
    require_int("impact_die", impact_die, minimum=1, maximum=MAX_DIE)
    require_bool("rigid_armour", rigid_armour)
    require_int("impact_modifier", impact_modifier)
    require_int("armour", armour, minimum=0)
    require_int("strength_modifier", strength_modifier)
    require_int("impact_tas", impact_tas, minimum=0)
    require_int("range_modifier", range_modifier)
    if aspect is not None:
        _aspect_arg(aspect)
    elif impact_tas:
        raise RulesError(f"impact_tas {shown(impact_tas)} needs an aspect (the bonus of an "
                         "Impact TA depends on it), got aspect None")
    bonus = strength_modifier + range_modifier + (impact_ta_bonus(aspect) * impact_tas
                                                  if impact_tas else 0)
    counts: Counter = Counter()
    for face in range(1, impact_die + 1):
        eff = face + impact_modifier + bonus - armour
        inj = injury_level(eff)
        if inj == "M1" and rigid_armour and aspect is not None and \
                aspect in _glancing_aspects():
            inj = "glancing"
        counts[inj] += 1
    return {k: Fraction(n, impact_die) for k, n in counts.items()}


def _glancing_aspects() -> str:
    return DATA.setting("injury", "glancing_blow", "aspects")


def bleeder(location: str, injury: str | None, aspect: str) -> bool:
    """Whether an injury is a Bleeder: the location's circle shade against the injury and the
    strike's aspect on the BLEEDING table (M1 and S2 never bleed)."""
    _aspect_arg(aspect)
    shade = location_row(location)["bleeding"]
    if injury is None or injury not in ("M1", "S2", "S3", "G4", "G5"):
        if injury is not None:
            raise RulesError(f"injury must be None, M1, S2, S3, G4 or G5, got {shown(injury)}")
        return False
    if injury in ("M1", "S2"):
        return False
    return aspect in DATA.table("injury", "bleeding").find("shade", shade)[injury]


@dataclass(frozen=True, kw_only=True)
class InjuryResolution(Resolution):
    """Step 3 for one strike: value = the injury level (0: none), outcome = e.g. "S2E"."""

    injury: str | None
    severity: str | None
    glancing: bool
    injury_shock: int
    shock_bonus: int
    bleeder: bool
    amputation_test: bool
    mishap_check: bool


def injury(effective_impact: int, aspect: str, location: str | None = None, *,
           rigid_armour: bool = False) -> InjuryResolution:
    """Step 3: the injury for an effective impact, with the glancing, bleeding and amputation
    checks its symbols call for (the last two need the *location*)."""
    _aspect_arg(aspect)
    require_bool("rigid_armour", rigid_armour)
    row = _injury_row(effective_impact)
    loc = location_row(location) if location is not None else None
    inj = row["injury"] or None
    trace = [step(f"Effective impact {effective_impact}: "
                  + (f"{inj} ({row['severity']})" if inj else "no injury"), DATA.rule(INJURY),
                  impact=effective_impact)]
    if inj is None:
        return InjuryResolution(value=0, outcome="none", trace=tuple(trace), injury=None,
                                severity=None, glancing=False, injury_shock=0, shock_bonus=0,
                                bleeder=False, amputation_test=False, mishap_check=False)
    if row["glancing"] and rigid_armour and aspect in _glancing_aspects():
        shock = DATA.setting("injury", "glancing_blow", "injury_shock")
        bonus = DATA.setting("injury", "glancing_blow", "shock_bonus")
        trace.append(step(f"{aspect} strike of 1-4 against rigid armour: a Glancing Blow, no "
                          f"injury; injury shock {shock} and +{bonus} to the Shock test",
                          DATA.rule(GLANCING), injury_shock=shock, shock_bonus=bonus))
        return InjuryResolution(value=0, outcome="glancing blow", trace=tuple(trace),
                                injury=None, severity=None, glancing=True, injury_shock=shock,
                                shock_bonus=bonus, bleeder=False, amputation_test=False,
                                mishap_check=False)
    bleeds = False
    amputate = False
    if loc is not None:
        bleeds = bleeder(location, inj, aspect)
        trace.append(step(f"{loc['location']} has a {loc['bleeding']} bleeding circle: "
                          f"{inj}{aspect} is {'a Bleeder' if bleeds else 'not a Bleeder'}",
                          DATA.rule(BLEEDING), bleeder=int(bleeds)))
        amputate = bool(row["amputation"]) and aspect == "E" and loc["amputation"] != "none"
        if amputate:
            trace.append(step(f"G5 edge injury where the location has a {loc['amputation']} "
                              "triangle: test Strength for amputation", DATA.rule(AMPUTATION)))
    if row["mishap"]:
        trace.append(step(f"{row['severity']} injury: check the injury mishap for the zone",
                          DATA.rule(EFFECT)))
    return InjuryResolution(value=row["level"], outcome=f"{inj}{aspect}", trace=tuple(trace),
                            injury=inj, severity=row["severity"], glancing=False,
                            injury_shock=row["level"], shock_bonus=0, bleeder=bleeds,
                            amputation_test=amputate, mishap_check=bool(row["mishap"]))


@dataclass(frozen=True, kw_only=True)
class CompoundResolution(Resolution):
    """A compound injury roll: value = the injury shock for step 4.2."""

    compounded: bool
    levels: tuple[int, ...]
    raised: int | None


def compound_injury(existing: Sequence[str], new: str, d10: int | None = None, *,
                    dice: DiceSource | None = None) -> CompoundResolution:
    """Step 3.1: a new injury where the location already has injuries may compound.

    *existing* lists the location's injuries oldest first as codes such as "M1E" or "G4B";
    *new* is the new injury. Fire/frost (F) compounds only with fire/frost, the others only with
    each other (area injuries only with area injuries: list only those). If the d10 is at most
    the total IL, the highest-IL injury (the newest among equals) rises one level; a G5 stays
    G5 but gives injury shock 6. With *dice* (and no *d10*) the d10 is drawn only when there
    is an earlier injury to compound with.
    """
    if d10 is not None or dice is None:
        require_int("d10", rolled("d10", d10, dice, 10), minimum=1, maximum=10)
    require_existing(existing)
    old = [_parse_injury("existing", e) for e in existing]
    level, aspect = _parse_injury("new", new)
    fire = aspect == "F"
    kept = [(i, lv) for i, (lv, a) in enumerate(old) if (a == "F") == fire]
    trace = []
    skipped = len(old) - len(kept)
    if skipped:
        trace.append(step(f"{skipped} injury(ies) of the other kind (fire/frost against "
                          "physical) do not compound", DATA.rule(COMPOUND)))
    levels = [lv for _, lv in kept] + [level]
    cap = DATA.setting("injury", "compound_injury", "max_level")
    if not kept:
        trace.append(step("No earlier injury in this location to compound with", DATA.rule(COMPOUND)))
        return CompoundResolution(value=level, outcome="no compound roll", trace=tuple(trace),
                                  compounded=False, levels=tuple(levels), raised=None)
    total = sum(levels)
    if d10 is None:
        d10 = rolled("d10", None, dice, 10, "compound injury d10")
    if d10 > total:
        trace.append(step(f"d10 {d10} > total IL {total}: no compound injury", DATA.rule(COMPOUND),
                          roll=d10, tn=total))
        return CompoundResolution(value=level, outcome="not compounded", trace=tuple(trace),
                                  compounded=False, levels=tuple(levels), raised=None)
    top = max(levels)
    idx = max(i for i, lv in enumerate(levels) if lv == top)
    shock = top + 1
    if top >= cap:
        shock = DATA.setting("injury", "compound_injury", "g5_compound_injury_shock")
    levels[idx] = min(cap, top + 1)
    trace.append(step(f"d10 {d10} ≤ total IL {total}: the IL{top} injury "
                      f"{'(the new one) ' if idx == len(levels) - 1 else ''}compounds to "
                      f"IL{levels[idx]}; injury shock {shock}", DATA.rule(COMPOUND), roll=d10,
                      tn=total, injury_shock=shock))
    return CompoundResolution(value=shock, outcome="compounded", trace=tuple(trace),
                              compounded=True, levels=tuple(levels), raised=idx)


def require_existing(existing: object) -> list[str]:
    """The earlier injuries at one location as codes ("M1E"), at most MAX_EXISTING of them."""
    if isinstance(existing, str) or not isinstance(existing, (list, tuple)):
        raise RulesError(f"existing must be a list of injuries such as ['M1E'], "
                         f"got {shown(existing)}")
    if len(existing) > MAX_EXISTING:
        raise RulesError(f"existing may list at most {MAX_EXISTING} injuries at one location, "
                         f"got {len(existing)}")
    for code in existing:
        _parse_injury("existing", code)
    return list(existing)


def _parse_injury(name: str, code: object) -> tuple[int, str]:
    codes = {"M1": 1, "S2": 2, "S3": 3, "G4": 4, "G5": 5}
    if isinstance(code, str) and len(code) == 3 and code[:2] in codes and code[2] in ASPECTS:
        return codes[code[:2]], code[2]
    raise RulesError(f"{name} must be an injury code such as 'M1E' or 'G4B' (M1, S2, S3, G4, "
                     f"G5 then B, E, P or F), got {shown(code)}")


@dataclass(frozen=True, kw_only=True)
class AmputationResolution(Resolution):
    """The amputation Strength test: value = the roll, outcome = severed / not severed."""

    level: str
    severed: bool
    bleeder: bool
    shock_modifier: int
    killed: bool


def amputation_test(roll: int | None, strength_eml: int | None, location: str, *,
                    beast: bool = False, dice: DiceSource | None = None
                    ) -> AmputationResolution:
    """Step 3.4: a G5 edge injury in a location with a triangle tests Strength + the triangle's
    modifier (+20 white, 0 grey, -20 black). CF or F: severed (the neck: death); CF always makes
    a Bleeder, F only where the location can bleed. S: not severed, -20 to the Shock test; CS:
    not severed and no penalty. A *beast* has average Strength for its size: its test is ML70,
    ML50 or ML30 by the triangle, and *strength_eml* is left None."""
    roll = rolled("roll", roll, dice, what="Amputation test (d100)")
    require_bool("beast", beast)
    loc = location_row(location)
    if loc["amputation"] == "none":
        raise RulesError(f"location {loc['location']} has no amputation triangle: no test")
    mod = DATA.table("injury", "amputation_modifiers").find("shade", loc["amputation"])
    if beast:
        if strength_eml is not None:
            raise RulesError(f"strength_eml must be None for a beast (its test is ML"
                             f"{mod['beast_ml']} by the triangle), got {shown(strength_eml)}")
        eml = effective_eml(mod["beast_ml"])
        how = f"a beast tests ML{mod['beast_ml']} at a {loc['amputation']} triangle"
    else:
        require_int("strength_eml", strength_eml)
        eml = effective_eml(strength_eml + mod["modifier"])
        how = (f"{loc['amputation']} triangle {mod['modifier']:+d}; Strength EML "
               f"{strength_eml} → {eml}")
    require_int("roll", roll, minimum=1, maximum=100)
    level = success_level(roll, eml)
    row = DATA.table("injury", "amputation_results").find("level", level)
    trace = [step(f"{loc['location']}: {how}; roll {roll}: {level}", DATA.rule(AMPUTATION),
                  roll=roll, eml=eml, level=level)]
    bleeds = row["bleeder"] == "always" or (row["bleeder"] == "if the location bleeds"
                                            and loc["bleeding"] != "none")
    killed = row["severed"] and loc["location"] == "Neck"
    text = ("severed" + (": the target dies" if killed else "")) if row["severed"] \
        else "not severed"
    if bleeds:
        text += "; the injury is a Bleeder"
    if row["shock_modifier"]:
        text += f"; Shock test {row['shock_modifier']:+d}"
    trace.append(step(f"{level}: {text}", DATA.rule(AMPUTATION)))
    return AmputationResolution(value=roll, outcome="severed" if row["severed"] else
                                "not severed", trace=tuple(trace), level=level,
                                severed=bool(row["severed"]), bleeder=bleeds,
                                shock_modifier=row["shock_modifier"], killed=killed)


# --- step 4: shock ----------------------------------------------------------------------

def shock_state(shk: int) -> str | None:
    """The Shock State for a Shock State Index: None (6 or less), STN, INC, UNC or KIA."""
    require_int("shk", shk)
    return DATA.table("injury", "shock_states").lookup(shk)["state"] or None


def require_shock_state(name: str, state: object) -> str | None:
    """A Shock State (None for no effect); a RulesError naming *name* otherwise."""
    if state not in SHOCK_STATES:
        raise RulesError(f"{name} must be None, STN, INC, UNC or KIA, got {shown(state)}")
    return state  # type: ignore[return-value]


def combine_shock_states(current: str | None, new: str | None) -> str | None:
    """The state after a new Shock State: the more severe one, except that a new STN while
    Stunned becomes INC and a new INC while Incapacitated becomes UNC."""
    require_shock_state("current", current)
    require_shock_state("new", new)
    if current == new and new in ("STN", "INC"):
        return SHOCK_STATES[SHOCK_STATES.index(new) + 1]
    return max(current, new, key=SHOCK_STATES.index)


@dataclass(frozen=True, kw_only=True)
class ShockResolution(Resolution):
    """Step 4: value = the Shock State Index, outcome = the state ("none" for no effect)."""

    level: str
    shk: int
    state: str | None


def shock(location_shock: int, injury_shock: int, roll: int | None, shock_eml: int, *,
          bonus: int = 0, dice: DiceSource | None = None) -> ShockResolution:
    """SHK = location shock + injury shock + the Shock test's modifier (CF +2, F +1, S 0,
    CS -1); the total gives the Shock State. *bonus* is added to the Shock EML (+10 after a
    Glancing Blow, -20 after an S amputation test); fatigue belongs in *shock_eml*."""
    roll = rolled("roll", roll, dice, what="Shock test (d100)")
    require_int("location_shock", location_shock, minimum=0)
    require_int("injury_shock", injury_shock, minimum=0)
    require_int("bonus", bonus)
    require_int("shock_eml", shock_eml)
    eml = effective_eml(shock_eml + bonus)
    level = success_level(roll, eml)
    mod = DATA.table("injury", "shock_roll").find("level", level)["shk"]
    shk = location_shock + injury_shock + mod
    state = shock_state(shk)
    trace = [step(f"Shock test: roll {roll} against EML {eml}: {level} → {mod:+d} SHK",
                  DATA.rule(SHOCK), roll=roll, eml=eml, level=level),
             step(f"SHK = location {location_shock} + injury {injury_shock} + shock roll "
                  f"{mod} = {shk}: {state or 'no effect'}", DATA.rule(SHOCK), shk=shk)]
    return ShockResolution(value=shk, outcome=state or "none", trace=tuple(trace), level=level,
                           shk=shk, state=state)


@dataclass(frozen=True, kw_only=True)
class ShockRerollResolution(Resolution):
    """A Shock Reroll: value = the roll, outcome = the new state or "Extended shock"."""

    level: str
    state: str | None
    extended_shock_hr: int | None
    coma: bool


def shock_reroll(roll: int | None, shock_ml: int, state: str, *, fatigue: int = 0,
                 dice: DiceSource | None = None) -> ShockRerollResolution:
    """Shock Reroll of an INC or UNC character: Shock ML - 20 - fatigue. CF: Extended Shock
    HR4 (and a coma if UNC); F: Extended Shock HR5; S: Stunned; CS: recovered."""
    roll = rolled("roll", roll, dice, what="Shock Reroll (d100)")
    if state not in ("INC", "UNC"):
        raise RulesError(f"state must be INC or UNC for a Shock Reroll, got {shown(state)}")
    require_int("shock_ml", shock_ml)
    require_int("fatigue", fatigue, minimum=0)
    penalty = DATA.setting("injury", "shock_reroll_rules", "penalty")
    eml = effective_eml(shock_ml + penalty - fatigue)
    level = success_level(roll, eml)
    row = DATA.table("injury", "shock_reroll").find("level", level)
    trace = [step(f"Shock ML {shock_ml} {penalty} - fatigue {fatigue} = EML {eml}; roll "
                  f"{roll}: {level}", DATA.rule(SHOCK), roll=roll, eml=eml, level=level)]
    hr = row["healing_rate"] or None
    coma = bool(row["coma_if_unc"]) and state == "UNC"
    if hr:
        new_state = state
        text = f"Extended Shock with HR{hr}, still {state}" + ("; and a coma" if coma else "")
    elif row["result"] == "STN":
        new_state, text = "STN", "the state improves to Stunned"
    else:
        new_state, text = None, "the Shock State is removed"
    trace.append(step(f"{level}: {text}", DATA.rule(SHOCK)))
    return ShockRerollResolution(value=roll, outcome="Extended shock" if hr else
                                 (new_state or "recovered"), trace=tuple(trace), level=level,
                                 state=new_state, extended_shock_hr=hr, coma=coma)


def location_shock(location: str) -> int:
    """The location shock of *location* (Area attacks: use :func:`area_location_shock`)."""
    return location_row(location)["location_shock"]


def area_location_shock() -> int:
    """The location shock an Area attack imparts."""
    return DATA.setting("injury", "area_attack", "location_shock")


# --- step 5: effect ---------------------------------------------------------------------

def injury_mishap(zone: str, severity: str) -> str:
    """The mishap a Serious or Grievous injury to *zone* brings (the INJURY MISHAP table). An
    "Area" injury brings the head's mishaps."""
    zones = DATA.table("injury", "injury_mishap")
    names = [r["zone"] for r in zones]
    if zone == "Area":
        zone = "Head"
    if zone not in names:
        raise RulesError(f"zone must be one of {', '.join(names)}, got {shown(zone)}")
    if severity not in ("Serious", "Grievous"):
        raise RulesError(f"severity must be 'Serious' or 'Grievous', got {shown(severity)}")
    return zones.find("zone", zone)[severity]


def impaired_test(test: str, zone: str) -> bool:
    """Whether an injury in *zone* impairs *test* (the IMPAIRED TESTS table). An "Area"
    injury impairs every test and movement."""
    rows = DATA.table("injury", "impaired_tests")
    names = [r["test"] for r in rows]
    if test not in names:
        raise RulesError(f"test must be one of {', '.join(names)}, got {shown(test)}")
    if zone not in ("Head", "Arms", "Torso", "Legs", "Area"):
        raise RulesError(f"zone must be Head, Arms, Torso, Legs or Area, got {shown(zone)}")
    return True if zone == "Area" else bool(rows.find("test", test)[zone])


def injury_impairment(severity: str, *, shock_succeeded: bool = True,
                      minutes: int = 0) -> int | None:
    """The impairment an injury imparts to its zone's actions right after it is taken.

    Minor: none while the Shock test succeeded and under 10 minutes have passed, then 5;
    Serious: 10; Grievous: None (the zone is unusable).
    """
    require_int("minutes", minutes, minimum=0)
    require_bool("shock_succeeded", shock_succeeded)
    rows = DATA.table("injury", "injury_effects")
    if severity not in [r["severity"] for r in rows]:
        raise RulesError(f"severity must be Minor, Serious or Grievous, got {shown(severity)}")
    value = rows.find("severity", severity)["impairment"]
    if value < 0:
        return None
    deferred = DATA.setting("injury", "injury_rules", "minor_deferred_minutes")
    if severity == "Minor" and shock_succeeded and minutes < deferred:
        return 0
    return value


def impaled(injury: str | None, projectile: bool) -> bool:
    """Arrows and bolts that inflict S3 or worse stay impaled (Extraction treatment)."""
    require_bool("projectile", projectile)
    if injury not in (None, "M1", "S2", "S3", "G4", "G5"):
        raise RulesError(f"injury must be None, M1, S2, S3, G4 or G5, got {shown(injury)}")
    least = DATA.setting("injury", "injury_rules", "impalement_min_level")
    return projectile and injury is not None and int(injury[1]) >= least


@dataclass(frozen=True, kw_only=True)
class EvasionResolution(Resolution):
    """An evader's Dodge test against an Area attack: value = the SHK reduction."""

    level: str
    shk_reduction: int
    prone: bool


def evade_area_attack(roll: int | None, dodge_eml: int, *, dice: DiceSource | None = None
                      ) -> EvasionResolution:
    """An evader tests Dodge against an Area attack: S lowers its SHK by 1, CS by 2; whatever
    the result the evader ends prone."""
    roll = rolled("roll", roll, dice, what="Dodge test (d100)")
    require_int("dodge_eml", dodge_eml)
    eml = effective_eml(dodge_eml)
    level = success_level(roll, eml)
    cut = DATA.table("injury", "evasion").find("level", level)["shk_reduction"]
    trace = [step(f"Dodge EML {eml}; roll {roll}: {level}: Area attack SHK -{cut}; the evader "
                  "is now prone", DATA.rule("Evasion Action"), roll=roll, eml=eml, reduction=cut)]
    return EvasionResolution(value=cut, outcome=f"SHK -{cut}", trace=tuple(trace), level=level,
                             shk_reduction=cut, prone=True)


def shock_state_distribution(location_shock: int, injury_shock: int, shock_eml: int
                             ) -> dict[str | None, Fraction]:
    """Exact chance of each Shock State (None = no effect) over the d100 Shock test."""
    require_int("location_shock", location_shock, minimum=0)
    require_int("injury_shock", injury_shock, minimum=0)
    require_int("shock_eml", shock_eml)
    out: dict[str | None, Fraction] = {}
    for face in range(1, 101):
        state = shock(location_shock, injury_shock, face, shock_eml).state
        out[state] = out.get(state, Fraction(0)) + Fraction(1, 100)
    return out


def grim_wound_shock(roll: int | None, shock_eml: int, location: str, injury: str, *,
                     dice: DiceSource | None = None) -> ShockResolution:
    """A grim wound's daily Shock Roll: step 4 with the wound's location shock and level.
    *roll* None draws the d100 from *dice*. Healing 5 Grim Wound."""
    codes = {"M1": 1, "S2": 2, "S3": 3, "G4": 4, "G5": 5}
    if injury not in ("G4", "G5"):
        raise RulesError(f"injury must be G4 or G5 (only Grievous wounds are grim), "
                         f"got {shown(injury)}")
    location_shock(location)
    require_int("shock_eml", shock_eml)
    roll = rolled("roll", roll, dice, what="grim wound's Shock Roll (d100)")
    r = shock(location_shock(location), codes[injury], roll, shock_eml)
    first = step(f"Grim wound ({injury} {location}): daily Shock Roll",
                 DATA.rule("Healing 5 Grim Wound"))
    return ShockResolution(value=r.value, outcome=r.outcome, trace=(first,) + r.trace,
                           level=r.level, shk=r.shk, state=r.state)


def grievous_zone_test(zone: str, action: str = "action") -> TestResolution:
    """A test that needs a zone made unusable by a Grievous injury: an automatic CF, no roll,
    with that zone's automatic mishap (Injury 5, Tests with Grievous Injury and the INJURY
    MISHAP table). In melee defence the alternative is to Ignore instead. *action* only names
    the test in the explanation."""
    require_zone("zone", zone)
    if not isinstance(action, str) or not action.strip() or len(action) > 40:
        raise RulesError(f"action must name the test in a few words, such as 'Block', "
                         f"got {shown(action)}")
    mishap = injury_mishap(zone, "Grievous")
    trace = (step(f"{action.strip()} with the {zone.lower()} zone unusable (Grievous injury): "
                  f"an automatic CF, no roll; {mishap.lower()}", DATA.rule(GRIEVOUS_TESTS),
                  level="CF", mishap=mishap),)
    return TestResolution(value=0, outcome="CF", trace=trace, level="CF", eml=0, mishap=mishap)


def require_zone(name: str, zone: object) -> str:
    """A body zone of the INJURY MISHAP table (Head, Arms, Torso, Legs); else a RulesError."""
    zones = [r["zone"] for r in DATA.table("injury", "injury_mishap")]
    if zone not in zones:
        raise RulesError(f"{name} must be one of {', '.join(zones)}, got {shown(zone)}")
    return zone  # type: ignore[return-value]
