"""A whole exploding-d6 fight: the initiative order, whose turn it is, each fighter's actions
(those kept back are their saved reactions), wounds and what is left of their protection pool,
changed by turns, actions and the results of attacks (§Start of combat, §Sequence of rounds,
§Actor and actions, §Reactions, §Protection Pool, §Wounds).

:class:`Fight` is immutable: every move returns a :class:`Move` (the new fight, one log line,
and the explanation). A roster row is any object read by column key (``row["quickness"]``), as
:class:`rulescore.roster.Fighter` is; the keys are those of :data:`.roster.ROSTER`. The attack
itself is rolled by :func:`.pipeline.attack` (the hit roll, the defender's reaction, cover,
protection and wounds as one flow); :meth:`Fight.attack_inputs` fills its inputs from the two
rows and the fight, and :meth:`Fight.apply_attack` writes its result back.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING, Any

from ... import saved
from ...roster import Row
from ...errors import RulesError, require_int, shown
from ...trace import Step, step
from ._system import DATA
from .defence import _cover, dodge_value, protection_use, shield_use
from .hits import attack_mode, unarmed_attack
from .inputs import MAX_DICE, MAX_TOTAL, plural
from .odds import hit_odds, p_total_at_least
from .roster import MAX_ROUNDS as MAX_LOADED
from .roster import NO_SHIELD
from .turns import (
    MAX_ACTIONS,
    MAX_AVAILABLE,
    MAX_COMBATANTS,
    ActionPool,
    Initiative,
    InitiativeOrder,
    bonus_die_action,
    destiny_die_action,
    max_actions,
    spend,
)

if TYPE_CHECKING:
    from .pipeline import AttackFlow

__all__ = [
    "FIGHT_FORMAT",
    "LANDING_ODDS_DICE",
    "Combatant",
    "Fight",
    "Move",
    "Row",
    "contest_odds",
    "fight_format",
    "landing_odds",
    "other_actions",
]

FIGHT_FORMAT = "rulebook/x6-fight"
MAX_WOUNDS = 9999     # far past any fight; bounds the saved file
MAX_ATTACKS = 100     # attacks by one fighter in one round
MAX_ROUNDS = 10_000
MAX_AIM = 40          # aiming actions gathered for one attack: past any Perception cap
AIM_ACTIONS = ("aim", "accurate")
"""The actions of the actions table that gather aim for the fighter's next attack (§Aiming,
§Accurate Attack)."""
LANDING_ODDS_DICE = 12
"""The largest hit or reaction pool :func:`landing_odds` works out (as the wound odds do)."""
REACTION_ACTIONS = ("dodge", "parry")
"""The actions of the actions table a fighter spends as a reaction (a shield parry is one
action too, §Shields)."""


def other_actions() -> tuple[tuple[str, str], ...]:
    """(action, label) of each action of the actions table a fighter takes in their turn
    besides an attack: not a reaction, and not walking, which goes alongside another action
    (§Actor and actions)."""
    return tuple((r["action"], r["label"]) for r in DATA.table("combat", "actions")
                 if r["action"] not in ("attack", "walk") + REACTION_ACTIONS)


@dataclass(frozen=True)
class Combatant:
    """One fighter in the fight: their initiative (and the Quickness and Deftness that break
    its ties), the most actions a round and those in hand, whether their first turn has come
    (nobody has actions before it), the attacks they made this round (recoil), wounds taken
    and the protection units left (and of them, those against criticals); the rounds in their
    weapon and the most it holds (assumption ``ammunition_load``); the actions of aiming and of
    an accurate attack gathered for their next attack (§Aiming, §Accurate Attack); the round
    from which their Shield Block covers them (0: no block, §Shields); the actions a destiny
    die took from their next turn (§Bonus dice actions); whether a K.O. attack knocked them out
    (§K.O. Attack, assumption ``knocked_out``) and whether a disarming attack took their weapon
    (§Disarming attack, assumption ``disarmed_weapon``)."""

    name: str
    pc: bool
    initiative: int
    quickness: int
    deftness: int
    maximum: int
    available: int = 0
    started: bool = False
    attacks: int = 0
    wounds: int = 0
    protection: int = 0
    critical_protection: int = 0
    ammunition: int = 0
    magazine: int = 0
    aim: int = 0
    accurate: int = 0
    block_from: int = 0
    stolen: int = 0
    knocked_out: bool = False
    disarmed: bool = False

    @property
    def key(self) -> tuple[int, int, int]:
        """Where they act: highest initiative first, ties to Quickness, then Deftness."""
        return (-self.initiative, -self.quickness, -self.deftness)

    @property
    def pool(self) -> ActionPool:
        return ActionPool(self.maximum, self.available)

    def blocking(self, round_: int) -> bool:
        """Whether their Shield Block covers them in round *round_*: from the round after the
        one it was raised in, until lowered (§Shields)."""
        return 0 < self.block_from <= round_


@dataclass(frozen=True)
class Move:
    """One step of a fight: the fight after it, the log line, and how it was reached."""

    fight: Fight
    line: str
    trace: tuple[Step, ...] = ()


@dataclass(frozen=True)
class Fight:
    """The combatants in initiative order, the round (0 before the first turn) and the index
    of the fighter whose turn it is (-1 before the first turn)."""

    combatants: tuple[Combatant, ...] = ()
    round: int = 0
    turn: int = -1

    # --- reading ---------------------------------------------------------------------------

    def of(self, name: str) -> Combatant:
        """The combatant called *name*."""
        for c in self.combatants:
            if c.name == name:
                return c
        names = ", ".join(c.name for c in self.combatants) or "nobody yet"
        raise RulesError(f"no fighter called {shown(name)} in the fight (it has {names})")

    @property
    def actor(self) -> Combatant | None:
        """The fighter whose turn it is (None before the first turn)."""
        return self.combatants[self.turn] if self.turn >= 0 else None

    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.combatants)

    def _set(self, c: Combatant) -> Fight:
        return replace(self, combatants=tuple(c if x.name == c.name else x
                                              for x in self.combatants))

    # --- joining ---------------------------------------------------------------------------

    def join(self, rows: Sequence[Row], order: InitiativeOrder) -> Move:
        """Put roster fighters into the fight by their initiative (*order*, from
        :func:`~.turns.initiative_table` over the same rows): highest first, ties to
        Quickness then Deftness (§Start of combat), with the actions a round their lineage,
        templates and two weapons give (§Actor and actions, §Two-handed fighting) but none in
        hand before their first turn, and their whole protection pool (§Protection Pool).
        A fight not yet begun begins: round 1, and the first fighter's actions are refreshed.
        Someone joining later waits for their place in the order."""
        by_name = {r.name: r for r in rows}
        rolls: dict[str, Initiative] = {r.name: r for r in order.rolls}
        if set(by_name) != set(rolls):
            raise RulesError("the initiative order must roll for exactly the fighters joining, "
                             f"got rolls for {', '.join(rolls) or 'nobody'} and fighters "
                             f"{', '.join(by_name) or 'nobody'}")
        here = [n for n in by_name if n in self.names()]
        if here:
            raise RulesError(f"{', '.join(here)} {'is' if len(here) == 1 else 'are'} in the "
                             "fight already")
        if len(self.combatants) + len(by_name) > MAX_COMBATANTS:
            raise RulesError(f"a fight holds at most {MAX_COMBATANTS} fighters")
        new = [self._combatant(by_name[n], rolls[n]) for n in order.order]
        actor = self.actor
        everyone = sorted(self.combatants + tuple(new), key=lambda c: c.key)  # stable: ties
        fight = replace(self, combatants=tuple(everyone))
        steps = list(order.trace)
        line = "Initiative: " + ", ".join(f"{c.name} {c.initiative}" for c in new)
        if actor is not None:
            return Move(replace(fight, turn=fight.names().index(actor.name)), line,
                        tuple(steps))
        begun = fight._begin_turn(0, 1)
        steps.append(step(f"Round 1: {begun.actor.name} acts first; "
                          f"{plural(begun.actor.available, 'action')} refreshed",
                          DATA.rule("Sequence of rounds")))
        return Move(begun, f"{line}; round 1, {begun.actor.name} acts", tuple(steps))

    @staticmethod
    def _combatant(row: Row, roll: Initiative) -> Combatant:
        most = max_actions(row["lineage"], row["extra_actions"], row["two_weapons"])
        pool = row["protection"]
        return Combatant(row.name, bool(row.pc), roll.value, roll.quickness, roll.deftness,
                         most, protection=pool,
                         critical_protection=min(row["critical_protection"], pool),
                         ammunition=row["magazine"], magazine=row["magazine"])

    # --- turns -----------------------------------------------------------------------------

    def _begin_turn(self, index: int, round_: int) -> Fight:
        """The start of a fighter's player combat round: their actions are refreshed to the
        most a round, less those a destiny die stole from this turn (§Bonus dice actions), and
        recoil starts again (§Actor and actions, §Recoil)."""
        c = self.combatants[index]
        hand = 0 if c.knocked_out else max(0, c.maximum - c.stolen)
        fresh = replace(c, available=hand, started=True, attacks=0, stolen=0)
        return replace(self._set(fresh), turn=index, round=round_)

    def next_turn(self) -> Move:
        """End the actor's turn and start the next fighter's (§Sequence of rounds): after the
        last, a new round starts with the first. Actions the actor kept stay in hand as
        saved reactions until their next turn refreshes them."""
        if not self.combatants:
            raise RulesError("nobody is in the fight yet: roll initiative for the roster first")
        index, round_ = self.turn + 1, self.round
        steps = []
        if index >= len(self.combatants):
            index, round_ = 0, self.round + 1
            steps.append(step(f"End of round {self.round}; round {round_} begins",
                              DATA.rule("Sequence of rounds")))
        fight = self._begin_turn(index, max(round_, 1))
        c = fight.actor
        if c.knocked_out:
            steps.append(step(f"{c.name} is knocked out: no actions this turn",
                              DATA.rule("K.O. Attack")))
        else:
            steps.append(step(f"{c.name}'s turn: {plural(c.maximum, 'action')} refreshed",
                              DATA.rule("Actor and actions")))
        taken = self.combatants[index].stolen
        if taken:
            steps.append(step(f"A destiny die stole {plural(taken, 'action')} of this turn: "
                              f"{c.available} left", DATA.rule("Bonus dice actions")))
        before = self.actor
        kept = (f"; {before.name} keeps {plural(before.available, 'action')} to react"
                if before is not None and before.available else "")
        out = " (knocked out: no actions)" if c.knocked_out else ""
        return Move(fight, f"Round {fight.round}: {c.name}'s turn{out}{kept}", tuple(steps))

    def _require_turn(self, name: str) -> Combatant:
        c = self._awake(name)
        actor = self.actor
        if actor is None or actor.name != name:
            now = "nobody's turn yet" if actor is None else f"{actor.name}'s turn"
            raise RulesError(f"{name} acts only in their own turn, and it is {now} (press "
                             "Next turn)")
        return c

    def _awake(self, name: str) -> Combatant:
        """The combatant *name*, refused while a K.O. attack has them knocked out: they take
        no actions, reactions included (§K.O. Attack, assumption ``knocked_out``)."""
        c = self.of(name)
        if c.knocked_out:
            raise RulesError(f"{name} is knocked out and takes no actions until they come to "
                             "(Other actions: Comes to)")
        return c

    def act(self, name: str, action: str, *, row: Row | None = None) -> Move:
        """The actor spends actions on *action* from the actions table (§Actor and actions);
        a dodge or a parry is a reaction, spent by a fighter outside their turn (§Reactions).

        Aiming ("aim", "accurate") is gathered for the fighter's next attack, over turns too,
        with a weapon that can be aimed (its attack mode in their roster *row*, when given;
        §Aiming, §Accurate Attack; assumption ``hit_while_aiming``); any other action gives up
        an accurate attack's gathered actions. Reloading fills the weapon to the rounds it
        holds (the roster *row*'s Rounds loaded when given, else those it entered the fight
        with; assumption ``ammunition_load``)."""
        c = self._awake(name) if action in REACTION_ACTIONS else self._require_turn(name)
        if action in REACTION_ACTIONS and not c.started:
            raise RulesError(f"{name} has no actions before their first turn")
        if row is not None and row.name != name:
            raise RulesError(f"the roster row must be {name}'s, got {row.name}'s")
        weapon = attack_mode(row["mode"]) if row is not None else None
        if action in AIM_ACTIONS and weapon is not None and not weapon["aim"]:
            raise RulesError(f"Other action: {name}'s weapon ({weapon['label']}) "
                             "cannot be aimed; only a melee weapon or a single shot can")
        if row is not None:
            c = replace(c, magazine=row["magazine"], ammunition=min(c.ammunition,
                                                                    row["magazine"]))
        if action == "reload" and not c.magazine:
            raise RulesError(f"Other action: {name}'s weapon holds no rounds (Rounds loaded "
                             "is 0 in the roster), so there is nothing to reload")
        spent = spend(c.pool, action)
        after = replace(c, available=spent.pool.available)
        steps = list(spent.trace)
        if action == "aim":
            after = replace(after, aim=min(c.aim + 1, MAX_AIM))
            steps.append(step(f"{name} has aimed {plural(after.aim, 'action')} for the next "
                              "attack", DATA.rule("Aiming")))
        elif action == "accurate":
            after = replace(after, accurate=min(c.accurate + 1, MAX_AIM))
            steps.append(step(f"{name} has gathered {plural(after.accurate, 'action')} for an "
                              "accurate attack", DATA.rule("Accurate Attack")))
        elif action == "reload":
            after = replace(after, ammunition=c.magazine)
            steps.append(step(f"{name}'s weapon reloaded: {c.ammunition} → {c.magazine} "
                              "rounds", DATA.rule("Single shot")))
        if action != "accurate":
            after, given_up = _give_up_accurate(after)
            steps += given_up
        return Move(self._set(after), f"{name}: {spent.trace[0].text}", tuple(steps))

    def destiny_die(self, name: str, victim: str) -> Move:
        """*name* spends a destiny die to steal an action from *victim* (§Bonus dice actions):
        *name* has it at once, even as a reaction; *victim* loses one from this turn if it is
        theirs (never below 0, assumption ``steal_empty``), else from their next turn."""
        c, v = self._awake(name), self.of(victim)
        if v.name == c.name:
            raise RulesError(f"Steal from must be another fighter than {name}")
        actor = self.actor
        theirs = actor is not None and actor.name == v.name
        got = destiny_die_action(c.pool, v.pool)
        if got.pool.available > MAX_AVAILABLE:
            raise RulesError(f"{name} holds {MAX_AVAILABLE} actions, the most a fighter holds")
        fight = self._set(replace(c, available=got.pool.available, started=True))
        if theirs:
            fight = fight._set(replace(v, available=got.victim.available))
            lost = f"{victim} has {plural(got.victim.available, 'action')} left this turn"
        else:
            fight = fight._set(replace(v, stolen=min(v.stolen + 1, MAX_ACTIONS)))
            lost = f"{victim}'s next turn has one action fewer"
        ref = DATA.rule("Bonus dice actions")
        steps = (step(f"{name} spends a destiny die and has the action at once: "
                      f"{plural(got.pool.available, 'action')}", ref),
                 step(f"Stolen from {victim}: {lost}", ref))
        return Move(fight, f"{name} steals an action from {victim} with a destiny die", steps)

    def shield_block(self, row: Row, up: bool = True) -> Move:
        """Raise a Shield Block: two actions in one's own turn, covering every attack against
        the fighter at the shield's value from the next round on, with movement halved, until
        it is lowered; lowering it takes no action (§Shields)."""
        if not isinstance(up, bool):
            raise RulesError(f"up must be True (raise) or False (lower), got {shown(up)}")
        c = self.of(row.name)
        if not up:
            if not c.block_from:
                raise RulesError(f"{c.name} has no Shield Block raised to lower")
            return Move(self._set(replace(c, block_from=0)),
                        f"{c.name} lowers the shield",
                        (step(f"{c.name}'s Shield Block ends; movement is whole again",
                              DATA.rule("Shields")),))
        c = self._require_turn(row.name)
        if row["shield"] == NO_SHIELD:
            raise RulesError(f"Shield Block: {c.name} has no shield in the roster")
        if c.block_from:
            raise RulesError(f"Shield Block: {c.name}'s shield is raised already")
        use = shield_use("block", row["shield"])
        if c.available < use.actions:
            raise RulesError(f"Shield Block: it takes {use.actions} actions and {c.name} has "
                             f"{plural(c.available, 'action')} left")
        after, given_up = _give_up_accurate(replace(c, available=c.available - use.actions,
                                                    block_from=self.round + 1))
        steps = use.trace + (step(f"{c.name}'s shield covers {use.cover}+ from round "
                                  f"{self.round + 1}", DATA.rule("Shields")),) + given_up
        return Move(self._set(after), f"{c.name} raises a Shield Block ({use.cover}+ from "
                    f"round {self.round + 1})", steps)

    def bonus_die(self, name: str) -> Move:
        """A bonus die spent for one more action, at once, even as a reaction (§Bonus dice
        actions)."""
        c = self._awake(name)
        got = bonus_die_action(c.pool)
        if got.pool.available > MAX_AVAILABLE:
            raise RulesError(f"{name} holds {MAX_AVAILABLE} actions, the most a fighter holds")
        return Move(self._set(replace(c, available=got.pool.available, started=True)),
                    f"{name} spends a bonus die: {plural(got.pool.available, 'action')}",
                    got.trace)

    def pick_up(self, name: str) -> Move:
        """A disarmed fighter picks their weapon up in their own turn: one action, as an action
        not on the list normally takes (§Arbitrary actions; §Disarming attack is silent on
        getting it back, assumption ``disarmed_weapon``). Until then they fight unarmed."""
        c = self._require_turn(name)
        if not c.disarmed:
            raise RulesError(f"Pick up weapon: {name} has not been disarmed")
        spent = spend(c.pool, "arbitrary")
        after, given_up = _give_up_accurate(replace(c, available=spent.pool.available,
                                                    disarmed=False))
        steps = spent.trace + (step(f"{name} picks the weapon up and fights with it again",
                                    DATA.rule("Disarming attack")),) + given_up
        return Move(self._set(after), f"{name} picks the weapon up", steps)

    def come_to(self, name: str) -> Move:
        """A knocked-out fighter comes to when the GM says so: no action, and their actions
        come back with their next turn (§K.O. Attack is silent on how long it lasts,
        assumption ``knocked_out``)."""
        c = self.of(name)
        if not c.knocked_out:
            raise RulesError(f"Comes to: {name} is not knocked out")
        return Move(self._set(replace(c, knocked_out=False)), f"{name} comes to",
                    (step(f"{name} comes to; their actions come back with their next turn",
                          DATA.rule("K.O. Attack")),))

    # --- attacks ---------------------------------------------------------------------------

    def reactions(self, target: Row, mode_can: dict[str, bool]) -> tuple[str, ...]:
        """The reactions *target* can make to an attack: none always; a dodge or a parry when
        the attack's mode allows it (*mode_can*, its ``dodge`` and ``parry``), a shield parry
        with a shield not raised in a Shield Block (which covers already); any of them only
        with an action in hand (§Reactions, §Dodge, §Parry melee attacks, §Shields)."""
        c = self.of(target.name)
        if c.available < 1 or c.knocked_out:
            return ("none",)
        out = ["none"]
        # a disarmed fighter has no weapon to parry with (§Parry melee attacks)
        out += [k for k in ("dodge", "parry") if mode_can.get(k)
                and not (k == "parry" and c.disarmed)]
        if target["shield"] != NO_SHIELD and not c.blocking(self.round):
            out.append("shield parry")
        return tuple(out)

    def attack_inputs(self, attacker: Row, target: Row, *, reaction: str = "none",
                      aim_actions: int = 0, accurate_actions: int = 0,
                      massive_actions: int = 0, special: str = "none",
                      off_hand: bool = False, walking: bool = False,
                      supported: bool = False, distance: int | None = None,
                      cover: int | None = None, stacking: str = "best"
                      ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The inputs of an attack that the two roster rows and the fight give: the keyword
        arguments of :func:`~.hits.attack_setup` (the attacker's skill, weapon dice, mode,
        minimum roll (§The hit roll), Perception and Strength, this round's attacks for recoil, the weapon's compensation
        and recoil, its distance when *distance* is given, and the options chosen), and those
        of the attack flow after the hit roll: the target's protection left (and of it against
        criticals), the weapon's Piercing and wounds a hit, and the *reaction*'s own dice and
        minimum roll (a dodge rolls the Dodge value, a parry the target's weapon as if
        attacking, §Dodge, §Parry melee attacks; both on the target's minimum roll), the
        target's shield, and the *cover* the attack meets: the terrain's, or the target's
        Shield Block's (§Shields), the better of the two when both (*stacking* "best",
        assumption ``cover_stacking``), or with "each" the block's roll and then the
        terrain's (``shield_block`` in the flow). Aiming and accurate-attack actions gathered on earlier
        actions or turns count with those of this attack (§Aiming, §Accurate Attack). A shot
        needs the rounds its mode spends in the weapon (§Attack modes, assumption
        ``ammunition_load``). A K.O. attack needs a blunt weapon (§K.O. Attack), an off-hand
        attack two weapons (§Two-handed fighting)."""
        me = self._require_turn(attacker.name)
        them = self.of(target.name)
        if them.name == me.name:
            raise RulesError("Target must be another fighter than the one attacking")
        if special == "ko" and me.disarmed:
            raise RulesError(f"Special attack: a K.O. attack needs a blunt weapon, and "
                             f"{attacker.name} has been disarmed (Other actions: Pick up "
                             "weapon)")
        if special == "ko" and not attacker["blunt"]:
            raise RulesError(f"Special attack: a K.O. attack needs a blunt weapon, and "
                             f"{attacker.name}'s is not marked Blunt in the roster")
        if off_hand and not attacker["two_weapons"]:
            raise RulesError(f"Off hand: {attacker.name} fights with one weapon (Two weapons "
                             "is off in the roster)")
        cost = self.attack_cost(aim_actions, accurate_actions, massive_actions)
        if me.available < cost:
            raise RulesError(f"{me.name} has {plural(me.available, 'action')} left and this "
                             f"attack costs {cost}")
        mode = attack_mode("melee" if me.disarmed else attacker["mode"])
        if me.ammunition < mode["ammunition"]:
            raise RulesError(f"{me.name} has {plural(me.ammunition, 'round')} left and a "
                             f"{mode['label'].lower()} takes {mode['ammunition']}: reload first "
                             "(Other actions: Reload a weapon)")
        if stacking not in ("best", "each"):
            raise RulesError(f"Shield and cover must be Better one or A roll each, got "
                             f"{shown(stacking)}")
        if cover is not None:
            _cover(cover)
        block = False
        if them.blocking(self.round) and target["shield"] != NO_SHIELD:
            shield = shield_use("block", target["shield"]).cover
            if cover is not None and stacking == "each":
                block = True   # the shield's roll, then the terrain's (cover_stacking)
            else:
                cover = shield if cover is None else min(shield, cover)
        setup = {
            "skill": attacker["skill"], "weapon_dice": attacker["weapon_dice"],
            "mode": attacker["mode"], "min_roll": attacker["min_roll"],
            "attack_number": me.attacks + 1,
            "compensation": attacker["compensation"], "recoil": attacker["recoil"],
            "aim_actions": min(me.aim + aim_actions, MAX_AIM),
            "accurate_actions": min(me.accurate + accurate_actions, MAX_AIM),
            "perception": attacker["perception"], "strength": attacker["strength"],
            "massive_actions": massive_actions, "special": special, "off_hand": off_hand,
            "walking": walking, "supported": supported,
        }
        if distance is not None:
            setup |= {"distance": distance, "weapon_range": attacker["weapon_range"]}
        flow: dict[str, Any] = {
            "mode": attacker["mode"], "reaction": reaction, "pool": them.protection,
            "critical_pool": them.critical_protection, "piercing": attacker["piercing"],
            "wounds_per_hit": attacker["wounds_per_hit"], "cover": cover,
        }
        if block:
            flow |= {"shield_block": True, "shield": target["shield"], "stacking": stacking}
        if me.disarmed:
            setup, flow = self._unarmed(attacker, setup, flow, distance)
        if reaction != "none":
            if them.available < 1:
                raise RulesError(f"{them.name} has no action left to react with")
            if reaction == "shield parry":
                if target["shield"] == NO_SHIELD:
                    raise RulesError(f"{them.name} has no shield in the roster")
                flow |= {"shield": target["shield"], "reaction_dice": None}
            else:
                flow |= {"reaction_dice": self.reaction_dice(target, reaction),
                         "reaction_min_roll": target["min_roll"]}
        return setup, flow

    @staticmethod
    def _unarmed(attacker: Row, setup: dict[str, Any], flow: dict[str, Any],
                 distance: int | None) -> tuple[dict[str, Any], dict[str, Any]]:
        """A disarmed attacker's fists (§Weaponless melee): the row's Weapon skill as their
        Hand-to-hand (the roster keeps one skill a fighter, assumption ``disarmed_weapon``),
        a die more with Quickness above 2, Piercing 1 with Strength above 2, one wound a hit,
        reach 1 m, no weapon dice, recoil or ammunition."""
        fists = unarmed_attack(attacker["skill"], attacker["strength"], attacker["quickness"])
        setup = setup | {"skill": fists.dice, "weapon_dice": 0, "mode": "melee",
                         "compensation": 0, "recoil": False, "supported": False}
        if distance is not None:
            setup["weapon_range"] = fists.reach
        return setup, flow | {"mode": "melee", "piercing": fists.piercing,
                              "wounds_per_hit": 1}

    @staticmethod
    def attack_cost(aim_actions: int = 0, accurate_actions: int = 0,
                    massive_actions: int = 0) -> int:
        """Actions an attack takes (§Actor and actions): one, plus each action of aiming,
        of an accurate attack and of a massive attack spent on it (§Aiming, §Accurate
        Attack, §Massive attack)."""
        extra = [require_int(n, v, minimum=0, maximum=MAX_ACTIONS) for n, v in (
            ("Aim actions", aim_actions), ("Accurate actions", accurate_actions),
            ("Massive actions", massive_actions))]
        return 1 + sum(extra)

    @staticmethod
    def reaction_dice(target: Row, reaction: str) -> int:
        """How many dice *target*'s *reaction* rolls: the Dodge value for a dodge (§Dodge),
        the parrying weapon's skill + weapon dice for a parry (§Parry melee attacks: rolled
        as if attacking with it)."""
        if reaction == "dodge":
            return dodge_value(target["lineage_dodge"], target["quickness"],
                               target["deftness"], target["load"])
        if reaction == "parry":
            return min(target["skill"] + target["weapon_dice"], MAX_DICE)
        raise RulesError(f"Reaction {shown(reaction)} rolls no exploding dice of its own")

    def apply_attack(self, attacker: str, target: str, result: AttackFlow, *,
                     cost: int = 1, ammunition: int = 0) -> Move:
        """Write an attack's result to the fight in one step: the attacker spends *cost*
        actions (:meth:`attack_cost`) and *ammunition* rounds (the attack's mode, §Attack
        modes), counts one more attack this round (recoil) and has used the aim they gathered
        (§Aiming, §Accurate Attack); the target spends the action their reaction took
        (§Reactions), which gives up an accurate attack they were gathering, loses their aim
        if a hit got through (assumption ``hit_while_aiming``), their protection pool keeps
        what the attack left of it (§Protection Pool), and the wounds are added to those
        taken (§Wounds)."""
        me = self._require_turn(attacker)
        them = self.of(target)
        if them.name == me.name:
            raise RulesError("Target must be another fighter than the one attacking")
        require_int("cost", cost, minimum=1, maximum=MAX_ACTIONS)
        require_int("ammunition", ammunition, minimum=0, maximum=MAX_LOADED)
        if me.ammunition < ammunition:
            raise RulesError(f"{me.name} has {plural(me.ammunition, 'round')} left and this "
                             f"attack takes {ammunition}: reload first")
        if me.available < cost:
            raise RulesError(f"{me.name} has {plural(me.available, 'action')} left and this "
                             f"attack costs {cost}")
        reacting = result.reaction_actions
        if reacting and them.available < reacting:
            raise RulesError(f"{them.name} has no action left to react with")
        prot = result.protection
        rolled_against = prot.pool_left + prot.spent
        if rolled_against != them.protection or prot.critical_pool_left > min(
                them.critical_protection, prot.pool_left):
            raise RulesError(f"this attack was rolled against a protection pool of "
                             f"{rolled_against}, and {them.name} has {them.protection} now: "
                             "roll it again for the fight as it stands")
        fight = self._set(replace(me, available=me.available - cost,
                                  attacks=min(me.attacks + 1, MAX_ATTACKS),
                                  ammunition=me.ammunition - ammunition, aim=0, accurate=0))
        landed = result.hits + result.criticals > 0
        contest = result.contest
        out = them.knocked_out or (contest is not None and contest.outcome == "knocked out")
        hurt = replace(fight.of(target), available=0 if out else them.available - reacting,
                       wounds=min(them.wounds + result.value, MAX_WOUNDS),
                       protection=prot.pool_left,
                       critical_protection=prot.critical_pool_left,
                       aim=0 if landed or out else them.aim, knocked_out=out,
                       disarmed=them.disarmed or (contest is not None
                                                  and contest.outcome == "disarmed"))
        given_up: tuple[Step, ...] = ()
        if reacting:
            hurt, given_up = _give_up_accurate(hurt)
        fight = fight._set(hurt)
        steps = [step(f"{me.name} spends {plural(cost, 'action')} on the attack; "
                      f"{fight.of(attacker).available} left", DATA.rule("Actor and actions"))]
        if ammunition:
            steps.append(step(f"{me.name}'s weapon: {me.ammunition} → "
                              f"{me.ammunition - ammunition} rounds", DATA.rule("Attack modes")))
        if landed and them.aim:
            steps.append(step(f"{them.name} was hit while aiming: the aim of "
                              f"{plural(them.aim, 'action')} is lost", DATA.rule("Aiming")))
        steps += given_up
        if reacting:
            steps.append(step(f"{them.name}'s {result.reaction.kind} costs an action; "
                              f"{hurt.available} left", DATA.rule("Reactions")))
        if prot.spent:
            steps.append(step(f"{them.name}'s protection pool: {them.protection} → "
                              f"{hurt.protection} units", DATA.rule("Protection Pool")))
        steps.append(step(f"{them.name}'s wounds: {them.wounds} → {hurt.wounds}",
                          DATA.rule("Wounds")))
        if hurt.knocked_out and not them.knocked_out:
            steps.append(step(f"{them.name} is knocked out: no actions, reactions included, "
                              "until they come to", DATA.rule("K.O. Attack")))
        if hurt.disarmed and not them.disarmed:
            steps.append(step(f"{them.name} is disarmed: they fight unarmed until they spend "
                              "an action picking the weapon up", DATA.rule("Disarming attack")))
        line = (f"{me.name} attacks {them.name}: {result.headline}; {them.name} has "
                f"{plural(hurt.wounds, 'wound')}, protection {hurt.protection}")
        return Move(fight, line, tuple(steps))

    # --- the roster ------------------------------------------------------------------------

    def rename(self, old: str, new: str) -> Fight:
        """The fight after the roster row *old* is renamed *new*: their place, actions, wounds
        and protection carry over. A row not in the fight changes nothing."""
        for label, value in (("old", old), ("new", new)):
            if not isinstance(value, str) or not value.strip():
                raise RulesError(f"{label} must be a fighter's name, got {shown(value)}")
        if old == new or old not in self.names():
            return self
        if new in self.names():
            raise RulesError(f"Name {shown(new)} is a fighter's name in the fight already: "
                             "pick another")
        return replace(self, combatants=tuple(replace(c, name=new) if c.name == old else c
                                              for c in self.combatants))

    # --- saving ----------------------------------------------------------------------------

    def to_json(self) -> str:
        """The fight as JSON text (the page's history is kept by the page)."""
        return json.dumps({"format": FIGHT_FORMAT, "version": 1, "round": self.round,
                           "turn": self.turn,
                           "combatants": [vars(c) for c in self.combatants]},
                          separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Fight:
        """Read :meth:`to_json`'s text, field by field; a RulesError names the first wrong
        field (or what ties the fields together: distinct names, the initiative order, the
        turn inside it, protection against criticals inside the pool)."""
        fmt = fight_format()
        body = saved.read(fmt, text)
        try:
            fight = cls(tuple(Combatant(**item) for item in body["combatants"]),
                        body["round"], body["turn"])
            _check(fight)
        except RulesError as exc:
            raise RulesError(f"{fmt.noun}: {exc}") from None
        return fight


def _give_up_accurate(c: Combatant) -> tuple[Combatant, tuple[Step, ...]]:
    """An accurate attack allows no other action while its actions are gathered (§Accurate
    Attack): *c* after another action, and the step saying so if any were lost."""
    if not c.accurate:
        return c, ()
    return replace(c, accurate=0), (step(
        f"{c.name} took another action: the {plural(c.accurate, 'action')} gathered for an "
        "accurate attack are lost", DATA.rule("Accurate Attack")),)


State = dict[tuple[int, int], Fraction]
"""Odds of (normal hits, criticals) still standing at one stage of an attack."""


@functools.lru_cache(maxsize=512)
def _binomial(n: int, p: Fraction) -> tuple[Fraction, ...]:
    """Odds of 0..n successes among *n* independent tries of chance *p* (kept: every stage of
    every attack asks for the same few)."""
    return tuple(comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1))


