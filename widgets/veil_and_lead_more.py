"""Two Veil & Lead reference tools: the tempo of an action, and how far and at what range.

Each gathers its inputs, asks :mod:`rulescore.systems.veil_and_lead` and renders the answer with
the rule it applied; bad input is answered in place.
"""

from __future__ import annotations

import html
from typing import ClassVar

import ipywidgets as w

from rulescore.errors import RulesError
from rulescore.roster import Fighter
from rulescore.systems import system as system_data
from rulescore.systems import veil_and_lead as vl
from rulescore.text import percent
from rulescore.trace import step

from .common import (DiceEntry, ErrorLine, ExplanationView, Reach, RollRequest, Tool, answers,
                     odds_table_html, section)
from .lean import set_shown, shared_layout
from .roster import FighterPick
from .theme import ERROR

STYLE = {"description_width": "10em"}
WIDE = shared_layout(width="22em")
STANDARD_ATTACK = {"ranged": "Steady Shot", "melee": "Strike"}
"""The attack a filled-in weapon switches to when the action chosen is of the other kind."""
EXPOSURE = (("By tempo (3 or less exposes)", "by_tempo"), ("As each action prints it",
                                                           "as_printed"))


class TempoCalculator(Tool):
    """An action with a weapon: its tempo, where the token lands from a tick (past 19 it wraps)
    and whether the fighter is Exposed afterwards."""

    reaches = (
        Reach(vl.tempo, {"action": "Action", "weapon": "Weapon", "chosen": "Chosen tempo",
                         "attack_on_arrival": "Rush / Charge ends in a melee attack (+1 tempo)"}),
        Reach(vl.exposes, {"action": "Action", "exposure": "Exposure rule"}, {
            "tempo_used": "the tempo worked out above",
            "light_weapon": "from the Weapon: a light melee weapon exposes even on a Strike"}),
        Reach(vl.move_token, {"tick": "Acting at tick"},
              {"tempo": "the tempo worked out above"}),
        Reach(vl.uses_weapon, {"action": "Action",
                               "attack_on_arrival": "Rush / Charge ends in a melee attack "
                                                    "(+1 tempo)"}),
    )

    def __init__(self, action: str = "Quick Shot", weapon: str = "Peacemaker",
                 tick: int = 17) -> None:
        self.pick = FighterPick("veil_and_lead", self.fill, label="Fill from fighter")
        self.action = w.Dropdown(options=list(vl.actions()), value=action,
                                 description="Action", style=STYLE, layout=WIDE)
        self.weapon = w.Dropdown(options=list(vl.weapons()), value=weapon,
                                 description="Weapon", style=STYLE, layout=WIDE)
        self.chosen = w.BoundedIntText(value=4, min=0, max=19, description="Chosen tempo",
                                       style=STYLE, layout=WIDE)
        self.arrival = w.Checkbox(value=False, description="Rush / Charge ends in a melee "
                                  "attack (+1 tempo)", indent=False, layout=WIDE)
        self.tick = w.BoundedIntText(value=tick, min=0, max=19, description="Acting at tick",
                                     style=STYLE, layout=WIDE)
        self.exposure = w.Dropdown(options=EXPOSURE, value="by_tempo",
                                   description="Exposure rule", style=STYLE, layout=WIDE)
        self.error = ErrorLine()
        self.result = w.HTML()
        self.explanation = ExplanationView()
        super().__init__([self.pick,
                          w.HBox([w.VBox([self.action, self.weapon, self.chosen]),
                                  w.VBox([self.tick, self.exposure, self.arrival])]), self.error,
                          section("Tempo and exposure", self.result, self.explanation)],
                         "rulebook-vl-tempo")
        for field in (self.action, self.weapon, self.chosen, self.tick, self.exposure,
                      self.arrival):
            field.observe(lambda _: self.update(), "value")
        self.update()

    def fill(self, row: Fighter) -> None:
        """The fighter's weapon, from their row; an attack of the other kind becomes the
        weapon's standard attack (Steady Shot or Strike)."""
        kind = vl.weapon(str(row["weapon"])).kind
        if vl.action(self.action.value).attack not in (kind, "any", "none", "grapple"):
            self.action.value = STANDARD_ATTACK[kind]
        self.weapon.value = row["weapon"]

    @answers("result", "explanation")
    def update(self) -> None:
        act = vl.action(self.action.value)
        self.chosen.disabled = act.tempo_rule != "varies"
        weapon = vl.weapon(self.weapon.value)
        chosen = self.chosen.value if act.tempo_rule == "varies" else None
        tempo = vl.tempo(act.name, weapon.name, chosen=chosen,
                         attack_on_arrival=self.arrival.value)
        exposed = (None if act.exposure == "varies" else
                   vl.exposes(act.name, tempo, exposure=self.exposure.value,
                              light_weapon=weapon.light))
        moved = vl.move_token(self.tick.value, tempo) if tempo else None
        rule = {"fixed": "a fixed tempo", "base": f"from {weapon.name}'s base tempo "
                f"{weapon.base_tempo}", "varies": "the tempo you choose"}[act.tempo_rule]
        if self.arrival.value:
            rule = f"the run's {vl.tempo(act.name)} + 1 for the melee attack on arrival"
        where = (f"the token moves from Tick {self.tick.value} to <b>Tick {moved.value}</b>"
                 if moved else "it takes no time: the token stays where it is")
        with_weapon = (f" with {html.escape(weapon.name)}" if vl.uses_weapon(
            act.name, attack_on_arrival=self.arrival.value) else "")
        self.result.value = (
            f"<p class='rulebook-vl-tempo-result'><b>{html.escape(act.name)}</b>{with_weapon}: "
            f"tempo <b>{tempo}</b> ({rule}); {where}; "
            + ("Exposed or not as the power used decides" if exposed is None else
               f"<b style='color:{ERROR}'>Exposed</b> until the fighter's next turn"
               if exposed else "not Exposed") + ".</p>")
        steps = [step(f"{act.name}: {act.description}",
                      system_data("veil_and_lead").rule(act.section))] + \
            (list(moved.trace) if moved else [])
        self.explanation.show(steps)


