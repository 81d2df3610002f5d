"""The shared keeping-your-work pieces: browser autosave store and JSON download/upload."""

from urllib.parse import unquote

import pytest

from rulescore.errors import RulesError
from widgets import storage
from widgets.lean import is_shown
from widgets.storage import BrowserStore, JsonTransfer, StaticBrowserStore, download_href


def test_live_store_is_bound_to_its_key_and_sends_saves(monkeypatch):
    monkeypatch.delenv("RULEBOOK_TARGET", raising=False)
    store = BrowserStore("rulebook/test")
    assert store.key == "rulebook/test" and store.stored == "" and not store.ready
    sent = []
    monkeypatch.setattr(store, "send", sent.append)
    store.save('{"a": 1}')
    store.clear()
    assert sent == [{"op": "save", "text": '{"a": 1}'}, {"op": "clear"}]


def test_first_hello_from_the_browser_sets_stored_and_is_acknowledged(monkeypatch):
    monkeypatch.delenv("RULEBOOK_TARGET", raising=False)
    store = BrowserStore("rulebook/test")
    sent = []
    monkeypatch.setattr(store, "send", sent.append)
    seen = []
    store.observe(lambda change: seen.append(change["new"]), "stored")
    store._from_browser(store, {"op": "hello", "stored": '{"kept": 1}'}, [])
    store._from_browser(store, {"op": "hello", "stored": "later"}, [])
    store._from_browser(store, {"op": "other"}, [])
    assert store.ready and store.stored == '{"kept": 1}' and seen == ['{"kept": 1}']
    assert sent == [{"op": "ack"}, {"op": "ack"}]


def test_front_end_reads_and_writes_local_storage_under_the_key():
    assert 'localStorage.getItem(key)' in storage._ESM
    assert 'op: "hello"' in storage._ESM and 'msg.op === "ack"' in storage._ESM
    assert 'localStorage.setItem(key, msg.text)' in storage._ESM
    assert 'localStorage.removeItem(key)' in storage._ESM


def test_static_book_gets_an_inert_store(monkeypatch):
    monkeypatch.setenv("RULEBOOK_TARGET", "static")
    store = BrowserStore("rulebook/test")
    assert isinstance(store, StaticBrowserStore)
    store.save("anything")
    assert store.stored == ""


def test_store_needs_a_key():
    with pytest.raises(RulesError, match="non-empty key"):
        BrowserStore("")


def test_download_link_carries_the_text_exactly():
    text = '{"name": "Ada & Bo", "tick": 19, "note": "50% #1"}'
    href = download_href(text)
    assert href.startswith("data:application/json;charset=utf-8,")
    assert unquote(href.split(",", 1)[1]) == text
    xfer = JsonTransfer("enc.json", "encounter", lambda text: None)
    xfer.set_text(text)
    assert 'download="enc.json"' in xfer.link.value
    assert "Download encounter (JSON)" in xfer.link.value
    xfer.set_text("")
    assert "<a " not in xfer.link.value


def _send(xfer: JsonTransfer, content: bytes) -> None:
    """What the live book's picker sends for a file under the limit: its name and bytes."""
    xfer.upload._from_browser(xfer.upload, {"op": "file", "name": "x.json"},
                              [memoryview(content)])


def test_upload_hands_the_text_to_the_handler():
    got = []
    xfer = JsonTransfer("enc.json", "encounter", got.append)
    _send(xfer, b'{"ok": true}')
    assert got == ['{"ok": true}']
    assert xfer.error.value == "" and "Loaded encounter" in xfer.status.value


@pytest.mark.parametrize("content, message", [
    (b"\xff\xfe junk", "not a UTF-8 text file"),
    (b"x" * (storage.MAX_UPLOAD_BYTES + 1),
     "That file is 1.1 MB; a saved encounter is at most 1 MB. Nothing was sent or changed."),
])
def test_unreadable_files_are_refused_before_the_handler(content, message):
    got = []
    xfer = JsonTransfer("enc.json", "encounter", got.append)
    _send(xfer, content)
    assert got == []
    assert message in xfer.error.value and "changed nothing" in xfer.error.value


