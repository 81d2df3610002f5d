"""The percentile "Running a fight" page: the roster, the turn order with every fighter's
injuries and Shock state, a missile shot and a melee exchange filled from two roster rows, the
Shock roll and a day of healing, a roll log and page-wide undo and redo.

Each panel reads the page's roster and fight, makes one engine call
(:mod:`rulescore.systems.percentile.fight`) and hands the result to ``page.apply``: the rules
live in the engine, the page only gathers the reader's choices and shows what comes back.
"""

from __future__ import annotations

import html

import ipywidgets as w

from rulescore.errors import RulesError
from rulescore.roster import Roster
from rulescore.systems import percentile as pc

from .common import (ROLLED, DiceEntry, ErrorLine, ExplanationView, Reach, RollRequest, Tool,
                     answers, button, int_field, odds_table_html, section)
from .percentile_missile import RESULTS as SHOT_RESULTS
from .percentile_table import OUTCOME_NAMES
from .fight import FightPage, OnThePage
from .lean import set_shown, shared_layout
from .theme import FAINT, RULE_LINE

__all__ = ["fight_page", "PercentileFight", "TurnOrder", "MissilePanel", "MeleePanel",
           "AfterPanel"]

STYLE = {"description_width": "11em"}
WIDE = shared_layout(width="22em")
THE_FIGHT = "the page's fight, kept with the roster"
MOVES = (("Still", "still"), ("Moving", "moving"), ("Evading (dodging)", "evading"))
ADVANTAGES = (("Precision: one more Zone Die", "precision"),
              ("Impact: the weapon's Impact TA bonus", "impact"))
AS_ROSTER = "as on the roster"
HELPLESS = "Defender is helpless (a CS, no roll)"
LINE_UP = "Attacker spends a round lining up the blow"
SPOT = "Picked location number (LN)"
SETUPS = {"attack_setups": "Attacker's Setup advantages",
          "defence_setups": "Defender's Setup advantages"}
BYSTANDERS = "Near the target, on the roster"
ARM_RULE = "A Grievous arm injury stops"
TREATED = "Bleeders treated together"
# assumption grievous_arm_defence: the reader's words for each reading
ARM_RULES = (("only the arm in use", "in use"), ("either arm", "any"))
DEFENCES = (("As on the roster", AS_ROSTER),) + tuple((d, d) for d in ("Block", "Counterstrike",
                                                                 "Dodge", "Ignore"))


def starter() -> Roster:
    """The fighters a first visit starts with: an archer and a brigand, for trying the page."""
    return (Roster(pc.ROSTER)
            .add("Nolora", pc=True, initiative=76, archery=75, missile="bow", base_range=40,
                 missile_die="d12", missile_mod=4, weapon="shortsword", impact_die="d8",
                 impact_mod=2, aspect="E")
            .add("Brigand", initiative=60, melee=60, dodge=45, shock=65,
                 defence="Counterstrike", weapon="broadsword", impact_die="d10",
                 impact_mod=3, aspect="E", str_impact=1, av_torso_b=4, av_torso_e=4,
                 av_torso_p=4, av_arms_e=4, av_arms_p=4))


def _injuries(record: pc.InjuryRecord) -> str:
    """The record's open injuries, e.g. "S2P abdomen, M1E left forearm"."""
    shown = [f"{i.code} {i.where.lower()}" + (" (bleeding)" if i.bleeder else "")
             for i in record.injuries if i.level]
    return ", ".join(shown) or "none"


def _marks(inj: pc.RecordedInjury) -> str:
    """How an injury in the menus stands: treated or not, and bleeding."""
    marks = ([f"treated {inj.treatment}"] if inj.treatment else
             ["untreated"] if inj.level else []) + (["bleeding"] if inj.level and inj.bleeder
                                                    else [])
    return f" ({', '.join(marks)})" if marks else ""


def _dropdown(label: str, options: tuple = ()) -> w.Dropdown:
    return w.Dropdown(options=options, description=label, style=STYLE, layout=WIDE)


def _names(drop: w.Dropdown, names: tuple[str, ...], prefer: str | None) -> None:
    """Offer *names*, keeping the current pick when it is still there, else *prefer*."""
    keep = drop.value if drop.value in names else (prefer if prefer in names else None)
    if tuple(drop.options) != names:
        drop.options = names
    drop.value = keep if keep is not None else (names[0] if names else None)


class _Panel(OnThePage, Tool):
    """A panel of the page (:class:`widgets.fight.OnThePage`)."""

    @property
    def fight(self) -> pc.Fight:
        """The page's fight, brought in step with the roster (fighters added or removed)."""
        return pc.fight_for(self._page().roster, self._page().state)


