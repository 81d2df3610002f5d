"""Running a fight: every fighter's injury record and Shock state, the turn order, and the
strikes, Shock checks and days of healing that change them.

A fight reads the roster's rows (:data:`.roster.ROSTER`: skills, weapons, armour by zone,
Healing Base) and keeps, per fighter, what the rows do not: the injury record
(:class:`.record.InjuryRecord`) and the Shock state of Injury 4. A shot or a melee blow is
resolved in one call from the rows of the two fighters (:func:`missile_attack`,
:func:`melee_attack`): the test, then the injury sequence on whoever is struck, with the Zone
Die, precision and impact the test earned and the armour of the zone struck. :func:`apply_strike`
writes its result into the struck fighter's record and Shock state. Every state is frozen and
saves to a file checked field by field (:func:`fight_format`).
"""

from __future__ import annotations

import functools
import json
import re
from fractions import Fraction
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, fields, is_dataclass, replace

from ... import saved
from ...roster import Fighter, Roster
from ...dice import DiceSource
from ...errors import RulesError, require_bool, require_choice, require_int, shown
from ...trace import Resolution, Step, step
from ._system import DATA
from .checks import effective_eml, success_level
from .injury import (ShockRerollResolution, combine_shock_states, grim_wound_shock,
                     impaired_test, location_row, location_shock, shock_reroll, zone_count)
from .healing import (bleeding_period, coma_course, coma_healing_rate, extended_shock_course,
                      treatment_roll, untreated)
from .melee import (MeleeDeclaration, MeleeResolution, Weapon, declare_melee, melee_exchange,
                    melee_outcome_distribution, setups_unused, spend_advantages)
from .missile import (LAUNCHERS, MissileShot, missile_outcome_distribution, missile_range,
                      MISSILE_SKILLS, missile_shot, missile_skill)
from .roster import ROSTER
from .record import (SIDES, InjuryRecord, RecordedInjury, Recovery, _from_body, record_format,
                     recover, removal)
from .sequence import (InjurySequence, injury_sequence, strike_from_melee,
                       strike_from_missile)
from .terms import DEFENCES, MAX_ZONE_DICE, SHOCK_STATES


FORMAT = "rulebook/pc-fight"
VERSION = 1
MAX_FIGHTERS = 60
MAX_ROUND = 10_000
ZONES = ("Head", "Arms", "Torso", "Legs")
ADVANTAGES = ("precision", "impact")
TARGET_MOVES = ("still", "moving", "evading")
UNAWARE = ("INC", "UNC")  # Injury 4: both must Ignore melee attacks
STILL_STATES = ("INC", "UNC", "KIA")  # a fallen target does not move
# The row of the IMPAIRED TESTS table (Injury 5) each melee test reads: a Block, a
# Counterstrike and an attack are Melee tests, a Dodge its own; which zones they need is there.
IMPAIRED_AS = {"Block": "Melee", "Counterstrike": "Melee", "Dodge": "Dodge", "Attack": "Melee"}
# Which Grievous arm injuries stop a melee test (assumption grievous_arm_defence): only one on
# the arm the test uses, by its recorded side, or any at all.
GRIEVOUS_ARM = ("in use", "any")


def armour_key(zone: str, aspect: str) -> str:
    """The roster column of the armour value of *zone* against *aspect* (B, E, P, F)."""
    return f"av_{zone.lower()}_{aspect.lower()}"


def rigid_key(zone: str) -> str:
    """The roster column saying whether the armour of *zone* is rigid (Injury 3.2)."""
    return f"rigid_{zone.lower()}"


def die_sides(menu: object) -> int:
    """A die as the roster's menus show it ("d6") → its number of sides."""
    m = re.fullmatch(r"d(\d+)", menu) if isinstance(menu, str) else None
    if m is None:
        raise RulesError(f"a die must be written like d6, got {shown(menu)}")
    return int(m.group(1))


# --- the state -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Combatant:
    """One fighter in the fight: the injury record and the Shock state (Injury 4), with the
    Extended Shock HR and coma a failed Shock Reroll brings (Healing 2-3)."""

    name: str
    record: InjuryRecord
    shock: str | None = None
    extended_hr: int | None = None
    coma_hr: int | None = None
    staunch_bonus: int = 0  # a failed Staunch's +10 to the next try (Healing 1)

    @property
    def dead(self) -> bool:
        return self.shock == "KIA" or self.record.dead

    @property
    def helpless(self) -> bool:
        """Unconscious: unaware and helpless, a CS Ignore result when attacked in melee
        (Injury 4 Shock states)."""
        return not self.dead and self.shock == "UNC"

    @property
    def status(self) -> str:
        """The Shock state in words, e.g. "Incapacitated, Extended Shock HR5"."""
        if self.dead:
            return "dead"
        words = {None: "fighting", "STN": "Stunned", "INC": "Incapacitated",
                 "UNC": "Unconscious"}[self.shock]
        more = [f"Extended Shock HR{self.extended_hr}"] if self.extended_hr else []
        more += [f"coma HR{self.coma_hr}"] if self.coma_hr else []
        return ", ".join([words, *more])


@dataclass(frozen=True)
class Fight:
    """The fight: its combatants in turn order, who acts now and the round."""

    combatants: tuple[Combatant, ...] = ()
    acting: int = 0
    round: int = 1

    @property
    def order(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.combatants)

    def combatant(self, name: str) -> Combatant:
        for c in self.combatants:
            if c.name == name:
                return c
        raise RulesError(f"no fighter called {shown(name)} in the fight (it has "
                         f"{', '.join(self.order) or 'nobody'})")

    @property
    def actor(self) -> Combatant | None:
        return self.combatants[self.acting] if self.combatants else None

    def with_combatant(self, new: Combatant) -> Fight:
        self.combatant(new.name)
        return replace(self, combatants=tuple(new if c.name == new.name else c
                                              for c in self.combatants))

    def rename(self, old: str, new: str) -> Fight:
        """The fight after the roster's *old* is renamed *new*: their injury record, Shock
        state, place in the turn order and turn go on under the new name (the record is the
        character's, Injury 4; only the name on it changes). A fighter not in the fight
        changes nothing; a name another fighter holds is refused."""
        if not isinstance(old, str) or not old.strip():
            raise RulesError(f"old must be a fighter's name, got {shown(old)}")
        if old == new or old not in self.order:
            return self
        if new in self.order:
            raise RulesError(f"Name {shown(new)} is in the fight already: pick another")
        c = self.combatant(old)
        rec = c.record.with_character(new, c.record.healing_base, c.record.endurance_eml)
        return replace(self, combatants=tuple(
            replace(c, name=rec.name, record=rec) if c.name == old else c
            for c in self.combatants))

    def to_json(self) -> str:
        return saved_json(self)

    @classmethod
    def from_json(cls, text: str) -> Fight:
        """Read a fight file; anything foreign or corrupt raises RulesError naming the field."""
        return _fight_from_body(saved.read(fight_format(), text))


def _fresh(row: Fighter) -> Combatant:
    return Combatant(row.name, InjuryRecord(name=row.name, healing_base=row["healing_base"],
                                            endurance_eml=row["endurance"]))


def fight_for(roster: Roster, fight: Fight | None = None) -> Fight:
    """The fight for *roster*: a fighter already in *fight* keeps its record and Shock state
    (with its Healing Base and Endurance as the roster now gives them), a new one starts
    unhurt, one no longer in the roster leaves. The turn order is by Initiative, highest
    first, roster order among equals: a higher Initiative Rank acts first (Volley Missile
    Attack example: IR76 shoots before IR60; assumption initiative_order). The acting
    fighter stays the same if still there."""
    if not isinstance(roster, Roster) or roster.format != ROSTER:
        raise RulesError(f"roster must be a roster of percentile fighters, got {shown(roster)}")
    fight = Fight() if fight is None else _require_fight(fight)
    kept = {c.name: c for c in fight.combatants}
    rows = sorted(roster.fighters, key=lambda r: -r["initiative"])
    combatants = []
    for row in rows:
        old = kept.get(row.name)
        if old is None:
            combatants.append(_fresh(row))
            continue
        rec = old.record
        if (rec.healing_base, rec.endurance_eml) != (row["healing_base"], row["endurance"]):
            rec = rec.with_character(row.name, row["healing_base"], row["endurance"])
        combatants.append(replace(old, record=rec))
    actor = fight.actor.name if fight.actor else None
    names = [c.name for c in combatants]
    acting = names.index(actor) if actor in names else 0
    return Fight(tuple(combatants), acting, fight.round)