class AimBank(Tool):
    """The roll bonus that banked Aim actions give the next ranged attack at the same target
    (§III Aim)."""

    reaches = (Reach(vl.aim_bonus, {"aim_actions": "Aim actions banked"}),)

    def __init__(self, aims: int = 3) -> None:
        self.aims = w.BoundedIntText(value=aims, min=0, max=20, description="Aim actions banked",
                                     style=STYLE, layout=WIDE)
        self.error = ErrorLine()
        self.result = w.HTML()
        super().__init__([self.aims, self.error, section("The next shot", self.result)],
                         "rulebook-vl-aim")
        self.aims.observe(lambda _: self.update(), "value")
        self.update()

    @answers("result")
    def update(self) -> None:
        n = self.aims.value
        bonus = vl.aim_bonus(n)
        self.result.value = (
            f"<p class='rulebook-vl-aim-result'>{n} Aim action{'' if n == 1 else 's'}: roll "
            f"bonus <b>{bonus:+d}</b> on the next ranged attack at the same target "
            "(§III Aim).</p>")


class MovementAndRange(Tool):
    """How far a fighter moves with each movement action, and what a distance means for a
    weapon: the range band and its TN and roll modifiers, with cover on top."""

    reaches = (
        Reach(vl.speed, {"quick": "QUICK", "athletics": "Athletics"}),
        Reach(vl.effective_speed, {"prone": "Prone", "leg_hit": "Leg wound"},
              {"base_speed": "the Speed worked out from QUICK and Athletics"}),
        Reach(vl.move_distance, {}, {"action": "every movement action, one row each",
                                     "speed_m": "the Speed as things stand"}),
        Reach(vl.range_band, {"metres": "Distance (m)"}),
        Reach(vl.range_modifier, {"range_class": "Weapon"},
              {"band": "the band of the Distance"}),
        Reach(vl.cover, {"name": "Target's cover"}),
        Reach(vl.pool_with_conditions, {"pool": "Movement check dice",
                                        "conditions": "Leg wound"},
              {"kind": "a movement check: the one kind of check this tool counts dice for"}),
    )

    def __init__(self, quick: int = 3, athletics: int = 1, metres: int = 12,
                 weapon: str = "Peacemaker", check_dice: int = 4) -> None:
        self.pick = FighterPick("veil_and_lead", self.fill, label="Fill from fighter")
        self.quick = w.BoundedIntText(value=quick, min=1, max=5, description="QUICK",
                                      style=STYLE, layout=WIDE)
        self.athletics = w.BoundedIntText(value=athletics, min=0, max=5,
                                          description="Athletics", style=STYLE, layout=WIDE)
        self.prone = w.Checkbox(value=False, description="Prone", indent=False)
        self.leg = w.Checkbox(value=False, description="Leg wound", indent=False)
        # the label runs wider than the column's 10em in the browser's font: give it room
        self.check_dice = w.BoundedIntText(value=check_dice, min=0, max=40,
                                           style={"description_width": "12em"},
                                           description="Movement check dice",
                                           layout=shared_layout(width="24em"))
        self.metres = w.BoundedIntText(value=metres, min=0, max=2000,
                                       description="Distance (m)", style=STYLE, layout=WIDE)
        self.weapon = w.Dropdown(options=list(vl.weapons()), value=weapon,
                                 description="Weapon", style=STYLE, layout=WIDE)
        self.cover = w.Dropdown(options=list(vl.cover_names()), value="No Cover",
                                description="Target's cover", style=STYLE, layout=WIDE)
        self.error = ErrorLine()
        self.moves = w.HTML()
        self.shot = w.HTML()
        super().__init__([self.pick,
                          w.HBox([w.VBox([self.quick, self.athletics, self.check_dice,
                                          w.HBox([self.prone, self.leg])]),
                                  w.VBox([self.metres, self.weapon, self.cover])]), self.error,
                          section("Moving", self.moves), section("Shooting", self.shot)],
                         "rulebook-vl-movement")
        for field in (self.quick, self.athletics, self.prone, self.leg, self.check_dice,
                      self.metres, self.weapon, self.cover):
            field.observe(lambda _: self.update(), "value")
        self.update()

    def fill(self, row: Fighter) -> None:
        """The fighter's QUICK and weapon, from their row (Athletics is not on the roster)."""
        self.quick.value = row["quick"]
        self.weapon.value = row["weapon"]

    @answers("moves", "shot")
    def update(self) -> None:
        base = vl.speed(self.quick.value, self.athletics.value)
        speed = vl.effective_speed(base, prone=self.prone.value, leg_hit=self.leg.value)
        moves = [(a, vl.move_distance(a, speed)) for a in
                 ("Shift", "Scramble", "Rush / Charge", "Sprint")]
        band = vl.range_band(self.metres.value)
        weapon = vl.weapon(self.weapon.value)
        mod = (vl.range_modifier(weapon.range_class, band) if weapon.kind == "ranged"
               else None)
        cover_tn, targetable = vl.cover(self.cover.value)
        rows = "".join(f"<tr><td>{html.escape(a)}</td><td>{vl.tempo(a)}</td><td>{d} m</td></tr>"
                       for a, d in moves)
        pool = vl.pool_with_conditions(self.check_dice.value,
                                       ["Leg Hit"] if self.leg.value else [], kind="movement")
        dice = (f"{self.check_dice.value} dice → <b>{pool.outcome}</b>"
                if pool.value != self.check_dice.value else f"<b>{pool.outcome}</b>")
        self.moves.value = (
            f"<p>Speed {base} m" + (f", {speed} m as things stand" if speed != base else "")
            + f".</p><p class='rulebook-vl-move-check'>A movement check rolls {dice}.</p><table class='rulebook-vl-moves'><thead><tr><th>Action</th><th>Tempo</th>"
            f"<th>Distance</th></tr></thead><tbody>{rows}</tbody></table>")
        if mod is None:
            shot = f"{html.escape(weapon.name)} is a melee weapon: it reaches Point-Blank only."
        elif not mod.allowed:
            shot = (f"At {self.metres.value} m ({band}) {html.escape(weapon.name)} cannot "
                    "reach the target.")
        else:
            shot = (f"At {self.metres.value} m the range is <b>{band}</b>: "
                    f"{html.escape(weapon.name)} ({weapon.range_class}) takes TN "
                    f"{mod.tn_modifier:+d} and roll {mod.roll_modifier:+d}.")
        cover = ("Total cover: the target cannot be shot at all." if not targetable else
                 f"{html.escape(self.cover.value)}: TN {cover_tn:+d}.")
        self.shot.value = (f"<p class='rulebook-vl-shot'>{shot}</p>"
                           f"<p class='rulebook-vl-cover'>{cover}</p>")


