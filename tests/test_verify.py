"""A final answer that claims a file it never wrote is not accepted."""

from __future__ import annotations

from agent_helpers import scripted_agent
from assistant.events import Finished
from assistant.loop.verify import unbacked_file_claims


def test_claims_checked_against_the_workspace(tmp_path):
    (tmp_path / "done.txt").write_text("x")
    assert unbacked_file_claims("The totals are written to totals.txt.", tmp_path) == ["totals.txt"]
    assert unbacked_file_claims("I saved reports/q3.xlsx and done.txt", tmp_path) == ["reports/q3.xlsx"]
    assert unbacked_file_claims("I wrote done.txt.", tmp_path) == []
    assert unbacked_file_claims("You could write totals.txt yourself? No: the file notes.md lists it.", tmp_path) \
        == ["totals.txt", "notes.md"]
    assert unbacked_file_claims("The report mentions budget.xlsx.", tmp_path) == []  # no claim of writing
    assert unbacked_file_claims("Created /etc/hosts.txt and https://x.org/a.pdf", tmp_path) == []
    (tmp_path / "inbox" / "pdf").mkdir(parents=True)  # files_organise: "Moved scan.pdf to inbox/pdf/scan.pdf"
    (tmp_path / "inbox" / "pdf" / "scan.pdf").write_text("x")
    assert unbacked_file_claims("Moved scan.pdf to inbox/pdf/scan.pdf.", tmp_path) == []
    assert unbacked_file_claims("Moved scan.pdf to inbox/scan.pdf.", tmp_path) == ["inbox/scan.pdf"]
    # xlsx_group_sums at 4f7db1e: "I added a sheet ... to the Sales.xlsx file" for sales.xlsx, refused four times
    (tmp_path / "sales.xlsx").write_text("x")
    assert unbacked_file_claims("I added a sheet to the Sales.xlsx file and saved Inbox/PDF/Scan.pdf.", tmp_path) == []
    assert unbacked_file_claims("I saved Inbox/Scan.pdf.", tmp_path) == ["Inbox/Scan.pdf"]
    # a held-out task at 6ad68a4: the old name of a rename is gone, and named as the source
    (tmp_path / "report-2026.txt").write_text("x")
    assert unbacked_file_claims("Renamed report.txt to report-2026.txt.", tmp_path) == []
    assert unbacked_file_claims("I renamed report.txt to report-2027.txt.", tmp_path) == ["report-2027.txt"]
    assert unbacked_file_claims("I wrote report.txt to the folder.", tmp_path) == ["report.txt"]
    # a held-out task (QH) at 5034895: "old_draft.txt deleted, moved to the trash" was told old_draft.txt was never
    # written; the model wrote it again and deleted it again
    assert unbacked_file_claims("old_draft.txt deleted, moved to the trash; undo can restore it.", tmp_path) == []
    assert unbacked_file_claims("The file old_draft.txt has been deleted.", tmp_path) == []
    assert unbacked_file_claims("Deleted a.txt and created b.txt.", tmp_path) == ["b.txt"]
    assert unbacked_file_claims("I wrote summary.md. The draft was removed.", tmp_path) == ["summary.md"]


def test_false_claim_is_a_format_error_then_the_real_write_finishes(assistant_home, tmp_path):
    write = ('<tool_call>\n<function=write_file>\n<parameter=path>\ntotals.txt\n</parameter>\n'
             '<parameter=content>\nSales 125\n</parameter>\n</function>\n</tool_call>')
    agent, _, ws, store = scripted_agent(
        tmp_path, ["The totals are written to totals.txt.", write, "I wrote totals.txt."], approve="all")
    events = list(agent.run("write totals.txt", workspace=ws))
    assert isinstance(events[-1], Finished) and events[-1].answer == "I wrote totals.txt."
    assert (ws / "totals.txt").read_text().strip() == "Sales 125"
    notes = [m.content for m in store.messages(events[-1].task_id) if m.kind == "format_error" and m.role == "user"]
    assert len(notes) == 1 and "totals.txt" in notes[0] and "does not exist" in notes[0]
    store.close()


