"""The TSL tools for what is not an attack: helping an ally (a support action and the Stress it
moves), a Spirit ability's cost, armour against one blow, and the Hand roll that mends broken
gear.

Each answer makes one ``rulescore.systems.tsl`` call and renders what it returns.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import ClassVar

import ipywidgets as w

from rulescore.errors import RulesError, parse_int_text
from rulescore.systems import tsl
from rulescore.systems.tsl.rolls import DICE

from .common import (
    ROLLED,
    DiceEntry,
    ErrorLine,
    ExplanationView,
    Reach,
    RollRequest,
    Tool,
    answers,
    chance_html,
    labelled_text,
    odds_line,
    section,
)
from .lean import set_shown, shared_layout
from .theme import ERROR, SUCCESS, TEXT_WIDTH, TOTAL_SIZE
from .tsl import BAND_COLOURS, SHIFTS, STYLE

FAILED_BANDS = [(tsl.band_name(b), b) for b in ("failure", "catastrophic")]
ROLL_DOMAINS = ("Body", "Hand", "Mind", "Heart", "Voice", "Spirit")
YOUR_STRESS = "Your {pool} Stress"
POOL_SIZE = "Your pool size"
SIZE_HINT = "blank: 4, a starting pool"


def _menu(label: str, options: object, value: object) -> w.Dropdown:
    return w.Dropdown(options=options, value=value, description=label, style=STYLE,
                      layout=shared_layout(width=TEXT_WIDTH))


def _number(label: str, value: str, hint: str) -> w.Text:
    field = labelled_text(label, value, hint)
    field.continuous_update = False
    return field


def _size(field: w.Text) -> int | None:
    """The pool size typed (None when blank: the starting size)."""
    return parse_int_text(POOL_SIZE, field.value) if field.value.strip() else None


def pool_line(who: str, pools: tsl.StressPools, pool: str) -> str:
    """One pool as a reader counts bubbles: "Your Spirit pool: 1 of 4 Stress marked (3 left)"."""
    state = "Broken" if pools.broken(pool) else f"{pools.left(pool)} left"
    return (f"<div class='rulebook-tsl-pool'>{html.escape(who)} {pool} pool: "
            f"{pools.stress(pool)} of {pools.size(pool)} Stress marked ({state})</div>")


def _uses_words(uses: tuple[str, ...]) -> str:
    if uses == ("steward",):
        return "free once a scene (a Steward's perk, no Action)"
    return "uses the " + " and the ".join(u.capitalize() for u in uses)


class SupportAction(Tool):
    """Give an ally a support action: what it spends, whether the ally is in reach, and the
    Stress it marks on you or takes off the ally."""

    waiting_for = "the fields above"
    _POOLS: ClassVar[dict[str, str]] = {p.lower(): YOUR_STRESS.format(pool=p)
                                        for p in tsl.POOLS}
    reaches = (
        Reach(tsl.support, {"option": "Support action", "ally_zone": "Ally's zone",
                            "band": "The ally's failed roll", "domain": "Domain of that roll",
                            "ally": "The ally's Mind Stress"},
              {"helper": "built from Your Body, Mind and Spirit Stress and Your pool size"}),
        Reach(tsl.new_pools, {**_POOLS, "size": POOL_SIZE},
              {"kind": "a helper's and an ally's pools start as a character's (Your pool size "
                       "sets grown ones)"}),
        Reach(tsl.support_needs, {"option": "Support action"}),
    )

    def __init__(self, option: str = "Ground a Path-walker", ally_zone: str = "Engaged") -> None:
        self.option = _menu("Support action", tsl.support_options(), option)
        self.ally_zone = _menu("Ally's zone", tsl.ZONES, ally_zone)
        self.band = _menu("The ally's failed roll", FAILED_BANDS, "failure")
        self.domain = _menu("Domain of that roll", ROLL_DOMAINS, "Hand")
        self.ally_mind = _number("The ally's Mind Stress", "1", "e.g. 3")
        self.stress = {p: _number(YOUR_STRESS.format(pool=p), "0", "e.g. 0") for p in tsl.POOLS}
        self.size = _number(POOL_SIZE, "", SIZE_HINT)
        self.error = ErrorLine()
        self.result = w.HTML()
        self.explanation = ExplanationView()
        self.last: tsl.Support | None = None
        super().__init__([
            section("The help", self.option, self.ally_zone, self.band, self.domain,
                    self.ally_mind),
            section("Your Stress before it", *self.stress.values(), self.size),
            self.error,
            section("What it does", self.result, self.explanation),
        ], "rulebook-tsl-support")
        for field in (self.option, self.ally_zone, self.band, self.domain, self.ally_mind,
                      *self.stress.values(), self.size):
            field.observe(lambda _: self.update(), "value")
        self.update()

    @answers("result", "explanation")
    def update(self) -> None:
        """Give the support action with the fields as they stand (one rules call)."""
        self.last = None
        option = self.option.value
        # which of the fields this action reads is the engine's to say (§11 Support Actions)
        needs = tsl.support_needs(option)
        rerolls, steadies = "band" in needs, "ally" in needs
        for field, shown in ((self.band, rerolls), (self.domain, rerolls),
                             (self.ally_mind, steadies)):
            set_shown(field, shown)
        size = _size(self.size)
        helper = tsl.new_pools(size=size, **{
            p.lower(): parse_int_text(YOUR_STRESS.format(pool=p), f.value, blank=0)
            for p, f in self.stress.items()})
        extra: dict[str, object] = {}
        if rerolls:
            extra = {"band": self.band.value, "domain": self.domain.value}
        if steadies:
            extra["ally"] = self._ally()
        self.last = done = tsl.support(option, helper, ally_zone=self.ally_zone.value, **extra)
        said = (f"you mark {done.value} {done.pool} Stress" if done.value
                else "no Stress is marked")
        lines = [f"<div class='rulebook-tsl-result' style='font-size:{TOTAL_SIZE}'>"
                 f"<b>{html.escape(option)}</b>: {_uses_words(done.uses)}; {said}"
                 + (f" — <b style='color:{ERROR}'>you Break</b>" if done.breaks else "")
                 + "</div>"]
        if done.pool:
            lines.append(pool_line("Your", done.helper, done.pool))
        if done.ally is not None:
            lines.append(pool_line("The ally's", done.ally, "Mind"))
        self.result.value = "".join(lines)
        self.explanation.show(done.trace)


    def _ally(self) -> tsl.StressPools:
        """The ally's pools, a character's, with the Mind Stress typed; the range is checked
        here so the message names this field, not yours."""
        label, most = "The ally's Mind Stress", tsl.pool_size("character")
        mind = parse_int_text(label, self.ally_mind.value, blank=0)
        if not 0 <= mind <= most:
            raise RulesError(f"{label} must be from 0 to {most}, got {mind}")
        return tsl.new_pools(mind=mind)


class SpiritAbility(Tool):
    """Use a Spirit ability: no roll, its cost marked on your Spirit pool."""

    waiting_for = "the fields above"
    reaches = (
        Reach(tsl.spirit_ability, {"ability": "Spirit ability", "cost": "Its cost"},
              {"pools": "built from Stress already on your Spirit pool and Your pool size"}),
        Reach(tsl.new_pools, {"spirit": "Stress already on your Spirit pool",
                              "size": POOL_SIZE},
              {"kind": "the user's pools start as a character's (Your pool size sets grown "
                       "ones)",
               "body": "a Spirit ability marks only the Spirit pool",
               "mind": "a Spirit ability marks only the Spirit pool"}),
    )

    def __init__(self, ability: str = "Sense the Local Reality") -> None:
        self.ability = w.Combobox(value=ability, options=tsl.spirit_abilities(),
                                  description="Spirit ability", ensure_option=False,
                                  placeholder="a name; another chapter's ability needs its cost",
                                  style=STYLE, layout=shared_layout(width=TEXT_WIDTH))
        self.ability.continuous_update = False
        self.cost = _number("Its cost", "", "blank: the cost this chapter gives")
        self.spirit = _number("Stress already on your Spirit pool", "0", "e.g. 0")
        self.size = _number(POOL_SIZE, "", SIZE_HINT)
        self.error = ErrorLine()
        self.result = w.HTML()
        self.explanation = ExplanationView()
        self.last: tsl.StressTaken | None = None
        super().__init__([
            self.ability, self.cost, self.spirit, self.size, self.error,
            section("What it costs", self.result, self.explanation),
        ], "rulebook-tsl-spirit")
        for field in (self.ability, self.cost, self.spirit, self.size):
            field.observe(lambda _: self.update(), "value")
        self.update()

    @answers("result", "explanation")
    def update(self) -> None:
        """Mark the ability's cost on the Spirit pool (one rules call)."""
        self.last = None
        pools = tsl.new_pools(size=_size(self.size), spirit=parse_int_text(
            "Stress already on your Spirit pool", self.spirit.value, blank=0))
        cost = parse_int_text("Its cost", self.cost.value) if self.cost.value.strip() else None
        self.last = done = tsl.spirit_ability(pools, self.ability.value, cost=cost)
        self.result.value = (
            f"<div class='rulebook-tsl-result' style='font-size:{TOTAL_SIZE}'>"
            f"<b>{html.escape(self.ability.value)}</b>: {done.stress} Spirit Stress, no roll"
            + (f" — <b style='color:{ERROR}'>you Break</b>" if done.breaks else "") + "</div>"
            + pool_line("Your", done.pools, "Spirit"))
        self.explanation.show(done.trace)