def test_handler_refusal_is_shown_and_cleared_by_a_good_file():
    def handler(text: str) -> None:
        if "format" not in text:
            raise RulesError("not an encounter file: no format field")
    xfer = JsonTransfer("enc.json", "encounter", handler)
    _send(xfer, b"{}")
    assert "not an encounter file: no format field" in xfer.error.value
    _send(xfer, b'{"format": 1}')
    assert xfer.error.value == ""


def test_the_live_picker_refuses_a_large_file_in_the_browser_with_its_size():
    """ipywidgets' FileUpload sends any file whole over the websocket (50 MB closes it): the
    live picker is told the limit and the message, and the browser checks file.size first."""
    got = []
    xfer = JsonTransfer("record.json", "injury record", got.append)
    upload = xfer.upload
    assert upload.description == "Upload injury record (JSON)"
    assert upload.max_bytes == storage.MAX_UPLOAD_BYTES == 1_000_000
    assert upload.refusal == ("That file is {size}; a saved injury record is at most 1 MB. "
                              "Nothing was sent or changed.")
    assert "file.size > model.get(\"max_bytes\")" in storage._UPLOAD_ESM
    assert 'model.get("refusal").replace("{size}", megabytes(file.size))' in storage._UPLOAD_ESM
    xfer.error.show("an older complaint")
    upload._from_browser(upload, {"op": "refused", "name": "big.json", "size": 50_000_000}, [])
    assert got == [] and xfer.error.value == ""


@pytest.mark.parametrize("target", ["static", "wasm"])
def test_the_static_book_s_picker_reads_like_the_live_one_and_refuses_alike(monkeypatch, target):
    """The static book's picker is the live one's front end on ipywidgets' base model, as a
    RequireJS module the page defines: the same words, limit and refusal, the file's bytes
    read and checked in Python."""
    monkeypatch.setenv("RULEBOOK_TARGET", target)
    got = []
    xfer = JsonTransfer("enc.json", "encounter", got.append)
    upload = xfer.upload
    assert isinstance(upload, storage.PageUpload)
    assert upload.description == "Upload encounter (JSON)"
    assert upload.max_bytes == storage.MAX_UPLOAD_BYTES
    assert upload.refusal == storage.too_large("encounter")
    state = upload.get_state()
    assert (state["_view_module"], state["_view_name"]) == (storage.UPLOAD_VIEW_MODULE,
                                                            "UploadView")
    assert state["_model_module"] == "@jupyter-widgets/base"
    _send(xfer, b'{"ok": true}')
    assert got == ['{"ok": true}']
    _send(xfer, b"x" * (storage.MAX_UPLOAD_BYTES + 1))
    assert "That file is 1.1 MB" in xfer.error.value and len(got) == 1
    xfer.error.show("an older complaint")
    upload._from_browser(upload, {"op": "refused", "name": "big.json", "size": 50_000_000}, [])
    assert xfer.error.value == "" and len(got) == 1


def test_the_static_book_s_view_module_is_the_live_front_end_named_for_require_js():
    module = storage.upload_view_module()
    assert module.startswith(f'define("{storage.UPLOAD_VIEW_MODULE}", ["@jupyter-widgets/base"]')
    assert storage._UPLOAD_JS in module and storage._UPLOAD_JS in storage._UPLOAD_ESM
    assert "class UploadView extends base.DOMWidgetView" in module
    assert "export" not in module and "__ERROR__" not in module
    assert 'input.setAttribute("aria-label", model.get("description"))' in module


@pytest.mark.parametrize("size, shown", [(1_000_000, "1 MB"), (1_000_001, "1.1 MB"),
                                         (50_000_000, "50 MB"), (3_210_000, "3.3 MB")])
