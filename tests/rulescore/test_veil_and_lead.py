"""The Veil & Lead core: checks, the Cylinder, tempo, exposure and derived numbers (§I–§VI)."""

import pytest

from rulescore import RulesError
from rulescore.systems import veil_and_lead as vl


# --- the check -----------------------------------------------------------------------------------

def test_check_worked_example_sums_two_highest_and_bonus():
    # §VI The Complete Attack Example: [2, 3, 5, 6, 7, 8] → 7 + 8 = 15, +5 → 20 vs TN 15.
    r = vl.check([2, 3, 5, 6, 7, 8], 15, roll_bonus=5)
    assert isinstance(r, vl.CheckResolution)
    assert (r.value, r.base_sum, r.kept, r.margin, r.success) == (20, 15, (8, 7), 5, True)
    assert r.outcome == "Success"
    assert all(s.rule.system == "veil_and_lead" for s in r.trace)


def test_check_margin_zero_is_a_success_and_negative_is_a_miss():
    assert vl.check([6, 5], 11).margin == 0 and vl.check([6, 5], 11).success
    miss = vl.check([6, 4, 1], 11)
    assert (miss.value, miss.margin, miss.success, miss.outcome) == (10, -1, False, "Failure")


def test_check_doubles_count_twice():
    assert vl.check([8, 8, 1], 16).value == 16
    assert vl.check([3, 8, 8, 8], 0).kept == (8, 8)


def test_check_with_one_die_or_none_small_pool_rule():
    assert vl.check([7], 7).value == 7
    assert vl.check([], 2, roll_bonus=2).value == 2 and vl.check([], 2, roll_bonus=2).success
    with pytest.raises(RulesError, match="faces must hold at least 2"):
        vl.check([7], 7, small_pool="floor_two")
    with pytest.raises(RulesError, match="small_pool must be one of"):
        vl.check([7, 7], 7, small_pool="three")


@pytest.mark.parametrize("dice, message", [
    ([0, 3], "faces must hold d8 faces from 1 to 8, got 0"),
    ([9], "got 9"), ("88", "faces must be a list"), ([True, 3], "got True"),
])
def test_check_rejects_bad_dice(dice, message):
    with pytest.raises(RulesError, match=message):
        vl.check(dice, 11)


def test_check_rejects_bad_tn_and_bonus():
    with pytest.raises(RulesError, match="tn must be a whole number"):
        vl.check([3, 4], "11")
    with pytest.raises(RulesError, match="roll_bonus must be a whole number"):
        vl.check([3, 4], 11, roll_bonus=1.5)


# --- starting tick ------------------------------------------------------------------------------

@pytest.mark.parametrize("margin, expected", [
    (None, (6, "Surprised")), (-1, (6, "Surprised")), (-11, (6, "Surprised")),
    (0, (4, "Slow")), (3, (4, "Slow")), (4, (3, "Ready")), (6, (3, "Ready")),
    (7, (2, "Fast")), (9, (2, "Fast")), (10, (0, "Instant")), (25, (0, "Instant")),
])
def test_starting_tick_bands(margin, expected):
    assert vl.starting_tick(margin) == expected


def test_starting_tick_rejects_non_integers():
    with pytest.raises(RulesError, match="margin must be a whole number"):
        vl.starting_tick(2.5)


# --- the Cylinder ------------------------------------------------------------------------------

@pytest.mark.parametrize("tick, tempo, new", [
    (4, 4, 8), (2, 4, 6), (4, 5, 9),      # §I examples
    (18, 6, 4),                          # §I The Wrap: 18 + 6 = 24 → 4
    (19, 1, 0), (19, 0, 19), (0, 0, 0), (10, 9, 19), (10, 10, 0), (5, 20, 5), (19, 41, 0),
])
def test_advance_wraps_past_19(tick, tempo, new):
    assert vl.advance(tick, tempo) == new


@pytest.mark.parametrize("tick, tempo, message", [
    (20, 1, "tick must be from 0 to 19, got 20"), (-1, 1, "tick must be from 0 to 19, got -1"),
    (3, -2, "tempo must be 0 or more, got -2"), (3, "4", "tempo must be a whole number"),
])
def test_advance_rejects_bad_input(tick, tempo, message):
    with pytest.raises(RulesError, match=message):
        vl.advance(tick, tempo)


def test_move_token_explains_the_wrap():
    r = vl.move_token(18, 6)
    assert (r.value, r.wrapped, r.start, r.tempo) == (4, True, 18, 6)
    assert "24" in r.trace[0].text and "from 0" in r.trace[0].text
    assert vl.move_token(2, 4).wrapped is False
    assert vl.move_token(15, 4).wrapped is False and vl.move_token(15, 5).wrapped is True


