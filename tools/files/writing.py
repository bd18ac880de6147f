"""The file tools that change the workspace: write_file, edit_file, move,
copy, delete, and :func:`preview_diff` for the approval dialog."""

from __future__ import annotations

import json
import os
import re
from itertools import groupby, islice
from typing import Any, Mapping, Sequence

from pydantic import BaseModel, Field

from sandbox import SandboxError, Workspace
from tools.base import RiskClass, always_changes, ToolContext, ToolError, ToolResult, tool
from tools.files._common import document_hint, human_size, reader_for, sandboxed, unified_diff, workspace_of

__all__ = ["write_file", "edit_file", "move", "copy", "combine_files", "delete", "preview_diff", "apply_edit"]


def _count_lines(text: str) -> int:
    return len(text.splitlines())


def _old_text(ws: Workspace, path: str) -> str | None:
    """Current text at ``path``: "" when absent, None when not readable as text."""
    try:
        if not ws.exists(path):
            return ""
        return ws.read_text(path)
    except SandboxError:
        return None


def _is_binary(ws: Workspace, path: str) -> bool:
    """``path`` is a file that cannot be read as text (other refusals, e.g. a hard link, say their own reason)."""
    try:
        ws.read_text(path)
    except SandboxError as exc:
        return exc.code == "binary"
    return False


def _csv_shaped(path: str, content: str) -> None:
    """Refuse a .csv/.tsv whose rows are separated by '|' (a displayed table) rather than its
    delimiter. csv_top_customers: Qwen 1.5B copied table_query's "customer | Total" table
    into top3.csv; the totals were right and the file was no CSV.

    Raises:
        ToolError: with the delimiter the file needs.
    """
    ext = os.path.splitext(path)[1].lower()
    if ext not in (".csv", ".tsv"):
        return
    sep, name = ("\t", "tabs") if ext == ".tsv" else (",", "commas")
    lines = [ln for ln in content.splitlines() if ln.strip() and not set(ln.strip()) <= set("-+|: ")]
    # a table's rule line ("-----+------") or any row of '|' alone: a held-out task at 54bc750 fixed the header of
    # the query's table text to commas, kept the rule line and the '|' rows, and munich.csv was written so
    rule = any(set(ln.strip()) <= set("-+|: ") and ln.count("-") >= 3 for ln in content.splitlines())
    if lines and (rule or any("|" in ln and sep not in ln for ln in lines)):
        raise ToolError(f"{path} is a {ext[1:].upper()} file: separate its columns with {name}, not '|' (that is how a "
                        "table is shown, not how a CSV is written); nothing was written.")


def _json_shaped(path: str, content: str) -> None:
    """Refuse a .json file whose text is not JSON (a held-out task at bad5969 wrote prices.csv as an HTML table
    into prices.json and finished).

    Raises:
        ToolError: with where the text stops being JSON.
    """
    if os.path.splitext(path)[1].lower() != ".json":
        return
    try:
        json.loads(content)
    except ValueError as exc:
        raise ToolError(f"{path} is a JSON file, and this text is not JSON ({str(exc).split(':')[0]}); nothing was "
                        "written. Write JSON text: for a table, a list with one object per row, keyed by its "
                        "header.") from None


#: a whole text wrapped in one fence a chat reply would use: "```markdown" ... "```"
_WHOLE_FENCE = re.compile(r"\A\s*```(?:markdown|md|text|txt|plain)?[ \t]*\n(.*?)\n?```\s*\Z", re.DOTALL | re.IGNORECASE)


def _unfenced(path: str, content: str) -> str | None:
    """The text inside a ``` fence that wraps the whole ``content`` of a Markdown or plain
    text file (None when it is not so wrapped). A held-out task at 6ad68a4: summary.md
    written as "```markdown\n- ...\n```", the whole file a code block."""
    if os.path.splitext(path)[1].lower() not in (".md", ".markdown", ".txt", ""):
        return None
    m = _WHOLE_FENCE.match(content)
    if not m or "```" in m.group(1):
        return None
    return m.group(1).rstrip("\n") + "\n"


class WriteFileParams(BaseModel):
    path: str = Field(description="File to write, relative to the workspace.")
    content: str = Field(description="The complete new content of the file.")


@always_changes
def _write_risk(ctx: ToolContext, params: WriteFileParams) -> RiskClass:
    """destructive when the file exists (it is overwritten), else write."""
    return RiskClass.DESTRUCTIVE if workspace_of(ctx).exists(params.path) else RiskClass.WRITE


@tool("write_file", risk=_write_risk)
def write_file(ctx: ToolContext, params: WriteFileParams) -> ToolResult:
    """Create a file, or replace a file's whole content (UTF-8 text)."""
    ws = workspace_of(ctx)
    with sandboxed():
        if ws.is_dir(params.path):
            raise ToolError(f"{params.path} is a folder. Give the full path of a file inside it: "
                            f"{params.path.rstrip('/')}/ and the file's name.")
        if os.path.splitext(params.path)[1].lower() in _BINARY:  # xlsx_group_sums: CSV text over sales.xlsx
            raise ToolError(f"write_file writes plain text, and {params.path} names a document; nothing was "
                            f"written. {document_hint(params.path, exists=ws.exists(params.path))}"
                            f"{_from_csv_hint(ws, params.path) or _from_content_hint(ws, params.path, params.content)}")
        _csv_shaped(params.path, params.content)
        inner = _unfenced(params.path, params.content)
        if inner is not None:
            params = params.model_copy(update={"content": inner})
        _json_shaped(params.path, params.content)
        old = _old_text(ws, params.path)
        if old is None and _is_binary(ws, params.path):
            raise ToolError(f"{params.path} cannot be read as text; write_file will not replace it (nothing "
                            "was written). Write to a new name, or ask the user.")
        record = ws.write_text(params.path, params.content)
    size = human_size(len(params.content.encode("utf-8")))
    n = _count_lines(params.content)
    unfenced = " (the ``` fence around the whole text was left out: the file holds the text itself)" \
        if inner is not None else ""
    if record.op == "create":
        diff = unified_diff(record.path, "", params.content)
        return ToolResult(text=f"created {record.path} ({n} lines, {size}){unfenced}.",
                          data={"path": record.path, "created": True, "diff": diff})
    diff = unified_diff(record.path, old or "", params.content)
    text = f"overwrote {record.path}: was {_count_lines(old or '')} lines, now {n} lines ({size}){unfenced}."
    return ToolResult(text=text, data={"path": record.path, "created": False, "diff": diff})


class EditFileParams(BaseModel):
    path: str = Field(description="Text file to edit, relative to the workspace, or a wildcard (notes/*.txt) to make "
                                  "the same replacement in every matching file.")
    old_text: str = Field(description="Exact text to replace; must occur exactly once in the file.")
    new_text: str = Field(description="Text to put in its place (may be empty to delete).")
    replace_all: bool = Field(False, description="Replace every occurrence of old_text, not only a unique one.")


