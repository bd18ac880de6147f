"""Checks on the numbers an answer gives, against the task's tool results: the
highest (lowest) value of a query's column, a total added up and not compared by
eye, one sheet's (or one UNION part's) figure given for a total across several,
a number taken from a line about something else, many numbers for a question
that asks one, and the line of a read that holds a number the answer got right
(``_line_of_a_seen_number``, for the refusal of a number no tool result holds).
"""

from __future__ import annotations

import decimal
import re
from datetime import date
from pathlib import Path
from typing import Any, NamedTuple, Sequence

from ..state.models import CallRecord
from .evidence import SMALL_INTEGER, _CELL_NUMBER, _COMMON, _FENCE_LINE, _FILE_OR_URL, _HARNESS_TOOLS, _HIGHEST, \
    _LIST_MARKER, _LOWEST, _NOT_TOPIC, _NUMBER, _WHICH_FILE, _WORD, Evidence, _data_of, _numbers, _paths, \
    _source_numbers, asks_only_a_question, goal_files
from .numbers import normalise_number
from .answer_form import _result_rows, answer_to_copy
from .recap import call_to_copy
from .dates_said import dates_in, month_number
from .table_goal import LOWER_BETTER, MONTH_SAID, ROW_EXTREME, SUMMED, combined_columns, goal_filters, goal_value, \
    is_number, lowest_wanted, number_column, row_filter, row_mean_columns, two_values, goal_values, \
    value_counts_query, range_query, nth_ranked, NTH_RANKED, column_comparison, _quoted, group_bound, \
    weekday_ranking, WEEKDAYS, sums_to, change_columns, change_falls, column_change, running_total, \
    months_without_rows, hours_worked, empty_count, repeated_values, percent_on_total, sign_missing, mean_ranking, \
    length_extreme, nth_common, step_change


def _table_rows(result: str) -> list[list[str]]:
    """The data rows of a ``table_query`` result ("a | b" lines after the dashed rule)."""
    lines = [ln for ln in _FENCE_LINE.sub("", result).splitlines() if ln.strip()]
    rule = next((i for i, ln in enumerate(lines) if re.fullmatch(r"[-+\s]+", ln) and "-" in ln), None)
    if rule is None:
        return []
    return [[c.strip() for c in ln.split("|")] for ln in lines[rule + 1:] if "|" in ln]


def not_the_extreme_row(answer: str, ev: Evidence) -> str:
    """The doubt when the goal ranks the rows of the one table file it names by a value
    of their own ("the lowest price for paper": no total) and the answer gives a value
    of the number column, among the rows whose text column holds the value the goal
    names, that another of those rows beats ("" otherwise), with that row. A held-out
    task at 5a8dc42: Papyra's 4.2 answered; OfficeMax's 3.85 is the lowest."""
    m = ROW_EXTREME.search(ev.goal)
    files = [f for f in goal_files(ev.goal)[1] if f.lower().endswith(TABLE_FILES)]
    if m is None or SUMMED.search(ev.goal) or len(files) != 1 or NTH_RANKED.search(ev.goal) \
            or re.search(r"\b(?:average|mean|median)\b", ev.goal, re.IGNORECASE):  # an average ranks groups, not
        return ""  # rows (batch EZ at 865c16b, EZA: "Corvo, 250" doubted with Brio's order of 300)
    low = m.group(1).lower() in ("lowest", "cheapest", "least expensive")
    said = set(_source_numbers([answer]))
    for table in _file_tables(ev.workspace, files[0]):
        column = number_column(table, ev.goal)
        if column is None or table.rows > 500:
            continue
        found = goal_value(table, ev.goal)
        rows = [tuple(c.values[i] for c in table.columns) for i in range(table.rows)]
        names = [c.name for c in table.columns]
        if found:
            rows = [r for r in rows if str(r[names.index(found[0])]).strip().lower() == found[1].lower()]
        values = [(float(r[names.index(column)]), r) for r in rows if isinstance(r[names.index(column)],
                                                                                 (int, float, decimal.Decimal))]
        if len(values) < 2:
            continue
        best = min(values, key=lambda x: x[0]) if low else max(values, key=lambda x: x[0])
        hits = [v for v, _ in values if normalise_number(repr(v)) in said]
        if hits and best[0] not in hits:
            among = f" among the rows whose {found[0]} is {found[1]!r}" if found else ""
            row = ", ".join(str(x) for x in best[1] if x is not None)
            return (f"the answer gives {hits[0]:g}, but {files[0]} has a {'lower' if low else 'higher'} {column}"
                    f"{among} ({best[0]:g}: {row}); answer with that row")
    return ""


#: a question for the row of the earliest (latest) date: "Who has been with us the longest?", "Which invoice is oldest?"
_DATE_EXTREME = re.compile(r"\b(?:who|which|whose)\b(?:[^?.!]|\.(?=\w))*?\b(?P<word>longest|earliest|oldest|"
                           r"soonest|shortest|latest|newest|most recent(?:ly)?|youngest|"
                           r"(?:joined|started|began|hired|came|arrived|signed|due|ends?|expires?)\s+(?:first|last))\b",
                           re.IGNORECASE)
_MIN_DATE = re.compile(r"longest|earliest|oldest|soonest|first", re.IGNORECASE)
#: a number column that measures a duration or an age: then "longest" or "oldest" asks for its value, not a date's
_DURATION = re.compile(r"day|week|month|year|hour|duration|length|tenure|time|age", re.IGNORECASE)


def not_the_dated_row(answer: str, ev: Evidence) -> str:
    """The doubt when the goal asks who (which) comes first or last by date ("been with
    us the longest", "the oldest invoice") in the one table file it names, whose one
    date column orders its rows, and the answer does not name the row with the
    earliest (latest) date by its first text cell ("" otherwise), with that row. Rows
    are those whose text column holds the value the goal names, when it names one. A
    held-out task (PA) at 9fa21b4: "Who in staff.xlsx has been with us the longest?"
    answered "... the 'Sales' department, starting from 2019-03-04"; Marek Nowak
    started on 2017-11-20."""
    m = _DATE_EXTREME.search(ev.goal)
    files = [f for f in goal_files(ev.goal)[1] if f.lower().endswith(TABLE_FILES)]
    if m is None or len(files) != 1 or not asks_only_a_question(ev.goal):
        return ""
    earliest = bool(_MIN_DATE.search(m.group("word")))
    for table in _file_tables(ev.workspace, files[0]):
        dated = [c for c in table.columns if c.sql_type in ("DATE", "TIMESTAMP")]
        labels = [c for c in table.columns if c.sql_type == "VARCHAR"]
        if len(dated) != 1 or not labels or table.rows > 500 or any(
                c.sql_type not in ("DATE", "TIMESTAMP", "VARCHAR", "BOOLEAN") and _DURATION.search(c.name)
                for c in table.columns):
            continue
        names = [c.name for c in table.columns]
        rows = [tuple(c.values[i] for c in table.columns) for i in range(table.rows)]
        found = goal_value(table, ev.goal)
        if found:
            rows = [r for r in rows if str(r[names.index(found[0])]).strip().lower() == found[1].lower()]
        at, label = names.index(dated[0].name), names.index(labels[0].name)
        rows = [r for r in rows if r[at] is not None and r[label]]
        if len(rows) < 2:
            continue
        best = min(r[at] for r in rows) if earliest else max(r[at] for r in rows)
        winners = [r for r in rows if r[at] == best]
        if any(re.search(rf"(?<!\w){re.escape(str(r[label]).strip())}(?!\w)", answer, re.IGNORECASE)
               for r in winners):
            return ""
        row = winners[0]
        shown = ", ".join(f"{n} {v:%Y-%m-%d}" if hasattr(v, "strftime") else f"{n} {v}"
                          for n, v in zip(names, row) if v is not None)
        when = f"{row[at]:%Y-%m-%d}"
        return (f"the task asks {m.group(0).split()[0].lower()} {m.group('word').lower()}, and the answer does not "
                f"name the row with the {'earliest' if earliest else 'latest'} {dated[0].name} in {files[0]}"
                + (f" among the rows whose {found[0]} is {found[1]!r}" if found else "")
                + f": {shown}; " + answer_to_copy(f"{row[label]} ({dated[0].name.replace('_', ' ')} {when})."))


#: a question for the next yearly date of a row: "Whose birthday in birthdays.csv comes next?"
_YEARLY = re.compile(r"\b(?P<what>birthdays?|anniversar(?:y|ies)|name\s+days?)\b", re.IGNORECASE)
_NEXT = re.compile(r"\b(?:next|soonest|upcoming|coming\s+up|closest|nearest|first)\b", re.IGNORECASE)


def _next_yearly(day: Any, today: date) -> date:
    """The first date on or after ``today`` with ``day``'s month and day (29 February: 1 March in other years)."""
    for year in (today.year, today.year + 1):
        try:
            at = date(year, day.month, day.day)
        except ValueError:
            at = date(year, 3, 1)
        if at >= today:
            return at
    return at


def next_yearly_wrong(answer: str, ev: Evidence, today: date | None = None) -> str:
    """The doubt when a question asks whose birthday (anniversary) in the one table file
    it names comes next, and the answer does not name the row whose date, its year left
    out, comes first on or after ``today`` (default: today) ("" otherwise), with that
    row to copy. A held-out task at 911f35c: "Whose birthday in birthdays.csv comes
    next?" answered Pia, born on 1988-01-04; Jonas's is on 9 December, three days on."""
    m = _YEARLY.search(ev.goal)
    files = [f for f in goal_files(ev.goal)[1] if f.lower().endswith(TABLE_FILES)]
    if m is None or not _NEXT.search(ev.goal) or len(files) != 1 or not asks_only_a_question(ev.goal):
        return ""
    today = today or date.today()
    for table in _file_tables(ev.workspace, files[0]):
        dated = [c for c in table.columns if c.sql_type in ("DATE", "TIMESTAMP")]
        labels = [c for c in table.columns if c.sql_type == "VARCHAR"]
        if len(dated) != 1 or not labels or table.rows > 5000:
            continue
        rows = [(str(label).strip(), day, _next_yearly(day, today))
                for label, day in zip(labels[0].values, dated[0].values) if label and day is not None]
        if len(rows) < 2:
            continue
        soonest = min(at for _, _, at in rows)
        winners = [r for r in rows if r[2] == soonest]
        if any(re.search(rf"(?<!\w){re.escape(r[0])}(?!\w)", answer, re.IGNORECASE) for r in winners):
            return ""
        label, day, at = winners[0]
        what = m.group("what").lower().rstrip("s") if m.group("what").lower().endswith("days") else m.group("what")
        return (f"the task asks whose {what.lower()} comes next, and the answer does not name {label}: in "
                f"{files[0]}, {dated[0].name} {day:%Y-%m-%d}, next on {at.day} {at:%B %Y}, the first on or after "
                f"today ({today.day} {today:%B %Y}); " + answer_to_copy(f"{label}, on {at.day} {at:%B}."))
    return ""


def _not_the_extreme(answer: str, ev: Evidence) -> str:
    """The doubt when the goal asks for the highest (or lowest) and the answer gives a
    number from a query result's column that holds a higher (lower) one ("" otherwise).
    xlsx_lookup: Qwen 1.5B's query gave Travel 470, Books 60, Home 250, Food 591, and it
    answered "Travel, 470" as the highest. So is an answer to a question for the one
    highest (no count, list or ranking asked) that gives several rows of the column,
    the highest among them, with that row to copy."""
    high, low = bool(_HIGHEST.search(ev.goal)), bool(_LOWEST.search(ev.goal))
    if LOWER_BETTER.search(ev.goal):  # "the best average ... Lower grades are better" (a held-out task (RM))
        high, low = False, True
    if high == low or NTH_RANKED.search(ev.goal):  # "the second-highest": :func:`nth_ranked_wrong`
        return ""
    said = set(_source_numbers([answer]))
    unsummed = _extreme_unsummed(ev, said, "highest" if high else "lowest")
    if unsummed:
        return unsummed
    for c in reversed(ev.calls):
        if c.name != "table_query" or c.status != "done" or c.error or not c.result:
            continue
        rows = _table_rows(c.result)
        if len(rows) < 2:
            continue
        for col in range(min(len(r) for r in rows)):
            if not all(_CELL_NUMBER.fullmatch(r[col]) for r in rows):
                continue
            values = [float(normalise_number(r[col])) for r in rows]
            hits = [v for v in values if normalise_number(repr(v)) in said]
            best = max(values) if high else min(values)
            if hits and best not in hits:
                word = "higher" if high else "lower"
                fixed = _with_row(answer, rows[values.index(hits[0])], rows[values.index(best)], col)
                return (f"the answer gives {hits[0]:g}, but the result of table_query at step {c.step} has a {word} "
                        f"value in that column ({best:g}); check which is {'highest' if high else 'lowest'} (ORDER "
                        f"BY ... {'DESC' if high else 'ASC'} LIMIT 1 puts it first)"
                        + (f"; if that row is the answer, {answer_to_copy(fixed)}" if fixed else ""))
            named = [r[0] for r in rows if r[0] and not _CELL_NUMBER.fullmatch(r[0])
                     and re.search(rf"(?<!\w){re.escape(r[0])}(?!\w)", answer, re.IGNORECASE)]
            if len(set(hits)) > 1 and len(named) > 1 and asks_only_a_question(ev.goal) \
                    and not _MANY_OF_THEM.search(ev.goal):  # xlsx_lookup at ef38a30: the whole ranking answered
                row = rows[values.index(best)]
                return (f"the task asks for the one with the {'highest' if high else 'lowest'} value, and the answer "
                        f"gives {len(named)} rows of table_query at step {c.step} ({', '.join(named[:6])}); answer "
                        f"with that one row, e.g. {answer_to_copy(' '.join(x for x in row if x) + '.')}")
        return ""
    return ""


def _with_row(answer: str, said: list[str], best: list[str], col: int) -> str:
    """``answer`` with the row it gives (``said``) swapped for ``best``: its number in
    column ``col`` and each other cell of that row it names (a whole word, case aside)
    put as ``best`` has them; "" when it names no other cell of the row. xlsx_lookup
    at db466c8: "... is Books, with a total of 60." refused for Food's 591, and sent
    again unchanged; the doubt named the number but gave no answer to copy."""
    value = float(normalise_number(said[col]))
    out = _NUMBER.sub(lambda m: best[col] if float(normalise_number(m.group(0))) == value else m.group(0), answer)
    named = False
    for j, cell in enumerate(said):
        if j != col and cell and not _CELL_NUMBER.fullmatch(cell) and j < len(best):
            out, n = re.subn(rf"(?<!\w){re.escape(cell)}(?!\w)", best[j].replace("\\", r"\\"), out,
                             flags=re.IGNORECASE)
            named = named or n > 0
    return out if named and out != answer else ""


def _extreme_unsummed(ev: Evidence, said: set[str], which: str) -> str:
    """The doubt when the goal asks for the highest (lowest) *total* of a table this
    task read, the answer gives a number, and no ``table_query`` of this task ran:
    the rows were compared by eye, not added up. xlsx_lookup at c92ae49: Qwen 1.5B
    read spending.xlsx and answered "Home, 250", its largest single row (Food's five
    rows total 591)."""
    if not _TOTAL_WORD.search(ev.goal) or not said or "table_query" not in ev.tool_names:
        return ""
    if any(c.name == "table_query" and c.status == "done" and not c.error for c in ev.calls):
        return ""
    tables = _table_reads(ev.calls)
    if not tables:
        return ""
    return (f"the task asks for the {which} total, and the answer's numbers were compared by eye, not added up: no "
            f"table_query ran in this task. Add the rows up per group with table_query (SELECT ..., SUM(...) ... "
            f"GROUP BY ... ORDER BY 2 {'DESC' if which == 'highest' else 'ASC'} LIMIT 1) and answer from what it "
            "returns")


#: a goal that asks for more than the one highest (lowest): a count, a list, a ranking
_MANY_OF_THEM = re.compile(r"\d|\b(two|three|four|five|six|seven|eight|nine|ten|list|all|each|every|per|top|rank\w*|"
                           r"order|sort\w*|both)\b", re.IGNORECASE)


def total_unsummed(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks for a total (not the highest or lowest: see
    :func:`_not_the_extreme`), the task read a table file and ran no ``table_query``,
    and the answer gives a number no line of its reads about a total holds: it was
    added up by hand, or is one row's ("" otherwise). xlsx_two_sheet_total at
    ef38a30: one Travel row of each quarter, "50 + 381.5 = 431.5", finished (the
    rows add up to 2,025.50)."""
    if not asks_only_a_question(ev.goal) or not _TOTAL_ASKED.search(ev.goal) or _HIGHEST.search(ev.goal) \
            or _LOWEST.search(ev.goal) or "table_query" not in ev.tool_names:
        return ""
    if any(c.name == "table_query" and c.status == "done" and not c.error for c in ev.calls):
        return ""
    tables = _table_reads(ev.calls)
    said = [n for n in _numbers(_LIST_MARKER.sub(" ", _FILE_OR_URL.sub(" ", answer)))
            if "." in n or int(n) > SMALL_INTEGER]
    if not tables or not said:
        return ""
    totals = {n for c in tables for line in (c.result or "").splitlines() if _TOTAL_WORD.search(line)
              for n in _numbers(line)}
    if any(n in totals for n in said):
        return ""
    return ("the task asks for a total, and the answer's numbers were not added up by a tool: no table_query ran "
            "in this task. Add the rows up with table_query (SELECT SUM(...) FROM ... WHERE ...) and answer from "
            "what it returns")


#: an amount on a line of a document: two decimals ("410.00", "1,200.50"), the last of its line counted
_LINE_AMOUNT = re.compile(r"(?<![\w.,])\d{1,3}(?:,\d{3})+\.\d{2}(?![\d.])|(?<![\w.,])\d+\.\d{2}(?![\d.])")
#: the documents whose listed amounts a total adds up (a table file is ``table_query``'s)
_DOCUMENTS = (".pdf", ".docx", ".txt", ".md")
_DOCUMENT_READS = ("pdf_read", "docx_read", "read_file")


def listed_amounts(text: str) -> list[str]:
    """The amounts a document's text lists, one per line (the last with two decimals:
    "INV-2  Printer paper  35.50 EUR" -> "35.50"), leaving out lines about a total
    ("Total", "Subtotal", "Sum"); [] when fewer than two lines hold one. Thousands
    separators are dropped ("1,200.50" -> "1200.50")."""
    found = []
    for line in _FENCE_LINE.sub("", text).splitlines():
        amounts = _LINE_AMOUNT.findall(line)
        if amounts and not _TOTAL_WORD.search(line) and not re.search(r"\bsubtotal\b", line, re.IGNORECASE):
            found.append(amounts[-1].replace(",", ""))
    return found if len(found) >= 2 else []


def document_total_query(goal: str, calls: Sequence[CallRecord]) -> tuple[str, list[str], str] | None:
    """``(document, its amounts, the SQL adding them up)`` when the goal asks for a total
    and names one document (.pdf, .docx, .txt, .md) that this task read and that lists
    two or more amounts (:func:`listed_amounts`); None otherwise. ``table_query`` takes
    an expression with no table: ``SELECT 410.00 + 35.50 + 189.90 AS total``. A held-out
    task at a6267c9: "What is the total of the invoices in invoices.pdf?" was answered
    with the first invoice's 410.00 (they add up to 635.40)."""
    for c in reversed(calls):
        if c.name in _DOCUMENT_READS and c.status == "done" and not c.error and c.result:
            found = document_sum(goal, str(c.arguments.get("path", "")), c.result)
            if found is not None:
                return found
    return None


