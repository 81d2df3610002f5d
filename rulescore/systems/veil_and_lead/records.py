"""The Veil & Lead's data tables turned into typed records (weapons, armour, actions,
conditions, cover, the weapon-by-range grid, grievous wounds), with the checks that belong to
this system: types of cells, a complete weapon-by-range grid, tables that must agree with the
seed's formulas. A bad cell raises a :class:`TableError` naming the table, the row and the cell.

Records are cached by data folder, so a test that points :data:`DATA` at an edited copy
(``with DATA.using(copy):``) reads the copy afresh.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ...errors import TableError, shown
from ...tables import Table
from ._system import DATA

BANDS = ("Point-Blank", "Close", "Near", "Far", "Extreme")
RANGE_CLASSES = ("pistol", "shotgun", "rifle", "scoped rifle")
PENALTY_ON = ("all", "physical", "melee", "ranged", "sight", "mental", "initiative", "limb",
              "movement", "none")
TEMPO_RULES = ("fixed", "base", "varies")
EXPOSURES = ("tempo", "exempt", "always", "none", "varies")
ATTACKS = ("ranged", "melee", "any", "grapple", "none")
WEAPON_USE = ("used", "on_arrival", "none")


def _cell(t: Table, i: int, row: Any, column: str, kind: type | tuple[type, ...]) -> Any:
    value = row[column]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        value_ok = False
    else:
        value_ok = isinstance(value, kinds)
    if not value_ok:
        names = " or ".join(k.__name__ for k in kinds)
        raise TableError(f"table '{t.name}' row {i}: {column} must be {names}, got {value!r}")
    return value


def _choice(t: Table, i: int, row: Any, column: str, allowed: tuple[str, ...]) -> str:
    value = _cell(t, i, row, column, str)
    if value not in allowed:
        raise TableError(f"table '{t.name}' row {i}: {column} must be one of "
                         f"{', '.join(allowed)}, got {value!r}")
    return value


def _pick(kind: str, value: object, found: dict) -> Any:
    """The record *value* names in *found*; a TableError listing the choices if none."""
    if not isinstance(value, str) or value not in found:
        raise TableError(f"{kind} must be one of {', '.join(found)}, got {shown(value)}")
    return found[value]


def settings(file: str, name: str) -> dict[str, int]:
    """A ``setting``/``value`` table as a dict of whole numbers."""
    t = DATA.table(file, name)
    out = {}
    for i, row in enumerate(t, start=1):
        key = _cell(t, i, row, "setting", str)
        if key in out and name != "cylinder":
            raise TableError(f"table '{name}' row {i}: setting {key!r} appears twice")
        out[key] = _cell(t, i, row, "value", int)
    return out


# --- records -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Weapon:
    """A weapon: its class, melee or ranged, its range class, base tempo and Weapon Rating."""

    name: str
    weapon_class: str
    kind: str
    range_class: str
    base_tempo: int
    wr: int
    wr_source: str
    two_handed: bool
    scatter: bool
    light: bool


@dataclass(frozen=True)
class Armour:
    """Armour: its Armor Rating, Hardened quality and modifiers."""

    name: str
    ar: int
    hardened: bool
    defense_modifier: int
    quick_timing_modifier: int
    notes: str


@dataclass(frozen=True)
class Action:
    """An action and how its tempo, exposure and attack penalties work."""

    name: str
    category: str
    section: str
    tempo_rule: str
    tempo: int
    tempo_min: int
    tempo_max: int
    exposure: str
    printed: str
    attack: str
    pool_penalty: int
    step_modifier: int
    description: str
    weapon: str = "none"  # "used", "on_arrival" (only with a melee attack at the end) or "none"


@dataclass(frozen=True)
class Condition:
    """A combat condition (or state) and the numbers it changes."""

    name: str
    section: str
    trigger: str
    effect: str
    clear: str
    pool_penalty: int
    penalty_on: str
    tn_melee: int
    tn_ranged: int
    ranged_roll_bonus: int


@dataclass(frozen=True)
class RangeModifier:
    """What a range band does to an attack with a weapon of one range class."""

    range_class: str
    band: str
    tn_modifier: int
    roll_modifier: int
    allowed: bool


@dataclass(frozen=True)
class GrievousWound:
    """A row of the grievous wound table."""

    roll: str
    wound: str
    effect: str
    treatment: str
    treatment_tn: int
    pool_penalty: int
    penalty_on: str
    bleeding_out: bool
    recovery_days: int = 0  # days still needed after a successful Medicine check


# --- loaders (cached by data folder, so a test's copy is read afresh) ----------------------------

def _weapon_classes() -> dict[str, tuple[int, int | None]]:
    """Base tempo range of each weapon class: "2–3" → (2, 3), "3" → (3, 3), "7+" → (7, None)."""
    t = DATA.table("equipment", "weapon_classes")
    out: dict[str, tuple[int, int | None]] = {}
    for i, r in enumerate(t, start=1):
        text = _cell(t, i, r, "base_tempo", str).replace("-", "–")
        try:
            if text.endswith("+"):
                out[r["weapon_class"]] = (int(text[:-1]), None)
            else:
                low, _, high = text.partition("–")
                out[r["weapon_class"]] = (int(low), int(high or low))
        except ValueError:
            raise TableError(f"table 'weapon_classes' row {i}: base_tempo must read like 3, "
                             f"2–3 or 7+, got {text!r}") from None
    return out


@lru_cache(maxsize=None)
def _weapons(folder: Path) -> dict[str, Weapon]:
    t = DATA.table("equipment", "weapons")
    classes = _weapon_classes()
    out = {}
    for i, r in enumerate(t, start=1):
        w = Weapon(_cell(t, i, r, "weapon", str), _cell(t, i, r, "weapon_class", str),
                   _choice(t, i, r, "kind", ("melee", "ranged")),
                   _choice(t, i, r, "range_class", ("melee",) + RANGE_CLASSES),
                   _cell(t, i, r, "base_tempo", int), _cell(t, i, r, "wr", int),
                   _choice(t, i, r, "wr_source", ("seed", "assumed")),
                   _cell(t, i, r, "two_handed", bool), _cell(t, i, r, "scatter", bool),
                   _cell(t, i, r, "light", bool))
        if w.base_tempo < 1 or w.wr < 0:
            raise TableError(f"table 'weapons' row {i}: base_tempo must be 1 or more and wr 0 "
                             f"or more, got {w.base_tempo} and {w.wr}")
        low, high = classes.get(w.weapon_class, (None, None))
        if low is None:
            raise TableError(f"table 'weapons' row {i}: weapon_class {w.weapon_class!r} is not "
                             f"in the table 'weapon_classes'")
        if w.base_tempo < low or (high is not None and w.base_tempo > high):
            raise TableError(f"table 'weapons' row {i}: {w.name}'s base tempo {w.base_tempo} is "
                             f"outside its class {w.weapon_class} ({low}"
                             f"{'+' if high is None else '–' + str(high)})")
        if (w.kind == "melee") != (w.range_class == "melee"):
            raise TableError(f"table 'weapons' row {i}: a {w.kind} weapon cannot have range "
                             f"class {w.range_class!r}")
        out[w.name] = w
    return out


def weapons() -> dict[str, Weapon]:
    """Every weapon of the seed, by name (§III Weapon Base Tempos, §VIII WR reference)."""
    return _weapons(DATA.folder)


def find_weapon(name: str, *, param: str = "weapon") -> Weapon:
    """The weapon called *name*; a RulesError naming *param* and listing the weapons if there
    is none."""
    return _pick(param, name, weapons())


@lru_cache(maxsize=None)
def _armours(folder: Path) -> dict[str, Armour]:
    t = DATA.table("equipment", "armour")
    out = {}
    for i, r in enumerate(t, start=1):
        a = Armour(_cell(t, i, r, "armour", str), _cell(t, i, r, "ar", int),
                   _cell(t, i, r, "hardened", bool), _cell(t, i, r, "defense_modifier", int),
                   _cell(t, i, r, "quick_timing_modifier", int), _cell(t, i, r, "notes", str))
        if a.ar < 0:
            raise TableError(f"table 'armour' row {i}: ar must be 0 or more, got {a.ar}")
        out[a.name] = a
    return out


def find_armour(name: str, *, param: str = "armour") -> Armour:
    """The armour called *name* (§VIII Armor Rating Reference)."""
    return _pick(param, name, _armours(DATA.folder))


def armours() -> dict[str, Armour]:
    """Every armour of the seed, by name (§VIII Armor Rating Reference)."""
    return _armours(DATA.folder)


@lru_cache(maxsize=None)
def _actions(folder: Path) -> dict[str, Action]:
    t = DATA.table("actions", "actions")
    out = {}
    for i, r in enumerate(t, start=1):
        a = Action(_cell(t, i, r, "action", str), _cell(t, i, r, "category", str),
                   _cell(t, i, r, "section", str), _choice(t, i, r, "tempo_rule", TEMPO_RULES),
                   _cell(t, i, r, "tempo", int), _cell(t, i, r, "tempo_min", int),
                   _cell(t, i, r, "tempo_max", int), _choice(t, i, r, "exposure", EXPOSURES),
                   _choice(t, i, r, "printed", ("yes", "no", "light", "varies")),
                   _choice(t, i, r, "attack", ATTACKS), _cell(t, i, r, "pool_penalty", int),
                   _cell(t, i, r, "step_modifier", int), _cell(t, i, r, "description", str),
                   _choice(t, i, r, "weapon", WEAPON_USE))
        if a.tempo_rule == "fixed" and a.tempo < 0:
            raise TableError(f"table 'actions' row {i}: a fixed tempo must be 0 or more, "
                             f"got {a.tempo}")
        if a.tempo_rule == "varies" and not 0 <= a.tempo_min <= a.tempo_max:
            raise TableError(f"table 'actions' row {i}: tempo_min..tempo_max must be a range, "
                             f"got {a.tempo_min}..{a.tempo_max}")
        if a.pool_penalty < 0:
            raise TableError(f"table 'actions' row {i}: pool_penalty counts dice removed and "
                             f"must be 0 or more, got {a.pool_penalty}")
        out[a.name] = a
    return out


def actions() -> dict[str, Action]:
    """Every action, by name."""
    return _actions(DATA.folder)


def find_action(name: str, *, param: str = "action") -> Action:
    """The action called *name* (§III Tempo & Actions, §V Movement Actions)."""
    return _pick(param, name, actions())


@lru_cache(maxsize=None)
def called_locations() -> tuple[str, ...]:
    """The body locations a Called Shot may aim at, in the table's order (§III Called Shot)."""
    return tuple(r["location"] for r in DATA.table("conditions", "called_shots"))


