"""Checks on the files the goal and the answer name (``file_problems``): a file
the goal asks for that is missing or that this task did not write, a file the
answer names that does not exist or that it says was written when it was not, a
file or folder said to be missing that is there, a written file that is not of
its kind or holds a tool's report, a "from A to B" change the file does not hold
(``text_change``), inputs never read (``unread_inputs``), and, for a goal that
asks which file holds something, a pick this task never looked inside or that
another file it saw matches better (``grep_call`` is the search to copy).
"""

from __future__ import annotations

import csv
import decimal
import io
import itertools
import json
import os
import re
from datetime import date as _date
from pathlib import Path
from typing import Any, Callable, Iterable, NamedTuple, Sequence

from ..state.models import CallRecord
from .evidence import NOT_READING, _COMMON, _FENCE_LINE, _HANDS_BACK, _NEGATED, _NOT_DONE, _NOT_FOUND, _NOT_TOPIC, \
    _PATH, _WHICH_FILE, _WORD, Evidence, _paths, _results, _sentence_before, _values, _was_read, \
    _data_of, asks_only_a_question, goal_files, norm_path, number_problems, ungrounded_words
from .answer_form import answer_to_copy
from .recap import call_to_copy
from .verify import exists_somewhere

__all__ = ["unread_inputs", "grep_call", "file_problems", "text_change", "left_out_output", "goal_folders",
           "text_count"]


_CLAIM = re.compile(r"\b(wr[io]te|written|creat(?:e|ed)|sav(?:e|ed)|updat(?:e|ed)|export(?:ed)?|generat(?:e|ed)|"
                    r"stored|added|put|placed|moved|renamed|copied)\b", re.IGNORECASE)
_CLAIM_AFTER = re.compile(r"[`'\"]?,?\s*(?:(?:is|was|were|has|have|had|been|now|also|successfully|just)\s+){0,3}"
                          + _CLAIM.pattern, re.IGNORECASE)  # "notes.md has been updated"


def unread_inputs(goal: str, workspace: str | Path, calls: Sequence[CallRecord],
                  call: CallRecord | None = None, made: Iterable[str] = ()) -> list[str]:
    """Files ``goal`` names as inputs that exist in ``workspace`` but no call of
    this task has read, and that ``call`` itself does not name, nor this task made
    (``made``, see :func:`made_paths`): a change made before reading them is a
    guess. Qwen 1.5B, asked to put the meeting from invite.txt in the calendar,
    first added a meeting it made up, then read the file."""
    args = json.dumps(call.arguments, ensure_ascii=False).lower() if call is not None else ""
    # a call on the file itself needs no read when all it writes is in the user's words ("change 30 days to
    # 60 days"); not when it brings content of its own (an xlsx_add_sheet of five invented vendors)
    own = bool(args) and not ungrounded_words(" ".join(_values(call.arguments)), [goal])
    root = Path(workspace)
    ours = {norm_path(p) for p in made}
    return [rel for rel in goal_files(goal)[1]
            if (root / rel).is_file() and norm_path(rel) not in ours and not (own and Path(rel).name.lower() in args)
            and not _was_read(rel, calls, reads_only=True)]


def _says_missing(answer: str, rel: str) -> bool:
    """The answer says the file ``rel`` itself is not there ("could not find the file
    invite.txt", "invite.txt does not exist"), not something in it ("could not find the
    number in contacts.csv")."""
    name = re.escape(rel)
    q = r"[\"'`]?"
    return bool(re.search(
        rf"\b(could ?n[o']t|cannot|can't|unable to|did ?n[o']t|was ?n[o']t able to) (find|locate|see|open|access)"
        rf"( the)?( file| document)? {q}{name}{q}(?![\w-]|\.\w)"
        rf"|{q}{name}{q} (file |document )?((was|is|does) ?n[o']t|(was|is|does) not) (found|exist|there|available)",
        answer, re.IGNORECASE))


def _folders_said_missing(answer: str, root: Path, limit: int = 400) -> list[str]:
    """Doubts for folders of the workspace that ``answer`` says do not exist
    (files_organise at 80595a7: rename_many on ".inbox" failed with "Did you mean
    'inbox'?", and Qwen 1.5B gave up with 'The "inbox" folder does not exist in your
    workspace', which would have been handed off as an honest "could not")."""
    q = r"[\"'`]?"
    out, seen = [], 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        seen += len(dirs) + len(files)
        for d in dirs:
            name = re.escape(d)
            if not re.search(rf"(?<![\w./-]){name}(?![\w-])", answer):
                continue
            named = rf"(?:(?:the )?{q}{name}{q} (?:folder|directory)|(?:the )?(?:folder|directory) {q}{name}{q})"
            if re.search(rf"{named},? ((does|is|was) ?n[o']t|(does|is|was) not) (found|exist|there|available)"
                         rf"|\b(could ?n[o']t|cannot|can't|unable to|did ?n[o']t) (find|locate|see|open|access) {named}"
                         rf"|\bno (such )?{named}", answer, re.IGNORECASE):
                path = Path(folder, d)
                rel = path.relative_to(root).as_posix()
                inside = sorted(p.name for p in path.iterdir() if not p.name.startswith("."))[:6]
                out.append(f"the answer says the folder {rel} does not exist, but it is in the workspace"
                           + (f" (it holds {', '.join(inside)})" if inside else " (empty)") + "; use it")
        if seen > limit:
            break
    return out


_IN_FOLDER = re.compile(r"[`'\"]?,?\s+(?:(?:is|was)\s+)?(?:located\s+|stored\s+|found\s+)?in\s+(?:the\s+)?"
                        r"[`'\"]?(?P<folder>[\w.-]+(?:/[\w.-]+)*)/?[`'\"]?\s+(?:folder|directory|subfolder)\b",
                        re.IGNORECASE)


def _workspace_file(root: Path, rel: str, after: str = "", limit: int = 2000) -> str | None:
    """The workspace file an answer means by ``rel``: ``rel`` when it is one; else
    FOLDER/``rel`` when the words ``after`` it say "in the FOLDER folder"; else the one
    file anywhere whose path ends with ``rel`` (case aside); None when there is none
    or more than one. files_find at db466c8: "`appt-0412.txt` in the
    `archive/2024/misc` folder" (right) was doubted as naming no file, and "a file
    named `garden.txt` in the `home` folder" (wrong) passed unexamined."""
    if (root / rel).is_file():
        return rel
    m = _IN_FOLDER.match(after)
    if m and (root / m.group("folder") / rel).is_file():
        return f"{norm_path(m.group('folder'))}/{rel}"
    want, found, seen = rel.lower().strip("/"), [], 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        here = os.path.relpath(folder, root).replace(os.sep, "/")
        found += [p for p in (f if here == "." else f"{here}/{f}" for f in files)
                  if p.lower() == want or p.lower().endswith("/" + want)]
        seen += len(files)
        if seen > limit or len(found) > 1:
            return None
    return found[0] if found else None


def _picked_files(answer: str, root: Path) -> list[str]:
    """The workspace files ``answer`` names, not in a negated sentence ("it is not
    readme.txt"), each as its workspace path (:func:`_workspace_file`)."""
    out = []
    for pos, rel in _paths(answer):
        if _NEGATED.search(_sentence_before(answer, pos)):
            continue
        end = answer.find(rel, pos)
        after = answer[end + len(rel):] if end >= 0 else ""
        if not (root / rel).is_file() and _NEGATED.search(re.split(r"[,;:.!?](?:\s|$)", after, maxsplit=1)[0]):
            continue  # '"appt-0412.txt" does not mention "passport"' (files_find at 0cfab8b) picks no file
        found = _workspace_file(root, rel, after)
        if found and found not in out:
            out.append(found)
    return out


#: a question for a file by its size or age (see :mod:`file_facts`)
FILE_SIZE_ASKED = re.compile(r"\b(?P<w>largest|biggest|smallest|heaviest|lightest|tiniest)\b", re.IGNORECASE)
FILE_TIME_ASKED = re.compile(r"\b(?P<w>newest|oldest|latest|earliest|most\s+recent(?:ly)?|"
                             r"least\s+recent(?:ly)?|last\s+(?:modified|changed|edited|updated|saved))\b",
                             re.IGNORECASE)
#: a question for the files that hold nothing ("Which files in this folder are empty?", "any empty files")
FILE_EMPTY_ASKED = re.compile(r"\b(?:which|what|are\s+there|any|list)\b[^.?!]{0,40}?\b(?:files?|documents?)\b"
                              r"[^.?!]{0,40}?\b(?:empty|blank|zero\s+bytes)\b|"
                              r"\b(?:empty|blank)\s+(?:files|documents)\b", re.IGNORECASE)
#: a question about a file's size or age ("Which file is the largest?", "changed most recently")
ATTRIBUTE_ASKED = re.compile(FILE_SIZE_ASKED.pattern + "|" + FILE_TIME_ASKED.pattern.replace("?P<w>", "") + "|"
                             + FILE_EMPTY_ASKED.pattern, re.IGNORECASE)

def _unlooked_pick(answer: str, ev: Evidence) -> list[str]:
    """The doubt when the goal asks which file holds something and the answer names
    existing files of which this task looked inside none (read it, or saw it in a grep
    result). files_find: asked which file is about the passport appointment, Qwen 1.5B
    listed the top folder and answered readme.txt, unread."""
    if not _WHICH_FILE.search(ev.goal) or ATTRIBUTE_ASKED.search(ev.goal):
        return []  # "Which file is the largest?" asks no file's text: :mod:`file_facts` checks it
    root = Path(ev.workspace)
    words = {w.lower() for w in _WORD.findall(ev.goal)}
    if not _paths(answer) and not _NOT_FOUND.search(answer) and not _NOT_DONE.search(answer):
        # files_find: "To find a file by what it says, use grep." (find_files' own hint) as the answer
        return ["the task asks which file it is, and the answer names none; give the file's path, or say plainly "
                "that you could not find it"]
    named = _picked_files(answer, root)
    if not named and _NOT_FOUND.search(answer):
        little = _searched_too_little(ev)
        return [little] if little else []
    if any(words & {w.lower() for w in _WORD.findall(Path(rel).stem)} for rel in named):
        return []  # "passport.txt" for "which file is about my passport?": its name says so
    if not named or any(_was_read(rel, ev.calls, reads_only=True) or any(
            c.status == "done" and not c.error and rel in (c.result or "")
            and (c.name == "grep" or rel in (c.data or {}).get("mentions_paths", ())) for c in ev.calls)
            for rel in named):  # grep, or find_files showing the file's text after a name search missed
        return []
    return [f"the answer says {named[0]} is the file, but this task never looked inside it; search the files' text "
            f"with grep (or read the file) before saying which one it is{_grep_to_copy(ev)}"]


#: an answer that says no file holds it: "None of these notes contain the word", "no note mentions it"
_NONE_HOLDS = re.compile(r"\bnone of\b|\bno (?:\w+ )?(?:notes?|files?|documents?|letters?) (?:contains?|mentions?|"
                         r"refers?|holds?)\b|\b(?:does|do)(?: not|n't) (?:contain|mention|refer)|\bnot mentioned\b",
                         re.IGNORECASE)
#: what a which-file question asks about: the words after "mentions" ("Which of my notes mentions the passport?")
_MENTIONED = re.compile(r"\b(?:mentions?|contains?|refers?\s+to|talks?\s+about|says?|is\s+about)\s+(?P<what>[^.?!]+)",
                        re.IGNORECASE)


def _found_after_all(answer: str, ev: Evidence) -> str:
    """The doubt when the goal asks which file mentions something, the answer says none
    does, and a line of a file this task read or grepped holds every word of it ("" otherwise),
    with that file and line. A held-out task at 1de0702: "Which of my notes mentions the
    passport?" read notes/trip.md ("Renew passport before March.") and answered "None of
    these notes contain the word "passport"."."""
    m = _MENTIONED.search(ev.goal)
    if not _WHICH_FILE.search(ev.goal) or m is None or not (_NONE_HOLDS.search(answer) or _NOT_FOUND.search(answer)):
        return ""
    words = [w.lower() for w in _WORD.findall(m.group("what"))
             if w.lower() not in _COMMON and w.lower() not in _NOT_TOPIC and len(w) > 2]
    if not words:
        return ""
    for c in ev.calls:
        if c.status != "done" or c.error or c.name not in ("read_file", "grep", "docx_read", "pdf_read"):
            continue
        path = str(c.arguments.get("path", ""))
        for line in "\n".join(_results([c])).splitlines():
            # a file's own lines only: not read_file's header, nor grep's count of what it matched
            own = {"read_file": r"^\s*\d+\t", "grep": r"^\s*[^\s:]+:\d+[:-]", "docx_read": r"^\[p\d+\]"}.get(c.name)
            if (own and not re.match(own, line)) or not all(w[:5] in line.lower() for w in words):
                continue
            where = re.match(r"^\s*([^\s:]+\.\w+):\d+[:-]", line) if c.name == "grep" else None
            rel = where.group(1) if where else path
            shown = re.sub(r"^\s*(?:\d+\t|[^\s:]+:\d+[:-]\s*)", "", line).strip()
            if rel:
                return (f"the answer says no file mentions {m.group('what').strip()!r}, but {rel}, which step {c.step} "
                        f"read, does: {shown[:120]!r}; name that file")
    return ""


_ABOUT = re.compile(r"\babout\s+(?:(?:my|the|our|a|an|your|his|her|their)\s+)?(?P<topic>[A-Za-z][\w\s-]{2,60}?)"
                    r"(?=[.?!,;:]|\s+(?:in|from|on|at|that|which|somewhere)\b|$)", re.IGNORECASE)


def _off_topic(answer: str, ev: Evidence) -> str:
    """The doubt when a which-file goal says what the file is "about" and the text
    of the file the answer names holds fewer than half of those words, the first
    (the head of the phrase) not among them ("" otherwise, or when the file cannot
    be read). files_find at 9fda44c: "a text file about my passport renewal
    appointment" answered with home/insurance.txt ("Home insurance renewal due in
    May."), which the model had read."""
    m = _ABOUT.search(ev.goal)
    if m is None or not _WHICH_FILE.search(ev.goal):
        return ""
    root = Path(ev.workspace)
    named = _picked_files(answer, root)
    if not named:
        return ""
    topic = [w.lower() for w in _WORD.findall(m.group("topic")) if w.lower() not in _NOT_TOPIC][:5]
    if not topic:
        return ""
    try:
        text = (Path(ev.workspace) / named[0]).read_text(encoding="utf-8", errors="replace")[:20000].lower()
    except OSError:
        return ""
    held = [w for w in topic if re.search(rf"\b{re.escape(w[:6])}", text)]
    if topic[0] in held or 2 * len(held) >= len(topic) + 1:
        return ""
    return (f"the answer says {named[0]} is the file, but it does not say {' '.join(topic)!r} (it holds "
            f"{', '.join(map(repr, held)) or 'none of those words'}); search the files' text for the other files"
            f"{_grep_to_copy(ev)}")


def _grep_to_copy(ev: Evidence) -> str:
    """'': call grep with {...}' for the word the goal asks about ("passport" in "a text
    file about my passport renewal appointment"), or "" without grep or such a word.
    files_find at c92ae49: told to search with grep, Qwen 1.5B sent find_files '*.pdf'
    again and was handed off. Once that grep ran, the files it matched are named instead."""
    args = grep_call(ev.goal, ev.tool_names)
    if not args:
        return ""
    for c in reversed(ev.calls):  # files_find at 66187ce: that grep had run and found the file; the doubt said run it
        if c.name == "grep" and c.status == "done" and not c.error \
                and str(c.arguments.get("pattern", "")).lower() == args["pattern"]:
            found = list(dict.fromkeys(re.findall(r"^([^\s:<>()][^:\n]*?):\d+:", _FENCE_LINE.sub("", c.result or ""),
                                                  re.MULTILINE)))
            if found:
                return f": grep at step {c.step} found {args['pattern']!r} in {', '.join(found[:3])}"
    return f": {call_to_copy('grep', args)}"


def grep_call(goal: str, tool_names: Iterable[str]) -> dict[str, Any] | None:
    """The arguments of a ``grep`` for the word a which-file goal asks about ("passport"
    in "a text file about my passport renewal appointment"); None without grep among
    ``tool_names``, a which-file goal or such a word."""
    if "grep" not in tool_names or not _WHICH_FILE.search(goal):
        return None
    about, mentioned = _ABOUT.search(goal), MENTIONS.search(goal)
    words = _WORD.findall(about.group("topic")) if about else []
    words += [mentioned.group("word")] if mentioned else []  # "mentions the warranty": not the folder "docs"
    words += [w for w in _WORD.findall(goal) if w.isalpha()]
    word = next((w for w in words if w.lower() not in _NOT_TOPIC and w.lower() not in _COMMON), "")
    return {"pattern": word.lower(), "path": ".", "ignore_case": True} if word else None


def _searched_too_little(ev: Evidence) -> str:
    """The doubt when a which-file task ends saying the file was not found, but its
    searches left files unsearched (a grep of one file or folder, no read of the
    rest) or every search was a phrase of several words matched case by case ("" when
    the whole workspace was searched for a word). files_find at 42e28a8: Qwen 1.5B
    grepped only home/garden.txt for "passport renewal appointment" and answered that
    no file holds it; archive/2024/misc/appt-0412.txt does."""
    import fnmatch

    greps = [c for c in ev.calls if c.name == "grep" and c.status == "done" and not c.error]
    covered = [(norm_path(str(c.arguments.get("path") or ".")), str(c.arguments.get("glob") or "*")) for c in greps]
    covered += [(norm_path(str(c.arguments.get("path", ""))), "*") for c in ev.calls
                if c.status == "done" and not c.error and c.name not in NOT_READING and c.arguments.get("path")
                and c.risk in (None, "", "read")]
    root = Path(ev.workspace)
    files: list[str] = []
    for path in sorted(itertools.islice(root.rglob("*"), 5000)):
        rel = path.relative_to(root).as_posix()
        if path.is_file() and not any(part.startswith(".") for part in rel.split("/")):
            files.append(rel)
    unsearched = [rel for rel in files if not any(
        (top in ("", ".") or rel == top or rel.startswith(f"{top}/")) and fnmatch.fnmatch(rel.rsplit("/", 1)[-1], glob)
        for top, glob in covered)]
    if unsearched:
        where = ", ".join(dict.fromkeys(top or "." for top, _ in covered))
        where = f"only {where}" if where else "no file's text (find_files and list_dir match names only)"
        return (f"the answer says it was not found, but this task searched {where}; {len(unsearched)} file"
                f"{'s were' if len(unsearched) != 1 else ' was'} never searched (e.g. {unsearched[0]}). Search them "
                f"all (grep with path '.') before saying it is not there{_grep_to_copy(ev)}")
    if greps and all(len(str(c.arguments.get("pattern", "")).split()) > 1 and not c.arguments.get("ignore_case")
                     for c in greps):
        return ("the answer says it was not found, but every search was for a whole phrase, matched case by case; "
                "grep for one word of it with ignore_case before saying it is not there")
    return ""


def _text_of(path: Path, limit: int = 4000) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")[:limit].lower() if path.is_file() else ""
    except OSError:
        return ""


