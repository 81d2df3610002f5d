"""Percentile combat at the table: a d100 test roller and a melee exchange resolver.

Each tool gathers its inputs, makes its call in :mod:`rulescore.systems.percentile` and renders
what comes back: the exact odds before the roll, the result and its explanation.
"""

from __future__ import annotations

import html
from typing import Any, Callable

import ipywidgets as w

from rulescore.dice import DiceSource
from rulescore.errors import RulesError
from rulescore.roster import Fighter
from rulescore.systems import percentile as pc
from rulescore.systems.percentile.fight import die_sides, fighter_armour
from rulescore.trace import cite_rulings

from .common import (ERROR, ROLLED, SUCCESS, DiceEntry, ErrorLine, ExplanationView, Reach,
                     RollRequest, Tool, answers, labelled_text, odds_table_html, section,
                     steps_html)
from .lean import set_shown, shared_layout
from .roster import FighterPick

STYLE = {"description_width": "12em"}
LEVEL_NAMES = {"CF": "Critical Failure", "F": "Failure", "S": "Success",
               "CS": "Critical Success"}
DEFENCES = ("Block", "Dodge", "Counterstrike", "Ignore")
OUTCOME_NAMES = {"strike": "the attacker strikes", "counterstrike": "the defender strikes back",
                 "blocked": "blocked", "dodged": "dodged", "no strike": "no blow lands"}


def _eml(label: str, value: int) -> w.IntText:
    return w.IntText(value=value, description=label, style=STYLE,
                     layout=shared_layout(width="19em"))


#: The seed's EML limits, which the tools keep (assumption eml_limits).
FLOOR = "the seed's minimum test EML 05: " + cite_rulings("percentile", ["eml_limits"])
NO_CAP = "no cap, the seed names none: " + cite_rulings("percentile", ["eml_limits"])
ATTACKER_LOST = ("an attacker who attacks at all has the zones a Melee test needs: the fight "
                 "page's melee panel reads a lost one from the attacker's injury record")


#: Why a tool fixes an argument it fills from a fighter's roster row.
FROM_ROW = "filled from the fighter picked from the roster (then editable)"
PICK = "percentile"




def armour_note(row: Fighter, zone: str, aspect: str, struck: bool = False) -> str:
    """What a struck fighter's armour fill took, in the reader's words: the aimed zone's
    armour before the roll, the zone struck once the dice found another one."""
    words = {"B": "blunt", "E": "edge", "P": "point", "F": "fire"}[aspect]
    which = ("the zone struck" if struck else
             "the aimed zone; a strike that lands in another zone meets that zone's armour")
    return (f"<small class='rulebook-pc-armour-note'>Armour: {html.escape(row.name)}'s "
            f"{zone.lower()} against {words} ({which}).</small>")


def struck_armour(tool: Any, zone: str | None = None, *, refresh: bool = True) -> None:
    """Fill *tool*'s Armour value and Rigid fields, and its note, with its struck fighter's
    armour on *zone* (the aimed zone when None) against the strike's aspect (nothing without
    a struck fighter). With *refresh* False the fields change without a new answer: a roll in
    progress fills the zone it struck."""
    if tool.struck is None:
        return
    aimed = zone is None
    zone = pc.zone_name(tool.aim.value) if zone is None else zone
    av, rigid = fighter_armour(tool.struck, zone, tool.aspect.value)
    tool.armour_note.value = armour_note(tool.struck, zone, tool.aspect.value, not aimed)
    tool.armour_from = (zone, av, rigid)
    if refresh:
        set_quietly(tool, [(tool.armour, av), (tool.rigid, rigid)])
        return
    tool._quiet = True
    try:
        tool.armour.value, tool.rigid.value = av, rigid
    finally:
        tool._quiet = False


def walk_struck_zone(tool: Any, call: Callable[[DiceSource], pc.InjurySequence],
                     dice: DiceSource) -> pc.InjurySequence:
    """*call* (the tool's injury sequence) with *dice*, against the armour of the zone the
    strike lands in (Injury 2: the AV at the location struck). When the struck fighter's
    armour fills the fields and the dice find another zone than the one filled, that zone's
    armour is filled and the strike walked again: the same Zone and Location Dice, then the
    dice already drawn, then *dice* on (a typed field the reader changed is left theirs)."""
    walk = call(dice)
    found = walk.location.zone if walk.location is not None else None
    held = getattr(tool, "armour_from", None)
    if tool.struck is None or found is None or held is None or held[0] == found \
            or (tool.armour.value, tool.rigid.value) != held[1:]:
        return walk
    drawn = [v for _, v in walk.rolled]
    where = 1 + max(i for i, (name, _) in enumerate(walk.rolled)
                    if name.startswith(("Zone Die", "Location Die")))
    struck_armour(tool, found, refresh=False)
    rest = DiceSource.typed(drawn[where:], then=dice)
    return call(DiceSource.typed(drawn[:where], then=rest))


