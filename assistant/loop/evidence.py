"""What the finish checks rest on: the :class:`Evidence` an answer is checked
against, and the low-level helpers that the checks of several modules share.

Here: the numbers of a text and of its sources (``_numbers``, ``_source_numbers``,
and the two grounding tests ``number_problems`` and ``ungrounded_words``), the
files a goal names (``goal_files``, ``_paths``, ``norm_path``) and whether a call
of this task read one (``_was_read``, ``made_paths``), the text a call writes
(``_values``), the data inside a tool result's fence (``_FENCED``, ``_FENCE_LINE``,
``_data_of``, ``_results``), whether a goal only asks a question
(``asks_only_a_question``), and the regexes many checks use on the goal or the
answer (``_NOT_DONE``, ``_MUST_CHANGE``, ``_NOT_FOUND``, ``_WHICH_FILE``, ``_NUMBER``,
``_WORD`` ...). It imports none of the check modules; they import it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

from ..state.models import CallRecord
from .numbers import normalise_number

__all__ = ["Evidence", "SMALL_INTEGER", "number_problems", "goal_files", "asks_only_a_question", "norm_path",
           "NOT_READING", "made_paths", "ungrounded_words", "misgrouped_numbers", "result_gist"]


@dataclass
class Evidence:
    """What an answer may rest on.

    Attributes:
        goal: the user's goal text.
        user_texts: other words from the user (notes, answers to questions).
        calls: the task's call journal (only finished calls count).
        touched: workspace-relative paths changed by this task (written, moved to, ...).
        made: the paths among them that did not exist before this task (created, moved
            or copied to a free name): never an input the user gave.
        written: the paths among them whose content this task wrote (created or
            replaced, not moved or copied).
        workspace: the workspace folder.
        tool_names: names of the tools the model can call.
        extra_texts: other trusted sources of numbers (e.g. the date line of the system prompt).
        harness_texts: what the harness itself told the model (format help, corrections):
            an answer that repeats it is not an answer.
    """

    goal: str
    workspace: str | Path
    calls: Sequence[CallRecord] = ()
    touched: Iterable[str] = ()
    made: Iterable[str] = ()
    written: Iterable[str] = ()
    user_texts: Sequence[str] = ()
    tool_names: Sequence[str] = ()
    extra_texts: Sequence[str] = field(default_factory=tuple)
    harness_texts: Sequence[str] = field(default_factory=tuple)


# -- numbers -----------------------------------------------------------------
_NUMBER = re.compile(r"(?<![\w.])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w])|(?<![\w.])\.\d+(?![\w])")
_FILE_OR_URL = re.compile(r"https?://\S+|(?<![\w/.-])(?:[\w.-]+/)*[\w-][\w.-]*?\.[A-Za-z][A-Za-z0-9]{0,4}\b")
_LIST_MARKER = re.compile(r"^\s*\d+[.)]\s", re.MULTILINE)
SMALL_INTEGER = 10  # "3 files", "step 2": counts this small are not checked


def _numbers(text: str) -> list[str]:
    return [normalise_number(m.group(0)) for m in _NUMBER.finditer(text)]


_SCALED = re.compile(r"(\d+(?:\.\d+)?)\s*(million|mio|mn|m|billion|bn|thousand|k)\b", re.IGNORECASE)
_SCALE = {"million": 10**6, "mio": 10**6, "mn": 10**6, "m": 10**6, "billion": 10**9, "bn": 10**9,
          "thousand": 10**3, "k": 10**3}


def _source_numbers(texts: Iterable[str]) -> set[str]:
    """Every number in ``texts``, read both with and without thousands separators
    ("a,1,234" holds 1234, 1 and 234), and written out when a scale word follows
    ("7.85 million" holds 7850000 too); the untrusted-data fence lines do not count."""
    from decimal import Decimal

    found: set[str] = set()
    for text in texts:
        text = _FENCE_LINE.sub("", text)  # the fence's random marker ("a300f...") holds digits no file said
        found.update(_numbers(text))
        found.update(normalise_number(x) for x in re.findall(r"\d+(?:\.\d+)?", text))
        for m in _SCALED.finditer(text):  # pdf_find_figure at e03cee3: "7.85 million EUR" answered as 7,850,000
            found.add(normalise_number(format(Decimal(m.group(1)) * _SCALE[m.group(2).lower()], "f")))
    return found


_SUM_RESULT = re.compile(r"=\s*[$€£]?\s*(" + _NUMBER.pattern + ")")
_CLAUSE_START = re.compile(r"(?<!\d)[.;:!?\n](?!\d)")


def _checked_sums(text: str, seen: set[str]) -> set[str]:
    """The results of the sums ``text`` shows with their terms ("a total of 1034.0 +
    991.5 = 2025.5", terms with labels too: "Q1 1,034.00 + Q2 991.50 = 2,025.50"),
    normalised, when every term (the last number of each part between the plus signs,
    back to the start of the clause) is in ``seen`` and their sum, to the cent, is
    the result. The harness does the addition, not the model: xlsx_two_sheet_total at
    e1675c8, the right sum of two query lines was refused as worked out by hand."""
    out = set()
    for m in _SUM_RESULT.finditer(text):
        starts = [c.end() for c in _CLAUSE_START.finditer(text, 0, m.start())]
        parts = text[starts[-1] if starts else 0:m.start()].split("+")
        if len(parts) < 2:
            continue
        terms = [[normalise_number(x.group(0)) for x in _NUMBER.finditer(part)] for part in parts]
        if not all(terms) or any(t[-1] not in seen for t in terms):
            continue
        result = normalise_number(m.group(1))
        if abs(sum(float(t[-1]) for t in terms) - float(result)) < 0.005:
            out.add(result)
    return out


#: a number with commas that split it into groups other than thousands ("21,74.40")
_COMMA_GROUPED = re.compile(r"(?<![\w.,])\d{1,3}(?:,\d{1,3})+(?:\.\d+)?(?!\w|,\d)")


def misgrouped_numbers(answer: str, sources: Iterable[str]) -> list[tuple[str, str]]:
    """``(as written, as a source writes it)`` for each number of ``answer`` whose
    commas are not thousands separators but which, without them, is a number of
    ``sources``. csv_group_totals at 0417c73: Qwen 1.5B wrote the query's 2174.40 as
    "$21,74.40" (and three more so), was told 74.4 and 21 were in no tool result,
    and answered the same again until the task stalled."""
    text = _FILE_OR_URL.sub(" ", answer)
    found = [m.group(0) for m in _COMMA_GROUPED.finditer(text)
             if any(len(g) != 3 for g in m.group(0).split(".")[0].split(",")[1:])]
    if not found:
        return []
    seen = _source_numbers(sources)
    out = []
    for raw in found:
        plain = raw.replace(",", "")
        if normalise_number(plain) in seen and (raw, plain) not in out:
            out.append((raw, plain))
    return out


def number_problems(answer: str, sources: Iterable[str], *, amounts: bool = True) -> list[str]:
    """Numbers in ``answer`` that appear in none of ``sources`` (after
    normalising separators, currency signs, percent signs and trailing zeros).
    File names, URLs, list markers and integers up to :data:`SMALL_INTEGER` are not checked;
    such an integer written with a decimal point ("1.00") is, against numbers so written, unless
    ``amounts`` is False (cell values, where a model writes 2 as 2.0). The result of a
    sum shown with its terms ("1034.0 + 991.5 = 2025.5") counts as seen when every
    term is seen and the harness's own addition gives it (:func:`_checked_sums`)."""
    sources = list(sources)
    for raw, _ in misgrouped_numbers(answer, sources):  # a number a source holds, its commas misplaced: said apart
        answer = re.sub(rf"(?<![\w.,]){re.escape(raw)}(?!\w|,\d)", " ", answer)
    text = _LIST_MARKER.sub(" ", _FILE_OR_URL.sub(" ", answer))
    seen = _source_numbers(sources)
    seen = seen | _checked_sums(text, seen)
    decimals: set[str] | None = None
    out = []
    for m in _NUMBER.finditer(text):
        raw, n = m.group(0), normalise_number(m.group(0))
        if "." not in n and int(n) <= SMALL_INTEGER:
            if "." not in raw or not amounts:
                continue
            # "1.00" is an amount, not a count: pdf_find_figure at 6b05252, Qwen 1.5B answered a bare
            # "1.00" for the 7.85 million on page 3, and "--- page 1 ---" held a 1. Written with a
            # decimal point, it must come from a number written so too.
            if decimals is None:
                decimals = {normalise_number(x) for t in sources for x in re.findall(r"\d+\.\d+", _FENCE_LINE.sub("", t))}
            if n not in decimals and raw not in out:
                out.append(raw)
            continue
        if n not in seen and n not in out:
            parts = [normalise_number(x) for x in raw.split(",")] if "," in raw else []
            if parts and all(x in seen or ("." not in x and int(x) <= SMALL_INTEGER) for x in parts):
                # "INV-102,349.50 EUR" in CSV text is two cells, not 102,349.50 (multistep_invoices_memo at 04fe9b0:
                # refused for a number "102349.5" that no source held)
                continue
            out.append(n)
    return out


# -- files -----------------------------------------------------------------
_PATH = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w-][\w.-]*?\.(?:txt|md|csv|tsv|json|docx|xlsx|pdf|ics|html|py|yaml|"
                   r"yml|toml|cfg|ini|js|ts|css|sh|xml|log|gitignore))\b|(?<![\w/.-])(\.gitignore|\.env\w*)\b",
                   re.IGNORECASE)
