"""Bundled plugin ``memory``: facts about the user in a Markdown file the user can edit.

Settings (``[plugins.memory]``): ``path`` — the file (default
``<config dir>/memory.md``; relative paths are taken from the config dir),
``max_prompt_chars`` — cap on the facts injected into the system prompt.

The file is plain Markdown; every line starting with ``- `` or ``* `` is a
fact, everything else (headings, comments the user typed) is kept as it is.
The facts go into the system prompt, in file order, until the cap is reached.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from plugins.api import PluginAPI
from plugins.bundled._store import Loc, config_dir, locate
from tools.base import RiskClass, Tool, ToolContext, ToolError, ToolResult

__all__ = ["MemorySettings", "register", "parse_facts", "render_prompt"]

HEADER = "# Memory\n\nFacts about the user. Edit freely: one fact per line starting with \"- \".\n\n"


class MemorySettings(BaseModel):
    """``[plugins.memory]`` settings."""

    path: str = Field("", description="memory file; default <config dir>/memory.md")
    max_prompt_chars: int = Field(2000, ge=0, le=50_000, description="cap on facts in the system prompt")


class MemoryAdd(BaseModel):
    fact: str = Field(..., min_length=1, max_length=500, description="one fact about the user, one line")


class MemoryList(BaseModel):
    pass


class MemoryForget(BaseModel):
    match: str = Field(..., min_length=1,
                       description="fact number from memory_list, or text that the fact(s) to forget contain")


def _is_fact(line: str) -> bool:
    return line.lstrip().startswith(("- ", "* ")) and bool(line.lstrip()[2:].strip())


def parse_facts(text: str) -> list[str]:
    """The facts in a memory file: the text of each ``- `` / ``* `` line, in order."""
    return [ln.lstrip()[2:].strip() for ln in text.splitlines() if _is_fact(ln)]


def render_prompt(facts: list[str], max_chars: int) -> str:
    """The system-prompt block for ``facts``, at most ``max_chars`` characters of
    fact lines; "" when there are no facts or the cap is 0."""
    if not facts or max_chars <= 0:
        return ""
    lines, used = [], 0
    for fact in facts:
        line = f"- {fact}"
        if used + len(line) + 1 > max_chars:
            break
        lines.append(line)
        used += len(line) + 1
    if not lines:
        return ""
    more = len(facts) - len(lines)
    tail = f"\n({more} more facts not shown; use memory_list to see them.)" if more else ""
    return "Facts the user asked you to remember (from their memory file):\n" + "\n".join(lines) + tail


def register(api: PluginAPI) -> None:
    """Register memory_add, memory_list, memory_forget and the system-prompt block."""
    settings = api.settings(MemorySettings)

    def where(ctx: ToolContext | None) -> Loc:
        # ctx=None: no workspace; the memory file lives in the user's config dir.
        bare = ToolContext(config=getattr(ctx, "config", {}) or {})
        return locate(bare, settings.path, "memory.md", base=config_dir(ctx), prefer_workspace=False)

    def facts(ctx: ToolContext | None) -> list[str]:
        return parse_facts(where(ctx).read_text() or "")

    def memory_add(ctx: ToolContext, p: MemoryAdd) -> ToolResult:
        fact = " ".join(p.fact.split())
        loc = where(ctx)
        text = loc.read_text()
        existing = parse_facts(text or "")
        if any(f.casefold() == fact.casefold() for f in existing):
            return ToolResult(text=f"already remembered: {fact}")
        base = text if text is not None else HEADER
        loc.write_text(base.rstrip("\n") + f"\n- {fact}\n")
        return ToolResult(text=f"remembered: {fact}", data={"path": str(loc.path), "count": len(existing) + 1})

    def memory_list(ctx: ToolContext, p: MemoryList) -> ToolResult:
        items = facts(ctx)
        if not items:
            return ToolResult(text="memory is empty. Use memory_add to remember a fact.")
        body = "\n".join(f"{i}. {f}" for i, f in enumerate(items, 1))
        return ToolResult(text=body, data={"facts": items, "path": str(where(ctx).path)})

    def memory_forget(ctx: ToolContext, p: MemoryForget) -> ToolResult:
        loc = where(ctx)
        text = loc.read_text() or ""
        items = parse_facts(text)
        key = p.match.strip()
        if key.isdigit():
            n = int(key)
            if not 1 <= n <= len(items):
                raise ToolError(f"no fact number {n}; memory_list shows {len(items)} facts")
            doomed = {n - 1}
        else:
            doomed = {i for i, f in enumerate(items) if key.casefold() in f.casefold()}
            if not doomed:
                raise ToolError(f"no fact contains {key!r}; use memory_list to see them")
        kept, index = [], 0
        for line in text.splitlines():
            if _is_fact(line):
                index += 1
                if index - 1 in doomed:
                    continue
            kept.append(line)
        loc.write_text("\n".join(kept) + "\n")
        gone = [items[i] for i in sorted(doomed)]
        return ToolResult(text="forgot: " + "; ".join(gone), data={"forgotten": gone})

    api.add_tool(Tool("memory_add", "Remember a fact about the user (kept across tasks).",
                      MemoryAdd, memory_add, RiskClass.WRITE))
    api.add_tool(Tool("memory_list", "List the remembered facts about the user, numbered.",
                      MemoryList, memory_list, RiskClass.READ))
    api.add_tool(Tool("memory_forget", "Forget remembered facts, by number or by matching text.",
                      MemoryForget, memory_forget, RiskClass.DESTRUCTIVE))

    def prompt(ctx: ToolContext) -> str:
        try:
            return render_prompt(facts(ctx), settings.max_prompt_chars)
        except Exception:  # noqa: BLE001 - an unreadable memory file must not stop a task
            return ""

    api.add_system_prompt(prompt)

    def slash_memory(ctx: ToolContext, argument: str) -> str:
        return f"{memory_list(ctx, MemoryList()).text}\n(file: {where(ctx).path})"

    api.add_slash_command("memory", slash_memory, "show the remembered facts and where the file is")
