"""Shared widget pieces: dice entry, odds view, explanation view, error line.

Widgets hold no rules: they gather inputs, make one ``rulescore`` call and render what it
returns. Every input carries a visible label that is also its accessible name.
"""

from __future__ import annotations

import functools
import html
import math
import random
import re
import types
import weakref
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field as dataclass_field, replace
from typing import ClassVar, Generic, TypeVar
from fractions import Fraction

import ipywidgets as w

from rulescore.dice import DiceRoll, DiceSource, Distribution, d100_from_digits
from rulescore.errors import RulesError, parse_int_list, parse_int_text
from rulescore.text import percent
from rulescore.trace import Resolution, RuleRef, Step, cite_rulings

from .lean import (
    BuiltWhole,
    built_whole,
    hold_until_shown,
    is_shared,
    is_shown,
    opened_when_built,
    props_of,
    set_layout,
    set_shown,
    set_style,
    shared_layout,
)
from .theme import (
    CHAR_EM,
    DEFAULT_LABEL_EM,
    ERROR,
    FAINT,
    FRAME,
    FRAME_MARGIN,
    FRAME_PADDING,
    INK,
    LABEL_WIDTH,
    MAX_WIDTH_EM,
    NOTE_SIZE,
    OTHER,
    RULE_LINE,
    SUCCESS,
    TICK_CHAR_PX,
    VERDICT_SIZE,
)


T = TypeVar("T")


@dataclass(frozen=True)
class RollRequest:
    """What a :class:`DiceEntry` hands its tool: the dice to resolve with (seeded or the
    reader's own, a :class:`~rulescore.dice.DiceSource`) and, for an entry that takes one list
    per side, the reader's typed lists as they separated them (empty when rolled by seed)."""

    dice: DiceSource
    groups: tuple[tuple[int, ...], ...] = ()

    @classmethod
    def seeded(cls, seed: int) -> RollRequest:
        """A roll with *seed*: the same seed gives the same dice."""
        return cls(DiceSource.seeded(seed))

    @classmethod
    def typed(cls, values: Iterable[int]) -> RollRequest:
        """The dice the reader typed, in the order the rules ask for them."""
        return cls(DiceSource.typed(list(values)))

    @classmethod
    def typed_groups(cls, groups: Iterable[Iterable[int]]) -> RollRequest:
        """One typed list per side; the source reads them one after another."""
        kept = tuple(tuple(g) for g in groups)
        return cls(DiceSource.typed([v for g in kept for v in g]), kept)

    @property
    def seed(self) -> int | None:
        """The seed that replays this roll (None for typed dice)."""
        return self.dice.seed

    def describe(self) -> str:
        """How the dice were made, as the reader reads it: "seed 7" or "your dice"."""
        return self.dice.describe()

    def expect_typed(self, count: int, what: str) -> None:
        """Refuse typed dice that are not *count* values, in the reader's words ("My dice
        must be *what*, got N numbers"); a seeded roll rolls what it needs."""
        given = len(self.dice.leftover())
        if self.dice.is_typed and given != count:
            raise RulesError(f"My dice must be {what}, got {given} "
                             f"{'number' if given == 1 else 'numbers'}")

    def typed_beside(self, read: Callable[[], T]) -> T | None:
        """What the reader typed in a field of its own beside My dice (a cover roll, a
        deviation die), read with *read*: used with the reader's own dice; None with a seed,
        which rolls those dice too (the engine draws them from the same source)."""
        return read() if self.dice.is_typed else None

    def fresh(self) -> RollRequest:
        """The same request with nothing drawn yet (each handler reads its own dice)."""
        return replace(self, dice=self.dice.replay())


@dataclass(frozen=True)
class Reach:
    """One engine call a tool makes, and how the tool reaches each of its arguments (issue
    21, "every engine input is reachable"): *fields* maps an engine parameter to the label of
    the field the reader fills in for it; *fixed* maps each parameter the tool sets itself to
    why (e.g. ``"dice": "from the Roll / My dice row"``). A test holds ``fields | fixed`` to the
    function's signature, so a new engine argument cannot silently stay out of a tool."""

    call: Callable[..., object]
    fields: Mapping[str, str]
    fixed: Mapping[str, str] = dataclass_field(default_factory=dict)


#: Why a tool fixes an engine call's dice: the reader gives them in the Roll / My dice row.
ROLLED = "the dice of the Roll / My dice row"


def _name_pattern(name: str) -> re.Pattern[str]:
    """Where *name* stands for an input in an engine message. A name with an underscore
    (``target_band``) is never prose, so it is matched anywhere as a whole word; a plain word
    (``who``, ``cover``) only where the engine names an input: at the start of the message or
    of a clause after ": " or "; " (elsewhere it is likely the word itself)."""
    where = r"(?<![\w“])" if "_" in name else r"(?:^|(?<=: )|(?<=; ))"
    return re.compile(where + re.escape(name) + r"(\[[^\]]*\])?(?![\w”])")


