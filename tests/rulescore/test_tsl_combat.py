"""TSL combat: stress, armour, Impact tags, weapons and zones, ammunition, breaking, defence and
the attack resolver, with its exact odds against enumeration."""

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from rulescore.errors import RulesError
from rulescore.systems import tsl

ALL_ROLLS = list(itertools.product(range(1, 7), repeat=5))


# --- Damage ---------------------------------------------------------------------------------

@pytest.mark.parametrize("band, points", [
    ("catastrophic", 0), ("failure", 0), ("mixed", 1), ("success", 2), ("crit", 4)])
def test_stress_per_band(band, points):
    assert tsl.stress(band) == points


def test_crit_doubles_a_success():
    assert tsl.stress("crit") == 2 * tsl.stress("success")


def test_unknown_band_is_named():
    with pytest.raises(RulesError, match="band must be one of catastrophic, failure, mixed, "
                                         "success, crit, got 'hit'"):
        tsl.stress("hit")


# --- Armour ---------------------------------------------------------------------------------

@pytest.mark.parametrize("band, after", [
    ("crit", "crit"), ("success", "mixed"), ("mixed", "failure"), ("failure", "failure"),
    ("catastrophic", "catastrophic")])
def test_armour_drops_a_band_but_never_a_crit(band, after):
    assert tsl.armour(band) == after


def test_armour_spent_on_catastrophic_defence():
    saved = tsl.armour_against("success", defence_catastrophic=True)
    assert (saved.band, saved.value, saved.armour_spent, saved.absorbed) == (
        "failure", 0, True, True)
    crit = tsl.armour_against("crit", defence_catastrophic=True)
    assert (crit.band, crit.value, crit.armour_spent) == ("crit", 4, True)
    plain = tsl.armour_against("success")
    assert (plain.band, plain.value, plain.armour_spent) == ("mixed", 1, False)
    with pytest.raises(RulesError, match="defence_catastrophic must be True or False"):
        tsl.armour_against("success", defence_catastrophic="yes")


# --- Tags -----------------------------------------------------------------------------------

@pytest.mark.parametrize("band, after", [
    ("catastrophic", "failure"), ("failure", "mixed"), ("mixed", "success"),
    ("success", "success"), ("crit", "crit")])
def test_impact_tag_bumps_up_to_success(band, after):
    assert tsl.impact_tag(band) == after


def test_impact_tag_on_misses_option():
    assert tsl.impact_tag("failure", bump_misses=False) == "failure"
    assert tsl.impact_tag("mixed", bump_misses=False) == "success"


def test_tag_families():
    assert [tsl.tag_family(t) for t in ("Reach", "Piercing", "Wayfinder's Chain", "Sentimental")] \
        == ["Positioning", "Impact", "Utility", "Identity"]
    with pytest.raises(RulesError, match="tag must be one of Reach"):
        tsl.tag_family("Vorpal")


def test_reach_and_long_range_add_zones():
    assert tsl.fights_at(tsl.make_weapon("Melee", ["Reach"])) == ("Engaged", "Near")
    assert tsl.fights_at(tsl.make_weapon("Sidearm", ["Long-Range"])) == ("Near", "Far", "Distant")
    assert tsl.fights_at(tsl.make_weapon("Melee", ["Silent"])) == ("Engaged",)


def test_no_tag_makes_a_crit_or_adds_damage():
    """Only the dice crit: with every tag and an Impact bump a Success stays a Success."""
    for tag in tsl.tag_names():
        w = tsl.make_weapon("Melee", [tag])
        assert tsl.weapon_profile(w).impact_tags in ((), (tag,))
    w = tsl.make_weapon("Melee", ["Piercing", "Brutal"])
    a = tsl.attack([6, 5, 3, 1, 1], "Trained", target=11, weapon=w, impact=True)
    assert (a.raw_band, a.band, a.stress) == ("success", "success", 2)


# --- Weapons & Gear, Zone -------------------------------------------------------------------

def test_weapon_is_zone_plus_one_or_two_tags():
    w = tsl.make_weapon("Ranged", ["Long-Range", "Hand-Forged"], name="Longbow")
    assert (w.zone, w.tags, w.name) == ("Ranged", ("Long-Range", "Hand-Forged"), "Longbow")
    with pytest.raises(RulesError, match="tags must be one or two for a weapon, got 0"):
        tsl.make_weapon("Melee")
    with pytest.raises(RulesError, match="got 3"):
        tsl.make_weapon("Melee", ["Reach", "Silent", "Brutal"])
    with pytest.raises(RulesError, match="tags must not repeat"):
        tsl.make_weapon("Melee", ["Reach", "Reach"])
    with pytest.raises(RulesError, match="zone must be one of 'Melee', 'Thrown', 'Sidearm', 'Ranged'"):
        tsl.make_weapon("Artillery", ["Reach"])


