"""The bundle's pins agree with pyproject's ranges: the engine in the browser runs the
dependencies the live book is allowed to run."""

import tomllib

import pytest
from packaging.requirements import Requirement

from rulebook.wasm.bundle import (
    ENGINE_SDISTS,
    ENGINE_WHEELS,
    FORMULA_WHEELS,
    WIDGET_WHEELS,
)

from .conftest import ROOT

DEPENDENCIES = {Requirement(r).name.lower(): Requirement(r) for r in tomllib.loads(
    (ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]}


@pytest.mark.parametrize("name,version", sorted({**ENGINE_WHEELS, **ENGINE_SDISTS,
                                                 "sympy": FORMULA_WHEELS["sympy"]}.items()))
def test_each_engine_pin_is_within_pyprojects_range(name, version):
    assert version in DEPENDENCIES[name].specifier, (name, version, DEPENDENCIES[name])


@pytest.mark.parametrize("name,version", sorted(WIDGET_WHEELS.items()))
def test_each_widget_pin_is_the_version_the_live_book_runs(name, version):
    from importlib.metadata import version as installed
    assert installed(name) == version, name
