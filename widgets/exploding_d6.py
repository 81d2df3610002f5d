"""The exploding-d6 chapter's tools: initiative, one attack from the hit roll through the
defender's reaction to the wounds, and throwing.

Each tool gathers its inputs, makes its rules call in :mod:`rulescore.systems.exploding_d6`
and renders what comes back: the odds before the roll, the result and its explanation.
"""

from __future__ import annotations

import html
import weakref
from collections.abc import Sequence
from typing import ClassVar

import ipywidgets as w

from rulescore.errors import RulesError, parse_int_text
from rulescore.roster import Fighter, Roster
from rulescore.systems import exploding_d6 as x6
from rulescore.systems.exploding_d6.fight import Fight
from rulescore.systems.exploding_d6.inputs import plural
from rulescore.text import percent

from .common import (
    ERROR,
    ROLLED,
    SUCCESS,
    Callbacks,
    DiceEntry,
    ErrorLine,
    ExplanationView,
    Reach,
    RollRequest,
    Tool,
    answers,
    button,
    chance_html,
    fit_labels,
    headline_html,
    labelled_text,
    odds_line,
    odds_table_html,
    read_int,
    section,
    steps_html,
)
from .lean import built_whole, set_shown, shared_layout
from .roster import EMPTY_HINT, FighterPick, RosterEditor, shared_roster
from .theme import (
    ACCENT,
    CRIT,
    FIELD_WIDTH,
    INK,
    LABEL_WIDTH,
    LIST_WIDTH,
    MENU_WIDTH,
    NUMBER_WIDTH,
    TOTAL_SIZE,
)

_BOX = ("display:inline-block;min-width:1.6em;padding:2px 5px;margin:2px;border:1px solid "
        f"{INK};border-radius:4px;text-align:center;")


def chain_html(chain: Sequence[int], kind: str = "") -> str:
    """One exploding die as its chain (6→6→5 = 17), coloured by what it scored."""
    faces = "→".join(map(str, chain))
    text = f"{faces} = {sum(chain)}" if len(chain) > 1 else faces
    style = _BOX
    if kind == "hit":
        style += f"background:{SUCCESS};color:white;"
    elif kind in ("critical", "megacritical"):
        style += f"background:{CRIT};color:white;font-weight:700;"
    elif kind == "miss":
        style += "opacity:.6;"
    title = kind or "die"
    return (f'<span class="rulebook-chain" style="{style}" title="{title}">'
            f'{html.escape(text)}</span>')



def expect_chains(request: RollRequest, count: int) -> None:
    """Typed faces must make *count* dice once split into chains (a 6 rolls on): refused in
    the reader's words before any die is read. A seeded roll rolls what it needs."""
    if request.dice.is_typed:
        got = len(x6.chains_from_faces(request.dice.leftover()))
        if got != count:
            raise RulesError(f"My dice must hold {count} dice (as chains), got {got}")


class _TypedChains:
    """A tool whose typed dice are split into chains: the engine calls them ``faces``, the
    reader types them in My dice."""

    @classmethod
    def words(cls) -> dict[str, str]:
        return {**super().words(), "faces": "My dice"}   # type: ignore[misc]


#: The most fighters the "Who would react" list takes: as many as a roster holds.
MAX_REACTORS = x6.ROSTER.max_fighters
#: The last initiative rolled with each roster (by InitiativeRoller), which the reactions
#: tool fills in for the fighters picked from that roster.
_ROLLED: weakref.WeakKeyDictionary[RosterEditor, x6.InitiativeOrder] = \
    weakref.WeakKeyDictionary()
#: Who is told when initiative is rolled with each roster: the reactions tools reading it, so
#: a fighter picked before the roll takes the initiative rolled. Held weakly, as the roster
#: holds its own callbacks, so a tool the page dropped is not kept alive by either.
_ON_ROLL: weakref.WeakKeyDictionary[RosterEditor, Callbacks[x6.InitiativeOrder]] = \
    weakref.WeakKeyDictionary()


def _on_roll(editor: RosterEditor) -> Callbacks[x6.InitiativeOrder]:
    """The callbacks told of each initiative rolled with *editor*'s roster."""
    return _ON_ROLL.setdefault(editor, Callbacks())


class InitiativeRoller(_TypedChains, Tool):
    """Roll initiative for every fighter of the roster (§Start of combat): each rolls their
    Quickness in exploding d6; ties go to Quickness, then Deftness, both from their row. Each
    die is shown as its chain."""

    _ROW = "each fighter's Quickness, from their row of the roster"
    reaches = (
        Reach(x6.initiative_mean, {}, {"quickness": _ROW}),
        Reach(x6.initiative_table, {}, {
            "combatants": "the roster's fighters: name, Quickness and Deftness from each row",
            "dice_totals": "drawn from the dice: each one's Quickness", "dice": ROLLED}),
    )

    def __init__(self, fighters: RosterEditor | None = None) -> None:
        """*fighters*: the roster read (the chapter's shared one unless given)."""
        self.editor = fighters if fighters is not None else shared_roster("exploding_d6")
        self.hint = w.HTML(f"<small>{html.escape(EMPTY_HINT)}.</small>")
        self.help = w.HTML("<small>Everyone in the roster rolls their Quickness. Typed dice go "
                           "in the roster's order, a die that exploded as its chain.</small>")
        self.error = ErrorLine()
        self.odds = w.HTML()
        self.entry = DiceEntry("faces in order, e.g. 4, 5, 1, 6, 6, 5, …")
        self.result = w.HTML(self.waiting)
        self.explanation = ExplanationView()
        self.people: list[tuple[str, int, int]] = []
        self.last: x6.InitiativeOrder | None = None
        super().__init__([self.hint, self.help, self.error,
                          section("Odds before you roll", self.odds),
                          section("Roll", self.entry),
                          section("Order", self.result, self.explanation)],
                         "rulebook-x6-initiative")
        self.editor.on_change(self._follow)
        self.entry.on_request(self.roll)
        self.update()

    def _follow(self, roster: Roster) -> None:
        """The roster changed: read it again (a method, so the roster does not keep the tool
        alive)."""
        self.update()

    @answers("odds")
    def update(self) -> None:
        """Read the roster; show each fighter's dice and average initiative."""
        self.people = [(f.name, f["quickness"], f["deftness"])
                       for f in self.editor.roster.fighters]
        set_shown(self.hint, not self.people)
        self.result.value = self.waiting
        self.explanation.clear()
        rows = "".join(f"<li>{html.escape(n)}: {q} dice, "
                       f"{float(x6.initiative_mean(q)):.1f} on average</li>"
                       for n, q, _ in self.people)
        self.odds.value = f"<ul class='rulebook-x6-init-odds'>{rows}</ul>"

    @answers("explanation", line="entry.error", waiting=("result",))
    def roll(self, request: RollRequest) -> None:
        """Roll everyone's dice from the request (seeded, or the faces typed in rolling
        order)."""
        if not self.people:
            raise RulesError(f"{EMPTY_HINT}.")
        expect_chains(request, sum(q for _, q, _ in self.people))
        self.last = x6.initiative_table(self.people, dice=request.dice)
        _ROLLED[self.editor] = self.last
        _on_roll(self.editor)(self.last)
        by_name = {r.name: r.chains for r in self.last.rolls}
        rows = "".join(
            f"<tr><td>{i}</td><td>{html.escape(r.name)}</td><td>"
            + "".join(chain_html(c) for c in by_name[r.name])
            + f"</td><td class='rulebook-x6-init-total'><b>{r.value}</b></td></tr>"
            for i, r in enumerate(self.last.rolls, start=1))
        how = request.describe()
        ties = "".join(f"<div>Tied on everything: {', '.join(map(html.escape, t))} — "
                       f"roll off at the table.</div>" for t in self.last.ties)
        self.result.value = (f"<table class='rulebook-x6-order'><thead><tr><th>Turn</th>"
                             f"<th>Combatant</th><th>Dice (chains)</th><th>Initiative</th></tr>"
                             f"</thead><tbody>{rows}</tbody></table>{ties}<small>({how})</small>")
        self.explanation.show(self.last.trace)


_MODES = [("Hand-to-hand", "melee"), ("Single shot", "single"), ("Burst", "burst"),
          ("Thrown weapon", "throw")]
_COVERS = [("None", 0), ("6+ (light)", 6), ("5+ (half)", 5), ("4+ (most)", 4)]
_PREVENT = [("the heaviest", "heaviest"), ("the lightest", "lightest")]
_SPECIALS = [("None", "none"), ("Accurate", "accurate"), ("Massive", "massive"), ("K.O.", "ko"),
             ("Disarming", "disarm")]
