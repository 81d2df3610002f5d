"""The exploding-d6 worked examples the other browser tests leave out (DESIGN.md §5): each
entered as a reader would in the tool on its chapter's page, the printed result asserted
against the engine's own call for the example."""

from __future__ import annotations

import re
from fractions import Fraction

from playwright.sync_api import Page, expect

from rulescore.systems import exploding_d6 as x6
from tests.browser.reader import SHOTS, open_chapter, open_tool, set_fields, set_value, use_my_dice
from tests.browser.x6_fight import (acting, attack_with, fighter_row, join_fight, next_turns,
                                    open_fight)

COMBAT = "exploding_d6/combat"
CLOSE = "exploding_d6/close"


def _setup(s: x6.AttackSetup) -> str:
    crit = "no criticals (burst)" if s.burst else f"critical on {s.crit_at}+"
    return f"Roll {s.dice} dice: hit on {s.min_roll}+, {crit}."


def test_aiming_burst_and_distance_on_the_attack_tools_setup_line(page: Page, book_url):
    """§Aiming (each action takes 2 off the critical threshold, capped by Perception 3),
    §Burst (Skill 3 and Weapon dice 2 roll 7 dice, three rounds, no criticals) and §Hit rolls
    for incorrect distance (30 m weapon: 30 m normal, 45 m +2, 61 m refused)."""
    tool = open_tool(page, book_url, COMBAT, ".rulebook-x6-attack")
    setup = tool.locator(".rulebook-x6-setup")
    set_fields(tool, **{"Skill": "3", "Weapon dice": "2", "Attack mode": "Hand-to-hand",
                     "Perception": "3", "Aim actions": "1"})
    assert x6.aim_bonus(1, perception=3) == 2
    expect(setup).to_contain_text(_setup(x6.attack_setup(3, 2, "melee", aim_actions=1,
                                                         perception=3)))
    expect(setup).to_contain_text("critical on 9+")
    set_value(tool.get_by_label("Aim actions", exact=True), "2")
    assert x6.aim_bonus(2, perception=3) == 3
    expect(setup).to_contain_text("critical on 8+")
    set_value(tool.get_by_label("Aim actions", exact=True), "0")

    burst = x6.attack_setup(skill=3, weapon_dice=2, mode="burst")
    tool.get_by_label("Attack mode").select_option(label="Burst")
    expect(setup).to_contain_text(_setup(burst))
    expect(setup).to_contain_text("Roll 7 dice: hit on 5+, no criticals (burst).")
    expect(setup).to_contain_text(f"It spends {burst.ammunition} rounds of ammunition.")

    # §Recoil: the second shot in a row with compensation 1 rises by 1; a shot after an aim
    # action has no recoil and its critical threshold drops by the aim (5+ and 9+)
    tool.get_by_label("Attack mode").select_option(label="Single shot")
    set_fields(tool, **{"Attack in a row": "2", "Recoil compensation": "1"})
    assert x6.recoil_malus(2, compensation=1) == 1
    expect(setup).to_contain_text("hit on 6+, critical on 12+")
    set_fields(tool, **{"Recoil compensation": "0", "Aim actions": "1"})
    aimed = x6.attack_setup(3, 2, "single", attack_number=2, aim_actions=1, perception=3)
    assert (aimed.min_roll, aimed.crit_at) == (5, 9)
    expect(setup).to_contain_text(_setup(aimed))
    expect(setup).to_contain_text("Aiming came between this shot and the last one")
    set_fields(tool, **{"Attack in a row": "1", "Aim actions": "0"})
    # §Exact odds: one die hits with 5/18 + 1/18 = 1/3 and is critical with 1/18
    odds = x6.hit_distribution(1)
    assert odds[(0, 1)] == Fraction(1, 18) and odds[(0, 0)] == Fraction(2, 3)
    set_fields(tool, **{"Skill": "1", "Weapon dice": "0"})
    expect(tool.locator(".rulebook-headline")).to_contain_text(
        "At least one hit: 33.33% (1/3); at least one critical: 5.56% (1/18)")
    set_fields(tool, **{"Skill": "3", "Weapon dice": "2"})
    tool.get_by_role("button", name="Special attacks, range, recoil").click()
    set_fields(tool, **{"Weapon distance (m)": "30", "Target's distance (m)": "30"})
    assert x6.distance_penalty(30, weapon_range=30) == 0
    expect(setup).to_contain_text("hit on 5+")
    set_value(tool.get_by_label("Target's distance (m)", exact=True), "45")
    assert x6.distance_penalty(45, weapon_range=30) == 2
    expect(setup).to_contain_text("hit on 7+")
    set_value(tool.get_by_label("Target's distance (m)", exact=True), "61")
    assert x6.distance_penalty(61, weapon_range=30) is None
    expect(tool.get_by_role("alert")).to_contain_text(
        "“Target's distance (m)” must be at most twice the weapon's 30 m (60 m), got 61 m")


