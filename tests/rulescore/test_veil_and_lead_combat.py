"""The Veil & Lead: initiative (§II), the attack sequence (§VI), firing into melee (§VII) and
special situations (§XIII)."""

import pytest

from rulescore import RulesError
from rulescore.systems import veil_and_lead as vl

CALEB = dict(attribute=3, skill=3, defense=9, weapon="Peacemaker", band="Far",
             cover="Hard Cover")


# --- initiative ---------------------------------------------------------------------------------

def test_initiative_bands_from_a_roll():
    r = vl.initiative([2, 3, 5, 6, 7, 8], quick=3, awareness=3)
    assert isinstance(r, vl.InitiativeResolution)
    assert (r.final_sum, r.margin, r.tick, r.state, r.value, r.outcome) == \
        (15, 4, 3, "Ready", 3, "Ready")
    assert r.tn == 11 and r.pool == 6


def test_initiative_failure_is_surprised():
    r = vl.initiative([1, 2, 4, 6], quick=2, awareness=2)
    assert (r.margin, r.tick, r.state) == (-1, 6, "Surprised")


def test_initiative_ceiling_and_ambush():
    # §II Initiative Ceiling: QUICK 5 + Awareness 4, all eights → 16, margin 5 → Tick 3.
    eights = [8] * 9
    assert vl.initiative(eights, 5, 4).value == 3
    assert vl.initiative(eights, 5, 4, ambush=True).state == "Fast"            # margin 7
    assert vl.initiative(eights, 5, 4, ambush=True, supernatural=3).state == "Instant"
    assert vl.initiative(eights, 5, 4, off_guard=True).margin == 3


def test_initiative_fatigue_costs_a_die_and_dice_must_match():
    r = vl.initiative([8, 8, 1, 1, 1], quick=3, awareness=3, fatigued=True)
    assert r.pool == 5 and r.margin == 5
    with pytest.raises(RulesError, match=r"faces must be 5 d8 \(quick 3 \+ awareness 3, fatigued −1\), got 6"):
        vl.initiative([8] * 6, quick=3, awareness=3, fatigued=True)


def test_initiative_bleed_dice_join_the_roll():
    r = vl.initiative([1, 1], quick=1, awareness=1, bleed=[8, 7])
    assert r.final_sum == 15
    with pytest.raises(RulesError, match="bleed must be 0 to 3"):
        vl.initiative([1, 1], quick=1, awareness=1, bleed=[1, 1, 1, 1])


def test_initiative_ironbrand_lowers_quick_for_timing():
    r = vl.initiative([8, 8, 1, 1, 1], quick=3, awareness=3, armour="Ironbrand Suit")
    assert r.pool == 5
    assert any("ironbrand_quick" in s.rule.rulings and "ironbrand_quick" not in str(s.rule)
               for s in r.trace)


# --- the attack sequence ------------------------------------------------------------------------

def test_complete_attack_example():
    # §VI The Complete Attack Example.
    r = vl.attack([2, 3, 5, 6, 7, 8], aim_actions=2, roll_bonus=2, critical=1, **CALEB)
    assert isinstance(r, vl.AttackResolution)
    assert (r.pool, r.tn, r.base_sum, r.roll_bonus, r.final_sum) == (6, 15, 15, 5, 20)
    assert (r.hit, r.margin, r.steps, r.damage, r.value, r.outcome) == (True, 5, 2, 5, 5, "Hit")
    assert r.grievous and r.tempo == 4 and r.exposed_after is False
    text = r.explain()
    assert "Defense 9 +4 (Hard Cover) +2 (Far range (pistol)) = 15" in text
    assert "Margin: 20 − 15 = 5" in text and "margin 5 ÷ 3 = 1, + Critical 1" in text
    sections = {s.rule.section for s in r.trace}
    assert {"VI The Attack Sequence", "VIII Calculating Damage"} <= sections