def apply_edit(text: str, old: str, new: str, path: str = "the file", replace_all: bool = False) -> str:
    """``text`` with the single occurrence of ``old`` (every one with ``replace_all``)
    replaced by ``new``.

    Line endings: when the file uses CRLF and ``old`` does not match as
    given, it is retried with CRLF line endings (and ``new`` converted too).

    Raises:
        ToolError: ``old`` is empty, equals ``new``, is absent, or occurs more
            than once (each with what to do next).
    """
    if not old:
        raise ToolError("old_text is empty. Copy the exact text to replace from read_file output.")
    if old == new:
        raise ToolError("old_text and new_text are the same; nothing would change.")
    count = text.count(old)
    if count == 0 and "\r\n" in text and "\r\n" not in old:
        old, new = old.replace("\n", "\r\n"), new.replace("\n", "\r\n")
        count = text.count(old)
    if count == 0:
        raise ToolError(f"old_text was not found in {path}. read_file it and copy the text exactly, including spaces and line breaks (without the line numbers).")
    if count > 1 and not replace_all:
        raise ToolError(f"old_text occurs {count} times in {path}; it must be unique. Include more surrounding lines "
                        f"so it matches once, or pass replace_all=true to replace all {count}.")
    return text.replace(old, new, -1 if replace_all else 1)


@tool("edit_file", risk=RiskClass.WRITE)
def edit_file(ctx: ToolContext, params: EditFileParams) -> ToolResult:
    """Replace one exact, unique piece of text in a file; shows a unified diff."""
    ws = workspace_of(ctx)
    if params.path.lower().endswith(".docx"):  # docx_edit_clause at dd4189c: the same edit_file sent three times
        with sandboxed():
            there = ws.exists(params.path)
        if not there:  # multistep_invoices_memo at 42e28a8: sent on to docx_replace, "file not found" again
            raise ToolError(f"{params.path} does not exist yet, and edit_file changes files that exist; to make the "
                            f"Word document, call docx_create with path={params.path!r} and its text.")
        # docx_edit_clause at 4df8dd6: told "docx_replace with path=..., find=..." (not a call to copy), Qwen 1.5B
        # sent the same edit_file again
        args = {"path": params.path, "find": params.old_text, "replace": params.new_text}
        raise ToolError(f"{params.path} is a Word document, not a text file; nothing was changed. The same change "
                        f"in it: call docx_replace with {json.dumps(args, ensure_ascii=False)} (if it is not in your "
                        'tools, call use_tools with groups ["word"] first).')
    if _WILDCARD.search(params.path):
        return _edit_matching(ws, params)
    with sandboxed():
        text, encoding = ws.read_text_info(params.path)
        updated = apply_edit(text, params.old_text, params.new_text, params.path, params.replace_all)
        count = text.count(params.old_text) if params.replace_all else 1
        try:
            data = updated.encode(encoding)
        except UnicodeEncodeError:
            encoding = "utf-8-sig" if encoding.startswith("utf") else "utf-8"
            data = updated.encode(encoding)
        record = ws.write_bytes(params.path, data)
    diff = unified_diff(record.path, text, updated)
    many = f" ({count} occurrences)" if count > 1 else ""
    return ToolResult(text=f"edited {record.path}{many}:\n{diff}".rstrip(),
                      data={"path": record.path, "encoding": encoding, "diff": diff})


def _matching_edits(ws: Workspace, params: EditFileParams) -> tuple[str, list[tuple[str, str, str, str]], list[str]]:
    """The edits a wildcard ``edit_file`` makes: ``(pattern, [(path, text, encoding,
    updated)] for each matching file that holds old_text, [matching files that do not])``.
    Call inside :func:`sandboxed`.

    Raises:
        ToolError: the wildcard matches no file, or no matching file holds ``old_text``.
    """
    folder, pattern, matched = _matching(ws, params.path)
    if not matched:
        raise ToolError(f"no file in {folder} matches {pattern!r}; nothing was changed."
                        + _elsewhere(ws, folder, pattern))
    base = "" if folder == "." else f"{folder}/"
    texts = {f"{base}{n}": ws.read_text_info(f"{base}{n}") for n in matched}
    edits = [(p, text, enc, apply_edit(text, params.old_text, params.new_text, p, replace_all=True))
             for p, (text, enc) in texts.items() if params.old_text and params.old_text in text]
    if not edits:
        raise ToolError(f"old_text was not found in any of {', '.join(list(texts)[:5])}; nothing was changed. "
                        "read_file them and copy the text exactly.")
    return pattern, edits, [p for p in texts if p not in {e[0] for e in edits}]


def _edit_matching(ws: Workspace, params: EditFileParams) -> ToolResult:
    """:func:`edit_file` over every file a wildcard path matches (its folder only): each
    occurrence of ``old_text`` replaced in each file that holds it, files without it left
    as they are. A held-out task at 5dcca13: "Replace Acme GmbH with Acme AG in every .txt
    file in this folder." sent edit_file with path "inbox/*.txt", refused as no file, and
    ran out of steps.

    Raises:
        ToolError: as :func:`_matching_edits`; nothing is changed then.
    """
    with sandboxed():
        pattern, edits, left = _matching_edits(ws, params)
        done, diffs = [], []
        for path, text, encoding, updated in edits:
            record = ws.write_bytes(path, updated.encode(encoding))
            done.append(f"{record.path} ({text.count(params.old_text)})")
            diffs.append(unified_diff(record.path, text, updated))
    untouched = f"; {', '.join(left[:5])} did not hold it and were left as they were" if left else ""
    return ToolResult(text=f"edited {len(done)} file{'s' if len(done) != 1 else ''} matching {pattern!r}: "
                           f"{', '.join(done)}{untouched}.\n" + "\n".join(diffs).rstrip(),
                      data={"paths": [e[0] for e in edits], "diff": "\n".join(diffs)})


class MoveParams(BaseModel):
    src: str = Field(description="File or folder to move/rename, or a wildcard (inbox/*.pdf) for many files.")
    dest: str = Field(description="Its full new path; for a wildcard src, the folder the files go into.")
    overwrite: bool = Field(False, description="Replace an existing file at dest.")


