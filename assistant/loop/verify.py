"""Checks on a final answer before the task is called finished.

Small models sometimes announce work they never did ("I wrote totals.txt")
instead of calling the tool. Measured here: Qwen2.5-Coder-1.5B, after one
format error, answered "The total amount per department is written to
totals.txt." with no write at all. The answer is checked against the
workspace: a file it says was written, created or saved must exist.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

__all__ = ["unbacked_file_claims", "announces_work", "exists_somewhere", "VACUOUS_NEXT"]

# "let me know" is an offer, not a plan (csv_top_customers at 04fe9b0: a right report ending "If you need any further
# assistance, please let me know!" was refused twice as a plan, and the model overwrote top3.csv with junk)
_PLAN = re.compile(r"\b(I will|I'll|I am going to|I'm going to|let me(?!\s+know)|let's|next,? I|first,? I|I need to|"
                   r"I should|I can now)\b", re.IGNORECASE)


_LIST_ITEM = re.compile(r"^\s*(\d+[.)]|[-*•])\s")
#: "I will now proceed to the next step of the task.": a sentence that plans nothing (csv_top_customers at 9c2437c:
#: a right report ending so was refused as a plan, twice, and top3.csv was then overwritten with junk)
VACUOUS_NEXT = re.compile(r"^\W*(?:now,?\s+)?(?:i will|i'll|let me|i am going to|i'm going to)(?:\s+now)?\s+(?:proceed|"
                          r"continue|move on|go on)(?:\s+(?:to|with))?\s+(?:the\s+)?next step\b[^\n]{0,40}$",
                          re.IGNORECASE)


def announces_work(answer: str) -> bool:
    """True when a reply with no tool call ends by saying what it is about to do
    ("I will read the file...", "Let me check", or "I will follow these steps:"
    and a list) instead of doing it: a plan, not an answer. A reply that states
    a result after its "I'll ..." line ("I'll extract it: ... The deadline is
    14 March.") is an answer."""
    lines = [ln for ln in answer.strip().splitlines() if ln.strip() and not ln.strip().startswith("```")]
    said = [ln for ln in lines if not VACUOUS_NEXT.match(ln)]
    if said and not all(_PLAN.search(ln) or _LIST_ITEM.match(ln) for ln in said):
        lines = said  # a report, then "I will now proceed to the next step of the task.": no plan of anything
    last_plan = max((i for i, ln in enumerate(lines) if _PLAN.search(ln)), default=-1)
    if last_plan < 0 or len(answer) > 4000:
        return False
    return all(_LIST_ITEM.match(ln) for ln in lines[last_plan + 1 :])

_CLAIM_WORDS = (r"wr[io]te|written|creat(?:e|ed|ing)|sav(?:e|ed)|updat(?:e|ed)|export(?:ed)?|generat(?:e|ed)|"
                r"stored|added|put|placed|moved|renamed|copied")
_CLAIM = re.compile(rf"\b({_CLAIM_WORDS})\b", re.IGNORECASE)
_PATH = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w-][\w.-]*?\.(?:txt|md|csv|tsv|json|docx|xlsx|pdf|ics|html|py|yaml|yml))\b",
                   re.IGNORECASE)


def unbacked_file_claims(answer: str, workspace: str | Path) -> list[str]:
    """Files the answer says it wrote (or created, saved, ...) that do not exist
    in ``workspace``. Paths are taken relative to the workspace; absolute paths
    and URLs are ignored. Returns [] when the answer claims no writes."""
    if not _CLAIM.search(answer):
        return []
    root = Path(workspace)
    missing = []
    for m in _PATH.finditer(answer):
        rel = m.group(1).strip().strip("`'\"")
        if rel.startswith("/") or "://" in answer[max(0, m.start() - 8) : m.start()]:
            continue
        if _SOURCE_OF_A_MOVE.match(answer, m.end()) and _MOVE_VERB.search(answer[max(0, m.start() - 60):m.start()]):
            continue  # "Renamed report.txt to report-2026.txt.": the old name is gone (a held-out task at 6ad68a4)
        if _said_deleted(answer, m.start(), m.end()):
            continue  # "old_draft.txt deleted, moved to the trash": gone on purpose (a held-out task (QH) at 5034895
            # was told it was never written, wrote it again, and deleted it again)
        if not exists_somewhere(root, rel) and rel not in missing:  # "moved a.txt to txt/a.txt"
            missing.append(rel)
    return missing


#: what follows the old name in "renamed a.txt to b.txt", "moved a.txt into old/a.txt"
_SOURCE_OF_A_MOVE = re.compile(r"[`'\"]?\s+(?:to|into|as)\s+[`'\"]?[\w./-]+\.\w+")
_MOVE_VERB = re.compile(r"\b(renam|mov|transferr)\w*\b", re.IGNORECASE)
_DELETE_VERB = re.compile(r"(delet|remov|trash|eras)\w*", re.IGNORECASE)
#: a verb that claims a file was made or changed, or one that deletes it
_VERB = re.compile(rf"\b(?:{_CLAIM_WORDS}|{_DELETE_VERB.pattern})\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?;](?=\s|$)|\n")


def _said_deleted(answer: str, start: int, end: int) -> bool:
    """Whether the sentence of ``answer`` holding the path at ``start:end`` says it was
    deleted: the nearest verb before it deletes ("Deleted a.txt"), or none comes before
    it and one after it does ("a.txt deleted, moved to the trash")."""
    begin = max((b.end() for b in _SENTENCE_END.finditer(answer, 0, start)), default=0)
    stop = _SENTENCE_END.search(answer, end)
    before = list(_VERB.finditer(answer, begin, start))
    if before:
        return bool(_DELETE_VERB.fullmatch(before[-1].group(0)))
    after = _VERB.search(answer, end, stop.start() if stop else len(answer))
    return bool(after and _DELETE_VERB.fullmatch(after.group(0)))


def exists_somewhere(root: Path, rel: str, limit: int = 2000) -> bool:
    """``rel`` exists under ``root``; a bare file name may be in any folder (an
    answer said "garden.txt is in the home folder": home/garden.txt is real), and
    case aside (xlsx_group_sums at 4f7db1e: "the Sales.xlsx file" for sales.xlsx was
    refused four times as a file never written, and the task paused as stuck)."""
    if (root / rel).exists():
        return True
    want = rel.strip("/").lower()
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        here = os.path.relpath(folder, root).replace(os.sep, "/")
        names = [*files, *dirs]
        if any((n if here == "." else f"{here}/{n}").lower() == want or ("/" not in want and n.lower() == want)
               for n in names):
            return True
        seen += len(files) + len(dirs)
        if seen > limit:
            return True  # too big to look through: give the benefit of the doubt
    return False
