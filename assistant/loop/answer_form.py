"""Checks on an answer's form, not on what it says: a call attempt or a tool
named instead of an answer (``markup_problem``; ``without_tool_asides`` drops a
sentence that only says a tool may be called later), the harness's own words
repeated (``echoes_harness``; ``answer_to_copy`` is the harness's wording that
does not count so), a data fence's random marker, a JSON object or a reply
announcing what never follows (``_shape_problem``), code shown instead of its
result (``_shows_code``, and a query this task ran shown without its rows), a
tool result copied whole (``_copied_result``), and the answer given as a one-key
JSON object (``unwrap_answer``). ``not_an_answer`` says which of them make a
reply a format error rather than a doubted answer.
"""

from __future__ import annotations

import difflib
import json
import re
from pathlib import Path
from typing import Collection, Iterable, Sequence

from model.parsing_failed import looks_like_failed_call, unknown_json_tool
from tools.untrusted import FENCE_NOTICE

from ..state.models import CallRecord
from .evidence import _FENCED, _FENCE_LINE, _HIGHEST, _LOWEST, Evidence, _ran, _results, asks_only_a_question, \
    goal_files, norm_path
from .table_goal import LOWER_BETTER, MEAN_OF_TWO
from .verify import VACUOUS_NEXT

__all__ = ["markup_problem", "without_tool_asides", "echoes_harness", "ANSWER_TO_COPY", "CANNED_REFUSAL",
           "answer_to_copy", "unwrap_answer", "not_an_answer", "restates_request"]


# -- call-like markup ----------------------------------------------------------
_MARKUP = re.compile(r"<\s*/?\s*(tool_call|function[=\s>]|parameter[=\s>]|tools\s*>|tool_response)"
                     r"|[\"']?\barguments[\"']?\s*:|[\"']name[\"']\s*:\s*[\"']", re.IGNORECASE)


def markup_problem(answer: str, tool_names: Sequence[str], called: Iterable[str] = ()) -> str | None:
    """Why ``answer`` is a call attempt and not an answer, or None.

    Caught: ``<tool_call>``/``<function=``/``<parameter=`` tags, well-formed or
    not; JSON-ish ``"name": "..."`` or ``arguments:`` keys, fenced or bare, with
    or without their quotes (``arguments":`` missing its opening quote); a
    tool named by its identifier (``use_tools``, ``read_file(``) unless it is
    in ``called`` (tools that ran in this task: "I used table_query" tells how
    the result was found; Qwen 1.5B's right totals were refused for it); and
    everything :func:`model.parsing_failed.looks_like_failed_call` catches.
    """
    names = [n for n in tool_names if n]
    failed = looks_like_failed_call(answer, names)
    if failed is not None:
        return failed
    if _CUT_CALL.search(answer.rstrip()):
        # a held-out task at a6267c9: "... you need to refresh the formula values.\n\n{" finished the task
        return ("the answer ends in a call cut off (an opened '{'); make the call whole inside <tool_call> tags, or "
                "answer in plain sentences")
    if _MARKUP.search(answer):
        unknown = unknown_json_tool(answer, names)  # files_rename_pattern: a call of "rename", which is no tool
        if unknown:
            return f"{unknown}; a call goes inside <tool_call> tags and an answer has none"
        return "the answer holds tool-call markup; a call goes inside <tool_call> tags and an answer has none"
    ran = set(called)
    for n in names:
        # names with an underscore are identifiers, never plain words; "copy(" or "`copy`" is a call too
        pattern = rf"(?<![\w-]){re.escape(n)}(?![\w-])" if "_" in n else rf"`{re.escape(n)}`|\b{re.escape(n)}\s*\("
        m = re.search(pattern, answer)
        before = answer[max(0, m.start() - 40): m.start()] if m else ""
        if m and _TELLS_USER.search(before):
            return (f"the answer tells the user to call {n}, but only you can call tools; say what this task did "
                    "and found")
        if m and (n not in ran or _POINTS_TO_RESULT.search(before)):
            return f"the answer names the tool '{n}'; call tools with <tool_call>, and answer with what you found"
    return None


def without_tool_asides(answer: str, tool_names: Sequence[str]) -> str:
    """``answer`` without its sentences that name a tool (an identifier with an
    underscore) only to say it might be called later ("I will call ask_human if I
    need more information."), when other sentences remain; ``answer`` unchanged
    otherwise. calendar_list_day at 7dcd18e: "I found two events ...: Team standup
    at 9:00 AM and Lunch with Sam at 12:30 PM. ... I will call ask_human if I need
    more information." was refused for naming a tool, and the task paused on a
    question."""
    names = [n for n in tool_names if n and "_" in n]
    if not names:
        return answer
    tool = re.compile(r"(?<![\w-])(" + "|".join(re.escape(n) for n in names) + r")(?![\w-])")
    spans = [m.span() for m in re.finditer(r"[^.!?\n]*[.!?]?", answer) if m.group(0).strip()]
    drop = [(a, b) for a, b in spans if tool.search(answer[a:b]) and _ASIDE.search(answer[a:b])
            and not _MARKUP.search(answer[a:b])]
    if not drop or len(drop) == len(spans):
        return answer
    for a, b in reversed(drop):
        answer = answer[:a] + answer[b:]
    return re.sub(r"[ \t]+\n", "\n", re.sub(r"[ \t]{2,}", " ", answer)).strip()


