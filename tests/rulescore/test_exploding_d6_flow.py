"""x6.attack: one attack as one flow, the defender's reaction a step of it (§Sequence of an attack).
Values from the seed's worked examples; dice drawn in the order the attack needs them."""

import pytest

from rulescore import RulesError
from rulescore.dice import DiceSource
from rulescore.systems import exploding_d6 as x6

typed = DiceSource.typed


def test_hagen_shield_parry_as_a_step_of_the_robbers_attack():
    # §Reactions: the robber rolls four dice, three hits; Hagen's round shield 5+ stops two.
    r = x6.attack(4, reaction="shield parry", dice=typed([5, 5, 5, 2, 5, 5, 2]))
    assert (r.hit.hits, r.hit.criticals) == (3, 0)
    assert (r.reaction.kind, r.reaction.min_roll, r.reaction.value) == ("shield parry", 5, 2)
    assert (r.hits, r.criticals, r.value, r.reaction_actions) == (1, 0, 1, 1)
    assert r.headline == "1 wound"


def test_maragas_critical_goes_through_the_armour():
    # §Critical hits: 4, 5, 5 and 14: two normal hits and a critical; the critical ignores armour.
    r = x6.attack([4, 5, 5, 14], pool=2)
    assert (r.hit.hits, r.hit.criticals) == (2, 1)
    assert (r.protection.spent, r.protection.pool_left, r.spent, r.pool_left) == (2, 0, 2, 0)
    assert (r.hits, r.criticals, r.value) == (0, 1, 1)


def test_a_megacritical_is_named_in_the_headline_with_its_wound():
    # §Megacritical hits: 17+ is megacritical, +1 wound; 23+ +2.
    r = x6.attack(3, pool=1, dice=typed([6, 6, 5, 5, 3]))
    assert (r.megacriticals, r.extra_wounds, r.value) == (1, 1, 2)
    assert r.headline == "2 wounds, a megacritical among them (+1 wound)"
    two = x6.attack([23, 17])
    assert (two.megacriticals, two.extra_wounds, two.value) == (2, 3, 5)
    assert two.headline == "5 wounds, 2 megacriticals among them (+3 wounds)"


def test_parry_uses_its_own_minimum_roll_and_dice():
    # §Parry melee attacks: each success removes a normal hit; criticals always get through.
    dice = [5, 6, 5, 5, 2]            # hit roll: 5, 11, 5, 2: 2 hits, 1 critical
    at_4 = x6.attack(4, reaction="parry", reaction_dice=3, reaction_min_roll=4,
                     dice=typed(dice + [4, 4, 1]))
    at_5 = x6.attack(4, reaction="parry", reaction_dice=3, reaction_min_roll=5,
                     dice=typed(dice + [4, 4, 1]))
    assert (at_4.reaction.value, at_4.hits, at_4.criticals) == (2, 0, 1)
    assert (at_5.reaction.value, at_5.hits, at_5.criticals) == (0, 2, 1)
    fewer = x6.attack(4, reaction="parry", reaction_dice=1, reaction_min_roll=4,
                      dice=typed(dice + [4]))
    assert (fewer.hits, fewer.criticals) == (1, 1)


def test_dodge_minimum_roll_rises_by_the_hits():
    # §Dodge: two hits raise 5+ to 7+; a 7 (6 then 1) dodges the whole attack.
    r = x6.attack(3, reaction="dodge", reaction_dice=2, dice=typed([5, 5, 1, 6, 1, 2]))
    assert (r.reaction.min_roll, r.outcome, r.value) == (7, "dodged", 0)
    assert r.reaction.chains == ((6, 1), (2,))
    assert r.headline == "Dodged: no wounds"
    miss = x6.attack([5, 5, 1], reaction="dodge", reaction_dice=[5, 4])
    assert (miss.outcome, miss.value) == ("wounded", 2)


