"""The healing sequence walker of the percentile system: a character's injury record from
treatment to the healed scar.

The record lives in :class:`rulescore.systems.percentile.InjuryRecord`; every button makes one
rules call that returns a new record, and the walker renders it: the sheet, the odds of the next
roll, a timeline of every injury's level day by day, and the log. The record is autosaved in the
reader's browser and can be downloaded or uploaded as JSON.
"""

from __future__ import annotations

import html
from typing import Callable

import ipywidgets as w

from rulescore import saved
from rulescore.errors import RulesError
from rulescore.systems import percentile as pc
from rulescore.systems.percentile.healing import TREATMENT_ASPECTS
from rulescore.systems.percentile.record import EML_LIMIT, LEVEL_CODES

from .common import (ROLLED, DiceEntry, ErrorLine, ExplanationView, Reach, RollRequest, Tool,
                     answers, button, labelled_text, odds_table_html, section)
from .lean import set_shown, shared_layout
from rulescore.roster import Fighter

from .percentile_table import LEVEL_NAMES, PICK, STATE_NAMES, STYLE
from .roster import FighterPick
from .fight import PAGE_FORMAT, fight_key, page_format
from .storage import BrowserStore, KeptState
from .theme import ERROR, INFECTED, MUTED, PALETTE

STORE_KEY = "rulebook/percentile/injury-record"
# "" stands for no Shock state: a menu whose value is None shows nothing chosen
STATES = (("None", ""), ("Stunned (STN)", "STN"), ("Incapacitated (INC)", "INC"),
          ("Unconscious (UNC)", "UNC"))
BLEEDING_OUTCOMES = {"stopped": "bleeding stopped", "bleeding": "still bleeding",
                     "dead": "dead of blood loss"}
NO_BLEEDER = "no injury on the record is bleeding: add one with A Bleeder ticked"
COURSE_OUTCOMES = {"recovered": "recovers", "continues": "carries on", "dies": "dies"}
SHEET = "the record on the sheet above"
NOT_KNOWN = "not known"   # the Side of an arm or leg injury written in without one
BLEED_WORDS = {"strength_eml": "Strength EML (blood loss)", "state": "Shock state now",
               "physician_eml": "Staunching healer's EML",
               "bleeders": "Bleeders treated together", "cauterise": "Cauterise (+30)",
               "tourniquet": "Tourniquet on a limb (+20)",
               "staunch_bonus": "Bonus from a failed Staunch", "beast": "A beast (tests ML50)"}
COURSE_WORDS = {"fatigue": "Fatigue", "arcane": "Arcane bonus"}
WIDE = shared_layout(width="20em")
COLOURS = PALETTE


def record_of(fighter: pc.Combatant) -> pc.InjuryRecord:
    """A fighter's record as the fight left it, with their Shock state and the Extended Shock
    and coma HRs beside it, so a walker resumes where the fight stopped."""
    record, state = fighter.record, fighter.shock
    if state == "KIA":
        return record if record.dead else record.died("killed in action")
    return record.with_shock(
        state, extended_hr=fighter.extended_hr if state in ("INC", "UNC") else None,
        coma_hr=fighter.coma_hr if state == "UNC" else None,
        staunch_bonus=fighter.staunch_bonus)


def kept_fight(text: str) -> pc.Fight:
    """The percentile fight a fight page kept in this browser (its page file, or the fight's own
    file); RulesError names what cannot be read."""
    data = saved.parse_json(text, page_format().noun)
    if isinstance(data, dict) and data.get("format") == PAGE_FORMAT:
        text = saved.read(page_format(), text)["fight"]
    return pc.Fight.from_json(text)


class FightRecords(w.VBox):
    """"Open a fighter's record from the fight": the fighters of the fight page kept in this
    browser, by name; the button hands the chosen one's record (with their Shock state) to
    *take*. Hidden while this browser keeps no fight."""

    def __init__(self, take: Callable[[pc.InjuryRecord], None]) -> None:
        self._take = take
        self.fight: pc.Fight | None = None
        self.store = BrowserStore(fight_key("percentile"))
        self.menu = w.Dropdown(options=[], description="Fighter from the fight", style=STYLE,
                               layout=shared_layout(width="40em"))
        self.open_button = button("Open their record",
                                  "Carry on with this fighter's injuries and Shock state")
        self.note = w.HTML()
        self.error = ErrorLine()
        self.row = w.VBox([w.HTML("<b>Open a fighter's record from the fight</b> <small>(the "
                                  "fight page keeps its fight in this browser)</small>"),
                           w.HBox([self.menu, self.open_button],
                                  layout=shared_layout(align_items="center")), self.note],
                          layout=shared_layout(display="none"))
        super().__init__([self.store, self.row, self.error])
        self.store.observe(lambda change: self.found(change["new"]), "stored")
        self.open_button.on_click(lambda _: self.open_chosen())

    def found(self, text: str) -> None:
        """The fight kept in this browser: its fighters go into the menu, the wounded first."""
        self.error.clear()
        if not text:
            return
        try:
            self.fight = kept_fight(text)
        except RulesError as exc:
            self.error.show(f"The fight kept in this browser cannot be read: {exc}")
            return
        people = sorted(self.fight.combatants, key=lambda c: not (c.record.injuries or c.shock))
        self.menu.options = [(f"{c.name} ({c.status}; {len(c.record.injuries)} "
                              f"injur{'y' if len(c.record.injuries) == 1 else 'ies'})", c.name)
                             for c in people]
        self.menu.value = people[0].name if people else None
        set_shown(self.row, bool(people))

    @answers(line="error")
    def open_chosen(self) -> None:
        if self.fight is None or self.menu.value is None:
            raise RulesError("Fighter from the fight: the fight page keeps no fighter in this "
                             "browser yet")
        fighter = self.fight.combatant(self.menu.value)
        self._take(record_of(fighter))
        self.note.value = (f"<small class='rulebook-pc-opened'>Opened {html.escape(fighter.name)}"
                           f"'s record from the fight ({html.escape(fighter.status)}), as a "
                           "copy: what you roll here stays on this page, and the fight page "
                           "keeps its own record.</small>")


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
                     f"points='{' '.join(points)}'><title>{i + 1}: {html.escape(inj.where)}"
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
                     f"{i + 1}. {html.escape(inj.where)}</span>"
                     for i, inj in enumerate(record.injuries))
    if any(s.blood_loss for s in snaps):
        legend += f"<span style='color:{MUTED};margin-right:1em'>┄ blood loss</span>"
    if any(s.infected for s in snaps):
        legend += f"<span style='background:{INFECTED}'>infected</span>"
    return "".join(parts) + f"<div><small>{legend}</small></div>"


