"""A roster: the fighters of one system's fight, entered once and read by every tool.

Each system declares what a fighter carries as a :class:`RosterFormat` (its ``ROSTER``): one
:class:`Column` per number, menu or switch, with the reader's label and what is allowed. A
:class:`Roster` is a frozen list of :class:`Fighter` rows of that format; every change returns a
new roster, so a page can undo it. Every refusal is a :class:`RulesError` naming the field by
its label and the fighter by name ("Vitality of Bo must be a whole number from 1 to 30, got 0").

A saved roster is one JSON file, declared field by field from the format (:attr:`RosterFormat.declaration`)
and read through :func:`rulescore.saved.read`; names must also be distinct, and a roster of
another system is refused naming both.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Protocol, Union

from . import saved
from .errors import RulesError

__all__ = ["Column", "RosterFormat", "Fighter", "Roster", "Row", "FILE_FORMAT", "FILE_VERSION"]

Value = Union[int, str, bool]
FieldSpec = Union[saved.Int, saved.Text, saved.Flag]

FILE_FORMAT = "rulebook roster"
"""The format name written in every saved roster, whatever its system."""
FILE_VERSION = 1
NOUN = "roster"
RESERVED = ("name", "pc")
"""Keys every fighter has besides the format's columns."""
NAME_LABEL, PC_LABEL = "Name", "PC"
_NUMBERED = re.compile(r"^(.*\S) (\d{1,4})$")


def _kind_of(spec: object) -> type:
    return {saved.Int: int, saved.Text: str, saved.Flag: bool}[type(spec)]


@dataclass(frozen=True)
class Column:
    """One field of a fighter: *key* in the saved file, *label* in every header and message,
    *spec* what is allowed (``Text(choices=…)`` is a menu), *default* for a new fighter,
    *group* the heading it sits under, *help* its one-line tooltip."""

    key: str
    label: str
    spec: FieldSpec
    default: Value
    group: str = ""
    help: str = ""

    def __post_init__(self) -> None:
        if not self.key.isidentifier() or self.key in RESERVED:
            raise RulesError(f"a roster column's key must be a word other than name and pc, "
                             f"got {saved.shown(self.key)}")
        if not isinstance(self.spec, (saved.Int, saved.Text, saved.Flag)):
            raise RulesError(f"column {self.label}: a field is a whole number, a text or a "
                             f"flag, got {type(self.spec).__name__}")
        if not self.label.strip():
            raise RulesError(f"column {self.key} needs a label")
        self.check(self.default, "the default")

    def check(self, value: object, fighter: str) -> None:
        """Refuse *value* for *fighter* ("Vitality of Bo must be …") unless the column allows it."""
        saved.check_field(self.spec, value, f"{self.label} of {fighter}")


class Row(Protocol):
    """What a system's fight reads of a roster row (a :class:`Fighter` is one): its name, PC
    or NPC, and its values by column key."""

    name: str
    pc: bool

    def __getitem__(self, key: str) -> Any: ...


@dataclass(frozen=True)
class Fighter:
    """One row of a roster: a name, PC or not, and the column values in column order."""

    name: str
    pc: bool
    values: tuple[tuple[str, Value], ...]

    def __getitem__(self, key: str) -> Value:
        """The value of column *key* ("name" and "pc" too); RulesError for an unknown key."""
        if key == "name":
            return self.name
        if key == "pc":
            return self.pc
        for k, v in self.values:
            if k == key:
                return v
        raise RulesError(f"{self.name} has no field {saved.shown(key)} "
                         f"(the fields are {', '.join(k for k, _ in self.values)})")

    def as_dict(self) -> dict[str, Value]:
        """The column values by key (not the name or PC)."""
        return dict(self.values)


def _check_name(name: object, where: str = NAME_LABEL) -> str:
    """A fighter's name, trimmed: text, not blank, at most NAME_LENGTH characters."""
    if not isinstance(name, str):
        raise RulesError(f"{where} must be text, got {saved.shown(name)}")
    saved.check_field(saved.Text(saved.NAME_LENGTH), name.strip(), where)
    if not name.strip():
        raise RulesError(f"{where} must not be blank: type the fighter's name")
    return name.strip()


