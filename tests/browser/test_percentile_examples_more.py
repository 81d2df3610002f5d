"""The percentile chapters' worked examples and fight-page gaps still without a browser test
(DESIGN.md §5), each entered into the tool on its page as a reader would and read back as
the chapter prints it: the Setup advantage in the melee resolver, the armour of the zone a
strike lands in, read from the struck fighter's roster row in the injury walker, an injury
taken off a fighter's record on the fight page, Nolora's choice spent on a third Zone Die, and
an earlier wound elsewhere on the body that does not compound."""

from __future__ import annotations

import json
from dataclasses import replace

from playwright.sync_api import Page, expect

from rulescore.roster import Roster
from rulescore.systems import percentile as pc
from rulescore.text import percent
from tests.browser.reader import open_chapter, open_tool, set_value, use_my_dice
from tests.browser.test_percentile_fight import SHOT, SHOTS, open_panel
from widgets.fight import fight_key
from widgets.percentile_fight import starter
from widgets.roster import store_key


def keep(page: Page, roster: Roster) -> None:
    """The fighters this browser keeps for percentile combat, before the page opens."""
    page.add_init_script(f"window.localStorage.setItem({json.dumps(store_key('percentile'))}, "
                         f"{json.dumps(roster.to_json())})")


def _use(tool, dice: str) -> None:
    tool.get_by_label("My dice").fill(dice)
    tool.get_by_role("button", name="Use my dice").click()


def test_a_setup_taken_last_round_lifts_the_next_test_a_level(page: Page, book_url):
    """Melee Test Results, Setup: a Melee or Dodge test within the next round is one success
    level better (setup_level("F") == "S"). The Ignore example's attacker (ML 60) rolls 61, a
    failure and two stars; with one Setup it counts as a success: three stars, two TAs. A
    Setup on the Block example's 71 lifts it to S, and the attacker's CS wins by one star."""
    assert pc.setup_level("F") == "S"
    page.set_viewport_size({"width": 1280, "height": 2400})
    tool = open_tool(page, book_url, "percentile/table", ".rulebook-pc-melee")
    result = tool.locator(".rulebook-pc-result")
    set_value(tool.get_by_label("Attacker's ML"), "60")
    set_value(tool.get_by_label("Defender's ML"), "60")
    tool.get_by_label("Defence").select_option("Ignore")
    defender_setup = tool.get_by_label("Defender's Setup advantages")
    expect(defender_setup).to_be_disabled()     # no roll against an Ignore: nothing to lift
    _use(tool, "61")
    expect(result).to_contain_text("Rolls 61 (attacker F): the attacker strikes, 2 victory stars")
    set_value(tool.get_by_label("Attacker's Setup advantages"), "1")
    odds = pc.melee_outcome_distribution(60, "Ignore", attack_setups=1)
    p = odds[("strike", 4)]
    expect(tool.locator(".rulebook-odds").get_by_role(
        "row", name=f"The attacker strikes, 4 stars {percent(p)} {p}")).to_be_visible()
    _use(tool, "61")
    lifted = pc.melee_exchange(61, 60, "Ignore", attack_setups=1)
    assert (lifted.attack_level, lifted.stars) == ("S", 3)
    expect(result).to_contain_text("Rolls 61 (attacker S): the attacker strikes, 3 victory "
                                   "stars; 2 tactical advantage(s)")
    expect(tool.locator(".rulebook-trace").first).to_contain_text(
        "Attacker's Setup TA from the last round: F lifted 1 level to S")
    set_value(tool.get_by_label("Attacker's Setup advantages"), "0")
    tool.get_by_label("Defence").select_option("Block")
    expect(defender_setup).to_be_enabled()
    set_value(defender_setup, "1")
    _use(tool, "35, 71")
    turned = pc.melee_exchange(35, 60, "Block", 71, 60, defence_setups=1)
    assert (turned.defence_level, turned.stars) == ("S", 1)
    expect(result).to_contain_text("Rolls 35, 71 (attacker CS, defender S): the attacker "
                                   "strikes, 1 victory star")
    tool.screenshot(path=str(SHOTS / "percentile_melee_setup.png"))


