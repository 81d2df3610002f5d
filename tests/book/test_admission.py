"""Who gets a live page (rulebook.admission): one address per chapter, and at most so many
kernels at once. No server here: tests/browser/test_book_full.py serves the book."""

import asyncio
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web

from rulebook import admission as A
from rulebook import serving
from tests.book.aio import run_async

CHAPTER = "/voila/render/00_dice/dice.ipynb"

SPELLINGS = [
    "/voila/render/./00_dice/dice.ipynb",
    "/voila/render//00_dice/dice.ipynb",
    "/voila/render/00_dice//dice.ipynb",
    "/voila/render/00_dice/./dice.ipynb",
    "/voila/render/00_dice/dice.ipynb/",
    "/voila/render/00_dice/dice.ipynb/.",
    "/voila/render/tsl/../00_dice/dice.ipynb",
    "/voila/render/nowhere/../00_dice/dice.ipynb",
    "/voila/render/00_dice/%2e%2e/00_dice/dice.ipynb",
    "/voila/render/00_dice/%2E/dice.ipynb",
    "/voila/render/%30%30_dice/%64ice.ipynb",
    "/voila/render/00_dice%2fdice.ipynb",
]


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_every_spelling_of_a_chapter_has_its_one_address(spelling):
    assert A.canonical_page(spelling) == CHAPTER


def test_the_one_address_is_its_own():
    assert A.canonical_page(CHAPTER) == CHAPTER
    assert A.canonical_page("/voila/render/a%20b/c(1).ipynb") == "/voila/render/a%20b/c(1).ipynb"
    assert A.canonical_page("/b/voila/render/./x.ipynb", "/b/") == "/b/voila/render/x.ipynb"


@pytest.mark.parametrize("path", [
    "/voila/render/../x.ipynb", "/voila/render/%2e%2e/x.ipynb", "/voila/render/a/../../x.ipynb",
    "/voila/render/", "/voila/render/./", "/voila/tree/x.ipynb"])
def test_a_path_that_leaves_the_book_has_no_address(path):
    assert A.canonical_page(path) is None


class Handler:
    """What the prelaunch hook reads of Voilà's request handler, and what it answers."""

    def __init__(self, path, manager=None, query=""):
        self.request = SimpleNamespace(path=path, query=query)
        self.base_url = "/"
        self.kernel_manager = manager or Manager()
        self.log = SimpleNamespace(warning=lambda *a: None)
        self.redirected = self.status = None
        self.headers = {}

    def redirect(self, url, permanent=False):
        self.redirected = (url, permanent)

    def set_status(self, status):
        self.status = status

    def set_header(self, name, value):
        self.headers[name] = value

    def render_template(self, name, **ns):
        return f"{name} {sorted(ns.items())}"


class Manager(A.CappedKernelManager):
    """The capped manager with *live* kernels running (no process started)."""

    def __init__(self, max_kernels=20, live=0):
        super().__init__(max_kernels=max_kernels)
        self.live = [f"k{i}" for i in range(live)]

    def list_kernel_ids(self):
        return list(self.live)


def _notebook():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("from rulescore.text import percent\n"
                                          "print(percent(1))"),
                nbformat.v4.new_code_cell(f"print('{Path(__file__).name} {id(nb)}')")]
    return nb


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_another_spelling_is_redirected_before_the_page_is_planned(spelling):
    handler, called = Handler(spelling, query="theme=dark"), []
    hook = A.admitting(lambda *args: called.append(args))
    with pytest.raises(web.Finish):
        hook(handler, notebook=_notebook(), cwd="00_dice")
    assert handler.redirected == (CHAPTER + "?theme=dark", True)
    assert called == []


def test_kept_outputs_stay_one_set_per_chapter_whatever_the_spelling():
    """A first reader's run keeps the outputs no reader can change, keyed by the page's address
    (rulebook.serving). Every spelling of the chapter is turned away before the page is planned,
    so no spelling runs as a new first reader and keeps them again."""
    hook = A.admitting(serving.prelaunch_hook)

    async def execute(cell, *args, **kwargs):
        cell["outputs"] = [nbformat.v4.new_output("stream", name="stdout", text="ran\n")]
        return cell

    async def read(path):
        notebook = _notebook()
        hook(Handler(path), notebook=notebook, cwd="00_dice")
        for cell in notebook.cells:
            await serving.run_or_reuse(execute, cell)

    before = len(serving.SHOWN_ONCE)
    run_async(read(CHAPTER))
    kept = len(serving.SHOWN_ONCE)
    assert kept > before
    for spelling in SPELLINGS:
        with pytest.raises(web.Finish):
            run_async(read(spelling))
    run_async(read(CHAPTER))
    assert len(serving.SHOWN_ONCE) == kept


def test_a_path_outside_the_book_is_not_found():
    with pytest.raises(web.HTTPError) as refused:
        A.admit(Handler("/voila/render/%2e%2e/x.ipynb"))
    assert refused.value.status_code == 404


