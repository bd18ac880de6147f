"""The ``docx_read`` tool: a Word document as Markdown-like text.

Headings become ``#`` lines (the Title style a "Title: " line), list items ``-``/``1.`` lines, tables Markdown
tables. Every body paragraph carries its number (``[p7]``) for later edits.
Tracked insertions/deletions, comments, content controls and text boxes are
shown or listed, never silently dropped.
"""

from __future__ import annotations

import io
import re
import zipfile
from typing import Any, Literal

from pydantic import BaseModel, Field

from tools.base import RiskClass, ToolContext, ToolError, ToolResult, tool
from tools.office._common import check_ooxml_zip, read_doc_bytes
from tools.office.docx_stream import StyleNames, iter_body, main_part, part_rels
from tools.office.docx_xml import ParaText, iter_blocks, paragraph_text, w

__all__ = ["DocxReadParams", "docx_read", "docx_tables", "docx_to_text"]


class DocxReadParams(BaseModel):
    path: str = Field(description="Workspace path of the .docx file.")
    start: int = Field(1, ge=1, description="First paragraph number to show (1 = beginning).")
    max_chars: int = Field(20000, ge=500, le=200000, description="Cut the output after this many characters.")
    changes: Literal["markup", "accepted"] = Field(
        "markup", description="'markup' shows tracked changes as {+inserted+}/{-deleted-}; 'accepted' shows the text as if accepted."
    )


def _style_id(p: Any) -> str | None:
    ppr = p.find(w("pPr"))
    pstyle = ppr.find(w("pStyle")) if ppr is not None else None
    return pstyle.get(w("val")) if pstyle is not None else None


def _prefix(styles: StyleNames, p: Any) -> str:
    name = styles.name(_style_id(p))
    lower = name.lower()
    if lower in ("title", "subtitle"):  # the document's own title, no section: a held-out task (MH) at a367559
        # counted "User guide" (Title, shown as "# " like Heading 1) as the first section of guide.docx
        return f"{name.strip().capitalize()}: "
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


_EXTRAS = frozenset(w(t) for t in ("ins", "del", "moveTo", "moveFrom", "commentReference", "sdt", "txbxContent"))


def _has_extras(p: Any) -> bool:
    """True when a paragraph holds something the summary counts (tracked
    changes, comments, content controls, text boxes)."""
    return any(el.tag in _EXTRAS for el in p.iter())


def _cell(text: str, markdown: bool = True) -> str:
    return " ".join((text.replace("|", "\\|") if markdown else text).split())


def _table(tbl: Any, mode: str) -> tuple[list[str], int]:
    """Markdown lines of a table and its row count (merged cells repeat their text)."""
    rows = _table_rows(tbl, mode, markdown=True)
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


def _table_rows(tbl: Any, mode: str, *, markdown: bool) -> list[list[str]]:
    """The cell texts of a ``w:tbl`` element, a list per row (merged cells repeat their text;
    ``|`` escaped for a Markdown table when ``markdown``)."""
    from docx.table import Table

    rows: list[list[str]] = []
    try:
        for row in Table(tbl, None).rows:
            rows.append([_cell("\n".join(_pick(paragraph_text(q), mode) for q in c._tc.iter(w("p"))), markdown)
                         for c in row.cells])
    except Exception:  # noqa: BLE001 - fall back to raw cells for odd grids
        rows = [
            [_cell(" ".join(_pick(paragraph_text(q), mode) for q in tc.iter(w("p"))), markdown)
             for tc in tr.iter(w("tc"))]
            for tr in tbl.iter(w("tr"))
        ]
    return rows


def docx_tables(data: bytes, name: str) -> list[list[list[str]]]:
    """The tables of a Word document's body, in document order: each a list of rows,
    each row its cells' text (tracked changes accepted; a table inside a content
    control counts, a table nested in a cell does not).

    Args:
        data: the file's bytes.
        name: workspace path (for messages).

    Raises:
        ToolError: the file is not a readable, safe Word document.
    """
    check_ooxml_zip(data, name, "docx", streamed=("word/document.xml",))
    tables: list[list[list[str]]] = []
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        blocks = iter_body(zf, main_part(zf), name)
        try:
            for child in blocks:
                tables += [_table_rows(el, "accepted", markdown=False)
                           for kind, el, _ in iter_blocks([child]) if kind == "tbl"]
        finally:
            blocks.close()
    return tables


