"""Keeping a reader's work: autosave in the reader's own browser, and JSON download/upload.

State a reader builds up (an encounter on the Count, an injury record) must survive a page
reload and a culled kernel (DESIGN §5). Nothing is written to the server's disk on a reader's
behalf: the autosave lives in the browser's ``localStorage``, and a file the reader downloads
or uploads travels only between their browser and the kernel's memory.

- :func:`BrowserStore` — an invisible widget bound to one ``localStorage`` key. ``stored``
  holds what the browser had under that key when the page opened (it arrives from the browser
  a moment after the widget is shown); ``save(text)`` and ``clear()`` write to it. When
  another tab of the book writes the same key (the browser's ``storage`` event), the store
  holds this tab's saves and its ``offer`` asks "Changed in another tab: Load it / Keep mine";
  nothing is overwritten, in either tab, until the reader chooses (:class:`ElsewhereOffer`).
- :class:`JsonTransfer` — a "Download … (JSON)" link and an "Upload … (JSON)" picker with its
  own error line. The upload handler validates the file; a ``RulesError`` is shown and
  nothing changes. The picker (:func:`UploadButton`) checks the file's size in the browser
  first: ipywidgets' FileUpload would send any file whole over the page's websocket, and a
  large one closes the connection before the kernel can say a word.

In the static web book's snapshot there is no kernel and no state to keep, so
:func:`BrowserStore` returns an inert stand-in there; where the static page runs its tools in
the reader's browser (Pyodide) it is :class:`WasmBrowserStore`, which reads and writes
``localStorage`` from Python. In both :func:`UploadButton` is :class:`PageUpload`, the live
picker's front end as a RequireJS module the page defines itself (an anywidget's would be
fetched from a CDN).
"""

from __future__ import annotations

import asyncio
import html
from typing import Callable
from urllib.parse import quote

import ipywidgets as w
import traitlets as t

from rulescore.errors import RulesError
from rulescore.saved import MAX_BYTES, megabytes

from .common import ErrorLine, answers
from .lean import book_target, set_shown, shared_layout
from .theme import ERROR, LINK, MUTED

MAX_UPLOAD_BYTES = MAX_BYTES
"""Largest file the upload accepts; a saved encounter or record is a few kilobytes."""

_ESM = """
// The browser half of BrowserStore. Once its (hidden) view is on the page, which in Voila is
// after every widget of the page exists, it reports what localStorage holds under the key by
// saying "hello" until the kernel acknowledges; then it writes what the kernel asks it to.
// (A kernel reply that arrives while the page is still creating its widgets can be lost.)
// It also listens for the browser's "storage" event, which tells every other tab of the same
// site that one tab wrote the key, and passes the new text on to the kernel.
function initialize({ model }) {
  const key = model.get("key");
  window.addEventListener("storage", (event) => {
    if (event.key === key && event.storageArea === window.localStorage) {
      model.send({ op: "elsewhere", stored: event.newValue || "" });
    }
  });
  model.on("msg:custom", (msg) => {
    try {
      if (msg.op === "ack") { model._rulebookAcked = true; }
      else if (msg.op === "save") { window.localStorage.setItem(key, msg.text); }
      else if (msg.op === "clear") { window.localStorage.removeItem(key); }
    } catch (e) {
      model.set("problem", String(e));
      model.save_changes();
    }
  });
}
function render({ model, el }) {
  el.style.display = "none";
  if (model._rulebookHello) { return; }
  model._rulebookHello = true;
  const key = model.get("key");
  let tries = 0;
  const read = () => {
    try { return window.localStorage.getItem(key) || ""; } catch (e) { return ""; }
  };
  const hello = () => {
    if (model._rulebookAcked || tries++ >= 60) { return; }
    model.send({ op: "hello", stored: read() });
    setTimeout(hello, 1000);
  };
  hello();
}
export default { initialize, render };
"""


ELSEWHERE = "Changed in another tab"
"""The offer's words when another tab of the book wrote the same kept copy."""


class ElsewhereOffer(w.HBox):
    """The line a store shows once another tab wrote its key: "Changed in another tab: Load
    it / Keep mine". Until the reader chooses, this tab writes nothing (its changes wait in the
    store), so neither tab's work is overwritten unasked."""

    def __init__(self) -> None:
        self.note = w.HTML()
        self.load_button = w.Button(description="Load it", button_style="primary",
                                    tooltip="Carry on with the copy the other tab kept",
                                    layout=shared_layout(width="auto"))
        self.keep_button = w.Button(description="Keep mine",
                                    tooltip="Keep this tab's copy instead (the other tab is "
                                            "told in turn)",
                                    layout=shared_layout(width="auto"))
        super().__init__([self.note, self.load_button, self.keep_button],
                         layout=shared_layout(align_items="center", display="none"))
        self.add_class("rulebook-elsewhere")


