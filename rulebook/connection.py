"""A reader's page and its kernel: the page is told at once when its kernel is gone, and a kernel
nobody can use any more is stopped at once.

Voilà gives every open page a kernel of its own, reached over one websocket. Three things here,
through Voilà's prelaunch hook and jupyter_server's connection class (:mod:`rulebook.live` sets
them; rulebook.patches lists what the connection class relies on):

- :func:`with_xsrf_cookie` wraps Voilà's ``prelaunch_hook`` so that each page response carries
  the ``_xsrf`` cookie. Voilà's page asks the server to shut its kernel down when the tab closes,
  and sends that cookie's value with the request; without the cookie jupyter_server refuses the
  request (403) and the kernel lives on until the idle culler. XSRF checking stays on: the
  request must still carry the cookie and the same value in its body.
- :class:`ReaderConnection`, the kernel websocket connection class, watches its kernel once a
  page is connected. When the kernel is gone (shut down, culled), has died, or has been busy
  for longer than :data:`BUSY_LIMIT_S` without sending a word (a computation that would never
  end), it closes the page's websocket, so the page shows its "lost connection" notice (the
  book's page template), and a kernel that died or overran is shut down.
- The same class accepts one page per kernel: a second websocket with another session is
  refused (a page reconnecting after a network drop keeps its session and is let in), and a
  client's ``shutdown_request`` is dropped (it would restart the kernel empty under the reader).
"""

from __future__ import annotations

import logging
from datetime import datetime, timezone
from typing import Any, Callable, ClassVar

from jupyter_core.utils import ensure_async
from jupyter_server.services.kernels.connection.channels import (
    ZMQChannelsWebsocketConnection,
)
from tornado import web
from tornado.ioloop import PeriodicCallback
from traitlets import Float

BUSY_LIMIT_S = 60.0
"""Seconds a kernel may stay busy without sending anything before it is stopped. Every tool of
the book answers within a second or two; a computation still silent after a minute will not
finish while the reader waits."""

WATCH_INTERVAL_S = 1.0
"""How often a connected page's kernel is looked at: a page learns of a lost kernel within this
time. The live book turns the kernels' automatic restart off (rulebook.live):
a restarted kernel would be empty under its page."""

REFUSED_MESSAGE_TYPES = ("shutdown_request",)
"""Kernel messages a page may not send. Voilà's own list lets ``shutdown_request`` through, and
over the websocket it restarts the kernel empty under the reader; Voilà's page never sends it
(it closes its kernel through the shutdown route, which checks XSRF)."""

log = logging.getLogger(__name__)


def set_xsrf_cookie(handler: Any) -> None:
    """Give the page's response the ``_xsrf`` cookie, unless the request already carries one.

    Reading tornado's ``RequestHandler.xsrf_token`` sets the cookie (with the server's
    ``xsrf_cookie_kwargs``) when the request has none: this is how jupyter_server's own pages get
    it (their templates read the token).
    """
    handler.xsrf_token  # noqa: B018 (read for its effect: the cookie)


def with_xsrf_cookie(hook: Callable[..., Any] | None) -> Callable[..., Any]:
    """A Voilà ``prelaunch_hook`` that sets the ``_xsrf`` cookie, then runs *hook* (or nothing).

    Voilà calls the prelaunch hook with the page's request handler before it starts the page's
    kernel and before anything of the page is written, so the cookie still reaches the headers.
    """
    def prelaunch_hook(handler: Any, notebook: Any, cwd: str) -> Any:
        set_xsrf_cookie(handler)
        return hook(handler, notebook=notebook, cwd=cwd) if hook is not None else None

    prelaunch_hook.wrapped = hook  # type: ignore[attr-defined]
    return prelaunch_hook


def refuse_message_types(manager: Any, refused: tuple[str, ...] = REFUSED_MESSAGE_TYPES) -> None:
    """Take *refused* out of the kernel manager's ``allowed_message_types``.

    jupyter_server drops (and logs) every page message whose type is not in that list. An empty
    list means "allow everything", which cannot leave one type out: that is an error, raised so
    that no page connects to a server that would let a page restart its kernel.
    """
    allowed = list(manager.allowed_message_types)
    if not allowed:
        raise RuntimeError("the kernel manager allows every message type, so shutdown_request "
                           "cannot be refused; give it the list of types a page may send")
    kept = [kind for kind in allowed if kind not in refused]
    if kept != allowed:
        manager.allowed_message_types = kept


