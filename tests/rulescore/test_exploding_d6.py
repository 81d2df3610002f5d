"""The exploding-d6 rules: exact values from the rules text, its worked examples, edge cases."""

import shutil
from fractions import Fraction

import pytest

from rulescore.errors import RulesError
from rulescore.trace import RuleRef
from rulescore.systems import exploding_d6 as x6
from rulescore.systems.exploding_d6._system import DATA


# --- Start of combat -------------------------------------------------------------------------

def test_rogue_initiative_is_27():
    r = x6.initiative([4, 5, 1, 17], quickness=4, name="rogue")
    assert r.value == 27
    assert r.dice == (4, 5, 1, 17)
    assert "Initiative 27" in r.explain()
    assert all(s.rule.system == "exploding_d6" for s in r.trace)


def test_initiative_needs_one_die_a_point_of_quickness():
    with pytest.raises(RulesError, match="dice_totals must hold exactly 4 dice, got 3"):
        x6.initiative([4, 5, 1], quickness=4)
    with pytest.raises(RulesError, match="never a multiple of 6"):
        x6.initiative([4, 6], quickness=2)


def test_initiative_ties_quickness_then_deftness():
    a = x6.initiative([5, 3], 2, deftness=4, name="A")
    b = x6.initiative([3, 2, 3], 3, deftness=1, name="B")
    c = x6.initiative([1, 7], 2, deftness=5, name="C")
    d = x6.initiative([20], 1, name="D")
    order = x6.initiative_order([a, b, c, d])
    assert order.order == ("D", "B", "C", "A")
    assert "B goes first on Quickness" in order.explain()
    assert "C goes first on Deftness" in order.explain()
    assert order.ties == ()


def test_full_tie_keeps_entry_order_and_is_reported():
    a = x6.initiative([5, 3], 2, deftness=1, name="A")
    b = x6.initiative([4, 4], 2, deftness=1, name="B")
    order = x6.initiative_order([a, b])
    assert order.order == ("A", "B") and order.ties == (("A", "B"),)
    with pytest.raises(RulesError, match="names must differ"):
        x6.initiative_order([a, a])


def test_no_actions_before_the_first_turn():
    pool = x6.start_combat(2)
    assert pool.available == 0
    assert not x6.can_react(pool, perceives=True)
    with pytest.raises(RulesError, match="Attack with a weapon costs 1 action, but only 0 available"):
        x6.spend(pool, "attack")
    assert x6.refresh(pool).available == 2


# --- Sequence of rounds, actions ----------------------------------------------------------------

def test_round_phases_in_order():
    phases = x6.round_phases(["rogue", "robber"])
    assert phases[0] == ("Start of round", "")
    assert phases[1:5] == (("Start of player combat round", "rogue"),
                           ("Actions refreshed", "rogue"), ("Actions", "rogue"),
                           ("End of player combat round", "rogue"))
    assert phases[5][1] == "robber" and phases[-1] == ("End of round", "")
    assert len(phases) == 10
    with pytest.raises(RulesError, match="at least one combatant"):
        x6.round_phases([])


def test_actions_per_round_and_refresh():
    assert x6.max_actions("human") == 2
    assert x6.max_actions("human", extra=1, two_weapons=True) == 4
    with pytest.raises(RulesError, match="lineage must be one of 'human'"):
        x6.max_actions("elf")
    pool = x6.refresh(x6.ActionPool(2, 0))
    after = x6.spend(pool, "attack").pool
    assert after.available == 1
    assert x6.refresh(after).available == 2


def test_walking_costs_no_action_and_running_one():
    pool = x6.ActionPool(2, 2)
    assert x6.spend(pool, "walk").pool.available == 2
    assert x6.spend(pool, "run").pool.available == 1
    assert x6.spend(pool, "arbitrary").value == 1


def test_arbitrary_action_costs_one():
    r = x6.spend(x6.ActionPool(2, 2), "arbitrary")
    assert r.value == 1 and "GM may ask for more" in r.explain()
    with pytest.raises(RulesError, match="action must be one of"):
        x6.spend(x6.ActionPool(2, 2), "juggle")


def test_movement_distances():
    assert x6.movement("walk", 3) == 4
    assert x6.movement("run", 3) == 8
    assert x6.movement("crawl", 3, hunkered=True) == 3   # 3/2 rounded up + 1
    assert x6.movement("crawl", 4, hunkered=True) == 3
    assert x6.movement("run", 3, shield_block=True) == 4
    with pytest.raises(RulesError, match="hunkered must be True to crawl"):
        x6.movement("crawl", 3)


# --- Reactions and bonus dice -------------------------------------------------------------------

