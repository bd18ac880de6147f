"""table_query: exact group totals and top-N over workspace CSV files and every
sheet of a workbook, typed columns, the naming rule, the row cap, and a query
that cannot reach anything outside the workspace or change anything."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("duckdb")
openpyxl = pytest.importorskip("openpyxl")

from tools.base import RiskClass  # noqa: E402
from tools.tables import TABLE_TOOLS, load_tables, table_query  # noqa: E402
from tools.tables.naming import sql_name, table_name  # noqa: E402
from tool_helpers import call  # noqa: E402  (the `ctx` fixture is in conftest.py)

SALES = [("North", "Ana", "1200.00"), ("South", "Ben", "950.50"), ("East", "Chloe", "700.00"),
         ("North", "Eva", "430.00"), ("South", "Finn", "610.00"), ("West", "Dev", "1320.00"), ("North", "Ana", "515.00")]


def write_csv(ctx, path: str, header: list[str], rows) -> None:
    lines = [",".join(header)] + [",".join(str(v) for v in r) for r in rows]
    ctx.workspace.write_text(path, "\n".join(lines) + "\n")


def write_xlsx(ctx, path: str, sheets: dict[str, list[list]]) -> None:
    import io

    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for title, rows in sheets.items():
        ws = wb.create_sheet(title)
        for r in rows:
            ws.append(r)
    buf = io.BytesIO()
    wb.save(buf)
    ctx.workspace.write_bytes(path, buf.getvalue())


def q(ctx, sql: str):
    return call(table_query, ctx, sql=sql)


@pytest.fixture
def sales(ctx):
    write_csv(ctx, "sales.csv", ["Region", "Rep", "Amount"], SALES)
    return ctx


@pytest.fixture
def expenses(ctx):
    write_xlsx(ctx, "expenses.xlsx", {
        "Q1": [["Category", "Cost"], ["Rent", 1000], ["Food", 250.5], ["Travel", 80]],
        "Q2": [["Category", "Cost"], ["Rent", 1000], ["Food", 310], ["Travel", 420]],
    })
    return ctx


def test_is_a_read_tool_listed_in_table_tools():
    assert TABLE_TOOLS == [table_query]
    assert table_query.risk == RiskClass.READ
    assert "SELECT region, SUM(amount) FROM sales GROUP BY region" in table_query.description
    assert "expenses_q1" in table_query.description


def test_group_totals_from_a_csv_are_exact(sales):
    r = q(sales, "SELECT region, SUM(amount) AS total FROM sales GROUP BY region ORDER BY region")
    assert not r.error, r.text
    assert r.data["rows"] == [["East", "700.00"], ["North", "2145.00"], ["South", "1560.50"], ["West", "1320.00"]]
    assert r.text.splitlines()[0] == "4 rows:"
    assert r.untrusted  # cell text comes from a document


def test_a_bare_expression_of_subqueries_is_its_value(expenses):
    """xlsx_two_sheet_total at b5a954c: "(SELECT ...) + (SELECT ...)" was a parser error three times over."""
    r = q(expenses, "(SELECT SUM(cost) FROM expenses_q1 WHERE category = 'Travel') + "
                    "(SELECT SUM(cost) FROM expenses_q2 WHERE category = 'Travel')")
    assert not r.error, r.text
    assert float(r.data["rows"][0][0]) == 500.0
    union = q(expenses, "(SELECT category FROM expenses_q1) UNION (SELECT category FROM expenses_q2)")
    assert not union.error and sorted(row[0] for row in union.data["rows"]) == ["Food", "Rent", "Travel"]
    assert q(expenses, "(SELECT FROM").error  # still an error, told as one


def test_a_column_not_found_gets_the_query_with_the_column_duckdb_suggests(ctx):
    """multistep_invoices_memo at f000187: "SELECT SUM(Amount) FROM invoices" three times against the column
    amount_due ("Candidate bindings: amount_due"), and the steps ran out."""
    write_csv(ctx, "invoices.csv", ["Invoice", "Amount due"], [("INV-101", "1200.00"), ("INV-102", "349.50")])
    r = q(ctx, "SELECT SUM(Amount) FROM invoices")
    assert r.error and 'Did you mean: {"sql": "SELECT SUM(amount_due) FROM invoices"}?' in r.text
    assert not q(ctx, "SELECT SUM(amount_due) FROM invoices").error
    r = q(ctx, "SELECT SUM(price) FROM invoices WHERE nothing = 1")  # no suggestion that runs: none given
    assert r.error and "Did you mean" not in r.text


def test_top_n_from_a_csv(sales):
    r = q(sales, "SELECT rep, SUM(amount) AS total FROM sales GROUP BY rep ORDER BY total DESC LIMIT 2")
    assert r.data["rows"] == [["Ana", "1715.00"], ["Dev", "1320.00"]]


def test_result_is_an_aligned_table_with_numbers_right_aligned(sales):
    r = q(sales, "SELECT region, SUM(amount) AS total FROM sales GROUP BY region ORDER BY total DESC")
    lines = r.text.splitlines()
    assert lines[1].split("|")[0].strip() == "region" and lines[2].startswith("-------")
    assert lines[3] == "North  | 2145.00"
    assert lines[4] == "South  | 1560.50"
    assert len({line.index("|") for line in lines[3:]}) == 1


def test_every_sheet_of_a_workbook_is_a_table(expenses):
    r = q(expenses, "SELECT a.category, a.cost + b.cost AS half_year FROM expenses_q1 a "
                    "JOIN expenses_q2 b USING (category) ORDER BY half_year DESC LIMIT 1")
    assert r.data["rows"] == [["Rent", "2000.0"]]
    r = q(expenses, "SELECT SUM(cost) FROM expenses_q2")
    assert r.data["rows"] == [["1730"]]


def test_sums_of_money_are_exact_not_binary_floating_point(ctx):
    from decimal import Decimal

    # ten amounts near 1e12 with cents: their sum needs 16 significant digits, beyond a DOUBLE
    amounts = [f"{1234567890123 + i * 1000003}.{(i * 37) % 100:02d}" for i in range(10)]
    write_csv(ctx, "ledger.csv", ["Amount"], [[a] for a in amounts])
    r = q(ctx, "SELECT SUM(amount) FROM ledger")
    assert r.data["rows"] == [[str(sum(Decimal(a) for a in amounts))]]


def test_a_result_reports_each_plain_columns_header_as_its_file_writes_it(ctx):
    ctx.workspace.write_text("orders.csv", "Order,Unit Price (EUR),Qty\nA-1,2.50,4\n")
    ctx.workspace.write_text("stock.csv", "qty,Shelf\n3,B\n")
    r = q(ctx, "SELECT order_, unit_price_eur, qty, qty * 2 AS twice FROM orders")
    assert r.data["columns"] == ["order_", "unit_price_eur", "qty", "twice"]
    # qty is also stock.csv's column, but only orders is queried
    assert r.data["headers"] == ["Order", "Unit Price (EUR)", "Qty", "twice"]
    both = q(ctx, "SELECT o.qty FROM orders o JOIN stock s ON o.qty > s.qty")
    assert both.data["headers"] == ["qty"]  # "Qty" or "qty": not known which, the SQL name stays


def test_very_precise_or_exponent_numbers_are_double(ctx):
    ctx.workspace.write_text("m.csv", "x,y\n0.1234567,1e3\n2,3\n")
    tables, _ = load_tables(ctx)
    assert {c.name: c.sql_type for c in tables[0].columns} == {"x": "DOUBLE", "y": "DOUBLE"}


def test_amounts_written_as_text_sum_exactly(ctx):
    # multistep_invoices_memo at 043112d: the model wrote "1,200.00 EUR" as text into a new workbook, and
    # SUM(amount) failed on a VARCHAR column
    write_xlsx(ctx, "invoices.xlsx", {"Sheet1": [["Invoice", "Amount"], ["INV-101", "1,200.00 EUR"],
                                                 ["INV-102", "349.50 EUR"], ["INV-103", 86.25]]})
    ctx.workspace.write_text("paid.csv", 'who,paid\nAna,"$1,845.25"\nBen,$5\n')
    assert q(ctx, "SELECT SUM(amount) FROM invoices").data["rows"] == [["1635.75"]]
    assert q(ctx, "SELECT SUM(paid) FROM paid").data["rows"] == [["1850.25"]]


def test_text_that_may_not_be_money_stays_text(ctx):
    # two currencies must not be added; "1,200" alone may be a decimal comma; a code keeps its leading zero
    ctx.workspace.write_text("t.csv", 'mixed,bare,code,word\n"1,200.00 EUR","1,200",0170,5 apples\n'
                                      '$5,"3,500",0180,6 pears\n')
    tables, _ = load_tables(ctx)
    assert {c.name: c.sql_type for c in tables[0].columns} == {
        "mixed": "VARCHAR", "bare": "VARCHAR", "code": "VARCHAR", "word": "VARCHAR"}
    assert tables[0].columns[0].values == ["1,200.00 EUR", "$5"]


def test_a_sheets_closing_total_row_is_left_out_and_said(ctx):
    # xlsx_total at 8b795c9: Qwen 1.5B wrote "Total" and 389.9 under the amounts, queried SUM(amount) again and got
    # 779.8, the total counted twice, and wrote that as a second total
    rows = [["Date", "Item", "Amount"], ["2026-11-02", "Groceries", 84.2], ["2026-11-03", "Bus pass", 49],
            ["2026-11-07", "Pharmacy", 12.35]]
    write_xlsx(ctx, "expenses.xlsx", {"Expenses": [*rows, [None, "Total", 145.55]]})
    r = q(ctx, "SELECT SUM(amount), COUNT(*) FROM expenses")
    assert r.data["rows"] == [["145.55", "3"]]
    assert "leaves out the row of totals under the data of expenses.xlsx, sheet Expenses ('Total', 145.55)" in r.text
    assert "row of totals" not in q(ctx, "SELECT 1 AS one").text  # said only where the query reads that table
    # a grand total under subtotals, an uncomputed formula (an empty cell) and a CSV amount
    write_xlsx(ctx, "expenses.xlsx", {"Expenses": [*rows, ["Subtotal", None, 145.55], ["Grand total", None, None]]})
    ctx.workspace.write_text("paid.csv", 'who,paid\nAna,"$1,845.25"\nBen,$5\nCy,$10\nTOTAL:,"$1,860.25"\n')
    assert q(ctx, "SELECT SUM(amount) FROM expenses").data["rows"] == [["145.55"]]
    assert q(ctx, "SELECT SUM(paid), COUNT(*) FROM paid").data["rows"] == [["1860.25", "3"]]
    # a total row with no number (its formula never computed here) is left out unsaid: at f80ed26 "leaves out the
    # total row ('Total')" was answered as "the sum was not computed"
    write_xlsx(ctx, "expenses.xlsx", {"Expenses": [*rows, [None, "Total", None]]})
    r = q(ctx, "SELECT SUM(amount), COUNT(*) FROM expenses")
    assert r.data["rows"] == [["145.55", "3"]] and "row of totals" not in r.text
    # a row that only starts with such a word, one in the middle, or with text after it is data
    write_xlsx(ctx, "expenses.xlsx", {"Expenses": [*rows[:2], ["Total", "Total Gym", 30], *rows[2:],
                                                   ["2026-11-09", "Sum of parts", 7], ["Total", "refund", -7]]})
    assert q(ctx, "SELECT COUNT(*) FROM expenses").data["rows"] == [["6"]]


def test_csv_and_workbook_in_one_query(sales, expenses):
    r = q(sales, "SELECT (SELECT SUM(amount) FROM sales) - (SELECT SUM(cost) FROM expenses_q1) AS margin")
    assert r.data["rows"] == [["4395.00"]]


def test_columns_are_typed(ctx):
    ctx.workspace.write_text("mixed.csv", "id,zip,when,ok,price,note\n1,0123,2026-01-03,true,2.5,a\n"
                                          "2,0456,2026-02-01,false,3,\n")
    write_xlsx(ctx, "book.xlsx", {"Data": [["Day", "N"], [__import__("datetime").datetime(2026, 3, 1), 4]]})
    tables, notes = load_tables(ctx)
    types = {t.name: {c.name: c.sql_type for c in t.columns} for t in tables}
    assert types["mixed"] == {"id": "BIGINT", "zip": "VARCHAR", "when_": "DATE", "ok": "BOOLEAN",
                              "price": "DECIMAL(18,1)", "note": "VARCHAR"}
    assert types["book"] == {"day": "DATE", "n": "BIGINT"}
    assert q(ctx, "SELECT MAX(\"when_\") - MIN(\"when_\") FROM mixed").data["rows"] == [["29"]]


def test_naming_rule_odd_characters_digits_reserved_words_and_clashes(ctx):
    assert sql_name("Unit Price (EUR)", prefix="c_", fallback="x") == "unit_price_eur"
    assert sql_name("2024-sales", prefix="t_", fallback="x") == "t_2024_sales"
    assert sql_name("Order", prefix="c_", fallback="x") == "order_"
    assert sql_name("€€", prefix="c_", fallback="column_3") == "column_3"
    assert table_name("expenses", "Q2 (est.)") == "expenses_q2_est"
    write_csv(ctx, "sales.csv", ["A"], [[1]])
    write_csv(ctx, "old/sales.csv", ["A"], [[2]])
    write_xlsx(ctx, "sales.xlsx", {"Only": [["A"], [3]]})
    tables, _ = load_tables(ctx)
    assert [(t.name, t.source) for t in tables] == [
        ("sales", "sales.csv"), ("sales_2", "sales.xlsx, sheet Only"), ("sales_3", "old/sales.csv")]


def test_row_cap_and_total_count(sales):
    rows = [(f"r{i}", i) for i in range(130)]
    write_csv(sales, "big.csv", ["Name", "N"], rows)
    r = q(sales, "SELECT * FROM big ORDER BY n")
    assert r.data["total_rows"] == 130 and len(r.data["rows"]) == 50
    assert r.text.splitlines()[0].startswith("130 rows; showing the first 50")
    assert len(r.text.splitlines()) == 1 + 2 + 50


@pytest.mark.parametrize("sql", [
    "SELECT * FROM read_csv('{outside}')",
    "SELECT * FROM '{outside}'",
    "SELECT * FROM read_text('{outside}')",
    "COPY sales TO '{copy_to}'",
    "ATTACH '{attach}' AS other",
    "INSTALL httpfs",
    "LOAD httpfs",
    "SET enable_external_access = true",
    "CREATE TABLE t AS SELECT 1",
    "DROP TABLE sales",
    "SELECT 1; DROP TABLE sales",
])
def test_nothing_outside_the_workspace_is_read_or_written(sales, tmp_path, sql):
    outside = tmp_path / "secret.csv"
    outside.write_text("password\nhunter2\n")
    copy_to, attach = tmp_path / "copy.csv", tmp_path / "other.db"
    r = q(sales, sql.format(outside=outside, copy_to=copy_to, attach=attach))
    assert r.error
    assert "hunter2" not in r.text
    assert not copy_to.exists() and not attach.exists()
    assert len(r.text.splitlines()) == 1


def test_a_symlink_pointing_outside_is_not_followed(sales, tmp_path):
    outside = tmp_path / "outside.csv"
    outside.write_text("secret\nhunter2\n")
    os.symlink(outside, sales.workspace.root / "leak.csv")
    tables, _ = load_tables(sales)
    assert [t.name for t in tables] == ["sales"]
    r = q(sales, "SELECT * FROM leak")
    assert r.error and "hunter2" not in r.text


def test_syntax_error_is_one_line_naming_the_tables(sales, expenses):
    r = q(sales, "SELEC region FROM sales")
    assert r.error
    assert len(r.text.splitlines()) == 1
    assert r.text.startswith("table_query: SQL error:")
    assert "sales(region VARCHAR, rep VARCHAR, amount DECIMAL(18,2)) from sales.csv" in r.text
    assert "expenses_q1(category VARCHAR, cost DECIMAL(18,1)) from expenses.xlsx, sheet Q1" in r.text


def test_unknown_table_names_the_tables(sales):
    r = q(sales, "SELECT * FROM revenue")
    assert r.error and len(r.text.splitlines()) == 1
    assert "revenue" in r.text and "Tables: sales(" in r.text


def test_no_tables_in_the_workspace_says_what_it_reads_and_an_expression_needs_none(ctx):
    ctx.workspace.write_text("notes.txt", "hello\n")
    r = q(ctx, "SELECT * FROM notes")
    assert r.error and "no CSV, TSV, Excel or Word tables" in r.text
    # a held-out task at a6267c9: the amounts of invoices.pdf had no tool to add them up, and one was given as the
    # total; the sum of the amounts a document lists is an expression
    r = q(ctx, "SELECT 410.00 + 35.50 + 189.90 AS total")
    assert not r.error and "635.40" in r.text, r.text


def test_a_changed_file_is_reloaded(sales):
    assert q(sales, "SELECT COUNT(*) FROM sales").data["rows"] == [["7"]]
    write_csv(sales, "sales.csv", ["Region", "Rep", "Amount"], SALES[:2] + [("Far", "Zed", 1)])
    assert q(sales, "SELECT COUNT(*) FROM sales").data["rows"] == [["3"]]


def test_an_unreadable_file_is_skipped_with_a_note(sales):
    sales.workspace.write_bytes("broken.xlsx", b"not a zip")
    r = q(sales, "SELECT COUNT(*) FROM sales")
    assert r.data["rows"] == [["7"]]
    assert "Not loaded: skipped broken.xlsx" in r.text


def test_a_runaway_query_is_interrupted(sales):
    from tools.base import ToolError
    from tools.tables.query import _connect, run_query

    tables, _ = load_tables(sales)
    con = _connect(tables)
    try:
        with pytest.raises(ToolError, match="was stopped"):
            run_query(con, "SELECT SUM(a.range * b.range) FROM range(1000000) a, range(1000000) b", timeout_s=0.2)
    finally:
        con.close()


def test_a_workbooks_sheets_with_the_same_columns_are_also_one_table(expenses):
    """xlsx_two_sheet_total at 462ec82: Qwen 1.5B added two sheets' sums in one SELECT and wrote
    WHERE category = 'Travel' + (SELECT ...): a conversion error. One table of both needs no such join."""
    r = q(expenses, "SELECT SUM(cost) FROM expenses WHERE category = 'Travel'")
    assert r.data["rows"] == [["500.0"]]
    r = q(expenses, "SELECT sheet, SUM(cost) AS total FROM expenses GROUP BY sheet ORDER BY sheet")
    assert r.data["rows"] == [["Q1", "1330.5"], ["Q2", "1730.0"]]
    assert "expenses(sheet VARCHAR, category VARCHAR, cost DECIMAL(18,1)) from expenses.xlsx, all 2 sheets" in \
        q(expenses, "SELECT nope FROM expenses").text


def test_sheets_that_differ_or_a_file_of_that_name_leave_no_all_sheets_table(ctx):
    write_xlsx(ctx, "budget.xlsx", {"Jan": [["Item", "Cost"], ["Rent", 10]], "Notes": [["Text"], ["hi"]]})
    write_xlsx(ctx, "mixed.xlsx", {"A": [["Item", "Cost"], ["Rent", 10]], "B": [["Item", "Cost"], ["Rent", "n/a"]]})
    write_xlsx(ctx, "sub/expenses.xlsx", {"Q1": [["Cost"], [1]], "Q2": [["Cost"], [2]]})
    write_csv(ctx, "expenses.csv", ["Cost"], [[5]])
    names = {t.name for t in load_tables(ctx)[0]}
    assert {"budget_jan", "budget_notes", "mixed_a", "mixed_b", "expenses", "expenses_q1"} <= names
    assert not names & {"mixed", "expenses_2"}
    # the workbook's own name reads its first sheet, and the sheets shaped like it (below)
    assert q(ctx, "SELECT SUM(cost) FROM budget").data["rows"] == [["10"]]
    assert q(ctx, "SELECT SUM(cost) FROM expenses").data["rows"] == [["5"]]  # the CSV keeps its name


def test_a_sheet_a_task_adds_never_changes_what_the_workbooks_name_reads(ctx):
    """xlsx_top_vendors at 0417c73: after the sheet "Top 5" was added to spending.xlsx, "FROM spending" (its table
    while it had one sheet) failed, and the task stalled. A summary sheet added to a workbook of months keeps its
    name the months' union, not the first month."""
    data = [["Vendor", "Amount"], ["Acme", 120], ["Bolt", 80]]
    write_xlsx(ctx, "spending.xlsx", {"2026": data})
    before = q(ctx, "SELECT vendor, SUM(amount) FROM spending GROUP BY vendor ORDER BY 2 DESC").data["rows"]
    write_xlsx(ctx, "spending.xlsx", {"2026": data, "Top 5": [["Vendor", "Total"], ["Acme", 120]]})
    assert q(ctx, "SELECT vendor, SUM(amount) FROM spending GROUP BY vendor ORDER BY 2 DESC").data["rows"] == before
    assert "spending(vendor VARCHAR, amount BIGINT) from spending.xlsx, sheet 2026 (the first sheet)" in \
        q(ctx, "SELECT nope FROM spending").text
    months = {m: [["Item", "Cost"], ["Rent", 10 * i]] for i, m in enumerate(("Jan", "Feb", "Mar"), 1)}
    write_xlsx(ctx, "budget.xlsx", {**months, "Summary": [["Month", "Total"], ["Jan", 10]]})
    assert q(ctx, "SELECT SUM(cost) FROM budget").data["rows"] == [["60"]]
    assert "from budget.xlsx, sheets Jan, Feb, Mar (column sheet names the sheet)" in \
        q(ctx, "SELECT nope FROM budget").text


