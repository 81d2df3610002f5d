"""Data tables: every printed table of a seed lives once in a TOML file and is validated on load.

A file holds one or more tables, each a TOML table of its own::

    [hit_bands]
    title = "Hit bands"
    source = "§Hit rolls"             # the seed section the table comes from (required)
    columns = ["total", "result"]     # every row must have exactly these (required)
    range_column = "total"            # optional: a column of ranges, looked up by a number
    covers = [1, ".."]                # optional: the ranges must cover exactly this span
    [hit_bands.shown_as]              # optional: how a printed cell reads a special value
    result = { "miss" = "no hit" }    # (the engine still reads the value itself)
    [hit_bands.headings]              # optional: a printed column's heading, where the
    total = "Total (2d10)"            # column's name read as words would not say it
    [[hit_bands.rows]]
    total = "..4"                     # ranges: 7, "1-5", "3..8", "17..", "..0"
    result = "miss"

Ranges may not overlap or leave gaps; with ``covers`` they must span it exactly (an open end
is written ``".."``). The engine reads tables through :func:`load_tables`; the book renders
them from the same objects, so text and engine cannot disagree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator, Mapping

import tomllib

try:
    import rtoml
except ImportError:  # no compiled wheel (e.g. Python in the browser): the standard library's
    rtoml = None     # parser reads the same files, only slower

from .errors import TableError, shown

_RANGE = re.compile(r"^\s*(-?\d+)?\s*\.\.\s*(-?\d+)?\s*$")
_DASH = re.compile(r"^\s*(\d+)\s*[-–]\s*(\d+)\s*$")


@dataclass(frozen=True)
class Span:
    """An inclusive range of whole numbers; ``None`` marks an open end."""

    low: int | None
    high: int | None

    def __contains__(self, n: int) -> bool:
        return (self.low is None or n >= self.low) and (self.high is None or n <= self.high)

    def __str__(self) -> str:
        if self.low is not None and self.low == self.high:
            return str(self.low)
        if self.low is None:
            return f"{self.high} or less"
        if self.high is None:
            return f"{self.low}+"
        return f"{self.low}–{self.high}"


def parse_span(value: Any, where: str) -> Span:
    """Read a range cell: an int, ``"a-b"``, ``"a..b"``, ``"a.."`` or ``"..b"``."""
    if isinstance(value, int) and not isinstance(value, bool):
        return Span(value, value)
    if isinstance(value, str):
        m = _DASH.match(value) or _RANGE.match(value)
        if m and (m.group(1) or m.group(2)):
            low = int(m.group(1)) if m.group(1) else None
            high = int(m.group(2)) if m.group(2) else None
            if low is not None and high is not None and low > high:
                raise TableError(f"{where}: range '{value}' runs backwards")
            return Span(low, high)
    raise TableError(f"{where}: '{value}' is not a range (use 7, '1-5', '3..8', '17..' or '..0')")


@dataclass(frozen=True)
class Row:
    """One row of a table; cells are read by column name (``row["result"]``)."""

    cells: tuple[tuple[str, Any], ...]
    span: Span | None = None

    def __getitem__(self, column: str) -> Any:
        for key, val in self.cells:
            if key == column:
                return val
        raise KeyError(column)

    def get(self, column: str, default: Any = None) -> Any:
        try:
            return self[column]
        except KeyError:
            return default

    def as_dict(self) -> dict[str, Any]:
        return dict(self.cells)


@dataclass(frozen=True)
class Table:
    """A validated table: its rows, its source section and (optionally) its range column."""

    name: str
    title: str
    source: str
    columns: tuple[str, ...]
    rows: tuple[Row, ...]
    range_column: str | None = None
    shown_as: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    headings: tuple[tuple[str, str], ...] = ()

    def __iter__(self) -> Iterator[Row]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def lookup(self, n: int) -> Row:
        """The row whose range holds *n*; a RulesError if the table has no such row."""
        if self.range_column is None:
            raise TableError(f"table '{self.name}' has no range column to look up {n} in")
        if isinstance(n, bool) or not isinstance(n, int):
            raise TableError(f"{self.range_column} must be a whole number to look up in "
                             f"'{self.title}', got {shown(n)}")
        for row in self.rows:
            if row.span is not None and n in row.span:
                return row
        spans = ", ".join(str(r.span) for r in self.rows)
        raise TableError(f"{self.range_column} {shown(n)} is not on the table '{self.title}' "
                         f"(its rows cover {spans})")

    def find(self, column: str, value: Any) -> Row:
        """The first row whose *column* equals *value*; a RulesError naming the choices if none."""
        for row in self.rows:
            if row.get(column) == value:
                return row
        choices = ", ".join(repr(r.get(column)) for r in self.rows)
        raise TableError(f"{column} must be one of {choices}, got {shown(value)}")

    def heading(self, column: str) -> str | None:
        """The printed heading the data gives *column* (its ``headings``), or None."""
        return dict(self.headings).get(column)

    def words(self, column: str, value: Any) -> str:
        """*value* of *column* as a printed cell reads it: its ``shown_as`` words, if any."""
        return dict(dict(self.shown_as).get(column, ())).get(str(value), str(value))

    def display_rows(self) -> list[dict[str, str]]:
        """Rows as strings for printing, the range column shown as a readable range and a
        special value as its ``shown_as`` words (e.g. an impairment of -1 as "unusable")."""
        out = []
        for row in self.rows:
            cells = {k: ("" if v is None else self.words(k, v)) for k, v in row.cells}
            if self.range_column and row.span is not None:
                cells[self.range_column] = str(row.span)
            out.append(cells)
        return out


def _check_coverage(name: str, spans: list[Span], covers: Span | None) -> None:
    """No overlaps, no gaps, and (if given) exactly the span *covers*."""
    ordered = sorted(spans, key=lambda s: float("-inf") if s.low is None else s.low)
    for a, b in zip(ordered, ordered[1:]):
        if a.high is None or b.low is None or b.low <= a.high:
            raise TableError(f"table '{name}': ranges {a} and {b} overlap")
        if b.low != a.high + 1:
            raise TableError(f"table '{name}': gap between {a} and {b} "
                             f"({a.high + 1} is on no row)")
    if covers is not None and ordered:
        if ordered[0].low != covers.low or ordered[-1].high != covers.high:
            have = Span(ordered[0].low, ordered[-1].high)
            raise TableError(f"table '{name}': ranges cover {have}, must cover {covers}")


def _build(name: str, spec: Mapping[str, Any]) -> Table:
    for key in ("source", "columns", "rows"):
        if key not in spec:
            raise TableError(f"table '{name}' is missing '{key}'")
    if not isinstance(spec["columns"], list) or not spec["columns"] or \
            not all(isinstance(c, str) for c in spec["columns"]):
        raise TableError(f"table '{name}': columns must be a list of column names, "
                         f"got {spec['columns']!r}")
    if not isinstance(spec["rows"], list) or not all(isinstance(r, dict) for r in spec["rows"]):
        raise TableError(f"table '{name}': rows must be written as [[{name}.rows]] tables")
    columns = tuple(spec["columns"])
    range_column = spec.get("range_column")
    if range_column is not None and range_column not in columns:
        raise TableError(f"table '{name}': range_column '{range_column}' is not a column")
    rows = []
    for i, raw in enumerate(spec["rows"], start=1):
        missing = [c for c in columns if c not in raw]
        extra = [c for c in raw if c not in columns]
        if missing or extra:
            problems = ([f"missing columns {missing}"] if missing else []) + \
                       ([f"unknown columns {extra}"] if extra else [])
            raise TableError(f"table '{name}' row {i}: {', '.join(problems)} "
                             f"(the columns are {list(columns)})")
        span = parse_span(raw[range_column], f"table '{name}' row {i}") if range_column else None
        rows.append(Row(tuple((c, raw[c]) for c in columns), span))
    if not rows:
        raise TableError(f"table '{name}' has no rows")
    if range_column:
        covers = spec.get("covers")
        cover_span = None
        if covers is not None:
            if not isinstance(covers, list) or len(covers) != 2 or not all(
                    v == ".." or (isinstance(v, int) and not isinstance(v, bool)) for v in covers):
                raise TableError(f"table '{name}': covers must be [low, high] (whole numbers, "
                                 f"'..' for an open end), got {covers!r}")
            low, high = (None if v == ".." else v for v in covers)
            cover_span = Span(low, high)
        _check_coverage(name, [r.span for r in rows if r.span is not None], cover_span)
    return Table(name, spec.get("title", name), spec["source"], columns, tuple(rows),
                 range_column, _shown_as(name, spec.get("shown_as", {}), columns),
                 _headings(name, spec.get("headings", {}), columns))


def _shown_as(name: str, spec: Any, columns: tuple[str, ...]
              ) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """A table's ``shown_as``: for some columns, the words a printed cell shows for a value."""
    if not isinstance(spec, dict) or not all(
            isinstance(texts, dict) and all(isinstance(t, str) for t in texts.values())
            for texts in spec.values()):
        raise TableError(f"table '{name}': shown_as must map a column to {{value = words}}, "
                         f"got {spec!r}")
    _only_columns(name, "shown_as", spec, columns)
    return tuple((c, tuple(texts.items())) for c, texts in spec.items())


