"""A percentile fight run from the roster: the seed's worked examples walked from the rows of
two fighters into the struck one's record and Shock state (rulescore.systems.percentile.fight)."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction

import pytest

from rulescore import RulesError
from rulescore.dice import DiceSource
from rulescore.roster import Roster
from rulescore.systems import percentile as pc
from rulescore.systems.percentile.fight import fight_format


def roster() -> Roster:
    """Nolora the archer and a brigand in a quilt coat (AV4 on the torso against edge and
    point), with the Shock ML65 of the seed's Shock example."""
    return (Roster(pc.ROSTER)
            .add("Nolora", archery=75, initiative=76, missile="bow", base_range=40,
                 missile_die="d12", missile_mod=4, missile_aspect="P")
            .add("Brigand", initiative=60, melee=60, shock=65, defence="Counterstrike",
                 av_torso_e=4, av_torso_p=4)
            .add("Swordsman", initiative=60, melee=60, weapon="broadsword", impact_die="d10",
                 impact_mod=3, aspect="E", zone_die="d6", str_impact=1))


def test_the_turn_order_is_by_initiative_and_passes_over_the_dead():
    fight = pc.fight_for(roster())
    assert fight.order == ("Nolora", "Brigand", "Swordsman")
    assert fight.actor.name == "Nolora"
    fight = pc.next_turn(pc.next_turn(fight))
    assert (fight.actor.name, fight.round) == ("Swordsman", 1)
    dead = fight.with_combatant(fight.combatant("Nolora").__class__("Nolora",
                                fight.combatant("Nolora").record, "KIA"))
    after = pc.next_turn(dead)
    assert (after.actor.name, after.round) == ("Brigand", 2)


def test_nolora_s_point_blank_critical_goes_into_the_brigand_s_record():
    """Direct Missile example: ML75 at point blank is EML85; 45 is a CS: a free Precision TA
    (still target) and one TA of choice, taken as Precision: three d6 Zone Dice. Dice 4, 4, 6
    are ZN4, ZN4, ZN6, all Torso: three Location Dice, the first (6) the abdomen. Impact d12
    7 + 4 + 2 (point blank) = 13P, less AV4 = 9: S2. Shock: 75 against ML65 is a CF (+2):
    SHK 4 + 2 + 2 = 8, Incapacitated (the seed's Shock example)."""
    rows = roster()
    fight = pc.fight_for(rows)
    strike = pc.missile_attack(fight, rows.fighter("Nolora"), rows.fighter("Brigand"),
                               range_ft=20, advantage="precision",
                               dice=DiceSource.typed([45, 4, 4, 6, 6, 1, 9, 7, 75]))
    assert strike.shot.eml.test_eml == 85 and strike.shot.attack.level == "CS"
    assert [v for n, v in strike.rolled if n.startswith("Zone Die")] == [4, 4, 6]
    assert strike.walk.impact.value == 9
    assert strike.outcome == "Brigand: Abdomen: S2P injury; shock 8 → INC"
    after = pc.apply_strike(fight, rows.fighter("Brigand"), strike)
    brigand = after.combatant("Brigand")
    assert [i.code for i in brigand.record.injuries] == ["S2P"]
    assert brigand.record.injuries[0].aspect == "Projectile"
    assert (brigand.shock, brigand.status) == ("INC", "Incapacitated")
    with pytest.raises(RulesError, match="has changed since this strike was rolled"):
        pc.apply_strike(after, rows.fighter("Brigand"), strike)
    # Shock Reroll at the end of the next turn: ML65 - 20 = 45, 42 is S: Stunned; then the
    # Shock test 61 against 65 succeeds and the stun is gone (the seed's Shock example).
    stunned = pc.shock_check(after, rows.fighter("Brigand"), dice=DiceSource.typed([42]))
    assert stunned.fight.combatant("Brigand").shock == "STN"
    clear = pc.shock_check(stunned.fight, rows.fighter("Brigand"), dice=DiceSource.typed([61]))
    assert clear.fight.combatant("Brigand").shock is None
    assert clear.outcome == "Brigand: fighting"


def test_the_seed_s_sword_blow_walked_from_the_rows():
    """Melee and Injury examples: aiming at ZN4 costs 10 (EML50); 36 is S against the
    Counterstrike's 51 (S): a tie the attacker wins, one star. d6 2 from ZN4 is ZN5 (Torso),
    Location Die 7 the abdomen; d10 8 + 3 + STR 1 = 12E, less the quilt coat's AV4 = 8E: S2E.
    Shock 75 against ML65: CF, SHK 8, INC."""
    rows = roster()
    fight = pc.fight_for(rows)
    strike = pc.melee_attack(fight, rows.fighter("Swordsman"), rows.fighter("Brigand"),
                             aim_zone=4, dice=DiceSource.typed([36, 51, 2, 7, 8, 75]))
    assert strike.declaration.attack_eml == 50
    assert (strike.exchange.winner, strike.exchange.stars) == ("attacker", 1)
    assert strike.walk.impact.value == 8
    assert strike.struck == "Brigand"
    assert strike.outcome == "Brigand: Abdomen: S2E injury; shock 8 → INC"
    after = pc.apply_strike(fight, rows.fighter("Brigand"), strike)
    assert [i.code for i in after.combatant("Brigand").record.injuries] == ["S2E"]
    # An incapacitated defender is unaware: the next attack is unopposed (one d100 only).
    again = pc.melee_attack(after, rows.fighter("Swordsman"), rows.fighter("Brigand"),
                            dice=DiceSource.typed([95]))
    assert again.exchange.defence == "Ignore" and again.struck is None
    with pytest.raises(RulesError, match="the attacker Brigand is Incapacitated and cannot act"):
        pc.melee_attack(after, rows.fighter("Brigand"), rows.fighter("Swordsman"),
                        dice=DiceSource.seeded(2))


def test_a_blocked_blow_strikes_nobody_and_cannot_be_applied():
    rows = roster().set("Brigand", "defence", "Block")
    fight = pc.fight_for(rows)
    strike = pc.melee_attack(fight, rows.fighter("Swordsman"), rows.fighter("Brigand"),
                             dice=DiceSource.typed([71, 35]))
    assert strike.exchange.outcome == "blocked" and strike.struck is None
    with pytest.raises(RulesError, match="nobody is struck"):
        pc.apply_strike(fight, rows.fighter("Brigand"), strike)