def test_megacritical_and_protection_examples_in_the_attack_tool(page: Page, book_url):
    """§Megacritical hits: dice of 17, 11 and 3 are two criticals, one megacritical worth one
    more wound; §Protection Pool: three normal hits and a critical against a pool of 2 leave
    one normal hit and the critical, and the pool empty."""
    tool = open_tool(page, book_url, COMBAT, ".rulebook-x6-attack")
    total, stages = tool.locator(".rulebook-total"), tool.locator(".rulebook-x6-stages")
    set_fields(tool, **{"Skill": "3", "Weapon dice": "0", "Attack mode": "Hand-to-hand",
                     "Target's cover": "None", "Protection pool": "0"})
    big = x6.hit_roll([6 + 6 + 5, 11, 3])
    assert (big.criticals, big.extra_wounds) == (2, 1)
    use_my_dice(tool, "6, 6, 5, 6, 5, 3")
    expect(stages).to_contain_text(f"Hit roll: {big.announcement} (1 megacritical)")
    expect(total).to_have_text(x6.attack([17, 11, 3]).headline)
    expect(total).to_have_text("3 wounds, a megacritical among them (+1 wound)")
    expect(tool.locator(".rulebook-chain[title='megacritical']")).to_have_text("6→6→5 = 17")

    armour = x6.protection(hits=3, criticals=1, pool=2)
    assert (armour.hits, armour.criticals, armour.pool_left) == (1, 1, 0)
    set_fields(tool, **{"Skill": "4", "Protection pool": "2"})
    use_my_dice(tool, "5, 5, 5, 6, 5")
    expect(stages).to_contain_text("1 crit, 3 normal hits")
    expect(stages).to_contain_text(f"Protection: 2 units spent, pool 2 → {armour.pool_left}")
    expect(total).to_have_text(f"{armour.hits + armour.criticals} wounds")


def test_disarming_example_in_the_attack_tool(page: Page, book_url):
    """§Disarming attack: Skill 3 and Weapon dice 1 strike on 8+; two hits against one success
    of the defender's roll disarm."""
    tool = open_tool(page, book_url, CLOSE, ".rulebook-x6-attack")
    total, stages = tool.locator(".rulebook-total"), tool.locator(".rulebook-x6-stages")
    set_fields(tool, **{"Skill": "3", "Weapon dice": "1", "Reaction": "None",
                     "Attack mode": "Hand-to-hand", "Protection pool": "0",
                     "Special attack": "Disarming", "Resistance dice": "2",
                     "Defender's min. roll": "5"})
    assert x6.attack_setup(3, 1, special="disarm").min_roll == 8
    expect(tool.locator(".rulebook-x6-setup")).to_contain_text("hit on 8+")
    assert x6.disarm(attacker_hits=2, defender_successes=1).success
    # 6→2 = 8 and 6→3 = 9 hit on 8+, 1 and 1 miss; the defender's 5 and 1: one success
    use_my_dice(tool, "6, 2, 6, 3, 1, 1, 5, 1")
    expect(stages).to_contain_text("Resistance: 1 success against 2 hits")
    expect(total).to_have_text("Disarmed (2 hits landed)")


