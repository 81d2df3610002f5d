"""One way to roll: every public function of every system that reads a die takes ``dice=`` (a
DiceSource, seeded or typed), unless it is a step that only reads a die its caller already drew
and the caller takes ``dice=``. The list of such steps says why each is one, so a new function
that reads a die cannot silently miss the dice source."""

import importlib
import inspect
import re

import pytest

from rulescore.systems import names

DIE_PARAMETER = re.compile(r"(^|_)(roll|rolls|faces|die|d\d+)$")
NOT_A_DIE = {"min_roll": "a threshold", "zone_die": "a die size", "impact_die": "a die size",
             "thrown_pb_zone_die": "a die size", "dodge_equal_rolls": "a rule switch",
             "free_press_rolls": "a count of rolls to come"}

STEPS = {
    "percentile.success_level": "reads the level of a d100 its caller drew (every test)",
    "percentile.mishap_type": "reads the mishap a CF's ones die names (skill_test draws it)",
    "percentile.direct_missile_attack": "a step of missile_shot, which takes dice",
    "percentile.volley_missile_attack": "a step of missile_shot, which takes dice",
    "percentile.stray_strike": "a step of missile_shot, which takes dice",
    "percentile.strike_location": "a step of locate_strike / injury_sequence (dice)",
    "percentile.locate_strike": "a step of injury_sequence, which takes dice",
    "percentile.impact": "a step of injury_sequence, which takes dice",
    "percentile.face_feature": "a table lookup for a d20 the GM rolls on the optional table",
    "percentile.healing_period": "InjuryRecord.with_random_period and recover draw its d3",
    "percentile.combine_treatment_rolls": "combines Treatment Rolls already made (treatment_roll)",
    "exploding_d6.chains_from_faces": "reads typed faces into chains; DiceSource.chain draws them",
    "exploding_d6.initiative_order": "orders Initiative results already rolled (roll_initiative)",
}


def _reads_a_die():
    for name in names():
        package = importlib.import_module(f"rulescore.systems.{name}")
        for attr in package.__all__:
            func = getattr(package, attr)
            if not inspect.isfunction(func):
                continue
            params = inspect.signature(func).parameters
            dice_params = [p for p in params if DIE_PARAMETER.search(p) and p not in NOT_A_DIE]
            if dice_params:
                yield f"{name}.{attr}", params


READERS = dict(_reads_a_die())


def test_the_walk_finds_the_systems_dice_readers():
    assert len(READERS) >= 40
    assert "veil_and_lead.grievous_wound" in READERS and "percentile.skill_test" in READERS


@pytest.mark.parametrize("key", sorted(set(READERS) - set(STEPS)))
def test_every_function_that_reads_a_die_takes_a_dice_source(key):
    assert "dice" in READERS[key], f"{key} reads a die but takes no dice="


@pytest.mark.parametrize("key", sorted(STEPS))
def test_each_step_is_still_a_public_die_reader_without_a_source(key):
    assert key in READERS, f"{key} is listed as a step but reads no die now: drop it"
    assert "dice" not in READERS[key], f"{key} takes dice= now: drop it from the steps"
