"""The rows two versions of a table differ in (assistant/loop/changed_rows.py)."""

from __future__ import annotations

from assistant.loop.changed_rows import changed_rows, changed_rows_wrong
from assistant.loop.evidence import Evidence
from assistant.loop.finish import finish_problems

GOAL = "Which products have a different price in prices_new.csv than in prices_old.csv?"


def _files(tmp_path):
    (tmp_path / "prices_old.csv").write_text("product,price\nApples,2.40\nBread,3.10\nCheese,6.50\nMilk,1.20\n")
    (tmp_path / "prices_new.csv").write_text("product,price\nApples,2.4\nBread,3.30\nCheese,6.50\nMilk,1.35\n"
                                             "Eggs,2.99\n")


def test_the_rows_that_differ_are_found_by_comparing_every_cell(tmp_path):
    _files(tmp_path)
    found = changed_rows(GOAL, tmp_path)
    assert found.keys == ["Bread", "Milk", "Eggs"]
    assert found.others == ["Apples", "Cheese"]  # 2.4 is 2.40
    assert found.answer == ("They differ in Bread (price 3.30 in prices_new.csv, 3.10 in prices_old.csv), Milk "
                            "(price 1.35 in prices_new.csv, 1.20 in prices_old.csv), Eggs (only in prices_new.csv).")
    assert changed_rows("Total the prices in prices_new.csv and prices_old.csv.", tmp_path) is None  # no comparison
    (tmp_path / "other.csv").write_text("item,cost\nApples,2\n")
    assert changed_rows("What changed between other.csv and prices_old.csv?", tmp_path) is None  # other columns


def test_an_answer_that_leaves_out_a_changed_row_is_doubted_with_the_answer_to_copy(tmp_path):
    """Batch HZ at 4bb2504 (HZB): "The prices in both files are the same." after both files were read."""
    _files(tmp_path)
    doubt = changed_rows_wrong(GOAL, "The prices in both files are the same.", tmp_path)
    assert doubt.startswith("the task asks what differs between prices_new.csv and prices_old.csv, and the answer "
                            "leaves out 'Bread', 'Milk', 'Eggs'; the harness compared every row of the two files, "
                            'the answer to copy: "They differ in Bread'), doubt
    assert "names 'Apples'" in changed_rows_wrong(GOAL, "Apples, Bread, Milk and Eggs.", tmp_path)
    right = "Bread (3.10 to 3.30) and Milk (1.20 to 1.35) changed, and Eggs is new; Apples and Cheese are unchanged."
    assert changed_rows_wrong(GOAL, right, tmp_path) == ""
    ev = Evidence(goal=GOAL, workspace=tmp_path, calls=[], tool_names=["read_file", "finish"])
    assert any(p.startswith("the task asks what differs") for p in finish_problems("Only Bread.", ev))
