"""Counting the items of a list kept in one cell (assistant/loop/list_cells.py)."""

from __future__ import annotations

from assistant.events import Finished, Notice
from assistant.loop.list_cells import list_count_asked, list_count_wrong
from tools.files import FILE_TOOLS
from tools.tables import TABLE_TOOLS
from agent_helpers import call, scripted_agent

RECIPES = ("recipe,ingredients,minutes\nPancakes,flour;eggs;milk;sugar;salt,20\nSoup,tomatoes;onion;garlic;stock,35\n"
           "Curry,rice;curry paste;coconut milk,40\nSalsa,tomatoes;onion;chili;lime;coriander;salt;garlic,10\n")
GOAL = "Which recipe in recipes.csv needs the most ingredients, and how many does it need?"


def test_the_items_of_each_list_cell_are_counted(tmp_path):
    (tmp_path / "recipes.csv").write_text(RECIPES)
    found = list_count_asked(GOAL, tmp_path)
    assert (found.name, found.column, found.count, found.which, found.ties) == ("Salsa", "ingredients", 7, "most", ())
    fewest = list_count_asked("Which recipe in recipes.csv has the fewest ingredients?", tmp_path)
    assert (fewest.name, fewest.count) == ("Curry", 3)
    assert list_count_asked("Which recipe in recipes.csv takes the most minutes?", tmp_path) is None  # no list


def test_another_row_or_no_count_is_doubted_with_the_answer_to_copy(assistant_home, tmp_path):
    """Batch KZ at 6a1c8bc (KZC): "Vegetable curry ... a total of 40 minutes", and a second query ranking by minutes
    agreed."""
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "recipes.csv").write_text(RECIPES)
    doubt = list_count_wrong(GOAL, "Curry needs the most: 40 minutes.", tmp_path / "x")
    assert 'answer to copy: "Salsa has the most ingredients: 7."' in doubt
    assert "does not give how many" in list_count_wrong(GOAL, "Salsa.", tmp_path / "x")
    assert list_count_wrong(GOAL, "Salsa needs 7 ingredients.", tmp_path / "x") == ""
    sql = "SELECT recipe, minutes FROM recipes ORDER BY minutes DESC LIMIT 1"
    run = scripted_agent(tmp_path, [call("table_query", sql=sql), "Curry, 40 minutes.", "Salsa has the most "
                                    "ingredients: 7.", sql], [*FILE_TOOLS, *TABLE_TOOLS], approve="all", preread=False,
                         cross_check=True)
    (run.ws / "recipes.csv").write_text(RECIPES)
    events = list(run.agent.run(GOAL, workspace=run.ws))
    run.store.close()
    assert any(isinstance(e, Notice) and "counted the items of each ingredients cell" in e.text for e in events)
    assert [e.answer for e in events if isinstance(e, Finished)] == ["Salsa has the most ingredients: 7."]
    assert any(isinstance(e, Notice) and e.text.startswith("No second query") for e in events)
