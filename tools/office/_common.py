"""Shared helpers of the office tools: loading through the workspace, hostile-file
checks on OOXML zips, risk functions and output limits.

All file access goes through ``ctx.workspace`` (a ``sandbox.Workspace``):
documents are read as bytes and parsed from memory, and written by serialising
to memory and calling ``ws.write_bytes`` (atomic, undoable).
"""

from __future__ import annotations

import io
import os
import re
import zipfile
from pathlib import PurePosixPath
from typing import Any

from tools.base import RiskClass, always_changes, ToolContext, ToolError

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_UNZIPPED_BYTES",
    "MAX_PART_BYTES",
    "MAX_STREAMED_PART_BYTES",
    "OLE_MAGIC",
    "read_doc_bytes",
    "check_ooxml_zip",
    "save_bytes",
    "target_risk",
    "edit_risk",
    "parse_page_spec",
    "names_input",
    "type_hint",
]

MAX_FILE_BYTES = 200 * 1024 * 1024
"""Largest document the tools will load (bytes)."""

MAX_UNZIPPED_BYTES = 512 * 1024 * 1024
"""Largest total uncompressed size of an OOXML zip (bytes): checked on the
declared sizes first, then on the bytes actually decompressed (a zip can lie
about its sizes; padding defeats a ratio check on the declared sizes)."""

MAX_PART_BYTES = 32 * 1024 * 1024
"""Largest decompressed size of one XML part that a parser loads whole (bytes):
python-docx and openpyxl build object trees 10-50x the XML's size, so this is
what bounds their memory (see docs/BENCHMARKS.md, bench/office_hostile.py)."""

MAX_STREAMED_PART_BYTES = 256 * 1024 * 1024
"""Largest decompressed size of a part the caller reads incrementally (the
``streamed`` parts of :func:`check_ooxml_zip`) or of a non-XML part (images),
which no parser expands (bytes)."""

_CHUNK = 1 << 20
"""Bytes decompressed per read while checking a part."""

_DTD_MARKS = tuple(m.encode(enc) for m in ("<!DOCTYPE", "<!ENTITY") for enc in ("ascii", "utf-16-le", "utf-16-be"))
"""A DTD or entity declaration in UTF-8 (or any ASCII-compatible encoding) and UTF-16."""

_OVERLAP = max(map(len, _DTD_MARKS)) - 1
"""Bytes kept from the previous chunk so a mark cut by a chunk border is still found."""

_DECLARED_ENCODING = re.compile(rb"""<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._:-]+)""")
_SAFE_ENCODINGS = re.compile(
    r"utf-?8|utf-?16(-?[lb]e)?|(us-)?ascii|iso-?8859-\d+|latin-?1|(windows|cp)-?125\d|shift_jis|euc-(jp|kr)|gb2312|gbk|gb18030|big5",
    re.IGNORECASE,
)
"""Encodings in which a DTD is written with the bytes of :data:`_DTD_MARKS`
(OOXML itself allows only UTF-8 and UTF-16). UTF-7, UTF-32 and EBCDIC are not:
there ``<!DOCTYPE`` has other bytes, so a part in one is refused."""

MAX_RATIO = 200
"""Largest compression ratio for a member bigger than 1 MiB."""

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
"""First bytes of an OLE2 compound file: legacy .doc/.xls, or an encrypted OOXML file."""

_KIND = {
    "docx": ("Word document", "word/document.xml", ".doc (Word 97-2003)"),
    "xlsx": ("Excel workbook", "xl/workbook.xml", ".xls (Excel 97-2003)"),
}


def type_hint(name: str, reader: str = "") -> str:
    """What to do with a file of another type than the tool reads: the reader its
    extension calls for ("use pdf_read for this file"), else "check the file type."
    Qwen 1.5B called docx_read on invoices.pdf three times."""
    import os

    from tools.files._common import DOCUMENT_TOOLS

    found = DOCUMENT_TOOLS.get(os.path.splitext(str(name))[1].lower())
    if found and found[0] != reader:
        return f"use {found[0]} for this file."
    if str(name).lower().endswith((".txt", ".md", ".csv", ".tsv", ".json")):
        return "it is a text file: use read_file."
    return "check the file type."


def names_input(ctx: ToolContext, path: str, output: str | None) -> bool:
    """True when ``output`` names the same workspace file as ``path``: the edit is
    then in place (Qwen 1.5B passed output equal to path and was told to pass an
    ``overwrite`` the docx and xlsx edit tools do not have). A bad path is False
    (the save reports it)."""
    if not output:
        return False
    ws = ctx.workspace
    try:
        return ws.rel(ws.resolve(output)) == ws.rel(ws.resolve(path))
    except Exception:  # noqa: BLE001
        return False


