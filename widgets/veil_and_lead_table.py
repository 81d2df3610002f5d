"""The Veil & Lead at the table: a party initiative roller and an attack calculator.

Each tool gathers its inputs, makes its call in :mod:`rulescore.systems.veil_and_lead` and
renders what comes back: the exact odds before the roll, the result and its explanation.
"""

from __future__ import annotations

import html
from dataclasses import replace

import ipywidgets as w

from rulescore.errors import RulesError, parse_int_text
from rulescore.systems import veil_and_lead as vl
from rulescore.text import percent

from .common import (ERROR, SUCCESS, DiceEntry, ErrorLine, ExplanationView, RollRequest, Tool,
                     answers, labelled_text, odds_table_html, parse_roster, section)
from .lean import shared_layout

STYLE = {"description_width": "13em"}


def _number(label: str, value: int, minimum: int = 0, maximum: int = 20) -> w.BoundedIntText:
    return w.BoundedIntText(value=value, min=minimum, max=maximum, description=label,
                            style=STYLE, layout=shared_layout(width="19em"))



# --- initiative ------------------------------------------------------------------------------

class PartyInitiative(Tool):
    """Initiative for a whole party and their foes: one line each, name QUICK Awareness
    [modifier], rolled with one seed or from the dice each player typed (§II)."""

    waiting_for = "the d8s"

    def __init__(self, party: str = "Ada 3 2; Bo 2 1 ambush; Bandit 2 1") -> None:
        self.party = labelled_text("Combatants", party, "name QUICK Awareness [modifier]; …",
                                   width="40em", label_width="8em")
        self.party.continuous_update = False
        self.help = w.HTML("<small>One combatant a group, separated by <code>;</code>: a name, "
                           "QUICK, Awareness and, if any, <code>ambush</code> (prepared: +2), "
                           "<code>off-guard</code> (−2) or a number (a supernatural bonus). "
                           "Ties at one tick are settled on the Count. Typed dice: every combatant's "
                           "pool in order, e.g. <code>7 3 5 | 8 2 | 1 4</code>.</small>")
        self.error = ErrorLine()
        self.odds = w.HTML()
        self.entry = DiceEntry("d8s per combatant, separated by |", each="one per combatant")
        self.result = w.HTML(self.waiting)
        self.explanation = ExplanationView()
        self.people: list[tuple[str, dict]] = []
        super().__init__([self.party, self.help, self.error,
                          section("Odds of each starting tick", self.odds),
                          section("Roll", self.entry),
                          section("Where everyone starts", self.result, self.explanation)],
                         "rulebook-vl-initiative")
        self.party.observe(lambda _: self.update(), "value")
        self.entry.on_request(self.roll)
        self.update()

    def _parse(self) -> list[tuple[str, dict]]:
        people = []
        for name, (quick, aware), mod in parse_roster(
                "Combatants", self.party.value, ("QUICK", "Awareness"), "Ada 3 2; Bandit 2 1",
                extra="an optional roll bonus"):
            setup: dict = {"quick": quick, "awareness": aware}
            if mod is None:
                pass
            elif mod.lower() == "ambush":
                setup["ambush"] = True
            elif mod.lower() in ("off-guard", "offguard"):
                setup["off_guard"] = True
            else:
                setup["supernatural"] = parse_int_text(
                    f"modifier of {name} (ambush, off-guard or a number)", mod)
            vl.plan_initiative(**setup)  # checks the ranges, naming the bad one
            people.append((name, setup))
        return people

    @answers("odds")
    def update(self) -> None:
        """Read the party; show the exact odds of each starting tick for everyone."""
        self.people = []
        self.result.value = self.waiting
        self.explanation.clear()
        self.people = self._parse()
        self.entry.groups = len(self.people)  # typed dice: one list a combatant
        rows = []
        for name, setup in self.people:
            plan = vl.plan_initiative(**setup)
            cells = " · ".join(f"Tick {t} {s}: {percent(p)}"
                               for (t, s), p in plan.odds().items())
            bonus = plan.roll_bonus
            rows.append(f"<li><b>{html.escape(name)}</b> ({plan.dice_to_roll}d8"
                        f"{f', {bonus:+d}' if bonus else ''}): {cells}</li>")
        self.odds.value = f"<ul class='rulebook-vl-init-odds'>{''.join(rows)}</ul>"

    def _dice(self, request: RollRequest) -> tuple[tuple[int, ...], ...]:
        """Everyone's d8s in party order: rolled from one seed, or the lists typed (§II)."""
        sizes = [vl.plan_initiative(**setup).dice_to_roll for _, setup in self.people]
        for (name, _), group, n in zip(self.people, request.groups, sizes):
            if len(group) != n:
                raise RulesError(f"{name} rolls {n}d8, got {len(group)} dice")
        return vl.roll_pools(request.dice, sizes)

    def roll(self, request: RollRequest) -> None:
        """Roll everyone with one seed, or read each combatant's typed dice."""
        if not self.people:
            self.entry.error.show("Fix the combatants first.")
            return
        self.entry.error.clear()
        try:
            dice = self._dice(request)
            results = [(name, vl.initiative(faces, **setup))
                       for (name, setup), faces in zip(self.people, dice)]
        except RulesError as exc:
            self.entry.error.show(str(exc))
            self.result.value = self.waiting
            self.explanation.clear()
            return
        rolled = {name: faces for (name, _), faces in zip(self.people, dice)}
        order = sorted(results, key=lambda r: (r[1].tick, -r[1].margin))
        rows = "".join(
            f"<tr><td>{html.escape(n)}</td><td>{' '.join(map(str, rolled[n]))}</td>"
            f"<td>{r.margin:+d}</td><td class='rulebook-vl-tick'><b>Tick {r.tick}</b></td>"
            f"<td>{html.escape(r.state)}</td></tr>" for n, r in order)
        how = request.describe()
        self.result.value = (
            "<table class='rulebook-vl-start'><thead><tr><th>Combatant</th><th>d8s</th>"
            "<th>Margin</th><th>Starts</th><th>State</th></tr></thead>"
            f"<tbody>{rows}</tbody></table><small>({how}; earliest tick first)</small>")
        self.explanation.show([replace(s, text=f"{name}: {s.text}")
                               for name, r in results for s in r.trace])


