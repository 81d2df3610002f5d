"""The range-band chapter's tools: shot difficulty builder, dash and terrain helper, quick loading.

Each tool gathers its inputs, makes one ``rulescore.systems.range_bands`` call for the odds (and,
when the reader rolls, rolls the dice and resolves them), and renders what comes back. No rule
lives here.
"""

from __future__ import annotations

import html
import textwrap
from fractions import Fraction

import ipywidgets as w

from rulescore.dice import DiceSource
from rulescore.errors import RulesError, parse_int_text
from rulescore.systems import range_bands as rb

from IPython.display import HTML, display

from .book import explain, ruling_link
from .common import (ERROR, ROLLED, SUCCESS, DiceEntry, ErrorLine, ExplanationView, OddsView, Reach,
                     RollRequest, Section, Tool, answers, chance_html, fit_labels, headline_html,
                     labelled_text, section, steps_html)
from .lean import built_whole, set_layout, set_shown, shared_layout
from .roster import FighterPick
from .theme import ACCENT, FIELD_WIDTH, LABEL_WIDER, PHRASE_MENU, SENTENCE_WIDTH

# Short enough to read whole in a half-width menu; the rulings chapter says each in full.
ND_OPTIONS = [("GM rolls nD to beat (our ruling)", "opposed"),
              ("a fixed 3.5 × n, rounded up", "average")]
#: The two kinds of movement of the dash tool, and what each costs (shown under the menus).
MOVEMENTS = {"dash": ("Dash", "two actions, up to two bands"),
             "impassable": ("Cross impassable terrain", "two actions, one band")}
WIDE = LABEL_WIDER
SYSTEM = "range_bands"


def _dropdown(label: str, options, value, width: str = PHRASE_MENU,
              label_width: str = WIDE) -> w.Dropdown:
    return w.Dropdown(options=options, value=value, description=label,
                      style={"description_width": label_width},
                      layout=shared_layout(width=width))


def _checkbox(label: str, value: bool = False) -> w.Checkbox:
    return w.Checkbox(value=value, description=label, indent=False,
                      layout=shared_layout(width="auto", margin="0 1.2em 0 0"))


def _number(label: str, value: str, hint: str) -> w.Text:
    field = labelled_text(label, value, hint, width=FIELD_WIDTH, label_width=WIDE)
    field.continuous_update = False
    return field


def _band_options(ids) -> list[tuple[str, str]]:
    return [(f"{b.name} ({b.metres})", b.band) for b in rb.bands() if b.band in ids]


#: The labels every check tool shows for the two rulings and the roll's bonus.
RULINGS = {"nd_rule": "How nD is rolled", "critical_margin": "Critical at a margin of ±"}
BONUS = {"roll_bonus": "Bonus to your roll"}
#: The dice a check reads: drawn from the Roll row's dice (the difficulty's as many as it has).
CHECK_DICE = {"difficulty_dice": "drawn from the dice: as many as the difficulty has",
              "dice": ROLLED}


def outcomes_html(outcomes: dict[str, Fraction], headline: str,
                  chance: Fraction | None = None) -> str:
    """Each outcome with its exact chance, as a small table; *chance*, when given, follows the
    headline (a percentage first, its fraction beside it when short)."""
    rows = "".join(f"<tr><td>{html.escape(k[0].upper() + k[1:])}</td>"
                   f"<td>{chance_html(p)}</td></tr>" for k, p in outcomes.items())
    lead = html.escape(headline) + (f" {chance_html(chance)}" if chance is not None else "")
    return (f"<div class='rulebook-headline' style='margin:.4em 0'><b>{lead}</b></div>"
            f"<table class='rulebook-outcomes'><thead><tr><th>Result</th><th>Chance</th>"
            f"</tr></thead><tbody>{rows}</tbody></table>")


def dice_order_html(counts: dict[str, int]) -> str:
    """Which dice to type, in order, for the My dice field."""
    labels = {"skill_dice": "your dice", "difficulty_dice": "the difficulty's dice",
              "stealth_dice": "Stealth", "cover_dice": "cover", "perception_dice": "Perception",
              "first_dice": "the first side", "second_dice": "the second side"}
    parts = [f"{n} for {labels.get(k, k)}" for k, n in counts.items() if n]
    if not parts:
        return "<small>No dice are needed: press Roll to see the result.</small>"
    return (f"<small>Roll {sum(counts.values())} six-sided dice: "
            f"{html.escape(', then '.join(parts))}. Type them in that order.</small>")


#: The fall note's look: small print that keeps a paragraph's line spacing.
FALL_NOTE_STYLE = "font-size:85%;line-height:1.45;margin:0 0 .4em"


def fall_note(damage_dice: int) -> str:
    """How a fall's damage of *damage_dice* D is rolled, in the reader's words, with the named
    assumption it rests on linked where the rulings chapter shows it (§Dashing and §Impassable
    terrain give the dice; how they are rolled is our ruling, assumption fall_damage). Both
    the dash tool and the fight page show it."""
    n = damage_dice
    return (f"Roll {n} six-sided dice and add them ({n} to {6 * n}). The chapter gives the "
            "number of dice but not how to roll them; adding them up is our ruling, "
            f"“{ruling_link(SYSTEM, 'fall_damage')}” in the rulings chapter. What the damage "
            "does is for the game's damage rules, in a chapter we do not have.")


