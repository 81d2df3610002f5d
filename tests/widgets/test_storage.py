"""The shared keeping-your-work pieces: browser autosave store and JSON download/upload."""

from datetime import datetime, timezone
from urllib.parse import unquote

import pytest

from rulescore.errors import RulesError
from widgets import storage
from widgets.storage import BrowserStore, JsonTransfer, StaticBrowserStore, download_href


def _file(content: bytes, name: str = "x.json") -> tuple[dict, ...]:
    return ({"name": name, "type": "application/json", "size": len(content),
             "content": memoryview(content),
             "last_modified": datetime(2026, 1, 1, tzinfo=timezone.utc)},)


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


def test_upload_hands_the_text_to_the_handler():
    got = []
    xfer = JsonTransfer("enc.json", "encounter", got.append)
    xfer.upload.value = _file(b'{"ok": true}')
    assert got == ['{"ok": true}']
    assert xfer.error.value == "" and "Loaded encounter" in xfer.status.value
    assert xfer.upload.value == ()


@pytest.mark.parametrize("content, message", [
    (b"\xff\xfe junk", "not a UTF-8 text file"),
    (b"x" * (storage.MAX_UPLOAD_BYTES + 1), "the most allowed is 1000000"),
])
def test_unreadable_files_are_refused_before_the_handler(content, message):
    got = []
    xfer = JsonTransfer("enc.json", "encounter", got.append)
    xfer.upload.value = _file(content)
    assert got == []
    assert message in xfer.error.value and "changed nothing" in xfer.error.value


def test_handler_refusal_is_shown_and_cleared_by_a_good_file():
    def handler(text: str) -> None:
        if "format" not in text:
            raise RulesError("not an encounter file: no format field")
    xfer = JsonTransfer("enc.json", "encounter", handler)
    xfer.upload.value = _file(b"{}")
    assert "not an encounter file: no format field" in xfer.error.value
    xfer.upload.value = _file(b'{"format": 1}')
    assert xfer.error.value == ""
