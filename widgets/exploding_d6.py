"""The exploding-d6 chapter's tools: initiative, the attack pipeline, reactions and throwing.

Each tool gathers its inputs, makes its rules call in :mod:`rulescore.systems.exploding_d6`
and renders what comes back: the odds before the roll, the result and its explanation.
"""

from __future__ import annotations

import html
from fractions import Fraction
from typing import Sequence

import ipywidgets as w

from rulescore.errors import RulesError, parse_int_list, parse_int_text
from rulescore.systems import exploding_d6 as x6
from rulescore.text import odds, percent

from .common import (ERROR, ROLLED, SUCCESS, DiceEntry, ErrorLine, ExplanationView, Reach,
                     RollRequest, Tool, answers, button, labelled_text, odds_table_html,
                     parse_roster, read_int, section)
from .lean import shared_layout
from .theme import (ACCENT, CRIT, FIELD_WIDTH, GRID_COLUMN, INK, LABEL_WIDE, LABEL_WIDTH,
                    LIST_WIDTH, MENU_WIDTH, NUMBER_WIDE, NUMBER_WIDTH, ROSTER_WIDTH, TOTAL_SIZE,
                    VERDICT_SIZE)

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


class InitiativeRoller(Tool):
    """Roll initiative for several combatants: each rolls Quickness in exploding d6; ties go to
    Quickness, then Deftness. Each die is shown as its chain."""

    reaches = (
        Reach(x6.initiative_mean, {"quickness": "Combatants"}),
        Reach(x6.initiative_table, {"combatants": "Combatants"}, {
            "dice_totals": "drawn from the dice: each one's Quickness", "dice": ROLLED}),
    )

    def __init__(self, combatants: str = "Rogue 4 3; Robber 3 2; Hagen 3 4") -> None:
        self.combatants = labelled_text("Combatants", combatants,
                                        "name Quickness Deftness; …", width=ROSTER_WIDTH)
        self.combatants.continuous_update = False
        self.help = w.HTML("<small>One combatant a group, separated by <code>;</code>: a name, "
                           "then Quickness and Deftness.</small>")
        self.error = ErrorLine()
        self.odds = w.HTML()
        self.entry = DiceEntry("faces in order, e.g. 4, 5, 1, 6, 6, 5, …")
        self.result = w.HTML(self.waiting)
        self.explanation = ExplanationView()
        self.people: list[tuple[str, int, int]] = []
        self.last: x6.InitiativeOrder | None = None
        super().__init__([self.combatants, self.help, self.error,
                          section("Odds before you roll", self.odds),
                          section("Roll", self.entry),
                          section("Order", self.result, self.explanation)],
                         "rulebook-x6-initiative")
        self.combatants.observe(lambda _: self.update(), "value")
        self.entry.on_request(self.roll)
        self.update()

    def _parse(self) -> list[tuple[str, int, int]]:
        people = []
        for name, (q, d), _ in parse_roster("Combatants", self.combatants.value,
                                            ("Quickness", "Deftness"), "Rogue 4 3; Robber 3 2"):
            people.append((name, x6.attribute(f"Quickness of {name}", q),
                           x6.attribute(f"Deftness of {name}", d)))
        return people

    @answers("odds")
    def update(self) -> None:
        """Read the combatants; show each one's dice and average initiative."""
        self.people = []
        self.result.value = self.waiting
        self.explanation.clear()
        self.people = self._parse()
        means = [(n, q, x6.initiative_mean(q)) for n, q, _ in self.people]
        rows = "".join(f"<li>{html.escape(n)}: {q} dice, {float(m):.1f} on average</li>"
                       for n, q, m in means)
        self.odds.value = f"<ul class='rulebook-x6-init-odds'>{rows}</ul>"

    @answers("explanation", line="entry.error", waiting=("result",))
    def roll(self, request: RollRequest) -> None:
        """Roll everyone's dice from the request (seeded, or the faces typed in rolling
        order)."""
        if not self.people:
            raise RulesError("Fix the combatants first.")
        expect_chains(request, sum(q for _, q, _ in self.people))
        self.last = x6.initiative_table(self.people, dice=request.dice)
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


_MODES = [("Hand-to-hand", "melee"), ("Single shot", "single"), ("Burst", "burst")]
_COVERS = [("No cover", 0), ("6+ light / Hunkered", 6), ("5+ half hidden / shield", 5),
           ("4+ mostly hidden", 4)]
