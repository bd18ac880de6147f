"""Hostile and broken documents: each gives a one-line, actionable error
result (never an exception), and nothing in the workspace changes."""

from __future__ import annotations

import io
import zipfile

import pytest

docx = pytest.importorskip("docx")
openpyxl = pytest.importorskip("openpyxl")
pypdf = pytest.importorskip("pypdf")

from tools.base import ToolContext  # noqa: E402
from tools.office import _common  # noqa: E402
from tools.office.csvtools import csv_read  # noqa: E402
from tools.office.docx_read import docx_read  # noqa: E402
from tools.office.docx_write import docx_replace  # noqa: E402
from tools.office.pdf import pdf_read  # noqa: E402
from tools.office.xlsx import xlsx_read  # noqa: E402
from tool_helpers import call  # noqa: E402  (the `ctx` fixture is in conftest.py)

OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 4088


def docx_bytes() -> bytes:
    d = docx.Document()
    d.add_paragraph("hello")
    buf = io.BytesIO()
    d.save(buf)
    return buf.getvalue()


def assert_one_line_error(res, *needles):
    assert res.error, res.text
    assert "\n" not in res.text and "Traceback" not in res.text
    for n in needles:
        assert n in res.text, res.text


def rezip(data: bytes, replace: dict[str, bytes] | None = None, add: dict[str, bytes] | None = None, level: int = zipfile.ZIP_DEFLATED) -> bytes:
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", level) as dst:
        for info in src.infolist():
            dst.writestr(info.filename, (replace or {}).get(info.filename, src.read(info.filename)))
        for name, blob in (add or {}).items():
            dst.writestr(name, blob)
    return out.getvalue()


def test_text_file_named_docx(ctx):
    ctx.workspace.write_bytes("notes.docx", b"just some text, not a zip")
    assert_one_line_error(call(docx_read, ctx, path="notes.docx"), "notes.docx is not a Word document", "not a zip")


def test_truncated_docx(ctx):
    data = docx_bytes()
    ctx.workspace.write_bytes("cut.docx", data[: len(data) // 2])
    assert_one_line_error(call(docx_read, ctx, path="cut.docx"), "corrupt or truncated")


def test_legacy_doc_and_xls(ctx):
    ctx.workspace.write_bytes("old.docx", OLE)
    ctx.workspace.write_bytes("old.xlsx", OLE)
    assert_one_line_error(call(docx_read, ctx, path="old.docx"), "legacy .doc", "password-protected")
    assert_one_line_error(call(xlsx_read, ctx, path="old.xlsx"), "legacy .xls")


def test_xlsx_named_docx(ctx):
    wb = openpyxl.Workbook()
    buf = io.BytesIO()
    wb.save(buf)
    ctx.workspace.write_bytes("sheet.docx", buf.getvalue())
    assert_one_line_error(call(docx_read, ctx, path="sheet.docx"), "not a Word document", "word/document.xml")


def test_entity_bomb_is_refused(ctx):
    data = docx_bytes()
    doc_xml = zipfile.ZipFile(io.BytesIO(data)).read("word/document.xml").decode()
    bomb = (
        '<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
        + "".join(f'<!ENTITY lol{i} "{("&lol" + str(i - 1) + ";") * 10 if i > 1 else "&lol;" * 10}">' for i in range(1, 10))
        + "]>\n"
    )
    body = doc_xml.split("?>", 1)[1].replace("hello", "&lol9;")
    ctx.workspace.write_bytes("bomb.docx", rezip(data, {"word/document.xml": (bomb + body).encode()}))
    assert_one_line_error(call(docx_read, ctx, path="bomb.docx"), "DTD", "refusing")
    assert_one_line_error(call(docx_replace, ctx, path="bomb.docx", find="a", replace="b"), "DTD")


def test_zip_bomb_is_refused_by_declared_size(ctx, monkeypatch):
    data = docx_bytes()
    ctx.workspace.write_bytes("ratio.docx", rezip(data, add={"word/media/big.bin": b"\x00" * (4 << 20)}))
    assert_one_line_error(call(docx_read, ctx, path="ratio.docx"), "zip bomb")
    monkeypatch.setattr(_common, "MAX_UNZIPPED_BYTES", 20_000)
    ctx.workspace.write_bytes("big.docx", rezip(data, add={"word/media/a.bin": bytes(range(256)) * 100}, level=zipfile.ZIP_STORED))
    assert_one_line_error(call(docx_read, ctx, path="big.docx"), "zip bomb guard")


def test_broken_pdfs(ctx):
    ctx.workspace.write_bytes("fake.pdf", b"<html>not a pdf</html>")
    assert_one_line_error(call(pdf_read, ctx, path="fake.pdf"), "not a PDF")
    w = pypdf.PdfWriter()
    w.add_blank_page(100, 100)
    buf = io.BytesIO()
    w.write(buf)
    ctx.workspace.write_bytes("cut.pdf", buf.getvalue()[:40])
    res = call(pdf_read, ctx, path="cut.pdf")
    assert_one_line_error(res, "cut.pdf")


def test_pdf_decompression_bomb_is_stopped(ctx):
    import zlib

    from pypdf.generic import DecodedStreamObject, NameObject

    w = pypdf.PdfWriter()
    page = w.add_blank_page(100, 100)
    stream = DecodedStreamObject()
    stream.set_data(zlib.compress(b" " * 80_000_000, 9))
    stream[NameObject("/Filter")] = NameObject("/FlateDecode")
    page[NameObject("/Contents")] = w._add_object(stream)
    buf = io.BytesIO()
    w.write(buf)
    assert len(buf.getvalue()) < 1_000_000
    ctx.workspace.write_bytes("bomb.pdf", buf.getvalue())
    res = call(pdf_read, ctx, path="bomb.pdf")
    assert not res.error, res.text  # the page fails, the call reports it
    assert "decompression limit" in res.text


def test_binary_named_csv(ctx):
    ctx.workspace.write_bytes("data.csv", docx_bytes())
    assert_one_line_error(call(csv_read, ctx, path="data.csv"), "binary")


def test_missing_and_escaping_paths(ctx):
    assert_one_line_error(call(docx_read, ctx, path="nope.docx"), "not found")
    res = call(pdf_read, ctx, path="../outside.pdf")
    assert res.error and "Traceback" not in res.text
