"""The Pyodide bundle: npm's ``pyodide`` runtime and local wheels, built from the registries only.

:func:`build_bundle` fills ``<project>/_build/pyodide/``:

- ``runtime/``: the files of npm's ``pyodide`` package at :data:`PYODIDE` (the WebAssembly
  CPython, its standard library and loader; no wheels, not even micropip);
- ``wheels/``: a wheel of our distribution (rulescore, widgets and the site package, built from
  the working tree), the pure wheels of :data:`ENGINE_WHEELS` and :data:`TEST_WHEELS` from PyPI,
  and PyYAML built here from its source without libyaml (PyPI has no WebAssembly wheel of it);
- ``archives/<group>-<digest>.zip``: for each group a reader's browser loads (``engine``,
  ``widgets``, ``formulas``), its wheels installed into one folder by Pyodide itself under
  Node.js, with every module compiled to bytecode there (Pyodide's Python, so its magic number;
  unchecked hash-based ``.pyc``, which the import system uses without reading the source), in
  one zip. A page unpacks one file per group and imports without compiling; the name carries
  the digest of the archive's bytes, so a changed engine gets a new address and a browser that
  kept the old one for a year never uses it again;
- ``bundle.json``: what is there, each wheel with its group (``engine``, ``widgets``,
  ``formulas`` or ``test``) and size, and each group's archive.

Each third-party file is fetched once per version; our wheel is rebuilt when a source file
changes, and a group's archive when one of its wheels does. So a rebuild needs no network while
``_build/`` is kept.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from ..build import BookBuildError, _npm_pack, _unpack
from . import node

PYODIDE = ("pyodide", "0.29.5")   # Python 3.13 in WebAssembly

# Pure wheels the engine needs at run time, exact versions (icepool within pyproject's range,
# tests/pyodide/test_bundle.py checks it).
ENGINE_WHEELS = {"icepool": "2.1.3"}
# Built here from the sdist with PYYAML_FORCE_LIBYAML=0: the pure-Python loader and dumper.
ENGINE_SDISTS = {"pyyaml": "6.0.3"}
# Only code that renders a formula as LaTeX imports sympy (rulescore.formulas): a group of its
# own, so a page without formulas never fetches it.
FORMULA_WHEELS = {"sympy": "1.14.0", "mpmath": "1.3.0"}
# What the chapters' tools import: ipywidgets and comm, and IPython (ipywidgets imports it
# whole) with its pure dependencies, at the versions the live book runs (tests/pyodide/
# test_bundle.py checks them against this environment). jedi is left out: IPython imports it
# only for completion, and only if it is there. pygments is also in the test group.
WIDGET_WHEELS = {"ipywidgets": "8.1.9", "comm": "0.2.3", "traitlets": "5.16.1",
                 "ipython": "9.18.1", "ipython_pygments_lexers": "1.1.1",
                 "matplotlib-inline": "0.2.2", "prompt_toolkit": "3.0.53", "wcwidth": "0.9.4",
                 "pygments": "2.21.0", "stack_data": "0.6.3", "asttokens": "3.0.2",
                 "executing": "2.3.0", "pure_eval": "0.2.4"}
# pytest and what the engine's tests import. Hypothesis 6.156 and later carry a compiled core
# (no pure wheel); 6.155.7 is the newest pure one.
TEST_WHEELS = {"pytest": "9.2.0", "pluggy": "1.7.0", "iniconfig": "2.3.1", "packaging": "26.4",
               "pygments": "2.21.0", "hypothesis": "6.155.7", "attrs": "26.1.0",
               "sortedcontainers": "2.4.0"}

OUR_SOURCES = ("pyproject.toml", "README.md", "jupyter_book.yml", "rulescore", "widgets",
               "rulebook")
OUR_NAME = "rulebook"
# The groups a reader's browser loads, each as one archive with bytecode (the test group runs
# under Node.js only, from the wheels).
ARCHIVE_GROUPS = ("engine", "widgets", "formulas")
ARCHIVE_DATE = (1980, 1, 1, 0, 0, 0)    # one date for every member: same content, same bytes
# Our packages, every module of which a page's archive holds compiled; of the last, the site
# package, only the part a chapter page runs (its tools' previous/next links read the table of
# contents; the page module joins Python to the page): the build and the servers stay out.
OUR_PACKAGES = ("rulescore", "widgets", "rulebook")
SITE_SHIPPED = ("rulebook/__init__.py", "rulebook/toc.py", "rulebook/jupyter_book.yml",
                "rulebook/wasm/__init__.py", "rulebook/wasm/page.py")
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")


@dataclass(frozen=True)
class Wheel:
    """One wheel of the bundle: its file (relative to the bundle folder), project and group."""

    file: str
    name: str
    group: str
    bytes: int


def bundle_dir(project: Path) -> Path:
    return project / "_build" / "pyodide"


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def _find_wheel(folder: Path, name: str, version: str) -> Path | None:
    """The pure wheel of *name*==*version* in *folder*, if there is one."""
    for path in folder.glob("*.whl"):
        dist, ver, *rest = path.name.split("-")
        if _canonical(dist) == _canonical(name) and ver == version and path.name.endswith(
                "-none-any.whl"):
            return path
    return None


def _pip(*args: str, env: dict[str, str] | None = None) -> None:
    cmd = [sys.executable, "-m", "pip", *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise BookBuildError(f"{' '.join(cmd)} failed:\n{proc.stderr.strip()[-3000:]}")


def fetch_runtime(root: Path) -> Path:
    """npm's ``pyodide`` package at :data:`PYODIDE`, unpacked into ``<root>/runtime``."""
    target = root / "runtime"
    stamp = target / ".npm-package"
    spec = "@".join(PYODIDE)
    if not (stamp.is_file() and stamp.read_text(encoding="utf-8").strip() == spec):
        print(f"Fetching {spec} from npm", flush=True)
        tarball = _npm_pack(*PYODIDE, root / "tarballs")
        _unpack(tarball, "", target)
        stamp.write_text(spec + "\n", encoding="utf-8")
    missing = [f for f in RUNTIME_FILES if not (target / f).is_file()]
    if missing:
        raise BookBuildError(f"{spec} lacks {', '.join(missing)}")
    return target


