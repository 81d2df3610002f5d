"""The Veil & Lead at the table: a party initiative roller, an attack calculator, the Downed
walker, first aid, coup de grâce and the Horde.

Each tool gathers its inputs, makes its call in :mod:`rulescore.systems.veil_and_lead` and
renders what comes back: the exact odds before the roll, the result and its explanation. Each
lists in ``reaches`` the engine calls it makes and the field that fills every argument.
"""

from __future__ import annotations

import html
from dataclasses import replace
from typing import ClassVar

import ipywidgets as w

from rulescore.errors import RulesError
from rulescore.roster import Fighter, Roster
from rulescore.systems import veil_and_lead as vl
from rulescore.systems.veil_and_lead.records import (called_locations, grievous_by_name,
                                                     treatable_wounds)
from rulescore.trace import cite_rulings

from .common import (ERROR, SUCCESS, DiceEntry, ErrorLine, ExplanationView, Reach,
                     RollRequest, Tool, answers, button, chance_html, fit_labels, labelled_text,
                     new_seed, odds_line, odds_table_html, section)
from .lean import built_whole, set_shown, shared_layout
from .roster import EMPTY_HINT, FighterPick, RosterEditor, shared_roster

STYLE = {"description_width": "13em"}


def _number(label: str, value: int, minimum: int = 0, maximum: int = 20) -> w.BoundedIntText:
    return w.BoundedIntText(value=value, min=minimum, max=maximum, description=label,
                            style=STYLE, layout=shared_layout(width="19em"))


def _menu(label: str, options, value) -> w.Dropdown:
    return w.Dropdown(options=options, value=value, description=label, style=STYLE,
                      layout=shared_layout(width="26em"))


def _check(label: str) -> w.Checkbox:
    return w.Checkbox(value=False, description=label, indent=False,
                      layout=shared_layout(width="30em"))


# --- initiative ------------------------------------------------------------------------------

SITUATIONS = (("—", ""), ("Prepared ambush (+2)", "ambush"),
              ("Caught off-guard (−2)", "off_guard"))
"""A fighter's situation at the start of a fight, as the initiative roll takes it (§II)."""
_ROW_WHY = "the fighter's row in the roster above"
#: Inputs our rulings fix, each named by its title in the rulings chapter (never its id).
POOL_RULING = "a pool rolls the dice it has: " + cite_rulings("veil_and_lead", ["small_pools"])
HEALER_RULING = cite_rulings("veil_and_lead", ["healer_attribute"])
FUMBLE_RULING = "every die a 1: " + cite_rulings("veil_and_lead", ["fumble"])


class PartyInitiative(Tool):
    """Initiative for every fighter of the roster: each one's QUICK, Awareness and armour from
    their row, a situation and a supernatural bonus beside their name, rolled with one seed or
    from the dice each player typed (§II)."""

    waiting_for = "the d8s"
    _ROW: ClassVar[dict[str, str]] = {
        "quick": _ROW_WHY, "awareness": _ROW_WHY, "armour": _ROW_WHY,
        "ambush": "the Situation menu on each fighter's line",
        "off_guard": "the Situation menu on each fighter's line",
        "supernatural": "the Supernatural bonus on each fighter's line",
        "fatigued": "not asked here: the fight page keeps each fighter's Strain",
        "small_pool": POOL_RULING}
    reaches = (
        Reach(vl.plan_initiative, {}, _ROW),
        Reach(vl.roll_pools, {"dice": "My dice"},
              {"pools": "one pool a fighter of the roster",
               "names": "typed dice come as one list a fighter, whose length is checked "
                        "against that fighter's pool first, naming them"}),
        Reach(vl.initiative, {}, {
            **_ROW, "faces": "each fighter's pool, drawn from the Roll / My dice row",
            "dice": "the whole party rolls from one seed or one typed line, so the pools are "
                    "drawn together first",
            "bleed": "Bleed Dice are left out: their cost is in another book"}),
    )

    def __init__(self, fighters: RosterEditor | None = None) -> None:
        """*fighters*: the roster read (the chapter's shared one unless given)."""
        self.editor = fighters if fighters is not None else shared_roster("veil_and_lead")
        self.lines: dict[str, tuple[w.HTML, w.Dropdown, w.BoundedIntText]] = {}
        self.party = w.VBox(layout=shared_layout(margin="0 0 .3em 0"))
        self.hint = w.HTML(f"<small>{html.escape(EMPTY_HINT)}</small>")
        self.help = w.HTML("<small>Each fighter of the roster rolls QUICK + Awareness (their "
                           "row). Ties at one tick are settled on the Count. Typed dice: every "
                           "fighter's pool in the roster's order, e.g. "
                           "<code>7 3 5 | 8 2 | 1 4</code>.</small>")
        self.error = ErrorLine()
        self.odds = w.HTML()
        self.entry = DiceEntry("d8s per fighter, separated by |", each="one per fighter")
        self.result = w.HTML(self.waiting)
        self.explanation = ExplanationView()
        self.people: list[tuple[str, dict]] = []
        super().__init__([self.hint, self.party, self.help, self.error,
                          section("Odds of each starting tick", self.odds),
                          section("Roll", self.entry),
                          section("Where everyone starts", self.result, self.explanation)],
                         "rulebook-vl-initiative")
        self.editor.on_change(self._follow)
        self.entry.on_request(self.roll)
        self._follow(self.editor.roster)

    @built_whole
    def _line(self, name: str) -> tuple[w.HTML, w.Dropdown, w.BoundedIntText]:
        """A fighter's line: their name and numbers, their situation, a supernatural bonus."""
        situation = w.Dropdown(options=SITUATIONS, value="", description=f"Situation of {name}",
                               style={"description_width": "0"},
                               layout=shared_layout(width="14em"))
        bonus = w.BoundedIntText(value=0, min=-10, max=10,
                                 description=f"Supernatural bonus of {name}",
                                 style={"description_width": "0"},
                                 layout=shared_layout(width="4.5em"))
        for field in (situation, bonus):
            field.observe(lambda _: self.update(), "value")
        return w.HTML(), situation, bonus

    def _follow(self, roster: Roster) -> None:
        """The roster changed: one line a fighter (a renamed one keeps their situation)."""
        rename = self.editor.last_rename
        if rename is not None and rename[0] in self.lines and rename[1] not in self.lines:
            self.lines[rename[1]] = self.lines.pop(rename[0])
        names = roster.names()
        rows = []
        for name in names:
            if name not in self.lines:
                self.lines[name] = self._line(name)
            label, situation, bonus = self.lines[name]
            row = roster.fighter(name)
            label.value = (f"<b>{html.escape(name)}</b> <small>QUICK {row['quick']}, "
                           f"Awareness {row['awareness']}"
                           + (f", {html.escape(str(row['armour']))}"
                              if row["armour"] != "None" else "") + "</small>")
            situation.description = f"Situation of {name}"
            bonus.description = f"Supernatural bonus of {name}"
            rows.append(w.HBox([w.Box([label], layout=shared_layout(width="22em")),
                                situation, bonus],
                               layout=shared_layout(align_items="center")))
        self.party.children = rows
        set_shown(self.hint, not names)
        set_shown(self.party, bool(names))
        self.update()

    def _parse(self) -> list[tuple[str, dict]]:
        people = []
        for fighter in self.editor.roster.fighters:
            _, situation, bonus = self.lines[fighter.name]
            setup: dict = {"quick": fighter["quick"], "awareness": fighter["awareness"],
                           "armour": fighter["armour"]}
            if situation.value:
                setup[situation.value] = True
            if bonus.value:
                setup["supernatural"] = bonus.value
            vl.plan_initiative(**setup)  # checks the ranges, naming the bad one
            people.append((fighter.name, setup))
        return people

    @answers("odds")
    def update(self) -> None:
        """Read the party; show the exact odds of each starting tick for everyone."""
        self.people = []
        self.result.value = self.waiting
        self.explanation.clear()
        self.people = self._parse()
        self.entry.groups = max(len(self.people), 1)  # typed dice: one list a combatant
        rows = []
        for name, setup in self.people:
            plan = vl.plan_initiative(**setup)
            cells = " · ".join(f"Tick {t} {s}: {chance_html(p)}"
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
            self.entry.error.show(f"{EMPTY_HINT}.")
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
            "<table class='rulebook-vl-start'><thead><tr><th>Fighter</th><th>d8s</th>"
            "<th>Margin</th><th>Starts</th><th>State</th></tr></thead>"
            f"<tbody>{rows}</tbody></table><small>({how}; earliest tick first)</small>")
        self.explanation.show([replace(s, text=f"{name}: {s.text}")
                               for name, r in results for s in r.trace])