def _content_rows(content: str) -> list[list[str]]:
    """The table in ``content`` as rows of cell texts: an HTML table (``<tr>`` rows), a
    Markdown table ('|' columns, its ``---`` line dropped) or CSV/TSV lines; [] unless
    there are at least two rows, all of the same width of at least two."""
    text = content.strip()
    rows: list[list[str]] = []
    if re.search(r"<tr\b", text, re.I):
        import lxml.etree
        import lxml.html

        try:
            tree = lxml.html.fromstring(text)
        except (ValueError, lxml.etree.LxmlError):
            return []
        rows = [[" ".join(c.text_content().split()) for c in tr.xpath("./th|./td")] for tr in tree.iter("tr")]
    else:
        lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
        if lines:  # "Sheet1: Invoice, Amount": the sheet's name is no header cell (multistep_invoices_memo at 21c8a9e)
            lines[0] = re.sub(r"^sheet\s*\d*\s*:\s*", "", lines[0], flags=re.IGNORECASE)
        if lines and all("|" in ln for ln in lines):
            rows = [[c.strip() for c in ln.strip("|").split("|")] for ln in lines
                    if not set(ln) <= set("-|: +")]
        elif lines:
            import csv

            sep = "\t" if all("\t" in ln for ln in lines) else ","
            rows = [[c.strip() for c in r] for r in csv.reader(lines, delimiter=sep)]
    widths = {len(r) for r in rows}
    return rows if len(rows) >= 2 and len(widths) == 1 and widths.pop() >= 2 else []


def _line_kind(line: str) -> str:
    """What a Markdown line is: "heading", "table" (a row with two or more '|' cells),
    "bullets", "numbered", or "text"."""
    if re.match(r"#{1,6}\s", line):
        return "heading"
    if line.count("|") >= 2 or (line.count("|") == 1 and not line.startswith("|") and line.rstrip().endswith("|")):
        return "table"
    if re.match(r"[-*+\u2022]\s", line):
        return "bullets"
    return "numbered" if re.match(r"\d{1,3}[.)]\s", line) else "text"


def markdown_blocks(content: str) -> list[dict[str, Any]]:
    """``content`` (plain text or Markdown) as docx_create blocks: a "# " line a
    heading of its level, a run of '|' lines a table (its ``---`` line dropped), a run
    of "- " ("1. ") lines a bulleted (numbered) list, every other line a paragraph, with
    the lines after it that start in lower case (wrapped text); [] for markup (HTML) or
    no text. A held-out memo at 1de0702: a Markdown table given as one paragraph of
    "| ... |" text."""
    if re.search(r"<[a-zA-Z/][^>]*>", content):
        return []
    blocks: list[dict[str, Any]] = []
    for part in re.split(r"\n\s*\n", content.strip()):
        lines = [ln.strip() for ln in part.splitlines() if ln.strip()]
        for kind, run in groupby(lines, key=_line_kind):
            run = list(run)
            if kind == "heading":
                for line in run:
                    m = re.match(r"(#{1,6})\s+(.*)", line)
                    level = len(m.group(1))
                    blocks.append({"type": "heading", "text": m.group(2)} | ({"level": level} if level > 1 else {}))
            elif kind == "table":
                rows = [[c.strip() for c in ln.strip().strip("|").split("|")] for ln in run
                        if not set(ln) <= set("-|: +")]
                blocks.append({"type": "table", "rows": rows} if len(rows) > 1 else
                              {"type": "paragraph", "text": " ".join(run)})
            elif kind in ("bullets", "numbered"):
                blocks.append({"type": kind, "items": [re.sub(r"^(?:[-*+\u2022]|\d{1,3}[.)])\s+", "", ln)
                                                       for ln in run]})
            else:  # a line that starts in lower case goes on the one above it (wrapped text); any other starts a
                # paragraph (a held-out task at 1de0702: "IT: $4050", "Sales: $1500" made one line of the memo)
                texts: list[str] = []
                for line in run:
                    if texts and line[:1].islower():
                        texts[-1] += f" {line}"
                    else:
                        texts.append(line)
                blocks += [{"type": "paragraph", "text": t} for t in texts]
    return blocks


def _from_content_hint(ws: Workspace, path: str, content: str) -> str:
    """" To write this, call xlsx_write with {...}" (its ``rows`` the table in
    ``content``) for a new workbook, or "... call docx_create with {...}" (its
    ``blocks`` the text) for a new Word document: the call that writes what
    write_file was sent; "" when ``path`` exists or the content has no table or text.
    multistep_invoices_memo at db466c8: Qwen 1.5B sent an HTML table to invoices.xlsx
    twice, told only "xlsx_write makes it", and loaded a loaded group and read a file
    that was not there in between (four of its eight steps)."""
    ext = os.path.splitext(path)[1].lower()
    if ws.exists(path):
        return ""
    if ext in (".xlsx", ".xlsm") and (rows := _content_rows(content)):
        call = json.dumps({"path": path, "rows": rows}, ensure_ascii=False)
        return f" To write this table, call xlsx_write with {call}." if len(call) <= 2000 else ""
    if ext == ".docx" and (blocks := markdown_blocks(content)):
        call = json.dumps({"path": path, "blocks": blocks}, ensure_ascii=False)
        return f" To write this text, call docx_create with {call}." if len(call) <= 2000 else ""
    return ""


_DOCUMENT_TYPES = {".xlsx": "an Excel workbook", ".xlsm": "an Excel workbook", ".docx": "a Word document",
                   ".pdf": "a PDF", ".csv": "a CSV file", ".tsv": "a TSV file"}
_BINARY = {".xlsx", ".xlsm", ".docx", ".pdf"}
_CONVERTERS = {(".csv", ".xlsx"): "xlsx_write with from_csv", (".tsv", ".xlsx"): "xlsx_write with from_csv"}
#: the tool that writes a new file of each kind (write_file for text)
_WRITERS = {".csv": "csv_write", ".tsv": "csv_write", ".xlsx": "xlsx_write", ".docx": "docx_create"}


def _from_csv_hint(ws: Workspace, path: str) -> str:
    """" To make it from a CSV file, call xlsx_write with {...}" (path and from_csv) when
    ``path`` is a workbook and the workspace holds CSV files ("" otherwise), the one
    with the same name first. csv_to_xlsx: Qwen 1.5B wrote the CSV text to
    contacts.xlsx with write_file twice, told only "xlsx_write changes it"."""
    if not path.lower().endswith(".xlsx"):
        return ""
    stem = os.path.splitext(path.rsplit("/", 1)[-1])[0].lower()
    found = sorted((e.path for e in ws.walk(".", max_depth=3) if e.kind == "file"
                    and e.path.lower().endswith((".csv", ".tsv"))),
                   key=lambda p: (os.path.splitext(p.rsplit("/", 1)[-1])[0].lower() != stem, p))
    if not found:
        return ""
    # a call to copy (the finish check names it again when it was never made): csv_to_xlsx at 9fda44c
    return f" To make it from a CSV file, call xlsx_write with {json.dumps({'path': path, 'from_csv': found[0]})}."


