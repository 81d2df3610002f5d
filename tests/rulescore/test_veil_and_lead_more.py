"""The Veil & Lead: attack plans and their exact odds, escapes, riding checks, treating
grievous wounds, and turning the Hammer to the next token."""

import itertools
from fractions import Fraction
from functools import lru_cache

import pytest

from rulescore import RulesError
from rulescore.dice import DiceSource
from rulescore.systems import veil_and_lead as vl
from rulescore.systems.veil_and_lead import Token


@lru_cache(maxsize=None)
def two_highest_counts(n):
    """Every roll of n d8 (itertools.product): sum of the two highest → how many rolls."""
    counts = {}
    for roll in itertools.product(range(1, 9), repeat=n):
        s = sum(sorted(roll)[-2:])
        counts[s] = counts.get(s, 0) + 1
    return counts


def enumerate_attack(plan, bleed=0):
    """Resolve the plan with every possible roll and tally the results."""
    n = plan.dice_to_roll + bleed
    hit = near = grievous = Fraction(0)
    dealt = {}
    p = Fraction(1, 8 ** n)
    for s, c in two_highest_counts(n).items():
        margin = s + plan.roll_bonus - plan.tn
        if plan.automatic:
            landed, used = False, margin
        elif margin >= 0:
            landed, used = True, margin
        elif plan.stationary_target and plan.band == "Point-Blank":
            landed, used = True, 0
        else:
            landed, used = False, margin
        amount = 0
        if landed:
            hit += c * p
            amount = max(plan.wr + used // 3 + plan.critical + plan.step_modifier - plan.ar
                         + plan.damage_bonus, 0)
            if amount >= 5 and not plan.hardened:
                grievous += c * p
        elif not plan.automatic and margin in (-1, -2):
            near += c * p
        dealt[amount] = dealt.get(amount, Fraction(0)) + c * p
    return hit, near, grievous, dealt


PLANS = [
    dict(attribute=3, skill=3, defense=9, band="Far", cover="Hard Cover", aim_actions=2,
         roll_bonus=2, critical=1),
    dict(attribute=2, skill=2, defense=10, weapon="Bowie Knife", action="Shiv",
         band="Point-Blank", ar=1),
    dict(attribute=2, skill=1, defense=12, band="Point-Blank", stationary_target=True),
    dict(attribute=3, skill=2, defense=9, weapon="Sawed-Off", band="Extreme"),
    dict(attribute=3, skill=3, defense=8, weapon="Buffalo Rifle", ar=1, hardened=True),
    dict(attribute=1, skill=0, defense=9, attacker_conditions=["Suppressed"], roll_bonus=4),
]


@pytest.mark.parametrize("setup", PLANS)
def test_plan_odds_equal_enumeration(setup):
    plan = vl.plan_attack(**setup)
    odds = plan.odds()
    hit, near, grievous, dealt = enumerate_attack(plan)
    assert (odds.p_hit, odds.p_near_miss, odds.p_grievous) == (hit, near, grievous)
    assert dict(odds.damage.items()) == dealt


def test_plan_odds_with_bleed_dice_equal_enumeration():
    plan = vl.plan_attack(attribute=1, skill=1, defense=9)
    hit, near, grievous, dealt = enumerate_attack(plan, bleed=2)
    odds = plan.odds(bleed_dice=2)
    assert (odds.p_hit, odds.p_near_miss, dict(odds.damage.items())) == (hit, near, dealt)
    with pytest.raises(RulesError, match="bleed_dice must be from 0 to 3, got 4"):
        plan.odds(bleed_dice=4)


def test_plan_matches_the_attack():
    setup = PLANS[0]
    plan = vl.plan_attack(**setup)
    assert (plan.pool, plan.dice_to_roll, plan.tn, plan.roll_bonus, plan.tempo) == \
        (6, 6, 15, 5, 4)
    r = vl.attack([2, 3, 5, 6, 7, 8], **setup)
    assert r.trace[:len(plan.trace)] == plan.trace


def test_attack_names_unknown_or_missing_inputs():
    with pytest.raises(RulesError, match="attack does not take atribute"):
        vl.attack([1, 2], atribute=3, skill=1, defense=9)
    with pytest.raises(RulesError, match="attack needs defense"):
        vl.attack([1, 2], attribute=1, skill=1)


