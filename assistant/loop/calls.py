"""Running one tool call: validate -> policy -> journal "started" -> execute ->
journal "done" -> observation.

Every transition is committed before the next action, so after a crash the
journal says exactly where each call was. Errors of any kind become results
the model reads; nothing here raises into the loop.
"""

from __future__ import annotations

import fnmatch
import itertools
import json
import os
import re
from datetime import date as _date
from pathlib import Path
from typing import Any, Callable, Generator, Iterator, Sequence

from pydantic import ValidationError

from tools.base import RiskClass, Tool, ToolContext, ToolRegistry, ToolResult, format_validation_error
from tools.files.writing import RENAME_LIKE, RENAME_ONE
from tools.untrusted import fence

from ..infra import faults
from ..events import ApprovalRequested, Event, ToolCallFinished, ToolCallStarted
from ..state.models import CallRecord, ChangeEntry
from ..state.session import TaskSession
from .ambiguity import AMBIGUOUS_KEY, EDITS_EXISTING, ambiguous_target
from .answer_form import answer_to_copy, query_answer_to_copy
from .ending import touched_paths
from .evidence import NOT_READING, _LOWEST, _NUMBER, _data_of, asks_only_a_question, goal_files, made_paths, \
    norm_path, number_problems, result_gist, shown_for_model
from .dates_said import clock_times, date_after, date_after_answer, dates_in, day_count_answer
from .figures import AVERAGE, SAME_VALUE, TABLE_FILES, compared_tables, document_sum, same_value_query, statistic_of, \
    total_check
from .table_goal import _ID_COLUMN, _quoted, ROW_EXTREME, SUMMED, goal_filters, goal_value, is_number, month_filter, \
    number_column, row_filter, sort_order, split_outputs, two_values, PERCENT_CHANGE, percent_change, column_change, \
    overdue_query, OVERDUE, combined_columns, lowest_wanted, row_mean_columns, goal_values, value_counts_query, \
    range_query, nth_ranked, column_comparison, group_bound, weekday_ranking, sums_to, RUNNING, running_total, \
    HOURS_ASKED, hours_worked, NO_ROWS_MONTH, months_without_rows, EMPTY_COUNT, empty_count, \
    REPEATS_ASKED, repeated_values, percent_on_total, SIGN_MISSING, sign_missing, mean_ranking, LENGTH_EXTREME, \
    length_extreme, nth_common, step_change
from .extracted import extraction_asked, extraction_wrong
from .file_facts import empty_files, file_extreme
from .finish import undoable_verb
from .numbers import normalise_number
from .history import truncate_observation
from .keyed_update import keyed_update_asked, keyed_update_text
from .named_files import _EVERYWHERE as _ALL_SAID, change_everywhere, change_places, checkbox_to_tick, grep_call, \
    column_edit, item_to_add, line_to_insert, lines_to_keep, lines_to_remove, open_items, pointed_paragraph, \
    read_view, text_change, text_count, unread_inputs, rewritten_lines, rewrite_asked, replace_every, original_text, \
    removed_from, SHIFT_ASKED, COLUMN_MOVE_ASKED, markdown_table_asked, markdown_table, derived_file, \
    LINE_MOVE_ASKED, addend, ragged_row
from .policy import decide
from .preread import PREREAD_STEP
from .prompt import today_line
from .recap import PENDING_NOTE, call_to_copy, calls_to_copy_in, changed_so_far, next_call_to_copy
from .stuck import signature
from .toolgroups import ALREADY_LOADED, GROUPS, WRITER_OF, initial_groups, loaded_groups, unasked_groups
from .written import ASKS_A_SHEET, SHEET_NAMED, SORT_BY_TYPE, asked_count, asked_texts, cell_to_change, column_cells, \
    column_sum, column_to_add, csv_row_to_add, files_to_delete, goal_columns, goal_folder, headings_asked, \
    headings_text, row_to_add, store_goal, summary_lacks, summary_points, summary_too_long, copies_whole_source, \
    leaves_out_listed, listed_call, row_gap, heading_asked, heading_line, same_cell_value, table_cells, typo_asked, \
    merge_of_goal, csv_column_text, plain_conversion, total_row_next, TOTAL_ROW, nth_section, event_move_asked, \
    event_cancel_asked, files_list_asked, files_list_text, text_copy

_NOT_FOUND = re.compile(r"\bnot found: |\bfile not found\b|\bno such file\b|\bdoes not exist\b|"
                        r"\bpath is outside the workspace\b|^no files match\b", re.IGNORECASE)
# a missing file or folder ("not found: notes"), not a missing text ("text not found in paragraph 2"); a path
# outside the workspace too (files_rename_pattern: /tmp/bench-x/photos for the workspace's photos folder)
_FILES_SHOWN = "What the workspace holds:"
_HARNESS_CALLS = ("ask_human", "use_tools", "finish", "update_plan")
#: why a tool group asked for with use_tools is not loaded (toolgroups.unasked_groups)
_UNASKED = "the task does not ask for it, and no file of the workspace is of that kind"
FAILED_AGAIN_KEY = "failed_again"
"""``CallRecord.data`` key: the id of the identical earlier call that failed the same way (:meth:`CallRunner.failed_before`)."""
OTHER_TOOL_KEY = "points_elsewhere"
"""``CallRecord.data`` key: True when the next turn goes without the call's tool: such a repeated failure's
result names another tool to use instead, or the change it would make is already made."""
NOTHING_NEW_KEY = "loaded_nothing_new"
#: a refusal because the change the call would make is already made ("Not run: step 2 already added this ...")
_ALREADY_DONE = re.compile(r"Not run: step \d+ already (added|changed)\b")
QUESTION_ONLY_KEY = "question_only"
"""``CallRecord.data`` key: True on a change refused because the task only asks a question (the tool is left out
of the task's later constrained turns)."""
#: the tools that make a new file at their ``path``
_MAKERS = frozenset({"write_file", "xlsx_write", "docx_create", "csv_write"})
#: a goal that only changes what exists: its first word a change, and (``_MAKING``) no word of making anything
_CHANGE_ONLY = re.compile(r"^\W*(please\s+)?(updat|chang|edit|fix|correct|amend|modif|revis)\w*\b", re.IGNORECASE)
_MAKING = re.compile(r"\b(creat\w*|new|make|makes|made|sav\w*|writ\w*|wrote|cop(y|ies)|export\w*|draft\w*|"
                     r"generat\w*|produc\w*|summar\w*|reports?|memo|file)\b", re.IGNORECASE)
#: a goal's words that ask to move, rename or delete files: without them, the files it names to read from stay put
#: a goal that only renames or moves files, and words that ask for a change of their contents too
#: a goal that only renames or moves files; not one that renames something inside a file ("Rename the column Cost
#: to Price in items.csv": XN at 0958b96 had its write refused as a change to a file it should only rename)
_ONLY_MOVES = re.compile(r"^\W*(?:please\s+)?(?:rename|move)\b(?!\s+(?:the\s+|a\s+)?(?:column|header|heading|sheet|tab|"
                         r"field|section|title|row|key|label)s?\b)", re.IGNORECASE)
_CONTENT_CHANGE = re.compile(r"\b(edit|chang|updat|writ|add|replac|fix|correct|insert|append|fill|translat)\w*",
                             re.IGNORECASE)
_MOVING_GOAL = re.compile(r"\b(mov(e|es|ing)|renam\w*|delet\w*|remov\w*|organi[sz]\w*|sort\w*|tid(y|ies)|clean\w* up"
                          r"|archiv\w*|trash\w*|folders?|back(ed)? ?up)\b", re.IGNORECASE)
_SHOW_AGAIN_CHARS = 6000
_QUOTE_AGAIN_CHARS = 400  # a repeated read's result short enough to quote in the "Not run again" note
"""A file the harness read before step 1, asked for again by the model, is shown again up to this size."""
_TABLE_WRITES = ("xlsx_write", "xlsx_add_sheet", "xlsx_append_rows", "csv_write")
_PROSE_WRITES = ("docx_create", "docx_insert", "docx_replace", "write_file", "edit_file")
_PATH_ARGS = frozenset({"path", "src", "dest", "output", "source", "target", "file", "from_csv", "sheet", "folder"})


#: a code: a word of letters and two or more digits ("INV-3456", "B12", "HP-2026-0417"), not a plain number
_CODE = re.compile(r"(?<![\w-])(?=[\w-]*[A-Za-z])(?=[\w-]*\d\d)[A-Za-z0-9][\w-]*[A-Za-z0-9](?![\w-])")
#: an ordinal, a time or a unit after a number ("2nd", "10am", "5pm", "30min", "5kg", "3x"), a version ("v2")
_NOT_A_CODE = re.compile(r"\d+(?:st|nd|rd|th|am|pm|h|hrs?|m|min|mins|s|sec|kg|g|km|m2|cm|mm|ml|l|x|k|kb|mb|gb|"
                         r"px|pt|d|w|y)|v\d+(?:\.\d+)*|[a-z]{1,3}\d", re.IGNORECASE)


def _strings(args: Any, key: str = "") -> Iterator[tuple[str, str]]:
    """Every string in a call's arguments, with the key it is under (nested lists and objects too)."""
    if isinstance(args, str):
        yield key, args
    elif isinstance(args, dict):
        for k, v in args.items():
            yield from _strings(v, str(k))
    elif isinstance(args, list):
        for v in args:
            yield from _strings(v, key)


# "add up to", "altogether", "combined": a held-out task at 6532d5d ("Which invoices in invoices.csv are unpaid, and
# what do they add up to?") got no hint, added the amounts by hand, and listed paid invoices with the unpaid
_AGGREGATE = re.compile(r"\b(sort|sorted|total\w*|sum(?!mar)\w*|average\w*|mean|median|most|top|highest|lowest|largest|"
                        r"smallest|count\w*|"
                        r"percent\w*|per cent|share|proportion|"
                        r"adds? up|added up|altogether|combined|how much|spen[dt]|"
                        r"how many|per(?!\s+line)|by (region|month|category|customer|vendor|department))\b",
                        re.IGNORECASE)


def changing_tools(registry: ToolRegistry) -> set[str]:
    """Names of the tools in ``registry`` whose every call writes, moves or deletes
    (:attr:`Tool.changes_files`), harness calls aside: what a task that only asks a
    question may not call. A tool whose risk depends on its arguments (xlsx_recalc
    saves only when asked) is not among them."""
    return {t.name for t in registry if t.changes_files and t.name not in _HARNESS_CALLS}


_LOAD_ADVICE = re.compile(r" ?\(if it is not in your tools, call use_tools with groups \[\"(\w+)\"\] first\)")

__all__ = ["CallRunner", "APPROVAL_CHOICES", "IN_FLIGHT_CHOICES"]

APPROVAL_CHOICES = ["once", "task", "deny"]
IN_FLIGHT_CHOICES = ["once", "deny"]

Gen = Generator[Event, None, bool]


def _jsonable(data: Any) -> Any:
    if data is None:
        return None
    return json.loads(json.dumps(data, default=str))


def _short_args(arguments: dict[str, Any], n: int = 160) -> str:
    text = json.dumps(arguments, ensure_ascii=False, default=str)
    return text if len(text) <= n else text[: n - 1] + "…"


#: a goal asking for a copy of one file under a new name: "Make a copy of report.docx called report_backup.docx",
#: "copy notes.txt to notes-old.txt", "duplicate plan.xlsx as plan-v2.xlsx"
COPY_ASKED = re.compile(r"\b(?:(?:make|create|save)\s+a\s+copy\s+of|copy|duplicate)\s+[`'\"]?(?P<src>[\w./-]+\.\w{1,5})"
                        r"[`'\"]?\s+(?:and\s+)?(?:call(?:ed)?(?:\s+it)?|name(?:d)?(?:\s+it)?|as|to|into)\s+[`'\"]?"
                        r"(?P<dest>[\w./-]+\.\w{1,5})\b", re.IGNORECASE)