def _each_stopped(state: State, p: Fraction) -> State:
    """Each hit, normal and critical apart, stopped with chance *p* (a cover roll, §Cover)."""
    out: State = {}
    for (h, c), q in state.items():
        for sh, ph in enumerate(_binomial(h, p)):
            for sc, pc in enumerate(_binomial(c, p)):
                key = (h - sh, c - sc)
                out[key] = out.get(key, Fraction(0)) + q * ph * pc
    return out


def _reacted(state: State, reaction: str, dice: int, min_roll: int, cover: Fraction) -> State:
    """The odds of what stands after the defender's reaction (§Dodge: one success at the
    minimum roll raised by the hits avoids all; §Parry melee attacks: each success stops a
    normal hit; §Shields: each hit stopped at the shield's cover, *cover* the chance)."""
    if reaction == "shield parry":
        return _each_stopped(state, cover)
    out: State = {}
    parried = _binomial(dice, p_total_at_least(min_roll))
    for (h, c), q in state.items():
        if reaction == "dodge":
            miss = (1 - p_total_at_least(min_roll + h + c)) ** dice if h + c else Fraction(1)
            for key, p in (((0, 0), 1 - miss), ((h, c), miss)):
                out[key] = out.get(key, Fraction(0)) + q * p
            continue
        for s, p in enumerate(parried):
            key = (max(0, h - s), c)
            out[key] = out.get(key, Fraction(0)) + q * p
    return out


