"""What a goal names of a workspace table: a value of one of its text columns
(``goal_value``: "Travel" of category, "unpaid" of status, "class B"), or a bound
on its date column (``date_filter``: "started before 2020") or number column
(``number_filter``: "over 500 euros"); ``number_column``, the column a sum takes.
Shared by the table hints (``calls``) and the finish checks (``figures``)."""

from __future__ import annotations

import decimal
import posixpath
import re
from datetime import date, timedelta
from typing import Any, Callable, NamedTuple

from .dates_said import dates_in, month_number, real_day
from .evidence import _HIGHEST, _LOWEST, asks_only_a_question

__all__ = ["goal_value", "goal_columns", "date_filter", "number_filter", "month_filter", "goal_filters", "row_filter",
           "RowFilter",
           "number_column", "is_number", "group_bound", "GroupBound", "weekday_filter", "weekday_ranking", "WEEKDAYS",
           "WEEKDAY_ASKED", "SUMS_TO", "sums_to", "change_columns", "change_falls", "two_values", "split_outputs",
           "sort_order", "ROW_EXTREME", "SUMMED", "MONTH_SAID", "PERCENT_CHANGE", "percent_change", "MERGED",
           "merge_query", "column_change", "overdue_query", "OVERDUE", "LOWER_BETTER", "MEAN_OF_TWO", "lowest_wanted",
           "row_mean_columns"]


#: a goal that ranks rows by a value of their own: "the lowest price for paper", not "the highest total"
ROW_EXTREME = re.compile(r"\b(highest|lowest|cheapest|dearest|most expensive|least expensive)\b", re.IGNORECASE)
#: a goal that sums or splits: its highest is a group's total, not one row's value
SUMMED = re.compile(r"\b(total|totals|sum|spent|spend|paid|pay|altogether|combined|in all|overall|per|each)\b",
                    re.IGNORECASE)
TOTAL_LABEL = re.compile(r"(?:grand |sub-?)?totals?|sum|overall", re.IGNORECASE)


def goal_value(table: Any, goal: str) -> tuple[str, str] | None:
    """``(column, value)``: a value of one of ``table``'s text columns (at most 50
    distinct values, 3+ characters, not a total row's label such as "Total") that
    ``goal`` names as a whole word, from the column with the fewest distinct values
    ("Travel" of category), or a shorter one the goal names after its column ("class
    B"); else None."""
    best: tuple[str, str, int] | None = None
    for c in table.columns:
        if c.sql_type != "VARCHAR":
            continue
        values = {str(v) for v in c.values if v is not None}
        if len(values) > 50:
            continue
        for v in sorted(values):
            if TOTAL_LABEL.fullmatch(v.strip()):  # xlsx_total at 21c8a9e: the row the goal asks to add, "Total",
                continue  # was read back and given as "SELECT SUM(amount) ... WHERE item = 'Total'" (NULL)
            # a short value only after its column's name ("class B"): alone, "B" matches too much
            said = re.escape(v) if len(v) >= 3 else rf"{re.escape(c.name)}\s+{re.escape(v)}"
            if re.search(rf"(?<!\w){said}(?!\w)", goal, re.IGNORECASE) \
                    and (best is None or len(values) < best[2]):
                best = (c.name, v, len(values))
    return (best[0], best[1]) if best else None


def goal_values(table: Any, goal: str) -> tuple[str, list[str]] | None:
    """``(column, values)``: two or more values of one of ``table``'s text columns (at
    most 50 distinct values, 3+ characters, not "Total") that ``goal`` names as whole
    words, in the goal's order ("How many tickets are open, closed and pending?":
    status, [open, closed, pending]); the column naming the most of them; else None.
    A held-out task at 911f35c got one of the three counted (closed: 3) and said it as
    the total."""
    best: tuple[str, list[str]] | None = None
    for c in table.columns:
        if c.sql_type != "VARCHAR":
            continue
        values = {str(v).strip() for v in c.values if v is not None and str(v).strip()}
        if len(values) > 50:
            continue
        at = {}
        for v in values:
            m = re.search(rf"(?<!\w){re.escape(v)}(?!\w)", goal, re.IGNORECASE)
            if len(v) >= 3 and m and not TOTAL_LABEL.fullmatch(v) and v.lower() not in {k.lower() for k in at}:
                at[v] = m.start()
        named = sorted(at, key=at.get)
        if len(named) >= 2 and (best is None or len(named) > len(best[1])):
            best = (c.name, named)
    return best


def value_counts_query(table: str, column: str, values: list[str]) -> str:
    """The query counting the rows of ``table`` holding each of ``values`` in ``column``
    (:func:`goal_values`), one row per value."""
    listed = ", ".join("'" + v.replace("'", "''") + "'" for v in values)
    return f"SELECT {column}, COUNT(*) AS count FROM {table} WHERE {column} IN ({listed}) GROUP BY {column}"


_SORT = re.compile(r"\b(sort|order|rank|arrang)\w*\b.{0,60}?\bby\s+(?:the\s+|their\s+|its\s+)?([\w ]{2,40}?)"
                   r"(?=\s+(?:from|in|into|and|then|to|with|descending|ascending|highest|lowest|largest|smallest)\b|"
                   r"[,.;:!?]|$)", re.IGNORECASE)
_DESCENDING = re.compile(r"\b(highest|largest|biggest|most|greatest|newest|latest|best)\b.{0,12}\b(to|first)\b|"
                         r"\bdescending\b|\bz\s*(?:-|to)\s*a\b|\breverse\b", re.IGNORECASE)


def sort_order(table: Any, goal: str) -> tuple[str, str] | None:
    """``(column, "ASC" or "DESC")`` when ``goal`` asks to sort the rows by a column of
    ``table`` it names ("Sort scores.csv by score from highest to lowest": score, DESC;
    "highest first", "descending", "Z to A" are DESC, anything else ASC); None
    otherwise. A held-out task at b7b6dee got "the highest" row's query (LIMIT 1) as
    the example, and ranked.csv held one row of four."""
    m = _SORT.search(goal)
    if m is None:
        return None
    said = " ".join(m.group(2).lower().replace("_", " ").split())
    column = next((c.name for c in table.columns if c.name.replace("_", " ") in (said, said.rstrip("s"))), None)
    if column is None:
        return None
    return column, "DESC" if _DESCENDING.search(goal[m.start():]) else "ASC"


def split_outputs(table: Any, outputs: list[str]) -> list[tuple[str, str, str]]:
    """``[(output, column, value)]`` when two or more of ``outputs`` (file paths) are each
    named after a value of one text column of ``table`` (at most 50 distinct values; the
    file name without its extension, ``_`` and ``-`` read as spaces, equal to the value
    but for case: ``berlin.csv`` for "Berlin" of city), one entry per such output; []
    otherwise. A held-out task at a6267c9: "Split contacts.csv into one file per city:
    berlin.csv and munich.csv" wrote the number of contacts per city into both."""
    for c in table.columns:
        if c.sql_type != "VARCHAR":
            continue
        values = {" ".join(str(v).split()).lower(): str(v).strip() for v in c.values if v is not None}
        if len(values) > 50:
            continue
        stems = [(o, " ".join(re.sub(r"[_-]+", " ", posixpath.splitext(posixpath.basename(o))[0]).split()).lower())
                 for o in outputs]
        pairs = [(o, c.name, values[stem]) for o, stem in stems if stem in values]
        if len(pairs) >= 2:
            return pairs
    return []


#: a question about the gap between two amounts: "How much more did I spend in 2026 than in 2025?", "the difference
#: between travel and food", "How much did rent increase from 2025 to 2026?"
_DIFFERENCE = re.compile(r"\bhow much (?:more|less)\b|\bdifferen(?:ce|t)\b|\b(?:more|less|fewer)\b.{0,60}\bthan\b"
                         r"|\b(?:increase|decrease|rise|rose|grow|grew|drop|fall|fell|change)[sd]?\b.{0,60}"
                         r"\bfrom\b.{1,40}\bto\b", re.IGNORECASE | re.DOTALL)


def two_values(table: Any, goal: str) -> tuple[str, str, str] | None:
    """``(column, first, second)`` when ``goal`` asks for the difference of two amounts
    and names two values (3+ characters, as whole words) of one of ``table``'s text
    columns (at most 50 distinct values): ``first`` minus ``second`` is the figure
    asked, so "X ... than Y" and "between X and Y" give X first, "from X to Y" gives Y
    first; None otherwise. A held-out task at 1de0702: "How much more did I spend in
    2026 than in 2025?", a sheet each (the union table's sheet column), was answered
    with 1300, one row of 2025."""
    if not _DIFFERENCE.search(goal):
        return None
    for c in table.columns:
        values = {str(v) for v in c.values if v is not None}
        if c.sql_type != "VARCHAR" or len(values) > 50:
            continue
        found = sorted((m.start(), v) for v in values if len(v) >= 3 and not TOTAL_LABEL.fullmatch(v.strip())
                       for m in [re.search(rf"(?<!\w){re.escape(v)}(?!\w)", goal, re.IGNORECASE)] if m)
        if len(found) != 2:
            continue
        (_, a), (at, b) = found
        between = goal[found[0][0]:at]
        if re.search(r"\bto\b", between, re.IGNORECASE) and re.search(r"\bfrom\b", goal[:found[0][0]][-30:],
                                                                        re.IGNORECASE):
            return c.name, b, a
        return c.name, a, b
    return None


class RowFilter(NamedTuple):
    """A bound on a table's date or number column that a goal gives: ``sql`` the WHERE
    condition ("start_date < DATE '2020-01-01'"), ``said`` it in words ("before
    2020-01-01"), ``keep`` whether a value of the column (a date, or a number) meets it."""

    column: str
    sql: str
    said: str
    keep: Callable[[Any], bool]


_DATE_BOUND = re.compile(r"\b(before|prior to|earlier than|after|later than|since|in|during|on|from)\s+(?:the\s+)?"
                         r"(?:year\s+)?", re.IGNORECASE)


