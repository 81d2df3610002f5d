"""The exploding-d6 roster and fight state (DESIGN.md §5 "At the table"): the roster's columns,
refusals in the reader's words, and saved files read field by field."""

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
from dataclasses import replace

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
    # a raised Shield Block (5+) behind 4+ cover: one roll at 4+, or the shield's and then
    # the cover's
    assert landing_odds(1, 5, 11, False, shield_block=True, cover=4) == Fraction(1, 3) * \
        Fraction(1, 2)
    assert landing_odds(1, 5, 11, False, shield_block=True, cover=4, stacking="each") == \
        Fraction(1, 3) * Fraction(2, 3) * Fraction(1, 2)
    with pytest.raises(RulesError, match="shield_block must be True or False"):
        landing_odds(1, 5, 11, False, shield_block=1)
    # one ordinary unit stops a normal hit, never a critical
    assert landing_odds(1, 5, 11, False, pool=1) == Fraction(1, 18)
    with pytest.raises(RulesError, match="dice must be"):
        landing_odds(13, 5, 11, False)


# -- carried from turn to turn: Shield Block, rounds, aim, destiny dice, the contest's odds --

def _hagen_robber(fight: Fight, roster: Roster, faces: list[int], **options):
    setup, flow = fight.attack_inputs(roster.fighter("Robber"), roster.fighter("Hagen"),
                                      **options)
    made = x6.attack_setup(**setup)
    contest = {k: options[k] for k in ("contest", "contest_dice") if k in options}
    flow.pop("contest", None)
    return made, x6.attack(made.dice, min_roll=made.min_roll, crit_at=made.crit_at,
                           burst=made.burst, dice=DiceSource.typed(faces), **flow, **contest)


def test_a_shield_block_takes_two_actions_and_covers_from_the_next_round():
    roster = two()
    fight = started()
    move = fight.shield_block(roster.fighter("Hagen"))
    hagen = move.fight.of("Hagen")
    # §Shields: two actions in one's own turn; cover in the subsequent combat rounds
    assert (hagen.available, hagen.block_from) == (0, 2)
    assert not hagen.blocking(1) and hagen.blocking(2)
    fight = move.fight.next_turn().fight                        # round 1, the robber
    _, flow = fight.attack_inputs(roster.fighter("Robber"), roster.fighter("Hagen"))
    assert flow["cover"] is None
    fight = fight.next_turn().fight.next_turn().fight           # round 2, the robber again
    assert fight.round == 2 and fight.actor.name == "Robber"
    # the block covers: no shield parry to offer, and the flow meets the round shield's 5+
    assert fight.reactions(roster.fighter("Hagen"), {"dodge": True, "parry": True}) == \
        ("none", "dodge", "parry")
    # Hagen's example (§Reactions) with the block: three hits, the shield rolls 5, 5 and 2,
    # two hits are stopped, the third hits him (and his protection takes it)
    made, result = _hagen_robber(fight, roster, [5, 5, 5, 1, 1, 5, 5, 2])
    assert result.hit.hits == 3 and result.cover.prevented_hits == 2
    assert result.cover.hits == 1 and result.protection.spent == 1 and result.value == 0
    # behind 4+ terrain the better cover counts; a roll for each is refused here
    _, flow = fight.attack_inputs(roster.fighter("Robber"), roster.fighter("Hagen"), cover=4)
    assert flow["cover"] == 4
    # a roll each (assumption cover_stacking's alternative): the shield's 5+, then the 6+
    # terrain for what stands; 5, 5, 5 hit, the shield rolls 5, 1, 1 (one stopped), the
    # terrain 6, 2 (one more), Hagen's protection takes the last
    _, flow = fight.attack_inputs(roster.fighter("Robber"), roster.fighter("Hagen"), cover=6,
                                  stacking="each")
    assert (flow["cover"], flow["shield_block"], flow["shield"]) == (6, True, "round shield")
    made, result = _hagen_robber(fight, roster, [5, 5, 5, 1, 1, 5, 1, 1, 6, 2], cover=6,
                                 stacking="each")
    assert result.block.prevented_hits == 1 and result.cover.prevented_hits == 1
    assert result.protection.spent == 1 and result.value == 0
    by_hand = x6.attack([5, 5, 5, 1, 1], cover=6, cover_faces=[5, 1, 1, 6, 2],
                        stacking="each", shield_block=True, pool=2)
    assert (by_hand.block.hits, by_hand.cover.hits, by_hand.value) == (2, 1, 0)
    with pytest.raises(RulesError, match="a raised Shield Block covers already"):
        x6.attack([5], reaction="shield parry", reaction_dice=[5], shield_block=True)
    lowered = fight.shield_block(roster.fighter("Hagen"), False).fight
    assert lowered.of("Hagen").block_from == 0 and lowered.of("Hagen").available == 2


