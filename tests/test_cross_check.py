"""The second query of a table question (assistant/loop/cross_check.py): the answer is
called done only when a query the harness runs gives what it gives."""

from __future__ import annotations

import datetime as dt
import decimal

import pytest

from assistant.events import Finished, Notice, Paused
from assistant.loop.cross_check import ASKS, agreement, query_of_reply, run_cross_check, table_question_files
from tools.files import FILE_TOOLS
from tools.tables import TABLE_TOOLS
from agent_helpers import call, scripted_agent

TODAY = dt.date(2026, 12, 7)
ORDERS = "customer,amount\nAlba,300\nAlba,200\nBrio,100\nBrio,100\nBrio,300\nBrio,100\nCorvo,280\n"


@pytest.mark.parametrize("goal, files", [
    ("Which customer in orders.csv has the highest average order amount?", ["orders.csv"]),
    ("What is the total in sheet.xlsx?", ["sheet.xlsx"]),
    ("Add up orders.csv and save the total in total.txt.", []),  # a change
    ("What is the deadline in contract.pdf?", []),  # a document
    ("Does report.pdf give the same total as orders.csv?", []),  # a document beside the table
    ("What time is it?", []),
])
def test_only_a_question_on_table_files_gets_a_second_query(goal, files):
    assert table_question_files(goal) == files


@pytest.mark.parametrize("reply, sql", [
    ("```sql\nSELECT customer FROM orders LIMIT 1;\n```", "SELECT customer FROM orders LIMIT 1"),
    ("Here it is: SELECT AVG(amount) FROM orders; -- done", "SELECT AVG(amount) FROM orders"),
    ("WITH t AS (SELECT 1 AS x) SELECT x FROM t", "WITH t AS (SELECT 1 AS x) SELECT x FROM t"),
    ("I cannot write that.", ""),
])
def test_the_sql_is_cut_from_the_reply(reply, sql):
    assert query_of_reply(reply) == sql


@pytest.mark.parametrize("answer, rows, verdict", [
    ("Corvo has the highest average.", [("Corvo", decimal.Decimal("200"))], "agrees"),
    ("Alba has the highest average.", [("Corvo", 200)], "disagrees"),
    ("The total is 1,234.50 EUR.", [(1234.5,)], "agrees"),
    ("The average is 87.75.", [(87.7512,)], "agrees"),  # rounded as the answer rounds it
    ("The average is 88.", [(87.2,)], "disagrees"),
    ("North made 12.5% of the sales.", [(0.125,)], "agrees"),  # a share as a percent
    ("INV-101 and INV-102 appear twice.", [("INV-101", 2), ("INV-102", 2)], "agrees"),
    ("INV-101 and INV-102 appear twice.", [("INV-101", 2), ("INV-102", 2), ("INV-107", 3)], "disagrees"),
    ("Only INV-102 appears more than once.", [("INV-101", 2), ("INV-102", 2)], "disagrees"),
    ("None of the addresses lacks the @ sign.", [("ben.example.com",)], "disagrees"),
    ("The last meeting ends at 3:15 pm.", [(dt.datetime(2026, 12, 8, 15, 15),)], "agrees"),
    ("The last meeting ends at 16:00 on 8 December.", [(dt.datetime(2026, 12, 8, 15, 15),)], "disagrees"),
    ("It ends at 15:15.", [(dt.time(15, 15),)], "agrees"),
    ("The oldest invoice is from 3 March 2026.", [(dt.date(2026, 3, 3),)], "agrees"),
    ("Berlin", [("berlin",)], "agrees"),
    ("Berlin has two.", [("Berlin",)] * 13, "unsettled"),  # too many rows: not the question's own answer
    ("Nothing is due.", [], "unsettled"),
    ("It is empty.", [(None,)], "unsettled"),
])
def test_an_answer_agrees_when_it_gives_the_rows_of_the_second_query(answer, rows, verdict):
    assert agreement(answer, rows, len(rows))[0] == verdict


def test_without_a_limit_every_row_the_query_selects_is_the_answer():
    """DZA at a3c921a: "INV-102" alone for the two invoice numbers that appear more than once."""
    rows = [("INV-102",), ("INV-101",)]
    assert agreement("INV-102 appears more than once.", rows, 2, limited=False)[0] == "disagrees"
    assert agreement("INV-101 and INV-102.", rows, 2, limited=False)[0] == "agrees"
    top = [("Acme", 9), ("Birch", 5), ("Cato", 1)]  # a ranking cut by LIMIT: its first row is the answer
    assert agreement("Acme is the top customer.", top, 3, limited=True)[0] == "agrees"


