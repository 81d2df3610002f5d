"""TSL turns: the GM's turn order, the action economy, support actions and the Ready loadout
(primer §11 Turn Order, Your Turn, Helping Each Other, Your Ready Loadout).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Iterable, Sequence

from rulescore import saved
from rulescore.errors import (RulesError, require_bool, require_int, require_list, require_text,
                              shown)
from rulescore.tables import Row
from rulescore.trace import Resolution, step

from .combat import ZONES, _choice, cell_list
from ._system import DATA

OPTIONS = ("Action", "Movement", "Double Movement", "Reaction")
READY_LIMIT = 3
MAX_COMBATANTS = 30  # one board, one scene; bounds the saved board
MAX_ITEMS = 50       # pieces of gear in one list of a loadout
MAX_ENCOUNTER_LOG = 100_000  # log lines of a fight in memory (a saved board keeps fewer)
_USES = {"Action": ("action",), "Movement": ("movement",),
         "Double Movement": ("action", "movement"), "Reaction": ("reaction",)}



def support_action_names() -> tuple[str, ...]:
    """The six standard support actions, in the order the rules list them."""
    return tuple(r["action"] for r in DATA.table("combat", "support_actions"))


def _support_row(name: object) -> Row:
    _choice("support action", name, support_action_names())
    return DATA.table("combat", "support_actions").find("action", name)


def perk_names() -> tuple[str, ...]:
    """Perks that stand in for a support action (the Steward's Steady Presence)."""
    return tuple(r["perk"] for r in DATA.table("combat", "perks"))


def turn_options() -> tuple[str, ...]:
    """Everything a combatant can spend: the four turn options, the support actions and the
    perks that stand in for one."""
    return OPTIONS + support_action_names() + perk_names()


@dataclass(frozen=True)
class TurnState:
    """What one combatant has used: their Action and Movement this turn, their Reaction this
    round (it comes back at the start of their next turn), and a Steward's free Steady the
    Spirit this scene (``steward_used``: it comes back only with a new scene)."""

    action_used: bool = False
    movement_used: bool = False
    reaction_used: bool = False
    steward_used: bool = False

    def used(self, part: str) -> bool:
        return getattr(self, f"{part}_used")


def _check_state(state: object, name: str = "state") -> TurnState:
    if not isinstance(state, TurnState):
        raise RulesError(f"{name} must be a TurnState, got {shown(state)}")
    for part in _PARTS:
        require_bool(f"{name}.{part}_used", state.used(part))
    return state


def start_turn(state: TurnState) -> TurnState:
    """A new turn: Action and Movement are fresh, and the Reaction refreshes too; the Steward's
    once-a-scene perk stays as it was."""
    _check_state(state)
    return TurnState(steward_used=state.steward_used)


def uses_of(option: str) -> tuple[str, ...]:
    """Which parts of the turn an option spends ("action", "movement", "reaction")."""
    _choice("option", option, turn_options())
    if option in _USES:
        return _USES[option]
    if option in perk_names():
        return tuple(cell_list(DATA.table("combat", "perks").find("perk", option)["uses"]))
    return tuple(p.lower() for p in cell_list(_support_row(option)["uses"]))


@dataclass(frozen=True, kw_only=True)
class Spend(Resolution):
    """Spending part of a turn: ``outcome`` is the option, ``value`` the Stress it costs."""

    option: str
    state: TurnState
    uses: tuple[str, ...]
    stress_pool: str
    effect: str


def spend(state: TurnState, option: str, *, ally_zone: str | None = None) -> Spend:
    """Spend *option* (Action, Movement, Double Movement, Reaction or a support action).

    A part already used this turn (the Reaction: this round) cannot be used again. Support
    actions aimed at an ally check the ally's zone (*ally_zone*: Engaged, Near, Far, Distant).
    """
    _check_state(state)
    uses = uses_of(option)
    if ally_zone is not None:
        _choice("ally_zone", ally_zone, ZONES)
    for part in uses:
        if state.used(part):
            if part == "steward":
                raise RulesError(f"option {option} is free once a scene, already used this "
                                 "scene")
            when = "this round" if part == "reaction" else "this turn"
            raise RulesError(f"option {option} needs the {part.capitalize()}, already used "
                             f"{when}")
    new = replace(state, **{f"{p}_used": True for p in uses})
    cost_text = " and the ".join(p.capitalize() for p in uses)
    pool, cost, effect = "", 0, ""
    steps = []
    if option in _USES:
        section = "Your Turn"
        effect = DATA.table("combat", "turn").find("option", option)["does"]
    elif option in perk_names():
        section = "Helping Each Other: Support Actions"
        row = DATA.table("combat", "perks").find("perk", option)
        effect = f"{row['same_as']}: {_support_row(row['same_as'])['effect']}"
        cost_text = f"perk of {row['who']}, free once a scene (no Action)"
        _ally_in_reach(option, ally_zone, cell_list(row["ally_range"]), steps, section)
    else:
        section = "Helping Each Other: Support Actions"
        row = _support_row(option)
        pool, cost, effect = row["stress_pool"], row["stress_cost"], row["effect"]
        _ally_in_reach(option, ally_zone, cell_list(row["ally_range"]), steps, section)
    steps.insert(0, step(f"{option} uses the {cost_text}" if option not in perk_names() else
                         f"{option}: the {cost_text}", DATA.rule(section), option=option))
    if cost:
        steps.append(step(f"It also costs you {cost} {pool} Stress", DATA.rule(section),
                          stress=cost, pool=pool))
    steps.append(step(f"Effect: {effect}", DATA.rule(section)))
    return Spend(value=cost, outcome=option, trace=tuple(steps), option=option, state=new,
                 uses=uses, stress_pool=pool, effect=effect)


def _ally_in_reach(option: str, ally_zone: str | None, reach: tuple[str, ...], steps: list,
                   section: str) -> None:
    """Check that the ally is in one of the zones *reach* lists (none listed: any zone)."""
    if not reach:
        return
    if ally_zone is None:
        raise RulesError(f"ally_zone is needed for {option} (the ally must be "
                         f"{' or '.join(reach)}), got None")
    _choice("ally_zone", ally_zone, ZONES)
    if ally_zone not in reach:
        raise RulesError(f"ally_zone must be {' or '.join(reach)} for {option}, got {ally_zone}")
    steps.append(step(f"The ally is {ally_zone}: within reach ({' or '.join(reach)})",
                      DATA.rule(section)))


def turn_order(names: Iterable[str]) -> tuple[str, ...]:
    """The order the GM calls: any order of distinct, non-empty names (no initiative roll)."""
    return _turn_order(names, "names")


def _turn_order(names: object, param: str) -> tuple[str, ...]:
    """turn_order, its messages naming the caller's input *param*."""
    if isinstance(names, (str, bytes, dict)) or not isinstance(names, Iterable):
        raise RulesError(f"{param} must be a list of combatants, got {shown(names)}")
    order = tuple(names)
    if not order:
        raise RulesError(f"{param} must list at least one combatant, got none")
    for n in order:
        if not isinstance(n, str) or not n.strip():
            raise RulesError(f"{param} must hold only non-empty names, got {shown(n)}")
    if len(order) > MAX_COMBATANTS:
        raise RulesError(f"{param} must list at most {MAX_COMBATANTS} combatants, got "
                         f"{len(order)}")
    cleaned = tuple(n.strip() for n in order)
    long = [n for n in cleaned if len(n) > saved.NAME_LENGTH]
    if long:
        raise RulesError(f"{param} must hold names of at most {saved.NAME_LENGTH} characters, "
                         f"got one of {len(long[0])}")
    repeated = sorted({n for n in cleaned if cleaned.count(n) > 1})
    if repeated:
        raise RulesError(f"{param} must not repeat, got {', '.join(repeated)} twice")
    return cleaned


@dataclass(frozen=True)
class Encounter:
    """A fight in progress: the GM's order, the round, whose turn it is and what each has used."""

    order: tuple[str, ...]
    round: int = 1
    current: int = 0
    states: tuple[TurnState, ...] = ()
    log: tuple[str, ...] = ()

    @property
    def acting(self) -> str:
        return self.order[self.current]

    def state(self, name: str) -> TurnState:
        return self.states[self.order.index(name)]


def new_encounter(order: Iterable[str]) -> Encounter:
    """Start round 1 with the GM's order; the first name acts."""
    names = _turn_order(order, "order")
    return Encounter(names, 1, 0, tuple(TurnState() for _ in names),
                     (f"Round 1: {names[0]} acts",))


def _check_encounter(enc: object) -> Encounter:
    """*enc* if it is an Encounter whose fields hold together (one built by hand included)."""
    if not isinstance(enc, Encounter):
        raise RulesError(f"enc must be an Encounter (see new_encounter), got {shown(enc)}")
    for field in ("order", "states", "log"):
        if not isinstance(getattr(enc, field), tuple):
            raise RulesError(f"enc.{field} must be a tuple, got {shown(getattr(enc, field))}")
    order = _turn_order(enc.order, "enc.order")
    if order != enc.order:
        raise RulesError(f"enc.order must hold names without surrounding spaces, got "
                         f"{shown(enc.order)}")
    require_int("enc.round", enc.round, minimum=1, maximum=MAX_ROUND)
    require_int("enc.current", enc.current, minimum=0, maximum=len(order) - 1)
    states = require_list("enc.states", enc.states, "turn states", max_length=len(order))
    if len(states) != len(order):
        raise RulesError(f"enc.states must hold one TurnState a combatant ({len(order)}), "
                         f"got {len(states)}")
    for state in states:
        _check_state(state, "enc.states")
    for line in require_list("enc.log", enc.log, "log lines", max_length=MAX_ENCOUNTER_LOG):
        require_text("enc.log", line, max_length=MAX_LINE)
    return enc


@dataclass(frozen=True, kw_only=True)
class EncounterStep(Resolution):
    """One thing done in an encounter: the encounter after it and what it cost."""

    encounter: Encounter


def take(enc: Encounter, who: str, option: str, *, ally_zone: str | None = None) -> EncounterStep:
    """*who* spends *option*. Action and Movement (and the Steward's once-a-scene perk) only on
    their own turn; a Reaction (or Soak the Hit) at any time, once a round."""
    _check_encounter(enc)
    _choice("who", who, enc.order)
    uses = uses_of(option)
    if who != enc.acting and uses != ("reaction",):
        raise RulesError(f"who must be {enc.acting} for {option} (it is {enc.acting}'s turn); "
                         f"{who} can only use a Reaction now")
    spent = spend(enc.state(who), option, ally_zone=ally_zone)
    i = enc.order.index(who)
    states = enc.states[:i] + (spent.state,) + enc.states[i + 1:]
    line = f"Round {enc.round}: {who} — {option}" + (
        f" (+{spent.value} {spent.stress_pool} Stress)" if spent.value else "")
    after = replace(enc, states=states, log=enc.log + (line,))
    return EncounterStep(value=spent.value, outcome=option, trace=spent.trace, encounter=after)


def next_turn(enc: Encounter) -> Encounter:
    """Pass to the next name in the GM's order (a new round after the last); that combatant's
    Action, Movement and Reaction are fresh."""
    _check_encounter(enc)
    nxt = enc.current + 1
    rnd = enc.round
    if nxt >= len(enc.order):
        nxt, rnd = 0, rnd + 1
    states = list(enc.states)
    states[nxt] = start_turn(states[nxt])
    who = enc.order[nxt]
    return Encounter(enc.order, rnd, nxt, tuple(states), enc.log + (f"Round {rnd}: {who} acts",))


def set_order(enc: Encounter, order: Iterable[str]) -> Encounter:
    """The GM re-calls the order (same combatants, any order); it takes effect from the next
    round, and what each has used carries over."""
    _check_encounter(enc)
    names = _turn_order(order, "order")
    if sorted(names) != sorted(enc.order):
        raise RulesError(f"order must name the same combatants ({', '.join(enc.order)}), "
                         f"got {', '.join(names)}")
    states = tuple(enc.state(n) for n in names)
    return Encounter(names, enc.round, names.index(enc.acting), states,
                     enc.log + (f"Round {enc.round}: the GM calls {', '.join(names)}",))


# --- The Ready loadout ----------------------------------------------------------------------

@dataclass(frozen=True)
class Loadout:
    """Ready gear (at most three pieces by default), what is worn, consumables, and the rest."""

    ready: tuple[str, ...] = ()
    stowed: tuple[str, ...] = ()
    worn: tuple[str, ...] = ()
    consumables: tuple[str, ...] = ()
    ready_limit: int = READY_LIMIT


def _names(name: str, items: object) -> tuple[str, ...]:
    for item in require_list(name, items, "item names", max_length=MAX_ITEMS):
        if not isinstance(item, str) or not item.strip():
            raise RulesError(f"{name} must hold non-empty item names, got {shown(item)}")
        if len(item) > saved.NAME_LENGTH:
            raise RulesError(f"{name} must hold names of at most {saved.NAME_LENGTH} "
                             f"characters, got {len(item)}")
    return tuple(i.strip() for i in items)  # type: ignore[attr-defined]


def make_loadout(ready: Sequence[str] = (), stowed: Sequence[str] = (),
                 worn: Sequence[str] = (), consumables: Sequence[str] = (), *,
                 ready_limit: int = READY_LIMIT) -> Loadout:
    """A loadout; worn gear and consumables never count against the Ready limit (three)."""
    require_int("ready_limit", ready_limit, minimum=1, maximum=MAX_ITEMS)
    r = _names("ready", ready)
    if len(r) > ready_limit:
        raise RulesError(f"ready must hold at most {ready_limit} pieces, got {len(r)}")
    return Loadout(r, _names("stowed", stowed), _names("worn", worn),
                   _names("consumables", consumables), ready_limit)


@dataclass(frozen=True, kw_only=True)
class ReadyChange(Resolution):
    """Bringing a Stowed item to Ready: ``outcome`` is the cost ("Action" or "free")."""

    loadout: Loadout
    cost: str


def ready_item(loadout: Loadout, item: str, *, in_scene: bool = True,
               stow: str | None = None) -> ReadyChange:
    """Bring a Stowed *item* to Ready: an Action mid-scene, free in downtime. With Ready full,
    name a piece to *stow* in exchange."""
    if not isinstance(loadout, Loadout):
        raise RulesError(f"loadout must be a Loadout, got {shown(loadout)}")
    for field in ("ready", "stowed", "worn", "consumables"):
        if not isinstance(getattr(loadout, field), tuple):
            raise RulesError(f"loadout.{field} must be a tuple, got "
                             f"{shown(getattr(loadout, field))}")
    try:  # a Loadout built by hand is held to make_loadout's rules
        make_loadout(loadout.ready, loadout.stowed, loadout.worn, loadout.consumables,
                     ready_limit=loadout.ready_limit)
    except RulesError as exc:
        raise RulesError(f"loadout: {exc}") from None
    require_text("item", item, max_length=saved.NAME_LENGTH)
    if stow is not None:
        require_text("stow", stow, max_length=saved.NAME_LENGTH)
    if not isinstance(in_scene, bool):
        raise RulesError(f"in_scene must be True or False, got {shown(in_scene)}")
    if item not in loadout.stowed:
        raise RulesError(f"item must be a Stowed item ({', '.join(loadout.stowed) or 'none'}), "
                         f"got {shown(item)}")
    ready = loadout.ready
    stowed = tuple(s for s in loadout.stowed if s != item)
    if stow is not None:
        if stow not in ready:
            raise RulesError(f"stow must be a Ready item ({', '.join(ready) or 'none'}), "
                             f"got {shown(stow)}")
        ready = tuple(r for r in ready if r != stow)
        stowed = stowed + (stow,)
    if len(ready) >= loadout.ready_limit:
        raise RulesError(f"stow must name a Ready piece to put away: Ready already holds "
                         f"{len(ready)} of {loadout.ready_limit}")
    cost = "Action" if in_scene else "free"
    new = replace(loadout, ready=ready + (item,), stowed=stowed)
    steps = (step(f"{item}: Stowed → Ready"
                  + (f" ({stow} goes to Stowed)" if stow else ""), DATA.rule("Your Ready Loadout")),
             step("Mid-scene this costs an Action" if in_scene else "In downtime this is free",
                  DATA.rule("Your Ready Loadout")))
    return ReadyChange(value=len(new.ready), outcome=cost, trace=steps, loadout=new, cost=cost)


# --- Saving a board -------------------------------------------------------------------------

_PARTS = ("action", "movement", "reaction", "steward")
BOARD_FORMAT = "rulebook/tsl-board"
MAX_ROUND = 100_000  # a hundred thousand rounds is past any fight; 10**30 is a forged file
MAX_LOG = 200        # a saved board keeps its latest log lines
MAX_LINE = 4000      # a log line, in characters (a re-call lists every name)


@functools.cache
def board_format() -> saved.SavedFormat:
    """The turn board's saved file, field by field (see :mod:`rulescore.saved`). A file without
    the format and version fields is read as this format too."""
    name = saved.Text(saved.NAME_LENGTH, blank=False)
    return saved.SavedFormat("TSL turn board", BOARD_FORMAT, 1, legacy=True, body=saved.Record({
        "order": saved.ListOf(name, MAX_COMBATANTS, min_items=1),
        "round": saved.Int(1, MAX_ROUND), "acting": name,
        "used": saved.MapOf(name, saved.ListOf(saved.Text(10, _PARTS), len(_PARTS)),
                            MAX_COMBATANTS),
        "log": saved.ListOf(saved.Text(MAX_LINE), MAX_LOG)}, optional=frozenset({"log"})))


def encounter_to_dict(enc: Encounter) -> dict:
    """The encounter as plain data (JSON-ready), to save and load later; the log keeps its
    latest lines."""
    _check_encounter(enc)
    return {"format": BOARD_FORMAT, "version": 1, "order": list(enc.order),
            "round": enc.round, "acting": enc.acting,
            "used": {n: [p for p in _PARTS if enc.state(n).used(p)] for n in enc.order},
            "log": [line[:MAX_LINE] for line in enc.log[-MAX_LOG:]]}


def encounter_from_dict(data: object) -> Encounter:
    """An encounter from :func:`encounter_to_dict`'s data; a RulesError names *data* and the
    bad field ("data: TSL turn board: round must be …")."""
    try:
        return _board(data)
    except RulesError as exc:
        raise RulesError(f"data: {exc}") from None


def encounter_from_json(text: str) -> Encounter:
    """A board saved as JSON text (a download or the browser's autosave). A RulesError names
    the file's field as the reader finds it ("TSL turn board: round must be …"): the tools show
    it under the upload, where a parameter's name would mean nothing."""
    return _board(saved.parse_json(text, board_format().noun))


def _board(data: object) -> Encounter:
    """The encounter a saved board holds; every message starts with the board's noun."""
    fmt = board_format()
    body = saved.check(fmt, data)
    try:
        order = _turn_order(body["order"], "order")
        if body["acting"] not in order:
            raise RulesError(f"acting must be one of {', '.join(order)}, got "
                             f"{saved.shown(body['acting'])}")
        strangers = [n for n in body["used"] if n not in order]
        if strangers:
            raise RulesError(f"used must name only combatants of the order, got "
                             f"{saved.shown(strangers[0])}")
    except RulesError as exc:
        raise RulesError(f"{fmt.noun}: {exc}") from None
    used = body["used"]
    states = tuple(TurnState(*(p in used.get(name, ()) for p in _PARTS)) for name in order)
    return Encounter(order, body["round"], order.index(body["acting"]), states,
                     tuple(body.get("log", ())))