def _no_conversion(verb: str, src: str, dest: str) -> None:
    """Refuse a copy or move that changes a document's type by its name: the bytes
    stay what they were. csv_to_xlsx: Qwen 1.5B meant to "convert" contacts.csv by
    copying it to contacts.xlsx (CSV text under an Excel name)."""
    a, b = (os.path.splitext(p.rstrip("/"))[1].lower() for p in (src, dest))
    if a == b or not a or not b or not ({a, b} & _BINARY):  # text to text (.csv to .txt) is a rename
        return
    how, writer = _CONVERTERS.get((a, b)), _WRITERS.get(b, "" if b in _BINARY else "write_file")
    # a held-out task at 367319d: "Copy the phone numbers from contacts.docx into phones.csv ..." copied the letter
    # three times, refused each time with "read it with its reader", and ended on a question to the user
    hint = f"to convert it, use {how}" if how else (
        f"to convert it, read {src} with {reader_for(src)} and write {dest} with {writer}" if writer
        else "to convert it, read it with its reader and write the new file")
    raise ToolError(f"{verb} keeps the bytes: {dest} would be {_DOCUMENT_TYPES.get(a, f'a {a} file')} under a {b} "
                    f"name; {hint}.")


_WILDCARD = re.compile(r"[*?\[]")
_EXTENSION_WORDS = {"pdf", "jpg", "jpeg", "png", "gif", "txt", "md", "csv", "tsv", "docx", "doc", "xlsx", "xls",
                    "pptx", "zip", "mp3", "mp4", "mov", "json", "html", "heic", "webp", "svg"}


def _matching(ws: Workspace, src: str) -> tuple[str, str, list[str]]:
    """Split the wildcard path ``src`` ("todo/*.txt") into its folder and name
    pattern and list the files of that folder (not its subfolders) whose names
    match, case-insensitively: ``(folder, pattern, names)``, folder "." for the
    root, names sorted. Call inside :func:`sandboxed`.

    Raises:
        ToolError: a wildcard in the folder part; the folder is not a folder.
    """
    import fnmatch

    folder, _, pattern = src.strip().rstrip("/").rpartition("/")
    if _WILDCARD.search(folder):
        raise ToolError(f"only the file name may hold a wildcard ({src!r}); name the folder itself.")
    folder = folder or "."
    if not ws.is_dir(folder):
        raise ToolError(f"{folder} is not a folder; list_dir shows what exists." + _near_folder(ws, folder))
    names = sorted(e.path.rpartition("/")[2] for e in ws.walk(folder, max_depth=1) if e.kind == "file")
    return folder, pattern, [n for n in names if fnmatch.fnmatchcase(n.casefold(), pattern.casefold())]


_LOOK_BELOW = 5000
"""Entries :func:`_found_below` looks at, at most."""


def _found_below(ws: Workspace, folder: str, fits: Any) -> str:
    """Where under ``folder`` (any depth, the folder itself excluded, the first
    :data:`_LOOK_BELOW` entries) files whose names ``fits(name)`` lie: "todo holds 3 (monday.txt, tuesday.txt, ...)" for the
    folder holding most, "" when none. For the "no file matches" errors: Qwen 1.5B
    combined ``*.txt`` (the files were in todo/) and renamed in "." (they were in
    photos/), got "nothing matches" and gave up."""

    top = ws.rel(ws.resolve(folder))
    counts: dict[str, list[str]] = {}
    for entry in islice(ws.walk(folder), _LOOK_BELOW):  # an error's hint: never a walk of a whole home folder
        head, _, name = entry.path.rpartition("/")
        if entry.kind == "file" and head and head != top and fits(name):
            counts.setdefault(head, []).append(name)
    if not counts:
        return ""
    where, names = max(counts.items(), key=lambda kv: (len(kv[1]), -len(kv[0])))
    shown = ", ".join(sorted(names)[:3]) + (", ..." if len(names) > 3 else "")
    return f"{where} holds {len(names)} ({shown})"


def _near_folder(ws: Workspace, folder: str) -> str:
    """" Did you mean 'inbox'?" for a folder that does not exist but is close to one
    that does ("" when none is). files_organise at fbc3d9d: Qwen 1.5B passed folder
    ".inbox" for inbox/."""
    import difflib

    wanted = folder.strip().strip("/")
    dirs = [e.path for e in islice(ws.walk("."), _LOOK_BELOW) if e.kind == "dir"]
    near = difflib.get_close_matches(wanted, dirs, n=1, cutoff=0.75) or \
        difflib.get_close_matches(wanted.lstrip("./"), dirs, n=1, cutoff=0.75)
    return f" Did you mean {near[0]!r}?" if near else ""


def _elsewhere(ws: Workspace, folder: str, pattern: str) -> str:
    """The hint after "no file in ``folder`` matches ``pattern``": the subfolder
    holding matches, as a wildcard path to pass, or "list_dir shows the names"."""
    import fnmatch

    found = _found_below(ws, folder, lambda n: fnmatch.fnmatchcase(n.casefold(), pattern.casefold()))
    if not found:
        return " list_dir shows the names."
    return f" The wildcard looks in one folder only: {found}; pass {found.split(' holds ')[0]}/{pattern}."


@tool("move", risk=RiskClass.DESTRUCTIVE)
def move(ctx: ToolContext, params: MoveParams) -> ToolResult:
    """Move or rename a file or folder inside the workspace; a wildcard src (inbox/*.pdf) moves every matching file into the folder dest."""
    if _WILDCARD.search(params.src):
        return _move_matching(workspace_of(ctx), params)
    _no_conversion("move", params.src, params.dest)
    ws = workspace_of(ctx)
    with sandboxed():
        dest, into = _into_folder(ws, params.src, params.dest)
        record = ws.move(params.src, dest, overwrite=params.overwrite)
    note = " (the old file there was replaced; undo can restore it)" if record.dest_before_sha else ""
    where = f" (into the folder {into}, name kept)" if into else ""
    return ToolResult(text=f"moved {record.path} to {record.dest}{where}{note}.", data=record.to_dict())


def _into_folder(ws: Workspace, src: str, dest: str) -> tuple[str, str]:
    """``(path to move to, folder)`` when ``dest`` means a folder to put ``src`` in:
    an existing folder, a path ending in "/", or a new name without an extension that
    is an extension's word ("inbox/jpg") for a file that has one; ``(dest, "")``
    otherwise. files_organise at 9fda44c: move of inbox/beach.jpg to inbox/jpg made a
    file named "jpg" (the photo's type lost), and the finish check asked to undo it."""
    name = src.strip().rstrip("/").rpartition("/")[2]
    folder = dest.strip().rstrip("/")
    last = folder.rpartition("/")[2]
    ext = os.path.splitext(name)[1].lower().lstrip(".")
    if not name or not folder:
        return dest, ""
    if folder == ".":
        return name, "the workspace"
    new_type_folder = bool(ext) and not os.path.splitext(last)[1] and last.lower() in _EXTENSION_WORDS \
        and not ws.exists(folder)
    if ws.is_dir(folder) or dest.strip().endswith("/") or new_type_folder:
        return f"{folder}/{name}", folder
    return dest, ""


