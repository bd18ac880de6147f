"""Runtime benchmark: our runtime vs bare llama-cpp-python, prefix reuse, prefix restore.

Usage: python bench/runtime.py [--model PATH] [--prefix-tokens 1000] [--decode 64] [--threads N]

Prints, for one GGUF and one prompt:
1. prefill and decode tok/s of bare ``llama_cpp.Llama`` (eval + sample loop) and of
   ``model.runtime.Runtime.generate`` on the same tokens (greedy);
2. a second call that shares a ~1,000-token prefix: tokens evaluated vs reused;
3. a fresh process restoring that prefix from disk vs one recomputing it:
   time to first token both ways.
Numbers go in docs/BENCHMARKS.md. This is a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from model.runtime import Runtime  # noqa: E402
from model.select import demo_model_path  # noqa: E402
from model.types import SamplingParams  # noqa: E402

GREEDY = SamplingParams(temperature=0.0)
FILLER = ("The quarterly report lists revenue by department, travel costs, and the dates of "
          "every planning meeting, with notes on who attended and what was decided. ")


def build_prompt(rt: Runtime, n_prefix: int) -> tuple[list[int], list[int], list[int]]:
    """(system prefix of ~n_prefix tokens, full prompt A, full prompt B) sharing the prefix."""
    text = "<|im_start|>system\nYou are a careful assistant. Context:\n"
    while len(rt.tokenize(text)) < n_prefix:
        text += FILLER
    prefix = rt.tokenize(text + "<|im_end|>\n")
    a = prefix + rt.tokenize("<|im_start|>user\nSummarise the context in one line.<|im_end|>\n<|im_start|>assistant\n")
    b = prefix + rt.tokenize("<|im_start|>user\nWhat is the context about?<|im_end|>\n<|im_start|>assistant\n")
    return prefix, a, b


def bare(model: str, prompt: list[int], n_decode: int, threads: int) -> dict:
    from llama_cpp import Llama

    llm = Llama(model_path=model, n_ctx=4096, n_batch=512, n_threads=threads, verbose=False)
    t0 = time.perf_counter()
    llm.eval(prompt)
    t1 = time.perf_counter()
    n = 0
    for _ in range(n_decode):
        tok = llm.sample(temp=0.0)
        if tok == llm.token_eos():
            break
        llm.eval([tok])
        n += 1
    t2 = time.perf_counter()
    llm.close()
    return {"prefill_tps": len(prompt) / (t1 - t0), "decode_tps": n / (t2 - t1) if n else 0.0, "decoded": n}


CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[5])
t = time.perf_counter()
from model.runtime import Runtime
from model.types import SamplingParams
rt = Runtime(sys.argv[1], n_ctx=4096, cache_dir=sys.argv[2] or None, n_threads=int(sys.argv[4]))
prompt, n = json.loads(sys.argv[3])
r = rt.generate(prompt, max_tokens=4, sampling=SamplingParams(temperature=0.0), persist_prefix=n)
print(json.dumps({"ttft_s": r.metrics.ttft_s, "restored": r.metrics.restored, "evaluated": r.metrics.evaluated,
                  "load_s": rt.load_s}))
"""


def child(model: str, cache: str, prompt: list[int], n: int, threads: int) -> dict:
    root = str(Path(__file__).resolve().parents[1])
    out = subprocess.run([sys.executable, "-c", CHILD, model, cache, json.dumps([prompt, n]), str(threads), root],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default=str(demo_model_path()))
    ap.add_argument("--prefix-tokens", type=int, default=1000)
    ap.add_argument("--decode", type=int, default=64)
    ap.add_argument("--threads", type=int, default=None)
    a = ap.parse_args()
    rt = Runtime(a.model, n_ctx=4096, n_threads=a.threads)
    threads = rt.n_threads
    prefix, pa, pb = build_prompt(rt, a.prefix_tokens)
    print(f"model: {Path(a.model).name}  threads: {threads}  prompt: {len(pa)} tokens (shared prefix {len(prefix)})")

    b = bare(a.model, pa, a.decode, threads)
    r1 = rt.generate(pa, max_tokens=a.decode, sampling=GREEDY)
    m1 = r1.metrics
    print(f"1. bare llama_cpp : prefill {b['prefill_tps']:8.1f} tok/s   decode {b['decode_tps']:6.1f} tok/s")
    print(f"   our runtime    : prefill {m1.prefill_tps:8.1f} tok/s   decode {m1.decode_tps:6.1f} tok/s"
          f"   (ttft {m1.ttft_s:.2f} s)")
    r2 = rt.generate(pb, max_tokens=8, sampling=GREEDY)
    m2 = r2.metrics
    print(f"2. second call, shared prefix: evaluated {m2.evaluated} of {m2.prompt_tokens} tokens "
          f"(reused {m2.reused}); ttft {m2.ttft_s:.2f} s vs {m1.ttft_s:.2f} s cold")
    rt.close()
    with tempfile.TemporaryDirectory() as cache:
        cold = child(a.model, "", pb, 0, threads)
        child(a.model, cache, pa, len(prefix), threads)  # writes the prefix state
        warm = child(a.model, cache, pb, len(prefix), threads)
        size = sum(p.stat().st_size for p in Path(cache).glob("*.state"))
    print(f"3. fresh process, recompute : ttft {cold['ttft_s']:.2f} s (evaluated {cold['evaluated']})")
    print(f"   fresh process, restore   : ttft {warm['ttft_s']:.2f} s (restored {warm['restored']}, "
          f"evaluated {warm['evaluated']}; state file {size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