# --- attacks ---------------------------------------------------------------------------------

def _attack_actions() -> list[str]:
    """The actions that make an attack roll, in the tempo table's order."""
    return [n for n, a in vl.actions().items() if a.attack in ("ranged", "melee", "any")]


#: The attacker's conditions offered, each with what it does to the attack (§XI, §VIII, §IX).
ATTACKER_CONDITIONS = (
    ("Wounded (−1 die)", "Wounded"), ("Suppressed (−2 dice)", "Suppressed"),
    ("Prone (−2 dice in melee)", "Prone"), ("Engaged (−2 dice on shots)", "Engaged"),
    ("Blinded (−4 dice)", "Blinded"), ("Grappled (light weapons only)", "Grappled"),
    ("Arm Hit: the hurt arm holds the weapon (−2 dice)", "Arm Hit"),
    ("Flesh Wound (−1 die)", "Flesh Wound"))
#: The target's conditions offered, each with what it does to the TN (§II, §III, §XI).
TARGET_CONDITIONS = (("Prone (melee TN −2, shots TN +2)", "Prone"),
                     ("Surprised (TN −2)", "Surprised"), ("Exposed (TN −1)", "Exposed"),
                     ("Scrambling (TN +1)", "Scrambling"))
SMALL_POOLS = (("A pool of 0 rolls no dice; 1 die counts alone", "literal"),
               ("Every check rolls at least 2 dice", "floor_two"))
EXPOSURE = (("By tempo (3 or less exposes)", "by_tempo"),
            ("As each action prints it", "as_printed"))
STANDARD_ATTACK = {"ranged": "Steady Shot", "melee": "Strike"}
"""The attack a filled-in weapon switches to when the action chosen is of the other kind."""