# --- attacks ---------------------------------------------------------------------------------

def _attack_actions() -> list[str]:
    """The actions that make an attack roll, in the tempo table's order."""
    return [n for n, a in vl.actions().items() if a.attack in ("ranged", "melee", "any")]


class AttackCalculator(Tool):
    """One attack through the nine steps of §VI: pool and TN from their parts, the exact odds
    of hitting, of each damage and of a Grievous Wound, then the roll and its explanation."""

    waiting_for = "the d8s"

    def __init__(self) -> None:
        self.attribute = _number("Attribute (QUICK or IRON)", 3, 0, 10)
        self.skill = _number("Skill", 2, 0, 10)
        self.defense = _number("Target's Defense", 10, 0, 30)
        self.weapon = w.Dropdown(options=list(vl.weapons()), value="Peacemaker",
                                 description="Weapon", style=STYLE,
                                 layout=shared_layout(width="26em"))
        self.action = w.Dropdown(options=_attack_actions(), value="Steady Shot",
                                 description="Action", style=STYLE,
                                 layout=shared_layout(width="26em"))
        self.band = w.Dropdown(options=list(vl.BANDS),
                               value="Near", description="Range band", style=STYLE,
                               layout=shared_layout(width="26em"))
        self.cover = w.Dropdown(options=list(vl.cover_names()), value="No Cover",
                                description="Target's cover", style=STYLE,
                                layout=shared_layout(width="26em"))
        self.armour = w.Dropdown(options=list(vl.armours()), value="None",
                                 description="Target's armour", style=STYLE,
                                 layout=shared_layout(width="26em"))
        self.aim = _number("Aim actions banked", 0, 0, 3)
        self.melee = w.Checkbox(value=False, description="Firing into a melee with allies",
                                style=STYLE, layout=shared_layout(width="30em"))
        self.off_hand = w.Checkbox(value=False, description="Off-hand attack (−2 dice)",
                                   style=STYLE, layout=shared_layout(width="30em"))
        self.hurt_arm = w.Checkbox(value=False,
                                   description="Attacking with an arm hit by a Called Shot",
                                   style=STYLE, layout=shared_layout(width="30em"))
        self.inputs = [self.attribute, self.skill, self.defense, self.weapon, self.action,
                       self.band, self.cover, self.armour, self.aim, self.melee, self.off_hand,
                       self.hurt_arm]
        self.error = ErrorLine()
        self.setup = w.HTML()
        self.odds = w.HTML()
        self.entry = DiceEntry("the pool's d8s, e.g. 7, 3, 5")
        self.result = w.HTML(self.waiting)
        self.explanation = ExplanationView()
        self.plan: vl.AttackPlan | None = None
        super().__init__([
            w.HBox([w.VBox(self.inputs[:6]), w.VBox(self.inputs[6:])]),
            self.error,
            section("Pool and Target Number", self.setup),
            section("Odds before you roll", self.odds),
            section("Roll", self.entry),
            section("Result", self.result, self.explanation)], "rulebook-vl-attack")
        for field in self.inputs:
            field.observe(lambda _: self.update(), "value")
        self.entry.on_request(self.roll)
        self.update()

    def _setup(self) -> dict:
        return dict(attribute=self.attribute.value, skill=self.skill.value,
                    defense=self.defense.value, weapon=self.weapon.value,
                    action=self.action.value, band=self.band.value, cover=self.cover.value,
                    ar=vl.armour(self.armour.value).ar,
                    hardened=vl.armour(self.armour.value).hardened,
                    aim_actions=self.aim.value, firing_into_melee=self.melee.value,
                    off_hand=self.off_hand.value,
                    attacker_conditions=["Arm Hit"] if self.hurt_arm.value else [])

    @answers("setup", "odds")
    def update(self) -> None:
        """Plan the attack and show its exact odds."""
        self.plan = None
        self.result.value = self.waiting
        self.explanation.clear()
        self.plan = vl.plan_attack(**self._setup())
        odds = self.plan.odds()
        plan = self.plan
        self.setup.value = (
            f"<p class='rulebook-vl-setup'>Roll <b>{plan.dice_to_roll}d8</b>, keep the two "
            f"highest{f', {plan.roll_bonus:+d}' if plan.roll_bonus else ''}, against "
            f"<b>TN {plan.tn}</b>. Tempo {plan.tempo}"
            f"{' — Exposed afterwards' if plan.exposed_after else ''}.</p>")
        damage = [(f"{v} damage" if v else "0 (miss or absorbed)", p)
                  for v, p in odds.damage.items()]
        self.odds.value = (
            f"<p class='rulebook-vl-odds'>Hit: <b>{percent(odds.p_hit)}</b> "
            f"({odds.p_hit}) · near miss: {percent(odds.p_near_miss)} · target Suppressed "
            f"(a near miss from gunfire): {percent(odds.p_suppressed)} · "
            f"Grievous Wound: {percent(odds.p_grievous)}</p>"
            + odds_table_html(damage, "Damage"))

    def roll(self, request: RollRequest) -> None:
        """Roll the pool with a seed, or read the typed dice, and resolve the attack."""
        if self.plan is None:
            self.entry.error.show("Fix the attack first.")
            return
        try:
            (dice,) = vl.roll_pools(request.dice, (self.plan.dice_to_roll,))
            result = vl.attack(dice, **self._setup())
        except RulesError as exc:
            self.entry.error.show(str(exc))
            self.result.value = self.waiting
            self.explanation.clear()
            return
        colour = SUCCESS if result.hit else ERROR
        said = ("Hit" if result.hit else "Near miss — the target is Suppressed"
                if result.suppresses else "Near miss" if result.near_miss else "Miss")
        extra = " — <b>Grievous Wound</b>" if result.grievous else ""
        risk = " — the shot may strike an ally (roll a d6)" if result.ally_risk else ""
        how = request.describe()
        self.result.value = (
            f"<div class='rulebook-vl-result' style='color:{colour};font-weight:600'>"
            f"{said}: dice {', '.join(map(str, result.dice))} → {result.final_sum} vs TN "
            f"{result.tn}, margin {result.margin:+d}, {result.steps} Step(s), "
            f"{result.damage} damage{extra}{risk}</div><small>({how})</small>")
        self.explanation.show(result.trace)


