"""Which period (or page) is the number about? Finish checks for answers that
give last year's figure when the goal asks about this year, or page 1's when it
asks about page 3.

pdf_number_lookup at 0ed7096: asked for the average delivery time "this year",
Qwen 1.5B read the review and answered 4.1 days, the figure on the line "Last
year the average delivery time was 4.1 days across 18,200 orders."; this
year's 3.4 was on page 2. Every digit came from a tool, so the number check
passed it; what was wrong was the period.

The check: when the goal names exactly one relative period ("this year", "last
month", "next quarter"), a number in the answer that tool results hold only on
lines naming another period of the same unit ("last year"), and never on a
line naming the goal's period, is doubted, unless the answer's own sentence
holding it names that other period ("down from 4.1 days last year"). So is a
number of lines naming no period when a line about the goal's own period holds
the figure asked (pdf_number_lookup at 61738e2: the 2027 target's 2.9 days,
beside "Average delivery time this year: 3.4 days.").

The same for pages (:func:`wrong_page`): pdf_find_figure at 4826ac4, asked for the
total revenue "on page 3", Qwen 1.5B answered 6.10, page 1's last-quarter figure.
"""

from __future__ import annotations

import re
from typing import Sequence

from ..state.models import CallRecord
from .answer_form import answer_to_copy
from .numbers import normalise_number

__all__ = ["wrong_page", "wrong_period", "line_to_answer"]

_PERIOD = re.compile(r"\b(this|current|last|previous|past|prior|next|coming)\s+(year|quarter|month|week)\b",
                     re.IGNORECASE)
_WHICH = {"this": "this", "current": "this", "last": "last", "previous": "last", "past": "last", "prior": "last",
          "next": "next", "coming": "next"}
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n")
_NUMBER = re.compile(r"(?<![\w.])\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\w.])\d+(?:\.\d+)?")


def _periods(text: str) -> set[tuple[str, str]]:
    """("last", "year") for each relative period ``text`` names."""
    return {(_WHICH[m.group(1).lower()], m.group(2).lower()) for m in _PERIOD.finditer(text)}


def _checked_numbers(text: str) -> list[str]:
    """The numbers worth checking: decimals and integers over 10 that are not years."""
    out = []
    for m in _NUMBER.finditer(text):
        n = normalise_number(m.group(0))
        if "." not in n and (int(n) <= 10 or 1900 <= int(n) <= 2100):
            continue
        if n not in out:
            out.append(n)
    return out


def wrong_period(goal: str, answer: str, calls: Sequence[CallRecord]) -> str:
    """A doubt (one line) when ``answer`` gives a number that the task's tool
    results hold only on lines about another period than the one the goal
    names; "" otherwise (also when the goal names no period, or several).

    Args:
        goal: the user's request.
        answer: the final answer.
        calls: the task's call journal; only calls that succeeded count.
    """
    wanted = _periods(goal)
    if len(wanted) != 1:
        return ""
    which, unit = next(iter(wanted))
    in_goal = set(_checked_numbers(goal))
    lines = [re.sub(r"^\s*\d+\t", "", line).strip()  # read_file's line number is not the line
             for c in calls if c.status == "done" and not c.error and c.result for line in c.result.splitlines()]
    right = _best_line([ln for ln in lines if (which, unit) in _periods(ln)], goal)
    how = f", e.g. {answer_to_copy(right)}" if right else " (if the files give none, say so plainly)"
    said_other, said_wanted = [], False
    for n in _checked_numbers(answer):
        if n in in_goal:
            continue
        holding = [line for line in lines if n in _checked_numbers(line)]
        if not holding:
            continue  # from nowhere: the number check speaks to that
        named = [_periods(line) for line in holding]
        if any((which, unit) in p for p in named):
            said_wanted = True
            continue
        if all(any(u == unit and w != which for w, u in p) for p in named):
            other = next(w for w, u in sorted(named[0]) if u == unit and w != which)
            said = [s for s in _SENTENCE.split(answer) if n in _checked_numbers(s)]
            if any((other, unit) in _periods(s) for s in said):
                said_other.append((n, other))  # "down from 4.1 days last year": the answer says which period it is
                continue
            return (f"the answer gives {n}, but it appears only on {holding[0][:90]!r}, which is about {other} "
                    f"{unit}; the task asks about {which} {unit}: answer with the figure for {which} {unit}{how}")
    shown = [n for n in _checked_numbers(answer) if n not in in_goal and any(n in _checked_numbers(ln) for ln in lines)]
    if right and shown and not said_wanted and not said_other and not set(shown) & set(_checked_numbers(right)):
        # a figure from a line of no period while a line about the goal's own period answers it: pdf_number_lookup at
        # 61738e2 answered 2.9 days, "Bring the average delivery time down to 2.9 days." under "Targets for 2027",
        # beside "Average delivery time this year: 3.4 days."
        return (f"the answer gives {shown[0]}, which no line about {which} {unit} holds; the task asks about {which} "
                f"{unit}: answer with the figure for {which} {unit}{how}")
    if said_other and not said_wanted and right:
        # pdf_number_lookup at 7b217b1: "The average delivery time last year was 4.1 days across 18,200 orders."
        # finished for "this year": honest about its period, and no answer to the question
        n, other = said_other[0]
        return (f"the answer gives only {other} {unit}'s figure ({n}); the task asks about {which} {unit}: answer "
                f"with the figure for {which} {unit}{how}")
    return ""


