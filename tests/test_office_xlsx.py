"""Excel tools: formulas with cached values (and their absence), merged cells,
writes with number formats, appends, streaming of large sheets, and the
LibreOffice recalculation path with and without ``soffice``."""

from __future__ import annotations

import io
import re
import sys
import zipfile

import pytest
from pydantic import ValidationError

openpyxl = pytest.importorskip("openpyxl")

from tools.base import RiskClass, ToolContext  # noqa: E402
from tools.office import xlsx as xlsx_mod  # noqa: E402
from tools.office.xlsx import xlsx_info, xlsx_read  # noqa: E402
from tools.office.xlsx_write import xlsx_add_sheet, xlsx_append_rows, xlsx_recalc, xlsx_write  # noqa: E402
from tool_helpers import call  # noqa: E402  (the `ctx` fixture is in conftest.py)


@pytest.fixture
def no_soffice(monkeypatch):
    monkeypatch.setattr("shutil.which", lambda name, *a, **k: None)


def wb_bytes(wb) -> bytes:
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def sales_book() -> bytes:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Sales"
    ws.append(["Dept", "Amount"])
    ws.append(["North", 10])
    ws.append(["South", 20])
    ws.append(["East", 30])
    ws["B5"] = "=SUM(B2:B4)"
    ws["A7"] = "Merged note"
    ws.merge_cells("A7:B7")
    return wb_bytes(wb)


def with_cached_value(data: bytes, value: str) -> bytes:
    """Put a cached value into the SUM formula cell, as Excel would have."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            blob = src.read(info.filename)
            if info.filename == "xl/worksheets/sheet1.xml":
                blob, n = re.subn(rb"(<f>SUM\(B2:B4\)</f>)(<v\s*/>|<v></v>)?", rb"\1<v>" + value.encode() + b"</v>", blob)
                assert n == 1
            dst.writestr(info, blob)
    return out.getvalue()


def test_read_shows_formula_and_cached_value(ctx):
    ctx.workspace.write_bytes("s.xlsx", with_cached_value(sales_book(), "60"))
    res = call(xlsx_read, ctx, path="s.xlsx")
    assert not res.error, res.text
    assert res.untrusted
    assert "| 5 |  | =SUM(B2:B4) → 60 |" in res.text
    assert "| 2 | North | 10 |" in res.text
    assert "no cached value" not in res.text
    assert "A7:B7" in res.text and res.data["merged"] == ["A7:B7"]


def test_read_names_the_other_sheets(ctx):
    """xlsx_two_sheet_total: Qwen 1.5B read sheet Q1 of a two-quarter workbook and never learnt Q2 existed."""
    wb = openpyxl.Workbook()
    wb.active.title = "Q1"
    wb.active.append(["Category", "Amount"])
    wb.create_sheet("Q2").append(["Category", "Amount"])
    ctx.workspace.write_bytes("e.xlsx", wb_bytes(wb))
    assert 'This workbook has 1 more sheet: "Q2" (read one with sheet=NAME).' in call(xlsx_read, ctx, path="e.xlsx").text
    assert '1 more sheet: "Q1"' in call(xlsx_read, ctx, path="e.xlsx", sheet="Q2").text
    ctx.workspace.write_bytes("s.xlsx", sales_book())
    assert "more sheet" not in call(xlsx_read, ctx, path="s.xlsx").text


def test_write_puts_rows_below_its_own_cells_not_over_them(ctx):
    """csv_to_xlsx: Qwen 1.5B set the header with cells A1:C1 and the data with rows from A1, so the header was
    lost; refused, it sent the same call three times. The rows now go below the cells."""
    header = [{"cell": c, "value": v} for c, v in (("A1", "Name"), ("B1", "Email"), ("C1", "City"))]
    rows = [["Ines", "ines@example.org", "Porto"], ["Tom", "tom@example.org", "Leeds"]]
    res = call(xlsx_write, ctx, path="c.xlsx", cells=header, rows=rows)
    assert not res.error and "The rows start at A2, below the cells this call sets (A1, B1, C1)" in res.text
    ws = openpyxl.load_workbook(ctx.workspace.resolve("c.xlsx")).active
    assert [[c.value for c in r] for r in ws.iter_rows()] == [["Name", "Email", "City"], *rows]


def test_rows_never_overwrite_data_unless_asked(ctx):
    """xlsx_top_vendors: asked to add a sheet "Top 5", Qwen 1.5B wrote its rows from A1 of the user's data sheet."""
    ctx.workspace.write_bytes("s.xlsx", sales_book())
    res = call(xlsx_write, ctx, path="s.xlsx", rows=[["Top 5", "Total"], ["Cafe", 20]])
    assert res.error and "would overwrite 4 cells of sheet 'Sales' that hold data: A1 ('Dept')" in res.text
    assert "xlsx_add_sheet" in res.text and "start='A9'" in res.text
    assert openpyxl.load_workbook(ctx.workspace.resolve("s.xlsx")).active["A1"].value == "Dept"
    assert not call(xlsx_write, ctx, path="s.xlsx", rows=[["Top 5", "Total"]], start="A9").error  # below the data
    res = call(xlsx_write, ctx, path="s.xlsx", rows=[["Region", "Amount"]], replace_data=True)
    assert not res.error and openpyxl.load_workbook(ctx.workspace.resolve("s.xlsx")).active["A1"].value == "Region"
    assert not call(xlsx_write, ctx, path="s.xlsx", cells=[{"cell": "B2", "value": 11}]).error  # one cell: an edit


