"""Every place our code reaches into another library, in one list.

The book prefers each library's public hooks and configuration. Where none does the job, the
code that reaches in is listed here as a :class:`Patch`: where it lives in our code, the library
and the name it patches, replaces, subclasses or reads, the versions it was written for, why it
is needed and what breaks without it.

Two guards keep a library upgrade from breaking the book quietly:

- ``tests/rulebook/test_patches.py`` fails, naming the patch, when an installed version is
  outside a patch's range or the patched name has gone;
- the code that applies a patch fetches the name through :func:`require`, which raises
  :class:`PatchError` (naming the patch and what to check) instead of carrying on without it,
  and the live server logs :func:`version_warnings` as it starts.

A patch's *target* is ``"module:attribute.path"`` for a Python name, or a file of the installed
distribution (``"share/…/index.html.j2"``) that must contain *marker*. A library named
``npm:<package>`` is JavaScript fetched at build time: its version is the one
``rulebook.build`` pins.
"""

from __future__ import annotations

import importlib
import importlib.metadata
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class PatchError(RuntimeError):
    """A patched name is gone (or a patch is unknown): the library changed under the book."""


@dataclass(frozen=True)
class Patch:
    """One reach into another library's internals."""

    name: str        # short id, used by require() and in messages
    where: str       # our code: file and the function or class that does it
    library: str     # the distribution (as pip names it), or "npm:<package>"
    target: str      # "module:attr.path", or a file of the distribution holding *marker*
    versions: str    # PEP 440 range the patch was written and tested for
    why: str         # what it does for the book, and why no public hook serves
    breaks: str      # what a reader or operator sees if the patch stops working
    marker: str = ""  # for a file target: the text the patch relies on

    @property
    def npm(self) -> bool:
        return self.library.startswith("npm:")


