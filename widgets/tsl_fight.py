"""Running a TSL fight on one page: the roster, the GM's turn board with each fighter's Stress
pools, armour and weapon, and the attack resolver beside it, filled from the two fighters' rows;
one press writes the result to the fight (DESIGN.md §5 Widgets, "At the table"; primer §11).

The page is a :class:`widgets.fight.FightPage` over :class:`rulescore.systems.tsl.Fight`: the
page keeps the roster, the fight, undo/redo and the roll log; :class:`FightPanel` reads
``page.roster`` and ``page.state`` and makes one ``page.apply`` per result.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any, ClassVar

import ipywidgets as w

from rulescore.errors import RulesError
from rulescore.roster import Roster
from rulescore.systems import tsl
from rulescore.systems.tsl.fight import (
    GEAR,
    Fight,
    gear_rarity,
    row_weapon,
    weapon_attack,
)
from rulescore.systems.tsl.rolls import DICE

from .common import (
    ROLLED,
    DiceEntry,
    ErrorLine,
    ExplanationView,
    Reach,
    RollRequest,
    Tool,
    answers,
    button,
    chance_html,
    int_field,
    odds_line,
    section,
)
from .fight import FightPage, OnThePage
from .lean import set_shown, shared_layout
from .theme import ERROR, FAINT, SUCCESS
from .tsl import (
    BAND_COLOURS,
    SHIFTS,
    TABLE_STYLE,
    against_words,
    attack_extras,
    attack_said,
    band_odds_html,
)

STYLE = {"description_width": "9em"}
FROM_ROWS = "from the two fighters' roster rows and the fight (Fight.attack_inputs)"
RULINGS = "the rulings as the rulings chapter states them (the attack resolver switches them)"
RARITY = {what: f"{what.capitalize()} rarity" for what in GEAR}
"""The label of the repair's rarity menu of each piece of gear (§11 Ammunition)."""
IRREPLACEABLE = {what: f"{what.capitalize()} irreplaceable" for what in GEAR}
"""The label of each piece of gear's own Irreplaceable box: like its rarity, whether it can be
replaced belongs to the item mended (§11 Ammunition, ruling ``tsl:lost_gear``)."""
_IRREPLACEABLE_TIP = ("Tick when this fighter's {what} cannot be replaced: its repair loses it "
                      "for good, with no roll. Cleared when another fighter is picked.")
# Repair armour reads the Armour rarity and Armour irreplaceable, Repair weapon the Weapon's.
REPAIR_REACHES = tuple(
    reach for what in GEAR for reach in (
        Reach(tsl.repair_plan, {"rarity": RARITY[what], "irreplaceable": IRREPLACEABLE[what],
                                "tier": "Repairer's Hand tier"},
              {"shift": "no shift on this page", "bands": RULINGS, "tier_limits": RULINGS}),
        Reach(tsl.repair, {"rarity": RARITY[what], "irreplaceable": IRREPLACEABLE[what],
                           "tier": "Repairer's Hand tier"},
              {"dice": "the Roll the repair / Repair dice row",
               "shift": "no shift on this page", "bands": RULINGS, "tier_limits": RULINGS})))


@dataclass(frozen=True)
class Mending:
    """Everything one repair is made with, as the reader set it when it was made: a Replay in
    the roll log repeats this repair, whatever the menus hold by then (§11 Ammunition)."""

    who: str
    what: str
    rarity: str
    irreplaceable: bool
    tier: str

    def plan(self) -> tsl.RepairPlan:
        """What this repair takes: a roll or none, its dice, odds and sentence (one rules
        call; this page rolls with no shift, on the rulings as the chapter states them)."""
        return tsl.repair_plan(self.rarity, irreplaceable=self.irreplaceable, tier=self.tier)


DEFENDS = [("actively: an opposed roll", True), ("not defending: a T-number", False)]