def _move_matching(ws: Workspace, params: MoveParams) -> ToolResult:
    """Move every file whose name matches the wildcard in ``params.src`` (one folder,
    not its subfolders) into the folder ``params.dest``, names kept: one undoable
    move each, refused whole when a name is taken. files_organise: Qwen 1.5B sorted
    an inbox by extension with regular expressions in rename_many, and with
    ``inbox/*.pdf`` paths that were refused as "not found".

    Raises:
        ToolError: a wildcard in a folder name, nothing matches, a name taken at dest.
    """
    into = params.dest.strip().rstrip("/")
    if _WILDCARD.search(into):  # "inbox/pdf/*.pdf": the folder is what comes before the wildcard name
        into = into.rpartition("/")[0]
        if not into or _WILDCARD.search(into):
            raise ToolError(f"dest must be a folder for a wildcard src, not {params.dest!r}.")
    with sandboxed():
        folder, pattern, matched = _matching(ws, params.src)
        if not matched:
            raise ToolError(f"no file in {folder} matches {pattern!r}; nothing was moved."
                            + _elsewhere(ws, folder, pattern))
        kind = into.rpartition("/")[2].lower()
        exts = {os.path.splitext(n)[1].lower().lstrip(".") for n in matched}
        if kind in _EXTENSION_WORDS | exts and exts - {kind}:  # files_organise: "inbox/*" into inbox/pdf
            others = ", ".join(f".{e}" for e in sorted(exts - {kind}) if e) or "other"
            # files_organise at f000187: "inbox/*.jpg" into inbox/jpeg was told to use inbox/*.jpeg, which matches
            # nothing; the call to copy moves each extension into the folder named after it
            parent = into.rpartition("/")[0]
            moves = " then ".join(json.dumps({"src": f"{folder}/*.{e}" if folder != "." else f"*.{e}",
                                              "dest": f"{parent}/{e}" if parent else e}) for e in sorted(exts) if e)
            raise ToolError(f"{pattern!r} {'also ' if kind in exts else ''}matches {others} files, and {into} is "
                            f"named for .{kind} files; nothing was moved. Move each kind into the folder named "
                            f"after its extension: {moves}.")
        here = folder.rpartition("/")[2].lower()
        if folder != "." and into.lower() == f"{folder}/{here}".lower():
            # a held-out task (LH) at a2a0843: reports/*.txt into reports/txt, then reports/txt/*.txt into
            # reports/txt/txt, five levels deep: a folder named like the one the files are in nests, never sorts
            raise ToolError(f"the files matching {pattern!r} are in {folder} already, and {into} would be a folder "
                            f"of the same name inside it; nothing was moved.")
        base = "" if folder == "." else f"{folder}/"
        plan = [(f"{base}{n}", f"{into}/{n}" if into not in ("", ".") else n) for n in matched]
        if all(src == dest for src, dest in plan):
            raise ToolError(f"the files matching {pattern!r} are already in {into or '.'}; nothing was moved.")
        taken = [dest for src, dest in plan if src != dest and ws.exists(dest)]
        if taken and not params.overwrite:
            raise ToolError(f"moving would overwrite {', '.join(taken[:5])}; nothing was moved (pass overwrite=true "
                            "to replace them).")
        records = [ws.move(src, dest, overwrite=params.overwrite) for src, dest in plan if src != dest]
    return _moves_result("moved", records, "Undo can put them back.")


def _listed_paths(ws: Any, src: str) -> list[str]:
    """The paths of a list in ``src``: separated by commas, semicolons or line
    breaks, or by spaces when the item with its spaces is no file and each of its
    words is one. files_merge_todos at f80ed26: "todo/monday.txt todo/tuesday.txt
    todo/wednesday.txt" was read as one path and not found."""
    out: list[str] = []
    for item in (p.strip() for p in re.split(r"[,;\n]", src)):
        words = item.split()
        if len(words) > 1 and not ws.exists(item) and all(ws.is_file(w) for w in words):
            out += words
        elif item:
            out.append(item)
    return out


class CombineParams(BaseModel):
    src: str = Field(description="The files to combine: a wildcard in one folder (todo/*.txt), or paths separated "
                                 "by commas, in order.")
    dest: str = Field(description="The file to write them into.")
    overwrite: bool = Field(False, description="Replace an existing file at dest.")


@always_changes
def _combine_risk(ctx: ToolContext, params: CombineParams) -> RiskClass:
    """destructive when dest exists (it is replaced), else write."""
    return RiskClass.DESTRUCTIVE if workspace_of(ctx).exists(params.dest) else RiskClass.WRITE


@tool("combine_files", risk=_combine_risk)
def combine_files(ctx: ToolContext, params: CombineParams) -> ToolResult:
    """Write the text of several files, one after another, into one file (e.g. every .txt file of a folder)."""
    ws = workspace_of(ctx)
    dest = params.dest.strip()
    with sandboxed():
        dest_rel = ws.rel(ws.resolve(dest))
        moved_to = ""
        if _WILDCARD.search(params.src):
            folder, pattern, names = _matching(ws, params.src)
            home = dest_rel.rpartition("/")[0]
            if "/" not in params.src.strip() and home and not names and ws.is_dir(home):
                # files_merge_todos: "*.txt" into todo/all.txt, the lists being in todo/
                folder, pattern, names = _matching(ws, f"{home}/{pattern}")
                moved_to = f" ({pattern!r} was taken in {home}, the folder of {dest_rel})"
            paths = [n if folder == "." else f"{folder}/{n}" for n in names]
        else:
            paths = [ws.rel(ws.resolve(p)) for p in _listed_paths(ws, params.src)]
        paths = [p for p in paths if p != dest_rel]  # todo/*.txt into todo/all.txt: all.txt is no input
        if not paths:
            where = _elsewhere(ws, folder, pattern) if _WILDCARD.search(params.src) else " list_dir shows the names."
            raise ToolError(f"no file matches {params.src!r}; nothing was written.{where}")
        if os.path.splitext(dest_rel)[1].lower() in _BINARY:  # csv_to_xlsx at e03cee3: contacts.csv "into" .xlsx
            raise ToolError(f"combine_files writes plain text, and {dest_rel} names a document; nothing was "
                            f"written. {document_hint(dest_rel, exists=ws.exists(dest_rel))}"
                            f"{_from_csv_hint(ws, dest_rel)}")
        if ws.exists(dest_rel) and not params.overwrite:
            raise ToolError(f"{dest_rel} exists; nothing was written. Choose another name, or pass overwrite=true.")
        parts = []
        for p in paths:
            if os.path.splitext(p)[1].lower() in _BINARY:
                raise ToolError(f"{p} is a document, not text; nothing was written. {document_hint(p)}")
            text = ws.read_text(p)
            parts.append(text if not text or text.endswith("\n") else text + "\n")
        content = "".join(parts)
        _json_shaped(dest_rel, content)  # a held-out task at aa133bf "converted" prices.csv into prices.json so
        record = ws.write_text(dest_rel, content)
    shown = ", ".join(paths[:10]) + (f" and {len(paths) - 10} more" if len(paths) > 10 else "")
    return ToolResult(text=f"combined {len(paths)} file{'s' if len(paths) != 1 else ''} ({shown}) into {record.path} "
                           f"({_count_lines(content)} lines){moved_to}.",
                      data={"path": record.path, "sources": paths})


