"""The bench runner end to end with the scripted model: fresh workspace and home
per run, grading, hand-off pauses, metrics, the table and the JSON file."""

from __future__ import annotations

import argparse
import json
import os

from assistant.bench_runner import (DEFAULT_TASKS_DIR, RunResult, add_commands, format_table, load_task, run_bench,
                                    run_task, summarise)
from model.scripted import ScriptedChatModel
from agent_helpers import call


RENAMES = "\n".join(call("move", src=f"photos/IMG_{n}.jpg", dest=f"photos/holiday-{n}.jpg")
                    for n in ("0007", "0012", "0013", "0101", "0420"))
SCRIPTS = {
    "files_rename_pattern": {"outputs": [RENAMES, "Renamed the five photos."]},
    "handoff_send_budget": {"outputs": [call("ask_human", question="Who is your manager, and how should I send it?")]},
}


def task(name: str):
    return load_task(DEFAULT_TASKS_DIR / name)


def test_a_solved_task_is_graded_one_with_its_costs(assistant_home):
    r = run_task(task("files_rename_pattern"), ScriptedChatModel(SCRIPTS["files_rename_pattern"]["outputs"]))
    assert (r.grade, r.passed, r.end, r.steps, r.error) == (1.0, True, "finished", 2, "")
    assert r.calls == ["move"] * 5
    assert r.generated > 0 and r.prompt_tokens > 0 and r.evaluated > 0
    assert r.answer == "Renamed the five photos."
    kinds = [next(iter(t)) for t in r.trace]  # the trace a person reads afterwards, in order
    assert kinds[:3] == ["step", "call", "result"] and kinds.count("call") == 5
    assert r.trace[1]["call"]["arguments"] == {"src": "photos/IMG_0007.jpg", "dest": "photos/holiday-0007.jpg"}
    assert r.trace[-1] == {"text": "Renamed the five photos."}


def test_the_trace_shows_a_call_that_was_refused_before_it_ran(assistant_home):
    move = call("move", src="photos/IMG_0007.jpg", dest="photos/holiday-0007.jpg")
    r = run_task(task("files_rename_pattern"), ScriptedChatModel([move, move, "Renamed one photo."]))
    refused = [t for t in r.trace if t.get("run") is False]
    assert [t["call"]["name"] for t in refused] == ["move"]
    after = r.trace[r.trace.index(refused[0]) + 1]
    assert after["result"].startswith("Not run again")
    assert not any("call_text" in t for t in r.trace), r.trace  # the refused call's text is the call shown


def test_the_trace_shows_the_answer_of_a_finish_call_the_checks_refused(assistant_home):
    """files_rename_pattern at ab03949: the trace held "Finish check: the answer says readme.txt was written" and not
    the answer it doubted (sent as a finish call, which starts no call event)."""
    r = run_task(task("files_rename_pattern"), ScriptedChatModel([
        call("finish", answer="I wrote readme.txt with the new names."), RENAMES, "Renamed the five photos."]))
    refused = next(i for i, t in enumerate(r.trace) if "readme.txt" in t.get("call_text", ""))
    assert r.trace[refused + 1]["notice"].startswith("Finish check:"), r.trace
    assert not any("call_text" in t for t in r.trace[refused + 1:]), r.trace  # the moves' text is their calls
    assert r.grade == 1.0


def test_each_run_gets_its_own_home_and_the_callers_home_comes_back(assistant_home):
    r = run_task(task("note_add"), ScriptedChatModel([
        call("note_add", title="Wifi password", body="guest network password is sunflower42"), "Saved."]))
    assert r.grade == 1.0
    assert os.environ["ASSISTANT_HOME"] == str(assistant_home)
    assert not (assistant_home / "state").exists(), "the run wrote into the caller's home"


def test_calendar_events_land_in_the_workspace_in_utc(assistant_home):
    r = run_task(task("calendar_add_event"), ScriptedChatModel([
        call("calendar_add_event", title="Dentist appointment", start="2026-12-03 15:00", end="15:45"), "Added."]))
    assert r.grade == 1.0, r


def test_handoff_task_pausing_on_ask_human_passes(assistant_home):
    r = run_task(task("handoff_send_budget"), ScriptedChatModel(SCRIPTS["handoff_send_budget"]["outputs"]))
    assert (r.end, r.grade, r.passed) == ("paused:question", 1.0, True)


def test_a_task_left_undone_scores_zero_and_format_errors_are_counted(assistant_home):
    bad = "<tool_call>\n<function=move>\n<parameter=src>\nphotos/IMG_0007.jpg\n</function>"
    r = run_task(task("files_rename_pattern"), ScriptedChatModel([bad, "Done.", "Done."]))
    assert (r.grade, r.passed, r.end) == (0.0, False, "paused:stuck")  # "Done." with nothing done: handed off
    assert r.format_errors == 1


def test_step_budget_pause_is_reported(assistant_home):
    r = run_task(task("files_find"), ScriptedChatModel([call("list_dir", path=".")] * 3), max_steps=2)
    assert r.end == "paused:budget" and r.steps == 2 and r.grade == 0.0


