"""TSL Stress pools, Breaking, the support actions that move Stress, Spirit abilities and what
Positioning and Utility tags do (primer §11). Expected values are worked out by hand from the
primer's text, quoted in each docstring in our own words."""

from fractions import Fraction
from itertools import product

import pytest

from rulescore import RulesError
from rulescore.systems import tsl

VELA_DICE = [3, 6, 1, 4, 3]   # the worked example: Proficient keeps 6+4+3+3 = 16


# --- Pools and Breaking (§11 Damage) ---------------------------------------------------------

def test_starting_pool_is_four_so_a_success_takes_half():
    """§11 Damage: a tough foe's Success (2 Stress) takes half a starting pool, and a Crit (4)
    can Break it outright: so a starting pool holds 4 and Breaks when full."""
    assert tsl.pool_size("character") == 4
    fresh = tsl.new_pools()
    half = tsl.take_stress(fresh, "Body", 2)
    assert (half.after, half.size, half.breaks, half.outcome) == (2, 4, False, "holds")
    assert half.pools.left("Body") == 2
    crit = tsl.take_stress(fresh, "Body", 4)
    assert (crit.after, crit.breaks, crit.outcome) == (4, True, "Breaks")
    assert crit.pools.broken_pools == ("Body",)
    # Two Successes in a row fill it too; the pools are separate.
    second = tsl.take_stress(half.pools, "Body", 2)
    assert second.breaks and second.pools.stress("Mind") == 0


def test_grunt_breaks_on_one_solid_hit():
    """§11 A Worked Example: Vela's 16 against T11 is a clean Success on the thug, a Grunt,
    and one solid hit Breaks him; a Mixed (1 Stress) on a pool of 2 does not."""
    assert tsl.pool_size("grunt") == 2
    grunt = tsl.new_pools("grunt")
    shot = tsl.attack(VELA_DICE, "Proficient", target=11, attack_type="Ranged weapon",
                      weapon=tsl.make_weapon("Sidearm", ["Silent"]), distance="Near",
                      target_pools=grunt)
    assert (shot.total, shot.band, shot.stress, shot.pool) == (16, "success", 2, "Body")
    assert shot.target_breaks and shot.target_pools.marked == (2, 0, 0)
    assert "The Body pool is full: the fighter Breaks" in shot.explain()
    # 3+3+3+3 = 12 against T11: margin +1, a Mixed Success, 1 Stress.
    glance = tsl.attack([3, 3, 3, 3, 1], "Proficient", target=11, target_pools=grunt)
    assert (glance.band, glance.stress, glance.target_breaks) == ("mixed", 1, False)
    assert glance.target_pools.stress("Body") == 1
    # A miss marks nothing.
    miss = tsl.attack([1, 1, 1, 1, 1], "Proficient", target=11, target_pools=grunt)
    assert miss.target_pools == grunt and not miss.target_breaks


def test_apply_attack_marks_the_pool_the_attack_hits():
    """§11 Damage: Stress goes to the relevant pool: a taunt (social pressure) marks Mind.
    Mar's Trained 13 against the thug's Untrained 8 wins by 5: a Success, 2 Stress."""
    taunt = tsl.attack([4, 2, 6, 1, 3], "Trained", defender_dice=[1, 5, 2, 3, 1],
                       defender_tier="Untrained", attack_type="Social pressure")
    assert (taunt.margin, taunt.band, taunt.pool) == (5, "success", "Mind")
    marked = tsl.apply_attack(tsl.new_pools("grunt"), taunt)
    assert (marked.pool, marked.after, marked.breaks) == ("Mind", 2, True)
    assert marked.pools.marked == (0, 2, 0)


def test_stress_on_a_full_pool_has_nowhere_to_go():
    """§11 Damage with ruling stress_pool_size: a full pool has Broken; more Stress is not
    marked past its size."""
    broken = tsl.new_pools("grunt", body=2)
    again = tsl.take_stress(broken, "Body", 2)
    assert (again.outcome, again.after, again.overflow, again.breaks) == ("already Broken", 2,
                                                                          2, False)
    spill = tsl.take_stress(tsl.new_pools(body=3), "Body", 4)
    assert (spill.after, spill.overflow, spill.breaks) == (4, 3, True)
    assert tsl.take_stress(tsl.new_pools(), "Spirit", 0).outcome == "no Stress"


