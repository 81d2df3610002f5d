"""Saved files: each format declared once, field by field, and checked by one function.

A reader's saved state (an injury record, an encounter, a turn board) comes back from a file
they upload or from their browser's autosave, and either may have been edited by hand or by
someone else. :func:`read` is the only door: it parses the text with :func:`parse_json`
(refusing oversize text, deep nesting and huge numbers before they cost anything), then
:func:`check` compares the data with the format's declaration and raises a :class:`RulesError`
naming the first wrong field as a reader finds it in the file, e.g.
``injury record: injuries[2].treatment must be one of 'CF', 'F', 'S', 'CS', got '<img …'``.
List positions in those paths count from 1, as the tools number rows.

A declaration is plain data built from :class:`Int`, :class:`Flag`, :class:`Text`,
:class:`Maybe`, :class:`ListOf`, :class:`Pair`, :class:`Record` and :class:`MapOf`; the
property tests build hostile files from the same declarations, so a new field is covered
without a new test. What one field cannot say (an index that must point into another list,
names that must be distinct) the format's own reader checks after :func:`read`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Union

from .errors import RulesError

MAX_BYTES = 1_000_000
"""The largest saved file, in bytes (UTF-8); real ones are a few kilobytes."""
MAX_DEPTH = 16
"""The deepest nesting of lists and objects a saved file may have (ours need 7)."""
MAX_DIGITS = 15
"""The longest number, in digits, a saved file may hold."""
NAME_LENGTH = 60
"""The longest name of a character or fighter, in characters."""
SHOWN = 40
"""How much of a wrong value a message quotes."""


@dataclass(frozen=True)
class Int:
    """A whole number from *minimum* to *maximum* (true and false are not numbers)."""

    minimum: int
    maximum: int


@dataclass(frozen=True)
class Flag:
    """true or false."""


@dataclass(frozen=True)
class Text:
    """Text of at most *max_length* characters; *choices* lists the only words allowed;
    *blank* says whether empty (or all-space) text is allowed."""

    max_length: int
    choices: tuple[str, ...] | None = None
    blank: bool = True


@dataclass(frozen=True)
class Maybe:
    """*inner*, or null."""

    inner: Spec


@dataclass(frozen=True)
class ListOf:
    """A list of *item*, with *min_items* to *max_items* entries."""

    item: Spec
    max_items: int
    min_items: int = 0


@dataclass(frozen=True)
class Pair:
    """A list of exactly two entries, *first* and *second*; *names* says what each means."""

    first: Spec
    second: Spec
    names: tuple[str, str]


@dataclass(frozen=True)
class Record:
    """An object with exactly these *fields* (name → spec); those in *optional* may be left
    out. Any other field is refused: a misspelt field would otherwise be dropped silently."""

    fields: dict[str, Spec]
    optional: frozenset[str] = field(default_factory=frozenset)


@dataclass(frozen=True)
class MapOf:
    """An object whose keys are *key* texts and whose values are *value*, at most
    *max_items* of them."""

    key: Text
    value: Spec
    max_items: int


Spec = Union[Int, Flag, Text, Maybe, ListOf, Pair, Record, MapOf]


@dataclass(frozen=True)
class SavedFormat:
    """One kind of saved file: what a reader calls it (*noun*, "injury record"), its format
    name and version as written in the file, and its *body*. When *envelope* names a field,
    the file is ``{"format", "version", envelope: body}`` and paths start inside the body;
    otherwise the body's fields sit beside format and version. *legacy* allows a file
    without format and version (boards saved before they carried one)."""

    noun: str
    name: str
    version: int
    body: Record
    envelope: str | None = None
    legacy: bool = False

    def article(self) -> str:
        return ("an " if self.noun[0] in "aeiou" else "a ") + self.noun


def shown(value: object) -> str:
    """A wrong value as a message quotes it: short, in the file's own words."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value if len(value) <= SHOWN else value[:SHOWN] + "…")
    if isinstance(value, (int, float)):
        try:
            text = str(value)
        except ValueError:  # an int past Python's 4,300-digit limit for str()
            return "a number of more than 4300 digits"
        return text if len(text) <= SHOWN else f"a number {len(text)} digits long"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _at(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _refuse(path: str, what: str, value: object) -> RulesError:
    return RulesError(f"{path or 'the file'} must be {what}, got {shown(value)}")


def _choices(words: tuple[str, ...]) -> str:
    listed = ", ".join(map(repr, words[:24]))
    return listed + (f" (or {len(words) - 24} more)" if len(words) > 24 else "")


def check_field(spec: Spec, value: object, path: str) -> None:
    """Raise a RulesError naming *path* when *value* does not fit *spec*."""
    if isinstance(spec, Maybe):
        if value is not None:
            check_field(spec.inner, value, path)
    elif isinstance(spec, Int):
        wanted = f"a whole number from {spec.minimum} to {spec.maximum}"
        if isinstance(value, bool) or not isinstance(value, int):
            raise _refuse(path, wanted, value)
        if not spec.minimum <= value <= spec.maximum:
            raise _refuse(path, wanted, value)
    elif isinstance(spec, Flag):
        if not isinstance(value, bool):
            raise _refuse(path, "true or false", value)
    elif isinstance(spec, Text):
        if not isinstance(value, str):
            raise _refuse(path, "text", value)
        if spec.choices is not None and value not in spec.choices:
            raise _refuse(path, f"one of {_choices(spec.choices)}", value)
        if len(value) > spec.max_length:
            raise RulesError(f"{path} must be at most {spec.max_length} characters long, "
                             f"got {len(value)}")
        if not spec.blank and not value.strip():
            raise _refuse(path, "a non-empty text", value)
        if not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as exc:
                # A lone surrogate parses, but no page can be sent text holding one.
                raise RulesError(f"{path} must be text, got a broken character at "
                                 f"position {exc.start + 1}") from None
    elif isinstance(spec, ListOf):
        if not isinstance(value, list):
            raise _refuse(path, "a list", value)
        if not spec.min_items <= len(value) <= spec.max_items:
            many = (f"from {spec.min_items} to {spec.max_items}" if spec.min_items
                    else f"at most {spec.max_items}")
            raise RulesError(f"{path} must hold {many} entries, got {len(value)}")
        for i, item in enumerate(value, start=1):
            check_field(spec.item, item, f"{path}[{i}]")
    elif isinstance(spec, Pair):
        if not isinstance(value, list) or len(value) != 2:
            raise _refuse(path, f"a list of two: {spec.names[0]} and {spec.names[1]}", value)
        check_field(spec.first, value[0], f"{path}[1]")
        check_field(spec.second, value[1], f"{path}[2]")
    elif isinstance(spec, MapOf):
        if not isinstance(value, dict):
            raise _refuse(path, "an object", value)
        if len(value) > spec.max_items:
            raise RulesError(f"{path} must hold at most {spec.max_items} entries, "
                             f"got {len(value)}")
        for key, item in value.items():
            check_field(spec.key, key, f"{path} key")
            check_field(spec.value, item, f"{path}[{key!r}]")
    elif isinstance(spec, Record):
        _check_record(spec, value, path)
    else:  # pragma: no cover - a declaration with a kind this module does not know
        raise TypeError(f"unknown field kind {spec!r}")


def _check_record(spec: Record, value: object, path: str) -> None:
    if not isinstance(value, dict):
        raise _refuse(path, "an object", value)
    unknown = [k for k in value if k not in spec.fields]
    if unknown:
        raise RulesError(f"{path or 'the file'} has a field this book does not know: "
                         f"{shown(unknown[0])} (it knows {', '.join(spec.fields)})")
    for key, inner in spec.fields.items():
        if key in value:
            check_field(inner, value[key], _at(path, key))
        elif key not in spec.optional:
            raise RulesError(f"{path or 'the file'} is missing the field {key!r}")


def check(fmt: SavedFormat, data: object) -> dict:
    """Check parsed JSON *data* against *fmt*; return its body (the object holding the
    reader's fields). Every refusal is a RulesError starting with the format's noun."""
    try:
        if not isinstance(data, dict):
            raise RulesError(f"the file is not {fmt.article()} file: it holds {shown(data)}, "
                             "not an object")
        if fmt.legacy and "format" not in data and "version" not in data:
            data = {"format": fmt.name, "version": fmt.version, **data}
        if data.get("format") != fmt.name:
            raise RulesError(f"the file is not {fmt.article()} file: its format is "
                             f"{shown(data.get('format'))}, expected {fmt.name!r}")
        if data.get("version") != fmt.version:
            raise RulesError(f"the file is version {shown(data.get('version'))}; this book "
                             f"reads version {fmt.version}")
        top = {k: v for k, v in data.items() if k not in ("format", "version")}
        body: object = top
        if fmt.envelope is not None:
            extra = [k for k in top if k != fmt.envelope]
            if extra:
                raise RulesError(f"the file has a field this book does not know: "
                                 f"{shown(extra[0])}")
            if fmt.envelope not in top:
                raise RulesError(f"the file is missing the field {fmt.envelope!r}")
            body = top[fmt.envelope]
            if not isinstance(body, dict):
                raise _refuse(fmt.envelope, "an object", body)
        _check_record(fmt.body, body, "")
        return body  # type: ignore[return-value]
    except RulesError as exc:
        raise RulesError(f"{fmt.noun}: {exc}") from None


class _LongNumber(Exception):
    """A number too long to be ours, met while parsing (carries its digit count)."""


def _whole(digits: str) -> int:
    """json's reader of whole numbers, refusing long ones before Python converts them."""
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise _LongNumber(len(digits.lstrip("-")))
    return int(digits)


def _depth(data: object) -> int:
    """How deeply lists and objects nest in *data*, found without recursion."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, depth)
            stack.extend((x, depth + 1) for x in (item.values() if isinstance(item, dict)
                                                  else item))
    return deepest


def megabytes(size: int) -> str:
    """A size in MB as a reader reads it, rounded up to a tenth ("3.2 MB", "1 MB"): a file
    just over the limit never reads as the limit itself."""
    tenths = -(-size // 100_000)
    return (f"{tenths // 10}" if tenths % 10 == 0 else f"{tenths / 10:.1f}") + " MB"


_NESTING_TOKENS = re.compile(r'\\.|["\[\]{}]', re.S)


def _nests_deeper_than(text: str, limit: int) -> bool:
    """Whether *text* opens more than *limit* brackets at once (outside strings), read
    before parsing: json's C reader recurses once a level, and in WebAssembly the stack runs
    out before Python's recursion limit is reached, ending the whole interpreter."""
    depth, in_string = 0, False
    for match in _NESTING_TOKENS.finditer(text):
        token = match.group()
        if token == '"':
            in_string = not in_string
        elif in_string or token[0] == "\\":
            continue
        elif token in "[{":
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def parse_json(text: object, noun: str) -> object:
    """Parse saved *text*; refuse, naming the *noun*, text that is too large, nested too
    deeply, holds a number too long to be ours, or is not JSON."""
    if not isinstance(text, str):
        raise RulesError(f"{noun}: the file must be text, got {type(text).__name__}")
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_BYTES:
        raise RulesError(f"{noun}: the file is {megabytes(size)}; a saved {noun} is at most "
                         f"{megabytes(MAX_BYTES)}")
    deep = (f"{noun}: the file is nested more than {MAX_DEPTH} levels deep; a saved {noun} "
            "is never that deep")
    if _nests_deeper_than(text, MAX_DEPTH):
        raise RulesError(deep)
    try:
        data = json.loads(text, parse_int=_whole)
    except RecursionError:
        # json's C reader recurses once a level: a file nested thousands deep ends here.
        raise RulesError(deep) from None
    except _LongNumber as exc:
        raise RulesError(f"{noun}: the file holds a number {exc.args[0]} digits long; "
                         f"numbers in a saved {noun} have at most {MAX_DIGITS} digits"
                         ) from None
    except json.JSONDecodeError as exc:
        raise RulesError(f"{noun}: the file is not JSON ({exc.msg} at line {exc.lineno}, "
                         f"column {exc.colno})") from None
    if _depth(data) > MAX_DEPTH:
        raise RulesError(deep)
    return data


def read(fmt: SavedFormat, text: object) -> dict:
    """Parse and check a saved file of format *fmt*; return its body (see :func:`check`)."""
    return check(fmt, parse_json(text, fmt.noun))
