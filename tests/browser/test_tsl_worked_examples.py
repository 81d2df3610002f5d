"""The TSL chapters' worked examples done in the tool beside them (DESIGN.md §5): each
example's inputs entered in the served tool give the result the chapter prints, which the test
works out with the same rulescore call the chapter's cell makes."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from rulescore.systems import tsl
from tests.browser.reader import open_chapter, set_value
from tests.browser.tsl_steps import open_tsl_tool, static_t_number, use_dice

ATTACKS = "tsl/attacks.ipynb"
COMBAT = "tsl/combat.ipynb"


def _resolver(page: Page, book_url: str, index: int = 0):
    return open_tsl_tool(page, book_url, ATTACKS, ".rulebook-tsl-attack", index)


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
    use_dice(tool, dice)
    expect(tool.locator(".rulebook-tsl-result")).to_contain_text(_said(solid))
    expect(tool.locator(".rulebook-tsl-pool")).to_have_text(
        f"Target's Body pool: {solid.target_pools.stress('Body')} of 4 Stress marked (2 left)")
    set_value(tool.get_by_label("Stress already on its Body pool"), "3")
    use_dice(tool, dice)
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
    use_dice(tool, dice)
    result = tool.locator(".rulebook-tsl-result")
    expect(result).to_contain_text(_said(shot))
    expect(result).to_contain_text("the target Breaks")
    expect(tool.get_by_text(f"Total {shot.total} against T11, margin +{shot.margin}")) \
        .to_be_visible()


def test_mars_taunt_opposed(page: Page, book_url):
    """Mar's Trained Voice roll, 13, against the thug's Untrained Mind, 8: Mar wins by 5, set
    up by hand as the chapter's prose says (Kind of roll, the two tiers)."""
    taunt = tsl.opposed_roll([4, 2, 6, 1, 3], "Trained", [1, 5, 2, 3, 1], "Untrained")
    tool = _resolver(page, book_url)
    tool.get_by_label("Kind of roll").select_option(label="Opposed roll")
    tool.get_by_label("Attacker tier").select_option(label="Trained")
    tool.get_by_label("Defender tier").select_option(label="Untrained")
    use_dice(tool, [4, 2, 6, 1, 3, 1, 5, 2, 3, 1])
    expect(tool.get_by_text(f"Total {taunt.total} against the defender's "
                            f"{taunt.defender_total}, margin +{taunt.margin}")).to_be_visible()


def test_each_worked_example_in_one_pick(page: Page, book_url):
    """The resolver's Worked example menu: each pick sets the tool up and rolls the example's
    dice, giving the chapter's own results (the cells' rulescore calls), from any setup."""
    tool = _resolver(page, book_url)
    menu = tool.get_by_label("Worked example")
    result = tool.locator(".rulebook-tsl-result")
    menu.select_option(label="Mar's taunt: opposed, Trained against Untrained")
    taunt = tsl.opposed_roll([4, 2, 6, 1, 3], "Trained", [1, 5, 2, 3, 1], "Untrained")
    expect(tool.get_by_text(f"Total {taunt.total} against the defender's "
                            f"{taunt.defender_total}, margin +{taunt.margin}")).to_be_visible()
    expect(result).to_contain_text("to the Mind pool")
    expect(menu).to_have_value("pick one to set the tool up")   # ready for the next pick
    menu.select_option(label="Vela's shot at the thug (3 6 1 4 3)")
    shot = tsl.attack([3, 6, 1, 4, 3], "Proficient", target=11,
                      weapon=tsl.make_weapon("Sidearm", ["Silent"]), distance="Near",
                      attack_type="Ranged weapon", target_pools=tsl.new_pools("grunt"))
    expect(result).to_contain_text(_said(shot))
    expect(result).to_contain_text("the target Breaks")
    expect(tool.get_by_label("Defender tier")).to_be_hidden()
    expect(tool.get_by_label("First tag")).to_have_value("Silent")
    menu.select_option(label="Proficient against T11 (6 4 3 3 1)")
    solid = tsl.attack([6, 4, 3, 3, 1], "Proficient", target=11, target_pools=tsl.new_pools())
    expect(result).to_contain_text(_said(solid))
    expect(tool.locator(".rulebook-tsl-pool")).to_contain_text("2 of 4 Stress marked")


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


