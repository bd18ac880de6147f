"""Meetings of a schedule file that overlap (assistant/loop/overlaps.py)."""

from __future__ import annotations

from assistant.loop.finish import Evidence, finish_problems
from assistant.loop.overlaps import overlapping, overlaps_wrong

SCHEDULE = ("date,start,end,title\n2026-12-10,09:00,09:30,Standup\n2026-12-10,10:00,11:30,Budget review\n"
            "2026-12-10,11:00,12:00,Client call\n2026-12-10,12:00,13:00,Lunch\n2026-12-11,10:30,11:00,Dentist\n")
GOAL = "Which two meetings in schedule.csv overlap?"


def test_every_pair_that_overlaps_on_the_same_day_is_found(tmp_path):
    (tmp_path / "schedule.csv").write_text(SCHEDULE)
    found = overlapping(GOAL, tmp_path)
    # Client call ends at 12:00 as Lunch starts: back to back is no overlap; the Dentist is on another day
    assert found.pairs == [("Budget review", "Client call")]
    assert found.answer == "These two meetings overlap: Budget review and Client call."
    assert overlapping("Sort schedule.csv by start.", tmp_path) is None  # a change
    assert overlapping("Which meeting in schedule.csv is the longest?", tmp_path) is None


def test_an_answer_that_leaves_a_meeting_out_or_denies_the_overlap_is_doubted(tmp_path):
    """Batch IZ at 2081e47 (IZE): the model asked the user for the times, which were in the file."""
    (tmp_path / "schedule.csv").write_text(SCHEDULE)
    doubt = overlaps_wrong(GOAL, "Client call and Lunch overlap.", tmp_path)
    assert "leaves out 'Budget review'" in doubt
    assert 'answer to copy: "These two meetings overlap: Budget review and Client call."' in doubt
    assert "says none overlap" in overlaps_wrong(GOAL, "No meetings overlap.", tmp_path)
    assert overlaps_wrong(GOAL, "Budget review (10:00-11:30) and Client call (11:00-12:00).", tmp_path) == ""
    ev = Evidence(goal=GOAL, workspace=tmp_path, calls=[], tool_names=["read_file", "finish"])
    assert any("leaves out 'Budget review'" in p for p in finish_problems("Client call and Lunch overlap.", ev))


def test_a_schedule_without_overlaps_is_said_so(tmp_path):
    (tmp_path / "schedule.csv").write_text("start,end,meeting\n9:00,10:00,A\n10:00,11:00,B\n")
    found = overlapping("Do any meetings in schedule.csv clash?", tmp_path)
    assert found.pairs == [] and found.answer == "No two meetings in schedule.csv overlap."
    assert "names an overlap" in overlaps_wrong("Do any meetings in schedule.csv clash?", "A and B overlap.", tmp_path)
    assert overlaps_wrong("Do any meetings in schedule.csv clash?", "No, none of them clash.", tmp_path) == ""
    # a row whose times cannot be read: not the harness's to judge
    (tmp_path / "schedule.csv").write_text("start,end,meeting\n9:00,10:00,A\nsoon,11:00,B\n")
    assert overlapping("Do any meetings in schedule.csv clash?", tmp_path) is None
