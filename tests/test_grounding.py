"""The general grounding check (assistant.loop.grounding): an answer about a table
file's rows rests on a table_query result or on what the harness said, never on the
table read by eye."""

import json

import pytest

from assistant.loop.evidence import Evidence
from assistant.loop.finish import finish_problems
from assistant.loop.grounding import rows_not_queried, written_rows_not_queried
from assistant.state.models import CallRecord

pytest.importorskip("duckdb")

STOCK = "item,stock,reorder_level\nPaper,40,50\nToner,8,5\nPens,120,100\nStaples,3,10\nFolders,25,20\n"
GOAL = "Which items in stock.csv are below their reorder level?"


def _call(name, result, step=1, **args):
    return CallRecord(id=f"s{step}c0", step=step, turn_seq=step, name=name, arguments=args, status="done",
                      result=result)


def _read(name, text):
    return _call("read_file", f"<<UNTRUSTED ab12 source={name}>>\n{text}<<END_UNTRUSTED ab12>>", path=name)


def _ev(tmp_path, goal, calls, name="stock.csv", text=STOCK, harness=()):
    (tmp_path / name).write_text(text)
    return Evidence(goal, tmp_path, calls=calls, tool_names=["read_file", "table_query", "finish"],
                    harness_texts=list(harness))


def test_rows_picked_from_a_read_table_are_doubted(tmp_path):
    """Batch U at bad5969 (UL): the items below their reorder level answered from the read table, wrongly."""
    ev = _ev(tmp_path, GOAL, [_read("stock.csv", STOCK)])
    got = rows_not_queried("Toner and Pens are below their reorder level.", ev)
    assert got.startswith("the answer gives Toner, Pens from stock.csv, and no table_query of this task returned "
                          "them"), got
    assert "over table stock (columns item (varchar), stock (" in got
    # a kind of question no other check knows still gets the doubt at the finish
    ev = _ev(tmp_path, "Which items in stock.csv are running low?", [_read("stock.csv", STOCK)])
    assert any(p.startswith("the answer gives Toner, Pens from stock.csv") for p in finish_problems(
        "Toner and Pens are running low.", ev))


def test_rows_a_query_returned_are_not_doubted(tmp_path):
    query = _call("table_query", "item | stock | reorder_level\n------\nPaper | 40 | 50\nStaples | 3 | 10\n(2 rows)",
                  step=2, sql="SELECT * FROM stock WHERE stock < reorder_level")
    ev = _ev(tmp_path, GOAL, [_read("stock.csv", STOCK), query])
    assert rows_not_queried("Paper and Staples are below their reorder level.", ev) == ""
    # a value of a returned row may be given beside it (40 of 50)
    assert rows_not_queried("Paper (40, reorder at 50) and Staples.", ev) == ""
    # a row the query did not return is still doubted
    assert "gives Pens from stock.csv" in rows_not_queried("Paper, Staples and Pens.", ev)


def test_a_number_of_a_row_read_by_eye_is_doubted(tmp_path):
    """Batch U (UH): 95, the highest, for the second-highest score, from the read table."""
    scores = "player,score\nAnna,72\nBen,95\nCara,88\nDev,64\nEmil,91\n"
    ev = _ev(tmp_path, "What is the second-highest score in scores.csv?", [_read("scores.csv", scores)],
             name="scores.csv", text=scores)
    assert rows_not_queried("The second-highest score is 95.", ev).startswith("the answer gives 95 from scores.csv")


def test_a_row_the_goal_names_is_a_lookup(tmp_path):
    staff = "name,email,salary\nJana,jana@firm.example,52000\nTom,tom@firm.example,67500\n"
    ev = _ev(tmp_path, "What is Tom's email address in staff.csv?", [_read("staff.csv", staff)], name="staff.csv",
             text=staff)
    assert rows_not_queried("Tom's email address is tom@firm.example.", ev) == ""


def test_what_the_harness_computed_is_support(tmp_path):
    """An answer copied from a finish doubt (or a hint after the fenced read) rests on the harness's own count."""
    ev = _ev(tmp_path, GOAL, [_read("stock.csv", STOCK)],
             harness=["... the rows below their reorder level are Paper, Staples: answer with them"])
    assert rows_not_queried("Paper and Staples.", ev) == ""
    hinted = _call("read_file", f"<<UNTRUSTED ab12 source=stock.csv>>\n{STOCK}<<END_UNTRUSTED ab12>>\nHint: the rows "
                   "below their level are Paper, Staples.", path="stock.csv")
    assert rows_not_queried("Paper and Staples.", _ev(tmp_path, GOAL, [hinted])) == ""
    # the table itself, inside the fence, is no support
    assert rows_not_queried("Toner.", _ev(tmp_path, GOAL, [hinted])) != ""


def test_a_count_no_query_gave_is_doubted(tmp_path):
    orders = "order_id,customer,amount\n1,Kira,20.00\n2,Lars,35.50\n3,Kira,12.00\n4,Mona,80.00\n"
    goal = "How many different customers are in orders.csv?"
    ev = _ev(tmp_path, goal, [_read("orders.csv", orders)], name="orders.csv", text=orders)
    assert rows_not_queried("There are 4 different customers.", ev).startswith(
        "the answer gives a count of rows of orders.csv, and no table_query")
    counted = _call("table_query", "n\n---\n3\n(1 row)", step=2, sql="SELECT COUNT(DISTINCT customer) AS n FROM orders")
    assert rows_not_queried("There are 3 different customers.", _ev(tmp_path, goal, [counted], name="orders.csv",
                                                                      text=orders)) == ""


def test_the_row_count_of_a_query_of_every_row_backs_no_count(tmp_path):
    """Batch W at bad9c2a (WA): the sums per item, "6 rows:", answered as the count of the items with none."""
    stock = "item,quantity\nBolts,120\nNuts,0\nWashers,35\nScrews,0\nHinges,12\nBrackets,0\n"
    goal = "How many items in inventory.csv have a quantity of zero?"
    every = _call("table_query", "6 rows:\nitem | sum(quantity)\n---\nBolts | 120\nWashers | 35\nHinges | 12\n"
                  "Nuts | 0\nScrews | 0\nBrackets | 0", step=2,
                  sql="SELECT item, SUM(quantity) FROM inventory GROUP BY item ORDER BY 2 DESC")
    ev = _ev(tmp_path, goal, [every], name="inventory.csv", text=stock)
    assert rows_not_queried("There are 6 items in inventory.csv that have a quantity of zero.", ev).startswith(
        "the answer gives a count of rows of inventory.csv")
    # the head of a query that picks rows is their count
    picked = _call("table_query", "3 rows:\nitem\n---\nNuts\nScrews\nBrackets", step=2,
                   sql="SELECT item FROM inventory WHERE quantity = 0")
    ev = _ev(tmp_path, goal, [picked], name="inventory.csv", text=stock)
    assert rows_not_queried("3 items have a quantity of zero.", ev) == ""


def test_an_honest_not_found_and_a_change_are_left_alone(tmp_path):
    ev = _ev(tmp_path, GOAL, [_read("stock.csv", STOCK)])
    assert rows_not_queried("I could not find a reorder level for Toner.", ev) == ""
    # a change is not a question: other checks look at what it wrote
    ev = _ev(tmp_path, "Remove Toner from stock.csv.", [_read("stock.csv", STOCK)])
    assert rows_not_queried("Removed Pens.", ev) == ""


