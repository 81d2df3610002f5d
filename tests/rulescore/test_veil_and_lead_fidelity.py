"""The Veil & Lead: rules checked line by line against the seed chapter — suppression, actions
by weapon, the stabilisation fumble, the charge, the off hand, Called Shot limbs, the Downed,
falls from a mount and the named readings. Each expected value is worked out from the seed."""

from fractions import Fraction
from itertools import product

import pytest

from rulescore import RulesError
from rulescore.systems import veil_and_lead as vl
from rulescore.systems.veil_and_lead.encounter import Encounter


def _near_miss_by_enumeration(pool: int, tn: int) -> Fraction:
    """Chance that the two highest of *pool* d8 fall 1 or 2 short of *tn*, every roll counted."""
    near = sum(1 for roll in product(range(1, 9), repeat=pool)
               if 1 <= tn - sum(sorted(roll)[-2:]) <= 2)
    return Fraction(near, 8 ** pool)


# --- §XI Suppressed: only gunfire -----------------------------------------------------------

def test_a_melee_near_miss_never_suppresses_in_the_odds():
    """§XI Suppressed is triggered by a near miss from gunfire. A Hatchet Strike (QUICK 3 +
    skill 2 = 5d8 against Defense 11) misses by 1–2 with a sum of 9 or 10: 211/2048 of rolls
    are near misses, but none suppresses. A Peacemaker shot suppresses on every near miss."""
    near = _near_miss_by_enumeration(5, 11)
    assert near == Fraction(211, 2048)
    melee = vl.plan_attack(attribute=3, skill=2, defense=11, weapon="Hatchet", action="Strike",
                           band="Point-Blank").odds()
    assert melee.p_near_miss == near and melee.p_suppressed == 0
    gun = vl.plan_attack(attribute=3, skill=2, defense=11, weapon="Peacemaker",
                         band="Near").odds()
    assert gun.p_near_miss == near and gun.p_suppressed == near
    assert vl.attack_odds(5, 11, 4, gunfire=False).p_suppressed == 0
    assert vl.attack_odds(5, 11, 4).p_suppressed == near


def test_a_melee_near_miss_resolves_without_suppression():
    """§XI Suppressed: Hatchet dice 5, 4 against TN 10 sum 9, a miss by 1 — a near miss that
    leaves the target free of Suppression."""
    r = vl.attack([5, 4, 3, 2, 1], attribute=3, skill=2, defense=10, weapon="Hatchet",
                  action="Strike", band="Point-Blank")
    assert (r.margin, r.near_miss, r.suppresses) == (-1, True, False)
    assert not any("Suppressed" in s.text for s in r.trace)


# --- §III actions by weapon -----------------------------------------------------------------

def test_tempo_refuses_a_quick_shot_with_a_hatchet():
    """§III Quick Shot is a ranged attack: a Hatchet (medium melee) cannot make one."""
    with pytest.raises(RulesError, match=r"'Hatchet' cannot make a Quick Shot.*ranged.*Peacemaker"):
        vl.tempo("Quick Shot", "Hatchet")
    with pytest.raises(RulesError, match="Quick Shot"):
        vl.attack([5, 5, 5], attribute=2, skill=1, defense=10, weapon="Hatchet",
                  action="Quick Shot", band="Point-Blank")


def test_tempo_refuses_a_heavy_cleave_without_a_two_handed_weapon():
    """§III Heavy Cleave needs a two-handed melee weapon (only the Sledgehammer, assumption
    two_handed_weapons): a Peacemaker or a Hatchet cannot; the Sledgehammer's 6 + 2 = 8."""
    for weapon in ("Peacemaker", "Hatchet"):
        with pytest.raises(RulesError, match=rf"'{weapon}' cannot make a Heavy Cleave.*"
                                             r"two-handed.*Sledgehammer"):
            vl.tempo("Heavy Cleave", weapon)
    assert vl.tempo("Heavy Cleave", "Sledgehammer") == 8
    assert vl.tempo("Steady Shot", "Peacemaker") == 4 and vl.tempo("Shiv", "Bowie Knife") == 2


# --- §X Stabilization: the fumble -------------------------------------------------------------

def test_healer_dice_all_ones_are_a_fumble():
    """§X Stabilization: a patient at −1 needs TN 12; dice 1, 1, 1 sum 2 and fail, and a fumble
    costs 1 more Vitality: −1 → −2 (assumption fumble: every die a 1)."""
    r = vl.stabilize([1, 1, 1], -1)
    assert (r.value, r.outcome, r.fumble, r.stabilized, r.tn) == (-2, "Fumble", True, False, 12)
    plain = vl.stabilize([1, 1, 2], -1)
    assert (plain.value, plain.outcome, plain.fumble) == (-1, "Still bleeding", False)
    declared_only = vl.stabilize([1, 1, 1], -1, fumble_rule="declared")
    assert (declared_only.value, declared_only.fumble) == (-1, False)