def date_filter(table: Any, goal: str) -> RowFilter | None:
    """The bound ``goal`` puts on ``table``'s date column ("before 2020", "since 1 March
    2019", "in 2019", "after 2026-06-30"), or None (no date column, no such words).
    A year alone bounds by its first day (before, since), its last (after), or is the
    year itself (in, during, and from: "the orders from 2025"; "from 2025 on" is since;
    "from" a day is since, unless a "to" follows). With several date columns, the one whose name shares
    the start of a goal word ("started" and start_date) is taken, else the first. A
    held-out task at a864c41: "Which employees in staff.csv started before 2020?"."""
    dated = [c for c in table.columns if c.sql_type in ("DATE", "TIMESTAMP")]
    if not dated:
        return None
    words = {w.lower()[:4] for w in re.findall(r"[A-Za-z]{4,}", goal)}
    col = next((c.name for c in dated if any(part[:4] in words for part in re.split(r"[_\W]+", c.name.lower())
                                             if len(part) >= 4)), dated[0].name)
    week = re.search(r"\bweek\s+(?:of|starting|beginning|from)\s+(?:the\s+)?", goal, re.IGNORECASE)
    first = next((d for d in dates_in(goal[week.end():][:40]) if d.year and goal[week.end():].startswith(d.text)),
                 None) if week else None
    if first is not None and real_day(first):
        start = date(first.year, first.month, first.day)
        end = start + timedelta(days=6)
        return RowFilter(col, f"{col} BETWEEN DATE '{start.isoformat()}' AND DATE '{end.isoformat()}'",
                         f"in the week {start.isoformat()} to {end.isoformat()}",
                         lambda v: _day(v) is not None and start <= _day(v) <= end)
    for m in _DATE_BOUND.finditer(goal):
        word, rest = m.group(1).lower(), goal[m.end():]
        year = re.match(r"((?:19|20)\d{2})\b(?![.,]?\d)", rest)
        said = next((d for d in dates_in(rest[:40]) if d.year and rest.startswith(d.text)), None)
        if said is not None:
            try:
                day = date(said.year, said.month, said.day)
            except ValueError:
                continue
            op = {"before": "<", "prior to": "<", "earlier than": "<", "after": ">", "later than": ">",
                  "since": ">=", "on": "=", "from": ">="}.get(" ".join(word.split()))
            if op is None or word == "from" and re.match(r"\s*(?:to|until|till|through|-|\u2013)",
                                                          rest[len(said.text):], re.IGNORECASE):
                continue  # "from 1 March 2026 to 31 May 2026" is a span, not a bound at its start
            bound = day.isoformat()
        elif year is not None and word != "on":
            y = int(year.group(1))
            if word == "from" and re.match(r"\d{4}\s+(?:on|onwards?|to|until|till)\b", rest, re.IGNORECASE):
                word = "since"  # "from 2025 on" bounds by the year's first day; "the orders from 2025" are 2025's
            if word in ("in", "during", "from"):
                return RowFilter(col, f"year({col}) = {y}", f"in {y}", lambda v, y=y: _day(v) is not None
                                  and _day(v).year == y)
            op = "<" if word in ("before", "prior to", "earlier than") else ">=" if word == "since" else ">"
            day = date(y, 1, 1) if op != ">" else date(y, 12, 31)
            bound = day.isoformat()
        else:
            continue
        test = {"<": lambda v: v < day, ">": lambda v: v > day, ">=": lambda v: v >= day, "=": lambda v: v == day}[op]
        words_of = {"<": "before", ">": "after", ">=": "since", "=": "on"}[op]
        return RowFilter(col, f"{col} {op} DATE '{bound}'", f"{words_of} {bound}",
                          lambda v, test=test: _day(v) is not None and test(_day(v)))
    return None


def _day(value: Any) -> date | None:
    """``value`` as a date (a datetime's day); None for anything else."""
    if hasattr(value, "date") and callable(value.date):
        return value.date()
    return value if isinstance(value, date) else None


#: a column that numbers the rows rather than measures them
_ID_COLUMN = re.compile(r"(^|_)(id|no|nr|number|num)$|^(id|#)$", re.IGNORECASE)


def is_number(column: Any) -> bool:
    """Whether a table column (``tools.tables.loading.Column``) holds numbers (its SQL type)."""
    return column.sql_type in ("BIGINT", "DOUBLE", "INTEGER") or column.sql_type.startswith("DECIMAL")


#: a spreadsheet's column letter: "column B", "the B column" (a capital letter alone)
_COLUMN_LETTER = re.compile(r"\b[Cc]olumn\s+([A-Z])\b(?!['’])|\b([A-Z])\s+column\b")


def _row_number(column: Any) -> bool:
    """Whether a number column counts the rows (1, 2, 3, ...: an order number, not an amount)."""
    values = list(column.values)
    return len(values) > 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in values) \
        and values == list(range(values[0], values[0] + len(values)))


def _goal_words(goal: str) -> str:
    """``goal`` without the file names it gives ("orders.csv" names no column)."""
    return re.sub(r"[\w./-]+\.[A-Za-z]{2,5}\b", " ", goal)


def number_column(table: Any, goal: str = "") -> str | None:
    """The number column ``goal`` names, else the first number column that is no row's id
    ("order_id", "id", "no"), else the first number column (a held-out task at 386ac48 got
    SUM(order_id) as the example).

    The goal names a column by its letter ("column B": the second), or when it says "the
    Amount column" (or "column Amount"), else when the column's name (``_`` read as a
    space) is a word of the goal not after "per", "each", "by" or "every" (those group:
    "per year" sums no years), and one column alone is so named. A held-out task at a6267c9: "the total of the Amount
    column" in a table of Item, Qty, Amount was offered SUM(qty)."""
    numbers = [c.name for c in table.columns if is_number(c)]
    letter = _COLUMN_LETTER.search(goal)
    if letter:  # "column B" of a spreadsheet: the table's second column (a held-out task at bad5969 queried "B")
        at = ord((letter.group(1) or letter.group(2))) - ord("A")
        if at < len(table.columns) and table.columns[at].name in numbers:
            return table.columns[at].name
    for shape in (r"\b{n}\s+column\b|\bcolumn\s+{n}\b", r"(?<!\bper )(?<!\beach )(?<!\bby )(?<!\bevery ){n}s?\b"):
        said = [n for n in numbers if re.search(r"\b" + shape.replace("{n}", re.escape(n.replace("_", " "))), goal,
                                                re.IGNORECASE)] if goal else []
        if len(said) == 1:
            return said[0]
    counted = {c.name for c in table.columns if is_number(c) and _row_number(c)}  # batch AZ at 018ad5b (AZB): an
    # "order" column of 1 to 6 (order_ to SQL) was summed for "spent more than 500 in total"
    return next((n for n in numbers if not _ID_COLUMN.search(n) and n not in counted),
                next((n for n in numbers if not _ID_COLUMN.search(n)), numbers[0] if numbers else None))


#: a question for the spread of a number column: "the difference between the highest and the lowest price"
RANGE_ASKED = re.compile(
    r"\b(?:difference|gap|spread)\s+between\s+(?:the\s+)?(?:highest|largest|biggest|maximum|max|most expensive|"
    r"greatest)\b[^.?!]{0,30}?\band\s+(?:the\s+)?(?:lowest|smallest|minimum|min|cheapest|least)\b|"
    r"\b(?:difference|gap|spread)\s+between\s+(?:the\s+)?(?:lowest|smallest|minimum|min|cheapest|least)\b"
    r"[^.?!]{0,30}?\band\s+(?:the\s+)?(?:highest|largest|biggest|maximum|max|most expensive|greatest)\b|"
    r"\bwhat\s+is\s+the\s+range\s+of\b", re.IGNORECASE)


def range_query(table: Any, goal: str) -> tuple[str, str] | None:
    """``(column, sql)`` when ``goal`` asks for the difference between the highest and
    the lowest value of a number column of ``table`` (:func:`number_column`): ``SELECT
    MAX(price) - MIN(price) AS difference FROM prices``; None otherwise. A held-out
    task at 911f35c got the highest row as the example, queried MAX and MIN and
    answered "This is the final answer for the user's query."."""
    column = number_column(table, goal) if RANGE_ASKED.search(goal) else None
    if column is None:
        return None
    q = _quoted(column)
    return column, f"SELECT MAX({q}) - MIN({q}) AS difference, MAX({q}) AS highest, MIN({q}) AS lowest " \
                   f"FROM {_quoted(table.name)}"


#: a rank other than the first: "the second-highest score", "the third largest order", "2nd cheapest"
NTH_RANKED = re.compile(r"\b(?P<nth>second|third|fourth|fifth|2nd|3rd|4th|5th)[\s-]+(?P<word>highest|largest|"
                        r"biggest|best|most\s+expensive|lowest|smallest|cheapest|least\s+expensive|worst)\b",
                        re.IGNORECASE)