@pytest.mark.parametrize("zone, fights", [
    ("Melee", ("Engaged",)), ("Thrown", ("Engaged", "Near")), ("Sidearm", ("Near", "Far")),
    ("Ranged", ("Far", "Distant"))])
def test_weapon_zones(zone, fights):
    assert tsl.fights_at(tsl.make_weapon(zone, ["Sentimental"])) == fights


def test_out_of_zone_penalty():
    sword = tsl.make_weapon("Melee", ["Dueling"])
    assert tsl.zone_shift(sword, "Engaged") == 0
    assert tsl.zone_shift(sword, "Near") == -1
    assert tsl.zone_shift(sword, "Distant") == -1
    assert tsl.zone_shift(sword, "Distant", out_of_zone="per_zone") == -3
    rifle = tsl.make_weapon("Ranged", ["Piercing"])
    assert tsl.zone_shift(rifle, "Engaged", out_of_zone="per_zone") == -2
    a = tsl.attack([6, 5, 4, 3, 1], "Proficient", target=11, weapon=sword, distance="Near")
    assert (a.shift, a.total) == (-1, 15)  # Trained: keep 3
    assert "Near is outside the weapon's zones (Engaged): -1 Effective Tier" in a.explain()


def test_rarity_changes_no_number():
    assert "never stronger" in tsl.rarity_origin("Salvaged")
    results = {tsl.attack([6, 4, 3, 3, 1], "Proficient", target=11,
                          weapon=tsl.make_weapon("Melee", ["Brutal"], rarity=r)).stress
               for r in tsl.RARITIES}
    assert results == {2}


def test_loot_adds_options_not_power():
    """Every weapon the builder can make deals the same Stress for the same roll."""
    stresses = set()
    for zone in tsl.WEAPON_ZONES:
        for tags in itertools.combinations(tsl.tag_names(), 2):
            w = tsl.make_weapon(zone, tags)
            zones = tsl.fights_at(w)
            a = tsl.attack([6, 4, 3, 3, 1], "Proficient", target=11, weapon=w, distance=zones[0])
            stresses.add(a.stress)
            assert tsl.weapon_profile(w).breaks_on == ("catastrophic",)
    assert stresses == {2}


# --- Improvised weapons, ammunition, breaking ---------------------------------------------

def test_improvised_breaks_on_failure():
    chair = tsl.make_weapon("Melee", improvised=True)
    assert tsl.weapon_breaks("failure", improvised=True)
    assert tsl.weapon_breaks("catastrophic", improvised=True)
    assert not tsl.weapon_breaks("mixed", improvised=True)
    assert not tsl.weapon_breaks("failure") and tsl.weapon_breaks("catastrophic")
    a = tsl.attack([2, 2, 1, 1, 1], "Trained", target=8, weapon=chair)
    assert (a.band, a.weapon_breaks) == ("failure", True)
    assert tsl.weapon_profile(chair).breaks_on == ("failure", "catastrophic")
    with pytest.raises(RulesError, match="tags must be empty for an improvised weapon"):
        tsl.make_weapon("Melee", ["Reach"], improvised=True)
    with pytest.raises(RulesError, match="zone of an improvised weapon must be Melee or Thrown"):
        tsl.make_weapon("Sidearm", improvised=True)
    with pytest.raises(RulesError, match="impact must be False: the weapon has no Impact tag"):
        tsl.attack([6, 6, 6, 6, 6], "Trained", target=8, weapon=chair, impact=True)


@pytest.mark.parametrize("zone, uses", [("Sidearm", 12), ("Ranged", 6), ("Thrown", 3),
                                        ("Melee", None)])
def test_starting_uses(zone, uses):
    assert tsl.starting_uses(zone) == uses