class _Elsewhere:
    """What a store does when another tab writes its key: hold this tab's saves and offer the
    choice (mixed into every store; the live and the in-browser ones hear from other tabs)."""

    def _start_elsewhere(self) -> None:
        self.offer = ElsewhereOffer()
        self.elsewhere: str | None = None   # the other tab's text while the offer is open
        self._waiting: str | None = None    # this tab's newest save, held while it is open
        self._saved: str | None = None      # what this tab last wrote
        self._takers: list[Callable[[str], None]] = []
        self.offer.load_button.on_click(lambda _: self.load_theirs())
        self.offer.keep_button.on_click(lambda _: self.keep_mine())

    def __repr__(self) -> str:
        """The same text on every run (a notebook keeps a tool's text form beside its view, and
        later readers must see what the first one saw): the class and the key, no address."""
        return f"{type(self).__name__}(key={getattr(self, 'key', '')!r})"

    def on_elsewhere(self, take: Callable[[str], None]) -> None:
        """Call *take(text)* when the reader loads another tab's copy ("" when that tab
        removed it); a RulesError it raises is shown on the offer and the offer stays."""
        self._takers.append(take)

    def changed_elsewhere(self, text: str) -> None:
        """Another tab wrote *text* under the key: hold this tab's saves and ask."""
        if self.elsewhere is None and text == self._saved:
            return  # the other tab wrote what this one holds: nothing differs
        self.elsewhere = text
        what = "Changed" if text else "Removed"
        self.offer.note.value = (f"<b>{what} in another tab:</b> this tab keeps nothing "
                                 "until you choose&ensp;")
        set_shown(self.offer.load_button, bool(self._takers))
        set_shown(self.offer, True)

    def save(self, text: str) -> None:
        """Write *text* into the reader's browser under this store's key (held while the
        other tab's copy is on offer)."""
        if self.elsewhere is not None:
            self._waiting = text
            return
        self._saved = text
        self._write(text)

    def load_theirs(self) -> None:
        """Carry on with the other tab's copy; this tab's held changes are dropped."""
        text = self.elsewhere
        if text is None:
            return
        try:
            for take in self._takers:
                take(text)
        except RulesError as exc:
            self.offer.note.value = (f"<b>The other tab's copy cannot be loaded</b> "
                                     f"({html.escape(str(exc))})&ensp;")
            set_shown(self.offer.load_button, False)
            return
        self._close()
        self._saved = text

    def keep_mine(self) -> None:
        """Keep this tab's copy: write it (its newest, held or not) over the other tab's."""
        mine = self._waiting if self._waiting is not None else self._saved
        self._close()
        if mine is not None:
            self.save(mine)
        else:
            self.clear()

    def _close(self) -> None:
        self.elsewhere = self._waiting = None
        set_shown(self.offer, False)


def _live_store_class() -> type:
    import anywidget  # imported only for the live book; the static book never needs it

    class LiveBrowserStore(_Elsewhere, anywidget.AnyWidget):
        """The live store: an anywidget whose front end reads and writes localStorage."""

        _esm = _ESM
        key = t.Unicode("").tag(sync=True)
        stored = t.Unicode("").tag(sync=True)
        ready = t.Bool(False).tag(sync=True)
        problem = t.Unicode("").tag(sync=True)

        def __init__(self, **kwargs: object) -> None:
            super().__init__(**kwargs)
            self._start_elsewhere()
            self.on_msg(self._from_browser)

        def _from_browser(self, _widget: object, content: dict, _buffers: object) -> None:
            """The browser's first "hello" carries what it kept; later ones are ignored. An
            "elsewhere" says another tab wrote the key."""
            if content.get("op") == "elsewhere":
                text = content.get("stored")
                self.changed_elsewhere(text if isinstance(text, str) else "")
                return
            if content.get("op") != "hello":
                return
            self.send({"op": "ack"})
            if not self.ready:
                text = content.get("stored")
                self.stored = text if isinstance(text, str) else ""
                self.ready = True

        def _write(self, text: str) -> None:
            self.send({"op": "save", "text": text})

        def clear(self) -> None:
            """Remove this store's key from the reader's browser."""
            self._saved = None
            self.send({"op": "clear"})

    return LiveBrowserStore