def test_a_row_is_given_by_another_cell_of_its_table_row(tmp_path):
    """DZI at a3c921a: "Ben and Dan" answered which addresses lack the @ sign; the query gave the addresses."""
    from tools.tables.loading import load_tables
    from sandbox import Workspace
    from tools.base import ToolContext

    (tmp_path / "contacts.csv").write_text("name,email\nAnn,ann@x.org\nBen,ben.y.com\nDan,dan-at-w.org\n")
    tables = load_tables(ToolContext(workspace=Workspace(tmp_path)))[0]
    rows = [("ben.y.com",), ("dan-at-w.org",)]
    assert agreement("Ben and Dan.", rows, 2, limited=False, tables=tables)[0] == "agrees"
    assert agreement("Ben.", rows, 2, limited=False, tables=tables) == ("disagrees", "dan-at-w.org")
    assert agreement("Ann and Ben.", rows, 2, limited=False, tables=tables)[0] == "disagrees"


def test_a_month_is_given_by_its_name():
    """Batch FZ at 7767aeb, FZA: "Which month in sales.csv had the highest total sales?" (February, 470)."""
    trunc = [(dt.datetime(2026, 2, 1), 470)]
    assert agreement("February had the highest total, 470.", trunc, 1)[0] == "agrees"
    assert agreement("Feb. 2026 had the highest total.", trunc, 1)[0] == "agrees"
    assert agreement("April had the highest total.", trunc, 1)[0] == "disagrees"
    assert agreement("February 2025 had the highest total.", trunc, 1)[0] == "disagrees"
    assert agreement("February had the highest total.", [(2,)], 1, columns=["month"])[0] == "agrees"
    assert agreement("February had the highest total.", [(2,)], 1, columns=["orders"])[0] == "disagrees"


def test_the_rows_left_out_are_named():
    verdict, why = agreement("INV-102 appears twice.", [("INV-101", 2), ("INV-102", 2)], 2)
    assert (verdict, why) == ("disagrees", "INV-101, 2")


def _replies(*texts):
    """An ``ask`` that returns ``texts`` in order and keeps the prompts it was given."""
    asked = []

    def ask(messages):
        asked.append(messages)
        return texts[len(asked) - 1]
    return ask, asked


def test_the_second_query_runs_over_the_goals_table(tmp_path):
    (tmp_path / "orders.csv").write_text(ORDERS)
    goal = "Which customer in orders.csv has the highest average order amount?"
    sql = "SELECT customer FROM orders GROUP BY customer ORDER BY AVG(amount) DESC LIMIT 1"
    ask, asked = _replies(sql)
    found = run_cross_check("Brio has the highest average.", goal, tmp_path, ask, TODAY)
    assert (found.verdict, found.rows, found.why) == ("disagrees", (("Corvo",),), "Corvo")
    prompt = asked[0][-1]["content"]
    assert "Table orders (the file orders.csv), 7 rows. Columns: customer VARCHAR, amount " in prompt
    assert "Alba" in prompt and "Corvo" not in prompt and goal in prompt and "Today is 2026-12-07 (Monday)" in prompt
    ask, _ = _replies(sql)
    assert run_cross_check("Corvo, with 280 on average.", goal, tmp_path, ask, TODAY).verdict == "agrees"


def test_a_query_that_settles_nothing_is_asked_for_in_a_second_wording(tmp_path):
    """The second wording never overrules a first query that disagrees: on EZA's wrong "Alba" (batch EZ at 865c16b)
    it wrote a query that agreed with it."""
    (tmp_path / "people.csv").write_text("name,born\nAda,1990-04-01\nBen,2001-06-30\nCleo,1985-01-12\n")
    goal = "Who is the youngest person in people.csv?"
    ask, asked = _replies("I am not sure.", "SELECT name, born FROM people ORDER BY born DESC LIMIT 1")
    assert run_cross_check("Ben is the youngest.", goal, tmp_path, ask, TODAY).verdict == "agrees"
    assert asked[1][-1]["content"].endswith(ASKS[1])
    ask, asked = _replies("SELECT name FROM people ORDER BY born LIMIT 1", "SELECT 'Ben'")
    found = run_cross_check("Ben is the youngest.", goal, tmp_path, ask, TODAY)
    assert (found.verdict, found.sql, len(asked)) == ("disagrees", "SELECT name FROM people ORDER BY born LIMIT 1", 1)