def test_a_day_of_healing_moves_the_record_on_one_day():
    rows = roster()
    fight = pc.fight_for(rows)
    step = pc.heal_day(fight, rows.fighter("Brigand"), dice=DiceSource.typed([]))
    assert step.fight.combatant("Brigand").record.day == 1
    assert step.outcome == "Brigand: recovered"


def test_a_fight_file_round_trips_and_a_corrupt_one_names_the_field():
    rows = roster()
    fight = pc.fight_for(rows)
    strike = pc.missile_attack(fight, rows.fighter("Nolora"), rows.fighter("Brigand"),
                               range_ft=20, dice=DiceSource.typed([45, 4, 4, 6, 6, 1, 9, 7, 75]))
    after = pc.apply_strike(fight, rows.fighter("Brigand"), strike)
    assert pc.Fight.from_json(after.to_json()) == after
    data = json.loads(after.to_json())
    data["fight"]["combatants"][1]["shock"] = "DAZED"
    with pytest.raises(RulesError, match=r"fight: combatants\[2\]\.shock must be one of"):
        pc.Fight.from_json(json.dumps(data))
    data["fight"]["combatants"][1]["shock"] = None
    data["fight"]["combatants"][1]["name"] = "Nolora"
    with pytest.raises(RulesError, match="used twice"):
        pc.Fight.from_json(json.dumps(data))
    assert fight_format().noun == "fight"


def test_bad_inputs_name_what_is_wrong():
    rows = roster()
    fight = pc.fight_for(rows)
    with pytest.raises(RulesError, match="range_ft must be at most 160"):
        pc.missile_attack(fight, rows.fighter("Nolora"), rows.fighter("Brigand"),
                          range_ft=500, dice=DiceSource.seeded(1))
    with pytest.raises(RulesError, match="the target must be another fighter"):
        pc.missile_attack(fight, rows.fighter("Nolora"), rows.fighter("Nolora"),
                          range_ft=20, dice=DiceSource.seeded(1))
    with pytest.raises(RulesError, match="shooter must be a fighter"):
        pc.missile_attack(fight, "Nolora", rows.fighter("Brigand"), range_ft=20,
                          dice=DiceSource.seeded(1))
    with pytest.raises(RulesError, match="is in no Shock state"):
        pc.shock_check(fight, rows.fighter("Brigand"), dice=DiceSource.seeded(1))


def _fallen(rows: Roster) -> pc.Fight:
    """The Bleeding example's character: a G4E shoulder bleeder, Incapacitated, in Extended
    Shock HR5 after a failed Shock Reroll (Healing 1-2)."""
    fight = pc.fight_for(rows)
    hurt = fight.combatant("Brigand")
    record = hurt.record.add_injury("Shoulder", "Edge", 4, bleeder=True)
    return fight.with_combatant(pc.Combatant("Brigand", record, "INC", 5))


def test_five_minutes_of_bleeding_go_to_the_bleeder_picked():
    """Two bleeders: the thigh first on the record, then the Bleeding example's G4E shoulder.
    Picked, the shoulder takes the period (62, F: 2 BP) and its BP; the thigh none. An
    injury that is not bleeding is refused before any die is read."""
    rows = roster()
    fight = _fallen(rows)
    hurt = fight.combatant("Brigand")
    record = pc.InjuryRecord("Brigand").add_injury("Thigh", "Edge", 2, bleeder=True) \
        .add_injury("Shoulder", "Edge", 4, bleeder=True).add_injury("Forearm", "Blunt", 1)
    fight = fight.with_combatant(replace(hurt, record=record))
    brigand = rows.fighter("Brigand")
    done = pc.bleed(fight, brigand, injury=1, dice=DiceSource.typed([62]))
    after = done.fight.combatant("Brigand").record
    assert [(i.code, i.blood_lost) for i in after.injuries] == [("S2E", 0), ("G4E", 2),
                                                                ("M1B", 0)]
    assert done.outcome == "Brigand: G4E shoulder bleeding, 2 BP (Unconscious, Extended " \
        "Shock HR5)"
    first = pc.bleed(fight, brigand, dice=DiceSource.typed([62]))  # None: the first bleeder
    assert [i.blood_lost for i in first.fight.combatant("Brigand").record.injuries] == \
        [2, 0, 0]
    with pytest.raises(RulesError, match=r"injury 3 of Brigand \(M1B forearm\) is not "
                                         "bleeding: pick a Bleeder"):
        pc.bleed(fight, brigand, injury=2, dice=DiceSource.typed([]))
    with pytest.raises(RulesError, match="injury must be a whole number, got True"):
        pc.bleed(fight, brigand, injury=True, dice=DiceSource.typed([62]))
    with pytest.raises(RulesError, match="injury must be from 0 to 2, got 3"):
        pc.bleed(fight, brigand, injury=3, dice=DiceSource.typed([62]))


def test_the_seed_s_bleeding_and_extended_shock_examples_on_the_fighter():
    """Bleeding example: Strength ML60, a Failure (62): 2 BP, INC while INC is UNC. The ally's
    Staunch, Physician ML40, 32 (S): stopped after one more Blood Loss Roll, a Success (58):
    one BP more, 3 in all. Extended Shock example: HB13 × HR5 less 15 anaemia plus the ally's
    5 is EML55; 93 (F): HR4 (EML42); 41 (S): HR5; 13 (S): HR6, conscious again."""
    rows = roster()
    fight = _fallen(rows)
    first = pc.bleed(fight, rows.fighter("Brigand"), dice=DiceSource.typed([62]))
    brigand = first.fight.combatant("Brigand")
    assert (brigand.record.blood_loss, brigand.shock) == (2, "UNC")
    assert first.outcome == "Brigand: G4E shoulder bleeding, 2 BP (Unconscious, Extended Shock HR5)"
    second = pc.bleed(first.fight, rows.fighter("Brigand"), physician_eml=40,
                      dice=DiceSource.typed([32, 58]))
    brigand = second.fight.combatant("Brigand")
    assert brigand.record.blood_loss == 3
    assert not brigand.record.injuries[0].bleeder
    with pytest.raises(RulesError, match="has no bleeding injury"):
        pc.bleed(second.fight, rows.fighter("Brigand"), dice=DiceSource.seeded(1))
    step = second
    for roll, hr in ((93, 4), (41, 5)):
        step = pc.shock_check(step.fight, rows.fighter("Brigand"), healer_bonus=5,
                              dice=DiceSource.typed([roll]))
        assert step.fight.combatant("Brigand").extended_hr == hr
    assert "EML 42" in " ".join(s.text for s in step.trace)
    step = pc.shock_check(step.fight, rows.fighter("Brigand"), healer_bonus=5,
                          dice=DiceSource.typed([13]))
    brigand = step.fight.combatant("Brigand")
    assert (brigand.extended_hr, brigand.shock, brigand.status) == (None, None, "fighting")