class StaticBrowserStore(_Elsewhere, w.HTML):
    """The inert stand-in used in the static book: same interface, stores nothing."""

    key = t.Unicode("")
    stored = t.Unicode("")
    ready = t.Bool(False)
    problem = t.Unicode("")

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._start_elsewhere()

    def _write(self, text: str) -> None:
        """Nothing to keep in a page without a kernel."""

    def clear(self) -> None:
        """Nothing to clear in a page without a kernel."""


class WasmBrowserStore(StaticBrowserStore):
    """The store of a static page whose tools run in the reader's browser (Pyodide): Python
    reads and writes ``localStorage`` itself and hears the ``storage`` event of another tab.
    What the browser kept arrives in ``stored`` just after the cell that made the store has
    run, as it does in the live book once the page shows, so whoever observes it hears it."""

    def __init__(self, **kwargs: object) -> None:
        import js  # Pyodide's view of the page's window
        from pyodide.ffi import create_proxy
        super().__init__(**kwargs)
        self._area = js.localStorage
        self._listener = create_proxy(self._storage_event)
        js.addEventListener("storage", self._listener)
        asyncio.get_event_loop().call_soon(self._read)

    def _read(self) -> None:
        try:
            text = self._area.getItem(self.key)
        except Exception as exc:  # noqa: BLE001 - the browser refused (private mode, policy)
            self.problem = str(exc)
            text = None
        self.stored = text if isinstance(text, str) else ""
        self.ready = True

    def _storage_event(self, event: object) -> None:
        if getattr(event, "key", None) == self.key \
                and getattr(event, "storageArea", None) == self._area:
            text = getattr(event, "newValue", None)
            self.changed_elsewhere(text if isinstance(text, str) else "")

    def _write(self, text: str) -> None:
        try:
            self._area.setItem(self.key, text)
        except Exception as exc:  # noqa: BLE001 - e.g. the browser's quota is full
            self.problem = str(exc)

    def clear(self) -> None:
        """Remove this store's key from the reader's browser."""
        self._saved = None
        try:
            self._area.removeItem(self.key)
        except Exception as exc:  # noqa: BLE001
            self.problem = str(exc)


_LIVE: type | None = None


def BrowserStore(key: str) -> w.DOMWidget:  # noqa: N802 - used like a class
    """An invisible widget bound to ``localStorage[key]`` in the reader's browser."""
    global _LIVE
    if not key:
        raise RulesError("a browser store needs a non-empty key")
    if book_target() == "static":
        return StaticBrowserStore(key=key)
    if book_target() == "wasm":
        return WasmBrowserStore(key=key)
    if _LIVE is None:
        _LIVE = _live_store_class()
    return _LIVE(key=key)


_UPLOAD_JS = """
// The browser half of UploadButton: a button that opens the file picker. A file larger than
// max_bytes is refused here, with the message, and never sent; a smaller one is sent to
// Python as one binary buffer, which reads and checks it. The file input stays in the widget,
// hidden, with the button's words as its label (a reader's assistive tools and the browser
// tests find it by them).
function megabytes(size) {
  const tenths = Math.ceil(size / 100000);
  return (tenths % 10 === 0 ? String(tenths / 10) : (tenths / 10).toFixed(1)) + " MB";
}
function draw({ model, el }) {
  const input = document.createElement("input");
  input.type = "file";
  input.accept = model.get("accept");
  input.tabIndex = -1;
  input.setAttribute("aria-label", model.get("description"));
  input.style.display = "none";
  const button = document.createElement("button");
  button.type = "button";
  button.className = "jupyter-widgets jupyter-button widget-button";
  button.style.width = "auto";
  button.textContent = model.get("description");
  const note = document.createElement("div");
  note.className = "rulebook-upload-refused";
  note.style.cssText = "color:__ERROR__;font-weight:600";
  button.addEventListener("click", () => input.click());
  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    input.value = "";
    note.removeAttribute("role");
    note.textContent = "";
    if (!file) { return; }
    if (file.size > model.get("max_bytes")) {
      note.setAttribute("role", "alert");
      note.textContent = "\\u26a0 " + model.get("refusal").replace("{size}", megabytes(file.size));
      model.send({ op: "refused", name: file.name, size: file.size });
      return;
    }
    model.send({ op: "file", name: file.name, size: file.size }, undefined,
               [await file.arrayBuffer()]);
  });
  el.append(button, input, note);
}
""".replace("__ERROR__", ERROR)

_UPLOAD_ESM = _UPLOAD_JS + "export default { render: draw };\n"
"""The live picker's front end, as anywidget loads it."""

