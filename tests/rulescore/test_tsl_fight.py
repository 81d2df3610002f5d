"""A whole TSL fight (primer §11): pools filled by attacks and Breaking, spent armour and
broken weapons carried until repaired, ammunition carried from roll to roll, the turn board,
saving. Expected values come from the primer's §11 text (Damage, Armour, Ammunition)."""

import json

import pytest

from rulescore import RulesError
from rulescore.dice import DiceSource
from rulescore.roster import Roster
from rulescore.systems import tsl
from rulescore.systems.tsl.fight import gear_rarity, row_weapon, weapon_attack


def roster() -> Roster:
    return (Roster(tsl.ROSTER)
            .add("Vela", pc=True, tier_hand="Proficient", weapon_zone="Sidearm")
            .add("Thug", kind="grunt", weapon_zone="Melee", attack_domain="Body",
                 tag1="Brutal", armour=True)
            .add("Mar", pc=True, weapon_zone="Thrown", improvised=True, tag1="(none)"))


def started():
    r = roster()
    return r, tsl.Fight().start(list(r.fighters)).fight


def test_start_gives_each_fighter_pools_of_their_kind_and_their_ammunition():
    """§11 Damage (ruling stress_pool_size): a character's pools hold 4, a Grunt's 2;
    §11 Ammunition: a Sidearm starts with 12 uses, a Thrown weapon 3, a Melee weapon none."""
    _, fight = started()
    assert fight.of("Vela").pools.sizes == (4, 4, 4)
    assert fight.of("Thug").pools.sizes == (2, 2, 2)
    assert (fight.of("Vela").uses, fight.of("Thug").uses, fight.of("Mar").uses) == (12, None, 3)
    assert fight.encounter.order == ("Vela", "Thug", "Mar") and fight.acting == "Vela"


def test_a_pool_size_on_the_roster_wins_over_the_kind():
    r = Roster(tsl.ROSTER).add("Big", pool_size=6)
    fight = tsl.Fight().start(list(r.fighters)).fight
    assert fight.of("Big").pools.sizes == (6, 6, 6)


def test_inputs_come_from_the_rows_and_the_fight():
    """The attacker rolls their tier in the domain they attack with; the defender their tier in
    the domain that defends against a ranged weapon (Hand, §11 Defence)."""
    r, fight = started()
    setup = fight.attack_inputs(r.fighter("Vela"), r.fighter("Thug"), distance="Near")
    assert setup["tier"] == "Proficient"
    assert setup["attack_type"] == "Ranged weapon"
    assert setup["defender_tier"] == "Trained"
    assert setup["uses"] == 12
    assert setup["target_pools"] == fight.of("Thug").pools
    assert setup["weapon"] == row_weapon(r.fighter("Vela"))
    assert setup["armour"] is False          # the GM did not judge it built for the blow
    fits = fight.attack_inputs(r.fighter("Vela"), r.fighter("Thug"), armour_fits=True)
    assert fits["armour"] is True
    static = fight.attack_inputs(r.fighter("Vela"), r.fighter("Thug"), opposed=False,
                                 target_number=11)
    assert static["target"] == 11 and "defender_tier" not in static


def test_an_applied_attack_fills_the_pool_and_a_full_pool_breaks():
    """§11 Damage: a Success deals 2 Stress; a Grunt's pool of 2 is then full: it Breaks."""
    r, fight = started()
    setup = fight.attack_inputs(r.fighter("Vela"), r.fighter("Thug"), opposed=False,
                                target_number=11, distance="Near")
    result = tsl.attack(DiceSource.typed([6, 4, 3, 3, 1]), **setup)   # 16 against T11
    assert result.outcome == "success" and result.stress == 2
    move = fight.apply("Vela", "Thug", result)
    thug = move.fight.of("Thug")
    assert thug.pools.stress("Body") == 2 and thug.broken
    assert move.fight.of("Vela").uses == 11               # one use spent, carried on
    assert move.fight.encounter.state("Vela").action_used
    assert "Broken" in move.line
    with pytest.raises(RulesError, match="Vela has used the Action this turn"):
        move.fight.attack_inputs(r.fighter("Vela"), r.fighter("Mar"))
    # the Thug is passed over on the board, and cannot attack
    nxt = move.fight.next_turn()
    assert nxt.fight.acting == "Mar" and "Thug Broken" in nxt.line
    with pytest.raises(RulesError, match="Thug has Broken"):
        move.fight.attack_inputs(r.fighter("Thug"), r.fighter("Vela"))