def test_without_table_query_loaded_nothing_is_asked_of_it(tmp_path):
    (tmp_path / "stock.csv").write_text(STOCK)
    ev = Evidence(GOAL, tmp_path, calls=[_read("stock.csv", STOCK)], tool_names=["read_file", "finish"])
    assert rows_not_queried("Toner and Pens.", ev) == ""


PRODUCTS = "product,price\nDesk,249.00\nLamp,39.90\nChair,159.00\nShelf,89.50\nMonitor,199.99\nMouse,24.90\n"
TOP3 = "Write the three most expensive products in products.csv into top3.txt, one per line."


def _written(tmp_path, calls, text, goal=TOP3):
    (tmp_path / "products.csv").write_text(PRODUCTS)
    (tmp_path / "top3.txt").write_text(text)
    return Evidence(goal, tmp_path, calls=calls, touched=["top3.txt"], made=["top3.txt"], written=["top3.txt"],
                    tool_names=["read_file", "table_query", "write_file", "finish"])


def test_rows_written_from_a_read_table_are_doubted(tmp_path):
    """Batch U (UE): top3.txt written from the read table, with prices and a "$" of the model's own."""
    ev = _written(tmp_path, [_read("products.csv", PRODUCTS)], "Desk $249.00\nMonitor $199.99\nShelf $89.50\n")
    got = written_rows_not_queried(ev)
    assert got.startswith("top3.txt holds Desk, Shelf, Monitor, 249.00 from products.csv, and no table_query of this "
                          "task returned them"), got
    assert got.endswith("then write top3.txt again with only what it returns")
    assert got in finish_problems("Done: the three most expensive products are in top3.txt.", ev)


def test_rows_written_from_a_query_or_the_whole_table_are_not_doubted(tmp_path):
    query = _call("table_query", "product\n-------\nDesk\nMonitor\nChair\n(3 rows)", step=2,
                  sql="SELECT product FROM products ORDER BY price DESC LIMIT 3")
    assert written_rows_not_queried(_written(tmp_path, [_read("products.csv", PRODUCTS), query],
                                             "Desk\nMonitor\nChair\n")) == ""
    # every row written is a copy of the table, not a pick
    every = "\n".join(ln.replace(",", " ") for ln in PRODUCTS.splitlines()[1:])
    assert written_rows_not_queried(_written(tmp_path, [_read("products.csv", PRODUCTS)], every,
                                             goal="Write the products in products.csv into top3.txt.")) == ""


def test_a_total_added_by_hand_gets_the_columns_sum_to_copy(tmp_path):
    """Batch U at bad5969 (US): "What is the total of column B in budget.xlsx?" queried the column, added it by hand
    (3030.5; it is 2630.5), and was told only that no tool gave the number: it ran out of tries. Column B is the
    sheet's second column, Cost, and the doubt now gives its SUM to run."""
    openpyxl = pytest.importorskip("openpyxl")
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Item", "Cost", "Note"])
    for row in [("Venue", 1200, "deposit paid"), ("Catering", 860.5, ""), ("Music", 450, "band")]:
        ws.append(list(row))
    wb.save(tmp_path / "budget.xlsx")
    listed = _call("table_query", "3 rows:\ncost\n----\n1200.0\n860.5\n450.0", step=2, sql="SELECT cost FROM budget")
    tools = ["xlsx_read", "table_query", "finish"]
    ev = Evidence("What is the total of column B in budget.xlsx?", tmp_path, calls=[listed], tool_names=tools)
    got = finish_problems("The total of column B is 3030.5.", ev)
    assert any(p.endswith('the task asks for the total of cost in budget.xlsx, and no query of this task summed it: '
                          'call table_query with {"sql": "SELECT SUM(cost) AS total FROM budget"}') for p in got), got
    # grouped totals and one row's total are other checks' business
    ev = Evidence("What is the total cost per item in budget.xlsx?", tmp_path, calls=[listed], tool_names=tools)
    assert not any("no query of this task summed it" in p for p in finish_problems("Venue 3030.5.", ev))
    # a query that summed is the number's source to check, not a call to offer again
    summed = _call("table_query", "total\n-----\n2510.5", step=3, sql="SELECT SUM(cost) AS total FROM budget")
    ev = Evidence("What is the total of column B in budget.xlsx?", tmp_path, calls=[listed, summed], tool_names=tools)
    assert not any("no query of this task summed it" in p for p in finish_problems("The total is 3030.5.", ev))


def test_a_column_letter_names_the_sheets_column():
    from assistant.loop.table_goal import number_column
    from tools.tables.loading import Column, Table

    table = Table("budget", "budget.xlsx", (Column("item", "VARCHAR", ["a"]), Column("cost", "DOUBLE", [1.0]),
                                            Column("tax", "DOUBLE", [0.1])))
    assert number_column(table, "What is the total of column C in budget.xlsx?") == "tax"
    assert number_column(table, "What is the total of the C column?") == "tax"
    # no letter: the first number column; a letter of a text column names no number column
    assert number_column(table, "What is the total in budget.xlsx?") == "cost"
    assert number_column(table, "What is the total of column A?") == "cost"


TODO = "water the plants\npay the electricity bill\nbook dentist\ncall grandma\n"
REVERSE = "Write the lines of todo.txt in reverse order into reversed.txt."


def _numbered_read(name, text):
    lines = "".join(f"{i:>6}\t{ln}\n" for i, ln in enumerate(text.splitlines(), 1))  # as read_file numbers them
    shown = f"<<UNTRUSTED ab12 source={name}>>\n{name} (utf-8, 4 lines)\n{lines}<<END_UNTRUSTED ab12>>"
    return _call("read_file", shown, path=name)


def _reversed(tmp_path, text, goal=REVERSE):
    (tmp_path / "todo.txt").write_text(TODO)
    (tmp_path / "reversed.txt").write_text(text)
    return Evidence(goal, tmp_path, calls=[_numbered_read("todo.txt", TODO)], touched=["reversed.txt"],
                    made=["reversed.txt"], written=["reversed.txt"], tool_names=["read_file", "write_file", "finish"])


def test_an_output_of_the_reads_line_numbers_is_doubted(tmp_path):
    """VE at 5dcca13: reversed.txt written as "1\\n2\\n3\\n4" (the read's line numbers), and the task finished."""
    from assistant.loop.grounding import written_without_source_words

    ev = _reversed(tmp_path, "1\n2\n3\n4\n")
    got = written_without_source_words(ev)
    assert got.startswith("reversed.txt holds '1 / 2 / 3 / 4', not one word of todo.txt; the task asks for what "
                          "todo.txt says"), got
    assert got in finish_problems("Done: created reversed.txt (4 lines, 8 B).", ev)
    # the lines themselves, in any order, hold its words
    assert written_without_source_words(_reversed(tmp_path, "call grandma\nbook dentist\n")) == ""
    # an output of a number (a total, a count) carries no lines: not this check's business
    assert written_without_source_words(_reversed(tmp_path, "4\n", goal="Count the tasks in todo.txt and write the "
                                                                       "number into reversed.txt.")) == ""