def test_attack_tn_helper_matches_the_example():
    assert vl.attack_tn(9, cover="Hard Cover", weapon="Peacemaker", band="Far") == 15
    assert vl.attack_tn(10, weapon="Hatchet", band="Point-Blank",
                        target_conditions=["Prone"]) == 8
    assert vl.attack_tn(10, weapon="Repeater", band="Near", target_conditions=["Prone"]) == 12


def test_attack_miss_and_near_miss_suppresses_gunfire_only():
    near = vl.attack([1, 2, 3, 4, 6, 7], **CALEB)          # 13 vs 15
    assert (near.hit, near.margin, near.near_miss, near.suppresses, near.outcome) == \
        (False, -2, True, True, "Near miss")
    assert near.value == 0 and near.damage == 0
    far_off = vl.attack([1, 2, 3, 4, 5, 6], **CALEB)        # 11 vs 15
    assert (far_off.near_miss, far_off.suppresses, far_off.outcome) == (False, False, "Miss")
    melee = vl.attack([5, 4], attribute=1, skill=1, defense=11, weapon="Hatchet",
                      action="Strike", band="Point-Blank")
    assert melee.near_miss and not melee.suppresses


def test_pool_penalties_stack_to_five():
    r = vl.attack([8], attribute=3, skill=3, defense=9, weapon="Peacemaker",
                  action="Quick Shot", attacker_conditions=["Suppressed", "Blinded"],
                  band="Close")
    assert r.pool == 1 and r.final_sum == 8
    assert any("stop at −5" in s.text for s in r.trace)
    with pytest.raises(RulesError, match=r"faces must be 1 d8 \(a pool of 1\), got 2"):
        vl.attack([8, 8], attribute=3, skill=3, defense=9, action="Quick Shot",
                  attacker_conditions=["Suppressed", "Blinded"], band="Close")


def test_pool_of_zero_rolls_nothing_or_two_with_floor():
    kw = dict(attribute=1, skill=1, defense=9, pool_penalty=3, band="Close")
    r = vl.attack([], roll_bonus=9, **kw)
    assert r.pool == -1 and r.final_sum == 9 and r.hit
    r2 = vl.attack([4, 5], small_pool="floor_two", **kw)
    assert r2.base_sum == 9 and r2.hit


def test_conditions_apply_to_the_right_attacks():
    # Engaged: −2 dice to ranged attacks, not to melee ones.
    ranged = vl.attack([8, 8], attribute=2, skill=2, defense=9, attacker_conditions=["Engaged"],
                       band="Point-Blank")
    assert ranged.pool == 2
    melee = vl.attack([8, 8, 8, 8], attribute=2, skill=2, defense=9, weapon="Hatchet",
                      action="Strike", band="Point-Blank", attacker_conditions=["Engaged"])
    assert melee.pool == 4
    # Prone attacker: −2 dice in melee, +1 roll bonus braced with a gun.
    prone = vl.attack([8, 8, 8, 8], attribute=2, skill=2, defense=9, band="Near",
                      attacker_conditions=["Prone"], braced=True)
    assert prone.pool == 4 and prone.roll_bonus == 1
    # A Flesh Wound costs a die on attacks; a Concussion (mental) does not.
    assert vl.attack([8, 8, 8], attribute=2, skill=2, defense=9,
                     attacker_conditions=["Flesh Wound", "Concussion"]).pool == 3
    # Wounded costs one die on physical actions.
    assert vl.attack([8, 8, 8], attribute=2, skill=2, defense=9,
                     attacker_conditions=["Wounded"]).pool == 3


@pytest.mark.parametrize("conditions, weapon, band, tn", [
    (["Exposed"], "Peacemaker", "Near", 9), (["Surprised"], "Peacemaker", "Near", 8),
    (["Prone"], "Peacemaker", "Near", 12), (["Prone"], "Hatchet", "Point-Blank", 8),
    (["Scrambling"], "Peacemaker", "Near", 11), (["Exposed", "Prone"], "Repeater", "Near", 11),
])
def test_target_conditions_change_the_tn(conditions, weapon, band, tn):
    action = "Strike" if weapon == "Hatchet" else "Steady Shot"
    r = vl.attack([5, 5, 5, 5], attribute=2, skill=2, defense=10, weapon=weapon,
                  action=action, band=band, target_conditions=conditions)
    assert r.tn == tn