#: a sentence about a call that may come later, not about what was found: "I will call X if ...", "If you need
#: more, I can use X", "I will now call X to get more information." (files_find at 4f7db1e), "If you need to find
#: something else, please ask_human." (calendar_list_day at 04fe9b0: the day's two events, refused for that sentence)
_ASIDE = re.compile(r"\b(?:i|we)(?: will|'ll| can| could| may| might| would)\b.*\bif\b|\bif\b.*\b(?:i|we)(?: will|"
                    r"'ll| can| could| may| might)\b|\b(?:i|we)(?: will|'ll| am going to| are going to| shall)(?: now| "
                    r"then| next| first)?\s+(?:call|use|run|try)\b|^\W*if you(?:'d| would)? (?:need|want|like|have)\b"
                    r"|\byou\s+(?:can|could|may|might|should)\s+(?:also\s+)?(?:call|use|run|invoke)\b"
                    # a held-out task at bb1c5f7: "The notice period is not explicitly stated in the contract.docx
                    # file. I need to use the `docx_read` function to ... search ... manually." (it had run)
                    r"|\b(?:i|we)\s+(?:will\s+|would\s+)?(?:need|have)\s+to\s+(?:first\s+|now\s+)?"
                    r"(?:call|use|run|try)\b",
                    re.IGNORECASE)


#: an answer ending in a JSON object begun on a line of its own and never closed: "{", '{"path": "a.txt", '
_CUT_CALL = re.compile(r'(?:^|\n)[ \t]*(?:```\w*\s*)?\{\s*(?:"[^{}]*)?\Z')


#: "you can call" a tool: advice to the user, who has no tools. docx_edit_clause at 0417c73: the clause changed,
#: then "To confirm the change, you can call docx_read again to see if ..." finished the task
_TELLS_USER = re.compile(r"\byou\s+(?:can|could|may|might|should|need to|will need to)\s+(?:also\s+)?(?:call|use|"
                         r"run|invoke)\s+(?:the\s+)?`?$", re.IGNORECASE)
#: "... in the result of" a tool: a pointer instead of the answer. "This matches the output from the `pdf_read`
#: function" is not (pdf_page_count at 4f7db1e: the right page count and title were refused for it)
_POINTS_TO_RESULT = re.compile(r"\b(?:in|see|at|check)\s+(?:the\s+)?(result|output|response)s?\s+(of|from)\s+"
                               r"(the\s+)?`?$", re.IGNORECASE)


_CODE_BLOCK = re.compile(r"```[ \t]*(sql|python|py|bash|sh|shell|js|javascript|vba|excel|r)?[ \t]*\n(.*?)\n[ \t]*```", re.DOTALL)
_CODE_WORDS = re.compile(r"^\s*(select|insert|update|delete|with)\b.*\b(from|into|set|as)\b|^\s*(import|def|class)\s"
                         r"|^\s*from\s+\S+\s+import\b", re.IGNORECASE | re.MULTILINE)
_CODE_MARKS = re.compile(r"[;{}]|^\s*=|\w\(.*\)", re.MULTILINE)


#: what code shown to the user does, and the tool that does it here. files_organise at 6b49cef: a Python script of
#: os.makedirs and os.rename was told to "run it with a tool (SQL with table_query)"; the model went on to pdf_info
_CODE_TOOLS = (
    (re.compile(r"\b(?:os\.rename|os\.replace|shutil\.move|mv|Move-Item)\b"), "move",
     "move (a wildcard src such as inbox/*.pdf moves every match into the folder dest)"),
    (re.compile(r"\b(?:shutil\.copy\w*|cp|Copy-Item)\b"), "copy", "copy"),
    (re.compile(r"\b(?:os\.remove|os\.unlink|shutil\.rmtree|rm|Remove-Item)\b"), "delete", "delete"),
)


def code_tool(answer: str, tool_names: Collection[str]) -> str:
    """How to name the tool that does what the fenced code in ``answer`` does: "move (...)"
    for code that moves files, and so on; "" for code that none of ``tool_names`` does
    (a query, a calculation: table_query's work)."""
    code = "\n".join(m.group(2) for m in _CODE_BLOCK.finditer(answer))
    return next((how for pattern, name, how in _CODE_TOOLS if name in tool_names and pattern.search(code)), "")