class DuelRoller(Tool):
    """Two Holds that trigger each other: the exact chance that each side acts first, then the
    opposed QUICK + Awareness roll (seeded or typed) and who goes first, and why."""

    _SIDES: ClassVar[dict[str, str]] = {
        "quick_a": "QUICK (one)", "awareness_a": "Awareness (one)",
        "quick_b": "QUICK (other)", "awareness_b": "Awareness (other)",
        "bonus_a": "Roll bonus (one)", "bonus_b": "Roll bonus (other)"}
    reaches = (
        Reach(vl.duel_odds, {"bonus_a": "Roll bonus (one)", "bonus_b": "Roll bonus (other)"},
              {"pool_a": "QUICK (one) + Awareness (one)",
               "pool_b": "QUICK (other) + Awareness (other)"}),
        Reach(vl.duel, {**_SIDES, "name_a": "One duellist", "name_b": "The other",
                        "dice": "My dice", "dice_a": "My dice", "dice_b": "My dice"}),
    )

    def __init__(self) -> None:
        def num(label: str, value: int, low: int, high: int) -> w.BoundedIntText:
            return w.BoundedIntText(value=value, min=low, max=high, description=label,
                                    style=STYLE, layout=WIDE)
        self.pick_a = FighterPick("veil_and_lead", lambda row: self.fill(row, "a"),
                                  label="Fill one from fighter")
        self.pick_b = FighterPick("veil_and_lead", lambda row: self.fill(row, "b"),
                                  label="Fill other from fighter", hint=False)
        self.name_a = w.Text(value="Ada", description="One duellist", style=STYLE, layout=WIDE)
        self.name_b = w.Text(value="Bart", description="The other", style=STYLE, layout=WIDE)
        self.quick_a, self.quick_b = num("QUICK (one)", 3, 1, 5), num("QUICK (other)", 2, 1, 5)
        self.aware_a = num("Awareness (one)", 1, 0, 5)
        self.aware_b = num("Awareness (other)", 2, 0, 5)
        self.bonus_a = num("Roll bonus (one)", 0, -10, 10)
        self.bonus_b = num("Roll bonus (other)", 0, -10, 10)
        self.error = ErrorLine()
        self.odds = w.HTML()
        self.entry = DiceEntry("one's d8s | other's d8s, e.g. 7, 5, 2, 1 | 8, 3, 3, 2",
                               groups=2)
        self.result = w.HTML()
        self.explanation = ExplanationView()
        self.inputs = [self.name_a, self.quick_a, self.aware_a, self.bonus_a, self.name_b,
                       self.quick_b, self.aware_b, self.bonus_b]
        super().__init__([w.HBox([self.pick_a, self.pick_b]),
                          w.HBox([w.VBox(self.inputs[:4]), w.VBox(self.inputs[4:])]),
                          self.error, section("Odds before the roll", self.odds),
                          section("Roll", self.entry),
                          section("Who fires first", self.result, self.explanation)],
                         "rulebook-vl-duel")
        for field in self.inputs:
            field.observe(lambda _: self.update(), "value")
        self.entry.on_request(self.roll)
        self.update()

    def fill(self, row: Fighter, side: str) -> None:
        """One duellist's name, QUICK and Awareness, from their row (*side* "a" or "b")."""
        getattr(self, f"name_{side}").value = row.name
        getattr(self, f"quick_{side}").value = row["quick"]
        getattr(self, f"aware_{side}").value = row["awareness"]

    def _pools(self) -> tuple[int, int]:
        """Each duellist's QUICK + Awareness pool (§XII: the initiative pool's formula)."""
        return tuple(int(vl.INITIATIVE_POOL.evaluate(QUICK=q.value, Awareness=a.value))
                     for q, a in ((self.quick_a, self.aware_a), (self.quick_b, self.aware_b)))

    @answers("odds")
    def update(self) -> None:
        self.result.value = ""
        self.explanation.clear()
        a, b = self._pools()
        odds = vl.duel_odds(a, b, self.bonus_a.value, self.bonus_b.value)
        one, other = html.escape(self.name_a.value), html.escape(self.name_b.value)
        rows = [(f"{one} first", odds.a_first), (f"{other} first", odds.b_first),
                ("Equal sums (then the higher QUICK, else both at once)", odds.equal_sums)]
        self.odds.value = ("<table class='rulebook-odds'><thead><tr><th>Result</th><th>Chance"
                           "</th><th>Exact</th></tr></thead><tbody>" + "".join(
                               f"<tr><td>{k}</td><td>{percent(p)}</td><td>{p}</td></tr>"
                               for k, p in rows) + "</tbody></table>")

    def roll(self, request: RollRequest) -> None:
        try:
            # Typed lists go to the duel as the reader split them, so it names a wrong pool;
            # a seed is drawn by the duel itself.
            dice_a, dice_b = request.groups or (None, None)
            r = vl.duel(dice_a, dice_b, quick_a=self.quick_a.value,
                        awareness_a=self.aware_a.value, quick_b=self.quick_b.value,
                        awareness_b=self.aware_b.value, bonus_a=self.bonus_a.value,
                        bonus_b=self.bonus_b.value, name_a=self.name_a.value or "One",
                        name_b=self.name_b.value or "The other",
                        dice=None if request.groups else request.dice)
        except RulesError as exc:
            self.entry.error.show(str(exc))
            return
        how = request.describe()
        head = ("Both fire at once" if r.value == 0 else f"{html.escape(r.outcome)} fires first")
        self.result.value = (f"<div class='rulebook-vl-duel-result' style='font-weight:600'>"
                             f"{head} ({r.sums[0]} against {r.sums[1]}; "
                             f"{html.escape(r.decided_by.lower())})</div>"
                             f"<small>Dice {', '.join(map(str, r.dice[0]))} | "
                             f"{', '.join(map(str, r.dice[1]))} ({how})</small>")
        self.explanation.show(r.trace)


