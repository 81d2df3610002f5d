"""The range-band tools, driven in plain pytest by setting values and reading what they show."""

import re
from fractions import Fraction

import pytest

from rulescore.assumptions import assumption
from rulescore.dice import DiceSource
from rulescore.systems import range_bands as rb
from widgets.common import chance_html as odds_text
from widgets.lean import is_shown
from widgets.range_bands import (DashHelper, QuickLoadHelper, ShotBuilder, band_picture,
                                 dice_order_html, fall_note, outcomes_html)


def rb_dice(faces):
    return DiceSource.typed(faces)


def rb_seeded(seed):
    return DiceSource.seeded(seed)


# --- Shot difficulty builder -----------------------------------------------------------------

def test_shot_builder_shows_difficulty_picture_and_odds():
    s = ShotBuilder(target="far", optimal="close", cover="medium", pool="5")
    assert s.error.message == ""
    assert "Difficulty <b>8D</b>" in s.summary.value        # 4D + 2 bands + medium cover
    assert "+2D" in s.summary.value and "Cover types" in s.summary.value
    pic = s.picture.value
    assert "<svg" in pic and "Difficulty 8D" in pic and "medium cover +2D" in pic
    assert 'aria-label="Shooter on the left; target at far; optimal close; medium cover.' in pic
    expected = rb.check_odds(5, 8).success
    assert f"Chance to hit: {odds_text(expected)}" in s.outcomes.value
    assert "Roll 13 six-sided dice: 5 for your dice, then 8 for the difficulty" in \
        s.dice_order.value


def test_shot_builder_every_modifier_changes_the_difficulty():
    s = ShotBuilder(target="close", optimal="close", cover="none")
    assert "Difficulty <b>4D</b>" in s.summary.value
    s.snapshot.value = True
    assert "Difficulty <b>5D</b>" in s.summary.value and "1 action" in s.summary.value
    s.called.value = True
    assert "Difficulty <b>7D</b>" in s.summary.value
    s.weapon.value = "burst"
    s.area.value = True
    assert "Difficulty <b>9D</b>" in s.summary.value
    s.snapshot.value = s.called.value = s.area.value = False
    s.aim_rounds.value = "3"
    assert "Difficulty <b>3D</b>" in s.summary.value
    s.aim.value = True
    assert "+2 to your roll" in s.summary.value and "3 actions" in s.summary.value
    s.gm_dice.value = "-1"
    assert "Difficulty <b>2D</b>" in s.summary.value
    s.target.value = "close_contact"
    s.cover.value = "heavy"
    assert "Difficulty <b>1D</b>" in s.summary.value         # 3D −1D −1D, floor 1D
    assert "(no effect)" in s.picture.value


def test_shot_builder_two_optimal_bands_and_extreme():
    s = ShotBuilder(target="extreme", optimal="far", second_optimal="none", cover="none")
    assert "Difficulty <b>6D</b>" in s.summary.value
    s.optimal2.value = "very_far"
    assert "Difficulty <b>5D</b>" in s.summary.value
    assert s.picture.value.count(">optimal</text>") == 2


def test_shot_builder_dashing_target_loses_cover():
    s = ShotBuilder(target="close", optimal="close", cover="heavy")
    assert "Difficulty <b>7D</b>" in s.summary.value
    s.movement.value = "dash"
    assert "Difficulty <b>4D</b>" in s.summary.value
    assert "heavy cover (no effect)" in s.picture.value


def test_shot_builder_seeded_roll_replays():
    s = ShotBuilder(target="close", optimal="close", cover="none", pool="4")
    s.entry.roll(seed=42)
    first, text = s.last, s.result.value
    assert s.entry.seed.value == "42"
    assert "Rolled 8 d6 with seed 42" in s.explanation.value
    rolled = rb.roll_groups({"skill_dice": 4, "difficulty_dice": 4}, seed=42).groups
    again = rb.shot(4, rolled["skill_dice"], rolled["difficulty_dice"])
    assert first.margin == again.margin
    s.entry.seed.value = "42"
    s.entry.replay()
    assert s.result.value == text and s.last.margin == first.margin


