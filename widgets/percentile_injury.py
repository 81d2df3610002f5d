"""The injury sequence walker of the percentile system: from a strike to its effect.

It gathers the strike, makes one call to :func:`rulescore.systems.percentile.injury_sequence`
and renders the walk one step at a time: each step's dice, its explanation and the row of the
data table it used, highlighted. A landed shot or blow can fill the strike (:meth:`take`, from
the missile walker's "Send to the injury walker"), and the injury it inflicts goes onto the
character's injury record with one press: the healing walker's on the same page, or the one
kept in the reader's browser, which the healing chapter offers on its next opening.
"""

from __future__ import annotations

import html
from fractions import Fraction

import ipywidgets as w

from rulescore.dice import DiceSource
from rulescore.errors import RulesError, parse_int_text
from rulescore.systems import percentile as pc

from .book import file_table_html
from .common import (ROLLED, DiceEntry, ErrorLine, ExplanationView, Reach, RollRequest, Tool,
                     answers, button, labelled_text, section, steps_html)
from .common import int_field
from .lean import shared_layout
from rulescore.roster import Fighter
from rulescore.systems.percentile.fight import die_sides

from .percentile_table import (ASPECTS, DIE_SIZES, PICK, STYLE, blow_odds_html, set_quietly,
                               struck_armour, walk_struck_zone)
from .roster import FighterPick
from .percentile_healing import FightRecords
from .storage import BrowserStore

#: The healing walker keeps its injury record in the reader's browser under this key.
RECORD_KEY = "rulebook/percentile/injury-record"

WIDE = shared_layout(width="20em")
# "" stands for no Shock state: a menu whose value is None shows nothing chosen
STATES = (("None", ""), ("Stunned (STN)", "STN"), ("Incapacitated (INC)", "INC"),
          ("Unconscious (UNC)", "UNC"))
STAGE_TABLES = {"1 Location": ("body_zones", "locations_"), "3 Injury": ("injury_levels",),
                "3.1 Compound injury": ("compound_injury",),
                "3.4 Amputation": ("amputation_results",), "4 Shock": ("shock_states",),
                "4 Shock Reroll": ("shock_reroll",)}


def _die(label: str, value: int) -> w.Dropdown:
    return w.Dropdown(options=[(f"d{n}", n) for n in DIE_SIZES], value=value,
                      description=label, style=STYLE, layout=WIDE)


LABELS = {"zone_die": "Zone Die", "aim_zone": "Aimed zone (ZN)", "precision": "Precision TAs",
          "zone_pick": "Use Zone Die number", "impact_die": "Impact die",
          "impact_modifier": "Impact modifier", "strength_modifier": "Strength modifier",
          "impact_tas": "Impact TAs", "range_modifier": "Impact from range",
          "aspect": "Aspect", "armour": "Armour value there", "shock_eml": "Shock ML",
          "strength_eml": "Strength EML (amputation)", "fatigue": "Fatigue",
          "current_state": "Shock state now", "existing": "Earlier injuries there",
          "hard_cover": "Behind hard cover", "rigid_armour": "Rigid armour (glancing blows)",
          "projectile": "An arrow or bolt", "reroll": "Roll the Shock Reroll if INC/UNC",
          "helpless": "Helpless victim: the attacker picks the spot",
          "beast": "The victim is a beast (average Strength)"}


def _words(*names: str) -> dict[str, str]:
    return {n: LABELS[n] for n in names}


