"""What a model turn means: an answer, tool calls, or a format error.

:func:`classify_turn` is pure: it reads the turn and the workspace and decides;
the loop only records the result. A turn without a tool call is an answer
unless it is a failed attempt at one (malformed markup, a reply cut off or
looping, a forged ``<tool_response>``, an empty reply), announces work it did
not do, or claims files the workspace does not have. A call written as
well-formed JSON outside the call format (in a code block, say) is run as a call.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence, Union

from model.parsing import looks_like_failed_call
from model.parsing_failed import keyed_call, nameless_call, salvage_json_calls
from model.types import ParseError, ToolCall, TurnOutput

from ..state.models import Task

from .evidence import result_gist
from .plan import work_calls
from .recap import PENDING_CALL, PENDING_NOTE, calls_to_copy_in, found_so_far
from .verify import announces_work, unbacked_file_claims
from .answer_form import without_tool_asides

__all__ = ["Answer", "Calls", "FormatError", "TurnKind", "classify_turn", "force_for", "force_to_look", "last_step_note",
           "empty_reply", "forges_result", "outputs_made_note", "refused_answer", "FORCE",
           "copy_after_failed_write"]

_HAS_WORD = re.compile(r"[^\W_]{2,}")
FORCE = "tool_call_or_final"  # a turn constrained to a call or an explicit final answer


@dataclass(frozen=True)
class Answer:
    """A final answer: ``text`` ends the task."""

    text: str


@dataclass(frozen=True)
class Calls:
    """Tool calls to run; ``errors`` are calls of the same turn that could not be read.
    ``content`` is set when the calls were read from JSON the model wrote outside
    its call format: the turn's prose without them (the history then shows the
    calls in the proper format, which teaches the model by example)."""

    calls: list[ToolCall]
    errors: list[ParseError] = field(default_factory=list)
    content: str | None = None


@dataclass(frozen=True)
class FormatError:
    """Neither a valid call nor an answer.

    Attributes:
        reason: one line for the model on what went wrong.
        call_expected: the model meant to call a tool (so the retry must be a call).
        example: the expected format of the call it tried, when the parser had one.
    """

    reason: str
    call_expected: bool
    example: str = ""


TurnKind = Union[Answer, Calls, FormatError]


def classify_turn(out: TurnOutput, workspace: str, tool_names: Sequence[str],
                  hint: Callable[[str], str] = lambda raw: "",
                  left_out: Callable[[str], bool] = lambda rel: False,
                  offered: Sequence[tuple[str, dict]] = ()) -> TurnKind:
    """Decide what ``out`` is.

    Args:
        out: the model's turn (parsed output and stop reason).
        workspace: the task's workspace folder (file claims are checked there).
        tool_names: names of the registered tools (a failed call names one).
        hint: ``raw call text -> extra sentence`` appended to a malformed
            call's reason (e.g. the tool's group is not loaded); "" for none.
        left_out: ``path -> True`` for an ``output`` the harness left out of a call
            (the change went into the input): an answer naming it is no format
            error, and the finish check tells where the change was saved.
        offered: ``(tool, arguments)`` of the calls the last results spelled out
            to copy: a reply of one JSON object with one's arguments and no
            name is that call (``model.parsing_failed.nameless_call``).
    """
    parsed = out.parsed
    if parsed.tool_calls:
        return Calls(list(parsed.tool_calls), list(parsed.errors))
    text = _SPECIAL_TOKEN.sub("", parsed.content)
    if parsed.errors:
        err = parsed.errors[0]
        kept = cut_finish_answer(err.raw) if "cut off inside a string" in err.message else ""
        if kept:
            return Answer(kept)
        return FormatError(err.message + hint(err.raw), call_expected=True, example=err.expected)
    if out.stop_reason == "repetition":
        return FormatError("your reply went into a loop repeating the same text; write one short tool call or "
                           "answer", call_expected=False)
    if out.stop_reason == "length":
        return FormatError("your reply was cut off at the length limit before it ended", call_expected=False)
    wrapped = _WRAPPED_CALL.fullmatch(text.strip())
    if wrapped:  # csv_group_totals: a right table_query, then a right finish, each inside <tool_response> tags
        salvaged, _ = salvage_json_calls(wrapped.group(1), list(tool_names))
        if salvaged:
            return Calls([ToolCall(name=n, arguments=a, raw=r) for n, a, r in salvaged], content="")
    if "<tool_response>" in text:
        return FormatError("you wrote a <tool_response> yourself; results come only from real tool calls",
                           call_expected=False)
    if not text.strip():
        return FormatError("the reply had neither a tool call nor an answer", call_expected=False)
    if not _HAS_WORD.search(text):  # "{" or "{}": a call begun and dropped, not an answer to check
        return FormatError("the reply had no words; call a tool inside <tool_call> tags, or answer in sentences",
                           call_expected=False)
    keyed = keyed_call(text, list(tool_names))
    if keyed:  # {"xlsx_add_sheet": {...}}: the tool's name as the only key, the whole reply
        return Calls([ToolCall(name=keyed[0], arguments=keyed[1], raw=keyed[2])], content="")
    nameless = nameless_call(text, [(n, a) for n, a in offered if n in tool_names])
    if nameless:  # {"arguments": {"path": "top3.csv", ...}}: the call the harness offered, its name left out
        return Calls([ToolCall(name=nameless[0], arguments=nameless[1], raw=nameless[2])], content="")
    failed = looks_like_failed_call(text, list(tool_names))
    if failed is not None:
        salvaged, prose = _salvage(text, tool_names)
        if salvaged:  # a well-formed JSON call in a code block: run it rather than spend a turn on a retry
            return Calls([ToolCall(name=n, arguments=a, raw=r) for n, a, r in salvaged], content=prose)
        return FormatError(failed, call_expected=True)
    text = without_tool_asides(text, tool_names)  # "I will call ask_human if ..." announces no work of this turn
    if announces_work(text):
        return FormatError("you said what you will do but called no tool; call the first tool now, or give the "
                           "final answer", call_expected=False)
    # xlsx_group_sums at 0cfab8b: "saved as "By Region.xlsx"", the output the harness had left out (the sheet went
    # into sales.xlsx), was a format error three times over and the task paused as stuck with its sheet added
    missing = [rel for rel in unbacked_file_claims(text, workspace) if not left_out(rel)]
    if missing:
        return FormatError(f"your answer says {', '.join(missing[:3])} was written, but it does not exist in the "
                           "workspace; call the tool that creates it, then answer", call_expected=False)
    return Answer(text)


_CUT_FINISH = re.compile(r'"name"\s*:\s*"finish"\s*,\s*"arguments"\s*:\s*\{\s*"answer"\s*:\s*"(?P<text>.*)', re.DOTALL)


def cut_finish_answer(raw: str) -> str:
    """The whole sentences of a ``finish`` call whose answer string was cut off (the
    repetition guard or the token cap stopped it), up to the first sentence said
    again, or before the first of the sentences that open with the same four words
    (a ramble); "" when ``raw`` is no such call or no sentence of three words ended before
    the cut. note_search at 42e28a8: the plumber found at step 1, then three finish
    calls in a row cut off at the same place and the task handed off as stuck. What is
    kept is an answer like any other: the finish checks judge it."""
    m = _CUT_FINISH.search(raw)
    if not m:
        return ""
    text = re.sub(r'\\(["\\/])', r"\1", m.group("text").replace("\\n", "\n").replace("\\t", " "))
    pieces = re.split(r"(?<=[.!?])\s+|\n+", text)[:-1]  # the last piece is where the cut fell
    kept: list[str] = []
    openings: list[str] = []
    for sentence in (p.strip() for p in pieces):
        if sentence in kept:
            break
        opening = " ".join(sentence.lower().split()[:4]) if len(sentence.split()) > 4 else ""
        if opening and opening in openings:  # a ramble began at the first sentence of that opening: files_organise
            # at db466c8, "The user can use the move function to ...", "The user can use the copy function to ..."
            kept = kept[:openings.index(opening)]
            break
        if sentence:
            kept.append(sentence)
            openings.append(opening)
    return "\n".join(kept) if kept and len(" ".join(kept).split()) >= 3 else ""


def forges_result(out: TurnOutput) -> bool:
    """True when a turn writes a ``<tool_response>`` of the model's own and holds no
    call, not even a JSON one in its prose or inside that tag (:data:`_WRAPPED_CALL`):
    files_find, handoff_which_contract, xlsx_two_sheet_total (Qwen 1.5B) began turns
    by inventing the next tool result, files_rename_pattern wrote "I will use
    rename_many:" and then a ``<tool_response>``; each cost a format error and a step."""
    text = out.parsed.content
    if out.parsed.tool_calls or out.parsed.errors:
        return False
    if "<tools>" in text:  # the prompt's tool list written out again (model.chat cuts it there): a held-out task
        # at 1de0702 spent 7 minutes on it, to the length limit, and a step
        return True
    if "<tool_response>" not in text:
        return False
    # a whole JSON call in that tag is run (classify); one cut off inside it ('<tool_response>\n{"name": "table',
    # csv_top_customers at 62f6d46, twice) is a forged turn like any other
    wrapped = _WRAPPED_CALL.fullmatch(text.strip())
    try:
        call = json.loads(wrapped.group(1)) if wrapped else None
    except ValueError:
        call = None
    return not (isinstance(call, dict) and "name" in call)


