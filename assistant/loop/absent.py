"""An answer that says a value is not given, while a line this task read gives it.

The whole pass at c3d2461 (pdf_number_lookup): pdf_read showed "Average delivery time
this year: 3.4 days.", the model quoted last year's line and answered "The average
delivery time this year cannot be determined from the given information.", and the
task finished. The harness looks through what this task read for the line that holds
the question's words and a number, and doubts the "not given" with that line.
"""

from __future__ import annotations

import math
import re
from typing import Sequence

from ..state.models import CallRecord
from .answer_form import answer_to_copy
from .evidence import _COMMON, _FENCE_LINE, _HARNESS_TOOLS, _NOT_TOPIC, _PATH, _numbers, asks_only_a_question

__all__ = ["absent_but_read", "says_absent"]

#: "cannot be determined", "is not given", "no information about", "does not mention"
_SAYS_ABSENT = re.compile(
    r"\b(?:cannot|can ?not|can'?t|could ?n[o']t|unable to|(?:is|was)n'?t possible to|impossible to)\s+(?:be\s+)?"
    r"(?:determined?|tell|told|say|said|know|known|found|find|answer(?:ed)?|locate[d]?|calculated?)\b"
    r"|\bnot\s+(?:given|stated|mentioned|provided|specified|available|listed|included|found|present|there|shown)\b"
    r"|\bno\s+(?:information|data|mention|figure|record|details?)\b"
    r"|\bdoes(?:n'?t| not)\s+(?:say|state|mention|give|include|contain|provide|list|show)\b", re.IGNORECASE)
#: a question for a value: "what was ...", "how much/many/long ...", "when ..."
_ASKS_VALUE = re.compile(r"\b(what|how\s+(?:much|many|long|far|old|big)|when|which)\b", re.IGNORECASE)
_TOPIC_WORD = re.compile(r"[^\W\d_]{4,}")
_ANY_WORD = re.compile(r"[^\W\d_]+")
_LINE_NUMBER = re.compile(r"^\s*\d+\t")
#: sentences inside one long line (a search hit's "...a. b. c...")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])|\.{3}")
_DIGIT = re.compile(r"\d")
#: words that say how the question is put, not what it is about
_ASKING = frozenset("""according says said tell show shows give gives given state states stated mention mentioned
number figure value much many long what when which where does
""".split())


def says_absent(answer: str) -> bool:
    """True when ``answer`` says the value is not given, cannot be determined or is not
    mentioned (:data:`_SAYS_ABSENT`)."""
    return bool(_SAYS_ABSENT.search(answer))


def _topic(goal: str) -> list[str]:
    """The question's content words (4+ letters, lower case), file names, common words
    and words of asking left out, in the order the goal gives them."""
    seen: list[str] = []
    for w in _TOPIC_WORD.findall(_PATH.sub(" ", goal)):
        w = w.lower()
        if w not in _COMMON and w not in _NOT_TOPIC and w not in _ASKING and w not in seen:
            seen.append(w)
    return seen


def _holds(word: str, words: set[str]) -> bool:
    """True when ``word`` or a word sharing its first five letters (its stem: "deliveries"
    for "delivery") is in ``words``."""
    return word in words or (len(word) >= 5 and any(w[:5] == word[:5] and len(w) >= 5 for w in words))


def _lines(result: str) -> list[str]:
    """The lines (and, in a long line, the sentences) of a read result, the data fence and
    line numbers left out."""
    out = []
    for line in _FENCE_LINE.sub("", result).splitlines():
        for part in _SENTENCE_END.split(_LINE_NUMBER.sub("", line)):
            part = part.strip(" .")
            if part:
                out.append(part)
    return out


def absent_but_read(goal: str, answer: str, calls: Sequence[CallRecord]) -> str:
    """The doubt when ``answer`` to a question for a value (``goal``) says the value is not
    given, but a line read by a successful read call of this task holds most of the
    question's words (at least two, and 60%) and a number, no such line's number given in the answer: the
    line (or the two lines tied best, goal word pairs they share breaking ties) is named,
    with an answer to copy when one line is best; "" otherwise."""
    if not says_absent(answer) or not asks_only_a_question(goal) or not _ASKS_VALUE.search(goal):
        return ""
    topic = _topic(goal)
    if len(topic) < 2:
        return ""
    need = max(2, math.ceil(0.6 * len(topic)))
    goal_words = [w.lower() for w in _ANY_WORD.findall(_PATH.sub(" ", goal))]
    pairs = set(zip(goal_words, goal_words[1:]))
    given = set(_numbers(answer))
    scored: list[tuple[int, int, str, CallRecord]] = []
    for c in calls:
        if c.status != "done" or c.error or not c.result or (c.risk or "read") != "read" \
                or c.name in _HARNESS_TOOLS or (c.data or {}).get("repeat_of"):
            continue
        for line in _lines(c.result):
            if not _DIGIT.search(line):
                continue
            words = [w.lower() for w in _ANY_WORD.findall(line)]
            held = sum(_holds(w, set(words)) for w in topic)
            if held >= need:
                scored.append((held, len(pairs & set(zip(words, words[1:]))), line, c))
    # a number of such a line given: the answer gave the value, its "not given" is about something else
    if not scored or any(set(_numbers(s[2])) & given for s in scored):
        return ""
    best = max(s[:2] for s in scored)
    top: list[tuple[int, int, str, CallRecord]] = []
    for s in scored:
        if s[:2] == best and s[2] not in [t[2] for t in top]:
            top.append(s)
    call = top[0][3]
    if len(top) == 1:
        return (f"the answer says it is not given, but {call.name} at step {call.step} read "
                f"{top[0][2][:160]!r}; if that answers the question, answer with it, e.g. "
                f"{answer_to_copy(top[0][2][:160].rstrip('.') + '.')}")
    shown = "; ".join(repr(t[2][:120]) for t in top[:2])
    return (f"the answer says it is not given, but this task read lines that hold the question's words and a "
            f"number: {shown}; answer with the one that answers the question")
