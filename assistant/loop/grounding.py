"""General grounding of an answer about a table file's rows: whatever the kind of
question, the rows an answer picks, counts or adds up must rest on what a
``table_query`` of the task returned (or on what the harness itself computed and
told the model), never on a table read by eye.

The per-kind checks (:mod:`figures`, :mod:`table_goal`) know the right answer for
the kinds of question they recognise; this one knows no answer, only where an
answer's values came from. Held-out batches T and U (911f35c, bad5969) ended in
a wrong "done" on kinds no check knew yet: the second-highest score, the items
below their reorder level, the counts of three statuses, each answered from the
table the preread showed and never queried. Small models pick rows wrongly by eye
and write the SQL that picks them well.
"""

from __future__ import annotations

import decimal
import re
from pathlib import Path
from typing import Any

from .evidence import _COMMON, _FENCED, Evidence, _source_numbers, goal_files, norm_path
from .answer_form import _query_answer, _result_rows
from .figures import _file_tables, _question_table
from .numbers import normalise_number

#: a question that asks for a count ("how many", "the number of")
_COUNT_ASKED = re.compile(r"\b(how many|number of|count)\b", re.IGNORECASE)
#: the end of a fenced tool result: what follows it is the harness's own note (a hint with a computed value)
_FENCE_END = re.compile(r"<<END_UNTRUSTED \w+>>")
#: an answer that says it could not do the task or found nothing: honest, not a claim about rows
_GAVE_UP = re.compile(r"\b(could ?n[o']t|cannot|can't|unable|not (?:able|found|listed|in the)|no (?:such|rows?|"
                      r"matching))\b", re.IGNORECASE)


def _word_in(value: str, text: str) -> bool:
    """``value`` in ``text`` as a whole word (case-insensitive)."""
    return re.search(rf"(?<![\w@.-]){re.escape(value)}(?![\w@-])", text, re.IGNORECASE) is not None


def _support(ev: Evidence) -> str:
    """What an answer about table rows may rest on: every ``table_query`` result of the
    task, the harness's corrections, and the harness's notes after a fenced result."""
    parts = [c.result or "" for c in ev.calls if c.name == "table_query" and c.status == "done" and not c.error]
    for c in ev.calls:
        if c.name != "table_query" and c.result and c.status == "done":
            ends = list(_FENCE_END.finditer(c.result))
            parts.append(c.result[ends[-1].end():] if ends else "")
    return "\n".join([*parts, *ev.harness_texts])


#: the head of a table_query result: "6 rows:", "120 rows; showing the first 50"
_ROWS_HEAD = re.compile(r"(?<![\w.])(\d+) rows?(?=[:;])")
#: SQL that keeps only some rows (or groups) of its table
_PICKS_ROWS = re.compile(r"\b(where|having|filter|limit|distinct|qualify)\b", re.IGNORECASE)


def _count_support(ev: Evidence, table: Any) -> str:
    """:func:`_support` less the head "N rows:" of each query that kept every row of
    ``table`` (no WHERE, HAVING, FILTER, LIMIT or DISTINCT, and N its row count): such
    a head counts the table, not the rows a question picks. Batch W at bad9c2a (WA):
    "How many items ... have a quantity of zero?" ran the sums per item, "6 rows:", and
    answered 6 (3 have none)."""
    text = _support(ev)
    for c in ev.calls:
        if c.name != "table_query" or c.status != "done" or c.error or not c.result:
            continue
        head = _ROWS_HEAD.search(c.result)
        if head and int(head[1]) == table.rows and not _PICKS_ROWS.search(str(c.arguments.get("sql", ""))):
            text = text.replace(c.result, c.result[:head.start()] + c.result[head.end():], 1)
    return text


def _cells(table: Any) -> list[list[tuple[str, Any]]]:
    """Each row of ``table`` as ``(column, value)`` pairs of its non-empty cells."""
    return [[(c.name, c.values[i]) for c in table.columns if c.values[i] is not None and str(c.values[i]).strip()]
            for i in range(table.rows)]


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float, decimal.Decimal)) and not isinstance(value, bool)