def test_output_and_from_csv_naming_the_workbook_written_are_left_out(ctx):
    """multistep_invoices_memo at 1c5fa31: Qwen 1.5B filled every parameter of xlsx_write for a new invoices.xlsx,
    from_csv and output both "invoices.xlsx", its rows given; "from_csv must name a .csv" cost a step."""
    args = {"path": "invoices.xlsx", "cells": [{"cell": "A1", "value": "Invoice"}, {"cell": "B1", "value": "Amount"}],
            "rows": [["INV-101", "1,200.00"], ["INV-102", "349.50"]], "start": "A1", "from_csv": "invoices.xlsx",
            "sheet": "Q1", "output": "invoices.xlsx", "replace_data": False}
    res = call(xlsx_write, ctx, **args)
    assert not res.error, res.text
    ws = openpyxl.load_workbook(ctx.workspace.resolve("invoices.xlsx"))["Q1"]
    assert [[c.value for c in r] for r in ws.iter_rows()] == [["Invoice", "Amount"], ["INV-101", 1200],
                                                               ["INV-102", 349.5]]
    # a CSV to copy, or another output, stays
    assert xlsx_write.validate({"path": "a.xlsx", "from_csv": "a.csv", "rows": [["x"]]}).from_csv == "a.csv"
    assert xlsx_write.validate({"path": "a.xlsx", "output": "b.xlsx", "rows": [["x"]]}).output == "b.xlsx"
    # nothing else to write: the mistake is the tool's to report
    assert xlsx_write.validate({"path": "a.xlsx", "from_csv": "a.xlsx"}).from_csv == "a.xlsx"


def test_a_grid_passed_as_cells_is_written_as_rows_and_a_csv_path_is_sent_to_csv_write(ctx):
    """csv_top_customers: Qwen 1.5B called xlsx_write on top3.csv with cells=[["Customer", "Total"], ...] (a grid),
    was told each item must be a CellWrite, wrote {"cell": "Customer"} and ran out of time."""
    grid = [["Customer", "Total"], ["Harbor", 1845.25]]
    res = call(xlsx_write, ctx, path="top.xlsx", cells=grid)
    assert not res.error, res.text
    ws = openpyxl.load_workbook(ctx.workspace.resolve("top.xlsx")).active
    assert [[c.value for c in r] for r in ws.iter_rows()] == grid
    res = call(xlsx_write, ctx, path="top3.csv", cells=grid)
    assert res.error and "is a CSV file, not a workbook; write it with csv_write" in res.text
    assert not ctx.workspace.exists("top3.csv")
    with pytest.raises(ValidationError):  # a grid beside real rows is not guessed at
        xlsx_write.validate({"path": "x.xlsx", "cells": [["a"]], "rows": [["b"]]})
    with pytest.raises(ValidationError):
        xlsx_write.validate({"path": "x.xlsx", "cells": [["a"], ["c"]], "rows": [["b", "d"]]})
    cells = [{"cell": "A1", "value": "Name"}, {"cell": "A2", "value": "Ines"}]  # csv_to_xlsx at 237b37e
    assert [c.cell for c in xlsx_write.validate({"path": "x.xlsx", "rows": cells}).cells] == ["A1", "A2"]
    # csv_to_xlsx at 4df8dd6: each row wrapped in an object, {"row": [...]}; refused, then one row of five written
    wrapped = [{"row": ["Ines Costa", "Porto"]}, {"row": ["Tom Baker", "Leeds"]}]
    assert xlsx_write.validate({"path": "x.xlsx", "rows": wrapped}).rows == [["Ines Costa", "Porto"],
                                                                             ["Tom Baker", "Leeds"]]
    # a one-value row beside a grid is a placeholder (multistep_invoices_memo at b5a954c: rows=[["Header row"]])
    assert xlsx_write.validate({"path": "x.xlsx", "cells": grid, "rows": [["Header row"]]}).rows == grid
    ctx.workspace.write_bytes("s.xlsx", sales_book())  # xlsx_total: rows=[["C10", 389.9]] meant cell C10
    res = call(xlsx_write, ctx, path="s.xlsx", cells=[{"cell": "B10", "value": "Total"}], rows=[["C10", 389.9]])
    assert not res.error, res.text
    ws = openpyxl.load_workbook(ctx.workspace.resolve("s.xlsx")).active
    assert (ws["B10"].value, ws["C10"].value, ws["A1"].value) == ("Total", 389.9, "Dept")


def test_read_says_when_cached_values_are_missing(ctx):
    ctx.workspace.write_bytes("s.xlsx", sales_book())  # openpyxl never computes formulas
    res = call(xlsx_read, ctx, path="s.xlsx", range="A1:B5")
    assert "=SUM(B2:B4) → ?" in res.text
    assert "1 of 1 formulas have no cached value" in res.text and "not zero" in res.text
    assert res.data["missing_values"] == 1
    info = call(xlsx_info, ctx, path="s.xlsx")
    assert "Sales: A1:B7" in info.text and "1 formulas, 1 without cached values" in info.text


def test_write_new_workbook_with_formula_and_formats(ctx, no_soffice):
    params = xlsx_write.validate(
        {
            "path": "new.xlsx",
            "sheet": "Budget",
            "cells": [
                {"cell": "A1", "value": 0.256, "number_format": "0.0%"},
                {"cell": "A2", "value": 1000},
                {"cell": "A3", "value": "=A1*A2"},
                {"cell": "A4", "value": "=not a formula", "kind": "text"},
                {"cell": "A5", "value": "2024-05-31", "kind": "date"},
            ],
        }
    )
    assert xlsx_write.risk_of(ctx, params) is RiskClass.WRITE
    res = xlsx_write.invoke(ctx, params)
    assert not res.error, res.text
    assert "not recomputed" in res.text  # soffice is absent
    wb = openpyxl.load_workbook(io.BytesIO(ctx.workspace.read_bytes("new.xlsx")))
    ws = wb["Budget"]
    assert ws["A1"].number_format == "0.0%"
    assert ws["A3"].value == "=A1*A2" and ws["A3"].data_type == "f"
    assert ws["A4"].value == "=not a formula" and ws["A4"].data_type == "s"
    assert ws["A5"].is_date and ws["A5"].value.year == 2024
    assert xlsx_write.risk_of(ctx, params) is RiskClass.DESTRUCTIVE


