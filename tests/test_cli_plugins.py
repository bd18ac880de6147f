"""`assistant plugins` and `assistant doctor` show every plugin and MCP server:
kind, state, tools and start error. The MCP server is a real stdio server built
with the official SDK, configured in a temp config.toml."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("mcp")

SERVER = textwrap.dedent(
    '''
    try:
        from mcp.server.mcpserver import MCPServer as Server   # mcp >= 2
    except ImportError:
        from mcp.server.fastmcp import FastMCP as Server       # mcp 1.x

    server = Server("demo")

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    @server.tool(name="Shout")
    def shout(text: str) -> str:
        """Upper-case a text."""
        return text.upper()

    server.run()
    '''
)

BROKEN_PLUGIN = "def register(api):\n    raise RuntimeError('no database here')\n"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """ASSISTANT_HOME with a config naming a working, a broken and a disabled MCP
    server, a user plugin that fails, and the bundled calendar plugin disabled."""
    script = tmp_path / "demo_server.py"
    script.write_text(SERVER)
    cfg_dir = tmp_path / "home" / "config"
    (cfg_dir / "plugins").mkdir(parents=True)
    (cfg_dir / "plugins" / "broken.py").write_text(BROKEN_PLUGIN)
    (cfg_dir / "config.toml").write_text(textwrap.dedent(f"""
        [plugins]
        disabled = ["calendar"]

        [mcpServers.demo]
        command = {json.dumps(sys.executable)}
        args = [{json.dumps(str(script))}]

        [mcpServers.gone]
        command = {json.dumps(str(tmp_path / "no-such-server"))}
        startup_timeout = 10

        [mcpServers.off]
        command = "whatever"
        disabled = true
    """))
    return tmp_path / "home"


def run_cli(*args: str, home: Path, timeout: float = 120):
    env = dict(os.environ, ASSISTANT_HOME=str(home), NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "assistant.cli", *args], capture_output=True, text=True,
                          env=env, timeout=timeout)


def test_plugins_json_lists_plugins_and_mcp_servers_with_tools_state_and_errors(home):
    r = run_cli("plugins", "--json", home=home)
    assert r.returncode == 0, r.stderr
    rows = {row["name"]: row for row in map(json.loads, r.stdout.splitlines())}
    demo = rows["demo"]
    assert demo["kind"] == "mcp" and demo["state"] == "started" and demo["error"] is None
    assert demo["tools"] == ["mcp__demo__add", "mcp__demo__shout"]
    assert sys.executable in demo["origin"]
    gone = rows["gone"]
    assert gone["kind"] == "mcp" and gone["state"] == "failed" and gone["tools"] == []
    assert gone["error"].startswith("could not start:") and "\n" not in gone["error"]
    assert rows["off"]["state"] == "disabled"
    assert rows["notes"]["kind"] == "bundled" and rows["notes"]["state"] == "started" and rows["notes"]["tools"]
    assert rows["calendar"]["state"] == "disabled" and rows["calendar"]["kind"] == "bundled"
    broken = rows["broken"]
    assert broken["kind"] == "file" and broken["state"] == "failed" and "no database here" in broken["error"]


def test_plugins_text_shows_each_row(home):
    r = run_cli("plugins", home=home)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert any(line.split()[:3] == ["demo", "mcp", "started,"] and "mcp__demo__add" in line for line in lines)
    assert any(line.split()[:3] == ["gone", "mcp", "failed"] for line in lines)
    assert any("error: could not start:" in line for line in lines)
    assert any(line.split()[:3] == ["calendar", "bundled", "disabled"] for line in lines)


def test_doctor_lists_every_plugin_and_mcp_server(home, monkeypatch):
    from assistant import cli_model

    monkeypatch.setenv("ASSISTANT_HOME", str(home))
    # the canary is another test's business: a failed one skips the llama.cpp checks
    monkeypatch.setattr(cli_model, "_canary", lambda: {"ok": False, "signal": "", "message": "skipped in this test",
                                                       "build_features": [], "machine_features": []},
                        raising=False)  # without a canary step, doctor runs the loop check instead
    report = cli_model.doctor_report()
    names = {p["name"]: p for p in report["plugins"]["plugins"]}
    assert names["demo"]["tools"] == ["mcp__demo__add", "mcp__demo__shout"]
    assert any(p.startswith("mcp gone: could not start") for p in report["plugins"]["problems"])
    text = cli_model._format_doctor(report)
    assert "plugin(s), 3 MCP server(s)" in text
    assert "mcp__demo__add, mcp__demo__shout" in text
    assert "error: could not start:" in text and "no database here" in text


def test_mcp_statuses_read_an_app_s_running_manager(tmp_path):
    """What a TUI /plugins screen calls on the manager the app already started."""
    from plugins.mcp import MCPManager
    from plugins.report import mcp_statuses

    script = tmp_path / "s.py"
    script.write_text(SERVER)
    servers = {"mcpServers": {"demo": {"command": sys.executable, "args": [str(script)]},
                              "bad": {"args": ["no command"]}}}
    with MCPManager(servers) as manager:
        before = {s.name: s.state for s in mcp_statuses(servers, manager)}
        manager.tools()
        after = {s.name: (s.state, s.tools) for s in mcp_statuses(servers, manager)}
    assert before == {"demo": "not started", "bad": "failed"}
    assert after["demo"] == ("started", ["mcp__demo__add", "mcp__demo__shout"])