def test_a_number_from_a_sum_of_row_ids_is_doubted(tmp_path):
    """VR at 5dcca13: "What share of the orders in orders.csv were returned, in percent?" ran the hint's
    SUM(order_id) share and answered 19.4% (2 of 8 orders: 25%); the task finished."""
    from assistant.loop.grounding import id_aggregated

    orders = "order_id,status\n1,delivered\n2,returned\n3,delivered\n4,delivered\n5,returned\n6,delivered\n"
    goal = "What share of the orders in orders.csv were returned, in percent?"
    by_id = _call("table_query", "1 row:\npercent\n-------\n19.4", sql="SELECT ROUND(100.0 * SUM(order_id) FILTER "
                  "(WHERE status = 'returned') / SUM(order_id), 1) AS percent FROM orders")
    ev = _ev(tmp_path, goal, [by_id], name="orders.csv", text=orders)
    got = id_aggregated("19.4% of the orders were returned.", ev)
    assert got.startswith("the answer's 19.4 comes from a query that takes SUM(order_id), and that column is each "
                          "row's id, not an amount; to count rows use COUNT(*)"), got
    assert got in finish_problems("19.4% of the orders were returned.", ev)
    counted = _call("table_query", "1 row:\npercent\n-------\n33.3", step=2, sql="SELECT ROUND(100.0 * COUNT(*) "
                    "FILTER (WHERE status = 'returned') / COUNT(*), 1) AS percent FROM orders")
    assert id_aggregated("33.3% were returned.", _ev(tmp_path, goal, [by_id, counted], name="orders.csv",
                                                     text=orders)) == ""
    # an amount column is summed as it should be
    amounts = _call("table_query", "1 row:\ntotal\n-----\n512.5", sql="SELECT SUM(amount) AS total FROM orders")
    assert id_aggregated("The total is 512.5.", _ev(tmp_path, goal, [amounts], name="orders.csv", text=orders)) == ""


def test_a_file_written_from_a_sum_of_row_ids_is_doubted(tmp_path):
    """Batch W at bad9c2a (WO): "the number of tickets per status" written into summary.md as SUM(id) per status."""
    from assistant.loop.grounding import written_id_aggregated

    tickets = "id,status\n1,open\n2,closed\n3,open\n4,pending\n5,closed\n6,closed\n"
    goal = "Make a Markdown table in summary.md with the number of tickets per status from tickets.csv."
    by_id = _call("table_query", "3 rows:\nstatus | sum(id)\n---\nclosed | 13\nopen | 4\npending | 4",
                  sql="SELECT status, SUM(id) FROM tickets GROUP BY status ORDER BY 2 DESC")
    (tmp_path / "summary.md").write_text("| status | sum(id) |\n|---|---|\n| closed | 13 |\n| open | 4 |\n")
    ev = _ev(tmp_path, goal, [by_id], name="tickets.csv", text=tickets)
    ev.written = ["summary.md"]
    got = written_id_aggregated(ev)
    assert got.startswith("summary.md holds 13, from a query that takes SUM(id), and that column is each row's id"), got
    counted = _call("table_query", "3 rows:\nstatus | n\n---\nclosed | 3\nopen | 2\npending | 1", step=2,
                    sql="SELECT status, COUNT(*) AS n FROM tickets GROUP BY status")
    (tmp_path / "summary.md").write_text("| status | n |\n|---|---|\n| closed | 3 |\n| open | 2 |\n| pending | 1 |\n")
    assert written_id_aggregated(ev) == ""
    ev.calls.append(counted)
    assert written_id_aggregated(ev) == ""


def test_an_output_of_the_reads_header_and_numbers_is_doubted(tmp_path):
    """VE at c5f189f: reversed.txt written as the read's header "todo.txt (utf-8, 4 lines)" between the line numbers;
    a goal for the lines of a file wants lines the file has."""
    from assistant.loop.grounding import written_without_source_words

    header = "1\ntodo.txt (utf-8, 4 lines)\n     1\ntodo.txt (utf-8, 4 lines)\n     2\n"
    got = written_without_source_words(_reversed(tmp_path, header))
    assert got.startswith("reversed.txt holds '1 / todo.txt (utf-8, 4 lines) / 1 / todo.txt (utf-8, 4 lines) / 2', "
                          "not one word of todo.txt"), got
    # some words of the file, but most lines none of its own
    got = written_without_source_words(_reversed(tmp_path, "4. call grandma (today)\n3. book dentist (soon)\n"))
    assert got.startswith("reversed.txt holds 2 lines that todo.txt does not have ('4. call grandma (today)', "), got
    assert written_without_source_words(_reversed(tmp_path, "call grandma\nbook dentist\npay the electricity bill\n"
                                                            "water the plants\n")) == ""
    assert written_without_source_words(_reversed(tmp_path, "- call grandma\n2. book dentist\n")) == ""


def test_a_rows_number_other_than_the_querys_is_doubted(tmp_path):
    """XD at 0958b96: the averages per customer queried (Mona 80, Lars 25, Kira 16) and offered to copy, then
    "20.00 for Mona, 35.50 for Lars, and 16.00 for Kira" answered from the table's rows; the task finished."""
    from assistant.loop.grounding import pairs_against_query

    orders = "order_id,customer,amount\n1,Kira,20.00\n2,Lars,35.50\n3,Kira,12.00\n4,Mona,80.00\n5,Lars,14.50\n"
    goal = "What is the average order amount per customer in orders.csv?"
    query = _call("table_query", "<<UNTRUSTED ab source=table_query>>\n3 rows:\ncustomer | avg(amount)\n"
                  "---------+----\nMona | 80.0\nLars | 25.0\nKira | 16.0\n<<END_UNTRUSTED ab>>",
                  sql="SELECT customer, AVG(amount) FROM orders GROUP BY customer ORDER BY 2 DESC")
    ev = _ev(tmp_path, goal, [_read("orders.csv", orders), query], name="orders.csv", text=orders)
    wrong = "The average order amount per customer is 20.00 for Mona, 35.50 for Lars, and 16.00 for Kira."
    got = pairs_against_query(wrong, ev)
    assert got.startswith("the answer gives 20.00 for Mona, and the table_query at step 1 returned 80.0 for it; "
                          "answer with what the query returned, e.g. the answer to copy: "
                          '"Mona 80.0; Lars 25.0; Kira 16.0."'), got
    assert got in finish_problems(wrong, ev)
    # the query's numbers, in either order, and rounded as written
    assert pairs_against_query("Mona: 80.00, Lars: 25, and Kira 16.", ev) == ""
    assert pairs_against_query("Kira averages 16 and Lars 25.0; Mona 80.", ev) == ""
    # a clause with two numbers, or with a date, pairs nothing
    assert pairs_against_query("Mona ordered 1 time for 80 euros.", ev) == ""
    assert pairs_against_query("Mona 20 on 2026-11-02.", ev) == ""
    # a number no tool showed is another check's; a name in brackets is no pair of the number before them
    assert pairs_against_query("Mona 75.", ev) == ""
    assert pairs_against_query("Mona, with 80 (Lars 25).", ev) == ""


