"""The Count tracker in plain pytest: moves, undo/redo, errors, saving and restoring."""

import json

from widgets.lean import is_shown
from widgets.veil_and_lead_count import CountTracker, cylinder_svg


def _add(t: CountTracker, name: str, margin: str, pc: bool = True, quick: int = 3) -> None:
    t.name.value, t.margin.value, t.pc.value, t.quick.value = name, margin, pc, quick
    t.add_button.click()


def _fight() -> CountTracker:
    t = CountTracker()
    _add(t, "Ada", "5")
    _add(t, "Bandit", "", pc=False, quick=2)
    return t


def test_adding_fighters_places_them_by_margin():
    t = _fight()
    assert t.encounter.fighter("Ada").tick == 3
    bandit = t.encounter.fighter("Bandit")
    assert (bandit.tick, bandit.surprised) == (6, True)
    assert "<td>Bandit</td><td>Tick 6</td><td>NPC, Surprised</td>" in t.board.value
    assert "Ada joins at Tick 3 (Ready)" in t.log_view.value


def test_turns_act_with_tempo_and_exposure():
    t = _fight()
    t.next_button.click()
    assert t.who.value == "Ada" and "The Hammer turns 3 to Tick 3: Ada acts" in t.log_view.value
    t.act_button.click()  # Steady Shot with a Peacemaker: tempo 4
    assert t.encounter.fighter("Ada").tick == 7
    t.next_button.click()
    assert t.who.value == "Bandit"
    t.action.value = "Quick Shot"
    t.act_button.click()
    bandit = t.encounter.fighter("Bandit")
    assert (bandit.tick, bandit.exposed, bandit.surprised) == (9, True, False)
    assert "tempo 3 → Tick 9 — Exposed until their next turn" in t.log_view.value
    assert "Tick 6 + Tempo 3 = 9" in t.explanation.value


def test_wrap_wait_hold_release_stun():
    t = CountTracker()
    _add(t, "Ada", "5")
    t.next_button.click()
    t.action.value, t.weapon.value = "Steady Shot", "Buffalo Rifle"
    t.act_button.click()
    t.next_button.click()
    t.wait_button.click()
    assert t.encounter.fighter("Ada").tick == t.encounter.hammer + 1
    t.next_button.click()
    t.trigger.value = "the door opens"
    t.hold_button.click()
    assert t.encounter.fighter("Ada").holding == "the door opens"
    assert "holding: the door opens" in t.board.value
    t.action.value, t.weapon.value = "Steady Shot", "Peacemaker"
    t.release_button.click()
    assert t.encounter.fighter("Ada").tick == (t.encounter.hammer + 4) % 20
    t.stun_button.click()
    t.next_button.click()
    t.act_button.click()
    assert "is Stunned: no action this turn" in t.error.value
    t.stunned_button.click()
    assert not t.encounter.fighter("Ada").stunned


def test_errors_in_place():
    t = CountTracker()
    t.act_button.click()
    assert "Fighter is empty" in t.error.value
    _add(t, "", "3")
    assert "name must be a non-empty text" in t.error.value
    _add(t, "Ada", "lots")
    assert "Initiative margin must be a whole number" in t.error.value
    _add(t, "Ada", "3")
    _add(t, "Ada", "3")
    assert "already in the encounter" in t.error.value
    t.act_button.click()
    assert "only a fighter at the Hammer's tick" in t.error.value.replace("&#x27;", "'")
    t.next_button.click()
    t.action.value = "Channel"
    t.act_button.click()
    assert "“Chosen tempo” must be given for Channel (a tempo from 4 to 9)" in t.error.message
    t.chosen.value = "7"
    t.act_button.click()
    assert t.encounter.fighter("Ada").tick == (t.encounter.hammer + 7) % 20