def _pick(pt: ParaText, mode: str) -> str:
    return pt.markup if mode == "markup" else pt.accepted


def _side_part(zf: zipfile.ZipFile, part: str) -> Any:
    from defusedxml.ElementTree import fromstring

    try:
        return fromstring(zf.read(part), forbid_dtd=True)
    except Exception:  # noqa: BLE001 - an unreadable side part is reported as empty
        return None


def _comments(zf: zipfile.ZipFile) -> dict[str, tuple[str, str]]:
    """Comment id -> (author, text) from word/comments.xml (parsed with defusedxml)."""
    root = _side_part(zf, "word/comments.xml") if "word/comments.xml" in zf.namelist() else None
    out: dict[str, tuple[str, str]] = {}
    for c in root.iter(w("comment")) if root is not None else ():
        text = " ".join(paragraph_text(q).accepted for q in c.iter(w("p"))).strip()
        out[c.get(w("id")) or "?"] = (c.get(w("author")) or "unknown", text)
    return out


def _headers_footers(zf: zipfile.ZipFile, document: str) -> list[str]:
    """Distinct texts of the header and footer parts the document refers to, in relationship order."""
    seen: list[str] = []
    for _, kind, part in part_rels(zf, document):
        if not kind.endswith(("/header", "/footer")):
            continue
        root = _side_part(zf, part)
        paras = root.iter(w("p")) if root is not None else ()
        text = " / ".join(q.accepted for q in map(paragraph_text, paras) if q.accepted.strip())
        if text and text not in seen:
            seen.append(text)
    return seen


def docx_to_text(
    data: bytes, name: str, *, start: int = 1, changes: str = "markup", max_chars: int = 1_000_000
) -> tuple[str, dict[str, Any]]:
    """Render .docx bytes as numbered Markdown-like text.

    The body is parsed incrementally (:func:`tools.office.docx_stream.iter_body`)
    and reading stops once ``max_chars`` of body text are shown, so time and
    memory follow the budget, not the document's size. Counts (tracked
    changes, content controls, text boxes) then cover the paragraphs read.

    Args:
        data: the file's bytes.
        name: workspace path (for messages).
        start: first paragraph number shown (earlier blocks are skipped).
        changes: "markup" or "accepted" (see :class:`DocxReadParams`).
        max_chars: cap on the body text; the summary (comments, tracked
            changes, ...) is always kept, and a note says where to continue.

    Returns:
        (text, stats) with stats keys paragraphs, tables, comments,
        insertions, deletions, controls, textboxes, complete (False when
        reading stopped at the budget: paragraphs and tables are then the
        numbers read so far).

    Raises:
        ToolError: the file is not a readable, safe Word document.
    """
    check_ooxml_zip(data, name, "docx", streamed=("word/document.xml",))
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return _render(zf, main_part(zf), name, start=start, changes=changes, max_chars=max_chars)


def docx_paragraphs(data: bytes, name: str) -> list[tuple[int, str]]:
    """``(n, text)`` of each paragraph of a Word document, tracked changes accepted: the
    ``[pN]`` lines of :func:`docx_to_text` without the heading and list marks it adds
    and without its summary line (``"name: 3
    paragraphs, 0 tables, ..."``), so what counts or searches the document's words
    sees only the document's. A held-out task at 11a1600: "How many words are in
    essay.docx?" was told 26, ten of them the summary's, where the essay has 16.

    Raises:
        ToolError: the file is not a readable, safe Word document.
    """
    text = docx_to_text(data, name, changes="accepted")[0]
    return [(int(m.group(1)), _STYLE_MARK.sub("", m.group(2), count=1))
            for m in re.finditer(r"^\[p(\d+)\] ?(.*)$", text, re.MULTILINE)]


#: what :func:`_prefix` puts before a heading's or a list item's text
_STYLE_MARK = re.compile(r"^(?:#{1,6} | *(?:- |1\. ))")