def next_turn(fight: Fight) -> Fight:
    """The next fighter in the turn order acts; past the last, a new round begins with the
    first. The dead are passed over (Injury 4, Killed in Action)."""
    fight = _require_fight(fight)
    if not fight.combatants or all(c.dead for c in fight.combatants):
        raise RulesError("nobody in the fight can act: add fighters to the roster")
    acting, rnd = fight.acting, fight.round
    for _ in range(len(fight.combatants)):
        acting += 1
        if acting >= len(fight.combatants):
            acting, rnd = 0, min(rnd + 1, MAX_ROUND)
        if not fight.combatants[acting].dead:
            break
    return replace(fight, acting=acting, round=rnd)


# --- strikes ---------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class Strike(Resolution):
    """A missile shot or a melee exchange with the injury it causes: value = the injury
    level (0: none), outcome a summary. ``struck`` names who takes the injury (None: nobody)
    and ``before`` is that fighter's record the walk started from; :func:`apply_strike`
    writes ``walk`` into the fight."""

    attacker: str
    defender: str
    struck: str | None
    shot: MissileShot | None = None
    declaration: MeleeDeclaration | None = None
    exchange: MeleeResolution | None = None
    walk: InjurySequence | None = None
    before: InjuryRecord | None = None
    rolled: tuple[tuple[str, int], ...] = ()


_DIE = re.compile(r"d(\d+)")


def _walk_on(call: Callable[[Sequence[int]], Resolution], source: DiceSource,
             rolled: list[tuple[str, int]], what: str) -> Resolution:
    """Run *call* with the dice drawn so far, drawing the die it ``needs`` next from *source*
    until it needs none: each step of a sequence takes its dice only when it comes to them,
    so one source feeds the test and then the injury it leads to."""
    drawn: list[int] = []
    for _ in range(40):
        result = call(drawn)
        needs = result.needs  # type: ignore[attr-defined]
        wanted = needs[0] if isinstance(needs, tuple) and needs else needs
        if not wanted:
            rolled += list(result.rolled)  # type: ignore[attr-defined]
            return result
        sides = int(_DIE.findall(wanted)[-1])
        drawn.append(source.d(sides, f"{what}: {wanted}"))
    raise RulesError(f"the {what} asked for more than 40 dice")  # pragma: no cover


def fighter_armour(row: Fighter, zone: str, aspect: str) -> tuple[int, bool]:
    """*row*'s armour on *zone* (its name, e.g. "Torso") against *aspect*, and whether it is
    rigid: the armour a strike landing there meets (Injury 2, 3.2)."""
    return row[armour_key(zone, aspect)], bool(row[rigid_key(zone)])


def _injure(fight: Fight, striker: Fighter, struck: Fighter, source: DiceSource,
            rolled: list[tuple[str, int]], *, zone_die: int, aim_zone: int, precision: int,
            zone_pick: int, impact_die: int, impact_modifier: int, aspect: str,
            strength_modifier: int, impact_tas: int, range_modifier: int = 0,
            projectile: bool = False, spot: tuple[int, int] | None = None) -> InjurySequence:
    """The injury sequence on *struck* from its record and Shock state, with the armour of
    the zone the Location Die finds (Injury 2: effective impact = strike impact - AV there).
    A *spot* (zone number, location number) picked on a helpless target replaces both dice
    (Injury 1, Helpless targets)."""
    target = fight.combatant(struck.name)
    zone: list[str] = []

    def call(drawn: Sequence[int]) -> InjurySequence:
        av, rigid = fighter_armour(struck, zone[0], aspect) if zone else (0, False)
        walk = injury_sequence(
            zone_die=zone_die, aim_zone=aim_zone, precision=precision, zone_pick=zone_pick,
            impact_die=impact_die, impact_modifier=impact_modifier, aspect=aspect,
            armour=av, rigid_armour=rigid, strength_modifier=strength_modifier,
            impact_tas=impact_tas, range_modifier=range_modifier,
            shock_eml=struck["shock"], strength_eml=struck["strength_eml"],
            current_state=target.shock, projectile=projectile, record=target.record,
            helpless=spot, dice=DiceSource.typed(drawn))
        found = walk.location.zone if walk.location is not None else None
        if found and not zone:
            zone.append(found)
            return call(drawn)  # the same dice again, now with that zone's armour
        return walk

    return _walk_on(call, source, rolled, "injury")  # type: ignore[return-value]


def _fighter(name: str, row: object) -> Fighter:
    """*row* as the fight can read it: a fighter of the percentile roster with every field
    allowed (a row built by hand is held to :data:`.roster.ROSTER`); a refusal names *name*."""
    wrong = RulesError(f"{name} must be a fighter of the percentile roster, got {shown(row)}")
    if not isinstance(row, Fighter) or not isinstance(row.name, str) \
            or not isinstance(row.values, tuple):
        raise wrong
    if not all(isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], str)
               for v in row.values):
        raise wrong
    values = dict(row.values)
    if len(values) != len(row.values) or set(values) != {c.key for c in ROSTER.columns}:
        raise RulesError(f"{name} must carry the fields of the percentile roster")
    for column in ROSTER.columns:
        try:
            column.check(values[column.key], row.name)
        except RulesError as exc:
            raise RulesError(f"{name}: {exc}") from None
    return row


def _data(value: object, depth: int = 0) -> object:
    """A state as its file holds it: each record a dict of its fields, each tuple a list.
    Deeper than any saved field nests, a value is left as it is for the check to refuse."""
    if depth > 8:
        return value
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _data(getattr(value, f.name), depth + 1) for f in fields(value)}
    if isinstance(value, (tuple, list)):
        return [_data(item, depth + 1) for item in value]
    return value


def _require_fight(fight: object) -> Fight:
    """*fight* held to its file's declaration (a state edited by hand is refused naming the
    field, as a loaded file would be)."""
    if not isinstance(fight, Fight):
        raise RulesError(f"fight must be a Fight, got {shown(fight)}")
    data = _data(fight)
    saved.check_field(fight_format().body, data, "fight")
    return _fight_from_body(data)  # type: ignore[arg-type]


def _source(dice: object) -> DiceSource:
    if not isinstance(dice, DiceSource):
        raise RulesError(f"dice must be a DiceSource (seeded or typed dice), got {shown(dice)}")
    return dice


def _aims(aim_zone: object, zone_pick: object, advantage: object) -> None:
    """Check the choices a strike's injury uses, before any die is rolled."""
    require_int("aim_zone", aim_zone, minimum=1, maximum=zone_count())
    require_int("zone_pick", zone_pick, minimum=0, maximum=MAX_ZONE_DICE - 1)
    require_choice("advantage", advantage, ADVANTAGES)


def _able(fight: Fight, row: Fighter, who: str) -> Combatant:
    """The combatant who acts: alive, and neither Incapacitated nor Unconscious (Injury 4: no
    independent action, no action at all)."""
    c = fight.combatant(row.name)
    why = _cannot_act(c)
    if why is not None:
        raise RulesError(f"{who} {row.name} {why}")
    return c


