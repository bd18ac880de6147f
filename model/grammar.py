"""GBNF grammars (llama.cpp grammar syntax) that make tool calls well-formed.

Two grammars:

- :func:`tool_call_grammar` covers the text *after* ``<tool_call>`` up to and
  including ``</tool_call>``. The runtime decodes freely until the generated
  text ends with ``<tool_call>``, then samples under this grammar until it
  completes, then decodes freely again (no prompt re-evaluation: the grammar
  only masks logits).
- :func:`forced_turn_grammar` covers a whole turn that must either open with a
  call (``<tool_call>...``, then optionally more calls) or be an explicit
  final answer: text starting with :data:`FINAL_ANSWER` (``"Final answer:"``).
  The agent uses it after a turn that failed to act; strip the prefix with
  :func:`strip_final_answer` before showing the answer.

What the grammar guarantees: the function name is one of the tools; only that
tool's parameters appear, required ones always, each at most once, in schema
order (JSON: required ones first, each group in schema order); values are well-formed for their JSON type
(integers, numbers, booleans, null, strings, arrays and objects, recursively,
enum and const values exactly). In the XML format string values are raw text
that cannot contain ``</`` followed by ``p`` (so ``</parameter>`` ends them).
``maxLength`` of JSON strings and ``minItems``/``maxItems`` of arrays are
enforced (bounds keep a small model from looping); patterns and numeric
ranges are not (pydantic checks them).
"""

from __future__ import annotations

import json
import re
from typing import Any

from .call_format import check_format, key_order, parameters_of, resolve, schema_types, tool_name

__all__ = ["tool_call_grammar", "forced_turn_grammar", "FINAL_ANSWER", "strip_final_answer"]

FINAL_ANSWER = "Final answer:"

_BASE_RULES = {
    "ws": '" "?',
    "jvalue": 'jobject | jarray | jstring | jnumber | jbool | jnull',
    "jobject": '"{" ws ( jstring ws ":" ws jvalue ( ws "," ws jstring ws ":" ws jvalue )* )? ws "}"',
    "jarray": '"[" ws ( jvalue ( ws "," ws jvalue )* )? ws "]"',
    "jstring": '"\\"" jchar* "\\""',
    "jchar": '[^"\\\\\\x7F\\x00-\\x1F] | "\\\\" ( ["\\\\/bfnrt] | "u" hex hex hex hex )',
    "hex": "[0-9a-fA-F]",
    "jint": '"-"? ( "0" | [1-9] [0-9]{0,15} )',
    "jnumber": 'jint ( "." [0-9]{1,15} )? ( [eE] [-+]? [0-9]{1,3} )?',
    "jbool": '"true" | "false"',
    "jnull": '"null"',
    "xstr": '( [^<] | "<" [^/] | "</" [^p] )*',
}

_TYPE_RULES = {"string": "jstring", "integer": "jint", "number": "jnumber", "boolean": "jbool", "null": "jnull"}


