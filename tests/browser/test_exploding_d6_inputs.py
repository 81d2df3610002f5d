"""Every input of the exploding-d6 attack tool, changed as a reader would, with the setup and
the odds checked against the engine."""

from playwright.sync_api import Page, expect

from rulescore.systems import exploding_d6 as x6
from tests.browser.reader import open_tool, set_value

CHAPTER = "exploding_d6/combat"


def _setup_text(s: x6.AttackSetup) -> str:
    crit = "no criticals (burst)" if s.burst else f"critical on {s.crit_at}+"
    return f"Roll {s.dice} dice: hit on {s.min_roll}+, {crit}."


def test_attack_every_input(page: Page, book_url):
    tool = open_tool(page, book_url, CHAPTER, ".rulebook-x6-attack")
    setup = tool.locator(".rulebook-x6-setup")
    tool.get_by_role("button", name="Special attacks, range, recoil").click()
    for label, value in (("Skill", "4"), ("Weapon dice", "3"), ("Attack in a row", "2"),
                         ("Recoil compensation", "1"), ("Aim actions", "1"),
                         ("Perception", "2"), ("Usual minimum roll", "4"),
                         ("Target's distance (m)", "45"), ("Weapon distance (m)", "30")):
        set_value(tool.get_by_label(label, exact=True), value)
    tool.get_by_label("Attack mode").select_option(label="Single shot")
    tool.get_by_label("Walking (+1 min. roll)").check()
    tool.get_by_label("Weapon supported (−1)").check()
    tool.get_by_label("Off-hand weapon (+1)").check()
    tool.get_by_label("Special attack").select_option(label="Accurate")
    set_value(tool.get_by_label("Extra actions", exact=True), "1")
    s = x6.attack_setup(4, 3, "single", min_roll=4, attack_number=2, compensation=1,
                        aim_actions=1, accurate_actions=1, perception=2, walking=True,
                        supported=True, off_hand=True, distance=45, weapon_range=30)
    expect(setup).to_contain_text(_setup_text(s))

    tool.get_by_label("Special attack").select_option(label="Massive")
    set_value(tool.get_by_label("Strength", exact=True), "2")
    tool.get_by_label("Attack mode").select_option(label="Hand-to-hand")
    m = x6.attack_setup(4, 3, "melee", min_roll=4, attack_number=2, compensation=1,
                        aim_actions=1, perception=2, walking=True, supported=True,
                        off_hand=True, distance=45, weapon_range=30, special="massive",
                        massive_actions=1, strength=2)
    expect(setup).to_contain_text(_setup_text(m))

    tool.get_by_label("Reaction").select_option(label="Parry")
    # Choosing Parry fills the dice from the defender's row: the dice are typed last, once
    # that fill has long reached the page, as a reader would type over it
    for label, value in (("Defender's min. roll", "4"), ("Protection pool", "3"),
                         ("Of it against crits", "1"), ("Wounds a hit", "2"),
                         ("Piercing", "1"), ("Dodge or parry dice", "2")):
        set_value(tool.get_by_label(label, exact=True), value)
        expect(tool.get_by_label(label, exact=True)).to_have_value(value)
    tool.get_by_label("Target's cover").select_option(label="6+ (light)")
    tool.get_by_label("Crits stopped first").select_option(label="the lightest")
    wounds = x6.attack_odds(m.dice, m.min_roll, m.crit_at, m.burst, reaction="parry",
                            reaction_dice=2, reaction_min_roll=4, cover=6, pool=3,
                            critical_pool=1, piercing=1, wounds_per_hit=2, prevent="lightest")
    expect(tool.locator(".rulebook-x6-wound-odds")).to_contain_text(
        f"{float(wounds.mean()):.2f} wounds on average")

    tool.get_by_label("Reaction").select_option(label="Shield parry")
    tool.get_by_label("Shield behind cover").select_option(label="two rolls")
    each = x6.attack_odds(m.dice, m.min_roll, m.crit_at, m.burst, reaction="shield parry",
                          cover=6, stacking="each", pool=3, critical_pool=1, piercing=1,
                          wounds_per_hit=2, prevent="lightest")
    expect(tool.locator(".rulebook-x6-wound-odds")).to_contain_text(
        f"{float(each.mean()):.2f} wounds on average")

    tool.get_by_label("Special attack").select_option(label="K.O.")
    set_value(tool.get_by_label("Resistance dice", exact=True), "2")
    expect(setup).to_contain_text("This attack deals no wounds.")
    expect(tool.locator(".rulebook-x6-wound-odds")).to_have_count(0)

    set_value(tool.get_by_label("Wounds a hit", exact=True), "0")
    expect(tool.get_by_role("alert")).to_contain_text("Wounds a hit must be 1 or more")
    set_value(tool.get_by_label("Wounds a hit", exact=True), "1")
    set_value(tool.get_by_label("Target's distance (m)", exact=True), "70")
    expect(tool.get_by_role("alert")).to_contain_text(
        "“Target's distance (m)” must be at most twice the weapon's 30 m (60 m), got 70 m")
    set_value(tool.get_by_label("Skill", exact=True), "x")
    expect(tool.get_by_role("alert")).to_contain_text("Skill")
