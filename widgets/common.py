"""Shared widget pieces: dice entry, odds view, explanation view, error line.

Widgets hold no rules: they gather inputs, make one ``rulescore`` call and render what it
returns. Every input carries a visible label that is also its accessible name.
"""

from __future__ import annotations

import html
import random
from fractions import Fraction
from typing import Callable, Iterable

import ipywidgets as w

from rulescore.dice import DiceRoll, Distribution, d100_from_digits
from rulescore.errors import RulesError, parse_int_list, parse_int_text
from rulescore.text import percent
from rulescore.trace import Step

from .lean import own_layout, shared_layout

SUCCESS = "#2e7d32"
OTHER = "#90a4ae"
ERROR = "#b00020"
LABEL_WIDTH = "11em"

RollRequest = dict  # {"seed": int} or {"dice": [int, ...]}


def labelled_text(label: str, value: str = "", placeholder: str = "", width: str = "26em",
                  label_width: str = LABEL_WIDTH) -> w.Text:
    """A text field with a visible label (its accessible name)."""
    return w.Text(value=value, description=label, placeholder=placeholder,
                  style={"description_width": label_width}, layout=shared_layout(width=width))


def tool_layout() -> w.Layout:
    """The frame around a whole tool, setting it apart from the prose around it."""
    return shared_layout(border="1px solid #c9c4b8", padding="6px 14px 10px", margin="10px 0",
                         width="100%")


def button(label: str, tooltip: str = "", primary: bool = False) -> w.Button:
    """A text button (no icons: Voilà's icon font comes from a CDN)."""
    return w.Button(description=label, tooltip=tooltip or label,
                    button_style="primary" if primary else "",
                    layout=shared_layout(width="auto"))


class ErrorLine(w.HTML):
    """One line that shows a RulesError's message in place; empty when all is well."""

    def __init__(self) -> None:
        super().__init__(value="")
        self.add_class("rulebook-error")

    def show(self, message: str) -> None:
        self.value = (f'<div role="alert" style="color:{ERROR};font-weight:600">'
                      f"⚠ {html.escape(message)}</div>")

    def clear(self) -> None:
        self.value = ""

    @property
    def message(self) -> str:
        """The plain message shown (empty if none)."""
        if not self.value:
            return ""
        return html.unescape(self.value.split("⚠ ", 1)[1].rsplit("</div>", 1)[0])


def new_seed() -> int:
    """A fresh seed for the Roll button, shown to the reader so the roll can be replayed."""
    return random.SystemRandom().randrange(1, 1_000_000)