class AttackCalculator(Tool):
    """One attack through the nine steps of §VI: pool and TN from their parts, the exact odds
    of hitting, of each damage and of a Grievous Wound, then the roll and its explanation."""

    waiting_for = "the d8s"
    _FIELDS: ClassVar[dict[str, str]] = {
        "attribute": "Attribute (QUICK or IRON)", "skill": "Skill",
        "defense": "Target's Defense", "weapon": "Weapon", "action": "Action",
        "band": "Range band", "cover": "Target's cover",
        "attacker_conditions": "Attacker's conditions",
        "target_conditions": "Target's conditions",
        "pool_penalty": "Other pool penalties (dice)", "tn_modifier": "Other TN modifiers",
        "roll_bonus": "Roll bonus (fine weapon, etc.)", "aim_actions": "Aim actions banked",
        "ar": "Target's armour", "critical": "Critical bonus (Steps)",
        "step_modifier": "Other Steps (+ or −)", "damage_bonus": "Damage bonus",
        "hardened": "Target's armour",
        "hardened_spent": "Hardened armour already spent this scene",
        "firing_into_melee": "Firing into a melee with allies",
        "braced": "Braced (a Prone shooter, +1)", "called_location": "Called Shot at",
        "stationary_target": "Target stationary (Point-Blank cannot miss)",
        "small_pool": "Small pools", "exposure": "Exposure rule",
        "off_hand": "Off-hand attack (−2 dice)"}
    _TARGET_ROW = "the target's row in the roster (Fill target from fighter)"
    reaches = (
        Reach(vl.defense, {}, {"quick": _TARGET_ROW, "savvy": _TARGET_ROW,
                               "equipment": "the target's Defense bonus and armour, from "
                                            "their row"}),
        Reach(vl.plan_attack, _FIELDS, {
            "horde_size": "one attacker here; a Horde's volley is the Horde tool's, below"}),
        Reach(vl.attack, {"dice": "My dice"}, {
            "faces": "drawn from the Roll / My dice row",
            "bleed": "Bleed Dice are left out: their cost is in another book (see the "
                     "rulings)",
            "backlash_rule": "Bleed Dice are left out, so there is no Backlash to judge"}),
    )

    def __init__(self) -> None:
        number = _number
        self.attacker_pick = FighterPick("veil_and_lead", self.fill_attacker,
                                         label="Fill attacker from fighter")
        self.target_pick = FighterPick("veil_and_lead", self.fill_target,
                                       label="Fill target from fighter", hint=False)
        self.attribute = number("Attribute (QUICK or IRON)", 3, 0, 10)
        self.skill = number("Skill", 2, 0, 10)
        self.weapon = _menu("Weapon", list(vl.weapons()), "Peacemaker")
        self.action = _menu("Action", _attack_actions(), "Steady Shot")
        self.location = _menu("Called Shot at", list(called_locations()), "Head")
        self.aim = number("Aim actions banked", 0, 0, 3)
        self.roll_bonus = number("Roll bonus (fine weapon, etc.)", 0, -10, 10)
        self.critical = number("Critical bonus (Steps)", 0, 0, 5)
        self.pool_penalty = number("Other pool penalties (dice)", 0, 0, 5)
        self.step_modifier = number("Other Steps (+ or −)", 0, -5, 5)
        self.damage_bonus = number("Damage bonus", 0, -10, 10)
        self.mine = w.SelectMultiple(options=ATTACKER_CONDITIONS, value=(),
                                     description="Attacker's conditions", rows=8, style=STYLE,
                                     layout=shared_layout(width="30em"))
        self.braced = _check("Braced (a Prone shooter, +1)")
        self.off_hand = _check("Off-hand attack (−2 dice)")
        self.melee = _check("Firing into a melee with allies")
        self.defense = number("Target's Defense", 10, 0, 30)
        self.band = _menu("Range band", list(vl.BANDS), "Near")
        self.cover = _menu("Target's cover", list(vl.cover_names()), "No Cover")
        self.armour = _menu("Target's armour", list(vl.armours()), "None")
        self.spent = _check("Hardened armour already spent this scene")
        self.theirs = w.SelectMultiple(options=TARGET_CONDITIONS, value=(),
                                       description="Target's conditions", rows=4, style=STYLE,
                                       layout=shared_layout(width="30em"))
        self.stationary = _check("Target stationary (Point-Blank cannot miss)")
        self.tn_modifier = number("Other TN modifiers", 0, -10, 10)
        self.small_pool = _menu("Small pools", SMALL_POOLS, "literal")
        self.exposure = _menu("Exposure rule", EXPOSURE, "by_tempo")
        attacker = [self.attribute, self.skill, self.weapon, self.action, self.location,
                    self.aim, self.roll_bonus, self.critical, self.pool_penalty,
                    self.step_modifier, self.damage_bonus, self.mine, self.braced,
                    self.off_hand, self.melee]
        target = [self.defense, self.band, self.cover, self.armour, self.spent, self.theirs,
                  self.stationary, self.tn_modifier, self.small_pool, self.exposure]
        self.inputs = attacker + target
        self.error = ErrorLine()
        self.setup = w.HTML()
        self.odds = w.HTML()
        self.entry = DiceEntry("the pool's d8s, e.g. 7, 3, 5")
        self.result = w.HTML(self.waiting)
        self.explanation = ExplanationView()
        self.plan: vl.AttackPlan | None = None
        super().__init__([
            w.HBox([self.attacker_pick, self.target_pick]),
            w.HBox([w.VBox([w.HTML("<b>The attacker</b>"), *attacker]),
                    w.VBox([w.HTML("<b>The target and the rulings</b>"), *target])]),
            self.error,
            section("Pool and Target Number", self.setup),
            section("Odds before you roll", self.odds),
            section("Roll", self.entry),
            section("Result", self.result, self.explanation)], "rulebook-vl-attack")
        for field in self.inputs:
            field.observe(lambda _: self.update(), "value")
        self.entry.on_request(self.roll)
        self.update()

    def fill_attacker(self, row: Fighter) -> None:
        """The attacker's row: the attribute their weapon attacks with, its skill, the weapon
        (an action it can make), its roll bonus; a melee weapon strikes at Point-Blank."""
        self.attribute.value = row[str(row["weapon_attribute"]).lower()]
        self.skill.value = row["weapon_skill"]
        self.roll_bonus.value = row["weapon_bonus"]
        kind = vl.weapon(str(row["weapon"])).kind
        if kind == "melee":
            self.band.value = "Point-Blank"
        if vl.actions()[self.action.value].attack not in (kind, "any"):
            self.action.value = STANDARD_ATTACK[kind]
        self.weapon.value = row["weapon"]

    def fill_target(self, row: Fighter) -> None:
        """The target's row: Defense (8 + the higher of QUICK and SAVVY + Defense bonus and
        armour, §VI Defense Rating) and armour."""
        worn = vl.armour(str(row["armour"]))
        self.defense.value = vl.defense(row["quick"], row["savvy"],
                                        row["defense_bonus"] + worn.defense_modifier)
        self.armour.value = worn.name

    def _setup(self) -> dict:
        """The attack's inputs, by the engine's names (see :attr:`reaches`)."""
        worn = vl.armour(self.armour.value)
        called = self.action.value == "Called Shot"
        return dict(attribute=self.attribute.value, skill=self.skill.value,
                    defense=self.defense.value, weapon=self.weapon.value,
                    action=self.action.value, band=self.band.value, cover=self.cover.value,
                    attacker_conditions=list(self.mine.value),
                    target_conditions=list(self.theirs.value),
                    pool_penalty=self.pool_penalty.value, tn_modifier=self.tn_modifier.value,
                    roll_bonus=self.roll_bonus.value, aim_actions=self.aim.value,
                    ar=worn.ar, critical=self.critical.value,
                    step_modifier=self.step_modifier.value,
                    damage_bonus=self.damage_bonus.value, hardened=worn.hardened,
                    hardened_spent=self.spent.value, firing_into_melee=self.melee.value,
                    braced=self.braced.value,
                    called_location=self.location.value if called else None,
                    stationary_target=self.stationary.value,
                    small_pool=self.small_pool.value, exposure=self.exposure.value,
                    off_hand=self.off_hand.value)

    @answers("setup", "odds")
    def update(self) -> None:
        """Plan the attack and show its exact odds."""
        self.plan = None
        self.result.value = self.waiting
        self.explanation.clear()
        self.entry.error.clear()
        set_shown(self.location, self.action.value == "Called Shot")
        set_shown(self.spent, vl.armour(self.armour.value).hardened)
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
            odds_line("rulebook-vl-odds",
                      f"Hit: {chance_html(odds.p_hit, strong=True)} · near miss: "
                      f"{chance_html(odds.p_near_miss)} · target Suppressed (a near miss from "
                      f"gunfire): {chance_html(odds.p_suppressed)} · Grievous Wound: "
                      f"{chance_html(odds.p_grievous)}") + odds_table_html(damage, "Damage"))

    def roll(self, request: RollRequest) -> None:
        """Resolve the attack with the dice of the Roll / My dice row."""
        if self.plan is None:
            self.entry.error.show("Fix the attack first.")
            return
        try:
            result = vl.attack(dice=request.dice, **self._setup())
        except RulesError as exc:
            self.entry.error.show(str(exc))
            self.result.value = self.waiting
            self.explanation.clear()
            return
        colour = SUCCESS if result.hit else ERROR
        said = ("Hit" if result.hit else "Near miss — the target is Suppressed"
                if result.suppresses else "Near miss" if result.near_miss else "Miss")
        extra = (" — <b>Grievous Wound</b>" if result.grievous else
                 " — Hardened armour negates the Grievous Wound (spent for this scene)"
                 if result.grievous_negated else "")
        risk = " — the shot may strike an ally (roll a d6)" if result.ally_risk else ""
        effect = f" — {html.escape(result.effect)}" if result.effect else ""
        steps = f"{result.steps} Step{'' if result.steps == 1 else 's'}"
        self.result.value = (
            f"<div class='rulebook-vl-result' style='color:{colour};font-weight:600'>"
            f"{said}: dice {', '.join(map(str, result.dice))} → {result.final_sum} against TN "
            f"{result.tn}, margin {result.margin:+d}, {steps}, {result.damage} damage"
            f"{extra}{risk}{effect}</div><small>({request.describe()})</small>")
        self.explanation.show(result.trace)


