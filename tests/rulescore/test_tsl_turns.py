"""TSL turns: the GM's order, Action / Movement / Reaction, support actions, the Ready
loadout, and the seed's worked example played through the engine."""

import json

import pytest

from rulescore.errors import RulesError
from rulescore.systems import tsl
from rulescore.systems.tsl.turns import encounter_from_json


def test_gm_sets_turn_order():
    """No initiative roll: the order is whatever the GM calls, here the seed's ambush."""
    order = tsl.turn_order(["Vela", "Thug", "Mar", "Ko", "Ambusher"])
    assert order == ("Vela", "Thug", "Mar", "Ko", "Ambusher")
    with pytest.raises(RulesError, match="names must not repeat, got Ko twice"):
        tsl.turn_order(["Ko", "Mar", "Ko"])
    with pytest.raises(RulesError, match="names must list at least one combatant"):
        tsl.turn_order([])
    with pytest.raises(RulesError, match="names must hold only non-empty names"):
        tsl.turn_order(["Ko", " "])


def test_turn_action_movement_reaction():
    s = tsl.TurnState()
    s = tsl.spend(s, "Action").state
    s = tsl.spend(s, "Movement").state
    assert (s.action_used, s.movement_used, s.reaction_used) == (True, True, False)
    with pytest.raises(RulesError, match="option Action needs the Action, already used this turn"):
        tsl.spend(s, "Action")
    s = tsl.spend(s, "Reaction").state
    with pytest.raises(RulesError, match="already used this round"):
        tsl.spend(s, "Reaction")
    assert tsl.start_turn(s) == tsl.TurnState()


def test_double_movement_costs_the_action():
    s = tsl.spend(tsl.TurnState(), "Double Movement").state
    assert s.action_used and s.movement_used
    with pytest.raises(RulesError, match="needs the Action"):
        tsl.spend(tsl.spend(tsl.TurnState(), "Action").state, "Double Movement")


@pytest.mark.parametrize("name, uses, stress", [
    ("Grant Reroll", ("action",), 0), ("Draw Aggro", ("action", "movement"), 0),
    ("Tactical Assist", ("action",), 0), ("Soak the Hit", ("reaction",), 0),
    ("Steady the Spirit", ("action",), 0), ("Ground a Path-walker", ("action",), 1)])
def test_support_action_costs(name, uses, stress):
    assert tsl.uses_of(name) == uses
    zone = "Engaged"
    r = tsl.spend(tsl.TurnState(), name, ally_zone=zone)
    assert r.value == stress and r.uses == uses


def test_support_action_ranges():
    assert tsl.spend(tsl.TurnState(), "Grant Reroll", ally_zone="Near").effect
    with pytest.raises(RulesError, match="ally_zone must be Engaged or Near for Grant Reroll, "
                                         "got Far"):
        tsl.spend(tsl.TurnState(), "Grant Reroll", ally_zone="Far")
    with pytest.raises(RulesError, match="ally_zone must be Engaged for Soak the Hit, got Near"):
        tsl.spend(tsl.TurnState(), "Soak the Hit", ally_zone="Near")
    with pytest.raises(RulesError, match="ally_zone is needed for Steady the Spirit"):
        tsl.spend(tsl.TurnState(), "Steady the Spirit")
    g = tsl.spend(tsl.TurnState(), "Ground a Path-walker", ally_zone="Near")
    assert (g.value, g.stress_pool) == (1, "Spirit")
    assert "It also costs you 1 Spirit Stress" in g.explain()
    assert tsl.spend(tsl.TurnState(), "Draw Aggro").state.movement_used
    with pytest.raises(RulesError, match="option must be one of 'Action', 'Movement', 'Double Movement', 'Reaction', 'Grant Reroll'"):
        tsl.uses_of("Heal")


def test_encounter_board_runs_the_seed_ambush():
    enc = tsl.new_encounter(["Vela", "Thug", "Mar", "Ko", "Ambusher"])
    assert (enc.round, enc.acting) == (1, "Vela")
    enc = tsl.take(enc, "Vela", "Action").encounter         # the shot at the thug
    enc = tsl.take(enc, "Vela", "Movement").encounter       # behind a pillar
    with pytest.raises(RulesError, match="who must be Vela for Action"):
        tsl.take(enc, "Mar", "Action")
    enc = tsl.next_turn(enc)
    enc = tsl.take(enc, "Thug", "Double Movement").encounter  # the charge at Ko
    with pytest.raises(RulesError, match="needs the Action"):
        tsl.take(enc, "Thug", "Action")
    enc = tsl.take(enc, "Mar", "Soak the Hit", ally_zone="Engaged").encounter  # off-turn
    assert enc.state("Mar").reaction_used
    enc = tsl.next_turn(enc)
    assert enc.acting == "Mar" and enc.state("Mar") == tsl.TurnState()  # refreshed
    for _ in range(3):
        enc = tsl.next_turn(enc)
    assert (enc.round, enc.acting) == (2, "Vela")
    assert enc.log[0] == "Round 1: Vela acts" and "Round 2: Vela acts" in enc.log