def set_quietly(tool: object, values: list[tuple[w.DOMWidget, object]]) -> None:
    """Set several fields of *tool* at once; its ``update`` runs once afterwards."""
    tool._quiet = True  # type: ignore[attr-defined]
    try:
        for field, value in values:
            field.value = value
    finally:
        tool._quiet = False  # type: ignore[attr-defined]
    tool.update()  # type: ignore[attr-defined]


def _rolls(result: pc.MeleeResolution) -> list[int]:
    """The d100s an exchange read, in its trace's order (attacker first)."""
    return [int(v) for st in result.trace for k, v in st.values if k == "roll"]


class TestRoller(Tool):
    """A d100 test against an EML: the exact chance of each success level, then the roll (seeded,
    typed, or as tens and ones dice), its level and, on a critical failure, the mishap."""

    waiting_for = "the d100"

    __test__ = False  # a widget, not a pytest test class

    reaches = (
        Reach(pc.skill_test, {"eml": "EML", "test": "Kind of test"},
              {"roll": ROLLED, "dice": ROLLED, "eml_floor": FLOOR, "eml_cap": NO_CAP}),
        Reach(pc.effective_eml, {"eml": "EML"}, {"eml_floor": FLOOR, "eml_cap": NO_CAP}),
        Reach(pc.success_level_probabilities, {}, {"eml": "the EML after its floor"}),
    )

    def __init__(self, eml: int = 65, test: str = "attack") -> None:
        self.eml = _eml("EML", eml)
        self.test = w.Dropdown(options=["attack", "block", "counterstrike", "dodge", "ignore",
                                        "missile"], value=test, description="Kind of test",
                               style=STYLE, layout=shared_layout(width="24em"))
        self.error = ErrorLine()
        self.odds = w.HTML()
        self.entry = DiceEntry("one d100, e.g. 37", percentile=True)
        self.result = w.HTML(self.waiting)
        self.explanation = ExplanationView()
        self.roll_error = self.entry.error
        super().__init__([w.HBox([self.eml, self.test]), self.error,
                          section("Odds before you roll", self.odds),
                          section("Roll", self.entry),
                          section("Result", self.result, self.explanation)],
                         "rulebook-pc-test")
        self.eml.observe(lambda _: self.update(), "value")
        self.test.observe(lambda _: self.update(), "value")
        self.entry.on_request(self.roll)
        self.update()

    @answers("odds")
    def update(self) -> None:
        """Show the exact chance of each success level at this EML (after its floor)."""
        self.result.value = self.waiting
        self.explanation.clear()
        used = pc.effective_eml(self.eml.value)
        probs = pc.success_level_probabilities(used)
        note = (f"<p>EML {self.eml.value} is tested as <b>{used}</b>.</p>"
                if used != self.eml.value else "")
        self.odds.value = note + odds_table_html(
            [(f"{LEVEL_NAMES[k]} ({k})", p) for k, p in probs.items()], "Success level")

    @answers("explanation", line="roll_error")
    def roll(self, request: RollRequest) -> None:
        """Roll a d100 with a seed, or read the typed roll, and name its success level."""
        self.result.value = self.waiting
        request.expect_typed(1, "one d100")
        result = pc.skill_test(None, self.eml.value, test=self.test.value, dice=request.dice)
        colour = SUCCESS if result.succeeded else ERROR
        mishap = f" — roll on the <b>{result.mishap}</b> table" if result.mishap else ""
        how = request.describe()
        self.result.value = (
            f"<div class='rulebook-pc-result' style='color:{colour};font-weight:600'>"
            f"Rolled {result.value} against EML {result.eml}: {LEVEL_NAMES[result.level]} "
            f"({result.level}){mishap}</div><small>({how})</small>")
        self.explanation.show(result.trace)


# "" stands for no zone lost: a menu whose value is None shows nothing chosen
#: Who wins a Dodge tie when both dice show the same number (assumption dodge_equal_rolls).
DODGE_TIES = (("the defender (this book's reading)", "defender"), ("the attacker", "attacker"))
LOST_ZONES = (("none", ""), ("Head", "Head"), ("an arm", "Arms"), ("the torso", "Torso"),
              ("a leg", "Legs"))


