"""rulebook.connection without a server: the cookie hook, the refused message types, the verdict
on a page's kernel and what one look at it does."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone

import pytest

from rulebook import connection as rc

NOW = datetime(2026, 11, 26, 1, 0, tzinfo=timezone.utc)


class Handler:
    """A request handler as tornado's: reading xsrf_token sets the cookie if there was none."""

    def __init__(self, has_cookie=False):
        self.cookies = {"_xsrf": "2|old"} if has_cookie else {}
        self.reads = 0

    @property
    def xsrf_token(self):
        self.reads += 1
        self.cookies.setdefault("_xsrf", "2|new")
        return self.cookies["_xsrf"].encode()


def test_the_prelaunch_hook_sets_the_cookie_then_runs_the_books_hook():
    calls = []

    def book_hook(handler, notebook, cwd):
        calls.append((handler.cookies["_xsrf"], notebook, cwd))
        return "planned " + notebook

    hook = rc.with_xsrf_cookie(book_hook)
    handler = Handler()
    assert hook(handler, notebook="nb", cwd="book") == "planned nb"
    assert calls == [("2|new", "nb", "book")]
    assert hook.wrapped is book_hook
    kept = Handler(has_cookie=True)
    rc.with_xsrf_cookie(None)(kept, notebook="nb", cwd="book")
    assert kept.cookies == {"_xsrf": "2|old"} and kept.reads == 1


def test_the_cookie_comes_from_tornado_itself():
    """tornado sets the _xsrf cookie when xsrf_token is read and the request carries none."""
    from tornado.httputil import HTTPHeaders, HTTPServerRequest, RequestStartLine
    from tornado.web import Application, RequestHandler

    app = Application(cookie_secret="test")

    class Connection:
        def set_close_callback(self, callback):
            pass

    def handler(headers):
        request = HTTPServerRequest(
            start_line=RequestStartLine("GET", "/voila/render/x.ipynb", "HTTP/1.1"),
            headers=HTTPHeaders({"Host": "127.0.0.1", **headers}), connection=Connection())
        return RequestHandler(app, request)

    fresh = handler({})
    rc.set_xsrf_cookie(fresh)
    assert "_xsrf=" in str(fresh._new_cookie)
    token = fresh.xsrf_token.decode()
    returning = handler({"Cookie": f"_xsrf={token}"})
    rc.set_xsrf_cookie(returning)
    assert not getattr(returning, "_new_cookie", None)


class Manager:
    def __init__(self, allowed):
        self.allowed_message_types = list(allowed)


VOILAS_LIST = ["comm_open", "comm_close", "comm_msg", "comm_info_request",
               "kernel_info_request", "shutdown_request"]


def test_shutdown_request_is_taken_out_of_voilas_list():
    manager = Manager(VOILAS_LIST)
    rc.refuse_message_types(manager)
    assert manager.allowed_message_types == VOILAS_LIST[:-1]
    rc.refuse_message_types(manager)                        # again: nothing more to take out
    assert manager.allowed_message_types == VOILAS_LIST[:-1]


def test_an_empty_list_which_allows_everything_is_an_error():
    with pytest.raises(RuntimeError, match="allows every message type"):
        rc.refuse_message_types(Manager([]))


def test_voila_still_gives_its_kernel_manager_a_list_with_shutdown_request():
    """The list Voilà 0.5 gives its kernel manager, which the refusal edits: if Voilà changes
    it, this fails loudly rather than the refusal quietly doing something else."""
    import inspect

    from voila.app import Voila

    source = inspect.getsource(Voila.init_settings)
    assert "allowed_message_types=[" in source
    for kind in VOILAS_LIST:
        assert f'"{kind}"' in source


@pytest.mark.parametrize("alive, state, silent_s, verdict", [
    (True, "idle", 3600, None),            # a reader reading: never stopped for that
    (True, "busy", 59, None),
    (True, "busy", 61, "busy"),
    (True, "starting", 3600, None),
    (False, "idle", 0, "dead"),
    (False, "busy", 0, "dead"),
])
def test_the_verdict_on_a_kernel(alive, state, silent_s, verdict):
    last = NOW - timedelta(seconds=silent_s)
    assert rc.kernel_verdict(alive, state, last, NOW, 60) == verdict


def test_a_kernel_not_yet_heard_from_is_not_busy():
    assert rc.kernel_verdict(True, "busy", None, NOW, 60) is None


class Kernel:
    def __init__(self, alive=True, state="idle", silent_s=0):
        self.alive, self.execution_state = alive, state
        self.last_activity = datetime.now(timezone.utc) - timedelta(seconds=silent_s)

    async def is_alive(self):
        return self.alive


class Kernels:
    def __init__(self, *ids):
        self.ids, self.shut = set(ids), []

    def __contains__(self, kernel_id):
        return kernel_id in self.ids

    async def shutdown_kernel(self, kernel_id, now=False):
        self.shut.append((kernel_id, now))
        self.ids.discard(kernel_id)


