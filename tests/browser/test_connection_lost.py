"""A reader whose page lost its kernel is told at once and keeps their work; a closed page frees
its kernel at once; a kernel busy past the limit is stopped; a page's kernel takes one page and
no shutdown request (rulebook.connection, the page script in the book's template).

These tests start their own server (not the shared one of conftest.py): they kill kernels, so
they need the server's process id to find its kernels, and a short busy limit."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.served import ServedBook
from tests.browser.reader import open_chapter

MESSAGE = ("This page lost its connection to the book's server. "
           "Reload to continue: your encounter is saved in this browser.")
COUNT = "veil_and_lead/count.ipynb"
COUNT_KEY = "rulebook/veil_and_lead/count"
BUSY_LIMIT_S = 4
AT_ONCE_S = 15_000    # ms: the server looks every second (0.4 s measured); room for a loaded machine


def _server(log: Path) -> ServedBook:
    """A live book as `rulebook serve` runs it (no warm-up), with a short busy limit."""
    return ServedBook(log, (f"--ReaderConnection.busy_limit={BUSY_LIMIT_S}",), warm_up=False)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    served = _server(tmp_path_factory.mktemp("voila-connection") / "voila.log")
    yield served
    served.stop()


def _kernel_id(page: Page) -> str:
    return page.evaluate(
        "() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")


def _wait(condition, timeout_s: float, what: str) -> float:
    """Wait until *condition()* holds; return the seconds it took."""
    start = time.monotonic()
    while not condition():
        if time.monotonic() - start > timeout_s:
            pytest.fail(f"still waiting after {timeout_s} s: {what}")
        time.sleep(0.1)
    return time.monotonic() - start


def _lost_notice(page: Page):
    return page.get_by_role("alert").filter(has_text="lost its connection")


def _open_count(page: Page, server: ServedBook):
    open_chapter(page, server.url(COUNT))
    tool = page.locator(".rulebook-vl-count")
    expect(tool).to_be_visible(timeout=60_000)
    return tool


def test_a_killed_kernel_is_reported_at_once_and_reload_restores_the_encounter(
        page: Page, server: ServedBook):
    tool = _open_count(page, server)
    tool.get_by_label("Name", exact=True).fill("Cy")
    tool.get_by_label("Initiative margin").fill("8")
    tool.get_by_role("button", name="Add to the Count").click()
    expect(tool.locator(".rulebook-vl-log")).to_contain_text("Cy joins")
    page.wait_for_function(f"() => (localStorage.getItem('{COUNT_KEY}') || '').includes('Cy')")
    expect(_lost_notice(page)).to_have_count(0)

    kernel_id = _kernel_id(page)
    pid = server.kernels()[kernel_id]       # a kernel of the server this test started
    os.kill(pid, signal.SIGKILL)

    notice = _lost_notice(page)
    expect(notice).to_be_visible(timeout=AT_ONCE_S)
    expect(notice).to_have_text(MESSAGE + "Reload")
    reload = notice.get_by_role("button", name="Reload")
    expect(reload).to_be_focused()
    # The dead kernel is shut down, not restarted empty to idle until the culler.
    _wait(lambda: kernel_id not in server.kernels() and server.kernel_status(kernel_id) == 404,
          10, "the killed kernel to be let go")

    reload.click()
    tool = page.locator(".rulebook-vl-count")
    expect(tool.get_by_text("A saved encounter was found in this browser")).to_be_visible(
        timeout=60_000)
    expect(_lost_notice(page)).to_have_count(0)
    tool.get_by_role("button", name="Restore saved encounter").click()
    expect(tool.locator(".rulebook-vl-board").get_by_role("row", name="Cy Tick 2 PC")) \
        .to_be_visible()
    assert _kernel_id(page) != kernel_id


def test_a_kernel_stopped_by_the_server_is_reported_at_once(page: Page, server: ServedBook):
    """The server stops a page's kernel while the page is open (as the idle culler does): the
    page's websocket is closed and the page says so."""
    open_chapter(page, server.url("00_dice/dice.ipynb"))
    kernel_id = _kernel_id(page)
    xsrf = next(c["value"] for c in page.context.cookies(server.base) if c["name"] == "_xsrf")
    opener = urllib.request.build_opener()
    opener.addheaders = [("Cookie", f"_xsrf={xsrf}")]      # this browser's own cookie
    _ask_shutdown(opener, server, kernel_id, xsrf)
    expect(_lost_notice(page)).to_be_visible(timeout=AT_ONCE_S)
    assert server.kernel_status(kernel_id) == 404


