"""Who gets a live page: one address per chapter, and at most so many pages at once.

Every page Voilà serves starts a kernel (about 60-110 MiB and a share of two CPUs), so the
server holds at most :attr:`CappedKernelManager.max_kernels` live kernels (``rulebook serve
--max-kernels N`` or ``RULEBOOK_MAX_KERNELS``; 20 unless told). A reader beyond that gets a
short page at once, HTTP 503 with ``Retry-After``, saying the book is full and offering to try
again; no kernel is started and no cell runs for them.

A chapter has one address. Voilà would serve ``x.ipynb`` under ``./x.ipynb``, ``a/../x.ipynb``,
``%78.ipynb`` or ``x.ipynb/`` too, and the outputs a first reader's run keeps for later readers
are keyed by the page's address (``rulebook.serving.page_identity``): each spelling would run
the chapter as a new first reader and keep its outputs again. Any other spelling is redirected
(301) to the chapter's one address before anything runs; a path that leaves the book is 404.

Both are decided in Voilà's prelaunch hook (:func:`admitting` wraps the book's own), the public
place Voilà gives for refusing a page before its kernel starts. The count of live kernels is
kept by the kernel manager (:class:`CappedKernelManager`, Voilà's ``multi_kernel_manager_class``
setting): kernels still starting count, kernels being shut down no longer do. In Voilà 0.5 the
hook's check and the kernel's start follow each other in the page's handler with no other task
in between, so readers arriving together cannot all pass the check before any kernel has
started; should that change, the manager refuses the start itself (HTTP 503, Voilà's error page
from the same template, without ``Retry-After``), so the maximum still holds.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import quote, unquote

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Integer, TraitError, default, validate

from .cli import DEFAULT_MAX_KERNELS, MAX_KERNELS_VAR

RETRY_AFTER_S = 60          # the page says "in a minute"
FULL_TEMPLATE = "503.html"  # share/jupyter/voila/templates/rulebook/503.html
RENDER = "voila/render/"
# Characters a path segment may hold as they are (RFC 3986 pchar): browsers send these
# unescaped, so the one address of a chapter keeps them unescaped too.
PATH_SAFE = "/!$&'()*+,;=:@"


def max_kernels_from(environ: Mapping[str, str] = os.environ) -> int:
    """The most live kernels the server holds: ``RULEBOOK_MAX_KERNELS``, else the default."""
    raw = environ.get(MAX_KERNELS_VAR, "").strip()
    if not raw:
        return DEFAULT_MAX_KERNELS
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value < 1:
        raise ValueError(f"{MAX_KERNELS_VAR} must be a whole number of 1 or more, got {raw!r}")
    return value


class CappedKernelManager(AsyncMappingKernelManager):
    """jupyter_server's kernel manager holding at most :attr:`max_kernels` kernels, counting
    those still starting. A start beyond it is refused with HTTP 503; the book's prelaunch hook
    (:func:`admitting`) asks :meth:`has_room` first and answers the reader with the full page."""

    max_kernels = Integer(config=True, help="The most kernels (open pages) the server holds at "
                                            f"once; default ${MAX_KERNELS_VAR} or "
                                            f"{DEFAULT_MAX_KERNELS}.")

    @default("max_kernels")
    def _max_kernels_default(self) -> int:
        return max_kernels_from(os.environ)

    @validate("max_kernels")
    def _at_least_one(self, proposal: Any) -> int:
        if proposal["value"] < 1:
            raise TraitError(f"max_kernels must be 1 or more, got {proposal['value']}")
        return proposal["value"]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._starting: set[str] = set()
        self._stopping: set[str] = set()
        self.max_kernels  # read it now: a bad RULEBOOK_MAX_KERNELS stops the server at start

    def live_kernels(self) -> int:
        """Kernels started or starting, and not being shut down."""
        return len((set(self.list_kernel_ids()) | self._starting) - self._stopping)

    def has_room(self) -> bool:
        return self.live_kernels() < self.max_kernels

    async def start_kernel(self, *, kernel_id: str | None = None, **kwargs: Any) -> str:
        if kernel_id is not None and kernel_id in self:      # an existing kernel: no new one
            return await super().start_kernel(kernel_id=kernel_id, **kwargs)
        if not self.has_room():
            raise web.HTTPError(503, "the book is full: %d of %d kernels live",
                                self.live_kernels(), self.max_kernels)
        kernel_id = kernel_id or self.new_kernel_id()
        self._starting.add(kernel_id)        # counted from here, before the first await
        try:
            return await super().start_kernel(kernel_id=kernel_id, **kwargs)
        finally:
            self._starting.discard(kernel_id)

    async def shutdown_kernel(self, kernel_id: str, now: bool = False,
                              restart: bool = False) -> None:
        # A kernel stops counting as soon as its shutdown begins. A reader who follows a link to
        # the next chapter closes their page's kernel (the page's unload request) while the next
        # page is asked for; the kernel takes a second or more to stop, and counted meanwhile,
        # it would turn that reader away from a full book.
        if restart:
            return await super().shutdown_kernel(kernel_id, now=now, restart=restart)
        self._stopping.add(kernel_id)
        try:
            return await super().shutdown_kernel(kernel_id, now=now, restart=restart)
        finally:
            self._stopping.discard(kernel_id)


def canonical_page(request_path: str, base_url: str = "/") -> str | None:
    """The one address of the page *request_path* asks Voilà to render (its query apart), or
    None when the path climbs out of the book or names no file. ``.`` and empty segments are
    dropped, ``..`` taken back, escapes decoded, and the result escaped the one way."""
    prefix = base_url.rstrip("/") + "/" + RENDER
    if not request_path.startswith(prefix):
        return None
    parts: list[str] = []
    for segment in unquote(request_path[len(prefix):], errors="strict").split("/"):
        if segment in ("", "."):
            continue
        if segment == "..":
            if not parts:
                return None
            parts.pop()
        else:
            parts.append(segment)
    if not parts:
        return None
    return prefix + quote("/".join(parts), safe=PATH_SAFE)


def _full_page(handler: Any, manager: CappedKernelManager) -> str:
    request = handler.request
    retry = request.path + (f"?{request.query}" if request.query else "")
    return handler.render_template(FULL_TEMPLATE, status_code=503,
                                   status_message="The book is full", retry_url=retry,
                                   max_kernels=manager.max_kernels)


def admit(handler: Any) -> None:
    """Let the page's request through, or answer it here and end it (``tornado.web.Finish``):
    a redirect to the chapter's one address, 404 for a path outside the book, or the full page
    when the server holds its most kernels."""
    request = handler.request
    try:
        canonical = canonical_page(request.path, handler.base_url)
    except UnicodeDecodeError:
        canonical = None
    if canonical is None:
        raise web.HTTPError(404, "%s is not a page of the book", request.path)
    if canonical != request.path:
        handler.redirect(canonical + (f"?{request.query}" if request.query else ""),
                         permanent=True)
        raise web.Finish()
    manager = handler.kernel_manager
    if not isinstance(manager, CappedKernelManager):
        raise RuntimeError("the live book's kernel manager must be rulebook.admission."
                           f"CappedKernelManager, not {type(manager).__name__}: "
                           "rulebook.live.configure sets it")
    if not manager.has_room():
        handler.log.warning("The book is full (%d of %d kernels live): refused %s",
                            manager.live_kernels(), manager.max_kernels, request.path)
        handler.set_status(503)
        handler.set_header("Retry-After", str(RETRY_AFTER_S))
        handler.set_header("Content-Type", "text/html; charset=UTF-8")
        raise web.Finish(_full_page(handler, manager))


def admitting(hook: Callable[..., Any] | None) -> Callable[..., Any]:
    """Voilà's prelaunch hook: :func:`admit` the request, then run *hook* (the book's own)."""
    def prelaunch_hook(handler: Any, notebook: Any, cwd: str) -> Any:
        admit(handler)
        return hook(handler, notebook, cwd) if hook else notebook

    prelaunch_hook.wrapped = hook  # type: ignore[attr-defined]
    return prelaunch_hook