def _cannot_act(c: Combatant) -> str | None:
    """Why *c* cannot act ("is dead", "is Unconscious and cannot act"), or None (Injury 4
    Shock states: an Incapacitated fighter takes no independent action, an Unconscious one
    none)."""
    if c.dead:
        return "is dead"
    if c.shock in UNAWARE:
        return f"is {c.status.split(',')[0]} and cannot act"
    return None


def _alive(fight: Fight, row: Fighter, who: str) -> Combatant:
    c = fight.combatant(row.name)
    if c.dead:
        raise RulesError(f"{who} {row.name} is dead")
    return c


class _Aim:
    """A shot from one row at another, as far as the dice: the skill the weapon tests, how
    the target counts (a fallen one is Still) and who else is near."""

    def __init__(self, fight: Fight, shooter: object, target: object, range_ft: object,
                 target_moves: object, near_target: object) -> None:
        self.shooter, self.target = _fighter("shooter", shooter), _fighter("target", target)
        _able(fight, self.shooter, "the shooter")
        self.victim = _alive(fight, self.target, "the target")
        require_choice("target_moves", target_moves, TARGET_MOVES)
        if range_ft is None:
            raise RulesError("range_ft is needed: the distance to the target in feet")
        require_int("near_target", near_target, minimum=0, maximum=MAX_FIGHTERS)
        if self.shooter.name == self.target.name:
            raise RulesError(f"the target must be another fighter than the shooter, got "
                             f"{shown(self.target.name)} for both")
        self.kind = kind = self.shooter["missile"]
        thrown = LAUNCHERS[kind][0]
        self.skill = MISSILE_SKILLS["thrown" if thrown else kind]
        self.ml = missile_skill("thrown" if thrown else kind, archery=self.shooter["archery"],
                                slings=self.shooter["slings"],
                                throwing=self.shooter["throwing"])
        self.moves = "still" if self.victim.shock in STILL_STATES else target_moves
        # Injury 5: a target with a zone a Grievous injury made unusable counts as Still
        # against missiles, whichever zone (assumption grievous_missile_still).
        self.grievous = next(_grievous(self.victim.record), None) is not None
        # Injury 5: a missile test needing a zone so lost is an automatic CF, no roll.
        lost = _unusable(fight.combatant(self.shooter.name).record, self.skill)
        self.lost = None if lost is None else lost[0]
        self.range_ft = range_ft
        # A Volley's area counts the target among those in it; a Direct stray only the others.
        base = self.shooter["base_range"]
        self.volley = volley = missile_range(range_ft, base).volley  # type: ignore[arg-type]
        self.count = near_target + 1 if volley else near_target  # type: ignore[operator]

    def shoot(self, drawn: Sequence[int]) -> MissileShot:
        base = self.shooter["base_range"]
        return missile_shot(self.ml, self.range_ft, base,  # type: ignore[arg-type]
                            weapon=self.kind, target=self.moves, target_count=self.count,
                            dodge_index=self.target["dodge_index"],
                            target_grievous=self.grievous,
                            shooter_unusable_zone=self.lost, dice=DiceSource.typed(drawn))

    def first_step(self) -> Step:
        return step(f"{self.shooter.name} shoots a {self.kind} at {self.target.name}: "
                    f"{self.skill} ML", DATA.rule("Missile 3 Missile skill"))


@dataclass(frozen=True, kw_only=True)
class StrikeOdds(Resolution):
    """The odds of a shot's or an exchange's test before the roll: value = the attacker's
    test EML; ``odds`` the exact chance of each (outcome, victory stars)."""

    odds: dict[tuple[str, int], Fraction]


def missile_odds(fight: Fight, shooter: Fighter, target: Fighter, *,
                 range_ft: int | None = None,
                 target_moves: str = "still", near_target: int = 0) -> StrikeOdds:
    """Before a shot from *shooter* at *target* (see :func:`missile_attack`): the test EML
    their rows give, and the exact odds of each result of the test (Missile 3-4)."""
    aim = _Aim(_require_fight(fight), shooter, target, range_ft, target_moves, near_target)
    setup = aim.shoot(())
    if aim.lost is not None:
        return StrikeOdds(value=setup.eml.value, outcome=(
            f"{aim.shooter.name}'s shot is an automatic CF, no roll (the {aim.lost.lower()} "
            f"zone is unusable): a mishap, no attack"),
            trace=(aim.first_step(), *setup.trace), odds={("mishap", 0): Fraction(1)})
    odds = missile_outcome_distribution(setup.eml.value, volley=setup.range.volley)
    eml = (f"spoiled at EML {setup.eml.value}" if setup.eml.spoiled
           else f"test EML {setup.eml.test_eml}")
    return StrikeOdds(value=setup.eml.value, outcome=f"{setup.range.attack_type} shot, {eml}",
                      trace=(aim.first_step(), *setup.trace), odds=odds)


def _bystanders(fight: Fight, aim: _Aim, bystanders: object) -> tuple[Fighter, ...]:
    """The roster fighters among those near the target, in the GM's numbering: each alive,
    none twice, neither the target nor the shooter, no more than *near_target* counts."""
    if not isinstance(bystanders, (tuple, list)):
        raise RulesError(f"bystanders must list roster fighters, got {shown(bystanders)}")
    rows = tuple(_fighter("bystanders", row) for row in bystanders)
    names = [row.name for row in rows]
    for row in rows:
        if row.name in (aim.shooter.name, aim.target.name):
            raise RulesError(f"bystanders: {row.name} is the shooter or the target, not "
                             "someone near the target")
        if names.count(row.name) > 1:
            raise RulesError(f"bystanders: {row.name} is named twice")
        _alive(fight, row, "the bystander")
    others = aim.count - (1 if aim.volley else 0)
    if len(rows) > others:
        raise RulesError(f"bystanders names {len(rows)} fighters but near_target counts "
                         f"{others} others near the target")
    return rows


def _struck_row(shot: MissileShot, aim: _Aim, near: tuple[Fighter, ...]) -> Fighter | None:
    """Whom the shot strikes among the roster: the target (a Direct hit, or number 1 of a
    Volley's area), or the bystander its number names (a Direct shot's others near are
    numbered from 1, a Volley area's from 2); None for nobody, someone off the roster, or
    whoever stands in the neighbouring area a deviating Volley lands in."""
    if shot.value == 1 and not shot.range.volley and shot.strike is None:
        return aim.target
    if not shot.value or shot.strike is None:
        return None
    if shot.attack is not None and shot.attack.outcome == "deviation":
        return None  # a neighbouring area's people: not the target's, nor those near it
    number = shot.strike.target - (1 if shot.range.volley else 0)
    if number == 0:
        return aim.target
    return near[number - 1] if number <= len(near) else None