def reader_words(message: str, words: Mapping[str, str]) -> str:
    """*message* with each engine parameter name in *words* replaced by its field's label in
    quotes ("target_band 'extreme' …" → "“Target's band” 'extreme' …"). Longer names go
    first, so ``skill_dice`` is not read as a ``dice`` inside it."""
    for name in sorted(words, key=len, reverse=True):
        label = words[name]
        message = _name_pattern(name).sub(lambda m: f"“{label}”{m.group(1) or ''}", message)
    return message


def text_em(text: str) -> float:
    """A generous estimate of how wide *text* shows in the widgets' font, in em."""
    return round(len(text) * CHAR_EM + 0.3, 1)


def _em(size: str | None) -> float | None:
    """``"11em"`` → 11.0; any other size (auto, %, px, unset) → None."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)em\s*", size or "")
    return float(m.group(1)) if m else None


def _widen(widget: w.DOMWidget, extra: float) -> None:
    """Make an em-wide *widget* *extra* em wider, up to :data:`MAX_WIDTH_EM`."""
    width = _em(widget.layout.width)
    if width is not None and extra > 0:
        set_layout(widget, width=f"{min(width + extra, MAX_WIDTH_EM):g}em")


def _option_labels(widget: w.Widget) -> list[str]:
    """The texts a dropdown (or any selection widget) shows for its options; none otherwise."""
    return [str(label) for label in getattr(widget, "_options_labels", ())]


def _label_em(widget: w.Widget) -> float | None:
    """The em width of a labelled field's label column (0 with no label); None for a widget
    without a label column or one not set in em."""
    if "description_width" not in getattr(getattr(widget, "style", None), "keys", ()):
        return None
    if not widget.description:
        return 0.0
    width = widget.style.description_width
    return _em(width) if width else DEFAULT_LABEL_EM


#: The room a short label's right padding takes in its column, beside the text itself (em):
#: a dice entry's named labels ("Exchange seed") are sized from their text, and an estimate
#: with no room to spare lets the ellipsis cut them.
LABEL_PAD_EM = 0.8


def _set_label_em(widget: w.DOMWidget, label_em: float, now: float) -> None:
    """Widen *widget*'s label column from *now* to *label_em* em, and the field with it."""
    set_style(widget, description_width=f"{label_em:g}em")
    _widen(widget, label_em - now)


def _fit_description(widget: w.DOMWidget) -> float | None:
    """Widen *widget*'s label column to its label; return that column's width in em (0 with
    no label, None when it is not set in em)."""
    label_em = _label_em(widget)
    if label_em and text_em(widget.description) > label_em:
        _set_label_em(widget, text_em(widget.description), label_em)
        return text_em(widget.description)
    return label_em


def fit_label(widget: w.DOMWidget) -> None:
    """Widen *widget* so its label, its longest option and its placeholder show whole.
    Only widths change: the label text (the field's accessible name) stays as it is."""
    if isinstance(widget, w.Checkbox):
        width = _em(widget.layout.width)
        indent = (_em(widget.style.description_width) or DEFAULT_LABEL_EM) if widget.indent else 0
        if width is not None:
            _widen(widget, indent + text_em(widget.description) + 2 - width)
        return
    label_em = _fit_description(widget)
    width = _em(widget.layout.width)
    if label_em is None or width is None:
        return
    needs = [text_em(o) + 2.5 for o in _option_labels(widget)]
    needs.append(text_em(getattr(widget, "placeholder", "") or "") + 1)
    _widen(widget, max(needs) - (width - label_em - 0.6))


def fit_labels(root: w.Widget) -> None:
    """Fit every input under *root* (see :func:`fit_label`); rows of inputs wrap onto a new
    line rather than run past the tool's frame."""
    stack, grids, columns = [root], [], []
    while stack:
        widget = stack.pop()
        if isinstance(widget, w.Box):
            stack.extend(widget.children)
            if isinstance(widget, w.HBox) and not widget.layout.flex_flow:
                set_layout(widget, flex_flow="row wrap")
            if isinstance(widget, w.GridBox):
                grids.append(widget)
            elif isinstance(widget, w.VBox):
                columns.append(widget)
        elif isinstance(widget, w.DOMWidget):
            fit_label(widget)
    for grid in grids:
        _fit_grid_columns(grid)
    for column in columns:
        _align_labels(column)


