"""The read-only file tools: list_dir, read_file, find_files, grep, file_info."""

from __future__ import annotations

import json
import mimetypes
import re
import time
from datetime import datetime, timezone

from pydantic import BaseModel, Field

from sandbox import MAX_DEPTH, SandboxError, decode_text, glob_to_regex, looks_binary, sha256_hex
from tools.base import RiskClass, ToolContext, ToolError, ToolResult, tool
from tools.files._common import OFFICE_HINT, human_size, office_hint, sandboxed, workspace_of

__all__ = ["list_dir", "read_file", "find_files", "grep", "file_info"]

MAX_LINE_CHARS = 2000
GREP_LINE_CHARS = 300
GREP_MAX_FILE_BYTES = 5_000_000


class ListDirParams(BaseModel):
    path: str = Field(".", description="Folder to list, relative to the workspace.")
    depth: int = Field(2, ge=0, le=6, description="How many folder levels to show (0 or 1: this folder only).")
    max_entries: int = Field(200, ge=1, le=2000, description="Most entries to show.")


@tool("list_dir", risk=RiskClass.READ)
def list_dir(ctx: ToolContext, params: ListDirParams) -> ToolResult:
    """List a workspace folder as a tree with file sizes."""
    ws = workspace_of(ctx)
    with sandboxed():
        if ws.is_file(params.path):
            raise ToolError(f"{params.path} is a file, not a folder. Use read_file or file_info.")
        if not ws.exists(params.path):
            raise SandboxError(f"not found: {params.path}", "not_found")
        top = ws.rel(ws.resolve(params.path))
        entries = []
        omitted = 0
        ws.unnamed_skipped = ws.deep_skipped = 0
        for entry in ws.walk(params.path, max_depth=max(1, params.depth)):
            if len(entries) < params.max_entries:
                entries.append(entry)
            else:
                omitted += 1
    depth = max(1, params.depth)
    lines = [f"{top}/" if top != "." else "./ (workspace)"]
    counted = 0
    for e in entries:
        name = e.path.rsplit("/", 1)[-1]
        pad = "  " * e.depth
        if e.kind == "dir" and e.depth >= depth and counted < 50:  # files_find: the file was in archive/2024/
            counted += 1
            with sandboxed():
                inside = sum(1 for _ in ws.walk(e.path, max_depth=1))
            lines.append(f"{pad}{name}/" + (f"  ({inside} entr{'ies' if inside != 1 else 'y'} not shown)"
                                               if inside else "  (empty)"))
        elif e.kind == "dir":
            lines.append(f"{pad}{name}/")
        elif e.kind == "file":
            lines.append(f"{pad}{name}  {human_size(e.size)}")
        else:
            lines.append(f"{pad}{name}  ({e.kind}, not accessible)")
    if not entries:
        lines.append("  (empty)")
    if omitted:
        lines.append(f"... {omitted} more entries not shown; list a subfolder or raise max_entries.")
    if ws.unnamed_skipped:
        lines.append(f"... {ws.unnamed_skipped} entries with names that are not valid UTF-8 are not shown; "
                     "ask the user to rename them.")
    lines += _deep_note(ws, "shown")
    data = {
        "path": top,
        "entries": [{"path": e.path, "kind": e.kind, "size": e.size} for e in entries],
        "omitted": omitted,
    }
    return ToolResult(text="\n".join(lines), data=data)


class ReadFileParams(BaseModel):
    path: str = Field(description="File to read, relative to the workspace.")
    offset: int = Field(1, ge=1, description="First line to show (1-based).")
    limit: int = Field(400, ge=1, le=2000, description="Most lines to show.")


@tool("read_file", risk=RiskClass.READ)
def read_file(ctx: ToolContext, params: ReadFileParams) -> ToolResult:
    """Read a text file with line numbers (use offset/limit for long files)."""
    ws = workspace_of(ctx)
    with sandboxed():
        try:
            text, encoding = ws.read_text_info(params.path)
        except SandboxError as exc:
            if exc.code == "binary":
                raise ToolError(f"{params.path} is not a text file ({_kind_of(exc)}). {office_hint(params.path)}") from None
            raise
        rel = ws.rel(ws.resolve(params.path))
    lines = text.splitlines()
    total = len(lines)
    if total and params.offset > total:
        raise ToolError(f"offset {params.offset} is past the end of {rel} ({total} lines). Use offset 1 to {total}.")
    start = params.offset
    end = min(total, start + params.limit - 1)
    out = [f"{rel} ({encoding}, {total} lines)" + (f", lines {start}-{end}" if (start, end) != (1, total) else "")]
    for number in range(start, end + 1):
        line = lines[number - 1]
        if len(line) > MAX_LINE_CHARS:
            line = line[:MAX_LINE_CHARS] + f" ... [{len(line) - MAX_LINE_CHARS} more characters]"
        out.append(f"{number:>6}\t{line}")
    if not total:
        out.append("(empty file)")
    if end < total:
        out.append(f"... {total - end} more lines; call read_file with offset={end + 1} to continue.")
    data = {"path": rel, "encoding": encoding, "total_lines": total, "start": start, "end": end}
    return ToolResult(text="\n".join(out), data=data, untrusted=True)


