"""The range-band system's rules, section by section, with the seed's own examples."""

import shutil
from fractions import Fraction

import pytest

from rulescore import RulesError
from rulescore.dice import DiceSource
from rulescore.assumptions import load_assumptions
from rulescore.systems import range_bands as rb
from rulescore.systems.range_bands._system import DATA
from rulescore.trace import RuleRef

SYSTEM = "range_bands"


def sections(result):
    return {s.rule.section for s in result.trace}


# --- Combat ranges, close contact, range bands -------------------------------------------

def test_bands_in_order_from_data():
    names = [b.band for b in rb.bands()]
    assert names == list(rb.BAND_IDS)
    assert [b.step for b in rb.bands()] == [0, 1, 2, 3, 4, 5, 6]
    assert rb.band("very_close").metres == "0–30 m"
    assert rb.band("very_far").metres == "121–150 m"
    assert rb.band("extreme").metres == "151+ m"
    assert rb.band("close_contact").metres == "touching"
    with pytest.raises(RulesError, match="name must be a band, one of .*got 'medium'"):
        rb.band("medium")


def test_distance_to_band_and_edges():
    assert rb.band_for_distance(0) == "very_close"
    assert rb.band_for_distance(30) == "very_close"
    assert rb.band_for_distance(31) == "close"
    assert rb.band_for_distance(90) == "distant"
    assert rb.band_for_distance(150) == "very_far"
    assert rb.band_for_distance(151) == "extreme"
    assert rb.band_for_distance(30, edge="farther") == "close"
    assert rb.band_for_distance(150, edge="farther") == "extreme"
    assert rb.band_for_distance(45, edge="farther") == "close"
    assert rb.band_for_distance(2000, edge="farther") == "extreme"
    with pytest.raises(RulesError, match="metres must be from 0 to 100000, got -1"):
        rb.band_for_distance(-1)
    with pytest.raises(RulesError, match="edge must be one of"):
        rb.band_for_distance(30, edge="middle")


def test_entering_and_leaving_close_contact():
    into = rb.move("very_close", "closer")
    assert (into.end, into.value, into.actions) == ("close_contact", 1, 1)
    assert "into close contact" in into.explain()
    out = rb.move("close_contact", "away")
    assert (out.end, out.value) == ("very_close", 1)
    # a dash may use one of its two bands to enter close contact
    dash = rb.dash("close", "closer", "easy")
    assert (dash.end, dash.value, dash.actions) == ("close_contact", 2, 2)
    # nothing is closer than close contact
    stay = rb.move("close_contact", "closer")
    assert (stay.end, stay.value) == ("close_contact", 0)


def test_ordinary_move_one_band_one_action():
    r = rb.move("distant", "closer")
    assert (r.start, r.end, r.value, r.actions, r.outcome) == ("distant", "close", 1, 1, "close")
    assert r.keeps_cover and r.defense_pool and r.check is None
    assert RuleRef(SYSTEM, "Ordinary movement") in {s.rule for s in r.trace}
    away = rb.move("very_far", "away")
    assert away.end == "extreme" and "leaves combat phasing" in away.explain()
    with pytest.raises(RulesError, match="outside combat phasing"):
        rb.move("extreme", "closer")
    with pytest.raises(RulesError, match="direction must be one of 'closer', 'away', got 'up'"):
        rb.move("close", "up")


# --- Stealth -------------------------------------------------------------------------------

def test_stealth_streak_makes_unaware():
    first = rb.stealth([4, 4], [3, 3, 1])
    assert first.hidden and first.streak == 1 and not first.unaware
    assert first.outcome == "hidden" and first.margin == 1
    second = rb.stealth([5, 2], [3, 3], streak=first.streak)
    assert second.hidden and second.streak == 2 and second.unaware
    assert "unaware" in second.explain()
    # a failure breaks the streak
    seen = rb.stealth([1, 1], [6, 6], streak=1)
    assert (seen.hidden, seen.streak, seen.unaware, seen.outcome) == (False, 0, False, "seen")