def test_count_example():
    # §I Example of The Count: Caleb Tick 2 fires his Peacemaker, the Enforcer at Tick 4 takes
    # a Steady Shot with his rifle (Tempo 5); Caleb and Maeve then share Tick 6.
    caleb = vl.advance(2, vl.tempo("Steady Shot", "Peacemaker"))
    enforcer = vl.advance(4, vl.tempo("Steady Shot", "Repeater"))
    assert (caleb, enforcer) == (6, 9)
    # Reload (Tempo 6) from Tick 18 lands on Tick 4.
    assert vl.advance(18, vl.tempo("Reload (Manual)")) == 4


def test_red_lines():
    assert vl.red_lines() == (0, 10)


# --- tempo and exposure ------------------------------------------------------------------------

@pytest.mark.parametrize("action, weapon, expected", [
    ("Speak", None, 0), ("Drop", None, 0), ("Draw Weapon", None, 2), ("Scramble", None, 3),
    ("Take Cover", None, 3), ("Aim", None, 2), ("Reload (Speed)", None, 4), ("Grapple", None, 5),
    ("Interact", None, 4), ("Reload (Manual)", None, 6), ("Recover", None, 6),
    ("Steady Shot", "Peacemaker", 4), ("Steady Shot", "Buffalo Rifle", 6),
    ("Strike", "Brass Knuckles", 2), ("Strike", "Saber", 5),
    ("Quick Shot", "Peacemaker", 3), ("Quick Shot", "Derringer", 3),  # 3 − 1 = 2 → minimum 3
    ("Quick Shot", "Buffalo Rifle", 5), ("Quick Shot", "Gatling Gun", 6),
    ("Shiv", "Brass Knuckles", 2), ("Shiv", "Bowie Knife", 2), ("Shiv", "Hatchet", 3),
    ("Called Shot", "Peacemaker", 6), ("Heavy Cleave", "Sledgehammer", 8),
    ("Sprint", None, 4), ("Rush / Charge", None, 4), ("Disengage", None, 4),
    ("Stand Up", None, 3), ("Crawl", None, 6), ("Stabilize", None, 6),
])
def test_tempo(action, weapon, expected):
    assert vl.tempo(action, weapon) == expected


def test_tempo_of_channel_and_errors():
    assert vl.tempo("Channel", chosen=7) == 7
    with pytest.raises(RulesError, match="chosen must be given for Channel"):
        vl.tempo("Channel")
    with pytest.raises(RulesError, match="chosen must be from 4 to 9, got 10"):
        vl.tempo("Channel", chosen=10)
    with pytest.raises(RulesError, match="weapon must be given for Steady Shot"):
        vl.tempo("Steady Shot")
    with pytest.raises(RulesError, match="weapon must be one of"):
        vl.tempo("Steady Shot", "Bazooka")
    with pytest.raises(RulesError, match="action must be one of"):
        vl.tempo("Dance")


@pytest.mark.parametrize("action, weapon, by_tempo, as_printed", [
    ("Draw Weapon", None, True, True), ("Aim", None, True, True),
    ("Scramble", None, True, True), ("Take Cover", None, False, False),
    ("Quick Shot", "Peacemaker", True, True), ("Quick Shot", "Repeater", False, True),
    ("Shiv", "Bowie Knife", True, True), ("Shiv", "Sledgehammer", False, True),
    ("Steady Shot", "Peacemaker", False, False), ("Steady Shot", "Derringer", True, False),
    ("Strike", "Bowie Knife", True, True), ("Strike", "Brass Knuckles", True, True),
    ("Strike", "Hatchet", False, False), ("Speak", None, False, False),
    ("Sprint", None, True, True), ("Reload (Speed)", None, False, False),
])
def test_exposure(action, weapon, by_tempo, as_printed):
    t = vl.tempo(action, weapon)
    light = weapon is not None and vl.weapon(weapon).light
    assert vl.exposes(action, t, light_weapon=light) is by_tempo
    assert vl.exposes(action, t, exposure="as_printed", light_weapon=light) is as_printed


def test_exposure_errors():
    with pytest.raises(RulesError, match="exposure must be one of"):
        vl.exposes("Aim", 2, exposure="never")
    with pytest.raises(RulesError, match="decide it at the table"):
        vl.exposes("Channel", 5)


# --- derived numbers ---------------------------------------------------------------------------

def test_defense_formula():
    assert vl.defense(3, 2) == 11
    assert vl.defense(1, 1) == 9 and vl.defense(5, 5) == 13     # typical range 9–13
    assert vl.defense(2, 4, equipment=1) == 13                  # shield +1
    assert vl.defense(3, 1, equipment=vl.armour("Ironbrand Suit").defense_modifier) == 10
    assert vl.DEFENSE.evaluate(QUICK=3, SAVVY=2, equipment=0) == 11
    with pytest.raises(RulesError, match="savvy must be from 1 to 5, got 6"):
        vl.defense(3, 6)


