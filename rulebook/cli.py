"""The ``rulebook`` command: roll dice, print exact odds, serve or build the book.

``roll`` and ``odds`` call the rules engine only. ``serve`` and ``build`` start Voilà / Jupyter
Book as separate processes with the site's configuration; ``serve-static`` serves the built
book's files for a local look (rulebook.static_server). Input errors print one clear message
and exit 2.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Sequence

from rulescore.errors import DiceError, RulesError, parse_int_list
from rulescore.text import percent

from .serving import WARM_UP_VAR

MAX_KERNELS_VAR = "RULEBOOK_MAX_KERNELS"   # the most live kernels (open pages) a server holds
DEFAULT_MAX_KERNELS = 20


def cmd_roll(args: argparse.Namespace) -> int:
    from rulescore.dice import parse
    expr = parse(args.expr)
    if args.dice is not None:
        result = expr.roll(dice=parse_int_list("--dice", args.dice))
    else:
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
        result = expr.roll(seed=seed)
    print(f"{expr}  →  {result.total}")
    if result.seed is not None:
        print(f"seed {result.seed} (replay with --seed {result.seed})")
    print(f"dice: {', '.join(map(str, result.faces()))}")
    print(result.explain())
    return 0


def cmd_odds(args: argparse.Namespace) -> int:
    from rulescore.dice import parse
    expr = parse(args.expr)
    dist = expr.distribution()
    print(f"Exact distribution of {expr} (mean {float(dist.mean()):.4g})")
    width = max(len(str(v)) for v in dist.outcomes())
    for value, p in dist.items():
        print(f"{value:>{width}}  {str(p):>24}  {percent(p):>9}")
    if dist.truncated:
        print(f"(exact to {dist.explode_depth} explosions a die; the chance of more, "
              f"{dist.truncated} = {percent(dist.truncated)}, is not listed)")
    if args.at_least is not None:
        p = dist.p_at_least(args.at_least)
        print(f"P({expr} ≥ {args.at_least}) = {p} = {percent(p)}")
    return 0


def _book_dir() -> Path:
    from .toc import find_project_dir
    return find_project_dir() / "book"


def voila_env(project_dir: Path, warm_up: bool = True,
              max_kernels: int | None = None) -> dict[str, str]:
    """Environment of the live book's Voilà: finds jupyter_book.yml, our page template and our
    Voilà configuration (share/jupyter/config/voila.py, which calls :func:`rulebook.live.configure`).

    Python may write bytecode even where the caller's environment says not to: otherwise every
    chapter's kernel compiles the rules engine from source again on each open.
    With *warm_up* the server opens every page once as it starts, so that no reader is a
    chapter's first (rulebook.serving.warm_up). *max_kernels*, when given, is the most pages
    the server keeps open at once (``RULEBOOK_MAX_KERNELS``: rulebook.admission); else the
    caller's environment or the default says. ``RULEBOOK_TARGET=live`` tells the chapters'
    kernels that a browser loads their widgets only once the page is rendered (widgets.lean).
    An error in the configuration file (a patched name gone: rulebook.patches) stops Voilà
    instead of being logged and passed over (``TRAITLETS_APPLICATION_RAISE_CONFIG_FILE_ERROR``).
    """
    data = project_dir / "share" / "jupyter"

    def first(path: Path, var: str) -> str:
        return os.pathsep.join(p for p in (str(path), os.environ.get(var, "")) if p)

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if max_kernels is not None:
        env[MAX_KERNELS_VAR] = str(max_kernels)
    return dict(env, RULEBOOK_HOME=str(project_dir), JUPYTER_PATH=first(data, "JUPYTER_PATH"),
                JUPYTER_CONFIG_PATH=first(data / "config", "JUPYTER_CONFIG_PATH"),
                RULEBOOK_TARGET="live", TRAITLETS_APPLICATION_RAISE_CONFIG_FILE_ERROR="1",
                **{WARM_UP_VAR: "1" if warm_up else "0"})


def voila_command(host: str, port: int, book_dir: Path) -> list[str]:
    """The Voilà command line of the live book: code hidden, idle kernels culled."""
    return [sys.executable, "-m", "voila", str(book_dir), "--no-browser", "--template=rulebook",
            f"--Voila.ip={host}", f"--port={port}",
            "--MappingKernelManager.cull_interval=60",
            "--MappingKernelManager.cull_idle_timeout=600",
            "--MappingKernelManager.cull_connected=True",
            "--VoilaConfiguration.show_tracebacks=False"]


def cmd_serve(args: argparse.Namespace) -> int:
    book_dir = _book_dir()
    print(f"Serving the book: http://{args.host}:{args.port}/voila/render/index.ipynb",
          flush=True)
    return subprocess.call(voila_command(args.host, args.port, book_dir),
                           env=voila_env(book_dir.parent, warm_up=args.warm_up,
                                         max_kernels=args.max_kernels))


def cmd_build(args: argparse.Namespace) -> int:
    from .build import BookBuildError, build
    from .patches import PatchError
    try:
        out = build()
    except (BookBuildError, PatchError) as exc:
        print(f"rulebook build: {exc}", file=sys.stderr)
        return 1
    print(f"Built the static book: {out / 'index.html'}")
    return 0


def cmd_serve_static(args: argparse.Namespace) -> int:
    from .static_server import run
    return run(args)


def _at_least_one(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of 1 or more, got {text!r}")
    return value


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="rulebook", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("roll", help="roll a dice expression (seeded, or read your own dice)")
    r.add_argument("expr", help="dice notation, e.g. 6d8kh2+5")
    how = r.add_mutually_exclusive_group()
    how.add_argument("--seed", type=int, help="replayable seed (a random one is shown if omitted)")
    how.add_argument("--dice", help="the faces you rolled, in order, e.g. 3,5,6")
    r.set_defaults(func=cmd_roll)
    o = sub.add_parser("odds", help="print the exact distribution of a dice expression")
    o.add_argument("expr")
    o.add_argument("--at-least", type=int, help="also print P(total ≥ N)")
    o.set_defaults(func=cmd_odds)
    s = sub.add_parser("serve", help="serve the live book with Voilà")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8866)
    s.add_argument("--no-warm-up", dest="warm_up", action="store_false",
                   help="do not open every page once at start (a chapter's first reader then "
                        "waits for every cell)")
    s.add_argument("--max-kernels", type=_at_least_one, metavar="N",
                   help="the most pages open at once, one kernel each; a reader beyond them is "
                        f"asked to try again in a minute (default ${MAX_KERNELS_VAR} or "
                        f"{DEFAULT_MAX_KERNELS})")
    s.set_defaults(func=cmd_serve)
    b = sub.add_parser("build", help="build the static web book into _build/html")
    b.set_defaults(func=cmd_build)
    st = sub.add_parser("serve-static", help="serve the built static book on 127.0.0.1, with "
                        "the caching headers a static host should send (docs/deploy.md)")
    from .static_server import add_arguments
    add_arguments(st)
    st.set_defaults(func=cmd_serve_static)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except DiceError as exc:  # notation errors (syntax or limits) point at their column
        print(f"rulebook: {exc}", file=sys.stderr)
        if exc.column:
            print(exc.caret(), file=sys.stderr)
        return 2
    except RulesError as exc:
        print(f"rulebook: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