_REACTIONS = [("None", "none"), ("Dodge", "dodge"), ("Parry", "parry"),
              ("Shield parry", "shield parry")]
_STACKING = [("one roll", "best"), ("two rolls", "each")]
#: What the "Dodge or parry dice" field holds for each reaction.
_REACTION_HINT = {"dodge": "your Dodge value", "parry": "skill + weapon dice"}
#: The engine's special attacks: an accurate attack is a number of actions, not a special.
_SETUP_SPECIAL = {"accurate": "none"}


def _number(label: str, value: str | int) -> w.Text:
    field = labelled_text(label, str(value), width=NUMBER_WIDTH)
    field.continuous_update = False
    return field


def _menu(label: str, options: list, value: object, width: str = MENU_WIDTH) -> w.Dropdown:
    return w.Dropdown(options=options, value=value, description=label,
                      style={"description_width": LABEL_WIDTH},
                      layout=shared_layout(width=width))


def _check(label: str) -> w.Checkbox:
    return w.Checkbox(value=False, description=label, indent=False,
                      layout=shared_layout(width=FIELD_WIDTH))


class AttackPipeline(Tool):
    """One attack as one flow (§Sequence of an attack, §Reactions): the hit roll with every
    option of the seed, the defender's reaction (dodge, parry, shield parry, behind cover or
    not), cover, protection and the wounds — or a K.O. or disarming attack's contest. One Roll
    (or the dice typed in the order they are rolled) resolves it all."""

    #: What the setup decides for the rolls after it (attack_setup's result).
    _FROM_SETUP: ClassVar[dict[str, str]] = {
        "min_roll": "the setup's minimum roll", "crit_at": "the setup's critical roll",
        "burst": "the setup: a burst has no criticals"}
    _DEFENCE: ClassVar[dict[str, str]] = {
        "reaction": "Reaction", "reaction_dice": "Dodge or parry dice",
        "reaction_min_roll": "Defender's min. roll", "cover": "Target's cover",
        "stacking": "Shield behind cover", "pool": "Protection pool",
        "critical_pool": "Of it against crits", "wounds_per_hit": "Wounds a hit",
        "piercing": "Piercing", "prevent": "Crits stopped first"}
    _SHIELD: ClassVar[dict[str, str]] = {
        "shield": "a round shield, the chapter's one shield (cover 5+)"}
    reaches = (
        Reach(x6.attack_setup, {
            "skill": "Skill", "weapon_dice": "Weapon dice", "mode": "Attack mode",
            "min_roll": "Usual minimum roll", "attack_number": "Attack in a row",
            "compensation": "Recoil compensation", "aim_actions": "Aim actions",
            "accurate_actions": "Extra actions", "perception": "Perception",
            "walking": "Walking (+1 min. roll)", "distance": "Target's distance (m)",
            "weapon_range": "Weapon distance (m)", "supported": "Weapon supported (−1)",
            "off_hand": "Off-hand weapon (+1)", "special": "Special attack",
            "massive_actions": "Extra actions", "strength": "Strength",
            "recoil": "Weapon recoils (untick for a bow)",
            "aim_interrupted": "Hit while aiming"}),
        Reach(x6.hit_odds, {}, {"dice": "the setup's dice", **_FROM_SETUP,
                                "explode_depth": "exact to the engine's own depth"}),
        Reach(x6.attack_odds, _DEFENCE, {
            "dice": "the setup's dice", **_FROM_SETUP, **_SHIELD,
            "explode_depth": "exact to the engine's own depth"}),
        Reach(x6.attack, {**_DEFENCE, "mode": "Attack mode", "contest": "Special attack",
                          "contest_dice": "Resistance dice",
                          "contest_min_roll": "Defender's min. roll"}, {
            "dice_totals": "the setup's dice, drawn from the Roll / My dice row",
            "dice": ROLLED, "cover_faces": "drawn from the Roll / My dice row after the "
            "reaction's dice, one a hit still standing", **_FROM_SETUP, **_SHIELD,
            "shield_block": "a raised Shield Block is kept from round to round on the fight "
            "page; here its cover is the Target's cover menu"}),
    )

    def __init__(self, skill: int = 3, weapon_dice: int = 2, mode: str = "single",
                 cover: int = 0, pool: int = 2, reaction: str = "none",
                 options: bool = True, fighters: bool = False) -> None:
        """*options*: build the special attacks, range and recoil fields at once; a chapter
        that seldom needs them passes False, and they are built the first time the reader
        opens them (a page's widgets cost it time to open, lean.py). *fighters*: menus that
        fill the attacker's and the defender's fields from the roster's rows (on a chapter
        that shows the roster)."""
        self.skill = _number("Skill", skill)
        self.weapon = _number("Weapon dice", weapon_dice)
        self.mode = _menu("Attack mode", _MODES, mode)
        self.attack_number = _number("Attack in a row", 1)
        self.compensation = _number("Recoil compensation", 0)
        self.aim = _number("Aim actions", 0)
        self.perception = _number("Perception", 3)
        self.interrupted = _check("Hit while aiming")
        self.base = _number("Usual minimum roll", 5)
        self.reaction = _menu("Reaction", _REACTIONS, reaction)
        self.reaction_dice = _number("Dodge or parry dice", 3)
        self.reaction_min = _number("Defender's min. roll", 5)
        self.cover = _menu("Target's cover", _COVERS, cover)
        self.stacking = _menu("Shield behind cover", _STACKING, "best")
        self.pool = _number("Protection pool", pool)
        self.critical_pool = _number("Of it against crits", 0)
        self.per_hit = _number("Wounds a hit", 1)
        self.piercing = _number("Piercing", 0)
        self.prevent = _menu("Crits stopped first", _PREVENT, "heaviest")
        self.resistance = _number("Resistance dice", 3)
        self.next_button = button("Next attack this round", "Count one more attack in a row")
        self.more_button = button("Special attacks, range, recoil",
                                  "Show the special attacks, the target's distance, walking, "
                                  "support, the off hand and recoil")
        self.options: w.VBox | None = None
        self.round_button = button("New round", "Recoil does not carry into a new round")
        self.error = ErrorLine()
        self.odds = w.HTML()
        self.entry = DiceEntry("in order: hit dice, then the defender's, e.g. 4, 5, 6, 6, 5")
        self.result = w.HTML(self.waiting)
        self.carry_button = button("Carry the pool left", "Set the Protection pool to what "
                                   "is left of it, for the next attack")
        set_shown(self.carry_button, False)
        self.explanation = ExplanationView()
        self.setup: x6.AttackSetup | None = None
        self.last: x6.AttackFlow | None = None
        heading = "<h4 style='margin:.2em 0'>{}</h4>"
        column = shared_layout(flex="1 1 21em", min_width="0")
        picks: list[list[w.Widget]] = [[], []]
        if fighters:
            picks = [[FighterPick("exploding_d6", self.fill_attacker, label="Attacker")],
                     [FighterPick("exploding_d6", self.fill_defender, label="Defender")]]
        attack = w.VBox([w.HTML(heading.format("The attack")), *picks[0], self.skill,
                         self.weapon,
                         self.mode, self.attack_number, self.compensation, self.aim,
                         self.perception, self.interrupted, self.base,
                         w.HBox([self.next_button, self.round_button, self.more_button])],
                        layout=column)
        defence = w.VBox([w.HTML(heading.format("The defender")), *picks[1], self.reaction,
                          self.reaction_dice, self.reaction_min, self.resistance, self.cover,
                          self.stacking, self.pool, self.critical_pool, self.per_hit,
                          self.piercing, self.prevent], layout=column)
        row = shared_layout(flex_flow="row wrap", align_items="flex-start",
                            grid_gap="0 1.2em")
        before = w.VBox([self.odds, self.entry],
                        layout=shared_layout(flex="1 1 26em", min_width="0"))
        after = w.VBox([w.HTML(heading.format("Result")), self.result, self.carry_button,
                        self.explanation], layout=shared_layout(flex="1 1 26em", min_width="0"))
        self.columns = w.HBox([attack, defence], layout=row)
        super().__init__([self.columns, self.error,
                          w.HBox([before, after], layout=row)], "rulebook-x6-attack")
        for f in (self.skill, self.weapon, self.attack_number, self.compensation, self.aim,
                  self.perception, self.base, self.reaction_dice, self.reaction_min,
                  self.pool, self.critical_pool, self.per_hit, self.piercing,
                  self.resistance, self.mode, self.cover, self.prevent, self.reaction,
                  self.stacking, self.interrupted):
            f.observe(lambda _: self.update(), "value")
        self.more_button.on_click(lambda _: self.show_options())
        if options:
            self.show_options(update=False)
        self.next_button.on_click(lambda _: self.next_attack())
        self.round_button.on_click(lambda _: self.new_round())
        self.carry_button.on_click(lambda _: self.carry_pool())
        self.entry.on_request(self.roll)
        self.update()

    @built_whole
    def _build_options(self) -> w.VBox:
        """The special attacks, range and recoil column."""
        self.special = _menu("Special attack", _SPECIALS, "none", width="19em")
        self.special_actions = _number("Extra actions", 0)
        self.strength = _number("Strength", 3)
        self.distance = labelled_text("Target's distance (m)", "", "in range",
                                      width=NUMBER_WIDTH)
        self.weapon_range = labelled_text("Weapon distance (m)", "", "in range",
                                          width=NUMBER_WIDTH)
        self.recoil = w.Checkbox(value=True, description="Weapon recoils (untick for a bow)",
                                 indent=False, layout=shared_layout(width=FIELD_WIDTH))
        self.walking = _check("Walking (+1 min. roll)")
        self.supported = _check("Weapon supported (−1)")
        self.off_hand = _check("Off-hand weapon (+1)")
        fields = [self.special, self.special_actions, self.strength, self.distance,
                  self.weapon_range, self.recoil, self.walking, self.supported, self.off_hand]
        for f in fields:
            if isinstance(f, w.Text):
                f.continuous_update = False
            f.observe(lambda _: self.update(), "value")
        column = w.VBox([w.HTML("<h4 style='margin:.2em 0'>Special attacks and range</h4>"),
                         *fields], layout=shared_layout(flex="1 1 21em", min_width="0"))
        fit_labels(column)
        return column

    def show_options(self, update: bool = True) -> None:
        """Show the special attacks, range and recoil (built the first time)."""
        if self.options is None:
            self.options = self._build_options()
            first, *rest = self.columns.children
            self.columns.children = (first, self.options, *rest)
        set_shown(self.more_button, False)
        if update:
            self.update()

    def _option(self, name: str, default: object) -> object:
        """An option's value, or what it is before the reader opens the options."""
        return default if self.options is None else getattr(self, name).value

    def fill_attacker(self, fighter: Fighter) -> None:
        """The attacker's fields from their roster row: weapon skill and dice, attack mode,
        Perception and minimum roll; with the options open, Strength, the weapon's distance
        and whether it recoils."""
        self.skill.value, self.weapon.value = str(fighter["skill"]), str(fighter["weapon_dice"])
        self.mode.value = fighter["mode"]
        self.compensation.value = str(fighter["compensation"])
        self.perception.value = str(fighter["perception"])
        self.base.value = str(fighter["min_roll"])
        self.per_hit.value = str(fighter["wounds_per_hit"])
        self.piercing.value = str(fighter["piercing"])
        if self.options is not None:
            self.strength.value = str(fighter["strength"])
            self.recoil.value = fighter["recoil"]
            if self.distance.value.strip():
                self.weapon_range.value = str(fighter["weapon_range"])

    def fill_defender(self, fighter: Fighter) -> None:
        """The defender's fields from their roster row: protection, minimum roll and the
        dice of the reaction chosen (the Dodge value, or the weapon's dice for a parry)."""
        self.pool.value = str(fighter["protection"])
        self.critical_pool.value = str(fighter["critical_protection"])
        self.reaction_min.value = str(fighter["min_roll"])
        if self.reaction.value in ("dodge", "parry"):
            self.reaction_dice.value = str(Fight.reaction_dice(fighter, self.reaction.value))

    def next_attack(self) -> None:
        """One more attack in a row this round (recoil grows). A shot fired straight after the
        last one has no aim actions, so the aim field goes back to 0; when aiming broke the run
        before the last shot, that shot was the first of a new run."""
        try:
            n = read_int("Attack in a row", self.attack_number, 1)
        except RulesError:
            n = 0
        if self.setup is not None and self.setup.recoil_broken:
            n = 1
        self.aim.value = "0"
        self.interrupted.value = False
        self.attack_number.value = str(n + 1)

    def new_round(self) -> None:
        """A new round: recoil starts again."""
        self.attack_number.value = "1"

    def carry_pool(self) -> None:
        """Protection spent is gone for the fight (§Protection Pool): the pool field takes
        what the last attack left of it."""
        if self.last is not None:
            self.pool.value = str(self.last.pool_left)
            self.critical_pool.value = str(self.last.protection.critical_pool_left)

    def _show_fields(self) -> None:
        """Show the fields the chosen reaction and special attack read, and only those."""
        special, reaction = self._option("special", "none"), self.reaction.value
        if self.options is not None:
            set_shown(self.special_actions, special in ("accurate", "massive"))
            set_shown(self.strength, special == "massive")
        set_shown(self.resistance, special in ("ko", "disarm"))
        set_shown(self.reaction_dice, reaction in ("dodge", "parry"))
        set_shown(self.reaction_min, reaction in ("dodge", "parry")
                  or special in ("ko", "disarm"))
        set_shown(self.stacking, reaction == "shield parry" and bool(self.cover.value))
        if reaction in _REACTION_HINT:
            self.reaction_dice.placeholder = _REACTION_HINT[reaction]

    def _setup(self) -> x6.AttackSetup:
        if self.options is None:
            return x6.attack_setup(
                read_int("Skill", self.skill), read_int("Weapon dice", self.weapon),
                self.mode.value, min_roll=read_int("Usual minimum roll", self.base, 1),
                attack_number=read_int("Attack in a row", self.attack_number, 1),
                compensation=read_int("Recoil compensation", self.compensation),
                aim_actions=read_int("Aim actions", self.aim),
                perception=read_int("Perception", self.perception),
                aim_interrupted=self.interrupted.value)
        special = self.special.value
        actions = read_int("Extra actions", self.special_actions)
        distance = self.distance.value.strip()
        weapon_range = self.weapon_range.value.strip()
        return x6.attack_setup(
            read_int("Skill", self.skill), read_int("Weapon dice", self.weapon),
            self.mode.value, min_roll=read_int("Usual minimum roll", self.base, 1),
            attack_number=read_int("Attack in a row", self.attack_number, 1),
            compensation=read_int("Recoil compensation", self.compensation),
            aim_actions=read_int("Aim actions", self.aim),
            accurate_actions=actions if special == "accurate" else 0,
            perception=read_int("Perception", self.perception),
            walking=self.walking.value,
            distance=read_int("Target's distance (m)", self.distance) if distance or
            weapon_range else None,
            weapon_range=read_int("Weapon distance (m)", self.weapon_range, 1) if distance
            or weapon_range else None,
            supported=self.supported.value, off_hand=self.off_hand.value,
            special=_SETUP_SPECIAL.get(special, special),
            massive_actions=actions if special == "massive" else 0,
            strength=read_int("Strength", self.strength), recoil=self.recoil.value,
            aim_interrupted=self.interrupted.value)

    def _defence(self) -> dict[str, object]:
        """The defender's side: reaction, cover, protection and what a hit deals."""
        reaction = self.reaction.value
        return {
            "reaction": reaction,
            "reaction_dice": read_int("Dodge or parry dice", self.reaction_dice)
            if reaction in ("dodge", "parry") else 0,
            "reaction_min_roll": read_int("Defender's min. roll", self.reaction_min, 1),
            "cover": self.cover.value or None, "stacking": self.stacking.value,
            "pool": read_int("Protection pool", self.pool),
            "critical_pool": read_int("Of it against crits", self.critical_pool),
            "wounds_per_hit": read_int("Wounds a hit", self.per_hit, 1),
            "piercing": read_int("Piercing", self.piercing), "prevent": self.prevent.value}

    @answers("odds")
    def update(self) -> None:
        """Read the attack and the defender; show the setup and the exact odds."""
        self.setup = None
        self.result.value = self.waiting
        set_shown(self.carry_button, False)
        self.explanation.clear()
        self._show_fields()
        s = self._setup()
        defence = self._defence()
        contest = self._option("special", "none") in ("ko", "disarm")
        if contest:
            read_int("Resistance dice", self.resistance)
        if defence["reaction"] in ("dodge", "parry") and not x6.attack_mode(s.outcome)[
                defence["reaction"]]:
            raise RulesError(f"Reaction: a {x6.attack_mode(s.outcome)['label'].lower()} "
                             f"cannot be {'dodged' if defence['reaction'] == 'dodge' else 'parried'}"
                             "; choose a shield parry or none")
        hit = x6.hit_odds(s.dice, s.min_roll, s.crit_at, s.burst)
        wounds = None if contest else x6.attack_odds(
            s.dice, s.min_roll, s.crit_at, s.burst, **defence) if s.dice <= 12 else "too many"
        crit = "no criticals (burst)" if s.burst else f"critical on <b>{s.crit_at}+</b>"
        harmless = "" if s.wounds else " This attack deals no wounds."
        if s.ammunition:
            harmless += f" It spends {plural(s.ammunition, 'round')} of ammunition."
        broken = (" Aiming came between this shot and the last one, so it has no recoil."
                  if s.recoil_broken else "")
        self.odds.value = (f"<h4 style='margin:.2em 0'>Odds before you roll</h4>"
                           f"<div class='rulebook-x6-setup'>Roll <b>{s.dice}</b> dice: "
                           f"hit on <b>{s.min_roll}+</b>, {crit}.{harmless}{broken}</div>"
                           + self._odds_html(hit, wounds))
        # Only an attack whose inputs all hold can be rolled.
        self.setup = s

    def _odds_html(self, hit: x6.HitOdds, wounds: x6.WoundOdds | str | None) -> str:
        total = hit.total_hits()
        head = odds_line("rulebook-headline", (
            f"At least one hit: {chance_html(hit.p_at_least(1), strong=True)}; at least one "
            f"critical: {chance_html(hit.p_criticals_at_least(1), strong=True)}"))
        rows = [(f"{n} hit{'s' if n != 1 else ''}", p) for n, p in total.items() if p]
        out = head + "<details><summary>Odds of each number of hits</summary>" + \
            odds_table_html(rows, "Hits (with criticals)") + "</details>"
        crows = [(plural(n, "critical"), p) for n, p in hit.criticals().items() if p]
        if len(crows) > 1:   # a burst never is critical: nothing to tell apart
            out += ("<details class='rulebook-x6-crit-odds'><summary>Odds of each number of "
                    "criticals</summary>" + odds_table_html(crows, "Criticals") + "</details>")
        if isinstance(wounds, x6.WoundOdds):
            wrows = [(str(k), p) for k, p in wounds.pmf.items()]
            through = "reaction, cover" if self.reaction.value != "none" else "cover"
            out += odds_line("rulebook-x6-wound-odds", (
                f"After the {through} and protection: {float(wounds.mean()):.2f} wounds on "
                f"average; at least one wound {chance_html(wounds.p_at_least(1))}")) + \
                ("<details><summary>Odds of each number of wounds</summary>"
                 + odds_table_html(wrows, "Wounds") +
                 f"<small>Exact up to {wounds.explode_depth} explosions a die; the chance "
                 f"of more ({percent(wounds.truncated)}) is not listed.</small></details>")
        elif wounds == "too many":
            out += "<p><small>Wound odds are worked out for up to 12 dice.</small></p>"
        return out

    @answers("explanation", line="entry.error", waiting=("result",))
    def roll(self, request: RollRequest) -> None:
        """Roll the whole attack from a seed, or read the dice typed in the order they are
        rolled: the hit dice, then the defender's reaction dice, then the cover dice, then
        the resistance dice."""
        s = self.setup
        if s is None:
            raise RulesError("Fix the attack's inputs first.")
        defence = self._defence()
        if defence["reaction"] not in ("dodge", "parry"):
            defence["reaction_dice"] = None   # a shield parry rolls one d6 a hit
        special = self._option("special", "none")
        contest = special if special in ("ko", "disarm") else "none"
        self.last = r = x6.attack(
            s.dice, min_roll=s.min_roll, crit_at=s.crit_at, burst=s.burst, mode=s.outcome,
            contest=contest, contest_dice=read_int("Resistance dice",
                                                   self.resistance) if contest != "none"
            else None, contest_min_roll=defence["reaction_min_roll"], dice=request.dice,
            **defence)
        self.result.value = self._result_html(r, request.describe())
        set_shown(self.carry_button, r.spent > 0)
        self.carry_button.description = f"Carry the pool left ({r.pool_left})"
        # The steps wait behind a toggle, so the inputs and the result fit one screen.
        self.explanation.value = ("<details><summary>How it was worked out, step by step"
                                  f"</summary>{steps_html(r.trace)}</details>")

    def _result_html(self, r: x6.AttackFlow, how: str) -> str:
        dice = "".join(chain_html(c, kind) for c, (_, kind, _) in zip(r.hit.chains, r.hit.dice))
        stages = [f"<li>Hit roll: <b>{html.escape(r.hit.announcement)}</b>"
                  + (f" ({plural(r.hit.megacriticals, 'megacritical')})"
                     if r.hit.megacriticals else "") + f" {dice}</li>"]
        if r.reaction is not None:
            x = r.reaction
            rolled = "".join(chain_html(c, "hit" if sum(c) >= x.min_roll else "miss")
                             for c in x.chains)
            what = {"dodge": f"Dodge on {x.min_roll}+", "parry": f"Parry on {x.min_roll}+",
                    "shield parry": f"Shield parry, cover {x.min_roll}+"}[x.kind]
            left = ("the whole attack dodged" if x.outcome == "dodged" else
                    f"{plural(x.criticals, 'crit')}, {plural(x.hits, 'normal hit')} left")
            stages.append(f"<li>{what}: {left} {rolled}</li>")
        if r.cover is not None:
            stages.append(f"<li>Cover {self.cover.value}+: {plural(r.cover.criticals, 'crit')}"
                          f", {plural(r.cover.hits, 'normal hit')} left</li>")
        p = r.protection
        before = p.spent + p.pool_left
        stages.append(f"<li>Protection: {plural(p.spent, 'unit')} spent, pool {before} → "
                      f"<b>{p.pool_left}</b></li>")
        if r.contest is not None:
            stages.append(f"<li>Resistance: {plural(r.contest.value, 'success', 'successes')}"
                          f" against {plural(r.hits + r.criticals, 'hit')}</li>")
        colour = CRIT if r.megacriticals else INK
        return (headline_html(html.escape(r.headline), TOTAL_SIZE, colour)
                + f"<ol class='rulebook-x6-stages'>{''.join(stages)}</ol>"
                f"<small>({how})</small>")


