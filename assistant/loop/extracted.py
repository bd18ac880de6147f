"""Values a goal asks to pull out of files into a new one ("Put all the email
addresses in emails.txt into addresses.txt, one per line"; links; phone numbers): found by a pattern in
what the task read, so the file written holds each of them and nothing around
them. A small model copies the lines whole or drops some; a pattern does not.

A held-out task at 11a1600: Qwen2.5-Coder-1.5B wrote "Ana", "bo@y.com",
"Cy (cy@z.net)", "Reply to dan@w.io" (ana@x.org left out) and answered that the
addresses were in addresses.txt.
"""

from __future__ import annotations

import re
from typing import Callable, NamedTuple, Sequence

from ..state.models import CallRecord
from .evidence import _data_of, goal_files, norm_path
from .recap import call_to_copy

__all__ = ["Extraction", "extraction_asked", "extraction_wrong", "value_pattern"]

def _any(value: str) -> bool:
    return True


def _a_phone(value: str) -> bool:
    """Seven digits or more, and not a date ("2026-11-20") or an amount ("1,200.00")."""
    return len(re.sub(r"\D", "", value)) >= 7 and not re.fullmatch(r"\d{4}-\d{2}-\d{2}|\d{1,3}(?:,\d{3})+(?:\.\d+)?",
                                                                   value)


#: (what the goal calls them, the words that ask for them, the pattern that finds one, what else one must be)
_KINDS = (
    ("email addresses", re.compile(r"\be-?mail(?:\s+address(?:es)?|s)\b", re.IGNORECASE),
     re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}\b"), _any),
    ("links", re.compile(r"\b(?:links|urls|web\s+(?:addresses|links))\b", re.IGNORECASE),
     re.compile(r"\bhttps?://[^\s<>\"')\]]+[^\s<>\"')\].,;:!?]"), _any),
    # a held-out task at a8fdd03: "Put the phone numbers from contacts.txt into phones.txt, one per line." wrote
    # read_file's line numbers, 1 to 4
    ("phone numbers", re.compile(r"\b(?:(?:tele|mobile\s+|cell\s+)?phone\s*(?:numbers?|nos?\b\.?)|phones|"
                                 r"mobile\s+numbers?)", re.IGNORECASE),
     re.compile(r"(?<![\w+])\+?\(?\d[\d ()/.-]{5,}\d(?![\w.,]?\d)"), _a_phone),
)


def value_pattern(words: str) -> tuple[re.Pattern[str], Callable[[str], bool]] | None:
    """``(pattern, keep)`` for the kind of value ``words`` name ("phone numbers",
    "email address", "links"): the pattern that finds one and what else a match must
    be (a phone number: seven digits or more, no date); None for another kind."""
    for _what, asked, pattern, keep in _KINDS:
        if asked.search(words):
            return pattern, keep
    return None


_EVERY = re.compile(r"\b(?:all|every|each)\b", re.IGNORECASE)
_PULL = re.compile(r"^\W*(?:please\s+)?(?:put|copy|extract|collect|list|write|save|get|pull|gather|take)\b",
                   re.IGNORECASE)
#: words after "email addresses" that pick some of them ("of the Sales team", "that end in .org")
_SOME = re.compile(r"^\s*(?:of|for|who|whose|that|which|belonging|at|ending|with|except|but|starting)\b", re.IGNORECASE)
#: "of all contacts", "of everyone": words after the kind that pick all of them (held-out OD at 0959310)
_OF_ALL = re.compile(r"^\s*of\s+(?:all|every|each|everyone|everybody)\b", re.IGNORECASE)
_ONE_PER_LINE = re.compile(r"\b(?:one|each)\s+(?:per|on\s+(?:a|its\s+own|each))\s+line\b|\bone\s+a\s+line\b",
                           re.IGNORECASE)
_READS = ("read_file", "docx_read", "pdf_read")
_READ_MARK = re.compile(r"^\s*(?:\[p\d+\]|\d+\t)\s*", re.MULTILINE)  # docx_read's "[p4] ", read_file's line number
_MARKER = re.compile(r"^\s*(?:[-*\u2022]|\d{1,3}[.)])\s+")


class Extraction(NamedTuple):
    """What a goal asks to pull out: ``what`` ("email addresses"), ``values`` found in
    ``sources`` (the files read), in order, each once; ``output`` the file to write."""

    what: str
    values: list[str]
    sources: list[str]
    output: str
    pattern: re.Pattern[str]
    one_per_line: bool


def extraction_asked(goal: str, calls: Sequence[CallRecord]) -> Extraction | None:
    """The :class:`Extraction` when ``goal`` asks for all the email addresses (links, phone
    numbers) of files it names, written into one text file it names (.txt, .md), and this task
    read those files and found one or more; None otherwise, and when words after the
    kind pick only some ("the email addresses of the Sales team")."""
    outputs, inputs = goal_files(goal)
    texts = [o for o in outputs if o.lower().endswith((".txt", ".md"))]
    if len(texts) != 1 or not inputs:
        return None
    for what, asked, pattern, keep in _KINDS:
        m = asked.search(goal)
        after = goal[m.end():] if m is not None else ""
        if m is None or (_SOME.match(after) and not _OF_ALL.match(after)) \
                or not (_EVERY.search(goal[:m.start()]) or _PULL.match(goal)):
            continue
        wanted = {norm_path(p) for p in inputs}
        sources, values = [], {}
        for c in calls:
            path = norm_path(str(c.arguments.get("path", "")))
            if c.name in _READS and c.status == "done" and not c.error and path in wanted:
                sources.append(path)
                for v in pattern.findall(_READ_MARK.sub("", _data_of(c.result or ""))):
                    if keep(v.strip()):
                        values.setdefault(v.strip().lower(), v.strip())
        if values:
            return Extraction(what, list(values.values()), list(dict.fromkeys(sources)), texts[0], pattern,
                              bool(_ONE_PER_LINE.search(goal)))
    return None


def extraction_wrong(found: Extraction, text: str) -> str:
    """What is wrong with ``text``, the content written to ``found.output`` ("" when
    nothing): values of the sources left out, or lines that hold a value with other
    words around it (or, one per line asked, lines with no value), with the call
    that writes them right."""
    lines = [_MARKER.sub("", ln).strip() for ln in text.splitlines() if ln.strip()]
    written = {v.strip() for ln in lines for v in found.pattern.findall(ln)}
    missing = [v for v in found.values if v not in written]  # as the source writes it: held-out OD at 0959310
    # wrote "Ana@x.org" and "Cyd@z.net" for ana@x.org and cyd@z.net
    crowded = [ln for ln in lines if (found.pattern.findall(ln) and found.pattern.sub("", ln).strip(" ,;<>()[]\"'"))
               or (found.one_per_line and not found.pattern.search(ln))]
    if not missing and not crowded:
        return ""
    said = []
    if missing:
        said.append(f"leaves out {', '.join(missing[:6])}")
    if crowded:
        said.append(f"writes {', '.join(repr(ln[:60]) for ln in crowded[:3])}, where only the {found.what} belong")
    fixed = call_to_copy("write_file", {"path": found.output, "content": "\n".join(found.values) + "\n"})
    return (f"the task asks for the {found.what} of {', '.join(found.sources)} in {found.output}, and this "
            f"{'; '.join(said)}. The {len(found.values)} {found.what} there, one per line: {fixed}")