def _words(text: str) -> set[str]:
    return {w.rstrip("s") for w in re.findall(r"[^\W\d_]{4,}", text.lower())} - {"this", "that", "what", "which",
                                                                                  "according", "page", "year"}


def _best_line(lines: Sequence[str], goal: str) -> str:
    """Of ``lines`` (about the period or page the goal asks for), the one holding a
    number that shares the most words with ``goal``, at least two ("" when none
    does): the answer to copy. pdf_number_lookup at 4f7db1e: last year's 4.1 refused
    twice beside this year's 3.4, the line "Average delivery time this year: 3.4
    days." never offered, and handed off."""
    wanted = _words(goal)
    scored = [(len(wanted & _words(ln)), -i, ln) for i, ln in enumerate(lines) if _checked_numbers(ln)]
    best = max(scored, default=(0, 0, ""))
    return best[2][:200] if best[0] >= 2 else ""


def line_to_answer(goal: str, calls: Sequence[CallRecord]) -> str:
    """The line of the task's reads that answers a question about a figure: of the
    lines holding a number (about the goal's period when it names one), the one
    sharing the most words with ``goal``, at least three; "" when none does.
    pdf_number_lookup at f80ed26: 4.1 - 2.9 = 1.2 worked out by hand, refused as a
    number no tool gave (with no line named), the same again, and stalled; the line
    "Average delivery time this year: 3.4 days." was in the read. For a goal that
    names one page, of that page's lines, sharing at least two words: pdf_find_figure
    at ef38a30, "785" for page 3's "Q3 total revenue: 7.85 million EUR.", stalled."""
    pages = {int(p) for p in _GOAL_PAGE.findall(goal)}
    on_page = [line for line, page in _paged_lines(calls) if page in pages] if len(pages) == 1 else []
    if on_page:
        return _best_line(on_page, goal)
    wanted = _periods(goal)
    lines = [re.sub(r"^\s*\d+\t", "", line).strip() for c in calls
             if c.status == "done" and not c.error and c.result and (c.risk or "read") == "read"
             and c.name not in ("finish", "ask_human", "update_plan", "use_tools") for line in c.result.splitlines()]
    if len(wanted) == 1:
        lines = [ln for ln in lines if next(iter(wanted)) in _periods(ln)]
    best = _best_line(lines, goal)
    return best if len(_words(goal) & _words(best)) >= 3 else ""