class UnarmedAttack(_TypedChains, Tool):
    """Weaponless melee (§Weaponless melee): the dice, Piercing and reach of a fighter's fists,
    the exact odds of the blow and the blow itself, rolled or typed (§The hit roll, §Critical
    hits: a melee blow can be critical)."""

    reaches = (
        Reach(x6.unarmed_attack, {"hand_to_hand": "Hand-to-hand",
                                  "strength": "Strength", "quickness": "Quickness"}),
        Reach(x6.hit_odds, {"min_roll": "Minimum roll"}, {
            "dice": "the fists' dice (unarmed_attack)",
            "crit_at": "a blow's critical threshold, 11+ (no recoil or aim here)",
            "burst": "a blow is never a burst", "explode_depth": "exact to the engine's own "
            "depth"}),
        Reach(x6.hit_roll, {"min_roll": "Minimum roll"}, {
            "dice_totals": "the fists' dice (unarmed_attack), drawn from the Roll / My dice "
            "row", "dice": ROLLED,
            "crit_at": "a blow's critical threshold, 11+ (no recoil or aim here)",
            "burst": "a blow is never a burst"}),
    )

    def __init__(self, hand_to_hand: int = 3, strength: int = 3, quickness: int = 3,
                 min_roll: int = 5) -> None:
        self.skill = _number("Hand-to-hand", hand_to_hand)
        self.strength = _number("Strength", strength)
        self.quickness = _number("Quickness", quickness)
        self.min_roll = _number("Minimum roll", min_roll)
        self.error = ErrorLine()
        self.fists = w.HTML()
        self.odds = w.HTML()
        self.entry = DiceEntry("the fists' dice as chains, e.g. 5, 6, 6, 2, 1, 3")
        self.result = w.HTML(self.waiting)
        self.explanation = ExplanationView()
        self.fists_made: x6.UnarmedAttack | None = None
        self.last: x6.HitRoll | None = None
        super().__init__([w.HBox([self.skill, self.strength]),
                          w.HBox([self.quickness, self.min_roll]), self.error, self.fists,
                          section("Odds before you roll", self.odds),
                          section("Roll", self.entry),
                          section("The blow", self.result, self.explanation)],
                         "rulebook-x6-unarmed")
        for f in (self.skill, self.strength, self.quickness, self.min_roll):
            f.observe(lambda _: self.update(), "value")
        self.entry.on_request(self.roll)
        self.update()

    @answers("fists", "odds")
    def update(self) -> None:
        """Read the four numbers; show what the fists roll and the odds of the blow."""
        self.fists_made = None
        self.result.value = self.waiting
        self.explanation.clear()
        r = x6.unarmed_attack(read_int("Hand-to-hand", self.skill),
                              read_int("Strength", self.strength),
                              read_int("Quickness", self.quickness))
        m = read_int("Minimum roll", self.min_roll, 1)
        hit = x6.hit_odds(r.dice, m)
        self.fists.value = (f"<div class='rulebook-x6-fists'><b>{html.escape(self.headline(r))}"
                            "</b></div><small>" + " ".join(
                                html.escape(s.text) + "." for s in r.trace) + "</small>")
        self.odds.value = odds_line("rulebook-headline", (
            f"At least one hit: {chance_html(hit.p_at_least(1), strong=True)}; at least one "
            f"critical: {chance_html(hit.p_criticals_at_least(1), strong=True)}"))
        self.fists_made = r

    @answers("explanation", line="entry.error", waiting=("result",))
    def roll(self, request: RollRequest) -> None:
        """Roll the blow from a seed, or read the typed dice (a die that exploded as its
        chain)."""
        r = self.fists_made
        if r is None:
            raise RulesError("Fix the fists' inputs first.")
        m = read_int("Minimum roll", self.min_roll, 1)
        expect_chains(request, r.dice)
        self.last = hit = x6.hit_roll(r.dice, m, dice=request.dice)
        dice = "".join(chain_html(c, kind) for c, (_, kind, _) in zip(hit.chains, hit.dice))
        pierce = (f"; Piercing {r.piercing}: {plural(r.piercing, 'unit')} of the target's "
                  "ordinary protection cannot stop them" if r.piercing else "")
        self.result.value = (f"<div>{dice}</div>"
                             + headline_html(html.escape(self.blow(hit)))
                             + f"<small>One wound a hit that gets through{pierce}. "
                             f"({request.describe()})</small>")
        self.explanation.show(hit.trace)

    @staticmethod
    def headline(r: x6.UnarmedAttack) -> str:
        """What the fists roll, in a line."""
        return f"Roll {plural(r.dice, 'die', 'dice')}, Piercing {r.piercing}, reach {r.reach} m"

    @staticmethod
    def blow(hit: x6.HitRoll) -> str:
        """The blow's hits, as the chapter announces them."""
        mega = (f" ({plural(hit.megacriticals, 'megacritical')}, +"
                f"{plural(hit.extra_wounds, 'wound')})" if hit.megacriticals else "")
        return hit.announcement.capitalize() + mega