class TurnOrder(_Panel):
    """The turn order, highest Initiative first, with each fighter's injuries and state."""

    reaches = (Reach(pc.next_turn, {}, {"fight": THE_FIGHT}),)

    def __init__(self) -> None:
        self.table = w.HTML()
        self.next_button = button("Next turn", "The next fighter in the order acts",
                                  primary=True)
        self.error = ErrorLine()
        super().__init__([section("Turn order", self.table, w.HBox([self.next_button]),
                                  self.error)], "rulebook-pc-fight-order")
        self.next_button.on_click(lambda _: self.next_turn())

    def render(self) -> None:
        fight = self.fight
        rows = []
        for i, c in enumerate(fight.combatants):
            row = self.page.roster.fighter(c.name)
            acting = i == fight.acting
            mark = "▶ " if acting else ""
            style = "font-weight:600" if acting else ""
            rows.append(f"<tr data-fighter='{html.escape(c.name, quote=True)}' "
                        f"style='{style}'><td>{mark}{html.escape(c.name)}</td>"
                        f"<td>{row['initiative']}</td><td class='rulebook-pc-state'>"
                        f"{html.escape(c.status)}</td><td class='rulebook-pc-injuries'>"
                        f"{html.escape(_injuries(c.record))}</td><td>{c.record.day}</td></tr>")
        head = ("<tr><th>Fighter</th><th>Initiative</th><th>Shock state</th>"
                "<th>Injuries</th><th>Day</th></tr>")
        cell = f"padding:2px 10px;border-bottom:1px solid {RULE_LINE};text-align:left"
        self.table.value = (
            f"<style>.rulebook-pc-order td,.rulebook-pc-order th{{{cell}}}</style>"
            f"<p>Round {fight.round}" + (f": <b>{html.escape(fight.actor.name)}</b> acts"
                                         if fight.actor else "") + "</p>"
            f"<table class='rulebook-pc-order'>{head}{''.join(rows)}</table>"
            if rows else f"<i style='color:{FAINT}'>Add fighters to the roster above.</i>")
        self.next_button.disabled = not rows

    @answers()
    def next_turn(self) -> None:
        after = pc.next_turn(self.fight)
        self.page.apply(f"next turn: {after.actor.name} acts", state=after)