def python_version(runtime: Path) -> str:
    """The runtime's Python as ``"3.13"``, read from its lock file."""
    info = json.loads((runtime / "pyodide-lock.json").read_text(encoding="utf-8"))["info"]
    return ".".join(info["python"].split(".")[:2])


def fetch_pure_wheels(wheels: Path, pins: dict[str, str], python: str) -> list[Path]:
    """The ``py3-none-any`` wheels of *pins* from PyPI (one pip call for those not yet here)."""
    missing = [f"{n}=={v}" for n, v in pins.items() if _find_wheel(wheels, n, v) is None]
    if missing:
        print(f"Fetching pure wheels: {', '.join(missing)}", flush=True)
        _pip("download", "--quiet", "--no-deps", "--only-binary=:all:", "--platform", "any",
             "--implementation", "py", "--python-version", python, "-d", str(wheels), *missing)
    found = {n: _find_wheel(wheels, n, v) for n, v in pins.items()}
    absent = [f"{n}=={pins[n]}" for n, p in found.items() if p is None]
    if absent:
        raise BookBuildError(f"PyPI gave no pure wheel of {', '.join(absent)}")
    return [p for p in found.values() if p is not None]


def build_sdist_wheels(wheels: Path, pins: dict[str, str]) -> list[Path]:
    """Pure wheels built here from the sources of *pins* (PyYAML without its C extension)."""
    out = []
    for name, version in pins.items():
        path = _find_wheel(wheels, name, version)
        if path is None:
            print(f"Building {name}=={version} from source, pure Python", flush=True)
            env = dict(os.environ, PYYAML_FORCE_LIBYAML="0")
            _pip("wheel", "--quiet", "--no-deps", f"--no-binary={name}", "-w", str(wheels),
                 f"{name}=={version}", env=env)
            path = _find_wheel(wheels, name, version)
            if path is None:
                raise BookBuildError(f"building {name}=={version} gave no pure wheel")
        out.append(path)
    return out