def test_the_odds_before_the_roll_come_from_the_rows():
    """Nolora at point blank: EML 85; d100 rolls 1-85 succeed, of which the 17 multiples of 5
    are CS; 86-100 fail, of which 90, 95 and 100 are CF. The Counterstrike exchange at EML 60
    against 60: the attacker strikes on S or CS against a failure, and wins ties."""
    rows = roster()
    fight = pc.fight_for(rows)
    shot = pc.missile_odds(fight, rows.fighter("Nolora"), rows.fighter("Brigand"), range_ft=20)
    assert shot.value == 85
    assert shot.odds == {("strike", 2): Fraction(17, 100), ("strike", 1): Fraction(68, 100),
                         ("miss", 0): Fraction(12, 100), ("mishap", 0): Fraction(3, 100)}
    blow = pc.melee_odds(fight, rows.fighter("Swordsman"), rows.fighter("Brigand"))
    assert blow.value == 60 and sum(blow.odds.values()) == 1
    assert blow.odds == pc.melee_outcome_distribution(60, "Counterstrike", 60)


def test_the_seed_s_treatment_and_healing_examples_on_the_fighter():
    """Treatment example: an S2 edge abdomen injury with a failed (F) Treatment Roll has HR4
    and a chance of infection. Healing example: HB13 × HR4 = EML52; five days on, 62 fails;
    five more, 24 succeeds: the S2 becomes M1."""
    rows = roster()
    fight = pc.fight_for(rows)
    strike = pc.melee_attack(fight, rows.fighter("Swordsman"), rows.fighter("Brigand"),
                             aim_zone=4, dice=DiceSource.typed([36, 51, 2, 7, 8, 75]))
    fight = pc.apply_strike(fight, rows.fighter("Brigand"), strike)
    # Physician 40 + 10 (S edge) = 50; 62 is F: HR4.
    step = pc.treat(fight, rows.fighter("Brigand"), physician_eml=40,
                    dice=DiceSource.typed([62]))
    treated = step.fight.combatant("Brigand").record.injuries[0]
    assert (treated.hr, treated.infection_chance, treated.treatment) == (4, True, "F")
    with pytest.raises(RulesError, match="has no untreated injury"):
        pc.treat(step.fight, rows.fighter("Brigand"), dice=DiceSource.typed([]))
    fight = step.fight
    for _ in range(4):
        fight = pc.heal_day(fight, rows.fighter("Brigand"), dice=DiceSource.typed([])).fight
    fight = pc.heal_day(fight, rows.fighter("Brigand"), dice=DiceSource.typed([62])).fight
    assert fight.combatant("Brigand").record.injuries[0].code == "S2E"
    for _ in range(4):
        fight = pc.heal_day(fight, rows.fighter("Brigand"), dice=DiceSource.typed([])).fight
    day = pc.heal_day(fight, rows.fighter("Brigand"), dice=DiceSource.typed([24]))
    assert day.fight.combatant("Brigand").record.injuries[0].code == "M1E"
    assert day.fight.combatant("Brigand").record.day == 10
    untreated = pc.treat(pc.fight_for(rows).with_combatant(
        pc.Combatant("Brigand", pc.InjuryRecord(name="Brigand").add_injury("Thigh", "Edge", 4))),
        rows.fighter("Brigand"), dice=DiceSource.typed([]))
    assert untreated.fight.combatant("Brigand").record.injuries[0].treatment == "CF"


def test_a_grim_wound_rolls_its_shock_each_day():
    """An untreated G4 edge thigh is a grim wound: each day a Shock Roll with its location
    shock 3 and level 4. 75 against ML65 is a CF (+2): SHK 9, Unconscious."""
    rows = roster()
    record = pc.InjuryRecord(name="Brigand").add_injury("Thigh", "Edge", 4)
    fight = pc.fight_for(rows).with_combatant(pc.Combatant("Brigand", record))
    day = pc.heal_day(fight, rows.fighter("Brigand"), dice=DiceSource.typed([75]))
    assert day.fight.combatant("Brigand").shock == "UNC"
    assert day.outcome == "Brigand: Unconscious, day 1"
    assert "Grim wound (G4 Thigh): daily Shock Roll" in [s.text for s in day.trace]
    calm = pc.heal_day(fight, rows.fighter("Brigand"), dice=DiceSource.typed([40]))
    assert calm.fight.combatant("Brigand").shock is None  # 40 is a CS (-1): SHK 6, no effect


def test_a_volley_strikes_the_target_as_number_one_of_its_area():
    """At 100 ft, Volley 3 of Base Range 40 (-20): EML 55; 33 is S, a potential strike. The
    area holds the brigand (number 1) and one other: d20 1 strikes him, the d10 5 adds the
    arrow's Impact TA bonus (4P). A d10 Zone Die 5 (ZN5, Torso) and Location Die 6: the
    abdomen. d12 7 + 4 - 3 (range) + 4 = 12, less AV4 = 8: S2P; Shock 61 against 65, S:
    SHK 4 + 2 = 6, no effect. A Direct miss that strays hits someone off the roster: named,
    not walked."""
    rows = roster()
    fight = pc.fight_for(rows)
    strike = pc.missile_attack(fight, rows.fighter("Nolora"), rows.fighter("Brigand"),
                               range_ft=100, near_target=1,
                               dice=DiceSource.typed([33, 1, 5, 5, 6, 7, 61]))
    assert strike.shot.eml.test_eml == 55 and strike.shot.strike.impact_ta
    assert strike.walk.impact.value == 8
    assert strike.outcome == "Brigand: Abdomen: S2P injury; shock 6 → no effect"
    stray = pc.missile_attack(fight, rows.fighter("Nolora"), rows.fighter("Brigand"),
                              range_ft=30, near_target=2, dice=DiceSource.typed([77, 2, 3]))
    assert stray.struck is None and stray.outcome == (
        "F: target 2 is struck, located with a d10 Zone Die; number 2 is no roster fighter "
        "named near Brigand: walk that injury apart")