def test_pools_refuse_bad_input_naming_it():
    with pytest.raises(RulesError, match="kind must be one of 'character', 'grunt'"):
        tsl.new_pools("boss")
    with pytest.raises(RulesError, match="body must be from 0 to 2"):
        tsl.new_pools("grunt", body=3)
    with pytest.raises(RulesError, match="pool must be one of 'Body', 'Mind', 'Spirit'"):
        tsl.take_stress(tsl.new_pools(), "Heart", 1)
    with pytest.raises(RulesError, match="pools.marked"):
        tsl.take_stress(tsl.StressPools("character", (4, 4, 4), (5, 0, 0)), "Body", 1)
    with pytest.raises(RulesError, match="target_pools must be a fighter's Stress pools"):
        tsl.attack(VELA_DICE, "Proficient", target=11, target_pools={"Body": 0})


def test_attack_odds_chance_to_break_match_enumeration():
    """§11 Damage: a Grunt (pool 2) Breaks on a Success or a Crit; a character with 3 Body
    Stress already marked Breaks on any hit. Counted over all 6^5 rolls."""
    def count(need_margin):
        hits = sum(1 for faces in product(range(1, 7), repeat=5)
                   if sum(sorted(faces, reverse=True)[:4]) - 11 >= need_margin)
        return Fraction(hits, 6 ** 5)

    grunt = tsl.attack_odds("Proficient", target=11, target_pools=tsl.new_pools("grunt"))
    assert grunt.target_breaks == count(3)            # Success starts at +3 (ruling)
    worn = tsl.attack_odds("Proficient", target=11, target_pools=tsl.new_pools(body=3))
    assert worn.target_breaks == count(1)             # Mixed starts at +1
    assert tsl.attack_odds("Proficient", target=11).target_breaks is None


# --- Support actions that move Stress (§11 Helping Each Other) ------------------------------

def test_soak_the_hit_puts_body_stress_on_the_soaker():
    """§11 Support Actions: Soak the Hit takes Body Stress meant for an Engaged ally onto your
    own Body pool; it is a Reaction."""
    hit = tsl.attack(VELA_DICE, "Proficient", target=11)       # a Success, 2 Body Stress
    soaked = tsl.soak_the_hit(tsl.new_pools(body=1), hit)
    assert (soaked.pool, soaked.after, soaked.breaks) == ("Body", 3, False)
    assert tsl.uses_of("Soak the Hit") == ("reaction",)
    with pytest.raises(RulesError, match="ally_zone must be Engaged"):
        tsl.soak_the_hit(tsl.new_pools(), hit, ally_zone="Near")
    taunt = tsl.attack(VELA_DICE, "Proficient", target=11, attack_type="Social pressure")
    with pytest.raises(RulesError, match="attack must deal Body Stress"):
        tsl.soak_the_hit(tsl.new_pools(), taunt)


def test_steady_the_spirit_moves_one_mind_stress():
    """§11 Support Actions: Steady the Spirit absorbs 1 Mind Stress from an ally onto your own
    Mind pool."""
    moved = tsl.steady_the_spirit(tsl.new_pools(), tsl.new_pools(mind=3))
    assert (moved.value, moved.ally.stress("Mind"), moved.helper.stress("Mind")) == (1, 2, 1)
    full = tsl.steady_the_spirit(tsl.new_pools(mind=3), tsl.new_pools(mind=1))
    assert full.breaks and full.outcome == "Breaks"
    with pytest.raises(RulesError, match="ally must have Mind Stress"):
        tsl.steady_the_spirit(tsl.new_pools(), tsl.new_pools())


