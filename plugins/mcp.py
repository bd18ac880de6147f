"""Bridge stdio MCP servers into the tool registry, with the official ``mcp`` SDK.

Configuration uses the common ``mcpServers`` shape::

    {"mcpServers": {"github": {"command": "npx", "args": ["-y", "server-github"],
                               "env": {"TOKEN": "${secret:github_token}"},
                               "approve": "ask", "timeout": 60}}}

Each server tool becomes a :class:`tools.base.Tool` named
``mcp__<server>__<tool>`` (lower-cased, other characters replaced by ``_``).
Its risk class is ``exec`` (the approval policy asks) unless the server is
configured ``"approve": "auto"`` (then ``read``). Results are marked untrusted.

The agent loop is synchronous, so one asyncio loop runs in a daemon thread and
work is submitted with ``asyncio.run_coroutine_threadsafe``. Each server lives
in one task that holds the SDK's context managers open until :meth:`close`.
Servers start on first use (:meth:`MCPManager.tools` or a call), calls have
timeouts, and a server that died is started again on the next call.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import copy
import os
import re
import threading
from typing import Any, Callable, Mapping, TextIO

from pydantic import BaseModel, ConfigDict, model_validator

from plugins.mcp_config import SECRET_REF, MCPConfigError, ServerConfig, parse_servers, tool_name
from plugins.secrets import redact
from tools.base import RiskClass, Tool, ToolContext, ToolResult

__all__ = ["MCPManager", "MCPConfigError", "ServerConfig", "tool_name", "parse_servers"]


def _one_line(exc: BaseException) -> str:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    msg = " ".join(str(exc).split())
    text = f"{type(exc).__name__}: {msg}" if msg else type(exc).__name__
    return text[:300]


def _args_model(schema: Mapping[str, Any] | None) -> type[BaseModel]:
    """A pydantic model whose JSON schema is the server's ``inputSchema`` and
    whose validation checks it (required keys; full JSON-schema when the
    ``jsonschema`` package is present)."""
    shape = copy.deepcopy(dict(schema or {})) or {"type": "object"}
    shape.setdefault("type", "object")
    shape.setdefault("properties", {})

    class MCPArguments(BaseModel):
        model_config = ConfigDict(extra="allow")

        @classmethod
        def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
            return copy.deepcopy(shape)

        @model_validator(mode="before")
        @classmethod
        def _check(cls, data: Any) -> Any:
            if not isinstance(data, Mapping):
                raise ValueError("arguments must be an object")
            missing = [k for k in shape.get("required", []) if k not in data]
            if missing:
                raise ValueError(f"missing required argument(s): {', '.join(missing)}")
            try:
                import jsonschema
            except ImportError:
                return data
            try:
                jsonschema.validate(dict(data), shape)
            except jsonschema.ValidationError as exc:
                where = ".".join(str(p) for p in exc.absolute_path) or "(arguments)"
                raise ValueError(f"{where}: {exc.message}") from None
            except jsonschema.SchemaError:
                pass  # the server's schema is broken; let the server judge the call
            return data

    return MCPArguments


def _attr(obj: Any, *names: str) -> Any:
    """The first present attribute of ``names`` (mcp 2 uses snake_case, mcp 1 camelCase)."""
    for n in names:
        if getattr(obj, n, None) is not None:
            return getattr(obj, n)
    return None


async def _list_all_tools(session: Any, max_pages: int = 50) -> list[Any]:
    """Every tool the server lists, following ``next_cursor`` pages."""
    from mcp import types

    tools: list[Any] = []
    cursor = None
    for _ in range(max_pages):
        params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
        listed = await session.list_tools(params=params)
        tools.extend(listed.tools)
        cursor = _attr(listed, "next_cursor", "nextCursor")
        if not cursor:
            break
    return tools


def _result_text(result: Any) -> str:
    parts = []
    for item in getattr(result, "content", None) or []:
        kind = getattr(item, "type", "")
        if kind == "text":
            parts.append(item.text)
        elif kind == "resource" and hasattr(getattr(item, "resource", None), "text"):
            parts.append(item.resource.text)
        else:
            parts.append(f"[{kind or 'non-text'} content omitted]")
    return "\n".join(parts)


class _Server:
    """One running server: its task, session and tool list (loop-thread only)."""

    def __init__(self, cfg: ServerConfig) -> None:
        self.cfg = cfg
        self.session: Any = None
        self.tool_defs: list[Any] = []
        self.task: asyncio.Task | None = None
        self.stop: asyncio.Event | None = None
        self.secrets: dict[str, str] = {}  # secret name -> value passed in env (redacted from results)

    @property
    def running(self) -> bool:
        return self.session is not None and self.task is not None and not self.task.done()

    async def start(self, env: dict[str, str] | None, errlog: TextIO) -> None:
        from mcp import ClientSession, StdioServerParameters
        from mcp.client.stdio import stdio_client

        params = StdioServerParameters(command=self.cfg.command, args=self.cfg.args, env=env,
                                       cwd=self.cfg.cwd)
        ready: asyncio.Future = asyncio.get_running_loop().create_future()
        self.stop = asyncio.Event()

        async def run() -> None:
            try:
                async with stdio_client(params, errlog=errlog) as (read, write):
                    async with ClientSession(read, write) as session:
                        await session.initialize()
                        self.tool_defs = await _list_all_tools(session)
                        self.session = session
                        ready.set_result(None)
                        await self.stop.wait()
            except BaseException as exc:  # noqa: BLE001 - reported through `ready`
                if not ready.done():
                    ready.set_exception(exc if isinstance(exc, Exception) else RuntimeError(str(exc)))
                if isinstance(exc, asyncio.CancelledError):
                    raise
            finally:
                self.session = None

        self.task = asyncio.create_task(run())
        try:
            await asyncio.wait_for(asyncio.shield(ready), self.cfg.startup_timeout)
        except asyncio.TimeoutError:
            self.task.cancel()
            raise TimeoutError(f"no answer within {self.cfg.startup_timeout:g}s") from None

    async def shutdown(self) -> None:
        if self.stop is not None:
            self.stop.set()
        if self.task is not None and not self.task.done():
            try:
                await asyncio.wait_for(self.task, 10)
            except BaseException:  # noqa: BLE001 - best effort on the way out
                self.task.cancel()
        self.session = None


class MCPManager:
    """Start, list, call and stop stdio MCP servers from synchronous code.

    Args:
        servers: ``{"mcpServers": {name: {command, args, env, approve, timeout}}}``
            or just the inner mapping. ``env`` values may contain
            ``${secret:NAME}``, resolved with ``secrets`` when the server starts.
        secrets: ``name -> str | None`` (default: ``plugins.secrets.get_secret``).
        errlog: where servers' stderr goes (a real file; default ``os.devnull``).

    Attributes:
        failures: ``{server: one-line error}`` for servers that are misconfigured
            or failed to start; :meth:`tools` leaves them out.
    """

    def __init__(self, servers: Mapping[str, Any] | None = None, *,
                 secrets: Callable[[str], str | None] | None = None,
                 errlog: TextIO | None = None) -> None:
        configs, self.failures = parse_servers(servers or {})
        self._servers = {c.name: _Server(c) for c in configs}
        self._secrets = secrets
        self._errlog = errlog
        self._own_errlog = errlog is None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    @property
    def names(self) -> list[str]:
        """Configured (well-formed) server names."""
        return list(self._servers)

    def running(self, name: str) -> bool:
        """True while server ``name`` is started and connected."""
        s = self._servers.get(name)
        return bool(s and s.running)

    def server_tools(self, name: str) -> list[str]:
        """The tool names server ``name`` listed when it last started (its own
        names, not the ``mcp__...`` ones); empty before it started or when unknown."""
        s = self._servers.get(name)
        return [td.name for td in s.tool_defs] if s is not None else []

    def _submit(self, coro: Any, timeout: float) -> Any:
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
            self._thread = threading.Thread(target=self._loop.run_forever, name="mcp-loop", daemon=True)
            self._thread.start()
        fut = asyncio.run_coroutine_threadsafe(coro, self._loop)
        try:
            return fut.result(timeout)
        except concurrent.futures.TimeoutError:
            if fut.done():  # the coroutine itself raised TimeoutError (same class since 3.11)
                raise
            fut.cancel()
            raise TimeoutError(f"no answer within {timeout:g}s") from None

    def _env(self, server: _Server) -> dict[str, str] | None:
        cfg = server.cfg
        if cfg.env is None:
            return None

        def sub(m: re.Match) -> str:
            if self._secrets is not None:
                value = self._secrets(m.group(1))
            else:
                from plugins.secrets import get_secret

                value = get_secret(m.group(1))
            if value is None:
                raise MCPConfigError(f"secret {m.group(1)!r} is not set: assistant secret set {m.group(1)}")
            server.secrets[m.group(1)] = value
            return value

        return {k: SECRET_REF.sub(sub, v) for k, v in cfg.env.items()}

    def _ensure(self, name: str) -> _Server:
        """Start server ``name`` if it is not running. Raises on failure."""
        server = self._servers[name]
        with self._lock:
            if server.running:
                return server
            if self._errlog is None:
                self._errlog = open(os.devnull, "w")
            env = self._env(server)
            if server.task is not None:  # it died: clean up before starting again
                self._submit(server.shutdown(), 15)
            self._submit(server.start(env, self._errlog), server.cfg.startup_timeout + 5)
            self.failures.pop(name, None)
            return server

    def _drop_if_dead(self, server: _Server) -> None:
        """After a failed call: if the server no longer answers a ping, stop it so
        the next call starts a fresh one (the failed call itself is not retried)."""
        try:
            if server.session is None:
                raise RuntimeError("no session")
            self._submit(server.session.send_ping(), 5)
        except Exception:  # noqa: BLE001 - any failure means it is gone
            try:
                self._submit(server.shutdown(), 15)
            except Exception:  # noqa: BLE001 - best effort
                pass

    def tools(self) -> list[Tool]:
        """Start every server not yet started and return their tools.

        A server that fails to start is recorded in :attr:`failures` and skipped.
        """
        out: list[Tool] = []
        used: set[str] = set()
        for name in self._servers:
            try:
                server = self._ensure(name)
            except Exception as exc:  # noqa: BLE001 - one bad server must not stop the rest
                self.failures[name] = f"could not start: {_one_line(exc)}"
                continue
            for td in server.tool_defs:
                tname = tool_name(name, td.name)
                base, n = tname, 2
                while tname in used:
                    tname, n = f"{base}_{n}", n + 1
                used.add(tname)
                out.append(self._tool(server.cfg, td, tname))
        return out

    def _tool(self, cfg: ServerConfig, td: Any, tname: str) -> Tool:
        desc = " ".join((td.description or "").split()) or f"{td.name} from MCP server {cfg.name}"
        desc = desc if len(desc) <= 240 else desc[:237] + "..."

        def fn(ctx: ToolContext, params: BaseModel) -> ToolResult:
            return self.call(cfg.name, td.name, params.model_dump())

        risk = RiskClass.READ if cfg.approve == "auto" else RiskClass.EXEC
        return Tool(name=tname, description=desc, params=_args_model(_attr(td, "input_schema", "inputSchema")), fn=fn,
                    risk=risk, source=f"mcp:{cfg.name}")

    def call(self, server: str, tool: str, arguments: Mapping[str, Any]) -> ToolResult:
        """Call ``tool`` (its server-side name) on ``server``; never raises.

        Starts the server if needed (once more if it died). A timeout, a dead
        server or a tool error comes back as an error :class:`ToolResult`.
        """
        if server not in self._servers:
            return ToolResult.fail(f"no MCP server named {server!r}")
        cfg = self._servers[server].cfg
        s = None
        try:
            s = self._ensure(server)
            result = self._submit(
                s.session.call_tool(tool, dict(arguments), read_timeout_seconds=cfg.timeout),
                cfg.timeout + 2,
            )
        except TimeoutError:
            return ToolResult.fail(f"MCP server {server}: {tool} timed out after {cfg.timeout:g}s; "
                                   "try again with a smaller request")
        except Exception as exc:  # noqa: BLE001 - errors are results
            if s is not None:
                self._drop_if_dead(s)
            return ToolResult.fail(f"MCP server {server}: {tool} failed: {_one_line(exc)}")
        text = redact(_result_text(result), s.secrets)
        structured = _attr(result, "structured_content", "structuredContent")
        data = {"server": server, "tool": tool, "structured": structured}
        if _attr(result, "is_error", "isError"):
            return ToolResult(text=f"{tool} reported an error: {text}", data=data, error=True, untrusted=True)
        return ToolResult(text=text, data=data, untrusted=True)

    def close(self) -> None:
        """Stop every server and the loop thread. Safe to call more than once."""
        if self._loop is not None:
            for s in self._servers.values():
                if s.task is not None:
                    try:
                        self._submit(s.shutdown(), 15)
                    except Exception:  # noqa: BLE001 - best effort on the way out
                        pass
            self._loop.call_soon_threadsafe(self._loop.stop)
            if self._thread is not None:
                self._thread.join(5)
            if not self._loop.is_running():
                self._loop.close()
            self._loop, self._thread = None, None
        if self._own_errlog and self._errlog is not None:
            self._errlog.close()
            self._errlog = None

    def __enter__(self) -> "MCPManager":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