def _conditions(folder: Path) -> dict[str, Condition]:
    t = DATA.table("conditions", "conditions")
    out = {}
    for i, r in enumerate(t, start=1):
        c = Condition(_cell(t, i, r, "condition", str), _cell(t, i, r, "section", str),
                      _cell(t, i, r, "trigger", str), _cell(t, i, r, "effect", str),
                      _cell(t, i, r, "clear", str), _cell(t, i, r, "pool_penalty", int),
                      _choice(t, i, r, "penalty_on", PENALTY_ON), _cell(t, i, r, "tn_melee", int),
                      _cell(t, i, r, "tn_ranged", int), _cell(t, i, r, "ranged_roll_bonus", int))
        if c.pool_penalty < 0:
            raise TableError(f"table 'conditions' row {i}: pool_penalty must be 0 or more, "
                             f"got {c.pool_penalty}")
        out[c.name] = c
    return out


def conditions() -> dict[str, Condition]:
    """Every condition and state the engine knows, by name."""
    return _conditions(DATA.folder)


def find_condition(name: str, *, param: str = "condition") -> Condition:
    """The condition or state called *name* (§XI Combat Conditions and others)."""
    return _pick(param, name, conditions())


@lru_cache(maxsize=None)
def _range_grid(folder: Path) -> dict[tuple[str, str], RangeModifier]:
    t = DATA.table("ranges", "range_modifiers")
    out = {}
    for i, r in enumerate(t, start=1):
        m = RangeModifier(_choice(t, i, r, "range_class", RANGE_CLASSES),
                          _choice(t, i, r, "band", BANDS), _cell(t, i, r, "tn_modifier", int),
                          _cell(t, i, r, "roll_modifier", int), _cell(t, i, r, "allowed", bool))
        key = (m.range_class, m.band)
        if key in out:
            raise TableError(f"table 'range_modifiers' row {i}: {m.range_class} at {m.band} "
                             "appears twice")
        out[key] = m
    missing = [f"{c} at {b}" for c in RANGE_CLASSES for b in BANDS if (c, b) not in out]
    if missing:
        raise TableError(f"table 'range_modifiers' lacks {', '.join(missing)}")
    bands = [r["band"] for r in DATA.table("ranges", "range_bands")]
    if tuple(bands) != BANDS:
        raise TableError(f"table 'range_bands' must list {', '.join(BANDS)} in order, got {bands}")
    return out


