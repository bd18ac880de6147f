"""Page operations on PDFs: ``pdf_merge``, ``pdf_extract_pages``, ``pdf_split``,
``pdf_rotate``. Inputs are read and outputs written through the workspace;
encrypted inputs are opened with the empty password (see :func:`open_pdf`) and
written unencrypted.
"""

from __future__ import annotations

import io
from pathlib import PurePosixPath
from typing import Any

from pydantic import BaseModel, Field

from tools.base import RiskClass, always_changes, ToolContext, ToolError, ToolResult, tool
from tools.files._common import sandboxed
from tools.office._common import edit_risk, parse_page_spec, read_doc_bytes, save_bytes, target_risk
from tools.office.pdf import open_pdf

__all__ = [
    "PdfMergeParams",
    "PdfExtractParams",
    "PdfSplitParams",
    "PdfRotateParams",
    "pdf_merge",
    "pdf_extract_pages",
    "pdf_split",
    "pdf_rotate",
]

MAX_SPLIT_FILES = 500


class PdfMergeParams(BaseModel):
    inputs: list[str] = Field(min_length=2, description="Workspace paths of the PDFs, in order.")
    output: str = Field(description="Workspace path of the merged PDF.")
    overwrite: bool = Field(False, description="Replace the output if it exists.")


class PdfExtractParams(BaseModel):
    path: str = Field(description="Workspace path of the source PDF.")
    pages: str = Field(description="Pages to keep, 1-based, like '1-3,7'.")
    output: str = Field(description="Workspace path of the new PDF.")
    overwrite: bool = Field(False, description="Replace the output if it exists.")


class PdfSplitParams(BaseModel):
    path: str = Field(description="Workspace path of the source PDF.")
    every: int = Field(1, ge=1, description="Pages per output file.")
    output_prefix: str = Field("", description="Output path prefix; files are PREFIX-001.pdf, ... (default: next to the source).")
    overwrite: bool = Field(False, description="Replace outputs that exist.")


class PdfRotateParams(BaseModel):
    path: str = Field(description="Workspace path of the PDF.")
    degrees: int = Field(description="Clockwise rotation: 90, 180 or 270 (or -90).")
    pages: str = Field("all", description="Pages to rotate, 1-based, like '2,4-5' or 'all'.")
    output: str | None = Field(None, description="Save to this new path instead of changing the file.")


def _check_pdf_name(path: str) -> None:
    if not path.lower().endswith(".pdf"):
        raise ToolError(f"output {path!r} must end in .pdf.")


def _write(writer: Any) -> bytes:
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()


def _load(ctx: ToolContext, path: str) -> Any:
    return open_pdf(read_doc_bytes(ctx, path), path)


@tool("pdf_merge", risk=target_risk("output"))
def pdf_merge(ctx: ToolContext, params: PdfMergeParams) -> ToolResult:
    """Merge several PDFs, in order, into one new PDF."""
    from pypdf import PdfWriter

    _check_pdf_name(params.output)
    writer = PdfWriter()
    total = 0
    for path in params.inputs:
        reader = _load(ctx, path)
        for page in reader.pages:
            writer.add_page(page)
            total += 1
    save_bytes(ctx, params.output, _write(writer), overwrite=params.overwrite)
    return ToolResult(text=f"merged {len(params.inputs)} PDFs ({total} pages) into {params.output}.", data={"path": params.output, "pages": total})


@tool("pdf_extract_pages", risk=target_risk("output"))
def pdf_extract_pages(ctx: ToolContext, params: PdfExtractParams) -> ToolResult:
    """Copy selected pages of a PDF into a new PDF."""
    from pypdf import PdfWriter

    _check_pdf_name(params.output)
    reader = _load(ctx, params.path)
    indices = parse_page_spec(params.pages, len(reader.pages))
    writer = PdfWriter()
    for i in indices:
        writer.add_page(reader.pages[i])
    save_bytes(ctx, params.output, _write(writer), overwrite=params.overwrite)
    return ToolResult(text=f"wrote {len(indices)} pages of {params.path} to {params.output}.", data={"path": params.output, "pages": len(indices)})


@always_changes
def _split_risk(ctx: ToolContext, params: PdfSplitParams) -> RiskClass:
    """Without ``overwrite`` an existing output is an error, so nothing is replaced."""
    return RiskClass.DESTRUCTIVE if params.overwrite else RiskClass.WRITE


@tool("pdf_split", risk=_split_risk)
def pdf_split(ctx: ToolContext, params: PdfSplitParams) -> ToolResult:
    """Split a PDF into files of N pages each (PREFIX-001.pdf, PREFIX-002.pdf, ...)."""
    from pypdf import PdfWriter

    reader = _load(ctx, params.path)
    count = len(reader.pages)
    n_files = -(-count // params.every)
    if n_files > MAX_SPLIT_FILES:
        raise ToolError(f"that would make {n_files} files (limit {MAX_SPLIT_FILES}); use a larger 'every'.")
    src = PurePosixPath(params.path)
    prefix = params.output_prefix or str(src.with_suffix(""))
    names = [f"{prefix}-{k + 1:03d}.pdf" for k in range(n_files)]
    if not params.overwrite:
        with sandboxed():  # a refused path is a one-line result like the other tools'
            taken = [n for n in names if ctx.workspace.exists(n)]
        if taken:
            raise ToolError(f"{taken[0]} already exists; pass overwrite=true or another output_prefix.")
    for k, name in enumerate(names):
        writer = PdfWriter()
        for i in range(k * params.every, min(count, (k + 1) * params.every)):
            writer.add_page(reader.pages[i])
        save_bytes(ctx, name, _write(writer), overwrite=params.overwrite)
    shown = ", ".join(names[:5]) + (f", ... ({len(names)} files)" if len(names) > 5 else "")
    return ToolResult(text=f"split {params.path} ({count} pages) into {shown}.", data={"files": names})


@tool("pdf_rotate", risk=edit_risk())
def pdf_rotate(ctx: ToolContext, params: PdfRotateParams) -> ToolResult:
    """Rotate pages of a PDF clockwise by 90, 180 or 270 degrees."""
    from pypdf import PdfWriter

    if params.degrees % 90 or params.degrees % 360 == 0:
        raise ToolError("degrees must be 90, 180 or 270 (or -90).")
    if params.output:
        _check_pdf_name(params.output)
    reader = _load(ctx, params.path)
    indices = set(parse_page_spec(params.pages, len(reader.pages)))
    writer = PdfWriter()
    for i, page in enumerate(reader.pages):
        added = writer.add_page(page)
        if i in indices:
            added.rotate(params.degrees % 360)
    out = params.output or params.path
    save_bytes(ctx, out, _write(writer), overwrite=params.output is None)
    return ToolResult(text=f"rotated {len(indices)} pages by {params.degrees % 360} degrees; saved {out}.", data={"path": out, "rotated": len(indices)})
