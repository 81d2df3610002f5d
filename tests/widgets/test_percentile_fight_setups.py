"""The percentile fight page's melee panel takes each side's Setup advantages (Melee Test
Results, Setup): the odds and the exchange are the engine's with the same Setups, and a
defender who makes no roll has none to give."""

from __future__ import annotations

from rulescore.dice import DiceSource
from rulescore.systems import percentile as pc
from widgets.percentile_fight import fight_page


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
                                                          "defence_setups": 0}
    assert melee.error.message == "" and "Before the roll" in melee.odds.value
    melee.defence.value = "Block"
    melee.helpless.value = True
    assert melee.d_setup.disabled
