"""The exploding-d6 tools, driven in plain pytest by setting values and reading the output."""

import functools
import re

import pytest

from rulescore.dice import DiceSource
from rulescore.roster import Roster
from rulescore.systems import exploding_d6 as x6
from widgets.exploding_d6 import (AttackPipeline, InitiativeRoller, ThrowDeviation, chain_html,
                                  clock_svg)
from widgets.roster import RosterEditor, forget_shared_rosters, shared_roster


def _order(tool):
    return re.findall(r"<td>\d+</td><td>(\w+)</td>", tool.result.value)


@pytest.fixture(autouse=True)
def _fresh_rosters():
    forget_shared_rosters()
    yield
    forget_shared_rosters()


def _party(*rows):
    return RosterEditor(x6.ROSTER, starter=functools.reduce(
        lambda r, row: r.add(row[0], quickness=row[1], deftness=row[2]), rows,
        Roster(x6.ROSTER)))


def test_initiative_rogue_example_typed():
    t = InitiativeRoller(_party(("Rogue", 4, 3), ("Robber", 2, 2)))
    assert "Rogue: 4 dice, 16.8 on average" in t.odds.value
    t.entry.my_dice.value = "4, 5, 1, 6, 6, 5, 3, 3"
    t.entry.use_dice()
    assert t.entry.error.message == ""
    assert _order(t) == ["Rogue", "Robber"]
    assert "6→6→5 = 17" in t.result.value
    assert "<b>27</b>" in t.result.value
    assert "Initiative 27" in t.explanation.value


def test_initiative_seed_replays_and_ties_are_named():
    t = InitiativeRoller(_party(("A", 2, 1), ("B", 2, 1)))
    t.entry.roll(seed=11)
    first = t.result.value
    t.entry.seed.value = "11"
    t.entry.replay()
    assert t.result.value == first
    t.entry.my_dice.value = "3, 4, 4, 3"
    t.entry.use_dice()
    assert "Tied on everything: A, B" in t.result.value


def test_initiative_reads_the_shared_roster_and_follows_it():
    t = InitiativeRoller()
    assert t.hint.layout.display != "none"
    t.entry.roll(seed=3)
    assert t.entry.error.message == "No fighters yet: add them in the roster above."
    editor = shared_roster("exploding_d6")
    editor.set_roster(Roster(x6.ROSTER).add("Rogue", quickness=4, deftness=3))
    assert "Rogue: 4 dice" in t.odds.value and t.hint.layout.display == "none"
    t.entry.my_dice.value = "4, 5, 1"
    t.entry.use_dice()
    assert "My dice must hold 4 dice (as chains), got 3" in t.entry.error.message
    t.entry.my_dice.value = "4, 5, 1, 6"
    t.entry.use_dice()
    assert t.entry.error.message == ("“My dice” end on a 6: that die explodes, so type the "
                                     "next roll of its chain")
    t.entry.my_dice.value = "4, 5, 1, 9"
    t.entry.use_dice()
    assert t.entry.error.message == "“My dice”: die 4 must be a d6 face from 1 to 6, got 9"


def _typed(tool, faces):
    tool.entry.my_dice.value = faces
    tool.entry.use_dice()


def test_attack_odds_before_roll_and_maragas_typed():
    a = AttackPipeline(skill=2, weapon_dice=2, mode="melee", cover=0, pool=2)
    assert "hit on <b>5+</b>, critical on <b>11+</b>" in a.odds.value
    p = x6.hit_odds(4).p_at_least(1)
    assert f"At least one hit: <b>{float(p) * 100:.2f}%</b> ({p})" in a.odds.value
    _typed(a, "4, 5, 5, 6, 6, 2")
    assert a.entry.error.message == ""
    assert "1 crit, 2 normal hits" in a.result.value
    assert "1 wound</div>" in a.result.value
    assert "Protection: 2 units spent, pool 2 → <b>0</b>" in a.result.value
    assert "critical" in a.result.value   # the 14 is marked as a critical chain