def _align_labels(column: w.VBox) -> None:
    """Give the labelled fields stacked in *column* one label width (their widest), so a
    field whose label was widened does not push its input out of line with the others."""
    fields = [(c, _label_em(c)) for c in column.children if not isinstance(c, w.Checkbox)]
    fields = [(c, em) for c, em in fields if em and _em(c.layout.width) is not None]
    widest = max((em for _, em in fields), default=0.0)
    for field, em in fields:
        if em < widest:
            _set_label_em(field, widest, em)


_AUTO_COLUMNS = re.compile(r"repeat\(auto-fill, (\d+(?:\.\d+)?)em\)")


def _fit_grid_columns(grid: w.GridBox) -> None:
    """Widen a grid's auto-filled em columns to its widest fitted cell, so a widened field
    never runs into its neighbour's label."""
    m = _AUTO_COLUMNS.fullmatch(grid.layout.grid_template_columns or "")
    widths = [_em(c.layout.width) for c in grid.children if isinstance(c, w.DOMWidget)]
    widest = max((x for x in widths if x is not None), default=0.0)
    if m and widest > float(m.group(1)):
        set_layout(grid, grid_template_columns=f"repeat(auto-fill, {widest:g}em)")


@built_whole
def labelled_text(label: str, value: str = "", placeholder: str = "", width: str = "26em",
                  label_width: str = LABEL_WIDTH) -> w.Text:
    """A text field with a visible label (its accessible name), wide enough to show its label
    and its placeholder whole."""
    field = w.Text(value=value, description=label, placeholder=placeholder,
                   style={"description_width": label_width}, layout=shared_layout(width=width))
    fit_label(field)
    return field


def tool_layout() -> w.Layout:
    """The frame around a whole tool, setting it apart from the prose around it."""
    return shared_layout(border=f"1px solid {FRAME}", padding=FRAME_PADDING, margin=FRAME_MARGIN,
                         width="100%")


def headline_html(inner: str, size: str = VERDICT_SIZE, colour: str | None = None) -> str:
    """A tool's headline line (a total, a verdict) in the book's headline style. *inner* is
    HTML the caller has already escaped, so it may hold markup such as ``<b>``."""
    tint = f";color:{colour}" if colour else ""
    return f"<div class='rulebook-total' style='font-size:{size}{tint}'>{inner}</div>"


def waiting_html(what: str = "the dice") -> str:
    """The result line of a tool before its first roll: how to roll, or to type *what* the
    reader rolled at the table ("the dice", "the d100", "the d8s")."""
    return f"<i>Press Roll, or type {what} you rolled and press Use my dice.</i>"


class Callbacks(Generic[T]):
    """The callbacks told of every new value of a part that outlives the tools reading it (a
    chapter's shared roster lives as long as the page), called in the order they came.

    A tool's method is held weakly: holding it would keep the tool, with all its widgets,
    alive and called for as long as the part lives, though the page dropped it (a tool the
    reader rebuilt). A callback found dead is dropped. Any other callable (a function, a list's
    ``append``) is held as given, so a lambda that uses a tool would keep it: pass the tool's
    method instead."""

    def __init__(self) -> None:
        self._held: list[weakref.WeakMethod[Callable[[T], None]] | Callable[[T], None]] = []

    def add(self, callback: Callable[[T], None]) -> None:
        """Call *callback* with every value from now on."""
        if isinstance(callback, types.MethodType):
            self._held.append(weakref.WeakMethod(callback))
        else:
            self._held.append(callback)

    def live(self) -> list[Callable[[T], None]]:
        """The callbacks whose tools are still alive, in order (the dead ones are dropped)."""
        found = [(held, held() if isinstance(held, weakref.WeakMethod) else held)
                 for held in self._held]
        self._held = [held for held, callback in found if callback is not None]
        return [callback for _, callback in found if callback is not None]

    def __len__(self) -> int:
        return len(self.live())

    def __call__(self, value: T) -> None:
        """Tell every live callback of *value*, in the order they were added."""
        for callback in self.live():
            callback(value)


class _BuiltTool(BuiltWhole):
    """Metaclass of :class:`Tool`: a tool is built whole, and, once built, a tool that asks
    for it (:attr:`Tool.holds_blank_lines`) holds back its blank lines."""

    def __call__(cls, *args: object, **kwargs: object) -> object:
        with opened_when_built():
            tool = super().__call__(*args, **kwargs)
            if tool.holds_blank_lines:
                tool._hold_blank_lines()
        return tool


