"""Public read access to The Veil & Lead's validated data records (weapons, armour, actions,
conditions, cover, the weapon-by-range grid)."""

from __future__ import annotations

from ._data import (Action, Armour, Condition, RangeModifier, Weapon, action, armour, armours,
                    condition, conditions, cover, cover_names, weapon, weapons)
from ._data import range_modifier as _range_modifier


def range_modifier(range_class: str, band: str) -> RangeModifier:
    """TN and roll modifiers of a range class (pistol, shotgun, rifle, scoped rifle) at a band
    (§V Range and Weapons; our reading of the printed grid: assumption range_table_reading)."""
    return _range_modifier(range_class, band)


__all__ = ["Action", "Armour", "Condition", "RangeModifier", "Weapon", "action", "armour",
           "armours", "condition", "conditions", "cover", "cover_names", "range_modifier",
           "weapon", "weapons"]