def test_the_pool_left_carries_to_the_next_attack():
    a = AttackPipeline(skill=2, weapon_dice=2, mode="melee", cover=0, pool=3)
    _typed(a, "4, 5, 5, 6, 6, 2")
    assert a.carry_button.description == "Carry the pool left (1)"
    a.carry_button.click()
    assert a.pool.value == "1"
    assert "At least one hit" in a.odds.value and a.error.message == ""


def test_attack_recoil_across_the_round():
    a = AttackPipeline(skill=3, weapon_dice=2, mode="single")
    a.next_button.click()
    assert a.attack_number.value == "2"
    assert "hit on <b>7+</b>, critical on <b>13+</b>" in a.odds.value
    a.next_button.click()
    assert "hit on <b>9+</b>, critical on <b>15+</b>" in a.odds.value
    a.compensation.value = "1"
    assert "hit on <b>7+</b>" in a.odds.value
    a.recoil.value = False   # a bow: an arrow is nocked between shots
    assert "hit on <b>5+</b>, critical on <b>11+</b>" in a.odds.value
    a.recoil.value = True
    a.round_button.click()
    assert "hit on <b>5+</b>, critical on <b>11+</b>" in a.odds.value
    a.mode.value = "burst"
    assert "Roll <b>7</b> dice" in a.odds.value and "no criticals" in a.odds.value


def test_attack_an_aim_between_shots_removes_recoil():
    """§Recoil and §Aiming: a second shot after one aim action has no recoil (5+, and the
    critical threshold 11 − 2 = 9). The aimed shot starts a new run, so the shot fired
    straight after it is the second in a row: 5 + 2 = 7 and 11 + 2 = 13."""
    a = AttackPipeline(skill=3, weapon_dice=2, mode="single")
    a.next_button.click()
    a.aim.value = "1"
    assert "hit on <b>5+</b>, critical on <b>9+</b>" in a.odds.value
    assert "no recoil" in a.odds.value
    a.next_button.click()
    assert (a.aim.value, a.attack_number.value) == ("0", "2")
    assert "hit on <b>7+</b>, critical on <b>13+</b>" in a.odds.value


def test_every_attack_option_of_the_seed():
    a = AttackPipeline(skill=3, weapon_dice=2, mode="melee")
    a.off_hand.value = True
    assert "hit on <b>6+</b>" in a.odds.value
    a.off_hand.value = False
    a.distance.value, a.weapon_range.value = "45", "30"
    assert "hit on <b>7+</b>" in a.odds.value
    a.distance.value = "61"
    assert a.error.message == ("“Target's distance (m)” must be at most twice the weapon's "
                               "30 m (60 m), got 61 m: farther, the target cannot be attacked")
    a.distance.value = a.weapon_range.value = ""
    a.special.value = "accurate"
    a.special_actions.value = "2"
    assert "hit on <b>3+</b>" in a.odds.value
    a.special.value = "massive"
    a.strength.value = "4"
    assert "Roll <b>9</b> dice" in a.odds.value
    a.special.value = "ko"
    assert "deals no wounds" in a.odds.value
    a.special.value = "disarm"
    assert "hit on <b>8+</b>" in a.odds.value
    a.special.value = "none"
    a.base.value = "4"
    assert "hit on <b>4+</b>, critical on <b>11+</b>" in a.odds.value


def test_hagen_shield_parry_in_the_attack():
    # §Reactions: four dice, three hits; two fives on the round shield stop two.
    a = AttackPipeline(skill=4, weapon_dice=0, mode="melee", pool=0, reaction="shield parry")
    assert a.reaction_dice.layout.display == "none" and a.reaction_min.layout.display == "none"
    _typed(a, "5, 5, 5, 2, 5, 5, 2")
    assert a.entry.error.message == ""
    assert "1 wound</div>" in a.result.value
    assert "Shield parry, cover 5+: 0 crits, 1 normal hit left" in a.result.value