def test_called_shot_high_into_melee_never_hits_the_ally():
    r = vl.attack([3, 4], attribute=3, skill=3, defense=9, action="Called Shot",
                  called_location="Head", firing_into_melee=True)
    assert r.pool == 2 and r.margin == -2 and not r.ally_risk
    assert any(s.rule.rulings == ("called_shot_high",) for s in r.trace)
    leg = vl.attack([3, 4], attribute=3, skill=3, defense=9, action="Called Shot",
                    called_location="Leg", firing_into_melee=True)
    assert leg.ally_risk


def test_escape():
    assert vl.escape([6, 5], [5, 5], iron=1, brawl=1, grappler_iron=1,
                     grappler_brawl=1).outcome == "Escaped"
    tie = vl.escape([6, 5], [6, 5, 1], iron=1, brawl=1, grappler_iron=2, grappler_brawl=1)
    assert (tie.outcome, tie.value) == ("Held", 0)
    with pytest.raises(RulesError, match=r"grappler_dice must be 3 d8"):
        vl.escape([6, 5], [6, 5], iron=1, brawl=1, grappler_iron=2, grappler_brawl=1)


def test_ride_check():
    assert vl.ride_check([6, 5, 1], 2, 1).outcome == "Stays in the saddle"
    assert vl.ride_check([6, 4, 1], 2, 1).outcome.startswith("Falls")
    assert vl.ride_check([6, 6, 1], 2, 1, situation="panic").outcome == "The mount panics"
    assert vl.ride_check([7, 6, 1], 2, 1, situation="panic").outcome == \
        "The mount is under control"
    with pytest.raises(RulesError, match=r"faces must be 3 d8"):
        vl.ride_check([6, 5], 2, 1)


@pytest.mark.parametrize("wound, dice, outcome", [
    ("Flesh Wound", [5, 4], "Treated"), ("Flesh Wound", [4, 4], "Untreated"),
    ("Broken Bone", [7, 6], "Treated"), ("Broken Bone", [6, 6], "Untreated"),
    ("Internal Bleeding", [8, 7], "Treated"), ("Internal Bleeding", [8, 6], "Untreated"),
])
def test_treat_grievous(wound, dice, outcome):
    assert vl.treat_grievous(dice, wound).outcome == outcome


@pytest.mark.parametrize("wound, tn", [("Flesh Wound", 9), ("Broken Bone", 13),
                                       ("Internal Bleeding", 15)])
def test_treat_grievous_probability_counts_every_roll(wound, tn):
    """The odds of a Medicine check at the wound's TN, counted over every roll of 3d8 (+1)."""
    reached = sum(c for s, c in two_highest_counts(3).items() if s + 1 >= tn)
    assert vl.treat_grievous_probability(3, wound, roll_bonus=1) == Fraction(reached, 8 ** 3)
    assert vl.records.treatable_wounds() == ("Flesh Wound", "Broken Bone", "Internal Bleeding")
    with pytest.raises(RulesError, match="not treated by a Medicine check"):
        vl.treat_grievous_probability(3, "Arterial Hit")
    with pytest.raises(RulesError, match="pool must be a whole number, got True"):
        vl.treat_grievous_probability(True, wound)


def test_treat_grievous_refusals_and_knit_flesh():
    with pytest.raises(RulesError, match="not treated by a Medicine check: 24 hours rest"):
        vl.treat_grievous([8, 8], "Concussion")
    with pytest.raises(RulesError, match="wound must be one of"):
        vl.treat_grievous([8, 8], "Papercut")
    assert vl.knit_flesh(3, 5, 3) == 8 and vl.knit_flesh(3, 10, 3) == 11
    with pytest.raises(RulesError, match="d3 must be from 1 to 3, got 4"):
        vl.knit_flesh(4, 5, 3)


def test_next_turn_count_example():
    # §I Example of The Count: Caleb at 2, the Enforcer at 4, Maeve at 6.
    tokens = [Token("Caleb", 2, pc=True), Token("Enforcer", 4), Token("Maeve", 6, pc=True)]
    first = vl.next_turn(0, tokens)
    assert (first.value, first.order, first.ticks) == (2, (("Caleb",),), 2)
    tokens[0] = Token("Caleb", vl.advance(2, 4), pc=True, margin=2)
    tokens[2] = Token("Maeve", 6, pc=True, margin=5)
    assert vl.next_turn(3, tokens).order == (("Enforcer",),)
    tokens[1] = Token("Enforcer", vl.advance(4, 5))
    at_six = vl.next_turn(5, tokens)
    assert (at_six.value, at_six.order) == (6, (("Maeve",), ("Caleb",)))