def test_shot_builder_my_dice_hit_and_miss_effects():
    s = ShotBuilder(target="close", optimal="close", cover="none", pool="2")
    s.situation.value = "horseman"
    s.entry.my_dice.value = "2, 2, 2, 2, 2, 1"       # 4 against 7: missed by 3
    s.entry.use_dice()
    assert "Missed by 3: the shot hits the mount" in s.result.value
    s.entry.my_dice.value = "6 6 1 1 1 1"
    s.entry.use_dice()
    assert "Critical hit by 8" in s.result.value
    assert "Shot: the character&#x27;s 2 d6 show 6, 6 = 12" in s.explanation.value


def test_shot_builder_area_fire_hit_counts_as_three():
    s = ShotBuilder(target="close", optimal="close", cover="none", pool="3")
    s.weapon.value = "burst"
    s.area.value = True                                   # 6D
    s.entry.my_dice.value = "6, 6, 6, 1, 1, 1, 1, 1, 1"
    s.entry.use_dice()
    assert "Area hit: every target is hit as if by 3 (margin 12)" in s.result.value


@pytest.mark.parametrize("field, value, message", [
    ("pool", "0", "“Your dice (shooting skill)” must be from 1 to 30, got 0"),
    ("pool", "many", "Your dice (shooting skill) must be a whole number, got 'many'"),
    ("bonus", "x", "Bonus to your roll must be a whole number, got 'x'"),
    ("gm_dice", "9", "“GM's adjustment (dice)” must be from -5 to 5, got 9"),
    ("aim_rounds", "-1", "“Rounds spent aiming” must be from 0 to 100, got -1"),
])
def test_shot_builder_errors_in_place(field, value, message):
    s = ShotBuilder()
    getattr(s, field).value = value
    assert message in s.error.message
    assert s.outcomes.value == "" and s.summary.value == ""
    s.entry.roll(seed=1)
    assert "Fix the inputs above first" in s.entry.error.message


def test_shot_builder_rule_conflicts_are_explained():
    s = ShotBuilder(target="extreme", optimal="distant", cover="none")
    assert "needs a weapon whose optimal band is far or very far" in s.error.message
    assert "<svg" in s.picture.value                      # the picture still shows the setup
    s.optimal.value = "far"
    assert s.error.message == "" and "Difficulty <b>6D</b>" in s.summary.value
    s.snapshot.value = True
    s.aim.value = True
    assert "“Snapshot (+1D, one action)” is a shot without aiming" in s.error.message


def test_shot_builder_bad_typed_dice():
    s = ShotBuilder(target="close", optimal="close", cover="none", pool="2")
    s.entry.my_dice.value = "1, 2, 3"
    s.entry.use_dice()
    assert "“My dice”: type 6 d6 (2 for the character, then 4 for the difficulty), got 3" in \
        s.entry.error.message
    s.entry.my_dice.value = "1, 2, 3, 4, 5, 9"
    s.entry.use_dice()
    assert "“My dice”: die 6 must be from 1 to 6, got 9" in s.entry.error.message


def test_shot_builder_average_rule_needs_only_your_dice():
    s = ShotBuilder(target="close", optimal="close", cover="none", pool="4")
    s.nd_rule.value = "average"
    assert "Roll 4 six-sided dice: 4 for your dice." in s.dice_order.value
    assert f"Chance to hit: {odds_text(rb.check_odds(4, 4, nd_rule='average').success)}" in \
        s.outcomes.value
    s.entry.my_dice.value = "4, 4, 3, 3"
    s.entry.use_dice()
    assert "Hit by 0" in s.result.value                     # 14 against the fixed 14
    assert "fixed number 3.5 × 4, rounded up: 14" in s.explanation.value


def test_band_picture_marks_bands_target_and_cover():
    d = rb.shot_difficulty("distant", ["close"], "light")
    pic = band_picture("distant", ("close",), "light", d)
    assert pic.count("<rect") >= 7 and "light cover +1D" in pic and ">target<" in pic and ">shooter<" in pic
    assert ">Close</tspan>" in pic and ">contact</tspan>" in pic and ">Extreme</tspan>" in pic
    assert ">Very close</tspan>" in pic           # a name that fits its box stays one line