GEAR = "tsl/gear.ipynb"


def _pool(who: str, pools: tsl.StressPools, pool: str) -> str:
    state = "Broken" if pools.broken(pool) else f"{pools.left(pool)} left"
    return f"{who} {pool} pool: {pools.stress(pool)} of {pools.size(pool)} Stress marked ({state})"


def test_ground_a_path_walker_grant_reroll_and_steady_the_spirit(page: Page, book_url):
    """The support actions of the attacks chapter, one after another in the tool beside them:
    Ground a Path-walker to an ally Near (1 Spirit Stress), Grant Reroll paid by a helper with
    3 Body Stress for a failed Hand roll (the helper Breaks), Steady the Spirit for an ally
    with 3 Mind Stress, and the Steward's free Steady Presence."""
    ground = tsl.support("Ground a Path-walker", tsl.new_pools(), ally_zone="Near")
    reroll = tsl.support("Grant Reroll", tsl.new_pools(body=3), ally_zone="Near",
                         band="failure", domain="Hand")
    steady = tsl.support("Steady the Spirit", tsl.new_pools(), ally_zone="Near",
                         ally=tsl.new_pools(mind=3))
    tool = open_tsl_tool(page, book_url, ATTACKS, ".rulebook-tsl-support")
    result = tool.locator(".rulebook-tsl-result")
    tool.get_by_label("Support action").select_option(label="Ground a Path-walker")
    tool.get_by_label("Ally's zone").select_option(label="Near")
    expect(result).to_contain_text(f"uses the Action; you mark {ground.value} Spirit Stress")
    expect(tool.locator(".rulebook-tsl-pool")).to_have_text(_pool("Your", ground.helper,
                                                                  "Spirit"))
    tool.get_by_label("Support action").select_option(label="Grant Reroll")
    tool.get_by_label("The ally's failed roll").select_option(label="Failure")
    tool.get_by_label("Domain of that roll").select_option(label="Hand")
    set_value(tool.get_by_label("Your Body Stress"), "3")
    expect(result).to_contain_text("you Break")
    expect(tool.locator(".rulebook-tsl-pool")).to_have_text(_pool("Your", reroll.helper, "Body"))
    set_value(tool.get_by_label("Your Body Stress"), "0")
    tool.get_by_label("Support action").select_option(label="Steady the Spirit")
    set_value(tool.get_by_label("The ally's Mind Stress"), "3")
    expect(tool.locator(".rulebook-tsl-pool")).to_have_text(
        [_pool("Your", steady.helper, "Mind"), _pool("The ally's", steady.ally, "Mind")])
    tool.get_by_label("Support action").select_option(label="Steady Presence")
    expect(result).to_contain_text("free once a scene")


def test_kos_spirit_ability(page: Page, book_url):
    """Ko's Sense the Local Reality: no roll, 2 Spirit Stress on a fresh pool."""
    sense = tsl.spirit_ability(tsl.new_pools(), "Sense the Local Reality")
    tool = open_tsl_tool(page, book_url, ATTACKS, ".rulebook-tsl-spirit")
    set_value(tool.get_by_label("Spirit ability"), "Sense the Local Reality")
    set_value(tool.get_by_label("Stress already on your Spirit pool"), "0")
    expect(tool.locator(".rulebook-tsl-result")).to_contain_text(f"{sense.stress} Spirit Stress")
    expect(tool.locator(".rulebook-tsl-pool")).to_have_text(_pool("Your", sense.pools, "Spirit"))


