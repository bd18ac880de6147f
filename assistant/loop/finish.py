"""The finish the harness checks: the ``finish(answer)`` call and the checks
an answer must pass before the task is called finished.

A confident wrong "done" is the worst outcome (../shared/DESIGN.md). Watched on
Qwen2.5-Coder-1.5B: a fenced, malformed ``use_tools`` call accepted as the
answer; "No further instructions provided." after a cut-off turn accepted as
the answer; totals invented without reading the file. Each check below is
deterministic and reads only the answer, the goal, the call journal and the
workspace; each returns one line per doubt, for the model first and then, if
the next answer is doubtful too, for the human (a hand-off with reasons).

The checks live by kind: ``evidence.py`` (the :class:`Evidence` and the helpers
the checks share), ``answer_form.py`` (the answer's form, not its content),
``named_files.py`` (the files the goal and the answer name), ``written.py``
(what the task's changes must hold) and ``figures.py`` (the numbers an answer
gives). This module keeps the ``finish`` tool, :func:`finish_problems`, which
runs them all, :func:`gives_up`, :func:`changed_nothing` and the checks of what
an answer says (listings, counts, claims of a change, work no tool can do).
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Sequence

from pydantic import BaseModel, Field

from tools.base import RiskClass, Tool, ToolContext, ToolResult

from ..state.models import CallRecord
from .answer_form import CANNED_REFUSAL, _copied_result, _holds_marker, _outputs_written, _query_ran, _query_shown, \
    _result_rows, _query_shown_not_its_rows, _shape_problem, _shows_code, answer_to_copy, code_tool, echoes_harness, \
    markup_problem, not_an_answer, restates_request, rows_named_to_copy, unwrap_answer, without_tool_asides
from .attribution import ambiguous_name, misattributed_contact
from .evidence import NOT_READING, _CHANGE, _HANDS_BACK, _COMMON, _FENCE_LINE, _HARNESS_TOOLS, _LIST_MARKER, _MUST_CHANGE, _NEGATED, \
    _NOT_CHANGED, _NOT_DONE, _NOT_FOUND, _NOT_TOPIC, _PATH, _WHICH_FILE, _WORD, Evidence, _numbers, _ran, _results, \
    _source_numbers, asks_only_a_question, goal_files, misgrouped_numbers, norm_path, number_problems, result_gist, \
    ungrounded_words
from .free_busy import availability_wrong
from .grounding import (id_aggregated, pairs_against_query, rows_not_queried, written_id_aggregated,
                        written_rows_not_queried, written_without_source_words)
from .units import converted_figures, unit_wrong
from .figures import _line_of_a_seen_number, _many_numbers_for_one, _not_the_extreme, _number_from_another_line, \
    _one_part_of_union, _one_sheet_of_many, average_not_queried, column_total_not_queried, bounded_count_wrong, \
    bounded_total_wrong, \
    comparison_wrong, difference_wrong, groups_left_out, nothing_subtracted, not_the_dated_row, not_the_extreme_row, \
    not_the_top_group, one_group_for_all, one_part_named, percent_not_queried, row_mean_wrong, rows_against_filter, \
    same_value_wrong, groups_against_bound, weekday_wrong, sum_to_wrong, change_wrong, running_total_wrong, \
    months_without_wrong, hours_wrong, all_for_each, empty_count_wrong, repeats_wrong, percent_total_wrong, \
    sign_missing_wrong, mean_ranking_wrong, length_extreme_wrong, nth_common_wrong, step_change_wrong, \
    sum_of_query_totals, subject_not_found, total_unsummed, document_sum_to_copy, document_total_wrong, \
    amount_due_wrong, most_pages_wrong, range_wrong, total_check_wrong, value_counts_wrong, next_yearly_wrong, \
    nth_ranked_wrong, compared_columns_wrong, _DOCUMENT_READS
from .dates_said import date_after, date_after_answer, dates_in, day_count, day_count_answer, not_the_first_date, \
    extreme_date_wrong, \
    unseen_dates, weekday_asked, wrong_weekday
from .extracted import extraction_asked, extraction_wrong
from .file_facts import empty_files, file_extreme
from .shared_lines import shared_lines_wrong
from .changed_rows import changed_rows_wrong
from .hierarchy import reports_wrong
from .free_slot import free_slot_wrong
from .overlaps import overlaps_wrong
from .versions import version_wrong
from .config_lookup import setting_wrong
from .balance import balance_text, balance_wrong
from .list_cells import list_count_text, list_count_wrong
from .sequence_gap import gaps_wrong
from .keyed_update import keyed_update_not_written
from .partial_change import column_partly_changed
from .time_zones import converted_time_text, time_zone_wrong
from .absent import absent_but_read
from .named_files import _searched_too_little, file_problems, text_change, text_count, unread_inputs
from .numbers import normalise_number
from .period import line_to_answer, pages_answer, wrong_page, wrong_period
from .recap import call_to_copy
from .written import _changed_a_copy, _fewer_rows_than_asked, _files_left_to_delete, _files_unmoved, \
    _groups_missing, _left_unsorted, _missing_columns, _missing_sheet, _renamed_against_goal, _rows_lost, \
    _states_no_number, _store_untouched, _heading_missing, _list_on_one_line, _points_not_as_asked, \
    _summary_not_shorter, _text_not_in_column, _typo_left, _wrote_unread_contents, _column_not_added, \
    _recipient_missing, _rows_not_from_source, _headings_not_as_asked, _names_not_of_value, _split_rows_wrong, \
    _names_not_in_bound, \
    _merged_rows_wrong, _sorted_rows_wrong, _cell_left_unchanged, _total_row_missing, _files_list_wrong, asked_count, \
    row_to_add, _NTH_SECTION, nth_section, store_goal, summary_too_long, total_said_wrong, wrong_end_time, \
    wrong_event_day, text_copy_wrong

__all__ = ["FINISH", "FinishParams", "Evidence", "finish_problems", "markup_problem", "goal_files",
           "number_problems", "file_problems", "without_tool_asides", "store_goal", "normalise_number", "FINISH_CHECK_PREFIX", "ungrounded_words",
           "echoes_harness", "asks_only_a_question", "not_an_answer", "unwrap_answer", "gives_up", "summary_too_long",
           "undoable_verb", "NOT_READING", "text_change", "asked_count", "unread_inputs"]

FINISH_CHECK_PREFIX = "Finish check:"


class FinishParams(BaseModel):
    answer: str = Field(description="The final answer for the user, in plain text.")


def _finish(ctx: ToolContext, params: FinishParams) -> ToolResult:
    # The loop intercepts this call (it ends the task after the checks); this
    # body only runs if a caller invokes the tool outside the loop.
    return ToolResult(text=params.answer)


FINISH = Tool(
    name="finish",
    description="End the task with your final answer for the user (call it only when the work is done).",
    params=FinishParams,
    fn=_finish,
    risk=RiskClass.READ,
)


_ASKS_CODE = re.compile(r"\b(code|script|snippet|sql|query|queries|function|program|formula|regex|command)s?\b",
                        re.IGNORECASE)
_WH_QUESTION = re.compile(r"(^|[.!?:]\s+)\W*(who|what|which|where|when|whose|how (much|many|long))\b", re.IGNORECASE)
_HOW_MANY = re.compile(r"\bhow many\b", re.IGNORECASE)
_WHO = re.compile(r"(^|[.!?:]\s+)\W*(who|whose|whom)\b", re.IGNORECASE)
_ASKS_AMOUNT = re.compile(r"\bhow much\b|\b(and|with) (its|their|the) (total|sum|amount|average)s?\b|"
                          # a held-out task at 911f35c: "What is the difference between the highest and the lowest
                          # price ...?" answered "This is the final answer for the user's query."
                          r"^\W*what (is|was|are|were) (the|our|my) (total|sum|average|amount|difference|median|mean|"
                          r"range|percentage)\b", re.IGNORECASE)
_COUNT = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*(?![\w])|\b(no|none|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
                    r"a dozen|single|several|hundreds?|thousands?)\b", re.IGNORECASE)
#: a number that names one of several ("Step 1", "page 1": pdf_page_count at 746bd31, 'the first "--- page 1 ---"
#: marker' and the title, no page count, finished), not a count
_STEP_NUMBER = re.compile(r"\b(step|phase|part|section|page)\s+\d+\b", re.IGNORECASE)
_COUNTED = re.compile(r"\bhow many\s+(?P<noun>[a-z]{3,})", re.IGNORECASE)


def _gives_count(goal: str, answer: str) -> bool:
    """Whether ``answer`` gives a count for the goal's "how many <things>": a number
    (or number word) within a few words of <things> when the answer names them, else
    any number; a list's "1." and a "Step 1" are no count. pdf_page_count at 1c5fa31:
    "**Step 1: ...**", "Step 2", "Step 3" and the title, no page count, finished."""
    text = _STEP_NUMBER.sub(" ", _LIST_MARKER.sub(" ", answer))
    m = _COUNTED.search(goal)
    stem = m.group("noun").lower().rstrip("s")[:5] if m else ""
    near = [t for t in re.finditer(rf"\b{re.escape(stem)}\w*", text, re.IGNORECASE)] if len(stem) >= 3 else []
    # a count is a whole number the goal did not give; an average may have decimals ("3.4 days"). A held-out task
    # at 2d81ae3: "How many orders ... are over 500 euros, and what do they add up to?" answered with the sum alone
    given = set(_numbers(goal))
    whole = not _AVERAGE.search(goal) and not (m and _MEASURE.match(m.group("noun")))  # "how many hours": 37.5

    def counts(span: str) -> bool:
        return any(c.group(1) or (normalise_number(c.group(0)) not in given
                                  and not (whole and re.search(r"[.,]\d{1,2}$|[.,]\d{4,}$", c.group(0))))
                   for c in _COUNT.finditer(span))

    if near:
        return any(counts(text[max(0, t.start() - 40): t.end() + 40]) for t in near)
    return counts(text)


def _count_queried(calls: Sequence[CallRecord]) -> str:
    """Where the newest one-row ``table_query`` result with a COUNT column shows its
    count: "table_query at step 3 gave count_star() = 14"; "" when none did."""
    for c in reversed(calls):
        data = c.data or {}
        if c.name != "table_query" or c.status != "done" or c.error or len(data.get("rows") or []) != 1:
            continue
        for name, value in zip(data.get("columns") or [], data["rows"][0]):
            if re.match(r"count\b|count_star|n$|num", str(name), re.IGNORECASE) and re.fullmatch(r"\d+", str(value)):
                return f"table_query at step {c.step} gave {name} = {value}"
    return ""


#: what "how many" measures rather than counts: a number of them may have decimals
_MEASURE = re.compile(r"(hours?|days?|minutes?|weeks?|months?|years?|km|kilomet\w*|miles?|met(er|re)s?|lit(er|re)s?|"
                      r"kg|kilo\w*|grams?|pounds?|euros?|dollars?|percent|points?|units?)$", re.IGNORECASE)
_AVERAGE = re.compile(r"\b(average|mean|median|typical(ly)?|usually|per)\b", re.IGNORECASE)


_BARE_YES_NO = re.compile(r"^\W*(yes|no|yep|nope|true|false|none|nothing|unknown|n/?a)\W*$", re.IGNORECASE)
_BARE_DONE = re.compile(r"^\W*(done|ok(ay)?|finished|completed?|task (is )?(done|complete(d)?|finished)|all done|"
                        r"success(ful)?)\W*$", re.IGNORECASE)
_FILLER = re.compile(r"^\W*(no (further |more |new )?(instructions?|input|tasks?|information)( (were|was|is|are))?"
                     r"( provided| given)?|how (can|may) i (help|assist)|"
                     # handoff_not_found at 21c8a9e: a failed combine_files, then "No response needed." as the answer
                     # ("No action is required." or "Nothing to do." can be a true answer: a tidy folder)
                     r"no (further |more )?(response|reply|answer)s? (is |are )?(needed|required|necessary)|"
                     r"i('m| am) (ready|waiting)|waiting for (your|further|more)|let me know)\b", re.IGNORECASE)
_HAS_WORD = re.compile(r"[^\W_]{2,}")
_BARE_NUMBER = re.compile(r"\W*[$€£]?\d+(?:[.,]\d+)?%?\W*")


_POINTS_AWAY = re.compile(
    r"\b(shown|listed|given|displayed|see|found|are|is)\s+(in\s+)?(the\s+)?(table|results?|output|list|query)?\s*above\b"
    r"|\b(see|in) the (table|results?|output) (above|below)\b", re.IGNORECASE)




_NONE_LISTED = re.compile(
    r"\b(there (are|were|is) )?no (events?|meetings?|appointments?|entries|matches|results|notes)\b(?! other)|"
    r"\bnothing (is |was )?(scheduled|planned|on (your|the|my) (calendar|schedule)|found)\b|"
    r"\b(calendar|day|schedule) (is|looks) (empty|free|clear)\b|\b(do|does|did) ?n[o']t (have|find|show) any\b",
    re.IGNORECASE)


def _listed(call: CallRecord) -> int:
    """How many items a successful listing or search call returned (0 when none or not one)."""
    data = call.data or {}
    if call.status != "done" or call.error or data.get("repeat_of"):
        return 0
    for key in ("events", "notes", "facts", "paths"):
        if isinstance(data.get(key), list):
            return len(data[key])
    matches = data.get("matches")
    return matches if isinstance(matches, int) and not isinstance(matches, bool) else 0


def _denies_what_was_listed(answer: str, calls: Sequence[CallRecord]) -> str:
    """A doubt when ``answer`` says there is nothing ("No events on 2026-12-07.") and
    every listing or search of this task that ran found something; "" otherwise."""
    if not _NONE_LISTED.search(answer):
        return ""
    ran = [c for c in calls if c.status == "done" and not c.error and not (c.data or {}).get("repeat_of")
           and (c.data or {}).keys() & {"events", "notes", "facts", "paths", "matches"}]
    if not ran or not all(_listed(c) for c in ran):
        return ""
    last = ran[-1]
    first = next((ln.strip() for ln in last.result.splitlines()[1:] if ln.strip()), last.result.strip())[:90]
    return (f"the answer says there is none, but {last.name} at step {last.step} found {_listed(last)} "
            f"(e.g. {first!r}); answer with what it found{_listing_answer(last)}")


def _listing_items(call: CallRecord) -> list[str]:
    """The item lines of a calendar or notes listing's result (a calendar's first line,
    the range it covers, left out)."""
    lines = [ln.strip() for ln in _FENCE_LINE.sub("", call.result or "").splitlines() if ln.strip()]
    if call.name == "note_search" and (call.data or {}).get("partial"):  # the closest lines, the best first
        return [ln for ln in lines if not ln.startswith("(")][:max(1, int((call.data or {}).get("best") or 1))]
    if not call.name.endswith("events"):
        return lines
    # the events only: not the tool's notes after them ("Time zone: the user named none, so ... was ignored.",
    # which calendar_list_day at 412fd36 got in its answer to copy)
    return [ln for ln in lines[1:] if re.match(r"[A-Z][a-z]{2} \d{4}-\d{2}-\d{2}\b", ln)]


def _listing_answer(call: CallRecord, limit: int = 6) -> str:
    """", e.g. the answer to copy: "..."" built from a calendar listing's events (up to
    ``limit``) or a note search's lines (up to 3); "" for other listings or too many. calendar_list_day at 4df8dd6: told
    twice that the day's listing held two events, Qwen 1.5B answered "There are no
    events" both times and the task was handed off."""
    if call.name == "note_search":  # the lines found, without the note's file name (note_search at 0cfab8b)
        lines = [re.sub(r"^[\w.-]+\.md:\s*", "", ln) for ln in _listing_items(call)]
        return ", e.g. " + answer_to_copy("; ".join(lines)) if 0 < len(lines) <= 3 else ""
    if not call.name.startswith("calendar_list"):
        return ""
    items = _listing_items(call)
    if not items or len(items) > limit:
        return ""
    return ", e.g. " + answer_to_copy("You have " + "; ".join(items) + ".")