def test_a_failed_query_is_asked_for_once_more_with_its_error(tmp_path):
    (tmp_path / "orders.csv").write_text(ORDERS)
    goal = "What is the total amount in orders.csv?"
    ask, asked = _replies("SELECT SUM(amout) FROM orders", "SELECT SUM(amount) FROM orders")
    found = run_cross_check("The total is 1,380.", goal, tmp_path, ask, TODAY)
    assert found.verdict == "agrees" and len(asked) == 2
    assert asked[1][-1]["content"].startswith("That query failed:") and "amout" in asked[1][-1]["content"]
    ask, asked = _replies(*["SELECT nope FROM orders"] * 4)  # twice in each wording: nothing settled
    assert run_cross_check("The total is 1,380.", goal, tmp_path, ask, TODAY).verdict == "unsettled"
    assert len(asked) == 4
    ask, asked = _replies("Sorry, I can't.", "Sorry.")
    assert run_cross_check("The total is 1,380.", goal, tmp_path, ask, TODAY).verdict == "unsettled"


def test_no_second_query_for_a_change_or_a_file_that_does_not_load(tmp_path):
    ask, asked = _replies()
    (tmp_path / "orders.csv").write_text(ORDERS)
    assert run_cross_check("Done.", "Sort orders.csv by amount.", tmp_path, ask, TODAY) is None
    assert run_cross_check("3", "How many rows are in missing.csv?", tmp_path, ask, TODAY) is None
    assert asked == []


def _question_run(tmp_path, answer: str, sql: str):
    tmp_path.mkdir(exist_ok=True)
    run = scripted_agent(tmp_path, [call("table_query", sql="SELECT customer, amount FROM orders"), answer, sql],
                         [*FILE_TOOLS, *TABLE_TOOLS], approve="all", preread=False, cross_check=True)
    (run.ws / "orders.csv").write_text(ORDERS)
    events = list(run.agent.run("Which customer in orders.csv placed exactly one order?", workspace=run.ws))
    run.store.close()
    return events, run.model


def test_an_answer_the_second_query_contradicts_is_handed_off_not_done(assistant_home, tmp_path):
    """A kind of question no other finish check knows (batches DZ and EZ: such answers, wrong, finished tasks)."""
    sql = "SELECT customer, COUNT(*) AS orders FROM orders GROUP BY customer HAVING COUNT(*) = 1"
    events, model = _question_run(tmp_path, "Alba placed exactly one order.", sql)
    assert not any(isinstance(e, Finished) for e in events)
    pause = next(e for e in events if isinstance(e, Paused))
    assert pause.kind == "stuck"
    assert "a second query over the table does not give this answer" in pause.reason
    assert sql in pause.reason and "Corvo | 1" in pause.reason and "Its answer: Alba" in pause.reason
    assert model.prompts[-1][0].content.startswith("You write DuckDB SQL")  # a fresh prompt, not the task's


def test_an_answer_the_second_query_agrees_with_finishes(assistant_home, tmp_path):
    sql = "SELECT customer FROM orders GROUP BY customer HAVING COUNT(*) = 1"
    events, _ = _question_run(tmp_path / "a", "Corvo placed exactly one order.", sql)
    assert [e.answer for e in events if isinstance(e, Finished)] == ["Corvo placed exactly one order."]
    assert f"The second query agrees with the answer: {sql}" in [e.text for e in events if isinstance(e, Notice)]
    # a second query that settles nothing (no SQL in the reply) leaves the answer as the other checks left it
    events, _ = _question_run(tmp_path / "b", "Alba placed exactly one order.", "No idea.")
    assert any(isinstance(e, Finished) for e in events)



def test_a_task_the_second_query_does_not_apply_to_says_nothing_of_it(assistant_home, tmp_path):
    """Batch FZ at 7767aeb: "Checking the answer with a second query over the table" was shown for FZI, a change of
    todo.txt, where no query ran."""
    run = scripted_agent(tmp_path, [call("read_file", path="todo.txt"), call("edit_file", path="todo.txt",
                                    old_text="Call mom", new_text="[x] Call mom"), "Done: 'Call mom' is marked [x]."],
                         FILE_TOOLS, approve="all", preread=False, cross_check=True)
    (run.ws / "todo.txt").write_text("Buy milk\nCall mom\n")
    events = list(run.agent.run("In todo.txt, put [x] in front of the line 'Call mom'.", workspace=run.ws))
    run.store.close()
    assert any(isinstance(e, Finished) for e in events)
    assert not any(isinstance(e, Notice) and "second query" in e.text for e in events)
    assert len(run.model.prompts) == 3  # no prompt of a second query


