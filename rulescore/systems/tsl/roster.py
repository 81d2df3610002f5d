"""What a TSL fighter carries into a fight: the roster's columns (DESIGN.md §5).

A roll is a domain's 5d6 kept by the roller's tier in that domain (§11 Attacking, Defence), so a
fighter carries a tier in each of the six domains and the domain they attack with. The weapon is
a zone plus one or two tags, or improvised with none (§11 Weapons & Gear); armour is worn or not
(what it is built for is judged blow by blow, §11 Armour). Weapon and armour are separate gear,
each with its own rarity, which decides how it is mended (§11 Ammunition). The Stress pools'
size follows the kind of fighter (ruling ``tsl:stress_pool_size``) unless the pool has grown
past it.
"""

from __future__ import annotations

from ... import saved
from ...roster import Column, RosterFormat
from ._system import DATA
from .combat import RARITIES, WEAPON_ZONES, tag_names
from .pools import FIGHTER_KINDS, MAX_POOL
from .rolls import TIERS

DOMAINS = tuple(r["domain"] for r in DATA.table("combat", "domain_pools"))
"""The six domains a roll is made in (Body, Hand, Mind, Heart, Voice, Spirit)."""
NO_WEAPON = "None"
NO_TAG = "(none)"
TIERS_GROUP = "Tiers"
WEAPON = "Weapon"
ARMOUR = "Armour"


def _tier(domain: str, default: str) -> Column:
    return Column(f"tier_{domain.lower()}", f"{domain} tier", saved.Text(12, TIERS), default,
                  TIERS_GROUP, f"The tier of {domain} rolls: how many of the five dice are kept")


ROSTER = RosterFormat(system="tsl", title="TSL", columns=(
    Column("kind", "Kind", saved.Text(10, FIGHTER_KINDS), "character", "Stress",
           "A character's pools hold 4 Stress; a Grunt's hold 2 (one solid hit Breaks it)"),
    Column("pool_size", "Pool size", saved.Int(0, MAX_POOL), 0, "Stress",
           "0: by kind (4, a Grunt 2); a pool that has grown holds more"),
    *(_tier(d, "Trained") for d in DOMAINS),
    Column("attack_domain", "Attacks with", saved.Text(6, DOMAINS), "Hand", WEAPON,
           "The domain this fighter's attack rolls (Hand for a shot, Body for a swing)"),
    Column("weapon_zone", "Weapon zone", saved.Text(8, (NO_WEAPON,) + WEAPON_ZONES), "Sidearm",
           WEAPON, "Melee, Thrown, Sidearm or Ranged: where the weapon fights"),
    Column("tag1", "First tag", saved.Text(20, (NO_TAG,) + tag_names()), "Company-Issued",
           WEAPON, "A weapon is one or two tags: the only rules it carries"),
    Column("tag2", "Second tag", saved.Text(20, (NO_TAG,) + tag_names()), NO_TAG, WEAPON,
           "A second tag, or none"),
    Column("improvised", "Improvised weapon", saved.Flag(), False, WEAPON,
           "No tags, and it breaks on any Failure"),
    Column("rarity", "Weapon rarity", saved.Text(10, RARITIES), "Issued", WEAPON,
           "Where the weapon came from: it decides how it is repaired"),
    Column("armour", "Wears armour", saved.Flag(), False, ARMOUR,
           "Armour drops a blow it is built for one band, until a Catastrophic defence spends it"),
    Column("armour_rarity", "Armour rarity", saved.Text(10, RARITIES), "Issued", ARMOUR,
           "Where the armour came from: it decides how it is repaired"),
))
"""The TSL roster: one row per fighter (see :mod:`rulescore.roster`)."""
