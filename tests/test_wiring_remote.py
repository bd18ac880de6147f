"""The remote engine end to end: `assistant run` and `assistant doctor` against a real
llama-cpp-python server on loopback serving the demo model (the wiring, not the model's skill)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("llama_cpp.server.app")

from test_remote_server import server  # noqa: E402,F401 - the module-scoped llama_cpp.server fixture

EXIT_OK, EXIT_PAUSED = 0, 3


@pytest.fixture(scope="module")
def remote_home(server, tmp_path_factory) -> Path:  # noqa: F811 - pytest fixture injection
    """An ASSISTANT_HOME whose config points the app at the server, with short turns."""
    home = tmp_path_factory.mktemp("remote-home")
    (home / "config").mkdir()
    (home / "config" / "config.toml").write_text(
        "[model]\n"
        'backend = "openai"\n'
        f'base_url = "{server}/v1"\n'
        "\n[agent]\n"
        "max_turn_tokens = 64\n",
        encoding="utf-8")
    return home


def assistant(home: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    env = {**os.environ, "ASSISTANT_HOME": str(home)}
    for key in list(env):
        if key.startswith("ASSISTANT_") and key != "ASSISTANT_HOME":
            env.pop(key)  # nothing from the caller's environment overrides the test config
    return subprocess.run([sys.executable, "-m", "assistant.cli", *args], env=env, capture_output=True,
                          text=True, timeout=timeout)


def test_run_drives_the_agent_through_the_server(remote_home, tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "todo.txt").write_text("buy milk\n", encoding="utf-8")
    proc = assistant(remote_home, "run", "Read todo.txt and tell me what it says", "--workspace", str(ws),
                     "--approve", "all", "--max-steps", "2", "--json")
    assert proc.returncode in (EXIT_OK, EXIT_PAUSED), proc.stderr[-2000:]
    events = [json.loads(x) for x in proc.stdout.splitlines() if x.strip()]
    kinds = [e["type"] for e in events]
    assert kinds[0] == "task_started" and "step_started" in kinds
    metrics = [e for e in events if e["type"] == "metrics"]
    assert metrics and metrics[0]["data"]["step"] == 1
    assert metrics[0]["data"]["prompt_tokens"] > 100  # our rendered prompt reached the server
    assert 0 < metrics[0]["data"]["generated"] <= 64  # max_turn_tokens from the config
    last = events[-1]
    if proc.returncode == EXIT_OK:
        assert last["type"] == "finished" and last["status"] == "finished"
    else:
        assert last["type"] == "paused"
    assert "error" not in kinds or proc.returncode == EXIT_PAUSED


def test_doctor_reports_the_remote_engine_reachable(remote_home, server):  # noqa: F811
    proc = assistant(remote_home, "doctor", "--json")
    assert proc.stdout.strip(), proc.stderr[-2000:]
    report = json.loads(proc.stdout)
    remote = report["remote_engine"]
    assert remote["reachable"] is True, remote
    assert remote["engine"] == "llama-cpp-python"
    assert remote["models"] and remote["models"][0].endswith(".gguf")