def test_a_renamed_fighter_keeps_their_record_shock_and_turn():
    rows = roster()
    fight = pc.next_turn(pc.fight_for(rows))  # the Brigand acts
    strike = pc.missile_attack(fight, rows.fighter("Nolora"), rows.fighter("Brigand"),
                               range_ft=20, advantage="precision",
                               dice=DiceSource.typed([45, 4, 4, 6, 6, 1, 9, 7, 75]))
    hurt = pc.apply_strike(fight, rows.fighter("Brigand"), strike)
    after = hurt.rename("Brigand", "Grell")
    grell = after.combatant("Grell")
    assert after.order == ("Nolora", "Grell", "Swordsman") and after.actor.name == "Grell"
    assert grell.shock == hurt.combatant("Brigand").shock == "INC"
    assert grell.record.name == "Grell"
    assert grell.record.injuries == hurt.combatant("Brigand").record.injuries
    # the roster renamed the same way finds the same fight, not a fresh unhurt fighter
    assert pc.fight_for(rows.rename("Brigand", "Grell"), after) == after
    assert pc.Fight.from_json(after.to_json()) == after
    assert hurt.rename("Nobody", "X") == hurt and hurt.rename("Brigand", "Brigand") == hurt
    with pytest.raises(RulesError, match="Name 'Nolora' is in the fight already"):
        hurt.rename("Brigand", "Nolora")
    with pytest.raises(RulesError, match="name must be a non-empty text"):
        hurt.rename("Brigand", " ")


def test_a_stray_strike_finds_the_roster_fighter_near_the_target_and_goes_into_their_record():
    """Direct Missile Results: at 30 ft (Direct, Base Range 40: EML 75, d8 Zone Die) 77 is an
    F; the EML is over 05, so the arrow may strike one of the two others within five feet.
    d20 1 is number 1, the swordsman, the one roster fighter named near; the d10 5 adds the
    arrow's Impact TA bonus (4P). Not aimed: a d10 Zone Die from ZN1, 5 is ZN5 (Torso), and
    Location Die 6 the abdomen. d12 7 + 4 + 4 = 15P against no armour: G4P, a bleeder. Shock
    61 against ML65 is an S: SHK 4 + 4 = 8, Incapacitated."""
    rows = roster()
    fight = pc.fight_for(rows)
    strike = pc.missile_attack(fight, rows.fighter("Nolora"), rows.fighter("Brigand"),
                               range_ft=30, near_target=2,
                               bystanders=(rows.fighter("Swordsman"),),
                               dice=DiceSource.typed([77, 1, 5, 5, 6, 7, 61]))
    assert strike.shot.attack.level == "F" and strike.shot.strike.target == 1
    assert (strike.defender, strike.struck) == ("Brigand", "Swordsman")
    assert strike.walk.impact.value == 15
    assert strike.outcome == "Swordsman: Abdomen: G4P injury; shock 8 → INC"
    after = pc.apply_strike(fight, rows.fighter("Swordsman"), strike)
    hit = after.combatant("Swordsman")
    assert [(i.code, i.bleeder) for i in hit.record.injuries] == [("G4P", True)]
    assert hit.shock == "INC" and after.combatant("Brigand").record.injuries == ()
    with pytest.raises(RulesError, match="this strike hit Swordsman, not Brigand"):
        pc.apply_strike(fight, rows.fighter("Brigand"), strike)


def test_a_volley_s_potential_strike_finds_a_bystander_numbered_after_the_target():
    """Volley 3 at 100 ft (EML 55): 33 is S, a potential strike in an area of the brigand
    (number 1) and the swordsman (number 2): d20 2 strikes the swordsman. d10 3: no bonus.
    Zone Die d10 5 and Location Die 6: the abdomen; d12 7 + 4 - 3 = 8P, unarmoured: S2P."""
    rows = roster()
    fight = pc.fight_for(rows)
    strike = pc.missile_attack(fight, rows.fighter("Nolora"), rows.fighter("Brigand"),
                               range_ft=100, near_target=1,
                               bystanders=(rows.fighter("Swordsman"),),
                               dice=DiceSource.typed([33, 2, 3, 5, 6, 7, 61]))
    assert strike.struck == "Swordsman" and strike.walk.impact.value == 8
    assert strike.outcome.startswith("Swordsman: Abdomen: S2P injury")


def test_the_fighters_named_near_the_target_are_checked():
    rows = roster()
    fight = pc.fight_for(rows)
    shoot = lambda **kw: pc.missile_attack(  # noqa: E731
        fight, rows.fighter("Nolora"), rows.fighter("Brigand"), range_ft=30,
        dice=DiceSource.typed([77, 1, 5]), **kw)
    with pytest.raises(RulesError, match="bystanders names 1 fighters but near_target counts 0"):
        shoot(bystanders=(rows.fighter("Swordsman"),))
    with pytest.raises(RulesError, match="Brigand is the shooter or the target"):
        shoot(near_target=2, bystanders=(rows.fighter("Brigand"),))
    with pytest.raises(RulesError, match="Swordsman is named twice"):
        shoot(near_target=2, bystanders=(rows.fighter("Swordsman"),) * 2)


def slinger() -> Roster:
    """Nolora with a sling instead of her bow (a blunt stone, d6+2), and the brigand's quilt
    coat of the seed's impact example: AV4 on the torso against edge and point, none against
    blunt."""
    return (Roster(pc.ROSTER)
            .add("Nolora", slings=75, initiative=76, missile="sling", base_range=40,
                 missile_die="d6", missile_mod=2, missile_aspect="B")
            .add("Brigand", initiative=60, shock=65, av_torso_e=4, av_torso_p=4))


