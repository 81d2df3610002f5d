"""Property tests: every public TSL function returns its declared type or raises a RulesError
that names the bad parameter."""

from fractions import Fraction

from hypothesis import given, settings, strategies as st

from rulescore.errors import RulesError
from rulescore.systems import tsl

SETTINGS = settings(deadline=None, max_examples=60)
anything = st.one_of(st.none(), st.booleans(), st.integers(-20, 60), st.text(max_size=12),
                     st.sampled_from(tsl.BANDS + tsl.TIERS + tsl.ZONES + tsl.WEAPON_ZONES))
dice = st.one_of(st.lists(st.integers(1, 6), min_size=5, max_size=5),
                 st.lists(st.integers(-1, 8), min_size=0, max_size=7), st.text(max_size=5))
tiers = st.one_of(st.sampled_from(tsl.TIERS), st.text(max_size=6))


def _names(exc: RulesError, *params: str) -> bool:
    return any(p in str(exc) for p in params)


@SETTINGS
@given(anything)
def test_band_functions(band):
    for fn in (tsl.stress, tsl.armour, tsl.impact_tag):
        try:
            out = fn(band)
        except RulesError as exc:
            assert _names(exc, "band")
            continue
        assert isinstance(out, int if fn is tsl.stress else str)
        if fn is not tsl.stress:
            assert out in tsl.BANDS


@SETTINGS
@given(dice, tiers, st.integers(-3, 45), st.integers(-6, 6))
def test_static_roll(faces, tier, target, shift):
    try:
        r = tsl.static_roll(faces, tier, target, shift=shift)
    except RulesError as exc:
        assert _names(exc, "dice", "tier", "target", "shift")
        return
    assert isinstance(r, tsl.StaticRoll) and r.band in tsl.BANDS
    assert r.margin == r.total - target and r.keep == tsl.keep_count(tier, shift)


@SETTINGS
@given(dice, tiers, dice, tiers)
def test_opposed_roll(a, at, d, dt):
    try:
        r = tsl.opposed_roll(a, at, d, dt)
    except RulesError as exc:
        assert _names(exc, "attacker_dice", "attacker_tier", "defender_dice", "defender_tier")
        return
    assert isinstance(r, tsl.OpposedRoll) and r.band in tsl.BANDS
    assert (r.winner == "attacker") == (r.margin > 0) == r.hit


@SETTINGS
@given(tiers, st.integers(-3, 45), st.integers(-6, 6),
       st.sampled_from(("standard", "wide_mixed", "meet_is_mixed", "close_catastrophe", "x")))
def test_band_odds(tier, target, shift, bands):
    try:
        odds = tsl.band_odds(tier, target, shift=shift, bands=bands)
    except RulesError as exc:
        assert _names(exc, "tier", "target", "shift", "bands")
        return
    assert set(odds) == set(tsl.BANDS) and sum(odds.values()) == 1
    assert all(isinstance(p, Fraction) for p in odds.values())


@SETTINGS
@given(dice, tiers, st.one_of(st.none(), st.integers(-2, 45)),
       st.sampled_from(tsl.WEAPON_ZONES), st.sampled_from(tsl.tag_names()),
       st.sampled_from(tsl.ZONES + ("Nowhere",)), st.booleans(), st.booleans(),
       st.one_of(st.none(), st.integers(-1, 13)))
def test_attack(faces, tier, target, zone, tag, distance, impact, armour_on, uses):
    w = tsl.make_weapon(zone, [tag])
    try:
        a = tsl.attack(faces, tier, target=target, weapon=w, distance=distance, impact=impact,
                       armour=armour_on, uses=uses)
    except RulesError as exc:
        assert _names(exc, "dice", "tier", "target", "distance", "impact", "uses", "zone")
        return
    assert isinstance(a, tsl.Attack) and a.stress == tsl.stress(a.band)
    if a.raw_band == "crit":
        assert a.band == "crit"  # nothing undoes a Crit
    if a.raw_band != "crit":
        assert a.band != "crit"  # and nothing makes one