# --- injury and death --------------------------------------------------------------------------

NO_LIMB = "No Called Shot at a limb"


class DownedWalker(Tool):
    """A character's health track at the table: Grievous Wounds from the d8 table, Bleeding Out
    turn by turn towards the death threshold, and stabilisation attempts with their exact odds
    (§VIII–§X)."""

    waiting_for = "the healer's d8s"
    _STATE: ClassVar[dict[str, str]] = {"vitality": "Vitality now", "iron": "IRON"}
    reaches = (
        Reach(vl.health_state, _STATE), Reach(vl.death_threshold, {"iron": "IRON"}),
        Reach(vl.turns_to_death, _STATE), Reach(vl.vitality, {"iron": "IRON"}),
        Reach(vl.stabilization_tn, {"vitality": "Vitality now"}),
        Reach(vl.stabilization_probability, {
            "pool": "Healer's Medicine dice", "vitality": "Vitality now",
            "medical_kit": "Medical kit (+2)", "roll_bonus": "Healer's other roll bonus"},
            {"small_pool": POOL_RULING}),
        Reach(vl.rescue_probability, {
            "pool": "Healer's Medicine dice", "vitality": "Vitality now", "iron": "IRON",
            "medical_kit": "Medical kit (+2)", "roll_bonus": "Healer's other roll bonus"}),
        Reach(vl.grievous_wound, {"roll": "Grievous Wound d8",
                                  "called_limb": "Called Shot at a limb"},
              {"dice": "the Roll the d8 button's seed (a d8 rolled at the table goes in the "
                       "Grievous Wound d8 field)"}),
        Reach(vl.bleed_out_turn, _STATE),
        Reach(vl.healer_pool, {}, {
            "attribute": "the healer's SAVVY, from their row: " + HEALER_RULING,
            "medicine": "the healer's Medicine, from their row"}),
        Reach(vl.stabilize, {
            "vitality": "Vitality now", "medical_kit": "Medical kit (+2)",
            "roll_bonus": "Healer's other roll bonus", "dice": "My dice",
            "pool": "Healer's Medicine dice"},
            {"faces": "drawn from the Roll / My dice row",
             "fumble": "read from the dice: every die a 1 is a fumble",
             "fumble_rule": FUMBLE_RULING}),
    )

    def __init__(self, iron: int = 1, vitality: int = 0) -> None:
        self.patient_pick = FighterPick("veil_and_lead", self.fill_patient,
                                        label="Fill patient from fighter")
        self.healer_pick = FighterPick("veil_and_lead", self.fill_healer,
                                       label="Fill healer from fighter", hint=False)
        self.iron = _number("IRON", iron, 0, 10)
        self.vitality = w.IntText(value=vitality, description="Vitality now", style=STYLE,
                                  layout=shared_layout(width="19em"))
        self.arterial = _check("Bleeding out from an Arterial Hit")
        self.stable = _check("Stabilised (the bleeding has stopped)")
        self.pool = _number("Healer's Medicine dice", 3, 0, 12)
        self.kit = _check("Medical kit (+2)")
        self.bonus = _number("Healer's other roll bonus", 0, -10, 10)
        # The Grievous Wound's fields are built when the reader first opens them: most visits
        # to the chapter never roll one, and they would cost every visit seven models.
        self._wound_rows: tuple[w.HBox, w.HBox] | None = None
        self.wound_open = button("A Grievous Wound: read the d8", "Open the Grievous Wound "
                                 "table: type the d8 or roll it")
        self.bleed_button = button("Start of turn: bleed 1")
        for alone in (self.wound_open, self.bleed_button):   # a button of its own line
            alone.layout = shared_layout(width="auto", align_self="flex-start")
        self.error = ErrorLine()
        self.status = w.HTML()
        self.odds = w.HTML()
        self.entry = DiceEntry("the healer's d8s, e.g. 3, 5, 8")
        self.result = w.HTML()
        self.explanation = ExplanationView()
        super().__init__([
            w.HBox([self.patient_pick, self.healer_pick]),
            w.HBox([w.VBox([self.iron, self.vitality, self.arterial, self.stable]),
                    w.VBox([self.pool, self.kit, self.bonus])]),
            self.error,
            section("Where they stand", self.status),
            section("A Grievous Wound", self.wound_open),
            section("Bleeding out", self.bleed_button),
            section("Stabilising them: the odds of one attempt, then the roll", self.odds,
                    self.entry),
            section("What happened", self.result, self.explanation)], "rulebook-vl-downed")
        for field in (self.iron, self.vitality, self.arterial, self.stable, self.pool, self.kit,
                      self.bonus):
            field.observe(lambda _: self.update(), "value")
        self.wound_open.on_click(lambda _: self.open_wound())
        self.bleed_button.on_click(lambda _: self.bleed())
        self.entry.on_request(self.stabilise)
        self.update()

    def _state(self) -> str:
        return vl.health_state(self.vitality.value, self.iron.value)

    def open_wound(self) -> None:
        """Show the Grievous Wound's d8 field, limb menu and buttons in place of the button
        that opens them (built the first time)."""
        if self._wound_rows is None:
            self._wound_rows = self._build_wound()
            at = self.children.index(self.wound_open)
            self.children = (*self.children[:at], *self._wound_rows, *self.children[at + 1:])

    @built_whole
    def _build_wound(self) -> tuple[w.HBox, w.HBox]:
        self._wound_roll = _number("Grievous Wound d8", 1, 1, 8)
        self._limb_menu = _menu("Called Shot at a limb", [NO_LIMB, "Arm/Hand", "Leg"], NO_LIMB)
        self._wound_button = button("Read the wound", "Read the d8 typed in the field")
        self._wound_roll_button = button("Roll the d8", "Roll the Grievous Wound d8 with a new "
                                         "random seed", primary=True)
        self._wound_button.on_click(lambda _: self.read_wound())
        self._wound_roll_button.on_click(lambda _: self.roll_wound())
        rows = (w.HBox([self._wound_roll, self._limb_menu]),
                w.HBox([self._wound_roll_button, self._wound_button]))
        for row in rows:
            fit_labels(row)
        return rows

    @property
    def wound_roll(self) -> w.BoundedIntText:
        """The Grievous Wound d8 field (opens the wound's fields)."""
        self.open_wound()
        return self._wound_roll

    @property
    def limb(self) -> w.Dropdown:
        self.open_wound()
        return self._limb_menu

    @property
    def wound_button(self) -> w.Button:
        self.open_wound()
        return self._wound_button

    @property
    def wound_roll_button(self) -> w.Button:
        self.open_wound()
        return self._wound_roll_button

    def _bleeding(self, state: str) -> bool:
        """Whether the character is Bleeding Out: Downed, or hit in an artery (§X, §IX), and
        not yet stabilised (§X Stabilization: success stops the bleeding)."""
        if state == "Dead" or self.stable.value:
            return False
        return state == "Downed" or self.arterial.value

    @answers("status", "odds")
    def update(self) -> None:
        """The health state, the death threshold, the turns left and the exact odds."""
        self.entry.error.clear()
        state = self._state()
        dies_at = vl.death_threshold(self.iron.value)
        full = vl.vitality(self.iron.value)
        head = (f"<b>{state}</b> at Vitality {self.vitality.value} of {full}; Wounded at half "
                f"or less, Downed at 0, dead at {dies_at}.")
        if state == "Dead":
            said = " Nothing more can be done for them."
        elif self.stable.value:
            said = " Stabilised: the bleeding has stopped; they lose no more Vitality."
        elif self._bleeding(state):
            left = vl.turns_to_death(self.vitality.value, self.iron.value)
            said = (f" Bleeding out: they survive <b>{left}</b> more start-of-turn "
                    f"{'loss' if left == 1 else 'losses'} (the last one kills).")
        else:
            said = (" Not bleeding out: that starts at 0 Vitality, or at once with an Arterial "
                    "Hit (a Grievous Wound d8 of 8).")
        self.status.value = f"<p class='rulebook-vl-status'>{head}{said}</p>"
        if not self._bleeding(state):
            self.odds.value = ("<p class='rulebook-vl-stab-odds'>" + (
                "The character is dead: no stabilisation." if state == "Dead" else
                "Stabilised already: the bleeding has stopped." if self.stable.value else
                "Not bleeding out: there is nothing to stabilise.") + "</p>")
            return
        tn = vl.stabilization_tn(self.vitality.value)
        kit = self.kit.value
        p = vl.stabilization_probability(self.pool.value, self.vitality.value,
                                         medical_kit=kit, roll_bonus=self.bonus.value)
        saved = vl.rescue_probability(self.pool.value, self.vitality.value, self.iron.value,
                                      medical_kit=kit, roll_bonus=self.bonus.value)
        self.odds.value = (
            odds_line("rulebook-vl-stab-odds",
                      f"One attempt with {self.pool.value}d8{' and a kit' if kit else ''} "
                      f"against TN {tn} succeeds {chance_html(p, strong=True)}. Trying once "
                      f"before each of their turns, the healer saves them "
                      f"{chance_html(saved)}."))

    @answers()
    def read_wound(self) -> None:
        """The Grievous Wound table row for the d8 typed in its field."""
        self._wound(vl.grievous_wound(self.wound_roll.value, called_limb=self._limb()), "")

    @answers()
    def roll_wound(self, seed: int | None = None) -> None:
        """Roll the Grievous Wound d8 with a fresh (or the given) seed and read its row."""
        request = RollRequest.seeded(new_seed() if seed is None else seed)
        wound = vl.grievous_wound(called_limb=self._limb(), dice=request.dice)
        self.wound_roll.value = wound.value
        self._wound(wound, f" (d8 {wound.value}, {request.describe()})")

    def _limb(self) -> str | None:
        return None if self.limb.value == NO_LIMB else self.limb.value

    def _wound(self, wound: vl.GrievousResolution, how: str) -> None:
        if wound.bleeding_out:
            self.arterial.value = True
        self._show(f"Grievous Wound: {wound.outcome}{how}", wound.trace)

    def fill_patient(self, row: Fighter) -> None:
        """The patient's IRON from their row (Vitality now is the fight's, typed here)."""
        self.iron.value = row["iron"]

    def fill_healer(self, row: Fighter) -> None:
        """The healer's Medicine dice: SAVVY + Medicine from their row (assumption
        healer_attribute)."""
        self.pool.value = vl.healer_pool(row["savvy"], row["medicine"])

    @answers()
    def bleed(self) -> None:
        """One start-of-turn loss while Bleeding Out."""
        state = self._state()
        if not self._bleeding(state):
            raise RulesError("Stabilised: the bleeding has stopped" if self.stable.value
                             else "Only a Downed character (0 Vitality or less) or one hit in "
                             f"an artery bleeds out; this one is {state}")
        lost = vl.bleed_out_turn(self.vitality.value, self.iron.value)
        self.vitality.value = lost.value
        self._show(f"Bleeding out: Vitality {lost.value}, {lost.state}", lost.trace)

    def stabilise(self, request: RollRequest) -> None:
        """A Medicine check to stop the bleeding, with the dice of the Roll / My dice row."""
        try:
            state = self._state()
            if not self._bleeding(state):
                raise RulesError("The character is dead: there is no one to stabilise"
                                 if state == "Dead" else "Stabilised already: untick "
                                 "Stabilised if they bleed again" if self.stable.value else
                                 "Not bleeding out: there is nothing to stabilise")
            done = vl.stabilize(None, self.vitality.value, medical_kit=self.kit.value,
                                roll_bonus=self.bonus.value, dice=request.dice,
                                pool=self.pool.value)
        except RulesError as exc:
            self.entry.error.show(str(exc))
            return
        said = ("Stabilised: the bleeding stops" if done.stabilized else
                f"Fumble: every die shows 1, the patient loses 1 more Vitality, now {done.value}"
                if done.fumble else "Still bleeding")
        self.vitality.value = done.value
        self.stable.value = done.stabilized
        self._show(f"{said} (dice {', '.join(map(str, done.dice))}, TN {done.tn}, margin "
                   f"{done.margin:+d}; {request.describe()})", done.trace)

    def _show(self, headline: str, trace) -> None:
        self.result.value = (f"<div class='rulebook-vl-downed-result' style='font-weight:600'>"
                             f"{html.escape(headline)}</div>")
        self.explanation.show(trace)


