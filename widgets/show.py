"""Show a worked example's value the way a player reads it, not as a Python value.

A chapter often ends a worked example on a number the engine computed: a chance, a yes or no,
the chance of every outcome, one row of a table, or the steps of a sequence. Left as the last
line of a cell, Jupyter would print them as Python (``Fraction(14987, 16384)``, a dict, a tuple
of tuples). These helpers turn them into a sentence, a small table or a numbered list:

- :func:`chance_text` and :func:`value_text`: the words for one value ("14987/16384 (91.47%)",
  "yes", "no");
- :func:`labelled`: one labelled value, as a sentence;
- :func:`answer`: a question and its yes or no;
- :func:`chances`: the chance of each outcome, as a table with percentages and exact fractions;
- :func:`record`: the fields of one record (a table row), as a two-column table;
- :func:`steps`: a sequence, as a numbered list.

Each returns an IPython ``HTML`` object, so a call placed last in a cell is what the page shows.
They hold no rules: every value comes from the rules engine; they only format it.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any

from IPython.display import HTML

from rulescore.text import odds, percent, yes_no

from .book import header
from .common import odds_table_html
from .theme import RULE_LINE

_STYLE = ("<style>.rulebook-show{border-collapse:collapse;margin:.3em 0 .8em}"
          ".rulebook-show td,.rulebook-show th{padding:2px 12px;"
          f"border-bottom:1px solid {RULE_LINE}}}"
          "</style>")
# Inline, so the notebook's own table style (numbers to the right) cannot override them.
_LEFT = " style='text-align:left'"
# The notebook's own table style right-aligns every cell: outcomes read better on the left.
_CHANCES_STYLE = ("<style>.rulebook-chances th:first-child,.rulebook-chances td:first-child"
                  "{text-align:left}</style>")

Label = Callable[[Any], str] | Mapping[Any, str] | str | None


def chance_text(p: Fraction) -> str:
    """A probability as its exact fraction and its percentage (``"7/12 (58.33%)"``, as every
    tool writes it); a certainty or an impossibility is just the percentage."""
    p = Fraction(p)
    return percent(p) if p.denominator == 1 else odds(p)


def value_text(value: Any) -> str:
    """A value in words: ``True``/``False`` as "yes"/"no", a ``Fraction`` as a chance
    (see :func:`chance_text`), anything else as its plain text."""
    if isinstance(value, bool):
        return yes_no(value)
    if isinstance(value, Fraction):
        return chance_text(value)
    return str(value)


def _name(key: Any, label: Label) -> str:
    """The reader's name for an outcome *key*: *label* may be a function, a mapping, or a
    format string filled with the key (a tuple key fills ``{0}``, ``{1}``…)."""
    if callable(label):
        return str(label(key))
    if isinstance(label, Mapping):
        return str(label.get(key, key))
    if isinstance(label, str):
        return label.format(*key) if isinstance(key, tuple) else label.format(key)
    if isinstance(key, tuple):
        return ", ".join(str(k) for k in key if k != "")
    text = str(key)
    return text[:1].upper() + text[1:]


def labelled(label: str, value: Any) -> HTML:
    """One value with its label, as a sentence: ``Chance to hit: 14987/16384 (91.47%)``."""
    return HTML(f"<p class='rulebook-value'>{html.escape(label)}: "
                f"<b>{html.escape(value_text(value))}</b></p>")


def answer(question: str, yes: bool) -> HTML:
    """A question and the engine's answer: ``Can a spear reach…? Yes.``"""
    return HTML(f"<p class='rulebook-value'>{html.escape(question)} "
                f"<b>{yes_no(yes).capitalize()}.</b></p>")


def chances(odds: Mapping[Any, Fraction], title: str, *, outcome: str = "Outcome",
            label: Label = None) -> HTML:
    """The chance of each outcome in *odds* (outcome → ``Fraction``), in the order given, as the
    tools' odds table under a title. *outcome* heads the first column; *label* names each
    outcome (see :func:`_name`)."""
    rows = [(_name(k, label), Fraction(p)) for k, p in odds.items()]
    return HTML(f"{_CHANCES_STYLE}<figure class='rulebook-chances'><figcaption><b>"
                f"{html.escape(title)}</b>"
                f"</figcaption>{odds_table_html(rows, outcome)}</figure>")


def record(fields: Mapping[str, Any], title: str, *,
           names: Mapping[str, str] | None = None) -> HTML:
    """The fields of one record (e.g. a table row) as a two-column table. A field's name is
    taken from *names*, or else written out from its key as a table header is
    (:func:`widgets.book.header`: ``location_shock`` → "Location shock", ``ln`` → "LN")."""
    names = names or {}

    def name(key: str) -> str:
        return names.get(key) or header(key)

    rows = "".join(f"<tr><th{_LEFT}>{html.escape(name(k))}</th>"
                   f"<td{_LEFT}>{html.escape(value_text(v))}</td></tr>" for k, v in fields.items())
    return HTML(f"{_STYLE}<figure class='rulebook-record'><figcaption><b>{html.escape(title)}"
                f"</b></figcaption><table class='rulebook-show'><tbody>{rows}</tbody></table>"
                f"</figure>")


def steps(items: Iterable[Any], title: str) -> HTML:
    """A sequence as a numbered list. An item that is a tuple is written as its non-empty
    parts joined by a dash: ``("Actions refreshed", "rogue")`` → "Actions refreshed — rogue"."""
    def text(item: Any) -> str:
        if isinstance(item, tuple):
            return " — ".join(str(part) for part in item if part != "")
        return str(item)

    lines = "".join(f"<li>{html.escape(text(item))}</li>" for item in items)
    return HTML(f"<div class='rulebook-steps'><p><b>{html.escape(title)}</b></p>"
                f"<ol>{lines}</ol></div>")
