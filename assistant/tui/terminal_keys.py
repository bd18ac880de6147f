"""Teach Textual's input parser the newline keys real terminals send.

xterm, tmux, GNOME Terminal, iTerm2 and most others send Alt+Enter as ESC
followed by CR (``"\\x1b\\r"``). Textual 8's parser has no entry for that
sequence and reissues it as a plain ``enter`` (the Alt is lost), so Alt+Enter
submitted the input instead of adding a line. Terminals with xterm's
``modifyOtherKeys`` (tmux with ``extended-keys on``) send Shift+Enter as
``"\\x1b[27;2;13~"``, which the parser names ``shift+\\r``; the prompt treats
that name as Shift+Enter (see ``NEWLINE_KEYS`` in ``widgets/prompt.py``).
Shift+Enter in a terminal without those extensions sends a bare CR and cannot
be told from Enter; Ctrl+J (LF) works everywhere.

Source: the parser in ``textual/_xterm_parser.py`` (8.x) looks sequences up in
``textual._ansi_sequences.ANSI_SEQUENCES_KEYS`` and builds ``Key(key.value)``
from a tuple entry; xterm's ``metaSendsEscape`` / tmux's ``M-Enter`` emit ESC CR.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ALT_ENTER", "teach_parser"]

ALT_ENTER = "\x1b\r"
"""What terminals send for Alt+Enter (ESC, CR)."""


@dataclass(frozen=True)
class _KeyName:
    """Stands in for a ``textual.keys.Keys`` member: the parser reads only ``.value``."""

    value: str


def teach_parser() -> bool:
    """Map ESC CR to ``alt+enter`` in Textual's sequence table (idempotent).

    Returns True when the table holds the mapping afterwards, False when this
    Textual has no such table (the app then works as before: Ctrl+J for a newline).
    """
    try:
        from textual import _ansi_sequences
    except ImportError:  # pragma: no cover - a Textual without the private table
        return False
    table = getattr(_ansi_sequences, "ANSI_SEQUENCES_KEYS", None)
    if not isinstance(table, dict):  # pragma: no cover
        return False
    table.setdefault(ALT_ENTER, (_KeyName("alt+enter"),))
    return True
