"""The Veil & Lead: an encounter on the Cylinder, played move by move (§I, §II, §IV, §XI, §XII)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulescore import RulesError
from rulescore.systems import veil_and_lead as vl
from rulescore.systems.veil_and_lead import Encounter


def test_the_count_example_played_out():
    e = Encounter().join("Caleb", pc=True, quick=3, margin=8)
    e = e.join("Enforcer", pc=False, quick=2, margin=2)
    e = e.join("Maeve", pc=True, quick=3, margin=-1)        # failed: Tick 6, Surprised
    assert [(f.name, f.tick, f.surprised) for f in e.fighters] == [
        ("Caleb", 2, False), ("Enforcer", 4, False), ("Maeve", 6, True)]
    e, turn = e.next_turn()
    assert (turn.value, turn.order, e.elapsed) == (2, (("Caleb",),), 2)
    e = e.act("Caleb", vl.tempo("Steady Shot", "Peacemaker"))
    e, turn = e.next_turn()
    assert turn.order == (("Enforcer",),)
    e = e.act("Enforcer", vl.tempo("Steady Shot", "Repeater"))
    e, turn = e.next_turn()
    # Caleb (margin 8) and Maeve (margin −1) share Tick 6: both PCs, margin decides.
    assert (turn.value, turn.order) == (6, (("Caleb",), ("Maeve",)))
    assert e.fighter("Enforcer").tick == 9 and e.elapsed == 6
    e = e.act("Maeve", 3, exposed=True)
    assert e.fighter("Maeve").surprised is False and e.fighter("Maeve").exposed
    e = e.act("Caleb", 4)
    e, turn = e.next_turn()
    assert (turn.value, turn.order) == (9, (("Maeve",), ("Enforcer",)))   # PCs first
    assert turn.trace[-1].text == "Maeve before Enforcer: PCs before NPCs"
    assert not e.fighter("Maeve").exposed                   # her turn started


def test_wrap_and_tension():
    e = Encounter(hammer=0).join("A", pc=True, quick=2, margin=0)   # Tick 4
    e, _ = e.next_turn()
    e = e.act("A", 6)
    for _ in range(2):
        e, _ = e.next_turn()
        e = e.act("A", 6)
    assert (e.fighter("A").tick, e.hammer, e.elapsed) == (2, 16, 16)   # 16 + 6 = 22 → 2
    e, turn = e.next_turn()
    assert (turn.value, turn.ticks, e.elapsed, e.tension_dice) == (2, 6, 22, 3)


def test_wait_stun_hold_release():
    e = Encounter().join("A", pc=True, quick=2, margin=10).join("B", pc=False, quick=2,
                                                                  margin=-3)
    e, _ = e.next_turn()
    assert e.hammer == 0
    e = e.wait("A")
    assert e.fighter("A").tick == 1
    e, _ = e.next_turn()
    e = e.hold("A", "when B reaches for his gun")
    assert e.fighter("A").tick is None and e.fighter("A").holding
    e, turn = e.next_turn()
    assert turn.order == (("B",),)
    with pytest.raises(RulesError, match="Surprised and cannot hold"):
        e.hold("B", "anything")
    e = e.release("A", 4)
    assert e.fighter("A").tick == 10 and e.fighter("A").holding is None
    e = e.stun("B")
    with pytest.raises(RulesError, match="Stunned: no action"):
        e.act("B", 4)
    e = e.stunned("B")
    assert e.fighter("B").tick == 9 and not e.fighter("B").stunned


def test_refusals():
    e = Encounter().join("A", pc=True, quick=2, margin=4)
    with pytest.raises(RulesError, match="already in the encounter"):
        e.join("A", pc=True, quick=2, margin=4)
    with pytest.raises(RulesError, match="only a fighter at the Hammer's tick"):
        e.act("A", 4)
    with pytest.raises(RulesError, match="name must be one of the fighters"):
        e.act("Z", 4)
    e, _ = e.next_turn()
    with pytest.raises(RulesError, match="tempo must be from 1 to 19, got 0"):
        e.act("A", 0)
    with pytest.raises(RulesError, match="not holding"):
        e.release("A", 3)
    with pytest.raises(RulesError, match="no token on the Cylinder"):
        Encounter().next_turn()


def test_json_round_trip_and_bad_data():
    e = Encounter().join("A", pc=True, quick=2, margin=4).join("B", pc=False, quick=3,
                                                                 margin=None)
    e, _ = e.next_turn()
    e = e.hold("A", "door opens")
    saved = json.loads(json.dumps(e.to_dict()))
    assert Encounter.from_dict(saved) == e
    bad = json.loads(json.dumps(saved))
    bad["fighters"][1]["tick"] = 25
    with pytest.raises(RulesError, match=r"fighters\[2\]\.tick must be a whole number from 0 to 19, got 25"):
        Encounter.from_dict(bad)
    bad = json.loads(json.dumps(saved))
    bad["hammer"] = "x"
    with pytest.raises(RulesError, match="hammer must be a whole number"):
        Encounter.from_dict(bad)
    with pytest.raises(RulesError, match="encounter must be an object, got a list of 1"):
        Encounter.from_dict([1])

MOVES = st.lists(st.tuples(st.sampled_from(["next", "act", "wait", "hold", "release", "stun",
                                            "stunned"]),
                           st.sampled_from("ABC"), st.integers(0, 21), st.booleans()),
                 max_size=30)


@settings(deadline=None, max_examples=100)
@given(st.lists(st.tuples(st.booleans(), st.integers(1, 5), st.integers(-3, 12)),
                min_size=1, max_size=3), MOVES)
def test_any_sequence_of_moves_keeps_a_valid_encounter(joins, moves):
    e = Encounter()
    for name, (pc, quick, margin) in zip("ABC", joins):
        e = e.join(name, pc=pc, quick=quick, margin=margin)
    elapsed = 0
    for move, name, number, flag in moves:
        try:
            if move == "next":
                e, turn = e.next_turn()
                assert turn.ticks >= 0 and e.hammer == turn.value
            elif move == "act":
                e = e.act(name, number, exposed=flag)
            elif move == "wait":
                e = e.wait(name)
            elif move == "hold":
                e = e.hold(name, "a trigger")
            elif move == "release":
                e = e.release(name, number, exposed=flag)
            elif move == "stun":
                e = e.stun(name)
            else:
                e = e.stunned(name)
        except RulesError as exc:
            assert str(exc)
        assert e.elapsed >= elapsed
        elapsed = e.elapsed
        for f in e.fighters:
            assert (f.tick is None) == (f.holding is not None)
            assert f.tick is None or 0 <= f.tick <= 19
        assert Encounter.from_dict(e.to_dict()) == e


def test_an_instant_action_takes_no_time_and_keeps_the_turn():
    """A Shift (tempo 0) leaves the token at the Hammer's tick and keeps a banked Aim; tempo 0
    is refused for an action that takes time, or with no action named."""
    e = Encounter().join("A", pc=True, quick=3, margin=10).act("A", 2, action="Aim")
    e, _ = e.next_turn()
    shifted = e.act("A", 0, action="Shift")
    assert shifted.fighter("A").tick == 2 and shifted.fighter("A").aim == 1
    assert shifted.act("A", 4, action="Steady Shot").fighter("A").tick == 6
    with pytest.raises(RulesError, match="tempo must be from 1 to 19, got 0"):
        e.act("A", 0, action="Aim")
    with pytest.raises(RulesError, match="tempo must be a whole number, got False"):
        e.act("A", False, action="Shift")
    with pytest.raises(RulesError, match="exposed must be True or False"):
        e.act("A", 0, action="Shift", exposed=0)
