"""Property tests: every public range-band function returns its type or a RulesError that names
the bad parameter."""

from hypothesis import given, settings, strategies as st

from rulescore import RulesError
from rulescore.systems import range_bands as rb

SETTINGS = settings(deadline=None, max_examples=60)
BAND = st.sampled_from(rb.BAND_IDS + ("nowhere",))
ANY = st.one_of(st.integers(-3, 40), st.text(max_size=3), st.none(), st.booleans())
DICE = st.lists(st.integers(-1, 8), max_size=6)


def expect_error(exc, *names):
    assert isinstance(exc, RulesError)
    assert any(n in str(exc) for n in names), str(exc)


@SETTINGS
@given(BAND, st.lists(st.sampled_from(rb.BAND_IDS), min_size=0, max_size=3),
       st.sampled_from(["none", "light", "medium", "heavy", "wall"]), st.booleans(),
       st.booleans(), st.integers(-2, 6), st.integers(-7, 7))
def test_shot_difficulty_type_or_named_error(target, optimal, cover, snap, called, rounds, gm):
    try:
        r = rb.shot_difficulty(target, optimal, cover, snap, called, aim_rounds=rounds,
                               gm_dice=gm)
    except RulesError as exc:
        expect_error(exc, "band", "optimal_bands", "cover", "snapshot", "aim_rounds", "gm_dice",
                     "target_band")
        return
    assert isinstance(r, rb.ShotDifficulty) and isinstance(r.value, int) and r.value >= 1
    assert r.outcome == f"{r.value}D"


@SETTINGS
@given(DICE, st.integers(-1, 6), DICE, st.integers(-40, 40),
       st.sampled_from(["opposed", "average", "other"]))
def test_check_type_or_named_error(skill, difficulty, diff_dice, bonus, rule):
    try:
        r = rb.check(skill, difficulty, diff_dice, bonus, nd_rule=rule)
    except RulesError as exc:
        expect_error(exc, "skill_dice", "difficulty", "difficulty_dice", "roll_bonus", "nd_rule")
        return
    assert isinstance(r, rb.CheckResult) and r.margin == r.value - r.target
    assert r.success == (r.margin >= 0)


@SETTINGS
@given(BAND, st.sampled_from(["closer", "away", "sideways"]),
       st.sampled_from(["easy", "difficult", "hard", "very_hard", "lava"]), DICE, DICE,
       st.booleans())
def test_dash_type_or_named_error(start, direction, terrain, skill, diff, wounded):
    try:
        r = rb.dash(start, direction, terrain, skill, diff, seriously_wounded=wounded)
    except RulesError as exc:
        expect_error(exc, "band", "direction", "terrain", "skill_dice", "difficulty_dice")
        return
    assert isinstance(r, rb.MoveResult) and 0 <= r.value <= 2 and r.actions == 2


@SETTINGS
@given(BAND, st.sampled_from(["closer", "away", "x"]),
       st.sampled_from(["hard", "very_hard", "dramatic", "easy"]), DICE, DICE)
def test_impassable_type_or_named_error(start, direction, terrain, skill, diff):
    try:
        r = rb.cross_impassable(start, direction, terrain, skill, diff)
    except RulesError as exc:
        expect_error(exc, "band", "direction", "terrain", "skill_dice", "difficulty_dice")
        return
    assert isinstance(r, rb.MoveResult) and r.value in (0, 1)


@SETTINGS
@given(BAND, st.sampled_from(["closer", "away", "x"]))
def test_move_type_or_named_error(start, direction):
    try:
        r = rb.move(start, direction)
    except RulesError as exc:
        expect_error(exc, "band", "direction")
        return
    assert isinstance(r, rb.MoveResult) and r.value in (0, 1)


@SETTINGS
@given(DICE, DICE, st.sampled_from(["none", "light", "heavy", "x"]), DICE,
       st.sampled_from(list(rb.MOVEMENT) + ["fly"]), st.integers(-1, 3))