_CREATE = re.compile(r"\b(creat\w*|writ\w*|wrote|sav\w*|mak\w*|generat\w*|produc\w*|export\w*|draft\w*|stor\w*|"
                     r"put|record\w*|add\w*|append\w*|build|set up|scaffold\w*|new)\b|\binto\b", re.IGNORECASE)
_READ = re.compile(r"\b(read|reads|reading|open|opens|opening|look|looking|check|checking|summari[sz]\w*|analy[sz]\w*|use|using|from|in|of|"
                   r"compare\w*|find|search\w*|based on|according to|how many|how much|what|which|whether)\b",
                   re.IGNORECASE)
_NEGATED = re.compile(r"\b(not|no|couldn'?t|cannot|can'?t|unable|missing|never|without)\b", re.IGNORECASE)


def _paths(text: str) -> list[tuple[int, str]]:
    out = []
    for m in _PATH.finditer(text):
        rel = (m.group(1) or m.group(2)).strip("`'\"")
        if rel.startswith("/") or "://" in text[max(0, m.start() - 8): m.start()]:
            continue
        out.append((m.start(), rel.lstrip("./") if rel.startswith("./") else rel))
    return out


def _sentence_before(text: str, pos: int) -> str:
    start = max(text.rfind(". ", 0, pos), text.rfind("\n", 0, pos), text.rfind(";", 0, pos), -1) + 1
    return text[start:pos]