def _deep_note(ws, verb: str) -> list[str]:
    """A line about folders the walk did not enter (too deeply nested), or none."""
    if not ws.deep_skipped:
        return []
    n = ws.deep_skipped
    return [f"... the inside of {n} folder{'s' if n != 1 else ''} nested more than {MAX_DEPTH} levels deep is not {verb}."]


def _kind_of(exc: SandboxError) -> str:
    text = str(exc)
    return text[text.rfind("(") + 1 : -1] if text.endswith(")") else "binary"


class FindFilesParams(BaseModel):
    pattern: str = Field(description="Glob such as *.md or reports/**/*.xlsx ('**' spans folders).")
    path: str = Field(".", description="Folder to search in.")
    max_results: int = Field(200, ge=1, le=2000, description="Most paths to return.")


@tool("find_files", risk=RiskClass.READ)
def find_files(ctx: ToolContext, params: FindFilesParams) -> ToolResult:
    """Find files by name with a glob pattern (case-insensitive)."""
    ws = workspace_of(ctx)
    if not params.pattern.strip():
        raise ToolError("pattern is empty. Give a glob such as *.txt or docs/**/*.md.")
    with sandboxed():
        top = ws.rel(ws.resolve(params.path))
        if not ws.is_dir(params.path):
            raise ToolError(f"{params.path} is not a folder. Give a folder to search in, e.g. '.'.")
        cut = 0 if top == "." else len(top) + 1
        # a regular expression's ".*" read as the glob "*" when the glob finds nothing: a held-out task at 911f35c
        # sent ".*" (as a glob, hidden names only) for every file, twice, and answered that none was empty
        globs = [params.pattern] + ([params.pattern.replace(".*", "*").replace("\\.", ".")]
                                    if ".*" in params.pattern else [])
        for pattern in globs:
            regex = glob_to_regex(pattern)
            found, more = [], 0
            ws.deep_skipped = 0
            for entry in ws.walk(params.path):
                if entry.kind == "file" and regex.match(entry.path[cut:]):
                    if len(found) < params.max_results:
                        found.append(entry)
                    else:
                        more += 1
            if found:
                break
    deep = _deep_note(ws, "searched")
    if not found:
        inside = [] if re.search(r"[*?\[\]/]", params.pattern) else _text_mentions(ws, params.path,
                                                                                  _words(params.pattern))
        # "under ." read as the path ".." (files_find at 9c2437c): the workspace by name, a folder with its slash
        where = "in the workspace" if top == "." else f"under {top}/"
        # never an example name: a held-out task at a864c41 searched for "*report*", the example given here
        word = re.sub(r"[*?]", "", params.pattern).strip()
        grep_it = (f" To find the files whose text mentions {word!r}, call grep with "
                   f"{json.dumps({'pattern': word, 'path': top, 'ignore_case': True})}."
                   if re.fullmatch(r"[^\W\d_][\w -]{2,40}", word) else "")
        return ToolResult(
            text="\n".join([f"no files match {params.pattern!r} {where}. Try a broader pattern or check the folder "
                            "with list_dir; find_files matches names only (grep searches the text inside files)."
                            + grep_it] + inside + deep),
            data={"paths": [], "mentions_paths": [ln.strip().split(": ", 1)[0] for ln in inside[1:]]},
            untrusted=bool(inside),
        )
    lines = [f"{e.path}  {human_size(e.size)}" for e in found]
    if more:
        lines.append(f"... {more} more matches not shown; narrow the pattern or the folder.")
    lines += deep
    return ToolResult(text="\n".join(lines), data={"paths": [e.path for e in found], "omitted": more})


_MENTION_FILES = 2000  # text files looked into after a name search found nothing
_MENTION_BYTES = 256 * 1024


def _words(text: str) -> list[str]:
    """The words of ``text`` (3+ letters or digits), lowercase, each once."""
    return list(dict.fromkeys(w.lower() for w in re.findall(r"[^\W_]{3,}", text)))