def _landed(dice: int, min_roll: int, crit_at: int, burst: bool, reaction: str,
            reaction_dice: int, reaction_min_roll: int, shield: str, cover: int | None,
            stacking: str, pool: int, critical_pool: int, piercing: int,
            shield_block: bool = False) -> dict[int, Fraction]:
    """The exact odds of how many hits get through the reaction, cover and protection (the
    inputs checked as :func:`landing_odds` says)."""
    if reaction not in ("none",) + REACTION_ACTIONS + ("shield parry",):
        raise RulesError(f"reaction must be one of none, dodge, parry, shield parry, got "
                         f"{shown(reaction)}")
    require_int("dice", dice, minimum=0, maximum=LANDING_ODDS_DICE)
    require_int("reaction_dice", reaction_dice, minimum=0, maximum=LANDING_ODDS_DICE)
    require_int("reaction_min_roll", reaction_min_roll, minimum=1, maximum=MAX_TOTAL)
    if stacking not in ("best", "each"):
        raise RulesError(f"stacking must be best or each, got {shown(stacking)}")
    if cover is not None:
        _cover(cover)
    require_int("pool", pool, minimum=0, maximum=200)
    require_int("critical_pool", critical_pool, minimum=0, maximum=pool)
    require_int("piercing", piercing, minimum=0, maximum=50)
    state: State = dict(hit_odds(dice, min_roll, crit_at, burst).pmf)
    terrain = cover
    if reaction != "none":
        shield_at = shield_use("parry", shield).cover if reaction == "shield parry" else 7
        if reaction == "shield parry" and cover is not None and stacking == "best":
            shield_at, terrain = min(shield_at, cover), None
        state = _reacted(state, reaction, reaction_dice, reaction_min_roll,
                         Fraction(7 - shield_at, 6))
    if not isinstance(shield_block, bool):
        raise RulesError(f"shield_block must be True or False, got {shown(shield_block)}")
    if shield_block:
        if reaction == "shield parry":
            raise RulesError("reaction: a raised Shield Block covers already; a Shield Parry "
                             "cannot be added to it")
        at = shield_use("block", shield).cover
        if terrain is None or stacking == "best":
            terrain = at if terrain is None else min(at, terrain)
        else:
            state = _each_stopped(state, Fraction(7 - at, 6))
    if terrain is not None:
        state = _each_stopped(state, Fraction(7 - terrain, 6))
    out: dict[int, Fraction] = {}
    for (h, c), q in state.items():
        on_hits, on_crits, extra = protection_use(h, c, pool, critical_pool, piercing, pool)
        left = h - on_hits - extra + c - on_crits
        out[left] = out.get(left, Fraction(0)) + q
    return out