def test_stealth_type_or_named_error(own, seen, cover, cover_dice, movement, streak):
    try:
        r = rb.stealth(own, seen, cover, cover_dice=cover_dice, movement=movement,
                       streak=streak)
    except RulesError as exc:
        expect_error(exc, "stealth_dice", "perception_dice", "cover", "movement", "streak")
        return
    assert isinstance(r, rb.StealthResult) and r.unaware == (r.streak >= 2)


@SETTINGS
@given(st.sampled_from(["bow", "firearm", "crossbow", "other", "rock"]), st.integers(-1, 8),
       DICE, DICE)
def test_quick_load_type_or_named_error(weapon, reload_time, skill, diff):
    try:
        r = rb.quick_load(weapon, reload_time, skill, diff)
    except RulesError as exc:
        expect_error(exc, "weapon", "reload_time", "skill_dice", "difficulty_dice")
        return
    assert isinstance(r, rb.QuickLoadResult) and 0 <= r.value <= reload_time


@SETTINGS
@given(st.integers(-20, 20), st.sampled_from(["single", "horseman", "close_contact", "crowd",
                                              "cover", "boat"]),
       st.sampled_from(["up_to", "exactly", "x"]))
def test_miss_effect_type_or_named_error(margin, situation, reading):
    try:
        r = rb.miss_effect(margin, situation, miss_reading=reading)
    except RulesError as exc:
        expect_error(exc, "situation", "miss_reading")
        return
    assert isinstance(r, rb.MissEffect) and r.value == max(0, -margin)


@SETTINGS
@given(ANY, ANY, ANY)
def test_odds_type_or_named_error(pool, difficulty, bonus):
    try:
        odds = rb.check_odds(pool, difficulty, bonus)
    except RulesError as exc:
        expect_error(exc, "skill_pool", "difficulty", "roll_bonus")
        return
    assert isinstance(odds, rb.Odds) and sum(odds.outcomes.values()) == 1


@SETTINGS
@given(ANY, st.sampled_from(["nearer", "farther", "x"]))
def test_band_for_distance_type_or_named_error(metres, edge):
    try:
        r = rb.band_for_distance(metres, edge=edge)
    except RulesError as exc:
        expect_error(exc, "metres", "edge")
        return
    assert r in rb.BAND_IDS


@SETTINGS
@given(st.dictionaries(st.sampled_from(["skill_dice", "difficulty_dice"]), st.integers(-1, 5)),
       st.one_of(st.none(), st.integers(0, 10 ** 6)), st.one_of(st.none(), DICE))
def test_roll_groups_type_or_named_error(counts, seed, dice):
    try:
        r = rb.roll_groups(counts, seed=seed, dice=dice)
    except RulesError as exc:
        expect_error(exc, "skill_dice", "difficulty_dice", "seed", "dice")
        return
    assert isinstance(r, rb.RolledDice)
    assert {k: len(v) for k, v in r.groups.items()} == counts


@SETTINGS
@given(BAND, st.sampled_from(list(rb.COMBAT_BANDS) + ["extreme"]),
       st.sampled_from(["none", "light", "x"]), ANY, ANY,
       st.sampled_from(["single", "crowd", "x"]), st.sampled_from(["opposed", "average", "x"]))
def test_plan_shot_type_or_named_error(target, optimal, cover, pool, bonus, situation, rule):
    try:
        plan = rb.plan_shot(target, optimal, cover, skill_pool=pool, roll_bonus=bonus,
                            situation=situation, nd_rule=rule)
    except RulesError as exc:
        expect_error(exc, "band", "optimal_bands", "cover", "skill_pool", "roll_bonus",
                     "situation", "nd_rule")
        return
    assert isinstance(plan, rb.ShotPlan) and sum(plan.odds.outcomes.values()) == 1


@SETTINGS
@given(st.sampled_from(["dash", "impassable", "x"]),
       st.sampled_from(["easy", "hard", "dramatic", "x"]), ANY, ANY)