class _CheckTool(Tool):
    """Shared frame: inputs, difficulty, odds before the roll, roll or my dice, the result.

    Each tool calls :meth:`_frame` with its own inputs and defines three methods: ``update()``
    (read the inputs, show the odds), ``_resolve(dice)`` (the rules call, drawing its dice from
    the request's source) and ``_headline(result)`` (the result's first line).
    """

    holds_blank_lines = True

    chart_title = "Margin: your total minus the difficulty's (green: success)"

    @classmethod
    def words(cls) -> dict[str, str]:
        """The fields' words, and the typed dice's: the engine calls them ``dice``, the reader
        types them in My dice."""
        return {**super().words(), "dice": "My dice"}

    def _frame(self, inputs: list[w.Widget], pool_label: str, pool_value: str,
               before: list[w.Widget] | None = None, nd_rule: bool = True,
               pool_first: bool = False, beside: bool = True,
               bonus_label: str = "Bonus to your roll", inputs_share: int = 47,
               after: list[w.Widget] | None = None) -> None:
        """Lay out the tool: the inputs, and, *beside* them in a column to the right, the
        odds, the roll and the result, so a tool fits one desktop screen with its result
        (on a narrow screen the column wraps below the inputs); without *beside*, below.
        *inputs_share* is the inputs' percentage of the width (more for long labels); *after*
        comes right under the result's headline (a second roll the result may call for)."""
        self.pool_label = pool_label
        self.pool = _number(pool_label, pool_value, "how many d6, e.g. 4")
        self.bonus = _number(bonus_label, "0", "e.g. 2 or -1")
        self.nd_rule = _dropdown("How nD is rolled", ND_OPTIONS, "opposed", width=SENTENCE_WIDTH)
        self.critical = _number("Critical at a margin of ±", "6", "our ruling: 6")
        if not nd_rule:
            set_shown(self.nd_rule, False)
            set_shown(self.critical, False)
        self.error = ErrorLine()
        self.summary = w.HTML()
        self.outcomes = w.HTML()
        self.odds = OddsView()
        self.dice_order = w.HTML()
        self.entry = DiceEntry("e.g. 6, 4, 3, 2, 5, 1, 1")
        self.result = w.HTML(self.waiting)
        self.explanation = ExplanationView()
        self.counts: dict[str, int] | None = None
        self.last = None
        # the roster's menus first: a fighter picked fills the fields below them
        picks = [c for c in inputs if isinstance(c, FighterPick)]
        rest = [c for c in inputs if not isinstance(c, FighterPick)]
        controls = picks + ([self.pool, self.bonus] + rest if pool_first else
                            rest + [self.pool, self.bonus]) + [self.nd_rule, self.critical]
        answer = [*(before or []), self.summary,
                  section("Odds before you roll", self.outcomes, self.odds),
                  section("Roll", self.dice_order, self.entry),
                  section("Result", self.result, *(after or []), self.explanation)]
        if not beside:
            super().__init__([*controls, self.error, *answer])
        else:
            # Fields fitted to their longest option stop at the edge of their half of the
            # tool, a menu showing as much of its choice as fits.
            for field in controls:
                if not isinstance(field, w.Box):
                    set_layout(field, max_width="98%")
            flat = [x for part in answer
                    for x in (part if isinstance(part, Section) else (part,))]
            super().__init__([w.HBox([
                w.VBox([*controls, self.error],
                       layout=shared_layout(width=f"{inputs_share}%", min_width="22em",
                                            margin="0 1em 0 0", overflow="hidden")),
                w.VBox(flat, layout=shared_layout(width=f"{97 - inputs_share}%",
                                                  min_width="22em"))],
                layout=shared_layout(flex_flow="row wrap", align_items="flex-start"))])
        self._updating = False
        for field in controls:
            if not isinstance(field, FighterPick):
                field.observe(self._changed, "value")
        self.entry.on_request(self.roll)

    def _rule(self) -> dict:
        """The switchable rulings: how nD is rolled and where criticals start."""
        return {"nd_rule": self.nd_rule.value,
                "critical_margin": parse_int_text("Critical at a margin of ±", self.critical.value)}

    def _changed(self, _change=None) -> None:
        if not self._updating:
            self.update()

    def _ints(self) -> tuple[int, int]:
        return (parse_int_text(self.pool_label, self.pool.value),
                parse_int_text("Bonus to your roll", self.bonus.value, blank=0))

    def _show_odds(self, odds: rb.Odds, headline: str, chance: Fraction) -> None:
        self.counts = dict(odds.dice)
        self.outcomes.value = outcomes_html(odds.outcomes, headline, chance)
        if len(odds.margins.pmf) > 1:
            self.odds.show(odds.margins, lambda m: m >= 0, self.chart_title, "Margin")
        else:
            self.odds.value = ""
        self.dice_order.value = dice_order_html(self.counts)

    @answers("explanation", line="entry.error", waiting=("result",))
    def roll(self, request: RollRequest) -> None:
        """Roll with a seed or read typed dice, then resolve and show the result."""
        if self.counts is None:
            raise RulesError("Fix the inputs above first.")
        self.last = result = self._resolve(request.dice)
        colour = SUCCESS if result.success else ERROR
        self.result.value = (headline_html(html.escape(self._headline(result)), colour=colour)
                             + self._note(result))
        self.explanation.show(result.trace)
        self._after(result)

    def _note(self, result) -> str:
        """A line under the headline saying what the result means at the table; none by
        default."""
        return ""

    def _after(self, result) -> None:
        """Carry state forward after a roll (the stealth streak); nothing by default."""

    def _clear_result(self) -> None:
        self.result.value = self.waiting
        self.explanation.clear()
        self.entry.error.clear()


BAND_NAME_CHARS = 11   # the widest line of a band's name that fits its box in the picture