REPAIR_WORDS = {"repaired": ("It works again", SUCCESS),
                "not repaired": ("Still broken", ERROR),
                "needs downtime": ("Mended with tools and downtime, no roll", SUCCESS),
                "lost": ("May be gone for good: no roll mends it", ERROR)}


class _DiceTool(Tool):
    """A tool that answers a roll of its dice entry: a changed field puts its result back to
    waiting for the dice, and takes away the last roll's message."""

    holds_blank_lines = True

    reaches = ()  # each tool below declares its own

    entry: DiceEntry
    result: w.HTML
    explanation: ExplanationView
    roll: Callable[[RollRequest], None]   # each tool's own answer to its dice

    def _wait_for_dice(self, *fields: w.ValueWidget) -> None:
        for field in fields:
            field.observe(lambda _: self._changed(), "value")
        self.entry.on_request(self.roll)

    def _changed(self) -> None:
        self.last = None
        self.result.value = self.waiting
        self.explanation.clear()
        self.entry.error.clear()


class RepairRoll(_DiceTool):
    """Mend a broken weapon or spent gear: by its rarity, with the Hand roll rarer gear needs.
    Gear mended without a roll (Issued, or irreplaceable) is answered at once, with no dice
    asked for."""

    reaches = (
        Reach(tsl.repair, {"rarity": "Rarity", "irreplaceable": "Irreplaceable",
                           "tier": "Your Hand tier", "shift": "Other tier shifts",
                           "bands": "Band ladder", "tier_limits": "Beyond the tiers"},
              {"dice": ROLLED}),
        Reach(tsl.repair_plan, {"rarity": "Rarity", "irreplaceable": "Irreplaceable",
                                "tier": "Your Hand tier", "shift": "Other tier shifts",
                                "bands": "Band ladder", "tier_limits": "Beyond the tiers"}),
    )

    def __init__(self, rarity: str = "Salvaged", tier: str = "Trained") -> None:
        self.rarity = _menu("Rarity", tsl.RARITIES, rarity)
        self.irreplaceable = w.Checkbox(value=False, description="Irreplaceable", indent=False,
                                        layout=shared_layout(width="auto"))
        self.tier = _menu("Your Hand tier", tsl.TIERS, tier)
        self.shift = _menu("Other tier shifts", SHIFTS, 0)
        self.bands = _menu("Band ladder", [(n.replace("_", " "), n)
                                           for n in tsl.band_schemes()], "standard")
        self.tier_limits = _menu("Beyond the tiers", tsl.TIER_LIMITS, "extend")
        self.entry = DiceEntry("5 faces, e.g. 6, 5, 1, 1, 1")
        self.odds = w.HTML()
        self.error = ErrorLine()
        self.result = w.HTML(self.waiting)
        self.explanation = ExplanationView()
        self.last: tsl.Repair | None = None
        self._roll_part = section("Roll", self.entry)
        self._rulings = section("Rulings (see the rulings chapter)", self.bands,
                                self.tier_limits)
        super().__init__([
            self.rarity, self.irreplaceable, self.tier, self.shift, self.odds,
            *self._roll_part, self.error, self.result, *self._rulings,
            section("How it was reached", self.explanation),
        ], "rulebook-tsl-repair")
        self._wait_for_dice(self.rarity, self.irreplaceable, self.tier, self.shift, self.bands,
                            self.tier_limits)
        self._changed()

    @answers("explanation", waiting=("result",))
    def _changed(self) -> None:
        """A changed field: rarer gear waits for the Hand roll's dice, its exact chance to mend
        shown first; gear mended with no roll is answered at once, and its dice, tier and
        rulings are put away (one rules call)."""
        super()._changed()
        self.odds.value = ""
        plan = self._plan()
        for widget in (self.tier, self.shift, *self._roll_part, *self._rulings):
            set_shown(widget, plan.rolls)
        if plan.done is not None:
            self.last = plan.done
            self._show(plan.done, "")
            return
        self.odds.value = odds_line(
            "rulebook-tsl-repair-odds",
            f"{html.escape(plan.said)} Chance it mends: {chance_html(plan.odds, strong=True)}")

    def _plan(self) -> tsl.RepairPlan:
        """What mending takes with the fields as they are (one rules call)."""
        return tsl.repair_plan(self.rarity.value, irreplaceable=self.irreplaceable.value,
                               tier=self.tier.value, shift=self.shift.value,
                               bands=self.bands.value, tier_limits=self.tier_limits.value)

    @answers("explanation", line="entry.error", waiting=("result",))
    def roll(self, request: RollRequest) -> None:
        """Mend the item with seeded or typed dice: the plan says how many, the repair
        resolves them."""
        self.last = None
        need = self._plan().dice
        request.expect_typed(need, f"{need} faces")
        self.last = done = tsl.repair(
            self.rarity.value, irreplaceable=self.irreplaceable.value, dice=request.dice,
            tier=self.tier.value, shift=self.shift.value, bands=self.bands.value,
            tier_limits=self.tier_limits.value)
        self._show(done, request.describe())

    def _show(self, done: tsl.Repair, how: str) -> None:
        """The repair's outcome, and the Hand roll when one was made."""
        words, colour = REPAIR_WORDS[done.outcome]
        rolled = (f"<div>Hand roll total {done.value}: <span style='color:"
                  f"{BAND_COLOURS[done.band]}'>{html.escape(tsl.band_name(done.band))}</span>"
                  f" <small>({how})</small></div>" if done.band else "")
        self.result.value = (f"<div class='rulebook-tsl-result' style='font-size:{TOTAL_SIZE};"
                             f"color:{colour};font-weight:700'>{html.escape(words)}</div>"
                             + rolled)
        self.explanation.show(done.trace)


