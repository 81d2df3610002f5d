"""Running a range-band fight on one page: the roster, where everyone stands from everyone else
(the band between each pair, cover, hidden, prone), a shot whose difficulty is filled from the
two fighters and whose hit is recorded with its margin, movement and hiding that change those
positions, and falls with their damage dice (DESIGN.md §5 "At the table").

The page is a :class:`widgets.fight.FightPage` over
:class:`rulescore.systems.range_bands.Fight`: the page keeps the roster, the fight, undo/redo
and the roll log; each panel reads ``page.roster`` and ``page.state`` and makes one
``page.apply`` per result. Turn order, damage, wounds and the Defense Pool belong to chapters of
the game we do not have (assumption ``fight_scope``), so the page does not invent them.
"""

from __future__ import annotations

import html

import ipywidgets as w

from rulescore.dice import DiceSource
from rulescore.errors import RulesError
from rulescore.roster import Roster
from rulescore.systems import range_bands as rb
from rulescore.systems.range_bands.fight import COVERS, Fight, starter_fight

from .common import (ROLLED, DiceEntry, ErrorLine, ExplanationView, Reach, RollRequest, Tool,
                     answers, button, chance_html, odds_line, section)
from .fight import FightPage, OnThePage
from .lean import set_shown, shared_layout
from .range_bands import FALL_NOTE_STYLE, dice_order_html, fall_note
from .theme import ERROR, FAINT, RULE_LINE, SUCCESS

STYLE = {"description_width": "9em"}
NARROW = shared_layout(width="19em")
THE_FIGHT = "the page's fight, kept with the roster"
FROM_ROWS = "from the two fighters: the fight's band, cover and hiding, the shooter's row"
AS_PRINTED = "the fight uses our ruling; the shot builder's chapter switches it"
MOVE_ROLLED = "the dice of the Roll the move / Move dice row"
MOVES = (("stays put", "still"), ("took one move", "move"), ("dashed", "dash"),
         ("crossed impassable terrain", "impassable"))
SITUATIONS = (("a single target in the open", "single"), ("a rider", "horseman"),
              ("into close contact", "close_contact"),
              ("into a crowd or wrestling match", "crowd"), ("a target in cover", "cover"))
#: What the chapter says a hit is, and where the rest lives (assumption fight_scope).
HIT_MEANS = ("A hit's margin is what the game's damage rules read; those rules (with wounds, "
             "the Defense Pool and bleeding) are in chapters we do not have, so the page records "
             "the hit and its margin and leaves the damage to them.")


#: Where the reader sets the inputs a shot or a move takes from the fight and the roster.
FILLED_WORDS = {"target_band": "Band between them", "target_hidden": "Hidden",
                "target_movement": "This turn", "cover": "Cover",
                "optimal_bands": "Optimal band (roster)", "weapon": "Weapon (roster)",
                "skill_pool": "Shooting dice (roster)", "roll_bonus": "Shooting bonus (roster)",
                "start_band": "Band between them", "skill_dice": "Athletics dice (roster)",
                "stealth_dice": "Stealth dice (roster)",
                "perception_dice": "Perception dice (roster)"}


def starter() -> Roster:
    """The fighters a first visit starts with: a rifleman, a raider with a bow and a second
    raider beside him, for trying the page."""
    return (Roster(rb.ROSTER)
            .add("Mara", pc=True, shooting=5, weapon="firearm", optimal="distant",
                 optimal2="far", stealth=4, athletics=4)
            .add("Raider", shooting=4, weapon="bow", optimal="close", perception=3)
            .add("Raider 2", shooting=4, weapon="bow", optimal="close", perception=3))


def first_fight() -> Fight:
    """Where the starting fighters stand: the raiders together, distant from Mara, the first
    of them in light cover."""
    return starter_fight(starter().names(), {("Mara", "Raider"): "distant",
                                             ("Mara", "Raider 2"): "distant",
                                             ("Raider", "Raider 2"): "very_close"},
                         {"Raider": "light"})


def _menu(label: str, options=(), value=None) -> w.Dropdown:
    style = STYLE if len(label) < 16 else {"description_width": "11.5em"}
    drop = w.Dropdown(options=options, description=label, style=style, layout=NARROW)
    if value is not None:
        drop.value = value
    return drop