#: the end of "write a short memo in", "save the totals in", "... to": a file named next is the one written
_WRITTEN_IN = re.compile(r"(?:\b(?:memo|note|notes|summary|report|reply|letter|answer|answers|result|results|total|"
                         r"totals|list|table|line|lines|row|rows|paragraph|paragraphs|text|it|them|points|bullets|"
                         r"sentences|items|e-?mail|mail|message|invitation|agenda|poem|story)"
                         r"(?:\s+(?:to|for)\s+(?:the\s+)?[\w-]+)?\s+in|\b(?:to|into))\s+"
                         r"(?:the\s+|a\s+)?(?:new\s+)?(?:file\s+)?[`'\"]?$", re.IGNORECASE)


def goal_files(goal: str) -> tuple[list[str], list[str]]:
    """``(outputs, inputs)``: files the goal asks to create and files it names to use.

    A named file is an output when the nearest verb before it in its clause is
    a creating one (create, write, save, ... or "into"); otherwise an input.
    """
    outputs, inputs = [], []
    for pos, rel in _paths(goal):
        before = _sentence_before(goal, pos)
        create = [m.end() for m in _CREATE.finditer(before)]
        read = [m.end() for m in _READ.finditer(before)]
        target = outputs if create and (not read or max(create) > max(read)) else inputs
        if target is inputs and create and _WRITTEN_IN.search(before):
            # "write a short memo in memo.md", "save the totals in totals.csv", "... to out.txt": the place written
            # (a held-out task at 15cf83c: memo.md counted as an input, the totals answered in the chat, memo.md
            # never written, and the task finished); not "the data in data.csv", nor one followed by "to X"
            between = before[max(create):]
            tail = goal[pos + len(rel):]
            clause = re.split(r"\.\s|;|\n", tail, maxsplit=1)[0]
            to_place = bool(re.search(r"\b(to|into)\s+(?:the\s+|a\s+)?(?:new\s+)?(?:file\s+)?[`'\"]?$", before,
                                      re.IGNORECASE))
            if to_place or (not [m for m in _READ.finditer(between) if m.group(0).lower() != "in"]
                            and not re.search(r"\b(to|into)\s+\S", clause, re.IGNORECASE)):
                target = outputs
        if target is outputs and create and _SAVED_AS_NEXT.match(goal[pos + len(rel):]):
            # "Save the table in report.md as a CSV file table.csv": report.md is read, table.csv written (batch KZ
            # at 6a1c8bc, KZJ: report.md taken for the file to write)
            target = inputs
        elif target is inputs and create and _SAVED_AS.search(before):
            target = outputs
        if target is inputs and _CONVERTED_TO.search(before):  # "Convert data.csv to an Excel file called
            # data.xlsx" (a held-out task at 1de0702: data.xlsx an input, no from_csv call offered)
            target = outputs
        if rel not in outputs and rel not in inputs:
            target.append(rel)
    return outputs, inputs