def test_write_bad_cell_reference(ctx):
    res = call(xlsx_write, ctx, path="x.xlsx", cells=[{"cell": "7B", "value": 1}])
    assert res.error and "bad cell reference" in res.text
    assert not ctx.workspace.exists("x.xlsx")


def test_write_rows_from_a_start_cell(ctx, no_soffice):
    """Converting a CSV, Qwen 1.5B passed the data as `rows` (a parameter xlsx_write lacked: ignored)."""
    res = call(xlsx_write, ctx, path="contacts.xlsx", rows=[["Name", "Age"], ["Ines", 41], ["Tom", 35]])
    assert not res.error, res.text
    assert "3 rows from A1" in res.text and res.data["cells"] == 6
    res = call(xlsx_write, ctx, path="contacts.xlsx", rows=[["total", "=SUM(B2:B3)"]], start="A5",
               cells=[{"cell": "D1", "value": "note"}])
    assert not res.error, res.text
    ws = openpyxl.load_workbook(io.BytesIO(ctx.workspace.read_bytes("contacts.xlsx"))).active
    assert [[c.value for c in r] for r in ws.iter_rows(max_col=2)] == [
        ["Name", "Age"], ["Ines", 41], ["Tom", 35], [None, None], ["total", "=SUM(B2:B3)"]]
    assert ws["D1"].value == "note"
    with pytest.raises(ValidationError, match="give cells, rows or from_csv"):
        xlsx_write.validate({"path": "contacts.xlsx"})


def test_null_for_an_optional_parameter_means_not_given(ctx, no_soffice):
    """xlsx_group_sums at 42e28a8: Qwen 1.5B sent xlsx_add_sheet with "rows": null, "output": null and was told
    "rows: Input should be a valid list"; a step spent on a call that meant "no rows"."""
    res = call(xlsx_write, ctx, path="s.xlsx", rows=[["Region", "Amount"]])
    assert not res.error, res.text
    params = xlsx_add_sheet.validate({"path": "s.xlsx", "name": "By Region", "rows": None, "output": None})
    assert params.rows == [] and params.output is None
    assert not xlsx_add_sheet.invoke(ctx, params).error
    with pytest.raises(ValidationError):  # a required parameter sent as null is still missing
        xlsx_add_sheet.validate({"path": "s.xlsx", "name": None})
    with pytest.raises(ValidationError):  # and a wrong value beside a null is still wrong
        xlsx_add_sheet.validate({"path": "s.xlsx", "name": "x", "rows": "North", "output": None})


def test_an_empty_string_for_an_optional_path_means_not_given(ctx, no_soffice):
    """xlsx_total at 80595a7: Qwen 1.5B sent xlsx_write with "output": "" (and "sheet": "Expenses"); "" was taken as
    an output path, and every save failed "expenses.xlsx already exists" until the task was stuck."""
    ctx.workspace.write_bytes("s.xlsx", sales_book())
    res = call(xlsx_write, ctx, path="s.xlsx", cells=[{"cell": "B6", "value": 60}], sheet=" ", output="",
               replace_data=False)
    assert not res.error, res.text
    ws = openpyxl.load_workbook(io.BytesIO(ctx.workspace.read_bytes("s.xlsx"))).active
    assert ws["B6"].value == 60
    assert xlsx_add_sheet.validate({"path": "s.xlsx", "name": "x", "output": "  "}).output is None
    with pytest.raises(ValidationError):  # a parameter whose default is not None keeps "": no list
        xlsx_add_sheet.validate({"path": "s.xlsx", "name": "x", "rows": ""})
    # a text whose default is not blank: "" is that default (the model fills every parameter, "start" too)
    assert xlsx_write.validate({"path": "s.xlsx", "rows": [["a"]], "start": " "}).start == "A1"
    res = call(xlsx_write, ctx, path="t.xlsx", rows=[["a", 1]], start=",")  # multistep_invoices_memo at 0417c73
    assert res.error and "leave start out" in res.text, res.text


def test_a_csv_is_converted_whole_by_from_csv(ctx, no_soffice):
    """csv_to_xlsx: Qwen 1.5B typed the CSV into xlsx_write one row per call and ran out of time after two."""
    ctx.workspace.write_bytes("contacts.csv", "Name,Zip,Amount,Note\nInes Costa,007,1837.35,=cmd|' /C calc'!A0\n"
                              "Tom Baker,,12,\n".encode())
    res = call(xlsx_write, ctx, path="contacts.xlsx", from_csv="contacts.csv")
    assert not res.error, res.text
    assert "3 rows of contacts.csv, header included" in res.text
    ws = openpyxl.load_workbook(io.BytesIO(ctx.workspace.read_bytes("contacts.xlsx"))).active
    assert [[c.value for c in r] for r in ws.iter_rows()] == [
        ["Name", "Zip", "Amount", "Note"], ["Ines Costa", "007", 1837.35, "=cmd|' /C calc'!A0"],
        ["Tom Baker", None, 12, None]]
    assert ws["D2"].data_type == "s"  # CSV data never becomes a formula
    res = call(xlsx_write, ctx, path="other.xlsx", from_csv="contacts.xlsx")
    assert res.error and "from_csv must name a .csv" in res.text


def test_append_rows_and_add_sheet(ctx, no_soffice):
    ctx.workspace.write_bytes("s.xlsx", sales_book())
    res = call(xlsx_append_rows, ctx, path="s.xlsx", rows=[["West", 40], ["Total", "=SUM(B2:B8)"]])
    assert not res.error, res.text
    assert res.data["first_row"] == 8 and res.data["last_row"] == 9
    res = call(xlsx_add_sheet, ctx, path="s.xlsx", name="Notes", rows=[["a", 1]])
    assert not res.error, res.text
    dup = call(xlsx_add_sheet, ctx, path="s.xlsx", name="notes")
    assert dup.error and "already exists" in dup.text
    wb = openpyxl.load_workbook(io.BytesIO(ctx.workspace.read_bytes("s.xlsx")))
    assert wb.sheetnames == ["Sales", "Notes"]
    assert wb["Sales"]["A8"].value == "West" and wb["Sales"]["B9"].value == "=SUM(B2:B8)"
    assert "A7:B7" in [r.coord for r in wb["Sales"].merged_cells.ranges]