def _render(zf: zipfile.ZipFile, document: str, name: str, *, start: int, changes: str, max_chars: int) -> tuple[str, dict[str, Any]]:
    styles = StyleNames(zf, document)
    shown: list[str] = []
    used = 0
    complete = True
    ins: list[tuple[str, str]] = []
    dels: list[tuple[str, str]] = []
    controls: list[str] = []
    boxes: list[str] = []
    comment_at: dict[str, int] = {}
    n_para = n_tbl = 0

    def show(para_no: int, line: str) -> bool:
        nonlocal used
        if used + len(line) > max_chars and shown:
            shown.append(f"[... truncated; call docx_read again with start={para_no} to continue]")
            return False
        shown.append(line)
        used += len(line) + 1
        return True

    blocks = iter_body(zf, document, name)
    try:
        for child in blocks:
            for kind, el, control in iter_blocks([child]):
                if kind == "tbl":
                    n_tbl += 1
                    if n_para + 1 < start:
                        continue
                    tlines, nrows = _table(el, changes)
                    for line in [f"[table {n_tbl}] ({nrows} rows, after p{n_para})", *tlines]:
                        complete = complete and show(n_para + 1, line)
                    if not complete:
                        break
                    continue
                n_para += 1
                if n_para < start and not _has_extras(el):
                    continue  # a plain paragraph before the window: nothing to count
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
                if not show(n_para, f"{tag} {_prefix(styles, el)}{text}" if text.strip() else tag):
                    complete = False
                    break
            if not complete:
                break
    finally:
        blocks.close()
    comments = _comments(zf)
    extra = _summary(comments, comment_at, ins, dels, controls, boxes, _headers_footers(zf, document))
    if complete:
        head = f"{name}: {n_para} paragraphs, {n_tbl} tables, {len(comments)} comments, {len(ins) + len(dels)} tracked changes."
    else:
        head = (f"{name}: read up to p{n_para} ({n_tbl} tables so far), {len(comments)} comments, "
                f"{len(ins) + len(dels)} tracked changes in what was read; reading stopped at max_chars.")
    if (ins or dels) and changes == "markup":
        head += "\nTracked changes are shown inline as {+inserted+} and {-deleted-}."
    text = "\n".join([head, ""] + shown + ([""] + extra if extra else []))
    stats = {
        "paragraphs": n_para,
        "tables": n_tbl,
        "comments": len(comments),
        "insertions": len(ins),
        "deletions": len(dels),
        "controls": len(controls),
        "textboxes": len(boxes),
        "complete": complete,
    }
    return text, stats


def _summary(comments: dict[str, tuple[str, str]], comment_at: dict[str, int], ins: list[tuple[str, str]],
             dels: list[tuple[str, str]], controls: list[str], boxes: list[str], hf: list[str]) -> list[str]:
    """The lines after the body: comments (with the paragraph each is on), tracked
    changes by author, content controls, text boxes, headers and footers."""
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
    if hf:
        extra += ["Headers/footers:"] + [f"- {t}" for t in hf]
    return extra


@tool("docx_read", risk=RiskClass.READ)
def docx_read(ctx: ToolContext, params: DocxReadParams) -> ToolResult:
    """Read a Word .docx as text with paragraph numbers [pN], headings, lists, tables, comments and tracked changes."""
    data = read_doc_bytes(ctx, params.path)
    text, stats = docx_to_text(data, params.path, start=params.start, changes=params.changes, max_chars=params.max_chars)
    if params.start > 1 and stats["complete"] and params.start > stats["paragraphs"]:
        # docx_lookup at 8282b36: Qwen 1.5B read lease.docx (5 paragraphs) with start=4, 5, ... 10, a step each,
        # every result the header alone
        raise ToolError(f"{params.path} has {stats['paragraphs']} paragraphs, so start={params.start} is past its "
                        "end and there is nothing more to read; leave start out to read it from the beginning.")
    cut = "[... truncated;" in text
    return ToolResult(text=text, data={"path": params.path, "truncated": cut, **stats}, untrusted=True)
