"""The plan the harness holds: the first turn writes it, every later prompt ends
with it (done, facts, step n of max) after an unchanged history, update_plan
replaces it, a resumed task shows the same one, and the block stays small."""

from __future__ import annotations

import json

from assistant.config import load_config
from assistant.events import Finished, Paused
from assistant.loop.agent import Agent
from assistant.state.store import Store
from tools.base import ToolRegistry
from assistant.loop.plan import BLOCK_CHARS, PLAN_TURN_TOKENS, context_block
from assistant.state.models import Budgets, CallRecord, Plan, Task
from model.chat_template import ChatTemplate
from model.scripted import ScriptedChatModel
from tools.core import CORE_TOOLS
from tools.files import FILE_TOOLS
from agent_helpers import call, scripted_agent

PLAN = ["Read notes.md", "Write the date into answer.txt", "Finish with the answer"]
GOAL = "Read notes.md and save the beta date into answer.txt"


def plan_call(steps: list[str]) -> str:
    return call("update_plan", steps=json.dumps(steps))


def _run(tmp_path, outputs, **settings):
    model = ScriptedChatModel(outputs)
    run = scripted_agent(tmp_path, model, [*FILE_TOOLS, *CORE_TOOLS],  # the plan's first step is the model's read
                         **{"approve": "all", "plan": True, "preread": False, **settings})
    (run.ws / "notes.md").write_text("beta release: 14 March\n")
    return run, model


def test_the_first_turn_writes_the_plan_and_it_is_stored(assistant_home, tmp_path):
    (agent, _, ws, store), model = _run(tmp_path, [plan_call(PLAN), call("list_dir", path="."), "Nothing else to do."])
    events = list(agent.run(GOAL, workspace=ws))
    # the first turn is one constrained call that can only be update_plan, and short
    assert model.calls[0][0] == "tool_call" and model.calls[0][1] <= PLAN_TURN_TOKENS
    assert model.grammar_tools[0] == ["update_plan"]
    # right after a plan the turn must act (a 1.5B model rewrote its plan at every step); then it may revise
    assert "update_plan" not in model.grammar_tools[1] and "read_file" in model.grammar_tools[1]
    assert "update_plan" in model.grammar_tools[2]
    assert "First write a short plan" in model.prompts[0][-1].content
    task = store.get_task(events[0].task_id)
    assert task.plan == Plan(steps=PLAN, step=1, revisions=0)
    journal = store.calls(task.id)
    assert journal[0].name == "update_plan" and journal[0].status == "done" and journal[0].risk == "read"
    assert "Read notes.md" not in journal[0].result  # the model's words never become evidence
    store.close()


def test_later_prompts_show_plan_done_facts_and_step_after_an_unchanged_history(assistant_home, tmp_path):
    (agent, _, ws, store), model = _run(tmp_path, [
        plan_call(PLAN), call("read_file", path="notes.md"),
        call("write_file", path="answer.txt", content="14 March"), "Saved 14 March into answer.txt."])
    events = list(agent.run(GOAL, workspace=ws, max_steps=9))
    assert isinstance(events[-1], Finished)
    blocks = [p[-1].content for p in model.prompts]
    assert all(p[-1].role == "user" for p in model.prompts)
    assert "step 2 of 9" in blocks[1] and "1. Read notes.md" in blocks[1] and "[done]" not in blocks[1]
    assert "Next: 1. Read notes.md" in blocks[1]
    third = blocks[2]
    assert "step 3 of 9" in third and "1. [done] Read notes.md" in third and "2. Write the date" in third
    assert "Facts found:" in third and "14 March" in third and "Done: read_file notes.md" in third
    fourth = blocks[3]
    assert "2. [done] Write the date into answer.txt" in fourth and "Files written: answer.txt" in fourth
    # the block is never stored: the history holds no trace of it
    assert not any("Progress check" in m.content for m in store.messages(events[-1].task_id))
    # prefix stability: the text of step n+1 starts with step n's prompt minus its trailing block
    tpl = ChatTemplate.chatml_fallback()
    for before, after in zip(model.prompts, model.prompts[1:]):
        head = tpl.render(before[:-1], [], add_generation_prompt=False)
        full = tpl.render(after, [], add_generation_prompt=True)
        assert full.startswith(head)
        assert before[-1].content not in full  # the old block is gone, not left in the history
    store.close()