class Socket:
    closed = None

    def close(self, code=None, reason=None):
        self.closed = (code, reason)


class Reader:
    def __init__(self):
        self.websocket_handler = Socket()
        self._open = True                     # connected: its websocket is open

    is_open = rc.ReaderConnection.is_open


class Watch:
    stopped = False

    def stop(self):
        self.stopped = True


def _look(kernels, kernel, kernel_id="k1"):
    reader, watch = Reader(), Watch()
    readers, watches = {kernel_id: reader}, {kernel_id: watch}
    look = rc.watch_kernel(kernel_id, kernels, kernel, 60, readers, watches)
    with ThreadPoolExecutor(1) as own_loop:      # this thread may be running Playwright's loop
        reason = own_loop.submit(asyncio.run, look).result()
    return reason, reader.websocket_handler.closed, watch.stopped, readers, watches


def test_a_fine_kernel_is_left_alone():
    kernels = Kernels("k1")
    reason, closed, stopped, readers, watches = _look(kernels, Kernel(state="busy", silent_s=5))
    assert (reason, closed, stopped, kernels.shut) == (None, None, False, [])
    assert "k1" in readers and "k1" in watches


def test_a_kernel_gone_closes_its_page_and_ends_the_watch():
    kernels = Kernels()                                    # culled, or its page unloaded
    reason, closed, stopped, readers, watches = _look(kernels, Kernel())
    assert reason == "gone" and closed[0] == 1001 and stopped
    assert kernels.shut == [] and readers == {} and watches == {}


@pytest.mark.parametrize("kernel, reason", [(Kernel(alive=False), "dead"),
                                            (Kernel(state="busy", silent_s=61), "busy")])
def test_a_dead_or_overrun_kernel_is_shut_down_and_its_page_told(kernel, reason):
    kernels = Kernels("k1")
    got, closed, stopped, readers, watches = _look(kernels, kernel)
    assert got == reason and closed == (1001, "The kernel of this page stopped") and stopped
    assert kernels.shut == [("k1", True)] and readers == {} and watches == {}


def test_the_busy_limit_is_a_setting_of_the_connection():
    trait = rc.ReaderConnection.class_traits()["busy_limit"]
    assert trait.default_value == rc.BUSY_LIMIT_S == 60
    assert trait.metadata.get("config") is True


def test_the_books_configuration_uses_the_reader_connection_and_the_cookie_hook():
    from tests.book.test_serve_env import _voila_config

    config = _voila_config()
    assert issubclass(config.Voila.kernel_websocket_connection_class, rc.ReaderConnection)
    hook = config.VoilaConfiguration.prelaunch_hook
    assert hook.__qualname__ == rc.with_xsrf_cookie(None).__qualname__
    assert hook.wrapped is not None                 # the hooks set before ours still run


def test_voilas_page_still_publishes_what_the_lost_connection_notice_watches():
    """The book's page script (templates/rulebook/index.html.j2) reaches the page's kernel
    connection through window.jupyterapp.widgetManagerPromise, which Voilà 0.5's page script
    sets. The browser test sees the notice work; this says plainly which piece went missing
    if a Voilà upgrade drops either."""
    from pathlib import Path

    import voila
    from jupyter_core.paths import jupyter_path

    static = [Path(p) / "templates" / "base" / "static" for p in jupyter_path("voila")]
    scripts = [f for d in static if d.is_dir() for f in d.glob("*.js")]
    assert scripts, f"Voilà {voila.__version__}'s page scripts were not found in {static}"
    text = "".join(f.read_text(errors="replace") for f in scripts)
    assert "window.jupyterapp=" in text, "Voilà no longer publishes window.jupyterapp"
    assert "widgetManagerPromise" in text, "Voilà's application has no widgetManagerPromise"


def test_a_connection_is_open_from_connect_to_disconnect(monkeypatch):
    """Whether a page's websocket is open is tracked from jupyter_server's own calls (connect
    when the socket opens, disconnect when it closes), not read from tornado's internals."""
    from jupyter_server.services.kernels.connection.channels import (
        ZMQChannelsWebsocketConnection,
    )

    monkeypatch.setattr(ZMQChannelsWebsocketConnection, "connect", lambda self: "connected")
    monkeypatch.setattr(ZMQChannelsWebsocketConnection, "disconnect", lambda self: None)
    from types import SimpleNamespace

    monkeypatch.setattr(rc.ReaderConnection, "kernel_manager", SimpleNamespace(kernel_id="k-open"))
    connection = rc.ReaderConnection.__new__(rc.ReaderConnection)
    assert not connection.is_open()
    assert connection.connect() == "connected" and connection.is_open()
    connection.disconnect()
    assert not connection.is_open()
