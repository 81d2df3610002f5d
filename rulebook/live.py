"""The live book's Voilà configuration: :func:`configure` sets everything the server needs.

``share/jupyter/config/voila.py`` (found through ``JUPYTER_CONFIG_PATH``, which
:func:`rulebook.cli.voila_env` sets) calls :func:`configure` with Voilà's config object.
Settings come first; the few places that must reach into Voilà or jupyter_server are each
fetched through :func:`rulebook.patches.require`, so a library that changed stops the server
at start with a message naming the patch (``rulebook serve`` makes a configuration error fatal).

What the server does, and why:

- **Pages:** a chapter is served without its worked-example checks, and a cell whose output no
  reader can change runs for the chapter's first reader only (:mod:`rulebook.serving`);
  Voilà's executor follows that plan (:func:`follow_reuse_plan`).
- **Admission:** one address per chapter and at most ``RULEBOOK_MAX_KERNELS`` live kernels
  (:mod:`rulebook.admission`); each page gets the ``_xsrf`` cookie so the shutdown its tab sends
  on closing passes the XSRF check (:mod:`rulebook.connection`).
- **Connections:** one page per kernel, the kernel watched, replies sent without waiting for
  an ACK (:class:`ReaderKernelConnection`); a dead kernel is not restarted empty under its page.
- **Slow output is waited for:** nbclient moves on without a cell's output when it arrives more
  than ``iopub_timeout`` seconds after the cell's reply (4 s by default), and the page then
  lacks that tool; on a loaded server output can take longer. The wait ends as soon as the
  output arrives, so a long limit costs nothing on a quiet server.
- **Templates compiled once** per server, not once per page (:func:`keep_compiled_templates`).
- **Warm-up:** every page is opened once as the server starts, so no reader is a chapter's
  first (:class:`BookKernelManager`; ``RULEBOOK_WARM_UP=0`` turns it off).
"""

from __future__ import annotations

import inspect
import logging
import os
from typing import Any

from jinja2 import BytecodeCache
from jupyter_server.services.kernels.connection.channels import (
    ZMQChannelsWebsocketConnection,
)

from rulescore.errors import RulesError

from . import serving
from .admission import CappedKernelManager, admitting
from .connection import ReaderConnection, with_xsrf_cookie
from .patches import require, version_warnings

log = logging.getLogger(__name__)

IOPUB_TIMEOUT_S = 120        # the longest wait for a cell's output after its reply
WARM_UP_TIMEOUT_S = 300      # one warm-up page; a page on a busy server can take a minute
PATCHED = "__rulebook_patch__"   # marks our wrappers, so that configuring twice wraps once


class PromptKernelConnection(ZMQChannelsWebsocketConnection):
    """The kernel websocket with TCP_NODELAY: each message is sent as soon as it is written.

    A reply to a reader's change is several messages (busy, one update per changed view, idle);
    with Nagle's algorithm on, the later ones could wait for the browser's delayed ACK (40 ms on
    Linux loopback). Tornado's documentation advises TCP_NODELAY for websockets
    (rulebook.patches: jupyter-server-websocket-nodelay)."""

    def connect(self) -> Any:
        self.websocket_handler.set_nodelay(True)
        return super().connect()


class ReaderKernelConnection(ReaderConnection, PromptKernelConnection):
    """The page's kernel websocket: one page a kernel, the kernel watched, replies sent at once."""


class CompiledTemplates(BytecodeCache):
    """Compiled Jinja templates kept in this process's memory, keyed by template name and a
    checksum of its source (so an edited template is compiled afresh)."""

    def __init__(self) -> None:
        self.store: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Any) -> None:
        if bucket.key in self.store:
            bucket.bytecode_from_string(self.store[bucket.key])

    def dump_bytecode(self, bucket: Any) -> None:
        self.store[bucket.key] = bucket.bytecode_to_string()


COMPILED_TEMPLATES = CompiledTemplates()


def _wrap(owner: type, attribute: str, wrapper: Any) -> None:
    """Set *wrapper* as ``owner.attribute`` unless one of ours is already there."""
    if not getattr(getattr(owner, attribute), PATCHED, False):
        setattr(wrapper, PATCHED, True)
        setattr(owner, attribute, wrapper)