def test_cover_dice_are_drawn_only_for_the_hits_the_reaction_left():
    r = x6.attack(3, reaction="parry", reaction_dice=2, cover=5,
                  dice=typed([5, 5, 5, 5, 1, 6, 1]))
    assert r.reaction.hits == 2 and r.cover.prevented_hits == 1 and r.value == 1
    with pytest.raises(RulesError, match="so the terrain cover roll needs 2 d6 next"):
        x6.attack(3, reaction="parry", reaction_dice=2, cover=5, dice=typed([5, 5, 5, 5, 1]))
    with pytest.raises(RulesError, match="scored 3 normal hits, so the parry needs 2 dice"):
        x6.attack(3, reaction="parry", reaction_dice=2, dice=typed([5, 5, 5]))


def test_shield_with_terrain_cover_best_or_each():
    # Behind 4+ cover a 5+ shield rolls once at 4+ (cover_stacking) or twice ("each").
    best = x6.attack(3, reaction="shield parry", cover=4, dice=typed([5, 5, 1, 4, 1]))
    assert (best.reaction.min_roll, best.cover, best.value) == (4, None, 1)
    each = x6.attack(3, reaction="shield parry", cover=4, stacking="each",
                     dice=typed([5, 5, 5, 5, 1, 2, 4, 1]))
    assert (each.reaction.value, each.cover.prevented_hits, each.value) == (1, 1, 1)


def test_shield_criticals_are_rolled_first_and_the_heaviest_stopped():
    # Hit 17 and 5: one megacritical and one hit; shield dice: the critical's 5, the hit's 1.
    r = x6.attack([17, 5], reaction="shield parry", reaction_dice=[5, 1])
    assert (r.criticals, r.hits, r.megacriticals, r.value) == (0, 1, 0, 1)


def test_ko_attack_rolls_resistance_against_the_hits_that_landed():
    # §K.O. Attack: cover and armour as usual, no wounds; out unless successes reach the hits.
    r = x6.attack(3, contest="ko", contest_dice=2, pool=1, dice=typed([5, 5, 5, 5, 2]))
    assert (r.value, r.hits, r.contest.success, r.outcome) == (0, 2, True, "knocked out")
    assert r.headline == "Knocked out (2 hits landed)"
    stays = x6.attack(3, contest="ko", contest_dice=2, pool=1, dice=typed([5, 5, 5, 5, 5]))
    assert stays.outcome == "conscious"
    nothing = x6.attack(2, contest="disarm", contest_dice=2, dice=typed([1, 2]))
    assert nothing.outcome == "keeps weapon" and nothing.contest.value == 0


def test_no_hits_needs_no_reaction():
    r = x6.attack(2, reaction="parry", reaction_dice=3, dice=typed([1, 2]))
    assert r.reaction is None and r.reaction_actions == 0 and r.value == 0


def test_reactions_a_shot_cannot_take_and_leftovers_are_refused():
    with pytest.raises(RulesError, match="works only against a melee attack"):
        x6.attack(2, mode="single", reaction="parry", reaction_dice=2, dice=typed([5, 5]))
    shot = x6.attack(2, mode="single", reaction="shield parry", dice=typed([5, 5, 5, 1]))
    assert shot.value == 1
    with pytest.raises(RulesError, match="too many dice"):
        x6.attack(2, dice=typed([5, 5, 3]))
    with pytest.raises(RulesError, match="reaction_dice must be empty"):
        x6.attack([5], reaction_dice=[4])


def test_a_seed_replays_the_same_flow():
    a = x6.attack(6, reaction="parry", reaction_dice=3, cover=5, pool=1,
                  dice=DiceSource.seeded(11))
    b = x6.attack(6, reaction="parry", reaction_dice=3, cover=5, pool=1,
                  dice=DiceSource.seeded(11))
    assert a == b


# -- exact odds of the whole flow, checked by enumerating every roll ----------------------------

from fractions import Fraction          # noqa: E402
from itertools import product           # noqa: E402

