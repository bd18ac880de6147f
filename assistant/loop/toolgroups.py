"""Tool groups: the model sees the file tools plus what the task needs.

Every tool schema shown to a small model costs prompt tokens (the 31 built-in
schemas are ~7,400 tokens on the demo tokenizer) and attention. The agent shows
the core group (file tools, ``ask_human``, ``use_tools``) and the groups the
task evidently needs — chosen once, when the task is created, from words in the
goal and the file types in the workspace — and the model can load any other
group with ``use_tools``. Schemas are also compacted (first sentence of each
description, no titles). The chosen groups are stored with the task so a
resumed task renders the same prompt (and reuses the same KV-cache prefix).
"""

from __future__ import annotations

import copy
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Collection, Iterable

from tools.base import ToolRegistry
from tools.core import CORE_TOOLS, GROUP_NAMES, GROUP_PREFIXES, group_of_name

__all__ = ["ALREADY_LOADED", "GROUPS", "group_of", "initial_groups", "unasked_groups", "active_schemas",
           "compact_schema", "loaded_groups",
           "unloaded_hint", "WRITER_OF", "TurnTools", "turn_tools", "loaded_schemas_note"]

_SAID = {
    "word": "Word .docx documents: read, create, edit",
    "excel": "Excel .xlsx and CSV: read, write, formulas, sheets, SQL over tables",
    "pdf": "PDF: read, search, merge, split, extract, rotate pages",
    "web": "web search and fetching pages",
    "calendar": "calendar events in .ics files",
    "notes": "Markdown notes: add, search, list",
    "memory": "facts to remember about the user",
    "extras": "tools from plugins and MCP servers",
}
# group -> (one-line description for the model, tool-name prefixes); the names are tools.core.GROUP_NAMES
GROUPS: dict[str, tuple[str, tuple[str, ...]]] = {g: (_SAID[g], GROUP_PREFIXES[g]) for g in GROUP_NAMES}

_CORE = {t.name for t in CORE_TOOLS}
_FILE_TOOLS = {"list_dir", "read_file", "write_file", "edit_file", "move", "copy", "delete", "find_files", "grep",
               "file_info"}

_KEYWORDS: dict[str, str] = {
    "word": r"\bdocx?\b|\bword\b|\bmemo\b|\bletter\b|\bdocument|\bcontract|\breport\b",
    "excel": r"xlsx|\bexcel\b|spreadsheet|\bsheet|\bcsv\b|\bworkbook|\btotals?\b|\bsum\b|\bcolumns?\b",
    "pdf": r"\bpdfs?\b",
    "web": r"https?://|\bwww\.|\bweb\b|\bsearch the\b|\bonline\b|\binternet\b|\blook up\b|\bnews\b|\bwebsite",
    "calendar": r"calendar|meeting|\bevents?\b|schedule|appointment|\b(mon|tues|wednes|thurs|fri|satur|sun)day\b"
                r"|\btomorrow\b|\bnext week\b"
                # "Am I free on 11 December at 15:00?" (a held-out task at 911f35c looked for a file of that name)
                r"|\b(?:am i|are we|i am|i'm|is \w+)\s+(?:free|busy|available|booked)\b|\bmy (?:day|week|diary|agenda)\b",
    "notes": r"\bnotes?\b",
    "memory": r"\bremember\b|\bmemory\b|\bforget\b|\babout me\b",
}
_EXTENSIONS = {".docx": "word", ".doc": "word", ".xlsx": "excel", ".xlsm": "excel", ".csv": "excel",
               ".tsv": "excel", ".pdf": "pdf", ".ics": "calendar"}


def group_of(tool_name: str, source: str = "builtin") -> str | None:
    """The group a tool belongs to: None for core tools (file tools, ``ask_human``,
    ``use_tools`` and other built-ins), "extras" for unknown plugin / MCP tools."""
    if tool_name in _CORE or tool_name in _FILE_TOOLS:
        return None
    return group_of_name(tool_name) or (None if source == "builtin" else "extras")


def _workspace_kinds(root: Path, limit: int = 2000) -> set[str]:
    found: set[str] = set()
    seen = 0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for f in filenames:
            seen += 1
            g = _EXTENSIONS.get(os.path.splitext(f)[1].lower())
            if g:
                found.add(g)
            if seen >= limit:
                return found
    return found