class MeleeExchange(Tool):
    """One melee exchange: both sides' Mastery Levels and declared modifiers, the defence, the
    exact odds of every outcome, then both d100 rolls (seeded or typed) through the MELEE TEST
    matrix, and the winner's tactical advantages spent."""

    waiting_for = "the d100"

    reaches = (
        Reach(pc.declare_melee, {
            "attacker_ml": "Attacker's ML", "defence": "Defence", "defender_ml": "Defender's ML",
            "aim_zone": "Attacker aims at a non-default zone", "strength": "Attacker's Strength",
            "defender_strength": "Defender's Strength", "outnumbered": "Foes on the defender",
            "close": "In Close", "attacker_prone": "Attacker prone",
            "defender_prone": "Defender prone", "attacker_trauma": "Attacker's trauma",
            "defender_trauma": "Defender's trauma"}, {
            "weapon": "built from the attacker's reach, thrust and heft fields",
            "defender_weapon": "built from the defender's reach, thrust and heft fields",
            "counter_aim_zone": "a Counterstrike aimed off its default zone is not offered here",
            "area": "an area attack is met by evasion, not this exchange"}),
        Reach(pc.Weapon, {"reach": "Attacker's reach", "thrust": "Attacker thrusts",
                          "heft": "Attacker's weapon heft", "zone_die": "Attacker's Zone Die",
                          "aspect": "Attacker's aspect"}, {
            "name": "the attacker's or the defender's weapon",
            "grip": "how a weapon is held changes no modifier of the exchange"}),
        Reach(pc.strike_from_melee, {}, {
            "result": "the exchange rolled above",
            "weapon": "the striker's weapon: the attacker's on a strike, the defender's on a "
                      "counterstrike", "spent": "the advantages spent above"}),
        Reach(pc.melee_outcome_distribution, {
            "defence": "Defence",
            "defender_unusable_zone": "Defends with a zone lost to a Grievous wound",
            "dodge_equal_rolls": "Equal Dodge rolls go to",
            "attack_setups": "Attacker's Setup advantages",
            "defence_setups": "Defender's Setup advantages"}, {
            "attack_eml": "the attacker's EML the declaration gives",
            "defence_eml": "the defender's EML the declaration gives", "eml_cap": NO_CAP,
            "attacker_unusable_zone": ATTACKER_LOST}),
        Reach(pc.melee_exchange, {
            "defence": "Defence",
            "defender_unusable_zone": "Defends with a zone lost to a Grievous wound",
            "dodge_equal_rolls": "Equal Dodge rolls go to",
            "attack_setups": "Attacker's Setup advantages",
            "defence_setups": "Defender's Setup advantages"}, {
            "attack_roll": ROLLED, "defence_roll": ROLLED, "dice": ROLLED,
            "attack_eml": "the attacker's EML the declaration gives",
            "defence_eml": "the defender's EML the declaration gives", "eml_cap": NO_CAP,
            "attacker_unusable_zone": ATTACKER_LOST,
            "helpless": "a defender who defends or Ignores by choice: the fight page's "
                        "melee panel takes an Unconscious (helpless) one"}),
        Reach(pc.spend_advantages, {"choices": "Advantages to take"},
              {"result": "the exchange rolled above"}),
    )

    def fill_attacker(self, row: Fighter) -> None:
        """The attacker's fields from their roster row: Melee ML, weapon and Strength."""
        set_quietly(self, [(self.attack_eml, row["melee"]), (self.a_reach, row["reach"]),
                           (self.a_thrust, bool(row["thrust"])), (self.a_heft, row["heft"]),
                           (self.a_str, row["strength"]),
                           (self.a_zone, die_sides(row["zone_die"])),
                           (self.a_aspect, row["aspect"])])
        if self._injury is not None:
            self._injury.fill_striker(row)  # type: ignore[attr-defined]

    def fill_defender(self, row: Fighter) -> None:
        """The defender's fields from their roster row: the defence they declare and its ML
        (Dodge for a Dodge, Melee otherwise), weapon and Strength."""
        ml = row["dodge"] if row["defence"] == "Dodge" else row["melee"]
        set_quietly(self, [(self.defence, row["defence"]), (self.defence_eml, ml),
                           (self.d_reach, row["reach"]), (self.d_thrust, bool(row["thrust"])),
                           (self.d_heft, row["heft"]), (self.d_str, row["strength"]),
                           (self.d_zone, die_sides(row["zone_die"])),
                           (self.d_aspect, row["aspect"])])
        if self._injury is not None:
            self._injury.fill_struck(row)  # type: ignore[attr-defined]

    def __init__(self, attack_eml: int = 70, defence: str = "Block",
                 defence_eml: int = 60) -> None:
        self.attack_eml = _eml("Attacker's ML", attack_eml)
        self.defence = w.Dropdown(options=DEFENCES, value=defence, description="Defence",
                                  style=STYLE, layout=shared_layout(width="24em"))
        self.defence_eml = _eml("Defender's ML", defence_eml)
        small = shared_layout(width="19em")

        def num(label: str, value: int, low: int = 0, high: int = 100) -> w.BoundedIntText:
            return w.BoundedIntText(value=value, min=low, max=high, description=label,
                                    style=STYLE, layout=small)

        def tick(label: str) -> w.Checkbox:
            return w.Checkbox(value=False, description=label, indent=False)
        self.a_reach, self.d_reach = num("Attacker's reach", 3), num("Defender's reach", 3)
        self.a_thrust, self.d_thrust = tick("Attacker thrusts"), tick("Defender thrusts")
        self.a_heft, self.d_heft = num("Attacker's weapon heft", 0), num("Defender's weapon heft", 0)
        self.a_str, self.d_str = num("Attacker's Strength", 10), num("Defender's Strength", 10)
        self.a_trauma = num("Attacker's trauma", 0)
        self.d_trauma = num("Defender's trauma", 0)
        self.aim = tick("Attacker aims at a non-default zone")
        self.outnumbered = num("Foes on the defender", 1, 1, 10)
        self.a_prone, self.d_prone = tick("Attacker prone"), tick("Defender prone")
        self.in_close = tick("In Close")
        # Setup TAs a side took within the last round lift its test a level (Melee Test Results)
        self.a_setup = num("Attacker's Setup advantages", 0, 0, pc.MAX_SETUPS)
        self.d_setup = num("Defender's Setup advantages", 0, 0, pc.MAX_SETUPS)
        self.d_lost = w.Dropdown(options=LOST_ZONES, value="", style=STYLE, layout=small,
                                 description="Defends with a zone lost to a Grievous wound")
        # the seed leaves equal Dodge rolls open (assumption dodge_equal_rolls): a switch
        self.dodge_ties = w.Dropdown(options=DODGE_TIES, value="defender", style=STYLE,
                                     layout=small, description="Equal Dodge rolls go to")

        def die(label: str) -> w.Dropdown:
            return w.Dropdown(options=[(f"d{n}", n) for n in DIE_SIZES], value=6,
                              description=label, style=STYLE, layout=small)

        def aspect(label: str) -> w.Dropdown:
            return w.Dropdown(options=ASPECTS, value="E", description=label, style=STYLE,
                              layout=small)
        # what the injury walker needs of the weapon whose blow lands
        self.a_zone, self.a_aspect = die("Attacker's Zone Die"), aspect("Attacker's aspect")
        self.d_zone, self.d_aspect = die("Defender's Zone Die"), aspect("Defender's aspect")
        self.modifiers = [self.a_reach, self.a_heft, self.a_str, self.a_trauma, self.a_zone,
                          self.a_aspect, self.a_thrust, self.aim, self.a_prone, self.a_setup,
                          self.d_reach, self.d_heft, self.d_str, self.d_trauma,
                          self.outnumbered, self.d_zone, self.d_aspect, self.d_thrust,
                          self.d_prone, self.in_close, self.d_setup, self.d_lost,
                          self.dodge_ties]
        self.emls = w.HTML()
        self.error = ErrorLine()
        self.odds = w.HTML()
        self.entry = DiceEntry("attacker's d100, defender's d100, e.g. 34, 71")
        self.entry.set_percentile(False)
        self.result = w.HTML(self.waiting)
        self.explanation = ExplanationView()
        self.spend_text = labelled_text("Advantages to take", placeholder="e.g. impact, precision",
                                        width="26em", label_width="11em")
        self.spend_button = w.Button(description="Spend them", layout=shared_layout(width="auto"))
        self.spent = w.HTML()
        self.spend_error = ErrorLine()
        self.roll_error = self.entry.error
        self.spend_box = w.VBox([w.HBox([self.spend_text, self.spend_button]),
                                 self.spend_error, self.spent],
                                layout=shared_layout(display="none"))
        self.last: pc.MeleeResolution | None = None
        self.last_spent: pc.AdvantagesSpent | None = None
        self.send_button = w.Button(description="Send to the injury walker",
                                    button_style="primary", layout=shared_layout(width="auto"))
        self.send_row = w.HBox([self.send_button], layout=shared_layout(display="none"))
        self._injury: object = None
        self._quiet = False
        self.attacker_pick = FighterPick(PICK, self.fill_attacker, label="Attacker")
        self.defender_pick = FighterPick(PICK, self.fill_defender, label="Defender")
        super().__init__([w.HBox([self.attacker_pick, self.defender_pick]),
                          w.HBox([self.attack_eml, self.defence, self.defence_eml]),
                          section("Declared modifiers",
                                  w.HBox([w.VBox(self.modifiers[:10]),
                                          w.VBox(self.modifiers[10:])]), self.emls),
                          self.error,
                          section("Odds before you roll", self.odds),
                          section("Roll", self.entry),
                          section("Result", self.result, self.explanation, self.spend_box,
                                  self.send_row)],
                         "rulebook-pc-melee")
        for field in [self.attack_eml, self.defence, self.defence_eml] + self.modifiers:
            field.observe(lambda _: self._quiet or self.update(), "value")
        self.entry.on_request(self.roll)
        self.spend_button.on_click(lambda _: self.spend())
        self.send_button.on_click(lambda _: self.send_strike())
        self.update()

    def send_to(self, walker: object) -> None:
        """Link an injury walker: a blow that lands can then fill it with one press."""
        self._injury = walker
        set_shown(self.send_row, True)

    def _striker_weapon(self) -> pc.Weapon:
        """The weapon whose blow landed: the attacker's on a strike, the defender's on a
        counterstrike."""
        attacker = self.last is None or self.last.striker != "defender"
        side = "attacker" if attacker else "defender"
        return pc.Weapon(f"{side}'s weapon",
                         reach=(self.a_reach if attacker else self.d_reach).value,
                         thrust=(self.a_thrust if attacker else self.d_thrust).value,
                         heft=(self.a_heft if attacker else self.d_heft).value,
                         zone_die=(self.a_zone if attacker else self.d_zone).value,
                         aspect=(self.a_aspect if attacker else self.d_aspect).value)

    @answers(line="spend_error")
    def send_strike(self) -> None:
        """Hand the landed blow to the injury walker: the striker's Zone Die and aspect, the
        Precision and Impact advantages spent (any left stay the reader's to choose)."""
        if self._injury is None or self.last is None or \
                self.last.outcome not in ("strike", "counterstrike"):
            raise RulesError("Roll an exchange in which a blow lands first")
        self._injury.take(pc.strike_from_melee(  # type: ignore[attr-defined]
            self.last, self._striker_weapon(), self.last_spent))

    def _ignoring(self) -> bool:
        return self.defence.value == "Ignore"

    def _rolling_defender(self) -> bool:
        """Whether the defender rolls a d100: not when ignoring, nor with a lost zone."""
        return not self._ignoring() and not self.d_lost.value

    def _setups(self) -> dict[str, int]:
        """Each side's Setup advantages as typed: the engine leaves a defender's unused when
        they make no roll, and its explanation says so."""
        return {"attack_setups": self.a_setup.value, "defence_setups": self.d_setup.value}

    def _declared(self) -> pc.MeleeDeclaration:
        """Both tests' EMLs from the MLs and the declared modifiers (Melee 2)."""
        attacker = pc.Weapon("attacker's weapon", reach=self.a_reach.value,
                             thrust=self.a_thrust.value, heft=self.a_heft.value)
        defender = pc.Weapon("defender's weapon", reach=self.d_reach.value,
                             thrust=self.d_thrust.value, heft=self.d_heft.value)
        return pc.declare_melee(
            self.attack_eml.value, attacker, self.defence.value,
            defender_ml=self.defence_eml.value, defender_weapon=defender,
            aim_zone=2 if self.aim.value else 1, outnumbered=self.outnumbered.value,
            close=self.in_close.value, attacker_prone=self.a_prone.value,
            defender_prone=self.d_prone.value, strength=self.a_str.value,
            defender_strength=self.d_str.value, attacker_trauma=self.a_trauma.value,
            defender_trauma=self.d_trauma.value)

    @answers("odds", "emls")
    def update(self) -> None:
        """Show both EMLs and the exact odds of each outcome of the exchange."""
        self.result.value = self.waiting
        self.explanation.clear()
        set_shown(self.spend_box, False)
        ignoring = self._ignoring()
        for field in (self.defence_eml, self.d_reach, self.d_thrust, self.d_heft, self.d_str,
                      self.d_trauma, self.outnumbered, self.d_prone, self.d_lost):
            field.disabled = ignoring
        self.d_setup.disabled = not self._rolling_defender()
        self.dodge_ties.disabled = self.defence.value != "Dodge"
        told = self._declared()
        dist = pc.melee_outcome_distribution(
            told.attack_eml, self.defence.value, told.defence_eml,
            defender_unusable_zone=None if ignoring else self.d_lost.value or None,
            dodge_equal_rolls=self.dodge_ties.value, **self._setups())
        self.told = told
        self.emls.value = (f"<p class='rulebook-pc-emls'>The attacker tests at EML "
                           f"<b>{told.attack_eml}</b>" + (
                               f", the defender's {self.defence.value} at EML "
                               f"<b>{told.defence_eml}</b>" if told.defence_eml is not None
                               else " (unopposed)")
                           + ("; the defender's test is an automatic critical failure (no roll)"
                              if told.defence_eml is not None and self.d_lost.value else "")
                           + ".</p>")
        rows = [(f"{OUTCOME_NAMES[o].capitalize()}"
                 + (f", {s} star{'s' if s != 1 else ''}" if s else ""), p)
                for (o, s), p in sorted(dist.items(), key=lambda kv: (-kv[1], kv[0]))]
        self.odds.value = odds_table_html(rows, "Outcome")

    @answers("explanation", line="roll_error")
    def roll(self, request: RollRequest) -> None:
        """Roll both d100s with a seed, or read the typed rolls, and resolve the exchange."""
        self.result.value = self.waiting
        self.last, self.last_spent = None, None
        set_shown(self.spend_box, False)
        self.send_button.disabled = True
        told = self._declared()
        need = 2 if self._rolling_defender() else 1
        request.expect_typed(need, f"{need} d100 "
                             f"({'the attacker' if need == 1 else 'attacker, then defender'})")
        result = pc.melee_exchange(
            None, told.attack_eml, self.defence.value, None, told.defence_eml,
            defender_unusable_zone=None if self._ignoring() else self.d_lost.value or None,
            dodge_equal_rolls=self.dodge_ties.value, dice=request.dice, **self._setups())
        rolls = _rolls(result)
        self.last = result
        stars = f", {result.stars} victory star{'s' if result.stars != 1 else ''}" \
            if result.stars else ""
        tas = (f"; {result.tactical_advantages} tactical advantage(s) to choose from: "
               f"{html.escape(', '.join(result.ta_choices))}" if result.tactical_advantages
               else "")
        mishaps = "".join(f"; {who} suffers an {m.lower()}" if m.startswith("Automatic")
                          else f"; {who} rolls a {m}" for who, m in
                          (("the attacker", result.attacker_mishap),
                           ("the defender", result.defender_mishap)) if m)
        how = request.describe()
        levels = f"attacker {result.attack_level}" + (
            f", defender {result.defence_level}" if result.defence_level else "")
        self.result.value = (
            f"<div class='rulebook-pc-result' style='font-weight:600'>"
            f"Rolls {', '.join(map(str, rolls))} ({levels}): "
            f"{OUTCOME_NAMES.get(result.outcome, result.outcome)}{stars}{tas}{mishaps}</div>"
            f"<small>({how})</small>")
        self.explanation.show(result.trace)
        self.spend_text.value = ""
        self.spent.value = ""
        set_shown(self.spend_box, bool(result.tactical_advantages))
        self.send_button.disabled = result.outcome not in ("strike", "counterstrike")

    @answers("spent", line="spend_error")
    def spend(self) -> None:
        """Spend the winner's tactical advantages as typed (one name per advantage)."""
        self.spent.value = ""
        choices = [c.strip().lower() for c in self.spend_text.value.split(",") if c.strip()]
        if self.last is None:
            raise RulesError("Advantages to take: roll an exchange first")
        spent = pc.spend_advantages(self.last, choices)
        self.last_spent = spent
        self.spent.value = steps_html(spent.trace)


