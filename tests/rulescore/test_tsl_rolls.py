"""TSL rolls: 5d6 keep-N by tier, Effective Tier shifts, bands, static and opposed rolls, and
their exact odds checked against enumeration of every roll of 5d6."""

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from rulescore.dice import parse
from rulescore.errors import RulesError, TableError
from rulescore.systems import tsl

ALL_ROLLS = list(itertools.product(range(1, 7), repeat=5))


def kept_total(roll, keep):
    return sum(sorted(roll, reverse=True)[:keep])


def standard_band(margin):
    """The standard ladder written out by hand (ruling band_thresholds)."""
    if margin <= -7:
        return "catastrophic"
    if margin <= 0:
        return "failure"
    if margin <= 2:
        return "mixed"
    if margin <= 6:
        return "success"
    return "crit"


def totals(keep):
    return Counter(kept_total(r, keep) for r in ALL_ROLLS)


# --- tiers and keep-N --------------------------------------------------------------------

def test_proficient_keeps_four():
    """The seed: a Proficient roller keeps 4 of 5d6 (Vela's 16)."""
    r = tsl.roll_total([6, 4, 3, 3, 1], "Proficient")
    assert (r.value, r.keep, r.kept, r.dropped) == (16, 4, (6, 4, 3, 3), (1,))
    assert "keeps the highest 4 of 5d6" in r.explain()


@pytest.mark.parametrize("tier, keep", [("Untrained", 2), ("Trained", 3), ("Proficient", 4)])
def test_named_tiers_keep(tier, keep):
    assert tsl.keep_count(tier) == keep


@pytest.mark.parametrize("tier, shift, extend, clamp", [
    ("Untrained", -1, 1, 2), ("Untrained", -4, 1, 2), ("Trained", -1, 2, 2),
    ("Proficient", 1, 5, 4), ("Trained", 2, 5, 4), ("Trained", 1, 4, 4), ("Proficient", -2, 2, 2),
])
def test_effective_tier_shifts(tier, shift, extend, clamp):
    assert tsl.keep_count(tier, shift) == extend
    assert tsl.keep_count(tier, shift, tier_limits="clamp") == clamp


def test_effective_tier_names_the_tier_reached():
    et = tsl.effective_tier("Trained", 1)
    assert (et.rank, et.name, et.keep) == (2, "Proficient", 4)
    assert tsl.effective_tier("Untrained", -1).name == "Below Untrained"
    r = tsl.roll_total([1, 2, 3, 4, 5], "Trained", 1)
    assert "Trained shifted +1 Effective Tier → Proficient" in r.explain()


@pytest.mark.parametrize("dice, message", [
    ([1, 2, 3, 4], "dice must be 5 faces (5d6), got 4"),
    ([1, 2, 3, 4, 5, 6], "got 6"),
    ([1, 2, 3, 4, 7], "dice face 5 must be a whole number from 1 to 6, got 7"),
    ([0, 2, 3, 4, 5], "face 1"),
    ("12345", "must be a list"),
])
def test_bad_dice_are_named(dice, message):
    with pytest.raises(RulesError, match=message.replace("(", r"\(").replace(")", r"\)")):
        tsl.roll_total(dice, "Trained")


def test_bad_tier_shift_and_limits():
    with pytest.raises(RulesError, match="tier must be one of Untrained, Trained, Proficient, "
                                         "got 'Expert'"):
        tsl.keep_count("Expert")
    with pytest.raises(RulesError, match="shift must be from -4 to 4, got 5"):
        tsl.keep_count("Trained", 5)
    with pytest.raises(RulesError, match="tier_limits must be one of extend, clamp"):
        tsl.keep_count("Trained", tier_limits="wrap")


def test_roll_pair_is_ten_dice_split():
    att, dfn = tsl.roll_pair(11)
    assert att + dfn == parse("10d6").roll(seed=11).faces()
    assert tsl.roll_pair(11) == (att, dfn) and len(att) == len(dfn) == 5
    with pytest.raises(RulesError, match="dice must be a DiceSource or a seed"):
        tsl.roll_pair("x")


def test_roll_dice_replays_from_seed():
    assert tsl.roll_dice(7) == tsl.roll_dice(7)
    assert len(tsl.roll_dice(7)) == 5 and all(1 <= f <= 6 for f in tsl.roll_dice(7))


# --- bands -------------------------------------------------------------------------------

@pytest.mark.parametrize("margin", range(-12, 14))
def test_standard_band_ladder(margin):
    assert tsl.band_for(margin) == standard_band(margin)