class CallRunner:
    """Drives the calls of one task session.

    Args:
        session: the task being driven.
        registry: the tools.
        ctx: the tool context (workspace, task id, config).
        observation_chars: cap on an observation's length (characters).
        next_step: ``() -> str``, the plan's next step ("" when there is no plan),
            named when a repeated read is answered from the journal.
        loaded_note: ``groups -> str``, the schemas of the tools a ``use_tools``
            call loads, added to its observation (so they arrive after the
            history and the prompt's beginning stays cached).
        extra_tools: tools of the harness outside the registry (``update_plan``),
            run like registry tools.
    """

    def __init__(self, session: TaskSession, registry: ToolRegistry, ctx: ToolContext, observation_chars: int,
                 *, next_step: Callable[[], str] = lambda: "",
                 loaded_note: Callable[[list[str]], str] = lambda groups: "",
                 extra_tools: Sequence[Tool] = ()) -> None:
        self.s = session
        self.registry = registry
        self.ctx = ctx
        self.observation_chars = observation_chars
        self.next_step = next_step
        self.loaded_note = loaded_note
        self.current: CallRecord | None = None
        self.extra_tools = {t.name: t for t in extra_tools}

    # -- journal of side effects (Workspace.on_change) -----------------------
    def on_change(self, record: Any) -> None:
        """Journal one workspace change of the running call (own transaction)."""
        call = self.current
        data = record.to_dict()
        summary = self.s.task.summary
        for path in (data.get("path"), data.get("dest")):
            if path and path not in summary.files_touched:
                summary.files_touched.append(path)
        entry = ChangeEntry(call_id=call.id if call else "", step=call.step if call else 0, record=data)
        self.s.commit(changes=[entry])
        faults.crash_point("change")

    # -- outcomes -------------------------------------------------------------
    def finish(self, call: CallRecord, result: ToolResult, status: str | None = None, *, after: str = "") -> Gen:
        """Record the result and its observation in one transaction; ``after`` (the
        harness's own words) goes on a line after the result and outside its fence."""
        text = truncate_observation(result.text, self.observation_chars, call.name)
        text = self._drop_loaded_advice(text) if result.error else text
        text = _redact(text)  # a secret read by a tool never reaches the model, the DB or a transcript
        if call.name == "use_tools" and not result.error:
            note = self.loaded_note(list((result.data or {}).get("tool_groups") or call.arguments.get("groups") or []))
            text = f"{text}\n{note}" if note else text
            if note.startswith(ALREADY_LOADED):  # nothing new: the next turn is constrained without use_tools
                # (files_merge_todos at 62f6d46: the loaded excel group loaded three times, a step each)
                result = ToolResult(text=result.text, error=False, data={**(result.data or {}), NOTHING_NEW_KEY: True})
                # multistep_invoices_memo at db466c8: the excel group loaded again after write_file was refused,
                # then a file not there read: the call that the refusal gave was the one the task needed
                told = self._with_pending(text)
                text = told if told != text else f"{text}{self._output_to_make()}"
        if result.untrusted:
            data = result.data or {}
            source = str(data.get("source") or data.get("url") or data.get("path") or call.name)
            text = fence(text, self.s.task.marker, source)
        hint = self._asked_done_note(call, result) \
            or self._insert_line_hint(call, result) or self._kept_lines_hint(call, result) \
            or self._column_edit_hint(call, result) \
            or self._next_split_hint(call, result) \
            or self._sheet_totals_hint(call, result) \
            or self._column_hint(call, result) or self._markdown_table_hint(call, result) \
            or self._derived_hint(call, result) or self._keyed_update_hint(call, result) \
            or self._table_hint(call, result) or self._rename_hint(call, result) \
            or self._sort_hint(call, result) or self._sorted_lines_hint(call, result) \
            or self._files_list_hint(call, result) or self._rewrite_hint(call, result) \
            or self._count_hint(call, result) or self._days_hint(call, result) or self._copy_hint(call, result) \
            or self._total_check_hint(call, result) or self._text_copy_hint(call, result) \
            or self._file_extreme_hint(call, result) \
            or self._cannot_hint(call, result) or self._edit_hint(call, result) or self._tick_hint(call, result) \
            or self._open_items_hint(call, result) \
            or self._insert_hint(call, result) or self._convert_hint(call, result) or self._row_hint(call, result) \
            or self._total_row_hint(call, result) or self._csv_row_hint(call, result) \
            or self._headings_hint(call, result) or self._sections_hint(call, result) or self._item_hint(call, result) \
            or self._remove_hint(call, result) \
            or _sheet_hint(call, result)
        # the harness's words: after the fence, never inside it; once (a read shown again holds its note: RJ)
        text = f"{text}\n{hint}" if hint and hint not in text else text
        text = f"{text}\n{after}" if after else text
        ran = (self._copy_already_ran(text) or self._renamed_already(call)) if result.error else ""
        text = f"{text}\n{ran}" if ran else text
        pending = self._pending_for_path(call) if result.error and not hint and "(harness note at" not in text else ""
        text = f"{text}\nThe call to copy: {pending.split(': ', 1)[1]}" if pending else text  # no step: the same
        # failure reads the same (failed_before)
        again = self.failed_before(call, text) if result.error else None
        call.result = text
        call.error = bool(result.error)
        call.data = _jsonable(result.data)
        if result.error and _ALREADY_DONE.match(text):
            # the work this call would do is done: the next turn goes without its tool (docx_append_paragraph at
            # c3438bd: the paragraph added at step 1, the same docx_insert sent three more times, refused each time)
            call.data = {**(call.data or {}), OTHER_TOOL_KEY: True}
        if again is not None:  # the next turn is constrained (agent.py), as after a repeat
            call.data = {**(call.data or {}), FAILED_AGAIN_KEY: again.id}
            if self._names_another_tool(call.name, text):  # and without this tool: its error pointed elsewhere
                call.data[OTHER_TOOL_KEY] = True
            call.result = text = (f"{text}\n(This exact {call.name} call failed the same way at step {again.step}; "
                                  "sent again unchanged it fails again. Change what you pass, use another tool, or "
                                  "give your final answer.)")
        call.status = status or ("error" if result.error else "done")
        self.s.task.usage.tool_calls += 1
        obs = self.s.new_message("tool", text, kind="observation", name=call.name, tool_call_id=call.id)
        obs.step = call.step
        self.s.commit(messages=[obs], calls=[call])
        faults.crash_point("call_done")
        yield ToolCallFinished(call=call.brief(), result=text, error=call.error, data=call.data)
        return False

    def _output_to_make(self) -> str:
        """" invoices.xlsx, which the task asks for, is not there yet: xlsx_write makes it."
        for the first output of the goal that does not exist and has a known writer; ""
        otherwise. multistep_invoices_memo at 32b6916: the loaded excel group loaded
        again at step 1, then xlsx_info on the workbook still to be made."""
        ws = getattr(self.ctx, "workspace", None)
        for rel in goal_files(self.s.task.goal)[0]:
            writer = WRITER_OF.get(os.path.splitext(rel)[1].lower())
            try:
                missing = ws is not None and not ws.exists(rel)
            except Exception:  # noqa: BLE001 - outside the workspace: no hint
                missing = False
            if writer and missing and writer in self.registry:
                return f"\n{rel}, which the task asks for, is not there yet: {writer} makes it."
        return ""

    def _with_pending(self, msg: str) -> str:
        """``msg`` and, on a line after it, the pending call to copy (:func:`next_call_to_copy`), if any."""
        pending = next_call_to_copy(self.s.calls, self.s.messages)
        return f"{msg}\n{PENDING_NOTE} {pending})" if pending else msg

    def _pending_for_path(self, call: CallRecord) -> str:
        """The pending call to copy ('step N: call NAME with {...}') when it writes the
        file a failed write call of another tool aimed at, else "". csv_top_customers at
        8459f99: the csv_write of top3.csv to copy was given, then write_file sent the
        query's '|' table to top3.csv (refused), and the next try lost the task's header."""
        path = call.arguments.get("path")
        if not isinstance(path, str) or (call.risk or "read") not in ("write", "destructive"):
            return ""
        pending = next_call_to_copy(self.s.calls, self.s.messages)
        m = re.search(r": call (\w+) with (\{.*\})$", pending)
        try:
            args = json.loads(m.group(2)) if m else {}
        except json.JSONDecodeError:
            return ""
        if not m or m.group(1) == call.name or norm_path(str(args.get("path", ""))) != norm_path(path):
            return ""
        return pending

    def _cannot_hint(self, call: CallRecord, result: ToolResult) -> str:
        """After a successful read-only call in a task whose verb no tool can do ("Send
        the budget to my manager") and that asks for no file, the ``ask_human`` call to
        copy, naming the workspace files the goal's words point at ("" otherwise, and
        once the user was asked). handoff_send_budget at 9fda44c: Qwen 1.5B loaded
        three tool groups, listed the folder twice, read the budget with two tools and
        ran out of time without asking."""
        s = self.s
        if result.error or call.risk != RiskClass.READ.value or call.name == "ask_human" or goal_files(s.task.goal)[0] \
                or any(c.name == "ask_human" for c in s.calls):
            return ""
        verb = undoable_verb(s.task.goal, [*self.registry.names(), *self.extra_tools])
        if not verb:
            return ""
        words = {w for w in _content_words(s.task.goal) if len(w) > 3}
        ws = getattr(self.ctx, "workspace", None)
        try:
            import itertools

            entries = list(itertools.islice(ws.walk(".", max_depth=2), 200)) if ws is not None else []
        except Exception:  # noqa: BLE001 - only a hint
            entries = []
        found = [e.path for e in entries if e.kind == "file"
                 and words & {w for w in re.split(r"[\W_]+", e.path.lower()) if len(w) > 3}][:3]
        seen = f" I found {', '.join(found)}." if found else ""
        question = f"I cannot {verb} it: no tool here can {verb}.{seen} How would you like me to go on?"
        return (f"Note: the task asks to {verb}, and no tool here can {verb}; only the user can say how it should be "
                f"done. Call ask_human with {json.dumps({'question': question})}")

    def _convert_hint(self, call: CallRecord, result: ToolResult) -> str:
        """The ``xlsx_write`` call (``from_csv``) to copy after a read of the CSV file a
        goal asks to make an .xlsx of ("Convert contacts.csv into an Excel file
        contacts.xlsx"), or after an xlsx tool failed on that CSV; "" otherwise, and once
        the .xlsx exists. csv_to_xlsx at 0cfab8b: Qwen 1.5B, the CSV read for it, called
        xlsx_info on contacts.csv twice and finished with "you would need to use a tool
        like Microsoft Excel"."""
        outputs, inputs = goal_files(self.s.task.goal)
        books = [p for p in outputs if p.lower().endswith(".xlsx")]
        csvs = [p for p in inputs if p.lower().endswith((".csv", ".tsv"))]
        path = call.arguments.get("path")
        if not books or not csvs or not isinstance(path, str) or norm_path(path) != norm_path(csvs[0]):
            return ""
        read = not result.error and call.name in ("read_file", "csv_read")
        if not (read or (result.error and call.name.startswith("xlsx_"))):
            return ""
        if (Path(self.s.task.workspace) / books[0]).exists():
            return ""
        args = {"path": books[0], "from_csv": csvs[0]}
        then = " The total row goes under them after." if TOTAL_ROW.search(self.s.task.goal) else ""
        return f"Note: to make {books[0]} from {csvs[0]} (all its rows, header first), call xlsx_write with " \
               f"{json.dumps(args)}{then}"

    def _total_row_hint(self, call: CallRecord, result: ToolResult) -> str:
        """After an ``xlsx_write`` to the workbook a goal asks a total row in ("Turn
        data.csv into an Excel file data.xlsx with a total row at the bottom for qty"),
        the next call to copy (:func:`written.total_row_next`): ``from_csv`` while the
        workbook lacks the CSV's columns, then the total row; "" otherwise, and once the
        row is there. A held-out task (MG) at a367559: data.xlsx written from a GROUP BY
        query (price lost), no total row, and "added a total row" answered."""
        path = call.arguments.get("output") or call.arguments.get("path")
        if result.error or call.name != "xlsx_write" or not isinstance(path, str):
            return ""
        outputs, inputs = goal_files(self.s.task.goal)
        if norm_path(path) not in {norm_path(p) for p in [*outputs, *inputs]}:
            return ""
        need = total_row_next(self.s.task.goal, self.s.task.workspace, path)
        if need is None:
            return ""
        if need[0] == "columns":
            return (f"Note: {path} lacks columns of {need[1]['from_csv']}; to write all its rows and columns, header "
                    f"first, {call_to_copy('xlsx_write', need[1])}. The total row goes under them after.")
        return f"Note: the task asks for a total row; to add it under the data, {call_to_copy('xlsx_write', need[1])}."

    def _copy_hint(self, call: CallRecord, result: ToolResult) -> str:
        """The ``copy`` call to copy after a read of the file a goal asks a copy of ("Make a
        copy of report.docx called report_backup.docx"), or after a call on the copy's name
        failed; "" otherwise, and once the copy exists. A held-out task at 9a1aa10: the
        document read for it, docx_create on report_backup.docx with blocks it could not
        give, then the user asked which blocks to write."""
        m = COPY_ASKED.search(self.s.task.goal)
        path = call.arguments.get("path")
        if m is None or self.registry.get("copy") is None or not isinstance(path, str):
            return ""
        src, dest = m.group("src"), m.group("dest")
        if Path(src).suffix.lower() != Path(dest).suffix.lower():  # "copy letter.docx into letter.txt": a conversion
            return ""
        if not ((not result.error and norm_path(path) == norm_path(src))
                or (result.error and norm_path(path) == norm_path(dest))):
            return ""
        ws = Path(self.s.task.workspace)
        if (ws / dest).exists() or not (ws / src).is_file():
            return ""
        return f"Note: to make {dest} a copy of {src}, {call_to_copy('copy', {'src': src, 'dest': dest})}"

    def _drop_loaded_advice(self, text: str) -> str:
        """``text`` without "(if it is not in your tools, call use_tools with groups
        ["g"] first)" when group g is loaded already. A tool does not know the
        task's groups; Qwen 1.5B, told this after read_file on a .xlsx with the
        excel group loaded, called use_tools again (a step) in 4 runs."""
        def keep(m: re.Match[str]) -> str:
            loaded = loaded_groups(self.s.task.tool_groups, self.s.calls)
            return "" if m.group(1) in loaded else m.group(0)

        return _LOAD_ADVICE.sub(keep, text)

    def _table_hint(self, call: CallRecord, result: ToolResult) -> str:
        """A pointer to ``table_query`` after a table was read whole in a task that
        asks for totals, counts or rankings ("" otherwise). Qwen 1.5B read
        orders.csv with read_file for a top-3 task, then tried xlsx_info on it
        and ran out of steps; with table_query it got group totals right at once."""
        if not result.error and call.name == "table_query":
            if (result.data or {}).get("repeat_of"):  # the note of a repeat gives its own hints; its data has no rows
                # (csv_top_customers at 04fe9b0: "this query returned 0 rows" under a repeat of a 3-row query)
                return ""
            return self._unfiltered_hint(call) or self._short_ranking(call, result.data or {}) \
                or self._save_hint(result.data or {}, str(call.arguments.get("sql", "")))
        if result.error or call.name not in ("read_file", "csv_read", "xlsx_read", "docx_read", "pdf_read"):
            return ""
        if self.registry.get("table_query") is None or plain_conversion(self.s.task.goal):
            # a held-out task (MG) at a367559: "Turn data.csv into ... data.xlsx with a total row": a GROUP BY
            # hinted, its rows saved as data.xlsx (price lost); the conversion's own hint gives from_csv
            return ""
        path = str(call.arguments.get("path", ""))
        listed = document_sum(self.s.task.goal, path, result.text) if not (path.lower().endswith(".docx") and (
            self._tables_of(path)[2])) else None  # a Word table is table_query's own table
        if listed is not None:  # a held-out task at a6267c9: the first of three invoices' amounts given as the total
            return (f"Hint: to add up the {len(listed[1])} amounts {listed[0]} lists, call table_query with "
                    f"{_sql_args(listed[2])}. Never add numbers up by hand.")
        if not path.lower().endswith(TABLE_FILES):
            return ""
        compared = compared_tables(self.s.task.goal, self.s.task.workspace) \
            if path.replace("\\", "/").rsplit("/", 1)[-1].lower() in self.s.task.goal.lower() else None
        if compared is not None:  # a held-out task at 1de0702: "in both" answered with a name of one file only
            return (f"Hint: for the values {compared.said}, call table_query with {_sql_args(compared.sql)}. Never "
                    "compare lists by eye.")
        outputs = [o for o in goal_files(self.s.task.goal)[0]
                   if o.lower().endswith((".csv", ".tsv", ".xlsx", ".txt", ".md")) and norm_path(o) != norm_path(path)]
        goal = self.s.task.goal
        tables, rel, mine = self._tables_of(path) if _AGGREGATE.search(goal) or _BOUND_SAID.search(goal) \
            or OVERDUE.search(goal) or _AGE.search(goal) or SAME_VALUE.search(goal) or _TIMES.search(goal) or outputs \
            or RUNNING.search(goal) or HOURS_ASKED.search(goal) or NO_ROWS_MONTH.search(goal) \
            or EMPTY_COUNT.search(goal) or REPEATS_ASKED.search(goal) or SIGN_MISSING.search(goal) \
            or LENGTH_EXTREME.search(goal) \
            else ([], path, [])
        late = next((q for t in mine if (q := overdue_query(t, self.s.task.goal))), "")
        if late:  # a held-out task at a8fdd03: "Which invoices in invoices.csv are overdue?" grepped for "unpaid"
            return f"Hint: for the rows past their due date, call table_query with {_sql_args(late)}. Never compare " \
                   "dates by eye."
        split = split_outputs(mine[0], outputs) if len(mine) == 1 else []
        if split:  # a held-out task at a6267c9: berlin.csv and munich.csv written with the count of contacts per city
            (out, column, value), rest = split[0], split[1:]
            others = "; ".join(f"{o} the rows whose {c} is '{_sql_text(v)}'" for o, c, v in rest)
            query = f"SELECT * FROM {mine[0].name} WHERE {column} = '{_sql_text(value)}'"
            return (f"Hint: each file gets the rows of {mine[0].source} of its own {column}: for {out}, call "
                    f"table_query with {_sql_args(query)}; for {others}. Each result shows the call that saves it.")
        merge = merge_of_goal(self.s.task.goal, self.s.task.workspace) if len(outputs) == 1 else None
        if merge is not None:  # a held-out task at 11a1600: q1.csv "merged" from January's rows alone
            return (f"Hint: to put the rows of {', '.join(merge[0])} together, call table_query with "
                    f"{_sql_args(merge[2])}; its result shows the call that saves them to {merge[1]}.")
        empty = empty_count(mine[0], goal) if len(mine) == 1 else None
        if empty:  # batch CZ at 64fba22 (CZG): the rows of a GROUP BY email counted for the empty emails
            return (f"Hint: for the rows with no {empty[0]}, call table_query with {_sql_args(empty[2])}. Never count "
                    "rows by eye.")
        longest = length_extreme(mine[0], goal) if len(mine) == 1 else None
        if longest:  # batch EZ at 865c16b (EZC): no query, "Notebook, 7 characters" answered (Highlighter, 11)
            return (f"Hint: for the {longest.column} values by their length, call table_query with "
                    f"{_sql_args(longest.sql)}. Never count characters by eye.")
        lacking = sign_missing(mine[0], goal) if len(mine) == 1 else None
        if lacking:  # batch DZ at a3c921a (DZI): grep "@" showed the emails with one; "none is missing" answered
            return (f"Hint: for the rows whose {lacking.column} has no '{lacking.sign}', call table_query with "
                    f"{_sql_args(lacking.sql)}. Never compare text by eye.")
        rated = percent_on_total(mine[0], goal) if len(mine) == 1 else None
        if rated:  # batch DZ at a3c921a (DZG): each invoice's share offered for "the total including 19% VAT"
            return (f"Hint: for the total of {rated.column} {rated.said}, call table_query with "
                    f"{_sql_args(rated.sql)}. Never work numbers out by hand.")
        repeats = repeated_values(mine[0], goal) if len(mine) == 1 else None
        if repeats:  # batch DZ at a3c921a (DZA): one of two invoice numbers in two rows found by grep, answered alone
            return (f"Hint: for the values of {repeats.column} in more than one row, call table_query with "
                    f"{_sql_args(repeats.sql)}. Never compare rows by eye.")
        without = months_without_rows(mine[0], goal) if len(mine) == 1 else None
        if without:  # held-out BZB at bbbe1fb: months queried one by one, four with sales named for none
            return (f"Hint: for the rows per month, call table_query with {_sql_args(without.sql)}; a month of the "
                    f"range that it does not list, or lists with a total of 0, had no {without.what}. Never compare "
                    "dates by eye.")
        hours = hours_worked(mine[0], goal) if len(mine) == 1 else None
        if hours:  # held-out BZE at bbbe1fb: the shifts per person counted for their hours
            whom = f" per {hours.group}" if hours.group else ""
            return (f"Hint: for the hours{whom} from the start and end times, call table_query with "
                    f"{_sql_args(hours.sql)}. Never work out times by hand.")
        running = running_total(mine[0], goal) if len(mine) == 1 else None
        if running:  # held-out BZH at bbbe1fb: running.csv summed from April back to January
            then = (f"its result shows the call that saves them to {outputs[0]}" if outputs[0].lower().endswith(
                (".csv", ".tsv", ".xlsx")) else f"then write what it returns to {outputs[0]}") if outputs \
                else "answer with what it returns"
            return (f"Hint: for the running total of {running[0]}, in the order of {running[1]}, call table_query "
                    f"with {_sql_args(running[2])}; {then}. Never add numbers up by hand.")
        column, changed = self._percent_change_query(path) if outputs and len(mine) == 1 else ("", "")
        if changed:  # a held-out task at 11a1600: 4.00 + 10% worked out by hand for prices_vat.csv, then refused
            return (f"Hint: for the new {column} values, call table_query with {changed}; its result shows the call "
                    f"that saves them to {outputs[0]}. Never work numbers out by hand.")
        picked = next((q for t in mine if (q := _rows_with_value(t, self.s.task.goal))), "") if outputs else ""
        if picked and not _AGGREGATE.search(self.s.task.goal):  # a held-out task at 1de0702: engineering.csv
            # written as numbered, shifted rows of every department for "only the Engineering employees"
            then = "its result shows the call that saves them" if outputs[0].lower().endswith(
                (".csv", ".tsv", ".xlsx")) else f"then write what it returns to {outputs[0]}"
            return f"Hint: to pick the rows for {outputs[0]}, call table_query with {_sql_args(picked)}; {then}."
        bounded = next((q for t in mine if (q := _bounded_query(t, self.s.task.goal))), "")
        if bounded and not _AGGREGATE.search(self.s.task.goal):  # a held-out task at a864c41: "started before 2020"
            return f"Hint: to pick the rows, query with table_query (SQL), e.g. call table_query with " \
                   f"{_sql_args(bounded)}. Never compare dates or amounts by eye."
        product = next((q for t in mine if (q := _product_check_query(t, self.s.task.goal))), "")
        if product:  # ZF at 6696c34 asked the user
            return f"Hint: for the rows whose figure is not that product, call table_query with {_sql_args(product)}." \
                   " Never multiply by hand."
        same = next((q for t in mine if (q := same_value_query(t, self.s.task.goal))), "")
        if same:  # ZE at 6696c34 grepped for each product
            return f"Hint: for the rows that share a value, call table_query with {_sql_args(same)}. Never compare " \
                   "values by eye."
        aged = next((q for t in mine if (q := _age_query(t, self.s.task.goal))), "")
        if aged and not AVERAGE.search(self.s.task.goal):  # ZZD at b6900b3 asked the user today's date
            return f"Hint: for the ages up to today, call table_query with {_sql_args(aged)}. Never work out dates " \
                   "by hand."
        if not _AGGREGATE.search(self.s.task.goal):
            return ""
        from tools.tables.naming import table_name

        if not mine and path.lower().endswith(".docx"):  # a Word document without a table
            return ""
        if not mine:
            stem = path.replace("\\", "/").rsplit("/", 1)[-1].rsplit(".", 1)[0]
            return (f"Hint: for totals, counts or rankings, query this table with table_query (SQL, table "
                    f"{table_name(stem)!r} for a CSV or one-sheet workbook); never add numbers up by hand.")
        # xlsx_two_sheet_total: the hint named table 'expenses' for a two-sheet workbook (expenses_q1, expenses_q2);
        # xlsx_lookup: a hint shaped "spending(category, amount) from spending.xlsx" was copied into the FROM clause
        names = ", ".join(repr(t.name) for t in mine[:6])
        goal = self.s.task.goal
        example = _example_query(mine[0], goal)
        across = (f" For a total across sheets, UNION ALL the tables or add their sums: SELECT (SELECT SUM(x) FROM "
                  f"{mine[0].name}) + (SELECT SUM(x) FROM {mine[1].name}).") if len(mine) > 1 else ""
        both = [_filtered_sum(t, goal) for t in mine[:2]]
        if len(mine) > 1 and all(both):  # xlsx_two_sheet_total at c628c84: every category summed, not Travel
            across = f" For a total across sheets, add the tables' sums: SELECT ({both[0]}) + ({both[1]})."
        union = next((t for t in tables if t.source.startswith(f"{rel}, all ")), None)
        if len(mine) > 1 and union is not None:  # xlsx_two_sheet_total at 462ec82: 'Travel' + (SELECT ...) mixed up
            # xlsx_summary_sheet at dd4189c: the first sheet's example (by category) was run for per-month totals
            example_all = _example_query(union, goal)
            example = ""
            across = (f" Table {union.name!r} holds every sheet's rows, with a column sheet naming the sheet"
                      f"{', e.g. call table_query with ' + _sql_args(example_all) if example_all else ''}.")
        # the example as a call to copy: the finish check names it again when no query ran (recap.next_call_to_copy)
        return (f"Hint: for totals, counts or rankings, query with table_query (SQL); "
                f"table{'s' if len(mine) > 1 else ''} {names}"
                f"{', e.g. call table_query with ' + _sql_args(example) if example else ''}.{across} "
                "Never add numbers up by hand.")

    def _edit_hint(self, call: CallRecord, result: ToolResult) -> str:
        """The ``docx_replace`` (or ``edit_file``) call to copy, after a read of a file
        the goal names, in a task that asks to change text "from A to B", until an edit
        ran ("" otherwise, and when the paragraph the goal points at is not clear).
        When A is in several paragraphs, the one the goal points at ("clause 2": the
        paragraph numbered 2; else the one sharing most of the goal's words) is named.
        docx_edit_clause at 7dcd18e: Qwen 1.5B read contract.docx three times, loaded
        the word tools it had, claimed "updated from 30 days to 60 days" twice with no
        edit made, and was handed off."""
        change = text_change(self.s.task.goal)
        path = str(call.arguments.get("path", ""))
        if not result.error and change is not None and call.name == "edit_file" and _ALL_SAID.search(
                self.s.task.goal) and change[0].lower() not in change[1].lower():
            # a held-out task (ND) at 7c59d82: colour -> color copied, Colour -> Color (the second call) never sent
            left = replace_every(self._text_of(path), path, *change)
            return ("Note: " + f"{path} still holds {left[0]['old_text']!r}; to change it too, "
                    + " then ".join(call_to_copy("edit_file", e) for e in left) + ".") if left else ""
        if result.error or change is None or call.name not in ("docx_read", "read_file") \
                or path.replace("\\", "/").rsplit("/", 1)[-1].lower() not in self.s.task.goal.lower() \
                or any(c.name in ("docx_replace", "edit_file") and c.status == "done" and not c.error
                       for c in self.s.calls):
            return ""
        old, new = change
        try:
            data = self.ctx.workspace.read_bytes(path)
        except Exception:  # noqa: BLE001 - only a hint
            return ""
        if path.lower().endswith(".docx") and self.registry.get("docx_replace") is not None:
            from tools.office.docx_read import docx_paragraphs

            try:
                paragraphs = [(n, t) for n, t in docx_paragraphs(data, path) if old in t]
            except Exception:  # noqa: BLE001 - a document the tool could not read has no hint
                return ""
            if len(paragraphs) > 1 and change_everywhere(self.s.task.goal, paragraphs, old, new):
                # "everywhere" (a held-out task at 2e1bee7), or several places and none pointed at (at 1de0702)
                args = {"path": path, "find": old, "replace": new}
                if not _ALL_SAID.search(self.s.task.goal):  # the tool asks which of several, unless told all
                    args["max_count"] = 0
                places = ", ".join(f"[p{n}]" for n, _ in paragraphs)
                return (f"Hint: {old!r} is in {places}; to change it to {new!r} everywhere, "
                        f"{call_to_copy('docx_replace', args)}.")
            n = pointed_paragraph(paragraphs, self.s.task.goal, old, new)
            if n is None:
                return ""
            args = {"path": path, "find": old, "replace": new, "paragraph": n}
            return (f"Hint: to change {old!r} to {new!r} in [p{n}], the paragraph the task points at, "
                    f"{call_to_copy('docx_replace', args)}.")
        if call.name == "read_file" and self.registry.get("edit_file") is not None:
            text = data.decode("utf-8", errors="replace")
            edits = replace_every(text, path, old, new) if _ALL_SAID.search(self.s.task.goal) \
                and old.lower() not in new.lower() else []
            if edits and (len(edits) > 1 or text.count(old) > 1):  # a held-out task (ND) at a367559: "Replace
                # every colour with color" changed the first of three, then was handed off
                calls = " then ".join(call_to_copy("edit_file", e) for e in edits)
                return f"Hint: to change {old!r} to {new!r} everywhere, {calls}."
            if text.count(old) != 1:
                return ""
            args = {"path": path, "old_text": old, "new_text": new}
            return f"Hint: to change {old!r} to {new!r}, {call_to_copy('edit_file', args)}."
        return ""

    def _tick_hint(self, call: CallRecord, result: ToolResult) -> str:
        """The ``edit_file`` call to copy, after a read_file of the file the goal names,
        in a task that marks a to-do item done (:func:`named_files.checkbox_to_tick`)
        ("" otherwise). A held-out task at 1de0702: "Mark call the bank as done in
        todo.md." ticked "buy stamps", then wrote the file as read_file shows it."""
        path = str(call.arguments.get("path", ""))
        if result.error or call.name != "read_file" or self.registry.get("edit_file") is None \
                or path.replace("\\", "/").rsplit("/", 1)[-1].lower() not in self.s.task.goal.lower():
            return ""
        tick = checkbox_to_tick(self.s.task.goal, self._text_of(path))
        if tick is None:
            return ""
        item, line, ticked = tick
        args = {"path": path, "old_text": line.strip(), "new_text": ticked.strip()}
        return f"Hint: to mark {item!r} done, {call_to_copy('edit_file', args)}."

    def _open_items_hint(self, call: CallRecord, result: ToolResult) -> str:
        """The to-do items not done yet of the file the goal asks about
        (:func:`named_files.open_items`), after its read_file, with the answer to copy
        ("" otherwise). A held-out task (QL) at 5034895: "Which tasks in tasks.md are
        not done yet?" searched the web for "tasks" and paused on its step budget."""
        path = str(call.arguments.get("path", ""))
        items = open_items(self.s.task.goal, path, self._text_of(path)) \
            if call.name == "read_file" and not result.error else None
        if items is None:
            return ""
        opened, done = items
        ticked = f", {len(done)} ticked done" if done else ""
        return (f"Note: {path} has {len(opened)} lines not ticked ([ ]){ticked}; "
                f"{answer_to_copy('Not done yet: ' + ', '.join(opened) + '.')}")

    def _insert_hint(self, call: CallRecord, result: ToolResult) -> str:
        """The ``docx_insert`` call to copy, after a read of the Word document the goal
        names, in a task that asks to add a quoted paragraph at its end or start
        (:func:`paragraph_to_add`), until a docx_insert ran and while the document does
        not hold that text ("" otherwise). docx_append_paragraph at 483c7db: Qwen 1.5B
        sent a docx_replace to the wrong paragraph twice, then copied the read as its
        answer twice and was handed off."""
        add = paragraph_to_add(self.s.task.goal)
        path = str(call.arguments.get("path", ""))
        name = path.replace("\\", "/").rsplit("/", 1)[-1]
        if result.error or add is None or call.name != "docx_read" or not name.lower().endswith(".docx") \
                or name.lower() not in self.s.task.goal.lower() or self.registry.get("docx_insert") is None \
                or any(c.name == "docx_insert" and c.status == "done" and not c.error for c in self.s.calls):
            return ""
        text, after = add
        if text in (result.text or ""):
            return ""
        args: dict[str, Any] = {"path": path, "blocks": [{"type": "paragraph", "text": text}]}
        if after is not None:
            args["after"] = after
        where = "at the end" if after is None else "at the start"
        return (f"Hint: to add the paragraph {text!r} {where} of {name}, call docx_insert with "
                f"{json.dumps(args, ensure_ascii=False)}.")

    def _row_hint(self, call: CallRecord, result: ToolResult) -> str:
        """The ``xlsx_write`` call to copy, after a read of the workbook the goal names,
        in a task that asks to add a row it describes ('"Total" in column B and the sum
        of the Amount column in column C': :func:`row_to_add`), until an xlsx tool wrote
        to the workbook ("" otherwise). xlsx_total at 0cfab8b: Qwen 1.5B queried the
        sum, then wrote SQL INSERTs as its answer twice and was handed off."""
        path = str(call.arguments.get("path", ""))
        if result.error or call.name not in ("xlsx_read", "xlsx_info") or not path.lower().endswith(".xlsx") \
                or self.registry.get("xlsx_write") is None or any(
                    c.name.startswith("xlsx_") and c.risk in ("write", "destructive") and c.status == "done"
                    and not c.error for c in self.s.calls):
            return ""
        if norm_path(path) not in {norm_path(p) for p in goal_files(self.s.task.goal)[1]}:
            return ""
        args = row_to_add(self.s.task.goal, self.s.task.workspace, path)
        change = cell_to_change(self.s.task.goal, self.s.task.workspace, path) if not args else None
        if change:  # a held-out task at f42fc25: Pad's price asked, B2 (Pen's) written
            return (f"Hint: the value to change is {change[0]} of sheet {change[2]['sheet']!r} (it holds "
                    f"{change[1]!r}); {call_to_copy('xlsx_write', change[2])}.")
        if not args:
            return ""
        return (f"Hint: to add the row the task describes below the table of sheet {args['sheet']!r}, "
                f"{call_to_copy('xlsx_write', args)}.")

    def _item_hint(self, call: CallRecord, result: ToolResult) -> str:
        """The ``edit_file`` call to copy, after a read_file of the list file the goal
        adds an item to (:func:`named_files.item_to_add`), until the file holds it ("" otherwise).
        A held-out task at 38a0f03: "Add Call mom to my todo list in todo.md." added
        "buy coffee", made up."""
        path = str(call.arguments.get("path", ""))
        asked = item_to_add(self.s.task.goal, self.s.task.workspace) \
            if not result.error and call.name == "read_file" and self.registry.get("edit_file") is not None else None
        if asked is None or norm_path(path) != norm_path(asked[0]):
            return ""
        rel, item, last, line = asked
        args = {"path": path, "old_text": last, "new_text": f"{last}\n{line}"}
        return f"Hint: to add {item!r} to the list, {call_to_copy('edit_file', args)}."

    def _text_read(self, call: CallRecord, result: ToolResult, tool: str) -> str | None:
        """The text of the file a read_file ``call`` read without error, when the
        ``tool`` a hint offers is registered; None otherwise (another call, an error, no
        such tool, or a file the workspace refuses)."""
        if result.error or call.name != "read_file" or self.registry.get(tool) is None:
            return None
        try:
            return self.ctx.workspace.read_text(str(call.arguments.get("path", "")))
        except Exception:  # noqa: BLE001 - a file the workspace refuses gets no hint
            return None

    def _asked_done_note(self, call: CallRecord, result: ToolResult) -> str:
        """A note after a write that made the file the goal rewrites what it asks
        (:func:`named_files.rewritten_lines` or :func:`named_files.column_edit`, on the text
        this task first read): nothing more to change in it ("" otherwise). Batch EZ at
        865c16b (EZG): tasks.csv right at step 1, then eleven steps of copies of it."""
        if result.error or call.name not in ("write_file", "edit_file", "csv_write"):
            return ""
        path = norm_path(str(call.arguments.get("path", "")))
        goal = self.s.task.goal
        before = original_text(path, self.s.calls)
        if before is None:
            return ""
        try:
            now = self.ctx.workspace.read_text(path)
        except Exception:  # noqa: BLE001 - a file the workspace refuses gets no note
            return ""
        rewritten = rewritten_lines(goal, before + "\n") if path == norm_path(rewrite_asked(goal) or "-") else None
        edited = column_edit(goal, before + "\n") if rewritten is None else None
        want = rewritten[1] if rewritten else edited[2] if edited and norm_path(edited[0]) == path else None
        if want is None or now.rstrip("\n") != want.rstrip("\n"):
            return ""
        others = [f for f in (*goal_files(goal)[0], *goal_files(goal)[1]) if norm_path(f) != path]
        then = "If the task asks for more, do that next; else give your final answer now." if others else \
            "Give your final answer now: say what changed in it."
        return f"Note: {path} now holds what the task asks; nothing more to change in it. {then}"

    def _insert_line_hint(self, call: CallRecord, result: ToolResult) -> str:
        """The ``write_file`` call to copy, after a read_file of the text file the goal
        adds a line to at a place it gives (:func:`named_files.line_to_insert`: "as the
        second line of todo.txt"): the file with the line there ("" otherwise). XC at
        0958b96 appended the goal's words and changed line 2."""
        path = str(call.arguments.get("path", ""))
        text = self._text_read(call, result, "write_file")
        if text is None:
            return ""
        asked = line_to_insert(self.s.task.goal, text)
        if asked is None or norm_path(path) != norm_path(asked[0]):
            return ""
        args = {"path": path, "content": asked[3]}
        return (f"Hint: to add {asked[1]!r} as line {asked[2]} and keep the other lines as they are, "
                f"{call_to_copy('write_file', args)}.")

    def _kept_lines_hint(self, call: CallRecord, result: ToolResult) -> str:
        """The ``write_file`` call to copy, after a read_file of the file whose lines that
        hold a word the goal asks for in a text file (:func:`named_files.lines_to_keep`),
        until that file is written ("" otherwise). WM at bad9c2a wrote grep's lines,
        each with its "app.log:3:" in front."""
        asked = lines_to_keep(self.s.task.goal, self.s.task.workspace) \
            if not result.error and call.name == "read_file" and self.registry.get("write_file") is not None else None
        if asked is None or norm_path(str(call.arguments.get("path", ""))) != norm_path(asked[0]) \
                or self.ctx.workspace.exists(asked[2]):
            return ""
        source, what, out, held = asked
        args = {"path": out, "content": "\n".join(held) + "\n"}
        return (f"Hint: the {len(held)} line{'s' if len(held) > 1 else ''} of {source} that hold {what!r}, to write "
                f"to {out}: {call_to_copy('write_file', args)}.")

    def _column_edit_hint(self, call: CallRecord, result: ToolResult) -> str:
        """The ``write_file`` call to copy, after a read_file of the CSV file the goal
        takes a column out of or renames one in (:func:`named_files.column_edit`) ("" otherwise).
        XJ at 0958b96 took the word "phone" out of the header and kept the numbers."""
        path = str(call.arguments.get("path", ""))
        text = self._text_read(call, result, "write_file")
        if text is None:
            return ""
        asked = column_edit(self.s.task.goal, text)
        if asked is None or norm_path(path) != norm_path(asked[0]) or asked[2].strip() == text.strip():
            return ""
        return (f"Hint: {path} {asked[1]}, every other cell as it is: "
                f"{call_to_copy('write_file', {'path': path, 'content': asked[2]})}.")

    def _remove_hint(self, call: CallRecord, result: ToolResult) -> str:
        """The ``edit_file`` call to copy, after a read_file of the file whose line of
        something the goal removes (:func:`named_files.lines_to_remove`): the whole line
        and its end taken out ("" otherwise). A held-out task at becc1df took "Cy" out of
        its row, then wrote the row as "IT,IT"."""
        path = str(call.arguments.get("path", ""))
        text = self._text_read(call, result, "edit_file")
        if text is None:
            return ""
        asked = lines_to_remove(self.s.task.goal, text)
        if asked is None or norm_path(path) != norm_path(asked[0]):
            return ""
        if len(asked[2]) > 1 and self.registry.get("write_file") is not None:
            # batch W at bad9c2a (WF): "Delete every line containing DRAFT" took the word out of two lines
            kept = [ln for ln in text.splitlines() if ln not in asked[2]]
            args = {"path": path, "content": "\n".join(kept) + "\n"}
            return (f"Hint: to remove the {len(asked[2])} lines holding {asked[1]!r} and keep the others as they are, "
                    f"{call_to_copy('write_file', args)}.")
        if len(asked[2]) != 1:
            return ""
        args = {"path": path, "old_text": asked[2][0] + "\n", "new_text": ""}
        return f"Hint: to remove the line of {asked[1]!r}, {call_to_copy('edit_file', args)}."

    def _headings_hint(self, call: CallRecord, result: ToolResult) -> str:
        """The ``write_file`` call to copy, after a read of the document whose headings
        the goal asks for in a file (:func:`written.headings_asked`), until that file is
        written ("" otherwise). A held-out task at 1de0702: "Write the section headings
        of report.docx into outline.md." wrote every paragraph."""
        asked = headings_asked(self.s.task.goal, self.s.task.workspace) \
            if not result.error and call.name in ("docx_read", "read_file") else None
        if asked is None or norm_path(str(call.arguments.get("path", ""))) != norm_path(asked[0]) \
                or self.registry.get("write_file") is None or self.ctx.workspace.exists(asked[1]):
            return ""
        source, output, headings = asked
        args = {"path": output, "content": headings_text(output, headings)}
        return (f"Hint: the headings of {source} are the lines marked #; to write them to {output}, "
                f"{call_to_copy('write_file', args)}.")

    def _sections_hint(self, call: CallRecord, result: ToolResult) -> str:
        """The sections of the document the goal asks the Nth section of, numbered in
        order, after its read (:func:`written.nth_section`; "" otherwise). A held-out
        task (MH) at a367559 answered the first section's title for "the second"."""
        asked = nth_section(self.s.task.goal, self.s.task.workspace) \
            if not result.error and call.name in ("docx_read", "read_file") else None
        if asked is None or norm_path(str(call.arguments.get("path", ""))) != norm_path(asked[0]):
            return ""
        listed = "; ".join(f"{i}. {t}" for i, t in enumerate(asked[2], 1))
        return f"Note: the sections of {asked[0]} in order (the harness counted them): {listed}."

    def _csv_row_hint(self, call: CallRecord, result: ToolResult) -> str:
        """The ``edit_file`` call to copy, after a read_file of the CSV file the goal
        names, in a task that adds a name and a number to it (:func:`written.csv_row_to_add`),
        until a call changed the file ("" otherwise): the file's last line, and the new
        row under it. A held-out task at ae69254: "Add Olive Oil with a price of 8.90 to
        prices.csv." sent edit_file with old_text "Olive Oil" three times and was handed off."""
        path = str(call.arguments.get("path", ""))
        if result.error or call.name != "read_file" or not path.lower().endswith(".csv") \
                or self.registry.get("edit_file") is None \
                or norm_path(path) not in {norm_path(p) for p in sum(goal_files(self.s.task.goal), [])} \
                or any(c.status == "done" and not c.error and c.risk in ("write", "destructive")
                       and norm_path(str(c.arguments.get("path", ""))) == norm_path(path) for c in self.s.calls):
            return ""
        text = self._text_of(path)
        row = csv_row_to_add(self.s.task.goal, text)
        last = next((ln for ln in reversed(text.splitlines()) if ln.strip()), "")
        if not row or not last or text.count(last) != 1:
            return ""
        args = {"path": path, "old_text": last, "new_text": f"{last}\n{row}"}
        return f"Hint: to add the row {row!r} under the last one, {call_to_copy('edit_file', args)}."

    def _table_first(self) -> str:
        """" The numbers are in no table yet: ..." when the goal asks for a table file
        (.xlsx/.csv) not written yet and the workspace has no table for table_query
        ("" otherwise). multistep_invoices_memo at 80595a7: Qwen 1.5B put its own total
        of the PDF's three invoices (wrong) into the memo first, was refused, and ran
        table_query on a workspace with no table."""
        ws = self.ctx.workspace
        outputs = [o for o in goal_files(self.s.task.goal)[0] if o.lower().endswith((".xlsx", ".csv"))]
        if not outputs or ws.exists(outputs[0]):
            return ""
        try:
            if any(e.kind == "file" and e.path.lower().endswith((".xlsx", ".csv", ".tsv")) for e in ws.walk(".")):
                return ""
        except Exception:  # noqa: BLE001 - only a hint
            return ""
        maker = "csv_write" if outputs[0].lower().endswith(".csv") else "xlsx_write"
        return (f" The numbers are in no table yet: first write {outputs[0]} with {maker} (rows: the header, then one "
                f"row per item, amounts as plain numbers); then table_query can add them up.")

    def _rename_hint(self, call: CallRecord, result: ToolResult) -> str:
        """The ``rename_many`` call to copy, after a look at the files (list_dir,
        find_files, file_info) in a task asking to rename files "named like A to B",
        until a rename ran ("" otherwise). files_rename_pattern at 80595a7: Qwen 1.5B
        looked for the example name IMG_0042.jpg itself with find_files, planned to
        "combine_files" and "delete photos/*", read a photo as a Word document and gave up.

        After a rename ran, a failed rename or move, while no file of the folder holds
        the part to change any more, is told that the renames were made and where.
        files_rename_pattern at c14e080: all five photos renamed at step 2, then two
        rename_many calls that found nothing to rename, an answer announcing a call,
        and a hand-off with the work done."""
        m = RENAME_LIKE.search(self.s.task.goal)
        if m is None or self.registry.get("rename_many") is None:
            return ""
        renamed = [c for c in self.s.calls if c.name in ("rename_many", "move") and c.status == "done" and not c.error]
        from tools.files.writing import _narrowed

        find, replace = _narrowed(m.group("old"), m.group("new"))
        folder = goal_folder(self.s.task.goal, self.ctx.workspace.is_dir) or "."
        if renamed and call.name in ("rename_many", "move") and result.error:
            try:
                left = [e.path for e in self.ctx.workspace.walk(folder, max_depth=1)
                        if e.kind == "file" and find in e.path.rpartition("/")[2]]
            except Exception:  # noqa: BLE001 - a folder the workspace refuses: nothing to say about it
                return ""
            if left:
                return ""
            steps = ", ".join(str(c.step) for c in renamed)
            return (f"The renames this task asks for were made (step {steps}): no file in {folder} holds {find!r} "
                    "any more. If that completes the task, give your final answer.")
        if call.name not in ("list_dir", "find_files", "file_info") or renamed:
            return ""
        try:
            names = [e.path.rpartition("/")[2] for e in self.ctx.workspace.walk(folder, max_depth=1)
                     if e.kind == "file" and find in e.path.rpartition("/")[2]]
        except Exception:  # noqa: BLE001 - a folder the workspace refuses has no files to rename
            return ""
        if not names or find == replace:
            return ""
        example = sorted(names)[0]
        args = json.dumps({"folder": folder, "find": find, "replace": replace})
        return (f"Hint: the task's example renames {m.group('old')} to {m.group('new')}; {len(names)} file"
                f"{'s' if len(names) != 1 else ''} in {folder} hold {find!r} (e.g. {example} -> "
                f"{example.replace(find, replace)}). To rename them, call rename_many with {args}.")

    def _renames_in_a_sort(self, call: CallRecord) -> str:
        """The refusal of a ``rename_many`` in a task that sorts a folder's files into
        subfolders by extension (names kept: a sort moves files, it renames none); ""
        otherwise. files_organise at 61738e2: the two PDF files
        renamed "*.pdf_files", then moves of them onto themselves, and a budget pause with
        the files' names changed."""
        if call.name != "rename_many" or not SORT_BY_TYPE.search(self.s.task.goal):
            return ""
        return ("Not run: the task sorts the files into subfolders and keeps their names; rename_many would change "
                "their names. Move them instead.")  # the moves to make follow, as after any rename_many

    def _sort_hint(self, call: CallRecord, result: ToolResult) -> str:
        """The ``move`` calls to copy, after a look at the files in a task asking to sort
        a folder's files into subfolders by extension, for the extensions not sorted yet
        ("" otherwise). files_organise at 80595a7: Qwen 1.5B sent rename_many regular
        expressions for folder ".inbox" and gave up saying "inbox" does not exist; at
        f000187 it moved the .pdf and .txt files, never the .jpg ones, and moved the
        sorted .pdf files again. A move is followed by the moves still to do, and so is
        a rename_many (at 8282b36: two failed rename_many calls, no look, no hint)."""
        if call.name not in ("list_dir", "find_files", "file_info", "move", "rename_many") \
                or self.registry.get("move") is None \
                or not SORT_BY_TYPE.search(self.s.task.goal):
            return ""
        folder = goal_folder(self.s.task.goal, self.ctx.workspace.is_dir)
        if not folder:
            return ""
        try:
            names = [e.path.rpartition("/")[2] for e in self.ctx.workspace.walk(folder, max_depth=1) if e.kind == "file"]
        except Exception:  # noqa: BLE001 - a folder the workspace refuses has nothing to sort
            return ""
        exts = sorted({os.path.splitext(n)[1].lower().lstrip(".") for n in names} - {""})
        if not names and call.name == "move" and not result.error:
            return (f"Every file of {folder} is in a subfolder now; if that completes the task, give your final "
                    "answer.")
        if not exts or len(exts) > 8:
            return ""
        moves = " then ".join(json.dumps({"src": f"{folder}/*.{e}", "dest": f"{folder}/{e}"}) for e in exts)
        return f"Hint: to sort the files left in {folder} by extension, call move with {moves}."

    def _count_hint(self, call: CallRecord, result: ToolResult) -> str:
        """The count of words (lines, characters, ...) the goal asks of the file just read,
        counted by the harness (:func:`named_files.text_count`; "" otherwise)."""
        if result.error or call.name not in ("read_file", "docx_read", "grep"):
            return ""
        tally = text_count(self.s.task.goal, self.s.task.workspace)
        if tally is None or norm_path(str(call.arguments.get("path", ""))) != norm_path(tally.path):
            return ""
        return f"Note: the harness counted; {answer_to_copy(tally.said + '.')}"

    def _file_extreme_hint(self, call: CallRecord, result: ToolResult) -> str:
        """The file the goal asks for as the largest (newest ...) of a folder, looked up
        by the harness (:func:`file_facts.file_extreme`), after a listing or file_info
        ("" otherwise)."""
        if result.error or call.name not in ("list_dir", "find_files", "file_info"):
            return ""
        found = file_extreme(self.s.task.goal, self.s.task.workspace)
        if found is None:
            empty = empty_files(self.s.task.goal, self.s.task.workspace)
            return f"Note: the harness looked at the files' sizes; {answer_to_copy(empty.answer)}" if empty else ""
        where = "the workspace" if found.folder == "." else found.folder
        return (f"Note: the harness compared the files of {where}: the {found.what} is {found.path} ({found.said}); "
                f"{answer_to_copy(f'{found.path} is the {found.what} file ({found.said}).')}")

    def _text_copy_hint(self, call: CallRecord, result: ToolResult) -> str:
        """After the read of the file whose text the goal puts into another, the call that
        writes that one with every line of it (:func:`written.text_copy`; "" otherwise,
        and once the target exists)."""
        if result.error or call.name not in ("read_file", "docx_read"):
            return ""
        found = text_copy(self.s.task.goal, self.s.task.workspace)
        if found is None or norm_path(str(call.arguments.get("path", ""))) != norm_path(found[0]) \
                or (Path(self.s.task.workspace) / found[1]).exists():
            return ""
        return f"Note: to put the text of {found[0]} into {found[1]}, {call_to_copy(found[3], found[4])}."

    def _total_check_hint(self, call: CallRecord, result: ToolResult) -> str:
        """After the read of a document whose stated total the goal asks to check, what
        its line items add up to (:func:`figures.total_check`; "" otherwise)."""
        if result.error or call.name not in ("read_file", "docx_read", "pdf_read"):
            return ""
        found = total_check(self.s.task.goal, str(call.arguments.get("path", "")), result.text)
        return f"Note: the harness added the line items; {answer_to_copy(found.answer)}" if found else ""

    def _days_hint(self, call: CallRecord, result: ToolResult) -> str:
        """The count of days the goal asks between two dates of the files read, counted by
        the harness (:func:`dates_said.day_count_answer`), after a read that gives the
        second date, or the date the goal asks some days after a date of the files read
        (:func:`dates_said.date_after_answer`) after the read that gives it ("" otherwise)."""
        if result.error or call.name not in ("read_file", "docx_read", "pdf_read", "grep"):
            return ""
        reads = [(str(c.arguments.get("path", "")), c.result or "") for c in self.s.calls
                 if c.status == "done" and not c.error and c.id != call.id and (c.risk or "read") == "read"]
        reads = [*reads, (str(call.arguments.get("path", "")), result.text)]
        said = day_count_answer(self.s.task.goal, reads)
        if said:
            return f"Note: the harness counted the days; {answer_to_copy(said)}"
        later = date_after(self.s.task.goal, reads)
        if later is None or "(" not in later[2]:  # from today: nothing read gave it
            return ""
        first = later[2].split(" (")[0]
        return (f"Note: the harness counted: {later[1]}, {first}, is {later[0].day} {later[0]:%B %Y}; "
                f"{answer_to_copy(date_after_answer(self.s.task.goal, reads))}")

    def _files_list_hint(self, call: CallRecord, result: ToolResult) -> str:
        """The ``write_file`` call that lists the files of the kind the goal asks listed
        in a file (:func:`written.files_list_asked`), one per line, after a listing of
        the workspace (``list_dir``, ``find_files``) until that file is written ("" otherwise).
        A held-out task (QC) at 5034895: "Make a list of the PDF files in this folder and
        save it as pdfs.txt." saved list_dir's listing whole, notes.txt and sizes with it."""
        if call.name not in ("list_dir", "find_files") or result.error or self.registry.get("write_file") is None:
            return ""
        asked = files_list_asked(self.s.task.goal, self.s.task.workspace)
        if asked is None or not asked[2] or self.ctx.workspace.exists(asked[0]):
            return ""
        output, kind, paths = asked
        args = {"path": output, "content": files_list_text(output, paths)}
        return (f"Hint: the {kind} files here are {', '.join(paths[:8])}{' ...' if len(paths) > 8 else ''}; to list "
                f"them in {output}, one per line, {call_to_copy('write_file', args)}.")

    def _sorted_lines_hint(self, call: CallRecord, result: ToolResult) -> str:
        """The ``write_file`` call that writes a text file the goal asks to sort
        alphabetically with its lines in that order (case aside, each line as the user
        wrote it), after it was read ("" otherwise). A held-out task at 5a8dc42: "Sort
        the names in names.txt alphabetically." answered the names in their old order
        as sorted, and was handed off."""
        path = norm_path(str(call.arguments.get("path", "")))
        goal = self.s.task.goal
        backwards = _REVERSE_LINES.search(goal) is not None
        if call.name != "read_file" or result.error or not (_SORT_LINES.search(goal) or backwards) or \
                self.registry.get("write_file") is None or path not in {norm_path(p) for p in goal_files(goal)[1]}:
            return ""
        # the lines go to the text file the goal asks for, else back to the file read (VE at 5dcca13: "Write the
        # lines of todo.txt in reverse order into reversed.txt." wrote the read's line numbers, twice)
        out = next((o for o in goal_files(goal)[0] if o.lower().endswith((".txt", ".md"))), path)
        try:
            text = self.ctx.workspace.read_text(path)
        except Exception:  # noqa: BLE001 - the read said what is wrong
            return ""
        lines = [ln for ln in text.splitlines() if ln.strip()]
        if len(lines) < 2 or len(lines) > 500:
            return ""
        ordered = lines[::-1] if backwards and not _SORT_LINES.search(goal) else \
            sorted(lines, key=lambda ln: ln.strip().casefold(), reverse=bool(_REVERSED.search(goal)))
        if ordered == lines and out == path:
            return f"Note: the lines of {path} are in that order already."
        return (f"Hint: the lines of {path} in that order, to write {'back' if out == path else f'to {out}'}: "
                f"{call_to_copy('write_file', {'path': out, 'content': chr(10).join(ordered) + chr(10)})}")

    def _rewrite_hint(self, call: CallRecord, result: ToolResult) -> str:
        """The ``write_file`` call that writes a text file the goal asks to rewrite the
        lines of (:func:`named_files.rewritten_lines`: their letter case changed, or the
        empty or repeated lines taken out) so, after it was read ("" otherwise). A
        held-out task at a8fdd03: "Capitalise the first letter of every line in
        list.txt." sent an empty edit twice and finished with the file as it was."""
        path = norm_path(str(call.arguments.get("path", "")))
        if call.name != "read_file" or result.error or self.registry.get("write_file") is None \
                or path != norm_path(rewrite_asked(self.s.task.goal) or "-"):
            return ""
        try:
            text = self.ctx.workspace.read_text(path)
        except Exception:  # noqa: BLE001 - the read said what is wrong
            return ""
        cased = rewritten_lines(self.s.task.goal, text)
        if cased is None:  # a CSV file's change may name no column of it ("merge phone and email"): no note then
            return "" if path.lower().endswith(".csv") else f"Note: the lines of {path} are so already."
        return (f"Hint: {path} {cased[0]}, to write back: "
                f"{call_to_copy('write_file', {'path': path, 'content': cased[1]})}")

    def _markdown_table_hint(self, call: CallRecord, result: ToolResult) -> str:
        """The ``write_file`` call that writes the rows of the CSV file the goal names as a
        Markdown table into the .md file it asks for (:func:`named_files.markdown_table`),
        after that CSV file was read ("" otherwise). Batch DZ at a3c921a (DZH): products.md
        made with combine_files, the CSV text as it was."""
        asked = markdown_table_asked(self.s.task.goal)
        if call.name not in ("read_file", "csv_read") or result.error or asked is None \
                or self.registry.get("write_file") is None \
                or norm_path(str(call.arguments.get("path", ""))) != norm_path(asked[0]):
            return ""
        try:
            table = markdown_table(self.ctx.workspace.read_text(asked[0]), asked[0].lower().endswith(".tsv"))
        except Exception:  # noqa: BLE001 - the read said what is wrong
            return ""
        return (f"Hint: the rows of {asked[0]} as a Markdown table, to write to {asked[1]}: "
                f"{call_to_copy('write_file', {'path': asked[1], 'content': table})}") if table else ""

    def _derived_hint(self, call: CallRecord, result: ToolResult) -> str:
        """The ``write_file`` call that writes the CSV file the goal asks made from another
        (:func:`named_files.derived_file`: turned around, written long) into the file it
        asks for, after that other CSV file was read ("" otherwise). Batch IZ at 2081e47
        (IZB): one student's marks written; batch JZ at 02d32bb (JZJ): one month's sums."""
        found = derived_file(self.s.task.goal)
        if call.name not in ("read_file", "csv_read") or result.error or found is None \
                or self.registry.get("write_file") is None \
                or norm_path(str(call.arguments.get("path", ""))) != norm_path(found[1]):
            return ""
        kind, source, output = found
        try:
            table = kind.derive(self.s.task.goal, self.ctx.workspace.read_text(source))
        except Exception:  # noqa: BLE001 - the read said what is wrong
            return ""
        return (f"Hint: {source} {kind.what}, to write to {output}: "
                f"{call_to_copy('write_file', {'path': output, 'content': table})}") if table else ""

    def _keyed_update_hint(self, call: CallRecord, result: ToolResult) -> str:
        """The ``write_file`` call that updates the CSV file the goal asks updated from
        another by key (:func:`keyed_update.keyed_update_text`), after either file was
        read ("" otherwise). Batch JZ at 02d32bb (JZD): the two files combined into a new
        file, the target left as it was."""
        asked = keyed_update_asked(self.s.task.goal)
        if call.name not in ("read_file", "csv_read") or result.error or asked is None \
                or self.registry.get("write_file") is None \
                or norm_path(str(call.arguments.get("path", ""))) not in (norm_path(asked[0]), norm_path(asked[1])):
            return ""
        found = keyed_update_text(self.s.task.goal, self.s.task.workspace)
        if found is None:
            return ""
        target, changes, update = found
        return (f"Hint: {target} updated from {changes}, rows matched by {update.key} ({', '.join(update.changed)} "
                f"change), to write: {call_to_copy('write_file', {'path': target, 'content': update.text})}")

    def _column_hint(self, call: CallRecord, result: ToolResult) -> str:
        """The ``xlsx_write`` call that adds the column the goal asks for, worked out as
        it spells ("a Total column ... that is Qty times Price",
        :func:`written.column_cells`), after a look at the workbook and before any
        write of it ("" otherwise). A held-out task at 2e1bee7 queried the products
        right, then spent ten steps putting them under the table and in a sheet."""
        path = str(call.arguments.get("path", ""))
        if not result.error and call.name in ("read_file", "csv_read") and path.lower().endswith(".csv") \
                and self.registry.get("write_file") is not None:
            text = csv_column_text(self.s.task.goal, self.s.task.workspace, path)
            args = {"path": path, "content": text}
            return f"Hint: the column the task asks for, worked out as it says: {call_to_copy('write_file', args)}" \
                if text else ""
        if result.error or call.name not in ("xlsx_info", "xlsx_read") or not column_to_add(self.s.task.goal) \
                or self.registry.get("xlsx_write") is None or any(
                c.name.startswith("xlsx_") and c.risk in ("write", "destructive") and c.status == "done"
                and not c.error for c in self.s.calls):
            return ""
        args = column_cells(self.s.task.goal, self.s.task.workspace, path)
        return f"Hint: the column the task asks for, worked out as it says: {call_to_copy('xlsx_write', args)}" \
            if args else ""

    def _sheet_totals_hint(self, call: CallRecord, result: ToolResult) -> str:
        """The ``xlsx_add_sheet`` call to copy, after a look at a workbook, in a task
        asking to add a named sheet listing each sheet's total: one row per sheet with a
        =SUM of its column of numbers headed by a word of the goal (else its last column
        of numbers); "" otherwise, and once the workbook was written. xlsx_summary_sheet
        at 80595a7 and f000187: Qwen 1.5B read the workbook three times, answered "The
        total amount for each sheet is shown in column B" and was handed off."""
        goal = self.s.task.goal
        named = SHEET_NAMED.search(goal)
        if result.error or call.name not in ("xlsx_info", "xlsx_read") or named is None \
                or not _SHEET_TOTALS.search(goal) or self.registry.get("xlsx_add_sheet") is None:
            return ""
        path = str(call.arguments.get("path", ""))
        if not path.lower().endswith(".xlsx") or any(
                c.name.startswith("xlsx_") and c.risk in ("write", "destructive") and c.status == "done"
                and not c.error for c in self.s.calls):
            return ""
        try:
            import io

            import openpyxl
            from openpyxl.utils import get_column_letter

            wb = openpyxl.load_workbook(io.BytesIO(self.ctx.workspace.read_bytes(path)), read_only=True)
        except Exception:  # noqa: BLE001 - only a hint
            return ""
        words = {w.lower() for w in re.findall(r"[A-Za-z]{3,}", goal)}
        rows: list[list[Any]] = [["Sheet", "Total"]]
        try:
            for sheet in wb.worksheets:
                if sheet.title.strip().lower() == named.group(1).strip().lower():
                    continue
                grid = [list(r) for r in sheet.iter_rows(max_row=5000, values_only=True)]
                if len(grid) < 2:
                    continue
                numeric = [j for j in range(len(grid[0])) if any(isinstance(r[j], (int, float)) and
                                                                  not isinstance(r[j], bool) for r in grid[1:] if j < len(r))]
                if not numeric:
                    continue
                col = next((j for j in numeric if str(grid[0][j] or "").strip().lower() in words), numeric[-1])
                filled = [i + 1 for i, r in enumerate(grid) if i and col < len(r) and isinstance(r[col], (int, float))]
                letter = get_column_letter(col + 1)
                title = sheet.title.replace("'", "''")
                rows.append([sheet.title, f"=SUM('{title}'!{letter}{filled[0]}:{letter}{filled[-1]})"])
        finally:
            wb.close()
        if len(rows) < 3 or len(rows) > 25:  # one sheet's total is no sheet of totals per sheet
            return ""
        args = json.dumps({"path": path, "name": named.group(1), "rows": rows}, ensure_ascii=False)
        return f"Hint: to add the sheet the task asks for, with each sheet's total, call xlsx_add_sheet with {args}."

    def _split_of_goal(self) -> tuple[list[tuple[str, str, str]], list[Any]]:
        """``(split, tables)``: :func:`table_goal.split_outputs` of the goal's outputs over the one
        table of the one table file it reads (``[]`` when there is none), and that file's tables."""
        outputs, inputs = goal_files(self.s.task.goal)
        mine = self._tables_of(inputs[0])[2] if len(inputs) == 1 and inputs[0].lower().endswith(TABLE_FILES) else []
        return (split_outputs(mine[0], outputs) if len(mine) == 1 else []), mine

    def _next_split_hint(self, call: CallRecord, result: ToolResult) -> str:
        """After a write of one file of a table split into a file per value
        (:func:`table_goal.split_outputs`), the query for the next file not written yet
        ("" otherwise). A held-out task at 54bc750: berlin.csv saved right, then
        munich.csv written as the query's table text, its own query never run."""
        path = str(call.arguments.get("path", ""))
        if result.error or call.name not in ("csv_write", "xlsx_write", "write_file") or self.registry.get(
                "table_query") is None:
            return ""
        split, mine = self._split_of_goal()
        if norm_path(path) not in {norm_path(o) for o, _, _ in split}:
            return ""
        done = {norm_path(p) for p in touched_paths(self.s.store.changes(self.s.task.id))} | {norm_path(path)}
        left = [(o, c, v) for o, c, v in split if norm_path(o) not in done]
        if not left:
            return ""
        out, column, value = left[0]
        query = f"SELECT * FROM {mine[0].name} WHERE {column} = '{_sql_text(value)}'"
        return f"Next, {out}: call table_query with {_sql_args(query)}; its result shows the call that saves it."

    def _tables_of(self, path: str) -> tuple[list[Any], str, list[Any]]:
        """``(tables, rel, mine)``: every table ``table_query`` sees, ``path`` as a
        workspace path, and the tables made from it (one per sheet); empty lists
        when the tables cannot be loaded."""
        from tools.tables.loading import DOCX_TABLE, FIRST_SHEET, load_tables

        try:
            tables = load_tables(self.ctx)[0]
            rel = self.ctx.workspace.rel(self.ctx.workspace.resolve(path))
        except Exception:  # noqa: BLE001 - the hint is optional; table_query says what is wrong itself
            return [], path, []
        return tables, rel, [t for t in tables if t.source == rel or t.source.startswith(
            (f"{rel}, sheet ", f"{rel}, {DOCX_TABLE} ")) and not t.source.endswith(FIRST_SHEET)]  # one per sheet or
        # Word table: not the workbook's own name

    def _query_to_copy(self) -> str:
        """The arguments of a ``table_query`` call to copy, for a task that asks for
        totals and has read (or written) one table file: '{"sql": "SELECT ..."}'; ""
        otherwise.
        xlsx_group_sums at 237b37e: Qwen 1.5B added up the regions by hand (North
        3705; the rows add up to 2145), was refused, and sent the same sums again."""
        if self.registry.get("table_query") is None or not _AGGREGATE.search(self.s.task.goal):
            return ""
        paths = self._table_paths()
        if len(paths) != 1:
            return ""
        tables, rel, mine = self._tables_of(paths[0])
        union = next((t for t in tables if t.source.startswith(f"{rel}, all ")), None)
        example = _example_query(union if len(mine) > 1 and union is not None else mine[0], self.s.task.goal) \
            if mine else ""
        if not example:
            return ""
        return json.dumps({"sql": example})

    def _table_paths(self) -> list[str]:
        """The table files this task read, or wrote (multistep_invoices_memo at c3438bd: invoices.xlsx made from the
        PDF, then the total made up and refused with no query to copy), each once, in order."""
        reads = [str(c.arguments.get("path", "")) for c in self.s.calls
                 if c.status == "done" and not c.error and c.name in ("read_file", "csv_read", "xlsx_read",
                                                                      "docx_read", "xlsx_write", "csv_write")]
        return list(dict.fromkeys(p for p in reads if p.lower().endswith(TABLE_FILES)))

    def _percent_change_query(self, path: str = "") -> tuple[str, str]:
        """``(column, arguments)`` of the ``table_query`` that changes every value of a column by the
        percentage the goal names (:func:`table_goal.percent_change`), for ``path`` or the one table file
        this task read; ("", "") otherwise."""
        if self.registry.get("table_query") is None or not PERCENT_CHANGE.search(self.s.task.goal):
            return "", ""
        mine = self._one_table(path)
        found = percent_change(mine[0], self.s.task.goal) if mine else None
        return (found[0], _sql_args(found[1])) if found else ("", "")

    def _running_query(self) -> tuple[str, str]:
        """``(column, arguments)`` of the ``table_query`` of the running total the goal asks
        for (:func:`table_goal.running_total`) of the one table file this task read; ("", "")
        otherwise."""
        if self.registry.get("table_query") is None or not RUNNING.search(self.s.task.goal):
            return "", ""
        mine = self._one_table()
        found = running_total(mine[0], self.s.task.goal) if mine else None
        return (found[0], _sql_args(found[2])) if found else ("", "")

    def _one_table(self, path: str = "") -> list:
        """``[the table]`` of ``path``, or of the one table file this task read, when it has
        one table; [] otherwise."""
        paths = [path] if path else self._table_paths()
        mine = self._tables_of(paths[0])[2] if len(paths) == 1 else []
        return mine if len(mine) == 1 else []

    def _unfiltered_hint(self, call: CallRecord) -> str:
        """A note after a ``table_query`` that totals every row of a table when the
        goal names one value of that table's text column ("" otherwise).
        xlsx_two_sheet_total at c628c84: asked for Travel across two quarters, Qwen
        1.5B ran SELECT SUM(Amount) FROM expenses_q1 (every category) and then the
        same for expenses_q2."""
        sql = str(call.arguments.get("sql", ""))
        if not re.search(r"\b(sum|count|avg|total)\s*\(", sql, re.IGNORECASE) or \
                re.search(r"\b(where|group\s+by|having)\b", sql, re.IGNORECASE):
            return ""
        from tools.tables.loading import load_tables

        try:
            tables = load_tables(self.ctx)[0]
        except Exception:  # noqa: BLE001 - the note is optional
            return ""
        for t in tables:
            if not re.search(rf"\b{re.escape(t.name)}\b", sql, re.IGNORECASE):
                continue
            found = goal_value(t, self.s.task.goal)
            if found and found[1].lower() not in sql.lower():
                column, value = found
                return (f"Note: this query adds up every row of {t.name}; the task asks about {value!r} (a value of "
                        f"its {column} column): filter with WHERE {column} = '{_sql_text(value)}'.")
        return ""

    def _short_ranking(self, call: CallRecord, data: dict[str, Any]) -> str:
        """A note after a ``table_query`` that returned fewer rows than the ranking the
        goal asks for ("the five vendors we paid the most"), with the grouped query to
        copy ("" otherwise, and when the query grouped and found no more groups).
        xlsx_top_vendors at 4df8dd6: one vendor's sum (one cell) was offered as the rows
        to save, and the "Top 5" sheet was written with it."""
        asked = asked_count(self.s.task.goal)
        rows = list(data.get("rows") or [])
        if asked is None or len(rows) >= asked[0]:
            return ""
        sql = str(call.arguments.get("sql", ""))
        if re.search(r"\bgroup\s+by\b", sql, re.IGNORECASE) and not re.search(r"\blimit\b", sql, re.IGNORECASE):
            return ""  # every group there is: fewer than asked
        n, noun, _high = asked
        query = self._query_to_copy()
        how = f"call table_query with {query}" if query else \
            f"query with GROUP BY, ORDER BY the total and LIMIT {n}"
        return (f"Note: the task asks for the {n} {noun}, and this query returned {len(rows)} "
                f"row{'s' if len(rows) != 1 else ''}; to rank them, {how}, then save the {n} rows it returns.")

    def _save_hint(self, data: dict[str, Any], sql: str = "") -> str:
        """After a ``table_query`` in a task that asks for its rows in a file or a
        named sheet, the call that saves them, built from the result ("" otherwise,
        and once this task has written that file). xlsx_top_vendors at fbc3d9d: Qwen
        1.5B queried the five top vendors right, then read the workbook again, copied
        it and ran out of steps without writing the sheet."""
        columns, rows = list(data.get("columns") or []), list(data.get("rows") or [])
        if not rows or len(rows) > _SAVE_HINT_ROWS or int(data.get("total_rows") or 0) > len(rows):
            return ""
        goal = self.s.task.goal
        if not self._fits_goal(columns, rows):
            return ""
        if re.search(r"\b(sum|avg|count|min|max)\s*\(", sql, re.IGNORECASE) and self._percent_change_query()[1]:
            return ""  # a held-out task at 11a1600: SUM(price) offered, and saved, as the prices with VAT
        outputs, inputs = goal_files(goal)
        named = goal_columns(goal)  # csv_top_customers at e43e9f3: "customer, sum(amount)" for "Customer and Total"
        headers = list(data.get("headers") or columns)  # the file's "order", not the SQL name order_
        table = [named if len(named) == len(columns) else headers] + [[_typed(v) for v in row] for row in rows]
        sheet = SHEET_NAMED.search(goal)
        books = [p for p in outputs + inputs if p.lower().endswith(".xlsx")]
        ws = getattr(self.ctx, "workspace", None)
        split: list[tuple[str, str, str]] = []
        if sheet and books:
            exists = ws is not None and ws.exists(books[0])
            name = "xlsx_add_sheet" if exists else "xlsx_write"
            args = {"path": books[0], ("name" if exists else "sheet"): sheet.group(1), "rows": table}
        else:
            out = next((o for o in outputs if o.lower().endswith((".csv", ".xlsx"))), None)
            split = self._split_of_goal()[0]
            if split:  # one file per value: the file of the value the query picks (berlin.csv for 'Berlin')
                out = next((o for o, _, v in split if re.search(rf"'{re.escape(_sql_text(v))}'", sql, re.IGNORECASE)),
                           None)
            if out is None and not split:
                out = self._sorted_in_place(sql)
            if out is None:
                return ""
            if out.lower().endswith(".csv"):  # a number as shown: "980.00", not 980 (a held-out task at 911f35c)
                shown = [[_as_shown(v) for v in row] for row in rows]
                name, args = "csv_write", {"path": out, "rows": table[:1] + shown}
            else:
                name, args = "xlsx_write", {"path": out, "rows": table}
            if name == "csv_write" and ws is not None and ws.exists(out):  # a held-out task at 54bc750: munich.csv,
                args["overwrite"] = True  # written wrong, refused its right rows for "already exists"
        if self.registry.get(name) is None and name not in self.extra_tools:
            return ""
        if not split and norm_path(args["path"]) in {norm_path(p) for p in touched_paths(
                self.s.store.changes(self.s.task.id))}:  # a file per value: its rows may have been written wrong
            return ""  # (a held-out task at b7b6dee: munich.csv written as a tool's message, no save offered)
        return (f"To save these rows where the task asks, call {name} with "
                f"{json.dumps(args, ensure_ascii=False)} (header row first: use the task's column names if it "
                "gives them).")

    def _sorted_in_place(self, sql: str) -> str | None:
        """The one CSV file the goal asks to sort in place ("Sort books.csv by year, oldest
        first": no other file to write), when ``sql`` selects every column of its table
        in an order (:func:`table_goal.sort_order`); None otherwise. Batch HZ at 4bb2504
        (HZA): the query ran right, no write was offered, and the task ended stuck."""
        outputs, inputs = goal_files(self.s.task.goal)
        if outputs or len(inputs) != 1 or not inputs[0].lower().endswith(".csv") \
                or not re.search(r"^\s*select\s+\*\s+from\b[^;]*\border\s+by\b", sql, re.IGNORECASE):
            return None
        mine = self._one_table(inputs[0])
        return inputs[0] if mine and sort_order(mine[0], self.s.task.goal) else None

    def _fits_goal(self, columns: Sequence[Any], rows: Sequence[Sequence[Any]]) -> bool:
        """Whether a query's rows are what the goal asks to save: as many rows as a
        ranking it asks for ("the five vendors": 5), as many columns as it names, and
        a column of names beside the numbers when it asks for one row per thing.
        xlsx_top_vendors at 0cfab8b: "SELECT SUM(amount) ... GROUP BY vendor" (nine
        sums, no vendor) was offered as the "Top 5" sheet to write, and written."""
        goal = self.s.task.goal
        ranking = asked_count(goal)
        if ranking and len(rows) != ranking[0]:
            return False
        named = goal_columns(goal)
        if len(named) > 1 and len(columns) != len(named):
            return False
        texts = any(isinstance(v, str) and v.strip() and _typed(v) == v for row in rows for v in row)
        return texts or not (ranking or _ROW_PER_THING.search(goal))

    def _preview(self, tool: Tool, params: Any) -> str | None:
        from tools.files import preview_diff

        try:
            return preview_diff(self.ctx.workspace, tool.name, params)
        except Exception:  # noqa: BLE001 - a preview is optional
            return None

    def _changes_of(self, call: CallRecord) -> list[str]:
        out = []
        for ch in self.s.store.changes(self.s.task.id):
            if ch.call_id == call.id:
                r = ch.record
                out.append(f"{r.get('op')} {r.get('path')}" + (f" -> {r['dest']}" if r.get("dest") else ""))
        return out

    # -- the state machine ----------------------------------------------------
    def process(self, call: CallRecord) -> Gen:
        """Advance ``call`` as far as it can go. Returns True when the task paused."""
        s = self.s
        if call.status == "awaiting_approval":
            yield ApprovalRequested(call=call.brief(), risk=call.risk, diff=None)
            yield s.pause("approval", s.task.pause.reason if s.task.pause else f"{call.name} needs approval",
                          APPROVAL_CHOICES, call_id=call.id)
            return True
        if call.status == "awaiting_answer":
            yield s.pause("question", s.task.pause.reason if s.task.pause else "waiting for your answer",
                          list(s.task.pause.choices) if s.task.pause else [], call_id=call.id)
            return True
        tool = self.registry.get(call.name) or self.extra_tools.get(call.name)
        if tool is None:
            names = ", ".join(self.registry.names())
            return (yield from self.finish(
                call, ToolResult.fail(f"Unknown tool {call.name!r}. Available tools: {names}."), "invalid"))
        corrected = self._corrected_after_refusals(call)
        remapped = "\n".join(x for x in (corrected, self._into_workspace(call), self._into_goal_folder(call, tool),
                                         _synonym_arguments(call, tool), self._moot_overwrite(call, tool),
                                         _cells_as_rows(call, tool)) if x)
        if call.name == "use_tools" and call.status != "started":
            # before the count of groups is checked: a held-out task at 5a8dc42 asked for all eight after its work
            # was done, was told "at most 4" six times, and was handed off as stuck
            refused = self._unasked_groups(call)
            if refused:
                return (yield from self.finish(call, ToolResult.fail(refused), "denied"))
            groups = call.arguments.get("groups")
            left = unasked_groups(groups, [s.task.goal, *getattr(self.ctx, "user_words", [])], s.task.workspace) \
                if isinstance(groups, list) and all(g in GROUPS for g in groups) else []
            if left and len(set(groups)) > 4:  # more than four asked: web and extras only where the task names them
                left += [g for g in ("web", "extras") if g in groups and g not in initial_groups(s.task.goal, None)]
            if left and not set(groups) - set(left):
                return (yield from self.finish(call, ToolResult.fail(self._unasked_groups(call, left)), "denied"))
            if left:  # the groups the task points at are loaded, the others left out, and the result says so
                call.arguments["groups"] = [g for g in groups if g not in left]
                remapped = "\n".join(x for x in (remapped, f"(Not loaded: {', '.join(left)}: {_UNASKED}.)") if x)
        try:
            params = tool.validate(call.arguments)
        except ValidationError as exc:
            other = _other_kind_tool(call, self.registry)
            if other:  # multistep_invoices_memo at c92ae49: docx_create for invoices.xlsx, its table rows of dicts
                return (yield from self.finish(call, ToolResult.fail(other), "invalid"))
            msg = format_validation_error(tool, exc)
            pending = next_call_to_copy(s.calls, s.messages)
            # and a write with nothing to write, the query that gets its rows still to make (xlsx_top_vendors at
            # 32ea11e: xlsx_write with no cells three times, the ranking's table_query given at step 0, a hand-off)
            query_first = ": call table_query with " in pending and tool.risk is not RiskClass.READ \
                and not any(c.name == "table_query" and c.status == "done" and not c.error for c in s.calls)
            if f": call {tool.name} with " in pending or query_first:  # xlsx_total at 8282b36: the row's call
                msg += f"\n{PENDING_NOTE} {pending})"  # given, sent without cells
            return (yield from self.finish(call, ToolResult.fail(msg), "invalid"))
        asked = [str(g) for g in call.arguments.get("groups") or []] if call.name == "use_tools" else []
        unasked = unasked_groups(asked, [s.task.goal, *getattr(self.ctx, "user_words", [])], s.task.workspace) \
            if asked and call.status != "started" else []
        if unasked and not set(asked) - set(unasked):  # named by a tool's name ("xlsx_write"): known only now
            return (yield from self.finish(call, ToolResult.fail(self._unasked_groups(call)), "denied"))
        if unasked:  # the groups the task points at are loaded, the others left out, and the result says so
            call.arguments["groups"] = [g for g in asked if g not in unasked]
            params = tool.validate(call.arguments)
            remapped = "\n".join(x for x in (remapped, f"(Not loaded: {', '.join(unasked)}: {_UNASKED}.)") if x)
        risk = tool.risk_of(self.ctx, params)
        unknown = _unknown_arguments(tool, call.arguments)
        if unknown and risk in (RiskClass.WRITE, RiskClass.DESTRUCTIVE) and call.status != "started":
            msg = (f"Not run: {tool.name} has no parameter {', '.join(map(repr, unknown))}, so that part of the call "
                   f"would be lost. Its parameters: {', '.join(tool.params.model_fields)}. Call it again with those.")
            return (yield from self.finish(call, ToolResult.fail(msg), "invalid"))
        note = f"\n(Ignored: {tool.name} has no parameter {', '.join(map(repr, unknown))}.)" if unknown else ""
        if call.status == "started":  # journaled as running, never finished: in flight at a crash
            if RiskClass(call.risk or risk.value) is not RiskClass.READ:
                changes = self._changes_of(call)
                seen = f" Changes it recorded: {'; '.join(changes)}." if changes else " It recorded no changes."
                reason = (f"{call.name} {_short_args(call.arguments)} was running when the task stopped; "
                          f"it may have run partly.{seen} Re-run it (once) or skip it (deny)?")
                yield s.pause("in_flight", reason, IN_FLIGHT_CHOICES, call_id=call.id)
                return True
            return (yield from self._execute(call, tool, params, risk, note))
        call.risk = risk.value
        other = _other_kind_tool(call, self.registry) if risk in (RiskClass.WRITE, RiskClass.DESTRUCTIVE) else ""
        if other:  # before the checks of what it writes: multistep_invoices_memo at 3797c71, docx_create for
            # invoices.xlsx was refused for a total it made up, and the model went on with docx_create
            other += self._own_kind_output(call)
            return (yield from self.finish(call, ToolResult.fail(other), "invalid"))
        if risk in (RiskClass.WRITE, RiskClass.DESTRUCTIVE) and asks_only_a_question(s.task.goal) \
                and call.name not in _HARNESS_CALLS:
            found = [c for c in s.calls if c.id != call.id and c.status == "done" and not c.error and c.result
                     and c.risk == RiskClass.READ.value and not (c.data or {}).get("repeat_of")
                     and c.name not in _HARNESS_CALLS]
            # calendar_list_day: told "if it is not there, say you could not find it" after listing the day's two
            # events, Qwen 1.5B answered "I could not find it."
            how = (f"Answer it from what the tools returned (the last: {found[-1].name} at step {found[-1].step})."
                   if found else "Answer it with what you found; if it is not there, say you could not find it.")
            msg = (f"Not run: the task is a question and asks for no changes, so {call.name} was not run. {how} "
                   "(If the user does want a change, call ask_human to confirm it first.)")
            return (yield from self.finish(call, ToolResult(text=msg, error=True, data={QUESTION_ONLY_KEY: True}),
                                           "denied"))
        cannot = undoable_verb(s.task.goal, [*self.registry.names(), *self.extra_tools]) \
            if risk in (RiskClass.WRITE, RiskClass.DESTRUCTIVE) and call.name not in _HARNESS_CALLS else ""
        if cannot and not goal_files(s.task.goal)[0]:
            # handoff_send_budget at 237b37e: "Send the budget to my manager" -> manager_budget.txt written, then
            # moved over itself (an approval pause): no file the user asked for, and nothing sent
            ask = {"question": f"I cannot {cannot} it: no tool here can {cannot}. How would you like me to go on?"}
            msg = (f"Not run: the task asks to {cannot}, and no tool here can {cannot}; {call.name} would change files "
                   f"the user did not ask for and {cannot} nothing. Say so to the user and ask how they want it done: "
                   f"call ask_human with {json.dumps(ask)}")
            return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
        redone = self._changes_a_done_rewrite(call)
        if redone:  # a held-out task (SK) at 5910adb: the repeated lines removed at step 1, then two more lines
            # taken out by later edits, one address of three left
            return (yield from self.finish(call, ToolResult.fail(redone), "denied"))
        onto_itself = self._copies_onto_a_changed_file(call)
        if onto_itself:
            return (yield from self.finish(call, ToolResult.fail(onto_itself), "denied"))
        tool_read = self._tool_read_as_a_file(call)
        if tool_read:  # held-out tasks (RM, SJ) at 5910adb: read_file on "table_query", its result's source label
            return (yield from self.finish(call, ToolResult.fail(tool_read), "denied"))
        if call.name in ("calendar_add_event", "calendar_move_event") \
                and event_cancel_asked(s.task.goal, self.registry.names()):
            # a held-out task (SE) at 5910adb: "Delete the Yoga session on 7 December from my calendar." moved it to
            # 16:00 (no such title), then added a second one
            msg = (f"Not run: the task cancels (deletes) an event that is in the calendar; {call.name} would "
                   f"{'add a second one' if call.name == 'calendar_add_event' else 'move it'} instead. Call "
                   "calendar_cancel_event with words of its title and the day it is on, as the user said them")
            return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
        if call.name == "calendar_add_event" and event_move_asked(s.task.goal, self.registry.names()):
            # a held-out task (PK) at 9fa21b4: "Move my dentist appointment on 9 December to 16:00." added two
            # dentist appointments and left the old one
            msg = ("Not run: the task moves an event that is already in the calendar; calendar_add_event would add a "
                   "second one and leave the old one where it is. Call calendar_move_event with words of its title, "
                   "the day it is on now and its new start, as the user said them")
            return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
        unasked_move = self._unasked_move(call)
        if unasked_move:
            return (yield from self.finish(call, ToolResult.fail(unasked_move), "denied"))
        if risk in (RiskClass.WRITE, RiskClass.DESTRUCTIVE) and call.name not in _HARNESS_CALLS:
            which = self._ambiguous(call, needs_source=risk is RiskClass.DESTRUCTIVE or call.name in EDITS_EXISTING)
            if which is not None:  # handoff_which_contract: the first of two contracts edited
                phrase, files = which
                msg = (f"Not run: the task says \"{phrase}\", and {len(files)} files could be it: {', '.join(files)}. "
                       "Only the user knows which one: call ask_human and ask which file they mean.")
                return (yield from self.finish(call, ToolResult(text=msg, error=True, data={AMBIGUOUS_KEY: files}),
                                               "denied"))
            unread = unread_inputs(s.task.goal, s.task.workspace, s.calls, call, self._made())
            if unread:
                return (yield from self._read_first(call, unread, f"Not run: the task names {unread[0]}, which you "
                                                    f"had not read; what it says decides what {call.name} should do."))
            mixed = _wrong_type_folder(s.task.goal, call)
            if mixed:  # files_organise at 462ec82: sunset.jpg moved into inbox/pdf
                name, kind, folder = mixed
                target = f"{folder.rsplit('/', 1)[0]}/{kind}" if "/" in folder else kind
                msg = (f"Not run: {name} is a .{kind} file, and {folder} is the folder for .{folder.rsplit('/', 1)[-1]} "
                       f"files; the task sorts files by extension: move it to {target}/{name}.")
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            source = self._changes_a_source(call)
            if source:  # calendar_from_invite at 462ec82: invite.txt's date rewritten, then the event on that date
                store, tool_name, rel = source
                msg = (f"Not run: the task asks for a change in the {store}, and the user did not ask to write "
                       f"{rel}; make the change with {tool_name}.")
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            kept = self._deletes_what_it_changes(call)
            if kept:  # batch AZ at 018ad5b (AZE): orders.csv deleted for "Remove all orders from 2025 from orders.csv"
                return (yield from self.finish(call, ToolResult.fail(self._with_pending(kept)), "denied"))
            moved = self._moves_an_input(call)
            if moved:  # csv_top_customers at db466c8: orders.csv renamed to orders_backup.csv, top3.csv never made
                msg = self._with_pending(f"Not run: {moved} is a file the task reads from, and the task does not "
                                         "ask to move, rename or delete it; leave it where it is.")
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            back = self._brings_back_a_moved_file(call) or self._writes_what_is_there(call) \
                or self._wipes_a_file_to_change(call) or self._recreates_a_copy(call) \
                or self._edits_a_file_to_rename(call) or row_gap(s.task.goal, s.task.workspace, call)
            if back:  # a held-out task at 6ad68a4: report.txt renamed as asked, then written again, and the new
                # name overwritten with its own text less its line break
                return (yield from self.finish(call, ToolResult.fail(self._with_pending(back)), "denied"))
            want = self._unasked_output(call)
            if want:  # multistep_invoices_memo at db466c8: the invoices written to summary.xlsx, never invoices.xlsx
                args = {k: v for k, v in call.arguments.items() if k != "output"}
                copy = call_to_copy(call.name, {**args, 'path': want})
                text = _as_text(call) if _writes_text(want) and call.name in _OFFICE_MAKERS else None
                if text is not None:  # a held-out memo.md at 3c4a06c: xlsx_write to summary.md got xlsx_write to
                    # memo.md to copy, which xlsx_write refuses (a workbook must be named *.xlsx)
                    copy = call_to_copy("write_file", {"path": want, "content": text}) if text else \
                        f"write it with write_file (path {want!r}, content: its text)"
                msg = f"Not run: the task asks for {want}, not {call.arguments.get('path')}; write {want}: {copy}"
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            kin = self._new_file_for_a_change(call)
            if kin:  # handoff_which_contract at ef38a30: contracts/client-address.docx made up for "the contract"
                msg = (f"Not run: the task asks to change a file that exists, not to make a new one; "
                       f"{call.arguments.get('path')} is not in the workspace. Its files of that kind: "
                       f"{', '.join(kin[:8])}. Change the one the task means; if more than one may be meant, call "
                       "ask_human to ask the user which.")
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            copy = self._copies_an_input(call) if _output_optional(tool) else None
            if copy:  # docx_append_paragraph at 36d1140: the paragraph added to new_letter.docx, not letter.docx
                # run it on the file itself, saying so: refused, at 237b37e the same call came back three times
                path, output = copy
                del call.arguments["output"]
                params = tool.validate(call.arguments)
                risk = tool.risk_of(self.ctx, params)
                said = (f"(output={output!r} was left out: the task asks to change {path} itself, so the change is "
                        "saved there; it can be undone.)")
                remapped = f"{remapped}\n{said}" if remapped else said
            replaced = self._replaces_an_input(call)
            if replaced:  # docx_edit_clause at e03cee3: contract.docx re-created holding clause 2 alone
                msg = (f"Not run: {call.name} makes a new document, and {replaced} is a document the task asks to "
                       f"change, not replace: it would keep only what you pass. Change it in place (docx_replace "
                       "finds a text and replaces it; docx_insert adds paragraphs).")
                msg += _changed_before(replaced, s.calls)
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            long = summary_too_long(s.task.goal, s.calls, call)
            if long:  # docx_summarise at fbc3d9d: all 11 paragraphs of report.docx copied into summary.docx
                msg = (f"Not run: the task asks for a summary, and {long}. Write only the key points the task "
                       "asks for, in a few short sentences or bullets.") + _summary_to_copy(call, s.task.goal, s.calls)
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            lacking = summary_lacks(s.task.goal, s.calls, call) \
                if call.name in ("docx_create", "write_file") and call.arguments.get("path") in goal_files(
                    s.task.goal)[0] else []
            if lacking:  # docx_summarise at 9fda44c: one paragraph of the project's description, no budget or risk
                msg = (f"Not run: the task asks the summary to include {', '.join(lacking)}, and this text says "
                       "nothing of it.") + _summary_to_copy(call, s.task.goal, s.calls)
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            repeated = _repeated_group(s.task.goal, call)
            if repeated:  # xlsx_group_sums at e03cee3: the twelve sales rows copied, North three times
                key, n, unit = repeated
                query = self._query_to_copy()  # xlsx_group_sums at 42e28a8: told this, the twelve rows came back
                how = f": call table_query with {query}" if query else f" with table_query (SUM ... GROUP BY {unit})"
                msg = (f"Not run: the rows name {key!r} {n} times in their first column, and the task asks for one "
                       f"row per {unit}: add them up first{how} and write its rows.")
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            empty = self._empty_sheet_before_query(call)
            if empty:  # xlsx_group_sums at 4df8dd6: an empty "By Region" added, then xlsx_write without rows, 3 times
                return (yield from self.finish(call, ToolResult.fail(empty), "denied"))
            total = self._wrong_total_row(call)
            if total:  # xlsx_total at 1c5fa31: "Total" rows of one item's sum each (201.40, 73.15, ...), five of them
                return (yield from self.finish(call, ToolResult.fail(total), "denied"))
            other = self._other_sheet(call)
            if other:  # xlsx_summary_sheet at c3438bd: a cross-sheet total written into B5 of the Jan sheet
                return (yield from self.finish(call, ToolResult.fail(other), "denied"))
            renamed = self._renames_in_a_sort(call)
            if renamed:  # files_organise at 61738e2: "invoice-march.pdf" renamed "invoice-march.pdf_files"
                return (yield from self.finish(call, ToolResult.fail(renamed), "denied"))
            past = self._cells_past_change(call)
            if past:  # a held-out task at a6267c9: Pad's price changed, then "Eraser", 2.0 added under the table
                return (yield from self.finish(call, ToolResult.fail(past), "denied"))
            row = self._column_not_rows(call) or self._row_not_sheet(call) or self._sheet_unasked(call)
            if row:  # xlsx_total at 4df8dd6: a sheet "Total" added for a total row, then "Total" written into it
                return (yield from self.finish(call, ToolResult.fail(row), "denied"))
            bare = self._header_only_sheet(call)
            if bare:  # xlsx_group_sums at 04fe9b0: "By Region" added with its header alone, the sums never written
                return (yield from self.finish(call, ToolResult.fail(bare), "denied"))
            placeholder = self._overwrites_own_output(call)
            if placeholder:  # files_merge_todos at 237b37e: todo/all.txt, combined right, overwritten with line1..line5
                msg = (f"Not run: {placeholder} was made by this task already, and this call would replace all of "
                       "it with lines that no file, tool result or user word holds. If the file is done, give your "
                       "final answer; otherwise change it with lines taken from what you read.")
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            report = _writes_a_report(call, s.calls)
            if report:  # files_merge_todos at dd4189c: todo/all.txt overwritten with combine_files' own message
                what = "the diff" if _DIFF.search(str(call.arguments.get("content"))) else "the result message of"
                shown = f"{what} {report.name} showed" if what == "the diff" else f"{what} {report.name}"
                msg = (f"Not run: this content is {shown} (step {report.step}), not what the file should hold; "
                       f"{report.name} already wrote the file. If that completes the task, give your final answer.")
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            undone = _undoes_change(s.task.goal, call, s.calls)
            if undone is not None:  # docx_edit_clause at 42e28a8: "30 days" -> "60 days", then "60 days" -> "30 days"
                old, new = _edit_pair(undone)
                msg = (f"Not run: this would change {new!r} back to {old!r}, undoing step {undone.step}, which made "
                       f"the change the task asks for. That change is done; if nothing else is asked, give your "
                       "final answer.")
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            again = _makes_change_again(s.task.goal, call, s.calls, self._change_everywhere(call))
            if again is not None:  # docx_edit_clause at 2056215: clause 2 changed (p4), then clause 3 (p5) too
                old, new = text_change(s.task.goal) or ("", "")
                msg = (f"Not run: step {again.step} already changed {old!r} to {new!r} in {again.arguments.get('path')}"
                       f", the one change the task asks for; this would change it in a place the task leaves alone. "
                       "If that completes the task, give your final answer.")
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            source = self._writes_a_source(call)
            if source:  # a held-out task at 11a1600: blank lines put in emails.txt, the addresses' source
                return (yield from self.finish(call, ToolResult.fail(source), "denied"))
            beyond = self._deletes_beyond_asked(call)
            if beyond:  # a held-out task at 2e1bee7: the drafts folder deleted for its empty files
                return (yield from self.finish(call, ToolResult.fail(beyond), "denied"))
            change = text_change(s.task.goal) if call.name == "docx_insert" and not _ADDS.search(s.task.goal) else None
            if change:  # a held-out task at 2e1bee7: p2 with the change inserted after p1; the old p2 stayed
                args = {"path": call.arguments.get("path"), "find": change[0], "replace": change[1]}
                made = next((c for c in s.calls if c.name == "docx_replace" and c.status == "done" and not c.error
                             and norm_path(str(c.arguments.get("path", ""))) == norm_path(str(args["path"]))
                             and (c.arguments.get("find"), c.arguments.get("replace")) == change), None)
                msg = (f"Not run: the task changes {change[0]!r} to {change[1]!r}, and docx_insert adds a paragraph; "
                       f"change the text where it is: {call_to_copy('docx_replace', args)}") if made is None else (
                    # docx_edit_clause at bad9c2a: the change made at step 1, then this refusal's call to copy
                    # repeated it, was refused as a change made again, and the task ended in a stuck hand-off
                    f"Not run: step {made.step} already changed {change[0]!r} to {change[1]!r} in {args['path']}, the "
                    "change the task asks for, and docx_insert would add a paragraph it does not ask for. If that "
                    "completes the task, give your final answer.")
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            twice = self._line_added_again(call)
            if twice:  # a held-out task at b9a0d5e: "- INV-3307" added to notes.md three times
                return (yield from self.finish(call, ToolResult.fail(twice), "denied"))
            added = _adds_again(call, s.calls)
            if added is not None:  # docx_append_paragraph at 4df8dd6: the paragraph added three times
                msg = (f"Not run: step {added.step} already added this to {added.arguments.get('path')}; adding it "
                       "again would put it there twice. If that completes the task, give your final answer.")
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            held = self._already_in_document(call)
            if held:  # docx_append_paragraph at ab03949: the letter's own second paragraph inserted again at the end
                return (yield from self.finish(call, ToolResult.fail(held), "denied"))
            written_call = _call_in_content(call, [*self.registry.names(), *self.extra_tools])
            if written_call:  # csv_top_customers at f000187: top3.csv holding "<table_query sql='SELECT ...' />"
                name, shown = written_call
                msg = (f"Not run: what this {call.name} call writes is a call of {name} written as text ({shown!r}); "
                       f"a file gets the data itself. Call {name} first (inside <tool_call> tags), then write what it "
                       "returns.")
                query = self._query_to_copy() if name == "table_query" else ""
                msg += f" E.g. call table_query with {query}." if query else ""
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            held = _placeholder_in_document(call, s.task.goal)
            if held:  # multistep_invoices_memo at 8d08546: memo.docx holding "{{total_amount}}", and "done"
                msg = (f"Not run: {held!r} is a placeholder to fill in, not the text itself; nothing was written. "
                       "Write the real value (a number as a tool returned it) where it stands.")
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            blocks = _markdown_blocks(call)
            if blocks:  # a held-out task at 1de0702: memo.docx's department totals a "| ... |" table in one paragraph
                msg = ("Not run: a paragraph's text is Markdown (a table, a list or a heading), and a Word document "
                       "would show its '|', '-' and '#' as characters; each is a block of its own: "
                       f"{call_to_copy(call.name, {**call.arguments, 'blocks': blocks})}")
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            markup = _html_in_document(call)
            if markup:  # docx_append_paragraph at 2056215: "Kind regards, Sofia Rossi<br/>Approved by: Dana Lee"
                msg = (f"Not run: {markup!r} is HTML, and a Word document would show it as those characters. "
                       "A new paragraph is a block of its own: docx_insert with blocks (omit after to add at the end).")
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            whole = copies_whole_source(s.task.goal, call, s.calls)
            if whole:  # multistep_minutes_note at 21c8a9e: all of minutes.docx saved as the "Action items" note
                source, what, lines = whole
                msg = (f"Not run: this {call.name} copies nearly all of {source}, and the task asks for a list of "
                       f"every {what} only. The lines of {source} that name one: {listed_call(call, lines)}")
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            short = leaves_out_listed(s.task.goal, call, s.calls)
            if short:  # multistep_minutes_note at 0417c73: Bruno's action item left out of the "Action items" note
                source, what, missing, lines = short
                msg = (f"Not run: the task asks for every {what}, and this {call.name} leaves out "
                       f"{'; '.join(map(repr, missing))}. The lines of {source} that name one: "
                       f"{listed_call(call, lines)}")
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            pulled = extraction_asked(s.task.goal, s.calls) if call.name == "write_file" else None
            wrong = extraction_wrong(pulled, str(call.arguments.get("content", ""))) \
                if pulled is not None and norm_path(str(call.arguments.get("path", ""))) == norm_path(pulled.output) \
                else ""
            if wrong:  # a held-out task at 11a1600: "Cy (cy@z.net)", "Reply to dan@w.io" written, ana@x.org left out
                return (yield from self.finish(call, ToolResult.fail(f"Not run: {wrong}"), "denied"))
            removed = _removes_text(s.task.goal, call)
            if removed and call.name == "edit_file" and removed not in self._text_of(call.arguments.get("path")):
                removed = ""  # not in the file: nothing to keep, the tool says so (a held-out task at 2e1bee7 was
                # given the call that kept "Olive Oil" of prices.csv, which had none, three times)
            column = column_to_add(s.task.goal) if removed and call.name == "edit_file" and str(
                call.arguments.get("path", "")).lower().endswith((".csv", ".tsv")) else ""
            if column:  # a held-out task (SH) at 5910adb: the offered edit put "temp_f\n\ntemp_c" in the header's
                # place, no row got a value, and the task finished saying the column was added
                table = re.sub(r"\W+", "_", Path(str(call.arguments.get("path"))).stem).strip("_").lower()
                msg = (f"Not run: the task adds a {column} column, and this edit_file would change the header of "
                       f"{call.arguments.get('path')} only; a column needs a value in every row. Work the values out "
                       f"with table_query (SELECT *, <its expression> AS {column} FROM {table}), then write the rows "
                       "back with csv_write")
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            if removed:  # docx_append_paragraph at dd4189c: the signature "Sofia Rossi" replaced by "Dana Lee"
                tool_name = "docx_insert (omit after to add at the end)." if call.name == "docx_replace" else \
                    call_to_copy("edit_file", self._kept_and_added(call))
                msg = (f"Not run: the task asks to add, and this {call.name} would remove {removed!r} from the file; "
                       f"add without changing what is there: {tool_name}")
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            dropped = (self._add_drops_lines(call) or self._change_drops_lines(call)) \
                if not self._harness_offered(call) else ""
            if dropped:  # a held-out task (OB) at 0959310: reminders.txt written again with its lines numbered
                return (yield from self.finish(call, ToolResult.fail(dropped), "denied"))
            ragged = self._ragged_table(call)
            if ragged:  # batch GZ at 833d98d (GZH): "name,score\nAnna,70\n75\nBen,85" written, the task called done
                return (yield from self.finish(call, ToolResult.fail(ragged), "denied"))
            viewed = self._read_view_written(call)
            if viewed:  # a held-out task at 1de0702: todo.md written as "todo.md (utf-8, 6 lines)\n 1\t# Todo ..."
                return (yield from self.finish(call, ToolResult.fail(viewed), "denied"))
            other = self._ticks_another(call)
            if other:  # the same task: "buy stamps" ticked for "Mark call the bank as done"
                return (yield from self.finish(call, ToolResult.fail(other), "denied"))
            numbered = _line_numbers_as_data(call, s.calls)
            if numbered:  # csv_to_xlsx at dd4189c: ["1", "Name", "Email", "City"], ["2", "Ines Costa", ...]
                msg = (f"Not run: the first value of each row ({', '.join(numbered[:4])}, ...) is the line number "
                       "read_file shows in front of each line, not part of the file; leave it out"
                       + (" (or copy a CSV file whole with from_csv)" if call.name == "xlsx_write" else "") + "."
                       + self._unnumbered_call(call))
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            single = _single_rows_as_totals(s.task.goal, call, s.calls)
            if single:  # xlsx_top_vendors at 462ec82: one payment per vendor written as its total
                name, number, rows = single
                query = self._query_to_copy()  # xlsx_top_vendors at 0cfab8b: "SELECT SUM(amount) ... GROUP BY
                # vendor" was its own next query, the vendors left out
                how = f": call table_query with {query}" if query else " with table_query (SUM ... GROUP BY)"
                msg = (f"Not run: {number} is one row of {name!r}, which has {rows} rows in what you read, and the "
                       f"task asks for totals. Add them up first{how}, and write what it returns.")
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            invented = self._invented_numbers(call)
            if invented:  # xlsx_summary_sheet: a Summary sheet of monthly totals 200 and 300 found nowhere
                msg = (f"Not run: the numbers {', '.join(invented[:5])} in this {call.name} call appear in no tool "
                       "result of this task and not in the user's words. Get each number from a tool first (for "
                       "totals, table_query); never work numbers out by hand.")
                row = row_to_add(s.task.goal, s.task.workspace, str(call.arguments.get("path") or "")) \
                    if call.name == "xlsx_write" else None
                query = self._query_to_copy()
                ran = next((c for c in reversed(s.calls) if c.name == "table_query" and c.status == "done"
                            and not c.error and not (c.data or {}).get("repeat_of")), None)
                column, changed = self._percent_change_query()
                summed, running = self._running_query()
                if changed:  # a held-out task at 11a1600: 4.00 + 10% worked out by hand for prices_vat.csv
                    msg += (f" For the new {column} values, call table_query with {changed}; its result shows the "
                            "call that saves them.")
                elif running:  # held-out BZH at bbbe1fb: a GROUP BY offered for a running total
                    msg += (f" For the running total of {summed}, call table_query with {running}; its result shows "
                            "the call that saves them.")
                elif row:  # xlsx_total at 0417c73: the queried 389.90 written as 189.9, three times, then stuck
                    msg += f" The row the task asks for needs no number typed: {call_to_copy('xlsx_write', row)}."
                elif ran is not None:  # told to run the query it had run
                    msg += (f" table_query at step {ran.step} gave numbers: write them as its result shows"
                            + (f" (for another total, call table_query with {query})." if query else "."))
                else:
                    msg += f" To get them, call table_query with {query} and write what it returns." if query else \
                        self._table_first()
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            codes = self._invented_text_codes(call)
            if codes:  # a held-out task at cf8dda3: INV-3456, INV-3457, ... added after the invoice's INV-3307
                msg = (f"Not run: {', '.join(map(repr, codes[:4]))} in this {call.name} call "
                       f"{'appear' if len(codes) > 1 else 'appears'} in no tool result of this task and not in the "
                       "user's words; write only what the files and the user give. If the change asked is made, "
                       "give your final answer.")
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            day, given, fixed = self._invented_date(call)
            if day:
                how = call_to_copy(call.name, self._calendar_to_copy(call, fixed)) if fixed else \
                    "Pass the date (and time) as the source writes it."
                msg = f"Not run: the start's date {day} is in no file this task read; the source gives " \
                      f"{', '.join(given[:3])}. {how}"
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            made, given, fixed = self._invented_times(call)
            if made:
                msg = (f"Not run: {' and '.join(made)} {'are' if len(made) > 1 else 'is'} in no file this task read "
                       f"and not in the user's words; the source gives {', '.join(given[:3])}. "
                       f"{call_to_copy(call.name, self._calendar_to_copy(call, fixed))}")
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            codes = self._invented_codes(call)
            if codes:  # calendar_from_invite at e43e9f3: "Room 4C" for the invite's Room 4B
                msg = (f"Not run: {', '.join(map(repr, codes))} in the {call.name} location appears in no tool result "
                       "of this task and not in the user's words. Pass the place as the source writes it.")
                place = _place_in_sources(str(call.arguments["location"]), codes, self._number_sources(call))
                if place:  # calendar_from_invite at 21c8a9e: "Room 5A" sent four times for the invite's Room 4B
                    fixed = {**call.arguments, "location": place}
                    msg += f" The source says {place!r}: {call_to_copy(call.name, fixed)}"
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            people = self._invented_attendees(call)
            if people:  # calendar_add_event at 4f7db1e: the user named nobody; "Your Name" was invited
                args = self._calendar_to_copy(call, _without_people(call.arguments, people))
                msg = (f"Not run: the attendees {', '.join(map(repr, people))} appear in no tool result of this task "
                       f"and not in the user's words; invite only people they name. {call_to_copy(call.name, args)}")
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
            guessed = self._guessed_before(call)
            if guessed is not None:
                msg = (f"Not run: these are the arguments you wrote before reading {guessed.data['read_for_you']}, "
                       f"so they do not come from it. Write the call from what it says (step {guessed.step}).")
                return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
        copied = _copied_plan_step(call, s.calls, s.messages, s.task.plan.steps if s.task.plan else ()) \
            if call.name == "update_plan" else ""
        if copied:  # files_rename_pattern at 80595a7
            msg = (f"Not saved: the plan step {copied!r} copies a tool result or the harness's note, not a step of "
                   "the task. Each step is one short action of yours toward the user's goal (e.g. \"Rename the files "
                   "with rename_many\"); or skip the plan and call the tool for the next step.")
            return (yield from self.finish(call, ToolResult.fail(msg), "invalid"))
        question = str(call.arguments.get("question", "")) if call.name == "ask_human" else ""
        if question and _confirms_goal(question, s.task.goal, s.task.workspace) \
                and not any((c.data or {}).get(AMBIGUOUS_KEY) for c in s.calls):
            msg = self._with_pending("Not asked: the user already asked for exactly this in their request; they are "
                                     "waiting for you to do it. Do it with the tools, then answer.")
            return (yield from self.finish(call, ToolResult.fail(msg), "denied"))  # calendar_from_invite
        if call.name == "ask_human" and _restates_goal(str(call.arguments.get("question", "")), s.task.goal) \
                and not any((c.data or {}).get(AMBIGUOUS_KEY) for c in s.calls) \
                and not undoable_verb(s.task.goal, [*self.registry.names(), *self.extra_tools]) \
                and not _files_tell(call, s.calls, s.task.goal):  # what the files say, below, is the better refusal
            # "which one?" is the user's; so is how to do what no tool can (handoff_send_budget at 04fe9b0: "How can
            # I send the budget to my manager?", asked as the write_file refusal said, refused as the request itself)
            # xlsx_top_vendors at db466c8: asked three times, the ranking's table_query to copy given all along
            msg = self._with_pending("Not asked: that is the user's own request, word for word; they are waiting for "
                                     "you to do it. Work it out from what the tools showed (or with another tool), "
                                     "then answer.")
            found = query_answer_to_copy(s.task.goal, s.calls)
            msg = f"{msg} If the query's row answers it, {found}" if found and "\n" not in msg else msg
            return (yield from self.finish(call, ToolResult.fail(msg), "denied"))  # pdf_find_figure
        tally = text_count(s.task.goal, s.task.workspace) if question else None
        if tally is not None:  # a held-out task at ae69254: the count given after the read, then "Please specify the
            # folder to search in (e.g., '.' for current directory)." asked, find_files' own error
            msg = (f"Not asked: the harness counted what the task asks, and the user need not tell you anything; "
                   f"{answer_to_copy(tally.said + '.')}")
            return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
        if question and _ASKS_TODAY.search(question):  # a development batch at b6900b3 (ZZD): "How old is each person
            # in people.csv today?" asked "What is today's date?", and the task waited on the user for the date
            msg = (f"Not asked: the date is in your instructions, and the user need not tell you: {today_line()} "
                   "Use it and go on with the task.")
            return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
        if question and _OFFERS_HELP.search(question) and not any((c.data or {}).get(AMBIGUOUS_KEY) for c in s.calls):
            # docx_summarise at e43e9f3: "Do you need help with the summary? If so, please provide the next step."
            msg = self._with_pending("Not asked: the user gave you this task to do and is waiting for you to do it; "
                                     "they will not do any step of it. Do what is left of it with the tools, then give "
                                     "your final answer.")
            return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
        # the question and its choices (csv_to_xlsx at 7dcd18e: "What function should I use to create the Excel file
        # from the CSV file?", choices xlsx_write and table_query, after xlsx_write's call to copy was given)
        choices = call.arguments.get("choices") if question else None
        asked = " ".join([question, *(str(c) for c in choices)] if isinstance(choices, list) else [question])
        named = [n for n in [*self.registry.names(), *self.extra_tools] if "_" in n and n != "ask_human"
                 and re.search(rf"\b{re.escape(n)}\b", asked)] if question else []
        if named and not any((c.data or {}).get(AMBIGUOUS_KEY) for c in s.calls):
            # xlsx_summary_sheet at 8282b36: the Summary sheet added, then "Do you want to run xlsx_recalc to compute
            # the formulas in the new sheet?" asked of the user, and the task paused on it
            msg = (f"Not asked: {named[0]} is a tool of yours, not the user's; whether to call it is yours to decide "
                   "(a change that needs the user's approval asks for it by itself). Call it if the task needs it, "
                   "or give your final answer.")
            pending = next_call_to_copy(s.calls, s.messages)
            if any(f": call {n} with " in pending for n in named):
                msg += f"\n{PENDING_NOTE} {pending})"
            return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
        search = grep_call(s.task.goal, [*self.registry.names(), *self.extra_tools]) \
            if question and _NAMES_A_FILE.search(question) and not any(
                c.name == "grep" and c.status == "done" and not c.error for c in s.calls) else None
        if search and not any((c.data or {}).get(AMBIGUOUS_KEY) for c in s.calls):
            # files_find at 4df8dd6: readme.txt read ("Personal archive."), then "Is the file 'readme.txt' about my
            # passport renewal appointment?" asked, and the task paused with the three folders never searched
            msg = ("Not asked: finding the file is the task, and what each file is about is in the files, not with "
                   f"the user. Search their text: {call_to_copy('grep', search)}.")
            return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
        held = _asks_what_a_read_file_holds(call, s.calls) if not any(
            (c.data or {}).get(AMBIGUOUS_KEY) for c in s.calls) else None
        if held is not None:  # a held-out task at 9006d65: "What topics are listed in the file 'topics.txt'?" asked
            # of the user after read_file had shown the three topics
            msg = (f"Not asked: what {held.arguments.get('path')} holds is the file's to say, and {held.name} at step "
                   f"{held.step} read it: its result is in the history above. Use it to do the task.")
            pending = next_call_to_copy(s.calls, s.messages)
            msg += f"\n{PENDING_NOTE} {pending})" if pending else ""
            return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
        told = _files_tell(call, s.calls, s.task.goal) if call.name == "ask_human" else ""
        if told and not any((c.data or {}).get(AMBIGUOUS_KEY) for c in s.calls):
            msg = (f"Not asked: the files already say it ({told}). Use what they say; ask the user only what "
                   "the files cannot tell you.")
            # a summary the goal asks for: the write of what to include, to copy (docx_summarise at 7b217b1: the
            # budget, the deadline and the risk each asked of the user, refused, and the summary never written)
            made = [p for p in goal_files(s.task.goal)[0] if p.lower().endswith((".docx", ".md", ".txt"))]
            try:
                fresh = bool(made) and not self.ctx.workspace.exists(made[0])
            except Exception:  # noqa: BLE001 - a path the workspace refuses gets no call to copy
                fresh = False
            if fresh:
                kind = "docx_create" if made[0].lower().endswith(".docx") else "write_file"
                msg += _summary_to_copy(CallRecord(id="", step=0, turn_seq=0, name=kind, arguments={"path": made[0]}),
                                        s.task.goal, s.calls)
            return (yield from self.finish(call, ToolResult.fail(msg), "denied"))  # calendar_from_invite
        failed = [c for c in s.calls if c.final and c.id != call.id and c.name != "ask_human"][-1:]
        # a tool's own error or invalid arguments, not a harness refusal (the ambiguity refusal wants a question)
        if call.name == "ask_human" and failed and failed[0].error and failed[0].status in ("error", "invalid") \
                and _ASKS_FOR_HELP.search(str(call.arguments.get("question", ""))):
            # csv_to_xlsx at 237b37e: one xlsx_write with invalid rows, then "What went wrong? ... Can you help me?"
            why = ((failed[0].result or "").strip().splitlines() or [""])[0][:200]
            msg = (f"Not asked: the error of {failed[0].name} at step {failed[0].step} says what went wrong ({why}). "
                   "Fix that call as it says and send it again, or use another tool; ask the user only for what "
                   "the task leaves open.")
            return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
        if call.name == "ask_human":  # csv_to_xlsx: "Do you have the contacts.csv file in your workspace?"
            unread = unread_inputs(s.task.goal, s.task.workspace, s.calls, made=self._made())
            if unread:
                return (yield from self._read_first(call, unread, f"Not asked: {unread[0]} is in the workspace and "
                                                    "you had not read it; ask the user only what the files cannot "
                                                    "tell you."))
        earlier = self.answered_before(call)  # before any approval: a repeat is never run, so never asked about
        if earlier is not None:
            return (yield from self.finish(call, ToolResult(text=self._repeat_note(earlier),
                                                            data={"repeat_of": earlier.id})))
        decision = decide(s.task.approve, risk, grants=s.task.grants, approved=call.approved)
        if decision == "deny":
            msg = (f"Not allowed: {call.name} is a {risk.value} action and this task is read-only "
                   "(approve=none). Use read-only tools or give your final answer.")
            return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
        if decision == "ask" and risk is RiskClass.DESTRUCTIVE and self._source_missing(call):
            decision = "allow"  # nothing there to destroy: it fails "not found" instead of asking about a phantom
        if decision == "ask":
            call.status = "awaiting_approval"
            diff = self._preview(tool, params)
            reason = f"{call.name} ({risk.value}) needs your approval: {_short_args(call.arguments)}"
            yield ApprovalRequested(call=call.brief(), risk=risk.value, diff=diff)
            yield s.pause("approval", reason, APPROVAL_CHOICES, call_id=call.id, calls=[call])
            return True
        doubt = self._memory_doubt(call)
        if doubt:
            return (yield from self.finish(call, ToolResult.fail(doubt), "denied"))
        if tool.name == "ask_human":
            call.status = "awaiting_answer"
            yield s.pause("question", params.question, list(getattr(params, "choices", []) or []),
                          call_id=call.id, calls=[call])
            return True
        return (yield from self._execute(call, tool, params, risk, note, remapped=remapped))

    def _changes_a_source(self, call: CallRecord) -> tuple[str, str, str] | None:
        """``(store, tool, path)`` when the goal asks for a change in the calendar or
        the notes and ``call`` would change a file the goal names to read from, or
        a file the goal does not name at all (write_file: any it does not ask for);
        else None."""
        store = store_goal(self.s.task.goal)
        ws = getattr(self.ctx, "workspace", None)
        if store is None or ws is None or store[1] not in self.registry \
                or call.name.startswith(store[1].split("_")[0] + "_"):
            return None  # no calendar tool: the user may keep the calendar in a file
        other = {"calendar": "note_add", "notes": "calendar_add_event"}[store[0]]
        if call.name == other:  # calendar_next_weekday at 36d1140: the meeting saved as a note, never in the calendar
            return (*store, "a note" if other == "note_add" else "a calendar event")
        outputs, inputs = goal_files(self.s.task.goal)
        path = call.arguments.get("path")
        if call.name == "write_file" and isinstance(path, str) and norm_path(path) not in outputs:
            return (*store, path)  # note_add at dd4189c: the note written as wifi-password.md in the workspace too
        inputs = {norm_path(p) for p in inputs}
        named = inputs | {norm_path(p) for p in outputs}
        for key in ("path", "src", "dest", "output"):
            path = call.arguments.get(key)
            if not isinstance(path, str) or not path.strip():
                continue
            try:
                rel = ws.rel(ws.resolve(path))
            except Exception:  # noqa: BLE001 - outside the workspace etc.: the tool refuses it itself
                continue
            if norm_path(rel) in inputs and rel not in self._made():
                return (*store, rel)
            if norm_path(rel) not in named:  # calendar_next_weekday at 42e28a8: README.txt edited ("My desk. It's
                return (*store, rel)  # a nice desk.") in a task that only asks for a calendar event
        return None

    def _own_kind_output(self, call: CallRecord) -> str:
        """For a ``docx_*`` call with ``blocks`` sent to a file of another kind: the
        docx_create of those blocks to copy, into the one .docx the goal asks for that
        does not exist yet; "" otherwise. multistep_invoices_memo at 21c8a9e: the total
        queried, then docx_insert of "Total amount of all invoices: ..." into
        invoices.xlsx, refused with "Call xlsx_write instead", and memo.docx never made."""
        blocks = call.arguments.get("blocks")
        ws = getattr(self.ctx, "workspace", None)
        if not call.name.startswith("docx_") or not isinstance(blocks, list) or not blocks or ws is None \
                or _table_rows(call.arguments):  # a table sent to a workbook is the workbook's
            return ""
        # a finding (a number a tool gave), not the workbook's own title: multistep_invoices_memo at 7382ba5 put
        # the "Invoices" heading and "List of all invoices." meant for invoices.xlsx into memo.docx this way
        text = " ; ".join(v for _, v in _strings(blocks))
        if not _NUMBER.search(text) or number_problems(text, self._number_sources(call), amounts=False):
            return ""
        try:
            missing = [o for o in goal_files(self.s.task.goal)[0] if o.lower().endswith(".docx") and not ws.exists(o)]
        except Exception:  # noqa: BLE001 - a path the workspace refuses gets no call to copy
            return ""
        if len(missing) != 1:
            return ""
        return (f" The .docx the task asks for, {missing[0]}, is not made yet; to write these blocks into it, "
                f"{call_to_copy('docx_create', {'path': missing[0], 'blocks': blocks})}")

    def _unasked_output(self, call: CallRecord) -> str:
        """The file the goal asks for that ``call`` should write instead, when it would
        make a new file the goal does not name, of the type of exactly one output the
        goal asks for that does not exist yet; "" otherwise."""
        path = call.arguments.get("path")
        ws = getattr(self.ctx, "workspace", None)
        if call.name not in _MAKERS or not isinstance(path, str) or not path.strip() or ws is None:
            return ""
        outputs = goal_files(self.s.task.goal)[0]
        ext = os.path.splitext(path)[1].lower()
        try:
            # the workspace's own absolute path names the same file (a held-out task at 2e1bee7: README.md refused
            # as /tmp/.../README.md)
            rel = ws.rel(ws.resolve(path)) if os.path.isabs(path) else path
            if norm_path(rel) in {norm_path(o) for o in outputs} or ws.exists(path):
                return ""
            missing = [o for o in outputs if os.path.splitext(o)[1].lower() == ext and not ws.exists(o)]
        except Exception:  # noqa: BLE001 - outside the workspace etc.: the tool refuses it itself
            return ""
        return missing[0] if len(missing) == 1 else ""

    def _new_file_for_a_change(self, call: CallRecord) -> list[str]:
        """The workspace's files of the kind of the new file ``call`` would make, when
        the goal only asks to change something that exists ("Update the client's
        address in the contract ...": its first word a change, no word of making, no
        file named to write) and the workspace holds such files; [] otherwise.
        handoff_which_contract at ef38a30: with contract-acme.docx and contract-birch.docx
        there, Qwen 1.5B made contracts/client-address.docx holding an address of its
        own, then edited that."""
        path, ws, goal = call.arguments.get("path"), getattr(self.ctx, "workspace", None), self.s.task.goal
        if call.name not in _MAKERS or not isinstance(path, str) or not path.strip() or ws is None \
                or not _CHANGE_ONLY.match(goal) or _MAKING.search(goal) or goal_files(goal)[0]:
            return []
        ext = os.path.splitext(path)[1].lower()
        try:
            if ws.exists(path) or not ext:
                return []
            return sorted(itertools.islice((p for p in ws.iter_files(".", f"*{ext}")), 50))
        except Exception:  # noqa: BLE001 - outside the workspace etc.: the tool refuses it itself
            return []

    def _moves_an_input(self, call: CallRecord) -> str:
        """The file the goal names to read from that ``call`` (``move``, ``delete`` or
        ``rename_many``) would move, rename or delete, when the goal's words ask for
        no such thing (:data:`_MOVING_GOAL`); "" otherwise."""
        goal = self.s.task.goal
        if call.name not in ("move", "delete", "rename_many") or _MOVING_GOAL.search(goal):
            return ""
        inputs = [norm_path(p) for p in goal_files(goal)[1]]
        if call.name == "rename_many":
            folder = norm_path(str(call.arguments.get("folder") or "."))
            folder = "" if folder in (".", "") else folder
            find, pattern = str(call.arguments.get("find") or ""), str(call.arguments.get("pattern") or "*")
            return next((p for p in inputs if (p.rsplit("/", 1)[0] if "/" in p else "") == folder and find
                         and find in p.rsplit("/", 1)[-1] and fnmatch.fnmatch(p.rsplit("/", 1)[-1], pattern)), "")
        path = call.arguments.get("src", call.arguments.get("path"))
        if not isinstance(path, str) or not path.strip():
            return ""
        path = norm_path(path)
        return next((p for p in inputs if p == path or fnmatch.fnmatch(p, path)
                     or p.startswith(path.rstrip("/") + "/")), "")

    def _deletes_what_it_changes(self, call: CallRecord) -> str:
        """The refusal of a ``delete`` (or ``move``) of the file the goal takes something out
        of (:func:`named_files.removed_from`: "Remove all orders from 2025 from orders.csv"),
        with the write that takes it out when the harness can work it out
        (:func:`named_files.rewritten_lines`); "" otherwise."""
        rel = removed_from(self.s.task.goal)
        path = call.arguments.get("src", call.arguments.get("path"))
        if call.name not in ("delete", "move") or not rel or not isinstance(path, str) \
                or norm_path(path) != norm_path(rel):
            return ""
        try:
            text = self.ctx.workspace.read_text(rel)
        except Exception:  # noqa: BLE001 - not a text file: no write to offer
            text = ""
        asked = rewritten_lines(self.s.task.goal, text) if text else None
        how = (f"{rel} {asked[0]}: {call_to_copy('write_file', {'path': rel, 'content': asked[1]})}" if asked else
               f"read it, then write it back without what the task takes out")
        return f"Not run: the task takes something out of {rel}, and {rel} itself stays; {how}"

    def _brings_back_a_moved_file(self, call: CallRecord) -> str:
        """The refusal of a write of a new file at a path this task moved (or renamed)
        away, which is not there now and the goal does not ask to write: it brings back
        the old name ("" otherwise)."""
        path = call.arguments.get("path")
        if call.name not in ("write_file", "csv_write", "xlsx_write", "docx_create") or not isinstance(path, str) \
                or not path.strip() or (Path(self.s.task.workspace) / norm_path(path)).exists():
            return ""
        rel = norm_path(path)
        if rel in {norm_path(p) for p in goal_files(self.s.task.goal)[0]}:  # "make a.txt and b.txt"
            return ""
        moved = [ch.record for ch in self.s.store.changes(self.s.task.id)
                 if ch.record.get("op") == "move" and norm_path(str(ch.record.get("path", ""))) == rel]
        if not moved:
            return ""
        return (f"Not run: this task moved {rel} to {moved[-1].get('dest')}; writing {rel} again would bring back "
                f"the file under its old name. If the move was what the task asks, it is done: give your final "
                "answer.")

    def _edits_a_file_to_rename(self, call: CallRecord) -> str:
        """The refusal of a change to the contents of a file the goal only asks to rename
        or move ("Rename report.txt to report-2026.txt.") ("" otherwise). A held-out task
        at 8d09a0b: report.txt's line "Quarterly report draft" edited to "Quarterly report
        for 2026", then the rename refused, and a hand-off."""
        path = call.arguments.get("path")
        goal = self.s.task.goal
        if (call.name not in EDITS_EXISTING and call.name not in ("write_file", "xlsx_write")) \
                or not isinstance(path, str) or not _ONLY_MOVES.match(goal) or _CONTENT_CHANGE.search(goal) \
                or SHIFT_ASKED.search(goal) or COLUMN_MOVE_ASKED.search(goal) or LINE_MOVE_ASKED.search(goal):
            # "Move every meeting in schedule.csv 30 minutes later", "Move the email column of people.csv to the
            # front" (batch CZ at 64fba22: CZE, CZJ), "Move the line 'Pay rent' to the top" (batch EZ, EZF)
            return ""
        rel = norm_path(path)
        if rel not in {norm_path(p) for p in goal_files(goal)[1]}:
            return ""
        try:  # "Rename Cost to Price in items.csv": a header of the file, renamed inside it
            if column_edit(goal, self.ctx.workspace.read_text(rel)) is not None:
                return ""
        except Exception:  # noqa: BLE001 - no text to read: the file is renamed, if anything
            pass
        one = RENAME_ONE.search(goal)
        how = call_to_copy("move", {"src": one.group("old"), "dest": one.group("new")}) \
            if one and norm_path(one.group("old")) == rel else "rename_many, or move with the new name as dest"
        return (f"Not run: the task asks to rename or move {rel}, not to change what it says; leave its contents "
                f"as they are and rename it: {how}")

    def _writes_what_is_there(self, call: CallRecord) -> str:
        """The refusal of a ``write_file`` that would overwrite a text file with the text
        it already holds, but for white space at its end ("" otherwise): such a write
        changes nothing the user asked for."""
        path, content = call.arguments.get("path"), call.arguments.get("content")
        if call.name != "write_file" or not isinstance(path, str) or not isinstance(content, str) or not content \
                or any(c.name == call.name and c.arguments == call.arguments and c.id != call.id for c in self.s.calls):
            return ""  # the same call again: the repeat's own note says what it did
        target = Path(self.s.task.workspace) / norm_path(path)
        try:
            if not target.is_file() or target.stat().st_size > 1_000_000:
                return ""
            held = target.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return ""
        if held.rstrip() != content.rstrip():
            return ""
        return (f"Not run: {norm_path(path)} already holds this text; writing it again changes nothing. If the file "
                "was what the task asks, it is done: give your final answer.")

    def _recreates_a_copy(self, call: CallRecord) -> str:
        """The refusal of a write that makes a file named like one the goal asks to copy
        (``docx_create`` of archive/report.docx for "Copy report.docx into the archive
        folder") by writing it anew, with the ``copy`` call ("" otherwise). A held-out
        task at 5a8dc42: report.docx written again, its heading made a "# Q3 report"
        paragraph."""
        path = call.arguments.get("path")
        goal = self.s.task.goal
        if call.name not in ("docx_create", "write_file", "xlsx_write", "csv_write") or not isinstance(path, str) \
                or not _COPIES.search(goal) or self.registry.get("copy") is None:
            return ""
        name = Path(norm_path(path)).name.lower()
        src = next((f for f in goal_files(goal)[1] if Path(f).name.lower() == name and norm_path(f) != norm_path(path)
                    and self.ctx.workspace.exists(f)), None)
        if src is None:
            return ""
        return (f"Not run: the task asks to copy {src}; writing it anew loses what its text does not hold (styles, "
                f"layout, formulas). {call_to_copy('copy', {'src': src, 'dest': norm_path(path)})}")

    def _changes_a_done_rewrite(self, call: CallRecord) -> str:
        """The refusal of a change (``write_file``, ``edit_file``) of the text file the goal
        asks to rewrite the lines of (:func:`named_files.rewritten_lines`: repeated or empty
        lines taken out, letter case) when it holds that already, worked out from the
        text this task first read ("" otherwise)."""
        path = call.arguments.get("path")
        rel = rewrite_asked(self.s.task.goal)
        if call.name not in ("write_file", "edit_file") or not isinstance(path, str) or not rel \
                or norm_path(path) != norm_path(rel):
            return ""
        before = original_text(rel, self.s.calls)
        asked = rewritten_lines(self.s.task.goal, before + "\n") if before is not None else None
        try:
            now = self.ctx.workspace.read_text(rel)
        except Exception:  # noqa: BLE001 - the call itself will say what is wrong
            return ""
        if asked is None or now.rstrip("\n") != asked[1].rstrip("\n"):
            return ""
        return (f"Not run: {rel} holds what the task asks already ({asked[0]}); this {call.name} would change it "
                f"again. The task is done: give your final answer now, e.g. "
                f"{answer_to_copy(f'Done: {rel} is now {asked[0]}.')}")

    def _copies_onto_a_changed_file(self, call: CallRecord) -> str:
        """The refusal of a ``copy`` or ``move`` of a file onto itself after this task
        changed that file, saying the change is there and giving the answer to copy ("" otherwise).
        HZJ at 4bb2504: list.txt's lines reversed by write_file at step 1, then copied
        onto itself three times ("cannot copy list.txt onto itself") and a question to the user."""
        src, dest = call.arguments.get("src"), call.arguments.get("dest")
        if call.name not in ("copy", "move") or not isinstance(src, str) or not isinstance(dest, str):
            return ""
        root = Path(self.s.task.workspace).resolve()
        try:
            same = (root / src).resolve() == (root / dest).resolve()
            rel = (root / src).resolve().relative_to(root).as_posix()
        except (OSError, ValueError):
            return ""
        changed = [c for c in self.s.calls if c.id != call.id and c.status == "done" and not c.error
                   and c.risk in (RiskClass.WRITE.value, RiskClass.DESTRUCTIVE.value)
                   and any(isinstance(v := c.arguments.get(k), str) and norm_path(v) == rel for k in ("path", "dest"))]
        if not same or not changed:
            return ""
        last = changed[-1]
        said = " ".join(str(last.result or "").split())[:160]
        return (f"Not run: this would {call.name} {rel} onto itself, which changes nothing. This task already changed "
                f"{rel} with {last.name} at step {last.step} ({said}); the file holds that change now. If that is what "
                f"the task asks, give your final answer now, e.g. {answer_to_copy(f'Done: {rel} is changed ({said})')}")

    def _tool_read_as_a_file(self, call: CallRecord) -> str:
        """The refusal of a read (``read_file``, ``file_info`` ...) of a path that is a tool's
        name ("table_query", the source label of its result) and no file of the workspace,
        with where that tool's result is and, for a query, the answer it gives to copy ("" otherwise)."""
        path = call.arguments.get("path")
        if call.name not in ("read_file", "file_info", "pdf_read", "docx_read", "xlsx_read") or not isinstance(
                path, str) or norm_path(path) not in self.registry.names() or self.ctx.workspace.exists(path):
            return ""
        tool = norm_path(path)
        earlier = next((c for c in reversed(self.s.calls) if c.name == tool and c.status == "done" and not c.error),
                       None)
        where = f"; its result at step {earlier.step} is in the history above" if earlier else ""
        found = query_answer_to_copy(self.s.task.goal, self.s.calls) if tool == "table_query" and earlier else ""
        return (f"Not run: {tool} is a tool, not a file{where}. If it answers the task, give your final answer now"
                + (f"; {found}" if found else "; otherwise take the next step the task needs") + ".")

    def _harness_offered(self, call: CallRecord) -> bool:
        """Whether the harness spelled out ``call`` to copy in this task (each argument it
        gave the same): in a call's result or in a note of its own (a finish doubt)."""
        texts = [c.result or "" for c in self.s.calls] + [m.content or "" for m in self.s.messages[1:]
                                                            if m.role == "user"]
        return any(name == call.name and all(call.arguments.get(k) == v for k, v in args.items())
                   for text in texts if "call " in text for name, args in calls_to_copy_in(text))

    def _wipes_a_file_to_change(self, call: CallRecord) -> str:
        """The refusal of a ``write_file`` over an existing text file the goal names, in a
        task that changes or adds to it (not one that writes, rewrites or summarises it),
        that keeps fewer than half of the file's non-empty lines, close to as they were
        ("" otherwise). A held-out task at b552c3e: "Fix the typo recieve in readme.md."
        wrote readme.md as "edited readme.md" and finished."""
        import difflib

        path, content = call.arguments.get("path"), call.arguments.get("content")
        goal = self.s.task.goal
        named = {norm_path(p) for p in (*goal_files(goal)[0], *goal_files(goal)[1])}
        # "Add Olive Oil ... to prices.csv" names prices.csv as written: a file the user had all the same
        if call.name != "write_file" or not isinstance(path, str) or not isinstance(content, str) \
                or not (_CHANGES_TEXT.search(goal) or _ADDS.search(goal)) or _REWRITES.search(goal) \
                or norm_path(path) not in named or norm_path(path) in {norm_path(p) for p in self._made()} \
                or _writes_a_report(call, self.s.calls) is not None:  # a tool's result written back: refused below
            return ""
        if column_to_add(goal) and path.lower().endswith((".csv", ".tsv")):
            return ""  # a column added changes every line (the finish checks the column: SH at 5910adb)
        if self._harness_offered(call):  # the harness's own write, worked out from the text first read (XC at
            return ""  # 0958b96: the line put at its place refused, as the file held a wrong line then)
        target = Path(self.s.task.workspace) / norm_path(path)
        try:
            if not target.is_file() or target.stat().st_size > 200_000:
                return ""
            held = [ln.strip() for ln in target.read_text(encoding="utf-8").splitlines() if ln.strip()]
        except (OSError, UnicodeDecodeError):
            return ""
        new = [ln.strip() for ln in content.splitlines() if ln.strip()]
        same = set(new)
        close = len(held) * len(new) <= 40_000  # line by line only for a small file: the pairs cost time
        kept = sum(old in same or close and any(difflib.SequenceMatcher(None, old, line).ratio() >= 0.6
                                                for line in new) for old in held)
        # a typo fixed changes words, never drops a line (a held-out task at 4361efa left out the heading); nor
        # does an add (at 2e1bee7 prices.csv became its one new row)
        adds = bool(_ADDS.search(goal)) and not _CHANGES_TEXT.search(goal)
        if len(held) < 3 or (kept == len(held) if typo_asked(goal) or adds else kept * 2 >= len(held)):
            return ""
        msg = (f"Not run: this write_file would replace {norm_path(path)}'s {len(held)} lines with {len(new)} and "
               f"keep {'none' if not kept else kept} of them; the task asks for a change in it, not new text. "
               "edit_file changes only what it names (old_text to new_text, replace_all=true for every "
               "occurrence); or write the whole file with every line kept.")
        if adds:
            old = target.read_text(encoding="utf-8")
            lines = [re.sub(rf"^\s*{len(held) + 1 + i}[\t,]\s*", "", ln) if re.match(r"^\s*\d+[\t,]", ln) else ln
                     for i, ln in enumerate(ln for ln in content.splitlines() if ln.strip() and ln.strip() not in held)]
            both = old + ("" if old.endswith("\n") else "\n") + "".join(f"{ln.strip()}\n" for ln in lines)
            msg += f" To add to it, {call_to_copy('write_file', {'path': norm_path(path), 'content': both})}"
        return msg

    def _copies_an_input(self, call: CallRecord) -> tuple[str, str] | None:
        """``(path, output)`` when ``call`` would save its change of a file the goal names
        as one to work on to another path (``output``) the goal does not ask for; else None."""
        path, output = call.arguments.get("path"), call.arguments.get("output")
        if not isinstance(path, str) or not isinstance(output, str) or not output.strip() \
                or norm_path(output) == norm_path(path):  # xlsx_group_sums: output='sales.xlsx' for sales.xlsx
            return None
        outputs, inputs = goal_files(self.s.task.goal)
        if norm_path(output) in {norm_path(p) for p in outputs}:
            return None
        # an existing file the goal asks to add to ("Add a sheet ... to sales.xlsx") is one to work on too:
        # xlsx_group_sums at 4df8dd6 saved the new sheet to new_sales.xlsx, and sales.xlsx never got it
        existing = norm_path(path) in {norm_path(p) for p in outputs} and self.ctx.workspace.exists(path) \
            and norm_path(path) not in {norm_path(p) for p in self._made()}
        if norm_path(path) not in {norm_path(p) for p in inputs} and not existing:
            return None
        return path, output

    def _replaces_an_input(self, call: CallRecord) -> str:
        """The path when ``call`` is a ``docx_create`` over an existing document that the
        goal names as one to work on (an input, not an output to make); else ""."""
        path = call.arguments.get("path")
        ws = getattr(self.ctx, "workspace", None)
        if call.name != "docx_create" or not isinstance(path, str) or ws is None:
            return ""
        try:
            rel = ws.rel(ws.resolve(path))
            exists = ws.exists(rel)
        except Exception:  # noqa: BLE001 - outside the workspace etc.: the tool refuses it itself
            return ""
        inputs = {norm_path(p) for p in goal_files(self.s.task.goal)[1]}
        return rel if exists and norm_path(rel) in inputs and rel not in self._made() else ""

    def _source_missing(self, call: CallRecord) -> bool:
        """The call's ``path`` (or ``src``) names nothing in the workspace. Qwen 1.5B, told to
        "delete the old report", asked the user to approve deleting reports/old_report.pdf, a file it made up."""
        path = call.arguments.get("src", call.arguments.get("path"))
        ws = getattr(self.ctx, "workspace", None)
        if not isinstance(path, str) or not path.strip() or ws is None or any(ch in path for ch in "*?["):
            return False
        try:
            return not ws.exists(path)
        except Exception:  # noqa: BLE001 - outside the workspace etc.: the tool refuses it without asking
            return True

    def _memory_doubt(self, call: CallRecord) -> str:
        """Why ``call`` may not write long-term memory ("" when it may): a
        ``memory_add`` fact must come from the user's words or a tool result of this task."""
        if call.name != "memory_add":
            return ""
        from .evidence import ungrounded_words

        sources = [m.content for m in self.s.messages if m.role == "user" and m.kind in ("goal", "note")]
        sources += [c.result for c in self.s.calls if (c.status == "done" and not c.error or shown_for_model(c))
                    and c.id != call.id]
        missing = ungrounded_words(str(call.arguments.get("fact", "")), sources)
        if not missing:
            return ""
        return (f"Not remembered: {', '.join(missing[:5])} came neither from the user nor from a tool result of "
                "this task. Remember only what the user said or a tool returned.")

    # -- repeated calls ----------------------------------------------------------
    def answered_before(self, call: CallRecord) -> CallRecord | None:
        """The earlier call of this task with the same name and arguments that
        already succeeded, when nothing that changes things (another call that is
        not a read) ran since; else None. calendar_list_day: a refused
        calendar_add_event between two identical listings let the listing run again. Reads are answered from the journal;
        a repeated write is not run again either (Qwen 1.5B added the same calendar
        event four times in a row: each run would have been a duplicate)."""
        if call.name in _HARNESS_CALLS:
            return None
        sig, earlier = signature(call), None
        for c in self.s.calls:
            if c.id == call.id:
                break
            if c.status == "done" and not c.error and not (c.data or {}).get("repeat_of") and signature(c) == sig:
                earlier = c
            elif earlier is not None and c.status == "done" and c.risk and c.risk != RiskClass.READ.value \
                    and not (c.data or {}).get("repeat_of"):
                earlier = None  # something changed since: run it again (a refused or failed call changed nothing)
        return earlier

    def _names_another_tool(self, name: str, text: str) -> bool:
        """``text`` (a failed call's result) names a tool other than ``name``: "write_file writes plain
        text ... To make it from a CSV file: xlsx_write with ...". calendar_next_weekday: the error named
        no other tool, and the fix was the same tool with a start it could read."""
        names = set(self.registry.names()) | set(self.extra_tools)
        return any(n != name and re.search(rf"\b{re.escape(n)}\b", text) for n in names)

    def _corrected_after_refusals(self, call: CallRecord) -> str:
        """When this exact call was refused twice before ("Not run: ..."), and the last
        refusal spelled out a call of the same tool for the same ``path`` (or, for a tool
        without one, any call of that tool) to copy, ``call.arguments`` become that call's
        and the note saying so is returned ("" and nothing changed otherwise). The call then goes through every check as usual.
        docx_summarise at 1c5fa31: Qwen 1.5B sent the same docx_create of four headings
        three times, greedy and sampled alike, each refused with the summary call to copy
        (the report's budget, deadline and risk sentences), and ran out of steps."""
        refused = [c for c in self.s.calls if c.id != call.id and c.name == call.name
                   and c.arguments == call.arguments and c.status in ("denied", "invalid")
                   and (c.result or "").startswith("Not run")]
        path = call.arguments.get("path")
        if len(refused) < 2:
            return ""
        # a tool without a path (calendar_add_event): the same tool's call (a held-out task at a864c41: the call
        # without its made-up attendee given three times, never copied)
        for name, args in reversed(calls_to_copy_in(refused[-1].result or "")):
            if name == call.name and args.get("path") == path and args != call.arguments:
                call.arguments = dict(args)
                return (f"(Ran the call the harness gave at step {refused[-1].step} instead: this exact call was "
                        f"refused {len(refused)} times.)")
        return ""

    def failed_before(self, call: CallRecord, text: str) -> CallRecord | None:
        """The earlier call of this task with the same name and arguments that
        failed with the same ``text`` as ``call`` just did (refused, invalid or an
        error of the tool), else None. Only succeeded calls are answered from the
        journal (:meth:`answered_before`); a failed one runs again, since what it
        depends on may have changed (a file written since, the network back). When
        it fails the same way, the model is told so and its next turn is
        constrained without that tool: csv_to_xlsx at c628c84, Qwen 1.5B sent the
        same write_file of contacts.xlsx six times, each refused with a pointer to
        ``xlsx_write from_csv``, and the task paused as stuck. An ``ask_human`` the
        harness refused counts too (xlsx_lookup at b5a954c: the user's own question
        asked five times, each refused, until the task paused as stuck)."""
        if call.name in _HARNESS_CALLS and call.name != "ask_human":
            return None
        sig = signature(call)
        for c in reversed(self.s.calls):
            if c.id == call.id or c.step > call.step:
                continue
            if signature(c) == sig:  # the latest earlier one: had it failed, and the same way?
                return c if c.error and _failure_core(c.result or "") == _failure_core(text) else None
        return None

    def _repeat_note(self, earlier: CallRecord) -> str:
        folded = any(m.folded and m.tool_call_id == earlier.id for m in self.s.messages)
        where = "in the progress summary above" if folded else f"in the history above (step {earlier.step})"
        if earlier.risk and earlier.risk != RiskClass.READ.value:
            first = (earlier.result or "").strip().splitlines()[:1]
            done = f" ({first[0][:160]})" if first else ""
            gist = result_gist(earlier.result or "")
            # held-out tasks (SB, SK) at 5910adb: the file right at step 1, an empty reply, the same write sent again,
            # then tool groups asked for and edits that undid it: what the call did is the answer to copy
            copy = f", e.g. {answer_to_copy(f'Done: {gist}.')}" if gist else ""
            return (f"Not run again: this exact {earlier.name} call already succeeded at step {earlier.step}{done}; "
                    f"running it again would do it twice. If that completes the task, give your final answer "
                    f"now{copy}; otherwise take the next, different step.")
        if earlier.step == PREREAD_STEP and not folded and len(earlier.result or "") <= _SHOW_AGAIN_CHARS \
                and not any((c.data or {}).get("repeat_of") == earlier.id for c in self.s.calls):
            # pdf_find_figure, docx_summarise: the harness had read the file before step 1 and Qwen 1.5B asked
            # for it again at step 1, was told "Not run again", asked twice more and handed the question back
            return (f"The harness read this for you before your first turn (step 0); here it is again:\n"
                    f"{earlier.result.strip()}\nAnswer from it, or take the next step the task needs.")
        unread = unread_inputs(self.s.task.goal, self.s.task.workspace, self.s.calls, made=self._made())
        if unread:  # pdf_page_count: pdf_info three times, never pdf_read, for "the title on its first page"
            return (f"Not run again: this exact {earlier.name} call already ran at step {earlier.step} and its result "
                    f"is {where}. Not read yet: {', '.join(unread)}; {reader_hint(unread[0])}")
        step = self.next_step()
        found = query_answer_to_copy(self.s.task.goal, self.s.calls) if earlier.name == "table_query" else ""
        then = f" The plan's next step: {step}" if step else (
            " If it answers the task, give your final answer now; otherwise take a different next step."
            + (f" If its row answers it, {found}" if found else ""))
        save = self._save_hint(earlier.data or {}, str(earlier.arguments.get("sql", ""))) \
            if earlier.name == "table_query" else ""
        if save:  # csv_top_customers at 42e28a8: told "give your final answer now", top3.csv never written
            then = f" The task still asks for these rows in a file, not written yet. {save}"
        short = (earlier.result or "").strip()
        if short and len(short) <= _QUOTE_AGAIN_CHARS and not folded \
                and not any((c.data or {}).get("repeat_of") == earlier.id for c in self.s.calls):
            # note_search at 36d1140: the plumber's line was one result long; Qwen 1.5B called the same search
            # three more times, told only that the result was "in the history above", and handed off
            return (f"Not run again: this exact {earlier.name} call already ran at step {earlier.step}; its result "
                    f"was:\n{short}\n{then.strip()}")
        return (f"Not run again: this exact {earlier.name} call already ran at step {earlier.step} and its result "
                f"is {where}.{then}")

    def _read_first(self, call: CallRecord, unread: list[str], why: str) -> Gen:
        """Refuse ``call`` because ``unread[0]`` (a file the goal names) was not read,
        and show that file in the refusal, read with its reader tool: Qwen 1.5B, told
        to read invite.txt first, sent its invented calendar_add_event six more times
        and never read it. Without a reader for it, the refusal names the reader."""
        rel = unread[0]
        name, shown = self._read_for_model(rel)
        if not shown:
            msg = f"{why} Read it first ({reader_hint(rel)})"
            return (yield from self.finish(call, ToolResult.fail(msg), "denied"))
        msg = f"{why} Here it is, read for you with {name}:\n{shown}"
        return (yield from self.finish(call, ToolResult(text=msg, error=True, data={"read_for_you": rel}), "denied"))

    def _ambiguous(self, call: CallRecord, *, needs_source: bool) -> tuple[str, list[str]] | None:
        """See :func:`ambiguity.ambiguous_target`; None once the user has answered a
        question or added a note in this task (their words may settle it)."""
        ws = getattr(self.ctx, "workspace", None)
        if ws is None or any(c.name == "ask_human" and c.status == "done" for c in self.s.calls):
            return None
        if any(m.role == "user" and m.kind == "note" for m in self.s.messages):
            return None
        return ambiguous_target(self.s.task.goal, ws, call.arguments, self._made(), needs_source=needs_source)

    def _empty_sheet_before_query(self, call: CallRecord) -> str:
        """The refusal of an ``xlsx_add_sheet`` without rows in a task that asks for totals
        and has run no ``table_query`` yet, with the query to copy ("" otherwise): the
        query's result shows the call that adds the sheet with its rows."""
        if call.name != "xlsx_add_sheet" or call.arguments.get("rows") or any(
                c.name == "table_query" and c.status == "done" and not c.error for c in self.s.calls):
            return ""
        query = self._query_to_copy()
        if not query:
            return ""
        return (f"Not run: the sheet would be empty, and the task asks for totals in it. Add them up first: call "
                f"table_query with {query}; its result shows the call that adds the sheet with those rows.")

    def _add_drops_lines(self, call: CallRecord) -> str:
        """The refusal of a ``write_file`` over an existing .txt or .md file, in a task that only
        adds ("Add a line 'Dentist on Friday' to the end of reminders.txt"), whose content
        leaves out or changes a line the file holds, with the edit that adds the item
        (:func:`named_files.item_to_add`) when the goal names one; "" otherwise. A
        held-out task (OB) at 0959310 wrote "1.Call the bank", "2.Buy stamps", "Dentist
        on Friday" over the file's two lines and finished."""
        path, content, goal = call.arguments.get("path"), call.arguments.get("content"), self.s.task.goal
        if call.name != "write_file" or not isinstance(path, str) or not isinstance(content, str) \
                or not path.lower().endswith((".txt", ".md")) or re.search(r"\bcolumns?\b", goal, re.IGNORECASE) \
                or not _ADDS.search(goal) or _CHANGES_TEXT.search(goal) or PERCENT_CHANGE.search(goal):
            return ""  # a table's lines all change when a column is added (a held-out task at a8fdd03)
        kept = {ln.strip() for ln in content.splitlines()}
        lost = [ln.strip() for ln in self._text_of(path).splitlines() if ln.strip() and ln.strip() not in kept]
        if not lost:
            return ""
        asked = item_to_add(goal, self.s.task.workspace)
        how = call_to_copy("edit_file", {"path": path, "old_text": asked[2], "new_text": f"{asked[2]}\n{asked[3]}"}) \
            if asked and norm_path(asked[0]) == norm_path(path) else \
            "edit_file, old_text the file's last line and new_text that line with the new one under it"
        return (f"Not run: the task asks to add to {path}, and this write_file would drop or change its line "
                f"{lost[0]!r}; add without changing what is there: {how}")

    def _change_drops_lines(self, call: CallRecord) -> str:
        """The refusal of a ``write_file`` over an existing .txt or .md file, in a task
        that changes text "from old to new" in it (:func:`named_files.text_change`), whose
        content leaves out a line the file holds, as it is or so changed; "" otherwise.
        A held-out task (QD) at 5034895: "Change the meeting date in agenda.md from
        2026-11-30 to 2026-12-15." made the edit, then wrote the file again without its
        line "Next review: 2026-11-30 + 2 weeks"."""
        path, content, goal = call.arguments.get("path"), call.arguments.get("content"), self.s.task.goal
        change = text_change(goal)
        if call.name != "write_file" or change is None or not isinstance(path, str) or not isinstance(content, str) \
                or not path.lower().endswith((".txt", ".md")) or not self.ctx.workspace.exists(path):
            return ""
        old, new = change
        kept = {ln.strip() for ln in content.splitlines()}
        lost = [ln.strip() for ln in self._text_of(path).splitlines() if ln.strip() and ln.strip() not in kept
                and ln.strip().replace(old, new) not in kept]
        if not lost:
            return ""
        return (f"Not run: the task asks to change {old!r} to {new!r} in {path}, and this write_file would drop its "
                f"line {lost[0]!r}; change only that text: call edit_file with old_text the text to change and "
                "new_text the same text changed")

    def _ragged_table(self, call: CallRecord) -> str:
        """The refusal of a ``write_file`` (``edit_file``) that would leave a CSV (TSV) file
        with a row whose number of cells is not its header's (:func:`named_files.ragged_row`),
        when the file had none such before; "" otherwise."""
        path = str(call.arguments.get("path", ""))
        if call.name not in ("write_file", "edit_file") or not path.lower().endswith((".csv", ".tsv")):
            return ""
        before = self._text_of(path)
        if call.name == "write_file":
            after = str(call.arguments.get("content", ""))
        else:
            old, new = str(call.arguments.get("old_text", "")), str(call.arguments.get("new_text", ""))
            if not old or old not in before:
                return ""  # the tool says what is wrong
            after = before.replace(old, new) if call.arguments.get("replace_all") else before.replace(old, new, 1)
        sep = "\t" if path.lower().endswith(".tsv") else ","
        found = ragged_row(after, sep)
        if found is None or ragged_row(before, sep) is not None:
            return ""
        line, row, header = found
        return (f"Not run: line {line} of {path} would be {sep.join(row)!r}, {len(row)} cell"
                f"{'s' * (len(row) != 1)} under a header of {len(header)} ({sep.join(header)}); every row of a "
                "table needs one cell per column (a value with a comma in quotes). Change the cells in their rows, "
                "and write every row whole.")

    def _read_view_written(self, call: CallRecord) -> str:
        """The refusal of a ``write_file`` (``edit_file``) whose content (new text) is
        what read_file shows, header line and line numbers (:func:`named_files.read_view`),
        with the call that writes the text alone; "" otherwise."""
        key = {"write_file": "content", "edit_file": "new_text"}.get(call.name)
        text = call.arguments.get(key) if key else None
        view = read_view(text) if isinstance(text, str) else None
        if view is None:
            return ""
        header, clean = view
        shown = f"its header line {header!r} and the line numbers before each line" if header else \
            "the line numbers before each line"
        return (f"Not run: this {call.name} writes what read_file shows ({shown}), not the file's text. Without "
                f"them: {call_to_copy(call.name, {**call.arguments, key: clean})}")

    def _ticks_another(self, call: CallRecord) -> str:
        """The refusal of an ``edit_file`` that ticks a to-do line other than the one
        the goal marks done (:func:`named_files.checkbox_to_tick`), with the edit that
        ticks that one; "" otherwise."""
        path = str(call.arguments.get("path", ""))
        old, new = str(call.arguments.get("old_text", "")), str(call.arguments.get("new_text", ""))
        if call.name != "edit_file" or "[x]" not in new.lower():
            return ""
        tick = checkbox_to_tick(self.s.task.goal, self._text_of(path))
        if tick is None or tick[0].lower() in " ".join(old.split()).lower():
            return ""
        item, line, ticked = tick
        args = {"path": path, "old_text": line.strip(), "new_text": ticked.strip()}
        return (f"Not run: the task marks {item!r} done, and this edit_file changes {old.strip()!r}; "
                f"{call_to_copy('edit_file', args)}")

    def _unnumbered_call(self, call: CallRecord) -> str:
        """" To copy: call NAME with {...}" for a write refused for read_file's line
        numbers: an ``xlsx_write`` in a task that names a CSV file to convert copies it
        with ``from_csv``; otherwise the same call with the numbers left out. csv_to_xlsx
        at 1c5fa31: refused four times, each time sending the rows numbered again."""
        csvs = [p for p in goal_files(self.s.task.goal)[1] if p.lower().endswith((".csv", ".tsv"))]
        args = dict(call.arguments)
        if call.name == "xlsx_write" and csvs:
            args = {"path": args.get("path"), "from_csv": csvs[0], "replace_data": True,
                    **({"sheet": args["sheet"]} if args.get("sheet") else {})}
        elif isinstance(args.get("rows"), list):
            args["rows"] = [r[1:] if isinstance(r, list) else r for r in args["rows"]]
        else:
            return ""
        return f" To copy: {call_to_copy(call.name, args)}"

    def _already_in_document(self, call: CallRecord) -> str:
        """The refusal of a ``docx_insert`` of a paragraph the document already holds
        word for word (20 characters or more) that the user's words do not hold; ""
        otherwise. docx_append_paragraph at ab03949: "Approved by: Dana Lee" added at the
        end, then the letter's own "Thank you for your offer ..." inserted after it, so
        the paragraph the task asked for was no longer the last and the text was there
        twice; the task finished."""
        path = str(call.arguments.get("path", ""))
        blocks = call.arguments.get("blocks")
        if call.name != "docx_insert" or not isinstance(blocks, list) or not path.lower().endswith(".docx") \
                or not self.ctx.workspace.exists(path):
            return ""
        said = " ".join([self.s.task.goal, *getattr(self.ctx, "user_words", [])]).lower()
        texts = [" ".join(str(b.get("text", "")).split()) for b in blocks if isinstance(b, dict)]
        texts = [t for t in texts if len(t) >= 20 and t.lower() not in said]
        if not texts:
            return ""
        try:
            import docx

            paragraphs = [" ".join(p.text.split()) for p in docx.Document(str(self.ctx.workspace.resolve(path))).paragraphs]
        except Exception:  # noqa: BLE001 - a document that will not open is the tool's to report
            return ""
        for text in texts:
            if text in paragraphs:
                return (f"Not run: {path} already holds {text[:80]!r} (p{paragraphs.index(text) + 1}); inserting it "
                        "would put it there twice. Add only what the task asks to add; if that is done, give your "
                        "final answer.")
        return ""

    def _other_sheet(self, call: CallRecord) -> str:
        """The refusal of an ``xlsx_write`` into an existing sheet other than the one the
        goal names ('add a sheet called "Summary"'; the call's ``sheet``, else the active
        one), in the workbook itself (no ``output``); "" otherwise. xlsx_summary_sheet at
        c3438bd: Summary added, then "=SUM('Jan'!B2:B4) + ..." written into B5 of the
        Jan sheet, a change to the user's data the task never asked for."""
        named = SHEET_NAMED.search(self.s.task.goal)
        path = str(call.arguments.get("path", ""))
        if call.name != "xlsx_write" or named is None or call.arguments.get("output") \
                or not path.lower().endswith(".xlsx") or not self.ctx.workspace.exists(path):
            return ""
        try:
            import openpyxl

            book = openpyxl.load_workbook(self.ctx.workspace.resolve(path), read_only=True)
            titles, active = list(book.sheetnames), book.active.title if book.active is not None else ""
            book.close()
        except Exception:  # noqa: BLE001 - a workbook that will not open is the tool's to report
            return ""
        want = named.group(1)
        target = str(call.arguments.get("sheet") or active)
        if target.lower() == want.lower() or target not in titles:
            return ""
        how = f"write into it with sheet={json.dumps(want)}" if any(t.lower() == want.lower() for t in titles) \
            else "add it with xlsx_add_sheet"
        return (f"Not run: the task asks for the sheet {want!r}, and this would change sheet {target!r}, which the "
                f"task does not ask to change; {how}, or give your final answer if it is done.")

    def _cells_past_change(self, call: CallRecord) -> str:
        """The refusal of an ``xlsx_write`` into a workbook the goal names, in a task that
        only changes what it holds ("Change the price of Pad to 3.50 in products.xlsx":
        nothing to add), that writes under the sheet's last row, or writes only values its
        cells already hold ("" otherwise). A held-out task at a6267c9: B3 set to 3.5 (the
        change), then four writes of rows as they were, then rows "Eraser", 2.0 and
        "Pad", 3.5 added under the table, and the task ended "done"."""
        goal, path, cells = self.s.task.goal, str(call.arguments.get("path", "")), call.arguments.get("cells")
        output = str(call.arguments.get("output") or "")  # the workbook itself named as output is no copy
        if call.name not in ("xlsx_write", "xlsx_append_rows") or output and norm_path(output) != norm_path(path) \
                or not _CHANGE_ONLY.match(goal) or _ADDS.search(goal) or _GROWS_TABLE.search(goal) \
                or not path.lower().endswith(".xlsx") or norm_path(path) not in map(norm_path, goal_files(goal)[1]):
            return ""
        if call.name == "xlsx_append_rows":
            return (f"Not run: the task changes a value in {path} and adds nothing, and this adds rows under its "
                    "table. Change the cell that holds the value (xlsx_write with cells), or give your final answer "
                    "if that is done.")
        if not isinstance(cells, list) or not cells:
            return ""
        try:
            import openpyxl

            book = openpyxl.load_workbook(self.ctx.workspace.resolve(path), read_only=False)
        except Exception:  # noqa: BLE001 - a workbook that will not open is the tool's to report
            return ""
        try:
            sheet = book[call.arguments["sheet"]] if call.arguments.get("sheet") in book.sheetnames else book.active
            refs = [str((c or {}).get("cell", "")).strip().upper() for c in cells if isinstance(c, dict)]
            if sheet is None or any(not re.fullmatch(r"[A-Z]{1,3}[1-9]\d*", r) for r in refs):
                return ""
            last = sheet.max_row
            change = cell_to_change(goal, self.s.task.workspace, path)
            if change and change[0] not in refs and not same_cell_value(change[1], change[2]["cells"][0]["value"]) \
                    and call.arguments.get("sheet") in (None, "", change[2]["sheet"]):
                # a held-out task at f42fc25: Pad's price asked, B2 (Pen's) set
                return (f"Not run: the value the task changes is {change[0]} (it holds {change[1]!r}), and this "
                        f"writes {', '.join(refs[:4])}; {call_to_copy('xlsx_write', change[2])}.")
            under = [r for r in refs if int(re.sub(r"[A-Z]", "", r)) > last]
            same = all(same_cell_value(sheet[r].value, (c or {}).get("value")) for r, c in zip(refs, cells))
        finally:
            book.close()
        done = next((c for c in self.s.calls if c.name == "xlsx_write" and c.status == "done" and not c.error
                     and norm_path(str(c.arguments.get("path", ""))) == norm_path(path)), None)
        then = (f" Step {done.step} already wrote {path}: if that made the change, give your final answer." if done
                else " Change the cell that holds the value the task names (xlsx_read shows where it is).")
        if under:
            return (f"Not run: the task changes a value in {path} and adds nothing, and this writes "
                    f"{', '.join(under[:4])}, under the table's last row ({last}): rows the task does not ask for."
                    + then)
        if same:
            return (f"Not run: {', '.join(refs[:4])} already hold{'s' if len(refs) == 1 else ''} these values; "
                    "writing them again changes nothing." + then)
        return ""

    def _wrong_total_row(self, call: CallRecord) -> str:
        """The refusal of an ``xlsx_write`` that puts, in the column where the goal asks
        for "the sum of the X column", a number that is not that sum, or anything in a
        row of the data it sums ("" otherwise), with the call that adds the row the
        goal describes (:func:`row_to_add`)."""
        path = str(call.arguments.get("path", ""))
        cells = call.arguments.get("cells")
        if call.name != "xlsx_write" or not isinstance(cells, list) or not self.ctx.workspace.exists(path):
            return ""
        args = row_to_add(self.s.task.goal, self.s.task.workspace, path)
        sums = [c for c in (args or {}).get("cells", []) if str(c.get("value", "")).startswith("=SUM(")]
        if not sums:
            return ""
        m = re.fullmatch(r"=SUM\(([A-Z]+)(\d+):[A-Z]+(\d+)\)", str(sums[0]["value"]))
        letter = re.match(r"[A-Z]+", sums[0]["cell"]).group(0)
        if m is None:
            return ""
        want = column_sum(self.s.task.workspace, path, args["sheet"], m.group(1), int(m.group(2)), int(m.group(3)))
        target = int(sums[0]["cell"][len(letter):])
        texts = asked_texts(self.s.task.goal)
        for c in cells:
            ref, value = str((c or {}).get("cell", "")).upper(), (c or {}).get("value")
            col = re.match(r"[A-Z]*", ref).group(0)
            asked = texts.get(str(value).strip().lower()) if isinstance(value, str) else None
            if asked and col != asked:
                # xlsx_total at db466c8: "Total" into C10 and the sum into C11, then a total row under both
                return (f"Not run: the task puts {value!r} in column {asked}, and this puts it in {ref}; the total "
                        f"row is one row under the table: {call_to_copy('xlsx_write', args)}")
            if col != letter and isinstance(value, str) and value.strip().upper().startswith(("=SUM(", "=AVERAGE(")):
                # xlsx_total at 32b6916: =SUM(C2:C9) into B10, then =SUM(C2:C10) into B11, "Total" nowhere
                return (f"Not run: the task puts the sum in column {letter}, and this puts {value} in {ref}; the "
                        f"total row is one row under the table: {call_to_copy('xlsx_write', args)}")
            if not ref.startswith(letter) or not ref[len(letter):].isdigit():
                continue
            if int(ref[len(letter):]) > target:
                return (f"Not run: the total row is row {target}, right under the table, and this writes {ref}: "
                        f"{call_to_copy('xlsx_write', args)}")
            if int(m.group(2)) <= int(ref[len(letter):]) <= int(m.group(3)):
                # xlsx_total at 8282b36: the right sum written into C10, over the last expense's amount
                return (f"Not run: {ref} is a row of the table's data, and this would write over it; the total row "
                        f"is one row under the table: {call_to_copy('xlsx_write', args)}")
            if str(value).startswith("="):
                continue
            try:
                number = float(str(value).replace(",", ""))
            except ValueError:
                continue
            if want is not None and abs(number - want) > 0.005:
                return (f"Not run: {value} in {ref} is not the sum of the column the task names ({want:g}); the "
                        f"total row is one row under the table: {call_to_copy('xlsx_write', args)}")
        return ""

    def _header_only_sheet(self, call: CallRecord) -> str:
        """The refusal of an ``xlsx_add_sheet`` whose rows are a header alone (or none) in a
        task that asks for totals, with the ``table_query`` that gets its rows ("" otherwise).
        xlsx_group_sums at 04fe9b0: the "By Region" sheet added with [["Region", "Sales"]],
        then a plan said and the same call sent again; the per-region sums never came."""
        rows = call.arguments.get("rows")
        if call.name != "xlsx_add_sheet" or not isinstance(rows, list) or len(rows) > 1:
            return ""
        cells = [v for r in rows if isinstance(r, list) for v in r]
        if any(not isinstance(v, str) or v.lstrip().startswith("=") or _NUMBER.fullmatch(v.strip()) for v in cells):
            return ""  # a row of values or a formula ("Total", "=SUM(...)"): no header alone
        query = self._query_to_copy()
        if not query:
            return ""
        return (f"Not run: this sheet would hold its header alone, and the task asks for totals; get its rows first: "
                f"call table_query with {query}, then add the sheet with the header and those rows.")

    def _column_not_rows(self, call: CallRecord) -> str:
        """The refusal of rows (``xlsx_append_rows``, ``xlsx_add_sheet``, or ``xlsx_write``
        rows away from the new column) in a task that asks to add a column to the table of
        a workbook the user gave ("" otherwise), with the ``xlsx_write`` cells of the
        column when they can be worked out (:func:`written.column_cells`). A held-out
        task at 2e1bee7: a Total column's rows appended below the table."""
        goal, path, rows = self.s.task.goal, str(call.arguments.get("path", "")), call.arguments.get("rows")
        name = column_to_add(goal)
        if not name or call.name not in ("xlsx_append_rows", "xlsx_add_sheet", "xlsx_write") \
                or not isinstance(rows, list) or not rows or not path or not self.ctx.workspace.exists(path) \
                or norm_path(path) in {norm_path(p) for p in self._made()}:
            return ""
        args = column_cells(goal, self.s.task.workspace, path, [r for r in rows if isinstance(r, list)])
        if call.name == "xlsx_write":
            start = re.match(r"\$?([A-Za-z]+)", str(call.arguments.get("start") or "A1"))
            if args is None or (start and start.group(1).upper() == args["cells"][0]["cell"].rstrip("0123456789")):
                return ""
        how = call_to_copy("xlsx_write", args) if args else \
            "write its name in the header row and each row's value below it with xlsx_write cells"
        what = "a new sheet" if call.name == "xlsx_add_sheet" else "rows under it"
        return f"Not run: the task asks for a {name} column beside the table of {path}, not {what}; {how}."

    def _row_not_sheet(self, call: CallRecord) -> str:
        """The refusal of an ``xlsx_add_sheet`` in a task that asks for a row or column of
        an existing table and names no sheet ("" otherwise), with the ``xlsx_write`` call
        that adds the row the goal describes when it quotes one (:func:`row_to_add`)."""
        goal = self.s.task.goal
        path = str(call.arguments.get("path", ""))
        if call.name != "xlsx_add_sheet" or ASKS_A_SHEET.search(goal) or not re.search(r"\b(rows?|columns?)\b", goal) \
                or not self.ctx.workspace.exists(path):
            return ""
        if norm_path(path) in {norm_path(p) for p in self._made()}:
            # multistep_invoices_memo at 04fe9b0: "Create invoices.xlsx with the columns Invoice and Amount": the
            # columns of a workbook this task made, no row or column to add to a table the user had
            return ""
        args = row_to_add(goal, self.s.task.workspace, path)
        how = call_to_copy("xlsx_write", args) if args else \
            "write its cells with xlsx_write (sheet: the one that holds the table)"
        return (f"Not run: the task asks for a row or column in the table of {path}, not a new sheet; to add it below "
                f"the table, {how}.")

    def _unasked_groups(self, call: CallRecord, unasked: Sequence[str] | None = None) -> str:
        """The refusal of a ``use_tools`` call every group of which nothing in the task
        points at (``toolgroups.unasked_groups``, or ``unasked`` when given), with the
        tool for a text change the goal names and what this task changed so far (""
        when the task points at one of them). files_rename_pattern at 4f7db1e: the notes
        group loaded to rename photos, and a note written."""
        goal = self.s.task.goal
        asked = [str(g) for g in call.arguments.get("groups") or []] if isinstance(call.arguments.get("groups"),
                                                                                    list) else []
        if not asked or any(g not in GROUPS for g in asked):
            return ""
        if unasked is None:
            unasked = unasked_groups(asked, [goal, *getattr(self.ctx, "user_words", [])], self.s.task.workspace)
        if set(asked) - set(unasked):
            return ""
        what = "; ".join(f"{g} ({GROUPS[g][0]})" for g in dict.fromkeys(unasked))
        msg = (f"Not loaded: {what}: {_UNASKED}. Do the task with the tools you have (the file tools: list_dir, "
               "find_files, grep, read_file, write_file, edit_file, move, copy, rename_many).")
        named = goal_files(goal)[1]
        if "web" in unasked and named:  # batch IZ at 2081e47 (IZG): a search for "latest app version" (versions.txt)
            msg += f" The task names {', '.join(named[:3])}: what it asks is there, not on the web."
        texts = [f for f in named if _writes_text(f)] if _CHANGES_TEXT.search(goal) else []
        if texts:  # a held-out task at a864c41: "Fix the typo recieve in readme.md." loaded word, excel, pdf
            msg += (f" To change the text of {texts[0]}, call edit_file with path, old_text and new_text "
                    "(replace_all=true for every occurrence).")
        done = changed_so_far(self.s.calls)
        if done:  # a held-out task at 5a8dc42: the photos renamed at step 1, then every group asked for
            msg += f" This task's changes so far: {done.replace(chr(10), '; ')}; if they complete the task, give " \
                   "your final answer."
        return msg

    def _sheet_unasked(self, call: CallRecord) -> str:
        """The refusal of an ``xlsx_add_sheet`` (or an ``xlsx_write`` to a sheet the
        workbook lacks) in a task that asks for no sheet, on a workbook this task
        already wrote, whose rows mostly copy the workbook's ("" otherwise). A held-out
        task at b552c3e: prices.xlsx converted right, then Sheet2, Sheet3 and Sheet4
        added with the same rows, each time the repeat of the write was answered from
        the journal; at 2e1bee7 Sheet2 came by xlsx_write's ``sheet``."""
        path = norm_path(str(call.arguments.get("path", "")))
        sheet = call.arguments.get("sheet")
        if ASKS_A_SHEET.search(self.s.task.goal) or call.name not in ("xlsx_add_sheet", "xlsx_write") \
                or call.name == "xlsx_write" and (not isinstance(sheet, str) or call.arguments.get("output")):
            return ""
        wrote = next((c for c in self.s.calls if c.status == "done" and not c.error and c.name.startswith("xlsx_")
                      and c.risk in ("write", "destructive") and norm_path(str(c.arguments.get("output")
                                                                              or c.arguments.get("path", ""))) == path),
                     None)
        rows = call.arguments.get("rows") or _cell_rows(call.arguments.get("cells"))
        if wrote is None or not isinstance(rows, list) or not rows:
            return ""
        sheets = table_cells(Path(self.s.task.workspace) / path)
        if call.name == "xlsx_write" and sheet.strip().lower() in {name.lower() for name, _ in sheets}:
            return ""  # a sheet the workbook has: its rows are changed, none is added

        def key(row: Any) -> tuple[str, ...]:
            cells = row if isinstance(row, list) else [row]
            return tuple(normalise_number(str(v)) if _NUMBER.fullmatch(str(v).strip()) else str(v).strip().lower()
                         for v in cells if v not in (None, ""))

        held = {key(r) for _, grid in sheets for r in grid}
        if sum(key(r) in held for r in rows) * 2 < len(rows):  # a sheet of its own rows (a "Total" sheet) may stay
            return ""
        return (f"Not run: the task asks for no new sheet, and {path} already holds what {wrote.name} wrote at step "
                f"{wrote.step}; this sheet would only copy its rows. If the workbook is what the task asks, give your "
                "final answer.")

    def _overwrites_own_output(self, call: CallRecord) -> str:
        """The path when ``call`` (``write_file``) would overwrite a file this task made with
        content none of whose lines is in that file, a tool result or the user's words; else ""."""
        path, content = call.arguments.get("path"), call.arguments.get("content")
        if call.name != "write_file" or not isinstance(path, str) or not isinstance(content, str):
            return ""
        if norm_path(path) not in {norm_path(p) for p in self._made()}:
            return ""
        try:
            current = self.ctx.workspace.read_text(path)
        except Exception:  # noqa: BLE001 - gone or unreadable: nothing of it to keep
            return ""
        lines = [ln.strip() for ln in content.splitlines() if ln.strip()]
        sources = [current, *(m.content for m in self.s.messages if m.role == "user" and m.kind in ("goal", "note")),
                   *(c.result for c in self.s.calls if c.status == "done" and not c.error and c.result)]
        return path if lines and not any(ln in src for ln in lines for src in sources) else ""

    def _made(self) -> list[str]:
        """Paths this task brought into being (see :func:`evidence.made_paths`)."""
        return made_paths(ch.record for ch in self.s.store.changes(self.s.task.id))

    def _read_for_model(self, rel: str) -> tuple[str, str]:
        """``(reader tool, its result fenced as data)`` for the workspace file ``rel``;
        ``("", "")`` when no reader is registered or it fails."""
        from tools.files._common import reader_for
        from tools.untrusted import fence as fence_data

        name = reader_for(rel)
        tool = self.registry.get(name)
        if tool is None:
            return "", ""
        try:
            result = tool.invoke(self.ctx, tool.validate({"path": rel}))
        except (ValidationError, ValueError):
            return "", ""
        if result.error or not result.text.strip():
            return "", ""
        text = truncate_observation(result.text, max(400, self.observation_chars - 600), name)
        return name, fence_data(text, self.s.task.marker, rel)

    def _invented_numbers(self, call: CallRecord) -> list[str]:
        """Numbers a table write (spreadsheet or CSV rows and cells) would put in a file
        that no tool result of this task and no words of the user hold; formulas aside.
        For a text or document write, the amounts among them: numbers with decimals
        or a thousands separator (multistep_invoices_memo at 3797c71: memo.docx said
        "The total amount of all invoices is 2,305.75 EUR" with no sum taken; the three
        invoices add up to 1,635.75)."""
        if call.name in _PROSE_WRITES:
            text = " ; ".join(v for k, v in _strings(call.arguments) if k not in _PATH_ARGS)
            amounts = " ; ".join(m.group(0) for m in _NUMBER.finditer(text) if re.search(r"[.,]\d", m.group(0)))
            return number_problems(amounts, self._number_sources(call), amounts=False) if amounts else []
        if call.name not in _TABLE_WRITES:
            return []

        values: list[str] = []

        def collect(x: Any) -> None:
            if isinstance(x, bool) or x is None:
                return
            if isinstance(x, (int, float)):
                values.append(str(x))
            elif isinstance(x, str) and not x.startswith("="):
                values.append(x)
            elif isinstance(x, list):
                for y in x:
                    collect(y)
            elif isinstance(x, dict):
                collect(x.get("value"))

        collect(call.arguments.get("rows"))
        collect(call.arguments.get("cells"))
        sources = self._number_sources(call)
        path = call.arguments.get("path")
        worked = column_cells(self.s.task.goal, self.s.task.workspace, path) if isinstance(path, str) else None
        if worked:  # the column the goal spells ("Qty times Price"), worked out by the harness
            sources.append(json.dumps(worked["cells"]))
        return number_problems(" ; ".join(values), sources, amounts=False)

    def _invented_text_codes(self, call: CallRecord) -> list[str]:
        """The codes (words of letters and digits: "INV-3456", "B12") that a text write
        (``edit_file``'s new text, ``write_file``'s content, a Word edit) would add to a
        file, that the file, no tool result of this task and no user word holds; [] for
        other calls. Ordinals, times and units ("2nd", "10am", "5kg") are no codes."""
        if call.name not in _PROSE_WRITES:
            return []
        text = " ".join(v for k, v in _strings(call.arguments) if k not in _PATH_ARGS and k not in ("old_text", "find"))
        codes = list(dict.fromkeys(m.group(0) for m in _CODE.finditer(text) if not _NOT_A_CODE.fullmatch(m.group(0))))
        if not codes:
            return []
        path = call.arguments.get("path")
        held = self._text_of(path) if call.name in ("edit_file", "write_file") else ""  # a new file holds nothing
        seen = "\n".join([held, *self._number_sources(call)]).lower()
        return [c for c in codes if c.lower() not in seen]

    def _invented_codes(self, call: CallRecord) -> list[str]:
        """The words with a digit ("4C", "B-12") of a ``location`` argument that no tool
        result of this task and no words of the user hold; [] for other calls.
        calendar_from_invite at e43e9f3: Qwen 1.5B first edited invite.txt's "Room 4B" to
        "Room 4C" (refused), then added the meeting at "Room 4C" and finished."""
        place = call.arguments.get("location")
        if not isinstance(place, str) or not re.search(r"\d", place):
            return []
        sources = " ".join(s for s in self._number_sources(call) if s).lower()
        codes = dict.fromkeys(m.group(0) for m in re.finditer(r"[\w-]*\d[\w-]*", place))
        return [c for c in codes if not re.search(rf"(?<![\w-]){re.escape(c.lower())}(?![\w-])", sources)]

    def _invented_attendees(self, call: CallRecord) -> list[str]:
        """The people of an ``attendees`` list argument that no tool result of this task and
        no words of the user name, by name as written ("Ann Lee") or by address, case
        aside; [] for other calls. calendar_add_event at 4f7db1e: asked to add a dentist
        appointment, Qwen 1.5B invited "Your Name" and finished."""
        people = call.arguments.get("attendees")
        if not isinstance(people, list):
            return []
        sources = re.sub(r"\s+", " ", " ".join(s for s in self._number_sources(call) if s).lower())
        out = []
        for person in people:
            if not isinstance(person, str) or not person.strip():
                continue
            m = re.fullmatch(r"\s*(.*?)\s*(?:<([^<>]*)>)?\s*", person, flags=re.DOTALL)
            keys = [re.sub(r"\s+", " ", k.strip().lower()) for k in (m.group(1), m.group(2)) if k and k.strip()] \
                if m else []
            if keys and not any(re.search(rf"(?<![\w@.-]){re.escape(k)}(?![\w@-])", sources) for k in keys):
                out.append(person)
        return out

    def _invented_date(self, call: CallRecord) -> tuple[str, list[str], dict[str, Any]]:
        """``(date, the dates the sources give, the arguments with the source's date)``
        when a ``calendar_add_event`` start names a date (2026-12-10, "10 December
        2026") that no file this task read holds, in a task whose goal names a file to
        take the event from and says no day itself; ("", [], {}) otherwise, and no
        arguments when the sources give several dates. calendar_from_invite at 4df8dd6:
        the invite says Thursday 2026-12-10; Qwen 1.5B added the meeting on 2026-12-03,
        today, also a Thursday; a held-out task at 1de0702 sent "Wednesday 10 December
        2026" for notes.txt's "Wednesday 9 December 2026"."""
        start = call.arguments.get("start")
        if call.name != "calendar_add_event" or not isinstance(start, str):
            return "", [], {}
        said = _days_said(start)
        goal = self.s.task.goal
        if not said or not goal_files(goal)[1] or _DAY_WORDS.search(goal):
            return "", [], {}
        given = self._days_read(call)
        days = {day for _, day in given}
        if not given or said[0][1] in days:
            return "", [], {}
        texts = list(dict.fromkeys(text for text, _ in given))
        fixed = {**call.arguments, "start": start.replace(said[0][0], texts[0], 1)} if len(days) == 1 else {}
        end = call.arguments.get("end")
        ended = _days_said(end) if isinstance(end, str) and fixed else []
        if ended and ended[0][1] not in days:  # calendar_from_invite at 8806739: the start's day fixed, the end's
            # invented one (2026-12-15) kept in the call to copy, and the meeting added as six days long
            fixed["end"] = end.replace(ended[0][0], texts[0], 1)
        return said[0][0], texts, fixed

    def _days_read(self, call: CallRecord) -> list[tuple[str, tuple[int, int, int]]]:
        """The dates (:func:`_days_said`) of the results of this task's reads other than
        ``call`` and the calendar's own."""
        reads = [c.result or "" for c in self.s.calls if c.status == "done" and not c.error and c.id != call.id
                 and (c.risk or "read") == "read" and not c.name.startswith("calendar_")]
        return [d for r in reads for d in _days_said(r)]

    def _unasked_move(self, call: CallRecord) -> str:
        """The refusal of a ``calendar_move_event`` to a date no file this task read gives,
        in a task that puts an event from a file it names on the calendar and asks no
        move and no day ("" otherwise), with what an earlier ``calendar_add_event`` of
        the task did. The whole pass at 365a3a2 (calendar_from_invite): the invite's
        Thursday 2026-12-10 refused as "Friday 2026-12-11" in calendar_add_event, added
        right, then moved to Friday 2026-12-11 with calendar_move_event, and done."""
        goal = self.s.task.goal
        new = call.arguments.get("new_start")
        said = _days_said(new) if call.name == "calendar_move_event" and isinstance(new, str) else []
        if not said or event_move_asked(goal, self.registry.names()) or not goal_files(goal)[1] \
                or _DAY_WORDS.search(goal):
            return ""
        given = self._days_read(call)
        if not given or said[0][1] in {day for _, day in given}:
            return ""
        texts = list(dict.fromkeys(text for text, _ in given))
        msg = (f"Not run: the task asks no move, and the new start's date {said[0][0]} is in no file this task read; "
               f"the source gives {', '.join(texts[:3])}.")
        added = next((c for c in reversed(self.s.calls) if c.name == "calendar_add_event" and c.status == "done"
                      and not c.error), None)
        if added is not None:
            msg += (f" Step {added.step} already put the event on the calendar ({(added.result or '').splitlines()[0]})"
                    "; if that completes the task, give your final answer.")
        return msg

    def _calendar_to_copy(self, call: CallRecord, args: dict[str, Any]) -> dict[str, Any]:
        """``args`` (a refused ``calendar_add_event``'s, one fix made) with every other
        made-up date, time and attendee set as the sources give it or left out, so that
        the call to copy passes: a held-out task at 1de0702 was given the start's time
        fixed with the invented attendee kept, then the attendee dropped with the
        invented end kept, in turn, until it was stuck."""
        for _ in range(4):
            record = call.model_copy(update={"arguments": args})
            day, _, fixed = self._invented_date(record)
            made, _, timed = self._invented_times(record) if not day else ([], [], {})
            people = self._invented_attendees(record) if not day and not made else []
            if day and fixed:
                args = fixed
            elif made:
                args = timed
            elif people:
                args = _without_people(args, people)
            else:
                break
        return args

    def _writes_a_source(self, call: CallRecord) -> str:
        """The refusal of a change to a file the goal only reads from, when the goal makes
        other files and asks for no change in place (no add, edit, rename, delete, ...:
        "Put all the email addresses in emails.txt into addresses.txt", "Merge a.csv and
        b.csv into q1.csv"); "" otherwise. A held-out task at 11a1600: told that the task
        adds, the model put blank lines into emails.txt."""
        outputs, inputs = goal_files(self.s.task.goal)
        path = norm_path(str(call.arguments.get("path", "")))
        if call.arguments.get("output") and norm_path(str(call.arguments["output"])) != path:
            return ""  # read from path, written to output
        if not outputs or _IN_PLACE.search(self.s.task.goal) or path not in {norm_path(p) for p in inputs} \
                or path in {norm_path(p) for p in outputs}:
            return ""
        return (f"Not run: the task takes what it needs from {path} and writes {', '.join(outputs)}; {path} stays as "
                f"it is. Write {outputs[0]} with what you read instead.")

    def _deletes_beyond_asked(self, call: CallRecord) -> str:
        """The refusal of a ``delete`` of a folder holding the files of a kind the goal
        asks to delete ("the empty files in the drafts folder", :func:`written.files_to_delete`),
        or of a file there not of that kind, with the first of those files to copy ("" otherwise)."""
        asked = files_to_delete(self.s.task.goal, self.s.task.workspace) if call.name == "delete" else None
        if asked is None:
            return ""
        folder, kind, paths = asked
        path = norm_path(str(call.arguments.get("path", "")))
        if path in paths or not (f"{folder}/".startswith(path + "/") or path.rpartition("/")[0] == norm_path(folder)
                                 or folder == "." and "/" not in path):
            return ""
        listed = f" ({', '.join(paths[:6])})" if paths else ""
        gone = [str(c.arguments.get("path")) for c in self.s.calls if c.name == "delete" and c.status == "done"
                and not c.error]
        how = f"delete each: {call_to_copy('delete', {'path': paths[0]})}" if paths else \
            (f"this task deleted them ({', '.join(gone[:6])}) and none is left, so the task is done: say what was "
             "deleted" if gone else "there is none there, so nothing is to be deleted: say so")
        return f"Not run: the task deletes the {kind} files in {folder}{listed}, not {path}; {how}"

    def _line_added_again(self, call: CallRecord) -> str:
        """The refusal of an ``edit_file`` in a task that adds, whose new text adds a line
        (list marker aside) that the file already holds and an earlier change of this
        task to that file added ("" otherwise)."""
        old, new, path = call.arguments.get("old_text"), call.arguments.get("new_text"), call.arguments.get("path")
        if call.name != "edit_file" or not isinstance(old, str) or not isinstance(new, str) \
                or not _ADDS.search(self.s.task.goal) or _CHANGES_TEXT.search(self.s.task.goal):
            return ""

        def bare(line: str) -> str:
            return _LIST_ITEM.sub("", line).strip()

        from collections import Counter

        held = {bare(ln) for ln in self._text_of(path).splitlines() if bare(ln)}
        added = Counter(bare(ln) for ln in new.splitlines() if bare(ln)) - Counter(bare(ln) for ln in old.splitlines())
        for line in new.splitlines():
            if not bare(line) or bare(line) not in added or bare(line) not in held:
                continue
            by = next((c for c in self.s.calls if c.id != call.id and c.name == "edit_file" and c.status == "done"
                       and norm_path(str(c.arguments.get("path", ""))) == norm_path(str(path))
                       and bare(line) in {bare(x) for x in str(c.arguments.get("new_text", "")).splitlines()}), None)
            if by is not None:
                return (f"Not run: {norm_path(str(path))} already holds {line.strip()!r} (step {by.step} added it); "
                        "adding it again would put it there twice. If that completes the task, give your final "
                        "answer.")
        return ""

    def _change_everywhere(self, call: CallRecord) -> bool:
        """Whether the goal's text change is meant everywhere in the file ``call``
        edits (:func:`named_files.change_everywhere`)."""
        change = text_change(self.s.task.goal)
        path = call.arguments.get("path")
        if change is None or not isinstance(path, str):
            return False
        places = change_places(Path(self.s.task.workspace) / path, *change)
        return change_everywhere(self.s.task.goal, places, *change)

    def _text_of(self, path: Any) -> str:
        """The workspace text file ``path``'s text; "" when it is none or cannot be read."""
        try:
            return self.ctx.workspace.read_text(str(path)) if isinstance(path, str) and path else ""
        except Exception:  # noqa: BLE001 - missing, not text: no text
            return ""

    def _kept_and_added(self, call: CallRecord) -> dict[str, Any]:
        """:func:`_kept_and_added` for an ``edit_file`` call, with its file's text and what
        the task read from other files and the user said."""
        path = str(call.arguments.get("path", ""))
        text = self._text_of(path)  # gone or unreadable: no list to join
        sources = [m.content for m in self.s.messages if m.role == "user" and m.kind in ("goal", "note")]
        sources += [c.result or "" for c in self.s.calls if c.status == "done" and not c.error and c.id != call.id
                    and norm_path(str(c.arguments.get("path", ""))) != norm_path(path)]
        return _kept_and_added(self.s.task.goal, call.arguments, text, sources)

    def _invented_times(self, call: CallRecord) -> tuple[list[str], list[str], dict]:
        """``(what is made up, the times the sources give, the arguments to send
        instead)`` when a ``calendar_add_event`` start or end gives a time of day that
        no file this task read and no user word gives, in a task whose goal names a file
        to take the event from and says no day or time itself; ``([], [], {})``
        otherwise. The start takes the source's time when it gives one; a made-up end
        is left out (the tool's default length). A held-out task at 2e1bee7: notes.txt
        said 8:40; Qwen 1.5B sent 8:50 and the end "4:30pm" of the tool's description."""
        goal = self.s.task.goal
        if call.name != "calendar_add_event" or not goal_files(goal)[1] or _DAY_WORDS.search(goal):
            return [], [], {}
        reads = [c.result or "" for c in self.s.calls if c.status == "done" and not c.error and c.id != call.id
                 and (c.risk or "read") == "read" and not c.name.startswith("calendar_")]
        words = [m.content for m in self.s.messages if m.role == "user" and m.kind in ("goal", "note")]
        given = clock_times("\n".join(reads + words))
        seen = frozenset().union(*(r for _, r in given))
        texts = list(dict.fromkeys(t for t, _ in given))
        made, args = [], dict(call.arguments)
        for field in ("start", "end"):
            value = args.get(field)
            wrong = [t for t, r in clock_times(value) if not r & seen] if isinstance(value, str) and given else []
            if not wrong:
                continue
            made.append(f"the {field}'s {'' if made else 'time '}{wrong[0]}")
            if field == "end":
                del args["end"]
            elif len(texts) == 1:
                args["start"] = value.replace(wrong[0], texts[0])
        return made, texts, args

    def _number_sources(self, call: CallRecord) -> list[str]:
        """What a number written by ``call`` may come from: the user's words, every successful
        result of this task (and each file a refusal read for the model), and the numbers its
        successful changes already wrote."""
        sources = [m.content for m in self.s.messages if m.role == "user" and m.kind in ("goal", "note")]
        sources += [c.result for c in self.s.calls if (c.status == "done" and not c.error or shown_for_model(c))
                    and c.id != call.id]
        sources += [json.dumps(c.arguments) for c in self.s.calls if c.status == "done" and not c.error
                    and c.id != call.id and (c.name in _TABLE_WRITES or c.name in _PROSE_WRITES)]
        return sources

    def _moot_overwrite(self, call: CallRecord, tool: Tool) -> str:
        """Drop an ``overwrite`` the tool has no parameter for when the file its ``path``
        names does not exist: there is nothing to overwrite, and nothing is lost.
        Returns the note saying so ("" otherwise). multistep_invoices_memo at 0417c73:
        xlsx_write for a new invoices.xlsx with overwrite true was refused, since
        that part of the call would be lost."""
        path = call.arguments.get("path")
        ws = getattr(self.ctx, "workspace", None)
        if "overwrite" not in call.arguments or "overwrite" in tool.params.model_fields or not isinstance(path, str) \
                or ws is None:
            return ""
        try:
            exists = ws.exists(path)
        except Exception:  # noqa: BLE001 - a bad path: the tool's own check reports it
            return ""
        if exists:
            return ""
        call.arguments = {k: v for k, v in call.arguments.items() if k != "overwrite"}
        return f"({path} does not exist yet, so overwrite was left out: {tool.name} has no such parameter.)"

    def _guessed_before(self, call: CallRecord) -> CallRecord | None:
        """An earlier call with the same name and arguments that was refused because a
        file was unread and showed that file: the same arguments again are still a guess."""
        sig = signature(call)
        for c in self.s.calls:
            if c.id != call.id and (c.data or {}).get("read_for_you") and signature(c) == sig:
                return c
        return None

    def _sources(self) -> list[str]:
        """The data of this task's successful reads of the files its goal takes the work
        from (``goal_files``' inputs), oldest first: :attr:`ToolContext.sources`."""
        inputs = {norm_path(p).lower() for p in goal_files(self.s.task.goal)[1]}
        return [_data_of(c.result) for c in self.s.calls if c.status == "done" and not c.error and c.result
                and (c.risk or "read") == "read" and isinstance(c.arguments.get("path"), str)
                and norm_path(c.arguments["path"]).lower() in inputs and not (c.data or {}).get("repeat_of")]

    def _execute(self, call: CallRecord, tool: Tool, params: Any, risk: RiskClass, note: str = "",
                 *, remapped: str = "") -> Gen:
        call.status = "started"
        call.risk = risk.value
        self.s.commit(calls=[call], durable=risk is not RiskClass.READ)
        faults.crash_point("call_started")
        yield ToolCallStarted(call=call.brief(), risk=risk.value)
        self.current = call
        if hasattr(self.ctx, "sources"):
            self.ctx.sources = self._sources()
        try:
            result = tool.invoke(self.ctx, params)
        finally:
            self.current = None
        if not isinstance(result, ToolResult):
            result = ToolResult(text=str(result))
        if note and not result.error:
            result.text += note
        shown = ""
        if (result.error or (result.data or {}).get("paths") == []) and _NOT_FOUND.search(result.text):
            shown = self._workspace_files()
        if result.error and "outside the workspace" in result.text:
            shown = self._inside_path(call) or shown
        if result.error and "is not a text file" in result.text:
            shown = self._read_already(call) or shown
        if result.error and _NOT_FOUND.search(result.text):
            shown = "\n".join(x for x in (_create_instead(call, self.registry), shown) if x)
        shown = "\n".join(x for x in (remapped, shown) if x)
        return (yield from self.finish(call, result, after=shown))  # the harness's words: after any fence

    def _copy_already_ran(self, text: str) -> str:
        """"(Step 5 already ran that xlsx_write call: set 2 cells ... If that completes
        the task, give your final answer.)" when a call the refusal ``text`` gives to
        copy already succeeded in this task (each argument it gives the same); ""
        otherwise. xlsx_total at b82e8fa: the total row written at step 5, then a new
        sheet "Total" refused with that same write to copy, as if it were still to make."""
        for name, args in calls_to_copy_in(text):
            done = next((c for c in self.s.calls if c.name == name and c.status == "done" and not c.error
                         and all(c.arguments.get(k) == v for k, v in args.items())), None)
            if done is not None:
                return (f"(Step {done.step} already ran that {name} call: {result_gist(done.result or '')}. "
                        "If that completes the task, give "
                        "your final answer.)")
        return ""

    def _renamed_already(self, call: CallRecord) -> str:
        """"(Step 1 already renamed them: ... If that completes the task, give your final
        answer.)" when a failed ``rename_many`` asks for the change (find and replace) an
        earlier rename_many of this task made; "" otherwise. A held-out task at
        38a0f03: the .jpeg files of photos renamed at step 1, then the same rename sent
        for the workspace root, failing ("no file name holds '.jpeg'"), four times."""
        if call.name != "rename_many":
            return ""
        done = next((c for c in self.s.calls if c.name == "rename_many" and c.status == "done" and not c.error
                     and c.id != call.id and all(c.arguments.get(k) == call.arguments.get(k)
                                                  for k in ("find", "replace"))), None)
        if done is None:
            return ""
        return (f"(Step {done.step} already renamed them: {result_gist(done.result or '')}. If that completes the "
                "task, give your final answer.)")

    def _into_workspace(self, call: CallRecord) -> str:
        """Rewrite, in ``call.arguments``, each absolute path that lies in the
        workspace's parent folder but not in the workspace, with the workspace's own
        name left out, to the workspace path it names (one that exists, or one under
        a top-level file or folder that exists); return a note saying so ("" when nothing was
        rewritten). files_organise at b5a954c: Qwen 1.5B wrote /tmp/bench-x/inbox/a.pdf
        for the workspace /tmp/bench-x/workspace, was told "Did you mean
        src='inbox/a.pdf'?" and sent the same call until the task stalled. Nothing
        outside the workspace is touched: the rewritten path is inside it. A relative
        path under ".NAME" that does not exist, where NAME does, is taken as under NAME."""
        ws = getattr(self.ctx, "workspace", None)
        root = getattr(ws, "root", None)
        if root is None:
            return ""
        root = os.path.normpath(str(root))
        parent = os.path.dirname(root)
        said = []
        for key, value in list(call.arguments.items()):
            dotted = re.fullmatch(r"\.(\w[^/\\]*)([/\\].*)?", value.strip()) if key in _PATH_ARGS \
                and isinstance(value, str) else None
            if dotted:  # files_organise at 4f7db1e: ".inbox" for the inbox folder (told "Did you mean 'inbox'?"), in
                # rename_many, move and copy, until the steps ran out; a hidden file or folder that exists stays
                try:
                    fits = not ws.exists(value.strip().split("/")[0]) and ws.exists(dotted.group(1))
                except Exception:  # noqa: BLE001 - a name the workspace refuses stays as it was
                    fits = False
                if fits:
                    call.arguments[key] = dotted.group(1) + (dotted.group(2) or "")
                    said.append(f"{key}={value!r} was taken as {call.arguments[key]!r}")
                continue
            if key not in _PATH_ARGS or not isinstance(value, str) or not os.path.isabs(value):
                continue
            path = os.path.normpath(value)
            if not path.startswith(parent + os.sep) or path == root or path.startswith(root + os.sep):
                continue
            rel = os.path.relpath(path, parent).replace(os.sep, "/")
            try:
                fits = ws.exists(rel) or ws.exists(rel.split("/")[0])  # a new file under an existing folder too
            except Exception:  # noqa: BLE001 - a name the workspace refuses stays as it was
                fits = False
            if fits:
                call.arguments[key] = rel
                said.append(f"{key}={value!r} was taken as {rel!r}")
        return f"(Paths are relative to the workspace: {'; '.join(said)}.)" if said else ""

    def _into_goal_folder(self, call: CallRecord, tool: Any) -> str:
        """Fill a tool's ``folder`` argument, when the call leaves it out (or passes
        the workspace root "."), with the one workspace folder the goal names ("In the
        photos folder, rename ..."); return a note saying so ("" when nothing was
        filled). files_rename_pattern at 42e28a8: told to call rename_many with
        {"folder": "photos", ...}, Qwen 1.5B sent the call without folder, twice, and
        every name in the workspace root failed to match."""
        fields = getattr(getattr(tool, "params", None), "model_fields", {})
        if "folder" not in fields or fields["folder"].default != "." \
                or str(call.arguments.get("folder", ".")).strip() not in (".", "./", ""):
            return ""
        folder = goal_folder(self.s.task.goal, self.ctx.workspace.is_dir)
        if not folder:
            return ""
        call.arguments["folder"] = folder
        return f"(folder={folder!r}: the task names the {folder} folder, so the call ran there.)"

    def _read_already(self, call: CallRecord) -> str:
        """Where this task already read the document ``call`` tried to read as text
        ("" when it did not). pdf_number_lookup at 36d1140: pdf_read had shown the
        PDF at step 0; Qwen 1.5B then called read_file on it, was told to use pdf_read,
        and asked the user for "a different file that contains text"."""
        path = str(call.arguments.get("path", ""))
        for c in reversed(self.s.calls):
            # a tool that tells a file's size or pages is no read of its text (a held-out task at a43d469 was told
            # the PDF's text was "the result of pdf_info")
            if (c.id != call.id and c.status == "done" and not c.error and c.name != call.name
                    and c.name not in NOT_READING and str(c.arguments.get("path", "")) == path and path):
                return (f"Its text is already in this task: the result of {c.name} at step {c.step} above. "
                        "Answer from that result; do not read it again.")
        return ""

    def _inside_path(self, call: CallRecord) -> str:
        """"Did you mean 'photos'?" when a path argument of ``call`` is absolute and
        outside the workspace, and its last parts name something in the workspace (or
        a new file in a folder there); "" otherwise. files_rename_pattern at 462ec82:
        Qwen 1.5B passed /tmp/bench-x/photos for the workspace's photos folder (the
        workspace is /tmp/bench-x/workspace), then wrote its own notes/todo.txt."""
        ws = getattr(self.ctx, "workspace", None)
        if ws is None:
            return ""
        for key, value in call.arguments.items():
            if not isinstance(value, str) or not value.startswith(("/", "~")):
                continue
            parts = [p for p in value.replace("\\", "/").split("/") if p and p not in (".", "~")]
            for i in range(len(parts)):
                rel = "/".join(parts[i:])
                parent = "/".join(parts[i:-1]) or "."
                try:
                    if ws.exists(rel) or (i < len(parts) - 1 and ws.is_dir(parent)):
                        return f"Did you mean {key}={rel!r}? Paths are relative to the workspace."
                except Exception:  # noqa: BLE001 - a name the workspace refuses: try the next suffix
                    continue
        return ""

    def _workspace_files(self, limit: int = 25) -> str:
        """The workspace's files (two levels, at most ``limit``) for the first "not
        found" of a task that has not listed the workspace yet; "" otherwise.
        handoff_not_found: Qwen 1.5B read notes/landlord_info.txt and other names of
        its own three times and never saw contacts.csv and notes.md."""
        listed = any(c.name in ("list_dir", "find_files") and c.status == "done" and not c.error for c in self.s.calls)
        if listed or any(_FILES_SHOWN in (c.result or "") for c in self.s.calls):
            return ""
        ws = getattr(self.ctx, "workspace", None)
        try:
            entries = list(itertools.islice(ws.walk(".", max_depth=2), limit + 1)) if ws is not None else []
        except Exception:  # noqa: BLE001 - only a hint
            return ""
        names = [e.path + ("/" if e.kind == "dir" else "") for e in entries[:limit]]
        if not names:
            return f"{_FILES_SHOWN} none (it is empty)."
        more = " (and more: list_dir shows them)" if len(entries) > limit else ""
        return f"{_FILES_SHOWN} {', '.join(names)}{more}."


