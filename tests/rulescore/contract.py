"""The engine contract, checked call by call (DESIGN §3 "Errors are clear", issue 18 item 3).

Every public function of every system, called with one hostile argument at a time (the others
valid), must either return a result of its declared kind or raise a ``RulesError`` whose
message names the hostile parameter as the caller writes it. Nothing else may escape.

What counts as a public function: every name in a system package's ``__all__`` that is a
function (plain, ``functools`` wrapped or cached). Classes are left out: in ``rulescore`` they
are the frozen result and state records the functions return (``CheckResult``, ``Encounter``…),
built by the engine, not entry points a reader's input reaches. Constants are left out.

Used by ``tests/rulescore/test_engine_contract.py`` (quick run, assertions) and
``benchmarks/fuzz_engine.py`` (deep run, counts).
"""

from __future__ import annotations

import collections.abc as cabc
import copy
import dataclasses
import importlib
import inspect
import re
import signal
import threading
import time
import types
import typing
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

from hypothesis import strategies as st

import rulescore.systems
from rulescore.errors import RulesError
from rulescore.dice import DiceSource

#: A call slower than this is reported by the deep run (tests never assert timings).
SLOW_SECONDS = 2.0
#: A call is stopped after this long so a runaway input cannot hang the test suite.
GUARD_SECONDS = 10.0

_MISSING = inspect.Parameter.empty


# --- finding the functions ---------------------------------------------------------------------

@dataclass(frozen=True)
class Target:
    """One public function: ``system.name``, the callable, its parameters and declared types."""

    key: str
    system: str
    func: Callable[..., Any]
    params: tuple[inspect.Parameter, ...]
    hints: dict[str, Any]
    words: tuple[str, ...]   # the system's own words (band, tier, zone names…) to try as names

    @property
    def returns(self) -> Any:
        return self.hints.get("return", _MISSING)


def system_names() -> list[str]:
    """Every system the registry finds (:func:`rulescore.systems.names`)."""
    return list(rulescore.systems.names())


def _is_public_function(obj: object) -> bool:
    return callable(obj) and not isinstance(obj, type) and (
        inspect.isfunction(inspect.unwrap(obj)) or inspect.isbuiltin(obj))


def _system_words(module: types.ModuleType) -> tuple[str, ...]:
    words: set[str] = set()
    for name in module.__all__:
        value = getattr(module, name)
        if isinstance(value, (tuple, list, frozenset, set)):
            words.update(v for v in value if isinstance(v, str))
        elif isinstance(value, dict):
            words.update(k for k in value if isinstance(k, str))
    return tuple(sorted(words))


def _hints(func: Callable[..., Any]) -> dict[str, Any]:
    """The resolved annotations; a name that cannot be resolved stays unknown (not checked)."""
    try:
        return typing.get_type_hints(inspect.unwrap(func))
    except Exception:  # a forward reference to a name only imported for type checking
        return {}


def targets() -> list[Target]:
    """Every public function of every system, in a stable order."""
    found = []
    for system in system_names():
        module = importlib.import_module(f"rulescore.systems.{system}")
        words = _system_words(module)
        for name in module.__all__:
            obj = getattr(module, name)
            if not _is_public_function(obj):
                continue
            params = tuple(inspect.signature(obj).parameters.values())
            found.append(Target(f"{system}.{name}", system, obj, params, _hints(obj), words))
    return found


# --- the declared kind of a value ------------------------------------------------------------

def _origin_types(annotation: Any) -> tuple[type, ...] | None:
    """The classes a value of *annotation* may be an instance of; None when not checkable."""
    if annotation is _MISSING or annotation is Any or annotation is object:
        return None
    if annotation is None or annotation is type(None):
        return (type(None),)
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        found: list[type] = []
        for arg in typing.get_args(annotation):
            kinds = _origin_types(arg)
            if kinds is None:
                return None
            found.extend(kinds)
        return tuple(found)
    if origin is typing.Literal:
        return tuple({type(a) for a in typing.get_args(annotation)})
    if origin is not None:
        return (origin,) if isinstance(origin, type) else None
    if annotation is float:
        return (int, float, Fraction)
    return (annotation,) if isinstance(annotation, type) else None