#: a chat-template token written out as text ("<|im_start|>"): note_search at 9fda44c ended with it as its answer
_SPECIAL_TOKEN = re.compile(r"<\|[A-Za-z_]{2,30}\|>")


def empty_reply(out: TurnOutput) -> bool:
    """True when a turn ended on its own with no words (nothing, or a bare "{"), call or
    parse error: calendar_list_day at c92ae49, Qwen 1.5B gave two empty replies after its
    listing, a format error and a step each, and ran out of steps; "the reply had no
    words" was the commonest format error of three whole passes (7 of 40)."""
    p = out.parsed
    # "eos": a llama.cpp turn ends on the model's end token (pdf_find_figure at 62f6d46: "3" twice, a format error
    # and a step each, never asked again: the check took only a stop string's end)
    return out.stop_reason in ("stop", "eos") and not _HAS_WORD.search(_SPECIAL_TOKEN.sub("", p.content)) \
        and not p.tool_calls and not p.errors


_WRAPPED_CALL = re.compile(r"<tool_response>\s*(\{.*\})\s*(?:</tool_response>?)?", re.DOTALL)
"""A turn that is nothing but one JSON object inside ``<tool_response>`` tags: a call in the
wrong wrapper (the model copies the shape of the last message it saw), never a result."""


#: ``<function name="X" arguments='{...}'/>``: a call in an attribute-style tag of the model's own making
_FUNCTION_ATTRS = re.compile(r"<function\s+name=[\"'](?P<name>[\w.-]+)[\"']\s+arguments=(?P<q>[\"'])(?P<args>\{.*?\})"
                             r"(?P=q)\s*/?>", re.DOTALL)


