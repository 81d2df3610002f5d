"""The served Veil & Lead fight page, used as a GM would: the starter roster rolled onto the
Count, one exchange (next turn, the acting fighter's attack on the chosen target, apply) counted
and checked on the page, the Grievous Wound d8 rolled, undone and redone; the page screenshotted
for a person to look at."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.reader import SHOTS, open_tool, use_my_dice

# Initiative: Caleb's 4 d8 [8, 7, 1, 1] make 15 against 11, margin 4: Tick 3; the Enforcer's 2 d8
# [2, 1] make 3: a failure, Tick 6 and Surprised (§II).
INITIATIVE = "8, 7, 1, 1, 2, 1"
# Caleb's Peacemaker: 6 d8 against Defense 9 − 2 (Surprised) = TN 7; 8 + 8 + 2 (Masterwork) = 18,
# margin 11: 3 Steps; WR 3 + 3 − AR 1 (Duster) = 5 damage: 10 → 5, Wounded, a Grievous Wound.
ATTACK = "8, 8, 1, 1, 1, 1"




def test_one_exchange_lands_on_the_target(page: Page, book_url):
    page.set_viewport_size({"width": 1280, "height": 1600})
    panel = open_tool(page, book_url, "veil_and_lead/fight", ".rulebook-vl-fight")
    use_my_dice(panel, INITIATIVE, name="initiative")
    board = panel.locator(".rulebook-vl-fight-board")
    enforcer = board.locator("tr[data-fighter='Enforcer']")
    expect(enforcer.locator(".conditions")).to_have_text("Surprised")
    expect(enforcer.locator(".vitality")).to_have_text("10 / 10")
    page.screenshot(path=str(SHOTS / "veil_and_lead_fight_top.png"))

    interactions = 0
    panel.get_by_role("button", name="Next turn").click()
    interactions += 1
    expect(panel.locator(".rulebook-vl-acting")).to_contain_text("Caleb to act")
    expect(panel.get_by_label("Acting fighter", exact=True)).to_have_value("Caleb")
    expect(panel.get_by_label("Target", exact=True)).to_have_value("Enforcer")
    expect(panel.locator(".rulebook-vl-fight-odds")).to_contain_text("6 d8 against TN 7")
    use_my_dice(panel.locator(".rulebook-vl-fight-attack"), ATTACK)
    interactions += 2
    expect(panel.locator(".rulebook-vl-fight-result")).to_contain_text("Hit: 5 damage")
    panel.get_by_role("button", name="Apply to the target").click()
    interactions += 1
    expect(enforcer.locator(".vitality")).to_have_text("5 / 10")
    expect(enforcer.locator(".state")).to_have_text("Wounded")
    expect(board.locator("tr[data-fighter='Caleb'] td").nth(1)).to_have_text("Tick 7")
    assert interactions <= 6

    grievous = panel.locator(".rulebook-vl-fight-grievous")
    expect(grievous).to_be_visible()
    grievous.get_by_role("button", name="Roll the Grievous Wound", exact=True).click()
    expect(page.locator(".rulebook-roll-log")).to_contain_text("Grievous Wound d8 for Enforcer")
    expect(grievous).to_be_hidden()
    expect(page.locator(".rulebook-roll-log")).to_contain_text("Caleb's Steady Shot at Enforcer")
    page.locator(".rulebook-fight").screenshot(path=str(SHOTS / "veil_and_lead_fight.png"))
    page.get_by_role("button", name="Undo", exact=True).click()
    expect(grievous).to_be_visible()
    page.get_by_role("button", name="Undo", exact=True).click()
    expect(enforcer.locator(".vitality")).to_have_text("10 / 10")
    page.get_by_role("button", name="Redo", exact=True).click()
    expect(enforcer.locator(".state")).to_have_text("Wounded")


def test_downed_bleeds_and_a_coup_de_grace_ends_it(page: Page, book_url):
    page.set_viewport_size({"width": 1280, "height": 1600})
    panel = open_tool(page, book_url, "veil_and_lead/fight", ".rulebook-vl-fight")
    attack = panel.locator(".rulebook-vl-fight-attack")
    grievous = panel.locator(".rulebook-vl-fight-grievous")
    board = panel.locator(".rulebook-vl-fight-board")
    enforcer = board.locator("tr[data-fighter='Enforcer']")
    use_my_dice(panel, INITIATIVE, name="initiative")
    next_turn = panel.get_by_role("button", name="Next turn")
    apply = panel.get_by_role("button", name="Apply to the target")
    # Tick 3, Caleb: 8 + 8 + 2 = 18 against TN 7: 3 Steps, 5 damage (Duster 1): 10 → 5; the
    # Grievous d8 1 is a Flesh Wound.
    next_turn.click()
    use_my_dice(attack, "8, 8, 8, 8, 8, 8")
    apply.click()
    use_my_dice(panel, "1", name="Grievous Wound")
    expect(enforcer.locator(".conditions")).to_contain_text("Flesh Wound")
    # Tick 6, the Enforcer: QUICK 1 + skill 2 − Wounded 1 − Flesh Wound 1 = 1 d8; a 1 misses.
    next_turn.click()
    expect(panel.locator(".rulebook-vl-fight-odds")).to_contain_text("1 d8 against TN 11")
    use_my_dice(attack, "1")
    apply.click()
    # Tick 7, Caleb again (TN 9 now the Enforcer has acted): 18, margin 9: 5 damage → 0, Downed.
    next_turn.click()
    use_my_dice(attack, "8, 8, 8, 8, 8, 8")
    apply.click()
    expect(enforcer.locator(".state")).to_have_text("Downed")
    use_my_dice(panel, "1", name="Grievous Wound")
    walker = panel.locator(".rulebook-vl-fight-stabilize")
    expect(walker).to_be_visible()
    expect(panel.get_by_label("Patient", exact=True)).to_have_value("Enforcer")
    panel.screenshot(path=str(SHOTS / "veil_and_lead_fight_downed.png"))
    # Tick 11: both tokens; the Enforcer bleeds to −1 as the turn starts; Caleb (a PC) acts
    # first: coup de grâce at Point-Blank, TN 7, 16 + 2 = 18: 3 Steps, 5 damage → dead.
    next_turn.click()
    expect(enforcer.locator(".vitality")).to_have_text("-1 / 10")
    panel.get_by_role("button", name="Coup de grâce").click()
    expect(enforcer.locator(".state")).to_have_text("Dead")
    expect(walker).to_be_hidden()


def test_the_roster_folds_so_the_count_and_the_attack_are_on_the_first_screen(page: Page,
                                                                              book_url):
    page.set_viewport_size({"width": 1280, "height": 900})
    panel = open_tool(page, book_url, "veil_and_lead/fight", ".rulebook-vl-fight")
    fight = page.locator(".rulebook-fight").first
    expect(fight.get_by_text("Fighters: Caleb, Enforcer —")).to_be_visible()
    expect(fight.get_by_label("QUICK of Caleb")).to_be_hidden()
    use_my_dice(panel, INITIATIVE, name="initiative")
    page.locator(".rulebook-fight h3").evaluate("h => h.scrollIntoView()")
    top = page.locator(".rulebook-fight h3").bounding_box()["y"]
    for part in (".rulebook-vl-fight-board", ".rulebook-vl-fight-attack"):
        box = panel.locator(part).bounding_box()
        assert box["y"] - top < 900, f"{part} starts {box['y'] - top:.0f}px below the title"
    page.screenshot(path=str(SHOTS / "veil_and_lead_fight_1280x900.png"))
    fight.get_by_role("button", name="edit", exact=True).click()
    expect(fight.get_by_label("QUICK of Caleb")).to_be_visible()