def result_has_kind(result: object, annotation: Any) -> bool:
    """Loose check of a result against the return annotation: isinstance on the origin type."""
    kinds = _origin_types(annotation)
    return kinds is None or isinstance(result, kinds)


def value_fits(value: object, annotation: Any) -> bool:
    """Whether *value* is plainly of the declared parameter type (elements too, one level).

    A bool is not a whole number here, and a bare string is not a collection of names: the
    engine must refuse both where it wants a number or a collection.
    """
    if annotation is _MISSING or annotation is Any or annotation is object:
        return True
    if annotation is None or annotation is type(None):
        return value is None
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        return any(value_fits(value, a) for a in args)
    if annotation is bool:
        return isinstance(value, bool)
    if annotation is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if annotation is float:
        return isinstance(value, (int, float, Fraction)) and not isinstance(value, bool)
    if origin in (cabc.Mapping, dict, cabc.MutableMapping):
        if not isinstance(value, cabc.Mapping):
            return False
        if len(args) == 2:
            return all(value_fits(k, args[0]) and value_fits(v, args[1]) for k, v in value.items())
        return True
    if origin in (cabc.Sequence, cabc.Iterable, cabc.Collection, list, tuple, set, frozenset):
        if isinstance(value, (str, bytes, cabc.Mapping)):
            return False
        if origin in (list, tuple, set, frozenset) and not isinstance(value, origin):
            return False
        if not isinstance(value, (list, tuple, set, frozenset)):
            return False
        if origin is tuple and args and args[-1] is not Ellipsis:
            return len(value) == len(args) and all(map(value_fits, value, args))
        if args:
            return all(value_fits(v, args[0]) for v in value)
        return True
    kinds = _origin_types(annotation)
    return kinds is None or isinstance(value, kinds)


# --- hostile values --------------------------------------------------------------------------

class _Opaque:
    """An object of no kind the engine knows."""

    def __repr__(self) -> str:
        return "<object>"


_NAN, _INF = float("nan"), float("inf")
WRONG_VALUES: tuple[object, ...] = (
    None, _Opaque(), "", " ", "x", "3", [], (), {}, set(), b"\x00", 1.5, 2.0, -0.5, _NAN, _INF,
    -_INF, True, False, 0, 1, -1, -7, 10**9, -10**9, 10**30, -10**30, 2**63, Fraction(1, 2),
    [None], ["x"], [1.5], [True], [_NAN], [[1]], {"x": 1}, {1: 2}, [-1], [0], [10**9], [10**30],
    (1, 2, 3), [6, 6, 6], [1] * 200, ["x", "y"], [{"a": 1}], range(3),
)
#: Values past any size an input should have, each given once to every parameter: a whole
#: number too long for Python to print, a 100,000-character string, a 100,000-item list.
OVERSIZED: tuple[object, ...] = (10**5000, "x" * 100_000, [1] * 100_000)
HUGE_INTS = (10**9, 10**30, -10**9, -10**30, 2**63, 2**31, 1000, 101, 99, 50, 31)


def _ints() -> st.SearchStrategy[int]:
    return st.one_of(st.integers(-20, 40), st.sampled_from(HUGE_INTS), st.integers())


def _names(words: tuple[str, ...], base: object) -> st.SearchStrategy[str]:
    near = []
    if isinstance(base, str):
        near = [base.upper(), base.title(), f" {base}", f"{base} ", base[:-1], base + "x"]
    choices = [st.text(max_size=12), st.sampled_from(["", " ", "none", "None", "?", "\x00"] + near)]
    if words:
        choices.append(st.sampled_from(words))
    return st.one_of(choices)


def _scalars(words: tuple[str, ...]) -> st.SearchStrategy[object]:
    return st.one_of(_ints(), st.floats(allow_nan=True, allow_infinity=True), st.booleans(),
                     st.none(), _names(words, None))


