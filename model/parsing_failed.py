"""Tell a final answer from a failed attempt at a tool call.

A turn with no parsed call ends the task as a final answer (DESIGN.md, "The
flow of one task") unless it looks like the model *tried* to call a tool and
got the format wrong; then the agent re-prompts with the format instead.
"""

from __future__ import annotations

import json
import re

__all__ = ["looks_like_failed_call"]

_FENCE_RE = re.compile(r"```[^\n`]*\n(.*?)(?:```|\Z)", re.DOTALL)
_NAME_KEY_RE = re.compile(r"""["']name["']\s*:\s*["']([^"']+)["']""")
_TOOLS_TAG_RE = re.compile(r"<tools>|</tools>")


def _json_call_names(text: str) -> list[str]:
    """Values of ``"name"`` keys in JSON-ish objects that also carry arguments."""
    names = []
    for m in _NAME_KEY_RE.finditer(text):
        window = text[max(0, m.start() - 200): m.end() + 400]
        if re.search(r"""["'](arguments|parameters)["']\s*:""", window):
            names.append(m.group(1))
    return names


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
    for block in _FENCE_RE.findall(text):
        called = [n for n in _json_call_names(block) if n in names]
        if called:
            return f"put a call of '{called[0]}' in a code block; write it inside <tool_call> tags instead"
        if any(re.match(rf"\s*{re.escape(n)}\s*\(", block) for n in names):
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
