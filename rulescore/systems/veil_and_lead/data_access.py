"""Public read access to The Veil & Lead's validated data records (weapons, armour, actions,
conditions, cover, the weapon-by-range grid).

A record is looked up by ``name``, and a name that is not in the table is refused with a
message naming ``name`` (the engine's own functions name their own inputs instead: ``weapon``,
``main_weapon``…)."""

from __future__ import annotations

from . import _data
from ._data import (Action, Armour, Condition, RangeModifier, Weapon, armours, conditions,
                    cover_names, weapons)


def weapon(name: str) -> Weapon:
    """The weapon called *name* (§III Weapon Base Tempos, §VIII WR reference)."""
    return _data.weapon(name, param="name")


def armour(name: str) -> Armour:
    """The armour called *name* (§VIII Armor Rating Reference)."""
    return _data.armour(name, param="name")


def action(name: str) -> Action:
    """The action called *name* (§III Tempo & Actions, §V Movement Actions)."""
    return _data.action(name, param="name")


def condition(name: str) -> Condition:
    """The condition or state called *name* (§XI Combat Conditions and others)."""
    return _data.condition(name, param="name")


def cover(name: str) -> tuple[int, bool]:
    """(TN modifier, can be targeted) for the cover called *name* (§V Cover)."""
    return _data.cover(name, param="name")


def range_modifier(range_class: str, band: str) -> RangeModifier:
    """TN and roll modifiers of a range class (pistol, shotgun, rifle, scoped rifle) at a band
    (§V Range and Weapons; our reading of the printed grid: assumption range_table_reading)."""
    return _data.range_modifier(range_class, band)


__all__ = ["Action", "Armour", "Condition", "RangeModifier", "Weapon", "action", "armour",
           "armours", "condition", "conditions", "cover", "cover_names", "range_modifier",
           "weapon", "weapons"]