def test_a_number_sent_as_text_or_as_a_constant_formula_is_written_as_the_number(ctx, no_soffice):
    """A held-out task at a6267c9: "Change the price of Pad to 3.50" wrote "=3.5" (a formula with no cached value: a
    reader of values saw an empty cell), and "120" was stored as text, which SUM leaves out."""
    res = call(xlsx_write, ctx, path="p.xlsx", cells=[
        {"cell": "A1", "value": "=3.5"}, {"cell": "A2", "value": "120"}, {"cell": "A3", "value": "= -2"},
        {"cell": "A4", "value": "007"}, {"cell": "B1", "value": "120", "kind": "text"},
        {"cell": "A6", "value": "=A1+A2"}])
    assert not res.error, res.text
    call(xlsx_add_sheet, ctx, path="p.xlsx", name="Totals", rows=[["Rent", "1200"], ["Food", "=3.5"]])
    call(xlsx_append_rows, ctx, path="p.xlsx", sheet="Totals", rows=[["Bus", "49"]])
    wb = openpyxl.load_workbook(io.BytesIO(ctx.workspace.read_bytes("p.xlsx")))
    assert [wb.active[f"A{i}"].value for i in range(1, 7)] == [3.5, 120, -2, "007", None, "=A1+A2"]
    assert wb.active["B1"].value == "120"  # asked as text
    assert [[c.value for c in row] for row in wb["Totals"].iter_rows()] == [["Rent", 1200], ["Food", 3.5], ["Bus", 49]]


def test_unknown_sheet_lists_sheets(ctx):
    ctx.workspace.write_bytes("s.xlsx", sales_book())
    res = call(xlsx_read, ctx, path="s.xlsx", sheet="Nope")
    assert res.error and "sheets: Sales" in res.text


def test_workbook_with_parts_openpyxl_drops_is_not_overwritten(ctx, no_soffice):
    data = sales_book()
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            dst.writestr(info, src.read(info.filename))
        dst.writestr("xl/drawings/drawing1.xml", "<xdr:wsDr xmlns:xdr='http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing'/>")
    ctx.workspace.write_bytes("chart.xlsx", out.getvalue())
    before = ctx.workspace.read_bytes("chart.xlsx")
    res = call(xlsx_write, ctx, path="chart.xlsx", cells=[{"cell": "C1", "value": 1}])
    assert res.error and "output=" in res.text
    assert ctx.workspace.read_bytes("chart.xlsx") == before
    res = call(xlsx_write, ctx, path="chart.xlsx", cells=[{"cell": "C1", "value": 1}], output="chart-edited.xlsx")
    assert not res.error and "could not be kept" in res.text


def test_large_sheet_is_streamed_with_row_cap(ctx, monkeypatch):
    wb = openpyxl.Workbook(write_only=True)
    ws = wb.create_sheet("Big")
    for i in range(1, 3001):
        ws.append([i, f"row {i}", i * 2])
    ctx.workspace.write_bytes("big.xlsx", wb_bytes(wb))
    monkeypatch.setattr(xlsx_mod, "STREAM_BYTES", 0)
    res = call(xlsx_read, ctx, path="big.xlsx", range="A2990:C3000", max_rows=5)
    assert not res.error, res.text
    assert "| 2990 | 2990 | row 2990 | 5980 |" in res.text
    assert "\n| 2995 |" not in res.text and "more rows to 3000" in res.text
    assert "streaming mode" in res.text
    head = call(xlsx_read, ctx, path="big.xlsx", max_rows=3)  # this file has no <dimension>
    assert "| 3 | 3 | row 3 | 6 |" in head.text and "\n| 4 |" not in head.text
    assert "more rows follow" in head.text
    info = call(xlsx_info, ctx, path="big.xlsx")
    assert "Big: A1:C3000" in info.text


def test_recalc_without_soffice_says_not_recomputed(ctx, no_soffice):
    ctx.workspace.write_bytes("s.xlsx", sales_book())
    before = ctx.workspace.read_bytes("s.xlsx")
    res = call(xlsx_recalc, ctx, path="s.xlsx")
    assert res.error and "not installed" in res.text and "not recomputed" in res.text
    assert "nothing more is needed, and nothing on this machine can compute them" in res.text
    assert ctx.workspace.read_bytes("s.xlsx") == before
    out = call(xlsx_write, ctx, path="s.xlsx", cells=[{"cell": "B9", "value": "=SUM(B2:B4)"}])
    assert not out.error and "nothing on this machine can compute them" in out.text  # so the model does not try
    assert "xlsx_recalc" not in out.text  # at f80ed26 the answer told the user to call it
    assert xlsx_recalc.risk_of(ctx, xlsx_recalc.validate({"path": "s.xlsx", "save": False})) is RiskClass.READ


FAKE_SOFFICE = """#!{python}
# Stands in for LibreOffice: records its arguments, then "converts" by writing
# the workbook with a cached value in the SUM cell, as a recalculation would.
import re, sys, zipfile, io, pathlib
args = sys.argv[1:]
pathlib.Path({log!r}).write_text("\\n".join(args))
src = pathlib.Path(args[-1])
outdir = pathlib.Path(args[args.index("--outdir") + 1])
zin = zipfile.ZipFile(src)
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w") as zout:
    for info in zin.infolist():
        blob = zin.read(info.filename)
        if info.filename == "xl/worksheets/sheet1.xml":
            blob = re.sub(rb"(<f>SUM\\(B2:B4\\)</f>)(<v\\s*/>|<v></v>)?", rb"\\1<v>60</v>", blob)
        zout.writestr(info, blob)
(outdir / src.name).write_bytes(buf.getvalue())
"""