def band_picture(target_band: str, optimal: tuple[str, ...], cover: str,
                 difficulty: rb.ShotDifficulty | None) -> str:
    """The bands from the shooter outward as inline SVG: optimal bands, target, cover."""
    bands = rb.bands()
    col, left, top, height = 92, 86, 34, 118
    width = left + col * len(bands) + 10
    parts = ['<defs><pattern id="rb-hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
             'patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="6" '
             'stroke="#6d4c41" stroke-width="3"/></pattern></defs>']
    target_x = None
    for i, b in enumerate(bands):
        x = left + i * col
        best = b.band in optimal
        fill = "#c8e6c9" if best else ("#eceff1" if b.band != "extreme" else "#f3e5f5")
        parts.append(f'<rect x="{x}" y="{top}" width="{col - 4}" height="{height}" rx="4" '
                     f'fill="{fill}" stroke="#78909c"><title>{html.escape(b.name)}</title></rect>')
        lines = textwrap.wrap(b.name, BAND_NAME_CHARS)    # "Close contact" takes two lines
        spans = "".join(f'<tspan x="{x + col / 2 - 2}" dy="{0 if n == 0 else 14}">'
                        f'{html.escape(line)}</tspan>' for n, line in enumerate(lines))
        parts.append(f'<text y="{top + 16}" font-size="12" text-anchor="middle" '
                     f'font-weight="600">{spans}</text>')
        parts.append(f'<text x="{x + col / 2 - 2}" y="{top + 16 + 14 * len(lines)}" '
                     f'font-size="10.5" text-anchor="middle">{html.escape(b.metres)}</text>')
        if best:
            parts.append(f'<text x="{x + col / 2 - 2}" y="{top + height - 8}" font-size="11" '
                         f'text-anchor="middle" fill="{SUCCESS}" font-weight="600">optimal</text>')
        if b.band == target_band:
            target_x = x + col / 2 - 2
    cy = top + 62
    parts.append(f'<circle cx="40" cy="{cy}" r="15" fill="{ACCENT}"/>'
                 f'<text x="40" y="{cy + 5}" font-size="14" fill="white" font-weight="700" '
                 f'text-anchor="middle">S</text>'
                 f'<text x="40" y="{cy + 32}" font-size="11" text-anchor="middle">shooter</text>')
    if target_x is not None:
        parts.append(f'<line x1="56" y1="{cy}" x2="{target_x - 17}" y2="{cy}" stroke="#455a64" '
                     f'stroke-dasharray="5 4"/>')
        if cover != "none":
            counts = difficulty is not None and difficulty.cover_dice > 0
            parts.append(f'<rect x="{target_x - 32}" y="{cy - 20}" width="10" height="40" '
                         f'fill="url(#rb-hatch)" stroke="#6d4c41" '
                         f'opacity="{1 if counts else 0.35}"/>')
            label = f"{cover} cover " + (f"+{difficulty.cover_dice}D" if counts else
                                         "(no effect)")
            parts.append(f'<text x="{target_x}" y="{cy + 44}" font-size="10.5" '
                         f'text-anchor="middle" fill="#4e342e">{html.escape(label)}</text>')
        parts.append(f'<circle cx="{target_x}" cy="{cy}" r="15" fill="#c62828"/>'
                     f'<text x="{target_x}" y="{cy + 5}" font-size="14" fill="white" '
                     f'font-weight="700" text-anchor="middle">T</text>'
                     f'<text x="{target_x}" y="{cy + 30}" font-size="11" '
                     f'text-anchor="middle">target</text>')
    head = (f"Difficulty {difficulty.value}D" if difficulty is not None else "")
    parts.append(f'<text x="6" y="20" font-size="15" font-weight="700">{html.escape(head)}</text>')
    names = ", ".join(rb.band(o).name.lower() for o in optimal)
    label = (f"Shooter on the left; target at {rb.band(target_band).name.lower()}; "
             f"optimal {names}; {cover} cover. {head}")
    return (f'<svg class="rulebook-band-picture" role="img" aria-label="{html.escape(label)}" '
            f'viewBox="0 0 {width} {top + height + 6}" style="width:100%;max-width:{width}px">'
            f'{"".join(parts)}</svg>')


class ShotBuilder(_CheckTool):
    """Build a shot's difficulty in dice, see the bands, the odds, then roll the shot."""

    _SHOT = {"situation": "If it misses", "miss_reading": "A miss by three means",
             "area_fire": "Area fire (+2D)", **RULINGS}
    reaches = (
        Reach(rb.plan_shot, {
            "target_band": "Target's band", "optimal_bands": "Optimal band",
            "cover": "Target's cover", "snapshot": "Snapshot (+1D, one action)",
            "called_shot": "Called shot (+2D)", "skill_pool": "Your dice (shooting skill)",
            **BONUS, "target_movement": "Target this turn",
            "aim_action": "Aim action first (+2 to the roll)",
            "aim_rounds": "Rounds spent aiming", "weapon": "Weapon",
            "target_hidden": "Target is hidden (area fire only)",
            "gm_dice": "GM's adjustment (dice)", **_SHOT}),
        Reach(rb.shot, {**_SHOT, "skill_dice": "Your dice (shooting skill)"}, {
            "difficulty": "the difficulty the plan built from the fields above",
            "roll_bonus": "the plan's bonus: yours and an aim action's +2", **CHECK_DICE}),
    )

    def __init__(self, target: str = "distant", optimal: str = "close",
                 second_optimal: str = "none", cover: str = "light", pool: str = "4") -> None:
        self.target = _dropdown("Target's band", _band_options(rb.BAND_IDS), target)
        self.optimal = _dropdown("Optimal band", _band_options(rb.COMBAT_BANDS), optimal)
        self.optimal2 = _dropdown("Second optimal band",
                                  [("none", "none")] + _band_options(rb.COMBAT_BANDS),
                                  second_optimal)
        self.cover = _dropdown("Target's cover", [(f"{n} (+{rb.cover_dice(n)}D)", n) for n in
                                                  ("none", "light", "medium", "heavy")], cover)
        self.movement = _dropdown("Target this turn", [("stays put", "still"),
                                                       ("takes one move", "move"),
                                                       ("dashes", "dash")], "still")
        self.weapon = _dropdown("Weapon", [("firearm", "firearm"),
                                           ("burst firearm", "burst"), ("crossbow", "crossbow"),
                                           ("bow", "bow"), ("explosive", "explosive"),
                                           ("other area weapon", "area"), ("other", "other")],
                                "firearm")
        self.snapshot = _checkbox("Snapshot (+1D, one action)")
        self.called = _checkbox("Called shot (+2D)")
        self.area = _checkbox("Area fire (+2D)")
        self.aim = _checkbox("Aim action first (+2 to the roll)")
        self.hidden = _checkbox("Target is hidden (area fire only)")
        self.aim_rounds = _number("Rounds spent aiming", "0", "3 or more: −1D")
        self.gm_dice = _number("GM's adjustment (dice)", "0", "e.g. -1 for a crowd")
        self.situation = _dropdown("If it misses", [
            ("a single target in the open", "single"), ("a rider", "horseman"),
            ("into close contact", "close_contact"), ("into a crowd or wrestling match", "crowd"),
            ("a target in cover", "cover")], "single")
        self.miss_reading = _dropdown("A miss by three means", [
            ("short by 1 to 3 (our ruling)", "up_to"), ("short by exactly 3", "exactly")],
            "up_to")
        self.picture = w.HTML()
        self.plan: rb.ShotPlan | None = None
        self.pick = FighterPick(SYSTEM, self.fill, label="Shooter from the roster")
        inputs = [self.pick, self.target, self.optimal, self.optimal2, self.cover, self.movement,
                  self.weapon,
                  w.HBox([self.snapshot, self.called, self.area, self.aim, self.hidden],
                         layout=shared_layout(flex_flow="row wrap")),
                  self.aim_rounds, self.gm_dice, self.situation, self.miss_reading]
        self._frame(inputs, "Your dice (shooting skill)", pool, before=[self.picture])
        for box in (self.snapshot, self.called, self.area, self.aim, self.hidden):
            box.observe(self._changed, "value")
        self.add_class("rulebook-range-shot")
        self.update()

    def fill(self, row) -> None:
        """The shooter's dice, bonus, weapon and optimal bands from their roster row (the
        fields stay editable); one update for them all."""
        self._updating = True
        try:
            self.pool.value, self.bonus.value = str(row["shooting"]), str(row["shot_bonus"])
            self.weapon.value, self.optimal.value = row["weapon"], row["optimal"]
            self.optimal2.value = row["optimal2"]
        finally:
            self._updating = False
        self.update()

    def _optimal_bands(self) -> tuple[str, ...]:
        if self.optimal2.value == self.optimal.value:
            raise RulesError(f"“Second optimal band”: {rb.band(self.optimal.value).name.lower()}"
                             " is already the “Optimal band”; choose another band or none")
        second = () if self.optimal2.value == "none" else (self.optimal2.value,)
        return (self.optimal.value,) + second

    @answers("summary", "outcomes", "odds", "dice_order")
    def update(self) -> None:
        """Read every input and show the difficulty, the picture and the odds."""
        self.counts, self.plan = None, None
        self._clear_result()
        # The bands show even when the inputs cannot make a shot (no difficulty yet).
        picked = (self.optimal.value,) + ((self.optimal2.value,)
                                          if self.optimal2.value != "none" else ())
        self.picture.value = band_picture(self.target.value, picked, self.cover.value, None)
        pool, bonus = self._ints()
        self.plan = rb.plan_shot(
            self.target.value, self._optimal_bands(), self.cover.value,
            self.snapshot.value, self.called.value, skill_pool=pool, roll_bonus=bonus,
            situation=self.situation.value, miss_reading=self.miss_reading.value,
            **self._rule(),
            target_movement=self.movement.value, area_fire=self.area.value,
            aim_action=self.aim.value, weapon=self.weapon.value,
            target_hidden=self.hidden.value,
            aim_rounds=parse_int_text("Rounds spent aiming", self.aim_rounds.value, blank=0),
            gm_dice=parse_int_text("GM's adjustment (dice)", self.gm_dice.value, blank=0))
        d = self.plan.difficulty
        self.picture.value = band_picture(self.target.value, self._optimal_bands(),
                                          self.cover.value, d)
        bonus = f", {self.plan.roll_bonus:+d} to your roll" if self.plan.roll_bonus else ""
        self.summary.value = (f"<div class='rulebook-difficulty' style='font-size:125%'>"
                              f"Difficulty <b>{d.value}D</b>{html.escape(bonus)} · "
                              f"{d.actions} action{'s' if d.actions > 1 else ''}</div>"
                              f"<details><summary>How the difficulty is built</summary>"
                              f"{_steps(d.trace)}</details>")
        self._show_odds(self.plan.odds, "Chance to hit:", self.plan.odds.success)

    def _resolve(self, dice: DiceSource) -> rb.ShotResult:
        return rb.shot(self.plan.difficulty.value, self._ints()[0],
                       roll_bonus=self.plan.roll_bonus, area_fire=self.area.value,
                       situation=self.situation.value, miss_reading=self.miss_reading.value,
                       dice=dice, **self._rule())

    def _note(self, result: rb.ShotResult) -> str:
        if not result.hit:
            return ""
        return ("<small class='rulebook-hit-means'>The margin is what the game's damage rules "
                "read; they are in another chapter of the game (see <i>Where a shot stops</i> "
                "above). The <i>Running a fight</i> chapter records the hit on its target."
                "</small>")

    def _headline(self, result: rb.ShotResult) -> str:
        if result.hit and result.outcome == "area hit":
            return f"Area hit: every target is hit as if by {result.value} (margin {result.margin})"
        if result.hit:
            return f"{result.outcome.capitalize()} by {result.margin}"
        return f"Missed by {-result.margin}: {result.miss.outcome}"


