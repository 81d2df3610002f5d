"""The roster editor: a system's fighters, one row each, entered once and kept in the browser.

Every field is one cell of a table whose headers show once (grouped under their headings), so a
GM reads the whole party at a glance in the middle of a fight. Each change is one call on
:class:`rulescore.roster.Roster`; a refused value shows its message under the table, its field
marked, and changes nothing until it is fixed.

The roster is kept in the reader's browser under ``rulebook-roster-<system>``, one key for every
chapter of that system, and loaded again, without a click, on every page that shows the editor:
the fighters typed on one page are there on the next. It can also be downloaded and uploaded as
JSON (a refused file changes nothing).

A chapter's roster (:func:`roster`) opens as one line, "Fighters: Ada, Bo — edit", with the
New fighter field beside it while the roster is empty: the table, its menus and the file
buttons are made the first time the reader opens it (or code reads one of them), because
every widget costs a page time to open and most chapters are read without editing fighters.
"""

from __future__ import annotations

import html
import importlib
import math
from collections.abc import Callable, Sequence

import ipywidgets as w

from rulescore import saved
from rulescore.errors import RulesError
from rulescore.roster import NAME_LABEL, PC_LABEL, Column, Fighter, Roster, RosterFormat
from rulescore.systems import system as system_data

from .common import Callbacks, ErrorLine, Reach, Tool, button, fit_label, fit_labels, text_em
from .lean import built_whole, set_layout, set_shown, shared_layout
from .storage import BrowserStore, JsonTransfer
from .theme import ERROR, FAINT, RULE_LINE

__all__ = ["FighterPick", "RosterEditor", "forget_shared_rosters", "roster", "roster_format",
           "shared_roster", "store_key"]

RESTORED = "the fighters kept in this browser"
"""What :attr:`RosterEditor.last_line` says after the roster came back from the browser."""

_CSS = f"""<style>
.rulebook-roster-grid .widget-inline-hbox, .rulebook-roster-grid .widget-checkbox
  {{margin: 0; min-width: 0}}
.rulebook-roster-grid .widget-label, .rulebook-roster-grid .widget-label-basic span
  {{position: absolute !important; width: 1px !important; height: 1px; overflow: hidden;
    clip: rect(0 0 0 0); white-space: nowrap; margin: 0; padding: 0}}
.rulebook-roster-group {{white-space: nowrap; overflow: visible}}
.rulebook-roster-grid .widget-checkbox {{height: 28px; align-items: center;
  justify-content: center}}
.rulebook-roster-head {{overflow-wrap: anywhere}}
.rulebook-roster-grid .widget-html {{height: auto; min-height: 0}}
.rulebook-roster-head > .widget-html-content, .rulebook-roster-group > .widget-html-content
  {{line-height: 1.2; height: auto; padding-bottom: 2px}}
.rulebook-roster-name {{position: sticky; left: 0; z-index: 1; background: #fff}}
.rulebook-roster-head.rulebook-roster-name {{align-self: stretch}}
.rulebook-roster-head.rulebook-roster-name > .widget-html-content {{align-self: flex-end}}
.rulebook-roster-grid input, .rulebook-roster-grid select {{padding: 0 3px}}
.rulebook-roster-bad input, .rulebook-roster-bad select
  {{border: 2px solid {ERROR} !important}}
.rulebook-roster-head {{font-weight: 600; font-size: 92%; line-height: 1.15; align-self: end;
  border-bottom: 1px solid {RULE_LINE}}}
.rulebook-roster-group {{color: {FAINT}; font-size: 90%; border-bottom: 1px solid {RULE_LINE}}}
</style>"""


def store_key(system: str) -> str:
    """The localStorage key of a system's roster, the same on every chapter of the system."""
    return f"rulebook-roster-{system}"


def roster_format(system: str) -> RosterFormat:
    """The :class:`RosterFormat` a system declares as ``ROSTER`` in its package."""
    system_data(system)  # a RulesError naming the systems for an unknown one
    fmt = getattr(importlib.import_module(f"rulescore.systems.{system}"), "ROSTER", None)
    if not isinstance(fmt, RosterFormat):
        raise RulesError(f"system {system!r} declares no roster yet")
    return fmt