#: Hit dice at explode depth 2, by what they score (min 5+, critical 11+): a representative
#: total and its weight out of 6 ** 3 (the 1/216 of longer chains is the truncated mass).
HIT_DICE = ((1, 144), (5, 60), (11, 10), (17, 1))
#: A reaction die's total and its weight out of 36; 13 stands for every chain past 6, 6.
REACTION_DICE = tuple((t, 6 if t < 6 else 1) for t in (1, 2, 3, 4, 5, 7, 8, 9, 10, 11)) + \
    ((13, 1),)


def _cover_faces(n, value):
    """Every way *n* cover d6 stop or not, as (faces, weight out of 6 ** n)."""
    for stops in product((True, False), repeat=n):
        yield ([value if s else 1 for s in stops],
               Fraction((7 - value) ** sum(stops) * (value - 1) ** (n - sum(stops)), 6 ** n))


def _brute(n, reaction="none", reaction_dice=0, cover=None, stacking="best", **kw):
    pmf: dict[int, Fraction] = {}
    shield = 5 if cover is None or stacking == "each" else min(5, cover)
    for hit in product(HIT_DICE, repeat=n):
        totals = [t for t, _ in hit]
        p_hit = Fraction(1)
        for _, w in hit:
            p_hit *= Fraction(w, 216)
        r_rolls = product(REACTION_DICE, repeat=reaction_dice) if reaction in (
            "dodge", "parry") else [()]
        for rr in r_rolls:
            p_r = Fraction(1)
            for _, w in rr:
                p_r *= Fraction(w, 36)
            scored = x6.hit_roll(totals)
            shields = _cover_faces(scored.value, shield) if reaction == "shield parry" and \
                scored.value else [([t for t, _ in rr], Fraction(1))]
            for r_faces, p_s in shields:
                react = dict(reaction=reaction, reaction_dice=r_faces or None)
                if reaction == "none" or not scored.value:
                    react = {}
                before = x6.attack(totals, **react, **kw)
                standing = before.hits + before.criticals + before.protection.spent
                needs_cover = cover is not None and standing and not (
                    reaction == "shield parry" and stacking == "best")
                for faces, p_c in (_cover_faces(standing, cover) if needs_cover
                                   else [((), Fraction(1))]):
                    r = x6.attack(totals, **react, cover=cover, cover_faces=faces,
                                  stacking=stacking, **kw)
                    p = p_hit * p_r * p_s * p_c
                    pmf[r.value] = pmf.get(r.value, Fraction(0)) + p
    return {k: v for k, v in sorted(pmf.items()) if v}


FLOWS = [
    dict(),
    dict(cover=5, pool=1),
    dict(reaction="parry", reaction_dice=2, pool=1),
    dict(reaction="parry", reaction_dice=1, reaction_min_roll=4, cover=6),
    dict(reaction="dodge", reaction_dice=2, cover=4),
    dict(reaction="shield parry", cover=4),
    dict(reaction="shield parry", cover=6, stacking="each"),
    dict(pool=2, critical_pool=1, piercing=1, prevent="lightest"),
]


@pytest.mark.parametrize("flow", FLOWS, ids=lambda f: ",".join(f"{k}={v}" for k, v in f.items())
                         or "plain")
def test_attack_odds_equal_every_roll_enumerated(flow):
    n = 3 if not flow.get("reaction") in ("dodge", "parry") else 2
    odds = x6.attack_odds(n, explode_depth=2, **flow)
    assert odds.pmf == _brute(n, **flow)
    assert sum(odds.pmf.values()) + odds.truncated == 1


def test_attack_odds_without_a_reaction_are_the_wound_distribution():
    for kw in (dict(), dict(cover=5, pool=2), dict(cover=4, critical_pool=1, pool=1)):
        assert x6.attack_odds(5, **kw) == x6.wound_distribution(5, **kw)


def test_hagens_shield_parry_odds():
    # Three normal hits at a round shield's 5+: all three stopped one time in 27.
    hits = {0: Fraction(1, 27), 1: Fraction(6, 27), 2: Fraction(12, 27), 3: Fraction(8, 27)}
    assert x6.reaction_odds("shield parry", 0, 3) == {k: hits[k] for k in sorted(hits)}