def test_a_reader_beyond_the_most_kernels_is_told_the_book_is_full():
    handler = Handler(CHAPTER, Manager(max_kernels=2, live=2))
    with pytest.raises(web.Finish) as told:
        A.admit(handler)
    assert handler.status == 503 and handler.headers["Retry-After"] == "60"
    assert told.value.args[0].startswith("503.html")
    assert "('retry_url', '/voila/render/00_dice/dice.ipynb')" in told.value.args[0]
    A.admit(Handler(CHAPTER, Manager(max_kernels=2, live=1)))      # a place free: let through


def test_the_book_refuses_to_serve_without_its_kernel_cap():
    handler = Handler(CHAPTER, manager=SimpleNamespace())
    with pytest.raises(RuntimeError, match="CappedKernelManager"):
        A.admit(handler)


def test_kernels_still_starting_count(monkeypatch):
    """Readers arriving together: each start is counted from its first step, so the second
    start finds the first one's place taken though that kernel is not running yet."""
    started = []

    async def slow_start(self, *, kernel_id=None, **kwargs):
        started.append(kernel_id)
        await asyncio.sleep(0.05)
        return kernel_id

    monkeypatch.setattr(AsyncMappingKernelManager, "start_kernel", slow_start)
    manager = Manager(max_kernels=1)

    async def two_readers():
        return await asyncio.gather(manager.start_kernel(kernel_name="python3"),
                                    manager.start_kernel(kernel_name="python3"),
                                    return_exceptions=True)

    first, second = run_async(two_readers())
    assert started == [first]
    assert isinstance(second, web.HTTPError) and second.status_code == 503
    assert manager.live_kernels() == 0                 # the fake start registered no kernel


def test_a_kernel_being_shut_down_no_longer_counts(monkeypatch):
    """A reader following a link to the next chapter closes their page's kernel as they ask
    for the next page: a full book lets them in while that kernel stops."""
    async def slow_shutdown(self, kernel_id, now=False, restart=False):
        await asyncio.sleep(0.05)
        self.live.remove(kernel_id)

    monkeypatch.setattr(AsyncMappingKernelManager, "shutdown_kernel", slow_shutdown)
    manager = Manager(max_kernels=2, live=2)

    async def leave_and_ask():
        leaving = asyncio.ensure_future(manager.shutdown_kernel("k0"))
        await asyncio.sleep(0)
        room, live = manager.has_room(), manager.live_kernels()
        await leaving
        return room, live

    assert run_async(leave_and_ask()) == (True, 1)
    assert manager.live_kernels() == 1 and not manager._stopping


def test_the_most_kernels_come_from_the_environment():
    assert A.max_kernels_from({}) == 20
    assert A.max_kernels_from({"RULEBOOK_MAX_KERNELS": " 7 "}) == 7
    for bad in ("0", "-3", "many", "2.5"):
        with pytest.raises(ValueError, match="RULEBOOK_MAX_KERNELS must be a whole number"):
            A.max_kernels_from({"RULEBOOK_MAX_KERNELS": bad})


def test_rulebook_serve_takes_the_most_kernels(monkeypatch):
    from rulebook.cli import parser, voila_env
    assert parser().parse_args(["serve"]).max_kernels is None
    assert parser().parse_args(["serve", "--max-kernels", "5"]).max_kernels == 5
    with pytest.raises(SystemExit):
        parser().parse_args(["serve", "--max-kernels", "0"])
    monkeypatch.setenv("RULEBOOK_MAX_KERNELS", "9")
    assert voila_env(Path("/p"))["RULEBOOK_MAX_KERNELS"] == "9"     # the operator's own
    assert voila_env(Path("/p"), max_kernels=3)["RULEBOOK_MAX_KERNELS"] == "3"


def test_voila_configuration_admits_every_page():
    """Our Voilà configuration, read as Voilà reads it, caps the kernels and admits each page
    before the book's own prelaunch hook plans it."""
    from traitlets.config.loader import PyFileConfigLoader
    config_dir = Path(__file__).resolve().parents[2] / "share" / "jupyter" / "config"
    config = PyFileConfigLoader("voila.py", path=str(config_dir)).load_config()
    assert issubclass(config.VoilaConfiguration.multi_kernel_manager_class,
                      A.CappedKernelManager)
    hooks, hook = [], config.VoilaConfiguration.prelaunch_hook
    while hook is not None:              # each wrapper names the hook it runs next
        hooks.append(hook)
        hook = getattr(hook, "wrapped", None)
    assert hooks[-1] is serving.prelaunch_hook
    admitting = [h for h in hooks if h.__module__ == "rulebook.admission"]
    assert len(admitting) == 1
    with pytest.raises(web.Finish):
        admitting[0](Handler(SPELLINGS[0]), notebook=_notebook(), cwd="00_dice")