def test_a_catastrophic_defence_spends_the_armour_until_repaired():
    """§11 Armour: on a Catastrophic defence the armour takes the blow and is spent until
    repaired; a later attack gets nothing from it."""
    r, fight = started()
    setup = fight.attack_inputs(r.fighter("Vela"), r.fighter("Thug"), armour_fits=True,
                                distance="Near")
    # Vela Proficient 6+6+5+4 = 21; the Thug's Trained defence 1+1+1 = 3: Catastrophic
    result = tsl.attack(DiceSource.typed([6, 6, 5, 4, 1, 1, 1, 1, 1, 1]), **setup)
    assert result.armour_spent
    after = fight.apply("Vela", "Thug", result).fight
    assert after.of("Thug").armour_spent
    later = after.attack_inputs(r.fighter("Mar"), r.fighter("Thug"), armour_fits=True)
    assert later["armour"] is False
    repaired = after.repair("Thug", "armour", tsl.repair("Issued")).fight
    assert not repaired.of("Thug").armour_spent
    with pytest.raises(RulesError, match="not spent"):
        repaired.repair("Thug", "armour", tsl.repair("Issued"))


def test_a_broken_weapon_cannot_attack_until_repaired():
    """§11 Improvised Weapons: an improvised weapon breaks on any Failure; it is unusable
    until repaired."""
    r, fight = started()
    fight = fight.next_turn().fight.next_turn().fight     # Mar's turn
    setup = fight.attack_inputs(r.fighter("Mar"), r.fighter("Thug"), opposed=False,
                                target_number=20, distance="Near")
    result = tsl.attack(DiceSource.typed([2, 2, 2, 1, 1]), **setup)
    assert result.weapon_breaks
    after = fight.apply("Mar", "Thug", result).fight
    assert after.of("Mar").weapon_broken and after.of("Mar").uses == 2
    for _ in range(3):            # round 2 comes back to Mar, Action fresh, weapon still broken
        after = after.next_turn().fight
    assert after.acting == "Mar" and after.of("Mar").weapon_broken
    with pytest.raises(RulesError, match="broken and cannot attack until it is repaired"):
        after.attack_inputs(r.fighter("Mar"), r.fighter("Thug"))
    fixed = after.repair("Mar", "weapon", tsl.repair("Issued")).fight
    assert fixed.attack_inputs(r.fighter("Mar"), r.fighter("Thug"))["uses"] == 2


