"""docs/adding-a-system.md, followed: a small sixth system written with the engine and test
files the guide lists (each one a code block of the guide) is found by the registry and passes
the generic checks every system passes (rules index, assumptions, tables, the data override,
the engine contract, the book's rulings and printed tables)."""

from __future__ import annotations

import importlib.util
import re
import shutil
import sys
from pathlib import Path

import pytest

import rulescore.systems
from rulescore.assumptions import load_assumptions
from rulescore.systems import SystemData, names, registry, system
from tests.rulescore import contract
from tests.rulescore.contract_examples import EXAMPLES, GUESSES
from tests.rulescore.test_assumptions_and_index import SWITCHED
from tests.rulescore.test_rules_index import check_rules_index

NAME = "sixth"

#: The files of the guide's walk-through, by path under the checkout (the guide shows the same).
FILES = {
    f"rulescore/systems/{NAME}/__init__.py": '''\
"""The sixth system: a duel roll of 2d6 read on one table (the walk-through of
docs/adding-a-system.md)."""

from .duel import reading

__all__ = ["reading"]
''',
    f"rulescore/systems/{NAME}/_system.py": '''\
"""The sixth system's rules text and data: every module of the system reads them through
:data:`DATA`."""

from rulescore.systems import SystemData

DATA = SystemData("sixth")
''',
    f"rulescore/systems/{NAME}/duel.py": '''\
"""The duel roll: 2d6, read on the outcome table (§Duel)."""

from __future__ import annotations

from rulescore.errors import require_int
from rulescore.trace import Resolution, step

from ._system import DATA


def reading(total: int) -> Resolution:
    """What a 2d6 *total* does, from the outcome table (§Duel)."""
    total = require_int("total", total, minimum=2, maximum=12)
    row = DATA.table("duel", "outcomes").lookup(total)
    return Resolution(value=total, outcome=row["result"], trace=(
        step(f"Total {total}: {row['result']}", DATA.rule("Duel"), total=total),))
''',
    f"rulescore/systems/{NAME}/data/duel.toml": '''\
[outcomes]
title = "Duel outcomes"
source = "§Duel"
columns = ["total", "result"]
range_column = "total"
covers = [2, 12]
[[outcomes.rows]]
total = "2-6"
result = "miss"
[[outcomes.rows]]
total = "7-9"
result = "graze"
[[outcomes.rows]]
total = "10-12"
result = "hit"
''',
    f"rulescore/systems/{NAME}/data/rules.toml": '''\
[[rule]]
section = "Duel"
summary = "Roll 2d6: 2-6 misses, 7-9 grazes, 10-12 hits"
function = "reading"
test = "tests/rulescore/test_sixth.py::test_a_ten_hits"
''',
    f"rulescore/systems/{NAME}/data/assumptions.toml": '''\
[[assumption]]
id = "double_six"
title = "What a double six does"
seed_says = "Nothing beyond the table."
ruling = "A 12 is an ordinary hit."
alternatives = ["A 12 hits twice"]
''',
    f"tests/rulescore/test_{NAME}.py": '''\
import shutil

from rulescore.systems import sixth
from rulescore.systems.sixth._system import DATA


def test_a_ten_hits():
    assert sixth.reading(10).outcome == "hit"


def test_the_table_is_data(tmp_path):
    shutil.copytree(DATA.folder, tmp_path / "data")
    path = tmp_path / "data" / "duel.toml"
    path.write_text(path.read_text().replace('"7-9"', '"7-10"').replace('"10-12"', '"11-12"'))
    with DATA.using(tmp_path / "data"):
        assert sixth.reading(10).outcome == "graze"
''',
}


GUIDE = Path(__file__).resolve().parents[2] / "docs" / "adding-a-system.md"


def test_the_guide_shows_every_file_it_lists():
    blocks = re.findall(r"```(?:python|toml)\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)
    for path, text in FILES.items():
        assert text in blocks, f"docs/adding-a-system.md no longer shows {path} as written here"
        assert f"`{path.replace(NAME, 'sixth')}`" in GUIDE.read_text(encoding="utf-8"), path


@pytest.fixture
def sixth(tmp_path, monkeypatch):
    """The walk-through's files written into *tmp_path* (a stand-in checkout), and its
    ``rulescore/systems`` folder added to where the registry looks."""
    for path, text in FILES.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    monkeypatch.setattr(rulescore.systems, "__path__",
                        [*rulescore.systems.__path__, str(tmp_path / "rulescore" / "systems")])
    yield tmp_path
    for module in [m for m in sys.modules if m.startswith(f"rulescore.systems.{NAME}")]:
        del sys.modules[module]
    rulescore.systems._package_folder.cache_clear()


def test_the_registry_finds_the_new_system(sixth):
    assert NAME in names()
    data = system(NAME)
    assert isinstance(data, SystemData) and registry()[NAME] is data
    assert data.folder == sixth / "rulescore" / "systems" / NAME / "data"


def test_the_new_system_passes_the_generic_checks(sixth):
    check_rules_index(NAME, root=sixth)
    (ruling,) = load_assumptions(NAME)
    assert ruling.ref == "sixth:double_six"
    assert system(NAME).assumptions() == (ruling,)
    path = sixth / "tests" / "rulescore" / f"test_{NAME}.py"
    spec = importlib.util.spec_from_file_location(f"test_{NAME}", path)
    test_module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(test_module)
    test_module.test_a_ten_hits()
    copy = sixth / "copy"
    copy.mkdir()
    test_module.test_the_table_is_data(copy)


def test_the_new_system_keeps_the_engine_contract(sixth):
    targets = [t for t in contract.targets() if t.system == NAME]
    assert [t.key for t in targets] == ["sixth.reading"]
    base = contract.base_arguments(targets[0], EXAMPLES, GUESSES)
    assert base is not None
    assert contract.call(targets[0], base, None).problem is None
    assert contract.call(targets[0], {"total": 13}, "total").problem is None


def test_the_new_system_reads_an_edited_copy_of_its_data(sixth, tmp_path):
    from rulescore.systems import sixth as six
    data = system(NAME)
    copy = tmp_path / "edited"
    shutil.copytree(data.folder, copy)
    text = (copy / "duel.toml").read_text()
    (copy / "duel.toml").write_text(text.replace('"7-9"', '"7-10"').replace('"10-12"', '"11-12"'))
    with data.using(copy):
        assert six.reading(10).outcome == "graze"
    assert six.reading(10).outcome == "hit"
    assert six.reading(10).trace[0].rule == data.rule("Duel")


def test_the_book_shows_its_rulings_and_tables(sixth):
    from widgets.book import file_table_html, rulings
    assert "What a double six does" in rulings(NAME).data
    assert "Duel outcomes" in file_table_html(NAME, "duel", "outcomes")


def test_switched_must_name_the_new_system(sixth):
    """The one line a new system adds to an existing test: its entry in SWITCHED, which the
    registry-driven check asks for by name."""
    assert set(names()) - set(SWITCHED) == {NAME}