def follow_reuse_plan() -> None:
    """Make Voilà's executor follow the plan :func:`rulebook.serving.mark_reuse` writes into a
    page's cells: show kept outputs instead of running, or run and keep (rulebook.patches:
    voila-execute-cell)."""
    from voila.execute import VoilaExecutor
    execute_cell = require("voila-execute-cell")

    async def execute_or_reuse(self: Any, cell: Any, *args: Any, **kwargs: Any) -> Any:
        return await serving.run_or_reuse(lambda *a, **k: execute_cell(self, *a, **k),
                                          cell, *args, **kwargs)

    _wrap(VoilaExecutor, "execute_cell", execute_or_reuse)


def keep_compiled_templates() -> None:
    """Give the Jinja environment Voilà makes for each page one shared cache of compiled
    templates (rulebook.patches: voila-exporter-environment)."""
    from voila.exporter import VoilaExporter
    require("voila-exporter-environment")       # nbconvert's, which VoilaExporter inherits
    create_environment = VoilaExporter._create_environment

    def environment_with_compiled_templates(self: Any) -> Any:
        environment = create_environment(self)
        environment.bytecode_cache = COMPILED_TEMPLATES
        return environment

    _wrap(VoilaExporter, "_create_environment", environment_with_compiled_templates)


def book_pages() -> list[str]:
    """The notebooks of the book in reading order (landing page first), as served paths."""
    from .toc import load_book
    book = load_book()
    return [f"{book.root}.ipynb"] + [c.notebook for c in book.chapters
                                    if (book.book_dir / c.notebook).is_file()]


async def warm_up_pages(app: Any) -> serving.WarmUp | None:
    """Open every page of the book once over HTTP, as a first reader would, and stop each
    page's kernel (:func:`rulebook.serving.warm_up`); log what was done, as a warning when a
    page failed or its kernel could not be stopped. *app* is Voilà's application, listening."""
    from tornado.httpclient import AsyncHTTPClient, HTTPClientError

    host = app.ip if app.ip not in ("", "0.0.0.0", "::") else "127.0.0.1"
    host = f"[{host}]" if ":" in host else host          # an IPv6 address, e.g. ::1
    base = f"http://{host}:{app.port}{app.base_url}voila/render/"
    client = AsyncHTTPClient()

    async def fetch(page: str) -> str:
        try:
            response = await client.fetch(base + page, request_timeout=WARM_UP_TIMEOUT_S)
        except HTTPClientError as exc:
            raise OSError(f"HTTP {exc.code}") from exc
        return response.body.decode("utf-8", "replace")

    async def shutdown(kernel_id: str) -> None:
        result = app.kernel_manager.shutdown_kernel(kernel_id)
        if inspect.isawaitable(result):
            await result

    try:
        pages = book_pages()
    except RulesError as exc:
        app.log.warning("warm-up skipped: %s", exc)
        return None
    done = await serving.warm_up(pages, fetch, shutdown)
    (app.log.warning if done.failed else app.log.info)(done.summary())
    return done


class BookKernelManager(CappedKernelManager):
    """The live book's kernel manager: at most so many kernels (:class:`CappedKernelManager`),
    and the warm-up. Voilà makes its kernel manager (its ``multi_kernel_manager_class``
    setting) with the app as ``parent`` just before it listens and starts its event loop, so a
    callback added now runs once the server is listening, with its address and this manager:
    no hook into Voilà's start is needed."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        app = self.parent
        if serving.warm_up_enabled(os.environ) and all(
                hasattr(app, name) for name in ("ip", "port", "base_url", "log")):
            from tornado.ioloop import IOLoop
            IOLoop.current().add_callback(warm_up_pages, app)


def configure(c: Any) -> None:
    """Set the live book's Voilà configuration on *c* (Voilà's config object) and apply the
    patches it needs. Raises :class:`rulebook.patches.PatchError` when a patched name is gone."""
    for line in version_warnings():
        log.warning("rulebook.patches: %s", line)
    require("voila-page-kernel-id")       # the warm-up reads it; fail now, not page by page
    c.VoilaConfiguration.prelaunch_hook = with_xsrf_cookie(admitting(serving.prelaunch_hook))
    c.VoilaConfiguration.multi_kernel_manager_class = BookKernelManager
    c.VoilaExecutor.iopub_timeout = IOPUB_TIMEOUT_S
    c.Voila.kernel_websocket_connection_class = ReaderKernelConnection
    # A restarted kernel is empty (the page's tools are gone from it): the connection's watch
    # shuts a dead kernel down and tells its page instead.
    c.KernelManager.autorestart = False
    require("jupyter-server-websocket-nodelay")
    require("jupyter-server-reader-connection")
    require("jupyter-server-capped-kernels")
    follow_reuse_plan()
    keep_compiled_templates()
