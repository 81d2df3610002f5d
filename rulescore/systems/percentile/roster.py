"""What a percentile fighter carries on the roster: the EML of each skill a fight tests, the
melee weapon and its strike mode, the missile weapon, armour by body zone and aspect, and what
Shock, amputation and healing read (Missile 3, Melee 2, Injury 2-4, Healing 6).

The seed gives no weapon or armour tables (they are on pages it does not include), so a
fighter's weapons and armour are typed as their numbers: the missile weapon's kind is a menu
of the kinds the Missile Skill rule names. Armour is one value per body zone and aspect (a
quilt coat's "AV4 in the abdomen versus edge", Injury 2) with a switch for rigid armour
(Injury 3.2): a zone's locations share their zone's value (assumption armour_by_zone).
"""

from __future__ import annotations

from ... import saved
from ...roster import Column, RosterFormat
from ...trace import cite_rulings
from .missile import LAUNCHERS
from .record import SIDES
from .terms import ASPECTS, DEFENCES

EML = saved.Int(-999, 999)
DICE = tuple(f"d{n}" for n in (4, 6, 8, 10, 12, 20))
ZONES = ("Head", "Arms", "Torso", "Legs")
ASPECT_WORDS = {"B": "Blunt", "E": "Edge", "P": "Point", "F": "Fire"}
SKILLS = "Skills (EML)"
MELEE = "Melee weapon"
MISSILE = "Missile weapon"


def _skill(key: str, label: str, default: int, help: str, group: str = SKILLS) -> Column:
    return Column(key, label, EML, default, group, help)


def _armour(zone: str) -> tuple[Column, ...]:
    group = f"Armour: {zone}"
    values = tuple(Column(f"av_{zone.lower()}_{a.lower()}", f"{zone} AV {ASPECT_WORDS[a]}",
                          saved.Int(0, 40), 0, group,
                          f"Armour value on the {zone.lower()} against {ASPECT_WORDS[a].lower()} "
                          "strikes (Injury 2)") for a in ASPECTS)
    return values + (Column(f"rigid_{zone.lower()}", f"{zone} armour rigid", saved.Flag(), False,
                            group, "Rigid armour turns weak edge and point strikes into "
                            "glancing blows (Injury 3.2)"),)


ROSTER = RosterFormat(system="percentile", title="percentile combat", columns=(
    _skill("initiative", "Initiative", 50, "Higher acts first in the turn order"),
    _skill("melee", "Melee", 60, "Melee ML: the attack, a Block and a Counterstrike"),
    _skill("dodge", "Dodge", 50, "Dodge ML, for the Dodge defence"),
    Column("dodge_index", "Dodge index", saved.Int(0, 20), 0, SKILLS,
           "Each point costs a missile shot at this fighter, evading, 5 (Missile 3)"),
    _skill("archery", "Archery", 50, "Archery ML: bows and crossbows"),
    _skill("slings", "Slings", 40, "Slings ML"),
    _skill("throwing", "Throwing", 40, "Throwing ML: thrown weapons and objects"),
    _skill("shock", "Shock", 65, "Shock ML, for the Shock roll after each injury (Injury 4)"),
    _skill("strength_eml", "Strength test", 60,
           "Strength EML, for an amputation test (Injury 3.4)"),
    _skill("endurance", "Endurance", 60,
           "Endurance EML, for the Blood Loss Healing Roll (Healing 6)"),
    Column("strength", "STR", saved.Int(1, 40), 10, SKILLS,
           "Strength attribute, against a weapon's Heft (Melee 2)"),
    Column("healing_base", "Healing Base", saved.Int(0, 30), 13, SKILLS,
           "Healing Base: Healing Rolls test HB × HR (Healing 6)"),
    Column("defence", "Defence", saved.Text(13, DEFENCES), "Block", MELEE,
           "The defence this fighter declares against a melee attack"),
    Column("weapon", "Weapon", saved.Text(30, blank=False), "broadsword", MELEE,
           "The readied melee weapon's name"),
    Column("impact_die", "Impact die", saved.Text(3, DICE), "d10", MELEE,
           "The weapon's impact die (Injury 2)"),
    Column("impact_mod", "Impact modifier", saved.Int(-20, 40), 3, MELEE,
           "Added to the impact die (Injury 2)"),
    Column("aspect", "Aspect", saved.Text(1, ASPECTS), "E", MELEE,
           "Blunt (B), Edge (E), Point (P) or Fire (F): the strike mode's aspect"),
    Column("zone_die", "Zone Die", saved.Text(3, DICE), "d6", MELEE,
           "The weapon's Zone Die (Melee 2, Zone Options)"),
    Column("reach", "Reach", saved.Int(0, 20), 3, MELEE, "RCH, for Reach and Thrust (Melee 2)"),
    Column("thrust", "Thrust", saved.Flag(), False, MELEE, "A thrust strike mode"),
    Column("heft", "Heft", saved.Int(0, 40), 0, MELEE, "HFT, against STR (Melee 2)"),
    Column("grip", "Grip", saved.Text(11, ("one-handed", "two-handed", "off-handed")),
           "one-handed", MELEE, "How the weapon is held (Heft penalty)"),
    Column("weapon_arm", "Weapon arm", saved.Text(5, SIDES), "right", MELEE,
           "The arm that holds the melee weapon: the attack, a Block and a Counterstrike need "
           "it, a two-handed grip both arms (Injury 5; "
           + cite_rulings("percentile", ["grievous_arm_defence"]) + ")"),
    Column("str_impact", "Strength impact", saved.Int(-10, 10), 0, MELEE,
           "The Strength Impact Modifier, added to melee and thrown strikes (Injury 2)"),
    Column("missile", "Missile weapon", saved.Text(20, tuple(LAUNCHERS)), "bow", MISSILE,
           "What the fighter shoots or throws: it chooses the skill (Missile 3)"),
    Column("base_range", "Base Range", saved.Int(1, 2000), 40, MISSILE,
           "BR in feet: the range bands are ½, 1, 2, 3 and 4 × BR (Missile 2)"),
    Column("missile_die", "Missile impact die", saved.Text(3, DICE), "d8", MISSILE,
           "The missile's impact die (Injury 2)"),
    Column("missile_mod", "Missile impact modifier", saved.Int(-20, 40), 2, MISSILE,
           "Added to the missile's impact die"),
    Column("missile_aspect", "Missile aspect", saved.Text(1, ASPECTS[:3]), "P", MISSILE,
           "Point for arrows and bolts, Blunt for sling stones"),
    *(c for zone in ZONES for c in _armour(zone)),
))
"""The percentile roster: one row per fighter (see :mod:`rulescore.roster`)."""