class _StrikePanel(_Panel):
    """What a missile and a melee panel share: two fighters, the roll, the result and the
    button that writes it into the struck fighter's record."""

    verb = "strike"
    #: the panel's dice entry's name: the page holds the shot's, the exchange's and the Shock
    #: and healing panel's entries, and a screen reader tells them apart by it
    dice_name = ""

    def _build(self, title: str, first: str, second: str, fields: list[w.Widget],
               css: str, beside: dict[w.Widget, w.Widget] | None = None) -> None:
        """The panel's layout; *beside* puts a note to the right of a field."""
        self.first = _dropdown(first)
        self.second = _dropdown(second)
        self.aim = int_field("Aimed zone (ZN)", 1, 1, 10, style=STYLE, layout=WIDE)
        self.advantage = _dropdown("Tactical advantage", ADVANTAGES)
        self.zone_pick = int_field("Use Zone Die number", 1, 1, 6, style=STYLE, layout=WIDE)
        self.filled = w.HTML()
        self.odds = w.HTML()
        self.error = ErrorLine()
        self.entry = DiceEntry("the d100s, then the injury's dice in order",
                               name=self.dice_name)
        self.result = w.HTML()
        self.explanation = ExplanationView()
        self.apply_button = button("Write it into the record", "Nothing rolled yet",
                                   primary=True)
        self.inputs = [self.first, self.second, *fields, self.aim, self.advantage,
                       self.zone_pick]
        half = (len(self.inputs) + 1) // 2
        shown = [w.HBox([f, beside[f]], layout=shared_layout(align_items="center"))
                 if beside and f in beside else f for f in self.inputs]
        super().__init__([section(title, w.HBox([w.VBox(shown[:half]),
                                                 w.VBox(shown[half:])]),
                                  self.filled, self.odds, self.error, self.entry,
                                  self.result,
                                  w.HBox([self.apply_button]), self.explanation)], css)
        self.strike: pc.Strike | None = None
        self.request: RollRequest | None = None
        self.written = False  # the strike shown is already in the record
        self.last_actor: str | None = None
        self.after_record: pc.InjuryRecord | None = None
        for field in self.inputs:
            field.observe(lambda change: self._changed(change), "value")
        self.entry.on_request(self.roll)
        self.apply_button.on_click(lambda _: self.apply())

    def _changed(self, change: dict) -> None:
        if getattr(self, "_quiet", False):
            return
        if change["owner"] is self.zone_pick and self.request is not None:
            self.roll(self.request.fresh(), log=False)  # the same dice, another Zone Die
            return
        self._clear()
        self.show_filled()

    def _clear(self) -> None:
        self.strike, self.request, self.written = None, None, False
        self.result.value = ""
        self.explanation.clear()
        self._show_apply()

    def _show_apply(self, written: bool = False) -> None:
        struck = self.strike.struck if self.strike is not None else None
        if written:
            self.apply_button.disabled = True
            self.apply_button.description = f"Written into {struck}'s record"
            self.apply_button.tooltip = "Roll again for the next strike"
            return
        self.apply_button.disabled = struck is None
        self.apply_button.description = (f"Write it into {struck}'s record" if struck
                                         else "Write it into the record")
        self.apply_button.tooltip = ("Nothing rolled yet" if self.strike is None else
                                     "Nobody is struck" if struck is None else
                                     f"Add the injury and the Shock state to {struck}")

    def render(self) -> None:
        names = self.page.roster.names()
        fight = self.fight
        living = tuple(c.name for c in fight.combatants if not c.dead)
        actor = fight.actor.name if fight.actor else None
        self._quiet = True
        try:
            _names(self.first, names, actor)
            if actor != self.last_actor:  # a new turn: the one acting now shoots or attacks
                if actor in names:
                    self.first.value = actor
                self.last_actor = actor
            other = next((n for n in living if n != self.first.value), None)
            keep = self.second.value not in (None, self.first.value) and \
                (self.second.value in living or other is None)
            choice = self.second.value if keep else other
            _names(self.second, names, choice)
            if choice in names:
                self.second.value = choice
        finally:
            self._quiet = False
        self._follow(fight)
        self.show_filled()

    def _follow(self, fight: pc.Fight) -> None:
        """Keep the strike shown in step with the record: written (or undone back to before
        it was written, offered again), or cleared once the record has moved on."""
        strike = self.strike
        if strike is None or strike.struck is None:
            return
        record = (fight.combatant(strike.struck).record
                  if strike.struck in fight.order else None)
        if record == strike.before:
            self.written = False
            self._show_apply()
        elif record is not None and record == self.after_record:
            self.written = True
            self._show_apply(written=True)
        else:
            self._clear()

    @answers("filled", "odds")
    def show_filled(self) -> None:
        """What the two rows bring, and the exact odds of the test before the roll."""
        if self.first.value is None or self.second.value is None:
            self.filled.value = f"<i style='color:{FAINT}'>Two fighters are needed.</i>"
            self.odds.value = ""
            return
        first = self.page.roster.fighter(self.first.value)
        second = self.page.roster.fighter(self.second.value)
        self.filled.value = self.describe(first, second)
        fallen = [c.name for c in self.fight.combatants
                  if c.dead and c.name in (first.name, second.name)]
        if fallen:
            self.odds.value = (f"<i class='rulebook-pc-fight-odds'>{html.escape(fallen[0])} "
                               "is dead: choose another fighter.</i>")
            return
        before = self.before(first, second)
        rows = sorted(before.odds.items(), key=lambda kv: -kv[1])
        self.odds.value = (f"<div class='rulebook-pc-fight-odds'><b>Before the roll: "
                           f"{html.escape(before.outcome)}</b>"
                           + odds_table_html([(self.name(k), p) for k, p in rows],
                                             "Test result") + "</div>")

    def roll(self, request: RollRequest, log: bool = True) -> None:
        self.error.clear()
        try:
            strike = self.call(request.dice)
        except RulesError as exc:
            self.entry.error.show(str(exc))
            self._clear()
            return
        self.strike, self.request, self.written = strike, request, False
        dice = ", ".join(f"{n} {v}" for n, v in strike.rolled)
        self.result.value = (f"<div class='rulebook-pc-fight-result' style='font-weight:600'>"
                             f"{html.escape(strike.outcome)}</div><small>Dice: "
                             f"{html.escape(dice) or 'none'} ({request.describe()})</small>")
        self.explanation.show(strike.trace)
        self._show_apply()
        if log:
            values = [field.value for field in self.inputs]
            self.roll_log.add(f"{self.verb}: {strike.attacker} at {strike.defender}", request,
                              strike.outcome, lambda again: self._replay(values, again))

    @answers()
    def apply(self) -> None:
        strike = self.strike
        if strike is None or strike.struck is None:
            raise RulesError("roll first: nobody is struck yet")
        after = pc.apply_strike(self.fight, self.page.roster.fighter(strike.struck), strike)
        self.after_record = after.combatant(strike.struck).record
        self.page.apply(f"{strike.struck}: {strike.walk.outcome}", state=after)


