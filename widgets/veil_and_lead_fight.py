"""Running a Veil & Lead fight on one page: the roster, the Count with each token's health, the
attack of the acting fighter on a target filled from their rows, one press to apply the result,
the Grievous Wound d8, the bleed-out walker and coup de grâce (DESIGN.md §5 "At the table").

The page is a :class:`widgets.fight.FightPage` over :class:`rulescore.systems.veil_and_lead.Fight`:
the page keeps the roster, the fight, undo/redo and the roll log; :class:`FightPanel` reads
``page.roster`` and ``page.state`` and makes one ``page.apply`` per result.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as w

from rulescore.errors import RulesError
from rulescore.roster import Roster
from rulescore.systems import veil_and_lead as vl
from rulescore.systems.veil_and_lead.encounter import TRACKED
from rulescore.systems.veil_and_lead.fight import LIMB_MARKS, Fight
from rulescore.text import percent

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
    int_field,
    section,
)
from .fight import FightPage, OnThePage
from .lean import set_shown, shared_layout
from .theme import ERROR, FAINT, SUCCESS
from .veil_and_lead_count import cylinder_svg

STYLE = {"description_width": "8em"}
CALLED = ("Head", "Arm/Hand", "Leg", "Torso")
ATTRIBUTES = ("QUICK", "SAVVY", "IRON", "GRIT")
FROM_ROWS = "from the two fighters' roster rows and the fight (Fight.attack_inputs)"
MARKABLE = (tuple(c for c in TRACKED if c != "Downed") + ("Stunned",)
            + tuple(LIMB_MARKS.values()))


def _menu(label: str, options: list[str], value: str | None = None,
          width: str = "19em") -> w.Dropdown:
    return w.Dropdown(options=options, value=value, description=label, style=STYLE,
                      layout=shared_layout(width=width))


def board_html(fight: Fight) -> str:
    """One row per token, in the order they next act: tick, Vitality, state, Strain and the
    conditions a rule reads; the dead at the foot."""
    enc = fight.encounter
    ticks = {f.name: f for f in enc.fighters}

    def order(h: vl.Health) -> tuple[int, str]:
        f = ticks.get(h.name)
        return (99 if f is None or f.tick is None else (f.tick - enc.hammer) % 20, h.name)

    rows = []
    for h in sorted(fight.health, key=order):
        f = ticks.get(h.name)
        where = ("—" if f is None else f"holding: {html.escape(f.holding or '')}"
                 if f.tick is None else f"Tick {f.tick}")
        if f is not None and f.horde:
            body, state = f"Horde of {f.horde}", "Horde"
        else:
            body, state = f"{h.vitality} / {h.full}", h.state
        colour = {"Healthy": SUCCESS, "Dead": FAINT}.get(state, ERROR)
        conditions = [c for c in fight.conditions(h.name) if c != state]
        conditions += [w_ for w_ in h.wounds if w_ not in conditions]
        if h.grievous_pending:
            conditions.append("Grievous Wound: roll the d8")
        if f is not None and f.aim:
            conditions.append(f"Aim +{vl.aim_bonus(f.aim)}")
        pc = "PC" if f is not None and f.pc else ""
        rows.append(
            f"<tr data-fighter='{html.escape(h.name)}'><td><b>{html.escape(h.name)}</b> "
            f"<small>{pc}</small></td><td>{where}</td><td class='vitality'>{body}</td>"
            f"<td class='state' style='color:{colour};font-weight:600'>{state}</td>"
            f"<td class='strain'>{h.strain}</td>"
            f"<td class='conditions'>{html.escape(', '.join(conditions))}</td></tr>")
    if not rows:
        return ("<i>Nobody is on the Count yet: enter the fighters in the roster, then press "
                "Roll initiative for the roster.</i>")
    return ("<table class='rulebook-vl-fight-board'><thead><tr><th>Fighter</th><th>Where</th>"
            "<th>Vitality</th><th>State</th><th>Strain</th><th>Conditions</th></tr></thead>"
            "<tbody>" + "".join(rows) + "</tbody></table>")


class FightPanel(OnThePage, Tool):
    """The Count with health on every token, the attack, its application, the Grievous Wound
    d8, the bleed-out walker, coup de grâce and the GM's marks; everything goes through the
    page (one ``page.apply`` per result)."""

    reaches = (
        Reach(vl.initiative, {"ambush": "Ambush prepared"}, {
            "faces": "the dice of the Roll the initiative / Initiative dice row, split into "
                     "each fighter's pool in roster order",
            "dice": "the faces are given instead (one pool a fighter)",
            "quick": "each fighter's QUICK in the roster",
            "awareness": "each fighter's Awareness in the roster",
            "armour": "each fighter's Armour in the roster",
            "off_guard": "the GM marks a fighter Surprised on the Count instead",
            "supernatural": "abilities of Book III are outside this chapter",
            "fatigued": "Strain's cap is set outside this chapter", "bleed": "no Bleed Dice here",
            "small_pool": "the rules as printed (a pool below 2 rolls what it has)"}),
        Reach(Fight.attack_inputs, {"attacker_name": "Acting fighter", "target_name": "Target",
                                    "action": "Action", "band": "Range band",
                                    "cover": "Target's cover"},
              {"self": "the page's fight", "attacker": "the acting fighter's roster row",
               "target": "the target's roster row"}),
        Reach(vl.plan_attack, {"critical": "Critical bonus", "called_location": "Called location"},
              {name: FROM_ROWS for name in (
                  "attribute", "skill", "defense", "weapon", "action", "band", "cover",
                  "attacker_conditions", "target_conditions", "roll_bonus", "aim_actions", "ar",
                  "hardened", "hardened_spent", "horde_size")} | {
                  name: "the attack calculator's chapter takes it; a fight uses the rules as "
                        "printed" for name in (
                      "pool_penalty", "tn_modifier", "step_modifier", "damage_bonus",
                      "firing_into_melee", "braced", "stationary_target", "small_pool",
                      "exposure", "off_hand")}),
        Reach(vl.attack, {}, {"faces": "the dice come as a DiceSource (dice)", "dice": ROLLED,
                              "bleed": "no Bleed Dice on the fight page",
                              "backlash_rule": "Backlash is judged by Book III"}),
        Reach(Fight.grievous, {}, {"self": "the page's fight", "name": "the wounded fighter",
                                   "roll": "the d8 comes as a DiceSource (dice)",
                                   "dice": "the Roll the Grievous Wound / Grievous Wound "
                                           "dice row"}),
        Reach(vl.healer_pool, {"attribute": "Healer's attribute"},
              {"medicine": "the healer's Medicine in the roster"}),
        Reach(vl.stabilize, {"medical_kit": "Medical kit", "vitality": "Patient"}, {
            "faces": "the dice come as a DiceSource (dice)",
            "dice": "the dice of the Roll the healer / Healer dice row",
            "pool": "the healer's attribute + Medicine in the roster",
            "roll_bonus": "the Medical kit is the only bonus the chapter gives",
            "fumble": "a fumble is every die showing 1", "fumble_rule": "the default"}),
        Reach(Fight.coup_de_grace, {"attacker_name": "Acting fighter", "target_name": "Target",
                                    "critical": "Critical bonus"},
              {"self": "the page's fight", "attacker": "the acting fighter's roster row",
               "target": "the target's roster row"}),
    )

    def __init__(self) -> None:
        self.page: FightPage | None = None
        self._pending: tuple[str, str, vl.AttackResolution, str | None] | None = None
        self.error = ErrorLine()
        self.picture = w.HTML()
        self.board = w.HTML()
        self.acting_line = w.HTML()
        self.next_button = button("Next turn", "Turn the Hammer to the next token", primary=True)
        self.ambush = w.Checkbox(value=False, description="Ambush prepared", indent=False,
                                 layout=shared_layout(width="11em"))
        self.join_entry = DiceEntry("every fighter's d8s in roster order, e.g. 6, 3, 2, 8, 1",
                                    name="initiative")
        self.attacker = _menu("Acting fighter", [])
        self.target = _menu("Target", [])
        self.action = _menu("Action", ["Steady Shot"], "Steady Shot")
        self.band = _menu("Range band", list(vl.BANDS), "Near")
        self.cover = _menu("Target's cover", list(vl.cover_names()), "No Cover")
        self.critical = int_field("Critical bonus", 0, 0, 5, style=STYLE,
                                  layout=shared_layout(width="12em"))
        self.called = _menu("Called location", list(CALLED), "Head")
        self.odds = w.HTML()
        self.attack_entry = DiceEntry("the acting fighter's d8s, e.g. 8, 7, 6, 5, 3, 2")
        self.result = w.HTML()
        self.apply_button = button("Apply to the target", "Write this result to the fight",
                                   primary=True)
        self.coup_button = button("Coup de grâce", "The acting fighter executes a Downed target")
        self.explanation = ExplanationView()
        self.grievous_line = w.HTML()
        self.grievous_entry = DiceEntry("e.g. 5", name="Grievous Wound")
        self.patient = _menu("Patient", [])
        self.healer = _menu("Healer", [])
        self.healer_attribute = _menu("Healer's attribute", list(ATTRIBUTES), "SAVVY")
        self.kit = w.Checkbox(value=False, description="Medical kit", indent=False,
                              layout=shared_layout(width="12em"))
        self.stabilize_odds = w.HTML()
        self.stabilize_entry = DiceEntry("the healer's d8s, e.g. 7, 5, 1", name="healer")
        self.other_action = _menu("Other action", [a for a, x in vl.actions().items()
                                                   if x.attack in ("none",)], "Aim")
        self.act_button = button("Act", "The acting fighter takes this action")
        self.wait_button = button("Wait +1")
        self.stunned_button = button("Stunned turn")
        self.who = _menu("Fighter", [])
        self.condition = _menu("Condition", list(MARKABLE), "Suppressed")
        self.mark_button = button("Mark")
        self.clear_button = button("Clear")
        self.strain = int_field("Strain", 0, 0, 30, style=STYLE,
                                layout=shared_layout(width="12em"))
        self.strain_button = button("Set Strain")
        for entry, name in ((self.join_entry, "join"), (self.attack_entry, "attack"),
                            (self.grievous_entry, "grievous"),
                            (self.stabilize_entry, "stabilize")):
            entry.add_class(f"rulebook-vl-fight-{name}")
        self.walker = section("Bleeding out", w.HBox([self.patient, self.healer]),
                              w.HBox([self.healer_attribute, self.kit]), self.stabilize_odds,
                              self.stabilize_entry)
        super().__init__([
            w.HBox([self.picture, w.VBox([self.board, self.acting_line,
                                          w.HBox([self.next_button])])]),
            self.error,
            section("Attack", w.HBox([self.attacker, self.target]),
                    w.HBox([self.action, self.band, self.cover]),
                    w.HBox([self.critical, self.called]), self.odds, self.attack_entry,
                    self.result, w.HBox([self.apply_button, self.coup_button]),
                    self.explanation),
            section("Grievous Wound", self.grievous_line, self.grievous_entry),
            *self.walker,
            section("Joining the fight", w.HTML(
                "<small>Everyone in the roster who is not on the Count yet rolls QUICK + "
                "Awareness and joins at the tick the margin gives.</small>"),
                self.ambush, self.join_entry),
            section("Other moves", w.HBox([self.other_action, self.act_button, self.wait_button,
                                           self.stunned_button]),
                    w.HBox([self.who, self.condition, self.mark_button, self.clear_button]),
                    w.HBox([self.strain, self.strain_button])),
        ], "rulebook-vl-fight")
        self.next_button.on_click(lambda _: self._next())
        self.join_entry.on_request(self._join)
        self.attack_entry.on_request(self._attack)
        self.apply_button.on_click(lambda _: self._apply())
        self.coup_button.on_click(lambda _: self._coup())
        self.grievous_entry.on_request(self._grievous)
        self.stabilize_entry.on_request(self._stabilize)
        self.act_button.on_click(lambda _: self._act())
        self.wait_button.on_click(lambda _: self._move(
            lambda f: (f.encounter.wait(self._acting()), f"{self._acting()} waits")))
        self.stunned_button.on_click(lambda _: self._move(
            lambda f: (f.encounter.stunned(self._acting()),
                       f"{self._acting()} is Stunned: no action, 3 ticks on")))
        self.mark_button.on_click(lambda _: self._mark(True))
        self.clear_button.on_click(lambda _: self._mark(False))
        self.strain_button.on_click(lambda _: self._set_strain())
        for box in (self.attacker, self.target, self.action, self.band, self.cover,
                    self.critical, self.called):
            box.observe(lambda _: self._inputs_changed(), "value")
        for box in (self.patient, self.healer, self.healer_attribute, self.kit):
            box.observe(lambda _: self._show_stabilize_odds(), "value")
        self._quiet = False
        self._render_state(Fight())

    # --- the page -----------------------------------------------------------------------------

    def render(self) -> None:
        self._render_state(self.fight)

    def _row(self, token: str) -> Any:
        """The roster row a token was made from."""
        return self.page.roster.fighter(self.fight.of(token).row)

    def _acting(self) -> str:
        if not self.attacker.value:
            raise RulesError("Acting fighter is empty: roll initiative for the roster first")
        return self.attacker.value

    def _target(self) -> str:
        if not self.target.value:
            raise RulesError("Target is empty: the fight needs a second fighter")
        return self.target.value

    @answers()
    def _move(self, make) -> None:
        """A move on the Count alone (wait, stunned turn)."""
        enc, line = make(self.fight)
        self._push(vl.Move(Fight(enc, self.fight.health), line))

    # --- turns --------------------------------------------------------------------------------

    @answers()
    def _next(self) -> None:
        move = self.fight.next_turn()
        self._push(move)

    @answers(line="join_entry.error")
    def _join(self, request: RollRequest) -> None:
        fight = self.fight
        present = {h.row for h in fight.health}
        rows = [row for row in self.page.roster.fighters if row.name not in present]
        if not rows:
            raise RulesError("everyone in the roster is on the Count already")
        sizes = [vl.plan_initiative(row["quick"], row["awareness"], ambush=self.ambush.value,
                                    armour=row["armour"]).dice_to_roll for row in rows]
        lines, steps = [], []
        pools = vl.roll_pools(request.dice, sizes, names=[row.name for row in rows])
        for row, faces in zip(rows, pools, strict=True):
            rolled = vl.initiative(faces, row["quick"], row["awareness"],
                                   ambush=self.ambush.value, armour=row["armour"])
            fight = fight.join(row, rolled.margin).fight
            lines.append(f"{row.name} {rolled.final_sum} → Tick {rolled.tick} ({rolled.state})")
            steps.extend(rolled.trace)
        outcome = "; ".join(lines)
        self.page.rolls.add("Initiative", request, outcome, lambda r: self._join(r.fresh()))
        self.explanation.show(steps)
        self.page.apply(f"Initiative ({request.describe()}): {outcome}", state=fight)

    @answers()
    def _act(self) -> None:
        name = self._acting()
        weapon = self._row(name)["weapon"]
        action = self.other_action.value
        tempo = vl.tempo(action, weapon)
        enc = self.fight.encounter.act(name, tempo, exposed=vl.exposes(action, tempo),
                                       action=action)
        self._push(vl.Move(Fight(enc, self.fight.health),
                           f"{name}: {action}, tempo {tempo} → Tick {enc.fighter(name).tick}"))

    @answers()
    def _mark(self, on: bool) -> None:
        if not self.who.value:
            raise RulesError("Fighter is empty: roll initiative for the roster first")
        self._push(self.fight.mark(self.who.value, self.condition.value, on))

    @answers()
    def _set_strain(self) -> None:
        if not self.who.value:
            raise RulesError("Fighter is empty: roll initiative for the roster first")
        self._push(self.fight.set_strain(self.who.value, self.strain.value))

    # --- attacks ------------------------------------------------------------------------------

    def _setup(self) -> dict[str, Any]:
        me, them = self._acting(), self._target()
        setup = self.fight.attack_inputs(self._row(me), self._row(them), me, them,
                                         action=self.action.value, band=self.band.value,
                                         cover=self.cover.value)
        setup["critical"] = self.critical.value
        if self.action.value == "Called Shot":
            setup["called_location"] = self.called.value
        return setup

    @answers("odds")
    def _inputs_changed(self) -> None:
        if self._quiet:
            return
        self._pending = None
        self.result.value = ""
        self.apply_button.disabled = True
        self._fill_actions()
        set_shown(self.called, self.action.value == "Called Shot")
        if not self.attacker.value or not self.target.value:
            self.odds.value = ""
            return
        me = self.attacker.value
        if self.fight.of(me).state in ("Downed", "Dead"):
            self.odds.value = (f"<div class='rulebook-vl-fight-odds'><i>{html.escape(me)} is "
                               f"{self.fight.of(me).state}: no attack (a Downed fighter may "
                               "only Crawl or Speak).</i></div>")
            return
        setup = self._setup()
        plan = vl.plan_attack(**setup)  # a Horde's volley: its size is in the setup (§XIII)
        odds = plan.odds()
        self.odds.value = (
            f"<div class='rulebook-vl-fight-odds'>{html.escape(self._acting())} rolls "
            f"{plan.dice_to_roll} d8 against TN {plan.tn}"
            + (f" {'+' if plan.roll_bonus >= 0 else ''}{plan.roll_bonus} to the roll"
               if plan.roll_bonus else "")
            + f": <b>hit {percent(odds.p_hit)}</b>, Grievous Wound "
              f"{percent(odds.p_grievous)}. Tempo {plan.tempo}.</div>")

    def _fill_actions(self) -> None:
        """The attack actions the acting fighter's weapon can make."""
        if not self.attacker.value:
            return
        kind = vl.weapon(self._row(self.attacker.value)["weapon"]).kind
        names = [a for a, x in vl.actions().items() if x.attack in (kind, "any")]
        if list(self.action.options) != names:
            keep = self.action.value if self.action.value in names else names[0]
            self._quiet = True
            self.action.options = names
            self.action.value = keep
            self._quiet = False

    @answers("result")
    def _attack(self, request: RollRequest) -> None:
        me, them = self._acting(), self._target()
        self.fight.require_turn(me)
        setup = self._setup()
        called = setup.get("called_location")
        result = vl.attack(dice=request.dice, **setup)
        self._pending = (me, them, result, called)
        dice = ", ".join(map(str, result.dice))
        said = (f"{result.outcome}: {result.damage} damage" if result.hit else result.outcome)
        self.page.rolls.add(f"{me}'s {result.action} at {them}", request, said,
                          lambda r: self._attack(r.fresh()))
        colour = SUCCESS if result.hit else ERROR
        self.result.value = (
            f"<div class='rulebook-vl-fight-result'>d8s {dice}: sum {result.final_sum} against "
            f"TN {result.tn} — <b style='color:{colour}'>{html.escape(said)}</b>"
            + (" · a Grievous Wound" if result.grievous else "")
            + f". Press <b>Apply to the target</b> to write it to {html.escape(them)}.</div>")
        self.explanation.show(result.trace)
        self.apply_button.disabled = False

    @answers()
    def _apply(self) -> None:
        me, them, result, called = self._take_pending()
        move = self.fight.apply_attack(me, them, result, called_location=called)
        self._applied(move)

    @answers()
    def _coup(self) -> None:
        me, them = self._acting(), self._target()
        self._push(self.fight.coup_de_grace(self._row(me), self._row(them), me, them,
                                            critical=self.critical.value))

    # --- wounds and bleeding ------------------------------------------------------------------

    def _waiting_wound(self) -> str | None:
        return next((h.name for h in self.fight.health if h.grievous_pending), None)

    @answers()
    def _grievous(self, request: RollRequest) -> None:
        name = self._waiting_wound()
        if name is None:
            raise RulesError("no Grievous Wound is waiting for its d8")
        move = self.fight.grievous(name, dice=request.dice)
        self.page.rolls.add(f"Grievous Wound d8 for {name}", request,
                          move.line.split(" — ", 1)[-1], lambda r: self._grievous(r.fresh()))
        self._push(move)

    def _healer_pool(self) -> int:
        row = self._row(self.healer.value)
        return vl.healer_pool(row[self.healer_attribute.value.lower()], row["medicine"])

    @answers("stabilize_odds")
    def _show_stabilize_odds(self) -> None:
        if self._quiet or not self.patient.value or not self.healer.value:
            self.stabilize_odds.value = ""
            return
        patient = self.fight.of(self.patient.value)
        pool = self._healer_pool()
        p = vl.stabilization_probability(pool, patient.vitality, medical_kit=self.kit.value)
        self.stabilize_odds.value = (
            f"<div>{html.escape(self.healer.value)} rolls {pool} d8 against TN "
            f"{vl.stabilization_tn(patient.vitality)}: <b>stops the bleeding "
            f"{percent(p)}</b>; every die a 1 is a fumble (1 more Vitality lost).</div>")

    @answers()
    def _stabilize(self, request: RollRequest) -> None:
        if not self.patient.value or not self.healer.value:
            raise RulesError("Patient is empty: nobody is Bleeding Out")
        name = self.patient.value
        patient = self.fight.of(name)
        result = vl.stabilize(None, patient.vitality, medical_kit=self.kit.value,
                              dice=request.dice, pool=self._healer_pool())
        move = self.fight.stabilized(name, result)
        self.page.rolls.add(f"{self.healer.value} stabilises {name}", request, result.outcome,
                          lambda r: self._stabilize(r.fresh()))
        self._push(move)

    # --- showing ------------------------------------------------------------------------------

    def _render_state(self, fight: Fight) -> None:
        """Draw the fight and refill every menu from it (after any change, undo included)."""
        self._quiet = True
        self.picture.value = cylinder_svg(fight.encounter)
        self.board.value = board_html(fight)
        acting = fight.acting()
        on_track = [f.name for f in fight.encounter.fighters]
        alive = [h.name for h in fight.health if h.state != "Dead"]
        self.acting_line.value = (
            f"<p class='rulebook-vl-acting'>Hammer at Tick {fight.encounter.hammer}: "
            f"<b>{html.escape(', '.join(acting))}</b> to act</p>" if acting else
            ("<p class='rulebook-vl-acting'>Press Next turn to turn the Hammer.</p>"
             if on_track else ""))
        me = acting[0] if acting else (self.attacker.value if self.attacker.value in on_track
                                       else (on_track[0] if on_track else None))
        self.attacker.options = on_track
        self.attacker.value = me
        self.who.options = [h.name for h in fight.health]
        self.who.value = me if me in self.who.options else (self.who.options[0]
                                                           if self.who.options else None)
        others = [n for n in alive if n != me]
        before = self.target.value
        self.target.options = others
        self.target.value = self._default_target(fight, me, others, before)
        bleeding = [h.name for h in fight.health if h.bleeding and not h.stabilized
                    and h.state != "Dead"]
        self.patient.options = bleeding
        self.patient.value = bleeding[0] if bleeding else None
        healers = [n for n in on_track if n not in bleeding]
        self.healer.options = healers
        self.healer.value = (self.healer.value if self.healer.value in healers else
                             (healers[0] if healers else None))
        for widget in self.walker:
            set_shown(widget, bool(bleeding))
        waiting = next((h.name for h in fight.health if h.grievous_pending), None)
        self.grievous_line.value = (
            f"<p>{html.escape(waiting)} took a Grievous Wound: roll the d8 (1–2 Flesh Wound, "
            "3–4 Broken Bone, 5–6 Internal Bleeding, 7 Concussion, 8 Arterial Hit).</p>"
            if waiting else f"<p style='color:{FAINT}'>No Grievous Wound waiting.</p>")
        set_shown(self.grievous_entry, waiting is not None)
        self._quiet = False
        self._inputs_changed()
        self._show_stabilize_odds()
        if self._pending is None:
            self.apply_button.disabled = True

    @staticmethod
    def _default_target(fight: Fight, me: str | None, others: list[str],
                        before: str | None) -> str | None:
        """The first fighter of the other side (PCs against NPCs) still standing, keeping the
        one chosen before while they are a foe; else anyone."""
        if me is None or not others:
            return others[0] if others else None
        pcs = {f.name for f in fight.encounter.fighters if f.pc}
        foes = [n for n in others if (n in pcs) != (me in pcs)]
        up = [n for n in foes if fight.of(n).state not in ("Downed", "Dead")]
        if before in foes:
            return before
        return (up or foes or others)[0]


def starter() -> Roster:
    """The chapter's own gunfight (§VI The Complete Attack Example) for a first visit: Caleb,
    QUICK 3 and Ballistics 3 with a Masterwork Peacemaker, and a Consortium Enforcer of
    Defense 9 with a Repeater."""
    return (Roster(vl.ROSTER)
            .add("Caleb", pc=True, quick=3, weapon_skill=3, weapon_bonus=2)
            .add("Enforcer", quick=1, savvy=1, iron=2, weapon="Repeater", armour="Duster"))


def fight_page() -> FightPage:
    """The one-line notebook call: ``from widgets.veil_and_lead_fight import fight_page;
    fight_page()``."""
    panel = FightPanel()
    page = FightPage(vl.ROSTER, Fight(), save=Fight.to_json, load=Fight.from_json,
                     panels=[panel], title="Running a fight: Veil & Lead", starter=starter(),
                     rename=Fight.rename)
    panel.attach(page)
    return page