def _menu(label: str, options: Any, value: Any = None, width: str = "19em") -> w.Dropdown:
    return w.Dropdown(options=options, value=value, description=label, style=STYLE,
                      layout=shared_layout(width=width))


def _pool_cell(kit: tsl.Kit, pool: str) -> str:
    p = kit.pools
    colour = ERROR if p.broken(pool) else ("inherit" if p.stress(pool) == 0 else "#b26a00")
    return (f"<td class='{pool.lower()}' style='color:{colour}'>"
            f"{p.stress(pool)} / {p.size(pool)}</td>")


def board_html(fight: Fight, roster: Roster) -> str:
    """One row per fighter in the GM's order: what they have used this turn, their three pools
    (Stress marked / size), armour, weapon and ammunition, and whether they have Broken."""
    enc = fight.encounter
    if enc is None:
        return ("<i>The fight has not started: enter the fighters in the roster, then press "
                "<b>Start the fight</b>.</i>")
    rows = []
    for name in enc.order:
        kit, st = fight.of(name), enc.state(name)
        used = "".join(f"<td style='color:{FAINT}'>used</td>" if st.used(p) else "<td>ready</td>"
                       for p in ("action", "movement", "reaction"))
        gear = []
        row = roster.fighter(name) if name in roster.names() else None
        if "armour" in kit.lost:
            gear.append("armour lost for good")
        elif row is not None and row["armour"]:
            gear.append("armour spent" if kit.armour_spent else "armour")
        if "weapon" in kit.lost:
            gear.append("weapon lost for good")
        elif kit.weapon_broken:
            gear.append("weapon broken")
        if kit.uses is not None:
            gear.append(f"{kit.uses} uses")
        state = (f"<td class='state' style='color:{ERROR};font-weight:600'>Broken</td>"
                 if kit.broken else f"<td class='state' style='color:{SUCCESS}'>in the fight</td>")
        mark = "▶ " if name == enc.acting else ""
        style = " style='font-weight:700;background:#eef5ee'" if name == enc.acting else ""
        rows.append(f"<tr data-fighter='{html.escape(name)}'{style}><td>{mark}"
                    f"{html.escape(name)}</td>{used}"
                    + "".join(_pool_cell(kit, p) for p in tsl.POOLS)
                    + f"<td class='gear'>{html.escape(', '.join(gear))}</td>{state}</tr>")
    return (f"<p class='rulebook-tsl-acting'><b>Round {enc.round}</b>: "
            f"{html.escape(enc.acting)} is acting</p>" + TABLE_STYLE +
            "<table class='rulebook-tsl-table rulebook-tsl-fight-board'><thead><tr>"
            "<th>Fighter</th><th>Action</th><th>Movement</th><th>Reaction</th><th>Body</th>"
            "<th>Mind</th><th>Spirit</th><th>Gear</th><th>State</th></tr></thead><tbody>"
            + "".join(rows) + "</tbody></table>")


