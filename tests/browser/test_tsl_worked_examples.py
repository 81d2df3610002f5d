"""The TSL chapters' worked examples done in the tool beside them (issue 22 item 4): each
example's inputs entered in the served tool give the result the chapter prints, which the test
works out with the same rulescore call the chapter's cell makes."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from rulescore.systems import tsl
from tests.browser.reader import open_chapter, set_value

ATTACKS = "tsl/attacks.ipynb"
COMBAT = "tsl/combat.ipynb"


def _resolver(page: Page, book_url: str, index: int = 0):
    open_chapter(page, f"{book_url}/{ATTACKS}")
    tool = page.locator(".rulebook-tsl-attack").nth(index)
    expect(tool).to_be_visible(timeout=60_000)
    return tool


def _use_dice(tool, faces: list[int]) -> None:
    tool.get_by_label("My dice").fill(", ".join(map(str, faces)))
    tool.get_by_role("button", name="Use my dice").click()


def _said(result: tsl.Attack) -> str:
    return (f"{tsl.band_name(result.band)}: {result.stress} Stress"
            + (f" to the {result.pool} pool" if result.stress else ""))


def test_a_success_on_a_fresh_and_on_a_worn_pool(page: Page, book_url):
    """The chapter's Success against a fresh character (half the pool goes), then against one
    who already carries 3 Body Stress (the pool fills)."""
    dice = [6, 4, 3, 3, 1]
    solid = tsl.attack(dice, "Proficient", target=11, target_pools=tsl.new_pools())
    worn = tsl.attack(dice, "Proficient", target=11, target_pools=tsl.new_pools(body=3))
    tool = _resolver(page, book_url)
    _use_dice(tool, dice)
    expect(tool.locator(".rulebook-tsl-result")).to_contain_text(_said(solid))
    expect(tool.locator(".rulebook-tsl-pool")).to_have_text(
        f"Target's Body pool: {solid.target_pools.stress('Body')} of 4 Stress marked (2 left)")
    set_value(tool.get_by_label("Stress already on its Body pool"), "3")
    _use_dice(tool, dice)
    expect(tool.locator(".rulebook-tsl-result")).to_contain_text("the target Breaks")
    expect(tool.locator(".rulebook-tsl-pool")).to_have_text(
        f"Target's Body pool: {worn.target_pools.stress('Body')} of 4 Stress marked (Broken)")


def test_velas_shot_at_the_thug(page: Page, book_url):
    """The ambush: Vela's Proficient Hand roll with a Silent sidearm at Near, T11, against a
    Grunt: 16, a Success, 2 Stress, and the Grunt Breaks."""
    dice = [3, 6, 1, 4, 3]
    shot = tsl.attack(dice, "Proficient", target=11, weapon=tsl.make_weapon("Sidearm", ["Silent"]),
                      distance="Near", attack_type="Ranged weapon",
                      target_pools=tsl.new_pools("grunt"))
    tool = _resolver(page, book_url)
    tool.get_by_label("Attack type").select_option(label="Ranged weapon")
    tool.get_by_label("Target is").select_option(label="a Grunt (pools of 2)")
    tool.get_by_label("Weapon zone").select_option(label="Sidearm")
    tool.get_by_label("First tag").select_option(label="Silent")
    tool.get_by_label("Distance to target").select_option(label="Near")
    _use_dice(tool, dice)
    result = tool.locator(".rulebook-tsl-result")
    expect(result).to_contain_text(_said(shot))
    expect(result).to_contain_text("the target Breaks")
    expect(tool.get_by_text(f"Total {shot.total} against T11, margin +{shot.margin}")) \
        .to_be_visible()


def test_mars_taunt_opposed(page: Page, book_url):
    """Mar's Trained Voice roll, 13, against the thug's Untrained Mind, 8: Mar wins by 5 (the
    second resolver of the chapter is set up for an opposed roll)."""
    taunt = tsl.opposed_roll([4, 2, 6, 1, 3], "Trained", [1, 5, 2, 3, 1], "Untrained")
    tool = _resolver(page, book_url, 1)
    _use_dice(tool, [4, 2, 6, 1, 3, 1, 5, 2, 3, 1])
    expect(tool.get_by_text(f"Total {taunt.total} against the defender's "
                            f"{taunt.defender_total}, margin +{taunt.margin}")).to_be_visible()


def test_double_movement_on_the_turn_board(page: Page, book_url):
    """The combat chapter's Double Movement: the Action and the Movement are both spent, the
    Reaction is not."""
    after = tsl.spend(tsl.TurnState(), "Double Movement")
    open_chapter(page, f"{book_url}/{COMBAT}")
    board = page.locator(".rulebook-tsl-turns").first
    expect(board).to_be_visible(timeout=60_000)
    # a fresh browser keeps no board: the default one shows once the browser has answered
    expect(board.locator(".rulebook-tsl-round")).to_be_visible(timeout=60_000)
    board.get_by_label("Spend", exact=True).select_option(label="Double Movement")
    board.get_by_role("button", name="Spend", exact=True).click()
    row = board.get_by_role("row", name="▶ Vela")
    cells = ["used" if after.state.used(p) else "ready"
             for p in ("action", "movement", "reaction")]
    expect(row).to_have_text("▶ Vela" + "".join(cells))
