# Voilà's configuration for the live book, found through JUPYTER_CONFIG_PATH (set by
# rulescore.cli.voila_env). Chapters are served without their worked-example checks, and a cell
# whose output no reader can change runs for a chapter's first reader only: later readers are
# shown the output it kept (rulescore.serving explains which cells, and why that is safe).
from rulescore.serving import prelaunch_hook, run_or_reuse
from voila.execute import VoilaExecutor

c.VoilaConfiguration.prelaunch_hook = prelaunch_hook  # noqa: F821 (c is the config object)

# The prelaunch hook plans each page and writes the plan into its cells' metadata; Voilà runs a
# page cell by cell through VoilaExecutor.execute_cell, which now follows that plan.
_execute_cell = VoilaExecutor.execute_cell


async def _execute_or_reuse(self, cell, *args, **kwargs):
    return await run_or_reuse(lambda *a, **k: _execute_cell(self, *a, **k), cell, *args, **kwargs)


VoilaExecutor.execute_cell = _execute_or_reuse

# Voilà runs each chapter with nbclient, which waits only 4 s (its default) after a cell's reply
# for the cell's output to arrive, then moves on *without it*. On a busy server (20 readers
# opening chapters at once on 2 CPUs) the output of a tool's cell can take longer, and the
# reader's page then silently lacks that tool. The load benchmark (benchmarks/web/run_web.py)
# found 5 such timeouts in one 20-reader rush, and 4 pages each missing a whole tool. The wait
# only lasts until the cell's output has arrived, so a long limit costs nothing on a quiet server.
c.VoilaExecutor.iopub_timeout = 120  # noqa: F821

# A reader's change travels to the kernel and back over one websocket per page, and the kernel
# answers with several messages (busy, one update per changed view, idle). jupyter_server leaves
# Nagle's algorithm on for that socket, so the second and later messages could wait for the
# browser's delayed ACK: 40 ms on Linux loopback. The healing walker, which updates several
# views per change, took ~48 ms on about one change in ten instead of ~7 ms. Sending each
# message at once (TCP_NODELAY, as tornado's own docs advise for websockets) removes the wait.
from jupyter_server.services.kernels.connection.channels import (  # noqa: E402
    ZMQChannelsWebsocketConnection)


class PromptKernelConnection(ZMQChannelsWebsocketConnection):
    """The kernel websocket with TCP_NODELAY: replies are sent as soon as they are written."""

    def connect(self):
        self.websocket_handler.set_nodelay(True)
        return super().connect()


c.Voila.kernel_websocket_connection_class = PromptKernelConnection  # noqa: F821


# Voilà makes a new template exporter, and so a new Jinja environment, for every page it serves,
# and Jinja compiles the page's templates again in each (lab/index, base, display_priority and
# the templates they extend): about a fifth of the server's CPU time per page in a profile. A
# bytecode cache shared by every environment keeps each compiled template in memory, keyed by
# its name and a checksum of its source, so an edited template is compiled afresh.
from jinja2 import BytecodeCache  # noqa: E402
from voila.exporter import VoilaExporter  # noqa: E402


class CompiledTemplates(BytecodeCache):
    """Compiled Jinja templates kept in this process's memory."""

    def __init__(self):
        self.store = {}

    def load_bytecode(self, bucket):
        if bucket.key in self.store:
            bucket.bytecode_from_string(self.store[bucket.key])

    def dump_bytecode(self, bucket):
        self.store[bucket.key] = bucket.bytecode_to_string()


COMPILED_TEMPLATES = CompiledTemplates()
_new_environment = VoilaExporter._create_environment


def _environment_with_compiled_templates(self):
    environment = _new_environment(self)
    environment.bytecode_cache = COMPILED_TEMPLATES
    return environment


VoilaExporter._create_environment = _environment_with_compiled_templates


# A chapter's first reader since the server started runs every cell (the outputs no reader can
# change are kept for later readers: rulescore.serving). So that no reader is that first reader,
# the server opens every page of the book once as soon as it listens, one page at a time, and
# shuts each page's kernel down once its page is rendered (rulescore.serving.warm_up).
# RULEBOOK_WARM_UP=0 (rulebook serve --no-warm-up) turns it off.
import inspect  # noqa: E402
import os  # noqa: E402