CHECKS = (("Resist a Stun (GRIT + Resilience, TN 11)", "Stunned"),
          ("Resist a Heavy Cleave's knock-down (GRIT + Resilience, TN 11)", "Prone"),
          ("Grapple (IRON + Brawl against Defense)", "grapple"))


class HoldAndResist(Tool):
    """The checks that bring on or ward off a condition: GRIT + Resilience against a Stun or a
    knock-down (§XI Stunned, §III Heavy Cleave), and a Grapple, IRON + Brawl against the
    target's Defense (§III Grapple); exact odds first, then the dice."""

    waiting_for = "the d8s"
    _RESIST: ClassVar[dict[str, str]] = {
        "grit": "Attribute (GRIT or IRON)", "resilience": "Skill (Resilience or Brawl)",
        "roll_bonus": "Roll bonus"}
    _GRAPPLE: ClassVar[dict[str, str]] = {
        "iron": "Attribute (GRIT or IRON)", "brawl": "Skill (Resilience or Brawl)",
        "defense": "Target's Defense", "roll_bonus": "Roll bonus"}
    _ROLLED: ClassVar[dict[str, str]] = {"faces": "drawn from the Roll / My dice row"}
    reaches = (
        Reach(vl.resist_probability, _RESIST),
        Reach(vl.grapple_probability, _GRAPPLE),
        Reach(vl.resist, {**_RESIST, "effect": "Check", "dice": "My dice"}, _ROLLED),
        Reach(vl.grapple, {**_GRAPPLE, "dice": "My dice"}, _ROLLED),
    )

    def __init__(self, check: str = "Stunned", attribute: int = 2, skill: int = 1,
                 defense: int = 10) -> None:
        self.pick = FighterPick("veil_and_lead", self.fill, label="Fill from fighter")
        self.check = w.Dropdown(options=CHECKS, value=check, description="Check", style=STYLE,
                                layout=shared_layout(width="34em"))
        self.attribute = w.BoundedIntText(value=attribute, min=0, max=10, style=STYLE,
                                          description="Attribute (GRIT or IRON)", layout=WIDE)
        self.skill = w.BoundedIntText(value=skill, min=0, max=10, style=STYLE,
                                      description="Skill (Resilience or Brawl)", layout=WIDE)
        self.defense = w.BoundedIntText(value=defense, min=0, max=30, style=STYLE,
                                        description="Target's Defense", layout=WIDE)
        self.bonus = w.BoundedIntText(value=0, min=-10, max=10, description="Roll bonus",
                                      style=STYLE, layout=WIDE)
        self.error = ErrorLine()
        self.odds = w.HTML()
        self.entry = DiceEntry("the d8s, e.g. 7, 5, 2")
        self.result = w.HTML(self.waiting)
        self.explanation = ExplanationView()
        inputs = [self.check, self.attribute, self.skill, self.defense, self.bonus]
        super().__init__([self.pick, w.VBox(inputs), self.error,
                          section("Odds before the roll", self.odds),
                          section("Roll", self.entry),
                          section("What happened", self.result, self.explanation)],
                         "rulebook-vl-checks")
        for field in inputs:
            field.observe(lambda _: self.update(), "value")
        self.entry.on_request(self.roll)
        self.update()

    def fill(self, row: Fighter) -> None:
        """The fighter's numbers for the check chosen: GRIT and Resilience to resist, IRON to
        grapple (Brawl is not on the roster, so the Skill field stays as typed)."""
        if self._grapple():
            self.attribute.value = row["iron"]
        else:
            self.attribute.value = row["grit"]
            self.skill.value = row["resilience"]

    def _grapple(self) -> bool:
        return self.check.value == "grapple"

    @answers("odds")
    def update(self) -> None:
        """The exact chance that the check succeeds."""
        self.entry.error.clear()
        self.result.value = self.waiting
        self.explanation.clear()
        set_shown(self.defense, self._grapple())
        a, s, bonus = self.attribute.value, self.skill.value, self.bonus.value
        if self._grapple():
            p = vl.grapple_probability(a, s, self.defense.value, roll_bonus=bonus)
            said = "takes hold (both are Grappled)"
        else:
            p = vl.resist_probability(a, s, roll_bonus=bonus)
            said = "resists"
        self.odds.value = (f"<p class='rulebook-vl-check-odds'>{a + s}d8: the check {said} "
                           f"<b>{percent(p)}</b>{'' if p.denominator == 1 else f' ({p})'}.</p>")

    def roll(self, request: RollRequest) -> None:
        """The check with the dice of the Roll / My dice row."""
        a, s, bonus = self.attribute.value, self.skill.value, self.bonus.value
        try:
            if self._grapple():
                done = vl.grapple(None, a, s, self.defense.value, roll_bonus=bonus,
                                  dice=request.dice)
            else:
                done = vl.resist(None, a, s, effect=self.check.value, roll_bonus=bonus,
                                 dice=request.dice)
        except RulesError as exc:
            self.entry.error.show(str(exc))
            return
        self.result.value = (f"<div class='rulebook-vl-check-result' style='font-weight:600'>"
                             f"{html.escape(done.outcome)}: margin {done.value:+d} "
                             f"({request.describe()})</div>")
        self.explanation.show(done.trace)