def _is_table(text: str) -> bool:
    """Two or more lines that all hold the same number (at least one) of commas, tabs or
    "|": rows of data, such as a CSV the task wrote shown back (rules under a header aside)."""
    # a rule under a header ("-------+------") is no row (csv_group_totals at 8282b36: table_query's own result
    # shown back, "sum(amount)" in its header, was refused as code)
    lines = [line for line in text.splitlines() if line.strip() and not re.fullmatch(r"[\s|+:=-]+", line)]
    return len(lines) >= 2 and any(len({line.count(sep) for line in lines}) == 1 and lines[0].count(sep) > 0
                                   for sep in (",", "\t", "|"))


def _shows_code(answer: str) -> bool:
    """A fenced block with a code language, or whose text looks like code; not a
    value set apart in a plain fence (docx_lookup: "```\nEUR 1,450\n```", the right
    answer, was refused as code and the task handed off), nor rows of data
    (csv_top_customers at 4826ac4: the written top3.csv shown back, its header
    "customer,sum(amount)", was refused as code and the task handed off)."""
    return any(m.group(1) or _CODE_WORDS.search(m.group(2))
               or (_CODE_MARKS.search(m.group(2)) and not _is_table(m.group(2)))
               for m in _CODE_BLOCK.finditer(answer)) or bool(_sql_arguments(answer))


#: a fenced block holding a tool call's arguments with a query: ```json {"sql": "SELECT ..."} ```
_SQL_ARGUMENTS = re.compile(r"```[ \t]*(?:json)?[ \t]*\n\s*(\{.*?\})\s*\n[ \t]*```", re.DOTALL | re.IGNORECASE)


def _sql_arguments(answer: str) -> list[str]:
    """The queries of the fenced JSON objects in ``answer`` that are table_query's arguments
    (``{"sql": "SELECT ..."}``). csv_group_totals at 32ea11e: the per-region totals queried,
    then "we can use the `table_query` function with the following SQL query:" and that
    query as a ```json block finished the task: the block was no code to the checks."""
    out = []
    for m in _SQL_ARGUMENTS.finditer(answer):
        try:
            args = json.loads(m.group(1))
        except ValueError:
            continue
        if isinstance(args, dict) and isinstance(args.get("sql"), str) and args["sql"].strip():
            out.append(args["sql"])
    return out


def _query_shown(answer: str) -> str:
    """The first SQL query (SELECT or WITH, one statement) in a fenced block of
    ``answer`` (or a fenced ``{"sql": ...}``), on one line; "" when there is none."""
    for text in [*(m.group(2) for m in _CODE_BLOCK.finditer(answer)), *_sql_arguments(answer)]:
        text = " ".join(text.split()).rstrip(";").strip()
        if re.match(r"(select|with)\b", text, re.IGNORECASE) and ";" not in text:
            return text
    return ""


def _query_ran(answer: str, calls: Sequence[CallRecord]) -> bool:
    """True when every fenced block of ``answer`` is a SQL query that a successful
    ``table_query`` of this task ran (case, spacing and a final ";" aside).
    xlsx_top_vendors at c92ae49: the five vendors queried and the sheet added, then
    a report showing the query it had run was refused as code, and time ran out."""
    def norm(sql: str) -> str:
        return " ".join(sql.split()).rstrip(";").strip().lower()

    ran = {norm(str(c.arguments.get("sql", ""))) for c in calls
           if c.name == "table_query" and c.status == "done" and not c.error}
    blocks = [norm(m.group(2)) for m in _CODE_BLOCK.finditer(answer)] + [norm(q) for q in _sql_arguments(answer)]
    return bool(blocks) and all(b in ran for b in blocks)


def _squash(text: str) -> str:
    return " ".join(text.lower().split())


def _unquote(text: str, first: str) -> str:
    """``text`` without the spans that quote ``first`` (a quote mark, then ``first``
    or its first 80 characters): the harness quoting the model's own answer back.
    xlsx_total at 8b795c9: "The total amount of expenses is $149.75." was refused
    for its number with the notice "the answer says 'The total amount ...'", and the
    same answer again was then refused as repeating the harness's instructions."""
    head = first[:80]
    if len(head) < 12:
        return text
    for q in "'\"":
        while (at := text.find(q + head)) >= 0:
            text = text[:at] + " " + text[at + 1 + len(first if text.startswith(first, at + 1) else head):]
    return text


