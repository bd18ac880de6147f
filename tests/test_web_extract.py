"""Content-type handling of fetched bodies (no network)."""

from __future__ import annotations

import pytest

from tools.base import ToolError
from tools.web.extract import decode_text, extract, kind_of

PAGE = b"""<html><head><title> My  Page </title><style>.x{color:red}</style></head>
<body><p>First paragraph here.</p><script>alert("no")</script>
<ul><li><a href="/a#frag">Link A</a></li><li><a href="mailto:x@y">mail</a></li></ul></body></html>"""


def test_html_falls_back_to_plain_text_when_trafilatura_finds_nothing(monkeypatch):
    import trafilatura

    monkeypatch.setattr(trafilatura, "extract", lambda *a, **k: None)
    page = extract(PAGE, "text/html", None, "https://site.example/dir/")
    assert page.kind == "html" and page.title == "My Page"
    assert "First paragraph here." in page.text and "Link A" in page.text
    assert "alert" not in page.text and "color:red" not in page.text
    assert page.links == [("https://site.example/a", "Link A")]


@pytest.mark.parametrize(
    ("ctype", "body", "kind"),
    [
        ("application/octet-stream", b"%PDF-1.7\n...", "pdf"),
        ("", b"<!DOCTYPE html><html></html>", "html"),
        ("", b'{"a": 1}', "json"),
        ("application/vnd.api+json", b"{}", "json"),
        ("text/csv", b"a,b\n1,2", "text"),
        ("application/octet-stream", b"\x00\x01\x02binary", None),
        ("application/zip", b"PK\x03\x04", None),
    ],
)
def test_kind_is_taken_from_the_type_or_sniffed_when_generic(ctype, body, kind):
    assert kind_of(ctype, body) == kind


def test_declared_charset_is_used_and_a_wrong_one_is_survived():
    assert decode_text("café".encode("latin-1"), "latin-1") == "café"
    assert decode_text("café".encode("utf-8"), "no-such-charset") == "café"


def test_a_pdf_cut_at_the_size_cap_is_refused():
    with pytest.raises(ToolError, match="size cap"):
        extract(b"%PDF-1.7 partial", "application/pdf", None, "https://x.example/a.pdf", truncated=True)
