"""The core tools every task has: ``ask_human`` and ``use_tools``.

The agent loop handles both itself: an ``ask_human`` call pauses the task until
the user answers (``assistant/loop/calls.py``), and a finished ``use_tools`` call
adds its groups to the tools shown from the next step
(``assistant/loop/toolgroups.py`` decides which tool is in which group). The
function bodies here only run when a caller invokes the tools outside the loop.
"""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import BaseModel, Field, field_validator

from tools.base import RiskClass, Tool, ToolContext, ToolResult

__all__ = ["AskHumanParams", "ASK_HUMAN", "GroupName", "GROUP_NAMES", "GROUP_PREFIXES", "group_of_name",
           "UseToolsParams", "USE_TOOLS", "CORE_TOOLS"]


class AskHumanParams(BaseModel):
    question: str = Field(description="One clear question for the user.")
    choices: list[str] = Field(default_factory=list, description="Optional answers to pick from.")


def _ask_human(ctx: ToolContext, params: AskHumanParams) -> ToolResult:
    return ToolResult(text="(waiting for the user's answer)", data={"question": params.question})


ASK_HUMAN = Tool(
    name="ask_human",
    description="Ask the user a question and wait for the answer (for decisions or missing information).",
    params=AskHumanParams,
    fn=_ask_human,
    risk=RiskClass.READ,
)

GroupName = Literal["word", "excel", "pdf", "web", "calendar", "notes", "memory", "extras"]
"""The tool groups a model can load; ``assistant.loop.toolgroups.GROUPS`` says what each holds."""

GROUP_NAMES: tuple[str, ...] = get_args(GroupName)

GROUP_PREFIXES: dict[str, tuple[str, ...]] = {
    "word": ("docx_",), "excel": ("xlsx_", "csv_", "table_query"), "pdf": ("pdf_",),
    "web": ("web_search", "fetch_url"), "calendar": ("calendar_",), "notes": ("note_",), "memory": ("memory_",),
    "extras": (),
}
"""group -> the tool-name prefixes of its tools (a prefix ending in "_", or a whole name)."""

_ALIASES = {"docx": "word", "doc": "word", "xlsx": "excel", "csv": "excel", "spreadsheet": "excel", "note": "notes"}


def group_of_name(name: str) -> str | None:
    """The group whose tools ``name`` names ("xlsx_write" -> "excel"), or None."""
    for group, prefixes in GROUP_PREFIXES.items():
        if any(name == p or (p.endswith("_") and name.startswith(p)) for p in prefixes):
            return group
    return None


class UseToolsParams(BaseModel):
    groups: list[GroupName] = Field(description="Groups to load, e.g. [\"excel\"].", min_length=1)

    @field_validator("groups", mode="before")
    @classmethod
    def _by_tool_name(cls, groups: object) -> object:
        """A tool's name, or a file kind, stands for its group: csv_to_xlsx at b5a954c, Qwen 1.5B asked for
        ["xlsx_write"], was told the group names, then asked for all eight four times and the task stalled."""
        if not isinstance(groups, list):
            return groups
        return [g if not isinstance(g, str) or g in GROUP_NAMES
                else _ALIASES.get(g.strip().lower()) or group_of_name(g.strip()) or g for g in groups]

    @field_validator("groups")
    @classmethod
    def _few(cls, groups: list[str]) -> list[str]:
        """At most 4: each group's schemas are prompt tokens (files_merge_todos asked for all 8, twice)."""
        if len(set(groups)) > 4:
            raise ValueError("load at most 4 groups, only those whose tools this task needs now; the file tools "
                             "(read_file, write_file, list_dir, move, ...) are always loaded")
        return list(dict.fromkeys(groups))


def _use_tools(ctx: ToolContext, params: UseToolsParams) -> ToolResult:
    names = ", ".join(params.groups)
    return ToolResult(text=f"Loaded tool groups: {names}. Their tools can be called from your next step.",
                      data={"tool_groups": list(params.groups)})


USE_TOOLS = Tool(
    name="use_tools",
    description="Load a tool group: word (.docx), excel (.xlsx/.csv), pdf, web (search/fetch), calendar (.ics), "
                "notes, memory, extras.",
    params=UseToolsParams,
    fn=_use_tools,
    risk=RiskClass.READ,
)

CORE_TOOLS: list[Tool] = [ASK_HUMAN, USE_TOOLS]
"""Registered for every task, whatever else is loaded (``assistant.toolset.build_toolset``)."""