def _check(label: str) -> w.Checkbox:
    return w.Checkbox(value=False, description=label, indent=False,
                      layout=shared_layout(width="auto", margin="0 1em 0 0"))


def _names(drop: w.Dropdown, names: tuple[str, ...], prefer: str | None) -> None:
    """Offer *names*, keeping the current pick when it is still there, else *prefer*."""
    keep = drop.value if drop.value in names else (prefer if prefer in names else None)
    if tuple(drop.options) != names:
        drop.options = names
    drop.value = keep if keep is not None else (names[0] if names else None)


def _band_words(where: str | None) -> str:
    return "not placed" if where is None else rb.band(where).name.lower()


def board_html(fight: Fight) -> str:
    """One row per fighter (cover, this turn, hidden, prone, hits with margins, falls), then the
    band between each pair."""
    if not fight.fighters:
        return f"<i style='color:{FAINT}'>Add fighters to the roster above.</i>"
    cell = f"padding:2px 8px;border-bottom:1px solid {RULE_LINE};text-align:left"
    rows = []
    for s in fight.fighters:
        hidden = ("unaware of them" if s.unaware else f"hidden ({s.streak} in a row)"
                  if s.hidden else "seen")
        hits = ", ".join(h.words() for h in s.hits) or "—"
        falls = ", ".join(f.words() for f in s.falls) or "—"
        extra = [x for x, on in (("prone", s.prone), (f"bled {s.bled}", s.bled)) if on]
        rows.append(
            f"<tr data-fighter='{html.escape(s.name, quote=True)}'>"
            f"<td><b>{html.escape(s.name)}</b></td><td class='cover'>{s.cover}</td>"
            f"<td class='turn'>{dict((v, k) for k, v in MOVES)[s.movement]}</td>"
            f"<td class='hidden'>{hidden}</td><td class='hits'>{html.escape(hits)}</td>"
            f"<td class='falls'>{html.escape(falls)}</td>"
            f"<td class='marks'>{', '.join(extra)}</td></tr>")
    names = fight.names()
    grid = []
    for a in names:
        cells = "".join(
            "<td style='color:#999'>·</td>" if a == b else
            f"<td data-pair='{html.escape(a, quote=True)}|{html.escape(b, quote=True)}'>"
            f"{_band_words(fight.band_between(a, b))}</td>" for b in names)
        grid.append(f"<tr><th>{html.escape(a)}</th>{cells}</tr>")
    head = "".join(f"<th>{html.escape(n)}</th>" for n in names)
    return (f"<style>.rulebook-rb-board td,.rulebook-rb-board th,.rulebook-rb-bands td,"
            f".rulebook-rb-bands th{{{cell}}}</style>"
            "<table class='rulebook-rb-board'><thead><tr><th>Fighter</th><th>Cover</th>"
            "<th>This turn</th><th>Seen?</th><th>Hits taken</th><th>Falls</th><th></th></tr>"
            f"</thead><tbody>{''.join(rows)}</tbody></table>"
            f"<p style='margin:.5em 0 .1em'><b>Bands between fighters</b> "
            f"<small style='color:{FAINT}'>(as the GM reads them off the map)</small></p>"
            f"<table class='rulebook-rb-bands'><thead><tr><th></th>{head}</tr></thead>"
            f"<tbody>{''.join(grid)}</tbody></table>")


class _Panel(OnThePage, Tool):
    """A panel of the page (:class:`widgets.fight.OnThePage`)."""

    @property
    def fight(self) -> Fight:
        """The page's fight in step with the roster (fighters added or removed)."""
        return self._page().state.follow(self._page().roster.names())