class FirstAid(Tool):
    """First Aid during or right after a fight (§XIV In-Combat Healing): a Medicine check
    against TN 11 that stops bleeding and gives back 1 Vitality, once a character a scene; its
    exact odds, then the healer's dice, rolled or typed."""

    waiting_for = "the medic's d8s"
    reaches = (
        Reach(vl.healer_pool, {}, {
            "attribute": "the medic's SAVVY, from their row: " + HEALER_RULING,
            "medicine": "the medic's Medicine, from their row"}),
        Reach(vl.first_aid_probability, {"pool": "Medic's Medicine dice",
                                         "roll_bonus": "Medic's roll bonus"},
              {"small_pool": POOL_RULING}),
        Reach(vl.first_aid, {"vitality": "Patient's Vitality", "iron": "Patient's IRON",
                             "roll_bonus": "Medic's roll bonus",
                             "already_treated": "Already given First Aid this scene",
                             "dice": "My dice", "pool": "Medic's Medicine dice"},
              {"faces": "drawn from the Roll / My dice row"}),
    )

    def __init__(self, iron: int = 3, vitality: int = 2, pool: int = 3) -> None:
        self.patient_pick = FighterPick("veil_and_lead", self.fill_patient,
                                        label="Fill patient from fighter")
        self.medic_pick = FighterPick("veil_and_lead", self.fill_medic,
                                      label="Fill medic from fighter", hint=False)
        self.iron = _number("Patient's IRON", iron, 0, 10)
        self.vitality = w.IntText(value=vitality, description="Patient's Vitality",
                                  style=STYLE, layout=shared_layout(width="19em"))
        self.treated = _check("Already given First Aid this scene")
        self.pool = _number("Medic's Medicine dice", pool, 0, 12)
        self.bonus = _number("Medic's roll bonus", 0, -10, 10)
        self.error = ErrorLine()
        self.odds = w.HTML()
        self.entry = DiceEntry("the medic's d8s, e.g. 6, 5, 2")
        self.result = w.HTML(self.waiting)
        self.explanation = ExplanationView()
        inputs = [self.iron, self.vitality, self.treated, self.pool, self.bonus]
        super().__init__([w.HBox([self.patient_pick, self.medic_pick]),
                          w.HBox([w.VBox(inputs[:3]), w.VBox(inputs[3:])]), self.error,
                          section("The check: its odds, then the roll", self.odds, self.entry),
                          section("What happened", self.result, self.explanation)],
                         "rulebook-vl-first-aid")
        for field in inputs:
            field.observe(lambda _: self.update(), "value")
        self.entry.on_request(self.treat)
        self.update()

    @answers("odds")
    def update(self) -> None:
        """The exact chance that the check succeeds."""
        self.entry.error.clear()
        self.result.value = self.waiting
        self.explanation.clear()
        p = vl.first_aid_probability(self.pool.value, roll_bonus=self.bonus.value)
        self.odds.value = odds_line("rulebook-vl-aid-odds", f"With {self.pool.value}d8 the check "
                                    f"succeeds {chance_html(p, strong=True)}.")

    def fill_patient(self, row: Fighter) -> None:
        """The patient's IRON from their row (their Vitality now is the fight's, typed)."""
        self.iron.value = row["iron"]

    def fill_medic(self, row: Fighter) -> None:
        """The medic's Medicine dice from their row: SAVVY + Medicine, read as for a
        stabilisation (assumption healer_attribute)."""
        self.pool.value = vl.healer_pool(row["savvy"], row["medicine"])

    def treat(self, request: RollRequest) -> None:
        """First Aid with the dice of the Roll / My dice row."""
        try:
            aid = vl.first_aid(None, self.vitality.value, self.iron.value,
                               roll_bonus=self.bonus.value,
                               already_treated=self.treated.value, dice=request.dice,
                               pool=self.pool.value)
        except RulesError as exc:
            self.entry.error.show(str(exc))
            return
        said = (f"Treated: the bleeding stops, Vitality {aid.value}" if aid.outcome == "Treated"
                else f"Failed: no healing, Vitality {aid.value}")
        self.result.value = (f"<div class='rulebook-vl-aid-result' style='font-weight:600'>"
                             f"{html.escape(said)} ({request.describe()})</div>")
        self.explanation.show(aid.trace)