def test_a_shield_block_is_refused_in_reader_words():
    roster = two()
    fight = started()
    with pytest.raises(RulesError, match="Shield Block: Robber has no shield in the roster"):
        fight.next_turn().fight.shield_block(roster.fighter("Robber"))
    with pytest.raises(RulesError, match="Robber acts only in their own turn"):
        fight.shield_block(roster.fighter("Robber"))
    one = fight.act("Hagen", "aim").fight
    with pytest.raises(RulesError, match="it takes 2 actions and Hagen has 1 action left"):
        one.shield_block(roster.fighter("Hagen"))
    with pytest.raises(RulesError, match="Hagen has no Shield Block raised to lower"):
        fight.shield_block(roster.fighter("Hagen"), False)
    with pytest.raises(RulesError, match="up must be True"):
        fight.shield_block(roster.fighter("Hagen"), 1)


def _shooter(magazine: int, mode: str = "single") -> Roster:
    return two().update("Robber", mode=mode, magazine=magazine)


def test_shots_spend_their_rounds_and_a_reload_fills_the_weapon():
    roster = _shooter(4)
    rows = list(roster.fighters)
    order = x6.initiative_table([(r.name, r["quickness"], r["deftness"]) for r in rows],
                                [5, 5, 5, 1, 1, 1])
    fight = Fight().join(rows, order).fight.next_turn().fight
    assert fight.of("Robber").ammunition == 4       # into the fight loaded
    made, result = _hagen_robber(fight, roster, [1, 1, 1, 1, 1])
    assert made.ammunition == 1                      # §Attack modes: a single shot takes 1
    after = fight.apply_attack("Robber", "Hagen", result, ammunition=made.ammunition).fight
    assert after.of("Robber").ammunition == 3
    # a burst takes 3 (§Attack modes); with 2 left it is refused, naming what to do
    burst = _shooter(4, "burst")
    short = after._set(replace(after.of("Robber"), ammunition=2))
    with pytest.raises(RulesError, match="Robber has 2 rounds left and a burst takes 3: "
                                         "reload first"):
        short.attack_inputs(burst.fighter("Robber"), burst.fighter("Hagen"))
    with pytest.raises(RulesError, match="this attack takes 3: reload first"):
        short.apply_attack("Robber", "Hagen", result, ammunition=3)
    reloaded = short.act("Robber", "reload").fight.of("Robber")
    assert (reloaded.ammunition, reloaded.available) == (4, 0)
    with pytest.raises(RulesError, match="Robber's weapon holds no rounds"):
        started().next_turn().fight.act("Robber", "reload")
    # Rounds loaded changed in the roster during the fight: a reload fills to the new count
    bigger = short.act("Robber", "reload", row=_shooter(6).fighter("Robber")).fight
    assert (bigger.of("Robber").ammunition, bigger.of("Robber").magazine) == (6, 6)