def _column_em(column: Column) -> float:
    """How wide a column's cells are, in em: its widest value, and its label up to 6em (a
    longer label wraps onto two lines in the header)."""
    spec = column.spec
    if isinstance(spec, saved.Flag):
        field = 2.0
    elif isinstance(spec, saved.Int):
        field = text_em(str(max(abs(spec.minimum), abs(spec.maximum)))) + 2.2
    elif spec.choices:
        field = max(text_em(c) for c in spec.choices) + 2.4
    else:
        field = min(text_em("x" * spec.max_length), 12.0)
    # a header is bold, at 92%: about as wide as text_em allows for plain text
    return round(max(field, min(text_em(column.label) * 1.05 + 0.4, 6.0), 2.6), 1)


_SHOWN = "the roster shown in the table"
SUMMARY_NAMES = 12
"""How many names the folded roster's one line shows before "and N more"."""
NONE_PICKED = "—"
"""The first entry of a :class:`FighterPick` menu: no fighter chosen."""
EMPTY_HINT = "No fighters yet: add them in the roster above"
WIDE_EM = 110.0
"""A roster whose columns are wider than this (in em) shows one group of them at a time, so
a row reads on one screen; the "Columns" buttons reach every group."""
PART_EM = 40.0
"""The widest group of columns shown at once (in em), beside the names, in a page's width."""


_BODY = frozenset({
    "css", "kept_note", "new_button", "kept_line", "headers", "columns_pick", "grid", "error",
    "pick", "how_many", "duplicate_button", "remove_button", "transfer", "entry"})
"""The editor's parts below its Fighters line, made when it first opens (:meth:`RosterEditor.
__getattr__`)."""


class _Row(Sequence):
    """One fighter's fields in the editor, in the order of the editor's keys. Each field is
    made the first time it is shown or read: a roster too wide for a page shows one group of
    columns at a time, so a page whose roster stays folded or on one group makes only those
    (a 48-column percentile row would otherwise cost every page 48 widgets a fighter)."""

    def __init__(self, editor: RosterEditor, i: int) -> None:
        self.editor, self.i = editor, i
        self.built: dict[int, w.DOMWidget] = {}

    def __len__(self) -> int:
        return len(self.editor._keys)

    def __getitem__(self, k):  # type: ignore[override]
        if isinstance(k, slice):
            return [self[j] for j in range(len(self))[k]]
        if not -len(self) <= k < len(self):
            raise IndexError(f"row {self.i} has {len(self)} fields, not {k}")
        k %= len(self)
        if k not in self.built:
            self.built[k] = self.editor._new_field(self.i, k)
        return self.built[k]