def _text_mentions(ws, folder: str, words: list[str]) -> list[str]:
    """After a search for plain words found nothing: the text files under ``folder``
    whose text holds every one of ``words`` (any case), up to 5, each with its first
    line that holds one. files_find at e03cee3: Qwen 1.5B searched names for
    "passport renewal", never grepped, and named readme.txt."""
    if not words:
        return []
    out: list[str] = []
    with sandboxed():
        entries = [e for _, e in zip(range(_MENTION_FILES * 5), ws.walk(folder))
                   if e.kind == "file" and e.size <= _MENTION_BYTES][:_MENTION_FILES]
        for e in entries:
            try:
                text = decode_text(ws.read_bytes(e.path))[0]
            except (SandboxError, ValueError):
                continue
            low = text.lower()
            if all(w in low for w in words):
                line = next((ln.strip() for ln in text.splitlines() if any(w in ln.lower() for w in words)), "")
                out.append(f"  {e.path}: {line[:GREP_LINE_CHARS]}")
                if len(out) == 5:
                    break
    if not out:
        return []
    return [f"The text of {'this file' if len(out) == 1 else 'these files'} mentions {' and '.join(map(repr, words))} "
            "(first such line shown):"] + out


_DOCUMENT_READERS = {"docx": ("a Word document", "docx_read"), "xlsx": ("an Excel workbook", "xlsx_read"),
                     "pdf": ("a PDF", "pdf_read")}


_SEARCHED_DOCUMENTS = 30  # documents (PDF, Word) whose text one grep reads
_DOCUMENT_SECONDS = 10.0  # and the seconds it spends reading them
_PAGE_MARK = re.compile(r"^--- page (\d+) ---$")


def _document_lines(data: bytes, path: str) -> list[tuple[str, str]] | None:
    """``(where, line)`` for each line of the text of the PDF or Word document ``path``
    (``data`` its bytes) as its reader shows it: "page N" for a PDF's line, "" for a
    Word paragraph (its line starts "[pN]"); None when it is neither kind or cannot
    be read. A held-out task at a864c41: "Which of the letters ... mention a refund?"
    over four PDFs, which grep skipped."""
    kind = path.rsplit(".", 1)[-1].lower()
    try:
        if kind == "pdf":
            from tools.office.pdf import pdf_bytes_to_text

            text, page, out = pdf_bytes_to_text(data, max_pages=50), "", []
            for line in text.splitlines():
                mark = _PAGE_MARK.match(line)
                if mark:
                    page = f"page {mark.group(1)}"
                elif line.strip() and not line.startswith("["):
                    out.append((page, line))
            return out
        if kind == "docx":
            from tools.office.docx_read import docx_to_text

            text = docx_to_text(data, path, max_chars=200_000)[0]
            return [("", line) for line in text.splitlines()[1:] if line.startswith("[p")]
    except (ToolError, ValueError, OSError):
        return None
    return None


class GrepParams(BaseModel):
    pattern: str = Field(description="Regular expression (Python syntax) to search for.")
    path: str = Field(".", description="File or folder to search.")
    glob: str | None = Field(None, description="Only files whose name matches this glob, e.g. *.md.")
    ignore_case: bool = Field(False, description="Match regardless of case.")
    context: int = Field(0, ge=0, le=5, description="Lines of context around each match.")
    max_matches: int = Field(100, ge=1, le=1000, description="Stop after this many matching lines.")


