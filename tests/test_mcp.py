"""The MCP bridge against a real stdio MCP server built with the official SDK."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from plugins.mcp import MCPManager, parse_servers, tool_name
from tools.base import RiskClass, ToolContext

SERVER = textwrap.dedent(
    '''
    import os, sys, time
    try:
        from mcp.server.mcpserver import MCPServer as Server   # mcp >= 2
    except ImportError:
        from mcp.server.fastmcp import FastMCP as Server       # mcp 1.x

    server = Server("demo")

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    @server.tool(name="Echo-Env")
    def echo_env(name: str) -> str:
        """Return an environment variable of the server process."""
        return os.environ.get(name, "<unset>")

    @server.tool()
    def env_len(name: str) -> int:
        """Length of an environment variable of the server process."""
        return len(os.environ.get(name, ""))

    @server.tool()
    def sleepy(seconds: float) -> str:
        """Sleep, then answer."""
        time.sleep(seconds)
        return "awake"

    @server.tool()
    def explode() -> str:
        """Always fails."""
        raise ValueError("kaboom")

    @server.tool()
    def die() -> str:
        """Exit the server process."""
        os._exit(3)

    with open(os.environ["STARTED_LOG"], "a") as f:
        f.write("started\\n")
    server.run()
    '''
)


@pytest.fixture
def server_cfg(tmp_path: Path):
    script = tmp_path / "demo_server.py"
    script.write_text(SERVER)
    log = tmp_path / "started.log"

    def make(**extra):
        env = {"STARTED_LOG": str(log), "GREETING": "hello"}
        env.update(extra.pop("env", {}))
        entry = {"command": sys.executable, "args": [str(script)], "env": env, **extra}
        return {"mcpServers": {"demo.srv": entry}}

    make.log = log
    return make


def starts(log: Path) -> int:
    return log.read_text().count("started") if log.exists() else 0


def by_name(tools):
    return {t.name: t for t in tools}


def test_tools_are_prefixed_sanitised_and_need_approval(server_cfg):
    with MCPManager(server_cfg()) as mgr:
        tools = by_name(mgr.tools())
    assert {"mcp__demo_srv__add", "mcp__demo_srv__echo_env", "mcp__demo_srv__sleepy"} <= set(tools)
    add = tools["mcp__demo_srv__add"]
    assert add.risk == RiskClass.EXEC
    assert add.source == "mcp:demo.srv"
    assert add.description == "Add two integers."
    schema = add.parameters_schema()
    assert set(schema["properties"]) == {"a", "b"} and sorted(schema["required"]) == ["a", "b"]


def test_auto_approve_makes_tools_read(server_cfg):
    with MCPManager(server_cfg(approve="auto")) as mgr:
        assert all(t.risk == RiskClass.READ for t in mgr.tools())


def test_call_round_trip_and_env(server_cfg):
    with MCPManager(server_cfg()) as mgr:
        tools = by_name(mgr.tools())
        add = tools["mcp__demo_srv__add"]
        out = add.invoke(ToolContext(), add.validate({"a": 2, "b": 40}))
        assert not out.error and out.text.strip() == "42"
        assert out.untrusted
        env = tools["mcp__demo_srv__echo_env"]
        out = env.invoke(ToolContext(), env.validate({"name": "GREETING"}))
        assert out.text == "hello"


def test_arguments_are_validated_against_the_server_schema(server_cfg):
    from pydantic import ValidationError

    with MCPManager(server_cfg()) as mgr:
        add = by_name(mgr.tools())["mcp__demo_srv__add"]
    with pytest.raises(ValidationError, match="b"):
        add.validate({"a": 1})
    with pytest.raises(ValidationError):
        add.validate({"a": "one", "b": 2})


def test_started_lazily_and_stopped_on_close(server_cfg):
    cfg = server_cfg()
    mgr = MCPManager(cfg)
    assert starts(server_cfg.log) == 0 and not mgr.running("demo.srv")
    mgr.tools()
    assert starts(server_cfg.log) == 1 and mgr.running("demo.srv")
    mgr.tools()  # second use reuses the running server
    assert starts(server_cfg.log) == 1
    mgr.close()
    assert not mgr.running("demo.srv")
    mgr.close()  # idempotent


def test_tool_error_and_timeout_are_results(server_cfg):
    with MCPManager(server_cfg(timeout=1)) as mgr:
        tools = by_name(mgr.tools())
        out = mgr.call("demo.srv", "explode", {})
        assert out.error and "explode" in out.text
        slow = tools["mcp__demo_srv__sleepy"]
        out = slow.invoke(ToolContext(), slow.validate({"seconds": 30}))
        assert out.error and "timed out" in out.text
        # the server still answers after a timed-out call
        assert mgr.call("demo.srv", "add", {"a": 1, "b": 1}).text.strip() == "2"


def test_dead_server_is_restarted_on_next_call(server_cfg):
    with MCPManager(server_cfg(timeout=10)) as mgr:
        mgr.tools()
        out = mgr.call("demo.srv", "die", {})
        assert out.error
        again = mgr.call("demo.srv", "add", {"a": 3, "b": 4})
        assert not again.error and again.text.strip() == "7"
    assert starts(server_cfg.log) == 2


def test_secret_reference_in_env_is_resolved(server_cfg):
    cfg = server_cfg(env={"TOKEN": "${secret:demo_token}"})
    with MCPManager(cfg, secrets={"demo_token": "s3cr3t-value"}.get) as mgr:
        out = mgr.call("demo.srv", "Echo-Env", {"name": "TOKEN"})
        length = mgr.call("demo.srv", "env_len", {"name": "TOKEN"})
    assert length.text.strip() == str(len("s3cr3t-value"))  # the server got the secret
    assert out.text == "[secret:demo_token]"  # and it is redacted on the way back


def test_missing_secret_and_bad_command_are_failures_not_crashes(server_cfg, tmp_path):
    cfg = server_cfg(env={"TOKEN": "${secret:nope}"})
    cfg["mcpServers"]["broken"] = {"command": str(tmp_path / "no-such-binary")}
    with MCPManager(cfg, secrets=lambda n: None) as mgr:
        assert mgr.tools() == []
        assert "assistant secret set nope" in mgr.failures["demo.srv"]
        assert "could not start" in mgr.failures["broken"]
        assert mgr.call("broken", "x", {}).error


def test_config_validation_messages():
    configs, failures = parse_servers({"mcpServers": {
        "ok": {"command": "x"},
        "nocmd": {"args": []},
        "badapprove": {"command": "x", "approve": "sometimes"},
        "off": {"command": "x", "disabled": True},
    }})
    assert [c.name for c in configs] == ["ok"]
    assert "command is missing" in failures["nocmd"]
    assert "'ask' or 'auto'" in failures["badapprove"]
    assert "off" not in failures


def test_tool_name_sanitising():
    assert tool_name("My Server", "Read-File.v2") == "mcp__my_server__read_file_v2"


def test_server_that_never_answers_hits_the_startup_timeout(tmp_path):
    script = tmp_path / "mute.py"
    script.write_text("import time\ntime.sleep(120)\n")
    cfg = {"mute": {"command": sys.executable, "args": [str(script)], "startup_timeout": 1}}
    with MCPManager(cfg) as mgr:
        assert mgr.tools() == []
        assert "could not start" in mgr.failures["mute"] and "1s" in mgr.failures["mute"]
        assert not mgr.running("mute")
