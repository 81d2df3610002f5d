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