def write_docx(ctx, path: str, tables: list[list[list[str]]], text: str = "Quote for Birch Ltd") -> None:
    import io

    import docx

    doc = docx.Document()
    doc.add_paragraph(text)
    for rows in tables:
        table = doc.add_table(rows=0, cols=len(rows[0]))
        for row in rows:
            for cell, value in zip(table.add_row().cells, row):
                cell.text = value
        doc.add_paragraph("")
    buf = io.BytesIO()
    doc.save(buf)
    ctx.workspace.write_bytes(path, buf.getvalue())


def test_a_word_documents_table_is_a_table(ctx):
    # a held-out task at a6267c9: "What is the total of the Amount column in the table in quote.docx?" was added
    # up by hand from docx_read's Markdown table (1263.5, the quantities counted in; the amounts make 963.5)
    write_docx(ctx, "quote.docx", [[["Item", "Qty", "Amount"], ["Desk", "2", "480.00"], ["Chair", "4", "396.00"],
                                    ["Lamp", "3", "87.50"]]])
    tables, notes = load_tables(ctx)
    assert [(t.name, t.source, [(c.name, c.sql_type) for c in t.columns]) for t in tables] == [
        ("quote", "quote.docx, table 1", [("item", "VARCHAR"), ("qty", "BIGINT"), ("amount", "DECIMAL(18,2)")])]
    r = q(ctx, "SELECT SUM(amount) AS total FROM quote")
    assert not r.error and "963.50" in r.text