def test_the_struck_zone_s_armour_comes_from_the_struck_fighter_s_row(page: Page, book_url):
    """Injury 2: the effective impact is the strike impact less the armour at the location
    struck. Nolora's shortsword (d6 Zone Die, d8+2 edge) is aimed at the brigand's head
    (zone 1, no armour); the Zone Die 5 carries it to zone 5, the torso, whose armour on the
    brigand's row is 4 against edge: the Location Die 7 finds the abdomen, the d8 6 + 2 = 8E
    less 4 leaves 4E, an M1E injury, where the head's 0 would have left an S2E."""
    keep(page, starter())
    open_chapter(page, f"{book_url}/percentile/injury.ipynb")
    tool = page.locator(".rulebook-pc-injury").first
    expect(tool).to_be_visible(timeout=60_000)
    expect(page.locator(".rulebook-roster").first).to_contain_text(
        "Fighters: Nolora, Brigand —", timeout=20_000)
    tool.get_by_label("Striker", exact=True).select_option("Nolora")
    tool.get_by_label("Struck fighter", exact=True).select_option("Brigand")
    note = tool.locator(".rulebook-pc-armour-note")
    armour = tool.get_by_label("Armour value there")
    expect(note).to_contain_text("Armour: Brigand's head against edge (the aimed zone")
    expect(armour).to_have_value("0")
    expect(tool.get_by_label("Impact modifier")).to_have_value("2")
    row = starter().fighter("Brigand")
    walks = {av: pc.injury_sequence(zone_die=6, aim_zone=1, impact_die=8, impact_modifier=2,
                                    aspect="E", armour=av, shock_eml=row["shock"],
                                    strength_eml=row["strength_eml"], reroll=True,
                                    dice=[5, 7, 6, 50])
             for av in (0, row["av_torso_e"])}
    assert walks[0].outcome != walks[4].outcome and pc.zone_name(5) == "Torso"
    _use(tool, "5, 7, 6, 50")
    expect(note).to_contain_text("Armour: Brigand's torso against edge (the zone struck)")
    expect(armour).to_have_value("4")
    expect(tool.locator(".rulebook-pc-injury-result")).to_contain_text(walks[4].outcome)
    tool.get_by_role("button", name="Show every step").click()
    expect(tool.locator(".rulebook-pc-stage").filter(has_text="2 Impact")).to_contain_text("4")
    tool.screenshot(path=str(SHOTS / "percentile_struck_zone_armour.png"))


def test_an_injury_written_into_the_wrong_record_comes_off_on_the_fight_page(page: Page,
                                                                           book_url):
    """The fight page's record stays the GM's to correct: Nolora's point-blank arrow, written
    into the brigand's record (S2P abdomen, Incapacitated), is picked in Injury and taken off
    with Remove this injury; its own Shock Roll alone made him Incapacitated, so he is
    fighting again and the explanation says why, and Undo puts the injury and the state
    back."""
    page.set_viewport_size({"width": 1280, "height": 1600})
    shot = open_panel(page, book_url, "Missile shot", ".rulebook-pc-fight-missile")
    set_value(shot.get_by_label("Range (ft)"), "20")
    use_my_dice(shot, SHOT, name="shot")
    shot.get_by_role("button", name="Write it into Brigand's record").click()
    brigand = page.locator(".rulebook-pc-fight-order tr[data-fighter='Brigand']")
    expect(brigand.locator(".rulebook-pc-injuries")).to_have_text("S2P abdomen")
    after = open_panel(page, book_url, "Shock and healing", ".rulebook-pc-fight-after",
                       load=False)
    expect(after.get_by_label("Fighter", exact=True)).to_have_value("Brigand")
    injury = after.get_by_label("Injury", exact=True)
    expect(injury.locator("option")).to_have_text(["1. S2P abdomen (untreated)"])
    after.get_by_role("button", name="Remove this injury").click()
    expect(after.locator(".rulebook-pc-fight-after-result")).to_have_text(
        "Brigand: S2P abdomen removed from the record")
    expect(brigand.locator(".rulebook-pc-injuries")).to_have_text("none")
    expect(brigand.locator(".rulebook-pc-state")).to_have_text("fighting")
    expect(after.locator(".rulebook-trace")).to_contain_text(
        "The Shock state INC came from this injury alone: now no Shock state")
    expect(after.get_by_role("button", name="Remove this injury")).to_be_disabled()
    after.screenshot(path=str(SHOTS / "percentile_fight_remove_injury.png"))
    page.get_by_role("button", name="Undo", exact=True).click()
    expect(brigand.locator(".rulebook-pc-injuries")).to_have_text("S2P abdomen")
    expect(brigand.locator(".rulebook-pc-state")).to_have_text("Incapacitated")