class MissilePanel(_StrikePanel):
    """A missile shot from one roster fighter at another: the shooter's weapon and skill, the
    range, the target's armour, then the injury and its Shock roll."""

    verb = "missile shot"
    dice_name = "shot"
    reaches = (
        Reach(pc.missile_attack,
              {"shooter": "Shooter", "target": "Target", "range_ft": "Range (ft)",
               "target_moves": "Target is", "aim_zone": "Aimed zone (ZN)",
               "advantage": "Tactical advantage", "zone_pick": "Use Zone Die number",
               "near_target": "Others near the target", "bystanders": BYSTANDERS},
              {"fight": THE_FIGHT, "dice": "the dice of the Roll the shot / Shot dice row"}),
        Reach(pc.apply_strike, {}, {"fight": THE_FIGHT, "row": "the struck fighter's row",
                                    "strike": "the shot rolled above"}),
        Reach(pc.missile_odds,
              {"shooter": "Shooter", "target": "Target", "range_ft": "Range (ft)",
               "target_moves": "Target is", "near_target": "Others near the target"},
              {"fight": THE_FIGHT}),
        # only to number those near the target: a Volley's area counts the target first
        Reach(pc.missile_range, {"range_ft": "Range (ft)"},
              {"base_range": "the shooter's row", "thrown_pb_zone_die": "not needed to "
               "tell Direct from Volley", "wet": "not needed to tell Direct from Volley",
               "charge_ft": "not needed to tell Direct from Volley"}))

    def __init__(self) -> None:
        self.range_ft = int_field("Range (ft)", 20, 0, 100_000, style=STYLE, layout=WIDE)
        self.moves = _dropdown("Target is", MOVES)
        self.near = int_field("Others near the target", 0, 0, 60, style=STYLE, layout=WIDE)
        # the roster fighters among those near, numbered in the menu's order for a stray or
        # potential strike, so the one it finds takes the injury into their own record
        self.bystanders = w.SelectMultiple(description=BYSTANDERS, rows=3, style=STYLE,
                                           layout=WIDE)
        self._build("A missile shot", "Shooter", "Target",
                    [self.range_ft, self.moves, self.near, self.bystanders],
                    "rulebook-pc-fight-missile")

    def _changed(self, change: dict) -> None:
        if not getattr(self, "_quiet", False) and hasattr(self, "page"):
            if change["owner"] in (self.first, self.second):
                self._offer_bystanders()
            elif change["owner"] is self.bystanders and \
                    self.near.value < len(self.bystanders.value):
                self._quiet = True  # each one named near counts among the others near
                try:
                    self.near.value = len(self.bystanders.value)
                finally:
                    self._quiet = False
        super()._changed(change)

    def render(self) -> None:
        super().render()
        self._offer_bystanders()

    def _offer_bystanders(self) -> None:
        """Offer the living roster fighters other than the shooter and the target, keeping
        those still named."""
        fight = self.fight
        names = tuple(c.name for c in fight.combatants if not c.dead
                      and c.name not in (self.first.value, self.second.value))
        names = tuple(n for n in self.page.roster.names() if n in names)
        kept = tuple(n for n in self.bystanders.value if n in names)
        if tuple(self.bystanders.options) != names or kept != tuple(self.bystanders.value):
            self._quiet = True
            try:
                self.bystanders.options = names
                self.bystanders.value = kept
            finally:
                self._quiet = False
        set_shown(self.bystanders, bool(names))  # an empty menu only when nobody else fights

    def call(self, dice) -> pc.Strike:
        return pc.missile_attack(
            self.fight, self.page.roster.fighter(self.first.value),
            self.page.roster.fighter(self.second.value), range_ft=self.range_ft.value,
            target_moves=self.moves.value, aim_zone=self.aim.value,
            advantage=self.advantage.value, zone_pick=self.zone_pick.value - 1,
            near_target=self.near.value,
            bystanders=tuple(self.page.roster.fighter(n) for n in self.bystanders.value),
            dice=dice)

    def before(self, shooter, target) -> pc.StrikeOdds:
        return pc.missile_odds(self.fight, shooter, target, range_ft=self.range_ft.value,
                               target_moves=self.moves.value, near_target=self.near.value)

    @staticmethod
    def name(key: tuple[str, int]) -> str:
        return SHOT_RESULTS.get(key, f"{key[0]}, {key[1]} star(s)")

    def describe(self, shooter, target) -> str:
        skill = {"bow": "Archery", "crossbow": "Archery", "sling": "Slings"}.get(
            shooter["missile"], "Throwing")
        named = self.bystanders.value
        first = 2 if pc.missile_range(self.range_ft.value, shooter["base_range"]).volley \
            else 1
        numbers = (" Numbered for a stray or potential strike: " + ", ".join(
            f"{i} {html.escape(n)}" for i, n in enumerate(named, start=first))
            + (", then the others." if self.near.value > len(named) else ".")) if named else ""
        aspect = shooter["missile_aspect"]
        armour = ", ".join(f"{z} {target[f'av_{z.lower()}_{aspect.lower()}']}"
                           for z in ("Head", "Arms", "Torso", "Legs"))
        return (f"<small>From the roster: {html.escape(shooter.name)}'s "
                f"{html.escape(shooter['missile'])}, {skill} {shooter[skill.lower()]}, Base "
                f"Range {shooter['base_range']} ft, impact {shooter['missile_die']}"
                f"{shooter['missile_mod']:+d}{aspect}; {html.escape(target.name)}'s armour "
                f"against {aspect}: {armour}; Shock {target['shock']}. Others near the "
                "target: within 5 ft of a Direct shot, or in a Volley's 15-ft area "
                f"(the target itself is number 1 there).{numbers}</small>")


