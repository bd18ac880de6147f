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

from office_hostile_docs import docx_zip, padded_zip, xlsx_zip  # noqa: E402
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