def echoes_harness(answer: str, harness_texts: Iterable[str], *, min_chars: int = 24,
                   data_texts: Iterable[str] = ()) -> bool:
    """True when ``answer`` is a copy of the harness's own words to the model.

    A 1.5B model answered "To call a tool, write exactly this block (one block per
    call; several blocks are allowed):" (the format help) and the task finished.
    The test: the answer's first line (whitespace and case folded, at least
    ``min_chars`` long) occurs in one of ``harness_texts``, or in the call-format help.
    Data fenced inside a harness text (a file shown again) is not the harness's words:
    docx_lookup at d59b864 answered with the lease's own sentence, which the re-shown
    read held, and was refused twice. Nor is a line that a tool result holds
    (``data_texts``): "Not run again" quotes a short unfenced result, e.g. the note
    search's "Plumber: Jonas Berg, phone 0170 555 0199", which is the answer.
    """
    from model.call_format import format_instructions

    # a fence's own label is the harness's ("source=this task's tool results": the demo model answered "This task's
    # tool results" for "Who is the plumber?" at 340fbce); a file name or address as a label is data
    labels = [lab for t in harness_texts if t for lab in _FENCE_LABEL.findall(t) if " " in lab]
    first = _squash(next((ln for ln in answer.splitlines() if ln.strip()), "")).rstrip(" .:;!,")
    harness_texts = [_unquote(_squash(ANSWER_TO_COPY.sub(" ", _FENCED.sub(" ", t))), first)
                     for t in harness_texts if t]

    def core(text: str) -> list[str]:  # "The task's tool results" is the label "this task's tool results"
        return [w for w in re.findall(r"[\w']+", text.lower()) if w not in {"the", "this", "a", "an", "all"}]

    if core(first) and any(core(first) == core(lab) for lab in labels):
        return True
    if len(first) < min_chars:
        return False
    # the notice under a fence's marker is the harness's, though every fenced result holds it: the demo model
    # (SmolLM2-135M) at 66c0c3b finished "Who is the plumber?" with it
    if any(first in _squash(_FENCE_LINE.sub("", t)) for t in data_texts if t):
        return False
    texts = [*harness_texts, FENCE_NOTICE, format_instructions("xml"), format_instructions("json")]
    if any(first in _squash(t) for t in texts if t):
        return True
    # the harness's lead-in, then the data it showed, on one line: pdf_page_count at 6b49cef answered "The harness
    # read this for you before your first turn (step 0); here it is again: manual.pdf: 6 pages. --- page 1 --- ..."
    lead = first.split(": ", 1)[0]
    if lead != first and len(lead) >= min_chars and any(lead in _squash(t) for t in texts if t) \
            and not any(lead in _squash(_FENCE_LINE.sub("", t)) for t in data_texts if t):
        return True
    # near copies too: the demo model answered "What you found and did, and said plainly what you could not
    # find or finish" (the last step's note says "say plainly")
    words = re.findall(r"\w+", first)
    if len(words) < 6:
        return False

    def near(t: str) -> bool:
        blocks = difflib.SequenceMatcher(None, words, re.findall(r"\w+", t.lower()), autojunk=False)
        return sum(b.size for b in blocks.get_matching_blocks()) >= 0.85 * len(words)

    # a near copy of a tool result is the data's words, though a harness text quotes that result too
    # (calendar_list_day at 7b217b1: the answer to copy, the day's two events, refused as an echo of the
    # "Not run again" note that quoted the listing)
    if any(near(_FENCE_LINE.sub("", t)) for t in data_texts if t):
        return False
    return any(near(t) for t in texts if t)
# an answer the harness built from tool results for the model to copy: the data's words, not the harness's
ANSWER_TO_COPY = re.compile(r'the answer to copy: "[^"\n]*"')
#: a small model's canned refusal ("I'm sorry, but I can't assist with that request.", "... I can't answer that
#: question."): no answer of the task
CANNED_REFUSAL = re.compile(r"^\W*(i['’]?m|i am)\s+sorry\b[^.]{0,40}?\b(can(no|['’])?t|unable to|not able to)\s+"
                            r"(assist|help|answer (that|this|your) question)\b", re.IGNORECASE)


def answer_to_copy(text: str) -> str:
    """``the answer to copy: "<text>"`` (quotes and line breaks in ``text`` made plain),
    which :func:`echoes_harness` does not count as the harness's own words."""
    return 'the answer to copy: "' + " ".join(text.replace('"', "'").split()) + '"'
_FENCE_LABEL = re.compile(r"<<UNTRUSTED \w+ source=([^>\n]*)>>")
_FENCE_ID = re.compile(r"<<(?:END_)?UNTRUSTED ([0-9a-f]{8,})\b")


_VAGUE_NOT_FOUND = re.compile(r"^\W*(i\s+)?(could ?n[o']t|cannot|can'?t|did ?n[o']t|was unable to|am unable to)\s+"
                              r"(find|locate|see)\s+(it|that|this|them|anything)\W*$", re.IGNORECASE)