class Tool(w.VBox, metaclass=_BuiltTool):
    """A whole tool: framed apart from the prose, its labels fitted to their text, and its
    ``rulebook-…`` CSS class (the book's style and the browser tests find a tool by it). It is
    built whole (lean.py): its widgets share their layouts and styles and are opened once it
    is built, each with its final state."""

    waiting_for = "the dice"  # what the reader types instead of rolling, in the tool's words
    #: Every engine call the tool makes (see :class:`Reach`); a tool that makes none says so
    #: with ``reaches = ()`` and a comment.
    reaches: ClassVar[tuple[Reach, ...]] = ()
    #: Whether the tool's blank lines once it is built (error lines, explanations), and its
    #: hidden parts, are left out of the page until they first show (lean.hold_until_shown):
    #: each is one model fewer for the page to open, and most readers never see them.
    holds_blank_lines: ClassVar[bool] = False

    @classmethod
    def words(cls) -> dict[str, str]:
        """Engine parameter → the label of the field that sets it, over all of the tool's
        reaches (the first reach that names a parameter wins)."""
        words: dict[str, str] = {}
        for reach in cls.reaches:
            for name, label in reach.fields.items():
                words.setdefault(name, label)
        return words

    @property
    def waiting(self) -> str:
        """The result line before a roll (see :func:`waiting_html`)."""
        return waiting_html(self.waiting_for)

    def __init__(self, children: list[w.Widget | Section], css_class: str = "") -> None:
        super().__init__([widget for child in children
                          for widget in (child if isinstance(child, Section) else (child,))],
                         layout=tool_layout())
        fit_labels(self)
        if css_class:
            self.add_class(css_class)
        self._speak_reader_words()

    def __repr__(self) -> str:
        """The tool's text form, which IPython computes for every cell that shows a tool (the
        page shows the view instead): its class and CSS classes. ipywidgets' own form spells
        out every widget inside, only to be cut to 110 characters, while the page waits for the
        kernel."""
        return f"{type(self).__name__}(classes={list(self._dom_classes)!r})"

    def _hold_blank_lines(self) -> None:
        """Hold back (lean.hold_until_shown) every line of text of the tool that is still blank
        (an error line, an explanation, a note) and sized by nothing else, and every part of
        it that is hidden, until it shows."""
        def hold_in(box: w.Box) -> None:
            for child in box.children:
                if isinstance(child, w.Box):
                    hold_in(child)
                if isinstance(child, w.DOMWidget) and is_shared(child.layout) \
                        and not is_shown(child):
                    hold_until_shown(child, box)
                elif isinstance(child, w.HTML) and not child.value \
                        and not props_of(child.layout):
                    hold_until_shown(child, box, blank=True)
        hold_in(self)

    def _speak_reader_words(self) -> None:
        """Give the tool's error lines (its own and its dice entry's) the tool's words, so an
        engine message names fields as the reader sees them. A file's error lines (upload,
        restore) keep their own words: they name the fields of the file."""
        words = self.words()
        entries = [v for v in vars(self).values() if isinstance(v, DiceEntry)]
        # an entry's error line kept under a name of the tool's own keeps the entry's words
        theirs = {id(entry.error) for entry in entries}
        for value in vars(self).values():
            if isinstance(value, ErrorLine) and id(value) not in theirs:
                value.words = words
        for entry in entries:
            entry.error.words = entry.reader_words(words)


@built_whole
def button(label: str, tooltip: str = "", primary: bool = False) -> w.Button:
    """A text button (no icons: Voilà's icon font comes from a CDN)."""
    return w.Button(description=label, tooltip=tooltip or label,
                    button_style="primary" if primary else "",
                    layout=shared_layout(width="auto"))


class ErrorLine(w.HTML, metaclass=BuiltWhole):
    """One line that shows a RulesError's message in place; empty when all is well. The tool
    that holds it gives it its :meth:`Tool.words`, so an engine parameter named in a message
    shows as its field's label."""

    def __init__(self) -> None:
        super().__init__(value="")
        self.words: Mapping[str, str] = {}
        self.add_class("rulebook-error")

    def show(self, message: str) -> None:
        shown = reader_words(message, self.words)
        self.value = (f'<div role="alert" style="color:{ERROR};font-weight:600">'
                      f"⚠ {html.escape(shown)}</div>")

    def clear(self) -> None:
        self.value = ""

    @property
    def message(self) -> str:
        """The plain message shown (empty if none)."""
        if not self.value:
            return ""
        return html.unescape(self.value.split("⚠ ", 1)[1].rsplit("</div>", 1)[0])


