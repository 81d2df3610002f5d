"""The percentile chapters' worked examples and fight-page gaps still without a browser test
(issue 21 items 2-4), each entered into the tool on its page as a reader would and read back as
the chapter prints it: the Setup advantage in the melee resolver, the armour of the zone a
strike lands in, read from the struck fighter's roster row in the injury walker, and an injury
taken off a fighter's record on the fight page."""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect

from rulescore.roster import Roster
from rulescore.systems import percentile as pc
from rulescore.text import percent
from tests.browser.reader import open_chapter, open_tool, set_value
from tests.browser.test_percentile_fight import SHOT, SHOTS, open_panel
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
    with Remove this injury; the Shock state stays for the GM's Shock roll, and Undo puts the
    injury back."""
    page.set_viewport_size({"width": 1280, "height": 1600})
    shot = open_panel(page, book_url, "Missile shot", ".rulebook-pc-fight-missile")
    set_value(shot.get_by_label("Range (ft)"), "20")
    _use(shot, SHOT)
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
    expect(brigand.locator(".rulebook-pc-state")).to_have_text("Incapacitated")
    expect(after.get_by_role("button", name="Remove this injury")).to_be_disabled()
    after.screenshot(path=str(SHOTS / "percentile_fight_remove_injury.png"))
    page.get_by_role("button", name="Undo", exact=True).click()
    expect(brigand.locator(".rulebook-pc-injuries")).to_have_text("S2P abdomen")
