"""The percentile fight page's melee panel takes each side's Setup advantages (Melee Test
Results, Setup): the odds and the exchange are the engine's with the same Setups, and a
defender who makes no roll (Ignore, helpless) has no test for theirs to lift: the explanation
says they do not apply, and no error stops the panel."""

from __future__ import annotations

import html
from dataclasses import replace

from rulescore.dice import DiceSource
from rulescore.systems import percentile as pc
from widgets.percentile_fight import fight_page
from widgets.theme import FAINT


def test_setup_advantages_lift_the_odds_and_the_exchange():
    page = fight_page()
    melee = page.melee
    melee.first.value, melee.second.value = "Nolora", "Brigand"
    rows = page.roster
    nolora, brigand = rows.fighter("Nolora"), rows.fighter("Brigand")
    assert (melee.a_setup.value, melee.d_setup.value) == (0, 0)
    assert not melee.d_setup.disabled                   # the Brigand Counterstrikes
    melee.a_setup.value, melee.d_setup.value = 2, 1
    lifted = pc.melee_odds(melee.fight, nolora, brigand, attack_setups=2, defence_setups=1)
    best, p = max(lifted.odds.items(), key=lambda kv: kv[1])
    assert f"<td>{melee.name(best)}</td><td>{float(p) * 100:.2f}%</td>" in melee.odds.value
    melee.entry.roll(5)
    strike = pc.melee_attack(melee.fight, nolora, brigand, attack_setups=2, defence_setups=1,
                             dice=DiceSource.seeded(5))
    assert strike.outcome in melee.result.value, melee.error.message
    assert any("Setup" in s.text for s in strike.trace)
    melee.defence.value = "Ignore"                      # no test for the Setups to lift
    assert melee.d_setup.disabled and melee._setups() == {"attack_setups": 2,
                                                          "defence_setups": 1}
    assert melee.error.message == "" and "Before the roll" in melee.odds.value
    melee.entry.roll(5)
    ignored = pc.melee_attack(melee.fight, nolora, brigand, defence="Ignore", attack_setups=2,
                              defence_setups=1, dice=DiceSource.seeded(5))
    assert melee.error.message == "" and ignored.outcome in melee.result.value
    assert ignored.exchange.unused_setups == 1
    assert html.escape("Defender's Setup TA from the last round (1) does not apply: the "
                       "defender Ignores, so there is no Melee or Dodge test to lift") \
        in melee.explanation.value
    melee.defence.value = "Block"
    melee.helpless.value = True
    assert melee.d_setup.disabled


def _in_state(page, name: str, shock: str | None) -> None:
    """Put *name* in Shock state *shock* on the page, as a written blow would."""
    fight = pc.fight_for(page.roster, page.state)
    page.apply(f"{name}: {shock}", state=fight.with_combatant(
        replace(fight.combatant(name), shock=shock)))


def _why(melee) -> str:
    return melee.d_setup_why.value


def test_the_defender_s_setup_field_is_greyed_with_the_reason_while_they_make_no_test():
    page = fight_page()
    melee = page.melee
    melee.first.value, melee.second.value = "Nolora", "Brigand"
    assert not melee.d_setup.disabled and _why(melee) == ""        # Counterstrike, on the row
    melee.defence.value = "Ignore"
    assert melee.d_setup.disabled
    assert _why(melee) == (f"<small style='color:{FAINT};line-height:1.3;display:block;"
                           "margin-left:.5em'>Not used: Brigand Ignores the attack, so makes "
                           "no test.</small>")
    melee.defence.value = "Dodge"
    assert not melee.d_setup.disabled and _why(melee) == ""
    melee.helpless.value = True
    assert melee.d_setup.disabled and "Not used: Brigand is helpless, so makes no test." \
        in _why(melee)
    melee.helpless.value = False
    assert not melee.d_setup.disabled and _why(melee) == ""
    _in_state(page, "Brigand", "INC")                              # unaware: must Ignore
    assert melee.d_setup.disabled and not melee.helpless.value
    assert "Not used: Brigand is Incapacitated: unaware, so Ignores and makes no test." \
        in _why(melee)
    _in_state(page, "Brigand", "UNC")                              # helpless: no roll at all
    assert melee.d_setup.disabled and melee.helpless.value and melee.helpless.disabled
    assert "Not used: Brigand is Unconscious: helpless and makes no test." in _why(melee)
    _in_state(page, "Brigand", None)                               # fighting again
    assert not melee.d_setup.disabled and not melee.helpless.value and _why(melee) == ""
    melee.defence.label = "As on the roster"
    page.apply("the Brigand Ignores", roster=page.roster.set("Brigand", "defence", "Ignore"))
    assert melee.d_setup.disabled and "Brigand Ignores the attack" in _why(melee)