def answers(*blank: str, line: str = "error", prefix: str = "",
            waiting: tuple[str, ...] = ()) -> Callable[[Callable[..., None]],
                                                   Callable[..., None]]:
    """Make a tool method one answer to the reader's input. Its error line (the attribute
    *line*, dotted for one inside another: ``"entry.error"``) clears first, so a message goes
    once the input is fixed; a RulesError raised inside shows there in place (after *prefix*),
    in the words of the field it names, and the views named in *blank* are emptied rather
    than left showing the last good answer; those named in *waiting* go back to the tool's
    waiting line (:attr:`Tool.waiting`)."""
    def wrap(method: Callable[..., None]) -> Callable[..., None]:
        @functools.wraps(method)
        def run(self: w.Widget, *args: object, **kwargs: object) -> None:
            error = functools.reduce(getattr, line.split("."), self)
            error.clear()
            try:
                method(self, *args, **kwargs)
            except RulesError as exc:
                for name in blank:
                    view = getattr(self, name)
                    if isinstance(view, ExplanationView):
                        view.clear()
                    else:
                        view.value = ""
                for name in waiting:
                    getattr(self, name).value = self.waiting
                error.show(f"{prefix}{exc}")
        return run
    return wrap


@built_whole
def int_field(label: str, value: int, low: int | None = None, high: int | None = None, *,
              style: dict[str, str] | None = None, layout: w.Layout | None = None) -> w.IntText:
    """A whole-number field with its visible label; with *low* it keeps to *low*..*high* (no
    upper end when *high* is None)."""
    common = {"description": label, "style": style or {"description_width": LABEL_WIDTH},
              "layout": layout or shared_layout(width="20em")}
    if low is None:
        return w.IntText(value=value, **common)
    return w.BoundedIntText(value=value, min=low, max=high if high is not None else 10**6,
                            **common)


def read_int(label: str, field: w.Text, minimum: int = 0, blank: int | None = None) -> int:
    """The whole number the reader typed in the text *field*, at least *minimum*; *blank*
    stands for an empty field (an error when None). Errors name the field by *label*."""
    value = parse_int_text(label, field.value, blank=blank)
    if value < minimum:
        raise RulesError(f"{label} must be {minimum} or more, got {value}")
    return value


def new_seed() -> int:
    """A fresh seed for the Roll button, shown to the reader so the roll can be replayed."""
    return random.SystemRandom().randrange(1, 1_000_000)


def _entry_label(label: str, least: float) -> str:
    """The label column of a dice entry's field: *least* em, or the label's text and its
    padding (:data:`LABEL_PAD_EM`) when a named entry's label needs more."""
    return f"{max(least, text_em(label) + LABEL_PAD_EM):g}em"


def _full_line() -> w.Layout:
    """A row of a dice entry that takes a line of its own, wrapping in a narrow column."""
    return shared_layout(flex_flow="row wrap", width="100%")


