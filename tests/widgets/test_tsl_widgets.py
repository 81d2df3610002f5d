"""The TSL chapter's widgets, driven in plain pytest by setting values and reading the output."""

from fractions import Fraction

import json
import pytest

from rulescore.systems import tsl
from widgets.lean import is_shown
from widgets.tsl import AttackResolver, TurnBoard, WeaponBuilder


# --- Attack resolver ------------------------------------------------------------------------

def test_resolver_shows_band_odds_before_rolling():
    r = AttackResolver()
    assert r.error.message == ""
    odds = tsl.band_odds("Proficient", 11)
    hit = odds["mixed"] + odds["success"] + odds["crit"]
    assert hit == Fraction(6979, 7776)
    assert "Chance to land at least a Mixed Success: 89.75% (6979/7776)" in r.odds.value
    assert "293/864" in r.odds.value  # the Crit row, exact
    assert "Stress lands on the Body pool" in r.odds.value


def test_resolver_vela_with_typed_dice():
    r = AttackResolver()
    r.entry.my_dice.value = "3, 6, 1, 4, 3"
    r.entry.use_dice()
    assert (r.last.total, r.last.band, r.last.stress) == (16, "success", 2)
    assert "<b>2 Stress</b> to the Body pool" in r.result.value
    assert "Total 16 against T11, margin +5" in r.result.value
    assert "Static T-number 11: margin 16 − 11 = +5" in r.explanation.value


def _examples_resolver() -> AttackResolver:
    return AttackResolver("static", "Proficient", target="11",
                          examples=("proficient_t11", "mars_taunt", "velas_shot"))


def test_worked_example_menu_sets_up_and_rolls_each_example():
    """Each pick of the menu gives the engine's own result for the chapter's worked example
    (§11 Attacking; §11 A Worked Example: Vela's shot, Mar's taunt), from any earlier setup."""
    r = _examples_resolver()
    r.armour.value, r.shift.value = True, 1     # left over from the reader's own attack
    r.example.value = "velas_shot"
    shot = tsl.attack([3, 6, 1, 4, 3], "Proficient", target=11,
                      weapon=tsl.make_weapon("Sidearm", ["Silent"]), distance="Near",
                      attack_type="Ranged weapon", target_pools=tsl.new_pools("grunt"))
    assert (r.last.total, r.last.band, r.last.stress, r.last.target_breaks) == \
        (shot.total, shot.band, shot.stress, shot.target_breaks) == (16, "success", 2, True)
    assert (r.armour.value, r.shift.value) == (False, 0)
    assert "the target Breaks" in r.result.value and "(your dice)" in r.result.value
    assert r.example.value == "" and r.entry.my_dice.value == "3, 6, 1, 4, 3"

    r.example.value = "mars_taunt"
    taunt = tsl.opposed_roll([4, 2, 6, 1, 3], "Trained", [1, 5, 2, 3, 1], "Untrained")
    assert (r.kind.value, r.weapon_zone.value, r.target_kind.value) == \
        ("opposed", "No weapon", "character")
    assert (r.last.total, r.last.against, r.last.margin) == \
        (taunt.total, taunt.defender_total, taunt.margin) == (13, 8, 5)
    assert "Total 13 against the defender's 8, margin +5" in r.result.value
    assert "to the Mind pool" in r.result.value

    r.example.value = "proficient_t11"
    solid = tsl.attack([6, 4, 3, 3, 1], "Proficient", target=11, target_pools=tsl.new_pools())
    assert (r.kind.value, r.last.stress, r.last.target_pools.stress("Body")) == \
        ("static", solid.stress, solid.target_pools.stress("Body")) == ("static", 2, 2)


def test_worked_example_menu_only_where_the_chapter_asks():
    """A resolver built without examples has no menu (no model a page does not use)."""
    assert AttackResolver().example is None
    labels = [o[0] for o in _examples_resolver().example.options]
    assert labels == ["pick one to set the tool up", "Proficient against T11 (6 4 3 3 1)",
                      "Mar's taunt: opposed, Trained against Untrained",
                      "Vela's shot at the thug (3 6 1 4 3)"]


