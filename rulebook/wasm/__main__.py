"""``python -m rulebook.wasm build | test [PYTEST ARGS] | python [--groups G,H] CODE``.

- ``build``: fetch the Pyodide runtime and build the wheels into ``_build/pyodide``;
- ``test``: build, then run the engine's tests (``tests/rulescore``, or the paths and options
  given) inside Pyodide under Node.js, with no other host reachable;
- ``python``: build, then run a piece of Python in Pyodide with the engine installed (and the
  wheel groups named by ``--groups``, e.g. ``engine,widgets``).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Sequence

from ..build import BookBuildError
from ..toc import find_project_dir
from . import node
from .bundle import build_bundle


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] not in ("build", "test", "python"):
        print(__doc__, file=sys.stderr)
        return 2
    project = find_project_dir()
    started = time.monotonic()
    try:
        bundle = build_bundle(project)
    except BookBuildError as exc:
        print(f"rulebook.wasm: {exc}", file=sys.stderr)
        return 1
    print(f"Pyodide bundle ready in {time.monotonic() - started:.0f} s: {bundle}", flush=True)
    if args[0] == "build":
        return 0
    if args[0] == "test":
        runner_args = node.engine_tests_args(project, args[1:])
    else:
        groups = args[1:3] if args[1:2] == ["--groups"] else []
        runner_args = [*groups, "--python", " ".join(args[1 + len(groups):])]
    try:
        result = node.run(bundle, runner_args, echo=True)
    except node.NodeMissing as exc:
        print(f"rulebook.wasm: {exc}", file=sys.stderr)
        return 1
    fence = "its own network namespace" if result.isolated else "the machine's network"
    refused = result.report.get("refused", ["(no report)"])
    print(f"Ran in {time.monotonic() - started:.0f} s in {fence}; requests to other hosts "
          f"refused: {len(refused)}", flush=True)
    return result.code


if __name__ == "__main__":
    sys.exit(main())
