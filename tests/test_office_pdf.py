"""PDF tools: text by page with markers, search with page numbers, scanned
pages, encryption (empty password vs a real one), and page operations whose
outputs are read back."""

from __future__ import annotations

import io

import pytest

pypdf = pytest.importorskip("pypdf")

from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject, NumberObject  # noqa: E402

from tools.base import RiskClass, ToolContext  # noqa: E402
from tools.office.pdf import extract_pages, pdf_bytes_to_text, pdf_info, pdf_read, pdf_search  # noqa: E402
from tools.office.pdf_pages import pdf_extract_pages, pdf_merge, pdf_rotate, pdf_split  # noqa: E402
from tool_helpers import call  # noqa: E402  (the `ctx` fixture is in conftest.py)


def make_pdf(pages: list[str | None], *, title: str = "", password: str | None = None) -> bytes:
    """A PDF with one line of Helvetica text per page; None makes an image-only (scanned) page."""
    w = pypdf.PdfWriter()
    font = w._add_object(
        DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Font"),
                NameObject("/Subtype"): NameObject("/Type1"),
                NameObject("/BaseFont"): NameObject("/Helvetica"),
            }
        )
    )
    for text in pages:
        page = w.add_blank_page(612, 792)
        content = DecodedStreamObject()
        if text is None:
            img = DecodedStreamObject()
            img.set_data(b"\x80" * 16)
            img.update(
                {
                    NameObject("/Type"): NameObject("/XObject"),
                    NameObject("/Subtype"): NameObject("/Image"),
                    NameObject("/Width"): NumberObject(4),
                    NameObject("/Height"): NumberObject(4),
                    NameObject("/ColorSpace"): NameObject("/DeviceGray"),
                    NameObject("/BitsPerComponent"): NumberObject(8),
                }
            )
            page[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): DictionaryObject({NameObject("/Im1"): w._add_object(img)})})
            content.set_data(b"q 200 0 0 200 100 400 cm /Im1 Do Q")
        else:
            page[NameObject("/Resources")] = DictionaryObject({NameObject("/Font"): DictionaryObject({NameObject("/F1"): font})})
            safe = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            content.set_data(f"BT /F1 12 Tf 72 720 Td ({safe}) Tj ET".encode("latin-1"))
        page[NameObject("/Contents")] = w._add_object(content)
    if title:
        w.add_metadata({"/Title": title, "/Author": "Test Author"})
    if password is not None:
        w.encrypt(user_password=password, owner_password="owner-secret", algorithm="AES-256")
    buf = io.BytesIO()
    w.write(buf)
    return buf.getvalue()


def read_back(ctx, path):
    return pypdf.PdfReader(io.BytesIO(ctx.workspace.read_bytes(path)))


def test_info_and_read_with_page_markers(ctx):
    ctx.workspace.write_bytes("r.pdf", make_pdf(["Alpha intro", "Beta budget 2024", "Gamma end"], title="Report"))
    info = call(pdf_info, ctx, path="r.pdf")
    assert not info.error, info.text
    assert info.untrusted
    assert info.data["pages"] == 3 and info.data["title"] == "Report" and info.data["text_layer"] == "yes"
    assert "216 x 279" in info.text  # US Letter in mm
    res = call(pdf_read, ctx, path="r.pdf", pages="2-3")
    assert not res.error, res.text
    assert res.untrusted
    assert "--- page 2 ---\nBeta budget 2024" in res.text and "--- page 3 ---\nGamma end" in res.text
    assert "Alpha" not in res.text
    bad = call(pdf_read, ctx, path="r.pdf", pages="5")
    assert bad.error and "has 3" in bad.text


def test_a_folder_given_as_the_pdf_is_refused_with_the_files_it_holds(ctx):
    """A held-out task at 9a1aa10: pdf_info on the workspace folder twice ("is a folder, not a file"), for
    "Which PDF in this folder has the most pages?"."""
    for name in ("a.pdf", "b.pdf"):
        ctx.workspace.write_bytes(f"docs/{name}", make_pdf(["x"]))
    res = call(pdf_info, ctx, path="docs")
    assert res.error and "docs is a folder, not a file; it holds a.pdf, b.pdf: pass one file at a time." in res.text


def test_read_continues_where_the_output_limit_stopped(ctx):
    ctx.workspace.write_bytes("long.pdf", make_pdf([f"Page {i} " + "word " * 100 for i in range(1, 11)]))
    res = call(pdf_read, ctx, path="long.pdf", pages="all", max_chars=1500)
    assert "pages='3-'" in res.text
    assert "--- page 3 ---" not in res.text