# --- Dash and terrain helper -----------------------------------------------------------------

def test_dash_helper_odds_match_the_engine():
    h = DashHelper(kind="dash", start="distant", terrain="hard", pool="3")
    expected = rb.terrain_odds("dash", "hard", 3)
    for name, p in expected.outcomes.items():
        assert odds_text(p) in h.outcomes.value
    assert "One band" in h.outcomes.value and "Prone" in h.outcomes.value


def test_dash_helper_easy_terrain_needs_no_dice():
    h = DashHelper(kind="dash", start="far", terrain="easy", pool="3")
    assert "No dice are needed" in h.dice_order.value
    h.entry.roll(seed=3)
    assert "Moved 2 bands: now at close (2 actions)" in h.result.value
    h.wounded.value = True
    h.entry.roll(seed=3)
    assert "bleeds 1 wound" in h.result.value


def test_dash_helper_typed_dice_failure_and_fall():
    h = DashHelper(kind="dash", start="distant", terrain="difficult", pool="2")
    h.entry.my_dice.value = "2, 3, 3, 3, 3"             # 5 against 9: failure
    h.entry.use_dice()
    assert "Moved 1 band: now at close (2 actions)" in h.result.value
    h.terrain.value = "very_hard"
    h.entry.my_dice.value = "1, 1, 6, 6, 6, 6, 6"
    h.entry.use_dice()
    assert "Moved 0 bands: now at distant (2 actions); prone, 3D damage" in h.result.value


def test_dash_helper_rolls_a_falls_damage_as_the_fight_page_does():
    """§Dashing: a critical failure on very hard (5D) ground is a 3D fall; the tool shows the
    exact odds of its damage (rb.fall_damage_odds) and then rolls it (rb.fall_damage, the call
    Fight.roll_fall makes), typed or seeded; a new input hides the fall again."""
    h = DashHelper(kind="dash", start="distant", terrain="very_hard", pool="2")
    assert not is_shown(h.fall)
    h.entry.my_dice.value = "6, 6, 3, 3, 3, 3, 3"        # 12 against 15: a failure, no fall
    h.entry.use_dice()
    assert not is_shown(h.fall)
    h.entry.my_dice.value = "1, 1, 6, 6, 6, 6, 6"        # a critical failure: a 3D fall
    h.entry.use_dice()
    assert is_shown(h.fall) and "The fall's damage: 3D" in h.fall_title.value
    assert fall_note(3) in h.fall_title.value and "assumption" not in h.fall_title.value
    # the fall's own entry, told apart from the check's by its names (and its messages)
    assert (h.entry.roll_button.description, h.fall_entry.roll_button.description) == \
        ("Roll", "Roll the fall")
    assert (h.fall_entry.seed.description, h.fall_entry.my_dice.description) == \
        ("Fall seed", "Fall dice")
    odds = rb.fall_damage_odds(3)
    assert odds.p(10) == Fraction(1, 8)
    assert "<td>10</td><td>12.50%</td><td>1/8</td>" in h.fall_odds.value
    assert "16 possible results" in h.fall_odds.value
    h.fall_entry.my_dice.value = "6, 5, 4"
    h.fall_entry.use_dice()
    assert rb.fall_damage(3, dice=rb_dice([6, 5, 4])).outcome == "15 damage"
    assert "15 damage" in h.fall_result.value
    assert "6 + 5 + 4 = 15" in h.fall_explanation.value
    h.fall_entry.my_dice.value = "6, 5"                  # one die short: said in place
    h.fall_entry.use_dice()
    assert h.fall_entry.error.message == "“Fall dice”: type 3 d6 (3 for the damage), got 2"
    assert h.fall_result.value == ""
    h.fall_entry.roll(seed=5)
    seeded = rb.fall_damage(3, dice=rb_seeded(5)).outcome
    assert seeded in h.fall_result.value
    h.terrain.value = "hard"                             # a new input: the fall is gone
    assert not is_shown(h.fall)


