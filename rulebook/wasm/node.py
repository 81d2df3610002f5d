"""Start ``run.mjs`` (Pyodide under Node.js) on the local bundle, cut off from other hosts.

Two fences, so that "nothing but local files" is shown, not assumed:

- the runner replaces every way Node reaches another host by one that refuses and counts
  (its report lists what it refused; any refusal fails the run);
- where the machine allows it, Node runs in a network namespace of its own (``unshare
  --net``), which has no interface but a loopback that is down: no request could leave.
"""

from __future__ import annotations

import functools
import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

RUNNER = Path(__file__).with_name("run.mjs")
PROJECT_MOUNT = "/project"       # where the checkout appears inside Pyodide (tests, book, docs)
REPORT_PREFIX = "PYODIDE-RUN "


class NodeMissing(RuntimeError):
    """Node.js is needed to run Pyodide outside a browser."""


@dataclass(frozen=True)
class Run:
    """One run of the runner: its exit code, output and the report it printed last."""

    code: int
    stdout: str
    stderr: str
    isolated: bool               # ran in a network namespace of its own
    report: dict[str, Any]


def node() -> str:
    exe = shutil.which("node")
    if exe is None:
        raise NodeMissing("Node.js is needed to run Pyodide (Debian: apt-get install nodejs)")
    return exe


@functools.cache
def isolation_prefix() -> tuple[str, ...]:
    """``unshare`` arguments giving a process a network namespace of its own, or () where this
    machine allows none (the runner's own refusal still holds)."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return ()
    for prefix in ((unshare, "--net"), (unshare, "--map-root-user", "--net")):
        try:
            ok = subprocess.run([*prefix, "true"], capture_output=True, timeout=30).returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            ok = False
        if ok:
            return prefix
    return ()


def run(bundle: Path, args: Sequence[str], *, isolate: bool = True, timeout: float | None = None,
        echo: bool = False) -> Run:
    """Run ``run.mjs --bundle <bundle> <args>``; *echo* streams its output as it comes."""
    prefix = isolation_prefix() if isolate else ()
    cmd = [*prefix, node(), str(RUNNER), "--bundle", str(bundle), *args]
    if echo:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        lines = []
        assert proc.stdout is not None
        for line in proc.stdout:
            print(line, end="", flush=True)
            lines.append(line)
        code = proc.wait(timeout=timeout)
        out, err = "".join(lines), ""
    else:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        code, out, err = done.returncode, done.stdout, done.stderr
    report: dict[str, Any] = {}
    for line in reversed(out.splitlines()):
        if line.startswith(REPORT_PREFIX):
            report = json.loads(line[len(REPORT_PREFIX):])
            break
    return Run(code, out, err, bool(prefix), report)


def engine_tests_args(project: Path, pytest_args: Sequence[str]) -> list[str]:
    """Runner arguments for the engine's tests (``tests/rulescore`` unless told) in Pyodide.

    The checkout is mounted and appended to ``sys.path`` (for the ``tests`` package and the
    files the tests read); the engine and the tools (a new system's book pages render with them)
    come from the installed wheels, which the plugin ``tests.pyodide.in_pyodide`` checks
    before collecting. ``make test`` runs the whole of ``tests/rulescore`` this way
    (tests/pyodide/test_engine_in_pyodide.py)."""
    where = PROJECT_MOUNT

    def is_path(arg: str) -> bool:
        return not arg.startswith("-") and (project / arg.split("::")[0]).exists()
    targets = [f"{where}/{a}" if is_path(a) else a for a in pytest_args]
    if not any(is_path(a) for a in pytest_args):
        targets.append(f"{where}/tests/rulescore")
    return ["--groups", "engine,formulas,widgets,test", "--mount", f"{project}:{where}", "--append-path", where,
            "--cwd", "/tmp/pytest-run",
            "--pytest", "-p", "tests.pyodide.in_pyodide", f"--rootdir={where}",
            "-c", f"{where}/pyproject.toml", "-o", "addopts=-ra", "-p", "no:cacheprovider",
            "--import-mode=append", *targets]