# --- reactions, two weapons, the saddle ---------------------------------------------------------

class FreeReaction(Tool):
    """A Reaction declared outside your turn (§III Free Reaction): whether it is allowed now,
    and the Mettle left."""

    reaches = (Reach(vl.free_reaction, {
        "reaction": "Reaction", "mettle": "Mettle", "surprised": "Surprised",
        "reactions_since_turn": "Reactions since your last turn"}),)

    def __init__(self, reaction: str = "Dodge", mettle: int = 2) -> None:
        self.reaction = w.Dropdown(options=list(vl.reaction_names()), value=reaction,
                                   description="Reaction", style=STYLE, layout=WIDE)
        self.mettle = w.BoundedIntText(value=mettle, min=0, max=20, description="Mettle",
                                       style=STYLE, layout=WIDE)
        self.since = w.BoundedIntText(value=0, min=0, max=5, style=STYLE, layout=WIDE,
                                      description="Reactions since your last turn")
        self.surprised = w.Checkbox(value=False, description="Surprised", indent=False)
        self.error = ErrorLine()
        self.result = w.HTML()
        self.explanation = ExplanationView()
        inputs = [self.reaction, self.mettle, self.since, self.surprised]
        super().__init__([w.HBox([w.VBox(inputs[:2]), w.VBox(inputs[2:])]), self.error,
                          section("Can you react?", self.result, self.explanation)],
                         "rulebook-vl-reaction")
        for field in inputs:
            field.observe(lambda _: self.update(), "value")
        self.update()

    @answers("result", "explanation")
    def update(self) -> None:
        done = vl.free_reaction(self.reaction.value, self.mettle.value,
                                reactions_since_turn=self.since.value,
                                surprised=self.surprised.value)
        said = (f"{done.outcome}: Mettle {self.mettle.value} → {done.value}" if done.allowed
                else f"Refused: Mettle stays at {done.value}")
        self.result.value = (f"<p class='rulebook-vl-reaction-result'><b>"
                             f"{html.escape(said)}</b></p>")
        self.explanation.show(done.trace)


