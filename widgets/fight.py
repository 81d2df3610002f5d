"""The frame of every "Running a fight" page: the roster, a system's fight state, page-wide undo
and redo over both, and a log of every roll.

A system's fight page (``widgets/<system>_fight.py``) builds its panels (turn order, attack,
apply, walkers) around one :class:`FightPage`: each panel reads ``page.roster`` and
``page.state`` and calls ``page.apply(line, roster=…, state=…)`` once per result, which is one
step of the page's :class:`~rulescore.history.History`; Undo and Redo at the top of the page
step back and forth over every panel at once. No rule lives here: the state is whatever frozen
value the system's engine keeps, saved and loaded by the functions the system gives.

The roster is kept in the browser by its editor (``rulebook-roster-<system>``, shared with every
chapter of the system); the fight state and the roll log are kept beside it under
``rulebook-fight-<system>`` (:func:`page_format`), and all come back, without a click, when the
page is opened again.
"""

from __future__ import annotations

import functools
import html
import json
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import ipywidgets as w
from traitlets import TraitError

from rulescore import saved
from rulescore.errors import RulesError
from rulescore.history import History
from rulescore.roster import Roster, RosterFormat

from .common import ErrorLine, ExplanationView, RollRequest, Section, Tool, button, section
from .lean import built_whole, set_layout, set_shown, shared_layout
from .roster import RESTORED, RosterEditor
from .storage import BrowserStore
from .theme import FAINT, RULE_LINE

__all__ = ["FightPage", "LogEntry", "OnThePage", "RollLog", "fight_key", "page_format"]

LOG_LINES = 50
"""How many rolls the log shows (the newest)."""
KEPT_FIGHT = "the fight kept in this browser"
MAX_FIGHT_TEXT = saved.MAX_BYTES // 2
"""The longest system fight text a kept page holds: inside the page's JSON each of its quotes
takes two characters, so half a saved file's limit always fits (60 fighters are far shorter)."""
SUMMARY_NAMES = 12
"""How many names the folded Fighters line shows before "and N more"."""
WHAT_LENGTH, DICE_LENGTH, OUTCOME_LENGTH = 200, 400, 600
"""How much of a log line's parts a kept fight holds (a longer one is cut)."""
PAGE_FORMAT = "rulebook/fight-page"
LOG_CLASS = "rulebook-roll-log"
"""The roll log's CSS class: a part of a fight page, not a tool framed on its own."""


def fight_key(system: str) -> str:
    """The localStorage key of a system's fight state."""
    return f"rulebook-fight-{system}"


@functools.cache
def page_format() -> saved.SavedFormat:
    """What a fight page keeps in the browser, field by field: the system's fight, as the text
    its own format reads, and the roll log's lines, newest first."""
    line = saved.Record({"what": saved.Text(WHAT_LENGTH), "dice": saved.Text(DICE_LENGTH),
                         "outcome": saved.Text(OUTCOME_LENGTH), "undone": saved.Flag()})
    return saved.SavedFormat("kept fight", PAGE_FORMAT, 1, saved.Record({
        "fight": saved.Text(MAX_FIGHT_TEXT, blank=False),
        "rolls": saved.ListOf(line, LOG_LINES)}))


def dice_words(request: RollRequest) -> str:
    """How a roll's dice were made, replayably: "seed 123" or "your dice 6, 2, 1"."""
    if request.seed is not None:
        return f"seed {request.seed}"
    if request.groups:
        return "your dice " + " | ".join(", ".join(map(str, g)) for g in request.groups)
    return "your dice " + ", ".join(map(str, request.fresh().dice.leftover()))


class LogEntry(NamedTuple):
    """One roll of the log: *what* was rolled, with *request*'s dice (None for a line kept in
    the browser, which has its words only), giving *outcome*; *dice* in words; *undone* when
    the page stepped back over it; *step* is the page state its result made (None until a
    step follows it), *dropped* when that step can no longer be redone."""

    what: str
    request: RollRequest | None
    outcome: str
    dice: str
    undone: bool = False
    step: object = None
    dropped: bool = False


