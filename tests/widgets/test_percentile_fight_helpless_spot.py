"""The percentile fight page's melee panel: an attacker who spends a round lining up the blow
on a helpless defender picks the spot (Injury 1, Helpless targets); no Zone or Location Die."""

from __future__ import annotations

from widgets.percentile_fight import fight_page


def _typed(entry, values) -> None:
    entry.my_dice.value = ", ".join(map(str, values))
    entry.use_dice_button.click()


def test_a_bound_defender_s_spot_is_picked_after_a_round_lining_up_the_blow():
    page = fight_page()
    melee = page.melee
    melee.first.value, melee.second.value = "Brigand", "Nolora"
    assert melee.line_up.disabled and melee.spot.disabled      # only for a helpless defender
    melee.helpless.value = True
    assert not melee.line_up.disabled and melee.spot.disabled
    melee.line_up.value = True
    assert not melee.spot.disabled
    # Aimed at ZN1, location 3: the skull; the d10 5 + 3 + STR 1 + three Impact TAs of 5 =
    # 24E, unarmoured: G5E; Shock 90. Only the impact die and the Shock test are rolled.
    melee.spot.value = 3
    _typed(melee.entry, [5, 90])
    assert "Nolora: Skull: G5E injury" in melee.result.value, melee.error.message
    melee.helpless.value = False
    assert melee.line_up.disabled and melee.spot.disabled
    assert melee._picked() is None                          # the dice find the spot again
