"""Office tool throughput: how fast the agent's document tools read real-sized files.

Usage: python bench/office.py [--rows 10000] [--pages 50] [--paragraphs 200] [--repeat 3] [--json]

Builds, in a temporary workspace, a 10,000-row x 6-column .xlsx (openpyxl), a
50-page text PDF (pypdf, 40 lines a page) and a 200-paragraph .docx
(python-docx), then times the tools exactly as the agent calls them
(``Tool.validate`` + ``Tool.invoke`` through a sandboxed workspace):

* ``xlsx_read`` over all rows, in pages of the per-call row cap (rows/s);
* ``pdf_read`` of all pages in one call, and ``pdf_search`` (pages/s);
* ``docx_read`` of the whole document (paragraphs/s).

Each measurement is the best and the median of ``--repeat`` runs. A tool that
returns an error result aborts the benchmark with that message. Numbers go in
docs/BENCHMARKS.md. This is a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sandbox import Workspace  # noqa: E402
from tools.base import Tool, ToolContext, ToolResult  # noqa: E402
from tools.office.docx_read import docx_read  # noqa: E402
from tools.office.pdf import pdf_read, pdf_search  # noqa: E402
from tools.office.xlsx import MAX_READ_ROWS, xlsx_info, xlsx_read  # noqa: E402

WORDS = ("budget invoice meeting travel report quarter revenue supplier contract "
         "deadline review summary approval office expense forecast").split()


def make_xlsx(rows: int) -> bytes:
    """A workbook with a header and ``rows`` data rows: date, region, item, qty, price, total formula."""
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = "Sales"
    ws.append(["Date", "Region", "Item", "Qty", "Price", "Total"])
    for i in range(rows):
        r = i + 2
        ws.append([f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}", WORDS[i % 5], WORDS[(i * 7) % len(WORDS)],
                   1 + i % 9, round(2.5 + (i % 40) * 1.25, 2), f"=D{r}*E{r}"])
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def make_pdf(pages: int, lines: int = 40) -> bytes:
    """A ``pages``-page PDF, ``lines`` lines of Helvetica text on each page."""
    import pypdf
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    w = pypdf.PdfWriter()
    font = w._add_object(DictionaryObject({NameObject("/Type"): NameObject("/Font"),
                                           NameObject("/Subtype"): NameObject("/Type1"),
                                           NameObject("/BaseFont"): NameObject("/Helvetica")}))
    for p in range(pages):
        page = w.add_blank_page(612, 792)
        page[NameObject("/Resources")] = DictionaryObject(
            {NameObject("/Font"): DictionaryObject({NameObject("/F1"): font})})
        ops = ["BT /F1 10 Tf 12 TL 56 740 Td"]
        for ln in range(lines):
            text = " ".join(WORDS[(p * lines + ln + k) % len(WORDS)] for k in range(10))
            ops.append(f"(Page {p + 1} line {ln + 1}: {text}) Tj T*")
        ops.append("ET")
        content = DecodedStreamObject()
        content.set_data("\n".join(ops).encode("latin-1"))
        page[NameObject("/Contents")] = w._add_object(content)
    buf = io.BytesIO()
    w.write(buf)
    return buf.getvalue()


def make_docx(paragraphs: int) -> bytes:
    """A .docx with a heading every 20 paragraphs and ``paragraphs`` body paragraphs of ~60 words."""
    from docx import Document

    doc = Document()
    for i in range(paragraphs):
        if i % 20 == 0:
            doc.add_heading(f"Section {i // 20 + 1}", level=1)
        doc.add_paragraph(" ".join(WORDS[(i + k) % len(WORDS)] for k in range(60)))
    buf = io.BytesIO()
    doc.save(buf)
    return buf.getvalue()


def call(tool: Tool, ctx: ToolContext, **args: Any) -> ToolResult:
    """Invoke ``tool`` like the agent loop does; raise RuntimeError on an error result."""
    res = tool.invoke(ctx, tool.validate(args))
    if res.error:
        raise RuntimeError(f"{tool.name} returned an error: {res.text[:300]}")
    return res


def timed(fn: Callable[[], Any], repeat: int) -> dict[str, float]:
    """Best and median wall seconds of ``repeat`` calls of ``fn``."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return {"best_s": min(times), "median_s": statistics.median(times)}