def _failure_core(text: str) -> str:
    """A failed call's result without what the harness added once per task (the
    workspace listing) or for a repeat ("This exact ... failed the same way")."""
    text = text.split("\n(This exact ")[0]
    return "\n".join(ln for ln in text.split("\n") if not ln.startswith(_FILES_SHOWN))


def _output_optional(tool: Any) -> bool:
    """True when ``tool`` takes an ``output`` it can do without (an edit saved in place
    when it is left out). pdf_extract_pages requires one: multistep_invoices_memo at
    04fe9b0, its output left out, paused the task with an internal error."""
    field = (getattr(getattr(tool, "params", None), "model_fields", None) or {}).get("output")
    return field is not None and not field.is_required()


def _restates_goal(question: str, goal: str) -> bool:
    """True when an ``ask_human`` question is the goal itself (pdf_find_figure: Qwen 1.5B
    read the report, then asked the user "What total revenue figure is reported on page
    3 of q3-report.pdf?", the task's own words)."""
    import difflib

    q, g = (re.findall(r"\w+", t.lower()) for t in (question, goal))
    if len(q) < 4:
        return False
    shared = sum(b.size for b in difflib.SequenceMatcher(None, q, g, autojunk=False).get_matching_blocks())
    if shared / len(q) >= 0.85:  # csv_group_totals: "What is the total sales per region in sales.csv?"
        return True
    # xlsx_lookup at 4826ac4 (always): "What is the category with the highest total spending?" for "Which category
    # had the highest total spending in spending.xlsx?": other small words, every word that matters the goal's
    content = {_singular(w) for w in q if len(w) > 2 and w not in _ASK_WORDS}
    if len(content) >= 3 and content <= {_singular(w) for w in g}:
        return True
    # docx_lookup at b5a954c: "What is the total monthly rent in the lease document?" for "How much is the monthly
    # rent in lease.docx?": the same, give or take words that say what kind of thing the answer is
    content -= _KIND_WORDS
    if len(content) >= 3 and content <= {_singular(w) for w in g}:
        return True
    # docx_lookup at 412fd36 (pass^3, run 3): "What is the monthly rent?" asked of the user after reading the lease,
    # for "How much is the monthly rent in lease.docx?": two words that matter, both the question goal's own; and
    # xlsx_two_sheet_total at 8282b36: "What is the total amount spent on Travel across both quarters?" for "How much
    # did we spend on Travel in total across both quarters ...": "spent" the goal's "spend" (first four letters)
    if not asks_only_a_question(goal) or not re.match(r"\W*(what|which|who|when|where|how)\b", question, re.I):
        return False
    stems = {w[:4] for w in g}
    return len(content) >= 2 and all(w[:4] in stems for w in content)