_NAMED_FILE = re.compile(r"(?<![\w/.-])(?:[\w.-]+/)*[\w-][\w.-]*\.([a-z][a-z0-9]{0,4})\b")
_DOCUMENT_GROUPS = {"word", "excel", "pdf"}
_URL = re.compile(r"https?://|\bwww\.")


def named_files(goal: str) -> list[str]:
    """File names the goal mentions, in order ("Total sales.csv into out.md" -> ["sales.csv", "out.md"])."""
    return [m.group(0) for m in _NAMED_FILE.finditer(goal)
            if not _URL.search(goal[max(0, m.start() - 8):m.start()])
            and not goal[max(0, m.start() - 1):m.start()] == "@"]  # ann@example.org is an address, not a file


def initial_groups(goal: str, workspace: str | Path | None) -> list[str]:
    """Groups a new task starts with: keywords in ``goal`` plus the document
    types present in ``workspace`` (at most 2,000 files looked at).

    A goal that names files (``notes.md``, ``sales.csv``) is a file task: its
    document groups come only from the named files' types (not from words like
    "report", nor from other files lying in the workspace), web only from a
    URL, and a file name is not a keyword (``notes.md`` does not load the
    notes plugin)."""
    text = goal.lower()
    named = [m.group(1) for m in _NAMED_FILE.finditer(text)]
    words = _NAMED_FILE.sub(" ", text)
    groups = {g for g, rx in _KEYWORDS.items() if re.search(rx, words)}
    if named:
        groups -= _DOCUMENT_GROUPS
        groups |= {_EXTENSIONS[f".{ext}"] for ext in named if f".{ext}" in _EXTENSIONS}
        if not _URL.search(text):
            groups.discard("web")
    elif workspace is not None and Path(workspace).is_dir():
        groups |= _workspace_kinds(Path(workspace))
    return sorted(groups)


#: groups a task may load only when its words or its workspace point at them: the user's own stores (a note, a
#: memory or an event written there outlives the task) and the document types; web and extras are never judged
_JUDGED = ("notes", "memory", "calendar", "word", "excel", "pdf")


def unasked_groups(groups: Iterable[str], texts: Iterable[str], workspace: str | Path | None) -> list[str]:
    """The ``groups`` (asked for with ``use_tools``) that nothing points at: a store
    (notes, memory, calendar) that no word of the user's ``texts`` names, or a
    document group that their words (or a file they name) do not point at and no
    file of the workspace is of (the keywords of :func:`initial_groups`; a file
    name is no keyword: "notes.md" is no note), or the web where they name a file and
    no web page or search. files_rename_pattern at 4f7db1e: asked
    to rename photos, Qwen 1.5B loaded the notes group and wrote a note
    "holiday-0042.jpg" into the user's notes."""
    text = " ".join(texts).lower()
    named = [m.group(1) for m in _NAMED_FILE.finditer(text)]
    words = _NAMED_FILE.sub(" ", text)
    evident = {g for g, rx in _KEYWORDS.items() if re.search(rx, words)}
    evident |= {_EXTENSIONS[f".{ext}"] for ext in named if f".{ext}" in _EXTENSIONS}
    if workspace is not None and Path(workspace).is_dir():
        evident |= _workspace_kinds(Path(workspace))
    # a task that names its files and no web page or search is done with them (batch IZ at 2081e47, IZG: "the newest
    # version in versions.txt" loaded web, searched for "latest app version" and asked the user)
    judged = (*_JUDGED, "web") if named else _JUDGED
    return [g for g in dict.fromkeys(groups) if g in judged and g not in evident]


def loaded_groups(task_groups: Iterable[str], calls: Iterable[Any]) -> set[str]:
    """The task's groups plus those loaded by finished ``use_tools`` calls."""
    groups = set(task_groups)
    for c in calls:
        if getattr(c, "name", "") == "use_tools" and getattr(c, "status", "") == "done" and not getattr(c, "error", False):
            groups.update(str(g) for g in (getattr(c, "arguments", {}) or {}).get("groups", []) if g in GROUPS)
    return groups


