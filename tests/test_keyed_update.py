"""One CSV table updated from another by key (assistant/loop/keyed_update.py)."""

from __future__ import annotations

import json

import pytest

from assistant.events import Finished, Notice, ToolCallFinished
from assistant.loop.evidence import asks_only_a_question
from assistant.loop.finish import Evidence, finish_problems
from assistant.loop.keyed_update import keyed_update_asked, keyed_update_not_written, keyed_updated
from tools.files import FILE_TOOLS
from agent_helpers import call, scripted_agent

PRICES = "product,price,unit\nApples,2.40,kg\nBread,3.10,loaf\nMilk,1.15,l\nEggs,2.99,box\nRice,1.80,kg\n"
CHANGES = "product,price\nBread,3.30\nEggs,3.19\n"
UPDATED = "product,price,unit\nApples,2.40,kg\nBread,3.30,loaf\nMilk,1.15,l\nEggs,3.19,box\nRice,1.80,kg\n"


@pytest.mark.parametrize("goal, asked", [
    ("Update prices.csv with the new prices from price_changes.csv.", ("prices.csv", "price_changes.csv")),
    ("Update the prices in prices.csv using price_changes.csv.", ("prices.csv", "price_changes.csv")),
    ("Apply the changes in price_changes.csv to prices.csv.", ("prices.csv", "price_changes.csv")),
    ("Use price_changes.csv to update prices.csv.", ("prices.csv", "price_changes.csv")),
    ("Update prices.csv from price_changes.csv and save it as new.csv.", None),  # another file written
    ("Which prices in prices.csv differ from old.csv?", None),
    ("Update prices.csv.", None),  # one file
])
def test_which_file_is_updated_from_which(goal, asked):
    assert keyed_update_asked(goal) == asked


def test_an_apply_goal_asks_a_change():
    from assistant.loop.evidence import _MUST_CHANGE

    assert _MUST_CHANGE.search("Apply the changes in price_changes.csv to prices.csv.")
    assert not asks_only_a_question("Apply the changes in price_changes.csv to prices.csv.")
    assert not _MUST_CHANGE.search("Which rules apply to the prices in prices.csv?")


def test_the_rows_are_matched_by_the_key_both_tables_have():
    found = keyed_updated(PRICES, CHANGES)
    assert found.text == UPDATED and found.key == "product" and found.changed == ("Bread", "Eggs")
    assert found.columns == ("price",)
    # a "new_price" column updates "price"; keys matched aside from case and spaces; 3.1 is 3.10 (no change)
    found = keyed_updated(PRICES, "Product,new_price\n bread ,3.1\neggs,3.19\n")
    assert found.changed == ("Eggs",) and "Bread,3.10,loaf" in found.text and "Eggs,3.19,box" in found.text


@pytest.mark.parametrize("changes", [
    "product,price\nBread,3.30\nCheese,5.00\n",  # a key the target does not have: add it or not? not the harness's
    "product,price\nBread,3.30\nBread,3.40\n",  # a key twice
    "item,cost\nBread,3.30\n",  # no shared key
    "product,price\nBread,3.10\n",  # nothing changes
])
def test_an_update_it_cannot_be_sure_of_is_left_alone(changes):
    assert keyed_updated(PRICES, changes) is None


def test_the_finish_doubts_a_target_left_as_it_was(tmp_path):
    """Batch JZ at 02d32bb (JZD): the two files combined into a new updated_prices.csv, prices.csv left as it was."""
    (tmp_path / "prices.csv").write_text(PRICES)
    (tmp_path / "price_changes.csv").write_text(CHANGES)
    (tmp_path / "updated_prices.csv").write_text(PRICES + CHANGES)
    goal = "Update prices.csv with the new prices from price_changes.csv."
    ev = Evidence(goal=goal, workspace=tmp_path, calls=[], touched=("updated_prices.csv",),
                  tool_names=["read_file", "write_file", "finish"])
    doubt = keyed_update_not_written(ev)
    assert doubt.startswith("the task asks prices.csv updated from price_changes.csv, and prices.csv does not hold")
    assert json.dumps({"path": "prices.csv", "content": UPDATED}) in doubt
    assert any(p == doubt for p in finish_problems("Done: updated_prices.csv holds the new prices.", ev))
    (tmp_path / "prices.csv").write_text(UPDATED.replace("3.30", "3.3"))
    assert keyed_update_not_written(ev) == ""


def test_the_read_offers_the_update_and_the_finish_checks_it(assistant_home, tmp_path):
    goal = "Update prices.csv with the new prices from price_changes.csv."
    run = scripted_agent(tmp_path, [
        call("read_file", path="price_changes.csv"),
        call("write_file", path="updated_prices.csv", content=PRICES + CHANGES), "Done: the prices are updated.",
        call("write_file", path="prices.csv", content=UPDATED), "prices.csv now has the new prices of Bread and Eggs."],
        FILE_TOOLS, approve="all", preread=False)
    (run.ws / "prices.csv").write_text(PRICES)
    (run.ws / "price_changes.csv").write_text(CHANGES)
    events = list(run.agent.run(goal, workspace=run.ws))
    run.store.close()
    results = [e.result for e in events if isinstance(e, ToolCallFinished)]
    args = json.dumps({"path": "prices.csv", "content": UPDATED})
    assert results[0].endswith("Hint: prices.csv updated from price_changes.csv, rows matched by product (Bread, "
                               f"Eggs change), to write: call write_file with {args}"), results[0]
    doubt = next(e.text for e in events if isinstance(e, Notice) and e.text.startswith("Finish check"))
    assert "the task asks prices.csv updated from price_changes.csv" in doubt
    assert isinstance(events[-1], Finished) and (run.ws / "prices.csv").read_text() == UPDATED
