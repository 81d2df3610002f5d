"""The percentile system's own checks on its data tables, beyond the generic ones of
:mod:`rulescore.tables` (ranges, columns, a source section): a complete melee matrix, rising
Base Range multiples, known shades and aspects, one row per success level. :data:`DATA` runs
them the first time a file is read, so a malformed file fails before the engine uses it."""

from __future__ import annotations

from rulescore.errors import TableError
from rulescore.tables import Table

from .terms import ASPECTS, DEFENCES, LEVELS, SHADES

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


_BY_NAME = {
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


def check_table(t: Table) -> None:
    """Run this system's own checks on table *t*, if it has any (a TableError if it fails)."""
    check = _BY_NAME.get(t.name)
    if check is None and t.name.startswith("locations_"):
        check = _check_locations
    if check is not None:
        check(t)