#: an answer saying no file was there at all: "I did not find any files in the workspace folder."
_NO_FILES_FOUND = re.compile(r"\b(?:could ?n[o']t|cannot|can'?t|did ?n[o']t|was unable to)\s+(?:find|locate|see)\s+"
                             r"(?:any\s+)?(?:files?|documents?)\b|\bno\s+files?\s+(?:were\s+|was\s+)?found\b|"
                             r"\b(?:folder|workspace)\s+(?:is|was)\s+empty\b", re.IGNORECASE)
_READS = ("read_file", "csv_read", "xlsx_read", "docx_read", "pdf_read", "table_query")


def _files_denied(answer: str, ev: Evidence) -> str:
    """The doubt when ``answer`` says no file was found while this task read files and
    changed some ("" otherwise): csv_top_customers at 018ad5b read orders.csv, queried
    it, wrote top3.csv right, and answered "I did not find any files in the workspace
    folder."."""
    if not _NO_FILES_FOUND.search(answer):
        return ""
    read = [c for c in ev.calls if c.name in _READS and c.status == "done" and not c.error]
    made = sorted({str(p) for p in ev.touched})
    if not read or not made:
        return ""
    what = ", ".join(dict.fromkeys(str(c.arguments.get("path") or c.name) for c in read))
    return (f"the answer says no file was found, but this task read {what} and changed {', '.join(made[:5])}; say "
            "what was done and what it gave")


def _outputs_written(ev: Evidence) -> bool:
    """Every file the goal asks for exists and this task wrote it (False for goals that name no output)."""
    outputs = goal_files(ev.goal)[0]
    done = {norm_path(p) for p in ev.touched}
    return bool(outputs) and all(o in done and (Path(ev.workspace) / o).exists() for o in outputs)


def _unfenced(answer: str) -> str:
    return "\n".join(ln for ln in answer.strip().splitlines() if not ln.strip().startswith("```")).strip()


def _json_object(answer: str, ev: Evidence) -> str:
    """The doubt when ``answer`` is a JSON object and not every file the goal asks for is
    written yet ("" otherwise): csv_top_customers, ``{"output": "top3.csv", "rows": [...]}``."""
    body = _unfenced(answer)
    if not body.startswith("{") or _outputs_written(ev):
        return ""
    try:
        obj = json.loads(body)
    except ValueError:
        return ""
    if not isinstance(obj, dict):
        return ""
    return ("the answer is a JSON object; write the answer as plain sentences: what you found and which files you "
            "wrote, or call finish with them") + _query_answer(ev)


_EVERY_GROUP = re.compile(r"\b(per|each|every|by)\b", re.IGNORECASE)


def _result_rows(result: str) -> list[list[str]]:
    """The data rows of a ``table_query`` result, its cells as shown (one-column
    results too; the harness's notes after the data left out)."""
    fenced = _FENCED.search(result)
    lines = [ln for ln in _FENCE_LINE.sub("", fenced.group(2) if fenced else result).splitlines() if ln.strip()]
    rule = next((i for i, ln in enumerate(lines) if re.fullmatch(r"[-+\s]+", ln) and "-" in ln), None)
    if rule is None:
        return []
    return [[c.strip() for c in ln.split("|")] for ln in lines[rule + 1:]
            if not ln.startswith(("(", "Not loaded:"))]


def _query_answer(ev: Evidence, limit: int = 12) -> str:
    """", e.g. the answer to copy: "West 2174.40; East 2155.50."" built from the rows
    of the newest ``table_query`` of a task that only asks a question, when they are
    the answer: one row, or one per group for a goal that asks per group ("" otherwise).
    csv_group_totals at 4df8dd6: the per-region totals queried right, then the first
    row answered as a JSON object, refused, and the file read again until time ran out."""
    if not asks_only_a_question(ev.goal):
        return ""
    rows = _newest_query_rows(ev)
    if not rows or len(rows) > limit or (len(rows) > 1 and not _EVERY_GROUP.search(ev.goal)):
        return ""
    return ", e.g. " + answer_to_copy("; ".join(" ".join(c for c in row if c) for row in rows) + ".")


def _newest_query_rows(ev: Evidence) -> list[list[str]]:
    """The data rows of the newest ``table_query`` of the task that ran (not a repeat answered from the journal)."""
    query = next((c for c in reversed(ev.calls) if c.name == "table_query" and c.status == "done" and not c.error
                  and c.result and not (c.data or {}).get("repeat_of")), None)
    return _result_rows(query.result) if query is not None else []


