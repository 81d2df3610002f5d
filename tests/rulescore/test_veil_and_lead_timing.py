"""The Veil & Lead: ties at one tick (§II), Wait, Hold and Duel (§XII), Stunned (§XI), the
Tension Pool's clock (§XV)."""

import pytest

from rulescore import RulesError
from rulescore.systems import veil_and_lead as vl
from rulescore.systems.veil_and_lead import Combatant


def test_pcs_act_before_npcs_whatever_the_margin():
    r = vl.tie_order([Combatant("Enforcer", False, 9, 5), Combatant("Caleb", True, 0, 1)])
    assert r.order == (("Caleb",), ("Enforcer",)) and r.decided_by == ("PCs before NPCs",)


def test_count_example_caleb_and_maeve_by_margin():
    r = vl.tie_order([Combatant("Maeve", True, 6, 3), Combatant("Caleb", True, 2, 3)])
    assert r.order == (("Maeve",), ("Caleb",))
    assert r.decided_by == ("Higher initiative margin",)


def test_quick_breaks_equal_margins_then_simultaneous():
    r = vl.tie_order([Combatant("A", False, 3, 2), Combatant("B", False, 3, 4),
                      Combatant("C", False, 3, 2), Combatant("D", True, -2, 1)])
    assert r.order == (("D",), ("B",), ("A", "C"))
    assert r.decided_by == ("PCs before NPCs", "Higher QUICK")
    assert r.value == 3
    assert any("simultaneously" in s.text for s in r.trace)


def test_tie_order_single_and_errors():
    assert vl.tie_order([Combatant("A", True, 1, 1)]).order == (("A",),)
    with pytest.raises(RulesError, match="non-empty list"):
        vl.tie_order([])
    with pytest.raises(RulesError, match="distinct names"):
        vl.tie_order([Combatant("A", True, 1, 1), Combatant("A", False, 1, 1)])
    with pytest.raises(RulesError, match="quick of A must be from 1 to 5"):
        vl.tie_order([Combatant("A", True, 1, 0)])


def test_wait_stunned_hold():
    assert vl.wait(12) == 13 and vl.wait(19) == 0 and vl.wait(5, times=3) == 8
    r = vl.stunned_turn(18)
    assert (r.value, r.outcome) == (1, "No action")
    assert vl.held_action(12, 4) == 16 and vl.held_action(17, 5) == 2
    with pytest.raises(RulesError, match="times must be 1 or more"):
        vl.wait(3, times=0)


def test_duel():
    a_wins = vl.duel([8, 7, 1], [6, 6, 6], quick_a=2, awareness_a=1, quick_b=2, awareness_b=1,
                     name_a="Caleb", name_b="Hawk")
    assert (a_wins.value, a_wins.outcome, a_wins.sums) == (1, "Caleb", (15, 12))
    bonus = vl.duel([8, 7, 1], [6, 6, 6], quick_a=2, awareness_a=1, quick_b=2, awareness_b=1,
                    bonus_b=4)
    assert bonus.value == 2
    tie_quick = vl.duel([6, 6], [6, 6, 1], quick_a=1, awareness_a=1, quick_b=2, awareness_b=1)
    assert (tie_quick.value, tie_quick.decided_by) == (2, "Higher QUICK")
    both = vl.duel([6, 6], [6, 6], quick_a=1, awareness_a=1, quick_b=1, awareness_b=1)
    assert (both.value, both.outcome) == (0, "Simultaneous")
    with pytest.raises(RulesError, match=r"dice_b must be 2 d8"):
        vl.duel([6, 6], [6], quick_a=1, awareness_a=1, quick_b=1, awareness_b=1)


@pytest.mark.parametrize("ticks, dice", [(0, 1), (9, 1), (10, 2), (19, 2), (20, 3), (31, 4)])
def test_tension_dice(ticks, dice):
    assert vl.tension_dice(ticks) == dice
