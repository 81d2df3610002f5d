"""Loaders of the named assumptions and of the rules index."""

import pytest

from rulescore.assumptions import load_assumptions
from rulescore.errors import TableError
from rulescore.rules_index import load_rules_index
from rulescore.systems import names


def test_assumptions_load_from_toml(tmp_path):
    path = tmp_path / "assumptions.toml"
    path.write_text('''
[[assumption]]
id = "nd"
title = "How nD is rolled"
seed_says = "silent"
ruling = "roll n d6"
alternatives = ["pool vs TN"]
option = "nd_rule"
''')
    (a,) = load_assumptions("demo", path)
    assert (a.ref, a.option, a.alternatives) == ("demo:nd", "nd_rule", ("pool vs TN",))


def test_assumption_missing_field_and_repeated_id(tmp_path):
    path = tmp_path / "a.toml"
    path.write_text('[[assumption]]\nid = "x"\ntitle = "t"\nseed_says = "s"\n')
    with pytest.raises(TableError, match="missing ruling"):
        load_assumptions("demo", path)
    path.write_text('[[assumption]]\nid="x"\ntitle="t"\nseed_says="s"\nruling="r"\n' * 2)
    with pytest.raises(TableError, match="repeat"):
        load_assumptions("demo", path)


def test_a_file_that_is_not_toml_is_named_in_the_error(tmp_path):
    path = tmp_path / "rules.toml"
    path.write_text('[[rule]]\nsection = "§1\n')        # the string never closes
    with pytest.raises(TableError, match=r"^rules\.toml is not valid TOML: "):
        load_rules_index("demo", path)
    path = tmp_path / "assumptions.toml"
    path.write_text("[[assumption]]\nid = = 1\n")
    with pytest.raises(TableError, match=r"^assumptions\.toml is not valid TOML: "):
        load_assumptions("demo2", path)


def test_rules_index_requires_function_test_or_reason(tmp_path):
    path = tmp_path / "rules.toml"
    path.write_text('[[rule]]\nsection = "A"\nfunction = "f"\n')
    with pytest.raises(TableError, match="needs function and test"):
        load_rules_index("demo", path)
    path.write_text('[[rule]]\nsection = "B"\nstatus = "out_of_scope"\n')
    with pytest.raises(TableError, match="without a reason"):
        load_rules_index("demo", path)
    path.write_text('[[rule]]\nsection = "C"\nstatus = "out_of_scope"\nreason = "not in seed"\n')
    assert load_rules_index("demo", path)[0].reason == "not in seed"


def test_control_and_tool_go_together_with_an_option(tmp_path):
    path = tmp_path / "a.toml"
    base = 'id = "a"\ntitle = "T"\nseed_says = "S"\nruling = "R"\n'
    path.write_text("[[assumption]]\n" + base + 'option = "o"\ncontrol = "C"\n')
    with pytest.raises(TableError, match="control and tool go together"):
        load_assumptions("x", path)
    path.write_text("[[assumption]]\n" + base + 'control = "C"\ntool = "the T tool"\n')
    with pytest.raises(TableError, match="with the option they switch"):
        load_assumptions("x", path)
    path.write_text("[[assumption]]\n" + base + 'option = "o"\ncontrol = "C"\ntool = "the T"\n')
    (a,) = load_assumptions("x", path)
    assert (a.option, a.control, a.tool) == ("o", "C", "the T")


SYSTEMS = names()


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_named_control_is_a_label_of_a_tool(system):
    """An assumption that says which control switches it names a label a tool really has."""
    from pathlib import Path
    widgets = Path(__file__).resolve().parents[2] / "widgets"
    source = "".join(p.read_text(encoding="utf-8") for p in widgets.glob("*.py"))
    for a in load_assumptions(system):
        if a.control:
            assert f'"{a.control}"' in source, f"{system}:{a.id}: no tool labels a control {a.control!r}"


# The readings a tool lets the reader switch, per system. A new switch is added here with the
# label of its control, so a switch that silently disappears from the data fails this test.
SWITCHED = {
    "veil_and_lead": {"exposure_by_tempo"},
    "percentile": {"dodge_equal_rolls", "grievous_arm_defence", "spoiled_attack"},
    "tsl": {"armour_then_impact", "band_thresholds", "beat_means_exceed", "out_of_zone", "stress_pool_size", "tier_limits"},
    "exploding_d6": {"cover_stacking", "prevent_order"},
    "range_bands": {"criticals", "crowd_targets", "miss_by", "nd_check"},
}


def test_every_system_lists_its_switches():
    """SWITCHED is keyed by the systems the registry finds: a new system adds its entry (an
    empty set if no tool switches any of its readings), a removed one drops it."""
    missing = sorted(set(SYSTEMS) - set(SWITCHED))
    unknown = sorted(set(SWITCHED) - set(SYSTEMS))
    assert not missing, f"add {missing} to SWITCHED (the readings its tools let a reader switch)"
    assert not unknown, f"SWITCHED names {unknown}, which the registry does not find"


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_switches_the_tools_offer(system):
    assert system in SWITCHED, f"add {system!r} to SWITCHED (see test_every_system_lists_its_switches)"
    assert {a.id for a in load_assumptions(system) if a.control} == SWITCHED[system]