def _salvage(text: str, tool_names: Sequence[str]) -> tuple[list, str]:
    """The JSON call written outside the call format (:func:`salvage_json_calls`);
    never from broken call markup (``<tool_call>``, ``<function=``). Inside a
    ``<tools>`` tag only a call with concrete ``arguments``: such a tag more often
    recites the tool list (schemas: ``parameters``, ``properties``), but Qwen 1.5B
    also wrapped its right calendar call in one, and the retry cost a step."""
    forged = re.search(r"<tool_response", text)
    if forged and text[:forged.start()].strip():
        # a result of its own begun after the call (multistep_invoices_memo at 1c5fa31: '{{"name": "combine_files",
        # ...}}}}' then '<tool_response', a format error and a step, twice): the call came before it, and only
        # the first call is ever run
        text = text[:forged.start()]
    if "<function=" in text or re.search(r"<tool_(call|response)", text):
        return [], text
    attr = _FUNCTION_ATTRS.search(text)
    if attr and attr.group("name") in tool_names:  # calendar_next_weekday, files_rename_pattern at c92ae49
        try:
            args = json.loads(attr.group("args"))
        except ValueError:
            args = None
        if isinstance(args, dict) and not ({"properties", "required"} & set(args) or args.get("type") == "object"):
            prose = re.sub(r"</?tools>", "", text[:attr.start()]).strip()
            return [(attr.group("name"), args, attr.group(0))], prose
    salvaged, prose = salvage_json_calls(text, list(tool_names))
    if salvaged and "<tools>" in text:
        raw = salvaged[0][2]
        if '"arguments"' not in raw or '"properties"' in raw or re.search(r'"type"\s*:\s*"object"', raw):
            return [], text
        prose = re.sub(r"</?tools>", "", prose).strip()
    return salvaged, prose


def force_for(task: Task) -> str | None:
    """How the next turn is constrained after format errors.

    Measured on Qwen2.5-Coder-1.5B: a free turn after a failed call tends to
    announce work it never did, and a turn that may also answer took the answer
    ("DONE") instead of the call it had just tried to write. So the turn right
    after a failed call attempt must be a tool call; after other errors (a plan
    instead of an action, a claim with nothing behind it, a cut-off reply), and
    after a second error in a row, it may be a call or an explicit final answer;
    once a task has seen two format errors, every later turn stays constrained
    (the model keeps falling back to its habit, e.g. calls in fenced JSON blocks).
    """
    if task.format_errors == 1:
        return "tool_call" if task.call_expected else FORCE
    if task.format_errors >= 2 or task.format_errors_total >= 2:
        return FORCE
    return None


