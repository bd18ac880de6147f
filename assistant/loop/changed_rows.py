"""The rows two versions of a table differ in: "Which products have a different price in
prices_new.csv than in prices_old.csv?", "What changed between stock_old.csv and stock.csv?".

Batch HZ at 4bb2504 (HZB): both files read, then "The prices in both files are the
same." (Bread and Milk changed). The harness reads the two CSV/TSV files itself, with
the same header, keys their rows by the first column and compares every other cell, so
the answer is checked against every row, not the ones the model looked at.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import NamedTuple

from .answer_form import answer_to_copy
from .evidence import asks_only_a_question
from .shared_lines import _named

__all__ = ["ChangedRows", "changed_rows", "changed_rows_wrong"]

_TABLE = r"([\w./-]+\.(?:csv|tsv))"
#: "different ... in A than in B", "differ between A and B", "changed from A to B", "not the same in A and B"
_DIFFER = re.compile(r"\b(?:differ\w*|different|changed?|changes|not\s+the\s+same)\b", re.IGNORECASE)
_TWO_TABLES = re.compile(rf"{_TABLE}\b.*?\b{_TABLE}", re.IGNORECASE | re.DOTALL)
_MOST_ROWS = 500
#: an answer that names the rows that stayed the same too: "Apples and Cheese are unchanged"
_SAID_SAME = re.compile(r"\b(?:same|unchanged|no\s+change|(?:not|n't)\s+change\w*|stay\w*)\b", re.IGNORECASE)


class ChangedRows(NamedTuple):
    """What :func:`changed_rows` found: ``keys`` (the first-column values of the rows
    that differ or are in one file only, as the files give them), ``others`` (the
    first-column values of the rows that are the same), ``files`` (the two paths) and
    ``answer`` (one to copy, with each changed cell's two values)."""

    keys: list[str]
    others: list[str]
    files: tuple[str, str]
    answer: str


def _rows(path: Path) -> tuple[list[str], dict[str, list[str]]] | None:
    """``(header, {first cell: the row})`` of the CSV/TSV file ``path``; None when it
    cannot be read, is too long, has a first column with a value twice, or a row with
    other than one cell per header column."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None
    table = [r for r in csv.reader(io.StringIO(text), delimiter="\t" if path.suffix.lower() == ".tsv" else ",")
             if any(c.strip() for c in r)]
    if len(table) < 2 or len(table) > _MOST_ROWS + 1:
        return None
    header, body = [c.strip() for c in table[0]], table[1:]
    keyed = {r[0].strip(): [c.strip() for c in r] for r in body}
    if len(header) < 2 or len(keyed) != len(body) or any(len(r) != len(header) for r in body):
        return None
    return header, keyed


def _same(a: str, b: str) -> bool:
    """Whether two cells hold the same value: the same text, or the same number (2.4 = 2.40)."""
    if a == b:
        return True
    try:
        return float(a.replace(",", "")) == float(b.replace(",", ""))
    except ValueError:
        return False


def changed_rows(goal: str, workspace: str | Path) -> ChangedRows | None:
    """The :class:`ChangedRows` when ``goal`` is a question for what differs between two
    CSV/TSV files of the workspace it names, with the same header; None otherwise, or
    when a file cannot be read as such a table."""
    if not asks_only_a_question(goal) or not _DIFFER.search(goal):
        return None
    m = _TWO_TABLES.search(goal)
    if m is None or m.group(1).lower() == m.group(2).lower():
        return None
    first, second = m.group(1), m.group(2)
    a, b = _rows(Path(workspace) / first), _rows(Path(workspace) / second)
    if a is None or b is None or [c.lower() for c in a[0]] != [c.lower() for c in b[0]]:
        return None
    header, rows_a, rows_b = a[0], a[1], b[1]
    said, keys = [], []
    for key in dict.fromkeys([*rows_a, *rows_b]):
        ra, rb = rows_a.get(key), rows_b.get(key)
        if ra is None or rb is None:
            keys.append(key)
            said.append(f"{key} (only in {first if rb is None else second})")
            continue
        cells = [f"{header[i]} {ra[i]} in {first}, {rb[i]} in {second}" for i in range(1, len(header))
                 if not _same(ra[i], rb[i])]
        if cells:
            keys.append(key)
            said.append(f"{key} ({'; '.join(cells)})")
    others = [k for k in rows_a if k not in keys]
    answer = ("They differ in " + ", ".join(said) + ".") if said else f"None: every row is the same in {first} " \
        f"and {second}."
    return ChangedRows(keys, others, (first, second), answer)


def changed_rows_wrong(goal: str, answer: str, workspace: str | Path) -> str:
    """The doubt when ``goal`` asks what differs between two tables (:func:`changed_rows`)
    and ``answer`` leaves out a row that differs (saying none differs leaves out all)
    or names a row that does not, where it says of none that it stayed the same ("" otherwise), with the answer to
    copy."""
    found = changed_rows(goal, workspace)
    if found is None or not found.keys and not found.others:
        return ""
    missing = [k for k in found.keys if not _named(k, answer)]
    extra = [k for k in found.others if _named(k, answer)] if not _SAID_SAME.search(answer) else []
    if not missing and not extra:
        return ""
    what = (f"leaves out {', '.join(map(repr, missing[:5]))}" if missing else "") + \
        (" and " if missing and extra else "") + (f"names {', '.join(map(repr, extra[:5]))}, whose row is the same "
                                                  "in both" if extra else "")
    return (f"the task asks what differs between {found.files[0]} and {found.files[1]}, and the answer {what}; the "
            f"harness compared every row of the two files, {answer_to_copy(found.answer)}")