def test_a_text_file_of_picked_rows_holding_other_rows_is_doubted(tmp_path):
    """A development batch at b6900b3 (ZZC): "the products in stock.csv that are out of stock" written into
    reorder.txt as every product and its stock, and the task finished; the picked rows are stock = 0."""
    from assistant.loop.written import _names_not_in_bound as written_rows_against_filter

    goal = "Write the names of the products in stock.csv that are out of stock into reorder.txt, one per line."
    (tmp_path / "stock.csv").write_text("product,stock\nDesk,4\nLamp,0\nChair,12\nShelf,0\nRug,1\n")

    def ev(text):
        (tmp_path / "reorder.txt").write_text(text)
        return Evidence(goal, tmp_path, calls=[_read("stock.csv", "product,stock\n")], touched=["reorder.txt"],
                        made=["reorder.txt"], written=["reorder.txt"],
                        tool_names=["read_file", "table_query", "write_file", "finish"])

    every = ev("1\nDesk\n4\nLamp\n0\nChair\n12\nShelf\n0\nRug\n1\n")
    got = written_rows_against_filter(every)
    assert got.startswith("reorder.txt names Desk, Chair, Rug, whose stock is not 0; the rows of stock.csv whose "
                          "stock is 0 are Lamp, Shelf"), got
    assert '"content": "Lamp\\nShelf\\n"' in got and "WHERE stock = 0" in got
    assert got in finish_problems("I wrote reorder.txt.", every)
    assert written_rows_against_filter(ev("Lamp\n")).startswith("reorder.txt leaves out Shelf, whose stock is")
    assert written_rows_against_filter(ev("Lamp\nShelf\n")) == ""


def test_rows_between_two_numbers_get_the_query_and_an_answer_naming_none_is_doubted(tmp_path):
    """Batch Z at 6696c34 (ZA): "Who in staff.csv earns between 40,000 and 60,000?" got no hint and answered that
    nobody does; Cara, Dev (40,000), Eli and Fay (60,000) do, both ends kept."""
    from assistant.loop.calls import _example_query
    from sandbox import Workspace
    from tools.base import ToolContext
    from tools.tables.loading import load_tables

    goal = "Who in staff.csv earns between 40,000 and 60,000?"
    ev = _ev(tmp_path, goal, [], text="name,department,salary\nAnna Berg,Sales,38500\nBen Ortiz,IT,61200\n"
             "Cara Lind,IT,52000\nDev Patel,Sales,40000\nEli Roth,HR,47500\nFay Noor,HR,60000\nGus Hale,IT,75000\n",
             name="staff.csv")
    staff = load_tables(ToolContext(workspace=Workspace(tmp_path)))[0][0]
    assert _example_query(staff, goal) == "SELECT name, salary FROM staff WHERE salary BETWEEN 40000 AND 60000"
    got = finish_problems("There are no employees in staff.csv who earn between 40,000 and 60,000.", ev)
    assert any("the rows of staff.csv whose salary is between 40000 and 60000 are Cara Lind, Dev Patel, Eli Roth, "
               "Fay Noor" in p for p in got), got
    assert not any("between 40000" in p for p in finish_problems("Cara Lind, Dev Patel, Eli Roth and Fay Noor.", ev))


def test_rows_that_share_a_value_get_the_grouping_query_and_a_wrong_pair_is_doubted(tmp_path):
    """Batch Z at 6696c34 (ZE): "Which two products in prices.csv have the same price?" got no hint and grepped for
    each product; Folder and Ruler share 2.45."""
    from assistant.loop.figures import same_value_query
    from sandbox import Workspace
    from tools.base import ToolContext
    from tools.tables import table_query
    from tools.tables.loading import load_tables
    from tool_helpers import call as run_tool

    goal = "Which two products in prices.csv have the same price?"
    ev = _ev(tmp_path, goal, [], name="prices.csv", text="product,price\nNotebook,3.20\nStapler,7.90\nPen,1.10\n"
             "Folder,2.45\nMarker,1.85\nRuler,2.45\nTape,3.05\n")
    ctx = ToolContext(workspace=Workspace(tmp_path))
    sql = same_value_query(load_tables(ctx)[0][0], goal)
    assert run_tool(table_query, ctx, sql=sql).data["rows"] == [["2.45", "Folder, Ruler", "2"]]
    got = finish_problems("Notebook and Tape.", ev)
    assert any(p.startswith("the rows of prices.csv that share a price are Folder, Ruler; the answer names Notebook, "
                            "Tape") for p in got), got
    assert not any("share a price" in p for p in finish_problems("Folder and Ruler both cost 2.45.", ev))


def test_a_change_of_form_is_not_checked_as_a_change_of_text(tmp_path):
    """Batch Z at 6696c34 (ZH): "Change every name in names.txt from 'Last, First' to 'First Last'." was told at the
    finish that names.txt must hold 'First Last', and wrote those words over Anna Berg; no line of the file held
    'Last, First', so it names a form, not a text to replace."""
    from assistant.loop.named_files import _change_not_in_file

    goal = "Change every name in names.txt from 'Last, First' to 'First Last'."
    read = _read("names.txt", "names.txt (utf-8, 2 lines)\n     1\tBerg, Anna\n     2\tOrtiz, Ben\n")
    (tmp_path / "names.txt").write_text("Anna Berg\nBen Ortiz\n")
    ev = Evidence(goal, tmp_path, calls=[read], touched=["names.txt"], written=["names.txt"],
                  tool_names=["read_file", "edit_file", "finish"])
    assert _change_not_in_file(ev) == ""
    # a text the file held is still checked
    literal = _read("names.txt", "names.txt (utf-8, 1 lines)\n     1\tLast, First\n")
    ev = Evidence(goal, tmp_path, calls=[literal], touched=["names.txt"], written=["names.txt"],
                  tool_names=["read_file", "edit_file", "finish"])
    assert _change_not_in_file(ev).startswith("the task asks to change 'Last, First' to 'First Last' in names.txt")


def _table(tmp_path, name):
    from sandbox import Workspace
    from tools.base import ToolContext
    from tools.tables.loading import load_tables

    return next(t for t in load_tables(ToolContext(workspace=Workspace(tmp_path)))[0] if t.source == name)


def test_groups_whose_total_passes_a_bound_get_the_having_query_and_an_answer_naming_none_is_doubted(tmp_path):
    """Batch AZ at 018ad5b (AZB): "Which customers in orders.csv have spent more than 500 in total?" was offered
    SUM(order_) WHERE order_ > 500 (the order numbers 1 to 6, "orders" of orders.csv read as the column), and "No
    customers" finished the task; Alba's orders add up to 620 and Corvo's to 510."""
    from assistant.loop.calls import _example_query

    goal = "Which customers in orders.csv have spent more than 500 in total?"
    ev = _ev(tmp_path, goal, [], name="orders.csv", text="order,customer,amount\n1,Alba,300\n2,Brio,480\n"
             "3,Corvo,210\n4,Alba,320\n5,Dalia,90\n6,Corvo,300\n")
    query = _example_query(_table(tmp_path, "orders.csv"), goal)
    assert query == ("SELECT customer, SUM(amount) AS total FROM orders GROUP BY customer HAVING SUM(amount) > 500 "
                     "ORDER BY 2 DESC")
    got = finish_problems("No customers in orders.csv have spent more than 500 in total.", ev)
    assert any("the customer values whose total amount is over 500 are Alba (620), Corvo (510)" in p
               and "e.g. the answer to copy: \"Alba (620), Corvo (510) have a total amount over 500.\"" in p
               for p in got), got
    assert any("leaves out Corvo" in p for p in finish_problems("Alba spent more than 500.", ev))
    assert any("names Brio, whose total amount is not over 500" in p
               for p in finish_problems("Alba, Brio and Corvo.", ev))
    assert not any("total amount" in p for p in finish_problems("Alba (620) and Corvo (510).", ev))