def range_modifier(range_class: str, band: str) -> RangeModifier:
    """TN and roll modifiers of a range class (pistol, shotgun, rifle, scoped rifle) at a band
    (§V Range and Weapons; our reading of the printed grid: assumption range_table_reading)."""
    grid = _range_grid(DATA.folder)
    _pick("band", band, dict.fromkeys(BANDS))
    _pick("range_class", range_class, dict.fromkeys(RANGE_CLASSES))
    return grid[(range_class, band)]


@lru_cache(maxsize=None)
def _cover(folder: Path) -> dict[str, tuple[int, bool]]:
    t = DATA.table("ranges", "cover")
    return {_cell(t, i, r, "cover", str): (_cell(t, i, r, "tn_modifier", int),
                                           _cell(t, i, r, "targetable", bool))
            for i, r in enumerate(t, start=1)}


def find_cover(name: str, *, param: str = "cover") -> tuple[int, bool]:
    """(TN modifier, can be targeted) for a kind of cover."""
    return _pick(param, name, _cover(DATA.folder))


def cover_names() -> tuple[str, ...]:
    """The kinds of cover, in the order of the seed's table (§V Cover)."""
    return tuple(_cover(DATA.folder))


@lru_cache(maxsize=None)
def _grievous(folder: Path) -> Table:
    t = DATA.table("injury", "grievous_wounds")
    for i, r in enumerate(t, start=1):
        _cell(t, i, r, "pool_penalty", int)
        if _cell(t, i, r, "recovery_days", int) < 0:
            raise TableError(f"table 'grievous_wounds' row {i}: recovery_days must be 0 or more, "
                             f"got {r['recovery_days']}")
        if _cell(t, i, r, "treatment_tn", int) < 0:
            raise TableError(f"table 'grievous_wounds' row {i}: treatment_tn must be 0 or more, "
                             f"got {r['treatment_tn']}")
        _choice(t, i, r, "penalty_on", PENALTY_ON)
        _cell(t, i, r, "bleeding_out", bool)
    return t