# --- §V Rush / Charge with an attack on arrival ---------------------------------------------

def test_rush_charge_attacks_on_arrival_at_one_more_tempo():
    """§V Movement Actions: Rush / Charge is Tempo 4; a melee attack on reaching the enemy adds
    1, so 5 (assumption charge_attack_tempo), with the full pool: 3 + 2 = 5 d8. Tempo 5 does
    not expose (§IV). A gun cannot make it."""
    assert vl.tempo("Rush / Charge") == 4
    assert vl.tempo("Rush / Charge", "Hatchet", attack_on_arrival=True) == 5
    r = vl.attack([8, 6, 1, 1, 1], attribute=3, skill=2, defense=10, weapon="Hatchet",
                  action="Rush / Charge", band="Point-Blank")
    assert (r.tempo, r.pool, r.exposed_after, r.hit, r.margin) == (5, 5, False, True, 4)
    assert r.damage == 4 + 1                      # Hatchet WR 4 + 1 Step (4 ÷ 3)
    with pytest.raises(RulesError, match="melee weapon"):
        vl.tempo("Rush / Charge", "Peacemaker", attack_on_arrival=True)
    with pytest.raises(RulesError, match="attack_on_arrival is only for Rush / Charge"):
        vl.tempo("Sprint", "Hatchet", attack_on_arrival=True)


# --- §XIII Two-Weapon Fighting: the off hand ---------------------------------------------------

def test_the_off_hand_attack_rolls_two_dice_fewer():
    """§XIII Two-Weapon Fighting: two knives, main hand at the full pool, off hand −2 dice,
    together Tempo 3 + 1 = 4. QUICK 3 + skill 3: 6 dice and 4 dice."""
    knife = dict(attribute=3, skill=3, defense=10, weapon="Bowie Knife", action="Strike",
                 band="Point-Blank")
    assert vl.plan_attack(**knife).pool == 6
    off = vl.plan_attack(**knife, off_hand=True)
    assert off.pool == 4 and off.dice_to_roll == 4
    assert any(s.text == "Off-hand attack: −2 dice" for s in off.trace)
    assert vl.two_weapon_tempo("Bowie Knife", "Bowie Knife") == 4
    with pytest.raises(RulesError, match=r"faces must be 4 d8"):
        vl.attack([5] * 6, **knife, off_hand=True)


# --- §III Called Shot: the limb and movement ----------------------------------------------------

def test_called_shot_limbs_cost_two_dice_where_the_seed_says():
    """§III Called Shot: an Arm/Hand hit costs 2 dice on actions with that limb, a Leg hit 2
    dice on movement checks (and halves Speed). A pool of 6 falls to 4 only where it applies."""
    assert vl.pool_with_conditions(6, ["Leg Hit"], kind="movement").value == 4
    assert vl.pool_with_conditions(6, ["Leg Hit"], kind="ranged").value == 6
    assert vl.pool_with_conditions(6, ["Arm Hit"], kind="limb").value == 4
    assert vl.pool_with_conditions(6, ["Arm Hit"], kind="movement").value == 6
    # Leg Hit 2 + Suppressed 2 + Wounded 1 = 5 on a movement check: the −5 cap is reached.
    assert vl.pool_with_conditions(6, ["Leg Hit", "Suppressed", "Wounded"],
                                   kind="movement").value == 1
    shot = vl.plan_attack(attribute=3, skill=3, defense=10, attacker_conditions=["Arm Hit"])
    assert shot.pool == 4
    assert vl.plan_attack(attribute=3, skill=3, defense=10,
                          attacker_conditions=["Leg Hit"]).pool == 6
    assert vl.effective_speed(8, leg_hit=True) == 4
    with pytest.raises(RulesError, match="kind must be one of"):
        vl.pool_with_conditions(6, ["Leg Hit"], kind="running")


# --- §X Bleeding Out: only Crawl or Speak ---------------------------------------------------