def _cells(*values: object) -> str:
    """One table row's cells, every value escaped: a record may come from anyone's file."""
    return "".join(f"<td>{html.escape(str(v))}</td>" for v in values)


def _shock_words(record: pc.InjuryRecord) -> str:
    """The patient's Shock state as the sheet says it, with any Extended Shock or coma HR."""
    if record.shock is None:
        return ""
    more = [f"Extended Shock HR {record.extended_hr}"] if record.extended_hr else []
    more += [f"coma HR {record.coma_hr}, {record.coma_days} days so far"] if record.coma_hr \
        else []
    return (f" Shock state <b>{html.escape(STATE_NAMES.get(record.shock, record.shock))}</b>"
            + "".join(f", {html.escape(m)}" for m in more) + ".")


def sheet_html(record: pc.InjuryRecord) -> str:
    """The record as a character sheet: who it is with their healing numbers, the day and the
    blood loss, then a table of the injuries."""
    e = lambda v: html.escape(str(v))  # noqa: E731
    who = (f"<p class='rulebook-pc-who'><b>{e(record.name)}</b>: Healing Base "
           f"{e(record.healing_base)}, Endurance EML {e(record.endurance_eml)}. Day "
           f"<b>{e(record.day)}</b>, blood loss <b>{e(record.blood_loss)} BP</b>."
           + (f" <b style='color:{ERROR}'>Dead.</b>" if record.dead else _shock_words(record))
           + "</p>")
    if not record.injuries:
        return who + "<p><i>No injuries on the record.</i></p>"
    rows = []
    for i, inj in enumerate(record.injuries):
        imp = inj.impairment
        status = ("healed on day " + str(inj.healed_day) if inj.level == 0 else
                  "infected" if record.infection and record.infection[0] == i else
                  "waiting for treatment" if inj.hr is None else "healing")
        rows.append("<tr>" + _cells(i + 1, inj.where[0].upper() + inj.where[1:], inj.code, inj.aspect, inj.day,
                                    inj.treatment or "—", f"HR{inj.hr}" if inj.hr else "—",
                                    "unusable" if imp is None else imp, status) + "</tr>")
    head = "".join(f"<th>{h}</th>" for h in ("#", "Location", "Injury", "Aspect", "Day taken",
                                              "Treatment", "Healing rate", "Impairment",
                                              "Status"))
    return (f"{who}<table class='rulebook-pc-sheet'><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")