_EVENT_TITLE = re.compile(r"^[A-Z][a-z]{2} \d{4}-\d{2}-\d{2} \d{2}:\d{2}-(?:[A-Z][a-z]{2} \d{4}-\d{2}-\d{2} )?"
                          r"\d{2}:\d{2}\s+(?P<title>.+?)(?:\s+\(|\s+@|$)")


def _names_left_out(answer: str, calls: Sequence[CallRecord]) -> str:
    """A doubt when the last calendar listing of this task found events and the
    answer leaves out a name in an event's title (a capitalised word after its first:
    "Sam" of "Lunch with Sam"); "" otherwise. calendar_list_day at 09f04f4: "a standup
    at 9:00 AM and a lunch at 12:30 PM, both from Monday to Tuesday" for "Team standup"
    and "Lunch with Sam", and the task finished."""
    last = next((c for c in reversed(calls) if c.name.startswith("calendar_list") and _listed(c)), None)
    if last is None:
        return ""
    said = {w.lower() for w in re.findall(r"[^\W\d_]+", answer)}
    for item in _listing_items(last):
        m = _EVENT_TITLE.match(item)
        words = re.findall(r"[^\W\d_]{2,}", m.group("title")) if m else []
        missing = [w for w in words[1:] if w[:1].isupper() and w.lower() not in said]
        if missing:
            return (f"the answer leaves out {missing[0]!r} of the event {m.group('title')!r} that {last.name} at step "
                    f"{last.step} listed; name each event as the listing does{_listing_answer(last)}")
    return ""


def _misses_what_was_listed(answer: str, calls: Sequence[CallRecord], goal: str) -> str:
    """A doubt when the last calendar listing or note search of this task (a listing of
    note titles when nothing else) found items and
    ``answer`` names no word of any of them, nor a word another read of this task
    found that ``goal`` does not hold ("" otherwise)."""
    ran = [c for c in calls if (_listed(c) or _closest(c)) and ((c.data or {}).keys() & {"events", "notes"}
                                                              or c.name == "note_search")]
    if not ran:
        return ""
    # a search's lines over a listing of names (note_search at 0cfab8b: the plumber's line found at step 1, then
    # note_list at step 3; the doubt named note_list's titles, "e.g. 'books.md: Books to read'")
    # and the listing of a date the goal names over another day's (calendar_list_day at 79c170d: 2026-12-07 asked,
    # 2026-12-08 listed after it, and the doubt named that day's "Gym" and gave nothing to copy)
    dated = [c for c in ran if re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(c.arguments.get("start", ""))[:10])
             and str(c.arguments["start"])[:10] in goal]
    last = (dated or [c for c in ran if c.name not in _NAME_LISTINGS] or ran)[-1]
    items = _listing_items(last)
    # a note's file name is no word of what was found (note_search at 0417c73: "... I could not find the plumber's
    # phone number in the house.md file." passed this check by "house", and the task stalled on a vaguer doubt)
    said = {w.lower() for w in _WORD.findall(answer if _WHICH_FILE.search(goal) else _PATH.sub(" ", answer))}
    words = {w.lower() for ln in items for w in _WORD.findall(ln)} - _COMMON - _META - set(_WORD.findall(goal.lower()))
    if not words or words & said:
        return ""
    # what another read of this task found, named in the answer, is its answer (note_search at 8282b36: the
    # plumber from note_search's line, then note_list; "Jonas Berg ... 0170 555 0199" refused for naming no note)
    # (not a repeat answered from the journal: its note is the harness's words, and "exact" or "answer" in it matched
    # "I'm sorry, but I can't answer that question. I need to know the exact date", calendar_list_day at 9539275)
    found = {w.lower() for c in calls if c is not last and c.status == "done" and not c.error and c.result
             and (c.risk or "read") == "read" and c.name not in ("finish", "ask_human", "update_plan", "use_tools")
             and not (c.data or {}).get("repeat_of")
             for w in _WORD.findall(_FENCE_LINE.sub("", c.result))} - _COMMON - _META - set(_WORD.findall(goal.lower()))
    if found & said:
        return ""
    if _closest(last):  # note_search at 04fe9b0: "I could not find the exact phone number" over the plumber's line
        return (f"the answer names nothing of the closest line{'s' if len(items) > 1 else ''} {last.name} at step "
                f"{last.step} found ({items[0][:90]!r}); if it answers the task, answer with it"
                f"{_listing_answer(last)}")
    return (f"the answer names nothing that {last.name} at step {last.step} found ({_listed(last)}, e.g. "
            f"{items[0][:90]!r}); answer with what it found{_listing_answer(last)}")


def _closest(call: CallRecord) -> int:
    """How many closest lines a ``note_search`` that found no note holding all its words
    returned (0 otherwise)."""
    data = call.data or {}
    if call.name != "note_search" or call.status != "done" or call.error or data.get("repeat_of"):
        return 0
    return int(data.get("partial") or 0)