def _telling(value: Any, goal: str, headers: set[str], goal_numbers: set[str]) -> bool:
    """Whether a cell's value, found in an answer, tells that the answer is about its
    row: a text of two letters or more that is not a header and not in the goal, or a
    number of 10 or more (a smaller one is as likely a count) that the goal does not give
    (``goal_numbers``: :func:`evidence._source_numbers` of the goal)."""
    if _is_number(value):
        return abs(value) >= 10 and normalise_number(str(value)) not in goal_numbers
    text = str(value).strip()
    return (len(text) >= 2 and re.search(r"[^\W\d_]", text) is not None and text.lower() not in headers
            and not _word_in(text, goal))


def _said(value: Any, text: str, numbers: set[str]) -> bool:
    """Whether ``text`` gives the cell ``value`` (a number among ``numbers``, the text as a word)."""
    if _is_number(value):
        return normalise_number(str(value)) in numbers
    return _word_in(str(value).strip(), text)


def _unbacked(text: str, table: Any, goal: str, support: str) -> tuple[list[str], int]:
    """``(values, rows)``: the telling values of ``table``'s rows that ``text`` gives and
    ``support`` does not back (a row is backed when ``support`` gives one of its telling
    values), and how many rows ``text`` gives values of. Rows the goal names are skipped."""
    headers = {c.name.lower() for c in table.columns} | {c.header.lower() for c in table.columns if c.header}
    said, backed, in_goal = _source_numbers([text]), _source_numbers([support]), _source_numbers([goal])
    unbacked: list[Any] = []
    rows = 0
    for row in _cells(table):
        if any(not _is_number(v) and len(str(v).strip()) >= 3 and _word_in(str(v).strip(), goal) for _, v in row):
            continue  # a row the goal names
        given = [v for _, v in row if _telling(v, goal, headers, in_goal) and _said(v, text, said)]
        rows += bool(given)
        if given and not any(_telling(v, goal, headers, in_goal) and _said(v, support, backed) for _, v in row):
            unbacked += [v for v in given if v not in unbacked]
    # the rows' names first, then their numbers
    return [str(v) for v in sorted(unbacked, key=_is_number)], rows


def _ask_query(table: Any) -> str:
    columns = ", ".join(f"{c.name} ({c.sql_type.lower()})" for c in table.columns[:8])
    return (f"rows picked, counted or added up by eye are often wrong; call table_query with SQL that computes exactly "
            f"what the task asks, over table {table.name} (columns {columns})")


def rows_not_queried(answer: str, ev: Evidence) -> str:
    """The doubt when a question about the one table file the goal names
    (:func:`figures._question_table`) is answered with values of its rows (names,
    amounts) that no ``table_query`` result of the task and nothing the harness said
    holds, or, for a question that asks how many, with a count no such text gives
    ("" otherwise, and when ``table_query`` is not loaded). A row the goal itself names
    ("the email of Tom") may be read by eye: that is a lookup."""
    asked = _question_table(ev)
    if asked is None or "table_query" not in ev.tool_names or _GAVE_UP.search(answer):
        return ""
    name, table = asked
    support = _support(ev)
    unbacked, _ = _unbacked(answer, table, ev.goal, support)
    said = _source_numbers([answer])
    # a count of rows is a whole number no larger than the table ("how many hours" is a sum: 15.5, or 45 of 3 rows)
    counts = {n for n in said if n.isdigit() and int(n) <= table.rows}
    counted = _COUNT_ASKED.search(ev.goal) and counts == said and counts \
        and not (counts & _source_numbers([_count_support(ev, table)])) and not unbacked
    if not unbacked and not counted:
        return ""
    what = f"gives {', '.join(unbacked[:4])} from {name}" if unbacked else f"gives a count of rows of {name}"
    return (f"the answer {what}, and no table_query of this task returned {'them' if len(unbacked) > 1 else 'it'}: "
            f"{_ask_query(table)}, then answer with only what it returns")