def contest_odds(contest: str, dice: int, min_roll: int, crit_at: int, burst: bool, *,
                 contest_dice: int = 0, contest_min_roll: int = 5, reaction: str = "none",
                 reaction_dice: int = 0, reaction_min_roll: int = 5,
                 shield: str = "round shield", cover: int | None = None,
                 stacking: str = "best", pool: int = 0, critical_pool: int = 0,
                 piercing: int = 0, shield_block: bool = False) -> Fraction:
    """The exact chance, before the dice are rolled, that a K.O. attack knocks the target out
    or a disarming attack disarms them (*contest* "ko" or "disarm"): some hits get through
    the reaction, cover and protection as for :func:`landing_odds`, and the target's
    *contest_dice* (resistance, or Strength or Deftness) score fewer successes at
    *contest_min_roll* than the hits that landed (§K.O. Attack, §Disarming attack; assumption
    ``contest_hits``). A die of the contest is one success at most, however far it
    explodes. Up to :data:`LANDING_ODDS_DICE` dice a roll."""
    if contest not in ("ko", "disarm"):
        raise RulesError(f"Special attack must be K.O. or Disarming for these odds, got "
                         f"{shown(contest)}")
    require_int("Resistance dice", contest_dice, minimum=0, maximum=LANDING_ODDS_DICE)
    require_int("contest_min_roll", contest_min_roll, minimum=1, maximum=MAX_TOTAL)
    landed = _landed(dice, min_roll, crit_at, burst, reaction, reaction_dice,
                     reaction_min_roll, shield, cover, stacking, pool, critical_pool, piercing,
                     shield_block)
    resisted = _binomial(contest_dice, p_total_at_least(contest_min_roll))
    return sum((q * sum(resisted[:n]) for n, q in landed.items() if n), Fraction(0))


