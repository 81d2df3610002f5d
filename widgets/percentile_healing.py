"""The healing sequence walker of the percentile system: a character's injury record from
treatment to the healed scar.

The record lives in :class:`rulescore.systems.percentile.InjuryRecord`; every button makes one
rules call that returns a new record, and the walker renders it: the sheet, the odds of the next
roll, a timeline of every injury's level day by day, and the log. The record is autosaved in the
reader's browser and can be downloaded or uploaded as JSON.
"""

from __future__ import annotations

import html

import ipywidgets as w

from rulescore.errors import RulesError
from rulescore.systems import percentile as pc
from rulescore.systems.percentile.healing import TREATMENT_ASPECTS
from rulescore.systems.percentile.record import EML_LIMIT, LEVEL_CODES

from .common import (DiceEntry, ErrorLine, ExplanationView, RollRequest, Tool, button,
                     labelled_text, odds_table_html, section)
from .lean import shared_layout
from .percentile_table import LEVEL_NAMES, STYLE
from .storage import KeptState
from .theme import ERROR, INFECTED, MUTED, PALETTE

STORE_KEY = "rulebook/percentile/injury-record"
WIDE = shared_layout(width="20em")
COLOURS = PALETTE


def timeline_svg(record: pc.InjuryRecord, width: int = 640, height: int = 220) -> str:
    """Each injury's level (G5 at the top, healed at the bottom) day by day, blood loss as a
    dashed grey line and infected days shaded. Nothing while the record holds no injury (the
    sheet above already says so)."""
    snaps = record.timeline
    if not snaps or not record.injuries:
        return ""
    left, right, top, bottom = 44, 16, 12, 30
    last = max(snaps[-1].day, 5)
    x = lambda d: left + (width - left - right) * d / last  # noqa: E731
    y = lambda lv: top + (height - top - bottom) * (5 - lv) / 5  # noqa: E731
    parts = [f"<svg role='img' aria-label='Recovery timeline of {html.escape(record.name)}' "
             f"width='{width}' height='{height}' viewBox='0 0 {width} {height}' "
             "style='font:11px sans-serif;background:#fff'>"]
    for lv in range(6):
        parts.append(f"<line x1='{left}' x2='{width - right}' y1='{y(lv)}' y2='{y(lv)}' "
                     "stroke='#eee'/>"
                     f"<text x='{left - 6}' y='{y(lv) + 4}' text-anchor='end'>"
                     f"{LEVEL_CODES.get(lv, 'healed')}</text>")
    for a, b in zip(snaps, snaps[1:] + (None,)):
        if a.infected:
            end = b.day if b else a.day + 1
            parts.append(f"<rect x='{x(a.day)}' y='{top}' width='{max(2, x(end) - x(a.day))}' "
                         f"height='{height - top - bottom}' fill='{INFECTED}'/>")
    for i, inj in enumerate(record.injuries):
        points, prev = [], None
        shift = 3 * (i % 4) - 4  # overlapping lines stay visible side by side
        for snap in snaps:
            if i >= len(snap.levels):
                continue
            if prev is not None:
                points.append(f"{x(snap.day):.1f},{y(prev) + shift:.1f}")
            points.append(f"{x(snap.day):.1f},{y(snap.levels[i]) + shift:.1f}")
            prev = snap.levels[i]
        colour = COLOURS[i % len(COLOURS)]
        parts.append(f"<polyline fill='none' stroke='{colour}' stroke-width='2.5' "
                     f"points='{' '.join(points)}'><title>{i + 1}: {html.escape(inj.location)}"
                     "</title></polyline>")
    if any(s.blood_loss for s in snaps):
        top_bp = max(s.blood_loss for s in snaps)
        pts = " ".join(f"{x(s.day):.1f},{y(5 * s.blood_loss / top_bp):.1f}" for s in snaps)
        parts.append(f"<polyline fill='none' stroke='{MUTED}' stroke-dasharray='4 3' "
                     f"points='{pts}'><title>blood loss</title></polyline>")
    for d in range(0, last + 1, max(5, (last // 10) // 5 * 5 or 5)):
        parts.append(f"<text x='{x(d)}' y='{height - 10}' text-anchor='middle'>{d}</text>")
    parts.append(f"<text x='{width - right}' y='{height - 0}' text-anchor='end'>day</text>"
                 "</svg>")
    legend = "".join(f"<span style='color:{COLOURS[i % len(COLOURS)]};margin-right:1em'>■ "
                     f"{i + 1}. {html.escape(inj.location)}</span>"
                     for i, inj in enumerate(record.injuries))
    if any(s.blood_loss for s in snaps):
        legend += f"<span style='color:{MUTED};margin-right:1em'>┄ blood loss</span>"
    if any(s.infected for s in snaps):
        legend += f"<span style='background:{INFECTED}'>infected</span>"
    return "".join(parts) + f"<div><small>{legend}</small></div>"


def _cells(*values: object) -> str:
    """One table row's cells, every value escaped: a record may come from anyone's file."""
    return "".join(f"<td>{html.escape(str(v))}</td>" for v in values)


def sheet_html(record: pc.InjuryRecord) -> str:
    """The record as a character sheet: who it is with their healing numbers, the day and the
    blood loss, then a table of the injuries."""
    e = lambda v: html.escape(str(v))  # noqa: E731
    who = (f"<p class='rulebook-pc-who'><b>{e(record.name)}</b>: Healing Base "
           f"{e(record.healing_base)}, Endurance EML {e(record.endurance_eml)}. Day "
           f"<b>{e(record.day)}</b>, blood loss <b>{e(record.blood_loss)} BP</b>."
           + (f" <b style='color:{ERROR}'>Dead.</b>" if record.dead else "") + "</p>")
    if not record.injuries:
        return who + "<p><i>No injuries on the record.</i></p>"
    rows = []
    for i, inj in enumerate(record.injuries):
        imp = inj.impairment
        status = ("healed on day " + str(inj.healed_day) if inj.level == 0 else
                  "infected" if record.infection and record.infection[0] == i else
                  "waiting for treatment" if inj.hr is None else "healing")
        rows.append("<tr>" + _cells(i + 1, inj.location, inj.code, inj.aspect, inj.day,
                                    inj.treatment or "—", f"HR{inj.hr}" if inj.hr else "—",
                                    "unusable" if imp is None else imp, status) + "</tr>")
    head = "".join(f"<th>{h}</th>" for h in ("#", "Location", "Injury", "Aspect", "Day taken",
                                              "Treatment", "Healing rate", "Impairment",
                                              "Status"))
    return (f"{who}<table class='rulebook-pc-sheet'><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")


class HealingWalker(Tool):
    """A character's injury record: add injuries, treat them (rolled, typed, or untreated),
    then heal day by day with typed rolls or a seeded simulation of the whole recovery."""

    def __init__(self, name: str = "Ana", healing_base: int = 13,
                 endurance_eml: int = 60) -> None:
        self.record = pc.InjuryRecord(name, healing_base, endurance_eml)
        self.name = labelled_text("Character", value=name, width="20em")
        self.healing_base = w.BoundedIntText(value=healing_base, min=0, max=30,
                                             description="Healing Base (HB)", style=STYLE,
                                             layout=WIDE)
        self.endurance = w.BoundedIntText(value=endurance_eml, min=-EML_LIMIT, max=EML_LIMIT,
                                          description="Endurance EML", style=STYLE,
                                          layout=WIDE)
        self.location = w.Dropdown(options=pc.location_names(), value="Abdomen",
                                   description="Location", style=STYLE, layout=WIDE)
        self.aspect = w.Dropdown(options=TREATMENT_ASPECTS, value="Edge",
                                 description="Aspect", style=STYLE, layout=WIDE)
        self.level = w.Dropdown(options=[(c, n) for n, c in LEVEL_CODES.items()], value=2,
                                description="Injury", style=STYLE, layout=WIDE)
        self.bleeder = w.Checkbox(value=False, description="A Bleeder", indent=False)
        self.add_button = button("Add injury", primary=True)
        self.blood = w.BoundedIntText(value=0, min=0, max=20, description="Blood loss (BP)",
                                      style=STYLE, layout=WIDE)
        self.which = w.Dropdown(options=[], description="Injury to treat", style=STYLE,
                                layout=WIDE)
        self.physician = w.IntText(value=60, description="Physician EML", style=STYLE,
                                   layout=WIDE)
        self.delay = w.BoundedIntText(value=0, min=0, max=60, description="Days of delay",
                                      style=STYLE, layout=WIDE)
        self.dex = w.IntText(value=0, description="Healer's DEX modifier", style=STYLE,
                             layout=WIDE)
        self.index = w.BoundedIntText(value=3, min=0, max=10, description="Physician Index",
                                      style=STYLE, layout=WIDE)
        self.broadhead = w.Checkbox(value=False, description="A broadhead arrow", indent=False)
        self.frozen = w.Checkbox(value=False, description="The compress is frozen",
                                 indent=False)
        self.treat_odds = w.HTML()
        self.treat_entry = DiceEntry("the Treatment Roll, e.g. 37", percentile=True)
        self.untreated_button = button("Leave it untreated", "No Treatment Roll: a CF result")
        self.next_odds = w.HTML()
        self.heal_entry = DiceEntry("the next d100s in order, e.g. 62, 24")
        self.heal_entry.set_percentile(False)
        self.until = w.BoundedIntText(value=0, min=0, max=400,
                                      description="Stop on day", style=STYLE,
                                      layout=WIDE)
        self.new_button = button("Start a new record")
        self.error = ErrorLine()
        self.sheet = w.HTML()
        self.timeline = w.HTML()
        self.explanation = ExplanationView()
        self.log_view = w.HTML()
        self.kept = KeptState(STORE_KEY, "injury-record.json", "injury record", self.load_json,
                              self._describe)
        super().__init__([
            self.kept,
            w.HBox([self.name, self.healing_base, self.endurance]), self.error,
            section("The injury record", self.sheet, self.timeline),
            section("Add an injury", w.HBox([self.location, self.aspect, self.level]),
                    w.HBox([self.bleeder, self.add_button, self.blood])),
            section("Treatment", w.HBox([self.which, self.physician, self.delay]),
                    w.HBox([self.dex, self.index, self.broadhead, self.frozen]),
                    self.treat_odds, self.treat_entry, w.HBox([self.untreated_button])),
            section("Recovery, roll by roll", self.next_odds, w.HTML(
                "<small>Type the rolls you made to advance roll by roll, or press Roll to "
                "simulate the rest of the recovery with a seed (up to the stop day; 0 runs to the "
                "end).</small>"), self.heal_entry,
                    w.HBox([self.until, self.new_button])),
            section("What happened", self.explanation,
                    w.HTML("<b>The record's log</b>"), self.log_view),
            section("Keep this record", w.HTML(
                "<small>The record is kept in your own browser after every change (a reload "
                "offers to restore it); nothing is stored on the server.</small>"),
                self.kept.transfer)], "rulebook-pc-healing")
        self._quiet = False
        for field in (self.name, self.healing_base, self.endurance):
            field.observe(lambda _: self._quiet or self._change(self._character), "value")
        self.blood.observe(lambda _: self._quiet or self._change(self._blood), "value")
        for field in (self.which, self.physician, self.delay, self.dex, self.index,
                      self.broadhead, self.frozen):
            field.observe(lambda _: self._show_treatment_odds(), "value")
        self.add_button.on_click(lambda _: self._change(self._add))
        self.treat_entry.on_request(self._treat)
        self.untreated_button.on_click(lambda _: self._change(self._untreated))
        self.heal_entry.on_request(self._heal)
        self.new_button.on_click(lambda _: self._change(self._new))
        self._render()

    # --- changes: each makes one rules call and returns the new record and its steps ---------

    def _change(self, make) -> bool:
        self.error.clear()
        try:
            record, steps = make()
            self._show(record)
        except RulesError as exc:
            self.error.show(str(exc))
            return False
        self.explanation.show(steps)
        return True

    def _show(self, record: pc.InjuryRecord) -> None:
        """Make *record* the walker's, draw it and keep it; if it cannot be drawn the old
        record stays and the RulesError goes on to the caller."""
        before, self.record = self.record, record
        try:
            self._render()
        except RulesError:
            self.record = before
            self._render()
            raise
        self.kept.keep(record.to_json())

    def take_record(self, record: pc.InjuryRecord) -> None:
        """Carry on with *record* (an injury walker on the same page wrote a new injury)."""
        self._change(lambda: (record, ()))

    def _character(self):
        return self.record.with_character(self.name.value, self.healing_base.value,
                                          self.endurance.value), ()

    def _blood(self):
        return self.record.with_blood_loss(self.blood.value), ()

    def _add(self):
        return self.record.add_injury(self.location.value, self.aspect.value, self.level.value,
                                      bleeder=self.bleeder.value), ()

    def _treatment(self, roll: int) -> pc.TreatmentResolution:
        inj = self._chosen()
        return pc.treatment_roll(roll, self.physician.value, inj.aspect,
                                 LEVEL_CODES[inj.level], days=self.delay.value,
                                 broadhead=self.broadhead.value, dex_modifier=self.dex.value,
                                 physician_index=self.index.value,
                                 frozen_compress=self.frozen.value)

    def _chosen(self) -> pc.RecordedInjury:
        if self.which.value is None:
            raise RulesError("Injury to treat: add an injury first; every injury on the "
                             "record is treated already")
        return self.record.injuries[self.which.value]

    def _treat(self, request: RollRequest) -> None:
        try:
            request.expect_typed(1, "one d100")
            roll = request.dice.d(100, "the d100 roll")
            treated = self._treatment(roll)
        except RulesError as exc:
            self.treat_entry.error.show(str(exc))
            return
        self._change(lambda: (self.record.treat(self.which.value, treated), treated.trace))

    def _untreated(self):
        inj = self._chosen()
        result = pc.untreated(inj.aspect, LEVEL_CODES[inj.level])
        return self.record.treat(self.which.value, result), result.trace

    def _heal(self, request: RollRequest) -> None:
        # Typed rolls heal as far as they reach; a seeded run stops at the chosen day.
        until = None if request.dice.is_typed else (self.until.value or None)
        try:
            run = pc.recover(self.record, dice=request.dice, until_day=until)
        except RulesError as exc:
            self.heal_entry.error.show(str(exc))
            return
        self._change(lambda: (run.record, run.trace))

    def _new(self):
        return pc.InjuryRecord(self.record.name, self.record.healing_base,
                               self.record.endurance_eml), ()

    # --- rendering ------------------------------------------------------------------------

    def _render(self) -> None:
        r = self.record
        self.sheet.value = sheet_html(r)
        self.timeline.value = timeline_svg(r)
        waiting = [(f"{i + 1}. {inj.code} {inj.location.lower()}", i)
                   for i, inj in enumerate(r.injuries) if inj.level and inj.hr is None]
        self.which.options = waiting
        self.which.value = waiting[0][1] if waiting else None
        self._show_treatment_odds()
        nxt = pc.next_roll_odds(r)
        self.next_odds.value = (
            f"<p class='rulebook-pc-next'><b>Next:</b> {html.escape(f'{nxt[0]}, EML {nxt[1]}')}"
            "</p>"
            + odds_table_html([(f"{LEVEL_NAMES[k]} ({k})", p) for k, p in nxt[2].items()],
                              "Result")
            if nxt else "<p class='rulebook-pc-next'><i>Nothing left to roll"
            + (": the character is dead." if r.dead else
               ": every treated injury has healed." if r.injuries else ".") + "</i></p>")
        self.log_view.value = ("<ol class='rulebook-pc-log'>" + "".join(
            f"<li>{html.escape(x)}</li>" for x in r.log[-40:]) + "</ol>")
        self._quiet = True
        for field, value in ((self.name, r.name), (self.healing_base, r.healing_base),
                             (self.endurance, r.endurance_eml), (self.blood, r.blood_loss)):
            if field.value != value:
                field.value = value
        self._quiet = False

    def _show_treatment_odds(self) -> None:
        self.treat_entry.error.clear()
        if self.which.value is None:
            self.treat_odds.value = "<p><i>No injury is waiting for treatment.</i></p>"
            return
        inj = self.record.injuries[self.which.value]
        try:
            odds = pc.treatment_odds(self.physician.value, inj.aspect, LEVEL_CODES[inj.level],
                                     days=self.delay.value, broadhead=self.broadhead.value,
                                     dex_modifier=self.dex.value,
                                     physician_index=self.index.value,
                                     frozen_compress=self.frozen.value)
        except RulesError as exc:
            self.treat_odds.value = ""
            self.treat_entry.error.show(str(exc))
            return
        order = ("CF", "F", "S", "CS")
        rows = [(f"{LEVEL_NAMES[lv]}: {res}", p)
                for (lv, res), p in sorted(odds.items(), key=lambda kv: order.index(kv[0][0]))]
        needs = pc.required_treatment(inj.aspect, LEVEL_CODES[inj.level])
        self.treat_odds.value = (f"<p>{html.escape(f'{inj.code} {inj.location.lower()}')} "
                                 f"needs <b>{html.escape(needs)}</b>.</p>"
                                 + odds_table_html(rows, "Treatment Roll"))

    # --- keeping ------------------------------------------------------------------------------

    def load_json(self, text: str) -> None:
        """Carry on from a saved record; a bad file raises RulesError and changes nothing."""
        self._show(pc.InjuryRecord.from_json(text))
        self.error.clear()
        self.explanation.clear()

    @staticmethod
    def _describe(text: str) -> str | None:
        saved = pc.InjuryRecord.from_json(text)
        if not saved.injuries and not saved.blood_loss:
            return None
        return ("<b>A saved injury record was found in this browser</b>: " + html.escape(
            f"{saved.name}, {len(saved.injuries)} injuries, day {saved.day}."))