def test_dodge_and_parry_examples_of_close_combat():
    a = AttackPipeline(skill=2, weapon_dice=0, mode="melee", pool=0, reaction="dodge")
    a.reaction_dice.value = "2"
    _typed(a, "5, 5, 6, 1, 4")             # two hits; the dodge's 7 reaches 5 + 2
    assert "Dodged: no wounds" in a.result.value and "Dodge on 7+" in a.result.value
    a.reaction.value = "parry"
    a.skill.value = "4"
    a.reaction_dice.value = "3"
    _typed(a, "5, 5, 5, 6, 5, 5, 6, 5, 2")  # 3 hits and a critical; parry 5, 11, 2
    assert "Parry on 5+: 1 crit, 1 normal hit left" in a.result.value
    assert "2 wounds</div>" in a.result.value
    _typed(a, "5, 5, 5, 6, 5, 5")
    assert ("the hit roll scored 1 crit, 3 normal hits, so the parry needs 2 dice next"
            in a.entry.error.message)


def test_parry_minimum_roll_changes_the_result():
    a = AttackPipeline(skill=3, weapon_dice=0, mode="melee", pool=0, reaction="parry")
    a.reaction_dice.value = "2"
    _typed(a, "5, 5, 5, 4, 4")
    assert "3 wounds</div>" in a.result.value
    a.reaction_min.value = "4"
    _typed(a, "5, 5, 5, 4, 4")
    assert "1 wound</div>" in a.result.value


def test_shield_behind_cover_and_a_shot_cannot_be_parried():
    a = AttackPipeline(skill=3, weapon_dice=0, mode="single", cover=4, pool=0,
                       reaction="shield parry")
    assert a.stacking.layout.display != "none"
    _typed(a, "5, 5, 5, 4, 1, 1")
    assert "Shield parry, cover 4+" in a.result.value and "2 wounds</div>" in a.result.value
    a.stacking.value = "each"
    _typed(a, "5, 5, 5, 5, 1, 1, 4, 1")
    assert "Cover 4+: 0 crits, 1 normal hit left" in a.result.value
    a.reaction.value = "parry"
    assert a.error.message == ("Reaction: a single shot cannot be parried; choose a shield "
                               "parry or none")
    # the refused attack cannot be rolled: the engine's word for the reaction never shows
    _typed(a, "5, 5, 5, 4, 1, 1")
    assert a.entry.error.message == "Fix the attack's inputs first."


def test_a_megacritical_leads_the_headline():
    a = AttackPipeline(skill=2, weapon_dice=0, mode="melee", pool=0)
    _typed(a, "6, 6, 5, 3")
    assert "1 wound, a megacritical among them (+1 wound)" not in a.result.value
    assert "2 wounds, a megacritical among them (+1 wound)</div>" in a.result.value
    assert "(1 megacritical)" in a.result.value


def test_the_rulings_cover_example_both_ways():
    # Two criticals, one megacritical worth 2 more wounds (23) and a plain one (11), 5+ cover
    # stops one: the heaviest first leaves 1 wound; the lightest first 3.
    a = AttackPipeline(skill=2, weapon_dice=0, mode="melee", cover=5, pool=0)
    _typed(a, "6, 6, 6, 5, 6, 5, 6, 1")
    assert "1 wound</div>" in a.result.value
    a.prevent.value = "lightest"
    _typed(a, "6, 6, 6, 5, 6, 5, 6, 1")
    assert "3 wounds, a megacritical among them (+2 wounds)</div>" in a.result.value


def test_ko_attack_rolls_resistance():
    a = AttackPipeline(skill=3, weapon_dice=0, mode="melee", pool=0)
    a.special.value = "ko"
    a.resistance.value = "2"
    assert "After the" not in a.odds.value
    _typed(a, "5, 5, 5, 5, 1")
    assert "Knocked out (3 hits landed)" in a.result.value


def test_attack_with_cover_seeded_and_replayed():
    a = AttackPipeline(skill=3, weapon_dice=2, mode="single", cover=5, pool=0)
    a.entry.roll(seed=21)
    want = x6.attack(5, mode="single", cover=5, dice=DiceSource.seeded(21))
    assert a.last == want
    assert a.last.headline in a.result.value