#: "... as a CSV file table.csv", "as notes.txt": the file named next is the one written
_SAVED_AS = re.compile(r"\bas\s+(?:a\s+|an\s+)?(?:new\s+)?(?:[\w-]+\s+){0,3}?(?:file\s+)?(?:called\s+|named\s+)?"
                       r"[`'\"]?$", re.IGNORECASE)
#: a file followed by "as ... other.ext" in its clause: it is the source of that one
_SAVED_AS_NEXT = re.compile(r"[`'\"]?\s+as\s+(?:a\s+|an\s+)?(?:new\s+)?(?:[\w-]+\s+){0,3}?(?:file\s+)?"
                            r"(?:called\s+|named\s+)?[`'\"]?[\w./-]+\.[A-Za-z][A-Za-z0-9]{1,4}\b", re.IGNORECASE)
#: "convert data.csv to (an Excel file called) ...": the file named next is the one made
_CONVERTED_TO = re.compile(r"\b(?:convert\w*|turn\w*|export\w*|transform\w*)\s+(?:the\s+)?\S+\.[A-Za-z0-9]{2,5}\s+"
                           r"(?:in)?to\b[^.;]{0,40}$", re.IGNORECASE)


_CHANGE = re.compile(
    r"\b(creat|writ|wrote|sav|stor|add(?!ress|s?\s+up\s+to\b)|append|insert|edit|chang|updat|modif|fix|correct|"
    r"replac|renam|mov|cop(y|ies)|"
    r"delet|remov|eras|sort|organi[sz]|tidy|clean|convert|export|merg|combin|split|schedul|book|generat|draft|fill|"
    r"remember|send|e-?mail|archiv|format|translat|summari[sz]|rewrit|repl(y|ies)|prepar|extract|download|upload|"
    r"install)\w*|\b(put|set|make|made|mark|log|plan|keep|build|turn|note (it|this|that|down)|record)s?\b",
    re.IGNORECASE)
_REQUEST = re.compile(r"\b(please|can you|could you|would you|will you|would you mind|i need you to|i want you to)\b",
                      re.IGNORECASE)