class Movement(Tool):
    """Move between zones: one with a Movement, two with a Double Movement (giving up the
    Action)."""

    waiting_for = "the fields above"
    reaches = (
        Reach(tsl.move, {"start": "From", "end": "To", "double": "Double Movement"}),
    )

    def __init__(self, start: str = "Far", end: str = "Engaged", double: bool = True) -> None:
        self.start = _menu("From", tsl.ZONES, start)
        self.end = _menu("To", tsl.ZONES, end)
        self.double = w.Checkbox(value=double, description="Double Movement", indent=False,
                                 layout=shared_layout(width="auto"))
        self.error = ErrorLine()
        self.result = w.HTML()
        self.explanation = ExplanationView()
        self.last: tsl.Move | None = None
        super().__init__([self.start, self.end, self.double, self.error,
                          section("What it takes", self.result, self.explanation)],
                         "rulebook-tsl-move")
        for field in (self.start, self.end, self.double):
            field.observe(lambda _: self.update(), "value")
        self.update()

    @answers("result", "explanation")
    def update(self) -> None:
        """The move and what it spends (one rules call)."""
        self.last = None
        self.last = done = tsl.move(self.start.value, self.end.value, double=self.double.value)
        crossed = f"{done.zones} zone{'s' if done.zones != 1 else ''}"
        self.result.value = (f"<div class='rulebook-tsl-result' style='font-size:{TOTAL_SIZE}'>"
                             f"{done.start} → {done.end}: {crossed}; {_uses_words(done.uses)}"
                             "</div>")
        self.explanation.show(done.trace)