def test_update_plan_replaces_the_plan(assistant_home, tmp_path):
    new = ["Write answer.txt", "Finish"]
    (agent, _, ws, store), model = _run(tmp_path, [
        plan_call(PLAN), call("list_dir", path="."), plan_call(new), "Nothing else to do."])
    events = list(agent.run(GOAL, workspace=ws))
    task = store.get_task(events[0].task_id)
    assert task.plan == Plan(steps=new, step=3, revisions=1)
    last = model.prompts[-1][-1].content
    assert "1. Write answer.txt" in last and "Read notes.md" not in last
    store.close()


def test_a_resumed_task_shows_the_same_plan(assistant_home, tmp_path):
    outputs = [plan_call(PLAN), call("read_file", path="notes.md"), call("ask_human", question="Which format?"),
               call("write_file", path="answer.txt", content="14 March"), "Saved."]
    (agent, _, ws, store), model = _run(tmp_path, outputs)
    events = list(agent.run(GOAL, workspace=ws))
    assert isinstance(events[-1], Paused) and events[-1].kind == "question"
    tid = events[-1].task_id
    store.close()
    # a new process: a new store, agent and model over the same database
    model2 = ScriptedChatModel(outputs)
    store2 = Store(tmp_path / "t.db")
    agent2 = Agent(model2, ToolRegistry([*FILE_TOOLS, *CORE_TOOLS]), store2, state_dir=tmp_path / "state",
                   settings=load_config(overrides={"agent": {"approve": "all", "plan": True}}))
    out = list(agent2.resume(tid, answer="plain text"))
    assert isinstance(out[-1], Finished)
    assert store2.get_task(tid).plan.steps == PLAN
    block = model2.prompts[0][-1].content  # the first prompt of the new process
    assert "1. [done] Read notes.md" in block and "2. Write the date into answer.txt" in block
    assert "plain text" in block  # the user's answer is a fact found
    store2.close()


def test_the_block_stays_under_its_cap_with_a_long_journal():
    task = Task(id="t", goal="g", workspace="/w", budgets=Budgets(max_steps=40, max_generated_tokens=1, max_wall_s=1),
                plan=Plan(steps=["x" * 80] * 5))
    calls = [CallRecord(id=f"c{i}", step=i, turn_seq=i, name="read_file", arguments={"path": f"dir/file{i}.csv"},
                        risk="read", status="done", result=f"{i} " + "1234.50 " * 400) for i in range(60)]
    calls += [CallRecord(id=f"w{i}", step=i, turn_seq=i, name="write_file", arguments={"path": f"out{i}.md"},
                         risk="write", status="done", result="ok") for i in range(30)]
    block = context_block(task, calls)
    assert len(block) <= BLOCK_CHARS
    assert "step 1 of 40" in block and block.count('- read_file') <= 4
    assert "1. " in block and "5. " in block  # the plan itself is never cut


def test_rows_written_before_plans_existed_still_load():
    task = Task(id="t", goal="g", workspace="/w", budgets=Budgets(max_steps=1, max_generated_tokens=1, max_wall_s=1))
    old = json.loads(task.model_dump_json())
    del old["plan"]
    assert Task.model_validate_json(json.dumps(old)).plan is None


def test_the_plan_request_gives_an_example_from_this_task_only():
    # A 1.5B model copied the old fixed example ("Read notes.md", "Write answer.txt") as its plan for a CSV task.
    budgets = Budgets(max_steps=8, max_generated_tokens=1, max_wall_s=1)
    task = Task(id="t", goal="What are the total sales per region in sales.csv?", workspace="/w", budgets=budgets)
    block = context_block(task, [])
    assert "call update_plan" in block and 'first "Read sales.csv"' in block
    assert "notes.md" not in block and "answer.txt" not in block
    plain = context_block(Task(id="u", goal="Say hello", workspace="/w", budgets=budgets), [])
    assert "call update_plan" in plain and "Read " not in plain


