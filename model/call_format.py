"""How a tool call is written: the two wire formats and the schema helpers they share.

Formats (from the Nanbeige4.2 model card, see ../shared/DESIGN.md; the "json"
one is also the Hermes / Qwen2.5 convention):

- ``"xml"``::

    <tool_call>
    <function=NAME>
    <parameter=ARG>
    VALUE
    </parameter>
    </function>
    </tool_call>

  String values are written raw, every other value as JSON.
- ``"json"``::

    <tool_call>
    {"name": NAME, "arguments": {...}}
    </tool_call>

A *tool schema* is the OpenAI-style function schema
``{"type": "function", "function": {"name", "description", "parameters"}}``
(as made by :meth:`tools.base.Tool.schema`); a bare ``{"name", "parameters"}``
mapping is accepted too.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = [
    "FORMATS",
    "check_format",
    "function_of",
    "tool_name",
    "parameters_of",
    "resolve",
    "schema_types",
    "key_order",
    "render_call",
    "example_arguments",
    "example_call",
    "format_instructions",
]

FORMATS = ("xml", "json")


def check_format(fmt: str) -> str:
    """Return ``fmt`` if it is "xml" or "json"; raise ``ValueError`` otherwise."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown tool-call format {fmt!r}: use 'xml' or 'json'")
    return fmt


def function_of(tool: dict[str, Any]) -> dict[str, Any]:
    """The ``{"name", "description", "parameters"}`` part of a tool schema."""
    fn = tool.get("function")
    return fn if isinstance(fn, dict) else tool


def tool_name(tool: dict[str, Any]) -> str:
    """The tool's name ("" when the schema has none)."""
    return str(function_of(tool).get("name", ""))


def parameters_of(tool: dict[str, Any]) -> dict[str, Any]:
    """The JSON schema of the tool's arguments object (``{}`` when absent)."""
    params = function_of(tool).get("parameters")
    return params if isinstance(params, dict) else {}


def resolve(schema: Any, root: dict[str, Any]) -> dict[str, Any]:
    """Follow a local ``$ref`` (``#/$defs/X`` or ``#/definitions/X``) against ``root``.

    Pydantic puts enums and nested models under ``$defs``. An unresolvable
    reference gives ``{}`` (any value).
    """
    seen = 0
    while isinstance(schema, dict) and "$ref" in schema and seen < 20:
        ref = str(schema["$ref"])
        node: Any = root
        for part in ref.lstrip("#/").split("/") if ref.startswith("#/") else ["\0"]:
            node = node.get(part) if isinstance(node, dict) else None
        merged = {k: v for k, v in schema.items() if k != "$ref"}
        schema = {**(node if isinstance(node, dict) else {}), **merged}
        seen += 1
    return schema if isinstance(schema, dict) else {}


def key_order(schema: dict[str, Any]) -> list[str]:
    """The order the JSON tool-call grammar (``model.grammar``) writes an object's keys
    in: the required ones first, then the optional ones, each group in schema order.

    A call the harness spells out for the model to copy lists its arguments in this
    order: under the grammar, a key copied out of order shuts out the keys that come
    before it (xlsx_total at 5bf44b2: shown ``path, sheet, cells``, Qwen 1.5B wrote
    ``path, sheet``, then could no longer write ``cells``, four times)."""
    props = schema.get("properties") or {}
    wanted = list(schema.get("required") or [])
    required = [k for k in props if k in wanted] + [k for k in wanted if k not in props]
    return required + [k for k in props if k not in required]


def schema_types(schema: dict[str, Any], root: dict[str, Any]) -> set[str]:
    """JSON types a value may have: ``{"string"}``, ``{"integer", "null"}``... Empty = any.

    Reads ``type`` (a name or a list), ``enum``/``const`` values and the
    branches of ``anyOf`` / ``oneOf``.
    """
    schema = resolve(schema, root)
    out: set[str] = set()
    t = schema.get("type")
    if isinstance(t, str):
        out.add(t)
    elif isinstance(t, list):
        out.update(str(x) for x in t)
    for key in ("enum",):
        for v in schema.get(key, []) or []:
            out.add(_json_type(v))
    if "const" in schema:
        out.add(_json_type(schema["const"]))
    for key in ("anyOf", "oneOf"):
        for branch in schema.get(key, []) or []:
            sub = schema_types(branch, root)
            if not sub:
                return set()
            out |= sub
    return out


