"""The whole injury sequence for one strike (Injury 1-5), walked step by step.

:func:`injury_sequence` chains the step functions of :mod:`.injury` — location, impact, injury,
compound injury, amputation, shock, shock reroll and effect — takes each die from one
:class:`~rulescore.dice.DiceSource` (seeded or typed) only when the step needs it, and keeps each step's trace
apart (``stages``) with the table row it used (``rows``), so a walker can show them one at a
time with the row highlighted. Given an :class:`InjuryRecord`, earlier injuries at the struck
location compound, and the new injury is written into the returned record.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ...dice import DiceSource
from ...errors import RulesError, require_bool, require_int, shown
from ...trace import Resolution, Step, step
from ._system import DATA
from .terms import MAX_DIE, MAX_ZONE_DICE
from .checks import DiceDraw
from .injury import (ASPECTS, AmputationResolution, CompoundResolution, ImpactResolution,
                     InjuryResolution, LocationResolution, ShockRerollResolution,
                     ShockResolution, amputation_test, combine_shock_states, compound_injury,
                     helpless_location, impact, impaled, injury, injury_impairment,
                     location_names,
                     injury_mishap, locate_strike,
                     require_cover, require_existing, require_shock_state, shock,
                     shock_reroll,
                     zone_count)
from .injury import _parse_injury, _zone_row  # the zone row decides how many Location Dice are rolled
from .record import LEVEL_CODES, InjuryRecord
from .record import _require_record  # a record edited by hand is held to its file's rules

EFFECT = "Injury 5 Injury Effect"
RECORD_ASPECT = {"B": "Blunt", "E": "Edge", "P": "Point", "F": "Fire"}


@dataclass(frozen=True, kw_only=True)
class InjurySequence(Resolution):
    """One strike through the injury sequence. value = the injury level (0: none); outcome a
    summary. ``stages`` pairs each step's title with its trace; ``rows`` names the table rows
    used as (table, row index); ``needs`` the next die when typed dice ran out."""

    location: LocationResolution | None = None
    impact: ImpactResolution | None = None
    injury: InjuryResolution | None = None
    compound: CompoundResolution | None = None
    amputation: AmputationResolution | None = None
    shock: ShockResolution | None = None
    reroll: ShockRerollResolution | None = None
    state: str | None = None
    effects: tuple[str, ...] = ()
    stages: tuple[tuple[str, tuple[Step, ...]], ...] = ()
    rows: tuple[tuple[str, int], ...] = ()
    rolled: tuple[tuple[str, int], ...] = ()
    needs: str | None = None
    record: InjuryRecord | None = None
    projectile: bool = False


def _row_index(name: str, column: str, value: object) -> int:
    return [r[column] for r in DATA.table("injury", name).rows].index(value)


def _lookup_index(name: str, value: int) -> int:
    rows = DATA.table("injury", name).rows
    return next(i for i, r in enumerate(rows) if r.span is not None and value in r.span)


class _Walk:
    """The growing state of one walk: the stages, rows and parts found so far."""

    def __init__(self, draw: DiceDraw, projectile: bool = False) -> None:
        self.draw, self.stages, self.rows, self.parts = draw, [], [], {}
        self.projectile = projectile

    def add(self, title: str, result: Resolution, key: str) -> None:
        self.stages.append((title, tuple(result.trace)))
        self.parts[key] = result

    def done(self, value: int, outcome: str, needs: str | None = None, **more: object
             ) -> InjurySequence:
        if needs is None:
            self.draw.finish()
        trace = tuple(s for _, steps in self.stages for s in steps)
        return InjurySequence(value=value, outcome=outcome, trace=trace,
                              stages=tuple(self.stages), rows=tuple(self.rows),
                              rolled=tuple(self.draw.rolled), needs=needs,
                              projectile=self.projectile, **self.parts, **more)


def injury_sequence(*, zone_die: int = 6, aim_zone: int = 1, precision: int = 0,
                    zone_pick: int = 0, impact_die: int = 10, impact_modifier: int = 0,
                    aspect: str = "E", armour: int = 0, rigid_armour: bool = False,
                    strength_modifier: int = 0, impact_tas: int = 0, range_modifier: int = 0,
                    shock_eml: int = 65, strength_eml: int = 60, fatigue: int = 0,
                    current_state: str | None = None, projectile: bool = False,
                    reroll: bool = False, record: InjuryRecord | None = None,
                    existing: Sequence[str] = (), hard_cover: Sequence[str] = (),
                    helpless: tuple[int, int] | None = None, beast: bool = False,
                    dice: DiceSource | Sequence[int] = (),
                    rng: random.Random | None = None) -> InjurySequence:
    """Walk one strike from the Zone Die to its effect (Injury 1-5).

    Dice in order, each only when its step needs it: the Zone Dice (1 + *precision*, each a
    d*zone_die*), the d10 Location Dice (one more for each other Zone Die in the chosen zone),
    the impact die, the compound d10 (when the *record* holds injuries of the same kind at that
    location), the amputation d100 (a G5 edge injury where the location has a triangle), the
    Shock d100 and, with *reroll* and a result of INC or UNC, the Shock Reroll d100. Without a
    record, *existing* may list the earlier injuries at the struck location as codes ("S2E").
    *shock_eml* is the Shock ML before fatigue: *fatigue* comes off the Shock test (a fatigue
    test) and off the reroll (Shock ML - 20 - fatigue). Locations named in *hard_cover* stop
    the strike. Against a helpless target a melee attacker who concentrated for a round names
    the spot: *helpless* = (zone number, location number), and no Zone or Location Die is
    rolled. A *beast* tests amputation at its fixed ML by triangle; *strength_eml* is then
    not used.

    *dice* is a :class:`~rulescore.dice.DiceSource`: seeded, the whole walk is rolled; typed,
    the walk goes as far as the values reach and ``needs`` names the next die. Typed values as
    a list, and *rng* to roll on after them, are kept for existing callers.
    """
    if aspect not in ASPECTS:
        raise RulesError(f"aspect must be one of {', '.join(ASPECTS)}, got {shown(aspect)}")
    require_int("precision", precision, minimum=0, maximum=MAX_ZONE_DICE - 1)
    require_int("zone_die", zone_die, minimum=1, maximum=MAX_DIE)
    require_int("impact_die", impact_die, minimum=1, maximum=MAX_DIE)
    require_int("fatigue", fatigue, minimum=0)
    require_int("aim_zone", aim_zone, minimum=1, maximum=zone_count())
    require_int("zone_pick", zone_pick, minimum=0, maximum=precision)
    for name, value in (("impact_modifier", impact_modifier), ("strength_modifier",
                        strength_modifier), ("range_modifier", range_modifier),
                        ("shock_eml", shock_eml), ("strength_eml", strength_eml)):
        require_int(name, value)
    require_int("armour", armour, minimum=0)
    require_int("impact_tas", impact_tas, minimum=0)
    for name, flag in (("rigid_armour", rigid_armour), ("projectile", projectile),
                       ("reroll", reroll), ("beast", beast)):
        require_bool(name, flag)
    require_shock_state("current_state", current_state)
    _sheet(existing, "Skull")  # checks every code before any die is asked for
    require_cover(hard_cover)
    if helpless is not None and (not isinstance(helpless, tuple) or len(helpless) != 2):
        raise RulesError(f"helpless must be (zone number, location number), "
                         f"got {shown(helpless)}")
    if helpless is not None:
        require_int("helpless zone number", helpless[0], minimum=1, maximum=zone_count())
        require_int("helpless location number", helpless[1], minimum=1, maximum=10)
    if record is not None and not isinstance(record, InjuryRecord):
        raise RulesError(f"record must be an InjuryRecord or None, got {shown(record)}")
    walk = _Walk(DiceDraw(dice, rng, "injury sequence"), projectile)
    draw = walk.draw

    # 1 Location: every Zone Die, then as many Location Dice as the chosen zone calls for
    # (none against a helpless target: the attacker names the spot).
    if helpless is not None:
        picked = helpless_location(*helpless, hard_cover=hard_cover)
        walk.add("1 Location", picked, "location")
        if picked.location is not None:
            walk.rows.append(("body_zones", _lookup_index("body_zones", picked.zone_number)))
            walk.rows.append((_zone_row(picked.zone_number)["locations"], _row_index(
                _zone_row(picked.zone_number)["locations"], "location", picked.location)))
    else:
        zones = [draw(f"Zone Die {i + 1} (d{zone_die})", zone_die)
                 for i in range(1 + precision)]
        if None in zones:
            return walk.done(0, "roll the Zone Dice", needs=f"Zone Die (d{zone_die})")
        located = _locate(walk, zones, aim_zone, zone_pick, hard_cover)
        if isinstance(located, InjurySequence):
            return located
    where: LocationResolution = walk.parts["location"]
    if where.outcome == "miss":
        return walk.done(0, "the Zone Die carries the strike off the body: a miss")
    if where.outcome == "hard cover":
        return walk.done(0, f"the {where.location.lower()} is behind hard cover: the strike "
                         "fails")

    # 2 Impact.
    roll = draw(f"impact die (d{impact_die})", impact_die)
    if roll is None:
        return walk.done(0, f"{where.outcome}: roll the impact die", needs=f"impact d{impact_die}")
    blow = impact(roll, impact_modifier, armour, aspect=aspect,
                  strength_modifier=strength_modifier, impact_tas=impact_tas,
                  range_modifier=range_modifier)
    walk.add("2 Impact", blow, "impact")

    # 3 Injury, with glancing blow, bleeding and the amputation check.
    hurt = injury(blow.value, aspect, where.outcome, rigid_armour=rigid_armour)
    walk.add("3 Injury", hurt, "injury")
    walk.rows.append(("injury_levels", _lookup_index("injury_levels", blow.value)))
    if hurt.injury is None and not hurt.glancing:
        return walk.done(0, f"{where.outcome}: the armour takes it, no injury",
                         record=record)
    injury_shock, level, raised = hurt.injury_shock, hurt.value, None
    if hurt.injury and (record is not None or existing):
        sheet = record if record is not None else _sheet(existing, where.outcome)
        found = _compound(walk, sheet, where.outcome, hurt.injury + aspect)
        if isinstance(found, InjurySequence):
            return found
        if found is not None:
            injury_shock, raised, compounded = found
            if compounded and raised is None:
                level = min(5, level + 1)

    # 3.4 Amputation.
    bonus = hurt.shock_bonus
    if hurt.amputation_test:
        cut = draw("amputation test (d100)", 100)
        if cut is None:
            return walk.done(level, "a G5 edge injury: test Strength for amputation",
                             needs="amputation d100")
        chopped = amputation_test(cut, None if beast else strength_eml, where.outcome,
                                  beast=beast)
        walk.add("3.4 Amputation", chopped, "amputation")
        walk.rows.append(("amputation_results", _row_index("amputation_results", "level",
                                                           chopped.level)))
        bonus += chopped.shock_modifier
        if chopped.killed:
            return walk.done(level, f"{where.outcome} severed: the target dies",
                             state="KIA", record=_recorded(record, where, aspect, level, hurt,
                                                           raised))

    # 4 Shock, then (asked for) the Shock Reroll of an INC or UNC character.
    test = draw("Shock test (d100)", 100)
    if test is None:
        return walk.done(level, f"{where.outcome}: {_label(hurt, aspect, level)}; roll the "
                         "Shock test", needs="Shock d100")
    shaken = shock(where.location_shock or 0, injury_shock, test, shock_eml - fatigue,
                   bonus=bonus)
    walk.add("4 Shock", shaken, "shock")
    walk.rows.append(("shock_states", _lookup_index("shock_states", shaken.shk)))
    state = combine_shock_states(current_state, shaken.state)
    if state != shaken.state:
        walk.stages.append(("4 Shock state", (step(
            f"Already {current_state}: with the new {shaken.state or 'no effect'} the state is "
            f"{state}", DATA.rule("Injury 4 Shock")),)))
    combined = state
    if reroll and state in ("INC", "UNC"):
        again = draw("Shock Reroll (d100)", 100)
        if again is None:
            return walk.done(level, f"{state}: roll the Shock Reroll", needs="Shock Reroll d100",
                             state=state)
        back = shock_reroll(again, shock_eml, state, fatigue=fatigue)
        walk.add("4 Shock Reroll", back, "reroll")
        walk.rows.append(("shock_reroll", _row_index("shock_reroll", "level", back.level)))
        state = back.state

    # 5 Effect (nothing more to say about the dead).
    effects = (("killed in action",) if state == "KIA"
               else _effects(walk, hurt, where, shaken, level, projectile))
    new_record = _recorded(record, where, aspect, level, hurt, raised, projectile,
                           shaken=shaken)
    after = (f"; after the reroll {state or 'recovered'}" if walk.parts.get("reroll")
             else "")
    return walk.done(level, f"{where.outcome}: {_label(hurt, aspect, level)}; shock "
                     f"{shaken.shk} → {combined or 'no effect'}{after}", state=state,
                     effects=effects, record=new_record)


def _locate(walk: _Walk, zones: list[int], aim_zone: int, zone_pick: int,
            hard_cover: Sequence[str] = ()) -> InjurySequence | None:
    """Step 1: read the chosen Zone Die, then the Location Dice it calls for."""
    require_int("zone_pick", zone_pick, minimum=0, maximum=len(zones) - 1)
    require_int("aim_zone", aim_zone, minimum=1, maximum=zone_count())
    count = 1
    zns = [aim_zone + z - 1 for z in zones]
    chosen = _zone_row(zns[zone_pick])
    if chosen is not None:
        count += sum(1 for i, n in enumerate(zns) if i != zone_pick and _zone_row(n) is not None
                     and _zone_row(n)["zone"] == chosen["zone"])
        lds = [walk.draw(f"Location Die {i + 1} (d10)", 10) for i in range(count)]
        if None in lds:
            return walk.done(0, f"ZN{zns[zone_pick]}: roll the Location Die",
                             needs="Location Die (d10)")
    else:
        lds = []
    where = locate_strike(zones, lds, aim_zone, zone_pick=zone_pick, hard_cover=hard_cover)
    walk.add("1 Location", where, "location")
    if where.location is not None:
        walk.rows.append(("body_zones", _lookup_index("body_zones", where.zone_number)))
        walk.rows.append((chosen["locations"], _row_index(chosen["locations"], "location",
                                                          where.location)))
    return None


def _sheet(existing: Sequence[str], location: str) -> InjuryRecord:
    """A throwaway record holding *existing* injury codes at *location*."""
    record = InjuryRecord()
    for code in require_existing(existing):
        level, letter = _parse_injury("existing", code)
        record = record.add_injury(location, RECORD_ASPECT[letter], level)
    return record


def _compound(walk: _Walk, record: InjuryRecord, location: str, new: str
              ) -> InjurySequence | tuple[int, int | None, bool] | None:
    """Step 3.1 with the record: (injury shock, index of the raised earlier injury or None
    for the new one, compounded?), None when nothing there can compound."""
    here = [i for i, inj in enumerate(record.injuries)
            if inj.location == location and inj.level]
    fire = new[2] == "F"
    kept = [i for i in here if (record.injuries[i].aspect in ("Fire", "Frost")) == fire]
    if not kept:
        return None
    d10 = walk.draw("compound d10", 10)
    if d10 is None:
        return walk.done(0, "earlier injuries here: roll the compound d10", needs="compound d10")
    codes = [record.injuries[i].code for i in kept]
    result = compound_injury(codes, new, d10)
    walk.add("3.1 Compound injury", result, "compound")
    if not result.compounded:
        return result.value, None, False
    raised = None if result.raised == len(kept) else kept[result.raised]
    return result.value, raised, True


def _label(hurt: InjuryResolution, aspect: str, level: int) -> str:
    if hurt.glancing:
        return "a glancing blow"
    return f"{LEVEL_CODES[level]}{aspect} injury"


def _effects(walk: _Walk, hurt: InjuryResolution, where: LocationResolution,
             shaken: ShockResolution, level: int, projectile: bool) -> tuple[str, ...]:
    """Step 5: impairment, injury mishap, impalement, bleeding."""
    if hurt.glancing or not hurt.injury:
        return ()
    severity = {1: "Minor", 2: "Serious", 3: "Serious"}.get(level, "Grievous")
    out = []
    imp = injury_impairment(severity, shock_succeeded=shaken.level in ("S", "CS"))
    # a deferred Minor impairment still arrives: name what it becomes once the wait is over
    later = injury_impairment(severity, minutes=DATA.setting("injury", "injury_rules",
                                                             "minor_deferred_minutes"))
    out.append(f"the {where.zone.lower()} zone is unusable" if imp is None else
               f"{imp} impairment to the {where.zone.lower()} zone" if imp else
               f"no impairment for ten minutes (Minor, Shock test passed), then {later} to "
               f"the {where.zone.lower()} zone")
    if hurt.mishap_check and severity != "Minor":
        out.append(f"injury mishap: {injury_mishap(where.zone, severity)}")
    if impaled(LEVEL_CODES[level], projectile):
        out.append("the missile stays impaled: it needs Extraction")
    if hurt.bleeder:
        out.append("a Bleeder: Blood Stoppage and Blood Loss rolls follow")
    walk.stages.append(("5 Effect", tuple(step(f"{e[0].upper()}{e[1:]}", DATA.rule(EFFECT))
                                          for e in out)))
    return tuple(out)


def _recorded(record: InjuryRecord | None, where: LocationResolution, aspect: str, level: int,
              hurt: InjuryResolution, raised: int | None, projectile: bool = False, *,
              shaken: ShockResolution | None = None) -> InjuryRecord | None:
    """The record with the new injury written in (and an earlier one raised by compounding),
    with the Shock state its own Shock Roll gave (*shaken*, None when it made none)."""
    if record is None or not hurt.injury:
        return record
    if raised is not None:
        old = record.injuries[raised]
        record = replace(record, injuries=record.injuries[:raised]
                         + (replace(old, level=min(5, old.level + 1)),)
                         + record.injuries[raised + 1:])
    kind = "Projectile" if projectile and aspect == "P" else RECORD_ASPECT[aspect]
    return record.add_injury(where.outcome, kind, level, bleeder=hurt.bleeder,
                             shock=None if shaken is None else shaken.state,
                             shock_rolled=shaken is not None, side=where.side)


@dataclass(frozen=True)
class StrikeInputs:
    """What a landed shot or blow hands the injury sequence: the keywords of
    :func:`injury_sequence` it settles (``as_keywords``), and ``free_tas``, the tactical
    advantages of the reader's choice still to spend on Precision or Impact."""

    zone_die: int
    precision: int = 0
    impact_tas: int = 0
    range_modifier: int = 0
    aspect: str = "E"
    projectile: bool = False
    free_tas: int = 0
    source: str = ""

    def as_keywords(self) -> dict[str, object]:
        """The injury_sequence keywords this strike fixes."""
        return {"zone_die": self.zone_die, "precision": self.precision,
                "impact_tas": self.impact_tas, "range_modifier": self.range_modifier,
                "aspect": self.aspect, "projectile": self.projectile}


