"""The Veil & Lead fight page in plain pytest: one exchange from the roster to the target's
Vitality in three presses, the Grievous d8, the bleed-out walker, coup de grâce and page-wide
undo. The dice are typed, so every number is worked by hand from the seed."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from rulescore.roster import Roster
from rulescore.systems import veil_and_lead as vl
from widgets.fight import PAGE_FORMAT
from widgets.lean import is_shown
from widgets.veil_and_lead_fight import FightPanel, fight_page


@pytest.fixture(autouse=True)
def live(monkeypatch):
    monkeypatch.delenv("RULEBOOK_TARGET", raising=False)


ROSTER = (Roster(vl.ROSTER).add("Caleb", pc=True, weapon_skill=3, weapon_bonus=2)
          .add("Enforcer", quick=1, savvy=1, iron=2, weapon="Repeater"))


def typed(entry, dice: str) -> None:
    entry.my_dice.value = dice
    entry.use_dice_button.click()


def page_with(roster: Roster = ROSTER):
    page = fight_page()
    page.editor.set_roster(roster)
    panel = next(c for c in page.children if isinstance(c, FightPanel))
    return page, panel


def joined():
    """Caleb rolls QUICK 3 + Awareness 1 = 4 d8 [8, 7, 1, 1]: 15 vs 11, margin 4, Tick 3
    (Ready); the Enforcer 2 d8 [2, 1]: 3, a failure: Tick 6, Surprised (§II)."""
    page, panel = page_with()
    typed(panel.join_entry, "8, 7, 1, 1, 2, 1")
    assert panel.error.message == "" and panel.join_entry.error.message == ""
    return page, panel


def test_initiative_for_the_roster_puts_everyone_on_the_count():
    page, panel = joined()
    enc = page.state.encounter
    assert (enc.fighter("Caleb").tick, enc.fighter("Enforcer").tick) == (3, 6)
    assert enc.fighter("Enforcer").surprised
    assert "Enforcer 3 → Tick 6 (Surprised)" in page.rolls.entries[0][2]
    assert "10 / 10" in panel.board.value


def test_too_few_initiative_dice_are_named_by_fighter_beside_their_entry():
    """Caleb's 4 d8 and the Enforcer's 2 need six typed dice; with five the Enforcer's second
    die is missing, and the message says so beside the initiative's own dice, changing
    nothing on the Count."""
    page, panel = page_with()
    typed(panel.join_entry, "8, 7, 1, 1, 2")
    assert panel.join_entry.error.message == (
        "not enough dice: Enforcer's die 2 needs a value (all 5 typed are used)")
    assert panel.error.message == ""
    assert page.state.encounter.fighters == ()


def test_one_exchange_is_three_presses_and_lands_on_the_target():
    page, panel = joined()
    panel.next_button.click()                                  # 1: the Hammer to Tick 3
    assert (panel.attacker.value, panel.target.value) == ("Caleb", "Enforcer")
    # Caleb's Peacemaker: 6 d8 against Defense 9 − 2 (Surprised) = TN 7, +2 Masterwork.
    assert "6 d8 against TN 7" in panel.odds.value and "hit " in panel.odds.value
    typed(panel.attack_entry, "7, 6, 1, 1, 1, 1")              # 2: the roll (typed here)
    # 13 + 2 = 15, margin 8: 2 Steps, WR 3 + 2 = 5 damage, a Grievous Wound.
    assert "Hit: 5 damage" in panel.result.value and not panel.apply_button.disabled
    panel.apply_button.click()                                 # 3: apply
    enforcer = page.state.of("Enforcer")
    assert (enforcer.vitality, enforcer.state, enforcer.grievous_pending) == (5, "Wounded", True)
    assert page.state.encounter.fighter("Caleb").tick == 7     # Steady Shot, tempo 4
    assert "<td class='vitality'>5 / 10</td>" in panel.board.value
    assert panel.apply_button.disabled and is_shown(panel.grievous_entry)
    typed(panel.grievous_entry, "3")                           # d8 3: a Broken Bone
    assert page.state.of("Enforcer").wounds == ("Broken Bone",)
    assert not is_shown(panel.grievous_entry)
    page.undo()
    assert page.state.of("Enforcer").grievous_pending and is_shown(panel.grievous_entry)
    page.undo()
    assert page.state.of("Enforcer").vitality == 10
    page.redo()
    assert page.state.of("Enforcer").vitality == 5


def test_the_wounded_suppressed_enforcer_rolls_fewer_dice():
    page, panel = joined()
    fight = page.state
    fight = fight._set(replace(fight.of("Enforcer"), vitality=5)).mark("Enforcer",
                                                                       "Suppressed").fight
    enc = replace(fight.encounter, hammer=6)
    page.apply("the Enforcer's turn", state=replace(fight, encounter=enc))
    assert panel.attacker.value == "Enforcer" and panel.target.value == "Caleb"
    # QUICK 1 + skill 2 = 3, − 1 Wounded − 2 Suppressed = 0 dice; Caleb's Defense 11.
    assert "0 d8 against TN 11" in panel.odds.value


def test_bleeding_out_the_walker_and_coup_de_grace():
    page, panel = joined()
    fight = page.state
    fight = fight._set(replace(fight.of("Enforcer"), vitality=0, bleeding=True))
    page.apply("the Enforcer is down", state=replace(
        fight, encounter=replace(fight.encounter, hammer=3)))
    assert is_shown(panel.stabilize_entry) and panel.patient.value == "Enforcer"
    # Caleb heals with SAVVY 2 + Medicine 0 = 2 d8 against TN 11; [1, 1] is a fumble: −1.
    assert "2 d8 against TN 11" in panel.stabilize_odds.value
    typed(panel.stabilize_entry, "1, 1")
    assert page.state.of("Enforcer").vitality == -1
    # Coup de grâce: Peacemaker at Point-Blank, TN 9 − 2 = 7; 16 + 2 = 18, margin 11,
    # 3 Steps: 6 damage, −7 → dead at −4.
    panel.coup_button.click()
    assert panel.error.message == ""
    assert page.state.of("Enforcer").state == "Dead"
    assert "Enforcer" not in {f.name for f in page.state.encounter.fighters}
    assert not is_shown(panel.stabilize_entry)


def test_refusals_show_in_the_error_line_and_change_nothing():
    page, panel = page_with()
    panel.apply_button.click()
    assert "roll the attack first" in panel.error.message
    panel.next_button.click()
    assert "no token on the Cylinder" in panel.error.message
    assert not page.history.can_undo or page.history.lines[-1] == "the roster changed"


def test_an_attack_before_the_fighter_s_turn_is_refused_before_the_roll():
    page, panel = joined()
    typed(panel.attack_entry, "8, 8, 1, 1, 1, 1")
    assert panel.error.message == ("Caleb is at Tick 3, and the Hammer is at Tick 0: only a "
                                   "fighter whose turn it is acts (press Next turn)")
    assert page.rolls.entries[0][0] == "Initiative" and panel.apply_button.disabled


def test_a_horde_volleys_with_its_size_and_moves_at_its_fixed_tempo():
    # Initiative: Caleb [1, 1, 1, 1] and the Enforcer [1, 1] fail (Tick 6, Surprised); the
    # Posse's QUICK 2 + Awareness 1 = 3 d8 [8, 8, 8] make 16, margin 5: Tick 3.
    roster = ROSTER.add("Posse", quick=2, weapon="Repeater", horde=6)
    page, panel = page_with(roster)
    typed(panel.join_entry, "1, 1, 1, 1, 1, 1, 8, 8, 8")
    assert page.state.encounter.fighter("Posse").tick == 3
    panel.next_button.click()
    assert panel.attacker.value == "Posse" and panel.target.value == "Caleb"
    # The volley: base 2 + 2 = 4 d8 + size 6 = 10, less Quick Shot's 2 dice on the base, against
    # Caleb's Defense 11 − 2 (Surprised) = TN 9. Quick Shot is tempo 4 for a rifle, but a
    # firing line always moves 5 (§XIII): Tick 3 → 8.
    panel.action.value = "Quick Shot"
    assert "8 d8 against TN 9" in panel.odds.value
    # 8 + 7 = 15 against TN 9, margin 6: 2 Steps, Repeater WR 4 + 2 = 6 damage: 10 → 4.
    typed(panel.attack_entry, "8, 7, 1, 1, 1, 1, 1, 1")
    assert panel.error.message == "" and "Hit: 6 damage" in panel.result.value
    panel.apply_button.click()
    assert page.state.encounter.fighter("Posse").tick == 8
    assert page.state.of("Caleb").vitality == 4


def test_renaming_a_fighter_in_the_roster_keeps_their_token_and_health():
    page, panel = joined()
    panel.next_button.click()
    typed(panel.attack_entry, "8, 8, 1, 1, 1, 1")  # Caleb hits: the Enforcer is Wounded
    panel.apply_button.click()
    hurt = page.state
    name = page.editor.rows[1][0]
    name.value = "Mack"                       # the Enforcer renamed in the roster
    assert page.roster.names() == ("Caleb", "Mack")
    assert page.state == hurt.rename("Enforcer", "Mack")
    assert page.state.of("Mack").vitality == hurt.of("Enforcer").vitality < 10
    assert page.state.encounter.fighter("Mack").tick == 6
    assert "Mack" in panel.board.value
    assert f"{hurt.of('Enforcer').vitality} / 10" in panel.board.value
    assert page.history.log[-1] == "Enforcer is now called Mack"
    page.undo()                               # one step: the name and the token together
    assert page.roster.names() == ("Caleb", "Enforcer") and page.state == hurt


def test_a_fight_kept_by_another_tab_is_offered_and_never_overwritten_unasked(monkeypatch):
    # Tab one has the Hammer at Tick 3; another tab keeps the fight as it was at the start.
    page, panel = joined()
    other_page, _ = joined()
    sent: list[dict] = []
    monkeypatch.setattr(page.store, "send", sent.append)
    theirs = json.dumps({"format": PAGE_FORMAT, "version": 1,
                         "fight": other_page.state.to_json(), "rolls": []})
    page.store._from_browser(page.store, {"op": "elsewhere", "stored": theirs}, [])
    assert page.store.offer in page.children and is_shown(page.store.offer)
    panel.next_button.click()                      # this tab moves on: held, not written
    assert page.state.encounter.hammer == 3 and sent == []
    page.store.offer.keep_button.click()           # keep mine: this tab's fight is written
    assert json.loads(sent[-1]["text"])["fight"] == page.state.to_json()
    page.store._from_browser(page.store, {"op": "elsewhere", "stored": theirs}, [])
    page.store.offer.load_button.click()           # load theirs: the page carries on from it
    assert page.state.to_json() == other_page.state.to_json() and not is_shown(
        page.store.offer)
    page.undo_button.click()                       # one step of the page, undone like any
    assert page.state.encounter.hammer == 3