def test_armour_on_the_standard_and_the_close_catastrophe_ladder(page: Page, book_url):
    """The gear chapter's two armoured defences: on the standard ladder the Crit lands and
    the armour is spent; on the close-catastrophe ladder the armour takes the Success whole."""
    standard = tsl.attack([6, 6, 6, 6, 6], "Trained", defender_dice=[5, 5, 1, 1, 1],
                          defender_tier="Trained", armour=True)
    close = tsl.attack([6, 6, 4, 1, 1], "Trained", defender_dice=[5, 5, 1, 1, 1],
                       defender_tier="Trained", armour=True, bands="close_catastrophe")
    tool = open_tsl_tool(page, book_url, GEAR, ".rulebook-tsl-attack", 0)
    tool.get_by_label("Kind of roll").select_option(label="Opposed roll")
    tool.get_by_label("Attacker tier").select_option(label="Trained")
    tool.get_by_label("Defender tier").select_option(label="Trained")
    tool.get_by_label("Target's armour is built for this blow").check()
    result = tool.locator(".rulebook-tsl-result")
    use_dice(tool, [6, 6, 6, 6, 6, 5, 5, 1, 1, 1])
    expect(result).to_contain_text(_said(standard))
    expect(tool.get_by_text(f"Total {standard.total} against the defender's {standard.against}, "
                            f"margin +{standard.margin}; the armour is spent")).to_be_visible()
    tool.get_by_label("Band ladder").select_option(label="close catastrophe")
    use_dice(tool, [6, 6, 4, 1, 1, 5, 5, 1, 1, 1])
    expect(result).to_contain_text(_said(close))
    expect(tool.get_by_text(f"margin +{close.margin}; rolled Success; the armour is spent")) \
        .to_be_visible()


def test_the_bottle_breaks(page: Page, book_url):
    """A Trained swing with a bottle at T8 totals 5: a Failure, and the bottle breaks."""
    bottle = tsl.attack([2, 2, 1, 1, 1], "Trained", target=8,
                        weapon=tsl.make_weapon("Melee", improvised=True))
    tool = open_tsl_tool(page, book_url, GEAR, ".rulebook-tsl-attack", 1)
    static_t_number(tool, "Trained", 8)
    tool.get_by_label("Weapon zone").select_option(label="Melee")
    tool.get_by_label("Improvised weapon (no tags)").check()
    use_dice(tool, [2, 2, 1, 1, 1])
    expect(tool.locator(".rulebook-tsl-result")).to_contain_text(_said(bottle))
    expect(tool.get_by_text(f"Total {bottle.total} against T8, margin {bottle.margin}; "
                            "the weapon breaks")).to_be_visible()


def test_the_repair_roll(page: Page, book_url):
    """A Trained character mends a Salvaged weapon: a Hand roll of 12 against T11, a Mixed
    Success, and it works again."""
    mend = tsl.repair("Salvaged", dice=[6, 5, 1, 1, 1], tier="Trained")
    tool = open_tsl_tool(page, book_url, GEAR, ".rulebook-tsl-repair")
    tool.get_by_label("Rarity").select_option(label="Salvaged")
    tool.get_by_label("Your Hand tier").select_option(label="Trained")
    use_dice(tool, [6, 5, 1, 1, 1])
    expect(tool.locator(".rulebook-tsl-result")).to_have_text("It works again")
    expect(tool.get_by_text(f"Hand roll total {mend.value}: {tsl.band_name(mend.band)}")) \
        .to_be_visible()


def test_the_boarding_pike_and_the_weighted_net(page: Page, book_url):
    """Reach: a foe closing from Far to Near on the pike is struck first. Snaring: a Mixed
    hit with the net at Near pulls the target to Engaged. Utility: the Wayfinder's Chain gives
    +1 Effective Tier on the roll it names."""
    pike = tsl.make_weapon("Melee", ["Reach"], name="Boarding pike")
    first = tsl.reach_first_strike(pike, "Far", "Near")
    pulled = tsl.snare(tsl.make_weapon("Thrown", ["Snaring"]), "mixed", "Near", "pull")
    assert first.strikes_first
    tool = open_tsl_tool(page, book_url, GEAR, ".rulebook-tsl-weapon")
    tool.get_by_label("Zone", exact=True).select_option(label="Melee")
    tool.get_by_label("First tag").select_option(label="Reach")
    tool.get_by_label("A foe moves from").select_option(label="Far")
    tool.get_by_label("The foe moves to").select_option(label="Near")
    expect(tool.locator(".rulebook-tsl-reach")).to_contain_text("You strike first")
    tool.get_by_label("Zone", exact=True).select_option(label="Thrown")
    tool.get_by_label("First tag").select_option(label="Snaring")
    tool.get_by_label("The hit lands as").select_option(label="Mixed Success")
    tool.get_by_label("Target's zone").select_option(label="Near")
    tool.get_by_label("Snaring", exact=True).select_option(label="pull them a zone nearer")
    expect(tool.locator(".rulebook-tsl-snare")).to_have_text(
        f"The target is pulled to {pulled.distance}")
    chain = tsl.utility_edge("Wayfinder's Chain", applies=True)
    tool.get_by_label("First tag").select_option(label="Wayfinder's Chain")
    tool.get_by_label("This roll is the kind its Utility tag names").check()
    expect(tool.locator(".rulebook-tsl-utility")).to_have_text(f"{chain.outcome} on this roll")