def test_reactions_in_initiative_order_cost_one_action():
    hagen = x6.ActionPool(2, 1)
    ally = x6.ActionPool(2, 2)
    blind = x6.ActionPool(2, 2)
    spent = x6.ActionPool(2, 0)
    r = x6.reactions([("Hagen", 12, hagen, True), ("Ally", 20, ally, True),
                      ("Blind", 30, blind, False), ("Spent", 25, spent, True)])
    assert r.order == ("Ally", "Hagen")
    assert [p.available for p in r.pools] == [1, 0]
    text = r.explain()
    assert "Blind cannot react: does not perceive the actor" in text
    assert "Spent cannot react: has no action left" in text
    assert "happen before it" in text
    # §Reactions: one may react who perceives the actor and still has unused actions; a
    # verdict for everyone, in the order given, each citing the section.
    ref = RuleRef("exploding_d6", "Reactions")
    assert r.verdicts == (
        x6.ReactorVerdict("Hagen", 12, True, "", ref),
        x6.ReactorVerdict("Ally", 20, True, "", ref),
        x6.ReactorVerdict("Blind", 30, False, "does not perceive the actor", ref),
        x6.ReactorVerdict("Spent", 25, False, "has no action left", ref))
    assert [v.name for v in r.refused] == ["Blind", "Spent"]


def test_reactions_hold_each_pool_to_the_rules_and_name_the_reactor():
    """§Actor and actions: 1 to 12 actions a round; §Bonus dice actions: a bonus die buys an
    action usable at once, even as a reaction, so a human's 2 of 2 becomes 3 in hand and 3
    left of a round of 2 reacts; up to 40 in hand (turns.MAX_AVAILABLE)."""
    bought = x6.bonus_die_action(x6.ActionPool(2, 2)).pool
    assert bought == x6.ActionPool(2, 3)
    r = x6.reactions([("Hagen", 12, bought, True)])
    assert r.order == ("Hagen",) and r.pools == (x6.ActionPool(2, 2),)
    with pytest.raises(RulesError) as exc:
        x6.reactions([("Hagen", 12, x6.ActionPool(13, 1), True)])
    assert str(exc.value) == "reactors: Hagen's actions a round must be from 1 to 12, got 13"
    with pytest.raises(RulesError) as exc:
        x6.reactions([("Robber", 6, x6.ActionPool(3, 41), True)])
    assert str(exc.value) == "reactors: Robber's actions left must be from 0 to 40, got 41"
    with pytest.raises(RulesError) as exc:
        x6.reactions([("Robber", 6, x6.ActionPool(3, -1), True)])
    assert str(exc.value) == "reactors: Robber's actions left must be from 0 to 40, got -1"


@pytest.mark.parametrize("call, message", [
    (lambda: x6.bonus_die_action(x6.ActionPool(13, 0)),
     "pool's actions a round must be from 1 to 12, got 13"),
    (lambda: x6.refresh(x6.ActionPool(0, 0)),
     "pool's actions a round must be from 1 to 12, got 0"),
    (lambda: x6.spend(x6.ActionPool(2, 41), "attack"),
     "pool's actions left must be from 0 to 40, got 41"),
    (lambda: x6.can_react(x6.ActionPool(2, -1), True),
     "pool's actions left must be from 0 to 40, got -1"),
    (lambda: x6.destiny_die_action(x6.ActionPool(2, 0), x6.ActionPool(13, 2)),
     "victim's actions a round must be from 1 to 12, got 13"),
    (lambda: x6.destiny_die_action(x6.ActionPool(2, 0), x6.ActionPool(2, 41)),
     "victim's actions left must be from 0 to 40, got 41"),
    (lambda: x6.destiny_die_action(x6.ActionPool(2, 0), 2),
     "victim must be an ActionPool (actions a round and actions left), got int"),
    (lambda: x6.reactions([("Hagen", 12, 2, True)]),
     "reactors: Hagen must be an ActionPool (actions a round and actions left), got int"),
])
def test_a_pools_refusal_names_its_parts_as_the_reader_knows_them(call, message):
    """An ActionPool's parts are named "actions a round" and "actions left" after whose pool
    it is (the argument, or the reactor), as the reactions list names them; never by the
    dataclass's field names (maximum, available), which no reader sees."""
    with pytest.raises(RulesError) as exc:
        call()
    assert str(exc.value) == message