class TwoWeapons(Tool):
    """Fighting with a weapon in each hand (§XIII Two-Weapon Fighting): the tempo of the pair
    (the off-hand attack's dice are the attack calculator's Off-hand attack)."""

    reaches = (Reach(vl.two_weapon_tempo, {"main_weapon": "Main hand",
                                           "off_weapon": "Off hand"}),)

    def __init__(self, main: str = "Peacemaker", off: str = "Derringer") -> None:
        self.main = w.Dropdown(options=list(vl.weapons()), value=main, description="Main hand",
                               style=STYLE, layout=WIDE)
        self.off = w.Dropdown(options=list(vl.weapons()), value=off, description="Off hand",
                              style=STYLE, layout=WIDE)
        self.error = ErrorLine()
        self.result = w.HTML()
        super().__init__([w.HBox([self.main, self.off]), self.error,
                          section("Tempo of the pair", self.result)], "rulebook-vl-two-weapons")
        for field in (self.main, self.off):
            field.observe(lambda _: self.update(), "value")
        self.update()

    @answers("result")
    def update(self) -> None:
        tempo = vl.two_weapon_tempo(self.main.value, self.off.value)
        self.result.value = (
            f"<p class='rulebook-vl-two-result'>{html.escape(self.main.value)} and "
            f"{html.escape(self.off.value)}: <b>tempo {tempo}</b> for the pair (§XIII "
            "Two-Weapon Fighting); the off-hand attack is the attack calculator's Off-hand "
            "attack.</p>")


class FightLength(Tool):
    """How long a fight has run (§XV Ideal Combat Duration, Signs Combat is Dragging, Tension
    Pool in Combat): the verdict for the ticks so far and the Tension dice the fight has
    added."""

    reaches = (Reach(vl.combat_pacing, {"ticks_elapsed": "Ticks so far"}),)

    def __init__(self, ticks: int = 25) -> None:
        self.ticks = w.BoundedIntText(value=ticks, min=0, max=1000, description="Ticks so far",
                                      style=STYLE, layout=WIDE)
        self.error = ErrorLine()
        self.result = w.HTML()
        self.explanation = ExplanationView()
        super().__init__([self.ticks, self.error,
                          section("The verdict", self.result, self.explanation)],
                         "rulebook-vl-pacing")
        self.ticks.observe(lambda _: self.update(), "value")
        self.update()

    @answers("result", "explanation")
    def update(self) -> None:
        done = vl.combat_pacing(self.ticks.value)
        dice = f"{done.value} Tension {'die' if done.value == 1 else 'dice'}"
        self.result.value = (f"<p class='rulebook-vl-pacing-result'><b>{done.outcome}</b> after "
                             f"{self.ticks.value} ticks; the fight has added {dice}.</p>")
        self.explanation.show(done.trace)