class Positions(_Panel):
    """Where everyone stands: the board, and the GM's marks (band between two fighters, cover,
    what a fighter did this turn, hidden, prone), each one undoable step."""

    reaches = (
        Reach(Fight.place, {"a": "Fighter", "b": "Other fighter",
                            "band_between": "Band between them"}, {"self": THE_FIGHT}),
        Reach(Fight.mark, {"name": "Fighter", "cover": "Cover", "movement": "This turn",
                           "hidden": "Hidden", "prone": "Prone"}, {"self": THE_FIGHT}),
        Reach(Fight.new_turn, {}, {"self": THE_FIGHT}),
        Reach(Fight.roll_fall, {"name": "Fighter"},
              {"self": THE_FIGHT, "dice": "the Roll the fall / Fall dice row"}),
    )

    def __init__(self) -> None:
        self.board = w.HTML()
        self.who = _menu("Fighter")
        self.other = _menu("Other fighter")
        self.between = _menu("Band between them",
                             [(b.name, b.band) for b in rb.bands()], "distant")
        self.cover = _menu("Cover", [(c, c) for c in COVERS])
        self.movement = _menu("This turn", MOVES)
        self.hidden = _check("Hidden")
        self.prone = _check("Prone")
        self.new_turn_button = button("New turn", "Nobody has moved yet: everyone may use "
                                      "cover again")
        self.error = ErrorLine()
        self.fall_entry = DiceEntry("e.g. 3, 5", name="fall")
        self.fall_note = w.HTML()
        self.fall_result = w.HTML()
        super().__init__([section(
            "Where everyone stands", self.board,
            w.HBox([w.VBox([self.who, self.cover, self.movement,
                            w.HBox([self.hidden, self.prone])]),
                    w.VBox([self.other, self.between, w.HBox([self.new_turn_button])])]),
            self.error, self.fall_note, self.fall_entry, self.fall_result)],
            "rulebook-rb-fight-positions")
        self._quiet = False
        self.who.observe(lambda _: self._show_marks(), "value")
        self.other.observe(lambda _: self._show_marks(), "value")
        for field in (self.cover, self.movement, self.hidden, self.prone):
            field.observe(self._marked, "value")
        self.between.observe(self._placed, "value")
        self.new_turn_button.on_click(lambda _: self.new_turn())
        self.fall_entry.on_request(self.roll_fall)

    def render(self) -> None:
        fight = self.fight
        self.board.value = board_html(fight)
        names = fight.names()
        self._quiet = True
        try:
            _names(self.who, names, None)
            _names(self.other, tuple(n for n in names if n != self.who.value) or names,
                   None)
        finally:
            self._quiet = False
        self._show_marks()

    def _show_marks(self) -> None:
        """The fields show the chosen fighter's marks and the band to the other fighter."""
        if self._quiet:
            return
        fight = self.fight
        self._quiet = True
        try:
            if self.who.value is None:
                return
            others = tuple(n for n in fight.names() if n != self.who.value)
            _names(self.other, others, self.other.value)
            s = fight.of(self.who.value)
            self.cover.value, self.movement.value = s.cover, s.movement
            self.hidden.value, self.prone.value = s.hidden, s.prone
            where = (fight.band_between(self.who.value, self.other.value)
                     if self.other.value else None)
            if where is not None:
                self.between.value = where
            self.between.description = ("Band between them" if where is not None
                                        else "Place them at")
            waiting = next((f for f in reversed(s.falls) if f.total is None), None)
            set_shown(self.fall_entry, waiting is not None)
            self.fall_note.value = (
                f"<div class='rulebook-fall-note' style='{FALL_NOTE_STYLE}'>"
                f"{html.escape(s.name)}'s {waiting.dice}D fall. {fall_note(waiting.dice)}</div>"
                if waiting else "")
        finally:
            self._quiet = False

    @answers()
    def _marked(self, change: dict) -> None:
        if self._quiet or self.who.value is None:
            return
        key = {self.cover: "cover", self.movement: "movement", self.hidden: "hidden",
               self.prone: "prone"}[change["owner"]]
        move = self.fight.mark(self.who.value, **{key: change["new"]})
        self.page.apply(move.line, state=move.fight)

    @answers()
    def _placed(self, change: dict) -> None:
        if self._quiet or self.who.value is None or self.other.value is None:
            return
        move = self.fight.place(self.who.value, self.other.value, change["new"])
        self.page.apply(move.line, state=move.fight)

    @answers()
    def new_turn(self) -> None:
        move = self.fight.new_turn()
        self.page.apply(move.line, state=move.fight)

    @answers(line="fall_entry.error")
    def roll_fall(self, request: RollRequest) -> None:
        who = self.who.value
        move = self.fight.roll_fall(who or "", dice=request.dice)
        self.fall_result.value = f"<b class='rulebook-rb-fall-result'>{html.escape(move.line)}</b>"
        self.roll_log.add(f"fall damage: {who}", request, move.line,
                          lambda again: self.roll_fall(again))
        self.page.apply(move.line, state=move.fight)


