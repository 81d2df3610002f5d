"""Widgets opened quietly while a live-book page renders (widgets/lean.py), in a real kernel:
no message for a widget of our tools made by a cell, every state still handed over at once when
the browser asks, a reader's change answered and announced as usual, and a widget of the
reader's own announced as ipywidgets does."""

import os
from pathlib import Path

import pytest
from jupyter_client.manager import start_new_kernel

ROOT = Path(__file__).resolve().parents[2]

BUILD = """
import ipywidgets as w
from widgets.tsl import AttackResolver
tool = AttackResolver()
def every(box):
    for c in box.children:
        yield c
        if isinstance(c, w.Box):
            yield from every(c)
zone = next(c for c in every(tool) if getattr(c, "description", "") == "Weapon zone")
distance = tool.distance   # hidden until a ranged weapon is picked: held back until then
"""


def _collect(kc, parent_id):
    """The iopub messages answering the request *parent_id*, up to its idle status."""
    got = []
    while True:
        msg = kc.get_iopub_msg(timeout=30)
        if msg["parent_header"].get("msg_id") != parent_id:
            continue
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            return got
        got.append(msg)


def _run(kc, code):
    return _collect(kc, kc.execute(code))


def _printed(msgs):
    return "".join(m["content"]["text"] for m in msgs if m["msg_type"] == "stream")


def _comm_msg(kc, comm_id, data):
    msg = kc.session.msg("comm_msg", {"comm_id": comm_id, "data": data})
    kc.shell_channel.send(msg)
    return _collect(kc, msg["header"]["msg_id"])


@pytest.fixture(scope="module", params=["live", "static"])
def kernel(request):
    env = dict(os.environ, RULEBOOK_TARGET=request.param,
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    km, kc = start_new_kernel(kernel_name="python3", env=env, cwd=str(ROOT))
    built = _run(kc, BUILD)                          # the tool every test below uses
    yield request.param, kc, built
    kc.stop_channels()
    km.shutdown_kernel(now=True)


def test_a_cell_of_a_live_page_opens_its_widgets_without_a_message(kernel):
    target, kc, built = kernel
    opens = [m for m in built if m["msg_type"] == "comm_open"]
    if target == "live":
        assert opens == []
        assert _printed(_run(kc, "import comm\nprint(tool.comm.kernel is not None, "
                                 "tool.model_id in comm.get_comm_manager().comms)")) == "True True\n"
    else:                                            # the static build keeps every state
        assert len(opens) > 20


def test_a_plain_widget_made_by_a_cell_is_announced_as_ipywidgets_does(kernel):
    """Quiet opens are for our tools only: a widget of the reader's own, made by a cell beside
    them, is opened with its own layout and style, each with its message."""
    _, kc, _ = kernel
    made = _run(kc, "mine = w.IntSlider(description='mine')\nmine.layout.width = '100px'\n"
                    "print(mine.layout.width)")
    opened = sorted(m["content"]["data"]["state"]["_model_name"] for m in made
                    if m["msg_type"] == "comm_open")
    assert opened == ["IntSliderModel", "LayoutModel", "SliderStyleModel"]
    assert _printed(made) == "100px\n"


def test_the_browser_gets_every_state_in_one_answer(kernel):
    """The widget manager's request for all states (what the browser sends on connecting)
    names every widget of the tool, with its state."""
    _, kc, _ = kernel
    control = "rulebook-test-control"
    kc.shell_channel.send(kc.session.msg("comm_open", {
        "comm_id": control, "target_name": "jupyter.widget.control", "data": {}},
        metadata={"version": "1.0.0"}))
    answer = _comm_msg(kc, control, {"method": "request_states"})
    states = next(m for m in answer if m["msg_type"] == "comm_msg")["content"]["data"]["states"]
    ids = _printed(_run(kc, "print(' '.join(x.model_id for x in (tool, zone, zone.layout)))")
                   ).split()
    assert set(ids) <= set(states)
    assert states[ids[1]]["state"]["description"] == "Weapon zone"


def test_a_readers_change_is_answered_and_new_models_are_announced(kernel):
    """Picking a ranged weapon shows the distance field: the kernel echoes the change, opens
    the field (held back while hidden: lean.hold_until_shown) with its shown layout, puts it in
    its column and sends the new odds, all as messages the page receives."""
    _, kc, _ = kernel
    zone_id, ranged = _printed(_run(kc, "print(zone.model_id, zone.options.index('Ranged'))")
                               ).split()
    answer = _comm_msg(kc, zone_id, {"method": "update", "state": {"index": int(ranged)},
                                     "buffer_paths": []})
    updates = [m["content"]["data"] for m in answer if m["msg_type"] == "comm_msg"]
    assert {"method": "echo_update", "state": {"index": int(ranged)},
            "buffer_paths": []} in updates
    opened = [m["content"]["data"]["state"] for m in answer if m["msg_type"] == "comm_open"]
    assert "Distance to target" in [s.get("description") for s in opened]
    assert any("children" in u["state"] for u in updates)
    assert _printed(_run(kc, "print(distance.layout.display)")) == "None\n"
    # A widget made by a reader's click (not by a cell) reaches the page with its own message.
    made = _comm_msg(kc, zone_id, {"method": "custom", "content": {}})
    assert [m for m in made if m["msg_type"] == "comm_open"] == []      # nothing was made
    _run(kc, "zone.on_msg(lambda w_, content, buffers: w.HTML('made by a click'))")
    made = _comm_msg(kc, zone_id, {"method": "custom", "content": {}})
    opens = [m["content"]["data"]["state"] for m in made if m["msg_type"] == "comm_open"]
    assert [s["value"] for s in opens if s["_model_name"] == "HTMLModel"] == ["made by a click"]