@pytest.mark.parametrize("weapon, band, tn, roll", [
    ("Peacemaker", "Point-Blank", 8, 0), ("Peacemaker", "Close", 10, 0),
    ("Peacemaker", "Near", 10, 0), ("Peacemaker", "Far", 12, 0), ("Peacemaker", "Extreme", 14, 0),
    ("Coach Gun", "Point-Blank", 8, 0), ("Coach Gun", "Near", 12, 0), ("Coach Gun", "Far", 14, 0),
    ("Repeater", "Point-Blank", 12, 0), ("Repeater", "Far", 10, 0),
    ("Repeater", "Extreme", 12, 0), ("Gatling Gun", "Extreme", 12, 0),
])
def test_range_modifiers(weapon, band, tn, roll):
    r = vl.attack([4, 4, 4, 4], attribute=2, skill=2, defense=10, weapon=weapon, band=band)
    assert (r.tn, r.roll_bonus) == (tn, roll)


def test_scoped_rifle_grid_and_shotgun_extreme():
    assert vl.range_modifier("scoped rifle", "Far").roll_modifier == 2
    assert vl.range_modifier("scoped rifle", "Point-Blank").tn_modifier == 2
    assert vl.range_modifier("scoped rifle", "Extreme").tn_modifier == 0
    r = vl.attack([8, 8, 8, 8], attribute=2, skill=2, defense=9, weapon="Sawed-Off",
                  band="Extreme")
    assert (r.automatic, r.hit, r.outcome, r.value) == (True, False, "Automatic failure", 0)


def test_attack_refusals():
    base = dict(attribute=2, skill=2, defense=9)
    with pytest.raises(RulesError, match="total cover cannot be attacked"):
        vl.attack([4] * 4, cover="Total Cover", **base)
    with pytest.raises(RulesError, match="band must be Point-Blank for a melee attack"):
        vl.attack([4] * 4, weapon="Saber", action="Strike", band="Close", **base)
    with pytest.raises(RulesError, match="Steady Shot' is a ranged attack"):
        vl.attack([4] * 4, weapon="Saber", band="Point-Blank", **base)
    with pytest.raises(RulesError, match="two-handed melee weapon for Heavy Cleave"):
        vl.attack([4] * 4, weapon="Hatchet", action="Heavy Cleave", band="Point-Blank", **base)
    with pytest.raises(RulesError, match="action must be an attack"):
        vl.attack([4] * 4, action="Reload (Speed)", **base)
    with pytest.raises(RulesError, match="cannot shoot beyond Close"):
        vl.attack([4] * 4, band="Near", attacker_conditions=["Blinded"], pool_penalty=0,
                  **{**base, "skill": 4, "attribute": 4})
    with pytest.raises(RulesError, match="called_location must be one of"):
        vl.attack([4] * 2, action="Called Shot", **base)
    with pytest.raises(RulesError, match="target_conditions must be one of"):
        vl.attack([4] * 4, target_conditions=["Sleepy"], **base)
    with pytest.raises(RulesError, match="aim_actions must be 0 for a melee attack"):
        vl.attack([4] * 4, weapon="Saber", action="Strike", band="Point-Blank", aim_actions=1,
                  **base)
    with pytest.raises(RulesError, match="band must be one of"):
        vl.attack([4] * 4, band="Miles", **base)


def test_called_shot_and_heavy_cleave_effects():
    head = vl.attack([8, 8], attribute=2, skill=2, defense=9, action="Called Shot",
                     called_location="Head")
    assert head.pool == 2 and head.tempo == 6 and head.effect == "Target is Stunned"
    cleave = vl.attack([8, 8, 1, 1], attribute=2, skill=2, defense=9, weapon="Sledgehammer",
                       action="Heavy Cleave", band="Point-Blank")
    assert cleave.hit and "Prone" in cleave.effect and cleave.tempo == 8