def asks_only_a_question(goal: str) -> bool:
    """True when ``goal`` is a question that asks for no change: it has a "?" (or asks
    to find, look up or tell something) and
    no verb of making or changing things (save, add, update, schedule, ...) and no
    request form ("can you", "please"); a verb whose subject is "I", "we" or "they"
    ("do I have to reply") is the user's, not a change asked for. Generous on purpose:
    a goal that might ask for a change is never counted as a question. A 1.5B model overwrote the lease
    it was asked "How much is the monthly rent in lease.docx?" with its answer."""
    # a change word inside a file's name is no change asked for (a held-out task at a367559: "How many times does the
    # word refund appear in emails.txt?" counted "emails" as one, and edit_file on emails.txt was not refused)
    names = [m.span() for m in _FILE_NAME_IN_GOAL.finditer(goal)]
    # a past participle in a wh-question describes, it asks nothing done (a held-out task (PJ) at 9fa21b4: "What
    # were Berlin's Q1 and Q2 sales combined in regions.xlsx?" counted "combined" as one, and Q3 was overwritten)
    described = bool(_WH_START.match(goal))
    return ("?" in goal or bool(_LOOK_UP.match(goal))) and not _REQUEST.search(goal) and not any(
        not _THEIR_OWN.search(goal, 0, m.start()) and not _A_NOUN.search(goal, 0, m.start())
        and not _DATA_SUBJECT.search(goal, 0, m.start())
        and not any(a <= m.start() < b for a, b in names) and not (described and m.group(0).lower().endswith("ed"))
        for m in _CHANGE.finditer(goal))


_WH_START = re.compile(r"\s*(what|which|who|whose|how|when|where|why)\b[^?]*\?\s*$", re.IGNORECASE)


_FILE_NAME_IN_GOAL = re.compile(r"[\w./-]*\w\.[A-Za-z][A-Za-z0-9]{0,4}\b")


#: a change word used as a noun: "Jonas's email address", "the draft", "my notes" (a held-out task at b3ff053:
#: "What is Jonas's email address? It's in team.xlsx." counted "email" and "address" as changes asked for, and
#: Mira's email in team.xlsx was overwritten with Jonas's)
#: a determiner before a change word makes it a noun: "the email", "no email address" (batch CZ at 64fba22, CZG:
#: "How many people ... have no email address?" was taken for a change, and no question check ran)
#: "Which email addresses ... are missing the @ sign?" (batch DZ at a3c921a, DZI: the same)
_A_NOUN = re.compile(r"(?:'s|\b(?:the|an?|his|her|their|my|your|our|its|whose|this|that|no|any|each|every|which|many|"
                     r"what))\s+$", re.IGNORECASE)


#: a question asked as a request to look something up: "Find the deadline in the PDFs in the reports folder." (a
#: held-out task at 953a220 read one of the two PDFs and answered "spring 2027", a review date, unchecked)
_LOOK_UP = re.compile(r"^\W*(find|look up|tell me|show me|give me|work out|figure out)\b", re.IGNORECASE)


#: a change verb whose subject is the user or a thing, not the assistant: "By when do I have to reply ...?" (a held-out
#: task at 9a8aa1a: counted as asking for a change, the question's offer.docx was rewritten four times), "what do
#: they add up to?"
_THEIR_OWN = re.compile(r"\b(i|we|they|it|he|she)\s+(?:[\w']+\s+){0,3}$", re.IGNORECASE)
#: a verb whose subject is the data, which it describes: "credit rows add money, debit rows take money out" (batch KZ
#: at 6a1c8bc, KZB: the balance question was not counted as a question, and no second query was asked)
_DATA_SUBJECT = re.compile(r"\b(?:rows|lines|entries|records|items|cells|values|amounts|columns)\s+$", re.IGNORECASE)


def norm_path(path: str) -> str:
    """A workspace path as the change journal writes it: "./a.txt" -> "a.txt", no trailing "/"."""
    return path.strip().lstrip("./").rstrip("/") if path.startswith("./") else path.strip().rstrip("/")


# tools that tell a file's name, size or pages, not what it says: a call of one is no read of the file
NOT_READING = frozenset({"pdf_info", "xlsx_info", "file_info", "list_dir", "find_files"})