def test_resolver_seeded_roll_replays():
    r = AttackResolver()
    r.entry.roll(seed=42)
    first = r.last
    assert r.entry.seed.value == "42"
    assert first.total == tsl.static_roll(tsl.roll_dice(42), "Proficient", 11).total
    r.entry.replay()
    assert r.last == first
    assert "(seed 42)" in r.result.value


def test_resolver_opposed_mar_and_ties():
    r = AttackResolver(kind="opposed", tier="Trained")
    assert not is_shown(r.target) and is_shown(r.defender_tier)
    assert "10 faces" in r.entry.my_dice.placeholder
    r.entry.my_dice.value = "4, 2, 6, 1, 3, 1, 5, 2, 3, 1"
    r.entry.use_dice()
    assert (r.last.total, r.last.against, r.last.margin) == (13, 8, 5)
    assert "against the defender's 8" in r.result.value
    r.defender_tier.value = "Trained"
    r.entry.my_dice.value = "6 5 1 1 1 6 5 1 1 1"
    r.entry.use_dice()
    assert (r.last.margin, r.last.band) == (0, "failure")
    assert "the defender wins ties" in r.explanation.value
    opposed = tsl.opposed_odds("Trained", "Trained")
    assert str(opposed["crit"]) in r.odds.value


def test_resolver_seeded_opposed_uses_ten_dice():
    r = AttackResolver(kind="opposed")
    r.entry.roll(seed=3)
    att, dfn = tsl.roll_pair(3)
    assert r.last.total == tsl.roll_total(att, "Proficient").value
    assert r.last.against == tsl.roll_total(dfn, "Untrained").value


def test_resolver_armour_tags_and_ammunition():
    r = AttackResolver(weapon_zone="Sidearm", distance="Near", attack_type="Ranged weapon")
    r.tag1.value = "Piercing"
    r.impact.value = True
    r.armour.value = True
    r.uses.value = "12"
    expected = tsl.attack_odds("Proficient", target=11, weapon=tsl.make_weapon(
        "Sidearm", ["Piercing"]), distance="Near", impact=True, armour=True,
        attack_type="Ranged weapon")
    assert str(expected.bands["success"]) in r.odds.value
    r.entry.my_dice.value = "6, 5, 1, 1, 1"  # 13 vs 11: Mixed → armour: miss → Piercing: Mixed
    r.entry.use_dice()
    assert (r.last.raw_band, r.last.band, r.last.uses_left) == ("mixed", "mixed", 11)
    assert r.uses.value == "11" and "11 uses left" in r.result.value
    assert "Armour drops Mixed Success to Failure" in r.explanation.value


def test_resolver_out_of_zone_and_improvised():
    r = AttackResolver(weapon_zone="Melee", distance="Far")
    assert "Effective Tier -1" in r.odds.value and "keeping 3 of 5d6" in r.odds.value
    r.improvised.value = True
    assert not is_shown(r.tag1) and r.error.message == ""
    r.entry.my_dice.value = "2, 2, 1, 1, 1"
    r.entry.use_dice()
    assert "the weapon breaks" in r.result.value


def test_resolver_social_attack_hits_mind():
    r = AttackResolver(attack_type="Social pressure")
    assert "defended with Heart (or Mind or Voice" in r.odds.value
    r.entry.my_dice.value = "6, 6, 6, 6, 1"
    r.entry.use_dice()
    assert "to the Mind pool" in r.result.value and r.last.band == "crit"


@pytest.mark.parametrize("field, value, message", [
    ("target", "high", "T-number must be a whole number, got 'high'"),
    ("target", "0", "“T-number” must be from 1 to 40, got 0"),
    ("target", "", "T-number is empty"),
])
def test_resolver_bad_inputs_show_in_place(field, value, message):
    r = AttackResolver()
    getattr(r, field).value = value
    assert message in r.error.message
    assert r.odds.value == ""