def test_a_ko_on_the_fight_board(page: Page, book_url):
    """§K.O. Attack on the fight page: the robber's club knocks Hagen out, the board says so
    and Hagen's next turn has no actions until he comes to (assumption knocked_out)."""
    panel = open_fight(page, book_url)
    join_fight(panel, "5, 5, 5, 1, 1, 1")
    expect(acting(panel)).to_contain_text("Round 1: Hagen")
    next_turns(panel, "Round 1: Robber")
    panel.get_by_role("button", name="More options").click()
    panel.get_by_label("Special attack").select_option(label="K.O.")
    expect(panel.locator(".rulebook-x6-contest-odds")).to_contain_text(re.compile(
        r"Knocked out: Hagen \d+\.\d\d%"))
    # three hits, Hagen's two units stop two, his resistance 1 and 1 fail against the third
    attack_with(panel, "5, 5, 5, 1, 1, 1, 1")
    expect(panel.locator(".rulebook-x6-fight-result")).to_contain_text(
        "Knocked out (1 hit landed)")
    panel.get_by_role("button", name="Apply to Hagen").click()
    hagen = fighter_row(panel, "Hagen")
    expect(hagen.locator(".status")).to_contain_text("KNOCKED OUT")
    expect(hagen.locator(".actions")).to_have_text("none: knocked out")
    next_turns(panel, "knocked out: no actions, press Next turn")
    panel.get_by_role("button", name="Other actions").click()
    page.screenshot(path=SHOTS / "x6_fight_ko.png", full_page=True)
    panel.get_by_role("button", name="Comes to").click()
    expect(hagen.locator(".status")).not_to_contain_text("KNOCKED OUT")


def test_round_phases_actions_movement_and_destiny_die_examples(page: Page, book_url):
    """§Sequence of rounds (the rogue and the robber), §Actor and actions (a human's 2
    actions, an attack leaves 1; Quickness 3 runs 8 m and, Hunkered, crawls 3 m) and §Bonus
    dice actions (a destiny die: the spender 0 → 1, the opponent 2 → 1), each in its tool."""
    open_chapter(page, f"{book_url}/{COMBAT}.ipynb")
    phases = page.locator(".rulebook-x6-phases").first
    expect(phases).to_be_visible(timeout=60_000)
    set_value(phases.get_by_label("Combatants in order", exact=True), "rogue, robber")
    items = phases.locator(".rulebook-x6-phase-list li")
    expected = x6.round_phases(["rogue", "robber"])
    expect(items).to_have_count(len(expected))
    expect(items.first).to_have_text("Start of round")
    expect(items.nth(1)).to_have_text("Start of player combat round — rogue")
    expect(items.last).to_have_text("End of round")

    actions = page.locator(".rulebook-x6-actions").first
    hand = actions.locator(".rulebook-x6-hand")
    actions.get_by_label("Lineage").select_option(label="human")
    expect(hand).to_have_text("0 of 2 actions")
    actions.get_by_role("button", name="Their turn comes").click()
    pool = x6.refresh(x6.start_combat(x6.max_actions("human")))
    expect(hand).to_have_text(f"{pool.available} of 2 actions")
    actions.get_by_label("Action", exact=True).select_option(
        label="Attack with a weapon (1 action)")
    actions.get_by_role("button", name="Spend").click()
    expect(hand).to_have_text(f"{x6.spend(pool, 'attack').pool.available} of 2 actions")
    set_value(actions.get_by_label("Quickness", exact=True), "3")
    moves = actions.locator(".rulebook-x6-moves")
    expect(moves).to_contain_text(f"run {x6.movement('run', 3)} m")
    actions.get_by_label("Hunkered").check()
    expect(moves).to_contain_text(f"crawl {x6.movement('crawl', 3, hunkered=True)} m")
    actions.get_by_role("button", name="Spend").click()
    actions.get_by_role("button", name="Spend").click()
    expect(actions.get_by_role("alert")).to_contain_text(
        "Attack with a weapon costs 1 action, but only 0 available")

    dice = page.locator(".rulebook-x6-dice-actions").first
    set_fields(dice, **{"Actions a round": "2", "Your actions left": "0",
                     "Opponent's actions left": "2", "Die spent": "Destiny die"})
    stolen = x6.destiny_die_action(x6.ActionPool(2, 0), x6.ActionPool(2, 2))
    expect(dice.locator(".rulebook-total")).to_have_text(
        f"You: {stolen.pool.available} action; the opponent: {stolen.victim.available} action")
    actions.screenshot(path=SHOTS / "x6_actions.png")
    dice.screenshot(path=SHOTS / "x6_dice_actions.png")
    phases.screenshot(path=SHOTS / "x6_phases.png")


