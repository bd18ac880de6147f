"""Arguments the store cannot hold (lone surrogates, 900-deep nesting) become
observations to the model; the task never pauses with an internal error."""

from __future__ import annotations

import json

from assistant.loop.agent import Agent
from assistant.loop.arguments import argument_problem, storable
from assistant.events import ErrorEvent, Finished, Paused, ToolCallFinished
from model.scripted import ScriptedChatModel
from assistant.state import Store
from model.types import ParsedTurn, ToolCall
from tools.base import RiskClass, Tool, ToolContext, ToolRegistry

from pydantic import BaseModel


class NoteArgs(BaseModel):
    path: str
    text: object = ""


def _note(ctx: ToolContext, p: NoteArgs) -> str:
    ctx.workspace.write_text(p.path, str(p.text))
    return f"wrote {p.path}"


def nested(depth: int) -> object:
    value: object = "x"
    for _ in range(depth):
        value = [value]
    return value


def run_scripted(tmp_path, turns: dict[str, list[ToolCall]], outputs: list[str]):
    def parser(text, tools, **kw):
        return ParsedTurn(content="" if text in turns else text, tool_calls=turns.get(text, []), raw=text)

    ws = tmp_path / "ws"
    ws.mkdir()
    store = Store(tmp_path / "tasks.db")
    model = ScriptedChatModel(outputs, parser=parser)
    registry = ToolRegistry([Tool("note", "Write a file.", NoteArgs, _note, RiskClass.WRITE)])
    agent = Agent(model, registry, store, state_dir=tmp_path / "state")
    events = list(agent.run("do it", workspace=ws, approve="all"))
    return events, store, model, ws


def test_lone_surrogate_and_deep_nesting_become_observations_and_the_task_goes_on(tmp_path):
    turns = {
        "a": [ToolCall("note", {"path": "\udcff.txt", "text": "hi"}, "raw-a")],
        "b": [ToolCall("note", {"path": "b.txt", "text": nested(900)}, "raw-b")],
    }
    events, store, model, ws = run_scripted(tmp_path, turns, ["a", "b", "all done"])
    assert not [e for e in events if isinstance(e, ErrorEvent)]
    assert not [e for e in events if isinstance(e, Paused)]
    assert isinstance(events[-1], Finished) and events[-1].answer == "all done"
    assert len(model.calls) == 3  # the turns after each bad call ran
    results = [e for e in events if isinstance(e, ToolCallFinished)]
    assert results[0].error and "argument 'path' is not valid text" in results[0].result
    assert results[1].error and "argument 'text' is nested too deep" in results[1].result
    task_id = events[-1].task_id
    assert [c.status for c in store.calls(task_id)] == ["invalid", "invalid"]
    observations = [m.content for m in store.messages(task_id) if m.kind == "observation"]
    assert "argument 'path' is not valid text" in observations[0]
    assert "argument 'text' is nested too deep" in observations[1]
    assert list(ws.iterdir()) == []  # neither call ran
    assert store.get_task(task_id).status == "finished"


def test_a_good_call_in_the_same_turn_still_runs(tmp_path):
    turns = {"a": [ToolCall("note", {"path": "bad", "text": "\ud800"}, "raw-1"),
                   ToolCall("note", {"path": "good.txt", "text": "ok"}, "raw-2")]}
    events, store, _, ws = run_scripted(tmp_path, turns, ["a", "done"])
    assert isinstance(events[-1], Finished)
    assert (ws / "good.txt").read_text() == "ok"
    assert [c.status for c in store.calls(events[-1].task_id)] == ["invalid", "done"]


def test_json_format_surrogate_escape_through_the_real_parser(tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    store = Store(tmp_path / "tasks.db")
    bad = '<tool_call>\n{"name": "note", "arguments": {"path": "\\udcff.txt", "text": "x"}}\n</tool_call>'
    model = ScriptedChatModel([bad, "done"], fmt="json")
    registry = ToolRegistry([Tool("note", "Write a file.", NoteArgs, _note, RiskClass.WRITE)])
    events = list(Agent(model, registry, store, state_dir=tmp_path / "state").run("do it", workspace=ws,
                                                                                   approve="all"))
    assert not [e for e in events if isinstance(e, ErrorEvent)]
    assert isinstance(events[-1], Finished)
    assert list(ws.iterdir()) == []


def test_argument_problem_names_the_argument_and_storable_copies_are_json():
    assert argument_problem({"path": "a.txt", "rows": [[1, 2], [3]]}) is None
    assert "'path'" in argument_problem({"path": "\udcff"})
    assert "'k'" in argument_problem({"k": {"inner": ["ok", "\udc80"]}})
    assert "nested too deep" in argument_problem({"rows": nested(65)})
    assert argument_problem({"rows": nested(63)}) is None
    json.dumps(storable({"path": "\udcff", "rows": nested(5000)}), ensure_ascii=False).encode("utf-8")


def test_an_argument_the_tool_does_not_have_stops_a_write_and_is_named_on_a_read(assistant_home, tmp_path):
    """Qwen 1.5B passed a CSV's data to xlsx_write as `rows` when it had no such parameter:
    pydantic dropped it and only the header cells would have been written."""
    from agent_helpers import call, scripted_agent
    from tools.files import FILE_TOOLS

    agent, model, ws, store = scripted_agent(tmp_path, [
        call("read_file", path="a.txt", colour="blue"),
        call("write_file", path="b.txt", content="x", rows=[["1", "2"]]),
        call("write_file", path="b.txt", content="x"),
        "Wrote b.txt."], FILE_TOOLS, approve="all", preread=False)  # the model's own read carries the extra argument
    (ws / "a.txt").write_text("hello\n")
    events = list(agent.run("copy a.txt to b.txt", workspace=ws))
    assert isinstance(events[-1], Finished)
    read, bad, good = [e for e in events if isinstance(e, ToolCallFinished)]
    assert not read.error and "hello" in read.result and "no parameter 'colour'" in read.result
    assert bad.error and bad.result.startswith("Not run: write_file has no parameter 'rows'") and "content" in bad.result
    assert not good.error and (ws / "b.txt").read_text() == "x"
    store.close()
    from assistant.loop.calls import _unknown_arguments

    write = next(t for t in FILE_TOOLS if t.name == "write_file")
    assert _unknown_arguments(write, {"path": "a", "content": "", "overwrite": None, "mode": ""}) == []  # nulls
