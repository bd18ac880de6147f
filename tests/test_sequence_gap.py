"""Numbers missing from a run of codes (assistant/loop/sequence_gap.py)."""

from __future__ import annotations

from assistant.loop.finish import Evidence, finish_problems
from assistant.loop.sequence_gap import gaps_asked, gaps_wrong

RECEIPTS = ("receipt,date,customer,amount\nR-103,2026-11-02,Alba,20\nR-101,2026-11-01,Brio,15\n"
            "R-106,2026-11-05,Alba,12\nR-102,2026-11-01,Corvo,9\nR-104,2026-11-03,Brio,30\nR-108,2026-11-07,Dana,5\n")
GOAL = ("The receipt numbers in receipts.csv should run from R-101 to R-108 without gaps. Which receipt number is "
        "missing?")


def test_the_numbers_of_the_run_no_code_has_are_found(tmp_path):
    (tmp_path / "receipts.csv").write_text(RECEIPTS)
    found = gaps_asked(GOAL, tmp_path)
    assert found.missing == ["R-105", "R-107"] and (found.first, found.last) == ("R-101", "R-108")
    (tmp_path / "cheques.txt").write_text("cheque 0041 paid\ncheque 0043 paid\ncheque 0042 void\n")
    assert gaps_asked("Which cheque numbers from 0040 to 0043 are missing in cheques.txt?", tmp_path).missing == [
        "0040"]
    assert gaps_asked("Which receipt in receipts.csv is the largest?", tmp_path) is None


def test_an_answer_naming_a_code_that_is_there_is_doubted(tmp_path):
    """Batch KZ at 6a1c8bc (KZD): R-109 answered (it is there); R-107 was missing."""
    (tmp_path / "receipts.csv").write_text(RECEIPTS)
    doubt = gaps_wrong(GOAL, "R-106 is missing.", tmp_path)
    assert 'answer to copy: "R-105 and R-107 are missing."' in doubt
    assert "are missing" in gaps_wrong(GOAL, "R-105 is missing.", tmp_path)  # one left out
    assert gaps_wrong(GOAL, "From R-101 to R-108, R-105 and R-107 are missing.", tmp_path) == ""
    ev = Evidence(goal=GOAL, workspace=tmp_path, calls=[], tool_names=["read_file", "finish"])
    assert any("compared them with the run" in p for p in finish_problems("R-106 is missing.", ev))