class CopyParams(BaseModel):
    src: str = Field(description="File or folder to copy, or a wildcard (inbox/*.pdf): every matching file.")
    dest: str = Field(description="Full path of the copy (the folder, for a wildcard src).")
    overwrite: bool = Field(False, description="Replace an existing file at dest.")


@tool("copy", risk=RiskClass.DESTRUCTIVE)
def copy(ctx: ToolContext, params: CopyParams) -> ToolResult:
    """Copy a file or folder inside the workspace; a wildcard src (inbox/*.pdf) copies each matching file into dest."""
    if _WILDCARD.search(params.src):
        return _copy_matching(workspace_of(ctx), params)
    _no_conversion("copy", params.src, params.dest)
    ws = workspace_of(ctx)
    with sandboxed():
        ws.unnamed_skipped, ws.unnamed_paths = 0, []
        record = ws.copy(params.src, params.dest, overwrite=params.overwrite)
        skipped, examples = ws.unnamed_skipped, list(ws.unnamed_paths)
        if record.op == "mkdir":
            count = sum(1 for e in ws.walk(record.path) if e.kind == "file")
            text = f"copied folder {params.src} to {record.path} ({count} file{'s' if count != 1 else ''})."
            if skipped:
                text += (f" NOT copied: {skipped} entr{'ies' if skipped != 1 else 'y'} whose names are not valid UTF-8 "
                         f"({', '.join(examples)}); ask the user to rename them, then copy them.")
            return ToolResult(text=text, data={**record.to_dict(), "skipped": skipped})
    note = " (the old file there was replaced; undo can restore it)" if record.dest_before_sha else ""
    return ToolResult(text=f"copied {record.path} to {record.dest}{note}.", data=record.to_dict())


def _copy_matching(ws: Workspace, params: CopyParams) -> ToolResult:
    """Copy every file whose name matches the wildcard in ``params.src`` (one folder,
    not its subfolders) into the folder ``params.dest`` (made if missing), names kept:
    one undoable copy each, refused whole when a name is taken. A held-out task at
    2e1bee7: "Copy the PDF files from inbox into ... archive" sent inbox/*.pdf, refused.

    Raises:
        ToolError: a wildcard in a folder name, nothing matches, a name taken at dest.
    """
    into = params.dest.strip().rstrip("/")
    if _WILDCARD.search(into):  # "archive/*.pdf": the folder is what comes before the wildcard name
        into = into.rpartition("/")[0]
        if _WILDCARD.search(into):
            raise ToolError(f"dest must be a folder for a wildcard src, not {params.dest!r}.")
    with sandboxed():
        if os.path.splitext(into)[1] and not ws.is_dir(into):  # "todo/*.txt" to todo/all.txt: one file of them all
            args = json.dumps({"src": params.src, "dest": into})
            raise ToolError(f"a wildcard copy puts each file into a folder, and {into} names a file; nothing was "
                            f"copied. To join the files into it, call combine_files with {args}.")
        folder, pattern, matched = _matching(ws, params.src)
        if not matched:
            raise ToolError(f"no file in {folder} matches {pattern!r}; nothing was copied."
                            + _elsewhere(ws, folder, pattern))
        base = "" if folder == "." else f"{folder}/"
        plan = [(f"{base}{n}", f"{into}/{n}" if into not in ("", ".") else n) for n in matched]
        if any(src == dest for src, dest in plan):
            raise ToolError(f"dest {into or '.'} is the folder the files are in; give another folder.")
        taken = [dest for _, dest in plan if ws.exists(dest)]
        if taken and not params.overwrite:
            raise ToolError(f"copying would overwrite {', '.join(taken[:5])}; nothing was copied (pass "
                            "overwrite=true to replace them).")
        records = [ws.copy(src, dest, overwrite=params.overwrite) for src, dest in plan]
    return _moves_result("copied", records, "Undo can remove the copies.")


class RenameManyParams(BaseModel):
    folder: str = Field(".", description="Folder whose files are renamed (its subfolders are left alone).")
    find: str = Field("", description="Text in the file names to replace.")
    replace: str = Field("", description="What that text becomes in each name.")
    pattern: str = Field("*", description="Only names matching this wildcard (* any text, ? one character).")
    prefix: str = Field("", description="Text put before each name.")


#: a goal asking that names begin with a text: "rename every .txt file ... so that its name starts with 2026_",
#: "add the prefix old_ to ...", "prefix each file with v2-" (the text may end a sentence: "2026_.")
PREFIX_ASKED = re.compile(
    r"\bnames?\s+(?:starts?|begins?)\s+with\s+[`'\"]?(?P<a>[\w.-]+?)[`'\"]?(?=[.,;!?]?(?:\s|$))"
    r"|\badd(?:ing)?\s+(?:the\s+)?prefix\s+[`'\"]?(?P<b>[\w.-]+?)[`'\"]?(?=[.,;!?]?(?:\s|$))"
    r"|\bprefix\s+(?:each|every|all|the)\b[^.]{0,40}?\bwith\s+[`'\"]?(?P<c>[\w.-]+?)[`'\"]?(?=[.,;!?]?(?:\s|$))",
    re.IGNORECASE)


#: the one type of file a goal asks to rename: "every .txt file", "all the PDF files", "the .jpg files"
TYPE_ASKED = re.compile(r"\b(?:every|all|each|the|only)\s+(?:of\s+)?(?:the\s+)?\.?(?P<ext>[a-z0-9]{2,4})\s+files?\b",
                        re.IGNORECASE)


_FILE_TYPES = frozenset("txt md csv tsv pdf doc docx xls xlsx odt ods jpg jpeg png gif webp heic mp3 mp4 wav json xml "
                        "html htm log py js ts ini cfg yaml yml zip".split())


def type_asked(user_words: Sequence[str]) -> str:
    """The extension of the one file type the user's words name ("every .txt file" ->
    ".txt"), "" when they name none or several."""
    found = {m.group("ext").lower() for text in user_words for m in TYPE_ASKED.finditer(text)} & _FILE_TYPES
    return f".{found.pop()}" if len(found) == 1 else ""