def force_to_look(messages: Sequence[Any], calls: Sequence[Any], check_prefix: str) -> str | None:
    """"tool_call" when the last message refused an answer (it starts with
    ``check_prefix``) and no tool call has succeeded in the task yet (the model
    answered without looking), or one of its doubts spells out a call to make. Qwen 1.5B, asked for a phone number "somewhere in
    my files", answered 123-456-7890 at once and, told the number came from no
    tool, gave the same answer again; the turn after the refusal must look."""
    last = str(getattr(messages[-1], "content", "")) if messages else ""
    if not last.startswith(check_prefix):
        return None
    if not work_calls(calls):
        return "tool_call"
    # a doubt that spells out the call to make: files_find at c3438bd, told to grep for "passport", Qwen 1.5B
    # answered readme.txt again and was handed off
    # and so does the call to copy the refusal repeats (recap.next_call_to_copy): xlsx_top_vendors at c14e080, the
    # ranking's table_query given after the first read and under both refusals, two more xlsx_write calls of one
    # row each and a hand-off
    doubts = [ln for ln in last.splitlines() if ln.startswith(("- ", PENDING_CALL))]
    return "tool_call" if any(_DOUBT_CALL.search(d) for d in doubts) else None


_DOUBT_CALL = re.compile(r"\bcall (?!finish\b)[a-z][a-z0-9_]* with \{")


def spelled_out_tools(messages: Sequence[Any], check_prefix: str) -> list[str]:
    """The tools whose calls the last message's doubts (or the call to copy it repeats)
    spell out, when it refused an answer (starts with ``check_prefix``); [] otherwise."""
    last = str(getattr(messages[-1], "content", "")) if messages else ""
    if not last.startswith(check_prefix):
        return []
    doubts = [ln for ln in last.splitlines() if ln.startswith(("- ", PENDING_CALL))]
    return list(dict.fromkeys(m.group(1) for d in doubts
                              for m in re.finditer(r"\bcall (?!finish\b)([a-z][a-z0-9_]*) with \{", d)))


def copy_after_failed_write(step_calls: Sequence[Any]) -> list[str]:
    """The tools of the calls spelled out for the model to copy
    (:func:`recap.calls_to_copy_in`) in the results of ``step_calls`` (the last
    step's calls) when none of them succeeded and one that failed was a write, a
    refused ``ask_human``, or a call refused for its arguments with the pending call
    to copy; []
    otherwise. The next turn may only call those tools. csv_top_customers at
    db466c8: write_file sent the query's '|' table to top3.csv, the refusal gave the
    csv_write to copy, and Qwen 1.5B copied top3.csv onto itself and renamed the
    user's orders.csv instead; the budget ran out with no top3.csv."""
    if not step_calls or any(getattr(c, "status", "") == "done" and not getattr(c, "error", False)
                             for c in step_calls):
        return []
    # and an ask_human refused with the call to copy (xlsx_two_sheet_total at 79c170d: the user's own question sent
    # three times, each refused with the table_query to copy, and the task paused as stuck)
    # and a call refused before it ran with the pending call to copy (its risk unknown: invalid arguments)
    failed = [c for c in step_calls if getattr(c, "error", False)
              and ((getattr(c, "risk", None) or "read") in ("write", "destructive")
                   or getattr(c, "name", "") == "ask_human"
                   or (getattr(c, "status", "") == "invalid"
                       and f"\n{PENDING_NOTE} " in (getattr(c, "result", "") or "")))]
    return list(dict.fromkeys(name for c in failed for name, _ in calls_to_copy_in(getattr(c, "result", "") or "")
                              if name != "finish"))


def refused_answer(messages: Sequence[Any], check_prefix: str) -> bool:
    """True when the last message refused an answer (it starts with ``check_prefix``):
    the next turn is a tool call (``finish`` among them). Qwen 1.5B, its answer
    "4 rows:" (the first line of a query result) refused, wrote "4 rows:" again in
    free text and the task was handed off; the refusal says to fix it with calls."""
    return bool(messages) and str(getattr(messages[-1], "content", "")).startswith(check_prefix)