class StrayShot(Tool):
    """A miss into a melee that risks the allies in it (§VII Firing into Melee): the exact
    chance it strikes each ally, then the d6 and, among several allies, the die that picks one
    (assumption stray_ally_die), and the damage the struck ally takes."""

    waiting_for = "the d6 (then the ally's die)"
    _FIELDS: ClassVar[dict[str, str]] = {
        "allies": "Allies in the melee", "wr": "Weapon", "ar": "Struck ally's armour",
        "scatter": "Weapon", "dice": "My dice"}
    reaches = (
        Reach(vl.stray_shot_chances, {"allies": "Allies in the melee", "scatter": "Weapon"}),
        Reach(vl.stray_shot_among, _FIELDS, {"d6": "drawn from the Roll / My dice row",
                                             "ally_die": "drawn from the Roll / My dice row"}),
    )

    def __init__(self, allies: str = "Ada, Bo, Cy", weapon: str = "Peacemaker") -> None:
        self.allies = w.Text(value=allies, description="Allies in the melee",
                             placeholder="names, separated by commas", style=STYLE,
                             layout=shared_layout(width="30em"))
        self.weapon = w.Dropdown(options=[n for n, arm in vl.weapons().items()
                                          if arm.kind == "ranged"], value=weapon,
                                 description="Weapon", style=STYLE, layout=WIDE)
        self.armour = w.Dropdown(options=list(vl.armours()), value="None",
                                 description="Struck ally's armour", style=STYLE, layout=WIDE)
        self.error = ErrorLine()
        self.odds = w.HTML()
        self.entry = DiceEntry("the d6, then the ally's die, e.g. 2, 3")
        self.result = w.HTML(self.waiting)
        self.explanation = ExplanationView()
        self.inputs = [self.allies, self.weapon, self.armour]
        super().__init__([self.allies, w.HBox([self.weapon, self.armour]), self.error,
                          section("Odds before the d6", self.odds), section("Roll", self.entry),
                          section("Who is struck", self.result, self.explanation)],
                         "rulebook-vl-stray")
        for field in self.inputs:
            field.observe(lambda _: self.update(), "value")
        self.entry.on_request(self.roll)
        self.update()

    def _names(self) -> list[str]:
        return [n.strip() for n in self.allies.value.split(",")]

    @answers("odds")
    def update(self) -> None:
        """The exact chance that the miss strikes each ally, or no one."""
        self.entry.error.clear()
        self.result.value = self.waiting
        self.explanation.clear()
        arm = vl.weapon(self.weapon.value)
        odds = vl.stray_shot_chances(self._names(), scatter=arm.scatter)
        rows = [(name or "No one: the shot goes wide", p) for name, p in odds.items()]
        self.odds.value = odds_table_html(rows[1:] + rows[:1], "Struck")

    def roll(self, request: RollRequest) -> None:
        """The d6 and the ally's die from the Roll / My dice row."""
        arm, worn = vl.weapon(self.weapon.value), vl.armour(self.armour.value)
        try:
            shot = vl.stray_shot_among(self._names(), arm.wr, worn.ar, scatter=arm.scatter,
                                       dice=request.dice)
        except RulesError as exc:
            self.entry.error.show(str(exc))
            self.result.value = self.waiting
            self.explanation.clear()
            return
        said = (f"{shot.struck} is struck: {shot.value} damage" if shot.struck else
                "No one is struck: the shot goes wide")
        self.result.value = (f"<div class='rulebook-vl-stray-result' style='font-weight:600'>"
                             f"{html.escape(said)} ({request.describe()})</div>")
        self.explanation.show(shot.trace)


