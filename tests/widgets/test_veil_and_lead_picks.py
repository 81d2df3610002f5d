"""Every Veil & Lead chapter tool that takes a fighter's numbers fills them from the chapter's
roster (FighterPick): the fields take the row's values, worked out by the engine where a rule
combines them, and stay the reader's to change."""

from __future__ import annotations

import pytest

from rulescore.roster import Roster
from rulescore.systems import veil_and_lead as vl
from widgets.roster import FighterPick, forget_shared_rosters, shared_roster
from widgets.veil_and_lead_more import (DuelRoller, HoldAndResist, MovementAndRange,
                                        TempoCalculator)
from widgets.veil_and_lead_table import (AttackCalculator, CoupDeGrace, DownedWalker, FirstAid,
                                         HordeCalculator)

ADA = dict(pc=True, quick=4, savvy=3, iron=3, grit=3, awareness=2, weapon_skill=3,
           resilience=2, medicine=2, weapon="Saber", weapon_attribute="IRON", weapon_bonus=1,
           armour="Boiler Plate", defense_bonus=1)


@pytest.fixture(autouse=True)
def party(monkeypatch):
    monkeypatch.delenv("RULEBOOK_TARGET", raising=False)
    forget_shared_rosters()
    shared_roster("veil_and_lead").set_roster(
        Roster(vl.ROSTER).add("Ada", **ADA).add("Gang", horde=6, weapon="Repeater",
                                                weapon_skill=2))
    yield
    forget_shared_rosters()


def picks(tool) -> list[FighterPick]:
    return [v for v in vars(tool).values() if isinstance(v, FighterPick)]


ALL = (TempoCalculator, MovementAndRange, DuelRoller, HoldAndResist, AttackCalculator,
       DownedWalker, FirstAid, CoupDeGrace, HordeCalculator)


@pytest.mark.parametrize("tool", ALL, ids=[t.__name__ for t in ALL])
def test_each_tool_shows_its_picks_inside_it_and_a_pick_leaves_no_error(tool):
    built = tool()
    found = picks(built)
    assert found, f"{tool.__name__} has no Fill from fighter menu"
    for pick in found:
        assert pick.menu.options == ("—", "Ada", "Gang")
        pick.menu.value = "Ada"
    assert built.error.message == ""


def test_the_attack_calculator_fills_the_attacker_and_the_target():
    tool = AttackCalculator()
    tool.attacker_pick.menu.value = "Ada"
    assert (tool.attribute.value, tool.skill.value, tool.roll_bonus.value) == (3, 3, 1)
    assert (tool.weapon.value, tool.action.value, tool.band.value) == ("Saber", "Strike",
                                                                       "Point-Blank")
    tool.target_pick.menu.value = "Ada"
    plate = vl.armour("Boiler Plate")
    assert tool.defense.value == vl.defense(4, 3, 1 + plate.defense_modifier)
    assert tool.armour.value == "Boiler Plate" and tool.error.message == ""
    tool.skill.value = 1  # still the reader's field
    assert tool.plan is not None and tool.plan.pool == vl.plan_attack(
        attribute=3, skill=1, defense=tool.defense.value, weapon="Saber", action="Strike",
        band="Point-Blank", roll_bonus=1, ar=plate.ar, hardened=plate.hardened).pool


def test_the_healing_tools_fill_the_patient_and_the_healer():
    walker = DownedWalker()
    walker.patient_pick.menu.value = "Ada"
    walker.healer_pick.menu.value = "Ada"
    assert walker.iron.value == 3 and walker.pool.value == vl.healer_pool(3, 2) == 5
    aid = FirstAid()
    aid.patient_pick.menu.value = "Ada"
    aid.medic_pick.menu.value = "Ada"
    assert aid.iron.value == 3 and aid.pool.value == 5


def test_the_coup_de_grace_takes_the_weapon_and_the_point_blank_tn():
    tool = CoupDeGrace()
    tool.target_pick.menu.value = "Ada"
    defense = vl.defense(4, 3, 1 + vl.armour("Boiler Plate").defense_modifier)
    assert tool.tn.value == vl.attack_tn(defense, weapon="Peacemaker", band="Point-Blank")
    tool.attacker_pick.menu.value = "Ada"
    assert tool.weapon.value == "Saber" and tool.roll_bonus.value == 1
    assert tool.tn.value == vl.attack_tn(defense, weapon="Saber", band="Point-Blank")


def test_the_horde_the_duel_the_checks_tempo_and_movement():
    horde = HordeCalculator()
    horde.pick.menu.value = "Gang"
    assert (horde.size.value, horde.base.value, horde.kind.value) == (
        6, vl.attack_pool(3, 2), "ranged")
    duel = DuelRoller()
    duel.pick_b.menu.value = "Ada"
    assert (duel.name_b.value, duel.quick_b.value, duel.aware_b.value) == ("Ada", 4, 2)
    checks = HoldAndResist()
    checks.pick.menu.value = "Ada"
    assert (checks.attribute.value, checks.skill.value) == (3, 2)
    tempo = TempoCalculator("Quick Shot", "Peacemaker")
    tempo.pick.menu.value = "Ada"
    assert (tempo.action.value, tempo.weapon.value) == ("Strike", "Saber")
    assert tempo.error.message == ""
    move = MovementAndRange()
    move.pick.menu.value = "Ada"
    assert (move.quick.value, move.weapon.value) == (4, "Saber")