class ShotPanel(_Panel):
    """A shot from one fighter at another: the difficulty built from where they stand, the odds,
    the dice, and the hit recorded on the target with its margin."""

    waiting_for = "the shot's dice"
    _SHOT = {"snapshot": "Snapshot (+1D, one action)", "called_shot": "Called shot (+2D)",
             "area_fire": "Area fire (+2D)", "aim_action": "Aim action first (+2 to the roll)",
             "situation": "If it misses"}
    reaches = (
        Reach(Fight.shot_inputs, {"shooter_name": "Shooter", "target_name": "Target"},
              {"self": THE_FIGHT, "shooter": "the shooter's roster row",
               "target": "the target's roster row"}),
        Reach(rb.plan_shot, {k: v for k, v in _SHOT.items()},
              {**{name: FROM_ROWS for name in (
                  "target_band", "optimal_bands", "cover", "target_movement", "weapon",
                  "target_hidden", "skill_pool", "roll_bonus")},
               "aim_rounds": "long aiming and a GM's adjustment are in the shot builder's "
                             "chapter (Cover and shooting)",
               "gm_dice": "long aiming and a GM's adjustment are in the shot builder's "
                          "chapter (Cover and shooting)",
               "nd_rule": AS_PRINTED, "critical_margin": AS_PRINTED,
               "miss_reading": AS_PRINTED}),
        Reach(rb.shot, {"area_fire": _SHOT["area_fire"], "situation": _SHOT["situation"]},
              {"difficulty": "the difficulty the plan built", "skill_dice": FROM_ROWS,
               "roll_bonus": "the plan's bonus: the shooter's and an aim action's +2",
               "difficulty_dice": "drawn from the dice: as many as the difficulty has",
               "dice": ROLLED, "nd_rule": AS_PRINTED, "critical_margin": AS_PRINTED,
               "miss_reading": AS_PRINTED}),
        Reach(Fight.apply_shot, {"shooter": "Shooter", "target": "Target"},
              {"self": THE_FIGHT, "result": "the shot rolled above"}),
    )

    @classmethod
    def words(cls) -> dict[str, str]:
        """The fields' labels, and for the inputs filled from the fight and the roster the
        place the reader sets them (a message names that place)."""
        return {**super().words(), **FILLED_WORDS}

    def __init__(self) -> None:
        self.shooter = _menu("Shooter")
        self.target = _menu("Target")
        self.snapshot = _check(self._SHOT["snapshot"])
        self.called = _check(self._SHOT["called_shot"])
        self.area = _check(self._SHOT["area_fire"])
        self.aim = _check(self._SHOT["aim_action"])
        self.situation = _menu("If it misses", SITUATIONS)
        self.filled = w.HTML()
        self.odds = w.HTML()
        self.error = ErrorLine()
        self.entry = DiceEntry("your dice, then the difficulty's")
        self.dice_order = w.HTML()
        self.result = w.HTML(self.waiting)
        self.means = w.HTML()
        self.apply_button = button("Record the hit", "Nothing rolled yet", primary=True)
        self.explanation = ExplanationView()
        self.inputs = [self.shooter, self.target, self.situation, self.snapshot, self.called,
                       self.area, self.aim]
        left = w.VBox([self.shooter, self.target, self.situation,
                       w.HBox([self.snapshot, self.called],
                              layout=shared_layout(flex_flow="row wrap")),
                       w.HBox([self.area, self.aim],
                              layout=shared_layout(flex_flow="row wrap")),
                       self.filled, self.odds, self.error],
                      layout=shared_layout(width="50%", min_width="24em"))
        right = w.VBox([self.dice_order, self.entry, self.result, self.means,
                        w.HBox([self.apply_button]), self.explanation],
                       layout=shared_layout(width="50%", min_width="24em"))
        super().__init__([section("A shot", w.HBox([left, right], layout=shared_layout(
            flex_flow="row wrap", align_items="flex-start")))], "rulebook-rb-fight-shot")
        self.plan: rb.ShotPlan | None = None
        self.shot: rb.ShotResult | None = None
        self.shot_of: tuple[str, str] | None = None
        self.before: Fight | None = None
        self._quiet = False
        for field in self.inputs:
            field.observe(lambda _: self._changed(), "value")
        self.entry.on_request(self.roll)
        self.apply_button.on_click(lambda _: self.apply())

    def render(self) -> None:
        names = self.page.roster.names()
        self._quiet = True
        try:
            _names(self.shooter, names, names[0] if names else None)
            others = tuple(n for n in names if n != self.shooter.value)
            _names(self.target, names, self.target.value if self.target.value in others
                   else (others[0] if others else None))
        finally:
            self._quiet = False
        if self.shot is not None and self.before is not None and \
                self.page.state.follow(names) not in (self.before, self._after()):
            self._clear()
        self._show_apply()
        self.show_filled()

    def _changed(self) -> None:
        if self._quiet:
            return
        self._clear()
        self.show_filled()

    def _clear(self) -> None:
        self.shot, self.shot_of, self.before = None, None, None
        self.result.value = self.waiting
        self.means.value = ""
        self.explanation.clear()
        self._show_apply()

    def _after(self) -> Fight | None:
        if self.shot is None or self.before is None or self.shot_of is None:
            return None
        return self.before.apply_shot(*self.shot_of, self.shot).fight

    def _show_apply(self) -> None:
        shot = self.shot
        recorded = shot is not None and self.page.state.follow(
            self.page.roster.names()) == self._after() and self.before != self._after()
        self.apply_button.disabled = shot is None or not shot.hit or recorded
        target = self.shot_of[1] if self.shot_of else self.target.value
        self.apply_button.description = (f"Recorded on {target}" if recorded else
                                         f"Record the hit on {target}" if target
                                         else "Record the hit")
        self.apply_button.tooltip = ("Nothing rolled yet" if shot is None else
                                     "A miss records nothing" if not shot.hit else
                                     "Already recorded" if recorded else
                                     "Write the hit and its margin on the target")

    def _setup(self) -> dict:
        roster = self.page.roster
        if self.shooter.value is None or self.target.value is None:
            raise RulesError("Two fighters are needed: add them to the roster above.")
        if self.shooter.value == self.target.value:
            raise RulesError("Shooter and Target must be two fighters")
        return self.fight.shot_inputs(roster.fighter(self.shooter.value),
                                      roster.fighter(self.target.value),
                                      self.shooter.value, self.target.value)

    @answers("filled", "odds", "dice_order")
    def show_filled(self) -> None:
        """What the two fighters bring, the difficulty and the exact odds before the roll."""
        self.plan = None
        setup = self._setup()
        self.plan = rb.plan_shot(**setup, snapshot=self.snapshot.value,
                                 called_shot=self.called.value, area_fire=self.area.value,
                                 aim_action=self.aim.value, situation=self.situation.value)
        d = self.plan.difficulty
        t = self.fight.of(self.target.value)
        moved = dict((v, k) for k, v in MOVES)[t.movement]
        optimal = " and ".join(rb.band(b).name.lower() for b in setup["optimal_bands"])
        self.filled.value = (
            f"<small>From the fight: {html.escape(self.target.value)} is "
            f"<b>{_band_words(setup['target_band'])}</b> from "
            f"{html.escape(self.shooter.value)}, {t.cover} cover, {moved}"
            f"{', hidden' if t.hidden else ''}; {html.escape(self.shooter.value)}'s "
            f"{setup['weapon']} (optimal {optimal}), {setup['skill_pool']} dice"
            + (f", {setup['roll_bonus']:+d}" if setup['roll_bonus'] else "") + ".</small>")
        bonus = f", {self.plan.roll_bonus:+d} to the roll" if self.plan.roll_bonus else ""
        self.odds.value = odds_line(
            "rulebook-rb-fight-odds",
            f"Difficulty <b>{d.value}D</b>{html.escape(bonus)} · {d.actions} "
            f"action{'s' if d.actions > 1 else ''} · chance to hit "
            f"{chance_html(self.plan.odds.success, strong=True)}")
        self.dice_order.value = dice_order_html(dict(self.plan.odds.dice))

    @answers(line="entry.error")
    def roll(self, request: RollRequest, log: bool = True) -> None:
        """Resolve the shot with the seed or the typed dice: the result and what it means."""
        if self.plan is None:
            raise RulesError("Fix the inputs above first.")
        setup = self._setup()
        shot = rb.shot(self.plan.difficulty.value, setup["skill_pool"],
                       roll_bonus=self.plan.roll_bonus, area_fire=self.area.value,
                       situation=self.situation.value, dice=request.dice)
        self.shot, self.shot_of = shot, (self.shooter.value, self.target.value)
        self.before = self.fight
        said = headline(shot)
        colour = SUCCESS if shot.hit else ERROR
        self.result.value = (f"<div class='rulebook-rb-fight-result' style='font-weight:600;"
                             f"font-size:120%;color:{colour}'>{html.escape(said)}</div>")
        self.means.value = (f"<small class='rulebook-rb-hit-means'>{html.escape(HIT_MEANS)}"
                            "</small>" if shot.hit else "")
        self.explanation.show(shot.trace)
        self._show_apply()
        if log:
            values = [field.value for field in self.inputs]
            self.roll_log.add(f"shot: {self.shooter.value} at {self.target.value}", request,
                              said, lambda again: self._replay(values, again))

    @answers()
    def apply(self) -> None:
        if self.shot is None or self.shot_of is None:
            raise RulesError("Roll the shot first.")
        move = self.fight.apply_shot(*self.shot_of, self.shot)
        self.page.apply(move.line, state=move.fight)


