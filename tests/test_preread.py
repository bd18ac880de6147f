"""The harness reads the files a goal names before the model's first turn
(assistant/loop/preread.py)."""

from __future__ import annotations

import os
from pathlib import Path

from agent_helpers import call, scripted_agent
from assistant.events import Finished, Paused, ToolCallFinished
from assistant.loop.preread import preread_calls

READERS = {"read_file", "pdf_read", "docx_read", "xlsx_read"}


def _names(goal: str, root: Path, registered=READERS.__contains__) -> list[tuple[str, str]]:
    return [(c.name, c.arguments["path"]) for c in preread_calls(goal, root, registered)]


def test_each_named_file_that_exists_gets_its_reader(tmp_path):
    for name in ("notes.md", "q3-report.pdf", "contract.docx", "sales.xlsx"):
        (tmp_path / name).write_bytes(b"x")
    assert _names("Who is the plumber? It is in notes.md", tmp_path) == [("read_file", "notes.md")]
    assert _names("What total is on page 3 of q3-report.pdf?", tmp_path) == [("pdf_read", "q3-report.pdf")]
    assert _names("Total sales.xlsx by region and add a line to contract.docx", tmp_path) == [
        ("xlsx_read", "sales.xlsx"), ("docx_read", "contract.docx")]
    # a file to create, a missing one, a reader that is not registered: nothing to read
    assert _names("Write the summary into summary.md", tmp_path) == []
    assert _names("Read missing.txt", tmp_path) == []
    assert _names("What is on page 1 of q3-report.pdf?", tmp_path, registered={"read_file"}.__contains__) == []