def pages_answer(goal: str, calls: Sequence[CallRecord]) -> str:
    """The answer a question about a PDF's pages gets from the task's reads: "X.pdf
    has N pages." for "how many pages", and "The title on its first page is 'T'." (the
    page's first line) for a title on one page; "" when a part asked has no such fact.
    pdf_page_count at 79c170d: the reads echoed as the answer twice, told to answer
    in its own words with nothing to copy, and handed off."""
    parts = []
    if re.search(r"\bhow many pages\b", goal, re.IGNORECASE):
        named = {n.lower() for n in re.findall(r"[\w.-]+\.pdf\b", goal, re.IGNORECASE)}
        counted = next((m for c in calls if c.status == "done" and not c.error and c.result
                        for m in _PAGE_COUNT.finditer(c.result) if not named or m.group(1).lower() in named), None)
        if counted is None:
            return ""
        parts.append(f"{counted.group(1)} has {counted.group(2) or counted.group(3)} pages.")
    title = _GOAL_TITLE.search(goal)
    if title:
        page = 1 if title.group(1) else int(title.group(2))
        first = next((line for line, p in _paged_lines(calls) if p == page), "")
        if not first:
            return ""
        parts.append(f"The title on {'its first page' if title.group(1) else f'page {page}'} is {first!r}.")
    return " ".join(parts)


#: "manual.pdf: 6 pages." (pdf_read's head) or pdf_info's "manual.pdf:" and "pages: 6" lines
_PAGE_COUNT = re.compile(r"(?m)^\s*([\w.-]+\.pdf):\s*(?:(\d+) pages?\b|\n(?:.*\n){0,3}?\s*pages:\s*(\d+))",
                         re.IGNORECASE)
_GOAL_TITLE = re.compile(r"\btitle\b[^?.]*?\b(?:(first page)|page\s+(\d{1,4}))\b", re.IGNORECASE)


_GOAL_PAGE = re.compile(r"\bpage\s+(\d{1,4})\b", re.IGNORECASE)
_PAGE_MARK = re.compile(r"^-{3}\s*page\s+(\d+)\s*-{3}$", re.IGNORECASE)  # pdf_read's "--- page 3 ---"


def wrong_page(goal: str, answer: str, calls: Sequence[CallRecord]) -> str:
    """A doubt (one line) when the goal names one page ("on page 3") and ``answer``
    gives a number that the task's paged tool results (``--- page N ---``) hold
    only on other pages; "" otherwise, also when the answer's sentence holding it
    names the page it is from.

    Args:
        goal: the user's request.
        answer: the final answer.
        calls: the task's call journal; only calls that succeeded count.
    """
    asked = set(_GOAL_PAGE.findall(goal))
    if len(asked) != 1:
        return ""
    want = int(asked.pop())
    in_goal = set(_checked_numbers(goal))
    found: dict[str, dict[int, str]] = {}  # number -> {page: first line holding it}
    for line, page in _paged_lines(calls):
        for n in _checked_numbers(line):
            found.setdefault(n, {}).setdefault(page, line)
    for n in _checked_numbers(answer):
        pages = found.get(n)
        if n in in_goal or not pages or want in pages:
            continue
        page, line = min(pages.items())
        said = [s for s in _SENTENCE.split(answer) if n in _checked_numbers(s)]
        if any(re.search(rf"\bpage\s+{page}\b", s, re.IGNORECASE) for s in said):
            continue  # "page 1 gives last quarter's 6.10": the answer says where it is from
        right = _best_line([ln for ln, p in _paged_lines(calls) if p == want], goal)
        return (f"the answer gives {n}, but it appears only on page {page} ({line[:90]!r}); the task asks about "
                f"page {want}: answer with the figure on page {want}"
                + (f", e.g. {answer_to_copy(right)}" if right else " (if it gives none, say so plainly)"))
    return ""


def _paged_lines(calls: Sequence[CallRecord]) -> list[tuple[str, int]]:
    """(line, page) for each line of the task's paged tool results (``--- page N ---``)."""
    out = []
    for c in calls:
        if c.status != "done" or c.error or not c.result:
            continue
        page = None
        for line in c.result.splitlines():
            mark = _PAGE_MARK.match(line.strip())
            if mark:
                page = int(mark.group(1))
            elif page is not None and line.strip():
                out.append((line.strip(), page))
    return out