def test_the_fall_note_says_how_to_roll_and_links_the_named_ruling():
    """§Dashing gives a fall's damage in dice; how they are rolled is the named assumption
    fall_damage, which the note names by its title and links in the rulings chapter."""
    ruling = assumption("range_bands", "fall_damage")
    note = fall_note(2)
    assert note.startswith("Roll 2 six-sided dice and add them (2 to 12). ")
    assert re.search(r'“<a href="rulings.ipynb#fall_damage" target="_self" style="[^"]*">'
                     + re.escape(ruling.title) + "</a>” in the rulings chapter", note)
    assert "fall_damage" not in re.sub(r"<[^>]+>", "", note)     # no engine name is read


def test_dash_helper_impassable_terrain():
    h = DashHelper(kind="dash", terrain="hard")
    h.kind.value = "impassable"
    assert [v for _, v in h.terrain.options] == ["hard", "very_hard", "dramatic"]
    assert is_shown(h.covered) and not is_shown(h.wounded)
    h.terrain.value = "dramatic"
    assert "No progress" in h.outcomes.value
    h.pool.value = "3"
    h.entry.my_dice.value = "6, 6, 6, 1, 1, 1, 1, 1, 1"
    h.entry.use_dice()
    assert "Moved 1 band: now at close (2 actions)" in h.result.value
    assert "the terrain leaves the character exposed" in h.explanation.value


def test_dash_helper_errors():
    h = DashHelper(start="very_close")
    h.pool.value = "-2"
    assert "“Your dice (the check's skill)” must be from 1 to 30, got -2" in h.error.message
    h.pool.value = "3"
    assert h.error.message == ""


def test_dash_helper_seed_replays():
    h = DashHelper(kind="dash", start="distant", terrain="hard", pool="3")
    h.entry.roll(seed=77)
    first = h.result.value
    h.entry.seed.value = "77"
    h.entry.replay()
    assert h.result.value == first and "seed 77" in h.explanation.value


# --- Quick loading helper --------------------------------------------------------------------

def test_quick_load_helper_odds_and_result():
    q = QuickLoadHelper(weapon="crossbow", reload_time="3", pool="4")
    assert f"Chance to load faster: {odds_text(rb.quick_load_odds('crossbow', 4).success)}" \
        in q.outcomes.value
    assert "Fumble: foiled, a Reliability failure" in q.outcomes.value
    q.entry.my_dice.value = "5, 5, 4, 4, 3, 3, 3, 3"     # 18 against 12: critical success
    q.entry.use_dice()
    assert "Loaded in 0 actions (critical success)" in q.result.value
    q.entry.my_dice.value = "4, 4, 3, 3, 3, 3, 3, 3"     # 14 against 12
    q.entry.use_dice()
    assert "Loaded in 2 actions (success)" in q.result.value
    q.entry.my_dice.value = "1, 1, 1, 1, 3, 3, 3, 3"
    q.entry.use_dice()
    assert "Not loaded: 2 actions wasted; Reliability failure" in q.result.value
    assert "Crossbows (Vigor)" in q.explanation.value


def test_quick_load_helper_errors():
    q = QuickLoadHelper()
    q.reload_time.value = "0"
    q.entry.my_dice.value = "1, 1, 1, 1, 3, 3, 3, 3"
    q.entry.use_dice()
    assert "“Normal reload (actions)” must be from 1 to 100, got 0" in q.entry.error.message
    q.reload_time.value = "soon"
    assert "Normal reload (actions) must be a whole number, got 'soon'" in q.error.message


def test_helpers_render_outcomes_and_dice_order():
    page = outcomes_html({"hit": Fraction(1, 4), "miss": Fraction(3, 4)}, "Head <1>")
    assert "Head &lt;1&gt;" in page and "25.00% (1/4)" in page and "<td>Hit</td>" in page
    assert "2 for your dice, then 3 for the difficulty" in \
        dice_order_html({"skill_dice": 2, "difficulty_dice": 3})


# --- Stealth helper --------------------------------------------------------------------------