def hostile(annotation: Any, words: tuple[str, ...], base: object = _MISSING) -> st.SearchStrategy:
    """Values a careless or hostile caller might pass where *annotation* is declared."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    parts: list[st.SearchStrategy[Any]] = [st.sampled_from(WRONG_VALUES), _scalars(words)]
    if origin in (typing.Union, types.UnionType):
        parts += [hostile(a, words, base) for a in args if a is not type(None)]
    elif annotation is int:
        parts += [_ints(), _ints(), st.sampled_from([True, False, 1.0, _NAN, "1"])]
    elif annotation is bool:
        parts += [st.sampled_from([0, 1, "no", "yes", "False", None, [], [False], 2])]
    elif annotation is str:
        parts += [_names(words, base), _names(words, base)]
    elif origin in (cabc.Sequence, cabc.Iterable, list, tuple, cabc.Collection):
        element = args[0] if args else Any
        items = st.one_of(_ints(), _names(words, None), st.none(), st.floats())
        if element is int:
            items = st.one_of(st.integers(-2, 14), _ints(), st.sampled_from([True, 1.5, "3", None]))
        elif element is str:
            items = st.one_of(_names(words, None), st.sampled_from([None, 1, True, b"x"]))
        parts += [
            st.lists(items, max_size=8), st.lists(items, max_size=8).map(tuple),
            st.lists(st.integers(1, 6), min_size=0, max_size=60),
            st.text(max_size=6), st.dictionaries(_names(words, None), items, max_size=3),
        ]
    elif isinstance(annotation, type) and dataclasses.is_dataclass(annotation) \
            and isinstance(base, annotation):
        parts += [_damaged_records(annotation, base, words)]
    elif origin in (cabc.Mapping, dict):
        parts += [
            st.dictionaries(st.one_of(_names(words, None), _ints(), st.none()),
                            st.one_of(_ints(), st.none(), st.text(max_size=4), st.floats()),
                            max_size=5),
            st.lists(_names(words, None), max_size=4),
        ]
    return st.one_of(parts)


def _damaged_records(kind: type, base: object, words: tuple[str, ...]) -> st.SearchStrategy:
    """The valid record *base* with one field given a hostile value, as a caller building the
    record by hand (or editing a saved one) might."""
    hints = _hints(kind)
    names = [f.name for f in dataclasses.fields(kind) if f.init]

    def damage(change: tuple[str, object]) -> object:
        try:
            return dataclasses.replace(base, **{change[0]: change[1]})  # type: ignore[type-var]
        except Exception:  # the record's own constructor refused it: nothing to pass on
            return base

    return st.sampled_from(names).flatmap(
        lambda name: hostile(hints.get(name, _MISSING), words).map(lambda v: (name, v))
    ).map(damage)


# --- valid base calls ------------------------------------------------------------------------

def _bind(target: Target, args: tuple, kwargs: dict) -> dict[str, object]:
    bound = inspect.signature(target.func).bind(*args, **kwargs)
    return dict(bound.arguments)


def base_arguments(target: Target, examples: dict[str, Callable[[], tuple[tuple, dict]]],
                   guesses: dict[str, object]) -> dict[str, object] | None:
    """Valid arguments for *target* (by parameter name), or None when none are known.

    An explicit example wins; otherwise each required parameter is filled from *guesses* (by
    name) and the defaults do the rest. The guess counts only if the call actually returns.
    """
    if target.key in examples:
        args, kwargs = examples[target.key]()
        return _bind(target, args, kwargs)
    chosen: dict[str, object] = {}
    for p in target.params:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or p.default is not _MISSING:
            continue
        if p.name not in guesses:
            return None
        chosen[p.name] = guesses[p.name]
    outcome = call(target, chosen, hostile_name=None)
    return chosen if outcome.kind == "result" else None


# --- one guarded call ------------------------------------------------------------------------

class TookTooLong(BaseException):
    """Raised inside a call that ran past GUARD_SECONDS (a BaseException: no ``except
    Exception`` in the engine may swallow it)."""


#: The ways a call can break the contract, as the deep run counts them.
CATEGORIES = {
    "other_exception": "exceptions other than RulesError",
    "wrong_kind": "results of the wrong kind",
    "wrong_type_accepted": "plainly wrong types (or unknown keywords) accepted",
    "message": "RulesError messages not naming the parameter",
    "too_long": f"calls stopped after {GUARD_SECONDS:.0f} s",
}


@dataclass
class Outcome:
    """What one call did, and what was wrong with it (``problem`` is None when it kept the
    contract)."""

    key: str
    hostile_name: str | None
    arguments: dict[str, object]
    kind: str                      # "result", "rules_error", "other", "too_long"
    seconds: float
    detail: str = ""
    problem: str | None = None
    category: str | None = None    # one of CATEGORIES when there is a problem

    def describe(self) -> str:
        shown = ", ".join(f"{k}={_short(v)}" for k, v in self.arguments.items())
        return f"{self.key}({shown}): {self.problem} [{self.detail}]"


def _short(value: object) -> str:
    try:
        text = repr(value)
    except ValueError:  # an int or Fraction past Python's 4,300-digit limit for str()
        return f"<{type(value).__name__} too large to show>"
    return text if len(text) <= 80 else text[:77] + "..."


def _typed_die_refused(message: str, arguments: dict) -> bool:
    """Whether *message* refuses one of the reader's typed dice, naming its die (d8, d100)."""
    typed = any(isinstance(v, DiceSource) and v.is_typed for v in arguments.values())
    return typed and re.search(r"\bd\d+\b.*must be from 1 to \d+", message) is not None