def test_undo_redo_and_a_new_move_drops_redo():
    t = _fight()
    t.next_button.click()
    t.act_button.click()
    t.undo_button.click()
    assert t.encounter.fighter("Ada").tick == 3 and not t.redo_button.disabled
    t.redo_button.click()
    assert t.encounter.fighter("Ada").tick == 7
    t.undo_button.click()
    t.wait_button.click()
    assert t.redo_button.disabled and t.encounter.fighter("Ada").tick == 4


def test_cylinder_picture():
    t = _fight()
    svg = cylinder_svg(t.encounter)
    assert svg.count("stroke='#b00020'") == 2  # the two tension lines
    assert ">Ada</text>" in svg and "Hammer: Tick 0" in svg


def _upload(t: CountTracker, text: str) -> None:
    """What the browser's picker sends: the file's name and bytes."""
    upload = t.kept.transfer.upload
    upload._from_browser(upload, {"op": "file", "name": "encounter.json"},
                         [memoryview(text.encode())])


def test_autosave_restore_download_upload(monkeypatch):
    t = _fight()
    saved = []
    monkeypatch.setattr(t.kept.store, "save", saved.append)
    t.next_button.click()
    t.act_button.click()
    assert len(saved) == 2 and json.loads(saved[-1])["format"] == "rulebook/vl-encounter"
    fresh = CountTracker()
    fresh.kept.store.stored = saved[-1]
    assert is_shown(fresh.kept.offer)
    assert "2 fighters, the Hammer at Tick 3, 4 moves" in fresh.kept.note.value
    fresh.kept.restore_button.click()
    assert fresh.history == t.history
    fresh.undo_button.click()
    assert fresh.encounter.fighter("Ada").tick == 3
    other = CountTracker()
    _upload(other, t.history.to_json())
    assert other.history == t.history
    before = other.history
    _upload(other, '{"format": "rulebook/tsl-board", "version": 1}')
    assert "not an encounter file" in other.kept.transfer.error.value
    assert other.history == before
    _upload(other, "{broken")
    assert "the file is not JSON" in other.kept.transfer.error.value and other.history == before


def _fighters(t, *rows):
    for name, margin, pc_ in rows:
        t.name.value = name
        t.pc.value = pc_
        t.margin.value = margin
        t.add_button.click()


def test_conditions_aim_and_recover_on_the_tracker():
    t = CountTracker()
    _fighters(t, ("Ada", "10", True))
    assert "Tension Pool:</b> this fight has added 1 die" in t.tension.value
    t.who.value = "Ada"
    t.condition.value = "Suppressed"
    t.mark_button.click()
    t.condition.value = "Prone"
    t.mark_button.click()
    assert "<td>PC, Suppressed, Prone</td>" in t.board.value
    t.action.value = "Aim"
    t.act_button.click()
    assert "Aim +2" in t.board.value
    t.damage_button.click()
    assert "Ada loses the banked Aim" in t.log_view.value
    t.next_button.click()
    t.action.value = "Recover"
    t.condition.value = "Prone"
    t.act_button.click()
    assert "no longer Prone" in t.log_view.value
    assert "<td>PC, Suppressed</td>" in t.board.value
    t.condition.value = "Suppressed"
    t.clear_button.click()
    assert "Ada is no longer Suppressed" in t.log_view.value
    t.condition.value = "Grappled"
    t.mark_button.click()
    t.next_button.click()
    t.action.value = "Scramble"
    t.act_button.click()
    assert "Grappled and cannot move" in t.error.message


def test_duel_of_two_holds_typed_and_seeded_and_the_scene_end():
    t = CountTracker()
    _fighters(t, ("Ada", "10", True), ("Bart", "10", False))
    t.who.value = "Ada"
    t.trigger.value = "Bart draws"
    t.hold_button.click()
    t.next_button.click()
    t.who.value = "Bart"
    t.trigger.value = "Ada draws"
    t.hold_button.click()
    assert t.duel_a.options == ("Ada", "Bart")
    t.aware_a.value = 0
    t.aware_b.value = 0
    t.duel_entry.my_dice.value = "8, 7, 1 | 6, 6, 1"
    t.duel_entry.use_dice()
    assert "Duel Ada 15 against Bart 12 (your dice): Ada first, then Bart" in t.log_view.value
    t.undo_button.click()
    t.duel_entry.my_dice.value = "8, 7"
    t.duel_entry.use_dice()
    assert "2 lists separated by |" in t.duel_entry.error.message
    t.duel_entry.roll(seed=3)
    assert "(seed 3)" in t.log_view.value
    t.undo_button.click()
    t.end_button.click()
    assert "The scene ends: Ada, Bart lose their Hold" in t.log_view.value


