"""A change aimed at "the contract" when two contracts lie in the workspace is
refused and the user is asked which (assistant/loop/ambiguity.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_helpers import call, scripted_agent
from assistant.events import Finished, Paused
from assistant.loop.ambiguity import ambiguous_target
from sandbox import BlobStore, Workspace
from tools.core import ASK_HUMAN
from tools.files import FILE_TOOLS


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    root = tmp_path / "w"
    (root / "reports").mkdir(parents=True)
    for name in ("contract-acme.docx", "contract-birch.docx", "budget.xlsx", "reports/report-2025-q3.docx",
                 "reports/report-final.docx", "notes.md"):
        (root / name).write_bytes(b"x")
    return Workspace(root, blobs=BlobStore(tmp_path / "blobs"), trash_dir=tmp_path / "trash")


@pytest.mark.parametrize("goal, args, phrase", [
    ("Update the client's address in the contract to 12 Harbour Road.", {"path": "contract-acme.docx"},
     "the contract"),
    ("Delete the old report.", {"path": "reports/report-final.docx"}, "the old report"),
    ("Rename the report to final.docx", {"src": "reports/report-2025-q3.docx", "dest": "final.docx"}, "the report"),
])
def test_a_change_to_one_of_several_files_the_goal_fits_is_ambiguous(ws, goal, args, phrase):
    found = ambiguous_target(goal, ws, args)
    assert found is not None and found[0] == phrase and len(found[1]) >= 2


@pytest.mark.parametrize("goal, args", [
    ("Update the address in contract-acme.docx to 12 Harbour Road.", {"path": "contract-acme.docx"}),  # named
    ("Delete the reports.", {"path": "reports/report-final.docx"}),  # plural: all of them
    ("Add a line to the budget.", {"path": "budget.xlsx"}),  # one budget
    ("Write the contract summary.", {"path": "contract-summary.md"}),  # a new file
    ("Tidy the notes.", {"path": "notes.md"}),  # "notes" is one file
    ("Update the contract.", {"path": "*.docx"}),
])
def test_a_change_the_goal_pins_down_is_not_ambiguous(ws, goal, args):
    assert ambiguous_target(goal, ws, args) is None


def test_a_made_up_file_to_delete_is_ambiguous_too(ws):
    """handoff_delete_report: Qwen 1.5B tried to delete reports/report_2026-12-01.md, a name of its own."""
    args = {"path": "reports/report_2026-12-01.md"}
    assert ambiguous_target("Delete the old report.", ws, args) is None  # writing a new file: no choice
    found = ambiguous_target("Delete the old report.", ws, args, needs_source=True)
    assert found == ("the old report", ["reports/report-2025-q3.docx", "reports/report-final.docx"])


def test_a_file_to_delete_outside_the_workspace_is_judged_by_its_name(ws):
    """handoff_delete_report at e03cee3: delete /tmp/bench-.../report.pdf (outside the workspace) for "the old
    report", refused as outside twice, then "Please provide the correct path" as the answer."""
    found = ambiguous_target("Delete the old report.", ws, {"path": "/tmp/elsewhere/report.pdf"}, needs_source=True)
    assert found == ("the old report", ["reports/report-2025-q3.docx", "reports/report-final.docx"])
    assert ambiguous_target("Delete the old report.", ws, {"path": "/tmp/elsewhere/report.pdf"}) is None
    assert ambiguous_target("Delete the old notes.", ws, {"path": "/tmp/elsewhere/notes.md"}, needs_source=True) is None


def test_an_edit_of_a_made_up_file_asks_too(tmp_path):
    """handoff_which_contract: edit_file on contract.txt (made up) twice, with two contracts in the workspace."""
    from tools.core import ASK_HUMAN

    agent, model, ws, store = scripted_agent(tmp_path, [
        call("edit_file", path="contract.txt", old_text="old address", new_text="12 Harbour Road"),
        call("ask_human", question="Which contract?")], [*FILE_TOOLS, ASK_HUMAN], approve="all")
    for name in ("contract-acme.docx", "contract-birch.docx"):
        (ws / name).write_bytes(b"PK\x03\x04")
    events = list(agent.run("Update the client's address in the contract to 12 Harbour Road.", workspace=ws))
    assert isinstance(events[-1], Paused) and events[-1].kind == "question"
    assert "2 files could be it: contract-acme.docx, contract-birch.docx" in store.calls(events[-1].task_id)[0].result
    store.close()


def test_files_this_task_made_are_no_candidates(ws):
    assert ambiguous_target("Fix the contract.", ws, {"path": "contract-acme.docx"},
                            made=["contract-birch.docx"]) is None