def test_an_email_address_is_not_a_file_to_read():
    budgets = Budgets(max_steps=8, max_generated_tokens=1, max_wall_s=1)
    task = Task(id="t", goal="Schedule a review with Ann (ann@example.org) next Wednesday", workspace="/w",
                budgets=budgets)
    assert "example.org" not in context_block(task, [])


def test_a_plan_step_copied_from_a_tool_result_is_not_saved(assistant_home, tmp_path):
    """files_rename_pattern at 80595a7: Qwen 1.5B saved "find_files matches names only (grep searches the text inside
    files)", copied from a find_files result, as its plan's first step, then followed it. Its own steps, even ones
    the harness has repeated back, are saved."""
    copied = ["find_files matches names only (grep searches the text inside files)", "use_tools load word"]
    mine = ["Read the notes file notes.md now", "Write the date into answer.txt"]
    (agent, _, ws, store), model = _run(tmp_path, [
        call("find_files", pattern="beta*.txt"), plan_call(copied), call("read_file", path="notes.md"), plan_call(mine),
        call("write_file", path="answer.txt", content="14 March"),
        "The beta date, 14 March, is in answer.txt."], plan=False)
    events = list(agent.run(GOAL, workspace=ws))
    plans = [c for c in store.calls(events[0].task_id) if c.name == "update_plan"]
    assert plans[0].status == "invalid" and "copies a tool result" in plans[0].result
    assert [c.status for c in plans[1:]] == ["done"]
    assert store.get_task(events[0].task_id).plan.steps == mine
    from assistant.loop.calls import _copied_plan_step

    note = CallRecord(id="s5c0", step=5, turn_seq=9, name="list_dir", status="done",
                      result="photos/\nThe plan's next step: 2. Write the date into answer.txt")
    again = CallRecord(id="s6c0", step=6, turn_seq=11, name="update_plan", arguments={"steps": mine})
    assert _copied_plan_step(again, [note], [], planned=mine) == ""
    # handoff_which_contract at 1c5fa31: a format error cut short as shown ("... a call go…") and the format help's
    # placeholders saved as the plan, twice
    error = CallRecord(id="s1c0", step=1, turn_seq=1, name="read_file", status="error",
                       result="Format error: there is no tool 'update_file'; call one of your tools; a call goes "
                              "inside <tool_call> tags and an answer has none")
    cut = CallRecord(id="s3c0", step=3, turn_seq=3, name="update_plan", arguments={"steps": [
        "Format error: there is no tool 'update_file'; call one of your tools; a call go…"]})
    assert _copied_plan_step(cut, [error], []).startswith("Format error")
    placeholders = CallRecord(id="s3c0", step=3, turn_seq=3, name="update_plan",
                              arguments={"steps": ["Read contract.docx", "TOOL_NAME", "PARAMETER_NAME"]})
    assert _copied_plan_step(placeholders, [], []) == "TOOL_NAME"
    assert _copied_plan_step(again, [note], []) == "Write the date into answer.txt"
    store.close()


def test_a_step_that_names_no_file_is_done_when_a_later_step_is():
    """Batch DZ at a3c921a (DZE): data.csv was written right at step 1; the plan made after it had "Change the
    separator to commas" between two done steps, the block said "Next: 2. Change the separator", and the model read
    and wrote data.csv again for six steps."""
    steps = ["Read data.csv", "Change the separator to commas", "Write the updated file back to data.csv",
             "Finish with the answer"]
    task = Task(id="t", goal="g", workspace="/w", budgets=Budgets(max_steps=8, max_generated_tokens=1, max_wall_s=1),
                plan=Plan(steps=steps))
    read = CallRecord(id="r", step=0, turn_seq=0, name="read_file", arguments={"path": "data.csv"}, risk="read",
                      status="done", result="name;city")
    write = CallRecord(id="w", step=1, turn_seq=1, name="write_file", arguments={"path": "data.csv"}, risk="write",
                       status="done", result="overwrote data.csv")
    block = context_block(task, [read])
    assert "2. Change the separator to commas" in block and "Next: 2. Change the separator" in block, block
    assert "3. Write the updated file" in block, block  # a read does not write data.csv
    block = context_block(task, [read, write])
    assert "2. [done] Change the separator to commas" in block and "4. Finish with the answer" in block, block
    assert "Next: 4. Finish with the answer" in block, block