def test_aim_gathered_on_an_earlier_turn_counts_for_the_next_attack():
    roster = two()
    fight = started().next_turn().fight.act("Robber", "aim").fight      # round 1: aims
    assert fight.of("Robber").aim == 1
    fight = fight.next_turn().fight.next_turn().fight                   # round 2
    setup, _ = fight.attack_inputs(roster.fighter("Robber"), roster.fighter("Hagen"))
    made = x6.attack_setup(**setup)
    # §Aiming: one action lowers the critical limit by 2 (Perception 2 allows it)
    assert (setup["aim_actions"], made.crit_at) == (1, 9)
    # aiming now as well adds to it (capped at Perception 2, assumption aim_cap)
    setup, _ = fight.attack_inputs(roster.fighter("Robber"), roster.fighter("Hagen"),
                                   aim_actions=1)
    assert (setup["aim_actions"], x6.attack_setup(**setup).crit_at) == (2, 9)
    _, result = _hagen_robber(fight, roster, [1, 1, 1, 1, 1])
    assert fight.apply_attack("Robber", "Hagen", result).fight.of("Robber").aim == 0
    with pytest.raises(RulesError, match="Robber's weapon \\(Burst\\) cannot be aimed"):
        started().next_turn().fight.act("Robber", "aim", row=_shooter(30, "burst").fighter(
            "Robber"))


def test_an_aimer_hit_loses_the_aim_and_a_reaction_ends_an_accurate_attack():
    roster = two()
    fight = started().act("Hagen", "aim").fight
    assert fight.of("Hagen").aim == 1 and fight.of("Hagen").available == 1
    fight = fight.next_turn().fight
    # every hit stopped (the parry's one 5 against one hit): the aim stays
    _, missed = _hagen_robber(fight, roster, [5, 1, 1, 1, 1, 5, 1, 1, 1, 1], reaction="parry")
    assert missed.hits + missed.criticals == 0
    assert fight.apply_attack("Robber", "Hagen", missed).fight.of("Hagen").aim == 1
    # a hit past his protection (two units, three hits): the aim is lost (§Aiming)
    _, hit = _hagen_robber(fight, roster, [5, 5, 5, 1, 1])
    after = fight.apply_attack("Robber", "Hagen", hit)
    assert after.fight.of("Hagen").aim == 0
    assert any("Hagen was hit while aiming: the aim of 1 action is lost" in s.text
               for s in after.trace)
    # the accurate attack: gathered over turns, given up by any other action (§Accurate Attack)
    acc = started().act("Hagen", "accurate").fight
    assert acc.of("Hagen").accurate == 1
    assert acc.act("Hagen", "accurate").fight.of("Hagen").accurate == 2
    assert acc.act("Hagen", "aim").fight.of("Hagen").accurate == 0
    setup, _ = acc.next_turn().fight.next_turn().fight.attack_inputs(
        roster.fighter("Hagen"), roster.fighter("Robber"))
    assert x6.attack_setup(**setup).min_roll == 4


def test_a_destiny_die_steals_an_action_from_this_or_the_next_turn():
    fight = started()                              # Hagen's turn; the robber's comes next
    move = fight.destiny_die("Hagen", "Robber")
    # §Bonus dice actions: the spender has the action at once
    assert move.fight.of("Hagen").available == 3 and move.fight.of("Robber").stolen == 1
    robber = move.fight.next_turn().fight.of("Robber")
    assert (robber.available, robber.stolen) == (1, 0)   # a human's 2, one stolen
    # in the victim's own turn it goes from the actions in hand
    now = fight.next_turn().fight.destiny_die("Hagen", "Robber").fight
    assert (now.of("Robber").available, now.of("Hagen").available) == (1, 3)
    with pytest.raises(RulesError, match="Steal from must be another fighter than Hagen"):
        fight.destiny_die("Hagen", "Hagen")


def test_the_new_fields_are_kept_and_an_older_fight_still_reads():
    fight = started().destiny_die("Hagen", "Robber").fight.act("Hagen", "aim").fight
    again = Fight.from_json(fight.to_json())
    assert again == fight
    body = json.loads(fight.to_json())
    for c in body["combatants"]:
        for key in ("ammunition", "magazine", "aim", "accurate", "block_from", "stolen"):
            del c[key]
    old = Fight.from_json(json.dumps(body))
    assert old.of("Hagen").aim == 0 and old.of("Hagen").initiative == 15
    body["combatants"][0] |= {"ammunition": 3, "magazine": 2}
    with pytest.raises(RulesError, match="ammunition must be at most its magazine"):
        Fight.from_json(json.dumps(body))


