"""More of the Veil & Lead chapters' worked examples, each entered in the tool on its own page
as a reader would, reading the result the chapter prints (its asserts hold the same numbers
against the engine)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from rulescore.systems import veil_and_lead as vl
from tests.browser.reader import open_tool, set_value


def test_the_actions_chapters_tempos_and_exposure_in_the_tempo_calculator(page: Page,
                                                                          book_url):
    """§III: a Quick Shot with a Derringer is never under 3, a Shiv with brass knuckles never
    under 2, a Heavy Cleave with a sledgehammer 6 + 2 = 8; Take Cover (3) never exposes, a
    Sprint (4) always does; a Rush / Charge ending in a blow is 4 + 1 = 5."""
    tool = open_tool(page, book_url, "veil_and_lead/actions", ".rulebook-vl-tempo")
    result = tool.locator(".rulebook-vl-tempo-result")
    # Taking cover and sprinting are not done with the weapon, so the result names none.
    cases = (("Quick Shot", "Derringer", "Quick Shot with Derringer: tempo 3 (from Derringer's "
              "base tempo 3)", "; Exposed"),
             ("Shiv", "Brass Knuckles", "Shiv with Brass Knuckles: tempo 2", "; Exposed"),
             ("Heavy Cleave", "Sledgehammer", "Heavy Cleave with Sledgehammer: tempo 8",
              "not Exposed"),
             ("Take Cover", "Peacemaker", "Take Cover: tempo 3 (a fixed tempo)", "not Exposed"),
             ("Sprint", "Peacemaker", "Sprint: tempo 4 (a fixed tempo)", "; Exposed"))
    for action, weapon, tempo, exposed in cases:
        tool.get_by_label("Weapon", exact=True).select_option(weapon)
        tool.get_by_label("Action", exact=True).select_option(action)
        expect(result).to_contain_text(tempo)
        expect(result).to_contain_text(exposed)
        assert vl.tempo(action, weapon) == int(tempo.split(": tempo ")[1].split()[0])
    tool.get_by_label("Weapon", exact=True).select_option("Hatchet")
    tool.get_by_label("Action", exact=True).select_option("Rush / Charge")
    tool.get_by_label("Rush / Charge ends in a melee attack (+1 tempo)").check()
    expect(result).to_contain_text("tempo 5 (the run's 4 + 1 for the melee attack on arrival)")
    assert vl.tempo("Rush / Charge", "Hatchet", attack_on_arrival=True) == 5


def test_the_movement_chapters_range_bands_in_their_tool(page: Page, book_url):
    """§VI Range Bands: 2 m is Point-Blank, 3 Close, 20 Near, 21 Far (a pistol's TN +2), 101
    Extreme; a shotgun cannot reach Extreme."""
    tool = open_tool(page, book_url, "veil_and_lead/movement", ".rulebook-vl-movement")
    shot = tool.locator(".rulebook-vl-shot")
    tool.get_by_label("Weapon", exact=True).select_option("Peacemaker")
    for metres, band in ((2, "Point-Blank"), (3, "Close"), (20, "Near"), (21, "Far"),
                         (101, "Extreme")):
        set_value(tool.get_by_label("Distance (m)"), str(metres))
        expect(shot).to_contain_text(f"At {metres} m the range is {band}")
        assert vl.range_band(metres) == band
    set_value(tool.get_by_label("Distance (m)"), "21")
    expect(shot).to_contain_text(
        f"Peacemaker (pistol) takes TN +{vl.range_modifier('pistol', 'Far').tn_modifier}")
    tool.get_by_label("Weapon", exact=True).select_option("Coach Gun")
    set_value(tool.get_by_label("Distance (m)"), "150")
    expect(shot).to_contain_text("Coach Gun cannot reach the target")
    assert not vl.range_modifier("shotgun", "Extreme").allowed


def test_calebs_turn_of_the_hammer_in_the_count_tracker(page: Page, book_url):
    """§I The Flow of Combat, the count chapter's example: Caleb acts at Tick 4 and fires his
    Peacemaker, a tempo-4 action: his token moves to Tick 8."""
    tool = open_tool(page, book_url, "veil_and_lead/count", ".rulebook-vl-count")
    tool.get_by_label("Name", exact=True).fill("Caleb")
    tool.get_by_label("Initiative margin").fill("2")            # a margin of 2: Tick 4
    tool.get_by_role("button", name="Add to the Count").click()
    log = tool.locator(".rulebook-vl-log")
    expect(log).to_contain_text("Caleb joins at Tick 4 (Slow)")
    tool.get_by_role("button", name="Next turn (turn the Hammer)").click()
    tool.get_by_label("Action", exact=True).select_option("Steady Shot")
    tool.get_by_label("Weapon", exact=True).select_option("Peacemaker")
    tool.get_by_role("button", name="Act", exact=True).click()
    expect(log).to_contain_text(f"Caleb: Steady Shot with Peacemaker, tempo 4 → Tick "
                                f"{vl.advance(4, 4)}")
    expect(tool.locator(".rulebook-vl-board").get_by_role("row", name="Caleb Tick 8 PC")) \
        .to_be_visible()


def test_hardened_armour_stops_the_first_grievous_wound_of_the_scene(page: Page, book_url):
    """§VII Armor, the injury chapter's example: 5 damage through Boiler Plate (AR 1, Hardened)
    is a Grievous Wound the armour negates the first time in a scene, not the second."""
    tool = open_tool(page, book_url, "veil_and_lead/injury", ".rulebook-vl-coup")
    result = tool.locator(".rulebook-vl-coup-result")
    tool.get_by_label("Target's armour").select_option("Boiler Plate")
    set_value(tool.get_by_label("Critical bonus (Steps)"), "1")
    first = vl.coup_de_grace(3, 9, 1, critical=1, hardened=True)
    assert first.value == vl.damage(3, 6, 1, 1, hardened=True).value == 5
    expect(result).to_contain_text(f"{first.value} damage, 3 Steps — Hardened armour negates "
                                   "the Grievous Wound")
    tool.get_by_label("Hardened armour already spent this scene").check()
    expect(result).to_contain_text(f"{first.value} damage, 3 Steps — Grievous Wound")