def test_recalc_with_soffice_runs_headless_and_reports_values(ctx, tmp_path, monkeypatch):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    log = tmp_path / "argv.txt"
    exe = bindir / "soffice"
    exe.write_text(FAKE_SOFFICE.format(python=sys.executable, log=str(log)))
    exe.chmod(0o755)
    monkeypatch.setenv("PATH", str(bindir))
    ctx.workspace.write_bytes("s.xlsx", sales_book())
    res = call(xlsx_recalc, ctx, path="s.xlsx")
    assert not res.error, res.text
    assert "Sales!B5 =SUM(B2:B4) → 60" in res.text
    argv = log.read_text().splitlines()
    assert "--headless" in argv and "--convert-to" in argv
    assert any(a.startswith("-env:UserInstallation=file://") for a in argv)
    again = call(xlsx_read, ctx, path="s.xlsx", range="B5")
    assert "=SUM(B2:B4) → 60" in again.text


def test_reading_past_the_used_area_does_not_grow_it(ctx):
    ctx.workspace.write_bytes("s.xlsx", sales_book())
    res = call(xlsx_read, ctx, path="s.xlsx", range="ZZ1:ZZ3")
    assert not res.error, res.text
    assert "(used area A1:B7)" in res.text
    bad = call(xlsx_read, ctx, path="s.xlsx", range="1A:??")
    assert bad.error and "bad range" in bad.text


def test_an_output_that_names_the_input_writes_in_place(ctx, no_soffice):
    """xlsx_total: Qwen 1.5B passed output equal to path and was told to pass an overwrite xlsx_write lacks."""
    ctx.workspace.write_bytes("s.xlsx", sales_book())
    res = call(xlsx_write, ctx, path="s.xlsx", output="./s.xlsx", cells=[{"cell": "D1", "value": "ok"}])
    assert not res.error, res.text
    res = call(xlsx_append_rows, ctx, path="s.xlsx", output="s.xlsx", rows=[["Total", 1]])
    assert not res.error, res.text
    ws = openpyxl.load_workbook(io.BytesIO(ctx.workspace.read_bytes("s.xlsx"))).active
    assert ws["D1"].value == "ok" and ws.cell(row=ws.max_row, column=1).value == "Total"


def test_a_formula_naming_a_sheet_the_workbook_lacks_is_refused(ctx, no_soffice):
    """xlsx_summary_sheet at 462ec82: =SUM(budget_jan!B2:B4) for the sheet "Jan" (#REF! in Excel)."""
    ctx.workspace.write_bytes("s.xlsx", sales_book())
    before = ctx.workspace.read_bytes("s.xlsx")
    res = call(xlsx_add_sheet, ctx, path="s.xlsx", name="Summary", rows=[["Jan", "=SUM(budget_jan!B2:B4)"]])
    assert res.error and "names the sheet 'budget_jan', which this workbook does not have (its sheets: Sales, Summary)" \
        in res.text
    res = call(xlsx_write, ctx, path="s.xlsx", cells=[{"cell": "D1", "value": "='Q1 Sales'!B2"}])
    assert res.error and "'Q1 Sales'" in res.text
    assert ctx.workspace.read_bytes("s.xlsx") == before
    for i, ok in enumerate(("=SUM(sales!B2:B4)", "='Sales'!B2*2", '=IF(B2>0,"x!y","")', "=Summary!A1")):
        res = call(xlsx_add_sheet, ctx, path="s.xlsx", name="Summary", rows=[["x", ok]], output=f"o{i}.xlsx")
        assert not res.error, (ok, res.text)


def test_a_sum_over_text_on_its_own_sheet_is_refused(ctx, no_soffice):
    """xlsx_summary_sheet at fbc3d9d: =SUM(A2:A4) on the new Summary sheet, beside the month names, for each
    month (0 once computed) instead of Jan!B2:B4."""
    ctx.workspace.write_bytes("s.xlsx", sales_book())
    before = ctx.workspace.read_bytes("s.xlsx")
    res = call(xlsx_add_sheet, ctx, path="s.xlsx", name="Summary",
               rows=[["Jan", "=SUM(A2:A4)"], ["Feb", "=SUM(A2:A4)"], ["Mar", "=SUM(A2:A4)"]])
    assert res.error and "holds text (Feb, Mar) and no numbers; nothing was written" in res.text
    assert "e.g. =SUM('Sales'!B2:B4)" in res.text
    res = call(xlsx_add_sheet, ctx, path="s.xlsx", name="Summary",  # at e03cee3: each total adds its own cell
               rows=[["Jan", "=SUM(A2:B4)"], ["Feb", "=SUM(A2:B5)"], ["Mar", "=SUM(A2:B6)"]])
    assert res.error and "B2: =SUM(A2:B5) adds A2:B5 of sheet 'Summary', which holds B2 itself" in res.text
    res = call(xlsx_write, ctx, path="s.xlsx", sheet="Sales", cells=[{"cell": "C1", "value": "=SUM(A2:A4)"}])
    assert res.error and "of sheet 'Sales'" in res.text
    assert ctx.workspace.read_bytes("s.xlsx") == before
    # a range of numbers, another sheet's range, or an empty range to fill later: written
    res = call(xlsx_add_sheet, ctx, path="s.xlsx", name="Summary", rows=[["Sales", "=SUM(Sales!B2:B4)"]])
    assert not res.error, res.text
    res = call(xlsx_append_rows, ctx, path="s.xlsx", sheet="Sales", rows=[["Total", "=SUM(B2:B4)"]])
    assert not res.error, res.text
    res = call(xlsx_write, ctx, path="s.xlsx", sheet="Summary", cells=[{"cell": "B5", "value": "=SUM(C2:C4)"}])
    assert not res.error, res.text