def test_resolver_bad_dice_and_impact_without_tag():
    r = AttackResolver()
    r.entry.my_dice.value = "1, 2, 3"
    r.entry.use_dice()
    assert "My dice must be 5 faces, got 3" in r.entry.error.message
    r.entry.my_dice.value = "1, 2, 3, 4, 9"
    r.entry.use_dice()
    assert "die 5 must be from 1 to 6, got 9" in r.entry.error.message
    r.impact.value = True
    assert "“An Impact tag's condition holds” must be False without a weapon" in r.error.message
    r.weapon_zone.value = "Melee"
    assert "“An Impact tag's condition holds” must be False: the weapon has no Impact tag" in r.error.message
    r.uses.value = "0"
    r.tag1.value = "Brutal"
    r.weapon_zone.value = "Thrown"
    r.entry.my_dice.value = "1, 2, 3, 4, 5"
    r.entry.use_dice()
    assert "cannot attack until it is restocked" in r.error.message
    assert r.entry.error.message == ""   # said once, where the odds would be


@pytest.mark.parametrize("field, value, fixed, message", [
    ("target", "high", "11", "T-number must be a whole number, got 'high'"),
    ("marked", "9", "0", "“Stress already on its Body pool” must be from 0 to 4, got 9"),
])
def test_resolver_a_bad_field_is_said_once_and_goes_when_fixed(field, value, fixed, message):
    """A bad field's message shows once, in place of the odds, whether the reader rolls or
    not; fixing the field takes it away, and the roll then works."""
    r = AttackResolver()
    getattr(r, field).value = value
    for press in (lambda: r.entry.roll(seed=3), r.entry.use_dice):
        r.entry.my_dice.value = "3, 6, 1, 4, 3"
        press()
        shown = [m for m in (r.error.message, r.entry.error.message) if m]
        assert len(shown) == 1 and message in shown[0]
        assert r.last is None
    getattr(r, field).value = fixed
    assert (r.error.message, r.entry.error.message) == ("", "")
    r.entry.use_dice()
    assert r.last.total == 16 and (r.error.message, r.entry.error.message) == ("", "")


def test_resolver_a_snaring_pull_at_engaged_is_refused_when_it_is_chosen():
    """A pull with a Snaring weapon at Engaged (§11 Tags, ruling tsl:snaring) is refused as
    soon as the fields say so, in place of the odds and in the fields' words (the engine's
    attack_odds refuses it); no odds are offered and a roll adds nothing; choosing pin, or a
    farther zone, takes the message away and brings the odds back."""
    r = AttackResolver(weapon_zone="Thrown")
    r.tag1.value = "Snaring"
    r.distance.value = "Near"
    assert r.error.message == "" and r.current_odds is not None
    r.distance.value = "Engaged"
    assert r.error.message == (
        "“Snaring on a hit” must be pin (hold them where they are) when the target is "
        "already Engaged: there is no nearer zone to pull them into")
    assert r.odds.value == "" and r.current_odds is None
    r.entry.my_dice.value = "6, 6, 6, 6, 1"
    r.entry.use_dice()
    assert r.entry.error.message == "" and r.last is None
    r.snaring.value = "pin"
    assert r.error.message == "" and r.current_odds is not None
    r.snaring.value = "pull"
    assert "“Snaring on a hit” must be pin" in r.error.message
    r.distance.value = "Near"
    assert r.error.message == "" and r.current_odds is not None


