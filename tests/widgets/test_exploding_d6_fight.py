"""The exploding-d6 fight page in plain pytest: initiative from the roster, the robber's attack
on Hagen with a parry as a step of it, one press to apply, saved reactions, other actions and
page-wide undo. The dice are typed, so every number is worked by hand from the seed."""

from __future__ import annotations

import pytest

from rulescore.roster import Roster
from rulescore.systems.exploding_d6.fight import landing_odds
from rulescore.text import percent
from widgets.exploding_d6_fight import FightPanel, fight_page, starter
from widgets.lean import is_shown


@pytest.fixture(autouse=True)
def live(monkeypatch):
    monkeypatch.delenv("RULEBOOK_TARGET", raising=False)


def typed(entry, dice: str) -> None:
    entry.my_dice.value = dice
    entry.use_dice_button.click()


def joined(roster: Roster | None = None):
    """Hagen rolls Quickness 3: 5, 5, 5 = 15; the robber 1, 1, 1 = 3 (§Start of combat)."""
    page = fight_page()
    page.editor.set_roster(roster or starter())
    panel = next(c for c in page.children if isinstance(c, FightPanel))
    typed(panel.join_entry, "5, 5, 5, 1, 1, 1")
    assert panel.error.message == "" and panel.join_entry.error.message == ""
    return page, panel


def test_initiative_from_the_roster_begins_the_first_turn():
    page, panel = joined()
    assert page.state.names() == ("Hagen", "Robber")
    assert "Hagen</b> to act (2 of 2" in panel.acting_line.value
    assert "— (first turn to come)" in panel.board.value
    assert page.rolls.entries[0][2] == "Hagen 15, Robber 3"
    assert not any(is_shown(x) for x in panel.joining)


def test_an_attack_with_a_parry_is_four_presses_and_lands_on_the_target():
    page, panel = joined()
    panel.next_button.click()                                             # 1
    assert (panel.attacker.value, panel.target.value) == ("Robber", "Hagen")
    assert [v for _, v in panel.reaction.options] == ["none", "dodge", "parry", "shield parry"]
    panel.reaction.value = "parry"                                        # 2
    # a parry rolls Hagen's weapon as if attacking: skill 3 + weapon dice 2, on his 5+
    assert (panel.reaction_dice.value, panel.reaction_min.value) == (5, 5)
    assert "86.83%" in panel.odds.value and "(211/243)" in panel.odds.value
    p = landing_odds(5, 5, 11, False, reaction="parry", reaction_dice=5, pool=2)
    assert f"After the parry, cover and protection: at least one wound on Hagen <b>" \
           f"{percent(p)}</b>" in panel.odds.value
    # 6→6→5 = 17 a megacritical (+1 wound), 5 and 6→1 = 7 hits; the parry's one 5 stops a
    # normal hit; Hagen's 2 units: one stops the last normal hit, the critical goes through.
    typed(panel.attack_entry, "6, 6, 5, 5, 6, 1, 3, 2, 5, 1, 2, 3, 4")      # 3
    assert panel.attack_entry.error.message == ""
    assert "2 wounds, a megacritical among them (+1 wound)" in panel.result.value
    assert panel.apply_button.description == "Apply to Hagen"
    panel.apply_button.click()                                            # 4
    hagen, robber = page.state.of("Hagen"), page.state.of("Robber")
    assert (hagen.wounds, hagen.protection, hagen.available) == (2, 1, 1)
    assert (robber.available, robber.attacks) == (1, 1)
    assert "1 saved to react" in panel.board.value
    assert page.rolls.entries[0][0] == "Robber attacks Hagen"
    page.undo()
    assert page.state.of("Hagen").wounds == 0 and page.state.of("Hagen").available == 2
    page.redo()
    assert page.state.of("Hagen").wounds == 2


def test_no_saved_action_no_reaction():
    page, panel = joined()
    panel.show_actions()
    panel.actions.other_action.value = "aim"
    panel.actions.act_button.click()
    panel.actions.act_button.click()
    assert page.state.of("Hagen").available == 0
    panel.next_button.click()
    assert [v for _, v in panel.reaction.options] == ["none"]
    assert "none left" in panel.board.value


def test_a_shot_offers_no_dodge_or_parry_and_recoil_counts_the_second_shot():
    roster = starter().update("Robber", mode="single", skill=2, weapon_dice=2, magazine=6)
    _, panel = joined(roster)
    panel.next_button.click()
    assert [v for _, v in panel.reaction.options] == ["none", "shield parry"]
    typed(panel.attack_entry, "1, 2, 3, 4")
    panel.apply_button.click()
    assert panel.error.message == ""
    # the second shot this round: minimum roll and critical threshold +2 (§Recoil)
    assert "hit on 7+, critical on 13+" in panel.setup_line.value