def test_ammunition_uses():
    assert tsl.spend_use("Thrown", 3).uses_left == 2
    assert tsl.spend_use("Sidearm", 1).value == 0
    with pytest.raises(RulesError, match="cannot attack until it is restocked"):
        tsl.spend_use("Ranged", 0)
    with pytest.raises(RulesError, match="zone Melee uses no ammunition"):
        tsl.spend_use("Melee", 3)
    pistol = tsl.make_weapon("Sidearm", ["Company-Issued"])
    miss = tsl.attack([1, 1, 1, 2, 2], "Trained", target=11, weapon=pistol, distance="Near",
                      uses=12)
    assert (miss.band, miss.uses_left) == ("failure", 11)  # hit or miss, one use


def test_catastrophic_roll_breaks_a_weapon():
    rifle = tsl.make_weapon("Ranged", ["Long-Range"])
    a = tsl.attack([1, 1, 1, 1, 1], "Untrained", target=9, weapon=rifle, distance="Far")
    assert (a.raw_band, a.weapon_breaks, a.stress) == ("catastrophic", True, 0)
    assert "it breaks" in a.explain()


def test_repair_routes():
    assert tsl.repair("Issued").outcome == "needs downtime"
    assert tsl.repair("Anomalous", irreplaceable=True).outcome == "lost"
    fixed = tsl.repair("Salvaged", dice=[6, 5, 1, 1, 1], tier="Trained")
    assert (fixed.value, fixed.band, fixed.outcome) == (12, "mixed", "repaired")
    failed = tsl.repair("Salvaged", dice=[6, 5, 1, 1, 1], tier="Untrained")
    assert (failed.value, failed.outcome) == (11, "not repaired")  # 11 does not beat T11
    with pytest.raises(RulesError, match="dice are needed for the Hand roll"):
        tsl.repair("Anomalous")


def test_only_rarer_gear_takes_a_roll_to_mend():
    """§11 Ammunition: ordinary (Issued) gear is fixed with tools and downtime, rarer gear
    needs a skilled NPC or specialist tools and a Hand roll (T11), something irreplaceable may
    be destroyed for good: only the rarer gear asks for dice."""
    assert [tsl.repair_needs_roll(r) for r in tsl.RARITIES] == [False, True, True]
    assert not tsl.repair_needs_roll("Salvaged", irreplaceable=True)
    for rarity in tsl.RARITIES:
        needs = tsl.repair_needs_roll(rarity)
        assert (tsl.repair(rarity, dice=[6, 5, 1, 1, 1]).band is not None) == needs
    with pytest.raises(RulesError, match="irreplaceable must be True or False, got 1"):
        tsl.repair_needs_roll("Issued", irreplaceable=1)
    with pytest.raises(RulesError, match="rarity must be one of"):
        tsl.repair_needs_roll(True)


def test_the_dice_a_repair_asks_for_are_the_hand_rolls_or_none():
    """§11 Ammunition: the Hand roll that mends rarer gear is a 5d6 roll; Issued gear and
    irreplaceable gear take no roll, so no dice; a wrong rarity is refused in words."""
    assert [tsl.repair_dice(r) for r in tsl.RARITIES] == [0, 5, 5]
    assert [tsl.repair_dice(r, irreplaceable=True) for r in tsl.RARITIES] == [0, 0, 0]
    with pytest.raises(RulesError, match="irreplaceable must be True or False, got 'yes'"):
        tsl.repair_dice("Salvaged", irreplaceable="yes")
    with pytest.raises(RulesError, match="rarity must be one of"):
        tsl.repair_dice("Rare")


def _top(faces: tuple[int, ...], keep: int) -> int:
    """The sum of the *keep* highest of *faces*."""
    return sum(sorted(faces, reverse=True)[:keep])


@pytest.mark.parametrize("tier, keep, mends", [
    ("Untrained", 2, 1526), ("Trained", 3, 6023), ("Proficient", 4, 6979)])
def test_repair_odds_count_every_roll_that_mends(tier, keep, mends):
    """§11 Ammunition: the Hand roll at T11 mends on a Mixed Success or better, a margin of
    1 or more on the standard ladder, so a total of 12 or more; Untrained keeps the top 2 of
    5d6, Trained 3, Proficient 4 (§11 rolls). Counted here over all 6^5 rolls, not through
    the engine's own bands: Trained 6023/7776, Proficient 6979/7776."""
    counted = sum(_top(faces, keep) >= 12 for faces in ALL_ROLLS)
    assert counted == mends and len(ALL_ROLLS) == 7776
    assert tsl.repair_odds(tier) == Fraction(mends, 7776)