class DiceEntry(w.HBox, metaclass=BuiltWhole):
    """Roll with a visible seed, replay a seed, or type the dice rolled at the table.

    Handlers registered with :meth:`on_request` receive a :class:`RollRequest` holding a
    seeded or typed :class:`~rulescore.dice.DiceSource`; they make the rules call. With
    ``percentile=True`` a d100 can also be typed as a tens die and a ones die. A d10's 0 and a
    d100's 00 are typed as they show (the engine reads them 10 and 100). With *groups*
    the reader types one list a side separated by "|"; *each* says whose list is whose.
    A tool with a second entry gives it a *name* ("fall"): its controls then say what they roll
    ("Roll the fall", "Fall seed", "Replay the fall's seed", "Fall dice", "Use the fall dice"),
    so a screen reader, and a reader's messages, tell the two entries apart.

    Roll, Seed and Replay seed sit in the entry's own wrapping row; the typed dice and the
    d100's tens and ones each take a full-width line below them, and the error line follows on
    a line of its own. The first line has no box of its own: every box is one more model for
    the page to open (lean.py).
    """

    def __init__(self, dice_hint: str = "e.g. 6, 6, 3", percentile: bool = False,
                 groups: int = 0, each: str = "", name: str = "") -> None:
        self.groups = groups  # > 0: My dice holds that many lists separated by "|"
        self.each = each
        self.name = name
        the = f" the {name}" if name else ""
        own = f"{name[:1].upper()}{name[1:]} " if name else ""
        self.roll_button = button(f"Roll{the}", f"Roll{the} with a new random seed",
                                  primary=True)
        self.seed = labelled_text(f"{own}seed" if name else "Seed", placeholder="a number",
                                  width="14em", label_width=_entry_label(f"{own}seed", 4))
        self.replay_button = button(f"Replay{the}'s seed" if name else "Replay seed",
                                    "Roll again with the seed in the field")
        self.my_dice = labelled_text(f"{own}dice" if name else "My dice",
                                     placeholder=dice_hint, width="22em",
                                     label_width=_entry_label(f"{own}dice", 5))
        self.use_dice_button = button(f"Use{the} dice" if name else "Use my dice",
                                      f"Use the faces you rolled at the table{' for' + the}"
                                      if name else "Use the faces you rolled at the table")
        self.error = ErrorLine()
        self._handlers: list[Callable[[RollRequest], None]] = []
        # The tens-and-ones row of a d100 is built the first time it is shown: most tools never
        # show it, and its five models would cost every page that holds one (lean.py).
        self.percentile_row: w.HBox | None = None
        super().__init__([
            self.roll_button, self.seed, self.replay_button,
            w.HBox([self.my_dice, self.use_dice_button], layout=_full_line()),
            self.error,
        ], layout=shared_layout(flex_flow="row wrap"))
        self.set_percentile(percentile)
        self.roll_button.on_click(lambda _: self.roll())
        self.replay_button.on_click(lambda _: self.replay())
        self.use_dice_button.on_click(lambda _: self.use_dice())

    @built_whole
    def _build_percentile_row(self) -> w.HBox:
        """The Tens die and Ones die fields and their button, built whole (their box is
        placed by :meth:`set_percentile` once they are open)."""
        self.tens = labelled_text("Tens die (00–90)", placeholder="e.g. 70", width="17em",
                                  label_width="8em")
        self.ones = labelled_text("Ones die (0–9)", placeholder="e.g. 3", width="15em",
                                  label_width="7em")
        self.use_tens_button = button("Use tens and ones")
        self.use_tens_button.on_click(lambda _: self.use_tens_ones())
        return w.HBox([self.tens, self.ones, self.use_tens_button], layout=_full_line())

    def set_percentile(self, on: bool) -> None:
        """Show or hide the tens-and-ones entry of a d100 (built the first time it shows)."""
        if self.percentile_row is None:
            if not on:
                return
            self.percentile_row = self._build_percentile_row()
            # before the error line, which may not be in the row yet (lean.hold_until_shown)
            self.children = (*(c for c in self.children if c is not self.error),
                             self.percentile_row,
                             *(c for c in self.children if c is self.error))
        set_shown(self.percentile_row, on)

    def on_request(self, handler: Callable[[RollRequest], None]) -> None:
        self._handlers.append(handler)

    def reader_words(self, words: Mapping[str, str]) -> dict[str, str]:
        """The tool's *words* as this entry's messages use them. A named entry's own dice
        field stands where the words name the unnamed entry's My dice, and for the engine's
        ``dice``: the dice its roll's engine call reads are the ones typed there."""
        if not self.name:
            return dict(words)
        mine = self.my_dice.description
        # RollRequest.expect_typed names the field "My dice": here it is this entry's own
        return {**{k: mine if v == "My dice" else v for k, v in words.items()}, "dice": mine,
                "My dice": mine}

    def _hand_over(self, request: RollRequest) -> None:
        """Give *request* to every handler. (Not ``_send``: that name is ipywidgets' own way
        of sending a widget's state to the page, which a page asks for when it reconnects.)"""
        self.error.clear()
        for handler in self._handlers:
            handler(request.fresh())

    def roll(self, seed: int | None = None) -> None:
        """Roll with *seed* (a fresh one if None) and show it in the seed field."""
        seed = new_seed() if seed is None else seed
        self.seed.value = str(seed)
        self._hand_over(RollRequest.seeded(seed))

    @answers()
    def _send_read(self, read: Callable[[], RollRequest]) -> None:
        """Read the reader's fields into a request; show a RulesError in place instead."""
        self._hand_over(read())

    def replay(self) -> None:
        """Roll again with the seed typed in the Seed field."""
        self._send_read(lambda: RollRequest.seeded(parse_int_text(self.seed.description,
                                                                  self.seed.value)))

    def use_dice(self) -> None:
        """Read the faces typed in My dice."""
        if not self.groups:
            self._send_read(lambda: RollRequest.typed(
                parse_int_list(self.my_dice.description, self.my_dice.value)))
            return

        def read() -> RollRequest:
            parts = self.my_dice.value.split("|")
            if len(parts) != self.groups:
                lists = "list" if self.groups == 1 else "lists"
                each = f", {self.each}" if self.each else ""
                raise RulesError(f"{self.my_dice.description} must be {self.groups} {lists} "
                                 f"separated by |{each}, got {len(parts)}")
            return RollRequest.typed_groups(parse_int_list(self.my_dice.description, part)
                                            for part in parts)
        self._send_read(read)

    def use_tens_ones(self) -> None:
        """Read a d100 thrown as a tens die and a ones die (00 and 0 read 100)."""
        def read() -> RollRequest:
            value = d100_from_digits(parse_int_text("Tens die", self.tens.value),
                                     parse_int_text("Ones die", self.ones.value))
            self.my_dice.value = str(value)
            return RollRequest.typed([value])
        self._send_read(read)