def test_a_ko_attack_needs_a_blunt_weapon_and_says_so_in_reader_words():
    _, panel = joined(starter().update("Robber", blunt=False))
    panel.next_button.click()
    panel.special.value = "ko"
    assert "K.O. attack needs a blunt weapon" in panel.error.message
    panel.special.value = "none"
    assert panel.error.message == ""


def test_more_options_fold_away():
    _, panel = joined()
    assert not is_shown(panel.options)
    panel.more.value = True
    assert is_shown(panel.options)


def test_a_fighter_added_to_the_roster_joins_and_one_taken_off_is_no_target():
    page, panel = joined()
    page.editor.set_roster(page.roster.add("Thug", quickness=2))
    assert all(is_shown(x) for x in panel.joining) and "Thug" in panel.join_help.value
    typed(panel.join_entry, "2, 1")
    assert page.state.names() == ("Hagen", "Robber", "Thug")
    assert page.state.actor.name == "Hagen" and page.state.of("Thug").available == 0
    page.editor.set_roster(page.roster.remove("Robber"))
    assert list(panel.target.options) == ["Thug"]


# -- carried from turn to turn ----------------------------------------------------------------

def test_other_actions_are_built_on_first_open():
    _, panel = joined()
    assert panel._actions is None
    panel.opener.value = True
    assert is_shown(panel.actions) and list(panel.actions.who.options) == ["Hagen", "Robber"]
    panel.opener.value = False
    assert not is_shown(panel.actions)


def test_a_shield_block_raised_covers_the_next_rounds_attacks():
    page, panel = joined()
    actions = panel.actions
    assert actions.shield_button.description == "Raise shield"
    actions.shield_button.click()                                   # Hagen: 2 actions
    assert actions.error.message == ""
    assert page.state.of("Hagen").block_from == 2
    assert "Shield Block from round 2" in panel.board.value
    assert actions.shield_button.description == "Lower shield"
    panel.next_button.click()
    panel.next_button.click()
    panel.next_button.click()                                       # round 2, the robber
    # the raised shield covers already: no Shield Parry offered beside it
    assert [v for _, v in panel.reaction.options] == ["none", "dodge", "parry"]
    assert "Hagen's Shield Block covers 5+" in panel.setup_line.value
    # three hits; the shield rolls 5, 5 and 2: two stopped, Hagen's protection takes the third
    typed(panel.attack_entry, "5, 5, 5, 1, 1, 5, 5, 2")
    assert "2 hit(s) stopped" in panel.result.value
    panel.apply_button.click()
    assert page.state.of("Hagen").protection == 1 and page.state.of("Hagen").wounds == 0


def test_a_shot_spends_a_round_and_with_none_left_no_odds_are_offered():
    roster = starter().update("Robber", mode="single", magazine=1, extra_actions=1)
    page, panel = joined(roster)
    panel.next_button.click()
    assert "spends 1 round of 1" in panel.setup_line.value
    assert "1/1 rounds" in panel.board.value
    typed(panel.attack_entry, "1, 1, 1, 1, 1")
    panel.apply_button.click()
    assert page.state.of("Robber").ammunition == 0 and "0/1 rounds" in panel.board.value
    assert panel.error.message == ("Robber has 0 rounds left and a single shot takes 1: "
                                   "reload first (Other actions: Reload a weapon)")
    assert panel.odds.value == "" and panel.setup_line.value == ""
    actions = panel.actions
    assert actions.who.value == "Robber"
    actions.other_action.value = "reload"
    actions.act_button.click()
    assert page.state.of("Robber").ammunition == 1 and panel.error.message == ""
    assert "At least one hit" in panel.odds.value


def test_aim_taken_on_an_earlier_turn_counts_for_the_attack():
    page, panel = joined()
    panel.next_button.click()                                       # the robber aims
    panel.actions.other_action.value = "aim"
    panel.actions.act_button.click()
    assert "aimed 1" in panel.board.value
    panel.next_button.click()
    panel.next_button.click()                                       # round 2, the robber
    assert "critical on 9+" in panel.setup_line.value
    assert "aimed 1 action for criticals before" in panel.setup_line.value
    assert "costs 1 action" in panel.setup_line.value
    typed(panel.attack_entry, "1, 1, 1, 1, 1")
    panel.apply_button.click()
    assert page.state.of("Robber").aim == 0
    # a burst cannot be aimed, said in the page's words
    page.editor.set_roster(page.roster.update("Robber", mode="burst", magazine=30))
    panel.actions.act_button.click()
    assert panel.actions.error.message == ("Other action: Robber's weapon (Burst) cannot "
                                           "be aimed; only a melee weapon or a single shot can")