_PREVENT = [("the heaviest (our ruling)", "heaviest"), ("the lightest", "lightest")]
_SPECIALS = [("None", "none"), ("K.O. attack", "ko"), ("Disarming attack", "disarm")]


class AttackPipeline(Tool):
    """One attack from the hit roll to the wounds: hit roll → cover roll → protection → wounds,
    criticals kept apart, and recoil carried across a round's attacks."""

    #: What the setup decides for the rolls after it (attack_setup's result).
    _FROM_SETUP = {"min_roll": "the setup's minimum roll", "crit_at": "the setup's critical "
                   "roll", "burst": "the setup: a burst has no criticals"}
    _WOUNDS = {"cover": "Target's cover", "pool": "Protection pool",
               "critical_pool": "Of it against crits", "wounds_per_hit": "Wounds a hit",
               "piercing": "Piercing", "prevent": "Criticals stopped first"}
    reaches = (
        Reach(x6.attack_setup, {
            "skill": "Skill", "weapon_dice": "Weapon dice", "mode": "Attack mode",
            "attack_number": "Attack in a row", "compensation": "Recoil compensation",
            "aim_actions": "Aim actions", "perception": "Perception",
            "special": "Special attack", "walking": "Walking (+1 min. roll)",
            "supported": "Weapon supported (−1)"}, {
            "min_roll": "the base minimum roll of 5: the modifiers above change it",
            "accurate_actions": "this tool leaves accurate actions to the GM (none taken)",
            "distance": "this tool leaves range penalties to the GM (none)",
            "weapon_range": "this tool leaves range penalties to the GM (none)",
            "off_hand": "this tool leaves off-hand attacks to the GM (main hand)",
            "massive_actions": "this tool leaves massive attacks to the GM (none)",
            "strength": "read only by massive attacks, which this tool leaves out",
            "recoil": "recoil always counts; New round starts it again"}),
        Reach(x6.hit_odds, {}, {"dice": "the setup's dice", **_FROM_SETUP,
                                "explode_depth": "exact to the engine's own depth"}),
        Reach(x6.wound_distribution, _WOUNDS, {
            "dice": "the setup's dice", **_FROM_SETUP,
            "explode_depth": "exact to the engine's own depth"}),
        Reach(x6.resolve_attack, {**_WOUNDS, "cover_faces": "Cover dice"}, {
            "dice_totals": "the setup's dice, drawn from the Roll / My dice row",
            "dice": ROLLED,
            **_FROM_SETUP,
            "causes_wounds": "the setup: a K.O. or disarming attack deals no wounds"}),
    )

    def __init__(self, skill: int = 3, weapon_dice: int = 2, mode: str = "single",
                 cover: int = 0, pool: int = 2) -> None:
        self.skill = labelled_text("Skill", str(skill), width=NUMBER_WIDTH)
        self.weapon = labelled_text("Weapon dice", str(weapon_dice), width=NUMBER_WIDTH)
        self.mode = w.Dropdown(options=_MODES, value=mode, description="Attack mode",
                               style={"description_width": LABEL_WIDTH},
                               layout=shared_layout(width=MENU_WIDTH))
        self.attack_number = labelled_text("Attack in a row", "1", width=NUMBER_WIDTH)
        self.compensation = labelled_text("Recoil compensation", "0", width=NUMBER_WIDTH)
        self.aim = labelled_text("Aim actions", "0", width=NUMBER_WIDTH)
        self.perception = labelled_text("Perception", "3", width=NUMBER_WIDTH)
        self.cover = w.Dropdown(options=_COVERS, value=cover, description="Target's cover",
                                style={"description_width": LABEL_WIDTH},
                                layout=shared_layout(width=MENU_WIDTH))
        self.pool = labelled_text("Protection pool", str(pool), width=NUMBER_WIDTH)
        self.critical_pool = labelled_text("Of it against crits", "0", width=NUMBER_WIDTH)
        self.per_hit = labelled_text("Wounds a hit", "1", width=NUMBER_WIDTH)
        self.piercing = labelled_text("Piercing", "0", width=NUMBER_WIDTH)
        self.special = w.Dropdown(options=_SPECIALS, value="none", description="Special attack",
                                  style={"description_width": LABEL_WIDTH},
                                  layout=shared_layout(width=MENU_WIDTH))
        self.walking = w.Checkbox(value=False, description="Walking (+1 min. roll)",
                                  indent=False, layout=shared_layout(width=FIELD_WIDTH))
        self.supported = w.Checkbox(value=False, description="Weapon supported (−1)",
                                    indent=False, layout=shared_layout(width=FIELD_WIDTH))
        self.prevent = w.Dropdown(options=_PREVENT, value="heaviest",
                                  description="Criticals stopped first",
                                  style={"description_width": LABEL_WIDTH},
                                  layout=shared_layout(width=MENU_WIDTH))
        self.fields = [self.skill, self.weapon, self.attack_number, self.compensation, self.aim,
                       self.perception, self.pool, self.critical_pool, self.per_hit,
                       self.piercing]
        for f in self.fields:
            f.continuous_update = False
        self.next_button = button("Next attack this round", "Count one more attack in a row")
        self.round_button = button("New round", "Recoil does not carry into a new round")
        self.error = ErrorLine()
        self.setup_view = w.HTML()
        self.odds = w.HTML()
        self.entry = DiceEntry("hit dice as chains, e.g. 4, 5, 6, 6, 5")
        self.cover_dice = labelled_text("Cover dice", "", "criticals' dice first, then the "
                                        "normal hits'", width=LIST_WIDTH)
        self.result = w.HTML(self.waiting)
        self.explanation = ExplanationView()
        self.setup: x6.AttackSetup | None = None
        self.last: x6.AttackResult | None = None
        grid = w.GridBox([self.skill, self.weapon, self.mode, self.attack_number,
                          self.compensation, self.aim, self.perception, self.cover, self.pool,
                          self.critical_pool, self.per_hit, self.piercing, self.special,
                          self.walking, self.supported, self.prevent],
                         layout=shared_layout(grid_template_columns=f"repeat(auto-fill, {GRID_COLUMN})",
                                              grid_gap="2px 8px"))
        super().__init__([grid, w.HBox([self.next_button, self.round_button]), self.error,
                          self.setup_view,
                          section("Odds before you roll", self.odds),
                          section("Roll", self.entry, self.cover_dice),
                          section("Result", self.result, self.explanation)],
                         "rulebook-x6-attack")
        for f in self.fields:
            f.observe(lambda _: self.update(), "value")
        for f in (self.mode, self.cover, self.special, self.walking, self.supported,
                  self.prevent):
            f.observe(lambda _: self.update(), "value")
        self.next_button.on_click(lambda _: self.next_attack())
        self.round_button.on_click(lambda _: self.new_round())
        self.entry.on_request(self.roll)
        self.update()

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
        self.attack_number.value = str(n + 1)

    def new_round(self) -> None:
        """A new round: recoil starts again."""
        self.attack_number.value = "1"

    def _wounds(self) -> dict[str, object]:
        """What stands between the hits and the wounds: cover, protection and piercing."""
        return dict(cover=self.cover.value or None, pool=read_int("Protection pool", self.pool),
                    critical_pool=read_int("Of it against crits", self.critical_pool),
                    wounds_per_hit=read_int("Wounds a hit", self.per_hit, 1),
                    piercing=read_int("Piercing", self.piercing), prevent=self.prevent.value)

    @answers("setup_view", "odds")
    def update(self) -> None:
        """Assemble the attack and show its odds: hits and criticals, then wounds."""
        self.setup = None
        self.result.value = self.waiting
        self.explanation.clear()
        mode = self.mode.value
        aim = read_int("Aim actions", self.aim) if mode != "burst" else 0
        self.setup = x6.attack_setup(
            read_int("Skill", self.skill), read_int("Weapon dice", self.weapon), mode,
            attack_number=read_int("Attack in a row", self.attack_number, 1),
            compensation=read_int("Recoil compensation", self.compensation),
            aim_actions=aim, perception=read_int("Perception", self.perception),
            special=self.special.value, walking=self.walking.value,
            supported=self.supported.value)
        against = self._wounds()
        s = self.setup
        hit = x6.hit_odds(s.dice, s.min_roll, s.crit_at, s.burst)
        wounds = None if not s.wounds else x6.wound_distribution(
            s.dice, s.min_roll, s.crit_at, s.burst, **against) \
            if s.dice <= 12 else "too many"
        s = self.setup
        crit = "no criticals (burst)" if s.burst else f"critical on <b>{s.crit_at}+</b>"
        harmless = "" if s.wounds else " This attack deals no wounds."
        broken = (" Aiming came between this shot and the last one, so it has no recoil."
                  if s.recoil_broken else "")
        self.setup_view.value = (f"<div class='rulebook-x6-setup'>Roll <b>{s.dice}</b> dice: "
                                 f"hit on <b>{s.min_roll}+</b>, {crit}.{harmless}{broken}</div>")
        self.odds.value = self._odds_html(hit, wounds)

    def _odds_html(self, hit: x6.HitOdds, wounds: x6.WoundOdds | str | None) -> str:
        total = hit.total_hits()
        head = (f"<p class='rulebook-headline'><b>At least one hit: {odds(hit.p_at_least(1))}; "
                f"at least one critical: {odds(hit.p_criticals_at_least(1))}</b></p>")
        rows = [(f"{n} hit{'s' if n != 1 else ''}", p) for n, p in total.items() if p]
        out = head + "<details><summary>Odds of each number of hits</summary>" + \
            odds_table_html(rows, "Hits (with criticals)") + "</details>"
        if isinstance(wounds, x6.WoundOdds):
            wrows = [(str(k), p) for k, p in wounds.pmf.items()]
            out += (f"<p class='rulebook-x6-wound-odds'>After cover and protection: at least one "
                    f"wound {percent(wounds.p_at_least(1))}; {float(wounds.mean()):.2f} wounds on "
                    f"average.</p><details><summary>Odds of each number of wounds</summary>"
                    + odds_table_html(wrows, "Wounds") +
                    f"<small>Exact up to {wounds.explode_depth} explosions a die; the chance "
                    f"of more ({percent(wounds.truncated)}) is not listed.</small></details>")
        elif wounds == "too many":
            out += "<p><small>Wound odds are worked out for up to 12 dice.</small></p>"
        return out

    @answers("explanation", line="entry.error", waiting=("result",))
    def roll(self, request: RollRequest) -> None:
        """Roll the attack from a seed, or read the typed hit and cover dice."""
        s = self.setup
        if s is None:
            raise RulesError("Fix the attack's inputs first.")
        against = self._wounds()
        cover = against["cover"]
        expect_chains(request, s.dice)
        # Typed cover dice have their own field (how many depends on the hits).
        typed_cover = request.typed_beside(
            lambda: parse_int_list("Cover dice", self.cover_dice.value)
            if cover and self.cover_dice.value.strip() else [])
        self.last = x6.resolve_attack(s.dice, min_roll=s.min_roll, crit_at=s.crit_at,
                                      burst=s.burst, cover_faces=typed_cover or (),
                                      causes_wounds=s.wounds, dice=request.dice, **against)
        r = self.last
        self.cover_dice.value = ", ".join(map(str, r.cover_faces))
        dice = "".join(chain_html(c, kind) for c, (_, kind, _) in zip(r.hit.chains, r.hit.dice))
        how = request.describe()
        stages = [f"<li>Hit roll: <b>{html.escape(r.hit.announcement)}</b> {dice}</li>"]
        if r.cover is not None:
            stages.append(f"<li>Cover {cover}+: {r.cover.prevented_criticals} crit(s) and "
                          f"{r.cover.prevented_hits} normal hit(s) stopped</li>")
        stages.append(f"<li>Protection: {r.protection.spent} unit(s) spent, "
                      f"{r.protection.pool_left} left</li>")
        self.result.value = (f"<ol class='rulebook-x6-stages'>{''.join(stages)}</ol>"
                             f"<div class='rulebook-total' style='font-size:{TOTAL_SIZE}'>Wounds "
                             f"<b>{r.value}</b></div><small>({how})</small>")
        self.explanation.show(r.trace)