def _better_pick(answer: str, ev: Evidence) -> str:
    """The doubt when the goal asks which file holds something and a file that a tool
    result of this task showed matches more of the goal's topic words (in its name or
    text) than every file the answer names ("" otherwise). files_find at dd4189c:
    asked for the file about "my passport renewal appointment", Qwen 1.5B answered
    home/insurance.txt ("Home insurance renewal due in May.") though
    archive/2024/misc/appt-0412.txt ("Passport renewal appointment ...") was in its
    results."""
    if not _WHICH_FILE.search(ev.goal):
        return ""
    topic = sorted({w.lower() for w in _WORD.findall(ev.goal)} - _COMMON - _NOT_TOPIC)
    if len(topic) < 2:
        return ""
    root = Path(ev.workspace)

    found: dict[str, list[str]] = {}

    def matched(rel: str) -> list[str]:  # each file read once
        if rel not in found:
            text = f"{rel.lower()} {_text_of(root / rel)}"
            found[rel] = [w for w in topic if w[:5] in text]
        return found[rel]

    named = _picked_files(answer, root)
    seen: dict[str, int] = {}
    for c in ev.calls:
        if c.status == "done" and not c.error and c.name != "finish":
            for _, rel in _paths(c.result or ""):
                if (root / rel).is_file():
                    seen.setdefault(rel, c.step)
    if not named:
        # files_find at 0cfab8b: find_files showed archive/2024/misc/appt-0412.txt ("Passport renewal appointment
        # ..."), and the answer said "appt-0412.txt" does not mention passport and it is not possible to determine
        shown = max(((len(matched(rel)), rel) for rel in seen), default=(0, ""))
        if shown[0] < 2 or shown[1] in answer:
            return ""
        rel = shown[1]
        return (f"the task asks which file it is, and the answer names no workspace file as it; {rel} (in the result "
                f"at step {seen[rel]}) matches what the task asks ({', '.join(matched(rel))}): answer with its path, "
                "unless its text is about something else")
    best_named = max(len(matched(rel)) for rel in named)
    better = [(len(matched(rel)), rel) for rel in seen if rel not in named and len(matched(rel)) > best_named]
    if not better and best_named == 0:
        # files_find at b5a954c: readme.txt ("Personal archive.") read, then named as the file about the passport
        # renewal appointment, the three folders never opened
        return (f"the answer names {named[0]}, but neither its name nor its text says anything of "
                f"{', '.join(topic[:4])}; look further (grep for one of those words, in every folder) before saying "
                "which file it is, or say plainly that you could not find it")
    if not better:
        return ""
    _, rel = max(better)
    return (f"the answer names {named[0]}, but {rel} (in the result at step {seen[rel]}) matches more of what the task "
            f"asks ({', '.join(matched(rel))}; {named[0]}: {', '.join(matched(named[0])) or 'none'}); "
            # files_find at 80595a7: told to read it, Qwen 1.5B read it and named readme.txt again, out of steps
            + (f"you have read it: answer with {rel}, unless its text is about something else" if _was_read(rel, ev.calls)
               else "read it and answer with the file that is about what the task asks: "
               + call_to_copy("read_file", {"path": rel})))  # files_find at 1c5fa31: told to read it, grep again, out of steps


def _touched(rel: str, touched: set[str]) -> bool:
    """This task wrote ``rel``, or a file ``rel`` ends the path of (note_add at 4826ac4: the note tool wrote
    notes/wifi-password.md, and "Note created: wifi-password.md" was doubted as a claim of a file not written),
    case aside."""
    rel = norm_path(rel).lower()  # "Memo.docx has been created" for memo.docx (multistep_invoices_memo at 32ea11e)
    return any(t.lower() == rel or t.lower().endswith("/" + rel) for t in touched)


def _head(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")[:60].strip()
    except OSError:
        return ""


def _holds_a_report(path: Path, calls: Sequence[CallRecord]) -> str:
    """The name of the change tool whose result message the file at ``path`` holds as
    its whole text, or "" (files_merge_todos at 6b05252: after combine_files wrote
    todo/all.txt, Qwen 1.5B overwrote it with "combined 3 files (...) into todo/all.txt
    (5 lines)." and finished)."""
    try:
        if not path.is_file() or path.stat().st_size > 4096:
            return ""
        text = " ".join(path.read_text(encoding="utf-8", errors="replace").split())
    except OSError:
        return ""
    diff = _DIFF_HEAD.match(text) is not None and path.suffix.lower() not in (".diff", ".patch")
    for c in calls:
        if text and c.status == "done" and not c.error and c.result and c.risk in ("write", "destructive") \
                and (text == " ".join(c.result.split()) or diff and text in " ".join(c.result.split())):
            return c.name  # or the diff an edit showed (a held-out task at 8da7e10: notes.md)
    return ""


_DIFF_HEAD = re.compile(r"--- \S+ \+\+\+ \S+ @@ ")


def _diff_lines(calls: Sequence[CallRecord]) -> dict[str, CallRecord]:
    """Each changed line ("-Call mom", "+[x] Call mom") of the unified diffs this task's
    change results showed -> the call that showed it."""
    out: dict[str, CallRecord] = {}
    for c in calls:
        if c.status != "done" or c.error or not c.result or c.risk not in ("write", "destructive"):
            continue
        hunk = False
        for line in c.result.splitlines():
            if line.startswith("@@"):
                hunk = True
            elif hunk and line[:1] in "-+" and not line.startswith(("---", "+++")) and line[1:].strip():
                out.setdefault(line.rstrip(), c)
    return out


def _holds_diff_lines(rel: str, path: Path, ev: Evidence) -> str:
    """The doubt when the text file ``rel`` this task wrote holds changed lines of a diff
    a change result showed, markers and all ("-Call mom"), which the goal does not
    spell: a diff's "-" and "+" are no part of a file (held-out batch FZ at 7767aeb,
    FZI: "Call mom" marked "[x] Call mom" by edit_file, then todo.txt rewritten with
    the diff's "-Call mom" kept above it, and "done"); "" otherwise. The call to copy
    writes the file without the removed lines and with the added ones unmarked."""
    if path.suffix.lower() in (".diff", ".patch") or not path.is_file():
        return ""
    shown = _diff_lines(ev.calls)
    if not shown:
        return ""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
    lines = text.splitlines()
    copied = [ln for ln in lines if ln.rstrip() in shown and ln.strip() not in ev.goal]
    if not copied:
        return ""
    call = shown[copied[0].rstrip()]
    kept = [ln[1:] if ln.rstrip() in shown and ln.startswith("+") else ln for ln in lines
            if not (ln.rstrip() in shown and ln.startswith("-"))]
    fixed = "\n".join(kept) + ("\n" if text.endswith("\n") or kept else "")
    return (f"{rel} holds {copied[0].strip()!r}, a line of the diff {call.name} showed at step {call.step} (in a diff "
            f"'-' marks a line taken out and '+' a line put in; neither is part of the file); write {rel} without "
            f"them: {call_to_copy('write_file', {'path': rel, 'content': fixed})}")


_LIST_LINE = re.compile(r"^\s*(?:[-*\u2022]|\d{1,2}[.)])\s+(.+?)\s*$", re.MULTILINE)


def _answer_as_content(rel: str, answer: str, tool_names: Sequence[str], sources: Sequence[str] = ()) -> str:
    """'; your answer holds its content: ... call {...}' when ``answer`` is a list of two
    or more points and ``rel`` (missing) is a Word document or a text file: the call
    writing those points into it, to copy; "" otherwise, and for steps telling the
    user how to do it. docx_summarise at 80595a7: Qwen
    1.5B's summary.docx copied the report whole and was refused as too long, twice; its
    answers were the four-point summary the task asked for, and the file was never made."""
    if _HANDS_BACK.search(answer):  # docx_summarise at e1675c8: "follow these steps: 1. Open the report.docx ..."
        return ""  # were offered as the summary's bullets, and written
    items = [re.sub(r"\*\*(.+?)\*\*", r"\1", m.group(1)) for m in _LIST_LINE.finditer(answer)]
    if not items:  # on one line: "The action items are: - Ana sends ... - Ben books ..." (a held-out task at 5a8dc42)
        inline = [line.split(" - ") for line in answer.splitlines() if line.count(" - ") >= 2]
        if len(inline) == 1 and inline[0][0].rstrip().endswith(":"):
            items = [i.strip() for i in inline[0][1:] if i.strip()]
    suffix = rel.lower().rsplit(".", 1)[-1]
    if not items:
        return _prose_as_content(rel, answer, tool_names, sources)
    if len(items) < 2 or sum(map(len, items)) > 1200 or any(number_problems(i, sources) for i in items):
        return ""
    if suffix == "docx" and "docx_create" in tool_names:
        call = {"name": "docx_create", "arguments": {"path": rel, "blocks": [{"type": "bullets", "items": items}]}}
    elif suffix in ("md", "txt") and "write_file" in tool_names:
        call = {"name": "write_file", "arguments": {"path": rel, "content": "".join(f"- {i}\n" for i in items)}}
    else:
        return ""
    return f" (your answer lists its points: to write them into it, call {json.dumps(call, ensure_ascii=False)})"


def _prose_as_content(rel: str, answer: str, tool_names: Sequence[str], sources: Sequence[str] = ()) -> str:
    """'; your answer says what it should say: ... call {...}' when ``rel`` (missing)
    is a Word document or a text file and ``answer`` is prose whose sentences that
    name no file, claim no write and give no number that ``sources`` (the goal and the
    task's results) lack (what it found, not what it did) hold at least
    five words and 600 characters at most; "" otherwise. multistep_invoices_memo at
    db466c8: the total found with table_query, "The total amount of all invoices is
    1635.75 EUR. The invoices are listed in invoices.xlsx." answered with memo.docx
    never written."""
    said = [x.strip() for x in re.split(r"(?<=[.!?])\s+", answer.strip()) if x.strip()]
    said = [x for x in said if not _paths(x) and not _CLAIM.search(x) and not _NOT_DONE.search(x)
            and not number_problems(x, sources)]  # a made-up total is no content to offer (2,355.75 at fa16ec2)
    text = " ".join(said)
    if len(text.split()) < 5 or len(text) > 600:
        return ""
    suffix = rel.lower().rsplit(".", 1)[-1]
    if suffix == "docx" and "docx_create" in tool_names:
        call = call_to_copy("docx_create", {"path": rel, "blocks": [{"type": "paragraph", "text": text}]})
    elif suffix in ("md", "txt") and "write_file" in tool_names:
        call = call_to_copy("write_file", {"path": rel, "content": text + "\n"})
    else:
        return ""
    return f" (your answer says what it should say: to write that into it, {call})"


_LEFT_OUT = re.compile(r"\(output='(?P<output>[^'\n]+)' was left out: the task asks to change (?P<path>[^\s]+) itself")


def _a_store_written(rel: str, calls: Sequence[CallRecord]) -> bool:
    """A change of this task wrote the file ``rel`` outside the workspace: a plugin's
    store, named in its result's data ("file") or its result ("Added: ... to
    assistant.ics"). A held-out task at 39a702f: the meeting added right, then "The
    event is saved in the assistant.ics file." was refused twice as naming a file the
    workspace lacks, and the task was handed off."""
    name = Path(rel).name.lower()
    for c in calls:
        if c.status != "done" or c.error or (c.risk or "read") == "read":
            continue
        stored = str((c.data or {}).get("file") or "")
        if stored and Path(stored).name.lower() == name:
            return True
        if re.search(rf"\bto\s+[`'\"]?{re.escape(name)}(?![\w.-])", (c.result or "").lower()):
            return True
    return False


def left_out_output(rel: str, calls: Sequence[CallRecord], answer: str = "") -> str:
    """'; the change was saved in P itself (...)' when a call of this task had its
    ``output`` ``rel`` left out by the harness (calls._copies_an_input), "" otherwise;
    with ``answer``, the answer to copy follows: its sentences that do not name ``rel``
    when they name P, else the answer with P for ``rel``. ``rel`` may be the output's name
    cut at a space ("Region.xlsx" of "By Region.xlsx": a path in prose is taken from
    its last space). xlsx_summary_sheet at 483c7db: the Summary sheet added to
    budget.xlsx, "saved in budget_summary.xlsx" refused twice as naming no file, and
    handed off; xlsx_group_sums at 0417c73: "... The new file is saved as
    by_region.xlsx." refused, then said again, and the task stalled."""
    for c in calls:
        m = _LEFT_OUT.search(c.result or "") if c.status == "done" and not c.error else None
        output = norm_path(m.group("output")) if m else ""
        if m and (output == norm_path(rel) or output.endswith(" " + norm_path(rel))):
            said = (f"; the change was saved in {m.group('path')} itself (the output {m.group('output')} was left "
                    "out): name that file")
            if not answer.strip():
                return said
            kept = " ".join(x for x in re.split(r"(?<=[.!?])\s+", answer.strip()) if x and rel not in x)
            if Path(m.group("path")).name not in kept:  # the sentences naming rel say where: said with the path
                kept = answer.strip().replace(rel, m.group("path"))
            return said + ", e.g. " + answer_to_copy(kept)
    return ""


def file_problems(answer: str, ev: Evidence) -> list[str]:
    """Doubts about files: outputs the goal asks for that are missing or were
    not written by this task; files the answer names that do not exist (or that
    it says it wrote, but this task did not); inputs the goal names that exist
    but were never read."""
    root = Path(ev.workspace)
    touched = {norm_path(p) for p in ev.touched}
    outputs, inputs = goal_files(ev.goal)
    out = []
    for rel in outputs:
        if not (root / rel).exists():
            out.append(f"the task asks for {rel}, but it does not exist; create it with a tool"
                       + _answer_as_content(rel, answer, ev.tool_names,
                                            [ev.goal, *ev.user_texts, *_results(ev.calls), *ev.extra_texts]))
        elif norm_path(rel) not in touched:
            out.append(f"the task asks for {rel}, but this task did not write it")
    for rel in sorted({norm_path(p) for p in ev.written}):
        kind = _not_its_kind(root / rel)
        if kind:  # csv_to_xlsx at e03cee3: CSV text written under contacts.xlsx, then "done"
            out.append(f"{rel} is not a real {kind} (it holds plain text); write it with the {kind}'s own tool")
        report = _holds_a_report(root / rel, ev.calls)
        if report:
            out.append(f"{rel} holds the result message of {report} ('{_head(root / rel)}'), not the content; "
                       "write the content itself (or undo the overwrite)")
        elif (diffed := _holds_diff_lines(rel, root / rel, ev)):
            out.append(diffed)
    # a unified diff's header lines name the file as a/notes.md and b/notes.md (a held-out task at e5997a8: the
    # right edit shown as its diff, doubted twice as naming two missing files, and handed off)
    named = _paths(re.sub(r"^((?:---|\+\+\+) )([ab]/\S+)", lambda m: m.group(1) + " " * len(m.group(2)), answer,
                          flags=re.MULTILINE))  # blanked, not cut: the positions stay those of the answer
    for i, (pos, rel) in enumerate(named):
        before = _sentence_before(answer, pos)
        after = answer[pos: pos + 80].split("\n")[0]
        # a claim of writing belongs to the nearest file: csv_top_customers at 4826ac4, "the top 3 customers in
        # `orders.csv` and saved them to `top3.csv`" was doubted as saying orders.csv was written
        # (before it, since the last file named; after it, only "<file> was saved")
        prev_end = named[i - 1][0] + len(named[i - 1][1]) if i else -1
        since = before if prev_end < pos - len(before) else answer[prev_end:pos]
        rest = after[after.find(rel) + len(rel):] if rel in after else ""
        claimed = _CLAIM.search(since) or _CLAIM_AFTER.match(rest)
        nxt = named[i + 1] if i + 1 < len(named) else None
        if claimed and re.search(r"\b(of|from)\s*[`'\"]?$", answer[:pos]) and nxt is not None \
                and "\n" not in answer[pos:nxt[0]] and not re.search(r"[.!?]\s", answer[pos:nxt[0]]):
            # pdf_extract_pages at 42e28a8: "I wrote the text of pages 2 and 3 of `handbook.pdf` to a new PDF named
            # `excerpt.pdf`": the file named after "of" is the source; the claim is the next file's
            claimed = None
        if claimed and re.search(r"(\bfrom|\b(described|listed|mentioned|given|found|shown) in|"
                                 r"\baccording to)\s*(the\s+)?[`'\"]?$", answer[:pos], re.IGNORECASE):
            # calendar_from_invite at 8459f99: "I added the meeting described in `invite.txt` to my calendar."
            # csv_to_xlsx at c3438bd: "... the `xlsx_write` function to write the data from `contacts.csv` into a
            # new" (cut there): a file named after "from" is where the data came from, never the file written
            claimed = None
        if claimed and nxt is not None and _touched(nxt[1], touched) and not _touched(rel, touched) \
                and (_INTO_NEXT.fullmatch(answer[pos + len(rel):nxt[0]])
                     or _RESULT_INTO_NEXT.fullmatch(answer[pos + len(rel):nxt[0]])):
            # csv_to_xlsx at 80595a7: "I wrote the contacts.csv file into a new Excel file named contacts.xlsx": the
            # file written into (or converted to, saved as) is the one written; the file before it is the source
            claimed = None
        if _NEGATED.search(before) or _NEGATED.search(after):
            if _says_missing(answer, rel) and (root / rel).is_file():
                # calendar_from_invite: "I could not find the file invite.txt." right after reading it
                seen = " and this task read it" if _was_read(rel, ev.calls) else ""
                out.append(f"the answer says {rel} could not be found, but it is in the workspace{seen}; "
                           "use what it says")
            continue  # "I could not find data.csv" is an honest answer when it is not there
        if rel in outputs or _a_store_written(rel, ev.calls):
            continue
        if not exists_somewhere(root, rel) and not _touched(rel, touched):  # a file this task deleted or moved away
            # ("Deleted empty1.txt and empty2.md." for drafts/empty1.txt: a held-out task at 2e1bee7)
            out.append(f"the answer names {rel}, which does not exist in the workspace"
                       + left_out_output(rel, ev.calls, answer))
        elif claimed and not _touched(rel, touched):
            out.append(f"the answer says {rel} was written, but this task did not write it")
    out += _folders_said_missing(answer, root)
    out += _unlooked_pick(answer, ev)
    missed = _found_after_all(answer, ev)
    if missed:
        out.append(missed)
    undone = _change_not_in_file(ev) or _change_told_backwards(answer, ev.goal) or _item_left_open(ev) \
        or _item_not_added(ev) or _line_not_inserted(ev) or _lines_not_removed(ev) or _lines_not_rewritten(ev) \
        or _markdown_table_not_written(ev) or _derived_not_written(ev) or _combined_lines_missing(ev) \
        or _kept_lines_wrong(ev) or _column_not_edited(ev) or _claims_file_holds(answer, ev) \
        or _open_items_missed(answer, ev)
    if undone:
        out.append(undone)
    pick = _better_pick(answer, ev) if not out else ""
    if pick:
        out.append(pick)
    off = _off_topic(answer, ev) if not out else ""
    if off:  # looked inside, and it is about something else
        out.append(off)
    made = {norm_path(p) for p in ev.made}
    for rel in inputs:
        if (root / rel).is_file() and norm_path(rel) not in made and not _was_read(rel, ev.calls):
            out.append(f"the task names {rel}, but it was never read; read it before answering")
    out += _unread_folders(ev)
    return list(dict.fromkeys(out))  # a file named twice in the answer is one doubt


#: a folder the goal names: "the contracts folder", "folder contracts", "in the reports/2026 directory"
_GOAL_FOLDER = re.compile(r"(?<![\w./-])[`'\"]?(?P<a>[\w.-]+(?:/[\w.-]+)*)/?[`'\"]?\s+(?:sub)?(?:folder|directory)\b|"
                          r"\b(?:sub)?(?:folder|directory)\s+[`'\"]?(?P<b>[\w.-]+(?:/[\w.-]+)*)", re.IGNORECASE)
#: a question about the files as files (their names, number, sizes), which a listing answers
_ABOUT_THE_FILES = re.compile(r"\bhow many\s+(?:\w+\s+)?(files?|pdfs?|documents?|folders?)\b|\blist\b|"
                              r"\b(what|which)\s+(?:\w+\s+)?(files?|pdfs?|documents?|folders?)\s+(are|is)\s+"
                              r"(there|in)\b|"
                              r"\b(names?|largest|biggest|smallest|newest|oldest|sizes?|empty|modified|extensions?)\b",
                              re.IGNORECASE)


def goal_folders(goal: str, root: str | Path) -> list[str]:
    """The workspace folders ``goal`` names ("the contracts folder", "folder reports",
    "the reports/2026 directory") that exist under ``root``, workspace-relative."""
    out: list[str] = []
    named = [m.group("a") or m.group("b") for m in _GOAL_FOLDER.finditer(goal)]
    # "Which file in docs mentions ...": a folder of the workspace named bare after "in" (a held-out task at
    # fb3135d grepped the whole workspace for "docs")
    named += [m.group(1) for m in re.finditer(r"\b(?:in|inside|under|within)\s+(?:the\s+|my\s+)?([\w-]+(?:/[\w-]+)*)"
                                              r"(?=[\s?.!,]|$)", goal, re.IGNORECASE)]
    for name in named:
        rel = norm_path(name)
        if rel in ("", ".") or rel.lower() in ("this", "that", "the", "my", "a", "your", "our") or rel in out:
            continue
        if (Path(root) / rel).is_dir():
            out.append(rel)
    return out


def _unread_folders(ev: Evidence) -> list[str]:
    """Doubts for a question about the contents of a folder the goal names, when no
    file in it was read (a listing is no read), with the read of its first file to
    copy. A held-out task at 0526b92: "Which contract in the contracts folder ends
    first, and on what date?" listed the folder, answered "No contract in the
    contracts folder ends first." (its three PDFs each give an end date), and the
    task finished."""
    if not asks_only_a_question(ev.goal) or _ABOUT_THE_FILES.search(ev.goal):
        return []
    from tools.files._common import reader_for

    root, out = Path(ev.workspace), []
    for rel in goal_folders(ev.goal, root):
        folder = root / rel
        # at most 200 entries looked at: a folder of thousands is no question of "each file"
        inside = sorted(p.relative_to(root).as_posix() for p in itertools.islice(folder.rglob("*"), 200)
                        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(root).parts))[:50]
        searched = any(c.status == "done" and not c.error and c.name not in NOT_READING
                       and norm_path(str(c.arguments.get("path", ""))) == rel for c in ev.calls)
        unread = [f for f in inside if not _was_read(f, ev.calls)]
        if not inside or searched or not unread:
            continue
        first = call_to_copy(reader_for(unread[0]), {"path": unread[0]})
        if len(unread) == len(inside):
            out.append(f"the task asks about what is in the {rel} folder, and no file in it was read (a listing "
                       f"shows only their names); read them, e.g. {first}")
        elif (_COMPARES.search(ev.goal) or MENTIONS.search(ev.goal)) and len(inside) <= 12:
            # a held-out task at 9d3b0f8: "Which contract in the contracts folder ends first, and on what date?"
            # read two of the three PDFs and named the later of their dates; internet.pdf, never read, ends first
            names, one = ", ".join(Path(f).name for f in unread[:5]), len(unread) == 1
            said = MENTIONS.search(ev.goal)
            if said:  # a held-out task at a864c41: one letter of the two that mention a refund read
                grep = {"pattern": said.group("word").lower(), "path": rel, "ignore_case": True}
                out.append(f"the task asks about all the files of the {rel} folder, and {names} in it "
                           f"{'was' if one else 'were'} never read; search them all: {call_to_copy('grep', grep)}")
                continue
            out.append(f"the task asks about all the files of the {rel} folder, and {names} in it "
                       f"{'was' if one else 'were'} never read; read {'it' if one else 'them'} before answering: "
                       f"{first}")
    return out


