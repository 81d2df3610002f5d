"""Every reach into another library is listed in rulebook.patches, and fails loudly when the
library changes under it (issue 20, part 3)."""

import subprocess
import sys
from pathlib import Path

import pytest

from rulebook import patches as P

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("patch", P.PATCHES, ids=[p.name for p in P.PATCHES])
def test_each_patch_holds_for_the_installed_version(patch):
    """The installed (or, for npm, pinned) version is inside the range the patch was written
    for, and the name or text it relies on is still there."""
    found = P.problems(patch)
    assert not found, "\n".join(found) + f"\n(why the patch exists: {patch.why})"


def test_each_patch_says_where_it_lives_and_why():
    names = [p.name for p in P.PATCHES]
    assert len(names) == len(set(names)), "two patches share a name"
    for p in P.PATCHES:
        path = ROOT / p.where.split(":")[0]
        assert path.is_file(), f"{p.name}: {p.where} names no file of ours"
        assert p.why and p.breaks and p.versions, f"{p.name}: say why, what breaks, which versions"
        assert p.npm or p.target, f"{p.name}: a Python library's patch names its target"


def test_a_version_outside_the_range_is_named():
    patch = P.Patch("old-voila", "rulebook/live.py: x", "voila", "voila.app:Voila.listen",
                    "<0.1", "for a test", "nothing")
    [message] = P.problems(patch)
    assert message.startswith("old-voila: voila ") and "is outside <0.1" in message


def test_a_name_gone_is_named_with_what_breaks():
    patch = P.Patch("gone", "rulebook/live.py: x", "voila",
                    "voila.app:Voila.no_such_method", ">=0", "for a test", "pages go blank")
    with pytest.raises(P.PatchError, match=r"gone: voila .* has no voila.app:Voila.no_such_method"
                                           r".*Without it: pages go blank"):
        P.resolve(patch)
    text = P.Patch("gone-text", "rulebook/live.py: x", "voila",
                   "share/jupyter/voila/templates/lab/index.html.j2", ">=0", "test", "x",
                   marker="no such text anywhere")
    with pytest.raises(P.PatchError, match="no longer holds 'no such text anywhere'"):
        P.resolve(text)
    with pytest.raises(P.PatchError, match="no patch called 'nothing'"):
        P.require("nothing")


def test_the_live_configuration_refuses_to_start_when_a_patched_name_is_gone(monkeypatch):
    """rulebook.live.configure fetches each patched name through require: with Voilà's
    execute_cell gone it raises, naming the patch, instead of serving pages that run every
    cell (or, for the warm-up, leave kernels running)."""
    from traitlets.config import Config
    from voila.execute import VoilaExecutor

    from rulebook.live import configure

    monkeypatch.delattr(VoilaExecutor, "execute_cell")
    with pytest.raises(P.PatchError, match="voila-execute-cell"):
        configure(Config())


def test_configuring_twice_wraps_once(monkeypatch):
    from traitlets.config import Config
    from voila.execute import VoilaExecutor
    from voila.exporter import VoilaExporter

    from rulebook.live import PATCHED, configure

    for owner, name in ((VoilaExecutor, "execute_cell"), (VoilaExporter, "_create_environment")):
        monkeypatch.setattr(owner, name, getattr(owner, name))   # put back after the test
    configure(Config())
    wrapped = VoilaExecutor.execute_cell
    configure(Config())
    assert getattr(wrapped, PATCHED) and VoilaExecutor.execute_cell is wrapped


def test_an_error_in_the_configuration_file_stops_voila(tmp_path):
    """Traitlets logs an exception raised by a configuration file and carries on unless
    TRAITLETS_APPLICATION_RAISE_CONFIG_FILE_ERROR is set; rulebook serve sets it, so a
    PatchError stops the server at start."""
    from rulebook.cli import voila_env

    (tmp_path / "voila.py").write_text("raise RuntimeError('a patched name is gone')\n")
    env = voila_env(ROOT)
    assert env["TRAITLETS_APPLICATION_RAISE_CONFIG_FILE_ERROR"] == "1"
    code = ("from voila.app import Voila\n"
            f"Voila().load_config_file('voila', path=[{str(tmp_path)!r}])\n")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, check=False,
                         text=True, timeout=120)
    assert out.returncode != 0 and "a patched name is gone" in out.stderr