def test_repair_odds_follow_the_shift_and_the_ladder():
    """A shift of -1 moves Trained to Untrained's keep 2 (top 2 of 5d6 >= 12); on the
    'meet_is_mixed' ladder meeting T11 is already Mixed, so Untrained mends on a top 2 of
    11 or more. Both counted over all 6^5 rolls here."""
    assert tsl.repair_odds("Trained", shift=-1) == \
        Fraction(sum(_top(f, 2) >= 12 for f in ALL_ROLLS), 7776)
    assert tsl.repair_odds("Untrained", bands="meet_is_mixed") == \
        Fraction(sum(_top(f, 2) >= 11 for f in ALL_ROLLS), 7776)


def test_a_repair_plan_says_in_one_call_what_mending_takes():
    """§11 Ammunition (ruling tsl:repair_roll): rarer gear takes the Hand roll, five dice at
    T11 with the tier's chance (Trained 6023/7776, counted above); Issued gear takes tools and
    downtime and irreplaceable gear may be lost, answered at once with no roll."""
    plan = tsl.repair_plan("Salvaged", tier="Trained")
    assert plan == tsl.RepairPlan(
        "rare", True, 5, Fraction(6023, 7776),
        "Mending it takes a Hand roll at T11: a Mixed Success or better mends it.", None)
    assert tsl.repair_plan("Anomalous", tier="Proficient").odds == Fraction(6979, 7776)
    issued = tsl.repair_plan("Issued")
    assert (issued.rolls, issued.dice, issued.odds) == (False, 0, None)
    assert issued.said == "Mending it takes tools and downtime: no roll."
    assert issued.done == tsl.repair("Issued") and issued.done.outcome == "needs downtime"
    lost = tsl.repair_plan("Salvaged", irreplaceable=True)
    assert (lost.kind, lost.rolls, lost.dice, lost.said, lost.done.outcome) == (
        "irreplaceable", False, 0, "It may be gone for good: no roll mends it.", "lost")
    for rarity in tsl.RARITIES:   # one verdict with the calls it gathers
        for gone in (False, True):
            plan = tsl.repair_plan(rarity, irreplaceable=gone)
            assert plan.rolls == tsl.repair_needs_roll(rarity, irreplaceable=gone)
            assert plan.dice == tsl.repair_dice(rarity, irreplaceable=gone)
    with pytest.raises(RulesError, match="rarity must be one of"):
        tsl.repair_plan("Rare")
    with pytest.raises(RulesError, match="tier must be one of"):
        tsl.repair_plan("Salvaged", tier="Master")


def test_repair_odds_refuse_what_is_not_a_tier_or_a_shift():
    with pytest.raises(RulesError, match="tier must be one of"):
        tsl.repair_odds("Expert")
    with pytest.raises(RulesError, match="shift must be a whole number, got True"):
        tsl.repair_odds("Trained", shift=True)


# --- Zones and movement -----------------------------------------------------------------------

def test_movement_one_zone_double_two():
    m = tsl.move("Near", "Engaged")
    assert (m.zones, m.uses, m.outcome) == (1, ("movement",), "Movement")
    assert tsl.move("Far", "Far").zones == 0
    d = tsl.move("Far", "Engaged", double=True)
    assert (d.zones, d.uses) == (2, ("action", "movement"))
    with pytest.raises(RulesError, match="a Double Movement .* crosses two"):
        tsl.move("Far", "Engaged")
    with pytest.raises(RulesError, match="end must be at most 2 zones from Distant"):
        tsl.move("Distant", "Engaged", double=True)
    with pytest.raises(RulesError, match="start must be one of 'Engaged', 'Near', 'Far', 'Distant'"):
        tsl.move("Close", "Near")


# --- Defence ----------------------------------------------------------------------------------

@pytest.mark.parametrize("attack, primary, alternatives", [
    ("Melee weapon", "Body", ("Hand",)), ("Ranged weapon", "Hand", ("Body",)),
    ("Stealth attack", "Mind", ("Hand",)), ("Social pressure", "Heart", ("Mind", "Voice")),
    ("Spirit attack", "Spirit", ("Heart",)), ("Environmental", "Body", ())])
def test_defence_table(attack, primary, alternatives):
    assert tsl.defence_domains(attack) == (primary, alternatives)


def test_defence_domain_alternative_needs_a_description():
    assert tsl.defence_domain("Melee weapon") == "Body"
    assert tsl.defence_domain("Melee weapon", "Hand", described=True) == "Hand"
    with pytest.raises(RulesError, match="only with a description"):
        tsl.defence_domain("Melee weapon", "Hand")
    with pytest.raises(RulesError, match="domain must be one of Body against Environmental"):
        tsl.defence_domain("Environmental", "Hand", described=True)