def missile_attack(fight: Fight, shooter: Fighter, target: Fighter, *,
                   range_ft: int | None = None,
                   target_moves: str = "still", aim_zone: int = 1,
                   advantage: str = "precision", zone_pick: int = 0, near_target: int = 0,
                   bystanders: Sequence[Fighter] = (),
                   dice: DiceSource | None = None) -> Strike:
    """A shot from *shooter* at *target*, from their rows (Missile 2-4, then Injury 1-5).

    The shooter's missile weapon sets the skill (Missile 3 Missile Skill), Base Range, impact
    die, modifier and aspect; the range sets the Zone Die and the impact modifier. A strike
    on a Still target carries its free Precision TA, and a CS's tactical advantage goes to
    *advantage* (one more Zone Die or the weapon's Impact TA bonus); *zone_pick* chooses
    which Zone Die counts (0 the first). The injury then takes the armour of the zone struck
    against the missile's aspect; only an arrow or bolt with a Point is a projectile.

    A missed Direct shot may strike one of the *near_target* others within five feet (Direct
    Missile Results); a Volley's area holds the target, number 1, and *near_target* others.
    *bystanders* are the roster fighters among those others, numbered in that order (from 1
    for a Direct shot's, from 2 in a Volley's area): the one a stray or potential strike
    finds takes the injury with their own armour, ready to write into their record. A stray
    strike is not aimed: its d10 (or larger) Zone Die is read from ZN1. A number beyond them
    is someone off the roster: that strike is named, not walked. A fallen target (INC, UNC)
    counts as Still whatever *target_moves* says (Injury 4: it falls prone and cannot act),
    and so does one with a Grievous injury on the record (Injury 5, Tests with Grievous
    Injury; any zone, assumption grievous_missile_still): no moving or evading penalty, and
    a strike carries the Still target's free Precision TA. A shooter with a Grievous injury
    (Archery, Slings and Throwing need every zone, IMPAIRED TESTS) rolls no d100: the shot is
    an automatic CF with the zone's automatic mishap, and no attack takes place.
    The Strength impact counts for thrown missiles only (assumption strength_impact_launchers).
    """
    fight, dice = _require_fight(fight), _source(dice)
    _aims(aim_zone, zone_pick, advantage)
    aim = _Aim(fight, shooter, target, range_ft, target_moves, near_target)
    near = _bystanders(fight, aim, bystanders)
    shooter, target, victim, kind = aim.shooter, aim.target, aim.victim, aim.kind
    thrown, launcher = LAUNCHERS[kind]
    rolled: list[tuple[str, int]] = []
    shot: MissileShot = _walk_on(aim.shoot, dice, rolled, "shot")  # type: ignore[assignment]
    trace: list[Step] = [aim.first_step(), *shot.trace]
    struck = _struck_row(shot, aim, near)
    if struck is None:
        note = (f"; number {shot.value} is no roster fighter named near {target.name}: "
                "walk that injury apart" if shot.value else "")
        dice.finish("shot")
        return Strike(value=0, outcome=shot.outcome + note, trace=tuple(trace),
                      attacker=shooter.name, defender=target.name, struck=None, shot=shot,
                      rolled=tuple(rolled))
    aspect = shooter["missile_aspect"]
    handed = strike_from_missile(shot, aspect, projectile=aspect == "P" and thrown is None
                                 and launcher in ("bow", "crossbow"))
    free = handed.free_tas
    if free:
        trace.append(step(f"{free} tactical advantage(s) spent on {advantage}",
                          DATA.rule("Direct Missile Attack")))
    stray = struck.name != target.name
    if stray:
        trace.append(step(f"The strike finds {struck.name}, number {shot.value} of the area"
                          if shot.range.volley else
                          f"The stray strike finds {struck.name}, number {shot.value} of "
                          f"those near {target.name}", DATA.rule(
                              "Volley Missile Attack" if shot.range.volley
                              else "Direct Missile Results — stray strike")))
    walk = _injure(fight, shooter, struck, dice, rolled, zone_die=handed.zone_die,
                   aim_zone=1 if stray else aim_zone, zone_pick=0 if stray else zone_pick,
                   precision=handed.precision + (free if advantage == "precision" else 0),
                   impact_tas=handed.impact_tas + (free if advantage == "impact" else 0),
                   impact_die=die_sides(shooter["missile_die"]),
                   impact_modifier=shooter["missile_mod"], aspect=handed.aspect,
                   strength_modifier=shooter["str_impact"] if thrown else 0,
                   range_modifier=handed.range_modifier, projectile=handed.projectile)
    dice.finish("shot and its injury")
    trace += walk.trace
    return Strike(value=walk.value, outcome=f"{struck.name}: {walk.outcome}",
                  trace=tuple(trace), attacker=shooter.name, defender=target.name,
                  struck=struck.name, shot=shot, walk=walk,
                  before=fight.combatant(struck.name).record if stray else victim.record,
                  rolled=tuple(rolled))


def weapon_of(row: Fighter) -> Weapon:
    """The readied melee weapon a roster row describes."""
    return Weapon(row["weapon"], reach=row["reach"], thrust=bool(row["thrust"]),
                  heft=row["heft"], grip=row["grip"], zone_die=die_sides(row["zone_die"]),
                  aspect=row["aspect"])


@dataclass(frozen=True)
class _Declared:
    """A melee exchange as far as the dice: the declaration, the defence, the explanation,
    whether the defender is helpless, and the zone each side's test needs that a Grievous
    injury made unusable (None: the test is rolled)."""

    declared: MeleeDeclaration
    chosen: str
    trace: list[Step]
    helpless: bool
    zone: str | None
    attack_zone: str | None


def _declare(fight: Fight, attacker: Fighter, defender: Fighter, defence: object,
             aim_zone: int, helpless: object = False, grievous_arm: object = "in use"
             ) -> _Declared:
    """Melee 2 from the rows: the defence declared (an unaware defender Ignores), both test
    EMLs, whether the defender is helpless (Unconscious, or named so by the GM), and the
    zones Grievous injuries left unusable that the attack and the defence need
    (:func:`_unusable`). A test that is not rolled is not listed with its EML: the
    explanation names the injury that makes it an automatic CF instead."""
    require_bool("helpless", helpless)
    require_choice("grievous_arm", grievous_arm, GRIEVOUS_ARM)
    striker = _able(fight, attacker, "the attacker")
    target = _alive(fight, defender, "the defender")
    if attacker.name == defender.name:
        raise RulesError(f"the defender must be another fighter than the attacker, got "
                         f"{shown(defender.name)} for both")
    chosen = defender["defence"] if defence is None else defence
    require_choice("defence", chosen, DEFENCES)
    trace: list[Step] = []
    helpless = bool(helpless) or target.helpless
    forced = _forced_ignore(target, helpless)
    if forced and chosen != "Ignore":
        trace.append(step(f"{defender.name} is {forced}, so must Ignore the attack",
                          DATA.rule("Injury 4 Shock — states")))
        chosen = "Ignore"
    declared = declare_melee(
        attacker["melee"], weapon_of(attacker), chosen,
        defender_ml=defender["dodge"] if chosen == "Dodge" else defender["melee"],
        defender_weapon=None if chosen == "Ignore" else weapon_of(defender),
        aim_zone=aim_zone, strength=attacker["strength"],
        defender_strength=defender["strength"])
    lost = None if helpless or chosen == "Ignore" else _unusable(
        target.record, chosen, _arms_in_use(defender, grievous_arm))
    a_lost = _attack_lost(striker, attacker, grievous_arm)
    steps = list(declared.trace)
    for who, name, what, held in (("Attacker", attacker.name, "attack", a_lost),
                                  ("Defender", defender.name, chosen, lost)):
        if held is not None:
            steps = _not_rolled(steps, who.lower(), step(
                f"{who}'s test: not rolled, the {what} is an automatic CF: {name}'s "
                f"{held[1].code} {held[1].where} left the {held[0].lower()} zone unusable",
                DATA.rule("Injury 5 Tests with Grievous Injury")))
    return _Declared(declared, chosen, trace + steps, helpless,
                     None if lost is None else lost[0], None if a_lost is None else a_lost[0])


def _not_rolled(steps: list[Step], side: str, instead: Step) -> list[Step]:
    """*steps* with the EML steps of a test that is not rolled (those :func:`declare_melee`
    tags with *side*, "attacker" or "defender") replaced, where the first stood, by the one
    step that says why (Injury 5)."""
    ours = [dict(s.values).get("test") == side for s in steps]
    kept = [s for s, mine in zip(steps, ours) if not mine]
    at = ours.index(True) if True in ours else len(steps)
    return kept[:at] + [instead] + kept[at:]