def test_set_order_keeps_what_was_used():
    enc = tsl.take(tsl.new_encounter(["A", "B"]), "A", "Action").encounter
    enc = tsl.set_order(enc, ["B", "A"])
    assert enc.order == ("B", "A") and enc.acting == "A" and enc.state("A").action_used
    with pytest.raises(RulesError, match="order must name the same combatants"):
        tsl.set_order(enc, ["B", "C"])


def test_ready_loadout():
    kit = tsl.make_loadout(["Rifle", "Knife", "Rope"], stowed=["Lantern"], worn=["Voidsuit"],
                           consumables=["Ration", "Flare"])
    with pytest.raises(RulesError, match="stow must name a Ready piece"):
        tsl.ready_item(kit, "Lantern")
    swap = tsl.ready_item(kit, "Lantern", stow="Rope")
    assert swap.cost == "Action" and swap.loadout.ready == ("Rifle", "Knife", "Lantern")
    assert swap.loadout.stowed == ("Rope",)
    assert tsl.ready_item(kit, "Lantern", stow="Rope", in_scene=False).cost == "free"
    with pytest.raises(RulesError, match="ready must hold at most 3 pieces, got 4"):
        tsl.make_loadout(["a", "b", "c", "d"])
    assert len(tsl.make_loadout(["a", "b", "c", "d"], ready_limit=4).ready) == 4
    with pytest.raises(RulesError, match="item must be a Stowed item"):
        tsl.ready_item(kit, "Rifle")


def test_worked_example_ambush():
    """The seed's ambush, step by step, through the engine."""
    order = tsl.turn_order(["Vela", "Thug", "Mar", "Ko", "Ambusher"])
    assert order[0] == "Vela"
    vela = tsl.attack([5, 4, 4, 3, 2], "Proficient", target=11,
                      weapon=tsl.make_weapon("Sidearm", ["Silent"]), distance="Near",
                      attack_type="Ranged weapon")
    assert (vela.total, vela.band, vela.stress) == (16, "success", 2)  # one solid hit
    assert tsl.move("Near", "Near").zones == 0  # Vela repositions behind a pillar
    charge = tsl.move("Far", "Engaged", double=True)  # the thug charges Ko: no attack
    assert charge.uses == ("action", "movement")
    mar = tsl.opposed_roll([6, 4, 3, 1, 1], "Trained", [5, 3, 2, 2, 1], "Untrained")
    assert (mar.total, mar.defender_total, mar.margin, mar.winner) == (13, 8, 5, "attacker")


def test_encounter_round_trips_as_data():
    enc = tsl.take(tsl.new_encounter(["Vela", "Mar"]), "Vela", "Double Movement").encounter
    enc = tsl.take(enc, "Mar", "Reaction").encounter
    data = tsl.encounter_to_dict(enc)
    assert data["used"] == {"Vela": ["action", "movement"], "Mar": ["reaction"]}
    assert tsl.encounter_from_dict(data) == enc
    with pytest.raises(RulesError, match="turn board: the file is missing the field 'acting'"):
        tsl.encounter_from_dict({"order": ["A"], "round": 1, "used": {}})
    with pytest.raises(RulesError, match="acting must be one of A, got 'B'"):
        tsl.encounter_from_dict({"order": ["A"], "round": 1, "acting": "B", "used": {}})
    with pytest.raises(RulesError, match=r"used\['A'\]\[1\] must be one of 'action', 'movement', 'reaction', 'steward', got 'dance'"):
        tsl.encounter_from_dict({"order": ["A"], "round": 1, "acting": "A",
                                 "used": {"A": ["dance"]}})


def test_a_board_given_as_data_names_data_and_a_board_file_names_the_field():
    board = {"format": "rulebook/tsl-board", "version": 1, "order": ["A", "B"], "round": 0,
             "acting": "A", "used": {}}
    with pytest.raises(RulesError) as refused:
        tsl.encounter_from_dict(board)
    assert str(refused.value) == ("data: TSL turn board: round must be a whole number from 1 "
                                  "to 100000, got 0")
    with pytest.raises(RulesError) as refused:
        encounter_from_json(json.dumps(board))
    assert str(refused.value) == ("TSL turn board: round must be a whole number from 1 to "
                                  "100000, got 0")
    with pytest.raises(RulesError, match="^data: TSL turn board: the file is not a TSL turn "
                                         "board file: it holds null"):
        tsl.encounter_from_dict(None)


def test_a_board_repeating_a_name_names_its_order_field():
    board = {"order": ["A", " A"], "round": 1, "acting": "A", "used": {}}
    with pytest.raises(RulesError) as refused:
        encounter_from_json(json.dumps(board))
    assert str(refused.value) == "TSL turn board: order must not repeat, got A twice"