def _brute_contest(contest, hit_dice, min_roll, crit_at, cover, pool, contest_dice,
                   contest_min, reaction="none", reaction_dice=0):
    """Every die's class enumerated, each run through the engine's own attack: a hit die is
    a miss (1), a hit (5) or a critical (11), each with its exact chance; a cover die is each
    face; a reaction or contest die is a success (its minimum roll) or a failure (1)."""
    import itertools
    from fractions import Fraction
    p = x6.p_total_at_least
    classes = [(1, 1 - p(min_roll)), (min_roll, p(min_roll) - p(crit_at)), (crit_at, p(crit_at))]
    two_way = lambda m: [(m, p(m)), (1, 1 - p(m))]  # noqa: E731
    total = Fraction(0)
    for hits in itertools.product(classes, repeat=hit_dice):
        for react in itertools.product(two_way(5), repeat=reaction_dice):
            base = dict(min_roll=min_roll, crit_at=crit_at, reaction=reaction, pool=pool,
                        reaction_dice=[t for t, _ in react] or None)
            standing = x6.attack([t for t, _ in hits], **base)
            left = standing.hits + standing.criticals + standing.protection.spent
            faces = itertools.product(range(1, 7), repeat=left) if cover else [()]
            for face in faces:
                for resist in itertools.product(two_way(contest_min), repeat=contest_dice):
                    q = Fraction(1, 6 ** len(face))
                    for _, x in hits + react + resist:
                        q *= x
                    out = x6.attack([t for t, _ in hits], cover=cover, cover_faces=list(face),
                                    contest=contest, contest_dice=[t for t, _ in resist],
                                    contest_min_roll=contest_min, **base)
                    total += q if out.contest.success else 0
    return total


def test_the_odds_of_a_ko_or_a_disarm_match_every_die_enumerated():
    from rulescore.systems.exploding_d6.fight import contest_odds
    # a K.O. attack of 2 dice on 5+ against 5+ cover and 1 unit of protection; the target
    # resists with 2 dice (§K.O. Attack)
    ko = contest_odds("ko", 2, 5, 11, False, contest_dice=2, cover=5, pool=1)
    assert ko == _brute_contest("ko", 2, 5, 11, 5, 1, 2, 5)
    assert 0 < ko < 1
    # a disarming attack: minimum roll raised by 3 (§Disarming attack), parried with 2 dice,
    # the target rolling 1 die of Strength
    disarm = contest_odds("disarm", 2, 8, 11, False, contest_dice=1, reaction="parry",
                          reaction_dice=2)
    assert disarm == _brute_contest("disarm", 2, 8, 11, None, 0, 1, 5, "parry", 2)
    # by hand: one die, no defence, no resistance dice: knocked out whenever it hits, 1/3
    from fractions import Fraction
    assert contest_odds("ko", 1, 5, 11, False) == Fraction(1, 3)
    with pytest.raises(RulesError, match="Special attack must be K.O. or Disarming"):
        contest_odds("none", 1, 5, 11, False)
    with pytest.raises(RulesError, match="Resistance dice must be a whole number"):
        contest_odds("ko", 1, 5, 11, False, contest_dice=True)


# -- a K.O. and a disarm carried on the fight ---------------------------------------------------

def _contest(fight: Fight, roster: Roster, me: str, them: str, faces: list[int], special: str,
             contest_dice: int):
    setup, flow = fight.attack_inputs(roster.fighter(me), roster.fighter(them),
                                      special=special)
    made = x6.attack_setup(**setup)
    return x6.attack(made.dice, min_roll=made.min_roll, crit_at=made.crit_at,
                     burst=made.burst, dice=DiceSource.typed(faces), contest=special,
                     contest_dice=contest_dice, **flow)