def written_rows_not_queried(ev: Evidence) -> str:
    """The doubt when the task wrote a text file the goal asks for (.txt, .md) with some
    of the rows of the one table file the goal names (their names, amounts), picked
    without a ``table_query`` result or a harness note that backs them ("" otherwise;
    every row of the table written is a copy, not a pick). Batch U at bad5969 (UE): the
    three most expensive products written into top3.txt from the read table."""
    outputs, inputs = goal_files(ev.goal)
    tables = [f for f in inputs if f.lower().endswith((".csv", ".tsv", ".xlsx"))]
    written = {norm_path(w) for w in ev.written}
    texts = [o for o in outputs if o.lower().endswith((".txt", ".md")) and norm_path(o) in written]
    if len(tables) != 1 or not texts or "table_query" not in ev.tool_names:
        return ""
    found = _file_tables(ev.workspace, tables[0])
    if len(found) != 1 or found[0].rows > 5000:
        return ""
    table, support = found[0], _support(ev)
    for out in texts:
        try:
            text = (Path(ev.workspace) / out).read_text(errors="replace")
        except OSError:
            continue
        unbacked, rows = _unbacked(text, table, ev.goal, support)
        if unbacked and rows < table.rows:
            return (f"{out} holds {', '.join(unbacked[:4])} from {tables[0]}, and no table_query of this task returned "
                    f"{'them' if len(unbacked) > 1 else 'it'}: {_ask_query(table)}, then write {out} again with only "
                    "what it returns")
    return ""


#: a goal whose output carries an input's own words: its lines, names, items, text
_CARRIES_TEXT = re.compile(r"\b(lines?|text|names?|words?|items?|entries|contents?|sentences?|paragraphs?|emails?|"
                           r"e-mail addresses|addresses)\b", re.IGNORECASE)
#: a word of three letters or more, or a code or number of three characters or more ("HP-2026-0417", "0170")
_TEXT_WORD = re.compile(r"[^\W_][\w@.-]*[^\W_]")
#: the line numbers read_file puts before each line ("     3\ttext"), which are no words of the file
_LINE_NUMBER = re.compile(r"^ *\d+(?:\t| *[|:] ?)", re.MULTILINE)


def _words(text: str) -> set[str]:
    return {w.lower() for w in _TEXT_WORD.findall(text) if len(w) >= 3} - _COMMON


#: the header read_file puts above a file's lines: "todo.txt (utf-8, 4 lines)"
_READ_HEADER = re.compile(r"^\S.*\((?:[\w-]+, )?\d+ lines?[^)]*\)\s*$", re.MULTILINE)
_LIST_ITEM = re.compile(r"^(?:[-*•]\s+|\d+[.)]\s+)")
#: a goal about a file's lines themselves: reordered, picked, copied
_LINES_OF = re.compile(r"\blines\b", re.IGNORECASE)


def written_without_source_words(ev: Evidence) -> str:
    """The doubt when the goal asks for a text file (.txt, .md) made of what a file it
    names says (its lines, names, items: :data:`_CARRIES_TEXT`), this task read that file
    and wrote the output, and the output holds not one word of it, or, when the goal asks
    for the file's lines, a line that is none of the file's ("" otherwise). A held-out
    task at 5dcca13 (VE): "Write the lines of todo.txt in reverse order into reversed.txt."
    wrote "1\n2\n3\n4", the line numbers of the read, and finished; at c5f189f it wrote
    the read's header "todo.txt (utf-8, 4 lines)" between the numbers."""
    if not _CARRIES_TEXT.search(ev.goal):
        return ""
    outputs, inputs = goal_files(ev.goal)
    written = {norm_path(w) for w in ev.written}
    texts = [o for o in outputs if o.lower().endswith((".txt", ".md")) and norm_path(o) in written]
    named = {norm_path(i) for i in inputs}
    read = [c for c in ev.calls if c.status == "done" and not c.error and c.result
            and norm_path(str(c.arguments.get("path", ""))) in named]
    if not texts or not read:
        return ""
    files = sorted({str(c.arguments.get("path")) for c in read})
    said = " ".join(files)
    kept: set[str] = set()  # the lines of the files as they are on disk, when none of them was changed
    if not named & written:
        for rel in files:
            try:
                kept |= {ln.strip() for ln in (Path(ev.workspace) / rel).read_text(errors="replace").splitlines()}
            except OSError:
                kept = set()
                break
    source: set[str] = set()
    for c in read:
        fenced = _FENCED.findall(c.result or "")
        body = " ".join(b for _, b in fenced) if fenced else c.result or ""
        source |= _words(_LINE_NUMBER.sub(" ", _READ_HEADER.sub(" ", body)))
    source -= _words(ev.goal)
    if not source:
        return ""
    for out in texts:
        try:
            text = (Path(ev.workspace) / out).read_text(errors="replace")
        except OSError:
            continue
        lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
        shown = " / ".join(lines)[:80]
        if lines and not (_words(text) & source):
            return (f"{out} holds {shown!r}, not one word of {said}; the task asks for what {said} says: write "
                    f"{out} again with its lines themselves (the numbers before each line of a read are not part "
                    "of the file)")
        # a list marker of the model's own ("- ", "2. ") leaves a line the file's
        foreign = [ln for ln in lines if ln not in kept and _LIST_ITEM.sub("", ln) not in kept]
        if kept and _LINES_OF.search(ev.goal) and foreign and len(foreign) * 2 >= len(lines):
            return (f"{out} holds {len(foreign)} line{'s' if len(foreign) > 1 else ''} that {said} does not have "
                    f"({', '.join(repr(ln[:40]) for ln in foreign[:3])}); the task asks for the lines of {said}: write "
                    f"{out} again with its lines as the file has them (the numbers and the header of a read are not "
                    "part of the file)")
    return ""