def _unusable(record: InjuryRecord, test: str, arms: tuple[str, ...] = SIDES
              ) -> tuple[str, RecordedInjury] | None:
    """The first Grievous injury on *record* whose zone a *test* needs (a melee attack,
    Block, Dodge or Counterstrike, or a test of the IMPAIRED TESTS table by name, such as
    Archery), with that zone, or None (Injury 5, Tests with
    Grievous Injury: such a test is an automatic CF, no roll). The IMPAIRED TESTS table
    says which zones a test needs: a Melee test every one, a Dodge all but the arms. An arm
    injury stops only that arm's actions (IMPAIRED ACTIONS AND MOVEMENT, Example 1): it
    counts when its recorded side is one of *arms* (by default both: a missile test needs
    both hands, assumption grievous_arm_defence), or when the record has no side for it."""
    return next(((zone, inj) for zone, inj in _grievous(record)
                 if impaired_test(IMPAIRED_AS.get(test, test), zone)
                 and (zone != "Arms" or inj.side is None or inj.side in arms)), None)


def _arms_in_use(row: Fighter, grievous_arm: object) -> tuple[str, ...]:
    """The arms *row*'s melee attack, Block or Counterstrike uses (assumption
    grievous_arm_defence): the weapon arm, both for a two-handed grip; both when
    *grievous_arm* is "any" (every Grievous arm injury counts)."""
    if grievous_arm == "any" or row["grip"] == "two-handed":
        return SIDES
    return (row["weapon_arm"],)


def _attack_lost(striker: Combatant, row: Fighter, grievous_arm: object
                 ) -> tuple[str, RecordedInjury] | None:
    """The Grievous injury, with its zone, that makes *striker*'s melee attack an automatic
    CF with no roll (Injury 5, Tests with Grievous Injury: a Melee test needs every zone, of
    the arms the one in use, :func:`_arms_in_use`), or None."""
    return _unusable(striker.record, "Attack", _arms_in_use(row, grievous_arm))


def _lost_part(zone: str, inj: RecordedInjury) -> str:
    """What a Grievous injury left unusable, in a reader's words: "right arm" when the
    record says which arm, else the zone ("arms zone", "legs zone")."""
    return f"{inj.side} arm" if zone == "Arms" and inj.side else f"{zone.lower()} zone"


def _grievous(record: InjuryRecord) -> Iterator[tuple[str, RecordedInjury]]:
    """Each injury on *record* that leaves its zone unusable (Injury 5: Grievous, the
    location's actions prohibited), with that zone."""
    for inj in record.injuries:
        if inj.level and inj.impairment is None:   # None: Grievous, unusable
            yield location_row(inj.location)["zone"], inj


def _forced_ignore(target: Combatant, helpless: bool) -> str | None:
    """Why a defender must Ignore a melee attack (Injury 4 Shock states: Incapacitated is
    unaware, Unconscious helpless; or named helpless by the GM), or None when they may defend."""
    if target.shock in UNAWARE:
        return f"{target.status}: unaware"
    return "helpless: no defence" if helpless else None


def defence_untested(fight: Fight, defender: Fighter, *, defence: str | None = None,
                     helpless: bool = False, grievous_arm: str = "in use") -> str | None:
    """Why *defender* makes no Melee or Dodge test in a melee exchange, in a reader's words,
    or None when they make one: an Incapacitated or Unconscious defender, or one named
    *helpless*, must Ignore (Injury 4 Shock states), and a defender who declares Ignore
    (*defence*, by default their row's) makes no roll (Melee Defence Result — Ignore), nor
    does one whose defence needs a zone a Grievous injury made unusable (an automatic CF,
    Injury 5 Tests with Grievous Injury; *grievous_arm* as for :func:`melee_attack`). Their
    Setup advantages then have no test to lift (assumption setup_without_test), as
    :func:`melee_attack` and :func:`melee_odds` explain."""
    fight, defender = _require_fight(fight), _fighter("defender", defender)
    require_bool("helpless", helpless)
    require_choice("grievous_arm", grievous_arm, GRIEVOUS_ARM)
    chosen = defender["defence"] if defence is None else defence
    require_choice("defence", chosen, DEFENCES)
    target = fight.combatant(defender.name)
    if target.dead:
        return f"{defender.name} is dead"
    if target.shock in UNAWARE:  # the state alone, without an Extended Shock HR beside it
        state = target.status.split(",")[0]
        why = "helpless" if target.helpless else "unaware, so Ignores"
        return f"{defender.name} is {state}: {why} and makes no test"
    if helpless:
        return f"{defender.name} is helpless, so makes no test"
    if chosen == "Ignore":
        return f"{defender.name} Ignores the attack, so makes no test"
    lost = _unusable(target.record, chosen, _arms_in_use(defender, grievous_arm))
    if lost is not None:
        return (f"{defender.name}'s {_lost_part(*lost)} is unusable (Grievous injury): the "
                f"{chosen} is an automatic CF, no test")
    return None


def attack_untested(fight: Fight, attacker: Fighter, defender: Fighter, *,
                    helpless: bool = False, grievous_arm: str = "in use") -> str | None:
    """Why *attacker* makes no Melee test in a melee exchange against *defender*, in a
    reader's words, or None when they make one: a dead, Incapacitated or Unconscious attacker
    cannot act (Injury 4 Shock states; :func:`melee_attack` refuses them); an attack that
    needs a zone a Grievous injury made unusable is an automatic CF with no roll (Injury 5,
    Tests with Grievous Injury; *grievous_arm* as for :func:`melee_attack`); and against a helpless defender (Unconscious, or named
    *helpless*) a usable attack is a CS Ignore result with no roll (Injury 4; assumption
    helpless_defender). Their Setup advantages then have no test to lift (assumption
    setup_without_test)."""
    fight = _require_fight(fight)
    attacker, defender = _fighter("attacker", attacker), _fighter("defender", defender)
    require_bool("helpless", helpless)
    require_choice("grievous_arm", grievous_arm, GRIEVOUS_ARM)
    striker = fight.combatant(attacker.name)
    why = _cannot_act(striker)
    if why is not None:
        return f"{attacker.name} {why}"
    lost = _attack_lost(striker, attacker, grievous_arm)
    if lost is not None:
        return (f"{attacker.name}'s {_lost_part(*lost)} is unusable (Grievous injury): the "
                "attack is an automatic CF, no test")
    target = fight.combatant(defender.name)
    if not target.dead and (helpless or target.helpless):
        return f"{defender.name} is helpless: the attack is a CS with no roll"
    return None


def melee_odds(fight: Fight, attacker: Fighter, defender: Fighter, *,
               defence: str | None = None, aim_zone: int = 1,
               helpless: bool = False, attack_setups: int = 0,
               defence_setups: int = 0, grievous_arm: str = "in use") -> StrikeOdds:
    """Before a melee exchange (see :func:`melee_attack`): both test EMLs the rows give and
    the exact odds of each outcome over every pair of d100 rolls (Melee 2-3), each side's
    test lifted by its Setup advantages; against a helpless defender the one certain result,
    a CS Ignore strike; *grievous_arm* as for :func:`melee_attack`."""
    require_int("aim_zone", aim_zone, minimum=1, maximum=zone_count())
    d = _declare(_require_fight(fight), _fighter("attacker", attacker),
                 _fighter("defender", defender), defence, aim_zone, helpless, grievous_arm)
    declared, chosen, trace, zone, a_zone = d.declared, d.chosen, d.trace, d.zone, d.attack_zone
    if d.helpless and a_zone is None:
        certain = melee_exchange(None, declared.attack_eml, "Ignore", helpless=True,
                                 attack_setups=attack_setups, defence_setups=defence_setups)
        return StrikeOdds(value=declared.attack_eml,
                          outcome=f"{defender.name} is helpless: a CS Ignore result, no roll",
                          trace=tuple(trace) + certain.trace,
                          odds={(certain.outcome, certain.stars): Fraction(1)})
    odds = melee_outcome_distribution(declared.attack_eml, chosen, declared.defence_eml,
                                      defender_unusable_zone=zone,
                                      attacker_unusable_zone=a_zone,
                                      attack_setups=attack_setups,
                                      defence_setups=defence_setups)
    if chosen == "Ignore":
        trace += setups_unused(defence_setups, f"{defender.name} Ignores")
    if a_zone is not None:
        trace += setups_unused(attack_setups, f"{attacker.name}'s attack is an automatic CF",
                               who="Attacker")
    outcome = declared.outcome if zone is None else (
        f"EML {declared.attack_eml} against a {chosen} that is an automatic CF (the "
        f"{zone.lower()} zone is unusable)")
    if a_zone is not None:
        outcome = (f"{attacker.name}'s attack is an automatic CF, no roll (the "
                   f"{a_zone.lower()} zone is unusable), against "
                   + (f"a {chosen} that is an automatic CF too" if zone is not None else
                      "Ignore" if chosen == "Ignore" else
                      f"{chosen} EML {declared.defence_eml}"))
    return StrikeOdds(value=declared.attack_eml, outcome=outcome, trace=tuple(trace),
                      odds=odds)