class DiceEntry(w.VBox):
    """Roll with a visible seed, replay a seed, or type the dice rolled at the table.

    Handlers registered with :meth:`on_request` receive ``{"seed": n}`` or
    ``{"dice": [...]}``; they make the rules call. With ``percentile=True`` a d100 can also be
    typed as a tens die and a ones die.
    """

    def __init__(self, dice_hint: str = "e.g. 6, 6, 3", percentile: bool = False,
                 groups: int = 0) -> None:
        self.groups = groups  # > 0: My dice holds that many lists separated by "|"
        self.roll_button = button("Roll", "Roll with a new random seed", primary=True)
        self.seed = labelled_text("Seed", placeholder="a number", width="14em",
                                  label_width="4em")
        self.replay_button = button("Replay seed", "Roll again with the seed in the field")
        self.my_dice = labelled_text("My dice", placeholder=dice_hint, width="22em",
                                     label_width="5em")
        self.use_dice_button = button("Use my dice", "Use the faces you rolled at the table")
        self.tens = labelled_text("Tens die (00–90)", placeholder="e.g. 70", width="17em",
                                  label_width="8em")
        self.ones = labelled_text("Ones die (0–9)", placeholder="e.g. 3", width="15em",
                                  label_width="7em")
        self.use_tens_button = button("Use tens and ones")
        self.error = ErrorLine()
        self._handlers: list[Callable[[RollRequest], None]] = []
        self.percentile_row = w.HBox([self.tens, self.ones, self.use_tens_button])
        super().__init__([
            w.HBox([self.roll_button, self.seed, self.replay_button]),
            w.HBox([self.my_dice, self.use_dice_button]),
            self.percentile_row,
            self.error,
        ])
        self.set_percentile(percentile)
        self.roll_button.on_click(lambda _: self.roll())
        self.replay_button.on_click(lambda _: self.replay())
        self.use_dice_button.on_click(lambda _: self.use_dice())
        self.use_tens_button.on_click(lambda _: self.use_tens_ones())

    def set_percentile(self, on: bool) -> None:
        """Show or hide the tens-and-ones entry of a d100."""
        own_layout(self.percentile_row).display = "flex" if on else "none"

    def on_request(self, handler: Callable[[RollRequest], None]) -> None:
        self._handlers.append(handler)

    def _send(self, request: RollRequest) -> None:
        self.error.clear()
        for handler in self._handlers:
            handler(request)

    def roll(self, seed: int | None = None) -> None:
        """Roll with *seed* (a fresh one if None) and show it in the seed field."""
        seed = new_seed() if seed is None else seed
        self.seed.value = str(seed)
        self._send({"seed": seed})

    def _send_read(self, read: Callable[[], RollRequest]) -> None:
        """Read the reader's fields into a request; show a RulesError in place instead."""
        try:
            request = read()
        except RulesError as exc:
            self.error.show(str(exc))
            return
        self._send(request)

    def replay(self) -> None:
        """Roll again with the seed typed in the Seed field."""
        self._send_read(lambda: {"seed": parse_int_text("Seed", self.seed.value)})

    def use_dice(self) -> None:
        """Read the faces typed in My dice."""
        if not self.groups:
            self._send_read(lambda: {"dice": parse_int_list("My dice", self.my_dice.value)})
            return

        def read() -> RollRequest:
            parts = self.my_dice.value.split("|")
            if len(parts) != self.groups:
                raise RulesError(f"My dice must be {self.groups} lists separated by |, got "
                                 f"{len(parts)}")
            return {"dice": [parse_int_list("My dice", part) for part in parts]}
        self._send_read(read)

    def use_tens_ones(self) -> None:
        """Read a d100 thrown as a tens die and a ones die (00 and 0 read 100)."""
        def read() -> RollRequest:
            value = d100_from_digits(parse_int_text("Tens die", self.tens.value),
                                     parse_int_text("Ones die", self.ones.value))
            self.my_dice.value = str(value)
            return {"dice": [value]}
        self._send_read(read)


