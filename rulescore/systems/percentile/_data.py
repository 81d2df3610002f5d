"""Where the percentile system's tables come from, and the checks they pass on load.

Every table lives once in ``data/*.toml``. :func:`table` loads a file through the shared
validated loader (ranges without gaps or overlaps, required columns, a source section) and
then runs this system's own checks on it, so a malformed file fails the first time the engine
reads it. Tests may point :data:`DATA_DIR` at an edited copy to see the engine follow the data.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ...errors import TableError
from ...tables import Table, load_tables, system_data_dir
from ...trace import RuleRef

SYSTEM = "percentile"
DATA_DIR: Path | None = None  # None: the package's own data folder

LEVELS = ("CF", "F", "S", "CS")
SHADES = ("none", "white", "grey", "black")
ASPECTS = ("B", "E", "P", "F")
DEFENCES = ("Block", "Counterstrike", "Dodge", "Ignore")
SHOCK_STATES = (None, "STN", "INC", "UNC", "KIA")  # mildest first
MAX_DIE = 100  # the largest die the seed rolls (d100): a bound on zone and impact dice
MAX_ZONE_DICE = 6  # one Zone Die plus five Precision TAs, beyond any victory's TAs
MAX_TYPED_DICE = 40  # dice typed for one walker; a whole shot or strike uses fewer than 10


def ref(section: str) -> RuleRef:
    """A rule reference into the percentile seed."""
    return RuleRef(SYSTEM, section)


@lru_cache(maxsize=1)
def _package_data() -> Path:
    return system_data_dir(SYSTEM)


def data_dir() -> Path:
    """The folder the tables are read from (the package's, unless DATA_DIR points elsewhere)."""
    return Path(DATA_DIR) if DATA_DIR is not None else _package_data()


def table(file: str, name: str) -> Table:
    """The validated table *name* of ``data/<file>`` (checked once per file path)."""
    return _checked(data_dir() / file)[name]


def setting(file: str, name: str, rule: str) -> int | str:
    """The value of a one-number rule held in a ``rule``/``value`` table (column names vary)."""
    t = table(file, name)
    key = t.columns[0]
    return t.find(key, rule)["value"]


@lru_cache(maxsize=None)
def _checked(path: Path) -> dict[str, Table]:
    tables = load_tables(path)
    for name, t in tables.items():
        check = _CHECKS.get(name)
        if check is None and name.startswith("locations_"):
            check = _check_locations
        if check is not None:
            check(t)
    return tables


def _fail(t: Table, message: str) -> None:
    raise TableError(f"table '{t.name}': {message}")


def _check_matrix(t: Table) -> None:
    seen = set()
    for row in t:
        key = (row["defence"], row["attack"], row["defend"])
        if key in seen:
            _fail(t, f"the cell {key} appears twice")
        seen.add(key)
        if row["defence"] not in DEFENCES or row["attack"] not in LEVELS:
            _fail(t, f"unknown defence or level in {key}")
        if row["winner"] not in ("attacker", "defender", "neither", "tie"):
            _fail(t, f"winner must be attacker, defender, neither or tie, got {row['winner']!r}")
        if not isinstance(row["stars"], int) or row["stars"] < 0:
            _fail(t, f"stars must be a whole number 0 or more in {key}")
        if (row["winner"] in ("attacker", "defender", "tie")) != (row["stars"] > 0):
            _fail(t, f"a victory needs stars and no victory has none, in {key}")
        if row["attacker_mishap"] != (row["attack"] == "CF") or \
                row["defender_mishap"] != (row["defend"] == "CF"):
            _fail(t, f"mishaps must mark exactly the CF tests, in {key}")
    wanted = {(d, a, b) for d in DEFENCES[:3] for a in LEVELS for b in LEVELS} | \
        {("Ignore", a, "none") for a in LEVELS}
    if seen != wanted:
        _fail(t, f"cells missing: {sorted(wanted - seen)}; unexpected: {sorted(seen - wanted)}")


def _check_range(t: Table) -> None:
    last = 0
    for row in t:
        num, den = row["br_numerator"], row["br_denominator"]
        if not (isinstance(num, int) and isinstance(den, int) and num > 0 and den > 0):
            _fail(t, f"{row['attack_type']}: the Base Range multiple must be positive")
        if num / den <= last:
            _fail(t, "the Base Range multiples must rise row by row")
        last = num / den
        if not isinstance(row["zone_die"], int) or row["zone_die"] < 1:
            _fail(t, f"{row['attack_type']}: zone_die must be a number of sides")
        if row["charge_impact"] != "" and not isinstance(row["charge_impact"], int):
            _fail(t, f"{row['attack_type']}: charge_impact must be a number or \"\"")


def _check_locations(t: Table) -> None:
    for row in t:
        if row["bleeding"] not in SHADES or row["amputation"] not in SHADES:
            _fail(t, f"{row['location']}: shades must be one of {SHADES}")
        if not isinstance(row["location_shock"], int) or row["location_shock"] < 0:
            _fail(t, f"{row['location']}: location_shock must be a whole number 0 or more")


def _check_bleeding(t: Table) -> None:
    if sorted(r["shade"] for r in t) != sorted(SHADES):
        _fail(t, f"needs one row per shade {SHADES}")
    for row in t:
        for col in ("S3", "G4", "G5"):
            if not set(row[col]) <= set(ASPECTS):
                _fail(t, f"{row['shade']}/{col}: aspects must be letters of {''.join(ASPECTS)}")


def _check_levels(t: Table) -> None:
    if [r["level"] for r in t] != list(LEVELS):
        _fail(t, f"needs one row per success level in the order {LEVELS}")


_CHECKS = {
    "melee_matrix": _check_matrix,
    "missile_range": _check_range,
    "bleeding": _check_bleeding,
    "shock_roll": _check_levels,
    "shock_reroll": _check_levels,
    "amputation_results": _check_levels,
    "direct_missile_results": _check_levels,
    "volley_missile_results": _check_levels,
    "success_levels": _check_levels,
}