def test_stress_pools():
    assert tsl.stress_pool("Melee weapon") == "Body"
    assert tsl.stress_pool("Fear, despair") == "Mind"
    assert tsl.stress_pool("Spirit attack") == "Spirit"


# --- The attack -------------------------------------------------------------------------------

def test_attack_vela_worked_example():
    """Vela's shot: Hand, Proficient, 16 vs T11 with a sidearm at Near: Success, 2 Body Stress."""
    pistol = tsl.make_weapon("Sidearm", ["Company-Issued"])
    a = tsl.attack([3, 6, 1, 4, 3], "Proficient", target=11, weapon=pistol, distance="Near",
                   attack_type="Ranged weapon", uses=12)
    assert (a.total, a.margin, a.band, a.stress, a.pool, a.uses_left) == (
        16, 5, "success", 2, "Body", 11)
    assert a.kind == "static" and not a.weapon_breaks


def test_attack_armour_and_piercing_order():
    spear = tsl.make_weapon("Melee", ["Piercing"])
    args = dict(defender_dice=[4, 3, 2, 1, 1], defender_tier="Trained", weapon=spear,
                armour=True, impact=True)
    a = tsl.attack([6, 5, 2, 1, 1], "Trained", **args)  # 13 vs 9: +4 Success
    assert (a.raw_band, a.band, a.stress) == ("success", "success", 2)
    b = tsl.attack([6, 5, 2, 1, 1], "Trained", order="impact_first", **args)
    assert b.band == "mixed"
    c = tsl.attack([6, 4, 1, 1, 1], "Trained", **args)  # 11 vs 9: +2 Mixed → miss → Mixed
    assert (c.raw_band, c.band) == ("mixed", "mixed")
    d = tsl.attack([6, 4, 1, 1, 1], "Trained", defender_dice=[4, 3, 2, 1, 1],
                   defender_tier="Trained", weapon=spear, armour=True)
    assert (d.band, d.stress) == ("failure", 0)


def test_attack_crit_through_armour_spends_it():
    a = tsl.attack([6, 6, 6, 5, 1], "Proficient", defender_dice=[5, 4, 1, 1, 1],
                   defender_tier="Untrained", armour=True)
    assert (a.margin, a.band, a.stress, a.armour_spent) == (14, "crit", 4, True)


def test_attack_catastrophic_defence_absorbs_on_close_ladder():
    a = tsl.attack([6, 6, 6, 1, 1], "Trained", defender_dice=[6, 6, 1, 1, 1],
                   defender_tier="Untrained", armour=True, bands="close_catastrophe")
    assert (a.raw_band, a.band, a.stress, a.armour_spent) == ("success", "failure", 0, True)


def test_attack_needs_exactly_one_kind():
    with pytest.raises(RulesError, match="give exactly one"):
        tsl.attack([1, 2, 3, 4, 5], "Trained")
    with pytest.raises(RulesError, match="give exactly one"):
        tsl.attack([1, 2, 3, 4, 5], "Trained", target=9, defender_dice=[1, 2, 3, 4, 5])
    with pytest.raises(RulesError, match="defender_tier is needed"):
        tsl.attack([1, 2, 3, 4, 5], "Trained", defender_dice=[1, 2, 3, 4, 5])
    with pytest.raises(RulesError, match="attack_type must be one of 'Melee weapon'"):
        tsl.attack([1, 2, 3, 4, 5], "Trained", target=9, attack_type="Poke")


def _final(raw, defence_cat, impact, armour_on, order="armour_first"):
    """The modifiers written out by hand (rulings armour_then_impact, catastrophic_defence)."""
    ladder = ["catastrophic", "failure", "mixed", "success", "crit"]

    def bump(b):
        return b if b in ("success", "crit") else ladder[ladder.index(b) + 1]

    def drop(b):
        return {"success": "mixed", "mixed": "failure"}.get(b, b)
    b = raw
    if impact and order == "impact_first":
        b = bump(b)
    if armour_on and defence_cat:
        return "crit" if b == "crit" else "failure"
    if armour_on:
        b = drop(b)
    if impact and order == "armour_first":
        b = bump(b)
    return b


@pytest.mark.parametrize("impact, armour_on, order", [
    (False, False, "armour_first"), (True, False, "armour_first"), (False, True, "armour_first"),
    (True, True, "armour_first"), (True, True, "impact_first")])
