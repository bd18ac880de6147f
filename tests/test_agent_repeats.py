"""A repeated read is answered from the journal and left out of the next turn's
grammar; long-term memory takes only facts from the user or a tool result."""

from __future__ import annotations

from pydantic import BaseModel

from assistant.events import Finished, ToolCallFinished
from assistant.loop.finish import ungrounded_words
from tools.base import RiskClass, Tool, ToolContext, ToolResult
from tools.files import FILE_TOOLS
from agent_helpers import call, scripted_agent


class Fact(BaseModel):
    fact: str


REMEMBERED: list[str] = []


def _remember(ctx: ToolContext, p: Fact) -> ToolResult:
    REMEMBERED.append(p.fact)
    return ToolResult(text=f"remembered: {p.fact}")


def _agent(assistant_home, tmp_path, outputs, extra=()):
    return scripted_agent(tmp_path, outputs, [*FILE_TOOLS, *extra], approve="all")


def test_an_identical_read_is_not_run_again_and_leaves_the_next_grammar(assistant_home, tmp_path):
    read = call("read_file", path="notes.md")
    agent, model, ws, store = _agent(assistant_home, tmp_path, [
        read, read, call("write_file", path="answer.txt", content="14 March"), "Wrote answer.txt: 14 March."])
    (ws / "notes.md").write_text("beta release: 14 March\n")
    events = list(agent.run("Read notes.md and save the beta date into answer.txt", workspace=ws))
    assert isinstance(events[-1], Finished)
    results = [e.result for e in events if isinstance(e, ToolCallFinished)]
    assert "14 March" in results[0]
    assert results[1].startswith("Not run again") and "step 1" in results[1] and "14 March" not in results[1]
    calls = store.calls(events[-1].task_id)
    assert calls[1].data == {"repeat_of": calls[0].id}
    # the turn after the repeat cannot call read_file; the one after that can again
    assert "read_file" in model.grammar_tools[1] and "read_file" not in model.grammar_tools[2]
    assert "read_file" in model.grammar_tools[3]
    store.close()


def test_a_read_after_a_write_runs_again(assistant_home, tmp_path):
    read = call("read_file", path="a.txt")
    agent, model, ws, store = _agent(assistant_home, tmp_path, [
        read, call("write_file", path="a.txt", content="new"), read, "a.txt now says new."])
    (ws / "a.txt").write_text("old")
    events = list(agent.run("update a.txt", workspace=ws))
    results = [e.result for e in events if isinstance(e, ToolCallFinished)]
    assert "new" in results[2] and not results[2].startswith("Not run again")
    store.close()


def test_memory_takes_only_facts_from_the_user_or_a_tool(assistant_home, tmp_path):
    REMEMBERED.clear()
    remember = Tool("memory_add", "Remember a fact.", Fact, _remember, RiskClass.WRITE)
    agent, model, ws, store = _agent(assistant_home, tmp_path, [
        call("memory_add", fact="The beta release is scheduled for next week"),  # the invented fact
        call("read_file", path="notes.md"),
        call("memory_add", fact="Beta release: 14 March"),
        "Remembered that the beta release is on 14 March."], extra=[remember])
    (ws / "notes.md").write_text("beta release: 14 March\n")
    events = list(agent.run("remember when the beta release is (see notes.md)", workspace=ws))
    assert isinstance(events[-1], Finished)
    results = [e.result for e in events if isinstance(e, ToolCallFinished)]
    assert results[0].startswith("Not remembered") and "scheduled" in results[0]
    assert REMEMBERED == ["Beta release: 14 March"]
    store.close()


def test_grounded_words():
    assert ungrounded_words("I prefer tea", ["The user says: I prefer tea in the morning"]) == []
    assert ungrounded_words("Meeting costs 250 euros", ["meeting costs euros"]) == ["250"]