@dataclass(frozen=True)
class RosterFormat:
    """What a fighter of *system* carries: its *columns*; a roster holds at most
    *max_fighters*. *title* is the system's name as a reader reads it (in messages about a
    file of another system)."""

    system: str
    columns: tuple[Column, ...]
    max_fighters: int = 60
    title: str = ""

    def __post_init__(self) -> None:
        keys = [c.key for c in self.columns]
        labels = [c.label for c in self.columns]
        if len(set(keys)) != len(keys) or len(set(labels)) != len(labels):
            raise RulesError(f"the {self.system} roster's columns must have distinct keys "
                             "and labels")
        if not 1 <= self.max_fighters <= 1000:
            raise RulesError(f"a roster holds from 1 to 1000 fighters, got {self.max_fighters}")

    @property
    def name(self) -> str:
        """The system as a reader reads it ("Veil & Lead" when the format gives a title)."""
        return self.title or self.system.replace("_", " ")

    def column(self, key: str) -> Column:
        """The column *key*; a RulesError listing the format's keys otherwise."""
        for c in self.columns:
            if c.key == key:
                return c
        raise RulesError(f"a {self.name} fighter has no field {saved.shown(key)} "
                         f"(the fields are {', '.join(c.key for c in self.columns)})")

    def blank(self, name: str, *, pc: bool = False) -> Fighter:
        """A fighter called *name* with every column at its default."""
        return Fighter(_check_name(name), bool(pc),
                       tuple((c.key, c.default) for c in self.columns))

    @cached_property
    def declaration(self) -> saved.SavedFormat:
        """The saved file's declaration, field by field (column fields may be left out: a
        file saved before a column was added loads with that column at its default)."""
        fighter = saved.Record(
            {"name": saved.Text(saved.NAME_LENGTH, blank=False), "pc": saved.Flag(),
             **{c.key: c.spec for c in self.columns}},
            optional=frozenset(c.key for c in self.columns))
        body = saved.Record({"system": saved.Text(40, choices=(self.system,)),
                             "fighters": saved.ListOf(fighter, self.max_fighters)})
        return saved.SavedFormat(NOUN, FILE_FORMAT, FILE_VERSION, body)


@dataclass(frozen=True)
class Roster:
    """The fighters of one fight, in the order the reader entered them. Always valid: every
    change is checked and returns a new roster."""

    format: RosterFormat
    fighters: tuple[Fighter, ...] = field(default=())

    def __post_init__(self) -> None:
        if len(self.fighters) > self.format.max_fighters:
            raise RulesError(f"a roster holds at most {self.format.max_fighters} fighters, "
                             f"got {len(self.fighters)}")
        seen: set[str] = set()
        keys = tuple(c.key for c in self.format.columns)
        for f in self.fighters:
            _check_name(f.name)
            if f.name in seen:
                raise RulesError(f"{NAME_LABEL}: there is already a fighter called {f.name!r}")
            seen.add(f.name)
            if tuple(k for k, _ in f.values) != keys:
                raise RulesError(f"{f.name}'s fields must be those of a {self.format.name} "
                                 f"fighter ({', '.join(keys)})")
            for column, (_, value) in zip(self.format.columns, f.values):
                column.check(value, f.name)

    def __len__(self) -> int:
        return len(self.fighters)

    def names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fighters)

    def _index(self, name: str) -> int:
        for i, f in enumerate(self.fighters):
            if f.name == name:
                return i
        listed = ", ".join(self.names()) or "no one yet"
        raise RulesError(f"no fighter called {saved.shown(name)} in the roster "
                         f"(it has {listed})")

    def fighter(self, name: str) -> Fighter:
        """The fighter called *name*; a RulesError naming who is there otherwise."""
        return self.fighters[self._index(name)]

    def _replace(self, i: int, fighter: Fighter) -> Roster:
        return Roster(self.format, self.fighters[:i] + (fighter,) + self.fighters[i + 1:])

    def _with_values(self, fighter: Fighter, values: dict[str, object]) -> Fighter:
        """*fighter* with *values* set, each checked against its column."""
        for key in values:
            self.format.column(key)
        row = []
        for column, (key, old) in zip(self.format.columns, fighter.values):
            new = values.get(key, old)
            column.check(new, fighter.name)
            row.append((key, new))
        return Fighter(fighter.name, fighter.pc, tuple(row))

    def add(self, name: str, *, pc: bool = False, **values: object) -> Roster:
        """A roster with a new fighter *name* at the end; columns not given take their
        defaults, unknown ones are refused."""
        if len(self.fighters) >= self.format.max_fighters:
            raise RulesError(f"the roster is full: it holds at most "
                             f"{self.format.max_fighters} fighters")
        new = self._with_values(self.format.blank(name, pc=_flag(pc, name)), values)
        if new.name in self.names():
            raise RulesError(f"{NAME_LABEL}: there is already a fighter called {new.name!r}; "
                             "give each fighter a name of their own")
        return Roster(self.format, self.fighters + (new,))

    def set(self, name: str, key: str, value: object) -> Roster:
        """A roster where fighter *name*'s field *key* ("pc" too) is *value*, checked."""
        return self.update(name, **{key: value})

    def update(self, name: str, **values: object) -> Roster:
        """A roster where fighter *name* has several fields changed at once (one step)."""
        i = self._index(name)
        fighter = self.fighters[i]
        if "name" in values:
            raise RulesError("a fighter's name changes with rename")
        if "pc" in values:
            fighter = Fighter(fighter.name, _flag(values.pop("pc"), fighter.name),
                              fighter.values)
        return self._replace(i, self._with_values(fighter, values))

    def rename(self, old: str, new: str) -> Roster:
        """A roster where fighter *old* is called *new* (distinct from every other name)."""
        i = self._index(old)
        name = _check_name(new, f"{NAME_LABEL} of {old}")
        if name != old and name in self.names():
            raise RulesError(f"{NAME_LABEL} of {old}: there is already a fighter called "
                             f"{name!r}")
        f = self.fighters[i]
        return self._replace(i, Fighter(name, f.pc, f.values))

    def remove(self, name: str) -> Roster:
        """A roster without fighter *name*."""
        i = self._index(name)
        return Roster(self.format, self.fighters[:i] + self.fighters[i + 1:])

    def duplicate(self, name: str, count: int = 1) -> Roster:
        """A roster with *count* copies of fighter *name* after the last of its group, numbered
        on from the highest number the name already has ("Bandit" → "Bandit 2", "Bandit 3")."""
        i = self._index(name)
        room = self.format.max_fighters - len(self.fighters)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise RulesError(f"How many copies of {name} must be a whole number from 1 to "
                             f"{max(room, 1)}, got {saved.shown(count)}")
        if count > room:
            raise RulesError(f"How many copies of {name}: the roster holds at most "
                             f"{self.format.max_fighters} fighters and has room for {room} "
                             f"more, got {count}")
        base = _base_name(name)
        pattern = re.compile(re.escape(base) + r" (\d{1,4})")
        used = [int(m.group(1)) for n in self.names() if (m := pattern.fullmatch(n))]
        start = max(used, default=1) + 1
        # The copies join the end of their group (Bandit, Bandit 2, …), so a group stays together.
        at = max(j for j, n in enumerate(self.names()) if n == base or pattern.fullmatch(n)
                 or j == i)
        original = self.fighters[i]
        copies = []
        for n in range(start, start + count):
            suffix = f" {n}"
            copies.append(Fighter(base[:saved.NAME_LENGTH - len(suffix)].rstrip() + suffix,
                                  original.pc, original.values))
        return Roster(self.format, self.fighters[:at + 1] + tuple(copies)
                      + self.fighters[at + 1:])

    def to_json(self) -> str:
        """The roster as a saved file (read back by :meth:`from_json`)."""
        return json.dumps({"format": FILE_FORMAT, "version": FILE_VERSION,
                           "system": self.format.system,
                           "fighters": [{"name": f.name, "pc": f.pc, **dict(f.values)}
                                        for f in self.fighters]},
                          indent=1, ensure_ascii=False)

    @classmethod
    def from_json(cls, fmt: RosterFormat, text: object) -> Roster:
        """Read a saved roster of *fmt*, field by field; refuse, with nothing built, a file
        of another system, a value its column does not allow, or two fighters of one name."""
        data = saved.parse_json(text, NOUN)
        _refuse_other_system(fmt, data)
        _check_values_by_label(fmt, data)
        body = saved.check(fmt.declaration, data)
        fighters = []
        names: dict[str, int] = {}
        for n, item in enumerate(body["fighters"], start=1):
            name = _check_name(item["name"], f"{NAME_LABEL} of fighter {n}")
            if name in names:
                raise RulesError(f"{NOUN}: two fighters are called {name!r} (fighters "
                                 f"{names[name]} and {n}); names must be distinct")
            names[name] = n
            fighters.append(Fighter(name, item["pc"], tuple(
                (c.key, item.get(c.key, c.default)) for c in fmt.columns)))
        try:
            return cls(fmt, tuple(fighters))
        except RulesError as exc:
            raise RulesError(f"{NOUN}: {exc}") from None