def test_reaction_verdicts_of_the_hagen_example():
    # §Reactions: Hagen saved one of his two actions and perceives the robber: he reacts and
    # has none left. One who spent both, or who does not notice the action, cannot; not
    # perceiving is the reason even for one who has no action either.
    r = x6.reactions([("Hagen", 12, x6.ActionPool(2, 1), True),
                      ("Rogue", 9, x6.ActionPool(2, 0), True),
                      ("Guard", 14, x6.ActionPool(2, 0), False)])
    assert r.order == ("Hagen",) and r.pools == (x6.ActionPool(2, 0),)
    assert [(v.name, v.reacts, v.reason) for v in r.verdicts] == [
        ("Hagen", True, ""), ("Rogue", False, "has no action left"),
        ("Guard", False, "does not perceive the actor")]
    nobody = x6.reactions([("Rogue", 9, x6.ActionPool(2, 0), True)])
    assert nobody.order == () and nobody.outcome == "none"
    assert nobody.refused == nobody.verdicts and nobody.verdicts[0].rule.section == "Reactions"
    assert x6.reactions([]).verdicts == ()
    with pytest.raises(RulesError, match="perceives must be"):
        x6.reactions([("Hagen", 12, x6.ActionPool(2, 1), 1)])
    with pytest.raises(RulesError, match="initiative of Hagen"):
        x6.reactions([("Hagen", True, x6.ActionPool(2, 1), True)])


def test_one_reaction_per_participant():
    p = x6.ActionPool(2, 2)
    with pytest.raises(RulesError, match="may react only once"):
        x6.reactions([("A", 3, p, True), ("A", 3, p, True)])


def test_hagen_shield_parry_example():
    # Hagen kept one action; the robber scores three hits; Hagen parries with his round shield
    # (5+ cover) and rolls 5, 5 and a miss: two hits are stopped, the third lands.
    hagen = x6.ActionPool(2, 1)
    assert x6.can_react(hagen, perceives=True)
    use = x6.shield_use("parry", "round shield", actions_left=hagen.available)
    assert (use.cover, use.actions, use.reaction) == (5, 1, True)
    cov = x6.cover_roll(3, 0, [5, 5, 2], [], use.cover)
    assert cov.prevented_hits == 2 and cov.hits == 1


def test_bonus_and_destiny_dice_for_actions():
    pool = x6.ActionPool(2, 0)
    gained = x6.bonus_die_action(pool)
    assert gained.pool.available == 1 and x6.can_react(gained.pool, True)
    stolen = x6.destiny_die_action(x6.ActionPool(2, 0), x6.ActionPool(2, 2))
    assert stolen.pool.available == 1 and stolen.victim.available == 1
    empty = x6.destiny_die_action(x6.ActionPool(2, 1), x6.ActionPool(2, 0))
    assert empty.victim.available == 0 and empty.pool.available == 2


# --- The hit roll, criticals, megacriticals ----------------------------------------------------

@pytest.mark.parametrize("total, expected", [
    (1, ("miss", 0)), (4, ("miss", 0)), (5, ("hit", 0)), (10, ("hit", 0)),
    (11, ("critical", 0)), (16, ("critical", 0)), (17, ("megacritical", 1)),
    (22, ("megacritical", 1)), (23, ("megacritical", 2)), (29, ("megacritical", 3)),
    (35, ("megacritical", 4)),
])
def test_classify_bands(total, expected):
    assert x6.classify(total) == expected


def test_classify_with_moved_thresholds():
    assert x6.classify(7, min_roll=7, crit_at=13) == ("hit", 0)
    assert x6.classify(13, min_roll=7, crit_at=13) == ("critical", 0)
    assert x6.classify(19, min_roll=7, crit_at=13) == ("megacritical", 1)
    # aiming lowers the threshold; the megacritical steps follow it
    assert x6.classify(9, crit_at=9) == ("critical", 0)
    assert x6.classify(15, crit_at=9) == ("megacritical", 1)
    # a critical must first be a hit
    assert x6.classify(8, min_roll=9, crit_at=7) == ("miss", 0)
    assert x6.classify(17, criticals=False) == ("hit", 0)


def test_maragas_two_hits_and_a_critical():
    r = x6.hit_roll([4, 5, 5, 14])
    assert (r.hits, r.criticals, r.extra_wounds) == (2, 1, 0)
    assert r.value == 3 and r.announcement == "1 crit, 2 normal hits"


def test_bow_shot_announcement_two_crits_three_hits():
    r = x6.hit_roll([5, 7, 9, 11, 15, 2])
    assert r.announcement == "2 crits, 3 normal hits"


def test_megacriticals_add_wounds_and_count_as_criticals():
    r = x6.hit_roll([17, 29, 11, 5, 3])
    assert (r.hits, r.criticals, r.megacriticals, r.extra_wounds) == (1, 3, 2, 4)
    assert r.critical_extras == (3, 1, 0)
    assert "megacritical" in r.explain()


def test_burst_never_critical():
    r = x6.hit_roll([17, 11, 5, 2], burst=True)
    assert (r.hits, r.criticals, r.extra_wounds) == (3, 0, 0)


def test_hit_roll_rejects_impossible_totals():
    with pytest.raises(RulesError, match="dice_totals: die 2 cannot be 12"):
        x6.hit_roll([5, 12])
    with pytest.raises(RulesError, match="dice_totals: die 1 must be from 1"):
        x6.hit_roll([0])
    assert x6.hit_roll([]).announcement == "no hits"