def test_shiv_loses_a_step():
    r = vl.attack([6, 5, 1, 1], attribute=2, skill=2, defense=11, weapon="Bowie Knife",
                  action="Shiv", band="Point-Blank", ar=2)
    assert (r.margin, r.steps, r.damage, r.exposed_after) == (0, -1, 0, True)


def test_firing_into_melee():
    kw = dict(attribute=2, skill=2, defense=9, band="Near", firing_into_melee=True)
    near = vl.attack([5, 3], **kw)                 # 8 vs 9: miss by 1
    assert near.pool == 2 and near.ally_risk
    wide = vl.attack([2, 3], **kw)
    assert not wide.ally_risk
    scatter = vl.attack([2, 3], **{**kw, "band": "Close"}, weapon="Coach Gun")
    assert scatter.ally_risk
    assert [vl.wrong_target(d) for d in range(1, 7)] == [True] * 3 + [False] * 3
    assert [vl.wrong_target(d, scatter=True) for d in range(1, 7)] == [True] * 4 + [False] * 2


def test_bleed_dice_and_backlash_option():
    r = vl.attack([2, 2, 2, 2], attribute=2, skill=2, defense=9, bleed=[8, 1])
    assert r.kept == (8, 2) and r.backlash is None
    r2 = vl.attack([2, 2, 2, 2], attribute=2, skill=2, defense=9, bleed=[8, 1],
                   backlash_rule="any_one")
    assert r2.backlash is True
    r3 = vl.attack([2, 2, 2, 2], attribute=2, skill=2, defense=9, bleed=[8],
                   backlash_rule="any_one")
    assert r3.backlash is False


def test_stationary_point_blank_cannot_be_missed():
    r = vl.attack([1, 2], attribute=1, skill=1, defense=12, band="Point-Blank",
                  stationary_target=True)
    assert r.hit and r.margin == 0 and r.damage == 3


def test_hardened_armour_negates_grievous_in_an_attack():
    kw = dict(attribute=3, skill=3, defense=9, weapon="Buffalo Rifle", band="Near")
    assert vl.attack([8, 8, 1, 1, 1, 1], **kw).grievous
    r = vl.attack([8, 8, 1, 1, 1, 1], ar=1, hardened=True, **kw)
    assert r.damage == 6 and not r.grievous


# --- grapple, resistance, coup de grâce, two weapons, hordes -------------------------------------

def test_grapple_and_resist():
    assert vl.grapple([6, 5, 1], iron=2, brawl=1, defense=11).outcome == "Grappled"
    assert vl.grapple([6, 4, 1], iron=2, brawl=1, defense=11).outcome == "Failed"
    assert vl.resist([6, 5], grit=1, resilience=1).outcome == "Resisted"
    assert vl.resist([6, 4], grit=1, resilience=1, effect="Prone").outcome == "Prone"
    with pytest.raises(RulesError, match=r"faces must be 3 d8 \(iron 2 \+ brawl 1\)"):
        vl.grapple([6, 5], iron=2, brawl=1, defense=11)


def test_coup_de_grace_uses_the_highest_sum():
    r = vl.coup_de_grace(3, 12, 1)          # 16 − 12 = 4 → 1 Step: 3 + 1 − 1
    assert (r.value, r.steps) == (3, 1)
    assert vl.coup_de_grace(5, 9, 0).value == 7       # margin 7 → 2 Steps
    assert vl.coup_de_grace(3, 20, 0).value == 3      # margin cannot fall below 0


def test_two_weapon_tempo():
    assert vl.two_weapon_tempo("Bowie Knife", "Bowie Knife") == 4     # §XIII example
    assert vl.two_weapon_tempo("Hatchet", "Brass Knuckles") == 5


