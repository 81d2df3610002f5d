"""The Veil & Lead table tools in plain pytest: set values, press buttons, read what is shown."""

import random

from rulescore.roster import Roster
from rulescore.systems import veil_and_lead as vl
from rulescore.text import percent
from widgets.lean import is_shown
from widgets.roster import EMPTY_HINT, RosterEditor
from widgets.veil_and_lead_table import (AttackCalculator, CoupDeGrace, DownedWalker,
                                         PartyInitiative, chance_html)


def party(*rows: tuple[str, int, int]) -> RosterEditor:
    """A roster editor holding *rows* (name, QUICK, Awareness), as the chapter's roster would."""
    roster = Roster(vl.ROSTER)
    for name, quick, awareness in rows:
        roster = roster.add(name, quick=quick, awareness=awareness)
    return RosterEditor(vl.ROSTER, starter=roster)


def test_party_odds_for_every_fighter_of_the_roster():
    tool = PartyInitiative(party(("Ada", 3, 2), ("Bo", 2, 1)))
    tool.lines["Bo"][1].value = "ambush"
    ada = vl.plan_initiative(3, 2).odds()
    bo = vl.plan_initiative(2, 1, ambush=True).odds()
    assert f"Tick 4 Slow: {percent(ada[(4, 'Slow')])}" in tool.odds.value
    assert "<b>Bo</b> (3d8, +2)" in tool.odds.value
    assert f"Tick 2 Fast: {percent(bo[(2, 'Fast')])}" in tool.odds.value
    assert "QUICK 3, Awareness 2" in tool.lines["Ada"][0].value


def test_the_party_follows_the_roster_and_its_armour():
    roster = party(("Ada", 3, 2))
    tool = PartyInitiative(roster)
    tool.lines["Ada"][2].value = 1  # a supernatural +1
    roster.set_roster(roster.roster.add("Cy", quick=4, awareness=1, armour="Ironbrand Suit")
                      .rename("Ada", "Adeline"), rename=("Ada", "Adeline"))
    assert [n for n, _ in tool.people] == ["Adeline", "Cy"]
    assert tool.people[0][1]["supernatural"] == 1  # kept through the rename
    cy = vl.plan_initiative(4, 1, armour="Ironbrand Suit")
    assert f"<b>Cy</b> ({cy.dice_to_roll}d8)" in tool.odds.value and cy.dice_to_roll == 4
    roster.set_roster(Roster(vl.ROSTER))
    assert is_shown(tool.hint) and not is_shown(tool.party) and tool.people == []
    tool.entry.roll(3)
    assert EMPTY_HINT in tool.entry.error.value


def test_seeded_roll_replays_and_matches_the_engine():
    tool = PartyInitiative(party(("Ada", 3, 2), ("Bandit", 2, 1)))
    tool.entry.roll(41)
    first = tool.result.value
    rng = random.Random(41)
    ada = [rng.randint(1, 8) for _ in range(5)]
    bandit = [rng.randint(1, 8) for _ in range(3)]
    a, b = vl.initiative(ada, 3, 2), vl.initiative(bandit, 2, 1)
    assert f"<td>Ada</td><td>{' '.join(map(str, ada))}</td><td>{a.margin:+d}</td>" in first
    assert f"<b>Tick {b.tick}</b></td><td>{b.state}</td>" in first
    assert "(seed 41" in first
    tool.entry.seed.value = "41"
    tool.entry.replay_button.click()
    assert tool.result.value == first
    assert "Ada: Pool: QUICK 3 + Awareness 2 = 5" in tool.explanation.value


def test_typed_groups_of_dice():
    tool = PartyInitiative(party(("Ada", 3, 2), ("Bo", 2, 1)))
    tool.lines["Bo"][1].value = "off_guard"
    tool.entry.my_dice.value = "2 3 5 6 7 | 8 8 1"
    tool.entry.use_dice_button.click()
    # Ada 7 + 6 = 13: margin +2, tick 4 Slow. Bo 8 + 8 − 2 = 14: margin +3, tick 4 Slow.
    assert "<td>Ada</td><td>2 3 5 6 7</td><td>+2</td>" in tool.result.value
    assert "<td>Bo</td><td>8 8 1</td><td>+3</td>" in tool.result.value
    assert tool.result.value.index("Bo") < tool.result.value.index("Ada")  # larger margin first
    assert "(your dice" in tool.result.value


