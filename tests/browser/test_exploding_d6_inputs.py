"""Every input of the exploding-d6 attack pipeline and reaction helper, changed as a reader
would, with the setup and odds checked against the engine."""

from playwright.sync_api import Page, expect

from rulescore.systems import exploding_d6 as x6
from rulescore.text import odds
from tests.browser.reader import open_tool, set_value

CHAPTER = "exploding_d6/combat"


def _setup_text(s: x6.AttackSetup) -> str:
    crit = "no criticals (burst)" if s.burst else f"critical on {s.crit_at}+"
    return f"Roll {s.dice} dice: hit on {s.min_roll}+, {crit}."


def test_attack_pipeline_every_input(page: Page, book_url):
    tool = open_tool(page, book_url, CHAPTER, ".rulebook-x6-attack")
    setup = tool.locator(".rulebook-x6-setup")
    for label, value in (("Skill", "4"), ("Weapon dice", "3"), ("Attack in a row", "2"),
                         ("Recoil compensation", "1"), ("Aim actions", "1"),
                         ("Perception", "2")):
        set_value(tool.get_by_label(label, exact=True), value)
    tool.get_by_label("Attack mode").select_option(label="Single shot")
    tool.get_by_label("Walking (+1 min. roll)").check()
    tool.get_by_label("Weapon supported (−1)").check()
    tool.get_by_label("Special attack").select_option(label="K.O. attack")
    s = x6.attack_setup(4, 3, "single", attack_number=2, compensation=1, aim_actions=1,
                        perception=2, special="ko", walking=True, supported=True)
    expect(setup).to_contain_text(_setup_text(s))
    hit = x6.hit_odds(s.dice, s.min_roll, s.crit_at, s.burst)
    expect(tool.locator(".rulebook-headline")).to_contain_text(odds(hit.p_at_least(1)))

    tool.get_by_label("Special attack").select_option(label="None")
    tool.get_by_label("Attack mode").select_option(label="Burst")
    burst = x6.attack_setup(4, 3, "burst", attack_number=2, compensation=1, aim_actions=0,
                            perception=2, special="none", walking=True, supported=True)
    expect(setup).to_contain_text(_setup_text(burst))

    tool.get_by_label("Attack mode").select_option(label="Hand-to-hand")
    set_value(tool.get_by_label("Attack in a row", exact=True), "1")
    tool.get_by_label("Target's cover").select_option(label="5+ half hidden / shield")
    for label, value in (("Protection pool", "3"), ("Of it against crits", "1"),
                         ("Wounds a hit", "2")):
        set_value(tool.get_by_label(label, exact=True), value)
    melee = x6.attack_setup(4, 3, "melee", attack_number=1, compensation=1, aim_actions=1,
                            perception=2, special="none", walking=True, supported=True)
    wounds = x6.wound_distribution(melee.dice, melee.min_roll, melee.crit_at, melee.burst,
                                   cover=5, pool=3, critical_pool=1, wounds_per_hit=2)
    expect(tool.locator(".rulebook-x6-wound-odds")).to_contain_text(
        f"{float(wounds.mean()):.2f} wounds on average")

    set_value(tool.get_by_label("Wounds a hit", exact=True), "0")
    expect(tool.get_by_role("alert")).to_contain_text("Wounds a hit must be 1 or more")
    set_value(tool.get_by_label("Wounds a hit", exact=True), "1")
    set_value(tool.get_by_label("Skill", exact=True), "x")
    expect(tool.get_by_role("alert")).to_contain_text("Skill")


def test_reaction_helper_every_input(page: Page, book_url):
    tool = open_tool(page, book_url, CHAPTER, ".rulebook-x6-reaction")
    headline = tool.locator(".rulebook-headline")
    for kind, label in (("dodge", "Dodge"), ("parry", "Parry")):
        tool.get_by_label("Reaction").select_option(label=label)
        set_value(tool.get_by_label("Attacker's normal hits"), "2")
        set_value(tool.get_by_label("Attacker's criticals"), "1")
        set_value(tool.get_by_label("Your dice"), "3")
        set_value(tool.get_by_label("Your minimum roll"), "5")
        dist = x6.reaction_odds(kind, 3, 2, 1, 5)
        expect(headline).to_contain_text(odds(dist.get(0, 0)))
    tool.get_by_role("button", name="Roll", exact=True).click()
    expect(tool.get_by_label("Seed", exact=True)).not_to_have_value("")
    seed = tool.get_by_label("Seed", exact=True).input_value()
    first = tool.locator(".rulebook-total").inner_text()
    tool.get_by_label("Seed", exact=True).fill(seed)
    tool.get_by_role("button", name="Replay seed").click()
    expect(tool.locator(".rulebook-total")).to_have_text(first)
    set_value(tool.get_by_label("Your dice"), "-1")
    expect(tool.get_by_role("alert")).to_be_visible()
