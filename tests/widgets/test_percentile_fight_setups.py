"""The percentile fight page's melee panel takes each side's Setup advantages (Melee Test
Results, Setup): the odds and the exchange are the engine's with the same Setups, and a
defender who makes no roll (Ignore, helpless) has no test for theirs to lift: the explanation
says they do not apply, and no error stops the panel."""

from __future__ import annotations

import html

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