def tick_indices(values: list[int], bar: float) -> set[int]:
    """Which bars of a chart get an axis label: evenly spaced so that no two labels (each
    *bar* px apart) overlap, the first and the last always labelled."""
    if not values:
        return set()
    label = max(len(str(v)) for v in values) * TICK_CHAR_PX + 6
    step = max(1, math.ceil(label / bar))
    ticks = list(range(0, len(values), step))
    last = len(values) - 1
    if ticks[-1] != last:
        if len(ticks) > 1 and last - ticks[-1] < step:
            ticks.pop()
        ticks.append(last)
    return set(ticks)


def _svg_chart(items: list[tuple[int, Fraction]], success: Callable[[int], bool],
               title: str) -> str:
    """A bar chart of a distribution as inline SVG (works live and in the static book)."""
    width, height, pad = 640, 190, 30
    top = max(float(p) for _, p in items) or 1.0
    n = len(items)
    bar = (width - 2 * pad) / n
    bars, labels = [], []
    ticks = tick_indices([v for v, _ in items], bar)
    for i, (v, p) in enumerate(items):
        h = (height - 2 * pad) * float(p) / top
        x = pad + i * bar
        colour = SUCCESS if success(v) else OTHER
        bars.append(f'<rect x="{x:.1f}" y="{height - pad - h:.1f}" width="{max(bar - 1, 0.6):.1f}"'
                    f' height="{h:.1f}" fill="{colour}"><title>{v}: {percent(p)}</title></rect>')
        if i in ticks:
            labels.append(f'<text x="{x + bar / 2:.1f}" y="{height - pad + 14}" font-size="11"'
                          f' text-anchor="middle">{v}</text>')
    axis = (f'<text x="{pad}" y="{pad - 10}" font-size="11">{percent(Fraction(top))} '
            f'(tallest bar)</text>'
            f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" '
            f'stroke="{FAINT}"/>')
    return (f'<svg role="img" aria-label="{html.escape(title)}" viewBox="0 0 {width} {height}"'
            f' style="width:100%;max-width:{width}px">{axis}{"".join(bars)}{"".join(labels)}</svg>')


_TABLE_STYLE = ("<style>.rulebook-odds{border-collapse:collapse}.rulebook-odds td,"
                ".rulebook-odds th{padding:2px 10px;text-align:right;"
                f"border-bottom:1px solid {RULE_LINE}}}</style>")


EXACT_INLINE = 15  # longest exact fraction written out beside its percentage


def exact_html(p: Fraction) -> str:
    """A probability's exact fraction, or, when it is too long to read at a glance (a
    60-digit fraction), a "show exact" toggle that holds it."""
    exact = str(p)
    if len(exact) <= EXACT_INLINE:
        return exact
    return (f"<details class='rulebook-exact' style='display:inline-block'>"
            f"<summary>show exact</summary>{exact}</details>")


def chance_html(p: Fraction, *, strong: bool = False) -> str:
    """A probability as the reader reads it: its percentage first (in bold with *strong*),
    then its exact fraction when that is short; a long fraction waits behind a toggle."""
    lead = f"<b>{percent(p)}</b>" if strong else percent(p)
    if p.denominator == 1:
        return lead
    exact = exact_html(p)
    return f"{lead} ({exact})" if exact == str(p) else f"{lead} {exact}"


def odds_line(css_class: str, body: str) -> str:
    """A line of text holding chances (:func:`chance_html`): a block of its own, as a paragraph
    would be, but a ``div``, since a paragraph cannot hold the "show exact" toggle (the browser
    would close the paragraph before it)."""
    return f"<div class='{css_class}' style='margin:0.5em 0'>{body}</div>"


def odds_table_html(rows: Iterable[tuple[str, Fraction]], head: str) -> str:
    """A table of named outcomes with their chance in percent and as an exact fraction."""
    body = "".join(f"<tr><td>{html.escape(k)}</td><td>{percent(p)}</td>"
                   f"<td>{exact_html(p)}</td></tr>" for k, p in rows)
    return (f"<table class='rulebook-odds'><thead><tr><th>{html.escape(head)}</th>"
            f"<th>Chance</th><th>Exact</th></tr></thead><tbody>{body}</tbody></table>")