def test_at_most_three_files_and_never_one_outside_the_workspace(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    for i in range(5):
        (root / f"f{i}.txt").write_text(str(i))
    assert len(_names("Merge f0.txt, f1.txt, f2.txt, f3.txt and f4.txt", root)) == 3
    (tmp_path / "secret.txt").write_text("secret")
    os.symlink(tmp_path / "secret.txt", root / "link.txt")
    assert _names("What does link.txt say?", root) == []


def test_the_task_starts_with_the_file_read_and_no_step_spent(tmp_path):
    """The model's first turn already has the file: it can answer at step 1."""
    agent, model, ws, store = scripted_agent(tmp_path, ["The plumber is Bob Lane, 555 0100."], approve="all")
    (ws / "notes.md").write_text("Plumber: Bob Lane, 555 0100\n")
    events = list(agent.run("Who is the plumber? It is in notes.md", workspace=ws))
    assert isinstance(events[-1], Finished) and events[-1].answer == "The plumber is Bob Lane, 555 0100."
    read = next(e for e in events if isinstance(e, ToolCallFinished))
    assert read.call["id"] == "s0c0" and "Bob Lane" in read.result and "UNTRUSTED" in read.result  # fenced as data
    task = store.get_task(events[-1].task_id)
    assert task.usage.steps == 1
    journal = store.calls(task.id)
    assert [(c.name, c.step, c.status) for c in journal] == [("read_file", 0, "done")]
    store.close()


def test_preread_off_leaves_the_reading_to_the_model(tmp_path):
    agent, model, ws, store = scripted_agent(tmp_path, [call("read_file", path="notes.md"), "It is Bob."],
                                             approve="all", preread=False)
    (ws / "notes.md").write_text("Plumber: Bob\n")
    events = list(agent.run("Who is the plumber? It is in notes.md", workspace=ws))
    assert isinstance(events[-1], Finished)
    assert [c.step for c in store.calls(events[-1].task_id)] == [1]
    store.close()


def test_a_resumed_task_is_not_read_again(tmp_path):
    from tools.core import ASK_HUMAN
    from tools.files import FILE_TOOLS

    agent, model, ws, store = scripted_agent(tmp_path, [
        call("ask_human", question="Which plumber?"), "It is Bob."], [*FILE_TOOLS, ASK_HUMAN], approve="all")
    (ws / "notes.md").write_text("Plumber: Bob\n")
    events = list(agent.run("Who is the plumber? It is in notes.md", workspace=ws))
    assert isinstance(events[-1], Paused), events[-1]
    events = list(agent.resume(events[-1].task_id, answer="the one in notes.md"))
    assert isinstance(events[-1], Finished)
    assert [c.name for c in store.calls(events[-1].task_id)].count("read_file") == 1
    store.close()


def test_a_file_the_harness_read_is_shown_again_once_when_the_model_asks_for_it(tmp_path):
    """pdf_find_figure, docx_summarise: the harness had read the file; Qwen 1.5B called the same read at step 1, was
    told "Not run again", asked twice more and handed the user's own question back."""
    agent, model, ws, store = scripted_agent(tmp_path, [
        call("read_file", path="notes.md"), call("read_file", path="notes.md"), "The plumber is Bob Lane."],
        approve="all")
    (ws / "notes.md").write_text("Plumber: Bob Lane\n")
    events = list(agent.run("Who is the plumber? It is in notes.md", workspace=ws))
    assert isinstance(events[-1], Finished)
    results = [e.result for e in events if isinstance(e, ToolCallFinished)]
    assert len(results) == 3 and "Bob Lane" in results[0]
    assert results[1].startswith("The harness read this for you before your first turn (step 0); here it is again:")
    assert "Bob Lane" in results[1] and "UNTRUSTED" in results[1]  # still fenced as data
    assert results[2].startswith("Not run again") and "Bob Lane" not in results[2]  # once, not every time
    journal = store.calls(events[-1].task_id)
    assert [c.status for c in journal] == ["done"] * 3 and journal[1].data["repeat_of"] == journal[0].id
    store.close()


def test_a_question_about_my_files_in_a_few_small_files_reads_them_all(tmp_path):
    """handoff_not_found: "What is our landlord's phone number? It should be somewhere in my files." with two small
    files: Qwen 1.5B read neither, invented landlord_phone_number.txt and searched for it until the budget ran out."""
    goal = "What is our landlord's phone number? It should be somewhere in my files."
    (tmp_path / "contacts.csv").write_text("name,phone\nTom,555\n")
    (tmp_path / "notes.md").write_text("Landlord: Mrs Okafor\n")
    (tmp_path / ".hidden").write_text("x")
    (tmp_path / "photo.png").write_bytes(b"\x89PNG\0\0")  # binary: nothing to read
    assert _names(goal, tmp_path) == [("read_file", "contacts.csv"), ("read_file", "notes.md")]
    assert _names("Put the landlord's number in my files, please.", tmp_path) == []  # a change, not a question
    assert _names("What is the landlord's phone number?", tmp_path) == []  # points at no files
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.txt").write_text("a")
    (tmp_path / "sub" / "b.txt").write_text("b")
    assert _names(goal, tmp_path) == []  # four files: too many to read them all
    (tmp_path / "sub" / "a.txt").unlink()
    (tmp_path / "sub" / "b.txt").write_text("b" * 9000)
    assert _names(goal, tmp_path) == []  # a big one


def test_a_question_about_a_folder_of_a_few_small_files_reads_them_all(tmp_path):
    """A held-out task at 9d3b0f8: "Which contract in the contracts folder ends first, and on what date?" read two of
    its three PDFs and named the wrong contract; at a43d469 it read one, after pdf_info and find_files on each."""
    goal = "Which contract in the contracts folder ends first, and on what date?"
    (tmp_path / "contracts").mkdir()
    for name in ("cleaning.pdf", "internet.pdf", "insurance.pdf"):
        (tmp_path / "contracts" / name).write_bytes(b"%PDF-1.4 small")
    (tmp_path / "other.txt").write_text("not in the folder")
    assert _names(goal, tmp_path) == [("pdf_read", "contracts/cleaning.pdf"), ("pdf_read", "contracts/insurance.pdf"),
                                      ("pdf_read", "contracts/internet.pdf")]
    assert _names("Move the contracts folder into archive.", tmp_path) == []  # a change, not a question
    (tmp_path / "contracts" / "old.pdf").write_bytes(b"%PDF-1.4")
    assert _names(goal, tmp_path) == []  # four files: too many to read them all


def test_a_question_which_file_holds_something_gets_the_grep_for_it(tmp_path):
    """files_find at 0417c73: "... a text file about my passport renewal appointment. Which file is it?" in a
    workspace of eight files; Qwen 1.5B searched names for *.pdf, or read readme.txt only, in two runs of three."""
    for rel in ("readme.txt", "home/garden.txt", "home/insurance.txt", "work/ideas.txt",
                "archive/2024/misc/appt-0412.txt"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("Passport renewal appointment, 12 April.\n" if "appt" in rel else "other\n")
    goal = "Somewhere in this folder there is a text file about my passport renewal appointment. Which file is it?"
    calls = preread_calls(goal, tmp_path, {*READERS, "grep"}.__contains__)
    assert [(c.name, c.arguments) for c in calls] == [
        ("grep", {"pattern": "passport", "path": ".", "ignore_case": True})]
    assert preread_calls(goal, tmp_path, READERS.__contains__) == []  # no grep tool
    assert [c.arguments["pattern"] for c in preread_calls("Which file is about my passport?", tmp_path,
                                                          {*READERS, "grep"}.__contains__)] == ["passport"]
    assert preread_calls("What is my passport number?", tmp_path, {*READERS, "grep"}.__contains__) == []
    # a goal that names its file is read, not searched
    assert _names("Which file is about my passport? Start from readme.txt", tmp_path,
                  {*READERS, "grep"}.__contains__) == [("read_file", "readme.txt")]


def test_a_which_file_task_starts_with_the_grep_done_and_no_step_spent(tmp_path):
    agent, model, ws, store = scripted_agent(tmp_path, ["It is archive/2024/misc/appt-0412.txt."], approve="all")
    for rel in ("readme.txt", "home/garden.txt", "home/insurance.txt", "work/ideas.txt",
                "archive/2024/misc/appt-0412.txt"):
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        (ws / rel).write_text("Passport renewal appointment, 12 April.\n" if "appt" in rel else "other\n")
    events = list(agent.run("Somewhere in this folder there is a text file about my passport renewal appointment. "
                            "Which file is it?", workspace=ws))
    assert isinstance(events[-1], Finished), events[-1]
    journal = store.calls(events[-1].task_id)
    assert [(c.name, c.step, c.status) for c in journal] == [("grep", 0, "done")]
    assert "archive/2024/misc/appt-0412.txt:1:" in journal[0].result
    store.close()


def test_a_question_which_files_of_a_folder_mention_something_gets_the_grep_of_that_folder(tmp_path):
    """A held-out task at a864c41: "Which of the letters in the letters folder mention a refund?" (four PDFs, too
    many to read them all first): Qwen 1.5B searched names, read one letter of the two that mention it, and
    finished. grep reads the text of PDFs, so the folder is searched for the word before the first turn."""
    (tmp_path / "letters").mkdir()
    for name in ("shop.pdf", "bank.pdf", "airline.pdf", "city.pdf"):
        (tmp_path / "letters" / name).write_bytes(b"%PDF-1.4 small")
    tools = {*READERS, "grep"}.__contains__
    goal = "Which of the letters in the letters folder mention a refund?"
    assert [(c.name, c.arguments) for c in preread_calls(goal, tmp_path, tools)] == [
        ("grep", {"pattern": "refund", "path": "letters", "ignore_case": True})]
    assert [c.arguments["pattern"] for c in preread_calls("Do any files in the letters folder contain the word "
                                                          "'voucher'?", tmp_path, tools)] == ["voucher"]
    assert preread_calls("Which of the letters in the letters folder is the oldest?", tmp_path, tools) == []


def test_a_folder_named_bare_after_in_is_searched_for_what_the_file_mentions(tmp_path):
    """A held-out task at fb3135d: "Which file in docs mentions the warranty?" was started with a grep of the whole
    workspace for "docs" (the folder's name, the first word of the goal not a common one), and ran out of steps."""
    (tmp_path / "docs").mkdir()
    for name in ("fridge.docx", "lamp.docx", "tv.docx", "radio.docx"):
        (tmp_path / "docs" / name).write_bytes(b"PK small")
    tools = {*READERS, "grep"}.__contains__
    assert [(c.name, c.arguments) for c in preread_calls("Which file in docs mentions the warranty?", tmp_path,
                                                         tools)] == [
        ("grep", {"pattern": "warranty", "path": "docs", "ignore_case": True})]
    # with no folder of that name, the whole workspace, still for the word mentioned
    assert [c.arguments for c in preread_calls("Which file in manuals mentions the warranty?", tmp_path, tools)] == [
        {"pattern": "warranty", "path": ".", "ignore_case": True}]


def test_the_harness_note_of_a_read_shown_again_is_given_once(tmp_path):
    """A held-out task (RJ) at 624b529: "How many words are in essay.txt?" asked for the harness's read again at
    step 1; the text shown again held the count's note, and the note was put after it a second time."""
    agent, model, ws, store = scripted_agent(tmp_path, [
        call("read_file", path="essay.txt"), "essay.txt has 17 words."], approve="all")
    (ws / "essay.txt").write_text("The quick brown fox jumps over the lazy dog.\nIt was a sunny day in the park.\n")
    events = list(agent.run("How many words are in essay.txt?", workspace=ws))
    store.close()
    results = [e.result for e in events if isinstance(e, ToolCallFinished)]
    note = 'Note: the harness counted; the answer to copy: "essay.txt has 17 words."'
    assert results[0].endswith(note) and results[1].startswith("The harness read this for you"), results
    assert results[1].count(note) == 1, results[1]