def test_scanned_pages_are_reported(ctx):
    ctx.workspace.write_bytes("scan.pdf", make_pdf(["Typed cover", None]))
    res = call(pdf_read, ctx, path="scan.pdf", pages="all")
    assert "--- page 2 ---\n[no text layer: scanned image; OCR would be needed]" in res.text
    assert res.data["scanned"] == [2]
    ctx.workspace.write_bytes("allscan.pdf", make_pdf([None]))
    assert call(pdf_info, ctx, path="allscan.pdf").data["text_layer"] == "no (scanned)"


def test_search_gives_page_numbers(ctx):
    ctx.workspace.write_bytes("s.pdf", make_pdf(["Invoice total due", "nothing here", "The TOTAL   due again"]))
    res = call(pdf_search, ctx, path="s.pdf", query="total due")
    assert not res.error, res.text
    assert res.data["pages"] == [1, 3] and res.data["hits"] == 2
    assert "page 1: ...Invoice total due..." in res.text


def test_encrypted_with_empty_password_opens_and_real_password_fails(ctx):
    ctx.workspace.write_bytes("open.pdf", make_pdf(["Secret plan"], password=""))
    res = call(pdf_read, ctx, path="open.pdf")
    assert not res.error and "Secret plan" in res.text
    assert call(pdf_info, ctx, path="open.pdf").data["encrypted"] is True
    ctx.workspace.write_bytes("locked.pdf", make_pdf(["Secret plan"], password="hunter2"))
    res = call(pdf_read, ctx, path="locked.pdf")
    assert res.error and "encrypted with a password" in res.text and "\n" not in res.text


def test_pdf_bytes_to_text_caps_pages():
    data = make_pdf([f"page text {i}" for i in range(1, 6)])
    text = pdf_bytes_to_text(data, max_pages=2)
    assert "--- page 1 ---\npage text 1" in text and "--- page 2 ---" in text
    assert "--- page 3 ---" not in text and "3 more pages" in text


def test_time_budget_stops_between_pages():
    reader = pypdf.PdfReader(io.BytesIO(make_pdf(["a", "b", "c", "d"])))
    ticks = iter([0.0, 3.0, 11.0])  # start, before page 2, before page 3
    done, skipped = extract_pages(reader, [0, 1, 2, 3], budget_s=10, clock=lambda: next(ticks))
    assert [i for i, _, _ in done] == [0, 1] and skipped == [2, 3]


def test_merge_extract_split_rotate(ctx):
    ctx.workspace.write_bytes("a.pdf", make_pdf(["A1", "A2"]))
    ctx.workspace.write_bytes("b.pdf", make_pdf(["B1"], password=""))
    res = call(pdf_merge, ctx, inputs=["a.pdf", "b.pdf"], output="ab.pdf")
    assert not res.error, res.text
    assert [p.extract_text() for p in read_back(ctx, "ab.pdf").pages] == ["A1", "A2", "B1"]
    again = call(pdf_merge, ctx, inputs=["a.pdf", "b.pdf"], output="ab.pdf")
    assert again.error and "overwrite" in again.text
    assert pdf_merge.risk_of(ctx, pdf_merge.validate({"inputs": ["a.pdf", "b.pdf"], "output": "ab.pdf"})) is RiskClass.DESTRUCTIVE

    assert not call(pdf_extract_pages, ctx, path="ab.pdf", pages="3,1", output="x.pdf").error
    assert [p.extract_text() for p in read_back(ctx, "x.pdf").pages] == ["A1", "B1"]

    res = call(pdf_split, ctx, path="ab.pdf", every=2, output_prefix="parts/ab")
    assert not res.error, res.text
    assert res.data["files"] == ["parts/ab-001.pdf", "parts/ab-002.pdf"]
    assert len(read_back(ctx, "parts/ab-001.pdf").pages) == 2 and len(read_back(ctx, "parts/ab-002.pdf").pages) == 1
    clash = call(pdf_split, ctx, path="ab.pdf", every=2, output_prefix="parts/ab")
    assert clash.error and "already exists" in clash.text

    params = pdf_rotate.validate({"path": "ab.pdf", "degrees": 90, "pages": "2"})
    assert pdf_rotate.risk_of(ctx, params) is RiskClass.DESTRUCTIVE
    assert not pdf_rotate.invoke(ctx, params).error
    assert [p.rotation for p in read_back(ctx, "ab.pdf").pages] == [0, 90, 0]
    assert call(pdf_rotate, ctx, path="ab.pdf", degrees=45).error


def test_output_must_be_pdf(ctx):
    ctx.workspace.write_bytes("a.pdf", make_pdf(["A1"]))
    res = call(pdf_extract_pages, ctx, path="a.pdf", pages="1", output="a.txt")
    assert res.error and ".pdf" in res.text