def _copied_plan_step(call: CallRecord, calls: Sequence[CallRecord], messages: Sequence[Any],
                      planned: Sequence[str] = ()) -> str:
    """The first ``update_plan`` step that is a sentence of a tool result or of the
    harness's notes (20 characters or more), or "". Steps of the plan already saved
    (``planned``; the harness repeats them in its notes) are the model's own.
    files_rename_pattern at 80595a7: Qwen 1.5B saved "find_files matches names only
    (grep searches the text inside files)", copied from a find_files result, as its
    plan's first step, then followed it."""
    from model.call_format import format_instructions

    steps = call.arguments.get("steps")
    if not isinstance(steps, list):
        return ""
    own = {" ".join(p.split()).lower().strip(" .") for p in planned}
    texts = [c.result for c in calls if c.result and c.id != call.id]
    texts += [m.content for m in messages if m.role in ("user", "tool") and m.kind != "goal" and m.content]
    said = [" ".join(t.split()).lower() for t in texts]
    fmt = format_instructions("xml") + format_instructions("json")
    for step in steps:
        # a note cut short where it was shown ("... a call go…"), and the format help's placeholders ("TOOL_NAME",
        # "PARAMETER_NAME"): handoff_which_contract at 1c5fa31 saved both as its plan, twice
        words = " ".join(str(step).split()).lower().rstrip("…").removesuffix("...").strip(" .")
        if re.fullmatch(r"[A-Z][A-Z_]{3,}", str(step).strip()) and str(step).strip() in fmt:
            return str(step)
        if len(words) >= 20 and words not in own and any(words in t for t in said):
            return str(step)
    return ""