def test_a_sum_over_empty_cells_whose_numbers_are_on_another_sheet_is_refused(ctx, no_soffice):
    """xlsx_group_sums at 4f7db1e: the new "By Region" sheet got ["North", "=SUM(C2:C13)"], ...: C2:C13 of its own
    sheet is empty (0 once computed), the amounts are Sales!C2:C13; the task nearly finished with it."""
    ctx.workspace.write_bytes("s.xlsx", sales_book())
    before = ctx.workspace.read_bytes("s.xlsx")
    res = call(xlsx_add_sheet, ctx, path="s.xlsx", name="By Dept", rows=[["North", "=SUM(B2:B4)"]])
    assert res.error and res.text.startswith("xlsx_add_sheet: B1: =SUM(B2:B4) adds B2:B4 of sheet 'By Dept', which "
                                             "is empty; nothing was written.")
    assert "e.g. =SUM('Sales'!B2:B4)" in res.text
    assert ctx.workspace.read_bytes("s.xlsx") == before


def test_a_sum_over_empty_cells_that_hold_text_on_another_sheet_is_refused(ctx, no_soffice):
    """multistep_invoices_memo at 97ef684: a new sheet got ["Total Amount", "=SUM(A2:A4)"]; A2:A4 of its own sheet is
    empty, and on Sheet1 it holds the invoice numbers, the amounts being in B2:B4. An empty range empty on every
    sheet is still written (a total to fill in later)."""
    wb = openpyxl.Workbook()
    wb.active.title = "Sheet1"
    for row in (["Invoice", "Amount"], ["INV-101", 1200], ["INV-102", 349.5], ["INV-103", 86.25]):
        wb.active.append(row)
    ctx.workspace.write_bytes("i.xlsx", wb_bytes(wb))
    before = ctx.workspace.read_bytes("i.xlsx")
    res = call(xlsx_add_sheet, ctx, path="i.xlsx", name="Summary", rows=[["Total Amount", "=SUM(A2:A4)"]])
    assert res.error and "=SUM(A2:A4) adds A2:A4 of sheet 'Summary', which is empty (and holds text on sheet " \
        "'Sheet1')" in res.text, res.text
    assert "e.g. =SUM('Sheet1'!B2:B4)" in res.text
    assert ctx.workspace.read_bytes("i.xlsx") == before
    res = call(xlsx_add_sheet, ctx, path="i.xlsx", name="Later", rows=[["Total", "=SUM(D2:D4)"]])
    assert not res.error, res.text


def test_a_sum_of_a_whole_column_written_in_that_column_is_refused(ctx, no_soffice):
    """xlsx_total at e1675c8: Qwen 1.5B appended ["", "Total", "=SUM(C:C)"] below the expenses: C10 adds column C,
    which holds C10 itself (a circular reference: Excel shows 0 and a warning), and the task finished."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Expenses"
    ws.append(["Date", "Item", "Amount"])
    for day, amount in ((2, 84.2), (3, 49), (7, 12.35)):
        ws.append([f"2026-11-0{day}", "Groceries", amount])
    ctx.workspace.write_bytes("e.xlsx", wb_bytes(wb))
    before = ctx.workspace.read_bytes("e.xlsx")
    res = call(xlsx_append_rows, ctx, path="e.xlsx", rows=[["", "Total", "=SUM(C:C)"]])
    assert res.error and "C5: =SUM(C:C) adds all of column C of sheet 'Expenses', which holds C5 itself (a " \
        "circular reference); nothing was written" in res.text and "=SUM(C2:C4)" in res.text, res.text
    res = call(xlsx_write, ctx, path="e.xlsx", cells=[{"cell": "D2", "value": "=SUM($B:$D)"}])
    assert res.error and "circular reference" in res.text, res.text
    assert ctx.workspace.read_bytes("e.xlsx") == before
    res = call(xlsx_write, ctx, path="e.xlsx", cells=[{"cell": "E1", "value": "=SUM(C:C)"}])  # another column
    assert not res.error, res.text
    res = call(xlsx_append_rows, ctx, path="e.xlsx", rows=[["", "Total", "=SUM(C2:C4)"]])
    assert not res.error, res.text


def test_a_formula_sent_as_text_is_refused(ctx, no_soffice):
    """xlsx_total at 1c551ec: C10 "=SUM(C2:C9)" sent with kind "text" (after kind "formula" was refused): Excel
    would show the formula's text. Text that is no function call, and CSV data, stay text."""
    wb = openpyxl.Workbook()
    wb.active.append(["Item", "Amount"])
    wb.active.append(["Gift", 30])
    ctx.workspace.write_bytes("e.xlsx", wb_bytes(wb))
    before = ctx.workspace.read_bytes("e.xlsx")
    res = call(xlsx_write, ctx, path="e.xlsx", cells=[{"cell": "B3", "value": "=SUM(B2:B2)", "kind": "text"}])
    assert res.error and "B3: '=SUM(B2:B2)' with kind 'text' would be stored as that text" in res.text, res.text
    assert ctx.workspace.read_bytes("e.xlsx") == before
    res = call(xlsx_write, ctx, path="e.xlsx", cells=[{"cell": "A3", "value": "= not a formula", "kind": "text"}])
    assert not res.error, res.text
    res = call(xlsx_write, ctx, path="e.xlsx", cells=[{"cell": "B3", "value": "=SUM(B2:B2)"}])
    assert not res.error, res.text
    # kind "formula" (xlsx_total at 8b795c9, refused as invalid) is what auto does with a leading "="
    res = call(xlsx_write, ctx, path="e.xlsx", cells=[{"cell": "B4", "value": "=B3*2", "kind": "formula"},
                                                      {"cell": "A4", "value": "007", "kind": "string"}])
    assert not res.error, res.text
    sheet = openpyxl.load_workbook(io.BytesIO(ctx.workspace.read_bytes("e.xlsx"))).active
    assert (sheet["B4"].value, sheet["A4"].value) == ("=B3*2", "007")