import tornado.ioloop  # noqa: E402
from tornado.httpclient import AsyncHTTPClient, HTTPClientError  # noqa: E402
from voila.app import Voila  # noqa: E402

from rulescore.errors import RulesError  # noqa: E402
from rulescore.serving import warm_up, warm_up_enabled  # noqa: E402

WARM_UP_TIMEOUT_S = 300      # one page; a page on a busy server can take a minute


def _book_pages():
    """The notebooks of the book in reading order (landing page first), as served paths."""
    from rulescore.book import load_book
    book = load_book()
    return [f"{book.root}.ipynb"] + [c.notebook for c in book.chapters
                                    if (book.book_dir / c.notebook).is_file()]


async def _warm_up_pages(app):
    host = app.ip if app.ip not in ("", "0.0.0.0", "::") else "127.0.0.1"
    host = f"[{host}]" if ":" in host else host          # an IPv6 address, e.g. ::1
    base = f"http://{host}:{app.port}{app.base_url}voila/render/"
    client = AsyncHTTPClient()

    async def fetch(page):
        try:
            response = await client.fetch(base + page, request_timeout=WARM_UP_TIMEOUT_S)
        except HTTPClientError as exc:
            raise OSError(f"HTTP {exc.code}") from exc
        return response.body.decode("utf-8", "replace")

    async def shutdown(kernel_id):
        result = app.kernel_manager.shutdown_kernel(kernel_id)
        if inspect.isawaitable(result):
            await result

    try:
        pages = _book_pages()
    except RulesError as exc:
        app.log.warning("warm-up skipped: %s", exc)
        return
    done = await warm_up(pages, fetch, shutdown)
    (app.log.warning if done.failed else app.log.info)(done.summary())


_listen = Voila.listen


def _listen_and_warm_up(self):
    if warm_up_enabled(os.environ):
        tornado.ioloop.IOLoop.current().add_callback(_warm_up_pages, self)
    return _listen(self)


Voila.listen = _listen_and_warm_up


# ---- Admission (rulebook.admission) ----------------------------------------------------------
# A chapter is run under its one address only (another spelling is redirected first, so the
# outputs kept for later readers stay one set per chapter), and the server holds at most
# RULEBOOK_MAX_KERNELS live kernels (rulebook serve --max-kernels; 20 unless told): a reader
# beyond them gets "the book is full" page at once, HTTP 503, and no kernel.
from rulebook.admission import CappedKernelManager, admitting  # noqa: E402

c.VoilaConfiguration.multi_kernel_manager_class = CappedKernelManager  # noqa: F821
c.VoilaConfiguration.prelaunch_hook = admitting(c.VoilaConfiguration.prelaunch_hook)  # noqa: F821
# ---- end of admission ---------------------------------------------------------------------------


# ---- Readers' connections (rulebook.connection) -------------------------------------------------
# Each page gets the _xsrf cookie, so the shutdown request Voilà's page sends when its tab closes
# passes the XSRF check and frees the kernel at once. A page's kernel is watched while the page is
# connected: gone, dead, or busy without a word past ReaderConnection.busy_limit (60 s), the
# page's websocket is closed and the page says it lost its connection. One page per kernel, and
# no shutdown_request from a page.
from rulebook.connection import ReaderConnection, with_xsrf_cookie  # noqa: E402

c.VoilaConfiguration.prelaunch_hook = with_xsrf_cookie(  # noqa: F821
    c.VoilaConfiguration.get("prelaunch_hook"))  # noqa: F821


class ReaderKernelConnection(ReaderConnection, PromptKernelConnection):
    """The page's kernel websocket: one page a kernel, the kernel watched, replies sent at once."""


c.Voila.kernel_websocket_connection_class = ReaderKernelConnection  # noqa: F821
# A kernel that died is not restarted: a restarted kernel is empty (the page's tools are gone
# from it), and the watch above shuts a dead kernel down and tells its page instead.
c.KernelManager.autorestart = False  # noqa: F821
# ---- end of readers' connections ----------------------------------------------------------------