def test_stealth_helper_odds_roll_and_streak():
    from widgets.range_bands import StealthHelper
    h = StealthHelper(pool="2", perception="3", cover="light")
    expected = rb.stealth_odds(2, 3, "light").outcomes["hidden"]
    assert f"Chance to stay hidden: {odds_text(expected)}" in h.outcomes.value
    assert "2 for Stealth, then 1 for cover, then 3 for Perception" in h.dice_order.value
    assert not is_shown(h.nd_rule)
    h.entry.my_dice.value = "4, 4, 2, 3, 3, 3"           # 10 against 9
    h.entry.use_dice()
    assert "Hidden (1 in a row)" in h.result.value and h.streak.value == "1"
    h.entry.use_dice()
    assert "observer is unaware" in h.result.value and h.streak.value == "2"
    h.entry.my_dice.value = "1, 1, 1, 6, 6, 6"
    h.entry.use_dice()
    assert "Seen: the streak is broken" in h.result.value and h.streak.value == "0"


def test_stealth_helper_dash_and_close_contact():
    from widgets.range_bands import StealthHelper
    h = StealthHelper(pool="2", perception="2", cover="heavy")
    h.close_contact.value = True
    assert "then 2 for Perception" in h.dice_order.value and "for cover" not in \
        h.dice_order.value
    h.movement.value = "dash"
    assert "Chance to stay hidden: 0.00%" in h.outcomes.value
    h.entry.roll(seed=5)
    assert "Seen" in h.result.value and "cannot make a Stealth check" in h.explanation.value
    h.perception.value = "lots"
    assert "Observer's Perception dice must be a whole number, got 'lots'" in h.error.message
    h.perception.value = "2"
    h.pool.value = "x"                          # the error names the field the reader sees
    assert "Hider's Stealth dice must be a whole number, got 'x'" in h.error.message


def test_worked_and_show_odds_return_what_they_show():
    from widgets.range_bands import show_odds, worked
    r = worked(rb.shot_difficulty("far", "close", "medium"), "A shot")
    assert r.value == 8
    o = show_odds(rb.check_odds(1, 1), "1 die against 1D")
    assert o.success == Fraction(7, 12)


def test_changing_an_input_clears_a_stale_dice_error():
    s = ShotBuilder(target="close", optimal="close", cover="none", pool="2")
    s.entry.my_dice.value = "1"
    s.entry.use_dice()
    assert "“My dice”: type 6 d6" in s.entry.error.message
    s.pool.value = "3"
    assert s.entry.error.message == "" and "Difficulty <b>4D</b>" in s.summary.value


def test_shot_builder_hidden_target_needs_area_fire():
    s = ShotBuilder(target="close", optimal="close", cover="none")
    s.hidden.value = True
    assert "a hidden character can only be targeted by area fire" in s.error.message
    s.area.value = True
    assert "“Weapon” firearm cannot use area fire" in s.error.message
    s.weapon.value = "burst"
    assert s.error.message == "" and "Difficulty <b>6D</b>" in s.summary.value


def test_shot_builder_refuses_area_fire_with_a_bow():
    """§Area fire needs a burst weapon, an explosive or another area weapon: a bow is refused
    in place, naming the weapon; an explosive is fine (close, close optimal, no cover: 4D + 2D)."""
    s = ShotBuilder(target="close", optimal="close", cover="none")
    s.weapon.value = "bow"
    s.area.value = True
    assert "“Weapon” bow cannot use area fire" in s.error.message
    s.weapon.value = "explosive"
    assert s.error.message == "" and "Difficulty <b>6D</b>" in s.summary.value


def test_switchable_rulings_reach_the_engine():
    q = QuickLoadHelper(weapon="bow", pool="4")
    q.critical.value = "3"
    expected = rb.quick_load_odds("bow", 4, critical_margin=3).outcomes["critical success"]
    assert odds_text(expected) in q.outcomes.value
    q.entry.my_dice.value = "4, 4, 3, 3, 3, 3, 3, 2"     # 14 against 11: +3
    q.entry.use_dice()
    assert "Loaded in 0 actions (critical success)" in q.result.value
    q.critical.value = "0"
    assert "“Critical at a margin of ±” must be from 1 to 60, got 0" in q.error.message

    s = ShotBuilder(target="close", optimal="close", cover="none", pool="2")
    s.situation.value = "horseman"
    s.miss_reading.value = "exactly"
    s.entry.my_dice.value = "2, 2, 2, 2, 1, 1"              # 4 against 6: short by 2
    s.entry.use_dice()
    assert "Missed by 2: a plain miss" in s.result.value
    s.miss_reading.value = "up_to"
    s.entry.use_dice()
    assert "Missed by 2: the shot hits the mount" in s.result.value