def test_chains_and_chain_totals():
    assert x6.chain_total([6, 6, 5]) == 17
    assert x6.chains_from_faces([4, 5, 1, 6, 6, 5]) == ((4,), (5,), (1,), (6, 6, 5))
    with pytest.raises(RulesError, match="ending in a face below 6"):
        x6.chain_total([6, 3, 2])
    with pytest.raises(RulesError, match="faces end on a 6"):
        x6.chains_from_faces([3, 6])


# --- Recoil -------------------------------------------------------------------------------------

def test_recoil_malus():
    assert x6.recoil_malus(1) == 0
    assert x6.recoil_malus(2) == 2
    assert x6.recoil_malus(3) == 4
    assert x6.recoil_malus(2, compensation=1) == 1
    assert x6.recoil_malus(3, compensation=1) == 2
    assert x6.recoil_malus(4, compensation=2) == 0
    with pytest.raises(RulesError, match="attack_number must be from 1"):
        x6.recoil_malus(0)


def test_round_recoil_is_broken_by_another_action():
    assert x6.round_recoil(["attack", "attack", "attack"]) == (0, 2, 4)
    assert x6.round_recoil(["attack", "reload", "attack"]) == (0, 0, 0)
    assert x6.round_recoil(["attack", "attack"], recoil=False) == (0, 0)
    assert x6.round_recoil(["attack", "attack"], compensation=1) == (0, 1)


def test_recoil_raises_both_thresholds_for_shots_only():
    s = x6.attack_setup(3, 2, "single", attack_number=3)
    assert (s.min_roll, s.crit_at) == (9, 15)
    m = x6.attack_setup(3, 2, "melee", attack_number=3)
    assert (m.min_roll, m.crit_at) == (5, 11)
    bow = x6.attack_setup(3, 2, "single", attack_number=3, recoil=False)
    assert (bow.min_roll, bow.crit_at) == (5, 11)


def test_an_aim_action_between_two_shots_breaks_the_recoil_run():
    """§Recoil: another action slipped in between two attacks prevents recoil; §Aiming: each
    aiming action lowers the critical threshold of the next attack by 2 (up to Perception).

    By hand: the second shot of the round, straight after the first, has 5 + 2 = 7 and
    11 + 2 = 13. With one aim action before it, the aim sits between the shots, so there is
    no recoil: minimum roll 5, critical threshold 11 − 2 = 9. A third shot after an aim is
    the same. Two actions of accurate attack likewise break the run: 5 − 2 = 3, critical 11.
    """
    direct = x6.attack_setup(3, 2, "single", attack_number=2, perception=3)
    assert (direct.min_roll, direct.crit_at, direct.recoil_broken) == (7, 13, False)
    aimed = x6.attack_setup(3, 2, "single", attack_number=2, aim_actions=1, perception=3)
    assert (aimed.min_roll, aimed.crit_at, aimed.recoil_broken) == (5, 9, True)
    assert any("no recoil" in st.text for st in aimed.trace)
    third = x6.attack_setup(3, 2, "single", attack_number=3, aim_actions=1, perception=3)
    assert (third.min_roll, third.crit_at) == (5, 9)
    accurate = x6.attack_setup(3, 2, "single", attack_number=2, accurate_actions=2,
                               perception=3)
    assert (accurate.min_roll, accurate.crit_at) == (3, 11)
    # The same round written out action by action: the aimed shot starts a new run.
    assert x6.round_recoil(["attack", "aim", "attack", "attack"]) == (0, 0, 0, 2)


# --- Aiming, attack modes, distance --------------------------------------------------------------

def test_aim_bonus_capped_by_perception_and_lost_when_hit():
    assert x6.aim_bonus(1, perception=3) == 2
    assert x6.aim_bonus(2, perception=3) == 3
    assert x6.aim_bonus(2, perception=5) == 4
    assert x6.aim_bonus(2, perception=5, interrupted=True) == 0
    with pytest.raises(RulesError, match="burst attack: it cannot be aimed"):
        x6.aim_bonus(1, perception=3, mode="burst")
    s = x6.attack_setup(4, 2, "single", aim_actions=2, perception=4)
    assert s.crit_at == 7 and s.min_roll == 5


def test_an_attack_whose_aimer_was_hit_while_aiming_has_no_aim():
    """§Aiming: being hit while aiming loses it all; the trace says why."""
    lost = x6.attack_setup(3, 2, "melee", aim_actions=2, perception=3, aim_interrupted=True)
    assert lost.crit_at == 11
    assert any("hit while aiming" in s.text for s in lost.trace)
    with pytest.raises(RulesError, match="aim_interrupted must be True or False, got 1"):
        x6.attack_setup(3, 2, aim_interrupted=1)