def source_digest(project: Path) -> str:
    """A digest of every file our wheel is built from (paths and contents)."""
    h = hashlib.sha256()
    for entry in OUR_SOURCES:
        top = project / entry
        files = [top] if top.is_file() else sorted(
            p for p in top.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
        for path in files:
            h.update(str(path.relative_to(project)).encode() + b"\0")
            h.update(path.read_bytes() + b"\0")
    return h.hexdigest()


def build_our_wheel(project: Path, wheels: Path) -> Path:
    """A wheel of our distribution from the working tree, rebuilt when a source file changed.

    Built from a copy (links followed, caches left out), so setuptools writes nothing into the
    checkout."""
    digest = source_digest(project)
    stamp = wheels / f"{OUR_NAME}.source-sha256"
    existing = sorted(wheels.glob(f"{OUR_NAME}-*-py3-none-any.whl"))
    if existing and stamp.is_file() and stamp.read_text(encoding="utf-8").strip() == digest:
        return existing[-1]
    for old in existing:
        old.unlink()
    print("Building the wheel of rulescore, widgets and the site package", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
        for entry in OUR_SOURCES:
            if (project / entry).is_dir():
                shutil.copytree(project / entry, src / entry, ignore=ignore)
            else:
                shutil.copy2(project / entry, src / entry)
        _pip("wheel", "--quiet", "--no-deps", "-w", str(wheels), str(src))
    built = sorted(wheels.glob(f"{OUR_NAME}-*-py3-none-any.whl"))
    if len(built) != 1:
        raise BookBuildError(f"building our wheel gave {[p.name for p in built]}")
    stamp.write_text(digest + "\n", encoding="utf-8")
    return built[0]


@dataclass(frozen=True)
class Archive:
    """One group's archive (relative to the bundle folder) and its size."""

    file: str
    group: str
    bytes: int


# Run by Pyodide under Node.js: every group's wheels unpacked into /out/<group> (a folder of this
# machine), less the packages' own tests and the parts of our site package a page never runs
# (the build, the servers: SITE_SHIPPED lists what stays). Then compiled to bytecode as
# Pyodide's Python compiles it, named as it will be installed (site-packages):
# - every module of our packages (rulescore, widgets, the site package's shipped part), imported
#   or not: a page imports some only when the reader clicks;
# - of the libraries, each module a page loads: what the page module and a chapter's first tool
#   import, what our modules import, at their top or inside a function (found by reading
#   their source: a chapter's navigation reads the table of contents with PyYAML, a formula
#   renders with sympy), and sympy. The rest of a library stays source, compiled if a page
#   ever imports it, so the archives stay small.
_COMPILE = """
import ast, importlib, importlib.machinery, json, os, pkgutil, py_compile, shutil, site, sys
import zipfile
groups = json.loads(os.environ["RULEBOOK_ARCHIVE_GROUPS"])
plan = json.loads(os.environ["RULEBOOK_ARCHIVE_PLAN"])
ours = json.loads(os.environ["RULEBOOK_OUR_PACKAGES"])
shipped = set(json.loads(os.environ["RULEBOOK_SITE_SHIPPED"]))
installed = site.getsitepackages()[0]
for group, wheels in groups.items():
    out = "/out/" + group
    for wheel in wheels:
        with zipfile.ZipFile("/bundle/" + wheel) as z:
            z.extractall(out)
    for top, dirs, files in os.walk(out):
        if top != out and "tests" in dirs:
            shutil.rmtree(os.path.join(top, "tests"))
            dirs.remove("tests")
    site_package = os.path.join(out, ours[-1])
    for top, dirs, files in os.walk(site_package, topdown=False):
        for name in files:
            if os.path.relpath(os.path.join(top, name), out) not in shipped:
                os.remove(os.path.join(top, name))
        if not os.listdir(top):
            os.rmdir(top)
    sys.path.insert(0, out)
importlib.invalidate_caches()
sources = {}
plain = importlib.machinery.SourceFileLoader.source_to_code
def noted(self, data, path, *args, **kwargs):
    sources[path] = None  # compiled here, so in a page too: even a module that then fails
    return plain(self, data, path, *args, **kwargs)
importlib.machinery.SourceFileLoader.source_to_code = noted
from rulebook.wasm import page
page.start(lambda text, buffers: None)
page.run_cell("from widgets.dice import DiceRoller\\nDiceRoller('2d6')")
mine = []
for package in ours:
    module = importlib.import_module(package)
    for info in pkgutil.walk_packages(module.__path__, package + "."):
        try:
            importlib.import_module(info.name)
        except Exception as exc:
            print("not imported:", info.name, type(exc).__name__, exc)
    for folder, dirs, files in os.walk(os.path.dirname(module.__file__)):
        mine.extend(os.path.join(folder, f) for f in files if f.endswith(".py"))
sources.update(dict.fromkeys(mine))
def imported_names(path):
    for node in ast.walk(ast.parse(open(path, encoding="utf-8").read())):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module
            yield from (node.module + "." + a.name for a in node.names)
for name in sorted({n for path in mine for n in imported_names(path)}):
    try:
        importlib.import_module(name)
    except ImportError:
        pass  # not in a page (the live book's anywidget, rtoml) or a name, not a module
    except Exception as exc:
        print("not imported:", name, type(exc).__name__, exc)
import sympy
compiled = 0
for source in sorted(sources):
    group = source.split("/")[2] if source.startswith("/out/") else None
    if group in plan and source.endswith(".py"):
        name = os.path.relpath(source, "/out/" + group)
        py_compile.compile(source, cfile=importlib.util.cache_from_source(source),
                           dfile=os.path.join(installed, name), doraise=True,
                           invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
        compiled += 1
print("compiled", compiled, "modules")
"""


def _archive_key(root: Path, wheels: list[Wheel]) -> str:
    """What a group's archive is made from: the runtime's version, its wheels' bytes and how
    they are compiled and trimmed."""
    h = hashlib.sha256("-".join(PYODIDE).encode() + b"\0" + _COMPILE.encode() + b"\0"
                       + json.dumps([OUR_PACKAGES, SITE_SHIPPED]).encode() + b"\0")
    for w in sorted(wheels, key=lambda w: w.file):
        h.update(w.file.encode() + b"\0" + hashlib.sha256((root / w.file).read_bytes()).digest())
    return h.hexdigest()


def _zip_folder(folder: Path, target: Path) -> None:
    """Zip *folder*'s files (paths relative to it) with fixed dates, in name order."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            info = zipfile.ZipInfo(path.relative_to(folder).as_posix(), ARCHIVE_DATE)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, path.read_bytes(), compresslevel=9)


def build_archives(root: Path, wheels: list[Wheel]) -> list[Archive]:
    """Each of :data:`ARCHIVE_GROUPS` as ``archives/<group>-<digest>.zip`` (see the module's
    docstring), rebuilt only when its wheels or the runtime changed."""
    folder = root / "archives"
    folder.mkdir(exist_ok=True)
    plan, keys, done = {}, {}, {}
    for group in ARCHIVE_GROUPS:
        members = [w for w in wheels if w.group == group]
        keys[group] = _archive_key(root, members)
        stamp = folder / f"{group}.source-sha256"
        old = stamp.read_text(encoding="utf-8").split() if stamp.is_file() else []
        if len(old) == 2 and old[0] == keys[group] and (folder / old[1]).is_file():
            done[group] = folder / old[1]
        else:
            plan[group] = [w.file for w in members]
    if plan:
        print(f"Compiling the bytecode of {', '.join(plan)} in Pyodide", flush=True)
        with tempfile.TemporaryDirectory(prefix="rulebook-archives-") as tmp:
            out = Path(tmp)
            try:
                every = {g: [w.file for w in wheels if w.group == g] for g in ARCHIVE_GROUPS}
                run = node.run(root, ["--groups", "-", "--mount", f"{root}:/bundle",
                                      "--mount", f"{out}:/out",
                                      "--env", f"RULEBOOK_ARCHIVE_GROUPS={json.dumps(every)}",
                                      "--env", f"RULEBOOK_ARCHIVE_PLAN={json.dumps(plan)}",
                                      "--env", f"RULEBOOK_OUR_PACKAGES={json.dumps(OUR_PACKAGES)}",
                                      "--env", f"RULEBOOK_SITE_SHIPPED={json.dumps(SITE_SHIPPED)}",
                                      "--python", _COMPILE], timeout=1800)
            except node.NodeMissing as exc:
                raise BookBuildError(str(exc)) from exc
            if run.code != 0:
                raise BookBuildError("compiling the bytecode in Pyodide failed:\n"
                                     + (run.stderr or run.stdout).strip()[-3000:])
            for group in plan:
                for stale in folder.glob(f"{group}-*.zip"):
                    stale.unlink()
                made = folder / f"{group}.zip"
                _zip_folder(out / group, made)
                digest = hashlib.sha256(made.read_bytes()).hexdigest()[:16]
                done[group] = made.rename(folder / f"{group}-{digest}.zip")
                (folder / f"{group}.source-sha256").write_text(
                    f"{keys[group]} {done[group].name}\n", encoding="utf-8")
    return [Archive(str(done[g].relative_to(root)), g, done[g].stat().st_size)
            for g in ARCHIVE_GROUPS]


def build_bundle(project: Path) -> Path:
    """Fetch the runtime and build every wheel into ``_build/pyodide``; return that folder."""
    root = bundle_dir(project)
    wheels = root / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    runtime = fetch_runtime(root)
    python = python_version(runtime)
    groups = [("engine", [build_our_wheel(project, wheels)]),
              ("engine", fetch_pure_wheels(wheels, ENGINE_WHEELS, python)),
              ("engine", build_sdist_wheels(wheels, ENGINE_SDISTS)),
              ("widgets", fetch_pure_wheels(wheels, WIDGET_WHEELS, python)),
              ("formulas", fetch_pure_wheels(wheels, FORMULA_WHEELS, python)),
              ("test", fetch_pure_wheels(wheels, TEST_WHEELS, python))]
    listed = [Wheel(str(p.relative_to(root)), p.name.split("-")[0], group, p.stat().st_size)
              for group, paths in groups for p in paths]
    manifest = {"pyodide": PYODIDE[1], "python": python, "runtime": "runtime",
                "wheels": [w.__dict__ for w in listed]}
    # Written before the archives too: the Node.js runner that compiles them reads it.
    (root / "bundle.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    manifest["archives"] = [a.__dict__ for a in build_archives(root, listed)]
    (root / "bundle.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return root