_VICTIMS = [("unconscious", "unconscious"), ("sleeping", "sleeping"), ("dying", "dying")]


class CoupDeGraceRoller(_TypedChains, Tool):
    """Finish a helpless opponent (§Coup de grâce): a normal attack roll, each success one
    level of the Dead state (added to a dying victim's level); a failure may wake a sleeper."""

    reaches = (
        Reach(x6.hit_odds, {"dice": "Attack dice", "min_roll": "Minimum roll"}, {
            "crit_at": "criticals do not matter: every success counts alike",
            "burst": "criticals do not matter (read as a burst)",
            "explode_depth": "exact to the engine's own depth"}),
        Reach(x6.coup_de_grace_roll, {"dice_totals": "Attack dice", "state": "The victim is",
                                      "dying_level": "Dying level", "min_roll": "Minimum roll"},
              {"dice": ROLLED}),
    )

    def __init__(self, dice: int = 3, state: str = "unconscious", min_roll: int = 5) -> None:
        self.dice = _number("Attack dice", dice)
        self.min_roll = _number("Minimum roll", min_roll)
        self.victim = _menu("The victim is", _VICTIMS, state)
        self.level = _number("Dying level", 0)
        self.error = ErrorLine()
        self.odds = w.HTML()
        self.entry = DiceEntry("attack dice as chains, e.g. 5, 5, 1")
        self.result = w.HTML(self.waiting)
        self.explanation = ExplanationView()
        self.last: x6.CoupDeGrace | None = None
        super().__init__([self.dice, self.min_roll, self.victim, self.level, self.error,
                          section("Odds before you roll", self.odds),
                          section("Roll", self.entry),
                          section("Result", self.result, self.explanation)],
                         "rulebook-x6-coup")
        for f in (self.dice, self.min_roll, self.victim, self.level):
            f.observe(lambda _: self.update(), "value")
        self.entry.on_request(self.roll)
        self.update()

    def _inputs(self) -> tuple[int, int, str, int]:
        state = self.victim.value
        level = read_int("Dying level", self.level) if state == "dying" else 0
        return (read_int("Attack dice", self.dice), read_int("Minimum roll", self.min_roll, 1),
                state, level)

    @answers("odds")
    def update(self) -> None:
        """Read the inputs and show the chance of at least one success."""
        self.result.value = self.waiting
        self.explanation.clear()
        set_shown(self.level, self.victim.value == "dying")
        n, m, _, _ = self._inputs()
        p = x6.hit_odds(n, m, m, True).p_at_least(1)
        self.odds.value = odds_line("rulebook-headline",
                                    f"Chance of at least one success: "
                                    f"{chance_html(p, strong=True)}")

    @answers("explanation", line="entry.error", waiting=("result",))
    def roll(self, request: RollRequest) -> None:
        """Roll the attack from a seed, or read the typed dice (a die that exploded as its
        chain), and finish the victim."""
        n, m, state, level = self._inputs()
        expect_chains(request, n)
        self.last = r = x6.coup_de_grace_roll(n, state, level, m, dice=request.dice)
        dice = "".join(chain_html(c, "hit" if sum(c) >= m else "miss") for c in r.chains)
        self.result.value = (f"<div>{dice}</div>{headline_html(html.escape(self.headline(r)))}"
                             f"<small>({request.describe()})</small>")
        self.explanation.show(r.trace)

    @staticmethod
    def headline(r: x6.CoupDeGrace) -> str:
        """The blow's result in a line."""
        if r.dead_level is None:
            return "Fails" + (": the sleeper will probably wake" if r.may_wake else "")
        if r.outcome == "worse":
            return f"{plural(r.value, 'success', 'successes')}: now dying at level {r.dead_level}"
        return f"{plural(r.value, 'success', 'successes')}: dead at level {r.dead_level}"