class MountedCombat(Tool):
    """Fighting from the saddle (§XIII Mounted Combat): the attack's modifiers from horseback,
    the riding check when the mount is killed or panics (its exact chance, then the dice) and
    the fall that follows a failure."""

    waiting_for = "the d8s"
    reaches = (
        Reach(vl.mounted_modifiers, {"weapon": "Weapon", "target_mounted": "Target is mounted",
                                     "first_charge_attack": "First melee attack of a Charge",
                                     "mount_stationary": "Mount standing still"}),
        Reach(vl.ride_probability, {"attribute": "QUICK (or ECHO to control)",
                                    "ride": "Ride", "situation": "Riding check"}),
        Reach(vl.ride_check, {"attribute": "QUICK (or ECHO to control)", "ride": "Ride",
                              "situation": "Riding check", "dice": "My dice"},
              {"faces": "drawn from the Roll / My dice row"}),
        Reach(vl.mount_fall, {"vitality": "Rider's Vitality", "iron": "Rider's IRON",
                              "dice": "Fall dice"},
              {"d3": "drawn from the Roll the fall / Fall dice row"}),
    )

    def __init__(self, weapon: str = "Saber") -> None:
        self.pick = FighterPick("veil_and_lead", self.fill, label="Fill rider from fighter")
        self.weapon = w.Dropdown(options=list(vl.weapons()), value=weapon,
                                 description="Weapon", style=STYLE, layout=WIDE)
        self.target_mounted = w.Checkbox(value=False, description="Target is mounted",
                                         indent=False)
        self.charge = w.Checkbox(value=False, description="First melee attack of a Charge",
                                 indent=False)
        self.stationary = w.Checkbox(value=False, description="Mount standing still",
                                     indent=False)
        self.modifiers = w.HTML()
        self.situation = w.Dropdown(options=(("Stay on a killed or panicking mount", "mount"),
                                             ("Control a panicking mount", "panic")),
                                    value="mount", description="Riding check", style=STYLE,
                                    layout=shared_layout(width="32em"))
        self.attribute = w.BoundedIntText(value=2, min=1, max=5, style=STYLE, layout=WIDE,
                                          description="QUICK (or ECHO to control)")
        self.ride = w.BoundedIntText(value=1, min=0, max=5, description="Ride", style=STYLE,
                                     layout=WIDE)
        self.odds = w.HTML()
        self.entry = DiceEntry("the d8s, e.g. 6, 5, 3")
        self.result = w.HTML(self.waiting)
        self.vitality = w.IntText(value=10, description="Rider's Vitality", style=STYLE,
                                  layout=WIDE)
        self.iron = w.BoundedIntText(value=2, min=1, max=5, description="Rider's IRON",
                                     style=STYLE, layout=WIDE)
        self.fall_entry = DiceEntry("the d3, e.g. 2", name="fall")
        self.fall = w.HTML()
        self.error = ErrorLine()
        self.explanation = ExplanationView()
        attack = [self.weapon, self.target_mounted, self.charge, self.stationary]
        riding = [self.situation, self.attribute, self.ride]
        super().__init__([
            self.pick, section("The attack from horseback", w.HBox(attack[:1] + [
                w.VBox(attack[1:])]), self.modifiers),
            section("The riding check", *riding, self.odds, self.entry, self.result),
            section("The fall", w.HBox([self.vitality, self.iron]), self.fall_entry, self.fall),
            self.error, self.explanation], "rulebook-vl-mounted")
        # each part answers its own fields: a changed rider's Vitality keeps the riding check
        for field in attack:
            field.observe(lambda _: self.update(), "value")
        for field in riding:
            field.observe(lambda _: self.update_ride(), "value")
        for field in (self.vitality, self.iron):
            field.observe(lambda _: setattr(self.fall, "value", ""), "value")
        self.entry.on_request(self.ride_roll)
        self.fall_entry.on_request(self.fall_roll)
        self.update()
        self.update_ride()

    def fill(self, row: Fighter) -> None:
        """The rider's weapon, QUICK, IRON and full Vitality from their row (Ride is not on
        the roster)."""
        self.weapon.value = row["weapon"]
        self.attribute.value = row["quick"]
        self.iron.value = row["iron"]
        self.vitality.value = vl.vitality(row["iron"])

    @answers("modifiers")
    def update(self) -> None:
        """The modifiers from horseback."""
        done = vl.mounted_modifiers(self.weapon.value, target_mounted=self.target_mounted.value,
                                    first_charge_attack=self.charge.value,
                                    mount_stationary=self.stationary.value)
        parts = [f"{done.step_modifier:+d} Step" if done.step_modifier else "",
                 f"{done.damage_bonus:+d} damage" if done.damage_bonus else "",
                 f"−{done.pool_penalty} dice" if done.pool_penalty else ""]
        said = ", ".join(p for p in parts if p) or "no change"
        self.modifiers.value = (f"<p class='rulebook-vl-mounted-mods'>From the saddle: "
                                f"<b>{html.escape(said)}</b>.</p>")
        self.explanation.show(done.trace)

    @answers("odds")
    def update_ride(self) -> None:
        """The riding check's exact chance (a result rolled before is cleared)."""
        self.result.value = self.waiting
        p = vl.ride_probability(self.attribute.value, self.ride.value,
                                situation=self.situation.value)
        self.odds.value = (f"<p class='rulebook-vl-ride-odds'>"
                           f"{self.attribute.value + self.ride.value}d8: the check succeeds "
                           f"<b>{percent(p)}</b>{'' if p.denominator == 1 else f' ({p})'}.</p>")

    def ride_roll(self, request: RollRequest) -> None:
        """The riding check with the dice of its Roll / My dice row."""
        try:
            done = vl.ride_check(None, self.attribute.value, self.ride.value,
                                 situation=self.situation.value, dice=request.dice)
        except RulesError as exc:
            self.entry.error.show(str(exc))
            return
        self.result.value = (f"<div class='rulebook-vl-ride-result' style='font-weight:600'>"
                             f"{html.escape(done.outcome)}: margin {done.value:+d} "
                             f"({request.describe()})</div>")
        self.explanation.show(done.trace)

    def fall_roll(self, request: RollRequest) -> None:
        """The fall's d3, rolled or typed."""
        try:
            done = vl.mount_fall(None, self.vitality.value, self.iron.value, dice=request.dice)
        except RulesError as exc:
            self.fall_entry.error.show(str(exc))
            return
        self.fall.value = (f"<div class='rulebook-vl-fall-result' style='font-weight:600'>"
                           f"Vitality {done.value}: {html.escape(done.outcome)} "
                           f"({request.describe()})</div>")
        self.explanation.show(done.trace)
