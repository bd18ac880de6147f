"""Built-in tools and the tool contract (see ``tools.base``)."""

from tools.base import (
    RiskClass,
    Tool,
    ToolContext,
    ToolError,
    ToolRegistry,
    ToolResult,
    format_validation_error,
    tool,
)

__all__ = [
    "RiskClass",
    "Tool",
    "ToolContext",
    "ToolError",
    "ToolRegistry",
    "ToolResult",
    "format_validation_error",
    "tool",
]