def clock_svg(clock: int | None = None, metres: int | None = None) -> str:
    """A clock face around the target, the thrower below it, and where a deviated throw lands
    (inline SVG, so it works live and in the static book)."""
    cx, cy, scale = 150, 130, 15
    parts = [f'<circle cx="{cx}" cy="{cy}" r="{6 * scale}" fill="none" stroke="#999"/>']
    for h in range(1, 13):
        dx, dy = x6.deviation_offset(h, 6)
        x, y = cx + dx * scale * 1.17, cy - dy * scale * 1.17
        weight = "700" if h == clock else "400"
        parts.append(f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="12" text-anchor="middle" '
                     f'font-weight="{weight}">{h}</text>')
    parts.append(f'<circle cx="{cx}" cy="{cy}" r="5" fill="{ACCENT}"><title>target</title>'
                 f'</circle>')
    parts.append(f'<text x="{cx + 8}" y="{cy - 6}" font-size="11" fill="{ACCENT}">target</text>')
    parts.append(f'<rect x="{cx - 5}" y="272" width="10" height="10" fill="{INK}"/>'
                 f'<text x="{cx + 10}" y="281" font-size="11">thrower</text>'
                 f'<line x1="{cx}" y1="270" x2="{cx}" y2="246" stroke="{INK}" '
                 f'stroke-dasharray="4 3"/>')
    label = "Clock face seen from the thrower"
    if clock is not None and metres is not None:
        dx, dy = x6.deviation_offset(clock, metres)
        x, y = cx + dx * scale, cy - dy * scale
        parts.append(f'<line x1="{cx}" y1="{cy}" x2="{x:.1f}" y2="{y:.1f}" stroke="{ERROR}" '
                     f'stroke-width="2"/><circle cx="{x:.1f}" cy="{y:.1f}" r="6" fill="{ERROR}">'
                     f'<title>lands here</title></circle>')
        label = f"Lands {metres} m towards {clock} o'clock from the target"
    return (f'<svg class="rulebook-x6-clock" role="img" aria-label="{html.escape(label)}" '
            f'viewBox="0 0 300 290" style="width:300px">{"".join(parts)}</svg>')