def _setup_why(side: str) -> w.HTML:
    """The note beside *side*'s Setup field saying why it is greyed."""
    note = w.HTML(layout=shared_layout(max_width="16em"))
    note.add_class(f"rulebook-pc-{side}-setup-why")
    return note


def _grey_setup(field: w.Widget, note: w.HTML, why: str | None, side: str) -> None:
    """Grey one side's Setup field with the engine's reason (*why*) in its *note* while that
    side makes no test for it to lift; enable it, the note empty, once they do."""
    field.disabled = why is not None
    field.tooltip = (f"Not used: {why}" if why else
                     f"Setup advantages the {side} took within the last round")
    note.value = ("" if why is None else
                  f"<small style='color:{FAINT};line-height:1.3;display:block;"
                  f"margin-left:.5em'>Not used: {html.escape(why)}.</small>")


class MeleePanel(_StrikePanel):
    """A melee exchange between two roster fighters: the declared defence, both tests, then
    the injury of whichever blow lands and its Shock roll."""

    verb = "melee"
    dice_name = "exchange"
    reaches = (
        Reach(pc.melee_attack,
              {"attacker": "Attacker", "defender": "Defender", "defence": "Defence",
               "aim_zone": "Aimed zone (ZN)", "advantage": "Tactical advantage",
               "zone_pick": "Use Zone Die number", "helpless": HELPLESS,
               "picked_location": SPOT, "grievous_arm": ARM_RULE, **SETUPS},
              {"fight": THE_FIGHT,
               "dice": "the dice of the Roll the exchange / Exchange dice row"}),
        Reach(pc.apply_strike, {}, {"fight": THE_FIGHT, "row": "the struck fighter's row",
                                    "strike": "the exchange rolled above"}),
        Reach(pc.defence_untested, {"defender": "Defender", "defence": "Defence",
                                    "helpless": HELPLESS, "grievous_arm": ARM_RULE},
              {"fight": THE_FIGHT}),
        Reach(pc.attack_untested, {"attacker": "Attacker", "defender": "Defender",
                                   "helpless": HELPLESS, "grievous_arm": ARM_RULE},
              {"fight": THE_FIGHT}),
        Reach(pc.melee_odds, {"attacker": "Attacker", "defender": "Defender",
                              "defence": "Defence", "aim_zone": "Aimed zone (ZN)",
                              "helpless": HELPLESS, "grievous_arm": ARM_RULE, **SETUPS},
              {"fight": THE_FIGHT}))

    def __init__(self) -> None:
        self.defence = _dropdown("Defence", DEFENCES)
        # Unconscious in the fight: ticked and held (the rules make them helpless); otherwise
        # the GM's call (a bound or sleeping defender)
        self.helpless = w.Checkbox(description=HELPLESS, indent=False,
                                   layout=shared_layout(width="22em"))
        # a round spent concentrating on a helpless defender picks the spot (Injury 1)
        self.line_up = w.Checkbox(description=LINE_UP, indent=False, disabled=True,
                                  layout=shared_layout(width="22em"))
        self.spot = int_field(SPOT, 1, 1, 10, style=STYLE, layout=WIDE)
        self.spot.disabled = True
        # Setup advantages taken within the last round, each lifting that side's test a level
        self.a_setup = int_field(SETUPS["attack_setups"], 0, 0, pc.MAX_SETUPS, style=STYLE,
                                 layout=WIDE)
        self.d_setup = int_field(SETUPS["defence_setups"], 0, 0, pc.MAX_SETUPS, style=STYLE,
                                 layout=WIDE)
        # why a side's Setups have nothing to lift, while its field is greyed
        self.a_setup_why, self.d_setup_why = _setup_why("attacker"), _setup_why("defender")
        self.arm_rule = _dropdown(ARM_RULE, ARM_RULES)
        self.arm_rule.tooltip = ("Which Grievous arm injury makes an attack, Block or "
                                 "Counterstrike an automatic CF: one on the weapon arm (both "
                                 "arms two-handed) or one with no side on the record, or any")
        self._build("A melee exchange", "Attacker", "Defender",
                    [self.defence, self.helpless, self.line_up, self.spot, self.a_setup,
                     self.d_setup, self.arm_rule],
                    "rulebook-pc-fight-melee",
                    beside={self.a_setup: self.a_setup_why, self.d_setup: self.d_setup_why})
        self.advantage.value = "impact"

    def show_filled(self) -> None:
        """The defender's helplessness follows the fight before the odds are shown."""
        attacker, defender = self.first.value, self.second.value
        if attacker is None or defender is None:  # not on a page yet, or nobody to attack
            super().show_filled()
            return
        fight = self.fight
        held = defender in fight.order and fight.combatant(defender).helpless
        self._quiet = True
        try:
            if held:
                self.helpless.value = True
            elif self.helpless.disabled:  # no longer Unconscious: the GM's call again
                self.helpless.value = False
            self.helpless.disabled = held
            self.line_up.disabled = not self.helpless.value
            self.spot.disabled = not (self.helpless.value and self.line_up.value)
            self._show_setup_use(fight, attacker, defender)
            self.helpless.tooltip = (f"{defender} is Unconscious: helpless" if held else
                                     "Tick for a defender who cannot defend at all (bound, "
                                     "asleep): a CS Ignore result, no roll")
        finally:
            self._quiet = False
        super().show_filled()

    def _show_setup_use(self, fight: pc.Fight, attacker: str, defender: str) -> None:
        """Grey each side's Setup field, with the engine's reason beside it, while that side
        makes no test for it to lift; enable it again once they do."""
        try:
            rows = self.page.roster.fighter(attacker), self.page.roster.fighter(defender)
            a_why = pc.attack_untested(fight, *rows, helpless=self.helpless.value,
                                       grievous_arm=self.arm_rule.value)
            d_why = pc.defence_untested(fight, rows[1], defence=self._defence(),
                                        helpless=self.helpless.value,
                                        grievous_arm=self.arm_rule.value)
        except RulesError:  # a fighter not yet in the fight: the odds line says why
            a_why = d_why = None
        _grey_setup(self.a_setup, self.a_setup_why, a_why, "attacker")
        _grey_setup(self.d_setup, self.d_setup_why, d_why, "defender")

    def _defence(self) -> str | None:
        """The defence picked, None for the one on the defender's row."""
        return None if self.defence.value == AS_ROSTER else self.defence.value

    def _setups(self) -> dict[str, int]:
        """Each side's Setup advantages as typed: the engine leaves a defender's unused when
        they make no roll (Ignore, forced or chosen; helpless), and its explanation says so."""
        return {"attack_setups": self.a_setup.value, "defence_setups": self.d_setup.value}

    def call(self, dice) -> pc.Strike:
        return pc.melee_attack(
            self.fight, self.page.roster.fighter(self.first.value),
            self.page.roster.fighter(self.second.value),
            defence=self._defence(), aim_zone=self.aim.value, advantage=self.advantage.value,
            zone_pick=self.zone_pick.value - 1, helpless=self.helpless.value,
            picked_location=self._picked(), grievous_arm=self.arm_rule.value,
            **self._setups(), dice=dice)

    def _picked(self) -> int | None:
        """The location number the attacker picks after a round lining up the blow on a
        helpless defender; None when the dice find the spot."""
        return self.spot.value if self.helpless.value and self.line_up.value else None

    def before(self, attacker, defender) -> pc.StrikeOdds:
        return pc.melee_odds(self.fight, attacker, defender, defence=self._defence(),
                             aim_zone=self.aim.value, helpless=self.helpless.value,
                             grievous_arm=self.arm_rule.value, **self._setups())

    @staticmethod
    def name(key: tuple[str, int]) -> str:
        what, stars = key
        return OUTCOME_NAMES.get(what, what) + (f", {stars} star{'s' if stars > 1 else ''}"
                                                if stars else "")

    @staticmethod
    def describe(attacker, defender) -> str:
        def arms(row) -> str:
            return (f"{html.escape(row['weapon'])} {row['impact_die']}{row['impact_mod']:+d}"
                    f"{row['aspect']}, Zone Die {row['zone_die']}, in the {row['weapon_arm']} "
                    f"hand" + (" and the other" if row["grip"] == "two-handed" else ""))
        return (f"<small>From the roster: {html.escape(attacker.name)}, Melee "
                f"{attacker['melee']}, {arms(attacker)}; {html.escape(defender.name)} "
                f"declares {defender['defence']} (Melee {defender['melee']}, Dodge "
                f"{defender['dodge']}), {arms(defender)}.</small>")


