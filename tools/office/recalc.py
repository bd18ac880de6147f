"""Formula recalculation with LibreOffice, when it is installed.

openpyxl writes formulas but never computes them. When ``soffice`` (LibreOffice)
is on PATH we open the workbook headless with "recalculate on load: always"
set in a throw-away user profile and save it again, which fills in the cached
values. When it is missing we say the values were not recomputed.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from tools.base import ToolError

__all__ = ["find_soffice", "recalculate", "NOT_RECOMPUTED"]

NOT_RECOMPUTED = (
    "LibreOffice (soffice) is not installed, so formula values were not recomputed; "
    "Excel or LibreOffice will compute them when the file is opened. The formulas are saved: nothing more is "
    "needed, and nothing on this machine can compute them."
)
"""xlsx_total: told only the first sentence after writing =SUM, Qwen 1.5B called xlsx_recalc three times and ran
out of time instead of answering. The note once named xlsx_recalc ("xlsx_recalc cannot run on this machine"), and
at f80ed26 the model's answer told the user "To compute the total, call xlsx_recalc on the file."; the tool is not
offered without LibreOffice (``assistant/toolset.py``), so the note names no tool."""

# Calc settings: recalculate OOXML and ODF files on load, always (0 = always).
_PROFILE = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
"""


def find_soffice() -> str | None:
    """Path of the LibreOffice binary (``soffice`` or ``libreoffice``), or None."""
    return shutil.which("soffice") or shutil.which("libreoffice")


def recalculate(data: bytes, *, suffix: str = "xlsx", timeout_s: float = 120.0) -> bytes:
    """Recalculate a workbook with headless LibreOffice and return the saved bytes.

    Args:
        data: workbook bytes (.xlsx or .xlsm).
        suffix: file extension used for the temporary copy.
        timeout_s: wall-clock limit for LibreOffice (seconds).

    Raises:
        ToolError: LibreOffice is missing (:data:`NOT_RECOMPUTED`), failed,
            timed out or produced no file.
    """
    exe = find_soffice()
    if exe is None:
        raise ToolError(NOT_RECOMPUTED)
    with tempfile.TemporaryDirectory(prefix="assistant-recalc-") as tmp:
        root = Path(tmp)
        (root / "profile" / "user").mkdir(parents=True)
        (root / "profile" / "user" / "registrymodifications.xcu").write_text(_PROFILE, encoding="utf-8")
        (root / "in").mkdir()
        (root / "out").mkdir()
        src = root / "in" / f"book.{suffix}"
        src.write_bytes(data)
        cmd = [
            exe,
            f"-env:UserInstallation={(root / 'profile').as_uri()}",
            "--headless",
            "--norestore",
            "--nologo",
            "--convert-to",
            f"{suffix}:Calc MS Excel 2007 XML",
            "--outdir",
            str(root / "out"),
            str(src),
        ]
        try:
            proc = subprocess.run(cmd, capture_output=True, timeout=timeout_s, stdin=subprocess.DEVNULL, check=False)
        except subprocess.TimeoutExpired:
            raise ToolError(f"LibreOffice did not finish recalculating within {timeout_s:.0f} s; values were not recomputed.") from None
        except OSError as exc:
            raise ToolError(f"LibreOffice could not be started ({exc.strerror}); values were not recomputed.") from None
        out = root / "out" / f"book.{suffix}"
        if proc.returncode != 0 or not out.is_file():
            err = (proc.stderr or proc.stdout or b"").decode("utf-8", "replace").strip().splitlines()
            raise ToolError(f"LibreOffice failed to recalculate ({err[-1][:160] if err else f'exit {proc.returncode}'}); values were not recomputed.")
        return out.read_bytes()