def test_nolora_spends_her_choice_on_precision_three_d6_zone_dice(page: Page, book_url):
    """Missile 4a: Nolora's critical success at point blank brings a free Precision TA for
    the still target and one advantage of her choice, which she also spends on precision:
    three d6 Zone Dice, 4, 4 and 6, all in the torso, so three Location Dice (6, 1, 9); the
    first, the abdomen. d10 7 + 3 + range 2 = 12P."""
    shot = open_tool(page, book_url, "percentile/missile", ".rulebook-pc-missile")
    for label, value in (("Missile ML", "75"), ("Base Range (ft)", "60"),
                         ("Range to target (ft)", "20")):
        set_value(shot.get_by_label(label), value)
    _use(shot, "45")
    shot.get_by_role("button", name="Send to the injury walker").click()
    hurt = page.locator(".rulebook-pc-injury")
    expect(hurt.locator(".rulebook-pc-taken")).to_contain_text(
        "1 Precision TA, 0 Impact TA, range impact +2. 1 tactical advantage of your choice")
    set_value(hurt.get_by_label("Precision TAs"), "2")
    dice = [4, 4, 6, 6, 1, 9, 7, 50]
    walk = pc.injury_sequence(zone_die=6, precision=2, impact_die=10, impact_modifier=3,
                              range_modifier=2, aspect="P", projectile=True, shock_eml=65,
                              reroll=True, dice=dice)
    _use(hurt, ", ".join(map(str, dice)))
    expect(hurt.locator(".rulebook-pc-injury-result")).to_contain_text(walk.outcome)
    hurt.get_by_role("button", name="Show every step").click()
    where = hurt.locator(".rulebook-pc-stage").filter(has_text="1 Location")
    expect(where).to_contain_text("Zone Dice 4 → ZN4, 4 → ZN4, 6 → ZN6 (aimed at ZN1)")
    expect(where).to_contain_text("2 other Zone Die in it: 3 Location Dice")


def _kept_fight(fight: pc.Fight) -> str:
    """What the fight page keeps in this browser: its fight, and no rolls yet."""
    return json.dumps({"format": "rulebook/fight-page", "version": 1,
                       "fight": fight.to_json(), "rolls": []})


