"""The missile attack walker of the percentile system: from the range to who is struck.

It gathers the shot, makes one call to :func:`rulescore.systems.percentile.missile_shot` and
renders what comes back: the range row used, the test EML, the exact odds of the test, and the
shot step by step with every die it used.
"""

from __future__ import annotations

import html

import ipywidgets as w

from rulescore.dice import DiceSource
from rulescore.errors import RulesError
from rulescore.systems import percentile as pc

from .book import data_table, table_html
from .common import (ROLLED, DiceEntry, ErrorLine, ExplanationView, Reach, RollRequest, Tool,
                     answers, button, odds_table_html, section)
from .common import int_field
from .lean import set_shown, shared_layout
from rulescore.roster import Fighter

from .percentile_table import FROM_ROW, NO_CAP, PICK, STYLE, set_quietly
from .roster import FighterPick

WIDE = shared_layout(width="21em")
TARGETS = (("Still", "still"), ("Moving", "moving"), ("Evading (dodging)", "evading"))
SPOILED = (("fails (roll only for a CF)", "auto_fail"), ("does not happen", "no_attack"))
RESULTS = {("mishap", 0): "Critical failure: a mishap, no attack",
           ("miss", 0): "Failure: a miss (a stray strike may follow)",
           ("strike", 1): "Success: a strike, 1 star", ("strike", 2): "Critical: a strike, 2 stars",
           ("deviation", 0): "Failure: the volley deviates",
           ("potential strike", 1): "Success: a potential strike",
           ("potential strike", 2): "Critical: a potential strike with Volley Precision",
           ("no attack", 0): "Spoiled: no attack"}


SHOT_WORDS = {"weapon": "Weapon", "ml": "Missile ML", "base_range": "Base Range (ft)",
              "range_ft": "Range to target (ft)", "target": "Target is",
              "dodge_index": "Target's Dodge index", "target_count": "People near the target",
              "windforce": "Crosswind (windforce)", "trauma": "Trauma penalty",
              "heft_penalty": "Heft penalty (thrown)", "tar": "Target size (TAR)",
              "overhead_ft": "Low ceiling (ft)", "body_zones": "Body zones of anyone hit",
              "spoiled_as": "A spoiled attack", "shooter_moving": "The shooter moves this turn",
              "aimed": "Aimed the previous round", "wet": "Wet bow or crossbow string",
              "target_grievous": "The target has a Grievous wound (counts as still)"}