def landing_odds(dice: int, min_roll: int, crit_at: int, burst: bool, *,
                 reaction: str = "none", reaction_dice: int = 0, reaction_min_roll: int = 5,
                 shield: str = "round shield", cover: int | None = None,
                 stacking: str = "best", pool: int = 0, critical_pool: int = 0,
                 piercing: int = 0, shield_block: bool = False) -> Fraction:
    """The exact chance that at least one hit of an attack gets through everything the attack
    flow (:func:`~.pipeline.attack`) puts in its way, before the dice are rolled: the hit
    roll, the defender's reaction, the terrain cover roll and the protection pool (§Sequence
    of an attack, §Reactions, §Cover, §Protection Pool). Such a hit deals at least one wound
    (§Wounds and Piercing), or for a K.O. or disarming attack it is a hit the target must
    resist. A shield parry behind cover rolls once at the better cover (*stacking* "best") or
    the shield's roll and then the cover's ("each"), as the flow does (assumption
    ``cover_stacking``); a raised Shield Block (*shield_block*) behind cover the same two
    ways. Exact: only whether a die reaches a threshold matters. Up to
    :data:`LANDING_ODDS_DICE` hit dice and reaction dice."""
    landed = _landed(dice, min_roll, crit_at, burst, reaction, reaction_dice,
                     reaction_min_roll, shield, cover, stacking, pool, critical_pool, piercing,
                     shield_block)
    return sum((q for n, q in landed.items() if n), Fraction(0))