PATCHES: tuple[Patch, ...] = (
    Patch(
        name="voila-execute-cell",
        where="rulebook/live.py: follow_reuse_plan (wraps VoilaExecutor.execute_cell)",
        library="voila",
        target="voila.execute:VoilaExecutor.execute_cell",
        versions=">=0.5.13,<0.6",
        why="A cell whose output no reader can change is shown from the output kept for the "
            "chapter's first reader instead of being run (rulebook.serving). Voilà offers no "
            "per-cell hook that can skip a cell and still show outputs: nbclient's "
            "skip-execution tag skips it, but Voilà clears every output before running.",
        breaks="If the name goes, the server refuses to start (require). If its call changes, "
               "pages run every cell again (slower first paint) or show a kept output twice; "
               "tests/book/test_serve_env.py and tests/browser/test_live_book.py catch both.",
    ),
    Patch(
        name="voila-exporter-environment",
        where="rulebook/live.py: keep_compiled_templates (wraps VoilaExporter._create_environment)",
        library="nbconvert",
        target="nbconvert.exporters.templateexporter:TemplateExporter._create_environment",
        versions=">=7.0,<8",
        why="Voilà builds a new Jinja environment for every page and compiles the page "
            "templates again each time; a shared bytecode cache keeps them compiled. Neither "
            "Voilà nor nbconvert exposes the environment's bytecode_cache as configuration.",
        breaks="Pages cost the server more CPU each (no error, only slower under load): "
               "require() stops the server at start if the name is gone.",
    ),
    Patch(
        name="voila-page-kernel-id",
        where="rulebook/serving.py: page_kernel_id (reads the warm-up page's kernel id)",
        library="voila",
        target="share/jupyter/voila/templates/lab/index.html.j2",
        marker="kernelId=kernel_id",
        versions=">=0.5.13,<0.6",
        why="A warm-up page's kernel must be shut down at once; the page carries its kernel id "
            "only in its JupyterLab page configuration (the jupyter-config-data script).",
        breaks="Warm-up kernels would be left to the idle culler: warm_up reports each such page "
               "as failed and the server logs it as a warning (tests/book/test_serving.py).",
    ),
    Patch(
        name="voila-lab-template-cdn",
        where="share/jupyter/voila/templates/rulebook/index.html.j2: block notebook_css",
        library="voila",
        target="share/jupyter/voila/templates/lab/index.html.j2",
        marker="https://cdn.jsdelivr.net/npm/@fortawesome/fontawesome-free@^5/css/all.min.css",
        versions=">=0.5.13,<0.6",
        why="The lab template links two Font Awesome stylesheets from a CDN inside the block "
            "that also brings the page's own CSS; ours removes those two links from the "
            "block's output (the book serves no icons and loads nothing from a CDN).",
        breaks="If the links change, the page loads them from the CDN again (slower, and "
               "blocked offline); tests/browser/test_live_book.py checks no CDN request.",
    ),
    Patch(
        name="jupyter-server-websocket-nodelay",
        where="rulebook/live.py: PromptKernelConnection.connect",
        library="jupyter_server",
        target="jupyter_server.services.kernels.connection.channels:"
               "ZMQChannelsWebsocketConnection.connect",
        versions=">=2.10,<3",
        why="jupyter_server leaves Nagle's algorithm on for the kernel websocket, so the second "
            "and later messages of one reply waited for the browser's delayed ACK. Voilà's "
            "kernel_websocket_connection_class setting takes our subclass, which turns "
            "TCP_NODELAY on as the socket connects.",
        breaks="Updates of tools that change several views arrive up to 40 ms late now and "
               "then; tests/book/test_serve_env.py checks the socket option is set.",
    ),
    Patch(
        name="jupyter-server-reader-connection",
        where="rulebook/connection.py: ReaderConnection (prepare, connect, disconnect)",
        library="jupyter_server",
        target="jupyter_server.services.kernels.connection.channels:"
               "ZMQChannelsWebsocketConnection.prepare",
        versions=">=2.10,<3",
        why="One page per kernel, no shutdown_request from a page, and a watch that closes a "
            "page's websocket when its kernel is gone, dead or overrunning: jupyter_server has "
            "no hook at the websocket's connection other than its connection class.",
        breaks="A page whose kernel died keeps looking alive (tests/browser/"
               "test_connection_lost.py), or a second tab shares a kernel.",
    ),
    Patch(
        name="jupyter-server-capped-kernels",
        where="rulebook/admission.py: CappedKernelManager (start_kernel, shutdown_kernel)",
        library="jupyter_server",
        target="jupyter_server.services.kernels.kernelmanager:"
               "MappingKernelManager.start_kernel",
        versions=">=2.10,<3",
        why="The most kernels a server holds, counting kernels still starting: Voilà's "
            "multi_kernel_manager_class setting takes our subclass; jupyter_server has no cap.",
        breaks="The server starts kernels without bound under a rush, until memory runs out "
               "(tests/browser/test_book_full.py, tests/book/test_admission.py).",
    ),
    Patch(
        name="voila-jupyterapp",
        where="share/jupyter/voila/templates/rulebook/index.html.j2: block html_head_js (the "
              "lost-connection notice)",
        library="voila",
        target="share/jupyter/voila/templates/base/static/",
        marker="window.jupyterapp=",
        versions=">=0.5.13,<0.6",
        why="The page tells its reader at once when its kernel is gone. It reaches the page's "
            "kernel connection through window.jupyterapp.widgetManagerPromise, which Voilà's "
            "page script publishes (declared in its global.d.ts) but does not document.",
        breaks="A page whose kernel is gone looks alive and its tools silently do nothing; the "
               "script logs it in the browser console (tests/browser/test_connection_lost.py).",
    ),
    Patch(
        name="jupyter-book-extensions",
        where="rulebook/build.py: sphinx_extensions",
        library="jupyter-book",
        target="jupyter_book.config:get_default_sphinx_config",
        versions=">=1.0.4,<2",
        why="The static book drops sphinx_thebe (no launch buttons; sphinx-thebe 0.3 declares "
            "its THEBE_JS_URL constant twice on every page, a script error). Jupyter Book's "
            "configuration can add extensions but not remove one, so the list is Jupyter "
            "Book's own default (read from it, not copied) without sphinx_thebe.",
        breaks="rulebook build fails with a message naming this patch (require).",
    ),
    Patch(
        name="ipywidgets-construction-callback",
        where="widgets/lean.py: _hook and _adopt (opened_when_built, BuiltWhole)",
        library="ipywidgets",
        target="ipywidgets.widgets.widget:Widget._widget_construction_callback",
        versions=">=8.1,<9",
        why="While one of our tools is built, the widgets it makes share their layout and "
            "style models and are opened once, with their final state; no other widget is "
            "touched. ipywidgets' public on_widget_constructed sets its one construction "
            "callback, called once a widget's traits are set and before it opens: ours is set "
            "only while a build runs, chained to the one before, and this name is read to put "
            "that one back.",
        breaks="If the name goes, building a tool raises AttributeError naming it. If the "
               "callback came after the widget opens, tools would still work but send more "
               "models and updates (slower pages): tests/widgets/test_lean.py checks a tool "
               "sends no update while built and opens no layout or style of its own.",
    ),
    Patch(
        name="ipykernel-quiet-comm",
        where="widgets/lean.py: _open_quietly",
        library="ipykernel",
        target="ipykernel.comm.comm:BaseComm.kernel",
        versions=">=7,<8",
        why="In the live book a widget that a page's cell builds is registered in the kernel "
            "without the opening message only Voilà's notebook client would get (the browser "
            "asks for every state at once). comm.create_comm(primary=False) and register_comm "
            "are public, but ipykernel's comm learns its kernel only when it first sends, so "
            "it is told at once through this attribute.",
        breaks="Widgets of live pages would not answer a reader's change, or the page would "
               "show errors: tests/widgets/test_quiet_open.py runs a live kernel and checks "
               "both the quiet open and the answer to a change.",
    ),
    Patch(
        name="html-manager-requirejs-paths",
        where="rulebook/build.py: WIDGETS_SETUP (require.config paths)",
        library="npm:@jupyter-widgets/html-manager",
        target="",
        versions=">=1.0.15,<1.1",
        why="The widget bundle's modules look for their fonts beside their own module URL; "
            "RequireJS paths map those module names onto the bundle's folder in _static.",
        breaks="The static book's widgets show without their icon font; "
               "tests/browser/test_static_book.py.",
    ),
    Patch(
        name="mathjax-hub-shim",
        where="rulebook/build.py: WIDGETS_SETUP (MathJax.Hub.Queue)",
        library="npm:mathjax",
        target="",
        versions=">=3.2.2,<4",
        why="ipywidgets' HTML manager typesets labels with MathJax 2's Hub.Queue call, which "
            "MathJax 3 lacks; the shim maps it onto MathJax 3's typesetPromise.",
        breaks="LaTeX in the static book's widget labels stays as source; "
               "tests/browser/test_static_book.py.",
    ),
    Patch(
        name="html-manager-comm-bridge",
        where="rulebook/wasm/static/rulebook-wasm.js: Bridge, pageManagerClass",
        library="npm:@jupyter-widgets/html-manager",
        target="",
        versions=">=1.0.15,<1.1",
        why="The static page's widget manager talks to Python in the page as it would to a "
            "kernel: HTMLManager's _create_comm and _get_comm_info overridden, "
            "handle_comm_open called for each comm Python opens, and the iopub status "
            "callback of a model's send answered 'idle' (the model's message throttle waits "
            "for it). The html-manager has no public hook for a comm of one's own.",
        breaks="The static book's tools stay as their snapshot, or answer once and then no "
               "more; tests/browser/test_wasm_book.py.",
    ),
)


