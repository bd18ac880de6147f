"""Tell a final answer from a failed attempt at a tool call.

A turn with no parsed call ends the task as a final answer (DESIGN.md, "The
flow of one task") unless it looks like the model *tried* to call a tool and
got the format wrong; then the agent re-prompts with the format instead.
"""

from __future__ import annotations

import bisect
import json
import re
from typing import Sequence

__all__ = ["keyed_call", "nameless_call", "looks_like_failed_call", "salvage_json_calls", "nearest_tool",
           "unknown_json_tool"]

# "function" for "name": calendar_list_day at 412fd36, Qwen 1.5B wrote {"function": "finish", "arguments": {...}} twice
_NAME_KEY_RE = re.compile(r"""["'](?:name|function)["']\s*:\s*["']([^"']+)["']""")
_ARGS_KEY_RE = re.compile(r"""["'](arguments|parameters)["']\s*:""")
_TOOLS_TAG_RE = re.compile(r"<tools>|</tools>")
_FENCE = "```"


def _fenced_blocks(text: str) -> list[str]:
    """Bodies of fenced code blocks: from the line after an opening fence
    (three backticks and an info string without backticks) to the next fence
    or the end. One forward pass (linear in ``len(text)``)."""
    blocks: list[str] = []
    pos, newline = 0, -1
    while True:
        start = text.find(_FENCE, pos)
        if start < 0:
            return blocks
        info = start + len(_FENCE)
        if newline < info:
            newline = text.find("\n", info)
            if newline < 0:
                return blocks
        tick = text.find("`", info, newline)
        if tick >= 0:  # not an opening fence here: try the next position, like a regex would
            pos = start + 1
            continue
        close = text.find(_FENCE, newline + 1)
        end = len(text) if close < 0 else close
        blocks.append(text[newline + 1: end])
        pos = end + len(_FENCE)


def _json_call_names(text: str) -> list[str]:
    """Values of ``"name"`` keys in JSON-ish objects that also carry arguments
    (an ``"arguments"`` or ``"parameters"`` key from 200 characters before to
    400 after the name). Linear: the argument keys are found once."""
    args = [(m.start(), m.end()) for m in _ARGS_KEY_RE.finditer(text)]
    starts = [a for a, _ in args]
    names = []
    for m in _NAME_KEY_RE.finditer(text):
        i = bisect.bisect_left(starts, max(0, m.start() - 200))
        if i < len(args) and args[i][1] <= m.end() + 400:
            names.append(m.group(1))
    return names


_CALL_START_RE = re.compile(r"""\{\s*["'](?:name|function)["']\s*:""")
_CALL_NAME_RE = re.compile(r"""\{\s*["'](?:name|function)["']\s*:\s*["']([^"']+)["']""")
_MAX_SALVAGE_TRIES = 32  # decode attempts per turn (each may scan to the end of the text)


