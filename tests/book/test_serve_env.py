"""How the live book starts Voilà (rulebook.cli): its environment and its command line."""

from pathlib import Path

from rulebook.cli import voila_command, voila_env


def test_voila_env_finds_the_template_and_lets_kernels_cache_bytecode(monkeypatch):
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.setenv("JUPYTER_PATH", "/elsewhere")
    env = voila_env(Path("/project"))
    assert "PYTHONDONTWRITEBYTECODE" not in env           # kernels keep compiled modules
    assert env["RULEBOOK_HOME"] == "/project"
    assert env["JUPYTER_PATH"].split(":") == ["/project/share/jupyter", "/elsewhere"]
    assert env["JUPYTER_CONFIG_PATH"].split(":")[0] == "/project/share/jupyter/config"
    assert env["RULEBOOK_WARM_UP"] == "1"                 # pages warmed up at start
    assert env["RULEBOOK_TARGET"] == "live"               # widgets opened quietly (widgets.lean)
    assert voila_env(Path("/project"), warm_up=False)["RULEBOOK_WARM_UP"] == "0"


def test_rulebook_serve_warms_up_unless_told_not_to():
    from rulebook.cli import parser
    assert parser().parse_args(["serve"]).warm_up is True
    assert parser().parse_args(["serve", "--no-warm-up"]).warm_up is False


def test_voila_command_hides_code_errors_and_culls_idle_kernels():
    cmd = voila_command("127.0.0.1", 8866, Path("/project/book"))
    assert "--template=rulebook" in cmd and "--Voila.ip=127.0.0.1" in cmd and "--port=8866" in cmd
    assert "--MappingKernelManager.cull_idle_timeout=600" in cmd
    assert "--MappingKernelManager.cull_interval=60" in cmd
    assert "--VoilaConfiguration.show_tracebacks=False" in cmd


def _voila_config():
    """Our Voilà configuration file, read as Voilà reads it."""
    from traitlets.config.loader import PyFileConfigLoader
    config_dir = Path(__file__).resolve().parents[2] / "share" / "jupyter" / "config"
    return PyFileConfigLoader("voila.py", path=str(config_dir)).load_config()


def test_the_chapter_runner_waits_for_slow_output_instead_of_dropping_it():
    """Voilà's executor (nbclient) drops a cell's output that arrives more than iopub_timeout
    seconds after the cell's reply; its default of 4 s lost whole tools under load. Our Voilà
    configuration, read as Voilà reads it, gives the executor a long limit."""
    import nbformat
    from voila.execute import VoilaExecutor

    executor = VoilaExecutor(nbformat.v4.new_notebook(), config=_voila_config())
    assert executor.iopub_timeout >= 60
    assert VoilaExecutor(nbformat.v4.new_notebook()).iopub_timeout == 4   # the default it fixes


def test_kernel_replies_are_sent_at_once_not_held_for_an_ack(monkeypatch):
    """Nagle's algorithm held a reply's later messages for the browser's delayed ACK (40 ms).
    Our connection class switches it off on the page's kernel websocket, then connects as
    jupyter_server does."""
    from jupyter_server.services.kernels.connection.channels import (
        ZMQChannelsWebsocketConnection)

    cls = _voila_config().Voila.kernel_websocket_connection_class
    assert issubclass(cls, ZMQChannelsWebsocketConnection)

    class Handler:
        nodelay = None

        def set_nodelay(self, value):
            self.nodelay = value

    monkeypatch.setattr(ZMQChannelsWebsocketConnection, "connect", lambda self: "connected")
    connection = cls.__new__(cls)
    connection._trait_values["websocket_handler"] = handler = Handler()
    assert connection.connect() == "connected" and handler.nodelay is True


def test_pages_share_compiled_templates(monkeypatch):
    """Voilà makes a new Jinja environment for every page; our configuration gives them one
    cache of compiled templates, so a page's templates are compiled once, not on every page."""
    from jinja2 import Environment
    from voila.exporter import VoilaExporter

    # Reading the configuration patches the exporter: put the original back after the test.
    monkeypatch.setattr(VoilaExporter, "_create_environment", VoilaExporter._create_environment)
    _voila_config()
    compiled = []
    compile_ = Environment.compile
    monkeypatch.setattr(Environment, "compile",
                        lambda self, source, name=None, *a, **k:
                        compiled.append(name) or compile_(self, source, name, *a, **k))
    first, second = (VoilaExporter(template_name="lab").environment for _ in range(2))
    assert first is not second
    first.get_template("index.html.j2")
    once = list(compiled)
    assert "index.html.j2" in once
    second.get_template("index.html.j2")
    assert compiled == once                      # the second page compiled nothing


def test_the_chapter_runner_shows_kept_outputs_without_running_their_cells(monkeypatch):
    """Our configuration makes Voilà's executor follow the page plan rulebook.serving writes
    into the cells: a reused cell shows its kept outputs and is not run; a kept cell is run
    and its outputs are kept for the next reader."""
    from tests.book.aio import run_async

    import nbformat
    from voila.execute import VoilaExecutor

    from rulebook.serving import MARK, SHOWN_ONCE

    ran = []

    async def fake_execute_cell(self, cell, resources, cell_index, store_history=True):
        ran.append(cell.source)
        cell.outputs = [nbformat.v4.new_output("display_data", data={"text/html": "ran"})]
        return cell

    monkeypatch.setattr(VoilaExecutor, "execute_cell", fake_execute_cell)
    _voila_config()                                   # wraps the executor's execute_cell
    executor = VoilaExecutor(nbformat.v4.new_notebook())
    kept = [nbformat.v4.new_output("display_data", data={"text/html": "kept"})]
    reused = nbformat.v4.new_code_cell("print_table()", metadata={MARK: {"outputs": kept}})
    key = ["/test/serve-env", 1, "digest"]
    keep = nbformat.v4.new_code_cell("show()", metadata={MARK: {"key": key}})
    plain = nbformat.v4.new_code_cell("Tool()")
    for cell in (reused, keep, plain):
        run_async(executor.execute_cell(cell, None, 0, store_history=False))
    assert ran == ["show()", "Tool()"]
    assert reused.outputs == kept and MARK not in reused.metadata
    assert SHOWN_ONCE.get(tuple(key))[0]["data"]["text/html"] == "ran"


def test_kernel_messages_are_packed_with_orjson():
    """Every widget model a chapter opens is a kernel message, packed by the kernel and
    unpacked by Voilà; with orjson installed (a dependency) jupyter_client uses it for both,
    which makes opening a widget model cheaper for the kernel (benchmarks/README.md)."""
    from jupyter_client.session import Session, orjson_packer

    session = Session()
    assert session.packer == "orjson" and session.pack is orjson_packer