def melee_attack(fight: Fight, attacker: Fighter, defender: Fighter, *,
                 defence: str | None = None,
                 aim_zone: int = 1, advantage: str = "impact", zone_pick: int = 0,
                 helpless: bool = False, picked_location: int | None = None,
                 attack_setups: int = 0, defence_setups: int = 0,
                 grievous_arm: str = "in use", dice: DiceSource | None = None) -> Strike:
    """One melee exchange from the two rows (Melee 2-3), then the injury of whoever's blow
    lands (Injury 1-5). The defender declares *defence* (by default the row's); an
    Incapacitated defender is unaware and must Ignore, and the attacker's test is rolled
    (Injury 4). An Unconscious defender, or one the GM names *helpless* (bound, asleep), is
    helpless: a CS Ignore result with no roll, four stars (Injury 4; assumption
    helpless_defender). Otherwise both tests are rolled (the defender's unless Ignore), each
    of the striker's tactical advantages goes to *advantage*, and the blow takes the struck
    one's armour in the zone it lands on. *attack_setups* and *defence_setups* are the Setup
    advantages each side took within the last round: each lifts that side's test one success
    level (Melee Test Results, Setup); a defender who makes no roll has no test for theirs to
    lift, and the explanation says they do not apply (assumption setup_without_test). A
    Block, Dodge or Counterstrike that needs a zone a Grievous injury on the defender's
    record made unusable is an automatic CF with no roll (Injury 5, Tests with Grievous
    Injury); Ignore stays open. An arm injury stops only that arm's actions (IMPAIRED ACTIONS
    AND MOVEMENT): the attack, Block and Counterstrike use the row's weapon arm (both arms
    for a two-handed grip), so by default (*grievous_arm* "in use") only a Grievous injury
    recorded on that arm, or one recorded with no side, stops them; "any" lets every
    Grievous arm injury stop them (assumption grievous_arm_defence). A Dodge needs no arm.

    An attacker who spends one round concentrating on a helpless defender picks the spot
    instead of rolling the Zone and Location Dice (Injury 1, Helpless targets):
    *picked_location* is that location number in the aimed zone.
    """
    fight, dice = _require_fight(fight), _source(dice)
    _aims(aim_zone, zone_pick, advantage)
    if picked_location is not None:
        require_int("picked_location", picked_location, minimum=1, maximum=10)
    attacker, defender = _fighter("attacker", attacker), _fighter("defender", defender)
    d = _declare(fight, attacker, defender, defence, aim_zone, helpless, grievous_arm)
    declared, chosen, trace, helpless = d.declared, d.chosen, d.trace, d.helpless
    zone, a_zone = d.zone, d.attack_zone
    if picked_location is not None and not helpless:
        raise RulesError(f"picked_location is for a helpless defender (Unconscious, or named "
                         f"helpless), and {defender.name} is not: the dice find the spot")
    rolled: list[tuple[str, int]] = []
    setups = {"attack_setups": attack_setups, "defence_setups": defence_setups}
    if helpless and a_zone is None:
        exchange = melee_exchange(None, declared.attack_eml, "Ignore", helpless=True,
                                  **setups)
    else:
        a_roll = None
        if a_zone is None:
            a_roll = dice.d(100, "attacker's d100")
            rolled.append(("attacker's d100", a_roll))
        d_roll = None
        if chosen != "Ignore" and zone is None:
            d_roll = dice.d(100, "defender's d100")
            rolled.append(("defender's d100", d_roll))
        exchange = melee_exchange(a_roll, declared.attack_eml, chosen, d_roll,
                                  declared.defence_eml, defender_unusable_zone=zone,
                                  attacker_unusable_zone=a_zone, **setups)
    trace += exchange.trace
    base = dict(attacker=attacker.name, defender=defender.name, declaration=declared,
                exchange=exchange)
    if exchange.striker is None:
        dice.finish("melee exchange")
        return Strike(value=0, outcome=f"{exchange.outcome}: nobody is struck",
                      trace=tuple(trace), struck=None, rolled=tuple(rolled), **base)
    spent = spend_advantages(exchange, [advantage] * exchange.tactical_advantages)
    trace += spent.trace
    hitter, hit = (attacker, defender) if exchange.striker == "attacker" else (defender, attacker)
    handed = strike_from_melee(exchange, weapon_of(hitter), spent)
    walk = _injure(fight, hitter, hit, dice, rolled, zone_die=handed.zone_die,
                   aim_zone=aim_zone if hitter is attacker else 1,
                   precision=handed.precision, zone_pick=zone_pick,
                   impact_die=die_sides(hitter["impact_die"]),
                   impact_modifier=hitter["impact_mod"], aspect=handed.aspect,
                   strength_modifier=hitter["str_impact"], impact_tas=handed.impact_tas,
                   spot=None if picked_location is None else (aim_zone, picked_location))
    dice.finish("melee exchange and its injury")
    trace += walk.trace
    return Strike(value=walk.value, outcome=f"{hit.name}: {walk.outcome}", trace=tuple(trace),
                  struck=hit.name, walk=walk, before=fight.combatant(hit.name).record,
                  rolled=tuple(rolled), **base)


def apply_strike(fight: Fight, row: Fighter, strike: Strike) -> Fight:
    """Write *strike* into the fight: the struck fighter's record gains the injury (and any
    compounding), and the Shock state becomes the walk's (Injury 3-4); KIA is death. *row*
    is the struck fighter's roster row. A strike rolled against a record that has changed
    since is refused: roll it again."""
    fight, row = _require_fight(fight), _fighter("row", row)
    if not isinstance(strike, Strike):
        raise RulesError(f"strike must be a resolved shot or melee exchange, got {shown(strike)}")
    if strike.struck is None or strike.walk is None:
        raise RulesError("strike: nobody is struck, so there is nothing to write into a record")
    if not isinstance(strike.walk, InjurySequence) or not isinstance(strike.before, InjuryRecord):
        raise RulesError("strike must be a resolved shot or melee exchange with its injury "
                         f"walk and the record it started from, got {shown(strike)}")
    if row.name != strike.struck:
        raise RulesError(f"this strike hit {strike.struck}, not {row.name}")
    c = fight.combatant(row.name)
    if c.record != strike.before:
        raise RulesError(f"the record of {row.name} has changed since this strike was rolled: "
                         "roll it again")
    walk = strike.walk
    record = walk.record if walk.record is not None else c.record
    state = c.shock if walk.shock is None and walk.state is None else walk.state
    if state == "KIA":
        record = record.died(f"killed in action: {walk.outcome}")
    return fight.with_combatant(replace(c, record=record, shock=state))


# --- after the blow --------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class FightStep(Resolution):
    """A Shock check or a day of healing for one fighter: the fight after it (``fight``)."""

    fight: Fight
    rolled: tuple[tuple[str, int], ...] = ()