#: a question which files mention a word: "Which of the letters mention a refund?", "contain the word 'voucher'"
MENTIONS = re.compile(r"\b(?:mentions?|contains?|says?|refers? to|talks? about)\s+(?:the\s+word\s+)?"
                      r"(?:(?:a|an|the|any)\s+)?['\"\u2018\u201c]?(?P<word>[A-Za-z][\w-]{2,})", re.IGNORECASE)
#: a question that compares the files' contents, or asks about them all ("the deadline in the PDFs"): every file
#: must be read to answer it
_COMPARES = re.compile(r"\b(first|last|earliest|latest|soonest|next|oldest|newest|most|least|highest|lowest|biggest|"
                       r"largest|smallest|cheapest|dearest|longest|shortest|all|every|each|total|both|pdfs|files|"
                       r"documents|spreadsheets|workbooks|these|those)\b", re.IGNORECASE)


# what lies between a source file and the file it was written into: " file into a new Excel file named "
# (docx_summarise at 21c8a9e: "The summary of the report `report.docx` has been created in `summary.docx`.")
_INTO_NEXT = re.compile(r"(?![^\n]*\b(?:and|then|also)\b)[^\n.!?;]{0,60}?\b(?:into|to|as|(?:created|made|saved|"
                        r"written|stored|placed|put)\s+in)\b[^\n.!?;]{0,40}", re.IGNORECASE)


#: "... every price in prices.csv and saved the result as prices_vat.csv": the result saved in the next file (a
#: held-out task at 01fd56e, the goal's own words said back, was doubted as saying prices.csv was written, twice)
_RESULT_INTO_NEXT = re.compile(r"[`'\"]?\s*,?\s+and\s+(?:then\s+)?(?:saved|wrote|written|stored|put|exported)\s+(?:the\s+|"
                               r"this\s+|that\s+|all\s+)?(?:results?|output|new\s+\w+)\s+(?:as|to|in|into)\s+"
                               r"(?:(?:a|the)\s+(?:new\s+)?(?:\w+\s+)?file\s+(?:called\s+|named\s+)?)?[`'\"]?", re.IGNORECASE)


# "change the notice period in clause 2 from 30 days to 60 days": the old and the new text
_FROM_TO = re.compile(r"\b(?:chang|replac|updat|correct|fix|edit|amend)\w*\b.{0,80}?\bfrom\s+[\"'\u201c]?(?P<old>[^\"'"
                      r"\u201d\n]{1,40}?)[\"'\u201d]?\s+to\s+[\"'\u201c]?(?P<new>[^\"'\u201d\n]{1,40}?)[\"'\u201d]?"
                      r"(?=\s*(?:[.;!?]|,\s|$)|\s+(?:in|and|but|throughout)\b)", re.IGNORECASE)
#: "replace ACME Ltd with Acme Group everywhere", 'replace the word "colour" with "color"'
_REPLACE_WITH = re.compile(r"\breplac\w*\s+(?:(?:all|every)\s+(?:of\s+)?)?(?:the\s+)?(?:(?:word|text|name|phrase|"
                           r"string)s?\s+)?[\"'\u201c]?(?P<old>[^\"'\u201d\n]{1,40}?)[\"'\u201d]?\s+(?:with|by)\s+"
                           r"[\"'\u201c]?(?P<new>[^\"'\u201d\n]{1,40}?)[\"'\u201d]?"
                           r"(?=\s*(?:[.;!?]|,\s|$)|\s+(?:in|and|but|throughout|everywhere)\b)", re.IGNORECASE)
_TEXT_DOCUMENTS = (".docx", ".txt", ".md")


_COUNT_ASKED = re.compile(r"\bhow many (?P<unit>words|lines|characters|letters|paragraphs|sentences)\b"
                          r"|\bhow (?:many times|often) (?:does|do|is|are)\s+(?:the\s+)?(?:word|name|text|phrase)?\s*"
                          r"[\"'\u201c]?(?P<word>[\w'-]+(?:\s[\w'-]+)?)[\"'\u201d]?\s+(?:appear|occur|come up|used|"
                          r"mentioned|show up)", re.IGNORECASE)


class Tally(NamedTuple):
    """A count the harness made of a file: ``count`` of ``unit`` ("words", or "times"
    for a word's occurrences) in ``path``; ``asked`` and ``said`` put it in words."""

    count: int
    unit: str
    path: str
    asked: str
    said: str


def text_count(goal: str, workspace: str | Path) -> Tally | None:
    """The count when ``goal`` asks how many words, lines (not blank), characters (line
    breaks aside), paragraphs (blocks between blank lines) or sentences a text file or
    Word document it names holds, or how many times a word appears in it (as a whole
    word, case aside), counted by the harness; None otherwise. A held-out task at
    2e1bee7: "How many words are in essay.txt?" (17) was answered "7"; "How many times
    does the word data appear in report.txt?" read, grepped and wandered. A small model
    does not count."""
    m = _COUNT_ASKED.search(goal)
    files = [f for f in goal_files(goal)[1] if f.lower().endswith((".txt", ".md", ".docx"))]
    if m is None or len(files) != 1:
        return None
    path = Path(workspace) / files[0]
    try:
        if path.stat().st_size > 5_000_000:
            return None
        if path.suffix.lower() == ".docx":
            from tools.office.docx_read import docx_paragraphs

            text = "\n\n".join(t for _, t in docx_paragraphs(path.read_bytes(), path.name))  # a paragraph each
        else:
            text = path.read_text(encoding="utf-8", errors="replace")
    except Exception:  # noqa: BLE001 - a missing or unreadable file is another check's business
        return None
    if m.group("word"):
        word = m.group("word")
        n = len(re.findall(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text, re.IGNORECASE))
        return Tally(n, "times", files[0], f"how many times {word!r} appears in {files[0]}",
                     f"{word!r} appears {n} times in {files[0]} (as a word, case aside)")
    unit = m.group("unit").lower().replace("letters", "characters")
    lines = [ln for ln in text.splitlines() if ln.strip()]
    count = {"words": len(text.split()), "lines": len(lines), "characters": sum(len(ln) for ln in text.splitlines()),
             "paragraphs": len([b for b in re.split(r"\n\s*\n", text) if b.strip()]),
             "sentences": len(re.findall(r"[^.!?\s][^.!?]*[.!?]+", text))}[unit]
    return Tally(count, unit, files[0], f"how many {unit} {files[0]} has", f"{files[0]} has {count} {unit}")


def _document_text(path: Path, *, lower: bool = True) -> str | None:
    """The text of a Word document or a plain-text file, lower-cased (unless ``lower``
    is False) with runs of white space as one space; None when it cannot be read
    (another check's business)."""
    try:
        if path.stat().st_size > 5_000_000:
            return None
        if path.suffix.lower() == ".docx":
            from tools.office.docx_read import docx_paragraphs

            text = "\n".join(t for _, t in docx_paragraphs(path.read_bytes(), path.name))
        else:
            text = path.read_text(encoding="utf-8", errors="replace")
    except Exception:  # noqa: BLE001 - a missing or broken file is reported by the checks that look for it
        return None
    text = " ".join(text.split())
    return text.lower() if lower else text


def text_change(goal: str) -> tuple[str, str] | None:
    """``(old, new)`` when ``goal`` asks to change text "from old to new" ("change the
    notice period from 30 days to 60 days" -> ("30 days", "60 days")); None otherwise,
    and when the new text is a file name ("from data.csv to out.xlsx")."""
    m = _FROM_TO.search(goal) or _REPLACE_WITH.search(goal)
    if not m or _PATH.fullmatch(m.group("new").strip()) or _PATH.fullmatch(m.group("old").strip()):
        return None
    return m.group("old").strip(), m.group("new").strip()


def pointed_paragraph(paragraphs: Sequence[tuple[int, str]], goal: str, old: str, new: str) -> int | None:
    """The number of the paragraph, of ``paragraphs`` (``(n, text)``, each holding
    ``old``), that ``goal`` points at: the only one; else the one numbered as the
    goal's "clause/section/paragraph N" ("2. Notice. ..."); else the one sharing most
    of the goal's words (4+ letters, those of ``old`` and ``new`` left out). None
    when no paragraph holds it or two are equally likely."""
    if len(paragraphs) <= 1:
        return paragraphs[0][0] if paragraphs else None
    m = re.search(r"\b(?:clause|section|paragraph|item|point|article)\s+(\d+(?:\.\d+)*)\b", goal, re.IGNORECASE)
    if m:
        numbered = [n for n, text in paragraphs if re.match(rf"\W*(?:clause|section|article)?\s*{re.escape(m.group(1))}"
                                                            rf"[.):]?\s", text, re.IGNORECASE)]
        if len(numbered) == 1:
            return numbered[0]
    skip = {w.lower() for w in re.findall(r"[A-Za-z]{4,}", f"{old} {new}")}
    words = {w.lower() for w in re.findall(r"[A-Za-z]{4,}", goal)} - skip - {"change", "from", "only", "else",
                                                                            "anything", "nothing", "that", "this"}
    scores = sorted(((sum(w in text.lower() for w in words), n) for n, text in paragraphs), reverse=True)
    return scores[0][1] if scores[0][0] > scores[1][0] else None


#: a goal that points its change at one place: "only", "anything else", "the first", "in clause 2", "the heading"
_ONE_PLACE = re.compile(r"\b(only|just|anything else|nothing else|first|second|third|last|once|clause|section|"
                        r"paragraph|item|point|article|heading|title|line|row|cell)\b", re.IGNORECASE)


def change_places(path: Path, old: str, new: str) -> list[tuple[int, str]]:
    """``(n, text)`` of each paragraph of a Word document (each line of a text file)
    that holds ``old`` or ``new``; [] when it cannot be read."""
    try:
        if path.suffix.lower() == ".docx":
            from tools.office.docx_read import docx_paragraphs

            parts = docx_paragraphs(path.read_bytes(), path.name)
        else:
            parts = list(enumerate(path.read_text(encoding="utf-8").splitlines(), 1))
    except Exception:  # noqa: BLE001 - a file that cannot be read is another check's business
        return []
    return [(n, t) for n, t in parts if old in t or new in t]


_PLAIN_TEXT = (".txt", ".md", ".csv", ".tsv", ".json", ".yaml", ".yml", ".ics", ".html", ".py")


def replace_every(text: str, path: str, old: str, new: str) -> list[dict[str, Any]]:
    """The ``edit_file`` arguments (``replace_all``) that change each form of ``old``
    that ``text`` holds (as written, Capitalised, UPPER) to the same form of ``new``:
    "Replace every colour with color" -> colour -> color, Colour -> Color; [] when
    ``text`` holds none."""
    def cap(t: str) -> str:
        return t[:1].upper() + t[1:]

    edits, seen = [], set()
    for form, to in ((old, new), (cap(old), cap(new)), (old.upper(), new.upper())):
        if form in seen or form not in text:
            continue
        seen.add(form)
        edits.append({"path": path, "old_text": form, "new_text": to, "replace_all": True})
    return edits


def change_everywhere(goal: str, places: Sequence[tuple[int, str]], old: str, new: str) -> bool:
    """Whether the goal's change "from ``old`` to ``new``" is meant wherever ``old``
    stands: the goal says so ("everywhere", "all"), or ``places`` (the paragraphs that
    hold either, :func:`change_places`) are several and the goal points at none of them
    (:func:`pointed_paragraph`; no "only", "clause 2", ...). A held-out task at 1de0702:
    "Change the date in letter.docx from 1 December 2026 to 8 December 2026." changed
    the date line, and the visit "on 1 December 2026" stayed."""
    if _EVERYWHERE.search(goal):
        return True
    return len(places) > 1 and not _ONE_PLACE.search(goal) and pointed_paragraph(places, goal, old, new) is None


def _change_not_in_file(ev: Evidence) -> str:
    """A doubt when the goal asks to change text "from X to Y" in a document it names,
    this task changed that document, and the document does not hold Y now ("" otherwise).
    docx_edit_clause at 42e28a8: Qwen 1.5B changed "30 days" to "60 days", then changed
    it back, and answered that the notice period "has been changed"."""
    change = text_change(ev.goal)
    if change is None:
        return ""
    old, new = change
    touched = {norm_path(p) for p in ev.touched}
    for rel in [*goal_files(ev.goal)[0], *goal_files(ev.goal)[1]]:
        if not rel.lower().endswith(_TEXT_DOCUMENTS) or norm_path(rel) not in touched:
            continue
        text = _document_text(Path(ev.workspace) / rel, lower=False)
        before = original_text(rel, ev.calls)
        if before is not None and " ".join(old.split()).lower() not in " ".join(before.split()).lower():
            # a form, not a text: batch Z at 6696c34 (ZH), "Change every name in names.txt from 'Last, First' to
            # 'First Last'", was told names.txt must hold 'First Last', and wrote those words over a name
            continue
        if text is not None and " ".join(new.split()).lower() not in text.lower():
            return (f"the task asks to change {old!r} to {new!r} in {rel}, but {rel} does not hold {new!r} now; "
                    "read it and make the change")
        edits = replace_every(text, rel, old, new) if text is not None and _EVERYWHERE.search(ev.goal) \
            and old.lower() not in new.lower() else []
        if edits:
            # a held-out task at 2e1bee7: "replace ACME Ltd with Acme Group everywhere" left all three; a held-out
            # task (ND) at a367559 changed the first of three "colour"s ("Colour" one of them) and was handed off
            how = "" if not rel.lower().endswith(_PLAIN_TEXT) else ": " + " then ".join(
                call_to_copy("edit_file", e) for e in edits)
            return (f"the task asks to change {old!r} to {new!r} everywhere in {rel}, but {rel} still holds "
                    f"{edits[0]['old_text']!r}; change every one{how}")
        places = change_places(Path(ev.workspace) / rel, old, new) if text is not None \
            and old.lower() not in new.lower() else []
        left = [n for n, t in places if old in t]
        if left and change_everywhere(ev.goal, places, old, new):  # the held-out letter at 1de0702
            where = "paragraph" if rel.lower().endswith(".docx") else "line"
            return (f"the task asks to change {old!r} to {new!r} in {rel} and points at no one place, but {where} "
                    f"{left[0]} still holds {old!r}; change every one, or say plainly why it stays")
    return ""


#: a goal that ticks a to-do item: "Mark call the bank as done in todo.md", "tick off 'buy stamps' in list.md"
_TICK = re.compile(r"\b(?:mark|tick(?: off)?|check off|cross off)\s+(?:the\s+)?(?:(?:item|task|entry)\s+)?"
                   r"['\"\u201c]?(?P<item>[^'\"\u201d\n]{2,80}?)['\"\u201d]?(?:\s+(?:item|task|entry))?\s+(?:as\s+)?"
                   r"(?:done|completed?|finished)\b"
                   r"|\b(?:tick|check|cross) off\s+(?:the\s+)?['\"\u201c]?(?P<off>[^'\"\u201d\n]{2,80}?)['\"\u201d]?"
                   r"\s+(?:in|on|from)\b", re.IGNORECASE)
#: a Markdown to-do line not yet done: "- [ ] call the bank"
_OPEN_BOX = re.compile(r"^(?P<lead>\s*(?:[-*+]|\d{1,3}[.)])\s*)\[ \](?P<rest>.*)$")


def checkbox_to_tick(goal: str, text: str) -> tuple[str, str, str] | None:
    """``(item, line, ticked)`` when ``goal`` asks to mark an item done and exactly one
    open to-do line of ``text`` ("- [ ] call the bank") holds the item's words, with
    that line ticked ("- [x] call the bank"); None otherwise (no such goal, no such
    line, or the item already done). A held-out task at 1de0702: "Mark call the bank as
    done in todo.md." ticked "buy stamps"."""
    m = _TICK.search(goal)
    if m is None:
        return None
    item = " ".join((m.group("item") or m.group("off")).split())
    lines = [(ln, b) for ln in text.splitlines() if (b := _OPEN_BOX.match(ln))
             and item.lower() in " ".join(b.group("rest").split()).lower()]
    if len(lines) != 1:
        return None
    line, box = lines[0]
    return item, line, f"{box.group('lead')}[x]{box.group('rest')}"


#: "Add Call mom to my todo list in todo.md", "add 'milk' to shopping.md", "put eggs on the list in list.txt"
_ITEM_TO_ADD = re.compile(r"\b(?:add|put|append)\s+(?:(?:a|the|one)\s+(?:new\s+)?(?:line|item|entry|reminder|task)\s+"
                          r"(?:saying\s+|reading\s+)?(?=['\"\u201c]))?"  # "Add a line 'Dentist on Friday' to ..."
                          r"['\"\u201c]?(?P<item>[^'\"\u201d\n]{2,80}?)['\"\u201d]?\s+"
                          r"(?:to|on|onto|at)\s+(?:the\s+(?:end|bottom)\s+of\s+)?(?:my\s+|the\s+)?(?:[\w-]+\s+)?"
                          r"(?:list\s+)?(?:in\s+)?(?P<file>[\w./-]+\.(?:md|txt))\b", re.IGNORECASE)
_ITEM_LINE = re.compile(r"^(?P<lead>\s*(?:[-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?)(?P<text>.*)$")


