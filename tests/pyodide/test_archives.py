"""The groups' archives a reader's browser unpacks (rulebook.wasm.bundle.build_archives): named
by the digest of their bytes, and holding bytecode compiled by Pyodide's own Python, so that a
chapter page imports its tools without compiling them."""

import hashlib
import json
import zipfile

from rulebook.wasm import node
from rulebook.wasm.bundle import ARCHIVE_GROUPS, OUR_PACKAGES, SITE_SHIPPED

# Run in Pyodide: unpack the engine's and the widgets' archives as the loader does, then import
# the page module, start it and run a chapter's first cells (its navigation reads the table of
# contents with PyYAML, imported inside a function), noting every module compiled from source.
UNPACK_AND_RUN = """
import importlib, importlib.machinery, json, os, site, zipfile
installed = site.getsitepackages()[0]
for name in json.loads(os.environ["ARCHIVES"]):
    with zipfile.ZipFile("/bundle/" + name) as z:
        z.extractall(installed)
importlib.invalidate_caches()
compiled = []
plain = importlib.machinery.SourceFileLoader.source_to_code
def noted(self, data, path, *args, **kwargs):
    compiled.append(path)
    return plain(self, data, path, *args, **kwargs)
importlib.machinery.SourceFileLoader.source_to_code = noted
from rulebook.wasm import page
page.start(lambda text, buffers: None)
page.run_cell("from widgets.book import chapter_nav\\nnav = chapter_nav('00_dice/dice')")
shown = json.loads(page.run_cell("from widgets.dice import DiceRoller\\nDiceRoller('2d6')"))
print("RESULT", json.dumps({"compiled": compiled, "shown": len(shown)}))
"""


def test_each_group_has_one_archive_named_by_its_digest(bundle):
    archives = json.loads((bundle / "bundle.json").read_text(encoding="utf-8"))["archives"]
    assert [a["group"] for a in archives] == list(ARCHIVE_GROUPS)
    for a in archives:
        path = bundle / a["file"]
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
        assert path.name == f"{a['group']}-{digest}.zip"
        assert path.stat().st_size == a["bytes"]
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
        assert any(n.endswith(".cpython-313.pyc") for n in names), a["file"]
        assert not any("/tests/" in n for n in names), a["file"]


def test_a_page_imports_its_tools_from_bytecode_without_compiling(bundle):
    archives = json.loads((bundle / "bundle.json").read_text(encoding="utf-8"))["archives"]
    files = [a["file"] for a in archives if a["group"] in ("engine", "widgets")]
    run = node.run(bundle, ["--groups", "-", "--mount", f"{bundle}:/bundle",
                            "--env", f"ARCHIVES={json.dumps(files)}",
                            "--python", UNPACK_AND_RUN], timeout=600)
    assert run.code == 0, run.stderr[-3000:]
    line = next(line for line in run.stdout.splitlines() if line.startswith("RESULT "))
    result = json.loads(line[len("RESULT "):])
    assert result["shown"] == 1
    assert [p for p in result["compiled"] if "site-packages" in p] == []


def _archive(bundle, group: str) -> zipfile.ZipFile:
    archives = json.loads((bundle / "bundle.json").read_text(encoding="utf-8"))["archives"]
    return zipfile.ZipFile(bundle / next(a["file"] for a in archives if a["group"] == group))


def test_every_module_of_our_packages_ships_with_its_bytecode(bundle):
    """A page imports some of our modules only when the reader clicks: each has its bytecode
    beside it, so no phone compiles our code."""
    with _archive(bundle, "engine") as z:
        names = set(z.namelist())
    ours = sorted(n for n in names if n.split("/")[0] in OUR_PACKAGES and n.endswith(".py"))
    assert {n.split("/")[0] for n in ours} == set(OUR_PACKAGES)
    for name in ours:
        folder, _, file = name.rpartition("/")
        assert f"{folder}/__pycache__/{file[:-3]}.cpython-313.pyc" in names, name


def test_the_site_package_ships_only_what_a_page_runs(bundle):
    """The build and the servers of our site package stay out of a reader's download."""
    site = OUR_PACKAGES[-1]
    with _archive(bundle, "engine") as z:
        kept = {n for n in z.namelist() if n.startswith(site + "/") and "__pycache__" not in n}
    assert kept == set(SITE_SHIPPED)