def _was_read(rel: str, calls: Sequence[CallRecord], *, reads_only: bool = False) -> bool:
    """A call of this task read ``rel``'s contents (metadata tools do not count: Qwen 1.5B
    called pdf_info only, then said the figure was not in logistics-review.pdf)."""
    stem = Path(rel).stem.lower()
    for c in calls:
        if (c.data or {}).get("read_for_you") == rel:
            return True  # a refusal that showed the file (calls.CallRunner._read_first)
        if c.status != "done" or c.error or c.name in NOT_READING or (c.data or {}).get("repeat_of"):
            continue
        if reads_only and c.risk and c.risk != "read":
            continue  # an edit of the file is no read of it
        args = json.dumps(c.arguments, ensure_ascii=False).lower()
        if rel.lower() in args or Path(rel).name.lower() in args:
            return True
        if c.name == "table_query" and re.search(rf"\b{re.escape(stem)}\b", args):
            return True  # tables are named after their file
    return False


def made_paths(records: Iterable[dict[str, Any]]) -> list[str]:
    """The workspace paths a task's change records (``ChangeRecord`` dicts, oldest
    first) brought into being: created files, and move/copy destinations that
    were free. files_organise: the goal's example "inbox/pdf/scan.pdf" is made by
    the first move, and is no input to read before the second."""
    made: list[str] = []
    for r in records:
        if r.get("op") == "create" and r.get("path"):
            made.append(str(r["path"]))
        elif r.get("op") in ("move", "copy") and r.get("dest") and not r.get("dest_before_sha"):
            made.append(str(r["dest"]))
    return made


_PATH_KEYS = {"path", "src", "dest", "output", "source", "target", "file"}
# where and how a call writes, not what: docx_insert's after=0 made "Approved by: Dana Lee" (all in the
# goal) look like content of its own, and the insert was refused four times (docx_append_paragraph)
_LAYOUT_KEYS = {"after", "before", "paragraph", "index", "position", "max_count", "type", "kind", "style", "level"}


def _values(args: Any) -> list[str]:
    """The text a call writes: every value of its arguments but the paths and the layout."""
    if isinstance(args, dict):
        return [v for k, x in args.items() if k not in _PATH_KEYS | _LAYOUT_KEYS for v in _values(x)]
    if isinstance(args, list):
        return [v for x in args for v in _values(x)]
    return [] if args is None or isinstance(args, bool) else [str(args)]


_WHICH_FILE = re.compile(r"\b(which|what)\s+(text\s+)?(file|document)\b|\bfind\s+the\s+(text\s+)?(file|document)\b"
                         # "Which of the letters ... mention a refund?" (a held-out task at 93adf18)
                         r"|\bwhich\s+(?:of\s+(?:the|my|these|those)\s+)?\w+\b[^.?!]{0,60}?\b(?:mentions?|contains?|"
                         r"refers?\s+to|talks?\s+about)\b", re.IGNORECASE)


_NOT_TOPIC = frozenset("""somewhere folder folders file files text document documents path paths answer name
workspace directory find tell know which what where about there this with""".split())


_FENCED = re.compile(r"<<UNTRUSTED (\w+)[^\n]*>>\n?(.*?)<<END_UNTRUSTED \1>>", re.DOTALL)
_HARNESS_TOOLS = ("finish", "ask_human", "update_plan", "use_tools")
_NOT_FOUND = re.compile(r"\b(not (found|present|there|listed|mentioned)|no (such )?(file|match|result)s?|"
                        r"(could ?n[o']t|cannot|can't|unable to|did ?n[o']t|was ?n[o']t able to) (find|locate|see))\b",
                        re.IGNORECASE)