def shock_check(fight: Fight, row: Fighter, *, healer_bonus: int = 0,
                dice: DiceSource | None = None) -> FightStep:
    """The Shock roll a fighter makes at the end of their next turn (Injury 4): Stunned, a
    Shock test (Shock ML) whose S or CS removes the state; Incapacitated or Unconscious, the
    Shock Reroll (Shock ML - 20): CS recovers, S leaves them Stunned, F brings Extended Shock
    HR5 and CF HR4 (and, if Unconscious, a coma whose HR is 12 - location shock - injury
    level of the last injury, Healing 3). In Extended Shock the roll is its Course Roll (every
    four hours, Healing 2), less the anaemia of the blood lost and plus a healer's
    *healer_bonus*; in a coma once that is over, the Coma Course Roll (every ten days,
    Healing 3)."""
    fight, row, dice = _require_fight(fight), _fighter("row", row), _source(dice)
    require_int("healer_bonus", healer_bonus, minimum=0, maximum=100)
    c = _alive(fight, row, "the fighter")
    if c.shock is None:
        raise RulesError(f"{row.name} is in no Shock state: there is nothing to roll")
    if c.extended_hr is not None or c.coma_hr is not None:
        return _course(fight, row, c, healer_bonus, dice)
    roll = dice.d(100, "Shock d100")
    dice.finish("Shock roll")
    if c.shock == "STN":
        eml = effective_eml(row["shock"])
        level = success_level(roll, eml)
        clear = level in ("S", "CS")
        trace = (step(f"{row.name} is Stunned: Shock test, roll {roll} against EML {eml}: "
                      f"{level}; " + ("no longer Stunned" if clear else "still Stunned"),
                      DATA.rule("Injury 4 Shock — states"), roll=roll, eml=eml, level=level),)
        new = replace(c, shock=None if clear else "STN")
        outcome = new.status
    else:
        back: ShockRerollResolution = shock_reroll(roll, row["shock"], c.shock)
        trace = back.trace
        coma = None
        if back.coma and c.record.injuries:
            last = c.record.injuries[-1]
            coma = coma_healing_rate(location_shock(last.location), last.level)
        new = replace(c, shock=back.state, extended_hr=back.extended_shock_hr, coma_hr=coma)
        outcome = new.status
    return FightStep(value=roll, outcome=f"{row.name}: {outcome}", trace=tuple(trace),
                     fight=fight.with_combatant(new), rolled=(("Shock d100", roll),))


def _course(fight: Fight, row: Fighter, c: Combatant, bonus: int, dice: DiceSource
            ) -> FightStep:
    """The Course Roll of Extended Shock (HB × HR less fatigue plus a healer's *bonus*,
    Healing 2) or, once that is over, of a coma (Healing 3): the HR moves, and at 6 the state
    ends; Extended Shock at 0 kills. Extended Shock keeps the fatigue it began with: of it,
    the fight knows the anaemia of the blood lost (5 a BP)."""
    hb = c.record.healing_base
    if c.extended_hr is not None:
        anaemia = c.record.blood_loss * DATA.setting("healing", "blood_loss_rules",
                                                     "anaemia_fatigue_per_bp")
        done = extended_shock_course(None, hb, c.extended_hr, fatigue=anaemia, bonus=bonus,
                                     dice=dice)
        dice.finish("Course Roll")
        ended = done.outcome == "recovered"
        new = replace(c, extended_hr=None if ended or done.outcome == "dies"
                      else done.healing_rate,
                      shock="KIA" if done.outcome == "dies" else
                      ("UNC" if c.coma_hr else None) if ended else c.shock,
                      record=c.record.died("Extended Shock") if done.outcome == "dies"
                      else c.record)
    else:
        done = coma_course(None, hb, c.coma_hr, dice=dice)  # type: ignore[arg-type]
        dice.finish("Course Roll")
        ended = done.outcome == "recovered"
        new = replace(c, coma_hr=None if ended else done.healing_rate,
                      shock=None if ended else c.shock)
    roll = _roll_of(done)
    return FightStep(value=done.value, outcome=f"{row.name}: {new.status}", trace=done.trace,
                     fight=fight.with_combatant(new),
                     rolled=(("Course Roll d100", roll),) if roll else ())


def bleed(fight: Fight, row: Fighter, *, physician_eml: int | None = None,
          injury: int | None = None, treated: int | None = None,
          dice: DiceSource | None = None) -> FightStep:
    """Five minutes of one of the fighter's open bleeders (Healing 1): *injury* is its place
    on the record (0 the first), None the first open bleeder. With a healer
    (*physician_eml*), the Blood Stoppage Roll of a Staunch, less 10 for each bleeder treated
    in the same five minutes beyond this one (*treated*, 1 to all the open bleeders; None,
    all of them) and plus the 10 a failed Staunch left; then, unless a CS stopped it at
    once, the Blood Loss Advance Roll (a Strength test): the BP go on the record, each box
    checked brings its Shock state, and a fourth BP kills. A stopped bleeder is no longer
    marked as one. The Shock state blood loss brought stays until the GM rolls for it (Shock
    roll)."""
    fight, row, dice = _require_fight(fight), _fighter("row", row), _source(dice)
    if physician_eml is not None:
        require_int("physician_eml", physician_eml, minimum=-999, maximum=999)
    c = _alive(fight, row, "the fighter")
    record = c.record
    open_ = record.open_bleeders
    if not open_:
        raise RulesError(f"{row.name} has no bleeding injury")
    if treated is not None:
        if physician_eml is None:
            raise RulesError("treated is for a healer's Blood Stoppage Rolls: with no healer "
                             "(physician_eml) no bleeder is treated")
        require_int("treated", treated, minimum=1, maximum=len(open_))
    if injury is not None and _injury_arg(record, row, injury) not in open_:
        inj = record.injuries[injury]
        raise RulesError(f"injury {injury + 1} of {row.name} ({inj.code} "
                         f"{inj.location.lower()}) is not bleeding: pick a Bleeder")
    if record.blood_loss > 3:
        raise RulesError(f"{row.name} has lost {record.blood_loss} BP: a fourth has killed")
    index = open_[0] if injury is None else injury
    first = record.injuries[index]
    period = bleeding_period(row["strength_eml"], record.blood_loss, c.shock,
                             physician_eml=physician_eml,
                             bleeders=len(open_) if treated is None else treated,
                             staunch_bonus=c.staunch_bonus if physician_eml is not None else 0,
                             dice=dice)
    dice.finish("bleeding period")
    # the period is that bleeder's: the BP it adds are that injury's to take back
    record = record.bleed(index, period)
    new = replace(c, record=record, shock=period.state, staunch_bonus=period.next_bonus)
    rolled = tuple((n, v) for n, v in (("Blood Stoppage d100", _roll_of(period.stoppage)),
                                       ("Blood Loss d100", _roll_of(period.advance))) if v)
    return FightStep(value=period.bp, outcome=f"{row.name}: {first.code} "
                     f"{first.location.lower()} {period.outcome}, {period.bp} BP "
                     f"({new.status})", trace=period.trace, fight=fight.with_combatant(new),
                     rolled=rolled)


def _roll_of(result: Resolution | None) -> int | None:
    """The d100 a test rolled, as its trace records it."""
    if result is None:
        return None
    return next((dict(s.values)["roll"] for s in result.trace if "roll" in dict(s.values)),
                None)  # type: ignore[return-value]