def test_attack_bad_inputs_in_the_readers_words():
    a = AttackPipeline()
    a.skill.value = "lots"
    assert "Skill must be a whole number, got 'lots'" in a.error.message
    assert a.odds.value == ""
    a.entry.roll(seed=1)
    assert "Fix the attack's inputs first" in a.entry.error.message
    a.skill.value = "3"
    a.mode.value = "melee"
    a.aim.value = "2"
    a.perception.value = "3"
    assert "critical on <b>8+</b>" in a.odds.value
    a.critical_pool.value = "5"
    assert "“Of it against crits” must be from 0 to 2, got 5" in a.error.message
    a.critical_pool.value = "0"
    a.aim.value = "0"
    a.mode.value = "burst"
    a.special.value = "accurate"
    a.special_actions.value = "1"
    assert "“Extra actions” must be 0 for a burst attack" in a.error.message
    assert "_" not in a.error.message


def test_throw_deviation_typed_and_seeded():
    t = ThrowDeviation(dice=2)
    assert "Chance to hit: <b>55.56%</b> (5/9)" in t.odds.value
    t.entry.my_dice.value = "2, 4"
    t.clock.value, t.metres.value = "3", "4"
    t.entry.use_dice()
    assert "lands 4 m right of the target" in t.result.value
    assert "Lands 4 m towards 3 o&#x27;clock" in t.picture.value or \
        "Lands 4 m towards 3 o'clock" in t.picture.value
    t.clock.value = ""
    t.entry.use_dice()
    assert "a missed throw deviates" in t.entry.error.message
    t.entry.roll(seed=9)
    again = t.last
    t.entry.seed.value = "9"
    t.entry.replay()
    assert t.last == again


def test_pictures():
    assert "6→6→5 = 17" in chain_html((6, 6, 5), "megacritical")
    svg = clock_svg(12, 2)
    assert svg.startswith("<svg") and "lands here" in svg and ">12</text>" in svg


def test_attack_special_walking_and_support():
    a = AttackPipeline(skill=3, weapon_dice=1, mode="melee", cover=0, pool=0)
    a.walking.value = True
    assert "hit on <b>6+</b>" in a.odds.value
    a.special.value = "disarm"
    assert "hit on <b>9+</b>" in a.odds.value
    assert "deals no wounds" in a.odds.value
    assert "After the" not in a.odds.value
    a.resistance.value = "1"
    _typed(a, "6, 3, 6, 4, 2, 1, 5")
    assert "Disarmed (2 hits landed)" in a.result.value
    assert a.last.value == 0 and a.last.hit.value == 2
    a.special.value = "none"
    a.walking.value = False
    a.mode.value = "single"
    a.supported.value = True
    assert "hit on <b>4+</b>" in a.odds.value


def test_the_options_column_is_built_when_the_reader_opens_it():
    a = AttackPipeline(skill=3, weapon_dice=2, mode="single", options=False)
    assert a.options is None and a.more_button.layout.display != "none"
    assert "hit on <b>5+</b>, critical on <b>11+</b>" in a.odds.value
    _typed(a, "5, 5, 1, 1, 1")
    assert a.entry.error.message == "" and "No wounds: every hit stopped" in a.result.value
    a.more_button.click()
    assert a.options is not None and a.more_button.layout.display == "none"
    a.off_hand.value = True
    assert "hit on <b>6+</b>" in a.odds.value


def test_attacker_and_defender_fill_from_the_roster():
    a = AttackPipeline(fighters=True, options=False, reaction="dodge")
    shared_roster("exploding_d6").set_roster(
        Roster(x6.ROSTER).add("Ada", skill=4, weapon_dice=1, mode="single")
        .add("Bo", quickness=4, deftness=3, lineage_dodge=1, protection=3, skill=2,
             weapon_dice=2))
    attacker, defender = (box.children[1] for box in a.columns.children[::len(
        a.columns.children) - 1])
    attacker.menu.value = "Ada"
    defender.menu.value = "Bo"
    assert (a.skill.value, a.weapon.value, a.mode.value) == ("4", "1", "single")
    assert (a.pool.value, a.reaction_dice.value) == ("3", str(x6.dodge_value(1, 4, 3)))
    a.reaction.value = "parry"
    defender.menu.value = "—" if "—" in defender.menu.options else defender.menu.options[0]
    defender.menu.value = "Bo"
    assert a.reaction_dice.value == "4"