class RollLog(w.VBox):
    """One line per roll, newest first: what was rolled, its seed or typed dice, the outcome,
    and a Replay button that rolls it again with the same dice.

    Each roll belongs to the page step that follows it (its result applied, or whatever step
    the GM takes next). A roll whose step Undo stepped back over stays in the log, struck
    through and marked "undone", and Redo takes the mark off again. The log is the table's record of the dice
    that were rolled: a GM undoes a mistaken entry (the wrong target picked, a missed
    modifier), not the dice the players saw fall, and a roll that vanished on Undo would let a
    bad result be rolled again unnoticed. A roll whose step can no longer be redone (another
    step was taken after the Undo) stays marked for good. Lines kept in the browser come back
    after a reload without a Replay button (their seed or dice are in the line)."""

    def __init__(self) -> None:
        self.entries: list[LogEntry] = []
        self._replays: list[Callable[[RollRequest], None] | None] = []
        self._changed: list[Callable[[], None]] = []
        self.empty = w.HTML(f"<i style='color:{FAINT}'>No rolls yet.</i>")
        super().__init__([self.empty])
        self.add_class(LOG_CLASS)

    def on_change(self, callback: Callable[[], None]) -> None:
        """Call *callback* after every line added, marked or restored (the page keeps them)."""
        self._changed.append(callback)

    @built_whole
    def _line(self, entry: LogEntry,
              replay: Callable[[RollRequest], None] | None) -> w.HBox:
        text = (f"<b>{html.escape(entry.what)}</b> · {html.escape(entry.dice)} · "
                f"{html.escape(entry.outcome)}")
        if entry.undone:
            text = f"<s style='color:{FAINT}'>{text}</s> <i>— undone</i>"
        parts: list[w.Widget] = [w.HTML(text)]
        if replay is not None and entry.request is not None:
            request = entry.request
            again = button("Replay", f"Roll again with the same dice ({entry.dice})")
            again.on_click(lambda _: replay(request.fresh()))
            parts.insert(0, again)
        return w.HBox(parts, layout=shared_layout(align_items="center",
                                                   border_bottom=f"1px solid {RULE_LINE}"))

    def _show(self) -> None:
        self.children = [self._line(e, r) for e, r in zip(self.entries, self._replays)] or [
            self.empty]

    def add(self, what: str, request: RollRequest, outcome: str,
            replay: Callable[[RollRequest], None]) -> None:
        """Log a roll: *what* was rolled, with *request*'s dice, giving *outcome*; its Replay
        button calls *replay* with the same seed or the same typed dice."""
        entry = LogEntry(what, request, outcome, dice_words(request))
        self.entries.insert(0, entry)
        self._replays.insert(0, replay)
        line = self._line(entry, replay)
        self.children = [line, *(c for c in self.children[:LOG_LINES - 1]
                                  if c is not self.empty)]
        del self.entries[LOG_LINES:], self._replays[LOG_LINES:]
        self._tell()

    def _tell(self) -> None:
        for callback in self._changed:
            callback()

    def settle(self, step: object) -> None:
        """The page took a step: the rolls since the last one made it."""
        self.entries = [e._replace(step=step) if e.step is None and e.request is not None
                        else e for e in self.entries]

    def follow(self, current: Sequence[object], redoable: Sequence[object]) -> None:
        """Mark each roll whose step the page has undone (its step among *redoable*, or gone
        for good: a new step was taken after the Undo), and unmark those redone. (A step
        that leaves the front of a long history was never undone and stays unmarked.)"""
        shown = {id(s) for s in current}
        tail = {id(s) for s in redoable}
        marked = []
        for e in self.entries:
            dropped = e.dropped or (e.undone and e.step is not None
                                    and id(e.step) not in shown | tail)
            undone = dropped or (e.step is not None and id(e.step) in tail)
            marked.append(e._replace(undone=undone, dropped=dropped))
        if marked != self.entries:
            self.entries = marked
            self._show()
            self._tell()

    def saved(self) -> list[dict]:
        """The lines as the kept fight holds them (see :func:`page_format`)."""
        return [{"what": e.what[:WHAT_LENGTH], "dice": e.dice[:DICE_LENGTH],
                 "outcome": e.outcome[:OUTCOME_LENGTH], "undone": e.undone}
                for e in self.entries]

    def restore(self, lines: Sequence[dict]) -> None:
        """Show the lines a kept fight holds (checked by :func:`page_format`)."""
        self.entries = [LogEntry(x["what"], None, x["outcome"], x["dice"], x["undone"],
                                 None, x["undone"]) for x in lines][:LOG_LINES]
        self._replays = [None] * len(self.entries)
        self._show()