class ThrowDeviation(_TypedChains, Tool):
    """Throw an object: one success hits; a miss deviates by a d12 clock face and d6 metres."""

    reaches = (
        Reach(x6.hit_odds, {"dice": "Throw dice", "min_roll": "Minimum roll"}, {
            "crit_at": "a throw has no criticals: one success hits",
            "burst": "a throw has no criticals (read as a burst)",
            "explode_depth": "exact to the engine's own depth"}),
        Reach(x6.throw, {"dice_totals": "Throw dice", "min_roll": "Minimum roll",
                         "clock": "d12 (clock)", "metres": "d6 (metres)"}, {"dice": ROLLED}),
    )

    def __init__(self, dice: int = 3, min_roll: int = 5) -> None:
        self.dice = labelled_text("Throw dice", str(dice), width=NUMBER_WIDTH)
        self.min_roll = labelled_text("Minimum roll", str(min_roll), width=NUMBER_WIDTH)
        self.clock = labelled_text("d12 (clock)", "", "if it misses", width=NUMBER_WIDTH)
        self.metres = labelled_text("d6 (metres)", "", "if it misses", width=NUMBER_WIDTH)
        for f in (self.dice, self.min_roll):
            f.continuous_update = False
            f.observe(lambda _: self.update(), "value")
        self.error = ErrorLine()
        self.odds = w.HTML()
        self.entry = DiceEntry("throw dice as chains, e.g. 2, 4, 1")
        self.result = w.HTML(self.waiting)
        self.picture = w.HTML(clock_svg())
        self.explanation = ExplanationView()
        self.last: x6.Throw | None = None
        super().__init__([self.dice, self.min_roll, self.error,
                          section("Odds before you roll", self.odds),
                          section("Roll", self.entry, w.HBox([self.clock, self.metres])),
                          section("Result", self.result, self.picture, self.explanation)],
                         "rulebook-x6-throw")
        self.entry.on_request(self.roll)
        self.update()

    def _inputs(self) -> tuple[int, int]:
        return read_int("Throw dice", self.dice), read_int("Minimum roll", self.min_roll, 1)

    @answers("odds")
    def update(self) -> None:
        self.result.value = self.waiting
        self.explanation.clear()
        self.picture.value = clock_svg()
        n, m = self._inputs()
        p = x6.hit_odds(n, m, m, True).p_at_least(1)
        self.odds.value = (odds_line("rulebook-headline",
                                     f"Chance to hit: {chance_html(p, strong=True)}") +
                           "<small>A miss lands 1 to 6 metres away, each of the 12 clock "
                           "directions equally likely.</small>")

    @answers("explanation", line="entry.error", waiting=("result",))
    def roll(self, request: RollRequest) -> None:
        """Throw from a seed, or read the typed throw dice (and deviation dice on a miss)."""
        n, m = self._inputs()
        expect_chains(request, n)
        # Typed deviation dice have their own fields: a throw that hits needs none.
        clock, metres = request.typed_beside(lambda: (
            parse_int_text("d12 (clock)", self.clock.value, blank=0) or None,
            parse_int_text("d6 (metres)", self.metres.value, blank=0) or None)) \
            or (None, None)
        self.last = x6.throw(n, m, clock=clock, metres=metres, dice=request.dice)
        r = self.last
        chains = r.chains
        if not r.hit:
            self.clock.value, self.metres.value = str(r.clock), str(r.metres)
        how = request.describe()
        verdict = ("On target" if r.hit else
                   f"Missed: lands {r.metres} m {html.escape(r.direction)} of the target")
        self.result.value = (f"<div>{''.join(chain_html(c) for c in chains)}</div>"
                             f"{headline_html(verdict)}"
                             f"<small>({how})</small>")
        self.picture.value = clock_svg(r.clock, r.metres)
        self.explanation.show(r.trace)


def _action_rows() -> list[tuple[str, str]]:
    """(label with its cost, action) of the chapter's actions table, for a menu."""
    from rulescore.systems.exploding_d6._system import DATA
    return [(f"{r['label']} ({plural(r['cost'], 'action')})", r["action"])
            for r in DATA.table("combat", "actions")]


class RoundPhases(Tool):
    """One combat round's phases for the combatants in initiative order (§Sequence of
    rounds): the start of the round, each one's player combat round, the end of the round."""

    reaches = (Reach(x6.round_phases, {"order": "Combatants in order"}),)

    def __init__(self, order: str = "rogue, robber") -> None:
        self.order = labelled_text("Combatants in order", order, "names, first to act first",
                                   width=LIST_WIDTH)
        self.order.continuous_update = False
        self.error = ErrorLine()
        self.result = w.HTML()
        super().__init__([self.order, self.error, self.result], "rulebook-x6-phases")
        self.order.observe(lambda _: self.update(), "value")
        self.update()

    @answers("result")
    def update(self) -> None:
        """Read the names and list the round's phases."""
        names = [n.strip() for n in self.order.value.split(",") if n.strip()]
        phases = x6.round_phases(names)
        rows = "".join(f"<li>{html.escape(p)}" + (f" — <b>{html.escape(who)}</b>" if who else "")
                       + "</li>" for p, who in phases)
        self.result.value = f"<ol class='rulebook-x6-phase-list'>{rows}</ol>"


class ActionsTool(Tool):
    """A combatant's actions through a turn (§Actor and actions): the actions a round their
    lineage, templates and two weapons give; none before their first turn (§Start of combat);
    refreshed when their turn comes; each action spent at its cost from the actions table;
    and how far they move (walk, run, crawl; halved behind a Shield Block, §Shields)."""

    reaches = (
        Reach(x6.max_actions, {"lineage": "Lineage", "extra": "Extra actions",
                               "two_weapons": "Two weapons"}),
        Reach(x6.start_combat, {}, {"maximum": "the actions a round (max_actions)"}),
        Reach(x6.refresh, {}, {"pool": "the combatant's actions, shown on the tool"}),
        Reach(x6.spend, {"action": "Action"}, {"pool": "the combatant's actions, shown on "
                                                        "the tool"}),
        Reach(x6.movement, {"quickness": "Quickness", "hunkered": "Hunkered",
                            "shield_block": "Shield Block raised"},
              {"kind": "each of walk, run and crawl is shown"}),
    )

    def __init__(self, quickness: int = 3) -> None:
        from rulescore.systems.exploding_d6.roster import lineages
        self.lineage = _menu("Lineage", list(lineages()), lineages()[0])
        self.extra = _number("Extra actions", 0)
        self.two = _check("Two weapons")
        self.action = _menu("Action", _action_rows(), "attack", width="24em")
        self.spend_button = button("Spend", "Spend the action's cost from those in hand")
        self.turn_button = button("Their turn comes", "Refresh: every action available again")
        self.quickness = _number("Quickness", quickness)
        self.hunkered = _check("Hunkered")
        self.block = _check("Shield Block raised")
        self.error = ErrorLine()
        self.hand = w.HTML()
        self.moves = w.HTML()
        self.explanation = ExplanationView()
        self.pool: x6.ActionPool | None = None
        super().__init__([w.HBox([self.lineage, self.extra, self.two]), self.hand,
                          w.HBox([self.turn_button, self.action, self.spend_button]),
                          w.HBox([self.quickness, self.hunkered, self.block]), self.error,
                          self.moves, self.explanation], "rulebook-x6-actions")
        for f in (self.lineage, self.extra, self.two):
            f.observe(lambda _: self.update(), "value")
        for f in (self.quickness, self.hunkered, self.block):
            f.observe(lambda _: self.move(), "value")
        self.turn_button.on_click(lambda _: self.refresh())
        self.spend_button.on_click(lambda _: self.spend())
        self.update()

    def _show_hand(self, note: str) -> None:
        p = self.pool
        self.hand.value = (headline_html(f"<span class='rulebook-x6-hand'>{p.available} of "
                                         f"{p.maximum} actions</span>")
                           + f"<small>{html.escape(note)}</small>")

    @answers("hand", "moves", "explanation")
    def update(self) -> None:
        """The actions a round; a fight starts with none in hand."""
        most = x6.max_actions(self.lineage.value, read_int("Extra actions", self.extra),
                              self.two.value)
        self.pool = x6.start_combat(most)
        self._show_hand("The fight has started: no actions before the first turn.")
        self.explanation.clear()
        self.move()

    @answers("explanation")
    def refresh(self) -> None:
        """Their turn comes: every action available again."""
        if self.pool is None:
            raise RulesError("Fix the actions a round first.")
        self.pool = x6.refresh(self.pool)
        self._show_hand("Their turn: actions refreshed.")
        self.explanation.clear()

    @answers("explanation")
    def spend(self) -> None:
        """Spend the chosen action's cost."""
        if self.pool is None:
            raise RulesError("Fix the actions a round first.")
        done = x6.spend(self.pool, self.action.value)
        self.pool = done.pool
        self._show_hand(done.trace[0].text)
        self.explanation.show(done.trace)

    @answers("moves")
    def move(self) -> None:
        """How far they move with their Quickness."""
        q = read_int("Quickness", self.quickness)
        block = self.block.value
        walk = x6.movement("walk", q, shield_block=block)
        run = x6.movement("run", q, shield_block=block)
        crawl = (f"crawl {x6.movement('crawl', q, hunkered=True, shield_block=block)} m"
                 if self.hunkered.value else "crawl only while Hunkered")
        self.moves.value = (f"<div class='rulebook-x6-moves'>Walk {walk} m, run {run} m, "
                            f"{crawl}" + (" (halved: Shield Block)" if block else "")
                            + "</div>")


