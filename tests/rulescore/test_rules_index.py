"""Every system's rules index points at real functions and real tests (DESIGN §8)."""

import ast
import importlib
from pathlib import Path

import pytest

from rulescore.rules_index import load_rules_index
from rulescore.systems import names

ROOT = Path(__file__).resolve().parents[2]
SYSTEMS = names()


def _test_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    return {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}


@pytest.mark.parametrize("system", SYSTEMS)
def test_rules_index_entries_resolve(system):
    check_rules_index(system)


def check_rules_index(system: str, root: Path = ROOT) -> None:
    """Every implemented entry of *system*'s index names a public function and a test that
    exists under *root* (a checkout; the sixth-system walk-through passes its own)."""
    module = importlib.import_module(f"rulescore.systems.{system}")
    entries = load_rules_index(system)
    assert entries, f"{system} has an empty rules index"
    for e in entries:
        if e.status == "out_of_scope":
            continue
        target = module
        for part in e.function.split("."):
            assert hasattr(target, part), f"{system}: {e.section}: no {e.function}"
            target = getattr(target, part)
        assert e.function.split(".")[0] in module.__all__, f"{e.function} is not public"
        file, _, name = e.test.partition("::")
        assert (root / file).is_file(), f"{system}: {e.section}: no test file {file}"
        assert name in _test_names(root / file), f"{system}: {e.section}: no test {e.test}"