def test_a_total_across_sheets_may_be_the_sum_of_the_queries_parts(tmp_path):
    """xlsx_two_sheet_total at 077ece7: the right 2025.5 was handed off against a query of one sum per sheet."""
    import openpyxl

    wb = openpyxl.Workbook()
    for name, rows in (("Q1", [("Travel", 50), ("Rent", 300), ("Travel", 984)]),
                       ("Q2", [("Travel", 991.5), ("Meals", 20)])):
        ws = wb.create_sheet(name)
        ws.append(("Category", "Amount"))
        for r in rows:
            ws.append(r)
    del wb["Sheet"]
    wb.save(tmp_path / "expenses.xlsx")
    goal = "How much did we spend on Travel in total across both quarters in expenses.xlsx?"
    sql = ("SELECT SUM(amount) FROM expenses_q1 WHERE category = 'Travel' "
           "UNION ALL SELECT SUM(amount) FROM expenses_q2 WHERE category = 'Travel'")
    for answer, verdict in (("The total is 2025.5.", "agrees"), ("The total is 1034.", "disagrees")):
        ask, _ = _replies(sql)
        assert run_cross_check(answer, goal, tmp_path, ask, TODAY).verdict == verdict
    ask, _ = _replies(sql)  # one figure per quarter asked: the sum is not the answer
    assert run_cross_check("2025.5", goal.replace("in total across both", "for each of the"), tmp_path, ask,
                           TODAY).verdict != "agrees"
    assert agreement("2025.5", [(1034,), (991.5,)], 2, limited=False) == ("disagrees", "1034; 991.5")


@pytest.mark.parametrize("sql, answer, excludes", [
    ("SELECT category, SUM(amount) FROM spending WHERE category != 'Food' GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
     "Food, with a total of 591.", True),
    ("SELECT c FROM t WHERE c <> 'food' LIMIT 1", "Food 591", True),
    ("SELECT c FROM t WHERE c NOT IN ('Home', 'Food')", "Food", True),
    ("SELECT c FROM t WHERE c NOT LIKE 'Foo%'", "Foo", True),
    ("SELECT c FROM t WHERE c != 'Books' LIMIT 1", "Food, with a total of 591.", False),  # another value left out
    ("SELECT c FROM t WHERE c = 'Food'", "Food", False),
])
def test_a_query_that_filters_out_the_answers_value(sql, answer, excludes):
    from assistant.loop.cross_check import excludes_the_answer

    assert excludes_the_answer(sql, answer) is excludes


def test_a_query_that_filters_out_the_answers_value_settles_nothing(tmp_path):
    """xlsx_lookup at 238dd43: the right "Food, 591" handed off against a query that left Food out and found Travel."""
    (tmp_path / "spending.csv").write_text("category,amount\nFood,300\nFood,291\nTravel,410\nTravel,60\n")
    goal = "Which category had the highest total spending in spending.csv?"
    excluding = ("SELECT category, SUM(amount) AS total FROM spending WHERE category != 'Food' GROUP BY category "
                 "ORDER BY total DESC LIMIT 1")
    found = run_cross_check("Food, with a total of 591.", goal, tmp_path, _replies(excluding, "No idea.")[0], TODAY)
    assert found.verdict == "unsettled"
    # the same query for a wrong answer naming Travel still disagrees (Travel is not filtered out)
    found = run_cross_check("Books, 60.", goal, tmp_path, _replies(excluding)[0], TODAY)
    assert found.verdict == "disagrees"


def test_no_second_query_overrules_what_the_harness_worked_out(assistant_home, tmp_path):
    """JZG3 at 4d23469: the right "5 people" under Maria (the harness's own hierarchy) handed off against a second
    query that counted one level, 2."""
    org = ("name,manager\nOlaf,\nMaria,Olaf\nSven,Olaf\nTariq,Maria\nUma,Maria\nVera,Tariq\nWim,Tariq\n"
           "Xena,Vera\nYusuf,Sven\n")
    one_level = "SELECT COUNT(*) AS people FROM org WHERE manager = 'Maria'"
    answer = "5 people work under Maria, directly or indirectly: Tariq, Uma, Vera, Wim, Xena."
    chain = "SELECT name FROM org WHERE manager IN ('Maria', 'Tariq', 'Vera')"
    run = scripted_agent(tmp_path, [call("table_query", sql=chain), answer, one_level],
                         [*FILE_TOOLS, *TABLE_TOOLS], approve="all", preread=False, cross_check=True)
    (run.ws / "org.csv").write_text(org)
    events = list(run.agent.run("How many people in org.csv work under Maria, directly or indirectly?",
                                workspace=run.ws))
    run.store.close()
    assert [e.answer for e in events if isinstance(e, Finished)] == [answer]
    assert any(isinstance(e, Notice) and "No second query: the harness worked out everyone under a person" in e.text
               for e in events)
    assert not any(p[0].content.startswith("You write DuckDB SQL") for p in run.model.prompts)