def test_steward_steadies_free_once_a_scene():
    """§11 Support Actions (notes): Stewards do Steady the Spirit free once a scene as their
    perk; anyone else spends the Action."""
    enc = tsl.new_encounter(["Mar", "Ko"])
    free = tsl.take(enc, "Mar", "Steady Presence", ally_zone="Near")
    state = free.encounter.state("Mar")
    assert not state.action_used and state.steward_used
    assert "free once a scene" in free.trace[0].text
    # The Action is still there, so the ordinary support action can follow.
    paid = tsl.take(free.encounter, "Mar", "Steady the Spirit", ally_zone="Engaged")
    assert paid.encounter.state("Mar").action_used
    # A turn later, and a round later, the perk is still spent this scene.
    later = tsl.next_turn(tsl.next_turn(paid.encounter))
    assert later.acting == "Mar" and later.state("Mar").steward_used
    with pytest.raises(RulesError, match="free once a scene, already used this scene"):
        tsl.take(later, "Mar", "Steady Presence", ally_zone="Near")
    with pytest.raises(RulesError, match="ally_zone must be Engaged or Near"):
        tsl.take(enc, "Mar", "Steady Presence", ally_zone="Far")
    # A new scene (a new encounter) gives it back; a saved board keeps it.
    saved = tsl.encounter_from_dict(tsl.encounter_to_dict(later))
    assert saved.state("Mar").steward_used
    assert not tsl.new_encounter(["Mar", "Ko"]).state("Mar").steward_used


def test_grant_reroll_helper_pays_one_stress():
    """§11 Support Actions: the ally's next failed roll may be rerolled, and the 1 Stress is
    paid from the helper's relevant pool, not the ally's."""
    paid = tsl.grant_reroll(tsl.new_pools(), "failure", "Hand")
    assert (paid.pool, paid.stress, paid.after) == ("Body", 1, 1)
    assert tsl.grant_reroll(tsl.new_pools(), "catastrophic", "Voice").pool == "Mind"
    assert tsl.grant_reroll(tsl.new_pools(spirit=3), "failure", "Spirit").breaks
    with pytest.raises(RulesError, match="band must be a failed roll"):
        tsl.grant_reroll(tsl.new_pools(), "mixed", "Hand")
    with pytest.raises(RulesError, match="domain must be one of"):
        tsl.grant_reroll(tsl.new_pools(), "failure", "Luck")
    # The reroll itself: the same roll again with new dice (here a miss becomes Vela's 16).
    first = tsl.static_roll([2, 2, 1, 1, 1], "Proficient", 11)
    again = tsl.static_roll(VELA_DICE, "Proficient", 11)
    assert (first.band, again.band) == ("failure", "success")


# --- Spirit abilities (§11 A Worked Example) ---------------------------------------------------

def test_spirit_ability_marks_spirit_stress_without_a_roll():
    """§11 A Worked Example: Sense the Local Reality is a Spirit ability costing 2 Spirit
    Stress; Ko marks 2 bubbles on his Spirit pool and rolls nothing."""
    ko = tsl.spirit_ability(tsl.new_pools())
    assert (ko.pool, ko.stress, ko.after, ko.breaks) == ("Spirit", 2, 2, False)
    assert "no roll" in ko.trace[0].text
    assert tsl.spirit_ability(tsl.new_pools(spirit=2), "Sense the Local Reality").breaks
    other = tsl.spirit_ability(tsl.new_pools(), "Bend the Path", cost=3)
    assert other.after == 3
    with pytest.raises(RulesError, match="cost is needed for"):
        tsl.spirit_ability(tsl.new_pools(), "Bend the Path")
    with pytest.raises(RulesError, match="cost of Sense the Local Reality must be 2"):
        tsl.spirit_ability(tsl.new_pools(), cost=1)


def test_ground_a_pathwalker_costs_one_spirit_stress():
    """§11 Support Actions: Ground a Path-walker costs an Action and 1 Spirit Stress."""
    spent = tsl.spend(tsl.TurnState(), "Ground a Path-walker", ally_zone="Near")
    marked = tsl.take_stress(tsl.new_pools(), spent.stress_pool, spent.value)
    assert (marked.pool, marked.after) == ("Spirit", 1)