def test_attack_modes_table():
    burst = x6.attack_mode("burst")
    assert (burst["extra_dice"], burst["ammunition"], burst["criticals"]) == (2, 3, False)
    melee = x6.attack_mode("melee")
    assert melee["parry"] and melee["dodge"] and melee["aim"]
    single = x6.attack_mode("single")
    assert (single["ammunition"], single["parry"], single["dodge"]) == (1, False, False)
    with pytest.raises(RulesError, match="mode must be one of"):
        x6.attack_mode("laser")


def test_hand_to_hand_mode_can_be_parried_dodged_and_aimed():
    s = x6.attack_setup(3, 2, "melee", aim_actions=1, perception=2)
    assert s.can_parry and s.can_dodge and s.crit_at == 9


def test_single_shot_uses_one_round():
    s = x6.attack_setup(3, 2, "single")
    assert s.ammunition == 1 and not s.can_parry and not s.can_dodge and not s.burst


def test_burst_adds_two_dice_and_no_criticals():
    s = x6.attack_setup(3, 2, "burst")
    assert s.dice == 7 and s.burst and s.ammunition == 3


def test_distance_penalty():
    assert x6.distance_penalty(30, 30) == 0
    assert x6.distance_penalty(31, 30) == 2
    assert x6.distance_penalty(60, 30) == 2
    assert x6.distance_penalty(61, 30) is None
    assert x6.attack_setup(3, 2, "single", distance=50, weapon_range=30).min_roll == 7
    with pytest.raises(RulesError, match="cannot be attacked"):
        x6.attack_setup(3, 2, "single", distance=70, weapon_range=30)


# --- Cover, shields, protection, wounds ----------------------------------------------------------

def test_cover_roll_criticals_apart():
    r = x6.cover_roll(2, 1, [4, 6], [5], cover=5)
    assert (r.prevented_hits, r.prevented_criticals, r.hits, r.criticals) == (1, 1, 1, 0)
    assert x6.cover_roll(2, 0, [4, 3], [], cover=4).hits == 1
    assert x6.cover_roll(2, 0, [4, 6], [], cover=4).hits == 0
    assert x6.cover_roll(2, 0, [5, 6], [], cover=6).hits == 1
    with pytest.raises(RulesError, match="cover must be one of 4\\+, 5\\+, 6\\+"):
        x6.cover_roll(1, 0, [4], [], cover=3)
    with pytest.raises(RulesError, match="normal_faces must hold exactly 2 dice"):
        x6.cover_roll(2, 0, [4], [], cover=5)


def test_cover_stops_heaviest_criticals_first_unless_told():
    r = x6.cover_roll(0, 2, [], [6, 1], cover=5, critical_extras=[2, 0])
    assert r.critical_extras == (0,)
    r = x6.cover_roll(0, 2, [], [6, 1], cover=5, critical_extras=[2, 0], prevent="lightest")
    assert r.critical_extras == (2,)


def test_shields():
    assert x6.shield_cover("round shield") == 5
    block = x6.shield_use("block")
    assert (block.actions, block.reaction, block.movement_factor) == (2, False, 0.5)
    with pytest.raises(RulesError, match="one-handed weapon"):
        x6.shield_use("parry", one_handed_weapon=False)
    with pytest.raises(RulesError, match="actions_left must be at least 2"):
        x6.shield_use("block", actions_left=1)


def test_protection_pool():
    r = x6.protection(3, 1, pool=2)
    assert (r.hits, r.criticals, r.spent, r.pool_left) == (1, 1, 2, 0)
    r = x6.protection(1, 2, pool=4, critical_pool=2, critical_extras=[1, 0])
    assert (r.hits, r.criticals, r.spent, r.pool_left, r.critical_pool_left) == (0, 0, 3, 1, 0)
    r = x6.protection(3, 0, pool=3, spend=1)
    assert r.hits == 2 and r.pool_left == 2
    r = x6.protection(3, 0, pool=3, critical_pool=1)
    assert r.hits == 0 and r.critical_pool_left == 0   # leftover critical units stop hits
    with pytest.raises(RulesError, match="critical_pool must be from 0 to 2"):
        x6.protection(1, 0, pool=2, critical_pool=3)


def test_piercing_makes_ordinary_units_unusable():
    r = x6.protection(3, 0, pool=3, piercing=1)
    assert r.hits == 1 and r.pool_left == 1


def test_wounds():
    assert x6.wounds(2, 1, 0).value == 3
    assert x6.wounds(0, 2, 3).value == 5
    grenade = x6.wounds(3, wounds_per_hit=2)
    assert grenade.value == 6
    with pytest.raises(RulesError, match="extra_wounds must be 0"):
        x6.wounds(2, 0, 1)


def test_maragas_after_armour():
    # Maragas' critical goes through armour; the two normal hits are reduced by protection.
    a = x6.resolve_attack([4, 5, 5, 14], pool=2)
    assert a.protection.hits == 0 and a.protection.criticals == 1 and a.value == 1