class OnThePage:
    """What every panel of a fight page does alike: it reads the page's roster and fight,
    redraws on each step of the page (undo and redo included) and writes one step a result.

    A panel is ``class MyPanel(OnThePage, Tool)`` and defines ``render()``. ``fight`` is the
    page's state (a system whose fight must follow the roster overrides it). ``_push`` writes a
    system's move (its ``line``, ``fight`` and ``trace``) as one step, showing its trace in the
    panel's ``explanation`` and dropping the panel's ``_pending`` result."""

    page: FightPage | None = None
    explanation: ExplanationView
    _pending: Any
    result: w.HTML
    apply_button: w.Button
    inputs: list[w.ValueWidget]
    show_filled: Callable[[], None]
    roll: Callable[[RollRequest], None]
    render: Callable[[], None]
    """Draws the panel from the page's roster and fight; each panel defines its own."""

    def attach(self, page: FightPage) -> None:
        """Read and write *page*; redraw whenever it changes."""
        self.page = page
        page.on_change(lambda roster, state: self.render())
        self.render()

    def _page(self) -> FightPage:
        if self.page is None:
            raise RulesError("the fight page is not ready yet")
        return self.page

    @property
    def roll_log(self) -> RollLog:
        """The page's roll log."""
        return self._page().rolls

    @property
    def fight(self) -> Any:
        """The page's fight."""
        return self._page().state

    def _push(self, move: Any) -> None:
        self._pending = None
        self.explanation.show(move.trace) if move.trace else self.explanation.clear()
        self._page().apply(move.line, state=move.fight)

    def _take_pending(self) -> Any:
        """The rolled result waiting for Apply (refused when nothing has been rolled yet)."""
        if self._pending is None:
            raise RulesError("roll the attack first (Roll, or type the dice and press Use my "
                             "dice)")
        return self._pending

    def _applied(self, move: Any) -> None:
        """Write an applied result's *move*: its ``result`` line and ``apply_button`` are spent."""
        self.result.value = ""
        self.apply_button.disabled = True
        self._push(move)

    def _replay(self, values: list, request: RollRequest) -> None:
        """Roll again from the log: the panel's ``inputs`` as they were for that roll, the same
        dice (``show_filled`` then ``roll`` are the panel's own)."""
        self._quiet = True
        try:
            for field, value in zip(self.inputs, values):
                try:
                    field.value = value
                except TraitError:  # a fighter no longer on the roster: keep the field
                    pass
        finally:
            self._quiet = False
        self.show_filled()
        self.roll(request)


