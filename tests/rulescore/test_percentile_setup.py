"""The Setup tactical advantage (Melee Test Results, Setup): a Melee or Dodge test made within
the next round is one success level better, in the exchange and in its exact odds."""

from collections import Counter
from fractions import Fraction

import pytest

from rulescore import RulesError
from rulescore.systems import percentile as pc


def test_a_setup_lifts_the_attacker_s_failed_roll_to_a_success():
    assert pc.setup_level("F") == "S"
    plain = pc.melee_exchange(61, 60, "Ignore")
    lifted = pc.melee_exchange(61, 60, "Ignore", attack_setups=1)
    assert (plain.attack_level, plain.stars) == ("F", 2)
    assert (lifted.attack_level, lifted.stars, lifted.tactical_advantages) == ("S", 3, 2)
    assert "Attacker's Setup TA from the last round: F lifted 1 level to S" in \
        [s.text for s in lifted.trace]


def test_a_lifted_critical_failure_brings_no_mishap():
    both = pc.melee_exchange(70, 60, "Block", 71, 60, attack_setups=1)
    assert (both.attack_level, both.attacker_mishap, both.outcome) == ("F", None, "no strike")
    assert pc.melee_exchange(70, 60, "Block", 71, 60).attacker_mishap == "Fumble"


def test_the_defender_s_setup_turns_the_block_example_around():
    """The Block example (35 CS against 71 F) with a Setup on the Block: CS against S."""
    assert pc.melee_exchange(35, 60, "Block", 71, 60).outcome == "strike"
    turned = pc.melee_exchange(35, 60, "Block", 71, 60, defence_setups=1)
    assert turned.defence_level == "S"
    assert turned.defence_level == pc.setup_level("F")


def test_a_level_is_never_lifted_past_cs():
    assert pc.melee_exchange(35, 60, "Ignore", attack_setups=3).attack_level == "CS"
    assert pc.melee_exchange(99, 60, "Ignore", attack_setups=3).attack_level == "CS"


def test_the_odds_count_every_roll_against_an_ignore():
    counts = Counter((r.outcome, r.stars) for r in
                     (pc.melee_exchange(a, 55, "Ignore", attack_setups=1) for a in range(1, 101)))
    assert pc.melee_outcome_distribution(55, "Ignore", attack_setups=1) == \
        {k: Fraction(n, 100) for k, n in counts.items()}


@pytest.mark.parametrize(("defence", "a_up", "d_up"), [
    ("Block", 1, 0), ("Dodge", 1, 1), ("Counterstrike", 2, 1)])
def test_the_odds_count_every_pair_of_rolls_with_the_setups(defence, a_up, d_up):
    counts: Counter = Counter()
    for a in range(1, 101):
        for d in range(1, 101):
            r = pc.melee_exchange(a, 50, defence, d, 45, attack_setups=a_up,
                                  defence_setups=d_up)
            counts[(r.outcome, r.stars)] += 1
    assert pc.melee_outcome_distribution(50, defence, 45, attack_setups=a_up,
                                         defence_setups=d_up) == \
        {k: Fraction(n, 10000) for k, n in counts.items()}


@pytest.mark.parametrize("bad", [True, -1, 4, 1.0, "1"])
def test_a_setup_count_is_a_whole_number_from_0_to_3(bad):
    with pytest.raises(RulesError, match="attack_setups"):
        pc.melee_exchange(61, 60, "Ignore", attack_setups=bad)
    with pytest.raises(RulesError, match="defence_setups"):
        pc.melee_outcome_distribution(60, "Block", 60, defence_setups=bad)


def test_a_defender_who_makes_no_roll_has_no_test_to_lift():
    """Melee Test Results, Setup lifts a Melee or Dodge test; a defender who Ignores, is
    helpless or defends with an unusable zone makes none, so their Setups do not apply: the
    exchange is the one without them and the explanation says so (assumption
    setup_without_test)."""
    ignored = pc.melee_exchange(61, 60, "Ignore", defence_setups=2)
    plain = pc.melee_exchange(61, 60, "Ignore")
    assert (ignored.unused_setups, plain.unused_setups) == (2, 0)
    assert (ignored.attack_level, ignored.stars, ignored.outcome) == ("F", 2, "strike")
    assert ignored.trace[:2] == plain.trace[:2] and ignored.trace[3:] == plain.trace[2:]
    assert ignored.trace[2].text == ("Defender's Setup TAs from the last round (2) do not "
                                     "apply: the defender Ignores, so there is no Melee or "
                                     "Dodge test to lift")
    helpless = pc.melee_exchange(None, 60, "Ignore", helpless=True, defence_setups=1)
    assert (helpless.stars, helpless.unused_setups) == (4, 1)
    assert helpless.trace[1].text.startswith("Defender's Setup TA from the last round (1) "
                                             "does not apply: the defender is helpless")
    lost = pc.melee_exchange(30, 60, "Block", defender_unusable_zone="Arms", defence_setups=1)
    assert (lost.defence_level, lost.stars, lost.unused_setups) == ("CF", 3, 1)
    assert pc.melee_outcome_distribution(60, "Ignore", defence_setups=3) == \
        pc.melee_outcome_distribution(60, "Ignore")
    assert pc.melee_outcome_distribution(60, "Block", 60, defender_unusable_zone="Arms",
                                         defence_setups=1) == \
        pc.melee_outcome_distribution(60, "Block", 60, defender_unusable_zone="Arms")
    assert pc.melee_exchange(35, 60, "Block", 71, 60, defence_setups=1).unused_setups == 0