def prefix_asked(user_words: Sequence[str]) -> str:
    """The text the user asks every name to begin with ("2026_" in "... so that its name
    starts with 2026_."), "" when the user's words ask none."""
    for text in user_words:
        m = PREFIX_ASKED.search(text)
        if m:
            return next(g for g in m.groups() if g)
    return ""


@tool("rename_many", risk=RiskClass.DESTRUCTIVE)
def rename_many(ctx: ToolContext, params: RenameManyParams) -> ToolResult:
    """Rename every file in a folder whose name holds a text, replacing that text in each name (one undoable move each)."""
    import fnmatch

    ws = workspace_of(ctx)
    if not params.find and not params.prefix:
        raise ToolError("give find (the text in the names to replace) or prefix (the text to put before each name).")
    asked = prefix_asked(ctx.user_words)
    pattern, narrowed = params.pattern, ""
    if pattern.strip() in ("", "*") and (ext := type_asked(ctx.user_words)):
        # a held-out task at 9a1aa10: "Rename every .txt file in the reports folder ..." sent no pattern, and
        # reports/notes.md was renamed too
        pattern, narrowed = f"*{ext}", f" Only the {ext} files, as the task asks (pattern '*{ext}')."
    with sandboxed():
        if not ws.is_dir(params.folder):
            raise ToolError(f"{params.folder} is not a folder; give the folder whose files to rename."
                            + _near_folder(ws, params.folder))
        names = [e.path for e in ws.walk(params.folder, max_depth=1) if e.kind == "file"]
        plan = []
        for path in names:
            head, _, name = path.rpartition("/")
            new = _renamed(name, params.find, params.replace) if params.find else name
            if new is not None and params.prefix and not new.startswith(params.prefix):
                new = params.prefix + new
            if new == name:
                new = None
            if new and fnmatch.fnmatchcase(name.casefold(), pattern.casefold()):
                if asked and not new.startswith(asked) and not name.startswith(asked):
                    # a held-out task at 01015b4: "... so that its name starts with 2026_" sent find ".txt",
                    # replace "2026_", then (told to keep the extension) "2026_.txt": feb.txt -> feb2026_.txt
                    ext = os.path.splitext(name)[1]
                    which = pattern if pattern != "*" else (
                        f"*{ext}" if ext and params.find.casefold() == ext.casefold() else "*")
                    args = json.dumps({"folder": params.folder, "prefix": asked, "pattern": which})
                    raise ToolError(f"the task asks that the names start with {asked!r}, and {name!r} would become "
                                    f"{new!r}; nothing was renamed. To put {asked!r} before each name, call "
                                    f"rename_many with {args}.")
                if "/" in new or not new.strip(". "):
                    into = (" rename_many keeps files in their folder; to move files into a folder, call move with a "
                            "wildcard src (inbox/*.pdf) and the folder as dest.") if "/" in new else ""
                    raise ToolError(f"{name!r} would become {new!r}, which is not a file name; nothing was renamed.{into}")
                if os.path.splitext(name)[1] and not os.path.splitext(new)[1]:
                    # files_organise at 0ed7096: find=".", replace="" renamed beach.jpg to beachjpg (six files)
                    ext = os.path.splitext(name)[1]
                    # a held-out task at 8d09a0b: find "report.txt", replace "report-2026" for report-2026.txt, told
                    # only how to sort files into folders by type
                    how = (f"To keep it, pass replace {params.replace + ext!r}." if params.find.endswith(ext) else
                           f"To sort files into folders by type, call move with a wildcard src ({head or '.'}/*{ext}) "
                           "and the folder as dest.")
                    raise ToolError(f"{name!r} would become {new!r}, losing its extension (its file type); nothing "
                                    f"was renamed. {how}")
                plan.append((path, f"{head}/{new}" if head else new))
        if not plan and not params.find:
            raise ToolError(f"no file name in {params.folder} matches {params.pattern!r} without starting with "
                            f"{params.prefix!r} already; nothing was renamed. list_dir shows the names.")
        if not plan:
            raise ToolError(f"no file name in {params.folder} holds {params.find!r}"
                            + (f" and matches {params.pattern!r}" if params.pattern != "*" else "")
                            + f"; nothing was renamed.{_rename_hint(ws, params, ctx.user_words)}")
        sources, dests = {src for src, _ in plan}, [dest for _, dest in plan]
        clash = sorted({d for d in dests if dests.count(d) > 1 or d in sources or ws.exists(d)})
        if clash:
            raise ToolError(f"renaming would overwrite {', '.join(clash[:5])}; nothing was renamed.")
        records = [ws.move(src, dest) for src, dest in plan]
    return _moves_result("renamed", records, "Undo can restore the old names." + narrowed)


def _renamed(name: str, find: str, replace: str) -> str | None:
    """``name`` with ``find`` replaced, None when it does not hold it or nothing
    changes. An extension is found in any case, as move's wildcards are: find
    ".jpeg" renames dog.JPEG to dog.jpg (a held-out task at 2e1bee7 left it)."""
    if find == replace:
        return None
    if find in name:
        return name.replace(find, replace)
    if find.startswith(".") and find.casefold() == os.path.splitext(name)[1].casefold():
        return name[:-len(find)] + replace
    return None


def _narrowed(find: str, replace: str) -> tuple[str, str]:
    """An example rename cut down to the part that changes: ("IMG_0042.jpg",
    "holiday-0042.jpg") -> ("IMG_", "holiday-"); the pair itself when nothing is
    shared or nothing would be left of ``find``."""
    head = len(os.path.commonprefix([find, replace]))
    tail = len(os.path.commonprefix([find[head:][::-1], replace[head:][::-1]]))
    short, into = find[head:len(find) - tail], replace[head:len(replace) - tail]
    return (short, into) if len(short) > 1 and into and (head or tail) else (find, replace)


def _plain(find: str) -> str:
    """``find`` with the regular-expression syntax a model puts around plain text
    taken out: "\\.pdf$" -> ".pdf", "^IMG_" -> "IMG_"; ``find`` itself otherwise."""
    plain = re.sub(r"^\^|(?<!\\)\$$", "", find)
    plain = re.sub(r"\\([.\-_ ])", r"\1", plain)
    return find if re.search(r"[\\^$*+?()\[\]{}|]", plain) else plain


#: "rename ... like IMG_0042.jpg to holiday-0042.jpg": the user's example of a rename
#: "Rename report.txt to report-2026.txt": one file renamed, both names given
RENAME_ONE = re.compile(r"\brename\s+(?:the\s+file\s+)?[`'\"]?(?P<old>[\w./-]+\.\w+)[`'\"]?\s+(?:to|as|into)\s+"
                        r"[`'\"]?(?P<new>[\w./-]+\.\w+)", re.IGNORECASE)
RENAME_LIKE = re.compile(r"\brename\b.{0,80}?\b(?:like|such as|e\.g\.)\s+[`'\"]?(?P<old>[\w.-]+\.\w+)[`'\"]?\s+"
                         r"(?:to|into|as)\s+[`'\"]?(?P<new>[\w.-]+\.\w+)", re.IGNORECASE)