def _ws(ctx: ToolContext) -> Any:
    if ctx.workspace is None:
        raise ToolError("no workspace is open; start the task with --workspace DIR.")
    return ctx.workspace


def _did_you_mean(ws: Any, path: str, limit: int = 2000) -> str:
    """"Did you mean contract.docx?" when one workspace file of the same type has a
    close name, else the list_dir hint. docx_edit_clause: Qwen 1.5B edited its own
    output name contract_modified.docx (never created) three times, not contract.docx."""
    import difflib
    import itertools

    ext = PurePosixPath(path).suffix.lower()
    try:
        files = [e.path for e in itertools.islice(ws.walk("."), limit)
                 if e.kind == "file" and PurePosixPath(e.path).suffix.lower() == ext]
    except Exception:  # noqa: BLE001 - only a hint
        files = []
    name = PurePosixPath(path.replace("\\", "/")).name
    close = difflib.get_close_matches(name, [PurePosixPath(f).name for f in files], n=1, cutoff=0.5)
    same = [f for f in files if close and PurePosixPath(f).name == close[0]]
    if len(same) == 1:
        return f"Did you mean {same[0]}? (list_dir shows what exists)"
    # multistep_invoices_memo at 42e28a8: docx_replace on memo.docx, a document the task had still to make
    maker = {".docx": "docx_create", ".xlsx": "xlsx_write"}.get(ext)
    return "Use list_dir to see what exists." + (f" To make a new one, call {maker}." if maker else "")


def read_doc_bytes(ctx: ToolContext, path: str, *, limit: int = MAX_FILE_BYTES) -> bytes:
    """Read a workspace file as bytes.

    Raises:
        ToolError: the path is outside the workspace, missing, a folder, or
            larger than ``limit`` bytes.
    """
    from sandbox import SandboxError

    ws = _ws(ctx)
    try:
        if not ws.exists(path):
            raise ToolError(f"file not found: {path}. {_did_you_mean(ws, path)}")
        if not ws.is_file(path):
            # a held-out task at 9a1aa10: pdf_info on the workspace folder twice, for "which PDF has the most pages"
            held = [e.path.rpartition("/")[2] for e in ws.walk(path, max_depth=1) if e.kind == "file"]
            raise ToolError(f"{path} is a folder, not a file" + (
                f"; it holds {', '.join(held[:12])}{' and more' if len(held) > 12 else ''}: pass one file at a time."
                if held else "."))
        data = ws.read_bytes(path, limit=limit + 1)
    except SandboxError as exc:
        raise ToolError(str(exc)) from None
    if len(data) > limit:
        raise ToolError(f"{path} is larger than {limit // (1024 * 1024)} MiB; too big to open here.")
    return data


def check_ooxml_zip(data: bytes, name: str, kind: str, *, streamed: tuple[str, ...] = ()) -> None:
    """Reject files that are not safe, well-formed OOXML zips of ``kind``.

    Checks, in order: legacy/encrypted OLE2 file, not a zip, corrupt zip,
    zip bomb on the declared sizes and ratios, missing main part, then every
    part is decompressed in 1 MiB chunks and counted: the bytes actually
    produced must stay under :data:`MAX_PART_BYTES` for XML parts (or
    :data:`MAX_STREAMED_PART_BYTES` for ``streamed`` parts and non-XML parts)
    and under :data:`MAX_UNZIPPED_BYTES` for the whole file; and no XML part
    may hold a DTD or an entity declaration (OOXML never has them; they are how
    entity bombs and external-entity attacks start).

    Memory: one chunk at a time; time: linear in the decompressed size.

    Args:
        data: the file's bytes.
        name: the workspace path, for messages.
        kind: "docx" or "xlsx".
        streamed: part names (or name prefixes ending in "/") that the caller
            parses incrementally, so they may be larger than a whole-loaded part.

    Raises:
        ToolError: one line naming the problem and what to do.
    """
    label, main_part, legacy = _KIND[kind]
    if data[:8] == OLE_MAGIC:
        raise ToolError(
            f"{name} is a legacy {legacy} file or a password-protected {label}; "
            f"ask the user to save it as .{kind} without a password."
        )
    if data[:4] != b"PK\x03\x04" and data[:4] != b"PK\x05\x06":
        raise ToolError(f"{name} is not a {label} (not a zip archive); {type_hint(name, kind + '_read')}")
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError):
        raise ToolError(f"{name} is not a {label} (corrupt or truncated zip); ask for a fresh copy.") from None
    total = 0
    for info in infos:
        total += info.file_size
        if info.file_size > (1 << 20) and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            raise ToolError(f"{name} looks like a zip bomb ({info.filename} expands {info.file_size // max(info.compress_size, 1)}x); refusing to open it.")
    if total > MAX_UNZIPPED_BYTES:
        raise ToolError(f"{name} would expand to {total // (1 << 20)} MiB; refusing to open it (zip bomb guard).")
    names = {i.filename for i in infos}
    if main_part not in names:
        raise ToolError(f"{name} is not a {label} (zip without {main_part}); {type_hint(name, kind + '_read')}")
    left = MAX_UNZIPPED_BYTES
    for info in infos:
        left -= _check_part(zf, info, name, label, streamed, left)


