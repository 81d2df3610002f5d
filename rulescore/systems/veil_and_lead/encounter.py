"""An encounter on the Cylinder: tokens, the Hammer, holds, stuns and the states that last
"until your next turn" (§I, §II, §IV, §XI, §XII, §XV).

:class:`Encounter` is immutable: every move returns a new encounter, so a reader's state can be
kept, replayed or saved as JSON (:meth:`Encounter.to_dict` / :meth:`Encounter.from_dict`).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, replace
from typing import Any

from ... import saved
from ...errors import RulesError, require_bool, require_int, shown
from . import records
from .core import ATTRIBUTE_RANGE, advance, require_attribute, starting_tick
from .timing import NextTurn, Token, next_turn, tension_dice

MAX_ACTION_TEMPO = 19  # a longer action would lap the Cylinder and be read as acting at once
TRACKED = ("Suppressed", "Prone", "Engaged", "Blinded", "Grappled",
           "Downed")  # the flags cover the rest
CLEARED_BY = {"Stand Up": ("Prone",), "Disengage": ("Engaged",),
              "Recover": ("Suppressed", "Blinded", "Prone")}
MOVING = ("Shift", "Scramble", "Rush / Charge", "Sprint", "Crawl", "Disengage")  # §V moves
MAX_AIM = 3  # three Aim actions give the largest bonus (§III Aim)
GRAPPLED_TEMPO = 3  # light weapons or unarmed only (§XI Grappled)
MAX_FIGHTERS = 20  # a bigger fight is several Hordes; bounds the saved file
MARGIN_LIMIT = 100  # an initiative margin beyond ±100 is a typing slip (two d8s and a bonus)
MAX_TRIGGER = 200  # a Hold's trigger, in characters
MAX_ELAPSED = 1_000_000  # ticks: fifty thousand turns of the Hammer
MAX_LINE = 1000  # a log line, in characters


@dataclass(frozen=True)
class Fighter:
    """One combatant: PC or NPC, QUICK, initiative margin, tick (``None`` while holding)."""

    name: str
    pc: bool
    quick: int
    margin: int
    tick: int | None
    surprised: bool = False
    exposed: bool = False
    stunned: bool = False
    holding: str | None = None
    conditions: tuple[str, ...] = ()
    aim: int = 0
    horde: int = 0  # a Horde's current size (0: a single fighter)


@dataclass(frozen=True)
class Encounter:
    """The Hammer's position, the ticks the fight has run and its fighters."""

    hammer: int = 0
    elapsed: int = 0
    fighters: tuple[Fighter, ...] = ()

    # --- reading ---------------------------------------------------------------------------

    def fighter(self, name: str) -> Fighter:
        """The fighter called *name*; a RulesError naming the fighters if there is none."""
        for f in self.fighters:
            if f.name == name:
                return f
        names = ", ".join(f.name for f in self.fighters) or "nobody yet"
        raise RulesError(f"name must be one of the fighters ({names}), got {shown(name)}")

    @property
    def tension_dice(self) -> int:
        """Tension Pool dice the fight has added so far (§XV)."""
        return tension_dice(self.elapsed)

    def _with(self, fighter: Fighter) -> Encounter:
        return replace(self, fighters=tuple(fighter if f.name == fighter.name else f
                                            for f in self.fighters))

    def _on_hammer(self, name: str) -> Fighter:
        f = self.fighter(name)
        if f.tick != self.hammer:
            where = "holding" if f.tick is None else f"at Tick {f.tick}"
            raise RulesError(f"name {shown(name)} is {where}; only a fighter at the Hammer's tick "
                             f"({self.hammer}) can act now")
        return f

    # --- moves -----------------------------------------------------------------------------

    def join(self, name: str, *, pc: bool, quick: int, margin: int | None,
             horde: int = 0) -> Encounter:
        """Put a fighter on the Cylinder from an initiative margin (§II): the starting tick,
        Surprised on a failed roll (``None`` or a negative margin). *horde* makes the token a
        Horde of that many identical NPCs (§XIII The Horde, 3-10)."""
        if horde:
            h = records.settings("conditions", "horde")
            require_int("horde", horde, minimum=h["min_size"], maximum=h["max_size"])
            if pc:
                raise RulesError("pc must be False for a Horde (a Horde is of enemies)")
        if not isinstance(name, str) or not name.strip():
            raise RulesError(f"name must be a non-empty text, got {shown(name)}")
        if len(name) > saved.NAME_LENGTH:
            raise RulesError(f"name must be at most {saved.NAME_LENGTH} characters long, "
                             f"got {len(name)}")
        if len(self.fighters) >= MAX_FIGHTERS:
            raise RulesError(f"the encounter holds {MAX_FIGHTERS} fighters, the most it "
                             "tracks: make the rest a Horde")
        if margin is not None:
            require_int("margin", margin, minimum=-MARGIN_LIMIT, maximum=MARGIN_LIMIT)
        if any(f.name == name for f in self.fighters):
            raise RulesError(f"name {shown(name)} is already in the encounter")
        if not isinstance(pc, bool):
            raise RulesError(f"pc must be True or False, got {shown(pc)}")
        require_attribute("quick", quick)
        tick, state = starting_tick(margin)
        kept = -1 if margin is None else margin
        return replace(self, fighters=self.fighters + (
            Fighter(name, pc, quick, kept, tick, surprised=state == "Surprised",
                    horde=horde),))

    def hit_horde(self, name: str, casualties: int) -> tuple[Encounter, str]:
        """A hit on a Horde (:func:`horde_casualties`) shrinks it; at size 2 or less it breaks:
        its token becomes two single NPCs at the same tick (§XIII Breaking the Horde)."""
        f = self.fighter(name)
        if not f.horde:
            raise RulesError(f"name {shown(name)} is not a Horde")
        require_int("casualties", casualties, minimum=0)
        size = max(0, f.horde - casualties)
        if size > records.settings("conditions", "horde")["breaks_at"]:
            return self._with(replace(f, horde=size)), f"{name} is down to {size}"
        names = [f"{name} {i}" for i in (1, 2)]
        for n in names:
            if any(g.name == n for g in self.fighters):
                raise RulesError(f"name {shown(n)} is already in the encounter; rename it first")
        singles = tuple(replace(f, name=n, horde=0) for n in names)
        kept = tuple(g for g in self.fighters if g.name != name)
        return (replace(self, fighters=kept + singles),
                f"{name} breaks: {names[0]} and {names[1]} fight on as single NPCs")

    def next_turn(self) -> tuple[Encounter, NextTurn]:
        """Turn the Hammer to the next token (§I); the fighters there start their turn, which
        ends their tempo-caused Exposure (§IV)."""
        tokens = [Token(f.name, f.tick, f.pc, f.margin, f.quick) for f in self.fighters
                  if f.tick is not None]
        if not tokens:
            raise RulesError("the encounter has no token on the Cylinder to turn to")
        turn = next_turn(self.hammer, tokens)
        moved = replace(self, hammer=turn.value, elapsed=self.elapsed + turn.ticks)
        for f in moved.fighters:
            if f.tick == turn.value and f.exposed:
                moved = moved._with(replace(f, exposed=False))
        return moved, turn

    def act(self, name: str, tempo: int, *, exposed: bool = False, action: str | None = None,
            clears: str | None = None) -> Encounter:
        """The fighter at the Hammer's tick acts: the token moves on by *tempo* (wrapping past
        19), Surprise ends, and *exposed* marks Exposure until their next turn.

        Naming the *action* applies what it does to the fighter's state: Aim banks one more Aim
        (at most 3); moving more than a Shift loses the Aim (assumption aim_shift), and a
        ranged attack uses it (§III Aim); Stand Up clears Prone, Disengage Engaged, and Recover the condition in *clears*
        (by default Suppressed, then Blinded, then Prone) (§XI). A Grappled fighter cannot
        move and attacks only at tempo 3 or less (§XI Grappled). A Downed fighter may only
        Crawl or Speak, and Speak takes no time, so only Crawl moves the token (§X Bleeding
        Out). An instant action (tempo 0: Shift, Speak, Drop) takes no time: the token stays
        at the Hammer's tick and the fighter's turn goes on (§III Instant Actions)."""
        f = self._on_hammer(name)
        if "Downed" in f.conditions and action != "Crawl":
            raise RulesError(f"action: {name} is Downed and may only Crawl (Tempo 6) or Speak "
                             f"(Tempo 0), got {shown(action)}")
        instant = (action is not None and tempo == 0 and not isinstance(tempo, bool)
                   and records.find_action(action).tempo_rule == "fixed"
                   and records.find_action(action).tempo == 0)
        require_int("tempo", tempo, minimum=0 if instant else 1, maximum=MAX_ACTION_TEMPO)
        if not isinstance(exposed, bool):
            raise RulesError(f"exposed must be True or False, got {shown(exposed)}")
        if f.stunned:
            raise RulesError(f"name {shown(name)} is Stunned: no action this turn; use stunned")
        moved = f if instant else replace(f, tick=advance(self.hammer, tempo), surprised=False,
                                          exposed=exposed)
        if action is not None:
            moved = _apply_action(moved, action, tempo, clears)
        elif clears is not None:
            raise RulesError("clears needs the action that clears it (Recover)")
        return self._with(moved)

    def set_condition(self, name: str, condition: str, on: bool = True) -> Encounter:
        """Mark or clear a condition the GM adjudicates: Suppressed by a near miss from gunfire
        or cleared with 1 Mettle, Downed at 0 Vitality, Engaged when an enemy closes, Grappled by a grapple or cleared by an
        Escape, and so on (§XI). Exposed and Stunned have their own moves."""
        f = self.fighter(name)
        if condition not in TRACKED:
            raise RulesError(f"condition must be one of {', '.join(TRACKED)}, "
                             f"got {shown(condition)}")
        if not isinstance(on, bool):
            raise RulesError(f"on must be True or False, got {shown(on)}")
        rest = tuple(c for c in f.conditions if c != condition)
        return self._with(replace(f, conditions=rest + ((condition,) if on else ())))

    def lose_aim(self, name: str) -> Encounter:
        """The fighter took damage or switched targets: the banked Aim is lost (§III Aim)."""
        return self._with(replace(self.fighter(name), aim=0))

    def duel(self, first: str, second: str, tempo_first: int, tempo_second: int, *,
             exposed_first: bool = False, exposed_second: bool = False) -> Encounter:
        """Two Holds triggered by each other (§XII The Duel): after the opposed QUICK +
        Awareness roll (:func:`duel`), *first* acts, then *second*; both tokens return at the
        Hammer's tick + their action's tempo."""
        if first == second:
            raise RulesError("first and second must be two different fighters for a duel")
        for n, value in (("tempo_first", tempo_first), ("tempo_second", tempo_second)):
            require_int(n, value, minimum=1, maximum=MAX_ACTION_TEMPO)
        require_bool("exposed_first", exposed_first)
        require_bool("exposed_second", exposed_second)
        for n in (first, second):
            if self.fighter(n).holding is None:
                raise RulesError(f"name {shown(n)} is not holding an action: a duel is Hold "
                                 "against Hold")
        return self.release(first, tempo_first, exposed=exposed_first).release(
            second, tempo_second, exposed=exposed_second)

    def end_scene(self) -> Encounter:
        """The scene ends: every unused Hold is lost (§XII), tempo Exposure and Aim end."""
        out = self
        for f in self.fighters:
            if f.holding is not None or f.exposed or f.aim:
                out = out._with(replace(f, holding=None, aim=0, exposed=False,
                                        tick=self.hammer if f.tick is None else f.tick))
        return out

    def wait(self, name: str) -> Encounter:
        """Wait: the fighter at the Hammer's tick nudges their token 1 tick on (§XII)."""
        f = self._on_hammer(name)
        return self._with(replace(f, tick=advance(self.hammer, 1)))

    def stun(self, name: str) -> Encounter:
        """Mark a fighter Stunned (after a failed resistance roll, §XI Stunned)."""
        return self._with(replace(self.fighter(name), stunned=True))

    def stunned(self, name: str) -> Encounter:
        """A Stunned fighter's tick comes: no action, the token moves 3 ticks, the Stun ends."""
        f = self._on_hammer(name)
        if not f.stunned:
            raise RulesError(f"name {shown(name)} is not Stunned")
        return self._with(replace(f, tick=advance(self.hammer, 3), stunned=False))

    def hold(self, name: str, trigger: str) -> Encounter:
        """Hold instead of acting (§XII The Hold): the token leaves the track until *trigger*.
        A Surprised fighter cannot hold (§II The Surprised State)."""
        f = self._on_hammer(name)
        if not isinstance(trigger, str) or not trigger.strip():
            raise RulesError(f"trigger must describe what you wait for, got {shown(trigger)}")
        if len(trigger) > MAX_TRIGGER:
            raise RulesError(f"trigger must be at most {MAX_TRIGGER} characters long, "
                             f"got {len(trigger)}")
        if f.surprised:
            raise RulesError(f"name {shown(name)} is Surprised and cannot hold an action")
        if "Downed" in f.conditions:
            raise RulesError(f"name {shown(name)} is Downed and may only Crawl or Speak, "
                             "not hold an action")
        return self._with(replace(f, tick=None, holding=trigger))

    def release(self, name: str, tempo: int, *, exposed: bool = False) -> Encounter:
        """A holding fighter acts now — their trigger came, or they let the Hold go — and the
        token returns at the Hammer's tick + *tempo* (§XII The Hold)."""
        f = self.fighter(name)
        if f.holding is None:
            raise RulesError(f"name {shown(name)} is not holding an action")
        if "Downed" in f.conditions:
            raise RulesError(f"name {shown(name)} is Downed and may only Crawl or Speak: the held "
                             "action is lost (end the scene or clear Downed)")
        require_int("tempo", tempo, minimum=1, maximum=MAX_ACTION_TEMPO)
        require_bool("exposed", exposed)
        return self._with(replace(f, tick=advance(self.hammer, tempo), holding=None,
                                  surprised=False, exposed=exposed))

    # --- saving ----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Plain data (for JSON)."""
        return {"hammer": self.hammer, "elapsed": self.elapsed,
                "fighters": [dict(vars(f), conditions=list(f.conditions))
                             for f in self.fighters]}

    @classmethod
    def from_dict(cls, data: Any) -> Encounter:
        """Read an encounter saved by :meth:`to_dict`; a RulesError names what is wrong."""
        saved.check_field(encounter_spec(), data, "encounter")
        return _encounter(data, "encounter")


