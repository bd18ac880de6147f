"""A tool whose format is fixed by the file type refuses a name of another type, with the right tool."""

from __future__ import annotations

import pytest

pytest.importorskip("docx")
pytest.importorskip("openpyxl")

from tool_helpers import call  # noqa: E402
from tools.office.docx_write import docx_create  # noqa: E402
from tools.office.xlsx_write import xlsx_write  # noqa: E402


@pytest.mark.parametrize("path, tool", [("src/main.py", "write_file"), ("src/README.md", "write_file"),
                                        ("notes.txt", "write_file"), ("report.xlsx", "xlsx_write changes it")])
def test_word_tool_refuses_a_name_that_is_not_docx(ctx, path, tool):
    """multistep_invoices_memo: docx_create on invoices.xlsx was told to use write_file."""
    res = call(docx_create, ctx, path=path, blocks=[{"type": "paragraph", "text": "print('hi')"}])
    assert res.error and "must be named *.docx" in res.text and tool in res.text
    assert "\n" not in res.text.strip()
    assert not ctx.workspace.exists(path)


def test_word_tool_still_writes_docx(ctx):
    assert not call(docx_create, ctx, path="memo.DOCX", blocks=[{"type": "paragraph", "text": "x"}]).error


def test_excel_tool_refuses_a_csv_name(ctx):
    res = call(xlsx_write, ctx, path="totals.csv", cells=[{"cell": "A1", "value": 1}])
    assert res.error and "is a CSV file, not a workbook" in res.text and "csv_write" in res.text
    assert "write_file" in res.text and not ctx.workspace.exists("totals.csv")
    assert not call(xlsx_write, ctx, path="totals.xlsx", cells=[{"cell": "A1", "value": 1}]).error


def test_a_reader_given_another_kind_of_file_names_the_right_reader(ctx):
    """Qwen 1.5B called docx_read on invoices.pdf three times; the error said only "check the file type"."""
    from tool_helpers import call
    from tools.office.docx_read import docx_read
    from tools.office.pdf import pdf_read

    ctx.workspace.write_bytes("invoices.pdf", b"%PDF-1.4\n%%EOF\n")
    ctx.workspace.write_text("notes.txt", "hello")
    ctx.workspace.write_text("fake.pdf", "not a pdf")
    assert "use pdf_read for this file" in call(docx_read, ctx, path="invoices.pdf").text
    assert "use read_file" in call(docx_read, ctx, path="notes.txt").text
    assert "check the file type" in call(pdf_read, ctx, path="fake.pdf").text  # its own kind: no loop