class InjuryWalker(Tool):
    """A strike walked through the injury sequence, step by step: location, impact, injury,
    compound injury, amputation, shock (and its reroll) and the effect. With *source* (a
    missile walker) its "Send to the injury walker" fills the strike here."""

    reaches = (
        Reach(pc.injury_sequence, {**LABELS}, {
            "record": "the record of the fighter opened from the fight, else none (earlier "
                      "injuries are typed in “Earlier injuries there”); the walk is written to "
                      "the record by “Write to the injury record”",
            "dice": ROLLED, "rng": "the Roll button's seed is in the dice"}),
        Reach(pc.location_distribution, {**_words("zone_die", "aim_zone", "hard_cover"),
                                         "zone_die": "Zone Die"}),
        Reach(pc.helpless_location, {"zone_number": LABELS["aim_zone"],
                                     "location_number": "Picked location number (LN)",
                                     "hard_cover": LABELS["hard_cover"]}),
        Reach(pc.injury_level_distribution, {
            **_words("impact_die", "impact_modifier", "aspect", "strength_modifier",
                     "impact_tas", "range_modifier"),
            "armour": LABELS["armour"], "rigid_armour": LABELS["rigid_armour"]}),
        Reach(pc.record_injury, {}, {"record": "the healing walker's record, or the one kept "
                                               "in this browser",
                                     "walk": "the walk shown above"}),
        Reach(pc.zone_count, {}),
        Reach(pc.InjuryRecord.with_shock, {}, {
            "self": "the record the injury is written on",
            "state": "the Shock state the walk ends in",
            "extended_hr": "the Extended Shock HR of a failed Shock Reroll",
            "coma_hr": "the record's own, while the victim stays Unconscious",
            "coma_days": "the record's own", "staunch_bonus": "the record's own"}),
        Reach(pc.Fight.from_json, {}, {"text": "the fight the fight page keeps in this browser"}),
        Reach(pc.zone_name, {"zone_number": "Aimed zone (ZN)"}),
    )

    def __init__(self, source: object = None) -> None:
        self.zone_die = _die("Zone Die", 6)
        self.aim = int_field("Aimed zone (ZN)", 1, 1, pc.zone_count(), style=STYLE, layout=WIDE)
        self.precision = int_field("Precision TAs", 0, 0, 5, style=STYLE, layout=WIDE)
        self.zone_pick = int_field("Use Zone Die number", 1, 1, 6, style=STYLE, layout=WIDE)
        self.impact_die = _die("Impact die", 10)
        self.modifier = w.IntText(value=3, description="Impact modifier", style=STYLE,
                                  layout=WIDE)
        self.strength = w.IntText(value=0, description="Strength modifier", style=STYLE,
                                  layout=WIDE)
        self.impact_tas = int_field("Impact TAs", 0, 0, 5, style=STYLE, layout=WIDE)
        self.range_mod = w.IntText(value=0, description="Impact from range", style=STYLE,
                                   layout=WIDE)
        self.aspect = w.Dropdown(options=ASPECTS, value="E", description="Aspect",
                                 style=STYLE, layout=WIDE)
        self.armour = int_field("Armour value there", 0, 0, 40, style=STYLE, layout=WIDE)
        self.shock_eml = w.IntText(value=65, description="Shock ML", style=STYLE,
                                   layout=WIDE)
        self.strength_eml = w.IntText(value=60, description="Strength EML (amputation)",
                                      style=STYLE, layout=WIDE)
        self.fatigue = int_field("Fatigue", 0, 0, 100, style=STYLE, layout=WIDE)
        self.state = w.Dropdown(options=STATES, value="", description="Shock state now",
                                style=STYLE, layout=WIDE)
        self.existing = labelled_text("Earlier injuries there", placeholder="e.g. S2E, M1E",
                                      width="20em")
        self.rigid = w.Checkbox(value=False, description="Rigid armour (glancing blows)",
                                indent=False)
        self.projectile = w.Checkbox(value=False, description="An arrow or bolt",
                                     indent=False)
        self.reroll = w.Checkbox(value=True, description="Roll the Shock Reroll if INC/UNC",
                                 indent=False)
        self.cover = labelled_text("Behind hard cover", placeholder="e.g. Thigh, Knee, Calf",
                                   width="20em")
        self.helpless = w.Checkbox(value=False, indent=False,
                                   description="Helpless victim: the attacker picks the spot")
        self.spot = int_field("Picked location number (LN)", 1, 1, 10, style=STYLE, layout=WIDE)
        self.beast = w.Checkbox(value=False, indent=False,
                                description="The victim is a beast (average Strength)")
        self.inputs = [self.zone_die, self.aim, self.precision, self.zone_pick, self.impact_die,
                       self.modifier, self.strength, self.impact_tas, self.range_mod,
                       self.aspect, self.armour, self.shock_eml, self.strength_eml,
                       self.fatigue, self.state, self.existing, self.cover, self.spot,
                       self.rigid, self.projectile, self.reroll, self.helpless, self.beast]
        self.error = ErrorLine()
        self.taken = w.HTML()  # what a shot or blow sent here, and any TAs left to choose
        self.odds = w.HTML()
        self.entry = DiceEntry("the dice in order, e.g. 2, 7, 8, 75")
        self.entry.set_percentile(False)
        self.next_die = labelled_text("Next die", placeholder="the die asked for", width="16em")
        self.add_die = button("Add this die", "Add one die to those typed so far")
        self.summary = w.HTML("<i>Press Roll, or type the dice and press Use my dice — or add "
                              "them one at a time below.</i>")
        self.stage_view = w.HTML()
        self.next_step = button("Next step ▸", "Show the next step of the walk", primary=True)
        self.all_steps = button("Show every step")
        self.explanation = ExplanationView()
        self.roll_error = self.entry.error
        self.write_button = button("Write to the injury record",
                                   "Add this injury to the character's injury record",
                                   primary=True)
        self.record_error = ErrorLine()
        self.record_note = w.HTML()
        self.store = BrowserStore(RECORD_KEY)
        self.store.on_elsewhere(self._elsewhere)
        self.healing: object = None  # a healing walker on the same page, when linked
        self._kept = ""                # the record this page last wrote to the browser
        self.victim: pc.InjuryRecord | None = None   # a fighter's record opened from the fight
        self.from_fight = FightRecords(self.open_record)
        self.missile = source is not None and hasattr(source, "base_range")
        self.struck: Fighter | None = None
        self.armour_note = w.HTML()
        self.striker_pick = FighterPick(PICK, self.fill_striker, label="Striker")
        self.struck_pick = FighterPick(PICK, self.fill_struck, label="Struck fighter")
        super().__init__([
            self.from_fight, w.HBox([self.striker_pick, self.struck_pick]), self.armour_note,
            self.taken,
            w.HBox([w.VBox(self.inputs[:8]), w.VBox(self.inputs[8:15]),
                    w.VBox(self.inputs[15:])]),
            self.error, section("Odds before you roll", self.odds),
            section("Roll", self.entry, w.HBox([self.next_die, self.add_die])),
            section("The strike, step by step", self.summary, self.stage_view,
                    w.HBox([self.next_step, self.all_steps])),
            section("Onto the injury record", self.store, self.store.offer,
                    w.HBox([self.write_button]),
                    self.record_error, self.record_note)],
            "rulebook-pc-injury")
        self.walk: pc.InjurySequence | None = None
        self.shown = 0
        self.typed: list[int] = []
        self._quiet = False
        for field in self.inputs:
            field.observe(lambda _: self._quiet or self.update(), "value")
        self.entry.on_request(self.roll)
        self.add_die.on_click(lambda _: self.add_one())
        self.next_step.on_click(lambda _: self._show(self.shown + 1))
        self.all_steps.on_click(lambda _: self._show(99))
        self.write_button.on_click(lambda _: self.write_record())
        for field in (self.aim, self.aspect):
            field.observe(lambda _: self._quiet or struck_armour(self), "value")
        self.update()
        if source is not None:
            source.send_to(self)  # type: ignore[attr-defined]

    def fill_striker(self, row: Fighter) -> None:
        """The weapon from the striker's roster row: on a missile chapter their missile's
        impact die, modifier and aspect (the shot gives the Zone Die); elsewhere their melee
        weapon's Zone Die, impact die, modifier, aspect and Strength impact modifier."""
        if self.missile:
            values = [(self.impact_die, die_sides(row["missile_die"])),
                      (self.modifier, row["missile_mod"]), (self.aspect, row["missile_aspect"]),
                      (self.projectile, row["missile_aspect"] == "P"
                       and row["missile"] in ("bow", "crossbow"))]
        else:
            values = [(self.zone_die, die_sides(row["zone_die"])),
                      (self.impact_die, die_sides(row["impact_die"])),
                      (self.modifier, row["impact_mod"]), (self.aspect, row["aspect"]),
                      (self.strength, row["str_impact"]), (self.projectile, False)]
        set_quietly(self, values)
        struck_armour(self)

    def fill_struck(self, row: Fighter) -> None:
        """The victim's fields from their roster row: Shock ML, Strength EML (amputation) and
        the armour on the aimed zone against the strike's aspect."""
        self.struck = row
        set_quietly(self, [(self.shock_eml, row["shock"]),
                           (self.strength_eml, row["strength_eml"])])
        struck_armour(self)

    def take(self, strike: pc.StrikeInputs) -> None:
        """Fill the strike from a landed shot or blow (no retyping): its Zone Die, Precision
        and Impact TAs, range impact, aspect and whether it is a projectile. Tactical
        advantages left to choose are named above the fields."""
        self._quiet = True
        try:
            self.zone_die.value = strike.zone_die
            self.precision.value = strike.precision
            self.zone_pick.max = 1 + strike.precision
            self.zone_pick.value = 1
            self.impact_tas.value = strike.impact_tas
            self.range_mod.value = strike.range_modifier
            self.aspect.value = strike.aspect
            self.projectile.value = strike.projectile
        finally:
            self._quiet = False
        free = (f" {strike.free_tas} tactical advantage{'s' if strike.free_tas > 1 else ''} "
                "of your choice: add each to Precision TAs or Impact TAs."
                if strike.free_tas else "")
        self.taken.value = (f"<p class='rulebook-pc-taken'><b>From the shot:</b> "
                            f"{html.escape(strike.source)}. Zone Die d{strike.zone_die}, "
                            f"{strike.precision} Precision TA, {strike.impact_tas} Impact TA, "
                            f"range impact {strike.range_modifier:+d}.{html.escape(free)}</p>")
        self.update()

    def open_record(self, record: pc.InjuryRecord) -> None:
        """Strike a fighter from the fight: their record (earlier injuries compound on it) and
        Shock state; the walked injury is written onto it."""
        self.victim = record
        self._quiet = True
        try:
            self.state.value = record.shock or ""
            self.existing.value = ""
        finally:
            self._quiet = False
        self.existing.disabled = True
        rows = self.struck_pick.editor.roster
        if record.name in rows.names():
            self.fill_struck(rows.fighter(record.name))   # their Shock ML and armour
        else:
            self.update()

    def _elsewhere(self, text: str) -> None:
        """Another tab wrote the kept record: the next injury goes onto theirs."""
        self._kept = text

    def record_to(self, healing: object) -> None:
        """Write injuries into *healing*'s record (a healing walker on the same page) rather
        than the record kept in the reader's browser."""
        self.healing = healing

    def _existing(self) -> list[str]:
        return [c.strip().upper() for c in self.existing.value.split(",") if c.strip()]

    def _call(self, dice: DiceSource | None = None) -> pc.InjurySequence:
        """The one rules call: the strike as the inputs describe it, with the given dice."""
        return pc.injury_sequence(
            zone_die=self.zone_die.value, aim_zone=self.aim.value,
            precision=self.precision.value, zone_pick=self.zone_pick.value - 1,
            impact_die=self.impact_die.value, impact_modifier=self.modifier.value,
            strength_modifier=self.strength.value, impact_tas=self.impact_tas.value,
            range_modifier=self.range_mod.value,
            aspect=self.aspect.value, armour=self.armour.value, rigid_armour=self.rigid.value,
            shock_eml=self.shock_eml.value, fatigue=self.fatigue.value,
            strength_eml=self.strength_eml.value, current_state=self.state.value or None,
            projectile=self.projectile.value, reroll=self.reroll.value, record=self.victim,
            existing=self._existing(), hard_cover=self._cover(),
            helpless=(self.aim.value, self.spot.value) if self.helpless.value else None,
            beast=self.beast.value,
            dice=() if dice is None else dice)

    def _cover(self) -> list[str]:
        return [c.strip() for c in self.cover.value.split(",") if c.strip()]

    @answers("odds")
    def update(self) -> None:
        """New inputs: exact odds of the location and injury level; the old walk is cleared."""
        self.walk, self.typed = None, []
        self._writable()
        self._show(0)
        self.zone_pick.max = 1 + self.precision.value
        self.spot.disabled = not self.helpless.value
        self.strength_eml.disabled = self.beast.value
        self._call()  # validates every input before any die is asked for
        if self.helpless.value:
            picked = pc.helpless_location(self.aim.value, self.spot.value,
                                          hard_cover=self._cover())
            where = {picked.outcome: Fraction(1)}
        else:
            where = pc.location_distribution(self.zone_die.value, self.aim.value,
                                             hard_cover=self._cover())
        hurt = pc.injury_level_distribution(
            self.impact_die.value, self.modifier.value, self.armour.value,
            aspect=self.aspect.value, rigid_armour=self.rigid.value,
            strength_modifier=self.strength.value, impact_tas=self.impact_tas.value,
            range_modifier=self.range_mod.value)
        note = ("<p><small>With precision the odds are those of one Zone Die; the extra dice "
                "let you choose.</small></p>" if self.precision.value else "")
        head = "Location (picked)" if self.helpless.value else "Location (one Zone Die)"
        self.odds.value = blow_odds_html(where, hurt, head) + note

    @answers(line="roll_error")
    def roll(self, request: RollRequest) -> None:
        """The whole walk with a seed, or with the dice typed so far, against the armour of
        the zone struck."""
        typed = list(request.dice.leftover())
        walk = walk_struck_zone(self, self._call, request.dice)
        self.typed = typed
        self._walked(walk, request.describe())

    @answers(line="roll_error")
    def add_one(self) -> None:
        """Add the next die to those typed so far and walk on."""
        value = parse_int_text("Next die", self.next_die.value)
        request = RollRequest.typed([*self.typed, value])
        walk = walk_struck_zone(self, self._call, request.dice)
        self.next_die.value = ""
        self.typed.append(value)
        self._walked(walk, request.describe(), step_by_step=True)

    def _walked(self, walk: pc.InjurySequence, how: str, step_by_step: bool = False) -> None:
        self.walk = walk
        dice = ", ".join(f"{n} {v}" for n, v in walk.rolled)
        more = f" — next: roll the {walk.needs}" if walk.needs else ""
        self.summary.value = (f"<div class='rulebook-pc-injury-result' style='font-weight:600'>"
                              f"{html.escape(walk.outcome)}{html.escape(more)}</div>"
                              f"<small>Dice: {html.escape(dice) or 'none'} ({how})</small>")
        self._show(len(walk.stages) if step_by_step else 1)
        self._writable()

    def _writable(self) -> None:
        """The Write press waits for a finished walk that inflicted an injury."""
        walk = self.walk
        self.write_button.disabled = not (walk and not walk.needs and walk.injury is not None
                                          and walk.injury.injury)

    @answers(line="record_error")
    def write_record(self) -> None:
        """Write the walked injury onto the injury record: the linked healing walker's, else
        the one kept in this browser (which the healing chapter offers on its next opening)."""
        if self.walk is None:
            raise RulesError("Roll the strike first: the injury it inflicts is what is written")
        if self.healing is not None:
            record = self._written(self.healing.record)  # type: ignore[attr-defined]
            self.healing.take_record(record)  # type: ignore[attr-defined]
            where = "the injury record below"
        else:
            if not self.store.ready:
                raise RulesError("The injury record kept in this browser has not arrived yet: "
                                 "press again in a moment")
            text = self._kept or self.store.stored
            record = self._written(pc.InjuryRecord.from_json(text) if text
                                   else pc.InjuryRecord())
            self._kept = record.to_json()
            self.store.save(self._kept)
            where = ("the injury record kept in this browser; the healing chapter offers it "
                     "when it opens")
        if self.victim is not None:
            self.victim = record      # the next strike on this fighter meets this injury
        new = record.injuries[-1]
        self.record_note.value = (
            f"<p class='rulebook-pc-written'>Written: <b>{html.escape(new.code)} "
            f"{html.escape(new.where.lower())}</b> on {html.escape(record.name)}'s record "
            f"({len(record.injuries)} injur{'y' if len(record.injuries) == 1 else 'ies'}), "
            f"{html.escape(where)}.</p>")
        self.write_button.disabled = True  # one strike, one injury

    def _written(self, record: pc.InjuryRecord) -> pc.InjuryRecord:
        """*record* (or the opened fighter's) with the walked injury and the Shock state the
        walk ends in, and the Extended Shock HR of a failed Shock Reroll."""
        walk = self.walk
        assert walk is not None
        if self.victim is not None and walk.record is not None:
            record = walk.record           # compounding already wrote it into their record
        else:
            record = pc.record_injury(record, walk)
        state = walk.state if walk.shock is not None else record.shock
        if state == "KIA":
            return record.died(f"killed by the strike: {walk.outcome}")
        hr = walk.reroll.extended_shock_hr if walk.reroll is not None else record.extended_hr
        return record.with_shock(state, extended_hr=hr if state in ("INC", "UNC") else None,
                                 coma_hr=record.coma_hr if state == "UNC" else None,
                                 coma_days=record.coma_days,
                                 staunch_bonus=record.staunch_bonus)

    def _show(self, count: int) -> None:
        """Show the first *count* steps of the walk, each with the table row it used."""
        stages = self.walk.stages if self.walk else ()
        self.shown = min(count, len(stages))
        self.next_step.disabled = self.shown >= len(stages)
        self.all_steps.disabled = self.shown >= len(stages)
        if not self.walk:
            self.stage_view.value = ""
            return
        parts = []
        for title, steps in stages[:self.shown]:
            tables = "".join(self._table(name, index) for name, index in self.walk.rows
                             if any(name.startswith(p) for p in STAGE_TABLES.get(title, ())))
            parts.append(f"<section class='rulebook-pc-stage'><h4 style='margin:.6em 0 .2em'>"
                         f"{html.escape(title)}</h4>{steps_html(steps)}"
                         f"<details open><summary>The table used</summary>{tables}</details>"
                         "</section>" if tables else
                         f"<section class='rulebook-pc-stage'><h4 style='margin:.6em 0 .2em'>"
                         f"{html.escape(title)}</h4>{steps_html(steps)}</section>")
        self.stage_view.value = "".join(parts)

    @staticmethod
    def _table(name: str, index: int) -> str:
        return file_table_html("percentile", "injury", name, lambda i: i == index)