@functools.cache
def encounter_spec() -> saved.Record:
    """One encounter as a file holds it, field by field (see :mod:`rulescore.saved`)."""
    flag = saved.Flag()
    name = saved.Text(saved.NAME_LENGTH + 2, blank=False)  # a broken Horde's singles add " 1"
    fighter = saved.Record({
        "name": name, "pc": flag,
        "quick": saved.Int(*ATTRIBUTE_RANGE), "margin": saved.Int(-MARGIN_LIMIT, MARGIN_LIMIT),
        "tick": saved.Maybe(saved.Int(0, 19)), "surprised": flag, "exposed": flag,
        "stunned": flag, "holding": saved.Maybe(saved.Text(MAX_TRIGGER, blank=False)),
        "conditions": saved.ListOf(saved.Text(20, TRACKED), len(TRACKED)),
        "aim": saved.Int(0, MAX_AIM),
        "horde": saved.Int(0, records.settings("conditions", "horde")["max_size"]),
    }, optional=frozenset({"conditions", "aim", "horde"}))
    return saved.Record({"hammer": saved.Int(0, 19), "elapsed": saved.Int(0, MAX_ELAPSED),
                         "fighters": saved.ListOf(fighter, MAX_FIGHTERS)})


def _encounter(data: dict, path: str) -> Encounter:
    """An encounter from data :func:`encounter_spec` has checked; what one field cannot say
    (a token is on the track or holding, never both; names are distinct) is checked here."""
    fighters = []
    for i, item in enumerate(data["fighters"], start=1):
        f = Fighter(**{**item, "conditions": tuple(item.get("conditions", ()))})
        if (f.tick is None) == (f.holding is None):
            raise RulesError(f"{path}.fighters[{i}]: a fighter has a tick or is holding, "
                             "never both or neither")
        fighters.append(f)
    if len({f.name for f in fighters}) != len(fighters):
        raise RulesError(f"{path}.fighters must have distinct names")
    return Encounter(data["hammer"], data["elapsed"], tuple(fighters))


