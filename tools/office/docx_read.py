"""The ``docx_read`` tool: a Word document as Markdown-like text.

Headings become ``#`` lines, list items ``-``/``1.`` lines, tables Markdown
tables. Every body paragraph carries its number (``[p7]``) for later edits.
Tracked insertions/deletions, comments, content controls and text boxes are
shown or listed, never silently dropped.
"""

from __future__ import annotations

import io
import zipfile
from typing import Any, Literal

from pydantic import BaseModel, Field

from tools.base import RiskClass, ToolContext, ToolResult, tool
from tools.office._common import read_doc_bytes
from tools.office.docx_xml import ParaText, iter_blocks, open_docx, paragraph_text, w

__all__ = ["DocxReadParams", "docx_read", "docx_to_text"]


class DocxReadParams(BaseModel):
    path: str = Field(description="Workspace path of the .docx file.")
    start: int = Field(1, ge=1, description="First paragraph number to show (1 = beginning).")
    max_chars: int = Field(20000, ge=500, le=200000, description="Cut the output after this many characters.")
    changes: Literal["markup", "accepted"] = Field(
        "markup", description="'markup' shows tracked changes as {+inserted+}/{-deleted-}; 'accepted' shows the text as if accepted."
    )


def _style_name(doc: Any, p: Any) -> str:
    try:
        from docx.text.paragraph import Paragraph

        style = Paragraph(p, doc._body).style
        return style.name if style is not None else ""
    except Exception:  # noqa: BLE001 - a broken style reference is just "no style"
        return ""


def _prefix(doc: Any, p: Any) -> str:
    name = _style_name(doc, p)
    lower = name.lower()
    if lower == "title":
        return "# "
    if lower.startswith("heading"):
        level = "".join(ch for ch in name if ch.isdigit())
        return "#" * min(int(level or 1), 6) + " "
    ppr = p.find(w("pPr"))
    numpr = ppr.find(w("numPr")) if ppr is not None else None
    if numpr is not None or lower.startswith("list"):
        ilvl = numpr.find(w("ilvl")) if numpr is not None else None
        depth = int(ilvl.get(w("val"), "0")) if ilvl is not None else 0
        return "  " * depth + ("1. " if "number" in lower else "- ")
    return ""


def _cell(text: str) -> str:
    return " ".join(text.replace("|", "\\|").split())


def _table(doc: Any, tbl: Any, mode: str) -> tuple[list[str], int]:
    """Markdown lines of a table and its row count (merged cells repeat their text)."""
    from docx.table import Table

    rows: list[list[str]] = []
    try:
        for row in Table(tbl, doc._body).rows:
            rows.append([_cell("\n".join(_pick(paragraph_text(q), mode) for q in c._tc.iter(w("p")))) for c in row.cells])
    except Exception:  # noqa: BLE001 - fall back to raw cells for odd grids
        rows = [
            [_cell(" ".join(_pick(paragraph_text(q), mode) for q in tc.iter(w("p")))) for tc in tr.iter(w("tc"))]
            for tr in tbl.iter(w("tr"))
        ]
    if not rows:
        return ["(empty table)"], 0
    width = max(len(r) for r in rows)
    lines = []
    for i, r in enumerate(rows):
        r = r + [""] * (width - len(r))
        lines.append("| " + " | ".join(r) + " |")
        if i == 0:
            lines.append("|" + " --- |" * width)
    return lines, len(rows)


def _pick(pt: ParaText, mode: str) -> str:
    return pt.markup if mode == "markup" else pt.accepted


def _comments(data: bytes) -> dict[str, tuple[str, str]]:
    """Comment id -> (author, text) from word/comments.xml (parsed with defusedxml)."""
    from defusedxml.ElementTree import fromstring

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            if "word/comments.xml" not in zf.namelist():
                return {}
            root = fromstring(zf.read("word/comments.xml"), forbid_dtd=True)
    except Exception:  # noqa: BLE001 - unreadable comments are reported as none
        return {}
    out = {}
    for c in root.iter(w("comment")):
        text = " ".join(paragraph_text(q).accepted for q in c.iter(w("p"))).strip()
        out[c.get(w("id")) or "?"] = (c.get(w("author")) or "unknown", text)
    return out


def _headers_footers(doc: Any) -> list[str]:
    seen: list[str] = []
    try:
        for section in doc.sections:
            for part in (section.header, section.footer):
                if part.is_linked_to_previous:
                    continue
                text = " / ".join(q.accepted for q in map(paragraph_text, part._element.iter(w("p"))) if q.accepted.strip())
                if text and text not in seen:
                    seen.append(text)
    except Exception:  # noqa: BLE001 - headers are extra information only
        pass
    return seen