def test_an_earlier_wound_elsewhere_does_not_compound(page: Page, book_url):
    """Injury 3: the sword's 8E makes an S2E injury in the abdomen; the brigand's earlier M1
    blunt wound is in the thorax, not the abdomen, so nothing compounds and no compounding
    d10 is asked for. His record is opened from the fight; the four dice and the Shock
    Reroll's 42 finish the walk, which goes onto his record beside the old wound."""
    roster = starter()
    fight = pc.fight_for(roster)
    brigand = fight.combatant("Brigand")
    fight = fight.with_combatant(replace(
        brigand, record=brigand.record.add_injury("Thorax", "Blunt", 1)))
    keep(page, roster)
    page.add_init_script(f"window.localStorage.setItem({json.dumps(fight_key('percentile'))}, "
                         f"{json.dumps(_kept_fight(fight))})")
    open_chapter(page, f"{book_url}/percentile/injury.ipynb")
    tool = page.locator(".rulebook-pc-injury").first
    expect(tool).to_be_visible(timeout=60_000)
    tool.get_by_label("Fighter from the fight").select_option(label="Brigand (fighting; 1 injury)")
    tool.get_by_role("button", name="Open their record").click()
    expect(tool.locator(".rulebook-pc-opened")).to_contain_text("Opened Brigand's record")
    set_value(tool.get_by_label("Aimed zone (ZN)"), "4")
    set_value(tool.get_by_label("Strength modifier"), "1")
    row = roster.fighter("Brigand")
    walk = pc.injury_sequence(zone_die=6, aim_zone=4, impact_die=10, impact_modifier=3,
                              strength_modifier=1, aspect="E", armour=row["av_torso_e"],
                              shock_eml=row["shock"], strength_eml=row["strength_eml"],
                              reroll=True, record=fight.combatant("Brigand").record,
                              dice=[2, 7, 8, 75, 42])
    assert walk.outcome.startswith("Abdomen: S2E injury; shock 8 → INC")
    _use(tool, "2, 7, 8, 75, 42")
    expect(tool.locator(".rulebook-pc-injury-result")).to_contain_text(walk.outcome)
    tool.get_by_role("button", name="Show every step").click()
    expect(tool.locator(".rulebook-pc-stage").filter(has_text="Compound")).to_have_count(0)
    tool.get_by_role("button", name="Write to the injury record").click()
    expect(tool.locator(".rulebook-pc-written")).to_contain_text("S2E abdomen")
    assert [i.code for i in walk.record.injuries] == ["M1B", "S2E"]


def test_an_injury_added_by_mistake_comes_off_the_healing_chapter_s_record(page: Page,
                                                                         book_url):
    """The injury record of the healing chapter is the reader's sheet: an S2E thigh added
    beside the chapter's S2E abdomen by mistake is picked in Injury to remove and taken off,
    and the abdomen stays the injury to treat."""
    tool = open_tool(page, book_url, "percentile/healing", ".rulebook-pc-healing")
    tool.get_by_role("button", name="Add injury").click()
    tool.get_by_label("Location").select_option(label="Thigh")
    tool.get_by_role("button", name="Add injury").click()
    sheet = tool.locator(".rulebook-pc-sheet")
    expect(sheet).to_contain_text("Thigh")
    tool.get_by_label("Injury to remove").select_option(label="2. S2E thigh")
    tool.get_by_role("button", name="Remove injury").click()
    expect(sheet).not_to_contain_text("Thigh")
    expect(sheet).to_contain_text("Abdomen")
    expect(tool.get_by_label("Injury to treat").locator("option")).to_have_text(
        ["1. S2E abdomen"])
    tool.get_by_role("button", name="Add injury").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "percentile_healing_remove_injury.png"))