UPLOAD_VIEW_MODULE = "rulebook-upload"
"""The RequireJS name of the static book's picker view (:func:`upload_view_module`)."""


def upload_view_module() -> str:
    """The static book's picker view: the live picker's front end as a RequireJS module of
    that name, whose ``UploadView`` the page's widget manager loads. The build puts it in the
    script every widget page loads first (rulebook/build.py), so nothing is fetched for it."""
    return (f'define("{UPLOAD_VIEW_MODULE}", ["@jupyter-widgets/base"], function (base) {{\n'
            f"{_UPLOAD_JS}"
            "class UploadView extends base.DOMWidgetView {\n"
            "  render() { draw({ model: this.model, el: this.el }); }\n"
            "}\n"
            "return { UploadView: UploadView };\n"
            "});\n")


class _UploadMessages(t.HasTraits):
    """What both pickers share: the fields their browser half reads (the button's words, the
    accepted types, the size limit and the words of a refusal), and what they hear from it: a
    file under the limit, as one binary buffer (``on_file`` handlers get its name and bytes),
    or a refusal the browser already showed (``on_refused`` handlers clear older news)."""

    description = t.Unicode("").tag(sync=True)
    accept = t.Unicode("").tag(sync=True)
    max_bytes = t.Int(MAX_UPLOAD_BYTES).tag(sync=True)
    refusal = t.Unicode("").tag(sync=True)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._file_handlers: list[Callable[[str, bytes], None]] = []
        self._refused_handlers: list[Callable[[], None]] = []
        self.on_msg(self._from_browser)  # type: ignore[attr-defined]

    def on_file(self, handler: Callable[[str, bytes], None]) -> None:
        self._file_handlers.append(handler)

    def on_refused(self, handler: Callable[[], None]) -> None:
        self._refused_handlers.append(handler)

    def _from_browser(self, _widget: object, content: dict, buffers: list) -> None:
        if content.get("op") == "refused":
            for refused in self._refused_handlers:
                refused()
        elif content.get("op") == "file" and len(buffers) == 1:
            name = content.get("name")
            for handler in self._file_handlers:
                handler(name if isinstance(name, str) else "the file", bytes(buffers[0]))


class PageUpload(_UploadMessages, w.DOMWidget):
    """The static book's picker: the live one's front end (:func:`upload_view_module`) on
    ipywidgets' own base model, so the page's widget manager needs no anywidget. In the page
    running its tools (Pyodide) the file goes from the browser to Python in the same page."""

    _view_name = t.Unicode("UploadView").tag(sync=True)
    _view_module = t.Unicode(UPLOAD_VIEW_MODULE).tag(sync=True)
    _view_module_version = t.Unicode("1.0.0").tag(sync=True)


def _live_upload_class() -> type:
    import anywidget  # the live book only, as for the store

    class LiveUpload(_UploadMessages, anywidget.AnyWidget):
        """The live picker: the browser refuses a file over ``max_bytes`` itself and sends
        a smaller one as a binary buffer; ``on_file`` handlers get its name and bytes."""

        _esm = _UPLOAD_ESM

    return LiveUpload


_LIVE_UPLOAD: type | None = None


def UploadButton(label: str, accept: str = ".json,application/json") -> w.DOMWidget:  # noqa: N802
    """The "Upload <label> (JSON)" picker, which refuses a file over :data:`MAX_UPLOAD_BYTES`
    in the browser: an anywidget in the live book, :class:`PageUpload` in the static book."""
    global _LIVE_UPLOAD
    description = f"Upload {label} (JSON)"
    kwargs = {"description": description, "accept": accept, "refusal": too_large(label)}
    if book_target() in ("static", "wasm"):
        return PageUpload(**kwargs)
    if _LIVE_UPLOAD is None:
        _LIVE_UPLOAD = _live_upload_class()
    return _LIVE_UPLOAD(**kwargs)


def too_large(label: str, size: int | None = None) -> str:
    """What a reader is told about a file over the limit ("{size}" stands for its size when
    the browser fills it in)."""
    shown = "{size}" if size is None else megabytes(size)
    return (f"That file is {shown}; a saved {label} is at most {megabytes(MAX_UPLOAD_BYTES)}. "
            "Nothing was sent or changed.")


def download_href(text: str) -> str:
    """A ``data:`` URL carrying ``text`` as a JSON file (no server involved)."""
    return "data:application/json;charset=utf-8," + quote(text, safe="")


def _file_text(name: str, content: bytes, label: str) -> str:
    """The text of an uploaded file, refused with a reason when it is too large or not
    UTF-8 text."""
    if len(content) > MAX_UPLOAD_BYTES:
        raise RulesError(too_large(label, len(content)))
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RulesError(f"{name} is not a UTF-8 text file (byte {exc.start})") from None