def test_a_bad_field_is_said_once_and_goes_when_fixed(page: Page, book_url):
    """The resolver says a bad T-number once, in place of the odds, also after a press of
    Use my dice; fixed, the message goes and the roll is made."""
    tool = _resolver(page, book_url)
    set_value(tool.get_by_label("T-number"), "high")
    use_dice(tool, [3, 6, 1, 4, 3])
    expect(tool.get_by_role("alert")).to_have_count(1)
    expect(tool.get_by_role("alert")).to_contain_text("T-number must be a whole number")
    set_value(tool.get_by_label("T-number"), "11")
    expect(tool.get_by_role("alert")).to_have_count(0)
    use_dice(tool, [3, 6, 1, 4, 3])
    expect(tool.locator(".rulebook-tsl-result")).to_contain_text("Success: 2 Stress")


def test_the_odds_of_a_proficient_roll_against_t11(page: Page, book_url):
    """The chapter's exact odds: a Proficient roller against T11 Crits 293 times in 864."""
    odds = tsl.band_odds("Proficient", 11)
    tool = _resolver(page, book_url)
    static_t_number(tool, "Proficient", 11)
    crit = tool.locator(".rulebook-tsl-odds").get_by_role("row", name="Crit")
    expect(crit).to_contain_text(f"{odds['crit'].numerator}/{odds['crit'].denominator}")


def test_the_thugs_charge(page: Page, book_url):
    """A Double Movement from Far to Engaged: two zones, the Action and the Movement."""
    charge = tsl.move("Far", "Engaged", double=True)
    tool = open_tsl_tool(page, book_url, COMBAT, ".rulebook-tsl-move")
    tool.get_by_label("From").select_option(label="Far")
    tool.get_by_label("To", exact=True).select_option(label="Engaged")
    tool.get_by_label("Double Movement").check()
    expect(tool.locator(".rulebook-tsl-result")).to_have_text(
        f"Far → Engaged: {charge.zones} zones; uses the Action and the Movement")


def test_the_lantern_for_the_rope(page: Page, book_url):
    """Mid-fight, swapping the Ready rope for the Stowed lantern costs an Action."""
    kit = tsl.make_loadout(["Rifle", "Knife", "Rope"], stowed=["Lantern"], worn=["Voidsuit"])
    swap = tsl.ready_item(kit, "Lantern", stow="Rope")
    tool = open_tsl_tool(page, book_url, GEAR, ".rulebook-tsl-loadout")
    set_value(tool.get_by_label("Ready", exact=True), "Rifle, Knife, Rope")
    set_value(tool.get_by_label("Stowed"), "Lantern")
    set_value(tool.get_by_label("Worn"), "Voidsuit")
    tool.get_by_label("Bring to Ready").select_option(label="Lantern")
    tool.get_by_label("Put away").select_option(label="Rope")
    tool.get_by_label("In the middle of a scene").check()
    expect(tool.locator(".rulebook-tsl-result")).to_have_text(
        f"Lantern: Stowed → Ready, an {swap.cost}")
    expect(tool.locator(".rulebook-tsl-ready")).to_have_text(
        "Ready now: " + ", ".join(swap.loadout.ready))


def test_velas_roll_keeps_four(page: Page, book_url):
    """The combat chapter's first roll: Proficient keeps 6, 4, 3 and 3 of 3, 6, 1, 4, 3: 16."""
    vela = tsl.roll_total([3, 6, 1, 4, 3], "Proficient")
    tool = open_tsl_tool(page, book_url, COMBAT, ".rulebook-tsl-roll")
    tool.get_by_label("Tier", exact=True).select_option(label="Proficient")
    use_dice(tool, [3, 6, 1, 4, 3])
    expect(tool.locator(".rulebook-tsl-result")).to_have_text(
        f"Total {vela.value}: Proficient keeps {' + '.join(map(str, vela.kept))}")
