"""A whole Veil & Lead fight: the roster's rows fill the attack, the result lands on the
target's health (§VI, §VIII–§X, §XIII). Every number below is worked by hand from the seed."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from rulescore.errors import RulesError
from rulescore.roster import Roster
from rulescore.systems import veil_and_lead as vl
from rulescore.systems.veil_and_lead.encounter import Encounter, Fighter
from tests.rulescore.saved_fields import fields, put, shown_path, wrong_values

ROSTER = (Roster(vl.ROSTER)
          .add("Caleb", pc=True, quick=3, weapon_skill=3, weapon_bonus=2)
          .add("Enforcer", quick=1, savvy=1, iron=2, weapon="Repeater")
          .add("Plated", quick=1, savvy=1, iron=2, armour="Boiler Plate")
          .add("Frail", quick=1, savvy=1, iron=1)
          .add("Posse", quick=2, weapon="Repeater", horde=6))


def token(name, tick, *, pc=False, aim=0, horde=0, quick=3):
    return Fighter(name, pc, quick, 5, tick, aim=aim, horde=horde)


def fight_of(*tokens, hammer, **vitality):
    """A fight with these tokens at full Vitality unless given."""
    health = []
    for t in tokens:
        iron = ROSTER.fighter(t.name.rsplit(" ", 1)[0] if t.name[-1].isdigit()
                              else t.name)["iron"]
        health.append(vl.Health(t.name, t.name, iron, vitality.get(t.name, vl.vitality(iron))))
    return vl.Fight(Encounter(hammer, 0, tokens), tuple(health))


def shoot(fight, attacker, target, dice, **choices):
    critical = choices.pop("critical", 0)
    setup = fight.attack_inputs(ROSTER.fighter(attacker), ROSTER.fighter(target), attacker,
                                target, **choices)
    result = vl.attack(dice, critical=critical, **setup)
    return setup, result, fight.apply_attack(attacker, target, result)


def test_calebs_shot_from_the_roster_gives_five_and_wounds_the_enforcer():
    # §VI The Complete Attack Example: QUICK 3 + Ballistics 3 = 6 dice; Defense 9 (8 + QUICK 1)
    # + Hard Cover 4 + Far (pistol) 2 = TN 15; 15 + 3 (2 Aim) + 2 (Masterwork) = 20, margin 5,
    # 1 Step + Critical 1: WR 3 + 2 = 5 damage. IRON 2: 10 Vitality → 5, at half: Wounded.
    fight = fight_of(token("Caleb", 2, pc=True, aim=2), token("Enforcer", 4), hammer=2)
    setup, result, move = shoot(fight, "Caleb", "Enforcer", [2, 3, 5, 6, 7, 8],
                                band="Far", cover="Hard Cover", critical=1)
    assert (setup["attribute"], setup["skill"], setup["defense"], setup["aim_actions"],
            setup["roll_bonus"]) == (3, 3, 9, 2, 2)
    assert (result.tn, result.final_sum, result.damage, result.grievous) == (15, 20, 5, True)
    after = move.fight
    assert after.of("Enforcer").vitality == 5 and after.of("Enforcer").state == "Wounded"
    assert after.of("Enforcer").grievous_pending
    caleb = after.encounter.fighter("Caleb")
    assert (caleb.tick, caleb.aim, caleb.exposed) == (6, 0, False)  # Steady Shot, tempo 4
    assert "Vitality 10 → 5 (Wounded)" in move.line and "roll the d8" in move.line
    # d8 8: an Arterial Hit bleeds with Vitality left (§IX Grievous Wound Notes)
    hurt = after.grievous("Enforcer", 8).fight.of("Enforcer")
    assert hurt.wounds == ("Arterial Hit",) and hurt.bleeding and not hurt.grievous_pending
    with pytest.raises(RulesError, match="no Grievous Wound waiting"):
        after.grievous("Enforcer", 8).fight.grievous("Enforcer", 3)


def test_the_wounded_attacker_loses_a_die_and_a_surprised_target_is_easier():
    # Caleb at 5 of 11 is Wounded (−1 die physical, §VIII); the Enforcer failed initiative:
    # Surprised, attackers −2 TN (§II). Pool 3 + 3 − 1 = 5; TN 9 − 2 = 7 at Near.
    fight = fight_of(token("Caleb", 2, pc=True), replace(token("Enforcer", 6), surprised=True),
                     hammer=2, Caleb=5)
    setup = fight.attack_inputs(ROSTER.fighter("Caleb"), ROSTER.fighter("Enforcer"),
                                "Caleb", "Enforcer")
    assert setup["attacker_conditions"] == ("Wounded",)
    assert setup["target_conditions"] == ("Surprised",)
    plan = vl.plan_attack(**setup)
    assert (plan.pool, plan.tn) == (5, 7)


def test_a_near_miss_suppresses_and_costs_the_target_two_dice_later():
    # Caleb's Peacemaker at Near against Defense 9 (8 + QUICK 1): TN 9. Two highest 2 + 3 = 5,
    # + 2 Masterwork = 7: missed by 2, a near miss from gunfire: Suppressed (§XI). The
    # Enforcer's own attack then rolls QUICK 1 + skill 2 − 2 = 1 die.
    fight = fight_of(token("Caleb", 2, pc=True), token("Enforcer", 4), hammer=2)
    _, result, move = shoot(fight, "Caleb", "Enforcer", [1, 1, 1, 1, 2, 3])
    assert (result.tn, result.final_sum, result.suppresses) == (9, 7, True)
    assert "Suppressed" in move.fight.conditions("Enforcer")
    assert "Enforcer is Suppressed" in move.line
    later = move.fight.attack_inputs(ROSTER.fighter("Enforcer"), ROSTER.fighter("Caleb"),
                                     "Enforcer", "Caleb")
    assert later["attacker_conditions"] == ("Suppressed",)
    assert vl.plan_attack(**later).pool == 1


def test_downed_bleeds_at_each_turn_and_dies_at_minus_iron_plus_two():
    # Frail: IRON 1, Vitality 9, death at −3 (§X), Defense 9. At 2, Caleb's 5 + 5 + 2 = 12
    # against TN 9: margin 3, 1 Step: WR 3 + 1 = 4 → −2: Downed and Bleeding Out. Frail's
    # next turn costs 1: −3, dead, the token leaves the Cylinder.
    fight = fight_of(token("Caleb", 2, pc=True), token("Frail", 3), hammer=2, Frail=2)
    _, result, move = shoot(fight, "Caleb", "Frail", [1, 1, 1, 1, 5, 5])
    assert (result.margin, result.damage, result.grievous) == (3, 4, False)
    f = move.fight.of("Frail")
    assert (f.vitality, f.state, f.bleeding) == (-2, "Downed", True)
    assert "Downed" in move.fight.encounter.fighter("Frail").conditions
    with pytest.raises(RulesError, match="Frail is Downed: a Downed fighter may only Crawl"):
        move.fight.require_turn("Frail")
    turn = move.fight.next_turn()  # the Hammer to Tick 3: Frail's turn starts, bleeding
    assert turn.fight.of("Frail").vitality == -3 and turn.fight.of("Frail").state == "Dead"
    assert "Frail" not in {t.name for t in turn.fight.encounter.fighters}
    assert "Frail bleeds: Vitality -3 (Dead)" in turn.line
    # From −1 instead: the turn costs 1 (−2); Next turn again while Frail has not acted leaves
    # the Hammer where it is and starts no second turn.
    fight = move.fight._set(replace(move.fight.of("Frail"), vitality=-1))
    once = fight.next_turn().fight
    assert once.of("Frail").vitality == -2
    assert once.next_turn().fight.of("Frail").vitality == -2
    with pytest.raises(RulesError, match="dead"):
        turn.fight.attack_inputs(ROSTER.fighter("Caleb"), ROSTER.fighter("Frail"), "Caleb",
                                 "Frail")


def test_hardened_armour_spends_its_one_negation_of_the_scene():
    # Plated (Boiler Plate, AR 1, Hardened): Caleb's 6 dice [8, 8, 1, 1, 1, 1] = 16 + 2 vs
    # Defense 9 at Near: margin 9, 3 Steps: WR 3 + 3 − 1 = 5, no Grievous Wound; the next is.
    fight = fight_of(token("Caleb", 2, pc=True), token("Plated", 9), hammer=2)
    setup, result, move = shoot(fight, "Caleb", "Plated", [8, 8, 1, 1, 1, 1])
    assert setup["hardened"] and (result.damage, result.grievous) == (5, False)
    after = move.fight
    assert after.of("Plated").hardened_spent and not after.of("Plated").grievous_pending
    again = after.attack_inputs(ROSTER.fighter("Caleb"), ROSTER.fighter("Plated"), "Caleb",
                                "Plated")
    assert again["hardened"] and again["hardened_spent"]
    second = vl.attack([8, 8, 1, 1, 1, 1], **again)
    assert (second.damage, second.grievous) == (5, True)


def test_a_horde_acts_at_its_fixed_tempo_and_breaks_at_two():
    # The Posse (a Horde of 6, Repeaters) takes a Quick Shot (tempo 4 for a rifle) but moves
    # its fixed firing-line tempo 5, Tick 2 → 7 (§XIII Static Tempo), never Exposed. Its
    # volley: base 2 + 2 − 2 (Quick Shot) = 2, + 6 = 8 d8 (§XIII The Volley).
    fight = fight_of(token("Caleb", 7, pc=True), token("Posse", 2, horde=6), hammer=2)
    setup, result, move = shoot(fight, "Posse", "Caleb", [1] * 8, action="Quick Shot")
    assert setup["horde_size"] == 6 and (result.pool, result.tempo) == (8, 5)
    posse = move.fight.encounter.fighter("Posse")
    assert (posse.tick, posse.exposed) == (7, False)
    assert [s.text for s in move.trace].count("A Horde acts at its fixed tempo 5 (firing "
                                              "line)") == 1
    # Caleb at Tick 7: Defense 8 + 2 = TN 10; 6 + 5 + 2 = 13, margin 3: 1 + 1 Step (WR 3 adds
    # none) = 2 casualties, 6 → 4; the same again leaves 2: the Horde breaks into two NPCs.
    fight = replace(move.fight, encounter=replace(move.fight.encounter, hammer=7))
    _, result, hit = shoot(fight, "Caleb", "Posse", [6, 5, 1, 1, 1, 1])
    assert (result.tn, result.margin) == (10, 3)
    assert hit.fight.encounter.fighter("Posse").horde == 4
    enc = replace(hit.fight.encounter, hammer=hit.fight.encounter.fighter("Caleb").tick)
    _, _, broke = shoot(replace(hit.fight, encounter=enc), "Caleb", "Posse",
                        [6, 5, 1, 1, 1, 1])
    names = {t.name for t in broke.fight.encounter.fighters}
    assert {"Posse 1", "Posse 2"} <= names and "Posse" not in names
    assert broke.fight.of("Posse 1").row == "Posse"


def test_coup_de_grace_hits_at_sixteen_against_point_blank():
    # Frail at 0 (Downed). Peacemaker at Point-Blank: TN 9 − 2 = 7; 16 + 2 (Masterwork) = 18,
    # margin 11: 3 Steps: 3 + 3 = 6 damage → −6, past −3: dead.
    fight = fight_of(token("Caleb", 2, pc=True), token("Frail", 3), hammer=2, Frail=0)
    move = fight.coup_de_grace(ROSTER.fighter("Caleb"), ROSTER.fighter("Frail"), "Caleb",
                               "Frail")
    assert move.fight.of("Frail").state == "Dead" and move.fight.of("Frail").vitality == -3
    assert "6 damage" in move.line
    with pytest.raises(RulesError, match="helpless"):
        fight_of(token("Caleb", 2, pc=True), token("Frail", 3), hammer=2).coup_de_grace(
            ROSTER.fighter("Caleb"), ROSTER.fighter("Frail"), "Caleb", "Frail")


def test_stabilisation_stops_the_bleeding_and_a_fumble_costs_one_more():
    fight = fight_of(token("Caleb", 2, pc=True), token("Frail", 3), hammer=2, Frail=-1)
    fight = fight._set(replace(fight.of("Frail"), bleeding=True))
    saved = fight.stabilized("Frail", vl.stabilize([8, 5], -1))  # 13 vs TN 12
    assert saved.fight.of("Frail").stabilized and saved.fight.of("Frail").vitality == -1
    assert saved.fight.next_turn().fight.of("Frail").vitality == -1  # no more bleeding
    fumbled = fight.stabilized("Frail", vl.stabilize([1, 1], -1))
    assert fumbled.fight.of("Frail").vitality == -2 and not fumbled.fight.of("Frail").stabilized


def test_joining_from_the_roster_and_the_saved_file_round_trip():
    fight = vl.Fight()
    for name, margin in (("Caleb", 7), ("Enforcer", None), ("Posse", 0)):
        fight = fight.join(ROSTER.fighter(name), margin).fight
    assert [(t.name, t.tick, t.surprised, t.horde) for t in fight.encounter.fighters] == [
        ("Caleb", 2, False, 0), ("Enforcer", 6, True, 0), ("Posse", 4, False, 6)]
    assert fight.of("Caleb").vitality == 10
    # The Hammer turns from 0 to Tick 2, Caleb's (margin 7); nobody acts in an empty fight.
    fight = fight.next_turn().fight
    assert fight.acting() == ("Caleb",) and vl.Fight().acting() == ()
    fight = fight.set_strain("Caleb", 2).fight.mark("Enforcer", "Prone").fight
    assert vl.Fight.from_json(fight.to_json()) == fight
    two = ROSTER.add("Pair", horde=2).fighter("Pair")
    with pytest.raises(RulesError, match="Horde size of Pair must be 0 .one fighter. or 3"):
        fight.join(two, 3)


@pytest.mark.parametrize("change, message", [
    (lambda d: d["health"][0].update(vitality=11), "health[1].vitality must be from -4 to 10"),
    (lambda d: d["health"][0].update(wounds=["Papercut"]), "health[1].wounds[1] must be one of"),
    (lambda d: d["health"].pop(), "health has no entry for Enforcer"),
    (lambda d: d["health"][0].update(strain=True), "health[1].strain"),
])
def test_a_bad_saved_fight_is_refused_naming_the_field(change, message):
    fight = vl.Fight()
    for name in ("Caleb", "Enforcer"):
        fight = fight.join(ROSTER.fighter(name), 3).fight
    data = json.loads(fight.to_json())
    change(data)
    with pytest.raises(RulesError, match=message.replace("[", r"\[").replace("(", r"\(")):
        vl.Fight.from_json(json.dumps(data))


def test_a_called_shot_to_the_head_names_its_effect_and_the_gm_marks_the_stun():
    # Called Shot: −2 dice (6 → 4 d8) and tempo 4 + 2 = 6, Tick 2 → 8; [8, 8, 1, 1] + 2 = 18
    # against TN 9: a hit, and the Head's effect is named for the GM (§III Called Shot).
    fight = fight_of(token("Caleb", 2, pc=True), token("Enforcer", 9), hammer=2)
    setup = fight.attack_inputs(ROSTER.fighter("Caleb"), ROSTER.fighter("Enforcer"), "Caleb",
                                "Enforcer", action="Called Shot")
    result = vl.attack([8, 8, 1, 1], called_location="Head", **setup)
    move = fight.apply_attack("Caleb", "Enforcer", result, called_location="Head")
    assert "Target is Stunned" in move.line
    assert move.fight.encounter.fighter("Caleb").tick == 8
    stunned = move.fight.mark("Enforcer", "Stunned").fight
    assert "Stunned" in stunned.conditions("Enforcer")
    with pytest.raises(RulesError, match="Stunned turn"):
        stunned.mark("Enforcer", "Stunned", on=False)


def _sample_fight() -> str:
    """A fight with every kind of field filled: a Horde, a wound, a mark, a held token."""
    fight = vl.Fight()
    for name, margin in (("Caleb", 7), ("Enforcer", None), ("Posse", 0)):
        fight = fight.join(ROSTER.fighter(name), margin).fight
    h = replace(fight.of("Enforcer"), wounds=("Flesh Wound",), marks=("Leg Hit",),
                called_limb="Leg", grievous_pending=True, strain=2)
    fight = fight._set(h).mark("Caleb", "Prone").fight
    enc, _ = fight.encounter.next_turn()
    return replace(fight, encounter=enc.hold("Caleb", "the door")).to_json()


def test_every_field_of_a_saved_fight_refuses_a_wrong_value_by_name():
    fmt = vl.fight.fight_format()
    text = _sample_fight()
    body = {k: v for k, v in json.loads(text).items() if k not in ("format", "version")}
    tried = 0
    for path, spec, value in fields(fmt.body, body):
        if not path:
            continue
        for wrong, says in wrong_values(spec, value):
            with pytest.raises(RulesError) as refused:
                vl.Fight.from_json(put(fmt, text, path, wrong))
            message = str(refused.value)
            assert message.startswith(f"fight: {shown_path(path)} ") and says in message, \
                (path, wrong, message)
            tried += 1
    assert tried > 200 and vl.Fight.from_json(text).to_json() == text


def test_a_horde_volley_rolls_its_base_pool_plus_its_size():
    # The Posse (a Horde of 6): base QUICK 2 + skill 2 = 4, + 6 = 10 d8 (§XIII The Volley)
    # against Caleb's Defense 11 at Near (rifle 0). Two highest 8 + 7 = 15: margin 4, 1 Step:
    # Repeater WR 4 + 1 = 5 damage, a Grievous Wound; the Posse moves its fixed tempo 5.
    fight = fight_of(token("Caleb", 7, pc=True), token("Posse", 2, horde=6), hammer=2)
    setup = fight.attack_inputs(ROSTER.fighter("Posse"), ROSTER.fighter("Caleb"), "Posse",
                                "Caleb")
    assert fight.volley_pool("Posse", setup) == 10 and fight.volley_pool("Caleb", setup) == 0
    result = fight.volley("Posse", setup, [8, 7, 1, 1, 1, 1, 1, 1, 1, 1])
    assert (result.tn, result.margin, result.damage, result.grievous) == (11, 4, 5, True)
    assert "The Volley: base pool 4 + Horde size 6 = 10 d8" in [s.text for s in result.trace]
    move = fight.apply_attack("Posse", "Caleb", result)
    assert move.fight.of("Caleb").vitality == 5 and move.fight.encounter.fighter("Posse").tick == 7
    with pytest.raises(RulesError, match="faces must be 10 d8"):
        fight.volley("Posse", setup, [8, 7])
    with pytest.raises(RulesError, match="Caleb is not a Horde"):
        fight.volley("Caleb", setup, [8, 7])


def test_a_renamed_row_keeps_its_token_health_and_place_on_the_count():
    fight = fight_of(token("Caleb", 2, pc=True, aim=2), token("Enforcer", 4), hammer=2)
    _, _, move = shoot(fight, "Caleb", "Enforcer", [6, 6, 6, 1, 1, 1])
    hurt = move.fight.mark("Enforcer", "Prone").fight
    before = hurt.encounter.fighter("Enforcer")
    after = hurt.rename("Enforcer", "Mack")
    assert after.of("Mack") == replace(hurt.of("Enforcer"), name="Mack", row="Mack")
    assert after.encounter.fighter("Mack") == replace(before, name="Mack")
    assert after.conditions("Mack") == hurt.conditions("Enforcer")
    assert [f.name for f in after.encounter.fighters] == ["Caleb", "Mack"]
    assert after.of("Caleb") == hurt.of("Caleb") and after.encounter.hammer == 2
    with pytest.raises(RulesError, match="no fighter called 'Enforcer'"):
        after.of("Enforcer")
    # a row not on the Count, or the same name, changes nothing; a token's name is refused
    assert hurt.rename("Frail", "Slim") == hurt and hurt.rename("Caleb", "Caleb") == hurt
    with pytest.raises(RulesError, match="Name 'Caleb' is a token's name"):
        hurt.rename("Enforcer", "Caleb")
    with pytest.raises(RulesError, match="new must be a fighter's name"):
        hurt.rename("Enforcer", " ")
    # the file of the renamed fight reads back the same
    assert vl.Fight.from_json(after.to_json()) == after


def test_a_broken_horde_s_singles_follow_their_row_s_new_name():
    fight = vl.Fight(Encounter(0, 0, (token("Posse 1", 3), token("Posse 2", 3),
                                      token("Caleb", 5, pc=True))),
                     (vl.Health("Posse 1", "Posse", 1, 9), vl.Health("Posse 2", "Posse", 1, 4),
                      vl.Health("Caleb", "Caleb", 2, 10)))
    after = fight.rename("Posse", "Raiders")
    assert [(h.name, h.row, h.vitality) for h in after.health] == [
        ("Raiders 1", "Raiders", 9), ("Raiders 2", "Raiders", 4), ("Caleb", "Caleb", 10)]
    assert [f.name for f in after.encounter.fighters] == ["Raiders 1", "Raiders 2", "Caleb"]


def test_plan_attack_takes_the_horde_s_size_for_its_volley():
    # §XIII The Volley: base QUICK 2 + skill 2 = 4, + size 6 = 10 d8, at the firing line's
    # fixed tempo 5 and never Exposed; the same attack alone rolls 4 at the Repeater's tempo.
    alone = vl.plan_attack(attribute=2, skill=2, defense=11, weapon="Repeater",
                           action="Quick Shot")
    volley = vl.plan_attack(attribute=2, skill=2, defense=11, weapon="Repeater",
                            action="Quick Shot", horde_size=6)
    assert (alone.pool, alone.tempo) == (2, 4)
    assert (volley.pool, volley.dice_to_roll, volley.tempo, volley.exposed_after) == (
        8, 8, 5, False)
    assert volley.odds().p_hit == vl.hit_probability(8, 11)
    assert vl.attack([8, 7] + [1] * 6, attribute=2, skill=2, defense=11, weapon="Repeater",
                     action="Quick Shot", horde_size=6).margin == 4
    for bad in (2, 11, -1):
        with pytest.raises(RulesError, match="horde_size must be"):
            vl.plan_attack(attribute=2, skill=2, defense=11, horde_size=bad)


def test_the_pools_a_roster_row_gives():
    assert vl.attack_pool(3, 2) == 5 and vl.healer_pool(2, 1) == 3
    with pytest.raises(RulesError, match="medicine"):
        vl.healer_pool(2, 9)