def _svg_chart(items: list[tuple[int, Fraction]], success: Callable[[int], bool],
               title: str) -> str:
    """A bar chart of a distribution as inline SVG (works live and in the static book)."""
    width, height, pad = 640, 190, 30
    top = max(float(p) for _, p in items) or 1.0
    n = len(items)
    bar = (width - 2 * pad) / n
    bars, labels = [], []
    step = max(1, n // 12)
    for i, (v, p) in enumerate(items):
        h = (height - 2 * pad) * float(p) / top
        x = pad + i * bar
        colour = SUCCESS if success(v) else OTHER
        bars.append(f'<rect x="{x:.1f}" y="{height - pad - h:.1f}" width="{max(bar - 1, 0.6):.1f}"'
                    f' height="{h:.1f}" fill="{colour}"><title>{v}: {percent(p)}</title></rect>')
        if i % step == 0 or i == n - 1:
            labels.append(f'<text x="{x + bar / 2:.1f}" y="{height - pad + 14}" font-size="11"'
                          f' text-anchor="middle">{v}</text>')
    axis = (f'<text x="{pad}" y="{pad - 10}" font-size="11">{percent(Fraction(top))} '
            f'(tallest bar)</text>'
            f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" '
            f'stroke="#555"/>')
    return (f'<svg role="img" aria-label="{html.escape(title)}" viewBox="0 0 {width} {height}"'
            f' style="width:100%;max-width:{width}px">{axis}{"".join(bars)}{"".join(labels)}</svg>')


_TABLE_STYLE = ("<style>.rulebook-odds{border-collapse:collapse}.rulebook-odds td,"
                ".rulebook-odds th{padding:2px 10px;text-align:right;"
                "border-bottom:1px solid #ddd}</style>")


def odds_html(dist: Distribution, success: Callable[[int], bool] | None = None,
              headline: str = "", label: str = "Total") -> str:
    """The exact distribution as a headline, a bar chart and a table (fraction and percent)."""
    succeed = success or (lambda v: False)
    items = list(dist.items())
    rows = []
    at_least = Fraction(1) - dist.truncated
    for v, p in items:
        style = f' style="color:{SUCCESS};font-weight:600"' if succeed(v) else ""
        rows.append(f"<tr{style}><td>{v}</td><td>{percent(p)}</td><td>{p}</td>"
                    f"<td>{percent(at_least)}</td></tr>")
        at_least -= p
    table = (_TABLE_STYLE + "<table class='rulebook-odds'><thead><tr><th>" + html.escape(label) +
             "</th><th>Chance</th><th>Exact</th><th>This or more</th></tr></thead><tbody>" +
             "".join(rows) + "</tbody></table>")
    opened = " open" if len(items) <= 6 else ""
    parts = []
    if headline:
        parts.append(f'<p class="rulebook-headline"><b>{html.escape(headline)}</b></p>')
    legend = (f'<span style="color:{SUCCESS}">■ succeeds</span> ' if success else "")
    parts.append(_svg_chart(items, succeed, f"Chart of the odds of each {label.lower()}"))
    parts.append(f"<div style='font-size:90%'>{legend}Mean {float(dist.mean()):.3g}; "
                 f"{len(items)} possible results.</div>")
    if dist.truncated:
        parts.append(f"<div style='font-size:90%'>Exact up to {dist.explode_depth} explosions "
                     f"a die; the chance of more ({percent(dist.truncated)}) is not listed.</div>")
    parts.append(f"<details{opened}><summary>Table of all {len(items)} results</summary>"
                 f"{table}</details>")
    return "".join(parts)


class OddsView(w.HTML):
    """Shows a distribution (see :func:`odds_html`)."""

    def show(self, dist: Distribution, success: Callable[[int], bool] | None = None,
             headline: str = "", label: str = "Total") -> None:
        self.value = odds_html(dist, success, headline, label)


def steps_html(steps: Iterable[Step]) -> str:
    """A trace as numbered steps, each with its rule reference."""
    items = "".join(f"<li>{html.escape(s.text)} <small style='color:#555'>"
                    f"[{html.escape(str(s.rule))}]</small></li>" for s in steps)
    return f"<ol class='rulebook-trace'>{items}</ol>"


class ExplanationView(w.HTML):
    """The explanation of a result: its trace as numbered steps with rule references."""

    def show(self, steps: Iterable[Step]) -> None:
        self.value = steps_html(steps)

    def clear(self) -> None:
        self.value = ""


def dice_faces_html(result: DiceRoll) -> str:
    """Each die as a box: kept dice solid, dropped dice struck through, successes green."""
    boxes = []
    for d in result.dice:
        face = "→".join(map(str, d.rolls))
        style = "display:inline-block;min-width:1.6em;padding:2px 5px;margin:2px;" \
                "border:1px solid #444;border-radius:4px;text-align:center;"
        if not d.kept:
            style += "opacity:.5;text-decoration:line-through;"
        if d.success:
            style += f"background:{SUCCESS};color:white;"
        if d.exploded:
            style += "border-style:dashed;"
        note = "dropped" if not d.kept else ("success" if d.success else "kept")
        boxes.append(f'<span style="{style}" title="die {d.die}: {note}">{face}</span>')
    return "".join(boxes)


def section(title: str, *children: w.Widget) -> w.VBox:
    """A titled block inside a tool."""
    return w.VBox([w.HTML(f"<h4 style='margin:.6em 0 .2em'>{html.escape(title)}</h4>"),
                   *children])