def test_next_turn_wraps_and_acts_now():
    tokens = [Token("A", 3), Token("B", 17)]
    assert vl.next_turn(18, tokens).value == 3 and vl.next_turn(18, tokens).ticks == 5
    assert vl.next_turn(17, tokens).ticks == 0
    with pytest.raises(RulesError, match="tick of C must be from 0 to 19, got 20"):
        vl.next_turn(0, [Token("C", 20)])
    with pytest.raises(RulesError, match="tokens must be a non-empty list"):
        vl.next_turn(0, [])


def test_exposed_counts_once():
    both = vl.attack([4, 4], attribute=1, skill=1, defense=10, cover="Exposed",
                     target_conditions=["Exposed"])
    assert both.tn == 9
    assert vl.attack_tn(10, cover="Exposed", target_conditions=["Exposed"]) == 9
    assert vl.attack_tn(10, cover="Light Cover", target_conditions=["Exposed"]) == 11


@pytest.mark.parametrize("d6, scatter, damage, outcome", [
    (1, False, 2, "Ally hit"), (3, False, 2, "Ally hit"), (4, False, 0, "Clean miss"),
    (4, True, 2, "Ally hit"), (5, True, 0, "Clean miss"), (6, True, 0, "Clean miss"),
])
def test_stray_shot(d6, scatter, damage, outcome):
    r = vl.stray_shot(d6, 4 if scatter else 3, 2 if scatter else 1, scatter=scatter)
    assert (r.value, r.outcome) == (damage, outcome)


def test_effective_speed():
    assert vl.effective_speed(8) == 8
    assert vl.effective_speed(8, prone=True) == 2
    assert vl.effective_speed(9, leg_hit=True) == 4
    assert vl.effective_speed(9, prone=True, leg_hit=True) == 2
    assert vl.effective_speed(1, prone=True) == 1
    with pytest.raises(RulesError, match="prone must be True or False"):
        vl.effective_speed(8, prone="yes")


def brute_ticks(n, bonus):
    """Starting-tick odds by enumerating every roll of n d8."""
    out = {}
    for s, c in two_highest_counts(n).items():
        m = s + bonus - 11
        key = ((6, "Surprised") if m < 0 else (4, "Slow") if m <= 3 else (3, "Ready")
               if m <= 6 else (2, "Fast") if m <= 9 else (0, "Instant"))
        out[key] = out.get(key, Fraction(0)) + Fraction(c, 8 ** n)
    return out


@pytest.mark.parametrize("kw, n, bonus", [
    (dict(quick=2, awareness=1), 3, 0), (dict(quick=3, awareness=2, ambush=True), 5, 2),
    (dict(quick=3, awareness=2, fatigued=True, off_guard=True), 4, -2),
    (dict(quick=2, awareness=2, armour="Ironbrand Suit", supernatural=3), 3, 3),
])
def test_initiative_plan_odds_equal_enumeration(kw, n, bonus):
    plan = vl.plan_initiative(**kw)
    assert (plan.dice_to_roll, plan.roll_bonus, plan.tn) == (n, bonus, 11)
    assert plan.odds() == brute_ticks(n, bonus)
    assert plan.odds(bleed_dice=1) == brute_ticks(n + 1, bonus)
    roll = vl.initiative([8] * n, **kw)
    assert roll.trace[:len(plan.trace)] == plan.trace


