"""The exploding-d6 roster and fight state (issue 22 item 1): the roster's columns, refusals in
the reader's words, and saved files read field by field."""

from __future__ import annotations

import pytest

from rulescore.errors import RulesError
from rulescore.roster import Roster
from rulescore.systems import exploding_d6 as x6


def test_roster_columns_cover_what_a_fight_reads():
    keys = {c.key for c in x6.ROSTER.columns}
    assert {"quickness", "deftness", "perception", "strength", "skill", "weapon_dice", "mode",
            "protection", "critical_protection", "shield", "min_roll"} <= keys
    assert x6.ROSTER.system == "exploding_d6"
    assert x6.ROSTER.column("shield").spec.choices == ("none", "round shield")
    assert x6.ROSTER.column("lineage").spec.choices == ("human",)


def test_roster_refuses_in_reader_words_and_reads_back():
    roster = Roster(x6.ROSTER).add("Hagen", pc=True, shield="round shield", protection=3)
    with pytest.raises(RulesError, match="Protection pool of Hagen must be"):
        roster.set("Hagen", "protection", -1)
    with pytest.raises(RulesError, match="Attack mode of Hagen must be one of"):
        roster.set("Hagen", "mode", "laser")
    again = Roster.from_json(x6.ROSTER, roster.to_json())
    assert again == roster


# -- the fight state ----------------------------------------------------------------------------

import json

from rulescore.dice import DiceSource
from rulescore.systems.exploding_d6.fight import Fight


def two() -> Roster:
    return (Roster(x6.ROSTER)
            .add("Hagen", pc=True, quickness=3, deftness=4, shield="round shield",
                 protection=2)
            .add("Robber", quickness=3, deftness=2, protection=1))


def started(totals=(5, 5, 5, 1, 1, 1)) -> Fight:
    rows = list(two().fighters)
    order = x6.initiative_table([(r.name, r["quickness"], r["deftness"]) for r in rows],
                                list(totals))
    return Fight().join(rows, order).fight


def test_join_orders_by_initiative_and_begins_the_first_turn():
    fight = started()
    assert fight.names() == ("Hagen", "Robber")
    assert fight.round == 1 and fight.actor.name == "Hagen"
    hagen, robber = fight.combatants
    assert (hagen.initiative, hagen.available, hagen.started) == (15, 2, True)
    # nobody has actions before their first turn (§Start of combat)
    assert (robber.initiative, robber.available, robber.started) == (3, 0, False)
    assert (hagen.protection, robber.protection) == (2, 1)


def test_ties_go_to_quickness_then_deftness():
    fight = started((3, 3, 3, 3, 3, 3))
    assert fight.names() == ("Hagen", "Robber")  # equal Quickness: Deftness 4 beats 2


def test_next_turn_refreshes_the_actor_and_keeps_saved_reactions():
    fight = started()
    fight = fight.act("Hagen", "aim").fight
    move = fight.next_turn()
    after = move.fight
    assert after.actor.name == "Robber" and after.of("Robber").available == 2
    assert after.of("Hagen").available == 1
    assert "Hagen keeps 1 action to react" in move.line
    again = after.next_turn().fight
    assert again.round == 2 and again.actor.name == "Hagen" and again.of("Hagen").available == 2


def test_actions_only_in_ones_own_turn_but_reactions_any_time():
    fight = started()
    with pytest.raises(RulesError, match="Robber acts only in their own turn"):
        fight.act("Robber", "aim")
    with pytest.raises(RulesError, match="no actions before their first turn"):
        fight.act("Robber", "parry")
    fight = fight.next_turn().fight
    assert fight.act("Hagen", "parry").fight.of("Hagen").available == 1
    spent = fight.act("Robber", "run").fight.act("Robber", "run").fight
    with pytest.raises(RulesError, match="only 0 available"):
        spent.act("Robber", "run")


def test_attack_inputs_come_from_the_rows_and_the_fight():
    roster = two()
    fight = started().next_turn().fight
    setup, flow = fight.attack_inputs(roster.fighter("Robber"), roster.fighter("Hagen"),
                                      reaction="parry")
    assert setup["skill"] == 3 and setup["weapon_dice"] == 2 and setup["attack_number"] == 1
    assert flow["pool"] == 2 and flow["reaction"] == "parry"
    assert flow["reaction_dice"] == 5 and flow["reaction_min_roll"] == 5
    _, shield = fight.attack_inputs(roster.fighter("Robber"), roster.fighter("Hagen"),
                                    reaction="shield parry")
    assert shield["shield"] == "round shield" and shield["reaction_dice"] is None
    assert fight.reactions(roster.fighter("Hagen"), {"dodge": True, "parry": True}) == (
        "none", "dodge", "parry", "shield parry")
    with pytest.raises(RulesError, match="K.O. attack needs a blunt weapon"):
        fight.attack_inputs(roster.fighter("Robber"), roster.fighter("Hagen"), special="ko")
    with pytest.raises(RulesError, match="Robber has 2 actions left and this attack costs 3"):
        fight.attack_inputs(roster.fighter("Robber"), roster.fighter("Hagen"), aim_actions=2)