def test_a_column_of_row_numbers_is_not_the_amount_summed(tmp_path):
    """AZB: a number column counting the rows (1, 2, 3, ...) is no amount, even when a file name's word names it."""
    from assistant.loop.table_goal import number_column, number_filter

    (tmp_path / "orders.csv").write_text("order,customer,amount\n1,Alba,300\n2,Brio,480\n3,Corvo,210\n")
    orders = _table(tmp_path, "orders.csv")
    assert number_column(orders) == "amount"
    assert number_filter(orders, "How many orders in orders.csv are over 250?").sql == "amount > 250"


def test_the_weekday_with_the_most_rows_gets_its_query_and_a_date_for_an_answer_is_doubted(tmp_path):
    """Batch AZ at 018ad5b (AZF): "On which weekday were the most orders placed, according to orders.csv?" got no
    example, summed the amounts per date and answered "2026-11-09, with 50 orders"; Wednesday has 4 of the 8."""
    from assistant.loop.calls import _example_query

    goal = "On which weekday were the most orders placed, according to orders.csv?"
    ev = _ev(tmp_path, goal, [], name="orders.csv", text="order,date,amount\n1,2026-11-02,20\n2,2026-11-03,35\n"
             "3,2026-11-04,12\n4,2026-11-09,50\n5,2026-11-11,18\n6,2026-11-18,27\n7,2026-11-25,44\n8,2026-11-27,9\n")
    assert _example_query(_table(tmp_path, "orders.csv"), goal) == (
        "SELECT dayname(date) AS weekday, COUNT(*) AS rows FROM orders GROUP BY weekday ORDER BY 2 DESC")
    got = finish_problems("The most orders were placed on 2026-11-09, with 50 orders.", ev)
    assert any(p.startswith("the day of the week with the most rows of orders.csv is Wednesday (4), and the answer "
                            "does not say so; per day: Wednesday 4, Monday 2, Tuesday 1, Friday 1")
               and p.endswith('the answer to copy: "Wednesday (4 rows)."') for p in got), got
    assert not any("day of the week" in p for p in finish_problems("On Wednesdays: 4 of the 8 orders.", ev))
    assert any("day of the week" in p for p in finish_problems("Monday and Wednesday.", ev))


def test_a_total_on_weekends_gets_the_dayofweek_query_and_a_wrong_sum_is_doubted(tmp_path):
    """Batch AZ at 018ad5b (AZA): "How much did I spend on weekends according to expenses.csv?" got no example and
    answered 184.30; the Saturday and Sunday rows add up to 132.80."""
    from assistant.loop.calls import _example_query

    goal = "How much did I spend on weekends according to expenses.csv?"
    ev = _ev(tmp_path, goal, [], name="expenses.csv", text="date,item,amount\n2026-11-27,Lunch,18.40\n"
             "2026-11-28,Cinema,24.00\n2026-11-29,Brunch,31.50\n2026-11-30,Taxi,12.00\n2026-12-05,Groceries,62.30\n")
    assert _example_query(_table(tmp_path, "expenses.csv"), goal) == \
        "SELECT SUM(amount) FROM expenses WHERE dayofweek(date) IN (0, 6)"
    got = finish_problems("You spent a total of 184.30 on weekends.", ev)
    assert any("add up to 117.8" in p and "dayofweek(date) IN (0, 6)" in p for p in got), got
    assert not any("add up to" in p for p in finish_problems("You spent 117.80 on weekends.", ev))


def test_whether_a_column_adds_up_to_a_figure_gets_its_sum_and_a_wrong_yes_is_doubted(tmp_path):
    """Batch AZ at 018ad5b (AZH): "Do the shares in budget.csv add up to 100%?" was offered each share doubled (the
    goal read as "add 100% to every share") and answered with code; the shares add up to 98."""
    from assistant.loop.calls import _example_query
    from assistant.loop.table_goal import percent_change

    goal = "Do the shares in budget.csv add up to 100%?"
    text = "category,share_percent\nRent,40\nFood,25\nTravel,20\nSavings,13\n"
    ev = _ev(tmp_path, goal, [_read("budget.csv", text)], name="budget.csv", text=text)
    budget = _table(tmp_path, "budget.csv")
    assert percent_change(budget, goal) is None
    assert _example_query(budget, goal) == "SELECT SUM(share_percent) AS total FROM budget"
    got = finish_problems("Yes, the shares add up to 100%.", ev)
    assert any(p.startswith("the share_percent values of budget.csv add up to 98 (") and p.endswith(
        'the answer to copy: "No: the share_percent values add up to 98, not 100."') for p in got), got
    assert not any("add up to 98" in p for p in finish_problems("No, they add up to 98%, not 100%.", ev))
    assert percent_change(budget, "Add 10% to every share in budget.csv.") is not None
    from assistant.loop.evidence import asks_only_a_question  # "add up to" asks, it changes nothing
    assert asks_only_a_question(goal) and not asks_only_a_question("Add Milk to list.txt?")


def test_the_row_that_fell_the_most_between_two_columns_is_checked(tmp_path):
    """Batch AZ at 018ad5b (AZJ): "Which product in sales.csv fell the most from January to February?" turned the
    example's ASC into DESC, was offered "Desk 10." (a rise) back from that query, and answered Desk; Lamp fell 50."""
    goal = "Which product in sales.csv fell the most from January to February?"
    text = "product,january,february\nDesk,120,130\nLamp,90,40\nChair,75,60\nShelf,40,44\nRug,30,25\n"
    ev = _ev(tmp_path, goal, [_read("sales.csv", text)], name="sales.csv", text=text)
    got = finish_problems("The product that fell the most from January to February is Desk.", ev)
    assert any(p.startswith("the row of sales.csv whose february - january is the smallest is Lamp (-50), and the "
                            "answer does not say so") and p.endswith(
        'the answer to copy: "Lamp (february - january: -50)."') for p in got), got
    assert not any("is the smallest" in p for p in finish_problems("Lamp fell the most: from 90 to 40.", ev))
    assert any("is the smallest" in p for p in finish_problems("Lamp and Chair fell.", ev))