_CLAIMS_FOUND = re.compile(r"\b(i|we)\s+(have\s+)?(found|located|retrieved|got)\b|\bhere (is|are)\b", re.IGNORECASE)
_META = frozenset("""found find could need complete task details detail other information info file files note notes
document documents folder workspace tool tools result results answer question searched search looked looking
check checked name names phone number numbers address which what where there their this that with from have
does were will would about your also able not any all and but for the you are can has had was its our his her out
how why who yes see use get let may per via""".split())


#: tools whose results list names (files, note titles), not what is in them: note_search at 66187ce, "the
#: plumber's house address" was told by note_list's title "House"
_NAME_LISTINGS = frozenset({"list_dir", "note_list"})


def _tells_what_was_found(answer: str, ev: Evidence) -> bool:
    """True when ``answer`` holds a word or number (3+ characters, not a word of the
    goal or of talk about the work) that a successful tool result of this task holds.
    A file's name is no such word unless the goal asks which file (note_search at
    80595a7: "I found the plumber's name and phone number in the notes. I could not
    find the plumber's name and phone number in the house.md file." finished, "house"
    being in the search result), and neither is a word of a file's name in a result."""
    if not _WHICH_FILE.search(ev.goal):
        answer = _PATH.sub(" ", answer)
    goal = {w.lower() for w in re.findall(r"\w+", ev.goal)}
    words = {w.lower() for w in re.findall(r"[^\W_]{3,}", answer)} - goal - _META - _COMMON
    if not words:
        return False
    # the harness's own tools found nothing (calendar_list_day at 79c170d: "To continue, let's look at the next step
    # in our plan." finished the task by the "plan" of update_plan's "Plan saved"); what the user said to
    # ask_human is theirs to tell
    results = " ".join(c.result.lower() for c in ev.calls if c.status == "done" and not c.error and c.result
                       and not (c.data or {}).get("repeat_of")
                       and (c.name not in _HARNESS_TOOLS or c.name == "ask_human")
                       and (c.name not in _NAME_LISTINGS or _WHICH_FILE.search(ev.goal)))
    if not _WHICH_FILE.search(ev.goal):  # note_search at 483c7db: "house address" was told by the result's house.md
        results = _PATH.sub(" ", results)
    return any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", results) for w in words)


#: an answer that says something is absent or was not done: the values-found check leaves it to the others
_SAYS_NONE = re.compile(r"\b(no|none|nothing|not|never|neither|nor|empty|without|cannot|unable|unknown|sorry)\b"
                        r"|n['’]t\b", re.IGNORECASE)
_DIGIT = re.compile(r"\d")


def _gives_nothing_found(answer: str, ev: Evidence) -> bool:
    """True when a who/what/which/where/when goal was answered, after a tool of this
    task read something, with no digit, no word a successful result holds
    (:func:`_tells_what_was_found`) and no word saying it is absent or not done.
    Numbers are left to the numbers checks; an honest "not found" to the others, and
    which-file goals to named_files.py. Outside a not-found sentence or a canned
    refusal (the other checks' own), a word saying it is absent counts only in an
    answer that names something the goal asks about (a word of its topic): the demo
    model at f5c913a finished "Who is the plumber? It is in notes.md" with "You can not
    find the task's tool results", notes.md holding the plumber."""
    if not _WH_QUESTION.search(ev.goal) or _DIGIT.search(answer):
        return False
    if _SAYS_NONE.search(answer) and (_NOT_FOUND.search(answer) or CANNED_REFUSAL.match(answer)
                                      or not _topic_words(ev.goal) or _topic_words(ev.goal) & _topic_words(answer)):
        return False
    if _WHICH_FILE.search(ev.goal):  # the answer is a file's name: named_files.py checks it
        return False
    looked = any(c.status == "done" and not c.error and c.result and (c.risk or "read") == "read"
                 and c.name not in _HARNESS_TOOLS for c in ev.calls)
    return looked and not _tells_what_was_found(answer, ev)


def _topic_words(text: str) -> set[str]:
    """The content words of ``text`` (4+ letters, lower case, a plural's "s" dropped), common and meta words
    left out."""
    return {w.lower().rstrip("s") for w in _WORD.findall(text)} - _NO_TOPIC_STEMS


_NO_TOPIC_STEMS = frozenset(w.rstrip("s") for w in (*_COMMON, *_NOT_TOPIC, *_META))


_SECOND_ASK = re.compile(r"(?:,\s*|\s)and\s+(what|who|which|where|when)(?:'s|\s+(?:is|are|was|were))\s+(?:the\s+|its\s+|their\s+|his\s+|her\s+)?"
                         r"([a-z]{3,})\b([^?.]*)", re.IGNORECASE)


#: a second question asking for a figure: "..., and what do they add up to?", "and how much do they cost?"
_SECOND_FIGURE = re.compile(r"(?:,\s*|\s)and\s+(what\s+do(?:es)?\s+(?:they|it|these|those)\s+(?:add up to|come to|"
                            r"total|sum to|cost)|how much\b[^?.]*)", re.IGNORECASE)
#: a row's id ("A-12", "INV-203", "#4"): its digits are no figure
_ROW_ID = re.compile(r"(?:\b[A-Za-z]{1,6}[-_]?|#)\d+\b")


def _unanswered_figure(goal: str, answer: str) -> str:
    """The second question of a goal that asks for a figure after something else
    ("Which invoices ... are unpaid, and what do they add up to?") when the answer,
    row ids left out, holds no number the goal does not; "" otherwise."""
    m = _SECOND_FIGURE.search(goal)
    if not m:
        return ""
    given = set(_numbers(goal))
    if any(n not in given for n in _numbers(_ROW_ID.sub(" ", answer))):
        return ""
    return m.group(1).strip()[:80]


def _one_value_queried(calls: Sequence[CallRecord]) -> str:
    """" (table_query at step N gave V)" for the newest one-value query of the task, else ""."""
    for c in reversed(calls):
        if c.name == "table_query" and c.status == "done" and not c.error:
            rows = _result_rows(c.result or "")
            if len(rows) == 1 and len(rows[0]) == 1 and _numbers(rows[0][0]):
                return f" (table_query at step {c.step} gave {rows[0][0]})"
    return ""


def _unanswered_part(goal: str, answer: str, results: Sequence[str] = ()) -> str:
    """The second question of a goal that asks two ("How many pages does it have, and
    what is the title on its first page?") when the answer names neither its thing
    ("title") nor anything quoted, and holds no line of ``results`` (the task's tool
    results) of three words or more and no number (a title, a name); "" otherwise."""
    m = _SECOND_ASK.search(goal)
    if not m:
        return ""
    # pdf_page_count at 6b49cef: "6 pages; first page: Solar Lamp X2 User Guide" was doubted for no word "title"
    low = answer.lower()
    if any(len(ln.split()) >= 3 and not re.search(r"\b\d", ln) and ln.lower() in low and ln.lower() not in goal.lower()
           for r in results for ln in (line.strip(" .:-") for line in r.splitlines())):
        return ""
    thing = m.group(2).lower()
    stem = thing[:-1] if thing.endswith("s") and len(thing) > 3 else thing
    # a quoted file name, or words of the goal, answer nothing (pdf_page_count at db466c8: 'The PDF "manual.pdf"
    # has 6 pages, ...' passed for its quotes, the title never given)
    quoted = [q.group(0).strip("\"'“”‘’ ") for q in _QUOTED.finditer(answer)]
    if re.search(rf"\b{re.escape(stem)}", answer, re.IGNORECASE) or any(
            q and not _PATH.fullmatch(q) and q.lower() not in goal.lower() for q in quoted):
        return ""
    return goal[m.start(1):m.end()].strip()[:80]


#: a question asking when: "..., and by when?", "When does the lease end?", "on what date ...?"
_ASKS_WHEN = re.compile(r"(?:^|[,;]\s*|\band\s+)(?:by\s+|until\s+|from\s+)?when\b|\b(?:on\s+)?(?:what|which)\s+"
                        r"(?:date|day)\b", re.IGNORECASE)
#: what says when: a month or weekday named, a clock time, a year, or a day word
_SAYS_WHEN = re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|\b(?:mon|tues|wednes|thurs|fri|"
                        r"satur|sun)day\b|\b(?:today|tomorrow|yesterday|tonight|week|month|year)\b|\b\d{1,2}[:.]\d{2}\b"
                        r"|\b\d{1,2}\s*[ap]\.?m\b|\b(?:19|20)\d{2}\b|\b\d{1,2}[/.-]\d{1,2}\b", re.IGNORECASE)


_WHEN_UNSAID = re.compile(r"\b(?:does|did|do|is|was)\s*(?:n[o']t|not)\s+(?:say|state|give|mention|show|list|specif\w*|"
                          r"stated|given|mentioned|shown|listed)\b|\bno\s+(?:date|day|deadline|time)\b", re.IGNORECASE)


def _unanswered_when(goal: str, answer: str, results: Sequence[str]) -> str:
    """The doubt when the goal asks when (or by when, on what date) and the answer names
    no date, day or time and does not say it was not found ("" otherwise), with the dates
    the task's results hold. A held-out task at 11a1600: "How much do I have to pay for
    invoice.pdf, and by when?" was answered "228.00"."""
    if not _ASKS_WHEN.search(goal) or _SAYS_WHEN.search(answer) or _NOT_FOUND.search(answer) \
            or _NOT_DONE.search(answer) or _WHEN_UNSAID.search(answer) or weekday_asked(goal) is not None:
        return ""
    given = list(dict.fromkeys(d.text for r in results for d in dates_in(r)))
    return ("the task asks when, and the answer gives no date; give the date the tools showed"
            + (f" (the results hold {', '.join(given[:4])})" if given else ", or say plainly that none was found"))


def _extraction_written_wrong(ev: Evidence) -> str:
    """The doubt when the goal asks for all the email addresses (or links) of files in a
    new text file (:func:`extraction_asked`) and the file this task wrote holds others,
    misses some, or crowds them with other words ("" otherwise)."""
    found = extraction_asked(ev.goal, ev.calls)
    if found is None:
        return ""
    try:
        text = (Path(ev.workspace) / found.output).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""  # not written: the output checks say so
    return extraction_wrong(found, text)