def headline(shot: rb.ShotResult) -> str:
    """A shot's result as the table says it: "Hit by 3", "Missed by 2: the shot hits the
    mount"."""
    if shot.outcome == "area hit":
        return f"Area hit: everyone in the target's square is hit as if by {shot.value}"
    if shot.hit:
        return f"{shot.outcome.capitalize()} by {shot.margin}"
    return f"Missed by {-shot.margin}" + ("" if shot.miss.outcome == "a plain miss"
                                          else f": {shot.miss.outcome}")


class MovePanel(_Panel):
    """A move, dash or crossing toward or away from another fighter, or a Stealth check against
    them: rolled, and written into the fight at once (one undoable step)."""

    waiting_for = "the dice (none for an ordinary move)"
    _KIND = (("One move (one action, one band)", "move"), ("Dash (two actions, two bands)", "dash"),
             ("Cross impassable terrain (two actions, one band)", "impassable"),
             ("Hide: Stealth against their Perception", "stealth"))
    _MOVE = {"start_band": "the band between the two now", "direction": "Direction"}
    reaches = (
        Reach(rb.move, {"direction": "Direction"},
              {"start_band": "the band between the two now"}),
        Reach(rb.dash, {"direction": "Direction", "terrain": "Terrain",
                        "seriously_wounded": "Seriously or lethally wounded"},
              {"start_band": "the band between the two now",
               "skill_dice": "the mover's Athletics dice in the roster", "roll_bonus":
               "no bonus on the fight page: the movement chapter's dash helper takes one",
               "difficulty_dice": "drawn from the dice: as many as the difficulty has",
               "dice": MOVE_ROLLED, "nd_rule": AS_PRINTED, "critical_margin": AS_PRINTED}),
        Reach(rb.cross_impassable, {"direction": "Direction", "terrain": "Terrain",
                                    "terrain_gives_cover": "The terrain gives cover"},
              {"start_band": "the band between the two now",
               "skill_dice": "the mover's Athletics dice in the roster", "roll_bonus":
               "no bonus on the fight page: the movement chapter's dash helper takes one",
               "difficulty_dice": "drawn from the dice: as many as the difficulty has",
               "dice": MOVE_ROLLED, "nd_rule": AS_PRINTED, "critical_margin": AS_PRINTED}),
        Reach(rb.stealth, {}, {
            "stealth_dice": "the mover's Stealth dice in the roster",
            "perception_dice": "the other fighter's Perception dice in the roster",
            "cover": "the mover's cover in the fight", "movement": "what the mover did this "
            "turn, in the fight", "close_contact": "from the band between the two",
            "streak": "the mover's successes in a row, in the fight",
            "cover_dice": "drawn from the dice: as many as the cover gives",
            "stealth_bonus": "no bonus on the fight page: the Stealth helper takes one",
            "perception_bonus": "no bonus on the fight page: the Stealth helper takes one",
            "dice": MOVE_ROLLED}),
        Reach(Fight.apply_move, {"mover": "Who", "other": "Toward or away from"},
              {"self": THE_FIGHT, "result": "the move rolled above"}),
        Reach(Fight.apply_stealth, {"name": "Who"},
              {"self": THE_FIGHT, "result": "the Stealth check rolled above"}),
    )

    @classmethod
    def words(cls) -> dict[str, str]:
        """The fields' labels, and where the reader sets what the move reads from the fight
        and the roster."""
        return {**super().words(), **FILLED_WORDS}

    def __init__(self) -> None:
        self.who = _menu("Who")
        self.other = _menu("Toward or away from")
        self.kind = _menu("Action", self._KIND)
        self.kind.layout = shared_layout(width="27em")
        self.direction = _menu("Direction", (("closer", "closer"), ("away", "away")))
        self.terrain = _menu("Terrain")
        self.wounded = _check("Seriously or lethally wounded")
        self.covered = _check("The terrain gives cover")
        self.entry = DiceEntry("the mover's dice, then the rest", name="move")
        self.dice_order = w.HTML()
        self.error = ErrorLine()
        self.result = w.HTML()
        self.explanation = ExplanationView()
        super().__init__([section(
            "Moving and hiding",
            w.HBox([w.VBox([self.who, self.other, self.kind]),
                    w.VBox([self.direction, self.terrain,
                            w.HBox([self.wounded, self.covered])])],
                   layout=shared_layout(flex_flow="row wrap")),
            self.error, self.dice_order, self.entry, self.result, self.explanation)],
            "rulebook-rb-fight-move")
        self._quiet = False
        self.kind.observe(lambda _: self._kind_changed(), "value")
        self.who.observe(lambda _: self._who_changed(), "value")
        for field in (self.other, self.terrain):
            field.observe(lambda _: self.show_dice(), "value")
        self.entry.on_request(self.roll)
        self._kind_changed()

    def render(self) -> None:
        names = self.page.roster.names()
        self._quiet = True
        try:
            _names(self.who, names, None)
            _names(self.other, tuple(n for n in names if n != self.who.value) or names, None)
        finally:
            self._quiet = False
        self.show_dice()

    def _who_changed(self) -> None:
        """The other fighter is anyone but the one who acts."""
        if self._quiet or getattr(self, "page", None) is None:
            return
        self._quiet = True
        try:
            names = self.page.roster.names()
            _names(self.other, tuple(n for n in names if n != self.who.value) or names,
                   self.other.value)
        finally:
            self._quiet = False
        self.show_dice()

    def _kind_changed(self) -> None:
        kind = self.kind.value
        moving = kind in ("dash", "impassable")
        if moving:
            options = [(f"{t.name}: {t.difficulty}D" if t.difficulty else
                        f"{t.name}: no check", t.terrain) for t in rb.terrains(kind)]
            values = [v for _, v in options]
            keep = self.terrain.value if self.terrain.value in values else values[0]
            self._quiet = True
            self.terrain.options = options
            self.terrain.value = keep
            self._quiet = False
        set_shown(self.terrain, moving)
        set_shown(self.direction, kind != "stealth")
        set_shown(self.wounded, kind == "dash")
        set_shown(self.covered, kind == "impassable")
        self.show_dice()

    def _not_picked(self) -> str | None:
        """What the reader must pick before the action can be rolled, in their words; None
        once a mover and another fighter are picked."""
        who, other = self.who.value, self.other.value
        if who is None:
            return ("Pick who moves in Who (add fighters to the roster first if it is empty), "
                    "then the fighter they move toward or away from.")
        if other is None or other == who:
            return (f"Pick the fighter {who} moves toward or away from in Toward or away "
                    "from: the roster needs a second fighter.")
        return None

    @answers("dice_order")
    def show_dice(self) -> None:
        """Which dice to type for the chosen action; with nobody picked, what to pick and no
        dice asked for."""
        if self._quiet or getattr(self, "page", None) is None:
            return
        missing = self._not_picked()
        set_shown(self.entry, missing is None)
        if missing is not None:
            self.dice_order.value = f"<small>{html.escape(missing)}</small>"
            return
        row = self.page.roster.fighter(self.who.value)
        kind = self.kind.value
        if kind == "move":
            self.dice_order.value = ("<small>An ordinary move needs no dice: press Roll the move."
                                     "</small>")
        elif kind == "stealth":
            cover = rb.cover_dice(self.fight.of(self.who.value).cover)
            other = self.page.roster.fighter(self.other.value) if self.other.value else None
            counts = {"stealth_dice": row["stealth"], "cover_dice": cover,
                      "perception_dice": other["perception"] if other else 0}
            self.dice_order.value = dice_order_html(counts)
        else:
            need = rb.terrains(kind)
            wanted = next(t for t in need if t.terrain == self.terrain.value).difficulty
            self.dice_order.value = dice_order_html(
                {"skill_dice": row["athletics"] if wanted else 0, "difficulty_dice": wanted})

    def _result(self, dice: DiceSource):
        missing = self._not_picked()
        if missing is not None:
            raise RulesError(missing)
        who, other = self.who.value, self.other.value
        row = self.page.roster.fighter(who)
        fight = self.fight
        kind = self.kind.value
        if kind == "stealth":
            s = fight.of(who)
            near = fight.band_between(who, other) == "close_contact"
            checked = rb.stealth(row["stealth"],
                                 self.page.roster.fighter(other)["perception"], s.cover,
                                 movement=s.movement, close_contact=near, streak=s.streak,
                                 dice=dice)
            return checked, fight.apply_stealth(who, checked)
        start = fight.band_between(who, other)
        if start is None:
            raise RulesError(f"{who} and {other} are not placed yet: set the band between "
                             "them above")
        if kind == "move":
            moved = rb.move(start, self.direction.value)
            dice.finish()
        elif kind == "dash":
            moved = rb.dash(start, self.direction.value, self.terrain.value, row["athletics"],
                            seriously_wounded=self.wounded.value, dice=dice)
        else:
            moved = rb.cross_impassable(start, self.direction.value, self.terrain.value,
                                        row["athletics"],
                                        terrain_gives_cover=self.covered.value, dice=dice)
        return moved, fight.apply_move(who, other, moved)

    @answers(line="entry.error")
    def roll(self, request: RollRequest) -> None:
        """Roll the chosen action and write it into the fight."""
        result, move = self._result(request.dice)
        self.result.value = (f"<div class='rulebook-rb-fight-move-result' "
                             f"style='font-weight:600'>{html.escape(move.line)}</div>")
        self.explanation.show(result.trace)
        what = dict((v, k) for k, v in self._KIND)[self.kind.value]
        self.roll_log.add(f"{what.split(' (')[0].split(':')[0]}: {self.who.value}", request,
                          move.line, lambda again: self.roll(again))
        self.page.apply(move.line, state=move.fight)


class RangeBandsFight(FightPage):
    """The whole page: roster, where everyone stands, a shot, moving and hiding."""

    reaches = ()  # the page makes no engine call of its own: its panels do

    def __init__(self) -> None:
        self.positions, self.shot = Positions(), ShotPanel()
        self.move = MovePanel()
        super().__init__(rb.ROSTER, first_fight(), save=lambda f: f.to_json(),
                         load=Fight.from_json,
                         panels=[self.positions, self.shot, self.move],
                         title="Running a range-band fight", starter=starter(),
                         rename=lambda fight, old, new: fight.rename(old, new))
        for panel in (self.positions, self.shot, self.move):
            panel.attach(self)


def fight_page() -> RangeBandsFight:
    """The one-line notebook call: ``from widgets.range_bands_fight import fight_page;
    fight_page()``."""
    return RangeBandsFight()
