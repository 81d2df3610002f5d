"""The Python half of a static page running its tools in Pyodide (rulebook.wasm.page), under
Node.js: a tool made in a cell opens its widgets as comm messages carrying their state, and a
message from the page (a typed seed, a click) reaches the widget, whose answer goes back to the
page as comm messages. The page's JavaScript is played by a Python list here."""

import json

import pytest

SCRIPT = """
import json
from rulebook.wasm import page
from widgets.lean import book_target

sent = []
page.start(lambda text, buffers: sent.append(json.loads(text)))
shown = json.loads(page.run_cell(
    'from widgets.dice import DiceRoller\\ntool = DiceRoller("2d6+1", target="8")\\ntool'))
views = [o["data"]["application/vnd.jupyter.widget-view+json"]["model_id"] for o in shown
         if "application/vnd.jupyter.widget-view+json" in o["data"]]
tool = page._shell().user_ns["tool"]
opens = {m["comm_id"]: m for m in sent if m["msg_type"] == "comm_open"}
order = [m["comm_id"] for m in sent if m["msg_type"] == "comm_open"]

def refs(state):
    text = json.dumps(state)
    return [i for i in opens if "IPY_MODEL_" + i in text]

opened_before_use = all(order.index(r) < order.index(i) for i, m in opens.items()
                        for r in refs(m["data"]["state"]))
first = {"target": book_target(), "views": views, "tool_id": tool.model_id,
         "tool_state": opens[tool.model_id]["data"]["state"]["_model_name"],
         "tool_target": opens[tool.model_id]["target_name"],
         "version": opens[tool.model_id]["metadata"].get("version"),
         "opened_before_use": opened_before_use,
         "seed_value": opens[tool.entry.seed.model_id]["data"]["state"]["value"]}
print(json.dumps(first))

sent.clear()
seed_id = tool.entry.seed.model_id
ok = page.deliver(seed_id, json.dumps({"method": "update", "state": {"value": "2024"},
                                       "buffer_paths": []}))
ok = page.deliver(tool.entry.replay_button.model_id,
                  json.dumps({"method": "custom", "content": {"event": "click"}})) and ok
answers = [m["data"]["state"]["value"] for m in sent if m["msg_type"] == "comm_msg"
           and m["comm_id"] == tool.result.model_id and m["data"].get("method") == "update"
           and "value" in m["data"].get("state", {})]
print(json.dumps({"delivered": ok, "seed": tool.entry.seed.value, "answers": answers,
                  "result": tool.result.value,
                  "unknown": page.deliver("no-such-comm", "{}")}))
"""


def _answered_in_cpython(seed: str) -> str:
    """What the same tool shows for the same seed here, in CPython."""
    from widgets.dice import DiceRoller
    tool = DiceRoller("2d6+1", target="8")
    tool.entry.seed.value = seed
    tool.entry.replay()
    return tool.result.value


@pytest.fixture(scope="module")
def lines(bundle):
    from rulebook.wasm import node
    run = node.run(bundle, ["--groups", "engine,widgets", "--python", SCRIPT], timeout=600)
    assert run.code == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert run.report["refused"] == []
    return [json.loads(ln) for ln in run.stdout.splitlines() if ln.startswith("{")]


def test_a_tool_made_in_a_cell_opens_its_widgets_with_their_state(lines):
    first = lines[0]
    assert first["target"] == "wasm"
    assert first["views"] == [first["tool_id"]]
    assert first["tool_target"] == "jupyter.widget"
    assert first["tool_state"] == "VBoxModel"
    assert first["version"].startswith("2.")
    assert first["opened_before_use"]


def test_a_message_from_the_page_changes_a_widget_and_its_answer_comes_back(lines):
    second = lines[1]
    assert second["delivered"] and second["seed"] == "2024"
    assert second["answers"], "the result field sent no update"
    assert second["answers"][-1] == second["result"]
    assert second["result"] == _answered_in_cpython("2024")
    assert second["unknown"] is False


STORE = """
import asyncio, json
from pyodide.code import run_js
run_js('''
  const kept = new Map([["rulebook/test", "kept earlier"]]);
  globalThis.localStorage = {
    getItem: (k) => (kept.has(k) ? kept.get(k) : null),
    setItem: (k, v) => { kept.set(k, String(v)); },
    removeItem: (k) => { kept.delete(k); },
  };
  const events = new EventTarget();
  globalThis.addEventListener = events.addEventListener.bind(events);
  globalThis.otherTabWrites = (k, v) => {
    kept.set(k, v);
    events.dispatchEvent(Object.assign(new Event("storage"),
                                       {key: k, newValue: v, storageArea: globalThis.localStorage}));
  };
''')
import js
from widgets.storage import BrowserStore
store = BrowserStore("rulebook/test")
before = store.stored
await asyncio.sleep(0)
seen = {"kind": type(store).__name__, "before": before, "stored": store.stored,
        "ready": store.ready}
store.save("mine")
seen["saved"] = js.localStorage.getItem("rulebook/test")
js.otherTabWrites("rulebook/test", "theirs")
seen["offer"] = store.offer.layout.display != "none" and "another tab" in store.offer.note.value
store.save("mine again")
seen["held"] = js.localStorage.getItem("rulebook/test")
store.keep_mine()
seen["kept"] = js.localStorage.getItem("rulebook/test")
store.clear()
seen["cleared"] = js.localStorage.getItem("rulebook/test")
print(json.dumps(seen))
"""


def test_the_browser_store_keeps_work_in_local_storage_as_the_live_one_does(bundle):
    from rulebook.wasm import node
    run = node.run(bundle, ["--groups", "engine,widgets", "--python", STORE], timeout=600)
    assert run.code == 0, run.stdout[-3000:] + run.stderr[-3000:]
    seen = next(json.loads(ln) for ln in run.stdout.splitlines() if ln.startswith("{"))
    assert seen == {"kind": "WasmBrowserStore", "before": "", "stored": "kept earlier",
                    "ready": True, "saved": "mine", "offer": True, "held": "theirs",
                    "kept": "mine again", "cleared": None}