def _cut_search(answer: str, calls: Sequence[CallRecord]) -> str:
    """A doubt when ``answer`` says something was not found but a listing or
    search of this task showed only part of what matched (find_files with
    ``max_results=1`` showed 1 of 10 files, and the model answered "not present")."""
    if not _NOT_FOUND.search(answer):
        return ""
    # what it found, with "I could not find any other information" beside it (note_search at b91ec04: the plumber's
    # name and number answered, then refused for that aside, and the task ran out of steps)
    found = {n for n in _numbers(answer) if "." in n or len(n) >= 3} & set(
        n for c in calls if c.status == "done" and not c.error for n in _numbers(c.result or ""))
    if found:
        return ""
    for c in calls:
        data = c.data or {}
        if c.status == "done" and not c.error and (data.get("omitted") or data.get("capped")):
            shown = f"{c.name} at step {c.step} showed only part of what matched"
            return (f"the answer says it was not found, but {shown}; look at the rest (a narrower pattern, "
                    "grep for a word of the question) before saying it is not there")
    return ""


_CHANGED = re.compile(r"\b(renamed|moved|created|added|deleted|removed|wrote|written|updated|saved|changed|edited|"
                      r"inserted|appended|sorted|organi[sz]ed|merged|combined|copied|scheduled|booked|converted|"
                      r"replaced|noted|recorded|stored|placed)\b", re.IGNORECASE)
# "noted": multistep_minutes_note at c14e080, "I ... noted them in a note titled 'Action items'." with no note_add
# called, and the exemption of "I could not find any other information ..." let it finish


# who made the change: in the answer to a question, "two events scheduled on Monday" tells what was found
# (calendar_list_day at 42e28a8: the right answer refused as a claim of a change); "I added" or "has been
# added" says the agent made one
_AGENT = re.compile(r"\b(I|I'[a-z]+|we|we'[a-z]+|ha(s|ve) been|successfully|now)\b", re.IGNORECASE)
# or where it went: "Plumber information added to the notes." (note_search at 62f6d46, nothing added, the
# plumber's name and number never said) is a change claimed, not a thing found
_INTO_STORE = re.compile(r"\b(added|saved|written|stored|copied|moved|appended|inserted)\s+(to|into|in)\s+(the|your|my|a)\s+"
                         r"(notes?|memory|calendar|file|folder|document|workbook|sheet|spreadsheet)\b", re.IGNORECASE)


def _claimed_change(answer: str, question: bool = False) -> str | None:
    """The first change the answer says was made ("renamed"), in a sentence
    without a negation ("could not be renamed" is no claim), or None. When the
    task only asks a question, a sentence counts only when it says who made the
    change ("I added", "has been added"), not when it describes what was found."""
    for sentence in re.split(r"(?<=[.!?])\s+|\n+", answer):
        m = _CHANGED.search(sentence)
        if question and m and not _AGENT.search(sentence) and not _INTO_STORE.search(sentence):
            continue
        if m and not _NEGATED.search(sentence) and not re.search(r"\b(nothing|none|neither|nor)\b", sentence, re.I):
            return "written" if m.group(1).lower() == "wrote" else m.group(1).lower()
    return None


_QUOTED = re.compile(r"\"([^\"\n]{2,80})\"|\u201c([^\u201d\n]{2,80})\u201d")


def _unused_quotes(ev: Evidence) -> list[str]:
    """Phrases the goal puts in double quotes that appear neither in the arguments of
    a change this task made nor in a plain-text file it changed ([] when all do)."""
    quoted = [(a or b).strip() for a, b in _QUOTED.findall(ev.goal)]
    if not quoted:
        return []
    used = [json.dumps(c.arguments, ensure_ascii=False) for c in ev.calls
            if c.status == "done" and not c.error and c.risk in ("write", "destructive")]
    root = Path(ev.workspace)
    for rel in dict.fromkeys(ev.touched):
        try:
            path = root / rel
            if path.is_file() and path.stat().st_size <= 1_000_000:
                used.append(path.read_text(encoding="utf-8", errors="ignore"))
        except OSError:
            continue
    text = " ".join(" ".join(u.split()) for u in used).lower().replace('\\"', '"')
    return [q for q in quoted if q and " ".join(q.split()).lower() not in text]


_UNDOABLE = re.compile(r"(?:^|[.,;:]\s+)\W*(?:please\s+)?(send|e-?mail|mail|text|call|phone|print|pay|post|fax|tweet)\b",
                       re.IGNORECASE)


def _in_a_list(goal: str, pos: int) -> bool:
    """Whether the word at ``pos`` of ``goal`` is an item of a list the goal gives: after
    a colon in its sentence, or among three or more comma-separated items ("three items:
    buy milk, call Anna, pay rent"; a held-out task (NB) at a367559 was doubted for
    "call" and handed off with todo.md right)."""
    start = max(goal.rfind(c, 0, pos) for c in ".!?\n")
    end = min((i for i in (goal.find(c, pos) for c in ".!?\n") if i >= 0), default=len(goal))
    before = goal[start + 1:pos]
    if not re.search(r"[,:]", before):  # the sentence's own verb ("Send the budget to: Tom, Ann, Bo.")
        return False
    return ":" in before or goal[start + 1:end].count(",") >= 2


#: a final answer that says the user will be asked: "I will ask the user for help", "I need to ask you which one"
_WILL_ASK = re.compile(r"\bI\s*(?:will|'ll|need\s+to|must|should|would\s+like\s+to|am\s+going\s+to|have\s+to)\s+"
                       r"ask\s+(?:the\s+user|you)\b|\bI\s+need\s+(?:your|the\s+user'?s)\s+help\b", re.IGNORECASE)


def undoable_verb(goal: str, tool_names: Sequence[str]) -> str:
    """The verb a goal starts with that no tool can do ("send" in "Send the budget to
    my manager", when no tool's name says send or mail), or "". Qwen 1.5B answered
    with steps for the user to send it themselves, and the task 'finished'."""
    m = next((m for m in _UNDOABLE.finditer(goal) if not _in_a_list(goal, m.start(1))), None)
    if not m:
        return ""
    verb = m.group(1).lower()
    stem = "mail" if "mail" in verb else verb
    return "" if any(stem in n.lower() for n in tool_names) else verb


#: the past forms of the verbs of ``_UNDOABLE``: what an answer claiming that work says
_UNDOABLE_DONE = re.compile(r"\b(sent|e-?mailed|mailed|texted|called|phoned|printed|paid|posted|faxed|tweeted)\b",
                            re.IGNORECASE)
#: a sentence that says no: "it was not sent", "I couldn't send it"
_SAYS_NO = re.compile(r"\b(not|never|no|cannot|unable)\b|n[\'’]t\b", re.IGNORECASE)


def _undoable_said_done(answer: str, verb: str) -> bool:
    """True when ``answer`` does not say plainly that the work no tool can do
    (``verb``, "send") was not done: it says nothing of the kind, or a sentence
    claims it was done ("... and sent it to my manager") with no negation in that
    sentence; a hedge elsewhere does not make it honest (handoff_send_budget at
    7dcd18e: "... sent it to my manager using the `send_email` function. I did not
    find anything else that could not be found or finished." finished the task,
    nothing sent). "it was not sent" is honest."""
    sentences = re.split(r"(?<=[.!?;:])\s+", answer)
    if any(_UNDOABLE_DONE.search(s) and not _SAYS_NO.search(s) for s in sentences):
        return True
    stem = "mail" if "mail" in verb else verb[:4]
    said_not = any(_SAYS_NO.search(s) and (stem in s.lower() or _UNDOABLE_DONE.search(s)) for s in sentences)
    return not (_NOT_DONE.search(answer) or said_not)


#: "no notes about ...", "no events on ...": a store's not-found answer _NOT_FOUND does not hold
_NONE_IN_STORE = re.compile(r"\b(no|any)\s+(notes?|events?|meetings?|appointments?|entries|information|records?)\b",
                            re.IGNORECASE)
#: a goal that asks about the user's notes or calendar: ``(pattern, lookup tool, store)``; 'with the note "Bring
#: the Q3 numbers"' quotes an event's text, not the notes store (calendar_next_weekday at b82e8fa)
_STORE_LOOKUPS = ((re.compile(r"\b(my|the|our|your)\s+notes?\b(?!\s*[\"\u201c'])|\bnotes?\s+(say|said|have|has)\b",
                              re.IGNORECASE), "note_search", "notes"),
                  (re.compile(r"\b(my|the|our|your)\s+(calendar|schedule|agenda)\b", re.IGNORECASE),
                   "calendar_list_events", "calendar"))


def _store_to_search(ev: Evidence) -> str:
    """The doubt for a not-found answer to a goal about the user's notes or calendar
    when the store's lookup tool (which must exist) never ran in this task, with the
    note_search call to copy for the goal's last topic word; "" otherwise.
    note_search at 412fd36 (pass^3, run 3): "I could not find any notes in the
    specified workspace." as the first turn, no call made, and the task finished;
    at c3438bd: three notes of five grepped for "plumber phone_number", then "I could
    not find the plumber's name and phone number in any of the notes." as the step
    budget's last answer. notes/house.md holds the plumber."""
    for pattern, tool, store in _STORE_LOOKUPS:
        if not pattern.search(ev.goal) or tool not in ev.tool_names:
            continue
        if any(c.name == tool and c.status == "done" and not c.error for c in ev.calls):
            return ""
        words = [w for w in _WORD.findall(ev.goal) if w.isalpha() and w.lower() not in _COMMON
                 and w.lower() not in _NOT_TOPIC and w.lower() not in _META] if tool == "note_search" else []
        how = call_to_copy(tool, {"query": words[-1].lower()}) if words else f"call {tool}"
        looked = any(c.status == "done" and not c.error and c.name not in ("finish", "ask_human", "update_plan",
                                                                           "use_tools") for c in ev.calls)
        return (f"the answer says it is not there, but {f'{tool} never ran' if looked else 'no tool of this task looked'}"
                f" in the {store}; {how}, then answer from what it shows")
    return ""