def test_setup_advantages_on_the_fight_page_s_melee_panel(page: Page, book_url):
    """Melee Test Results, Setup, on the fight page: Nolora with two Setups against the
    Brigand's Counterstrike with one; the odds and a seeded exchange read what the engine
    gives with the same Setups and seed, and an Ignore leaves the defender none to give."""
    from rulescore.dice import DiceSource
    from widgets.percentile_fight import MeleePanel
    page.set_viewport_size({"width": 1280, "height": 1600})
    melee = open_panel(page, book_url, "Melee exchange", ".rulebook-pc-fight-melee")
    expect(melee.get_by_label("Attacker", exact=True)).to_have_value("Nolora")
    expect(melee.get_by_label("Defender", exact=True)).to_have_value("Brigand")
    set_value(melee.get_by_label("Attacker's Setup advantages"), "2")
    set_value(melee.get_by_label("Defender's Setup advantages"), "1")
    rows = starter()
    fight = pc.fight_for(rows)
    nolora, brigand = rows.fighter("Nolora"), rows.fighter("Brigand")
    lifted = pc.melee_odds(fight, nolora, brigand, attack_setups=2, defence_setups=1)
    best, p = max(lifted.odds.items(), key=lambda kv: kv[1])
    expect(melee.locator(".rulebook-pc-fight-odds tbody tr").first).to_contain_text(
        f"{MeleePanel.name(best)}{percent(p)}")
    melee.get_by_label("Exchange seed", exact=True).fill("5")
    melee.get_by_role("button", name="Replay the exchange's seed").click()
    strike = pc.melee_attack(fight, nolora, brigand, attack_setups=2, defence_setups=1,
                             dice=DiceSource.seeded(5))
    expect(melee.locator(".rulebook-pc-fight-result")).to_contain_text(strike.outcome)
    expect(melee.locator(".rulebook-trace")).to_contain_text("Setup")
    melee.screenshot(path=str(SHOTS / "percentile_fight_melee_setup.png"))
    melee.get_by_label("Defence", exact=True).select_option("Ignore")
    expect(melee.get_by_label("Defender's Setup advantages")).to_be_disabled()
    expect(melee.get_by_role("alert")).to_have_count(0)
    # the Brigand Ignores: his Setup has no test to lift, and the explanation says so
    melee.get_by_role("button", name="Replay the exchange's seed").click()
    ignored = pc.melee_attack(fight, nolora, brigand, defence="Ignore", attack_setups=2,
                              defence_setups=1, dice=DiceSource.seeded(5))
    expect(melee.locator(".rulebook-pc-fight-result")).to_contain_text(ignored.outcome)
    expect(melee.get_by_role("alert")).to_have_count(0)
    expect(melee.locator(".rulebook-trace")).to_contain_text(
        "Defender's Setup TA from the last round (1) does not apply: the defender Ignores, "
        "so there is no Melee or Dodge test to lift")
    melee.screenshot(path=str(SHOTS / "percentile_fight_melee_ignore_setup.png"))


def test_an_attacker_with_a_grievous_arm_has_no_setup_to_use_on_the_fight_page(page: Page,
                                                                               book_url):
    """Injury 5, Tests with Grievous Injury: Nolora's G4E shoulder (kept in this browser's
    fight) leaves her arms zone unusable, so her attack is an automatic CF with no roll and
    her Setup has no test to lift: the Attacker's Setup field is greyed with the engine's
    reason beside it. Taking the injury off her record gives the field back."""
    roster = starter()
    fight = pc.fight_for(roster)
    nolora = fight.combatant("Nolora")
    hurt = fight.with_combatant(replace(
        nolora, record=nolora.record.add_injury("Shoulder", "Edge", 4)))
    why = pc.attack_untested(hurt, roster.fighter("Nolora"), roster.fighter("Brigand"))
    assert why == ("Nolora's arms zone is unusable (Grievous injury): the attack is an "
                   "automatic CF, no test")
    keep(page, roster)
    page.add_init_script(f"window.localStorage.setItem({json.dumps(fight_key('percentile'))}, "
                         f"{json.dumps(_kept_fight(hurt))})")
    page.set_viewport_size({"width": 1280, "height": 1600})
    melee = open_panel(page, book_url, "Melee exchange", ".rulebook-pc-fight-melee")
    expect(melee.get_by_label("Attacker", exact=True)).to_have_value("Nolora")
    setup = melee.get_by_label("Attacker's Setup advantages")
    expect(setup).to_be_disabled()
    expect(melee.get_by_label("Defender's Setup advantages")).to_be_enabled()
    expect(melee.locator(".rulebook-pc-attacker-setup-why")).to_have_text(f"Not used: {why}.")
    after = open_panel(page, book_url, "Shock and healing", ".rulebook-pc-fight-after",
                       load=False)
    after.get_by_label("Fighter", exact=True).select_option("Nolora")
    expect(after.get_by_label("Injury", exact=True).locator("option")).to_have_text(
        ["1. G4E shoulder (untreated)"])
    after.get_by_role("button", name="Remove this injury").click()
    expect(page.locator(".rulebook-pc-fight-order tr[data-fighter='Nolora']")
           .locator(".rulebook-pc-injuries")).to_have_text("none")
    expect(setup).to_be_enabled()
    expect(melee.locator(".rulebook-pc-attacker-setup-why")).to_have_text("")
