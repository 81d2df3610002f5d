"""The conditions chapter's reaction, two-weapon and mounted-combat tools: the chapter's worked
examples give the printed results, each read from the engine."""

from __future__ import annotations

import random

import pytest

from rulescore.roster import Roster
from rulescore.systems import veil_and_lead as vl
from rulescore.text import percent
from widgets.roster import shared_roster
from widgets.veil_and_lead_more import FreeReaction, MountedCombat, TwoWeapons
from tests.widgets.fresh_rosters import fresh  # noqa: F401 (autouse)


def test_a_reaction_costs_one_mettle_once_and_never_while_surprised():
    tool = FreeReaction("Dodge", 2)
    assert "Dodge: Mettle 2 → 1" in tool.result.value
    tool.since.value = 1
    assert "Refused: Mettle stays at 2" in tool.result.value
    tool.since.value = 0
    tool.surprised.value = True
    assert "Refused" in tool.result.value and "Surprised" in tool.explanation.value
    tool.mettle.value = 0
    tool.surprised.value = False
    assert tool.error.message == "" and ("Refused" in tool.result.value) == (
        not vl.free_reaction("Dodge", 0).allowed)


def test_two_weapons_act_at_the_pair_s_tempo():
    tool = TwoWeapons("Peacemaker", "Derringer")
    assert "<b>tempo 5</b>" in tool.result.value
    tool.off.value = "Peacemaker"
    assert f"<b>tempo {vl.two_weapon_tempo('Peacemaker', 'Peacemaker')}</b>" in tool.result.value


def test_the_saddle_the_riding_check_and_the_fall_of_the_chapter():
    tool = MountedCombat("Saber")
    tool.charge.value = True
    assert "+1 Step, +2 damage" in tool.modifiers.value
    tool.attribute.value, tool.ride.value = 2, 1
    assert percent(vl.ride_probability(2, 1)) in tool.odds.value
    tool.entry.my_dice.value = "6, 5, 3"
    tool.entry.use_dice_button.click()
    assert "Stays in the saddle" in tool.result.value
    tool.vitality.value, tool.iron.value = 6, 2
    tool.fall_entry.my_dice.value = "2"
    tool.fall_entry.use_dice_button.click()
    assert "Vitality 4: Prone, Wounded" in tool.fall.value
    assert "Stays in the saddle" in tool.result.value  # the rider's fields keep the check
    tool.fall_entry.roll(9)
    d3 = random.Random(9).randint(1, 3)
    assert f"Vitality {6 - d3}:" in tool.fall.value and "(seed 9" in tool.fall.value
    # the fall's own entry, told apart from the riding check's by its names and messages
    assert (tool.fall_entry.roll_button.description, tool.fall_entry.my_dice.description) == \
        ("Roll the fall", "Fall dice")
    tool.fall_entry.my_dice.value = "2, 3"
    tool.fall_entry.use_dice_button.click()
    assert tool.fall_entry.error.message == "“Fall dice” must be one d3 (d3), got 2 numbers"
    tool.weapon.value = "Repeater"
    assert "−2 dice" in tool.modifiers.value
    tool.stationary.value = True
    assert "no change" in tool.modifiers.value


def test_the_rider_fills_from_the_roster():
    shared_roster("veil_and_lead").set_roster(
        Roster(vl.ROSTER).add("Ada", quick=4, iron=3, weapon="Cavalry Lance"))
    tool = MountedCombat()
    tool.pick.menu.value = "Ada"
    assert (tool.weapon.value, tool.attribute.value, tool.iron.value, tool.vitality.value) == (
        "Cavalry Lance", 4, 3, vl.vitality(3))