def test_terrain_odds_type_or_named_error(kind, terrain, pool, bonus):
    try:
        odds = rb.terrain_odds(kind, terrain, pool, bonus)
    except RulesError as exc:
        expect_error(exc, "kind", "terrain", "skill_pool", "roll_bonus")
        return
    assert isinstance(odds, rb.Odds) and sum(odds.outcomes.values()) == 1


@SETTINGS
@given(st.sampled_from(["bow", "other", "x"]), ANY, ANY)
def test_quick_load_odds_type_or_named_error(weapon, pool, bonus):
    try:
        odds = rb.quick_load_odds(weapon, pool, bonus)
    except RulesError as exc:
        expect_error(exc, "weapon", "skill_pool", "roll_bonus")
        return
    assert isinstance(odds, rb.Odds) and sum(odds.outcomes.values()) == 1


@SETTINGS
@given(ANY, ANY, st.sampled_from(["none", "medium", "x"]),
       st.sampled_from(list(rb.MOVEMENT) + ["x"]), ANY)
def test_stealth_odds_type_or_named_error(own, seen, cover, movement, close):
    try:
        odds = rb.stealth_odds(own, seen, cover, movement=movement, close_contact=close)
    except RulesError as exc:
        expect_error(exc, "stealth_pool", "perception_pool", "cover", "movement",
                     "close_contact")
        return
    assert isinstance(odds, rb.Odds) and sum(odds.outcomes.values()) == 1


@SETTINGS
@given(st.sampled_from(["none", "heavy", "x"]), st.sampled_from(list(rb.MOVEMENT) + ["x"]), ANY)
def test_cover_modifier_type_or_named_error(cover, movement, close):
    try:
        r = rb.cover_modifier(cover, movement=movement, close_contact=close)
    except RulesError as exc:
        expect_error(exc, "cover", "movement", "close_contact")
        return
    assert isinstance(r, rb.CoverResult) and 0 <= r.value <= 3


@SETTINGS
@given(BAND, ANY, ANY, ANY)
def test_plain_lookups_type_or_named_error(target, long_weapon, heavy, hidden):
    for call, names, kind in ((lambda: rb.melee_reach(target, long_weapon),
                               ("band", "long_weapon"), bool),
                              (lambda: rb.line_of_sight(heavy), ("heavy_cover_bands",), bool),
                              (lambda: rb.can_target(hidden), ("hidden",), bool)):
        try:
            assert isinstance(call(), kind)
        except RulesError as exc:
            expect_error(exc, *names)


@SETTINGS
@given(DICE, DICE, st.integers(-40, 40), st.integers(-40, 40))
def test_opposed_and_extreme_type_or_named_error(first, second, a, b):
    for call, names in (
            (lambda: rb.opposed(first, second, a, b),
             ("active_dice", "passive_dice", "active_bonus", "passive_bonus")),
            (lambda: rb.extreme_engagement(first, second, a, b),
             ("first_dice", "second_dice", "first_bonus", "second_bonus"))):
        try:
            r = call()
        except RulesError as exc:
            expect_error(exc, *names)
            continue
        assert isinstance(r, rb.OpposedResult) and r.success == (r.margin >= 0)


def test_lookups_return_their_types():
    assert all(isinstance(t, rb.Terrain) for t in rb.terrains("dash") + rb.terrains("impassable"))
    assert all(isinstance(b, rb.Band) for b in rb.bands())
    assert rb.difficulty_dice_count(4) == 4 and rb.difficulty_dice_count(4, "average") == 0
    for bad, name in ((lambda: rb.terrains("swim"), "kind"),
                      (lambda: rb.difficulty_dice_count(4, "x"), "nd_rule"),
                      (lambda: rb.fixed_target(0), "difficulty"),
                      (lambda: rb.modifier("x"), "name")):
        try:
            bad()
        except RulesError as exc:
            expect_error(exc, name)
        else:
            raise AssertionError(f"{name} accepted a bad value")
