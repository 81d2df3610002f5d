"""Reactions, leaving an Engaged enemy, stray shots among allies, laudanum, medical care."""

import pytest

from rulescore import RulesError
from rulescore.systems import veil_and_lead as vl


def test_one_reaction_between_turns_for_mettle():
    assert vl.reaction_names() == ("Dive", "Dodge", "Parry", "Intercept", "Steel", "Push")
    done = vl.free_reaction("Dodge", 3)
    assert (done.allowed, done.value, done.outcome) == (True, 2, "Dodge")
    assert "Tempo 0 and 1 Mettle" in done.trace[0].text
    assert "Mettle 3 − 1 = 2" in done.trace[-1].text
    again = vl.free_reaction("Parry", 2, reactions_since_turn=1)
    assert (again.allowed, again.value) == (False, 2)
    assert "already 1 Reaction since your last turn (limit 1)" in again.trace[-1].text


def test_surprised_and_broke_characters_are_refused():
    surprised = vl.free_reaction("Dive", 4, surprised=True)
    assert not surprised.allowed and surprised.value == 4
    assert surprised.trace[-1].rule.section == "II The Surprised State"
    broke = vl.free_reaction("Dive", 0)
    assert not broke.allowed and "0 Mettle left, the Reaction needs 1" in broke.trace[-1].text
    exactly = vl.free_reaction("Steel", 1)
    assert exactly.allowed and exactly.value == 0


@pytest.mark.parametrize("kwargs, message", [
    ({"reaction": "Riposte", "mettle": 1}, "reaction must be one of Dive"),
    ({"reaction": "Dive", "mettle": -1}, "mettle must be 0 or more"),
    ({"reaction": "Dive", "mettle": 1, "reactions_since_turn": -1}, "reactions_since_turn"),
    ({"reaction": "Dive", "mettle": 1, "surprised": "yes"}, "surprised must be True or False"),
])
def test_reaction_bad_input(kwargs, message):
    with pytest.raises(RulesError, match=message):
        vl.free_reaction(**kwargs)


def test_engaged_exit():
    assert vl.engaged_exit("Move away").value is True
    shot = vl.engaged_exit("Ranged attack")
    assert shot.value is True and "spend 1 Mettle for a free melee attack" in shot.trace[0].text
    for way in ("Disengage", "Fighting withdrawal", "Eliminate the enemy",
                "An ally pulls them away"):
        assert vl.engaged_exit(way).value is False, way
    assert "Tempo 4" in vl.engaged_exit("Disengage").trace[0].text
    with pytest.raises(RulesError, match="way must be one of Move away"):
        vl.engaged_exit("Teleport")


def test_stray_ally_is_picked_by_a_die_per_ally():
    allies = ["Ada", "Bo", "Cy"]
    assert [vl.stray_ally(allies, d).value for d in (1, 2, 3)] == allies
    hit = vl.stray_ally(allies, 2)
    assert "roll d3 (1 Ada, 2 Bo, 3 Cy)" in hit.trace[0].text
    assert vl.stray_ally(["Ada"], 1).value == "Ada"
    one_face_each = r"die must be from 1 to 3 \(one face for each of the 3 allies\)"
    with pytest.raises(RulesError, match=one_face_each + ", got 4"):
        vl.stray_ally(allies, 4)
    with pytest.raises(RulesError, match=one_face_each + ", got 0"):
        vl.stray_ally(allies, 0)
    with pytest.raises(RulesError, match="allies must be different names"):
        vl.stray_ally(["Ada", "Ada"], 1)
    with pytest.raises(RulesError, match="allies must be one or more non-empty names"):
        vl.stray_ally([], 1)
    with pytest.raises(RulesError, match="allies must be a list of names"):
        vl.stray_ally("Ada", 1)


def test_laudanum_clears_strain_not_below_zero():
    dose = vl.laudanum(2, 5)
    assert dose.value == 3 and "Tempo 4" in dose.trace[0].text
    assert vl.laudanum(3, 1).value == 0
    assert "never below 0" in vl.laudanum(3, 1).trace[-1].text
    with pytest.raises(RulesError, match="d3 must be from 1 to 3, got 4"):
        vl.laudanum(4, 5)
    with pytest.raises(RulesError, match="strain must be 0 or more"):
        vl.laudanum(1, -1)


