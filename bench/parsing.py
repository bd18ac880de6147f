"""Parse time of hostile model outputs: the whole-turn parser, the streaming parser
and the failed-call detector, at three sizes.

Usage: python bench/parsing.py [--sizes 14,56,224] [--delta 16] [--cap 30] [--json]

Each shape is repeated until the text is about SIZE KB (14 / 56 / 224 by
default), then timed once with ``time.perf_counter``:

* whole: ``model.parsing.parse_turn(text)``;
* stream: ``model.parsing.StreamParser`` fed ``--delta`` characters at a time
  (what the agent does while the model generates), then ``finish()``;
* failed: ``model.parsing.looks_like_failed_call(text)`` (the agent runs it on a
  turn in which no call parsed).

Shapes (all built here, nothing read from disk):

* ``unclosed_parameter``: one call whose body is ``<parameter=a>`` repeated;
* ``tool_call_opens``: ``<tool_call>`` repeated, never closed;
* ``function_opens``: one ``<tool_call>`` holding ``<function=`` repeated (no ``>``);
* ``json_junk``: one JSON call whose arguments open ``[{"a": "x", `` repeatedly;
* ``nested_calls``: one well-formed ``write_file`` whose content holds many
  complete calls (data, not calls);
* ``name_keys``: plain text repeating ``"name": "read_file", `` (the detector's
  JSON-call heuristic, with no arguments key anywhere);
* ``fences``: plain text repeating an opening code fence ```` ```x ```` + newline;
* ``fence_runs``: backtick runs and info strings with no newline until the end.

A linear parser keeps seconds / KB about constant from 14 to 224 KB (the
``x`` column: time at this size / time at the smallest size; linear is 4 and
16). Once one size of a shape takes more than ``--cap`` seconds the larger
sizes are skipped (shown as ``-``). This is a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from model.parsing import StreamParser, looks_like_failed_call, parse_turn  # noqa: E402

TOOLS: list[dict[str, Any]] = [
    {"type": "function", "function": {"name": name, "description": "", "parameters": {
        "type": "object", "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
        "required": ["path"]}}}
    for name in ("read_file", "write_file", "delete")
]
NAMES = [t["function"]["name"] for t in TOOLS]
NESTED = "<tool_call>\n<function=delete>\n<parameter=path>\na.txt\n</parameter>\n</function>\n</tool_call>\n"


def _repeat(unit: str, size: int) -> str:
    return unit * max(1, size // len(unit))


SHAPES: dict[str, Callable[[int], str]] = {
    "unclosed_parameter": lambda n: ("<tool_call>\n<function=write_file>\n" + _repeat("<parameter=a>", n)
                                     + "</function>\n</tool_call>"),
    "tool_call_opens": lambda n: _repeat("<tool_call>", n),
    "function_opens": lambda n: "<tool_call>\n" + _repeat("<function=", n) + "\n</tool_call>",
    "json_junk": lambda n: ('<tool_call>\n{"name": "write_file", "arguments": {"content": '
                            + _repeat('[{"a": "x", ', n) + "\n</tool_call>"),
    "nested_calls": lambda n: ("<tool_call>\n<function=write_file>\n<parameter=path>\nlog.txt\n</parameter>\n"
                               "<parameter=content>\n" + _repeat(NESTED, n)
                               + "</parameter>\n</function>\n</tool_call>"),
    "name_keys": lambda n: _repeat('"name": "read_file", ', n),
    "fences": lambda n: _repeat("```x\n", n),
    "fence_runs": lambda n: _repeat("```x``", n) + "\n",
}


def _whole(text: str) -> Any:
    return parse_turn(text, TOOLS, fmt="xml", starts_in_think=False)


def _stream(text: str, delta: int) -> Any:
    parser = StreamParser(TOOLS, "xml", False)
    for i in range(0, len(text), delta):
        parser.feed(text[i: i + delta])
    return parser.finish()


def _failed(text: str) -> Any:
    return looks_like_failed_call(text, NAMES)


def _time(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def run(sizes_kb: list[int], delta: int, cap: float) -> list[dict[str, Any]]:
    """Time every shape x mode x size; ``seconds`` is None where skipped."""
    modes: dict[str, Callable[[str], Any]] = {
        "whole": _whole, "stream": lambda t: _stream(t, delta), "failed": _failed}
    rows = []
    for shape, build in SHAPES.items():
        for mode, fn in modes.items():
            over = False
            for kb in sizes_kb:
                text = build(kb * 1024)
                secs = None if over else _time(lambda: fn(text))
                over = over or (secs is not None and secs > cap)
                rows.append({"shape": shape, "mode": mode, "kb": kb, "chars": len(text), "seconds": secs})
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="14,56,224", help="sizes in KB, comma separated")
    ap.add_argument("--delta", type=int, default=16, help="characters per streamed delta")
    ap.add_argument("--cap", type=float, default=30.0, help="skip larger sizes after a run over this many s")
    ap.add_argument("--json", action="store_true", help="JSON Lines output")
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    rows = run(sizes, args.delta, args.cap)
    if args.json:
        for row in rows:
            print(json.dumps(row))
        return 0
    print(f"{'shape':<20} {'mode':<7}" + "".join(f" {kb:>7} KB" for kb in sizes) + "   x (vs smallest)")
    for i in range(0, len(rows), len(sizes)):
        group = rows[i: i + len(sizes)]
        cells = "".join(f" {r['seconds']:>9.4f}s" if r["seconds"] is not None else f" {'-':>10}" for r in group)
        base = group[0]["seconds"]
        ratios = " ".join(f"{r['seconds'] / base:.1f}" if r["seconds"] and base else "-" for r in group[1:])
        print(f"{group[0]['shape']:<20} {group[0]['mode']:<7}{cells}   {ratios}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