def test_an_amount_sent_as_text_under_a_column_of_numbers_is_written_as_a_number(ctx, no_soffice):
    """xlsx_total at 4f7db1e: the total "389.90" sent with kind "text" in C10 under the Amount column (and five more
    times below it): stored as text, which sums leave out. Refused at 7b217b1, the same call came three times and
    the task was handed off; it is written as the number now, and the result says so. A code in a column of text
    stays text."""
    wb = openpyxl.Workbook()
    for row in (["Item", "Amount", "Code"], ["Gift", 30, "0170"], ["Bus", 49.5, "0171"]):
        wb.active.append(row)
    ctx.workspace.write_bytes("e.xlsx", wb_bytes(wb))
    res = call(xlsx_write, ctx, path="e.xlsx", cells=[{"cell": "B4", "value": "79.50", "kind": "text"},
                                                      {"cell": "C4", "value": "12.50", "kind": "text"}])
    assert not res.error and "B4: '79.50' was sent as text; written as a number, like the column above it." \
        in res.text, res.text
    ws = openpyxl.load_workbook(io.BytesIO(ctx.workspace.read_bytes("e.xlsx"))).active
    assert ws["B4"].value == 79.5 and ws["C4"].value == "12.50"
    # a held-out task at 6ad68a4: a whole number ("120") as text under the amounts; a code with a leading 0 stays text
    res = call(xlsx_write, ctx, path="e.xlsx", cells=[{"cell": "B5", "value": "120", "kind": "text"},
                                                      {"cell": "C5", "value": "0172", "kind": "text"}])
    assert not res.error and "B5: '120' was sent as text; written as a number" in res.text, res.text
    ws = openpyxl.load_workbook(io.BytesIO(ctx.workspace.read_bytes("e.xlsx"))).active
    assert ws["B5"].value == 120 and ws["C5"].value == "0172"
    # a held-out task at a864c41: prices.xlsx made from prices.csv, then every cell written again as text, top down;
    # each price had only the header and the prices just made text above it, and all three stayed text
    res = call(xlsx_write, ctx, path="e.xlsx", cells=[{"cell": "B2", "value": "30", "kind": "text"},
                                                      {"cell": "B3", "value": "49.50", "kind": "text"}])
    ws = openpyxl.load_workbook(io.BytesIO(ctx.workspace.read_bytes("e.xlsx"))).active
    assert not res.error and (ws["B2"].value, ws["B3"].value) == (30, 49.5), res.text