# --- the close-combat chapter's worked examples in their own tools (DESIGN.md §5) -----------

def test_unarmed_attack_tool_gives_the_fists_dice_piercing_and_reach():
    from widgets.exploding_d6 import UnarmedAttack
    tool = UnarmedAttack(hand_to_hand=3, strength=3, quickness=3)
    fists = x6.unarmed_attack(hand_to_hand=3, strength=3, quickness=3)
    assert UnarmedAttack.headline(fists) == "Roll 4 dice, Piercing 1, reach 1 m"
    assert UnarmedAttack.headline(fists) in tool.fists.value
    # the blow rolled from typed dice: 5 a hit, 6→6→5 = 17 a megacritical, 1 and 3 miss
    tool.entry.my_dice.value = "5, 6, 6, 5, 1, 3"
    tool.entry.use_dice_button.click()
    hit = x6.hit_roll([5, 17, 1, 3])
    assert UnarmedAttack.blow(hit) == "1 crit, 1 normal hit (1 megacritical, +1 wound)"
    assert UnarmedAttack.blow(hit) in tool.result.value
    assert "Piercing 1: 1 unit of the target's ordinary protection" in tool.result.value
    tool.entry.my_dice.value = "5, 5, 1"
    tool.entry.use_dice_button.click()
    assert tool.entry.error.message == "My dice must hold 4 dice (as chains), got 3"
    # a seeded roll replays
    tool.entry.seed.value = "7"
    tool.entry.replay_button.click()
    first = tool.result.value
    assert "(seed 7)" in first
    tool.entry.replay_button.click()
    assert tool.result.value == first
    assert f"{float(x6.hit_odds(4).p_at_least(1)) * 100:.2f}%" in tool.odds.value
    tool.quickness.value, tool.strength.value = "2", "2"
    assert "Roll 3 dice, Piercing 0" in tool.fists.value
    tool.skill.value = "99"
    assert tool.error.message == "“Hand-to-hand” must be from 0 to 40, got 99"
    assert tool.fists.value == ""


def test_coup_de_grace_tool_rolls_the_attack_and_finishes_the_victim():
    from widgets.exploding_d6 import CoupDeGraceRoller
    from widgets.lean import is_shown
    tool = CoupDeGraceRoller(dice=3, state="unconscious")
    assert not is_shown(tool.level)
    assert "Chance of at least one success: <b>70.37%</b>" in tool.odds.value
    tool.entry.my_dice.value = "5, 5, 1"
    tool.entry.use_dice()
    assert "2 successes: dead at level 2" in tool.result.value
    assert tool.last.dead_level == x6.coup_de_grace(2, "unconscious").dead_level
    tool.victim.value, tool.level.value = "dying", "1"
    assert is_shown(tool.level)
    tool.entry.my_dice.value = "5, 5, 5"
    tool.entry.use_dice()
    assert "3 successes: now dying at level 4" in tool.result.value
    tool.victim.value, tool.dice.value = "sleeping", "2"
    tool.entry.my_dice.value = "1, 2"
    tool.entry.use_dice()
    assert "Fails: the sleeper will probably wake" in tool.result.value
    tool.entry.my_dice.value = "6, 6, 1, 4"               # one chain and a 4: two dice
    tool.entry.use_dice()
    assert "1 success: dead at level 1" in tool.result.value
    tool.entry.my_dice.value = "1, 2, 3"
    tool.entry.use_dice()
    assert tool.entry.error.message == "My dice must hold 2 dice (as chains), got 3"
    tool.dice.value = "200"
    assert tool.error.message == "“Attack dice” must be from 0 to 40, got 200"


def test_round_phases_tool_lists_the_round_for_the_names_typed():
    from widgets.exploding_d6 import RoundPhases
    tool = RoundPhases("rogue, robber")
    for phase, who in x6.round_phases(["rogue", "robber"]):
        assert phase in tool.result.value and who in tool.result.value
    tool.order.value = " , "
    assert tool.error.message == "“Combatants in order” must name at least one combatant, got none"
    assert tool.result.value == ""


