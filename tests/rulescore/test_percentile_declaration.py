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
