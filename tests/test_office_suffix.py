"""A tool whose format is fixed by the file type refuses a name of another type, with the right tool."""

from __future__ import annotations

import pytest

pytest.importorskip("docx")
pytest.importorskip("openpyxl")

from tool_helpers import call  # noqa: E402
from tools.office.docx_write import docx_create  # noqa: E402
from tools.office.xlsx_write import xlsx_write  # noqa: E402


@pytest.mark.parametrize("path", ["src/main.py", "src/README.md", "notes.txt", "report.xlsx"])
def test_word_tool_refuses_a_name_that_is_not_docx(ctx, path):
    res = call(docx_create, ctx, path=path, blocks=[{"type": "paragraph", "text": "print('hi')"}])
    assert res.error and "must be named *.docx" in res.text and "write_file" in res.text
    assert "\n" not in res.text.strip()
    assert not ctx.workspace.exists(path)


def test_word_tool_still_writes_docx(ctx):
    assert not call(docx_create, ctx, path="memo.DOCX", blocks=[{"type": "paragraph", "text": "x"}]).error


def test_excel_tool_refuses_a_csv_name(ctx):
    res = call(xlsx_write, ctx, path="totals.csv", cells=[{"cell": "A1", "value": 1}])
    assert res.error and "must be named *.xlsx" in res.text and "write_file" in res.text
    assert not ctx.workspace.exists("totals.csv")
    assert not call(xlsx_write, ctx, path="totals.xlsx", cells=[{"cell": "A1", "value": 1}]).error