def test_stealth_helper_no_hiding_in_impassable_terrain():
    """§Stealth is made only while staying put or taking one move; crossing impassable terrain
    takes two moves, so the tool gives no chance to hide and rolls no dice."""
    from widgets.range_bands import StealthHelper
    h = StealthHelper(pool="3", perception="3", cover="light")
    h.movement.value = "impassable"
    assert "Chance to stay hidden: 0.00%" in h.outcomes.value
    h.entry.roll(seed=5)
    assert "Seen" in h.result.value and "two move actions" in h.explanation.value


def test_stealth_helper_hides_the_nd_switches():
    from widgets.range_bands import StealthHelper
    h = StealthHelper()
    assert not is_shown(h.critical) and not is_shown(h.nd_rule)


# --- The worked examples' own tools (DESIGN.md §5) -------------------------------------------

def test_extreme_duel_odds_typed_dice_and_words():
    from widgets.range_bands import ExtremeDuel
    t = ExtremeDuel(first="3", second="3")
    odds = rb.opposed_odds(3, 3)
    assert f"Chance the first side gets the shot: {odds_text(odds.success)}" in t.outcomes.value
    assert "3 for the first side, then 3 for the second side" in t.dice_order.value
    assert not is_shown(t.nd_rule) and not is_shown(t.critical)
    t.entry.my_dice.value = "5, 4, 3, 6, 2, 1"           # the chapter's two snipers
    t.entry.use_dice()
    duel = rb.extreme_engagement([5, 4, 3], [6, 2, 1])
    assert t._headline(duel) == "The first side shoots: 12 against 9"
    assert t._headline(duel) in t.result.value
    t.second_bonus.value = "4"                            # 12 against 13
    t.entry.use_dice()
    assert "The second side shoots: 12 against 13" in t.result.value
    t.second.value = "0"
    assert t.error.message == "“Second side's dice” must be from 1 to 30, got 0"
    t.second.value, t.pool.value = "3", "31"
    assert t.error.message == "“First side's dice” must be from 1 to 30, got 31"


def test_cover_check_dashing_close_contact_and_line_of_sight():
    from widgets.range_bands import CoverCheck
    c = CoverCheck(cover="heavy", movement="dash")
    assert rb.cover_modifier("heavy", movement="dash").value == 0
    assert "Cover adds nothing to the shot (+0D)" in c.result.value
    assert "dashing and loses the benefit of cover" in c.explanation.value
    c.movement.value = "move"
    assert "Cover adds +3D to the shot" in c.result.value
    c.cover.value, c.close_contact.value = "medium", True
    assert "nothing" in c.result.value and "close contact" in c.explanation.value
    c.heavy_bands.value = "1"
    assert "can see the target" in c.result.value
    c.heavy_bands.value = "2"
    assert "no line of sight" in c.result.value
    c.heavy_bands.value = "7"
    assert c.error.message == "“Bands of heavy cover in between” must be from 0 to 6, got 7"
    assert c.result.value == ""


def test_band_finder_edges_and_words():
    from widgets.range_bands import BandFinder
    b = BandFinder(metres="75")
    assert rb.band(rb.band_for_distance(75)).name.lower() in b.result.value
    b.metres.value = "30"
    assert "30 m is very close" in b.result.value
    b.edge.value = "farther"
    assert "30 m is close" in b.result.value
    b.metres.value = "-1"
    assert b.error.message == "“Distance (metres)” must be from 0 to 100000, got -1"


