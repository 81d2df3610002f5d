"""A GM's own notebook in JupyterLab (``make lab``): one of our tools beside a plain ipywidgets
slider whose layout a later cell changes. Importing our tools must leave that slider as
ipywidgets makes it (DESIGN §1: our tools change nothing outside themselves)."""

from __future__ import annotations

import json
import os
import re
import secrets
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.served import free_port

ROOT = Path(__file__).resolve().parents[2]

CELLS = [
    "import ipywidgets as w\nfrom widgets.dice import DiceRoller",
    'DiceRoller("2d6+1", target="8")',
    'mine = w.IntSlider(value=3, min=0, max=10, description="My slider")\nmine',
    ('mine.layout.width = "420px"\nmine.style.description_width = "7em"\n'
     'print("slider changed:", mine.layout.width, mine.style.description_width)'),
]


def _notebook(cells: list[str]) -> dict:
    return {"nbformat": 4, "nbformat_minor": 5,
            "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                        "language": "python"}},
            "cells": [{"cell_type": "code", "id": f"cell{i}", "metadata": {},
                       "execution_count": None, "outputs": [], "source": source}
                      for i, source in enumerate(cells)]}


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab started as ``make lab`` starts it, over a folder holding the GM's notebook,
    on a free loopback port with a token of its own; its settings and runtime files kept in a
    temporary folder. Yields the notebook's URL."""
    home = tmp_path_factory.mktemp("lab")
    notebooks = home / "notebooks"
    notebooks.mkdir()
    (notebooks / "neighbours.ipynb").write_text(json.dumps(_notebook(CELLS)))
    port, token = free_port(), secrets.token_hex(16)
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(home / "runtime"),
               JUPYTERLAB_SETTINGS_DIR=str(home / "settings"),
               JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"),
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    # As `make lab`, plus the token, and nothing fetched from the network (no news, no update
    # check, no extension index); a test machine's container may run it as root.
    offline = ["--LabApp.news_url=None", "--LabApp.extension_manager=readonly",
               "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    command = [sys.executable, "-m", "jupyter", "lab", f"--notebook-dir={notebooks}",
               "--ip=127.0.0.1", f"--port={port}", "--no-browser",
               f"--IdentityProvider.token={token}", *offline,
               *(["--allow-root"] if os.geteuid() == 0 else [])]
    with open(home / "lab.log", "w") as log:
        proc = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            _wait_until_up(proc, f"http://127.0.0.1:{port}/api/status?token={token}",
                           home / "lab.log")
            yield f"http://127.0.0.1:{port}/lab/tree/neighbours.ipynb?token={token}"
        finally:
            _stop(proc)


def _wait_until_up(proc: subprocess.Popen, url: str, log: Path) -> None:
    deadline = time.time() + 90
    while True:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except OSError:
            if proc.poll() is not None or time.time() > deadline:
                pytest.fail(f"JupyterLab did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.3)


def _stop(proc: subprocess.Popen) -> None:
    """Stop the JupyterLab we started and its kernel (its own process group)."""
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    try:
        os.killpg(proc.pid, signal.SIGTERM)       # a kernel left behind, if any
    except ProcessLookupError:
        pass


def _run_all_cells(page: Page) -> None:
    """Run every cell through JupyterLab's own Run menu, once the kernel is ready (a kernel
    chosen in the dialog JupyterLab may show first, its news offer declined)."""
    expect(page.locator(".jp-Notebook").first).to_be_visible(timeout=90_000)
    expect(page.get_by_role("button", name=re.compile(r"\| Idle$"))).to_be_visible(
        timeout=90_000)
    choose = page.get_by_role("dialog").get_by_role("button", name="Select Kernel")
    try:
        choose.wait_for(timeout=3_000)
        choose.click()
    except PlaywrightTimeout:
        pass
    news = page.get_by_role("alert").get_by_role("button", name="No", exact=True)
    if news.count():
        news.click()
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()


def test_a_tool_beside_a_plain_slider_in_jupyterlab(page: Page, lab):
    page.goto(lab)
    _run_all_cells(page)
    # The last cell ran: the slider's own layout took the change (were our tools' sharing
    # applied to every widget, this cell would stop at an AttributeError).
    done = page.get_by_text("slider changed: 420px 7em")
    failed = page.locator("[data-mime-type='application/vnd.jupyter.stderr']")
    expect(done.or_(failed).first).to_be_visible(timeout=90_000)
    assert failed.count() == 0, failed.all_inner_texts()
    expect(done).to_be_visible()

    roller = page.locator(".rulebook-dice-roller").first
    expect(roller.get_by_label("Dice expression")).to_be_visible(timeout=60_000)
    expect(roller.get_by_text("Chance of 8 or more: 7/12 (58.33%)")).to_be_visible()

    slider = page.locator(".widget-slider").filter(has_text="My slider")
    expect(slider).to_be_visible()
    expect(slider).to_have_css("width", "420px")
    label = slider.locator(".widget-label").first
    assert abs(label.bounding_box()["width"] - 7 * _em(label)) < 1.5

    # The tool answers a change.
    field = roller.get_by_label("Target (total at least)")
    field.fill("12")
    field.press("Enter")
    expect(roller.get_by_text("Chance of 12 or more: 1/12 (8.33%)")).to_be_visible(timeout=30_000)


def _em(element) -> float:
    """The font size of *element* in px (one em)."""
    return float(element.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