def test_medical_attention():
    # IRON 3: full Vitality 11.
    assert vl.medical_attention(4, 3, 23).value == 4
    assert vl.medical_attention(4, 3, 24).value == 11
    wounded = vl.medical_attention(-2, 3, 24, grievous_wounds=1)
    assert wounded.value == -2 and wounded.outcome == "Under care"
    healed = vl.medical_attention(-2, 3, 48, grievous_wounds=2)
    assert healed.value == 11 and "2 Grievous Wounds treated and cleared" in healed.trace[-1].text
    assert "§50–200" in healed.trace[0].text
    with pytest.raises(RulesError, match="vitality must be 11 or less"):
        vl.medical_attention(12, 3, 24)
    with pytest.raises(RulesError, match="hours must be 0 or more"):
        vl.medical_attention(5, 3, -1)


def test_reaction_numbers_are_read_from_the_data(tmp_path):
    import shutil
    from rulescore.systems.veil_and_lead._system import DATA
    copy = tmp_path / "data"
    shutil.copytree(DATA.folder, copy)
    path = copy / "reactions.toml"
    path.write_text(path.read_text().replace(
        'setting = "mettle_cost"          # assumption reaction_cost: the chapter names no amount\nvalue = 1',
        'setting = "mettle_cost"\nvalue = 2'))
    with DATA.using(copy):
        assert vl.free_reaction("Dodge", 3).value == 1


# --- properties: a result or a RulesError naming the bad input ----------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from rulescore.trace import Resolution  # noqa: E402

anything = st.one_of(st.integers(-5, 60), st.none(), st.text(max_size=6), st.booleans())


def _result_or_named_error(call, names):
    try:
        result = call()
    except RulesError as exc:
        assert any(n in str(exc) for n in names), str(exc)
        return
    assert isinstance(result, Resolution)


@settings(deadline=None, max_examples=150)
@given(st.one_of(st.sampled_from(vl.reaction_names()), anything), anything, anything, anything)
def test_free_reaction_result_or_error(reaction, mettle, since, surprised):
    _result_or_named_error(
        lambda: vl.free_reaction(reaction, mettle, reactions_since_turn=since,
                                 surprised=surprised),
        ["reaction", "mettle", "reactions_since_turn", "surprised"])


@settings(deadline=None, max_examples=150)
@given(st.one_of(st.lists(st.text(max_size=4), max_size=5), anything), anything, anything,
       anything, anything)
def test_other_reactions_result_or_error(allies, die, strain, hours, wounds):
    _result_or_named_error(lambda: vl.stray_ally(allies, die), ["allies", "die"])
    _result_or_named_error(lambda: vl.laudanum(die, strain), ["d3", "strain"])
    _result_or_named_error(lambda: vl.medical_attention(strain, 3, hours, grievous_wounds=wounds),
                           ["vitality", "hours", "grievous_wounds"])


def test_mounted_speed():
    assert vl.mounted_speed(12) == 12
    with pytest.raises(RulesError, match="horse_speed must be 1 or more, got 0"):
        vl.mounted_speed(0)


def test_gm_pacing_lists():
    assert len(vl.dragging_signs()) == 4 and "30 ticks" in vl.dragging_signs()[0]
    assert vl.stall_remedies() == ("Environmental hazard", "Reinforcements or retreat",
                                   "Tension Pool rupture", "Narrative cut")
    steps = vl.aftermath_steps()
    assert len(steps) == 5 and "Tension Pool" in steps[3]


def test_narrative_cut():
    cut = vl.narrative_cut(7, 3)
    assert cut.value == 14
    assert "7 spent × 2 = 14" in cut.trace[0].text
    assert "1 each for 3 characters (3 in all)" in cut.trace[1].text
    assert vl.narrative_cut(0, 1).value == 0
    with pytest.raises(RulesError, match="characters must be 1 or more"):
        vl.narrative_cut(3, 0)
    with pytest.raises(RulesError, match="ammunition_spent must be 0 or more"):
        vl.narrative_cut(-1, 2)