def _apply_action(f: Fighter, action: str, tempo: int, clears: str | None) -> Fighter:
    """What a named action does to the acting fighter's conditions and Aim."""
    act = records.find_action(action)
    moves = act.name in MOVING
    if "Grappled" in f.conditions:
        if moves:
            raise RulesError(f"name {shown(f.name)} is Grappled and cannot move (Escape first)")
        if act.attack not in ("none", "grapple") and tempo > GRAPPLED_TEMPO:
            raise RulesError(f"name {shown(f.name)} is Grappled: attacks only with a light weapon "
                             f"or unarmed (tempo {GRAPPLED_TEMPO} at most), got tempo {tempo}")
    aim = f.aim
    if act.name == "Aim":
        aim = min(MAX_AIM, aim + 1)
    elif (moves and act.name != "Shift") or act.attack in ("ranged", "any"):
        aim = 0
    conditions = f.conditions
    if clears is not None and act.name != "Recover":
        raise RulesError(f"clears is for Recover, got action {shown(action)}")
    if act.name == "Recover":
        options = [c for c in CLEARED_BY["Recover"] if c in f.conditions]
        if clears is not None:
            if clears not in f.conditions:
                raise RulesError(f"clears: {f.name} is not {clears}")
            options = [clears]
        conditions = tuple(c for c in conditions if c not in options[:1])
    elif act.name in CLEARED_BY:
        conditions = tuple(c for c in conditions if c not in CLEARED_BY[act.name])
    return replace(f, aim=aim, conditions=conditions)


