"""Running an exploding-d6 fight on one page: the roster, the initiative order with each
fighter's actions, saved reactions, wounds and protection, the acting fighter's attack on a
target filled from their rows with the defender's reaction as a step of it, and one press to
apply the result (DESIGN.md §5 "At the table").

The page is a :class:`widgets.fight.FightPage` over
:class:`rulescore.systems.exploding_d6.fight.Fight`: the page keeps the roster, the fight,
undo/redo and the roll log; :class:`FightPanel` reads ``page.roster`` and ``page.state`` and
makes one ``page.apply`` per result.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as w

from rulescore.errors import RulesError
from rulescore.roster import Roster
from rulescore.systems import exploding_d6 as x6
from rulescore.systems.exploding_d6.fight import (
    LANDING_ODDS_DICE,
    Fight,
    contest_odds,
    landing_odds,
    other_actions,
)
from rulescore.systems.exploding_d6.inputs import plural
from rulescore.trace import cite_rulings

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
from .exploding_d6 import chain_html
from .fight import FightPage, OnThePage
from .lean import set_shown, shared_layout
from .theme import CRIT, ERROR, SUCCESS

STYLE = {"description_width": "9em"}
NARROW = {"description_width": "11em"}
REACTION_WORDS = {"none": "No reaction", "dodge": "Dodge", "parry": "Parry",
                  "shield parry": "Shield parry"}
COVERS = [("No cover", 0)] + [(f"{c}+", c) for c in x6.cover_levels()]
SPECIAL_WORDS = [("None", "none"), ("K.O.", "ko"), ("Massive", "massive"),
                 ("Disarming", "disarm")]
STACKING_WORDS = [("Better one", "best"), ("A roll each", "each")]
PREVENT_WORDS = [("Heaviest", "heaviest"), ("Lightest", "lightest")]
OPTION = "18em"  # one cell of the More options grid: a label of 11em and its field
FROM_ROWS = "from the two fighters' roster rows and the fight (Fight.attack_inputs)"
COVER_FROM = "the Target's cover menu, or the target's Shield Block (Fight.attack_inputs)"
BLOCK_FROM = ("the target's raised Shield Block behind cover with Shield and cover A roll each "
              "(Fight.attack_inputs)")
CONTEST_WORDS = {"ko": "Knocked out", "disarm": "Disarmed"}


def _menu(label: str, options: list, value: Any = None, width: str = "17em",
          style: dict | None = None) -> w.Dropdown:
    return w.Dropdown(options=options, value=value, description=label, style=style or STYLE,
                      layout=shared_layout(width=width))


def _count(label: str, value: int = 0, high: int = 40) -> w.BoundedIntText:
    return int_field(label, value, 0, high, style=NARROW, layout=shared_layout(width=OPTION))


def _flag(label: str) -> w.Checkbox:
    return w.Checkbox(value=False, description=label, indent=False,
                      layout=shared_layout(width=OPTION))


def board_html(fight: Fight) -> str:
    """One row per fighter in initiative order: initiative, actions in hand (saved reactions
    outside their turn), wounds and the protection pool left; the actor marked."""
    if not fight.combatants:
        return ("<i>Nobody is in the fight yet: roll initiative below (fighters are added "
                "with <b>edit</b> on the roster).</i>")
    actor = fight.actor.name if fight.actor else None
    rows = []
    for c in fight.combatants:
        acting = c.name == actor
        if c.knocked_out:
            actions = "none: knocked out"
        elif not c.started:
            actions = "— (first turn to come)"
        elif acting:
            actions = f"{c.available} of {c.maximum}"
        else:
            actions = f"{c.available} saved to react" if c.available else "none left"
        crit = f" ({c.critical_protection} against criticals)" if c.critical_protection else ""
        status = _status(fight, c)
        colour = ERROR if c.wounds else SUCCESS
        mark = "▶ " if acting else ""
        rows.append(
            f"<tr data-fighter='{html.escape(c.name)}'"
            + (" style='font-weight:600'" if acting else "") + ">"
            f"<td>{mark}{html.escape(c.name)} <small>{'PC' if c.pc else ''}</small></td>"
            f"<td class='initiative'>{c.initiative}</td><td class='actions'>{actions}</td>"
            f"<td class='wounds' style='color:{colour}'>{c.wounds}</td>"
            f"<td class='protection'>{c.protection}{crit}</td>"
            f"<td class='status'><small>{html.escape(status)}</small></td></tr>")
    return ("<table class='rulebook-x6-fight-board'><thead><tr><th>Fighter</th>"
            "<th>Initiative</th><th>Actions</th><th>Wounds</th><th>Protection</th>"
            "<th>Kept for later</th></tr></thead><tbody>" + "".join(rows)
            + "</tbody></table>")


def _status(fight: Fight, c: Any) -> str:
    """What a fighter carries from turn to turn besides actions, wounds and protection: out
    of the fight from a K.O., disarmed, the rounds in their weapon, aim gathered, a Shield
    Block and actions stolen."""
    parts = []
    if c.knocked_out:
        parts.append("KNOCKED OUT: no actions until they come to")
    if c.disarmed:
        parts.append("DISARMED: fists until the weapon is picked up")
    if c.magazine:
        parts.append(f"{c.ammunition}/{c.magazine} rounds")
    if c.aim:
        parts.append(f"aimed {c.aim}")
    if c.accurate:
        parts.append(f"accurate {c.accurate}")
    if c.block_from:
        parts.append("Shield Block" if c.blocking(fight.round)
                     else f"Shield Block from round {c.block_from}")
    if c.stolen:
        parts.append(f"−{c.stolen} action next turn")
    return " · ".join(parts) or "—"


class FightPanel(OnThePage, Tool):
    """The initiative order with actions, wounds and protection on every row, the attack with
    the defender's reaction as one of its steps, its application, and the other actions;
    everything goes through the page (one ``page.apply`` per result)."""

    reaches = (
        Reach(x6.initiative_table, {}, {
            "combatants": "each roster fighter not in the fight yet: Quickness and Deftness "
                          "from the roster",
            "dice_totals": "the dice come as a DiceSource (dice)",
            "dice": "the dice of the Roll the initiative / Initiative dice row"}),
        Reach(Fight.attack_inputs, {
            "reaction": "Reaction", "aim_actions": "Aim actions",
            "accurate_actions": "Accurate actions", "massive_actions": "Massive actions",
            "special": "Special attack", "off_hand": "Off hand",
            "walking": "Walking", "supported": "Weapon supported",
            "distance": "Distance (m)", "cover": "Target's cover",
            "stacking": "Shield and cover"}, {
            "self": "the page's fight", "attacker": "the acting fighter's roster row",
            "target": "the target's roster row"}),
        Reach(x6.attack_setup, {}, {**{name: FROM_ROWS for name in (
            "skill", "weapon_dice", "mode", "min_roll", "attack_number", "compensation",
            "aim_actions", "accurate_actions", "perception", "walking", "distance",
            "weapon_range", "supported", "off_hand", "special", "massive_actions", "strength",
            "recoil")}, "aim_interrupted": "kept by the fight: a hit that lands sets the "
            "target's gathered aim to 0: " + cite_rulings("exploding_d6", ["hit_while_aiming"])}),
        Reach(x6.hit_odds, {}, {
            "dice": "the attack's dice (attack_setup)", "min_roll": "the attack's minimum roll",
            "crit_at": "the attack's critical threshold", "burst": "the attack's mode",
            "explode_depth": "exact: nothing left out"}),
        Reach(landing_odds, {
            "reaction": "Reaction", "reaction_dice": "Reaction dice",
            "reaction_min_roll": "Reaction's minimum roll",
            "stacking": "Shield and cover"}, {
            "dice": "the attack's dice (attack_setup)", "min_roll": "the attack's minimum roll",
            "crit_at": "the attack's critical threshold", "burst": "the attack's mode",
            "shield": "the target's shield in the roster", "cover": COVER_FROM,
            "shield_block": BLOCK_FROM,
            "pool": "the target's protection left in the fight",
            "critical_pool": "the target's protection against criticals left",
            "piercing": "the attacker's weapon in the roster"}),
        Reach(contest_odds, {
            "contest": "Special attack", "contest_dice": "Resistance dice",
            "reaction": "Reaction", "reaction_dice": "Reaction dice",
            "reaction_min_roll": "Reaction's minimum roll",
            "stacking": "Shield and cover"}, {
            "dice": "the attack's dice (attack_setup)", "min_roll": "the attack's minimum roll",
            "crit_at": "the attack's critical threshold", "burst": "the attack's mode",
            "contest_min_roll": "the target's minimum roll in the roster",
            "shield": "the target's shield in the roster", "cover": COVER_FROM,
            "shield_block": BLOCK_FROM,
            "pool": "the target's protection left in the fight",
            "critical_pool": "the target's protection against criticals left",
            "piercing": "the attacker's weapon in the roster"}),
        Reach(x6.attack, {
            "reaction_dice": "Reaction dice", "reaction_min_roll": "Reaction's minimum roll",
            "stacking": "Shield and cover",
            "contest_dice": "Resistance dice", "prevent": "Criticals stopped first"}, {
            "dice_totals": "the attack's dice (attack_setup), drawn from the dice",
            "dice": ROLLED, "min_roll": "the attack's minimum roll (attack_setup)",
            "crit_at": "the attack's critical threshold (attack_setup)",
            "burst": "the attack's mode (attack_setup)", "cover": COVER_FROM,
            "shield_block": BLOCK_FROM, "mode": FROM_ROWS, "reaction": "the Reaction menu, through Fight.attack_inputs",
            "shield": "the target's shield in the roster",
            "cover_faces": "the cover dice come as a DiceSource (dice)",
            "pool": "the target's protection left in the fight",
            "critical_pool": "the target's protection against criticals left",
            "piercing": "the attacker's weapon in the roster",
            "wounds_per_hit": "the attacker's weapon in the roster",
            "contest": "the Special attack menu: a K.O. or disarming attack",
            "contest_min_roll": "the target's minimum roll in the roster"}),
        Reach(Fight.attack_cost, {"aim_actions": "Aim actions",
                                  "accurate_actions": "Accurate actions",
                                  "massive_actions": "Massive actions"}),
        Reach(Fight.reaction_dice, {"reaction": "Reaction"},
              {"target": "the target's roster row"}),
        Reach(Fight.apply_attack, {"attacker": "Attacker", "target": "Target"}, {
            "self": "the page's fight", "result": "the attack rolled (x6.attack)",
            "cost": "Fight.attack_cost of the options",
            "ammunition": "the rounds the attacker's mode spends (attack_setup)"}),
    )

    def __init__(self) -> None:
        self.page: FightPage | None = None
        self._pending: tuple[str, str, x6.AttackFlow, int] | None = None
        self._quiet = False
        self.error = ErrorLine()
        self.board = w.HTML()
        self.acting_line = w.HTML()
        self.next_button = button("Next turn", "End this turn; the next fighter's actions are "
                                  "refreshed", primary=True)
        self.join_entry = DiceEntry("every fighter's Quickness dice in roster order, "
                                    "e.g. 4, 5, 1, 6, 6, 5", name="initiative")
        self.join_help = w.HTML()
        self.attacker = _menu("Attacker", [])
        self.target = _menu("Target", [])
        self.reaction = _menu("Reaction", [("No reaction", "none")], "none")
        self.cover = _menu("Target's cover", COVERS, 0)
        self.reaction_dice = int_field("Reaction dice", 0, 0, 40, style=STYLE,
                                       layout=shared_layout(width="14em"))
        self.reaction_min = int_field("Reaction's minimum roll", 5, 1, 600, style=NARROW,
                                      layout=shared_layout(width="16em"))
        self.more = w.ToggleButton(value=False, description="More options",
                                   tooltip="Aiming, special attacks, distance, off hand …",
                                   layout=shared_layout(width="auto"))
        self.aim = _count("Aim actions", high=12)
        self.accurate = _count("Accurate actions", high=12)
        self.massive = _count("Massive actions", high=12)
        self.special = _menu("Special attack", SPECIAL_WORDS, "none", width=OPTION,
                             style=NARROW)
        self.contest_dice = _count("Resistance dice")
        self.distance = _count("Distance (m)", high=4000)
        self.off_hand = _flag("Off hand")
        self.walking = _flag("Walking")
        self.supported = _flag("Weapon supported")
        self.stacking = _menu("Shield and cover", STACKING_WORDS, "best", width=OPTION,
                              style=NARROW)
        self.prevent = _menu("Criticals stopped first", PREVENT_WORDS, "heaviest",
                             width=OPTION, style=NARROW)
        self.options = w.GridBox(
            [self.aim, self.accurate, self.massive, self.special, self.contest_dice,
             self.distance, self.stacking, self.prevent, self.off_hand, self.walking,
             self.supported],
            layout=shared_layout(grid_template_columns=f"repeat(2, {OPTION})",
                                 grid_gap="2px 6px"))
        self.setup_line = w.HTML()
        self.odds = w.HTML()
        self.attack_entry = DiceEntry("hit dice as rolled, then the reaction's, then cover "
                                      "d6, e.g. 6, 6, 5, 5, 3")
        self.result = w.HTML()
        self.apply_button = button("Apply to the target", "Write this result to the fight",
                                   primary=True)
        self.explanation = ExplanationView()
        self.opener = w.ToggleButton(
            value=False, description="Other actions",
            tooltip="Aim over turns, reload, a Shield Block, bonus and destiny dice",
            layout=shared_layout(width="auto"))
        self._actions: ActionsPanel | None = None
        for entry, name in ((self.join_entry, "join"), (self.attack_entry, "attack")):
            entry.add_class(f"rulebook-x6-fight-{name}")
        self.joining = section("Roll initiative", self.join_help, self.join_entry)
        inputs = w.VBox([w.HBox([self.attacker, self.target]),
                         w.HBox([self.reaction, self.cover]),
                         w.HBox([self.reaction_dice, self.reaction_min, self.more]),
                         self.options],
                        layout=shared_layout(width="37.5em"))
        # the odds beside the fields, read before the dice; the dice entry takes the whole
        # width under both, so its hint (hit dice, then the reaction's, then cover) reads whole
        before = w.VBox([self.setup_line, self.odds],
                        layout=shared_layout(width="25em", margin="0 0 0 .8em"))
        super().__init__([
            w.HBox([w.VBox([self.board, self.acting_line]), self.next_button],
                   layout=shared_layout(align_items="flex-start", grid_gap="1em")),
            self.error,
            *self.joining,
            section("Attack", w.HBox([inputs, before]), self.attack_entry, self.result,
                    w.HBox([self.apply_button]), self.explanation),
            w.HBox([self.opener]),
        ], "rulebook-x6-fight")
        self.next_button.on_click(lambda _: self._next())
        self.join_entry.on_request(self._join)
        self.attack_entry.on_request(self._attack)
        self.apply_button.on_click(lambda _: self._apply())
        self.opener.observe(lambda change: self.show_actions(change["new"]), "value")
        self.more.observe(lambda _: set_shown(self.options, self.more.value), "value")
        set_shown(self.options, False)
        for box in (self.attacker, self.target, self.reaction):
            box.observe(lambda _: self._fill_reaction(), "value")
        for box in (self.attacker, self.target, self.reaction, self.cover, self.reaction_dice,
                    self.reaction_min, self.aim, self.accurate, self.massive, self.special,
                    self.contest_dice, self.distance, self.off_hand, self.walking,
                    self.supported, self.stacking, self.prevent):
            box.observe(lambda _: self._inputs_changed(), "value")
        self._render_state(Fight())

    # --- the page -----------------------------------------------------------------------------

    def render(self) -> None:
        self._render_state(self.fight)

    def _row(self, name: str) -> Any:
        return self.page.roster.fighter(name)

    # --- turns --------------------------------------------------------------------------------

    @answers()
    def _next(self) -> None:
        self._push(self.fight.next_turn())

    def _newcomers(self) -> list[Any]:
        if self.page is None:
            return []
        here = set(self.fight.names())
        return [row for row in self.page.roster.fighters if row.name not in here]

    @answers()
    def _join(self, request: RollRequest) -> None:
        rows = self._newcomers()
        if not rows:
            raise RulesError("everyone in the roster is in the fight already")
        order = x6.initiative_table([(r.name, r["quickness"], r["deftness"]) for r in rows],
                                    dice=request.dice)
        move = self.fight.join(rows, order)
        said = ", ".join(f"{r.name} {r.value}" for r in order.rolls)
        self.page.rolls.add("Initiative", request, said, lambda r: self._join(r.fresh()))
        self._push(move)

    @property
    def actions(self) -> ActionsPanel:
        """The Other actions panel, built and attached the first time it is opened."""
        if self._actions is None:
            self._actions = ActionsPanel()
            at = len(self.children)
            self.children = (*self.children[:at], self._actions, *self.children[at:])
            if self.page is not None:
                self._actions.attach(self.page)
            self.opener.value = True
        return self._actions

    def show_actions(self, shown: bool = True) -> None:
        """Open (build on first use) or fold the Other actions panel."""
        if shown or self._actions is not None:
            set_shown(self.actions, shown)
        if self.opener.value != shown:
            self.opener.value = shown

    # --- the attack ---------------------------------------------------------------------------

    def _options(self) -> dict[str, Any]:
        return {"aim_actions": self.aim.value, "accurate_actions": self.accurate.value,
                "massive_actions": self.massive.value, "special": self.special.value,
                "off_hand": self.off_hand.value, "walking": self.walking.value,
                "supported": self.supported.value,
                "distance": self.distance.value or None}

    def _plan(self) -> tuple[x6.AttackSetup, dict[str, Any], int]:
        """The attack's setup, the flow's inputs after the hit roll, and its cost."""
        me, them = self.attacker.value, self.target.value
        if not me:
            raise RulesError("Attacker is empty: roll initiative for the roster first")
        if not them:
            raise RulesError("Target is empty: the fight needs a second fighter")
        options = self._options()
        setup, flow = self.fight.attack_inputs(self._row(me), self._row(them),
                                               reaction=self.reaction.value,
                                               cover=self.cover.value or None,
                                               stacking=self.stacking.value, **options)
        made = x6.attack_setup(**setup)
        flow |= {"stacking": self.stacking.value, "prevent": self.prevent.value}
        if self.reaction.value in ("dodge", "parry"):
            flow |= {"reaction_dice": self.reaction_dice.value,
                     "reaction_min_roll": self.reaction_min.value}
        if self.special.value in ("ko", "disarm"):
            flow |= {"contest": self.special.value, "contest_dice": self.contest_dice.value,
                     "contest_min_roll": self._row(them)["min_roll"]}
        cost = Fight.attack_cost(options["aim_actions"], options["accurate_actions"],
                                 options["massive_actions"])
        return made, flow, cost

    def _fill_reaction(self) -> None:
        """The reaction's dice and minimum roll from the target's row (a dodge rolls the
        Dodge value, a parry the target's weapon), and the resistance dice (Strength)."""
        if self._quiet or self.page is None or not self.target.value:
            return
        row = self._row(self.target.value)
        self._quiet = True
        if self.reaction.value in ("dodge", "parry"):
            self.reaction_dice.value = Fight.reaction_dice(row, self.reaction.value)
        self.reaction_min.value = row["min_roll"]
        self.contest_dice.value = row["strength"]
        self._quiet = False

    @answers("odds", "setup_line")
    def _inputs_changed(self) -> None:
        if self._quiet:
            return
        self._pending = None
        self.result.value = ""
        self.apply_button.disabled = True
        shows = self.reaction.value in ("dodge", "parry")
        set_shown(self.reaction_dice, shows)
        set_shown(self.reaction_min, shows)
        if not self.attacker.value or not self.target.value:
            self.odds.value = self.setup_line.value = ""
            return
        made, flow, cost = self._plan()
        me, them = self.attacker.value, self.target.value
        crit = "no criticals (burst)" if made.burst else f"critical on {made.crit_at}+"
        self.setup_line.value = (
            f"<div class='rulebook-x6-fight-setup'>{html.escape(me)} rolls <b>{made.dice}</b> "
            f"dice: hit on {made.min_roll}+, {crit}; costs {cost} "
            f"action{'s' if cost != 1 else ''}{self._carried(made, flow)}.</div>")
        hit = x6.hit_odds(made.dice, made.min_roll, made.crit_at, made.burst)
        body = (f"At least one hit {chance_html(hit.p_at_least(1), strong=True)}; at least "
                f"one critical {chance_html(hit.p_criticals_at_least(1))}.")
        reacts = self.reaction.value in ("dodge", "parry")
        rolls = max(made.dice, flow.get("reaction_dice") or 0 if reacts else 0)
        contest = flow.get("contest")
        if contest:
            rolls = max(rolls, flow["contest_dice"])
        if rolls <= LANDING_ODDS_DICE:
            given = dict(reaction=self.reaction.value,
                         reaction_dice=flow["reaction_dice"] if reacts else 0,
                         reaction_min_roll=flow.get("reaction_min_roll", 5),
                         shield=flow.get("shield", "round shield"), cover=flow["cover"],
                         stacking=flow["stacking"], pool=flow["pool"],
                         critical_pool=flow["critical_pool"], piercing=flow["piercing"],
                         shield_block=flow.get("shield_block", False))
            p = landing_odds(made.dice, made.min_roll, made.crit_at, made.burst, **given)
            past = ("the " + REACTION_WORDS[self.reaction.value].lower() + ", "
                    if self.reaction.value != "none" else "") + "cover and protection"
            what = "at least one wound" if made.wounds else "at least one hit lands"
            body += (f" After {past}: {what} on {html.escape(them)} "
                     f"{chance_html(p, strong=True)}.")
            if contest:
                q = contest_odds(contest, made.dice, made.min_roll, made.crit_at, made.burst,
                                 contest_dice=flow["contest_dice"],
                                 contest_min_roll=flow["contest_min_roll"], **given)
                body += (f" <span class='rulebook-x6-contest-odds'>{CONTEST_WORDS[contest]}: "
                         f"{html.escape(them)} {chance_html(q, strong=True)}</span>.")
        else:
            body += (f" <small>The chance after the reaction, cover and protection is worked "
                     f"out for up to {LANDING_ODDS_DICE} dice a roll.</small>")
        self.odds.value = odds_line("rulebook-x6-fight-odds", body)

    @answers("result")
    def _attack(self, request: RollRequest) -> None:
        me, them = self.attacker.value, self.target.value
        made, flow, cost = self._plan()
        result = x6.attack(made.dice, min_roll=made.min_roll, crit_at=made.crit_at,
                           burst=made.burst, dice=request.dice, **flow)
        self._pending = (me, them, result, cost, made.ammunition)
        self.page.rolls.add(f"{me} attacks {them}", request, result.headline,
                            lambda r: self._attack(r.fresh()))
        self.result.value = self._result_html(result, them)
        self.explanation.show(made.trace + result.trace)
        self.apply_button.description = f"Apply to {them}"
        self.apply_button.disabled = False

    def _carried(self, made: x6.AttackSetup, flow: dict[str, Any]) -> str:
        """What the attack takes over from earlier turns: aim gathered, the rounds it spends,
        the target's Shield Block."""
        me = self.fight.of(self.attacker.value)
        them = self.fight.of(self.target.value)
        notes = []
        if me.disarmed:
            notes.append("disarmed: fights with fists (Other actions: Pick up weapon)")
        if me.aim or me.accurate:
            notes.append("aimed " + " and ".join(
                f"{plural(n, 'action')} {what}" for n, what in
                ((me.aim, "for criticals"), (me.accurate, "for accuracy")) if n)
                + " before")
        if made.ammunition:
            notes.append(f"spends {plural(made.ammunition, 'round')} of {me.ammunition}")
        if them.blocking(self.fight.round) and flow.get("shield_block"):
            notes.append(f"{them.name}'s Shield Block rolls first, then the "
                         f"{flow['cover']}+ cover")
        elif them.blocking(self.fight.round):
            notes.append(f"{them.name}'s Shield Block covers {flow['cover']}+")
        return "".join(f"; {html.escape(n, quote=False)}" for n in notes)

    @staticmethod
    def _result_html(result: x6.AttackFlow, them: str) -> str:
        hit = result.hit
        dice = "".join(chain_html(c, kind) for c, (_, kind, _) in zip(hit.chains, hit.dice))
        stages = [f"<li>Hit roll: {html.escape(hit.announcement)} {dice}</li>"]
        if result.reaction is not None:
            r = result.reaction
            rolled = "".join(chain_html(c) for c in r.chains)
            if r.kind == "dodge":
                said = "dodged: the whole attack misses" if r.outcome == "dodged" else \
                    "not dodged"
            else:
                said = f"{x6.announce(r.hits, r.criticals)} left"
            stages.append(f"<li>{REACTION_WORDS[r.kind]} on {r.min_roll}+: {rolled} "
                          f"→ {html.escape(said)}</li>")
        if result.block is not None:
            stages.append(f"<li>Shield Block: {result.block.prevented_criticals} critical(s) "
                          f"and {result.block.prevented_hits} hit(s) stopped</li>")
        if result.cover is not None:
            stages.append(f"<li>Cover: {result.cover.prevented_criticals} critical(s) and "
                          f"{result.cover.prevented_hits} hit(s) stopped</li>")
        p = result.protection
        stages.append(f"<li>Protection: {p.spent} unit{'s' if p.spent != 1 else ''} "
                      f"spent, {p.pool_left} left</li>")
        colour = CRIT if result.megacriticals else (ERROR if result.value else SUCCESS)
        return (f"<div class='rulebook-x6-fight-result'><b class='rulebook-headline' "
                f"style='color:{colour};font-size:1.15em'>{html.escape(result.headline)}</b>"
                f"<ol style='margin:.3em 0;padding-left:1.4em'>{''.join(stages)}</ol>"
                f"<small>Press <b>Apply to {html.escape(them)}</b> to write it to the "
                f"fight.</small></div>")

    @answers()
    def _apply(self) -> None:
        me, them, result, cost, rounds = self._take_pending()
        move = self.fight.apply_attack(me, them, result, cost=cost, ammunition=rounds)
        self._applied(move)

    # --- showing ------------------------------------------------------------------------------

    def _render_state(self, fight: Fight) -> None:
        """Draw the fight and refill every menu from it (after any change, undo included)."""
        self._quiet = True
        self.board.value = board_html(fight)
        set_shown(self.next_button, bool(fight.combatants))
        actor = fight.actor
        left = ("knocked out: no actions, press Next turn" if actor and actor.knocked_out
                else f"{actor.available} of {actor.maximum} actions left" if actor else "")
        self.acting_line.value = (
            f"<p class='rulebook-x6-acting'>Round {fight.round}: <b>{html.escape(actor.name)}"
            f"</b> to act ({left})</p>" if actor else "")
        names = list(fight.names())
        # a fighter taken off the roster keeps their row on the board but has no numbers to
        # attack or be attacked with; a knocked-out one takes no actions
        rostered = set(self.page.roster.names()) if self.page is not None else set()
        me = (actor.name if actor and actor.name in rostered and not actor.knocked_out
              else None)
        self.attacker.options = [me] if me else []
        self.attacker.value = me
        others = [n for n in names if n != me and n in rostered] if me else []
        before = self.target.value
        self.target.options = others
        self.target.value = self._default_target(fight, me, others, before)
        self._fill_reactions(fight)
        newcomers = self._newcomers()
        for widget in self.joining:
            set_shown(widget, bool(newcomers))
        if newcomers:
            self.join_help.value = (
                "<small>Each of " + html.escape(", ".join(r.name for r in newcomers))
                + " rolls Quickness in exploding d6 (a 6 rolls on); the highest acts first, "
                "ties to Quickness, then Deftness.</small>")
        self._quiet = False
        self._fill_reaction()
        self._inputs_changed()
        if self._pending is None:
            self.apply_button.disabled = True

    def _fill_reactions(self, fight: Fight) -> None:
        """The reactions the target can make to the attacker's weapon now."""
        if self.page is None or not self.target.value or not self.attacker.value:
            options = ["none"]
        else:
            mode = x6.attack_mode(self._row(self.attacker.value)["mode"])
            options = list(fight.reactions(self._row(self.target.value), mode))
        keep = self.reaction.value if self.reaction.value in options else "none"
        self.reaction.options = [(REACTION_WORDS[o], o) for o in options]
        self.reaction.value = keep

    @staticmethod
    def _default_target(fight: Fight, me: str | None, others: list[str],
                        before: str | None) -> str | None:
        """The first fighter of the other side (PCs against NPCs), keeping the one chosen
        before while they are a foe; else anyone."""
        if me is None or not others:
            return others[0] if others else None
        pcs = {c.name for c in fight.combatants if c.pc}
        foes = [n for n in others if (n in pcs) != (me in pcs)]
        if before in foes:
            return before
        return (foes or others)[0]


class ActionsPanel(OnThePage, Tool):
    """Everything a fighter does besides attacking and reacting, kept on their row: an action
    of the actions table (aiming is gathered for their next attack, over turns too; a reload
    fills the weapon), a Shield Block raised or lowered, a bonus die for one more action and a
    destiny die stealing one from another fighter. Built the first time the GM opens it."""

    reaches = (
        Reach(Fight.act, {"name": "Fighter", "action": "Other action"}, {
            "self": "the page's fight", "row": "the Fighter's roster row"}),
        Reach(Fight.bonus_die, {"name": "Fighter"}, {"self": "the page's fight"}),
        Reach(Fight.destiny_die, {"name": "Fighter", "victim": "Steal from"},
              {"self": "the page's fight"}),
        Reach(Fight.shield_block, {}, {
            "self": "the page's fight", "row": "the Fighter's roster row",
            "up": "the shield button: Raise shield, or Lower shield once raised"}),
        Reach(Fight.pick_up, {"name": "Fighter"}, {"self": "the page's fight"}),
        Reach(Fight.come_to, {"name": "Fighter"}, {"self": "the page's fight"}),
    )

    def __init__(self) -> None:
        self.page: FightPage | None = None
        self._pending = None
        self.error = ErrorLine()
        self.explanation = ExplanationView()
        self.who = _menu("Fighter", [])
        self.other_action = _menu("Other action", [(label, key) for key, label in
                                                   other_actions()], "aim", width="24em")
        self.act_button = button("Act", "The fighter spends actions on this action")
        self.shield_button = button("Raise shield", "Shield Block: 2 actions in your turn; "
                                    "covers every attack from the next round")
        self.bonus_button = button("Bonus die: +1 action",
                                   "Spend a bonus die for one more action, at once")
        self.victim = _menu("Steal from", [])
        self.destiny_button = button("Destiny die: steal an action",
                                     "Take one action from the fighter named: you have it at "
                                     "once, they lose it from this or their next turn")
        self.pick_up_button = button("Pick up weapon", "A disarmed fighter takes the weapon "
                                     "back: one action in their turn")
        self.come_to_button = button("Comes to", "A knocked-out fighter comes to, at the GM's "
                                     "word: their actions come back with their next turn")
        super().__init__([
            w.HBox([self.who, self.other_action, self.act_button]),
            w.HBox([self.shield_button, self.bonus_button, self.victim, self.destiny_button]),
            w.HBox([self.pick_up_button, self.come_to_button]),
            self.error, self.explanation], "rulebook-x6-fight-actions")
        self.pick_up_button.on_click(lambda _: self._pick_up())
        self.come_to_button.on_click(lambda _: self._come_to())
        self.act_button.on_click(lambda _: self._act())
        self.shield_button.on_click(lambda _: self._shield())
        self.bonus_button.on_click(lambda _: self._bonus())
        self.destiny_button.on_click(lambda _: self._destiny())
        self.who.observe(lambda _: self._follow_who(), "value")

    def render(self) -> None:
        fight = self.fight
        names = list(fight.names())
        actor = fight.actor.name if fight.actor else None
        keep = self.who.value
        self.who.options = names
        self.who.value = keep if keep in names else (actor if actor in names else
                                                     (names[0] if names else None))
        self._follow_who()

    def _follow_who(self) -> None:
        """The shield button and the Steal from menu follow the fighter chosen."""
        if self.page is None:
            return
        fight, me = self.fight, self.who.value
        others = [n for n in fight.names() if n != me]
        keep = self.victim.value
        self.victim.options = others
        self.victim.value = keep if keep in others else (others[0] if others else None)
        raised = me is not None and fight.of(me).block_from > 0
        self.shield_button.description = "Lower shield" if raised else "Raise shield"
        rostered = me is not None and me in self.page.roster.names()
        has_shield = rostered and self.page.roster.fighter(me)["shield"] != x6.ROSTER.column(
            "shield").default
        set_shown(self.shield_button, raised or has_shield)
        c = fight.of(me) if me is not None else None
        set_shown(self.pick_up_button, c is not None and c.disarmed)
        set_shown(self.come_to_button, c is not None and c.knocked_out)

    def _me(self) -> str:
        if not self.who.value:
            raise RulesError("Fighter is empty: roll initiative for the roster first")
        return self.who.value

    @answers()
    def _act(self) -> None:
        me = self._me()
        row = self.page.roster.fighter(me) if me in self.page.roster.names() else None
        self._push(self.fight.act(me, self.other_action.value, row=row))

    @answers()
    def _shield(self) -> None:
        me = self._me()
        up = not self.fight.of(me).block_from
        self._push(self.fight.shield_block(self.page.roster.fighter(me), up))

    @answers()
    def _pick_up(self) -> None:
        self._push(self.fight.pick_up(self._me()))

    @answers()
    def _come_to(self) -> None:
        self._push(self.fight.come_to(self._me()))

    @answers()
    def _bonus(self) -> None:
        self._push(self.fight.bonus_die(self._me()))

    @answers()
    def _destiny(self) -> None:
        if not self.victim.value:
            raise RulesError("Steal from is empty: the fight needs a second fighter")
        self._push(self.fight.destiny_die(self._me(), self.victim.value))


def starter() -> Roster:
    """The chapter's own Hagen and the robber (§Reactions) for a first visit: Hagen with a
    sword and a round shield, the robber with a club."""
    return (Roster(x6.ROSTER)
            .add("Hagen", pc=True, quickness=3, deftness=4, shield="round shield",
                 protection=2)
            .add("Robber", quickness=3, deftness=2, blunt=True, protection=1))


def fight_page() -> FightPage:
    """The one-line notebook call: ``from widgets.exploding_d6_fight import fight_page;
    fight_page()``."""
    panel = FightPanel()
    page = FightPage(x6.ROSTER, Fight(), save=Fight.to_json, load=Fight.from_json,
                     panels=[panel], title="Running a fight: exploding d6", starter=starter(),
                     rename=Fight.rename)
    panel.attach(page)
    return page
