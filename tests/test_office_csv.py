"""CSV tools: round trip, delimiter and encoding detection, paging."""

from __future__ import annotations

import pytest

from tools.base import RiskClass, ToolContext
from tools.office.csvtools import csv_read, csv_write
from tool_helpers import call  # noqa: E402  (the `ctx` fixture is in conftest.py)


def test_write_then_read_round_trip(ctx):
    rows = [["name", "amount", "note"], ["Ann", 12.5, "says \"hi\", twice"], ["Bob", None, True]]
    params = csv_write.validate({"path": "t.csv", "rows": rows})
    assert csv_write.risk_of(ctx, params) is RiskClass.WRITE
    assert not csv_write.invoke(ctx, params).error
    assert ctx.workspace.read_bytes("t.csv") == b'name,amount,note\r\nAnn,12.5,"says ""hi"", twice"\r\nBob,,TRUE\r\n'
    res = call(csv_read, ctx, path="t.csv")
    assert not res.error, res.text
    assert res.untrusted
    assert '| 2 | Ann | 12.5 | says "hi", twice |' in res.text
    assert res.data == {"path": "t.csv", "rows": 3, "columns": 3}
    again = call(csv_write, ctx, path="t.csv", rows=[["x"]])
    assert again.error and "overwrite" in again.text


def test_semicolons_and_windows_1252_are_detected(ctx):
    text = "Stadt;Betrag\nKöln;1.234,50\nMünchen;99,00\n"
    ctx.workspace.write_bytes("de.csv", text.encode("cp1252"))
    res = call(csv_read, ctx, path="de.csv")
    assert not res.error, res.text
    assert "delimiter ';'" in res.text
    assert "| 2 | Köln | 1.234,50 |" in res.text


def test_paging_through_rows(ctx):
    ctx.workspace.write_bytes("n.csv", "\n".join(f"{i},v{i}" for i in range(1, 301)).encode())
    res = call(csv_read, ctx, path="n.csv", max_rows=10)
    assert "| 10 | 10 | v10 |" in res.text and "start_row=11" in res.text
    res = call(csv_read, ctx, path="n.csv", start_row=295, max_rows=10)
    assert "| 300 | 300 | v300 |" in res.text and "more rows" not in res.text