def test_crit_is_seven_over_on_every_ladder():
    for scheme in tsl.band_schemes():
        assert tsl.band_for(7, bands=scheme) == "crit"
        assert tsl.band_for(6, bands=scheme) == "success"


@pytest.mark.parametrize("scheme, margin, band", [
    ("wide_mixed", 3, "mixed"), ("wide_mixed", 4, "success"), ("meet_is_mixed", 0, "mixed"),
    ("meet_is_mixed", -1, "failure"), ("close_catastrophe", -5, "catastrophic"),
    ("close_catastrophe", -4, "failure"), ("standard", -6, "failure"),
])
def test_other_ladders(scheme, margin, band):
    assert tsl.band_for(margin, bands=scheme) == band


def test_unknown_ladder_is_named():
    with pytest.raises(RulesError, match="bands must be one of standard, "):
        tsl.band_for(3, bands="generous")


def test_band_ladder_is_data(tmp_path):
    """Editing a copy of the data changes the engine's answer, and a crit not at +7 is refused."""
    import shutil
    from rulescore.systems.tsl._system import DATA
    text = (DATA.folder / "dice.toml").read_text()
    edited = text.replace('margin = "1..2"\nband = "mixed"\n[[bands_standard.rows]]\n'
                          'margin = "3..6"', 'margin = "1..4"\nband = "mixed"\n'
                          '[[bands_standard.rows]]\nmargin = "5..6"', 1)
    assert edited != text
    shutil.copytree(DATA.folder, tmp_path / "edited")
    (tmp_path / "edited" / "dice.toml").write_text(edited)
    with DATA.using(tmp_path / "edited"):
        assert tsl.band_for(4) == "mixed"
    assert tsl.band_for(4) == "success"
    broken = text.replace('margin = "7.."\nband = "crit"', 'margin = "8.."\nband = "crit"', 1)
    broken = broken.replace('margin = "3..6"\nband = "success"', 'margin = "3..7"\nband = "success"', 1)
    shutil.copytree(DATA.folder, tmp_path / "broken")
    (tmp_path / "broken" / "dice.toml").write_text(broken)
    with DATA.using(tmp_path / "broken"), pytest.raises(TableError, match="Crit must start at a margin of \\+7"):
        tsl.band_for(4)


# --- static rolls --------------------------------------------------------------------------

def test_static_roll_vela_worked_example():
    """Vela: Hand, Proficient (keep 4), 16 against T11: a clean Success, 2 Stress."""
    r = tsl.static_roll([3, 6, 1, 4, 3], "Proficient", 11)
    assert (r.total, r.margin, r.band, r.hit) == (16, 5, "success", True)
    assert tsl.stress(r.band) == 2
    assert "Static T-number 11: margin 16 − 11 = +5" in r.explain()


def test_static_tie_is_a_failure_and_plus_seven_crits():
    assert tsl.static_roll([6, 5, 1, 1, 1], "Untrained", 11).band == "failure"
    assert tsl.static_roll([6, 6, 1, 1, 1], "Untrained", 11).band == "mixed"
    assert tsl.static_roll([6, 6, 6, 1, 1], "Trained", 11).band == "crit"
    assert tsl.static_roll([6, 6, 4, 1, 1], "Trained", 11).band == "success"  # +5
    assert tsl.static_roll([1, 1, 1, 1, 1], "Untrained", 9).band == "catastrophic"  # −7
    assert tsl.static_roll([1, 1, 1, 1, 2], "Untrained", 9).band == "failure"  # −6
    assert tsl.static_roll([6, 5, 1, 1, 1], "Untrained", 11, bands="meet_is_mixed").band == "mixed"


def test_static_target_is_checked():
    with pytest.raises(RulesError, match="target must be from 1 to 40, got 0"):
        tsl.static_roll([1, 2, 3, 4, 5], "Trained", 0)


# --- opposed rolls -------------------------------------------------------------------------

def test_opposed_mar_worked_example():
    """Mar: Voice (Trained) 13 against the thug's Mind (Untrained) 8: Mar wins by 5."""
    r = tsl.opposed_roll([4, 2, 6, 1, 3], "Trained", [1, 5, 2, 3, 1], "Untrained")
    assert (r.total, r.defender_total, r.margin, r.winner) == (13, 8, 5, "attacker")
    assert r.band == "success" and r.hit


def test_opposed_tie_goes_to_the_defender():
    r = tsl.opposed_roll([6, 5, 1, 1, 1], "Untrained", [6, 5, 1, 1, 1], "Untrained")
    assert (r.margin, r.winner, r.band, r.hit) == (0, "defender", "failure", False)
    assert "the defender wins ties" in r.explain()
    meet = tsl.opposed_roll([6, 5, 1, 1, 1], "Untrained", [6, 5, 1, 1, 1], "Untrained",
                            bands="meet_is_mixed")
    assert meet.band == "failure"