class FightPage(Tool):
    """A roster, a system's fight state, page-wide undo/redo over both, and a roll log
    (``rolls``: not ``log``, which every widget already has for its logger)."""

    # The page calls no rule itself: its panels make the engine calls (and declare them) and
    # hand their results to apply; the page keeps, undoes and redoes them.
    reaches = ()

    def __init__(self, fmt: RosterFormat, state: Any, *, save: Callable[[Any], str],
                 load: Callable[[str], Any], panels: Sequence[w.Widget], title: str,
                 starter: Roster | None = None,
                 rename: Callable[[Any, str, str], Any] | None = None) -> None:
        """*rename(state, old, new)* gives the fight state after the roster renamed a fighter
        *old* to *new* (their health, place and record carried over); without it a rename
        leaves the state as it is."""
        self.format = fmt
        self._rename = rename
        self.first_state = state
        self._save, self._load = save, load
        self._callbacks: list[Callable[[Roster, Any], None]] = []
        # its table is made when the reader first opens it (a page's fighters usually start
        # folded to one line)
        self.editor = RosterEditor(fmt, starter=starter, lazy=True)
        # one frame for the whole page: the editor sits in it as one of its sections
        set_layout(self.editor, border_top=None, border_right=None, border_bottom=None,
                   border_left=None, padding="0", margin="0")
        self.history: History[tuple[Roster, Any]] = History.start((self.editor.roster, state))
        self.store = BrowserStore(fight_key(fmt.system))
        self.undo_button = button("Undo", "Nothing to undo yet")
        self.redo_button = button("Redo", "Nothing to redo")
        self.new_fight_button = button("Start a new fight",
                                       "Back to the start of the fight; the fighters stay")
        self.last = w.HTML()
        self.error = ErrorLine()
        self.rolls = RollLog()
        self.rolls.on_change(self._keep)
        # the roster folds to one line once it has fighters, so the turn order and the attack
        # are on the first screen; it opens when empty (there is nothing to fight yet)
        self.fighters_line = w.HTML()
        self.fold_button = button("edit", "Open the roster: add, change or remove fighters")
        self.folded = bool(self.editor.roster.fighters)
        super().__init__([
            w.HTML(f"<h3 style='margin:.3em 0'>{html.escape(title)}</h3>"), self.store,
            self.store.offer,
            w.HBox([self.undo_button, self.redo_button, self.new_fight_button, self.last],
                   layout=shared_layout(align_items="center")),
            self.error,
            Section((w.HBox([self.fighters_line, self.fold_button],
                            layout=shared_layout(align_items="center")), self.editor)),
            *panels,
            section("Rolls", self.rolls),
        ], "rulebook-fight")
        self.fold_button.on_click(lambda _: self.fold(not self.folded))
        self.undo_button.on_click(lambda _: self.undo())
        self.redo_button.on_click(lambda _: self.redo())
        self.new_fight_button.on_click(lambda _: self.apply("a new fight",
                                                            state=self.first_state))
        self.editor.on_change(self._edited)
        self.store.observe(self._found, "stored")
        self.store.on_elsewhere(self._take_elsewhere)
        self._show_history()
        self._show_fighters()

    @property
    def roster(self) -> Roster:
        return self.history.current[0]

    @property
    def state(self) -> Any:
        return self.history.current[1]

    def on_change(self, callback: Callable[[Roster, Any], None]) -> None:
        """Call *callback(roster, state)* after every step, undo and redo included."""
        self._callbacks.append(callback)

    def apply(self, line: str, *, roster: Roster | None = None, state: Any = None) -> None:
        """One step: a new roster and/or state (None keeps the current one), made by *line*;
        one undoable step, kept in the browser, every panel told."""
        new_roster = self.roster if roster is None else roster
        new_state = self.state if state is None else state
        if new_roster.format != self.format:
            raise RulesError(f"this page keeps {self.format.name} fighters")
        history = self.history.push((new_roster, new_state), line)
        self.rolls.settle(history.current)
        self._step(history)

    def undo(self) -> None:
        """Step back over the last change of any panel, roster or state."""
        self._move(lambda: self.history.undo())

    def redo(self) -> None:
        """Step forward again over a change undone."""
        self._move(lambda: self.history.redo())

    def _move(self, go: Callable[[], History]) -> None:
        self.error.clear()
        try:
            history = go()
        except RulesError as exc:
            self.error.show(str(exc))
            return
        self._step(history)

    def _step(self, history: History) -> None:
        """Make *history* the page's: show its roster, keep both, tell every panel."""
        before = self.history.current
        self.history = history
        roster, state = history.current
        if roster is not before[0]:
            self.editor.set_roster(roster, notify=False, line=history.lines[history.position])
        if state is not before[1]:
            self._keep()
        self._changed()

    def fold(self, folded: bool) -> None:
        """Fold the roster to its one-line summary, or open it (an empty one stays open)."""
        self.folded = folded
        self._show_fighters()

    def _show_fighters(self) -> None:
        """The Fighters heading: open, or folded to "Fighters: Ada, Bo — edit"."""
        names = self.roster.names()
        if not names:
            self.folded = False
        shown = ", ".join(names[:SUMMARY_NAMES]) + (
            f" and {len(names) - SUMMARY_NAMES} more" if len(names) > SUMMARY_NAMES else "")
        title = f"Fighters: {shown} —" if self.folded else "Fighters"
        self.fighters_line.value = (f"<h4 style='margin:.6em .4em .2em 0'>"
                                    f"{html.escape(title)}</h4>")
        self.fold_button.description = "edit" if self.folded else "fold"
        self.fold_button.tooltip = ("Open the roster: add, change or remove fighters"
                                    if self.folded else "Fold the roster to one line")
        set_shown(self.fold_button, bool(names))
        if not self.folded:
            self.editor.build()
        set_shown(self.editor, not self.folded)

    def _keep(self) -> None:
        """Keep the fight and the roll log in the browser (:func:`page_format`)."""
        self.store.save(json.dumps({"format": PAGE_FORMAT, "version": 1,
                                    "fight": self._save(self.state),
                                    "rolls": self.rolls.saved()}, separators=(",", ":")))

    def _changed(self) -> None:
        h = self.history
        self.rolls.follow(h.states[:h.position + 1], h.states[h.position + 1:])
        self._show_history()
        self._show_fighters()
        for callback in self._callbacks:
            callback(self.roster, self.state)

    def _show_history(self) -> None:
        h = self.history
        self.undo_button.disabled = not h.can_undo
        self.redo_button.disabled = not h.can_redo
        self.undo_button.tooltip = (f"Undo: {h.lines[h.position]}" if h.can_undo
                                    else "Nothing to undo yet")
        self.redo_button.tooltip = (f"Redo: {h.lines[h.position + 1]}" if h.can_redo
                                    else "Nothing to redo")
        self.last.value = (f"<span style='color:{FAINT}'>&ensp;Last: "
                           f"{html.escape(h.lines[h.position])}</span>" if h.can_undo else "")

    def _restart_or_push(self, roster: Roster, state: Any, line: str) -> None:
        """What the browser kept becomes the page's start while nothing has been done yet
        (undo never empties the page); after a step it is one more step."""
        if len(self.history.states) == 1:
            self.history = History.start((roster, state), line)
            self._changed()
        else:
            self.history = self.history.push((roster, state), line)
            self._changed()

    def _edited(self, roster: Roster) -> None:
        """The reader changed the roster in its editor: one step of the page."""
        if self.editor.last_line == RESTORED:
            if len(self.history.states) == 1:
                self.folded = bool(roster.fighters)  # the page opens on a kept roster
            self._restart_or_push(roster, self.state, RESTORED)
            return
        state = before = self.state
        if self.editor.last_rename and self._rename is not None:
            try:
                state = self._rename(state, *self.editor.last_rename)
            except RulesError as exc:
                # the roster allows the name but the fight holds it (a broken Horde's single):
                # the roster change is undone and the reason shown
                self.editor.set_roster(self.roster, notify=False, line="the rename undone")
                self.error.show(str(exc))
                return
        self.history = self.history.push((roster, state), self.editor.last_line)
        if state is not before:
            self._keep()
        self._changed()

    def _found(self, change: dict) -> None:
        """The browser kept a fight: carry on with it, without a click; a damaged one is
        named and the fight starts afresh."""
        text = change["new"]
        if not text or len(self.history.states) > 1:
            return
        try:
            state, rolls = self._read_kept(text)
        except RulesError as exc:
            self.error.show(f"The fight kept in this browser cannot be read, so this one "
                            f"starts afresh: {exc}")
            return
        self.rolls.restore(rolls)
        self._restart_or_push(self.roster, state, KEPT_FIGHT)

    def _take_elsewhere(self, text: str) -> None:
        """The reader chose the fight another tab kept (a RulesError if it cannot be read,
        shown on the offer); one that tab removed leaves this fight as it is."""
        if not text:
            return
        state, rolls = self._read_kept(text)
        self.rolls.restore(rolls)
        self._restart_or_push(self.roster, state, "the fight kept by another tab")

    def _read_kept(self, text: str) -> tuple[Any, list[dict]]:
        """The fight and the roll log's lines a kept page holds, each field checked; a fight
        kept alone (the system's own file, without a log) is read with no lines."""
        data = saved.parse_json(text, page_format().noun)
        if not (isinstance(data, dict) and data.get("format") == PAGE_FORMAT):
            return self._load(text), []
        kept = saved.read(page_format(), text)
        return self._load(kept["fight"]), kept["rolls"]