_REACTIONS = [("Dodge", "dodge"), ("Parry", "parry"), ("Shield parry", "shield parry")]


class ReactionHelper(Tool):
    """Answer a melee attack's hits with a dodge, a parry or a shield parry: the odds of the hits
    left, then the roll."""

    _REACTION = {"kind": "Reaction", "hits": "Attacker's normal hits",
                 "criticals": "Attacker's criticals", "min_roll": "Your minimum roll"}
    _SHIELD = {"shield": "a round shield, the chapter's shield (stops a hit on 5+)"}
    reaches = (
        Reach(x6.reaction_odds, {**_REACTION, "dice": "Your dice"}, _SHIELD),
        Reach(x6.reaction, {**_REACTION, "pool": "Your dice"}, {"dice": ROLLED, **_SHIELD}),
    )

    def __init__(self, kind: str = "shield parry", hits: int = 3, criticals: int = 0,
                 dice: int = 4) -> None:
        self.kind = w.Dropdown(options=_REACTIONS, value=kind, description="Reaction",
                               style={"description_width": LABEL_WIDTH})
        self.hits = labelled_text("Attacker's normal hits", str(hits), width=NUMBER_WIDE,
                                  label_width=LABEL_WIDE)
        self.criticals = labelled_text("Attacker's criticals", str(criticals), width=NUMBER_WIDE,
                                       label_width=LABEL_WIDE)
        self.dice = labelled_text("Your dice", str(dice), "Dodge value or parry dice",
                                  width=NUMBER_WIDE, label_width=LABEL_WIDE)
        self.min_roll = labelled_text("Your minimum roll", "5", width=NUMBER_WIDE,
                                      label_width=LABEL_WIDE)
        for f in (self.hits, self.criticals, self.dice, self.min_roll):
            f.continuous_update = False
        self.note = w.HTML()
        self.error = ErrorLine()
        self.odds = w.HTML()
        self.entry = DiceEntry()
        self.result = w.HTML(self.waiting)
        self.explanation = ExplanationView()
        self.last = None
        super().__init__([self.kind, self.hits, self.criticals, self.dice, self.min_roll,
                          self.note, self.error, section("Odds before you roll", self.odds),
                          section("Roll", self.entry),
                          section("Result", self.result, self.explanation)],
                         "rulebook-x6-reaction")
        for f in (self.kind, self.hits, self.criticals, self.dice, self.min_roll):
            f.observe(lambda _: self.update(), "value")
        self.entry.on_request(self.roll)
        self.update()

    def _inputs(self) -> tuple[int, int, int, int]:
        return (read_int("Attacker's normal hits", self.hits),
                read_int("Attacker's criticals", self.criticals), read_int("Your dice", self.dice),
                read_int("Your minimum roll", self.min_roll, 1))

    @answers("odds")
    def update(self) -> None:
        self.result.value = self.waiting
        self.explanation.clear()
        notes = {"dodge": "Roll your Dodge value in exploding d6; your minimum roll rises by "
                          "every hit the attacker scored. One success and the attack misses.",
                 "parry": "Roll your weapon as if attacking; each success removes one normal "
                          "hit. Criticals always get through.",
                 "shield parry": "Roll one d6 a hit (criticals apart); each die at the shield's "
                                 "cover (a round shield: 5+) stops a hit. 'Your dice' is "
                                 "not used."}
        self.note.value = f"<small>{notes[self.kind.value]}</small>"
        h, c, n, m = self._inputs()
        dist = x6.reaction_odds(self.kind.value, n, h, c, m)
        none_left = dist.get(0, Fraction(0))
        rows = [(f"{k} hit{'s' if k != 1 else ''} left", p) for k, p in dist.items()]
        self.odds.value = (f"<p class='rulebook-headline'><b>Chance that nothing gets through: "
                           f"{odds(none_left)}</b></p>" + odds_table_html(rows, "Hits left"))

    @answers("explanation", line="entry.error", waiting=("result",))
    def roll(self, request: RollRequest) -> None:
        """Roll the reaction from a seed, or read the typed dice."""
        h, c, n, m = self._inputs()
        if self.kind.value != "shield parry":
            expect_chains(request, n)
        self.last = x6.reaction(self.kind.value, request.dice, h, c, m, pool=n)
        r = self.last
        how = request.describe()
        colour = SUCCESS if r.value == 0 else ERROR
        self.result.value = (f"<div>{''.join(chain_html(ch) for ch in r.chains)}</div>"
                             f"<div class='rulebook-total' style='font-size:{TOTAL_SIZE};color:{colour}'>"
                             f"Hits left <b>{r.value}</b> ({r.criticals} critical)</div>"
                             f"<small>({how})</small>")
        self.explanation.show(r.trace)


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


class ThrowDeviation(Tool):
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
        self.odds.value = (f"<p class='rulebook-headline'><b>Chance to hit: {odds(p)}</b></p>"
                           f"<small>A miss lands 1 to 6 metres away, each of the 12 clock "
                           f"directions equally likely.</small>")

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
                             f"<div class='rulebook-total' style='font-size:{VERDICT_SIZE}'>{verdict}</div>"
                             f"<small>({how})</small>")
        self.picture.value = clock_svg(r.clock, r.metres)
        self.explanation.show(r.trace)