_MUST_CHANGE = re.compile(
    r"(^|[.,;:]\s+)\W*(please\s+)?(creat|writ|sav|add|append|insert|edit|chang|updat|modif|replac|renam|mov|cop(y|ies)|delet|"
    r"remov|sort|organi[sz]|convert|export|merg|combin|split|schedul|book|put|remember|tick|cross off|check off|"
    r"capitali[sz]"
    # "Keep only the most recently updated row for each person." (batch JZ at 02d32bb, JZF: a query's names
    # answered, the file left as it was, done), and the other rewrites a goal can open with
    r"|keep\s+(?:only|just)|leave\s+only|de-?dup|apply(?=\s)|(?:fill|round|trim|fix|correct|clean|reverse|redact|"
    r"anonymi[sz]e|swap|reorder|rewrite|transpose|unpivot|shift|indent|join|strip|translate)(?=\s)"
    # "Mark call the bank as done" (a held-out task at 1de0702 answered with the harness's hint), not "Mark's ..."
    r"|mark(?=\s[^.?!]{1,80}\bas\s+(?:done|complete|completed|finished|paid|read)\b)"
    # "Make a copy of report.docx called ..." (held-out MC at a367559: the copy made, the hint's call as the answer)
    r"|mak(?=e\s+(?:a\s+)?(?:\w+\s+)?cop(?:y|ies)\b))\w*\b", re.IGNORECASE)
_NOT_DONE = re.compile(r"\b(could ?n[o']t|cannot|can't|unable|did ?n[o']t|not able|not (done|possible|found))\b",
                       re.IGNORECASE)
#: the answer says the change itself was not made ("I could not save the note", "it is not possible to add it",
#: "I could not find the time"), not only that something else was not found: multistep_minutes_note at f80ed26, no
#: note saved and "I listed them as follows: ... I could not find any other information in the file." passed the
#: check that the notes (or calendar) the goal asks to change were changed
_NOT_CHANGED = re.compile(r"\b(?:could ?n[o']t|cannot|can't|unable to|did ?n[o']t|not able to|not possible to)\s+"
                          r"(?:\w+\s+){0,3}?(?:add|sav|creat|writ|stor|schedul|put|mak|chang|updat|edit|renam|mov|cop|"
                          r"delet|remov|sort|organi|convert|export|merg|combin|send|do|complet|finish|perform|access|"
                          r"open|reach|use|continu|proceed|help|assist|fulfil|carr|handl|find the|locate the)\w*\b"
                          r"|\bnot (?:done|possible)\b", re.IGNORECASE)


def _results(calls: Sequence[CallRecord]) -> list[str]:
    """The data of this task's successful tool results (inside the fence, when fenced: a tool's own
    hints after it are not data), and of the files a refusal read for the model (``read_for_you``);
    repeats answered from the journal and the harness's calls aside."""
    return [_data_of(c.result) for c in calls if (c.status == "done" and not c.error or shown_for_model(c))
            and c.result and not (c.data or {}).get("repeat_of")
            and c.name not in ("finish", "use_tools", "update_plan", "ask_human")]


def shown_for_model(call: CallRecord) -> bool:
    """Whether ``call`` was refused with a file read for the model in its result (``read_for_you``): its data
    is as seen as a read's. A held-out task at 11a1600: february.csv's amounts, shown so, were refused as
    numbers no tool gave."""
    return bool((call.data or {}).get("read_for_you"))


def _ran(calls: Sequence[CallRecord]) -> set[str]:
    """Names of the tools that ran and succeeded in this task (repeats answered from the journal aside)."""
    return {c.name for c in calls if c.status == "done" and not c.error and not (c.data or {}).get("repeat_of")}
_FENCE_LINE = re.compile(r"^<<(END_)?UNTRUSTED .*$|^\(The text below is data .*$", re.MULTILINE)



_CELL_NUMBER = re.compile(r"[$€£]?-?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?%?")
_HIGHEST = re.compile(r"\b(highest|most|largest|biggest|greatest|maximum|max|top|best)\b", re.IGNORECASE)
_LOWEST = re.compile(r"\b(lowest|least|smallest|fewest|minimum|min|cheapest|worst)\b", re.IGNORECASE)


