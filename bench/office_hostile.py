"""Hostile office documents: seconds and peak memory of one tool call each.

Usage: python bench/office_hostile.py [--paragraphs 2000000] [--strings-mib 200]
                                      [--cap 60] [--before REV] [--json]

Builds, at run time (tests/office_hostile_docs.py):

* ``docx-tiny``: a docx whose body is ``--paragraphs`` one-letter paragraphs
  (about 34 bytes of XML each), its deflate data padded so the declared ratio
  is 150:1 -- the issue-15 item-3 file (~450 KB holding ~68 MB of XML);
  read with ``docx_read`` (default budget, 20,000 characters).
  ``docx-tiny-end`` reads its last 100 paragraphs (``start``), which parses
  the whole body.
* ``xlsx-sst``: a workbook whose sharedStrings.xml holds ``--strings-mib`` MiB
  of ``<si><t>x</t></si>``, padded the same way (100:1) so the declared sizes
  pass the ratio check -- issue-15 item 4; read with ``xlsx_info`` and
  ``xlsx_read``.

Each call runs in a fresh subprocess, so its peak RSS (VmHWM of that process;
``ru_maxrss`` would carry over this parent's peak across exec) is the call's
own plus the imports (``imports_mib``). A call is killed after ``--cap``
seconds; then the time is reported as "> cap" and the peak as VmHWM at the
kill. Linux only (/proc). ``--before REV`` runs the same cases on the code
of git revision REV as well (exported with ``git archive`` to a temporary
folder), for before/after numbers. This is a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from office_hostile_docs import docx_zip, padded_zip, tiny_paragraphs, xlsx_zip  # noqa: E402

CHILD = r"""
import json, sys, time
def hwm():  # VmHWM: unlike ru_maxrss it starts afresh at exec, not at the parent's peak
    return next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:")) // 1024
sys.path.insert(0, sys.argv[1])
from sandbox import Workspace
from tools.base import ToolContext
from tools.office.docx_read import docx_read
from tools.office.xlsx import xlsx_info, xlsx_read
tool = {"docx_read": docx_read, "xlsx_info": xlsx_info, "xlsx_read": xlsx_read}[sys.argv[3]]
ctx = ToolContext(workspace=Workspace(sys.argv[2]))
base = hwm()
t0 = time.perf_counter()
res = tool.invoke(ctx, tool.validate({"path": sys.argv[4], **json.loads(sys.argv[5])}))
dt = time.perf_counter() - t0
print(json.dumps({"seconds": round(dt, 2), "peak_mib": hwm(), "imports_mib": base, "error": res.error, "chars": len(res.text), "head": res.text[:140]}))
"""


def _vmhwm_mib(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) // 1024
    except OSError:
        return None
    return None


def run_case(code: Path, ws: Path, tool: str, path: str, args: dict, cap: float) -> dict:
    """One tool call in a subprocess on the code at ``code``; killed after ``cap`` s."""
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(code), str(ws), tool, path, json.dumps(args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    t0 = time.monotonic()
    peak = None
    while proc.poll() is None:
        peak = _vmhwm_mib(proc.pid) or peak
        if time.monotonic() - t0 > cap:
            proc.kill()
            proc.wait()
            return {"seconds": f"> {cap:g}", "peak_mib": peak, "error": None, "head": "(killed at the cap)"}
        time.sleep(0.1)
    out, err = proc.communicate()
    try:
        return json.loads(out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return {"seconds": None, "peak_mib": peak, "error": True, "head": (err or out).strip()[-200:]}


def build(ws: Path, paragraphs: int, strings_mib: int) -> dict[str, int]:
    """Write the hostile files into ``ws``; returns their sizes in bytes."""
    docx = padded_zip(docx_zip(body=tiny_paragraphs(paragraphs)), "word/document.xml", ratio=150)
    sst = b"<si><t>x</t></si>" * (strings_mib * 1024 * 1024 // 17)
    xlsx = padded_zip(xlsx_zip(shared_strings=sst), "xl/sharedStrings.xml", ratio=100)
    (ws / "tiny.docx").write_bytes(docx)
    (ws / "sst.xlsx").write_bytes(xlsx)
    return {"tiny.docx": len(docx), "sst.xlsx": len(xlsx)}


def cases(paragraphs: int) -> list[tuple[str, str, str, dict]]:
    """(case, tool, file, extra arguments) of each measured call."""
    return [
        ("docx-tiny", "docx_read", "tiny.docx", {}),
        ("docx-tiny-end", "docx_read", "tiny.docx", {"start": max(1, paragraphs - 100)}),
        ("xlsx-sst", "xlsx_info", "sst.xlsx", {}),
        ("xlsx-sst", "xlsx_read", "sst.xlsx", {}),
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--paragraphs", type=int, default=2_000_000)
    ap.add_argument("--strings-mib", type=int, default=200)
    ap.add_argument("--cap", type=float, default=60.0, help="seconds before a call is killed")
    ap.add_argument("--before", help="also run on the code of this git revision")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(tmp) / "ws"
        ws.mkdir()
        sizes = build(ws, args.paragraphs, args.strings_mib)
        codes = [("after", ROOT)]
        if args.before:
            old = Path(tmp) / "before"
            old.mkdir()
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.before], check=True, capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
            codes.insert(0, (f"before ({args.before})", old))
        for label, code in codes:
            for case, tool, path, extra in cases(args.paragraphs):
                r = run_case(code, ws, tool, path, extra, args.cap)
                results.append({"code": label, "case": case, "tool": tool, "file_bytes": sizes[path], **r})
                if not args.json:
                    print(f"{label:>18} {case:13} {tool:10} {str(r['seconds']):>8} s  peak {r['peak_mib']} MiB  "
                          f"{'error' if r.get('error') else 'ok'}: {r['head'][:100]!r}", flush=True)
    if args.json:
        print(json.dumps({"cpus": os.cpu_count(), "results": results}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