def strike_from_missile(shot: object, aspect: str = "P",
                        projectile: bool | None = None) -> StrikeInputs:
    """The injury sequence's inputs from a walked missile shot that struck someone: its Zone
    Die (the range's for a Direct hit, d10 or larger for a stray or volley strike), the
    range's impact adjustment, a Direct critical's Precision TA (Volley Precision picks the
    target, not the spot) and its TA of choice, and the bonus Impact TA of a stray or
    volley strike whose d10 showed 5 or 0. Missile 4a, 4b.

    *aspect* is the missile's (B, E, P or F: a sling stone is blunt, a thrown axe an edge);
    it sets the armour the strike meets and the size of an Impact TA (Injury 2).
    *projectile* says whether it is an arrow or bolt, a Point aspect of its own (Healing
    Aspect): by default a Point strike is one; only a Point strike can be."""
    from .missile import MissileShot  # the missile walker's result
    if not isinstance(shot, MissileShot):
        raise RulesError(f"shot must be a walked missile shot (missile_shot), got {shown(shot)}")
    if shot.needs or not shot.value or shot.zone_die is None:
        raise RulesError("shot must have struck someone (the shot walked to a strike), got "
                         f"{shot.outcome!r}")
    if aspect not in ASPECTS:
        raise RulesError(f"aspect must be one of B (blunt), E (edge), P (point), F "
                         f"(fire/frost), got {shown(aspect)}")
    if projectile is None:
        projectile = aspect == "P"
    require_bool("projectile", projectile)
    if projectile and aspect != "P":
        raise RulesError(f"projectile must be false for a {aspect} strike: an arrow or bolt "
                         "strikes with its point (P)")
    stray = shot.strike is not None
    direct = not stray and shot.attack is not None
    return StrikeInputs(
        zone_die=shot.zone_die,
        precision=shot.attack.precision if direct else 0,
        impact_tas=1 if stray and shot.strike.impact_ta else 0,
        range_modifier=shot.range.impact, aspect=aspect, projectile=projectile,
        free_tas=shot.attack.tactical_advantages if direct else 0,
        source=f"{shot.range.attack_type} shot: {shot.outcome}")