def item_to_add(goal: str, workspace: str | Path) -> tuple[str, str, str, str] | None:
    """``(file, item, last list line, the new line)`` when ``goal`` adds an item to a
    Markdown or text file whose lines make a list ("- buy stamps"): the new line takes
    the last item's marker ("- [ ] " stays open); in a file of plain lines (no heading)
    it is the item alone, under the last line. None otherwise, and when the file
    holds the item already. A held-out task at 38a0f03: "Add Call mom to my todo list
    in todo.md." added "buy coffee"."""
    m = _ITEM_TO_ADD.search(goal)
    if m is None:
        return None
    rel, item = m.group("file"), " ".join(m.group("item").split())
    if re.match(r"(?:it|them|this|that|these|those|the|a|an|my|your|our|their|its|his|her|each|every|all)\b", item,
                re.IGNORECASE):  # "add it to notes.md", "add the plumber's number to ...": found, not the words
        return None
    try:
        text = (Path(workspace) / rel).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    items = [(ln, b) for ln in text.splitlines() if (b := _ITEM_LINE.match(ln))]
    if item.lower() in text.lower():
        return None
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not items and lines and not any(ln.lstrip().startswith("#") for ln in lines):
        # a file of plain lines ("Call the bank", "Buy stamps"): the new line under the last (held-out OB at
        # 0959310 wrote the file again as "1.Call the bank", "2.Buy stamps", "Dentist on Friday")
        return rel, item, lines[-1], item
    if not items:
        return None
    last, box = items[-1]
    lead = box.group("lead").replace("[x]", "[ ]").replace("[X]", "[ ]")
    if re.match(r"\s*\d", lead):
        n = int(re.match(r"\s*(\d+)", lead).group(1)) + 1
        lead = re.sub(r"\d+", str(n), lead, count=1)
    return rel, item, last, f"{lead}{item}"


#: a line added at a place the goal gives: "Add Call the bank as the second line of todo.txt", "Put 'Agenda' at the
#: top of notes.md", "Insert Buy stamps as line 3 in todo.txt"
_LINE_AT = re.compile(r"\b(?:add|put|insert|write)\s+(?:(?:a|the|one)\s+(?:new\s+)?(?:header\s+)?(?:row|line)\s+"
                      r"(?:saying\s+|reading\s+)?|(?P<head>(?:a|the)\s+(?:heading|title)\s+))?"
                      r"['\"\u201c]?(?P<item>[^'\"\u201d\n]{2,80}?)['\"\u201d]?\s+"
                      r"(?:as\s+(?:the\s+)?(?P<ord>first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|"
                      r"last|top|new\s+first|\d{1,3}(?:st|nd|rd|th))\s+line|as\s+line\s+(?P<num>\d{1,3})|"
                      r"(?:at|to)\s+the\s+(?P<top>top|start|beginning|very\s+top))\s+(?:of|in)\s+(?:my\s+|the\s+)?"
                      r"(?P<file>[\w./-]+\.(?:md|txt|csv))\b", re.IGNORECASE)
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


#: a line added next to a line the goal names: "Add Milk to shopping.txt right after the line Bread", "Insert
#: 'Call Bo' before Pay rent in todo.txt"
_LINE_NEAR = re.compile(r"\b(?:add|put|insert|write)\s+['\"\u201c]?(?P<item>[^'\"\u201d\n]{2,80}?)['\"\u201d]?\s+"
                        r"(?:(?:to|in|into)\s+(?:my\s+|the\s+)?(?P<file>[\w./-]+\.(?:md|txt|csv))\s+)?"
                        r"(?:right\s+|just\s+|directly\s+|immediately\s+)?(?P<where>after|below|under|before|above)\s+"
                        r"(?:the\s+line\s+)?['\"\u201c]?(?P<anchor>[^'\"\u201d\n]{2,60}?)['\"\u201d]?"
                        r"(?:\s+(?:in|of)\s+(?:my\s+|the\s+)?(?P<file2>[\w./-]+\.(?:md|txt|csv)))?\s*(?:[.!]|$)",
                        re.IGNORECASE)