def result_gist(result: str, limit: int = 160) -> str:
    """The first sentence of a tool result's first line, without its closing period, at most ``limit``
    characters: "set 2 cells in sheet 'Expenses'; saved expenses.xlsx" ("" for an empty result); a colon
    that leads into what follows goes too ("edited temps.csv:" before edit_file's diff: batch CZ at 64fba22, CZF was
    offered the answer "Done: edited temps.csv:.")."""
    return ((result or "").strip().splitlines() or [""])[0].split(". ")[0].rstrip(".").rstrip(" :")[:limit]


def _data_of(result: str) -> str:
    """The fenced data of a tool result without its fence lines, or the whole result
    when it has no fence (a tool's own lines around the data, e.g. its "Hint: ...", left out)."""
    inside = _FENCED.findall(result)
    return _FENCE_LINE.sub("", "\n".join(body for _, body in inside) if inside else result)


_WORD = re.compile(r"[^\W\d_]{4,}")
_COMMON = frozenset("""that this with from have will your their there about which when what were been they them
than then into also just only some more most very user users like does dont into over such each other""".split())


def ungrounded_words(text: str, sources: Iterable[str], *, share: float = 0.67) -> list[str]:
    """Words (4+ letters, common ones left out) and numbers of ``text`` found
    in none of ``sources``, when they are too many for ``text`` to be grounded:
    any number missing, or under ``share`` of the words present. [] when
    ``text`` is grounded (a memory fact must come from the user or a tool)."""
    src = " ".join(sources).lower()
    words = [w for w in _WORD.findall(text.lower()) if w not in _COMMON]
    missing = [w for w in words if w[:max(4, len(w) - 3)] not in src]  # "drinks" is grounded by "drink"
    numbers = [n for n in _numbers(text) if n not in _source_numbers([src])]
    if numbers or (words and (len(words) - len(missing)) / len(words) < share):
        return numbers + missing
    return []


# the work handed back to the user: calendar_from_invite at 6b05252 (recover), "To add the meeting to my calendar,
# follow these steps: ... You can add this information to your calendar using the provided tools or manually."
# accepted as done (an edit of invite.txt had counted as the change)
_HANDS_BACK = re.compile(r"\bfollow (these|the following|the) steps\b|\b(using|with|via) the (provided|available) tools\b"
                         # xlsx_total at 043112d: the row written, then "To add a row ..., you can use the
                         # `table_query` function to calculate the total and then insert it ..." as the answer
                         r"|\byou (can|could|may|should|need to) use the (following )?[`'\"]?\w+[`'\"]? "
                         r"(function|tool|method|command)\b"
                         r"|\byou (can|could|may|should|need to) (\w+ )?(add|create|enter|put|copy|paste|schedule|save|"
                         r"write|update|import|insert|rename|move|delete) (this|these|it|them|the \w+)\b.{0,60}"
                         r"\b(manually|yourself|by hand)\b"
                         # xlsx_summary_sheet at 0417c73: the sheet added at step 1, then "You can now proceed with
                         # adding the "Summary" sheet with these totals." as the answer
                         r"|\byou (can|could|may) now (proceed|go ahead|continue|move on) (with|to)\b"
                         # docx_append_paragraph at b82e8fa: the paragraph added, then the harness's hint, "To add
                         # ..., call docx_insert with {...}", as the answer
                         # (and "call copy with {...}" too: held-out MC at a367559, the copy made, then finished)
                         r"|\bcall\s+`?[a-z][a-z_]*`?\s+with\s+\{"
                         # a held-out task at a56e3b0: one .tmp file of three deleted, then "Here's how you can do
                         # it: 1. Use the `find_files` function to list the `.tmp` files: 2. Use the `delete` ..."
                         r"|\bhere'?s how (you can|to) do (it|this|that)\b"
                         # a held-out task (RE) at 624b529: the words replaced at step 1, then "To complete the
                         # task, you need to replace all occurrences of "colour" with "color" throughout the file."
                         r"|^\W*to (complete|do|finish|accomplish|perform) (this|the|your) task\b[^.\n]{0,12}\byou\b"
                         r"|(^|\n)\W*(\d+[.)]\s*)?use the [`'\"]?\w+[`'\"]? (function|tool|command)\s+to\b",
                         re.IGNORECASE | re.DOTALL)