def test_a_server_that_stops_answering_is_reported(page: Page, tmp_path):
    """The server itself goes away (stopped or restarted): the page says so at once."""
    own = _server(tmp_path / "voila.log")
    kernels = {}
    try:
        open_chapter(page, own.url("00_dice/dice.ipynb"))
        kernels = own.kernels()
        expect(_lost_notice(page)).to_have_count(0)
        own.stop()
        expect(_lost_notice(page)).to_be_visible(timeout=AT_ONCE_S)
    finally:
        if own.proc.poll() is None:
            own.stop()
        for pid in kernels.values():       # kernels of the server this test started
            if Path(f"/proc/{pid}").exists():
                os.kill(pid, signal.SIGKILL)


def test_closing_or_leaving_a_page_frees_its_kernel_at_once(page: Page, server: ServedBook):
    context = page.context
    for leave in ("close", "navigate"):
        other = context.new_page()
        open_chapter(other, server.url("00_dice/dice.ipynb"))
        kernel_id = _kernel_id(other)
        assert server.kernel_status(kernel_id) == 200
        pid = server.kernels()[kernel_id]
        # The page's response set the cookie Voilà's unload request carries; XSRF stays on.
        assert any(c["name"] == "_xsrf" for c in context.cookies(server.base))
        if leave == "close":
            other.close(run_before_unload=True)
        else:
            other.goto("about:blank")
        # At once (within a second when the machine is not loaded), where the idle culler
        # would take 10 minutes.
        _wait(lambda: server.kernel_status(kernel_id) == 404, 15,
              f"the kernel of the page left by {leave} to be shut down")
        _wait(lambda: not Path(f"/proc/{pid}").exists()
              or Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z",
              10, "the kernel's process to end")
        if leave == "navigate":
            other.close()


def test_the_shutdown_route_still_checks_xsrf(server: ServedBook):
    """The page's response sets the cookie; a shutdown request without it, or with a value that
    does not match it, is still refused, and one with both frees the kernel."""
    html = HtmlPage(server)
    request = urllib.request.Request(f"{server.base}/voila/api/shutdown/{html.kernel_id}",
                                     data=f"_xsrf={html.xsrf}".encode(), method="POST")
    for refused_by in (lambda: urllib.request.urlopen(request, timeout=10),   # no cookie
                       lambda: html.shut_down(xsrf="2|forged|forged|1")):     # wrong value
        with pytest.raises(urllib.error.HTTPError) as refused:
            refused_by()
        assert refused.value.code == 403
        assert server.kernel_status(html.kernel_id) == 200
    html.shut_down()
    _wait(lambda: server.kernel_status(html.kernel_id) == 404, 5, "the kernel to be shut down")


def test_a_kernel_busy_past_the_limit_is_stopped_and_its_reader_told(page: Page, server: ServedBook):
    from jupyter_client import BlockingKernelClient

    open_chapter(page, server.url("00_dice/dice.ipynb"))
    kernel_id = _kernel_id(page)
    # A computation that does not end soon, sent straight to the kernel as its own client (a
    # page may not run code): the kernel says it is busy, then nothing until it is stopped.
    client = BlockingKernelClient(connection_file=server.connection_file(kernel_id))
    client.load_connection_file()
    client.start_channels()
    try:
        client.execute("import time\ntime.sleep(120)")
        expect(_lost_notice(page)).to_be_visible(timeout=(BUSY_LIMIT_S + 10) * 1000)
        _wait(lambda: server.kernel_status(kernel_id) == 404, 10, "the busy kernel to stop")
    finally:
        client.stop_channels()
    assert (f"Stopping kernel {kernel_id}: busy for more than {BUSY_LIMIT_S} s without a reply"
            in server.log_text())


