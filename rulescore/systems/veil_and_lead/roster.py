"""What a Veil & Lead fighter carries into a fight: the roster's columns (DESIGN.md §5).

The attributes and skills the chapter's rolls read (QUICK + Awareness for initiative, §II;
Attribute + Skill for an attack, §VI; GRIT + Resilience to resist, §XI; Medicine to stabilise,
§X), the weapon and armour from the equipment tables (§III, §VIII), the equipment that adds to
Defense (§VI Defense Rating) and a Horde's size (§XIII). Vitality (IRON + 8) and Defense
(8 + the higher of QUICK and SAVVY + equipment) follow from these, so they are not typed twice.
"""

from __future__ import annotations

from ... import saved
from ...roster import Column, RosterFormat
from . import records
from .core import ATTRIBUTE_RANGE, SKILL_RANGE

ATTRIBUTE_LABELS = ("QUICK", "SAVVY", "IRON", "GRIT")
MAX_WEAPON_BONUS = 5  # Aim's +4 and a Masterwork's +2 are the largest bonuses the chapter gives


def _attribute(label: str, default: int, why: str) -> Column:
    return Column(label.lower(), label, saved.Int(*ATTRIBUTE_RANGE), default, "Attributes", why)


def _skill(key: str, label: str, default: int, why: str) -> Column:
    return Column(key, label, saved.Int(*SKILL_RANGE), default, "Skills", why)


ROSTER = RosterFormat(system="veil_and_lead", title="Veil & Lead", columns=(
    _attribute("QUICK", 3, "Initiative, Defense and the ties at one tick"),
    _attribute("SAVVY", 2, "Defense uses the higher of QUICK and SAVVY"),
    _attribute("IRON", 2, "Vitality is IRON + 8; death at −(IRON + 2)"),
    _attribute("GRIT", 2, "GRIT + Resilience resists a Stun or a Heavy Cleave"),
    _skill("awareness", "Awareness", 1, "QUICK + Awareness rolls initiative"),
    _skill("weapon_skill", "Weapon skill", 2,
           "The skill the weapon's attacks roll (Ballistics for a gun)"),
    _skill("resilience", "Resilience", 1, "GRIT + Resilience resists a Stun or a knock-down"),
    _skill("medicine", "Medicine", 0, "Stabilising a fighter who is Bleeding Out"),
    Column("weapon", "Weapon", saved.Text(30, tuple(records.weapons())), "Peacemaker",
           "Weapon", "From the weapon table: its tempo, range and Weapon Rating"),
    Column("weapon_attribute", "Attacks with", saved.Text(5, ATTRIBUTE_LABELS), "QUICK",
           "Weapon", "The attribute added to the weapon skill for an attack"),
    Column("weapon_bonus", "Weapon roll bonus", saved.Int(0, MAX_WEAPON_BONUS), 0, "Weapon",
           "Equipment quality added to every attack roll (a Masterwork gun +2)"),
    Column("armour", "Armour", saved.Text(30, tuple(records.armours())), "None", "Protection",
           "From the armour table: its Armour Rating, Hardened, Defense change"),
    Column("defense_bonus", "Defense bonus", saved.Int(0, 3), 0, "Protection",
           "A shield, or a weapon used defensively, gives +1 Defense"),
    Column("horde", "Horde size", saved.Int(0, records.settings("conditions", "horde")
                                            ["max_size"]), 0, "Horde",
           "0 for one fighter; 3–10 identical enemies who act as one token"),
))
"""The Veil & Lead roster: one row per fighter."""
