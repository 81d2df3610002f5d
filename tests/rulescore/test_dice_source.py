"""One dice source for every system: DiceSource.seeded (replayable) and DiceSource.typed (the
reader's dice, checked die by die), and every system's rollers reading from it."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulescore.dice import DiceSource, parse
from rulescore.errors import DiceError, DiceLimitError, RulesError
from rulescore.systems import exploding_d6 as x6
from rulescore.systems import percentile as pc
from rulescore.systems import range_bands as rb
from rulescore.systems import tsl
from rulescore.systems import veil_and_lead as vl

# --- the source itself ---------------------------------------------------------------------


def test_a_seed_replays_the_same_dice_as_random_random():
    rng = random.Random(7)
    assert DiceSource.seeded(7).dice(5, 6) == tuple(rng.randint(1, 6) for _ in range(5))
    assert DiceSource.seeded(7).dice(5, 6) == DiceSource.seeded(7).dice(5, 6)
    assert DiceSource.seeded(7).dice(5, 6) != DiceSource.seeded(8).dice(5, 6)


def test_replay_starts_the_same_dice_again():
    for source in (DiceSource.seeded(3), DiceSource.typed([1, 2, 3])):
        first = source.dice(3, 6)
        assert source.replay().dice(3, 6) == first


def test_describe_says_how_the_dice_were_made():
    assert DiceSource.seeded(7).describe() == "seed 7"
    assert DiceSource.typed([1, 2]).describe() == "your dice"
    assert DiceSource.typed([1], then=DiceSource.seeded(4)).describe() == \
        "your dice, then seed 4"
    assert DiceSource.from_rng(random.Random(1)).describe() == "the given generator"
    assert DiceSource.seeded(7).seed == 7 and DiceSource.typed([1]).seed is None


def test_typed_dice_running_out_name_the_die():
    source = DiceSource.typed([4])
    assert source.d(6, "impact die") == 4
    with pytest.raises(DiceError, match="not enough dice: Shock d100 needs a value "
                                        r"\(all 1 typed are used\)"):
        source.d(100, "Shock d100")


def test_a_typed_value_off_its_die_names_the_die():
    with pytest.raises(DiceError, match="Location Die must be from 1 to 10, got 11"):
        DiceSource.typed([11]).d(10, "Location Die")
    with pytest.raises(DiceError, match="die value 2 must be from 1 to 6, got 0"):
        DiceSource.typed([3, 0]).dice(2, 6)
    with pytest.raises(DiceError, match="die value 1 must be a whole number, got '4'"):
        DiceSource.typed(["4"]).d(6)


def test_leftover_typed_values_are_refused_when_the_caller_says_so():
    source = DiceSource.typed([1, 2, 3, 4])
    source.dice(2, 6)
    assert source.leftover() == (3, 4)
    with pytest.raises(DiceError, match=r"too many dice: this roll used 2 values, got 4 "
                                        r"\(extra: 3, 4\)"):
        source.finish()
    DiceSource.seeded(1).finish()  # a generator never has values left over


def test_typed_then_seeded_goes_on_from_the_seed():
    source = DiceSource.typed([6], then=DiceSource.seeded(5))
    rng = random.Random(5)
    assert source.dice(3, 6) == (6, rng.randint(1, 6), rng.randint(1, 6))
    assert source.has_next()
    assert not DiceSource.typed([]).has_next()


def test_an_exploding_chain_rolls_on_while_it_shows_its_top_face():
    source = DiceSource.typed([6, 6, 5, 2])
    assert source.chain(6) == (6, 6, 5)
    assert source.chain(6) == (2,)
    with pytest.raises(DiceError, match="not enough dice: d6 showed 6, so it explodes"):
        DiceSource.typed([6]).chain(6)
    with pytest.raises(DiceLimitError, match="exploded 100 times"):
        DiceSource.typed([6] * 200).chain(6)


def test_bad_sources_are_refused_naming_the_input():
    with pytest.raises(RulesError, match="seed must be a whole number, got 1.5"):
        DiceSource.seeded(1.5)
    with pytest.raises(DiceError, match="dice must be a list of numbers, got '12'"):
        DiceSource.typed("12")
    with pytest.raises(RulesError, match="rng must be a random.Random, got int"):
        DiceSource.from_rng(3)
    with pytest.raises(RulesError, match="dice must be a DiceSource or a seed"):
        DiceSource.from_seed_or_source("x")
    endless = DiceSource.typed(iter(int, 1), limit=20)  # an endless iterable is cut, not read
    assert len(endless.leftover()) == 20


# --- every system's rollers: seeded twice is the same, typed gives the worked example ------

def test_dice_notation_reads_a_source():
    """DESIGN §4: 6d8kh2+5 with the dice 2, 3, 5, 6, 7, 8 is 20."""
    assert parse("6d8kh2+5").roll(dice=DiceSource.typed([2, 3, 5, 6, 7, 8])).total == 20
    one, two = (parse("3d6!+1").roll(dice=DiceSource.seeded(9)) for _ in range(2))
    assert one == two and one.seed == 9
    assert parse("3d6").roll(dice=DiceSource.seeded(9)).faces() == \
        parse("3d6").roll(seed=9).faces()


def test_veil_and_lead_pools():
    """§VI The Complete Attack Example: 6d8 [2, 3, 5, 6, 7, 8], two highest 15, +5 = 20
    against TN 15: a hit by 5."""
    (faces,) = vl.roll_pools(DiceSource.typed([2, 3, 5, 6, 7, 8]), (6,))
    result = vl.check(faces, 15, roll_bonus=5)
    assert (result.value, result.margin, result.success) == (20, 5, True)
    assert vl.roll_pools(DiceSource.seeded(4), (3, 2)) == vl.roll_pools(DiceSource.seeded(4),
                                                                       (3, 2))
    assert vl.roll_pools(4, (3, 2)) == vl.roll_pools(DiceSource.seeded(4), (3, 2))


def test_tsl_rolls():
    """The worked example: Vela rolls 5d6 and keeps 4 (Proficient): 16 against T11."""
    faces = tsl.roll_dice(DiceSource.typed([6, 4, 3, 3, 1]))
    result = tsl.static_roll(faces, "Proficient", 11)
    assert (result.value, result.band) == (16, "success")
    assert tsl.roll_pair(DiceSource.seeded(11)) == tsl.roll_pair(DiceSource.seeded(11))
    assert tsl.roll_pair(DiceSource.typed([1, 2, 3, 4, 5, 6, 5, 4, 3, 2])) == \
        ((1, 2, 3, 4, 5), (6, 5, 4, 3, 2))


def test_exploding_d6_rolls():
    """A compounding die's total is its chain: 6 + 6 + 5 = 17 (a critical on 11+); with cover
    one cover die follows for the one hit."""
    rolled = x6.roll_attack(DiceSource.typed([6, 6, 5, 3, 2, 4]), 3, cover=5)
    assert rolled.chains == ((6, 6, 5), (3,), (2,)) and rolled.totals == (17, 3, 2)
    assert rolled.plain == (4,) and rolled.seed is None
    assert x6.roll_attack(DiceSource.seeded(7), 6, cover=5) == x6.roll_attack(7, 6, cover=5)
    throw = x6.roll_throw(DiceSource.typed([6, 1, 2, 9, 3]), 2)
    assert (throw.chains, throw.clock, throw.metres) == (((6, 1), (2,)), 9, 3)
    assert x6.roll_dice(DiceSource.seeded(2), 3, 1) == x6.roll_dice(DiceSource.seeded(2), 3, 1)
    with pytest.raises(DiceError, match="not enough dice: exploding die 1 showed 6"):
        x6.roll_dice(DiceSource.typed([6]), 1)


def test_range_bands_groups():
    """Skill 5 + 3 = 8 against the 2D difficulty's 4 + 1 = 5: a success by 3."""
    counts = {"skill_dice": 2, "difficulty_dice": 2}
    rolled = rb.roll_groups(counts, dice=DiceSource.typed([5, 3, 4, 1]))
    assert rolled.groups == {"skill_dice": (5, 3), "difficulty_dice": (4, 1)}
    check = rb.check(rolled.groups["skill_dice"], 2, rolled.groups["difficulty_dice"])
    assert (check.margin, check.success) == (3, True)
    seeded = rb.roll_groups(counts, dice=DiceSource.seeded(3))
    assert seeded == rb.roll_groups(counts, dice=DiceSource.seeded(3))
    assert seeded.groups == rb.roll_groups(counts, seed=3).groups
    with pytest.raises(DiceError, match="dice: die 4 must be from 1 to 6, got 9"):
        rb.roll_groups(counts, dice=DiceSource.typed([5, 3, 4, 9]))


