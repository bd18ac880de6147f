"""Secrets wired into the app: tools read them by name, and they never leave in exports or event output."""

from __future__ import annotations

import io
import json

import keyring
import pytest
from keyring.backends import fail

from assistant.infra import secret_cache
from assistant.loop.agent import Agent
from assistant.cli import main
from assistant.cli_output import consume
from assistant.events import Notice, ToolCallFinished
from model.scripted import ScriptedChatModel
from assistant.state.store import Store
from assistant.infra.secret_cache import read_secret, redaction_secrets, secret_names
from tools.base import RiskClass, Tool, ToolResult

GITHUB = "ghp_TOPSECRETvalue42"
OPENAI = "sk-live-0123456789abcdef"

TOOLS_FILE = '''
from pydantic import BaseModel
from tools.base import RiskClass, Tool, ToolResult


class NoArgs(BaseModel):
    pass


def leak(ctx, params):
    return ToolResult(text=f"env dump: GITHUB={ctx.secrets('github_token')} OPENAI=sk-live-0123456789abcdef")


TOOLS = [Tool("leak", "Print the environment.", NoArgs, leak, RiskClass.READ)]
'''


@pytest.fixture(autouse=True)
def forget_seen(monkeypatch):
    """Each test starts with no secrets remembered by this process."""
    monkeypatch.setattr(secret_cache, "_SEEN", {})


@pytest.fixture
def no_backend():
    before = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    yield
    keyring.set_keyring(before)


def call(name: str) -> str:
    return f"<tool_call>\n<function={name}>\n</function>\n</tool_call>"


def write_config(home, text: str) -> None:
    (home / "config").mkdir(parents=True, exist_ok=True)
    (home / "config" / "config.toml").write_text(text, encoding="utf-8")


def test_reader_returns_none_without_a_backend_or_for_a_bad_name(no_backend):
    assert read_secret("openai_api_key") is None
    assert read_secret("bad name!") is None
    assert redaction_secrets(None) == {}


def test_names_come_from_known_keys_and_secret_references():
    config = {"mcpServers": {"gh": {"command": "x", "env": {"TOKEN": "${secret:github_token}", "N": "1"},
                                    "args": ["--key=${secret:other.key}"]}},
              "plugins": {"weather": {"key": "${secret:weather_key}"}}}
    assert secret_names(config) == ["brave_api_key", "github_token", "openai_api_key", "other.key", "weather_key"]


def test_export_and_json_events_never_carry_a_secret(ring, assistant_home, tmp_path, capsys):
    ring.set_password("assistant", "github_token", GITHUB)
    ring.set_password("assistant", "openai_api_key", OPENAI)
    write_config(assistant_home, '[mcpServers.gh]\ncommand = "gh-mcp"\nenv = { TOKEN = "${secret:github_token}" }\n')
    ws = tmp_path / "ws"
    ws.mkdir()
    (tmp_path / "extra_tools.py").write_text(TOOLS_FILE)
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"outputs": [call("leak"), "All done."], "builtins": False,
                                  "tools_file": str(tmp_path / "extra_tools.py")}))

    assert main(["run", "dump the env", "--workspace", str(ws), "--scripted", str(script), "--json"]) == 0
    out = capsys.readouterr().out
    events = [json.loads(x) for x in out.splitlines() if x.strip()]
    done = next(e for e in events if e["type"] == "tool_call_finished")
    assert "[secret:github_token]" in done["result"] and "[secret:openai_api_key]" in done["result"]
    assert GITHUB not in out and OPENAI not in out
    task_id = events[0]["task_id"]

    secret_cache._SEEN.clear()  # a fresh `assistant export` process knows only what the config names
    assert main(["export", task_id]) == 0
    exported = capsys.readouterr().out
    assert GITHUB not in exported and OPENAI not in exported
    assert "GITHUB=[secret:github_token]" in exported and "OPENAI=[secret:openai_api_key]" in exported
    rows = [json.loads(x) for x in exported.splitlines()]
    assert any(r["type"] == "message" and r.get("role") == "tool" and "[secret:github_token]" in r["content"]
               for r in rows)


def test_the_agent_gives_tools_the_keyring_by_default(ring, tmp_path):
    ring.set_password("assistant", "brave_api_key", "brave-123456")

    class NoArgs(__import__("pydantic").BaseModel):
        pass

    def peek(ctx, params):
        return ToolResult(text=f"key={ctx.secrets('brave_api_key')} missing={ctx.secrets('nope')}")

    from tools.base import ToolRegistry

    reg = ToolRegistry()
    reg.add(Tool("peek", "Peek.", NoArgs, peek, RiskClass.READ))
    ws = tmp_path / "ws"
    ws.mkdir()
    agent = Agent(ScriptedChatModel([call("peek"), "ok"]), reg, Store(tmp_path / "t.db"), state_dir=tmp_path / "s")
    try:
        events = list(agent.run("peek", workspace=ws, approve="all"))
    finally:
        agent.close()
    result = next(e for e in events if isinstance(e, ToolCallFinished)).result
    # the tool got the real key (it comes back as its name), but the value never reaches the model or the DB
    assert "key=[secret:brave_api_key]" in result and "missing=None" in result
    assert "brave-123456" not in result


def test_human_output_is_redacted_too():
    out, err = io.StringIO(), io.StringIO()
    consume([Notice(f"saw {GITHUB} in a file")], as_json=False, out=out, err=err,
            secrets={"github_token": GITHUB})
    assert GITHUB not in err.getvalue() and "[secret:github_token]" in err.getvalue()
