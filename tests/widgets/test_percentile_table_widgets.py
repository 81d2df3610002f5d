"""The percentile table tools in plain pytest: set values, press buttons, read what is shown."""

import html
import random

from rulescore.systems import percentile as pc
from rulescore.text import percent
from widgets.lean import is_shown
from widgets.percentile_table import MeleeExchange, TestRoller


def test_test_roller_odds_and_floor():
    tool = TestRoller(65)
    assert "<td>Critical Success (CS)</td><td>13.00%</td><td>13/100</td>" in tool.odds.value
    assert "<td>Critical Failure (CF)</td><td>7.00%</td><td>7/100</td>" in tool.odds.value
    tool.eml.value = -20
    assert "EML -20 is tested as <b>5</b>" in tool.odds.value
    assert "<td>Critical Success (CS)</td><td>1.00%</td>" in tool.odds.value


def test_test_roller_seed_typed_and_tens_ones():
    tool = TestRoller(65)
    tool.entry.roll(3)
    roll = random.Random(3).randint(1, 100)
    level = pc.success_level(roll, 65)
    assert f"Rolled {roll} against EML 65" in tool.result.value and f"({level})" in tool.result.value
    first = tool.result.value
    tool.entry.replay_button.click()
    assert tool.result.value == first
    tool.entry.my_dice.value = "65"
    tool.entry.use_dice_button.click()
    assert "Rolled 65 against EML 65: Critical Success (CS)" in tool.result.value
    tool.entry.tens.value, tool.entry.ones.value = "70", "0"
    tool.entry.use_tens_button.click()
    assert "Rolled 70 against EML 65: Critical Failure (CF)" in tool.result.value
    assert "<b>Fumble</b>" in tool.result.value
    tool.test.value = "dodge"
    tool.entry.use_tens_button.click()
    assert "<b>Stumble</b>" in tool.result.value
    assert tool.explanation.value.count("<li>") >= 1


def test_test_roller_errors():
    tool = TestRoller(65)
    tool.entry.my_dice.value = "101"
    tool.entry.use_dice_button.click()
    assert "roll" in tool.entry.error.value and "101" in tool.entry.error.value
    tool.entry.my_dice.value = "3, 4"
    tool.entry.use_dice_button.click()
    assert "My dice must be one d100, got 2 numbers" in tool.entry.error.value
    tool.entry.tens.value, tool.entry.ones.value = "75", "3"
    tool.entry.use_tens_button.click()
    assert "75" in tool.entry.error.value
    tool.entry.ones.value = ""
    tool.entry.use_tens_button.click()
    assert "Ones die is empty" in tool.entry.error.value


def test_melee_odds_match_the_engine():
    tool = MeleeExchange(70, "Block", 60)
    dist = pc.melee_outcome_distribution(70, "Block", 60)
    p = dist[("strike", 2)]
    assert f"<td>The attacker strikes, 2 stars</td><td>{percent(p)}</td><td>{p}</td>" \
        in tool.odds.value
    tool.defence.value = "Ignore"
    assert tool.defence_eml.disabled
    ignore = pc.melee_outcome_distribution(70, "Ignore")
    assert f"<td>{percent(ignore[('strike', 3)])}</td>" in tool.odds.value


def test_melee_seed_typed_and_errors():
    tool = MeleeExchange(60, "Block", 60)
    tool.entry.my_dice.value = "35, 71"
    tool.entry.use_dice_button.click()
    assert ("Rolls 35, 71 (attacker CS, defender F): the attacker strikes, 2 victory stars; "
            "1 tactical advantage(s)") in tool.result.value
    tool.defence.value = "Dodge"
    tool.entry.my_dice.value = "36, 51"
    tool.entry.use_dice_button.click()
    assert "dodged, 1 victory star" in tool.result.value
    tool.entry.roll(9)
    a, d = (lambda r: (r.randint(1, 100), r.randint(1, 100)))(random.Random(9))
    expected = pc.melee_exchange(a, 60, "Dodge", d, 60)
    assert f"Rolls {a}, {d}" in tool.result.value and f"attacker {expected.attack_level}" \
        in tool.result.value
    tool.entry.my_dice.value = "36"
    tool.entry.use_dice_button.click()
    assert "My dice must be 2 d100 (attacker, then defender), got 1 number" in tool.entry.error.value
    tool.entry.my_dice.value = "101, 50"
    tool.entry.use_dice_button.click()
    assert "the attacker&#x27;s d100 must be from 1 to 100, got 101" in tool.entry.error.value


def test_blow_walker_odds_follow_the_inputs():
    from widgets.percentile_table import BlowWalker
    tool = BlowWalker()
    where = pc.location_distribution(6, 1)
    assert f"<td>Thorax</td><td>{percent(where['Thorax'])}</td>" in tool.odds.value
    tool.armour.value = 4
    hurt = pc.injury_level_distribution(10, 3, 4, aspect="E")
    assert f"<td>S2</td><td>{percent(hurt['S2'])}</td>" in tool.odds.value
    tool.aim.value = 10  # the lowest zone: a d6 counts past the body five times in six
    assert "<td>Miss</td><td>83.33%</td><td>5/6</td>" in tool.odds.value