def _not_looked_for(answer: str, ev: Evidence) -> str:
    """The doubt when the answer says something could not be found, no tool call of
    this task succeeded, and a workspace file's name shares a word with the goal ("" otherwise).
    handoff_send_budget at 42e28a8: "I could not find the budget to send to my manager."
    with no call at all; budget-2027.xlsx was in the workspace."""
    if not (_NOT_FOUND.search(answer) or _NONE_IN_STORE.search(answer)):
        return ""
    store = _store_to_search(ev)
    if store:
        return store
    if not _NOT_FOUND.search(answer) or any(c.status == "done" and not c.error and c.name not in ("finish", "ask_human")
                                            for c in ev.calls):
        return ""
    words = {w.lower() for w in _WORD.findall(ev.goal)} - _COMMON - _NOT_TOPIC
    root = Path(ev.workspace)
    for path in sorted(itertools.islice(root.rglob("*"), 2000)):
        rel = path.relative_to(root).as_posix()
        if path.is_file() and not rel.startswith(".") and "/." not in rel \
                and words & {w.lower() for w in _WORD.findall(path.stem)}:
            return (f"the answer says it could not find it, but this task has not looked yet, and the workspace has "
                    f"{rel}; read it, or search the workspace, before saying it is not there")
    return ""


_ABSENT = re.compile(r"\b(not found|no such|does not exist|doesn't exist|no file|no match)", re.IGNORECASE)


# "I did not find any errors or warnings" says nothing was wrong (calendar_from_invite at b5a954c)
_NO_TROUBLE = re.compile(r"\b(did ?n[o']t|could ?n[o']t|was ?n[o']t|were ?n[o']t) (find|see|encounter|run into|hit|get) "
                         r"(any |a )?(missing |other )?(errors?|warnings?|problems?|issues?|files? or information|"
                         r"information or files?)\b", re.IGNORECASE)


#: an answer of courtesies alone: "Thank you for the information.", "You're welcome! Let me know if ..."
_COURTESY = (r"(?:thanks?(?: you)?(?: (?:so|very) much)?(?: for [^.!?]{0,60})?|you['\u2019]?re (?:very )?welcome|sure|"
             r"ok(?:ay)?|great|glad to help|happy to help|no problem|my pleasure|"
             r"(?:please )?let me know [^.!?]{0,80}|(?:is there )?anything else[^.!?]{0,60}|have a (?:nice|great|good) "
             r"day)")
#: an answer that opens by saying there was nothing: "There are no empty files in ...", "Nothing to delete."
_NONE_FIRST = re.compile(r"^\W*(?:there\s+(?:are|is|were|was)\s+no\b|no\s+\w+(?:\s+\w+)?\s+(?:were|was)\s+found\b|"
                         r"nothing\s+(?:to|was|needed)\b)", re.IGNORECASE)
_COURTESY_ONLY = re.compile(rf"(?:\W*{_COURTESY}\s*[.!?]*)+\W*", re.IGNORECASE)


def changed_nothing(ev: Evidence) -> bool:
    """True when the goal asks for a change and no call of this task changed anything."""
    changed = bool(list(ev.touched)) or any(c.status == "done" and not c.error and c.risk in ("write", "destructive")
                                            for c in ev.calls)
    return not changed and bool(_MUST_CHANGE.search(ev.goal))


#: a change verb of :data:`_MUST_CHANGE` after "and"/"then": "Read minutes.docx and save a note ..."
_AND_CHANGE = re.compile(_MUST_CHANGE.pattern.replace(r"(^|[.,;:]\s+)", r"\b(?:and|then)\s+", 1), re.IGNORECASE)


def gives_up(answer: str, ev: Evidence) -> str:
    """Why an answer that says it could not be done is a hand-off, not a finished
    task ("" when it is not): the task asks for a change and nothing was changed
    (files_organise: "I apologize, but I can't continue the task as instructed."
    after one failed call), or the task's last call failed (xlsx_two_sheet_total at
    0ed7096: "I could not find the requested information." right after a SQL error;
    a call that found nothing, "not found: nope.txt", is a finding, not a failure)."""
    if not _NOT_DONE.search(_NO_TROUBLE.sub(" ", answer)):
        return ""
    if changed_nothing(ev) or (not asks_only_a_question(ev.goal) and _AND_CHANGE.search(ev.goal)
                               and not list(ev.touched)
                               and not any(c.status == "done" and not c.error and c.risk in ("write", "destructive")
                                           for c in ev.calls)):
        # the whole pass at 75e77e3 (multistep_minutes_note): "Read minutes.docx and save a note ..." (the change
        # verb after "and"), "I apologize, but I cannot assist with that request." finished the task
        return "the agent could not do the task and changed nothing"
    last = [c for c in ev.calls if c.name != "finish" and c.final]
    if not last or last[-1].status == "denied" or not (last[-1].error or last[-1].status != "done"):
        return ""
    first = ((last[-1].result or last[-1].status).strip().splitlines() or [last[-1].status])[0][:200]
    if _ABSENT.search(first):  # "not found: nope.txt" is a finding; a SQL error is a method that failed
        return ""
    return f"the agent gave up right after a failed call ({last[-1].name}: {first})"


_SAID_COMPUTED = re.compile(r"\b(?:formulas?|values?|totals?)\b[^.!?\n]{0,40}?\b(?:were|was|have been|has been|are now|"
                            r"is now)\s+(?:\w+ly\s+)?(?:re)?(?:computed|calculated|evaluated)\b", re.IGNORECASE)


def _formulas_said_computed(answer: str, calls: Sequence[CallRecord]) -> str:
    """A doubt when ``answer`` says formulas were computed and a tool of this task
    said their values were not recomputed (no LibreOffice here), with the answer
    to copy those sentences put right; "" otherwise. xlsx_summary_sheet at 21c8a9e:
    "The formulas were computed and saved correctly." after xlsx_add_sheet said
    "formula values were not recomputed"."""
    told = next((c for c in calls if c.status == "done" and "were not recomputed" in (c.result or "")), None)
    if told is None or not _SAID_COMPUTED.search(answer):
        return ""
    kept = [x for x in re.split(r"(?<=[.!?])\s+", answer.strip()) if x and not _SAID_COMPUTED.search(x)]
    fixed = " ".join([*kept, "The formulas are saved; Excel or LibreOffice computes their values when the file "
                      "is opened."])
    return (f"the answer says the formulas were computed, but {told.name} at step {told.step} said their values were "
            f"not recomputed here; say they are computed when the file is opened, e.g. {answer_to_copy(fixed)}")


def _line_to_copy(ev: Evidence) -> str:
    """'; the line ... answers it, e.g. the answer to copy: "..."' for a question
    whose figure is on a line of the task's reads (:func:`period.line_to_answer`)."""
    line = line_to_answer(ev.goal, ev.calls) if asks_only_a_question(ev.goal) else ""
    return f"; the line {line!r} of what this task read answers it, e.g. {answer_to_copy(line)}" if line else ""


def _row_to_copy(ev: Evidence) -> str:
    """'; to add the row it describes, call xlsx_write with {...}' for a goal that asks
    to add a row it describes to the workbook it names (:func:`written.row_to_add`);
    "" otherwise. xlsx_total at ef38a30: the sum queried, how to add the row explained
    instead, told only that nothing was changed, and the task stalled."""
    books = [p for p in goal_files(ev.goal)[1] if p.lower().endswith(".xlsx")]
    args = row_to_add(ev.goal, ev.workspace, books[0]) if books and "xlsx_write" in ev.tool_names else None
    return f"; to add the row it describes, {call_to_copy('xlsx_write', args)}" if args else ""


def _relative_paths(answer: str, workspace: str | Path) -> str:
    """``answer`` with the workspace's absolute path left out of the paths it gives
    ("/tmp/x/workspace/archive/a.txt" is archive/a.txt), for the checks. files_find at
    09f04f4: the right file named by its absolute path, refused twice as naming no
    file, and the task stalled."""
    roots = {str(workspace).rstrip("/"), str(Path(workspace).resolve()).rstrip("/")} - {"", "."}
    for root in sorted(roots, key=len, reverse=True):
        answer = answer.replace(root + "/", "")
    # the workspace folder's own name left out ("/tmp/x/archive/a.txt" for /tmp/x/workspace/archive/a.txt), as calls'
    # paths are taken (files_find at fb3135d: the right file so named, refused three times as naming none)
    parents = {str(Path(r).parent).rstrip("/") for r in roots} - {"", "."}
    for parent in sorted(parents, key=len, reverse=True):
        answer = re.sub(rf"{re.escape(parent)}/([^\s`'\"]+)", lambda m: m.group(1) if (
            Path(workspace) / m.group(1).rstrip(".,;:)")).exists() else m.group(0), answer)
    return answer


def _without_dates(text: str) -> str:
    """``text`` with each date it writes blanked out (its numbers are no figures)."""
    for said in dates_in(text):
        text = text.replace(said.text, " ")
    return text


#: an answer saying the task changed nothing (not "no changes were made to X": a part left alone)
#: a step of a plan that calls a tool: "1. Call the `pdf_info` function with ...", "- Use the read_file tool to ..."
_PLAN_STEP = re.compile(r"^\s*(?:\d{1,2}[.)]|[-*])\s*(?:call|use|run|invoke)\s+(?:the\s+)?[`'\"]?(?P<tool>\w+)[`'\"]?"
                        r"(?:\s+(?:function|tool|method|command))?\b", re.IGNORECASE | re.MULTILINE)
_NOTHING_CHANGED = re.compile(r"\b(?:no changes? (?:was|were|has been|have been) (?:made|needed)|nothing "
                              r"(?:was|has been) changed|(?:i|we) (?:did not|didn't) (?:change|modify) anything|"
                              # UM at aa133bf: guests.txt capitalised at step 2, then "I did nothing, as the file was
                              # already in the correct format. I could not finish the task."
                              r"(?:i|we) did nothing|(?:i|we) could(?: not|n't) finish the task|"
                              # OB at ec5790c: "I could not finish the task because the file was not modified."
                              r"(?<!rest of )(?<!other )the (?:file|document|workbook|sheet|calendar) (?:was|has) not "
                              r"(?:been )?(?:modified|changed|updated|edited))\b"
                              r"(?!\s+(?:to|in|on)\b)", re.IGNORECASE)