def strike_from_melee(result: object, weapon: object, spent: object = None) -> StrikeInputs:
    """The injury sequence's inputs from a melee exchange whose blow landed: the striker's
    *weapon* gives the Zone Die and aspect; the tactical advantages *spent*
    (:func:`spend_advantages`) add Precision Zone Dice and Impact TAs; any left unspent stay
    the reader's to choose. Melee 4 Melee Test Results, Injury 1-2."""
    from .melee import AdvantagesSpent, MeleeResolution, Weapon, _weapon_arg
    if not isinstance(result, MeleeResolution):
        raise RulesError(f"result must be a melee exchange result, got {shown(result)}")
    if result.outcome not in ("strike", "counterstrike"):
        raise RulesError(f"result must be a blow that landed (a strike or counterstrike), got "
                         f"{result.outcome!r}")
    if not isinstance(weapon, Weapon):
        raise RulesError(f"weapon must be the striker's Weapon, got {shown(weapon)}")
    _weapon_arg("weapon", weapon)
    if spent is not None and not isinstance(spent, AdvantagesSpent):
        raise RulesError(f"spent must be the advantages spent (spend_advantages) or None, "
                         f"got {shown(spent)}")
    used = 0 if spent is None else spent.value
    return StrikeInputs(
        zone_die=weapon.zone_die, aspect=weapon.aspect,
        precision=0 if spent is None else spent.precision_dice,
        impact_tas=0 if spent is None else spent.impact_tas,
        free_tas=max(0, result.tactical_advantages - used),
        source=f"{result.striker or 'the striker'}'s {weapon.name}: {result.outcome}, "
               f"{result.stars} star(s)")