def test_a_shield_block_behind_cover_rolls_the_shield_then_the_cover(page: Page, book_url):
    """§Shields with §Cover on the fight page, Shield and cover "A roll each" (assumption
    cover_stacking's alternative): three hits on Hagen behind 6+ terrain, his raised round
    shield rolls 5, 1, 1 (one stopped), the terrain 6, 2 (one more), his protection the last."""
    panel = open_fight(page, book_url)
    join_fight(panel, "5, 5, 5, 1, 1, 1")
    expect(acting(panel)).to_contain_text("Round 1: Hagen")
    panel.get_by_role("button", name="Other actions").click()
    panel.get_by_role("button", name="Raise shield").click()
    next_turns(panel, "Round 1: Robber", "Round 2: Hagen", "Round 2: Robber")
    panel.get_by_label("Target's cover").select_option(label="6+")
    panel.get_by_role("button", name="More options").click()
    panel.get_by_label("Shield and cover").select_option(label="A roll each")
    expect(panel.locator(".rulebook-x6-fight-setup")).to_contain_text(
        "Hagen's Shield Block rolls first, then the 6+ cover")
    attack_with(panel, "5, 5, 5, 1, 1, 5, 1, 1, 6, 2")
    result = panel.locator(".rulebook-x6-fight-result")
    expect(result).to_contain_text("Shield Block: 0 critical(s) and 1 hit(s) stopped")
    expect(result).to_contain_text("Cover: 0 critical(s) and 1 hit(s) stopped")
    page.screenshot(path=SHOTS / "x6_fight_block_cover.png")
    panel.get_by_role("button", name="Apply to Hagen").click()
    hagen = fighter_row(panel, "Hagen")
    expect(hagen.locator(".protection")).to_have_text("1")
    expect(hagen.locator(".wounds")).to_have_text("0")


def test_dodge_value_example_in_its_tool(page: Page, book_url):
    """§Dodge: a lineage dodge of 1, Quickness 3 and Deftness 4 make a Dodge value of 5."""
    tool = open_tool(page, book_url, CLOSE, ".rulebook-x6-dodge-value")
    set_fields(tool, **{"Lineage dodge": "1", "Quickness": "3", "Deftness": "4", "Load": "0"})
    assert x6.dodge_value(lineage_dodge=1, quickness=3, deftness=4) == 5
    expect(tool.locator(".rulebook-total")).to_have_text("Dodge value 5: roll 5 dice to dodge")
    set_value(tool.get_by_label("Load", exact=True), "2")
    expect(tool.locator(".rulebook-total")).to_have_text(
        f"Dodge value {x6.dodge_value(1, 3, 4, 2)}: roll 3 dice to dodge")
    tool.screenshot(path=SHOTS / "x6_dodge_value.png")


def test_recoil_over_a_round_example_in_its_tool(page: Page, book_url):
    """§Recoil: attack, attack, reload, attack: only the second attack has recoil, +2."""
    tool = open_tool(page, book_url, COMBAT, ".rulebook-x6-recoil")
    set_value(tool.get_by_label("Actions this round", exact=True),
              "attack, attack, reload, attack")
    assert x6.round_recoil(["attack", "attack", "reload", "attack"]) == (0, 2, 0, 0)
    items = tool.locator(".rulebook-x6-recoil-list li")
    expect(items).to_have_text(["attack: no recoil",
                                "attack: +2 to the minimum roll and the critical threshold",
                                "reload", "attack: no recoil"])
    tool.screenshot(path=SHOTS / "x6_recoil.png")