class HealingWalker(Tool):
    """A character's injury record: add injuries, stop their bleeding, see the patient through
    extended shock, coma and grim wounds, treat the injuries (rolled, typed, or untreated), then
    heal day by day with typed rolls or a seeded simulation of the whole recovery."""

    reaches = (
        Reach(pc.InjuryRecord, {"name": "Character", "healing_base": "Healing Base (HB)",
                                "endurance_eml": "Endurance EML"}, dict.fromkeys((
            "injuries", "blood_loss", "day", "next_healing", "next_regeneration",
            "skip_regeneration", "infection", "healing_done", "dead", "random_period",
            "period_open", "timeline", "log", "shock", "extended_hr", "coma_hr", "coma_days",
            "staunch_bonus"),
            "a new record starts empty; the buttons below fill it")),
        Reach(pc.InjuryRecord.add_injury, {"location": "Location", "aspect": "Aspect",
                                           "level": "Injury", "bleeder": "A Bleeder",
                                           "side": "Side"},
              {"self": SHEET, **dict.fromkeys(
                  ("shock", "shock_rolled"), "an injury written in by hand has no Shock Roll "
                  "of its own on the sheet; the injury walker records one")}),
        Reach(pc.has_side, {"location": "Location"}),
        Reach(pc.InjuryRecord.with_blood_loss, {"bp": "Blood loss (BP)"}, {"self": SHEET}),
        Reach(pc.InjuryRecord.with_shock, {
            "state": "Shock state now", "extended_hr": "Extended Shock HR", "coma_hr": "Coma HR",
            "staunch_bonus": "Bonus from a failed Staunch"}, {
            "self": SHEET, "coma_days": "ten days for each Coma Course Roll rolled"}),
        Reach(pc.Fight.from_json, {}, {"text": "the fight the fight page keeps in this browser"}),
        Reach(pc.bleeding_period, BLEED_WORDS, {"bp": "the record's blood loss",
                                                "dice": ROLLED}),
        Reach(pc.InjuryRecord.bleed, {"index": "Bleeding injury"},
              {"self": SHEET, "period": "the five minutes just rolled"}),
        Reach(pc.bleeding_odds, BLEED_WORDS, {"bp": "the record's blood loss"}),
        Reach(pc.extended_shock_healer_bonus, {"stars": "Best healer's Physician stars"}),
        Reach(pc.extended_shock_course, {"hr": "Extended Shock HR", **COURSE_WORDS}, {
            "roll": ROLLED, "dice": ROLLED, "healing_base": "the record's Healing Base",
            "bonus": "5 a star of the best healer's Physician test"}),
        Reach(pc.course_odds, {"hr": "Extended Shock HR", **COURSE_WORDS,
                               "sheltered": "Restful and sheltered"}, {
            "course": "extended shock or coma, by the row", "healing_base":
            "the record's Healing Base", "bonus": "5 a star of the best healer's test"}),
        Reach(pc.coma_healing_rate, {}, {
            "location_shock": "the location of the Injury that caused the coma",
            "injury_level": "the level of the Injury that caused the coma"}),
        Reach(pc.coma_course, {"hr": "Coma HR", "sheltered": "Restful and sheltered",
                               **COURSE_WORDS}, {
            "roll": ROLLED, "dice": ROLLED, "healing_base": "the record's Healing Base"}),
        Reach(pc.coma_weariness, {}, {"days": "ten days a Coma Course Roll"}),
        Reach(pc.grim_wound_shock, {"shock_eml": "Shock ML"}, {
            "roll": ROLLED, "dice": ROLLED,
            "location": "the location of the Grim wound chosen",
            "injury": "the level of the Grim wound chosen"}),
        Reach(pc.aggravation_check, {"shock_eml": "Shock ML"}, {
            "roll": ROLLED, "dice": ROLLED,
            "hr": "the HR of the Injury checked for aggravation (6 until it is treated)"}),
        Reach(pc.InjuryRecord.aggravate, {"index": "Injury checked for aggravation"},
              {"self": SHEET, "check": "the aggravation check just rolled"}),
        Reach(pc.success_level_probabilities, {}, {"eml": "Shock ML, less Fatigue"}),
        Reach(pc.shock_state_distribution, {"shock_eml": "Shock ML"}, {
            "location_shock": "the Grim wound's location",
            "injury_shock": "the Grim wound's level"}),
        Reach(pc.treatment_roll, {"physician_eml": "Physician EML", "days": "Days of delay",
                                  "broadhead": "A broadhead arrow",
                                  "dex_modifier": "Healer's DEX modifier",
                                  "physician_index": "Physician Index",
                                  "frozen_compress": "The compress is frozen"}, {
            "roll": ROLLED, "dice": ROLLED, "aspect": "the Injury to treat's aspect",
            "injury": "the Injury to treat's level",
            "area": "an Area injury is not recorded by location"}),
        Reach(pc.treatment_odds, {"physician_eml": "Physician EML"}, {
            "aspect": "the Injury to treat's aspect", "injury": "the Injury to treat's level"}),
        Reach(pc.untreated, {}, {"aspect": "the Injury to treat's aspect",
                                 "injury": "the Injury to treat's level"}),
        Reach(pc.required_treatment, {}, {"aspect": "the Injury to treat's aspect",
                                          "injury": "the Injury to treat's level"}),
        Reach(pc.recover, {"until_day": "Stop on day", "arcane": "Arcane bonus"}, {
            "record": SHEET, "dice": ROLLED, "rng": "the Roll button's seed is in the dice"}),
        Reach(pc.infection_amputation, {"physician_eml": "Physician EML",
                                        "dex_modifier": "Healer's DEX modifier"}, {
            "roll": ROLLED, "dice": ROLLED, "location": "the infected injury's location"}),
        Reach(pc.InjuryRecord.amputate_infected, {}, {
            "self": SHEET, "amputation": "the amputation just rolled"}),
        Reach(pc.InjuryRecord.remove_injury, {"index": "Injury to remove"}, {"self": SHEET}),
        Reach(pc.InjuryRecord.with_random_period,
              {"on": "Random healing period (d3 + 3 days)"}, {"self": SHEET}),
        Reach(pc.next_roll_odds, {"arcane": "Arcane bonus"}, {"record": SHEET}),
        Reach(pc.location_names, {}),
    )

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
        # An arm's or leg's injury is on one side: a Grievous arm injury stops only that
        # arm's actions (IMPAIRED ACTIONS AND MOVEMENT); "not known" counts on either arm.
        self.side = w.Dropdown(options=[(NOT_KNOWN, NOT_KNOWN)] + [(s, s) for s in pc.SIDES],
                               value=NOT_KNOWN, description="Side", style=STYLE, layout=WIDE)
        self.add_button = button("Add injury", primary=True)
        # an injury written onto the sheet by mistake comes off it again
        self.gone = w.Dropdown(options=[], description="Injury to remove", style=STYLE,
                               layout=shared_layout(width="30em"))
        self.remove_button = button("Remove injury", "Take the injury picked off the record")
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
        # --- the first hours: bleeding, extended shock, coma; grim wounds day by day ---------
        def whole(label: str, value: int, low: int = -EML_LIMIT, high: int = EML_LIMIT
                  ) -> w.BoundedIntText:
            return w.BoundedIntText(value=value, min=low, max=high, description=label,
                                    style=STYLE, layout=WIDE)

        def tick(label: str, value: bool = False) -> w.Checkbox:
            return w.Checkbox(value=value, description=label, indent=False)
        self.state = w.Dropdown(options=STATES, value="", description="Shock state now",
                                style=STYLE, layout=WIDE)
        # the recorded injury whose five minutes are rolled: the BP lost are that injury's
        self.bleeding = w.Dropdown(options=[], description="Bleeding injury", style=STYLE,
                                   layout=shared_layout(width="28em"))
        self.strength_eml = whole("Strength EML (blood loss)", 60)
        self.beast = tick("A beast (tests ML50)")
        self.staunch_eml = whole("Staunching healer's EML", 40)
        self.no_healer = tick("No one is staunching yet")
        # counted from the record (InjuryRecord.open_bleeders); the GM may lower it: a healer may
        # staunch fewer than every bleeder in the five minutes
        self.bleeders = whole("Bleeders treated together", 1, 1, 1)
        self.bleeders.tooltip = ("The bleeding injuries the healer staunches in these five "
                                 "minutes: every one on the record, or fewer (each test -10 "
                                 "for every treated bleeder beyond one)")
        self.counted_bleeders = 0
        self.cauterise = tick("Cauterise (+30)")
        self.tourniquet = tick("Tourniquet on a limb (+20)")
        self.staunch_bonus = whole("Bonus from a failed Staunch", 0, 0, 10)
        self.bleed_odds = w.HTML()
        self.bleed_entry = DiceEntry("the Blood Stoppage Roll, then the Blood Loss Roll, "
                                     "e.g. 33, 33", name="bleeding")
        self.bleed_entry.set_percentile(False)
        self.bleed_result = w.HTML()
        self.es_hr = whole("Extended Shock HR", 5, 1, 6)
        self.fatigue = whole("Fatigue", 0, 0, 200)
        self.stars = whole("Best healer's Physician stars", 0, 0, 5)
        self.arcane = whole("Arcane bonus", 0, 0, 100)
        self.es_odds = w.HTML()
        self.es_entry = DiceEntry("one d100, e.g. 93", name="Extended Shock")
        self.es_entry.set_percentile(False)
        self.es_result = w.HTML()
        self.coma_cause = w.Dropdown(options=[], description="Injury that caused the coma",
                                     style=STYLE, layout=WIDE)
        self.coma_hr = whole("Coma HR", 3, 1, 6)
        self.sheltered = tick("Restful and sheltered", True)
        self.coma_odds = w.HTML()
        self.coma_entry = DiceEntry("one d100, e.g. 41", name="coma")
        self.coma_entry.set_percentile(False)
        self.coma_result = w.HTML()
        self.grim = w.Dropdown(options=[], description="Grim wound", style=STYLE, layout=WIDE)
        self.shock_ml = whole("Shock ML", 65)
        self.grim_odds = w.HTML()
        self.grim_entry = DiceEntry("one d100, e.g. 72", name="grim wound")
        self.grim_entry.set_percentile(False)
        self.grim_result = w.HTML()
        self.aggravation = tick("Serious-injury aggravation option")
        self.aggr_which = w.Dropdown(options=[], description="Injury checked for aggravation",
                                     style=STYLE, layout=WIDE)
        self.aggr_odds = w.HTML()
        self.aggr_entry = DiceEntry("one d100, e.g. 80", name="aggravation")
        self.aggr_entry.set_percentile(False)
        self.aggr_result = w.HTML()
        self.aggr_row = w.VBox([w.HTML(
            "<small>After a CF impaired test using a Serious (or Grievous) injury's zone, or a "
            "CF Agility test while moving with one, a Shock test: a failure lowers its HR by "
            "1.</small>"), self.aggr_which, self.aggr_odds, self.aggr_entry, self.aggr_result],
            layout=shared_layout(display="none"))
        self.aggr_error = self.aggr_entry.error
        self.bleed_error, self.es_error = self.bleed_entry.error, self.es_entry.error
        self.coma_error, self.grim_error = self.coma_entry.error, self.grim_entry.error
        self.treat_odds = w.HTML()
        self.treat_entry = DiceEntry("the Treatment Roll, e.g. 37", percentile=True,
                                     name="treatment")
        self.untreated_button = button("Leave it untreated", "No Treatment Roll: a CF result")
        self.next_odds = w.HTML()
        self.heal_entry = DiceEntry("the next d100s in order, e.g. 62, 24", name="recovery")
        self.heal_entry.set_percentile(False)
        self.treat_error, self.heal_error = self.treat_entry.error, self.heal_entry.error
        self.until = w.BoundedIntText(value=0, min=0, max=400,
                                      description="Stop on day", style=STYLE,
                                      layout=WIDE)
        self.new_button = button("Start a new record")
        self.random_period = w.Checkbox(value=False, indent=False,
                                        description="Random healing period (d3 + 3 days)")
        self.amp_entry = DiceEntry("the amputation's Physician roll, e.g. 45", name="amputation")
        self.amp_entry.set_percentile(False)
        self.amp_error = self.amp_entry.error
        self.amp_row = w.VBox([w.HTML(
            "<b>Amputate the infected limb</b> <small>(a Physician test with the Physician "
            "EML and DEX modifier above, as the Amputation of frost injuries: it defeats the "
            "infection and inflicts a new edge injury)</small>"), self.amp_entry],
            layout=shared_layout(display="none"))
        self.error = ErrorLine()
        self.sheet = w.HTML()
        self.timeline = w.HTML()
        self.explanation = ExplanationView()
        self.log_view = w.HTML()
        self.kept = KeptState(STORE_KEY, "injury-record.json", "injury record", self.load_json,
                              self._describe)
        self.from_fight = FightRecords(self.open_record)
        self.patient_pick = FighterPick(PICK, self.fill_patient, label="Patient")
        super().__init__([
            self.kept, self.from_fight, self.patient_pick,
            w.HBox([self.name, self.healing_base, self.endurance]), self.error,
            section("The injury record", self.sheet, self.timeline),
            section("Add an injury", w.HBox([self.location, self.aspect, self.level]),
                    w.HBox([self.side, self.bleeder, self.add_button]), self.blood,
                    w.HBox([self.gone, self.remove_button])),
            section("Bleeding: every five minutes",
                    w.HBox([w.VBox([self.bleeding, self.state, self.strength_eml,
                                    self.staunch_eml, self.bleeders, self.staunch_bonus]),
                            w.VBox([self.beast, self.no_healer, self.cauterise,
                                    self.tourniquet])]),
                    self.bleed_odds, self.bleed_entry, self.bleed_result),
            section("Extended shock: every four hours",
                    w.HBox([self.es_hr, self.fatigue]), w.HBox([self.stars, self.arcane]),
                    self.es_odds, self.es_entry, self.es_result),
            section("Coma: every ten days", w.HBox([self.coma_cause, self.coma_hr]),
                    w.HBox([self.sheltered]), self.coma_odds, self.coma_entry,
                    self.coma_result),
            section("Treatment", w.HBox([self.which, self.physician, self.delay]),
                    w.HBox([self.dex, self.index, self.broadhead, self.frozen]),
                    self.treat_odds, self.treat_entry, w.HBox([self.untreated_button])),
            section("Grim wounds: a Shock Roll every day", w.HBox([self.grim, self.shock_ml]),
                    self.grim_odds, self.grim_entry, self.grim_result),
            section("Aggravation (an optional rule)", self.aggravation, self.aggr_row),
            section("Recovery, roll by roll", self.next_odds, w.HTML(
                "<small>Type the rolls you made in Recovery dice to advance roll by roll, or "
                "press Roll the recovery to simulate the rest of it with a seed (up to the stop "
                "day; 0 runs to the end).</small>"), self.heal_entry,
                    w.HBox([self.until, self.new_button]), self.random_period, self.amp_row),
            section("What happened", self.explanation,
                    w.HTML("<b>The record's log</b>"), self.log_view),
            section("Keep this record", w.HTML(
                "<small>The record is kept in your own browser after every change (a reload "
                "offers to restore it); nothing is stored on the server.</small>"),
                self.kept.transfer)], "rulebook-pc-healing")
        for row in ("bleed", "es", "coma", "treat", "grim"):
            # each row's odds, found by the browser tests (its dice entry goes by its name)
            getattr(self, f"{row}_odds").add_class(f"rulebook-pc-{row}-odds")
        self.next_odds.add_class("rulebook-pc-next-odds")
        self._quiet = False
        for field in (self.name, self.healing_base, self.endurance):
            field.observe(lambda _: self._quiet or self._change(self._character), "value")
        for field in (self.state, self.es_hr, self.coma_hr, self.staunch_bonus):
            field.observe(lambda _: self._quiet or self._keep_first_hours(), "value")
        self.blood.observe(lambda _: self._quiet or self._change(self._blood), "value")
        for field in (self.which, self.physician, self.delay, self.dex, self.index,
                      self.broadhead, self.frozen):
            field.observe(lambda _: self._show_treatment_odds(), "value")
        self.add_button.on_click(lambda _: self._change(self._add))
        self.location.observe(lambda _: self._show_side(), "value")
        self._show_side()
        self.remove_button.on_click(lambda _: self._change(self._remove))
        self.treat_entry.on_request(self._treat)
        self.untreated_button.on_click(lambda _: self._change(self._untreated))
        self.heal_entry.on_request(self._heal)
        for field in (self.state, self.strength_eml, self.beast, self.staunch_eml,
                      self.no_healer, self.bleeders, self.cauterise, self.tourniquet,
                      self.staunch_bonus):
            field.observe(lambda _: self._bleeding_odds(), "value")
        for field in (self.es_hr, self.fatigue, self.stars, self.arcane):
            field.observe(lambda _: self._shock_odds(), "value")
        for field in (self.coma_hr, self.sheltered, self.fatigue, self.arcane):
            field.observe(lambda _: self._coma_odds(), "value")
        self.coma_cause.observe(lambda _: self._coma_from_cause(), "value")
        self.arcane.observe(lambda _: self._render(), "value")  # on every roll of the record
        for field in (self.grim, self.shock_ml, self.fatigue):
            field.observe(lambda _: self._grim_odds(), "value")
        self.bleed_entry.on_request(self.bleed)
        self.es_entry.on_request(self.extended_shock)
        self.coma_entry.on_request(self.coma)
        self.grim_entry.on_request(self.grim_shock)
        self.aggravation.observe(lambda _: set_shown(self.aggr_row, self.aggravation.value),
                                 "value")
        for field in (self.aggr_which, self.shock_ml, self.fatigue):
            field.observe(lambda _: self._aggravation_odds(), "value")
        self.aggr_entry.on_request(self.aggravate)
        self.amp_entry.on_request(self.amputate)
        self.random_period.observe(lambda _: self._quiet or self._change(
            lambda: (self.record.with_random_period(self.random_period.value), ())), "value")
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

    def fill_patient(self, row: Fighter) -> None:
        """The patient's numbers from their roster row: name, Healing Base, Endurance EML, the
        Strength EML the Blood Loss roll tests and the Shock ML of grim wounds and
        aggravation. The record goes on under the new name."""
        self._quiet = True
        try:
            for field, value in ((self.name, row.name), (self.healing_base, row["healing_base"]),
                                 (self.endurance, row["endurance"]),
                                 (self.strength_eml, row["strength_eml"]),
                                 (self.shock_ml, row["shock"])):
                field.value = value
        finally:
            self._quiet = False
        self._change(self._character)

    def open_record(self, record: pc.InjuryRecord) -> None:
        """Carry on with a fighter's record from the fight, their Shock state with it; their
        roster row, if the roster holds one, gives the Strength and Shock MLs."""
        if self._change(lambda: (record, ())):
            rows = self.patient_pick.editor.roster
            if record.name in rows.names():
                row = rows.fighter(record.name)
                self.strength_eml.value, self.shock_ml.value = row["strength_eml"], row["shock"]

    def _first_hours(self, record: pc.InjuryRecord, **changes: object) -> pc.InjuryRecord:
        """*record* with the first hours as the rows show them (*changes* on top): the Shock
        state, its Extended Shock HR (INC or UNC) and coma HR (UNC), the coma's days so far and
        the Staunch bonus."""
        now: dict[str, object] = dict(state=self.state.value or None,
                                      extended_hr=self.es_hr.value,
                                      coma_hr=self.coma_hr.value, coma_days=record.coma_days,
                                      staunch_bonus=self.staunch_bonus.value)
        now.update(changes)
        if now["state"] not in ("INC", "UNC"):
            now["extended_hr"] = None
        if now["state"] != "UNC":
            now["coma_hr"] = None
        return record.with_shock(**now)  # type: ignore[arg-type]

    @answers()
    def _keep_first_hours(self) -> None:
        """A first-hours field changed: the record keeps it (the explanation stays)."""
        self.record = self._first_hours(self.record)
        self.sheet.value = sheet_html(self.record)
        self.kept.keep(self.record.to_json())

    def _character(self):
        return self.record.with_character(self.name.value, self.healing_base.value,
                                          self.endurance.value), ()

    def _blood(self):
        return self.record.with_blood_loss(self.blood.value), ()

    def _show_side(self) -> None:
        """The Side field only for a location of an arm or leg (Injury 1)."""
        sided = pc.has_side(self.location.value)
        set_shown(self.side, sided)
        if not sided:
            self.side.value = NOT_KNOWN

    def _add(self):
        side = None if self.side.value == NOT_KNOWN else self.side.value
        return self.record.add_injury(self.location.value, self.aspect.value, self.level.value,
                                      bleeder=self.bleeder.value, side=side), ()

    def _remove(self):
        if self.gone.value is None:
            raise RulesError("Injury to remove: the record holds no injury")
        return self.record.remove_injury(self.gone.value), ()

    def _treatment(self, request: RollRequest) -> pc.TreatmentResolution:
        inj = self._chosen()
        return pc.treatment_roll(None, self.physician.value, inj.aspect,
                                 LEVEL_CODES[inj.level], days=self.delay.value,
                                 broadhead=self.broadhead.value, dex_modifier=self.dex.value,
                                 physician_index=self.index.value,
                                 frozen_compress=self.frozen.value, dice=request.dice)

    def _chosen(self) -> pc.RecordedInjury:
        if self.which.value is None:
            raise RulesError("Injury to treat: add an injury first; every injury on the "
                             "record is treated already")
        return self.record.injuries[self.which.value]

    @answers(line="treat_error")
    def _treat(self, request: RollRequest) -> None:
        request.expect_typed(1, "one d100")
        treated = self._treatment(request)
        self._change(lambda: (self.record.treat(self.which.value, treated), treated.trace))

    def _untreated(self):
        inj = self._chosen()
        result = pc.untreated(inj.aspect, LEVEL_CODES[inj.level])
        return self.record.treat(self.which.value, result), result.trace

    @answers(line="heal_error")
    def _heal(self, request: RollRequest) -> None:
        # The rolls go as far as typed dice reach, or (seeded) to the end; a stop day holds
        # either run there.
        run = pc.recover(self.record, dice=request.dice, until_day=self.until.value or None,
                         arcane=self._arcane())
        self._change(lambda: (run.record, run.trace))

    def _new(self):
        return pc.InjuryRecord(self.record.name, self.record.healing_base,
                               self.record.endurance_eml), ()

    # --- the first hours: each press one period, one engine call ---------------------------

    def _bleeding_inputs(self) -> dict[str, object]:
        healer = not self.no_healer.value
        return dict(strength_eml=None if self.beast.value else self.strength_eml.value,
                    bp=min(self.record.blood_loss, 3), state=self.state.value or None,
                    physician_eml=self.staunch_eml.value if healer else None,
                    bleeders=self.bleeders.value, cauterise=self.cauterise.value,
                    tourniquet=self.tourniquet.value,
                    staunch_bonus=self.staunch_bonus.value if healer else 0,
                    beast=self.beast.value)

    @answers("bleed_odds", line="bleed_error")
    def _bleeding_odds(self) -> None:
        """The exact odds of this five minutes: stopped, still bleeding or dead, and the BP."""
        for field in (self.staunch_eml, self.bleeders, self.cauterise, self.tourniquet,
                      self.staunch_bonus):
            field.disabled = self.no_healer.value
        self.strength_eml.disabled = self.beast.value
        if self.record.dead or self.record.blood_loss >= 4:
            self.bleed_odds.value = "<p><i>Nothing to roll: the character is dead.</i></p>"
            return
        if self.bleeding.value is None:
            self.bleed_odds.value = f"<p><i>{NO_BLEEDER[:1].upper()}{NO_BLEEDER[1:]}.</i></p>"
            return
        odds = pc.bleeding_odds(**self._bleeding_inputs())  # type: ignore[arg-type]
        order = list(BLEEDING_OUTCOMES)
        rows = [(f"{BLEEDING_OUTCOMES[o]}, {bp} BP in all", p)
                for (o, bp), p in sorted(odds.items(),
                                         key=lambda kv: (order.index(kv[0][0]), kv[0][1]))]
        self.bleed_odds.value = odds_table_html(rows, "After these five minutes")

    @answers("bleed_result", line="bleed_error")
    def bleed(self, request: RollRequest) -> None:
        """Five minutes of one bleeder: the healer's Blood Stoppage Roll (if any), then the
        Blood Loss Roll; the BP goes onto the record, the state and the Staunch bonus on."""
        if self.record.dead or self.record.blood_loss >= 4:
            raise RulesError("The character is dead: there is nothing more to roll")
        if self.bleeding.value is None:
            raise RulesError(f"Bleeding injury: {NO_BLEEDER}")
        period = pc.bleeding_period(**self._bleeding_inputs(),  # type: ignore[arg-type]
                                    dice=request.dice)
        request.dice.finish("bleeding period")
        record = self._first_hours(self.record, staunch_bonus=period.next_bonus,
                                   state=None if period.state == "KIA" else period.state)
        record = record.bleed(self.bleeding.value, period)
        self._change(lambda: (record, period.trace))
        self.bleed_result.value = (
            f"<div class='rulebook-pc-bleeding' style='font-weight:600'>"
            f"{html.escape(BLEEDING_OUTCOMES[period.outcome].capitalize())}: {period.bp} BP, "
            f"{html.escape(period.state or 'no shock state')}, {period.anaemia_fatigue} "
            f"weakness fatigue from anaemia</div><small>({request.describe()})</small>")
        self._bleeding_odds()

    def _arcane(self) -> list[int]:
        """The Arcane bonus field as the engine takes it: the one highest bonus, or none."""
        return [self.arcane.value] if self.arcane.value else []

    def _course_inputs(self) -> dict[str, object]:
        return dict(fatigue=self.fatigue.value, arcane=self._arcane())

    @answers("es_odds", line="es_error")
    def _shock_odds(self) -> None:
        """The exact odds of the next Extended Shock Course Roll."""
        bonus = pc.extended_shock_healer_bonus([self.stars.value])
        odds = pc.course_odds("extended shock", self.record.healing_base, self.es_hr.value,
                              bonus=bonus, **self._course_inputs())  # type: ignore[arg-type]
        self.es_odds.value = odds_table_html(
            [(f"HR {hr}: {COURSE_OUTCOMES[o]}", p) for (hr, o), p in
             sorted(odds.items(), reverse=True)], "Next Course Roll")

    @answers("es_result", line="es_error")
    def extended_shock(self, request: RollRequest) -> None:
        """Four hours in extended shock: one Course Roll; the HR moves on, or the patient
        recovers (no longer INC or UNC) or dies."""
        if self.record.dead:
            raise RulesError("The character is dead: there is nothing more to roll")
        bonus = pc.extended_shock_healer_bonus([self.stars.value])
        course = pc.extended_shock_course(None, self.record.healing_base, self.es_hr.value,
                                          bonus=bonus, dice=request.dice,
                                          **self._course_inputs())  # type: ignore[arg-type]
        request.dice.finish("Course Roll")
        self._course_done(course, self.es_result, request)
        if course.outcome == "dies":
            self._change(lambda: (self.record.died("extended shock"), course.trace))
            return
        record = (self._first_hours(self.record, state=None) if course.outcome == "recovered"
                  else self._first_hours(self.record, extended_hr=course.healing_rate))
        self._change(lambda: (record, course.trace))

    @staticmethod
    def _course_done(course: pc.CourseResolution, view: w.HTML, request: RollRequest) -> None:
        view.value = (f"<div class='rulebook-pc-course' style='font-weight:600'>"
                      f"{html.escape(LEVEL_NAMES[course.level])} against EML {course.eml}: HR "
                      f"{course.healing_rate}, the patient "
                      f"{html.escape(COURSE_OUTCOMES[course.outcome])}</div>"
                      f"<small>({request.describe()})</small>")

    def _coma_from_cause(self) -> None:
        """The coma HR of the injury that caused it: 12 - location shock - injury level."""
        if self.coma_cause.value is None:
            return
        inj = self.record.injuries[self.coma_cause.value]
        self.coma_hr.value = max(1, pc.coma_healing_rate(pc.location_shock(inj.location),
                                                         inj.level))

    @answers("coma_odds", line="coma_error")
    def _coma_odds(self) -> None:
        """The exact odds of the next Coma Course Roll."""
        odds = pc.course_odds("coma", self.record.healing_base, self.coma_hr.value,
                              sheltered=self.sheltered.value,
                              **self._course_inputs())  # type: ignore[arg-type]
        self.coma_odds.value = odds_table_html(
            [(f"HR {hr}: {COURSE_OUTCOMES[o]}", p) for (hr, o), p in
             sorted(odds.items(), reverse=True)], "Next Course Roll")

    @answers("coma_result", line="coma_error")
    def coma(self, request: RollRequest) -> None:
        """Ten days in a coma: one Course Roll; when it ends, the weariness it leaves."""
        if self.record.dead:
            raise RulesError("The character is dead: there is nothing more to roll")
        course = pc.coma_course(None, self.record.healing_base, self.coma_hr.value,
                                sheltered=self.sheltered.value, dice=request.dice,
                                **self._course_inputs())  # type: ignore[arg-type]
        request.dice.finish("Course Roll")
        days = self.record.coma_days + 10
        ended = course.outcome == "recovered"
        # a Course Roll to HR 6 or more ends the coma: the field shows at most its 6
        record = self._first_hours(self.record, coma_hr=min(course.healing_rate, 6),
                                   coma_days=0 if ended else days)
        self._change(lambda: (record, course.trace))
        self._course_done(course, self.coma_result, request)
        if course.outcome == "recovered":
            tired = pc.coma_weariness(days)
            self.coma_result.value += (f"<p>After {days} days the coma ends: "
                                       f"{tired} weariness fatigue.</p>")

    def _grim_wound(self) -> pc.RecordedInjury:
        if self.grim.value is None:
            raise RulesError("Grim wound: no Grievous injury on the record has a CF treatment "
                             "(rolled or untreated)")
        return self.record.injuries[self.grim.value]

    @answers("grim_odds", line="grim_error")
    def _grim_odds(self) -> None:
        """The exact chance of each Shock State of today's Shock Roll for the grim wound."""
        if self.grim.value is None:
            self.grim_odds.value = "<p><i>No grim wound on the record.</i></p>"
            return
        inj = self._grim_wound()
        odds = pc.shock_state_distribution(pc.location_shock(inj.location), inj.level,
                                           self.shock_ml.value - self.fatigue.value)
        self.grim_odds.value = odds_table_html(
            [(STATE_NAMES.get(k, k), p) for k, p in odds.items()], "Today's Shock Roll")

    @answers("grim_result", line="grim_error")
    def grim_shock(self, request: RollRequest) -> None:
        """A grim wound's Shock Roll for today, with its location shock (Healing 5)."""
        inj = self._grim_wound()
        shaken = pc.grim_wound_shock(None, self.shock_ml.value - self.fatigue.value,
                                     inj.location, LEVEL_CODES[inj.level], dice=request.dice)
        request.dice.finish("Shock Roll")
        self.explanation.show(shaken.trace)
        if shaken.state == "KIA":
            self._change(lambda: (self.record.died("a grim wound's shock"), shaken.trace))
        elif shaken.state:
            self.state.value = shaken.state
        self.grim_result.value = (
            f"<div class='rulebook-pc-grim' style='font-weight:600'>SHK {shaken.shk}: "
            f"{html.escape(STATE_NAMES.get(shaken.state, shaken.state))}</div>"
            f"<small>({request.describe()})</small>")

    @answers("aggr_odds", line="aggr_error")
    def _aggravation_odds(self) -> None:
        """The exact chance of each level of the aggravation Shock test."""
        odds = pc.success_level_probabilities(self.shock_ml.value - self.fatigue.value)
        self.aggr_odds.value = odds_table_html(
            [(f"{LEVEL_NAMES[k]} ({k})" + (": aggravated" if k in ("CF", "F") else ""), p)
             for k, p in odds.items()], "Shock test")

    @answers("aggr_result", line="aggr_error")
    def aggravate(self, request: RollRequest) -> None:
        """The optional rule's Shock test for the chosen injury; a failure costs it 1 HR."""
        if self.aggr_which.value is None:
            raise RulesError("Injury checked for aggravation: the record has no Serious or "
                             "Grievous injury")
        inj = self.record.injuries[self.aggr_which.value]
        check = pc.aggravation_check(None, self.shock_ml.value - self.fatigue.value,
                                     inj.hr or 6, dice=request.dice)
        request.dice.finish("Shock test")
        index = self.aggr_which.value
        self._change(lambda: (self.record.aggravate(index, check), check.trace))
        self.aggr_result.value = (f"<div class='rulebook-pc-aggravation' style='font-weight:600'>"
                                  f"{html.escape(self.record.log[-1])}</div>"
                                  f"<small>({request.describe()})</small>")

    @answers(line="amp_error")
    def amputate(self, request: RollRequest) -> None:
        """Amputate the infected limb: one Physician test; the record goes on without the
        infection, with the amputation's new injury to treat (Healing 7)."""
        if self.record.infection is None:
            raise RulesError("There is no infection to defeat")
        where = self.record.injuries[self.record.infection[0]].location
        cut = pc.infection_amputation(None, self.physician.value, where,
                                      dex_modifier=self.dex.value, dice=request.dice)
        request.dice.finish("amputation")
        self._change(lambda: (self.record.amputate_infected(cut), cut.trace))

    # --- rendering ------------------------------------------------------------------------

    def _render(self) -> None:
        r = self.record
        self.sheet.value = sheet_html(r)
        self.timeline.value = timeline_svg(r)
        waiting = [(f"{i + 1}. {inj.code} {inj.where.lower()}", i)
                   for i, inj in enumerate(r.injuries) if inj.level and inj.hr is None]
        self.which.options = waiting
        self.which.value = waiting[0][1] if waiting else None
        every = tuple((f"{i + 1}. {inj.code} {inj.where.lower()}", i)
                      for i, inj in enumerate(r.injuries))
        self.gone.options = every
        self.gone.value = every[-1][1] if every else None
        self.remove_button.disabled = not every
        self._show_treatment_odds()
        self._render_first_hours()
        set_shown(self.amp_row, r.infection is not None and
                  pc.location_row(r.injuries[r.infection[0]].location)["zone"] in ("Arms", "Legs"))
        nxt = pc.next_roll_odds(r, arcane=self._arcane())
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
        shown = [(self.name, r.name), (self.healing_base, r.healing_base),
                 (self.endurance, r.endurance_eml), (self.blood, r.blood_loss),
                 (self.random_period, r.random_period), (self.state, r.shock or ""),
                 (self.staunch_bonus, r.staunch_bonus)]
        # an HR the record does not hold leaves its field as the reader set it
        shown += [(field, value) for field, value in ((self.es_hr, r.extended_hr),
                                                      (self.coma_hr, r.coma_hr))
                  if value is not None]
        try:
            for field, value in shown:
                if field.value != value:
                    field.value = value
        finally:
            self._quiet = False

    def _render_first_hours(self) -> None:
        """The injury menus of the coma and grim-wound rows, and every row's odds."""
        r = self.record
        named = [(f"{i + 1}. {inj.code} {inj.where.lower()}", i)
                 for i, inj in enumerate(r.injuries) if inj.level]
        causes = [(label, i) for label, i in named]
        if [v for _, v in self.coma_cause.options] != [v for _, v in causes]:
            self.coma_cause.options = causes
        grim = [(label, i) for label, i in named
                if r.injuries[i].level >= 4 and r.injuries[i].treatment == "CF"]
        self.grim.options = grim
        self.grim.value = grim[0][1] if grim else None
        bleeders = [(f"{label} (bleeding)", i) for label, i in named if i in r.open_bleeders]
        self._count_bleeders(len(bleeders))
        if list(self.bleeding.options) != bleeders:  # a pick stays while it still bleeds
            kept = self.bleeding.value if self.bleeding.value in dict(bleeders).values() \
                else None
            self.bleeding.options = bleeders
            self.bleeding.value = kept if kept is not None else \
                (bleeders[0][1] if bleeders else None)
            self.bleeding.disabled = not bleeders
        serious = [(label, i) for label, i in named if r.injuries[i].level >= 2]
        if [v for _, v in self.aggr_which.options] != [v for _, v in serious]:
            self.aggr_which.options = serious
        if self.aggr_which.value is None and serious:
            self.aggr_which.value = serious[0][1]
        self._aggravation_odds()
        self._bleeding_odds()
        self._shock_odds()
        self._coma_odds()
        self._grim_odds()

    def _count_bleeders(self, count: int) -> None:
        """Bleeders treated together: every open bleeder on the record, refilled when their
        number changes (a record opened, a patient chosen, an injury added, a bleeding
        stopped); lowered by the GM, it stays until then (Healing 1, Blood Stoppage Roll: a
        healer treating more than one takes -10 per treated bleeder beyond one)."""
        if count == self.counted_bleeders:
            return
        self.counted_bleeders = count
        most = max(count, 1)
        if self.bleeders.value > most:
            self.bleeders.value = most
        self.bleeders.max = most
        self.bleeders.value = most

    @answers("treat_odds", line="treat_error")
    def _show_treatment_odds(self) -> None:
        if self.which.value is None:
            self.treat_odds.value = "<p><i>No injury is waiting for treatment.</i></p>"
            return
        inj = self.record.injuries[self.which.value]
        odds = pc.treatment_odds(self.physician.value, inj.aspect, LEVEL_CODES[inj.level],
                                 days=self.delay.value, broadhead=self.broadhead.value,
                                 dex_modifier=self.dex.value,
                                 physician_index=self.index.value,
                                 frozen_compress=self.frozen.value)
        order = ("CF", "F", "S", "CS")
        rows = [(f"{LEVEL_NAMES[lv]}: {res}", p)
                for (lv, res), p in sorted(odds.items(), key=lambda kv: order.index(kv[0][0]))]
        needs = pc.required_treatment(inj.aspect, LEVEL_CODES[inj.level])
        self.treat_odds.value = (f"<p>{html.escape(f'{inj.code} {inj.where.lower()}')} "
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
