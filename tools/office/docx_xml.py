"""WordprocessingML walking that python-docx does not do for us.

python-docx's ``Paragraph.text`` skips tracked insertions (``w:ins``), inline
content controls (``w:sdt``) and text boxes, and ``Document.paragraphs`` skips
block-level content controls. The functions here walk the XML (python-docx's
lxml tree, or a defusedxml tree for side parts such as comments) so that none of
that text is silently dropped, and define the paragraph numbering that the
read and edit tools share.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any, Iterator

from tools.base import ToolError
from tools.office._common import check_ooxml_zip

__all__ = [
    "W",
    "w",
    "ParaText",
    "open_docx",
    "iter_blocks",
    "body_paragraphs",
    "paragraph_text",
    "own_text_nodes",
]

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"


def w(tag: str) -> str:
    """Clark name of a WordprocessingML tag, e.g. ``w("p")``."""
    return f"{{{W}}}{tag}"


_P, _TBL, _SDT, _SDTCONTENT, _R = w("p"), w("tbl"), w("sdt"), w("sdtContent"), w("r")
_T, _DELTEXT, _TXBX = w("t"), w("delText"), w("txbxContent")
_SKIP = {w("pPr"), w("rPr"), w("sdtPr"), w("sdtEndPr"), w("instrText"), w("delInstrText"), w("fldChar")}
_ALT, _CHOICE, _FALLBACK = f"{{{MC}}}AlternateContent", f"{{{MC}}}Choice", f"{{{MC}}}Fallback"


def open_docx(data: bytes, name: str) -> Any:
    """Parse .docx bytes with python-docx after the hostile-file checks.

    Returns:
        a ``docx.document.Document``.

    Raises:
        ToolError: not a Word document, legacy .doc, encrypted, corrupt, or unsafe.
    """
    import docx

    check_ooxml_zip(data, name, "docx")
    try:
        return docx.Document(io.BytesIO(data))
    except Exception as exc:  # noqa: BLE001 - python-docx raises many kinds
        msg = str(exc).splitlines()[0][:160] if str(exc) else type(exc).__name__
        raise ToolError(f"{name} could not be read as a Word document ({msg}); ask for a .docx saved by Word or LibreOffice.") from None


def sdt_label(sdt: Any) -> str:
    """The alias or tag of a content control, or "content control"."""
    pr = sdt.find(w("sdtPr"))
    if pr is not None:
        for tag in ("alias", "tag"):
            el = pr.find(w(tag))
            if el is not None and el.get(w("val")):
                return el.get(w("val"))
    return "content control"


def iter_blocks(body: Any, control: str | None = None) -> Iterator[tuple[str, Any, str | None]]:
    """Body-level blocks in document order: ``(kind, element, control)``.

    ``kind`` is "p" or "tbl"; ``control`` is the label of the block-level
    content control the block sits in (None outside one).
    """
    for ch in body:
        if ch.tag == _P:
            yield "p", ch, control
        elif ch.tag == _TBL:
            yield "tbl", ch, control
        elif ch.tag == _SDT:
            content = ch.find(_SDTCONTENT)
            if content is not None:
                yield from iter_blocks(content, sdt_label(ch))
        elif ch.tag == w("customXml"):
            yield from iter_blocks(ch, control)


def body_paragraphs(body: Any) -> list[Any]:
    """The numbered paragraphs: body-level ``w:p`` (also inside block content
    controls), in order; index ``i`` is paragraph number ``i + 1``. Paragraphs in
    tables and text boxes are not numbered."""
    return [el for kind, el, _ in iter_blocks(body) if kind == "p"]


@dataclass
class ParaText:
    """A paragraph's text with what python-docx would skip.

    Attributes:
        markup: text with tracked insertions as ``{+...+}`` and deletions as ``{-...-}``.
        accepted: text as if all tracked changes were accepted.
        insertions / deletions: ``(author, text)`` of each tracked change.
        comments: ids of comments referenced in the paragraph.
        controls: ``(label, text)`` of inline content controls.
        textboxes: text of text boxes anchored in the paragraph.
    """

    markup: str = ""
    accepted: str = ""
    insertions: list[tuple[str, str]] = field(default_factory=list)
    deletions: list[tuple[str, str]] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    controls: list[tuple[str, str]] = field(default_factory=list)
    textboxes: list[str] = field(default_factory=list)


def paragraph_text(p: Any) -> ParaText:
    """Walk one ``w:p`` (lxml or ElementTree element) into a :class:`ParaText`."""
    out = ParaText()
    pieces: list[tuple[str, str]] = []  # (kind, text), kind in "", "ins", "del"

    def walk(el: Any, kind: str) -> None:
        for ch in el:
            tag = ch.tag
            if not isinstance(tag, str) or tag in _SKIP:
                continue
            if tag == _T:
                pieces.append((kind, ch.text or ""))
            elif tag == _DELTEXT:
                pieces.append(("del", ch.text or ""))
            elif tag in (w("tab"), w("ptab")):
                pieces.append((kind, "\t"))
            elif tag in (w("br"), w("cr")):
                pieces.append((kind, "\n"))
            elif tag == w("noBreakHyphen"):
                pieces.append((kind, "-"))
            elif tag in (w("ins"), w("moveTo"), w("del"), w("moveFrom")):
                sub = "ins" if tag in (w("ins"), w("moveTo")) else "del"
                start = len(pieces)
                walk(ch, sub)
                text = "".join(t for _, t in pieces[start:])
                author = ch.get(w("author")) or "unknown"
                if text:
                    (out.insertions if sub == "ins" else out.deletions).append((author, text))
            elif tag == w("commentReference"):
                cid = ch.get(w("id")) or "?"
                out.comments.append(cid)
                pieces.append(("", f"[c{cid}]"))
            elif tag == w("footnoteReference") or tag == w("endnoteReference"):
                pieces.append(("", f"[^{ch.get(w('id'))}]"))
            elif tag == _SDT:
                start = len(pieces)
                content = ch.find(_SDTCONTENT)
                if content is not None:
                    walk(content, kind)
                out.controls.append((sdt_label(ch), "".join(t for k, t in pieces[start:] if k != "del")))
            elif tag == _TXBX:
                text = "\n".join(paragraph_text(q).accepted for k, q, _ in iter_blocks(ch) if k == "p")
                if text.strip():
                    out.textboxes.append(text.strip())
            elif tag == _ALT:
                branch = ch.find(_CHOICE)
                if branch is None:
                    branch = ch.find(_FALLBACK)
                if branch is not None:
                    walk(branch, kind)
            else:
                walk(ch, kind)

    walk(p, "")
    markup: list[str] = []
    for kind, text in _merge(pieces):
        markup.append(text if not kind else ("{+" + text + "+}" if kind == "ins" else "{-" + text + "-}"))
    out.markup = "".join(markup)
    out.accepted = "".join(t for k, t in pieces if k != "del")
    return out


def _merge(pieces: list[tuple[str, str]]) -> list[tuple[str, str]]:
    merged: list[tuple[str, str]] = []
    for kind, text in pieces:
        if merged and merged[-1][0] == kind:
            merged[-1] = (kind, merged[-1][1] + text)
        elif text:
            merged.append((kind, text))
    return merged


def own_text_nodes(p: Any) -> list[Any]:
    """The ``w:t`` elements that belong to paragraph ``p`` itself (not to a
    text box or nested paragraph inside it), in document order (lxml only)."""
    nodes = []

    def walk(el: Any) -> None:
        for ch in el:
            if not isinstance(ch.tag, str) or ch.tag in (_TXBX, _P, w("pPr"), w("rPr")):
                continue
            if ch.tag == _T:
                nodes.append(ch)
            elif ch.tag == _ALT:
                branch = ch.find(_CHOICE)
                if branch is None:
                    branch = ch.find(_FALLBACK)
                if branch is not None:
                    walk(branch)
            else:
                walk(ch)

    walk(p)
    return nodes
