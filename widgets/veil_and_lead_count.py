"""The Count tracker: the GM's view of a Veil & Lead fight on the 0–19 Cylinder.

Every button makes one move on :class:`rulescore.systems.veil_and_lead.encounter.Encounter`
(join, next turn, act, wait, hold, release, stun) and pushes the result on an
:class:`EncounterHistory`, so undo and redo are exact. The history is autosaved in the reader's
browser after every move and can be downloaded or uploaded as JSON.
"""

from __future__ import annotations

import html
import math

import ipywidgets as w

from rulescore.errors import RulesError, parse_int_text
from rulescore.roster import Roster
from rulescore.systems import veil_and_lead as vl
from rulescore.systems.veil_and_lead.encounter import (TRACKED, EncounterHistory,
                                                       remove_fighter)

from .common import (ROLLED, DiceEntry, ErrorLine, ExplanationView, Reach, RollRequest, Tool,
                     answers, button, labelled_text, section)
from .lean import shared_layout
from .roster import RosterEditor
from .storage import KeptState
from .theme import ACCENT, ERROR, FAINT

STORE_KEY = "rulebook/veil_and_lead/count"


def _describe_fight(text: str) -> str | None:
    """The restore offer for a fight the browser kept; None when it holds no move yet."""
    saved = EncounterHistory.from_json(text)
    if len(saved.states) < 2:
        return None
    enc = saved.encounter
    return (f"<b>A saved encounter was found in this browser</b>: {len(enc.fighters)} "
            f"fighters, the Hammer at Tick {enc.hammer}, {len(saved.log) - 1} moves.")


STYLE = {"description_width": "9em"}
RED = ERROR  # the hammer's arc: the ticks it has to run
HALO = "stroke='#fff' stroke-width='4' paint-order='stroke'"  # the hand never hides the words


def cylinder_svg(enc: vl.Encounter) -> str:
    """The Cylinder as a ring of 20 ticks, red tension lines at 0 and 10, the Hammer and the
    tokens (names stacked at their tick)."""
    size, cx, cy, r = 420, 210, 210, 150
    red = vl.red_lines()
    parts = [f"<svg class='rulebook-vl-cylinder' role='img' width='{size}' height='{size}' "
             f"viewBox='0 0 {size} {size}' xmlns='http://www.w3.org/2000/svg'>",
             f"<title>The Cylinder: the Hammer at Tick {enc.hammer}; red Tension Lines at "
             f"Ticks {' and '.join(map(str, red))}</title>",
             f"<circle cx='{cx}' cy='{cy}' r='{r}' fill='none' stroke='#888' stroke-width='2'/>"]
    at: dict[int, list[str]] = {}
    for f in enc.fighters:
        if f.tick is not None:
            at.setdefault(f.tick, []).append(f.name)
    for tick in range(20):
        angle = 2 * math.pi * tick / 20 - math.pi / 2
        x, y = cx + r * math.cos(angle), cy + r * math.sin(angle)
        if tick in red:
            x1, y1 = cx + (r - 18) * math.cos(angle), cy + (r - 18) * math.sin(angle)
            x2, y2 = cx + (r + 18) * math.cos(angle), cy + (r + 18) * math.sin(angle)
            parts.append(f"<line x1='{x1:.1f}' y1='{y1:.1f}' x2='{x2:.1f}' y2='{y2:.1f}' "
                         f"stroke='{RED}' stroke-width='4'/>")
        fill = ACCENT if tick == enc.hammer else ("#fff" if tick not in at else "#e8f0e8")
        colour = "#fff" if tick == enc.hammer else "#222"
        parts.append(f"<circle cx='{x:.1f}' cy='{y:.1f}' r='13' fill='{fill}' stroke='{FAINT}'/>"
                     f"<text x='{x:.1f}' y='{y + 4:.1f}' font-size='11' text-anchor='middle' "
                     f"fill='{colour}'>{tick}</text>")
        names = at.get(tick, [])
        lx, ly = cx + (r + 36) * math.cos(angle), cy + (r + 36) * math.sin(angle)
        for i, name in enumerate(names):
            parts.append(f"<text x='{lx:.1f}' y='{ly + 4 + 12 * i - 6 * (len(names) - 1):.1f}' "
                         f"font-size='11' font-weight='700' text-anchor='middle'>"
                         f"{html.escape(name)}</text>")
    hx, hy = (cx + (r - 30) * math.cos(2 * math.pi * enc.hammer / 20 - math.pi / 2),
              cy + (r - 30) * math.sin(2 * math.pi * enc.hammer / 20 - math.pi / 2))
    parts.append(f"<line x1='{cx}' y1='{cy}' x2='{hx:.1f}' y2='{hy:.1f}' stroke='{ACCENT}' "
                 f"stroke-width='5' stroke-linecap='round'/>"
                 f"<text x='{cx}' y='{cy + 30}' font-size='12' text-anchor='middle' {HALO}>"
                 f"Hammer: Tick {enc.hammer}</text>"
                 f"<text x='{cx}' y='{cy + 46}' font-size='11' text-anchor='middle' "
                 f"fill='{FAINT}' {HALO}>{enc.elapsed} ticks run · Tension dice "
                 f"{enc.tension_dice}</text>")
    parts.append("</svg>")
    return "".join(parts)