def test_initiative_errors_in_place():
    tool = PartyInitiative(party(("Ada", 3, 2)))
    tool.entry.my_dice.value = "1 2 3"
    tool.entry.use_dice_button.click()
    assert "Ada rolls 5d8, got 3 dice" in tool.entry.error.value
    tool.entry.my_dice.value = "1 2 3 4 5 | 1 2"
    tool.entry.use_dice_button.click()
    assert "My dice must be 1 list separated by |, one per fighter, got 2" in \
        tool.entry.error.value
    tool.entry.my_dice.value = "1 2 3 4 9"
    tool.entry.use_dice_button.click()
    assert "9" in tool.entry.error.value


def test_attack_calculator_odds_follow_the_inputs():
    tool = AttackCalculator()
    plan = vl.plan_attack(attribute=3, skill=2, defense=10, weapon="Peacemaker",
                          action="Steady Shot", band="Near", cover="No Cover")
    assert f"Roll <b>{plan.dice_to_roll}d8</b>" in tool.setup.value
    assert f"<b>TN {plan.tn}</b>" in tool.setup.value
    assert f"Hit: <b>{percent(plan.odds().p_hit)}</b> ({plan.odds().p_hit})" in tool.odds.value
    tool.cover.value = "Hard Cover"
    tool.armour.value = "Boiler Plate"
    tool.band.value = "Far"
    armour = vl.armour("Boiler Plate")
    harder = vl.plan_attack(attribute=3, skill=2, defense=10, weapon="Peacemaker",
                            action="Steady Shot", band="Far", cover="Hard Cover",
                            ar=armour.ar, hardened=armour.hardened)
    assert f"<b>TN {harder.tn}</b>" in tool.setup.value
    assert f"Grievous Wound: {percent(harder.odds().p_grievous)}" in tool.odds.value
    tool.action.value = "Quick Shot"
    assert "Exposed afterwards" in tool.setup.value


def test_attack_roll_seed_and_typed_dice():
    tool = AttackCalculator()
    tool.attribute.value, tool.skill.value, tool.defense.value = 3, 3, 9
    tool.band.value, tool.cover.value = "Far", "Hard Cover"
    tool.entry.my_dice.value = "2, 3, 5, 6, 7, 8"
    tool.entry.use_dice_button.click()
    # 7 + 8 = 15 against TN 15: margin 0, a hit with no Step, WR 3 damage.
    assert "Hit: dice 2, 3, 5, 6, 7, 8 → 15 against TN 15, margin +0, 0 Steps, 3 damage" \
        in tool.result.value
    tool.entry.roll(12)
    first = tool.result.value
    tool.entry.replay_button.click()
    assert tool.result.value == first and "(seed 12)" in first
    tool.entry.my_dice.value = "1, 2"
    tool.entry.use_dice_button.click()
    assert tool.entry.error.message == "“My dice” must be 6 d8 (a pool of 6), got 2 numbers"


def test_near_miss_suppresses_and_melee_risk():
    tool = AttackCalculator()
    tool.defense.value = 14
    tool.melee.value = True
    plan = tool.plan
    tool.entry.my_dice.value = ", ".join(["6", "6"] + ["1"] * (plan.dice_to_roll - 2))
    tool.entry.use_dice_button.click()
    result = tool.result.value
    assert "Near miss — the target is Suppressed" in result
    assert "may strike an ally" in result


def test_downed_walker_bleeds_turn_by_turn_to_the_threshold():
    tool = DownedWalker(iron=1, vitality=0)
    assert "<b>Downed</b> at Vitality 0 of 9" in tool.status.value and "dead at -3" in tool.status.value
    assert "survive <b>3</b> more" in tool.status.value
    p = vl.stabilization_probability(3, 0)
    assert f"One attempt with 3d8 against TN 11 succeeds <b>{percent(p)}</b> ({p})" \
        in tool.odds.value
    for expected in (-1, -2):
        tool.bleed_button.click()
        assert tool.vitality.value == expected
    assert "TN 13" in tool.odds.value
    tool.bleed_button.click()
    assert "<b>Dead</b>" in tool.status.value
    assert "no stabilisation" in tool.odds.value and "%" not in tool.odds.value
    tool.bleed_button.click()
    assert "this one is Dead" in tool.error.value


