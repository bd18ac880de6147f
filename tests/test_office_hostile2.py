"""Hostile documents, round 2: zips that lie about their sizes, DTDs hidden
past the first 4 KB of a part, and a Word body of millions of tiny paragraphs.
Every input is built at run time (see ``office_hostile_docs``); each gives a
one-line error or a bounded, truncated result."""

from __future__ import annotations

import io
import zipfile

import pytest

pytest.importorskip("docx")
pytest.importorskip("openpyxl")

from office_hostile_docs import W_NS, docx_zip, padded_zip, xlsx_zip  # noqa: E402
from tools.office import _common  # noqa: E402
from tools.office.docx_read import docx_read  # noqa: E402
from tools.office.docx_write import docx_replace  # noqa: E402
from tools.office.xlsx import xlsx_info, xlsx_read  # noqa: E402
from tool_helpers import call  # noqa: E402  (the `ctx` fixture is in conftest.py)


def assert_one_line_error(res, *needles):
    assert res.error, res.text[:300]
    assert "\n" not in res.text and "Traceback" not in res.text
    for n in needles:
        assert n in res.text, res.text


OVER_PART_CAP = 33 * 1024 * 1024  # decompressed bytes: just over the 32 MiB whole-loaded part cap


def declared(data: bytes, part: str) -> zipfile.ZipInfo:
    return zipfile.ZipFile(io.BytesIO(data)).getinfo(part)


# --- item 4: sizes counted on the bytes decompressed, not the declared ones ---