def test_saved_fight_reads_back_and_refuses_field_by_field():
    fight = started().next_turn().fight
    assert Fight.from_json(fight.to_json()) == fight
    data = json.loads(fight.to_json())
    data["combatants"][0]["wounds"] = -1
    with pytest.raises(RulesError, match=r"combatants\[1\].wounds"):
        Fight.from_json(json.dumps(data))
    data = json.loads(fight.to_json())
    data["combatants"].reverse()
    with pytest.raises(RulesError, match="initiative order"):
        Fight.from_json(json.dumps(data))
    data = json.loads(fight.to_json())
    data["turn"] = 5
    with pytest.raises(RulesError, match="turn must be below 2"):
        Fight.from_json(json.dumps(data))


def test_rename_carries_the_fighter():
    fight = started()
    renamed = fight.rename("Robber", "Thug")
    assert renamed.names() == ("Hagen", "Thug") and renamed.of("Thug").initiative == 3
    with pytest.raises(RulesError, match="already"):
        fight.rename("Robber", "Hagen")


def _robber_attacks(fight: Fight, reaction: str, faces: list[int]):
    roster = two()
    setup, flow = fight.attack_inputs(roster.fighter("Robber"), roster.fighter("Hagen"),
                                      reaction=reaction)
    made = x6.attack_setup(**setup)
    return x6.attack(made.dice, min_roll=made.min_roll, crit_at=made.crit_at,
                     burst=made.burst, dice=DiceSource.typed(faces), **flow)


def test_apply_attack_writes_actions_protection_and_wounds():
    fight = started().next_turn().fight
    # 17 (a megacritical, +1 wound), 5 and 7 hit; the parry's one success stops a normal hit;
    # one of Hagen's 2 units stops the other; the megacritical goes through: 2 wounds
    result = _robber_attacks(fight, "parry", [6, 6, 5, 5, 6, 1, 3, 2, 5, 1, 2, 3, 4])
    assert result.value == 2 and result.reaction_actions == 1
    move = fight.apply_attack("Robber", "Hagen", result)
    hagen, robber = move.fight.of("Hagen"), move.fight.of("Robber")
    assert (hagen.wounds, hagen.protection, hagen.available) == (2, 1, 1)
    assert (robber.available, robber.attacks) == (1, 1)
    assert "a megacritical" in move.line
    # the same result cannot be written twice against a pool it already spent
    after = move.fight
    with pytest.raises(RulesError, match="rolled against a protection pool of 2, and Hagen has 1 now"):
        after.apply_attack("Robber", "Hagen", result)
    # the attacker's turn only, and the cost is paid
    with pytest.raises(RulesError, match="Hagen acts only in their own turn"):
        after.apply_attack("Hagen", "Robber", result)
    with pytest.raises(RulesError, match="1 action left and this attack costs 2"):
        after.apply_attack("Robber", "Hagen",
                           _robber_attacks(after, "none", [1, 2, 3, 4, 1]), cost=2)


def test_a_reaction_needs_a_saved_action():
    fight = started()
    fight = fight.act("Hagen", "aim").fight.act("Hagen", "aim").fight.next_turn().fight
    roster = two()
    assert fight.reactions(roster.fighter("Hagen"), {"dodge": True, "parry": True}) == ("none",)
    with pytest.raises(RulesError, match="Hagen has no action left to react with"):
        fight.attack_inputs(roster.fighter("Robber"), roster.fighter("Hagen"), reaction="dodge")


def test_landing_odds_are_exact_through_the_reaction_cover_and_protection():
    from fractions import Fraction

    from rulescore.systems.exploding_d6.fight import landing_odds
    # nothing in the way: the hit roll's own chance of a hit
    assert landing_odds(5, 5, 11, False) == x6.hit_odds(5).p_at_least(1)
    # one die: a normal hit (5–10) 5/18, a critical (11+) 1/18; a one-die parry stops a
    # normal hit on 5+ (1/3) and never a critical: 5/18 × 2/3 + 1/18 = 13/54
    assert landing_odds(1, 5, 11, False, reaction="parry", reaction_dice=1) == Fraction(13, 54)
    # a dodge with one die against one hit needs 6+ (5+ raised by the one hit): it succeeds
    # with 1/6, so the hit stands with 5/6
    assert landing_odds(1, 5, 11, False, reaction="dodge", reaction_dice=1) == \
        Fraction(1, 3) * Fraction(5, 6)
    # a round shield (5+) stops each hit with 1/3; behind 4+ cover, "best" rolls once at 4+
    assert landing_odds(1, 5, 11, False, reaction="shield parry") == Fraction(1, 3) * \
        Fraction(2, 3)
    assert landing_odds(1, 5, 11, False, reaction="shield parry", cover=4) == Fraction(1, 3) * \
        Fraction(1, 2)
    assert landing_odds(1, 5, 11, False, reaction="shield parry", cover=4,
                        stacking="each") == Fraction(1, 3) * Fraction(2, 3) * Fraction(1, 2)
    # one ordinary unit stops a normal hit, never a critical
    assert landing_odds(1, 5, 11, False, pool=1) == Fraction(1, 18)
    with pytest.raises(RulesError, match="dice must be"):
        landing_odds(13, 5, 11, False)
