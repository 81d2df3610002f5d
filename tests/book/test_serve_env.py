"""How the live book starts Voilà (rulescore.cli): its environment and its command line."""

from pathlib import Path

from rulescore.cli import voila_command, voila_env


def test_voila_env_finds_the_template_and_lets_kernels_cache_bytecode(monkeypatch):
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.setenv("JUPYTER_PATH", "/elsewhere")
    env = voila_env(Path("/project"))
    assert "PYTHONDONTWRITEBYTECODE" not in env           # kernels keep compiled modules
    assert env["RULEBOOK_HOME"] == "/project"
    assert env["JUPYTER_PATH"].split(":") == ["/project/share/jupyter", "/elsewhere"]
    assert env["JUPYTER_CONFIG_PATH"].split(":")[0] == "/project/share/jupyter/config"


def test_voila_command_hides_code_errors_and_culls_idle_kernels():
    cmd = voila_command("127.0.0.1", 8866, Path("/project/book"))
    assert "--template=rulebook" in cmd and "--Voila.ip=127.0.0.1" in cmd and "--port=8866" in cmd
    assert "--MappingKernelManager.cull_idle_timeout=600" in cmd
    assert "--MappingKernelManager.cull_interval=60" in cmd
    assert "--VoilaConfiguration.show_tracebacks=False" in cmd