def test_downed_walker_wound_and_stabilisation():
    tool = DownedWalker(iron=1, vitality=-1)
    tool.wound_roll.value = 3
    tool.wound_button.click()
    assert "Grievous Wound: Broken Bone" in tool.result.value
    assert "Affected limb is unusable" in tool.explanation.value
    tool.kit.value = True
    tool.entry.my_dice.value = "3, 5, 8"
    tool.entry.use_dice_button.click()
    assert "Stabilised: the bleeding stops (dice 3, 5, 8, TN 12, margin +3; your dice)" \
        in tool.result.value
    assert "Stabilised: the bleeding has stopped" in tool.status.value
    tool.entry.use_dice_button.click()
    assert tool.entry.error.message.startswith("Stabilised already")
    tool.stable.value = False
    tool.entry.my_dice.value = "1, 1, 2"
    tool.entry.use_dice_button.click()
    assert "Still bleeding" in tool.result.value
    tool.entry.roll(5)
    first = tool.result.value
    tool.stable.value = False
    tool.entry.replay_button.click()
    assert tool.result.value == first and "; seed 5)" in first
    tool.stable.value = False
    tool.entry.my_dice.value = "1"
    tool.entry.use_dice_button.click()
    assert tool.entry.error.message == "“My dice” must be 3 d8, got 1 number"
    tool.vitality.value = 99
    assert tool.error.message == ("“Vitality now” must be 9 or less (full Vitality for iron 1), "
                                  "got 99")
    tool.vitality.value = -1
    assert tool.error.message == ""


def test_horde_calculator():
    from widgets.veil_and_lead_table import HordeCalculator
    tool = HordeCalculator(base_pool=4, size=6)
    p = vl.hit_probability(10, 11)
    assert f"= <b>10d8</b>, tempo 5; against TN 11 it hits {chance_html(p, strong=True)}" \
        in tool.volley.value
    assert "show exact" in tool.volley.value  # 1061152809/1073741824 is too long to lead
    tool.kind.value = "melee"
    assert "tempo 6" in tool.volley.value
    tool.margin.value, tool.wr.value = 3, 4  # the chapter's Repeater hit with one Step
    assert "<b>3 casualties</b>: size 6 → 3" in tool.result.value
    tool.mass.value = True
    assert "<b>6 casualties</b>: size 6 → 0 — the Horde <b>breaks</b>" in tool.result.value
    tool.size.value = 2
    assert tool.error.message == "“Horde size” must be from 3 to 10, got 2"


def test_a_hatchet_near_miss_is_shown_without_suppression():
    """§XI Suppressed: only gunfire suppresses. A Hatchet Strike, 5d8 against TN 11, misses by
    1–2 in 211/2048 of rolls; the calculator shows those as near misses and 0% Suppressed."""
    from fractions import Fraction
    tool = AttackCalculator()
    tool.skill.value, tool.defense.value = 2, 11
    tool.weapon.value, tool.band.value = "Hatchet", "Point-Blank"
    tool.action.value = "Strike"
    assert not tool.error.value
    assert f"near miss: {percent(Fraction(211, 2048))}" in tool.odds.value
    assert "target Suppressed (a near miss from gunfire): 0" in tool.odds.value
    tool.entry.my_dice.value = "5, 4, 3, 2, 1"          # 9 against TN 11: missed by 2
    tool.entry.use_dice_button.click()
    assert "Near miss: dice" in tool.result.value and "Suppressed" not in tool.result.value


def test_off_hand_and_hurt_arm_checkboxes_reach_the_engine():
    """§XIII Two-Weapon Fighting: the off hand rolls 2 dice fewer; §III Called Shot: an arm
    hit costs 2 dice on attacks with it. QUICK 3 + skill 2 = 5 dice → 3 → 1."""
    tool = AttackCalculator()
    assert "Roll <b>5d8</b>" in tool.setup.value
    tool.off_hand.value = True
    assert "Roll <b>3d8</b>" in tool.setup.value
    tool.mine.value = ("Arm Hit",)
    assert "Roll <b>1d8</b>" in tool.setup.value
    assert "Rush / Charge" in tool.action.options


def test_downed_walker_shows_a_fumble():
    """§X Stabilization: healer dice 1, 1, 1 on a patient at −1 (TN 12) fumble: one more
    Vitality lost, −1 → −2."""
    tool = DownedWalker(iron=1, vitality=-1)
    tool.entry.my_dice.value = "1, 1, 1"
    tool.entry.use_dice_button.click()
    assert "Fumble: every die shows 1, the patient loses 1 more Vitality, now -2" \
        in tool.result.value
    assert tool.vitality.value == -2 and "TN 13" in tool.odds.value