#: an aggregate of one column in SQL: SUM(order_id), AVG("id")
_AGGREGATE_OF = re.compile(r"\b(sum|avg|mean)\s*\(\s*(?:distinct\s+)?[\"`]?(\w+)[\"`]?\s*\)", re.IGNORECASE)


def _id_sum_in(text: str, ev: Evidence) -> tuple[str, str] | None:
    """``(the aggregate, a number)``: a number ``text`` gives that comes only from
    ``table_query`` results whose SQL sums or averages a column that is each row's id
    (:data:`table_goal._ID_COLUMN`), not from another query or the goal; None otherwise."""
    from .table_goal import _ID_COLUMN

    said = _source_numbers([text])
    bad: list[tuple[str, set[str]]] = []
    good: set[str] = set(_source_numbers([ev.goal]))
    for c in ev.calls:
        if c.name != "table_query" or c.status != "done" or c.error:
            continue
        ids = [m.group(0) for m in _AGGREGATE_OF.finditer(str(c.arguments.get("sql", ""))) if _ID_COLUMN.search(m[2])]
        found = _source_numbers([_ROWS_HEAD.sub("", c.result or "", count=1)]) & said  # "3 rows:" is no sum
        if ids:
            bad.append((ids[0], found))
        else:
            good |= found
    return next(((shown, sorted(found - good)[0]) for shown, found in bad if found - good), None)


_COUNT_INSTEAD = ("to count rows use COUNT(*) (a share of the rows: ROUND(100.0 * COUNT(*) FILTER (WHERE ...) / "
                  "COUNT(*), 1))")


def id_aggregated(answer: str, ev: Evidence) -> str:
    """The doubt when a number of the answer comes only from ``table_query`` results
    whose SQL sums or averages a column that is each row's id ("order_id", "id", "no":
    :data:`table_goal._ID_COLUMN`), which is no amount ("" otherwise). VR at 5dcca13:
    "What share of the orders ... were returned?" ran SUM(order_id) FILTER (...) /
    SUM(order_id) and answered 19.4% (2 of 8 orders: 25%), and the task finished."""
    wrong = _id_sum_in(answer, ev)
    if wrong is None:
        return ""
    return (f"the answer's {wrong[1]} comes from a query that takes {wrong[0]}, and that column is each row's "
            f"id, not an amount; {_COUNT_INSTEAD}, then answer with what it returns")


def written_id_aggregated(ev: Evidence) -> str:
    """:func:`id_aggregated` for a file the goal asks for that the task wrote (.txt, .md,
    .csv): the doubt when a number in it comes only from a sum or average of a row id
    column ("" otherwise). Batch W at bad9c2a (WO): "Make a Markdown table in summary.md
    with the number of tickets per status" wrote SUM(id) per status (closed 13: 3 tickets)."""
    written = {norm_path(w) for w in ev.written}
    for out in goal_files(ev.goal)[0]:
        if not out.lower().endswith((".txt", ".md", ".csv")) or norm_path(out) not in written:
            continue
        try:
            text = (Path(ev.workspace) / out).read_text(errors="replace")
        except OSError:
            continue
        wrong = _id_sum_in(text, ev)
        if wrong:
            return (f"{out} holds {wrong[1]}, from a query that takes {wrong[0]}, and that column is each row's id, "
                    f"not an amount; {_COUNT_INSTEAD}, then write {out} again with what it returns")
    return ""