class DiceForActionsTool(Tool):
    """A bonus die for one more action, or a destiny die stealing one from an opponent
    (§Bonus dice actions): the spender has it at once, even as a reaction; the opponent loses
    it from this turn, or the next if it is not theirs."""

    reaches = (
        Reach(x6.bonus_die_action, {}, {"pool": "Your actions left and Actions a round"}),
        Reach(x6.destiny_die_action, {}, {
            "pool": "Your actions left and Actions a round",
            "victim": "Opponent's actions left and Actions a round"}),
    )

    @classmethod
    def words(cls) -> dict[str, str]:
        """The two pools' parts as the engine names them ("pool's actions left"), each the
        field that sets it: both pools take the one Actions a round."""
        return {**super().words(), "pool's actions a round": "Actions a round",
                "pool's actions left": "Your actions left",
                "victim's actions a round": "Actions a round",
                "victim's actions left": "Opponent's actions left"}

    def __init__(self, mine: int = 0, theirs: int = 2, maximum: int = 2) -> None:
        self.maximum = _number("Actions a round", maximum)
        self.mine = _number("Your actions left", mine)
        self.theirs = _number("Opponent's actions left", theirs)
        self.die = _menu("Die spent", [("Destiny die", "destiny"), ("Bonus die", "bonus")],
                         "destiny")
        self.error = ErrorLine()
        self.result = w.HTML()
        self.explanation = ExplanationView()
        super().__init__([w.HBox([self.maximum, self.die]),
                          w.HBox([self.mine, self.theirs]), self.error, self.result,
                          self.explanation], "rulebook-x6-dice-actions")
        for f in (self.maximum, self.mine, self.theirs, self.die):
            f.observe(lambda _: self.update(), "value")
        self.update()

    @answers("result", "explanation")
    def update(self) -> None:
        """Spend the die and show both pools."""
        most = read_int("Actions a round", self.maximum, 1)
        me = x6.ActionPool(most, read_int("Your actions left", self.mine))
        them = x6.ActionPool(most, read_int("Opponent's actions left", self.theirs))
        if self.die.value == "bonus":
            got = x6.bonus_die_action(me)
            line = f"You: {plural(got.pool.available, 'action')}"
        else:
            got = x6.destiny_die_action(me, them)
            line = (f"You: {plural(got.pool.available, 'action')}; the opponent: "
                    f"{plural(got.victim.available, 'action')}")
        self.result.value = headline_html(html.escape(line))
        self.explanation.show(got.trace)


class ReactionsTool(Tool):
    """Who may react to one action and in what order (§Reactions): each must perceive the
    actor and still have an action; they react highest initiative first, one action each.
    The list is typed, or filled from the roster's fighters, each with their own actions a
    round (§Actor and actions) and the initiative rolled above."""

    _ROW = "the picked fighters' rows of the roster"
    reaches = (Reach(x6.reactions, {"reactors": "Who would react"}),
               Reach(x6.max_actions, {}, {"lineage": _ROW, "extra": _ROW,
                                          "two_weapons": _ROW}))
    _ENTRY = ("a name, the initiative and the actions left (then “of” and the fighter's actions "
              "a round, if not the Actions a round; and “unaware” if they do not perceive the "
              "actor), e.g. Hagen 12 1 or Rogue 27 2 of 3")

    def __init__(self, reactors: str = "Hagen 12 1", maximum: int = 2,
                 fighters: RosterEditor | None = None) -> None:
        """*fighters*: the roster the picks come from (the chapter's shared one unless
        given)."""
        self.editor = fighters if fighters is not None else shared_roster("exploding_d6")
        self.maximum = _number("Actions a round", maximum)
        self.maximum_help = w.HTML("<small>for every entry that gives no round of its own "
                                   "(“Rogue 27 2 of 3”: 2 left of 3)</small>")
        self.reactors = labelled_text("Who would react", reactors,
                                      "name initiative actions-left, …", width=LIST_WIDTH)
        self.reactors.continuous_update = False
        self.picks = w.SelectMultiple(options=(), description="From the roster", rows=3,
                                      style={"description_width": LABEL_WIDTH},
                                      layout=shared_layout(width=MENU_WIDTH))
        self.pick_help = w.HTML("<small style='display:block;line-height:1.35'>Ctrl-click "
                                "to pick several. Each joins the list with the initiative "
                                "rolled above and their own actions a round, from their "
                                "row, all still left; set the actions left to what they "
                                "have.</small>", layout=shared_layout(max_width="24em"))
        self.from_roster = w.HBox([self.picks, self.pick_help],
                                  layout=shared_layout(align_items="center",
                                                       grid_gap="0 1em"))
        # said in place: a fighter picked before initiative was rolled is listed with 0
        self.unrolled = w.HTML()
        self._picked: tuple[str, ...] = ()
        self._not_rolled: set[str] = set()
        self._quiet = False
        self.error = ErrorLine()
        self.result = w.HTML()
        self.explanation = ExplanationView()
        super().__init__([w.HBox([self.maximum, self.maximum_help],
                                 layout=shared_layout(align_items="center", grid_gap="0 1em")),
                          self.from_roster, self.reactors, self.unrolled, self.error,
                          self.result, self.explanation], "rulebook-x6-reactions")
        for f in (self.maximum, self.reactors):
            f.observe(lambda _: self.update(), "value")
        self.picks.observe(self._pick, "value")
        self.editor.on_change(self._follow)
        _on_roll(self.editor).add(self._initiative_rolled)
        self._follow(self.editor.roster)
        self.update()

    def _initiative_rolled(self, order: x6.InitiativeOrder) -> None:
        """Initiative rolled above: the fighters picked before it, still listed with 0, take
        the initiative rolled (an initiative typed over the 0 stays)."""
        rolled = {r.name: r.value for r in order.rolls}
        entries = [e.strip() for e in self.reactors.value.split(",") if e.strip()]
        changed = [_with_initiative(e, rolled[name])
                   if (name := _entry_name(e)) in self._not_rolled and name in rolled else e
                   for e in entries]
        self._not_rolled -= set(rolled)
        if changed != entries:
            self.reactors.value = ", ".join(changed)

    def _follow(self, roster: Roster) -> None:
        """List the roster's names to pick from (hidden while it has none)."""
        names = roster.names()
        kept = tuple(n for n in self.picks.value if n in names)
        self._picked, self._quiet = kept, True
        try:
            self.picks.options = names
            self.picks.value = kept
        finally:
            self._quiet = False
        set_shown(self.from_roster, bool(names))

    def _pick(self, change: dict) -> None:
        """Add the newly picked fighters to the list and drop the unpicked ones; entries
        typed or edited for others stay as they are."""
        if self._quiet:
            return
        picked = tuple(change["new"])
        dropped = {n for n in self._picked if n not in picked}
        kept = [e.strip() for e in self.reactors.value.split(",")
                if e.strip() and _entry_name(e) not in dropped]
        listed = {_entry_name(e) for e in kept}
        added = [n for n in picked if n not in self._picked and n not in listed]
        self._picked = picked
        if not added and not dropped:
            return
        self.reactors.value = ", ".join(kept + self._entries(added))

    def _entries(self, names: Sequence[str]) -> list[str]:
        """The typed entries of the fighters *names*: their initiative rolled above (0, and
        remembered to be said, where it is not rolled yet) and all of their own round of
        actions, from their row (§Actor and actions), e.g. "Rogue 27 2 of 2"."""
        rolled = _ROLLED.get(self.editor)
        initiative = {r.name: r.value for r in rolled.rolls} if rolled is not None else {}
        out = []
        for name in names:
            f = self.editor.roster.fighter(name)
            n = x6.max_actions(f["lineage"], f["extra_actions"], f["two_weapons"])
            if name not in initiative:
                self._not_rolled.add(name)
            out.append(f"{name} {initiative.get(name, 0)} {n} of {n}")
        return out

    def _read(self, most: int) -> list[tuple[str, int, x6.ActionPool, bool]]:
        """(name, initiative, actions, perceives) of each comma-separated entry."""
        entries = self.reactors.value.split(",")
        if len(entries) > MAX_REACTORS:
            raise RulesError(f"“Who would react”: at most {MAX_REACTORS} fighters, got "
                             f"{len(entries)}")
        return [self._read_entry(i, entry, most) for i, entry in enumerate(entries, start=1)]

    def _read_entry(self, i: int, entry: str, most: int
                    ) -> tuple[str, int, x6.ActionPool, bool]:
        """One "name initiative left [of round] [unaware]" entry; *most* is the round of
        actions of an entry that gives none."""
        words, round_word, unaware = _entry_parts(entry)
        own = round_word is not None
        if len(words) < 3 or not all(wd.lstrip("-").isdigit() for wd in words[-2:]) \
                or (own and not round_word.isdigit()):
            raise RulesError(f"“Who would react”: entry {i} must be {self._ENTRY}, "
                             f"got {entry.strip()!r}")
        # the engine holds the numbers to the rules (a bonus die can leave more than a round)
        most = int(round_word) if own else most
        return (" ".join(words[:-2]), int(words[-2]), x6.ActionPool(most, int(words[-1])),
                not unaware)

    @answers("result", "explanation")
    def update(self) -> None:
        """Read the would-be reactors and show who reacts, in order, and who cannot."""
        most = read_int("Actions a round", self.maximum, 1)
        read = self._read(most)
        self._say_not_rolled(read)
        r = x6.reactions(read)
        rows = [f"<li>{html.escape(n)} reacts: {p.available} of {p.maximum} actions left</li>"
                for n, p in zip(r.order, r.pools)]
        rows += [f"<li>{html.escape(v.name)} cannot react: {html.escape(v.reason)}</li>"
                 for v in r.refused]
        head = ("Nobody can react" if not r.order else
                "React in this order: " + ", ".join(r.order))
        self.result.value = (headline_html(html.escape(head))
                             + f"<ul class='rulebook-x6-reaction-list'>{''.join(rows)}</ul>")
        self.explanation.show(r.trace)

    def _say_not_rolled(self, read: Sequence[tuple[str, int, x6.ActionPool, bool]]) -> None:
        """Under the list: the picked fighters still listed with initiative 0 because it was
        not rolled when they were picked (typing their initiative takes the note away)."""
        waiting = [name for name, init, _, _ in read if name in self._not_rolled and init == 0]
        self._not_rolled &= set(waiting)
        if not waiting:
            self.unrolled.value = ""
            return
        if len(waiting) == 1:
            name = html.escape(waiting[0])
            said = (f"{name}'s initiative is not rolled yet: {name} is listed with 0, after "
                    "everyone with a higher one. Roll initiative above and the list takes "
                    "it, or type it in place of the 0.")
        else:
            said = (f"Initiative is not rolled yet for "
                    f"{' and '.join(html.escape(n) for n in waiting)}: they are listed with "
                    "0, after everyone with a higher one. Roll initiative above and the list "
                    "takes theirs, or type them in place of the 0s.")
        self.unrolled.value = f"<small class='rulebook-x6-unrolled'>{said}</small>"


