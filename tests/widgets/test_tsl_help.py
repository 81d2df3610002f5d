"""The TSL tools for helping an ally, a Spirit ability and mending gear, driven in plain pytest:
each shows what the one engine call it makes returns, and says a bad field's message in the
field's words."""

from __future__ import annotations

from rulescore.systems import tsl
from widgets.common import chance_html
from widgets.lean import is_shown
from widgets.tsl_help import ArmourBlow, RepairRoll, SpiritAbility, SupportAction


def test_support_action_ground_a_path_walker_near():
    tool = SupportAction("Ground a Path-walker", ally_zone="Near")
    done = tsl.support("Ground a Path-walker", tsl.new_pools(), ally_zone="Near")
    assert tool.last == done
    assert "uses the Action; you mark 1 Spirit Stress" in tool.result.value
    assert "Your Spirit pool: 1 of 4 Stress marked (3 left)" in tool.result.value
    assert not is_shown(tool.band) and not is_shown(tool.ally_mind)


def test_the_fields_a_support_action_shows_are_the_engines_to_say():
    """Each option shows the failed-roll fields when the engine says it reads the ally's failed
    roll, and the ally's Mind Stress when it reads the ally's pools."""
    tool = SupportAction()
    for option in tsl.support_options():
        tool.option.value = option
        needs = tsl.support_needs(option)
        assert is_shown(tool.band) == is_shown(tool.domain) == ("band" in needs), option
        assert is_shown(tool.ally_mind) == ("ally" in needs), option


def test_support_action_grant_reroll_breaks_the_helper():
    tool = SupportAction("Grant Reroll", ally_zone="Near")
    assert is_shown(tool.band) and is_shown(tool.domain)
    tool.stress["Body"].value = "3"
    assert tool.last.breaks and "you Break" in tool.result.value
    assert "Your Body pool: 4 of 4 Stress marked (Broken)" in tool.result.value


def test_support_action_steady_moves_the_allys_mind_stress():
    tool = SupportAction("Steady the Spirit", ally_zone="Near")
    tool.ally_mind.value = "3"
    assert (tool.last.helper.stress("Mind"), tool.last.ally.stress("Mind")) == (1, 2)
    assert "The ally&#x27;s Mind pool: 2 of 4 Stress marked (2 left)" in tool.result.value
    tool.option.value = "Steady Presence"
    assert "free once a scene" in tool.result.value


def test_support_action_messages_name_the_fields():
    tool = SupportAction("Steady the Spirit")
    tool.ally_zone.value = "Far"
    assert tool.error.message == ("“Ally's zone” must be Engaged or Near for Steady the "
                                  "Spirit, got Far")
    assert tool.result.value == ""
    tool.ally_zone.value = "Near"
    tool.ally_mind.value = "9"
    assert tool.error.message == "The ally's Mind Stress must be from 0 to 4, got 9"
    tool.ally_mind.value = "2"
    tool.stress["Mind"].value = "9"
    assert tool.error.message == "“Your Mind Stress” must be from 0 to 4, got 9"
    tool.stress["Mind"].value = "0"
    assert tool.error.message == "" and tool.last is not None


def test_spirit_ability_marks_its_cost():
    tool = SpiritAbility()
    assert tool.last == tsl.spirit_ability(tsl.new_pools(), "Sense the Local Reality")
    assert "Your Spirit pool: 2 of 4 Stress marked (2 left)" in tool.result.value
    tool.ability.value = "Fold the Road"
    assert tool.error.message.startswith("“Its cost” is needed for 'Fold the Road'")
    tool.cost.value = "3"
    tool.spirit.value = "1"
    assert tool.last.breaks and "you Break" in tool.result.value


def test_repair_roll_of_salvaged_gear():
    tool = RepairRoll("Salvaged", "Trained")
    tool.entry.my_dice.value = "6, 5, 1, 1, 1"
    tool.entry.use_dice()
    assert tool.last == tsl.repair("Salvaged", dice=[6, 5, 1, 1, 1], tier="Trained")
    assert "It works again" in tool.result.value and "Hand roll total 12" in tool.result.value
    tool.tier.value = "Untrained"
    assert tool.last is None and "It works again" not in tool.result.value
    tool.entry.my_dice.value = "1, 2"
    tool.entry.use_dice()
    assert tool.entry.error.message == "My dice must be 5 faces, got 2 numbers"
    tool.rarity.value = "Issued"
    assert tool.entry.error.message == ""
    assert tool.last.outcome == "needs downtime"


def test_the_repair_roll_shows_its_chance_to_mend_before_the_dice():
    """Every roll shows its exact odds first: the Hand roll's chance to mend is
    tsl.repair_odds for the tier, its shifts and the rulings; no roll, no odds."""
    tool = RepairRoll("Salvaged", "Trained")
    assert chance_html(tsl.repair_odds("Trained"), strong=True) in tool.odds.value
    assert ("Mending it takes a Hand roll at T11: a Mixed Success or better mends it. Chance "
            "it mends: ") in tool.odds.value
    tool.tier.value, tool.shift.value, tool.bands.value = "Untrained", 1, "meet_is_mixed"
    assert chance_html(tsl.repair_odds("Untrained", shift=1, bands="meet_is_mixed"),
                       strong=True) in tool.odds.value
    tool.rarity.value = "Issued"
    assert tool.odds.value == ""