SWORD = dict(zone_die=6, aim_zone=4, impact_die=10, impact_modifier=3, strength_modifier=1,
             armour=4, shock_eml=65)


def test_percentile_walkers():
    """Injury 1-4 examples: Zone Die 2 at ZN4 → abdomen (Location Die 7); 8 + 3 + 1 − 4 = 8
    impact: S2E; Shock 75 against 65 is CF: SHK 8, Incapacitated."""
    walk = pc.injury_sequence(**SWORD, dice=DiceSource.typed([2, 7, 8, 75]))
    assert walk.outcome == "Abdomen: S2E injury; shock 8 → INC"
    assert walk.rolled == pc.injury_sequence(**SWORD, dice=[2, 7, 8, 75]).rolled
    one, two = (pc.injury_sequence(**SWORD, reroll=True, dice=DiceSource.seeded(12))
                for _ in range(2))
    assert one == two and one.needs is None
    shot = [pc.missile_shot(75, 30, 60, dice=DiceSource.seeded(5)) for _ in range(2)]
    assert shot[0] == shot[1]
    treated = pc.treatment_roll(40, 60, "Edge", "S2")
    record = pc.InjuryRecord("Ana", healing_base=13).add_injury("Abdomen", "Edge", 2).treat(
        0, treated)
    healed = [pc.recover(record, dice=DiceSource.seeded(8), until_day=20) for _ in range(2)]
    assert healed[0] == healed[1]