def test_a_downed_fighter_may_only_crawl():
    """§X Bleeding Out: a Downed character takes no action but Crawl (2 m, Tempo 6) or Speak
    (Tempo 0, which does not move the token). From Tick 4, a Crawl lands on Tick 10."""
    enc = Encounter().join("Ada", pc=True, quick=3, margin=1)          # Tick 4
    enc, _ = enc.next_turn()
    enc = enc.set_condition("Ada", "Downed")
    with pytest.raises(RulesError, match="Downed and may only Crawl.*Speak.*'Strike'"):
        enc.act("Ada", 4, action="Strike")
    with pytest.raises(RulesError, match="Downed"):
        enc.act("Ada", 4)
    with pytest.raises(RulesError, match="Downed"):
        enc.hold("Ada", "when help comes")
    assert enc.act("Ada", vl.tempo("Crawl"), action="Crawl").fighter("Ada").tick == 10
    holding = Encounter().join("Bo", pc=True, quick=3, margin=1)
    holding, _ = holding.next_turn()
    holding = holding.hold("Bo", "the door opens").set_condition("Bo", "Downed")
    with pytest.raises(RulesError, match="Downed and may only Crawl or Speak"):
        holding.release("Bo", 4)
    with pytest.raises(RulesError, match="Downed character may only Crawl"):
        vl.plan_attack(attribute=3, skill=3, defense=10, attacker_conditions=["Downed"])


# --- §XIII Mounted Combat: the fall --------------------------------------------------------

def test_falling_from_a_mount_costs_one_d3_and_leaves_the_rider_prone():
    """§XIII Mounted Combat: a fall deals 1d3 and the rider is Prone. IRON 3 (11 Vitality) at
    Vitality 5 with a 3: 2, still Wounded; at 2 with a 3: −1, Downed."""
    r = vl.mount_fall(3, 5, 3)
    assert (r.value, r.outcome) == (2, "Prone, Wounded")
    assert vl.mount_fall(3, 2, 3).outcome == "Prone, Downed"
    assert vl.mount_fall(1, 11, 3).value == 10
    with pytest.raises(RulesError, match="d3 must be"):
        vl.mount_fall(4, 11, 3)


# --- the named readings ---------------------------------------------------------------------

def test_iron_3_example_wounded_at_five_of_eleven():
    """§VIII The Health Track example: IRON 3, 11 Vitality, Healthy above 5, Wounded at 5 or
    below, Downed at 0, dead at −5 (assumption wounded_odd_vitality)."""
    assert vl.vitality(3) == 11
    states = {v: vl.health_state(v, 3) for v in (6, 5, 1, 0, -4, -5)}
    assert states == {6: "Healthy", 5: "Wounded", 1: "Wounded", 0: "Downed", -4: "Downed",
                      -5: "Dead"}


def test_tension_dice_come_with_the_red_lines():
    """§I The Cylinder's red Tension Lines at 0 and 10, §XV one die at the start and one per 10
    ticks (assumption tension_lines): 9 ticks 1 die, 10 ticks 2, 30 ticks 4."""
    assert vl.red_lines() == (0, 10)
    assert [vl.tension_dice(t) for t in (0, 9, 10, 19, 20, 30)] == [1, 1, 2, 2, 3, 4]


def test_every_named_reading_of_this_sweep_is_recorded():
    from rulescore.assumptions import load_assumptions
    ids = {a.id for a in load_assumptions("veil_and_lead")}
    assert {"wounded_odd_vitality", "aim_shift", "tension_lines", "duster_concealment",
            "charge_attack_tempo", "called_limb", "fall_damage", "fumble"} <= ids
    assert "duster_concealment" in vl.armour("Duster").notes


def test_a_scatter_gun_risks_the_ally_on_any_miss():
    """§VII Scatter Weapons: a scatter gun that misses by any margin rolls for the wrong
    target (1–4 on a d6); an ordinary gun only on a miss by 1–2 (1–3). Sums 5 against TN 9
    miss by 4: the Coach Gun risks the ally, the Peacemaker does not. The printed table says
    the same."""
    kw = dict(attribute=2, skill=2, defense=9, firing_into_melee=True)
    assert vl.attack([2, 3], **kw, weapon="Coach Gun", band="Close").ally_risk
    assert not vl.attack([2, 3], **kw, weapon="Peacemaker", band="Close").ally_risk
    from rulescore.systems.veil_and_lead._system import DATA
    rows = {r["weapon"]: r for r in DATA.table("conditions", "firing_into_melee")}
    assert rows["scatter"]["misses_that_risk_the_ally"].startswith("Any miss")
    assert rows["ordinary"]["misses_that_risk_the_ally"] == "A miss by 1 or 2"
    assert [vl.wrong_target(d, scatter=True) for d in range(1, 7)].count(True) == 4


def test_an_overturned_wagon_is_hard_cover():
    """§V Cover: an overturned wagon is among the examples of Hard Cover, +4 to the TN."""
    from rulescore.systems.veil_and_lead._system import DATA
    hard = [r for r in DATA.table("ranges", "cover") if "wagon" in r["examples"]]
    assert [r["cover"] for r in hard] == ["Hard Cover"]
    assert vl.attack_tn(9, cover="Hard Cover") == 13
