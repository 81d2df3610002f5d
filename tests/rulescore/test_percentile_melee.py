"""Percentile system: the melee exchange, victory stars, tactical advantages and exact odds."""

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from rulescore import RulesError
from rulescore.systems import percentile as pc


# --- the seed's four examples ------------------------------------------------------------

def test_block_example_two_star_victory():
    r = pc.melee_exchange(35, 60, "Block", 71, 60)
    assert (r.attack_level, r.defence_level) == ("CS", "F")
    assert (r.outcome, r.winner, r.stars, r.striker, r.tactical_advantages) == \
        ("strike", "attacker", 2, "attacker", 1)
    assert r.ta_choices == ("action", "impact", "precision", "setup")


def test_dodge_example_tie_broken_by_the_higher_roll():
    r = pc.melee_exchange(36, 60, "Dodge", 51, 60)
    assert (r.attack_level, r.defence_level) == ("S", "S")
    assert (r.outcome, r.winner, r.stars, r.striker) == ("dodged", "defender", 1, None)
    assert "higher roll (36 against 51)" in r.explain()


def test_counterstrike_example_attacker_wins_the_tie():
    r = pc.melee_exchange(36, 60, "Counterstrike", 51, 60)
    assert (r.outcome, r.winner, r.stars, r.striker) == ("strike", "attacker", 1, "attacker")


def test_ignore_example_three_stars():
    r = pc.melee_exchange(36, 60, "Ignore")
    assert (r.outcome, r.stars, r.tactical_advantages) == ("strike", 3, 2)
    assert r.ta_choices == ("impact", "precision")
    assert r.trace[1].rule.section == "Melee Defence Result — Ignore"


# --- the matrix, cell by cell -----------------------------------------------------------

ROLL = {"CF": 90, "F": 71, "S": 31, "CS": 30}   # against EML 60 (CF uses a 0: Fumble)


@pytest.mark.parametrize("a, d, winner, stars", [
    ("CF", "CF", None, 0), ("CF", "F", None, 0), ("CF", "S", "defender", 2),
    ("CF", "CS", "defender", 3), ("F", "CF", None, 0), ("F", "F", None, 0),
    ("F", "S", "defender", 1), ("F", "CS", "defender", 2), ("S", "CF", "attacker", 2),
    ("S", "F", "attacker", 1), ("S", "CS", "defender", 1), ("CS", "CF", "attacker", 3),
    ("CS", "F", "attacker", 2), ("CS", "S", "attacker", 1),
])
@pytest.mark.parametrize("defence", ["Block", "Counterstrike", "Dodge"])
def test_opposed_cells(defence, a, d, winner, stars):
    r = pc.melee_exchange(ROLL[a], 60, defence, ROLL[d], 60)
    assert (r.winner, r.stars) == (winner, stars)
    assert (r.attacker_mishap is not None) == (a == "CF")
    assert (r.defender_mishap is not None) == (d == "CF")


def test_outcome_by_defence_when_the_defender_wins():
    assert pc.melee_exchange(71, 60, "Block", 30, 60).outcome == "blocked"
    assert pc.melee_exchange(71, 60, "Dodge", 30, 60).outcome == "dodged"
    cs = pc.melee_exchange(71, 60, "Counterstrike", 30, 60)
    assert (cs.outcome, cs.striker, cs.ta_choices) == ("counterstrike", "defender",
                                                      ("impact", "precision"))
    block = pc.melee_exchange(71, 60, "Block", 30, 60)
    assert block.ta_choices == ("action", "setup") and block.tactical_advantages == 1


def test_tied_successes_by_defence():
    block = pc.melee_exchange(31, 60, "Block", 32, 60)
    assert (block.outcome, block.winner, block.stars, block.weapon_damage) == \
        ("blocked", "defender", 1, True)
    cs_tie = pc.melee_exchange(30, 60, "Block", 40, 60)           # CS against CS ties too
    assert cs_tie.winner == "defender"
    assert pc.melee_exchange(31, 60, "Counterstrike", 32, 60).winner == "attacker"
    assert pc.melee_exchange(32, 60, "Dodge", 31, 60).outcome == "strike"
    assert pc.melee_exchange(31, 60, "Dodge", 32, 60).outcome == "dodged"


def test_dodge_equal_rolls_option():
    assert pc.melee_exchange(33, 60, "Dodge", 33, 70).winner == "defender"
    r = pc.melee_exchange(33, 60, "Dodge", 33, 70, dodge_equal_rolls="attacker")
    assert (r.winner, r.outcome) == ("attacker", "strike")
    with pytest.raises(RulesError, match="dodge_equal_rolls must be"):
        pc.melee_exchange(33, 60, "Dodge", 33, 70, dodge_equal_rolls="reroll")


def test_ignore_by_level():
    assert [pc.melee_exchange(r, 60, "Ignore").stars for r in (90, 71, 31, 30)] == [0, 2, 3, 4]
    cf = pc.melee_exchange(85, 60, "Ignore")
    assert (cf.outcome, cf.attacker_mishap) == ("no strike", "Stumble")


def test_mishaps_named_by_the_ones_die():
    r = pc.melee_exchange(90, 60, "Dodge", 80, 60)
    assert (r.attacker_mishap, r.defender_mishap) == ("Fumble", "Stumble")   # Dodge stumbles
    r = pc.melee_exchange(75, 60, "Block", 100, 60)
    assert (r.attacker_mishap, r.defender_mishap) == ("Stumble", "Fumble")
    assert r.outcome == "no strike"


