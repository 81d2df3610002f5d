"""A whole TSL fight: the GM's turn board and each fighter's Stress pools, spent armour, broken
weapon and ammunition, filled from the roster and changed by the attacks made in it (§11).

:class:`Fight` is immutable: every move returns a :class:`FightMove` (the new fight, one log line
and the explanation). A roster row is any object read by column key (``row["kind"]``), as
:class:`rulescore.roster.Fighter` is; the keys are those of :data:`.roster.ROSTER`.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field, replace
from typing import Any

from ... import saved
from ...errors import RulesError, require_int, shown
from ...roster import Row
from ...trace import Step, step
from ._system import DATA
from .combat import (
    MAX_USES,
    WEAPON_ZONES,
    Attack,
    Repair,
    Weapon,
    _choice,
    defence_domains,
    make_weapon,
    starting_uses,
)
from .marking import apply_attack
from .pools import (
    FIGHTER_KINDS,
    MAX_POOL,
    POOLS,
    StressPools,
    StressTaken,
    check_pools,
    mark,
    new_pools,
)
from .roster import NO_TAG, NO_WEAPON
from .turns import (
    MAX_COMBATANTS,
    Encounter,
    TurnState,
    board_format,
    encounter_from_dict,
    encounter_to_dict,
    new_encounter,
    next_turn,
    set_order,
    take,
)

FIGHT_FORMAT = "rulebook/tsl-fight"
GEAR = ("armour", "weapon")
ARMOUR = DATA.rule("Armour")
AMMUNITION = DATA.rule("Ammunition")


def row_weapon(row: Row) -> Weapon | None:
    """The weapon a roster row carries (None for a fighter without one)."""
    if row["weapon_zone"] == NO_WEAPON:
        return None
    tags = [] if row["improvised"] else [t for t in (row["tag1"], row["tag2"]) if t != NO_TAG]
    return make_weapon(row["weapon_zone"], tags, rarity=row["rarity"],
                       improvised=row["improvised"])


def gear_rarity(row: Row, what: str) -> str:
    """The rarity of the gear *what* ("armour" or "weapon") a roster row carries: armour and
    weapon are separate gear, each with its own rarity, which decides how it is mended
    (§11 Weapons & Gear, Ammunition)."""
    _choice("what", what, GEAR)
    return row["armour_rarity"] if what == "armour" else row["rarity"]


def weapon_attack(zone: str) -> str:
    """The kind of attack a weapon of *zone* makes on the defence table: a Melee weapon's is a
    melee attack, a Thrown, Sidearm or Ranged weapon's a ranged one (§11 Defence)."""
    _choice("zone", zone, WEAPON_ZONES)
    return "Melee weapon" if zone == "Melee" else "Ranged weapon"


@dataclass(frozen=True)
class Kit:
    """One fighter in the fight: their Stress pools, whether their armour is spent and their
    weapon broken (both until repaired), the ammunition uses left (None: not tracked), and the
    gear of theirs lost for good ("armour", "weapon"): spent or broken and never repaired
    (§11 Ammunition, ruling ``tsl:lost_gear``)."""

    name: str
    pools: StressPools
    armour_spent: bool = False
    weapon_broken: bool = False
    uses: int | None = None
    lost: tuple[str, ...] = ()

    @property
    def broken(self) -> bool:
        """Has a pool filled, so the fighter has Broken (§11 Damage)?"""
        return bool(self.pools.broken_pools)


@dataclass(frozen=True)
class FightMove:
    """One step of a fight: the fight after it, the log line, and how it was reached."""

    fight: Fight
    line: str
    trace: tuple[Step, ...] = ()


def _kit(row: Row) -> Kit:
    """A fighter as they come into the fight: empty pools of their kind's size (or the size
    the roster gives), armour and weapon whole, the weapon zone's starting ammunition."""
    size = row["pool_size"] or None
    weapon = row_weapon(row)
    uses = None if weapon is None else starting_uses(weapon.zone)
    return Kit(row.name, new_pools(row["kind"], size=size), uses=uses)