class FightPanel(OnThePage, Tool):
    """The turn board with each fighter's pools and gear, the attack beside it, its application,
    and the GM's moves (spend, repair, restock, set Stress); everything goes through the page."""

    _SELF: ClassVar[dict[str, str]] = {"self": "the page's fight"}
    _FIXED: ClassVar[dict[str, str]] = {name: FROM_ROWS for name in (
        "tier", "target", "defender_tier", "weapon", "distance", "shift", "defender_shift",
        "impact", "armour", "attack_type", "uses", "target_pools")} | {
        name: RULINGS for name in ("bands", "tier_limits", "order", "out_of_zone",
                                   "bump_misses")}
    _WHAT: ClassVar[str] = "the button pressed: Repair armour or Repair weapon"
    _NO_SNARE: ClassVar[str] = ("the fight page keeps no zones: the attack resolver's chapter "
                                "pulls or pins")
    reaches = (
        Reach(Fight.start, {}, {**_SELF, "rows": "the roster's fighters, in the roster's order"}),
        Reach(Fight.join, {}, {**_SELF, "row": "each roster fighter not in the fight yet"}),
        Reach(Fight.next_turn, {}, _SELF),
        Reach(Fight.take, {"who": "Fighter", "option": "Spend", "ally_zone": "Ally's zone"},
              _SELF),
        Reach(Fight.attack_inputs, {
            "attacker": "Attacker", "target": "Target", "attack_type": "Attack type",
            "distance": "Distance", "opposed": "Target defends", "target_number": "T-number",
            "armour_fits": "Target's armour is built for this blow",
            "impact": "An Impact tag's condition holds", "shift": "Attacker's tier shifts",
            "defender_shift": "Defender's tier shifts"}, _SELF),
        Reach(tsl.attack_odds, {}, {**_FIXED, "snaring": _NO_SNARE}),
        Reach(tsl.attack, {}, {**_FIXED, "dice": ROLLED,
                               "defender_dice": "drawn from the dice after the attacker's five",
                               "snaring": _NO_SNARE}),
        Reach(Fight.apply, {}, {**_SELF, "attacker": "the attack's Attacker",
                                "target": "the attack's Target",
                                "result": "the attack rolled above"}),
        Reach(Fight.check_repair, {"name": "Fighter"}, {**_SELF, "what": _WHAT}),
        *REPAIR_REACHES,
        Reach(Fight.repair, {"name": "Fighter"}, {
            **_SELF, "what": _WHAT,
            "result": "the repair resolved for the Armour rarity or Weapon rarity above"}),
        Reach(Fight.restock, {"name": "Fighter"}, {**_SELF, "row": "the fighter's roster row"}),
        Reach(Fight.set_stress, {"name": "Fighter", "pool": "Pool", "stress": "Stress"},
              _SELF),
    )

    def __init__(self) -> None:
        self.page: FightPage | None = None
        self._pending: tuple[str, str, tsl.Attack] | None = None
        self._quiet = False
        self._refused = False   # the setup's refusal shows on the error line above
        self._chosen: str | None = None
        self.error = ErrorLine()
        self.board = w.HTML()
        self.start_button = button("Start the fight", "Every roster fighter, in the roster's "
                                   "order (the GM's call)", primary=True)
        self.join_button = button("Bring in the new fighters",
                                  "Roster fighters not in the fight join at the end of the order")
        self.next_button = button("Next turn", "Pass to the next fighter in the order",
                                  primary=True)
        # the attack
        self.attacker = _menu("Attacker", [])
        self.target = _menu("Target", [])
        self.opposed = _menu("Target defends", DEFENDS, True)
        self.target_number = int_field("T-number", 11, 1, 40, style=STYLE,
                                       layout=shared_layout(width="14em"))
        self.attack_type = _menu("Attack type", tsl.attack_types(), "Melee weapon")
        self.distance = _menu("Distance", tsl.ZONES, "Engaged")
        self.shift = _menu("Attacker's tier shifts", SHIFTS, 0, width="14em")
        self.defender_shift = _menu("Defender's tier shifts", SHIFTS, 0, width="14em")
        self.armour = w.Checkbox(value=False, indent=False,
                                 description="Target's armour is built for this blow",
                                 layout=shared_layout(width="auto"))
        self.impact = w.Checkbox(value=False, indent=False,
                                 description="An Impact tag's condition holds",
                                 layout=shared_layout(width="auto"))
        self.odds = w.HTML()
        self.entry = DiceEntry("the attacker's 5 faces, then the defender's 5")
        self.entry.add_class("rulebook-tsl-fight-attack")
        self.result = w.HTML()
        self.apply_button = button("Apply to the target", "Write this result to the fight",
                                   primary=True)
        self.explanation = ExplanationView()
        # the GM's moves
        self.who = _menu("Fighter", [])
        self.option = _menu("Spend", tsl.turn_options(), "Movement")
        self.ally_zone = _menu("Ally's zone", tsl.ZONES, "Engaged", width="14em")
        self.spend_button = button("Spend", "Mark this part of the turn as used")
        self.repair_armour = button("Repair armour", "The fighter's spent armour is mended")
        self.repair_weapon = button("Repair weapon", "The fighter's broken weapon is mended")
        self.restock_button = button("Restock", "Ammunition back to the zone's starting uses")
        # a repair asks how the gear is mended (§11 Ammunition): its rarity, each piece's
        # from its own roster column; only rarer gear asks for the Hand roll's dice
        self.rarity = {what: _menu(label, tsl.RARITIES, "Issued", width="16em")
                       for what, label in RARITY.items()}
        self.irreplaceable = {what: w.Checkbox(value=False, indent=False, description=label,
                                               tooltip=_IRREPLACEABLE_TIP.format(what=what),
                                               layout=shared_layout(width="auto"))
                              for what, label in IRREPLACEABLE.items()}
        self.repair_tier = _menu("Repairer's Hand tier", tsl.TIERS, "Trained", width="19em")
        self.repair_entry = DiceEntry(f"{DICE} faces of the Hand roll, e.g. 6, 5, 1, 1, 1",
                                      name="repair")
        self.repair_error = ErrorLine()   # beside the repair, above the roll log's Replay
        self.repair_note = w.HTML()
        self.repair_result = w.HTML()
        self.repair_explanation = ExplanationView()
        self.repair_explanation.add_class("rulebook-tsl-repair-steps")
        self._repairing: tuple[str, str] | None = None
        self._holding = False   # the menus are being set to a repair's own values
        self.pool = _menu("Pool", tsl.POOLS, "Body", width="14em")
        # wide enough beside its 9em label for two digits and the number box's arrows
        self.stress = int_field("Stress", 0, 0, 40, style=STYLE,
                                layout=shared_layout(width="14em"))
        self.stress_button = button("Set Stress", "Stress taken off, or marked by another rule")
        inputs = w.VBox([self.attacker, self.target, self.opposed, self.target_number,
                         self.attack_type, self.distance, w.HBox([self.shift,
                                                                  self.defender_shift]),
                         self.armour, self.impact, self.entry, self.result,
                         self.apply_button], layout=shared_layout(width="31em"))
        # the odds beside the inputs, so the attack and its result are on one screen
        outcome = w.VBox([self.odds], layout=shared_layout(flex="1 1 24em", min_width="22em"))
        super().__init__([
            self.board,
            w.HBox([self.start_button, self.join_button, self.next_button]),
            self.error,
            section("Attack", w.HBox([inputs, outcome],
                                     layout=shared_layout(flex_flow="row wrap")),
                    self.explanation),
            section("Other moves", w.HBox([self.who, self.option, self.ally_zone,
                                           self.spend_button]),
                    w.HBox([self.pool, self.stress, self.stress_button])),
            section("Repair", self._repair_box()),
        ], "rulebook-tsl-fight")
        self.start_button.on_click(lambda _: self._start())
        self.join_button.on_click(lambda _: self._join())
        self.next_button.on_click(lambda _: self._next())
        self.entry.on_request(self._attack)
        self.apply_button.on_click(lambda _: self._apply())
        self.spend_button.on_click(lambda _: self._spend())
        self.repair_armour.on_click(lambda _: self._repair("armour"))
        self.repair_weapon.on_click(lambda _: self._repair("weapon"))
        self.restock_button.on_click(lambda _: self._restock())
        self.repair_entry.on_request(self._repair_roll)
        self.who.observe(lambda _: self._repair_defaults(), "value")
        for field in (*self.rarity.values(), *self.irreplaceable.values()):
            field.observe(lambda _: self._repair_reset(), "value")
        self.repair_tier.observe(lambda _: self._tier_changed(), "value")
        set_shown(self.repair_entry, False)
        self.stress_button.on_click(lambda _: self._set_stress())
        for box in (self.attacker, self.target, self.opposed, self.target_number,
                    self.attack_type, self.distance, self.shift, self.defender_shift,
                    self.armour, self.impact):
            box.observe(lambda _: self._inputs_changed(), "value")
        self._render(Roster(tsl.ROSTER), Fight())

    def _repair_box(self) -> w.HBox:
        """The repair's fields (for the Fighter above), its Hand roll and result beside them,
        so the fields and the result are on one screen (§11 Ammunition)."""
        row = shared_layout(align_items="center")
        fields = w.VBox([
            w.HBox([self.rarity["armour"], self.irreplaceable["armour"], self.repair_armour],
                   layout=row),
            w.HBox([self.rarity["weapon"], self.irreplaceable["weapon"], self.repair_weapon,
                    self.restock_button], layout=row),
            self.repair_tier], layout=shared_layout(width="36em"))
        outcome = w.VBox([self.repair_error, self.repair_note, self.repair_entry,
                          self.repair_result, self.repair_explanation],
                         layout=shared_layout(flex="1 1 24em", min_width="22em"))
        return w.HBox([fields, outcome], layout=shared_layout(flex_flow="row wrap"))

    # --- the page -----------------------------------------------------------------------------

    def render(self) -> None:
        self._render(self._page().roster, self.fight)

    @staticmethod
    def _picked(name: str | None, label: str) -> str:
        """The fighter picked in the menu *label*; a reader's message while it is empty."""
        if not name:
            raise RulesError(f"{label} is empty: start the fight first")
        return name

    def _row(self, name: str | None, label: str) -> Any:
        return self.page.roster.fighter(self._picked(name, label))

    # --- the board ----------------------------------------------------------------------------

    @answers()
    def _start(self) -> None:
        self._push(self.fight.start(list(self.page.roster.fighters)))

    @answers()
    def _join(self) -> None:
        fight, lines = self.fight, []
        for row in self._newcomers():
            move = fight.join(row)
            fight, lines = move.fight, lines + [move.line]
        if not lines:
            raise RulesError("everyone in the roster is in the fight already")
        self._push(tsl.FightMove(fight, "; ".join(lines)))

    def _newcomers(self) -> list[Any]:
        enc = self.page.state.encounter if self.page else None
        if enc is None:
            return []
        return [r for r in self.page.roster.fighters if r.name not in enc.order]

    @answers()
    def _next(self) -> None:
        self._push(self.fight.next_turn())

    @answers()
    def _spend(self) -> None:
        who = self._picked(self.who.value, "Fighter")
        self._push(self.fight.take(who, self.option.value, ally_zone=self.ally_zone.value))

    def _repair_defaults(self) -> None:
        """A fighter picked brings their armour's and their weapon's rarity and their Hand tier
        from the roster (the GM changes any of them for gear swapped in the fiction, or a
        specialist who mends it). Neither the roster nor the fight says whether a piece of gear
        is irreplaceable, so both Irreplaceable boxes are cleared: one ticked for the fighter
        picked before would lose this fighter's gear (ruling ``tsl:lost_gear``)."""
        for box in self.irreplaceable.values():
            box.value = False
        if self.page is None or not self.who.value or \
                self.who.value not in self.page.roster.names():
            self._repair_reset()
            return
        row = self.page.roster.fighter(self.who.value)
        for what, menu in self.rarity.items():
            menu.value = gear_rarity(row, what)
        self.repair_tier.value = row["tier_hand"]
        self._repair_reset()

    def _repair_reset(self) -> None:
        """A changed repair field puts away a Hand roll asked for under the old one."""
        if self._holding:
            return
        self._repairing = None
        set_shown(self.repair_entry, False)
        self.repair_note.value = self.repair_result.value = ""
        self.repair_explanation.clear()
        self.repair_entry.error.clear()

    def _mending(self, who: str, what: str) -> Mending:
        """The repair of *who*'s *what* as the repair's menus set it now."""
        return Mending(who, what, self.rarity[what].value, self.irreplaceable[what].value,
                       self.repair_tier.value)

    @answers(line="repair_error")
    def _repair(self, what: str) -> None:
        """Mend *what*: gear its rarity mends with no roll (Issued, or irreplaceable) is
        answered at once; rarer gear asks for the Hand roll's dice first, its odds shown."""
        self._repair_reset()
        who = self._picked(self.who.value, "Fighter")
        self.fight.check_repair(who, what)
        mending = self._mending(who, what)
        plan = mending.plan()
        if plan.done is not None:
            self._repaired(mending, self.fight.repair(who, what, plan.done))
            return
        self._repairing = (who, what)
        self._ask(mending, plan)
        set_shown(self.repair_entry, True)

    def _ask(self, mending: Mending, plan: tsl.RepairPlan) -> None:
        """What the Hand roll is and its exact chance to mend for the repairer's tier, before
        the dice (§11 Ammunition, ruling ``tsl:repair_roll``), as *plan* says."""
        self.repair_note.value = (
            f"<small class='rulebook-tsl-repair-ask'>{html.escape(mending.rarity)} gear, "
            f"{html.escape(mending.who)}'s {mending.what}. {html.escape(plan.said)} Roll, or "
            f"type the {plan.dice} faces.</small>"
            + odds_line("rulebook-tsl-repair-odds",
                        f"Chance to mend it ({html.escape(mending.tier)} Hand): "
                        f"{chance_html(plan.odds, strong=True)}"))

    def _tier_changed(self) -> None:
        """A new Hand tier changes the odds of the roll asked for, not the repair itself."""
        if self._repairing is not None and not self._holding:
            mending = self._mending(*self._repairing)
            self._ask(mending, mending.plan())

    @answers(line="repair_entry.error")
    def _repair_roll(self, request: RollRequest) -> None:
        """The Hand roll of a rarer item's repair, with the repair's menus as they are."""
        if self._repairing is None:
            raise RulesError("press Repair armour or Repair weapon first")
        self._mend(self._mending(*self._repairing), request)

    @answers(line="repair_error")
    def _replay_repair(self, mending: Mending, request: RollRequest) -> None:
        """The roll log's Replay: the same repair of the same gear with the same dice, its
        refusal (the gear whole again, or lost) said beside the repair."""
        self._repair_reset()
        self._mend(mending, request)

    def _mend(self, mending: Mending, request: RollRequest) -> None:
        """The Hand roll (one rules call) and its result applied; the roll log keeps the whole
        repair for its Replay."""
        need = mending.plan().dice
        request.expect_typed(need, f"{need} faces")
        who, what = mending.who, mending.what
        done = tsl.repair(mending.rarity, irreplaceable=mending.irreplaceable,
                          dice=request.dice, tier=mending.tier)
        move = self.fight.repair(who, what, done)
        self.page.rolls.add(f"{who} mends the {what}", request, move.line,
                            lambda r: self._replay_repair(mending, r.fresh()))
        self._repaired(mending, move)

    def _repaired(self, mending: Mending, move: tsl.FightMove) -> None:
        """Show the repair's line and its explanation beside the repair, and apply it (a
        failed repair changes nothing); the repair's menus show what it was made with."""
        if move.fight is not self.fight:
            self._push(move)      # the page redraws, its menus refilled: the line comes after
            self.explanation.clear()   # the repair explains itself beside its own result
        # the redraw puts the acting fighter in the Fighter menu: the repaired fighter goes
        # back in, so the result stands beside their own gear's rarities (a replay's own)
        self.who.value = mending.who
        self._repairing = None
        self._holding = True
        try:
            self.rarity[mending.what].value = mending.rarity
            self.irreplaceable[mending.what].value = mending.irreplaceable
            self.repair_tier.value = mending.tier
        finally:
            self._holding = False
        set_shown(self.repair_entry, False)
        self.repair_note.value = ""
        self.repair_result.value = (f"<b class='rulebook-tsl-repair-said'>"
                                    f"{html.escape(move.line)}</b>")
        self.repair_explanation.show(move.trace)

    @answers(line="repair_error")
    def _restock(self) -> None:
        self._push(self.fight.restock(self.who.value, self._row(self.who.value, "Fighter")))

    @answers()
    def _set_stress(self) -> None:
        self._push(self.fight.set_stress(self._picked(self.who.value, "Fighter"),
                                         self.pool.value, self.stress.value))

    # --- the attack ---------------------------------------------------------------------------

    def _setup(self) -> dict[str, Any]:
        me = self._row(self.attacker.value, "Attacker")
        them = self._row(self.target.value, "Target")
        return self.fight.attack_inputs(
            me, them, attack_type=self.attack_type.value, distance=self.distance.value,
            opposed=self.opposed.value, target_number=self.target_number.value,
            armour_fits=self.armour.value, impact=self.impact.value, shift=self.shift.value,
            defender_shift=self.defender_shift.value)

    def _follow_attacker(self) -> None:
        """A new attacker brings their weapon's kind of attack and the nearest zone it fights
        at without penalty (the GM changes either when the fiction says otherwise)."""
        name = self.attacker.value
        if name == self._chosen or not name or self.page is None:
            return
        self._chosen = name
        weapon = row_weapon(self.page.roster.fighter(name))
        self.attack_type.value = "Melee weapon" if weapon is None else weapon_attack(weapon.zone)
        self.distance.value = "Engaged" if weapon is None else tsl.fights_at(weapon)[0]

    @answers("odds")
    def _inputs_changed(self) -> None:
        if self._quiet:
            return
        self._pending = None
        self._refused = False
        self.result.value = ""
        self.entry.error.clear()   # a roll's refusal belongs to the setup just changed
        self.apply_button.disabled = True
        self._quiet = True
        try:
            self._follow_attacker()
        finally:
            self._quiet = False
        set_shown(self.target_number, not self.opposed.value)
        set_shown(self.defender_shift, self.opposed.value)
        if self.page is None or not self.attacker.value or not self.target.value:
            self.odds.value = ""
            set_shown(self.armour, False)
            set_shown(self.impact, False)
            return
        target = self.page.roster.fighter(self.target.value)
        set_shown(self.armour, bool(target["armour"])
                  and not self.fight.of(self.target.value).armour_spent)
        weapon = row_weapon(self.page.roster.fighter(self.attacker.value))
        set_shown(self.impact, weapon is not None and any(
            tsl.tag_family(t) == "Impact" for t in weapon.tags))
        enc, me = self.fight.encounter, self.attacker.value
        if enc is not None and enc.acting == me and enc.state(me).action_used:
            # the usual end of an exchange, not a mistake: said plainly, not as an error
            self.odds.value = (f"<div class='rulebook-tsl-fight-odds'><i>{html.escape(me)} has "
                               "used the Action this turn: press <b>Next turn</b>.</i></div>")
            return
        # refuses an attack that cannot be made: no odds offered, and the refusal shows once
        self._refused = True
        setup = self._setup()
        self.odds.value = ("<div class='rulebook-tsl-fight-odds'>"
                           + band_odds_html(tsl.attack_odds(**setup)) + "</div>")
        self._refused = False

    @answers("result", line="entry.error")
    def _attack(self, request: RollRequest) -> None:
        if self._refused:
            return   # the refusal already shows above, where the setup is fixed
        me, them = self.attacker.value, self.target.value
        setup = self._setup()
        if self.fight.acting != me:
            raise RulesError(f"attacker must be {self.fight.acting}, whose turn it is (press "
                             f"Next turn to pass the turn), got {me}")
        request.expect_typed(2 * DICE if self.opposed.value else DICE,
                             f"{2 * DICE} faces (the attacker's, then the defender's)"
                             if self.opposed.value else f"{DICE} faces")
        result = tsl.attack(request.dice, **setup)
        self._pending = (me, them, result)
        said = attack_said(result)
        self.page.rolls.add(f"{me} attacks {them}", request, said,
                            lambda r: self._attack(r.fresh()))
        extra = attack_extras(result)
        against = against_words(result)
        self.result.value = (
            f"<div class='rulebook-tsl-fight-result'>Total {result.total} against {against}, "
            f"margin {result.margin:+d} — <b style='color:{BAND_COLOURS[result.band]}'>"
            f"{html.escape(said)}</b>"
            + (" · <b>the target Breaks</b>" if result.target_breaks else "")
            + (f" ({'; '.join(extra)})" if extra else "")
            + f". Press <b>Apply to the target</b> to write it to {html.escape(them)}.</div>")
        self.explanation.show(result.trace)
        self.apply_button.disabled = False

    @answers()
    def _apply(self) -> None:
        me, them, result = self._take_pending()
        move = self.fight.apply(me, them, result)
        self._applied(move)

    # --- showing ------------------------------------------------------------------------------

    def _render(self, roster: Roster, fight: Fight) -> None:
        """Draw the fight and refill every menu from it (after any change, undo included)."""
        self._quiet = True
        self.board.value = board_html(fight, roster)
        enc = fight.encounter
        names = list(enc.order) if enc else []
        set_shown(self.start_button, enc is None)
        set_shown(self.join_button, bool(enc) and any(n not in names for n in roster.names()))
        set_shown(self.next_button, enc is not None)
        standing = [n for n in names if not fight.of(n).broken]
        me = fight.acting if fight.acting in standing else (standing[0] if standing else None)
        self.attacker.options = standing
        self.attacker.value = me
        self.who.options = names
        self.who.value = me if me in names else (names[0] if names else None)
        others = [n for n in standing if n != me]
        before = self.target.value
        self.target.options = others
        self.target.value = self._default_target(roster, me, others, before)
        self._quiet = False
        self._inputs_changed()
        if self._pending is None:
            self.apply_button.disabled = True

    @staticmethod
    def _default_target(roster: Roster, me: str | None, others: list[str],
                        before: str | None) -> str | None:
        """The first fighter of the other side (PCs against NPCs) still standing, keeping the
        one chosen before while they are a foe; else anyone."""
        if me is None or not others:
            return others[0] if others else None
        pc = {n: roster.fighter(n).pc for n in others + [me] if n in roster.names()}
        foes = [n for n in others if pc.get(n) != pc.get(me)]
        if before in foes:
            return before
        return (foes or others)[0]


def starter() -> Roster:
    """The primer's ambush (§11 A Worked Example) for a first visit: Vela, a Proficient shot
    with a sidearm, Mar, and two Thugs (Grunts, pools of 2) with clubs."""
    return (Roster(tsl.ROSTER)
            .add("Vela", pc=True, tier_hand="Proficient")
            .add("Thug A", kind="grunt", weapon_zone="Melee", tag1="Brutal",
                 attack_domain="Body")
            .add("Thug B", kind="grunt", weapon_zone="Melee", tag1="Brutal",
                 attack_domain="Body")
            .add("Mar", pc=True, tier_voice="Trained", weapon_zone="Melee",
                 tag1="Company-Issued", attack_domain="Body", armour=True))


def fight_page() -> FightPage:
    """The one-line notebook call: ``from widgets.tsl_fight import fight_page; fight_page()``."""
    panel = FightPanel()
    page = FightPage(tsl.ROSTER, Fight(), save=Fight.to_json, load=Fight.from_json,
                     panels=[panel], title="Running a fight: TSL", starter=starter(),
                     rename=Fight.rename)
    panel.attach(page)
    return page