# --- injury and death --------------------------------------------------------------------------

class DownedWalker(Tool):
    """A character's health track at the table: Grievous Wounds from the d8 table, Bleeding Out
    turn by turn towards the death threshold, and stabilisation attempts with their exact odds
    (§VIII–§X)."""

    def __init__(self, iron: int = 1, vitality: int = 0) -> None:
        self.iron = _number("IRON", iron, 0, 10)
        self.vitality = w.IntText(value=vitality, description="Vitality now", style=STYLE,
                                  layout=shared_layout(width="19em"))
        self.pool = _number("Healer's Medicine dice", 3, 0, 12)
        self.kit = w.Checkbox(value=False, description="Medical kit (+2)", indent=False,
                              layout=shared_layout(width="14em", margin="0 0 0 1em"))
        self.wound_roll = _number("Grievous Wound d8", 1, 1, 8)
        self.wound_button = w.Button(description="Read the wound",
                                     layout=shared_layout(width="auto"))
        self.bleed_button = w.Button(description="Start of turn: bleed 1",
                                     layout=shared_layout(width="auto"))
        self.error = ErrorLine()
        self.status = w.HTML()
        self.odds = w.HTML()
        self.entry = DiceEntry("the healer's d8s, e.g. 3, 5, 8")
        self.result = w.HTML()
        self.explanation = ExplanationView()
        super().__init__([
            w.HBox([w.VBox([self.iron, self.vitality]), w.VBox([self.pool, self.kit])]),
            self.error,
            section("Where they stand", self.status),
            section("A Grievous Wound", w.HBox([self.wound_roll, self.wound_button])),
            section("Bleeding out", w.HBox([self.bleed_button])),
            section("Stabilising them: odds of one attempt", self.odds),
            section("Stabilisation roll", self.entry),
            section("What happened", self.result, self.explanation)], "rulebook-vl-downed")
        for field in (self.iron, self.vitality, self.pool, self.kit):
            field.observe(lambda _: self.update(), "value")
        self.wound_button.on_click(lambda _: self.read_wound())
        self.bleed_button.on_click(lambda _: self.bleed())
        self.entry.on_request(self.stabilise)
        self.update()

    @answers("status", "odds")
    def update(self) -> None:
        """The health state, the death threshold, the turns left and the exact odds."""
        state = vl.health_state(self.vitality.value, self.iron.value)
        dies_at = vl.death_threshold(self.iron.value)
        left = vl.turns_to_death(self.vitality.value, self.iron.value)
        tn = vl.stabilization_tn(self.vitality.value)
        p = vl.stabilization_probability(self.pool.value, self.vitality.value,
                                         medical_kit=self.kit.value)
        full = vl.vitality(self.iron.value)
        self.status.value = (
            f"<p class='rulebook-vl-status'><b>{state}</b> at Vitality {self.vitality.value} "
            f"of {full}; Wounded at half or less, Downed at 0, dead at {dies_at}. "
            + (f"Bleeding out, they survive <b>{left}</b> more start-of-turn losses"
               f"{' (the last one kills)' if left else ''}." if state != "Dead" else "")
            + "</p>")
        self.odds.value = (f"<p class='rulebook-vl-stab-odds'>TN {tn}: one attempt with "
                           f"{self.pool.value}d8{' and a kit' if self.kit.value else ''} "
                           f"succeeds <b>{percent(p)}</b> ({p}).</p>")

    @answers()
    def read_wound(self) -> None:
        """The Grievous Wound table row for the d8."""
        wound = vl.grievous_wound(self.wound_roll.value)
        self._show(f"Grievous Wound: {wound.outcome}", wound.trace)

    @answers()
    def bleed(self) -> None:
        """One start-of-turn loss while Bleeding Out."""
        lost = vl.bleed_out_turn(self.vitality.value, self.iron.value)
        self.vitality.value = lost.value
        self._show(f"Bleeding out: Vitality {lost.value}, {lost.state}", lost.trace)

    def stabilise(self, request: RollRequest) -> None:
        """A Medicine check to stop the bleeding, rolled with a seed or typed."""
        try:
            request.expect_typed(self.pool.value,
                                 f"{self.pool.value} d8 (the healer's Medicine dice)")
            (dice,) = vl.roll_pools(request.dice, (self.pool.value,))
            done = vl.stabilize(dice, self.vitality.value, medical_kit=self.kit.value)
        except RulesError as exc:
            self.entry.error.show(str(exc))
            return
        how = request.describe()
        said = ("Stabilised" if done.stabilized else
                f"Fumble — the patient loses 1 more Vitality, now {done.value}" if done.fumble
                else "Still bleeding")
        if done.fumble:
            self.vitality.value = done.value
        self._show(f"{said}: dice {', '.join(map(str, dice))}, TN {done.tn}, margin "
                   f"{done.margin:+d} ({how})", done.trace)

    def _show(self, headline: str, trace) -> None:
        self.result.value = (f"<div class='rulebook-vl-downed-result' style='font-weight:600'>"
                             f"{html.escape(headline)}</div>")
        self.explanation.show(trace)