def _steps(trace) -> str:
    return steps_html(trace)


class DashHelper(_CheckTool):
    """A dash or a crossing of impassable terrain: the check, its odds and where you end up."""

    _POOL = "Your dice (the check's skill)"
    _FALL_DICE = "the fall's damage dice, from the check's critical failure"
    _MOVE = {"start_band": "Starting band", "direction": "Direction", "terrain": "Terrain",
             "skill_dice": _POOL, **BONUS, **RULINGS}
    reaches = (
        Reach(rb.terrain_odds, {"kind": "Movement", "terrain": "Terrain", "skill_pool": _POOL,
                                **BONUS, **RULINGS}),
        Reach(rb.dash, {**_MOVE, "seriously_wounded": "Seriously or lethally wounded"},
              CHECK_DICE),
        Reach(rb.cross_impassable,
              {**_MOVE, "terrain_gives_cover": "The impassable terrain gives cover"},
              CHECK_DICE),
        # a fall's damage, as the fight page rolls it (Fight.roll_fall calls rb.fall_damage)
        Reach(rb.fall_damage_odds, {}, {"damage_dice": _FALL_DICE}),
        Reach(rb.fall_damage, {}, {"damage_dice": _FALL_DICE,
                                   "dice": "the Roll the fall / Fall dice row"}),
    )

    def __init__(self, kind: str = "dash", start: str = "distant", terrain: str = "hard",
                 pool: str = "4") -> None:
        self.kind = _dropdown("Movement", [(name, k) for k, (name, _) in MOVEMENTS.items()],
                              kind)
        self.start = _dropdown("Starting band", _band_options(rb.BAND_IDS[:-1]), start)
        self.direction = _dropdown("Direction", [("closer", "closer"), ("away", "away")],
                                   "closer")
        self.terrain = _dropdown("Terrain", self._terrain_options(kind), terrain)
        # the movement's cost and the terrain's examples, beside the short choices above
        self.terrain_note = w.HTML()
        self.wounded = _checkbox("Seriously or lethally wounded")
        self.covered = _checkbox("The impassable terrain gives cover")
        self.pick = FighterPick(SYSTEM, self.fill, label="Mover from the roster")
        inputs = [self.pick, self.kind, self.start, self.direction, self.terrain,
                  self.terrain_note, w.HBox([self.wounded, self.covered])]
        # a critical failure's fall: its damage odds, then its own roll (hidden until then; its
        # widgets are built by the first roll that ends in a fall, see _build_fall)
        self.fall = w.VBox()
        set_shown(self.fall, False)
        # the inputs take the wider share: their menus show every choice whole
        self._frame(inputs, self._POOL, pool, inputs_share=54, after=[self.fall])
        self.kind.unobserve_all("value")
        self.kind.observe(lambda _: self._kind_changed(), "value")
        for box in (self.wounded, self.covered):
            box.observe(lambda _: self.update(), "value")
        self.add_class("rulebook-range-dash")
        self._kind_changed()

    def fill(self, row) -> None:
        """The mover's Athletics dice from their roster row."""
        self.pool.value = str(row["athletics"])

    @staticmethod
    def _terrain_options(kind: str) -> list[tuple[str, str]]:
        return [(f"{t.name}: {t.difficulty}D" if t.difficulty else f"{t.name}: no check",
                 t.terrain) for t in rb.terrains(kind)]

    def _show_terrain(self) -> None:
        """Under the menus: what the movement costs and what the terrain looks like."""
        name, cost = MOVEMENTS[self.kind.value]
        t = next(t for t in rb.terrains(self.kind.value) if t.terrain == self.terrain.value)
        self.terrain_note.value = (
            f"<div class='rulebook-terrain-note' style='font-size:90%;margin:0 0 .3em 1em'>"
            f"{html.escape(name)}: {html.escape(cost)}. {html.escape(t.name)} terrain: "
            f"{html.escape(t.examples)}. The check's skill is Acrobatics or Athletics, "
            f"whichever fits (Swimming in water).</div>")

    def _kind_changed(self) -> None:
        kind = self.kind.value
        options = self._terrain_options(kind)
        current = self.terrain.value
        values = [v for _, v in options]
        self._updating = True
        self.terrain.options = options
        self._updating = False
        self.terrain.value = current if current in values else values[0]
        set_shown(self.wounded, kind == "dash")
        set_shown(self.covered, kind == "impassable")
        self.update()

    @answers("summary", "outcomes", "odds", "dice_order")
    def update(self) -> None:
        """Read the inputs and show the odds of each result."""
        self.counts = None
        self._clear_result()
        self._show_terrain()
        pool, bonus = self._ints()
        odds = rb.terrain_odds(self.kind.value, self.terrain.value, pool, bonus,
                               **self._rule())
        full = odds.outcomes["full move"]
        self.summary.value = ""
        self._show_odds(odds, "Chance of the full move:", full)

    def _resolve(self, dice: DiceSource) -> rb.MoveResult:
        pool, bonus = self._ints()
        common = dict(skill_dice=pool, roll_bonus=bonus, dice=dice, **self._rule())
        if self.kind.value == "dash":
            return rb.dash(self.start.value, self.direction.value, self.terrain.value,
                           seriously_wounded=self.wounded.value, **common)
        return rb.cross_impassable(self.start.value, self.direction.value, self.terrain.value,
                                   terrain_gives_cover=self.covered.value, **common)

    def _clear_result(self) -> None:
        super()._clear_result()
        set_shown(self.fall, False)

    def _after(self, result: rb.MoveResult) -> None:
        """A critical failure's fall: show the exact odds of its damage and its own roll."""
        if not result.damage_dice:
            set_shown(self.fall, False)
            return
        if not self.fall.children:
            self.fall.children = self._build_fall()
        n = result.damage_dice
        self.fall_title.value = (
            f"<h4 style='margin:.6em 0 .2em'>The fall's damage: {n}D</h4>"
            f"<div class='rulebook-fall-note' style='{FALL_NOTE_STYLE}'>{fall_note(n)}</div>")
        odds = rb.fall_damage_odds(n)
        self.fall_odds.show(odds, None, f"Damage {odds.min()} to {odds.max()}", "Damage")
        self.fall_result.value = ""
        self.fall_explanation.clear()
        self.fall_entry.error.clear()
        set_shown(self.fall, True)

    @built_whole
    def _build_fall(self) -> tuple[w.Widget, ...]:
        """The fall's title, odds, dice entry, result and explanation, built whole (the fall box
        holds them once they are open). Most rolls never fall, and these thirteen models would
        cost every page that holds the tool before its reader could use it."""
        self.fall_title = w.HTML()
        self.fall_odds = OddsView()
        self.fall_entry = DiceEntry("e.g. 3, 5", name="fall")
        self.fall_result = w.HTML()
        self.fall_explanation = ExplanationView()
        self.fall_entry.on_request(self.roll_fall)
        parts = (self.fall_title, self.fall_odds, self.fall_entry, self.fall_result,
                 self.fall_explanation)
        for part in parts:
            fit_labels(part)
        self._speak_reader_words()
        return parts

    @answers("fall_result", "fall_explanation", line="fall_entry.error")
    def roll_fall(self, request: RollRequest) -> None:
        """Roll the fall's damage dice with a seed or read them typed (rb.fall_damage, the
        call the fight page makes)."""
        if self.last is None or not self.last.damage_dice:
            raise RulesError("Roll the movement first: only a critical failure has a fall")
        rolled = rb.fall_damage(self.last.damage_dice, dice=request.dice)
        self.fall_result.value = headline_html(
            f"<span class='rulebook-range-fall'>{html.escape(rolled.outcome)}</span>",
            colour=ERROR)
        self.fall_explanation.show(rolled.trace)

    def _headline(self, result: rb.MoveResult) -> str:
        text = (f"Moved {result.value} band{'s' if result.value != 1 else ''}: now at "
                f"{rb.band(result.end).name.lower()} ({result.actions} actions)")
        if result.prone:
            text += f"; prone, {result.damage_dice}D damage"
        if result.bleeds:
            text += f"; bleeds {result.bleeds} wound"
        return text