def outputs_made_note(goal: str, workspace: str, touched: Sequence[str], calls: Sequence[Any] = ()) -> str:
    """A note for the next turn once every file the goal asks for exists and this
    task wrote it ("" until then, and for goals that name no output). Not a force:
    the model may go on when the task needs more. pdf_extract_pages, docx_summarise,
    csv_top_customers (Qwen 1.5B): the asked-for file was written at step 2 or 3, then
    read back, extracted again and re-created until the budget ran out, no answer given.

    For a goal that asks for a change in the calendar or the notes
    (:func:`assistant.loop.written.store_goal`) and names no file, the note comes
    once ``calls`` (the task's journal) holds a successful call of the tool that
    makes that change, and quotes the first line of its result."""
    from pathlib import Path

    from .evidence import goal_files, norm_path
    from .written import store_goal

    outputs = goal_files(goal)[0]
    store = store_goal(goal)
    if store and not outputs:
        # the same for a goal that asks for a change in the calendar or the notes, once that tool succeeded:
        # note_add, calendar_next_weekday, calendar_from_invite at 3797c71: the event or note made at step 1-3,
        # then listed, searched and made again until the budget ran out
        made = [c for c in calls if c.name == store[1] and c.status == "done" and not c.error]
        if made:
            first = (made[-1].result or "").strip().splitlines()[:1]
            what = f": {first[0][:160]}" if first else ""
            return (f"[{store[1]} succeeded at step {made[-1].step}{what}.] If that completes the task, give your "
                    "final answer now: what you did. Otherwise take the next step the task needs.")
    done = {norm_path(p) for p in touched}
    if not outputs or not all((Path(workspace) / o).exists() and o in done for o in outputs):
        return ""
    names = ", ".join(outputs)
    return (f"[{names} {'is' if len(outputs) == 1 else 'are'} written now, by this task.] If that completes the "
            "task, give your final answer now: what you did, and where the result is. Otherwise take the next "
            "step the task needs.")


def last_step_note(task: Task, calls: Sequence[Any]) -> str:
    """The note that makes the step budget's last turn end the task ("" when
    this is not that turn). Qwen 1.5B read both files that held the answer
    ("no phone number for the landlord"), then spent its last steps on invented
    file names and ran out of budget with nothing said. Only after 3+ steps of
    which at least one tool call succeeded (a one-step budget still gets to look).

    The same note ends a task when two of its last three calls (the last one among
    them) repeated a call that had already run (answered from the journal, not
    run): Qwen 1.5B listed the right day's events, then asked for the same listing
    three more times; pdf_number_lookup read the figure, then alternated repeats
    with new searches until the time ran out. A read that failed exactly as its
    identical predecessor did counts as such a repeat (pdf_number_lookup at b5a954c:
    read_file on the PDF twice, pdf_read again, read_file twice more, budget gone)."""
    from .calls import FAILED_AGAIN_KEY

    def again(c: Any) -> bool:  # answered from the journal, or a read that failed as its twin did
        data = c.data or {}
        return bool(data.get("repeat_of") or (data.get(FAILED_AGAIN_KEY) and (c.risk or "read") == "read"))

    def refused(c: Any) -> bool:  # the harness's "Not run: ..." that gives no call to copy instead
        return c.status == "denied" and not calls_to_copy_in(c.result or "")

    n, last = task.usage.steps + 1, task.budgets.max_steps
    tail = [c for c in calls if c.final][-3:]
    repeating = tail and again(tail[-1]) and sum(1 for c in tail if again(c)) >= 2
    made = [c for c in calls if c.status == "done" and not c.error and (c.risk or "read") in ("write", "destructive")]
    # a change made, then refused calls that offer nothing to do instead: a held-out task at 1de0702 wrote data.xlsx
    # right, then sent six sheets the harness refused ("data.xlsx already holds ...") and ended stuck
    refusing = bool(made and tail and refused(tail[-1]) and sum(1 for c in tail if refused(c)) >= 2)
    if (n != last and not repeating and not refusing) or n < 3:
        return ""
    if not work_calls(calls):
        return ""
    found = found_so_far(task.goal, calls, task.marker)
    found = f"\nWhat your calls found that bears on the task:\n{found}" if found else ""
    if n != last and not repeating:
        done = result_gist(made[-1].result or "")
        return (f"[Two of your last calls were refused; this task's change is made ({made[-1].name}: {done}).] Call "
                "finish now with your answer: what you did, and say plainly what you could not finish. Or call "
                f"ask_human if only the user can help.{found}")
    if n != last:
        return ("[Two of your last calls repeated calls that had already run; their results are above.] Call finish "
                "now with your answer: what you found and did, and say plainly what you could not find or finish. "
                f"Or call ask_human if only the user can help.{found}")
    return (f"[Step {n} of {last}: the last step.] Call finish now with your answer: what you found and did, and "
            f"say plainly what you could not find or finish. Or call ask_human if only the user can help.{found}")
