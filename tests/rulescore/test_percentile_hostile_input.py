"""The percentile engine refuses hostile input with a RulesError naming the input: values of the
wrong kind or shape, and inputs too large for any table to need."""

from __future__ import annotations

import random
import re

import pytest

from rulescore.errors import RulesError
from rulescore.systems import percentile as pc


def refused(message: str, call) -> None:
    """*call* raises a RulesError whose whole message is *message*."""
    with pytest.raises(RulesError) as caught:
        call()
    assert str(caught.value) == message


# --- values of the wrong kind or shape, refused by name -----------------------------------------

def test_concentration_broken_refuses_a_list_inside_the_list():
    refused("conditions must hold names such as 'STN', got ['Stunned']",
            lambda: pc.concentration_broken([["Stunned"]]))


def test_missile_shot_names_every_modifier_and_leaves_out_those_its_weapon_sets():
    import inspect
    params = inspect.signature(pc.missile_shot).parameters
    from rulescore.systems.percentile.missile import SHOT_MODIFIERS
    assert set(SHOT_MODIFIERS) <= set(params)
    assert not {"thrown", "launcher"} & set(params)
    with pytest.raises(TypeError):
        pc.missile_shot(60, 40, 40, thrown=None)


def test_missile_shot_refuses_a_weapon_that_is_not_a_name():
    refused("weapon must be one of bow, crossbow, sling, thrown weapon, thrown object, "
            "thrown oblong object, got ['bow']",
            lambda: pc.missile_shot(60, 40, 40, weapon=["bow"]))


def test_treatment_odds_refuses_a_roll_it_makes_itself():
    refused("roll is not an option of treatment_odds (its options are days, broadhead, "
            "dex_modifier, area, physician_index, frozen_compress; the roll runs over every "
            "face)",
            lambda: pc.treatment_odds(60, "Edge", "S2", roll=5))


@pytest.mark.parametrize("call", [
    lambda: pc.injury_sequence(rng=5),
    lambda: pc.missile_shot(60, 40, 40, rng=5),
])
def test_rng_must_be_a_random_generator(call):
    refused("rng must be a random.Random (seeded) or None, got 5", call)


def test_a_seeded_rng_still_rolls():
    assert pc.injury_sequence(rng=random.Random(7)).needs is None


# --- yes/no parameters take True or False only --------------------------------------------------

def test_missile_eml_aimed_no_is_refused_not_read_as_yes():
    refused("aimed must be True or False, got 'no'",
            lambda: pc.missile_eml(60, "Direct", aimed="no"))
    assert pc.missile_eml(60, "Direct", aimed=True).value == 70
    assert pc.missile_eml(60, "Direct", aimed=False).value == 60


YES_NO = [
    ("missile_range", (40, 40), "wet"),
    ("missile_eml", (60, "Direct"), "shooter_moving"),
    ("missile_eml", (60, "Direct"), "aimed"),
    ("direct_missile_attack", (40, 50), "still"),
    ("stray_strike", ([3], 5, 4), "volley"),
    ("missile_outcome_distribution", (50,), "volley"),
    ("missile_shot", (60, 40, 40), "wet"),
    ("heft_penalty", (10, 12), "shield_block"),
    ("reach_modifier", (3, 4), "thrust"),
    ("reach_modifier", (3, 4), "close"),
    ("melee_eml", (60,), "defence"),
    ("melee_eml", (60,), "aim"),
    ("melee_eml", (60,), "prone"),
    ("injury", (9, "E", "Skull"), "rigid_armour"),
    ("injury_level_distribution", (6, 2), "rigid_armour"),
    ("injury_impairment", ("Minor",), "shock_succeeded"),
    ("blood_stoppage", (40, 50), "cauterise"),
    ("blood_stoppage", (40, 50), "tourniquet"),
    ("coma_course", (40, 10, 4), "sheltered"),
    ("healing_roll", (40, 10, 4, 3), "infection_chance"),
    ("healing_roll", (40, 10, 4, 3), "wider_cf"),
    ("treatment_roll", (40, 50, "Edge", "S2"), "broadhead"),
    ("treatment_roll", (40, 50, "Edge", "S2"), "area"),
    ("injury_sequence", (), "rigid_armour"),
    ("injury_sequence", (), "projectile"),
    ("injury_sequence", (), "reroll"),
]


@pytest.mark.parametrize("function, args, flag", YES_NO, ids=[f"{f}-{n}" for f, _, n in YES_NO])
@pytest.mark.parametrize("value", [0, 1, "no", None])
def test_yes_no_parameters_refuse_anything_but_a_bool(function, args, flag, value):
    refused(f"{flag} must be True or False, got {value!r}",
            lambda: getattr(pc, function)(*args, **{flag: value}))


def test_impaled_and_declare_melee_flags():
    refused("projectile must be True or False, got 1", lambda: pc.impaled("S3", 1))
    sword = pc.Weapon("sword")
    refused("area must be True or False, got ''",
            lambda: pc.declare_melee(60, sword, "Ignore", area=""))


# --- messages name the parameter as the caller writes it ----------------------------------------

def test_blood_loss_advance_names_state():
    refused("state must be None, STN, INC, UNC or KIA, got 'X'",
            lambda: pc.blood_loss_advance(40, 50, state="X"))
    refused("current_state must be None, STN, INC, UNC or KIA, got 0",
            lambda: pc.injury_sequence(current_state=0))