def test_a_missile_strikes_with_its_own_aspect():
    """The Direct Missile example's dice from a sling: ML75 at point blank is EML85, 45 a CS,
    the TA of choice taken as Impact and the still target's free Precision TA: Zone Dice 4 and
    6 (ZN4, ZN6, both Torso), Location Dice 6 and 1, the first the abdomen. The stone is blunt (B): its Impact TA adds 3 (3B, 5E, 4P, 2F), the quilt coat gives no AV
    against it: d6 5 + 2 + 2 (point blank) + 3 = 12B: S3B; not a projectile. A bow's arrow
    (Point) with the same dice would add 4 and meet AV4."""
    rows = slinger()
    fight = pc.fight_for(rows)
    shot = pc.missile_shot(75, 20, 40, weapon="sling", dice=DiceSource.typed([45]))
    assert pc.strike_from_missile(shot).as_keywords()["aspect"] == "P"
    blunt = pc.strike_from_missile(shot, "B")
    assert (blunt.aspect, blunt.projectile, blunt.zone_die, blunt.range_modifier,
            blunt.precision, blunt.free_tas) == ("B", False, 6, 2, 1, 1)
    assert pc.strike_from_missile(shot, "P").projectile is True
    with pytest.raises(RulesError, match="projectile must be false for a B strike"):
        pc.strike_from_missile(shot, "B", projectile=True)
    with pytest.raises(RulesError, match="aspect must be one of B"):
        pc.strike_from_missile(shot, "X")
    strike = pc.missile_attack(fight, rows.fighter("Nolora"), rows.fighter("Brigand"),
                               range_ft=20, advantage="impact",
                               dice=DiceSource.typed([45, 4, 6, 6, 1, 5, 90]))
    assert strike.walk.impact.value == 12 and strike.walk.impact.aspect == "B"
    assert strike.outcome.startswith("Brigand: Abdomen: S3B injury")
    after = pc.apply_strike(fight, rows.fighter("Brigand"), strike)
    assert after.combatant("Brigand").record.injuries[0].aspect == "Blunt"


def test_an_unconscious_defender_is_helpless_a_cs_ignore_result_without_a_roll():
    """Injury 4, Unconscious: helpless, a CS Ignore result when attacked in melee: four stars
    (the Ignore table's CS, assumption ignore_stars), three TAs, here all Impact (+5E each).
    No d100 is read: the first die is the broadsword's d6 Zone Die, 4 (ZN4, Torso), then
    Location Die 6 (the abdomen) and the d10 8: 8 + 3 + STR 1 + 15 = 27E, less the quilt
    coat's AV4 = 23: G5E. An Incapacitated defender is only unaware: Ignore, the attack
    rolled (the Ignore example: 36 is S, three stars)."""
    exchange = pc.melee_exchange(None, 60, "Ignore", helpless=True,
                                 dice=DiceSource.typed([]))
    assert (exchange.attack_level, exchange.stars, exchange.tactical_advantages,
            exchange.striker) == ("CS", 4, 3, "attacker")
    with pytest.raises(RulesError, match="must be empty against a helpless defender"):
        pc.melee_exchange(36, 60, "Ignore", helpless=True)
    with pytest.raises(RulesError, match="defence must be Ignore for a helpless defender"):
        pc.melee_exchange(None, 60, "Block", helpless=True)
    rows = roster()
    fight = pc.fight_for(rows)
    brigand = fight.combatant("Brigand")
    out = fight.with_combatant(brigand.__class__("Brigand", brigand.record, "UNC"))
    assert out.combatant("Brigand").helpless and not fight.combatant("Brigand").helpless
    odds = pc.melee_odds(out, rows.fighter("Swordsman"), rows.fighter("Brigand"))
    assert odds.odds == {("strike", 4): Fraction(1)}
    strike = pc.melee_attack(out, rows.fighter("Swordsman"), rows.fighter("Brigand"),
                             advantage="impact", dice=DiceSource.typed([4, 6, 8, 50]))
    assert not any("d100" in name and "Shock" not in name for name, _ in strike.rolled)
    assert strike.exchange.stars == 4 and strike.walk.impact.value == 23
    assert strike.outcome.startswith("Brigand: Abdomen: G5E injury")
    dazed = fight.with_combatant(brigand.__class__("Brigand", brigand.record, "INC"))
    rolled = pc.melee_attack(dazed, rows.fighter("Swordsman"), rows.fighter("Brigand"),
                             dice=DiceSource.typed([36, 4, 6, 8, 50]))
    assert (rolled.exchange.defence, rolled.exchange.stars) == ("Ignore", 3)
    named = pc.melee_attack(fight, rows.fighter("Swordsman"), rows.fighter("Brigand"),
                            helpless=True, advantage="impact",
                            dice=DiceSource.typed([4, 6, 8, 50]))
    assert named.exchange.stars == 4 and named.walk.impact.value == 23


def test_setup_advantages_lift_each_side_in_a_melee_from_the_rows():
    """Melee Test Results, Setup: each Setup advantage lifts that side's test one success
    level; the fight's odds and its exchange are the melee rules' with the same Setups, and a
    defender who makes no roll takes none."""
    rows = roster()
    fight = pc.fight_for(rows)
    sword, brigand = rows.fighter("Swordsman"), rows.fighter("Brigand")
    lifted = pc.melee_odds(fight, sword, brigand, attack_setups=1, defence_setups=2)
    assert lifted.odds == pc.melee_outcome_distribution(60, "Counterstrike", 60,
                                                        attack_setups=1, defence_setups=2)
    assert lifted.odds != pc.melee_odds(fight, sword, brigand).odds
    strike = pc.melee_attack(fight, sword, brigand, attack_setups=2,
                             dice=DiceSource.typed([71, 35, 2, 7, 8, 75]))
    assert strike.exchange == pc.melee_exchange(71, 60, "Counterstrike", 35, 60,
                                                attack_setups=2)
    assert strike.exchange != pc.melee_exchange(71, 60, "Counterstrike", 35, 60)
    ignored = pc.melee_odds(fight, sword, brigand, defence="Ignore", defence_setups=1)
    assert ignored.odds == pc.melee_odds(fight, sword, brigand, defence="Ignore").odds
    assert ignored.trace[-1].text == ("Defender's Setup TA from the last round (1) does not "
                                      "apply: Brigand Ignores, so there is no Melee or Dodge "
                                      "test to lift")
    # an Incapacitated defender must Ignore (Injury 4): their Setups are left unused
    brigand_now = fight.combatant("Brigand")
    dazed = fight.with_combatant(brigand_now.__class__("Brigand", brigand_now.record, "INC"))
    forced = pc.melee_attack(dazed, sword, brigand, defence_setups=2,
                             dice=DiceSource.typed([36, 4, 6, 8, 50]))
    assert (forced.exchange.defence, forced.exchange.stars,
            forced.exchange.unused_setups) == ("Ignore", 3, 2)
    assert any("(2) do not apply: the defender Ignores" in s.text for s in forced.trace)
    with pytest.raises(RulesError, match="attack_setups must be a whole number, got True"):
        pc.melee_attack(fight, sword, brigand, attack_setups=True,
                        dice=DiceSource.typed([71, 35]))