def _names_parameter(message: str, name: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", message) is not None


def _guarded(func: Callable[..., Any], args: list, kwargs: dict) -> Any:
    """Call with a hard time limit (an interval timer on the main thread; no limit elsewhere,
    nor where there are no interval timers: Python in WebAssembly)."""
    if (threading.current_thread() is not threading.main_thread()
            or not hasattr(signal, "setitimer")):
        return func(*args, **kwargs)

    def stop(signum: int, frame: object) -> None:
        raise TookTooLong

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, GUARD_SECONDS)
    try:
        return func(*args, **kwargs)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def split_arguments(target: Target, arguments: dict[str, object]
                    ) -> tuple[list[object], dict[str, object]]:
    """*arguments* (name → value) as *target*'s positional and keyword arguments: a
    positional-only parameter by place, a ``**kwargs`` parameter's mapping spread out."""
    args: list[object] = []
    kwargs: dict[str, object] = {}
    for p in target.params:
        if p.name not in arguments:
            continue
        if p.kind is p.POSITIONAL_ONLY:
            args.append(arguments[p.name])
        elif p.kind is p.VAR_KEYWORD:
            kwargs.update(arguments[p.name])  # type: ignore[arg-type]
        else:
            kwargs[p.name] = arguments[p.name]
    return args, kwargs


