"""The Veil & Lead engine refuses hostile input with a RulesError naming the input as the caller
writes it, and bounds what a caller may ask for."""

from __future__ import annotations

import pytest

from rulescore.errors import RulesError
from rulescore.systems import veil_and_lead as vl
from rulescore.systems.veil_and_lead.encounter import Encounter


def refused(message: str, call) -> None:
    """*call* raises a RulesError whose whole message is *message*."""
    with pytest.raises(RulesError) as caught:
        call()
    assert str(caught.value) == message


def test_two_highest_checks_its_dice():
    refused("dice must be a list of d8 faces (1 to 8), got 5", lambda: vl.two_highest(5))
    refused("dice must hold d8 faces from 1 to 8, got True", lambda: vl.two_highest([True]))
    assert vl.two_highest([3, 8, 5]) == (8, 5)


def test_held_action_names_tempo_used():
    refused("tempo_used must be from 0 to 19, got 25", lambda: vl.held_action(3, 25))
    refused("tempo_used must be a whole number, got None", lambda: vl.held_action(3, None))
    assert vl.held_action(17, 5) == 2


def test_duel_odds_names_each_side():
    refused("pool_a must be a whole number, got None", lambda: vl.duel_odds(None, 3))
    refused("pool_b must be 40 or less, got 41", lambda: vl.duel_odds(3, 41))
    refused("bonus_b must be a whole number, got 1.5", lambda: vl.duel_odds(3, 3, 0, 1.5))


def test_duel_names_and_dice_counts():
    args = ([5, 4, 3], [5, 4, 3])
    sides = dict(quick_a=2, awareness_a=1, quick_b=2, awareness_b=1)
    refused("name_a must be a non-empty name, got None",
            lambda: vl.duel(*args, **sides, name_a=None))
    refused("dice_b must be 4 d8 (quick_b 2 + awareness_b 2), got 3",
            lambda: vl.duel(*args, **(sides | {"awareness_b": 2})))


def test_dice_counts_name_what_they_depend_on():
    refused("faces must be 5 d8 (quick 3 + awareness 3, fatigued −1), got 6",
            lambda: vl.initiative([1] * 6, 3, 3, fatigued=True))
    refused("faces must be 4 d8 (quick 3 + awareness 2, armour 'Ironbrand Suit'), got 5",
            lambda: vl.initiative([1] * 5, 3, 2, armour="Ironbrand Suit"))
    refused("faces must be 3 d8 (grit 2 + resilience 1), got 2",
            lambda: vl.resist([5, 4], 2, 1))
    refused("grappler_dice must be 3 d8 (grappler_iron 2 + grappler_brawl 1), got 2",
            lambda: vl.escape([5, 4], [5, 4], iron=1, brawl=1, grappler_iron=2,
                              grappler_brawl=1))
    refused("faces must be 3 d8 (QUICK 2 + Ride 1), got 2",
            lambda: vl.ride_check([5, 4], 2, 1))
    refused("faces must be 4 d8 (ECHO 3 + Ride 1), got 2",
            lambda: vl.ride_check([5, 4], 3, 1, situation="panic"))


def test_vitality_beyond_full_names_the_iron():
    refused("vitality must be 9 or less (full Vitality for iron 1), got 11",
            lambda: vl.bleed_out_turn(11, 1))
    refused("vitality must be 9 or less (full Vitality for iron 1), got 10",
            lambda: vl.long_rest(10, 1))
    refused("vitality -3 is at or below the death threshold -3 for iron 1: the character is "
            "already dead", lambda: vl.bleed_out_turn(-3, 1))