def remove_fighter(enc: Encounter, name: str) -> Encounter:
    """Take a fighter off the Cylinder (they fled, fell or were never there)."""
    enc.fighter(name)
    return replace(enc, fighters=tuple(f for f in enc.fighters if f.name != name))


# --- a tracker's history and its file ----------------------------------------------------------

ENCOUNTER_FORMAT = "rulebook/vl-encounter"
MAX_HISTORY = 200


@dataclass(frozen=True)
class EncounterHistory:
    """Every state a tracked encounter has been in, with the log line that led to it, and
    which of them is current: undo and redo move along it, a new move drops what was undone."""

    states: tuple[tuple[Encounter, str], ...] = ((Encounter(), "A new encounter"),)
    index: int = 0

    @property
    def encounter(self) -> Encounter:
        return self.states[self.index][0]

    @property
    def log(self) -> tuple[str, ...]:
        """What happened, oldest first, up to the current state."""
        return tuple(line for _, line in self.states[:self.index + 1])

    @property
    def can_undo(self) -> bool:
        return self.index > 0

    @property
    def can_redo(self) -> bool:
        return self.index < len(self.states) - 1

    def push(self, enc: Encounter, line: str) -> EncounterHistory:
        """A new state after a move; anything undone before it is dropped. The line is kept
        to MAX_LINE characters, as the saved file holds it."""
        kept = self.states[:self.index + 1] + ((enc, line[:MAX_LINE]),)
        kept = kept[-MAX_HISTORY:]
        return EncounterHistory(kept, len(kept) - 1)

    def undo(self) -> EncounterHistory:
        if not self.can_undo:
            raise RulesError("nothing to undo")
        return replace(self, index=self.index - 1)

    def redo(self) -> EncounterHistory:
        if not self.can_redo:
            raise RulesError("nothing to redo")
        return replace(self, index=self.index + 1)

    def to_json(self) -> str:
        """The whole history as JSON text, undo and redo included (compact: two hundred
        states of a big fight stay well inside a saved file's limit)."""
        return json.dumps({"format": ENCOUNTER_FORMAT, "version": 1, "index": self.index,
                           "states": [{"log": line, "encounter": enc.to_dict()}
                                      for enc, line in self.states]}, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> EncounterHistory:
        """Read :meth:`to_json`'s text; a RulesError names the field that makes a file not an
        encounter (see :func:`history_format`)."""
        fmt = history_format()
        body = saved.read(fmt, text)
        index, raw = body["index"], body["states"]
        try:
            if index >= len(raw):
                raise RulesError(f"index must be from 0 to {len(raw) - 1}, got {index}")
            states = tuple((_encounter(item["encounter"], f"states[{i}].encounter"),
                            item["log"]) for i, item in enumerate(raw, start=1))
        except RulesError as exc:
            raise RulesError(f"{fmt.noun}: {exc}") from None
        return cls(states, index)


@functools.cache
def history_format() -> saved.SavedFormat:
    """The Count's saved file: the history of one encounter, field by field."""
    state = saved.Record({"log": saved.Text(MAX_LINE), "encounter": encounter_spec()})
    return saved.SavedFormat("encounter", ENCOUNTER_FORMAT, 1, saved.Record({
        "index": saved.Int(0, MAX_HISTORY - 1),
        "states": saved.ListOf(state, MAX_HISTORY, min_items=1)}))
