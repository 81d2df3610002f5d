"""One package per seed system; each lists its public API in ``__all__``.

Every system is built the same way: its package holds ``_system.py``, which declares the one
:class:`SystemData` of the system (``DATA = SystemData("tsl")``), and every module of the
system reads its rule references, tables, assumptions and rules index through that object.
The registry (:func:`names`, :func:`system`, :func:`registry`) finds the systems from the
packages present, so tests, benchmarks and the book never keep a list of them by hand.
See ``docs/adding-a-system.md``.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator

from ..assumptions import Assumption, load_assumptions
from ..errors import RulesError, TableError, shown
from ..rules_index import RuleEntry, load_rules_index
from ..tables import Table, load_tables
from ..trace import RuleRef

__all__ = ["SystemData", "names", "system", "registry"]

#: The data folder a test has pointed a system at (see :meth:`SystemData.using`).
_OVERRIDES: dict[str, Path] = {}


@dataclass(frozen=True)
class SystemData:
    """Where one system's rules text and data live, and how its modules read them.

    *name* is the package name under ``rulescore/systems``. *section_prefix* starts every
    rule reference (TSL's combat rules are all in §11 of its primer, so its prefix is
    ``"11 "``). *check*, if given, is run on every table the first time its file is read from
    a folder: the system's own checks beyond the generic ones of :mod:`rulescore.tables`.
    """

    name: str
    section_prefix: str = ""
    check: Callable[[Table], None] | None = None

    @property
    def package_folder(self) -> Path:
        """The ``data`` folder beside the system's package."""
        return _package_folder(self.name)

    @property
    def folder(self) -> Path:
        """The folder the tables are read from: the package's, unless a test overrides it."""
        return _OVERRIDES.get(self.name) or self.package_folder

    @contextmanager
    def using(self, folder: Path | str) -> Iterator[Path]:
        """Read this system's data from *folder* (an edited copy) inside the ``with`` block.

        >>> import shutil
        >>> # shutil.copytree(DATA.folder, tmp / "data"); edit a file; then
        >>> # with DATA.using(tmp / "data"): ...the engine reads the copy...
        """
        path = Path(folder)
        if not path.is_dir():
            raise TableError(f"{self.name}: data folder {shown(str(path))} is not a folder")
        before = _OVERRIDES.get(self.name)
        _OVERRIDES[self.name] = path
        try:
            yield path
        finally:
            if before is None:
                _OVERRIDES.pop(self.name, None)
            else:
                _OVERRIDES[self.name] = before

    def rule(self, section: str, *rulings: str) -> RuleRef:
        """A reference to *section* of this system's rules text, citing the system's named
        assumptions *rulings* (ids) where the step rests on them (:meth:`RuleRef.citing`)."""
        ref = RuleRef(self.name, self.section_prefix + section)
        return ref.citing(*rulings) if rulings else ref

    def tables(self, file: str) -> dict[str, Table]:
        """Every table of ``data/<file>.toml``, validated (and checked by *check*) once."""
        return _tables_in(self.folder, file, self.check)

    def table(self, file: str, name: str) -> Table:
        """Table *name* of ``data/<file>.toml``; a TableError if the file has no such table."""
        found = self.tables(file)
        if name not in found:
            raise TableError(f"{file}.toml has no table {shown(name)} "
                             f"(its tables are {', '.join(found)})")
        return found[name]

    def setting(self, file: str, name: str, key: str) -> Any:
        """The ``value`` of row *key* of a key/value table (the key is the first column)."""
        t = self.table(file, name)
        return t.find(t.columns[0], key)["value"]

    def assumptions(self) -> tuple[Assumption, ...]:
        """The system's named assumptions (``data/assumptions.toml``)."""
        return load_assumptions(self.name, self.folder / "assumptions.toml")

    def rules_index(self) -> tuple[RuleEntry, ...]:
        """The system's rules index (``data/rules.toml``)."""
        return load_rules_index(self.name, self.folder / "rules.toml")


@lru_cache(maxsize=None)
def _package_folder(name: str) -> Path:
    spec = importlib.util.find_spec(f"{__name__}.{name}")
    if spec is None or not spec.submodule_search_locations:
        raise RulesError(f"system must be one of {', '.join(names())}, got {shown(name)}")
    return Path(next(iter(spec.submodule_search_locations))) / "data"


@lru_cache(maxsize=None)
def _tables_in(folder: Path, file: str, check: Callable[[Table], None] | None
               ) -> dict[str, Table]:
    """The tables of *file* in *folder*, remembered by folder and name: rules look tables up
    thousands of times an odds table, and joining the path each time cost more than the
    lookup."""
    return _checked(folder / f"{file}.toml", check)


@lru_cache(maxsize=None)
def _checked(path: Path, check: Callable[[Table], None] | None) -> dict[str, Table]:
    tables = load_tables(path)
    if check is not None:
        for t in tables.values():
            check(t)
    return tables


def names() -> tuple[str, ...]:
    """Every system: each package under ``rulescore/systems`` that declares ``_system.py``."""
    return tuple(sorted(
        m.name for m in pkgutil.iter_modules(__path__) if m.ispkg and
        (Path(getattr(m.module_finder, "path", "")) / m.name / "_system.py").is_file()))


def system(name: str) -> SystemData:
    """The :class:`SystemData` of the system *name*; a RulesError naming the systems if none."""
    if not isinstance(name, str) or name not in names():
        raise RulesError(f"system must be one of {', '.join(names())}, got {shown(name)}")
    data = importlib.import_module(f"{__name__}.{name}._system").DATA
    if not isinstance(data, SystemData) or data.name != name:
        raise TableError(f"{name}/_system.py must declare DATA = SystemData({name!r})")
    return data


def registry() -> dict[str, SystemData]:
    """Every system's :class:`SystemData`, by name."""
    return {name: system(name) for name in names()}