def _json_type(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def render_call(name: str, arguments: dict[str, Any], fmt: str) -> str:
    """The canonical text of one call, ``<tool_call>`` to ``</tool_call>`` inclusive.

    This is exactly what the Nanbeige-format template writes for an assistant
    turn's call, so a generated call and its re-rendering agree.

    Raises:
        ValueError: ``fmt`` is not "xml" or "json".
    """
    check_format(fmt)
    if fmt == "json":
        return f"<tool_call>\n{_dumps({'name': name, 'arguments': arguments})}\n</tool_call>"
    lines = ["<tool_call>", f"<function={name}>"]
    for key, value in arguments.items():
        text = value if isinstance(value, str) else _dumps(value)
        lines += [f"<parameter={key}>", text, "</parameter>"]
    lines += ["</function>", "</tool_call>"]
    return "\n".join(lines)


def _example_value(name: str, schema: dict[str, Any], root: dict[str, Any], depth: int = 0) -> Any:
    schema = resolve(schema, root)
    if "default" in schema and schema["default"] is not None:
        return schema["default"]
    if schema.get("enum"):
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    types = schema_types(schema, root) - {"null"}
    for branch in schema.get("anyOf", []) or schema.get("oneOf", []) or []:
        if schema_types(branch, root) - {"null"}:
            return _example_value(name, branch, root, depth + 1)
    kind = sorted(types)[0] if types else "string"
    if kind == "integer":
        return 1
    if kind == "number":
        return 1.5
    if kind == "boolean":
        return True
    if kind == "array":
        items = schema.get("items")
        return [_example_value(name, items, root, depth + 1)] if isinstance(items, dict) and depth < 3 else []
    if kind == "object":
        if depth >= 3:
            return {}
        props = schema.get("properties", {}) or {}
        required = schema.get("required") or []
        return {k: _example_value(k, v, root, depth + 1) for k, v in props.items() if k in required}
    text = f"example {name}"
    limit = schema.get("maxLength")
    return text[: max(limit, 1)] if isinstance(limit, int) else text


def example_arguments(tool: dict[str, Any]) -> dict[str, Any]:
    """Plausible arguments for ``tool``: every required parameter (all of them
    when none is required), each with a value of its schema type."""
    params = parameters_of(tool)
    props: dict[str, Any] = params.get("properties", {}) or {}
    wanted = params.get("required") or list(props)
    return {k: _example_value(k, props[k], params) for k in props if k in wanted}


def example_call(tool_schema: dict[str, Any], fmt: str) -> str:
    """A correct call of ``tool_schema`` in format ``fmt`` (see :func:`render_call`).

    Used as :attr:`model.types.ParseError.expected`.

    Raises:
        ValueError: ``fmt`` is not "xml" or "json".
    """
    return render_call(tool_name(tool_schema), example_arguments(tool_schema), fmt)


_XML_HELP = """To call a tool, write exactly this block (one block per call; several blocks are allowed):
<tool_call>
<function=TOOL_NAME>
<parameter=PARAMETER_NAME>
VALUE
</parameter>
</function>
</tool_call>
Write string values as plain text and all other values (numbers, true/false, lists, objects) as JSON.
Give every required parameter. After the calls, stop and wait for the results."""

_JSON_HELP = """To call a tool, write exactly this block (one block per call; several blocks are allowed):
<tool_call>
{"name": "TOOL_NAME", "arguments": {"PARAMETER_NAME": VALUE}}
</tool_call>
The arguments are a JSON object with every required parameter.
After the calls, stop and wait for the results."""


def format_instructions(fmt: str) -> str:
    """Plain-text instructions that teach a model the call format ``fmt``.

    Used for templates that know nothing about tools (e.g. the SmolLM2 demo
    model) and in re-prompts after a failed call.

    Raises:
        ValueError: ``fmt`` is not "xml" or "json".
    """
    return _XML_HELP if check_format(fmt) == "xml" else _JSON_HELP


def _type_text(schema: dict[str, Any], root: dict[str, Any]) -> str:
    s = resolve(schema, root) if "$ref" in schema else schema
    if "enum" in s:
        return "|".join(json.dumps(v, ensure_ascii=False) for v in s["enum"])
    if "anyOf" in s:
        return "|".join(_type_text(o, root) for o in s["anyOf"] if o.get("type") != "null")
    t = s.get("type", "any")
    if t == "array":
        return f"list[{_type_text(s.get('items') or {}, root)}]"
    if t == "object" and s.get("properties"):
        return "{" + ", ".join(f"{k}: {_type_text(v, root)}" for k, v in s["properties"].items()) + "}"
    return str(t)


def tool_signature(tool: dict[str, Any]) -> str:
    """One compact line describing a tool for templates without native tool support:
    ``name(a: string, b?: integer=2) - Description. a: what it is.``

    Optional parameters carry ``?`` and their default; parameter descriptions
    follow the tool description. About a third of the tokens of the JSON schema.
    """
    fn = function_of(tool)
    params = parameters_of(tool)
    required = set(params.get("required") or [])
    parts, notes = [], []
    for name, prop in (params.get("properties") or {}).items():
        prop = prop if isinstance(prop, dict) else {}
        text = f"{name}{'' if name in required else '?'}: {_type_text(prop, params)}"
        if name not in required and prop.get("default") not in (None, "", [], {}):
            text += "=" + json.dumps(prop["default"], ensure_ascii=False)
        parts.append(text)
        if prop.get("description"):
            notes.append(f"{name}: {str(prop['description']).rstrip('.')}")
    line = f"{fn.get('name', '')}({', '.join(parts)}) - {str(fn.get('description', '')).strip()}"
    if notes:
        line += " [" + "; ".join(notes) + "]"
    return line