_NTH = {"second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5, "5th": 5}


def nth_ranked(table: Any, goal: str) -> tuple[str, int, bool, str] | None:
    """``(column, n, lowest, sql)`` when ``goal`` asks for the row ranked ``n``-th (2 to 5)
    by a number column of ``table`` (:func:`number_column`), highest first unless it
    says lowest, smallest, cheapest (``lowest``): ``SELECT ... ORDER BY score DESC
    LIMIT 1 OFFSET 1`` for "the second-highest score"; None otherwise. A held-out task
    at bad5969 got the top row's query as the example and answered the highest score
    (95) as the second-highest (91)."""
    m = NTH_RANKED.search(goal)
    column = number_column(table, goal) if m else None
    if m is None or column is None:
        return None
    n = _NTH[m.group("nth").lower()]
    low = m.group("word").lower().split()[0] in ("lowest", "smallest", "cheapest", "least", "worst")
    shown = ", ".join(_quoted(c.name) for c in table.columns[:6])
    return column, n, low, (f"SELECT {shown} FROM {_quoted(table.name)} ORDER BY {_quoted(column)} "
                            f"{'ASC' if low else 'DESC'} LIMIT 1 OFFSET {n - 1}")


#: the value of a column ranked n-th by how often it occurs: "the second most common city"
NTH_COMMON = re.compile(r"\b(?P<nth>second|third|fourth|fifth|2nd|3rd|4th|5th)[\s-]+(?P<word>most|least)[\s-]+"
                        r"(?:common|frequent|often|popular|used|usual)\s+(?P<what>[A-Za-z][\w-]{1,30})", re.IGNORECASE)


class NthCommon(NamedTuple):
    """The values of ``column`` ranked ``n``-th by how many rows hold them (``values``,
    ties together; ``count`` rows each), the fewest first when ``least``, and the query."""
    column: str
    n: int
    least: bool
    values: list[str]
    count: int
    sql: str


def nth_common(table: Any, goal: str) -> NthCommon | None:
    """The value(s) of the column ``goal`` names ranked ``n``-th by their count of rows
    (:data:`NTH_COMMON`: "the second most common city"; counts ranked densely, so values
    tied share a place), or None. Batch EZ at 865c16b (EZH): "What is the second most
    common city in customers.csv?" ran the counts per city and answered the first,
    Berlin (3), for Hamburg (2)."""
    m = NTH_COMMON.search(goal)
    if m is None:
        return None
    what = m.group("what").lower()
    column = next((c for c in table.columns if c.sql_type == "VARCHAR" and c.name.lower() in (
        what, what.rstrip("s"), re.sub(r"ies$", "y", what))), None)
    if column is None:
        return None
    counts: dict[str, int] = {}
    for v in column.values:
        if v is not None and str(v).strip():
            counts[str(v).strip()] = counts.get(str(v).strip(), 0) + 1
    n, least = _NTH[m.group("nth").lower()], m.group("word").lower() == "least"
    ranks = sorted(set(counts.values()), reverse=not least)
    if len(ranks) < n:
        return None
    count = ranks[n - 1]
    name = _quoted(column.name)
    sql = (f"SELECT {name}, COUNT(*) AS rows_ FROM {_quoted(table.name)} WHERE {name} IS NOT NULL GROUP BY {name} "
           f"ORDER BY 2 {'ASC' if least else 'DESC'}")
    return NthCommon(column.name, n, least, [v for v, c in counts.items() if c == count], count, sql)


#: a change from the row before, in a table ordered by a period column: "Which year grew the most compared to the
#: year before?", "the month with the biggest drop from the previous month"
STEP_CHANGE = re.compile(r"\b(?P<verb>grew|grow|growth|increased?|rose|rise|gain(?:ed)?|jump(?:ed)?|fell|fall|"
                         r"dropp?(?:ed)?|decreased?|declined?|shrank|shrink)\b[^?.!]*?"
                         r"\b(?:(?:compared|relative)\s+(?:to|with)|"
                         r"from|over|since|than)\s+(?:the\s+)?(?:year|month|quarter|week|day|period)\s+(?:before|"
                         r"earlier)|\b(?:previous|prior|preceding|last)\s+(?:year|month|quarter|week|day|period)\b",
                         re.IGNORECASE)
_STEP_DOWN = re.compile(r"\b(fell|fall|dropp?(?:ed)?|drop|decreased?|declined?|shrank|shrink)\b", re.IGNORECASE)


class StepChange(NamedTuple):
    """The row whose ``value`` column changed the most (``down``: fell the most) from the
    row before it, the rows ordered by ``period``: its ``label`` and the ``change``, the
    ``sql`` that shows every row's change."""
    period: str
    value: str
    label: str
    change: float
    down: bool
    sql: str


def step_change(table: Any, goal: str) -> StepChange | None:
    """The row of the biggest rise (fall) of a number column from the row before, in
    the order of a year, month, date or period column (:data:`STEP_CHANGE`: "Which year
    grew the most compared to the year before?"); None when the goal asks none, the
    table has no such columns, or fewer than three rows. Batch GZ at 833d98d (GZC):
    the highest revenue's year, 2025, answered for 2024's rise of 30000."""
    if not STEP_CHANGE.search(goal) or table.rows < 3 or table.rows > 5000:
        return None
    period = next((c for c in table.columns if re.fullmatch(r"(?:year|month|quarter|week|date|day|period)s?",
                                                            c.name.lower())), None)
    numbers = [c for c in table.columns if c is not period and is_number(c)]
    named = [c for c in numbers if re.search(rf"\b{re.escape(c.name.replace('_', ' '))}\b", goal, re.IGNORECASE)]
    value = named[0] if named else numbers[0] if len(numbers) == 1 else None
    if period is None or value is None or any(v is None for v in period.values):
        return None
    down = bool(_STEP_DOWN.search(goal))
    rows = sorted(zip(period.values, value.values), key=lambda r: r[0])
    steps = [(b[0], float(b[1]) - float(a[1])) for a, b in zip(rows, rows[1:]) if a[1] is not None and b[1] is not None]
    if not steps:
        return None
    label, change = (min if down else max)(steps, key=lambda x: x[1])
    if change > 0 if down else change < 0:  # nothing fell (rose): the question's premise is the user's to hear
        return None
    p, v = _quoted(period.name), _quoted(value.name)
    sql = (f"SELECT {p}, {v}, {v} - LAG({v}) OVER (ORDER BY {p}) AS change FROM {_quoted(table.name)} "
           f"ORDER BY change {'ASC' if down else 'DESC'} NULLS LAST")
    return StepChange(period.name, value.name, str(label), change, down, sql)


#: a bound on each row by another column of its own: "below their reorder level", "over its budget"
_AGAINST_COLUMN = re.compile(r"\b(?P<op>at\s+or\s+below|at\s+or\s+above|below|under|less\s+than|lower\s+than|above|"
                             r"over|more\s+than|greater\s+than|higher\s+than|exceed(?:s|ing)?)\s+(?:their|its|his|"
                             r"her|the)\s+(?P<col>[A-Za-z][\w ]{2,40}?)(?=\s*[?.,!;]|\s+(?:in|of|for|on|and)\b|$)",
                             re.IGNORECASE)
_AGAINST_OP = {"below": "<", "under": "<", "less": "<", "lower": "<", "above": ">", "over": ">", "more": ">",
               "greater": ">", "higher": ">", "exceed": ">", "exceeds": ">", "exceeding": ">"}


def column_comparison(table: Any, goal: str) -> tuple[str, str, str, str] | None:
    """``(column, op, other, sql)`` when ``goal`` bounds each row of ``table`` by another
    number column of its own ("Which items are below their reorder level?": stock <
    reorder_level, the other number column being the one compared); None otherwise.
    ``sql`` selects the rows that hold. A held-out task at bad5969 grepped for
    "reorder_level" and answered Paper, Toner, Folders (Paper and Staples are below)."""
    m = _AGAINST_COLUMN.search(goal)
    if m is None:
        return None
    said = " ".join(m.group("col").lower().split())
    numbers = [c.name for c in table.columns if is_number(c)]
    other = next((n for n in numbers if n.replace("_", " ") in (said, said.rstrip("s"))), None)
    rest = [n for n in numbers if n != other and not _ID_COLUMN.search(n)]
    column = rest[0] if len(rest) == 1 else None
    if other is None or column is None:
        return None
    words = " ".join(m.group("op").lower().split())
    op = "<=" if words == "at or below" else ">=" if words == "at or above" else _AGAINST_OP[words.split()[0]]
    label = next((c.name for c in table.columns if c.sql_type == "VARCHAR"), None)
    shown = ", ".join(_quoted(n) for n in ([label] if label else []) + [column, other])
    return column, op, other, (f"SELECT {shown} FROM {_quoted(table.name)} "
                               f"WHERE {_quoted(column)} {op} {_quoted(other)}")


#: words that put two columns' values together: "Q1 and Q2 sales combined", "the total of rent plus heating"
_COMBINED = re.compile(r"\b(combined|together|altogether|in all|total|sum|plus|both)\b", re.IGNORECASE)


def combined_columns(table: Any, goal: str) -> list[str]:
    """The number columns of ``table`` (two at least, in table order) whose names the
    goal, a question, says as words and asks added together ("What were Berlin's Q1
    and Q2 sales combined?": q1, q2); [] otherwise (one column named, no word that
    adds up, or a goal that asks for a change)."""
    # a question only: "Add a column total to cart.csv with qty times price" is a product per row (a held-out task
    # (PM) at 89855ab got SUM(qty) + SUM(price) per item, saved over cart.csv)
    if not _COMBINED.search(goal) or not asks_only_a_question(goal):
        return []
    said = [c.name for c in table.columns if is_number(c) and not _ID_COLUMN.search(c.name)
            and re.search(rf"(?<![\w-]){re.escape(c.name.replace('_', ' '))}(?![\w-])", goal, re.IGNORECASE)]
    return said if len(said) >= 2 else []


#: "Lower grades are better", "the lower the better", "smaller is better": the best is the lowest
LOWER_BETTER = re.compile(r"\b(?:lower|smaller|fewer|less)\b[^.?!]{0,30}?\bbetter\b", re.IGNORECASE)
#: a per-row average of two columns the goal names: "the best average of math and physics"
MEAN_OF_TWO = re.compile(r"\b(?:average|mean)\s+(?:of\s+)?(?:the\s+)?(?:(?:their|its|his|her)\s+)?"
                         r"(?P<a>[\w-]+)\s+and\s+(?:the\s+)?(?P<b>[\w-]+)", re.IGNORECASE)


def lowest_wanted(goal: str) -> bool:
    """Whether the row ``goal`` asks for is the one with the lowest value: it says
    "lowest" (or "least", "cheapest" ...) and not "highest", or it says the lower is
    better ("the best average ... Lower grades are better")."""
    return bool(LOWER_BETTER.search(goal)) or bool(_LOWEST.search(goal) and not _HIGHEST.search(goal))


def row_mean_columns(table: Any, goal: str) -> list[str]:
    """The number columns of ``table`` (two at least, in table order) whose average per row
    a question ranks the rows by ("Which student has the best average of math and
    physics?": math, physics), each named as a word of the goal; [] otherwise. A
    held-out task (RM) at 624b529 got SELECT student, AVG(math) as the hint's example
    and answered the highest math grade."""
    if not MEAN_OF_TWO.search(goal) or not asks_only_a_question(goal) \
            or not re.search(r"\b(which|who|whose)\b", goal, re.IGNORECASE) \
            or not (_HIGHEST.search(goal) or _LOWEST.search(goal) or LOWER_BETTER.search(goal)):
        return []
    said = [c.name for c in table.columns if is_number(c) and not _ID_COLUMN.search(c.name)
            and re.search(rf"(?<![\w-]){re.escape(c.name.replace('_', ' '))}(?![\w-])", goal, re.IGNORECASE)]
    return said if len(said) >= 2 else []


_NUMBER_BOUND = re.compile(r"\b(?P<word>over|above|more than|greater than|exceeding|at least|under|below|less than|"
                           r"at most|cheaper than)\s+(?:(?:EUR|USD|GBP|CHF)\s*|[\u20ac$\u00a3]\s*)?"
                           r"(?P<n>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,12}(?:\.\d+)?)"
                           r"(?![\d.,-]|\s*(?:%|(?:percent|days?|hours?|years?|months?|weeks?)\b))",
                           re.IGNORECASE)


#: a number column's value the goal names exactly: "a quantity of zero", "stock is 0", "with zero quantity"
_EQUAL_BOUND = re.compile(r"\b(?P<col>[A-Za-z]{3,})\s+(?:of|is|equals?|equal\s+to|=)\s+(?:exactly\s+)?"
                          r"(?P<n>zero|\d{1,12}(?:\.\d+)?)(?=\s*(?:[?!,;]|\.(?!\d)|$|(?:and|or|in|at|on|from)\b))"
                          r"|\b(?P<n2>zero|0)\s+(?P<col2>[A-Za-z]{3,})\b",
                          re.IGNORECASE)


#: rows with nothing left: "the products that are out of stock", "sold out", "with no stock"
_NONE_LEFT = re.compile(r"\bout\s+of\s+stock\b|\bsold\s+out\b|\bno\s+(?:stock|units)\s+left\b|\bwith\s+no\s+stock\b",
                        re.IGNORECASE)
#: a number column counting what is on hand: stock, quantity, qty, on_hand, inventory, units, available
_ON_HAND = re.compile(r"stock|quant|qty|on_?hand|inventory|units|available", re.IGNORECASE)


def _equal_filter(table: Any, goal: str) -> RowFilter | None:
    """The value ``goal`` gives a number column of ``table`` that it names ("a quantity
    of zero": quantity = 0; "out of stock": stock = 0, :data:`_NONE_LEFT`), or None.
    Batch W at bad9c2a (WA): "How many items in inventory.csv have a quantity of zero?"
    got the sums per item as its example, and answered 6 (all the rows; 3 have none).
    A development batch at b6900b3 (ZZC): "the products in stock.csv that are out of
    stock" got no hint, grepped for "out of stock", and wrote "I found no products"."""
    if _NONE_LEFT.search(goal):
        held = next((c.name for c in table.columns if is_number(c) and not _ID_COLUMN.search(c.name)
                     and _ON_HAND.search(c.name)), None)
        if held is not None:
            return RowFilter(held, f"{_quoted(held)} = 0", "0", lambda v: isinstance(
                v, (int, float, decimal.Decimal)) and not isinstance(v, bool) and float(v) == 0)
    for m in _EQUAL_BOUND.finditer(goal):
        word = (m.group("col") or m.group("col2")).lower()
        col = next((c.name for c in table.columns if is_number(c) and not _ID_COLUMN.search(c.name)
                    and any(part[:4] == word[:4] for part in re.split(r"[_\W]+", c.name.lower()) if len(part) >= 3)),
                   None)
        if col is None:
            continue
        shown = m.group("n") or m.group("n2")
        shown = "0" if shown.lower() == "zero" else shown
        bound = float(shown)
        return RowFilter(col, f"{_quoted(col)} = {shown}", f"{col} {shown}", lambda v, bound=bound: isinstance(
            v, (int, float, decimal.Decimal)) and not isinstance(v, bool) and float(v) == bound)
    return None


#: a number range the goal gives: "earns between 40,000 and 60,000" (both ends kept)
_BETWEEN = re.compile(r"\bbetween\s+(?:(?:EUR|USD|GBP|CHF)\s*|[\u20ac$\u00a3]\s*)?(?P<a>\d{1,3}(?:,\d{3})+(?:\.\d+)?|"
                      r"\d{1,12}(?:\.\d+)?)\s+and\s+(?:(?:EUR|USD|GBP|CHF)\s*|[\u20ac$\u00a3]\s*)?"
                      r"(?P<b>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,12}(?:\.\d+)?)"
                      r"(?![\d.,-]|\s*(?:%|(?:percent|days?|hours?|years?|months?|weeks?)\b)|\s+[A-Z][a-z]{2})",
                      re.IGNORECASE)


def _between_filter(table: Any, goal: str) -> RowFilter | None:
    """``salary BETWEEN 40000 AND 60000`` for "between 40,000 and 60,000" on the number
    column a goal word names (else :func:`number_column`), or None. Batch Z at 6696c34
    (ZA): "Who in staff.csv earns between 40,000 and 60,000?" got no hint, searched
    file names for "40,000", and answered that nobody does (four do)."""
    m = _BETWEEN.search(goal)
    first = number_column(table, goal)
    if m is None or first is None:
        return None
    words = {w.lower()[:4] for w in re.findall(r"[A-Za-z]{4,}", _goal_words(goal))}
    col = next((c.name for c in table.columns if is_number(c) and not _ID_COLUMN.search(c.name) and not _row_number(c)
                and any(part[:4] in words for part in re.split(r"[_\W]+", c.name.lower()) if len(part) >= 4)), first)
    low, high = sorted((float(m.group("a").replace(",", "")), float(m.group("b").replace(",", ""))))
    shown = [f"{x:g}" if x != int(x) else str(int(x)) for x in (low, high)]
    return RowFilter(col, f"{col} BETWEEN {shown[0]} AND {shown[1]}", f"between {shown[0]} and {shown[1]}",
                     lambda v: isinstance(v, (int, float, decimal.Decimal)) and not isinstance(v, bool)
                     and low <= float(v) <= high)


def number_filter(table: Any, goal: str) -> RowFilter | None:
    """The bound ``goal`` puts on ``table``'s number column ("over 500 euros": amount >
    500; "at least", "under", "below", "at most"; "a quantity of zero": :func:`_equal_filter`),
    or None. The column is the one whose name shares the start of a goal word, else
    :func:`number_column`. A held-out task: "How many invoices in invoices.xlsx are over
    500 euros?"."""
    between = _between_filter(table, goal)
    if between is not None:
        return between
    m = _NUMBER_BOUND.search(goal)
    first = number_column(table, goal)
    if m is None or first is None:
        return _equal_filter(table, goal)
    words = {w.lower()[:4] for w in re.findall(r"[A-Za-z]{4,}", _goal_words(goal))}  # not "orders" of orders.csv
    col = next((c.name for c in table.columns if is_number(c) and not _ID_COLUMN.search(c.name) and not _row_number(c)
                and any(part[:4] in words for part in re.split(r"[_\W]+", c.name.lower()) if len(part) >= 4)), first)
    op = {"over": ">", "above": ">", "more than": ">", "greater than": ">", "exceeding": ">", "at least": ">=",
          "under": "<", "below": "<", "less than": "<", "cheaper than": "<", "at most": "<="}[
        " ".join(m.group("word").lower().split())]
    shown = m.group("n").replace(",", "")  # "more than 50,000" (a held-out task (RD) at 624b529 read "50")
    bound = float(shown)
    test = {">": lambda v: v > bound, ">=": lambda v: v >= bound, "<": lambda v: v < bound,
            "<=": lambda v: v <= bound}[op]
    words_of = {">": "over", ">=": "at least", "<": "under", "<=": "at most"}[op]
    return RowFilter(col, f"{col} {op} {shown}", f"{words_of} {shown}", lambda v, test=test: isinstance(
        v, (int, float, decimal.Decimal)) and not isinstance(v, bool) and test(float(v)))


class GroupBound(NamedTuple):
    """A bound on each group's total: ``group`` (a text column), ``number`` (the column summed),
    ``having`` (``SUM(amount) > 500``), ``said`` ("over 500"), ``keep`` (a total's test) and
    ``sql`` (the groups that pass, largest total first)."""
    group: str
    number: str
    having: str
    said: str
    keep: Callable[[Any], bool]
    sql: str


def group_bound(table: Any, goal: str) -> GroupBound | None:
    """The bound ``goal`` puts on the total of each value of a text column of ``table``
    ("Which customers in orders.csv have spent more than 500 in total?": the customers
    whose SUM(amount) is over 500), or None. Asked with "which"/"who", of a text column
    the goal names (its plural: "customers") whose values repeat (else the one such
    column), with a sum said (:data:`SUMMED`: "in total", "spent") and a number bound
    (:func:`number_filter`). Batch AZ at 018ad5b (AZB): offered ``SUM(order_) WHERE
    order_ > 500`` (the row numbers), answered "No customers" (Alba 620, Corvo 510)."""
    if not _ONE_ASKED.search(goal) or not SUMMED.search(goal):
        return None
    bound = number_filter(table, goal)
    if bound is None or not bound.sql.startswith(bound.column + " "):
        return None
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", _goal_words(goal))}
    repeated = [c for c in table.columns if c.sql_type == "VARCHAR" and len({str(v) for v in c.values}) < len(c.values)]
    named = [c for c in repeated if c.name.lower() in words or f"{c.name.lower()}s" in words]
    group = named[0] if named else repeated[0] if len(repeated) == 1 else None
    if group is None:
        return None
    having = f"SUM({_quoted(bound.column)}){bound.sql[len(bound.column):]}"
    sql = (f"SELECT {_quoted(group.name)}, SUM({_quoted(bound.column)}) AS total FROM {_quoted(table.name)} "
           f"GROUP BY {_quoted(group.name)} HAVING {having} ORDER BY 2 DESC")
    return GroupBound(group.name, bound.column, having, bound.said, bound.keep, sql)


#: a month the goal names ("in March", "for march 2026"; "May" only capitalised: "may" is a verb)
MONTH_SAID = re.compile(r"\b(?P<name>(?i:january|february|march|april|june|july|august|september|october|november|"
                        r"december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)|May)\b(?:\s+(?P<year>\d{4})\b)?")


def month_filter(table: Any, goal: str) -> RowFilter | None:
    """The month ``goal`` names by its name ("in October", "for March 2026") as a bound
    on ``table``'s first date column, or None (no date column, no month named)."""
    m = MONTH_SAID.search(goal)
    dated = next((c.name for c in table.columns if c.sql_type in ("DATE", "TIMESTAMP")), None)
    if m is None or dated is None:
        return None
    month = month_number(m.group("name"))
    year = int(m.group("year")) if m.group("year") else None
    sql = f"month({dated}) = {month}" + (f" AND year({dated}) = {year}" if year else "")
    said = m.group(0)
    return RowFilter(dated, sql, f"in {said}", lambda v: _day(v) is not None and _day(v).month == month
                     and (year is None or _day(v).year == year))


#: days of the week that bound the rows: "on weekends", "at the weekend", "on weekdays", "on working days"
_WEEK_PART = re.compile(r"\b(?:on|at|over|during|for)\s+(?:the\s+|a\s+)?(?:(?P<end>week-?ends?)|"
                        r"(?P<work>week\s?days|working\s+days|work\s?days|business\s+days))\b", re.IGNORECASE)


def weekday_filter(table: Any, goal: str) -> RowFilter | None:
    """The days of the week ``goal`` keeps of ``table``'s first date column: Saturday and
    Sunday for "on weekends" (DuckDB's ``dayofweek``: 0 is Sunday, 6 Saturday), Monday
    to Friday for "on weekdays"; None otherwise. Batch AZ at 018ad5b (AZA): "How much
    did I spend on weekends according to expenses.csv?" got no example, and answered
    184.30 (the weekend's rows add up to 132.80)."""
    m = _WEEK_PART.search(goal)
    dated = next((c.name for c in table.columns if c.sql_type in ("DATE", "TIMESTAMP")), None)
    if m is None or dated is None:
        return None
    if m.group("end"):
        return RowFilter(dated, f"dayofweek({dated}) IN (0, 6)", "on a weekend (Saturday or Sunday)",
                         lambda v: _day(v) is not None and _day(v).weekday() >= 5)
    return RowFilter(dated, f"dayofweek({dated}) BETWEEN 1 AND 5", "on a weekday (Monday to Friday)",
                     lambda v: _day(v) is not None and _day(v).weekday() < 5)


#: a ranking of the days of the week: "On which weekday were the most orders placed?", "which day of the week"
WEEKDAY_ASKED = re.compile(r"\b(?:which|what)\s+(?:week\s?day|day\s+of\s+the\s+week)\b", re.IGNORECASE)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def weekday_ranking(table: Any, goal: str) -> tuple[str, str | None, bool, str] | None:
    """``(date column, number column summed or None for a count of rows, lowest first,
    sql)`` when ``goal`` asks which day of the week has the most (fewest) rows of
    ``table``, or the highest (lowest) total of a number column ("the most sales":
    summed when a sum is said, :data:`SUMMED`, or the goal names the column); None
    otherwise. Batch AZ at 018ad5b (AZF): "On which weekday were the most orders
    placed, according to orders.csv?" got no example, summed the amounts per date and
    answered "2026-11-09, with 50 orders" (Wednesday has 4 of 8)."""
    dated = next((c.name for c in table.columns if c.sql_type in ("DATE", "TIMESTAMP")), None)
    if dated is None or not WEEKDAY_ASKED.search(goal):
        return None
    words = _goal_words(goal)
    said = [c.name for c in table.columns if is_number(c) and not _row_number(c) and not _ID_COLUMN.search(c.name)
            and re.search(rf"\b{re.escape(c.name.replace('_', ' '))}s?\b", words, re.IGNORECASE)]
    counted = re.search(rf"\b(?:most|fewest|least)\s+{re.escape(table.name.rstrip('s'))}s?\b|\bhow many\b|"
                        r"\bnumber of\b|\bbusiest\b", words, re.IGNORECASE)
    number = said[0] if said else (number_column(table, goal) if SUMMED.search(words) and not counted else None)
    low = bool(re.search(r"\b(fewest|least|lowest|smallest|quietest)\b", goal, re.IGNORECASE))
    measure = f"SUM({_quoted(number)})" if number else "COUNT(*)"
    sql = (f"SELECT dayname({_quoted(dated)}) AS weekday, {measure} AS {'total' if number else 'rows'} FROM "
           f"{_quoted(table.name)} GROUP BY weekday ORDER BY 2 {'ASC' if low else 'DESC'}")
    return dated, number, low, sql


#: a question whether a column's values add up to a figure: "Do the shares in budget.csv add up to 100%?"
SUMS_TO = re.compile(r"\b(?:add|adds|sum|sums|come|comes|total|totals)\s+(?:up\s+)?to\s+(?:exactly\s+)?"
                     r"(?P<n>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*(?P<pct>%|percent\b|per\s+cent\b)?",
                     re.IGNORECASE)


def sums_to(table: Any, goal: str) -> tuple[str, decimal.Decimal, str] | None:
    """``(column, the figure, sql)`` when ``goal`` asks whether the values of a number
    column of ``table`` add up to a figure (:data:`SUMS_TO`), the column a goal word
    names (its name's first four letters: "shares" and share_percent), else
    :func:`number_column`; None otherwise. Batch AZ at 018ad5b (AZH): "Do the shares in
    budget.csv add up to 100%?" was offered each share doubled (the goal read as "add
    100%") and answered with code."""
    m = SUMS_TO.search(goal)
    if m is None:
        return None
    words = {w.lower()[:4] for w in re.findall(r"[A-Za-z]{4,}", _goal_words(goal))}
    column = next((c.name for c in table.columns if is_number(c) and not _ID_COLUMN.search(c.name)
                   and not _row_number(c) and any(part[:4] in words for part in re.split(r"[_\W]+", c.name.lower())
                                                  if len(part) >= 4)), None) or number_column(table, goal)
    if column is None:
        return None
    figure = decimal.Decimal(m.group("n").replace(",", ""))
    return column, figure, f"SELECT SUM({_quoted(column)}) AS total FROM {_quoted(table.name)}"


#: a value the goal leaves out: "without the Travel category", "except Food", "excluding rent", "other than Alba's"
_EXCLUDED = r"\b(?:without|except(?:\s+for)?|excluding|exclusive\s+of|not\s+counting|other\s+than|apart\s+from|" \
    r"but\s+not|leaving\s+out|ignoring|minus|less)\s+(?:the\s+|any\s+|all\s+)?(?:[\w-]+\s+){0,2}?"


def value_excluded(goal: str, value: str) -> bool:
    """Whether ``goal`` leaves the rows of ``value`` out rather than picking them: a word
    of leaving out at most two words before it (:data:`_EXCLUDED`)."""
    return re.search(_EXCLUDED + rf"{re.escape(value)}(?!\w)", goal, re.IGNORECASE) is not None


def goal_filters(table: Any, goal: str) -> list[RowFilter]:
    """Every bound ``goal`` puts on ``table``'s rows: the value of a text column it names
    (:func:`goal_value`, "travel"), a date or month (:func:`date_filter`,
    :func:`month_filter`) and an amount (:func:`number_filter`); [] when none."""
    out = []
    found = goal_value(table, goal)
    if found and value_excluded(goal, found[1]):  # "the total without the Travel category" (batch EZ at 865c16b,
        column, value = found  # EZB: the hint's WHERE category = 'Travel' run, its 200 answered for 87.75)
        out.append(RowFilter(column, f"{column} <> '{value.replace(chr(39), chr(39) * 2)}'",
                             f"{column} other than {value!r}", lambda v: str(v).strip().lower() != value.lower()))
    elif found:
        column, value = found
        out.append(RowFilter(column, f"{column} = '{value.replace(chr(39), chr(39) * 2)}'", f"{column} {value!r}",
                             lambda v: str(v).strip().lower() == value.lower()))
    when = date_filter(table, goal) or month_filter(table, goal)
    amount = number_filter(table, goal)
    return out + [f for f in (when, weekday_filter(table, goal), amount) if f is not None]


def row_filter(table: Any, goal: str) -> RowFilter | None:
    """:func:`date_filter`, else :func:`month_filter`, else :func:`weekday_filter`, else
    :func:`number_filter`."""
    return date_filter(table, goal) or month_filter(table, goal) or weekday_filter(table, goal) \
        or number_filter(table, goal)


#: a change of every value of a column by a percentage: "Add 10% VAT to every price", "reduce all prices by 5 %",
#: "a 20% discount on each price"
PERCENT_CHANGE = re.compile(
    r"\b(?P<verb>add|increase|raise|put|reduce|decrease|lower|cut|discount|take|subtract|mark\s+(?:up|down))\w*\b"
    r"(?!\s+up\s+to\b)"  # "Do the shares add up to 100%?" is a sum asked (batch AZ at 018ad5b, AZH: doubled)
    r"(?:[^.%;?]|\.(?=\w)){0,90}?(?P<n>\d+(?:\.\d+)?)\s*(?:%|percent\b|per\s+cent\b)"
    r"|(?P<n2>\d+(?:\.\d+)?)\s*(?:%|percent\b|per\s+cent\b)\s*(?P<off>off|discount)\b", re.IGNORECASE)
_DOWN = re.compile(r"reduc|decreas|lower|cut|discount|take|subtract|down|off", re.IGNORECASE)


def percent_factor(goal: str) -> decimal.Decimal | None:
    """What a value is multiplied by for the percent change ``goal`` names
    (:data:`PERCENT_CHANGE`: 1.1 for "Add 10% VAT", 0.95 for "reduce ... by 5%", 0.8 for
    "20% off"); None when it names none (or one of 100% off or more)."""
    m = PERCENT_CHANGE.search(goal)
    if m is None:
        return None
    percent = decimal.Decimal(m.group("n") or m.group("n2"))
    down = bool(m.group("off")) or bool(_DOWN.search(m.group("verb") or ""))
    factor = (1 - percent / 100) if down else (1 + percent / 100)
    return factor if factor > 0 else None


def percent_change(table: Any, goal: str) -> tuple[str, str] | None:
    """``(column, sql)`` when ``goal`` asks to change every value of a number column of
    ``table`` by a percentage ("Add 10% VAT to every price": price times 1.1, rounded
    to cents; "reduce ... by 5%", "20% off": times 0.95, 0.8), the column being the one
    the goal names (:func:`number_column`); ``sql`` selects every column, that one
    changed and keeping its name. None otherwise. A held-out task at 11a1600 worked
    4.00 + 10% out by hand, was refused for a number no tool gave, and then saved the
    sum of the prices as prices_vat.csv."""
    m = PERCENT_CHANGE.search(goal)
    column = number_column(table, goal) if m else None
    if m is None or column is None:
        return None
    factor = percent_factor(goal)
    if factor is None:
        return None
    picked = [f"ROUND({_quoted(c.name)} * {factor.normalize():f}, 2) AS {_quoted(c.name)}" if c.name == column
              else _quoted(c.name) for c in table.columns]
    return column, f"SELECT {', '.join(picked)} FROM {_quoted(table.name)}"


#: a running total asked: "the running total of the sales", "the cumulative sales", "a cumulative sum"
RUNNING = re.compile(r"\b(?:running|cumulative|cumulated|accumulated)\s+(?:totals?|sums?)\b|\bcumulative\b",
                     re.IGNORECASE)


def running_total(table: Any, goal: str) -> tuple[str, str, str] | None:
    """``(column, order, sql)`` when ``goal`` asks for the running total of a number
    column of ``table`` (:data:`RUNNING`; the column :func:`number_column` names): ``sql``
    selects every column and ``running_total``, the sum of ``column`` over the rows up
    to each one, in the order of ``order`` (the table's date column, else the file's
    own row order, ``rowid``). None otherwise. Held-out BZH at bbbe1fb: "Write the running
    total of the sales in sales.csv, month by month, to running.csv." summed from April
    back to January."""
    column = number_column(table, goal) if RUNNING.search(goal) else None
    if column is None or any(c.name.lower() == "running_total" for c in table.columns):
        return None
    dated = next((c.name for c in table.columns if c.sql_type.upper() in ("DATE", "TIMESTAMP")), None)
    order = _quoted(dated) if dated else "rowid"
    picked = ", ".join(_quoted(c.name) for c in table.columns)
    return column, order, (f"SELECT {picked}, SUM({_quoted(column)}) OVER (ORDER BY {order} ROWS BETWEEN UNBOUNDED "
                           f"PRECEDING AND CURRENT ROW) AS running_total FROM {_quoted(table.name)} ORDER BY {order}")


#: a question for the months without rows: "Which month ... had no sales", "months without orders"
NO_ROWS_MONTH = re.compile(r"\bmonths?\b[^.?!]{0,80}?\b(?:had|has|have|with|saw|got|were|was)\s+no\s+(?P<what>\w+)"
                           r"|\bmonths?\s+without\s+(?:any\s+)?(?P<what2>\w+)", re.IGNORECASE)
_MONTH_TEXT = re.compile(r"^(\d{4})-(\d{2})(?:-\d{2})?$")


class MonthsWithout(NamedTuple):
    """The months of a range without a row (or with a zero total) of a table: ``missing``
    as (year, month), ``first``/``last`` the range, ``what`` the goal's word for the rows
    ("sales"), ``sql`` the rows (and total) per month to copy."""

    missing: list[tuple[int, int]]
    first: tuple[int, int]
    last: tuple[int, int]
    what: str
    sql: str


def months_without_rows(table: Any, goal: str) -> MonthsWithout | None:
    """The months of the range ``goal`` names ("between January and June 2026"; else from
    the table's first month to its last) that have no row of ``table``, or whose total of
    the number column is 0, when ``goal`` asks which months had none (:data:`NO_ROWS_MONTH`)
    and the table has a date column (or one of "2026-03" text); None otherwise. Held-out
    BZB at bbbe1fb: "Which month between January and June 2026 had no sales in sales.csv?"
    answered with four months that had sales (March had none)."""
    m = NO_ROWS_MONTH.search(goal)
    if m is None:
        return None
    months: list[tuple[int, int] | None] = []
    column = None
    for c in table.columns:
        if c.sql_type.upper() in ("DATE", "TIMESTAMP"):
            months = [(v.year, v.month) if v is not None else None for v in c.values]
        elif c.sql_type.upper() == "VARCHAR" and c.values and all(
                v is not None and _MONTH_TEXT.match(str(v).strip()) for v in c.values):
            months = [(int(_MONTH_TEXT.match(str(v).strip()).group(1)), int(_MONTH_TEXT.match(str(v).strip()).group(2)))
                      for v in c.values]
        else:
            continue
        column = c
        break
    if column is None or not months or any(x is None for x in months):
        return None
    amount = number_column(table, goal)
    totals: dict[tuple[int, int], decimal.Decimal] = {}
    values = next((c.values for c in table.columns if c.name == amount), [1] * len(months))
    for key, value in zip(months, values):
        number = value if isinstance(value, (int, float, decimal.Decimal)) and not isinstance(value, bool) else 1
        totals[key] = totals.get(key, decimal.Decimal(0)) + decimal.Decimal(str(number))
    named = [x for x in MONTH_SAID.finditer(goal)]
    year = re.search(r"\b(19|20)\d{2}\b", goal)
    if len(named) == 2 and year:
        from .dates_said import month_number

        y = int(year.group(0))
        first, last = (y, month_number(named[0].group("name"))), (y, month_number(named[1].group("name")))
    elif not named:
        first, last = min(totals), max(totals)
    else:
        return None
    if first > last:
        return None
    span, at = [], first
    while at <= last and len(span) < 60:
        span.append(at)
        at = (at[0] + at[1] // 12, at[1] % 12 + 1)
    missing = [x for x in span if totals.get(x, 0) == 0]
    by = f"strftime({_quoted(column.name)}, '%Y-%m')" if column.sql_type.upper() in ("DATE", "TIMESTAMP") \
        else f"LEFT({_quoted(column.name)}, 7)"
    summed = f", SUM({_quoted(amount)}) AS total" if amount else ""
    sql = f"SELECT {by} AS month, COUNT(*) AS rows{summed} FROM {_quoted(table.name)} GROUP BY 1 ORDER BY 1"
    return MonthsWithout(missing, first, last, (m.group("what") or m.group("what2")).lower(), sql)


#: a question for hours from start and end times: "How many hours did each person work", "the total hours"
HOURS_ASKED = re.compile(r"\bhow\s+(?:many|much)\s+(?:hours|time)\b|\b(?:total|number\s+of)\s+hours\b|"
                         r"\bhours\b[^.?!]{0,30}\b(?:worked|spent|logged)\b", re.IGNORECASE)
_CLOCK = re.compile(r"^([01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?$")
_STARTS = re.compile(r"start|begin|from|^in$|clock_?in|check_?in|arriv", re.IGNORECASE)
_ENDS = re.compile(r"end|finish|stop|^to$|^until$|clock_?out|check_?out|leav|^out$", re.IGNORECASE)
_PER_GROUP = re.compile(r"\b(?:each|every|per|by)\s+(?P<word>[a-z]+)", re.IGNORECASE)


class HoursWorked(NamedTuple):
    """The hours between a table's start and end times (an end before its start is past
    midnight): ``group`` the text column they are summed per ("" for one total), ``hours``
    per group value (rounded to 0.01), ``sql`` the query to copy."""

    group: str
    hours: dict[str, decimal.Decimal]
    sql: str


def hours_worked(table: Any, goal: str) -> HoursWorked | None:
    """The hours ``goal`` asks for (:data:`HOURS_ASKED`) from the two clock-time columns
    of ``table`` ("09:00" and "17:30": a start and an end, by their names, else in order),
    per the text column the goal names ("each person": a column "person", else the first
    text column) or in all; None when the goal asks no hours or the table has not two
    such columns. Held-out BZE at bbbe1fb: "How many hours did each person work according
    to shifts.csv?" was answered with the number of shifts (Anna 12.5 hours, Ben 12.5)."""
    if not HOURS_ASKED.search(goal):
        return None
    clocks = [c for c in table.columns if c.sql_type.upper() == "TIME" or c.sql_type.upper() == "VARCHAR" and c.values
              and all(v is not None and _CLOCK.match(str(v).strip()) for v in c.values)]
    if len(clocks) != 2:
        return None
    start, end = clocks
    if _ENDS.search(start.name) and _STARTS.search(end.name):
        start, end = end, start
    texts = [c for c in table.columns if c.sql_type.upper() == "VARCHAR" and c not in clocks]
    per = _PER_GROUP.search(goal)
    group = None
    if per:
        word = per.group("word").lower().rstrip("s")
        group = next((c for c in texts if c.name.lower().rstrip("s") == word), texts[0] if texts else None)
        if group is None:
            return None
    totals: dict[str, decimal.Decimal] = {}
    for i in range(table.rows):
        a, b = (_minutes(str(c.values[i])) for c in (start, end))
        key = str(group.values[i]) if group is not None else ""
        totals[key] = totals.get(key, decimal.Decimal(0)) + decimal.Decimal((b - a) % 1440)
    hours = {k: (v / 60).quantize(decimal.Decimal("0.01")) for k, v in totals.items()}
    span = (f"(date_diff('minute', CAST({_quoted(start.name)} AS TIME), CAST({_quoted(end.name)} AS TIME)) + 1440) "
            "% 1440")
    picked = f"{_quoted(group.name)}, " if group is not None else ""
    tail = f" GROUP BY {_quoted(group.name)} ORDER BY {_quoted(group.name)}" if group is not None else ""
    sql = f"SELECT {picked}ROUND(SUM({span}) / 60.0, 2) AS hours FROM {_quoted(table.name)}{tail}"
    return HoursWorked(group.name if group is not None else "", hours, sql)


def _minutes(clock: str) -> int:
    """Minutes after midnight of "09:30" (or "9:30:15", seconds dropped)."""
    hours, minutes = clock.strip().split(":")[:2]
    return int(hours) * 60 + int(minutes)


#: a count of rows with an empty cell: "How many people in contacts.csv have no email address?", "... without a phone"
EMPTY_COUNT = re.compile(r"\bhow\s+many\b(?:[^?.!]|\.(?=\w)){0,80}?\b(?:(?:have|has|had|with|got)\s+no|without|"
                         r"lacks?|lacking|(?:are|is)\s+missing|missing)\s+(?:an?\s+|any\s+|their\s+|its\s+)?"
                         r"(?P<what>[A-Za-z][\w -]{1,30}?)"
                         r"(?=\s*(?:[?.,;!]|$|\b(?:in|on|at|listed|given|set|filled)\b))", re.IGNORECASE)


def empty_count(table: Any, goal: str) -> tuple[str, int, str] | None:
    """``(column, count, sql)`` when ``goal`` asks how many rows have no value in a
    column of ``table`` (:data:`EMPTY_COUNT`; "no email address" names the column
    "email"): the rows whose cell is empty or blank, and the query that counts them.
    None otherwise. Batch CZ at 64fba22 (CZG): "How many people in contacts.csv have no
    email address?" answered 4, the rows of a GROUP BY email (2 are empty)."""
    m = EMPTY_COUNT.search(goal)
    if m is None:
        return None
    words = m.group("what").lower().replace("-", " ").split()
    column = next((c for c in table.columns if c.name.lower().replace("_", " ") in (
        " ".join(words), words[0], words[0].rstrip("s"), " ".join(words).rstrip("s"))), None)
    if column is None:
        return None
    count = sum(v is None or isinstance(v, str) and not v.strip() for v in column.values)
    name = _quoted(column.name)
    blank = f" OR TRIM({name}) = ''" if column.sql_type.upper() == "VARCHAR" else ""
    return column.name, count, f"SELECT COUNT(*) FROM {_quoted(table.name)} WHERE {name} IS NULL{blank}"


#: a question for the values that repeat: "Which invoice numbers appear more than once?", "any duplicate emails?"
REPEATS_ASKED = re.compile(r"\b(?:appears?|appearing|occurs?|occurring|shows?\s+up|is\s+listed|are\s+listed|is\s+used|"
                           r"are\s+used)\s+(?:more\s+than\s+once|twice|two\s+times|multiple\s+times|several\s+times|"
                           r"again)\b|\bduplicat\w*|\brepeated\b", re.IGNORECASE)


class Repeats(NamedTuple):
    """The values of ``column`` that occur in more than one row: ``values`` (in the order
    they first occur) with ``times`` (the rows each is in) and the query that lists them."""
    column: str
    values: list[str]
    times: list[int]
    sql: str


def repeated_values(table: Any, goal: str) -> Repeats | None:
    """The values of the column of ``table`` that ``goal`` names (its plural too:
    "invoice numbers" names "number") that occur in more than one row, when ``goal``
    asks which values repeat (:data:`REPEATS_ASKED`); None otherwise, or when the goal
    names no column or several. Batch DZ at a3c921a (DZA): "Which invoice numbers
    appear more than once in invoices.csv?" grepped for one of them and answered
    INV-102 alone (INV-101 is listed twice as well)."""
    if not REPEATS_ASKED.search(goal) or not _ONE_ASKED.search(goal) and not re.search(
            r"\b(?:list|find|show|name|(?:are|is)\s+there|any)\b", goal, re.IGNORECASE):
        return None
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", _goal_words(goal))}
    named = [c for c in table.columns if c.name.lower() in words or f"{c.name.lower()}s" in words
             or c.name.lower().replace("_", " ") in _goal_words(goal).lower() and "_" in c.name]
    if len(named) != 1:
        return None
    column = named[0]
    seen: dict[str, int] = {}
    for value in column.values:
        if value is not None and str(value).strip():
            seen[str(value)] = seen.get(str(value), 0) + 1
    repeats = [(v, n) for v, n in seen.items() if n > 1]
    name = _quoted(column.name)
    sql = (f"SELECT {name}, COUNT(*) AS times FROM {_quoted(table.name)} WHERE {name} IS NOT NULL "
           f"GROUP BY {name} HAVING COUNT(*) > 1 ORDER BY {name}")
    return Repeats(column.name, [v for v, _ in repeats], [n for _, n in repeats], sql)


#: a rate put on a total: "the total ... including 19% VAT", "with 10% tax", "after a 15% discount"
PERCENT_ON_TOTAL = re.compile(r"\b(?P<how>including|incl\.|inclusive\s+of|with|plus|after(?:\s+adding)?|minus|less|"
                              r"net\s+of)\s+(?:an?\s+|the\s+)?(?P<n>\d+(?:\.\d+)?)\s*(?:%|percent\b|per\s+cent\b)\s*"
                              r"(?P<what>VAT|sales\s+tax|tax|tip|service\s+charge|surcharge|fee|mark-?up|discount|"
                              r"rebate)\b",
                              re.IGNORECASE)


class PercentOnTotal(NamedTuple):
    """The total of ``column`` with a rate put on it: ``factor`` (1.19 for "including 19%
    VAT", 0.85 for "after a 15% discount"), ``said`` ("including 19% VAT"), ``value``
    (rounded to cents) and ``sql`` (the query that gives it)."""
    column: str
    factor: decimal.Decimal
    said: str
    value: decimal.Decimal
    sql: str


def percent_on_total(table: Any, goal: str) -> PercentOnTotal | None:
    """The total of the number column of ``table`` that ``goal`` names (:func:`number_column`)
    with the rate it puts on it (:data:`PERCENT_ON_TOTAL`), when it asks for a total
    ("total", "sum", "how much"); None otherwise. Batch DZ at a3c921a (DZG): "What is the
    total of the invoices in invoices.xlsx including 19% VAT?" was offered each invoice's
    share in percent as the example query, and answered 1000.00 (750 * 1.19 = 892.50)."""
    m = PERCENT_ON_TOTAL.search(goal)
    if m is None or not re.search(r"\b(?:total|sum|how\s+much|altogether|in\s+all)\b", goal, re.IGNORECASE):
        return None
    column = number_column(table, goal)
    if column is None:
        return None
    percent = decimal.Decimal(m.group("n")) / 100
    down = re.search(r"discount|rebate", m.group("what"), re.IGNORECASE) or re.search(
        r"minus|less|net", m.group("how"), re.IGNORECASE)
    factor = 1 - percent if down else 1 + percent
    values = [v for c in table.columns if c.name == column for v in c.values
              if isinstance(v, (int, float, decimal.Decimal)) and not isinstance(v, bool)]
    if factor <= 0 or not values:
        return None
    value = (sum(decimal.Decimal(str(v)) for v in values) * factor).quantize(decimal.Decimal("0.01"),
                                                                            rounding=decimal.ROUND_HALF_UP)
    sql = f"SELECT ROUND(SUM({_quoted(column)}) * {factor.normalize():f}, 2) AS total FROM {_quoted(table.name)}"
    return PercentOnTotal(column, factor, m.group(0), value, sql)


#: a question for the cells without a sign: "Which email addresses are missing the @ sign?", "... without a '.'"
SIGN_MISSING = re.compile(r"\b(?:(?:are|is)\s+)?(?:missing|lacking|lacks?|without|with\s+no|ha(?:ve|s)\s+no|"
                          r"(?:do|does)(?:\s+not|n't)\s+(?:have|contain|include))\s+(?:an?\s+|the\s+|any\s+)?"
                          r"(?P<q>['\"\u2018\u201c]?)(?P<sign>[^\w\s'\"?!,;:.]{1,3}|[.,;:])(?:['\"\u2019\u201d]?)"
                          r"(?:\s*(?:sign|symbol|character|char))?", re.IGNORECASE)


class SignMissing(NamedTuple):
    """The cells of ``column`` that do not hold ``sign`` (``values``, in row order; empty
    cells aside), their rows' ``labels`` (the first other text cell of each) and the query."""
    column: str
    sign: str
    values: list[str]
    labels: list[str]
    sql: str


def sign_missing(table: Any, goal: str) -> SignMissing | None:
    """The cells of the column ``goal`` names (else the one text column whose cells mostly
    hold the sign) that lack the sign it names (:data:`SIGN_MISSING`: "missing the @
    sign"), when it asks which; None otherwise. Batch DZ at a3c921a (DZI): "Which email
    addresses in contacts.csv are missing the @ sign?" grepped for "@", saw the lines
    that have one, and answered that none is missing one (ben.y.com, dan-at-w.org)."""
    m = SIGN_MISSING.search(goal)
    if m is None or not (_ONE_ASKED.search(goal) or re.search(r"\b(?:list|find|show|name|how\s+many)\b", goal,
                                                             re.IGNORECASE)):
        return None
    sign = m.group("sign")
    texts = [c for c in table.columns if c.sql_type == "VARCHAR"]
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", _goal_words(goal))}
    named = [c for c in texts if c.name.lower() in words or f"{c.name.lower()}s" in words]
    holding = [c for c in texts if sum(sign in str(v) for v in c.values if v is not None) * 2 > len(c.values)]
    column = named[0] if len(named) == 1 else holding[0] if len(holding) == 1 else None
    if column is None:
        return None
    label = next((c for c in texts if c is not column), None)
    values, labels = [], []
    for i, v in enumerate(column.values):
        if v is not None and str(v).strip() and sign not in str(v):
            values.append(str(v))
            labels.append(str(label.values[i]) if label is not None and label.values[i] is not None else "")
    like = sign.replace("'", "''").replace("%", "\\%").replace("_", "\\_")
    escape = " ESCAPE '\\'" if like != sign.replace("'", "''") else ""
    sql = (f"SELECT * FROM {_quoted(table.name)} WHERE {_quoted(column.name)} NOT LIKE '%{like}%'{escape} "
           f"AND TRIM({_quoted(column.name)}) <> ''")
    return SignMissing(column.name, sign, values, labels, sql)


class MeanRanking(NamedTuple):
    """The groups of ``key`` ranked by the average of ``number``: ``means`` (each group's,
    in row order), ``low`` (the lowest asked) and ``sql`` (the query that ranks them)."""
    key: str
    number: str
    means: dict[str, decimal.Decimal]
    low: bool
    sql: str


def mean_ranking(table: Any, goal: str) -> MeanRanking | None:
    """The ranking of the values of the text column ``goal`` names (its plural too; a
    column whose values repeat) by their average of the number column it names, when it
    asks which has the highest (lowest) average ("Which customer has the highest average
    order amount?"); None otherwise. Batch EZ at 865c16b (EZA): offered the top row's
    query, ran SUM per customer, and answered Alba (total 540, average 180; Corvo's
    average is 250)."""
    if not re.search(r"\b(?:average|mean)\b", goal, re.IGNORECASE) or not _ONE_ASKED.search(goal) or (
            not _HIGHEST.search(goal) and not _LOWEST.search(goal)):
        return None
    number = number_column(table, goal)
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", _goal_words(goal))}
    keys = [c for c in table.columns if c.sql_type == "VARCHAR" and (c.name.lower() in words or f"{c.name.lower()}s"
                                                                     in words)
            and len({str(v) for v in c.values}) < len(c.values)]
    if number is None or len(keys) != 1:
        return None
    key = keys[0]
    values = next(c.values for c in table.columns if c.name == number)
    sums: dict[str, list[decimal.Decimal]] = {}
    for k, v in zip(key.values, values):
        if k is not None and isinstance(v, (int, float, decimal.Decimal)) and not isinstance(v, bool):
            sums.setdefault(str(k), []).append(decimal.Decimal(str(v)))
    if not sums:
        return None
    means = {k: sum(v) / len(v) for k, v in sums.items()}
    low = lowest_wanted(goal)
    sql = (f"SELECT {_quoted(key.name)}, ROUND(AVG({_quoted(number)}), 2) AS average FROM {_quoted(table.name)} "
           f"GROUP BY {_quoted(key.name)} ORDER BY 2 {'ASC' if low else 'DESC'}")
    return MeanRanking(key.name, number, means, low, sql)


#: a question for the longest (shortest) text of a column: "Which product has the longest name?"
LENGTH_EXTREME = re.compile(r"\b(?P<which>longest|shortest)\s+(?:(?:product|customer|file|item|person|city|street|"
                            r"book|song|movie|film)\s+)?(?P<what>[A-Za-z][\w-]{1,30})", re.IGNORECASE)


class LengthExtreme(NamedTuple):
    """The cells of ``column`` with the most (fewest: ``short``) characters: ``values``
    (ties in row order) and their ``length``, with the query that ranks them."""
    column: str
    values: list[str]
    length: int
    short: bool
    sql: str


def length_extreme(table: Any, goal: str) -> LengthExtreme | None:
    """The longest (shortest) text of the column ``goal`` names after "longest"
    ("the longest name": name; its plural too), counted in characters with spaces,
    when it asks which (:data:`LENGTH_EXTREME`); None otherwise. Batch EZ at 865c16b
    (EZC): "Which product in products.csv has the longest name?" got no query, and
    "'Notebook' with a length of 7 characters" was answered (Highlighter, 11)."""
    m = LENGTH_EXTREME.search(goal)
    if m is None or not _ONE_ASKED.search(goal):
        return None
    what = m.group("what").lower()
    column = next((c for c in table.columns if c.sql_type == "VARCHAR" and c.name.lower() in (
        what, what.rstrip("s"), what.replace("-", "_"))), None)
    cells = [str(v).strip() for v in column.values if v is not None and str(v).strip()] if column else []
    if not cells:
        return None
    short = m.group("which").lower() == "shortest"
    length = (min if short else max)(len(v) for v in cells)
    values = list(dict.fromkeys(v for v in cells if len(v) == length))
    name = _quoted(column.name)
    sql = (f"SELECT {name}, LENGTH({name}) AS characters FROM {_quoted(table.name)} WHERE {name} IS NOT NULL "
           f"ORDER BY 2 {'ASC' if short else 'DESC'}")
    return LengthExtreme(column.name, values, length, short, sql)


def _quoted(name: str) -> str:
    """``name`` as a SQL identifier: bare when it is a plain lower-case word, else in double quotes."""
    return name if re.fullmatch(r"[a-z_][a-z0-9_]*", name) else '"' + name.replace('"', '""') + '"'


#: a goal that puts the rows of several tables into one: "Merge january.csv and february.csv into q1.csv"
MERGED = re.compile(r"\b(?:merg|combin|concatenat|stack)\w*\b|\bput\b.{0,60}\btogether\b", re.IGNORECASE)


def merge_query(tables: list[Any], goal: str) -> str | None:
    """The ``UNION ALL`` query of ``tables`` (one per file the goal merges, in its order)
    when ``goal`` asks to merge them and every one has the same column names (case
    aside); None otherwise. A held-out task at 11a1600: "Merge january.csv and
    february.csv into one file q1.csv" queried both WHERE month(date) = 1 and saved
    January's two rows as q1.csv."""
    if len(tables) < 2 or not MERGED.search(goal):
        return None
    names = [[c.name.lower() for c in t.columns] for t in tables]
    if any(n != names[0] for n in names[1:]):
        return None
    return " UNION ALL ".join(f"SELECT * FROM {_quoted(t.name)}" for t in tables)


#: a change from one number column to another: "grew the most from 2025 to 2026", "the biggest drop"
_CHANGE_WORD = re.compile(r"\b(?P<up>gr[eo]w\w*|increas\w*|rose|ris[ei]\w*|gain\w*|improv\w*|went up)\b|"
                          r"\b(?P<down>declin\w*|drop\w*|fell|fall\w*|decreas\w*|shr[ai]nk\w*|shrunk|lost|went down)\b",
                          re.IGNORECASE)
_LEAST = re.compile(r"\b(least|smallest|lowest|fewest)\b", re.IGNORECASE)
_ONE_ASKED = re.compile(r"^\W*(which|what|who)\b", re.IGNORECASE)
_HEADER_OF = re.compile(r"^c_(?=\d)")  # the column the loader names c_2025 for a header "2025"


def change_falls(goal: str) -> bool:
    """Whether the row ``goal`` asks for has the smallest change (a drop the most, or a
    rise the least): "Which product fell the most from January to February?"."""
    m = _CHANGE_WORD.search(goal)
    return m is not None and bool(m.group("down")) != bool(_LEAST.search(goal))


def change_columns(table: Any, goal: str) -> tuple[str, str, str] | None:
    """``(label column, earlier column, later column)`` of a question which one row of
    ``table`` changed the most (least) between two number columns it names, not in
    percent (:func:`column_change`'s one-row form); None otherwise."""
    if not _ONE_ASKED.match(goal) or not _CHANGE_WORD.search(goal) or re.search(
            r"\b(?:percent|percentage|per\s+cent)\b|%", goal, re.IGNORECASE):
        return None
    said = [c.name for c in table.columns if is_number(c) and re.search(
        r"(?<![\w.])" + re.escape(_HEADER_OF.sub("", c.name).replace("_", " ")) + r"(?![\w.])", goal, re.IGNORECASE)]
    label = next((c.name for c in table.columns if c.sql_type == "VARCHAR"), None)
    return (label, said[0], said[1]) if len(said) == 2 and label is not None else None


def column_change(table: Any, goal: str) -> str | None:
    """The query of each row's change between two number columns of ``table`` the goal
    names ("2025" and "2026", read as the columns c_2025 and c_2026), the later column
    (in the table's order) minus the earlier, largest first (smallest first for "the
    least", or for a drop asked the most), with the first text column beside it; only
    the top row when the goal asks which one. None when the goal asks for no change or
    names other than two number columns. A held-out task at 11a1600: "Which product in
    sales.xlsx grew the most from 2025 to 2026?" was given the sums of 2025 per product."""
    m = _CHANGE_WORD.search(goal)
    if m is None:
        return None
    said = [c for c in table.columns if is_number(c) and re.search(
        r"(?<![\w.])" + re.escape(_HEADER_OF.sub("", c.name).replace("_", " ")) + r"(?![\w.])", goal, re.IGNORECASE)]
    label = next((c.name for c in table.columns if c.sql_type == "VARCHAR"), None)
    if len(said) != 2 or label is None:
        return None
    first, then = said
    if re.search(r"\b(?:percent|percentage|per\s+cent)\b|%", goal, re.IGNORECASE):
        # batch Z at 6696c34 (ZI): "By what percent did the total of q2 grow over q1 in quarterly.csv?" was offered
        # each region's q2 - q1, and answered "1500% for North" (the totals grew 10%)
        a, b = _quoted(first.name), _quoted(then.name)
        if re.search(r"\b(?:total|sum|overall|altogether|in all)\b", goal, re.IGNORECASE):
            return f"SELECT ROUND(100.0 * (SUM({b}) - SUM({a})) / SUM({a}), 1) AS percent FROM {_quoted(table.name)}"
        return (f"SELECT {_quoted(label)}, ROUND(100.0 * ({b} - {a}) / {a}, 1) AS percent FROM {_quoted(table.name)} "
                "ORDER BY 2 DESC")
    falls = change_falls(goal)
    limit = " LIMIT 1" if _ONE_ASKED.match(goal) else ""
    return (f"SELECT {_quoted(label)}, {_quoted(then.name)} - {_quoted(first.name)} AS change "
            f"FROM {_quoted(table.name)} ORDER BY 2 {'ASC' if falls else 'DESC'}{limit}")


#: a question about what is past its due date: "Which invoices are overdue?", "past due"
OVERDUE = re.compile(r"\b(overdue|past\s+(?:their\s+|its\s+|the\s+)?due(?:\s+date)?|late\s+(?:invoices|payments|"
                     r"bills))\b", re.IGNORECASE)


def overdue_query(table: Any, goal: str, today: date | None = None) -> str | None:
    """The rows of ``table`` past their due date when ``goal`` asks which are overdue:
    the date column named after "due" (else the only one) before ``today`` (the
    machine's date by default), and, when a text column holds the value "paid", not
    that value; None when the goal asks no such thing or the table has no date column.
    A small model cannot compare dates with today: a held-out task at a8fdd03 grepped
    for "unpaid" six times."""
    if not OVERDUE.search(goal):
        return None
    dated = [c for c in table.columns if c.sql_type in ("DATE", "TIMESTAMP")]
    due = next((c for c in dated if "due" in c.name.lower()), dated[0] if len(dated) == 1 else None)
    if due is None:
        return None
    day = (today or date.today()).isoformat()
    where = [f"{_quoted(due.name)} < DATE '{day}'"]
    status = next((c for c in table.columns if c.sql_type == "VARCHAR"
                   and any(str(v).strip().lower() == "paid" for v in c.values if v is not None)), None)
    if status is not None:
        where.append(f"lower({_quoted(status.name)}) <> 'paid'")
    return f"SELECT * FROM {_quoted(table.name)} WHERE {' AND '.join(where)} ORDER BY {_quoted(due.name)}"


_COLUMNS_NAMED = re.compile(r"\bwith (?:the |its )?(?:columns?|headers?|headings?)\s+"
                            r"(?P<cols>(?:[\"'\u201c]?[A-Z][\w-]*"
                            r"[\"'\u201d]?(?:\s*,\s*|\s+(?:and|or)\s+|\s+(?=[A-Z]))?){1,8})")


#: names in lower case end their list with "and": "with the columns product, month and amount, one row for each ..."
_COLUMNS_LISTED = re.compile(r"\bwith (?:the |its )?(?:columns?|headers?|headings?)\s+(?P<cols>[\"'\u201c]?\w[\w-]*"
                             r"[\"'\u201d]?(?:\s*,\s*[\"'\u201c]?\w[\w-]*[\"'\u201d]?)*,?\s+and\s+[\"'\u201c]?\w[\w-]*"
                             r"[\"'\u201d]?)", re.IGNORECASE)


def goal_columns(goal: str) -> list[str]:
    """The column names a goal asks a table file to have: "with the columns Customer
    and Total, largest first" -> ["Customer", "Total"], "with the columns product,
    month and amount" -> ["product", "month", "amount"]; [] when it names none."""
    m = _COLUMNS_NAMED.search(goal) or _COLUMNS_LISTED.search(goal)
    if m is None:
        return []
    cols = [c.strip(" \"'\u201c\u201d") for c in re.split(r"\s*,\s*|\s+(?:and|or)\s+", m.group("cols").strip(" ,"))]
    return [c for c in cols if c]