def test_resolver_shows_the_pool_and_whether_a_grunt_breaks():
    """§11 A Worked Example: Vela's 16 against T11 is a Success, and the thug, a Grunt, Breaks
    on that one solid hit; the odds say how likely that is before the roll."""
    r = AttackResolver(attack_type="Ranged weapon")
    assert r.marked.description == "Stress already on its Body pool"
    r.target_kind.value = "grunt"
    bands = tsl.band_odds("Proficient", 11)
    assert bands["success"] + bands["crit"] == Fraction(247, 324)
    assert "the target Breaks 76.23% (247/324)" in r.odds.value
    r.entry.my_dice.value = "3, 6, 1, 4, 3"
    r.entry.use_dice()
    assert r.last.target_breaks
    assert "the target Breaks" in r.result.value
    assert "Target's Body pool: 2 of 2 Stress marked (Broken)" in r.result.value
    assert "The Body pool is full: the fighter Breaks" in r.explanation.value
    # A character with 1 Body Stress already marked holds after the same Success.
    r.target_kind.value = "character"
    r.marked.value = "1"
    r.entry.use_dice()
    assert not r.last.target_breaks
    assert "Target's Body pool: 3 of 4 Stress marked (1 left)" in r.result.value
    # The field follows the pool the attack type hits, and its messages use its label.
    r.attack_type.value = "Spirit attack"
    assert r.marked.description == "Stress already on its Spirit pool"
    r.marked.value = "5"
    assert "“Stress already on its Spirit pool” must be from 0 to 4, got 5" in r.error.message
    r.marked.value = "lots"
    assert "Stress already on its Spirit pool must be a whole number, got 'lots'" in r.error.message
    # A pool that has grown (or a table's own size: ruling stress_pool_size) is typed in.
    r.marked.value = "4"
    r.pool_size.value = "6"
    # 4 of 6 marked: 2 left, so a Success or a Crit Breaks the target (247/324, as above).
    assert r.error.message == "" and r.current_odds.target_breaks == Fraction(247, 324)
    r.attack_type.value = "Melee weapon"
    r.entry.my_dice.value = "3, 6, 1, 4, 3"
    r.entry.use_dice()
    assert "Target's Body pool: 6 of 6 Stress marked (Broken)" in r.result.value
    r.pool_size.value = "0"
    assert "“Pool size” must be from 1 to 40, got 0" in r.error.message


def test_resolver_rulings_switch():
    r = AttackResolver()
    r.bands.value = "wide_mixed"
    assert str(tsl.band_odds("Proficient", 11, bands="wide_mixed")["mixed"]) in r.odds.value
    r.tier.value = "Untrained"
    r.shift.value = -1
    r.tier_limits.value = "clamp"
    assert "keeping 2 of 5d6" in r.odds.value


# --- Turn board ---------------------------------------------------------------------------

def test_turn_board_runs_a_round():
    b = TurnBoard()
    assert "Round 1</b>: Vela is acting" in b.board.value
    assert b.who.value == "Vela"
    b.option.value = "Action"
    b.spend()
    assert "Action uses the Action" in b.explanation.value
    b.spend()
    assert "“Spend” Action needs the Action, already used this turn" in b.error.message
    b.next_turn()
    assert b.who.value == "Thug" and "Thug is acting" in b.board.value
    b.who.value = "Mar"
    b.option.value = "Soak the Hit"
    b.ally_zone.value = "Engaged"
    b.spend()
    assert b.encounter.state("Mar").reaction_used
    assert "Round 1: Mar — Soak the Hit" in b.history.value
    b.option.value = "Action"
    b.spend()
    assert "“Combatant” must be Thug for Action" in b.error.message


def test_turn_board_support_action_cost_and_range():
    b = TurnBoard("Ko, Mar")
    b.option.value = "Ground a Path-walker"
    b.ally_zone.value = "Far"
    b.spend()
    assert "“Ally's zone” must be Engaged or Near for Ground a Path-walker, got Far" in b.error.message
    b.ally_zone.value = "Near"
    b.spend()
    assert b.error.message == ""
    assert "It also costs you 1 Spirit Stress" in b.explanation.value
    assert "(+1 Spirit Stress)" in b.history.value


def test_turn_board_new_round_and_reorder():
    b = TurnBoard("A, B")
    b.next_turn()
    b.next_turn()
    assert "Round 2</b>: A is acting" in b.board.value
    b.order.value = "B, A"
    b.reorder_button.click()
    assert b.encounter.order == ("B", "A")
    b.order.value = "B, C"
    b.reorder()
    assert b.error.message.startswith("“Turn order (GM's call)” must name the same combatants")
    b.order.value = "A, A"
    b.start()
    assert b.error.message == "“Turn order (GM's call)” must not repeat, got A twice"


# --- Weapon builder -----------------------------------------------------------------------