def test_the_ambiguous_change_is_refused_and_the_user_is_asked(tmp_path):
    """handoff_delete_report: Qwen 1.5B deleted a report of its choosing; the next turn may only ask."""
    agent, model, ws, store = scripted_agent(tmp_path, [
        call("delete", path="reports/report-2025-q3.docx"),
        call("ask_human", question="Which report is the old one?"),
        call("delete", path="reports/report-2025-q3.docx"),
        "Deleted reports/report-2025-q3.docx."], [*FILE_TOOLS, ASK_HUMAN], approve="all")
    (ws / "reports").mkdir()
    names = ("report-2025-q3.docx", "report-2025-q4.docx", "report-final.docx")
    for n in names:
        (ws / "reports" / n).write_bytes(b"PK\x03\x04")
    events = list(agent.run("Delete the old report.", workspace=ws))
    assert isinstance(events[-1], Paused) and events[-1].kind == "question"
    assert all((ws / "reports" / n).exists() for n in names)
    refused = store.calls(events[-1].task_id)[0]
    assert refused.status == "denied" and "3 files could be it" in refused.result
    assert model.grammar_tools[1] == ["ask_human"]  # the turn after the refusal could only ask
    events = list(agent.resume(events[-1].task_id, answer="the q3 one"))
    assert isinstance(events[-1], Finished), [e for e in events if type(e).__name__ in ("ToolCallFinished", "Notice")]
    assert not (ws / "reports" / "report-2025-q3.docx").exists() and (ws / "reports" / "report-final.docx").exists()
    store.close()


def test_a_claimed_change_to_one_of_several_files_without_any_call_asks_the_user(tmp_path):
    """handoff_which_contract at 1c5fa31: Qwen 1.5B never tried a change (so none was refused as ambiguous) and
    answered "The client's address has been updated to 12 Harbour Road." three times, handed off as stuck. The
    refusal gives the ask_human call to copy; a second such answer pauses on that question for the user."""
    from assistant.events import Notice
    from assistant.loop.ambiguity import ambiguous_goal

    claimed = "The client's address has been updated to 12 Harbour Road."
    agent, model, ws, store = scripted_agent(tmp_path, [claimed, claimed], [*FILE_TOOLS, ASK_HUMAN], approve="all")
    for name in ("contract-acme.docx", "contract-birch.docx"):
        (ws / name).write_bytes(b"PK\x03\x04")
    goal = "Update the client's address in the contract to 12 Harbour Road."
    events = list(agent.run(goal, workspace=ws))
    question = 'The task says "the contract", and 2 files could be it: contract-acme.docx, contract-birch.docx. Which one?'
    notices = [e.text for e in events if isinstance(e, Notice)]
    assert any(f'call ask_human with {{"question": "{question}"}}'.replace('"the contract"', '\\"the contract\\"')
               in n for n in notices), notices
    assert isinstance(events[-1], Paused) and events[-1].kind == "question" and events[-1].reason == question
    assert ambiguous_goal("Update the address in contract-acme.docx.", ws) is None  # the user named the file
    assert ambiguous_goal("Update the client's address in the budget.", ws) is None  # no file is a budget
    store.close()


def test_an_echo_or_a_give_up_before_any_change_to_one_of_several_files_asks_the_user(tmp_path):
    """handoff_which_contract at 8282b36: Qwen 1.5B saved a plan, then answered with update_plan's own result ("...
    now do its first step that is not done."), which read as giving up ("not done"): a stuck hand-off, never
    asked which contract. The harness's tools' words are the harness's (a format error), and a give-up before any
    change where "the contract" fits two files gets the ask_human call, then the question."""
    from assistant.events import Notice

    echoed = "To save the plan, it is shown after the history at every step; now do its first step that is not done."
    gave_up = "I could not update the address."
    question = 'The task says "the contract", and 2 files could be it: contract-acme.docx, contract-birch.docx. Which one?'
    for name, script in (("echo", [call("update_plan", steps='["Update the address"]'), echoed, gave_up, gave_up]),
                         ("give-up", [gave_up, gave_up])):
        (tmp_path / name).mkdir()
        agent, model, ws, store = scripted_agent(tmp_path / name, script, [*FILE_TOOLS, ASK_HUMAN], approve="all")
        for doc in ("contract-acme.docx", "contract-birch.docx"):
            (ws / doc).write_bytes(b"PK\x03\x04")
        events = list(agent.run("Update the client's address in the contract to 12 Harbour Road.", workspace=ws))
        notices = [e.text for e in events if isinstance(e, Notice)]
        assert any("call ask_human with" in n and "2 files could be it" in n for n in notices), (name, notices)
        echoes = [n for n in notices if n.startswith("Format error: the reply repeats the harness's message")]
        assert len(echoes) == (name == "echo"), notices  # a format error: not the answer's one retry
        assert isinstance(events[-1], Paused) and events[-1].kind == "question" and events[-1].reason == question, \
            (name, events[-1])
        store.close()