def test_data_lookups_name_their_parameter():
    refused("name must be one of None, Duster, Boiler Plate, Consortium Vest, Ironbrand Suit, "
            "got 'Chainmail'", lambda: vl.armour("Chainmail"))
    with pytest.raises(RulesError, match=r"^name must be one of .*, got 'Laser'$"):
        vl.weapon("Laser")
    for lookup in (vl.action, vl.condition, vl.cover):
        with pytest.raises(RulesError, match=r"^name must be one of .*, got None$"):
            lookup(None)
    with pytest.raises(RulesError, match=r"^off_weapon must be one of .*, got True$"):
        vl.two_weapon_tempo("Peacemaker", True)
    with pytest.raises(RulesError, match=r"^attacker_conditions must be one of .*'Sleepy'$"):
        vl.plan_attack(attribute=3, skill=1, defense=10, attacker_conditions=["Sleepy"])


def test_stray_ally_die_names_the_allies():
    refused("die must be from 1 to 1 (one face for each of the 1 allies), got 2",
            lambda: vl.stray_ally(["Ann"], 2))


@pytest.mark.parametrize("call, message", [
    (lambda: vl.first_aid([5, 4, 3], 3, 3, already_treated=[]),
     "already_treated must be True or False, got []"),
    (lambda: vl.exposes("Steady Shot", 4, light_weapon=1),
     "light_weapon must be True or False, got 1"),
    (lambda: vl.effective_speed(6, prone="no"), "prone must be True or False, got 'no'"),
    (lambda: vl.stabilize([5, 4], -1, fumble=0), "fumble must be True or False, got 0"),
])
def test_yes_no_parameters_refuse_anything_but_a_bool(call, message):
    refused(message, call)


def test_arguments_a_rule_does_not_use_are_still_checked():
    # Steady Shot has a fixed tempo; a melee weapon takes no range band.
    refused("chosen must be a whole number, got True",
            lambda: vl.tempo("Steady Shot", chosen=True))
    with pytest.raises(RulesError, match=r"^weapon must be one of .*, got 'Laser'$"):
        vl.tempo("Steady Shot", "Laser")
    refused("band must be one of Point-Blank, Close, Near, Far, Extreme, got None",
            lambda: vl.attack_tn(10, weapon="Saber", band=None))


def test_a_patient_s_vitality_is_that_of_a_living_character():
    refused("vitality must be from -6 to 13, got 10000000",
            lambda: vl.stabilize([5, 4], 10_000_000))
    refused("vitality must be from -6 to 13, got -7", lambda: vl.stabilization_tn(-7))
    refused("vitality must be from -6 to 13, got 14",
            lambda: vl.stabilization_probability(3, 14))
    assert vl.stabilization_tn(-6) == 17
    assert vl.stabilization_tn(13) == 11


def test_encounter_duel_names_each_side():
    enc = Encounter().join("Ann", pc=True, quick=3, margin=4).join("Bo", pc=False, quick=2,
                                                                   margin=4)
    refused("tempo_second must be from 1 to 19, got 0",
            lambda: enc.duel("Ann", "Bo", 4, 0))
    refused("exposed_first must be True or False, got 'yes'",
            lambda: enc.duel("Ann", "Bo", 4, 4, exposed_first="yes"))


def test_lists_of_fighters_are_bounded():
    refused("allies may hold at most 100 names, got 101",
            lambda: vl.stray_ally([f"A{i}" for i in range(101)], 1))
    refused("tokens may hold at most 100, got 101",
            lambda: vl.next_turn(0, [vl.Token(f"T{i}", 3) for i in range(101)]))
    refused("combatants may hold at most 100, got 101",
            lambda: vl.tie_order([vl.Combatant(f"C{i}", True, 1, 1) for i in range(101)]))


# --- a number too long to print -----------------------------------------------------------------

HUGE = 10**5000


@pytest.mark.parametrize("name, call", [
    ("tn", lambda: vl.check([5, 4, 3], HUGE)),
    ("dice", lambda: vl.two_highest(HUGE)),
    ("vitality", lambda: vl.stabilize([5, 4, 3], HUGE)),
    ("name", lambda: vl.weapon(HUGE)),
])
def test_a_5000_digit_number_is_refused_by_its_length(name, call):
    with pytest.raises(RulesError) as caught:
        call()
    message = str(caught.value)
    assert message.startswith(f"{name} must ")
    assert message.endswith("got a number of more than 4300 digits")
