"""The headless CLI: help, exit codes, JSON Lines events, tasks, undo, export."""

from __future__ import annotations

import json

import pytest

from assistant.cli import build_parser, main
from agent_helpers import call


@pytest.fixture
def ws(assistant_home, tmp_path):
    d = tmp_path / "ws"
    d.mkdir()
    return d


def script(tmp_path, outputs) -> str:
    path = tmp_path / "script.json"
    path.write_text(json.dumps({"outputs": outputs, "builtins": True}))
    return str(path)


def lines(text: str) -> list[dict]:
    return [json.loads(x) for x in text.splitlines() if x.strip()]


def test_version_and_every_subcommand_has_help(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0 and capsys.readouterr().out.startswith("assistant ")
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    for name in sub.choices:
        with pytest.raises(SystemExit) as exc:
            main([name, "--help"])
        assert exc.value.code == 0, name
        assert "usage:" in capsys.readouterr().out


def test_usage_errors_exit_2(ws, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["run"])
    assert exc.value.code == 2
    assert main(["run", "x", "--workspace", str(ws / "missing")]) == 2
    assert "workspace folder not found" in capsys.readouterr().err
    assert main(["resume", "nosuchtask"]) == 2
    assert main(["run", "x", "--workspace", str(ws), "--max-steps", "0"]) == 2


def test_run_json_finishes_with_exit_0_and_writes(ws, tmp_path, capsys):
    s = script(tmp_path, [call("write_file", path="a.txt", content="hello"), "Wrote a.txt."])
    assert main(["run", "write a", "--workspace", str(ws), "--scripted", s, "--json"]) == 0
    events = lines(capsys.readouterr().out)
    types = [e["type"] for e in events]
    assert types[0] == "task_started" and types[-1] == "finished"
    assert {"step_started", "tool_call_started", "tool_call_finished", "metrics"} <= set(types)
    assert events[-1]["answer"] == "Wrote a.txt." and (ws / "a.txt").read_text() == "hello"


def test_human_output_puts_only_the_answer_on_stdout(ws, tmp_path, capsys):
    s = script(tmp_path, [call("list_dir", path="."), "Nothing here."])
    assert main(["run", "look", "--workspace", str(ws), "--scripted", s]) == 0
    out = capsys.readouterr()
    assert out.out.strip() == "Nothing here." and "list_dir" in out.err


def test_pause_exits_3_then_resume_with_approval_finishes(ws, tmp_path, capsys):
    (ws / "a.txt").write_text("x")
    s = script(tmp_path, [call("delete", path="a.txt"), "Deleted."])
    assert main(["run", "delete a", "--workspace", str(ws), "--scripted", s, "--json"]) == 3
    paused = lines(capsys.readouterr().out)[-1]
    assert paused["type"] == "paused" and paused["kind"] == "approval"
    assert (ws / "a.txt").exists()
    assert main(["resume", paused["task_id"][:6], "--approve-once", "--scripted", s, "--json"]) == 0
    assert not (ws / "a.txt").exists()
    assert main(["undo", paused["task_id"]]) == 0
    assert (ws / "a.txt").read_text() == "x"


def test_tasks_lists_and_export_masks_failed_turns(ws, tmp_path, capsys):
    s = script(tmp_path, [call("read_file", path="missing.txt"), call("list_dir", path="."), "done"])
    assert main(["run", "look around", "--workspace", str(ws), "--scripted", s, "--json"]) == 0
    tid = lines(capsys.readouterr().out)[0]["task_id"]
    assert main(["tasks", "--json"]) == 0
    listed = lines(capsys.readouterr().out)
    assert listed[0]["id"] == tid and listed[0]["status"] == "finished"
    assert main(["export", tid]) == 0
    rows = lines(capsys.readouterr().out)
    assert rows[0]["type"] == "task" and rows[0]["id"] == tid
    turns = [r for r in rows if r["type"] == "message" and r["role"] == "assistant"]
    assert [t["loss"] for t in turns] == [0, 1, 1]  # the failed read is kept but not learned from
    assert all(r["loss"] == 0 for r in rows if r["type"] == "message" and r["role"] != "assistant")
    assert [r["name"] for r in rows if r["type"] == "call"] == ["read_file", "list_dir"]


def test_no_subcommand_launches_the_tui_or_says_why_not(assistant_home, monkeypatch, capsys):
    import sys

    monkeypatch.setitem(sys.modules, "assistant.tui.app", None)  # import fails
    assert main([]) == 1
    assert "assistant run" in capsys.readouterr().err


def test_terminal_control_characters_are_neutralised():
    import io

    from assistant.cli_output import consume, safe_text
    from assistant.events import Finished

    assert safe_text("ok\x1b[2J\x1b[31mred\n\tx") == "ok^[[2J^[[31mred\n\tx"
    out, err = io.StringIO(), io.StringIO()
    consume([Finished(answer="Here: \x1b[2Jgone", status="finished", task_id="t")], as_json=False, out=out,
            err=err, secrets={})
    assert "\x1b" not in out.getvalue() and "^[[2J" in out.getvalue()


def test_empty_goal_is_a_usage_error_before_any_model_loads(tmp_path, monkeypatch):
    from assistant.cli import main

    monkeypatch.setenv("ASSISTANT_HOME", str(tmp_path))
    assert main(["run", "  ", "--workspace", str(tmp_path), "--model", "/nonexistent.gguf"]) == 2


def test_export_to_a_bad_path_is_one_line(tmp_path, monkeypatch, capsys):
    from assistant.cli import main

    monkeypatch.setenv("ASSISTANT_HOME", str(tmp_path))
    from assistant.loop.agent import Agent
    from assistant.config import load_config
    from model.scripted import ScriptedChatModel
    from assistant.state.store import Store
    from tools.base import ToolRegistry

    (tmp_path / "ws").mkdir()
    from assistant.infra import paths

    store = Store(paths.db_path(ensure=True))
    events = list(Agent(ScriptedChatModel(["hello"]), ToolRegistry(), store, settings=load_config(),
                        state_dir=tmp_path / "s").run("hi", workspace=tmp_path / "ws"))
    store.close()
    rc = main(["export", events[-1].task_id, "-o", str(tmp_path / "missing" / "x.jsonl")])
    err = capsys.readouterr().err
    assert rc == 1 and err.startswith("error: cannot write") and err.count("\n") == 1


def test_tasks_shows_a_killed_run_as_interrupted(tmp_path, monkeypatch, capsys):
    from assistant.infra import paths
    from assistant.loop.agent import Agent
    from assistant.cli import main
    from assistant.config import load_config
    from assistant.infra.locks import TaskLock
    from model.scripted import ScriptedChatModel
    from assistant.state.store import Store
    from tools.base import ToolRegistry

    monkeypatch.setenv("ASSISTANT_HOME", str(tmp_path))
    (tmp_path / "ws").mkdir()
    store = Store(paths.db_path(ensure=True))
    agent = Agent(ScriptedChatModel([]), ToolRegistry(), store, settings=load_config(), state_dir=paths.state_dir())
    task = agent.create_task("a long job", tmp_path / "ws")  # status "running", as after a kill -9
    store.close()
    lock = TaskLock(paths.locks_dir(ensure=True), task.id)
    assert lock.acquire()  # a live run holds the lock
    main(["tasks"])
    assert "running" in capsys.readouterr().out
    lock.release()  # the process is gone
    main(["tasks"])
    assert "interrupted" in capsys.readouterr().out


def test_live_progress_on_a_terminal_only():
    import io

    from assistant.cli_output import consume
    from assistant.events import Finished, StepStarted, TextDelta

    class Tty(io.StringIO):
        def isatty(self):
            return True

    events = [StepStarted(n=1), TextDelta("Hello ", kind="content"), TextDelta("world", kind="content"),
              Finished(answer="Hello world", status="finished", task_id="t")]
    out, err = io.StringIO(), Tty()
    assert consume(events, as_json=False, out=out, err=err, secrets={}) == 0
    assert "\r   ... writing (11 characters)" in err.getvalue() and "\r\x1b[K" in err.getvalue()
    assert out.getvalue() == "Hello world\n"
    out, err = io.StringIO(), io.StringIO()  # a pipe: no progress line
    consume(events, as_json=False, out=out, err=err, secrets={})
    assert "..." not in err.getvalue() and out.getvalue() == "Hello world\n"