def odds_html(dist: Distribution, success: Callable[[int], bool] | None = None,
              headline: str = "", label: str = "Total") -> str:
    """The exact distribution as a headline, a bar chart and a table (fraction and percent)."""
    succeed = success or (lambda v: False)
    items = list(dist.items())
    rows = []
    at_least = Fraction(1) - dist.truncated
    for v, p in items:
        style = f' style="color:{SUCCESS};font-weight:600"' if succeed(v) else ""
        rows.append(f"<tr{style}><td>{v}</td><td>{percent(p)}</td><td>{exact_html(p)}</td>"
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
    parts.append(f"<div style='font-size:{NOTE_SIZE}'>{legend}Mean {float(dist.mean()):.3g}; "
                 f"{len(items)} possible results.</div>")
    if dist.truncated:
        parts.append(f"<div style='font-size:{NOTE_SIZE}'>Exact up to {dist.explode_depth} explosions "
                     f"a die; the chance of more ({percent(dist.truncated)}) is not listed.</div>")
    parts.append(f"<details{opened}><summary>Table of all {len(items)} results</summary>"
                 f"{table}</details>")
    return "".join(parts)


class OddsView(w.HTML, metaclass=BuiltWhole):
    """Shows a distribution (see :func:`odds_html`)."""

    def show(self, dist: Distribution, success: Callable[[int], bool] | None = None,
             headline: str = "", label: str = "Total") -> None:
        self.value = odds_html(dist, success, headline, label)


def value_note(result: Resolution) -> str:
    """``" (value 8)"`` after a result's outcome, only when the value adds something: it is a
    number and the outcome text does not already show it ("Tick 4", "8E", "HR3")."""
    value = result.value
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
        return ""
    shown = str(result.outcome).replace("\u2212", "-")
    if re.search(rf"(?<![\d.]){re.escape(str(value))}(?!\d)", shown):
        return ""
    return f" (value {value})"


def rule_html(rule: RuleRef) -> str:
    """A step's rule reference: its section, then each of our rulings it applies named by its
    title and linked where the rulings chapter shows it, as the book's notes link them."""
    plain = html.escape(f"{rule.system} §{rule.section}")
    if not rule.rulings:
        return plain
    from .book import ruling_link   # the book renders its worked steps with this module
    return f"{plain}; " + cite_rulings(rule.system, rule.rulings,
                                       lambda a: ruling_link(rule.system, a.id))


def steps_html(steps: Iterable[Step]) -> str:
    """A trace as numbered steps, each with its rule reference (:func:`rule_html`)."""
    items = "".join(f"<li>{html.escape(s.text)} <small style='color:{FAINT}'>"
                    f"[{rule_html(s.rule)}]</small></li>" for s in steps)
    return f"<ol class='rulebook-trace'>{items}</ol>"


class ExplanationView(w.HTML, metaclass=BuiltWhole):
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
                f"border:1px solid {INK};border-radius:4px;text-align:center;"
        if not d.kept:
            style += "opacity:.5;text-decoration:line-through;"
        if d.success:
            style += f"background:{SUCCESS};color:white;"
        if d.exploded:
            style += "border-style:dashed;"
        note = "dropped" if not d.kept else ("success" if d.success else "kept")
        boxes.append(f'<span style="{style}" title="die {d.die}: {note}">{face}</span>')
    return "".join(boxes)


class Section(tuple):
    """A titled block of a tool: its title and its widgets, which the tool lays in its own
    column (a box of their own would cost every page one more model a block; see lean.py)."""


@built_whole
def section(title: str, *children: w.Widget) -> Section:
    """A titled block of a tool (given among a :class:`Tool`'s children)."""
    return Section((w.HTML(f"<h4 style='margin:.6em 0 .2em'>{html.escape(title)}</h4>"),
                    *children))


def parse_roster(label: str, text: str, numbers: tuple[str, ...], example: str,
                 extra: str = "") -> list[tuple[str, list[int], str | None]]:
    """Read a roster typed as ``name n n [extra]; name n n; …``: one combatant between each
    ``;``, a name, then one whole number for each of *numbers* (named in errors as "QUICK of
    Ada"), then, when *extra* names it, one optional last word the tool reads itself. Returns
    (name, numbers, extra word or None) for each; RulesError names the entry or the value."""
    wanted = ["a name", *numbers] + ([extra] if extra else [])
    shape = ", ".join(wanted[:-1]) + " and " + wanted[-1]
    people = []
    for i, part in enumerate(p for p in text.split(";") if p.strip()):
        bits = part.split()
        if len(bits) - 1 - len(numbers) not in ((0, 1) if extra else (0,)):
            raise RulesError(f"{label}: entry {i + 1} must be {shape}, got '{part.strip()}'")
        name = bits[0]
        values = [parse_int_text(f"{what} of {name}", bit)
                  for what, bit in zip(numbers, bits[1:])]
        people.append((name, values, bits[len(numbers) + 1] if len(bits) > len(numbers) + 1
                       else None))
    if not people:
        raise RulesError(f"{label} is empty: type e.g. {example}")
    return people