def test_a_repair_follows_the_gears_rarity():
    """§11 Ammunition: Issued gear is mended with tools and downtime, no roll; rarer gear only
    when its Hand roll at T11 lands (Mixed or better); irreplaceable gear may be gone for good,
    and then stays out of use."""
    _, fight = started()
    from dataclasses import replace
    broken = fight._set(replace(fight.of("Mar"), weapon_broken=True))
    issued = broken.repair("Mar", "weapon", tsl.repair("Issued"))
    assert not issued.fight.of("Mar").weapon_broken
    assert issued.line == "Mar's weapon is repaired with tools and downtime"
    # the same faces 6, 5, 1, 1, 1 at T11: Trained (12) mends Salvaged gear, Untrained (11) not
    mended = broken.repair("Mar", "weapon", tsl.repair("Salvaged", dice=[6, 5, 1, 1, 1],
                                                       tier="Trained"))
    assert not mended.fight.of("Mar").weapon_broken
    assert mended.line == "Mar's weapon is repaired by a Hand roll of 12"
    failed = broken.repair("Mar", "weapon", tsl.repair("Salvaged", dice=[6, 5, 1, 1, 1]))
    assert failed.fight.of("Mar").weapon_broken and failed.line == (
        "Mar's weapon is not mended (Hand roll 11)")
    lost = broken.repair("Mar", "weapon", tsl.repair("Anomalous", irreplaceable=True))
    assert lost.fight.of("Mar").lost == ("weapon",) and lost.fight.of("Mar").weapon_broken
    assert lost.line == "Mar's weapon is gone for good"
    with pytest.raises(RulesError, match="result must be a repair resolved"):
        broken.repair("Mar", "weapon", "Issued")
    broken.check_repair("Mar", "weapon")
    with pytest.raises(RulesError, match="Mar's armour is not spent"):
        broken.check_repair("Mar", "armour")
    with pytest.raises(RulesError, match="what must be one of"):
        broken.check_repair("Mar", "boots")


def test_gear_lost_for_good_is_never_repaired_and_is_saved():
    """§11 Ammunition (ruling lost_gear): irreplaceable gear destroyed is lost for good on the
    fighter: a later repair, an attack with the weapon and a restock are refused; the fighter's
    other gear is still mended; the loss is saved and read back, and a saved fight without it
    has lost nothing."""
    r, fight = started()
    from dataclasses import replace
    worn = fight._set(replace(fight.of("Mar"), weapon_broken=True))
    worn = worn._set(replace(worn.of("Thug"), armour_spent=True))
    gone = worn.repair("Mar", "weapon", tsl.repair("Anomalous", irreplaceable=True)).fight
    assert gone.of("Mar") == replace(worn.of("Mar"), lost=("weapon",))
    for mend in (lambda: gone.check_repair("Mar", "weapon"),
                 lambda: gone.repair("Mar", "weapon", tsl.repair("Issued"))):
        with pytest.raises(RulesError, match="^Mar's weapon is lost for good: it cannot be "
                                             "repaired$"):
            mend()
    with pytest.raises(RulesError, match="^Mar's weapon is lost for good and cannot attack$"):
        gone.attack_inputs(r.fighter("Mar"), r.fighter("Thug"))
    with pytest.raises(RulesError, match="nothing to restock"):
        gone.restock("Mar", r.fighter("Mar"))
    armour = gone.repair("Thug", "armour", tsl.repair("Anomalous", irreplaceable=True)).fight
    assert armour.of("Thug").lost == ("armour",) and armour.of("Mar").lost == ("weapon",)
    assert tsl.Fight.from_json(armour.to_json()) == armour
    older = json.loads(armour.to_json())
    for kit in older["kits"]:
        del kit["lost"]
    assert all(k.lost == () for k in tsl.Fight.from_json(json.dumps(older)).kits)
    wrong = json.loads(armour.to_json())
    wrong["kits"][1]["armour_spent"] = False
    with pytest.raises(RulesError, match=r"kits\[2\]\.lost holds armour, so its armour must be "
                                         "spent"):
        tsl.Fight.from_json(json.dumps(wrong))


def test_armour_and_weapon_each_carry_their_own_rarity():
    """§11 Weapons & Gear: rarity is where a piece of gear came from, and armour is worn gear
    apart from the weapon; §11 Ammunition mends each by its own rarity. A new fighter's armour
    and weapon are Issued."""
    r = roster().update("Thug", rarity="Anomalous", armour_rarity="Salvaged")
    thug = r.fighter("Thug")
    assert gear_rarity(thug, "weapon") == "Anomalous" == row_weapon(thug).rarity
    assert gear_rarity(thug, "armour") == "Salvaged"
    vela = r.fighter("Vela")
    assert (gear_rarity(vela, "armour"), gear_rarity(vela, "weapon")) == ("Issued", "Issued")
    with pytest.raises(RulesError, match="what must be one of"):
        gear_rarity(thug, "boots")
    with pytest.raises(RulesError, match="Armour rarity of Thug must be one of 'Issued', "
                                         "'Salvaged', 'Anomalous', got 'Gold'"):
        r.set("Thug", "armour_rarity", "Gold")


