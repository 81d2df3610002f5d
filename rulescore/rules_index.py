"""The rules index of a system: every section of its seed, and what implements and tests it.

``systems/<system>/data/rules.toml``::

    [[rule]]
    section = "Ranged attacks — difficulty"      # the seed section (its heading)
    summary = "4D at optimal range, +1D a band further"
    function = "shot_difficulty"                  # public name in rulescore.systems.<system>
    test = "tests/rulescore/test_range_bands.py::test_optimal_band_is_4d"

    [[rule]]
    section = "Vehicles"
    status = "out_of_scope"
    reason = "The seed refers to a vehicles chapter it does not contain."

A test (tests/rulescore/test_rules_index.py) checks every entry: the function exists, the test
exists, and only rules whose text the seed lacks are out of scope.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .errors import TableError
from .tables import read_toml


@dataclass(frozen=True)
class RuleEntry:
    system: str
    section: str
    summary: str
    function: str | None
    test: str | None
    status: str = "implemented"
    reason: str = ""


def load_rules_index(system: str, path: Path | None = None) -> tuple[RuleEntry, ...]:
    """The rules index of *system*; a TableError if an entry is malformed."""
    if path is None:
        from .systems import system as _system  # the registry imports this module
        path = _system(system).folder / "rules.toml"
    data = read_toml(path.read_text(encoding="utf-8"), path.name)
    entries = []
    for i, raw in enumerate(data.get("rule", []), start=1):
        status = raw.get("status", "implemented")
        if status not in ("implemented", "out_of_scope"):
            raise TableError(f"{path.name} rule {i}: status must be 'implemented' or "
                             f"'out_of_scope', got {status!r}")
        if "section" not in raw:
            raise TableError(f"{path.name} rule {i} has no section")
        if status == "implemented" and not (raw.get("function") and raw.get("test")):
            raise TableError(f"{path.name} rule {i} ({raw['section']}) needs function and test")
        if status == "out_of_scope" and not raw.get("reason"):
            raise TableError(f"{path.name} rule {i} ({raw['section']}) is out of scope "
                             "without a reason")
        entries.append(RuleEntry(system, raw["section"], raw.get("summary", ""),
                                 raw.get("function"), raw.get("test"), status,
                                 raw.get("reason", "")))
    return tuple(entries)