def test_blow_walker_walks_the_seed_example():
    from widgets.percentile_table import BlowWalker
    tool = BlowWalker()
    tool.aim.value, tool.modifier.value, tool.armour.value = 4, 4, 4  # d10+3, STR +1; AV 4
    tool.entry.my_dice.value = "2, 7, 8, 75"
    tool.entry.use_dice_button.click()
    assert ("Dice 2, 7, 8, 75: Abdomen: S2E injury; shock 8 → Incapacitated (INC)"
            in tool.result.value)
    assert "Zone Dice 2 → ZN5 (aimed at ZN4)" in tool.explanation.value
    assert "SHK = location 4 + injury 2 + shock roll 2 = 8: INC" in tool.explanation.value
    tool.aim.value = 6
    tool.entry.my_dice.value = "6, 7, 8, 75"
    tool.entry.use_dice_button.click()
    assert "3 more typed than this injury sequence uses" in tool.entry.error.value
    tool.entry.my_dice.value = "6"  # a miss needs only the Zone Die
    tool.entry.use_dice_button.click()
    assert "Dice 6: The Zone Die carries the blow past the body: a miss" in tool.result.value
    tool.entry.roll(4)
    first = tool.result.value
    tool.entry.replay_button.click()
    assert tool.result.value == first and "(seed 4)" in first
    tool.entry.my_dice.value = "1, 11, 8, 75"
    tool.entry.use_dice_button.click()
    assert "Location Die 1 (d10) must be from 1 to 10, got 11" in tool.entry.error.value
    tool.entry.my_dice.value = "1, 2"  # the walk goes as far as the typed dice reach
    tool.entry.use_dice_button.click()
    assert "Dice 1, 2: Thorax: roll the impact die (type the impact d10 next)" in \
        tool.result.value


def test_melee_declared_modifiers_reach_both_emls_and_the_odds():
    tool = MeleeExchange(60, "Block", 60)
    tool.aim.value = True                 # -10
    tool.d_reach.value = 5                # attacker 2 short: -10
    tool.outnumbered.value = 2            # defender -10
    tool.a_heft.value = 12                # STR 10: -10
    tool.a_trauma.value = 5
    assert "The attacker tests at EML <b>25</b>" in tool.emls.value
    tool.d_prone.value = True             # defender -20; aiming at a prone foe costs nothing
    assert "The attacker tests at EML <b>35</b>" in tool.emls.value
    assert "the defender's Block at EML <b>30</b>" in tool.emls.value
    dist = pc.melee_outcome_distribution(35, "Block", 30)
    p = dist[("blocked", 1)]
    assert f"<td>{percent(p)}</td><td>{p}</td>" in tool.odds.value
    tool.defence.value = "Ignore"
    assert tool.d_prone.disabled and "(unopposed)" in tool.emls.value
    tool.in_close.value = True
    tool.a_thrust.value = True
    tool.d_thrust.value = True
    tool.defence.value = "Counterstrike"
    tool.d_str.value = 2
    tool.d_heft.value = 4
    assert "Counterstrike at EML" in tool.emls.value


def test_melee_tactical_advantages_are_spent_or_refused():
    tool = MeleeExchange(60, "Ignore", 60)
    assert not is_shown(tool.spend_box)
    tool.entry.my_dice.value = "36"
    tool.entry.use_dice_button.click()
    assert is_shown(tool.spend_box)
    tool.spend_text.value = "precision, impact"
    tool.spend_button.click()
    assert "1 × precision: one more Zone Die" in tool.spent.value
    tool.spend_text.value = "setup, impact"
    tool.spend_button.click()
    assert "“Advantages to take”: setup is not open to this victory" in tool.spend_error.message


def test_a_defender_with_a_lost_arm_makes_no_roll():
    """Injury 5, Tests with Grievous Injury: a Block needing the lost arm is an automatic CF.
    Attacker EML 60: S (48 faces) against CF wins 2 stars, CS (12) wins 3, F and CF (40) do
    nothing. One d100 is rolled: 36 is S, a strike, and the defender's automatic Fumble."""
    tool = MeleeExchange(60, "Block", 60)
    tool.d_lost.value = "Arms"
    assert "automatic critical failure (no roll)" in tool.emls.value
    assert "<td>48.00%</td><td>12/25</td>" in tool.odds.value
    tool.entry.my_dice.value = "36"
    tool.entry.use_dice()
    assert "the defender suffers an automatic fumble" in tool.result.value
    assert ", 2 victory stars" in tool.result.value


def test_a_defender_who_ignores_leaves_their_setups_unused():
    """Melee Test Results, Setup lifts a Melee or Dodge test; an Ignoring defender makes
    none, so the Defender's Setup advantages do not apply (assumption setup_without_test):
    36 against EML 60 is an S, three stars, as without them, and no error."""
    tool = MeleeExchange(60, "Block", 60)
    tool.d_setup.value = 2
    tool.defence.value = "Ignore"
    assert tool.d_setup.disabled and tool.error.message == ""
    tool.entry.my_dice.value = "36"
    tool.entry.use_dice()
    assert tool.entry.error.message == "" and ", 3 victory stars" in tool.result.value
    assert html.escape("Defender's Setup TAs from the last round (2) do not apply: the "
                       "defender Ignores, so there is no Melee or Dodge test to lift") \
        in tool.explanation.value