def _check(fight: Fight) -> None:
    """What one field's declaration cannot say about a kept fight."""
    names = fight.names()
    if len(set(names)) != len(names):
        raise RulesError("combatants must have distinct names")
    keys = [c.key for c in fight.combatants]
    if keys != sorted(keys):
        raise RulesError("combatants must be in initiative order (highest first)")
    if (fight.round == 0) != (fight.turn == -1):
        raise RulesError(f"round {fight.round} and turn {fight.turn} disagree: a fight begins "
                         "with round 1 and the first fighter's turn")
    if fight.turn >= len(names):
        raise RulesError(f"turn must be below {len(names)} (one a fighter), got {fight.turn}")
    for i, c in enumerate(fight.combatants, start=1):
        if c.critical_protection > c.protection:
            raise RulesError(f"combatants[{i}].critical_protection must be at most its "
                             f"protection ({c.protection}), got {c.critical_protection}")
        if c.ammunition > c.magazine:
            raise RulesError(f"combatants[{i}].ammunition must be at most its magazine "
                             f"({c.magazine}), got {c.ammunition}")
        if c.available and not c.started:
            raise RulesError(f"combatants[{i}].available must be 0 before {c.name}'s first "
                             f"turn, got {c.available}")


@functools.cache
def fight_format() -> saved.SavedFormat:
    """The fight page's saved state, field by field (see :mod:`rulescore.saved`)."""
    attribute = saved.Int(0, MAX_DICE)
    combatant = saved.Record({
        "name": saved.Text(saved.NAME_LENGTH, blank=False), "pc": saved.Flag(),
        "initiative": saved.Int(0, MAX_DICE * MAX_TOTAL),
        "quickness": attribute, "deftness": attribute,
        "maximum": saved.Int(1, MAX_ACTIONS), "available": saved.Int(0, MAX_AVAILABLE),
        "started": saved.Flag(), "attacks": saved.Int(0, MAX_ATTACKS),
        "wounds": saved.Int(0, MAX_WOUNDS),
        "protection": saved.Int(0, 200), "critical_protection": saved.Int(0, 200),
        "ammunition": saved.Int(0, MAX_LOADED), "magazine": saved.Int(0, MAX_LOADED),
        "aim": saved.Int(0, MAX_AIM), "accurate": saved.Int(0, MAX_AIM),
        "block_from": saved.Int(0, MAX_ROUNDS + 1), "stolen": saved.Int(0, MAX_ACTIONS),
        "knocked_out": saved.Flag(), "disarmed": saved.Flag(),
    }, optional=frozenset({"ammunition", "magazine", "aim", "accurate", "block_from",
                           "stolen", "knocked_out", "disarmed"}))
    return saved.SavedFormat("fight", FIGHT_FORMAT, 1, saved.Record({
        "round": saved.Int(0, MAX_ROUNDS), "turn": saved.Int(-1, MAX_COMBATANTS - 1),
        "combatants": saved.ListOf(combatant, MAX_COMBATANTS)}))