def _near_line(goal: str, text: str) -> tuple[str, str, int, str] | None:
    """:func:`line_to_insert` for a line added next to the one line of ``text`` the goal
    names (:data:`_LINE_NEAR`; list marks and case aside). Batch Z at 6696c34 (ZC): "Add
    Milk to shopping.txt right after the line Bread." appended Milk after Apples."""
    m = _LINE_NEAR.search(goal)
    rel = (m.group("file") or m.group("file2")) if m else None
    if m is None or rel is None:
        return None
    item, anchor = " ".join(m.group("item").split()), m.group("anchor").strip().lower()
    lines = text.splitlines()
    bare = [re.sub(r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?", "", ln).strip().lower() for ln in lines]  # list marks aside
    hits = [i for i, ln in enumerate(bare) if ln == anchor]
    if len(hits) != 1:
        return None
    at = hits[0] + (1 if m.group("where").lower() in ("after", "below", "under") else 0)
    if at < len(lines) and lines[at].strip() == item:
        return None
    return rel, item, at + 1, "\n".join([*lines[:at], item, *lines[at:]]) + "\n"


def line_to_insert(goal: str, text: str) -> tuple[str, str, int, str] | None:
    """``(file, item, line number from 1, the text with the item there)`` when ``goal``
    adds a line at a place it gives in a text file ("as the second line of todo.txt",
    "at the top of notes.md", "as line 3 in") and ``text`` is that file's; None
    otherwise, when the place is past the end, and when the line is there already. XC
    at 0958b96: "Add Call the bank as the second line of todo.txt." appended "Call the
    bank as the second line of todo.txt", then changed line 2 to "Water the plants and
    call the bank", and finished."""
    m = _LINE_AT.search(goal)
    if m is None:
        return _near_line(goal, text)
    item = " ".join(m.group("item").split())
    if re.match(r"(?:it|them|this|that|these|those|the|a|an|my|your|our|their|its|his|her)\b", item, re.IGNORECASE):
        return None  # "put it at the top of ...": found, not the words
    if m.group("head") and m.group("file").lower().endswith(".md") and not item.startswith("#"):
        item = f"# {item}"  # a Markdown heading (a development batch at b6900b3, ZZE: "Add the heading Shopping list
        # as the first line of shopping.md" wrote it as a plain line)
    lines = text.splitlines()
    word = (m.group("ord") or "").lower().split()[-1] if m.group("ord") else ""
    if m.group("top") or word in ("top", "first"):
        at = 0
    elif word == "last":
        at = len(lines)
    elif word in _ORDINALS:
        at = _ORDINALS.index(word)
    else:
        at = int(re.match(r"\d+", word or m.group("num")).group(0)) - 1
    if at < 0 or at > len(lines) or (at < len(lines) and lines[at].strip() == item):
        return None
    return m.group("file"), item, at + 1, "\n".join([*lines[:at], item, *lines[at:]]) + "\n"


def _changed_text(ev: Evidence, rel: str | None) -> tuple[str, str, str] | None:
    """``(file, its text as this task first read it, its text now)`` for the file
    ``rel`` the goal names, when this task changed that file and read it whole before;
    None otherwise."""
    if not rel or norm_path(rel) not in {norm_path(p) for p in ev.touched}:
        return None
    before = original_text(rel, ev.calls)
    now = _text_now(ev, rel) if before is not None else None
    return None if before is None or now is None else (rel, before, now)


def _line_not_inserted(ev: Evidence) -> str:
    """A doubt when the goal adds a line at a place in a text file this task changed
    (:func:`line_to_insert`, on the text the task first read) and the file is not that
    text with the line there ("" otherwise), with the write that makes it so."""
    at, near = _LINE_AT.search(ev.goal), _LINE_NEAR.search(ev.goal)
    texts = _changed_text(ev, at.group("file") if at else (near.group("file") or near.group("file2")) if near else "")
    if texts is None:
        return ""
    rel, before, now = texts
    asked = line_to_insert(ev.goal, before)
    if asked is None or now.rstrip("\n") == asked[3].rstrip("\n"):
        return ""
    _, item, at, want = asked
    return (f"the task adds {item!r} as line {at} of {rel} and keeps the other lines as they were, and {rel} does not "
            f"hold that now; {call_to_copy('write_file', {'path': rel, 'content': want})}")


#: lines of a file picked by a word they hold: "the lines in app.log that mention timeout", "every line containing
#: ERROR", "the lines with the word urgent"
_LINES_HOLDING = re.compile(r"\blines?\b(?:[^.;?!]|\.(?=\w)){0,40}?\b(?:that|which)?\s*"
                            r"(?:mention(?:s|ing)?|contain(?:s|ing)?|hold(?:s|ing)?|includ(?:e|es|ing)|"
                            r"with(?:\s+the\s+word)?|hav(?:e|ing)\s+the\s+word)\s+"
                            r"(?:the\s+word\s+)?(?:['\"\u201c](?P<quoted>[^'\"\u201d\n]{1,40})['\"\u201d]|"
                            r"(?P<word>[\w@#-]+))", re.IGNORECASE)


def lines_to_keep(goal: str, workspace: str | Path) -> tuple[str, str, str, list[str]] | None:
    """``(file, word, output, the file's lines holding the word)`` when ``goal`` asks
    for the lines of the one text file it names that hold a word, written into one
    text file it asks for ("Find the lines in app.log that mention timeout and save
    them to timeouts.txt"); None otherwise, and when no line or every line holds it.
    WM at bad9c2a wrote grep's "app.log:3: ..." lines and was handed off."""
    m = _LINES_HOLDING.search(goal)
    outputs, inputs = goal_files(goal)
    texts = [o for o in outputs if o.lower().endswith((".txt", ".md"))]
    if m is None or len(inputs) != 1 or len(texts) != 1 or inputs[0].lower().endswith(_NOT_LINES):
        return None
    what = m.group("quoted") or m.group("word")
    if what.lower() in ("the", "a", "an", "it", "them", "this", "that"):
        return None
    try:
        text = (Path(workspace) / inputs[0]).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    pattern = re.compile(rf"(?<!\w){re.escape(what)}(?!\w)", re.IGNORECASE)
    lines = [ln for ln in text.splitlines() if ln.strip()]
    held = [ln for ln in lines if pattern.search(ln)]
    if not held or len(held) == len(lines):
        return None
    return inputs[0], what, texts[0], held


_NOT_LINES = (".docx", ".xlsx", ".pdf", ".csv", ".tsv")


def _kept_lines_wrong(ev: Evidence) -> str:
    """A doubt when the goal asks for the lines of a file that hold a word written into
    a text file (:func:`lines_to_keep`), this task wrote it, and it is not those lines
    ("" otherwise), with the write that makes it so."""
    asked = lines_to_keep(ev.goal, ev.workspace)
    if asked is None or norm_path(asked[2]) not in {norm_path(p) for p in ev.written}:
        return ""
    source, what, out, held = asked
    now = _text_now(ev, out)
    if now is None or [ln.strip() for ln in now.splitlines() if ln.strip()] == [ln.strip() for ln in held]:
        return ""
    args = {"path": out, "content": "\n".join(held) + "\n"}
    return (f"the task asks for the {len(held)} line{'s' if len(held) > 1 else ''} of {source} that hold {what!r}, "
            f"as {source} has them, and {out} does not hold that; {call_to_copy('write_file', args)}")


#: a column of a CSV file taken out or renamed: "Remove the phone column from contacts.csv", "Delete the column
#: phone in contacts.csv", "Rename the column Cost to Price in items.csv"
_COLUMN_DROP = re.compile(r"\b(?:remove|delete|drop|take\s+out)\s+(?:the\s+)?"
                          r"(?:(?:['\"\u201c](?P<q1>[^'\"\u201d\n]{1,40})['\"\u201d]|(?P<w1>[\w-]+))\s+column|"
                          r"column\s+(?:['\"\u201c](?P<q2>[^'\"\u201d\n]{1,40})"
                          r"['\"\u201d]|(?P<w2>[\w-]+)))\s+(?:from|in|of)\s+(?:the\s+)?(?:file\s+)?"
                          r"(?P<file>[\w./-]+\.(?:csv|tsv))\b", re.IGNORECASE)
_COLUMN_RENAME = re.compile(r"\brename\s+(?:the\s+)?(?:column\s+(?:header\s+)?)?['\"\u201c]?(?P<old>[\w -]{1,40}?)"
                            r"['\"\u201d]?(?:\s+column)?\s+to\s+['\"\u201c]?(?P<new>[\w -]{1,40}?)['\"\u201d]?"
                            r"\s+(?:in|of)\s+(?:the\s+)?(?P<file>[\w./-]+\.(?:csv|tsv))\b", re.IGNORECASE)


def column_edit(goal: str, text: str) -> tuple[str, str, str] | None:
    """``(file, what is done, the new text)`` when ``goal`` takes a column out of a CSV
    file ("Remove the phone column from contacts.csv": every row without that cell) or
    renames one ("Rename the column Cost to Price in items.csv": the header cell) and
    ``text`` is that file's, whose header has the column (case aside); None otherwise.
    XJ at 0958b96: "Remove the phone column from contacts.csv." took the word out of
    the header ("name,,city") and kept every phone number."""
    import csv
    import io

    drop, rename = _COLUMN_DROP.search(goal), _COLUMN_RENAME.search(goal)
    m = drop or rename
    if m is None or not text.strip():
        return None
    delimiter = "\t" if m.group("file").lower().endswith(".tsv") else ","
    try:
        rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    except csv.Error:
        return None
    if not rows or not rows[0]:
        return None
    header = [h.strip().lower() for h in rows[0]]
    name = ((drop.group("q1") or drop.group("w1") or drop.group("q2") or drop.group("w2")) if drop
            else rename.group("old")).strip()
    if header.count(name.lower()) != 1:
        return None
    at = header.index(name.lower())
    if drop:
        out, how = [r[:at] + r[at + 1:] for r in rows], f"without its {rows[0][at]} column"
    else:
        out = [[rename.group("new").strip() if i == at else c for i, c in enumerate(rows[0])], *rows[1:]]
        how = f"with its column {rows[0][at]} named {rename.group('new').strip()}"
    buf = io.StringIO()
    csv.writer(buf, delimiter=delimiter, lineterminator="\n").writerows(out)
    return m.group("file"), how, buf.getvalue()


def _column_not_edited(ev: Evidence) -> str:
    """A doubt when the goal takes out or renames a column of a CSV file
    (:func:`column_edit`, on the text this task first read) and the file is not that
    now ("" otherwise), with the write that makes it so."""
    m = _COLUMN_DROP.search(ev.goal) or _COLUMN_RENAME.search(ev.goal)
    rel = m.group("file") if m else ""
    before = original_text(rel, ev.calls) if rel else None
    asked = column_edit(ev.goal, before + "\n") if before is not None else None
    now = _text_now(ev, rel) if asked is not None else None
    if asked is None or now is None or [ln.rstrip("\r") for ln in now.strip().splitlines()] == \
            asked[2].strip().splitlines():
        return ""
    return (f"the task asks for {rel} {asked[1]}, every other cell as it was, and {rel} does not hold that now; "
            f"{call_to_copy('write_file', {'path': rel, 'content': asked[2]})}")


#: "Remove the row for Cy from staff.csv", "Delete the line with the wifi password from notes.txt"
_LINE_TO_REMOVE = re.compile(r"\b(?:remove|delete|drop|take out)\s+(?P<every>(?:every|each|all(?:\s+the)?|any)\s+)?"
                             r"(?:the\s+)?(?:row|line|entry|record)s?\s+"
                             r"(?:for|of|with(?:\s+the\s+word)?|about|containing|mentioning|"
                             r"(?:that|which)\s+(?:has|have|holds?|mentions?|contains?|says?))\s+"
                             r"(?:the\s+)?['\"\u201c]?(?P<what>[^'\"\u201d\n]{2,60}?)['\"\u201d]?\s+(?:from|in)\s+"
                             r"(?P<file>[\w./-]+\.(?:csv|tsv|txt|md))\b", re.IGNORECASE)


def lines_to_remove(goal: str, text: str) -> tuple[str, str, list[str]] | None:
    """``(file, what, the lines of text holding it)`` when ``goal`` removes the row or
    line of something from a text or CSV file ("Remove the row for Cy from staff.csv")
    and ``text`` (that file's) has one to three lines holding it as a word; None
    otherwise. A held-out task at becc1df took "Cy" out of its row (",IT" left), then
    wrote the file with the row as "IT,IT"."""
    m = _LINE_TO_REMOVE.search(goal)
    if m is None:
        return None
    what = " ".join(m.group("what").split())
    what = re.sub(r"^(?:the\s+)", "", what, flags=re.IGNORECASE)
    pattern = re.compile(rf"(?<!\w){re.escape(what)}(?!\w)", re.IGNORECASE)
    held = [ln for ln in text.splitlines() if pattern.search(ln)]
    # "every line containing DRAFT" may be many (batch W at bad9c2a, WF: the word taken out of two lines, the
    # others rewritten), but never every line of the file
    if not held or len(held) > (len(text.splitlines()) - 1 if m.group("every") else 3):
        return None
    return m.group("file"), what, held


#: a change of letter case of a text file's lines: "Capitalise the first letter of every line in list.txt",
#: "Make all the names in names.txt uppercase", "Put every line of todo.md in lower case"
_CASE_ASKED = re.compile(r"\b(?P<cap>capitali[sz]e|capitali[sz]ing)\b(?P<words>[^.?!]{0,40}\b(?:(?:every|each|all)\s+"
                         # "each name" (a held-out task at bad5969: "anna berg" offered as "Anna berg")
                         r"(?:the\s+)?(?:words?|names?)|the\s+names)\b)?|"
                         r"\b(?P<upper>upper[\s-]?case|all\s+caps|capital\s+letters)\b|"
                         r"\b(?P<lower>lower[\s-]?case|small\s+letters)\b|\b(?P<title>title[\s-]?case)\b",
                         re.IGNORECASE)
#: the header of a table named: "every column name", "the headers", "the header row", "the column titles"
_HEADER_SAID = re.compile(r"\b(?:column|field)[\s-]+(?:names|headers|headings|titles|labels)\b|\bheaders\b|"
                          r"\bheader\s+(?:row|line)\b|\b(?:every|each|all)\s+(?:the\s+)?(?:column|field)[\s-]+"
                          r"(?:name|header|heading|title|label)\b|\bnames\s+of\s+(?:the\s+|its\s+|all\s+)?columns\b",
                          re.IGNORECASE)
_TEXT_FILES = (".txt", ".md", ".csv")


def cased_lines(goal: str, text: str) -> tuple[str, str] | None:
    """``(how, text)`` when ``goal`` asks to change the letter case of the lines of a text
    file and ``text`` is that file's: the first letter of each line made a capital
    ("capitalise"), of each word ("capitalise every word", "title case"), or every
    letter upper or lower case; None otherwise, and when nothing would change. A
    held-out task at a8fdd03: "Capitalise the first letter of every line in list.txt."
    sent an empty edit twice, then answered "The first line of list.txt is milk."."""
    m = _CASE_ASKED.search(goal)
    if m is None:
        return None
    if m.group("upper"):
        how, change = "in upper case", str.upper
    elif m.group("lower"):
        how, change = "in lower case", str.lower
    elif m.group("title") or m.group("words"):
        how, change = "with each word's first letter a capital", \
            (lambda ln: re.sub(r"(?<![\w'])([^\W\d_])", lambda w: w.group(1).upper(), ln))
    else:
        how, change = "with each line's first letter a capital", \
            (lambda ln: re.sub(r"^(\W*)([^\W\d_])", lambda w: w.group(1) + w.group(2).upper(), ln))
    lines = text.splitlines()
    cased = "\n".join(change(ln) for ln in lines) + ("\n" if text.endswith("\n") else "")
    return (how, cased) if cased != text else None


#: a goal that numbers the lines of a text file: "Number the lines of steps.txt", "Put 1. 2. 3. in front of each
#: line of steps.txt", "number each step in steps.txt"
_NUMBER_ASKED = re.compile(r"\bnumber\s+(?:the|all|each|every)\s+(?:(?:of\s+the\s+)?(?:lines?|steps?|items?|entries|"
                           r"tasks?|points?))\b|\b(?:put|add|write|prefix)\s+(?:the\s+numbers?\s+)?1[.)]\s*,?\s*2[.)]",
                           re.IGNORECASE)


def numbered_lines(goal: str, text: str) -> tuple[str, str] | None:
    """``(how, text)`` when ``goal`` asks to number the lines of a text file
    (:data:`_NUMBER_ASKED`) and ``text`` is that file's: "1. " (or "1) " where the goal
    writes "1)") before each line that is not empty, a number it has already left off
    first; None otherwise. Batch HZ at 4bb2504 (HZG): steps.txt numbered right at step 1,
    then seven steps of copies onto itself, and a stuck hand-off."""
    if not _NUMBER_ASKED.search(goal):
        return None
    close = ")" if re.search(r"\b1\)", goal) else "."
    lines, n, out = text.splitlines(), 0, []
    for ln in lines:
        if not ln.strip():
            out.append(ln)
            continue
        n += 1
        out.append(f"{n}{close} " + re.sub(r"^\s*\d{1,3}[.)]\s+", "", ln))
    numbered = "\n".join(out) + ("\n" if text.endswith("\n") else "")
    return (f"with its lines numbered 1{close} 2{close} 3{close} ...", numbered) if numbered != text else None


#: a goal that reverses the order of a text file's lines: "Reverse the order of the lines in list.txt", "Put the
#: lines of log.txt in reverse order", "reverse list.txt"
_REVERSE_ASKED = re.compile(r"\breverse\s+(?:the\s+)?(?:order\s+of\s+(?:the\s+|its\s+)?)?(?:lines|items|entries|"
                            r"list)\b|\bin(?:to)?\s+reversed?\s+order\b|\breverse\s+[\w./-]+\.(?:txt|md)\b",
                            re.IGNORECASE)


#: a goal that joins a text file's lines into one: "Put the address in address.txt on one line", "Join the lines of
#: tags.txt into a single line, separated by semicolons"
_ONE_LINE_ASKED = re.compile(r"\b(?:on|onto|in|into)\s+(?:a\s+single|one|1)\s+line\b|"
                             r"\bjoin\s+(?:all\s+)?(?:the\s+|its\s+)?lines\b", re.IGNORECASE)


def joined_lines(goal: str, text: str) -> tuple[str, str] | None:
    """``(how, text)`` when ``goal`` asks to put a text file's lines on one line
    (:data:`_ONE_LINE_ASKED`) and ``text`` is that file's: its lines that are not empty,
    spaces trimmed, joined by what the goal names (a comma: ", "; a semicolon: "; ";
    else a space), a final line break kept; None otherwise. Batch IZ at 2081e47 (IZD):
    "Put the address in address.txt on one line, with a comma and a space between the
    parts." was read as a text to add, and a made-up "Anna Smith" was added."""
    if not _ONE_LINE_ASKED.search(goal):
        return None
    sep = ", " if re.search(r"\bcommas?\b", goal, re.IGNORECASE) else "; " if re.search(
        r"\bsemi-?colons?\b", goal, re.IGNORECASE) else " | " if re.search(r"\bpipes?\b", goal, re.IGNORECASE) else " "
    parts = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if len(parts) < 2:
        return None
    joined = sep.join(parts) + ("\n" if text.endswith("\n") else "")
    return (f"with its lines on one line, joined by {sep!r}", joined)


#: a goal that moves every Markdown heading one level down (or up): "make every heading in notes.md one level lower:
#: # becomes ##", "Demote the headings of notes.md by one level", "promote each heading one level"
_HEADING_SHIFT_ASKED = re.compile(r"\bheadings?\b[^.?!]{0,60}?\b(?:one|a|1)\s+level\s+"
                                  r"(?P<dir>lower|deeper|down|higher|up)\b|"
                                  r"\b(?P<verb>demote|promote)\b[^.?!]{0,30}?\bheadings?\b", re.IGNORECASE)


def headings_shifted(goal: str, text: str) -> tuple[str, str] | None:
    """``(how, text)`` when ``goal`` asks to move every Markdown heading of a file one
    level lower (``#`` to ``##``, at most ``######``) or higher (:data:`_HEADING_SHIFT_ASKED`)
    and ``text`` is that file's, lines in fenced code blocks left alone; None otherwise,
    or when a heading cannot move (a level-1 heading made higher). Batch IZ at 2081e47
    (IZH): ``edit_file`` of "#" to "##" with replace_all made ## into ####, and was done."""
    m = _HEADING_SHIFT_ASKED.search(goal)
    if m is None:
        return None
    lower = (m.group("dir") or "").lower() in ("lower", "deeper", "down") or (m.group("verb") or "").lower() == "demote"
    out, fenced, moved = [], False, 0
    for ln in text.split("\n"):
        if ln.lstrip().startswith("```"):
            fenced = not fenced
        head = re.match(r"^(#{1,6})(\s+\S.*)$", ln) if not fenced else None
        if head:
            level = len(head.group(1)) + (1 if lower else -1)
            if not 1 <= level <= 6:
                return None
            ln, moved = "#" * level + head.group(2), moved + 1
        out.append(ln)
    how = f"with every heading one level {'lower (# to ##)' if lower else 'higher (## to #)'}"
    return (how, "\n".join(out)) if moved else None


#: a goal that replaces every value of a kind in a file: "replace every phone number in it with [removed]", "Redact
#: the email addresses in notes.txt"
_REDACT_ASKED = re.compile(r"\b(?P<verb>replace|redact|mask|hide|black\s+out|blank\s+out)\b(?:[^.?!]|\.(?=\w)){0,40}?"
                           r"\b(?:every|all|"
                           r"each|any|the)\s+(?:of\s+the\s+)?(?P<kind>(?:tele|mobile\s+|cell\s+)?phone\s*numbers?|"
                           r"mobile\s+numbers?|e-?mail\s+address(?:es)?|e-?mails|links?|urls?)\b"
                           r"(?:(?:[^.?!]|\.(?=\w)){0,40}?\bwith\s+"
                           r"(?P<with>\"[^\"]+\"|'[^']+'|\[[^\]]+\]|[^\s.,;]+))?", re.IGNORECASE)


def redacted(goal: str, text: str) -> tuple[str, str] | None:
    """``(how, text)`` when ``goal`` asks to replace every phone number (email address,
    link) of a text file with a text it gives (:data:`_REDACT_ASKED`; "[redacted]" for
    "redact" with none) and ``text`` is that file's: each value the pattern of
    :func:`extracted.value_pattern` finds replaced, the rest kept; None otherwise, or when
    there is none. Batch IZ at 2081e47 (IZJ): "replace every phone number in it with
    [removed]" replaced one of two, and was done."""
    from .extracted import value_pattern

    m = _REDACT_ASKED.search(goal)
    if m is None or m.group("verb").lower() == "replace" and not m.group("with"):
        return None
    found = value_pattern(re.sub(r"^(link|url)$", r"\1s", m.group("kind").lower()))
    if found is None:
        return None
    pattern, keep = found
    sub = m.group("with") or "[redacted]"
    sub = sub[1:-1] if sub[0] in "\"'" else sub
    out = pattern.sub(lambda v: sub if keep(v.group(0).strip()) else v.group(0), text)
    kind = re.sub(r"(?<!addres)s$", "", re.sub(r"addresses$", "address", " ".join(m.group("kind").lower().split())))
    return (f"with every {kind} replaced by {sub}", out) if out != text else None


def _reverse_asked(goal: str) -> bool:
    """Whether ``goal`` reverses lines (:data:`_REVERSE_ASKED`), not sorts them ("in reverse alphabetical order")."""
    return bool(_REVERSE_ASKED.search(goal)) and not re.search(r"\bsort|\balphabet|\bby\s+(?:date|name|size)\b", goal,
                                                                re.IGNORECASE)


def reversed_lines(goal: str, text: str) -> tuple[str, str] | None:
    """``(how, text)`` when ``goal`` asks to reverse the order of a text file's lines
    (:data:`_REVERSE_ASKED`) and ``text`` is that file's: its lines last to first, a
    final line break kept; None otherwise. HZJ (batch HZ at 4bb2504, replayed at
    2081e47): list.txt reversed right at step 1, then read and reversed again, back to
    the first order, and "The lines in list.txt are now in reverse order." was done."""
    if not _reverse_asked(goal):
        return None
    lines = text.splitlines()
    flipped = "\n".join(reversed(lines)) + ("\n" if text.endswith("\n") else "")
    return ("with its lines in reverse order (the last first)", flipped) if flipped != text else None


#: a goal that takes the empty (or the repeated) lines out of a text file: "Remove the empty lines from shopping.txt",
#: "Delete duplicate lines in emails.txt", "Get rid of the duplicates in names.txt", "Deduplicate list.md"
_DROP_ASKED = re.compile(r"\b(?:remove|delete|drop|strip|take out|get rid of|clean out)\b[^.?!]{0,30}?\b(?:"
                         r"(?P<blank>empty|blank)\s+(?:lines?|rows?)|(?P<dup>duplicated?|repeated|doubled?)\s+"
                         r"(?:lines?|rows?|entries|names|items|e-?mails?|addresses)|"
                         r"(?P<dups>duplicates|doubles|repeats))\b|"
                         r"\b(?P<dedup>de-?duplicate)\b", re.IGNORECASE)


def kept_lines(goal: str, text: str) -> tuple[str, str] | None:
    """``(how, text)`` when ``goal`` asks to take the empty lines (or the repeated lines:
    each kept once, where it first comes) out of a text file and ``text`` is that
    file's, with those lines taken out; None otherwise, and when none is there. A
    held-out task (PG) at 9fa21b4: "Remove the empty lines from shopping.txt." sent an
    empty edit three times and was handed off."""
    m = _DROP_ASKED.search(goal)
    if m is None:
        return None
    lines = text.splitlines()
    if m.group("blank"):
        how, kept = "without its empty lines", [ln for ln in lines if ln.strip()]
    else:
        seen: set[str] = set()
        how, kept = "with each repeated line kept once (where it first comes)", []
        for ln in lines:
            if ln.strip() and ln.strip() in seen:
                continue
            seen.add(ln.strip())
            kept.append(ln)
    out = "\n".join(kept) + ("\n" if kept else "")
    return (how, out) if out.rstrip("\n") != text.rstrip("\n") else None


_DATE_SHAPE = r"(?:DD|D|MM|M|YYYY|YY)(?P<{s}>[./-])(?:DD|D|MM|M|YYYY|YY)(?P={s})(?:DD|D|MM|M|YYYY|YY)"
#: a change of the way a file's dates are written: "Change the dates in events.csv from DD.MM.YYYY to YYYY-MM-DD"
_REDATE_ASKED = re.compile(r"\b(?:from\s+)?(?P<src>" + _DATE_SHAPE.format(s="a") + r")\s+(?:to|into|as)\s+"
                           r"(?P<dst>" + _DATE_SHAPE.format(s="b") + r")(?!\w)")
_DATE_PART = {"DD": r"(?P<d>\d{2})", "D": r"(?P<d>\d{1,2})", "MM": r"(?P<m>\d{2})", "M": r"(?P<m>\d{1,2})",
              "YYYY": r"(?P<y>\d{4})", "YY": r"(?P<y>\d{2})"}


def redated_lines(goal: str, text: str) -> tuple[str, str] | None:
    """``(how, text)`` when ``goal`` asks to write the dates of a text file another way
    ("from DD.MM.YYYY to YYYY-MM-DD", the shapes in capitals) and ``text`` is that
    file's, with every date of the first shape that is a day of the calendar written
    in the second; None otherwise, and when none is there. A held-out task at
    911f35c changed one of three dates, day and month swapped (03.02.2027 written
    2027-03-02), and answered that the dates were changed."""
    m = _REDATE_ASKED.search(goal)
    if m is None:
        return None
    src, dst = m.group("src"), m.group("dst")
    sep = m.group("a")
    parts = src.split(sep)
    if sorted(p[0] for p in parts) != ["D", "M", "Y"]:
        return None
    shape = re.compile(r"(?<![\d.\-/])" + re.escape(sep).join(_DATE_PART[p] for p in parts) + r"(?![\d])"
                       + r"(?!\.\d|-\d|/\d)")

    def written(found: re.Match) -> str:
        year = int(found["y"]) + (2000 if len(found["y"]) == 2 else 0)
        try:
            _date(year, int(found["m"]), int(found["d"]))
        except ValueError:
            return found.group(0)
        width = {"DD": f"{int(found['d']):02d}", "D": str(int(found["d"])), "MM": f"{int(found['m']):02d}",
                 "M": str(int(found["m"])), "YYYY": f"{year:04d}", "YY": f"{year % 100:02d}"}
        return m.group("b").join(width[p] for p in dst.split(m.group("b")))

    out = shape.sub(written, text)
    return (f"with its dates written {dst} (they were {src})", out) if out != text else None


#: every value of a number column rounded: "Round every price in prices.csv to whole euros", "round the amounts to
#: two decimals", "to the nearest cent"
_ROUND_ASKED = re.compile(r"\bround(?:ed|ing)?\b(?:[^.?!]|\.(?=\w)){0,60}?\bto\s+"
                          r"(?:the\s+nearest\s+|a\s+|full\s+|whole\s+)?"
                          r"(?:(?P<whole>whole|full|integers?|euros?|dollars?|pounds?|francs?|units?|numbers?)|"
                          r"(?P<cent>cents?|pennies|penny)|(?P<n>\d|one|two|three)\s+decimals?)\b", re.IGNORECASE)
_DIGITS = {"one": 1, "two": 2, "three": 3}
#: every value of a column written with leading zeros to a width: "write every part_no with five digits by adding
#: leading zeros (42 becomes 00042)" (batch KZ at 6a1c8bc, KZF: the model's edits copied the read's line numbers)
_PAD_ASKED = re.compile(r"\b(?:leading\s+zeros?|zero[- ]?padd?\w*|pad\w*\s+(?:[\w.-]+\s+){0,5}?with\s+zeros?)\b",
                        re.IGNORECASE)
_WIDTH = re.compile(r"\b(?P<n>\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)[- ](?:digits?|characters?|"
                    r"places?)\b|\b\d{1,9}\s+(?:becomes|->|→|to|as)\s+(?P<shown>0\d{1,9})\b", re.IGNORECASE)
_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                 "ten": 10}


def pad_width(goal: str) -> int | None:
    """The width every value of a column is padded to with leading zeros (:data:`_PAD_ASKED`,
    :data:`_WIDTH`: "with five digits", "42 becomes 00042"); None when the goal asks no
    such padding or gives no width."""
    if not _PAD_ASKED.search(goal):
        return None
    m = _WIDTH.search(goal)
    if m is None:
        return None
    if m.group("shown"):
        return len(m.group("shown"))
    n = m.group("n").lower()
    return _NUMBER_WORDS.get(n) or int(n)
#: spaces taken off the cells of a column: "Trim the extra spaces around the names in people.csv" (batch GZ at 833d98d,
#: GZG: one of three names trimmed, and done)
_TRIM_ASKED = re.compile(r"\b(?:trim|strip)\w*\b(?=(?:[^.?!]|\.(?=\w)){0,60}?\b(?:spaces?|whitespace|blanks)\b)|"
                         r"\b(?:remove|delete|drop|clean\s+up|take\s+out|get\s+rid\s+of)\s+"
                         r"(?:the\s+|all\s+|any\s+)?(?:extra\s+|leading\s+|trailing\s+|surrounding\s+)?(?:and\s+"
                         r"trailing\s+)?(?:spaces|whitespace|blanks)\b", re.IGNORECASE)
#: the one column a change is limited to: "in the city column", "in column city"
_IN_COLUMN = re.compile(r"\b(?:in|of|within)\s+(?:the\s+)?(?:[\"'\u201c]?(?P<a>[\w ]{1,30}?)[\"'\u201d]?\s+column\b|"
                        r"column\s+[\"'\u201c]?(?P<b>\w[\w ]{0,29}?)[\"'\u201d]?(?=\s+(?:of|in)\b|[.,;]|$))",
                        re.IGNORECASE)
#: the empty cells of a column given a value: "Fill the empty cells in the city column of customers.csv with Unknown"
_FILL_ASKED = re.compile(r"\bfill\b(?:\s+(?:in|up|out))?\s+(?:the\s+|all\s+|every\s+|each\s+)?(?:empty|blank|missing)\b"
                         r"(?:[^.?!]|\.(?=\w)){0,60}?\bwith\s+(?:the\s+(?:word|text|value)\s+)?[\"'\u201c]?"
                         r"(?P<value>[^\"'\u201d.?!,;]{1,40}?)[\"'\u201d]?\s*(?:[.?!]|$)", re.IGNORECASE)

#: a fill value that is another row's cell, not a text to write: "with the region from the row above"
_FROM_OTHER_ROW = re.compile(r"\b(?:rows?|cells?|above|below|previous|preceding|next|following|prior)\b", re.IGNORECASE)
_FROM_ABOVE = re.compile(r"\b(?:above|previous|preceding|prior|before)\b", re.IGNORECASE)


#: every value of a number column multiplied: "Convert every amount in expenses.csv from dollars to euros at a rate
#: of 0.92" (held-out BZG at bbbe1fb wrote "25.50 * 0.92" as the amount), "Multiply every price in prices.csv by 1.5"
_SCALE_ASKED = re.compile(r"\b(?:convert|change|turn|translate)\b(?:[^.?!]|\.(?=\w)){0,80}?\b(?:at|with|using|by)\s+"
                          r"(?:a|an|the)\s+(?:(?:exchange|conversion|fixed)\s+)?rate\s+(?:of\s+)?"
                          r"(?P<rate>\d+(?:\.\d+)?)\b"
                          r"|\bmultiply\b(?:[^.?!]|\.(?=\w)){0,60}?\bby\s+(?P<by>\d+(?:\.\d+)?)\b", re.IGNORECASE)


def scale_factor(goal: str) -> decimal.Decimal | None:
    """What every value of a CSV column is multiplied by in place: a rate or factor
    ``goal`` names (:data:`_SCALE_ASKED`), else its percent change
    (:func:`table_goal.percent_factor`, "Add 10% VAT to every price in prices.csv") when
    it names no file to write them to nor a column to add; None otherwise."""
    from .table_goal import percent_factor

    m = _SCALE_ASKED.search(goal)
    if m:
        factor = decimal.Decimal(m.group("rate") or m.group("by"))
        return factor if factor > 0 else None
    return None if goal_files(goal)[0] or _ADDS_COLUMN.search(goal) else percent_factor(goal)


#: the same amount added to (taken from) every value of a number column: "Add 5 points to every score in
#: scores.csv", "Subtract 2 from each price", "Increase every salary by 100" (batch GZ at 833d98d, GZH: read as a text
#: to add, the harness offered "70\n\n75" for Anna's 70); a percent is :func:`scale_factor`'s, a time
#: :data:`SHIFT_ASKED`'s
_ADDEND_ASKED = re.compile(
    r"\b(?P<verb>add|subtract|take)\s+(?P<n>\d+(?:\.\d+)?)(?!\.?\d|\s*(?:%|percent\b|per\s+cent\b))"
    r"(?P<unit>(?:\s+(?!to\b|from\b|off\b)[A-Za-z]+){0,2})\s+(?:to|from|off)\s+(?:every|each|all|the)\b"
    r"|\b(?P<verb2>increase|raise|reduce|decrease|lower|cut)\b(?:[^.?!%]|\.(?=\w)){0,60}?\bby\s+"
    r"(?P<n2>\d+(?:\.\d+)?)(?!\.?\d|\s*(?:%|percent\b|per\s+cent\b))(?P<unit2>(?:\s+[A-Za-z]+)?)",
    re.IGNORECASE)
_TIME_UNIT = re.compile(r"\b(?:seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)\b", re.IGNORECASE)


def addend(goal: str) -> decimal.Decimal | None:
    """What is added to every value of a CSV column in place (:data:`_ADDEND_ASKED`):
    5 for "Add 5 points to every score", -2 for "Subtract 2 from each price"; None when
    the goal asks no such change, or one of a time ("Add 2 days to every due date")."""
    m = _ADDEND_ASKED.search(goal)
    if m is None or _TIME_UNIT.search(m.group("unit") or m.group("unit2") or ""):
        return None
    amount = decimal.Decimal(m.group("n") or m.group("n2"))
    down = (m.group("verb") or m.group("verb2")).lower() in ("subtract", "take", "reduce", "decrease", "lower", "cut")
    return -amount if down else amount


#: a goal that adds a column ("Add a column vat ...", "add a new Total column"): its values are another check's
_ADDS_COLUMN = re.compile(r"\b(?:add|insert|append|put|create|make)\w*\s+(?:a|an|the|one)\s+(?:new\s+)?"
                          r"(?:[\w\"'\u201c\u201d-]+\s+)?column\b", re.IGNORECASE)


def _csv_rows(text: str) -> list[list[str]] | None:
    """The rows of the CSV text ``text``; None when it is no valid CSV."""
    try:
        return list(csv.reader(io.StringIO(text)))
    except csv.Error:
        return None


#: one row kept for each key, the newest (oldest) by a date column: "Keep only the most recently updated row for each
#: person in contacts.csv"
_LATEST_ASKED = re.compile(r"\bkeep\s+(?:only\s+|just\s+)?(?:the\s+)?(?:(?P<new>most\s+recent(?:ly)?|newest|latest|"
                           r"last)|(?P<old>oldest|earliest|first))(?:\s+\w+)?\s+(?:rows?|entry|entries|lines?|"
                           r"records?)\s+(?:for|of|per)\s+(?:each|every)\s+(?P<key>\w+)", re.IGNORECASE)
_ISO_DAY = re.compile(r"\s*\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?\s*")
_PERSON_KEY = frozenset("person people persons customer customers contact contacts client clients one name".split())


def latest_rows(goal: str, text: str) -> tuple[str, str] | None:
    """``(how, text)`` when ``goal`` keeps one row of a CSV file for each key, the one
    with the latest (earliest) date (:data:`_LATEST_ASKED`) and ``text`` is that file's:
    its rows with the others taken out, kept in their order. The key is the column the
    goal names ("for each city"), for a person the one column named like a name, else
    the first; the date the one column whose every cell is an ISO date. None when no
    such columns are found or nothing would change. Batch JZ at 02d32bb (JZF): "Keep
    only the most recently updated row for each person." answered with a query's
    names, contacts.csv left as it was."""
    m = _LATEST_ASKED.search(goal)
    rows = _csv_rows(text) if m else None
    if not rows or len(rows) < 3:
        return None
    header = [h.strip().lower() for h in rows[0]]
    body = [r for r in rows[1:] if r]
    dated = [i for i in range(len(header)) if all(i < len(r) and _ISO_DAY.fullmatch(r[i]) for r in body)]
    key = m.group("key").lower()
    keys = [i for i, h in enumerate(header) if h in (key, key.rstrip("s"), key + "s")] or (
        [i for i, h in enumerate(header) if "name" in h] if key in _PERSON_KEY else [0])
    if len(dated) != 1 or len(keys) != 1 or keys[0] == dated[0]:
        return None
    at, by = keys[0], dated[0]
    best: dict[str, list[str]] = {}
    for r in body:
        k = r[at].strip().lower() if at < len(r) else ""
        held = best.get(k)
        if held is None or (r[by].strip() > held[by].strip() if m.group("new") else r[by].strip() < held[by].strip()):
            best[k] = r
    kept = [r for r in body if any(r is b for b in best.values())]
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([rows[0], *kept])
    if len(kept) == len(body):
        return None
    which = "latest" if m.group("new") else "earliest"
    return f"with one row for each {rows[0][at].strip()}, the one with the {which} {rows[0][by].strip()}", \
        out.getvalue()


def ragged_row(text: str, delimiter: str = ",") -> tuple[int, list[str], list[str]] | None:
    """``(line, row, header)``: the first row of the CSV text ``text`` whose number of
    cells is not its header's (``line`` counted from 1, the header's line 1; a blank line
    in the middle counts as a row of none); None when every row matches, the header has
    fewer than two cells or the text is no CSV. Batch GZ at 833d98d (GZH): scores.csv
    written as "name,score\nAnna,70\n75\nBen,85", and the task called done."""
    try:
        rows = list(csv.reader(io.StringIO(text.rstrip("\r\n")), delimiter=delimiter))
    except csv.Error:
        return None
    if not rows or len(rows[0]) < 2:
        return None
    return next(((i, row, rows[0]) for i, row in enumerate(rows[1:], start=2) if len(row) != len(rows[0])), None)


def _csv_column(goal: str, header: list[str]) -> int | None:
    """The index of the one column of ``header`` a word of ``goal`` names (its name, "_" read
    as a space, alone or plural; file names aside); None otherwise."""
    words = re.sub(r"[\w./-]+\.[A-Za-z]{2,5}\b", " ", goal)
    def spelt(name: str) -> str:  # "part_no" is said as "part_no" or "part no"
        return re.escape(name).replace(r"\ ", "[_ ]")

    def plural(name: str) -> str:  # city: cities; price: prices
        return rf"(?:{spelt(name)}s?|{spelt(name[:-1])}ies)" if name.endswith("y") else rf"{spelt(name)}s?"

    said = [i for i, h in enumerate(header) if h.strip() and re.search(
        rf"(?<![\w-]){plural(h.strip().replace('_', ' '))}(?![\w-])", words, re.IGNORECASE)]
    return said[0] if len(said) == 1 else None


def _csv_target(goal: str, rows: list[list[str]], numbers: bool) -> int | None:
    """The index of the column of ``rows`` (a CSV file's, header first) whose values
    ``goal`` changes: the one column it names (:func:`_csv_column`), or, when it names
    several and the change is to numbers, the one of them whose cells are all numbers
    ("the salary of everyone in the Sales department": salary); None otherwise."""
    at = _csv_column(goal, rows[0])
    if at is not None or not numbers:
        return at
    words = re.sub(r"[\w./-]+\.[A-Za-z]{2,5}\b", " ", goal)
    said = [i for i, h in enumerate(rows[0]) if h.strip() and _csv_column(words, [h]) == 0 and all(
        re.fullmatch(r"\s*-?\d+(?:\.\d+)?\s*", r[i]) for r in rows[1:] if i < len(r) and r[i].strip())]
    return said[0] if len(said) == 1 else None


def _rows_named(goal: str, rows: list[list[str]], at: int) -> tuple[int, set[str]] | None:
    """``(column, values)``: the rows a change to column ``at`` is limited to, those whose
    cell in ``column`` is one of ``values`` (lower case), when ``goal`` names cells of one
    other column, as a word ("everyone in the Sales department": department Sales); None
    when it names none, or cells of several columns."""
    words = re.sub(r"[\w./-]+\.[A-Za-z]{2,5}\b", " ", goal)
    found: dict[int, set[str]] = {}
    for i in range(len(rows[0])):
        cells = {r[i].strip() for r in rows[1:] if i != at and i < len(r) and len(r[i].strip()) > 1
                 and re.search(r"[A-Za-z]", r[i])}
        hit = {c.lower() for c in cells if re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])", words, re.IGNORECASE)}
        if hit:
            found[i] = hit
    return next(iter(found.items())) if len(found) == 1 else None