def test_a_typed_source_stops_a_walk_where_its_dice_end():
    walk = pc.injury_sequence(**SWORD, dice=DiceSource.typed([2, 7]))
    assert walk.needs == "impact d10"
    with pytest.raises(RulesError, match="dice: 1 more typed than this injury sequence uses"):
        pc.injury_sequence(**SWORD, dice=DiceSource.typed([2, 7, 8, 75, 1]))
    with pytest.raises(DiceError, match=r"dice: Location Die 1 \(d10\) must be from 1 to 10, got 11"):
        pc.injury_sequence(**SWORD, dice=DiceSource.typed([2, 11]))


@pytest.mark.parametrize("seed", range(40))
def test_the_injury_sequence_walks_a_blow_as_the_blow_walker_did(seed):
    """What the blow walker ran by hand (locate, impact, injury, shock from four seeded dice)
    is one injury_sequence call with the same seed (when no amputation test comes due)."""
    zone_die, aim, imp_die, modifier, armour, aspect, shock_eml = 6, 1, 10, 3, 0, "E", 65
    rng = random.Random(seed)
    zone, loc, imp, shock_roll = (rng.randint(1, n) for n in (zone_die, 10, imp_die, 100))
    located = pc.locate_strike([zone], [loc], aim)
    walk = pc.injury_sequence(zone_die=zone_die, aim_zone=aim, impact_die=imp_die,
                              impact_modifier=modifier, aspect=aspect, armour=armour,
                              shock_eml=shock_eml, dice=DiceSource.seeded(seed))
    assert walk.location.outcome == located.outcome
    if located.outcome == "miss":
        assert walk.impact is None
        return
    blow = pc.impact(imp, modifier, armour, aspect=aspect)
    hurt = pc.injury(blow.value, aspect, located.outcome)
    assert (walk.impact.value, walk.injury.injury) == (blow.value, hurt.injury)
    if (hurt.injury is None and not hurt.glancing) or hurt.amputation_test:
        return
    shk = pc.shock(pc.location_shock(located.outcome), hurt.injury_shock, shock_roll,
                   shock_eml, bonus=hurt.shock_bonus)
    assert (walk.shock.shk, walk.state) == (shk.shk, shk.state)
    assert [v for _, v in walk.rolled] == [zone, loc, imp, shock_roll]


# --- typed dice either resolve or are refused ------------------------------------------------

