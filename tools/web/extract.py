"""Turn a fetched body into readable text, by content type.

HTML goes through trafilatura (main content, boilerplate removed), with a
plain tag-stripping fallback when trafilatura finds nothing; PDF goes through
``tools.office.pdf.pdf_bytes_to_text``; text and JSON are decoded as they are.
Other types are refused with a message the model can act on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

from tools.base import ToolError

__all__ = ["Extracted", "extract", "kind_of", "decode_text", "html_to_text"]

_TEXT_TYPES = {
    "application/json", "application/ld+json", "application/xml", "application/javascript",
    "application/x-yaml", "application/yaml", "application/toml", "application/csv",
}
_HTML_TYPES = {"text/html", "application/xhtml+xml"}
_SKIP_TAGS = {"script", "style", "noscript", "template", "svg", "head"}
_BLOCK_TAGS = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "pre", "table"}


@dataclass
class Extracted:
    """Readable text of one document.

    Attributes:
        text: the text (may be empty for an empty page).
        kind: "html", "pdf", "text" or "json".
        title: page title when known ("").
        links: absolute http(s) links found in an HTML page, in order, unique,
            each ``(url, link text)``.
    """

    text: str
    kind: str
    title: str = ""
    links: list[tuple[str, str]] = field(default_factory=list)


class _PageParser(HTMLParser):
    """Collects visible text, the <title> and <a href> links."""

    def __init__(self, base_url: str) -> None:
        super().__init__(convert_charrefs=True)
        self.base_url = base_url
        self.parts: list[str] = []
        self.title = ""
        self.links: list[tuple[str, str]] = []
        self._skip = 0
        self._in_title = False
        self._href: str | None = None
        self._anchor: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "base":
            href = dict(attrs).get("href")
            if href:
                self.base_url = urljoin(self.base_url, href)
        if tag in _SKIP_TAGS:
            self._skip += 1
        if tag == "title":
            self._in_title = True
        if tag in _BLOCK_TAGS:
            self.parts.append("\n")
        if tag == "a":
            href = dict(attrs).get("href")
            self._href = urljoin(self.base_url, href.strip()) if href else None
            self._anchor = []

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP_TAGS and self._skip:
            self._skip -= 1
        if tag == "title":
            self._in_title = False
        if tag in _BLOCK_TAGS:
            self.parts.append("\n")
        if tag == "a" and self._href:
            url = self._href.split("#", 1)[0]
            if urlsplit(url).scheme in ("http", "https") and url not in (u for u, _ in self.links):
                self.links.append((url, " ".join("".join(self._anchor).split())[:80]))
            self._href = None

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
            return
        if self._skip:
            return
        self.parts.append(data)
        if self._href is not None:
            self._anchor.append(data)

    def text(self) -> str:
        lines = (" ".join(line.split()) for line in "".join(self.parts).splitlines())
        out: list[str] = []
        for line in lines:
            if line or (out and out[-1]):
                out.append(line)
        return "\n".join(out).strip()


def decode_text(body: bytes, charset: str | None) -> str:
    """Decode ``body`` with ``charset`` when it is valid, else detect the
    encoding (charset-normalizer), else UTF-8 with replacement characters."""
    if charset:
        try:
            return body.decode(charset)
        except (LookupError, UnicodeDecodeError):
            pass
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        from charset_normalizer import from_bytes

        best = from_bytes(body).best()
        if best is not None:
            return str(best)
    except ImportError:
        pass
    return body.decode("utf-8", errors="replace")


def html_to_text(markup: str, url: str) -> Extracted:
    """Main text of an HTML page (trafilatura; tag stripping when it returns
    nothing), plus its title and links."""
    parser = _PageParser(url)
    try:
        parser.feed(markup)
        parser.close()
    except Exception:  # noqa: BLE001 - malformed markup still yields what was parsed
        pass
    text = None
    try:
        import trafilatura

        text = trafilatura.extract(markup, url=url, include_comments=False, include_tables=True, favor_recall=True)
    except Exception:  # noqa: BLE001 - any extractor failure falls back to plain text
        text = None
    if not text or not text.strip():
        text = parser.text()
    return Extracted(text=text.strip(), kind="html", title=" ".join(parser.title.split()), links=parser.links)


def kind_of(content_type: str, body: bytes) -> str | None:
    """"html", "pdf", "text", "json", or None for unsupported types.

    A missing or generic type (application/octet-stream, binary/octet-stream)
    is sniffed from the first bytes (``%PDF-``, ``<html``, ``<!doctype html``,
    ``{``/``[``)."""
    ct = (content_type or "").lower()
    if ct in _HTML_TYPES:
        return "html"
    if ct == "application/pdf":
        return "pdf"
    if ct.endswith("+json") or ct == "application/json":
        return "json"
    if ct.startswith("text/") or ct in _TEXT_TYPES or ct.endswith("+xml"):
        return "text"
    if ct and ct not in ("application/octet-stream", "binary/octet-stream", "application/unknown"):
        return None
    head = body[:512].lstrip().lower()
    if head.startswith(b"%pdf-"):
        return "pdf"
    if head.startswith((b"<!doctype html", b"<html")) or b"<body" in head:
        return "html"
    if head[:1] in (b"{", b"[") and b"\x00" not in head:
        return "json"
    if head and b"\x00" not in body[:4096]:
        try:
            body[:4096].decode("utf-8")
            return "text"
        except UnicodeDecodeError:
            return None
    return None


def _pdf_text(body: bytes) -> str:
    try:
        from tools.office.pdf import pdf_bytes_to_text
    except ImportError as exc:
        raise ToolError(f"reading PDF pages is not available in this build ({exc}).") from None
    return pdf_bytes_to_text(body)


def extract(body: bytes, content_type: str, charset: str | None, url: str, *, truncated: bool = False) -> Extracted:
    """Readable text of ``body`` served as ``content_type`` from ``url``.

    Args:
        truncated: the body was cut at the size cap (a cut PDF cannot be read).

    Raises:
        ToolError: unsupported content type, a PDF over the size cap, or the
            PDF reader is unavailable.
    """
    kind = kind_of(content_type, body)
    if kind is None:
        raise ToolError(
            f"{url} is {content_type or 'of unknown type'}, which cannot be read as text. "
            "fetch_url reads HTML, PDF, plain text and JSON pages."
        )
    if kind == "pdf":
        if truncated:
            raise ToolError(f"the PDF at {url} is larger than the size cap (web.max_bytes); it was not read.")
        return Extracted(text=_pdf_text(body).strip(), kind="pdf")
    if kind == "html":
        return html_to_text(decode_text(body, charset), url)
    return Extracted(text=decode_text(body, charset).strip(), kind=kind)
