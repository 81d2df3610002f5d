"""A range-band fight: where everyone stands from everyone else, their cover, whether they are
hidden, the hits they have taken with their margins, and their falls with the damage dice
(§Positions, §What a fight records; the page: DESIGN.md §5).

The chapter defines only these. Turn order, what a hit's margin does to a body, wounds, the
Defense Pool, bleeding and Terror checks belong to chapters of the game we do not have, so the
fight records a hit as its margin ("hit by 3") and a fall as its dice ("2D") and leaves the rest
to those rules (assumptions ``fight_scope`` and ``fall_damage``).

Where everyone stands is kept pair by pair: the band between two fighters, as the GM reads it
off the map (assumption ``positions``). :class:`Fight` is immutable: every change returns a
:class:`Move` (the new fight, one log line and how it was reached).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field, replace
from typing import Any

from ... import saved
from ...roster import Row
from ...dice import DiceSource, Distribution, parse
from ...dice.distribution import distribution
from ...errors import RulesError, require_bool, require_choice, require_int, shown
from ...trace import Resolution, Step, step
from ._system import DATA
from .bands import BAND_IDS, MoveResult, band
from .checks import roll_groups
from .cover import MOVEMENT, StealthResult
from .inputs import MAX_POOL
from .roster import optimal_bands
from .shooting import AREA_HIT_BY, ShotResult

COVERS = ("none", "light", "medium", "heavy")
FIGHT_FORMAT = "rulebook/range-bands-fight"
MAX_FIGHTERS = 60
MAX_HITS = 40    # hits (or falls) one fighter keeps; far above any skirmish
MAX_MARGIN = 200
MAX_FALL_DICE = 6   # the largest fall the chapter deals: dramatic impassable terrain, 6D
SAME_SQUARE = ("close_contact", "very_close")
POSITIONS = DATA.rule("Positions", "positions")
SCOPE = DATA.rule("What a fight records", "fight_scope")


@dataclass(frozen=True)
class Hit:
    """A hit taken: who shot, the margin it hit by (3 for an area hit), whether it was critical
    or area fire."""

    shooter: str
    margin: int
    critical: bool = False
    area: bool = False

    def words(self) -> str:
        """"hit by 3 (Ada)", "area hit as by 3 (Ada)"."""
        kind = ("area hit as by" if self.area else
                "critical hit by" if self.critical else "hit by")
        return f"{kind} {self.margin} ({self.shooter})"


@dataclass(frozen=True)
class Fall:
    """A fall (a dash's or a crossing's critical failure): its damage in dice and, once
    rolled, their total (assumption ``fall_damage``)."""

    dice: int
    total: int | None = None

    def words(self) -> str:
        return f"{self.dice}D fall" + (f": {self.total}" if self.total is not None else "")


@dataclass(frozen=True)
class Standing:
    """One fighter in the fight: cover, what they did this turn, hidden (and Stealth
    successes in a row), prone, hits taken, falls, wounds bled from dashing."""

    name: str
    cover: str = "none"
    movement: str = "still"
    hidden: bool = False
    streak: int = 0
    prone: bool = False
    hits: tuple[Hit, ...] = ()
    falls: tuple[Fall, ...] = ()
    bled: int = 0

    @property
    def unaware(self) -> bool:
        """Two Stealth successes in a row: the observer is unaware of them (§Stealth)."""
        return self.hidden and self.streak >= 2


@dataclass(frozen=True)
class Move:
    """One step of a fight: the fight after it, the log line, and how it was reached."""

    fight: Fight
    line: str
    trace: tuple[Step, ...] = ()


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True)
class Fight:
    """Every fighter's standing and the band between each placed pair."""

    fighters: tuple[Standing, ...] = ()
    bands: tuple[tuple[str, str, str], ...] = field(default=())

    # --- reading ---------------------------------------------------------------------------

    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.fighters)

    def of(self, name: str) -> Standing:
        """The standing of the fighter called *name*."""
        for s in self.fighters:
            if s.name == name:
                return s
        listed = ", ".join(self.names()) or "nobody yet"
        raise RulesError(f"no fighter called {shown(name)} in the fight (it has {listed})")

    def band_between(self, a: str, b: str) -> str | None:
        """The band between *a* and *b* (the same both ways), or None until the GM places them."""
        self.of(a), self.of(b)
        if a == b:
            raise RulesError(f"a fighter has no band from themselves: pick two fighters, got "
                             f"{shown(a)} twice")
        key = _pair(a, b)
        return next((x for p, q, x in self.bands if (p, q) == key), None)

    # --- the roster ------------------------------------------------------------------------

    def follow(self, names: tuple[str, ...]) -> Fight:
        """The fight in step with a roster of *names*: a new fighter stands in the open and
        unplaced, a removed one leaves with their bands; order follows the roster."""
        have = {s.name: s for s in self.fighters}
        fighters = tuple(have.get(n, Standing(n)) for n in names)
        keep = set(names)
        bands = tuple(x for x in self.bands if x[0] in keep and x[1] in keep)
        if fighters == self.fighters and bands == self.bands:
            return self
        return Fight(fighters, bands)

    def rename(self, old: str, new: str) -> Fight:
        """The fight after the roster renamed *old* to *new*: standing, bands and the shooter
        named in others' hits carried over."""
        if new != old and new in self.names():
            raise RulesError(f"the fight already has a fighter called {shown(new)}")

        def name(n: str) -> str:
            return new if n == old else n

        fighters = tuple(replace(s, name=name(s.name), hits=tuple(
            replace(h, shooter=name(h.shooter)) for h in s.hits)) for s in self.fighters)
        bands = tuple(sorted(_pair(name(a), name(b)) + (x,) for a, b, x in self.bands))
        return Fight(fighters, bands)

    def _set(self, s: Standing) -> Fight:
        return replace(self, fighters=tuple(s if x.name == s.name else x
                                            for x in self.fighters))

    # --- the GM's marks --------------------------------------------------------------------

    def place(self, a: str, b: str, band_between: str) -> Move:
        """Set the band between *a* and *b* as the GM reads it off the map (§Range bands;
        assumption ``positions``): close contact, a combat band, or extreme."""
        self.band_between(a, b)
        where = require_choice("band_between", band_between, BAND_IDS)
        key = _pair(a, b)
        bands = tuple(sorted([x for x in self.bands if (x[0], x[1]) != key] + [key + (where,)]))
        words = band(where).name.lower()
        return Move(replace(self, bands=bands), f"{a} and {b}: {words}",
                    (step(f"{a} and {b} are {words} from each other", POSITIONS),))

    def mark(self, name: str, *, cover: str | None = None, movement: str | None = None,
             hidden: bool | None = None, prone: bool | None = None) -> Move:
        """Set what the GM sees of *name*: their cover (§Cover types), what they did this turn
        (§Ordinary movement, §Dashing), hidden (§Stealth: losing it ends the streak), prone."""
        s = self.of(name)
        said = []
        if cover is not None:
            s = replace(s, cover=require_choice("cover", cover, COVERS))
            said.append(f"{cover} cover")
        if movement is not None:
            s = replace(s, movement=require_choice("movement", movement, MOVEMENT))
            said.append(f"this turn: {movement}")
        if hidden is not None:
            require_bool("hidden", hidden)
            s = replace(s, hidden=hidden, streak=s.streak if hidden else 0)
            said.append("hidden" if hidden else "seen")
        if prone is not None:
            s = replace(s, prone=require_bool("prone", prone))
            said.append("prone" if prone else "up")
        return Move(self._set(s), f"{name}: {', '.join(said) or 'unchanged'}")

    def new_turn(self) -> Move:
        """A new turn: nobody has moved yet, so everyone can use cover again (§Cover: cover
        counts for one moving slowly, at most one move in the turn). Who acts when belongs to
        the game's turn rules, not this chapter."""
        return Move(replace(self, fighters=tuple(replace(s, movement="still")
                                                 for s in self.fighters)),
                    "a new turn: nobody has moved yet",
                    (step("A new turn: each fighter's movement starts afresh", SCOPE),))

    # --- a shot ----------------------------------------------------------------------------

    def shot_inputs(self, shooter: Row, target: Row, shooter_name: str,
                    target_name: str) -> dict[str, Any]:
        """The inputs of :func:`~.shooting.plan_shot` that the two fighters give: the band
        between them, the target's cover, movement and hiding, the shooter's weapon, optimal
        bands, pool and bonus (§Ranged attacks). A RulesError if they are not placed yet."""
        if shooter.name != shooter_name or target.name != target_name:
            raise RulesError("the roster rows must be the shooter's and the target's")
        where = self.band_between(shooter_name, target_name)
        if where is None:
            raise RulesError(f"{shooter_name} and {target_name} are not placed yet: set the "
                             "band between them first")
        t = self.of(target_name)
        return dict(target_band=where, optimal_bands=optimal_bands(shooter), cover=t.cover,
                    target_movement="dash" if t.movement == "dash" else
                    "move" if t.movement in ("move", "impassable") else "still",
                    weapon=shooter["weapon"], target_hidden=t.hidden,
                    skill_pool=shooter["shooting"], roll_bonus=shooter["shot_bonus"])

    def in_square(self, name: str) -> tuple[str, ...]:
        """*name* and everyone very close to or in close contact with them: the square an area
        attack at *name* rakes (assumption ``area_targets``)."""
        return (name,) + tuple(n for n in self.names() if n != name
                               and self.band_between(name, n) in SAME_SQUARE)

    def apply_shot(self, shooter: str, target: str, result: ShotResult) -> Move:
        """Record a shot: a hit goes on the target with its margin (an area hit on everyone in
        the target's square, as by three, each with a Terror check to make); a miss records
        nothing, and a miss that strikes something else is the GM's to mark (§Ranged attacks,
        §Area fire)."""
        self.of(shooter), self.of(target)
        if not isinstance(result, ShotResult):
            raise RulesError(f"the shot to apply must be a rolled shot, got {shown(result)}")
        if not result.hit:
            return Move(self, f"{shooter} at {target}: {result.outcome}")
        if result.outcome == "area hit":
            struck = self.in_square(target)
            hit = Hit(shooter, AREA_HIT_BY, area=True)
            fight = self
            for n in struck:
                s = fight.of(n)
                fight = fight._set(replace(s, hits=(s.hits + (hit,))[-MAX_HITS:]))
            return Move(fight, f"{shooter}'s area fire hits {', '.join(struck)} as by "
                               f"{AREA_HIT_BY}; each makes a Terror check",
                        (step(f"Everyone in {target}'s square ({', '.join(struck)}) is hit as "
                              f"if by {AREA_HIT_BY} and makes a Terror check",
                              DATA.rule("Area fire on the fight page", "area_targets")),))
        s = self.of(target)
        hit = Hit(shooter, result.margin, critical=result.outcome == "critical hit")
        return Move(self._set(replace(s, hits=(s.hits + (hit,))[-MAX_HITS:])),
                    f"{target}: {hit.words()}",
                    (step(f"{target} is {hit.words()}: what the margin does to them is the "
                          "game's damage rules' to say", SCOPE),))

    # --- movement and hiding ---------------------------------------------------------------

    def apply_move(self, mover: str, other: str, result: MoveResult) -> Move:
        """Record a move, dash or crossing of *mover* toward or away from *other*: the band
        between them becomes where the move ended (the other pairs are for the GM to update,
        assumption ``positions``), what *mover* did this turn, a fall's prone and damage dice,
        a wound bled (§Ordinary movement, §Dashing, §Impassable terrain)."""
        if not isinstance(result, MoveResult):
            raise RulesError(f"the move to apply must be a rolled move, got {shown(result)}")
        now = self.band_between(mover, other)
        if now is None:
            raise RulesError(f"{mover} and {other} are not placed yet: set the band between "
                             "them first")
        if now != result.start:
            raise RulesError(f"the move starts at {band(result.start).name.lower()}, but "
                             f"{mover} is {band(now).name.lower()} from {other}")
        kind = "move" if result.actions == 1 else ("impassable" if result.bulk_penalties
                                                  else "dash")
        fight = self.place(mover, other, result.end).fight
        s = fight.of(mover)
        s = replace(s, movement=kind, bled=s.bled + result.bleeds,
                    hidden=False if kind != "move" else s.hidden,
                    streak=0 if kind != "move" else s.streak)
        said = [f"{mover} now {band(result.end).name.lower()} from {other}"]
        if result.prone:
            s = replace(s, prone=True,
                        falls=(s.falls + (Fall(result.damage_dice),))[-MAX_HITS:])
            said.append(f"falls prone, {result.damage_dice}D damage")
        if result.bleeds:
            said.append(f"bleeds {result.bleeds} wound")
        return Move(fight._set(s), "; ".join(said))

    def apply_stealth(self, name: str, result: StealthResult) -> Move:
        """Record a Stealth check: hidden or seen, and the successes in a row (§Stealth)."""
        s = self.of(name)
        if not isinstance(result, StealthResult):
            raise RulesError(f"the check to apply must be a rolled Stealth check, got "
                             f"{shown(result)}")
        s = replace(s, hidden=result.hidden, streak=result.streak)
        said = ("hidden; the observer is unaware" if s.unaware else
                f"hidden ({s.streak} in a row)" if s.hidden else "seen")
        return Move(self._set(s), f"{name}: {said}")

    def roll_fall(self, name: str, *, dice: DiceSource) -> Move:
        """Roll the damage dice of *name*'s latest unrolled fall and keep the total
        (:func:`fall_damage`)."""
        s = self.of(name)
        i = next((i for i in range(len(s.falls) - 1, -1, -1) if s.falls[i].total is None),
                 None)
        if i is None:
            raise RulesError(f"{name} has no fall waiting for its damage roll")
        rolled = fall_damage(s.falls[i].dice, dice=dice)
        falls = s.falls[:i] + (replace(s.falls[i], total=rolled.value),) + s.falls[i + 1:]
        return Move(self._set(replace(s, falls=falls)),
                    f"{name}'s {s.falls[i].dice}D fall: {rolled.value} damage", rolled.trace)

    # --- saving ----------------------------------------------------------------------------

    def to_json(self) -> str:
        """The fight as a saved file (read back by :meth:`from_json`)."""
        return json.dumps({"format": FIGHT_FORMAT, "version": 1, "fighters": [
            {"name": s.name, "cover": s.cover, "movement": s.movement, "hidden": s.hidden,
             "streak": s.streak, "prone": s.prone, "bled": s.bled,
             "hits": [{"shooter": h.shooter, "margin": h.margin, "critical": h.critical,
                       "area": h.area} for h in s.hits],
             "falls": [{"dice": f.dice, "total": f.total} for f in s.falls]}
            for s in self.fighters],
            "bands": [{"a": a, "b": b, "band": x} for a, b, x in self.bands]},
            separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Fight:
        """Read a saved fight, every field checked (:func:`fight_format`); a band naming a
        fighter the fight does not hold is refused."""
        body = saved.read(fight_format(), text)
        fighters = tuple(Standing(
            x["name"], x["cover"], x["movement"], x["hidden"], x["streak"], x["prone"],
            tuple(Hit(**h) for h in x["hits"]), tuple(Fall(**f) for f in x["falls"]),
            x["bled"]) for x in body["fighters"])
        names = [s.name for s in fighters]
        if len(set(names)) != len(names):
            raise RulesError("fight: two fighters share a name")
        bands = []
        for item in body["bands"]:
            a, b, where = item["a"], item["b"], item["band"]
            if a not in names or b not in names or a == b:
                raise RulesError(f"fight: a band between {shown(a)} and {shown(b)}, who are "
                                 "not two fighters of it")
            bands.append(_pair(a, b) + (where,))
        return cls(fighters, tuple(sorted(set(bands))))


@functools.cache
def fight_format() -> saved.SavedFormat:
    """A saved range-band fight, field by field."""
    name = saved.Text(saved.NAME_LENGTH, blank=False)
    hit = saved.Record({"shooter": name, "margin": saved.Int(-MAX_MARGIN, MAX_MARGIN),
                        "critical": saved.Flag(), "area": saved.Flag()})
    fall = saved.Record({"dice": saved.Int(1, MAX_FALL_DICE),
                         "total": saved.Maybe(saved.Int(1, 6 * MAX_FALL_DICE))})
    standing = saved.Record({
        "name": name, "cover": saved.Text(6, COVERS), "movement": saved.Text(10, MOVEMENT),
        "hidden": saved.Flag(), "streak": saved.Int(0, 1000), "prone": saved.Flag(),
        "bled": saved.Int(0, 1000), "hits": saved.ListOf(hit, MAX_HITS),
        "falls": saved.ListOf(fall, MAX_HITS)})
    pair = saved.Record({"a": name, "b": name, "band": saved.Text(13, BAND_IDS)})
    return saved.SavedFormat("fight", FIGHT_FORMAT, 1, saved.Record({
        "fighters": saved.ListOf(standing, MAX_FIGHTERS),
        "bands": saved.ListOf(pair, MAX_FIGHTERS * (MAX_FIGHTERS - 1) // 2)}))


def fall_damage(damage_dice: int, *, dice: DiceSource) -> Resolution:
    """Roll a fall's damage of *damage_dice* D: that many d6 added up (assumption
    ``fall_damage``; §Dashing, §Impassable terrain). What the total does to the character
    is the game's damage rules' to say."""
    n = require_int("damage_dice", damage_dice, minimum=1, maximum=MAX_POOL)
    rolled = roll_groups({"damage_dice": n}, dice=dice)
    faces = rolled.groups["damage_dice"]
    total = sum(faces)
    return Resolution(value=total, outcome=f"{total} damage", trace=rolled.trace + (
        step(f"{n}D of damage: {' + '.join(map(str, faces))} = {total}; what it does is the "
             "game's damage rules' to say", DATA.rule("Dashing", "fall_damage")),))


def fall_damage_odds(damage_dice: int) -> Distribution:
    """The exact chance of each total a fall of *damage_dice* D can deal, before it is rolled
    by :func:`fall_damage` (assumption ``fall_damage``: that many d6 added up; §Dashing,
    §Impassable terrain).

    >>> fall_damage_odds(2).p(7)
    Fraction(1, 6)
    """
    n = require_int("damage_dice", damage_dice, minimum=1, maximum=MAX_POOL)
    return distribution(parse(f"{n}d6"))


def starter_fight(names: tuple[str, ...], bands: dict[tuple[str, str], str],
                  covers: dict[str, str]) -> Fight:
    """A fight of *names* with the given bands and covers already set (a page's first visit)."""
    fight = Fight().follow(names)
    for (a, b), where in bands.items():
        fight = fight.place(a, b, where).fight
    for n, c in covers.items():
        fight = fight.mark(n, cover=c).fight
    return fight