class QuickLoadHelper(_CheckTool):
    """Quick loading: the 4D check, the odds of each result and the actions it takes."""

    reaches = (
        Reach(rb.quick_load_odds, {"weapon": "Weapon",
                                   "skill_pool": "Your dice (the loading skill)",
                                   **BONUS, **RULINGS}),
        Reach(rb.quick_load, {"weapon": "Weapon", "reload_time": "Normal reload (actions)",
                              "skill_dice": "Your dice (the loading skill)", **BONUS,
                              **RULINGS}, CHECK_DICE),
    )

    def __init__(self, weapon: str = "crossbow", reload_time: str = "3", pool: str = "4") -> None:
        self.weapon = _dropdown("Weapon", [("bow (Archery, Agility)", "bow"),
                                           ("firearm (Firearms, Agility)", "firearm"),
                                           ("crossbow (Crossbows, Vigor)", "crossbow")], weapon)
        self.reload_time = _number("Normal reload (actions)", reload_time, "e.g. 3")
        self.pick = FighterPick(SYSTEM, self.fill, label="Loader from the roster")
        self._frame([self.pick, self.weapon, self.reload_time], "Your dice (the loading skill)",
                    pool, inputs_share=50)   # "crossbow (Crossbows, Vigor)" shows whole
        self.add_class("rulebook-range-quickload")
        self.update()

    def fill(self, row) -> None:
        """The loader's shooting dice and, for a bow, firearm or crossbow, its kind."""
        self._updating = True
        try:
            self.pool.value = str(row["shooting"])
            if row["weapon"] in {v for _, v in self.weapon.options}:
                self.weapon.value = row["weapon"]
        finally:
            self._updating = False
        self.update()

    @answers("summary", "outcomes", "odds", "dice_order")
    def update(self) -> None:
        """Read the inputs and show the odds of each result."""
        self.counts = None
        self._clear_result()
        pool, bonus = self._ints()
        parse_int_text("Normal reload (actions)", self.reload_time.value)
        odds = rb.quick_load_odds(self.weapon.value, pool, bonus, **self._rule())
        names = {"critical success": "critical success: loaded at once, no action",
                 "success": "success: loaded in half the time",
                 "failure": "failure: half the time wasted",
                 "critical failure": "fumble: foiled, a Reliability failure"}
        shown = {names[k]: p for k, p in odds.outcomes.items()}
        self.summary.value = ""
        self._show_odds(rb.Odds(shown, odds.margins, odds.dice),
                        "Chance to load faster:", odds.success)

    def _resolve(self, dice: DiceSource) -> rb.QuickLoadResult:
        pool, bonus = self._ints()
        return rb.quick_load(self.weapon.value,
                             parse_int_text("Normal reload (actions)", self.reload_time.value),
                             pool, roll_bonus=bonus, dice=dice, **self._rule())

    def _headline(self, result: rb.QuickLoadResult) -> str:
        if result.loaded:
            return (f"Loaded in {result.value} action{'s' if result.value != 1 else ''} "
                    f"({result.outcome})")
        extra = "; Reliability failure" if result.reliability_failure else ""
        return f"Not loaded: {result.value} action{'s' if result.value != 1 else ''} wasted{extra}"