def test_defence_untested_says_why_exactly_when_the_exchange_leaves_setups_unused():
    """A defender makes no test when they Ignore (declared, or on their row), are named
    helpless, or are Incapacitated (unaware) or Unconscious (helpless) (Injury 4); the reason
    comes back in a reader's words, and it is given exactly when the exchange itself leaves
    the defender's Setup advantage unused (assumption setup_without_test)."""
    rows = roster()
    sword, brigand = rows.fighter("Swordsman"), rows.fighter("Brigand")
    fight = pc.fight_for(rows)

    def state(shock):
        return fight.with_combatant(replace(fight.combatant("Brigand"), shock=shock))
    cases = [
        (None, None, False, None),
        (None, "Block", False, None),
        (None, "Ignore", False, "Brigand Ignores the attack, so makes no test"),
        (None, None, True, "Brigand is helpless, so makes no test"),
        ("STN", "Dodge", False, None),
        ("INC", "Block", False,
         "Brigand is Incapacitated: unaware, so Ignores and makes no test"),
        ("UNC", None, False, "Brigand is Unconscious: helpless and makes no test"),
    ]
    for shock, defence, helpless, why in cases:
        now = state(shock)
        assert pc.defence_untested(now, brigand, defence=defence, helpless=helpless) == why
        strike = pc.melee_attack(now, sword, brigand, defence=defence, helpless=helpless,
                                 defence_setups=1, dice=DiceSource.seeded(3))
        assert (strike.exchange.unused_setups == 1) == (why is not None), (shock, defence)
    ignoring = rows.set("Brigand", "defence", "Ignore").fighter("Brigand")
    assert pc.defence_untested(fight, ignoring) == \
        "Brigand Ignores the attack, so makes no test"
    dead = state("KIA")
    assert pc.defence_untested(dead, brigand) == "Brigand is dead"
    with pytest.raises(RulesError, match="helpless must be True or False, got 1"):
        pc.defence_untested(fight, brigand, helpless=1)
    with pytest.raises(RulesError, match="defence must be one of"):
        pc.defence_untested(fight, brigand, defence="Parry")


def test_removing_an_injury_takes_back_its_shock_state_and_its_blood():
    """Nolora's shot (Injury 4 Shock example): the S2P abdomen's own Shock Roll made the
    Brigand INC, and nothing else on the record explains it, so removing that injury leaves
    him fighting. The Bleeding example's G4E shoulder (its Shock Roll INC, then 62 on the
    Blood Loss Advance Roll: 2 BP, INC while INC is UNC): removing it takes back the 2 BP and
    the UNC with its Extended Shock HR5 (Healing 1, Injury 4: the most severe state)."""
    rows = roster()
    fight = pc.fight_for(rows)
    strike = pc.missile_attack(fight, rows.fighter("Nolora"), rows.fighter("Brigand"),
                               range_ft=20, advantage="precision",
                               dice=DiceSource.typed([45, 4, 4, 6, 6, 1, 9, 7, 75]))
    after = pc.apply_strike(fight, rows.fighter("Brigand"), strike)
    assert after.combatant("Brigand").record.injuries[0].shock == "INC"
    gone = pc.remove_injury(after, rows.fighter("Brigand"), 0)
    assert gone.fight.combatant("Brigand").status == "fighting"
    assert [s.text for s in gone.trace] == ["Brigand: S2P abdomen removed from the record",
                                            "The Shock state INC came from this injury "
                                            "alone: now no Shock state"]
    fallen = _fallen(rows)
    record = fallen.combatant("Brigand").record
    record = replace(record, injuries=(replace(record.injuries[0], shock="INC"),))
    fallen = fallen.with_combatant(replace(fallen.combatant("Brigand"), record=record))
    bled = pc.bleed(fallen, rows.fighter("Brigand"), dice=DiceSource.typed([62]))
    brigand = bled.fight.combatant("Brigand")
    assert (brigand.record.blood_loss, brigand.shock, brigand.record.injuries[0].blood_lost) \
        == (2, "UNC", 2)
    taken = pc.remove_injury(bled.fight, rows.fighter("Brigand"), 0)
    brigand = taken.fight.combatant("Brigand")
    assert (brigand.record.blood_loss, brigand.shock, brigand.extended_hr) == (0, None, None)
    assert [s.text for s in taken.trace][1:] == [
        "The 2 BP its bleeding cost are taken back: blood loss 2 → 0 BP",
        "The Shock state UNC came from this injury alone: now no Shock state"]


def _in_shock(record: pc.InjuryRecord, state: str, extended_hr: int | None = None,
              coma_hr: int | None = None) -> tuple[pc.Fight, Roster]:
    """The Brigand of the roster with *record* and that Shock state in a fight."""
    rows = roster()
    fight = pc.fight_for(rows)
    return fight.with_combatant(pc.Combatant("Brigand", record, state, extended_hr,
                                             coma_hr)), rows


def test_a_removal_leaves_the_state_the_remaining_injuries_give():
    """The S2E abdomen's own Shock Roll gave STN; the S3E thigh bled 2 BP and the patient is
    INC. Removing the thigh takes its 2 BP back, and the state falls to the abdomen's STN, the
    most severe state left (Injury 4): INC is not kept for a cause that gave only STN. The
    record and the fight compute it the same way, and Extended Shock goes with the INC."""
    record = (pc.InjuryRecord("Brigand").add_injury("Abdomen", "Edge", 2, shock="STN")
              .add_injury("Thigh", "Edge", 3, bleeder=True, shock_rolled=True))
    record = replace(record, blood_loss=2, injuries=(
        record.injuries[0], replace(record.injuries[1], blood_lost=2)))
    gone = record.with_shock("INC", extended_hr=5).remove_injury(1)
    assert (gone.blood_loss, gone.shock, gone.extended_hr) == (0, "STN", None)
    assert gone.log[-1] == ("Day 0: removed S3E thigh; the 2 BP its bleeding cost are taken "
                            "back: blood loss 2 → 0 BP; the Shock state INC came in part from "
                            "this injury: now STN, from the Shock Roll of S2E abdomen (STN)")
    fight, rows = _in_shock(record, "INC", 5)
    taken = pc.remove_injury(fight, rows.fighter("Brigand"), 1)
    brigand = taken.fight.combatant("Brigand")
    assert (brigand.shock, brigand.extended_hr, brigand.record.blood_loss) == ("STN", None, 0)
    assert [s.text for s in taken.trace][2:] == [
        ("The Shock state INC came in part from this injury: now STN, from the Shock Roll of "
         "S2E abdomen (STN)")]