def _is_streamed(part: str, streamed: tuple[str, ...]) -> bool:
    return any(part == s or (s.endswith("/") and part.startswith(s)) for s in streamed)


def _check_part(zf: zipfile.ZipFile, info: zipfile.ZipInfo, name: str, label: str, streamed: tuple[str, ...], left: int) -> int:
    """Decompress one member chunk by chunk, counting and scanning; returns its size in bytes."""
    part = info.filename
    xml_name = part.endswith((".xml", ".rels"))
    size = 0
    tail = b""
    try:
        with zf.open(info) as fh:
            chunk = fh.read(_CHUNK)
            is_xml = xml_name or _looks_like_xml(chunk)
            cap = MAX_PART_BYTES if is_xml and not _is_streamed(part, streamed) else MAX_STREAMED_PART_BYTES
            while chunk:
                size += len(chunk)
                if size > left:
                    raise ToolError(f"{name} expands to more than {MAX_UNZIPPED_BYTES >> 20} MiB; refusing to open it (zip bomb guard).")
                if size > cap:
                    raise ToolError(f"{name} looks like a zip bomb ({part} expands to more than {cap >> 20} MiB); refusing to open it.")
                if is_xml and size == len(chunk):
                    encoding = _unsafe_encoding(chunk)
                    if encoding:
                        raise ToolError(f"{name} has an XML part in {encoding} ({part}), which Office never writes; refusing to open it.")
                if is_xml:
                    window = tail + chunk
                    if any(mark in window for mark in _DTD_MARKS):
                        raise ToolError(f"{name} has a DTD in {part} (possible XML entity bomb); refusing to open it.")
                    tail = window[-_OVERLAP:]
                chunk = fh.read(_CHUNK)
    except ToolError:
        raise
    except Exception:  # noqa: BLE001 - any read failure (CRC, bad deflate data, unsupported method) means a broken archive
        raise ToolError(f"{name} is not a {label} (corrupt part {part}); ask for a fresh copy.") from None
    return size


def _looks_like_xml(head: bytes) -> bool:
    """True when a part's first bytes look like XML text (in any encoding)."""
    stripped = head[:64].lstrip(b" \t\r\n\xef\xbb\xbf\xff\xfe\x00")
    return stripped[:1] == b"<"


def _unsafe_encoding(head: bytes) -> str | None:
    """The name of the encoding of an XML part when a DTD in it could hide
    from the byte scan (UTF-32, EBCDIC, a declared UTF-7...), else None."""
    if head[:4] in (b"\x00\x00\xfe\xff", b"\xff\xfe\x00\x00", b"\x00\x00\x00<", b"<\x00\x00\x00", b"\x00\x00<\x00", b"\x00<\x00\x00"):
        return "UTF-32"
    if head[:2] in (b"\xff\xfe", b"\xfe\xff", b"<\x00", b"\x00<"):
        codec = "utf-16" if head[:2] in (b"\xff\xfe", b"\xfe\xff") else ("utf-16-le" if head[:1] == b"<" else "utf-16-be")
        decl = head[:1024].decode(codec, "replace").encode("ascii", "replace")
    else:
        decl = head[3:1024] if head[:3] == b"\xef\xbb\xbf" else head[:1024]
    if not decl.lstrip(b" \t\r\n").startswith(b"<"):
        return "an unknown encoding (not UTF-8 or UTF-16)"
    m = _DECLARED_ENCODING.match(decl)
    if m and not _SAFE_ENCODINGS.fullmatch(m.group(1).decode("ascii")):
        return m.group(1).decode("ascii")
    return None