def docx_to_text(
    data: bytes, name: str, *, start: int = 1, changes: str = "markup", max_chars: int = 1_000_000
) -> tuple[str, dict[str, Any]]:
    """Render .docx bytes as numbered Markdown-like text.

    Args:
        data: the file's bytes.
        name: workspace path (for messages).
        start: first paragraph number shown (earlier blocks are skipped).
        changes: "markup" or "accepted" (see :class:`DocxReadParams`).
        max_chars: cap on the body text; the summary (comments, tracked
            changes, ...) is always kept, and a note says where to continue.

    Returns:
        (text, stats) with stats keys paragraphs, tables, comments,
        insertions, deletions, controls, textboxes.

    Raises:
        ToolError: the file is not a readable, safe Word document.
    """
    doc = open_docx(data, name)
    body = doc.element.body
    lines: list[tuple[int, str]] = []  # (paragraph number, line)
    ins: list[tuple[str, str]] = []
    dels: list[tuple[str, str]] = []
    controls: list[str] = []
    boxes: list[str] = []
    comment_at: dict[str, int] = {}
    n_para = n_tbl = 0
    for kind, el, control in iter_blocks(body):
        if kind == "tbl":
            n_tbl += 1
            if n_para + 1 < start:
                continue
            tlines, nrows = _table(doc, el, changes)
            lines.append((n_para + 1, f"[table {n_tbl}] ({nrows} rows, after p{n_para})"))
            lines.extend((n_para + 1, t) for t in tlines)
            continue
        n_para += 1
        pt = paragraph_text(el)
        ins += pt.insertions
        dels += pt.deletions
        for cid in pt.comments:
            comment_at.setdefault(cid, n_para)
        for label, text in pt.controls:
            controls.append(f'- "{label}" (p{n_para}): {text}')
        for text in pt.textboxes:
            boxes.append(f"- (anchored at p{n_para}): {text}")
        if n_para < start:
            continue
        text = _pick(pt, changes)
        boxes_inline = "".join(f" [text box: {' '.join(b.split())}]" for b in pt.textboxes)
        text = text + boxes_inline if text.strip() else boxes_inline.strip()
        tag = f"[p{n_para}]" + (f" (in content control '{control}')" if control else "")
        lines.append((n_para, f"{tag} {_prefix(doc, el)}{text}" if text.strip() else tag))
    comments = _comments(data)
    extra: list[str] = []
    if comments:
        extra.append("Comments:")
        for cid, (author, text) in comments.items():
            where = f" (on p{comment_at[cid]})" if cid in comment_at else ""
            extra.append(f"[c{cid}] {author}{where}: {text}")
    if ins or dels:
        authors = sorted({a for a, _ in ins + dels})
        extra.append(f"Tracked changes: {len(ins)} insertions, {len(dels)} deletions, by {', '.join(authors)}.")
    if controls:
        extra += ["Content controls:"] + controls
    if boxes:
        extra += ["Text boxes:"] + boxes
    hf = _headers_footers(doc)
    if hf:
        extra += ["Headers/footers:"] + [f"- {t}" for t in hf]
    head = f"{name}: {n_para} paragraphs, {n_tbl} tables, {len(comments)} comments, {len(ins) + len(dels)} tracked changes."
    if (ins or dels) and changes == "markup":
        head += "\nTracked changes are shown inline as {+inserted+} and {-deleted-}."
    shown: list[str] = []
    used = 0
    for para_no, line in lines:
        if used + len(line) > max_chars and shown:
            shown.append(f"[... truncated; call docx_read again with start={para_no} to continue]")
            break
        shown.append(line)
        used += len(line) + 1
    text = "\n".join([head, ""] + shown + ([""] + extra if extra else []))
    stats = {
        "paragraphs": n_para,
        "tables": n_tbl,
        "comments": len(comments),
        "insertions": len(ins),
        "deletions": len(dels),
        "controls": len(controls),
        "textboxes": len(boxes),
    }
    return text, stats


@tool("docx_read", risk=RiskClass.READ)
def docx_read(ctx: ToolContext, params: DocxReadParams) -> ToolResult:
    """Read a Word .docx as text with paragraph numbers [pN], headings, lists, tables, comments and tracked changes."""
    data = read_doc_bytes(ctx, params.path)
    text, stats = docx_to_text(data, params.path, start=params.start, changes=params.changes, max_chars=params.max_chars)
    cut = "[... truncated;" in text
    return ToolResult(text=text, data={"path": params.path, "truncated": cut, **stats}, untrusted=True)