def test_stealth_tie_goes_to_the_hider_and_cover_adds_dice():
    tie = rb.stealth([3, 3], [4, 2])
    assert tie.hidden and tie.margin == 0
    covered = rb.stealth([1, 1], [3, 3], "medium", cover_dice=[2, 2])
    assert covered.hidden and covered.margin == 0
    assert rb.stealth_dice_needed(2, 3, "heavy") == {"stealth_dice": 2, "cover_dice": 3,
                                                     "perception_dice": 3}
    with pytest.raises(RulesError, match="cover_dice must hold exactly 2 d6, got 0"):
        rb.stealth([1, 1], [3, 3], "medium")
    # no cover in close contact
    assert rb.stealth_dice_needed(2, 3, "heavy", close_contact=True)["cover_dice"] == 0


def test_stealth_while_dashing_is_impossible():
    r = rb.stealth([], [], "heavy", movement="dash")
    assert not r.hidden and r.outcome == "seen" and r.streak == 0
    assert "dashing" in r.explain()
    assert rb.stealth_odds(3, 3, "heavy", movement="dash").outcomes["hidden"] == 0


def test_no_stealth_while_crossing_impassable_terrain():
    """§Stealth: the check is made only while staying put or taking one move. §Impassable
    terrain: one band takes two move actions, so a character crossing it cannot hide, even in
    cover the GM rules the terrain gives. By hand: no dice are rolled, the character is seen
    (hidden with odds 0) and the streak starts again at 0; one move in light cover still rolls
    Stealth 3 d6 + 1 cover die against Perception 3 d6."""
    r = rb.stealth([], [], "light", movement="impassable", streak=1)
    assert (r.hidden, r.outcome, r.streak, r.unaware) == (False, "seen", 0, False)
    assert "two move actions" in r.explain()
    assert rb.stealth_odds(3, 3, "light", movement="impassable").outcomes == \
        {"hidden": 0, "seen": 1}
    assert rb.stealth_dice_needed(3, 3, "light", movement="impassable") == \
        {"stealth_dice": 0, "cover_dice": 0, "perception_dice": 0}
    assert rb.stealth_dice_needed(3, 3, "light", movement="move") == \
        {"stealth_dice": 3, "cover_dice": 1, "perception_dice": 3}
    moving = rb.stealth([4, 4, 4], [4, 4, 4], "light", cover_dice=[1], movement="move")
    assert moving.hidden and moving.margin == 1          # 12 + 1 = 13 against 12


def test_hidden_targets_only_by_area_fire():
    assert rb.can_target(False) and not rb.can_target(True)
    assert rb.can_target(True, area_fire=True)
    with pytest.raises(RulesError, match="only be targeted by area fire"):
        rb.shot_difficulty("close", "close", target_hidden=True)
    assert rb.shot_difficulty("close", "close", target_hidden=True, area_fire=True,
                              weapon="burst").value == 6


# --- Dashing -------------------------------------------------------------------------------

def test_dash_easy_terrain_no_check_two_bands():
    r = rb.dash("far", "closer", "easy")
    assert (r.value, r.end, r.actions, r.check) == (2, "close", 2, None)
    assert not r.keeps_cover and not r.defense_pool and r.bleeds == 0
    with pytest.raises(RulesError, match="skill_dice must be empty on easy terrain"):
        rb.dash("far", "closer", "easy", [3, 3])


def test_dash_success_on_hard_terrain():
    r = rb.dash("distant", "closer", "hard", [5, 5, 4], [3, 3, 3, 3])
    assert r.check.outcome == "success" and r.check.margin == 2
    assert (r.value, r.end, r.prone, r.damage_dice) == (2, "very_close", False, 0)


def test_dash_failure_and_critical_failure():
    fail = rb.dash("distant", "closer", "difficult", [2, 3], [3, 3, 3])
    assert fail.check.margin == -4 and fail.check.outcome == "failure"
    assert (fail.value, fail.end, fail.actions, fail.prone) == (1, "close", 2, False)
    crit = rb.dash("distant", "closer", "very_hard", [1, 1], [6, 6, 6, 6, 6])
    assert crit.check.outcome == "critical failure"
    assert (crit.value, crit.end, crit.prone, crit.damage_dice) == (0, "distant", True, 3)


