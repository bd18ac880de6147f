"""Decode one ``<tool_call>...</tool_call>`` block into a :class:`ToolCall` or a
:class:`ParseError`.

Both formats are accepted whatever the active one is (a model may drift);
the ``expected`` example in an error is always written in the active format.
Lenient where the intent is unambiguous (JSON with trailing commas or
single quotes, ``"arguments"`` given as a JSON string, ``"parameters"`` for
``"arguments"``); strict where guessing could run the wrong thing (unknown
tool, missing required parameter, a value that is not of its schema type).
"""

from __future__ import annotations

import ast
import difflib
import json
import re
from typing import Any

from .call_format import example_call, parameters_of, resolve, schema_types, tool_name
from .parsing_scan import CLOSE, OPEN, CallScan, scan_block
from .types import ParseError, ToolCall

__all__ = ["OPEN", "CLOSE", "decode_call", "coerce_value"]

_TRAILING_COMMA_RE = re.compile(r",\s*([}\]])")
_RAW_LIMIT = 2000


class _Bad(Exception):
    """Internal: a call that cannot be decoded; the message is for the model."""


def _body(raw: str) -> str:
    body = raw
    if body.startswith(OPEN):
        body = body[len(OPEN):]
    body = body.rstrip()
    if body.endswith(CLOSE):
        body = body[: -len(CLOSE)]
    return body.strip()


def _loads_lenient(text: str) -> Any:
    """JSON, then JSON without trailing commas, then a Python literal (single quotes)."""
    try:
        return json.loads(text)
    except ValueError as exc:
        first = exc
    fixed = _TRAILING_COMMA_RE.sub(r"\1", text)
    try:
        return json.loads(fixed)
    except ValueError:
        pass
    try:
        pyish = re.sub(r"\btrue\b", "True", re.sub(r"\bfalse\b", "False", re.sub(r"\bnull\b", "None", fixed)))
        value = ast.literal_eval(pyish)
        if isinstance(value, (dict, list)):
            return value
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        pass
    if "Unterminated string" in str(first):  # a finish answer stopped by the loop guard or the turn's token cap
        # (files_find at 908434b: the same cut finish three times, each told only "invalid JSON: Unterminated ...")
        raise _Bad(f"invalid JSON: {first}: the call was cut off inside a string (too long, or repeating itself); "
                   "write it again, shorter (an answer of one or two sentences)")
    raise _Bad(f"invalid JSON: {first}")


def _fits(value: Any, types: set[str]) -> bool:
    if not types:
        return True
    checks = {
        "string": lambda v: isinstance(v, str),
        "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
        "boolean": lambda v: isinstance(v, bool),
        "array": lambda v: isinstance(v, list),
        "object": lambda v: isinstance(v, dict),
        "null": lambda v: v is None,
    }
    return any(checks.get(t, lambda v: True)(value) for t in types)


def _from_text(value: str, types: set[str], raw_text: bool) -> Any:
    """A string argument read as the schema's type when that is what it means."""
    others = types - {"string"}
    if not types:
        if not raw_text:
            return value
        try:
            return json.loads(value.strip())
        except ValueError:
            return value
    if "string" in types and (not raw_text or not others - {"null"}):
        return value
    try:
        decoded = json.loads(value.strip())
    except ValueError:
        decoded = {"true": True, "false": False}.get(value.strip().lower(), value)
    if not isinstance(decoded, str) and _fits(decoded, others):
        return decoded
    return value if "string" in types else decoded


def coerce_value(name: str, value: Any, schema: dict[str, Any], root: dict[str, Any], *, raw_text: bool) -> Any:
    """Coerce one argument value to its schema type.

    Args:
        name: parameter name (for messages).
        value: the decoded value; with ``raw_text`` a ``str`` as written in XML.
        schema: the parameter's JSON schema; ``root`` the arguments schema
            (for ``$ref``).
        raw_text: True for XML values (strings are raw, others JSON text).

    Returns:
        The coerced value (an integral float becomes an int for "integer";
        "5" becomes 5, "true" True, '["a"]' a list when the schema says so).

    Raises:
        _Bad: the value cannot be read as any of the allowed types.
    """
    types = schema_types(schema, root)
    if isinstance(value, str):
        value = _from_text(value, types, raw_text)
    if isinstance(value, float) and value.is_integer() and "integer" in types and "number" not in types:
        value = int(value)
    if not _fits(value, types):
        want = " or ".join(sorted(types))
        raise _Bad(f"parameter '{name}' must be {want}, got {json.dumps(value, ensure_ascii=False)[:80]}")
    enum = resolve(schema, root).get("enum")
    if enum and value not in enum:
        choices = ", ".join(json.dumps(e, ensure_ascii=False) for e in enum)
        raise _Bad(f"parameter '{name}' must be one of {choices}, got {json.dumps(value, ensure_ascii=False)[:80]}")
    return value