@pytest.mark.parametrize("answer, doubted", [
    ("January, February, April and May had no sales.", "names January, February, April, May"),
    ("There were no sales in March and June.", "names March, June"),
    ("March had no sales.", ""),
    ("March 2026 had no sales in sales.csv.", ""),
])
def test_the_months_of_a_range_without_rows_are_checked(tmp_path, answer, doubted):
    """Held-out BZB at bbbe1fb: "Which month between January and June 2026 had no sales in sales.csv?" was answered
    with four months that had sales; March had none."""
    from assistant.loop.figures import months_without_wrong

    goal = "Which month between January and June 2026 had no sales in sales.csv?"
    ev = _ev(tmp_path, goal, [], name="sales.csv", text="date,amount\n2026-01-05,120\n2026-01-19,80\n2026-02-11,95\n"
             "2026-04-02,300\n2026-05-20,60\n2026-06-30,40\n")
    got = months_without_wrong(answer, ev)
    if not doubted:
        assert got == "", got
        return
    sql = ("SELECT strftime(date, '%Y-%m') AS month, COUNT(*) AS rows, SUM(amount) AS total FROM sales GROUP BY 1 "
           "ORDER BY 1")
    assert got == (f"the months from January to June 2026 without sales in sales.csv are March 2026, and the answer "
                   f"{doubted}; the rows per month: call table_query with {json.dumps({'sql': sql})}; e.g. the answer "
                   "to copy: \"March 2026 had no sales.\""), got


def test_a_month_whose_total_is_zero_had_none_and_the_data_span_is_the_range(tmp_path):
    from assistant.loop.figures import months_without_wrong

    goal = "Which months had no orders in orders.csv?"
    ev = _ev(tmp_path, goal, [], name="orders.csv", text="month,amount\n2026-01,10\n2026-02,0\n2026-04,5\n")
    got = months_without_wrong("February had no orders.", ev)
    assert got.startswith("the months from January to April 2026 without orders in orders.csv are February 2026 and "
                          "March 2026, and the answer names February;"), got
    assert months_without_wrong("February and March had no orders.", ev) == ""
    assert any(p.startswith("the months from January") for p in finish_problems("February had no orders.", ev))


@pytest.mark.parametrize("goal, answer, doubted", [
    ("How many hours did each person work according to shifts.csv?", "Anna 12.5, Ben 11.", "Anna 12.5 hours, Ben "
     "12.5 hours."),
    ("How many hours did each person work according to shifts.csv?", "Anna worked 12.5 hours.", "Anna 12.5 hours, "
     "Ben 12.5 hours."),
    ("How many hours did each person work according to shifts.csv?", "Ben: 12.50 hours; Anna: 12.5 hours.", ""),
    ("How many hours were worked in total according to shifts.csv?", "25 hours in all.", ""),
    ("How many hours were worked in total according to shifts.csv?", "4 shifts.", "25 hours."),
    ("Who worked on 2026-11-03 according to shifts.csv?", "Anna and Ben.", ""),  # no hours asked
])
def test_the_hours_of_start_and_end_times_are_checked(tmp_path, goal, answer, doubted):
    from assistant.loop.figures import hours_wrong

    ev = _ev(tmp_path, goal, [], name="shifts.csv", text="name,date,start,end\nAnna,2026-11-02,09:00,17:30\n"
             "Ben,2026-11-02,08:00,12:00\nAnna,2026-11-03,10:00,14:00\nBen,2026-11-03,22:00,06:30\n")
    got = hours_wrong(answer, ev)
    assert (got.endswith(f'the answer to copy: "{doubted}"') if doubted else got == ""), got


def test_one_figure_for_all_rows_when_each_rows_own_is_asked_is_doubted_with_the_grouped_query(tmp_path):
    """Batch CZ at 64fba22 (CZD): "How many days did each project in projects.csv take, from start to end?" was
    answered "The total number of days it took for all projects is 46 days." from SUM(date_diff(...)) over every
    row (Alpha 15, Beta 30, Gamma 1)."""
    from assistant.loop.figures import all_for_each

    goal = "How many days did each project in projects.csv take, from start to end?"
    sql = "SELECT SUM(date_diff('day', start, end_)) AS days FROM projects"
    ev = _ev(tmp_path, goal, [_call("table_query", "1 row:\ndays\n----\n  46\n", step=2, sql=sql)],
             name="projects.csv", text="project,start,end\nAlpha,2026-01-05,2026-01-20\nBeta,2026-02-01,2026-03-03\n"
             "Gamma,2026-03-10,2026-03-11\n")
    got = all_for_each("The total number of days it took for all projects is 46 days.", ev)
    grouped = ("SELECT project, SUM(date_diff('day', start, end_)) AS days FROM projects GROUP BY project ORDER BY "
               "project")
    assert got == ("the task asks for a figure for each project, and the answer gives one figure for all of them, "
                   "from table_query at step 2 (every row added up); give each project's own: call table_query with "
                   f"{json.dumps({'sql': grouped})}, and answer with each row it returns"), got
    assert all_for_each("Alpha 15 days, Beta 30 days, Gamma 1 day.", ev) == ""
    assert all_for_each("46 days.", _ev(tmp_path, "How many days did the projects in projects.csv take in all?",
                                        ev.calls, name="projects.csv", text=(tmp_path / "projects.csv").read_text())) \
        == ""
    assert any(p.startswith("the task asks for a figure for each project") for p in finish_problems(
        "The total number of days it took for all projects is 46 days.", ev))


@pytest.mark.parametrize("answer, doubted", [
    ("There are 4 people in contacts.csv who have no email address.", True),
    ("2 people have no email address: Ben and Dan.", False),
    ("Two people.", False),  # the count as a word
])
def test_a_count_of_rows_with_an_empty_cell_is_checked(tmp_path, answer, doubted):
    """Batch CZ at 64fba22 (CZG): "How many people in contacts.csv have no email address?" was answered 4, the rows
    of a GROUP BY email; Ben and Dan have none."""
    from assistant.loop.figures import empty_count_wrong

    goal = "How many people in contacts.csv have no email address?"
    ev = _ev(tmp_path, goal, [], name="contacts.csv", text="name,email\nAnna,a@x.org\nBen,\nCleo,c@y.com\nDan,\n"
             "Eve,e@z.net\n")
    got = empty_count_wrong(answer, ev)
    sql = "SELECT COUNT(*) FROM contacts WHERE email IS NULL OR TRIM(email) = ''"
    assert got == (f"the rows of contacts.csv with no email number 2 (call table_query with {json.dumps({'sql': sql})}"
                   "), and the answer does not say so; e.g. the answer to copy: \"2 rows of contacts.csv have no "
                   "email.\"" if doubted else ""), got


_INVOICES = "number,customer,amount\nINV-101,Alba,120\nINV-102,Brio,80\nINV-103,Corvo,45\nINV-102,Brio,80\n" \
    "INV-104,Dalia,60\nINV-101,Alba,120\n"


@pytest.mark.parametrize("answer, doubted", [
    ("The invoice numbers INV-102 appear more than once in invoices.csv: invoices.csv:3: INV-102,Brio,80", True),
    ("INV-101 and INV-102 appear more than once.", False),
    ("INV-101 (2 rows) and INV-102 (2 rows).", False),
    ("INV-101, INV-102 and INV-103 appear more than once.", True),  # INV-103 is in one row
    ("No invoice number appears more than once.", True),
])
def test_the_values_that_repeat_in_a_column_are_checked(tmp_path, answer, doubted):
    """Batch DZ at a3c921a (DZA): "Which invoice numbers appear more than once in invoices.csv?" grepped for INV-102
    and answered it alone; INV-101 is in two rows as well."""
    from assistant.loop.figures import repeats_wrong

    goal = "Which invoice numbers appear more than once in invoices.csv?"
    ev = _ev(tmp_path, goal, [], name="invoices.csv", text=_INVOICES)
    got = repeats_wrong(answer, ev)
    assert bool(got) == doubted, got
    if doubted:
        sql = ("SELECT number, COUNT(*) AS times FROM invoices WHERE number IS NOT NULL GROUP BY number HAVING "
               "COUNT(*) > 1 ORDER BY number")
        assert f"are INV-101 (2 rows), INV-102 (2 rows) (call table_query with {json.dumps({'sql': sql})})" in got
        assert got.endswith('"INV-101 and INV-102 appear more than once in invoices.csv."'), got