def _caleb(tool: AttackCalculator) -> None:
    """§VI The Complete Attack Example, entered field by field: QUICK 3 + Ballistics 3 against
    Defense 9 in Hard Cover at Far range, two Aim actions, a masterwork pistol (+2) and the
    Critical bonus of 1."""
    tool.attribute.value, tool.skill.value, tool.defense.value = 3, 3, 9
    tool.band.value, tool.cover.value = "Far", "Hard Cover"
    tool.aim.value, tool.roll_bonus.value, tool.critical.value = 2, 2, 1


def test_calebs_shot_in_the_calculator_deals_the_printed_5():
    """§VI: TN 9 + 4 + 2 = 15; [2, 3, 5, 6, 7, 8] keeps 7 + 8 = 15, + 3 (Aim) + 2 = 20; margin
    5 → 1 Step; WR 3 + 1 Step + 1 Critical = 5 damage, a Grievous Wound (§IX: 5 or more)."""
    tool = AttackCalculator()
    _caleb(tool)
    assert "Roll <b>6d8</b>, keep the two highest, +5, against <b>TN 15</b>" in tool.setup.value
    tool.entry.my_dice.value = "2, 3, 5, 6, 7, 8"
    tool.entry.use_dice_button.click()
    assert ("Hit: dice 2, 3, 5, 6, 7, 8 → 20 against TN 15, margin +5, 2 Steps, 5 damage — "
            "<b>Grievous Wound</b>") in tool.result.value


def test_a_called_shot_asks_for_its_location_and_never_fails_on_none():
    """§III Called Shot: −2 dice, Tempo base + 2 (Peacemaker 4 + 2 = 6), and on a hit the
    location's effect (Head: Stunned)."""
    tool = AttackCalculator()
    tool.action.value = "Called Shot"
    assert tool.error.message == "" and "Roll <b>3d8</b>" in tool.setup.value
    assert "Tempo 6" in tool.setup.value and tool.location.layout.display != "none"
    tool.location.value = "Leg"
    tool.entry.my_dice.value = "8, 8, 1"          # 16 against TN 10: a hit
    tool.entry.use_dice_button.click()
    assert "Called Shot to the Leg" in tool.explanation.value
    tool.action.value = "Steady Shot"
    assert tool.location.layout.display == "none" and tool.error.message == ""


def test_pool_penalties_and_target_conditions_reach_the_engine():
    """QUICK 3 + skill 3 = 6 dice: Wounded −1 (§VIII) and Suppressed −2 (§XI) leave 3. The
    target Surprised is flat-footed, TN −2 (§II): Defense 10 → 8; Prone against a shot is
    TN +2 (§XI Prone): 10 → 12."""
    tool = AttackCalculator()
    tool.skill.value = 3
    tool.mine.value = ("Wounded", "Suppressed")
    assert "Roll <b>3d8</b>" in tool.setup.value
    tool.mine.value = ()
    tool.theirs.value = ("Surprised",)
    assert "<b>TN 8</b>" in tool.setup.value
    tool.theirs.value = ("Prone",)
    assert "<b>TN 12</b>" in tool.setup.value


def test_a_prone_attacker_in_melee_and_a_braced_prone_shooter():
    """§XI Prone: your melee attacks −2 dice (5 → 3 with a Saber); your braced shots +1 to the
    roll."""
    tool = AttackCalculator()
    tool.mine.value = ("Prone",)
    assert "Roll <b>5d8</b>, keep the two highest, against" in tool.setup.value
    tool.braced.value = True
    assert "Roll <b>5d8</b>, keep the two highest, +1, against" in tool.setup.value
    tool.weapon.value, tool.band.value = "Saber", "Point-Blank"
    tool.action.value = "Strike"
    assert "Roll <b>3d8</b>" in tool.setup.value


def test_a_stationary_target_at_point_blank_cannot_be_missed():
    """§V Range Bands: Point-Blank, "impossible to miss a stationary target" (assumption
    point_blank_stationary: a hit at margin 0, so the Peacemaker's WR 3)."""
    tool = AttackCalculator()
    tool.band.value, tool.stationary.value = "Point-Blank", True
    tool.entry.my_dice.value = "1, 1, 1, 1, 1"
    tool.entry.use_dice_button.click()
    assert "Hit: dice 1, 1, 1, 1, 1" in tool.result.value and "3 damage" in tool.result.value