def _cell_swap(goal: str) -> tuple[Callable[[list[str]], int | None], str, str] | None:
    """``(column of a header, old, new)`` when ``goal`` replaces a text with another in one
    column it names (:func:`text_change` and :data:`_IN_COLUMN`: "Replace NY with New York
    in the city column of customers.csv"); None otherwise. Batch GZ at 833d98d (GZF): the
    file's note column held "NY" too, and nothing was changed."""
    change, m = text_change(goal), _IN_COLUMN.search(goal)
    if change is None or m is None:
        return None
    cut = _IN_COLUMN.search(change[1])
    change = (change[0], change[1][:cut.start()].strip() if cut else change[1])
    if not change[1]:
        return None
    name = re.sub(r"[\s_]+", " ", (m.group("a") or m.group("b")).strip()).lower()

    def column(header: list[str]) -> int | None:
        said = [i for i, h in enumerate(header) if re.sub(r"[\s_]+", " ", h.strip()).lower() == name]
        return said[0] if len(said) == 1 else None
    return column, change[0], change[1]


def column_rewritten(goal: str, text: str) -> tuple[str, str] | None:
    """``(how, text)`` when ``goal`` changes every value of one column of the CSV file
    ``text`` is, the column a goal word names: its letter case (:data:`_CASE_ASKED`:
    "Make every email address in contacts.csv lowercase"), its numbers rounded
    (:data:`_ROUND_ASKED`: "to whole euros", "to two decimals", half away from zero)
    or its empty cells given a value (:data:`_FILL_ASKED`: "Fill the empty cells in the
    city column ... with Unknown"),
    every other cell, the header and each row kept; None when the goal names no one
    column or nothing would change. Batch AZ at 018ad5b: AZD's names were put in lower
    case with the emails (the harness's own write to copy did it), AZC rounded one of
    five prices and dropped the last row."""
    case, rounding, fill = _CASE_ASKED.search(goal), _ROUND_ASKED.search(goal), _FILL_ASKED.search(goal)
    width = pad_width(goal) if case is None and rounding is None and fill is None else None
    if width is not None:
        return _padded(goal, text, width)
    factor = scale_factor(goal) if case is None and rounding is None and fill is None else None
    plus = addend(goal) if case is None and rounding is None and fill is None and factor is None else None
    other = case is None and rounding is None and fill is None and factor is None and plus is None
    trim = _TRIM_ASKED.search(goal) if other else None
    swap = _cell_swap(goal) if other and trim is None else None
    if other and trim is None and swap is None:
        return None
    rows = _csv_rows(text)
    if rows is None:
        return None
    if len(rows) < 2:
        return None
    if case is not None and _HEADER_SAID.search(goal):  # batch GZ at 833d98d (GZJ): "Make every column name in
        # data.csv lower case" lower-cased the column Name's cells, and the harness called it done
        low = case.group("lower") is not None
        if not (low or case.group("upper")):
            return None
        header = [h.lower() if low else h.upper() for h in rows[0]]
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerow(header)
        new = out.getvalue() + text.split("\n", 1)[1] if "\n" in text else out.getvalue()
        how = f"with every column name (its header) in {'lower' if low else 'upper'} case"
        return (how, new) if header != rows[0] else None
    at = _csv_target(goal, rows, factor is not None or plus is not None) if swap is None else swap[0](rows[0])
    if at is None and trim is not None and not _IN_COLUMN.search(goal):
        at = -1  # "Trim the spaces in people.csv": every cell
    if at is None:
        return None
    only = _rows_named(goal, rows, at) if swap is None and at >= 0 else None
    if swap is not None:
        _, old, new_value = swap

        def change(cell: str) -> str:
            return re.sub(rf"(?<![\w-]){re.escape(old)}(?![\w-])", lambda _m: new_value, cell)
        how = f"with {old!r} replaced by {new_value!r} in its {rows[0][at]} column only"
    elif trim is not None:
        def change(cell: str) -> str:
            return " ".join(cell.split())
        how = f"with the spaces around every {rows[0][at] if at >= 0 else 'cell'} taken off"
    elif plus is not None:
        def change(cell: str) -> str:
            try:
                value = decimal.Decimal(cell.strip()) + plus
            except decimal.InvalidOperation:
                return cell
            return str(value) if "." in cell or "." in str(plus) else str(value.quantize(decimal.Decimal(1)))
        how = f"with {abs(plus).normalize():f} {'taken from' if plus < 0 else 'added to'} every {rows[0][at]}"
    elif factor is not None:
        whole = factor == factor.to_integral_value()

        def change(cell: str) -> str:
            try:
                value = decimal.Decimal(cell.strip()) * factor
            except decimal.InvalidOperation:
                return cell
            if re.fullmatch(r"-?\d+", cell.strip()) and (whole or value == value.to_integral_value()):
                return str(value.quantize(decimal.Decimal(1)))  # 50000 raised by 10%: 55000, not 55000.00
            return str(value.quantize(decimal.Decimal("0.01"), rounding=decimal.ROUND_HALF_UP))
        how = f"with every {rows[0][at]} multiplied by {factor.normalize():f} (to the cent)"
    elif fill is not None:
        value = fill.group("value").strip()
        if _FROM_OTHER_ROW.search(value):  # batch JZ at 02d32bb (JZB): "... with the region from the row above"
            if not _FROM_ABOVE.search(value):  # the row below: not known here
                return None
            above = [""]

            def change(cell: str) -> str:
                above[0] = cell if cell.strip() else above[0]
                return above[0] or cell
            how = f"with every empty {rows[0][at]} filled with the {rows[0][at]} of the row above it"
        else:
            def change(cell: str) -> str:
                return cell if cell.strip() else value
            how = f"with every empty {rows[0][at]} filled with {value!r}"
    elif rounding is not None:
        n = (rounding.group("n") or "").lower()
        places = 0 if rounding.group("whole") else 2 if rounding.group("cent") else _DIGITS.get(n) or int(n)
        step = decimal.Decimal(1).scaleb(-places)

        def change(cell: str) -> str:
            try:
                return str(decimal.Decimal(cell.strip()).quantize(step, rounding=decimal.ROUND_HALF_UP))
            except decimal.InvalidOperation:
                return cell
        to = "whole numbers" if not places else f"{places} decimal" + "s" * (places > 1)
        how = f"with every {rows[0][at]} rounded to {to}"
    else:
        low = case.group("lower") is not None
        if not (low or case.group("upper")):
            return None
        change = str.lower if low else str.upper
        how = f"with every {rows[0][at]} in {'lower' if low else 'upper'} case"
    if only is not None:  # batch DZ at a3c921a (DZC): "the salary of everyone in the Sales department"
        column, values = only
        shown = list(dict.fromkeys(r[column].strip() for r in rows[1:] if column < len(r)
                                   and r[column].strip().lower() in values))
        how = how.replace(f"every {rows[0][at]}", f"the {rows[0][at]} of each row whose {rows[0][column]} is "
                          f"{' or '.join(shown)}", 1)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(rows[0])
    for row in rows[1:]:
        kept = only is not None and (only[0] >= len(row) or row[only[0]].strip().lower() not in only[1])
        writer.writerow([change(v) if at in (i, -1) and not kept else v for i, v in enumerate(row)])
    new = out.getvalue()
    return (how, new) if new.rstrip("\n") != text.rstrip("\n") else None


def _padded(goal: str, text: str, width: int) -> tuple[str, str] | None:
    """``(how, text)``: the CSV text with every whole number of the column ``goal`` names
    written with leading zeros to ``width`` digits (as text; longer ones and other cells
    kept); None when it names no one column or nothing would change."""
    rows = _csv_rows(text)
    at = _csv_target(goal, rows, False) if rows and len(rows) >= 2 else None
    if at is None:
        return None
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(rows[0])
    for row in rows[1:]:
        writer.writerow([v.strip().zfill(width) if i == at and re.fullmatch(r"\s*\d+\s*", v) else v
                         for i, v in enumerate(row)])
    new = out.getvalue()
    return (f"with every {rows[0][at]} written with {width} digits (leading zeros)", new) \
        if new.rstrip("\n") != text.rstrip("\n") else None


#: something taken out of a file the goal names after "from": "Remove all orders from 2025 from orders.csv"
_OUT_OF_FILE = re.compile(r"\b(?:remove|delete|drop|take\s+out|get\s+rid\s+of|strip|cut)\b"
                          r"(?P<what>(?:[^.?!]|\.(?=\w)){1,80}?)\bfrom\s+(?:the\s+file\s+)?"
                          r"(?P<file>[\w./-]+\.[A-Za-z]\w{1,4})\b", re.IGNORECASE)


def removed_from(goal: str) -> str:
    """The file ``goal`` takes something out of ("orders.csv" of "Remove all orders from
    2025 from orders.csv"), which itself stays; "" when it names none so."""
    m = _OUT_OF_FILE.search(goal)
    return m.group("file") if m and re.search(r"\w", m.group("what")) else ""


def _rows_bound_said(goal: str) -> bool:
    """Whether ``goal`` takes rows out of a CSV file by a date or an amount ("from 2025",
    "over 30": a number before "from FILE"); "the row for Cy" is :func:`lines_to_remove`'s."""
    m = _OUT_OF_FILE.search(goal)
    return m is not None and m.group("file").lower().endswith(".csv") and re.search(r"\d", m.group("what")) is not None


def rows_removed(goal: str, text: str) -> tuple[str, str] | None:
    """``(how, text)`` when ``goal`` asks to take the rows of the CSV file ``text`` is out
    by a date or an amount they hold (:func:`table_goal.goal_filters` on the words
    before "from FILE": "all orders from 2025", the rows of 2025), with those
    rows taken out and every other row and the header kept as they are; None when the
    goal asks no such thing, when none of its rows is such, or when the file has
    closing total rows. Batch AZ at 018ad5b (AZE): "Remove all orders from 2025 from
    orders.csv." deleted orders.csv itself and answered that the orders were removed."""
    from tools.tables.loading import Table, _columns

    from .table_goal import goal_filters

    m = _OUT_OF_FILE.search(goal)
    if m is None or not _rows_bound_said(goal):
        return None
    try:
        rows = [r for r in csv.reader(io.StringIO(text)) if any(v.strip() for v in r)]
    except csv.Error:
        return None
    columns, left_out = _columns([list(r) for r in rows])
    if left_out or len(rows) < 2:
        return None
    table = Table(name="rows", source=m.group("file"), columns=columns)
    bounds = goal_filters(table, m.group("what"))
    if not bounds:
        return None
    values = {c.name: c.values for c in columns}
    gone = [all(b.keep(values[b.column][i]) for b in bounds) for i in range(len(rows) - 1)]
    if not any(gone):
        return None
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([rows[0], *(r for r, g in zip(rows[1:], gone) if not g)])
    said = " and ".join(f"{b.column} {b.said}" for b in bounds)
    return f"without its rows whose {said} ({sum(gone)} of {len(gone)})", out.getvalue()


#: one column of a CSV file split in two: "Split the name column of people.csv into first_name and last_name"
_SPLIT_ASKED = re.compile(r"\bsplit\s+(?:up\s+)?(?:the\s+)?(?:(?P<col>[\w ]{2,30}?)\s+column|column\s+(?P<col2>\w+))\b"
                          r"(?:[^.?!]|\.(?=\w)){0,40}?\binto\s+(?:the\s+|two\s+)?(?:columns\s+)?(?P<a>\w+)\s+and\s+"
                          r"(?P<b>\w+)\b", re.IGNORECASE)


def column_split(goal: str, text: str) -> tuple[str, str] | None:
    """``(how, text)`` when ``goal`` asks to split a column of the CSV file ``text`` is
    into two (:data:`_SPLIT_ASKED`, the column named by its header), the two new columns
    in its place: each value's last word in the one named "last..." (else the second),
    the words before it in the other; every other cell and row kept. None otherwise.
    Batch AZ at 018ad5b (AZG): "Split the name column of people.csv into first_name and
    last_name columns." tried xlsx_info on the CSV twice and wrote nothing."""
    m = _SPLIT_ASKED.search(goal)
    if m is None:
        return None
    rows = _csv_rows(text)
    if rows is None:
        return None
    want = (m.group("col") or m.group("col2")).strip().lower()
    at = next((i for i, h in enumerate(rows[0] if rows else []) if h.strip().lower().replace("_", " ") in (
        want, want.split()[-1])), None)
    if at is None or len(rows) < 2:
        return None
    a, b = m.group("a"), m.group("b")
    last_first = "last" in a.lower() and "last" not in b.lower()

    def parts(cell: str) -> list[str]:
        head, _, tail = cell.strip().rpartition(" ")
        first, last = (head, tail) if head else (tail, "")
        return [last, first] if last_first else [first, last]

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*rows[0][:at], a, b, *rows[0][at + 1:]])
    for row in rows[1:]:
        if row:
            writer.writerow([*row[:at], *parts(row[at] if at < len(row) else ""), *row[at + 1:]])
    return f"with its {rows[0][at]} column split into {a} and {b}", out.getvalue()


#: two columns joined into one: "Merge the first_name and last_name columns of people.csv into one column full_name"
_JOIN_ASKED = re.compile(r"\b(?:merge|combine|join|concatenate)\s+(?:the\s+)?(?:columns\s+)?(?P<a>\w+)\s+and\s+"
                         r"(?P<b>\w+)(?:\s+columns?)?\b(?:[^.?!]|\.(?=\w)){0,60}?\binto\s+"
                         r"(?:(?:one|a|single|new)\s+)*(?:column\s+)?(?:called\s+|named\s+)?[\"'\u201c]?(?P<new>\w+)",
                         re.IGNORECASE)


def _join_asked(goal: str) -> re.Match[str] | None:
    """The :data:`_JOIN_ASKED` match of ``goal`` when it names the new column; None otherwise."""
    m = _JOIN_ASKED.search(goal)
    return m if m and m.group("new").lower() not in ("column", "one", "a", "the") else None