CARE = (("Long rest (8 hours)", "long_rest"), ("A doctor's care", "doctor"))
"""The two kinds of care after a fight that give back Vitality without a roll (§XIV)."""


class RestAndCare(Tool):
    """The slow healing after a fight (§XIV Long Rest, Medical Attention): a long rest gives
    back IRON Vitality, a doctor's care all of it after 24 hours, or 48 with Grievous Wounds,
    which that care then clears."""

    reaches = (
        Reach(vl.long_rest_recovery, {"vitality": "Patient's Vitality",
                                      "iron": "Patient's IRON"}),
        Reach(vl.medical_attention, {"vitality": "Patient's Vitality", "iron": "Patient's IRON",
                                     "hours": "Hours under a doctor's care",
                                     "grievous_wounds": "Grievous Wounds"}),
    )

    def __init__(self, iron: int = 3, vitality: int = 2, care: str = "long_rest") -> None:
        self.pick = FighterPick("veil_and_lead", self.fill, label="Fill patient from fighter")
        self.iron = _number("Patient's IRON", iron, 0, 10)
        self.vitality = w.IntText(value=vitality, description="Patient's Vitality",
                                  style=STYLE, layout=shared_layout(width="19em"))
        self.care = _menu("Care", CARE, care)
        self.hours = _number("Hours under a doctor's care", 24, 0, 1000)
        self.wounds = _number("Grievous Wounds", 0, 0, 20)
        self.error = ErrorLine()
        self.result = w.HTML()
        self.explanation = ExplanationView()
        inputs = [self.iron, self.vitality, self.care, self.hours, self.wounds]
        super().__init__([self.pick, w.HBox([w.VBox(inputs[:3]), w.VBox(inputs[3:])]),
                          self.error, section("After the care", self.result, self.explanation)],
                         "rulebook-vl-rest")
        for field in inputs:
            field.observe(lambda _: self.update(), "value")
        self.update()

    def fill(self, row: Fighter) -> None:
        """The patient's IRON from their row (their Vitality now is the fight's, typed)."""
        self.iron.value = row["iron"]

    @answers("result", "explanation")
    def update(self) -> None:
        doctor = self.care.value == "doctor"
        self.hours.disabled = self.wounds.disabled = not doctor
        before = self.vitality.value
        if doctor:
            done = vl.medical_attention(before, self.iron.value, self.hours.value,
                                        grievous_wounds=self.wounds.value)
            said = (f"{done.outcome}: Vitality {before} → {done.value}"
                    if done.value != before else f"{done.outcome}: still Vitality {before}")
            said += f" after {self.hours.value} hours"
        else:
            done = vl.long_rest_recovery(before, self.iron.value)
            said = f"{done.outcome}: Vitality {before} → {done.value}"
        self.result.value = (f"<div class='rulebook-vl-rest-result' style='font-weight:600'>"
                             f"{html.escape(said)}</div>")
        self.explanation.show(done.trace)


