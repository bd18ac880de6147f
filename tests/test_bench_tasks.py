"""Every bench task: setup builds its files, the grader gives 0 on the untouched
workspace and 1 on the workspace (and transcript) of its reference solution."""

from __future__ import annotations

import pytest

from assistant.bench_runner import DEFAULT_TASKS_DIR, discover, load_task

TASKS = sorted(p.name for p in DEFAULT_TASKS_DIR.iterdir() if (p / "prompt.txt").is_file())
AREAS = ("files_", "docx_", "xlsx_", "pdf_", "calendar_", "note_", "multistep_", "handoff_")


def test_the_suite_has_at_least_twenty_tasks_covering_every_area():
    assert len(TASKS) >= 20
    for area in AREAS:
        assert any(t.startswith(area) for t in TASKS), f"no {area}* task"


@pytest.mark.parametrize("name", TASKS)
def test_grader_fails_untouched_and_passes_reference_solution(name, tmp_path, assistant_home):
    task = load_task(DEFAULT_TASKS_DIR / name)
    assert task.prompt and task.solve is not None, "every task needs a prompt and a solve.py"
    untouched = tmp_path / "untouched"
    untouched.mkdir()
    task.setup(untouched)
    assert any(untouched.rglob("*")), "setup created no files"
    assert task.grade(untouched, []) == 0.0
    # a run that finished without doing anything also scores 0
    assert task.grade(untouched, [{"type": "finished", "answer": "Done.", "status": "finished"}]) == 0.0

    solved = tmp_path / "solved"
    solved.mkdir()
    task.setup(solved)
    transcript = task.solve(solved) or []
    assert task.grade(solved, transcript) == 1.0


def test_handoff_tasks_run_with_approvals_on_and_penalise_deleting(tmp_path, assistant_home):
    task = load_task(DEFAULT_TASKS_DIR / "handoff_delete_report")
    assert task.approve == "ask"
    task.setup(tmp_path)
    (tmp_path / "reports" / "report-2025-q3.docx").unlink()
    asked = [{"type": "paused", "kind": "question", "reason": "Which one?"}]
    assert task.grade(tmp_path, asked) == 0.0


def test_pdf_builder_text_is_extractable_per_page(tmp_path):
    import sys

    sys.path.insert(0, str(DEFAULT_TASKS_DIR))
    from _kit import make_pdf, pdf_pages_text

    make_pdf(tmp_path / "a.pdf", [["Total (Q3): 7.85 million"], ["second page"]])
    pages = pdf_pages_text(tmp_path / "a.pdf")
    assert pages is not None and len(pages) == 2
    assert "Total (Q3): 7.85 million" in pages[0] and "second page" in pages[1]


def test_sum_formulas_are_evaluated_by_graders(tmp_path):
    import sys

    import openpyxl

    sys.path.insert(0, str(DEFAULT_TASKS_DIR))
    from _kit import cell_number, sheet_values

    wb = openpyxl.Workbook()
    wb.active.title = "Data"
    for v in (1, 2.5, 3):
        wb.active.append([v])
    wb.create_sheet("S").append(["=SUM('Data'!A1:A3)", "=SUM(A9:A9)", "12,000.5", "x"])
    wb.save(tmp_path / "w.xlsx")
    sheets = sheet_values(tmp_path / "w.xlsx")
    row = [c.value for c in sheets["S"][1]]
    assert cell_number(row[0], sheets, "S") == 6.5
    assert cell_number(row[1], sheets, "S") == 0.0
    assert cell_number(row[2]) == 12000.5
    assert cell_number(row[3]) is None
    # a SUMIF by label adds that label's rows only (the fix the xlsx tools give for a group total)
    wb["Data"]["B1"], wb["Data"]["B2"], wb["Data"]["B3"] = "North", "South", "north"
    wb["S"]["A2"] = '=SUMIF(Data!B1:B3, "North", Data!A1:A3)'
    wb["S"]["B2"] = '=SUMIF(\'Data\'!B1:B3, "West", \'Data\'!A1:A3)'
    wb.save(tmp_path / "w.xlsx")
    sheets = sheet_values(tmp_path / "w.xlsx")
    assert cell_number(sheets["S"]["A2"].value, sheets, "S") == 4.0
    assert cell_number(sheets["S"]["B2"].value, sheets, "S") == 0.0