_CONFIRM = re.compile(r"^\s*(?:(?:do|would) you (?:want|like)(?: me)? to|(?:should|shall|may|can) i|is it ok(?:ay)?"
                      r" (?:if i|to)|(?:do you )?confirm (?:that )?(?:i should|you want me to))\s+(?P<rest>.+?)\W*$",
                      re.IGNORECASE | re.DOTALL)
#: a request to do any of these is confirmed with the user even when it is word for word the goal
_CONFIRM_ALWAYS = re.compile(r"\b(delet|remov|eras|overwrit|replac|send|sent|email|e-mail|mail|post|publish|share|"
                             r"pay|buy|order|cancel|move|rename|drop|clear|wipe|empty)", re.IGNORECASE)


def _other_kind_tool(call: CallRecord, registry: ToolRegistry) -> str:
    """Why a call with invalid arguments went to the wrong tool when its ``path``
    names a kind of file another tool writes (docx_create for invoices.xlsx): the
    tool to use and, when the call's table blocks or rows hold them, the call to
    copy; "" otherwise. multistep_invoices_memo at c92ae49: Qwen 1.5B sent
    docx_create for invoices.xlsx twice, was told only that its table cells were
    not strings, and ran out of time."""
    path = str(call.arguments.get("path") or "")
    suffix = os.path.splitext(path)[1].lower()
    right = WRITER_OF.get(suffix)
    family = call.name.split("_")[0]
    if not right or right.split("_")[0] == family or family not in ("docx", "xlsx", "csv") \
            or registry.get(right) is None:
        return ""
    kind = suffix.lstrip(".")
    msg = f"Not run: {path} is {'an' if kind[0] == 'x' else 'a'} {kind} file, which {right} writes, not {call.name}."
    rows = _table_rows(call.arguments)
    if rows and right in ("xlsx_write", "csv_write"):
        msg += f" To write it, {call_to_copy(right, {'path': path, 'rows': rows})}."
    else:
        msg += f" Call {right} instead."
    return msg