# --- What Positioning and Utility tags do (§11 Tags) ------------------------------------------

def test_reach_strikes_first_when_someone_closes():
    """§11 Tags: Reach strikes into Engaged from Near and hits first when someone closes."""
    pike = tsl.make_weapon("Melee", ["Reach"])
    first = tsl.reach_first_strike(pike, "Far", "Near")
    assert first.strikes_first and first.uses == ("reaction",)
    assert tsl.reach_first_strike(pike, "Near", "Engaged").strikes_first
    assert not tsl.reach_first_strike(pike, "Distant", "Far").strikes_first   # still outside
    assert not tsl.reach_first_strike(pike, "Engaged", "Near").strikes_first  # moving away
    sword = tsl.make_weapon("Melee", ["Dueling"])
    assert not tsl.reach_first_strike(sword, "Near", "Engaged").strikes_first
    # The first strike is the wielder's Reaction (ruling reach_first_strike): once a round.
    spent = tsl.reach_first_strike(pike, "Far", "Near", reaction_used=True)
    assert not spent.strikes_first and "Reaction is already spent" in spent.explain()


def test_snaring_pulls_or_pins_on_a_hit():
    """§11 Tags: Snaring, on a hit, pulls or pins the target a zone."""
    net = tsl.make_weapon("Thrown", ["Snaring"])
    pulled = tsl.snare(net, "mixed", "Near")
    assert (pulled.outcome, pulled.distance, pulled.pinned) == ("pulled", "Engaged", False)
    pinned = tsl.snare(net, "success", "Near", "pin")
    assert (pinned.outcome, pinned.distance, pinned.pinned) == ("pinned", "Near", True)
    assert tsl.snare(net, "failure", "Near").outcome == "no hit"
    with pytest.raises(RulesError, match="how must be pin when the target is already Engaged"):
        tsl.snare(net, "success", "Engaged")
    with pytest.raises(RulesError, match="weapon must have the Snaring tag"):
        tsl.snare(tsl.make_weapon("Melee", ["Reach"]), "success", "Near")
    # Through the attack: Vela's 16 against T11 with a net thrown Near pulls the target in;
    # a miss (1+1+1+1 = 4) leaves them where they are.
    hit = tsl.attack(VELA_DICE, "Proficient", target=11, weapon=net, distance="Near",
                     snaring="pull")
    assert (hit.band, hit.snared.outcome, hit.snared.distance) == ("success", "pulled", "Engaged")
    miss = tsl.attack([1, 1, 1, 1, 1], "Proficient", target=11, weapon=net, distance="Near",
                      snaring="pin")
    assert miss.snared.outcome == "no hit" and not miss.snared.pinned
    with pytest.raises(RulesError, match="snaring needs a weapon with the Snaring tag"):
        tsl.attack(VELA_DICE, "Proficient", target=11, snaring="pull")
    with pytest.raises(RulesError, match=r"snaring must be pin \(hold them where they are\) when the target is already Engaged"):
        tsl.attack(VELA_DICE, "Proficient", target=11, weapon=net, snaring="pull")
    # the odds refuse the same choice, so a tool says it before any roll; a pin or a pull
    # from Near leaves the odds as they are without snaring (where the target ends up is no
    # part of the roll)
    with pytest.raises(RulesError, match=r"snaring must be pin .* already Engaged"):
        tsl.attack_odds("Proficient", target=11, weapon=net, snaring="pull")
    with pytest.raises(RulesError, match="snaring needs a weapon with the Snaring tag"):
        tsl.attack_odds("Proficient", target=11, snaring="pin")
    plain = tsl.attack_odds("Proficient", target=11, weapon=net, distance="Near")
    assert tsl.attack_odds("Proficient", target=11, weapon=net, distance="Near",
                           snaring="pull") == plain
    assert tsl.attack_odds("Proficient", target=11, weapon=net, snaring="pin") == \
        tsl.attack_odds("Proficient", target=11, weapon=net)