def test_a_plan_is_not_an_answer():
    from assistant.loop.verify import announces_work

    assert announces_work("I will follow these steps:\n1. Read spend.csv\n2. Write totals.txt")
    assert announces_work("Sure. Let me check the folder first.")
    assert not announces_work("I read spend.csv and wrote totals.txt.\n\nSales: 125, Ops: 50.")
    assert not announces_work("The deadline is 12 March 2026 (page 3).")
    # csv_top_customers at 9c2437c: a report, then a sentence that plans nothing; refused twice as a plan
    assert not announces_work("I did the following:\n1. Used csv_write to save the rows to top3.csv.\n\nThe result is "
                              "in top3.csv.\n\nI will now proceed to the next step of the task.")
    assert announces_work("I will now proceed to the next step of the task.")  # nothing else: still no answer
    # csv_top_customers at 04fe9b0: a report of steps done, then an offer; refused twice as a plan
    assert not announces_work("I did the following steps:\n1. I read orders.csv.\n2. I wrote the top 3 customers to "
                              "top3.csv.\n\nIf you need any further assistance, please let me know!")


def test_plan_turn_is_fed_back_and_the_task_goes_on(assistant_home, tmp_path):
    read = '<tool_call>\n<function=read_file>\n<parameter=path>\na.txt\n</parameter>\n</function>\n</tool_call>'
    agent, _, ws, store = scripted_agent(
        tmp_path, ["I will read a.txt and then report its content.", read, "a.txt says alpha."])
    (ws / "a.txt").write_text("alpha")
    events = list(agent.run("what does a.txt say?", workspace=ws))
    assert isinstance(events[-1], Finished) and events[-1].answer == "a.txt says alpha."
    notes = [m.content for m in store.messages(events[-1].task_id) if m.kind == "format_error" and m.role == "user"]
    assert len(notes) == 1 and "called no tool" in notes[0]
    store.close()


def test_a_cut_off_or_fake_tool_response_turn_is_not_the_answer(assistant_home, tmp_path):
    rambling = "The file says " + "and then it says " * 400  # longer than max_turn_tokens
    agent, model, ws, store = scripted_agent(
        tmp_path, [rambling, "<tool_response>\nThe task is done.", "Nothing to do."], max_turn_tokens=256,
        plan=False)  # no plan turn: the forced-turn sequence below is the recovery's alone
    events = list(agent.run("say hi", workspace=ws))
    assert isinstance(events[-1], Finished) and events[-1].answer == "Nothing to do."
    notes = [m.content for m in store.messages(events[-1].task_id) if m.kind == "format_error" and m.role == "user"]
    assert "cut off" in notes[0] and "<tool_response>" in notes[1]
    assert [f for f, _ in model.calls] == [None, "tool_call_or_final", "tool_call_or_final"]
    store.close()


def test_an_answer_after_an_ill_line_is_an_answer():
    from assistant.loop.verify import announces_work

    measured = ("To find the audit deadline in the report.docx, I'll extract the relevant information from the "
                "text:\n```\n[p3] The deadline for the audit is 14 March 2027.\n```\nThe audit deadline is 14 March 2027.")
    assert not announces_work(measured)  # Qwen2.5-Coder-1.5B's real answer, wrongly flagged before
    assert announces_work("I'll follow these steps:\n- read a.csv\n- sum the amounts")


def test_a_report_ending_in_a_sentence_that_plans_nothing_is_the_answer_without_it(assistant_home, tmp_path):
    """csv_top_customers at 9c2437c: top3.csv written, then "I did the following: ... I will now proceed to the next
    step of the task." refused twice as a plan; the model then overwrote top3.csv with the query's table."""
    write = ('<tool_call>\n<function=write_file>\n<parameter=path>\ntop.txt\n</parameter>\n<parameter=content>\n'
             'Harbor\n</parameter>\n</function>\n</tool_call>')
    agent, _, ws, store = scripted_agent(tmp_path, [
        write, "I did the following:\n1. Wrote Harbor to top.txt.\n\nI will now proceed to the next step of the task."])
    events = list(agent.run("Write the name Harbor into top.txt", workspace=ws))
    assert isinstance(events[-1], Finished), events[-1]
    assert events[-1].answer == "I did the following:\n1. Wrote Harbor to top.txt.", events[-1].answer
    store.close()