class MissileWalker(Tool):
    """A missile attack walked through the sequence: range type, modifiers, the d100 test, then
    the Direct or Volley result and, when it calls for one, the d20/d10 that says who is struck.
    Linked to an injury walker (:meth:`send_to`), a strike fills it with one press.
    """

    reaches = (
        Reach(pc.missile_shot, SHOT_WORDS, {
            "roll": ROLLED, "target_roll": ROLLED, "impact_d10": ROLLED,
            "deviation_d8": ROLLED, "dice": ROLLED,
            "rng": "the Roll button's seed is in the dice",
            "charge_ft": "a Charging Throw is not walked here (the chapter's table gives its "
                         "impact)",
            "eml_cap": NO_CAP,
            "shooter_unusable_zone": "a shooter who shoots at all has the zones the test "
                                     "needs: the fight page's missile panel reads a lost one "
                                     "from the shooter's injury record"}),
        Reach(pc.missile_outcome_distribution, {"spoiled_as": SHOT_WORDS["spoiled_as"]}, {
            "eml": "the test EML the shot's range and modifiers give",
            "volley": "the range's attack type"}),
        Reach(pc.strike_from_missile, {}, {
            "shot": "the shot walked above",
            "aspect": "Point, an arrow's or bolt's: the injury walker it fills shows Aspect "
                      "to change for a stone or a thrown blade",
            "projectile": "an arrow or bolt (the Point's default): the injury walker's "
                          "Projectile box changes it"}),
        Reach(pc.missile_skill, {}, dict.fromkeys(
            ("weapon", "archery", "archery_sb", "slings", "throwing"), FROM_ROW)),
    )

    def fill_shooter(self, row: Fighter) -> None:
        """The shooter's missile weapon, the ML its skill gives and its Base Range, from their
        roster row; a linked injury walker takes the missile's impact."""
        kind = "thrown" if row["missile"].startswith("thrown") else row["missile"]
        ml = pc.missile_skill(kind, archery=max(0, row["archery"]),
                              slings=max(0, row["slings"]), throwing=max(0, row["throwing"]))
        set_quietly(self, [(self.weapon, row["missile"]), (self.ml, ml),
                           (self.base_range, row["base_range"])])
        if self._injury is not None:
            self._injury.fill_striker(row)  # type: ignore[attr-defined]

    def fill_target(self, row: Fighter) -> None:
        """The target's Dodge index from their roster row; a linked injury walker takes them
        as the struck fighter (Shock ML, armour)."""
        set_quietly(self, [(self.dodge_index, row["dodge_index"])])
        if self._injury is not None:
            self._injury.fill_struck(row)  # type: ignore[attr-defined]

    def __init__(self, ml: int = 60, base_range: int = 40, range_ft: int = 40) -> None:
        self.weapon = w.Dropdown(options=list(pc.LAUNCHERS), value="bow",
                                 description="Weapon", style=STYLE, layout=WIDE)
        self.ml = int_field("Missile ML", ml, style=STYLE, layout=WIDE)
        self.base_range = int_field("Base Range (ft)", base_range, 1, style=STYLE, layout=WIDE)
        self.range_ft = int_field("Range to target (ft)", range_ft, 0, style=STYLE, layout=WIDE)
        self.target = w.Dropdown(options=TARGETS, value="still", description="Target is",
                                 style=STYLE, layout=WIDE)
        self.dodge_index = int_field("Target's Dodge index", 0, 0, 20, style=STYLE, layout=WIDE)
        self.count = int_field("People near the target", 1, 0, 20, style=STYLE, layout=WIDE)
        self.windforce = int_field("Crosswind (windforce)", 0, 0, 4, style=STYLE, layout=WIDE)
        self.trauma = int_field("Trauma penalty", 0, 0, 200, style=STYLE, layout=WIDE)
        self.heft = int_field("Heft penalty (thrown)", 0, 0, 200, style=STYLE, layout=WIDE)
        self.tar = int_field("Target size (TAR)", 1, 1, 20, style=STYLE, layout=WIDE)
        self.overhead = int_field("Low ceiling (ft)", 0, 0, 1000, style=STYLE, layout=WIDE)
        self.zones = int_field("Body zones of anyone hit", 10, 1, 100, style=STYLE, layout=WIDE)
        self.moving = w.Checkbox(value=False, description="The shooter moves this turn",
                                 indent=False)
        self.aimed = w.Checkbox(value=False, description="Aimed the previous round",
                                indent=False)
        self.wet = w.Checkbox(value=False, description="Wet bow or crossbow string",
                              indent=False)
        self.grievous = w.Checkbox(value=False, indent=False,
                                   description="The target has a Grievous wound (counts as still)")
        self.spoiled = w.Dropdown(options=SPOILED, value="auto_fail",
                                  description="A spoiled attack", style=STYLE, layout=WIDE)
        self.inputs = [self.weapon, self.ml, self.base_range, self.range_ft, self.target,
                       self.dodge_index, self.count, self.windforce, self.trauma, self.heft,
                       self.tar, self.overhead, self.zones, self.spoiled, self.moving,
                       self.aimed, self.wet, self.grievous]
        self.error = ErrorLine()
        self.setup = w.HTML()
        self.odds = w.HTML()
        self.entry = DiceEntry("d100, then any d8, target die, impact d10, e.g. 61, 2, 7")
        self.entry.set_percentile(False)
        self.result = w.HTML()
        self.explanation = ExplanationView()
        self.roll_error = self.entry.error
        self.send_button = button("Send to the injury walker",
                                  "Fill the injury walker with this strike's Zone Die, "
                                  "precision and impact", primary=True)
        self.send_button.disabled = True
        self.send_row = w.HBox([self.send_button])
        set_shown(self.send_row, False)  # shown once an injury walker is linked
        self.shot: pc.MissileShot | None = None
        self._injury: object = None
        self._quiet = False
        self.shooter_pick = FighterPick(PICK, self.fill_shooter, label="Shooter")
        self.target_pick = FighterPick(PICK, self.fill_target, label="Target")
        super().__init__([w.HBox([self.shooter_pick, self.target_pick]),
                          w.HBox([w.VBox(self.inputs[:7]), w.VBox(self.inputs[7:14]),
                                  w.VBox(self.inputs[14:])]),
                          self.error, section("The shot before you roll", self.setup, self.odds),
                          section("Roll", self.entry),
                          section("The shot, step by step", self.result, self.explanation,
                                  self.send_row)],
                         "rulebook-pc-missile")
        for field in self.inputs:
            field.observe(lambda _: self._quiet or self.update(), "value")
        self.entry.on_request(self.roll)
        self.send_button.on_click(lambda _: self.send_strike())
        self.update()

    def send_to(self, walker: object) -> None:
        """Link an injury walker: a shot that strikes can then fill it with one press."""
        self._injury = walker
        set_shown(self.send_row, True)

    @answers(line="roll_error")
    def send_strike(self) -> None:
        """Hand the struck shot to the injury walker (Zone Die, precision, impact): no
        retyping."""
        shot = self.shot
        if self._injury is None or shot is None or not shot.value or shot.needs:
            raise RulesError("Roll a shot that strikes someone first")
        self._injury.take(pc.strike_from_missile(self.shot))  # type: ignore[attr-defined]

    def _call(self, dice: DiceSource | None = None) -> pc.MissileShot:
        """The one rules call: the shot as the inputs describe it, with the given dice."""
        return pc.missile_shot(
            self.ml.value, self.range_ft.value, self.base_range.value, weapon=self.weapon.value,
            target=self.target.value, dodge_index=self.dodge_index.value,
            target_count=self.count.value, windforce=self.windforce.value,
            trauma=self.trauma.value, heft_penalty=self.heft.value, tar=self.tar.value,
            overhead_ft=self.overhead.value or None, shooter_moving=self.moving.value,
            aimed=self.aimed.value, wet=self.wet.value, spoiled_as=self.spoiled.value,
            body_zones=self.zones.value, target_grievous=self.grievous.value,
            dice=() if dice is None else dice)

    @answers("setup", "odds")
    def update(self) -> None:
        """The range row and EML of this shot, and the exact odds of its test."""
        self.result.value = "<i>Press Roll, or type the dice you rolled and press Use my dice."\
                            "</i>"
        self.explanation.clear()
        self.heft.disabled = not self.weapon.value.startswith("thrown")
        self.dodge_index.disabled = self.target.value != "evading"
        shot = self._call()
        dist = pc.missile_outcome_distribution(shot.eml.value, volley=shot.range.volley,
                                               spoiled_as=self.spoiled.value)
        table = data_table("percentile", "missile", "missile_range")
        used = [r["attack_type"] for r in table.rows].index(shot.range.attack_type)
        eml = (f"spoiled at {shot.eml.value}" if shot.eml.spoiled
               else f"<b>{shot.eml.test_eml}</b>")
        self.setup.value = (
            f"<p class='rulebook-pc-missile-setup'>{html.escape(shot.range.attack_type)} "
            f"attack, test EML {eml}; Zone Die d{shot.range.zone_die} on the target itself, "
            f"impact "
            f"{shot.range.impact:+d}.</p>" + table_html(table, lambda i: i == used))
        order = list(RESULTS)
        rows = sorted(dist.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else 99)
        self.odds.value = odds_table_html(
            [(RESULTS.get(k, f"{k[0]}, {k[1]} stars"), p) for k, p in rows], "Test result")

    @answers("explanation", line="roll_error")
    def roll(self, request: RollRequest) -> None:
        """Walk the shot with a seed (only the dice it needs are rolled) or typed dice."""
        self.shot = None
        self.send_button.disabled = True
        shot = self._call(request.dice)
        self.shot = shot
        self.send_button.disabled = not (shot.value and shot.zone_die and not shot.needs)
        how = request.describe()
        dice = ", ".join(f"{name} {value}" for name, value in shot.rolled)
        more = (f" — still to roll: {', '.join(shot.needs)} (type it after the others)"
                if shot.needs else "")
        where = (f"<div class='rulebook-pc-missile-zone'>Roll a d{shot.zone_die} Zone Die "
                 "for where it lands (Injury Sequence, step 1).</div>" if shot.zone_die else "")
        self.result.value = (f"<div class='rulebook-pc-missile-result' style='font-weight:600'>"
                             f"{html.escape(shot.outcome)}{html.escape(more)}</div>{where}"
                             f"<small>Dice: {html.escape(dice) or 'none'} ({how})</small>")
        self.explanation.show(shot.trace)