def query_answer_to_copy(goal: str, calls: Sequence[CallRecord]) -> str:
    """``the answer to copy: "..."`` from the newest ``table_query`` of a task that only
    asks a question: its one row, or its first row when the goal asks for the highest
    (lowest) and the query is ordered so; "" otherwise. A held-out task at 9a1aa10:
    "Which customer in orders.xlsx spent the most in total, and how much?" queried the
    totals per customer, highest first, then ran the query again and asked the user
    the same question twice."""
    if not asks_only_a_question(goal):
        return ""
    query = next((c for c in reversed(calls) if c.name == "table_query" and c.status == "done" and not c.error
                  and c.result and not (c.data or {}).get("repeat_of")), None)
    rows = _result_rows(query.result or "") if query is not None else []
    if not rows:
        return ""
    sql = str(query.arguments.get("sql", "")) if query is not None else ""
    order = re.search(r"\border\s+by\b(?P<by>.*)$", sql, re.IGNORECASE | re.DOTALL)
    desc = bool(order and re.search(r"\bdesc\b", order.group("by"), re.IGNORECASE))
    high, low = _HIGHEST.search(goal), _LOWEST.search(goal)
    if LOWER_BETTER.search(goal):  # "the best average ... Lower grades are better": the best is the lowest
        high, low = None, True
    if len(rows) > 1 and not (order and ((high and not low and desc) or (low and not high and not desc))):
        return ""
    mean = MEAN_OF_TWO.search(goal)
    if mean and not all(re.search(rf"\b{re.escape(mean.group(k))}\b", sql, re.IGNORECASE) for k in ("a", "b")):
        return ""  # a held-out task (RM) at 624b529: AVG(math) alone for "the best average of math and physics"
    return answer_to_copy(" ".join(c for c in rows[0] if c) + ".")


def rows_named_to_copy(answer: str, ev: Evidence) -> str:
    """"; the rows it names are those table_query returned, e.g. the answer to copy:
    ..." (see :func:`_query_answer`) when ``answer`` names the first cell of a row of
    the newest query ("" otherwise), for the refusal of numbers no tool result holds.
    csv_group_totals at ef38a30: the per-region totals queried right, then answered as
    "West: $21,744.40" (and three more so), told only to get numbers from a tool, the
    same answer sent again, and the task stalled."""
    labels = [row[0] for row in _newest_query_rows(ev) if len(row) > 1 and re.search(r"[^\W\d_]{2}", row[0])]
    if not any(re.search(rf"(?<![\w.]){re.escape(label)}(?!\w)", answer, re.IGNORECASE) for label in labels):
        return ""
    copy = _query_answer(ev)
    return f"; the rows it names are those table_query returned{copy}" if copy else ""


def _query_shown_not_its_rows(answer: str, ev: Evidence) -> str:
    """The doubt when ``answer`` to a question shows a query this task ran (see
    :func:`_query_ran`) and, outside its code, names no cell of any row the task's
    queries returned ("" otherwise). csv_group_totals at c14e080: the per-region
    totals queried right, then "you would use a SQL query like this:" and the
    query, no region or total, finished (its "ORDER BY 2" passed for a number)."""
    if not asks_only_a_question(ev.goal) or not _query_ran(answer, ev.calls):
        return ""
    cells = {cell.lower() for c in ev.calls if c.name == "table_query" and c.status == "done" and not c.error
             for row in _result_rows(c.result or "") for cell in row if len(cell) >= 2}
    prose = _SQL_ARGUMENTS.sub(" ", _CODE_BLOCK.sub(" ", answer)).lower()
    if not cells or any(re.search(rf"(?<![\w.]){re.escape(cell)}(?![\w])", prose) for cell in cells):
        return ""
    return ("the answer shows the query it ran but not what the query returned; answer with its rows"
            + (_query_answer(ev) or ", in plain sentences"))


def _shape_problem(answer: str, ev: Evidence) -> str:
    """Why ``answer`` is not shaped like an answer ("" when it is): a JSON object
    (Qwen 1.5B 'finished' with ```{"answer": "Paragraph numbers ... have changed."}```),
    or a reply whose last line announces what follows ("Here's the complete JSON object:").
    A JSON object is let through to the other checks once every file the goal asks
    for is written by this task: csv_top_customers at fbc3d9d wrote top3.csv right,
    then answered ``{"output": "top3.csv", "rows": [...]}`` twice and was handed
    back as stuck with its work done."""
    body = _unfenced(answer)
    json_object = _json_object(answer, ev)
    if json_object:
        return json_object
    denied = _files_denied(body, ev)
    if denied:
        return denied
    if _VAGUE_NOT_FOUND.match(body):  # calendar_list_day: "I could not find it." with the day's events listed
        return ("the answer says \"it\" was not found without saying what; say what you looked for, where, and "
                "what the tools showed")
    last = body.splitlines()[-1].strip() if body else ""
    if last.endswith(":"):
        return (f"the answer ends with {last[-60:]!r}, announcing something that never follows; give the result "
                "itself, or call the tool you meant to call")
    return ""


_ANSWER_KEYS = {"answer", "response", "result", "final_answer", "message", "reply", "text"}