def test_a_stray_shot_among_several_allies():
    """The d6 says whether an ally is struck, a die with one face each says which (§VII,
    assumption stray_ally_die); a clean miss reads no second die, one ally needs none."""
    hit = vl.stray_shot_among(["Ada", "Bo", "Cy"], 3, 0, 2, 3)
    assert (hit.struck, hit.value, hit.outcome) == ("Cy", 3, "Cy is hit")
    assert hit.struck == vl.stray_ally(["Ada", "Bo", "Cy"], 3).value
    drawn = vl.stray_shot_among(["Ada", "Bo", "Cy"], 3, 0, dice=DiceSource.typed([2, 3]))
    assert drawn.struck == "Cy" and drawn.trace == hit.trace
    wide = vl.stray_shot_among(["Ada", "Bo"], 4, 2, dice=DiceSource.typed([5]), scatter=True)
    assert (wide.struck, wide.value) == (None, 0)
    alone = vl.stray_shot_among(["Ada"], 4, 1, 4, scatter=True)
    assert (alone.struck, alone.value) == ("Ada", 3)
    with pytest.raises(RulesError, match="ally_die must be from 1 to 3"):
        vl.stray_shot_among(["Ada", "Bo", "Cy"], 3, 0, 2, 4)
    with pytest.raises(RulesError, match="too many dice"):
        vl.stray_shot_among(["Ada", "Bo"], 3, 0, dice=DiceSource.typed([5, 1]))


def test_the_chances_of_a_stray_shot_striking_each_ally():
    """1–3 on the d6 (1–4 for a Scatter weapon) strikes an ally, each alike."""
    odds = vl.stray_shot_chances(["Ada", "Bo", "Cy"])
    assert odds == {None: Fraction(1, 2), "Ada": Fraction(1, 6), "Bo": Fraction(1, 6),
                    "Cy": Fraction(1, 6)}
    assert vl.stray_shot_chances(["Ada"], scatter=True) == {None: Fraction(1, 3),
                                                             "Ada": Fraction(2, 3)}


@pytest.mark.parametrize("wound, dice, headline, days", [
    ("Flesh Wound", [5, 4], "Treated: the Flesh Wound is cleared", 0),
    ("Broken Bone", [7, 6], "Treated: the Broken Bone is set and clears after 1 day of recovery "
     "(until then: affected limb is unusable)", 1),
    ("Broken Bone", [6, 6], "Not treated: the Broken Bone stays", 0),
    ("Internal Bleeding", [8, 7], "Treated: the Internal Bleeding is cleared", 0),
])
def test_treat_grievous_says_what_the_treatment_column_says(wound, dice, headline, days):
    """§IX table: a Broken Bone's Medicine TN 13 is followed by 1 day of recovery, so a
    success sets it rather than clearing it; the other checks clear their wound."""
    done = vl.treat_grievous(dice, wound)
    assert (done.headline, done.recovery_days, done.wound) == (headline, days, wound)
    assert done.treated == (done.outcome == "Treated")
    assert done.trace[-1].text == headline
    assert vl.records.grievous_by_name("Broken Bone").recovery_days == 1


def test_uses_weapon_reads_the_actions_tables_weapon_column():
    """§III, §V: the attacks, Aim, the reloads and Draw Weapon are done with the weapon; a
    Rush / Charge only when it ends in a melee attack; Recover, moving and healing are not."""
    armed = [a for a in vl.actions() if vl.uses_weapon(a)]
    assert armed == ["Draw Weapon", "Quick Shot", "Shiv", "Steady Shot", "Strike", "Aim",
                     "Reload (Speed)", "Called Shot", "Heavy Cleave", "Reload (Manual)"]
    assert not vl.uses_weapon("Recover") and not vl.uses_weapon("Rush / Charge")
    assert vl.uses_weapon("Rush / Charge", attack_on_arrival=True)
    with pytest.raises(RulesError, match="attack_on_arrival is only for Rush / Charge"):
        vl.uses_weapon("Recover", attack_on_arrival=True)
    with pytest.raises(RulesError, match="attack_on_arrival must be"):
        vl.uses_weapon("Rush / Charge", attack_on_arrival=1)


@pytest.mark.parametrize("action, flag", [("Sprint", True), ("Recover", True),
                                          ("Rush / Charge", 1), ("Strike", "yes")])
def test_tempo_and_uses_weapon_read_an_attack_on_arrival_alike(action, flag):
    """§V Movement Actions: only a Rush / Charge ends in an attack on arrival, and the flag is
    yes or no; tempo and uses_weapon refuse the same input in the same words."""
    with pytest.raises(RulesError) as by_tempo:
        vl.tempo(action, "Hatchet", attack_on_arrival=flag)
    with pytest.raises(RulesError) as by_use:
        vl.uses_weapon(action, attack_on_arrival=flag)
    assert str(by_tempo.value) == str(by_use.value)