def test_weapon_builder_shows_zones_and_tags():
    wb = WeaponBuilder()
    assert "Fights at Engaged, Near." in wb.summary.value
    assert "Reach (Positioning)" in wb.explanation.value
    wb.zone.value = "Ranged"
    wb.tag1.value = "Piercing"
    assert "Fights at Far, Distant." in wb.summary.value
    assert "Starts with 6 uses of ammunition" in wb.explanation.value
    assert "−1 Effective Tier" in wb.summary.value
    wb.out_of_zone.value = "per_zone"
    assert "−2 Effective Tier" in wb.summary.value  # Engaged is two zones from Far


def test_weapon_builder_errors_and_improvised():
    wb = WeaponBuilder()
    wb.tag1.value = "(none)"
    assert "“First tag and Second tag” must be one or two for a weapon, got 0" in wb.error.message
    wb.tag1.value = "Reach"
    wb.tag2.value = "Reach"
    assert "“First tag and Second tag” must not repeat" in wb.error.message
    wb.improvised.value = True
    assert wb.error.message == "" and "(improvised)" in wb.summary.value
    assert "Breaks on Failure or Catastrophic" in wb.explanation.value
    wb.zone.value = "Sidearm"
    assert "“Zone” of an improvised weapon must be Melee or Thrown" in wb.error.message


def _upload(board: TurnBoard, text: str) -> None:
    """What the browser's picker sends: the file's name and bytes."""
    upload = board.kept.transfer.upload
    upload._from_browser(upload, {"op": "file", "name": "board.json"}, [memoryview(text.encode())])


def test_turn_board_saves_and_loads_json():
    import json
    from urllib.parse import unquote
    b = TurnBoard("Vela, Mar")
    b.spend()
    b.next_turn()
    saved = b.saved_json()
    data = json.loads(saved)
    assert data["acting"] == "Mar" and data["format"] == "rulebook/tsl-board"
    link = b.kept.transfer.link.value
    assert 'download="tsl-board.json"' in link
    assert unquote(link.split("charset=utf-8,")[1].split('"')[0]) == saved
    fresh = TurnBoard("X")
    _upload(fresh, saved)
    assert fresh.encounter == b.encounter
    assert "Mar is acting" in fresh.board.value and fresh.who.value == "Mar"
    for bad, message in [
            ("not json", "turn board: the file is not JSON"),
            ('{"order": ["A"], "round": 0, "acting": "A", "used": {}}',
             "round must be a whole number from 1 to 100000, got 0"),
            ('{"format": "rulebook/vl-encounter", "version": 1}', "not a TSL turn board file")]:
        _upload(fresh, bad)
        assert message in fresh.kept.transfer.error.value and "changed nothing" in fresh.kept.transfer.error.value
        assert fresh.encounter == b.encounter


def test_turn_board_autosaves_after_each_change_and_offers_to_restore(monkeypatch):
    import json
    b = TurnBoard("Vela, Mar")
    saved: list[str] = []
    monkeypatch.setattr(b.kept.store, "save", saved.append)
    assert saved == []  # opening the page never overwrites what the browser kept
    b.spend_button.click()
    b.next_button.click()
    assert len(saved) == 2 and json.loads(saved[-1])["acting"] == "Mar"
    again = TurnBoard("Someone, Else")
    assert not is_shown(again.kept.offer)
    again.kept.store.stored = saved[-1]  # what the browser reports after a reload
    assert is_shown(again.kept.offer)
    assert "round 1, Mar acting, 2 combatants" in again.kept.note.value
    again.kept.restore_button.click()
    assert again.encounter == b.encounter and not is_shown(again.kept.offer)
    other = TurnBoard("A")
    other.kept.store.stored = "{corrupt"  # named, never restored, only discarded
    assert is_shown(other.kept.offer) and not is_shown(other.kept.restore_button)
    assert "TSL turn board: the file is not JSON" in other.kept.note.value
    other.kept.store.stored = saved[-1]
    cleared = []
    monkeypatch.setattr(other.kept.store, "clear", lambda: cleared.append(True))
    other.kept.discard_button.click()
    assert cleared == [True] and other.encounter.order == ("A",)