class ArmourBlow(Tool):
    """Armour built for the blow against one band: the band it lands as, its Stress, and
    whether a Catastrophic defence roll spends the armour."""

    holds_blank_lines = True

    waiting_for = "the fields above"
    reaches = (
        Reach(tsl.armour_against, {"band": "The attack lands as",
                                   "defence_catastrophic": "The defence roll was a "
                                                           "Catastrophic Failure"}),
    )

    def __init__(self, band: str = "success", defence_catastrophic: bool = False) -> None:
        self.band = _menu("The attack lands as", [(tsl.band_name(b), b)
                                                  for b in reversed(tsl.BANDS)], band)
        self.catastrophic = w.Checkbox(value=defence_catastrophic, indent=False,
                                       description="The defence roll was a Catastrophic Failure",
                                       layout=shared_layout(width="auto"))
        self.error = ErrorLine()
        self.result = w.HTML()
        self.explanation = ExplanationView()
        self.last: tsl.ArmourResult | None = None
        super().__init__([self.band, self.catastrophic, self.error,
                          section("What the armour does", self.result, self.explanation)],
                         "rulebook-tsl-armour")
        for field in (self.band, self.catastrophic):
            field.observe(lambda _: self.update(), "value")
        self.update()

    @answers("result", "explanation")
    def update(self) -> None:
        """The blow after the armour (one rules call)."""
        self.last = None
        self.last = done = tsl.armour_against(self.band.value,
                                              defence_catastrophic=self.catastrophic.value)
        extra = ("; the armour takes the whole blow and is spent" if done.absorbed else
                 "; the armour is spent" if done.armour_spent else "")
        self.result.value = (
            f"<div class='rulebook-tsl-result' style='font-size:{TOTAL_SIZE}'>Lands as "
            f"<span style='color:{BAND_COLOURS[done.band]};font-weight:700'>"
            f"{html.escape(tsl.band_name(done.band))}</span>: <b>{done.value} Stress</b>"
            f"{extra}</div>")
        self.explanation.show(done.trace)