def test_hardened_armour_negates_only_the_first_grievous_wound_of_the_scene():
    """§IX Grievous Wound Notes: Boiler Plate (AR 1) negates the first Grievous Wound of the
    scene. Caleb's shot with a Critical bonus of 2: WR 3 + 1 + 2 − AR 1 = 5, Grievous."""
    tool = AttackCalculator()
    _caleb(tool)
    tool.critical.value, tool.armour.value = 2, "Boiler Plate"
    assert tool.spent.layout.display != "none"
    tool.entry.my_dice.value = "2, 3, 5, 6, 7, 8"
    tool.entry.use_dice_button.click()
    assert "5 damage — Hardened armour negates the Grievous Wound" in tool.result.value
    assert "Grievous Wound: 0.00%" in tool.odds.value       # the negation is still there
    tool.spent.value = True
    assert "Grievous Wound: 0.00%" not in tool.odds.value
    tool.entry.use_dice_button.click()
    assert "5 damage — <b>Grievous Wound</b>" in tool.result.value


def test_both_faces_and_a_dice_source_are_refused_naming_both():
    from rulescore.dice import DiceSource
    from rulescore.errors import RulesError
    import pytest
    with pytest.raises(RulesError, match="give faces .* or dice .*, not both"):
        vl.attack([1, 2, 3, 4, 5], attribute=3, skill=2, defense=10,
                  dice=DiceSource.seeded(1))


def test_a_healthy_character_is_not_bleeding_and_the_d8_can_be_rolled():
    """§X: Bleeding Out starts at 0 Vitality; §IX: an Arterial Hit (d8 8) starts it at once.
    Seed 5 rolls a d8 of 5 (random.Random(5).randint(1, 8)): Internal Bleeding."""
    tool = DownedWalker(iron=3, vitality=11)
    assert "Not bleeding out" in tool.status.value and "Bleeding out:" not in tool.status.value
    assert "nothing to stabilise" in tool.odds.value
    tool.bleed_button.click()
    assert "this one is Healthy" in tool.error.message
    tool.roll_wound(5)
    assert random.Random(5).randint(1, 8) == tool.wound_roll.value == 5
    assert "Grievous Wound: Internal Bleeding (d8 5, seed 5)" in tool.result.value
    tool.wound_roll.value = 8
    tool.wound_button.click()
    assert "Arterial Hit" in tool.result.value and tool.arterial.value
    assert "Bleeding out: they survive <b>16</b>" in tool.status.value   # 11 down to −5
    assert "against TN 11" in tool.odds.value


def test_coup_de_grace_takes_the_maximum():
    """§XIII Coup de Grâce: the highest sum 16 against TN 9 is margin 7, 2 Steps; a Peacemaker
    deals WR 3 + 2 = 5, a Grievous Wound; through Boiler Plate (AR 1) 4, not Grievous."""
    tool = CoupDeGrace(weapon="Peacemaker", tn=9)
    assert "<b>5 damage</b>, 2 Steps — <b>Grievous Wound</b>" in tool.result.value
    tool.armour.value = "Boiler Plate"
    assert "<b>4 damage</b>, 2 Steps." in tool.result.value


def test_first_aid_the_chapters_example():
    """§XIV In-Combat Healing: Medicine TN 11; 3d8 reach it 75/128 of the time (the same
    check as stabilising at 0, §X). IRON 3 at 2 Vitality, dice 6, 5, 2: 6 + 5 = 11, treated,
    back to 3. Once a scene."""
    from widgets.veil_and_lead_table import FirstAid
    tool = FirstAid(iron=3, vitality=2, pool=3)
    assert "succeeds <b>58.59%</b> (75/128)" in tool.odds.value
    tool.entry.my_dice.value = "6, 5, 2"
    tool.entry.use_dice_button.click()
    assert "Treated: the bleeding stops, Vitality 3 (your dice)" in tool.result.value
    tool.treated.value = True
    tool.entry.use_dice_button.click()
    assert "once a scene" in tool.entry.error.message
    tool.treated.value = False
    assert tool.entry.error.message == ""