def run(rows: int, pages: int, paragraphs: int, repeat: int) -> dict[str, Any]:
    """Build the three documents and time the tools; returns one dict per measurement."""
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        t0 = time.perf_counter()
        (root / "sales.xlsx").write_bytes(make_xlsx(rows))
        (root / "report.pdf").write_bytes(make_pdf(pages))
        (root / "memo.docx").write_bytes(make_docx(paragraphs))
        out["build_s"] = time.perf_counter() - t0
        ctx = ToolContext(workspace=Workspace(root))

        def read_all_rows() -> None:
            for start in range(2, rows + 2, MAX_READ_ROWS):
                end = min(rows + 1, start + MAX_READ_ROWS - 1)
                call(xlsx_read, ctx, path="sales.xlsx", range=f"A{start}:F{end}", max_rows=MAX_READ_ROWS)

        def read_pdf() -> None:
            res = call(pdf_read, ctx, path="report.pdf", pages="all", max_chars=300000)
            if "line 40" not in res.text:
                raise RuntimeError("pdf_read output lacks the page text")

        t = timed(lambda: call(xlsx_info, ctx, path="sales.xlsx"), repeat)
        out["xlsx_info"] = t | {"bytes": (root / "sales.xlsx").stat().st_size}
        t = timed(read_all_rows, repeat)
        out["xlsx_read"] = t | {"rows": rows, "rows_per_s": rows / t["best_s"], "calls": -(-rows // MAX_READ_ROWS)}
        t = timed(read_pdf, repeat)
        out["pdf_read"] = t | {"pages": pages, "pages_per_s": pages / t["best_s"]}
        t = timed(lambda: call(pdf_search, ctx, path="report.pdf", query="supplier contract"), repeat)
        out["pdf_search"] = t | {"pages": pages, "pages_per_s": pages / t["best_s"]}
        t = timed(lambda: call(docx_read, ctx, path="memo.docx", max_chars=200000), repeat)
        out["docx_read"] = t | {"paragraphs": paragraphs, "paragraphs_per_s": paragraphs / t["best_s"]}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=10000, help="data rows in the workbook")
    ap.add_argument("--pages", type=int, default=50, help="pages in the PDF")
    ap.add_argument("--paragraphs", type=int, default=200, help="body paragraphs in the .docx")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement (best and median reported)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    a = ap.parse_args(argv)
    if min(a.rows, a.pages, a.paragraphs, a.repeat) < 1:
        ap.error("--rows, --pages, --paragraphs and --repeat must be at least 1")
    r = run(a.rows, a.pages, a.paragraphs, a.repeat)
    if a.json:
        print(json.dumps(r, indent=2))
        return 0
    print(f"documents built in {r['build_s']:.1f} s")
    print(f"xlsx_info   {r['xlsx_info']['best_s'] * 1000:8.1f} ms  ({r['xlsx_info']['bytes'] / 1e6:.2f} MB workbook)")
    x = r["xlsx_read"]
    print(f"xlsx_read   {x['best_s']:8.2f} s   {x['rows_per_s']:9.0f} rows/s  ({x['rows']} rows, {x['calls']} calls; "
          f"median {x['median_s']:.2f} s)")
    for key in ("pdf_read", "pdf_search"):
        p = r[key]
        print(f"{key:<11} {p['best_s']:8.2f} s   {p['pages_per_s']:9.1f} pages/s ({p['pages']} pages; "
              f"median {p['median_s']:.2f} s)")
    d = r["docx_read"]
    print(f"docx_read   {d['best_s']:8.2f} s   {d['paragraphs_per_s']:9.0f} paragraphs/s ({d['paragraphs']} paragraphs; "
          f"median {d['median_s']:.2f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