NOTHING = "(nothing)"


def _items(field: w.Text) -> list[str]:
    """The names typed in a comma-separated field, blanks left out."""
    return [n.strip() for n in field.value.split(",") if n.strip()]


class ReadyLoadout(Tool):
    """Bring a Stowed item to Ready: what it costs, and what is Ready after it."""

    holds_blank_lines = True

    waiting_for = "the fields above"
    reaches = (
        Reach(tsl.make_loadout, {"ready": "Ready", "stowed": "Stowed", "worn": "Worn",
                                 "consumables": "Consumables", "ready_limit": "Ready pieces"}),
        Reach(tsl.ready_item, {"item": "Bring to Ready", "in_scene": "In the middle of a scene",
                               "stow": "Put away"},
              {"loadout": "built from Ready, Stowed, Worn, Consumables and Ready pieces"}),
    )

    def __init__(self, ready: str = "Rifle, Knife, Rope", stowed: str = "Lantern",
                 worn: str = "Voidsuit", item: str = "Lantern", stow: str = "Rope") -> None:
        self.ready = _number("Ready", ready, "names, comma separated")
        self.stowed = _number("Stowed", stowed, "names, comma separated")
        self.worn = _number("Worn", worn, "names, comma separated")
        self.consumables = _number("Consumables", "", "names, comma separated")
        self.limit = _number("Ready pieces", str(tsl.READY_LIMIT), "the most kept Ready")
        self.item = _menu("Bring to Ready", [item], item)
        self.stow = _menu("Put away", [NOTHING, stow], stow)
        self.in_scene = w.Checkbox(value=True, description="In the middle of a scene",
                                   indent=False, layout=shared_layout(width="auto"))
        self.error = ErrorLine()
        self.result = w.HTML()
        self.explanation = ExplanationView()
        self.last: tsl.ReadyChange | None = None
        self._quiet = False
        super().__init__([
            section("What you carry", self.ready, self.stowed, self.worn, self.consumables,
                    self.limit),
            section("The change", self.item, self.stow, self.in_scene),
            self.error,
            section("What it costs", self.result, self.explanation),
        ], "rulebook-tsl-loadout")
        for field in (self.ready, self.stowed, self.worn, self.consumables, self.limit,
                      self.item, self.stow, self.in_scene):
            field.observe(lambda _: self.update(), "value")
        self.update()

    def _menus(self) -> None:
        """Offer the Stowed items to bring out and the Ready ones to put away."""
        self._quiet = True
        try:
            for menu, names, first in ((self.item, _items(self.stowed), ()),
                                       (self.stow, _items(self.ready), (NOTHING,))):
                kept = menu.value
                menu.options = [*first, *names]
                menu.value = kept if kept in menu.options else (menu.options or [None])[0]
        finally:
            self._quiet = False

    @answers("result", "explanation")
    def update(self) -> None:
        """Build the loadout and ready the item (one rules call each)."""
        if self._quiet:
            return
        self.last = None
        self._menus()
        kit = tsl.make_loadout(_items(self.ready), _items(self.stowed), _items(self.worn),
                               _items(self.consumables),
                               ready_limit=parse_int_text("Ready pieces", self.limit.value))
        stow = None if self.stow.value in (NOTHING, None) else self.stow.value
        self.last = done = tsl.ready_item(kit, self.item.value or "", in_scene=self.in_scene.value,
                                          stow=stow)
        self.result.value = (
            f"<div class='rulebook-tsl-result' style='font-size:{TOTAL_SIZE}'>"
            f"{html.escape(self.item.value)}: Stowed → Ready, "
            f"{'an Action' if done.cost == 'Action' else 'free'}</div>"
            f"<div class='rulebook-tsl-ready'>Ready now: "
            f"{html.escape(', '.join(done.loadout.ready))}</div>")
        self.explanation.show(done.trace)