def test_pass_k_needs_every_repeat_to_pass():
    runs = [RunResult("a", 0, grade=1.0, passed=True, steps=2), RunResult("a", 1, grade=0.5, passed=False, steps=4),
            RunResult("b", 0, grade=1.0, passed=True, steps=1), RunResult("b", 1, grade=1.0, passed=True, steps=1,
                                                                          end="paused:stuck")]
    rows = {r["task"]: r for r in summarise(runs)}
    assert (rows["a"]["success"], rows["a"]["pass_k"], rows["a"]["steps"]) == (0.75, 0, 3.0)
    assert (rows["b"]["success"], rows["b"]["pass_k"], rows["b"]["stuck"]) == (1.0, 1, 1)
    table = format_table(list(rows.values()))
    assert "pass^k" in table.splitlines()[0] and "ALL (2 tasks)" in table.splitlines()[-1]


def test_run_bench_repeats_with_a_fresh_model_per_run(assistant_home):
    seen = []
    results = run_bench([task("handoff_send_budget")], lambda t: ScriptedChatModel(SCRIPTS[t.name]["outputs"]),
                        repeat=2, on_result=seen.append)
    assert [r.repeat for r in results] == [0, 1] and seen == results
    assert all(r.passed for r in results)


def test_cli_bench_run_prints_the_table_and_writes_json(tmp_path, assistant_home, capsys):
    script = tmp_path / "scripts.json"
    script.write_text(json.dumps(SCRIPTS))
    out = tmp_path / "results.json"
    parser = argparse.ArgumentParser(prog="assistant")
    add_commands(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["bench", "run", "--scripted", str(script), "--tasks",
                              "files_rename_pattern,handoff_send_budget", "--repeat", "2", "--output", str(out)])
    assert args.func(args) == 0
    printed = capsys.readouterr().out
    assert "files_rename_pattern" in printed and "ALL (2 tasks)" in printed
    report = json.loads(out.read_text())
    assert [t["task"] for t in report["tasks"]] == ["files_rename_pattern", "handoff_send_budget"]
    assert all(t["success"] == 1.0 and t["pass_k"] == 1 for t in report["tasks"])
    assert len(report["runs"]) == 4 and report["repeat"] == 2


def test_cli_bench_run_rejects_an_unknown_task_glob(tmp_path, assistant_home, capsys):
    parser = argparse.ArgumentParser(prog="assistant")
    add_commands(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["bench", "run", "--scripted", str(tmp_path / "x.json"), "--tasks", "nope_*"])
    assert args.func(args) == 2
    assert "no bench task matches" in capsys.readouterr().err


class RecordingModel(ScriptedChatModel):
    """Scripted model that keeps the system prompt of every call."""

    systems: list[str] = []

    def complete(self, messages, tools, **kw):
        self.systems.append(messages[0].content)
        return super().complete(messages, tools, **kw)


def test_runs_share_one_workspace_path_so_the_prompt_prefix_can_be_reused(assistant_home):
    RecordingModel.systems = []
    results = run_bench([task("files_find"), task("docx_lookup")], lambda t: RecordingModel(["Not sure."] * 2))
    # "Not sure." names no file, which is no answer to files_find's "which file is it?", and no amount, which is no
    # answer to docx_lookup's "how much is the rent?" (each refused twice: a hand-off); docx_lookup names a
    # document, which the harness read before the first turn (preread)
    assert [r.end for r in results] == ["paused:stuck", "paused:stuck"]
    assert results[1].trace[0] == {"call": {"id": "s0c0", "name": "docx_read", "arguments": {"path": "lease.docx"}}}
    first, *rest = RecordingModel.systems
    assert rest and all(s == first for s in rest), "the system prompt (which names the workspace) changed between runs"


def test_the_bench_builds_the_agent_the_way_the_app_does(assistant_home):
    class TemplateModel(RecordingModel):
        teaches_call_format = True  # like a GGUF whose chat template renders the call format

    RecordingModel.systems = []
    run_task(task("files_find"), RecordingModel(["Not sure."]))
    run_task(task("files_find"), TemplateModel(["Not sure."]))
    taught_by_prompt, taught_by_template = RecordingModel.systems[0], RecordingModel.systems[-1]
    assert "To call a tool" in taught_by_prompt
    assert "To call a tool" not in taught_by_template


def test_a_run_sums_its_turns_prefill_and_decode_seconds():
    """csv_top_customers at 31f8af8 spent its 300 s in 2 steps with 120 tokens generated: per-run seconds of
    prefill and decode say where such time went."""
    from assistant.bench_runner import RunResult, _absorb
    from assistant.events import Metrics

    r = RunResult(task="t", repeat=0)
    for prefill, decode in ((2.25, 1.5), (0.5, 3.0)):
        _absorb(r, Metrics(data={"step": 1, "generated": 3, "prefill_s": prefill, "decode_s": decode}))
    assert (r.prefill_s, r.decode_s, r.generated) == (2.75, 4.5, 6)
