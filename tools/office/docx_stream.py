"""Reading a Word body incrementally, for ``docx_read``.

python-docx parses the whole ``document.xml`` into one tree, and its
``Paragraph.style`` searches the styles part on every call: a 500 KB file
holding 2 million tiny paragraphs took minutes and over 1 GB that way. Here the
body is parsed with an lxml pull parser fed from the zip member 64 KiB at a
time; each body-level block is handed out when it ends and then dropped, so
memory stays at one block and the reader can stop at its character budget.
Elements use python-docx's element classes, so its ``Table`` works on them.
Style names come from one pass over the styles part (:class:`StyleNames`).
"""

from __future__ import annotations

import posixpath
import zipfile
from typing import Any, Iterator

from tools.base import ToolError

__all__ = ["main_part", "part_rels", "StyleNames", "iter_body"]

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_BODY = f"{{{W}}}body"
_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
_FEED = 64 * 1024


def _xml(zf: zipfile.ZipFile, part: str) -> Any:
    """A side part (rels, styles) as a defusedxml tree, or None when absent or unreadable."""
    from defusedxml.ElementTree import fromstring

    try:
        return fromstring(zf.read(part), forbid_dtd=True)
    except Exception:  # noqa: BLE001 - a missing or broken side part is "none"
        return None


def part_rels(zf: zipfile.ZipFile, part: str) -> list[tuple[str, str, str]]:
    """Relationships of ``part`` as ``(id, type, target part name)`` in file
    order (external targets are left out); ``part`` "" means the package."""
    folder, base = posixpath.split(part)
    root = _xml(zf, posixpath.join(folder, "_rels", base + ".rels"))
    out = []
    for rel in root.iter(f"{{{_REL_NS}}}Relationship") if root is not None else ():
        target = rel.get("Target") or ""
        if rel.get("TargetMode") == "External" or not target:
            continue
        path = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target))
        out.append((rel.get("Id") or "", rel.get("Type") or "", path))
    return out


def main_part(zf: zipfile.ZipFile) -> str:
    """The main document part named by the package relationships (what
    python-docx opens), or "word/document.xml"."""
    for _, kind, path in part_rels(zf, ""):
        if kind.endswith("/officeDocument") and path in zf.namelist():
            return path
    return "word/document.xml"


class StyleNames:
    """Paragraph style names by style id, read once from the styles part.

    Same answers as python-docx's ``Paragraph.style.name``: an unknown id or no
    id means the default paragraph style; built-in names in lower case
    ("heading 1") compare equal ignoring case. Lookups are a dict get.
    """

    def __init__(self, zf: zipfile.ZipFile, document_part: str):
        self.by_id: dict[str, str] = {}
        self.default = ""
        styles = next((p for _, k, p in part_rels(zf, document_part) if k.endswith("/styles")), None)
        root = _xml(zf, styles) if styles else None
        if root is None:
            return
        for st in root.iter(f"{{{W}}}style"):
            if st.get(f"{{{W}}}type", "paragraph") != "paragraph":
                continue
            name_el = st.find(f"{{{W}}}name")
            name = (name_el.get(f"{{{W}}}val") if name_el is not None else None) or ""
            sid = st.get(f"{{{W}}}styleId")
            if sid is not None:
                self.by_id[sid] = name
            if st.get(f"{{{W}}}default") in ("1", "true", "on"):
                self.default = name

    def name(self, style_id: str | None) -> str:
        """The style name for a ``w:pStyle`` value (None: no pStyle)."""
        if style_id is None:
            return self.default
        return self.by_id.get(style_id, self.default)


def iter_body(zf: zipfile.ZipFile, part: str, name: str) -> Iterator[Any]:
    """Body-level children of ``part`` (``w:p``, ``w:tbl``, ``w:sdt``, ``w:sectPr``
    ...) in order, each complete when yielded and removed from the tree after.

    Memory: the block being yielded plus one 64 KiB chunk. Closing the
    iterator early stops the decompression and the parse.

    Raises:
        ToolError: the part is not well-formed XML (one line).
    """
    from docx.oxml.parser import element_class_lookup
    from lxml import etree

    parser = etree.XMLPullParser(
        events=("end",), remove_blank_text=True, resolve_entities=False,
        no_network=True, load_dtd=False, huge_tree=False,
    )
    parser.set_element_class_lookup(element_class_lookup)
    try:
        with zf.open(part) as fh:
            while True:
                chunk = fh.read(_FEED)
                if chunk:
                    parser.feed(chunk)
                else:
                    parser.close()
                for _, el in parser.read_events():
                    body = el.getparent()
                    if body is not None and body.tag == _BODY:
                        yield el
                        body.remove(el)
                if not chunk:
                    break
    except etree.LxmlError as exc:
        msg = str(exc).splitlines()[0][:160] if str(exc) else type(exc).__name__
        raise ToolError(f"{name} could not be read as a Word document ({msg}); ask for a .docx saved by Word or LibreOffice.") from None