def test_a_group_total_that_sums_other_groups_rows_too_is_refused(ctx, no_soffice):
    """xlsx_group_sums at 0cfab8b: Qwen 1.5B added "By Region" with ["North", "=SUM(Sales!A2:A13)"], ["South",
    "=SUM(Sales!A5:A13)"], ...: each row adds rows of every region (and the region names). The refusal gives the
    SUMIF that adds the row's own region; a range of one region's rows, or a grand total, is written."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Sales"
    for row in (["Region", "Rep", "Amount"], ["North", "Ana", 1200], ["North", "Eva", 430], ["South", "Ben", 950],
                ["East", "Gus", 880]):
        ws.append(row)
    ctx.workspace.write_bytes("s.xlsx", wb_bytes(wb))
    before = ctx.workspace.read_bytes("s.xlsx")
    res = call(xlsx_add_sheet, ctx, path="s.xlsx", name="By Region",
               rows=[["North", "=SUM(Sales!A2:A5)"], ["South", "=SUM(Sales!A4:A5)"]])
    assert res.error and res.text.startswith("xlsx_add_sheet: B1: =SUM(Sales!A2:A5) adds every row of Sales!A2:A5, "
                                             "but this row is "
                                             "'North' and those rows hold 'South', 'East' too; nothing was written")
    assert 'To add only the \'North\' rows: =SUMIF(\'Sales\'!A2:A5, "North", \'Sales\'!C2:C5)' in res.text, res.text
    res = call(xlsx_add_sheet, ctx, path="s.xlsx", name="By Region", rows=[["North", "=SUM(Sales!C2:C5)"]])
    assert res.error and "hold 'South', 'East' too" in res.text, res.text
    assert ctx.workspace.read_bytes("s.xlsx") == before
    res = call(xlsx_add_sheet, ctx, path="s.xlsx", name="By Region",
               rows=[["North", "=SUM(Sales!C2:C3)"], ["South", '=SUMIF(Sales!A2:A5, "South", Sales!C2:C5)'],
                     ["Total", "=SUM(Sales!C2:C5)"]])
    assert not res.error, res.text


def test_a_formula_naming_no_range_and_no_defined_name_is_refused(ctx, no_soffice):
    """xlsx_summary_sheet at 2056215: =SUM(amount) for each month on the new Summary sheet (#NAME? in Excel),
    after the column header "Amount"; the refusal gives the range of the column so headed."""
    ctx.workspace.write_bytes("s.xlsx", sales_book())
    before = ctx.workspace.read_bytes("s.xlsx")
    res = call(xlsx_add_sheet, ctx, path="s.xlsx", name="Summary", rows=[["Month", "Total"], ["Sales", "=SUM(amount)"]])
    assert res.error and "=SUM(amount) names 'amount', which is neither a cell range" in res.text
    assert "e.g. =SUM('Sales'!B2:B4)" in res.text
    res = call(xlsx_write, ctx, path="s.xlsx", cells=[{"cell": "D1", "value": "=Total_Amount*2"}])
    assert res.error and "#NAME?" in res.text
    res = call(xlsx_append_rows, ctx, path="s.xlsx", rows=[["Total", "=SUM(Sales!Amount)"]])
    assert res.error and "names 'Sales!Amount'" in res.text
    assert ctx.workspace.read_bytes("s.xlsx") == before
    wb = openpyxl.load_workbook(io.BytesIO(before))
    from openpyxl.workbook.defined_name import DefinedName
    dn = DefinedName("amounts", attr_text="Sales!$B$2:$B$4")
    try:
        wb.defined_names["amounts"] = dn
    except TypeError:  # openpyxl < 3.1
        wb.defined_names.append(dn)
    ctx.workspace.write_bytes("n.xlsx", wb_bytes(wb))
    for i, ok in enumerate(("=SUM(Amounts)", "=SUM($B$2:$B4)", "=SUM(B:B)", "=SUM(2:3)", "=IF(TRUE,1,0)",
                            '=CONCAT("amount ", A2)', "=Sales!B2+'Sales'!B3")):
        res = call(xlsx_write, ctx, path="n.xlsx", cells=[{"cell": "D1", "value": ok}], output=f"o{i}.xlsx")
        assert not res.error, (ok, res.text)


def test_amounts_written_as_text_are_numbers_a_sum_can_use(ctx):
    """multistep_invoices_memo at 237b37e: rows [["INV-101", "1,200.00 EUR"], ...] were saved as text, and
    SUM(amount) over the sheet failed; codes with a leading zero, ids and plain words stay text."""
    rows = [["Invoice", "Amount", "Phone"], ["INV-101", "1,200.00 EUR", "0170 555"], ["INV-102", "349.50", "0171"],
            ["INV-103", "$86.25", "12"]]
    assert not call(xlsx_write, ctx, path="inv.xlsx", rows=rows).error
    ws = openpyxl.load_workbook(ctx.workspace.resolve("inv.xlsx")).active
    assert [ws[f"B{i}"].value for i in (2, 3, 4)] == [1200.0, 349.5, 86.25]
    assert ws["B2"].number_format == '#,##0.00 "EUR"' and ws["B4"].number_format == '"$"#,##0.00'
    assert [ws["A2"].value, ws["C2"].value, ws["C3"].value] == ["INV-101", "0170 555", "0171"]
    res = call(xlsx_write, ctx, path="t.xlsx", cells=[{"cell": "A1", "value": "1,200.00 EUR", "kind": "text"}])
    assert not res.error and openpyxl.load_workbook(ctx.workspace.resolve("t.xlsx")).active["A1"].value == "1,200.00 EUR"


@pytest.mark.parametrize("value", ["<total_sum>", "{{total}}", "[Total amount]"])
def test_a_placeholder_is_never_written_as_a_value(ctx, no_soffice, value):
    """xlsx_total at 9c2437c: "<total_sum>" written into C10 as text, as the total; the task was handed back."""
    ctx.workspace.write_bytes("s.xlsx", sales_book())
    before = ctx.workspace.read_bytes("s.xlsx")
    res = call(xlsx_write, ctx, path="s.xlsx", cells=[{"cell": "B10", "value": "Total", "kind": "text"},
                                                      {"cell": "C10", "value": value, "kind": "text"}])
    assert res.error and f"C10: {value!r} is a placeholder, not a value; nothing was written" in res.text, res.text
    assert ctx.workspace.read_bytes("s.xlsx") == before
    res = call(xlsx_write, ctx, path="s.xlsx", rows=[["Total", value]], start="A10")
    assert res.error and "row 1: " in res.text
    # a value in brackets that is text of its own is written
    assert not call(xlsx_write, ctx, path="s.xlsx", cells=[{"cell": "D1", "value": "[approved] <2026>"},
                                                           {"cell": "D2", "value": "[x]"}]).error  # a ticked box


def test_write_cell_reference_naming_its_sheet(ctx):
    """multistep_invoices_memo at 786cd59: Qwen 1.5B sent "Sheet1!A1" three times, was told it was a bad cell
    reference each time, and stalled. A reference that names its sheet writes that cell of that sheet."""
    res = call(xlsx_write, ctx, path="inv.xlsx", cells=[{"cell": "Sheet1!A1", "value": "Invoice"},
                                                       {"cell": "'Sheet1'!B1", "value": "Amount"}],
               rows=[["INV-1", 120.5]], start="Sheet1!A2")
    assert not res.error, res.text
    wb = openpyxl.load_workbook(io.BytesIO(ctx.workspace.read_bytes("inv.xlsx")))
    assert wb.sheetnames == ["Sheet1"]
    ws = wb["Sheet1"]
    assert [[c.value for c in row] for row in ws.iter_rows()] == [["Invoice", "Amount"], ["INV-1", 120.5]]
    ctx.workspace.write_bytes("two.xlsx", wb_bytes(_two_sheets()))
    res = call(xlsx_write, ctx, path="two.xlsx", cells=[{"cell": "Q2!C5", "value": 7}])
    assert not res.error, res.text
    wb = openpyxl.load_workbook(io.BytesIO(ctx.workspace.read_bytes("two.xlsx")))
    assert wb["Q2"]["C5"].value == 7 and wb["Q1"]["C5"].value is None


def test_write_cell_references_naming_other_sheets_refused(ctx):
    with pytest.raises(ValidationError, match="name sheets 'Q1', 'Q2'; one call writes one sheet"):
        xlsx_write.validate({"path": "x.xlsx", "cells": [{"cell": "Q1!A1", "value": 1}, {"cell": "Q2!A1", "value": 2}]})
    with pytest.raises(ValidationError, match="name sheets 'Q1', 'Q2'"):
        xlsx_write.validate({"path": "x.xlsx", "sheet": "Q1", "cells": [{"cell": "Q2!A1", "value": 2}]})
    same = xlsx_write.validate({"path": "x.xlsx", "sheet": "q1", "cells": [{"cell": "Q1!A1", "value": 2}]})
    assert same.sheet == "q1" and same.cells[0].cell == "A1"


def _two_sheets():
    wb = openpyxl.Workbook()
    wb.active.title = "Q1"
    wb.create_sheet("Q2")
    return wb


def test_write_rows_of_sheet_cell_pairs(ctx):
    res = call(xlsx_write, ctx, path="t.xlsx", rows=[["Totals!b2", 389.9], ["Totals!A2", "Total"]])
    assert not res.error, res.text
    ws = openpyxl.load_workbook(io.BytesIO(ctx.workspace.read_bytes("t.xlsx")))["Totals"]
    assert ws["A2"].value == "Total" and ws["B2"].value == 389.9