def test_a_remaining_injury_with_the_same_state_keeps_it():
    """Both injuries' Shock Rolls gave INC: without either, the other still gives INC, so
    the state and its Extended Shock stay."""
    two = (pc.InjuryRecord("Bo").add_injury("Abdomen", "Edge", 2, shock="INC")
           .add_injury("Thigh", "Blunt", 3, shock="INC").with_shock("INC", extended_hr=5))
    for index, left in ((1, "S2E abdomen"), (0, "S3B thigh")):
        kept = two.remove_injury(index)
        assert (kept.shock, kept.extended_hr) == ("INC", 5)
        assert kept.log[-1].endswith(f"the Shock state INC stays: the Shock Roll of {left} "
                                     "(INC) is behind it too")
    milder = (pc.InjuryRecord("Bo").add_injury("Abdomen", "Edge", 2, shock="STN")
              .add_injury("Thigh", "Blunt", 3, shock="INC").with_shock("INC", extended_hr=5))
    assert (milder.remove_injury(1).shock, milder.remove_injury(0).shock) == ("STN", "INC")


def test_the_blood_loss_alone_can_be_what_keeps_a_state():
    """The abdomen's Shock Roll gave no state, but its bleeding cost 2 BP (the track's STN,
    then INC); the thigh's Shock Roll gave INC, and INC while INC is UNC, with a coma.
    Removing the thigh leaves INC from the 2 BP: the Extended Shock stays, the coma goes
    (Healing 1, Injury 4)."""
    record = (pc.InjuryRecord("Bo").add_injury("Abdomen", "Edge", 2, bleeder=True,
                                               shock_rolled=True)
              .add_injury("Thigh", "Blunt", 3, shock="INC"))
    record = replace(record, blood_loss=2, injuries=(
        replace(record.injuries[0], blood_lost=2), record.injuries[1]))
    gone = record.with_shock("UNC", extended_hr=4, coma_hr=7, coma_days=10).remove_injury(1)
    assert (gone.blood_loss, gone.shock, gone.extended_hr, gone.coma_hr, gone.coma_days) == \
        (2, "INC", 4, None, 0)
    assert gone.log[-1] == ("Day 0: removed S3B thigh; the Shock state UNC came in part from "
                            "this injury: now INC, from the 2 BP lost (INC)")
    fight, rows = _in_shock(record, "UNC", 4, 7)
    brigand = pc.remove_injury(fight, rows.fighter("Brigand"), 1).fight.combatant("Brigand")
    assert (brigand.shock, brigand.extended_hr, brigand.coma_hr) == ("INC", 4, None)


def test_an_injury_without_its_shock_roll_on_the_record_keeps_the_state():
    """An injury written in by hand does not say what its Shock Roll gave, so the state
    stays; the same injury with its roll on the record (no effect) lets it go. A grim
    wound's daily Shock Roll leaves no mark either. A state the whole record does not reach
    (a Glancing Blow, a state set by hand) stays too."""
    by_hand = (pc.InjuryRecord("Bo").add_injury("Abdomen", "Edge", 2)
               .add_injury("Thigh", "Blunt", 3, shock="INC").with_shock("INC", extended_hr=5))
    kept = by_hand.remove_injury(1)
    assert (kept.shock, kept.extended_hr) == ("INC", 5)
    assert kept.log[-1] == ("Day 0: removed S3B thigh; the Shock state INC stays: the Shock "
                            "Roll of S2E abdomen may be behind it too")
    rolled = replace(by_hand, injuries=(replace(by_hand.injuries[0], shock_rolled=True),
                                        by_hand.injuries[1]))
    assert rolled.remove_injury(1).shock is None
    assert rolled.remove_injury(1).log[-1].endswith(
        "the Shock state INC came from this injury alone: now no Shock state")
    grim = (pc.InjuryRecord("Bo").add_injury("Abdomen", "Edge", 2, shock="STN")
            .add_injury("Thigh", "Edge", 4, shock_rolled=True).with_shock("STN"))
    assert grim.remove_injury(0).shock == "STN"
    assert grim.injuries[1].grim and not grim.injuries[0].grim
    beyond = (pc.InjuryRecord("Bo").add_injury("Abdomen", "Edge", 2, shock="STN")
              .add_injury("Thigh", "Blunt", 3, shock="STN").with_shock("UNC"))
    assert beyond.remove_injury(1).shock == "UNC" and beyond.remove_injury(1).log[-1].endswith(
        "the Shock state UNC stays: the record does not show that this injury's Shock Roll "
        "alone brought it")
    assert pc.InjuryRecord.from_json(rolled.to_json()) == rolled
    with pytest.raises(RulesError, match="shock_rolled must be True or False, got 1"):
        pc.InjuryRecord("Bo").add_injury("Abdomen", "Edge", 2, shock_rolled=1)


def test_blood_other_bleeders_account_for_stays():
    """BP the other bleeders account for stay; blood regained is counted against the removed
    injury first. One BP taken back reads "is"."""
    two = (pc.InjuryRecord("Bo").add_injury("Abdomen", "Edge", 2, shock="STN")
           .add_injury("Thigh", "Blunt", 3, shock="INC").with_shock("INC", extended_hr=5))
    bleeders = replace(two, blood_loss=3, injuries=(
        replace(two.injuries[0], bleeder=True, blood_lost=1),
        replace(two.injuries[1], bleeder=True, blood_lost=1)))
    less = bleeders.remove_injury(1)
    assert less.blood_loss == 2 and "the 1 BP its bleeding cost is taken back: blood loss " \
        "3 → 2 BP; 2 BP stay: other bleeders' or entered by hand" in less.log[-1]
    regained = replace(bleeders, blood_loss=1).remove_injury(1)
    assert regained.blood_loss == 1   # the other bleeder's BP stays; the regained one was this
    assert pc.InjuryRecord.from_json(less.to_json()) == less
    with pytest.raises(RulesError, match="shock must be None, STN, INC, UNC or KIA"):
        pc.InjuryRecord("Bo").add_injury("Abdomen", "Edge", 2, shock="dazed")