def test_roll_pools_names_a_missing_die_by_its_fighter():
    """§II: each fighter rolls their own pool; a short typed list names whose die is missing."""
    with pytest.raises(RulesError, match=r"^not enough dice: Bo's die 2 needs a value "
                                         r"\(all 4 typed are used\)$"):
        vl.roll_pools(DiceSource.typed([8, 7, 1, 3]), (3, 2), names=["Ada", "Bo"])
    assert vl.roll_pools(DiceSource.typed([8, 7, 1, 3, 2]), (3, 2), names=["Ada", "Bo"]) == (
        (8, 7, 1), (3, 2))
    with pytest.raises(RulesError, match=r"^names must name each of the 2 pools, got 1$"):
        vl.roll_pools(DiceSource.typed([8, 7, 1, 3, 2]), (3, 2), names=["Ada"])
    with pytest.raises(RulesError, match=r"^names: name 2 must be a non-empty text, got 7$"):
        vl.roll_pools(DiceSource.typed([8, 7, 1, 3, 2]), (3, 2), names=["Ada", 7])


faces = st.lists(st.integers(min_value=-3, max_value=120), max_size=14)


@settings(max_examples=60, deadline=None)
@given(faces)
def test_typed_dice_resolve_or_raise_a_rules_error(values):
    calls = (
        lambda: parse("3d6!kh2").roll(dice=DiceSource.typed(values)),
        lambda: vl.roll_pools(DiceSource.typed(values), (2, 3)),
        lambda: tsl.roll_pair(DiceSource.typed(values)),
        lambda: x6.roll_attack(DiceSource.typed(values), 3, cover=5),
        lambda: x6.roll_throw(DiceSource.typed(values), 2),
        lambda: rb.roll_groups({"skill_dice": 2, "difficulty_dice": 3},
                               dice=DiceSource.typed(values)),
        lambda: pc.injury_sequence(**SWORD, reroll=True, dice=DiceSource.typed(values)),
        lambda: pc.missile_shot(75, 30, 60, dice=DiceSource.typed(values)),
    )
    for call in calls:
        try:
            call()
        except RulesError:
            pass


# --- results a tool judges say whether they succeeded ---------------------------------------

def test_range_band_results_say_success():
    hit = rb.shot(2, [6, 6], [1, 1])
    assert hit.success is hit.hit is True
    hidden = rb.stealth([6, 6], [1, 1])
    assert hidden.success is hidden.hidden is True
    seen = rb.stealth([1, 1], [6, 6])
    assert seen.success is seen.hidden is False
    loaded = rb.quick_load("crossbow", 3, [5, 5, 4], [3, 3, 3, 3])
    assert loaded.success is loaded.check.success
    easy = rb.move("distant", "closer")
    assert easy.check is None and easy.success is True


# -- typed zeros, and every resolving function drawing from a DiceSource -----------------------

def test_a_typed_zero_on_a_d10_or_a_d100_reads_its_top_face():
    src = DiceSource.typed([0, 0, 7])
    assert (src.d(10), src.d(100), src.d(10)) == (10, 100, 7)
    with pytest.raises(DiceError, match="must be from 1 to 6, got 0"):
        DiceSource.typed([0]).d(6)


def _same(with_dice, with_values):
    """A call drawing from a DiceSource and the same call given the values it drew agree,
    apart from the drawing step leading the first's trace."""
    drawn, given = with_dice(), with_values()
    assert (drawn.value, drawn.outcome) == (given.value, given.outcome)
    assert drawn.trace[-len(given.trace):] == given.trace


def test_range_bands_resolving_functions_draw_from_dice():
    typed = [6, 5, 4, 1, 2]  # three for the character, then two for the difficulty
    _same(lambda: rb.check(3, 2, dice=DiceSource.typed(typed)),
          lambda: rb.check([6, 5, 4], 2, [1, 2]))
    _same(lambda: rb.shot(2, 3, dice=DiceSource.typed(typed)),
          lambda: rb.shot(2, [6, 5, 4], [1, 2]))
    _same(lambda: rb.stealth(2, 2, "light", dice=DiceSource.typed([6, 5, 4, 1, 2])),
          lambda: rb.stealth([6, 5], [1, 2], "light", cover_dice=[4]))
    _same(lambda: rb.extreme_engagement(1, 2, dice=DiceSource.typed([4, 1, 2])),
          lambda: rb.extreme_engagement([4], [1, 2]))
    seeded = rb.quick_load("bow", 3, 4, dice=DiceSource.seeded(7))
    assert seeded == rb.quick_load("bow", 3, 4, dice=DiceSource.seeded(7))
    with pytest.raises(RulesError, match="skill_dice and dice are both given"):
        rb.check([6, 5], 2, dice=DiceSource.seeded(1))
    with pytest.raises(RulesError, match="difficulty_dice and dice are both given"):
        rb.dash("distant", "closer", "hard", 3, [1, 1, 1, 1], dice=DiceSource.seeded(1))
    with pytest.raises(RulesError, match=r"dice: type 5 d6 .*got 6"):
        rb.check(3, 2, dice=DiceSource.typed(typed + [1]))


