"""Reading PDFs: ``pdf_info``, ``pdf_read``, ``pdf_search`` and
:func:`pdf_bytes_to_text` (used by the web tools for fetched PDFs).

Hostile files are bounded: pypdf's own decompression limits (75 MB per stream
by default in pypdf >= 6) stop decompression bombs, and here we cap pages per
call, characters per page and wall time per call (checked between pages; one
page's extraction cannot be interrupted). Encrypted PDFs are opened with the
empty password when that works (AES needs the ``cryptography`` package), else a
clear error. Pages without a text layer are reported as scanned.
"""

from __future__ import annotations

import io
import logging
import re
import time
from typing import Any, Callable

from pydantic import BaseModel, Field

from tools.base import RiskClass, ToolContext, ToolError, ToolResult, tool
from tools.office._common import parse_page_spec, read_doc_bytes, type_hint

__all__ = [
    "open_pdf",
    "page_text",
    "pdf_bytes_to_text",
    "extract_pages",
    "PdfInfoParams",
    "PdfReadParams",
    "PdfSearchParams",
    "pdf_info",
    "pdf_read",
    "pdf_search",
]

# pypdf logs a warning for every oddity of a broken file; without a handler
# Python prints them to stderr, which would scribble over the terminal UI.
logging.getLogger("pypdf").setLevel(logging.ERROR)

MAX_PAGE_CHARS = 100_000
"""Characters kept from one page's text."""

TIME_BUDGET_S = 60.0
"""Wall-time budget for one extraction call (seconds), checked between pages."""

MAX_PAGES_PER_CALL = 300


def open_pdf(data: bytes, name: str) -> Any:
    """Open PDF bytes with pypdf, decrypting with the empty password if needed.

    Returns:
        a ``pypdf.PdfReader`` whose ``pages`` can be read.

    Raises:
        ToolError: not a PDF, corrupt, encrypted with a real password, or the
            AES support (``cryptography``) is missing.
    """
    from pypdf import PdfReader
    from pypdf.errors import DependencyError, PyPdfError

    if b"%PDF-" not in data[:1024]:
        raise ToolError(f"{name} is not a PDF (no %PDF header); {type_hint(name, 'pdf_read')}")
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted:
            try:
                ok = reader.decrypt("")
            except DependencyError:
                raise ToolError(f"{name} is AES-encrypted and the 'cryptography' package is missing; install it.") from None
            if not ok:
                raise ToolError(f"{name} is encrypted with a password; ask the user for an unencrypted copy.")
        _ = len(reader.pages)
    except ToolError:
        raise
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError, OSError) as exc:
        raise ToolError(f"{name} could not be read as a PDF ({_short(exc)}); it may be corrupt or truncated.") from None
    return reader


def _short(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:120]


def _has_images(page: Any) -> bool:
    try:
        xobjects = page["/Resources"].get_object().get("/XObject")
        if xobjects is None:
            return False
        return any(x.get_object().get("/Subtype") == "/Image" for x in xobjects.get_object().values())
    except Exception:  # noqa: BLE001 - resources are only a hint
        return False


def page_text(reader: Any, index: int) -> tuple[str, str]:
    """Text of page ``index`` (0-based) and its status.

    Returns:
        (text, status) with status "ok", "scanned" (no text layer but images),
        "empty" (no text, no images) or "error: ..." (text is then "").
    """
    from pypdf.errors import LimitReachedError

    try:
        page = reader.pages[index]
        text = page.extract_text() or ""
    except LimitReachedError:
        return "", "error: a stream exceeds the decompression limit (possible PDF bomb)"
    except Exception as exc:  # noqa: BLE001 - one bad page must not stop the rest
        return "", f"error: {_short(exc)}"
    text = text[:MAX_PAGE_CHARS]
    if text.strip():
        return text, "ok"
    try:  # pypdf's extract_text swallows limit errors; find out why the page is empty
        page.get_contents()
    except LimitReachedError:
        return "", "error: a stream exceeds the decompression limit (possible PDF bomb)"
    except Exception:  # noqa: BLE001 - an unreadable content stream reads as empty
        pass
    return "", "scanned" if _has_images(page) else "empty"


def extract_pages(
    reader: Any,
    indices: list[int],
    *,
    budget_s: float = TIME_BUDGET_S,
    clock: Callable[[], float] = time.monotonic,
) -> tuple[list[tuple[int, str, str]], list[int]]:
    """Extract the given 0-based pages within a time budget.

    Returns:
        (done, skipped): ``done`` is ``[(index, text, status)]`` in order;
        ``skipped`` are indices not reached before the budget ran out.
    """
    start = clock()
    done: list[tuple[int, str, str]] = []
    for n, i in enumerate(indices):
        if n and clock() - start > budget_s:
            return done, indices[n:]
        text, status = page_text(reader, i)
        done.append((i, text, status))
    return done, []


def _render(done: list[tuple[int, str, str]]) -> str:
    parts = []
    for i, text, status in done:
        parts.append(f"--- page {i + 1} ---")
        if status == "ok":
            parts.append(text.rstrip())
        elif status == "scanned":
            parts.append("[no text layer: scanned image; OCR would be needed]")
        elif status == "empty":
            parts.append("[blank page]")
        else:
            parts.append(f"[{status}]")
    return "\n".join(parts)


def pdf_bytes_to_text(data: bytes, *, max_pages: int = 50) -> str:
    """The text of a PDF with ``--- page N ---`` markers, for fetched documents.

    Args:
        data: PDF bytes.
        max_pages: pages read from the start; a note says when more exist.

    Returns:
        the text (page markers, scanned pages noted).

    Raises:
        ToolError: not a PDF, corrupt, or encrypted with a password.
    """
    reader = open_pdf(data, "the PDF")
    count = len(reader.pages)
    done, skipped = extract_pages(reader, list(range(min(count, max_pages))))
    text = _render(done)
    if skipped:
        text += f"\n[stopped at page {skipped[0]} after the time budget]"
    if count > max_pages:
        text += f"\n[... {count - max_pages} more pages not shown; the PDF has {count} pages]"
    return text