def test_a_defence_needing_a_grievous_arm_is_greyed_as_an_automatic_cf():
    """Injury 5, Tests with Grievous Injury: with a G4E shoulder on the Brigand's record his
    Block is an automatic CF with no roll, so his Setup has no test to lift; a Dodge needs no
    arm (assumption grievous_arm_defence) and is rolled."""
    page = fight_page()
    melee = page.melee
    melee.first.value, melee.second.value = "Nolora", "Brigand"
    fight = pc.fight_for(page.roster, page.state)
    brigand = fight.combatant("Brigand")
    page.apply("G4E shoulder", state=fight.with_combatant(replace(
        brigand, record=brigand.record.add_injury("Shoulder", "Edge", 4))))
    melee.defence.value = "Block"
    assert melee.d_setup.disabled
    assert html.escape("Not used: Brigand's arms zone is unusable (Grievous injury): the "
                       "Block is an automatic CF, no test.") in _why(melee)
    melee.defence.value = "Dodge"
    assert not melee.d_setup.disabled and _why(melee) == ""


def test_the_attacker_s_setup_field_is_greyed_with_the_reason_while_they_make_no_test():
    """The same greying on the attacker's side, with pc.attack_untested's reason: Nolora's
    G4E shoulder makes her attack an automatic CF (Injury 5), a helpless Brigand takes a CS
    with no roll (Injury 4), and an Incapacitated attacker cannot act; with the injury gone
    and the Brigand fighting, the field is hers again."""
    page = fight_page()
    melee = page.melee
    melee.first.value, melee.second.value = "Nolora", "Brigand"
    assert not melee.a_setup.disabled and melee.a_setup_why.value == ""
    fight = pc.fight_for(page.roster, page.state)
    nolora = fight.combatant("Nolora")
    page.apply("G4E shoulder", state=fight.with_combatant(replace(
        nolora, record=nolora.record.add_injury("Shoulder", "Edge", 4))))
    assert melee.a_setup.disabled and not melee.d_setup.disabled
    assert melee.a_setup_why.value == (
        f"<small style='color:{FAINT};line-height:1.3;display:block;margin-left:.5em'>"
        + html.escape("Not used: Nolora's arms zone is unusable (Grievous injury): the attack "
                      "is an automatic CF, no test.") + "</small>")
    assert melee.a_setup.tooltip == ("Not used: Nolora's arms zone is unusable (Grievous "
                                     "injury): the attack is an automatic CF, no test")
    page.apply("the shoulder taken off", state=fight)
    assert not melee.a_setup.disabled and melee.a_setup_why.value == ""
    assert melee.a_setup.tooltip == "Setup advantages the attacker took within the last round"
    melee.helpless.value = True
    assert melee.a_setup.disabled and "Not used: Brigand is helpless: the attack is a CS " \
        "with no roll." in melee.a_setup_why.value
    melee.helpless.value = False
    _in_state(page, "Nolora", "INC")
    assert melee.a_setup.disabled
    assert "Not used: Nolora is Incapacitated and cannot act." in melee.a_setup_why.value
    _in_state(page, "Nolora", None)
    assert not melee.a_setup.disabled and melee.a_setup_why.value == ""