_FORMATS = (  # (how the bytes start, a part name inside the zip or None, suffixes, the format's name)
    (b"%PDF", None, (".pdf",), "a PDF"),
    (b"PK", "word/", (".docx",), "a Word document"),
    (b"PK", "xl/", (".xlsx", ".xlsm"), "an Excel workbook"),
)


def check_suffix(path: str, data: bytes) -> None:
    """Refuse to save a document under a name of another type (a .docx archive named main.py).

    The format is read from ``data`` itself: a PDF, or an OOXML zip holding ``word/`` or ``xl/``.

    Raises:
        ToolError: ``path`` does not end in a suffix of that format; the message names the
            right suffix and, for text and code, ``write_file``.
    """
    lower = str(path).lower()
    for magic, part, suffixes, name in _FORMATS:
        if not data.startswith(magic):
            continue
        if part is not None:
            try:
                with zipfile.ZipFile(io.BytesIO(data)) as zf:
                    if not any(n.startswith(part) for n in zf.namelist()):
                        continue
            except zipfile.BadZipFile:
                continue
        if not lower.endswith(suffixes):
            from tools.files._common import DOCUMENT_TOOLS

            other = DOCUMENT_TOOLS.get(os.path.splitext(lower)[1])
            how = (f"{path} names another kind of document: {other[1]}" if other and other[1]  # invoices.xlsx
                   else "for a text, Markdown or code file use write_file instead")
            raise ToolError(f"{path} would be {name}, which must be named *{suffixes[0]}; {how}.")
        return


def save_bytes(ctx: ToolContext, path: str, data: bytes, *, overwrite: bool) -> Any:
    """Write ``data`` to a workspace path atomically (undoable).

    Raises:
        ToolError: the file exists and ``overwrite`` is false, the name's type does
            not match the document's format (:func:`check_suffix`), or the sandbox
            refuses the path.
    """
    from sandbox import SandboxError

    check_suffix(path, data)
    ws = _ws(ctx)
    try:
        if not overwrite and ws.exists(path):
            raise ToolError(f"{path} already exists; pass overwrite=true to replace it, or choose another name.")
        return ws.write_bytes(path, data, overwrite=overwrite)
    except SandboxError as exc:
        raise ToolError(str(exc)) from None


def target_risk(*fields: str):
    """A risk function: DESTRUCTIVE when any of the named path parameters
    names an existing file, else WRITE. ``None``/empty fields are ignored;
    list fields are checked item by item."""

    def risk(ctx: ToolContext, params: Any) -> RiskClass:
        ws = _ws(ctx)
        for f in fields:
            value = getattr(params, f, None)
            for p in value if isinstance(value, list) else [value]:
                if p and ws.exists(p):
                    return RiskClass.DESTRUCTIVE
        return RiskClass.WRITE

    return always_changes(risk)


def edit_risk(path_field: str = "path", output_field: str = "output"):
    """A risk function for tools that change a file in place or save an edited
    copy: with an output path set, DESTRUCTIVE only when that output exists;
    without one, DESTRUCTIVE when the file exists (it is modified), else WRITE."""

    def risk(ctx: ToolContext, params: Any) -> RiskClass:
        out = getattr(params, output_field, None)
        target = out or getattr(params, path_field)
        return RiskClass.DESTRUCTIVE if _ws(ctx).exists(target) else RiskClass.WRITE

    return always_changes(risk)


def parse_page_spec(spec: str | None, count: int, *, name: str = "pages") -> list[int]:
    """Parse a 1-based page/row spec like ``"1-3,7,10-"`` into 0-based indices.

    ``None`` or ``""`` or ``"all"`` means every page. Indices are sorted, unique
    and within ``range(count)``.

    Raises:
        ToolError: malformed spec, or a page beyond ``count``.
    """
    if spec is None or spec.strip().lower() in ("", "all"):
        return list(range(count))
    out: set[int] = set()
    for part in spec.replace(" ", "").split(","):
        if not part:
            continue
        try:
            if "-" in part:
                a, b = part.split("-", 1)
                lo = int(a) if a else 1
                hi = int(b) if b else count
            else:
                lo = hi = int(part)
        except ValueError:
            raise ToolError(f"bad {name} {spec!r}; use forms like '1-3,7,10-'.") from None
        if lo < 1 or hi < lo:
            raise ToolError(f"bad {name} range {part!r}; numbers start at 1 and ranges go low-high.")
        if lo > count:
            raise ToolError(f"{name} {part!r} is out of range; the document has {count}.")
        out.update(range(lo - 1, min(hi, count)))
    return sorted(out)