def test_a_word_documents_tables_are_numbered_and_a_spreadsheet_keeps_its_name(ctx):
    write_docx(ctx, "sales.docx", [[["Name", "Score"], ["Ana", "3"]], [["City", "Pop"], ["Oslo", "700"]]])
    write_csv(ctx, "sales.csv", ["A"], [[1]])
    write_docx(ctx, "memo.docx", [], text="No table here.")
    ctx.workspace.write_bytes("broken.docx", b"PK\x03\x04 not a zip")
    tables, notes = load_tables(ctx)
    assert [(t.name, t.source) for t in tables] == [
        ("sales", "sales.csv"), ("sales_table_1", "sales.docx, table 1"), ("sales_table_2", "sales.docx, table 2")]
    assert notes == []  # a Word document that cannot be read is no table file to report
    assert "700" in q(ctx, "SELECT pop FROM sales_table_2").text


def test_a_table_file_named_in_from_is_read_as_its_table(ctx):
    # a held-out task at a6267c9: "SELECT price FROM prices.csv ORDER BY price" failed ("file system operations are
    # disabled by configuration"), and the median was answered by eye
    write_csv(ctx, "prices.csv", ["item", "price"], [["A", 4], ["B", 10], ["C", 7]])
    write_csv(ctx, "data/costs.csv", ["item", "cost"], [["A", 1]])
    r = q(ctx, "SELECT MEDIAN(price) AS m FROM prices.csv")
    assert not r.error and "7" in r.text.split("\n")[3] and \
        "(FROM prices.csv was read as the table prices: name tables so.)" in r.text, r.text
    r = q(ctx, "SELECT p.item, c.cost FROM 'prices.csv' p JOIN costs.csv c ON p.item = c.item")
    assert not r.error and "(FROM costs.csv was read as the table costs: name tables so.)" in r.text, r.text
    r = q(ctx, "SELECT * FROM prices WHERE item <> 'prices.csv'")
    assert not r.error and "was read as" not in r.text
    r = q(ctx, "SELECT * FROM '/etc/passwd'")
    assert r.error
