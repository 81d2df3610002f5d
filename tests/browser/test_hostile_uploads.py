"""Hostile files at the served healing walker (issue 18): a file over the limit is refused in the
browser before it is sent, a forged record is refused naming its field, and markup in a record
that loads is shown as text, never run."""

import json
import re
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.reader import open_tool

from rulescore.systems import percentile as pc


def _pick(page: Page, tool, name: str, content: bytes | Path) -> None:
    with page.expect_file_chooser() as chooser:
        tool.get_by_role("button", name=re.compile("Upload injury record")).click()
    chooser.value.set_files(content if isinstance(content, Path) else
                            [{"name": name, "mimeType": "application/json", "buffer": content}])


def _record(**changes) -> bytes:
    data = json.loads(pc.InjuryRecord("Ana").add_injury("Abdomen", "Edge", 2).to_json())
    data["record"].update(changes)
    return json.dumps(data).encode()


def test_healing_walker_refuses_large_and_forged_files_and_escapes_markup(page: Page, book_url,
                                                                         tmp_path):
    alerts = []
    page.on("dialog", lambda dialog: (alerts.append(dialog.message), dialog.dismiss()))
    sent = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(len(frame))))
    tool = open_tool(page, book_url, "percentile/healing", ".rulebook-pc-healing")
    expect(tool.get_by_role("button", name="Upload injury record (JSON)")).to_be_visible()
    sheet = tool.locator(".rulebook-pc-who")
    expect(sheet).to_contain_text("Ana")

    # 1.5 MB: refused by the browser with its size, and never sent to the kernel.
    _pick(page, tool, "huge.json", b" " * 1_500_000)
    expect(tool.get_by_role("alert").filter(has_text="That file is")).to_have_text(
        "⚠ That file is 1.5 MB; a saved injury record is at most 1 MB. Nothing was sent or "
        "changed.")
    assert max(sent, default=0) < 100_000
    # 50 MB sent over the websocket would close the page's connection: it never leaves the
    # browser, and the kernel goes on answering.
    huge = tmp_path / "record.json"
    huge.write_bytes(b" " * 50_000_000)
    _pick(page, tool, "record.json", huge)
    expect(tool.get_by_role("alert").filter(has_text="That file is")).to_have_text(
        "⚠ That file is 50 MB; a saved injury record is at most 1 MB. Nothing was sent or "
        "changed.")
    assert max(sent, default=0) < 100_000
    expect(tool.get_by_text("No injuries on the record.")).to_be_visible()
    tool.get_by_role("button", name="Add injury").click()
    expect(tool.locator(".rulebook-pc-sheet").get_by_role("row")).to_have_count(2)
    assert sent and max(sent) < 100_000   # the page's messages were seen, none of them a file

    # A forged record: refused, naming the field; the tool still answers.
    injury = json.loads(_record())["record"]["injuries"][0]
    _pick(page, tool, "forged.json", _record(injuries=[
        {**injury, "treatment": "<img src=x onerror=alert(1)>"}]))
    refusal = tool.get_by_role("alert").filter(has_text="changed nothing")
    expect(refusal).to_contain_text("injury record: injuries[1].treatment must be one of 'CF', "
                                    "'F', 'S', 'CS', got '<img src=x onerror=alert(1)>'")
    expect(tool.get_by_role("alert").filter(has_text="That file is")).to_have_count(0)
    _pick(page, tool, "deep.json", b"[" * 50_000 + b"]" * 50_000)
    expect(refusal).to_contain_text("nested more than 16 levels deep")
    _pick(page, tool, "long.json", b'{"format": "rulebook/pc-injury-record", "version": 1, '
          b'"record": {"day": ' + b"9" * 5000 + b"}}")
    expect(refusal).to_contain_text("holds a number 5000 digits long")

    # Markup where a name may hold anything: loaded, and shown as the text it is.
    _pick(page, tool, "named.json", _record(name="<img src=x onerror=alert(1)>"))
    expect(sheet).to_contain_text("<img src=x onerror=alert(1)>")
    expect(tool.locator("img")).to_have_count(0)
    expect(tool.get_by_role("img", name="Recovery timeline of <img src=x onerror=alert(1)>")) \
        .to_be_visible()
    assert alerts == []