def test_resolve_attack_pipeline_with_cover():
    a = x6.resolve_attack([4, 17, 5, 7], cover=5, cover_faces=[2, 6, 1], pool=1)
    assert a.hit.criticals == 1 and a.hit.hits == 2
    assert a.cover.hits == 1 and a.cover.criticals == 1
    assert a.protection.hits == 0 and a.value == 2     # the megacritical: 1 + 1 extra
    with pytest.raises(RulesError, match="cover_faces must hold one die a hit"):
        x6.resolve_attack([17, 5], cover=5, cover_faces=[2])
    ko = x6.resolve_attack([5, 5], causes_wounds=False)
    assert ko.value == 0 and ko.wounds is None and ko.outcome == "landed"


def test_roll_attack_replays_from_seed():
    one = x6.roll_attack(7, 6, cover=5)
    two = x6.roll_attack(7, 6, cover=5)
    assert one == two
    hits = x6.hit_roll(one.totals).value
    assert len(one.plain) == hits
    assert all(c[-1] != 6 and all(f == 6 for f in c[:-1]) for c in one.chains)


# --- Weaponless, dodge, parry ---------------------------------------------------------------------

def test_unarmed_attack():
    r = x6.unarmed_attack(3, strength=3, quickness=3)
    assert (r.dice, r.piercing, r.reach) == (4, 1, 1)
    r = x6.unarmed_attack(3, strength=2, quickness=2)
    assert (r.dice, r.piercing) == (3, 0)


def test_dodge_value_and_roll():
    assert x6.dodge_value(1, 3, 4) == 5            # 1 + ceil(7/2)
    assert x6.dodge_value(1, 3, 4, load=2) == 3
    assert x6.dodge_value(0, 0, 0, load=3) == 0
    r = x6.dodge([7, 4], attacker_hits=2)
    assert r.min_roll == 7 and r.dodged
    assert not x6.dodge([6 + 5, 5], attacker_hits=7).dodged
    with pytest.raises(RulesError, match="from behind"):
        x6.dodge([5], 1, perceives=False)
    with pytest.raises(RulesError, match="melee attack to dodge"):
        x6.dodge([5], 1, mode="single")


def test_parry_removes_normal_hits_never_criticals():
    r = x6.parry([5, 11, 2], hits=3, criticals=1)
    assert (r.value, r.hits, r.criticals) == (2, 1, 1)
    r = x6.parry([5, 5, 5], hits=1)
    assert r.hits == 0 and r.prevented == 1 and r.outcome == "parried"
    with pytest.raises(RulesError, match="melee attack to parry"):
        x6.parry([5], 1, mode="burst")


# --- Special attacks --------------------------------------------------------------------------------

def test_special_attack_setup():
    s = x6.attack_setup(3, 1, "melee", special="disarm")
    assert s.min_roll == 8 and not s.wounds
    assert not x6.attack_setup(3, 1, special="ko").wounds
    with pytest.raises(RulesError, match="special must be one of"):
        x6.attack_setup(3, 1, special="flurry")


def test_accurate_attack():
    assert x6.accurate_min_roll(5, 2, perception=3) == 3
    assert x6.accurate_min_roll(5, 5, perception=3) == 2
    assert x6.accurate_min_roll(5, 9, perception=9) == 2
    assert x6.accurate_min_roll(6, 9, perception=9) == 2
    assert x6.attack_setup(3, 2, accurate_actions=2, perception=2).min_roll == 3


def test_accurate_attack_only_where_aiming_is_allowed():
    """§Accurate Attack is aiming for longer, and §Aiming allows it only with melee weapons
    and single shots (assumption accurate_modes). By hand: a single shot with two actions of
    accurate attack and Perception 3 rolls at 5 − 2 = 3+; a burst or a throw is refused."""
    assert x6.attack_setup(3, 2, "single", accurate_actions=2, perception=3).min_roll == 3
    with pytest.raises(RulesError, match="accurate_actions must be 0 for a burst attack"):
        x6.attack_setup(3, 2, "burst", accurate_actions=1, perception=3)
    with pytest.raises(RulesError, match="accurate_actions must be 0 for a throw attack"):
        x6.attack_setup(3, 2, "throw", accurate_actions=1, perception=3)


def test_a_different_base_minimum_roll_leaves_criticals_at_11():
    """§The hit roll: the minimum roll is the character's own (usually 5+); §Critical hits:
    changes to the minimum roll do not apply to the 11 of a critical (assumption
    usual_min_roll). By hand: a 4+ character walking rolls at 4 + 1 = 5+ and still criticals
    at 11; with 5+ as usual, walking gives 6+ and 11."""
    usual = x6.attack_setup(3, 2, "melee", walking=True)
    assert (usual.min_roll, usual.crit_at) == (6, 11)
    keen = x6.attack_setup(3, 2, "melee", min_roll=4, walking=True)
    assert (keen.min_roll, keen.crit_at) == (5, 11)


