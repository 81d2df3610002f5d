"""The live server's Voilà configuration (rulebook.live): the warm-up starts from the kernel
manager Voilà makes, with no hook into Voilà's own start."""

import pytest
from traitlets import Integer, Unicode
from traitlets.config import Configurable

from rulebook import live


class App(Configurable):
    """What the warm-up reads of Voilà's application."""

    ip = Unicode("127.0.0.1")
    port = Integer(8866)
    base_url = Unicode("/")


class Loop:
    def __init__(self):
        self.callbacks = []

    def add_callback(self, fn, *args):
        self.callbacks.append((fn, args))


@pytest.fixture
def loop(monkeypatch):
    from tornado.ioloop import IOLoop
    fake = Loop()
    monkeypatch.setattr(IOLoop, "current", staticmethod(lambda *a, **k: fake))
    return fake


def test_the_book_kernel_manager_starts_the_warm_up_once_the_loop_runs(loop, monkeypatch):
    monkeypatch.delenv("RULEBOOK_WARM_UP", raising=False)
    app = App()
    app.log = live.log
    manager = live.BookKernelManager(parent=app)
    assert loop.callbacks == [(live.warm_up_pages, (app,))]
    assert manager.has_room()                          # and it caps kernels as before


def test_no_warm_up_when_turned_off_or_without_an_app(loop, monkeypatch):
    monkeypatch.setenv("RULEBOOK_WARM_UP", "0")
    app = App()
    app.log = live.log
    live.BookKernelManager(parent=app)
    monkeypatch.delenv("RULEBOOK_WARM_UP")
    live.BookKernelManager()                            # made outside a Voilà app (tests)
    assert loop.callbacks == []


def test_the_configuration_uses_the_book_kernel_manager():
    from traitlets.config import Config
    c = Config()
    live.configure(c)
    assert c.VoilaConfiguration.multi_kernel_manager_class is live.BookKernelManager
    assert c.Voila.kernel_websocket_connection_class is live.ReaderKernelConnection
    assert c.KernelManager.autorestart is False and c.VoilaExecutor.iopub_timeout >= 60