def test_attack_odds_static_match_enumeration(impact, armour_on, order):
    w = tsl.make_weapon("Melee", ["Brutal"])
    counts, stresses, breaks = Counter(), Counter(), 0
    for r in ALL_ROLLS:
        total = sum(sorted(r, reverse=True)[:3])  # Proficient −1 out of zone → keep 3
        m = total - 12
        raw = "catastrophic" if m <= -7 else "failure" if m <= 0 else "mixed" if m <= 2 \
            else "success" if m <= 6 else "crit"
        b = _final(raw, False, impact, armour_on, order)
        counts[b] += 1
        stresses[{"mixed": 1, "success": 2, "crit": 4}.get(b, 0)] += 1
        breaks += raw == "catastrophic"
    odds = tsl.attack_odds("Proficient", target=12, weapon=w, distance="Near", impact=impact,
                           armour=armour_on, order=order)
    assert odds.keep == 3 and odds.shift == -1
    assert odds.bands == {b: Fraction(counts[b], 6 ** 5) for b in tsl.BANDS}
    assert odds.stress == {s: Fraction(n, 6 ** 5) for s, n in sorted(stresses.items())}
    assert odds.weapon_breaks == Fraction(breaks, 6 ** 5)


def test_attack_odds_opposed_match_enumeration():
    c3 = Counter(sum(sorted(r, reverse=True)[:3]) for r in ALL_ROLLS)
    c2 = Counter(sum(sorted(r, reverse=True)[:2]) for r in ALL_ROLLS)
    counts, spent = Counter(), 0
    for ta, na in c3.items():
        for td, nd in c2.items():
            m = ta - td
            raw = "catastrophic" if m <= -5 else "failure" if m <= 0 else "mixed" if m <= 2 \
                else "success" if m <= 6 else "crit"
            cat = -m <= -5
            counts[_final(raw, cat, False, True)] += na * nd
            spent += na * nd if cat else 0
    odds = tsl.attack_odds("Trained", defender_tier="Untrained", armour=True,
                           bands="close_catastrophe")
    assert odds.bands == {b: Fraction(counts[b], 6 ** 10) for b in tsl.BANDS}
    assert odds.armour_spent == Fraction(spent, 6 ** 10)


# --- Hostile input, each refused naming the input -------------------------------------------

@pytest.mark.parametrize("call, message", [
    (lambda: tsl.make_weapon("Melee", tags=5), "tags must be a list of tag names, got 5"),
    (lambda: tsl.make_weapon("Melee", ["Vorpal"]), "tags must be one of Reach"),
    (lambda: tsl.make_weapon("Melee", ["Reach"], name=7), "name must be text, got 7"),
    (lambda: tsl.opposed_odds("Trained", "Trained", attacker_shift=None),
     "attacker_shift must be a whole number, got None"),
    (lambda: tsl.opposed_odds("Trained", "Master"), "defender_tier must be one of"),
    (lambda: tsl.opposed_roll([1, 2, 3, 4, 5], "Trained", [1, 2], "Trained"),
     r"defender_dice must be 5 faces \(5d6\), got 2"),
    (lambda: tsl.attack([1, 2, 3, 4, 5], "Trained", target=9, out_of_zone="far"),
     "out_of_zone must be one of"),
    (lambda: tsl.attack([1, 2, 3, 4, 5], "Trained", target=9, defender_tier="Trained"),
     "defender_tier must be None against a static target"),
    (lambda: tsl.keep_distribution([3]), "keep must be a whole number"),
    (lambda: tsl.defence_domain("Melee weapon", described="yes"),
     "described must be True or False"),
    (lambda: tsl.spend(tsl.TurnState(), "Movement", ally_zone=3), "ally_zone must be one of"),
    (lambda: tsl.new_encounter(["A", "A"]), "order must not repeat"),
    (lambda: tsl.next_turn(tsl.Encounter(("A",), round="x")), "enc.round must be a whole number"),
    (lambda: tsl.attack([1, 2, 3, 4, 5], "Trained", target=9, distance="Near",
                        weapon=tsl.Weapon("Artillery", ("Reach",))), "weapon: zone must be one of"),
    (lambda: tsl.band_for(10**30), "margin must be from -100 to 100"),
])
def test_hostile_input_is_refused_naming_the_input(call, message):
    with pytest.raises(RulesError, match=message):
        call()