def call(target: Target, arguments: dict[str, object], hostile_name: str | None) -> Outcome:
    """Call *target* with *arguments* and judge the outcome against the contract.

    *hostile_name* is the one parameter given a hostile value (None: a base call, or every
    argument hostile at once, when any parameter's name will do in a message).
    """
    args, kwargs = split_arguments(target, arguments)
    start = time.perf_counter()
    try:
        result = _guarded(target.func, args, kwargs)
    except TookTooLong:
        seconds = time.perf_counter() - start
        return Outcome(target.key, hostile_name, arguments, "too_long", seconds,
                       f"stopped after {GUARD_SECONDS:.0f} s", "took too long", "too_long")
    except RulesError as error:
        seconds = time.perf_counter() - start
        message = str(error)
        outcome = Outcome(target.key, hostile_name, arguments, "rules_error", seconds, message)
        everyone = [p.name for p in target.params if p.kind is not p.VAR_KEYWORD]
        names = [hostile_name] if hostile_name else everyone
        if hostile_name in arguments and value_fits(arguments[hostile_name],
                                                    target.hints.get(hostile_name, _MISSING)):
            # A well-typed value may clash with another argument (19 hits, 2 faces given):
            # the message may then name either side of the clash.
            names = [hostile_name] + [n for n in everyone if n != hostile_name]
        if _typed_die_refused(message, arguments):
            # Typed dice are read in the order the rules ask for them: a well-typed value of
            # another argument (another aim, another range) can change which die a typed
            # value lands on, and the refusal then names that die ("impact d8 …, got 9").
            return outcome
        label = arguments.get("name")
        if isinstance(label, str) and label.strip() and message.startswith(label):
            # A checker told what to call its input (attribute("Strength", 50),
            # check_dice(dice, name="Attacker dice")) names it by that label.
            return outcome
        if not any(_names_parameter(message, n) for n in names):
            named = names[0] if hostile_name else "any parameter"
            outcome.problem = f"message does not name {named}"
            outcome.category = "message"
        return outcome
    except Exception as error:  # the contract's whole point: nothing else may escape
        seconds = time.perf_counter() - start
        return Outcome(target.key, hostile_name, arguments, "other", seconds,
                       f"{type(error).__name__}: {error}"[:300], f"raised {type(error).__name__}",
                       "other_exception")
    seconds = time.perf_counter() - start
    outcome = Outcome(target.key, hostile_name, arguments, "result", seconds)
    if not result_has_kind(result, target.returns):
        outcome.detail = _short(result)
        outcome.problem = f"returned {type(result).__name__}, declared {target.returns!r}"
        outcome.category = "wrong_kind"
    elif hostile_name is not None:
        if hostile_name not in arguments:
            outcome.problem = f"accepted the unknown keyword {hostile_name}"
            outcome.category = "wrong_type_accepted"
        elif not value_fits(arguments[hostile_name], target.hints.get(hostile_name, _MISSING)):
            outcome.problem = f"accepted {_short(arguments[hostile_name])} for {hostile_name}"
            outcome.category = "wrong_type_accepted"
    return outcome


# --- drawing a call --------------------------------------------------------------------------

def call_strategy(target: Target, base: dict[str, object] | None) -> st.SearchStrategy:
    """(arguments, hostile parameter name or None) for one call of *target*."""
    params = [p for p in target.params if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    keyword = next((p for p in target.params if p.kind is p.VAR_KEYWORD), None)

    def value_for(p: inspect.Parameter, base_value: object = _MISSING) -> st.SearchStrategy:
        return hostile(target.hints.get(p.name, _MISSING), target.words, base_value)

    if base is None:
        # No valid call known: every parameter hostile (optional ones sometimes left out).
        drawn = {}
        for p in params:
            s = value_for(p)
            if p.default is not _MISSING:
                s = st.one_of(st.just(_MISSING), s)
            drawn[p.name] = s
        return st.fixed_dictionaries(drawn).map(
            lambda d: ({k: v for k, v in d.items() if v is not _MISSING}, None))
    if not params and keyword is None:
        return st.just((base, None))
    def with_value(name: str, value: object) -> tuple[dict[str, object], str]:
        # A fresh copy of the base each call: an engine that mutated its input would
        # otherwise spoil every later call.
        return {**copy.deepcopy(base), name: value}, name

    choices: list[st.SearchStrategy] = []
    for p in params:
        choices.append(value_for(p, base.get(p.name, p.default)).map(
            lambda v, name=p.name: with_value(name, v)))
    if keyword is not None:
        # An unknown keyword must be refused by name, not ignored.
        extra = dict(base.get(keyword.name, {}))  # type: ignore[call-overload]
        choices.append(st.sampled_from(["bogus", "colour", "skill_dice_"]).map(
            lambda word: ({**copy.deepcopy(base), keyword.name: {**extra, word: 1}}, word)))
    return st.one_of(choices)


def oversized_calls(target: Target,
                    base: dict[str, object] | None) -> list[tuple[dict[str, object], str]]:
    """(arguments, hostile name) giving each parameter each OVERSIZED value once."""
    if base is None:
        return []
    return [({**copy.deepcopy(base), p.name: value}, p.name) for p in target.params
            if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for value in OVERSIZED]