#: a line that leads the answer in after the model's own steps ("The final answer in plain text is:")
# calendar_next_weekday at 04fe9b0: "If this completes the task, my final answer is:" after its own numbered steps
_FINAL_LEAD = re.compile(r"^[\W_]*(?:so,?\s+|therefore,?\s+|[^\n.:,]{3,60},\s*)?(?:the|my)?\s*final answer"
                         r"(?:\s+(?:in plain text|for the user))?(?:\s+is)?\s*:[*_]*\s*(?P<rest>\S.*)\Z",
                         re.IGNORECASE | re.MULTILINE | re.DOTALL)


_BOXED = re.compile(r"(?:\\\[|\\\()?\s*\\boxed\{(?P<value>[^{}\n]{1,200})\}\s*(?:\\\]|\\\))?")


def unwrap_answer(text: str) -> str:
    """The text of an answer wrapped in a one-key JSON object
    (``{"response": "The file is home/garden.txt."}``, fenced or not; Qwen 1.5B
    answers so), or led in by a line "The final answer is:" after the model's own
    steps (what follows it, fences aside), else ``text`` unchanged. The unwrapped
    text is checked as usual.

    Lines that imitate a data fence (``<<UNTRUSTED ...>>``, ``<<END_UNTRUSTED ...>>``,
    the data notice) are taken out first: docx_lookup at b5a954c answered "The total
    monthly rent is EUR 1,450." between two copied fence lines, was refused for the
    marker, and the task ended on a question to the user."""
    if _FENCE_LINE.search(text):
        text = "\n".join(ln for ln in text.splitlines() if not _FENCE_LINE.match(ln.strip())).strip()
    # pdf_number_lookup at 04fe9b0: "\[\n\boxed{3.4}\n\]" as the whole answer; docx_lookup: "... is \(\boxed{1450}\)."
    text = _BOXED.sub(lambda m: m.group("value").strip(), text).strip() if "\\boxed{" in text else text
    kept = [ln for ln in text.splitlines() if not VACUOUS_NEXT.match(ln)]
    if len(kept) < len(text.splitlines()) and "".join(kept).strip():  # "I will now proceed to the next step."
        text = "\n".join(kept).strip()
    led = _FINAL_LEAD.search(text)
    if led:  # pdf_number_lookup at 21c8a9e: four planned steps naming pdf_read, then "The final answer in plain
        # text is:" and the answer fenced: what follows the lead is the answer
        rest = "\n".join(ln for ln in led.group("rest").strip().splitlines() if not ln.strip().startswith("```"))
        text = rest.strip() or text
    body = "\n".join(ln for ln in text.strip().splitlines() if not ln.strip().startswith("```")).strip()
    rows = _flat_objects(body)
    if rows:  # csv_group_totals at 04fe9b0: the query's four rows as four JSON objects, region and total on other lines
        return "\n".join(", ".join(f"{k}: {v if isinstance(v, str) else json.dumps(v)}" for k, v in row.items())
                         for row in rows)
    if not body.startswith("{"):
        return text
    try:
        obj = json.loads(body)
    except ValueError:
        cut = _CUT_ANSWER_OBJECT.fullmatch(body)  # docx_append_paragraph at 04fe9b0: '{\n"answer": "..."', no "}"
        if cut and cut.group("key").lower() in _ANSWER_KEYS:
            try:
                return str(json.loads(f'"{cut.group("value")}"')).strip() or text
            except ValueError:
                return text
        return text
    if isinstance(obj, dict) and len(obj) == 1:
        key, value = next(iter(obj.items()))
        if str(key).lower() not in _ANSWER_KEYS:
            return text
        if isinstance(value, str) and value.strip():
            return value.strip()
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
        if isinstance(value, dict) and value and all(isinstance(v, (str, int, float)) for v in value.values()):
            # xlsx_total at fbc3d9d: {"result": {"sum(Amount)": 389.9}}, refused as a JSON object
            return "; ".join(f"{k}: {v}" for k, v in value.items())
    return text


_CUT_ANSWER_OBJECT = re.compile(r'\{\s*"(?P<key>\w+)"\s*:\s*"(?P<value>(?:[^"\\\n]|\\.)+)"\s*,?\s*')


def _flat_objects(body: str) -> list[dict]:
    """The rows of ``body`` when it is two or more flat JSON objects of plain values, one
    after another or in an array (``{"region": "West", "sum(amount)": 2174.40} {...}``),
    with numbers as written; [] otherwise."""
    if not body.startswith(("{", "[")):
        return []
    decoder, rows, at = json.JSONDecoder(parse_float=str, parse_int=str), [], 0
    try:
        while at < len(body):
            obj, at = decoder.raw_decode(body, at)
            rows += obj if isinstance(obj, list) else [obj]
            at = len(body) - len(body[at:].lstrip().lstrip(",").lstrip())
    except ValueError:
        return []
    flat = all(isinstance(r, dict) and r and all(isinstance(v, (str, bool)) or v is None for v in r.values())
               and not any(k in _CALL_KEYS and _TOOL_NAME.match(str(v)) for k, v in r.items()) for r in rows)
    return rows if len(rows) >= 2 and flat else []