class StealthHelper(_CheckTool):
    """Stealth against Perception: cover, the odds of hiding, and the streak toward unaware."""

    chart_title = "Margin: Stealth (with cover) minus Perception (green: hidden)"
    _HIDER = {"cover": "Hider's cover", "movement": "Hider this turn",
              "close_contact": "In close contact with the observer",
              "stealth_bonus": "Bonus to your roll", "perception_bonus": "Observer's bonus"}
    reaches = (
        Reach(rb.stealth_odds, {"stealth_pool": "Hider's Stealth dice",
                                "perception_pool": "Observer's Perception dice", **_HIDER}),
        Reach(rb.stealth, {**_HIDER, "streak": "Successes in a row so far",
                           "stealth_dice": "Hider's Stealth dice",
                           "perception_dice": "Observer's Perception dice"},
              {"cover_dice": "drawn from the dice: as many as the cover gives", "dice": ROLLED}),
    )

    def __init__(self, pool: str = "3", perception: str = "3", cover: str = "light") -> None:
        self.perception = _number("Observer's Perception dice", perception, "e.g. 3")
        self.perception_bonus = _number("Observer's bonus", "0", "e.g. 1")
        self.cover = _dropdown("Hider's cover", [
            (f"{n} (+{rb.cover_dice(n)} {'die' if rb.cover_dice(n) == 1 else 'dice'})", n)
            for n in ("none", "light", "medium", "heavy")], cover)
        self.movement = _dropdown("Hider this turn", [("stays put", "still"),
                                                      ("takes one move", "move"),
                                                      ("dashes", "dash"),
                                                      ("crosses impassable terrain",
                                                       "impassable")], "still")
        self.close_contact = _checkbox("In close contact with the observer")
        self.streak = _number("Successes in a row so far", "0", "0, 1, …")
        self.pick = FighterPick(SYSTEM, lambda row: setattr(self.pool, "value",
                                                            str(row["stealth"])),
                                label="Hider from the roster")
        self.observer = FighterPick(SYSTEM, lambda row: setattr(self.perception, "value",
                                                                str(row["perception"])),
                                    label="Observer from the roster")
        inputs = [self.pick, self.observer, self.perception, self.perception_bonus, self.cover,
                  self.movement,
                  self.close_contact, self.streak]
        self._frame(inputs, "Hider's Stealth dice", pool, nd_rule=False, pool_first=True)
        self.close_contact.observe(self._changed, "value")
        self.add_class("rulebook-range-stealth")
        self.update()

    def _inputs(self) -> dict:
        return dict(cover=self.cover.value, movement=self.movement.value,
                    close_contact=self.close_contact.value)

    @answers("summary", "outcomes", "odds", "dice_order")
    def update(self) -> None:
        """Read the inputs and show the odds of staying hidden."""
        self.counts = None
        self._clear_result()
        pool, bonus = self._ints()
        odds = rb.stealth_odds(
            pool, parse_int_text("Observer's Perception dice", self.perception.value),
            stealth_bonus=bonus,
            perception_bonus=parse_int_text("Observer's bonus", self.perception_bonus.value,
                                            blank=0), **self._inputs())
        parse_int_text("Successes in a row so far", self.streak.value, blank=0)
        self.summary.value = ""
        self._show_odds(odds, "Chance to stay hidden:", odds.outcomes["hidden"])

    def _resolve(self, dice: DiceSource) -> rb.StealthResult:
        pool, bonus = self._ints()
        return rb.stealth(pool, parse_int_text("Observer's Perception dice",
                                               self.perception.value),
                          streak=parse_int_text("Successes in a row so far", self.streak.value,
                                                blank=0),
                          stealth_bonus=bonus,
                          perception_bonus=parse_int_text("Observer's bonus",
                                                          self.perception_bonus.value, blank=0),
                          dice=dice, **self._inputs())

    def _headline(self, result: rb.StealthResult) -> str:
        if result.unaware:
            return (f"Hidden, {result.streak} in a row: the observer is unaware of the character")
        if result.hidden:
            return f"Hidden ({result.streak} in a row): only area fire can target the character"
        return "Seen: the streak is broken"

    def _after(self, result: rb.StealthResult) -> None:
        self._updating = True
        self.streak.value = str(result.streak)
        self._updating = False