def test_opposed_crit_and_catastrophic_defence():
    r = tsl.opposed_roll([6, 6, 6, 1, 1], "Trained", [6, 4, 1, 1, 1], "Untrained")
    assert (r.margin, r.band, r.defence_catastrophic) == (8, "crit", True)
    r = tsl.opposed_roll([6, 6, 6, 1, 1], "Trained", [6, 6, 1, 1, 1], "Untrained")
    assert (r.margin, r.band, r.defence_catastrophic) == (6, "success", False)
    close = tsl.opposed_roll([6, 6, 6, 1, 1], "Trained", [6, 6, 1, 1, 1], "Untrained",
                             bands="close_catastrophe")
    assert close.defence_catastrophic and close.band == "success"


def test_opposed_bad_inputs_are_named():
    with pytest.raises(RulesError, match="defender_dice must be 5 faces"):
        tsl.opposed_roll([1, 2, 3, 4, 5], "Trained", [1, 2], "Trained")
    with pytest.raises(RulesError, match="defender_tier must be one of"):
        tsl.opposed_roll([1, 2, 3, 4, 5], "Trained", [1, 2, 3, 4, 5], "trained")


# --- exact odds against enumeration ------------------------------------------------------

@pytest.mark.parametrize("keep", [1, 2, 3, 4, 5])
def test_keep_distribution_matches_enumeration(keep):
    counts = totals(keep)
    dist = tsl.keep_distribution(keep)
    assert dict(dist.items()) == {t: Fraction(c, 6 ** 5) for t, c in counts.items()}


@pytest.mark.parametrize("tier, shift, target", [
    ("Proficient", 0, 11), ("Trained", 0, 11), ("Untrained", 0, 8), ("Untrained", -1, 5),
    ("Proficient", 1, 20), ("Trained", 0, 1), ("Untrained", 0, 40),
])
def test_band_odds_match_enumeration(tier, shift, target):
    keep = tsl.keep_count(tier, shift)
    expected = Counter(standard_band(kept_total(r, keep) - target) for r in ALL_ROLLS)
    odds = tsl.band_odds(tier, target, shift=shift)
    assert odds == {b: Fraction(expected[b], 6 ** 5) for b in tsl.BANDS}
    assert sum(odds.values()) == 1


def test_band_odds_agree_with_resolving_every_roll():
    """Resolve all 7776 rolls with static_roll and count the bands: the same as the odds."""
    counts = Counter(tsl.static_roll(r, "Trained", 12, bands="wide_mixed").band
                     for r in ALL_ROLLS)
    odds = tsl.band_odds("Trained", 12, bands="wide_mixed")
    assert odds == {b: Fraction(counts[b], 6 ** 5) for b in tsl.BANDS}


def test_proficient_against_t11_exact():
    odds = tsl.band_odds("Proficient", 11)
    assert odds["crit"] == Fraction(293, 864)
    assert odds["catastrophic"] == Fraction(1, 7776)  # only 1,1,1,1,1 (total 4) is 7 short


@pytest.mark.parametrize("att, dfn, att_shift, bands", [
    ("Trained", "Untrained", 0, "standard"), ("Proficient", "Proficient", 0, "standard"),
    ("Untrained", "Proficient", -1, "standard"), ("Trained", "Trained", 0, "meet_is_mixed"),
])
def test_opposed_odds_match_enumeration(att, dfn, att_shift, bands):
    ka, kd = tsl.keep_count(att, att_shift), tsl.keep_count(dfn)
    ca, cd = totals(ka), totals(kd)
    expected = Counter()
    for ta, na in ca.items():
        for td, nd in cd.items():
            m = ta - td
            if bands == "standard":
                b = standard_band(m)
            else:
                b = "catastrophic" if m <= -7 else "failure" if m <= 0 else \
                    "mixed" if m <= 2 else "success" if m <= 6 else "crit"
            expected[b] += na * nd
    odds = tsl.opposed_odds(att, dfn, attacker_shift=att_shift, bands=bands)
    assert odds == {b: Fraction(expected[b], 6 ** 10) for b in tsl.BANDS}


def test_opposed_margin_odds_tie_mass():
    c2 = totals(2)
    tie = sum(n * n for n in c2.values())
    margins = tsl.opposed_margin_odds("Untrained", "Untrained")
    assert margins[0] == Fraction(tie, 6 ** 10)
    assert margins[1] == margins[-1]  # same tier on both sides: symmetric
