"""Without rtoml (Python in the browser has no compiled wheel of it) the engine reads every data
file through the standard library's tomllib, to the same data, and refuses bad TOML the same way."""

from pathlib import Path

import pytest

from rulescore import tables
from rulescore.errors import TableError

DATA_FILES = sorted(Path(tables.__file__).parent.rglob("*.toml"))


@pytest.fixture
def no_rtoml(monkeypatch):
    monkeypatch.setattr(tables, "rtoml", None)


def test_there_are_data_files_to_compare():
    assert len(DATA_FILES) >= 10


@pytest.mark.parametrize("path", DATA_FILES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_each_data_file_reads_the_same_without_rtoml(path, monkeypatch):
    text = path.read_text(encoding="utf-8")
    with_rtoml = tables.read_toml(text, path.name)
    monkeypatch.setattr(tables, "rtoml", None)
    assert tables.read_toml(text, path.name) == with_rtoml


@pytest.mark.parametrize("text", ["a = ", "[t]\nx = 1\n[t]\nx = 2", 'k = "open'])
def test_bad_toml_is_refused_naming_the_file_either_way(text, no_rtoml):
    with pytest.raises(TableError, match=r"^rules\.toml is not valid TOML: "):
        tables.read_toml(text, "rules.toml")


def test_tables_build_the_same_from_the_fallback_reading(monkeypatch):
    table_files = [p for p in DATA_FILES if p.name != "rules.toml" and "assumption" not in p.name]
    texts = {p: p.read_text(encoding="utf-8") for p in table_files}
    built = {p: tables.parse_tables(t, p.name) for p, t in texts.items()}
    monkeypatch.setattr(tables, "rtoml", None)
    assert {p: tables.parse_tables(t, p.name) for p, t in texts.items()} == built
    assert sum(len(b) for b in built.values()) >= 20