def test_padded_shared_strings_are_refused_by_the_bytes_decompressed(ctx):
    strings = b"<si><t>x</t></si>" * (OVER_PART_CAP // 17)
    data = padded_zip(xlsx_zip(shared_strings=strings), "xl/sharedStrings.xml")
    info = declared(data, "xl/sharedStrings.xml")
    assert info.file_size < _common.MAX_RATIO * info.compress_size  # the declared-size check passes
    assert len(data) < 1_000_000
    ctx.workspace.write_bytes("padded.xlsx", data)
    assert_one_line_error(call(xlsx_info, ctx, path="padded.xlsx"), "zip bomb", "xl/sharedStrings.xml", "32 MiB")
    assert_one_line_error(call(xlsx_read, ctx, path="padded.xlsx"), "zip bomb", "xl/sharedStrings.xml")


def test_padded_word_styles_are_refused_by_docx_read_and_edit(ctx):
    styles = b'<?xml version="1.0"?><w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
    styles += b"<!-- x -->" * (OVER_PART_CAP // 10) + b"</w:styles>"
    data = padded_zip(docx_zip(styles=styles), "word/styles.xml")
    ctx.workspace.write_bytes("padded.docx", data)
    assert_one_line_error(call(docx_read, ctx, path="padded.docx"), "zip bomb", "word/styles.xml")
    assert_one_line_error(call(docx_replace, ctx, path="padded.docx", find="a", replace="b"), "zip bomb", "word/styles.xml")


def test_a_padded_part_under_the_caps_still_reads(ctx):
    data = padded_zip(xlsx_zip(shared_strings=b"<si><t>hello</t></si>"), "xl/sharedStrings.xml")
    ctx.workspace.write_bytes("ok.xlsx", data)
    res = call(xlsx_read, ctx, path="ok.xlsx")
    assert not res.error, res.text
    assert "hello" in res.text



# --- item 3: a Word body of millions of tiny paragraphs is read to the budget only ---


def test_millions_of_tiny_paragraphs_stop_at_the_character_budget(ctx):
    from office_hostile_docs import tiny_paragraphs

    data = padded_zip(docx_zip(body=tiny_paragraphs(2_000_000)), "word/document.xml", ratio=150)
    assert len(data) < 1_000_000  # ~70 MB of XML in a ~450 KB file, under the ratio guard
    ctx.workspace.write_bytes("tiny.docx", data)
    res = call(docx_read, ctx, path="tiny.docx", max_chars=2000)
    assert not res.error, res.text[:300]
    assert res.data["truncated"] is True and res.data["complete"] is False
    assert res.data["paragraphs"] < 1000  # stopped reading, did not walk 2 million
    assert len(res.text) < 2000 + 500
    assert "[... truncated; call docx_read again with start=" in res.text
    assert "reading stopped at max_chars" in res.text.splitlines()[0]


def test_reading_on_from_a_late_paragraph(ctx):
    from office_hostile_docs import tiny_paragraphs

    body = tiny_paragraphs(20_000) + b"<w:p><w:r><w:t>the end</w:t></w:r></w:p>"
    ctx.workspace.write_bytes("long.docx", docx_zip(body=body))
    res = call(docx_read, ctx, path="long.docx", start=20_001)
    assert not res.error, res.text[:300]
    assert "[p20001] the end" in res.text
    assert res.data["complete"] is True and res.data["paragraphs"] == 20_001


# --- item 6: a DTD anywhere in any XML part is refused, not only in its first 4 KB ---

DTD = b'<!DOCTYPE x [<!ENTITY e "boom">]>'


def late_dtd_part(root: bytes, *, pad: int = 5 * 1024, encoding: str = "utf-8") -> bytes:
    """``root`` (a complete element) behind an XML declaration, ``pad`` bytes of
    comment and a DTD: valid XML whose DTD starts after the first ``pad`` bytes."""
    text = f'<?xml version="1.0" encoding="{encoding}"?>\n<!--{"p" * pad}-->\n{DTD.decode()}\n{root.decode()}'
    return text.encode(encoding)


DOC_ROOT = f'<w:document xmlns:w="{W_NS}"><w:body><w:p><w:r><w:t>before &e; after</w:t></w:r></w:p></w:body></w:document>'.encode()
SST_ROOT = b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>before &e; after</t></si></sst>'


def test_dtd_after_the_first_4kb_of_the_word_body_is_refused(ctx):
    ctx.workspace.write_bytes("late.docx", docx_zip(document=late_dtd_part(DOC_ROOT)))
    assert_one_line_error(call(docx_read, ctx, path="late.docx"), "DTD", "word/document.xml", "refusing")
    assert_one_line_error(call(docx_replace, ctx, path="late.docx", find="before", replace="x"), "DTD")


def test_dtd_after_the_first_4kb_of_shared_strings_and_sheets_is_refused(ctx):
    ctx.workspace.write_bytes("sst.xlsx", xlsx_zip(shared_strings_part=late_dtd_part(SST_ROOT)))
    assert_one_line_error(call(xlsx_read, ctx, path="sst.xlsx"), "DTD", "xl/sharedStrings.xml")
    assert_one_line_error(call(xlsx_info, ctx, path="sst.xlsx"), "DTD", "xl/sharedStrings.xml")
    rows = b"<!--" + b"p" * 6000 + b"-->" + b'<!DOCTYPE y [<!ENTITY f "x">]>'  # inside the part: not well-formed, refused before parsing
    ctx.workspace.write_bytes("sheet.xlsx", xlsx_zip(sheet_data=rows))
    assert_one_line_error(call(xlsx_read, ctx, path="sheet.xlsx"), "DTD", "xl/worksheets/sheet1.xml")


def test_dtd_cut_by_a_chunk_border_is_found(ctx):
    head = f'<?xml version="1.0"?>\n<!--'.encode()
    pad = _common._CHUNK - len(head) - len(b"-->") - 4  # "<!DOCTYPE" starts 4 bytes before the border
    document = head + b"p" * pad + b"-->" + DTD + DOC_ROOT
    assert document.index(b"<!DOCTYPE") < _common._CHUNK < document.index(b"<!DOCTYPE") + 9
    ctx.workspace.write_bytes("border.docx", padded_zip(docx_zip(document=document), "word/document.xml"))
    assert_one_line_error(call(docx_read, ctx, path="border.docx"), "DTD")


def test_dtd_in_a_utf16_part_is_found(ctx):
    ctx.workspace.write_bytes("u16.docx", docx_zip(document=late_dtd_part(DOC_ROOT, encoding="utf-16")))
    assert_one_line_error(call(docx_read, ctx, path="u16.docx"), "DTD")
    ctx.workspace.write_bytes("u16.xlsx", xlsx_zip(shared_strings_part=late_dtd_part(SST_ROOT, encoding="utf-16-be")))
    assert_one_line_error(call(xlsx_read, ctx, path="u16.xlsx"), "DTD")


def test_parts_in_encodings_that_hide_a_dtd_are_refused(ctx):
    utf7 = b'<?xml version="1.0" encoding="UTF-7"?>' + DOC_ROOT
    ctx.workspace.write_bytes("utf7.docx", docx_zip(document=utf7))
    assert_one_line_error(call(docx_read, ctx, path="utf7.docx"), "UTF-7", "refusing")
    utf32 = late_dtd_part(SST_ROOT, encoding="utf-32")
    ctx.workspace.write_bytes("utf32.xlsx", xlsx_zip(shared_strings_part=utf32))
    assert_one_line_error(call(xlsx_read, ctx, path="utf32.xlsx"), "UTF-32", "refusing")


def test_a_utf16_document_without_a_dtd_still_reads(ctx):
    document = f'<?xml version="1.0" encoding="utf-16"?>\n{DOC_ROOT.decode().replace(" &e;", "")}'.encode("utf-16")
    ctx.workspace.write_bytes("ok16.docx", docx_zip(document=document))
    res = call(docx_read, ctx, path="ok16.docx")
    assert not res.error, res.text
    assert "[p1] before after" in res.text