def record_injury(record: InjuryRecord, walk: InjurySequence) -> InjuryRecord:
    """*record* with the injury a walked strike inflicted written in (Injury 3, Healing 5):
    its location, aspect (an arrow's or bolt's point as Projectile), level (after any
    compounding the walk made) and bleeder. A walk made with ``record=`` already holds its
    record (``walk.record``, with an earlier injury raised by compounding): use that one."""
    record = _require_record(record)
    if not isinstance(walk, InjurySequence):
        raise RulesError(f"walk must be a walked strike (injury_sequence), got {shown(walk)}")
    if walk.needs:
        raise RulesError(f"walk must be finished: roll the {str(walk.needs)[:80]} first")
    if not isinstance(walk.injury, InjuryResolution) or not walk.injury.injury:
        raise RulesError(f"walk must have inflicted an injury, got {shown(walk.outcome)}")
    _require_walk_parts(walk)
    return _recorded(record, walk.location, walk.impact.aspect, walk.value, walk.injury, None,
                     walk.projectile,
                     shaken=walk.shock if isinstance(walk.shock, ShockResolution) else None)


def _require_walk_parts(walk: InjurySequence) -> None:
    """The parts of a walk :func:`record_injury` writes, held to what a walk can hold: a walk
    edited by hand is refused naming ``walk`` and the part."""
    if not isinstance(walk.location, LocationResolution) or \
            walk.location.outcome not in location_names():
        raise RulesError(f"walk location must be a located strike on the body, got "
                         f"{shown(getattr(walk.location, 'outcome', walk.location))}")
    if not isinstance(walk.impact, ImpactResolution) or walk.impact.aspect not in ASPECTS:
        raise RulesError(f"walk impact must name an aspect ({', '.join(ASPECTS)}), got "
                         f"{shown(getattr(walk.impact, 'aspect', walk.impact))}")
    require_int("walk value", walk.value, minimum=1, maximum=5)
    require_bool("walk injury bleeder", walk.injury.bleeder)
    require_bool("walk projectile", walk.projectile)