@tool("grep", risk=RiskClass.READ)
def grep(ctx: ToolContext, params: GrepParams) -> ToolResult:
    """Search text files, and the text of PDF and Word documents, for a regular expression; shows path:line: text."""
    ws = workspace_of(ctx)
    try:
        regex = re.compile(params.pattern, re.IGNORECASE if params.ignore_case else 0)
    except re.error as exc:
        raise ToolError(f"invalid regular expression: {exc}. Escape characters like ( [ . * with a backslash.") from None
    name_re = glob_to_regex(params.glob) if params.glob else None
    with sandboxed():
        ws.deep_skipped = 0
        paths = [ws.rel(ws.resolve(params.path))] if ws.is_file(params.path) else [
            e.path for e in ws.walk(params.path) if e.kind == "file" and e.size <= GREP_MAX_FILE_BYTES
        ]
    out: list[str] = []
    matches, files, skipped = 0, 0, 0
    documents: list[str] = []  # office documents skipped: their text needs their own read tool
    other_case = 0  # lines that would match with ignore_case
    loose = re.compile(params.pattern, re.IGNORECASE) if not params.ignore_case else None
    read_documents, unsearched, started = 0, [], time.monotonic()
    for path in paths:
        if name_re and not name_re.match(path.rsplit("/", 1)[-1]):
            continue
        where: list[str] | None = None  # a document's page of each line
        document = path.lower().endswith((".pdf", ".docx"))
        if document and (read_documents >= _SEARCHED_DOCUMENTS
                         or time.monotonic() - started > _DOCUMENT_SECONDS):
            unsearched.append(path)  # never its raw bytes: a PDF's own operators are no text of it
            continue
        try:
            data = ws.read_bytes(path)
            parts = _document_lines(data, path) if document else None
            if document and parts is None:
                raise ValueError(f"{path}: not a readable document")
            if parts is not None:
                read_documents += 1
                where, lines = [w for w, _ in parts], [ln for _, ln in parts]
            else:
                lines = decode_text(data)[0].splitlines()
        except (SandboxError, ValueError):
            skipped += 1
            if path.rsplit(".", 1)[-1].lower() in _DOCUMENT_READERS:
                documents.append(path)
            continue
        hits = [i for i, line in enumerate(lines) if regex.search(line)]
        if not hits:
            if loose is not None and not matches:
                other_case += sum(1 for line in lines if loose.search(line))
            continue
        files += 1
        shown_until = -1
        for i in hits:
            if matches >= params.max_matches:
                break
            lo, hi = max(0, i - params.context), min(len(lines) - 1, i + params.context)
            if params.context and out and lo > shown_until + 1:
                out.append("--")
            for j in range(max(lo, shown_until + 1), hi + 1):
                sep = ":" if j in hits else "-"
                at = (where[j] or "") if where is not None else str(j + 1)
                out.append(f"{path}{sep}{at}{sep if at else ''} {lines[j][:GREP_LINE_CHARS]}")
            shown_until = hi
            matches += 1
        if matches >= params.max_matches:
            break
    deep = _deep_note(ws, "searched")
    if unsearched:
        deep = deep + [f"{len(unsearched)} more documents were not searched (at most {_SEARCHED_DOCUMENTS} and "
                       f"{_DOCUMENT_SECONDS:g} s of documents per grep), e.g. {unsearched[0]}: narrow path or glob."]
    if not matches:
        note = f" ({skipped} unreadable or binary files skipped)" if skipped else ""
        lines = [f"no matches for {params.pattern!r}{note}."]
        if other_case:
            lines.append(f"{other_case} lines match if case is ignored: pass ignore_case=true.")
        # files_find at d2f: "Passport Renewal Appointment - [Date]" (a placeholder read as a character class)
        words = _words(re.sub(r"\[[^\]]*\]|\\.", " ", params.pattern))
        inside = (_text_mentions(ws, params.path, words)
                  if len(words) > 1 and not other_case and not ws.is_file(params.path) else [])
        if inside:
            lines += inside
            return ToolResult(text="\n".join(lines + deep), untrusted=True,
                              data={"matches": 0, "mentions_paths": [ln.strip().split(": ", 1)[0] for ln in inside[1:]]})
        for path in documents[:5]:
            kind, reader = _DOCUMENT_READERS[path.rsplit(".", 1)[-1].lower()]
            lines.append(f"{path} is {kind}: grep cannot search it; read it with {reader}.")
        return ToolResult(text="\n".join(lines + deep), data={"matches": 0})
    capped = matches >= params.max_matches
    out.append(f"{matches} matching lines in {files} files" + ("; stopped at max_matches, narrow the pattern or path." if capped else "."))
    out += deep
    return ToolResult(text="\n".join(out), data={"matches": matches, "files": files, "capped": capped}, untrusted=True)


class FileInfoParams(BaseModel):
    path: str = Field(description="File or folder, relative to the workspace.")


@tool("file_info", risk=RiskClass.READ)
def file_info(ctx: ToolContext, params: FileInfoParams) -> ToolResult:
    """Show a file's kind, size, modification time, type and line count."""
    ws = workspace_of(ctx)
    with sandboxed():
        info = ws.stat(params.path)
        rel = ws.rel(ws.resolve(params.path))
        is_dir = ws.is_dir(params.path)
        data: dict = {
            "path": rel,
            "kind": "folder" if is_dir else "file",
            "size": info.st_size,
            "modified": datetime.fromtimestamp(info.st_mtime, timezone.utc).isoformat(timespec="seconds"),
        }
        if is_dir:
            data["entries"] = sum(1 for _ in ws.walk(params.path, max_depth=1))
        else:
            data["mime"] = mimetypes.guess_type(rel)[0] or "unknown"
            if info.st_size <= ws.max_read_bytes:
                raw = ws.read_bytes(params.path)
                data["sha256"] = sha256_hex(raw)
                binary = looks_binary(raw)
                if binary:
                    data["content"] = binary
                else:
                    try:
                        text, data["encoding"] = decode_text(raw)
                        data["content"] = "text"
                        data["lines"] = len(text.splitlines())
                    except ValueError:
                        data["content"] = "binary data"
    lines = [f"{key}: {human_size(value)} ({value} bytes)" if key == "size" else f"{key}: {value}" for key, value in data.items()]
    if data.get("kind") == "file" and data.get("content") not in (None, "text"):
        lines.append(office_hint(rel) if rel.lower().endswith((".pdf", ".docx", ".xlsx", ".xlsm"))
                     else "Not a text file; read_file cannot show it.")
    return ToolResult(text="\n".join(lines), data=data)
