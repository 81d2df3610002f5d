"""The tempo calculator and the movement-and-range tool in plain pytest."""

from rulescore.dice import DiceSource
from rulescore.systems import veil_and_lead as vl
from rulescore.text import percent
from widgets.veil_and_lead_more import MovementAndRange, TempoCalculator


def test_tempo_wraps_and_exposes():
    t = TempoCalculator("Quick Shot", "Peacemaker", 17)
    assert "tempo <b>3</b> (from Peacemaker's base tempo 4)" in t.result.value
    assert "Tick 17 to <b>Tick 0</b>" in t.result.value and "Exposed</b>" in t.result.value
    t.weapon.value = "Buffalo Rifle"
    slow = vl.tempo("Quick Shot", "Buffalo Rifle")
    assert f"tempo <b>{slow}</b>" in t.result.value
    t.action.value = "Channel"
    assert not t.chosen.disabled
    t.chosen.value = 7
    assert "tempo <b>7</b> (the tempo you choose)" in t.result.value
    assert "as the power used decides" in t.result.value
    t.chosen.value = 2
    assert t.error.message == "“Chosen tempo” must be from 4 to 9, got 2"
    t.action.value = "Steady Shot"
    t.exposure.value = "as_printed"
    assert "not Exposed" in t.result.value
    t.action.value = "Speak"
    assert "takes no time" in t.result.value


def test_movement_range_and_cover():
    m = MovementAndRange(quick=3, athletics=1, metres=12, weapon="Peacemaker")
    speed = vl.speed(3, 1)
    assert f"<td>Sprint</td><td>{vl.tempo('Sprint')}</td><td>" \
           f"{vl.move_distance('Sprint', speed)} m</td>" in m.moves.value
    assert "the range is <b>Near</b>" in m.shot.value
    m.metres.value = 300
    far = vl.range_modifier("pistol", "Extreme")
    assert f"TN {far.tn_modifier:+d}" in m.shot.value
    m.cover.value = "Hard Cover"
    assert "Hard Cover: TN +4." in m.shot.value
    m.cover.value = "Total Cover"
    assert "cannot be shot at all" in m.shot.value
    m.prone.value = True
    assert "2 m as things stand" in m.moves.value
    m.weapon.value = "Bowie Knife"
    assert "melee weapon" in m.shot.value


def test_duel_odds_roll_and_errors():
    from rulescore.text import percent
    from widgets.veil_and_lead_more import DuelRoller
    d = DuelRoller()
    odds = vl.duel_odds(4, 4)
    assert f"<td>Ada first</td><td>{percent(odds.a_first)}</td><td>{odds.a_first}</td>" \
        in d.odds.value
    d.entry.my_dice.value = "8, 7, 1, 1 | 6, 6, 2, 1"
    d.entry.use_dice()
    assert "Ada fires first (15 against 12; higher sum)" in d.result.value
    d.entry.my_dice.value = "8, 7, 1, 1 | 8, 7, 2, 1"
    d.entry.use_dice()
    assert "Ada fires first (15 against 15; higher quick)" in d.result.value
    d.quick_b.value = 3
    d.aware_b.value = 1
    d.entry.my_dice.value = "8, 7, 1, 1 | 8, 7, 2, 1"
    d.entry.use_dice()
    assert "Both fire at once" in d.result.value
    d.entry.roll(seed=5)
    first = d.result.value
    d.entry.replay()
    assert d.result.value == first
    d.entry.my_dice.value = "8, 7 | 6"
    d.entry.use_dice()
    assert d.entry.error.message == ("“My dice” must be 4 d8 (“QUICK (one)” 3 + "
                                      "“Awareness (one)” 1), got 2")
    d.bonus_a.value = 3
    assert f"{vl.duel_odds(4, 4, 3, 0).a_first}" in d.odds.value


def test_tempo_calculator_charge_with_a_blow_and_a_mismatched_weapon():
    """§V Movement Actions: Rush / Charge is 4, with a melee attack on arrival 4 + 1 = 5;
    §III Quick Shot is a ranged attack, so a Hatchet is refused with a message."""
    from widgets.veil_and_lead_more import TempoCalculator
    tool = TempoCalculator("Rush / Charge", "Hatchet", 2)
    assert "tempo <b>4</b>" in tool.result.value
    tool.arrival.value = True
    assert "tempo <b>5</b>" in tool.result.value and "Tick 7" in tool.result.value
    tool.weapon.value = "Peacemaker"
    assert "melee weapon" in tool.error.value
    tool.arrival.value = False
    tool.action.value, tool.weapon.value = "Quick Shot", "Hatchet"
    assert "cannot make a Quick Shot" in tool.error.value