_CALL_KEYS = frozenset({"name", "tool", "function", "action"})
_TOOL_NAME = re.compile(r"^[a-z]+(?:_[a-z]+)+$")  # {"name": "read_file", "path": "a.txt"}: a call, not a row


def _holds_marker(answer: str, ev: Evidence) -> str:
    """The doubt when ``answer`` holds the random marker of a data fence of this task's
    results ("" otherwise). pdf_page_count at 36d1140: Qwen 1.5B answered
    "20e06036e1670925" (the fence's marker) twice."""
    marker = next((m for c in ev.calls for m in _FENCE_ID.findall(c.result or "") if m in answer), "")
    return (f"the answer holds {marker}, the random marker that fences the data, which no document says; answer "
            "with what the tool results say, in plain sentences") if marker else ""


def restates_request(answer: str, goal: str) -> bool:
    """True when ``answer`` is the user's request said back: it starts with the goal's
    first word (after an optional "To") and nearly all its words are the goal's, in
    order. files_organise at 21c8a9e: "To sort the files in the inbox folder into
    subfolders of inbox named after their file extension: ..." was the answer. A report
    ("The files in the inbox are sorted into ...") starts otherwise."""
    said, asked = (re.findall(r"\w+", t.lower()) for t in (answer, goal))
    if said[:1] == ["to"] and asked[:1] != ["to"]:
        said = said[1:]
    if len(said) < 6 or not asked or said[0] != asked[0]:
        return False
    shared = sum(b.size for b in difflib.SequenceMatcher(None, said, asked, autojunk=False).get_matching_blocks())
    return shared / len(said) >= 0.85


def not_an_answer(answer: str, ev: Evidence) -> str | None:
    """Why a plain-text reply is no answer at all (call-like markup, a tool named
    by its identifier, the harness's own words), or None. The loop treats such a
    reply as a format error, so it does not spend the one retry a doubted answer
    gets: Qwen 1.5B read the lease, then replied with the harness's "Not run again: ..."
    note, and its next, real attempt was handed off."""
    markup = markup_problem(answer, ev.tool_names, _ran(ev.calls))
    if markup:
        return markup
    marker = _holds_marker(answer, ev)
    if marker:
        return marker
    if echoes_harness(answer, ev.harness_texts, data_texts=_results(ev.calls)):
        return ("the reply repeats the harness's message instead of answering; answer with what you found, "
                "or call a tool")
    if restates_request(answer, ev.goal):
        return ("the reply restates the task instead of answering; say what the tools did and found, or what you "
                "could not do, or call a tool")
    # a bare JSON object is a call gone wrong more often than an answer: csv_top_customers at b5a954c wrote
    # {"args": {"sql": ..., "rows": [...]}} (the csv_write it was told to make) and, as a doubted answer, it spent
    # the one retry; the real answer after it was handed off
    return _json_object(answer, ev) or None


_ASKS_A_LISTING = re.compile(r"^\s*(what('s| is| are)|which|list|show|tell me)\b.{0,60}\b(on|in) my (calendar|"
                             r"schedule|agenda)\b|^\s*(list|show)( me)? my (events|meetings|appointments)\b",
                             re.IGNORECASE)
#: tools whose whole result is the answer to a question asking for that listing
_LISTING_TOOLS = frozenset({"calendar_list_events"})


def _copied_result(answer: str, calls: Sequence[CallRecord], goal: str = "") -> str:
    """The tool whose whole result ``answer`` repeats ("" when none): files_find's
    answer to "which file is it?" was the list_dir listing it had just got, where
    the file was not even shown. A change's own report copied is an account of what
    was done, and passes: calendar_next_weekday at b5a954c answered with "Added: Wed
    2026-12-09 14:30-15:15 Budget review ..." twice and was handed off, its event right.
    So does the day's listing for a ``goal`` asking what is on the calendar
    (calendar_list_day at 80595a7: "What's on my calendar on 2026-12-07?" answered with
    the two events calendar_list_events listed, handed off as a copy)."""
    said = " ".join(re.sub(r"```[\w-]*", " ", answer).split())  # fenced or not (a held-out task at 0434cf0)
    if len(said) < 60:
        return ""
    for c in calls:
        if c.status != "done" or c.error or not c.result or (c.risk or "read") != "read":
            continue
        if c.name in _LISTING_TOOLS and _ASKS_A_LISTING.search(goal):
            continue
        body = _FENCE_LINE.sub("", c.result)
        if sum(1 for ln in body.splitlines() if ln.strip()) < 3:  # a one-line fact copied is an answer
            continue
        got = " ".join(body.split())
        if said in got and len(said) >= 0.8 * len(got):
            return c.name
    return ""