class JsonTransfer(w.VBox):
    """A download link and an upload picker for one kind of saved state."""

    def __init__(self, filename: str, label: str,
                 on_upload: Callable[[str], None]) -> None:
        self.filename = filename
        self.label = label
        self.on_upload = on_upload
        self.link = w.HTML()
        self.upload = UploadButton(label)
        self.error = ErrorLine()
        self.status = w.HTML()
        self.upload.on_file(self.receive)
        self.upload.on_refused(self._refused_in_browser)
        super().__init__([w.HBox([self.link, self.upload]), self.error, self.status])
        self.add_class("rulebook-transfer")
        self.set_text("")

    def set_text(self, text: str) -> None:
        """Offer ``text`` for download (an empty text disables the link)."""
        name = html.escape(self.filename)
        title = html.escape(f"Download {self.label} (JSON)")
        if not text:
            self.link.value = f'<span style="color:{MUTED};margin-right:1em">{title}</span>'
            return
        self.link.value = (f'<a href="{download_href(text)}" download="{name}" '
                           f'style="color:{LINK};text-decoration:underline;margin-right:1em;'
                           f'line-height:28px">{title}</a>')

    def receive(self, name: str, content: bytes) -> None:
        """A file the reader picked: hand its text to the tool, or say why nothing changed."""
        self._load(lambda: _file_text(name, content, self.label))

    def _refused_in_browser(self) -> None:
        """The browser refused a file as too large and said so itself: clear older news."""
        self.error.clear()
        self.status.value = ""

    @answers("status", prefix="The upload changed nothing: ")
    def _load(self, read: Callable[[], str]) -> None:
        self.on_upload(read())
        self.status.value = f"<i>Loaded {html.escape(self.label)} from the file.</i>"


class KeptState(w.VBox):
    """Everything a stateful tool needs to keep a reader's work: the browser store, the
    restore offer shown after a reload ("Restore saved …" / "Discard it"), and the JSON
    download/upload. *load(text)* applies a file or the saved text (raising RulesError for a
    bad one); *describe(text)* returns the offer's wording, or None when the saved text is not
    worth offering (empty, foreign or damaged)."""

    def __init__(self, key: str, filename: str, label: str, load: Callable[[str], None],
                 describe: Callable[[str], str | None]) -> None:
        self.store = BrowserStore(key)
        self.load, self.describe = load, describe
        self.transfer = JsonTransfer(filename, label, load)
        self.note = w.HTML()
        self.restore_button = w.Button(description=f"Restore saved {label}",
                                       button_style="primary", layout=shared_layout(width="auto"))
        self.discard_button = w.Button(description="Discard it", layout=shared_layout(width="auto"))
        self.offer = w.VBox([self.note, w.HBox([self.restore_button, self.discard_button])],
                            layout=shared_layout(display="none"))
        super().__init__([self.store, self.store.offer, self.offer])
        self.store.on_elsewhere(self._take_elsewhere)
        self.restore_button.on_click(lambda _: self.restore())
        self.discard_button.on_click(lambda _: self.discard())
        self.store.observe(self._found, "stored")

    def keep(self, text: str) -> None:
        """Save *text* in the browser and offer it for download."""
        self.store.save(text)
        self.transfer.set_text(text)

    def _found(self, change: dict) -> None:
        """The browser kept work from an earlier visit: offer it, never restore silently. A
        damaged or edited autosave is named with its reason and can only be discarded."""
        damaged = False
        try:
            note = self.describe(change["new"]) if change["new"] else None
        except RulesError as exc:
            damaged = True
            note = (f"<b>The {html.escape(self.transfer.label)} kept in this browser cannot "
                    f"be restored</b>: {html.escape(str(exc))}")
        set_shown(self.restore_button, not damaged)
        set_shown(self.offer, bool(note))
        self.note.value = note or ""

    def _take_elsewhere(self, text: str) -> None:
        """Load the copy another tab kept (one it removed leaves this tab's work as it is);
        the reload offer is no longer needed either way."""
        if text:
            self.load(text)
        set_shown(self.offer, False)

    @answers(line="transfer.error", prefix="The restore changed nothing: ")
    def restore(self) -> None:
        """Carry on from what the browser kept; a refusal is shown and changes nothing."""
        self.load(self.store.stored)
        set_shown(self.offer, False)

    def discard(self) -> None:
        """Forget what the browser kept."""
        self.store.clear()
        set_shown(self.offer, False)