def columns_merged(goal: str, text: str) -> tuple[str, str] | None:
    """``(how, text)`` when ``goal`` asks to join two columns of the CSV file ``text`` is
    into one (:data:`_JOIN_ASKED`, both named by their headers): the new column in the
    first one's place, each value the two cells joined by a space, the two columns gone;
    every other cell and row kept. None otherwise. Held-out BZF at bbbe1fb: "first_name
    and last_name ... into one column full_name" ended in a stuck hand-off."""
    m = _join_asked(goal)
    if m is None:
        return None
    rows = _csv_rows(text)
    if rows is None:
        return None
    header = [h.strip().lower() for h in rows[0]] if rows else []
    a, b = m.group("a").lower(), m.group("b").lower()
    if a not in header or b not in header or a == b or len(rows) < 2:
        return None
    i, j = header.index(a), header.index(b)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for n, row in enumerate(rows):
        if not row:
            continue
        cells = row + [""] * (len(rows[0]) - len(row))
        joined = m.group("new") if n == 0 else " ".join(x.strip() for x in (cells[i], cells[j]) if x.strip())
        writer.writerow([joined if k == min(i, j) else c for k, c in enumerate(cells) if k != max(i, j)])
    return f"with its {rows[0][i]} and {rows[0][j]} columns joined into {m.group('new')}", out.getvalue()


#: temperatures converted: "Convert the temperatures in temps.csv from Fahrenheit to Celsius"
_TEMP_ASKED = re.compile(r"\bfrom\s+(?:degrees\s+)?(?P<src>fahrenheit|celsius)\s+(?:in)?to\s+(?:degrees\s+)?"
                         r"(?P<dst>celsius|fahrenheit)\b", re.IGNORECASE)
_TEMP_COLUMN = re.compile(r"temp|fahrenheit|celsius|°|deg", re.IGNORECASE)
_TEMP_HEADER = (("fahrenheit", "celsius"), ("Fahrenheit", "Celsius"), ("°F", "°C"), ("(F)", "(C)"))


def temperatures_converted(goal: str, text: str) -> tuple[str, str] | None:
    """``(how, text)`` when ``goal`` converts the temperatures of a CSV file from
    Fahrenheit to Celsius or back (:data:`_TEMP_ASKED`): the column a goal word names,
    else the one column whose header speaks of temperature, each number converted (°C =
    (°F - 32) × 5/9) to the decimals the goal rounds to (one when it says none), its
    header's unit word or letter turned too ("temp_f" to "temp_c"); every other cell and
    row kept. None otherwise. Batch CZ at 64fba22 (CZF): the header renamed temp_c, every
    value left in Fahrenheit, and "Done"."""
    m = _TEMP_ASKED.search(goal)
    rows = _csv_rows(text) if m and m.group("src").lower() != m.group("dst").lower() else None
    if not rows or len(rows) < 2:
        return None
    at = _csv_column(goal, rows[0])
    if at is None:
        named = [i for i, h in enumerate(rows[0]) if _TEMP_COLUMN.search(h)]
        at = named[0] if len(named) == 1 else None
    if at is None:
        return None
    rounding = _ROUND_ASKED.search(goal)
    n = (rounding.group("n") or "").lower() if rounding else "1"
    places = 0 if rounding and rounding.group("whole") else _DIGITS.get(n) or int(n) if n else 1
    step = decimal.Decimal(1).scaleb(-places)
    to_c = m.group("dst").lower() == "celsius"

    def change(cell: str) -> str:
        try:
            value = decimal.Decimal(cell.strip())
        except decimal.InvalidOperation:
            return cell
        out = (value - 32) * 5 / 9 if to_c else value * 9 / 5 + 32
        return str(out.quantize(step, rounding=decimal.ROUND_HALF_UP))

    header = rows[0][at]
    for f, c in _TEMP_HEADER:
        header = header.replace(f, c) if to_c else header.replace(c, f)
    header = re.sub(r"(?i)(?<=[_ -])f$", lambda x: "c" if x.group(0) == "f" else "C", header) if to_c else \
        re.sub(r"(?i)(?<=[_ -])c$", lambda x: "f" if x.group(0) == "c" else "F", header)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([header if i == at else v for i, v in enumerate(rows[0])])
    for row in rows[1:]:
        writer.writerow([change(v) if i == at else v for i, v in enumerate(row)])
    unit = "Celsius" if to_c else "Fahrenheit"
    return f"with every {rows[0][at]} in {unit}, to {places} decimal{'s' * (places != 1)}", out.getvalue()


#: clock times moved: "Move every meeting in schedule.csv 30 minutes later", "shift the times ... by 1 hour earlier"
SHIFT_ASKED = re.compile(r"\b(?:move|shift|push|put|make|set)\b(?:[^.?!]|\.(?=\w)){0,60}?\b(?:by\s+)?(?P<n>\d+(?:\.5)?)"
                         r"\s*(?P<unit>minutes?|mins?|hours?|hrs?|h)\s+(?P<dir>later|earlier|forward|back)\b",
                         re.IGNORECASE)
_CLOCK_CELL = re.compile(r"^(\d{1,2}):([0-5]\d)$")


def times_shifted(goal: str, text: str) -> tuple[str, str] | None:
    """``(how, text)`` when ``goal`` moves the clock times of a CSV file later or earlier
    (:data:`SHIFT_ASKED`): the one column of "09:00" times (or the one a goal word
    names), each moved by the minutes or hours said (past midnight it wraps), written
    as it was ("9:00" stays without a leading zero); every other cell and row kept. None
    otherwise. Batch CZ at 64fba22 (CZE): "Move every meeting in schedule.csv 30 minutes
    later." was refused as a rename of the file, then handed off."""
    m = SHIFT_ASKED.search(goal)
    rows = _csv_rows(text) if m else None
    if not rows or len(rows) < 2:
        return None
    clocks = [i for i in range(len(rows[0])) if all(
        i < len(r) and _CLOCK_CELL.match(r[i].strip()) for r in rows[1:] if r)]
    at = _csv_column(goal, rows[0])
    at = at if at in clocks else clocks[0] if len(clocks) == 1 else None
    if at is None:
        return None
    minutes = round(float(m.group("n")) * (60 if m.group("unit").lower().startswith("h") else 1))
    minutes = -minutes if m.group("dir").lower() in ("earlier", "back") else minutes

    def change(cell: str) -> str:
        hh, mm = _CLOCK_CELL.match(cell.strip()).groups()
        total = (int(hh) * 60 + int(mm) + minutes) % 1440
        return f"{total // 60:0{len(hh)}d}:{total % 60:02d}"

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(rows[0])
    for row in rows[1:]:
        if row:
            writer.writerow([change(v) if i == at else v for i, v in enumerate(row)])
    word = "later" if minutes > 0 else "earlier"
    return f"with every {rows[0][at]} {abs(minutes)} minutes {word}", out.getvalue()


#: a column moved: "Move the email column of people.csv to the front", "put the city column last"
COLUMN_MOVE_ASKED = re.compile(r"\b(?:move|put|place|shift)\s+(?:the\s+)?(?P<col>[\w ]{1,30}?)\s+column\b"
                               r"(?:[^.?!]|\.(?=\w)){0,40}?\b(?:(?P<front>to\s+the\s+(?:front|start|beginning|left)|"
                               r"first)|(?P<end>to\s+the\s+(?:end|back|right)|last))\b", re.IGNORECASE)


def column_moved(goal: str, text: str) -> tuple[str, str] | None:
    """``(how, text)`` when ``goal`` moves a column of the CSV file ``text`` is to the
    front or the end (:data:`COLUMN_MOVE_ASKED`, the column named by its header), every
    cell going with it; None otherwise. Batch CZ at 64fba22 (CZJ): "Move the email column
    of people.csv to the front." renamed files (none held "email"), then handed off."""
    m = COLUMN_MOVE_ASKED.search(goal)
    rows = _csv_rows(text) if m else None
    if not rows or len(rows) < 2:
        return None
    want = m.group("col").strip().lower()
    at = next((i for i, h in enumerate(rows[0]) if h.strip().lower().replace("_", " ") in (
        want, want.split()[-1])), None)
    if at is None:
        return None
    front = m.group("front") is not None
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in rows:
        if row:
            cells = row + [""] * (len(rows[0]) - len(row))
            rest = cells[:at] + cells[at + 1:]
            writer.writerow([cells[at], *rest] if front else [*rest, cells[at]])
    new = out.getvalue()
    return (f"with its {rows[0][at]} column {'first' if front else 'last'}", new) \
        if new.rstrip("\n") != text.rstrip("\n") else None


#: one line moved to the top or the end of a text file: "Move the line 'Pay rent' to the top of todo.txt."
LINE_MOVE_ASKED = re.compile(r"\b(?:move|put|place|shift|bring)\s+(?:the\s+)?(?:line\s+|item\s+|entry\s+|task\s+)?"
                             r"[\"'\u2018\u201c](?P<line>[^\"\u2019\u201d]{1,80}?)[\"'\u2019\u201d]\s+"
                             r"(?:line\s+|item\s+|entry\s+)?(?:to\s+the\s+|at\s+the\s+)?"
                             r"(?:(?P<top>top|start|beginning|front)|(?P<end>bottom|end|back))\b", re.IGNORECASE)


def line_moved(goal: str, text: str) -> tuple[str, str] | None:
    """``(how, text)``: ``text`` with the one line the goal quotes (:data:`LINE_MOVE_ASKED`;
    a list marker and case aside) moved first (below a Markdown title) or last, every
    other line kept in its order; None when no one line is it or nothing would change. Batch EZ at 865c16b
    (EZF): "Move the line 'Pay rent' to the top of todo.txt." was taken for a rename."""
    m = LINE_MOVE_ASKED.search(goal)
    if m is None:
        return None
    lines = text.rstrip("\n").split("\n")
    want = m.group("line").strip().lower()
    at = [i for i, ln in enumerate(lines) if re.sub(r"^\s*(?:[-*+]\s+(?:\[[ xX]\]\s+)?|\d+[.)]\s+)", "",
                                                      ln).strip().lower() == want]
    if len(at) != 1:
        return None
    line, rest = lines[at[0]], lines[:at[0]] + lines[at[0] + 1:]
    head = 1 if rest and rest[0].lstrip().startswith("#") and not line.lstrip().startswith("#") else 0  # a title
    out = [*rest[:head], line, *rest[head:]] if m.group("top") else [*rest, line]
    new = "\n".join(out) + "\n"
    where = "first" if m.group("top") else "last"
    return (f"with the line {line.strip()!r} {where}", new) if out != lines else None


#: a Markdown section taken out whole: "Delete the section Old ideas from notes.md, its heading and all of its lines",
#: "Remove the Old ideas section from notes.md"
_QUOTE_OPEN, _QUOTE_SHUT = "[\"'\u201c\u2018]?", "[\"'\u201d\u2019]?"
_SECTION_DROP = re.compile(
    r"\b(?:delete|remove|drop|take\s+out|cut|get\s+rid\s+of)\s+(?:the\s+(?:whole\s+)?)?(?:"
    rf"(?:section|part|heading|chapter)\s+(?:called\s+|named\s+|titled\s+)?{_QUOTE_OPEN}"
    rf"(?P<a>[^\"'\u201d\u2019.,;:!?]{{1,60}}?){_QUOTE_SHUT}"
    rf"|{_QUOTE_OPEN}(?P<b>[^\"'\u201d\u2019.,;:!?]{{1,60}}?){_QUOTE_SHUT}\s+(?:section|part|chapter))"
    r"\s+(?:from|of|in)\s+[\w./-]+\.md\b", re.IGNORECASE)
_MD_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def section_removed(goal: str, text: str) -> tuple[str, str] | None:
    """``(how, text)``: the Markdown text without the section ``goal`` takes out
    (:data:`_SECTION_DROP`): its heading line and every line up to the next heading of
    the same or a higher level; None when no heading line is that name (spaces and
    letter case aside), or several are. Batch KZ at 6a1c8bc (KZH): the heading was
    deleted and its lines left."""
    m = _SECTION_DROP.search(goal)
    if m is None:
        return None
    name = " ".join((m.group("a") or m.group("b")).split()).casefold()
    lines = text.split("\n")
    heads = [(i, len(h.group(1))) for i, line in enumerate(lines) if (h := _MD_HEADING.match(line))
             and " ".join(h.group(2).split()).casefold() == name]
    if len(heads) != 1:
        return None
    at, level = heads[0]
    end = next((j for j in range(at + 1, len(lines))
                if (h := _MD_HEADING.match(lines[j])) and len(h.group(1)) <= level), len(lines))
    kept = lines[:at] + lines[end:]
    while at < len(kept) and at > 0 and not kept[at - 1].strip() and not kept[at].strip():
        del kept[at]  # the blank line the section stood between, once
    return f"without its section {m.group('a') or m.group('b')!r} (the heading and its lines)", "\n".join(kept)


def rewritten_lines(goal: str, text: str) -> tuple[str, str] | None:
    """``(how, text)``: the text file's lines as the goal asks them rewritten: one column
    of a CSV file (:func:`column_rewritten`) when the goal names a column of it, else
    by letter case (:func:`cased_lines`), with lines taken out (:func:`kept_lines`) or
    with its dates written another way (:func:`redated_lines`); None when it asks none
    of them or nothing would change."""
    if rewrite_asked(goal).lower().endswith(".csv"):
        if _TEMP_ASKED.search(goal):
            return temperatures_converted(goal, text)
        if SHIFT_ASKED.search(goal):
            return times_shifted(goal, text)
        if COLUMN_MOVE_ASKED.search(goal):
            return column_moved(goal, text)
        rows = _csv_rows(text) or [[]]
        scaled = scale_factor(goal) is not None or addend(goal) is not None
        if (_CASE_ASKED.search(goal) or _ROUND_ASKED.search(goal) or _FILL_ASKED.search(goal) or scaled
                or pad_width(goal) is not None) and (_csv_target(goal, rows, scaled) is not None
                                                     or _HEADER_SAID.search(goal)) \
                or _TRIM_ASKED.search(goal) or _cell_swap(goal):
            return column_rewritten(goal, text)
        removed = rows_removed(goal, text) or column_split(goal, text) or columns_merged(goal, text) \
            or latest_rows(goal, text)
        if removed is not None:
            return removed
    if LINE_MOVE_ASKED.search(goal):
        return line_moved(goal, text)
    if _SECTION_DROP.search(goal):
        return section_removed(goal, text)
    return cased_lines(goal, text) or kept_lines(goal, text) or redated_lines(goal, text) \
        or numbered_lines(goal, text) or reversed_lines(goal, text) or joined_lines(goal, text) \
        or headings_shifted(goal, text) or redacted(goal, text)


def rewrite_asked(goal: str) -> str:
    """The one text file (.txt, .md, .csv) a goal that changes letter case, takes empty
    or repeated lines out or writes the dates another way names, or the one CSV file a
    goal that rounds a column, fills its empty cells, splits one or takes rows out of names
    ("" otherwise)."""
    files = [f for f in goal_files(goal)[1] if f.lower().endswith(_TEXT_FILES)]
    asked = _CASE_ASKED.search(goal) or _DROP_ASKED.search(goal) or _REDATE_ASKED.search(goal) \
        or LINE_MOVE_ASKED.search(goal) or (
            (_NUMBER_ASKED.search(goal) or _reverse_asked(goal) or _ONE_LINE_ASKED.search(goal)
             or _HEADING_SHIFT_ASKED.search(goal) or _REDACT_ASKED.search(goal) or _SECTION_DROP.search(goal))
            and not re.search(r"\.csv\b", goal) and not goal_files(goal)[0]) or (  # in place, not into another file
        (_ROUND_ASKED.search(goal) or _rows_bound_said(goal) or _SPLIT_ASKED.search(goal) or _FILL_ASKED.search(goal)
         or _join_asked(goal) or _TEMP_ASKED.search(goal) or SHIFT_ASKED.search(goal) or COLUMN_MOVE_ASKED.search(goal)
         or scale_factor(goal) is not None or addend(goal) is not None or _TRIM_ASKED.search(goal)
         or _cell_swap(goal) or _LATEST_ASKED.search(goal) or pad_width(goal) is not None)
        and files
        and files[0].lower().endswith(".csv"))
    return files[0] if asked and len(files) == 1 else ""


#: a table written out as a Markdown table: "Write products.csv as a Markdown table into products.md"
_MD_TABLE_ASKED = re.compile(r"\b(?:markdown|md)\s+table\b", re.IGNORECASE)


def markdown_table_asked(goal: str) -> tuple[str, str] | None:
    """``(source, output)`` when ``goal`` asks for the rows of one CSV (TSV) file it names
    as a Markdown table in one .md file it asks to write (:data:`_MD_TABLE_ASKED`); None
    otherwise."""
    if not _MD_TABLE_ASKED.search(goal):
        return None
    outputs, inputs = goal_files(goal)
    mds = [o for o in outputs if o.lower().endswith(".md")]
    sources = [i for i in inputs if i.lower().endswith((".csv", ".tsv"))]
    return (sources[0], mds[0]) if len(mds) == 1 and len(sources) == 1 else None


def markdown_table(text: str, tab: bool = False) -> str | None:
    """The rows of CSV (``tab``: TSV) text as a Markdown table: its first row the header,
    then a ``---`` row, each cell stripped and its "|" escaped; None when it has no rows."""
    try:
        rows = [[c.strip() for c in r] for r in csv.reader(io.StringIO(text), delimiter="\t" if tab else ",")
                if any(c.strip() for c in r)]
    except csv.Error:
        return None
    if not rows:
        return None
    width = max(len(r) for r in rows)

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells + [""] * (width - len(cells))) + " |"
    return "\n".join([line(rows[0]), line(["---"] * width), *(line(r) for r in rows[1:])]) + "\n"


def _markdown_rows(text: str) -> list[list[str]]:
    """The rows of the Markdown table lines of ``text`` ("|" lines), each cell stripped,
    its ``---`` row left out."""
    rows = []
    for ln in text.splitlines():
        ln = ln.strip()
        if not ln.startswith("|"):
            continue
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", ln.strip("|"))]
        if all(re.fullmatch(r":?-{3,}:?", c) for c in cells):
            continue
        rows.append(cells)
    return rows


#: a table turned around, its rows as columns: "Transpose table.csv into flipped.csv", "Swap the rows and columns of
#: scores.csv", "Save it turned around as by_student.csv: a first column student, then one column per subject"
_TRANSPOSE_ASKED = re.compile(r"\b(?:transpos\w*|swap(?:ped|ping)?\s+(?:the\s+|its\s+)?rows\s+and\s+(?:the\s+)?columns|"
                              r"rows\s+(?:become|as)\s+(?:the\s+)?columns|columns\s+(?:become|as)\s+(?:the\s+)?rows|"
                              r"turn(?:ed|ing)?\s+(?:it\s+|the\s+table\s+)?(?:a)?round(?=.*\bcolumns?\b))\b",
                              re.IGNORECASE | re.DOTALL)
_FIRST_COLUMN = re.compile(r"\bfirst\s+column\s+(?:called\s+|named\s+)?[\"'`]?([A-Za-z_][\w ]{0,30}?)[\"'`]?"
                           r"(?=[,.;:)]|\s+(?:then|and|with|followed)\b|$)", re.IGNORECASE)


def transpose_asked(goal: str) -> tuple[str, str] | None:
    """``(source, output)`` when ``goal`` asks for the one CSV file it names turned around
    (:data:`_TRANSPOSE_ASKED`: rows as columns) in another CSV file; None otherwise."""
    return _csv_into_csv(goal) if _TRANSPOSE_ASKED.search(goal) else None


def _csv_into_csv(goal: str) -> tuple[str, str] | None:
    """``(source, output)``: the one CSV file ``goal`` names as an input and the one it asks
    written; None unless it names exactly one of each."""
    outputs, inputs = goal_files(goal)
    outs = [o for o in outputs if o.lower().endswith(".csv")]
    ins = [i for i in inputs if i.lower().endswith(".csv") and i not in outs]
    return (ins[0], outs[0]) if len(ins) == 1 and len(outs) == 1 else None


