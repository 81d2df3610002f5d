"""A whole fight: the Count's tokens with each fighter's health, filled from the roster and
changed by the results of attacks, bleeding and stabilisation (§I, §VI, §VIII–§XI, §XIII).

:class:`Fight` is immutable, like :class:`~.encounter.Encounter` which it holds: every move
returns a :class:`Move` (the new fight, one log line, and the explanation). A roster row is any
object read by column key (``row["quick"]``), as :class:`rulescore.roster.Fighter` is; the
keys are those of :data:`.roster.ROSTER`.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ... import saved
from ...roster import Row
from ...dice import DiceSource
from ...errors import RulesError, require_int, shown
from ...trace import Step, step
from . import records
from ._system import DATA
from .combat import (
    AttackResolution,
    attack,
    attack_tn,
    coup_de_grace,
    horde_casualties,
    horde_tempo,
    plan_attack,
)
from .core import ATTRIBUTE_RANGE, defense, tempo, vitality
from .encounter import MAX_FIGHTERS, Encounter, encounter_spec, remove_fighter
from .injury import (
    BleedResolution,
    StabilizeResolution,
    bleed_out_turn,
    death_threshold,
    grievous_wound,
    health_state,
)
from .timing import Combatant, tie_order

BLEEDING = DATA.rule("X Bleeding Out")
HEALTH = DATA.rule("VIII The Health Track")
GRIEVOUS_NOTES = DATA.rule("IX Grievous Wound Notes")
AIM = DATA.rule("III Aim")
SUPPRESSED = DATA.rule("XI Suppressed")
HORDE = DATA.rule("XIII The Horde")
COUP = DATA.rule("XIII Coup de Grâce")

ATTRIBUTES = ("quick", "savvy", "iron", "grit")
MAX_STRAIN = 30  # far above any Strain a scene gives; bounds the saved file
LIMBS = ("Arm/Hand", "Leg")
LIMB_MARKS = {"Arm/Hand": "Arm Hit", "Leg": "Leg Hit"}  # §III Called Shot effects kept on the token
FIGHT_FORMAT = "rulebook/vl-fight"


@dataclass(frozen=True)
class Health:
    """One token's body: Vitality (full at IRON + 8), Strain, Grievous Wounds, the Called Shot
    marks (Arm Hit, Leg Hit), and what the scene has done: Bleeding Out, stabilised, the
    Hardened armour's one negation spent, a Grievous Wound waiting for its d8. *row* names the
    roster row the token was made from (a broken Horde's singles keep the Horde's row)."""

    name: str
    row: str
    iron: int
    vitality: int
    strain: int = 0
    wounds: tuple[str, ...] = ()
    marks: tuple[str, ...] = ()
    bleeding: bool = False
    stabilized: bool = False
    hardened_spent: bool = False
    grievous_pending: bool = False
    called_limb: str | None = None

    @property
    def state(self) -> str:
        """Healthy, Wounded, Downed or Dead (§VIII The Health Track)."""
        return health_state(self.vitality, self.iron)

    @property
    def full(self) -> int:
        return vitality(self.iron)


@dataclass(frozen=True)
class Move:
    """One step of a fight: the fight after it, the log line, and how it was reached."""

    fight: Fight
    line: str
    trace: tuple[Step, ...] = ()


@dataclass(frozen=True)
class Fight:
    """The Count (:class:`Encounter`) and the health of every token, alive or dead."""

    encounter: Encounter = field(default_factory=Encounter)
    health: tuple[Health, ...] = ()

    # --- reading ---------------------------------------------------------------------------

    def of(self, name: str) -> Health:
        """The health of the token called *name*."""
        for h in self.health:
            if h.name == name:
                return h
        names = ", ".join(h.name for h in self.health) or "nobody yet"
        raise RulesError(f"no fighter called {shown(name)} in the fight (it has {names})")

    def conditions(self, name: str) -> tuple[str, ...]:
        """Every condition on the token that a rule reads: the Count's (Suppressed, Prone,
        Exposed, Surprised, Stunned …), the health track's (Wounded, Downed, Dead), the
        Grievous Wounds that act as conditions, and the Called Shot marks."""
        h = self.of(name)
        out: list[str] = []
        if any(f.name == name for f in self.encounter.fighters):
            f = self.encounter.fighter(name)
            out += [c for c, on in (("Surprised", f.surprised), ("Exposed", f.exposed),
                                    ("Stunned", f.stunned)) if on]
            out += [c for c in f.conditions if c != "Downed"]
        state = h.state
        if state != "Healthy" and not self._is_horde(name):
            out.append(state)
        if h.bleeding and not h.stabilized and state != "Dead":
            out.append("Bleeding Out")
        out += [w for w in h.wounds if w in records.conditions()]
        out += list(h.marks)
        return tuple(dict.fromkeys(out))

    def _is_horde(self, name: str) -> bool:
        return any(f.name == name and f.horde for f in self.encounter.fighters)

    def _set(self, h: Health) -> Fight:
        return replace(self, health=tuple(h if x.name == h.name else x for x in self.health))

    # --- joining ---------------------------------------------------------------------------

    def join(self, row: Row, margin: int | None) -> Move:
        """Put a roster fighter on the Cylinder at the tick their initiative *margin* gives
        (§II; ``None`` is a failed roll), at full Vitality, IRON + 8 (§VIII). A row with a
        Horde size joins as one Horde token (§XIII The Horde)."""
        size = row["horde"]
        least = records.settings("conditions", "horde")["min_size"]
        if 0 < size < least:
            raise RulesError(f"Horde size of {row.name} must be 0 (one fighter) or {least} or "
                             f"more (a Horde is {least}–10 enemies), got {size}")
        enc = self.encounter.join(row.name, pc=row.pc, quick=row["quick"], margin=margin,
                                  horde=size)
        h = Health(row.name, row.name, row["iron"], vitality(row["iron"]))
        f = enc.fighter(row.name)
        what = f" (a Horde of {size})" if size else ""
        state = "Surprised" if f.surprised else f"margin {f.margin}"
        return Move(replace(self, encounter=enc, health=self.health + (h,)),
                    f"{row.name}{what} joins at Tick {f.tick} ({state})")

    # --- the Count -------------------------------------------------------------------------

    def next_turn(self) -> Move:
        """Turn the Hammer to the next token (§I). Each fighter whose turn starts there while
        Bleeding Out (and not stabilised) loses 1 Vitality first, and dies at −(IRON + 2)
        (§X Bleeding Out, Death Threshold). A token still on the Hammer's tick (it has not
        acted yet) starts no new turn, so it does not bleed twice (assumption next_turn_bleed)."""
        enc, turn = self.encounter.next_turn()
        fight = replace(self, encounter=enc)
        trace = list(turn.trace)
        notes = []
        for name in (n for group in turn.order for n in group):
            h = fight.of(name)
            if h.bleeding and not h.stabilized and turn.ticks:
                bled: BleedResolution = bleed_out_turn(h.vitality, h.iron)
                trace.extend(bled.trace)
                fight = fight._after_hurt(replace(h, vitality=bled.value))
                notes.append(f"{name} bleeds: Vitality {bled.value} ({bled.state})")
        acts = ", ".join(n for n in turn.order[0] if any(
            f.name == n for f in fight.encounter.fighters))
        line = f"The Hammer turns {turn.ticks} to Tick {turn.value}"
        line += f": {acts} acts" if acts else ""
        if notes:
            line += " — " + "; ".join(notes)
        return Move(fight, line, tuple(trace))

    def acting(self) -> tuple[str, ...]:
        """The tokens at the Hammer's tick, in the order they act (§II Handling Ties)."""
        enc = self.encounter
        here = [f for f in enc.fighters if f.tick == enc.hammer]
        if not here:
            return ()
        order = tie_order([Combatant(f.name, f.pc, f.margin, f.quick) for f in here])
        return tuple(n for group in order.order for n in group)

    def require_turn(self, name: str) -> None:
        """Refuse an attack by *name* unless it is their turn: their token at the Hammer's
        tick (§I The Flow of Combat), and not Downed, who may only Crawl or Speak (§X)."""
        h = self.of(name)
        if h.state in ("Downed", "Dead"):
            raise RulesError(f"{name} is {h.state}" + (": a Downed fighter may only Crawl "
                             "(Tempo 6) or Speak" if h.state == "Downed" else ""))
        f = self.encounter.fighter(name)
        if f.tick != self.encounter.hammer:
            where = "holding an action" if f.tick is None else f"at Tick {f.tick}"
            raise RulesError(f"{name} is {where}, and the Hammer is at Tick "
                             f"{self.encounter.hammer}: only a fighter whose turn it is acts "
                             "(press Next turn)")

    def set_strain(self, name: str, strain: int) -> Move:
        """Strain the fighter carries (the GM adds it as the story does, §XV Narrative Cut;
        Fatigued at half its cap is marked on the Count)."""
        h = self.of(name)
        require_int("strain", strain, minimum=0, maximum=MAX_STRAIN)
        return Move(self._set(replace(h, strain=strain)), f"{name}: Strain {h.strain} → {strain}")

    def mark(self, name: str, condition: str, on: bool = True) -> Move:
        """Mark or clear a condition the GM adjudicates on the Count (Suppressed, Prone,
        Engaged, Blinded, Grappled), a Called Shot mark (Arm Hit, Leg Hit) (§XI, §III), or a
        Stun the fighter failed to resist (§XI Stunned: it ends with their Stunned turn)."""
        h = self.of(name)
        if condition == "Stunned":
            if not on:
                raise RulesError("condition Stunned ends with the fighter's Stunned turn "
                                 "(no action, 3 ticks on)")
            return Move(replace(self, encounter=self.encounter.stun(name)),
                        f"{name} is now Stunned")
        if condition in LIMB_MARKS.values():
            rest = tuple(m for m in h.marks if m != condition)
            fight = self._set(replace(h, marks=rest + ((condition,) if on else ())))
        else:
            if condition == "Downed":
                raise RulesError("condition Downed follows Vitality: apply damage or heal "
                                 "instead of marking it")
            fight = replace(self, encounter=self.encounter.set_condition(name, condition, on))
        return Move(fight, f"{name} {'is now' if on else 'is no longer'} {condition}")

    # --- attacks ---------------------------------------------------------------------------

    def attack_inputs(self, attacker: Row, target: Row, attacker_name: str, target_name: str,
                      *, action: str = "Steady Shot", band: str = "Near",
                      cover: str = "No Cover") -> dict[str, Any]:
        """The keyword arguments of :func:`~.combat.attack` (all but the dice) that the two
        roster rows and the fight's state give (§VI The Attack Sequence): the attacker's
        attribute and skill for their weapon, its roll bonus, banked Aim on a ranged attack,
        a Horde's current size (its volley, §XIII), and the conditions that cost dice (Wounded, Suppressed, Prone, Engaged, Blinded, a
        Flesh Wound …); the target's Defense (8 + the higher of QUICK and SAVVY + equipment
        and armour), the conditions that move the TN (Prone, Exposed, Surprised), armour, and
        Hardened armour while its one negation of the scene is unspent. A melee weapon is used
        at Point-Blank whatever *band* says."""
        them = self.of(target_name)
        if them.state == "Dead":
            raise RulesError(f"target {target_name} is dead")
        arm = records.find_weapon(attacker["weapon"])
        armour = records.find_armour(target["armour"])
        attribute = attacker[attacker["weapon_attribute"].lower()]
        aim = horde = 0
        if any(f.name == attacker_name for f in self.encounter.fighters):
            horde = self.encounter.fighter(attacker_name).horde
            if arm.kind == "ranged":
                aim = self.encounter.fighter(attacker_name).aim
        mine = [c for c in self.conditions(attacker_name)
                if c in records.conditions() and c not in ("Exposed", "Surprised", "Stunned")]
        theirs = [c for c in self.conditions(target_name)
                  if c in ("Prone", "Exposed", "Surprised", "Scrambling")]
        return {
            "attribute": attribute, "skill": attacker["weapon_skill"],
            "defense": defense(target["quick"], target["savvy"],
                               target["defense_bonus"] + armour.defense_modifier),
            "weapon": arm.name, "action": action,
            "band": "Point-Blank" if arm.kind == "melee" else band, "cover": cover,
            "attacker_conditions": tuple(mine), "target_conditions": tuple(theirs),
            "roll_bonus": attacker["weapon_bonus"], "aim_actions": aim, "ar": armour.ar,
            "hardened": armour.hardened, "hardened_spent": them.hardened_spent,
            "horde_size": horde,
        }

    def volley_pool(self, attacker_name: str, setup: dict[str, Any]) -> int:
        """The dice a Horde's volley rolls: the base creature's pool after its penalties (the
        attack *setup* of :meth:`attack_inputs`) + the Horde's current size (§XIII The
        Volley); 0 for a single fighter, who rolls the attack's own pool."""
        size = self.encounter.fighter(attacker_name).horde
        if not size:
            return 0
        return plan_attack(**{**setup, "horde_size": size}).pool

    def volley(self, attacker_name: str, setup: dict[str, Any],
               faces: Sequence[int] | None = None, *,
               dice: DiceSource | None = None) -> AttackResolution:
        """A Horde's attack (§XIII The Volley): :func:`~.combat.attack` with the attack
        *setup* of :meth:`attack_inputs` and the Horde's current size, so it rolls the base
        creature's pool + the size at the Horde's fixed tempo; the TN, roll modifiers, damage
        and near misses are the attack's (§VI). *faces* are the dice, or draw them from
        *dice*."""
        size = self.encounter.fighter(attacker_name).horde
        if not size:
            raise RulesError(f"{attacker_name} is not a Horde: roll the attack itself")
        return attack(faces, dice=dice, **{**setup, "horde_size": size})

    def apply_attack(self, attacker_name: str, target_name: str, result: AttackResolution, *,
                     called_location: str | None = None) -> Move:
        """Write an attack's result to the fight in one step.

        The attacker's token moves on by the attack's tempo — a Horde's by its fixed tempo, 5
        for a firing line and 6 for a swarm (§XIII The Horde) — and leaves Exposed after a
        fast action (§IV); a ranged attack spends the banked Aim (§III). On a hit: a Horde
        loses casualties and breaks at 2 (§XIII); anyone else loses the damage from Vitality
        (§VIII), turning Wounded at half, Downed and Bleeding Out at 0, and Dead at −(IRON + 2)
        (§X); damage loses the target's Aim (§III); 5 or more damage waits for the Grievous
        Wound d8 (§IX) unless Hardened armour spends its first negation of the scene (§IX
        Grievous Wound Notes); a Called Shot to a limb marks it (§III). A near miss from
        gunfire leaves the target Suppressed (§XI)."""
        self.require_turn(attacker_name)
        enc = self.encounter
        f = enc.fighter(attacker_name)
        kind = records.find_weapon(result.weapon).kind
        used = horde_tempo(kind) if f.horde else result.tempo
        exposed = result.exposed_after and not f.horde
        enc = enc.act(attacker_name, used, exposed=exposed, action=result.action)
        fight = replace(self, encounter=enc)
        trace: list[Step] = list(result.trace)
        line = f"{attacker_name}: {result.action} at {target_name} — {result.outcome}"
        if f.horde and result.tempo != used:  # a plan made without the Horde's size
            trace.append(step(f"A Horde acts at its fixed tempo {used} "
                              f"({'firing line' if kind == 'ranged' else 'swarm'})", HORDE,
                              tempo=used))
        line += f"; {attacker_name} to Tick {enc.fighter(attacker_name).tick}"
        if result.suppresses and target_name in (g.name for g in enc.fighters):
            fight = replace(fight, encounter=fight.encounter.set_condition(
                target_name, "Suppressed"))
            line += f"; {target_name} is Suppressed"
        if not result.hit:
            return Move(fight, line, tuple(trace))
        if result.effect:  # a Called Shot's or Heavy Cleave's effect: the GM marks what holds
            line += f"; {result.effect}"
        if fight._is_horde(target_name):
            size = fight.encounter.fighter(target_name).horde
            arm = records.find_weapon(result.weapon)
            lost = horde_casualties(result.margin, arm.wr, size, mass_destruction=arm.scatter)
            trace.extend(lost.trace)
            enc2, said = fight.encounter.hit_horde(target_name, lost.value)
            fight = replace(fight, encounter=enc2)
            if lost.broken:
                h = fight.of(target_name)
                singles = tuple(replace(h, name=f"{target_name} {i}") for i in (1, 2))
                fight = replace(fight, health=tuple(x for x in fight.health
                                                    if x.name != target_name) + singles)
            return Move(fight, f"{line}, {lost.value} casualties: {said}", tuple(trace))
        return fight._hurt(target_name, result.damage, result.grievous, result.grievous_negated,
                           called_location if result.action == "Called Shot" else None,
                           line, trace)

    def _hurt(self, name: str, dealt: int, grievous: bool, negated: bool,
              called_location: str | None, line: str, trace: list[Step]) -> Move:
        """Damage to one fighter: Vitality, the health state, Aim, Grievous Wounds."""
        h = self.of(name)
        spent = h.hardened_spent or negated
        limb = called_location if called_location in LIMBS else None
        marks = h.marks
        if limb and LIMB_MARKS[limb] not in marks:
            marks += (LIMB_MARKS[limb],)
        before = h.state
        new = replace(h, vitality=max(h.vitality - dealt, death_threshold(h.iron)),
                      hardened_spent=spent, marks=marks,
                      grievous_pending=h.grievous_pending or grievous,
                      called_limb=limb if grievous else h.called_limb)
        fight = self._after_hurt(new)
        after = fight.of(name)
        line += (f", {dealt} damage: Vitality {h.vitality} → {after.vitality} ({after.state})"
                 if dealt else ", no damage through the armour")
        if dealt and any(f.name == name and f.aim for f in self.encounter.fighters):
            fight = replace(fight, encounter=fight.encounter.lose_aim(name))
            trace.append(step(f"{name} took damage: the banked Aim is lost", AIM))
        if after.state != before:
            trace.append(step(f"{name}: Vitality {after.vitality} of {after.full}: "
                              f"{after.state}", HEALTH, vitality=after.vitality))
        if grievous and after.state != "Dead":
            line += "; a Grievous Wound: roll the d8"
        return Move(fight, line, tuple(trace))

    def _after_hurt(self, h: Health) -> Fight:
        """The health track after a change of Vitality: Downed at 0 starts Bleeding Out and
        marks the token Downed; Dead takes the token off the Cylinder (§X)."""
        state = h.state
        if state in ("Downed", "Dead") and not h.bleeding and not h.stabilized:
            h = replace(h, bleeding=True)
        fight = self._set(h)
        on_track = any(f.name == h.name for f in fight.encounter.fighters)
        if state == "Dead":
            fight = replace(fight._set(replace(h, bleeding=False, grievous_pending=False)),
                            encounter=remove_fighter(fight.encounter, h.name)
                            if on_track else fight.encounter)
        elif state == "Downed" and on_track and "Downed" not in \
                fight.encounter.fighter(h.name).conditions:
            fight = replace(fight, encounter=fight.encounter.set_condition(h.name, "Downed"))
        return fight

    def grievous(self, name: str, roll: int | None = None, *,
                 dice: DiceSource | None = None) -> Move:
        """The d8 (*roll*, or drawn from *dice*) of the Grievous Wound the last hit left
        waiting (§IX The Grievous Wound Table): the wound is kept on the token; an Arterial Hit
        starts Bleeding Out even with Vitality left; a Called Shot's Broken Bone breaks that
        limb."""
        h = self.of(name)
        if not h.grievous_pending:
            raise RulesError(f"{name} has no Grievous Wound waiting for its d8")
        wound = grievous_wound(roll, called_limb=h.called_limb, dice=dice)
        roll = wound.value
        new = replace(h, wounds=h.wounds + (wound.outcome,), grievous_pending=False,
                      called_limb=None,
                      bleeding=h.bleeding or wound.bleeding_out,
                      stabilized=h.stabilized and not wound.bleeding_out)
        limb = f" ({wound.limb})" if wound.limb else ""
        return Move(self._set(new), f"{name}: Grievous Wound d8 {roll} — {wound.outcome}{limb}",
                    wound.trace)

    def stabilized(self, name: str, result: StabilizeResolution) -> Move:
        """Write a stabilisation attempt (:func:`~.injury.stabilize`) to the patient: success
        stops the bleeding at the current Vitality; a fumble costs 1 more Vitality (§X)."""
        h = self.of(name)
        if not h.bleeding or h.stabilized:
            raise RulesError(f"{name} is not Bleeding Out")
        new = replace(h, vitality=max(result.value, death_threshold(h.iron)),
                      stabilized=result.stabilized)
        fight = self._after_hurt(new)
        after = fight.of(name)
        return Move(fight, f"{name}: stabilisation {result.outcome} — Vitality "
                    f"{after.vitality} ({after.state})", result.trace)

    def coup_de_grace(self, attacker: Row, target: Row, attacker_name: str,
                      target_name: str, *, critical: int = 0) -> Move:
        """Execute a Downed fighter (§XIII Coup de Grâce): a standard attack with the
        attacker's weapon (its base tempo) that hits automatically at the highest sum, against
        the TN the target's Defense gives at Point-Blank (assumption coup_de_grace_tn)."""
        self.require_turn(attacker_name)
        them = self.of(target_name)
        if them.state != "Downed":
            raise RulesError(f"target {target_name} is {them.state}: a coup de grâce is for a "
                             "helpless (Downed) fighter")
        setup = self.attack_inputs(attacker, target, attacker_name, target_name,
                                   band="Point-Blank")
        arm = records.find_weapon(setup["weapon"])
        tn = attack_tn(setup["defense"], weapon=arm.name, band="Point-Blank",
                       target_conditions=setup["target_conditions"])
        hurt = coup_de_grace(arm.wr, tn, setup["ar"], roll_bonus=setup["roll_bonus"],
                             critical=critical, hardened=setup["hardened"],
                             hardened_spent=setup["hardened_spent"])
        action = "Strike" if arm.kind == "melee" else "Steady Shot"
        enc = self.encounter.act(attacker_name, tempo(action, arm.name), action=action)
        fight = replace(self, encounter=enc)
        line = f"{attacker_name}: coup de grâce on {target_name}"
        return fight._hurt(target_name, hurt.value, hurt.grievous, hurt.grievous_negated, None,
                           line,
                           [step(f"Coup de grâce with the {arm.name}", COUP), *hurt.trace])

    # --- the roster ------------------------------------------------------------------------

    def rename(self, old: str, new: str) -> Fight:
        """The fight after the roster row *old* is renamed *new*: its token keeps its place on
        the Count, its health and conditions under the new name, and the singles a broken
        Horde left ("Bandits 1") follow as "Raiders 1". A row not in the fight changes
        nothing. A name another token holds is refused (two tokens cannot share one)."""
        for label, value in (("old", old), ("new", new)):
            if not isinstance(value, str) or not value.strip():
                raise RulesError(f"{label} must be a fighter's name, got {shown(value)}")
        if old == new:
            return self

        def renamed(name: str, row: str) -> str:
            if row != old:
                return name
            if name == old:
                return new
            return new + name[len(old):] if name.startswith(old + " ") else name

        names = {h.name: renamed(h.name, h.row) for h in self.health}
        taken = [n for n in names.values() if list(names.values()).count(n) > 1]
        if taken:
            raise RulesError(f"Name {shown(taken[0])} is a token's name in the fight "
                             f"already: pick another")
        health = tuple(replace(h, name=names[h.name], row=new if h.row == old else h.row)
                       for h in self.health)
        fighters = tuple(replace(f, name=names.get(f.name, f.name))
                         for f in self.encounter.fighters)
        return replace(self, encounter=replace(self.encounter, fighters=fighters),
                       health=health)

    # --- saving ----------------------------------------------------------------------------

    def to_json(self) -> str:
        """The fight as JSON text (the page's history is kept by the page)."""
        return json.dumps({"format": FIGHT_FORMAT, "version": 1,
                           "encounter": self.encounter.to_dict(),
                           "health": [dict(vars(h), wounds=list(h.wounds), marks=list(h.marks))
                                      for h in self.health]}, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Fight:
        """Read :meth:`to_json`'s text; a RulesError names the first wrong field."""
        fmt = fight_format()
        body = saved.read(fmt, text)
        try:
            enc = Encounter.from_dict(body["encounter"])
            health = tuple(_health(item, i) for i, item in enumerate(body["health"], start=1))
            names = [h.name for h in health]
            if len(set(names)) != len(names):
                raise RulesError("health must have distinct names")
            missing = [f.name for f in enc.fighters if f.name not in names]
            if missing:
                raise RulesError(f"health has no entry for {', '.join(missing)}")
        except RulesError as exc:
            raise RulesError(f"{fmt.noun}: {exc}") from None
        return cls(enc, health)


def _health(item: dict, i: int) -> Health:
    """One checked health entry; its Vitality must fit its IRON (from death to full)."""
    h = Health(**{**item, "wounds": tuple(item["wounds"]), "marks": tuple(item["marks"])})
    if not death_threshold(h.iron) <= h.vitality <= vitality(h.iron):
        raise RulesError(f"health[{i}].vitality must be from {death_threshold(h.iron)} to "
                         f"{vitality(h.iron)} for iron {h.iron}, got {h.vitality}")
    return h


@functools.cache
def fight_format() -> saved.SavedFormat:
    """The fight page's saved state, field by field (see :mod:`rulescore.saved`)."""
    flag = saved.Flag()
    low, high = ATTRIBUTE_RANGE
    wounds = tuple(records.grievous_row(r).wound for r in range(1, 9))
    health = saved.Record({
        "name": saved.Text(saved.NAME_LENGTH + 2, blank=False),
        "row": saved.Text(saved.NAME_LENGTH, blank=False),
        "iron": saved.Int(low, high),
        "vitality": saved.Int(death_threshold(high), vitality(high)),
        "strain": saved.Int(0, MAX_STRAIN),
        "wounds": saved.ListOf(saved.Text(30, tuple(dict.fromkeys(wounds))), 20),
        "marks": saved.ListOf(saved.Text(10, tuple(LIMB_MARKS.values())), 2),
        "bleeding": flag, "stabilized": flag, "hardened_spent": flag,
        "grievous_pending": flag, "called_limb": saved.Maybe(saved.Text(10, LIMBS)),
    })
    return saved.SavedFormat("fight", FIGHT_FORMAT, 1, saved.Record({
        "encounter": encounter_spec(),
        "health": saved.ListOf(health, 3 * MAX_FIGHTERS)}))
