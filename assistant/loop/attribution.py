"""Whose value is it? A finish check for answers that give one person's contact
detail as another's.

handoff_not_found at c628c84: asked "What is our landlord's phone number?", Qwen
1.5B read contacts.csv (no landlord in it) and notes.md (the landlord, Mr. Okafor,
with no number), and answered "The landlord's phone number is +44 20 7946 0011":
the accountant's number, on the accountant's row. Every digit of it came from a
tool, so the number check passed it; what was wrong was whose it was. At e03cee3
it answered that "the landlord's name is Priya Shah with a phone number +44 20
7946 0011": naming the accountant is no excuse when the sentence gives her
number as the landlord's.

The check: when the goal asks for a possessor's contact detail ("the landlord's
phone number", "the email of our accountant") and the answer gives a phone
number or an e-mail address, some tool-result line holding that value (or the
call that produced it) must name the possessor, or a name that a line naming
the possessor gives ("Rent goes to Mr. Okafor, the landlord" links Okafor). Else
the answer may give it only as someone else's: no sentence holding it names the
possessor (unless negated), and one names someone on the value's line.
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

from ..state.models import CallRecord

__all__ = ["misattributed_contact", "ambiguous_name"]

_DETAIL = r"(?:phone|telephone|mobile|cell|number|e-?mail|contact)"
_POSSESSIVE = re.compile(r"\b([A-Za-z][\w-]{2,})(?:'s|\u2019s)\s+(?:[\w-]+\s+){0,2}?" + _DETAIL, re.IGNORECASE)
_OF = re.compile(_DETAIL + r"(?:\s+number|\s+address)?\s+(?:of|for)\s+(?:the\s+|our\s+|my\s+|a\s+)?([A-Za-z][\w-]{2,})",
                 re.IGNORECASE)
_PHONE = re.compile(r"(?<![\w+])\+?\d[\d ().-]{5,}\d(?!\w)")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_NAME = re.compile(r"\b[A-Z][a-z]{2,}\b")
_SENTENCE = re.compile(r"(?<=[.!?;:])\s+|\n")
_NEGATION = re.compile(r"\b(not|no|never|none|without)\b|n't\b", re.IGNORECASE)
_NOT_SUBJECTS = frozenset({"what", "which", "whose", "where", "who", "find", "give", "tell", "that", "this", "their",
                           "your", "let", "its", "there", "here"})


#: a possessor told by what it is, not by a name: "the person with the highest salary", "the customer who ..."
_PICKED_BY = re.compile(r"\s+(?:with|who|whose|that|which|having)\b", re.IGNORECASE)


def _subjects(goal: str) -> list[str]:
    """The possessors whose contact detail the goal asks for (lowercase): "landlord";
    not one told by a clause after it ("the e-mail of the person with the highest
    salary": a held-out task at bad5969 queried Tom's row right, was doubted for an
    address on a line that does not say "person", and handed off)."""
    found = [m.group(1) for m in _POSSESSIVE.finditer(goal)] + \
        [m.group(1) for m in _OF.finditer(goal) if not _PICKED_BY.match(goal, m.end())]
    return [w.lower() for w in found if w.lower() not in _NOT_SUBJECTS]


def _values(answer: str) -> list[tuple[str, str]]:
    """(shown, key) for each phone number (key: its digits, 7 or more) and e-mail address in ``answer``."""
    out = [(m.group(0), m.group(0).lower()) for m in _EMAIL.finditer(answer)]
    rest = _EMAIL.sub(" ", answer)
    for m in _PHONE.finditer(rest):
        digits = re.sub(r"\D", "", m.group(0))
        if len(digits) >= 7:
            out.append((m.group(0).strip(), digits))
    return out


def _key_in(key: str, line: str) -> bool:
    return key in line.lower() if "@" in key else key in re.sub(r"\D", "", line)


def _names(subjects: Sequence[str], results: Iterable[str]) -> set[str]:
    """The subjects, and capitalised words on any result line that names one of them."""
    names = set(subjects)
    for text in results:
        for line in text.splitlines():
            low = line.lower()
            if any(s in low for s in subjects):
                names.update(w.lower() for w in _NAME.findall(line))
    return names


def _any_detail(names: set[str], results: Iterable[str]) -> bool:
    """Some result line naming one of ``names`` holds a phone number or e-mail address."""
    for text in results:
        for line in text.splitlines():
            low = line.lower()
            if any(n in low for n in names) and _values(re.sub(r"^\s*\d+\t", "", line)):
                return True
    return False


NOT_FOUND_TAIL = "'s contact detail"
"""How the doubt ends when nothing read gives the possessor's contact detail at all:
"... say plainly that you could not find the landlord's contact detail"."""


def misattributed_contact(goal: str, answer: str, calls: Sequence[CallRecord]) -> str:
    """A doubt (one line) when ``answer`` gives a phone number or e-mail address
    as the goal's possessor's while every tool-result line holding it names
    someone else; "" when it does not, or when nothing here says whose it is.

    Args:
        goal: the user's request.
        answer: the final answer.
        calls: the task's call journal; only calls that succeeded count.
    """
    subjects = _subjects(goal)
    if not subjects:
        return ""
    done = [c for c in calls if c.status == "done" and not c.error and c.result]
    names = _names(subjects, [c.result for c in done])
    values = _values(answer)
    # "the landlord's phone number is:\n\n+44 ..." is one sentence (handoff_not_found at 6b05252: the label and the
    # value on lines of their own, the source line quoted above them, and the answer accepted)
    # and so when a code fence's marks stand between them (handoff_not_found at 64fba22: "... the landlord's phone
    # number is:\n```\n+44 7700 900123\n```", the neighbour's number, finished)
    plain = re.sub(r"^[ \t]*```[^\n]*$", "", answer, flags=re.MULTILINE)
    sentences = [s for s in _SENTENCE.split(re.sub(r":\s+", " ", plain)) if s.strip()]
    for shown, key in values:
        lines = [(c, line) for c in done for line in c.result.splitlines() if _key_in(key, line)]
        if not lines:
            continue  # from nowhere: the number check speaks to that
        owned = any(n in f"{line} {c.arguments}".lower() for c, line in lines for n in names)
        if owned:
            continue
        around = [s.replace(shown, " ") for s in sentences if shown in s]  # lena@example.org names nobody
        claimed = any(any(n in s.lower() for n in subjects) and not _NEGATION.search(s) for s in around)
        others = {w.lower() for _, line in lines for w in _NAME.findall(line)}
        says_whose = any(w in s.lower() for s in around for w in others)
        if claimed or not says_whose:  # "the landlord's ... is X", or X alone: given as the possessor's
            line = re.sub(r"^\s*\d+\t", "", lines[0][1]).strip()  # read_file's line number is not the line
            who = subjects[0]
            doubt = f"the answer gives {shown} as the {who}'s, but it appears only on {line[:90]!r}, which does not name the {who}"
            if not _any_detail(names, [c.result for c in done]):
                # handoff_not_found at 4826ac4: told "if they give no such detail, say so plainly", Qwen 1.5B read
                # the same two files again three runs in three; what it read has no detail of the landlord's at all
                return (f"{doubt}, and no line this task read that names the {who} gives a phone number or e-mail; "
                        f"say plainly that you could not find the {who}{NOT_FOUND_TAIL}")
            return f"{doubt}; answer with what the files say about the {who} (if they give no such detail, say so plainly)"
    return ""


_HONORIFIC = r"(?:Dr|Mr|Mrs|Ms|Prof|Herr|Frau)\.?"
#: a person the goal names by title and surname ("Dr. Weber"), or by a surname it gives a possession to ("Weber's")
_TITLED = re.compile(rf"\b(?P<title>{_HONORIFIC})\s+(?P<surname>[A-Z][a-z]{{2,}})\b(?!\s+[A-Z][a-z])")
_LINE_MARK = re.compile(r"^\s*(?:\d+\t|\[p\d+\]\s*)")
_WHICH_ONE = re.compile(r"\b(which (one|of them)|do you mean|both|two of them|there are two|there are \d+)\b",
                        re.IGNORECASE)


def ambiguous_name(goal: str, answer: str, calls: Sequence[CallRecord]) -> str:
    """A doubt (one line) when the goal names a person by title and surname ("Dr.
    Weber"), the files read give two or more people of that name with different
    given names ("Dr. Anna Weber", "Dr. Paul Weber"), and the answer names at most
    one of them and does not ask which; "" otherwise. The doubt gives their lines as
    the answer to copy. A held-out task at a864c41: "What is Dr. Weber's phone number?
    See contacts.docx." was answered with Anna Weber's number alone."""
    m = _TITLED.search(goal)
    if m is None:
        return ""
    surname = m.group("surname")
    people: dict[str, tuple[str, str]] = {}
    for c in calls:
        if c.status != "done" or c.error or not c.result or not c.arguments.get("path"):
            continue
        for raw in c.result.splitlines():
            line = _LINE_MARK.sub("", raw).strip()
            for who in re.finditer(rf"\b(?:{_HONORIFIC}\s+)?(?P<given>[A-Z][a-z]+)\s+{surname}\b", line):
                if who.group("given").lower() not in goal.lower():
                    people.setdefault(who.group("given"), (str(c.arguments["path"]), line))
    named = [g for g in people if re.search(rf"\b{g}\b", answer)]
    if len(people) < 2 or len(named) >= 2 or _WHICH_ONE.search(answer):
        return ""
    path = next(iter(people.values()))[0]
    lines = "; ".join(line.rstrip(".") for _, line in list(people.values())[:4])
    count = {2: "two", 3: "three", 4: "four"}.get(len(people), str(len(people)))
    return (f"the task names {m.group(0)}, and {path} names {len(people)} people of that name ({lines}); give each of "
            f"them, or ask the user which one they mean, e.g. the answer to copy: \"There are {count}: {lines}.\"")