def _fence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each fenced block, fences included (same rules as :func:`_fenced_blocks`)."""
    spans: list[tuple[int, int]] = []
    pos = 0
    while True:
        start = text.find(_FENCE, pos)
        if start < 0:
            return spans
        newline = text.find("\n", start + len(_FENCE))
        if newline < 0:
            return spans
        if text.find("`", start + len(_FENCE), newline) >= 0:
            pos = start + 1
            continue
        close = text.find(_FENCE, newline + 1)
        end = len(text) if close < 0 else close + len(_FENCE)
        spans.append((start, end))
        pos = end


def salvage_json_calls(text: str, tool_names: list[str]) -> tuple[list[tuple[str, dict, str]], str]:
    """Read the first tool call a model wrote as JSON instead of in its call format.

    Small models (Qwen2.5-Coder-1.5B in our bench) often write a correct call as
    ``{"name": "calendar_add_event", "arguments": {...}}`` in a fenced code block
    or bare, with prose around it. The first object that a JSON decoder reads
    whole, whose ``name`` is one of ``tool_names`` and whose ``arguments`` (or
    ``parameters``) is an object, is the call. Anything else (a loose regex
    match, broken JSON, an unknown name) is not salvaged: the caller keeps
    treating the turn as a failed call. Only the first: the calls after it, and
    the prose after it, were written before any result came back (Qwen 1.5B
    followed a right ``docx_read`` with edits of the lease built on a rent it
    imagined), so they are dropped.

    Returns:
        ``([(name, arguments, raw_json)], prose)``: the call, and the text before
        the fenced block (or bare object) that held it, stripped. No call: ``([], text)``.
    """
    names = set(tool_names)
    decoder = json.JSONDecoder()
    for tries, m in enumerate(_CALL_START_RE.finditer(text)):
        if tries >= _MAX_SALVAGE_TRIES:
            break
        try:
            obj, end = decoder.raw_decode(text, m.start())
        except ValueError:
            clean, kept = _without_comments(text, m.start())
            try:
                obj, n = decoder.raw_decode(clean)
            except ValueError:
                named = _CALL_NAME_RE.match(text, m.start())
                if named and named.group(1) in names:
                    return [], text  # a broken call comes first: never run a later one (a finish) in its place
                continue
            end = kept[n - 1] + 1
        name = obj.get("name", obj.get("function")) if isinstance(obj, dict) else None
        if not isinstance(name, str) or name not in names or ("name" in obj and "function" in obj):
            continue
        args = obj.get("arguments", obj.get("parameters", {}))
        if not isinstance(args, dict) or set(obj) - {"name", "function", "arguments", "parameters", "id", "type"}:
            continue
        fence = next(((a, b) for a, b in _fence_spans(text) if a <= m.start() < b), None)
        start = fence[0] if fence and end <= fence[1] else m.start()
        return [(name, args, text[m.start():end])], text[:start].strip()
    return [], text


def _lone_object(text: str) -> tuple[dict, str] | None:
    """``(object, its JSON text)`` when ``text`` is one JSON object, bare or alone in a
    fenced block; None otherwise."""
    body = text.strip()
    fenced = re.fullmatch(r"```[\w-]*\s*\n(.*?)\n?\s*```", body, re.DOTALL)
    body = (fenced.group(1) if fenced else body).strip()
    if not body.startswith("{"):
        return None
    try:
        obj = json.loads(body)
    except ValueError:
        return None
    return (obj, body) if isinstance(obj, dict) else None


def keyed_call(text: str, tool_names: list[str]) -> tuple[str, dict, str] | None:
    """A reply that is one JSON object (bare or alone in a fenced block) whose only key
    is a tool's name and whose value is an object: ``{"xlsx_add_sheet": {"path": ...}}``
    is ``("xlsx_add_sheet", {"path": ...}, raw)``; None for anything else.
    xlsx_top_vendors at 8282b36: Qwen 1.5B wrote its right xlsx_add_sheet call so,
    a format error and a step."""
    lone = _lone_object(text)
    if lone is None or len(lone[0]) != 1:
        return None
    obj, body = lone
    (name, args), = obj.items()
    return (name, args, body) if name in tool_names and isinstance(args, dict) else None


_ARGUMENT_KEYS = ("arguments", "parameters", "args", "params", "input")


def nameless_call(text: str, offered: Sequence[tuple[str, dict]]) -> tuple[str, dict, str] | None:
    """A reply that is one JSON object holding the arguments of a call the harness
    just offered to copy, without the tool's name: ``{"arguments": {"path": "top3.csv",
    "rows": [...]}}`` after "call csv_write with {"path": "top3.csv", ...}" is
    ``("csv_write", {...}, raw)``. The arguments must give every text value of the
    offered call (its path, its SQL) as the offer does; keys the offer lacks are left
    out (the offer was the whole call: Qwen 1.5B added a ``"header": true`` that
    csv_write has no parameter for). None for anything else. csv_top_customers at
    04fe9b0: Qwen 1.5B wrote the offered csv_write so, a format error, and the task
    paused as stuck."""
    lone = _lone_object(text) if offered else None
    if lone is None or "name" in lone[0]:
        return None
    obj, body = lone
    inner = [k for k in _ARGUMENT_KEYS if k in obj]
    args = obj[inner[0]] if len(inner) == 1 and len(obj) == 1 else obj
    if not isinstance(args, dict) or not args:
        return None
    for name, wanted in reversed(offered):
        texts = {k: v for k, v in wanted.items() if isinstance(v, str)}
        if texts and all(args.get(k) == v for k, v in texts.items()):
            return name, {k: v for k, v in args.items() if k in wanted}, body
    return None


# Names small models call that are not tools here, and the tool that does it (Qwen 1.5B: "rename").
_ALIASES = {"rename": "move", "mv": "move", "move_file": "move", "rename_file": "move", "cp": "copy",
            "copy_file": "copy", "rm": "delete", "remove": "delete", "delete_file": "delete", "del": "delete",
            "ls": "list_dir", "list": "list_dir", "list_files": "list_dir", "dir": "list_dir", "cat": "read_file",
            "read": "read_file", "open": "read_file", "open_file": "read_file", "write": "write_file",
            "create_file": "write_file", "save_file": "write_file", "search": "grep", "find": "find_files",
            "search_files": "grep", "answer": "finish", "final_answer": "finish", "done": "finish"}


def nearest_tool(name: str, tool_names: list[str]) -> str:
    """The registered tool meant by an unknown ``name`` ("rename" -> "move"), or ""."""
    import difflib

    alias = _ALIASES.get(name.lower())
    if alias in tool_names:
        return alias
    close = difflib.get_close_matches(name, tool_names, n=1, cutoff=0.75)
    return close[0] if close else ""


def unknown_json_tool(text: str, tool_names: list[str]) -> str:
    """"there is no tool 'rename'; use move" when ``text`` holds a JSON call of a
    name that is no tool ("" otherwise)."""
    for name in _json_call_names(text):
        if name not in tool_names:
            near = nearest_tool(name, tool_names)
            return f"there is no tool '{name}'" + (f"; use {near}" if near else "; call one of your tools")
    return ""


def _without_comments(text: str, start: int, limit: int = 8000) -> tuple[str, list[int]]:
    """``text[start:start+limit]`` without ``//`` and ``/* */`` comments outside
    JSON strings, and for each kept character its index in ``text``. Qwen 1.5B
    wrote ``"end": "45", // Duration in minutes`` inside a call; the call was
    dropped as broken JSON and a ``finish`` after it was run instead."""
    out: list[str] = []
    kept: list[int] = []
    i, stop = start, min(len(text), start + limit)
    in_string = False
    while i < stop:
        ch = text[i]
        if in_string:
            if ch == "\\" and i + 1 < stop:
                out += [ch, text[i + 1]]
                kept += [i, i + 1]
                i += 2
                continue
            in_string = ch != '"'
        elif ch == '"':
            in_string = True
        elif text.startswith("//", i):
            newline = text.find("\n", i, stop)
            i = stop if newline < 0 else newline
            continue
        elif text.startswith("/*", i):
            close = text.find("*/", i + 2, stop)
            i = stop if close < 0 else close + 2
            continue
        out.append(ch)
        kept.append(i)
        i += 1
    return "".join(out), kept


def looks_like_failed_call(text: str, tool_names: list[str]) -> str | None:
    """Say why ``text`` (a turn in which no call parsed) looks like a botched call.

    Args:
        text: the turn's visible text (or its raw output).
        tool_names: names of the available tools.

    Returns:
        A one-line reason the agent can show the model, or None when the text
        reads as a genuine answer. Detected: ``<tool_call>`` blocks that did not
        parse, ``<function=`` without ``<tool_call>``, an invented ``<tools>``
        list, a JSON object naming a tool with arguments (bare or in a fenced
        code block), a tag named after a tool (``<read_file>``), and a
        Python-style call of a tool as the whole answer.
    """
    names = [n for n in tool_names if n]
    stripped = text.strip()
    if "<tool_call>" in text or "</tool_call>" in text:
        return "the <tool_call> block could not be read as a call; write it exactly in the required format"
    if "<function=" in text:
        return "wrote <function=...> without the enclosing <tool_call> ... </tool_call> tags"
    if _TOOLS_TAG_RE.search(text):
        return "wrote a <tools> list instead of calling a tool; call one tool inside <tool_call> tags"
    code_call = re.compile(r"\s*(?:" + "|".join(re.escape(n) for n in names) + r")\s*\(") if names else None
    for block in _fenced_blocks(text):
        called = [n for n in _json_call_names(block) if n in names]
        if called:
            return f"put a call of '{called[0]}' in a code block; write it inside <tool_call> tags instead"
        if code_call is not None and code_call.match(block):
            return "wrote a tool call as code; write it inside <tool_call> tags instead"
    called = [n for n in _json_call_names(text) if n in names]
    if called:
        return f"wrote a call of '{called[0]}' as plain JSON; wrap it in <tool_call> ... </tool_call>"
    if stripped.startswith("{"):
        try:
            obj = json.loads(stripped)
        except ValueError:
            obj = None
        if isinstance(obj, dict) and obj.get("name") in names:
            return f"wrote a call of '{obj['name']}' as plain JSON; wrap it in <tool_call> ... </tool_call>"
    for n in names:
        if re.search(rf"<{re.escape(n)}[\s>/]", text):
            return f"wrote a <{n}> tag; call tools only inside <tool_call> tags"
        if re.fullmatch(rf"`?{re.escape(n)}\s*\(.*\)`?;?", stripped, re.DOTALL):
            return f"wrote '{n}(...)' as code; call tools only inside <tool_call> tags"
    return None
