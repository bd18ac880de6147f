"""Widgets of the assistant's TUI."""

from .handoff import HandOffPanel
from .prompt import CompletionMenu, PromptArea, PromptInput
from .status_bar import StatusBar
from .tool_card import ToolCallCard, key_arguments, summarize_result
from .transcript import AgentResponse, NoticeLine, ReasoningBlock, Transcript, UnseenNote, UserMessage

__all__ = [
    "AgentResponse",
    "HandOffPanel",
    "NoticeLine",
    "CompletionMenu",
    "PromptArea",
    "PromptInput",
    "ReasoningBlock",
    "StatusBar",
    "ToolCallCard",
    "Transcript",
    "UnseenNote",
    "UserMessage",
    "key_arguments",
    "summarize_result",
]