class CheckHelper(_CheckTool):
    """Any check in dice (§How a check in dice is rolled, our ruling): your dice against the
    difficulty, the odds of each result under either reading, then the roll."""

    reaches = (
        Reach(rb.check_odds, {"skill_pool": "Your dice", "difficulty": "Difficulty (dice)",
                              **BONUS, **RULINGS}),
        Reach(rb.check, {"skill_dice": "Your dice", "difficulty": "Difficulty (dice)", **BONUS,
                         **RULINGS}, {**CHECK_DICE,
                                      "section": "the chapter's section on checks in dice",
                                      "what": "the roll is called a check"}),
    )

    def __init__(self, pool: str = "4", difficulty: str = "4") -> None:
        self.difficulty = _number("Difficulty (dice)", difficulty, "e.g. 4 for 4D")
        self._frame([self.difficulty], "Your dice", pool, pool_first=True)
        self.add_class("rulebook-range-check")
        self.update()

    def _difficulty(self) -> int:
        return parse_int_text("Difficulty (dice)", self.difficulty.value)

    @answers("summary", "outcomes", "odds", "dice_order")
    def update(self) -> None:
        """Read the dice, the difficulty and the rulings; show the odds of each result."""
        self.counts = None
        self._clear_result()
        pool, bonus = self._ints()
        odds = rb.check_odds(pool, self._difficulty(), bonus, **self._rule())
        self.summary.value = ""
        self._show_odds(odds, "Chance of success:", odds.success)

    def _resolve(self, dice: DiceSource) -> rb.CheckResult:
        pool, bonus = self._ints()
        return rb.check(pool, self._difficulty(), roll_bonus=bonus, dice=dice, **self._rule())

    def _headline(self, result: rb.CheckResult) -> str:
        return (f"{result.outcome.capitalize()}: {result.value} against {result.target} "
                f"(margin {result.margin:+d})")


class ExtremeDuel(_CheckTool):
    """An extreme-range engagement (§Extreme range engagements): both sides roll the skill the
    GM picks; the one ahead, the first side on a tie, gets the shot at extreme range."""

    chart_title = "Margin: first side's total minus the second side's (green: first side)"
    _SIDES = {"first_bonus": "First side's bonus", "second_bonus": "Second side's bonus"}
    reaches = (
        Reach(rb.opposed_odds, {"active_pool": "First side's dice",
                                "passive_pool": "Second side's dice",
                                "active_bonus": "First side's bonus",
                                "passive_bonus": "Second side's bonus"}),
        Reach(rb.extreme_engagement, {"first_dice": "First side's dice",
                                      "second_dice": "Second side's dice", **_SIDES},
              {"dice": ROLLED}),
    )

    def __init__(self, first: str = "3", second: str = "3") -> None:
        self.second = _number("Second side's dice", second, "e.g. 3")
        self.second_bonus = _number("Second side's bonus", "0", "e.g. 1")
        self._frame([self.second, self.second_bonus], "First side's dice", first,
                    nd_rule=False, pool_first=True, bonus_label="First side's bonus")
        self.add_class("rulebook-range-extreme")
        self.update()

    def _ints(self) -> tuple[int, int]:
        return (parse_int_text("First side's dice", self.pool.value),
                parse_int_text("First side's bonus", self.bonus.value, blank=0))

    def _theirs(self) -> tuple[int, int]:
        return (parse_int_text("Second side's dice", self.second.value),
                parse_int_text("Second side's bonus", self.second_bonus.value, blank=0))

    @answers("summary", "outcomes", "odds", "dice_order")
    def update(self) -> None:
        """Read both sides' dice and bonuses and show the odds of each side getting the shot."""
        self.counts = None
        self._clear_result()
        (mine, my_bonus), (theirs, their_bonus) = self._ints(), self._theirs()
        odds = rb.opposed_odds(mine, theirs, my_bonus, their_bonus)
        shown = {"the first side shoots (a tie goes to it)": odds.outcomes["wins"],
                 "the second side shoots": odds.outcomes["loses"]}
        self.summary.value = ""
        self._show_odds(rb.Odds(shown, odds.margins,
                                {"first_dice": mine, "second_dice": theirs}),
                        "Chance the first side gets the shot:", odds.success)

    def _resolve(self, dice: DiceSource) -> rb.OpposedResult:
        (mine, my_bonus), (theirs, their_bonus) = self._ints(), self._theirs()
        return rb.extreme_engagement(mine, theirs, my_bonus, their_bonus, dice=dice)

    def _headline(self, result: rb.OpposedResult) -> str:
        who = "first" if result.success else "second"
        return (f"The {who} side shoots: {result.active_total} against "
                f"{result.passive_total}")


class CoverCheck(Tool):
    """How much a target's cover counts (§Cover), and whether heavy cover in between still
    leaves a line of sight."""

    holds_blank_lines = True

    reaches = (
        Reach(rb.cover_modifier, {"cover": "Target's cover", "movement": "Target this turn",
                                  "close_contact": "In close contact with the shooter"}),
        Reach(rb.line_of_sight, {"heavy_cover_bands": "Bands of heavy cover in between"}),
    )

    def __init__(self, cover: str = "heavy", movement: str = "still") -> None:
        self.cover = _dropdown("Target's cover", [(f"{n} (+{rb.cover_dice(n)}D)", n) for n in
                                                  ("none", "light", "medium", "heavy")], cover)
        self.movement = _dropdown("Target this turn", [
            ("stays put", "still"), ("takes one move", "move"), ("dashes", "dash"),
            ("crosses impassable terrain that gives cover", "impassable")], movement,
            width=SENTENCE_WIDTH)
        self.close_contact = _checkbox("In close contact with the shooter")
        self.heavy_bands = _number("Bands of heavy cover in between", "0", "e.g. 1")
        self.error = ErrorLine()
        self.result = w.HTML()
        self.explanation = ExplanationView()
        super().__init__([self.cover, self.movement, self.close_contact, self.heavy_bands,
                          self.error, self.result, self.explanation], "rulebook-range-cover")
        for field in (self.cover, self.movement, self.close_contact, self.heavy_bands):
            field.observe(lambda _: self.update(), "value")
        self.update()

    @answers("result", "explanation")
    def update(self) -> None:
        """Read the cover and what the target did; show the dice it adds and the sight line."""
        r = rb.cover_modifier(self.cover.value, movement=self.movement.value,
                              close_contact=self.close_contact.value)
        sight = rb.line_of_sight(parse_int_text("Bands of heavy cover in between",
                                                self.heavy_bands.value, blank=0))
        head = (f"Cover adds +{r.value}D to the shot" if r.applies else
                "Cover adds nothing to the shot (+0D)")
        seen = ("The shooter can see the target" if sight else
                "More than one band of heavy cover: no line of sight")
        self.result.value = (headline_html(html.escape(head)) + "<div class='rulebook-sight'>"
                             f"{html.escape(seen)}</div>")
        self.explanation.show(r.trace)


