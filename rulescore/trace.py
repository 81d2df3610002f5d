"""Resolutions and their traces: how a result was reached, step by step, with the rule used.

The engine never produces markup. A :class:`Resolution` carries the headline ``value``, an
``outcome`` label and a ``trace`` of :class:`Step` objects; formatters in ``widgets`` (and
:func:`format_trace` for plain text) render it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Callable, Iterable, Union

if TYPE_CHECKING:
    from .assumptions import Assumption

Number = Union[int, Fraction]


@dataclass(frozen=True)
class RuleRef:
    """A rule reference: the system and the section of its rules text (e.g. §VIII Damage),
    and the named assumptions of the system (``rulings``, by id) that the step applies where
    the section is silent. A reader is shown a ruling by its title, never by its id."""

    system: str
    section: str
    rulings: tuple[str, ...] = ()

    def citing(self, *rulings: str) -> RuleRef:
        """This reference, also citing the named assumptions *rulings* (ids) of its system;
        a TableError if the system has no such assumption."""
        from .assumptions import assumption
        for ruling in rulings:
            assumption(self.system, ruling)
        return replace(self, rulings=self.rulings + tuple(r for r in rulings
                                                          if r not in self.rulings))

    def __str__(self) -> str:
        cited = f"; {cite_rulings(self.system, self.rulings)}" if self.rulings else ""
        return f"{self.system} §{self.section}{cited}"


def cite_rulings(system: str, rulings: Iterable[str],
                 name: Callable[[Assumption], str] = lambda a: a.title) -> str:
    """Named assumptions of *system* in a reader's words: by their titles, as the book's
    rulings chapter heads them, and where that chapter is ("our ruling “How a fall's damage
    is rolled”, in the rulings chapter"), never by their ids. *name* gives a ruling's words
    (a page links the title)."""
    from .assumptions import assumption
    titles = [f"“{name(assumption(system, r))}”" for r in rulings]
    if not titles:
        return ""
    listed = titles[0] if len(titles) == 1 else f"{', '.join(titles[:-1])} and {titles[-1]}"
    return f"our ruling{'s' if len(titles) > 1 else ''} {listed}, in the rulings chapter"


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
