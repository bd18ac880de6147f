"""The first free stretch of a day in a schedule file (free_slot.py)."""

from assistant.loop.finish import Evidence, finish_problems
from assistant.loop.free_slot import first_free_slot, free_slot_wrong

SCHEDULE = ("date,meeting,start,end\n2026-12-10,Standup,09:00,09:30\n2026-12-10,Planning,09:30,10:30\n"
            "2026-12-10,Client call,11:00,12:00\n2026-12-10,Lunch,12:00,12:45\n2026-12-10,Review,13:15,14:00\n"
            "2026-12-10,Vendor call,15:10,16:00\n2026-12-11,Standup,09:00,09:30\n2026-12-11,Board prep,14:00,15:30\n")
GOAL = "When is my first free hour between 9:00 and 17:00 on 10 December, going by schedule.csv?"


def test_the_first_gap_long_enough_is_found(tmp_path):
    (tmp_path / "schedule.csv").write_text(SCHEDULE)
    found = first_free_slot(GOAL, tmp_path)
    assert (found.day, found.start, found.end, found.minutes) == ("2026-12-10", "14:00", "15:10", 60)
    half = first_free_slot("What is my first free 30 minutes between 9:00 and 17:00 on 10 December in schedule.csv?",
                           tmp_path)
    assert (half.start, half.end) == ("10:30", "11:00")
    # 11 December: the morning after the standup
    assert first_free_slot(GOAL.replace("10 December", "11 December"), tmp_path).start == "09:30"
    # a day with no gap of an hour between 9:00 and 11:00
    none = first_free_slot(GOAL.replace("17:00", "11:00"), tmp_path)
    assert none is not None and none.start is None
    assert first_free_slot("When is my first free hour on 10 December in schedule.csv?", tmp_path) is None


def test_a_wrong_gap_is_doubted_with_the_answer_to_copy(tmp_path):
    """Batch JZ at 02d32bb (JZI): "from 10:30 to 12:45" answered (a client call at 11:00), done."""
    (tmp_path / "schedule.csv").write_text(SCHEDULE)
    doubt = free_slot_wrong(GOAL, "The first free hour on December 10 is from 10:30 to 12:45.", tmp_path)
    assert 'answer to copy: "Your first free hour on 2026-12-10 starts at 14:00 (free until 15:10)."' in doubt
    assert free_slot_wrong(GOAL, "From 14:00 to 15:00.", tmp_path) == ""
    assert free_slot_wrong(GOAL, "At 2pm.", tmp_path) == ""
    ev = Evidence(goal=GOAL, workspace=tmp_path, calls=[], touched=(), tool_names=["read_file", "finish"])
    assert any("starts at 14:00" in p for p in finish_problems("From 10:30 to 12:45.", ev))