def _headings(name: str, spec: Any, columns: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """A table's ``headings``: for some columns, the heading a printed table gives them."""
    if not isinstance(spec, dict) or not all(isinstance(h, str) and h.strip()
                                             for h in spec.values()):
        raise TableError(f"table '{name}': headings must map a column to its heading text, "
                         f"got {spec!r}")
    _only_columns(name, "headings", spec, columns)
    return tuple(spec.items())


def _only_columns(name: str, key: str, spec: dict, columns: tuple[str, ...]) -> None:
    """Refuse a table's *key* (``shown_as``, ``headings``) that names a column it lacks."""
    unknown = [c for c in spec if c not in columns]
    if unknown:
        raise TableError(f"table '{name}': {key} names {unknown}, which are not columns "
                         f"(the columns are {list(columns)})")


def read_toml(text: str, origin: str = "<text>") -> dict[str, Any]:
    """The data of a TOML text; a TableError naming *origin* if it is not valid TOML.

    rtoml (compiled) parses our data files about eight times faster than the standard
    library's tomllib, and every kernel of the live book parses some on its first table.
    Where rtoml cannot be installed (Python in the browser has no compiled wheel of it),
    tomllib reads the same files to the same data."""
    if rtoml is None:
        return _read_tomllib(text, origin)
    try:
        return rtoml.loads(text)
    except rtoml.TomlParsingError as exc:
        raise TableError(f"{origin} is not valid TOML: {exc}") from None


def _read_tomllib(text: str, origin: str) -> dict[str, Any]:
    """The standard library's reading of a TOML text, refused the same way as rtoml's."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TableError(f"{origin} is not valid TOML: {exc}") from None


def parse_tables(text: str, origin: str = "<text>") -> dict[str, Table]:
    """Parse and validate every table in a TOML text."""
    data = read_toml(text, origin)
    return {name: _build(name, spec) for name, spec in data.items() if isinstance(spec, dict)}


@lru_cache(maxsize=None)
def load_tables(path: Path) -> dict[str, Table]:
    """Load and validate every table of a TOML file (cached by path)."""
    return parse_tables(Path(path).read_text(encoding="utf-8"), str(path))