DIE_SIZES = (4, 6, 8, 10, 12, 20)
ASPECTS = (("Blunt (B)", "B"), ("Edge (E)", "E"), ("Point (P)", "P"), ("Fire (F)", "F"))
STATE_NAMES = {None: "no shock effect", "STN": "Stunned (STN)",
               "INC": "Incapacitated (INC)", "UNC": "Unconscious (UNC)", "KIA": "Killed (KIA)"}


def blow_odds_html(where: dict, hurt: dict, location_head: str) -> str:
    """Side-by-side tables of a blow's exact odds: where it lands, and what injury it does."""
    places = sorted(where.items(), key=lambda kv: (-kv[1], str(kv[0])))
    levels = sorted(hurt.items(), key=lambda kv: (-kv[1], str(kv[0])))
    return ("<div style='display:flex;gap:2em;flex-wrap:wrap'>"
            + odds_table_html([({None: "Miss", "hard cover": "Behind hard cover: fails"}
                               .get(k, k), p) for k, p in places], location_head)
            + odds_table_html([({None: "No injury", "glancing": "Glancing blow"}.get(k, k), p)
                     for k, p in levels], "Injury") + "</div>")


class BlowWalker(Tool):
    """A landed blow from the dice to its shock: location (Zone Die + aim, then the d10
    Location Die), impact against armour, the injury, and the Shock test — each step with its
    exact odds and explanation. Dice: seeded, or typed as zone, location, impact, shock d100."""

    _SHORT = "the short walk of the table chapter; the injury chapter's walker reaches it"
    reaches = (
        Reach(pc.injury_sequence, {
            "zone_die": "Zone Die", "aim_zone": "Aimed zone (ZN)", "impact_die": "Impact die",
            "impact_modifier": "Impact modifier", "aspect": "Aspect",
            "armour": "Armour value there", "rigid_armour": "Rigid armour (glancing blows)",
            "shock_eml": "Shock EML"}, {
            "dice": ROLLED, "rng": "the Roll button's seed is in the dice",
            **dict.fromkeys(("precision", "zone_pick", "strength_modifier", "impact_tas",
                             "range_modifier", "strength_eml", "fatigue", "current_state",
                             "projectile", "reroll", "record", "existing", "hard_cover",
                             "helpless", "beast"), _SHORT)}),
        Reach(pc.location_distribution, {"zone_die": "Zone Die", "aim_zone": "Aimed zone (ZN)"},
              {"hard_cover": _SHORT}),
        Reach(pc.injury_level_distribution, {
            "impact_die": "Impact die", "impact_modifier": "Impact modifier",
            "armour": "Armour value there", "aspect": "Aspect",
            "rigid_armour": "Rigid armour (glancing blows)"},
            dict.fromkeys(("strength_modifier", "impact_tas", "range_modifier"), _SHORT)),
        Reach(pc.zone_count, {}),
        Reach(pc.zone_name, {"zone_number": "Aimed zone (ZN)"}),
    )

    def fill_striker(self, row: Fighter) -> None:
        """The blow's weapon from the striker's roster row: Zone Die, impact die and modifier
        (with the Strength impact modifier added) and aspect."""
        set_quietly(self, [(self.zone_die, die_sides(row["zone_die"])),
                           (self.impact_die, die_sides(row["impact_die"])),
                           (self.modifier, row["impact_mod"] + row["str_impact"]),
                           (self.aspect, row["aspect"])])
        struck_armour(self)

    def fill_struck(self, row: Fighter) -> None:
        """The struck fighter's Shock ML, and their armour on the aimed zone."""
        self.struck = row
        set_quietly(self, [(self.shock_eml, row["shock"])])
        struck_armour(self)

    def __init__(self) -> None:
        def die(label: str, value: int) -> w.Dropdown:
            return w.Dropdown(options=[(f"d{n}", n) for n in DIE_SIZES], value=value,
                              description=label, style=STYLE, layout=shared_layout(width="20em"))
        self.zone_die = die("Zone Die", 6)
        self.aim = w.BoundedIntText(value=1, min=1, max=pc.zone_count(),
                                    description="Aimed zone (ZN)", style=STYLE,
                                    layout=shared_layout(width="20em"))
        self.impact_die = die("Impact die", 10)
        self.modifier = w.IntText(value=3, description="Impact modifier", style=STYLE,
                                  layout=shared_layout(width="20em"))
        self.aspect = w.Dropdown(options=ASPECTS, value="E", description="Aspect",
                                 style=STYLE, layout=shared_layout(width="20em"))
        self.armour = w.BoundedIntText(value=0, min=0, max=40,
                                       description="Armour value there", style=STYLE,
                                       layout=shared_layout(width="20em"))
        self.rigid = w.Checkbox(value=False, description="Rigid armour (glancing blows)",
                                style=STYLE, layout=shared_layout(width="22em"))
        self.shock_eml = w.IntText(value=65, description="Shock EML", style=STYLE,
                                   layout=shared_layout(width="20em"))
        self.inputs = [self.zone_die, self.aim, self.impact_die, self.modifier, self.aspect,
                       self.armour, self.rigid, self.shock_eml]
        self.error = ErrorLine()
        self.odds = w.HTML()
        self.entry = DiceEntry("zone, location (d10), impact, shock d100, e.g. 2, 7, 8, 75")
        self.entry.set_percentile(False)
        self.result = w.HTML("<i>Press Roll, or type the four dice and press Use my dice.</i>")
        self.explanation = ExplanationView()
        self.roll_error = self.entry.error
        self._quiet = False
        self.struck: Fighter | None = None
        self.armour_note = w.HTML()
        self.striker_pick = FighterPick(PICK, self.fill_striker, label="Striker")
        self.struck_pick = FighterPick(PICK, self.fill_struck, label="Struck fighter")
        super().__init__([w.HBox([self.striker_pick, self.struck_pick]), self.armour_note,
                          w.HBox([w.VBox(self.inputs[:4]), w.VBox(self.inputs[4:])]),
                          self.error, section("Odds before you roll", self.odds),
                          section("Roll", self.entry),
                          section("The blow, step by step", self.result, self.explanation)],
                         "rulebook-pc-blow")
        for field in self.inputs:
            field.observe(lambda _: self._quiet or self.update(), "value")
        for field in (self.aim, self.aspect):
            field.observe(lambda _: self._quiet or struck_armour(self), "value")
        self.entry.on_request(self.roll)
        self.update()

    @answers("odds")
    def update(self) -> None:
        """Exact odds of the location and of the injury level for this weapon and armour."""
        self.explanation.clear()
        where = pc.location_distribution(self.zone_die.value, self.aim.value)
        hurt = pc.injury_level_distribution(self.impact_die.value, self.modifier.value,
                                            self.armour.value, aspect=self.aspect.value,
                                            rigid_armour=self.rigid.value)
        self.odds.value = blow_odds_html(where, hurt, "Location")

    @answers("explanation", line="roll_error")
    def roll(self, request: RollRequest) -> None:
        """Walk the blow with seeded or typed dice through the injury sequence (Injury 1-4),
        against the armour of the zone it strikes."""
        walk = walk_struck_zone(self, lambda dice: pc.injury_sequence(
            zone_die=self.zone_die.value, aim_zone=self.aim.value,
            impact_die=self.impact_die.value, impact_modifier=self.modifier.value,
            aspect=self.aspect.value, armour=self.armour.value,
            rigid_armour=self.rigid.value, shock_eml=self.shock_eml.value,
            dice=dice), request.dice)
        self._show([v for _, v in walk.rolled], _blow_headline(walk, self.aspect.value),
                   list(walk.trace), request)

    def _show(self, dice: list[int], headline: str, steps: list,
              request: RollRequest) -> None:
        self.result.value = (f"<div class='rulebook-pc-blow-result' style='font-weight:600'>"
                             f"Dice {', '.join(map(str, dice))}: {html.escape(headline)}</div>"
                             f"<small>({request.describe()})</small>")
        self.explanation.show(steps)


def _blow_headline(walk: pc.InjurySequence, aspect: str) -> str:
    """The blow in one line, in the reader's words: where it landed, the injury, the shock."""
    where = walk.location.outcome if walk.location else ""
    if walk.needs:
        return f"{walk.outcome} (type the {walk.needs} next)"
    if where == "miss":
        return "The Zone Die carries the blow past the body: a miss"
    hurt = walk.injury
    if hurt is None or walk.shock is None:
        if hurt is not None and hurt.injury is None and not hurt.glancing:
            return f"{where}: the armour stops it — no injury"
        return walk.outcome
    flags = [t for t, on in (("a Bleeder", hurt.bleeder),
                             ("check for an injury mishap", hurt.mishap_check)) if on]
    if walk.amputation is not None:
        flags.insert(1 if hurt.bleeder else 0, f"amputation test: {walk.amputation.outcome}")
    label = "Glancing blow" if hurt.glancing else f"{hurt.injury}{aspect}"
    return (f"{where}: {label} injury; shock {walk.shock.shk} → "
            f"{STATE_NAMES.get(walk.state, walk.state)}"
            + (f"; {', '.join(flags)}" if flags else ""))