#: a number as an answer writes it: "80", "35.50", "1,234.5"
_SAID_NUMBER = re.compile(r"(?<![\w.,-])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w-]|[.,]\d)")
#: a date or a time in a clause: its numbers are no values of a row
_DATE_OR_TIME = re.compile(r"\d{4}-\d{1,2}|\d{1,2}[./]\d{1,2}[./]\d{2,4}|\d{1,2}:\d{2}")
#: where an answer's clauses part: "20.00 for Mona, 35.50 for Lars, and 16.00 for Kira"
_CLAUSE_END = re.compile(r"[;\n()]|,\s+(?:and\s+)?|\s+and\s+|\.\s+")


def _as_decimal(text: str) -> decimal.Decimal | None:
    try:
        return decimal.Decimal(text.replace(",", ""))
    except decimal.InvalidOperation:
        return None


def _rounds_to(said: decimal.Decimal, value: decimal.Decimal) -> bool:
    """Whether ``said`` is ``value`` as written to its own decimal places (16.67 for 16.666...)."""
    places = max(0, -said.as_tuple().exponent)
    return abs(said - value) <= decimal.Decimal(5) / (10 ** (places + 1)) + decimal.Decimal("1e-9")


def pairs_against_query(answer: str, ev: Evidence) -> str:
    """The doubt when a clause of the answer pairs a row's name that a ``table_query``
    of this task returned ("Mona") with one number, and no query gave that row that
    number ("" otherwise; a number written rounded counts as the same). XD at 0958b96:
    "What is the average order amount per customer in orders.csv?" queried the averages
    (Mona 80, Lars 25, Kira 16), was offered them to copy, and answered "20.00 for Mona,
    35.50 for Lars, and 16.00 for Kira" from the table's rows; the task finished."""
    if _GAVE_UP.search(answer):
        return ""
    values: dict[str, list[decimal.Decimal]] = {}
    shown: dict[str, tuple[int, str]] = {}
    for c in ev.calls:
        if c.name != "table_query" or c.status != "done" or c.error or not c.result:
            continue
        rows = _result_rows(c.result)
        for row in rows if len(rows) <= 50 else []:
            names = [x for x in row if re.search(r"[^\W\d_]{2}", x) and _as_decimal(x) is None]
            numbers = [n for x in row if (n := _as_decimal(x)) is not None]
            if len(names) == 1 and numbers:
                values.setdefault(names[0].lower(), []).extend(numbers)
                shown.setdefault(names[0].lower(), (c.step, next(x for x in row if _as_decimal(x) is not None)))
    if not values:
        return ""
    harness = _source_numbers(ev.harness_texts)  # a number the harness worked out is its own to stand by
    # a number no tool gave at all is another check's (numbers from nowhere): this one is for a row's number misread
    shown_anywhere = _source_numbers([c.result for c in ev.calls if c.result and c.status == "done"])
    for clause in _CLAUSE_END.split(answer):
        if _DATE_OR_TIME.search(clause):
            continue
        keys = [k for k in values if _word_in(k, clause)]
        said = _SAID_NUMBER.findall(clause)
        if len(keys) != 1 or len(said) != 1:
            continue
        number = _as_decimal(said[0])
        if number is not None and not any(_rounds_to(number, v) for v in values[keys[0]]) \
                and normalise_number(said[0]) not in harness and normalise_number(said[0]) in shown_anywhere:
            step, value = shown[keys[0]]
            copy = _query_answer(ev)
            return (f"the answer gives {said[0]} for {_shown_name(clause, keys[0])}, and the table_query at step "
                    f"{step} returned {value} for it; answer with what the query returned{copy}")
    return ""


def _shown_name(clause: str, key: str) -> str:
    """``key`` as ``clause`` writes it (its letter case)."""
    m = re.search(rf"(?<![\w@.-]){re.escape(key)}(?![\w@-])", clause, re.IGNORECASE)
    return m.group(0) if m else key