def test_actions_tool_starts_empty_refreshes_and_spends_at_the_tables_cost():
    from widgets.exploding_d6 import ActionsTool
    tool = ActionsTool(quickness=3)
    assert "0 of 2 actions" in tool.hand.value                    # §Start of combat
    tool.spend_button.click()
    assert tool.error.message == ("“Action”: Attack with a weapon costs 1 action, but only 0 "
                                  "available")
    tool.turn_button.click()
    assert "2 of 2 actions" in tool.hand.value and tool.error.message == ""
    tool.spend_button.click()
    assert "1 of 2 actions" in tool.hand.value
    assert "Walk 4 m, run 8 m, crawl only while Hunkered" in tool.moves.value
    tool.hunkered.value = True
    assert f"crawl {x6.movement('crawl', 3, hunkered=True)} m" in tool.moves.value
    tool.block.value = True
    assert f"run {x6.movement('run', 3, shield_block=True)} m" in tool.moves.value
    tool.two.value = True
    assert "0 of 3 actions" in tool.hand.value                    # §Two-handed fighting


def test_dice_for_actions_tool_steals_and_gains():
    from widgets.exploding_d6 import DiceForActionsTool
    tool = DiceForActionsTool(mine=0, theirs=2, maximum=2)
    stolen = x6.destiny_die_action(x6.ActionPool(2, 0), x6.ActionPool(2, 2))
    assert (f"You: {stolen.pool.available} action; the opponent: {stolen.victim.available} "
            "action") in tool.result.value
    tool.die.value = "bonus"
    assert "You: 1 action<" in tool.result.value
    tool.mine.value = "x"
    assert "Your actions left" in tool.error.message and tool.result.value == ""


@pytest.mark.parametrize("die, field, value, message", [
    ("destiny", "maximum", "13", "“Actions a round” must be from 1 to 12, got 13"),
    ("bonus", "maximum", "13", "“Actions a round” must be from 1 to 12, got 13"),
    ("bonus", "mine", "41", "“Your actions left” must be from 0 to 40, got 41"),
    ("destiny", "theirs", "41", "“Opponent's actions left” must be from 0 to 40, got 41"),
])
def test_dice_for_actions_tool_names_its_fields(die, field, value, message):
    """The engine refuses a pool past the rules' bounds naming its parts (pool's actions a
    round, victim's actions left): the reader reads the field as labelled."""
    from widgets.exploding_d6 import DiceForActionsTool
    tool = DiceForActionsTool()
    tool.die.value = die
    getattr(tool, field).value = value
    assert tool.error.message == message and tool.result.value == ""


def test_dodge_value_tool_is_the_engines_value():
    from widgets.exploding_d6 import DodgeValue
    tool = DodgeValue(lineage_dodge=1, quickness=3, deftness=4)
    assert f"Dodge value {x6.dodge_value(1, 3, 4)}: roll 5 dice" in tool.result.value
    tool.fields[3].value = "2"                                       # Load
    assert f"Dodge value {x6.dodge_value(1, 3, 4, 2)}:" in tool.result.value
    tool.fields[1].value = "x"
    assert tool.error.message == "Quickness must be a whole number, got 'x'"


def test_recoil_round_tool_is_the_engines_round():
    from widgets.exploding_d6 import RecoilRound
    tool = RecoilRound("attack, attack, reload, attack")
    assert x6.round_recoil(["attack", "attack", "reload", "attack"]) == (0, 2, 0, 0)
    assert tool.result.value.count("no recoil") == 2
    assert "attack: +2 to the minimum roll" in tool.result.value
    tool.compensation.value = "1"
    assert "attack: +1 to the minimum roll" in tool.result.value
    tool.recoil.value = False
    assert "+1" not in tool.result.value
    tool.compensation.value = "-1"
    assert tool.error.message == "Recoil compensation must be 0 or more, got -1"