# --- the Horde ---------------------------------------------------------------------------------

class HordeCalculator(Tool):
    """A Horde as one token (§XIII The Horde): its volley pool and tempo, the exact chance its
    volley hits a target, and what one hit on it kills — and whether it breaks."""

    def __init__(self, base_pool: int = 4, size: int = 6) -> None:
        self.base = _number("Base creature's pool", base_pool, 0, 20)
        self.size = _number("Horde size", size, 0, 30)
        self.kind = w.Dropdown(options=[("Firing Line (ranged)", "ranged"),
                                        ("Swarm (melee)", "melee")], value="ranged",
                               description="Kind", style=STYLE, layout=shared_layout(width="26em"))
        self.target_tn = _number("Target's TN", 11, 0, 40)
        self.margin = _number("Hit's margin", 1, 0, 40)
        self.wr = _number("Weapon's WR", 4, 0, 10)
        self.mass = w.Checkbox(value=False, description="Scatter or Blast weapon", indent=False,
                               layout=shared_layout(width="18em", margin="0 0 0 1em"))
        self.error = ErrorLine()
        self.volley = w.HTML()
        self.result = w.HTML()
        self.explanation = ExplanationView()
        super().__init__([
            w.HBox([w.VBox([self.base, self.size, self.kind, self.target_tn]),
                    w.VBox([self.margin, self.wr, self.mass])]),
            self.error, section("The Horde's volley", self.volley),
            section("A hit on the Horde", self.result, self.explanation)], "rulebook-vl-horde")
        for field in (self.base, self.size, self.kind, self.target_tn, self.margin, self.wr,
                      self.mass):
            field.observe(lambda _: self.update(), "value")
        self.update()

    @answers("volley", "result", "explanation")
    def update(self) -> None:
        """Recompute the pool, tempo, volley odds and the casualties of the hit."""
        pool = vl.horde_pool(self.base.value, self.size.value)
        tempo = vl.horde_tempo(self.kind.value)
        p = vl.hit_probability(pool, self.target_tn.value)
        hit = vl.horde_casualties(self.margin.value, self.wr.value, self.size.value,
                                  mass_destruction=self.mass.value)
        self.volley.value = (f"<p class='rulebook-vl-horde-volley'>Pool {self.base.value} + "
                             f"size {self.size.value} = <b>{pool}d8</b>, tempo {tempo}; against "
                             f"TN {self.target_tn.value} it hits <b>{percent(p)}</b> ({p}).</p>")
        broke = (" — the Horde <b>breaks</b>: replace it with 2 ordinary NPCs"
                 if hit.broken else "")
        self.result.value = (f"<p class='rulebook-vl-horde-hit'><b>{hit.value} casualties</b>: "
                             f"size {self.size.value} → {hit.size}{broke}</p>")
        self.explanation.show(hit.trace)
