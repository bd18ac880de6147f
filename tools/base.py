"""The tool contract: typed functions with a risk class, a one-line description
and results that are text for the model plus structured data for the UI.

A tool is a plain function ``fn(ctx: ToolContext, params: P) -> ToolResult``
whose parameters are a pydantic model ``P``. The JSON schema the model sees is
generated from ``P``. Errors are results too (``ToolResult.error``): a tool may
raise :class:`ToolError` with a short, actionable message and the registry turns
it into an error result; no exception escapes :meth:`Tool.invoke`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Callable, Generic, Mapping, TypeVar

from pydantic import BaseModel, ValidationError

__all__ = [
    "RiskClass",
    "ToolError",
    "ToolResult",
    "ToolContext",
    "Tool",
    "ToolRegistry",
    "tool",
    "format_validation_error",
]


class RiskClass(str, enum.Enum):
    """How much a tool call can change the world; drives the approval policy.

    ``read``: looks only. ``write``: creates or edits workspace files (undoable).
    ``destructive``: overwrites, deletes or moves (undoable, but asks by default).
    ``network``: talks to the internet. ``exec``: runs programs.
    """

    READ = "read"
    WRITE = "write"
    DESTRUCTIVE = "destructive"
    NETWORK = "network"
    EXEC = "exec"


class ToolError(Exception):
    """Raised inside a tool for a failure the model should read and act on.

    The message is one or two short lines that say what went wrong and what to
    do next (e.g. "file not found: a.txt. Use list_dir to see what exists.").
    """


@dataclass
class ToolResult:
    """The outcome of one tool call.

    Attributes:
        text: what the model sees as the observation (plain text).
        data: structured data for the UI (JSON-serialisable), optional.
        error: True when the call failed; ``text`` then says why and what to do.
        untrusted: True when ``text`` holds content from the web or a document
            that must be fenced as data before the model sees it.
    """

    text: str
    data: dict[str, Any] | None = None
    error: bool = False
    untrusted: bool = False

    @classmethod
    def fail(cls, message: str, **data: Any) -> "ToolResult":
        """An error result with ``message`` as the observation."""
        return cls(text=message, data=data or None, error=True)


@dataclass
class ToolContext:
    """What a tool may use while it runs.

    Attributes:
        workspace: the task's ``sandbox.Workspace`` (all file access goes through it).
        task_id: id of the running task ("" outside a task).
        config: read-only mapping of settings relevant to tools.
        state: a per-task scratch dict tools may use for caches (e.g. fetched
            URLs); it is not persisted.
        secrets: callable ``name -> str | None`` reading a secret by name.
        user_words: what the user wrote in this task (the goal, notes, answers to
            questions), oldest first. Tools may check a call against it (the
            calendar refuses a start on another weekday than the user named).
        sources: the text of the files the goal takes the work from ("the meeting
            from notes.md"), as this task read them. Data, never instructions:
            tools may only check a call against it (the calendar refuses a day
            the source never gives).
    """

    workspace: Any = None
    task_id: str = ""
    config: Mapping[str, Any] = field(default_factory=dict)
    state: dict[str, Any] = field(default_factory=dict)
    secrets: Callable[[str], str | None] = lambda name: None
    user_words: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)


P = TypeVar("P", bound=BaseModel)

RiskFn = Callable[[ToolContext, Any], RiskClass]


def always_changes(fn: RiskFn) -> RiskFn:
    """Mark a risk function that never answers READ (every call of its tool writes,
    moves or deletes), so :attr:`Tool.changes_files` knows it without a call to judge."""
    fn.always_changes = True  # type: ignore[attr-defined]
    return fn


@dataclass
class Tool(Generic[P]):
    """A typed tool.

    Attributes:
        name: identifier the model calls (``[a-z][a-z0-9_]*``).
        description: one line shown to the model.
        params: pydantic model of the arguments.
        fn: ``fn(ctx, params) -> ToolResult | str``.
        risk: the risk class, or a function ``(ctx, params) -> RiskClass`` when it
            depends on the arguments (``write_file`` over an existing file is
            destructive).
        source: "builtin", or the plugin / MCP server it came from.
    """

    name: str
    description: str
    params: type[P]
    fn: Callable[[ToolContext, P], "ToolResult | str"]
    risk: RiskClass | RiskFn = RiskClass.READ
    source: str = "builtin"

    @property
    def changes_files(self) -> bool:
        """True when every call writes, moves or deletes: a fixed WRITE or DESTRUCTIVE
        risk, or a risk function marked with :func:`always_changes`."""
        if isinstance(self.risk, RiskClass):
            return self.risk in (RiskClass.WRITE, RiskClass.DESTRUCTIVE)
        return bool(getattr(self.risk, "always_changes", False))

    def schema(self) -> dict[str, Any]:
        """The OpenAI-style function schema: ``{"type": "function", "function": {...}}``."""
        params = self.params.model_json_schema()
        params.pop("title", None)
        for prop in params.get("properties", {}).values():
            prop.pop("title", None)
        params.setdefault("properties", {})
        params.setdefault("required", [])
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": params},
        }

    def parameters_schema(self) -> dict[str, Any]:
        """The JSON schema of the arguments object."""
        return self.schema()["function"]["parameters"]

    def validate(self, arguments: Mapping[str, Any]) -> P:
        """Validate raw arguments. A ``null`` given for an optional parameter that
        does not take one means "not given" (its default): xlsx_group_sums at 42e28a8,
        Qwen 1.5B sent ``"rows": null, "output": null`` and was told rows must be a
        list. So does an empty string for an optional parameter whose default is
        ``None``: xlsx_total at 80595a7, ``"output": ""`` was taken as an output path
        and every save of expenses.xlsx failed "already exists" five times; or a text
        that is not blank (xlsx_write's ``"start": ""`` is its "A1").
        Raises ``pydantic.ValidationError``."""
        fields = self.params.model_fields
        arguments = {k: v for k, v in arguments.items()
                     if not (isinstance(v, str) and not v.strip() and k in fields and not fields[k].is_required()
                             and (fields[k].default is None
                                  or isinstance(fields[k].default, str) and fields[k].default.strip()))}
        try:
            return self.params.model_validate(dict(arguments))
        except ValidationError as exc:
            fields = self.params.model_fields
            unset = {str(e["loc"][0]) for e in exc.errors() if e.get("loc") and e.get("input", 0) is None
                     and str(e["loc"][0]) in fields and not fields[str(e["loc"][0])].is_required()
                     and arguments.get(str(e["loc"][0]), 0) is None}
            if not unset:
                raise
        return self.params.model_validate({k: v for k, v in arguments.items() if k not in unset})

    def risk_of(self, ctx: ToolContext, params: P) -> RiskClass:
        """The risk class of this particular call."""
        if isinstance(self.risk, RiskClass):
            return self.risk
        try:
            return self.risk(ctx, params)
        except Exception:  # a risk function that fails is treated as the worst case
            return RiskClass.DESTRUCTIVE

    def invoke(self, ctx: ToolContext, params: P) -> ToolResult:
        """Run the tool; never raises. A ``ToolError`` or unexpected exception
        becomes an error result whose text the model can act on."""
        try:
            out = self.fn(ctx, params)
        except ToolError as exc:
            return ToolResult.fail(f"{self.name}: {exc}")
        except Exception as exc:  # noqa: BLE001 - errors are results, never escapes
            return ToolResult.fail(f"{self.name} failed: {type(exc).__name__}: {exc}")
        if isinstance(out, str):
            return ToolResult(text=out)
        return out


def format_validation_error(tool: Tool, exc: ValidationError) -> str:
    """A short message naming each bad argument, for the model to correct its call."""
    parts = []
    for err in exc.errors()[:5]:
        loc = ".".join(str(x) for x in err.get("loc", ())) or "(arguments)"
        parts.append(f"{loc}: {err.get('msg', 'invalid')}")
    required = tool.parameters_schema().get("required", [])
    hint = f" Required parameters: {', '.join(required)}." if required else ""
    return f"Invalid arguments for {tool.name}: " + "; ".join(parts) + "." + hint


def tool(
    name: str | None = None,
    *,
    risk: RiskClass | RiskFn = RiskClass.READ,
    description: str | None = None,
) -> Callable[[Callable[[ToolContext, P], Any]], Tool[P]]:
    """Decorator turning ``fn(ctx, params: Model)`` into a :class:`Tool`.

    The parameter model is read from the annotation of the second argument; the
    description defaults to the first line of the docstring.
    """

    def wrap(fn: Callable[[ToolContext, P], Any]) -> Tool[P]:
        import inspect
        import typing

        hints = typing.get_type_hints(fn)
        sig = list(inspect.signature(fn).parameters)
        if len(sig) != 2:
            raise TypeError(f"tool {fn.__name__} must take (ctx, params)")
        params = hints[sig[1]]
        desc = description or (fn.__doc__ or "").strip().splitlines()[0]
        return Tool(name=name or fn.__name__, description=desc, params=params, fn=fn, risk=risk)

    return wrap


class ToolRegistry:
    """An ordered set of tools by name. Later registration of a name replaces
    the earlier one only with ``replace=True``; otherwise raises ``ValueError``."""

    def __init__(self, tools: list[Tool] | None = None) -> None:
        self._tools: dict[str, Tool] = {}
        for t in tools or []:
            self.add(t)

    def add(self, t: Tool, *, replace: bool = False) -> None:
        if t.name in self._tools and not replace:
            raise ValueError(f"tool {t.name!r} is already registered")
        self._tools[t.name] = t

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __iter__(self):
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)

    def names(self) -> list[str]:
        return list(self._tools)

