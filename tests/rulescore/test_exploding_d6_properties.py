"""Every public exploding-d6 function returns its type or raises RulesError naming the input."""

from hypothesis import given, settings, strategies as st

from rulescore.errors import RulesError
from rulescore.systems import exploding_d6 as x6

anything = st.one_of(st.integers(-50, 700), st.none(), st.booleans(), st.text(max_size=3),
                     st.lists(st.integers(-3, 40), max_size=5))
totals = st.lists(st.integers(-2, 40), max_size=8)
SETTINGS = settings(deadline=None, max_examples=80)


def _named(exc: RulesError, *names: str) -> bool:
    return any(n in str(exc) for n in names)


@SETTINGS
@given(anything, anything, anything)
def test_classify_total_or_error(total, min_roll, crit_at):
    try:
        kind, extra = x6.classify(total, min_roll, crit_at)
    except RulesError as exc:
        assert _named(exc, "total", "min_roll", "crit_at")
        return
    assert kind in ("miss", "hit", "critical", "megacritical") and extra >= 0
    assert (kind == "megacritical") == (extra > 0)


@SETTINGS
@given(totals, st.integers(-1, 30), st.integers(-1, 30), st.booleans())
def test_hit_roll_counts_every_die_once(dice, min_roll, crit_at, burst):
    try:
        r = x6.hit_roll(dice, min_roll, crit_at, burst)
    except RulesError as exc:
        assert _named(exc, "dice_totals", "min_roll", "crit_at")
        return
    assert isinstance(r, x6.HitRoll)
    assert r.hits + r.criticals == r.value <= len(dice)
    assert r.extra_wounds == sum(r.critical_extras)
    assert not burst or r.criticals == 0


@SETTINGS
@given(anything, anything)
def test_recoil_malus_int_or_error(n, comp):
    try:
        m = x6.recoil_malus(n, comp)
    except RulesError as exc:
        assert _named(exc, "attack_number", "compensation")
        return
    assert isinstance(m, int) and m >= 0 and (n != 1 or m == 0)


@SETTINGS
@given(st.integers(-1, 12), st.integers(-1, 12), st.lists(st.integers(0, 7), max_size=12),
       st.sampled_from([3, 4, 5, 6, 7]))
def test_cover_roll_never_adds_hits(hits, crits, faces, cover):
    try:
        r = x6.cover_roll(hits, crits, faces[:max(hits, 0)], faces[max(hits, 0):], cover)
    except RulesError as exc:
        assert _named(exc, "hits", "criticals", "faces", "cover")
        return
    assert 0 <= r.hits <= hits and 0 <= r.criticals <= crits


@SETTINGS
@given(st.integers(-1, 10), st.integers(-1, 10), st.integers(-1, 12), st.integers(-1, 12),
       st.integers(-1, 4))
def test_protection_spends_what_it_stops(hits, crits, pool, cpool, pierce):
    try:
        r = x6.protection(hits, crits, pool, cpool, piercing=pierce)
    except RulesError as exc:
        assert _named(exc, "hits", "criticals", "pool", "critical_pool", "piercing")
        return
    assert r.spent == (hits - r.hits) + (crits - r.criticals)
    assert r.pool_left == pool - r.spent >= 0
    assert crits - r.criticals <= cpool


@SETTINGS
@given(st.integers(-1, 5), st.integers(0, 9), st.integers(5, 15), st.booleans())
def test_hit_distribution_sums_to_one_less_truncated(n, min_roll, crit_at, burst):
    try:
        odds = x6.hit_odds(n, min_roll, crit_at, burst, explode_depth=4)
    except RulesError as exc:
        assert _named(exc, "dice", "min_roll")
        return
    assert sum(odds.pmf.values()) + odds.truncated == 1
    assert all(h + c <= n for h, c in odds.pmf)


@SETTINGS
@given(st.lists(st.integers(0, 40), max_size=6), st.integers(-1, 6), st.integers(-1, 8))
def test_initiative_sum_or_error(dice, quickness, deftness):
    try:
        r = x6.initiative(dice, quickness, deftness)
    except RulesError as exc:
        assert _named(exc, "dice_totals", "quickness", "deftness")
        return
    assert r.value == sum(dice)


@SETTINGS
@given(st.lists(st.integers(0, 20), max_size=4), st.integers(-1, 13), st.integers(-1, 7))
def test_throw_hit_or_deviation(dice, clock, metres):
    try:
        r = x6.throw(dice, clock=clock, metres=metres)
    except RulesError as exc:
        assert _named(exc, "dice_totals", "clock", "metres")
        return
    if r.hit:
        assert r.value >= 1 and r.offset is None
    else:
        assert 1 <= r.clock <= 12 and abs(r.offset[0]) <= 6 and abs(r.offset[1]) <= 6


@SETTINGS
@given(st.integers(-1, 8), st.integers(-1, 8), st.sampled_from(["melee", "single", "burst",
                                                                 "throw", "laser"]),
       st.integers(0, 4), st.integers(-1, 3), st.integers(-1, 3), st.integers(-1, 4),
       st.booleans(), st.booleans(), st.sampled_from(["none", "ko", "massive", "disarm", "x"]))
def test_attack_setup_setup_or_error(skill, weapon, mode, number, comp, aim, perception,
                                     walking, supported, special):
    try:
        s = x6.attack_setup(skill, weapon, mode, attack_number=number, compensation=comp,
                            aim_actions=aim, perception=perception, walking=walking,
                            supported=supported, special=special, massive_actions=1,
                            strength=3)
    except RulesError as exc:
        assert _named(exc, "skill", "weapon_dice", "mode", "attack_number", "compensation",
                      "aim_actions", "perception", "special")
        return
    assert isinstance(s, x6.AttackSetup) and s.dice >= 0 and s.min_roll >= 1
    assert s.burst == (mode == "burst")
    assert all(step.rule.system == "exploding_d6" for step in s.trace)


@settings(deadline=None, max_examples=25)
@given(st.integers(-1, 4), st.sampled_from([None, 4, 5, 6, 7]), st.integers(-1, 3),
       st.integers(0, 2))
def test_wound_distribution_sums_to_one(n, cover, pool, cpool):
    try:
        w = x6.wound_distribution(n, cover=cover, pool=pool, critical_pool=cpool,
                                  explode_depth=2)
    except RulesError as exc:
        assert _named(exc, "dice", "cover", "pool", "critical_pool")
        return
    assert sum(w.pmf.values()) + w.truncated == 1
    assert all(k >= 0 for k in w.pmf)


@SETTINGS
@given(st.sampled_from(["dodge", "parry", "shield parry", "duck"]),
       st.lists(st.integers(0, 20), max_size=5), st.integers(-1, 4), st.integers(-1, 2))
def test_reaction_never_adds_hits(kind, dice, hits, crits):
    try:
        r = x6.reaction(kind, dice, hits, crits)
    except RulesError as exc:
        assert _named(exc, "kind", "dice", "hits", "criticals")
        return
    assert 0 <= r.value <= hits + crits and r.criticals <= crits