def test_ko_attack():
    assert x6.ko_attack(3, 2).success
    assert not x6.ko_attack(3, 3).success
    assert not x6.ko_attack(0, 0).success
    with pytest.raises(RulesError, match="blunt weapon"):
        x6.ko_attack(1, 0, blunt=False)


def test_massive_attack():
    assert x6.massive_dice(1, strength=4) == 3
    assert x6.massive_dice(2, strength=4) == 4
    assert x6.massive_dice(2, strength=9) == 6
    assert x6.attack_setup(3, 2, special="massive", massive_actions=1, strength=5).dice == 8


def test_disarming_attack():
    assert x6.disarm(2, 1).success
    assert not x6.disarm(2, 2).success
    assert "no wounds" in x6.disarm(2, 1).explain()


def test_two_weapons():
    r = x6.two_weapons(True, True)
    assert r.value == 1 and r.off_hand_min_roll == 6
    assert x6.attack_setup(3, 1, off_hand=True).min_roll == 6
    with pytest.raises(RulesError, match="two-handed weapons cannot"):
        x6.two_weapons(False, True)


def test_support_weapon():
    assert x6.supported_min_roll(5) == 4
    assert x6.attack_setup(3, 2, "single", supported=True).min_roll == 4
    assert x6.spend(x6.ActionPool(2, 2), "support").value == 1
    with pytest.raises(RulesError, match="bow cannot"):
        x6.supported_min_roll(5, "bow")


def test_coup_de_grace():
    r = x6.coup_de_grace(2, "unconscious")
    assert r.dead_level == 2
    assert x6.coup_de_grace(3, "dying", dying_level=1).dead_level == 4
    fail = x6.coup_de_grace(0, "sleeping")
    assert fail.dead_level is None and fail.may_wake
    with pytest.raises(RulesError, match="state must be one of"):
        x6.coup_de_grace(1, "awake")


def test_coup_de_grace_from_its_attack_roll():
    from rulescore.dice import DiceSource
    r = x6.coup_de_grace_roll([5, 11, 2], "unconscious")
    assert (r.value, r.dead_level) == (2, 2) and r.trace[0].text.endswith("2 successes")
    assert x6.coup_de_grace_roll([5, 5, 7], "dying", 1).dead_level == 4
    assert x6.coup_de_grace_roll([2, 4], "sleeping").may_wake
    typed = x6.coup_de_grace_roll(3, "unconscious", dice=DiceSource.typed([5, 6, 6, 1, 2]))
    assert typed.chains == ((5,), (6, 6, 1), (2,)) and typed.dead_level == 2
    assert x6.coup_de_grace_roll([4, 4], "unconscious", min_roll=4).dead_level == 2
    with pytest.raises(RulesError, match="dying_level must be 0"):
        x6.coup_de_grace_roll([5], "sleeping", 1)
    with pytest.raises(RulesError, match="dice_totals"):
        x6.coup_de_grace_roll(True, "dying")


def test_throw_hits_with_one_success():
    r = x6.throw([2, 5])
    assert r.hit and r.value == 1
    ignored = x6.throw([5], clock=3, metres=2)
    assert ignored.hit and ignored.offset is None and "not needed" in ignored.explain()


def test_throw_deviation_clock():
    r = x6.throw([2, 4], clock=3, metres=4)
    assert not r.hit and r.direction == "right" and r.offset == (4.0, 0.0)
    assert x6.throw([1], clock=12, metres=2).offset == (0.0, 2.0)
    assert x6.throw([1], clock=6, metres=5).offset == (0.0, -5.0)
    assert x6.throw([1], clock=9, metres=1).offset == (-1.0, 0.0)
    with pytest.raises(RulesError, match="a missed throw deviates"):
        x6.throw([1])
    with pytest.raises(RulesError, match="clock must be from 1 to 12, got 13"):
        x6.throw([1], clock=13, metres=1)


# --- Tables are data ------------------------------------------------------------------------------

def _edited_copy(tmp_path, name, edits):
    folder = tmp_path / name
    folder.mkdir()
    for f in DATA.folder.glob("*.toml"):
        shutil.copy(f, folder / f.name)
    path = folder / "combat.toml"
    text = path.read_text()
    for old, new in edits:
        assert old in text
        text = text.replace(old, new)
    path.write_text(text)
    return folder


def test_editing_the_tables_changes_the_engine(tmp_path):
    folder = _edited_copy(tmp_path, "a", [("min_roll = 2\ncrit_at = 2", "min_roll = 3\ncrit_at = 3")])
    with DATA.using(folder):
        assert x6.recoil_malus(2) == 3
    folder = _edited_copy(tmp_path, "b", [('total = "11..16"', 'total = "11..15"'),
                                          ('total = "17..22"', 'total = "16..22"')])
    with DATA.using(folder):
        assert x6.megacritical_step() == 5
        assert x6.classify(16) == ("megacritical", 1)
    assert x6.recoil_malus(2) == 2