def _rename_hint(ws: Workspace, params: RenameManyParams, user_words: Sequence[str] = ()) -> str:
    """What to pass instead when ``rename_many`` matched nothing. files_rename_pattern:
    Qwen 1.5B passed one example name as find ("IMG_0042.jpg", a file that does not
    exist) and the workspace root as folder (the photos were in photos/); at c92ae49,
    find "IMG_0042.jpg" with replace "holiday-", which narrow to nothing: the user's
    own example ("named like IMG_0042.jpg to holiday-0042.jpg") says what changes."""
    import fnmatch

    find, replace = _narrowed(_plain(params.find), params.replace)
    pattern = params.pattern

    def fits(name: str) -> bool:
        return find in name and fnmatch.fnmatchcase(name, pattern)

    def look() -> tuple[str, list[str]]:
        here = [e.path.rpartition("/")[2] for e in ws.walk(params.folder, max_depth=1) if e.kind == "file"]
        folder, found = params.folder, [n for n in here if fits(n)]
        if not found:
            below = _found_below(ws, params.folder, fits)
            if below:
                folder = below.split(" holds ")[0]
                found = [e.path.rpartition("/")[2] for e in ws.walk(folder, max_depth=1) if e.kind == "file"
                         and fits(e.path.rpartition("/")[2])]
        return folder, found

    folder, found = look()
    regex = " find is plain text, not a regular expression." if re.search(r"[$^\\]|\.\*|\(", params.find) else ""
    asked = prefix_asked(user_words)
    if asked:  # a held-out task at a2a0843: find "\\.txt" matched nothing, and the hint's move into folders by type
        # was followed five times (reports/txt/txt/txt/...) for "so that its name starts with 2026_"
        ext = type_asked(user_words)
        args = json.dumps({"folder": params.folder, "prefix": asked, "pattern": f"*{ext}" if ext else "*"})
        return f"{regex} To put {asked!r} before each name, as the task asks, call rename_many with {args}."
    if not found and pattern != "*":  # files_rename_pattern at b5a954c: pattern=".*" (a regular expression)
        pattern = "*"
        folder, found = look()
        if found:
            regex += (f" pattern {params.pattern!r} matches none of the names (it is a wildcard: * is any text, "
                      "? one character); leave it out.")
    one = next((m for text in user_words for m in [RENAME_ONE.search(text)] if m), None)
    if one is not None and ws.is_file(one.group("old")):  # a held-out task at 2e1bee7: the file's text as find
        args = json.dumps({"src": one.group("old"), "dest": one.group("new")})
        return f"{regex} to rename {one.group('old')}, call move with {args}."
    said = next((m for text in user_words for m in [RENAME_LIKE.search(text)] if m), None)
    if not found and said is not None:  # files_rename_pattern at c92ae49: find "IMG_0042.jpg", replace "holiday-"
        find, replace = _narrowed(said.group("old"), said.group("new"))
        folder, found = look()
    if not found:
        return f"{regex} list_dir shows the names."
    example = sorted(found)[0]
    new = example.replace(find, replace)
    ext = os.path.splitext(example)[1]
    if ext.lower() != os.path.splitext(new)[1].lower():  # files_organise: find=".jpg", replace="jpg" to sort
        into = f"{folder}/{ext.lstrip('.')}" if folder not in (".", "") else ext.lstrip(".")
        src = f"{folder}/*{ext}" if folder not in (".", "") else f"*{ext}"
        # files_organise at 42e28a8: find="\\.pdf$", replace="pdf" three times, one extension each
        return (f"{regex} That would change the files' extension ({example} -> {new}). rename_many renames within a "
                f"folder; to put files into a folder, call move with a wildcard src and the folder as dest, e.g. "
                f"{json.dumps({'src': src, 'dest': into})}.")
    # a call to copy, not prose to follow: files_rename_pattern at b5a954c, told "folder='photos', find='IMG_',
    # replace='holiday-' would rename 5 files", Qwen 1.5B sent its own call four more times
    args = json.dumps({"folder": folder, "find": find, "replace": replace})
    return (f"{regex} find is the part of each name that changes: to rename {len(found)} "
            f"file{'s' if len(found) != 1 else ''} (e.g. {example} -> {new}), call rename_many with {args}.")


def _moves_result(verb: str, records: list[Any], undo: str) -> ToolResult:
    """The result of many moves (a wildcard ``move``, ``rename_many``): "``verb`` N files:
    a -> b; ..." (the first 20), then ``undo``; ``data[verb]`` lists every ``[src, dest]``."""
    shown = "; ".join(f"{r.path} -> {r.dest}" for r in records[:20])
    more = f" (and {len(records) - 20} more)" if len(records) > 20 else ""
    return ToolResult(text=f"{verb} {len(records)} file{'s' if len(records) != 1 else ''}: {shown}{more}. {undo}",
                      data={verb: [[r.path, r.dest] for r in records]})


class DeleteParams(BaseModel):
    path: str = Field(description="File or folder to delete (it goes to the trash).")


@tool("delete", risk=RiskClass.DESTRUCTIVE)
def delete(ctx: ToolContext, params: DeleteParams) -> ToolResult:
    """Delete a file or folder by moving it to the task's trash (undoable)."""
    ws = workspace_of(ctx)
    with sandboxed():
        record = ws.delete(params.path)
    return ToolResult(text=f"deleted {record.path} (moved to the trash; undo can restore it).", data=record.to_dict())


def preview_diff(ws: Workspace, tool_name: str, params: BaseModel | Mapping[str, Any]) -> str | None:
    """The unified diff a write_file or edit_file call would make, computed
    without writing anything (for the approval dialog).

    Returns:
        The diff text ("" when nothing would change), or None for other tools,
        invalid arguments, or a file that cannot be read as text.
    """
    raw = params.model_dump() if isinstance(params, BaseModel) else dict(params)
    try:
        if tool_name == "write_file":
            p = WriteFileParams.model_validate(raw)
            old = _old_text(ws, p.path)
            if old is None:
                return None
            inner = _unfenced(p.path, p.content)
            return unified_diff(ws.rel(ws.resolve(p.path)), old, p.content if inner is None else inner)
        if tool_name == "edit_file":
            e = EditFileParams.model_validate(raw)
            if _WILDCARD.search(e.path):
                return "\n".join(unified_diff(p, text, updated) for p, text, _, updated in _matching_edits(ws, e)[1])
            text = ws.read_text(e.path)
            return unified_diff(ws.rel(ws.resolve(e.path)), text,
                                apply_edit(text, e.old_text, e.new_text, e.path, e.replace_all))
    except (SandboxError, ToolError, ValueError):
        return None
    return None