def test_vitality_and_speed_formulas():
    assert [vl.vitality(i) for i in range(1, 6)] == [9, 10, 11, 12, 13]
    assert vl.speed(3, 2) == 8                                 # §V Speed Calculation example
    with pytest.raises(RulesError, match="iron must be from 1 to 5, got 0"):
        vl.vitality(0)
    with pytest.raises(RulesError, match="athletics must be from 0 to 4, got 5"):
        vl.speed(3, 5)


@pytest.mark.parametrize("aims, bonus", [(0, 0), (1, 2), (2, 3), (3, 4), (4, 4), (99, 4)])
def test_aim_bonus(aims, bonus):
    assert vl.aim_bonus(aims) == bonus


def test_aim_bonus_rejects_negative():
    with pytest.raises(RulesError, match="aim_actions must be 0 or more, got -1"):
        vl.aim_bonus(-1)


@pytest.mark.parametrize("action, speed, metres", [
    ("Shift", 8, 4), ("Shift", 7, 3), ("Shift", 0, 0), ("Scramble", 8, 12),
    ("Rush / Charge", 8, 16), ("Sprint", 8, 24),
])
def test_move_distance(action, speed, metres):
    assert vl.move_distance(action, speed) == metres


@pytest.mark.parametrize("metres, band", [
    (0, "Point-Blank"), (2, "Point-Blank"), (3, "Close"), (5, "Close"), (6, "Near"),
    (20, "Near"), (21, "Far"), (100, "Far"), (101, "Extreme"), (5000, "Extreme"),
])
def test_range_band(metres, band):
    assert vl.range_band(metres) == band


def test_pool_penalties_cap_at_five():
    assert vl.pool_after_penalties(6, 2) == 4
    assert vl.pool_after_penalties(6, 5) == 1
    assert vl.pool_after_penalties(6, 9) == 1
    assert vl.pool_after_penalties(3, 5) == -2


def test_dice_rolled_small_pool_rule():
    assert [vl.dice_rolled(n) for n in (-2, 0, 1, 2, 5)] == [0, 0, 1, 2, 5]
    assert [vl.dice_rolled(n, "floor_two") for n in (-2, 0, 1, 2, 5)] == [2, 2, 2, 2, 5]


@pytest.mark.parametrize("action, text", [
    ("Speak", "0"), ("Draw Weapon", "2"), ("Reload (Manual)", "6"),
    ("Quick Shot", "Base − 1 (at least 3)"), ("Shiv", "Base − 1 (at least 2)"),
    ("Steady Shot", "Weapon base"), ("Called Shot", "Base + 2"),
    ("Channel", "4–9 (chosen)")])
def test_tempo_text_reads_each_kind_of_tempo_as_section_iii_prints_it(action, text):
    assert vl.tempo_text(action) == text


def test_tempo_text_agrees_with_the_tempo_it_describes():
    """Quick Shot with a base-tempo-3 weapon: "Base − 1 (at least 3)" is 3, not 2."""
    weapon = next(w for w, spec in vl.weapons().items()
                  if spec.base_tempo == 3 and spec.kind == "ranged")
    assert vl.tempo("Quick Shot", weapon) == 3 and vl.tempo("Called Shot", weapon) == 5


def test_action_rows_print_every_action_once_with_the_seeds_exposed_entry():
    rows = vl.action_rows()
    assert [r["Action"] for r in rows] == list(vl.actions())
    by_name = {r["Action"]: r for r in rows}
    assert by_name["Strike"]["Exposed?"] == "Only with a light weapon"
    assert by_name["Quick Shot"]["Exposed?"] == "Yes" and by_name["Take Cover"]["Exposed?"] == "No"
    assert by_name["Channel"]["Exposed?"] == "By the power"
    assert list(rows[0]) == ["Action", "Kind", "Tempo", "Exposed?", "Done with the weapon",
                             "What it does"]


def test_action_rows_say_in_words_whether_the_weapon_is_used_as_uses_weapon_rules():
    """The actions table's weapon column, printed: "yes" where the action is done with the
    fighter's weapon, "no" where not, and the Rush / Charge's condition in words (§III, §V),
    capitalised as the Exposed? column beside it."""
    done = {r["Action"]: r["Done with the weapon"] for r in vl.action_rows()}
    for action, words in done.items():
        if action == "Rush / Charge":
            assert words == "Only if it ends in a melee attack"
            assert vl.uses_weapon(action, attack_on_arrival=True)
            assert not vl.uses_weapon(action)
        else:
            assert words == ("Yes" if vl.uses_weapon(action) else "No"), action
    assert done["Strike"] == "Yes" and done["Sprint"] == "No"


def test_tempo_text_names_an_unknown_action():
    with pytest.raises(RulesError, match="Fly"):
        vl.tempo_text("Fly")