def _with_initiative(entry: str, initiative: int) -> str:
    """The typed entry *entry* with its initiative (the number before the actions left) set
    to *initiative* where it still reads 0, the rest as typed."""
    words = entry.split()
    tail = 1 if words and words[-1].lower() == "unaware" else 0
    if len(words) - tail >= 5 and words[-2 - tail].lower() == "of":
        tail += 2
    if len(words) - tail < 3 or words[-2 - tail] != "0":
        return entry
    words[-2 - tail] = str(initiative)
    return " ".join(words)


def _entry_parts(entry: str) -> tuple[list[str], str | None, bool]:
    """One typed "name initiative actions-left [of round] [unaware]" entry split into its
    name-and-two-numbers words, its round (None without "of") and whether it is unaware."""
    words = entry.split()
    unaware = bool(words) and words[-1].lower() == "unaware"
    words = words[:-1] if unaware else words
    if len(words) >= 5 and words[-2].lower() == "of":
        return words[:-2], words[-1], unaware
    return words, None, unaware


def _entry_name(entry: str) -> str:
    """The name of one typed entry: its words before the initiative and the actions left, so
    a copied fighter's number ("Bandit 2 0 2") stays in the name."""
    words = _entry_parts(entry)[0]
    return " ".join(words[:-2] if len(words) >= 3 else words)


class DodgeValue(Tool):
    """The Dodge value (§Dodge): the lineage's dodge plus the average of Quickness and
    Deftness rounded up, less the load of armour and weapons, plus what templates change."""

    reaches = (Reach(x6.dodge_value, {"lineage_dodge": "Lineage dodge",
                                      "quickness": "Quickness", "deftness": "Deftness",
                                      "load": "Load", "template": "Templates (±)"}),)

    def __init__(self, lineage_dodge: int = 1, quickness: int = 3, deftness: int = 4,
                 load: int = 0) -> None:
        self.fields = [_number("Lineage dodge", lineage_dodge), _number("Quickness", quickness),
                       _number("Deftness", deftness), _number("Load", load),
                       _number("Templates (±)", 0)]
        self.error = ErrorLine()
        self.result = w.HTML()
        super().__init__([w.HBox(self.fields[:3]), w.HBox(self.fields[3:]), self.error,
                          self.result], "rulebook-x6-dodge-value")
        for f in self.fields:
            f.observe(lambda _: self.update(), "value")
        self.update()

    @answers("result")
    def update(self) -> None:
        """Read the five numbers and show the Dodge value."""
        ld, q, d, load = (read_int(f.description, f) for f in self.fields[:4])
        template = read_int("Templates (±)", self.fields[4], -40)
        value = x6.dodge_value(ld, q, d, load, template)
        self.result.value = headline_html(
            f"Dodge value {value}: roll {plural(value, 'die', 'dice')} to dodge")


class RecoilRound(Tool):
    """Recoil over one character's round (§Recoil): each attack straight after another rises
    by 2 more (less the weapon's compensation); any other action between breaks the run; a
    bow has none; a new round starts again."""

    reaches = (Reach(x6.round_recoil, {"actions": "Actions this round",
                                       "compensation": "Recoil compensation",
                                       "recoil": "Weapon recoils (untick for a bow)"}),)

    def __init__(self, actions: str = "attack, attack, reload, attack") -> None:
        self.actions = labelled_text("Actions this round", actions,
                                     "in order: attack, or another action", width=LIST_WIDTH)
        self.actions.continuous_update = False
        self.compensation = _number("Recoil compensation", 0)
        self.recoil = w.Checkbox(value=True, description="Weapon recoils (untick for a bow)",
                                 indent=False, layout=shared_layout(width=FIELD_WIDTH))
        self.error = ErrorLine()
        self.result = w.HTML()
        super().__init__([self.actions, w.HBox([self.compensation, self.recoil]), self.error,
                          self.result], "rulebook-x6-recoil")
        for f in (self.actions, self.compensation, self.recoil):
            f.observe(lambda _: self.update(), "value")
        self.update()

    @answers("result")
    def update(self) -> None:
        """Read the round's actions and show each one's recoil malus."""
        acts = [a.strip().lower() for a in self.actions.value.split(",") if a.strip()]
        malus = x6.round_recoil(acts, read_int("Recoil compensation", self.compensation),
                                self.recoil.value)
        rows = "".join(f"<li>{html.escape(a)}" + (f": +{m} to the minimum roll and the "
                                                   "critical threshold" if m else
                                                   (": no recoil" if a == "attack" else ""))
                       + "</li>" for a, m in zip(acts, malus))
        self.result.value = f"<ol class='rulebook-x6-recoil-list'>{rows}</ol>"