def lit(text: str) -> str:
    """``text`` as a GBNF string literal (quotes, backslashes and control characters escaped)."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\x{ord(ch):02X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _array(item: str, low: Any, high: Any) -> str:
    """A JSON array of ``item`` with ``minItems``/``maxItems`` when they are integers."""
    low = low if isinstance(low, int) and low > 0 else 0
    high = high if isinstance(high, int) and high >= low else None
    if high == 0:
        return '"[" ws "]"'
    more = f'( ws "," ws {item} )' + (f"{{{max(low - 1, 0)},{high - 1}}}" if high is not None else
                                        (f"{{{low - 1},}}" if low > 1 else "*"))
    body = item if high == 1 else f"{item} {more}"
    return f'"[" ws {body} ws "]"' if low > 0 else f'"[" ws ( {body} )? ws "]"'


class _Builder:
    """Collects named rules; names are unique, lowercase, ``[a-z0-9-]``."""

    def __init__(self) -> None:
        self.rules: dict[str, str] = {}

    def add(self, hint: str, body: str) -> str:
        base = re.sub(r"[^a-z0-9]+", "-", hint.lower()).strip("-") or "r"
        name, n = base, 1
        while name in self.rules or name in _BASE_RULES:
            n += 1
            name = f"{base}-{n}"
        self.rules[name] = body
        return name

    def text(self, root: str) -> str:
        lines = [f"root ::= {root}"]
        lines += [f"{k} ::= {v}" for k, v in self.rules.items()]
        lines += [f"{k} ::= {v}" for k, v in _BASE_RULES.items()]
        return "\n".join(lines) + "\n"

    # -- JSON values ------------------------------------------------------
    def json_value(self, hint: str, schema: Any, root: dict[str, Any], depth: int = 0) -> str:
        """A rule expression for a JSON value of ``schema``."""
        schema = resolve(schema, root)
        if depth > 6:
            return "jvalue"
        if "enum" in schema and schema["enum"]:
            return "( " + " | ".join(lit(json.dumps(v, ensure_ascii=False)) for v in schema["enum"]) + " )"
        if "const" in schema:
            return lit(json.dumps(schema["const"], ensure_ascii=False))
        branches = schema.get("anyOf") or schema.get("oneOf")
        if branches:
            alts = [self.json_value(hint, b, root, depth + 1) for b in branches]
            return "( " + " | ".join(alts) + " )"
        t = schema.get("type")
        if isinstance(t, list):
            alts = [self.json_value(hint, {**schema, "type": x}, root, depth + 1) for x in t]
            return "( " + " | ".join(alts) + " )"
        if t == "string" and isinstance(schema.get("maxLength"), int):
            return f'"\\"" jchar{{0,{max(0, schema["maxLength"])}}} "\\""'
        if t in _TYPE_RULES:
            return _TYPE_RULES[t]
        if t == "array":
            items = schema.get("items")
            item = self.json_value(hint + "-item", items, root, depth + 1) if isinstance(items, dict) and items \
                else "jvalue"
            return self.add(hint + "-array", _array(item, schema.get("minItems"), schema.get("maxItems")))
        if t == "object" or "properties" in schema:
            if not schema.get("properties"):
                return "jobject"
            return self.json_object(hint, schema, root, depth)
        return "jvalue"

    def json_object(self, hint: str, schema: dict[str, Any], root: dict[str, Any], depth: int = 0) -> str:
        """A rule for an object with the schema's properties (required ones first)."""
        props: dict[str, Any] = schema.get("properties", {}) or {}
        order = key_order(schema)
        required = [k for k in order if k in (schema.get("required") or [])]
        optional = order[len(required):]
        kv = {}
        for k in order:
            value = self.json_value(f"{hint}-{k}", props.get(k, {}), root, depth + 1)
            kv[k] = f'{lit(json.dumps(k, ensure_ascii=False))} ws ":" ws {value}'
        if required:
            body = ' ws "," ws '.join(kv[k] for k in required)
            body += "".join(f' ( ws "," ws {kv[k]} )?' for k in optional)
        elif optional:
            chains = []
            for i, k in enumerate(optional):
                chains.append(kv[k] + "".join(f' ( ws "," ws {kv[o]} )?' for o in optional[i + 1:]))
            body = "( " + " | ".join(f"( {c} )" for c in chains) + " )?"
        else:
            body = ""
        inner = f"ws {body} ws" if body else "ws"
        return self.add(hint + "-object", f'"{{" {inner} "}}"')

    # -- calls --------------------------------------------------------------
    def xml_call(self, tool: dict[str, Any]) -> str:
        name = tool_name(tool)
        params = parameters_of(tool)
        props: dict[str, Any] = params.get("properties", {}) or {}
        required = list(params.get("required", []) or [])
        order = list(props) + [k for k in required if k not in props]
        parts = []
        for k in order:
            schema = resolve(props.get(k, {}), params)
            types = schema_types(schema, params)
            if schema.get("enum"):
                alts = [v if isinstance(v, str) else json.dumps(v, ensure_ascii=False) for v in schema["enum"]]
                value = "( " + " | ".join(lit(a) for a in alts) + " )"
            elif not types or "string" in types:
                value = "xstr"
            else:
                value = self.json_value(f"{name}-{k}", schema, params)
            piece = " ".join([lit(f"<parameter={k}>\n"), value, lit("\n</parameter>\n")])
            parts.append(piece if k in required else f"( {piece} )?")
        head = lit(f"<function={name}>\n")
        tail = lit("</function>\n</tool_call>")
        return self.add(f"call-{name}", " ".join([head, *parts, tail]))

    def json_call(self, tool: dict[str, Any]) -> str:
        name = tool_name(tool)
        params = parameters_of(tool)
        if params.get("properties"):
            args = self.json_object(f"{name}-args", {**params, "type": "object"}, params)
        else:
            args = "jobject"
        key_name, key_args = lit('"name"'), lit('"arguments"')
        value_name = lit(json.dumps(name, ensure_ascii=False))
        body = (f'"{{" ws {key_name} ws ":" ws {value_name} ws "," ws {key_args} ws ":" ws {args} ws "}}" '
                + lit("\n</tool_call>"))
        return self.add(f"call-{name}", body)

    def call_body(self, tools: list[dict[str, Any]], fmt: str) -> str:
        """Rule for the text after ``<tool_call>`` through ``</tool_call>``."""
        check_format(fmt)
        named = [t for t in tools or [] if tool_name(t)]
        if not named:
            raise ValueError("no tools to build a tool-call grammar for")
        calls = [self.xml_call(t) if fmt == "xml" else self.json_call(t) for t in named]
        return self.add("call-body", '"\\n"? ( ' + " | ".join(calls) + " )")