def _with_injury(fight: pc.Fight, name: str, location: str, level: int) -> pc.Fight:
    c = fight.combatant(name)
    return fight.with_combatant(replace(c, record=c.record.add_injury(location, "Edge", level)))


def test_a_block_with_a_grievous_arm_is_an_automatic_cf_with_no_roll():
    """Injury 5, Tests with Grievous Injury: the Brigand's G4E shoulder leaves his arms zone
    unusable, so his Block is an automatic CF with its automatic fumble, and only the
    attacker's d100 is read; 71 is an F against EML60: both fail, no strike. The odds are
    those of an automatic CF: 60% that the blow lands (S on 1-60). A Dodge needs no arm
    (assumption grievous_arm_defence), and a Serious shoulder leaves the Block rolled."""
    rows = roster().set("Brigand", "defence", "Block")
    fight = pc.fight_for(rows)
    hurt = _with_injury(fight, "Brigand", "Shoulder", 4)
    swordsman, brigand = rows.fighter("Swordsman"), rows.fighter("Brigand")
    strike = pc.melee_attack(hurt, swordsman, brigand, dice=DiceSource.typed([71]))
    assert strike.rolled == (("attacker's d100", 71),)
    assert strike.exchange.outcome == "no strike" and strike.struck is None
    assert ("Block with the arms zone unusable (Grievous injury): an automatic CF, no roll; "
            "automatic fumble") in [s.text for s in strike.trace]
    before = pc.melee_odds(hurt, swordsman, brigand)
    assert before.outcome == ("EML 60 against a Block that is an automatic CF (the arms zone "
                              "is unusable)")
    odds = before.odds
    assert odds == pc.melee_outcome_distribution(60, "Block", 60,
                                                 defender_unusable_zone="Arms")
    assert sum(p for (outcome, _), p in odds.items() if outcome == "strike") == Fraction(3, 5)
    assert pc.defence_untested(hurt, brigand) == (
        "Brigand's arms zone is unusable (Grievous injury): the Block is an automatic CF, "
        "no test")
    assert pc.defence_untested(hurt, brigand, defence="Dodge") is None
    dodged = pc.melee_attack(hurt, swordsman, brigand, defence="Dodge",
                             dice=DiceSource.typed([71, 35]))
    assert [n for n, _ in dodged.rolled] == ["attacker's d100", "defender's d100"]
    serious = _with_injury(fight, "Brigand", "Shoulder", 3)
    blocked = pc.melee_attack(serious, swordsman, brigand, dice=DiceSource.typed([71, 35]))
    assert blocked.exchange.outcome == "blocked"
    ignored = pc.melee_attack(hurt, swordsman, brigand, defence="Ignore",
                              dice=DiceSource.typed([95]))
    assert ignored.exchange.defence == "Ignore"


def test_a_grievous_leg_or_torso_injury_leaves_no_defence_rolled():
    """A Grievous thigh or abdomen: every Block, Dodge or Counterstrike is an automatic CF
    (Injury 5: Melee tests include Agility; torso injuries affect all impaired tests)."""
    rows = roster()
    fight = pc.fight_for(rows)
    swordsman, brigand = rows.fighter("Swordsman"), rows.fighter("Brigand")
    for location, zone in (("Thigh", "legs"), ("Abdomen", "torso")):
        hurt = _with_injury(fight, "Brigand", location, 4)
        for defence in ("Block", "Dodge", "Counterstrike"):
            assert pc.defence_untested(hurt, brigand, defence=defence) == (
                f"Brigand's {zone} zone is unusable (Grievous injury): the {defence} is an "
                "automatic CF, no test")
            strike = pc.melee_attack(hurt, swordsman, brigand, defence=defence,
                                     dice=DiceSource.typed([71]))
            assert strike.rolled == (("attacker's d100", 71),)


def test_a_healer_treats_some_or_all_of_the_open_bleeders_together():
    """Healing 1: treating more than one bleeder in the same five minutes costs each Blood
    Stoppage Roll 10 for every treated bleeder beyond one. Two open bleeders and a healer of
    EML60: treating both (the default), the thigh's Staunch is against 50 and a 55 is a CF, so
    the Blood Loss roll (62, F) adds 2 BP; treating the thigh alone, against 60, the same 55 is
    a CS and stops it at once, with no Blood Loss roll."""
    rows = roster()
    fight = _fallen(rows)
    hurt = fight.combatant("Brigand")
    record = pc.InjuryRecord("Brigand").add_injury("Thigh", "Edge", 2, bleeder=True) \
        .add_injury("Shoulder", "Edge", 4, bleeder=True)
    fight = fight.with_combatant(replace(hurt, record=record))
    brigand = rows.fighter("Brigand")

    def stoppage(step: pc.FightStep) -> tuple[int, str]:
        values = next(dict(s.values) for s in step.trace if "eml" in dict(s.values))
        return values["eml"], values["level"]

    both = pc.bleed(fight, brigand, physician_eml=60, dice=DiceSource.typed([55, 62]))
    same = pc.bleed(fight, brigand, physician_eml=60, treated=2,
                    dice=DiceSource.typed([55, 62]))
    alone = pc.bleed(fight, brigand, physician_eml=60, treated=1, dice=DiceSource.typed([55]))
    assert (stoppage(both), stoppage(same), stoppage(alone)) == \
        ((50, "CF"), (50, "CF"), (60, "CS"))
    assert both.outcome == same.outcome == \
        "Brigand: S2E thigh bleeding, 2 BP (Unconscious, Extended Shock HR5)"
    assert alone.outcome == "Brigand: S2E thigh stopped, 0 BP (Incapacitated, Extended Shock HR5)"
    assert not alone.fight.combatant("Brigand").record.injuries[0].bleeder
    with pytest.raises(RulesError, match="treated must be from 1 to 2, got 3"):
        pc.bleed(fight, brigand, physician_eml=60, treated=3, dice=DiceSource.typed([55, 62]))
    with pytest.raises(RulesError, match="with no healer"):
        pc.bleed(fight, brigand, treated=1, dice=DiceSource.typed([62]))