@SETTINGS
@given(anything, anything, st.booleans())
def test_move(start, end, double):
    try:
        m = tsl.move(start, end, double=double)
    except RulesError as exc:
        assert _names(exc, "start", "end")
        return
    assert isinstance(m, tsl.Move) and m.zones <= (2 if double else 1)


@SETTINGS
@given(anything, st.lists(anything, max_size=3), st.booleans())
def test_make_weapon(zone, tags, improvised):
    try:
        w = tsl.make_weapon(zone, tags, improvised=improvised)
    except RulesError as exc:
        assert _names(exc, "zone", "tags", "tag")
        return
    assert isinstance(w, tsl.Weapon)
    assert isinstance(tsl.weapon_profile(w), tsl.WeaponProfile)


@SETTINGS
@given(st.lists(st.sampled_from(tsl.turn_options() + ("Dance",)), max_size=6),
       st.sampled_from(tsl.ZONES))
def test_spend(options, zone):
    state = tsl.TurnState()
    for option in options:
        try:
            state = tsl.spend(state, option, ally_zone=zone).state
        except RulesError as exc:
            assert _names(exc, "option", "ally_zone")
        assert isinstance(state, tsl.TurnState)


@SETTINGS
@given(st.lists(st.text(max_size=4), max_size=5))
def test_turn_order(names):
    try:
        order = tsl.turn_order(names)
    except RulesError as exc:
        assert _names(exc, "names")
        return
    assert isinstance(order, tuple) and len(order) == len(names)


@SETTINGS
@given(st.dictionaries(st.sampled_from(("order", "round", "acting", "used", "log")),
                       st.one_of(anything, st.lists(st.sampled_from(("A", "B", "action"))),
                                 st.dictionaries(st.sampled_from(("A", "B")),
                                                 st.lists(st.sampled_from(
                                                     ("action", "movement", "x")))))))
def test_encounter_from_dict(data):
    try:
        enc = tsl.encounter_from_dict(data)
    except RulesError as exc:
        assert _names(exc, "board", "names", "round", "acting", "used", "log")
        return
    assert isinstance(enc, tsl.Encounter)
    assert tsl.encounter_from_dict(tsl.encounter_to_dict(enc)) == enc


@SETTINGS
@given(anything, anything, st.sampled_from(("flat", "per_zone", "other")))
def test_zone_lookups(zone, distance, out_of_zone):
    try:
        uses = tsl.starting_uses(zone)
    except RulesError as exc:
        assert _names(exc, "zone")
    else:
        assert uses is None or isinstance(uses, int)
    w = tsl.make_weapon("Thrown", ["Snaring"])
    try:
        shift = tsl.zone_shift(w, distance, out_of_zone=out_of_zone)
    except RulesError as exc:
        assert _names(exc, "distance", "out_of_zone")
    else:
        assert shift in (0, -1, -2, -3)


@SETTINGS
@given(anything, anything, st.booleans())
def test_defence_domain(attack, domain, described):
    try:
        got = tsl.defence_domain(attack, domain, described=described)
    except RulesError as exc:
        assert _names(exc, "attack", "domain")
        return
    primary, alternatives = tsl.defence_domains(attack)
    assert got in (primary,) + alternatives


@SETTINGS
@given(st.sampled_from(tsl.RARITIES + ("Legendary",)), st.booleans(), dice, tiers)
def test_repair(rarity, irreplaceable, faces, tier):
    try:
        r = tsl.repair(rarity, irreplaceable=irreplaceable, dice=faces, tier=tier)
    except RulesError as exc:
        assert _names(exc, "rarity", "dice", "tier")
        return
    assert isinstance(r, tsl.Repair)
    assert r.outcome in ("repaired", "not repaired", "needs downtime", "lost")


@SETTINGS
@given(st.lists(st.text(min_size=1, max_size=3), max_size=5), anything, st.booleans())
def test_ready_item(stowed, item, in_scene):
    try:
        kit = tsl.make_loadout(["a"], stowed=stowed)
        change = tsl.ready_item(kit, item, in_scene=in_scene)
    except RulesError as exc:
        assert _names(exc, "stowed", "item")
        return
    assert isinstance(change, tsl.ReadyChange) and item in change.loadout.ready