def document_sum(goal: str, path: str, text: str) -> tuple[str, list[str], str] | None:
    """:func:`document_total_query` for one read: ``path`` the file read, ``text`` its result; None
    too when a line of it states a total with an amount (the answer is that line's), or when the
    goal makes files (multistep_invoices_memo at 61738e2: the sum queried from the PDF at once, and
    invoices.xlsx, the table the task asks for first, never made)."""
    if not _TOTAL_ASKED.search(goal) or _HIGHEST.search(goal) or _LOWEST.search(goal) \
            or not asks_only_a_question(goal):
        return None
    docs = [f for f in goal_files(goal)[1] if f.lower().endswith(_DOCUMENTS)]
    if len(docs) != 1 or path.replace("\\", "/").lstrip("./").lower() != docs[0].lower():
        return None
    body = _data_of(text)
    if any(_TOTAL_WORD.search(line) and _LINE_AMOUNT.search(line) for line in body.splitlines()):
        # the document states its total: that line is the answer (pdf_find_figure at 61738e2: "What total revenue
        # figure is reported on page 3" got the sum of the regions' revenues and the operating costs to copy, and
        # answered 10.47; page 3 says "Q3 total revenue: 7.85 million EUR.")
        return None
    amounts = listed_amounts(body)
    return (docs[0], amounts, f"SELECT {' + '.join(amounts)} AS total") if amounts else None


#: a question whether a document's stated total is right: "Is the total on invoice.pdf correct?", "check the sum"
TOTAL_CHECK_ASKED = re.compile(r"\b(?:is|are)\s+(?:the|its|their)\s+(?:total|sum|amount due)\b"
                               r"(?:[^.?!]|\.(?=\w)){0,60}?\b(?:correct|right|accurate|wrong|ok|okay)\b|"
                               r"\b(?:check|verify|double-check)\b"
                               r"(?:[^.?!]|\.(?=\w)){0,40}?\b(?:total|sum)\b", re.IGNORECASE)
#: an answer that says a total is wrong
_SAYS_WRONG = re.compile(r"\bnot\s+(?:correct|right)\b|\bincorrect\b|\bwrong\b|\bmistake\b|\berror\b|\bno\b|"
                         r"\b(?:does\s+not|doesn't|do\s+not|don't)\s+(?:match|add\s+up)\b|\bdiffer", re.IGNORECASE)


_SAYS_RIGHT = re.compile(r"\b(?:correct|right|matches|adds\s+up|accurate)\b", re.IGNORECASE)
_SAYS_NOT_RIGHT = re.compile(r"\b(?:not|isn't|doesn't|does\s+not|in)\s*(?:correct|right|match|add\s+up|accurate)",
                             re.IGNORECASE)


class TotalCheck(NamedTuple):
    """A document's stated total beside the sum of its line items: ``doc`` (the file),
    ``amounts`` (the items' amounts, as written), ``stated`` (its total line's amount),
    ``added`` (the items' sum), and ``answer`` (the answer to copy)."""

    doc: str
    amounts: list[str]
    stated: decimal.Decimal
    added: decimal.Decimal
    answer: str


def total_check(goal: str, path: str, text: str) -> TotalCheck | None:
    """The :class:`TotalCheck` when ``goal`` asks whether the total of the one document
    it names is right (:data:`TOTAL_CHECK_ASKED`), ``path`` is that document, and its
    read ``text`` has one line stating a total and two or more item amounts
    (:func:`listed_amounts`); None otherwise. A held-out task at 911f35c: "Is the total
    on invoice.pdf correct? Check it against the line items." (49.00 + 189.00 + 21.00
    is 259.00; the invoice says 269.00) was answered "The line items are correct"."""
    if not TOTAL_CHECK_ASKED.search(goal):
        return None
    docs = [f for f in goal_files(goal)[1] if f.lower().endswith(_DOCUMENTS)]
    if len(docs) != 1 or path.replace("\\", "/").lstrip("./").lower() != docs[0].lower():
        return None
    body = _data_of(text)
    totals = [line for line in body.splitlines() if _TOTAL_WORD.search(line) and _LINE_AMOUNT.search(line)
              and not re.search(r"\bsubtotal\b", line, re.IGNORECASE)]
    amounts = listed_amounts(body)
    if len(totals) != 1 or not amounts:
        return None
    stated = decimal.Decimal(_LINE_AMOUNT.findall(totals[0])[-1].replace(",", ""))
    added = sum(decimal.Decimal(a) for a in amounts)
    items = " + ".join(amounts)
    if added == stated:
        said = f"Yes, the total is correct: the line items add up to {added} ({items}), the total {docs[0]} states."
    else:
        off = f"{abs(stated - added)} too {'much' if stated > added else 'little'}"
        said = (f"No, the total is wrong: the line items add up to {added} ({items}), but {docs[0]} states {stated} "
                f"({off}).")
    return TotalCheck(docs[0], amounts, stated, added, said)


def _total_check_of(ev: Evidence) -> TotalCheck | None:
    for c in reversed(ev.calls):
        if c.name in _DOCUMENT_READS and c.status == "done" and not c.error and c.result:
            found = total_check(ev.goal, str(c.arguments.get("path", "")), c.result)
            if found is not None:
                return found
    return None