# --- Helpers the tools use ------------------------------------------------------------------------

def test_initiative_table_for_everyone():
    t = x6.initiative_table([("Rogue", 4, 3), ("Robber", 2, 2)], [4, 5, 1, 17, 3, 3])
    assert t.order == ("Rogue", "Robber")
    assert [r.value for r in t.rolls] == [27, 6]
    with pytest.raises(RulesError, match="dice_totals must hold exactly 6 dice, got 5"):
        x6.initiative_table([("Rogue", 4, 3), ("Robber", 2, 2)], [4, 5, 1, 17, 3])


def test_reactions_resolve_and_their_odds():
    assert x6.reaction("shield parry", [5, 5, 2], 3).value == 1
    assert x6.reaction("dodge", [8, 2], 2).value == 0
    assert x6.reaction("dodge", [6 + 1, 2], 2, 1).value == 3
    p = x6.reaction("parry", [5, 2], 2, 1)
    assert (p.hits, p.criticals) == (1, 1)
    shield = x6.reaction_odds("shield parry", 0, 3)
    assert shield == {0: Fraction(1, 27), 1: Fraction(2, 9), 2: Fraction(4, 9), 3: Fraction(8, 27)}
    dodge = x6.reaction_odds("dodge", 2, 1)
    # need 6+: a die succeeds only if it shows a 6 (and rolls on): 1/6 a die
    assert dodge == {0: 1 - Fraction(5, 6) ** 2, 1: Fraction(5, 6) ** 2}
    parry = x6.reaction_odds("parry", 1, 2, 1)
    assert parry == {2: Fraction(1, 3), 3: Fraction(2, 3)}


def test_initiative_mean():
    assert x6.initiative_mean(4) == Fraction(84, 5)
    from rulescore.dice import parse
    dist = parse("1d6!!").distribution(explode_depth=30)
    assert abs(float(dist.mean()) - float(x6.initiative_mean(1))) < 1e-9


def test_roll_throw_replays():
    one = x6.roll_throw(5, 3)
    assert one == x6.roll_throw(5, 3)
    assert 1 <= one.clock <= 12 and 1 <= one.metres <= 6 and len(one.totals) == 3


def test_every_cited_section_is_in_the_rules_index():
    import re
    from pathlib import Path
    from rulescore.rules_index import load_rules_index
    sections = {e.section for e in load_rules_index("exploding_d6")}
    folder = Path(x6.__file__).parent
    cited = set()
    for path in folder.glob("*.py"):
        cited |= set(re.findall(r'rule\(\s*"([^"]+)"', path.read_text()))
    assert cited and cited <= sections, cited - sections


# --- Hostile input: each refused naming the input --------------------------------------

@pytest.mark.parametrize("call, message", [
    (lambda: x6.resolve_attack([2, 15, 7, 4], cover_faces=float("nan")),
     "cover_faces must be a list of d6 faces, got nan"),
    (lambda: x6.roll_attack(1, None), "pool must be a whole number, got None"),
    (lambda: x6.roll_attack(1, 3, crit_at="x"), "crit_at must be a whole number"),
    (lambda: x6.attack_setup(3, 2, accurate_actions=10**9),
     "accurate_actions must be from 0 to 40, got 1000000000"),
    (lambda: x6.reaction("dodge", 5, 1), "dice must be a list of die totals, got 5"),
    (lambda: x6.announce(None, 1), "hits must be a whole number, got None"),
    (lambda: x6.hit_roll({7: 1}), "dice_totals must be a list of die totals"),
    (lambda: x6.round_phases([1]), "order must be text, got 1"),
    (lambda: x6.spend(x6.ActionPool(3, "2"), "attack"),
     "pool's actions left must be a whole number"),
    (lambda: x6.throw([7], clock="noon"), "clock must be a whole number"),
    (lambda: x6.initiative([4, 5], 2, name=None), "name must be text, got None"),
])
def test_hostile_input_is_refused_naming_the_input(call, message):
    with pytest.raises(RulesError, match=message):
        call()


def test_can_react_and_the_reactions_refusal_are_one_verdict():
    """§Reactions: can_react says yes exactly when reactions() lets the fighter react, and a no
    carries the reason reactions() gives (not perceiving the actor named first)."""
    for available in (0, 1, 2):
        for perceives in (True, False):
            pool = x6.ActionPool(2, available)
            (verdict,) = x6.reactions([("Hagen", 7, pool, perceives)]).verdicts
            assert x6.can_react(pool, perceives) == verdict.reacts
            assert verdict.reason == ("" if verdict.reacts else
                                      x6.turns.NOT_PERCEIVED if not perceives else
                                      x6.turns.NO_ACTION)
