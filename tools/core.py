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

__all__ = ["AskHumanParams", "ASK_HUMAN", "GroupName", "GROUP_NAMES", "UseToolsParams", "USE_TOOLS", "CORE_TOOLS"]


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


class UseToolsParams(BaseModel):
    groups: list[GroupName] = Field(description="Groups to load, e.g. [\"excel\"].", min_length=1)

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