class TreatGrievous(Tool):
    """Treating a Grievous Wound (§IX table, §XIV Long Rest): a Medicine check at the wound's
    TN (Flesh Wound 9, Broken Bone 13, Internal Bleeding 15); its exact odds, then the
    doctor's dice, rolled or typed."""

    waiting_for = "the doctor's d8s"
    reaches = (
        Reach(vl.healer_pool, {}, {
            "attribute": "the doctor's SAVVY, from their row: " + HEALER_RULING,
            "medicine": "the doctor's Medicine, from their row"}),
        Reach(vl.treat_grievous_probability, {"pool": "Doctor's Medicine dice",
                                              "wound": "Grievous Wound",
                                              "roll_bonus": "Doctor's roll bonus"},
              {"small_pool": POOL_RULING}),
        Reach(vl.treat_grievous, {"wound": "Grievous Wound", "roll_bonus": "Doctor's roll bonus",
                                  "dice": "My dice", "pool": "Doctor's Medicine dice"},
              {"faces": "drawn from the Roll / My dice row"}),
    )

    def __init__(self, wound: str = "Flesh Wound", pool: int = 3) -> None:
        self.pick = FighterPick("veil_and_lead", self.fill, label="Fill doctor from fighter")
        self.wound = _menu("Grievous Wound", treatable_wounds(), wound)
        self.pool = _number("Doctor's Medicine dice", pool, 0, 12)
        self.bonus = _number("Doctor's roll bonus", 0, -10, 10)
        self.error = ErrorLine()
        self.odds = w.HTML()
        self.entry = DiceEntry("the doctor's d8s, e.g. 6, 5, 2")
        self.result = w.HTML(self.waiting)
        self.explanation = ExplanationView()
        inputs = [self.wound, self.pool, self.bonus]
        super().__init__([self.pick, w.HBox([w.VBox(inputs[:1]), w.VBox(inputs[1:])]),
                          self.error,
                          section("The check: its odds, then the roll", self.odds, self.entry),
                          section("What happened", self.result, self.explanation)],
                         "rulebook-vl-treat")
        for field in inputs:
            field.observe(lambda _: self.update(), "value")
        self.entry.on_request(self.treat)
        self.update()

    def fill(self, row: Fighter) -> None:
        """The doctor's Medicine dice from their row: SAVVY + Medicine, read as for a
        stabilisation (assumption healer_attribute)."""
        self.pool.value = vl.healer_pool(row["savvy"], row["medicine"])

    @answers("odds")
    def update(self) -> None:
        """The exact chance that the check treats the wound."""
        self.entry.error.clear()
        self.result.value = self.waiting
        self.explanation.clear()
        p = vl.treat_grievous_probability(self.pool.value, self.wound.value,
                                          roll_bonus=self.bonus.value)
        tn = grievous_by_name(self.wound.value).treatment_tn
        self.odds.value = odds_line(
            "rulebook-vl-treat-odds", f"With {self.pool.value}d8 against TN {tn} the check "
            f"treats the {html.escape(self.wound.value)} {chance_html(p, strong=True)}.")

    def treat(self, request: RollRequest) -> None:
        """The Medicine check with the dice of the Roll / My dice row."""
        try:
            done = vl.treat_grievous(None, self.wound.value, roll_bonus=self.bonus.value,
                                     dice=request.dice, pool=self.pool.value)
        except RulesError as exc:
            self.entry.error.show(str(exc))
            return
        self.result.value = (f"<div class='rulebook-vl-treat-result' style='font-weight:600'>"
                             f"{html.escape(done.headline)} (margin {done.value:+d}; "
                             f"{request.describe()})</div>")
        self.explanation.show(done.trace)