def grievous_row(roll: int) -> GrievousWound:
    r = _grievous(DATA.folder).lookup(roll)
    return GrievousWound(str(r.span), r["wound"], r["effect"], r["treatment"],
                         r["treatment_tn"], r["pool_penalty"], r["penalty_on"],
                         r["bleeding_out"], r["recovery_days"])


def treatable_wounds() -> tuple[str, ...]:
    """The Grievous Wounds a Medicine check treats, in the table's order (§IX table: a wound
    whose treatment TN is 0 needs rest or a stabilisation instead)."""
    return tuple(r["wound"] for r in _grievous(DATA.folder) if r["treatment_tn"])


def grievous_by_name(wound: str) -> GrievousWound:
    """The grievous wound called *wound*; a RulesError naming the wounds if there is none."""
    t = _grievous(DATA.folder)
    row = _pick("wound", wound, {r["wound"]: r for r in t})
    return grievous_row(row.span.low)


@lru_cache(maxsize=None)
def _checked_formula_tables(folder: Path) -> bool:
    """The printed death-threshold and stabilisation tables agree with their formulas."""
    death = DATA.table("injury", "death_threshold")
    for i, r in enumerate(death, start=1):
        iron = _cell(death, i, r, "iron", int)
        if _cell(death, i, r, "death_at", int) != -(iron + 2):
            raise TableError(f"table 'death_threshold' row {i}: IRON {iron} must die at "
                             f"{-(iron + 2)} (−(IRON + 2)), got {r['death_at']}")
    base = settings("injury", "stabilization_rules")["base_tn"]
    stab = DATA.table("injury", "stabilization")
    for i, r in enumerate(stab, start=1):
        vit = _cell(stab, i, r, "vitality", int)
        if _cell(stab, i, r, "tn", int) != base + max(0, -vit):
            raise TableError(f"table 'stabilization' row {i}: Vitality {vit} must have TN "
                             f"{base + max(0, -vit)}, got {r['tn']}")
    return True


def check_formula_tables() -> bool:
    return _checked_formula_tables(DATA.folder)


# --- public lookups: a name not in the table is refused naming ``name`` ---------------------------

def weapon(name: str) -> Weapon:
    """The weapon called *name* (§III Weapon Base Tempos, §VIII WR reference)."""
    return find_weapon(name, param="name")


def armour(name: str) -> Armour:
    """The armour called *name* (§VIII Armor Rating Reference)."""
    return find_armour(name, param="name")


def action(name: str) -> Action:
    """The action called *name* (§III Tempo & Actions, §V Movement Actions)."""
    return find_action(name, param="name")


def condition(name: str) -> Condition:
    """The condition or state called *name* (§XI Combat Conditions and others)."""
    return find_condition(name, param="name")


def cover(name: str) -> tuple[int, bool]:
    """(TN modifier, can be targeted) for the cover called *name* (§V Cover)."""
    return find_cover(name, param="name")
