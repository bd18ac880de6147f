"""Shared helpers of the office tools: loading through the workspace, hostile-file
checks on OOXML zips, risk functions and output limits.

All file access goes through ``ctx.workspace`` (a ``sandbox.Workspace``):
documents are read as bytes and parsed from memory, and written by serialising
to memory and calling ``ws.write_bytes`` (atomic, undoable).
"""

from __future__ import annotations

import io
import zipfile
from typing import Any

from tools.base import RiskClass, ToolContext, ToolError

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_UNZIPPED_BYTES",
    "OLE_MAGIC",
    "read_doc_bytes",
    "check_ooxml_zip",
    "save_bytes",
    "target_risk",
    "edit_risk",
    "parse_page_spec",
]

MAX_FILE_BYTES = 200 * 1024 * 1024
"""Largest document the tools will load (bytes)."""

MAX_UNZIPPED_BYTES = 512 * 1024 * 1024
"""Largest total *declared* uncompressed size of an OOXML zip (bytes). Python's
zipfile never returns more bytes for a member than its declared size, so
checking the declared sizes bounds what a zip bomb can inflate to."""

MAX_RATIO = 200
"""Largest compression ratio for a member bigger than 1 MiB."""

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
"""First bytes of an OLE2 compound file: legacy .doc/.xls, or an encrypted OOXML file."""

_KIND = {
    "docx": ("Word document", "word/document.xml", ".doc (Word 97-2003)"),
    "xlsx": ("Excel workbook", "xl/workbook.xml", ".xls (Excel 97-2003)"),
}


def _ws(ctx: ToolContext) -> Any:
    if ctx.workspace is None:
        raise ToolError("no workspace is open; start the task with --workspace DIR.")
    return ctx.workspace


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
            raise ToolError(f"file not found: {path}. Use list_dir to see what exists.")
        if not ws.is_file(path):
            raise ToolError(f"{path} is a folder, not a file.")
        data = ws.read_bytes(path, limit=limit + 1)
    except SandboxError as exc:
        raise ToolError(str(exc)) from None
    if len(data) > limit:
        raise ToolError(f"{path} is larger than {limit // (1024 * 1024)} MiB; too big to open here.")
    return data


def check_ooxml_zip(data: bytes, name: str, kind: str) -> None:
    """Reject files that are not safe, well-formed OOXML zips of ``kind``.

    Checks, in order: legacy/encrypted OLE2 file, not a zip, corrupt zip,
    zip bomb (declared sizes and ratios), missing main part, DTDs or entity
    declarations in any XML part (OOXML never has them; they are how entity
    bombs and external-entity attacks start).

    Args:
        data: the file's bytes.
        name: the workspace path, for messages.
        kind: "docx" or "xlsx".

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
        raise ToolError(f"{name} is not a {label} (not a zip archive); check the file type.")
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
        raise ToolError(f"{name} is not a {label} (zip without {main_part}); check the file type.")
    for info in infos:
        if not info.filename.endswith((".xml", ".rels")):
            continue
        try:
            with zf.open(info) as fh:
                head = fh.read(4096)
        except Exception:  # noqa: BLE001 - any read failure means a broken archive
            raise ToolError(f"{name} is not a {label} (corrupt part {info.filename}); ask for a fresh copy.") from None
        if b"<!DOCTYPE" in head or b"<!ENTITY" in head or b"<\x00!\x00D\x00O\x00C" in head:
            raise ToolError(f"{name} has a DTD in {info.filename} (possible XML entity bomb); refusing to open it.")


def save_bytes(ctx: ToolContext, path: str, data: bytes, *, overwrite: bool) -> Any:
    """Write ``data`` to a workspace path atomically (undoable).

    Raises:
        ToolError: the file exists and ``overwrite`` is false, or the sandbox
            refuses the path.
    """
    from sandbox import SandboxError

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

    return risk


def edit_risk(path_field: str = "path", output_field: str = "output"):
    """A risk function for tools that change a file in place or save an edited
    copy: with an output path set, DESTRUCTIVE only when that output exists;
    without one, DESTRUCTIVE when the file exists (it is modified), else WRITE."""

    def risk(ctx: ToolContext, params: Any) -> RiskClass:
        out = getattr(params, output_field, None)
        target = out or getattr(params, path_field)
        return RiskClass.DESTRUCTIVE if _ws(ctx).exists(target) else RiskClass.WRITE

    return risk


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
