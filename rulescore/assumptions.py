"""Named assumptions: where a seed is silent or ambiguous, we state our reading once.

Each system keeps its assumptions in ``systems/<system>/data/assumptions.toml``::

    [[assumption]]
    id = "nd_check"                      # unique within the system
    title = "How an nD check is rolled"
    seed_says = "Difficulties are given in dice (4D) but the roll itself is not described."
    ruling = "Roll that many d6; the check succeeds if ..."
    alternatives = ["...", "..."]        # what another table might rule
    option = "nd_rule"                   # the keyword argument that switches it (optional)
    control = "How nD is rolled"         # the labelled control that switches it in the tools
    tool = "every range-band check tool" # and where that control is (both optional, together)

The book prints them in each part's "Rulings and assumptions" chapter, from this data.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .errors import TableError
from .tables import read_toml


@dataclass(frozen=True)
class Assumption:
    """One named reading of a silent or ambiguous seed rule."""

    system: str
    id: str
    title: str
    seed_says: str
    ruling: str
    alternatives: tuple[str, ...] = ()
    option: str | None = None
    control: str | None = None
    tool: str | None = None

    @property
    def ref(self) -> str:
        return f"{self.system}:{self.id}"


_REQUIRED = ("id", "title", "seed_says", "ruling")


def load_assumptions(system: str, path: Path | None = None) -> tuple[Assumption, ...]:
    """Every assumption of *system* (from its data folder, or from *path*)."""
    if path is None:
        from .systems import system as _system  # the registry imports this module
        path = _system(system).folder / "assumptions.toml"
    return _load(system, Path(path))


@lru_cache(maxsize=None)
def _load(system: str, path: Path) -> tuple[Assumption, ...]:
    if not path.is_file():
        return ()
    data = read_toml(path.read_text(encoding="utf-8"), path.name)
    out = []
    for i, raw in enumerate(data.get("assumption", []), start=1):
        missing = [k for k in _REQUIRED if k not in raw]
        if missing:
            raise TableError(f"{path.name} assumption {i} is missing {', '.join(missing)}")
        if ("control" in raw) != ("tool" in raw) or ("control" in raw and "option" not in raw):
            raise TableError(f"{path.name} assumption {raw['id']}: control and tool go together, "
                             "with the option they switch")
        out.append(Assumption(system, raw["id"], raw["title"], raw["seed_says"], raw["ruling"],
                              tuple(raw.get("alternatives", ())), raw.get("option"),
                              raw.get("control"), raw.get("tool")))
    ids = [a.id for a in out]
    if len(ids) != len(set(ids)):
        raise TableError(f"{path.name}: assumption ids repeat: {ids}")
    return tuple(out)


def assumption(system: str, id: str) -> Assumption:
    """The assumption *id* of *system*; a TableError naming the known ids if there is none."""
    for a in load_assumptions(system):
        if a.id == id:
            return a
    known = ", ".join(a.id for a in load_assumptions(system)) or "none"
    raise TableError(f"{system} has no assumption '{id}' (known: {known})")