_SENTENCE_END = re.compile(r"(?<!e\.g)(?<!i\.e)(?<!etc)\.\s+(?=[A-Z])")
# Bounds are checked by pydantic when the call is validated; the model does not need to read them.
_DROP = ("title", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength",
         "minItems", "maxItems", "pattern")


def _first_sentence(text: str, cap: int) -> str:
    text = " ".join(str(text).split())
    m = _SENTENCE_END.search(text)
    if m and m.start() >= 20:
        text = text[: m.start() + 1]
    return text if len(text) <= cap else text[: cap - 1].rstrip(" ,;") + "…"


def _compact_props(obj: dict[str, Any], cap: int) -> None:
    for key in _DROP:
        obj.pop(key, None)
    options = obj.get("anyOf")
    if isinstance(options, list) and len(options) == 2 and {"type": "null"} in options:
        obj.pop("anyOf")  # Optional[X] shown as X; omitting the argument means null
        obj.update(next(o for o in options if o != {"type": "null"}))
        if obj.get("default", 0) is None:
            obj.pop("default")
    if "description" in obj:
        obj["description"] = _first_sentence(obj["description"], cap)
    for key in ("properties", "$defs"):
        for sub in (obj.get(key) or {}).values():
            if isinstance(sub, dict):
                _compact_props(sub, cap)
    for key in ("items", "additionalProperties"):
        if isinstance(obj.get(key), dict):
            _compact_props(obj[key], cap)
    for key in ("anyOf", "oneOf", "allOf"):
        for sub in obj.get(key) or []:
            if isinstance(sub, dict):
                _compact_props(sub, cap)


def compact_schema(schema: dict[str, Any], *, desc_cap: int = 120, param_cap: int = 60) -> dict[str, Any]:
    """A copy of a function schema with short descriptions and no titles.

    Types, enums, required lists and defaults are kept (the grammar and the
    argument coercion depend on them).
    """
    out = copy.deepcopy(schema)
    fn = out.get("function", out)
    fn["description"] = _first_sentence(fn.get("description", ""), desc_cap)
    params = fn.get("parameters") or {}
    for sub in (params.get("properties") or {}).values():
        if isinstance(sub, dict):
            _compact_props(sub, param_cap)
    for sub in (params.get("$defs") or {}).values():
        if isinstance(sub, dict):
            _compact_props(sub, param_cap)
    return out


def active_schemas(registry: ToolRegistry, groups: Iterable[str]) -> list[dict[str, Any]]:
    """Compacted schemas of the core tools and of the tools in ``groups``:
    see :func:`_schema_parts` for the order."""
    core, grouped = _schema_parts(registry, groups)
    return core + grouped