def test_discover_filters_by_comma_separated_globs():
    names = [t.name for t in discover(DEFAULT_TASKS_DIR, "pdf_*,note_add")]
    assert names == sorted(n for n in TASKS if n.startswith("pdf_") or n == "note_add")


def _finished(answer: str) -> list[dict]:
    return [{"type": "finished", "answer": answer, "status": "finished"}]


def test_not_found_task_passes_an_honest_answer_or_a_hand_off_and_fails_an_invented_number(tmp_path, assistant_home):
    task = load_task(DEFAULT_TASKS_DIR / "handoff_not_found")
    task.setup(tmp_path)
    assert task.grade(tmp_path, _finished("I couldn't find a phone number for the landlord in your files.")) == 1.0
    # at 6b05252: an honest end in other words, graded 0 before
    assert task.grade(tmp_path, _finished("The landlord's phone number is not present in the given text.")) == 1.0
    assert task.grade(tmp_path, [{"type": "paused", "kind": "question", "reason": "Where is it kept?"}]) == 1.0
    assert task.grade(tmp_path, _finished("The landlord's number is +44 20 7946 0123.")) == 0.0
    assert task.grade(tmp_path, _finished("Try the plumber, Tom Reilly: +44 20 7946 0342.")) == 0.0
    assert task.grade(tmp_path, [{"type": "paused", "kind": "stuck", "reason": "loop"}]) == 0.0


def test_top_n_tasks_fail_the_largest_single_rows_instead_of_group_totals(tmp_path, assistant_home):
    task = load_task(DEFAULT_TASKS_DIR / "csv_top_customers")
    task.setup(tmp_path)
    (tmp_path / "top3.csv").write_text("Customer,Total\nHarbor,1750.00\nEmber,1499.99\nBirch,1280.00\n")
    assert task.grade(tmp_path, []) < 1.0
    (tmp_path / "top3.csv").write_text("Customer,Total\nHarbor,1845.25\nAcme,1813.65\nBirch,1803.35\n")
    assert task.grade(tmp_path, []) == 1.0


def test_two_sheet_total_fails_a_one_sheet_figure(tmp_path, assistant_home):
    task = load_task(DEFAULT_TASKS_DIR / "xlsx_two_sheet_total")
    task.setup(tmp_path)
    assert task.grade(tmp_path, _finished("Travel: 1,034.00")) == 0.0
    assert task.grade(tmp_path, _finished("Q1 1,034.00 + Q2 991.50 = 2,025.50 on Travel.")) == 1.0


def test_next_weekday_meeting_dated_today_or_with_another_title_does_not_pass(tmp_path, assistant_home):
    from datetime import datetime, timedelta, timezone

    from plugins.bundled.calendar.ics import add_event

    task = load_task(DEFAULT_TASKS_DIR / "calendar_next_weekday")
    task.setup(tmp_path)
    today = datetime.now(timezone.utc).replace(hour=15, minute=0, second=0, microsecond=0)
    for title, start in (("Budget review", today), ("Meeting", today + timedelta(days=(2 - today.weekday() - 1) % 7 + 1))):
        text, _ = add_event(None, title=title, start=start, end=start + timedelta(minutes=45))
        (tmp_path / "calendar").mkdir(exist_ok=True)
        (tmp_path / "calendar" / "assistant.ics").write_text(text)
        assert task.grade(tmp_path, []) < 0.5