class PdfInfoParams(BaseModel):
    path: str = Field(description="Workspace path of the .pdf file.")


class PdfReadParams(BaseModel):
    path: str = Field(description="Workspace path of the .pdf file.")
    pages: str = Field("1-20", description="Pages to read, 1-based, like '1-5,9' or 'all'.")
    max_chars: int = Field(30000, ge=500, le=300000, description="Cut the output after this many characters.")


class PdfSearchParams(BaseModel):
    path: str = Field(description="Workspace path of the .pdf file.")
    query: str = Field(min_length=1, description="Text to find (case-insensitive; whitespace-insensitive).")
    max_hits: int = Field(30, ge=1, le=500, description="Stop after this many hits.")


@tool("pdf_info", risk=RiskClass.READ)
def pdf_info(ctx: ToolContext, params: PdfInfoParams) -> ToolResult:
    """PDF metadata: page count, title, author, dates, page size, encryption, text layer."""
    data = read_doc_bytes(ctx, params.path)
    reader = open_pdf(data, params.path)
    count = len(reader.pages)
    info: dict[str, Any] = {"pages": count, "encrypted": bool(reader.is_encrypted)}
    try:
        meta = reader.metadata or {}
        for key in ("/Title", "/Author", "/Subject", "/Creator", "/Producer", "/CreationDate", "/ModDate"):
            if meta.get(key):
                info[key[1:].lower()] = str(meta.get(key))[:300]
    except Exception:  # noqa: BLE001 - broken metadata is just missing
        pass
    try:
        box = reader.pages[0].mediabox
        w_pt, h_pt = float(box.width), float(box.height)
        info["page_size_mm"] = f"{w_pt * 25.4 / 72:.0f} x {h_pt * 25.4 / 72:.0f}"
    except Exception:  # noqa: BLE001
        pass
    sample, _ = extract_pages(reader, list(range(min(count, 3))), budget_s=10)
    statuses = [s for _, _, s in sample]
    info["text_layer"] = "yes" if "ok" in statuses else ("no (scanned)" if "scanned" in statuses else "none found")
    lines = [f"{params.path}:"] + [f"{k}: {v}" for k, v in info.items()]
    return ToolResult(text="\n".join(lines), data={"path": params.path, **info}, untrusted=True)


@tool("pdf_read", risk=RiskClass.READ)
def pdf_read(ctx: ToolContext, params: PdfReadParams) -> ToolResult:
    """Read the text of PDF pages with page markers; scanned pages are flagged."""
    data = read_doc_bytes(ctx, params.path)
    reader = open_pdf(data, params.path)
    count = len(reader.pages)
    indices = parse_page_spec(params.pages, count)
    capped = indices[:MAX_PAGES_PER_CALL]
    done, skipped = extract_pages(reader, capped)
    parts: list[str] = [f"{params.path}: {count} pages."]
    used = 0
    last = None
    for i, text, status in done:
        block = _render([(i, text, status)])
        if used + len(block) > params.max_chars and last is not None:
            parts.append(f"[... output limit reached after page {last + 1}; call pdf_read with pages='{last + 2}-' to continue]")
            break
        if len(block) > params.max_chars:
            block = block[: params.max_chars] + "\n[... page cut at the output limit]"
        parts.append(block)
        used += len(block)
        last = i
    rest = skipped + indices[MAX_PAGES_PER_CALL:]
    if rest:
        parts.append(f"[not read in this call: pages from {rest[0] + 1}; call again with pages='{rest[0] + 1}-']")
    scanned = [i + 1 for i, _, s in done if s == "scanned"]
    if scanned:
        parts.append(f"Scanned pages (no text layer): {', '.join(map(str, scanned))}.")
    return ToolResult(
        text="\n".join(parts),
        data={"path": params.path, "pages": count, "read": [i + 1 for i, _, _ in done], "scanned": scanned},
        untrusted=True,
    )


@tool("pdf_search", risk=RiskClass.READ)
def pdf_search(ctx: ToolContext, params: PdfSearchParams) -> ToolResult:
    """Find text in a PDF; returns page numbers with a snippet around each hit."""
    data = read_doc_bytes(ctx, params.path)
    reader = open_pdf(data, params.path)
    count = len(reader.pages)
    words = params.query.split()
    pattern = re.compile(r"\s+".join(re.escape(w) for w in words), re.IGNORECASE)
    done, skipped = extract_pages(reader, list(range(min(count, 2000))))
    hits: list[str] = []
    pages_hit: list[int] = []
    for i, text, _ in done:
        for m in pattern.finditer(text):
            lo, hi = max(0, m.start() - 60), min(len(text), m.end() + 60)
            snippet = " ".join(text[lo:hi].split())
            hits.append(f"page {i + 1}: ...{snippet}...")
            if i + 1 not in pages_hit:
                pages_hit.append(i + 1)
            if len(hits) >= params.max_hits:
                break
        if len(hits) >= params.max_hits:
            break
    head = f"{len(hits)} hit(s) for {params.query!r} in {params.path}" + (f" on pages {', '.join(map(str, pages_hit))}." if hits else ".")
    if skipped:
        head += f" Searched pages 1-{skipped[0]} only (time budget)."
    if len(hits) >= params.max_hits:
        head += f" Stopped at {params.max_hits} hits."
    return ToolResult(text="\n".join([head] + hits), data={"path": params.path, "pages": pages_hit, "hits": len(hits)}, untrusted=True)