#: a tool that adds to a file, and the tool that makes that file new from the same argument
_MAKER_OF_ADDED = {"docx_insert": ("docx_create", "blocks"), "xlsx_append_rows": ("xlsx_write", "rows")}


def _create_instead(call: CallRecord, registry: ToolRegistry) -> str:
    """For a call that adds content to a file that does not exist, the call that
    makes the file with that content; "" otherwise. multistep_invoices_memo (bench of
    2026-12-04): Qwen 1.5B sent docx_insert for memo.docx, a document still to make,
    was told "To make a new one, call docx_create", and the steps ran out."""
    maker, key = _MAKER_OF_ADDED.get(call.name, ("", ""))
    path, content = call.arguments.get("path"), call.arguments.get(key)
    output = call.arguments.get("output")
    if maker and isinstance(path, str) and _writes_text(path) and registry.get("write_file") is not None:
        # a held-out task at 85f391b: docx_insert into summary.txt was offered docx_create of summary.txt, which
        # refused it as no .docx; a text file is write_file's
        maker, key, content = "write_file", "content", _as_text(call)
    if not maker or registry.get(maker) is None or not isinstance(path, str) or not content \
            or output not in (None, "", path):
        return ""
    make = call_to_copy(maker, {"path": path, key: content})
    return f"{path} does not exist yet. To make it with this content, {make}."


def _table_rows(arguments: dict[str, Any]) -> list[list[str]]:
    """The rows of a call's table, as plain texts: its ``rows``, or those of its
    table blocks (``rows`` then ``cells``); a cell written as {"text": ...} is its
    text. [] when there is no table, or a cell is neither text, number nor such."""
    def text(cell: Any) -> str | None:
        if isinstance(cell, dict) and "cell" in cell:  # an xlsx_write cell ({"cell": "INV-101", "value": ...}): its
            # place is no table column (the whole pass at 75e77e3, multistep_invoices_memo: the invoice numbers lost,
            # two amounts put side by side in one row by the call to copy)
            return None
        if isinstance(cell, dict):
            cell = cell.get("text", cell.get("value"))
        return None if isinstance(cell, (dict, list)) or cell is None else str(cell)

    grids = [arguments.get("rows")] if isinstance(arguments.get("rows"), list) else []
    for block in arguments.get("blocks") or []:
        if isinstance(block, dict):
            grids += [block.get(k) for k in ("rows", "cells") if isinstance(block.get(k), list)]
    rows: list[list[str]] = []
    for grid in grids:
        for row in grid:
            cells = [text(c) for c in row] if isinstance(row, list) else [None]
            if None in cells:
                return []
            rows.append([c for c in cells if c is not None])
    return rows if len(rows) <= 200 else []


def _summary_to_copy(call: CallRecord, goal: str, calls: Sequence[CallRecord]) -> str:
    """" The sentences of the source ...: call docx_create with {...}": the write of the
    source's sentences on what the goal asks a summary to include (see
    :func:`written.summary_points`), as the same tool, to the same path (for a copy of
    the source, the tool of the destination's kind); "" when there are none or the call
    is no docx_create, write_file, copy or move."""
    points = summary_points(goal, calls)
    where = call.arguments.get("path") or call.arguments.get("dest")
    name = call.name
    if name in ("copy", "move") and isinstance(where, str):  # a copy of the source is no summary: write it anew
        name = "docx_create" if where.lower().endswith(".docx") else "write_file"
    if not points or not isinstance(where, str) or name not in ("docx_create", "write_file"):
        return ""
    args = ({"path": where, "blocks": [{"type": "bullets", "items": points}]} if name == "docx_create"
            else {"path": where, "content": "".join(f"- {p}\n" for p in points)})
    return (" The sentences of the source that say what the task asks to include: to write them, "
            + call_to_copy(name, args))