@dataclass(frozen=True)
class Fight:
    """The GM's turn board (None until the fight starts) and every fighter's kit."""

    encounter: Encounter | None = None
    kits: tuple[Kit, ...] = field(default=())

    # --- reading ---------------------------------------------------------------------------

    def of(self, name: str) -> Kit:
        """The kit of the fighter called *name*."""
        for k in self.kits:
            if k.name == name:
                return k
        names = ", ".join(k.name for k in self.kits) or "nobody yet"
        raise RulesError(f"no fighter called {shown(name)} in the fight (it has {names})")

    def _set(self, kit: Kit) -> Fight:
        return replace(self, kits=tuple(kit if k.name == kit.name else k for k in self.kits))

    def _board(self) -> Encounter:
        if self.encounter is None:
            raise RulesError("the fight has not started: press Start the fight")
        return self.encounter

    @property
    def acting(self) -> str | None:
        return None if self.encounter is None else self.encounter.acting

    # --- starting and joining --------------------------------------------------------------

    def start(self, rows: list[Row]) -> FightMove:
        """The fight begins with the roster's fighters, in the order the GM calls (the roster's
        order; §11 Turn Order: no initiative roll), each with fresh pools and gear."""
        if not rows:
            raise RulesError("the roster is empty: add the fighters first")
        enc = new_encounter([r.name for r in rows])
        fight = Fight(enc, tuple(_kit(r) for r in rows))
        return FightMove(fight, f"The fight starts: {', '.join(enc.order)}",
                         (step("The GM calls the order; no initiative roll",
                               DATA.rule("Turn Order")),))

    def join(self, row: Row) -> FightMove:
        """*row* comes into the fight at the end of the GM's order."""
        enc = self._board()
        if row.name in enc.order:
            raise RulesError(f"{row.name} is in the fight already")
        if len(enc.order) >= MAX_COMBATANTS:
            raise RulesError(f"a fight holds at most {MAX_COMBATANTS} fighters")
        enc = replace(enc, order=enc.order + (row.name,), states=enc.states + (TurnState(),),
                      log=enc.log + (f"Round {enc.round}: {row.name} joins",))
        return FightMove(replace(self, encounter=enc, kits=self.kits + (_kit(row),)),
                         f"{row.name} joins the fight")

    # --- the turn board --------------------------------------------------------------------

    def next_turn(self) -> FightMove:
        """Pass to the next fighter in the GM's order, passing over those who have Broken
        (ruling ``tsl:broken_fighter``); their Action, Movement and Reaction are fresh."""
        enc = next_turn(self._board())
        skipped = []
        for _ in range(len(enc.order) - 1):
            if not self.of(enc.acting).broken:
                break
            skipped.append(enc.acting)
            enc = next_turn(enc)
        trace = [step(f"Round {enc.round}: {enc.acting} acts; Action, Movement and Reaction "
                      "are fresh", DATA.rule("Your Turn"))]
        if skipped:
            trace.append(step(f"{', '.join(skipped)} Broken: passed over",
                              DATA.rule("Damage"), skipped=len(skipped)))
        line = f"Round {enc.round}: {enc.acting} acts" + (
            f" ({', '.join(skipped)} Broken, passed over)" if skipped else "")
        return FightMove(replace(self, encounter=enc), line, tuple(trace))

    def take(self, who: str, option: str, *, ally_zone: str | None = None) -> FightMove:
        """*who* spends *option* on the board (§11 Your Turn, Helping Each Other); a support
        action's Stress cost is marked on their own pool."""
        done = take(self._board(), who, option, ally_zone=ally_zone)
        fight = replace(self, encounter=done.encounter)
        line = f"{who}: {option}"
        trace = list(done.trace)
        if done.value:
            pool = DATA.table("combat", "support_actions").find("action", option)["stress_pool"]
            kit = self.of(who)
            marked = apply_cost(kit.pools, pool, done.value)
            fight = fight._set(replace(kit, pools=marked.pools))
            trace.extend(marked.trace[1:])
            line += f", {done.value} {pool} Stress ({marked.after} of {marked.size})"
        return FightMove(fight, line, tuple(trace))

    def reorder(self, order: list[str]) -> FightMove:
        """The GM re-calls the order of the same fighters."""
        enc = set_order(self._board(), order)
        return FightMove(replace(self, encounter=enc), f"The GM calls {', '.join(enc.order)}")

    # --- attacks ---------------------------------------------------------------------------

    def attack_inputs(self, attacker: Row, target: Row, *, attack_type: str | None = None,
                      distance: str = "Engaged", opposed: bool = True,
                      target_number: int | None = None, armour_fits: bool = False,
                      impact: bool = False, shift: int = 0, defender_shift: int = 0
                      ) -> dict[str, Any]:
        """The keyword arguments of :func:`~.combat.attack` (all but the dice) that the two
        roster rows and the fight give: the attacker's tier in the domain they attack with,
        their weapon and the ammunition it has left; the defender's tier in the domain that
        defends against *attack_type* (§11 Defence) for an opposed roll, or the GM's
        *target_number*; the target's pools; and armour only while the target wears it,
        unspent, and the GM judges it built for this blow (*armour_fits*, §11 Armour).

        An attack that cannot be made is refused: the attacker has Broken, has spent this
        turn's Action (§11 Your Turn), their weapon is broken until repaired, or it has no
        ammunition left (§11 Ammunition)."""
        me, them = self.of(attacker.name), self.of(target.name)
        if attacker.name == target.name:
            raise RulesError(f"target must be another fighter than {attacker.name}")
        if me.broken:
            raise RulesError(f"{attacker.name} has Broken ({', '.join(me.pools.broken_pools)} "
                             "pool full) and cannot attack")
        enc = self.encounter
        if enc is not None and enc.acting == attacker.name and enc.state(
                attacker.name).action_used:
            raise RulesError(f"{attacker.name} has used the Action this turn: press Next turn")
        weapon = row_weapon(attacker)
        if weapon is not None and "weapon" in me.lost:
            raise RulesError(f"{attacker.name}'s weapon is lost for good and cannot attack")
        if weapon is not None and me.weapon_broken:
            raise RulesError(f"{attacker.name}'s weapon is broken and cannot attack until it "
                             "is repaired")
        if weapon is not None and me.uses == 0:
            raise RulesError(f"{attacker.name}'s {weapon.zone} weapon has 0 ammunition uses "
                             "left: it cannot attack until it is restocked")
        kind = attack_type or (weapon_attack(weapon.zone) if weapon else "Melee weapon")
        defends, _ = defence_domains(kind)
        setup: dict[str, Any] = {
            "tier": attacker[f"tier_{attacker['attack_domain'].lower()}"],
            "weapon": weapon, "distance": distance, "attack_type": kind,
            "impact": impact, "shift": shift,
            "armour": bool(armour_fits and target["armour"] and not them.armour_spent),
            "target_pools": them.pools,
        }
        if weapon is not None and me.uses is not None:
            setup["uses"] = me.uses
        if opposed:
            setup["defender_tier"] = target[f"tier_{defends.lower()}"]
            setup["defender_shift"] = defender_shift
        else:
            if target_number is None:
                raise RulesError("target_number is needed when the target does not defend")
            setup["target"] = target_number
        return setup

    def apply(self, attacker: str, target: str, result: Attack) -> FightMove:
        """Write an attack's result to the fight in one step (§11 Damage, Armour, Ammunition).

        The attack spends the attacker's Action on their turn; its Stress is marked on the
        target's pool, and a full pool Breaks them; armour spent by a Catastrophic defence stays
        spent, and a weapon broken stays broken, until repaired; the ammunition left is
        carried to the next attack."""
        if not isinstance(result, Attack):
            raise RulesError(f"result must be an attack's result, got {shown(result)}")
        board = self._board()
        if attacker != board.acting:
            raise RulesError(f"attacker must be {board.acting}, whose turn it is (press Next "
                             f"turn to pass the turn), got {attacker}")
        enc = take(board, attacker, "Action").encounter
        me, them = self.of(attacker), self.of(target)
        taken = apply_attack(them.pools, result)
        fight = replace(self, encounter=enc)._set(replace(
            them, pools=taken.pools, armour_spent=them.armour_spent or result.armour_spent))
        me = fight.of(attacker)
        fight = fight._set(replace(
            me, weapon_broken=me.weapon_broken or result.weapon_breaks,
            uses=me.uses if result.uses_left is None else result.uses_left))
        trace = list(taken.trace)
        line = (f"{attacker} attacks {target}: {result.stress} Stress to the {result.pool} pool "
                f"({taken.after} of {taken.size}" + (", Broken" if taken.pools.broken(
                    result.pool) else "") + ")")
        if result.armour_spent:
            line += f"; {target}'s armour is spent until repaired"
            trace.append(step(f"{target}'s armour is spent until repaired", ARMOUR))
        if result.weapon_breaks:
            line += f"; {attacker}'s weapon breaks"
            trace.append(step(f"{attacker}'s weapon is broken until repaired", AMMUNITION))
        if result.uses_left is not None:
            line += f"; {result.uses_left} uses left"
        return FightMove(fight, line, tuple(trace))

    # --- gear and Stress -------------------------------------------------------------------

    def _mended(self, name: str, what: str) -> tuple[Kit, Any]:
        """*name*'s kit with the gear *what* mended, and the section that spends it; refused
        when that gear is whole, or lost for good (ruling ``tsl:lost_gear``)."""
        _choice("what", what, GEAR)
        kit = self.of(name)
        if what in kit.lost:
            raise RulesError(f"{name}'s {what} is lost for good: it cannot be repaired")
        if what == "armour":
            if not kit.armour_spent:
                raise RulesError(f"{name}'s armour is not spent")
            return replace(kit, armour_spent=False), ARMOUR
        if not kit.weapon_broken:
            raise RulesError(f"{name}'s weapon is not broken")
        return replace(kit, weapon_broken=False), AMMUNITION

    def check_repair(self, name: str, what: str) -> None:
        """Refuse to mend gear of *name* that is whole or lost for good (§11 Armour,
        Ammunition), so a page says so before it asks for a repair roll's dice."""
        self._mended(name, what)

    def repair(self, name: str, what: str, result: Repair) -> FightMove:
        """Apply a mending of *name*'s spent armour or broken weapon, *result* being
        :func:`~.combat.repair` for the gear's rarity (§11 Armour, Ammunition): Issued gear is
        mended with tools and downtime, no roll; rarer gear only when its Hand roll mends it;
        gear whose roll fails stays out of use, to be tried again.

        Irreplaceable gear is destroyed for good ("something irreplaceable may be destroyed
        for good": the GM's ticking Irreplaceable says it is). The primer says nothing of
        replacing it, so the fight records it as lost and it stays out of use for the rest of
        the fight: it is never repaired (ruling ``tsl:lost_gear``)."""
        new, rule = self._mended(name, what)
        if not isinstance(result, Repair):
            raise RulesError(f"result must be a repair resolved for the gear's rarity, got "
                             f"{shown(result)}")
        if result.outcome == "lost":
            kit = self.of(name)
            return FightMove(self._set(replace(kit, lost=kit.lost + (what,))),
                             f"{name}'s {what} is gone for good", result.trace + (
                step(f"{name}'s {what} is lost for good: out of use for the rest of the fight",
                     rule),))
        if result.outcome == "not repaired":
            return FightMove(self, f"{name}'s {what} is not mended (Hand roll {result.value})",
                             result.trace + (step(f"{name}'s {what} stays out of use", rule),))
        how = ("with tools and downtime" if result.outcome == "needs downtime" else
               f"by a Hand roll of {result.value}")
        return FightMove(self._set(new), f"{name}'s {what} is repaired {how}", result.trace + (
            step(f"{name}'s {what} is repaired and works again", rule),))

    def restock(self, name: str, row: Row) -> FightMove:
        """*name*'s weapon is restocked to its zone's starting uses (§11 Ammunition)."""
        weapon = row_weapon(row)
        if weapon is None or starting_uses(weapon.zone) is None:
            raise RulesError(f"{name}'s weapon takes no ammunition")
        full = starting_uses(weapon.zone)
        kit = self.of(name)
        if "weapon" in kit.lost:
            raise RulesError(f"{name}'s weapon is lost for good: there is nothing to restock")
        return FightMove(self._set(replace(kit, uses=full)),
                         f"{name} restocks: {full} uses",
                         (step(f"Restocked in the fiction: {full} uses", AMMUNITION),))

    def set_stress(self, name: str, pool: str, stress: int) -> FightMove:
        """The GM sets the Stress on one of *name*'s pools (Stress taken off, or marked by a
        rule outside the fight page; ruling ``tsl:stress_pool_size``)."""
        kit = self.of(name)
        _choice("pool", pool, POOLS)
        require_int("stress", stress, minimum=0, maximum=kit.pools.size(pool))
        i = POOLS.index(pool)
        marked = kit.pools.marked[:i] + (stress,) + kit.pools.marked[i + 1:]
        before = kit.pools.stress(pool)
        return FightMove(self._set(replace(kit, pools=replace(kit.pools, marked=marked))),
                         f"{name}: {pool} Stress {before} → {stress}")

    # --- the roster ------------------------------------------------------------------------

    def rename(self, old: str, new: str) -> Fight:
        """The fight after the roster row *old* is renamed *new*: their place on the board and
        their kit carry over. A row not in the fight changes nothing."""
        for label, value in (("old", old), ("new", new)):
            if not isinstance(value, str) or not value.strip():
                raise RulesError(f"{label} must be a fighter's name, got {shown(value)}")
        if old == new or all(k.name != old for k in self.kits):
            return self
        if any(k.name == new for k in self.kits):
            raise RulesError(f"Name {shown(new)} is a fighter's name in the fight already: "
                             "pick another")
        kits = tuple(replace(k, name=new) if k.name == old else k for k in self.kits)
        enc = self.encounter
        if enc is not None:
            enc = replace(enc, order=tuple(new if n == old else n for n in enc.order))
        return Fight(enc, kits)

    # --- saving ----------------------------------------------------------------------------

    def to_json(self) -> str:
        """The fight as JSON text (the page's history is kept by the page)."""
        return json.dumps({
            "format": FIGHT_FORMAT, "version": 1,
            "board": None if self.encounter is None else encounter_to_dict(self.encounter),
            "kits": [{"name": k.name, "kind": k.pools.kind, "sizes": list(k.pools.sizes),
                      "marked": list(k.pools.marked), "armour_spent": k.armour_spent,
                      "weapon_broken": k.weapon_broken, "uses": k.uses, "lost": list(k.lost)}
                     for k in self.kits]},
            separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Fight:
        """Read :meth:`to_json`'s text; a RulesError names the first wrong field."""
        fmt = fight_format()
        body = saved.read(fmt, text)
        try:
            kits = tuple(_read_kit(item, i) for i, item in enumerate(body["kits"], start=1))
            names = [k.name for k in kits]
            if len(set(names)) != len(names):
                raise RulesError("kits must have distinct names")
            enc = None
            if body["board"] is not None:
                enc = encounter_from_dict(body["board"])
                if sorted(enc.order) != sorted(names):
                    raise RulesError("board must list the same fighters as kits")
        except RulesError as exc:
            raise RulesError(f"{fmt.noun}: {exc}") from None
        return cls(enc, kits)


def apply_cost(pools: StressPools, pool: str, cost: int) -> StressTaken:
    """A support action's Stress cost marked on the user's own *pool* (§11 Support Actions)."""
    return mark(pools, pool, cost, f"The action costs {cost} {pool} Stress",
                "Helping Each Other: Support Actions")


def _read_kit(item: dict, i: int) -> Kit:
    """One checked kit; its marked Stress must fit its pools, and gear lost for good is spent
    or broken, each piece once (a kit saved without ``lost`` has lost nothing)."""
    pools = StressPools(item["kind"], tuple(item["sizes"]), tuple(item["marked"]))
    check_pools(pools, f"kits[{i}]")
    lost = tuple(item.get("lost", ()))
    if len(set(lost)) != len(lost):
        raise RulesError(f"kits[{i}].lost must name each piece of gear once, got {list(lost)}")
    out_of_use = {"armour": item["armour_spent"], "weapon": item["weapon_broken"]}
    for what in lost:
        if not out_of_use[what]:
            raise RulesError(f"kits[{i}].lost holds {what}, so its {what} must be "
                             f"{'spent' if what == 'armour' else 'broken'}")
    return Kit(item["name"], pools, item["armour_spent"], item["weapon_broken"], item["uses"],
               lost)


@functools.cache
def fight_format() -> saved.SavedFormat:
    """The fight page's saved state, field by field (see :mod:`rulescore.saved`)."""
    size = saved.Int(0, MAX_POOL)
    kit = saved.Record({
        "name": saved.Text(saved.NAME_LENGTH, blank=False),
        "kind": saved.Text(10, FIGHTER_KINDS),
        "sizes": saved.ListOf(size, 3, min_items=3), "marked": saved.ListOf(size, 3, min_items=3),
        "armour_spent": saved.Flag(), "weapon_broken": saved.Flag(),
        "uses": saved.Maybe(saved.Int(0, MAX_USES)),
        "lost": saved.ListOf(saved.Text(6, GEAR), len(GEAR))}, optional=frozenset({"lost"}))
    board = saved.Record(_board_fields(),
                         optional=frozenset({"log", "format", "version"}))
    return saved.SavedFormat("TSL fight", FIGHT_FORMAT, 1, saved.Record({
        "board": saved.Maybe(board), "kits": saved.ListOf(kit, MAX_COMBATANTS)}))


def _board_fields() -> dict:
    """A saved board's fields (:func:`.turns.board_format`), its format and version beside."""
    fmt = board_format()
    return {"format": saved.Text(40, (fmt.name,)), "version": saved.Int(1, 1),
            **fmt.body.fields}
