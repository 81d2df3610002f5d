"""What an exploding-d6 fighter carries into a fight: the roster's columns (DESIGN.md §5).

Quickness and Deftness roll and break ties in initiative (§Start of combat); the lineage and
templates give the actions a round (§Actor and actions); the weapon skill and the weapon's
damage potential make the hit dice (§The hit roll), its mode, distance, recoil compensation
and Piercing shape the attack, and shots spend its rounds loaded (§Attack modes, §Recoil,
§Hit rolls for incorrect distance, §Wounds and Piercing; assumption ``ammunition_load``);
Perception caps aiming and the accurate attack, Strength the massive attack (§Aiming,
§Special attacks). For defence: the minimum roll a parry rolls on, the Dodge
value's parts (§Dodge), the shield (§Shields) and the protection pool with its units against
critical hits (§Protection Pool, assumption ``critical_protection``).

The seed's gear chapter is not part of the text, so a weapon and armour are typed as their
numbers, and its Wounds and Healing chapter neither: a fighter's wounds are counted, with no
state read from them.
"""

from __future__ import annotations

from ... import saved
from ...roster import Column, RosterFormat
from ._system import DATA
from .hits import BASE_MIN_ROLL, MODES
from .inputs import MAX_DICE, MAX_WOUNDS_PER_HIT
from .turns import MAX_ACTIONS

ATTRIBUTES = "Attributes"
WEAPON = "Weapon"
DEFENCE = "Defence"
NO_SHIELD = "none"
MAX_RANGE = 2000      # metres: a rifle's distance with room to spare
MAX_PROTECTION = 200  # the pool protection() accepts
MAX_PIERCING = 50
MAX_ROUNDS = 500     # rounds a weapon holds loaded: a belt of a machine gun with room


def _number(key: str, label: str, default: int, group: str, help: str,
            low: int = 0, high: int = MAX_DICE) -> Column:
    return Column(key, label, saved.Int(low, high), default, group, help)


def lineages() -> tuple[str, ...]:
    """The lineages the actions table knows (a human has 2 actions)."""
    return tuple(r["lineage"] for r in DATA.table("combat", "lineages"))


def shields() -> tuple[str, ...]:
    """No shield, or one of the shields the data lists (a round shield gives 5+)."""
    return (NO_SHIELD,) + tuple(r["shield"] for r in DATA.table("combat", "shields"))


ROSTER = RosterFormat(system="exploding_d6", title="exploding d6", columns=(
    _number("quickness", "Quickness", 3, ATTRIBUTES,
            "Initiative dice; the first tie-break; Dodge; how far a fighter moves"),
    _number("deftness", "Deftness", 3, ATTRIBUTES, "The second tie-break; Dodge"),
    _number("perception", "Perception", 2, ATTRIBUTES,
            "Caps the aiming bonus and the accurate attack"),
    _number("strength", "Strength", 2, ATTRIBUTES,
            "Caps the extra dice of a massive attack"),
    Column("lineage", "Lineage", saved.Text(20, lineages()), lineages()[0], ATTRIBUTES,
           "Gives the actions a round (a human has 2)"),
    _number("extra_actions", "Extra actions", 0, ATTRIBUTES,
            "Actions a round added by templates", high=MAX_ACTIONS - 2),
    Column("two_weapons", "Two weapons", saved.Flag(), False, ATTRIBUTES,
           "Two one-handed weapons of one type: one more action; the off hand's attacks "
           "roll +1"),
    _number("skill", "Weapon skill", 3, WEAPON,
            "Hand to hand, Shooting or Throwing: the skill this weapon rolls"),
    _number("weapon_dice", "Weapon dice", 2, WEAPON,
            "The weapon's damage potential, added to the skill"),
    Column("mode", "Attack mode", saved.Text(6, MODES), "melee", WEAPON,
           "melee, single shot, burst or thrown"),
    _number("weapon_range", "Weapon distance (m)", 2, WEAPON,
            "Beyond it, up to twice it, the minimum roll is +2", low=1, high=MAX_RANGE),
    _number("compensation", "Recoil compensation", 0, WEAPON,
            "Lowers the recoil of each further shot in a round", high=2),
    Column("recoil", "Recoil", saved.Flag(), True, WEAPON,
           "Firearms kick; a bow has no recoil (an arrow is nocked between shots)"),
    _number("magazine", "Rounds loaded", 0, WEAPON,
            "A shooting weapon's ammunition when loaded: a single shot spends 1, a burst 3, "
            "Reload fills it again", high=MAX_ROUNDS),
    Column("blunt", "Blunt", saved.Flag(), False, WEAPON, "A K.O. attack needs a blunt weapon"),
    _number("wounds_per_hit", "Wounds a hit", 1, WEAPON,
            "Wounds each hit that gets through deals", low=1, high=MAX_WOUNDS_PER_HIT),
    _number("piercing", "Piercing", 0, WEAPON,
            "Units of the target's ordinary protection it cannot use", high=MAX_PIERCING),
    _number("min_roll", "Minimum roll", BASE_MIN_ROLL, DEFENCE,
            "The fighter's minimum roll (usually 5+): attacks and parries roll on it", low=2, high=6),
    _number("lineage_dodge", "Lineage dodge", 0, DEFENCE,
            "The lineage's dodge value; Dodge adds the average of Quickness and Deftness"),
    _number("load", "Load", 0, DEFENCE, "Armour and weapons' load, taken from Dodge"),
    Column("shield", "Shield", saved.Text(20, shields()), NO_SHIELD, DEFENCE,
           "Beside a one-handed weapon: a Shield Parry as a reaction, or a Shield Block"),
    _number("protection", "Protection pool", 2, DEFENCE,
            "Units of armour: each stops one hit and is spent for the fight",
            high=MAX_PROTECTION),
    _number("critical_protection", "Of it against criticals", 0, DEFENCE,
            "Units of the pool from armour against critical hits", high=MAX_PROTECTION),
))
"""The exploding-d6 roster: one row per fighter (see :mod:`rulescore.roster`)."""