@pytest.mark.parametrize("goal, want", [
    ("Which customers appear more than once in invoices.csv?", ["Alba", "Brio"]),
    ("Are there duplicate invoice numbers in invoices.csv?", ["INV-101", "INV-102"]),
    ("Which amounts are listed twice in invoices.csv?", ["120", "80"]),
    ("What is the total amount in invoices.csv?", None),  # no repeat asked
    ("Which rows appear more than once in invoices.csv?", None),  # no column named
])
def test_the_repeated_values_of_the_column_a_goal_names(tmp_path, goal, want):
    from assistant.loop.table_goal import repeated_values

    ev = _ev(tmp_path, goal, [], name="invoices.csv", text=_INVOICES)
    from assistant.loop.figures import _file_tables
    found = repeated_values(_file_tables(ev.workspace, "invoices.csv")[0], goal)
    assert (found.values if found else None) == want, found


def test_no_repeat_is_said_as_none(tmp_path):
    from assistant.loop.figures import repeats_wrong

    goal = "Which invoice numbers appear more than once in invoices.csv?"
    ev = _ev(tmp_path, goal, [], name="invoices.csv", text="number,amount\nA-1,5\nA-2,6\n")
    assert repeats_wrong("None: every invoice number is in one row only.", ev) == ""
    assert "no value of the number column of invoices.csv is in more than one row" in repeats_wrong("A-1.", ev)


@pytest.mark.parametrize("answer, doubted", [
    ("The total of the invoices in invoices.csv including 19% VAT is 1000.00.", True),
    ("The total including 19% VAT is 892.50.", False),
    ("892.5 euros", False),
    ("750", True),  # the total without the VAT
])
def test_a_total_with_a_rate_put_on_it_is_checked(tmp_path, answer, doubted):
    """Batch DZ at a3c921a (DZG): "What is the total of the invoices in invoices.xlsx including 19% VAT?" was offered
    each invoice's share in percent as the example query and answered 1000.00 (750 * 1.19 = 892.50)."""
    from assistant.loop.figures import percent_total_wrong

    goal = "What is the total of the invoices in invoices.csv including 19% VAT?"
    ev = _ev(tmp_path, goal, [], name="invoices.csv", text="invoice,customer,amount\nR-1,Alba,100\nR-2,Brio,250\n"
             "R-3,Corvo,400\n")
    got = percent_total_wrong(answer, ev)
    assert bool(got) == doubted, got
    if doubted:
        sql = "SELECT ROUND(SUM(amount) * 1.19, 2) AS total FROM invoices"
        assert got == (f"the total of amount in invoices.csv including 19% VAT is 892.50 (call table_query with "
                       f"{json.dumps({'sql': sql})}), and the answer does not say so; e.g. the answer to copy: "
                       '"The total of amount in invoices.csv including 19% VAT is 892.50."'), got


@pytest.mark.parametrize("goal, factor", [
    ("How much is the sum of amount in invoices.csv after a 15% discount?", "0.85"),
    ("What is the total in invoices.csv with 10 percent tax?", "1.1"),
    ("What is the total in invoices.csv?", None),
    ("What percentage of the total in invoices.csv is Alba's?", None),  # a share, no rate
    ("Add 19% VAT to every amount in invoices.csv.", None),  # no total asked
])
def test_the_rate_a_goal_puts_on_a_total(tmp_path, goal, factor):
    from assistant.loop.figures import _file_tables
    from assistant.loop.table_goal import percent_on_total

    (tmp_path / "invoices.csv").write_text("invoice,amount\nR-1,100\nR-2,250\n")
    got = percent_on_total(_file_tables(tmp_path, "invoices.csv")[0], goal)
    assert (f"{got.factor.normalize():f}" if got else None) == factor, got


_CONTACTS = "name,email\nAnna,anna@x.org\nBen,ben.y.com\nCleo,cleo@z.net\nDan,dan-at-w.org\nEve,\n"


@pytest.mark.parametrize("goal, answer, doubted", [
    ("Which email addresses in contacts.csv are missing the @ sign?",
     "No email addresses in contacts.csv are missing the @ sign.", True),
    ("Which email addresses in contacts.csv are missing the @ sign?", "ben.y.com and dan-at-w.org", False),
    ("Which email addresses in contacts.csv are missing the @ sign?", "Ben's and Dan's.", False),  # by the row's name
    ("Which email addresses in contacts.csv are missing the @ sign?", "ben.y.com", True),  # Dan's left out
    ("Which email addresses in contacts.csv are missing the @ sign?", "Ben, Dan and anna@x.org", True),  # has one
    ("How many emails in contacts.csv have no @?", "2", False),
    ("How many emails in contacts.csv have no @?", "3 (Eve has none at all)", True),
])
def test_the_cells_without_a_sign_are_checked(tmp_path, goal, answer, doubted):
    """Batch DZ at a3c921a (DZI): "Which email addresses in contacts.csv are missing the @ sign?" grepped for "@",
    saw the lines with one, and answered that none is missing it (ben.y.com and dan-at-w.org are)."""
    from assistant.loop.figures import sign_missing_wrong

    ev = _ev(tmp_path, goal, [], name="contacts.csv", text=_CONTACTS)
    got = sign_missing_wrong(answer, ev)
    assert bool(got) == doubted, got
    if doubted and goal.startswith("Which"):
        sql = "SELECT * FROM contacts WHERE email NOT LIKE '%@%' AND TRIM(email) <> ''"
        assert (f"the email values of contacts.csv without '@' are ben.y.com (Ben); dan-at-w.org (Dan) (call "
                f"table_query with {json.dumps({'sql': sql})}); e.g. the answer to copy: "
                '"ben.y.com (Ben); dan-at-w.org (Dan)."') in got, got


_EXPENSES = "date,category,amount\n2026-11-02,Travel,120\n2026-11-03,Food,45.50\n2026-11-05,Office,30\n" \
    "2026-11-09,Travel,80\n2026-11-12,Food,12.25\n"


@pytest.mark.parametrize("goal, answer, doubted", [
    ("What is the total of expenses.csv without the Travel category?", "The total is 200.00.", True),
    ("What is the total of expenses.csv without the Travel category?", "87.75", False),
    ("What is the total of expenses.csv excluding Travel?", "287.75", True),  # every row
    ("What is the total of Travel in expenses.csv?", "200", False),  # the value picked, not left out
])
def test_a_total_that_leaves_a_value_out_is_checked(tmp_path, goal, answer, doubted):
    """Batch EZ at 865c16b (EZB): "What is the total of expenses.csv without the Travel category?" was offered
    WHERE category = 'Travel' as the example query, ran it, and answered its 200 (87.75)."""
    from assistant.loop.calls import _example_query
    from assistant.loop.figures import _file_tables, bounded_total_wrong

    ev = _ev(tmp_path, goal, [], name="expenses.csv", text=_EXPENSES)
    got = bounded_total_wrong(answer, ev)
    assert bool(got) == doubted, got
    op = "=" if "Travel in" in goal else "<>"
    assert _example_query(_file_tables(tmp_path, "expenses.csv")[0], goal) == \
        f"SELECT SUM(amount) FROM expenses WHERE category {op} 'Travel'"
    if doubted:
        assert got.startswith("the rows of expenses.csv whose category is other than 'Travel', add up to 87.75"), got


