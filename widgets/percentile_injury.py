"""The injury sequence walker of the percentile system: from a strike to its effect.

It gathers the strike, makes one call to :func:`rulescore.systems.percentile.injury_sequence`
and renders the walk one step at a time: each step's dice, its explanation and the row of the
data table it used, highlighted.
"""

from __future__ import annotations

import html
from fractions import Fraction

import ipywidgets as w

from rulescore.dice import DiceSource
from rulescore.errors import RulesError
from rulescore.systems import percentile as pc

from .book import file_table_html
from .common import (DiceEntry, ErrorLine, ExplanationView, RollRequest, Tool, answers, button,
                     labelled_text, section, steps_html)
from .common import int_field
from .lean import shared_layout
from .percentile_table import ASPECTS, DIE_SIZES, STYLE, blow_odds_html

WIDE = shared_layout(width="20em")
STATES = (("None", None), ("Stunned (STN)", "STN"), ("Incapacitated (INC)", "INC"),
          ("Unconscious (UNC)", "UNC"))
STAGE_TABLES = {"1 Location": ("body_zones", "locations_"), "3 Injury": ("injury_levels",),
                "3.1 Compound injury": ("compound_injury",),
                "3.4 Amputation": ("amputation_results",), "4 Shock": ("shock_states",),
                "4 Shock Reroll": ("shock_reroll",)}


def _die(label: str, value: int) -> w.Dropdown:
    return w.Dropdown(options=[(f"d{n}", n) for n in DIE_SIZES], value=value,
                      description=label, style=STYLE, layout=WIDE)


class InjuryWalker(Tool):
    """A strike walked through the injury sequence, step by step: location, impact, injury,
    compound injury, amputation, shock (and its reroll) and the effect."""

    def __init__(self) -> None:
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
        self.aspect = w.Dropdown(options=ASPECTS, value="E", description="Aspect",
                                 style=STYLE, layout=WIDE)
        self.armour = int_field("Armour value there", 0, 0, 40, style=STYLE, layout=WIDE)
        self.shock_eml = w.IntText(value=65, description="Shock ML", style=STYLE,
                                   layout=WIDE)
        self.strength_eml = w.IntText(value=60, description="Strength EML (amputation)",
                                      style=STYLE, layout=WIDE)
        self.fatigue = int_field("Fatigue", 0, 0, 100, style=STYLE, layout=WIDE)
        self.state = w.Dropdown(options=STATES, value=None, description="Shock state now",
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
                       self.modifier, self.strength, self.impact_tas, self.aspect, self.armour,
                       self.shock_eml, self.strength_eml, self.fatigue, self.state,
                       self.existing, self.cover, self.spot, self.rigid, self.projectile,
                       self.reroll, self.helpless, self.beast]
        self.error = ErrorLine()
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
        super().__init__([
            w.HBox([w.VBox(self.inputs[:7]), w.VBox(self.inputs[7:14]),
                    w.VBox(self.inputs[14:])]),
            self.error, section("Odds before you roll", self.odds),
            section("Roll", self.entry, w.HBox([self.next_die, self.add_die])),
            section("The strike, step by step", self.summary, self.stage_view,
                    w.HBox([self.next_step, self.all_steps]))],
            "rulebook-pc-injury")
        self.walk: pc.InjurySequence | None = None
        self.shown = 0
        self.typed: list[int] = []
        for field in self.inputs:
            field.observe(lambda _: self.update(), "value")
        self.entry.on_request(self.roll)
        self.add_die.on_click(lambda _: self.add_one())
        self.next_step.on_click(lambda _: self._show(self.shown + 1))
        self.all_steps.on_click(lambda _: self._show(99))
        self.update()

    def _existing(self) -> list[str]:
        return [c.strip().upper() for c in self.existing.value.split(",") if c.strip()]

    def _call(self, dice: DiceSource | None = None) -> pc.InjurySequence:
        """The one rules call: the strike as the inputs describe it, with the given dice."""
        return pc.injury_sequence(
            zone_die=self.zone_die.value, aim_zone=self.aim.value,
            precision=self.precision.value, zone_pick=self.zone_pick.value - 1,
            impact_die=self.impact_die.value, impact_modifier=self.modifier.value,
            strength_modifier=self.strength.value, impact_tas=self.impact_tas.value,
            aspect=self.aspect.value, armour=self.armour.value, rigid_armour=self.rigid.value,
            shock_eml=self.shock_eml.value, fatigue=self.fatigue.value,
            strength_eml=self.strength_eml.value, current_state=self.state.value,
            projectile=self.projectile.value, reroll=self.reroll.value,
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
            strength_modifier=self.strength.value, impact_tas=self.impact_tas.value)
        note = ("<p><small>With precision the odds are those of one Zone Die; the extra dice "
                "let you choose.</small></p>" if self.precision.value else "")
        head = "Location (picked)" if self.helpless.value else "Location (one Zone Die)"
        self.odds.value = blow_odds_html(where, hurt, head) + note

    def roll(self, request: RollRequest) -> None:
        """The whole walk with a seed, or with the dice typed so far."""
        self.typed = list(request.dice.leftover())
        self._run(request)

    def add_one(self) -> None:
        """Add the next die to those typed so far and walk on."""
        text = self.next_die.value.strip()
        try:
            value = int(text)
        except ValueError:
            self.entry.error.show(f"Next die must be a whole number, got {text!r}")
            return
        self.next_die.value = ""
        self.typed.append(value)
        self._run(RollRequest.typed(self.typed), step_by_step=True)

    def _run(self, request: RollRequest, step_by_step: bool = False) -> None:
        self.entry.error.clear()
        try:
            walk = self._call(request.dice)
        except RulesError as exc:
            if step_by_step:
                self.typed.pop()
            self.entry.error.show(str(exc))
            return
        self.walk = walk
        how = request.describe()
        dice = ", ".join(f"{n} {v}" for n, v in walk.rolled)
        more = f" — next: roll the {walk.needs}" if walk.needs else ""
        self.summary.value = (f"<div class='rulebook-pc-injury-result' style='font-weight:600'>"
                              f"{html.escape(walk.outcome)}{html.escape(more)}</div>"
                              f"<small>Dice: {html.escape(dice) or 'none'} ({how})</small>")
        self._show(len(walk.stages) if step_by_step else 1)

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
