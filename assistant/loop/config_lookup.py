"""A setting looked up in an INI-style config file: "Which port does the staging
database use, according to settings.ini?".

The same key sits in several sections ([database.production], [web.staging],
[database.staging] each have a port), and the section the goal means is the one whose
every name part the goal says. Batch KZ at 6a1c8bc (KZA): the model answered 8081, the
port of [web.staging], the first section with "staging" in its name; the database's is
6543. The harness reads the file with :mod:`configparser`, picks the section whose
name parts the goal all says (the most of them; one only) and the key the goal names,
and doubts an answer that does not give that value, with the answer to copy.
"""

from __future__ import annotations

import configparser
import re
from pathlib import Path
from typing import NamedTuple

from .answer_form import answer_to_copy
from .evidence import asks_only_a_question, goal_files

__all__ = ["Setting", "setting_asked", "setting_wrong"]

_CONFIG_FILES = (".ini", ".cfg", ".conf")
_PARTS = re.compile(r"[._\-\s:/]+")


class Setting(NamedTuple):
    """``section`` and ``key`` as the file writes them, their ``value`` and the ``file``."""

    section: str
    key: str
    value: str
    file: str


def _words(text: str) -> set[str]:
    words = {w.casefold() for w in re.findall(r"[^\W_]+", text)}
    return words | {w[:-1] for w in words if w.endswith("s") and len(w) > 3}  # "databases" says "database"


def setting_asked(goal: str, workspace: str | Path) -> Setting | None:
    """The :class:`Setting` when ``goal`` is a question about the one INI-style file
    (.ini, .cfg, .conf) it names, it says every name part of exactly one section (more
    of them than of any other section that has the key) and the name of one key of that
    section; None otherwise, or when the file cannot be read as such."""
    files = [f for f in goal_files(goal)[1] if f.lower().endswith(_CONFIG_FILES)]
    if len(files) != 1 or not asks_only_a_question(goal):
        return None
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string((Path(workspace) / files[0]).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, configparser.Error):
        return None
    said = _words(goal)
    keys = {k for s in parser.sections() for k in parser[s]
            if all(p in said for p in _PARTS.split(k.casefold()) if p)}
    if len(keys) != 1:
        return None
    key = keys.pop()
    fits = []
    for section in parser.sections():
        parts = [p for p in _PARTS.split(section.casefold()) if p]
        if key in parser[section] and parts and all(p in said for p in parts):
            fits.append((len(parts), section))
    fits.sort(reverse=True)
    if not fits or len(fits) > 1 and fits[0][0] == fits[1][0]:
        return None
    section = fits[0][1]
    value = parser[section][key].strip()
    return Setting(section, key, value, files[0]) if value else None


def setting_wrong(goal: str, answer: str, workspace: str | Path) -> str:
    """The doubt when ``goal`` asks one setting of a config file (:func:`setting_asked`)
    and ``answer`` does not give its value ("" otherwise), with the answer to copy."""
    found = setting_asked(goal, workspace)
    if found is None:
        return ""
    if re.search(rf"(?<![\w.]){re.escape(found.value)}(?![\w]|\.\w)", answer, re.IGNORECASE):
        return ""
    copy = f"In {found.file}, {found.key} in the section [{found.section}] is {found.value}."
    return (f"the task asks a setting of {found.file}, and the answer does not give it; the harness read the file's "
            f"sections: the one the task names is [{found.section}], {answer_to_copy(copy)}")
