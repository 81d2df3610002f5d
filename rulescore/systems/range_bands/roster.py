"""What a range-band fighter carries into a fight: the roster's columns (DESIGN.md §5).

The pools the chapter's checks roll (§Ranged attacks: the shooting skill; §Stealth: Stealth
against Perception; §Dashing and §Impassable terrain: Acrobatics, Athletics or Swimming), the
weapon's kind and its one or two optimal bands (§Ranged attacks, §Area fire, §Quick loading),
and whether the melee weapon is a long one (§Melee attacks). Where a fighter stands, their cover
and whether they are hidden change from turn to turn, so they belong to the fight
(:mod:`.fight`), not to the roster.
"""

from __future__ import annotations

from ... import saved
from ...roster import Column, RosterFormat
from ._system import DATA
from .inputs import MAX_BONUS, MAX_POOL
from .shooting import COMBAT_BANDS

NO_SECOND = "none"
WEAPONS = tuple(r["weapon"] for r in DATA.table("shooting", "weapon_kinds").rows)
POOLS = "Dice (d6)"
WEAPON = "Weapon"


def _pool(key: str, label: str, default: int, why: str, minimum: int = 1) -> Column:
    return Column(key, label, saved.Int(minimum, MAX_POOL), default, POOLS, why)


ROSTER = RosterFormat(system="range_bands", title="range-band combat", columns=(
    _pool("shooting", "Shooting dice", 4,
          "The pool of d6 the shooting skill rolls (Archery, Firearms or Crossbows)"),
    Column("shot_bonus", "Shooting bonus", saved.Int(-MAX_BONUS, MAX_BONUS), 0, POOLS,
           "Added to every shot's total (0 for most fighters)"),
    _pool("stealth", "Stealth dice", 3, "Stealth, against an observer's Perception"),
    _pool("perception", "Perception dice", 3, "Perception, against a hider's Stealth"),
    _pool("athletics", "Athletics dice", 3,
          "Acrobatics or Athletics for a dash (Swimming in water)"),
    Column("weapon", "Weapon", saved.Text(10, WEAPONS), "firearm", WEAPON,
           "Its kind: whether it can fire at an area, aim for long, be quick loaded"),
    Column("optimal", "Optimal band", saved.Text(10, COMBAT_BANDS), "close", WEAPON,
           "A target in this band is a 4D shot, plus cover"),
    Column("optimal2", "Second optimal band", saved.Text(10, (NO_SECOND,) + COMBAT_BANDS),
           NO_SECOND, WEAPON, "Some weapons have two optimal bands; 'none' for one"),
    Column("long_weapon", "Long melee weapon", saved.Flag(), False, WEAPON,
           "A long weapon reaches anyone in the same band, not only in close contact"),
))
"""The range-band roster: one row per fighter."""


def optimal_bands(row) -> tuple[str, ...]:
    """A roster row's one or two optimal bands (§Ranged attacks)."""
    second = row["optimal2"]
    return (row["optimal"],) + (() if second in (NO_SECOND, row["optimal"]) else (second,))