def test_turn_board_messages_name_the_fields_as_the_reader_sees_them():
    b = TurnBoard("A, B")
    for typed, message in (
            ("", "“Turn order (GM's call)” must hold only non-empty names, got ''"),
            ("A, , B", "“Turn order (GM's call)” must hold only non-empty names, got ' '"),
            ("A, " + "x" * 61,
             "“Turn order (GM's call)” must hold names of at most 60 characters, got one of 61"),
            (", ".join(f"n{i}" for i in range(31)),
             "“Turn order (GM's call)” must list at most 30 combatants, got 31")):
        b.order.value = typed
        b.start()
        assert b.error.message == message
    assert b.encounter.order == ("A", "B")


def test_turn_board_offers_the_stewards_free_steady_presence():
    """§11 Support Actions (notes): a Steward steadies an ally free once a scene; the board
    leaves the Action unspent and refuses a second use in the same fight."""
    b = TurnBoard("Mar, Ko")
    assert "Steady Presence" in b.option.options
    b.option.value = "Steady Presence"
    b.ally_zone.value = "Near"
    b.spend()
    assert "free once a scene" in b.explanation.value
    assert not b.encounter.state("Mar").action_used
    b.next_turn()
    b.next_turn()
    b.option.value = "Steady Presence"
    b.spend()
    assert "“Spend” Steady Presence is free once a scene, already used this scene" in b.error.message


def test_resolver_snaring_pulls_or_pins_on_a_hit():
    """§11 Tags: a Snaring weapon pulls or pins its target a zone on a hit; the choice appears
    only for a weapon with the tag."""
    r = AttackResolver()
    assert not is_shown(r.snaring)
    r.weapon_zone.value = "Thrown"
    r.tag1.value = "Snaring"
    r.distance.value = "Near"
    assert is_shown(r.snaring) and r.error.message == ""
    r.entry.my_dice.value = "3, 6, 1, 4, 3"
    r.entry.use_dice()
    assert r.last.snared.distance == "Engaged"
    assert "the target is pulled to Engaged" in r.result.value
    r.snaring.value = "pin"
    r.entry.use_dice()
    assert "the target is pinned at Near" in r.result.value
    r.distance.value = "Engaged"
    r.snaring.value = "pull"
    assert "“Snaring on a hit” must be pin (hold them where they are)" in r.error.message


def test_turn_board_upload_is_kept_at_once(monkeypatch):
    """An uploaded board is written to the browser at once, not at the next change."""
    b = TurnBoard("Vela, Mar")
    b.next_turn()
    text = b.saved_json()
    fresh = TurnBoard("X")
    saved: list[str] = []
    monkeypatch.setattr(fresh.kept.store, "save", saved.append)
    _upload(fresh, text)
    assert fresh.encounter == b.encounter
    assert len(saved) == 1 and saved[0] == fresh.saved_json()


def test_turn_board_offer_comes_first_and_nothing_is_overwritten_until_the_reader_chooses(
        monkeypatch):
    """After a reload the kept board is offered before any board shows; Start, Spend and Next
    turn pressed before Restore do not overwrite the kept copy; after Discard they do."""
    kept = TurnBoard("Vela, Mar")
    kept.next_turn()
    text = kept.saved_json()
    b = TurnBoard("Someone, Else")
    assert not is_shown(b.board)             # the live page waits for the browser's answer
    saved: list[str] = []
    monkeypatch.setattr(b.kept.store, "save", saved.append)
    b.kept.store.stored = text               # the browser reports what it kept
    assert is_shown(b.kept.offer) and not is_shown(b.board)
    assert "the saved copy stays as it is" in b.hold.value
    b.start_button.click()
    b.spend_button.click()
    b.next_button.click()
    assert saved == []                       # the kept copy is not overwritten
    assert is_shown(b.board) and is_shown(b.kept.offer)
    assert "round 1, Mar acting, 2 combatants" in b.kept.note.value   # the offer is still right
    b.kept.restore_button.click()
    assert b.encounter == kept.encounter and not is_shown(b.kept.offer)
    b.next_button.click()
    assert len(saved) == 2 and json.loads(saved[-1])["acting"] == "Vela"