#: a goal that names a day itself ("tomorrow", "on Friday", "the 12th"): its start may be any date the tool reads
def _cell_rows(cells: Any) -> list[list[Any]]:
    """The rows an ``xlsx_write`` ``cells`` list sets ([{"cell": "B2", "value": 3.5}, ...]),
    in row order, each row's values in column order; [] for anything else."""
    if not isinstance(cells, list):
        return []
    rows: dict[int, list[tuple[str, Any]]] = {}
    for c in cells:
        m = re.fullmatch(r"\$?([A-Za-z]{1,3})\$?(\d+)", str(c.get("cell", ""))) if isinstance(c, dict) else None
        if m:
            rows.setdefault(int(m.group(2)), []).append((m.group(1).upper().rjust(3), c.get("value")))
    return [[v for _, v in sorted(row)] for _, row in sorted(rows.items())]


_DAY_WORDS = re.compile(r"\b(today|tonight|tomorrow|yesterday|next|this|last|mon|tues?|wed|thu(rs)?|fri|sat|sun)"
                        r"(day)?\b|\d", re.IGNORECASE)


def _sql_args(sql: str) -> str:
    return json.dumps({"sql": sql}, ensure_ascii=False)


_NO_SHEET = re.compile(r" has no sheet '[^'\n]*'; sheets: (?P<sheets>[^\n]*)\.$", re.MULTILINE)


def _sheet_hint(call: CallRecord, result: ToolResult) -> str:
    """The same call with the workbook's only sheet, to copy, after a call failed on a
    sheet the workbook lacks; "" otherwise (with two or more sheets, which one is
    the model's to pick from the list the error gives). handoff_send_budget at
    21c8a9e: Qwen 1.5B, told "has no sheet 'Sheet1'; sheets: Budget.", sent Sheet1
    again, then Sheet2 and Sheet3, and the task paused as stuck."""
    m = _NO_SHEET.search(result.text or "") if result.error and "sheet" in call.arguments else None
    if m is None or ", " in m.group("sheets"):
        return ""
    return f"The call to copy: {call_to_copy(call.name, {**call.arguments, 'sheet': m.group('sheets')})}"


def _place_in_sources(place: str, codes: Sequence[str], sources: Sequence[str]) -> str:
    """``place`` with its invented codes put back as the sources write them, or "".

    A code's word before it ("Room" of "Room 5A") is looked up in ``sources``; when
    they hold exactly one code after that word ("Room 4B"), it replaces the invented
    one. "" when a code has no word before it, or the sources hold none or several."""
    text = " ".join(s for s in sources if s)
    for code in codes:
        before = place[:place.find(code)].split()[-1:]
        if not before or not re.search(r"[A-Za-z]{2}", before[0]):
            return ""
        found = dict.fromkeys(re.findall(rf"\b{re.escape(before[0])}\s+([\w-]*\d[\w-]*)", text, flags=re.IGNORECASE))
        if len(found) != 1:
            return ""
        place = place.replace(code, next(iter(found)))
    return place


def _confirms_goal(question: str, goal: str, workspace: Any) -> bool:
    """True when an ``ask_human`` question only asks leave to do what the goal asks,
    about files the goal names and the workspace holds: calendar_from_invite at
    2056215, Qwen 1.5B asked "Do you want to put the meeting on your calendar?" for
    "Put the meeting described in invite.txt on my calendar, with its title, time and
    room." Asking leave stays allowed for deleting, sending, paying and other changes
    that are hard to take back, and for a goal naming no workspace file ("Send the
    budget to my manager": which budget is the user's to say)."""
    m = _CONFIRM.match(question)
    if m is None or _CONFIRM_ALWAYS.search(goal) or _CONFIRM_ALWAYS.search(m.group("rest")):
        return False
    from .evidence import goal_files

    outputs, inputs = goal_files(goal)
    root = Path(str(workspace))
    if not any((root / rel).exists() for rel in inputs):
        return False
    # "on your calendar" is the user's "on my calendar"; "the meeting from invite.txt", the goal's "described in"
    asked = _content_words(m.group("rest")) - {"mine", "yours", "from", "into", "onto", "about", "now", "just", "also"}
    return len(asked) >= 2 and asked <= _content_words(goal)


#: an ``ask_human`` question asking the date or the year: "What is today's date?", "What is the current year?"
_ASKS_TODAY = re.compile(r"\b(?:today'?s|the\s+current|the\s+present)\s+(?:date|day|year)\b|"
                         r"\bwhat\s+(?:is\s+the\s+)?(?:date|day|year)\s+(?:is\s+(?:it\s+)?)?today\b|"
                         r"\bwhat\s+(?:year|date)\s+is\s+it\b", re.IGNORECASE)
#: an ``ask_human`` question that names a file ("Is the file 'readme.txt' about ...?")
_NAMES_A_FILE = re.compile(r"\b(files?|documents?)\b|\w\.[A-Za-z]{2,4}\b", re.IGNORECASE)
#: an ``ask_human`` question offering the user help with their own task, or asking them to do a step of it
_OFFERS_HELP = re.compile(r"\b(?:do|would) you (?:need|want|like) (?:any |some |more |my )?(?:help|assistance)\b|"
                          r"\b(?:can|may|shall|could) i (?:help|assist) you\b|\bhow (?:can|may|should) i (?:help|assist)\b|"
                          r"\banything else (?:i can|you(?:'d| would)? (?:like|want|need))\b|"
                          r"\bplease (?:provide|give|write|tell me) (?:me )?the (?:next step|summary|result|answer)\b|"
                          # calendar_list_day at 412fd36: the day listed, then "Is the information provided correct?"
                          # calendar_from_invite at 9539275: the invite read, then "Do you want to continue with
                          # the meeting? Yes or No?" asked, and the task paused on it
                          # (not the harness's own "How would you like me to go on?", which asks how)
                          r"(?<!how )\b(?:do|would) you (?:want|like) (?:me )?to (?:continue|proceed|go on|go ahead)\b|"
                          r"\b(?:shall|should) i (?:continue|proceed|go on|go ahead)\b|"
                          # calendar_list_day at 7dcd18e: the day's two events listed, then "What is the next step?"
                          r"\bwhat (?:is|should be|'s) (?:the|my) next step\b|"
                          # a development batch at b6900b3 (ZZE): the heading added, then "Do you want to add
                          # another line to the shopping list?", and the task paused on it
                          r"\b(?:do|would) you (?:want|like) (?:me )?to add (?:another|more|anything else|any other)\b|"
                          # calendar_list_day at 21c8a9e: the day listed, then "Do you want to see the calendar
                          # events again?"
                          r"\b(?:do|would) you (?:want|like) (?:me )?to (?:see|view|show|list|read|check|hear)\b"
                          r"[^?]*\bagain\b|"
                          r"\bwhat (?:should|shall) i do (?:next|now)\b|\bwhat do you want me to do (?:next|now)\b|"
                          r"\b(?:is|are) (?:the|this|that|these) (?:information|answer|result|event)s? "
                          r"(?:(?:provided|above|shown|listed) )?(?:correct|right|accurate)\b|"
                          # xlsx_summary_sheet at 09f04f4: the Summary sheet added, then "Is the final answer already
                          # provided?" asked, and the task paused on it
                          r"\bis (?:the|my) (?:final )?answer (?:already )?(?:provided|given|done|complete)\b|"
                          r"\b(?:is|was) (?:the|this|my) task (?:already )?(?:done|complete|completed|finished)\b|"
                          r"\b(?:am i|are we) (?:done|finished)\b",
                          re.IGNORECASE)


_KIND_WORDS = frozenset("""document file folder total amount value number figure information detail exact current
actual combined together overall altogether""".split())


_ASKS_FOR_HELP = re.compile(r"\bwhat went wrong\b|\bwhat (is|was) the (error|problem)\b|\bwhy (did|does|is|was) (it|the|this|that)\b"
                            r".{0,40}\b(fail|error|wrong|not work)|\b(can|could) you (please )?help\b|\bhelp me\b|"
                            r"\bhow (do|can|should) i (fix|correct)\b", re.IGNORECASE)
_OPEN_CHOICE = re.compile(r"^(other|others|something else|none|none of these|no|yes|not sure|skip|cancel|"
                          r"neither|both|all|any|other \w+|a different \w+)\W*$", re.IGNORECASE)


_WH_QUESTION = re.compile(r"^\s*(what|which|who|when|where|how (much|many|long))\b", re.IGNORECASE)


_READS = ("read_file", "docx_read", "pdf_read", "xlsx_read", "csv_read")


def _asks_what_a_read_file_holds(call: CallRecord, calls: Sequence[CallRecord]) -> CallRecord | None:
    """The successful read of this task of the one file an ``ask_human`` question asks
    the contents of ("What topics are listed in the file 'topics.txt'?": a wh-question
    naming one file after "in", "from" or "of"), or None."""
    question = str(call.arguments.get("question", "")) if call.name == "ask_human" else ""
    if not _WH_QUESTION.match(question):
        return None
    named = re.findall(r"\b(?:in|from|of|inside)\s+(?:the\s+)?(?:file\s+)?[`'\"]?([\w./-]+\.[A-Za-z]\w{0,4})\b",
                       question, re.IGNORECASE)
    files = set(re.findall(r"[\w./-]+\.[A-Za-z]\w{0,4}\b", question))
    if len(named) != 1 or len(files) != 1:
        return None
    return next((c for c in calls if c.name in _READS and c.status == "done" and not c.error
                 and norm_path(str(c.arguments.get("path", ""))) == norm_path(named[0])), None)


def _files_tell(call: CallRecord, calls: Sequence[CallRecord], goal: str = "") -> str:
    """The line of a tool result that answers an ``ask_human`` question, or "".

    The question counts as answered when exactly one of its choices (the rest
    being open ones like "Other") is in a successful tool result of this task:
    calendar_from_invite at 6b05252, Qwen 1.5B read "Subject: Budget review", then
    asked "What is the title of the meeting?" with the choices "Budget review" and
    "Other". Two choices found (two contracts listed) are a real choice; file
    listings do not count (the file a name points at is the user's to pick), nor
    do questions that are not what/which/who/when/where/how much.

    A question without choices counts as answered when it is one part of the
    ``goal`` (two or more of its words the goal's) narrowed by words that a line
    of a result holds together with a number: "What is the total sales in the
    West region?" after the query listed "West | 2174.40".
    """
    from .evidence import NOT_READING

    question = str(call.arguments.get("question", ""))
    if not _WH_QUESTION.match(question):
        return ""  # "Should I overwrite it?" is a confirmation, the user's to give
    choices = [str(c).strip() for c in call.arguments.get("choices") or [] if str(c).strip()]
    specific = [c for c in choices if not _OPEN_CHOICE.match(c)]
    lines = [re.sub(r"^\s*\d+\t", "", line).strip() for c in calls
             if c.status == "done" and not c.error and c.result and c.name != "ask_human" and c.name not in NOT_READING
             for line in c.result.splitlines() if line.strip() and not line.startswith(("<<", "(The text below"))]
    asked, wanted = (_content_words(t) for t in (question, goal))
    extra = asked - wanted
    if not choices and goal and extra and len(asked & wanted) >= 2:
        # one part of the goal's own question, narrowed by words a result line holds: csv_group_totals at b5a954c,
        # the totals per region queried, then "What is the total sales in the West region?" asked of the user for
        # the goal "What are the total sales per region in sales.csv?"
        part = next((ln[:90] for ln in lines if re.search(r"\d", ln) and extra <= _content_words(ln)), "")
        if part:
            return part
    named = _INCLUDE.search(goal) if goal else None
    shared = asked & _content_words(named.group(1)) if named else set()
    seen = {w for ln in lines for w in _content_words(ln)}
    # docx_summarise at 9c2437c: "What is the budget for Project Falcon? What is the schedule? What are the main
    # risks?": every other word of it the report's own
    if shared and not extra - {"project", "report", "document", "file"} - seen:
        # docx_summarise at ab03949: "What is the budget for the project?" asked of the user for a summary that is
        # to "include the budget", the report read ("The approved budget is EUR 48,000, ..."); with choices too
        # (at 4f7db1e: "EUR 48,000", "EUR 19,500", both in the report, and two of its own)
        found = next((ln[:90] for ln in lines if re.search(r"\d", ln) and shared <= _content_words(ln)), "")
        if not found and extra:  # a question of several parts: the line with a number that answers most of them
            best = max(((len(shared & _content_words(ln)), -i, ln) for i, ln in enumerate(lines)
                        if re.search(r"\d", re.sub(r"^\[p\d+\]", "", ln)) and shared & _content_words(ln)),
                       default=None)
            found = best[2][:90] if best else ""
        if found:
            return found
    if len(specific) != 1 or len(specific[0]) < 4:
        return ""
    want = specific[0].lower()
    return next((ln[:90] for ln in lines if want in ln.lower()), "")


#: what a goal asks a summary or memo to include ("Include the budget, the deadline and the main risk.")
_INCLUDE = re.compile(r"\b(?:include|includes|including|mention|mentioning|state|stating)\s+([^.;]{3,120})",
                      re.IGNORECASE)


def _content_words(text: str) -> set[str]:
    return {_singular(w) for w in re.findall(r"[^\W\d_]{3,}", text.lower()) if w not in _ASK_WORDS}


_ASK_WORDS = frozenset("""what which who whom whose where when why how is are was were the and for with does did you
your our its this that these those there has have had can could would should will please much many any all""".split())


def _singular(word: str) -> str:
    return word[:-1] if word.endswith("s") and not word.endswith("ss") and len(word) > 3 else word


def reader_hint(path: str) -> str:
    """The tool that reads ``path``'s contents, as a short instruction."""
    from tools.files._common import reader_for

    return f"{reader_for(path)} reads its contents."


#: a parameter's common other names, taken as that parameter when the tool has it and it was not given
_SYNONYMS = {"location": ("room", "place", "venue"), "description": ("notes", "note", "details")}


def _cells_as_rows(call: CallRecord, tool: Tool) -> str:
    """Move xlsx_write's ``cells`` into ``rows`` when it holds rows (lists, not cell
    objects) and no rows are given; returns the note saying so ("" otherwise).
    multistep_invoices_memo at 0417c73: the invoices' rows sent as cells, refused
    (with an overwrite the tool does not have), and the task stalled."""
    cells = call.arguments.get("cells")
    if "rows" not in tool.params.model_fields or "cells" not in tool.params.model_fields or call.arguments.get("rows") \
            or not isinstance(cells, list) or not cells or not all(isinstance(r, list) for r in cells):
        return ""
    call.arguments = {**{k: v for k, v in call.arguments.items() if k != "cells"}, "rows": cells}
    return "(cells held rows, not cell objects: taken as rows.)"


def _synonym_arguments(call: CallRecord, tool: Tool | None = None) -> str:
    """Rename, in ``call.arguments``, an argument the tool has no parameter for to the
    parameter it is a common name of (``room`` -> ``location``), when that parameter
    was not given; returns the note saying so ("" when nothing was renamed).
    calendar_from_invite at f000187: Qwen 1.5B passed "room": "4B" to
    calendar_add_event, was refused, and spent two more steps getting the room in."""
    if tool is None:
        return ""
    fields = tool.params.model_fields
    said = []
    for param, others in _SYNONYMS.items():
        if param not in fields or call.arguments.get(param) not in (None, ""):
            continue
        other = next((o for o in others if o not in fields and call.arguments.get(o) not in (None, "")), None)
        if other is not None:
            call.arguments = {**{k: v for k, v in call.arguments.items() if k != other}, param: call.arguments[other]}
            said.append(f"{other} was taken as {param}")
    return f"({'; '.join(said)}: {tool.name} calls it so.)" if said else ""


def _unknown_arguments(tool: Tool, arguments: dict[str, Any]) -> list[str]:
    """Names in ``arguments`` with a value (not null or empty) that ``tool`` has
    no parameter for; pydantic drops them silently. Qwen 1.5B passed a CSV's
    data to xlsx_write as ``rows`` when it had none: only the header was written."""
    if tool.params.model_config.get("extra") == "allow":
        return []
    known = set(tool.params.model_fields) | {f.alias for f in tool.params.model_fields.values() if f.alias}
    return [k for k, v in arguments.items() if k not in known and v not in (None, "", [], {})]


def _redact(text: str) -> str:
    from plugins.secrets import redact

    from ..infra.secret_cache import seen_secrets

    secrets = seen_secrets()
    return redact(text, secrets) if secrets else text


_SAVE_HINT_ROWS = 20
_NUMERIC = re.compile(r"-?(0|[1-9]\d*)(\.\d+)?")  # "0042" stays text (an id, not a number)


_ONE_ROW_PER = re.compile(r"\b(?:one (?:row|line|entry) (?:per|for each)|(?:totals?|sums?|subtotals?) (?:per|by|for each))"
                          r"\s+([a-z]+)", re.IGNORECASE)


_BY_TYPE = re.compile(r"\b(extensions?|file ?types?|kinds? of files?|types? of files?)\b", re.IGNORECASE)
_TYPE_FOLDERS = frozenset("""pdf jpg jpeg png gif bmp tif tiff heic svg webp txt md csv tsv xlsx xls xlsm docx doc odt
ods pptx ppt zip tar gz rar mp3 wav flac m4a mp4 mov avi mkv html htm json xml yaml yml py js ts ics eml log""".split())


def _wrong_type_folder(goal: str, call: CallRecord) -> tuple[str, str, str] | None:
    """``(file, its extension, folder)`` when the goal sorts files by extension and
    move ``call`` puts a file into a folder named after another extension
    (sunset.jpg into inbox/pdf); None otherwise."""
    src, dest = call.arguments.get("src"), call.arguments.get("dest")
    if call.name != "move" or not _BY_TYPE.search(goal) or not isinstance(src, str) or not isinstance(dest, str):
        return None
    name = src.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
    kind = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    folder = dest.replace("\\", "/").rstrip("/")
    if folder.rsplit("/", 1)[-1] == name:  # dest names the file inside its folder
        folder = folder.rsplit("/", 1)[0] if "/" in folder else ""
    last = folder.rsplit("/", 1)[-1].lower()
    if not kind or "*" in kind or "?" in kind or last not in _TYPE_FOLDERS or last == kind \
            or {last, kind} <= {"jpg", "jpeg"} or {last, kind} <= {"tif", "tiff"} or {last, kind} <= {"htm", "html"}:
        return None
    return name, kind, folder


def _repeated_group(goal: str, call: CallRecord) -> tuple[str, int, str] | None:
    """``(key, times, unit)`` when ``goal`` asks for one row (or total) per unit ("one row
    per region") and the rows of table write ``call`` repeat a first-column value: a
    list of totals names each group once. None otherwise."""
    m = _ONE_ROW_PER.search(goal)
    rows = call.arguments.get("rows")
    if call.name not in _TABLE_WRITES or not m or not isinstance(rows, list):
        return None
    keys = [str(r[0]).strip() for r in rows if isinstance(r, list) and r and isinstance(r[0], str) and r[0].strip()]
    counts: dict[str, int] = {}
    for k in keys:
        counts[k.lower()] = counts.get(k.lower(), 0) + 1
    key = next((k for k in keys if counts[k.lower()] > 1), None)
    return (key, counts[key.lower()], m.group(1).lower()) if key else None


def _writes_a_report(call: CallRecord, calls: Sequence[CallRecord]) -> CallRecord | None:
    """The change call of this task whose result message ``call`` would write as a
    file's whole text (``write_file`` content); None otherwise."""
    content = call.arguments.get("content")
    if call.name != "write_file" or not isinstance(content, str) or not content.strip():
        return None
    text = " ".join(content.split())
    # the diff an edit showed, written back as the file (a held-out task at 8da7e10: notes.md, twice)
    part = _DIFF.search(content) is not None and not str(call.arguments.get("path", "")).endswith((".diff", ".patch"))
    # or a short message of the same shape, another file's or count's (a held-out task at b7b6dee: munich.csv
    # written as "wrote 4 rows to munich.csv." after csv_write's "wrote 4 rows to berlin.csv.")
    shape = _message_shape(text) if len(text) < 300 else None
    return next((c for c in calls if c.status == "done" and not c.error and c.result and c.id != call.id
                 and c.risk in ("write", "destructive") and (" ".join(c.result.split()) == text
                                                             or part and _DIFF.search(c.result)
                                                             or shape and _message_shape(c.result.split("\n")[0])
                                                             == shape)), None)  # its first line: the tool's own


def _message_shape(text: str) -> str:
    """``text`` with its numbers as ``#`` and its file names as ``F``: "wrote 4 rows to
    berlin.csv." and "wrote 3 rows to munich.csv." have one shape, and "edited tasks.csv:"
    (edit_file's first line, its diff after) and "edited tasks.csv" (held-out BZI at bbbe1fb)."""
    text = re.sub(r"\d+(?:\.\d+)?", "#", " ".join(text.split()))
    return re.sub(r"[\w./-]+\.[A-Za-z]\w{0,4}\b", "F", text).rstrip(" :.")


#: a unified diff: its file header lines and a hunk
_DIFF = re.compile(r"^--- \S.*\n\+\+\+ \S.*\n@@ ", re.MULTILINE)


#: a goal that adds: "Add ...", or a later step "... and add it to notes.md", "..., then put ..."
_ADDS = re.compile(r"^\W*(please\s+)?(add|append|insert|put)\b|\b(and|then)\s+(add|append|insert|put)\b", re.IGNORECASE)
#: a goal that makes a table longer or wider: "... and a total row", "a new column"
_GROWS_TABLE = re.compile(r"\b(rows?|columns?|totals?|sums?|new|append\w*|insert\w*|extend\w*|formulas?)\b",
                          re.IGNORECASE)


#: a goal that copies a file: the copy is the file itself, not its text written again
_COPIES = re.compile(r"\b(cop(y|ies|ying)|duplicat\w*|back(ing)? up|backup)\b", re.IGNORECASE)
#: a goal that writes a file anew: its old lines need not stay
_REWRITES = re.compile(r"\b(write|rewrite|re-write|create|make|summari[sz]e|shorten|translate|overwrite|empty|clear|"
                       r"replace\s+(?:the\s+)?(?:whole|content|contents|text))\b", re.IGNORECASE)
#: a goal that changes a file where it is (beside what it makes): then any file it names may be written
_IN_PLACE = re.compile(r"\b(add(?!ress)|append|insert|edit|chang|updat|modif|fix|correct|replac|renam|mov|delet|remov|"
                       r"eras|sort|tidy|clean|mark|tick|cross|fill|rewrit|translat|format)\w*", re.IGNORECASE)
_CHANGES_TEXT = re.compile(r"\b(chang|replac|edit|updat|fix|correct|rewrit|remov|delet|renam|modif|swap|turn)\w*",
                           re.IGNORECASE)



# "Add a sheet ... that lists each month's sheet name ... and that month's total": the rows are the sheets, not the
# rows of one sheet grouped ("one row per region": xlsx_group_sums at c92ae49 copied a one-row per-sheet hint)
_SHEET_TOTALS = re.compile(r"\b(add|create|make|insert)\b.{0,60}\bsheet\b.{0,200}?\b(each|every|per)\b[^.]{0,40}?"
                           r"\b(sheets?|tabs?|worksheets?)\b.{0,120}?\btotal", re.IGNORECASE | re.DOTALL)
# "rename every file named like IMG_0042.jpg to holiday-0042.jpg": an example of the rename


def _edit_pair(call: CallRecord) -> tuple[str, str]:
    """``(old, new)`` text of an edit (``docx_replace`` find/replace, ``edit_file``
    old_text/new_text), stripped; ``("", "")`` for any other call."""
    keys = {"docx_replace": ("find", "replace"), "edit_file": ("old_text", "new_text")}.get(call.name)
    if keys is None:
        return "", ""
    old, new = (call.arguments.get(k) for k in keys)
    return (old.strip(), new.strip()) if isinstance(old, str) and isinstance(new, str) else ("", "")


def _changed_before(path: str, calls: Sequence[CallRecord]) -> str:
    """" Step 2's docx_replace already changed '30 days' to '60 days' in contract.docx.
    If that completes the task, give your final answer." for the newest change of
    ``path`` this task made ("" when none). docx_edit_clause at ef38a30: clause 2
    changed with docx_replace, then the contract re-created with docx_create three
    times, each refused as a replacement with no word that the change was made."""
    done = next((c for c in reversed(calls) if c.status == "done" and not c.error and (c.risk or "read") != "read"
                 and norm_path(str(c.arguments.get("path", ""))) == norm_path(path)), None)
    if done is None:
        return ""
    old, new = _edit_pair(done)
    what = f"changed {old!r} to {new!r} in" if old and new else "changed"
    return f" Step {done.step}'s {done.name} already {what} {path}. If that completes the task, give your final answer."


def _undoes_change(goal: str, call: CallRecord, calls: Sequence[CallRecord]) -> CallRecord | None:
    """The earlier edit of this task that ``call`` would reverse (same file, its new
    text back to its old) when that edit made what the goal asks for ("... to 60
    days" and it wrote "with 60 days" for "with 30 days"); None otherwise, and for an
    edit the goal does not ask for (a wrong first edit may be put right)."""
    old, new = _edit_pair(call)
    asked = text_change(goal)
    if not old or not new or asked is None:
        return None
    wanted = asked[1].lower()
    path = str(call.arguments.get("path", "")).strip()
    for c in reversed(calls):
        if c.status != "done" or c.error or str(c.arguments.get("path", "")).strip() != path:
            continue
        was_old, was_new = _edit_pair(c)
        if was_old.lower() == new.lower() and was_new.lower() == old.lower() \
                and wanted in was_new.lower() and wanted not in was_old.lower():
            return c
    return None


def _days_said(text: str) -> list[tuple[str, tuple[int, int, int]]]:
    """``(as written, (year, month, day))`` of each date of ``text`` that names its year:
    ISO dates (2026-12-09, also before a "T") and dates in words ("9 December 2026")."""
    out = [(m.group(0), (int(m.group(1)), int(m.group(2)), int(m.group(3))))
           for m in re.finditer(r"(\d{4})-(\d{2})-(\d{2})", text)]
    return out + [(d.text, (d.year, d.month, d.day)) for d in dates_in(text) if d.year and d.day]


def _without_people(args: dict[str, Any], people: Sequence[str]) -> dict[str, Any]:
    """A calendar call's ``args`` without the attendees ``people`` and without any other
    text field that names one of them (a held-out task at a864c41: "Appointment for Dr.
    Smith's dental checkup" kept in the call to copy)."""
    out = {**args, "attendees": [a for a in args.get("attendees") or [] if a not in people]}
    return {k: v for k, v in out.items() if k in ("title", "start", "end", "attendees")
            or not isinstance(v, str) or not any(p.strip().lower() in v.lower() for p in people)}


def _makes_change_again(goal: str, call: CallRecord, calls: Sequence[CallRecord],
                        everywhere: bool = False) -> CallRecord | None:
    """The earlier edit of this task that already made the one "from X to Y" change
    the goal asks for in the same file, when ``call`` would make it again somewhere
    else; None otherwise, and when the goal asks for it everywhere ("all", "every").
    docx_edit_clause at 2056215: "30 days" -> "60 days" in clause 2 (p4), then in
    clause 3 (p5) too, though the goal said "Do not change anything else". None when
    the change is meant ``everywhere`` (:func:`named_files.change_everywhere`)."""
    asked, (old, new) = text_change(goal), _edit_pair(call)
    if asked is None or not old or everywhere:
        return None
    a_old, a_new = (x.lower() for x in asked)
    if a_old not in old.lower() or a_new not in new.lower():
        return None
    path = str(call.arguments.get("path", "")).strip()
    for c in calls:
        if c.id == call.id or c.status != "done" or c.error or str(c.arguments.get("path", "")).strip() != path:
            continue
        was_old, was_new = _edit_pair(c)
        if a_old in was_old.lower() and a_new in was_new.lower():
            return c
    return None


_ADDING = {"docx_insert": "blocks", "xlsx_append_rows": "rows", "xlsx_write": "rows"}


def _adds_again(call: CallRecord, calls: Sequence[CallRecord]) -> CallRecord | None:
    """The earlier call of this task that already added the same content to the same
    file (and sheet and output), when ``call`` (a ``docx_insert``, ``xlsx_append_rows``
    or ``xlsx_write`` of rows) would add it again at another place; None otherwise.
    docx_append_paragraph at 4df8dd6: "Approved by: Dana Lee" inserted after p3, then
    after p4 and after p5, three times in the letter; multistep_invoices_memo at
    8282b36: the three invoice rows written again below the cells the call also set."""
    key = _ADDING.get(call.name)
    content = call.arguments.get(key) if key else None
    if not content:
        return None
    path = norm_path(str(call.arguments.get("path", "")))
    same = json.dumps(content, sort_keys=True, ensure_ascii=False)
    return next((c for c in calls if c.id != call.id and c.name == call.name and c.status == "done" and not c.error
                 and norm_path(str(c.arguments.get("path", ""))) == path
                 and all(c.arguments.get(k) == call.arguments.get(k) for k in ("sheet", "output"))
                 and json.dumps(c.arguments.get(key), sort_keys=True, ensure_ascii=False) == same), None)


_HTML_TAG = re.compile(r"</?(br|p|div|span|b|i|u|strong|em|li|ul|ol|h[1-6])\s*/?>", re.IGNORECASE)


def _call_in_content(call: CallRecord, tool_names: Sequence[str]) -> tuple[str, str] | None:
    """``(tool, excerpt)`` when a string a write call would write holds a call of a
    tool as text: a tag named after it (``<table_query sql='...' />``), call tags, or
    a JSON ``"name": "<tool>"``; None otherwise. csv_top_customers at f000187: Qwen
    1.5B wrote top3.csv as "<table_query sql='SELECT customer, SUM(amount) ...' />"
    and finished, saying it held the top three customers. Only a text that starts with
    the call, or any text of a table file, counts: notes about call syntax are data."""
    names = [n for n in dict.fromkeys([*tool_names, call.name]) if "_" in n]  # "copy" or "move" may be a word
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    tag = re.compile(rf"<\s*/?\s*({alternatives})\b[^<>]*>|<tool_call>|<function=({alternatives})\b"
                     rf"|\"name\"\s*:\s*\"({alternatives})\"")
    path = str(call.arguments.get("path") or call.arguments.get("output") or "").lower()
    table = path.endswith((".csv", ".tsv", ".xlsx", ".json"))
    for key, text in _strings(call.arguments):
        if key == "path":
            continue
        m = tag.search(text)
        # notes about call syntax are data ("How to delete: <tool_call>..."); a table of calls, or content that is
        # nothing but a call, is a call written down instead of made
        if m and (table or not text[:m.start()].strip()):
            name = m.group(1) or m.group(2) or m.group(3) or "a tool"
            return name, text[m.start(): m.start() + 80]
    return None


def _markdown_blocks(call: CallRecord) -> list[dict[str, Any]]:
    """The blocks of a ``docx_create`` (``docx_insert``) call with each paragraph whose
    lines are Markdown (a '|' table, a "- " list, a "# " heading) made the blocks they
    mean (:func:`tools.files.writing.markdown_blocks`); [] when no paragraph is such."""
    blocks = call.arguments.get("blocks")
    if call.name not in ("docx_create", "docx_insert") or not isinstance(blocks, list):
        return []
    from tools.files.writing import markdown_blocks

    out, changed = [], False
    for block in blocks:
        text = block.get("text") if isinstance(block, dict) and block.get("type", "paragraph") == "paragraph" else None
        made = markdown_blocks(text) if isinstance(text, str) and "\n" in text.strip() else []
        if any(b["type"] != "paragraph" for b in made):
            out += made
            changed = True
        else:
            out.append(block)
    return out if changed else []


def _html_in_document(call: CallRecord) -> str:
    """The first HTML tag ("<br/>") in the text a Word-document edit would write; ""
    otherwise (other tools' text is the user's business)."""
    if not call.name.startswith("docx_"):
        return ""
    for _, value in _strings(call.arguments):
        m = _HTML_TAG.search(value)
        if m:
            return m.group(0)
    return ""


#: a template's slot: "{{total_amount}}", "{total}", "[Amount]", "<name>"
_SLOT = re.compile(r"\{\{\s*[A-Za-z_][\w ]{0,40}\}\}|\{[A-Za-z_]\w{0,40}\}|\[[A-Z][a-z]*(?:[ _][A-Za-z]+){0,3}\]")


def _placeholder_in_document(call: CallRecord, goal: str) -> str:
    """The first template slot ("{{total_amount}}", "[Amount]") in the text a Word
    document edit would write (not the text it finds: a template's slot may be what
    is filled in), when the goal itself has no such slot; "" otherwise."""
    if not call.name.startswith("docx_") or _SLOT.search(goal):
        return ""
    for key, value in _strings(call.arguments):
        m = _SLOT.search(value) if key not in ("find", "path", "output") else None
        if m:
            return m.group(0)
    return ""


def _removes_text(goal: str, call: CallRecord) -> str:
    """The text an edit (``docx_replace`` or ``edit_file``) would take out of a file when
    the goal only asks to add ("Add a final paragraph ..."); "" otherwise, and when
    the edit keeps the old text (an insertion written as a replacement)."""
    if not _ADDS.search(goal) or _CHANGES_TEXT.search(goal) or PERCENT_CHANGE.search(goal) \
            or addend(goal) is not None or rewrite_asked(goal):  # "Add 5 points to every score" changes the scores
        # (batch GZ, GZH); "Put the address in address.txt on one line" rewrites its lines (batch IZ, IZD)
        return ""  # "Add 10% VAT to every price" changes the prices (a held-out task at 11a1600)
    if call.name == "docx_replace":
        old, new = call.arguments.get("find"), call.arguments.get("replace")
    elif call.name == "edit_file":
        old, new = call.arguments.get("old_text"), call.arguments.get("new_text")
    else:
        return ""
    if not isinstance(old, str) or not old.strip() or not isinstance(new, str) or old.strip() in new:
        return ""
    olds, news = old.strip().splitlines(), new.strip().splitlines()
    if len(olds) == len(news) and all(n.startswith(o.rstrip()) for o, n in zip(olds, news)):
        return ""  # each line kept, cells added at its end: a column added to a table
    return old.strip()[:80]


_LIST_ITEM = re.compile(r"^(\s*(?:[-*+\u2022]|\d{1,3}[.)])\s+)")


def _kept_and_added(goal: str, args: dict[str, Any], text: str = "", sources: Sequence[str] = ()) -> dict[str, Any]:
    """The ``edit_file`` arguments that keep ``old_text`` and add ``new_text`` after it,
    under the heading the goal names ("under a heading called Invoice") unless the new
    text has it. A held-out task at 93adf18 sent the edit that replaced the note's only
    line three times, told only to hold the old text in the new.

    Where ``old_text`` ends a list item of the file's ``text`` ("- INV-2291 paid") and the
    new text is one line, that line joins the list, with its marker, and loses the words
    (3+ letters) it carried from the line it replaced that none of ``sources`` (what the
    task read elsewhere, the user's words) holds: a held-out task at 2e1bee7 wrote
    "INV-3307 paid" below the list; the invoice says an amount is due."""
    old, new = str(args.get("old_text", "")), str(args.get("new_text", ""))
    heading = heading_asked(goal)
    if heading and not heading_line(heading).search(new):
        return {**args, "new_text": f"{old.rstrip()}\n\n## {heading}\n\n{new}"}
    line = next((ln for ln in text.splitlines() if old.strip() and ln.rstrip().endswith(old.strip())), "")
    marker = _LIST_ITEM.match(line)
    if marker and "\n" not in new.strip() and not _LIST_ITEM.match(new):
        said = "\n".join(sources).lower()
        carried = {w.lower() for w in re.findall(r"[A-Za-z]{3,}", old)}
        kept = [w for w in new.split() if w.lower().strip(".,;:") not in carried or w.lower().strip(".,;:") in said]
        item = " ".join(kept) or new.strip()
        bullet = marker.group(1).lstrip() if not re.match(r"\d", marker.group(1).strip()) else "- "
        return {**args, "new_text": f"{old.rstrip()}\n{bullet}{item}"}
    if marker and _LIST_ITEM.match(new.strip()):  # a list item under a list item: no blank line inside the list
        return {**args, "new_text": f"{old.rstrip()}\n{new.strip()}"}
    return {**args, "new_text": f"{old.rstrip()}\n\n{new}"}


def _line_numbers_as_data(call: CallRecord, calls: Sequence[CallRecord]) -> list[str]:
    """The first values of a table write's rows when they are read_file's line numbers
    (three or more rows "n, <what line n of a read_file result begins with>", n
    counting up); [] otherwise."""
    rows = call.arguments.get("rows")
    if call.name not in _TABLE_WRITES or not isinstance(rows, list):
        return []
    lines = {ln.strip() for c in calls if c.name == "read_file" and c.status == "done" and not c.error and c.result
             for ln in c.result.splitlines()}
    firsts = []
    for row in rows:
        if not isinstance(row, list) or len(row) < 2 or isinstance(row[0], bool) \
                or not re.fullmatch(r"\d{1,6}", str(row[0]).strip()):
            return []
        firsts.append(str(row[0]).strip())
        if not any(ln.startswith(f"{firsts[-1]}\t{str(row[1]).strip()}") for ln in lines):
            return []
    counting = all(int(b) == int(a) + 1 for a, b in zip(firsts, firsts[1:]))
    return firsts if len(firsts) >= 3 and counting else []


_TOTALS = re.compile(r"\b(in total|totals?|sums?|summed|add(ed)? up)\b", re.IGNORECASE)
_LINE_NUMBER = re.compile(r"(?<![\w.])\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\w.])\d+(?:\.\d+)?")