def test_tsl_resolving_functions_draw_from_dice():
    _same(lambda: tsl.static_roll(DiceSource.typed([6, 5, 4, 3, 2]), "Trained", 10),
          lambda: tsl.static_roll([6, 5, 4, 3, 2], "Trained", 10))
    faces = [6, 5, 4, 3, 2, 4, 4, 3, 2, 1]
    _same(lambda: tsl.attack(DiceSource.typed(faces), "Trained", defender_tier="Trained"),
          lambda: tsl.attack(faces[:5], "Trained", defender_dice=faces[5:],
                             defender_tier="Trained"))
    _same(lambda: tsl.opposed_roll(DiceSource.typed(faces), "Trained", None, "Trained"),
          lambda: tsl.opposed_roll(faces[:5], "Trained", faces[5:], "Trained"))
    with pytest.raises(RulesError, match="defender_dice and dice are both given"):
        tsl.opposed_roll(DiceSource.seeded(1), "Trained", faces[5:], "Trained")
    with pytest.raises(DiceError, match="too many dice"):
        tsl.static_roll(DiceSource.typed(faces), "Trained", 10)


def test_exploding_d6_resolving_functions_draw_from_dice():
    # The drawn dice's chains show in the first step ("6→4 = 10"); the rest is the same.
    def agree(drawn, given):
        assert (drawn.value, drawn.outcome) == (given.value, given.outcome)
        assert drawn.trace[1:] == given.trace[1:]

    hit = x6.hit_roll(3, dice=DiceSource.typed([6, 4, 2, 5]))
    assert hit.chains == ((6, 4), (2,), (5,))
    assert "6→4 = 10" in hit.trace[0].text
    agree(hit, x6.hit_roll([10, 2, 5]))
    attack = x6.resolve_attack(2, cover=5, dice=DiceSource.typed([5, 6, 6, 1, 2, 6]))
    assert attack.cover_faces == (2, 6)
    agree(attack, x6.resolve_attack([5, 13], cover=5, cover_faces=[2, 6]))
    thrown = x6.throw(2, 5, dice=DiceSource.typed([1, 2, 3, 4]))
    assert (thrown.chains, thrown.clock, thrown.metres) == (((1,), (2,)), 3, 4)
    agree(thrown, x6.throw([1, 2], 5, clock=3, metres=4))
    assert x6.throw(2, 5, dice=DiceSource.typed([5, 1])).hit  # a hit draws no deviation
    parried = x6.reaction("parry", DiceSource.typed([5, 6, 1, 2]), 2, 0, pool=3)
    assert parried.chains == ((5,), (6, 1), (2,))
    agree(parried, x6.reaction("parry", [5, 7, 2], 2, 0))
    people = [("A", 2, 1), ("B", 1, 3)]
    order = x6.initiative_table(people, dice=DiceSource.typed([6, 2, 3, 4]))
    assert [r.chains for r in order.rolls] == [((6, 2), (3,)), ((4,),)]
    assert order.order == x6.initiative_table(people, [8, 3, 4]).order
    with pytest.raises(RulesError, match="dice_totals and dice are both given"):
        x6.hit_roll([5, 4], dice=DiceSource.seeded(1))
    with pytest.raises(RulesError, match="pool and dice are both given"):
        x6.reaction("parry", [5, 7], 2, pool=2)
    with pytest.raises(DiceError, match="too many dice"):
        x6.hit_roll(1, dice=DiceSource.typed([4, 4]))