def finish_problems(answer: str, ev: Evidence) -> list[str]:
    """Every doubt about ``answer`` as a final answer, one line each ([] when
    it may end the task). A call-like answer is reported alone (the rest does
    not apply to a call)."""
    if not answer.strip():
        return ["the answer is empty"]
    answer = _relative_paths(answer, ev.workspace)
    if not _HAS_WORD.search(re.sub(r"<\|[A-Za-z_]{2,30}\|>", "", answer)) and not _BARE_NUMBER.fullmatch(answer):
        # a bare number is an answer (VN at 5dcca13: {"answer": "3"} to "How many members ... have no email
        # address?", right, refused as wordless twice, and the task ran out of steps); the number checks see it
        # "{}" ended a task as its answer (Qwen 1.5B); "<|im_start|>", a chat-template token, did too (note_search)
        return ["the answer has no words; write the answer in plain sentences"]
    bare = re.fullmatch(r"\W*([\w-]+)\W*", answer)
    if bare and bare.group(1).lower() in {*(n.lower() for n in ev.tool_names), "finish"}:
        # the demo model (SmolLM2-135M) at 2056215: finish with answer "finish" for "Who is the plumber?"
        return [f"the answer is only the name of a tool ({bare.group(1)!r}); answer with what the tools showed"]
    markup = markup_problem(answer, ev.tool_names, _ran(ev.calls))
    if markup:
        return [markup]
    marker = _holds_marker(answer, ev)
    if marker:
        return [marker]
    if echoes_harness(answer, ev.harness_texts, data_texts=_results(ev.calls)):
        # calendar_list_day at f80ed26: "The calendar list events call was already run at step 1; its result was:
        # 2 events ..." (the "Not run again" note, listing and all) refused, then the refusal itself as the answer:
        # a listing the task ran gives the answer to copy
        listed = next((a for c in reversed(ev.calls) if c.status == "done" and not c.error
                       and not (c.data or {}).get("repeat_of") and (a := _listing_answer(c))), "")
        if listed:
            return ["the answer repeats the harness's note, not a result of the task; answer with what the tools "
                    f"found{listed}"]
        if asks_only_a_question(ev.goal) and any(len(ln.strip()) >= 12 and ln.strip() in answer
                                                 for r in _results(ev.calls) for ln in r.splitlines()):
            # pdf_page_count at ef38a30: the "read for you" note and the results sent as the answer, told to "do the
            # work with tools", read again, the same sent, stalled
            paged = pages_answer(ev.goal, ev.calls)
            return ["the answer repeats the harness's note and the tool results as they were shown; the tools "
                    "already read what the task needs: answer it in a sentence or two of your own, with only the "
                    "values it asks for" + (f", e.g. {answer_to_copy(paged)}" if paged else "")]
        return ["the answer repeats the instructions the harness gave, not a result of the task; do the work "
                "with tools, or say plainly what you could not do"]
    shape = _shape_problem(answer, ev)
    if shape:
        # files_find at 0417c73: "I could not find it." after a name search for *.pdf, twice; told only to say what
        # it looked for, the model never heard that no file's text was searched
        vague = shape.startswith('the answer says "it" was not found')
        little = _searched_too_little(ev) if vague and _WHICH_FILE.search(ev.goal) else ""
        return [shape, little] if little else [shape]
    if _shows_code(answer) and not _ASKS_CODE.search(ev.goal) and not _query_ran(answer, ev.calls):
        # xlsx_lookup: "you can use a SQL query:"; a query this task ran, shown in its report, is no such code
        sql = _query_shown(answer) if "table_query" in ev.tool_names else ""
        if sql:  # xlsx_two_sheet_total at f000187: the right query shown, never run, then a sum made up
            return ["the answer shows code for the user to run instead of its result; run the query: "
                    f"{call_to_copy('table_query', {'sql': sql})}, then answer with what it returns"]
        tool = code_tool(answer, ev.tool_names)
        if tool:
            return [f"the answer shows code for the user to run instead of doing the work; do it with {tool}, "
                    "then answer with what it did"]
        return ["the answer shows code for the user to run instead of the result; run it with a tool (SQL with "
                "table_query) and answer with what it returns"]
    planned = next((m.group("tool") for m in _PLAN_STEP.finditer(answer) if m.group("tool") in ev.tool_names), "") \
        if asks_only_a_question(ev.goal) else ""  # a change's how-to gets the doubts of what is left, below
    if planned:  # pdf_find_figure at 8806739: "To find the total revenue figure ... 1. Call the `pdf_info` function
        # with the path ... 2. Extract the total revenue from the output." finished the task, no figure given
        return [f"the answer is a plan of tool calls ({planned}), not a result; the tools this task ran already "
                "gave what they found: answer with it in plain sentences, or make the next call"]
    shown = _query_shown_not_its_rows(answer, ev)
    if shown:
        return [shown]
    copied = _copied_result(answer, ev.calls, ev.goal)
    if copied:
        return [f"the answer copies the whole result of {copied} instead of answering; answer what the task asks "
                "in your own sentence, or call the next tool"]
    if _FILLER.search(answer) and len(answer) < 200:
        return ["the answer says nothing about the task; do the work with tools, or say plainly what you could not do"]
    if asks_only_a_question(ev.goal) and _BARE_DONE.match(answer):  # calendar_list_day: "Done" after the listing
        return ["the task asks a question and the answer only says it is done; answer the question itself with "
                "what the tools showed"]
    if _WH_QUESTION.search(ev.goal) and _BARE_YES_NO.match(answer):  # the demo model: "no" to "Who is the plumber?"
        return ["the task asks who, what, which, where, when or how much, and the answer is only a yes or no; "
                "answer with what the tools showed"]
    if _WHO.search(ev.goal) and not re.search(r"[^\W\d_]{2,}", answer):  # the demo model at f09c68d: "117", "117 B"
        return ["the task asks who, and the answer is only a number; answer with the name the tools showed"]
    out = file_problems(answer, ev)
    unlooked = _not_looked_for(answer, ev)
    if unlooked:
        out.append(unlooked)
    question = asks_only_a_question(ev.goal)
    if question:
        # calendar_list_day at 462ec82: "No events on 2026-12-07." under a listing of two; at 237b37e: "The calendar
        # shows events on 2026-12-07. I could not find the calendar on my computer." under the same listing
        listed = _denies_what_was_listed(answer, ev.calls) or _misses_what_was_listed(answer, ev.calls, ev.goal) \
            or _names_left_out(answer, ev.calls)
        if listed:
            out.append(listed)
        elif _CLAIMS_FOUND.search(answer) and not _tells_what_was_found(answer, ev):
            # note_search at 462ec82: "I found the plumber's name and phone number in the notes." and no name
            # with the search's lines to copy (note_search at 79c170d: "I found the plumber's name and phone
            # number in the notes, but ..." twice, and the task was handed off)
            lines = next((a for c in reversed(ev.calls) if c.status == "done" and not c.error
                          and not (c.data or {}).get("repeat_of") and (a := _listing_answer(c))), "")
            out.append("the answer says it found it but does not say what it is; give the values the tools showed "
                       f"(names, numbers, dates) in the answer{lines}")
        elif _gives_nothing_found(answer, ev):
            # the general form of the note_search wrong "done"s (483c7db, 66187ce): an answer to a wh-question that
            # states no value the task's tools found and does not say that it was not found
            out.append("the answer gives nothing this task's tools found (no name, number, date or words from a "
                       "result); answer with what they showed, or say plainly that it was not found")
        elif CANNED_REFUSAL.match(answer) and any(c.status == "done" and not c.error and (c.risk or "read") == "read"
                                                  and c.name not in _HARNESS_TOOLS for c in ev.calls):
            # calendar_list_day at 9539275: the day's two events listed, then "I'm sorry, but I can't answer that
            # question. I need to know the exact date ..." finished the task
            out.append("the answer refuses the question, and this task's tools found what bears on it; answer it "
                       "with what they showed")
        unanswered = _unanswered_part(ev.goal, answer, _results(ev.calls))
        if unanswered:  # pdf_page_count at 462ec82: the page count, and no word of the title asked for too
            out.append(f"the task also asks {unanswered!r}, and the answer does not say it; answer every part")
        when = _unanswered_when(ev.goal, answer, _results(ev.calls))
        if when:
            out.append(when)
        figure = _unanswered_figure(ev.goal, answer)
        if figure:  # a held-out task at 8d09a0b: the unpaid invoices listed right, what they add up to left out
            out.append(f"the task also asks {figure!r}, and the answer gives no figure; give it as a tool gave it"
                       + _one_value_queried(ev.calls))
    # pdf_page_count at e03cee3: the title, no count; at b5a954c the "1." "2." "3." of a list of steps counted as one
    # ... unless the goal writes the counts to a file the task wrote (HZH at 077ece7: "Write how many people work
    # in each department ... to headcount.csv", the file right, the task handed off)
    if _HOW_MANY.search(ev.goal) and not _gives_count(ev.goal, answer) and not _outputs_written(ev):
        counted = _count_queried(ev.calls)
        out.append("the task asks how many, and the answer gives no number; say how many the tools showed"
                   + (f" ({counted})" if counted else ""))
    elif question and (amount := _ASKS_AMOUNT.search(ev.goal)) \
            and not _numbers(_STEP_NUMBER.sub(" ", _LIST_MARKER.sub(" ", answer))) \
            and not _NOT_DONE.search(answer) and not _NOT_FOUND.search(answer):  # "I could not find the rent" is honest
        # xlsx_lookup at 237b37e: "Answer with the category name and its total." answered "Food"; xlsx_two_sheet_total
        # at 483c7db: "Let's break down the task ... ### Step 1: Read Expenses Data ...", its "1" no amount
        out.append(f"the task asks for {amount.group(0).lower()}, and the answer gives no number; give the number "
                   "the tools showed")
    computed = _formulas_said_computed(answer, ev.calls)
    if computed:
        out.append(computed)
    results = [c.result for c in ev.calls if c.status == "done" and not c.error and c.name != "finish"]
    cut = _cut_search(answer, ev.calls)
    if cut:
        out.append(cut)
    elif absent := absent_but_read(ev.goal, answer, ev.calls):
        # pdf_number_lookup at c3d2461: "... cannot be determined" after pdf_read showed "... this year: 3.4 days."
        out.append(absent)
    if _POINTS_AWAY.search(answer):
        out.append("the answer points to results the user cannot see ('shown above'); write the result itself "
                   "in the answer")
    changed = bool(ev.touched) or any(c.status == "done" and not c.error and c.risk in ("write", "destructive")
                                      for c in ev.calls)
    # a repeat answered from the journal ("Not run again: ...") changed nothing: XC at 8c781c1 was offered that note
    # as its answer to copy, copied it, and was handed off for repeating the harness's words
    did = next((c for c in reversed(ev.calls) if c.status == "done" and not c.error and not (c.data or {}).get(
        "repeat_of") and c.risk in ("write", "destructive") and c.name not in _HARNESS_TOOLS), None)
    if did is not None and _NONE_FIRST.match(answer) and _MUST_CHANGE.search(ev.goal):
        # a held-out task at a4237b0: the two empty files deleted, then "There are no empty files in the drafts
        # folder." (told by a refusal that none was left) finished it
        said = result_gist(did.result or "")
        out.append(f"the answer says there was nothing to do, but {did.name} at step {did.step} did it; say what "
                   "was done" + (f", e.g. {answer_to_copy(f'Done: {said}.')}" if said else ""))
    if did is not None and _NOTHING_CHANGED.search(answer):
        # a held-out task at c918bce: Cy's row removed at step 1, then "The file 'staff.csv' already holds the text
        # ... No changes were made. The task is done."
        said = result_gist(did.result or "")
        out.append(f"the answer says nothing was changed, but {did.name} at step {did.step} changed it; say what "
                   "was done" + (f", e.g. {answer_to_copy(f'Done: {said}.')}" if said else ""))
    if did is not None and _COURTESY_ONLY.fullmatch(answer.strip()):
        # a held-out task at 2e1bee7: three photos renamed, then "Thank you for the information." finished it
        said = result_gist(did.result or "")
        out.append(f"the answer does not say what was done; {did.name} at step {did.step} did it: say in plain "
                   "sentences what it did" + (f", e.g. {answer_to_copy(f'Done: {said}.')}" if said else ""))
    if did is not None and CANNED_REFUSAL.match(answer):
        # docx_append_paragraph at 0417c73: the paragraph added, then "I'm sorry, but I can't assist with that."
        # finished the task: the user would read that nothing was done
        said = ((did.result or "").strip().splitlines() or [""])[0][:100]
        # (not "did it": XJ at 0958b96 was told so of an edit that emptied a header cell, and finished on a copy)
        out.append(f"the answer refuses the task, but {did.name} at step {did.step} made a change ({said}); say in "
                   "plain sentences what was done, and if the task is not done yet, do the rest")
    claim = None if changed or any("did not write" in p for p in out) else _claimed_change(answer, question)
    if claim:  # "I renamed them to holiday-0042.jpg" after every call had failed (Qwen 1.5B)
        out.append(f"the answer says something was {claim}, but no tool call of this task changed anything; do it "
                   "with a tool, or say plainly that it was not done and why")
    elif _MUST_CHANGE.search(ev.goal) and not _NOT_DONE.search(answer) and not changed:
        out.append("the task asks for a change, but no tool call of this task changed anything; do it with a tool, "
                   "say plainly why it cannot be done, or call ask_human if you need the user" + _row_to_copy(ev))
    unmoved = ((_files_unmoved(ev) or _left_unsorted(ev)) if changed else "") or _files_left_to_delete(ev)
    if unmoved:  # files_rename_pattern at c92ae49: a note added, no photo renamed, "I could not find any other files"
        out.append(unmoved)
    store = _store_untouched(ev) if _CHANGE.search(ev.goal) and not _NOT_CHANGED.search(answer) else ""
    if store:  # calendar_from_invite at 6b05252: invite.txt edited, the calendar never touched
        out.append(store)
    reads = {str(c.arguments.get("path")): c.result or "" for c in ev.calls if c.status == "done" and not c.error
             and c.arguments.get("path") and (c.risk or "read") == "read"}
    counted = day_count(ev.goal, reads.items())
    if counted and not {str(counted[0]), str(counted[0] + 1)} & set(_numbers(_without_dates(answer))):
        # project.md (a held-out task) at a43d469: "2 days" (a line number) from 2027-01-11 to 2027-03-26
        copy = answer_to_copy(day_count_answer(ev.goal, reads.items()))
        out.append(f"the task asks how many days, and the answer does not give the count; {counted[1]} is "
                   f"{counted[0]} days (the harness counted them; {counted[0] + 1} counting both the first and the "
                   f"last day): answer with that count, e.g. {copy}")
    later = date_after(ev.goal, reads.items()) if asks_only_a_question(ev.goal) else None
    if later and not any((d.month, d.day) == (later[0].month, later[0].day) and d.year in (None, later[0].year)
                         for d in dates_in(answer)):
        # a held-out task (RB) at 624b529: the invoice's own date answered for "30 days after the invoice date"
        out.append(f"the task asks for the date {later[1]}; the files read give {later[2]}, and {later[1].split()[0]} "
                   f"{later[1].split()[1]} after it is {later[0].day} {later[0]:%B %Y} (the harness counted), and the "
                   f"answer does not give that date: {answer_to_copy(date_after_answer(ev.goal, reads.items()))}")
    nth = nth_section(ev.goal, ev.workspace) if asks_only_a_question(ev.goal) else None
    if nth and nth[1].lower() not in answer.lower():
        # a held-out task (MH) at a367559: "Getting started" (the first section) for "the second section"
        which = _NTH_SECTION.search(ev.goal).group("nth").lower()
        listed = "; ".join(f"{i}. {t}" for i, t in enumerate(nth[2], 1))
        out.append(f"the task asks about the {which} section of {nth[0]}, and the answer does not name it; its "
                   f"sections in order (the harness read them): {listed}. The {which} is {nth[1]!r}, e.g. "
                   f"{answer_to_copy(f'The {which} section of {nth[0]} is {nth[1]!r}.')}")
    extreme = file_extreme(ev.goal, ev.workspace)
    if extreme and not re.search(rf"(?<![\w.-]){re.escape(Path(extreme.path).name)}(?![\w-])", answer, re.IGNORECASE):
        # a held-out task (SA) at 5910adb: "Which file in this folder is the largest?" answered that it could not tell
        out.append(f"the task asks which file is the {extreme.what}, and the answer does not name it; the harness "
                   f"compared the files: it is {extreme.path} ({extreme.said}), "
                   f"{answer_to_copy(f'{extreme.path} is the {extreme.what} file ({extreme.said}).')}")
    empty = empty_files(ev.goal, ev.workspace)
    if empty and (not all(re.search(rf"(?<![\w.-]){re.escape(Path(p).name)}(?![\w-])", answer, re.IGNORECASE)
                          for p in empty.paths) or (empty.paths and re.search(r"\bno\s+(?:files?|documents?)\b",
                                                                              answer, re.IGNORECASE))):
        # a held-out task at 911f35c: "Which files in this folder are empty?" answered "No files ... are empty."
        out.append(f"the task asks which files are empty, and the answer does not say it; the harness looked at "
                   f"their sizes: {answer_to_copy(empty.answer)}")
    shared = shared_lines_wrong(ev.goal, answer, ev.workspace)
    if shared:  # batch HZ at 4bb2504 (HZD): "Cleo" for the names in both team_a.txt and team_b.txt (Anna and Cleo)
        out.append(shared)
    differing = changed_rows_wrong(ev.goal, answer, ev.workspace)
    if differing:  # batch HZ at 4bb2504 (HZB): "The prices in both files are the same." (Bread and Milk changed)
        out.append(differing)
    under = reports_wrong(ev.goal, answer, ev.workspace)
    if under:  # batch JZ at 02d32bb (JZG): "2 people ... work under Maria, directly or indirectly" (5 do)
        out.append(under)
    slot = free_slot_wrong(ev.goal, answer, ev.workspace)
    if slot:  # batch JZ at 02d32bb (JZI): "from 10:30 to 12:45" for the first free hour (14:00, a call at 11:00)
        out.append(slot)
    clash = overlaps_wrong(ev.goal, answer, ev.workspace)
    if clash:  # batch IZ at 2081e47 (IZE): which meetings of schedule.csv overlap, the user asked for the times
        out.append(clash)
    release = version_wrong(ev.goal, answer, ev.workspace)
    if release:  # batch IZ at 2081e47 (IZG): the newest version of versions.txt looked for on the web
        out.append(release)
    setting = setting_wrong(ev.goal, answer, ev.workspace)
    if setting:  # batch KZ at 6a1c8bc (KZA): 8081, the port of [web.staging], for the staging database's 6543
        out.append(setting)
    balance = balance_wrong(ev.goal, answer, ev.workspace)
    if balance:  # batch KZ at 6a1c8bc (KZB): every amount added, debits too, for the balance at the end of November
        out.append(balance)
    listed = list_count_wrong(ev.goal, answer, ev.workspace)
    if listed:  # batch KZ at 6a1c8bc (KZC): the recipe taking the most minutes for the one with the most ingredients
        out.append(listed)
    gap = gaps_wrong(ev.goal, answer, ev.workspace)
    if gap:  # batch KZ at 6a1c8bc (KZD): R-109 (there) for the missing R-107 of
        out.append(gap)
    zoned = time_zone_wrong(ev.goal, answer, ev.extra_texts)
    if zoned:  # batch IZ at 2081e47 (IZC): "14:00" for a 10:00 New York call in Berlin (16:00)
        out.append(zoned)
    keyed = keyed_update_not_written(ev)
    if keyed:  # batch JZ at 02d32bb (JZD): prices.csv "updated from price_changes.csv" left as it was
        out.append(keyed)
    partly = column_partly_changed(ev)
    if partly:  # batch KZ at 6a1c8bc (KZG): one of six German amounts rewritten, "already plain numbers", done
        out.append(partly)
    tally = text_count(ev.goal, ev.workspace)
    if tally and str(tally.count) not in _numbers(answer):
        # a held-out task at 2e1bee7: "How many words are in essay.txt?" (17) answered "7"
        out.append(f"the task asks {tally.asked}, and the answer does not give the count; {tally.said} (the "
                   "harness counted): answer with that count")
    ended = wrong_end_time(answer, ev.calls) or wrong_event_day(answer, ev.calls) or wrong_weekday(ev.goal, answer)
    if ended:  # calendar_add_event at 21c8a9e: 15:00-15:45 added, "will end at 3 PM" answered
        out.append(ended)
    if (_MUST_CHANGE.search(ev.goal) or goal_files(ev.goal)[0]) and not _NOT_DONE.search(answer) \
            and (_HANDS_BACK.search(answer) or restates_request(answer, ev.goal)):
        # docx_summarise at e1675c8: "Summarise ... into summary.docx"; a held-out task at e8ee13e: "Mark call the
        # bank as done in todo.md." given back as the finish call's answer, after the edit
        # docx_append_paragraph at 8d08546: told only to say what docx_insert did, the same how-to sent twice
        # more and the task ended on its last step: what the call did is the answer to copy
        said = result_gist(did.result or "") if did else ""
        out.append("the answer tells the user how to do the task instead of saying what was done; "
                   + (f"{did.name} at step {did.step} did it: say in plain sentences what it did"
                      + (f", e.g. {answer_to_copy(f'Done: {said}.')}" if said else "") if did is not None
                      else "do it with a tool, or say plainly why it cannot be done"))
    if _WILL_ASK.search(answer):
        # held-out tasks (SE, SF) at 5910adb: the three invoices moved, then "I could not find the task's tool
        # results. I will ask the user for help." as the final answer, and the task finished
        said = result_gist(did.result or "") if did else ""
        done = f"; if the task is done, say what was done: {did.name} at step {did.step} did it, e.g. " \
            f"{answer_to_copy(f'Done: {said}.')}" if said else ""
        out.append("the answer says it will ask the user, but a final answer ends the task and asks nothing; to ask, "
                   f"call ask_human with the question{done}")
    unused = _unused_quotes(ev) if changed else []
    if unused:  # calendar_next_weekday: titled "Bring the Q3 numbers" (the quoted note), never "Budget review"
        out.append(f"the task quotes {', '.join(repr(q) for q in unused[:3])}, but no change of this task used "
                   f"{'them' if len(unused) > 1 else 'it'}; use the user's exact words where the task gives them")
    if changed:  # what the written files must hold: the goal's column texts, columns, sheet; a summary shorter
        out += [p for p in (check(ev) for check in (_text_not_in_column, _missing_columns, _missing_sheet,
                                                    _groups_missing, _rows_lost, _fewer_rows_than_asked,
                                                    _summary_not_shorter, _states_no_number,
                                                    _points_not_as_asked, _heading_missing,
                                                    _list_on_one_line, _typo_left, _column_not_added,
                                                    _recipient_missing, _rows_not_from_source,
                                                    _headings_not_as_asked, _names_not_of_value, _names_not_in_bound,
                                                    _split_rows_wrong, _sorted_rows_wrong, _merged_rows_wrong,
                                                    _cell_left_unchanged, _total_row_missing, _files_list_wrong)) if p]
    cannot = undoable_verb(ev.goal, ev.tool_names)
    if cannot and _undoable_said_done(answer, cannot):
        out.append(f"the task asks to {cannot}, and no tool here can {cannot}; say plainly that you could not "
                   f"{cannot} it (and what you did instead), or call ask_human")
    beaten = _not_the_extreme(answer, ev) or total_unsummed(answer, ev) or not_the_extreme_row(answer, ev) \
        or not_the_dated_row(answer, ev) or document_total_wrong(answer, ev) or most_pages_wrong(answer, ev)
    if beaten:
        out.append(beaten)
    whose = misattributed_contact(ev.goal, answer, ev.calls) or ambiguous_name(ev.goal, answer, ev.calls)
    if whose:  # handoff_not_found: the accountant's number given as the landlord's
        out.append(whose)
    order = not_the_first_date(ev.goal, answer, reads.items())
    if order:  # contracts (a held-out task) at a43d469: the later of two end dates for "ends first"
        out.append(order)
    named = {norm_path(f) for f in goal_files(ev.goal)[1]}
    texts = {norm_path(str(c.arguments["path"])): c.result or "" for c in ev.calls if c.status == "done"
             and not c.error and c.name in _DOCUMENT_READS and norm_path(str(c.arguments.get("path", ""))) in named}
    extreme = extreme_date_wrong(ev.goal, answer, texts.items())
    if extreme:  # batch FZ at 7767aeb, FZJ: the file's modified date for the earliest date it mentions
        out.append(extreme)
    period = wrong_period(ev.goal, answer, ev.calls)
    if period:  # pdf_number_lookup at 0ed7096: last year's 4.1 days for "this year"
        out.append(period)
    page = wrong_page(ev.goal, answer, ev.calls)
    if page:  # pdf_find_figure at 4826ac4: page 1's 6.10 for "on page 3"
        out.append(page)
    yearly = next_yearly_wrong(answer, ev)
    if yearly:  # a held-out task at 911f35c: Pia (4 January) for "Whose birthday ... comes next?" (Jonas, 9 December)
        out.append(yearly)
    unit = unit_wrong(answer, ev.goal)
    if unit:  # held-out BZA at bbbe1fb: "4995 grams" for "What is the total weight ... in kilograms?"
        out.append(unit)
    stated = total_check_wrong(answer, ev)
    if stated:  # a held-out task at 911f35c: "Is the total on invoice.pdf correct?" (259.00, not 269.00): "correct"
        out.append(stated)
    busy = availability_wrong(answer, ev.goal, ev.calls, ev.tool_names)
    if busy:  # a held-out task at 911f35c: "Am I free on 11 December at 15:00?" (14:30-16:00 Project sync)
        out.append(busy)
    sheets = _one_sheet_of_many(answer, ev) or _one_part_of_union(answer, ev) or one_part_named(answer, ev) \
        or one_group_for_all(answer, ev) or nothing_subtracted(answer, ev) or groups_left_out(answer, ev) \
        or rows_against_filter(answer, ev) or groups_against_bound(answer, ev) or weekday_wrong(answer, ev) \
        or change_wrong(answer, ev) or months_without_wrong(answer, ev) or hours_wrong(answer, ev) \
        or all_for_each(answer, ev) or empty_count_wrong(answer, ev) or repeats_wrong(answer, ev) \
        or percent_total_wrong(answer, ev) or sign_missing_wrong(answer, ev) or mean_ranking_wrong(answer, ev) \
        or length_extreme_wrong(answer, ev) or nth_common_wrong(answer, ev) or step_change_wrong(answer, ev) \
        or row_mean_wrong(answer, ev) or not_the_top_group(answer, ev) or sum_to_wrong(answer, ev) \
        or bounded_total_wrong(answer, ev) or value_counts_wrong(answer, ev) or range_wrong(answer, ev) \
        or nth_ranked_wrong(answer, ev) or compared_columns_wrong(answer, ev) \
        or bounded_count_wrong(answer, ev) or difference_wrong(answer, ev) or comparison_wrong(answer, ev) \
        or same_value_wrong(answer, ev) \
        or rows_not_queried(answer, ev) or id_aggregated(answer, ev) or pairs_against_query(answer, ev)  # the
    # general forms: rows no query returned, a sum of ids, a row's number other than the query's
    if sheets:  # xlsx_two_sheet_total at 462ec82: sheet Q1's Travel sum for "across both quarters"
        out.append(sheets)
    copied = text_copy_wrong(ev) if changed else ""
    if copied:  # a held-out task at bad5969: one made-up line written as the text of notes.txt in notes.docx
        out.append(copied)
    picked = (running_total_wrong(ev) or written_rows_not_queried(ev) or written_without_source_words(ev)
              or written_id_aggregated(ev)) \
        if changed and not copied else ""
    if picked:  # a held-out task at bad5969: the three dearest products written into top3.txt from the read table
        out.append(picked)
    renamed = _renamed_against_goal(ev) if changed else ""
    if renamed:  # files_organise at 36d1140: notes.txt renamed notes.text for "keep the file names"
        out.append(renamed)
    unread = _wrote_unread_contents(ev) if changed else ""
    if unread:  # files_merge_todos at 36d1140: the folder listing written as the merged lines
        out.append(unread)
    other_line = amount_due_wrong(answer, ev) or _number_from_another_line(answer, ev) or subject_not_found(answer, ev)
    if other_line:  # docx_lookup at 36d1140: the deposit's 2,900 for "how much is the monthly rent"
        out.append(other_line)
    many = _many_numbers_for_one(answer, ev)
    if many:  # pdf_number_lookup at 908434b: 3.4 among every figure of the PDF, the 2.9 target too
        out.append(many)
    copy = _changed_a_copy(ev) if changed else ""
    if copy:
        out.append(copy)
    pulled = _extraction_written_wrong(ev) if changed else ""
    if pulled:  # a held-out task at 11a1600: addresses.txt with "Reply to dan@w.io", ana@x.org left out
        out.append(pulled)
    total = total_said_wrong(answer, ev)
    if total:  # xlsx_total at 8459f99: "The total amount is 201.40.", one item's sum, the column's 389.9
        out.append(total)
    misplaced = misgrouped_numbers(answer, [*results, ev.goal, *ev.user_texts])
    if misplaced:
        shown = ", ".join(f"{plain} as {raw!r}" for raw, plain in misplaced[:5])
        out.append(f"the answer writes {shown}, its commas in the wrong places; write each number as the tool gave "
                   f"it{rows_named_to_copy(answer, ev)}")
    sources = [ev.goal, *ev.user_texts, *results, *ev.extra_texts,
               *([f"{counted[0]} {counted[0] + 1}"] if counted else []), *([str(tally.count)] if tally else []),
               *([later[0].isoformat()] if later else []), converted_time_text(ev.goal, ev.extra_texts),
               balance_text(ev.goal, ev.workspace), list_count_text(ev.goal, ev.workspace),
               *converted_figures(ev.goal, list(ev.harness_texts), _source_numbers(results))]  # "4995 grams is 4.995 kg"
    made_up = unseen_dates(answer, sources)
    if made_up:  # offer.docx (a held-out task) at 766ab73: "February 18, 2027" of 18 December 2026 and 1 February 2027
        given = list(dict.fromkeys(d.text for r in results for d in dates_in(r)))
        out.append(f"the answer gives the date {made_up[0]}, which no tool result of this task holds"
                   + (f" (they give {', '.join(given[:4])})" if given else "")
                   + "; give each date as a result writes it, never put together or worked out")
    # a date is checked whole, above: one the results give written another way ("2026-12-18" for "18 December
    # 2026") holds no number to doubt, and one made up is doubted once
    unseen = number_problems(_without_dates(answer), sources)
    if unseen:
        out.append(f"the number{'s' if len(unseen) > 1 else ''} {', '.join(unseen[:5])} in the answer "
                   f"{'appear' if len(unseen) > 1 else 'appears'} in no tool result of this task; get numbers from a "
                   "tool (e.g. table_query), never by hand"
                   + (average_not_queried(ev) or percent_not_queried(ev) or column_total_not_queried(ev)
                      or document_sum_to_copy(ev)
                      or sum_of_query_totals(answer, unseen, ev.calls)
                      or _line_of_a_seen_number(answer, unseen, ev.calls)
                      or rows_named_to_copy(answer, ev) or _line_to_copy(ev)))
    return out