def tool_call_grammar(tools: list[dict[str, Any]], fmt: str, *, include_open: bool = False) -> str:
    """GBNF for one call, from just after ``<tool_call>`` to ``</tool_call>`` inclusive.

    Args:
        tools: OpenAI-style function schemas (see :mod:`model.call_format`).
        fmt: "xml" or "json".
        include_open: start the grammar with ``<tool_call>`` itself (for
            llama.cpp's lazy grammars triggered by that word).

    Returns:
        Grammar text with a ``root`` rule (load it with
        ``llama_cpp.LlamaGrammar.from_string``). An optional newline may open it.

    Raises:
        ValueError: unknown ``fmt``, or no tool has a name.
    """
    b = _Builder()
    body = b.call_body(tools, fmt)
    return b.text(f'"<tool_call>" {body}' if include_open else body)


def forced_turn_grammar(tools: list[dict[str, Any]], fmt: str, *, in_think: bool = False, max_calls: int = 3) -> str:
    """GBNF for a whole turn that must act: calls, or an explicit final answer.

    After at most two newlines, the turn is either ``<tool_call>`` + a call (see :func:`tool_call_grammar`)
    followed by up to ``max_calls - 1`` more ``\\n<tool_call>`` + call (a bound,
    so a small model cannot repeat calls forever), or :data:`FINAL_ANSWER`
    followed by any text. With ``in_think`` (the prompt opened ``<think>``)
    the turn first holds free reasoning (without ``</``) closed by
    ``</think>\\n\\n``. With no tools only the final-answer branch exists.

    Raises:
        ValueError: unknown ``fmt``, or ``max_calls`` < 1.
    """
    check_format(fmt)
    if max_calls < 1:
        raise ValueError(f"max_calls must be at least 1, got {max_calls}")
    b = _Builder()
    branches = []
    if any(tool_name(t) for t in tools or []):
        body = b.call_body(tools, fmt)
        more = f' ( "\\n<tool_call>" {body} ){{0,{max_calls - 1}}}' if max_calls > 1 else ""
        branches.append(f'"<tool_call>" {body}{more}')
    answer = b.add("answer", f"{lit(FINAL_ANSWER)} [^\\x00]*")
    branches.append(answer)
    root = '"\\n"{0,2} ( ' + " | ".join(branches) + " )"
    if in_think:
        think = b.add("think", '( [^<] | "<" [^/] )* "</think>\\n\\n"')
        root = f"{think} {root}"
    return b.text(root)


def strip_final_answer(content: str) -> str:
    """``content`` without a leading :data:`FINAL_ANSWER` prefix (and the space after it)."""
    text = content.lstrip()
    return text[len(FINAL_ANSWER):].lstrip() if text.startswith(FINAL_ANSWER) else content
