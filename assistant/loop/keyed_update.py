"""One table updated from another by key: "Update prices.csv with the new prices from
price_changes.csv", "Apply the changes in changes.csv to stock.csv".

The harness works the update out itself: the rows of the changes file are matched to
the rows of the target by the key column both share (the target's first column that
the changes file has too), and each of the changes file's other columns that the target
has (or names as "new_price" / "price_new" / "updated_price" for "price") overwrites that
cell. The read of either file offers the write, and the finish doubts a target that does
not hold the update. Batch JZ at 02d32bb (JZD): both files were combined into a new
file, updated_prices.csv, prices.csv was left as it was, and the task went on until it
was stuck.

Anything the update cannot say for sure (a key repeated in the target, a change for a
key the target does not have, no shared key or column) makes it stay out: "" or None,
never a guess.
"""

from __future__ import annotations

import csv
import decimal
import io
import re
from pathlib import Path
from typing import NamedTuple

from .evidence import Evidence, goal_files
from .named_files import original_text
from .recap import call_to_copy

__all__ = ["KeyedUpdate", "keyed_update_asked", "keyed_updated", "keyed_update_not_written", "keyed_update_text"]

_FILE = r"[\w./-]+\.csv\b"
#: "update prices.csv ...", "update the prices in prices.csv ...": the target follows the verb
_UPDATE_TARGET = re.compile(rf"\bupdate\s+(?:the\s+)?(?:[\w-]+\s+){{0,3}}?(?:(?:in|of)\s+)?(?P<target>{_FILE})",
                            re.IGNORECASE)
#: "apply the changes in changes.csv to stock.csv", "use changes.csv to update stock.csv": the target comes last
_APPLY_TO = re.compile(rf"\b(?:apply|use|take)\b[^.?!]{{0,80}}?(?P<changes>{_FILE})[^.?!]{{0,40}}?\b(?:to|on|onto|"
                       rf"into)\s+(?:update\s+)?(?:the\s+)?(?:[\w-]+\s+){{0,3}}?(?:(?:in|of)\s+)?(?P<target>{_FILE})",
                       re.IGNORECASE)
_NEW_COLUMN = re.compile(r"^(?:new|updated|revised|corrected)[ _-]+(?P<a>.+)$|^(?P<b>.+?)[ _-]+(?:new|updated)$",
                         re.IGNORECASE)


class KeyedUpdate(NamedTuple):
    """The update worked out: ``text`` (the target's CSV text after it), ``key`` (the key
    column's name), ``changed`` (the keys of the rows whose cells change) and ``columns``
    (the names of the columns updated)."""

    text: str
    key: str
    changed: tuple[str, ...]
    columns: tuple[str, ...]


def keyed_update_asked(goal: str) -> tuple[str, str] | None:
    """``(target, changes)`` when ``goal`` asks one CSV file it names updated from the
    other CSV file it names (:data:`_UPDATE_TARGET`, :data:`_APPLY_TO`), and asks no other
    file written; None otherwise."""
    outputs, inputs = goal_files(goal)
    files = list(dict.fromkeys(f for f in inputs if f.lower().endswith(".csv")))
    if outputs or len(files) != 2:
        return None
    m = _APPLY_TO.search(goal) or _UPDATE_TARGET.search(goal)
    target = m.group("target") if m else ""
    if target not in files:
        return None
    changes = files[1] if target == files[0] else files[0]
    return target, changes


def _rows(text: str) -> list[list[str]] | None:
    try:
        rows = [r for r in csv.reader(io.StringIO(text)) if any(c.strip() for c in r)]
    except csv.Error:
        return None
    return rows if len(rows) >= 2 and all(len(r) == len(rows[0]) for r in rows) else None


def _name(cell: str) -> str:
    return " ".join(cell.replace("_", " ").split()).casefold()