class HtmlPage:
    """A page opened over plain HTTP, as a browser would before its script runs (so no
    websocket yet): its kernel id and the _xsrf cookie its response set."""

    def __init__(self, server: ServedBook, chapter: str = "00_dice/dice.ipynb"):
        from rulebook.serving import page_kernel_id

        self.server = server
        cookies = urllib.request.HTTPCookieProcessor()
        self.opener = urllib.request.build_opener(cookies)
        html = self.opener.open(server.url(chapter), timeout=120).read().decode()
        self.kernel_id = page_kernel_id(html)
        assert self.kernel_id and server.kernel_status(self.kernel_id) == 200
        self.xsrf = next(c.value for c in cookies.cookiejar if c.name == "_xsrf")

    def shut_down(self, xsrf: str | None = None) -> None:
        """Ask for the kernel's shutdown as Voilà's page does when it unloads: a POST carrying
        the cookie, with *xsrf* (the cookie's own value unless given) in its body."""
        _ask_shutdown(self.opener, self.server, self.kernel_id,
                      self.xsrf if xsrf is None else xsrf)


def _ask_shutdown(opener, server: ServedBook, kernel_id: str, xsrf: str) -> None:
    """POST Voilà's kernel shutdown route with *xsrf* in the body, through *opener* (which sends
    the cookie)."""
    opener.open(urllib.request.Request(f"{server.base}/voila/api/shutdown/{kernel_id}",
                                       data=f"_xsrf={xsrf}".encode(), method="POST"), timeout=10)


def _run(coroutine_function, *args):
    """Run a coroutine on an event loop of its own (this thread may hold Playwright's)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(coroutine_function(*args))).result()


async def _talk(server: ServedBook, kernel_id: str, session: str, messages: list[dict],
                wait_s: float = 3.0) -> list[dict]:
    """Open the kernel's websocket as a page would (session *session*), send *messages*, and
    return what came back within *wait_s*."""
    from tornado.websocket import websocket_connect

    ws = await websocket_connect(
        f"ws://127.0.0.1:{server.port}/api/kernels/{kernel_id}/channels?session_id={session}")
    try:
        for message in messages:
            await ws.write_message(json.dumps(message, default=str))
        received = []
        deadline = time.monotonic() + wait_s
        while (left := deadline - time.monotonic()) > 0:
            try:
                raw = await asyncio.wait_for(ws.read_message(), left)
            except asyncio.TimeoutError:
                break
            if raw is None:
                break
            received.append(json.loads(raw))
        return received
    finally:
        ws.close()


def _message(kind: str, channel: str, content: dict, session: str) -> dict:
    from jupyter_client.session import Session

    message = Session(session=session).msg(kind, content)
    message["channel"] = channel
    return message


def test_a_page_may_not_shut_its_kernel_down_over_the_websocket(server: ServedBook):
    html = HtmlPage(server)
    kernel_id = html.kernel_id
    pid = server.kernels()[kernel_id]
    session = "reader-one"
    received = _run(_talk, server, kernel_id, session, [
        _message("shutdown_request", "control", {"restart": True}, session),
        _message("shutdown_request", "shell", {"restart": False}, session),
        _message("kernel_info_request", "shell", {}, session)])
    kinds = [m["header"]["msg_type"] for m in received]
    assert "kernel_info_reply" in kinds and "shutdown_reply" not in kinds
    assert not any(m["header"]["msg_type"] == "status"
                   and m["content"]["execution_state"] in ("restarting", "dead")
                   for m in received)
    time.sleep(1)
    assert server.kernels().get(kernel_id) == pid     # the same process, not a restarted one
    html.shut_down()


def test_a_second_page_on_a_kernel_is_refused(server: ServedBook):
    from tornado.httpclient import HTTPClientError

    html = HtmlPage(server)
    kernel_id = html.kernel_id

    async def two_pages():
        from tornado.websocket import websocket_connect

        url = f"ws://127.0.0.1:{server.port}/api/kernels/{kernel_id}/channels?session_id="
        first = await websocket_connect(url + "reader-one")
        try:
            with pytest.raises(HTTPClientError) as refused:
                await websocket_connect(url + "someone-else")
            again = await websocket_connect(url + "reader-one")   # the same page reconnecting
            again.close()
        finally:
            first.close()
        return refused.value.code

    assert _run(two_pages) == 409
    html.shut_down()