def test_declare_melee_names_each_side():
    sword = pc.Weapon("sword")
    both = dict(defender_ml=50, defender_weapon=sword)
    refused("attacker_ml must be a whole number, got None",
            lambda: pc.declare_melee(None, sword, "Block", **both))
    refused("defender_strength must be a whole number, got True",
            lambda: pc.declare_melee(60, sword, "Block", defender_strength=True, **both))
    refused("defender_trauma must be 0 or more, got -1",
            lambda: pc.declare_melee(60, sword, "Block", defender_trauma=-1, **both))
    refused("counter_aim_zone must be from 1 to 10, got 0",
            lambda: pc.declare_melee(60, sword, "Block", counter_aim_zone=0, **both))
    refused("defender_weapon zone_die must be from 1 to 100, got 0",
            lambda: pc.declare_melee(60, sword, "Block", defender_ml=50,
                                     defender_weapon=pc.Weapon("x", zone_die=0)))


def test_impact_tas_without_an_aspect_names_both():
    refused("impact_tas 2 needs an aspect (the bonus of an Impact TA depends on it), got "
            "aspect None", lambda: pc.injury_level_distribution(6, 0, impact_tas=2))


def test_location_dice_count_names_the_zone_dice():
    with pytest.raises(RulesError, match="location_rolls must hold 3 .*zone_rolls"):
        pc.locate_strike([6, 6, 6], [5])


def test_typed_dice_name_dice():
    refused("dice must be a whole number, got None",
            lambda: pc.missile_shot(60, 40, 40, dice=[None]))
    # A typed 0 on a d100 is "00", read 100 as players read it; 101 is on no d100.
    refused("dice: shot roll (d100) must be from 1 to 100, got 101",
            lambda: pc.missile_shot(60, 40, 40, dice=[101]))


def test_arguments_a_step_does_not_reach_are_still_checked():
    # A shot waiting for its d100 never reaches the target die or the count.
    refused("target_count must be a whole number, got None",
            lambda: pc.missile_shot(60, 40, 40, target_count=None))
    refused("impact_d10 must be from 1 to 10, got 11",
            lambda: pc.missile_shot(60, 40, 40, impact_d10=11))
    refused("strength_eml must be a whole number, got None",
            lambda: pc.injury_sequence(strength_eml=None))
    refused("existing must be a list of injuries such as ['M1E'], got None",
            lambda: pc.injury_sequence(existing=None))
    refused("deviation_d8 must be from 1 to 8, got 9",
            lambda: pc.volley_missile_attack(10, 60, deviation_d8=9))
    refused("slings must be 0 or more, got -1",
            lambda: pc.missile_skill("bow", archery=50, slings=-1))


def test_zone_rolls_must_be_a_list():
    refused("zone_rolls must be a list of die rolls, got 3", lambda: pc.locate_strike(3, [5]))


# --- size bounds ---------------------------------------------------------------------------------

@pytest.mark.parametrize("call, message", [
    (lambda: pc.location_distribution(zone_die=10**7),
     "zone_die must be from 1 to 100, got 10000000"),
    (lambda: pc.injury_level_distribution(10**6, 0),
     "impact_die must be from 1 to 100, got 1000000"),
    (lambda: pc.missile_range(10, 40, thrown_pb_zone_die=101),
     "thrown_pb_zone_die must be from 1 to 100, got 101"),
    (lambda: pc.locate_strike([1] * 7, [5]),
     "zone_rolls takes at most 6 Zone Dice (one, plus one per Precision TA), got 7"),
    (lambda: pc.stray_strike([1] * 11, 5, 3, die=10),
     "target_rolls takes at most 10 Volley Precision d10 rolls, got 11"),
    (lambda: pc.compound_injury(["M1E"] * 51, "S2E", 3),
     "existing may list at most 50 injuries at one location, got 51"),
    (lambda: pc.missile_shot(60, 40, 40, dice=[5] * 41), "dice may hold at most 40 values, got 41"),
    (lambda: pc.injury_sequence(precision=6), "precision must be from 0 to 5, got 6"),
])
def test_sizes_are_bounded_and_refused_at_once(call, message):
    refused(message, call)


def test_the_largest_allowed_sizes_still_answer():
    assert sum(pc.location_distribution(100).values()) == 1
    assert sum(pc.injury_level_distribution(100, 0).values()) == 1
    assert re.fullmatch(r"EML \d+", pc.missile_eml(60, "Direct").outcome)


def test_lists_of_names_are_bounded():
    refused("conditions must hold at most 50 names, got 51",
            lambda: pc.concentration_broken(["STN"] * 51))
    refused("levels must hold at most 20 success levels, got 21",
            lambda: pc.combined_treatment_level(["S"] * 21))


def test_spend_advantages_checks_a_hand_edited_result():
    import dataclasses
    won = pc.melee_exchange(10, 70, "Block", 90, 40)
    refused("result ta_choices must be a tuple of impact, precision, action, setup, got 5",
            lambda: pc.spend_advantages(dataclasses.replace(won, ta_choices=5), []))
    refused("result tactical_advantages must be a whole number, got 'x'",
            lambda: pc.spend_advantages(dataclasses.replace(won, tactical_advantages="x"), []))
    assert pc.spend_advantages(won, ["precision", "impact"]).precision_dice == 1


# --- a number too long to print -----------------------------------------------------------------

HUGE = 10**5000


@pytest.mark.parametrize("name, call", [
    ("eml", lambda: pc.skill_test(35, HUGE)),
    ("level", lambda: pc.level_rank(HUGE)),
    ("location", lambda: pc.injury(9, "E", location=HUGE)),
    ("hr", lambda: pc.healing_roll(35, 5, HUGE, 2)),
])
def test_a_5000_digit_number_is_refused_by_its_length(name, call):
    with pytest.raises(RulesError) as caught:
        call()
    message = str(caught.value)
    assert message.startswith(f"{name} must ")
    assert message.endswith("got a number of more than 4300 digits")