def _decode_xml(scan: CallScan) -> tuple[str, dict[str, str]]:
    """Name and raw string arguments of an XML call, as the block scan read them."""
    if scan.problem:
        raise _Bad(scan.problem)
    if scan.name is None:
        raise _Bad("expected <function=NAME> inside <tool_call>")
    return scan.name, dict(scan.params)


def _decode_json(body: str) -> tuple[str, dict[str, Any]]:
    if not body.startswith("{"):
        raise _Bad('expected a JSON object {"name": ..., "arguments": {...}} inside <tool_call>')
    try:
        obj = _loads_lenient(body)
    except _Bad as bad:
        try:  # a valid object followed by junk
            _, end = json.JSONDecoder().raw_decode(body)
        except ValueError:
            raise bad from None
        raise _Bad(f"unexpected text after the JSON object: {body[end:].strip()[:60]!r}; "
                   "write one call per <tool_call> block") from None
    if isinstance(obj, dict) and isinstance(obj.get("function"), dict) and "name" not in obj:
        obj = obj["function"]
    if not isinstance(obj, dict) or not isinstance(obj.get("name"), str):
        raise _Bad('the call must be a JSON object with a string "name"')
    args = obj.get("arguments", obj.get("parameters", {}))
    if isinstance(args, str):
        args = _loads_lenient(args) if args.strip() else {}
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise _Bad('"arguments" must be a JSON object')
    return obj["name"].strip(), args


def decode_call(raw: str, tools: list[dict[str, Any]], fmt: str, index: int,
                scan: CallScan | None = None) -> ToolCall | ParseError:
    """Decode one call block.

    Args:
        raw: the text from ``<tool_call>`` to ``</tool_call>`` (the closing tag
            may be missing: the body is then decoded as far as it goes).
        tools: tool schemas (see :mod:`model.call_format`).
        fmt: the active format ("xml" | "json"), used for ``expected``.
        index: position of the call in the turn.
        scan: the block's :class:`model.parsing_scan.CallScan` when the caller
            already scanned it (the stream parser does); else ``raw`` is scanned.
            Where the values of an XML call begin and end is the scan's decision
            (see :mod:`model.parsing_scan`), so call markup inside a value is data.

    Returns:
        A :class:`ToolCall` (``raw`` kept exactly) or a :class:`ParseError`
        whose ``expected`` is a correct example call. Never raises.
    """
    by_name = {tool_name(t): t for t in tools or []}
    if scan is None:
        scan = scan_block(raw if raw.startswith(OPEN) else OPEN + raw)
    body = _body(raw)
    name = scan.name or ""
    try:
        if not body:
            raise _Bad("the <tool_call> block is empty")
        xml = scan.kind == "xml" and (scan.name is not None or scan.problem is not None or body.startswith("<"))
        name, args = _decode_xml(scan) if xml else _decode_json(body)
        tool = by_name.get(name)
        if tool is None:
            known = ", ".join(by_name) or "(none)"
            from .parsing_failed import nearest_tool

            near = nearest_tool(name, list(by_name))
            raise _Bad(f"unknown tool '{name}'{f'; use {near}' if near else ''}. Available tools: {known}")
        params = parameters_of(tool)
        props = params.get("properties", {}) or {}
        missing = [k for k in params.get("required", []) or [] if k not in args]
        if missing:
            raise _Bad(f"{name}: missing required parameter(s): {', '.join(missing)}")
        out = {k: coerce_value(k, v, props.get(k, {}), params, raw_text=xml) for k, v in args.items()}
        if not scan.closed:
            raise _Bad("the call is not closed: end it with </tool_call>")
        return ToolCall(name=name, arguments=out, raw=raw)
    except (_Bad, ValueError, RecursionError) as exc:
        return ParseError(index=index, raw=raw[:_RAW_LIMIT], message=str(exc) or "malformed tool call",
                          expected=_expected(name, by_name, fmt))


def _expected(name: str, by_name: dict[str, dict[str, Any]], fmt: str) -> str:
    if not by_name:
        return ""
    tool = by_name.get(name)
    if tool is None:
        close = difflib.get_close_matches(name, list(by_name), n=1, cutoff=0.0) if name else []
        tool = by_name[close[0]] if close else next(iter(by_name.values()))
    return example_call(tool, fmt)