def kernel_verdict(alive: bool, execution_state: str | None, last_activity: datetime | None,
                   now: datetime, busy_limit: float) -> str | None:
    """Why a page's kernel must stop, or None while it is fine: "dead" (its process is gone) or
    "busy" (busy and silent for more than *busy_limit* seconds)."""
    if not alive:
        return "dead"
    if (execution_state == "busy" and last_activity is not None
            and (now - last_activity).total_seconds() > busy_limit):
        return "busy"
    return None


class ReaderConnection(ZMQChannelsWebsocketConnection):
    """The kernel websocket of a reader's page: one page per kernel, no shutdown requests, and a
    watch on the kernel that closes the page's websocket when the kernel is lost."""

    busy_limit = Float(BUSY_LIMIT_S, config=True,
                       help="Seconds a kernel may stay busy without sending anything before it "
                            "is stopped (its page is then told it lost its connection).")

    # The open page of each kernel, and the watch of each kernel a page has connected to.
    _readers: ClassVar[dict[str, ReaderConnection]] = {}
    _watches: ClassVar[dict[str, PeriodicCallback]] = {}

    async def prepare(self) -> None:
        refuse_message_types(self.multi_kernel_manager)
        kernel_id = self.kernel_id
        other = self._readers.get(kernel_id)
        if other is not None and other is not self and other.session_id != self.session_id \
                and other.is_open():
            log.warning("Refused a second page on kernel %s", kernel_id)
            raise web.HTTPError(409, "This kernel already has a page")
        await super().prepare()
        self._readers[kernel_id] = self
        self._watch(kernel_id)

    _open = False      # between connect (the websocket opened) and disconnect (it closed)

    def connect(self) -> Any:
        self._open = True
        return super().connect()

    def disconnect(self) -> None:
        self._open = False
        if self._readers.get(self.kernel_id) is self:
            del self._readers[self.kernel_id]
        return super().disconnect()

    def is_open(self) -> bool:
        """Whether this connection's websocket is open: jupyter_server's websocket handler calls
        :meth:`connect` when the socket opens and :meth:`disconnect` when it closes."""
        return self._open

    def _watch(self, kernel_id: str) -> None:
        if kernel_id in self._watches:
            return
        manager, kernel, limit = self.multi_kernel_manager, self.kernel_manager, self.busy_limit

        async def look() -> None:
            await watch_kernel(kernel_id, manager, kernel, limit, self._readers, self._watches)

        watch = PeriodicCallback(look, WATCH_INTERVAL_S * 1000)
        self._watches[kernel_id] = watch
        watch.start()


async def watch_kernel(kernel_id: str, manager: Any, kernel: Any, busy_limit: float,
                       readers: dict[str, ReaderConnection],
                       watches: dict[str, PeriodicCallback]) -> str | None:
    """One look at a page's kernel (every :data:`WATCH_INTERVAL_S`): if it is gone, dead or
    overran *busy_limit*, close its page's websocket, end the watch, and shut a dead or overrun
    kernel down. Returns why it ended the watch, or None."""
    if kernel_id not in manager:
        reason = "gone"
    else:
        reason = kernel_verdict(await ensure_async(kernel.is_alive()), kernel.execution_state,
                                kernel.last_activity, datetime.now(timezone.utc), busy_limit)
    if reason is None:
        return None
    watch = watches.pop(kernel_id, None)
    if watch is not None:
        watch.stop()
    reader = readers.pop(kernel_id, None)
    if reader is not None and reader.is_open():
        reader.websocket_handler.close(1001, "The kernel of this page stopped")
    if reason != "gone":
        log.warning("Stopping kernel %s: %s", kernel_id,
                    "its process died" if reason == "dead"
                    else f"busy for more than {busy_limit:g} s without a reply")
        await ensure_async(manager.shutdown_kernel(kernel_id, now=True))
    return reason