class CoupDeGrace(Tool):
    """Coup de grâce on a helpless target (§XIII): no roll, the highest sum (8 + 8) against
    the target's TN, so the most Steps, and the damage that deals through armour."""

    reaches = (Reach(vl.coup_de_grace, {
        "wr": "Weapon", "tn": "Target's TN", "ar": "Target's armour",
        "roll_bonus": "Roll bonus (fine weapon, etc.)", "critical": "Critical bonus (Steps)",
        "hardened": "Target's armour",
        "hardened_spent": "Hardened armour already spent this scene"}),
        Reach(vl.defense, {}, {"quick": "the target's row in the roster",
                               "savvy": "the target's row in the roster",
                               "equipment": "the target's Defense bonus and armour"}),
        Reach(vl.attack_tn, {"weapon": "Weapon"}, {
            "defense": "the target's Defense, from their row",
            "band": "a coup de grâce is at Point-Blank", "cover": "a helpless target's cover "
            "does not change the blow", "target_conditions": "the Target's TN field takes "
            "any other change", "tn_modifier": "the Target's TN field takes any other change"}),
    )

    def __init__(self, weapon: str = "Peacemaker", tn: int = 9, armour: str = "None") -> None:
        self.attacker_pick = FighterPick("veil_and_lead", self.fill_attacker,
                                         label="Fill attacker from fighter")
        self.target_pick = FighterPick("veil_and_lead", self.fill_target,
                                       label="Fill target from fighter", hint=False)
        self.weapon = _menu("Weapon", list(vl.weapons()), weapon)
        self.tn = _number("Target's TN", tn, 0, 40)
        self.armour = _menu("Target's armour", list(vl.armours()), armour)
        self.spent = _check("Hardened armour already spent this scene")
        self.roll_bonus = _number("Roll bonus (fine weapon, etc.)", 0, -10, 10)
        self.critical = _number("Critical bonus (Steps)", 0, 0, 5)
        self.error = ErrorLine()
        self.result = w.HTML()
        self.explanation = ExplanationView()
        inputs = [self.weapon, self.tn, self.armour, self.spent, self.roll_bonus, self.critical]
        self._defense: int | None = None  # the picked target's Defense, for the TN
        super().__init__([w.HBox([self.attacker_pick, self.target_pick]),
                          w.HBox([w.VBox(inputs[:3]), w.VBox(inputs[3:])]), self.error,
                          section("The blow", self.result, self.explanation)],
                         "rulebook-vl-coup")
        for field in inputs:
            field.observe(lambda _: self.update(), "value")
        self.update()

    def fill_attacker(self, row: Fighter) -> None:
        """The attacker's weapon and its roll bonus; the TN follows the weapon once a target
        was picked."""
        self.roll_bonus.value = row["weapon_bonus"]
        self.weapon.value = row["weapon"]
        self._target_tn()

    def fill_target(self, row: Fighter) -> None:
        """The target's armour, and the TN their Defense gives at Point-Blank (§XIII Coup de
        Grâce; assumption coup_de_grace_tn)."""
        worn = vl.armour(str(row["armour"]))
        self._defense = vl.defense(row["quick"], row["savvy"],
                                   row["defense_bonus"] + worn.defense_modifier)
        self.armour.value = worn.name
        self._target_tn()

    def _target_tn(self) -> None:
        if self._defense is not None:
            self.tn.value = vl.attack_tn(self._defense, weapon=self.weapon.value,
                                         band="Point-Blank")

    @answers("result", "explanation")
    def update(self) -> None:
        """The coup de grâce's damage, straight from the engine."""
        worn = vl.armour(self.armour.value)
        set_shown(self.spent, worn.hardened)
        blow = vl.coup_de_grace(vl.weapon(self.weapon.value).wr, self.tn.value, worn.ar,
                                roll_bonus=self.roll_bonus.value, critical=self.critical.value,
                                hardened=worn.hardened, hardened_spent=self.spent.value)
        grievous = (" — <b>Grievous Wound</b>: roll the d8" if blow.grievous else
                    " — Hardened armour negates the Grievous Wound (spent for this scene)"
                    if blow.grievous_negated else "")
        self.result.value = (f"<p class='rulebook-vl-coup-result'>An automatic hit: "
                             f"<b>{blow.value} damage</b>, {blow.steps} Step"
                             f"{'' if blow.steps == 1 else 's'}{grievous}.</p>")
        self.explanation.show(blow.trace)


# --- the Horde ---------------------------------------------------------------------------------

class HordeCalculator(Tool):
    """A Horde as one token (§XIII The Horde): its volley pool and tempo, the exact chance its
    volley hits a target, and what one hit on it kills — and whether it breaks."""

    reaches = (
        Reach(vl.horde_pool, {"base_pool": "Base creature's pool", "size": "Horde size"}),
        Reach(vl.attack_pool, {}, {"attribute": "the Horde's row: the attribute its weapon "
                                                "attacks with", "skill": "its Weapon skill"}),
        Reach(vl.horde_tempo, {"kind": "Kind"}),
        Reach(vl.hit_probability, {"tn": "Target's TN"}, {
            "pool": "the Horde's pool: the base creature's pool + its size",
            "roll_bonus": "a volley takes no roll modifiers in the rules",
            "small_pool": "a Horde always rolls 3 dice or more"}),
        Reach(vl.horde_casualties, {"margin": "Hit's margin", "wr": "Weapon's WR",
                                    "size": "Horde size",
                                    "mass_destruction": "Scatter or Blast weapon"}),
    )

    def __init__(self, base_pool: int = 4, size: int = 6) -> None:
        self.pick = FighterPick("veil_and_lead", self.fill_horde, label="Fill Horde from fighter")
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
            self.pick,
            w.HBox([w.VBox([self.base, self.size, self.kind, self.target_tn]),
                    w.VBox([self.margin, self.wr, self.mass])]),
            self.error, section("The Horde's volley", self.volley),
            section("A hit on the Horde", self.result, self.explanation)], "rulebook-vl-horde")
        for field in (self.base, self.size, self.kind, self.target_tn, self.margin, self.wr,
                      self.mass):
            field.observe(lambda _: self.update(), "value")
        self.update()

    def fill_horde(self, row: Fighter) -> None:
        """A Horde's row: its size (0 leaves the field: the row is one fighter), the base
        creature's pool (attribute + weapon skill) and, from its weapon, a firing line or a
        swarm (§XIII The Horde)."""
        arm = vl.weapon(str(row["weapon"]))
        if row["horde"]:
            self.size.value = row["horde"]
        self.base.value = vl.attack_pool(row[str(row["weapon_attribute"]).lower()],
                                         row["weapon_skill"])
        self.kind.value = arm.kind

    @answers("volley", "result", "explanation")
    def update(self) -> None:
        """Recompute the pool, tempo, volley odds and the casualties of the hit."""
        pool = vl.horde_pool(self.base.value, self.size.value)
        tempo = vl.horde_tempo(self.kind.value)
        p = vl.hit_probability(pool, self.target_tn.value)
        hit = vl.horde_casualties(self.margin.value, self.wr.value, self.size.value,
                                  mass_destruction=self.mass.value)
        self.volley.value = odds_line(
            "rulebook-vl-horde-volley",
            f"Pool {self.base.value} + size {self.size.value} = <b>{pool}d8</b>, tempo {tempo}; "
            f"against TN {self.target_tn.value} it hits {chance_html(p, strong=True)}.")
        broke = (" — the Horde <b>breaks</b>: replace it with 2 ordinary NPCs"
                 if hit.broken else "")
        self.result.value = (f"<p class='rulebook-vl-horde-hit'><b>{hit.value} casualties</b>: "
                             f"size {self.size.value} → {hit.size}{broke}</p>")
        self.explanation.show(hit.trace)