def total_check_wrong(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks whether a document's stated total is right
    (:func:`total_check`) and the answer does not say what the line items give: for a
    wrong total, the items' sum and that it is wrong; for a right one, no "wrong" ("" otherwise)."""
    found = _total_check_of(ev)
    if found is None:
        return ""
    wrong = bool(_SAYS_WRONG.search(answer))
    if found.added == found.stated:
        # "Yes, it is correct: no mistake" says it is right
        if not wrong or (_SAYS_RIGHT.search(answer) and not _SAYS_NOT_RIGHT.search(answer)):
            return ""
    elif wrong and normalise_number(str(found.added)) in _source_numbers([answer]):
        return ""
    return (f"the task asks whether the total of {found.doc} is right, and the answer does not say what its line "
            f"items give; the harness added them: {answer_to_copy(found.answer)}")


def document_total_wrong(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks for the total of the amounts the one document it
    names lists (:func:`document_total_query`), no ``table_query`` added them up, and the
    answer gives one of those amounts, not their sum ("" otherwise), with the query to
    copy."""
    if not asks_only_a_question(ev.goal) or "table_query" not in ev.tool_names:
        return ""
    found = document_total_query(ev.goal, ev.calls)
    if found is None:
        return ""
    doc, amounts, sql = found
    want = normalise_number(str(sum(decimal.Decimal(a) for a in amounts)))
    ran = [c.result or "" for c in ev.calls if c.name == "table_query" and c.status == "done" and not c.error]
    said = [n for n in _numbers(_LIST_MARKER.sub(" ", _FILE_OR_URL.sub(" ", answer)))
            if "." in n or int(n) > SMALL_INTEGER]
    listed = {normalise_number(a) for a in amounts}
    # only an answer giving one of the amounts as the total: a number of no tool result is the number check's, and
    # a total the document states itself is on a line the amounts leave out (pdf_find_figure: "Q3 total revenue:
    # 7.85 million EUR." beside the regions' 2.40 and 1.15)
    if not said or want in said or not listed & set(said) or any(want in _source_numbers([r]) for r in ran):
        return ""
    return (f"the task asks for a total, and {doc} lists {len(amounts)} amounts ({', '.join(amounts[:6])}) that the "
            f"answer does not add up ({said[0]}); add them with a tool: {call_to_copy('table_query', {'sql': sql})}, "
            "and answer with what it returns")


def document_sum_to_copy(ev: Evidence) -> str:
    """'; add the amounts ... with a tool: call table_query with ...' for an answer whose
    number no tool gave, when the goal asks for the total of a document's amounts
    (:func:`document_total_query`); "" otherwise."""
    found = document_total_query(ev.goal, ev.calls) if "table_query" in ev.tool_names else None
    if found is None:
        return ""
    return f"; add the amounts {found[0]} lists with a tool: {call_to_copy('table_query', {'sql': found[2]})}"


def _table_reads(calls: Sequence[CallRecord]) -> list[CallRecord]:
    """The task's successful reads of a table file (.xlsx, .csv, .tsv)."""
    return [c for c in calls if c.status == "done" and not c.error and c.name in ("xlsx_read", "csv_read", "read_file")
            and str(c.arguments.get("path", "")).lower().endswith((".xlsx", ".csv", ".tsv"))]


#: the files ``table_query`` reads tables of (a Word document: its tables), by name ending
TABLE_FILES = (".csv", ".tsv", ".xlsx", ".docx")
_TOTAL_WORD = re.compile(r"\b(total|totals|sum|sums|combined|altogether|in all)\b", re.IGNORECASE)
#: a question asking for a total: its words, or "how much did we spend (pay, earn)" over rows (a held-out task at
#: 000bd0d: "How much did we spend in March ...?" answered with one March row's 39.9)
_TOTAL_ASKED = re.compile(_TOTAL_WORD.pattern + r"|\bhow much (?:did|do|have|has|had) (?:we|i|you|they|he|she)\b"
                          r"(?:\s+\w+){0,2}?\s+(?:spen[dt]|pa(?:y|id)|earn(?:ed)?|cost)\b", re.IGNORECASE)


_ACROSS = re.compile(r"\b(both|across|combined|altogether|every (sheet|tab|quarter|month)|all (the |\w+ )?"
                     r"(sheets|tabs|quarters|months|years))\b", re.IGNORECASE)
_SHEET_SOURCE = re.compile(r"^(.+), sheet .+$")


_ALL_SHEETS = re.compile(r"^(.+?), (?:all \d+ sheets|sheets .+) \(column sheet names the sheet\)$")
_SHEET_FILTER = re.compile(r"\bsheet\s*=\s*'([^']+)'", re.IGNORECASE)


def _sources_queried(call: CallRecord) -> list[str]:
    """The sources ("expenses.xlsx, sheet Q1") of the tables a ``table_query`` call's
    SQL names, from the tables its result lists; [] for any other call. The all-sheets
    table filtered to one sheet (``WHERE sheet = 'Q1'``, no OR) is that sheet's
    source: xlsx_two_sheet_total at 550dcf9, Q1's sum so queried was answered as the
    total "in Q1 and Q2", and the task finished."""
    tables = (call.data or {}).get("tables") if call.name == "table_query" else None
    if not isinstance(tables, dict):
        return []
    sql = str(call.arguments.get("sql", ""))
    out = []
    for n, src in tables.items():
        if not re.search(rf"\b{re.escape(str(n))}\b", sql, re.IGNORECASE):
            continue
        every, sheets = _ALL_SHEETS.match(str(src)), set(_SHEET_FILTER.findall(sql))
        one = every and len(sheets) == 1 and not re.search(r"\b(or|union)\b", sql, re.IGNORECASE)
        out.append(f"{every.group(1)}, sheet {sheets.pop()}" if one else str(src))
    return out


def _without_sheet_filter(sql: str) -> str:
    """``sql`` without its one ``sheet = '...'`` condition ("" when it cannot be taken out cleanly)."""
    out = re.sub(r"\s+and\s+sheet\s*=\s*'[^']*'", "", sql, flags=re.IGNORECASE)
    out = re.sub(r"\bsheet\s*=\s*'[^']*'\s+and\s+", "", out, flags=re.IGNORECASE)
    out = re.sub(r"\s+where\s+sheet\s*=\s*'[^']*'(?=\s|$)", "", out, flags=re.IGNORECASE)
    return "" if _SHEET_FILTER.search(out) else out


def _one_part_of_union(answer: str, ev: Evidence) -> str:
    """The doubt when the goal asks for a total across sheets (or quarters, months),
    the newest ``table_query`` joined one sum per part with UNION, and the answer
    gives one of its rows but not their sum ("" otherwise). xlsx_two_sheet_total at
    c92ae49: "SELECT SUM(amount) FROM expenses_q1 ... UNION ALL SELECT SUM(amount)
    FROM expenses_q2 ..." gave 1034.0 and 991.5; the answer said 1034 "across both
    quarters", and the task finished."""
    if not _ACROSS.search(ev.goal):
        return ""
    said = set(_source_numbers([answer]))
    for c in reversed(ev.calls):
        if c.name != "table_query" or c.status != "done" or c.error or not c.result:
            continue
        sql = str(c.arguments.get("sql", "")).strip().rstrip(";")
        parts = re.split(r"\s+union(?:\s+all)?\s+", sql, flags=re.IGNORECASE)
        lines = [ln.strip() for ln in _FENCE_LINE.sub("", c.result).splitlines() if ln.strip()]
        rule = next((i for i, ln in enumerate(lines) if re.fullmatch(r"[-+\s]+", ln) and "-" in ln), None)
        values = lines[rule + 1:] if rule is not None else []
        if len(parts) < 2 or len(values) != len(parts) or not all(_CELL_NUMBER.fullmatch(v) for v in values):
            return ""
        numbers = [float(normalise_number(v)) for v in values]
        hits = [v for v in numbers if normalise_number(repr(v)) in said]
        total = round(sum(numbers), 6)
        if not hits or normalise_number(repr(total)) in said:
            return ""
        added = "SELECT " + " + ".join(f"({p.strip()})" for p in parts)
        return (f"the task asks for a total across them, but the answer gives {hits[0]:g}, one of the {len(numbers)} "
                f"rows table_query at step {c.step} returned (one per part of its UNION); add them in one SELECT: "
                + call_to_copy("table_query", {"sql": added}))
    return ""


def one_part_named(answer: str, ev: Evidence) -> str:
    """The doubt when the goal asks for a total across sheets, the answer names one
    sheet of the workbook its queries read and no other, nor says "both" or "across"
    ("" otherwise). xlsx_two_sheet_total at 8d08546: the Travel total of both quarters
    (2025.5) answered as "The total amount spent on Travel in Q1 is $2025.50."."""
    if not _ACROSS.search(ev.goal) or _ACROSS.search(answer):
        return ""
    sheets: list[str] = []
    for c in ev.calls:
        tables = (c.data or {}).get("tables") if c.name == "table_query" and c.status == "done" else None
        for src in (tables or {}).values() if isinstance(tables, dict) else ():
            m = _SHEET_SOURCE.match(str(src))
            sheet = str(src).split(", sheet ", 1)[1] if m else ""
            if sheet and sheet not in sheets:
                sheets.append(sheet)
    named = [x for x in sheets if re.search(rf"(?<!\w){re.escape(x)}(?!\w)", answer, re.IGNORECASE)]
    if len(sheets) < 2 or len(named) != 1:
        return ""
    return (f"the task asks for the total across {' and '.join(sheets[:4])}, and the answer calls it {named[0]}'s; "
            "say it is the total across them")


def _one_sheet_of_many(answer: str, ev: Evidence) -> str:
    """The doubt when the goal asks about every sheet of a workbook ("both quarters",
    "across all sheets") and the answer's numbers come only from ``table_query`` runs
    over one of its sheets ("" otherwise). A number that a query over several sheets
    (or the all-sheets table) returned clears it. xlsx_two_sheet_total at 462ec82:
    asked for Travel "across both quarters", Qwen 1.5B answered sheet Q1's 1,034."""
    if not _ACROSS.search(ev.goal):
        return ""
    said = set(_numbers(answer))
    one_sheet: list[tuple[CallRecord, str]] = []
    for c in ev.calls:
        tables = (c.data or {}).get("tables") if c.name == "table_query" else None
        if c.status != "done" or c.error or not isinstance(tables, dict) or not said & _source_numbers([c.result]):
            continue
        used = _sources_queried(c)
        m = _SHEET_SOURCE.match(used[0]) if len(used) == 1 else None
        if m is None or sum(str(src).startswith(f"{m.group(1)}, sheet ") for src in tables.values()) < 2:
            return ""  # a number came from a query over several tables, or not over one sheet: it may be the total
        one_sheet.append((c, used[0]))
    if not one_sheet:
        return ""
    c, src = one_sheet[-1]
    book = src.split(", sheet ")[0]
    # xlsx_two_sheet_total at 42e28a8: Q1's sum, refused; Q2's sum queried; Q1's sum answered again. Both queries
    # ran: their sum is one SELECT to copy
    per_sheet: dict[str, str] = {}
    for q in ev.calls:
        sql = str(q.arguments.get("sql", "")).strip().rstrip(";")
        if q.name != "table_query" or q.status != "done" or q.error or not re.match(r"select\s+sum\(", sql, re.I) \
                or re.search(r"\b(group|union)\b", sql, re.IGNORECASE):
            continue
        used = _sources_queried(q)
        if len(used) == 1 and used[0].startswith(f"{book}, sheet "):
            per_sheet[used[0]] = sql
    tables = (c.data or {}).get("tables") or {}
    if len(per_sheet) == 1:  # one sheet queried: the same query over each sheet's table, to copy (xlsx_two_sheet_total
        # at 62f6d46: Q1's sum refused without a call to copy, twice; the SELECT came only after Q2's query)
        (only, sql), = per_sheet.items()
        every = _without_sheet_filter(sql) if _SHEET_FILTER.search(sql) else ""
        if every:  # the all-sheets table filtered to one sheet: the same query without the filter
            return (f"the task asks about more than one sheet, but the answer's numbers come from table_query at step "
                    f"{c.step}, which read only {src}; query every sheet of {book} (its all-sheets table: "
                    f"{call_to_copy('table_query', {'sql': every})})")
        name = next((k for k, v in tables.items() if v == only), "")
        siblings = [k for k, v in tables.items() if str(v).startswith(f"{book}, sheet ")]
        if name and len(siblings) > 1:
            per_sheet = {tables[k]: re.sub(rf"\b{re.escape(name)}\b", k, sql, flags=re.IGNORECASE) for k in siblings}
    how = ("add each sheet's result in one SELECT: "
           + call_to_copy("table_query", {"sql": "SELECT " + " + ".join(f"({q})" for q in per_sheet.values())})
           if len(per_sheet) > 1 else "its all-sheets table, or add each sheet's result in one SELECT")
    return (f"the task asks about more than one sheet, but the answer's numbers come from table_query at step "
            f"{c.step}, which read only {src}; query every sheet of {book} ({how})")


#: a question about groups, or about one of them: "per region", "by department", "which", "the top 3"
_GROUPS_ASKED = re.compile(r"\b(per|each|every|by|which|who|whom|whose|top|most|least|highest|lowest|largest|"
                           r"smallest|biggest|rank\w*|breakdown|group\w*|split)\b", re.IGNORECASE)
_GROUP_BY = re.compile(r"\s+group\s+by\s+(.+?)(?=\s+(?:having|order\s+by|limit)\b|$)", re.IGNORECASE | re.DOTALL)
_ORDER_OR_LIMIT = re.compile(r"\s+(?:order\s+by\s+.+?|limit\s+\d+(?:\s+offset\s+\d+)?)(?=\s+(?:order\s+by|limit)\b|$)",
                             re.IGNORECASE | re.DOTALL)


def _select_items(select: str) -> list[str]:
    """The items of a SELECT list, split at the commas outside brackets."""
    items, depth, start = [], 0, 0
    for i, ch in enumerate(select):
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            items.append(select[start:i].strip())
            start = i + 1
    return [*items, select[start:].strip()]


def _ungrouped(sql: str, groups: list[str], count: bool) -> str:
    """``sql`` without its GROUP BY, ORDER BY and LIMIT and without the grouped columns
    in its SELECT list (COUNT(*) first when ``count``); "" when it has a HAVING or is no
    plain ``SELECT ... FROM ...``."""
    m = re.fullmatch(r"\s*select\s+(distinct\s+)?(.+?)\s+from\s+(.+)", sql, re.IGNORECASE | re.DOTALL)
    if m is None or m.group(1) or re.search(r"\bhaving\b", sql, re.IGNORECASE):
        return ""
    plain = {g.lower().strip('"` ') for g in groups}
    kept = [x for x in _select_items(m.group(2))
            if re.sub(r"\s+as\s+\S+$", "", x, flags=re.IGNORECASE).strip('"` ').lower() not in plain]
    if count and not any(re.match(r"count\s*\(", x, re.IGNORECASE) for x in kept):
        kept.insert(0, "COUNT(*)")
    rest = _ORDER_OR_LIMIT.sub("", _GROUP_BY.sub("", m.group(3)))
    return f"SELECT {', '.join(kept or ['COUNT(*)'])} FROM {rest.strip()}"


def one_group_for_all(answer: str, ev: Evidence) -> str:
    """The doubt when a question (a goal with a "?") asks about every row that matches (no "per", "each",
    "which", "top", ...) and the answer's number comes from a ``table_query`` grouped
    by a column the goal never names: one group's figure given for them all ("" otherwise),
    with the query without its grouping to copy. A held-out task at 57f5bed: "How many
    orders in orders.csv are over 500 euros, and what do they add up to?" was answered
    "3497.83", one customer's sum from ``GROUP BY customer ... LIMIT 1`` (14 orders, 9073.34)."""
    if "?" not in ev.goal or _GROUPS_ASKED.search(ev.goal):  # "what do they add up to?" asks no change, though
        return ""
    said = {n for n in _numbers(answer) if "." in n or int(n) > SMALL_INTEGER} - set(_numbers(ev.goal))
    for c in reversed(ev.calls):
        if c.name != "table_query" or c.status != "done" or c.error or not said & _source_numbers([c.result or ""]):
            continue
        sql = " ".join(str(c.arguments.get("sql", "")).split()).rstrip(";")
        m = _GROUP_BY.search(sql)
        groups = [g.strip() for g in m.group(1).split(",")] if m else []
        if not groups or any(w in ev.goal.lower() for g in groups for w in re.findall(r"[a-z]{3,}", g.lower())):
            return ""
        # the group the goal names ("What did we spend on Travel?", a query per category): its figure is the answer
        rows = [r for r in _table_rows(c.result or "") if said & set(_numbers(" ".join(r)))]
        if any(re.search(rf"(?<!\w){re.escape(cell)}(?!\w)", ev.goal, re.IGNORECASE)
               for r in rows for cell in r if cell and not _numbers(cell)):
            return ""
        whole = _ungrouped(sql, groups, count=bool(re.search(r"\bhow many\b", ev.goal, re.IGNORECASE)))
        how = (f"run it without the grouping: {call_to_copy('table_query', {'sql': whole})}" if whole
               else "run it again without GROUP BY")
        return (f"the answer's numbers come from table_query at step {c.step}, which gave one figure per "
                f"{', '.join(groups)}; the question asks about all the matching rows together, not per "
                f"{groups[0]}: {how}, and answer from what it returns")
    return ""


#: "per country", "for each region", "by department": the word after it names the group
_PER_WORD = re.compile(r"\b(?:per|each|every|by)\s+(?:the\s+)?([A-Za-z]{3,})", re.IGNORECASE)


def groups_left_out(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks for a figure per group ("How many customers are
    there per country?") and the newest ``table_query`` grouped by that group returned
    2 to 30 rows, but the answer names fewer than all of their groups ("" otherwise;
    not when the query has a LIMIT), with the rows as the answer to copy. A held-out
    task at fadc0f0: the count per country queried right (5 rows), answered "There are
    5 customers per country in customers.csv.", and the task finished."""
    asked = [m.group(1).lower() for m in _PER_WORD.finditer(ev.goal)]
    if not asked or not asks_only_a_question(ev.goal):
        return ""
    query = next((c for c in reversed(ev.calls) if c.name == "table_query" and c.status == "done" and not c.error
                  and c.result and not (c.data or {}).get("repeat_of")), None)
    if query is None:
        return ""
    sql = " ".join(str(query.arguments.get("sql", "")).split()).rstrip(";")
    m = _GROUP_BY.search(sql)
    if m is None or re.search(r"\blimit\b", sql, re.IGNORECASE) \
            or not any(w[:5] in m.group(1).lower() for w in asked):
        return ""
    labels = [row[0] for row in _result_rows(query.result or "") if len(row) > 1 and row[0].strip()]
    if not 2 <= len(labels) <= 30:
        return ""
    missing = [g for g in labels if not re.search(rf"(?<![\w.]){re.escape(g)}(?![\w])", answer, re.IGNORECASE)]
    if not missing:
        return ""
    copy = "; ".join(" ".join(cell for cell in row if cell) for row in _result_rows(query.result or ""))
    return (f"the task asks for a figure per {asked[0]}, and table_query at step {query.step} gave {len(labels)} "
            f"rows; the answer leaves out {', '.join(missing[:5])}{' and more' if len(missing) > 5 else ''}: "
            f"answer with each row, e.g. {answer_to_copy(copy + '.')}")


def rows_against_filter(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks which rows of the one table file it names have a
    value the goal names ("Which invoices in invoices.csv are unpaid ...?": status
    'unpaid', :func:`table_goal.goal_value`), and the answer, naming rows by a column
    whose values are all different (the invoice numbers), names a row without that
    value or leaves out one with it ("" otherwise), with the right rows and their
    query to copy. A held-out task at 6532d5d: the unpaid total queried right, then
    "The invoices in invoices.csv that are unpaid are A-12, A-13, A-14, A-15, and
    A-16." (A-13 and A-16 are paid), and the task finished."""
    if not asks_only_a_question(ev.goal) or not _ASKS_ROWS.search(ev.goal) or _HIGHEST.search(ev.goal) \
            or _LOWEST.search(ev.goal):  # "Which client has the most unpaid invoices?" asks for one of them
        return ""
    files = [f for f in goal_files(ev.goal)[1] if f.lower().endswith(TABLE_FILES)]
    if len(files) != 1:
        return ""
    for table in _file_tables(ev.workspace, files[0]):
        picked = _rows_picked(table, ev.goal, answer)
        if picked is None:
            continue
        column, value, cond, its, have, found, label, named = picked
        wrong = [str(v) for v, n, h in zip(label.values, named, have) if n and not h]
        missing = [str(v) for v, n, h in zip(label.values, named, have) if h and not n]
        if not wrong and not missing:
            return ""
        right = [str(v) for v, h in zip(label.values, have) if h]
        sql = f"SELECT {label.name} FROM {table.name} WHERE {cond}"
        said = (f"the answer names {', '.join(wrong[:5])}, whose {column} is not {its}" if wrong else
                f"the answer leaves out {', '.join(missing[:5])}, whose {column} is {its}" if any(named) else
                # a held-out task at 5246021: "... are unpaid, and what do they add up to?" answered with the sum
                f"the task asks which rows have {column} {its}, and the answer names none of them")
        listed = (f"the rows of {files[0]} whose {column} is {its} are {', '.join(right[:12])}"
                  f"{' and more' if len(right) > 12 else ''} ({call_to_copy('table_query', {'sql': sql})})")
        if any(named) or len(right) > 12 or not right:
            return f"{said}; {listed}"
        # none named: the answer given, with the rows put before it, is the one to copy (not one that says none)
        rows = ", ".join(right) + (f" are {value}." if found is not None else f" ({column} {value}).")
        kept = "" if _NO_ROW.search(answer) else " " + answer.strip()
        return f"{said}; {listed}; e.g. {answer_to_copy(rows + kept)}"
    return ""


def _asked_tables(ev: Evidence) -> tuple[list[str], list]:
    """``([the one table file the goal names], its tables)`` when the goal is a question
    about one table file (:func:`evidence.asks_only_a_question`); ``([], [])`` otherwise."""
    files = [f for f in goal_files(ev.goal)[1] if f.lower().endswith(TABLE_FILES)]
    if not asks_only_a_question(ev.goal) or len(files) != 1:
        return [], []
    return files, _file_tables(ev.workspace, files[0])


def groups_against_bound(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks which values of a text column of the one table
    file it names have a total over (under) a bound (:func:`table_goal.group_bound`:
    "Which customers have spent more than 500 in total?") and the answer names a value
    whose total is not, leaves one out, or names none ("" otherwise), with the right
    values, their totals and the query to copy. Batch AZ at 018ad5b (AZB): "No
    customers in orders.csv have spent more than 500 in total." (Alba 620, Corvo 510)."""
    files, tables = _asked_tables(ev)
    for table in tables:
        bound = group_bound(table, ev.goal)
        if bound is None or table.rows > 5000:
            continue
        values = {c.name: c.values for c in table.columns}
        totals: dict[str, decimal.Decimal] = {}
        for key, amount in zip(values[bound.group], values[bound.number]):
            if key is not None and isinstance(amount, (int, float, decimal.Decimal)) and not isinstance(amount, bool):
                totals[str(key)] = totals.get(str(key), decimal.Decimal(0)) + decimal.Decimal(str(amount))
        right = sorted((k for k, t in totals.items() if bound.keep(t)), key=lambda k: -totals[k])
        named = {k for k in totals if re.search(rf"(?<![\w-]){re.escape(k)}(?![\w-])", answer, re.IGNORECASE)}
        wrong, missing = sorted(named - set(right)), [k for k in right if k not in named]
        if not wrong and not missing:
            return ""
        shown = ", ".join(f"{k} ({normalise_number(str(totals[k]))})" for k in right[:12]) or "none"
        listed = (f"the {bound.group} values whose total {bound.number} is {bound.said} are {shown} "
                  f"({call_to_copy('table_query', {'sql': bound.sql})})")
        said = (f"the answer names {', '.join(wrong[:5])}, whose total {bound.number} is not {bound.said}" if wrong
                else f"the answer leaves out {', '.join(missing[:5])}, whose total {bound.number} is {bound.said}"
                if named else f"the task asks which {bound.group} values have a total {bound.number} {bound.said}, "
                              "and the answer names none of them")
        if named or not right or len(right) > 12:
            return f"{said}; {listed}"
        return f"{said}; {listed}; e.g. {answer_to_copy(shown + f' have a total {bound.number} {bound.said}.')}"
    return ""


def weekday_wrong(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks which day of the week has the most (fewest) rows,
    or the highest (lowest) total, of the one table file it names
    (:func:`table_goal.weekday_ranking`) and the answer does not name that day, or
    names another day alone ("" otherwise), with each day's figure, the query and the
    answer to copy. Batch AZ at 018ad5b (AZF): "2026-11-09, with 50 orders" for the
    weekday with the most orders (Wednesday, 4 of 8)."""
    files, tables = _asked_tables(ev)
    for table in tables:
        ranked = weekday_ranking(table, ev.goal)
        if ranked is None or table.rows > 5000:
            continue
        dated, number, low, sql = ranked
        values = {c.name: c.values for c in table.columns}
        per: dict[str, decimal.Decimal] = {}
        for i, day in enumerate(values[dated]):
            day = day.date() if hasattr(day, "date") and callable(day.date) else day
            amount = values[number][i] if number else 1
            if isinstance(day, date) and isinstance(amount, (int, float, decimal.Decimal)):
                name = WEEKDAYS[day.weekday()]
                per[name] = per.get(name, decimal.Decimal(0)) + decimal.Decimal(str(amount))
        if not per:
            return ""
        best = (min if low else max)(per.values())
        top = [d for d in WEEKDAYS if per.get(d) == best]
        named = [d for d in WEEKDAYS if re.search(rf"\b{d}s?\b", answer, re.IGNORECASE)]
        if any(d in named for d in top) and not [d for d in named if d not in top and per.get(d) != best]:
            return ""
        figure = "total " + number if number else "rows"
        shown = ", ".join(f"{d} {normalise_number(str(per[d]))}" for d in sorted(per, key=lambda d: -per[d]))
        word = "fewest" if low and not number else "lowest" if low else "most" if not number else "highest"
        return (f"the day of the week with the {word} {figure} of {files[0]} is {' and '.join(top)} "
                f"({normalise_number(str(best))}), and the answer does not say so; per day: {shown} "
                f"({call_to_copy('table_query', {'sql': sql})}); e.g. "
                f"{answer_to_copy(' and '.join(top) + f' ({normalise_number(str(best))} {figure}).')}")
    return ""


_YES = re.compile(r"^\W*(?:yes|yep|correct|true)\b|\b(?:do|does|they|it)\s+(?:indeed\s+)?add\s+up\b|\badds\s+up\b",
                  re.IGNORECASE)
_NO = re.compile(r"^\W*no\b|\bn[o']t\b|\bnot\b|\bfalse\b", re.IGNORECASE)


def sum_to_wrong(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks whether a column of the one table file it names
    adds up to a figure (:func:`table_goal.sums_to`) and the answer says yes when the
    sum is another, or no when it is that figure, or gives neither ("" otherwise), with
    the sum, its query and the answer to copy. Batch AZ at 018ad5b (AZH): "Do the shares
    in budget.csv add up to 100%?" (40 + 25 + 20 + 13 = 98)."""
    files, tables = _asked_tables(ev)
    for table in tables:
        asked = sums_to(table, ev.goal)
        if asked is None or table.rows > 5000:
            continue
        column, figure, sql = asked
        values = next(c.values for c in table.columns if c.name == column)
        total = sum((decimal.Decimal(str(v)) for v in values if isinstance(v, (int, float, decimal.Decimal))
                     and not isinstance(v, bool)), decimal.Decimal(0))
        right = total == figure
        yes, no = bool(_YES.search(answer)), bool(_NO.search(answer))
        if (right and yes and not no) or (not right and no and not (yes and not no)):
            return ""
        shown, want = normalise_number(str(total)), normalise_number(str(figure))
        fixed = f"Yes: the {column} values add up to {want}." if right else \
            f"No: the {column} values add up to {shown}, not {want}."
        return (f"the {column} values of {files[0]} add up to {shown} ({call_to_copy('table_query', {'sql': sql})}), "
                f"so the answer to whether they add up to {want} is {'yes' if right else 'no'}, and the answer does "
                f"not say so; e.g. {answer_to_copy(fixed)}")
    return ""


def change_wrong(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks which row of the one table file it names changed
    the most (least) between two number columns (:func:`table_goal.change_columns`:
    "Which product in sales.csv fell the most from January to February?") and the
    answer does not name that row, or names another row alone ("" otherwise), with the
    row's change, the query and the answer to copy. Batch AZ at 018ad5b (AZJ): the
    example's ASC turned DESC by the model, and "Desk 10." (a rise) offered back from
    its query as the answer to copy; Lamp fell by 50."""
    files, tables = _asked_tables(ev)
    for table in tables:
        asked = change_columns(table, ev.goal)
        if asked is None or table.rows > 5000:
            continue
        label, first, then = asked
        values = {c.name: c.values for c in table.columns}
        changes = {str(k): decimal.Decimal(str(b)) - decimal.Decimal(str(a))
                   for k, a, b in zip(values[label], values[first], values[then])
                   if k is not None and all(isinstance(v, (int, float, decimal.Decimal)) for v in (a, b))}
        if not changes:
            return ""
        best = (min if change_falls(ev.goal) else max)(changes.values())
        top = [k for k, v in changes.items() if v == best]
        named = [k for k in changes if re.search(rf"(?<![\w-]){re.escape(k)}(?![\w-])", answer, re.IGNORECASE)]
        if any(k in named for k in top) and all(k in top for k in named):
            return ""
        shown = normalise_number(str(best)) if best >= 0 else "-" + normalise_number(str(-best))
        most = "smallest" if change_falls(ev.goal) else "largest"
        return (f"the row of {files[0]} whose {then} - {first} is the {most} is {' and '.join(top)} ({shown}), and the "
                "answer does not say so "
                f"({call_to_copy('table_query', {'sql': column_change(table, ev.goal)})}); e.g. "
                f"{answer_to_copy(' and '.join(top) + f' ({then} - {first}: {shown}).')}")
    return ""


def _rows_picked(table: Any, goal: str, text: str) -> tuple | None:
    """``(column, value, sql condition, the value in words, which rows have it, the
    goal_value or None, the label column, which labels ``text`` names)`` for the rows of
    ``table`` (200 rows at most) that ``goal`` picks by a value of a text column
    (:func:`table_goal.goal_value`) or a bound (:func:`table_goal.row_filter`), named by
    a text column whose values all differ (the first ``text`` names, else the first);
    None when the goal picks none or no such column."""
    found = goal_value(table, goal)
    when = row_filter(table, goal) if found is None else None
    if (found is None and when is None) or table.rows > 200:
        return None
    if found is not None:
        column, value = found
        have = [str(v).strip().lower() == value.lower() for c in table.columns if c.name == column for v in c.values]
        cond, its = f"{column} = '{value.replace(chr(39), chr(39) * 2)}'", repr(value)
    else:  # a held-out task at a864c41: "Which employees ... started before 2020?" answered "no employees"
        column, value, cond, its = when.column, when.said, when.sql, when.said
        have = [when.keep(v) for c in table.columns if c.name == column for v in c.values]
    labels = [c for c in table.columns if c.name != column and c.sql_type == "VARCHAR"
              and len({str(v) for v in c.values if v is not None}) == len(c.values)]
    # the first column whose values the text names (the clients, or the invoice numbers), else the first
    spoken = [(c, [re.search(rf"(?<![\w-]){re.escape(str(v))}(?![\w-])", text, re.IGNORECASE) is not None
                   for v in c.values]) for c in labels]
    if not spoken:
        return None
    label, named = next((x for x in spoken if any(x[1])), spoken[0])
    return column, value, cond, its, have, found, label, named


def row_mean_wrong(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks which row of the one table file it names has the
    best (highest, lowest) average of two number columns or more it names
    (:func:`table_goal.row_mean_columns`; "Lower grades are better" makes the best the
    lowest) and the answer does not name that row ("" otherwise), with the query and
    the answer to copy. A held-out task (RM) at 624b529: "Which student in grades.csv
    has the best average of math and physics? Lower grades are better." answered
    "Dora 3." (the highest math grade); Cem's (1.7 + 1.0) / 2 = 1.35 is the best."""
    files = [f for f in goal_files(ev.goal)[1] if f.lower().endswith(TABLE_FILES)]
    if len(files) != 1:
        return ""
    for table in _file_tables(ev.workspace, files[0]):
        mean = row_mean_columns(table, ev.goal)
        label = next((c for c in table.columns if c.sql_type == "VARCHAR"), None)
        if not mean or label is None or table.rows > 5000:
            continue
        values = {c.name: c.values for c in table.columns}
        rows = [(str(label.values[i]), sum(float(values[m][i]) for m in mean) / len(mean)) for i in range(table.rows)
                if all(isinstance(values[m][i], (int, float, decimal.Decimal)) for m in mean)]
        if not rows:
            continue
        low = lowest_wanted(ev.goal)
        best = (min if low else max)(score for _, score in rows)
        tops = [name for name, score in rows if abs(score - best) < 1e-9]
        if any(re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", answer, re.IGNORECASE) for name in tops):
            return ""
        said = " and ".join(mean)
        sql = (f"SELECT {label.name}, ({' + '.join(mean)}) / {len(mean)} AS average FROM {table.name} "
               f"ORDER BY average {'ASC' if low else 'DESC'}")
        copy = answer_to_copy(f"{' and '.join(tops)}, with an average of {best:g} ({said}).")
        return (f"the task asks which row has the best average of {said} ({'lower' if low else 'higher'} is better); "
                f"per row, ({' + '.join(mean)}) / {len(mean)} is best for {', '.join(tops)} ({best:g}), and the "
                f"answer does not name {tops[0]}: {call_to_copy('table_query', {'sql': sql})}; e.g. {copy}")
    return ""


def not_the_top_group(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks which group of the one table file it names has the
    most (fewest) rows or the highest (lowest) sum, among the rows whose text column holds
    the value the goal names ("the most sick days": type 'sick'), or counting rows where
    the table has no number column, and the answer names a group (a value of a text
    column whose values repeat) that is not at the top, or one of several tied there
    ("" otherwise), with the query to copy. A held-out task at 2e1bee7: every absence
    counted (3 each), and "Uma, with 3 sick days" answered; Tim had three, Uma one."""
    high, low = bool(_HIGHEST.search(ev.goal)), bool(_LOWEST.search(ev.goal))
    files = [f for f in goal_files(ev.goal)[1] if f.lower().endswith(TABLE_FILES)]
    if high == low or not asks_only_a_question(ev.goal) or len(files) != 1:
        return ""
    for table in _file_tables(ev.workspace, files[0]):
        month = _not_the_top_month(answer, ev.goal, table, low)
        if month is not None:
            return month
        found, number = goal_value(table, ev.goal), number_column(table, ev.goal)
        words = {w.lower() for w in re.findall(r"[A-Za-z]+", ev.goal)}
        if table.rows > 2000 or (found is None and number is not None) or (
                number is not None and not SUMMED.search(ev.goal) and number.lower() not in words):
            continue
        keys = [c for c in table.columns if c.sql_type == "VARCHAR" and (found is None or c.name != found[0])
                and len({str(v) for v in c.values}) < len(c.values)]
        named = [(c, {str(v) for v in c.values if v is not None and re.search(
            rf"(?<![\w-]){re.escape(str(v))}(?![\w-])", answer, re.IGNORECASE)}) for c in keys]
        key, said = next(((c, n) for c, n in named if n), (None, set()))
        if key is None:
            continue
        kept = [True] * table.rows if found is None else [
            str(v).strip().lower() == found[1].lower() for c in table.columns if c.name == found[0] for v in c.values]
        measure = next((c.values for c in table.columns if c.name == number), None) if number else None
        totals: dict[str, float] = {str(v): 0.0 for v in key.values if v is not None}
        for i, v in enumerate(key.values):
            if v is not None and kept[i]:
                m = measure[i] if measure is not None else 1
                totals[str(v)] += float(m) if isinstance(m, (int, float, decimal.Decimal)) else 0.0
        best = (min if low else max)(totals.values())
        tops = [k for k, t in totals.items() if t == best]
        if said <= set(tops) and (len(tops) == 1 or set(tops) <= said):
            return ""
        where = f" WHERE {found[0]} = '{found[1].replace(chr(39), chr(39) * 2)}'" if found else ""
        agg = f"SUM({number})" if measure is not None else "COUNT(*)"
        sql = (f"SELECT {key.name}, {agg} FROM {table.name}{where} GROUP BY {key.name} ORDER BY 2 "
               f"{'ASC' if low else 'DESC'}")
        among = (f"{'adding up' if measure is not None else 'counting'} the rows whose {found[0]} is {found[1]!r}, "
                 if found else "")
        names = ", ".join(f"{k} ({totals[k]:g})" for k in sorted(said, key=lambda k: -totals[k]))
        most = "the fewest" if low else "the most"
        return (f"the answer names {names}, but {among}{' and '.join(tops[:5])} "
                f"{'has' if len(tops) == 1 else 'have'} {most} ({best:g}); "
                f"{call_to_copy('table_query', {'sql': sql})}")
    return ""


_WHICH_MONTH = re.compile(r"\b(?:which|what)\s+month\b", re.IGNORECASE)
#: a month an answer names as "2026-02" (by its name: ``table_goal.MONTH_SAID``)
_YEAR_MONTH = re.compile(r"\b\d{4}-(\d{2})\b")


def _not_the_top_month(answer: str, goal: str, table: Any, low: bool) -> str | None:
    """For "which month had the highest (lowest) ...": the doubt when the months the
    answer names are not the top of the number column summed per month of the table's
    first date column ("" when they are; None when the goal asks no month, or the table
    or the answer gives none). A held-out task at 2e1bee7: the month of the one highest
    row answered, right only by chance."""
    dated = next((c for c in table.columns if c.sql_type in ("DATE", "TIMESTAMP")), None)
    number = number_column(table, goal)
    if not _WHICH_MONTH.search(goal) or dated is None or number is None or table.rows > 5000:
        return None
    values = next(c.values for c in table.columns if c.name == number)
    totals: dict[int, float] = {}
    for day, v in zip(dated.values, values):
        if hasattr(day, "month") and isinstance(v, (int, float, decimal.Decimal)) and not isinstance(v, bool):
            totals[day.month] = totals.get(day.month, 0.0) + float(v)
    said = {month_number(m.group("name")) for m in MONTH_SAID.finditer(answer)} | {
        int(m.group(1)) for m in _YEAR_MONTH.finditer(answer) if 1 <= int(m.group(1)) <= 12}
    if len(totals) < 2 or not said:
        return None
    best = (min if low else max)(totals.values())
    tops = {k for k, t in totals.items() if t == best}
    if said & tops and not said - tops:
        return ""
    names = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
             "November", "December")
    sql = (f"SELECT strftime({dated.name}, '%Y-%m') AS month, SUM({number}) FROM {table.name} GROUP BY 1 "
           f"ORDER BY 2 {'ASC' if low else 'DESC'}")
    top = " and ".join(names[k - 1] for k in sorted(tops))
    return (f"the answer names {', '.join(names[k - 1] for k in sorted(said))}, but summed per month, {top} "
            f"{'has' if len(tops) == 1 else 'have'} the {'lowest' if low else 'highest'} {number} ({best:g}); "
            f"{call_to_copy('table_query', {'sql': sql})}")


def bounded_total_wrong(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks for one total of the one table file it names,
    within bounds the goal gives (the value of a text column, a date or month, an
    amount: :func:`table_goal.goal_filters`) or of two number columns or more added
    together (:func:`table_goal.combined_columns`), and the answer gives numbers, none
    of them the sum of the number column(s) over those rows ("" otherwise), with that
    sum and its query. A held-out task at 2e1bee7: "How much did we spend on travel in
    October ...?" got every month's travel as the hint's example; one (PJ) at 9fa21b4:
    "What were Berlin's Q1 and Q2 sales combined in regions.xlsx?" answered 2100, Q1's
    alone (2100 + 1875 = 3975)."""
    files = [f for f in goal_files(ev.goal)[1] if f.lower().endswith(TABLE_FILES)]
    # a share asks no total: a held-out task (SC) at 5910adb, "What percentage of the total budget ... goes to rent?"
    # answered 40% and was asked for the rent's sum
    if not asks_only_a_question(ev.goal) or not _TOTAL_ASKED.search(ev.goal) or _GROUPS_ASKED.search(ev.goal) \
            or AVERAGE.search(ev.goal) or _PERCENT_ASKED.search(ev.goal) or len(files) != 1:
        return ""
    said = set(_source_numbers([answer]))
    tables = _file_tables(ev.workspace, files[0]) if said else []
    for table in tables if len(tables) == 1 else []:  # a workbook's sheets: which ones is the sheet checks' business
        number, bounds = number_column(table, ev.goal), goal_filters(table, ev.goal)
        columns = combined_columns(table, ev.goal) or ([number] if number else [])
        if not columns or not (bounds or len(columns) > 1) or table.rows > 5000:
            continue
        values = {c.name: c.values for c in table.columns}
        total = sum(float(values[col][i]) for col in columns for i in range(table.rows)
                    if isinstance(values[col][i], (int, float, decimal.Decimal))
                    and all(f.keep(values[f.column][i]) for f in bounds))
        total = round(total, 6)
        if normalise_number(f"{total:.6f}") in said:
            return ""
        where = " AND ".join(f.sql for f in bounds)
        whose = ", ".join(f"whose {f.said.replace(' ', ' is ', 1)}" if f.column == f.said.split(" ")[0] else f.said
                          for f in bounds)
        sql = f"SELECT {' + '.join(f'SUM({c})' for c in columns)} FROM {table.name}" + (f" WHERE {where}" if where
                                                                                        else "")
        rows = f"the rows of {files[0]} {whose}," if len(columns) == 1 else \
            f"{' and '.join(columns)} of the rows of {files[0]}{' ' + whose if whose else ''} together"
        return (f"{rows} add up to {total:g}, and the answer does not give that; "
                f"{call_to_copy('table_query', {'sql': sql})}")
    return ""


#: "How many X": X, the thing counted
_HOW_MANY = re.compile(r"\b(?:how many|number of)\s+(?P<what>[a-z]+)", re.IGNORECASE)
#: "how many kilometres (euros, hours)": a quantity read or added up, never a count of rows (batch KZ at 6a1c8bc,
#: KZE: "How many kilometres is it from Hamburg to Munich" taken for how many rows are Hamburg and Munich)
_MEASURES = frozenset("euros euro dollars dollar cents francs yen pounds percent points calories degrees kwh bytes "
                      "kilobytes megabytes gigabytes".split())


def _a_measure(what: str) -> bool:
    """Whether ``what`` (the word after "how many") is a unit of measure or money."""
    from .units import _UNITS

    return what.lower() in _UNITS or what.lower() in _MEASURES
#: a small count written as a word ("Three: Concert, Dinner and Party.")
_COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve")


def bounded_count_wrong(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks how many rows of the one table file it names lie
    within bounds the goal gives (:func:`table_goal.goal_filters`), and the answer gives
    neither that count as a number nor, up to twelve, as a word ("" otherwise), with
    the count and its query. "How many hours ..." where hours is a number column is a
    sum, not a count. A held-out task at 1de0702: "How many events are in December 2026
    in events.csv?" got the events counted per name as the hint's example."""
    from .hierarchy import reports_under

    files = [f for f in goal_files(ev.goal)[1] if f.lower().endswith(TABLE_FILES)]
    many = _HOW_MANY.search(ev.goal)
    if reports_under(ev.goal, ev.workspace) is not None:  # every level asked: hierarchy.py counts (JZG2 at 238dd43)
        return ""
    if not asks_only_a_question(ev.goal) or many is None or _GROUPS_ASKED.search(ev.goal) or len(files) != 1 \
            or _a_measure(many.group("what")):
        return ""
    tables = _file_tables(ev.workspace, files[0])
    for table in tables if len(tables) == 1 else []:
        bounds = goal_filters(table, ev.goal)
        what = many.group("what").lower()[:4]
        if not bounds or table.rows > 5000 or any(
                is_number(c) and c.name.lower()[:4] == what for c in table.columns):
            continue
        values = {c.name: c.values for c in table.columns}
        count = sum(all(f.keep(values[f.column][i]) for f in bounds) for i in range(table.rows))
        said = _source_numbers([answer])
        word = _COUNT_WORDS[count] if count < len(_COUNT_WORDS) else ""
        if str(count) in said or (word and re.search(rf"\b{word}\b", answer, re.IGNORECASE)):
            return ""
        sql = f"SELECT COUNT(*) FROM {table.name} WHERE {' AND '.join(f.sql for f in bounds)}"
        whose = ", ".join(f"whose {f.said.replace(' ', ' is ', 1)}" if f.column == f.said.split(" ")[0] else f.said
                          for f in bounds)
        return (f"the rows of {files[0]} {whose} number {count}, and the answer does not give that; "
                f"{call_to_copy('table_query', {'sql': sql})}")
    return ""


def _question_table(ev: Evidence) -> tuple[str, Any] | None:
    """``(file, table)`` when the goal is a question that names one table file and that
    file holds one table of at most 5,000 rows; None otherwise."""
    files = [f for f in goal_files(ev.goal)[1] if f.lower().endswith(TABLE_FILES)]
    if not asks_only_a_question(ev.goal) or len(files) != 1:
        return None
    tables = _file_tables(ev.workspace, files[0])
    return (files[0], tables[0]) if len(tables) == 1 and tables[0].rows <= 5000 else None


def value_counts_wrong(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks how many rows of the one table file it names hold
    each of two or more values of a text column (:func:`table_goal.goal_values`: "How
    many tickets are open, closed and pending?") and the answer does not give every
    value with its count ("" otherwise), with the counts to copy and their query. A
    held-out task at 911f35c: closed's count alone, 3, answered as "The total number of
    tickets ... is 3"."""
    many = _HOW_MANY.search(ev.goal)
    asked = _question_table(ev) if many and not _a_measure(many.group("what")) else None
    named = goal_values(asked[1], ev.goal) if asked else None
    if asked and named:
        (name, table), (column, values) = asked, named
        cells = [str(v).strip().lower() for v in next(c for c in table.columns if c.name == column).values]
        counts = [(v, cells.count(v.lower())) for v in values]
        said = _source_numbers([answer])
        if all(re.search(rf"(?<!\w){re.escape(v)}(?!\w)", answer, re.IGNORECASE) and (
                str(n) in said or (n < len(_COUNT_WORDS) and re.search(rf"\b{_COUNT_WORDS[n]}\b", answer,
                                                                       re.IGNORECASE))) for v, n in counts):
            return ""
        copy = ", ".join(f"{v}: {n}" for v, n in counts)
        return (f"the task asks how many rows of {name} are {', '.join(values[:-1])} and {values[-1]}, each; "
                f"the answer does not give each one's count ({copy}, from "
                f"{call_to_copy('table_query', {'sql': value_counts_query(table.name, column, values)})}); "
                + answer_to_copy(copy + "."))
    return ""


def nth_ranked_wrong(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks for the row ranked second (third ...) by a number
    column of the one table file it names (:func:`table_goal.nth_ranked`) and the answer
    gives another row's value of that column and not the ranked one's ("" otherwise, and
    when the ranked value is tied), with the row to copy and its query. A held-out task
    at bad5969: "What is the second-highest score in scores.csv?" answered 95, the highest
    (Emil's 91 is second)."""
    asked = _question_table(ev)
    found = nth_ranked(asked[1], ev.goal) if asked else None
    if not (asked and found):
        return ""
    (name, table), (column, n, low, sql) = asked, found
    names = [c.name for c in table.columns]
    at = names.index(column)
    rows = [tuple(c.values[i] for c in table.columns) for i in range(table.rows)]
    rows = [r for r in rows if isinstance(r[at], (int, float, decimal.Decimal)) and not isinstance(r[at], bool)]
    if len(rows) < n:
        return ""
    rows.sort(key=lambda r: r[at], reverse=not low)
    want = rows[n - 1][at]
    if sum(r[at] == want for r in rows) > 1:
        return ""
    said = _source_numbers([answer])
    if normalise_number(str(want)) in said:
        return ""
    others = [r[at] for r in rows if r[at] != want and normalise_number(str(r[at])) in said]
    if not others:
        return ""
    row = ", ".join(str(v) for v in rows[n - 1] if v is not None)
    return (f"the answer gives {others[0]}, but the {NTH_RANKED.search(ev.goal).group(0).lower()} {column} of "
            f"{name} is {want} ({row}; {call_to_copy('table_query', {'sql': sql})}); "
            + answer_to_copy(f"{row}."))


def compared_columns_wrong(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks which rows of the one table file it names are
    below (above) another column of their own (:func:`table_goal.column_comparison`)
    and the answer names a row that is not, or leaves one out, by the first text
    column's values ("" otherwise), with the rows to copy and their query. A held-out
    task at bad5969: "Which items in stock.csv are below their reorder level?" answered
    Paper, Toner, Folders (Paper and Staples are)."""
    asked = _question_table(ev)
    found = column_comparison(asked[1], ev.goal) if asked else None
    labels = [c for c in asked[1].columns if c.sql_type == "VARCHAR"] if found else []
    if not (asked and found and labels):
        return ""
    (name, table), (column, op, other, sql) = asked, found
    values = {c.name: c.values for c in table.columns}
    test = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}[op]
    rows = [(str(label).strip(), a, b) for label, a, b in zip(labels[0].values, values[column], values[other])
            if label and a is not None and b is not None]
    want = [r[0] for r in rows if test(r[1], r[2])]

    def named(label: str) -> bool:
        return re.search(rf"(?<!\w){re.escape(label)}(?!\w)", answer, re.IGNORECASE) is not None

    wrong = [r[0] for r in rows if r[0] not in want and named(r[0])]
    missing = [w for w in want if not named(w)]
    if not wrong and not missing:
        return ""
    what = f"names {wrong[0]}, whose {column} is not {op} its {other}" if wrong else f"leaves out {missing[0]}"
    copy = ", ".join(want) + "." if want else f"None of the rows of {name} has its {column} {op} its {other}."
    return (f"the answer {what}; the rows of {name} whose {column} {op} {other} are {', '.join(want) or 'none'} "
            f"({call_to_copy('table_query', {'sql': sql})}); " + answer_to_copy(copy))


def range_wrong(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks for the difference between the highest and the
    lowest value of a number column of the one table file it names
    (:func:`table_goal.range_query`) and the answer does not give it ("" otherwise),
    with its query and the answer to copy. A held-out task at 911f35c: MAX and MIN of
    the prices queried (89.00, 19.99), answered "This is the final answer for the
    user's query."."""
    asked = _question_table(ev)
    found = range_query(asked[1], ev.goal) if asked else None
    if asked and found:
        (name, table), (column, sql) = asked, found
        values = [decimal.Decimal(str(v)) for v in next(c for c in table.columns if c.name == column).values
                  if isinstance(v, (int, float, decimal.Decimal)) and not isinstance(v, bool)]
        if len(values) < 2:
            return ""
        high, low = max(values), min(values)
        spread = high - low
        if normalise_number(str(spread)) in _source_numbers([answer]):
            return ""
        return (f"the {column} values of {name} go from {low} to {high}, a difference of {spread}, and the answer "
                f"does not give it ({call_to_copy('table_query', {'sql': sql})}); "
                + answer_to_copy(f"The difference between the highest {column.replace('_', ' ')} ({high}) and the "
                                 f"lowest ({low}) is {spread}."))
    return ""


def difference_wrong(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks how much more (less) one amount is than another,
    both named as values of one text column of the one table file it names (a
    workbook's sheet names count: its table of every sheet's rows has a column sheet;
    :func:`table_goal.two_values`), and the answer does not give the difference of the
    two sums, either sign ("" otherwise), with the two sums and the query. A held-out
    task at 1de0702: "How much more did I spend in 2026 than in 2025? The numbers are
    in spending.xlsx." queried both sheets' sums (15250, 15100) and answered 1300."""
    files = [f for f in goal_files(ev.goal)[1] if f.lower().endswith(TABLE_FILES)]
    if not asks_only_a_question(ev.goal) or len(files) != 1:
        return ""
    tables = _file_tables(ev.workspace, files[0], union=True)
    whole = [t for t in tables if ", all " in t.source] or tables
    for table in whole if len(whole) == 1 else []:
        pair, number = two_values(table, ev.goal), number_column(table, ev.goal)
        if pair is None or number is None or table.rows > 5000:
            continue
        column, first, second = pair
        values = {c.name: c.values for c in table.columns}
        sums = [round(sum(float(n) for v, n in zip(values[column], values[number])
                          if str(v) == which and isinstance(n, (int, float, decimal.Decimal))), 6)
                for which in (first, second)]
        gap = round(sums[0] - sums[1], 6)
        if normalise_number(f"{abs(gap):.6f}") in set(_source_numbers([answer])):
            return ""
        sql = (f"SELECT SUM({number}) FILTER (WHERE {column} = '{first}') - SUM({number}) FILTER (WHERE {column} = "
               f"'{second}') AS difference FROM {table.name}")
        return (f"the rows of {files[0]} for {first!r} add up to {sums[0]:g} and those for {second!r} to "
                f"{sums[1]:g}, a difference of {gap:g}, and the answer does not give that; "
                f"{call_to_copy('table_query', {'sql': sql})}")
    return ""


#: a question comparing two table files: "Which customers are in both a.csv and b.csv?", "... in a.csv but not in
#: b.csv?", "... missing from b.csv?"
_IN_BOTH = re.compile(r"\b(?:in|on|from)\s+both\b|\bboth\s+(?:files|lists|tables)\b|\bcommon\s+to\b|\bin\s+common\b"
                      r"|\bappear\w*\s+in\s+(?:both|each)\b", re.IGNORECASE)
_BUT_NOT = re.compile(r"\bbut\s+not\s+(?:in\s+|on\s+)?(?P<b>\S+\.(?:csv|tsv|xlsx))"
                      r"|\bmissing\s+from\s+(?P<m>\S+\.(?:csv|tsv|xlsx))"
                      r"|\bnot\s+(?:in|on)\s+(?P<n>\S+\.(?:csv|tsv|xlsx))"
                      # batch Z at 6696c34 (ZB): "Which customers in customers.csv have not placed any order in
                      # orders.csv?" answered C2, C4, C5 (C5 has an order)
                      r"|\b(?:not|never|without)\s+(?:[a-z]+\s+){0,4}?(?:in|on|from)\s+(?P<o>\S+\.(?:csv|tsv|xlsx))",
                      re.IGNORECASE)


class Comparison(NamedTuple):
    """Two table files compared on a column they share: ``sql`` the query, ``said``
    what it picks in words, ``values`` its answer, ``others`` the key values it leaves out."""

    sql: str
    said: str
    values: list[str]
    others: list[str]
    #: for each key value, the other values of its row that name it too (a customer's name for its id)
    aliases: dict[str, list[str]] = {}


def compared_tables(goal: str, workspace: str | Path) -> Comparison | None:
    """The comparison a question asks of the two table files it names, when it asks
    for the values in both (INTERSECT) or in one but not the other (EXCEPT), on the
    first text column both have with no value twice in either; None otherwise. A
    held-out task at 1de0702: "Which customers are in both customers_a.csv and
    customers_b.csv?" was answered "Lena and Omar" (Omar and Rui are in both)."""
    files = [f for f in goal_files(goal)[1] if f.lower().endswith(TABLE_FILES)]
    files = list(dict.fromkeys(files))
    both, but = _IN_BOTH.search(goal), _BUT_NOT.search(goal)
    if len(files) != 2 or not (both or but):
        return None
    tables = [_file_tables(workspace, f) for f in files]
    if any(len(t) != 1 for t in tables):
        return None
    first, second = tables[0][0], tables[1][0]
    if but is not None:
        excluded = Path(but.group("b") or but.group("m") or but.group("n") or but.group("o")).name.lower()
        if Path(files[0]).name.lower() == excluded:
            first, second, files = second, first, files[::-1]
    keyed = {c.name: c for c in second.columns}
    key = next((c.name for c in first.columns if c.sql_type == "VARCHAR" and c.name in keyed
                and keyed[c.name].sql_type == "VARCHAR" and len(set(map(str, c.values))) == len(c.values)
                and len(set(map(str, keyed[c.name].values))) == len(keyed[c.name].values)), None)
    other = key
    if key is None:  # a key of the first the second refers to under another name (customers.id, orders.customer_id)
        key, other = _referenced_key(first, second)
        if key is None or other is None:
            return None
    a = [str(v) for c in first.columns if c.name == key for v in c.values if v is not None]
    b = {str(v) for c in second.columns if c.name == other for v in c.values if v is not None}
    if but is None:
        values, op, said = [v for v in a if v in b], "INTERSECT", f"in both {files[0]} and {files[1]}"
    else:
        values, op, said = [v for v in a if v not in b], "EXCEPT", f"in {files[0]} but not in {files[1]}"
    others = [v for v in dict.fromkeys([*a, *sorted(b)]) if v not in values]
    names = [c for c in first.columns if c.name != key and c.sql_type == "VARCHAR"
             and len(set(map(str, c.values))) == len(c.values)]
    keys = [c.values for c in first.columns if c.name == key][0]
    aliases = {str(k): [str(n.values[i]) for n in names if n.values[i] is not None] for i, k in enumerate(keys)}
    if other != key:
        shown = ", ".join([key, *(n.name for n in names[:2])])
        return Comparison(f"SELECT {shown} FROM {first.name} WHERE {key} {'NOT ' if but else ''}IN (SELECT {other} "
                          f"FROM {second.name}) ORDER BY 1", said, values, others, aliases)
    return Comparison(f"SELECT {key} FROM {first.name} {op} SELECT {key} FROM {second.name} ORDER BY 1", said,
                      values, others, aliases)


def _referenced_key(first: Any, second: Any) -> tuple[str | None, str | None]:
    """``(key of first, column of second)``: a text column of ``first`` with no value
    twice, and a text column of ``second`` whose every value is one of its values (the
    one named after ``first``'s table or its key first: customer_id for customers.id);
    ``(None, None)`` when there is none."""
    keys = [c for c in first.columns if c.sql_type == "VARCHAR" and len(set(map(str, c.values))) == len(c.values)]
    stem = first.name.lower().rstrip("s")
    refs = sorted((c for c in second.columns if c.sql_type == "VARCHAR"),
                  key=lambda c: stem not in c.name.lower())
    for ref in refs:
        held = {str(v) for v in ref.values if v is not None}
        for key in keys:
            if held and held <= {str(v) for v in key.values}:
                return key.name, ref.name
    return None, None


#: a goal asking which rows share a value: "Which two products have the same price?", "duplicate emails", "share
#: a birthday"
SAME_VALUE = re.compile(r"\b(?:the\s+)?same\s+(?P<a>[a-z]+)|\bduplicated?\s+(?P<b>[a-z]+)|"
                        r"\bshare\s+(?:the\s+|a\s+|an\s+)?(?P<c>[a-z]+)", re.IGNORECASE)


def same_value_groups(table: Any, goal: str) -> tuple[str, str, list[list[str]]] | None:
    """``(column, label column, the labels of each group of rows sharing a value of
    the column)`` when ``goal`` asks which rows share a value of a column it names
    (:data:`SAME_VALUE`: "the same price") and ``table`` (500 rows at most) has a text
    column with no value twice to name the rows; None otherwise."""
    m = SAME_VALUE.search(goal)
    word = (m.group("a") or m.group("b") or m.group("c") or "").lower().rstrip("s")[:4] if m else ""
    column = next((c for c in table.columns if len(word) >= 3 and c.name.lower()[:4] == word), None)
    label = next((c for c in table.columns if c is not column and c.sql_type == "VARCHAR"
                  and len({str(v) for v in c.values}) == len(c.values)), None)
    if column is None or label is None or table.rows > 500:
        return None
    groups: dict[str, list[str]] = {}
    for v, n in zip(column.values, label.values):
        if v is not None and n is not None:
            key = normalise_number(str(v)) if isinstance(v, (int, float, decimal.Decimal)) else str(v).strip().lower()
            groups.setdefault(key, []).append(str(n))
    return column.name, label.name, [g for g in groups.values() if len(g) > 1]


def same_value_query(table: Any, goal: str) -> str:
    """``SELECT price, string_agg(product, ', ') AS products, COUNT(*) AS count FROM
    prices GROUP BY price HAVING COUNT(*) > 1 ORDER BY count DESC`` when the goal asks
    which rows share a value of a column it names (:func:`same_value_groups`); ""
    otherwise. Batch Z at 6696c34 (ZE): "Which two products in prices.csv have the
    same price?" got no hint, and grepped for each product."""
    found = same_value_groups(table, goal)
    if found is None:
        return ""
    column, label, _ = found
    return (f"SELECT {column}, string_agg({label}, ', ') AS {label}s, COUNT(*) AS count FROM {table.name} "
            f"GROUP BY {column} HAVING COUNT(*) > 1 ORDER BY count DESC")


def same_value_wrong(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks which rows of the one table file it names share
    a value (:func:`same_value_groups`) and the answer names a row in no such group,
    or, one group only, leaves one of it out ("" otherwise), with the query to copy.
    Batch Z at 6696c34 (ZE): "Which two products in prices.csv have the same price?"."""
    files, tables = _asked_tables(ev)
    for table in tables:
        found = same_value_groups(table, ev.goal)
        if found is None:
            continue
        column, label, groups = found
        names = [str(v) for c in table.columns if c.name == label for v in c.values if v is not None]
        said = [n for n in names if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", answer, re.IGNORECASE)]
        shared = {n for g in groups for n in g}
        wrong = [n for n in said if n not in shared]
        missing = [n for n in groups[0] if n not in said] if len(groups) == 1 else []
        if not wrong and not missing:
            return ""
        sql = same_value_query(table, ev.goal)
        listed = "; ".join(", ".join(g) for g in groups) or "none"
        how = f"names {', '.join(wrong)}, which share{'s' if len(wrong) == 1 else ''} no {column} with another " \
              "row" if wrong else f"leaves out {', '.join(missing)}"
        return (f"the rows of {files[0]} that share a {column} are {listed}; the answer {how}; "
                f"{call_to_copy('table_query', {'sql': sql})}")
    return ""


def comparison_wrong(answer: str, ev: Evidence) -> str:
    """The doubt when a question compares two table files (:func:`compared_tables`) and
    the answer leaves out a value the comparison gives or names one it does not ("" otherwise)."""
    if not asks_only_a_question(ev.goal):
        return ""
    found = compared_tables(ev.goal, ev.workspace)
    if found is None:
        return ""

    def named(v: str) -> bool:
        return any(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", answer, re.IGNORECASE) is not None
                   for n in [v, *found.aliases.get(v, [])])

    missing = [v for v in found.values if not named(v)]
    extra = [v for v in found.others if named(v)]
    if not missing and not extra:
        return ""
    wrong = (f"leaves out {', '.join(missing)}" if missing else "") + (" and " if missing and extra else "") + \
        (f"names {', '.join(extra)}, which {'is' if len(extra) == 1 else 'are'} not" if extra else "")
    listed = ", ".join(found.values) if found.values else "none"
    return (f"the values {found.said} are {listed}; the answer {wrong}; "
            f"{call_to_copy('table_query', {'sql': found.sql})}")


#: an answer that says no row is one: "There are no employees who ...", "None of them ..."
_NO_ROW = re.compile(r"\b(no|none|nobody|no one|not any)\b", re.IGNORECASE)
#: a question asking for rows: "which invoices ...", "list the ...", "who ..."
#: a question for rows: "which", "list", and "who" opening a question ("Who in staff.csv ...?"), not after a noun
#: ("the average salary of the employees ... who joined before 2020": batch GZ at 833d98d, GZA, doubted as naming
#: none of the rows)
_ASKS_ROWS = re.compile(r"\b(which|list)\b|(?:^|[.!?;:,]\s*)\s*who\b", re.IGNORECASE)


def _file_tables(workspace: str | Path, rel: str, *, union: bool = False) -> list:
    """The tables (:class:`tools.tables.loading.Table`) of the workspace file ``rel``, a
    workbook's table of every sheet's rows only when ``union``; [] when they cannot be
    loaded."""
    from sandbox import Workspace
    from tools.base import ToolContext
    from tools.tables.loading import load_tables

    try:
        tables = load_tables(ToolContext(workspace=Workspace(Path(workspace))))[0]
    except Exception:  # noqa: BLE001 - a file that cannot be loaded is another check's business
        return []
    return tables_named(tables, rel, union=union)


def tables_named(tables: Sequence[Any], rel: str, *, union: bool = False) -> list:
    """The tables of ``tables`` (:class:`tools.tables.loading.Table`) loaded from the
    workspace file ``rel``: the file itself, else a file of its name in a folder; a
    workbook's table of every sheet's rows only when ``union``."""
    # never one whose name ends so (a held-out task at b7b6dee: combined_contacts.csv, made by the task, taken for
    # contacts.csv, and the split's check of munich.csv skipped)
    files = [t.source.split(",")[0].strip().lower() for t in tables]
    want = rel.replace("\\", "/").lstrip("./").lower()
    name = Path(rel).name.lower()
    mine = [t for t, f in zip(tables, files) if f == want] or \
        [t for t, f in zip(tables, files) if f.rsplit("/", 1)[-1] == name]
    return [t for t in mine if union or ", all " not in t.source]


#: a question about what is left after something is taken off: it needs a subtraction
_LEFT = re.compile(r"\b(left|remaining|remains?|balance|outstanding|net|still (?:owe[sd]?|due|open|available)|"
                   r"difference)\b", re.IGNORECASE)
#: a minus between two operands in SQL ("allowance - taken", "SUM(a)-SUM(b)"), not a negative literal
_MINUS = re.compile(r"[\w)\]\"`]\s*-\s*[\w(\"`]")


def nothing_subtracted(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks what is left ("days left", "the outstanding
    amount", "the balance") and the answer's number comes from a ``table_query``
    whose SQL subtracts nothing: a column as it stands, before anything is taken
    off ("" otherwise). A held-out task at 2d81ae3: "Who has the most vacation days
    left in vacation.xlsx, and how many?" was answered "Jonas, with 30 days", the
    highest Allowance; Petra has 22 left (Allowance 25, Taken 3)."""
    if "?" not in ev.goal or not _LEFT.search(ev.goal):
        return ""
    said = set(_numbers(_LIST_MARKER.sub(" ", answer))) - set(_numbers(ev.goal))
    for c in reversed(ev.calls):
        if c.name != "table_query" or c.status != "done" or c.error or not said & _source_numbers([c.result or ""]):
            continue
        sql = " ".join(str(c.arguments.get("sql", "")).split())
        if _MINUS.search(sql) or re.search(rf"{_LEFT.search(ev.goal).group(1)[:6]}", sql, re.IGNORECASE):
            return ""  # a difference taken, or a column of what is left ("balance", "days_left")
        if re.search(rf"'{re.escape(_LEFT.search(ev.goal).group(0).split()[-1])}'", sql, re.IGNORECASE):
            return ""  # "still open" as a status the query keeps to (a held-out task at f1aaa58: "How many tasks
            # are still open?" answered 3, right, doubted twice and handed off)
        files = [f for f in goal_files(ev.goal)[1] if f.lower().endswith(TABLE_FILES)]
        tables = [t for f in files for t in _file_tables(ev.workspace, f)]
        if tables and all(sum(map(is_number, t.columns)) < 2 for t in tables):
            return ""  # no second number to take off: the column is what is left (a held-out task (PH) at 9fa21b4:
            # "Which product in inventory.csv has the lowest stock, and how many are left?" answered right, handed off)
        header, rows = (c.data or {}).get("columns") or [], (c.data or {}).get("rows") or []
        cols = [str(header[i]) for i in range(len(header))
                if any(i < len(r) and said & set(_numbers(str(r[i]))) for r in rows)]
        what = f"its {', '.join(cols)} is a column as it stands" if cols else "its numbers are columns as they stand"
        return (f"the question asks what is {_LEFT.search(ev.goal).group(0)}, but table_query at step {c.step} "
                f"subtracted nothing: {what}, before anything used, paid or taken is taken off. If the table has "
                "such a column, query the difference (SELECT ..., a - b AS left FROM ... ORDER BY 2 DESC) and answer "
                "from what it returns")
    return ""


_NOT_ASKED = frozenset("""much many does there what which whose where when tell find give show know file""".split())


def _number_from_another_line(answer: str, ev: Evidence) -> str:
    """The doubt when a question's answer gives one number whose every source line in
    this task's results shares none of the question's words, while another line of
    those results shares two or more of them and holds a number ("" otherwise).
    docx_lookup at 36d1140: asked "How much is the monthly rent in lease.docx?",
    Qwen 1.5B answered "2,900" from "[p3] ... security deposit of EUR 2,900" though
    "[p4] The monthly rent is EUR 1,450" was in the same result."""
    if not asks_only_a_question(ev.goal) or _WHICH_FILE.search(ev.goal):  # a file's size is not its answer
        return ""
    said = _numbers(answer)
    if len(set(said)) != 1:
        return ""
    named = {w.lower() for _, rel in _paths(ev.goal) for w in _WORD.findall(rel)}
    topic = {w.lower() for w in _WORD.findall(ev.goal)} - _COMMON - _NOT_ASKED - _NOT_TOPIC - named
    if len(topic) < 2:
        return ""
    want = set(said)

    def shared(line: str) -> int:
        return sum(bool(re.search(rf"\b{re.escape(w[:5])}", line, re.IGNORECASE)) for w in topic)

    done = [c for c in ev.calls if c.status == "done" and not c.error and c.name != "finish"]
    lines = [ln.strip() for c in done for ln in _data_of(c.result or "").splitlines() if _numbers(ln)]
    sources = [ln for ln in lines if want & set(_numbers(ln))]
    # a table row's words are in its header, not in the row: xlsx_lookup at b5a954c, "Food | 591" under
    # "category | sum(amount)" was doubted for the table_query hint line below the fenced sheet. A query's own
    # value is its answer (a held-out task at 08145d1: AVG(score) gave 85, and "... is 85." was doubted as the
    # CSV row "Jan,B,85", twice, and handed off)
    queried = {n for c in done if c.name == "table_query" for n in _numbers(_data_of(c.result or ""))}
    if not sources or want & queried or any(shared(ln) or ln.count("|") >= 2 for ln in sources):
        return ""
    best = max(lines, key=shared)
    if shared(best) < 2:
        return ""
    about = ", ".join(sorted(w for w in topic if re.search(rf"\b{re.escape(w[:5])}", best, re.IGNORECASE)))
    return (f"the answer gives {said[0]}, which comes from '{sources[0][:90]}', but the task asks about {about}, "
            f"which '{best[:90]}' is about; answer with the value the task asks for")


#: a question for the file with the most or the fewest pages: "Which PDF in this folder has the most pages?"
_PAGES_EXTREME = re.compile(r"\bwhich\b[^?.!]{0,60}?\b(?:most|fewest|least|highest number of|lowest number of|more|"
                            r"fewer)\s+pages\b|\b(?:longest|shortest)\b[^?.!]{0,20}?\b(?:pdf|document|file)\b",
                            re.IGNORECASE)
#: a PDF's page count as pdf_info ("/ws/a.pdf:\npages: 2") and pdf_read ("/ws/a.pdf: 2 pages.") show it
_PAGE_COUNT = re.compile(r"^(?P<path>[^\n]+?\.pdf):\s*(?:\n\s*pages:\s*(?P<a>\d+)|(?P<b>\d+)\s+pages?\b)",
                         re.IGNORECASE | re.MULTILINE)


def most_pages_wrong(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks which PDF has the most (or the fewest) pages and
    the answer does not name the one this task's pdf_info or pdf_read results show
    with the most (fewest) pages, or names another beside it ("" otherwise, and when
    two PDFs tie). A held-out task at 01015b4: "Which PDF in this folder has the most
    pages?" read a.pdf (2 pages), b.pdf (4) and c.pdf (1), and answered a.pdf."""
    m = _PAGES_EXTREME.search(ev.goal)
    if m is None or not asks_only_a_question(ev.goal):
        return ""
    counts: dict[str, int] = {}
    for c in ev.calls:
        if c.name in ("pdf_info", "pdf_read") and c.status == "done" and not c.error:
            for hit in _PAGE_COUNT.finditer(_data_of(c.result or "")):
                name = hit.group("path").strip().replace("\\", "/").rpartition("/")[2]
                counts[name] = int(hit.group("a") or hit.group("b"))
    try:  # the PDFs of the workspace (not its hidden folders), for a question about them all
        root = Path(ev.workspace)
        pdfs = sorted(str(f.relative_to(root)) for f in root.rglob("*") if f.suffix.lower() == ".pdf"
                      and f.is_file() and not any(part.startswith(".") for part in f.relative_to(root).parts))[:50]
    except OSError:
        pdfs = []
    unseen = [f for f in pdfs if f.rpartition("/")[2] not in counts]
    if unseen and len(pdfs) > 1:
        # a held-out task at 9a1aa10: pdf_info on the folder (refused) twice, then "b.pdf with 1.4 KB of content"
        return (f"the task asks which PDF has the most or fewest pages, and this task has not seen the page count "
                f"of {', '.join(unseen[:10])}; {call_to_copy('pdf_info', {'path': unseen[0]})}, and so on for each")
    if len(counts) < 2:
        return ""
    low = bool(re.search(r"\b(?:fewest|least|lowest|fewer|shortest)\b", m.group(0), re.IGNORECASE))
    best = (min if low else max)(counts.values())
    winners = [n for n, k in counts.items() if k == best]
    named = [n for n in counts if re.search(rf"(?<![\w.-]){re.escape(n)}(?![\w-])", answer, re.IGNORECASE)]
    if len(winners) > 1 or named == winners:
        return ""
    seen = ", ".join(f"{n} {k}" for n, k in sorted(counts.items(), key=lambda kv: -kv[1]))
    word = "fewest" if low else "most"
    return (f"the answer does not name the PDF with the {word} pages: this task's results show {seen} pages; "
            f"answer with that file, e.g. the answer to copy: \"{winners[0]} has the {word} pages ({best}).\"")


#: a question for what is owed: "How much do I have to pay for invoice.pdf?", "what is the amount due?"
_DUE_ASKED = re.compile(r"\bhow much\b[^?.!]*?\b(?:pay|owe|owed|due|payable)\b|\b(?:amount|balance|total)\s+"
                        r"(?:due|owed|payable|to pay)\b", re.IGNORECASE)
#: a document line stating what is owed ("Total due: 1,428.00 EUR", "Balance payable 90.00")
_DUE_LINE = re.compile(r"\b(?:due|payable|owed|owing|to pay|balance)\b", re.IGNORECASE)


def amount_due_wrong(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks how much is to be paid, a document this task read
    states it on a line of its own ("Total due: 1,428.00 EUR": a word of owing and an
    amount with cents), and the answer gives none of those lines' amounts but another
    amount of the document ("" otherwise). A held-out task at 11a1600: "How much do I
    have to pay for invoice.pdf, and by when?" was answered "228.00", the invoice's VAT."""
    if not asks_only_a_question(ev.goal) or not _DUE_ASKED.search(ev.goal):
        return ""
    lines = [ln.strip() for c in ev.calls if c.name in _DOCUMENT_READS and c.status == "done" and not c.error
             for ln in _data_of(c.result or "").splitlines()]
    due = [ln for ln in lines if _DUE_LINE.search(ln) and _LINE_AMOUNT.search(ln)]
    amounts = {normalise_number(a.replace(",", "")) for ln in lines for a in _LINE_AMOUNT.findall(ln)}
    said = {normalise_number(n.replace(",", "")): n for n in re.findall(r"\d[\d,]*(?:\.\d+)?", answer)}
    owed = {normalise_number(a.replace(",", "")) for ln in due for a in _LINE_AMOUNT.findall(ln)}
    other = [n for plain, n in said.items() if plain in amounts]
    if not due or owed & set(said) or not other:
        return ""
    return (f"the task asks how much is to be paid, and the answer gives {other[0]}, which is not "
            f"the amount the document states as owed: '{due[0][:90]}'" + (f", '{due[1][:90]}'" if len(due) > 1 else "")
            + "; answer with that amount")


_SMALL_WORD = re.compile(r"[^\W\d_]{3,}")
_FILLER_WORDS = frozenset("the and for are was its per eur usd gbp chf page pages sheet row rows".split())
_FUNCTION_WORDS = frozenset("""according should would could somewhere anything something everything need needs have
having mean means said says still again between apart until since before after""".split())
#: words of a question that say what kind of value it wants, or where, not what it is about
_VALUE_WORDS = frozenset("""total totals both across first last title titles page pages sheet sheets amount amounts
number numbers count counts average overall combined altogether spend spent spending cost costs value values figure
figures date dates time times year years month months week weeks quarter quarters price prices line lines calendar
calendars schedule agenda diary hour hours minute minutes days weekday kilometres kilometers miles euros dollars
percent points kilos grams pounds litres liters meters metres units highest lowest largest smallest biggest most least
maximum minimum single earliest latest oldest newest january february march april may june july august september
october november december monday tuesday wednesday thursday friday saturday sunday today yesterday tomorrow
cheaper cheapest dearer dearest expensive costlier higher lower larger bigger greater smaller fewer longer shorter
older newer earlier later faster slower better worse""".split())
# the comparison words above: a held-out task at 85f391b, "Where is the Pen cheaper, in shopA.csv or shopB.csv?",
# answered right ("in shopB.csv, which costs $1.65") and handed off as about no "cheaper"


def subject_not_found(answer: str, ev: Evidence) -> str:
    """The doubt when the goal asks about a subject ("the electricity bill") that no
    tool result of this task mentions, and the answer gives values that come only
    from prose lines about something else, which the answer does not name ("" otherwise).
    Answering with what such a line is about ("the water bill is due ...") clears it.
    A held-out task at 9a8aa1a: "When is the electricity bill due? It's in bills.pdf."
    was answered "The electricity bill is due on 2026-12-15 and 2026-12-20.", the
    water and the gas bills' dates (bills.pdf has no electricity); at 766ab73, "2026-12-15"."""
    if not asks_only_a_question(ev.goal):
        return ""
    calls = [c for c in ev.calls if c.status == "done" and not c.error and c.result
             and c.name not in _HARNESS_TOOLS and c.name != "finish"]
    results = [_data_of(c.result or "") for c in calls]
    # "December 15th" gives the day 15 (held-out D at 08145d1: "The electricity bill is due on December 15th and
    # December 20th." gave no number, and finished at once)
    answer = re.sub(r"(\d)(?:st|nd|rd|th)\b", r"\1", answer)
    # "page 2" or "3 files" are no values: a small whole number matches too many lines
    said = {n for n in _numbers(answer) if "." in n or int(n) > SMALL_INTEGER} - set(_numbers(ev.goal))
    # a value a query worked out answers that query, whatever row also holds it (a held-out task at 01015b4: the
    # average order amount per customer, AVG(amount) = 20, doubted as about no "order" for the row "Ana,20")
    said -= {n for c in calls if c.name == "table_query" for n in _numbers(_data_of(c.result or ""))}
    if not results or not said:
        return ""
    named = {w.lower() for _, rel in _paths(ev.goal) for w in _WORD.findall(rel)}
    topic = {w.lower() for w in _WORD.findall(ev.goal)} - _COMMON - _NOT_ASKED - _NOT_TOPIC - _VALUE_WORDS - named \
        - _FUNCTION_WORDS
    # the file's own subject: "the highest single expense in expenses.xlsx" (a held-out task at 02c0aa3: the right
    # answer was doubted as about no "expense", a word its sheet's rows never say)
    topic = {w for w in topic if w[:5] not in {n[:5] for n in named}}
    # a result's echo of its own call mentions nothing: at d4cdf2e "0 hit(s) for 'electricity' in bills.pdf." let
    # the answer doubted before through unchanged
    seen = " ".join(_without_own_arguments(r, c) for r, c in zip(results, calls)).lower()
    missing = sorted(w for w in topic if w[:5] not in seen)
    if not missing:
        return ""
    prose = [ln.strip() for r in results for ln in r.splitlines()
             if "|" not in ln and _SMALL_WORD.search(ln)]  # prose lines: a table row's words are in its header
    goal_words = {w.lower() for w in _SMALL_WORD.findall(ev.goal)}
    unnamed: list[str] = []
    # sentence by sentence: a sentence that gives values must name what their lines are about. At 900ec69 the
    # water and gas lines were quoted above "The electricity bill is due on December 20, 2026." (the gas bill's)
    for sentence in re.split(r"(?<=[.!?])\s+|\n", answer):
        values = said & set(_numbers(sentence))
        if not values:
            continue
        # its lines hold most of its numbers ("2026-12-15" is three: "Utility bills 2026" is not its line)
        held = [(len(values & set(_numbers(ln))), ln) for ln in prose]
        best = max((n for n, _ in held), default=0)
        for n, line in held:
            own = {w.lower() for w in _SMALL_WORD.findall(line)} - goal_words - _COMMON - _FILLER_WORDS
            on_topic = any(re.search(rf"\b{re.escape(w[:5])}", line, re.IGNORECASE) for w in topic - set(missing))
            if n and n == best and not on_topic and line not in unnamed \
                    and not any(re.search(rf"\b{re.escape(w)}\b", sentence, re.IGNORECASE) for w in own):
                unnamed.append(line)
    if not unnamed:
        return ""
    # no answer to copy: this check guesses at subjects from words, and a "not found" copied where it guessed wrong
    # would be a confident wrong end (a held-out task at 000bd0d copied "I could not find anything about march")
    return (f"the task asks about {missing[0]}, which no result of this task mentions; the answer's values come from "
            f"'{unnamed[0][:90]}'{' and other lines' if len(unnamed) > 1 else ''}, which are about something else. "
            f"Answer with what the files say about {missing[0]}, or say plainly that they do not say it")


#: a goal asking for an average (or a median: a middle value, no total either)
AVERAGE = re.compile(r"\b(average|mean|median)\b", re.IGNORECASE)


def statistic_of(goal: str) -> str:
    """The SQL aggregate a goal matching :data:`AVERAGE` asks for: "MEDIAN" for a median,
    else "AVG". A held-out task at a6267c9: "What is the median price in prices.csv?" got no
    query to copy, answered 7.0 (right) by eye, and was handed off."""
    return "MEDIAN" if re.search(r"\bmedian\b", goal, re.IGNORECASE) else "AVG"


def average_not_queried(ev: Evidence) -> str:
    """'; the task asks for an average, and no query of this task took one: ...' when
    the goal asks for an average and no successful ``table_query`` used AVG, with the
    newest query that summed, summing changed to AVG, as the call to copy ("" otherwise).
    A held-out task at f81d1c7: "What is the average score of class B in grades.csv?"
    ran SUM(score), divided 510 by 4 by hand (there are 6), and was told only that
    127.5 came from no tool."""
    if not AVERAGE.search(ev.goal) or "table_query" not in ev.tool_names:
        return ""
    queries = [str(c.arguments.get("sql", "")) for c in ev.calls
               if c.name == "table_query" and c.status == "done" and not c.error]
    tables = [f for f in sum(goal_files(ev.goal), []) if f.lower().endswith(TABLE_FILES)]
    fn = statistic_of(ev.goal)
    took = r"\b(median|quantile_cont|quantile_disc)\s*\(" if fn == "MEDIAN" else r"\b(avg|mean)\s*\("
    if any(re.search(took, q, re.IGNORECASE) for q in queries) or not (queries or tables):
        return ""  # an average a document states is no query's (pdf_number_lookup at ae69254 was told to query)
    summed = next((q for q in reversed(queries) if re.search(r"\bsum\s*\(", q, re.IGNORECASE)), "")
    copy = call_to_copy("table_query", {"sql": re.sub(r"\bsum\s*\(", f"{fn}(", summed, flags=re.IGNORECASE)}) \
        if summed else f"query it with {fn}(column)"
    what = "a median" if fn == "MEDIAN" else "an average"
    return f"; the task asks for {what}, and no query of this task took one: {copy}"


#: a total grouped by something: "per month", "by category", "for each customer"
_GROUPED = re.compile(r"\b(per|by|each|every)\s+\w+", re.IGNORECASE)


def asks_one_total(goal: str) -> bool:
    """Whether ``goal`` asks for one total ("How much did we spend on Travel in total
    across both quarters?"), not one per group ("the total per month")."""
    return bool(_TOTAL_ASKED.search(goal)) and not _GROUPED.search(goal)


def column_total_not_queried(ev: Evidence) -> str:
    """'; the task asks for the total of a column, and no query of this task summed it: ...'
    when the goal asks for a total over the one table file it names (no group, no row it
    filters by) and no successful ``table_query`` took a SUM, with the sum of the column
    the goal names (:func:`table_goal.number_column`) as the call to copy ("" otherwise).
    A held-out task at bad5969: "What is the total of column B in budget.xlsx?" listed
    the column, added it up by hand (3030.5; it is 2630.5) and was told only that no tool
    gave the number."""
    asked = _question_table(ev) if _TOTAL_ASKED.search(ev.goal) and not _GROUPED.search(ev.goal) else None
    if asked is None or "table_query" not in ev.tool_names:
        return ""
    table = asked[1]
    if any(re.search(r"\bsum\s*\(", str(c.arguments.get("sql", "")), re.IGNORECASE) for c in ev.calls
           if c.name == "table_query" and c.status == "done" and not c.error) \
            or goal_value(table, ev.goal) or goal_filters(table, ev.goal):
        return ""
    column = number_column(table, ev.goal)
    if column is None:
        return ""
    sql = f"SELECT SUM({_quoted(column)}) AS total FROM {_quoted(table.name)}"
    return (f"; the task asks for the total of {column} in {asked[0]}, and no query of this task summed it: "
            f"{call_to_copy('table_query', {'sql': sql})}")


#: a goal asking for a share of a whole in percent
_PERCENT_ASKED = re.compile(r"\b(percent|percentage|per cent|proportion)\b|%", re.IGNORECASE)
_FILTERED_SUM = re.compile(r"^\s*select\s+sum\((?P<col>[\w\"]+)\)\s+from\s+(?P<table>[\w\"]+)\s+"
                           r"where\s+(?P<cond>.+?)\s*;?\s*$", re.IGNORECASE | re.DOTALL)


def percent_not_queried(ev: Evidence) -> str:
    """'; the task asks for a percentage, and no query of this task worked it out: ...'
    when the goal asks for a percentage and no successful ``table_query`` multiplied by
    100, with the newest filtered sum turned into the share of its column's whole as
    the call to copy ("" otherwise). A held-out task at a864c41: "What percentage of
    the budget in budget.csv goes to rent?" summed the rent and the whole, answered 60%
    (right) from them by hand, and was handed off."""
    if not _PERCENT_ASKED.search(ev.goal) or "table_query" not in ev.tool_names:
        return ""
    queries = [str(c.arguments.get("sql", "")) for c in ev.calls
               if c.name == "table_query" and c.status == "done" and not c.error]
    if any(re.search(r"\b100(\.0*)?\s*\*|\*\s*100\b", q) for q in queries):
        return ""
    m = next((m for q in reversed(queries) if (m := _FILTERED_SUM.match(q))), None)
    copy = call_to_copy("table_query", {"sql": f"SELECT ROUND(100.0 * SUM({m['col']}) FILTER (WHERE {m['cond']}) / "
                                               f"SUM({m['col']}), 1) AS percent FROM {m['table']}"}) if m else \
        "query it with ROUND(100.0 * SUM(x) FILTER (WHERE ...) / SUM(x), 1)"
    return f"; the task asks for a percentage, and no query of this task worked it out: {copy}"


def _without_own_arguments(result: str, call: CallRecord) -> str:
    """``result`` without its quotes of ``call``'s string arguments ("0 hit(s) for
    'electricity'"), case-insensitive: what the result says beyond echoing its call.
    A hit's own line keeps its words."""
    for value in (v.strip() for v in call.arguments.values() if isinstance(v, str) and v.strip()):
        result = re.sub(rf"(['\"]){re.escape(value)}\1", " ", result, flags=re.IGNORECASE)
    return result


_ONE_VALUE = re.compile(r"^\W*(what|how much|how many|how long)\b", re.IGNORECASE)
_MANY_ASKED = re.compile(r"\b(and|list|all|each|every|per|by|top|both|events?|schedule|calendar|breakdown|numbers|"
                         r"figures|values)\b", re.IGNORECASE)


def _many_numbers_for_one(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks for one value ("What was our average delivery
    time this year?") and the answer gives four or more numbers the goal does not
    hold ("" otherwise). pdf_number_lookup at 908434b: Qwen 1.5B answered 3.4 with
    every other figure of the PDF around it (21,450 orders, 6.2 percent, the 2.9
    target, the page size), so which one answers the question was left to the user."""
    if not _ONE_VALUE.search(ev.goal) or _MANY_ASKED.search(ev.goal):
        return ""
    given = set(_numbers(ev.goal))
    # a phone number is one value, not four (a held-out task at a864c41: "+49 30 5550 1234" as 49, 30, 5550, 1234)
    answer = _PHONE.sub(lambda m: " phone " if len(re.sub(r"\D", "", m.group(0))) >= 7 else m.group(0), answer)
    # so is a time of day with its date, and read_file's line numbers quoted are none (a held-out task at 2e1bee7:
    # "8:40 AM on Thursday, 10 December" below the quoted line "     2\tDentist: ..." as 2, 10, 8, 40)
    answer = _CLOCK_OR_LINE.sub(" ", answer)
    for d in dates_in(answer):
        answer = answer.replace(d.text, " date ")
    said = list(dict.fromkeys(n for n in _numbers(_LIST_MARKER.sub(" ", answer)) if n not in given))
    if len(said) < 4:
        # two or three: doubted only where one sentence gives the value alone (docx_lookup at 79c170d: the deposit's
        # line quoted as the working, then "So, the monthly rent is **EUR 1,450**.", graded 0.5)
        said = [n for n in said if "." in n or int(n.replace(",", "")) > SMALL_INTEGER]
        one = _sentence_of_one_value(answer, given, ev.goal) if len(said) >= 2 else ""
        value = next(iter(n for n in _numbers(one) if n in said), "")
        # only beside another of its kind ("EUR 2,900" by "EUR 1,450"; pdf_number_lookup at 79c170d: "Orders
        # shipped this year: 21,450." quoted over "... was 3.4 days." is no rival answer)
        if value and not _units(answer, value) & {u for n in said if n != value for u in _units(answer, n)}:
            return ""
        return (f"the task asks for one value, and the answer gives {len(said)} numbers ({', '.join(said)}); "
                f"answer with the one the task asks for, e.g. {answer_to_copy(one)}") if one else ""
    return (f"the task asks for one value, and the answer gives {len(said)} numbers ({', '.join(said[:6])}); "
            "answer with the one the task asks for, in one sentence")


#: a time of day ("8:40", "8:40 AM", "3pm") or a read_file line number at a line's start ("     2\t")
_CLOCK_OR_LINE = re.compile(r"(?<![\d.:])\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\b\.?)?"
                            r"|(?<![\d.])\d{1,2}\s*[ap]\.?m\b\.?|^[ \t]*\d+\t", re.IGNORECASE | re.MULTILINE)
#: a phone number as written: "+49 30 5550 1234", "(030) 555-0123"
_PHONE = re.compile(r"(?<![\w+])\+?\(?\d[\d ()/-]{5,}\d(?![\w.,]\d)")
_UNIT_BEFORE = re.compile(r"([$€£]|\b[A-Z]{3})\s?$")
_UNIT_AFTER = re.compile(r"^[ \t]?([A-Za-z%€$£]+)")


def _units(text: str, number: str) -> set[str]:
    """The units written next to ``number`` (normalised) in ``text``: a currency
    before it ("EUR", "$") or the word right after it on its line ("days", "%")."""
    out = set()
    for m in _NUMBER.finditer(text):
        if normalise_number(m.group(0)) != number:
            continue
        before, after = _UNIT_BEFORE.search(text[max(0, m.start() - 5):m.start()]), _UNIT_AFTER.match(text[m.end():])
        out |= {u.group(1).lower() for u in (before, after) if u}
    return out


def _sentence_of_one_value(answer: str, given: set[str], goal: str) -> str:
    """The last sentence of ``answer`` that gives one number (not in ``given``, not a
    small integer), names a content word of ``goal`` ("rent") and quotes nothing: the
    answer the rest was working for ("" when none does)."""
    topic = {w.lower()[:5] for w in _WORD.findall(goal)} - {w[:5] for w in (*_COMMON, *_NOT_TOPIC)}
    plain = re.sub(r"[*_`]+", "", answer)
    for sentence in reversed(re.split(r"(?<=[.!?])\s+|\n+", plain)):
        sentence = sentence.strip()
        nums = {n for n in _numbers(sentence) if n not in given
                and ("." in n or int(n.replace(",", "")) > SMALL_INTEGER)}
        if len(nums) == 1 and not re.search(r"[\"“”]", sentence) \
                and topic & {w.lower()[:5] for w in _WORD.findall(sentence)}:
            return sentence
    return ""


def _line_of_a_seen_number(answer: str, unseen: Sequence[str], calls: Sequence[CallRecord]) -> str:
    """'; the answer's 3.4 is on the line "Average delivery time this year: 3.4 days."
    of pdf_read at step 0: ...' for the first number of ``answer`` (not a small
    integer, not in ``unseen``) on a line of a read of this task ("" when none is).
    pdf_number_lookup at c14e080: "approximately 0.0587 days or 3.4 hours", the 0.0587
    worked out by hand, refused three times and handed off; the 3.4 it had right
    stood on the line that answers the question."""
    reads = [c for c in calls if c.status == "done" and not c.error and (c.risk or "read") == "read" and c.result
             and c.name not in _HARNESS_TOOLS]
    for m in _NUMBER.finditer(_LIST_MARKER.sub(" ", _FILE_OR_URL.sub(" ", answer))):
        n = normalise_number(m.group(0))
        if n in unseen or ("." not in n and int(n) <= SMALL_INTEGER):
            continue
        for c in reads:
            for line in _FENCE_LINE.sub("", _data_of(c.result or "")).splitlines():
                if n in _numbers(line) and len(line.strip()) <= 160:
                    return (f"; the answer's {m.group(0)} is on the line {line.strip()!r} of {c.name} at step "
                            f"{c.step}: if that line answers the task, answer with its value as the line gives it")
    return ""


def sum_of_query_totals(answer: str, unseen: Sequence[str], calls: Sequence[CallRecord]) -> str:
    """'; U is table_query at step a's X plus table_query at step b's Y: ...' with the
    answer's sentence, the sum shown with its terms, to copy, when a number of
    ``unseen`` (normalised) is the sum, to the cent, of two one-value query results of
    this task, or two rows of a query of one number per row ("" otherwise). The
    harness adds them, not the model, and the terms shown let the number check accept
    the sum (``evidence._checked_sums``).
    xlsx_two_sheet_total at 32ea11e: each quarter's Travel total queried, then the
    right "$2,025.50" refused three times as a number no tool gave, and a hand-off."""
    totals = []
    for c in calls:
        if c.name != "table_query" or c.status != "done" or c.error or (c.data or {}).get("repeat_of"):
            continue
        rows = _result_rows(c.result or "")
        # a query of one number per row counts each row (xlsx_two_sheet_total at 0d54f46: the two quarters' Travel
        # sums as one UNION ALL query's two rows, their right sum refused twice, and a hand-off)
        if 1 <= len(rows) <= 4 and all(len(r) == 1 and _CELL_NUMBER.fullmatch(r[0]) for r in rows):
            totals += [(c, r[0]) for r in rows]
    for n in unseen:
        for i, (a, x) in enumerate(totals):
            for b, y in totals[i + 1:]:
                if abs(float(normalise_number(x)) + float(normalise_number(y)) - float(n)) >= 0.005:
                    continue
                m = next((m for m in _NUMBER.finditer(answer) if normalise_number(m.group(0)) == n), None)
                if m is None:
                    return ""
                start = answer.rfind("$", max(0, m.start() - 2), m.start())
                at = start if start >= 0 else m.start()
                shown = f"{answer[:at]}{x} + {y} = {answer[at:]}"
                sentence = next((s for s in re.split(r"(?<=[.!?])\s+", shown) if f"{x} + {y} =" in s), shown)
                return (f"; {n} is {a.name} at step {a.step}'s {x} plus {b.name} at step {b.step}'s {y}: if that sum "
                        f"is what the task asks, show it with its terms, e.g. {answer_to_copy(sentence)}")
    return ""



def running_total_wrong(ev: Evidence) -> str:
    """The doubt when the goal writes the running total of a number column of the one
    table file it reads (:func:`table_goal.running_total`) to one new CSV file, and no
    number column of that file holds the running sums, in order ("" otherwise), with
    them, the query to copy and its save. Held-out BZH at bbbe1fb: running.csv summed
    from April back to January (want 1200, 2150, 3580, 4680)."""
    outputs, named = goal_files(ev.goal)
    outputs = [o for o in outputs if o.lower().endswith((".csv", ".tsv"))]
    sources = [f for f in named if f.lower().endswith(TABLE_FILES) and f not in outputs]
    if len(outputs) != 1 or len(sources) != 1:
        return ""
    tables = _file_tables(ev.workspace, sources[0])
    found = running_total(tables[0], ev.goal) if len(tables) == 1 and tables[0].rows <= 5000 else None
    if found is None:
        return ""
    column, order, sql = found
    values = next(c.values for c in tables[0].columns if c.name == column)
    keys = next((c.values for c in tables[0].columns if _quoted(c.name) == order), list(range(len(values))))
    if any(k is None for k in keys) or any(not isinstance(v, (int, float, decimal.Decimal)) or isinstance(v, bool)
                                           for v in values):
        return ""
    running, total = [], decimal.Decimal(0)
    for _, amount in sorted(zip(keys, values), key=lambda kv: kv[0]):
        total += decimal.Decimal(str(amount))
        running.append(total)
    written = _file_tables(ev.workspace, outputs[0])
    if not written:
        return ""  # not written, or not a table: another check's
    for c in written[0].columns:
        held = [decimal.Decimal(str(v)) if isinstance(v, (int, float, decimal.Decimal)) and not isinstance(v, bool)
                else None for v in c.values]
        if len(held) == len(running) and all(h is not None and abs(h - r) < decimal.Decimal("0.01")
                                             for h, r in zip(held, running)):
            return ""
    shown = ", ".join(normalise_number(str(r)) for r in running[:8]) + (", ..." if len(running) > 8 else "")
    return (f"the task asks for the running total of {column} of {sources[0]} in {outputs[0]} ({shown}, in the "
            f"order of {order}), and no column of {outputs[0]} holds it; "
            f"{call_to_copy('table_query', {'sql': sql})}; its result shows the call that saves it to {outputs[0]}")


_MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                "November", "December")


def months_without_wrong(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks which months of a range had no rows of the one
    table file it names (:func:`table_goal.months_without_rows`) and the answer names
    another month, or leaves one out ("" otherwise), with those months, the rows per
    month to copy and the answer to copy. Held-out BZB at bbbe1fb: four months that had
    sales named for "Which month between January and June 2026 had no sales?" (March)."""
    files, tables = _asked_tables(ev)
    for table in tables:
        found = months_without_rows(table, ev.goal) if table.rows <= 5000 else None
        if found is None:
            continue
        one_year = found.first[0] == found.last[0]
        from .dates_said import month_number

        named = {month_number(m.group("name")) for m in MONTH_SAID.finditer(answer)}
        want = {mo for _, mo in found.missing}
        if not one_year or named == want:
            return ""
        names = [f"{_MONTH_NAMES[mo - 1]} {y}" for y, mo in found.missing]
        span = f"from {_MONTH_NAMES[found.first[1] - 1]} to {_MONTH_NAMES[found.last[1] - 1]} {found.last[0]}"
        said = " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
        fixed = f"{said} had no {found.what}." if names else f"Every month {span} had {found.what}."
        return (f"the months {span} without {found.what} in {files[0]} are {said or 'none'}, and the answer "
                f"{'names ' + ', '.join(_MONTH_NAMES[mo - 1] for mo in sorted(named)) if named else 'names none'}"
                f"; the rows per month: {call_to_copy('table_query', {'sql': found.sql})}; e.g. "
                f"{answer_to_copy(fixed)}")
    return ""


def hours_wrong(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks how many hours (in all, or per person) the start
    and end times of the one table file it names add up to (:func:`table_goal.hours_worked`)
    and the answer leaves a person out, or gives a person (or the total) another number
    ("" otherwise), with the hours, the query and the answer to copy. Held-out BZE at
    bbbe1fb: the number of shifts per person answered for their hours."""
    files, tables = _asked_tables(ev)
    for table in tables:
        found = hours_worked(table, ev.goal) if table.rows <= 5000 else None
        if found is None:
            continue
        names = sorted(found.hours)
        wrong = []
        for name in names:
            at = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", answer, re.IGNORECASE) if name else None
            rest = answer[at.end():] if at else answer if not name else ""
            if name:
                later = [re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", rest, re.IGNORECASE) for n in names]
                rest = rest[:min([m.start() for m in later if m] or [len(rest)])]
            said = re.search(r"\d+(?:\.\d+)?", rest)
            if said is None or decimal.Decimal(said.group(0)) != found.hours[name]:
                wrong.append(name)
        if not wrong:
            return ""
        # the figures only in the answer to copy: an answer that copies it echoes no instruction (held-out BZE
        # replayed at ad0e0dd: "Anna 12.5 hours, Ben 12.5 hours." refused as the harness's words, shown twice)
        copy = ", ".join(f"{n} {normalise_number(str(found.hours[n]))} hours" if n else
                         f"{normalise_number(str(found.hours[n]))} hours" for n in names[:12])
        whom = f" per {found.group}" if found.group else ""
        return (f"the answer does not give the hours{whom} that the start and end times of {files[0]} add up to "
                f"({call_to_copy('table_query', {'sql': found.sql})}); e.g. {answer_to_copy(copy + '.')}")
    return ""


_AGGREGATE_CALL = re.compile(r"\b(?:sum|count|avg|mean|min|max|median)\s*\(", re.IGNORECASE)


def all_for_each(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks for a figure for each value of a text column of
    the one table file it names ("How many days did each project take?": the column
    "project") and the answer's number comes from a ``table_query`` that added up every
    row into one figure (an aggregate, no GROUP BY), the answer naming at most one of
    the column's values ("" otherwise), with the query grouped by that column to copy.
    Batch CZ at 64fba22 (CZD): "The total number of days it took for all projects is 46
    days." (Alpha 15, Beta 30, Gamma 1)."""
    asked = [m.group(1).lower() for m in _PER_WORD.finditer(ev.goal)]
    files, tables = _asked_tables(ev)
    if not asked or len(tables) != 1:
        return ""
    table = tables[0]
    column = next((c for c in table.columns if c.sql_type.upper() == "VARCHAR" and any(
        c.name.lower().rstrip("s") == w.rstrip("s") for w in asked)), None)
    if column is None:
        return ""
    values = {str(v) for v in column.values if v is not None}
    if sum(bool(re.search(rf"(?<![\w-]){re.escape(v)}(?![\w-])", answer, re.IGNORECASE)) for v in values) > 1:
        return ""
    said = set(_numbers(answer)) - set(_numbers(ev.goal))
    for c in reversed(ev.calls):
        if c.name != "table_query" or c.status != "done" or c.error or not said & _source_numbers([c.result or ""]):
            continue
        sql = " ".join(str(c.arguments.get("sql", "")).split()).rstrip(";")
        m = re.fullmatch(r"select\s+(?!distinct\b)(.+?)\s+from\s+(.+)", sql, re.IGNORECASE)
        if m is None or not _AGGREGATE_CALL.search(m.group(1)) or _GROUP_BY.search(sql) \
                or re.search(r"\b(?:having|over|union)\b", sql, re.IGNORECASE):
            return ""
        name = _quoted(column.name)
        grouped = f"SELECT {name}, {m.group(1)} FROM {_ORDER_OR_LIMIT.sub('', m.group(2)).strip()} GROUP BY {name} " \
                  f"ORDER BY {name}"
        return (f"the task asks for a figure for each {column.name}, and the answer gives one figure for all of "
                f"them, from table_query at step {c.step} (every row added up); give each {column.name}'s own: "
                f"{call_to_copy('table_query', {'sql': grouped})}, and answer with each row it returns")
    return ""


def empty_count_wrong(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks how many rows of the one table file it names have
    no value in a column (:func:`table_goal.empty_count`) and the answer's first number
    is not that count ("" otherwise), with the query and the answer to copy. Batch CZ at
    64fba22 (CZG): "There are 4 people in contacts.csv who have no email address." (2)."""
    files, tables = _asked_tables(ev)
    for table in tables:
        found = empty_count(table, ev.goal)
        if found is None:
            continue
        column, count, sql = found
        said = [n for n in _numbers(_FILE_OR_URL.sub(" ", answer)) if n not in _numbers(ev.goal)] or [
            str(_COUNT_WORDS.index(m.group(0).lower())) for m in re.finditer(
                rf"\b(?:{'|'.join(_COUNT_WORDS[1:])})\b", answer, re.IGNORECASE)]
        none = count == 0 and re.search(r"\b(?:no|none|nobody|no one|zero)\b", answer, re.IGNORECASE)
        if (said and said[0] == str(count)) or (not said and none):
            return ""
        return (f"the rows of {files[0]} with no {column} number {count} "
                f"({call_to_copy('table_query', {'sql': sql})}), and the answer does not say so; e.g. "
                f"{answer_to_copy(f'{count} rows of {files[0]} have no {column}.')}")
    return ""


def repeats_wrong(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks which values of a column of the one table file it
    names occur in more than one row (:func:`table_goal.repeated_values`) and the answer
    leaves one out, names one that occurs once, or names none while some repeat ("" when
    it names them all, or says none when none repeats), with the values, their counts,
    the query and the answer to copy. Batch DZ at a3c921a (DZA): "The invoice numbers
    INV-102 appear more than once" (INV-101 is in two rows too)."""
    files, tables = _asked_tables(ev)
    for table in tables:
        found = repeated_values(table, ev.goal) if table.rows <= 5000 else None
        if found is None:
            continue
        said = _FILE_OR_URL.sub(" ", answer)
        named = {v for v in {str(x) for c in table.columns if c.name == found.column for x in c.values if x is not None}
                 if re.search(rf"(?<![\w-]){re.escape(v)}(?![\w-])", said, re.IGNORECASE)}
        missing = [v for v in found.values if v not in named]
        extra = sorted(named - set(found.values)) if not re.search(r"\bonce\b(?!\s+or)", said.replace(
            "more than once", ""), re.IGNORECASE) else []
        none = re.search(r"\b(?:no|none|nothing|not any)\b", answer, re.IGNORECASE)
        if not missing and not extra and (found.values or none):
            return ""
        query = call_to_copy("table_query", {"sql": found.sql})
        if not found.values:
            none_said = f"No {found.column} appears more than once in {files[0]}."
            return (f"no value of the {found.column} column of {files[0]} is in more than one row ({query}), and the "
                    f"answer does not say so; e.g. {answer_to_copy(none_said)}")
        shown = ", ".join(f"{v} ({n} rows)" for v, n in zip(found.values[:12], found.times))
        said_wrong = (f"the answer leaves out {', '.join(missing[:5])}" if missing else "") + (
            "; " if missing and extra else "") + (f"the answer names {', '.join(extra[:5])}, which is in one row only"
                                                  if extra else "")
        listed = " and ".join([", ".join(found.values[:-1]), found.values[-1]] if len(found.values) > 1
                              else found.values)
        copy = f"; e.g. {answer_to_copy(f'{listed} appear more than once in {files[0]}.')}" \
            if len(found.values) <= 12 else ""
        return (f"{said_wrong}; the values of {found.column} in more than one row of {files[0]} are {shown} "
                f"({query}){copy}")
    return ""


def percent_total_wrong(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks for the total of a column of the one table file it
    names with a rate put on it (:func:`table_goal.percent_on_total`: "including 19% VAT")
    and the answer's first number is not that total to its own decimals ("" otherwise),
    with the query and the answer to copy. Batch DZ at a3c921a (DZG): "1000.00" for the
    total of 750 including 19% VAT (892.50)."""
    files, tables = _asked_tables(ev)
    for table in tables:
        rated = percent_on_total(table, ev.goal) if table.rows <= 5000 else None
        if rated is None:
            continue
        said = [n for n in _numbers(_FILE_OR_URL.sub(" ", answer)) if n not in _numbers(ev.goal)]
        if said and _near(said[0], rated.value):
            return ""
        shown = f"{rated.value:.2f}"
        return (f"the total of {rated.column} in {files[0]} {rated.said} is {shown} "
                f"({call_to_copy('table_query', {'sql': rated.sql})}), and the answer does not say so; e.g. "
                f"{answer_to_copy(f'The total of {rated.column} in {files[0]} {rated.said} is {shown}.')}")
    return ""


def _near(said: str, value: decimal.Decimal) -> bool:
    """Whether the number ``said`` ("892.5", "1,000.00") is ``value`` written to its own decimals."""
    try:
        number = decimal.Decimal(said.replace(",", ""))
    except decimal.InvalidOperation:
        return False
    places = max(0, -number.as_tuple().exponent)
    return abs(number - value) <= decimal.Decimal(5) / (10 ** (places + 1)) + decimal.Decimal("1e-9")


def sign_missing_wrong(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks which (how many) cells of a column of the one table
    file it names lack a sign (:func:`table_goal.sign_missing`: "missing the @ sign") and
    the answer leaves one out (by its value or its row's label), names one that has the
    sign, says none while some lack it, or gives another count ("" otherwise), with the
    query and the answer to copy. Batch DZ at a3c921a (DZI): "No email addresses in
    contacts.csv are missing the @ sign." (ben.y.com and dan-at-w.org are)."""
    files, tables = _asked_tables(ev)
    for table in tables:
        found = sign_missing(table, ev.goal) if table.rows <= 5000 else None
        if found is None:
            continue
        said = answer  # a value can look like a file name or a web address ("ben.y.com")

        def named(text: str) -> bool:
            return bool(text) and re.search(rf"(?<![\w.@-]){re.escape(text)}(?![\w@-]|\.\w)", said,
                                            re.IGNORECASE) is not None
        query = call_to_copy("table_query", {"sql": found.sql})
        rows = [f"{v} ({label})" if label else v for v, label in zip(found.values, found.labels)]
        if re.match(r"\W*how\s+many\b", ev.goal, re.IGNORECASE):
            numbers = [n for n in _numbers(_FILE_OR_URL.sub(" ", answer)) if n not in _numbers(ev.goal)]
            if (numbers and numbers[0] == str(len(found.values))) or (not found.values and not numbers):
                return ""
            return (f"{len(found.values)} {found.column} values of {files[0]} lack '{found.sign}' ({query}), and the "
                    f"answer does not say so; e.g. {answer_to_copy(f'{len(found.values)}.')}")
        missing = [r for r, v, label in zip(rows, found.values, found.labels) if not named(v) and not named(label)]
        others = [str(x) for c in table.columns if c.name == found.column for x in c.values
                  if x is not None and found.sign in str(x)]
        extra = [v for v in others if named(v)]
        none = re.search(r"\b(?:no|none|nothing|all)\b", answer, re.IGNORECASE)
        if not missing and not extra and (found.values or none):
            return ""
        if not found.values:
            return (f"every {found.column} value of {files[0]} holds '{found.sign}' ({query}), and the answer names "
                    f"{', '.join(extra[:5])}; e.g. {answer_to_copy(f'None: every {found.column} has {found.sign}.')}")
        listed = "; ".join(rows[:12])
        wrong = (f"the answer leaves out {', '.join(missing[:5])}" if missing else "") + ("; " if missing and extra
                                                                                          else "") + (
            f"the answer names {', '.join(extra[:5])}, which holds '{found.sign}'" if extra else "")
        copy = f"; e.g. {answer_to_copy(f'{listed}.')}" if len(rows) <= 12 else ""
        return (f"{wrong}; the {found.column} values of {files[0]} without '{found.sign}' are {listed} "
                f"({query}){copy}")
    return ""


def mean_ranking_wrong(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks which value of a column of the one table file it
    names has the highest (lowest) average (:func:`table_goal.mean_ranking`) and the
    answer does not name that value, or names another ("" otherwise), with each value's
    average, the query and the answer to copy. Batch EZ at 865c16b (EZA): "Alba, with a
    total of 540" (average 180; Corvo's is 250)."""
    files, tables = _asked_tables(ev)
    for table in tables:
        ranked = mean_ranking(table, ev.goal) if table.rows <= 5000 else None
        if ranked is None:
            continue
        best = (min if ranked.low else max)(ranked.means.values())
        tops = [k for k, m in ranked.means.items() if m == best]
        named = {k for k in ranked.means if re.search(rf"(?<![\w-]){re.escape(k)}(?![\w-])", answer, re.IGNORECASE)}
        if named and named <= set(tops):
            return ""
        def shown(k: str) -> str:
            return normalise_number(f"{ranked.means[k].quantize(decimal.Decimal('0.01')):f}")
        listed = ", ".join(f"{k} {shown(k)}" for k in sorted(ranked.means, key=lambda k: ranked.means[k],
                                                              reverse=not ranked.low)[:8])
        word = "lowest" if ranked.low else "highest"
        top = " and ".join(tops[:5])
        return (f"the {word} average {ranked.number} per {ranked.key} in {files[0]} is {top}'s ({listed}; "
                f"{call_to_copy('table_query', {'sql': ranked.sql})}), and the answer does not name "
                f"{'them' if len(tops) > 1 else 'it'} alone; e.g. "
                f"{answer_to_copy(f'{top}, with an average {ranked.number} of {shown(tops[0])}.')}")
    return ""


def length_extreme_wrong(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks which text of a column of the one table file it
    names is the longest (shortest) (:func:`table_goal.length_extreme`) and the answer
    names another, none, or gives it another count of characters ("" otherwise), with
    the query and the answer to copy. Batch EZ at 865c16b (EZC): "'Notebook' with a
    length of 7 characters" (Highlighter, 11)."""
    files, tables = _asked_tables(ev)
    for table in tables:
        found = length_extreme(table, ev.goal) if table.rows <= 5000 else None
        if found is None:
            continue
        cells = {str(v).strip() for c in table.columns if c.name == found.column for v in c.values if v is not None}
        named = {v for v in cells if v and re.search(rf"(?<![\w-]){re.escape(v)}(?![\w-])", answer, re.IGNORECASE)}
        counts = [int(n) for n in re.findall(r"\b(\d+)\s+(?:characters|letters|chars)\b", answer, re.IGNORECASE)]
        if named and named <= set(found.values) and all(n == found.length for n in counts):
            return ""
        word = "shortest" if found.short else "longest"
        top = " and ".join(found.values[:5])
        return (f"the {word} {found.column} in {files[0]} is {top}, with {found.length} characters "
                f"({call_to_copy('table_query', {'sql': found.sql})}), and the answer does not say so; e.g. "
                f"{answer_to_copy(f'{top} ({found.length} characters).')}")
    return ""


def nth_common_wrong(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks for the value of a column of the one table file it
    names ranked n-th by how often it occurs (:func:`table_goal.nth_common`) and the
    answer names another, or none ("" otherwise), with each value's count, the query and
    the answer to copy. Batch EZ at 865c16b (EZH): "Berlin" (3 customers) for the second
    most common city (Hamburg, 2)."""
    files, tables = _asked_tables(ev)
    for table in tables:
        found = nth_common(table, ev.goal) if table.rows <= 5000 else None
        if found is None:
            continue
        cells = {str(v).strip() for c in table.columns if c.name == found.column for v in c.values if v is not None}
        named = {v for v in cells if v and re.search(rf"(?<![\w-]){re.escape(v)}(?![\w-])", answer, re.IGNORECASE)}
        if named and named <= set(found.values):
            return ""
        top = " and ".join(found.values[:5])
        return (f"ranked by their rows, the {found.column} values of {files[0]} in place {found.n} "
                f"({'fewest' if found.least else 'most'} first) are {top}, with {found.count} rows each "
                f"({call_to_copy('table_query', {'sql': found.sql})}), and the answer does not say so; e.g. "
                f"{answer_to_copy(f'{top} ({found.count} rows).')}")
    return ""


def step_change_wrong(answer: str, ev: Evidence) -> str:
    """The doubt when a question asks which row of the one table file it names rose (fell)
    the most from the row before (:func:`table_goal.step_change`) and the answer does
    not name that row's period ("" otherwise), with the query and the answer to copy.
    Batch GZ at 833d98d (GZC): "2025, with a total revenue of 160000" (the highest
    revenue) for the year that grew the most (2024, +30000)."""
    files, tables = _asked_tables(ev)
    for table in tables:
        found = step_change(table, ev.goal)
        if found is None:
            continue
        label = found.label[:10] if re.fullmatch(r"\d{4}-\d{2}-\d{2}.*", found.label) else found.label
        if re.search(rf"(?<![\w-]){re.escape(label)}(?![\w-])", answer):
            return ""
        change = f"{found.change:+,.2f}".rstrip("0").rstrip(".")
        word = "fell" if found.down else "grew"
        by = change.lstrip("+-")
        return (f"ordered by {found.period}, the {found.value} of {files[0]} {word} the most at {label} ({change} from "
                f"the {found.period} before; {call_to_copy('table_query', {'sql': found.sql})}), and the answer "
                f"does not name it; e.g. {answer_to_copy(f'{label}: {found.value} {word} by {by}.')}")
    return ""