def test_a_knocked_out_fighter_takes_no_actions_until_they_come_to():
    roster = two().update("Robber", blunt=True)
    fight = started().next_turn().fight                       # round 1, the robber
    # §K.O. Attack: 5, 5, 5 are three hits; Hagen's 2 units stop two, one lands; his
    # resistance dice 1 and 1 score nothing, fewer than the one hit: knocked out
    result = _contest(fight, roster, "Robber", "Hagen", [5, 5, 5, 1, 1, 1, 1], "ko", 2)
    assert result.contest.outcome == "knocked out"
    fight = fight.apply_attack("Robber", "Hagen", result).fight
    hagen = fight.of("Hagen")
    assert hagen.knocked_out and hagen.available == 0 and hagen.wounds == 0
    assert fight.reactions(roster.fighter("Hagen"), {"dodge": True, "parry": True}) == ("none",)
    move = fight.next_turn()                                  # round 2: Hagen, out
    assert move.fight.of("Hagen").available == 0
    assert "knocked out: no actions" in move.line
    with pytest.raises(RulesError, match="Hagen is knocked out and takes no actions"):
        move.fight.act("Hagen", "aim")
    with pytest.raises(RulesError, match="Hagen is knocked out"):
        move.fight.attack_inputs(roster.fighter("Hagen"), roster.fighter("Robber"))
    with pytest.raises(RulesError, match="Hagen is knocked out"):
        move.fight.bonus_die("Hagen")
    awake = move.fight.come_to("Hagen").fight
    assert not awake.of("Hagen").knocked_out and awake.of("Hagen").available == 0
    # their actions come back with their next turn
    later = awake.next_turn().fight.next_turn().fight
    assert later.actor.name == "Hagen" and later.actor.available == 2
    with pytest.raises(RulesError, match="Comes to: Hagen is not knocked out"):
        later.come_to("Hagen")
    again = Fight.from_json(fight.to_json())
    assert again.of("Hagen").knocked_out


def test_a_disarmed_fighter_attacks_unarmed_until_they_pick_the_weapon_up():
    roster = two().update("Robber", strength=3, weapon_dice=3, piercing=0)
    fight = started()                                         # round 1, Hagen
    # §Disarming attack: 5 dice on 8+; 6→2 and 6→2 are two hits, the robber's 1 unit stops
    # one, one lands; his Strength dice 1 and 1 score nothing: disarmed, no wounds
    result = _contest(fight, roster, "Hagen", "Robber", [6, 2, 6, 2, 1, 1, 1, 1, 1],
                      "disarm", 2)
    assert result.contest.outcome == "disarmed" and result.value == 0
    fight = fight.apply_attack("Hagen", "Robber", result).fight
    assert fight.of("Robber").disarmed
    fight = fight.next_turn().fight                           # the robber's turn
    setup, flow = fight.attack_inputs(roster.fighter("Robber"), roster.fighter("Hagen"))
    fists = x6.unarmed_attack(3, 3, 3)
    # §Weaponless melee: skill 3 + 1 for Quickness 3, Piercing 1 for Strength 3, no weapon dice
    assert (setup["skill"], setup["weapon_dice"], setup["mode"]) == (fists.dice, 0, "melee")
    assert (flow["piercing"], flow["wounds_per_hit"]) == (1, 1)
    assert fight.reactions(roster.fighter("Robber"), {"dodge": True, "parry": True}) == \
        ("none", "dodge")
    with pytest.raises(RulesError, match="K.O. attack needs a blunt weapon, and Robber has "
                                         "been disarmed"):
        fight.attack_inputs(roster.fighter("Robber"), roster.fighter("Hagen"), special="ko")
    picked = fight.pick_up("Robber")
    assert not picked.fight.of("Robber").disarmed and picked.fight.of("Robber").available == 1
    setup, _ = picked.fight.attack_inputs(roster.fighter("Robber"), roster.fighter("Hagen"))
    assert (setup["skill"], setup["weapon_dice"]) == (3, 3)
    with pytest.raises(RulesError, match="Pick up weapon: Robber has not been disarmed"):
        picked.fight.pick_up("Robber")
    assert Fight.from_json(fight.to_json()).of("Robber").disarmed