def keyed_updated(target_text: str, changes_text: str) -> KeyedUpdate | None:
    """The :class:`KeyedUpdate` of CSV text ``target_text`` by CSV text ``changes_text``:
    the key is the target's first column whose name the changes file's header has too;
    each other column of the changes file that the target has (also as "new X", "X_new",
    "updated X") overwrites the cell of its row where it is not empty. None when either
    text is no table with one cell per header column, there is no such key or column, a
    key repeats in the target or the changes, a change names a key the target lacks, or
    nothing would change."""
    target, changes = _rows(target_text), _rows(changes_text)
    if target is None or changes is None:
        return None
    names = [_name(c) for c in target[0]]
    theirs = [_name(c) for c in changes[0]]
    key = next((i for i, n in enumerate(names) if n and n in theirs), None)
    if key is None:
        return None
    their_key = theirs.index(names[key])
    into: dict[int, int] = {}  # a column of the changes file -> the target's column it updates
    for j, n in enumerate(theirs):
        if j == their_key:
            continue
        m = _NEW_COLUMN.match(n)
        base = (m.group("a") or m.group("b")).strip() if m else n
        if n in names and names.index(n) != key:
            into[j] = names.index(n)
        elif base in names and names.index(base) != key:
            into.setdefault(j, names.index(base))
    if not into or len(set(into.values())) != len(into):
        return None
    at = {}
    for i, r in enumerate(target[1:], start=1):
        k = r[key].strip().casefold()
        if not k or k in at:
            return None
        at[k] = i
    out = [list(r) for r in target]
    changed: list[str] = []
    seen: set[str] = set()
    for r in changes[1:]:
        k = r[their_key].strip().casefold()
        if k not in at or k in seen:
            return None
        seen.add(k)
        row = out[at[k]]
        for j, i in into.items():
            new = r[j].strip()
            if new and not _same(new, row[i]):
                row[i] = new
                if row[key].strip() not in changed:
                    changed.append(row[key].strip())
    if not changed:
        return None
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(out)
    return KeyedUpdate(buf.getvalue(), target[0][key].strip(), tuple(changed),
                       tuple(target[0][i].strip() for i in into.values()))


def _same(a: str, b: str) -> bool:
    """Whether two cells say the same (numbers by value: 2.5 is 2.50)."""
    a, b = a.strip(), b.strip()
    if a == b:
        return True
    try:
        return decimal.Decimal(a.replace(",", "")) == decimal.Decimal(b.replace(",", ""))
    except decimal.InvalidOperation:
        return a.casefold() == b.casefold()


def _read(workspace: str | Path, rel: str) -> str | None:
    try:
        return (Path(workspace) / rel).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def keyed_update_text(goal: str, workspace: str | Path) -> tuple[str, str, KeyedUpdate] | None:
    """``(target, changes, update)`` for a goal of :func:`keyed_update_asked`, worked out
    from the two files as the workspace holds them now (applying the same changes twice
    changes nothing more); None when the goal asks no such update or it cannot be
    worked out."""
    asked = keyed_update_asked(goal)
    if asked is None:
        return None
    target, changes = asked
    t, c = _read(workspace, target), _read(workspace, changes)
    found = keyed_updated(t, c) if t is not None and c is not None else None
    return (target, changes, found) if found is not None else None


def keyed_update_not_written(ev: Evidence) -> str:
    """The doubt when the goal asks one CSV file updated from another by key
    (:func:`keyed_update_asked`) and the target does not hold the update worked out from
    the text this task first read of it (else the text it has now), with the write that
    makes it so; "" otherwise."""
    asked = keyed_update_asked(ev.goal)
    if asked is None:
        return ""
    target, changes = asked
    now, theirs = _read(ev.workspace, target), _read(ev.workspace, changes)
    before = original_text(target, ev.calls)
    before = before + "\n" if before is not None else now
    if now is None or theirs is None or before is None:
        return ""
    want = keyed_updated(before, theirs)
    if want is None:
        return ""
    held, wanted = _rows(now), _rows(want.text)
    if held is not None and wanted is not None and len(held) == len(wanted) and all(
            len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b)) for a, b in zip(held, wanted)):
        return ""
    return (f"the task asks {target} updated from {changes}, and {target} does not hold that: the harness matched "
            f"their rows by {want.key} ({', '.join(want.changed)} change); "
            f"{call_to_copy('write_file', {'path': target, 'content': want.text})}")
