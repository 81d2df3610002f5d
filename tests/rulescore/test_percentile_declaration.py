"""Melee 1-2 declarations and the tactical advantages of a victory, applied."""

import pytest

from rulescore.errors import RulesError
from rulescore.systems import percentile as pc

SWORD = pc.Weapon("broadsword", reach=3, heft=5, zone_die=6, aspect="E")
SPEAR = pc.Weapon("spear", reach=5, thrust=True, heft=4, zone_die=8, aspect="P")
SHIELD = pc.Weapon("round shield", reach=1, heft=6, zone_die=4, aspect="B")


def test_block_with_a_shield_may_point_to_a_spear_for_reach():
    """The defender blocks with a shield but names the readied spear: the attacker's sword is
    2 reach short, -10; aiming low at ZN4 costs another -10."""
    d = pc.declare_melee(60, SWORD, "Block", defender_ml=55, defender_weapon=SPEAR, aim_zone=4)
    assert (d.attack_eml, d.defence_eml) == (40, 55)
    assert (d.zone_die, d.aim_zone, d.aspect) == (6, 4, "E")


def test_counterstrike_thrust_bonus_outnumbered_and_heft():
    d = pc.declare_melee(60, SWORD, "Counterstrike", defender_ml=60, defender_weapon=SPEAR,
                         outnumbered=3, defender_strength=3)
    # spear thrust 2 reach longer: +10; outnumbered by 3: -20; heft 4 vs STR 3: -5
    assert d.defence_eml == 60 + 10 - 20 - 5
    assert d.attack_eml == 50 and d.counter_zone_die == 8


def test_close_swaps_reach():
    d = pc.declare_melee(60, SPEAR, "Dodge", defender_ml=60, defender_weapon=SWORD, close=True)
    assert d.attack_eml == 50        # in Close the longer spear is penalised


def test_dodge_ignores_heft_and_ignore_is_unopposed():
    heavy = pc.Weapon("maul", reach=3, heft=20)
    d = pc.declare_melee(60, SWORD, "Dodge", defender_ml=60, defender_weapon=heavy)
    assert d.defence_eml == 60
    ignored = pc.declare_melee(60, SWORD, "Ignore")
    assert ignored.defence_eml is None and ignored.outcome == "EML 60 against Ignore"


def test_area_attacks_declare_no_defence():
    d = pc.declare_melee(60, SWORD, None, area=True)
    assert d.defence is None and d.attack_eml == 60
    with pytest.raises(RulesError, match="defence must be None for an area attack"):
        pc.declare_melee(60, SWORD, "Block", area=True)


@pytest.mark.parametrize("kwargs, message", [
    (dict(defence="Parry"), "defence must be one of"),
    (dict(defence="Block"), "defender_weapon must be a Weapon"),
    (dict(weapon="sword"), "weapon must be a Weapon"),
    (dict(weapon=pc.Weapon("x", aspect="Q")), "aspect must be one of"),
])
def test_bad_declarations_are_named(kwargs, message):
    args = dict(attacker_ml=60, weapon=SWORD, defence="Ignore") | kwargs
    with pytest.raises(RulesError, match=message):
        pc.declare_melee(**args)


def test_the_seeds_ignore_example_spends_one_precision_and_one_impact():
    win = pc.melee_exchange(36, 60, "Ignore")
    spent = pc.spend_advantages(win, ["precision", "impact"])
    assert (spent.precision_dice, spent.impact_tas, spent.bonus_actions) == (1, 1, 0)
    with pytest.raises(RulesError, match="setup is not open to this victory"):
        pc.spend_advantages(win, ["setup", "impact"])
    with pytest.raises(RulesError, match="must name 2 tactical"):
        pc.spend_advantages(win, ["impact"])


def test_block_victory_may_set_up_the_next_round():
    block = pc.melee_exchange(71, 60, "Block", 35, 60)     # defender CS vs attacker F
    assert block.winner == "defender" and "setup" in block.ta_choices
    spent = pc.spend_advantages(block, ["setup"] * block.tactical_advantages)
    assert spent.setup == block.tactical_advantages
    assert pc.setup_level("F") == "S" and pc.setup_level("S", 2) == "CS"
    assert pc.setup_level("CS") == "CS"                      # beyond CS is not modelled


def test_a_counterstrike_aimed_at_a_non_default_zone_pays_the_aim_penalty():
    """Melee 2 Melee Test, Aim Penalty: a counterstrike is a Melee Strike, and Melee Strikes
    aiming anywhere but ZN1 take -10. ML60 counterstriking at ZN4 (equal reach, no heft,
    strength enough): 60 - 10 = 50; the same counterstrike at ZN1 stays 60."""
    sword = pc.Weapon("broadsword", reach=3, heft=0)
    aimed = pc.declare_melee(60, sword, "Counterstrike", defender_ml=60, defender_weapon=sword,
                             counter_aim_zone=4)
    assert (aimed.attack_eml, aimed.defence_eml) == (60, 50)
    plain = pc.declare_melee(60, sword, "Counterstrike", defender_ml=60, defender_weapon=sword)
    assert plain.defence_eml == 60
    assert pc.melee_eml(60, defence=True, aim=True).value == 50


def test_a_standing_striker_aims_anywhere_at_a_prone_target_for_free():
    """Injury 1 Location, Aim Penalty: striking a prone target while standing, any zone counts
    as a default one. ML60 aiming at ZN4 against a prone defender who Ignores: 60, not 50. A
    prone attacker gets no such freedom: 60 - 10 aim - 20 prone = 30."""
    sword = pc.Weapon("broadsword", reach=3, heft=0)
    assert pc.declare_melee(60, sword, "Ignore", aim_zone=4, defender_prone=True).attack_eml == 60
    assert pc.declare_melee(60, sword, "Ignore", aim_zone=4).attack_eml == 50
    both = pc.declare_melee(60, sword, "Ignore", aim_zone=4, defender_prone=True,
                            attacker_prone=True)
    assert both.attack_eml == 30
    # and the other way round: a standing counterstriker over a prone attacker aims freely
    d = pc.declare_melee(60, sword, "Counterstrike", defender_ml=60, defender_weapon=sword,
                         counter_aim_zone=8, attacker_prone=True)
    assert (d.attack_eml, d.defence_eml) == (40, 60)