def test_move_helper_ordinary_moves():
    from widgets.range_bands import MoveHelper
    m = MoveHelper(start="distant", direction="closer")
    r = rb.move("distant", "closer")
    assert MoveHelper.headline(r) == "Moved 1 band: now at close (1 action); keeps cover"
    assert MoveHelper.headline(r) in m.result.value
    m.start.value = "very_close"
    assert "now at close contact" in m.result.value
    m.start.value, m.direction.value = "close_contact", "away"
    assert "now at very close" in m.result.value


def test_the_same_band_twice_is_named_by_its_fields():
    s = ShotBuilder(optimal="close", second_optimal="close")
    assert s.error.message == ("“Second optimal band”: close is already the “Optimal band”; "
                               "choose another band or none")
    assert "rulebook-band-picture" in s.picture.value     # the bands still show
    s.optimal2.value = "none"
    assert s.error.message == "" and "Difficulty" in s.summary.value


def test_no_engine_name_reaches_a_reader_of_the_typed_dice():
    from widgets.range_bands import ExtremeDuel, StealthHelper
    for tool in (ShotBuilder(), DashHelper(), QuickLoadHelper(), StealthHelper(), ExtremeDuel()):
        tool.entry.my_dice.value = "1"
        tool.entry.use_dice()
        assert tool.entry.error.message.startswith("“My dice”: type "), tool
        tool.entry.my_dice.value = ", ".join(["9"] * 40)
        tool.entry.use_dice()
        assert not tool.entry.error.message.startswith("dice"), tool


def test_check_helper_both_readings_and_a_typed_roll():
    from widgets.range_bands import CheckHelper
    c = CheckHelper(pool="4", difficulty="4")
    assert f"Chance of success: {odds_text(rb.check_odds(4, 4).success)}" in c.outcomes.value
    assert "4 for your dice, then 4 for the difficulty" in c.dice_order.value
    c.entry.my_dice.value = "6, 5, 4, 3, 2, 2, 2, 2"
    c.entry.use_dice()
    rolled = rb.check([6, 5, 4, 3], 4, [2, 2, 2, 2])
    assert c._headline(rolled) == "Critical success: 18 against 8 (margin +10)"
    assert c._headline(rolled) in c.result.value
    c.nd_rule.value = "average"
    fixed = rb.check_odds(4, 4, nd_rule="average").success
    assert f"Chance of success: {odds_text(fixed)}" in c.outcomes.value
    c.entry.my_dice.value = "6, 5, 4, 3"
    c.entry.use_dice()
    assert "Success: 18 against 14 (margin +4)" in c.result.value
    c.difficulty.value = "0"
    assert c.error.message == "“Difficulty (dice)” must be from 1 to 24, got 0"


def test_melee_reach_tool():
    from widgets.range_bands import MeleeReach
    m = MeleeReach(target="very_close", long_weapon=True)
    assert rb.melee_reach("very_close", long_weapon=True)
    assert "Yes: a long weapon reaches a target at very close" in m.result.value
    m.long_weapon.value = False
    assert "No: a hand weapon does not reach a target at very close" in m.result.value
    m.target.value = "close_contact"
    assert "Yes: a hand weapon reaches a target in close contact" in m.result.value


def test_target_check_tool():
    from widgets.range_bands import TargetCheck
    t = TargetCheck(hidden=True)
    assert not rb.can_target(hidden=True)
    assert "No: a hidden character can only be targeted by area fire" in t.result.value
    t.area_fire.value = True
    assert rb.can_target(hidden=True, area_fire=True)
    assert "Yes: area fire reaches a hidden character" in t.result.value
    t.hidden.value = t.area_fire.value = False
    assert "Yes: the target is not hidden" in t.result.value
    assert t.error.message == ""


def test_check_tools_put_the_result_beside_the_inputs():
    import ipywidgets as w
    from widgets.range_bands import CheckHelper, ExtremeDuel, StealthHelper
    for tool in (CheckHelper(), ExtremeDuel(), StealthHelper(), DashHelper(), QuickLoadHelper(),
                 ShotBuilder()):
        (row,) = tool.children
        inputs, answer = row.children
        assert isinstance(row, w.HBox) and row.layout.flex_flow == "row wrap"
        assert tool.pool in inputs.children and tool.result in answer.children
