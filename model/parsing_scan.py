"""Find where one ``<tool_call>`` block ends, reading its structure, in one forward pass.

The block's end is decided by its structure, not by the first ``</tool_call>``:
text inside a parameter value or a JSON string is data, so a value that holds
a whole ``<tool_call>...</tool_call>`` (a file about tool calls, a page that
tries to inject one) stays in the value and never becomes a call of its own.

Rules (``<tool_call>`` is the block's opening; "ws" is optional whitespace):

- JSON (the body starts with ``{``): the object runs to its matching ``}``,
  counting ``{[`` / ``]}`` outside strings (``"..."`` or ``'...'``, with
  backslash escapes). Markup inside a string is data. Outside strings, a
  ``</tool_call>`` ends the block and a ``<tool_call>`` cuts it (a model that
  lost count of its braces). After the object, the block runs to the next
  ``</tool_call>`` (included) or ``<tool_call>`` (excluded).
- XML (any other body): ``<function=NAME>``, then parameters, then
  ``</function>`` ws ``</tool_call>``. Between parameters a ``</tool_call>``
  ends the block and a ``<tool_call>`` cuts it (a call left unclosed).
  A value (after ``<parameter=KEY>``) ends at the first ``</parameter>`` that

  1. is followed by ws + ``<parameter=`` or by ws + ``</function>`` ws
     ``</tool_call>`` (or ws + ``</function>`` ws at the end of the output), and
  2. closes every ``<tool_call>`` the value opened (``<tool_call>`` /
     ``</tool_call>`` inside a value nest like brackets).

  So a value may hold ``</parameter>`` (not followed by one of those) and
  whole nested calls. When no ``</parameter>`` meets both rules up to the end
  of the output, the first one that meets rule 1 ends the value, and from
  then on rule 1 alone decides every value of the turn (this keeps the scan
  linear). The one text a value cannot hold is ``</parameter>`` + ws +
  ``</function>`` ws ``</tool_call>`` (or ``<parameter=``) outside a nested
  call: that is what ends a call, and grammar-constrained decoding cannot
  write ``</p`` inside a value at all (see :mod:`model.grammar`).
- A block whose value, string or name never ends runs to the end of the
  output (an error): nothing after an unterminated value can become a call.

Every search moves forward (:class:`TagFinder` never scans a stretch twice for
the same tag), so a whole turn is scanned in time linear in its length, also
when it is fed a few characters at a time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["OPEN", "CLOSE", "TagFinder", "CallScan", "BlockScanner", "scan_block"]

OPEN = "<tool_call>"
CLOSE = "</tool_call>"
FUNC_OPEN = "<function="
FUNC_CLOSE = "</function>"
PARAM_OPEN = "<parameter="
PARAM_CLOSE = "</parameter>"

_WS = re.compile(r"\s*")
_JSON_OUT = re.compile(r"[\"'{}\[\]<]")
_JSON_IN = {'"': re.compile(r'["\\]'), "'": re.compile(r"['\\]")}


class TagFinder:
    """``buf.find(tag, frm)`` for a growing ``buf`` and forward-moving ``frm``.

    Remembers, per tag, the last occurrence found and how far the text was
    searched, so asking again from a position at or before a known occurrence
    costs nothing and a miss is resumed where it stopped. Total work is linear
    in the text as long as ``frm`` never moves back (call :meth:`reset` if it does).
    """

    def __init__(self) -> None:
        self._memo: dict[str, tuple[int, int]] = {}  # tag -> (found at or -1, searched up to)

    def find(self, buf: str, tag: str, frm: int) -> int:
        """Index of the first ``tag`` at or after ``frm`` in ``buf``, or -1."""
        at, upto = self._memo.get(tag, (-1, 0))
        if at >= frm:
            return at
        start = max(frm, upto - len(tag) + 1) if at < 0 else frm
        at = buf.find(tag, start)
        self._memo[tag] = (at, len(buf))
        return at

    def first(self, buf: str, tags: tuple[str, ...], frm: int) -> tuple[int, str]:
        """The earliest of ``tags`` at or after ``frm``: ``(index, tag)``, or ``(-1, "")``."""
        best, which = -1, ""
        for tag in tags:
            at = self.find(buf, tag, frm)
            if at >= 0 and (best < 0 or at < best):
                best, which = at, tag
        return best, which

    def reset(self) -> None:
        """Forget everything (after a position moved back)."""
        self._memo.clear()


@dataclass
class CallScan:
    """What the scan of one block found.

    Attributes:
        start, end: the block is ``buf[start:end]`` (from ``<tool_call>``).
        closed: the block ended with its own ``</tool_call>``.
        kind: "json" (body starts with ``{``) or "xml".
        name: the XML function name (None when no ``<function=NAME>`` was read).
        params: the XML ``(key, value)`` pairs in order (one newline trimmed
            from each end of a value).
        problem: the first structural problem, a message for the model, or None.
    """

    start: int
    end: int = -1
    closed: bool = False
    kind: str = "xml"
    name: str | None = None
    params: list[tuple[str, str]] = field(default_factory=list)
    problem: str | None = None


class BlockScanner:
    """Incremental scan of one block that starts with ``<tool_call>`` at ``start``.

    Call :meth:`advance` with the whole text so far each time it grows; it
    returns True once the block's end is known (``final`` forces a decision).

    Args:
        start: index of the block's ``<tool_call>`` in the text.
        finder: the turn's :class:`TagFinder` (shared so searches never repeat).
        nesting: apply rule 2 (nested calls) to values; False after a fall-back.
    """

    def __init__(self, start: int, finder: TagFinder, nesting: bool = True) -> None:
        self.scan = CallScan(start=start)
        self.finder = finder
        self.nesting = nesting
        self.fell_back = False  # a value ended by rule 1 alone at the end of the output
        self._pos = start + len(OPEN)
        self._state = "head"
        self._key = ""
        self._value_at = 0
        self._depth = 0
        self._first_end = -1  # first </parameter> of this value that met rule 1
        self._json_depth = 0
        self._quote = ""
        self._ws_memo = (-1, 0)  # (a </parameter>, how far the whitespace after it was read)

    # -- helpers ------------------------------------------------------------
    def _problem(self, message: str) -> None:
        if self.scan.problem is None:
            self.scan.problem = message

    def _done(self, end: int, closed: bool = False) -> bool:
        self.scan.end, self.scan.closed = end, closed
        self._state = "done"
        return True

    def _junk(self, buf: str, at: int, message: str) -> None:
        text = buf[self._pos:at].strip()
        if text:
            self._problem(f"{message}: {text[:60]!r}")

    def _ends_value(self, buf: str, at: int, final: bool) -> bool | None:
        """Does the ``</parameter>`` at ``at`` meet rule 1? None: wait for more text."""
        at_ws, i = self._ws_memo
        i = _WS.match(buf, i if at_ws == at else at + len(PARAM_CLOSE)).end()
        self._ws_memo = (at, i)
        rest = buf[i: i + len(PARAM_OPEN)]
        if rest.startswith(PARAM_OPEN):
            return True
        if rest.startswith(FUNC_CLOSE):
            j = _WS.match(buf, i + len(FUNC_CLOSE)).end()
            if buf.startswith(CLOSE, j):
                return True
            if j == len(buf):
                return True if final else None
            tail = buf[j: j + len(CLOSE)]
            return None if not final and len(tail) < len(CLOSE) and CLOSE.startswith(tail) else False
        if not final and (PARAM_OPEN.startswith(rest) or FUNC_CLOSE.startswith(rest)):
            return None
        return False

    def _end_value(self, buf: str, at: int) -> None:
        value = buf[self._value_at: at]
        value = value[1:] if value.startswith("\n") else value
        value = value[:-1] if value.endswith("\n") else value
        self.scan.params.append((self._key, value))
        self._pos = at + len(PARAM_CLOSE)
        self._state = "func"

    def _tag_name(self, buf: str, final: bool) -> tuple[str, bool] | None:
        """``NAME`` of ``<function=NAME>`` / ``<parameter=NAME>`` at ``self._pos``: (name, ok); None: wait."""
        gt = self.finder.find(buf, ">", self._pos)
        bad = [i for i in (self.finder.find(buf, "\n", self._pos), self.finder.find(buf, "<", self._pos)) if i >= 0]
        if gt >= 0 and (not bad or gt < min(bad)):
            name = buf[self._pos: gt].strip()
            self._pos = gt + 1
            return name, True
        if bad or final:
            return "", False
        return None

    # -- states -------------------------------------------------------------
    def advance(self, buf: str, final: bool) -> bool:
        """Scan what ``buf`` adds; True when the block's end (``scan.end``) is decided.

        With ``final`` (the text is complete) it always returns True.
        """
        while self._state != "done":
            if not getattr(self, "_" + self._state)(buf, final):
                return False
        return True

    def _head(self, buf: str, final: bool) -> bool:
        self._pos = _WS.match(buf, self._pos).end()
        if self._pos >= len(buf):
            return self._done(len(buf)) if final else False
        if buf[self._pos] == "{":
            self.scan.kind, self._state = "json", "json"
        else:
            self._state = "xml_head"
        return True

    def _xml_head(self, buf: str, final: bool) -> bool:
        at, tag = self.finder.first(buf, (FUNC_OPEN, CLOSE, OPEN), self._pos)
        if at < 0:
            return self._done(len(buf)) if final else False
        if tag == CLOSE:
            return self._done(at + len(CLOSE), closed=True)
        if tag == OPEN:
            return self._done(at)
        self._junk(buf, at, "unexpected text before <function=...>")
        self._pos = at + len(FUNC_OPEN)
        self._state = "func_name"
        return True

    def _func_name(self, buf: str, final: bool) -> bool:
        got = self._tag_name(buf, final)
        if got is None:
            return False
        name, ok = got
        if ok:
            self.scan.name = name
        else:
            self._problem("expected <function=NAME> inside <tool_call>")
        self._state = "func"
        return True

    def _func(self, buf: str, final: bool) -> bool:
        at, tag = self.finder.first(buf, (PARAM_OPEN, FUNC_CLOSE, CLOSE, OPEN), self._pos)
        if at < 0:
            if not final:
                return False
            self._junk(buf, len(buf), "unexpected text between parameters")
            self._problem(f"<function={self.scan.name or ''}> is not closed: end it with </function>")
            return self._done(len(buf))
        self._junk(buf, at, "unexpected text between parameters")
        if tag == PARAM_OPEN:
            self._pos, self._state = at + len(PARAM_OPEN), "param_key"
        elif tag == FUNC_CLOSE:
            self._pos, self._state = at + len(FUNC_CLOSE), "after"
        else:
            self._problem(f"<function={self.scan.name or ''}> is not closed: end it with </function>")
            return self._done(at + len(CLOSE), closed=True) if tag == CLOSE else self._done(at)
        return True

    def _param_key(self, buf: str, final: bool) -> bool:
        got = self._tag_name(buf, final)
        if got is None:
            return False
        key, ok = got
        if not ok:
            self._problem("a <parameter=NAME> tag is malformed: write <parameter=NAME> on its own line")
            self._state = "func"
            return True
        if any(k == key for k, _ in self.scan.params):
            self._problem(f"parameter '{key}' is given twice")
        self._key, self._value_at = key, self._pos
        self._depth, self._first_end = 0, -1
        self._state = "value"
        return True

    def _value(self, buf: str, final: bool) -> bool:
        while True:
            at, tag = self.finder.first(buf, (PARAM_CLOSE, OPEN, CLOSE), self._pos)
            if at < 0:
                return self._value_unterminated(buf, final)
            if tag == OPEN:
                self._depth += 1
                self._pos = at + len(OPEN)
                continue
            if tag == CLOSE:
                self._depth = max(0, self._depth - 1)
                self._pos = at + len(CLOSE)
                continue
            ends = self._ends_value(buf, at, final)
            if ends is None:
                self._pos = at  # the finder keeps this </parameter>: asking again costs nothing
                return False
            if ends and (self._depth == 0 or not self.nesting):
                self._end_value(buf, at)
                return True
            if ends and self._first_end < 0:
                self._first_end = at
            self._pos = at + len(PARAM_CLOSE)

    def _value_unterminated(self, buf: str, final: bool) -> bool:
        if not final:
            return False
        if self._first_end >= 0:  # rule 1 alone from here on; positions move back once
            self.nesting = False
            self.fell_back = True
            self.finder.reset()
            self._end_value(buf, self._first_end)
            return True
        if self.finder.find(buf, FUNC_CLOSE, self._value_at) < 0:
            self._problem(f"<function={self.scan.name or ''}> is not closed: end it with </function>")
        self._problem(f"parameter '{self._key}' is not closed: end each value with </parameter>")
        return self._done(len(buf))

    def _after(self, buf: str, final: bool) -> bool:
        at, tag = self.finder.first(buf, (CLOSE, OPEN), self._pos)
        if at < 0 and not final:
            return False
        if self.scan.kind == "xml":  # junk after a JSON object is the decoder's to report
            self._junk(buf, len(buf) if at < 0 else at, "unexpected text after </function>")
        if at < 0:
            return self._done(len(buf))
        return self._done(at + len(CLOSE), closed=True) if tag == CLOSE else self._done(at)

    def _json(self, buf: str, final: bool) -> bool:
        while True:
            if self._quote:
                m = _JSON_IN[self._quote].search(buf, self._pos)
                if m is None:
                    self._pos = len(buf)
                    return self._done(len(buf)) if final else False
                at = m.start()
                if buf[at] == "\\":
                    if at + 1 >= len(buf):
                        self._pos = at
                        return self._done(len(buf)) if final else False
                    self._pos = at + 2
                    continue
                self._quote, self._pos = "", at + 1
                continue
            m = _JSON_OUT.search(buf, self._pos)
            if m is None:
                self._pos = len(buf)
                return self._done(len(buf)) if final else False
            at, ch = m.start(), m.group()
            if ch == "<":
                if buf.startswith(CLOSE, at):
                    return self._done(at + len(CLOSE), closed=True)
                if buf.startswith(OPEN, at):
                    return self._done(at)
                tail = buf[at: at + len(CLOSE)]
                if not final and (CLOSE.startswith(tail) or OPEN.startswith(tail)):
                    self._pos = at
                    return False
            elif ch in "\"'":
                self._quote = ch
            elif ch in "{[":
                self._json_depth += 1
            else:
                self._json_depth -= 1
                if self._json_depth <= 0:
                    self._pos, self._state = at + 1, "after"
                    return True
            self._pos = at + 1


def scan_block(text: str, start: int = 0) -> CallScan:
    """Scan the whole block at ``text[start:]`` (which starts with ``<tool_call>``)."""
    scanner = BlockScanner(start, TagFinder())
    scanner.advance(text, final=True)
    return scanner.scan