def _flag(value: object, fighter: str) -> bool:
    if not isinstance(value, bool):
        raise RulesError(f"{PC_LABEL} of {fighter} must be true or false, "
                         f"got {saved.shown(value)}")
    return value


def _base_name(name: str) -> str:
    """"Bandit 3" → "Bandit"; a name without a number is its own base."""
    m = _NUMBERED.fullmatch(name)
    return m.group(1) if m else name


def _refuse_other_system(fmt: RosterFormat, data: object) -> None:
    """A roster file of another system, refused naming both systems."""
    if isinstance(data, dict) and data.get("format") == FILE_FORMAT:
        other = data.get("system")
        if isinstance(other, str) and other != fmt.system:
            raise RulesError(f"{NOUN}: this file holds {saved.shown(other)} fighters; this "
                             f"page keeps {fmt.name} fighters ({fmt.system!r})")


def _check_values_by_label(fmt: RosterFormat, data: object) -> None:
    """Refuse a wrong column value in the reader's words ("Vitality of Bo must …") before
    the declaration's check, which names it by its place in the file."""
    fighters = data.get("fighters") if isinstance(data, dict) else None
    if not isinstance(fighters, list):
        return
    for n, item in enumerate(fighters[:fmt.max_fighters], start=1):
        if not isinstance(item, dict):
            continue
        name = item.get("name")
        who = (name.strip() if isinstance(name, str) and name.strip()
               and len(name) <= saved.NAME_LENGTH else f"fighter {n}")
        for column in fmt.columns:
            if column.key in item:
                try:
                    column.check(item[column.key], who)
                except RulesError as exc:
                    raise RulesError(f"{NOUN}: {exc}") from None
        if "pc" in item and not isinstance(item["pc"], bool):
            raise RulesError(f"{NOUN}: {PC_LABEL} of {who} must be true or false, "
                             f"got {saved.shown(item['pc'])}")