class AfterPanel(_Panel):
    """After the blow: a fighter's Shock roll at the end of their turn (or the Course Roll of
    Extended Shock or a coma), five minutes of a bleeder, and a day of healing."""

    reaches = (Reach(pc.shock_check, {"row": "Fighter", "healer_bonus": "Healer's bonus"},
                     {"fight": THE_FIGHT, "dice": ROLLED}),
               Reach(pc.bleed, {"row": "Fighter", "physician_eml": "Healer's Physician EML",
                                "injury": "Injury", "treated": TREATED},
                     {"fight": THE_FIGHT, "dice": ROLLED}),
               Reach(pc.treat, {"row": "Fighter", "physician_eml": "Healer's Physician EML",
                                "injury": "Injury"},
                     {"fight": THE_FIGHT, "dice": ROLLED}),
               Reach(pc.remove_injury, {"row": "Fighter", "injury": "Injury"},
                     {"fight": THE_FIGHT}),
               Reach(pc.heal_day, {"row": "Fighter"}, {"fight": THE_FIGHT, "dice": ROLLED}))
    ACTIONS = (("Shock roll (or Extended Shock / coma Course Roll)", "shock"),
               ("Five minutes of bleeding", "bleed"),
               ("Treatment Roll (the injury picked)", "treat"),
               ("One day of healing", "heal"))

    def __init__(self) -> None:
        self.who = _dropdown("Fighter")
        self.action = _dropdown("Roll for", self.ACTIONS)
        self.physician = int_field("Healer's Physician EML", 0, 0, 999, style=STYLE,
                                   layout=WIDE)
        self.bonus = int_field("Healer's bonus", 0, 0, 100, style=STYLE, layout=WIDE)
        # how many of the fighter's open bleeders the healer treats in these five minutes
        # (Healing 1: -10 to each Blood Stoppage Roll per treated bleeder beyond one); filled
        # with all of them, and the GM may treat fewer
        self.treated = int_field(TREATED, 1, 1, 99, style=STYLE, layout=WIDE)
        self._bleeders = 0     # the open bleeders the field was last filled with
        self.note = w.HTML(f"<small style='color:{FAINT}'>Physician EML 0: no healer (a "
                           "bleeder goes unstaunched; an injury left untreated heals as a CF "
                           "treatment). Healer's bonus: added to Extended Shock Course Rolls "
                           "(5 a star of the best healer's Physician test).</small>")
        # the fighter's injuries, by place on the record: the one a Treatment Roll or five
        # minutes of bleeding is for, or one to take off the record when it was written there
        # by mistake
        self.injury = w.Dropdown(description="Injury", style=STYLE,
                                 layout=shared_layout(width="32em"))
        self.remove_button = button("Remove this injury",
                                    "Take the injury picked off the fighter's record (one "
                                    "written there by mistake)")
        self.entry = DiceEntry("the d100s, in order")
        self.error = ErrorLine()
        self.result = w.HTML()
        self.explanation = ExplanationView()
        super().__init__([section("Shock, bleeding, treatment and healing",
                                  w.HBox([w.VBox([self.who, self.action]),
                                          w.VBox([self.physician, self.bonus,
                                                  self.treated])]),
                                  w.HBox([self.injury, self.remove_button],
                                         layout=shared_layout(align_items="center")),
                                  self.note, self.entry, self.error, self.result,
                                  self.explanation)], "rulebook-pc-fight-after")
        self.entry.on_request(self.roll)
        self.who.observe(lambda _: self._offer_injuries(), "value")
        self.action.observe(lambda _: self._pick_bleeder(), "value")
        for field in (self.action, self.physician):
            field.observe(lambda _: self._show_treated(), "value")
        self._show_treated()
        self.remove_button.on_click(lambda _: self.remove())

    def render(self) -> None:
        fight = self.fight
        shaken = [c.name for c in fight.combatants if c.shock and not c.dead]
        if shaken and self.who.value not in shaken:
            self.who.value = None  # offer the one in a Shock state first
        _names(self.who, self.page.roster.names(), shaken[0] if shaken else None)
        self._offer_injuries()

    def _offer_injuries(self) -> None:
        """The chosen fighter's injuries, each with its place on the record; the first
        untreated one is picked (the one a Treatment Roll takes by default)."""
        try:
            record = self.fight.combatant(self.who.value or "").record
        except RulesError:
            record = None
        injuries = record.injuries if record is not None else ()
        options = tuple((f"{i}. {inj.code} {inj.where.lower()}" + _marks(inj), i - 1)
                        for i, inj in enumerate(injuries, start=1))
        first = next((i for i, inj in enumerate(injuries) if inj.level and inj.hr is None),
                     None)
        same = tuple(self.injury.options) == options
        # a pick stays while the record does, or while it is still to be treated
        kept = any(v == self.injury.value for _, v in options) and (
            same or injuries[self.injury.value].hr is None)
        keep = self.injury.value if kept else first
        if not same:
            self.injury.options = options
        self.injury.value = keep if keep is not None else (options[0][1] if options else None)
        self.remove_button.disabled = not options
        self._pick_bleeder()

    def _pick_bleeder(self) -> None:
        """Five minutes of bleeding are a Bleeder's: the first one is picked, unless the
        injury picked already bleeds."""
        if self.action.value != "bleed":
            return
        try:
            record = self.fight.combatant(self.who.value or "").record
        except RulesError:
            return
        bleeding = record.open_bleeders
        if bleeding and self.injury.value not in bleeding:
            self.injury.value = bleeding[0]
        if len(bleeding) != self._bleeders:
            self._bleeders = len(bleeding)    # a new count refills the field; a GM's stays
            self.treated.value = max(1, len(bleeding))

    def _show_treated(self) -> None:
        """Bleeders treated together: only for a healer's five minutes of bleeding."""
        set_shown(self.treated, self.action.value == "bleed" and self.physician.value > 0)

    @answers(line="error")
    def remove(self) -> None:
        """Take the injury picked off the chosen fighter's record."""
        row = self.page.roster.fighter(self.who.value or "")
        if self.injury.value is None:
            raise RulesError(f"Injury: {row.name}'s record holds no injury")
        done = pc.remove_injury(self.fight, row, self.injury.value)
        self.result.value = (f"<div class='rulebook-pc-fight-after-result' "
                             f"style='font-weight:600'>{html.escape(done.outcome)}</div>")
        self.explanation.show(done.trace)
        self.page.apply(done.outcome, state=done.fight)

    def _call(self, row, dice, action: str, injury: int | None = None,
              treated: int | None = None) -> pc.FightStep:
        if action == "shock":
            return pc.shock_check(self.fight, row, healer_bonus=self.bonus.value, dice=dice)
        if action == "bleed":
            return pc.bleed(self.fight, row, physician_eml=self.physician.value or None,
                            injury=injury, treated=treated, dice=dice)
        if action == "treat":
            return pc.treat(self.fight, row, physician_eml=self.physician.value or None,
                            injury=injury, dice=dice)
        return pc.heal_day(self.fight, row, dice=dice)

    def roll(self, request: RollRequest, action: str | None = None,
             who: str | None = None, injury: int | None = None,
             treated: int | None = None) -> None:
        """Roll for the chosen fighter and action (a replay from the log keeps its own, the
        injury its Treatment Roll or bleeding was for and the bleeders treated with it)."""
        replay = action is not None
        action, who = action or self.action.value, who or self.who.value
        if not replay and action in ("treat", "bleed"):
            injury = self.injury.value
        if not replay and action == "bleed" and self.physician.value:
            treated = self.treated.value
        self.error.clear()
        try:
            row = self.page.roster.fighter(who or "")
            done = self._call(row, request.dice, action, injury, treated)
        except RulesError as exc:
            self.entry.error.show(str(exc))
            return
        self.result.value = (f"<div class='rulebook-pc-fight-after-result' "
                             f"style='font-weight:600'>{html.escape(done.outcome)}</div>")
        self.explanation.show(done.trace)
        what = dict((v, k) for k, v in self.ACTIONS)[action]
        self.roll_log.add(f"{what}: {row.name}", request, done.outcome,
                          lambda again: self.roll(again, action, row.name, injury, treated))
        self.page.apply(f"{what.lower()}: {done.outcome}", state=done.fight)