def test_a_roster_saved_without_the_armours_rarity_still_loads():
    """A roster file written before armour had a rarity of its own loads with the armour
    Issued (the column's default) and the weapon's rarity as saved; a bad armour rarity in a
    file is refused naming the field."""
    saved = json.loads(roster().update("Thug", rarity="Salvaged").to_json())
    for item in saved["fighters"]:
        del item["armour_rarity"]
    loaded = Roster.from_json(tsl.ROSTER, json.dumps(saved))
    assert loaded.fighter("Thug")["armour_rarity"] == "Issued"
    assert loaded.fighter("Thug")["rarity"] == "Salvaged"
    assert loaded.fighter("Thug")["armour"] is True
    saved["fighters"][1]["armour_rarity"] = "Gold"
    with pytest.raises(RulesError, match="Armour rarity of Thug must be one of"):
        Roster.from_json(tsl.ROSTER, json.dumps(saved))


def test_no_ammunition_no_attack_until_restocked():
    """§11 Ammunition: at 0 uses the weapon cannot attack until restocked."""
    r, fight = started()
    from dataclasses import replace
    fight = fight._set(replace(fight.of("Vela"), uses=0))
    with pytest.raises(RulesError, match="0 ammunition uses left"):
        fight.attack_inputs(r.fighter("Vela"), r.fighter("Thug"))
    restocked = fight.restock("Vela", r.fighter("Vela")).fight
    assert restocked.of("Vela").uses == 12


def test_the_attack_needs_the_attackers_turn():
    r, fight = started()
    setup = fight.attack_inputs(r.fighter("Thug"), r.fighter("Vela"))
    result = tsl.attack(DiceSource.typed([6, 6, 5, 4, 1, 1, 1, 1, 1, 1]), **setup)
    with pytest.raises(RulesError, match="attacker must be Vela"):
        fight.apply("Thug", "Vela", result)


def test_a_support_actions_cost_is_marked_on_the_users_pool():
    """§11 Support Actions: Ground a Path-walker costs the Action and 1 Spirit Stress."""
    _, fight = started()
    move = fight.take("Vela", "Ground a Path-walker", ally_zone="Near")
    assert move.fight.of("Vela").pools.stress("Spirit") == 1
    assert move.fight.encounter.state("Vela").action_used


def test_set_stress_and_rename_and_saving_round_trip():
    _, fight = started()
    fight = fight.set_stress("Thug", "Body", 2).fight
    assert fight.of("Thug").broken
    fight = fight.set_stress("Thug", "Body", 0).fight
    assert not fight.of("Thug").broken
    renamed = fight.rename("Thug", "Brute")
    assert renamed.encounter.order == ("Vela", "Brute", "Mar")
    assert renamed.of("Brute").pools.kind == "grunt"
    assert tsl.Fight.from_json(renamed.to_json()) == renamed
    assert tsl.Fight.from_json(tsl.Fight().to_json()) == tsl.Fight()
    with pytest.raises(RulesError, match="Vela"):
        fight.rename("Thug", "Vela")


def test_a_damaged_saved_fight_is_refused_naming_the_field():
    _, fight = started()
    text = fight.to_json().replace('"marked":[0,0,0]', '"marked":[9,0,0]', 1)
    with pytest.raises(RulesError, match="kits"):
        tsl.Fight.from_json(text)


def test_weapon_attack_kinds():
    assert weapon_attack("Melee") == "Melee weapon"
    assert weapon_attack("Thrown") == "Ranged weapon"
    with pytest.raises(RulesError, match="zone"):
        weapon_attack("Laser")