def transposed(goal: str, text: str) -> str | None:
    """The CSV text of table ``text`` turned around: its header's cells (but the first)
    down the first column, its first column's cells across the header, under the name
    the goal gives the first column ("a first column student"; else the table's first
    header cell); None when ``text`` is no table of at least two rows and columns with
    one cell per header column. Batch IZ at 2081e47 (IZB): marks.csv (a row per subject)
    "turned around as by_student.csv" was written as one student's marks, and done."""
    rows = [r for r in (_csv_rows(text) or []) if any(c.strip() for c in r)]
    if len(rows) < 2 or len(rows[0]) < 2 or any(len(r) != len(rows[0]) for r in rows):
        return None
    named = _FIRST_COLUMN.search(goal)
    first = named.group(1).strip() if named else rows[0][0]
    flipped = [[first, *(r[0] for r in rows[1:])]] + [[rows[0][j], *(r[j] for r in rows[1:])]
                                                       for j in range(1, len(rows[0]))]
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(flipped)
    return out.getvalue()


#: a wide table written long, one row per cell: "Write it to sales_long.csv with the columns product, month and
#: amount, one row for each product and month", "Unpivot wide.csv into long.csv"
_UNPIVOT_ASKED = re.compile(r"\bone\s+row\s+(?:for|per)\s+(?:each|every)\s+\w+\s+and\s+(?:each\s+|every\s+)?\w+\b|"
                            r"\bun-?pivot\w*|\b(?:from\s+)?wide\s+(?:format\s+)?(?:to|into)\s+long\b|\blong\s+format\b",
                            re.IGNORECASE)


def unpivot_asked(goal: str) -> tuple[str, str] | None:
    """``(source, output)`` when ``goal`` asks for the one CSV file it names written long
    (:data:`_UNPIVOT_ASKED`: one row for each of its cells) into another CSV file; None
    otherwise."""
    return _csv_into_csv(goal) if _UNPIVOT_ASKED.search(goal) else None


def unpivoted(goal: str, text: str) -> str | None:
    """The CSV text of wide table ``text`` written long: one row for each cell but the
    first column's, (its row's first cell, its column's name, its value), row by row,
    under the three column names the goal gives (:func:`table_goal.goal_columns`; else the
    first header cell, "column" and "value"); None when ``text`` is no table of at least
    two rows and three columns with one cell per header column. Batch JZ at 02d32bb
    (JZJ): sales_wide.csv "with the columns product, month and amount" was written as
    "product,sum(jan)" and three rows, and done."""
    from .table_goal import goal_columns

    rows = [r for r in (_csv_rows(text) or []) if any(c.strip() for c in r)]
    if len(rows) < 2 or len(rows[0]) < 3 or any(len(r) != len(rows[0]) for r in rows):
        return None
    named = goal_columns(goal)
    header = named if len(named) == 3 else [rows[0][0], "column", "value"]
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(
        [header] + [[r[0], rows[0][j], r[j]] for r in rows[1:] for j in range(1, len(rows[0]))])
    return out.getvalue()


def markdown_to_csv_asked(goal: str) -> tuple[str, str] | None:
    """``(source, output)`` when ``goal`` asks the table of the one Markdown file it names
    saved as the one CSV file it asks written; None otherwise."""
    outputs, inputs = goal_files(goal)
    outs = [o for o in outputs if o.lower().endswith(".csv")]
    ins = [i for i in inputs if i.lower().endswith(".md")]
    return (ins[0], outs[0]) if len(ins) == 1 and len(outs) == 1 and re.search(r"\btable\b", goal, re.I) else None


def markdown_table_rows(goal: str, text: str) -> str | None:
    """The CSV text of the first Markdown pipe table of ``text``: its header row first,
    the alignment row ("|:---|---:|") left out, each cell's padding taken off; None when
    the text has no table of a header and at least one row, each with the header's cells.
    Batch KZ at 6a1c8bc (KZJ): "Save the table in report.md as a CSV file table.csv" was
    read as writing report.md, and nothing was written."""
    block: list[str] = []
    for line in text.splitlines():
        if line.strip().startswith("|"):
            block.append(line.strip())
        elif block:
            break
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in block]
    rows = [r for r in rows if not all(re.fullmatch(r":?-{2,}:?", c) for c in r)]
    if len(rows) < 2 or any(len(r) != len(rows[0]) for r in rows):
        return None
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


class DerivedFile(NamedTuple):
    """A CSV file the goal asks made from another, the harness's to work out: ``asked``
    (goal -> (source, output) or None), ``derive`` ((goal, source text) -> output text
    or None) and ``what`` ("turned around (its rows as columns)")."""

    asked: Callable[[str], tuple[str, str] | None]
    derive: Callable[[str, str], str | None]
    what: str


#: the derived files the harness knows: the read of the source offers the write, the finish checks the output
DERIVED_FILES = (DerivedFile(transpose_asked, transposed, "turned around (its rows as columns)"),
                 DerivedFile(unpivot_asked, unpivoted, "written long (one row for each of its cells)"),
                 DerivedFile(markdown_to_csv_asked, markdown_table_rows, "as CSV (its Markdown table's rows)"))


def derived_file(goal: str) -> tuple[DerivedFile, str, str] | None:
    """``(kind, source, output)`` of the first of :data:`DERIVED_FILES` ``goal`` asks for; None
    when it asks none."""
    for kind in DERIVED_FILES:
        asked = kind.asked(goal)
        if asked is not None:
            return kind, asked[0], asked[1]
    return None


def _derived_not_written(ev: Evidence) -> str:
    """A doubt when the goal asks for a CSV file made from another (:func:`derived_file`:
    turned around, written long) and that file does not hold it so ("" otherwise), with
    the write that makes it so."""
    found = derived_file(ev.goal)
    if found is None:
        return ""
    kind, source, output = found
    text = _text_now(ev, source)
    want = kind.derive(ev.goal, text) if text is not None else None
    if want is None:
        return ""
    now = _text_now(ev, output) if (Path(ev.workspace) / output).is_file() else ""

    def cells(t: str) -> list[list[str]]:
        return [[c.strip() for c in r] for r in (_csv_rows(t) or []) if any(c.strip() for c in r)]
    if now is not None and cells(now) == cells(want):
        return ""
    return (f"the task asks for {source} {kind.what} in {output}, and {output} does not hold it so; "
            f"{call_to_copy('write_file', {'path': output, 'content': want})}")


def _markdown_table_not_written(ev: Evidence) -> str:
    """A doubt when the goal asks for a CSV file's rows as a Markdown table in a .md file
    (:func:`markdown_table_asked`) and that file does not hold them as one ("" otherwise),
    with the write that makes it so. Batch DZ at a3c921a (DZH): "Write the table in
    products.csv as a Markdown table into products.md." copied the CSV text with
    combine_files and finished."""
    asked = markdown_table_asked(ev.goal)
    if asked is None:
        return ""
    source, out = asked
    text = _text_now(ev, source)
    want = markdown_table(text, source.lower().endswith(".tsv")) if text is not None else None
    if want is None:
        return ""
    now = _text_now(ev, out) if (Path(ev.workspace) / out).is_file() else ""
    if now is not None and _markdown_rows(now) == _markdown_rows(want):
        return ""
    return (f"the task asks for the rows of {source} as a Markdown table in {out}, and {out} does not hold them so; "
            f"{call_to_copy('write_file', {'path': out, 'content': want})}")


def _lines_not_rewritten(ev: Evidence) -> str:
    """A doubt when the goal rewrites a text file's lines (:func:`rewritten_lines`, on
    the text this task first read) and the file does not hold that now ("" otherwise),
    with the write that makes it so."""
    rel = rewrite_asked(ev.goal)
    before = original_text(rel, ev.calls) if rel else None
    asked = rewritten_lines(ev.goal, before + "\n") if before is not None else None
    if asked is None:
        return ""
    now = _text_now(ev, rel)
    if now is None:
        return ""
    how, want = asked
    if now.rstrip("\n") == want.rstrip("\n"):
        return ""
    return (f"the task asks for {rel} {how}, and {rel} does not hold that now; "
            f"{call_to_copy('write_file', {'path': rel, 'content': want})}")


#: the lines of every file of a folder put into one: "Combine the lines of all .txt files in the todo folder into one
#: new file todo/all.txt"
_COMBINE_ASKED = re.compile(r"\b(?:combine|merge|concatenate|join|put\s+together|collect)\b(?:[^.?!]|\.(?=\w)){0,60}?"
                            r"\ball\s+(?:the\s+|my\s+)?(?:\.?(?P<ext>txt|md|csv)\s+)?files\b", re.IGNORECASE)


def _combined_lines_missing(ev: Evidence) -> str:
    """A doubt when the goal asks for the lines of all (.txt) files of one folder it names
    combined into one text file it asks for (:data:`_COMBINE_ASKED`), and that file
    leaves out a line one of them holds ("" otherwise), with the write that holds them
    all (the files in name order). The whole pass at 238dd43 (files_merge_todos): one
    of three files read, its two lines written to todo/all.txt, and done."""
    m = _COMBINE_ASKED.search(ev.goal)
    outputs = [o for o in goal_files(ev.goal)[0] if o.lower().endswith((".txt", ".md"))]
    folders = goal_folders(ev.goal, ev.workspace)
    if m is None or len(outputs) != 1 or len(folders) != 1:
        return ""
    root, out = Path(ev.workspace), norm_path(outputs[0])
    ext = "." + (m.group("ext") or "txt").lower()
    sources = sorted(p for p in (root / folders[0]).iterdir()
                     if p.is_file() and p.suffix.lower() == ext and norm_path(str(p.relative_to(root))) != out)
    if not sources or len(sources) > 50:
        return ""
    texts = [_text_now(ev, str(p.relative_to(root))) for p in sources]
    now = _text_now(ev, out) if (root / out).is_file() else ""
    if now is None or any(t is None for t in texts):
        return ""
    have = {ln.strip().lower() for ln in now.splitlines()}
    missing = [(p.name, ln.strip()) for p, t in zip(sources, texts) for ln in (t or "").splitlines()
               if ln.strip() and ln.strip().lower() not in have]
    if not missing:
        return ""
    want = "\n".join(ln.strip() for t in texts for ln in (t or "").splitlines() if ln.strip()) + "\n"
    left = ", ".join(f"{line!r} ({name})" for name, line in missing[:4]) + (" ..." if len(missing) > 4 else "")
    return (f"the task asks for the lines of all {len(sources)} {ext} files in {folders[0]} in {out}, and it leaves "
            f"out {left}; {call_to_copy('write_file', {'path': out, 'content': want})}")


def _text_now(ev: Evidence, rel: str) -> str | None:
    """The text workspace file ``rel`` holds now, None when it cannot be read as UTF-8."""
    try:
        return (Path(ev.workspace) / rel).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def original_text(rel: str, calls: Sequence[CallRecord]) -> str | None:
    """The text of workspace file ``rel`` as this task's first whole read_file showed it
    (before any change), or None."""
    for c in calls:
        if c.name == "read_file" and c.status == "done" and not c.error and c.result \
                and norm_path(str(c.arguments.get("path", ""))) == norm_path(rel):
            body = re.sub(r"\A\(The text below[^\n]*\n", "", _data_of(c.result).lstrip("\n")).rstrip("\n")
            view = read_view(body)
            if view is not None and not re.search(r", lines \d+-\d+$", view[0]):
                return view[1]
    return None


def _lines_not_removed(ev: Evidence) -> str:
    """A doubt when the goal removes the line of something from a file this task changed
    (:func:`lines_to_remove`, on the text the task first read) and the file is not that
    text without those lines ("" otherwise), with the write that makes it so."""
    m = _LINE_TO_REMOVE.search(ev.goal)
    texts = _changed_text(ev, m.group("file") if m else "")
    if texts is None:
        return ""
    rel, before, now = texts
    asked = lines_to_remove(ev.goal, before)
    if asked is None:
        return ""
    _, what, held = asked
    want = [ln for ln in before.splitlines() if ln not in held]
    if [ln for ln in now.splitlines() if ln.strip()] == [ln for ln in want if ln.strip()]:
        return ""
    args = {"path": rel, "content": "\n".join(want) + "\n"}
    lines = f"the line of {what!r} ({held[0]!r})" if len(held) == 1 else f"the {len(held)} lines holding {what!r}"
    return (f"the task removes {lines} from {rel} and keeps the others as they were, and "
            f"{rel} does not hold that now; {call_to_copy('write_file', args)}")


#: "staff.csv already contains the line "Cy,IT"": a file said to hold a quoted text
_SAYS_FILE_HOLDS = re.compile(r"(?P<file>[\w./-]+\.[A-Za-z]\w{1,4})\b[^.!?\n]{0,40}?\b(?:contains?|holds?|has|"
                              r"includes?|lists?|shows?)\b[^.!?\n\"'\u201c]{0,30}[\"'\u201c]"
                              r"(?P<text>[^\"'\u201d\n]{3,80})[\"'\u201d]", re.IGNORECASE)


def _claims_file_holds(answer: str, ev: Evidence) -> str:
    """A doubt when the answer says a workspace text file holds a quoted text (not
    negated: "no longer contains" says the opposite) and the file does not hold it (""
    otherwise). A held-out task at 391db25: Cy's row removed right, then "I don't have
    a final answer to give, as the staff.csv file already contains the line "Cy,IT"."
    finished the task."""
    for m in _SAYS_FILE_HOLDS.finditer(answer):
        if _NEGATED.search(m.group(0)) or re.search(r"\bno longer\b", m.group(0), re.IGNORECASE):
            continue
        try:
            text = (Path(ev.workspace) / norm_path(m.group("file"))).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError, ValueError):
            continue
        said = " ".join(m.group("text").split()).lower()
        if said not in " ".join(text.split()).lower():
            return (f"the answer says {m.group('file')} holds {m.group('text')!r}, and it does not; say what the "
                    "file holds now, as a read of it shows")
    return ""


def _item_not_added(ev: Evidence) -> str:
    """A doubt when the goal adds an item to a list file (:func:`item_to_add`) this
    task changed, and the file does not hold it ("" otherwise), with the edit to copy."""
    asked = item_to_add(ev.goal, ev.workspace)
    if asked is None or norm_path(asked[0]) not in {norm_path(p) for p in ev.touched}:
        return ""
    rel, item, last, line = asked
    args = {"path": rel, "old_text": last, "new_text": f"{last}\n{line}"}
    return f"the task adds {item!r} to {rel}, but {rel} does not hold it; {call_to_copy('edit_file', args)}"


def _item_left_open(ev: Evidence) -> str:
    """A doubt when the goal marks a to-do item done in a text file it names and that
    file still holds the item's open line (:func:`checkbox_to_tick`) ("" otherwise),
    with the edit that ticks it."""
    for rel in goal_files(ev.goal)[1]:
        try:
            text = (Path(ev.workspace) / rel).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        tick = checkbox_to_tick(ev.goal, text)
        if tick is not None:
            item, line, ticked = tick
            args = {"path": rel, "old_text": line.strip(), "new_text": ticked.strip()}
            return (f"the task marks {item!r} done, but {rel} still shows it open ({line.strip()!r}); "
                    f"{call_to_copy('edit_file', args)}")
    return ""


#: the first line of a read_file result: "todo.md (utf-8, 6 lines)", "a.txt (utf-8, 90 lines), lines 1-40"
_READ_HEADER = re.compile(r"^\S.*\((?:utf-8|[\w-]+), \d+ lines?\)(?:, lines \d+-\d+)?$")
_NUMBERED_LINE = re.compile(r"^\s*(\d{1,6})\t")


def read_view(text: str) -> tuple[str, str] | None:
    """``(header, text)`` when ``text`` is what read_file shows rather than a file's
    text: its header line ("todo.md (utf-8, 6 lines)", "" if left out) and every line
    after its number and a tab, numbered up from 1 (three lines or more without the
    header); ``text`` with both taken away. None otherwise. A held-out task at 1de0702
    wrote todo.md as read_file had shown it."""
    lines = text.split("\n")
    header = lines[0].strip() if lines and _READ_HEADER.match(lines[0].strip()) else ""
    body = lines[1:] if header else lines
    while body and not body[-1].strip():
        body = body[:-1]
    numbers = [_NUMBERED_LINE.match(ln) for ln in body]
    if not body or not all(numbers) or (not header and len(body) < 3):
        return None
    counted = [int(n.group(1)) for n in numbers]
    if counted != list(range(counted[0], counted[0] + len(counted))):
        return None
    return header, "\n".join(ln[n.end():] for ln, n in zip(body, numbers))


def _change_told_backwards(answer: str, goal: str) -> str:
    """A doubt when the goal asks to change text "from X to Y" and the answer says the
    change went "from Y to X" ("" otherwise). A held-out task at 1de0702 changed 1
    December 2026 to 8 December 2026 in letter.docx, and answered "The date in
    letter.docx was changed from 8 December 2026 to 1 December 2026."."""
    change = text_change(goal)
    if change is None:
        return ""
    old, new = (re.escape(" ".join(t.split())).replace(r"\ ", r"\s+") for t in change)
    if not re.search(rf"\bfrom\s+['\"]?{new}['\"]?\s+(?:to|into|with)\s+['\"]?{old}(?![\w-])", answer, re.IGNORECASE):
        return ""
    return (f"the answer says {change[1]!r} was changed to {change[0]!r}, the other way round: the task changes "
            f"{change[0]!r} to {change[1]!r}; say what the file holds now")


_EVERYWHERE = re.compile(r"\b(all|every|each|everywhere|throughout|wherever)\b", re.IGNORECASE)


_MAGIC = {".xlsx": (b"PK", "Excel workbook"), ".docx": (b"PK", "Word document"),  # both are zip files
          ".pdf": (b"%PDF", "PDF")}


def _not_its_kind(path: Path) -> str:
    """The kind of document ``path``'s extension names ("Excel workbook") when the
    file does not start like one; "" when it does, or is no such document or missing."""
    magic, kind = _MAGIC.get(path.suffix.lower(), (b"", ""))
    if not magic or not path.is_file():
        return ""
    try:
        with path.open("rb") as f:
            head = f.read(len(magic) + 1024)
    except OSError:
        return ""
    return "" if head.startswith(magic) or (magic == b"%PDF" and magic in head) else kind


#: a question for the to-do lines not done yet: "Which tasks in tasks.md are not done yet?", "What is still open?"
_OPEN_ASKED = re.compile(r"\b(?:not\s+(?:yet\s+)?(?:done|finished|completed?|ticked|checked)|still\s+(?:open|to\s+do|"
                         r"pending|left)|open|pending|unfinished|undone|left\s+to\s+do|outstanding|remaining|"
                         r"incomplete|to\s+do)\b", re.IGNORECASE)
_DONE_BOX = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s*\[[xX]\](?P<rest>.*)$")


def open_items(goal: str, path: str, text: str) -> tuple[list[str], list[str]] | None:
    """``(open, done)``: the items of the Markdown to-do lines of ``text`` (the file
    ``path``, which ``goal`` names) not ticked ("- [ ] Renew passport") and ticked
    ("- [x] Book flights"), when ``goal`` is a question for those not done yet and the
    file has both kinds or open ones only; None otherwise. A held-out task (QL) at
    5034895: "Which tasks in tasks.md are not done yet?" searched the web for "tasks"
    and paused on its step budget."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1].lower()
    if not asks_only_a_question(goal) or not _OPEN_ASKED.search(goal) or not name or name not in goal.lower():
        return None
    opened = [" ".join(b.group("rest").split()) for ln in text.splitlines() if (b := _OPEN_BOX.match(ln))]
    done = [" ".join(b.group("rest").split()) for ln in text.splitlines() if (b := _DONE_BOX.match(ln))]
    return (opened, done) if opened else None


def _open_items_missed(answer: str, ev: Evidence) -> str:
    """A doubt when the goal asks which to-do items of a file are not done yet
    (:func:`open_items`, on the file as it is) and the answer leaves one of them out or
    names a done one ("" otherwise), with the answer to copy."""
    for rel in goal_files(ev.goal)[1]:
        text = _text_now(ev, rel) if rel.lower().endswith((".md", ".txt")) else None
        items = open_items(ev.goal, rel, text) if text is not None else None
        if items is None:
            continue
        opened, done = items
        said = answer.lower()
        left = [i for i in opened if i.lower() not in said]
        wrong = [i for i in done if i.lower() in said and not any(i.lower() in o.lower() for o in opened)]
        if not left and not wrong:
            return ""
        what = f"leaves out {left[0]!r}" if left else f"names {wrong[0]!r}, which is ticked done"
        return (f"the task asks which items of {rel} are not done yet, and the answer {what}; it has "
                f"{len(opened)} lines not ticked ([ ]): {answer_to_copy('Not done yet: ' + ', '.join(opened) + '.')}")
    return ""
