"""The percentile chapters' tools fill their fields from a fighter picked from the shared roster
(DESIGN.md §5 "At the table"): EMLs, weapons, armour by the aimed zone, Healing Base, what Shock
needs. The fields stay editable after the fill."""

import pytest

from rulescore.roster import Roster
from rulescore.systems import percentile as pc
from widgets.percentile_healing import HealingWalker
from widgets.percentile_injury import InjuryWalker
from widgets.percentile_missile import MissileWalker
from widgets.percentile_table import BlowWalker, MeleeExchange
from widgets.roster import forget_shared_rosters, shared_roster


@pytest.fixture(autouse=True)
def fighters():
    """Nolora the archer and a brigand in a quilt coat (AV4 on the torso against edge)."""
    forget_shared_rosters()
    shared_roster("percentile").set_roster(
        Roster(pc.ROSTER)
        .add("Nolora", archery=75, melee=55, base_range=60, missile_die="d8", missile_mod=2)
        .add("Brigand", melee=60, dodge=45, defence="Dodge", dodge_index=2, shock=70,
             strength_eml=55, healing_base=12, endurance=58, reach=5, thrust=True, heft=4,
             strength=12, zone_die="d8", aspect="P", impact_die="d8", impact_mod=4,
             str_impact=1, av_torso_e=4, rigid_torso=True))
    yield
    forget_shared_rosters()


def test_the_missile_walker_takes_the_shooter_and_target_and_passes_them_on():
    shot = MissileWalker()
    hurt = InjuryWalker(source=shot)
    shot.shooter_pick.menu.value = "Nolora"
    assert (shot.weapon.value, shot.ml.value, shot.base_range.value) == ("bow", 75, 60)
    assert (hurt.impact_die.value, hurt.modifier.value, hurt.aspect.value) == (8, 2, "P")
    assert hurt.projectile.value
    hurt.aim.value = 4
    shot.target_pick.menu.value = "Brigand"
    assert shot.dodge_index.value == 2
    assert (hurt.shock_eml.value, hurt.strength_eml.value) == (70, 55)
    assert (hurt.armour.value, hurt.rigid.value) == (0, True)   # point: no AV on the torso
    hurt.aspect.value = "E"
    assert hurt.armour.value == 4 and "Brigand's torso against edge" in hurt.armour_note.value
    hurt.armour.value = 6                                     # still editable
    assert "“" not in hurt.error.message


def test_the_melee_resolver_takes_attacker_and_defender():
    melee = MeleeExchange()
    melee.attacker_pick.menu.value = "Nolora"
    melee.defender_pick.menu.value = "Brigand"
    assert (melee.attack_eml.value, melee.defence.value, melee.defence_eml.value) == \
        (55, "Dodge", 45)
    assert (melee.d_reach.value, melee.d_thrust.value, melee.d_heft.value, melee.d_str.value,
            melee.d_zone.value, melee.d_aspect.value) == (5, True, 4, 12, 8, "P")
    told = pc.declare_melee(55, pc.Weapon("a", reach=3), "Dodge", defender_ml=45,
                            defender_weapon=pc.Weapon("d", reach=5, thrust=True, heft=4),
                            defender_strength=12)
    assert f"EML <b>{told.attack_eml}</b>" in melee.emls.value


def test_the_blow_walker_takes_the_striker_s_weapon_and_the_struck_armour():
    blow = BlowWalker()
    blow.aim.value = 4
    blow.striker_pick.menu.value = "Brigand"
    assert (blow.zone_die.value, blow.impact_die.value, blow.modifier.value,
            blow.aspect.value) == (8, 8, 5, "P")
    blow.aspect.value = "E"
    blow.struck_pick.menu.value = "Brigand"
    assert (blow.armour.value, blow.rigid.value, blow.shock_eml.value) == (4, True, 70)


def test_the_healing_walker_takes_the_patient():
    h = HealingWalker()
    h.patient_pick.menu.value = "Brigand"
    assert (h.record.name, h.record.healing_base, h.record.endurance_eml) == ("Brigand", 12, 58)
    assert (h.strength_eml.value, h.shock_ml.value) == (55, 70)


def test_a_fighter_opened_from_the_fight_brings_their_row_too():
    import dataclasses
    import json
    fight = pc.fight_for(shared_roster("percentile").roster)
    brigand = fight.combatant("Brigand")
    fight = fight.with_combatant(dataclasses.replace(
        brigand, record=brigand.record.add_injury("Abdomen", "Edge", 2), shock="STN"))
    kept = json.dumps({"format": "rulebook/fight-page", "version": 1,
                       "fight": fight.to_json(), "rolls": []})
    h = HealingWalker()
    h.from_fight.found(kept)
    h.from_fight.open_button.click()
    assert (h.record.name, h.state.value, h.strength_eml.value, h.shock_ml.value) == \
        ("Brigand", "STN", 55, 70)
    hurt = InjuryWalker()
    hurt.aim.value = 4
    hurt.from_fight.found(kept)
    hurt.from_fight.open_button.click()
    assert (hurt.state.value, hurt.shock_eml.value, hurt.armour.value) == ("STN", 70, 4)