def _line_numbers(line: str) -> set[str]:
    return {normalise_number(m.group(0)) for m in _LINE_NUMBER.finditer(line)}


def _single_rows_as_totals(goal: str, call: CallRecord, calls: Sequence[CallRecord]) -> tuple[str, Any, int] | None:
    """``(name, number, rows)`` when ``goal`` asks for totals and a row of table write
    ``call`` pairs ``name`` with ``number``, where ``name`` is on several distinct lines
    of what this task read and ``number`` is on one of them (one row's amount, not the
    sum), and no table_query result pairs them; None otherwise. xlsx_top_vendors at
    462ec82: Qwen 1.5B wrote "Deutsche Bahn, 466.3", one of its payments, as its total."""
    rows = call.arguments.get("rows")
    if call.name not in _TABLE_WRITES or not _TOTALS.search(goal) or not isinstance(rows, list):
        return None
    done = [c for c in calls if c.status == "done" and not c.error and c.result and c.id != call.id]
    lines = {ln.strip() for c in done if c.name != "table_query" for ln in c.result.splitlines()}
    queried = [ln for c in done if c.name == "table_query" for ln in c.result.splitlines()]
    for row in rows:
        if not isinstance(row, list):
            continue
        names = [v.strip() for v in row if isinstance(v, str) and len(v.strip()) >= 3
                 and not _NUMERIC.fullmatch(v.strip()) and not v.startswith("=")]
        numbers = [v for v in row if isinstance(v, (int, float)) and not isinstance(v, bool)
                   or isinstance(v, str) and _NUMERIC.fullmatch(v.strip())]
        for name in names:
            word = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)", re.IGNORECASE)
            holding = [ln for ln in lines if word.search(ln)]
            if len(holding) < 2:
                continue
            for number in numbers:
                n = next(iter(_line_numbers(str(number))), "")
                if not n or any(word.search(q) and n in _line_numbers(q) for q in queried):
                    continue
                if any(n in _line_numbers(ln) and not _TOTALS.search(ln) for ln in holding):
                    return name, number, len(holding)
    return None


#: a goal that asks for one row per thing ("one row per region", "each month's total")
_ROW_PER_THING = re.compile(r"\b(one|a) (row|line) (per|for each|for every)\b|\beach \w+'s total\b|"
                            r"\b(per|by) (region|month|category|customer|vendor|department)\b", re.IGNORECASE)


def _typed(value: Any) -> Any:
    """A table_query result cell (text) as the number it shows, else unchanged."""
    if isinstance(value, str) and _NUMERIC.fullmatch(value):
        number = float(value)
        return int(number) if number.is_integer() else number  # a DECIMAL total "30.0" is 30
    return value


def _as_shown(value: Any) -> Any:
    """A table_query result cell for a CSV file: the number when it is written as
    shown ("7", "1250.75"), else the text ("980.00", which as a number is 980)."""
    typed = _typed(value)
    return typed if json.dumps(typed) == value else value


def _sql_text(value: str) -> str:
    return value.replace("'", "''")


def _rows_with_value(table: Any, goal: str) -> str:
    """Every column of the rows of ``table`` whose text column holds the value the
    goal names (:func:`table_goal.goal_value`), "" when it names none; only the column of
    names when the goal asks for names (a text column other than the value's whose texts
    all differ, held-out NF at a367559)."""
    found = goal_value(table, goal)
    if not found:
        return ""
    label = next((c.name for c in table.columns if c.sql_type == "VARCHAR" and c.name != found[0]
                  and len({str(v) for v in c.values}) == len(c.values)), None) \
        if re.search(r"\bnames\b", goal, re.IGNORECASE) else next(
            (c.name for c in table.columns if c.name != found[0]
             and re.search(rf"\b{re.escape(c.name)}s\b", goal, re.IGNORECASE)), None)  # "their numbers" (OE)
    return f"SELECT {label or '*'} FROM {table.name} WHERE {found[0]} = '{_sql_text(found[1])}'"


def _value_count(table: Any, goal: str) -> str:
    """``SELECT COUNT(*) FROM t WHERE status = 'open'`` when the goal asks how many rows
    hold a value of a text column it names, and ranks or splits nothing; "" otherwise. A
    held-out task at f1aaa58: "How many tasks in tasks.csv are still open?" got the open
    tasks counted one by one (GROUP BY task)."""
    found = goal_value(table, goal)
    if found is None or not _COUNT_ASKED.search(goal) or _RANKS_OR_SPLITS.search(goal):
        return ""
    several = goal_values(table, goal)
    if several:  # "open, closed and pending": each one's count (a held-out task at 911f35c got closed's alone)
        return value_counts_query(table.name, *several)
    return f"SELECT COUNT(*) FROM {table.name} WHERE {found[0]} = '{_sql_text(found[1])}'"


def _difference_query(table: Any, goal: str) -> str:
    """The difference of the sums of two values of a text column the goal names in a
    question about how much more (less) one is than the other
    (:func:`table_goal.two_values`); "" otherwise. A held-out task at 1de0702: "How much
    more did I spend in 2026 than in 2025?" got one sheet's sum as the example."""
    pair, number = two_values(table, goal), number_column(table, goal)
    if pair is None or number is None:
        return ""
    column, first, second = pair
    return (f"SELECT SUM({number}) FILTER (WHERE {column} = '{_sql_text(first)}') - SUM({number}) FILTER (WHERE "
            f"{column} = '{_sql_text(second)}') AS difference FROM {table.name}")


def _filtered_sum(table: Any, goal: str) -> str:
    """``SELECT SUM(amount) FROM t WHERE category = 'Travel'`` when ``goal`` names a value of
    ``table``'s text column and the table has a number column; else ""."""
    found, number = goal_value(table, goal), number_column(table, goal)
    if not found or not number:
        return ""
    if _RANKS_OR_SPLITS.search(goal) and any(c.name != found[0] and len(set(c.values)) < len(c.values)
                                             for c in _named_texts(table, goal)):
        return ""  # "Which vendor did we pay the most for travel?": a ranking of vendors, kept to travel's rows
    # with every other bound the goal gives: "on travel in October" (a held-out task at 2e1bee7 got travel's sum
    # of every month)
    return f"SELECT SUM({number}) FROM {table.name} WHERE {' AND '.join(f.sql for f in goal_filters(table, goal))}"


def _named_texts(table: Any, goal: str) -> list[Any]:
    """The text columns of ``table`` whose name (or its plural) is a word of ``goal``."""
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", goal)}
    return [c for c in table.columns if c.sql_type == "VARCHAR" and (c.name.lower() in words
                                                                     or f"{c.name.lower()}s" in words)]


def _where_value(table: Any, goal: str, key: str) -> str:
    """`` WHERE type = 'sick'`` for a query grouped by ``key`` when ``goal`` names a value
    of another text column (:func:`goal_value`); "" otherwise. A held-out task at 2e1bee7:
    "the most sick days" counted every absence per employee."""
    found = goal_value(table, goal)
    return f" WHERE {found[0]} = '{_sql_text(found[1])}'" if found and found[0] != key else ""


#: a goal asking for one total of everything ("the total amount of all invoices", "grand total")
_WHOLE_TOTAL = re.compile(r"\b(total|sum)\b[^.?!]{0,40}?\bof (all|every)\b|\bgrand total\b|"
                          # xlsx_total at 48efb4d: "the sum of the Amount column" got a query grouped by item
                          r"\b(total|sum) of the [\w ]{1,30}? column\b", re.IGNORECASE)


_ADD_PARAGRAPH = re.compile(
    r"^\W*(?:please\s+)?(?:add|append|insert|put)\s+(?:a\s+|an\s+|the\s+)?(?:(?:new|final|last|closing|first|"
    r"opening)\s+)?(?:paragraph|line|sentence)?\s*[\"\u201c](?P<text>[^\"\u201d\n]{1,300})[\"\u201d]\s*"
    r"(?P<where>(?:at|to)\s+the\s+(?:very\s+)?(?P<pos>end|bottom|start|beginning|top)\s+of|to|in|into)?\b",
    re.IGNORECASE)


def paragraph_to_add(goal: str) -> tuple[str, int | None] | None:
    """``(text, after)`` when ``goal`` asks to add a quoted paragraph to a document at
    its end (``after`` None: docx_insert appends) or its start (``after`` 0); None
    otherwise, and when it names another place ("after the second paragraph").
    'Add a final paragraph "Approved by: Dana Lee" at the end of letter.docx.' ->
    ("Approved by: Dana Lee", None)."""
    m = _ADD_PARAGRAPH.search(goal)
    if m is None or not m.group("where"):
        return None
    pos = (m.group("pos") or "end").lower()
    lead = goal[:m.start("text")].lower()
    if re.search(r"\b(first|opening)\b", lead):
        pos = "start"
    return m.group("text").strip(), (0 if pos in ("start", "beginning", "top") else None)


def _example_query(table: Any, goal: str = "") -> str:
    """A query over ``table`` (a :class:`tools.tables.loading.Table`) to show in a hint:
    the sum of the first number column over the rows whose text column holds the value
    the goal names (:func:`goal_value`), else the text column the goal names (or, if
    none, the one with the fewest distinct values) grouped with that sum
    ("SELECT category, SUM(amount) FROM spending GROUP BY category ORDER BY 2 DESC"),
    or the one sum of that column when the goal asks for the total of all rows;
    "" when it has no such pair. AVG for the SUM when the goal asks for an average (a
    held-out task at f81d1c7: "What is the average score of class B in grades.csv?"
    was given the hint's SUM, ran it, and divided by hand); a table without a number
    column gets COUNT(*) per value of the column the goal names."""
    mean = row_mean_columns(table, goal)
    label = next((c.name for c in table.columns if c.sql_type == "VARCHAR"), None)
    if mean and label:  # a held-out task (RM) at 624b529: AVG(math) per student for "the best average of math and
        # physics", its first row, the highest math grade, answered
        return (f"SELECT {label}, ({' + '.join(mean)}) / {len(mean)} AS average FROM {table.name} "
                f"ORDER BY average {'ASC' if lowest_wanted(goal) else 'DESC'}")
    example = _example_sum(table, goal)
    if AVERAGE.search(goal):
        return re.sub(r"\bSUM\(", f"{statistic_of(goal)}(", example)
    both = combined_columns(table, goal) if "AS percent" not in example else []  # a growth's own sums (ZI)
    if both:  # a held-out task (PJ) at 9fa21b4: "Berlin's Q1 and Q2 sales combined" got SUM(q1), and answered it
        return re.sub(rf"\bSUM\((?:{'|'.join(map(re.escape, both))})\)", " + ".join(f"SUM({c})" for c in both),
                      example, count=1)
    return example


#: what a table's rows are, counted ("how many people work in each department"): rows, not an amount of each
_ROWS_COUNTED = re.compile(r"people|persons|employees|staff|workers|members|customers|clients|students|pupils|users|"
                           r"rows|records|entries|orders|invoices|tickets|tasks|contacts|guests|patients|visitors|"
                           r"players|books|songs|films|movies|accounts|projects|transactions|payments|purchases",
                           re.IGNORECASE)
#: a count of the values a column holds, each once: "How many different customers are in orders.csv?"
_DISTINCT_COUNT = re.compile(r"\bhow many (?:different|distinct|unique|separate|individual)\s+([A-Za-z]{3,})",
                             re.IGNORECASE)
#: the group with the most (fewest) values of another column, each once: "the supplier that supplies the most
#: different parts" (group 1: most or fewest; group 2: the counted column's word)
_DISTINCT_PER = re.compile(r"\b(most|fewest|least)\s+(?:different|distinct|unique|separate)\s+([A-Za-z]{3,})",
                           re.IGNORECASE)
#: a goal about one row ("the highest single expense", "the biggest individual order")
_SINGLE = re.compile(r"\b(single|individual)\b", re.IGNORECASE)


def _month_sum(table: Any, goal: str) -> str:
    """``SELECT SUM(amount) FROM t WHERE month(date) = 3`` when the goal names a month by
    its name and the table has a date column and a number column; else "". A held-out
    task at 000bd0d: "How much did we spend in March according to spending.csv?" got no
    hint, summed one day's rows (WHERE date = '2026-03-31'), then added by hand."""
    month, number = month_filter(table, goal), number_column(table, goal)
    if month is None or number is None or _COUNT_ASKED.search(goal):  # rows to count: :func:`_bounded_query`
        return ""
    if _SINGLE.search(goal):  # batch Z at 6696c34 (ZG): "the largest single expense in March" was offered the
        # month's sum, and its 425.40 answered (the Flight's 189.90 is the largest)
        shown = ", ".join(c.name for c in table.columns[:6])
        low = re.search(r"\b(lowest|smallest|cheapest|least)\b", goal, re.IGNORECASE)
        return (f"SELECT {shown} FROM {table.name} WHERE {month.sql} ORDER BY {number} {'ASC' if low else 'DESC'} "
                "LIMIT 1")
    return f"SELECT SUM({number}) FROM {table.name} WHERE {month.sql}"


def _bounded_query(table: Any, goal: str) -> str:
    """The rows of ``table`` within the bound the goal gives on a date or number column
    ("started before 2020", "over 500 euros": the first column of all-different texts,
    and the bounded one), their count for "how many", or their sum when the goal asks
    for another figure; "" when the goal gives no bound (:func:`table_goal.row_filter`).
    A held-out task at a864c41: "Which employees in staff.csv started before 2020?"
    got no hint, grepped for "2020", and answered that nobody did."""
    grouped = group_bound(table, goal)
    if grouped is not None:  # "Which customers have spent more than 500 in total?": each customer's total bounded
        return grouped.sql
    when = row_filter(table, goal)
    if when is None:
        return ""
    number = number_column(table, goal)
    many = re.search(r"\bhow many (\w+)", goal, re.IGNORECASE)
    numbers = {c.name for c in table.columns if is_number(c)}
    measured = next((c.name for c in table.columns if many and c.name.lower()[:4] == many.group(1).lower()[:4]
                     and c.name != when.column and c.name in numbers), None)
    if measured:  # "How many hours ... in the week of ...": the hours added up, not the rows counted
        return f"SELECT SUM({measured}) FROM {table.name} WHERE {when.sql}"
    if _COUNT_ASKED.search(goal):
        return f"SELECT COUNT(*) FROM {table.name} WHERE {when.sql}"
    if _AGGREGATE.search(goal):
        return f"SELECT SUM({number}) FROM {table.name} WHERE {when.sql}" if number else ""
    label = next((c.name for c in table.columns if c.sql_type == "VARCHAR"
                  and len({str(v) for v in c.values}) == len(c.values)), None)
    shown = f"{label}, {when.column}" if label else "*"
    return f"SELECT {shown} FROM {table.name} WHERE {when.sql}"


_RANKS_OR_SPLITS = re.compile(r"\b(which|who|highest|lowest|most|least|largest|smallest|top|per|each|by)\b",
                              re.IGNORECASE)
#: a goal asking to sort a text file's lines: "Sort the names in names.txt alphabetically", "in alphabetical order"
_SORT_LINES = re.compile(r"\b(sort|order|alphabeti[sz]e)\w*\b.{0,80}?\b(alphabetical(ly)?|a-z|a to z|z-a|z to a)\b"
                         r"|\balphabeti[sz]e\b", re.IGNORECASE)
_REVERSED = re.compile(r"\b(z-a|z to a|reverse|descending)\b", re.IGNORECASE)
#: a goal asking for a file's lines in the opposite order: "in reverse order", "reverse the lines", "backwards"
_REVERSE_LINES = re.compile(r"\b(?:in\s+)?reversed?\s+order\b|\breverse\s+(?:the\s+)?(?:order\s+of\s+the\s+)?lines\b|"
                            r"\bbackwards\b|\blast\s+line\s+first\b", re.IGNORECASE)
#: words that may bound a table's rows before a number ("before 2020", "over 500 euros", "the week of 2026-11-23"):
#: the workspace's tables are loaded for the hint only then (or for a total)
_BOUND_SAID = re.compile(r"\b(before|after|since|prior|earlier|later|in|during|on|of|over|above|more|greater|between|"
                         r"exceeding|least|under|below|less|most|cheaper)\b[^.?!\d]{0,25}\d|\bzero\b|\bout of stock\b|"
                         r"\bsold out\b|\bno (?:stock|units) left\b|\bwith no stock\b|\bweek-?ends?\b|\bweek\s?days?\b",
                         re.IGNORECASE)
#: a goal asking how many rows there are
_COUNT_ASKED = re.compile(r"\bhow many\b|\bnumber of\b|\bcount\b", re.IGNORECASE)
#: a goal asking for a share of a whole: "What percentage of the budget goes to rent?", "what share ..."
_PERCENT = re.compile(r"\b(percent|percentage|per cent|share|proportion)\b|%", re.IGNORECASE)


def _percent_query(table: Any, goal: str) -> str:
    """The share of the whole in percent: of the rows whose text column holds the value
    the goal names ("rent"), else of each group; "" when the goal asks no share or the
    table has no number column. A held-out task at a864c41: "What percentage of the
    budget in budget.csv goes to rent?" divided two query sums by hand (right, 60 %)
    and was handed off, as no tool gave 60."""
    number = number_column(table, goal)
    if not _PERCENT.search(goal):
        return ""
    rated = percent_on_total(table, goal)
    if rated:  # "the total including 19% VAT" asks no share (batch DZ at a3c921a, DZG)
        return rated.sql
    found = goal_value(table, goal)
    rows = table.name.endswith("s") and re.search(rf"\b(?:of|among)\s+(?:the\s+|all\s+|our\s+)?"
                                                  rf"{re.escape(table.name)}\b", goal, re.IGNORECASE)
    if found and (number is None or _ID_COLUMN.search(number) or rows):
        # a share of the rows ("of the orders"), not of an amount: VR at 5dcca13, "What share of the orders in
        # orders.csv were returned?" was offered SUM(order_id), ran it, and answered 19.4% (2 of 8 orders: 25%)
        return (f"SELECT ROUND(100.0 * COUNT(*) FILTER (WHERE {found[0]} = '{_sql_text(found[1])}') / COUNT(*), 1) "
                f"AS percent FROM {table.name}")
    if number is None:
        return ""
    if found:
        return (f"SELECT ROUND(100.0 * SUM({number}) FILTER (WHERE {found[0]} = '{_sql_text(found[1])}') / "
                f"SUM({number}), 1) AS percent FROM {table.name}")
    texts = [c for c in table.columns if c.sql_type == "VARCHAR"]
    if not texts:
        return ""
    key = min(texts, key=lambda c: len(set(c.values))).name
    return (f"SELECT {key}, ROUND(100.0 * SUM({number}) / (SELECT SUM({number}) FROM {table.name}), 1) AS percent "
            f"FROM {table.name} GROUP BY {key} ORDER BY 2 DESC")


def _extreme_row(table: Any, goal: str) -> str:
    """The row with the highest (lowest) value of the number column, among the rows
    whose text column holds the value the goal names ("paper"), when the goal ranks
    rows by a value of their own ("the lowest price for paper") and sums nothing; ""
    otherwise. A held-out task at 5a8dc42 got the sum of paper's prices as the hint,
    and answered Papyra's 4.2 (OfficeMax's 3.85 is the lowest)."""
    m = ROW_EXTREME.search(goal)
    number = number_column(table, goal)
    if m is None or number is None or SUMMED.search(goal):
        return ""
    found = goal_value(table, goal)
    where = f" WHERE {found[0]} = '{_sql_text(found[1])}'" if found else ""
    low = m.group(1).lower() in ("lowest", "cheapest", "least expensive")
    shown = ", ".join(c.name for c in table.columns[:6])
    return f"SELECT {shown} FROM {table.name}{where} ORDER BY {number} {'ASC' if low else 'DESC'} LIMIT 1"


#: a goal that groups by a period: "Which month had the highest sales?", "sales per year", "monthly totals"
_PERIOD_GROUP = re.compile(r"\b(?:which|what|each|every|per|by)\s+(?P<a>month|year)\b|\b(?P<b>month|year)ly\b",
                           re.IGNORECASE)


def _period_sum(table: Any, goal: str) -> str:
    """The number column summed per month (per year) of the table's first date column,
    largest first, when the goal groups by that period; "" otherwise. A held-out task at
    2e1bee7: "Which month had the highest sales?" got the one highest row."""
    m = _PERIOD_GROUP.search(goal)
    dated = next((c.name for c in table.columns if c.sql_type in ("DATE", "TIMESTAMP")), None)
    number = number_column(table, goal)
    if m is None or dated is None or number is None:
        return ""
    period = (m.group("a") or m.group("b")).lower()
    key = f"strftime({dated}, '%Y-%m') AS month" if period == "month" else f"year({dated}) AS year"
    order = "ASC" if _LOWEST.search(goal) else "DESC"
    return f"SELECT {key}, SUM({number}) FROM {table.name} GROUP BY 1 ORDER BY 2 {order}"


#: a goal asking a time span in days between two dates of each row: "the average delivery time in days", "how long
#: did the orders take", "the number of days between order and delivery"
_DURATION = re.compile(r"\b(?:time|duration|how long|days?\s+between|(?:number of|how many) days|lead time|"
                       r"turnaround)\b", re.IGNORECASE)


def _duration_sum(table: Any, goal: str) -> str:
    """``SELECT SUM(date_diff('day', ordered, delivered)) AS days FROM deliveries`` (an
    average's AVG is put in by :func:`_example_query`) when the goal asks a time span
    of the rows in days (:data:`_DURATION`) and ``table`` has exactly two date columns
    (the one whose dates come first in most rows is the start); "" otherwise. A
    development batch at b6900b3 (ZZF): "What is the average delivery time in days in
    deliveries.csv?" ran AVG(delivered) and answered "2026-11-11 12:00:00"."""
    dated = [c for c in table.columns if c.sql_type in ("DATE", "TIMESTAMP")]
    if len(dated) != 2 or not _DURATION.search(goal) or not re.search(r"\bdays?\b|\bhow long\b", goal, re.IGNORECASE):
        return ""
    a, b = dated
    pairs = [(x, y) for x, y in zip(a.values, b.values) if x is not None and y is not None]
    if sum(x <= y for x, y in pairs) * 2 < len(pairs):
        a, b = b, a
    return f"SELECT SUM(date_diff('day', {a.name}, {b.name})) AS days FROM {table.name}"


#: the unit of durations written with a colon that the goal names: "minutes:seconds", "mm:ss", "hours:minutes"
_CLOCK_UNITS = re.compile(r"\b(?P<ms>minutes?\s*:\s*seconds?|mm?\s*:\s*ss|mins?\s*:\s*secs?)\b|"
                          r"\b(?P<hm>hours?\s*:\s*minutes?|hh?\s*:\s*mm|hrs?\s*:\s*mins?)\b", re.IGNORECASE)
_SUM_ASKED = re.compile(r"\b(?:total|sum|altogether|in all|combined|how long)\b", re.IGNORECASE)


def _clock_duration_sum(table: Any, goal: str) -> str:
    """The query of the total of a text column of durations written with a colon
    ("10:43"), in the unit the goal names (:data:`_CLOCK_UNITS`: minutes:seconds gives
    minutes and seconds, hours:minutes hours and minutes), when the goal asks a total;
    "" otherwise. Batch HZ at 4bb2504 (HZF): "How long is the playlist in songs.csv in
    total? The durations are minutes:seconds." ran SUM(duration) over the text three
    times, then added up 39:40 by hand (29:50)."""
    unit = _CLOCK_UNITS.search(goal)
    if unit is None or not _SUM_ASKED.search(goal):
        return ""
    clocks = [c for c in table.columns if c.sql_type == "VARCHAR" and c.values
              and all(v is None or re.fullmatch(r"\s*\d{1,4}:[0-5]\d\s*", str(v)) for v in c.values)
              and any(v is not None for v in c.values)]
    if len(clocks) != 1:
        return ""
    col = _quoted(clocks[0].name)
    big, small = ("minutes", "seconds") if unit.group("ms") else ("hours", "minutes")
    parts = (f"CAST(split_part(trim({col}), ':', 1) AS INTEGER) * 60 + "
             f"CAST(split_part(trim({col}), ':', 2) AS INTEGER)")
    return (f"SELECT total // 60 AS {big}, total % 60 AS {small} FROM (SELECT SUM({parts}) AS total "
            f"FROM {table.name})")


#: a product of two columns the goal names: "quantity times unit price", "qty multiplied by price"
_TIMES = re.compile(r"(?P<a>[A-Za-z][\w ]{0,30}?)\s+(?:times|multiplied\s+by)\s+(?:the\s+)?(?P<b>[A-Za-z][\w ]{0,30})",
                    re.IGNORECASE)


def _product_check_query(table: Any, goal: str) -> str:
    """``SELECT invoice, quantity, unit_price, total, quantity * unit_price AS expected
    FROM invoices WHERE abs(total - quantity * unit_price) > 0.005`` when the goal
    names two number columns multiplied (:data:`_TIMES`) and a third it checks them
    against; "" otherwise. Batch Z at 6696c34 (ZF): "Which invoice in invoices.csv has
    a total that is not quantity times unit price?" got no hint, and asked the user."""
    m = _TIMES.search(goal)
    numbers = sorted((c.name for c in table.columns if is_number(c) and not _ID_COLUMN.search(c.name)),
                     key=lambda n: -len(n))
    if m is None:
        return ""
    left, right = (m.group(k).lower().replace("_", " ").strip() for k in ("a", "b"))
    a = next((n for n in numbers if left.endswith(n.lower().replace("_", " "))), None)
    b = next((n for n in numbers if right.startswith(n.lower().replace("_", " "))), None)
    total = next((n for n in numbers if n not in (a, b) and re.search(
        rf"(?<![\w-]){re.escape(n.replace('_', ' '))}(?![\w-])", goal, re.IGNORECASE)), None)
    label = next((c.name for c in table.columns if c.sql_type == "VARCHAR"), table.columns[0].name)
    if a is None or b is None or total is None or a == b:
        return ""
    return (f"SELECT {label}, {a}, {b}, {total}, {a} * {b} AS expected FROM {table.name} "
            f"WHERE abs({total} - {a} * {b}) > 0.005")


#: a goal asking people's ages: "How old is each person?", "the age of every member", "who is the oldest"
_AGE = re.compile(r"\bhow\s+old\b|\bages?\b|\b(?:old|young)est\b", re.IGNORECASE)


def _age_query(table: Any, goal: str) -> str:
    """``SELECT name, date_sub('year', birthdate, DATE '2026-12-07') AS age FROM people``
    (whole years up to today) when the goal asks ages and ``table`` has a date column
    of births (its name says birth, born or dob; else its only date column) and a text
    column; "" otherwise. A development batch at b6900b3 (ZZD): "How old is each person
    in people.csv today?" got no hint, and asked the user today's date."""
    dated = [c for c in table.columns if c.sql_type in ("DATE", "TIMESTAMP")]
    born = next((c.name for c in dated if re.search(r"birth|born|dob", c.name, re.IGNORECASE)),
                dated[0].name if len(dated) == 1 else None)
    label = next((c.name for c in table.columns if c.sql_type == "VARCHAR"), None)
    if not _AGE.search(goal) or born is None or label is None:
        return ""
    order = " ORDER BY age DESC" if re.search(r"\boldest\b", goal, re.IGNORECASE) else \
        " ORDER BY age ASC" if re.search(r"\byoungest\b", goal, re.IGNORECASE) else ""
    return (f"SELECT {label}, {born}, date_sub('year', {born}, DATE '{_date.today().isoformat()}') AS age "
            f"FROM {table.name}{order}")


def _all_different(table: Any, name: str) -> bool:
    """Every row of ``table`` holds another value in column ``name``: a count of rows
    per value is 1 for each, and ranks nothing."""
    values = next((c.values for c in table.columns if c.name == name), [])
    return len(values) > 1 and len({str(v) for v in values}) == len(values)


#: a goal about the domains of email addresses: "Which email domain appears most often?"
_DOMAIN = re.compile(r"\bdomains?\b", re.IGNORECASE)


def _domain_count(table: Any, goal: str) -> str:
    """``SELECT split_part(email, '@', 2) AS domain, COUNT(*) FROM t GROUP BY domain
    ORDER BY 2 DESC`` when the goal asks about email domains and a text column of
    ``table`` holds email addresses; "" otherwise. A development batch at b6900b3 (ZZB):
    "Which email domain appears most often in contacts.csv?" was offered the count per
    whole address (1 each) and answered work.org (2 of 6; mail.com has 3)."""
    if not _DOMAIN.search(goal):
        return ""
    mail = next((c.name for c in table.columns if c.sql_type == "VARCHAR" and c.values
                 and sum("@" in str(v) for v in c.values) * 2 > len(c.values)), None)
    if mail is None:
        return ""
    order = "ASC" if _LOWEST.search(goal) else "DESC"
    return (f"SELECT split_part({mail}, '@', 2) AS domain, COUNT(*) FROM {table.name} "
            f"GROUP BY domain ORDER BY 2 {order}")


def _distinct_per_group(table: Any, goal: str) -> str:
    """``SELECT supplier, COUNT(DISTINCT part) FROM parts GROUP BY supplier ORDER BY 2 DESC``
    when the goal asks for the group with the most (fewest) different values of a column
    it names (:data:`_DISTINCT_PER`); the group is the text column the goal names, else
    the one with the fewest distinct values; "" otherwise. Batch Y at 54702c9 (YA): "Which
    supplier in parts.csv supplies the most different parts?" was offered the sums of
    the prices per supplier, and a refusal offered "Kraft 2.57." as the answer to copy."""
    m = _DISTINCT_PER.search(goal)
    if m is None:
        return ""
    word = m.group(2).lower().rstrip("s")[:4]
    key = next((c.name for c in table.columns if c.name.lower()[:4] == word), None)
    others = [c for c in table.columns if c.sql_type == "VARCHAR" and c.name != key]
    texts = [c for c in _named_texts(table, goal) if c.name != key] or others
    if key is None or not texts:
        return ""
    group = min(texts, key=lambda c: len(set(c.values))).name
    order = "DESC" if m.group(1).lower() == "most" else "ASC"
    return f"SELECT {group}, COUNT(DISTINCT {key}) FROM {table.name} GROUP BY {group} ORDER BY 2 {order}"


def _example_sum(table: Any, goal: str) -> str:
    """:func:`_example_query`, before an average's AVG."""
    order = sort_order(table, goal)
    if order:  # a held-out task at b7b6dee: "Sort scores.csv by score from highest to lowest and save it as
        # ranked.csv" got the top row's query (LIMIT 1), and ranked.csv held one row of four
        return f"SELECT * FROM {table.name} ORDER BY {order[0]} {order[1]}"
    changed = percent_change(table, goal)
    if changed:  # "Add 10% VAT to every price": each row's new value, not a share of the whole (a held-out task)
        return changed[1]
    summed = sums_to(table, goal)
    if summed:  # "Do the shares in budget.csv add up to 100%?": the one sum (AZH at 018ad5b got shares doubled)
        return summed[-1]
    took = _duration_sum(table, goal) or _clock_duration_sum(table, goal)
    if took:
        return took
    distinct = _DISTINCT_COUNT.search(goal)
    key = next((c.name for c in table.columns if distinct and c.name.lower()[:4] == distinct.group(1).lower()[:4]),
               None)
    if key:  # "How many different customers are in orders.csv?" (a held-out task at a8fdd03 got the sums per
        # customer, and counted their rows right by eye)
        return f"SELECT COUNT(DISTINCT {key}) FROM {table.name}"
    per = _distinct_per_group(table, goal)
    if per:
        return per
    common = nth_common(table, goal)
    if common:  # "the second most common city" (batch EZ at 865c16b, EZH: the first answered)
        return common.sql
    stepped = step_change(table, goal)
    if stepped:  # "Which year grew the most compared to the year before?" (batch GZ at 833d98d, GZC: the highest
        return stepped.sql  # revenue's year answered)
    ranked = mean_ranking(table, goal)
    if ranked:  # "Which customer has the highest average order amount?" (batch EZ at 865c16b, EZA: the top row's
        return ranked.sql  # query offered, SUM per customer run, the top total answered)
    days = weekday_ranking(table, goal)
    if days:  # "On which weekday were the most orders placed?" (AZF at 018ad5b got no example)
        return days[-1]
    spread = range_query(table, goal) or nth_ranked(table, goal) or column_comparison(table, goal)
    if spread:  # "the difference between the highest and the lowest price" (a held-out task at 911f35c), "the
        return spread[-1]  # second-highest score" (one at bad5969 got the top row's query)
    filtered = overdue_query(table, goal) or column_change(table, goal) or _difference_query(table, goal) \
        or _percent_query(table, goal) \
        or _period_sum(table, goal) \
        or _value_count(table, goal) or _extreme_row(table, goal) \
        or _filtered_sum(table, goal) or _month_sum(table, goal) or _bounded_query(table, goal)
    if filtered:
        return filtered
    texts = [c for c in table.columns if c.sql_type == "VARCHAR"]
    named = _named_texts(table, goal)
    # the column the goal names ("the five vendors"), else the likeliest grouping key: xlsx_top_vendors at e03cee3
    # ran the example grouped by category (fewest distinct values) for a ranking of vendors
    text = min(named or texts, key=lambda c: len(set(c.values))).name if texts else None
    number = number_column(table, goal)
    # "the total cost" names the one sum of the cost column (a held-out task at 5a8dc42 got the costs per item), "the
    # average score" the one average (at 2e1bee7 each student's own average was given),
    # unless the goal ranks or splits it ("Which class has the highest total score?", "per item")
    # "the average of the Score column" too (a held-out task at becc1df got the average per student, and 82.5 by hand)
    whole = _WHOLE_TOTAL.search(goal) or (re.search(rf"\b(total|average|mean|median|sum)\s+(?:of\s+(?:the\s+|all\s+)?)?"
                                                    rf"{re.escape(number or '-')}s?\b", goal, re.IGNORECASE)
                                          and not _RANKS_OR_SPLITS.search(goal))
    if number and whole and not asked_count(goal) and not any(
            re.search(rf"\b(per|each|by)\s+{re.escape(c.name)}", goal, re.IGNORECASE) for c in texts):
        # multistep_invoices_memo: "the total amount of all invoices" is one sum, not one per invoice
        return f"SELECT SUM({number}) FROM {table.name}"
    counted = re.search(r"\b(?:most|fewest|least|how many|number of|count of)\s+(?:the\s+)?(\w+s)\b", goal,
                        re.IGNORECASE)
    many = re.search(r"\b(?:how many|number of|count of|count the)\s+(?:the\s+)?(\w+)\b", goal, re.IGNORECASE)
    people = many is not None and _ROWS_COUNTED.fullmatch(many.group(1)) is not None and not any(
        is_number(c) and re.search(rf"\b{re.escape(c.name.replace('_', ' '))}", goal, re.IGNORECASE)
        for c in table.columns)  # batch HZ at 4bb2504 (HZH): "how many people work in each department" got the
    # sums of the salaries per department, and the model ran them
    if text and (people or counted and counted.group(1).lower() in (table.name.lower(), f"{table.name.lower()}s")):
        # "Which customer has the most orders in orders.csv?": rows counted per customer, not an amount summed
        key = min(named or texts, key=lambda c: len(set(c.values))).name
        where = _where_value(table, goal, key)
        return "" if _all_different(table, key) else \
            f"SELECT {key}, COUNT(*) FROM {table.name}{where} GROUP BY {key} ORDER BY 2 DESC"
    if number and _SINGLE.search(goal):  # "the highest single expense": one row, not a group's sum (a held-out task
        # at 02c0aa3 got the sums per payer, and Sara's 744 of two expenses was offered as the answer)
        shown = ", ".join(c.name for c in table.columns[:6])
        low = re.search(r"\b(lowest|smallest|cheapest|least)\b", goal, re.IGNORECASE)
        return f"SELECT {shown} FROM {table.name} ORDER BY {number} {'ASC' if low else 'DESC'} LIMIT 1"
    if number and _ID_COLUMN.search(number):  # each row's id is no amount: batch W at bad9c2a (WO) summed the ids
        number = None  # per status for "the number of tickets per status"
    domain = _domain_count(table, goal)
    if domain:
        return domain
    if text and not number and named:  # "How many customers are there per country?"
        if _all_different(table, text):  # every count 1 ranks nothing (ZZB at b6900b3)
            return ""
        where = _where_value(table, goal, text)
        return f"SELECT {text}, COUNT(*) FROM {table.name}{where} GROUP BY {text} ORDER BY 2 DESC"
    if not text or not number:
        return ""
    asked = asked_count(goal)  # "the five vendors we paid the most": the ranking itself, not every group
    # "Which product sold the fewest units in total?" (XA at 0958b96 got the largest first, answered 5, was doubted)
    order = f"ORDER BY 2 {'DESC' if asked[2] else 'ASC'} LIMIT {asked[0]}" if asked else \
        f"ORDER BY 2 {'ASC' if _LOWEST.search(goal) else 'DESC'}"
    return f"SELECT {text}, SUM({number}) FROM {table.name}{_where_value(table, goal, text)} GROUP BY {text} {order}"


_OFFICE_MAKERS = ("xlsx_write", "csv_write", "docx_create")


def _writes_text(path: str) -> bool:
    """``path`` is a plain-text file (no office or CSV writer makes its kind)."""
    return os.path.splitext(path)[1].lower() not in (*WRITER_OF, ".tsv", ".pdf")


def _as_text(call: CallRecord) -> str:
    """The text an office write ``call`` holds, for write_file: its rows one per line (cells
    joined by " | "), or its blocks' texts, one paragraph each; "" when it holds neither."""
    rows = call.arguments.get("rows")
    if isinstance(rows, list) and rows and all(isinstance(r, list) for r in rows):
        return "\n".join(" | ".join("" if v is None else str(v) for v in r) for r in rows)
    blocks = call.arguments.get("blocks")
    if isinstance(blocks, list):
        return "\n\n".join(str(b.get("text", "")) for b in blocks if isinstance(b, dict) and b.get("text"))
    return ""

