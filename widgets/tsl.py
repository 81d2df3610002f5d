"""The TSL chapter's tools: an attack resolver, a turn-order board and a weapon builder.

Each observer makes one ``rulescore.systems.tsl`` call and renders what it returns.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

import ipywidgets as w
from IPython.display import HTML

from rulescore.errors import RulesError, parse_int_text
from rulescore.systems import tsl
from rulescore.systems.tsl.rolls import DICE
from rulescore.systems.tsl.turns import encounter_from_json
from rulescore.text import percent

from .book import explain as book_explain
from .book import worked_html
from .common import (
    ERROR,
    LABEL_WIDTH,
    ROLLED,
    SUCCESS,
    DiceEntry,
    ErrorLine,
    ExplanationView,
    Reach,
    RollRequest,
    Tool,
    answers,
    button,
    chance_html,
    fit_label,
    labelled_text,
    odds_line,
    section,
)
from .lean import set_shown, shared_layout
from .roster import FighterPick
from .storage import KeptState
from .theme import LABEL_WIDE, RULE_LINE, SENTENCE_WIDTH, TEXT_WIDTH, TOTAL_SIZE

NO_WEAPON = "No weapon"
NO_TAG = "(none)"
BAND_COLOURS = {"catastrophic": "#7f0000", "failure": ERROR, "mixed": "#b26a00",
                "success": SUCCESS, "crit": "#1b5e20"}
STYLE = {"description_width": LABEL_WIDTH}
TABLE_STYLE = ("<style>.rulebook-tsl-table{border-collapse:collapse;margin:.3em 0}"
               ".rulebook-tsl-table td,.rulebook-tsl-table th{padding:3px 12px;text-align:left;"
               f"border-bottom:1px solid {RULE_LINE}}}</style>")
# The odds sit beside the attack's inputs: a row a line, a chance and its exact fraction never
# broken over two, so the inputs, the odds and the result fit one screen at desktop width.
ODDS_STYLE = ("<style>.rulebook-tsl-odds{line-height:1.35}"
              ".rulebook-tsl-odds td,.rulebook-tsl-odds th{padding:2px 8px}"
              ".rulebook-tsl-odds td:nth-child(2){white-space:nowrap}"
              ".rulebook-tsl-odds-notes{font-size:small;line-height:1.4}</style>")
STORE_KEY = "rulebook/tsl/turn-board"


@dataclass(frozen=True)
class AttackExample:
    """A worked example the attack resolver is set up as in one pick: the inputs it sets (the
    resolver's field names; every other input goes back to how the tool was built, the rulings
    stay the table's) and the dice it rolls, typed into the dice field and used at once."""
    label: str
    fields: Mapping[str, Any]
    dice: str


ATTACK_EXAMPLES = {
    # §11 Attacking: a Proficient roll against T11, the chapter's first worked example
    "proficient_t11": AttackExample("Proficient against T11 (6 4 3 3 1)",
                                    {"tier": "Proficient", "target": "11"}, "6, 4, 3, 3, 1"),
    # §11 A Worked Example: Vela's silenced shot at a thug, a Grunt who Breaks at once
    "velas_shot": AttackExample(
        "Vela's shot at the thug (3 6 1 4 3)",
        {"tier": "Proficient", "target": "11", "weapon_zone": "Sidearm", "tag1": "Silent",
         "distance": "Near", "attack_type": "Ranged weapon", "target_kind": "grunt"},
        "3, 6, 1, 4, 3"),
    # §11 A Worked Example: Mar's taunt, Voice against the thug's Mind, an opposed roll
    "mars_taunt": AttackExample(
        "Mar's taunt: opposed, Trained against Untrained",
        {"kind": "opposed", "tier": "Trained", "defender_tier": "Untrained",
         "attack_type": "Social pressure"}, "4, 2, 6, 1, 3, 1, 5, 2, 3, 1"),
}
"""The primer's worked examples the attack resolver can be set up as (§11)."""
EXAMPLE_PROMPT = "pick one to set the tool up"


def _board_from_json(text: str) -> tsl.Encounter:
    """A turn board saved as JSON text; RulesError naming the field for text that is not one."""
    return encounter_from_json(text)


def _describe_board(text: str) -> str:
    """The restore offer for a board the browser kept (RulesError for a damaged one)."""
    enc = _board_from_json(text)
    return (f"<b>A saved board was found in this browser</b>: round {enc.round}, "
            f"{html.escape(enc.acting)} acting, {len(enc.order)} combatants.")
OUT_OF_ZONE = [("Flat −1", "flat"), ("−1 a zone", "per_zone")]
SHIFTS = [("−2", -2), ("−1", -1), ("0", 0), ("+1", 1), ("+2", 2)]
TARGET_KINDS = [(f"a character (pools of {tsl.pool_size('character')})", "character"),
                (f"a Grunt (pools of {tsl.pool_size('grunt')})", "grunt")]
MARKED_LABEL = "Stress already on its {pool} pool"


def _dropdown(label: str, options: Any, value: Any) -> w.Dropdown:
    return w.Dropdown(options=options, value=value, description=label, style=STYLE,
                      layout=shared_layout(width=TEXT_WIDTH))


def _check(label: str, value: bool = False) -> w.Checkbox:
    return w.Checkbox(value=value, description=label, indent=False,
                      layout=shared_layout(width="auto"))


def _band_label(band: str) -> str:
    return tsl.band_name(band) if band in tsl.BANDS else band


def band_odds_html(result: tsl.AttackOdds) -> str:
    """The odds of an attack, short enough to sit beside its inputs: the chance to land a
    hit, each final band with its chance and Stress (and as rolled, where tags or armour move
    it), and the chances that the target Breaks, the weapon breaks or the armour is spent;
    each chance led by its percentage (the exact fraction beside it, or behind a toggle)."""
    hit = sum((result.bands[b] for b in tsl.HIT_BANDS), Fraction(0))
    moved = result.raw != result.bands
    rows = "".join(
        f"<tr><td style='color:{BAND_COLOURS[b]};font-weight:600'>"
        f"{html.escape(tsl.band_name(b))}</td><td>{chance_html(result.bands[b])}</td>"
        + (f"<td>{percent(result.raw[b])}</td>" if moved else "")
        + f"<td>{tsl.stress(b)}</td></tr>"
        for b in reversed(tsl.BANDS) if result.bands[b] or result.raw[b])
    extras = [f"{what} {chance_html(p)}" for what, p in (
        ("the target Breaks", result.target_breaks), ("the weapon breaks", result.weapon_breaks),
        ("the armour is spent", result.armour_spent)) if p]
    notes = "; ".join(html.escape(n) for n in result.notes)
    return (odds_line("rulebook-headline", "<b>Chance to land at least a Mixed Success: "
                      f"{chance_html(hit)}</b> (keeping {result.keep} of 5d6"
                      f"{f', Effective Tier {result.shift:+d}' if result.shift else ''})")
            + TABLE_STYLE + ODDS_STYLE
            + "<table class='rulebook-tsl-table rulebook-tsl-odds'><thead><tr>"
            "<th>Band</th><th>Chance</th>" + ("<th>As rolled</th>" if moved else "")
            + f"<th>Stress</th></tr></thead><tbody>{rows}</tbody></table>"
            + (odds_line("rulebook-tsl-extra-odds rulebook-tsl-odds-notes",
                         "Chance that " + "; ".join(extras) + ".") if extras else "")
            + f"<div class='rulebook-tsl-odds-notes'>{notes}.</div>")


def pool_words(a: tsl.Attack) -> str:
    """Where an attack's Stress lands (" to the Body pool"); nothing when it deals none."""
    return f" to the {a.pool} pool" if a.stress else ""


def attack_said(a: tsl.Attack) -> str:
    """An attack's result in one phrase: "Success: 2 Stress to the Body pool"."""
    return f"{tsl.band_name(a.band)}: {a.stress} Stress{pool_words(a)}"


def against_words(a: tsl.Attack) -> str:
    """What an attack's total was measured against: "T11" or "the defender's 8"."""
    return f"T{a.against}" if a.kind == "static" else f"the defender's {a.against}"


def attack_extras(a: tsl.Attack) -> list[str]:
    """What else an attack did, as the result line lists it: the band as rolled when tags or
    armour moved it, spent armour, a broken weapon, the ammunition left, a snared target."""
    extra = []
    if a.raw_band != a.band:
        extra.append(f"rolled {tsl.band_name(a.raw_band)}")
    if a.armour_spent:
        extra.append("the armour is spent")
    if a.weapon_breaks:
        extra.append("the weapon breaks")
    if a.uses_left is not None:
        extra.append(f"{a.uses_left} uses left")
    if a.snared is not None and a.snared.outcome != "no hit":
        extra.append(f"the target is pulled to {a.snared.distance}" if not a.snared.pinned
                     else f"the target is pinned at {a.snared.distance}")
    return extra


class AttackResolver(Tool):
    """Resolve an attack against a T-number or an opposed roll, with its odds before rolling."""

    holds_blank_lines = True

    _ATTACK = {"tier": "Attacker tier", "target": "T-number", "defender_tier": "Defender tier",
               "distance": "Distance to target", "shift": "Other tier shifts",
               "impact": "An Impact tag's condition holds",
               "armour": "Target's armour is built for this blow", "attack_type": "Attack type",
               "bands": "Band ladder", "tier_limits": "Beyond the tiers",
               "order": "Armour and Impact", "defender_shift": "Defender's tier shifts",
               "out_of_zone": "Out-of-zone penalty", "bump_misses": "An Impact tag on a miss",
               "uses": "Ammunition uses left"}
    _SET = {"weapon": "built from Weapon zone, First tag, Second tag and Improvised",
            "target_pools": "built from Target is, the Stress already marked and Pool size",
}
    reaches = (
        Reach(tsl.attack_odds, {**_ATTACK, "snaring": "Snaring on a hit"}, _SET),
        Reach(tsl.attack, {**_ATTACK, "snaring": "Snaring on a hit"},
              {**_SET, "dice": ROLLED,
               "defender_dice": "drawn from the dice after the attacker's five"}),
        Reach(tsl.new_pools, {"kind": "Target is", "size": "Pool size",
                              **{p.lower(): MARKED_LABEL.format(pool=p)
                                 for p in ("Body", "Mind", "Spirit")}}),
        Reach(tsl.make_weapon, {"zone": "Weapon zone", "tags": "First tag and Second tag",
                                "improvised": "Improvised weapon (no tags)"},
              {"name": "an attack needs no name (the weapon builder names weapons)",
               "rarity": "rarity changes no roll"}),
        Reach(tsl.stress_pool, {"attack": "Attack type"}),
    )

    def __init__(self, kind: str = "static", tier: str = "Proficient", target: str = "11",
                 defender_tier: str = "Untrained", weapon_zone: str = NO_WEAPON,
                 distance: str = "Engaged", attack_type: str = "Melee weapon",
                 improvised: bool = False, armour: bool = False,
                 examples: tuple[str, ...] = ()) -> None:
        self.kind = _dropdown("Kind of roll", [("Static T-number", "static"),
                                               ("Opposed roll", "opposed")], kind)
        self.tier = _dropdown("Attacker tier", tsl.TIERS, tier)
        self.shift = _dropdown("Other tier shifts", SHIFTS, 0)
        self.target = labelled_text("T-number", target, "e.g. 11")
        self.target.continuous_update = False
        self.defender_tier = _dropdown("Defender tier", tsl.TIERS, defender_tier)
        self.defender_shift = _dropdown("Defender's tier shifts", SHIFTS, 0)
        self.attack_type = _dropdown("Attack type", tsl.attack_types(), attack_type)
        self.weapon_zone = _dropdown("Weapon zone", (NO_WEAPON,) + tsl.WEAPON_ZONES, weapon_zone)
        self.tag1 = _dropdown("First tag", (NO_TAG,) + tsl.tag_names(), "Company-Issued")
        self.tag2 = _dropdown("Second tag", (NO_TAG,) + tsl.tag_names(), NO_TAG)
        self.improvised = _check("Improvised weapon (no tags)", improvised)
        self.distance = _dropdown("Distance to target", tsl.ZONES, distance)
        self.impact = _check("An Impact tag's condition holds")
        self.armour = _check("Target's armour is built for this blow", armour)
        self.snaring = _dropdown("Snaring on a hit", [("pull them a zone nearer", "pull"),
                                                      ("pin them where they are", "pin")], "pull")
        self.target_kind = _dropdown("Target is", TARGET_KINDS, "character")
        self.marked = labelled_text(MARKED_LABEL.format(pool="Body"), "0", "e.g. 0")
        self.marked.continuous_update = False
        self.pool_size = labelled_text("Pool size", "", "blank: by kind (4, a Grunt 2)")
        self.pool_size.continuous_update = False
        self.uses = labelled_text("Ammunition uses left", "", "blank: not tracked")
        self.uses.continuous_update = False
        self.bands = _dropdown("Band ladder", [(n.replace("_", " "), n)
                                               for n in tsl.band_schemes()], "standard")
        self.tier_limits = _dropdown("Beyond the tiers", tsl.TIER_LIMITS, "extend")
        self.order = _dropdown("Armour and Impact", [("Armour first", "armour_first"),
                                                     ("Impact first", "impact_first")],
                               "armour_first")
        self.out_of_zone = _dropdown("Out-of-zone penalty", OUT_OF_ZONE, "flat")
        self.bump_misses = _dropdown("An Impact tag on a miss", [
            ("bumps it a step (the seed)", True), ("leaves it (only hits bumped)", False)], True)
        self.error = ErrorLine()
        self.odds = w.HTML()
        self.entry = DiceEntry()
        self.result = w.HTML(self.waiting)
        self.explanation = ExplanationView()
        self.last: tsl.Attack | None = None
        self._quiet = False
        self.current_odds: tsl.AttackOdds | None = None
        # The fighters typed once in the roster fill the attacker's and the target's fields.
        self.attacker_pick = FighterPick("tsl", self.fill_attacker,
                                         label="Attacker from the roster")
        self.target_pick = FighterPick("tsl", self.fill_target, label="Target from the roster")
        # The chapter's worked examples, each one pick away (see set_up); none, no menu.
        self.examples = {key: ATTACK_EXAMPLES[key] for key in examples}
        self.example = _dropdown("Worked example", [(EXAMPLE_PROMPT, "")] + [
            (e.label, key) for key, e in self.examples.items()], "") if examples else None
        # The inputs on the left, the odds, the roll and its result beside them, so the whole
        # attack fits one screen at desktop width; the explanation runs below both.
        inputs = w.VBox([
            *([self.example] if examples else []), self.attacker_pick, self.target_pick,
            *section("The roll", self.kind, self.tier, self.shift, self.target,
                     self.defender_tier, self.defender_shift, self.attack_type),
            *section("The target's Stress", self.target_kind, self.marked, self.pool_size),
            *section("Weapon and target", self.weapon_zone, self.tag1, self.tag2,
                     self.improvised, self.distance, self.impact, self.armour, self.snaring,
                     self.uses),
        ], layout=shared_layout(width="34em", flex="0 0 auto"))
        outcome = w.VBox([
            # a refusal ("cannot attack") shows where the odds would be
            *section("Odds before you roll", self.error, self.odds),
            *section("Roll", self.entry, self.result),
            *section("Rulings (see the rulings chapter)", self.bands, self.tier_limits,
                     self.order, self.out_of_zone, self.bump_misses),
        ], layout=shared_layout(flex="1 1 26em", min_width="24em"))
        super().__init__([
            w.HBox([inputs, outcome], layout=shared_layout(flex_flow="row wrap")),
            section("How it was reached", self.explanation),
        ], "rulebook-tsl-attack")
        for field in (self.kind, self.tier, self.shift, self.target, self.defender_tier,
                      self.attack_type, self.weapon_zone, self.tag1, self.tag2,
                      self.improvised, self.distance, self.impact, self.armour, self.uses,
                      self.bands, self.tier_limits, self.order, self.target_kind, self.marked,
                      self.snaring, self.pool_size, self.defender_shift, self.out_of_zone,
                      self.bump_misses):
            field.observe(lambda _: self.update(), "value")
        self.entry.on_request(self.roll)
        if self.example is not None:
            self.example.observe(lambda change: self.set_up(change["new"]), "value")
        self.update()
        self._built = {name: getattr(self, name).value for name in self._SETUP_FIELDS}

    # -- filling from the roster ---------------------------------------------------------------
    def _fill(self, values: dict[Any, Any]) -> None:
        """Set several fields from a roster row, then answer once."""
        self._quiet = True
        try:
            for field, value in values.items():
                field.value = value
        finally:
            self._quiet = False
        self.update()

    _SETUP_FIELDS = ("kind", "tier", "shift", "target", "defender_tier", "defender_shift",
                     "attack_type", "target_kind", "marked", "pool_size", "weapon_zone", "tag1",
                     "tag2", "improvised", "distance", "impact", "armour", "snaring", "uses")

    def set_up(self, key: str) -> None:
        """Set the tool up as the worked example *key* (its inputs over those the tool was built
        with) and roll its dice, so the example's result shows in one pick; the menu goes back
        to its prompt, since the reader may change any field after."""
        if not key:
            return
        example = self.examples[key]
        self._fill({getattr(self, name): value
                    for name, value in {**self._built, **example.fields}.items()})
        if self.example is not None:
            self.example.value = ""
        self.entry.my_dice.value = example.dice
        self.entry.use_dice()

    def fill_attacker(self, row: Any) -> None:
        """The attacker's tier in the domain they attack with, and their weapon."""
        zone = row["weapon_zone"]
        values: dict[Any, Any] = {self.tier: row[f"tier_{row['attack_domain'].lower()}"],
                                  self.weapon_zone: NO_WEAPON if zone == "None" else zone}
        if zone != "None":
            values.update({self.tag1: row["tag1"], self.tag2: row["tag2"],
                           self.improvised: row["improvised"]})
        self._fill(values)

    def fill_target(self, row: Any) -> None:
        """The target's kind and pool size, and their tier in the domain that defends against
        the attack type (§11 Defence)."""
        defends, _ = tsl.defence_domains(self.attack_type.value)
        self._fill({self.target_kind: row["kind"],
                    self.pool_size: str(row["pool_size"]) if row["pool_size"] else "",
                    self.defender_tier: row[f"tier_{defends.lower()}"]})

    # -- reading the inputs --------------------------------------------------------------------
    def _weapon(self) -> tsl.Weapon | None:
        if self.weapon_zone.value == NO_WEAPON:
            return None
        tags = [] if self.improvised.value else \
            [t for t in (self.tag1.value, self.tag2.value) if t != NO_TAG]
        return tsl.make_weapon(self.weapon_zone.value, tags, improvised=self.improvised.value)

    def _pool(self) -> str:
        """The pool this attack type's Stress lands on (one engine lookup)."""
        return tsl.stress_pool(self.attack_type.value)

    def _snares(self) -> bool:
        """Does the weapon carry the Snaring tag (so the attacker chooses pull or pin)?"""
        return (self.weapon_zone.value != NO_WEAPON and not self.improvised.value
                and "Snaring" in (self.tag1.value, self.tag2.value))

    def _target_pools(self) -> tsl.StressPools:
        """The target's pools: its kind's size, with the Stress already on the hit pool."""
        label = MARKED_LABEL.format(pool=self._pool())
        marked = parse_int_text(label, self.marked.value, blank=0)
        size = None
        if self.pool_size.value.strip():
            size = parse_int_text("Pool size", self.pool_size.value)
        return tsl.new_pools(self.target_kind.value, size=size, **{self._pool().lower(): marked})

    def _setup(self) -> dict[str, Any]:
        opposed = self.kind.value == "opposed"
        setup: dict[str, Any] = dict(
            weapon=self._weapon(), distance=self.distance.value, shift=self.shift.value,
            impact=self.impact.value, armour=self.armour.value,
            attack_type=self.attack_type.value, bands=self.bands.value,
            tier_limits=self.tier_limits.value, order=self.order.value,
            out_of_zone=self.out_of_zone.value, bump_misses=self.bump_misses.value,
            target_pools=self._target_pools())
        if self._snares():
            setup["snaring"] = self.snaring.value
        uses = self.uses.value.strip()
        if uses and setup["weapon"] is not None and setup["weapon"].zone != "Melee":
            setup["uses"] = parse_int_text("Ammunition uses left", uses)
        if opposed:
            setup.update(defender_tier=self.defender_tier.value,
                         defender_shift=self.defender_shift.value)
        else:
            setup["target"] = parse_int_text("T-number", self.target.value)
        return setup

    def _show_fields(self) -> None:
        opposed = self.kind.value == "opposed"
        armed = self.weapon_zone.value != NO_WEAPON
        tagged = armed and not self.improvised.value
        shown = {self.target: not opposed, self.defender_tier: opposed,
                 self.defender_shift: opposed, self.tag1: tagged,
                 self.tag2: tagged, self.improvised: armed, self.distance: armed,
                 self.uses: armed and self.weapon_zone.value != "Melee",
                 self.snaring: self._snares()}
        for field, show in shown.items():
            set_shown(field, show)
        self.marked.description = MARKED_LABEL.format(pool=self._pool())
        fit_label(self.marked)
        self.entry.my_dice.placeholder = ("10 faces: yours, then the defender's" if opposed
                                          else "5 faces, e.g. 6, 4, 3, 3, 1")
        fit_label(self.entry.my_dice)

    # -- observers -------------------------------------------------------------------------------
    @answers("odds")
    def update(self) -> None:
        """Show the exact odds of every band for the current setup (one rules call)."""
        if self._quiet:
            return
        self.current_odds = None
        self._show_fields()
        self.result.value = self.waiting
        self.explanation.clear()
        self.entry.error.clear()   # a roll's refusal belongs to the setup just changed
        setup = self._setup()
        # an attack with no ammunition left, or a Snaring pull at Engaged, is refused here,
        # before any odds are offered (where the target ends up changes no odds)
        self.current_odds = tsl.attack_odds(self.tier.value, **setup)
        self.odds.value = band_odds_html(self.current_odds)

    @answers("explanation", line="entry.error", waiting=("result",))
    def roll(self, request: RollRequest) -> None:
        """Resolve the attack with seeded or typed dice."""
        if self.current_odds is None:
            # The setup is refused, and its message already shows in place of the odds; the
            # roll says nothing more, so the reader reads it once, where the field is fixed.
            return
        opposed = self.kind.value == "opposed"
        setup = self._setup()
        request.expect_typed(2 * DICE if opposed else DICE,
                             f"{2 * DICE} faces (yours, then the defender's)" if opposed
                             else f"{DICE} faces")
        self.last = a = tsl.attack(request.dice, self.tier.value, **setup)
        if a.uses_left is not None:
            self._quiet = True  # count the use down without clearing the result
            self.uses.value = str(a.uses_left)
            self._quiet = False
        colour = BAND_COLOURS[a.band]
        how = request.describe()
        against = against_words(a)
        extra = attack_extras(a)
        self.result.value = (
            f"<div class='rulebook-tsl-result' style='font-size:{TOTAL_SIZE}'>"
            f"<span style='color:{colour};font-weight:700'>{html.escape(tsl.band_name(a.band))}"
            f"</span>: <b>{a.stress} Stress</b>{pool_words(a)}"
            f"{' — <b>the target Breaks</b>' if a.target_breaks else ''}</div>"
            + self._pool_line(a)
            + f"<div>Total {a.total} against {against}, margin {a.margin:+d}"
            f"{'; ' + '; '.join(extra) if extra else ''} <small>({how})</small></div>")
        self.explanation.show(a.trace)

    @staticmethod
    def _pool_line(a: tsl.Attack) -> str:
        """The target's hit pool after the attack, as a reader counts bubbles."""
        p = a.target_pools
        if p is None:
            return ""
        state = ("Broken" if p.broken(a.pool) else f"{p.left(a.pool)} left")
        return (f"<div class='rulebook-tsl-pool'>Target's {a.pool} pool: {p.stress(a.pool)} of "
                f"{p.size(a.pool)} Stress marked ({state})</div>")


class TurnBoard(Tool):
    """The GM's turn-order board: the order, whose turn, and what each combatant has used."""

    _ENC = {"enc": "the board shown"}
    reaches = (
        Reach(tsl.new_encounter, {"order": "Turn order (GM's call)"}),
        Reach(tsl.set_order, {"order": "Turn order (GM's call)"}, _ENC),
        Reach(tsl.take, {"who": "Combatant", "option": "Spend", "ally_zone": "Ally's zone"},
              _ENC),
        Reach(tsl.next_turn, {}, _ENC),
        Reach(encounter_from_json, {}, {"text": "the file uploaded, or the board this browser "
                                                "kept"}),
    )

    def __init__(self, order: str = "Vela, Thug, Mar, Ko, Ambusher") -> None:
        self.order = labelled_text("Turn order (GM's call)", order, "names, comma separated",
                                   width=SENTENCE_WIDTH, label_width=LABEL_WIDE)
        self.start_button = button("Start encounter", primary=True)
        self.reorder_button = button("Re-call order")
        self.who = _dropdown("Combatant", (), None)
        self.option = _dropdown("Spend", tsl.turn_options(), "Action")
        self.ally_zone = _dropdown("Ally's zone", tsl.ZONES, "Engaged")
        self.spend_button = button("Spend", "Mark this part of the turn as used")
        self.next_button = button("Next turn", "Pass to the next combatant in the order")
        self.error = ErrorLine()
        self.board = w.HTML()
        self.explanation = ExplanationView()
        self.history = w.HTML()
        self.kept = KeptState(STORE_KEY, "tsl-board.json", "board", self._load_kept,
                              _describe_board)
        self.encounter: tsl.Encounter | None = None
        # While the browser has not said what it kept, or a kept board is on offer, the default
        # board is not shown and nothing is written over the kept copy (see _holding).
        self._offered = False
        self.hold = w.HTML()
        self._board_part = section("The board", self.board)
        self._turn_part = section("Spend part of a turn", self.who, self.option, self.ally_zone,
                                  w.HTML("<small>The ally's zone matters only to support "
                                         "actions aimed at an ally.</small>"),
                                  w.HBox([self.spend_button, self.next_button]))
        self._log_part = section("Log", self.history)
        super().__init__([
            self.kept,
            w.HBox([self.order, self.start_button, self.reorder_button]),
            self.error,
            self.hold,
            self._board_part,
            self._turn_part,
            section("What it did", self.explanation),
            self._log_part,
            section("Save and load", w.HTML(
                "<small>The board is kept in your own browser after every change (a reload "
                "offers to restore it); nothing is stored on the server. Download it to keep "
                "it elsewhere, upload it to carry on.</small>"), self.kept.transfer),
        ], "rulebook-tsl-turns")
        self.start_button.on_click(lambda _: self._changed(self.start))
        self.reorder_button.on_click(lambda _: self._changed(self.reorder))
        self.spend_button.on_click(lambda _: self._changed(self.spend))
        self.next_button.on_click(lambda _: self._changed(self.next_turn))
        self.kept.discard_button.on_click(lambda _: self._chosen())
        self.kept.store.observe(self._browser_answered, "stored")
        self.kept.store.observe(self._browser_answered, "ready")
        self.start()
        # The live page waits for the browser to say what it kept before it shows a board;
        # a page without a kernel (the static book) has nothing kept and shows it at once.
        self._show_board(not hasattr(self.kept.store, "send"))

    def _show_board(self, shown: bool) -> None:
        for widget in (*self._board_part, *self._turn_part, *self._log_part):
            set_shown(widget, shown)

    def _browser_answered(self, _change: dict) -> None:
        """The browser said what it kept: a kept board is offered before any board is shown,
        and the default board shows only when nothing was kept."""
        self._offered = bool(self.kept.store.stored)
        self.hold.value = (
            "<p class='rulebook-tsl-hold'><i>Restore the saved board or discard it (above). "
            "Until you choose, the saved copy stays as it is: a board started here is not "
            "kept.</i></p>" if self._offered else "")
        self._show_board(not self._offered)

    def _chosen(self) -> None:
        """The reader restored or discarded the kept board: show the board and keep it from
        now on."""
        self._offered = False
        self.hold.value = ""
        self._show_board(True)

    def _load_kept(self, text: str) -> None:
        """Carry on from a file or the kept board; it is kept at once (an upload too), and
        the offer of an older kept board is withdrawn."""
        self.load_json(text)
        self._chosen()
        set_shown(self.kept.offer, False)
        self.kept.keep(self.saved_json())

    def _changed(self, act: Any) -> None:
        """Run a reader's action, then keep the board in their browser (not while a kept board
        is on offer: it is not overwritten until the reader chooses)."""
        act()
        self._show_board(True)
        if self.encounter is not None and not self._offered:
            self.kept.keep(self.saved_json())

    def _render(self) -> None:
        enc = self.encounter
        if enc is None:
            self.board.value = ""
            return
        rows = []
        for name in enc.order:
            st = enc.state(name)
            cells = "".join(
                ("<td style='color:#888'>used</td>" if st.used(p) else "<td>ready</td>")
                for p in ("action", "movement", "reaction"))
            mark = "▶ " if name == enc.acting else ""
            style = " style='font-weight:700;background:#eef5ee'" if name == enc.acting else ""
            rows.append(f"<tr{style}><td>{mark}{html.escape(name)}</td>{cells}</tr>")
        self.board.value = (
            f"<p class='rulebook-tsl-round'><b>Round {enc.round}</b>: "
            f"{html.escape(enc.acting)} is acting</p>"
            + TABLE_STYLE + "<table class='rulebook-tsl-table rulebook-tsl-board'><thead><tr><th>Combatant</th>"
            "<th>Action</th><th>Movement</th><th>Reaction</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")
        self.history.value = "<ol>" + "".join(f"<li>{html.escape(x)}</li>" for x in enc.log) + "</ol>"
        self.kept.transfer.set_text(self.saved_json())

    def saved_json(self) -> str:
        """The board as JSON text (what the download link holds)."""
        return json.dumps(tsl.encounter_to_dict(self.encounter), indent=1) \
            if self.encounter else "{}"

    def load_json(self, text: str) -> None:
        """Carry on from a saved board; a bad file raises RulesError and changes nothing."""
        self.encounter = _board_from_json(text)
        self.error.clear()
        self.order.value = ", ".join(self.encounter.order)
        self.who.options = self.encounter.order
        self.who.value = self.encounter.acting
        self.explanation.clear()
        self._render()

    def _names(self) -> list[str]:
        return [n for n in self.order.value.split(",")]

    @answers()
    def start(self) -> None:
        """Start round 1 with the order typed in the field."""
        self.encounter = tsl.new_encounter(self._names())
        self.who.options = self.encounter.order
        self.who.value = self.encounter.acting
        self.explanation.clear()
        self._render()

    @answers()
    def reorder(self) -> None:
        """The GM re-calls the order of the same combatants."""
        if self.encounter is None:
            self.start()
            return
        self.encounter = tsl.set_order(self.encounter, self._names())
        self.who.options = self.encounter.order
        self.who.value = self.encounter.acting
        self._render()

    def _started(self) -> tsl.Encounter:
        """The encounter on the board; a reader's error until one is started."""
        if self.encounter is None:
            raise RulesError("Start the encounter first.")
        return self.encounter

    @answers()
    def spend(self) -> None:
        """The chosen combatant spends the chosen option."""
        done = tsl.take(self._started(), self.who.value, self.option.value,
                        ally_zone=self.ally_zone.value)
        self.encounter = done.encounter
        self.explanation.show(done.trace)
        self._render()

    @answers()
    def next_turn(self) -> None:
        """Pass to the next combatant (a new round after the last)."""
        self.encounter = tsl.next_turn(self._started())
        self.who.value = self.encounter.acting
        self.explanation.clear()
        self._render()


class WeaponBuilder(Tool):
    """Pick a zone and tags and see what the weapon can do."""

    holds_blank_lines = True

    _BUILT: ClassVar[dict[str, str]] = {"weapon": "the weapon built from the fields above"}
    reaches = (
        Reach(tsl.make_weapon, {"zone": "Zone", "tags": "First tag and Second tag", "name": "Name",
                                "rarity": "Rarity", "improvised": "Improvised (no tags)"}),
        Reach(tsl.weapon_profile, {"out_of_zone": "Out-of-zone penalty"}, _BUILT),
        Reach(tsl.reach_first_strike, {"start": "A foe moves from", "end": "The foe moves to",
                                       "reaction_used": "Your Reaction is used this round"},
              _BUILT),
        Reach(tsl.snare, {"band": "The hit lands as", "distance": "Target's zone",
                          "how": "Snaring"}, _BUILT),
        Reach(tsl.utility_edge, {"applies": "This roll is the kind its Utility tag names"},
              {"tag": "the weapon's Utility tag"}),
    )

    def __init__(self, zone: str = "Melee", first: str = "Reach", second: str = NO_TAG,
                 name: str = "Boarding pike") -> None:
        self.name = labelled_text("Name", name, "anything you like")
        self.name.continuous_update = False
        self.zone = _dropdown("Zone", tsl.WEAPON_ZONES, zone)
        self.tag1 = _dropdown("First tag", (NO_TAG,) + tsl.tag_names(), first)
        self.tag2 = _dropdown("Second tag", (NO_TAG,) + tsl.tag_names(), second)
        self.rarity = _dropdown("Rarity", tsl.RARITIES, "Issued")
        self.improvised = _check("Improvised (no tags)")
        self.out_of_zone = _dropdown("Out-of-zone penalty", OUT_OF_ZONE, "flat")
        self.error = ErrorLine()
        self.summary = w.HTML()
        self.explanation = ExplanationView()
        self.profile: tsl.WeaponProfile | None = None
        self.pick = FighterPick("tsl", self.fill, label="Weapon of a fighter")
        # what the Reach and Snaring tags do, each shown while the weapon carries the tag
        self.closes_from = _dropdown("A foe moves from", tsl.ZONES, "Far")
        self.closes_to = _dropdown("The foe moves to", tsl.ZONES, "Near")
        self.reaction_used = _check("Your Reaction is used this round")
        self.reach_error = ErrorLine()
        self.reach_result = w.HTML()
        self.hit_band = _dropdown("The hit lands as", [(tsl.band_name(b), b)
                                                       for b in reversed(tsl.BANDS)], "mixed")
        self.snared_at = _dropdown("Target's zone", tsl.ZONES, "Near")
        self.how = _dropdown("Snaring", [("pull them a zone nearer", "pull"),
                                         ("pin them where they are", "pin")], "pull")
        self.snare_error = ErrorLine()
        self.snare_result = w.HTML()
        self._reach_part = section("Reach: a foe closes", self.closes_from, self.closes_to,
                                   self.reaction_used, self.reach_error, self.reach_result)
        self._snare_part = section("Snaring: a hit", self.hit_band, self.snared_at, self.how,
                                   self.snare_error, self.snare_result)
        self.applies = _check("This roll is the kind its Utility tag names")
        self.utility_error = ErrorLine()
        self.utility_result = w.HTML()
        self._utility_part = section("Utility: the roll it names", self.applies,
                                     self.utility_error, self.utility_result)
        # the weapon and what its tags answer on the left, its profile beside them, so the
        # builder fits one screen at desktop width
        inputs = w.VBox([
            self.pick, self.name, self.zone, self.tag1, self.tag2, self.rarity, self.improvised,
            self.out_of_zone, self.error, *self._reach_part, *self._snare_part,
            *self._utility_part,
        ], layout=shared_layout(width="30em", flex="0 0 auto"))
        profile = w.VBox([*section("What it can do", self.summary, self.explanation)],
                         layout=shared_layout(flex="1 1 26em", min_width="24em"))
        super().__init__([w.HBox([inputs, profile], layout=shared_layout(flex_flow="row wrap"))],
                         "rulebook-tsl-weapon")
        for field in (self.name, self.zone, self.tag1, self.tag2, self.rarity, self.improvised,
                      self.out_of_zone):
            field.observe(lambda _: self.update(), "value")
        for field in (self.closes_from, self.closes_to, self.reaction_used):
            field.observe(lambda _: self.first_strike(), "value")
        for field in (self.hit_band, self.snared_at, self.how):
            field.observe(lambda _: self.snare(), "value")
        self.applies.observe(lambda _: self.utility(), "value")
        self.update()

    @answers()
    def fill(self, row: Any) -> None:
        """The weapon a roster fighter carries: its zone, tags, rarity, improvised or not."""
        if row["weapon_zone"] == "None":
            raise RulesError(f"{row.name} carries no weapon in the roster")
        self._quiet = True
        try:
            self.name.value = f"{row.name}'s weapon"
            self.zone.value = row["weapon_zone"]
            self.tag1.value, self.tag2.value = row["tag1"], row["tag2"]
            self.rarity.value, self.improvised.value = row["rarity"], row["improvised"]
        finally:
            self._quiet = False
        self.update()

    @answers("summary", "explanation")
    def update(self) -> None:
        """Build the weapon and show its profile (one rules call)."""
        if getattr(self, "_quiet", False):
            return
        self.profile = None
        tags = [] if self.improvised.value else \
            [t for t in (self.tag1.value, self.tag2.value) if t != NO_TAG]
        for field in (self.tag1, self.tag2):
            set_shown(field, not self.improvised.value)
        weapon = tsl.make_weapon(self.zone.value, tags, name=self.name.value,
                                 rarity=self.rarity.value, improvised=self.improvised.value)
        self.profile = tsl.weapon_profile(weapon, out_of_zone=self.out_of_zone.value)
        p = self.profile
        for part, shown in ((self._reach_part, "Reach" in p.weapon.tags),
                            (self._snare_part, "Snaring" in p.weapon.tags),
                            (self._utility_part, self._utility_tag() is not None)):
            for widget in part:
                set_shown(widget, shown)
        self.first_strike()
        self.snare()
        self.utility()
        cells = "".join(f"<td>{'in zone' if s == 0 else f'−{-s} Effective Tier'}</td>"
                        for _, s in p.shifts)
        heads = "".join(f"<th>{z}</th>" for z, _ in p.shifts)
        title = html.escape(p.weapon.name or "This weapon")
        self.summary.value = (
            f"<p class='rulebook-tsl-weapon-summary'><b>{title}</b>: {p.weapon.zone}"
            f"{' (improvised)' if p.weapon.improvised else ''}, "
            f"{', '.join(p.weapon.tags) or 'no tags'}. Fights at {', '.join(p.fights_at)}.</p>"
            f"{TABLE_STYLE}<table class='rulebook-tsl-table rulebook-tsl-shifts'><thead><tr><th>Target is</th>"
            f"{heads}</tr></thead><tbody><tr><td>Tier shift</td>{cells}</tr></tbody></table>")
        self.explanation.show(p.trace)

    @answers("reach_result", line="reach_error")
    def first_strike(self) -> None:
        """A foe's Movement against the weapon built: does Reach strike first (one rules
        call)?"""
        if self.profile is None or "Reach" not in self.profile.weapon.tags:
            self.reach_result.value = ""
            return
        done = tsl.reach_first_strike(self.profile.weapon, self.closes_from.value,
                                      self.closes_to.value,
                                      reaction_used=self.reaction_used.value)
        said = ("<b>You strike first</b>: an attack now, with your Reaction"
                if done.strikes_first else "<b>No first strike</b>")
        self.reach_result.value = worked_html(f"<p class='rulebook-tsl-reach'>{said}</p>",
                                              done.trace)

    @answers("snare_result", line="snare_error")
    def snare(self) -> None:
        """Where a Snaring hit leaves the target (one rules call)."""
        if self.profile is None or "Snaring" not in self.profile.weapon.tags:
            self.snare_result.value = ""
            return
        done = tsl.snare(self.profile.weapon, self.hit_band.value, self.snared_at.value,
                         self.how.value)
        said = {"pulled": f"The target is pulled to {done.distance}",
                "pinned": f"The target is pinned at {done.distance}",
                "no hit": "A miss: the target stays where they are"}[done.outcome]
        self.snare_result.value = worked_html(
            f"<p class='rulebook-tsl-snare'><b>{html.escape(said)}</b></p>", done.trace)


    def _utility_tag(self) -> str | None:
        """The weapon's Utility tag, if it carries one."""
        tags = self.profile.weapon.tags if self.profile is not None else ()
        return next((t for t in tags if tsl.tag_family(t) == "Utility"), None)

    @answers("utility_result", line="utility_error")
    def utility(self) -> None:
        """The Effective Tier the weapon's Utility tag gives this roll (one rules call)."""
        tag = self._utility_tag()
        if tag is None:
            self.utility_result.value = ""
            return
        done = tsl.utility_edge(tag, applies=self.applies.value)
        self.utility_result.value = worked_html(
            f"<p class='rulebook-tsl-utility'><b>{html.escape(done.outcome)}</b> on this roll"
            "</p>", done.trace)


def explain(result: Any) -> HTML:
    """A worked example's result for the book (see :func:`widgets.book.explain`), its outcome
    named as the chapter names a band ("Success", not "success")."""
    return book_explain(result, outcome=_band_label(str(result.outcome)))