class KeepRoll(_DiceTool):
    """Roll 5d6 and keep the highest few, as many as the tier allows."""

    reaches = (
        Reach(tsl.roll_total, {"tier": "Tier", "shift": "Other tier shifts",
                               "tier_limits": "Beyond the tiers"},
              {"dice": ROLLED, "who": "one roller: the steps need no name"}),
    )

    def __init__(self, tier: str = "Proficient") -> None:
        self.tier = _menu("Tier", tsl.TIERS, tier)
        self.shift = _menu("Other tier shifts", SHIFTS, 0)
        self.tier_limits = _menu("Beyond the tiers", tsl.TIER_LIMITS, "extend")
        self.entry = DiceEntry("5 faces, e.g. 3, 6, 1, 4, 3")
        self.result = w.HTML(self.waiting)
        self.explanation = ExplanationView()
        self.last: tsl.RollTotal | None = None
        super().__init__([self.tier, self.shift, self.tier_limits,
                          section("Roll", self.entry, self.result),
                          section("How it was reached", self.explanation)], "rulebook-tsl-roll")
        self._wait_for_dice(self.tier, self.shift, self.tier_limits)

    @answers("explanation", line="entry.error", waiting=("result",))
    def roll(self, request: RollRequest) -> None:
        """Keep and add up the dice (one rules call)."""
        self.last = None
        request.expect_typed(DICE, f"{DICE} faces")
        self.last = done = tsl.roll_total(request.dice, self.tier.value, self.shift.value,
                                          tier_limits=self.tier_limits.value)
        self.result.value = (
            f"<div class='rulebook-tsl-result' style='font-size:{TOTAL_SIZE}'><b>Total "
            f"{done.value}</b>: {done.outcome} keeps {' + '.join(map(str, done.kept))}</div>"
            f"<div><small>({request.describe()})</small></div>")
        self.explanation.show(done.trace)