class CountTracker(Tool):
    """Run a fight on the Count: add fighters from their initiative, turn the Hammer, act with
    an action's tempo, wait, hold and release, stun; undo and redo; kept in your browser.
    Given the chapter's roster editor, a fighter picked from the roster fills the fields."""

    reaches = (
        Reach(vl.tempo, {"action": "Action", "weapon": "Weapon", "chosen": "Chosen tempo",
                         "attack_on_arrival": "Rush / Charge ends in a melee attack (+1 tempo)"}),
        Reach(vl.exposes, {"action": "Action"}, {
            "tempo_used": "the tempo of the action and weapon chosen",
            "exposure": "the rule as printed: Exposed after tempo 3 or less",
            "light_weapon": "the Weapon chosen (a light melee weapon's Strike exposes)"}),
        Reach(vl.move_token, {}, {"tick": "the Hammer's tick",
                                  "tempo": "the tempo of the action and weapon chosen"}),
        Reach(vl.uses_weapon, {"action": "Action",
                               "attack_on_arrival": "Rush / Charge ends in a melee attack "
                                                    "(+1 tempo)"}),
        Reach(vl.starting_tick, {"margin": "Initiative margin"}),
        Reach(vl.duel, {"awareness_a": "Awareness (one)", "awareness_b": "Awareness (other)",
                        "name_a": "Duel: one", "name_b": "Duel: other"}, {
            "dice_a": ROLLED, "dice_b": ROLLED, "dice": ROLLED,
            "quick_a": "the QUICK the fighter joined with", "quick_b":
                "the QUICK the fighter joined with",
            "bonus_a": "the tracker keeps no roll modifiers; the duel roller takes them",
            "bonus_b": "the tracker keeps no roll modifiers; the duel roller takes them"}),
    )

    def __init__(self, roster: RosterEditor | None = None) -> None:
        self.history = EncounterHistory()
        self.roster = roster
        self.from_roster = w.Dropdown(options=[], description="From the roster", style=STYLE,
                                      layout=shared_layout(width="20em"))
        self.name = labelled_text("Name", "", "e.g. Ada", width="18em", label_width="5em")
        self.pc = w.Checkbox(value=True, description="Player character", indent=False,
                             layout=shared_layout(width="12em", margin="0 0 0 1em"))
        self.quick = w.BoundedIntText(value=3, min=1, max=5, description="QUICK", style=STYLE,
                                      layout=shared_layout(width="15em"))
        self.margin = labelled_text("Initiative margin", "", "blank = failed roll",
                                    width="22em", label_width="9em")
        self.add_button = button("Add to the Count", primary=True)
        self.who = w.Dropdown(options=[], description="Fighter", style=STYLE,
                              layout=shared_layout(width="20em"))
        self.action = w.Dropdown(options=list(vl.actions()), value="Steady Shot",
                                 description="Action", style=STYLE,
                                 layout=shared_layout(width="22em"))
        self.weapon = w.Dropdown(options=list(vl.weapons()), value="Peacemaker",
                                 description="Weapon", style=STYLE,
                                 layout=shared_layout(width="20em"))
        self.chosen = labelled_text("Chosen tempo", "", "only for Channel and the like",
                                    width="22em", label_width="9em")
        self.exposed_choice = w.Checkbox(value=False, description="Exposed afterwards (when "
                                         "the table decides)", indent=False,
                                         layout=shared_layout(width="30em", margin="0 0 0 1em"))
        self.arrival = w.Checkbox(value=False, description="Rush / Charge ends in a melee "
                                  "attack (+1 tempo)", indent=False,
                                  layout=shared_layout(width="30em", margin="0 0 0 1em"))
        self.trigger = labelled_text("Hold trigger", "", "e.g. someone steps into the door",
                                     width="30em", label_width="9em")
        self.horde = w.BoundedIntText(value=0, min=0, max=10, description="Horde size",
                                      style=STYLE, layout=shared_layout(width="15em"))
        self.condition = w.Dropdown(options=list(TRACKED), value="Suppressed",
                                    description="Condition", style=STYLE,
                                    layout=shared_layout(width="20em"))
        self.mark_button = button("Mark condition")
        self.clear_button = button("Clear condition", "Cleared by 1 Mettle, an Escape, the "
                                   "enemy gone or a change of circumstances")
        self.damage_button = button("Lose Aim (damage or new target)")
        self.casualties = w.BoundedIntText(value=1, min=0, max=10, description="Casualties",
                                           style=STYLE, layout=shared_layout(width="15em"))
        self.horde_button = button("Hit the Horde")
        self.duel_a = w.Dropdown(options=[], description="Duel: one", style=STYLE,
                                 layout=shared_layout(width="20em"))
        self.duel_b = w.Dropdown(options=[], description="Duel: other", style=STYLE,
                                 layout=shared_layout(width="20em"))
        wide = {"description_width": "11em"}
        self.aware_a = w.BoundedIntText(value=1, min=0, max=5, description="Awareness (one)",
                                        style=wide, layout=shared_layout(width="17em"))
        self.aware_b = w.BoundedIntText(value=1, min=0, max=5, description="Awareness (other)",
                                        style=wide, layout=shared_layout(width="17em"))
        self.duel_entry = DiceEntry("one's d8s | other's d8s, e.g. 7, 5, 2 | 8, 3", groups=2)
        self.end_button = button("End the scene", "Unused Holds are lost")
        self.tension = w.HTML()
        self.next_button = button("Next turn (turn the Hammer)", primary=True)
        self.act_button = button("Act")
        self.wait_button = button("Wait +1")
        self.hold_button = button("Hold")
        self.release_button = button("Release hold")
        self.stun_button = button("Stun")
        self.stunned_button = button("Stunned turn")
        self.remove_button = button("Remove")
        self.undo_button = button("Undo")
        self.redo_button = button("Redo")
        self.error = ErrorLine()
        self.picture = w.HTML()
        self.board = w.HTML()
        self.explanation = ExplanationView()
        self.log_view = w.HTML()
        self.kept = KeptState(STORE_KEY, "encounter.json", "encounter", self.load_json,
                              _describe_fight)
        super().__init__([
            self.kept,
            section("Add a fighter", *([self.from_roster] if roster is not None else []),
                    w.HBox([self.name, self.pc, self.quick]),
                    w.HBox([self.margin, self.horde, self.add_button])),
            self.error, self.tension,
            w.HBox([self.picture, w.VBox([self.board, self.explanation])]),
            section("Turn", w.HBox([self.next_button, self.undo_button, self.redo_button]),
                    w.HBox([self.who, self.action, self.weapon]),
                    w.HBox([self.chosen, self.exposed_choice]), self.arrival,
                    w.HBox([self.act_button, self.wait_button, self.stunned_button,
                            self.remove_button, self.stun_button]),
                    w.HBox([self.trigger, self.hold_button, self.release_button])),
            section("Conditions, Aim and Hordes",
                    w.HBox([self.condition, self.mark_button, self.clear_button]),
                    w.HBox([self.damage_button, self.casualties, self.horde_button])),
            section("Duel and the scene's end",
                    w.HTML("<small>Two fighters holding for each other: both roll QUICK + "
                           "Awareness, the higher acts first; both take the action chosen "
                           "above.</small>"),
                    w.HBox([self.duel_a, self.aware_a]), w.HBox([self.duel_b, self.aware_b]),
                    self.duel_entry, w.HBox([self.end_button])),
            section("Log", self.log_view),
            section("Keep this fight", w.HTML(
                "<small>The fight is kept in your own browser after every move (a reload "
                "offers to restore it); nothing is stored on the server. Download it to keep "
                "it elsewhere, upload it to carry on, undo and redo included.</small>"),
                self.kept.transfer),
        ], "rulebook-vl-count")
        self.add_button.on_click(lambda _: self._move(self._join))
        if roster is not None:
            roster.on_change(self._roster_names)
            self.from_roster.observe(lambda _: self._fill_from_roster(), "value")
            self._roster_names(roster.roster)
        self.next_button.on_click(lambda _: self._move(self._next))
        self.act_button.on_click(lambda _: self._move(self._act))
        self.wait_button.on_click(lambda _: self._move(self._wait))
        self.hold_button.on_click(lambda _: self._move(self._hold))
        self.release_button.on_click(lambda _: self._move(self._release))
        self.stun_button.on_click(lambda _: self._move(self._stun))
        self.stunned_button.on_click(lambda _: self._move(self._stunned))
        self.remove_button.on_click(lambda _: self._move(self._remove))
        self.mark_button.on_click(lambda _: self._move(lambda: self._condition(True)))
        self.clear_button.on_click(lambda _: self._move(lambda: self._condition(False)))
        self.damage_button.on_click(lambda _: self._move(self._lose_aim))
        self.horde_button.on_click(lambda _: self._move(self._hit_horde))
        self.duel_entry.on_request(lambda request: self._move(lambda: self._duel(request)))
        self.end_button.on_click(lambda _: self._move(self._end_scene))
        self.undo_button.on_click(lambda _: self._step(self.history.undo))
        self.redo_button.on_click(lambda _: self._step(self.history.redo))
        self._render()

    # --- the roster ---------------------------------------------------------------------------

    def _roster_names(self, roster: Roster) -> None:
        """The menu of *roster*'s fighters not yet on the Count."""
        present = {f.name for f in self.encounter.fighters}
        names = [n for n in roster.names() if n not in present]
        self.from_roster.options = ["", *names]
        self.from_roster.value = ""

    def _fill_from_roster(self) -> None:
        """A roster fighter picked: their name, PC, QUICK and Horde size fill the fields (the
        initiative margin is still the reader's roll)."""
        if not self.from_roster.value:
            return
        row = self.roster.roster.fighter(self.from_roster.value)
        self.name.value, self.pc.value = row.name, row.pc
        self.quick.value, self.horde.value = row["quick"], row["horde"]

    # --- moves --------------------------------------------------------------------------------

    @property
    def encounter(self) -> vl.Encounter:
        return self.history.encounter

    @answers()
    def _move(self, make) -> None:
        """Make one move; on success record it, redraw and keep it in the browser."""
        enc, line, trace = make()
        self.history = self.history.push(enc, line)
        self.explanation.show(trace) if trace else self.explanation.clear()
        self._changed()

    @answers()
    def _step(self, go) -> None:
        self.history = go()
        self.explanation.clear()
        self._changed()

    def _changed(self) -> None:
        self._render()
        self.kept.keep(self.history.to_json())
        if self.roster is not None:
            self._roster_names(self.roster.roster)

    def _join(self):
        name = self.name.value.strip()
        text = self.margin.value.strip()
        margin = None if text == "" else parse_int_text("Initiative margin", text)
        enc = self.encounter.join(name, pc=self.pc.value, quick=self.quick.value, margin=margin,
                                  horde=self.horde.value)
        tick, state = vl.starting_tick(margin)
        self.name.value = ""
        what = f" (a Horde of {self.horde.value})" if self.horde.value else ""
        self.horde.value = 0
        return enc, f"{name}{what} joins at Tick {tick} ({state})", ()

    def _condition(self, on: bool):
        name = self._who()
        enc = self.encounter.set_condition(name, self.condition.value, on)
        verb = "is now" if on else "is no longer"
        return enc, f"{name} {verb} {self.condition.value}", ()

    def _lose_aim(self):
        name = self._who()
        had = self.encounter.fighter(name).aim
        return self.encounter.lose_aim(name), (f"{name} loses the banked Aim" if had else
                                               f"{name} had no Aim banked"), ()

    def _hit_horde(self):
        name = self._who()
        enc, line = self.encounter.hit_horde(name, self.casualties.value)
        return enc, line, ()

    def _duel(self, request: RollRequest):
        first, second = self.duel_a.value, self.duel_b.value
        if not first or not second:
            raise RulesError("Duel: choose two fighters who are holding")
        a, b = self.encounter.fighter(first), self.encounter.fighter(second)
        sizes = tuple(int(vl.INITIATIVE_POOL.evaluate(QUICK=f.quick, Awareness=aw))
                      for f, aw in ((a, self.aware_a.value), (b, self.aware_b.value)))
        # Typed lists go to the duel as the reader split them: it names a pool of the wrong size.
        dice_a, dice_b = request.groups or vl.roll_pools(request.dice, sizes)
        result = vl.duel(dice_a, dice_b, quick_a=a.quick, awareness_a=self.aware_a.value,
                         quick_b=b.quick, awareness_b=self.aware_b.value, name_a=first,
                         name_b=second)
        order = (first, second) if result.value != 2 else (second, first)
        tempo = self._tempo()
        exposed = self._exposed(tempo)
        enc = self.encounter.duel(*order, tempo, tempo, exposed_first=exposed,
                                  exposed_second=exposed)
        how = request.describe()
        who = ("both at once" if result.value == 0 else f"{order[0]} first, then {order[1]}")
        return enc, (f"Duel {first} {result.sums[0]} against {second} {result.sums[1]} "
                     f"({how}): {who}; {self.action.value}, tempo {tempo}"), result.trace

    def _end_scene(self):
        enc = self.encounter.end_scene()
        lost = [f.name for f in self.encounter.fighters if f.holding is not None]
        return enc, ("The scene ends" + (f": {', '.join(lost)} lose their Hold" if lost
                                         else "")), ()

    def _next(self):
        before = self.encounter.tension_dice
        enc, turn = self.encounter.next_turn()
        first = ", ".join(turn.order[0])
        self._pick = turn.order[0][0]
        more = enc.tension_dice - before
        note = (f" — add {more} die to the Tension Pool ({enc.elapsed} ticks of violence)"
                if more else "")
        return enc, (f"The Hammer turns {turn.ticks} to Tick {turn.value}: {first} acts"
                     f"{note}"), turn.trace

    def _tempo(self) -> int:
        text = self.chosen.value.strip()
        chosen = None if text == "" else parse_int_text("Chosen tempo", text)
        return vl.tempo(self.action.value, self.weapon.value, chosen=chosen,
                        attack_on_arrival=self.arrival.value)

    def _exposed(self, tempo: int) -> bool:
        """Exposure by §IV; for actions whose exposure the table decides, the checkbox."""
        if vl.action(self.action.value).exposure == "varies":
            return self.exposed_choice.value
        return vl.exposes(self.action.value, tempo,
                          light_weapon=vl.weapon(self.weapon.value).light)

    def _act(self):
        name = self._who()
        tempo = self._tempo()
        exposed = self._exposed(tempo)
        moved = vl.move_token(self.encounter.hammer, tempo)
        fighter = self.encounter.fighter(name)
        clears = (self.condition.value if self.action.value == "Recover"
                  and self.condition.value in fighter.conditions else None)
        enc = self.encounter.act(name, tempo, exposed=exposed, action=self.action.value,
                                 clears=clears)
        note = " — Exposed until their next turn" if exposed else ""
        gone = set(fighter.conditions) - set(enc.fighter(name).conditions)
        if gone:
            note += f" — no longer {', '.join(sorted(gone))}"
        if tempo == 0:
            return enc, (f"{name}: {self.action.value}, tempo 0: it takes no time, the token "
                         f"stays at Tick {moved.value} and the turn goes on{note}"), moved.trace
        armed = vl.uses_weapon(self.action.value, attack_on_arrival=self.arrival.value)
        done = f"{self.action.value} with {self.weapon.value}" if armed else self.action.value
        return enc, f"{name}: {done}, tempo {tempo} → Tick {moved.value}{note}", moved.trace

    def _wait(self):
        name = self._who()
        enc = self.encounter.wait(name)
        return enc, f"{name} waits: Tick {enc.fighter(name).tick}", ()

    def _hold(self):
        name = self._who()
        enc = self.encounter.hold(name, self.trigger.value)
        return enc, f"{name} holds until: {self.trigger.value.strip()}", ()

    def _release(self):
        name = self._who()
        tempo = self._tempo()
        exposed = self._exposed(tempo)
        enc = self.encounter.release(name, tempo, exposed=exposed)
        return enc, (f"{name}'s hold goes off: {self.action.value}, tempo {tempo} → Tick "
                     f"{enc.fighter(name).tick} (before the triggering action)"), ()

    def _stun(self):
        name = self._who()
        return self.encounter.stun(name), f"{name} is Stunned", ()

    def _stunned(self):
        name = self._who()
        enc = self.encounter.stunned(name)
        return enc, f"{name} is Stunned: no action, token to Tick {enc.fighter(name).tick}", ()

    def _remove(self):
        name = self._who()
        return remove_fighter(self.encounter, name), f"{name} leaves the fight", ()

    def _who(self) -> str:
        if not self.who.value:
            raise RulesError("Fighter is empty: add a fighter to the Count first")
        return self.who.value

    # --- showing ------------------------------------------------------------------------------

    def _render(self) -> None:
        enc = self.encounter
        self.picture.value = cylinder_svg(enc)
        rows = []
        for f in sorted(enc.fighters, key=lambda f: (99 if f.tick is None else
                                                     (f.tick - enc.hammer) % 20)):
            states = [s for s, on in (("PC" if f.pc else "NPC", True),
                                      (f"Horde of {f.horde}", f.horde),
                                      ("Surprised", f.surprised), ("Exposed", f.exposed),
                                      ("Stunned", f.stunned),
                                      (f"Aim +{vl.aim_bonus(f.aim)}", f.aim)) if on]
            states += list(f.conditions)
            where = f"holding: {html.escape(f.holding)}" if f.tick is None else f"Tick {f.tick}"
            rows.append(f"<tr><td>{html.escape(f.name)}</td><td>{where}</td>"
                        f"<td>{html.escape(', '.join(states))}</td></tr>")
        self.board.value = ("<table class='rulebook-vl-board'><thead><tr><th>Fighter</th>"
                            "<th>Where</th><th>State</th></tr></thead><tbody>"
                            + "".join(rows) + "</tbody></table>") if rows else \
            "<i>No fighters yet: add them with their initiative margins.</i>"
        names = [f.name for f in enc.fighters]
        current = getattr(self, "_pick", None) or self.who.value
        self._pick = None
        self.who.options = names
        here = [f.name for f in enc.fighters if f.tick == enc.hammer]
        self.who.value = current if current in names else (here[0] if here else
                                                           (names[0] if names else None))
        self.log_view.value = ("<ol class='rulebook-vl-log'>"
                          + "".join(f"<li>{html.escape(x)}</li>" for x in self.history.log)
                          + "</ol>")
        holding = [f.name for f in enc.fighters if f.holding is not None]
        for box in (self.duel_a, self.duel_b):
            box.options = holding
        if len(holding) >= 2:
            self.duel_a.value, self.duel_b.value = holding[0], holding[1]
        dice = enc.tension_dice if enc.fighters else 0
        self.tension.value = (
            f"<p class='rulebook-vl-tension'><b>Tension Pool:</b> this fight has added "
            f"{dice} {'die' if dice == 1 else 'dice'} (1 when it began, 1 more every 10 ticks)."
            "</p>" if enc.fighters else "")
        self.undo_button.disabled = not self.history.can_undo
        self.redo_button.disabled = not self.history.can_redo

    # --- keeping ------------------------------------------------------------------------------

    def load_json(self, text: str) -> None:
        """Carry on from a saved file; a bad file raises RulesError and changes nothing."""
        self.history = EncounterHistory.from_json(text)
        self.error.clear()
        self.explanation.clear()
        self._changed()