class RosterEditor(Tool):
    """The fighters of a fight, one row each: name, PC, then every column of the format."""

    reaches = (
        # a new fighter's other fields start at their defaults and are changed in its row
        Reach(Roster.add, {"name": "New fighter", "pc": PC_LABEL}, {"self": _SHOWN}),
        Reach(Roster.set, {"value": "a field of a fighter's row"},
              {"self": _SHOWN, "name": "the fighter of the row", "key": "the column"}),
        Reach(Roster.rename, {"new": NAME_LABEL}, {"self": _SHOWN,
                                                   "old": "the fighter of the row"}),
        Reach(Roster.remove, {"name": "Fighter"}, {"self": _SHOWN}),
        Reach(Roster.duplicate, {"name": "Fighter", "count": "How many"}, {"self": _SHOWN}),
        Reach(Roster.from_json, {"text": "Upload roster (JSON)"},
              {"fmt": "the system's roster format"}),
    )

    def __init__(self, fmt: RosterFormat, *, starter: Roster | None = None,
                 foldable: bool = False, lazy: bool = False) -> None:
        """*foldable*: the roster a chapter shows above its tools, which opens folded to one
        line of names. *lazy*: the parts below that line are made when first read or
        :meth:`build` is called (a fight page folds the editor itself and builds it when the
        reader opens it); a foldable roster is always lazy."""
        if starter is not None and starter.format != fmt:
            raise RulesError(f"the starting roster must be a {fmt.name} roster")
        self.format = fmt
        self.starter = starter or Roster(fmt)
        self._roster = self.starter
        self._touched = False          # the reader changed the roster before the browser spoke
        self._before_new: Roster | None = None
        self._bad: dict[tuple[int, str], str] = {}
        # the roster lives as long as the page, so it holds its readers' methods weakly
        self._callbacks: Callbacks[Roster] = Callbacks()
        self._quiet = False            # True while fields are set from the roster
        self.last_line = "start"
        self.last_rename: tuple[str, str] | None = None  # (old, new) when the last change renamed
        self._keys = ("name", "pc", *(c.key for c in fmt.columns))
        self._damaged = ""             # why the roster the browser kept cannot be read
        self._kept = False             # this page has written the roster to the browser
        self.rows: list[_Row] = []
        self.foldable = foldable
        self._from_field = ""          # the fighter the name field's Enter (or leaving it) added

        self.store = BrowserStore(store_key(fmt.system))
        self.groups = self._view_groups()
        # a roster shown a group at a time makes a column's header when the group first shows
        self._heads: dict[int, w.HTML] = {}
        # Enter adds the fighter. ipywidgets' Enter hook (Text.on_submit) is deprecated for
        # continuous_update=False and observing the value, which also commits when the field
        # loses focus: so the fighter is added then too, a PC tick straight after applies to
        # the fighter just added, and a press of Add fighter that left the field adds nothing
        # twice (see _typed, _pc_ticked and add).
        self.new_name = w.Text(placeholder="name, then Enter", description="New fighter",
                               style={"description_width": "6.5em"},
                               layout=shared_layout(width="18em"), continuous_update=False)
        self.new_pc = w.Checkbox(value=False, description=PC_LABEL, indent=False,
                                 layout=shared_layout(width="4em"))
        self.add_button = button("Add fighter", primary=True)
        self.fighters_line = w.HTML()
        self.fold_button = button("edit", "Open the roster: add, change or remove fighters")
        # a chapter's roster adds fighters from its Fighters line, open or folded; the others
        # from the row under the table
        self._adding = (self.new_name, self.new_pc, self.add_button)
        self.fold_line = w.HBox([self.fighters_line, *(self._adding if foldable else ()),
                                 self.fold_button], layout=shared_layout(align_items="center"))
        set_shown(self.fold_line, foldable)
        self.folded = foldable
        self._built: bool | None = False  # None while the parts below the line are made
        super().__init__([self.store, self.store.offer, self.fold_line], "rulebook-roster")
        self.fold_button.on_click(lambda _: self.fold(not self.folded))
        self.new_name.observe(self._typed, "value")
        self.new_pc.observe(self._pc_ticked, "value")
        self.add_button.on_click(lambda _: self.add())
        self.store.observe(self._found, "stored")
        self.store.observe(lambda _: self._show_kept(), "ready")
        self.store.on_elsewhere(self._take_elsewhere)
        if foldable or lazy:
            self._render()
        else:
            self._open_body()

    # --- made when first opened -------------------------------------------------------------

    def __getattr__(self, name: str):
        """A part below the Fighters line (:data:`_BODY`), made on first use: a folded
        chapter roster has none until the reader opens it, yet code may read any of them."""
        if name in _BODY and self.__dict__.get("_built") is False:
            self._open_body()
            return getattr(self, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def build(self) -> None:
        """Make the parts below the Fighters line now, if not yet made (a page about to show
        them)."""
        if self._built is False:
            self._open_body()

    def _open_body(self) -> None:
        """Make the parts below the Fighters line and put them in the editor."""
        self._built = None
        body = self._build_body()
        self._built = True
        # set once the parts are opened (a change names its children by their model ids)
        self.children = (*self.children, *body)
        self._speak_reader_words()
        self._render()

    @built_whole
    def _build_body(self) -> tuple[w.DOMWidget, ...]:
        """The kept line, the table, its error line, the row of buttons and the file link."""
        fmt = self.format
        self.css = w.HTML(_CSS)
        self.kept_note = w.HTML()
        self.new_button = button("Start a new roster", "Remove every fighter and start again")
        self.kept_line = w.HBox([self.kept_note, self.new_button],
                                layout=shared_layout(align_items="center"))
        self.headers = [] if self.groups else self._headers()
        self.columns_pick = w.ToggleButtons(
            options=tuple(self.groups), description="Columns", style={"button_width": "auto"},
            tooltips=[f"Show the {g} columns of every fighter" for g in self.groups])
        set_shown(self.columns_pick, bool(self.groups))
        self.columns_pick.observe(lambda _: self._render(), "value")
        self.grid = w.GridBox(layout=shared_layout(
            grid_gap="2px 6px", align_items="center", width="fit-content", max_width="100%",
            overflow="auto"))
        self.grid.add_class("rulebook-roster-grid")
        self.error = ErrorLine()
        self.pick = w.Dropdown(options=[], description="Fighter",
                               style={"description_width": "4em"},
                               layout=shared_layout(width="15em"))
        self.how_many = w.IntText(value=1, description="How many",
                                  style={"description_width": "5.5em"},
                                  layout=shared_layout(width="10em"))
        self.duplicate_button = button("Duplicate", "Add copies of the chosen fighter, numbered")
        self.remove_button = button("Remove", "Remove the chosen fighter from the roster")
        self.transfer = JsonTransfer(f"roster-{fmt.system}.json", "roster", self.load_json)
        adding = () if self.foldable else (*self._adding, w.HTML("&emsp;"))
        self.entry = w.HBox([*adding, self.pick, self.how_many, self.duplicate_button,
                             self.remove_button], layout=shared_layout(align_items="center"))
        self.duplicate_button.on_click(lambda _: self.duplicate())
        self.remove_button.on_click(lambda _: self.remove())
        self.new_button.on_click(lambda _: self.start_new())
        body = (self.css, self.kept_line, self.columns_pick, self.grid, self.error, self.entry,
                self.transfer)
        for part in body:
            fit_labels(part)
        return body

    # --- the table ------------------------------------------------------------------------------

    def _widths(self) -> list[float]:
        return [12.0, 2.2] + [_column_em(c) for c in self.format.columns]

    def _view_groups(self) -> dict[str, list[int]]:
        """The parts of the columns shown one at a time, by the name on their button (a
        group, or a group's part "Skills: Initiative–Throwing" when the group alone is wider
        than :data:`PART_EM`); empty when every column fits at once."""
        widths = [_column_em(c) for c in self.format.columns]
        if sum(widths) + 14.2 <= WIDE_EM:
            return {}
        groups: dict[str, list[int]] = {}
        for i, c in enumerate(self.format.columns):
            groups.setdefault(c.group or "Other", []).append(i)
        parts: dict[str, list[int]] = {}
        for group, members in groups.items():
            total = sum(widths[i] for i in members)
            count = math.ceil(total / PART_EM)
            chunks: list[list[int]] = [[]]
            done = 0.0
            for i in members:
                # start the next part once this one holds its share of the group's width
                if chunks[-1] and done + widths[i] / 2 > total * len(chunks) / count:
                    chunks.append([])
                chunks[-1].append(i)
                done += widths[i]
            for chunk in chunks:
                first, last = (self.format.columns[i].label for i in (chunk[0], chunk[-1]))
                parts[group if len(chunks) == 1 else f"{group}: {first}–{last}"] = chunk
        return parts

    def _shown_columns(self) -> list[int]:
        """Which columns of the format the table shows now (Name and PC always)."""
        if not self.groups:
            return list(range(len(self.format.columns)))
        return self.groups[self.columns_pick.value]

    def _table(self) -> tuple[w.DOMWidget, ...]:
        """The grid's cells now: the headers of the columns shown, then each fighter's fields
        in them (with one group at a time its name is on its button, not over the columns)."""
        n = len(self.format.columns) + 2
        keep = [0, 1] + [i + 2 for i in self._shown_columns()]
        heads = self.headers if not self.groups else [self._head(k) for k in keep]
        cells = [row[k] for row in self.rows[:len(self._roster)] for k in keep]
        widths = self._widths()
        template = " ".join(f"{widths[k]:g}em" for k in keep)
        if self.grid.layout.grid_template_columns != template:
            set_layout(self.grid, grid_template_columns=template)
        return (*heads, *cells)

    def _headers(self) -> list[w.HTML]:
        """The header cells: a row of group headings (when the format has any; each written
        over the first column of its group), then one label per field."""
        cells: list[w.HTML] = []
        columns = self.format.columns
        if any(c.group for c in columns):
            cells += [w.HTML(""), w.HTML("")]
            cells[0].add_class("rulebook-roster-name")
            for i, c in enumerate(columns):
                first = i == 0 or columns[i - 1].group != c.group
                cell = w.HTML(html.escape(c.group) if first else "")
                cell.add_class("rulebook-roster-group" if c.group else "rulebook-roster-nogroup")
                cells.append(cell)
        return cells + [self._head(k) for k in range(len(columns) + 2)]

    @built_whole
    def _head(self, k: int) -> w.HTML:
        """The header cell of field *k* (0 the name, 1 PC, then the format's columns), made
        once."""
        if k not in self._heads:
            label, tip = ((NAME_LABEL, ""), (PC_LABEL, "Player character"))[k] if k < 2 else (
                self.format.columns[k - 2].label, self.format.columns[k - 2].help)
            title = f' title="{html.escape(tip)}"' if tip else ""
            cell = w.HTML(f"<span{title}>{html.escape(label)}</span>")
            cell.add_class("rulebook-roster-head")
            if k == 0:
                # a wide roster scrolls sideways under its names, which stay in view
                cell.add_class("rulebook-roster-name")
            self._heads[k] = cell
        return self._heads[k]

    def _new_row(self, i: int) -> _Row:
        """The fields of row *i*, each made when first shown or read (:class:`_Row`)."""
        return _Row(self, i)

    @built_whole
    def _new_field(self, i: int, k: int) -> w.DOMWidget:
        """Field *k* of row *i* (0 the name, 1 PC, then the format's columns), holding its
        fighter's value; it reads its fighter from the roster when it changes."""
        fill = shared_layout(width="100%")
        key = self._keys[k]
        if k == 0:
            field: w.DOMWidget = w.Text(description=f"{NAME_LABEL} of fighter {i + 1}",
                                        layout=fill, continuous_update=False)
            field.add_class("rulebook-roster-name")
        elif k == 1:
            field = w.Checkbox(description=PC_LABEL, indent=False, layout=fill)
        else:
            column = self.format.columns[k - 2]
            spec = column.spec
            if isinstance(spec, saved.Flag):
                field = w.Checkbox(description=column.label, indent=False, layout=fill)
            elif isinstance(spec, saved.Int):
                field = w.IntText(description=column.label, layout=fill)
            elif spec.choices:
                field = w.Dropdown(description=column.label, options=list(spec.choices),
                                   layout=fill)
            else:
                field = w.Text(description=column.label, layout=fill, continuous_update=False)
        if i < len(self._roster):
            quiet, self._quiet = self._quiet, True
            try:
                self._fill(field, key, self._roster.fighters[i], i + 1)
            finally:
                self._quiet = quiet
        field.observe(lambda ch: self._edit(i, key, ch["new"]), "value")
        return field

    def _fill(self, field: w.DOMWidget, key: str, fighter: Fighter, n: int) -> None:
        """Show *fighter*'s value of *key* in *field*, the fighter's row number *n*."""
        field.value = fighter[key]
        # the field's accessible name, read by a screen reader (the label itself is hidden:
        # the column's header shows it once for every row)
        field.description = (f"{NAME_LABEL} of fighter {n}" if key == "name"
                             else f"{self._label(key)} of {fighter.name}")
        field.remove_class("rulebook-roster-bad")

    def _render(self) -> None:
        """Show the roster: one row of fields per fighter, the menus and the kept line."""
        self._quiet = True
        try:
            while len(self.rows) < len(self._roster):
                self.rows.append(self._new_row(len(self.rows)))
            for n, (fighter, row) in enumerate(zip(self._roster.fighters, self.rows), start=1):
                for k, field in row.built.items():
                    self._fill(field, self._keys[k], fighter, n)
            if not self._built:
                return
            table = self._table()
            if len(self.grid.children) != len(table) or any(
                    a is not b for a, b in zip(self.grid.children, table)):
                self.grid.children = table
            names = self._roster.names()
            keep = self.pick.value if self.pick.value in names else (names[-1] if names else None)
            self.pick.options = names
            self.pick.value = keep
        finally:
            self._quiet = False
            self._show_fold()
        if not self._built:
            return
        self._bad.clear()
        self.error.clear()
        # the download offers the roster shown, kept in the browser or not yet
        self.transfer.set_text(self._roster.to_json() if self._roster.fighters else "")
        self._show_kept()

    # --- folded to one line ---------------------------------------------------------------------

    def fold(self, folded: bool) -> None:
        """Fold the roster to its one line of names, or open it (made on its first opening)."""
        self.folded = folded
        if not folded and not self._built:
            self._open_body()  # renders, and shows the line
        else:
            self._show_fold()

    def _show_fold(self) -> None:
        """The Fighters line of a foldable roster: "Fighters" and fold, or, folded, "Fighters:
        Ada, Bo —" and edit with the table hidden; the New fighter field beside it while the
        roster is open or empty."""
        if not self.foldable:
            return
        names = self._roster.names()
        shown = ", ".join(names[:SUMMARY_NAMES]) + (
            f" and {len(names) - SUMMARY_NAMES} more" if len(names) > SUMMARY_NAMES else "")
        title = "Fighters" if not self.folded else (
            f"Fighters: {shown} —" if names else "Fighters: none yet —")
        tip = (f"Fighters added here are kept in this browser for every "
               f"{self.format.name} chapter")
        damaged = (f"<small style='color:{ERROR}'>The roster kept in this browser cannot be "
                   f"read ({html.escape(self._damaged)}).&ensp;</small>"
                   if self._damaged and self.folded else "")
        self.fighters_line.value = (f"<h4 style='margin:.3em .4em .2em 0' "
                                    f"title='{html.escape(tip, quote=True)}'>"
                                    f"{html.escape(title)}</h4>{damaged}")
        self.fold_button.description = "edit" if self.folded else "fold"
        self.fold_button.tooltip = (
            "Open the roster: add, change or remove fighters, download or upload them"
            if self.folded else "Fold the roster to one line")
        for part in self._adding:
            set_shown(part, not self.folded or not names)
        if not self._built:
            return
        for part in (self.css, self.kept_line, self.grid, self.error, self.entry,
                     self.transfer):
            set_shown(part, not self.folded)
        set_shown(self.columns_pick, bool(self.groups) and not self.folded)

    def _label(self, key: str) -> str:
        return PC_LABEL if key == "pc" else self.format.column(key).label

    def _show_kept(self) -> None:
        """The one line about what the browser keeps (nothing before the browser has spoken);
        a folded chapter roster says it on its Fighters line instead."""
        if not self._built:
            self._show_fold()
            return
        if self._before_new is not None:
            self.kept_note.value = (f"Started a new roster.&ensp;")
            self.new_button.description = (f"Put back the {len(self._before_new)} "
                                            f"fighter{'s' if len(self._before_new) != 1 else ''}")
            set_shown(self.new_button, True)
            return
        self.new_button.description = "Start a new roster"
        count = len(self._roster)
        if self._damaged:
            self.kept_note.value = (f"<b>The roster kept in this browser cannot be read</b> "
                                    f"({html.escape(self._damaged)}); it stays there until "
                                    "you change this one.&ensp;")
        elif not getattr(self.store, "ready", False):
            pass  # the browser has not said yet (or there is none: the static book)
        elif self._kept or self.store.stored:
            self.kept_note.value = f"Fighters kept in this browser: {count}&ensp;"
        elif count:
            self.kept_note.value = ("These example fighters are not kept yet: your first "
                                    "change keeps them in this browser.&ensp;")
        else:
            where = "above" if self.foldable else "below"
            self.kept_note.value = (f"No fighters yet: add them {where}. They are kept in this "
                                    f"browser for every {html.escape(self.format.name)} "
                                    "chapter.")
        set_shown(self.new_button, count > 0)

    # --- changes --------------------------------------------------------------------------------

    @property
    def roster(self) -> Roster:
        """The current roster."""
        return self._roster

    def on_change(self, callback: Callable[[Roster], None]) -> None:
        """Call *callback* with the roster after every change (edits, loads, set_roster),
        for as long as the tool whose method it is lives (:class:`~widgets.common.Callbacks`:
        a lambda that uses a tool would keep the tool alive, so pass its method)."""
        self._callbacks.add(callback)

    def set_roster(self, roster: Roster, *, notify: bool = True, line: str = "",
                   rename: tuple[str, str] | None = None) -> None:
        """Replace the roster: re-render, keep it in the browser, and (unless *notify* is
        False, as for a page's own undo) tell every callback. *line* says what changed;
        *rename* is (old, new) when the change renamed a fighter (:attr:`last_rename`), so a
        fight page carries that fighter's fight over to the new name."""
        if roster.format != self.format:
            raise RulesError(f"this editor keeps {self.format.name} fighters")
        self._roster = roster
        self._touched = True
        self.last_line = line or "the roster changed"
        self.last_rename = rename
        self._keep()
        self._render()
        if notify:
            self._callbacks(roster)

    def _keep(self) -> None:
        self._damaged = ""  # the browser now keeps this roster instead
        self._kept = True
        self.store.save(self._roster.to_json())

    def _commit(self, roster: Roster, line: str,
                rename: tuple[str, str] | None = None) -> None:
        self._before_new = None
        self._from_field = ""
        self.set_roster(roster, line=line, rename=rename)

    def _edit(self, i: int, key: str, value: object) -> None:
        """One field of row *i* changed: apply it, or mark it and say why nothing changed."""
        if self._quiet or i >= len(self._roster):
            return
        fighter = self._roster.fighters[i]
        try:
            if key == "name":
                new = self._roster.rename(fighter.name, value)  # type: ignore[arg-type]
                line = f"{fighter.name} is now called {new.fighters[i].name}"
            else:
                new = self._roster.set(fighter.name, key, value)
                line = f"{fighter.name}: {self._label(key)} {_shown(fighter[key])} → {_shown(value)}"
        except RulesError as exc:
            self._bad[(i, key)] = str(exc)
            self._mark(i, key, True)
            self.error.show(str(exc))
            return
        bad = {k: m for k, m in self._bad.items() if k != (i, key)}
        renamed = (fighter.name, new.fighters[i].name) if key == "name" else None
        self._commit(new, line, renamed)
        self._restore_bad(bad)

    def _restore_bad(self, bad: dict[tuple[int, str], str]) -> None:
        """Keep naming the other fields still refused after a re-render (the roster kept
        their last good values, which the re-render put back in them)."""
        for (i, key), message in bad.items():
            if i < len(self._roster):
                self._bad[(i, key)] = message
                self._mark(i, key, True)
        if self._bad:
            self.error.show(next(iter(self._bad.values())))

    def _mark(self, i: int, key: str, on: bool) -> None:
        field = self.rows[i][self._keys.index(key)]
        (field.add_class if on else field.remove_class)("rulebook-roster-bad")

    def _act(self, make: Callable[[], tuple[Roster, str]]) -> None:
        """One button's change; a refusal shows under the table and changes nothing."""
        self.error.clear()
        try:
            roster, line = make()
        except RulesError as exc:
            self.error.show(str(exc))
            return
        self._commit(roster, line)

    def _typed(self, change: dict) -> None:
        """The name field committed (Enter, or the reader left it): add the fighter named."""
        if self._quiet or not change["new"].strip():
            return
        self.add()
        if self._roster.names() and self._roster.names()[-1] == change["new"].strip():
            self._from_field = self._roster.names()[-1]

    def _pc_ticked(self, change: dict) -> None:
        """PC ticked or unticked straight after the name field added a fighter (leaving the
        field to tick it added them): the tick is meant for that fighter."""
        name = self._from_field
        if not name or name not in self._roster.names():
            return
        self._act(lambda: (self._roster.set(name, "pc", change["new"]),
                           f"{name}: {PC_LABEL} {_shown(change['new'])}"))
        self._from_field = name

    def add(self) -> None:
        """Add the fighter named in the new-fighter field, every column at its default (a
        folded chapter roster opens, to show the new fighter's row)."""
        name = self.new_name.value
        if not name.strip() and self._from_field:
            return  # the press of Add fighter left the field, which already added them
        if self.foldable and self.folded:
            self.fold(False)

        def make() -> tuple[Roster, str]:
            roster = self._roster.add(name, pc=self.new_pc.value)
            return roster, f"{roster.names()[-1]} joins the roster"
        self._act(make)
        if self._roster.names() and self._roster.names()[-1] == name.strip():
            self._quiet = True
            self.new_name.value = ""
            self._quiet = False
            self.pick.value = name.strip()

    def duplicate(self) -> None:
        """Add *How many* numbered copies of the chosen fighter."""
        def make() -> tuple[Roster, str]:
            if self.pick.value is None:
                raise RulesError("Duplicate: add a fighter first")
            count = self.how_many.value
            roster = self._roster.duplicate(self.pick.value, count)
            return roster, f"{count} cop{'y' if count == 1 else 'ies'} of {self.pick.value}"
        self._act(make)

    def remove(self) -> None:
        """Remove the chosen fighter."""
        def make() -> tuple[Roster, str]:
            if self.pick.value is None:
                raise RulesError("Remove: the roster has no fighter to remove")
            return self._roster.remove(self.pick.value), f"{self.pick.value} leaves the roster"
        self._act(make)

    def start_new(self) -> None:
        """Start an empty roster; pressed again straight after, put the old one back."""
        if self._before_new is not None:
            back, self._before_new = self._before_new, None
            self.set_roster(back, line="the previous roster put back")
            return
        before = self._roster
        self.set_roster(Roster(self.format), line="a new roster")
        self._before_new = before
        self._show_kept()

    def load_json(self, text: str) -> None:
        """Replace the roster with a saved file's (a RulesError changes nothing)."""
        roster = Roster.from_json(self.format, text)
        self._commit(roster, "the roster loaded from a file")

    def _found(self, change: dict) -> None:
        """The browser kept a roster: carry on with it, without a click, unless the reader has
        already changed this page's roster; a damaged one is named and left until replaced."""
        text = change["new"]
        if not text or self._touched:
            self._show_kept()
            return
        try:
            roster = Roster.from_json(self.format, text)
        except RulesError as exc:
            self._damaged = str(exc)
            self._show_kept()
            return
        self.set_roster(roster, line=RESTORED)
        self._touched = False

    def _take_elsewhere(self, text: str) -> None:
        """The reader chose the roster another tab kept (an empty one if that tab removed
        it); a file that cannot be read raises, and the offer says so."""
        roster = Roster.from_json(self.format, text) if text else Roster(self.format)
        self._commit(roster, "the roster kept by another tab")


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


_SHARED: dict[tuple[int, str], RosterEditor] = {}


def _kernel_id() -> int:
    """Which kernel runs this page (0 outside one): each reader's page has its own kernel."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return 0
    shell = get_ipython()
    return id(getattr(shell, "kernel", None)) if shell is not None else 0


def shared_roster(system: str) -> RosterEditor:
    """The one roster editor of *system* in this kernel (made on the first call), so a
    chapter's roster and the :class:`FighterPick` of every tool on it share one list of
    fighters."""
    fmt = roster_format(system)
    key = (_kernel_id(), system)
    found = _SHARED.get(key)
    if found is None or found.format != fmt:
        found = _SHARED[key] = RosterEditor(fmt, foldable=True)
    return found


def forget_shared_rosters() -> None:
    """Drop every shared roster editor (a test starts each from an empty roster)."""
    _SHARED.clear()


def roster(system: str) -> RosterEditor:
    """The roster editor of *system*, e.g. ``roster("veil_and_lead")``: the chapter's shared
    one (:func:`shared_roster`)."""
    return shared_roster(system)


def _pick_hint(editor: RosterEditor) -> w.HTML:
    """The "no fighters yet" line of every :class:`FighterPick` of *editor*'s system: one
    model, shown by each pick while the roster is empty."""
    hint = getattr(editor, "_pick_hint", None)
    if hint is None:
        hint = editor._pick_hint = _build_hint()
    return hint


@built_whole
def _build_hint() -> w.HTML:
    return w.HTML(f"<small style='color:{FAINT}'>{html.escape(EMPTY_HINT)}</small>")


class FighterPick(w.HBox):
    """A menu of the shared roster's fighters for a tool: picking one calls *fill(fighter)*
    once, and the tool sets its own fields from the row (they stay editable). The menu follows
    the roster's changes; with no fighters it is a one-line hint instead.

    A page holds several of these and, until the reader adds a fighter, shows none of their
    menus: each menu is made the first time the roster has a name for it (or it is read), and
    the hint is one model for every pick of the system (they all follow the same roster, so
    they always agree on whether it shows)."""

    def __init__(self, system: str, fill: Callable[[Fighter], None], *,
                 label: str = "Fill from fighter", hint: bool = True) -> None:
        """*hint*: False for a tool's second pick beside its first, so an empty roster's
        hint shows once."""
        self.editor = shared_roster(system)
        self.fill = fill
        self.label = label
        self._quiet = False
        self._menu: w.Dropdown | None = None
        self.hint = _pick_hint(self.editor)
        self._hinted = (self.hint,) if hint else ()
        # a part of the tool it sits in (which fits its labels), not a tool of its own
        super().__init__(list(self._hinted), layout=shared_layout(align_items="center"))
        self.editor.on_change(self._follow)
        self._follow(self.editor.roster)

    @property
    def menu(self) -> w.Dropdown:
        """The menu of fighters (made on first use, placed before the hint)."""
        if self._menu is None:
            self._menu = self._build_menu()
            self.children = (self._menu, *self._hinted)
        return self._menu

    @built_whole
    def _build_menu(self) -> w.Dropdown:
        label = self.label
        menu = w.Dropdown(options=[NONE_PICKED], value=NONE_PICKED, description=label,
                          style={"description_width": f"{text_em(label) + 0.6:g}em"},
                          layout=shared_layout(width=f"{text_em(label) + 14:g}em"))
        menu.observe(self._picked, "value")
        set_shown(menu, False)
        return menu

    def _follow(self, roster: Roster) -> None:
        """The roster changed: list its names, keeping (or renaming) the one picked."""
        names = roster.names()
        set_shown(self.hint, not names)
        if not names and self._menu is None:
            return
        menu = self.menu
        picked = menu.value
        rename = self.editor.last_rename
        if rename is not None and rename[0] == picked:
            picked = rename[1]
        self._quiet = True
        try:
            menu.options = (NONE_PICKED, *names)
            menu.value = picked if picked in names else NONE_PICKED
        finally:
            self._quiet = False
        fit_label(menu)
        set_shown(menu, bool(names))

    def _picked(self, change: dict) -> None:
        if self._quiet or change["new"] in (None, NONE_PICKED):
            return
        self.fill(self.editor.roster.fighter(change["new"]))