def test_hold_and_resist_the_chapters_examples():
    """§XI Stunned: GRIT 2 + Resilience 1 = 3d8 against TN 11; [7, 5, 2] make 12, resisted;
    [3, 2, 1] make 5, Stunned. §III Grapple: IRON 2 + Brawl 1 against Defense 10; [8, 6, 1]
    make 14, Grappled. The odds are the engine's exact fractions."""
    from widgets.veil_and_lead_more import HoldAndResist
    tool = HoldAndResist()
    p = vl.resist_probability(2, 1)
    assert f"3d8: the check resists <b>{percent(p)}</b> ({p})" in tool.odds.value
    tool.entry.my_dice.value = "7, 5, 2"
    tool.entry.use_dice()
    assert "Resisted: margin +1" in tool.result.value
    tool.entry.my_dice.value = "3, 2, 1"
    tool.entry.use_dice()
    assert "Stunned: margin -6" in tool.result.value
    tool.check.value = "grapple"
    assert tool.defense.layout.display != "none"
    tool.entry.my_dice.value = "8, 6, 1"
    tool.entry.use_dice()
    assert "Grappled: margin +4" in tool.result.value
    tool.attribute.value = 0
    assert tool.error.message == "“Attribute (GRIT or IRON)” must be from 1 to 5, got 0"
    tool.attribute.value = 2
    assert tool.error.message == ""


def test_stray_shot_odds_dice_and_errors():
    from widgets.veil_and_lead_more import StrayShot
    t = StrayShot()
    assert "No one: the shot goes wide" in t.odds.value and "1/6" in t.odds.value
    t.entry.my_dice.value = "2, 3"
    t.entry.use_dice()
    assert "Cy is struck: 3 damage" in t.result.value
    t.weapon.value = "Coach Gun"                       # Scatter: 1–4 strikes an ally
    assert percent(vl.stray_shot_chances(["Ada", "Bo", "Cy"], scatter=True)["Ada"]) \
        in t.odds.value
    t.entry.my_dice.value = "6, 1"                     # a clean miss reads one die
    t.entry.use_dice()
    assert "too many dice" in t.entry.error.message
    t.entry.my_dice.value = "6"
    t.entry.use_dice()
    assert "No one is struck" in t.result.value
    t.allies.value = "Ada, Ada"
    assert "“Allies in the melee” must be different names" in t.error.message
    t.allies.value = "Ada"
    assert not t.error.message
    t.entry.roll(11)
    seeded = vl.stray_shot_among(["Ada"], vl.weapon("Coach Gun").wr, 0, scatter=True,
                                 dice=DiceSource.seeded(11))
    assert (f"Ada is struck: {seeded.value} damage" if seeded.struck else
            "No one is struck") in t.result.value and "seed 11" in t.result.value


def test_an_action_without_a_weapon_names_none():
    """§III, §V: Recover, Stand Up and a plain Rush / Charge use no weapon, so the tempo line
    names none (vl.uses_weapon); a Reload and a Rush / Charge ending in a blow do."""
    tool = TempoCalculator("Recover", "Peacemaker", 2)
    assert "<b>Recover</b>: tempo <b>6</b> (a fixed tempo)" in tool.result.value
    assert "Peacemaker" not in tool.result.value
    tool.action.value = "Stand Up"
    assert "<b>Stand Up</b>: tempo <b>3</b>" in tool.result.value
    tool.action.value = "Reload (Speed)"
    assert "<b>Reload (Speed)</b> with Peacemaker: tempo <b>4</b>" in tool.result.value
    tool.weapon.value, tool.action.value = "Hatchet", "Rush / Charge"
    assert "<b>Rush / Charge</b>: tempo <b>4</b>" in tool.result.value
    tool.arrival.value = True
    assert "<b>Rush / Charge</b> with Hatchet: tempo <b>5</b>" in tool.result.value


def test_the_tempo_explanation_cites_the_actions_section():
    """The action's step cites its section of the chapter (§III Standard Actions) as every
    step does, a rule reference, not bare words."""
    t = TempoCalculator("Strike", "Hatchet", 3)
    section = vl.records.find_action("Strike").section
    assert section == "III Standard Actions"
    assert f"[veil_and_lead §{section}]</small>" in t.explanation.value
