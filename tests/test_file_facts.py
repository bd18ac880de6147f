"""Which file of a folder is the largest (newest ...): looked up on the disk by the harness, read before the first
turn as a listing, given as a note after it, and checked at the finish."""

from __future__ import annotations

import os
import time

from agent_helpers import call, scripted_agent
from assistant.events import Finished, Notice, ToolCallFinished
from assistant.loop.file_facts import file_extreme
from assistant.loop.finish import Evidence, finish_problems
from assistant.loop.preread import preread_calls
from tools.files import FILE_TOOLS


def _files(root, sizes):
    for i, (name, size) in enumerate(sizes.items()):
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"x" * size)
        stamp = time.mktime((2026, 3 + i, 28, 12, 0, 0, 0, 0, -1))
        os.utime(path, (stamp, stamp))


def test_the_largest_smallest_newest_and_oldest_file_of_a_folder(tmp_path):
    _files(tmp_path, {"notes.txt": 6, "server.log": 6400, "logo.png": 2004, "reports/may.docx": 9000,
                      "reports/march.docx": 10, "reports/april.docx": 20})
    (tmp_path / ".assistant").mkdir()
    (tmp_path / ".assistant" / "big.db").write_bytes(b"x" * 99999)  # the app's own folder is no file of the user's
    largest = file_extreme("Which file in this folder is the largest?", tmp_path)
    assert largest is not None and (largest.path, largest.said, largest.what, largest.folder) == \
        ("server.log", "6,400 bytes", "largest", ".")
    assert file_extreme("What is the smallest file here?", tmp_path).path == "notes.txt"
    newest = file_extreme("Which file in the reports folder was changed most recently?", tmp_path)
    assert (newest.path, newest.what) == ("reports/april.docx", "most recently changed") and \
        newest.said.startswith("modified 2026-08-28"), newest
    assert file_extreme("Which file in the reports folder is the oldest?", tmp_path).path == "reports/may.docx"
    # not a question for one file by size or age: none
    for goal in ("Which file mentions the largest order?  It is in orders.csv.", "Delete the largest file.",
                 "Which file is about my passport?", "How large is server.log?"):
        assert file_extreme(goal, tmp_path) is None, goal
    # a tie: none
    _files(tmp_path / "tie", {"a.txt": 5, "b.txt": 5})
    assert file_extreme("Which file in the tie folder is the largest?", tmp_path) is None


def test_a_question_for_the_largest_file_gets_the_folder_listed_not_a_grep_for_largest(tmp_path):
    """A held-out task (SA) at 5910adb: "Which file in this folder is the largest?" got the harness's grep for
    "largest" before its first turn, and answered that it could not tell."""
    _files(tmp_path, {"notes.txt": 6, "server.log": 6400})
    got = preread_calls("Which file in this folder is the largest?", tmp_path, {"list_dir", "grep"}.__contains__)
    assert [(c.name, c.arguments) for c in got] == [("list_dir", {"path": "."})]


def test_the_listing_gives_the_file_and_the_finish_checks_the_answer_names_it(tmp_path):
    agent, _, ws, store = scripted_agent(tmp_path, [
        "I cannot tell which file is the largest.", "server.log is the largest file (6,400 bytes)."],
        [*FILE_TOOLS], approve="all")
    _files(ws, {"notes.txt": 6, "server.log": 6400, "logo.png": 2004})
    events = list(agent.run("Which file in this folder is the largest?", workspace=ws))
    store.close()
    listing = next(e for e in events if isinstance(e, ToolCallFinished))
    assert listing.call["name"] == "list_dir" and listing.result.endswith(
        'Note: the harness compared the files of the workspace: the largest is server.log (6,400 bytes); the answer '
        'to copy: "server.log is the largest file (6,400 bytes)."'), listing.result
    doubts = [e.text for e in events if isinstance(e, Notice) and "Finish check" in e.text]
    assert len(doubts) == 1 and "the task asks which file is the largest, and the answer does not name it" in \
        doubts[0], doubts
    assert isinstance(events[-1], Finished) and "server.log" in events[-1].answer
    assert finish_problems("It is server.log.", Evidence(
        "Which file in this folder is the largest?", ws, calls=[], tool_names=["list_dir", "finish"])) == []


def test_a_question_for_the_empty_files_gets_the_listing_a_note_and_a_finish_check(tmp_path):
    """A held-out task at 911f35c: "Which files in this folder are empty?" got find_files ".*" (no match) and
    answered "No files in the workspace are empty." (two of four were)."""
    from assistant.loop.file_facts import empty_files

    goal = "Which files in this folder are empty?"
    agent, _, ws, store = scripted_agent(tmp_path, [
        "No files in the workspace are empty.", "empty_draft.txt and todo.md are empty."], [*FILE_TOOLS],
        approve="all")
    _files(ws, {"notes.txt": 14, "empty_draft.txt": 0, "todo.md": 0, "readme.md": 10})
    assert [c.name for c in preread_calls(goal, ws, {"list_dir", "grep"}.__contains__)] == ["list_dir"]
    events = list(agent.run(goal, workspace=ws))
    store.close()
    listing = next(e.result for e in events if isinstance(e, ToolCallFinished))
    assert "The empty files in this folder are empty_draft.txt and todo.md (0 bytes each)." in listing, listing
    doubt = next(e.text for e in events if isinstance(e, Notice) and e.text.startswith("Finish check"))
    assert "the task asks which files are empty, and the answer does not say it" in doubt, doubt
    assert isinstance(events[-1], Finished) and events[-1].answer == "empty_draft.txt and todo.md are empty."
    (ws / "todo.md").write_text("- call Anna\n")
    assert empty_files(goal, ws).answer == "empty_draft.txt is the one empty file in this folder (0 bytes)."
    (ws / "empty_draft.txt").write_text("x")
    assert empty_files(goal, ws).answer == "No file in this folder is empty."
    assert empty_files("Delete the empty files.", ws) is None and empty_files("Is notes.txt empty?", ws) is None