def test_a_horde_joins_shrinks_and_breaks_and_tension_dice_are_prompted():
    t = CountTracker()
    t.name.value = "Posse"
    t.pc.value = False
    t.margin.value = "4"
    t.horde.value = 6
    t.add_button.click()
    assert "Posse (a Horde of 6) joins" in t.log_view.value and "Horde of 6" in t.board.value
    t.who.value = "Posse"
    t.casualties.value = 4
    t.horde_button.click()
    assert "Posse breaks: Posse 1 and Posse 2 fight on" in t.log_view.value
    for _ in range(6):
        t.next_button.click()
        t.action.value = "Steady Shot"
        t.act_button.click()
    assert "add 1 die to the Tension Pool" in t.log_view.value


def test_count_tracker_a_downed_fighter_only_crawls_and_a_charge_blow_costs_one_more():
    """§X Bleeding Out: Downed, only Crawl (Tempo 6); §V: a Rush / Charge that ends in a
    melee attack is 4 + 1 = 5 ticks."""
    from widgets.veil_and_lead_count import CountTracker
    t = CountTracker()
    t.name.value, t.margin.value = "Ada", "10"        # Tick 0
    t.add_button.click()
    t.next_button.click()
    t.action.value, t.weapon.value = "Rush / Charge", "Hatchet"
    t.arrival.value = True
    t.act_button.click()
    assert t.encounter.fighter("Ada").tick == 5
    t.next_button.click()
    t.condition.value = "Downed"
    t.mark_button.click()
    t.arrival.value = False
    t.action.value = "Strike"
    t.act_button.click()
    assert "Downed and may only Crawl" in t.error.value
    t.action.value = "Crawl"
    t.act_button.click()
    assert t.encounter.fighter("Ada").tick == 11


def test_a_roster_fighter_fills_the_fields_and_leaves_the_menu_once_on_the_count():
    from rulescore.roster import Roster
    from rulescore.systems import veil_and_lead as vl
    from widgets.roster import RosterEditor

    editor = RosterEditor(vl.ROSTER, starter=Roster(vl.ROSTER).add("Caleb", pc=True, quick=4)
                          .add("Posse", quick=2, horde=6))
    t = CountTracker(editor)
    assert list(t.from_roster.options) == ["", "Caleb", "Posse"]
    t.from_roster.value = "Posse"
    assert (t.name.value, t.pc.value, t.quick.value, t.horde.value) == ("Posse", False, 2, 6)
    t.margin.value = "0"
    t.add_button.click()
    assert t.encounter.fighter("Posse").horde == 6 and t.encounter.fighter("Posse").tick == 4
    assert list(t.from_roster.options) == ["", "Caleb"]
    editor.set_roster(editor.roster.add("Maeve", pc=True))
    assert list(t.from_roster.options) == ["", "Caleb", "Maeve"]


def test_an_action_without_a_weapon_names_none_in_the_log():
    """§III: Stand Up is done with no weapon (vl.uses_weapon), so the log names none; a
    Steady Shot names the Peacemaker."""
    t = _fight()
    t.next_button.click()
    t.action.value = "Stand Up"
    t.act_button.click()
    assert "Ada: Stand Up, tempo 3 → Tick 6" in t.log_view.value
    assert "Stand Up with" not in t.log_view.value
    t.next_button.click()
    t.action.value = "Steady Shot"
    t.act_button.click()
    assert f"{t.who.value}: Steady Shot with Peacemaker, tempo 4" in t.log_view.value