class BandFinder(Tool):
    """The band a distance in metres falls in (§Range bands)."""

    holds_blank_lines = True

    reaches = (Reach(rb.band_for_distance, {"metres": "Distance (metres)",
                                            "edge": "A distance on an edge is in"}),)

    def __init__(self, metres: str = "75") -> None:
        self.metres = _number("Distance (metres)", metres, "e.g. 75")
        self.edge = _dropdown("A distance on an edge is in", [
            ("the nearer band (our ruling)", "nearer"), ("the farther band", "farther")],
            "nearer", width=SENTENCE_WIDTH)
        self.error = ErrorLine()
        self.result = w.HTML()
        super().__init__([self.metres, self.edge, self.error, self.result],
                         "rulebook-range-distance")
        for field in (self.metres, self.edge):
            field.observe(lambda _: self.update(), "value")
        self.update()

    @answers("result")
    def update(self) -> None:
        """Read the distance and show its band."""
        metres = parse_int_text("Distance (metres)", self.metres.value)
        b = rb.band(rb.band_for_distance(metres, edge=self.edge.value))
        self.result.value = headline_html(f"{metres} m is {html.escape(b.name.lower())} "
                                          f"({html.escape(b.metres)})")


class MoveHelper(Tool):
    """One ordinary move (§Ordinary movement): one action, one band nearer or farther, or into
    close contact within the band; no check, and the mover keeps their cover."""

    holds_blank_lines = True

    reaches = (Reach(rb.move, {"start_band": "Starting band", "direction": "Direction"}),)

    def __init__(self, start: str = "distant", direction: str = "closer") -> None:
        self.start = _dropdown("Starting band", _band_options(rb.BAND_IDS[:-1]), start)
        self.direction = _dropdown("Direction", [("closer", "closer"), ("away", "away")],
                                   direction)
        self.error = ErrorLine()
        self.result = w.HTML()
        self.explanation = ExplanationView()
        super().__init__([self.start, self.direction, self.error, self.result,
                          self.explanation], "rulebook-range-move")
        for field in (self.start, self.direction):
            field.observe(lambda _: self.update(), "value")
        self.update()

    @answers("result", "explanation")
    def update(self) -> None:
        """Make the move and show where it ends."""
        r = rb.move(self.start.value, self.direction.value)
        self.result.value = headline_html(html.escape(self.headline(r)))
        self.explanation.show(r.trace)

    @staticmethod
    def headline(r: rb.MoveResult) -> str:
        """The move's result in a line: bands moved, where it ends, actions, cover kept."""
        where = rb.band(r.end).name.lower()
        cover = "; keeps cover" if r.keeps_cover else ""
        return (f"Moved {r.value} band{'s' if r.value != 1 else ''}: now at {where} "
                f"({r.actions} action{'s' if r.actions != 1 else ''}){cover}")


class MeleeReach(Tool):
    """Whether a hand weapon reaches a target (§Melee attacks): close contact, or the same band
    (very close) for a long weapon."""

    holds_blank_lines = True

    reaches = (Reach(rb.melee_reach, {"target_band": "Target's band",
                                      "long_weapon": "A long weapon (a spear, a pike)"}),)

    def __init__(self, target: str = "very_close", long_weapon: bool = True) -> None:
        self.target = _dropdown("Target's band", _band_options(rb.BAND_IDS), target)
        self.long_weapon = _checkbox("A long weapon (a spear, a pike)", long_weapon)
        self.error = ErrorLine()
        self.result = w.HTML()
        super().__init__([self.target, self.long_weapon, self.error, self.result],
                         "rulebook-range-reach")
        for field in (self.target, self.long_weapon):
            field.observe(lambda _: self.update(), "value")
        self.update()

    @answers("result")
    def update(self) -> None:
        """Read the band and the weapon; say whether it reaches."""
        where = rb.band(self.target.value).name.lower()
        reaches = rb.melee_reach(self.target.value, long_weapon=self.long_weapon.value)
        weapon = "A long weapon" if self.long_weapon.value else "A hand weapon"
        self.result.value = headline_html(
            f"{'Yes' if reaches else 'No'}: {weapon.lower()} "
            f"{'reaches' if reaches else 'does not reach'} a target "
            f"{'in' if self.target.value == 'close_contact' else 'at'} {html.escape(where)}")


class TargetCheck(Tool):
    """Whether a character can be shot at (§Stealth): a hidden one only by area fire from an
    area weapon."""

    holds_blank_lines = True

    reaches = (Reach(rb.can_target, {"hidden": "The target is hidden",
                                     "area_fire": "The attack is area fire"}),)

    def __init__(self, hidden: bool = True, area_fire: bool = False) -> None:
        self.hidden = _checkbox("The target is hidden", hidden)
        self.area_fire = _checkbox("The attack is area fire", area_fire)
        self.error = ErrorLine()
        self.result = w.HTML()
        super().__init__([w.HBox([self.hidden, self.area_fire]), self.error, self.result],
                         "rulebook-range-target")
        for field in (self.hidden, self.area_fire):
            field.observe(lambda _: self.update(), "value")
        self.update()

    @answers("result")
    def update(self) -> None:
        """Read whether the target is hidden and the attack is area fire; say whether the
        target can be shot at."""
        hidden, area = self.hidden.value, self.area_fire.value
        if rb.can_target(hidden, area_fire=area):
            why = ("area fire reaches a hidden character" if hidden else
                   "the target is not hidden")
            head = f"Yes: {why}"
        else:
            head = "No: a hidden character can only be targeted by area fire"
        self.result.value = headline_html(html.escape(head))


def worked(result, title: str):
    """Show a worked example: its title, its headline and its explanation; return the result."""
    head = str(result.outcome)
    if isinstance(result, rb.MoveResult):
        head = (f"moves {result.value} band{'s' if result.value != 1 else ''}, ends at "
                f"{rb.band(result.end).name.lower()}")
    display(explain(result, head, title=title, value=False))
    return result


def show_odds(odds: rb.Odds, title: str) -> rb.Odds:
    """Show the exact chance of each outcome of a roll; return the odds."""
    display(HTML(outcomes_html(odds.outcomes, title)))
    return odds