def patch(name: str) -> Patch:
    """The patch called *name*; PatchError naming the known ones otherwise."""
    for p in PATCHES:
        if p.name == name:
            return p
    raise PatchError(f"no patch called {name!r} in rulebook.patches "
                     f"(known: {', '.join(p.name for p in PATCHES)})")


def installed_version(p: Patch) -> str | None:
    """The version of *p*'s library in use: installed (Python) or pinned by the build (npm)."""
    if p.npm:
        from . import build
        return build.NPM_VERSIONS.get(p.library[len("npm:"):])
    try:
        return importlib.metadata.version(p.library)
    except importlib.metadata.PackageNotFoundError:
        return None


def in_range(p: Patch, version: str) -> bool:
    from packaging.specifiers import SpecifierSet
    return SpecifierSet(p.versions).contains(version, prereleases=True)


def _distribution_text(p: Patch) -> str | None:
    """The text of *p*'s file target, or of every file under it when it names a folder
    (ending in ``/``); None when the distribution has no such file."""
    try:
        files = importlib.metadata.files(p.library) or ()
    except importlib.metadata.PackageNotFoundError:
        return None
    texts = []
    for f in files:
        name = str(f).replace("\\", "/")
        folder = p.target.endswith("/") and p.target in name
        if folder or name.endswith(p.target):
            path = Path(f.locate())
            if path.is_file():
                texts.append(path.read_text(encoding="utf-8", errors="replace"))
    return "\n".join(texts) if texts else None