def test_dash_wounded_bleeds():
    r = rb.dash("close", "away", "easy", seriously_wounded=True)
    assert r.bleeds == 1 and r.end == "far" and "bleed one wound" in r.explain()
    with pytest.raises(RulesError, match="seriously_wounded must be True or False"):
        rb.dash("close", "away", "easy", seriously_wounded="yes")


def test_dash_difficulties_and_fall_damage():
    assert [rb.dash_difficulty(t) for t in ("easy", "difficult", "hard", "very_hard")] == \
        [0, 3, 4, 5]
    # the seed's own example: 2D for 3D/4D terrain, 3D for 5D terrain
    falls = {}
    for terrain, skill, diff in (("difficult", [1], [6, 6, 6]), ("hard", [1], [6, 6, 6, 6]),
                                 ("very_hard", [1], [6, 6, 6, 6, 6])):
        falls[terrain] = rb.dash("close", "closer", terrain, skill, diff).damage_dice
    assert falls == {"difficult": 2, "hard": 2, "very_hard": 3}
    # the printed table agrees with the formula
    for row in DATA.table("bands", "dash_terrain"):
        assert row["fall_damage"] == -(-row["difficulty"] // 2)
    with pytest.raises(RulesError, match="terrain must be one of .*got 'lava'"):
        rb.dash_difficulty("lava")


def test_fall_damage_is_dice_to_add_up():
    """§Dashing: a critical failure on 5D ground deals half the difficulty, 3D; §Impassable
    terrain: a critical failure on dramatic (6D) ground deals the full 6D. Assumption
    fall_damage: nD of damage is n six-sided dice added up, so 3D is 3 to 18 and 6D 6 to 36."""
    fall = rb.dash("close", "closer", "very_hard", [1], [6, 6, 6, 6, 6])
    assert (fall.prone, fall.damage_dice) == (True, 3)
    assert "3D damage, 3 six-sided dice added up" in fall.explain()
    cliff = rb.cross_impassable("close", "closer", "dramatic", [1], [6, 6, 6, 6, 6, 6])
    assert (cliff.prone, cliff.damage_dice) == (True, 6)
    title = load_assumptions(SYSTEM)[[a.id for a in load_assumptions(SYSTEM)].index(
        "fall_damage")].title
    assert (f"6 six-sided dice added up  [range_bands §Impassable terrain; our ruling "
            f"“{title}”, in the rulings chapter]") in cliff.explain()
    assert {a.id for a in load_assumptions("range_bands")} >= {"dash_fall", "fall_damage"}


def test_fall_damage_odds_are_the_sum_of_the_dice():
    """Assumption fall_damage: a 3D fall (5D ground) deals 3 to 18, 10 and 11 each 27 ways in
    216 (1/8), 3 and 18 one way each; the odds and the roll read the same dice."""
    odds = rb.fall_damage_odds(3)
    assert (odds.min(), odds.max()) == (3, 18)
    assert odds.p(10) == odds.p(11) == Fraction(27, 216)
    assert odds.p(3) == odds.p(18) == Fraction(1, 216)
    assert sum(p for _, p in odds.items()) == 1
    assert rb.fall_damage(3, dice=DiceSource.typed([6, 5, 4])).value == 15
    for bad in (0, True, 31, "3"):
        with pytest.raises(RulesError, match="damage_dice must"):
            rb.fall_damage_odds(bad)


# --- Impassable terrain ----------------------------------------------------------------------

def test_impassable_terrain():
    ok = rb.cross_impassable("close", "closer", "hard", [6, 6, 2], [3, 3, 3, 3])
    assert (ok.value, ok.end, ok.actions, ok.bulk_penalties) == (1, "very_close", 2, True)
    stuck = rb.cross_impassable("close", "closer", "very_hard", [4, 4], [3, 3, 3, 3, 1])
    assert stuck.check.outcome == "failure"
    assert (stuck.value, stuck.end, stuck.actions, stuck.prone) == (0, "close", 2, False)
    fall = rb.cross_impassable("close", "closer", "dramatic", [1], [6, 6, 6, 6, 6, 6])
    assert (fall.prone, fall.damage_dice, fall.value) == (True, 6, 0)
    # the seed's examples: a cliff face exposes, barbed wire gives cover
    cliff = rb.cross_impassable("close", "closer", "hard", [6, 6, 6], [1, 1, 1, 1])
    wire = rb.cross_impassable("close", "closer", "hard", [6, 6, 6], [1, 1, 1, 1],
                               terrain_gives_cover=True)
    assert not cliff.keeps_cover and wire.keeps_cover
    with pytest.raises(RulesError, match="skill_dice must hold from 1"):
        rb.cross_impassable("close", "closer", "hard")


def test_impassable_difficulties():
    assert [rb.impassable_difficulty(t) for t in ("hard", "very_hard", "dramatic")] == [4, 5, 6]
    with pytest.raises(RulesError, match="terrain must be one of 'hard', 'very_hard', "
                                         "'dramatic', got 'easy'"):
        rb.impassable_difficulty("easy")


# --- Cover -----------------------------------------------------------------------------------

def test_cover_types():
    assert [rb.cover_dice(c) for c in ("none", "light", "medium", "heavy")] == [0, 1, 2, 3]
    with pytest.raises(RulesError, match="cover must be one of"):
        rb.cover_dice("total")


def test_cover_applies_only_when_slow():
    assert rb.cover_modifier("heavy").value == 3
    assert rb.cover_modifier("heavy", movement="move").value == 3
    dashing = rb.cover_modifier("heavy", movement="dash")
    assert (dashing.value, dashing.applies) == (0, False)
    assert "dashing" in dashing.explain()
    contact = rb.cover_modifier("medium", close_contact=True)
    assert (contact.value, contact.applies) == (0, False)
    assert rb.cover_modifier("light", movement="impassable").value == 1
    assert rb.shot_difficulty("close", "close", "heavy", target_movement="dash").value == 4
    assert rb.shot_difficulty("close", "close", "heavy", target_movement="move").value == 7


def test_line_of_sight_and_bulk():
    assert rb.line_of_sight(0) and rb.line_of_sight(1)
    assert not rb.line_of_sight(2)
    assert [rb.cover_modifier(c).bulk_penalties for c in ("none", "light", "medium", "heavy")] \
        == [False, False, True, True]
    with pytest.raises(RulesError, match="heavy_cover_bands must be from 0 to 6, got -1"):
        rb.line_of_sight(-1)


# --- Extreme range -------------------------------------------------------------------------

def test_extreme_engagement_winner_shoots():
    # the seed's example: two snipers hunting each other settle it with opposed checks
    r = rb.extreme_engagement([5, 4, 3], [6, 2, 1])
    assert (r.margin, r.outcome) == (3, "first side shoots")
    tie = rb.extreme_engagement([3, 3], [4, 2])
    assert tie.outcome == "first side shoots"
    lost = rb.extreme_engagement([1, 1], [4, 2], first_bonus=1)
    assert (lost.margin, lost.outcome) == (-3, "second side shoots")
    assert rb.shot_difficulty("extreme", ["very_far"]).value == 5
    assert rb.shot_difficulty("extreme", ["far"]).value == 6


# --- Ranged attacks ------------------------------------------------------------------------

def test_optimal_band_is_4d_plus_cover():
    assert rb.shot_difficulty("close", ["close"]).value == 4
    assert rb.shot_difficulty("distant", ["close", "distant"], "light").value == 5
    r = rb.shot_difficulty("far", "close", "medium")
    assert (r.value, r.bands_off, r.cover_dice, r.outcome) == (8, 2, 2, "8D")
    # +1D a band from the NEAREST optimal band
    assert rb.shot_difficulty("very_far", ["very_close", "far"]).value == 5
    assert rb.shot_difficulty("very_close", ["distant"]).value == 6
    assert RuleRef(SYSTEM, "Shooting difficulties") in {s.rule for s in r.trace}


def test_snapshot_called_shot_and_close_contact():
    aimed = rb.shot_difficulty("close", "close")
    snap = rb.shot_difficulty("close", "close", snapshot=True)
    called = rb.shot_difficulty("close", "close", called_shot=True)
    both = rb.shot_difficulty("close", "close", "light", snapshot=True, called_shot=True)
    assert (aimed.value, aimed.actions) == (4, 2)
    assert (snap.value, snap.actions) == (5, 1)
    assert called.value == 6 and both.value == 8
    cc = rb.shot_difficulty("close_contact", ["far"], "heavy")
    assert (cc.value, cc.cover_dice, cc.defense_pool) == (3, 0, "melee")
    assert rb.shot_difficulty("close_contact", "far", snapshot=True).value == 4
    assert rb.shot_difficulty("close", "close", target_movement="dash").defense_pool == "none"
    assert aimed.defense_pool == "ranged"


def test_shooting_difficulties_table():
    rows = {r["modifier"]: r["dice"] for r in DATA.table("shooting", "shot_modifiers")}
    assert (rows["close_contact"], rows["optimal"], rows["per_band"], rows["snapshot"],
            rows["extreme_very_far"], rows["extreme_far"]) == (3, 4, 1, 1, 5, 6)
    assert rb.modifier("called_shot") == 2 and rb.modifier("area_fire") == 2
    with pytest.raises(RulesError, match="needs a weapon whose optimal band is far or very far"):
        rb.shot_difficulty("extreme", ["distant"])
    assert rb.shot_difficulty("extreme", ["far", "very_far"]).value == 5


def test_shot_difficulty_bad_inputs_name_the_parameter():
    with pytest.raises(RulesError, match="optimal_bands must be one or two different bands"):
        rb.shot_difficulty("close", ["close", "close"])
    with pytest.raises(RulesError, match="optimal_bands must be one or two different bands"):
        rb.shot_difficulty("close", ["close", "far", "distant"])
    with pytest.raises(RulesError, match="optimal_bands must be chosen from .*got 'extreme'"):
        rb.shot_difficulty("close", ["extreme"])
    with pytest.raises(RulesError, match="snapshot is a shot without aiming"):
        rb.shot_difficulty("close", "close", snapshot=True, aim_action=True)
    with pytest.raises(RulesError, match="gm_dice must be from -5 to 5, got 9"):
        rb.shot_difficulty("close", "close", gm_dice=9)
    with pytest.raises(RulesError, match="weapon must be one of"):
        rb.shot_difficulty("close", "close", weapon="sling")
    with pytest.raises(RulesError, match="target_movement must be one of"):
        rb.shot_difficulty("close", "close", target_movement="crawl")


def test_aiming():
    aim = rb.shot_difficulty("close", "close", aim_action=True)
    assert (aim.value, aim.roll_bonus, aim.actions) == (4, 2, 3)
    # at least half a minute (three rounds) of aim: -1D, firearms and crossbows only
    assert rb.shot_difficulty("close", "close", aim_rounds=3).value == 3
    assert rb.shot_difficulty("close", "close", aim_rounds=3, weapon="crossbow").value == 3
    bow = rb.shot_difficulty("close", "close", aim_rounds=5, weapon="bow")
    assert bow.value == 4 and "only firearms and crossbows" in bow.explain()
    assert rb.shot_difficulty("close", "close", aim_rounds=2).value == 4
    # the aim action's +2 is added to the shooter's total
    hit = rb.shot(4, [3, 3, 3], [2, 2, 3, 3], aim.roll_bonus)
    assert hit.hit and hit.margin == 1


def test_gm_adjustment_and_floor():
    assert rb.shot_difficulty("close", "close", gm_dice=-2).value == 2
    floor = rb.shot_difficulty("close_contact", "close", aim_rounds=3, gm_dice=-5)
    assert floor.value == 1 and "never easier than 1D" in floor.explain()


def test_miss_effects():
    assert rb.miss_effect(-3, "horseman").outcome == "the shot hits the mount"
    assert rb.miss_effect(-1, "horseman").applies
    assert not rb.miss_effect(-4, "horseman").applies
    assert rb.miss_effect(-3, "close_contact").applies
    assert rb.miss_effect(-6, "crowd").outcome == "the shot hits a random target"
    assert not rb.miss_effect(-7, "crowd").applies
    assert not rb.miss_effect(-1, "single").applies
    # the seed's example: a shot at someone hiding in a crowd might hit a bystander
    assert "bystander" in rb.miss_effect(-5, "cover").outcome
    assert rb.miss_effect(2, "crowd").outcome == "hit"
    assert not rb.miss_effect(-2, "horseman", miss_reading="exactly").applies
    assert rb.miss_effect(-3, "horseman", miss_reading="exactly").applies
    with pytest.raises(RulesError, match="situation must be one of"):
        rb.miss_effect(-1, "ship")


def test_area_fire():
    d = rb.shot_difficulty("distant", "distant", "light", area_fire=True, weapon="burst")
    assert d.value == 7 and "Terror check" in d.explain()
    hit = rb.shot(7, [6, 6, 6, 6, 6], [4, 4, 4, 4, 4, 4, 4], area_fire=True)
    assert (hit.hit, hit.margin, hit.value, hit.outcome, hit.terror_check) == \
        (True, 2, 3, "area hit", True)
    miss = rb.shot(7, [1, 1], [4, 4, 4, 4, 4, 4, 4], area_fire=True)
    assert not miss.hit and not miss.terror_check


@pytest.mark.parametrize("weapon", ["bow", "crossbow", "firearm", "other"])
def test_area_fire_needs_a_weapon_that_rakes_a_band(weapon):
    """§Area fire: only burst weapons, explosives and other area weapons can make it. A bow
    (or a crossbow, a single-shot firearm, any other weapon) is refused, naming the weapon."""
    with pytest.raises(RulesError, match=r"weapon [a-z ]+ cannot use area fire: "
                                         "it needs a burst weapon, an explosive or another area "
                                         "weapon"):
        rb.shot_difficulty("distant", "distant", "light", area_fire=True, weapon=weapon)


@pytest.mark.parametrize("weapon", ["burst", "explosive", "area"])
def test_area_fire_with_burst_explosive_or_area_weapon(weapon):
    """§Area fire: +2D on top of the rest. By hand: distant target, distant optimal band, light
    cover: 4D + 1D = 5D, and area fire +2D = 7D, for each weapon that can rake a band."""
    d = rb.shot_difficulty("distant", "distant", "light", area_fire=True, weapon=weapon)
    assert d.value == 7


def test_shot_hit_miss_and_critical():
    crit = rb.shot(4, [6, 6, 6], [1, 2, 1, 2])
    assert (crit.outcome, crit.value) == ("critical hit", 12)
    miss = rb.shot(4, [2, 2], [2, 2, 2, 1], situation="horseman")
    assert miss.outcome == "miss: the shot hits the mount" and miss.miss.value == 3
    with pytest.raises(RulesError, match="difficulty_dice must hold exactly 4 d6, got 3"):
        rb.shot(4, [2, 2], [2, 2, 2])


# --- Quick loading -------------------------------------------------------------------------

def test_quick_loading_outcomes():
    assert rb.quick_load_skill("bow") == ("Archery", "Agility", 4)
    assert rb.quick_load_skill("firearm") == ("Firearms", "Agility", 4)
    assert rb.quick_load_skill("crossbow") == ("Crossbows", "Vigor", 4)
    ok = rb.quick_load("crossbow", 3, [5, 5, 4], [3, 3, 3, 3])
    assert (ok.outcome, ok.value, ok.loaded) == ("success", 2, True)
    waste = rb.quick_load("bow", 5, [3, 3, 3], [3, 3, 3, 3])
    assert (waste.outcome, waste.value, waste.loaded, waste.reliability_failure) == \
        ("failure", 3, False, False)
    foil = rb.quick_load("firearm", 4, [1, 1], [5, 5, 5, 5])
    assert (foil.outcome, foil.loaded, foil.reliability_failure) == \
        ("critical failure", False, True)
    now = rb.quick_load("firearm", 4, [6, 6, 6, 6], [3, 3, 3, 3])
    assert (now.outcome, now.value, now.loaded) == ("critical success", 0, True)
    with pytest.raises(RulesError, match="cannot be quick loaded"):
        rb.quick_load("other", 2, [3], [3, 3, 3, 3])
    with pytest.raises(RulesError, match="reload_time must be from 1 to 100, got 0"):
        rb.quick_load("bow", 0, [3], [3, 3, 3, 3])


# --- Melee -----------------------------------------------------------------------------------

def test_melee_reach():
    assert rb.melee_reach("close_contact")
    assert not rb.melee_reach("very_close")
    assert rb.melee_reach("very_close", long_weapon=True)
    assert not rb.melee_reach("close", long_weapon=True)


# --- Checks --------------------------------------------------------------------------------

def test_check_opposed_and_average_rules():
    r = rb.check([4, 4, 4], 3, [3, 3, 3])
    assert (r.value, r.target, r.margin, r.outcome) == (12, 9, 3, "success")
    avg = rb.check([4, 4, 4], 3, nd_rule="average")
    assert (avg.target, avg.margin, avg.outcome) == (11, 1, "success")
    assert rb.fixed_target(4) == 14 and rb.fixed_target(5) == 18
    assert rb.check([6, 6], 4, nd_rule="average").outcome == "failure"
    assert rb.check([1], 4, nd_rule="average").outcome == "critical failure"
    with pytest.raises(RulesError, match="difficulty_dice must be empty"):
        rb.check([4], 1, [3], nd_rule="average")
    with pytest.raises(RulesError, match="nd_rule must be one of 'opposed', 'average'"):
        rb.check([4], 1, [3], nd_rule="fixed")


def test_criticals_at_the_margin():
    assert rb.check([6, 6], 2, [3, 3]).outcome == "critical success"      # +6
    assert rb.check([6, 5], 2, [3, 3]).outcome == "success"               # +5
    assert rb.check([1, 1], 2, [4, 4]).outcome == "critical failure"      # -6
    assert rb.check([1, 2], 2, [4, 4]).outcome == "failure"               # -5
    assert rb.check([3, 3], 2, [3, 3]).outcome == "success"               # tie
    assert rb.check([6, 5], 2, [3, 3], critical_margin=5).outcome == "critical success"
    with pytest.raises(RulesError, match="critical_margin must be from 1 to 60, got 0"):
        rb.check([6, 5], 2, [3, 3], critical_margin=0)


def test_check_bad_dice_name_the_input():
    with pytest.raises(RulesError, match="skill_dice: die 2 must be a d6 face from 1 to 6, got 7"):
        rb.check([3, 7], 1, [3])
    with pytest.raises(RulesError, match="skill_dice must be a list of d6 faces"):
        rb.check("33", 1, [3])
    with pytest.raises(RulesError, match="difficulty must be from 1 to 24, got 0"):
        rb.check([3], 0, [])


def test_the_largest_legal_rolls_fit_the_dice_notation():
    """Every check of the chapter is a pool against a difficulty in dice, and Stealth a pool
    plus cover against a pool. By hand: the largest pool is 30 d6 and the hardest shot 21D, so
    a shot rolls at most 30 + 21 = 51 d6; Stealth at most 30 + 3 (heavy cover) + 30 = 63;
    roll_groups refuses more than 3 × 30 = 90, under the notation's 100 dice, so a seeded roll
    is never refused by the dice parser's limit."""
    from rulescore.dice import MAX_DICE
    from rulescore.systems.range_bands.checks import MAX_ROLLED
    assert MAX_ROLLED == 90 <= MAX_DICE
    # The hardest shot: very far target, very close optimal band (4D + 4 bands), heavy cover
    # +3D, snapshot +1D, called shot +2D, area fire +2D, the GM's +5D: 21D, against 30 d6.
    hardest = rb.plan_shot("very_far", "very_close", "heavy", True, True, skill_pool=30,
                           area_fire=True, weapon="burst", gm_dice=5)
    assert hardest.difficulty.value == 21
    check = hardest.odds.dice
    assert check == {"skill_dice": 30, "difficulty_dice": 21}
    rolled = rb.roll_groups(check, seed=3)
    assert rolled.value == 51
    shot = rb.shot(21, rolled.groups["skill_dice"], rolled.groups["difficulty_dice"])
    assert shot.check.target == sum(rolled.groups["difficulty_dice"])
    hide = rb.stealth_dice_needed(30, 30, "heavy")
    assert sum(hide.values()) == 63
    widest = rb.roll_groups({"skill_dice": 30, "difficulty_dice": 30, "cover_dice": 30},
                            seed=5)
    assert widest.value == 90 and all(len(g) == 30 for g in widest.groups.values())
    with pytest.raises(RulesError, match="counts must add up to at most 90 d6, got 91"):
        rb.roll_groups({"skill_dice": 30, "difficulty_dice": 30, "cover_dice": 30,
                        "stealth_dice": 1}, seed=5)


def test_roll_groups_seed_replays_and_typed_dice_split():
    a = rb.roll_groups({"skill_dice": 3, "difficulty_dice": 4}, seed=11)
    b = rb.roll_groups({"skill_dice": 3, "difficulty_dice": 4}, seed=11)
    assert a.groups == b.groups and len(a.groups["skill_dice"]) == 3
    assert "seed 11" in a.explain()
    typed = rb.roll_groups({"skill_dice": 2, "difficulty_dice": 3}, dice=[6, 5, 1, 2, 3])
    assert typed.groups == {"skill_dice": (6, 5), "difficulty_dice": (1, 2, 3)}
    with pytest.raises(RulesError, match=r"dice: type 5 d6 \(2 for the character, then 3 for "
                                         r"the difficulty\), got 4"):
        rb.roll_groups({"skill_dice": 2, "difficulty_dice": 3}, dice=[6, 5, 1, 2])
    with pytest.raises(RulesError, match="exactly one of"):
        rb.roll_groups({"skill_dice": 2}, seed=1, dice=[1, 2])


# --- Tables are data -------------------------------------------------------------------------

def test_editing_a_table_changes_the_engine(tmp_path):
    for f in DATA.folder.glob("*.toml"):
        shutil.copy(f, tmp_path / f.name)
    text = (tmp_path / "shooting.toml").read_text()
    text = text.replace('modifier = "optimal"\nname = "Optimal band"\ndice = 4',
                        'modifier = "optimal"\nname = "Optimal band"\ndice = 5')
    (tmp_path / "shooting.toml").write_text(text)
    bands = (tmp_path / "bands.toml").read_text().replace(
        'cover = "light"\nname = "Light cover"\ndice = 1', 'cover = "light"\nname = "Light cover"\ndice = 2')
    (tmp_path / "bands.toml").write_text(bands)
    before = rb.shot_difficulty("close", "close", "light").value
    assert before == 5
    with DATA.using(tmp_path):
        assert rb.shot_difficulty("close", "close", "light").value == 7
    assert rb.shot_difficulty("close", "close", "light").value == 5


# --- Hostile input: each refused naming the input --------------------------------------

@pytest.mark.parametrize("call, message", [
    (lambda: rb.check([1, 2, 4], 1, difficulty_dice=1.5, nd_rule="average"),
     "difficulty_dice must be a list of d6 faces, got 1.5"),
    (lambda: rb.opposed([5, 1, 4], [2, 6, 2], passive=5), "passive must be text, got 5"),
    (lambda: rb.roll_groups(["skill"], seed=1), "counts must map group names"),
    (lambda: rb.roll_groups({1: 2}, seed=1), "counts: each group must be one of"),
    (lambda: rb.difficulty_dice_count(None), "difficulty must be a whole number, got None"),
    (lambda: rb.move("medium"), "start_band must be a band, one of"),
    (lambda: rb.melee_reach("medium"), "target_band must be a band, one of"),
    (lambda: rb.shot_difficulty("close", {"close": 1}), "optimal_bands must be one band or a list"),
    (lambda: rb.extreme_engagement([7], [1]), "first_dice: die 1 must be a d6 face"),
    (lambda: rb.can_target(False, area_fire=1), "area_fire must be True or False"),
    (lambda: rb.dash("close", difficulty_dice=False), "difficulty_dice must be a list"),
])
def test_hostile_input_is_refused_naming_the_input(call, message):
    with pytest.raises(RulesError, match=message):
        call()


def test_an_empty_label_reads_well():
    r = rb.opposed([5, 1, 4], [2, 6, 2], passive="")
    assert r.success
