"""Resolutions and their traces: how a result was reached, step by step, with the rule used.

The engine never produces markup. A :class:`Resolution` carries the headline ``value``, an
``outcome`` label and a ``trace`` of :class:`Step` objects; formatters in ``widgets`` (and
:func:`format_trace` for plain text) render it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable, Union

Number = Union[int, Fraction]


@dataclass(frozen=True)
class RuleRef:
    """A rule reference: the system and the section of its rules text (e.g. §VIII Damage)."""

    system: str
    section: str

    def __str__(self) -> str:
        return f"{self.system} §{self.section}"


@dataclass(frozen=True)
class Step:
    """One step of a resolution: what was done, the numbers used and the rule applied."""

    text: str
    rule: RuleRef
    values: tuple[tuple[str, Number | str], ...] = ()

    def value(self, name: str) -> Number | str:
        """The value recorded under *name* in this step."""
        for key, val in self.values:
            if key == name:
                return val
        raise KeyError(name)


TraceStep = Step


@dataclass(frozen=True)
class Resolution:
    """The result of resolving something: headline value, outcome label and the trace.

    Systems subclass it (``@dataclass(frozen=True, kw_only=True)``) to add their own fields,
    such as ``margin`` or ``hits``.
    """

    value: int
    outcome: str
    trace: tuple[Step, ...] = field(default=())

    def explain(self) -> str:
        """The trace as plain numbered text."""
        return format_trace(self.trace)


def step(text: str, rule: RuleRef, **values: Number | str) -> Step:
    """Build a Step; keyword arguments become its recorded values."""
    return Step(text, rule, tuple(values.items()))


def format_trace(steps: Iterable[Step]) -> str:
    """Plain-text rendering of a trace: one numbered line a step, rule in brackets."""
    return "\n".join(f"{i}. {s.text}  [{s.rule}]" for i, s in enumerate(steps, start=1))