def test_a_destiny_die_steals_an_action_from_the_next_turn():
    page, panel = joined()
    actions = panel.actions
    assert (actions.who.value, actions.victim.value) == ("Hagen", "Robber")
    actions.destiny_button.click()
    assert page.state.of("Hagen").available == 3
    assert "−1 action next turn" in panel.board.value
    panel.next_button.click()
    assert page.state.of("Robber").available == 1
    page.undo()
    assert page.state.of("Robber").stolen == 0 or page.state.actor.name == "Hagen"


def test_the_odds_of_a_ko_lead_with_the_percentage_and_are_the_engines():
    from rulescore.systems.exploding_d6.fight import contest_odds
    _, panel = joined()
    panel.next_button.click()
    panel.special.value = "ko"
    assert panel.contest_dice.value == 2                            # Hagen's Strength
    q = contest_odds("ko", 5, 5, 11, False, contest_dice=2, pool=2)
    assert f"Knocked out: Hagen <b>{percent(q)}</b>" in panel.odds.value
    assert f"({q.numerator}/{q.denominator})" in panel.odds.value
    panel.special.value = "disarm"
    q = contest_odds("disarm", 5, 8, 11, False, contest_dice=2, pool=2)
    assert f"Disarmed: Hagen <b>{percent(q)}</b>" in panel.odds.value


def test_a_ko_shows_on_the_board_and_the_fighter_takes_no_actions_until_they_come_to():
    page, panel = joined()
    panel.next_button.click()                                       # the robber's turn
    panel.special.value = "ko"
    # 5, 5, 5 three hits; Hagen's 2 units stop two; his resistance dice 1, 1: knocked out
    typed(panel.attack_entry, "5, 5, 5, 1, 1, 1, 1")
    assert "Knocked out (1 hit landed)" in panel.result.value
    panel.apply_button.click()
    hagen = page.state.of("Hagen")
    assert hagen.knocked_out and hagen.available == 0
    assert "KNOCKED OUT" in panel.board.value and "none: knocked out" in panel.board.value
    panel.next_button.click()                                       # round 2: Hagen, out
    assert "knocked out: no actions, press Next turn" in panel.acting_line.value
    assert panel.attacker.value is None and panel.odds.value == ""
    actions = panel.actions
    assert is_shown(actions.come_to_button) and not is_shown(actions.pick_up_button)
    actions.other_action.value = "aim"
    actions.act_button.click()
    assert "Hagen is knocked out and takes no actions" in actions.error.message
    actions.come_to_button.click()
    assert not page.state.of("Hagen").knocked_out
    assert "KNOCKED OUT" not in panel.board.value


def test_a_disarmed_fighter_shows_it_and_attacks_with_fists_until_the_pick_up():
    page, panel = joined(starter().update("Robber", strength=3, weapon_dice=3))
    panel.special.value = "disarm"                                  # Hagen disarms the robber
    # 5 dice on 8+: 6→2 and 6→2 hit, the robber's one unit stops one; Strength 1, 1, 1 fail
    typed(panel.attack_entry, "6, 2, 6, 2, 1, 1, 1, 1, 1, 1")
    assert "Disarmed (1 hit landed)" in panel.result.value
    panel.apply_button.click()
    assert page.state.of("Robber").disarmed
    assert "DISARMED: fists until the weapon is picked up" in panel.board.value
    panel.special.value = "none"
    panel.next_button.click()                                       # the robber, unarmed
    # §Weaponless melee: skill 3 + 1 for Quickness 3 = 4 dice, no weapon dice
    assert "Robber rolls <b>4</b> dice" in panel.setup_line.value
    assert "disarmed: fights with fists" in panel.setup_line.value
    actions = panel.actions
    assert is_shown(actions.pick_up_button)
    actions.pick_up_button.click()
    assert actions.error.message == ""
    assert not page.state.of("Robber").disarmed and page.state.of("Robber").available == 1
    assert "Robber rolls <b>6</b> dice" in panel.setup_line.value


def test_a_shield_block_behind_cover_rolls_the_shield_then_the_cover():
    page, panel = joined()
    panel.actions.shield_button.click()                             # Hagen raises it
    for _ in range(3):
        panel.next_button.click()                                   # round 2, the robber
    panel.cover.value = 6
    panel.more.value = True
    panel.stacking.value = "each"
    assert panel.error.message == ""
    assert "Hagen's Shield Block rolls first, then the 6+ cover" in panel.setup_line.value
    # 5, 5, 5 hit; the shield 5, 1, 1 stops one; the terrain 6, 2 one more; protection the last
    typed(panel.attack_entry, "5, 5, 5, 1, 1, 5, 1, 1, 6, 2")
    assert panel.attack_entry.error.message == ""
    assert "Shield Block: 0 critical(s) and 1 hit(s) stopped" in panel.result.value
    assert "Cover: 0 critical(s) and 1 hit(s) stopped" in panel.result.value
    panel.apply_button.click()
    assert page.state.of("Hagen").protection == 1 and page.state.of("Hagen").wounds == 0