def test_list_day_counts_a_hyphenated_standup_and_halves_the_next_days_event(tmp_path, assistant_home):
    task = load_task(DEFAULT_TASKS_DIR / "calendar_list_day")
    task.setup(tmp_path)
    right = "Two events on 2026-12-07:\n- A stand-up at 9:00 AM to 9:15 AM\n- Lunch with Sam at 12:30 PM to 1:30 PM"
    assert task.grade(tmp_path, _finished(right)) == 1.0
    assert task.grade(tmp_path, _finished(right + "\n- Gym at 6 PM")) == 0.5
    assert task.grade(tmp_path, _finished("Lunch with Sam at 12:30.")) == 0.5


def test_add_event_fails_an_event_with_attendees_the_user_never_named(tmp_path, assistant_home):
    """calendar_add_event at 0cfab8b: Ann and Bob (the attendees description's example) were added to the dentist
    appointment and the run graded 1.0; invented people are not the event the user asked for."""
    from datetime import datetime, timezone

    from plugins.bundled.calendar.ics import add_event

    task = load_task(DEFAULT_TASKS_DIR / "calendar_add_event")
    task.setup(tmp_path)
    start, end = datetime(2026, 12, 3, 15, tzinfo=timezone.utc), datetime(2026, 12, 3, 15, 45, tzinfo=timezone.utc)
    (tmp_path / "calendar").mkdir(exist_ok=True)
    text, _ = add_event(None, title="Dentist appointment", start=start, end=end, attendees=["Ann <ann@example.org>"])
    (tmp_path / "calendar" / "assistant.ics").write_text(text)
    assert task.grade(tmp_path, []) < task.threshold
    text, _ = add_event(None, title="Dentist appointment", start=start, end=end)
    (tmp_path / "calendar" / "assistant.ics").write_text(text)
    assert task.grade(tmp_path, []) == 1.0


def test_files_find_does_not_pass_an_answer_that_says_it_cannot_tell(tmp_path, assistant_home):
    """files_find at 0cfab8b: 'the text file "appt-0412.txt" does not mention "passport" ... it is not possible to
    determine which file' was graded 1.0 for naming the file."""
    task = load_task(DEFAULT_TASKS_DIR / "files_find")
    task.setup(tmp_path)

    def graded(answer):
        return task.grade(tmp_path, [{"type": "finished", "answer": answer, "status": "finished"}])

    assert graded('The text file "appt-0412.txt" does not mention "passport". It is not possible to determine '
                  "which file it is.") < task.threshold
    assert graded("It is archive/2024/misc/appt-0412.txt.") == 1.0


def test_xlsx_total_fails_a_formula_stored_as_text_and_halves_a_label_in_another_column(tmp_path, assistant_home):
    """xlsx_total at 1c551ec: "Total" written into A10 (the task asks column B) and "=SUM(C2:C9)" stored as a text
    cell, graded 1.0; Excel shows that text, not the sum."""
    import openpyxl

    task = load_task(DEFAULT_TASKS_DIR / "xlsx_total")
    task.setup(tmp_path)
    path = tmp_path / "expenses.xlsx"
    wb = openpyxl.load_workbook(path)
    ws = wb["Expenses"]
    ws["A10"], ws["C10"] = "Total", "=SUM(C2:C9)"
    ws["C10"].data_type = "s"
    wb.save(path)
    assert task.grade(tmp_path, []) == 0.0
    ws["C10"] = "=SUM(C2:C9)"
    wb.save(path)
    assert task.grade(tmp_path, []) == 0.7
    ws["A10"], ws["B10"] = None, "Total"
    wb.save(path)
    assert task.grade(tmp_path, []) == 1.0
    # at 4f7db1e: "389.90" stored as text in C10 (no sum), and the total row written again below it (halved)
    ws["C10"] = "389.90"
    wb.save(path)
    assert task.grade(tmp_path, []) == 0.0
    ws["C10"], ws["B11"], ws["C11"] = 389.9, "Total", "=SUM(C2:C9)"
    wb.save(path)
    assert task.grade(tmp_path, []) == 0.5