def test_melee_exchange_floor_and_bad_input():
    r = pc.melee_exchange(5, -30, "Block", 50, 40)     # attacker tested at EML 05: CS
    assert r.attack_level == "CS"
    with pytest.raises(RulesError, match="defence must be one of Block, Counterstrike"):
        pc.melee_exchange(30, 60, "Parry", 30, 60)
    with pytest.raises(RulesError, match="defence_roll and defence_eml are needed"):
        pc.melee_exchange(30, 60, "Block")
    with pytest.raises(RulesError, match="defence_roll and defence_eml must be empty"):
        pc.melee_exchange(30, 60, "Ignore", 40, 60)
    assert pc.melee_exchange(30, 60, "block", 70, 60).defence == "Block"


# --- exact odds against enumeration of both d100s ---------------------------------------

def _level(face, eml):
    eml = max(eml, 5)
    if face <= eml:
        return "CS" if face % 5 == 0 else "S"
    return "CF" if face % 5 == 0 else "F"


RANK = {"CF": 0, "F": 1, "S": 2, "CS": 3}


def _by_hand(defence, a, d, af, df):
    """The exchange worked out independently of the data tables."""
    ra, rd = RANK[a], RANK[d]
    if ra < 2 and rd < 2:
        return ("no strike", 0)
    if ra >= 2 > rd:
        return ("strike", ra - rd)
    lose = {"Block": "blocked", "Dodge": "dodged", "Counterstrike": "counterstrike"}[defence]
    if rd >= 2 > ra:
        return (lose, rd - ra)
    if ra != rd:
        return ("strike", 1) if ra > rd else (lose, 1)
    if defence == "Block":
        return (lose, 1)
    if defence == "Counterstrike":
        return ("strike", 1)
    return ("strike", 1) if af > df else (lose, 1)


@pytest.mark.parametrize("defence, a_eml, d_eml", [
    ("Block", 60, 60), ("Counterstrike", 75, 40), ("Dodge", 60, 60), ("Dodge", 35, 90),
    ("Block", -10, 120),
])
def test_melee_outcome_distribution_matches_enumeration(defence, a_eml, d_eml):
    counts = Counter()
    for af, df in product(range(1, 101), repeat=2):
        counts[_by_hand(defence, _level(af, a_eml), _level(df, d_eml), af, df)] += 1
    expected = {k: Fraction(v, 10000) for k, v in counts.items()}
    assert pc.melee_outcome_distribution(a_eml, defence, d_eml) == expected


def test_melee_outcome_distribution_agrees_with_melee_exchange():
    counts = Counter()
    for af, df in product(range(1, 101), repeat=2):
        r = pc.melee_exchange(af, 55, "Dodge", df, 65)
        counts[(r.outcome, r.stars)] += 1
    assert pc.melee_outcome_distribution(55, "Dodge", 65) == \
        {k: Fraction(v, 10000) for k, v in counts.items()}


def test_ignore_distribution_exact():
    # EML 60: CF 8 faces (65..100 multiples of 5), F 32, S 48, CS 12
    assert pc.melee_outcome_distribution(60, "Ignore") == {
        ("no strike", 0): Fraction(8, 100), ("strike", 2): Fraction(32, 100),
        ("strike", 3): Fraction(48, 100), ("strike", 4): Fraction(12, 100)}
    with pytest.raises(RulesError, match="defence_eml must be empty"):
        pc.melee_outcome_distribution(60, "Ignore", 50)


def test_block_distribution_headline_number():
    """ML60 against an ML60 Block, worked by hand: the attack lands on S/CS against F/CF
    (0.6 × 0.4 = 0.24) or CS against S (0.12 × 0.48 = 0.0576); a Block wins every tie."""
    d = pc.melee_outcome_distribution(60, "Block", 60)
    strike = sum(p for (o, _), p in d.items() if o == "strike")
    assert strike == Fraction(2976, 10000)


# --- melee modifiers --------------------------------------------------------------------

def test_heft_penalty():
    assert pc.heft_penalty(10, 12) == -10
    assert pc.heft_penalty(12, 10) == 0
    assert pc.heft_penalty(10, 14, grip="two-handed") == 0
    assert pc.heft_penalty(10, 8, grip="off-handed") == -15
    assert pc.heft_penalty(12, 5, grip="off-handed") == -10          # at least -10
    assert pc.heft_penalty(10, 8, grip="off-handed", shield_block=True) == 0
    with pytest.raises(RulesError, match="grip must be"):
        pc.heft_penalty(10, 8, grip="both")


def test_reach_and_thrust():
    assert pc.reach_modifier(2, 5) == -15
    assert pc.reach_modifier(5, 2) == 0
    assert pc.reach_modifier(5, 2, thrust=True) == 15
    assert pc.reach_modifier(5, 2, close=True) == -15
    assert pc.reach_modifier(2, 5, thrust=True, close=True) == 15
    assert pc.reach_modifier(3, 3, thrust=True) == 0


def test_the_exchange_draws_each_d100_it_needs_from_dice():
    """The Block example (35 CS against 71 F) from typed dice; against Ignore only the
    attacker's d100 is drawn; a roll given with dice is refused naming both."""
    from rulescore.dice import DiceSource
    block = pc.melee_exchange(None, 60, "Block", None, 60, dice=DiceSource.typed([35, 71]))
    assert (block.outcome, block.stars, block.tactical_advantages) == ("strike", 2, 1)
    source = DiceSource.typed([36, 99])
    ignored = pc.melee_exchange(None, 60, "Ignore", dice=source)
    assert (ignored.stars, source.leftover()) == (3, (99,))
    with pytest.raises(RulesError, match="give attack_roll or dice, not both"):
        pc.melee_exchange(35, 60, "Block", None, 60, dice=DiceSource.typed([71]))
