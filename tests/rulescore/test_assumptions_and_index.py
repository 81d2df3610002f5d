"""Loaders of the named assumptions and of the rules index."""

import pytest

from rulescore.assumptions import load_assumptions
from rulescore.errors import TableError
from rulescore.rules_index import load_rules_index


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
