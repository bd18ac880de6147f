"""What this task's reads found about its goal, quoted again next to the turn
that must answer.

A 1.5B model reads the answer and then does not use it: Qwen2.5-Coder-1.5B
searched the notes, got "Plumber: Jonas Berg, phone 0170 555 0199", and
answered four runs of four "I found the plumber's name and phone number" with
neither in it; it listed a day's two events and answered "No events on
2026-12-07" twice. The result was in the history each time, a few turns up.
Quoting the lines that bear on the goal again, right where the answer is
written, puts them where a small model looks.

The quote is data: it is fenced with the task's marker
(:func:`tools.untrusted.fence`), so nothing in it reads as the harness's words,
and an answer that copies it is not taken for an echo of the harness.
"""

from __future__ import annotations

import functools
import re
from typing import Sequence

from tools.untrusted import fence

from ..state.models import CallRecord, StoredMessage
from .plan import work_calls

__all__ = ["PENDING_CALL", "call_to_copy", "calls_to_copy_in", "changed_so_far", "found_so_far", "next_call_to_copy",
           "offered_calls"]

_TOKEN = re.compile(r"\d{4}-\d{2}-\d{2}|[^\W_]{3,}(?:\.[A-Za-z]{2,4})?")
# words of a goal that say what kind of answer it wants, not what it is about
_NOT_TOPIC = frozenset("""the and for you are can has had was its our his her how why who what which where when
whose does did there their this that with from have will your about into also just only some more most very
tell find show give know check look need want please name names number numbers phone mail email address
file files folder folders document documents workspace text note notes calendar many much""".split())
_FENCE_LINE = re.compile(r"^<<(END_)?UNTRUSTED .*$|^\(The text below is data .*$")
_FENCE_ID = re.compile(r"^<<UNTRUSTED (\w+)", re.MULTILINE)
_WHOLE = 320  # a result this short (characters) is quoted whole: a listing, a search hit, a page count
_LINES = 6  # the most lines quoted from one longer result


def _topic(goal: str) -> set[str]:
    return {w.lower() for w in _TOKEN.findall(goal)} - _NOT_TOPIC


def _matches(line: str, topic: set[str]) -> int:
    words = {w.lower() for w in _TOKEN.findall(line)}
    return sum(1 for t in topic if any(w == t or (len(t) >= 5 and w[:5] == t[:5]) for w in words))


def _excerpt(result: str, topic: set[str]) -> tuple[str, bool]:
    """(the lines of ``result`` that bear on ``topic``, whether any line named a topic word)."""
    lines = [ln for ln in result.splitlines() if ln.strip() and not _FENCE_LINE.match(ln)]
    scored = [(_matches(ln, topic), i) for i, ln in enumerate(lines)]
    named = any(s for s, _ in scored)
    if len("\n".join(lines)) <= _WHOLE:
        return "\n".join(lines), named
    hits = [i for s, i in sorted(scored, key=lambda p: -p[0])[:_LINES] if s]
    # and the line after a short one: "--- page 1 ---" names the page, the next line is its title (pdf_page_count)
    keep = sorted({*hits, *(i + 1 for i in hits if i + 1 < len(lines) and len(lines[i]) <= 40)})
    return "\n".join(lines[i][:200] for i in keep), named


def found_so_far(goal: str, calls: Sequence[CallRecord], marker: str = "", *, max_chars: int = 900) -> str:
    """The lines of this task's successful reads that bear on ``goal``, newest
    read first, as one block for a harness note ("" when no read's lines name a
    word of the goal, or nothing was read).

    Args:
        goal: the user's task.
        calls: the task's call journal, oldest first; successful reads count
            (``risk`` "read", no error, not a repeat answered from the journal).
        marker: the task's fence token (``Task.marker``): the quote is fenced
            with it, so it stays data and is not taken for the harness's words
            (:func:`assistant.loop.answer_form.echoes_harness`); without it, fenced
            results are left out and the rest quoted as they are.
        max_chars: about the most characters quoted, all reads together.

    Returns:
        ``"step N tool:"`` + lines, one block per read, fenced together, or "".
    """
    topic = _topic(goal)
    reads = [c for c in work_calls(calls) if (c.risk or "read") == "read" and c.result]
    blocks, used, named = [], 0, False
    for c in reversed(reads):
        if not marker and _FENCE_ID.search(c.result):
            continue
        text, hit = _excerpt(c.result, topic)
        if not text.strip() or used >= max_chars:
            continue
        text = text[: max(120, max_chars - used)]
        named = named or hit
        used += len(text)
        blocks.append(f"step {c.step} {c.name}:\n{text}")
    if not named:
        return ""
    quote = "\n".join(blocks)
    return fence(quote, marker, "this task's tool results") if marker else quote


_CALL_TO_COPY = re.compile(r"\bcall (?P<name>[a-z][a-z0-9_]*) with (?=\{)")
_FENCE_END = re.compile(r"^<<END_UNTRUSTED \w+>>$", re.MULTILINE)


#: how a refusal repeats the call to copy not made yet (ending.end_with_answer); the turn after it must be a call
#: (turns.force_to_look)
PENDING_CALL = "The call to copy that you have not made yet"
#: how a refused call's result repeats the call to copy not made yet (calls.CallRunner._with_pending): the turn
#: after it may only make that call (turns.copy_after_failed_write)
PENDING_NOTE = "The call to copy (harness note at"