def test_gear_mended_without_a_roll_asks_for_no_dice():
    """§11 Ammunition: Issued gear is fixed with tools and downtime, and something irreplaceable
    may be gone for good; neither takes a roll, so the tool answers at once and the dice, the
    tier and the rulings of the roll are put away until rarer gear is picked."""
    tool = RepairRoll("Issued", "Trained")
    assert tool.last == tsl.repair("Issued")
    assert "Mended with tools and downtime, no roll" in tool.result.value
    assert not any(is_shown(x) for x in (tool.entry, tool.tier, tool.shift, tool.bands))
    tool.rarity.value = "Anomalous"
    assert tool.last is None and is_shown(tool.entry) and is_shown(tool.tier)
    assert "It works again" not in tool.result.value and "no roll" not in tool.result.value
    tool.irreplaceable.value = True
    assert tool.last == tsl.repair("Anomalous", irreplaceable=True)
    assert "May be gone for good: no roll mends it" in tool.result.value
    assert not is_shown(tool.entry)


def test_movement_shows_the_charge_and_refuses_two_zones_with_one_movement():
    from widgets.tsl_help import Movement
    tool = Movement("Far", "Engaged", double=True)
    assert tool.last == tsl.move("Far", "Engaged", double=True)
    assert "Far → Engaged: 2 zones; uses the Action and the Movement" in tool.result.value
    tool.double.value = False
    assert tool.error.message.startswith("“To” must be at most 1 zone from Far with a Movement")
    tool.end.value = "Near"
    assert tool.error.message == "" and "uses the Movement" in tool.result.value


def test_ready_loadout_swaps_the_rope_for_the_lantern():
    from widgets.tsl_help import ReadyLoadout
    tool = ReadyLoadout()
    kit = tsl.make_loadout(["Rifle", "Knife", "Rope"], stowed=["Lantern"], worn=["Voidsuit"])
    assert tool.last == tsl.ready_item(kit, "Lantern", stow="Rope")
    assert "Lantern: Stowed → Ready, an Action" in tool.result.value
    assert "Ready now: Rifle, Knife, Lantern" in tool.result.value
    tool.stow.value = "(nothing)"
    assert tool.error.message.startswith("“Put away” must name a Ready piece to put away")
    tool.in_scene.value = False
    tool.stow.value = "Knife"
    assert tool.error.message == "" and "Stowed → Ready, free" in tool.result.value


def test_keep_roll_is_velas_sixteen():
    from widgets.tsl_help import KeepRoll
    tool = KeepRoll("Proficient")
    tool.entry.my_dice.value = "3, 6, 1, 4, 3"
    tool.entry.use_dice()
    assert tool.last == tsl.roll_total([3, 6, 1, 4, 3], "Proficient")
    assert "Total 16</b>: Proficient keeps 6 + 4 + 3 + 3" in tool.result.value
    tool.shift.value = -1
    assert tool.last is None and tool.entry.error.message == ""


def test_armour_against_one_blow():
    """§11 Armour: a Success lands as a Mixed and a Crit stays; on a Catastrophic defence roll
    the armour takes the whole Success and is spent (ruling tsl:catastrophic_defence)."""
    tool = ArmourBlow("success", defence_catastrophic=True)
    assert tool.last == tsl.armour_against("success", defence_catastrophic=True)
    assert tool.result.value.endswith(
        "<b>0 Stress</b>; the armour takes the whole blow and is spent</div>")
    tool.catastrophic.value = False
    assert tool.last.band == "mixed" and "<b>1 Stress</b></div>" in tool.result.value
    tool.band.value = "crit"
    assert tool.last.band == "crit" and "spent" not in tool.result.value
    tool.catastrophic.value = True
    assert tool.result.value.endswith("<b>4 Stress</b>; the armour is spent</div>")


def test_the_repair_tool_asks_the_dice_the_engine_counts_for_the_gear():
    """The Hand roll's dice come from tsl.repair_dice: Salvaged and Anomalous gear each take
    its five (four typed are refused in those words, five mend); Issued gear takes none and
    asks for none."""
    from widgets.common import RollRequest
    for rarity in ("Salvaged", "Anomalous"):
        tool = RepairRoll(rarity, "Trained")
        need = tsl.repair_dice(rarity)
        assert need == 5 and is_shown(tool.entry)
        tool.roll(RollRequest.typed([6, 5, 1, 1]))
        assert tool.entry.error.message == f"My dice must be {need} faces, got 4 numbers"
        assert tool.last is None
        tool.roll(RollRequest.typed([6, 5, 1, 1, 1]))
        assert tool.last == tsl.repair(rarity, dice=[6, 5, 1, 1, 1], tier="Trained")
    tool = RepairRoll("Issued", "Trained")
    assert tsl.repair_dice("Issued") == 0 and not is_shown(tool.entry)