def test_utility_tag_gives_one_effective_tier_on_its_roll():
    """§11 Tags: a Utility tag is +1 Effective Tier on a specific kind of roll (Wayfinder's
    Chain, retracing a walked path): a Trained roller then keeps 4 dice, as Proficient."""
    edge = tsl.utility_edge("Wayfinder's Chain", applies=True)
    assert edge.value == 1
    assert tsl.keep_count("Trained", edge.value) == 4
    assert tsl.static_roll([6, 5, 4, 3, 1], "Trained", 14, shift=edge.value).total == 18
    assert tsl.utility_edge("Wayfinder's Chain", applies=False).value == 0
    with pytest.raises(RulesError, match="tag must be a Utility tag"):
        tsl.utility_edge("Piercing", applies=True)


# --- A support action and the Stress it moves (§11 Support Actions) ---------------------------

def test_support_ground_a_path_walker_marks_its_spirit_cost():
    done = tsl.support("Ground a Path-walker", tsl.new_pools(spirit=3), ally_zone="Near")
    assert (done.value, done.uses, done.pool, done.helper.stress("Spirit"), done.breaks) == \
        (1, ("action",), "Spirit", 4, True)
    assert done.ally is None
    assert done.value == tsl.spend(tsl.TurnState(), "Ground a Path-walker",
                                   ally_zone="Near").value


def test_support_grant_reroll_and_steady_match_their_own_rules():
    helper = tsl.new_pools(body=3)
    reroll = tsl.support("Grant Reroll", helper, ally_zone="Engaged", band="failure",
                         domain="Hand")
    alone = tsl.grant_reroll(helper, "failure", "Hand")
    assert (reroll.helper, reroll.breaks) == (alone.pools, alone.breaks)
    steady = tsl.support("Steady Presence", tsl.new_pools(), ally_zone="Near",
                         ally=tsl.new_pools(mind=3))
    moved = tsl.steady_the_spirit(tsl.new_pools(), tsl.new_pools(mind=3))
    assert (steady.helper, steady.ally, steady.uses) == (moved.helper, moved.ally, ("steward",))


def test_support_without_stress_only_spends():
    done = tsl.support("Draw Aggro", tsl.new_pools())
    assert (done.value, done.uses, done.helper) == (0, ("action", "movement"), tsl.new_pools())


@pytest.mark.parametrize("kwargs, message", [
    ({"option": "Movement"}, "option must be one of 'Grant Reroll'"),
    ({"option": "Grant Reroll", "ally_zone": "Far", "band": "failure", "domain": "Hand"},
     "ally_zone must be Engaged or Near for Grant Reroll, got Far"),
    ({"option": "Grant Reroll", "ally_zone": "Near"}, "band is needed for Grant Reroll"),
    ({"option": "Steady the Spirit", "ally_zone": "Near"}, "ally is needed for Steady the"),
    ({"option": "Draw Aggro", "band": "failure"}, "band must be None for Draw Aggro"),
])
def test_support_refuses_what_does_not_fit(kwargs, message):
    with pytest.raises(RulesError, match=message):
        tsl.support(helper=tsl.new_pools(), **kwargs)


def test_what_each_support_action_reads():
    """§11 Support Actions: Grant Reroll pays for an ally's failed roll (so it needs that roll's
    band and domain), Steady the Spirit and the Steward's Steady Presence take Mind Stress off
    the ally (so they need the ally's pools); the others only spend and check reach."""
    needs = {o: tsl.support_needs(o) for o in tsl.support_options()}
    assert needs == {"Grant Reroll": ("band", "domain"), "Draw Aggro": (),
                     "Tactical Assist": (), "Soak the Hit": (), "Steady the Spirit": ("ally",),
                     "Ground a Path-walker": (), "Steady Presence": ("ally",)}
    with pytest.raises(RulesError, match="option must be one of"):
        tsl.support_needs("Heal")
    with pytest.raises(RulesError, match="band must be None for Draw Aggro"):
        tsl.support("Draw Aggro", tsl.new_pools(), ally_zone="Near", band="failure")