def resolve(p: Patch) -> Any:
    """The object *p* patches (a Python target), or the text of its file target; PatchError,
    naming the patch and what to check, when it is gone."""
    if ":" in p.target:
        module_name, _, path = p.target.partition(":")
        try:
            obj: Any = importlib.import_module(module_name)
        except ImportError as exc:
            raise PatchError(f"{p.name}: cannot import {module_name} ({exc}); {p.where} needs "
                             f"{p.library} {p.versions}") from exc
        for part in path.split("."):
            # A class must define the name itself: one inherited from a base class is another
            # function (nbclient's execute_cell is synchronous, Voilà's a coroutine).
            own = part in vars(obj) if isinstance(obj, type) else hasattr(obj, part)
            if not own:
                raise PatchError(
                    f"{p.name}: {p.library} {installed_version(p) or '(not installed)'} has no "
                    f"{p.target}; {p.where} was written for {p.library} {p.versions}. "
                    f"Without it: {p.breaks}")
            obj = getattr(obj, part)
        return obj
    text = _distribution_text(p)
    if text is None or p.marker not in text:
        what = f"has no {p.target}" if text is None else \
            f"{p.target} no longer holds {p.marker!r}"
        raise PatchError(f"{p.name}: {p.library} {installed_version(p) or '(not installed)'} "
                         f"{what}; {p.where} was written for {p.library} {p.versions}. "
                         f"Without it: {p.breaks}")
    return text


def require(name: str) -> Any:
    """What the patch *name* reaches for, checked: the code applying a patch calls this, so a
    library that changed stops the server or the build with a clear message."""
    return resolve(patch(name))


def problems(p: Patch) -> list[str]:
    """What is wrong with *p* in this environment: a version outside its range, a name gone."""
    found: list[str] = []
    version = installed_version(p)
    if version is None:
        found.append(f"{p.name}: {p.library} is not installed (written for {p.versions})")
    elif not in_range(p, version):
        found.append(f"{p.name}: {p.library} {version} is outside {p.versions}, the versions "
                     f"{p.where} was written for; check it still works, then widen the range")
    if p.target and version is not None:
        try:
            resolve(p)
        except PatchError as exc:
            found.append(str(exc))
    return found


def version_warnings() -> list[str]:
    """One line for each Python patch whose library's installed version is out of range."""
    return [line for p in PATCHES if not p.npm for line in problems(p)]