def test_sizes_read_in_megabytes_rounded_up(size, shown):
    assert storage.megabytes(size) == shown


# --- two tabs: another tab's write is offered, never silently overwritten ---------------------


def _live_store(monkeypatch):
    monkeypatch.delenv("RULEBOOK_TARGET", raising=False)
    store = BrowserStore("rulebook/test")
    sent: list[dict] = []
    monkeypatch.setattr(store, "send", sent.append)
    return store, sent


def _other_tab_wrote(store, text: str) -> None:
    """The browser half passing on the storage event another tab's write raised."""
    store._from_browser(store, {"op": "elsewhere", "stored": text}, [])


def test_the_front_end_passes_on_other_tabs_writes_of_its_key():
    esm = storage._ESM
    assert 'addEventListener("storage"' in esm and "event.key === key" in esm
    assert 'op: "elsewhere"' in esm


def test_another_tab_s_write_holds_this_tab_s_saves_until_the_reader_chooses(monkeypatch):
    store, sent = _live_store(monkeypatch)
    taken: list[str] = []
    store.on_elsewhere(taken.append)
    store.save("mine 1")
    _other_tab_wrote(store, "theirs")
    assert is_shown(store.offer) and "Changed in another tab" in store.offer.note.value
    store.save("mine 2")  # this tab changed again: held, the other tab's copy stays
    store.save("mine 3")
    assert sent == [{"op": "save", "text": "mine 1"}] and taken == []
    store.offer.keep_button.click()
    assert sent[-1] == {"op": "save", "text": "mine 3"} and not is_shown(store.offer)
    assert taken == []
    _other_tab_wrote(store, "theirs again")
    store.save("mine 4")
    store.offer.load_button.click()
    assert taken == ["theirs again"] and not is_shown(store.offer)
    assert sent[-1] == {"op": "save", "text": "mine 3"}  # mine 4 was dropped, never written
    store.save("mine 5")  # the choice made, saves go through again
    assert sent[-1] == {"op": "save", "text": "mine 5"}


def test_the_same_text_from_another_tab_asks_nothing_and_a_removal_is_named(monkeypatch):
    store, sent = _live_store(monkeypatch)
    store.save("same")
    _other_tab_wrote(store, "same")
    assert not is_shown(store.offer)
    _other_tab_wrote(store, "")
    assert "Removed in another tab" in store.offer.note.value
    assert not is_shown(store.offer.load_button)  # nothing takes it: keep is the choice
    store.offer.keep_button.click()
    assert sent[-1] == {"op": "save", "text": "same"}


def test_a_copy_that_cannot_be_loaded_is_named_and_the_offer_stays(monkeypatch):
    store, sent = _live_store(monkeypatch)

    def refuse(text: str) -> None:
        raise RulesError("roster: Vitality of Zed must be from 0 to 30, got 99")
    store.on_elsewhere(refuse)
    _other_tab_wrote(store, "bad")
    store.offer.load_button.click()
    assert is_shown(store.offer) and "cannot be loaded" in store.offer.note.value
    assert "Vitality of Zed" in store.offer.note.value
    assert not is_shown(store.offer.load_button)
    store.offer.keep_button.click()
    assert not is_shown(store.offer)


def test_kept_state_loads_another_tab_s_copy_when_asked(monkeypatch):
    monkeypatch.delenv("RULEBOOK_TARGET", raising=False)
    loaded: list[str] = []
    kept = storage.KeptState("rulebook/test", "x.json", "encounter", loaded.append,
                             lambda text: "Restore?")
    monkeypatch.setattr(kept.store, "send", lambda msg: None)
    assert kept.store.offer in kept.children
    kept.keep("mine")
    _other_tab_wrote(kept.store, "theirs")
    kept.store.offer.load_button.click()
    assert loaded == ["theirs"]