PANELS = (("missile", "Missile shot", "A shot from one roster fighter at another"),
          ("melee", "Melee exchange", "A melee exchange between two roster fighters"),
          ("after", "Shock and healing",
           "A Shock roll, five minutes of bleeding, a Treatment Roll or a day of healing"))
"""The panels a GM opens on the page: (attribute, button, what it holds)."""


class PercentileFight(FightPage):
    """The whole page: roster, turn order, and the missile shot, melee exchange and Shock and
    healing panels, each built the first time the GM opens it (a panel unopened costs the
    page nothing to show)."""

    reaches = ()  # the page makes no engine call of its own: its panels do

    def __init__(self) -> None:
        self.turns = TurnOrder()
        self._built: dict[str, _Panel] = {}
        self.openers = {key: w.ToggleButton(description=label, tooltip=f"Show or hide: {tip}",
                                             layout=shared_layout(width="auto"))
                        for key, label, tip in PANELS}
        self.opener_row = w.HBox([w.HTML("<b>Open:</b>&ensp;"), *self.openers.values()],
                                 layout=shared_layout(align_items="center"))
        super().__init__(pc.ROSTER, pc.Fight(), save=lambda f: f.to_json(),
                         load=pc.Fight.from_json, panels=[self.turns, self.opener_row],
                         title="Running a percentile fight", starter=starter(),
                         rename=lambda fight, old, new: fight.rename(old, new))
        self.turns.attach(self)
        for key, opener in self.openers.items():
            opener.observe(lambda change, key=key: self.show_panel(key, change["new"]),
                           "value")

    def panel(self, key: str) -> _Panel:
        """The panel *key* ("missile", "melee" or "after"), built and attached on first use."""
        if key not in self._built:
            made = {"missile": MissilePanel, "melee": MeleePanel, "after": AfterPanel}[key]()
            made.attach(self)
            self._built[key] = made
            order = [k for k, _, _ in PANELS if k in self._built]
            at = list(self.children).index(self.opener_row) + 1
            shown = [c for c in self.children if c not in self._built.values()]
            self.children = (shown[:at] + [self._built[k] for k in order] + shown[at:])
            self.openers[key].value = True
        return self._built[key]

    def show_panel(self, key: str, shown: bool = True) -> None:
        """Open (build on first use) or fold the panel *key*; its button follows."""
        if shown or key in self._built:
            set_shown(self.panel(key), shown)
        if self.openers[key].value != shown:
            self.openers[key].value = shown

    @property
    def missile(self) -> MissilePanel:
        return self.panel("missile")  # type: ignore[return-value]

    @property
    def melee(self) -> MeleePanel:
        return self.panel("melee")  # type: ignore[return-value]

    @property
    def after(self) -> AfterPanel:
        return self.panel("after")  # type: ignore[return-value]


def fight_page() -> PercentileFight:
    """The one-line notebook call: ``from widgets.percentile_fight import fight_page;
    fight_page()``."""
    return PercentileFight()