def next_call_to_copy(calls: Sequence[CallRecord], notes: Sequence[StoredMessage] = ()) -> str:
    """The newest call the harness or a tool spelled out for the model to copy
    ("call NAME with {...}" in the trusted part of a result: after its fence, or
    all of an unfenced result) that the model has not yet made: no successful
    ``NAME`` call came after it. ``'step N: call NAME with {...}'`` or "".

    xlsx_summary_sheet at f000187: Qwen 1.5B got the ``xlsx_add_sheet`` call to
    copy after its first read, read the workbook three more times, answered that a
    Summary sheet was there, and was handed off; the finish check's feedback
    named what was wrong but not the call that would put it right. Text inside a
    fence is data and is never offered (a document saying "call delete with ..."
    stays a document).

    ``notes``: the task's messages; its corrective notes (a finish check's doubt of
    an answer given as plain text, a stuck note) count as results of their step.
    xlsx_total at ab03949: the finish check spelled out the total row's
    ``xlsx_write`` under a plain-text answer, and the next ``xlsx_write`` came
    without cells; the validation error did not repeat it."""
    done = work_calls(calls)
    said = [(c.step, c.result or "") for c in calls]
    said += [(m.step, _outside_fences(m.content)) for m in notes if m.role == "user" and m.kind == "corrective"]
    for step, text in reversed(sorted(said, key=lambda x: x[0])):
        for name, args in reversed(calls_to_copy_in(text)):
            if any(d.name == name and d.step > step for d in done) or any(
                    d.name == name and d.arguments == args for d in done):
                return ""  # the newest advice was taken (or this very call made): nothing pending
            return f"step {step}: {call_to_copy(name, args)}"
    return ""


def _outside_fences(text: str) -> str:
    """``text`` without its fenced data (each ``<<UNTRUSTED id>>`` ... ``<<END_UNTRUSTED
    id>>`` block, and all after a fence left open): a refusal's note quotes what the
    reads found between its own lines, and only its own lines may spell out a call."""
    text = re.sub(r"^<<UNTRUSTED (\w+)[^\n]*>>$.*?^<<END_UNTRUSTED \1>>$", "", text, flags=re.MULTILINE | re.DOTALL)
    opened = _FENCE_ID.search(text)
    return text[:opened.start()] if opened else text


def call_to_copy(name: str, arguments: dict) -> str:
    """``'call NAME with {...}'``: a call spelled out in the harness's words for the
    model to copy, in the form :func:`calls_to_copy_in` reads back (JSON arguments,
    non-ASCII kept as it is), the arguments of a built-in tool in the grammar's order
    (:func:`model.call_format.key_order`)."""
    import json

    order = _argument_orders().get(name)
    if order:
        rank = {k: i for i, k in enumerate(order)}
        arguments = dict(sorted(arguments.items(), key=lambda kv: rank.get(kv[0], len(rank))))
    return f"call {name} with {json.dumps(arguments, ensure_ascii=False)}"


@functools.cache
def _argument_orders() -> dict[str, list[str]]:
    """Tool name -> its arguments in the grammar's order, for the built-in and core tools
    and update_plan (the only ones the harness spells calls out for)."""
    import importlib

    from model.call_format import key_order, parameters_of, tool_name
    from tools.core import CORE_TOOLS

    from ..toolset import _BUILTIN_SOURCES
    from .plan import UPDATE_PLAN

    tools = [*CORE_TOOLS, UPDATE_PLAN]  # finish has one argument
    for module, attr in _BUILTIN_SOURCES:
        try:
            tools += list(getattr(importlib.import_module(module), attr))
        except Exception:  # noqa: BLE001 - a missing part has no calls to spell out
            continue
    return {tool_name(s): key_order(parameters_of(s)) for s in (t.schema() for t in tools)}


def offered_calls(calls: Sequence[CallRecord]) -> list[tuple[str, dict]]:
    """``(tool, arguments)`` of every call the results of the latest step with calls
    spelled out to copy, in order ([] before any call)."""
    if not calls:
        return []
    last = max(c.step for c in calls)
    return [found for c in calls if c.step == last for found in calls_to_copy_in(c.result or "")]


def calls_to_copy_in(result: str) -> list[tuple[str, dict]]:
    """The calls a result spells out for the model to copy, ``[(name, arguments)]`` in
    order: each "call NAME with {...}" in its trusted part (after its last fence, or
    all of an unfenced result; none when a fence is left open)."""
    import json

    ends = list(_FENCE_END.finditer(result))
    if ends:
        result = result[ends[-1].end():]
    elif _FENCE_ID.search(result):
        return []  # a fence left open: nothing after it is the harness's
    found = []
    for m in _CALL_TO_COPY.finditer(result):
        try:
            args, _ = json.JSONDecoder().raw_decode(result, m.end())
        except ValueError:
            continue
        if isinstance(args, dict):
            found.append((m.group("name"), args))
    return found


def changed_so_far(calls: Sequence[CallRecord], *, limit: int = 4) -> str:
    """The first line of each successful change of this task (``risk`` write or
    destructive), oldest first, one ``"step N tool: line"`` per line ("" when
    nothing changed); the newest ``limit`` changes at most.

    files_rename_pattern at f000187: Qwen 1.5B renamed the five photos, then
    answered with its own earlier turn ("... The command would be:") twice and was
    handed off with the work done; what its calls did, next to the refusal, is
    what a truthful answer says."""
    done = [c for c in work_calls(calls) if (c.risk or "read") in ("write", "destructive") and c.result]
    return "\n".join(f"step {c.step} {c.name}: {c.result.strip().splitlines()[0][:200]}" for c in done[-limit:])