def treat(fight: Fight, row: Fighter, *, physician_eml: int | None = None,
          injury: int | None = None, dice: DiceSource | None = None) -> FightStep:
    """The Treatment Roll of one of the fighter's untreated injuries (Healing 4-5): *injury*
    is its place on the record (0 the first), None the first untreated one. A healer
    (*physician_eml*) tests Physician with the injury type's modifier and -5 for each day
    since the injury; the result's Healing Rate, infection, impairment and bleeding marks go
    on the record. With no healer, the injury is untreated and takes a CF's characteristics
    (Healing 5 Untreated Injury); a Grievous one is then a grim wound."""
    fight, row, dice = _require_fight(fight), _fighter("row", row), _source(dice)
    if physician_eml is not None:
        require_int("physician_eml", physician_eml, minimum=-999, maximum=999)
    c = _alive(fight, row, "the fighter")
    record = c.record
    waiting = [i for i in record.active if record.injuries[i].hr is None]
    if injury is not None:
        _injury_arg(record, row, injury)
        if injury not in waiting:
            inj = record.injuries[injury]
            raise RulesError(f"injury {injury + 1} of {row.name} ({inj.code} "
                             f"{inj.location.lower()}) is "
                             + ("healed" if not inj.level else "already treated")
                             + ": each injury takes one Treatment Roll")
    elif not waiting:
        raise RulesError(f"{row.name} has no untreated injury")
    index = waiting[0] if injury is None else injury
    inj = record.injuries[index]
    code = inj.code[:2]
    if physician_eml is None:
        result = untreated(inj.aspect, code)
    else:
        result = treatment_roll(None, physician_eml, inj.aspect, code,
                                days=record.day - inj.day, dice=dice)
    dice.finish("Treatment Roll")
    new = replace(c, record=record.treat(index, result))
    roll = _roll_of(result)
    return FightStep(value=result.value, outcome=f"{row.name}: {inj.code} "
                     f"{inj.location.lower()} {result.outcome}", trace=result.trace,
                     fight=fight.with_combatant(new),
                     rolled=(("Treatment d100", roll),) if roll else ())


def _injury_arg(record: InjuryRecord, row: Fighter, injury: object) -> int:
    """*injury* as a place on *row*'s record (0 the first); a refusal names how many it holds."""
    if not record.injuries:
        raise RulesError(f"{row.name}'s record holds no injury")
    return require_int("injury", injury, minimum=0, maximum=len(record.injuries) - 1)


def remove_injury(fight: Fight, row: Fighter, injury: int) -> FightStep:
    """The fighter's record without one injury, written in by mistake (*injury*: its place on
    the record, 0 the first): an infection of it goes too, and what came from it is taken
    back (:func:`removal`, the record's own computation): the BP its bleeding cost,
    and the part of the fighter's Shock state, Extended Shock and coma that nothing left on
    the record explains; the trace says what stays and why. The record is the character's
    injury record of Healing 6; no rule removes an injury, so this is the GM correcting the
    sheet."""
    fight, row = _require_fight(fight), _fighter("row", row)
    c = fight.combatant(row.name)
    index = _injury_arg(c.record, row, injury)
    gone = c.record.injuries[index]
    taken = removal(c.record, index, c.shock, extended_hr=c.extended_hr, coma_hr=c.coma_hr)
    record = c.record.remove_injury(index)
    text = f"{row.name}: {gone.code} {gone.location.lower()} removed from the record"
    rules = {True: DATA.rule("Injury 4 Shock"),
             False: DATA.rule("Healing 1 Bleeding — Blood Loss Advance Roll")}
    trace = (step(text, DATA.rule("Healing 6 Healing"), injury=index + 1),
             *(step(f"{said[0].upper()}{said[1:]}", rules["Shock" in said])
               for said in taken.said))
    kept = replace(c, record=record, shock=taken.shock, extended_hr=taken.extended_hr,
                   coma_hr=taken.coma_hr)
    return FightStep(value=len(record.injuries), outcome=text, trace=trace,
                     fight=fight.with_combatant(kept))


def heal_day(fight: Fight, row: Fighter, *, dice: DiceSource | None = None) -> FightStep:
    """One day of recovery for a fighter's record (Healing 5-7). First the daily Shock Roll of
    each grim wound (a Grievous injury whose treatment is CF, rolled or for want of one,
    Healing 5 Grim Wound): its Shock state joins the fighter's. Then the rolls that fall due
    that day on the record (a Healing Roll every five days for each treated injury, the daily
    Infection Course Roll, the Blood Loss Healing Roll every ten days). Each a d100, in that
    order. An injury heals only once treated (:func:`treat`, with or without a healer)."""
    fight, row, dice = _require_fight(fight), _fighter("row", row), _source(dice)
    c = fight.combatant(row.name)
    if c.dead:
        raise RulesError(f"{row.name} is dead: there is nothing to heal")
    trace: list[Step] = []
    rolled: list[tuple[str, int]] = []
    shock_state = c.shock
    for inj in c.record.injuries:
        if not inj.grim or shock_state == "KIA":
            continue
        roll = dice.d(100, f"grim wound's Shock d100 ({inj.code} {inj.location.lower()})")
        rolled.append((f"grim wound's Shock d100 ({inj.code})", roll))
        grim = grim_wound_shock(roll, row["shock"], inj.location, inj.code[:2])
        trace += grim.trace
        shock_state = combine_shock_states(shock_state, grim.state)
    done: Recovery = recover(c.record, dice=dice, until_day=c.record.day + 1)
    rolled += done.rolled
    trace += done.trace
    record = done.record
    if shock_state == "KIA" and not record.dead:
        record = record.died("a grim wound's Shock Roll")
    if not trace:
        trace.append(step(f"Day {record.day}: no roll falls due today",
                          DATA.rule("Healing 6 Healing")))
    new = replace(c, record=record, shock=shock_state)
    return FightStep(value=done.value, outcome=f"{row.name}: {new.status}, day {record.day}"
                     if shock_state else f"{row.name}: {done.outcome}", trace=tuple(trace),
                     fight=fight.with_combatant(new), rolled=tuple(rolled))


# --- files -----------------------------------------------------------------------------------

def saved_json(fight: Fight) -> str:
    """The fight as its file holds it (see :func:`fight_format`)."""
    body = {"combatants": [{"name": c.name, "record": asdict(c.record), "shock": c.shock,
                            "extended_hr": c.extended_hr, "coma_hr": c.coma_hr,
                            "staunch_bonus": c.staunch_bonus}
                           for c in fight.combatants],
            "acting": fight.acting, "round": fight.round}
    return json.dumps({"format": FORMAT, "version": VERSION, "fight": body},
                      separators=(",", ":"))


@functools.cache
def fight_format() -> saved.SavedFormat:
    """The fight file, field by field; each fighter's record as the injury record file has it."""
    combatant = saved.Record({
        "name": saved.Text(saved.NAME_LENGTH, blank=False),
        "record": record_format().body,
        "shock": saved.Maybe(saved.Text(3, tuple(s for s in SHOCK_STATES if s))),
        "extended_hr": saved.Maybe(saved.Int(1, 5)),
        "coma_hr": saved.Maybe(saved.Int(1, 12)),
        "staunch_bonus": saved.Int(0, 10),
    }, optional=frozenset({"staunch_bonus"}))
    return saved.SavedFormat("fight", FORMAT, VERSION, envelope="fight", body=saved.Record({
        "combatants": saved.ListOf(combatant, MAX_FIGHTERS),
        "acting": saved.Int(0, MAX_FIGHTERS - 1), "round": saved.Int(1, MAX_ROUND)}))


def _fight_from_body(body: dict) -> Fight:
    """The fight a checked body holds, after the rules no one field states: distinct names,
    each record under its fighter's name, the acting fighter one of them."""
    people = body["combatants"]
    names = [p["name"] for p in people]
    for i, name in enumerate(names):
        if name in names[:i]:
            raise RulesError(f"fight: combatants[{i + 1}].name {shown(name)} is used twice")
    if people and body["acting"] >= len(people):
        raise RulesError(f"fight: acting must be the number of a fighter (0 to "
                         f"{len(people) - 1}), got {body['acting']}")
    combatants = []
    for i, p in enumerate(people, start=1):
        record = _from_body(p["record"], f"fight: combatants[{i}].record.")
        combatants.append(Combatant(p["name"], record, p["shock"], p["extended_hr"],
                                    p["coma_hr"], p.get("staunch_bonus", 0)))
    return Fight(tuple(combatants), body["acting"] if people else 0, body["round"])