def test_horde_rules():
    assert vl.horde_pool(4, 6) == 10                                  # §XIII example
    r = vl.horde_casualties(4, 4, 6)                                  # Caleb's Repeater
    assert (r.value, r.size, r.broken) == (3, 3, False)
    r2 = vl.horde_casualties(4, 4, 5)
    assert (r2.size, r2.broken, r2.outcome) == (2, True, "Broken")
    assert vl.horde_casualties(0, 3, 10).value == 1
    assert vl.horde_casualties(6, 4, 10, mass_destruction=True).value == 8
    assert vl.horde_casualties(30, 5, 3).size == 0
    assert (vl.horde_tempo("melee"), vl.horde_tempo("ranged")) == (6, 5)
    with pytest.raises(RulesError, match="size must be from 3 to 10, got 2"):
        vl.horde_pool(4, 2)


# --- mounted combat, rests, pacing --------------------------------------------------------------

def test_mounted_modifiers():
    m = vl.mounted_modifiers("Saber", first_charge_attack=True)
    assert (m.step_modifier, m.damage_bonus, m.pool_penalty) == (1, 2, 0)
    assert vl.mounted_modifiers("Saber", target_mounted=True).step_modifier == 0
    assert vl.mounted_modifiers("Repeater").pool_penalty == 2
    assert vl.mounted_modifiers("Repeater", mount_stationary=True).pool_penalty == 0
    assert vl.mounted_modifiers("Peacemaker").pool_penalty == 0
    m = vl.mounted_modifiers("Saber", first_charge_attack=True)
    r = vl.attack([6, 5, 1, 1], attribute=2, skill=2, defense=11, weapon="Saber",
                  action="Strike", band="Point-Blank", step_modifier=m.step_modifier,
                  damage_bonus=m.damage_bonus)
    assert r.damage == 4 + 1 + 2


def test_short_rest():
    assert vl.short_rest([6, 5], 3, 3, tension_pool=2).value == 4
    assert vl.short_rest([6, 4], 3, 3, tension_pool=0).value == 3
    with pytest.raises(RulesError, match="tension_pool must be below 4 for a Short Rest, got 4"):
        vl.short_rest([6, 5], 3, 3, tension_pool=4)


@pytest.mark.parametrize("ticks, dice, outcome", [
    (0, 1, "Short"), (9, 1, "Short"), (10, 2, "Ideal"), (20, 3, "Ideal"), (21, 3, "Long"),
    (30, 4, "Long"), (31, 4, "Dragging"),
])
def test_combat_pacing(ticks, dice, outcome):
    r = vl.combat_pacing(ticks)
    assert (r.value, r.outcome) == (dice, outcome)


def test_a_condition_named_twice_counts_once():
    r = vl.attack([8, 8], attribute=2, skill=2, defense=9,
                  attacker_conditions=["Suppressed", "Suppressed"],
                  target_conditions=("Prone", "Prone"))
    assert r.pool == 2 and r.tn == 11


def test_grappled_attacker_uses_light_weapons_at_tempo_3():
    ok = vl.attack([8, 8], attribute=1, skill=1, defense=9, weapon="Bowie Knife",
                   action="Strike", band="Point-Blank", attacker_conditions=["Grappled"])
    assert ok.tempo == 3
    assert vl.attack([8, 8], attribute=1, skill=1, defense=9, weapon="Derringer",
                     band="Point-Blank", attacker_conditions=["Grappled"]).tempo == 3
    with pytest.raises(RulesError, match="a Grappled attacker uses only a light weapon"):
        vl.attack([8, 8], attribute=1, skill=1, defense=9, weapon="Hatchet", action="Strike",
                  band="Point-Blank", attacker_conditions=["Grappled"])
    with pytest.raises(RulesError, match=r"Called Shot \(Tempo 5\)"):
        vl.attack([8, 8], attribute=2, skill=2, defense=9, weapon="Derringer",
                  action="Called Shot", called_location="Head", band="Point-Blank",
                  attacker_conditions=["Grappled"])