_ORDERS = "order,customer,amount\n1,Alba,100\n2,Brio,300\n3,Alba,200\n4,Corvo,250\n5,Brio,50\n6,Alba,240\n"


@pytest.mark.parametrize("answer, doubted", [
    ("The customer with the highest average order amount is Alba, with a total of 540.", True),
    ("Corvo, with an average amount of 250.", False),
    ("Corvo (250) and Alba (180).", True),  # a lower one named beside it
])
def test_the_group_with_the_highest_average_is_checked(tmp_path, answer, doubted):
    """Batch EZ at 865c16b (EZA): "Which customer in orders.csv has the highest average order amount?" was offered
    the top row's query, ran SUM per customer, and answered Alba (total 540, average 180; Corvo's average is 250)."""
    from assistant.loop.calls import _example_query
    from assistant.loop.figures import _file_tables, mean_ranking_wrong, not_the_extreme_row

    goal = "Which customer in orders.csv has the highest average order amount?"
    ev = _ev(tmp_path, goal, [], name="orders.csv", text=_ORDERS)
    got = mean_ranking_wrong(answer, ev)
    assert bool(got) == doubted, got
    assert not_the_extreme_row(answer, ev) == ""  # Brio's order of 300 is no group's average
    sql = "SELECT customer, ROUND(AVG(amount), 2) AS average FROM orders GROUP BY customer ORDER BY 2 DESC"
    assert _example_query(_file_tables(tmp_path, "orders.csv")[0], goal) == sql
    if doubted:
        assert got == (f"the highest average amount per customer in orders.csv is Corvo's (Corvo 250, Alba 180, Brio "
                       f"175; call table_query with {json.dumps({'sql': sql})}), and the answer does not name it "
                       'alone; e.g. the answer to copy: "Corvo, with an average amount of 250."'), got


@pytest.mark.parametrize("goal, answer, doubted", [
    ("Which product in products.csv has the longest name?",
     "The product with the longest name is 'Notebook' with a length of 7 characters.", True),
    ("Which product in products.csv has the longest name?", "Highlighter (11 characters).", False),
    ("Which product in products.csv has the longest name?", "Highlighter, with 10 letters.", True),  # miscounted
    ("Which product in products.csv has the shortest name?", "Pen", False),
    ("Which product in products.csv has the shortest name?", "Ruler", True),
])
def test_the_longest_text_of_a_column_is_checked(tmp_path, goal, answer, doubted):
    """Batch EZ at 865c16b (EZC): "Which product in products.csv has the longest name?" got no query and answered
    "'Notebook' with a length of 7 characters" (Highlighter, 11)."""
    from assistant.loop.figures import length_extreme_wrong

    ev = _ev(tmp_path, goal, [], name="products.csv", text="name,price\nPen,1.50\nNotebook,4.20\nStapler,7.90\n"
             "Highlighter,2.10\nRuler,0.99\n")
    got = length_extreme_wrong(answer, ev)
    assert bool(got) == doubted, got
    if doubted and "longest" in goal:
        sql = "SELECT name, LENGTH(name) AS characters FROM products WHERE name IS NOT NULL ORDER BY 2 DESC"
        assert got == (f"the longest name in products.csv is Highlighter, with 11 characters (call table_query with "
                       f"{json.dumps({'sql': sql})}), and the answer does not say so; e.g. the answer to copy: "
                       '"Highlighter (11 characters)."'), got


@pytest.mark.parametrize("goal, answer, doubted", [
    ("What is the second most common city in customers.csv?",
     "The second most common city in the `customers.csv` file is **Berlin**.", True),
    ("What is the second most common city in customers.csv?", "Hamburg (2 customers).", False),
    ("What is the second most common city in customers.csv?", "Hamburg or Berlin", True),
    ("Which is the third most common city in customers.csv?", "Munich and Cologne, one customer each.", False),
])
def test_the_value_ranked_nth_by_its_rows_is_checked(tmp_path, goal, answer, doubted):
    """Batch EZ at 865c16b (EZH): "What is the second most common city in customers.csv?" ran the counts per city
    and answered the first, Berlin (3), for Hamburg (2)."""
    from assistant.loop.calls import _example_query
    from assistant.loop.figures import _file_tables, nth_common_wrong

    ev = _ev(tmp_path, goal, [], name="customers.csv", text="name,city\nAda,Berlin\nBo,Hamburg\nCy,Berlin\n"
             "Di,Munich\nEd,Hamburg\nFa,Berlin\nGu,Cologne\n")
    got = nth_common_wrong(answer, ev)
    assert bool(got) == doubted, got
    sql = ("SELECT city, COUNT(*) AS rows_ FROM customers WHERE city IS NOT NULL GROUP BY city ORDER BY 2 DESC")
    assert _example_query(_file_tables(tmp_path, "customers.csv")[0], goal) == sql
    if doubted:
        assert got.endswith('e.g. the answer to copy: "Hamburg (2 rows)."'), got


@pytest.mark.parametrize("goal, answer, doubted", [
    ("Which year in revenue.csv grew the most compared to the year before?",
     "The year in revenue.csv that grew the most compared to the year before is 2025, with a total revenue of 160000.",
     True),
    ("Which year in revenue.csv grew the most compared to the year before?", "2024, by 30,000.", False),
    ("Which year in revenue.csv had the biggest increase over the previous year?", "2022 (+20000)", True),
])
def test_the_row_that_changed_most_from_the_row_before_is_checked(tmp_path, goal, answer, doubted):
    """Batch GZ at 833d98d (GZC): "Which year in revenue.csv grew the most compared to the year before?" queried the
    highest revenue and answered 2025 (160000, +4000) for 2024 (+30000)."""
    from assistant.loop.calls import _example_query
    from assistant.loop.figures import _file_tables, step_change_wrong

    ev = _ev(tmp_path, goal, [], name="revenue.csv", text="year,revenue\n2021,100000\n2022,120000\n2023,126000\n"
             "2024,156000\n2025,160000\n")
    got = step_change_wrong(answer, ev)
    assert bool(got) == doubted, got
    sql = ("SELECT year, revenue, revenue - LAG(revenue) OVER (ORDER BY year) AS change FROM revenue ORDER BY change "
           "DESC NULLS LAST")
    assert _example_query(_file_tables(tmp_path, "revenue.csv")[0], goal) == sql
    if doubted:
        assert got.startswith("ordered by year, the revenue of revenue.csv grew the most at 2024 (+30,000 from the "
                              "year before;"), got
        assert got.endswith('e.g. the answer to copy: "2024: revenue grew by 30,000."'), got