def test_turn_board_shows_the_default_board_when_nothing_was_kept(monkeypatch):
    b = TurnBoard("Ana, Bo")
    b.kept.store.ready = True                # the browser answered: nothing kept
    assert is_shown(b.board) and b.hold.value == ""
    saved: list[str] = []
    monkeypatch.setattr(b.kept.store, "save", saved.append)
    b.next_button.click()
    assert len(saved) == 1


def test_the_resolver_and_the_weapon_builder_take_fighters_from_the_roster():
    """A fighter typed once in the roster fills the attacker's tier and weapon, the target's
    kind, pool size and defending tier, and the weapon builder's weapon."""
    from rulescore.roster import Roster
    from widgets.roster import forget_shared_rosters, shared_roster
    forget_shared_rosters()
    try:
        shared_roster("tsl").set_roster(
            Roster(tsl.ROSTER).add("Vela", pc=True, tier_hand="Proficient", tag1="Silent")
            .add("Brute", kind="grunt", pool_size=3, tier_body="Untrained",
                 weapon_zone="Melee", tag1="Brutal")
            .add("Unarmed", weapon_zone="None"))
        r = AttackResolver()
        r.attacker_pick.menu.value = "Vela"
        assert (r.tier.value, r.weapon_zone.value, r.tag1.value) == (
            "Proficient", "Sidearm", "Silent")
        r.target_pick.menu.value = "Brute"   # a Melee weapon attack: Body defends
        assert (r.target_kind.value, r.pool_size.value, r.defender_tier.value) == (
            "grunt", "3", "Untrained")
        assert r.error.message == ""
        b = WeaponBuilder()
        b.pick.menu.value = "Brute"
        assert (b.zone.value, b.tag1.value, b.name.value) == ("Melee", "Brutal", "Brute's weapon")
        b.pick.menu.value = "Unarmed"
        assert b.error.message == "Unarmed carries no weapon in the roster"
    finally:
        forget_shared_rosters()


def test_weapon_builder_answers_what_reach_and_snaring_do():
    """§11 Tags: the boarding pike strikes a foe closing from Far to Near first; a Mixed hit
    with the weighted net at Near pulls the target to Engaged, and a pull at Engaged is
    refused in the words of the field."""
    b = WeaponBuilder("Melee", "Reach", name="Boarding pike")
    pike = tsl.make_weapon("Melee", ["Reach"], name="Boarding pike")
    first = tsl.reach_first_strike(pike, "Far", "Near")
    assert first.strikes_first and "You strike first" in b.reach_result.value
    assert is_shown(b.closes_from) and not is_shown(b.hit_band)
    b.reaction_used.value = True
    assert "No first strike" in b.reach_result.value
    b.name.value, b.zone.value, b.tag1.value = "Weighted net", "Thrown", "Snaring"
    assert not is_shown(b.closes_from) and is_shown(b.hit_band)
    assert "The target is pulled to Engaged" in b.snare_result.value
    b.snared_at.value = "Engaged"
    assert b.snare_error.message.startswith("“Snaring” must be pin when the target is already")
    b.how.value = "pin"
    assert b.snare_error.message == "" and "pinned at Engaged" in b.snare_result.value
    b.tag1.value = "Wayfinder's Chain"
    assert not is_shown(b.hit_band) and is_shown(b.applies)
    assert "+0 Effective Tier" in b.utility_result.value
    b.applies.value = True
    edge = tsl.utility_edge("Wayfinder's Chain", applies=True)
    assert f"{edge.outcome}</b> on this roll" in b.utility_result.value


def test_resolver_opens_on_an_improvised_weapon_or_armour():
    bottle = AttackResolver("static", "Trained", target="8", weapon_zone="Melee",
                            improvised=True)
    bottle.entry.my_dice.value = "2, 2, 1, 1, 1"
    bottle.entry.use_dice()
    assert bottle.last.weapon_breaks and "the weapon breaks" in bottle.result.value
    armoured = AttackResolver("opposed", "Trained", defender_tier="Trained", armour=True)
    armoured.bands.value = "close_catastrophe"
    armoured.entry.my_dice.value = "6, 6, 4, 1, 1, 5, 5, 1, 1, 1"
    armoured.entry.use_dice()
    assert (armoured.last.stress, armoured.last.armour_spent) == (0, True)