def _schema_parts(registry: ToolRegistry, groups: Iterable[str]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``(core, grouped)`` compacted schemas: the core tools in registration order
    (``use_tools`` last, and only while some group is still unloaded), then the
    tools of ``groups`` in :data:`GROUPS` order. Core first, so that tasks with
    different groups share the longest prompt prefix (system text + core tools)
    and its KV cache: the office tools registered ahead of ``ask_human`` made a
    task with the excel group re-read every core schema after a calendar task
    (csv_group_totals at e03cee3: 300 s, most of it prefill)."""
    groups = set(groups)
    present = {group_of(t.name, t.source) for t in registry} - {None}
    core, last, grouped = [], [], {g: [] for g in GROUPS}
    for t in registry:
        g = group_of(t.name, t.source)
        if g is None:
            if t.name != "use_tools":
                core.append(compact_schema(t.schema()))
            elif present - groups:
                last.append(compact_schema(t.schema()))
        elif g in groups:
            grouped.setdefault(g, []).append(compact_schema(t.schema()))
    return core + last, [schema for part in grouped.values() for schema in part]


_NAME_RE = re.compile(r"<function=([A-Za-z0-9_.\-]+)|\"name\"\s*:\s*\"([A-Za-z0-9_.\-]+)\"")


_PATH_RE = re.compile(r"\"path\"\s*:\s*\"([^\"]+)\"|<parameter=path>\s*([^<\s]+)")
#: the tool that writes each kind of file, by file name ending
WRITER_OF = {".xlsx": "xlsx_write", ".xlsm": "xlsx_write", ".csv": "csv_write", ".docx": "docx_create"}


def unloaded_hint(raw: str, registry: ToolRegistry, loaded: Collection[str] = ()) -> str:
    """" It is in the 'excel' group: ..." when ``raw`` calls a registered tool
    whose group is not loaded (not among ``loaded``, the names the turn could
    call); "" otherwise. multistep_invoices_memo at c92ae49: a cut-off docx_create,
    callable all along, got "call use_tools with groups ["word"] first" twice, and
    the model spent two of its steps loading a loaded group."""
    m = _NAME_RE.search(raw or "")
    name = (m.group(1) or m.group(2)) if m else ""
    m_path = _PATH_RE.search(raw or "")
    path = (m_path.group(1) or m_path.group(2)) if m_path else ""
    writer = WRITER_OF.get(os.path.splitext(path)[1].lower()) if path else None
    if name and name not in loaded and writer in loaded and writer.split("_")[0] != name.split("_")[0]:
        # multistep_invoices_memo: docx_create for invoices.xlsx is no reason to load the 'word' group
        kind = writer.split("_")[0]
        return f" {path} is {'an' if kind[0] == 'x' else 'a'} {kind} file: call {writer}, which you have."
    tool = registry.get(name) if name and name not in loaded else None
    group = group_of(name, tool.source) if tool is not None else None
    if not group:
        return ""
    return f" {name} is in the '{group}' tool group: call use_tools with groups [\"{group}\"] first."


@dataclass
class TurnTools:
    """The schemas of one turn.

    Attributes:
        prompt: rendered in the prompt: the core tools, the task's starting
            groups and ``finish``; the same on every step of a task, so the
            cached prompt prefix stays valid.
        calls: what the grammar lets a call use this turn when it differs from
            ``prompt`` (groups loaded since, whose schemas reached the model in
            the ``use_tools`` observation; minus tools left out of this turn);
            None when it is ``prompt``.
    """

    prompt: list[dict[str, Any]]
    calls: list[dict[str, Any]] | None = None

    @property
    def callable(self) -> list[dict[str, Any]]:
        return self.prompt if self.calls is None else self.calls


def _name(schema: dict[str, Any]) -> str:
    return str((schema.get("function") or schema).get("name", ""))


def turn_tools(registry: ToolRegistry, task_groups: Iterable[str], calls: Iterable[Any], *,
               extra: Iterable[dict[str, Any]] = (), skip: Iterable[str] = ()) -> TurnTools:
    """:class:`TurnTools` for a task that started with ``task_groups`` and made
    ``calls``; ``extra`` schemas (e.g. ``finish``) are always offered, and the
    tools named in ``skip`` are left out of this turn's calls."""
    calls = list(calls)
    extra = list(extra)
    core, grouped = _schema_parts(registry, task_groups)
    prompt = core + extra + grouped  # finish and update_plan with the core tools: the shared prefix
    core, grouped = _schema_parts(registry, loaded_groups(task_groups, calls))
    now = core + extra + grouped
    skip = set(skip)
    if skip:
        now = [s for s in now if _name(s) not in skip]
    return TurnTools(prompt, None if [_name(s) for s in now] == [_name(s) for s in prompt] else now)


ALREADY_LOADED = "These tools were already in your tool list:"


def loaded_schemas_note(registry: ToolRegistry, groups: Iterable[str], shown: Iterable[str]) -> str:
    """The schemas of the tools in ``groups`` not in ``shown`` (names already
    visible), one compact JSON object a line, for the ``use_tools`` observation:
    new tools arrive after the history instead of in the system prompt. When
    every tool of ``groups`` is already shown, one line that says so by name."""
    groups, shown = set(groups), set(shown)
    lines, had = [], []
    for t in registry:
        if group_of(t.name, t.source) not in groups:
            continue
        if t.name in shown:
            had.append(t.name)
            continue
        fn = compact_schema(t.schema()).get("function", {})
        lines.append(json.dumps({"name": fn.get("name"), "description": fn.get("description"),
                                 "parameters": fn.get("parameters")}, ensure_ascii=False, separators=(",", ":")))
    if lines:
        return "New tools you can call from now on:\n" + "\n".join(lines)
    if had:  # csv_to_xlsx: the excel group was loaded from the start, and the model loaded it again (a step)
        return (f"{ALREADY_LOADED} {', '.join(had)}. Loading them again changes nothing; call the one the task "
                "needs now.")
    return ""
