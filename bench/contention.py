"""Speed under load: prefill and decode tok/s with 0, 1, 2 competing busy processes.

Usage: python bench/contention.py [--model PATH] [--loads 0,1,2] [--prompt-tokens 128] [--decode 32]

For each number of competing processes (each a ``while True: pass`` loop), and
for llama.cpp thread counts 1..N (N = CPU count), it measures one prompt's
prefill and a greedy decode in a fresh subprocess, two ways:

* **bare**: ``llama_cpp.Llama`` at llama-cpp-python's defaults (``n_threads``
  given, OpenMP's default spin-waiting), eval + sample loop;
* **ours**: :class:`model.runtime.Runtime.generate` with the same thread count,
  and ``auto`` (the runtime's own choice: passive waiting, threads chosen from
  how busy the rest of the machine is, re-checked while decoding).

Prints one JSON line per measurement and a Markdown table for docs/BENCHMARKS.md.
A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CHILD = r"""
import json, sys, time
kind, model, threads, n_prompt, n_decode = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
sys.path.insert(0, sys.argv[6])
text = "The quarterly report lists revenue by department, travel costs and meeting dates. " * 400
if kind == "bare":
    from llama_cpp import Llama
    llm = Llama(model_path=model, n_ctx=2048, n_batch=512, n_threads=int(threads), verbose=False)
    prompt = llm.tokenize(text.encode())[:n_prompt]
    t0 = time.perf_counter(); llm.eval(prompt); t1 = time.perf_counter()
    n = 0
    for _ in range(n_decode):
        tok = llm.sample(temp=0.0); llm.eval([tok]); n += 1
    t2 = time.perf_counter()
    out = {"prefill": len(prompt) / (t1 - t0), "decode": n / (t2 - t1), "threads": threads}
else:
    from model.runtime import Runtime
    from model.types import SamplingParams
    rt = Runtime(model, n_ctx=2048, n_threads=None if threads == "auto" else int(threads))
    prompt = rt.tokenize(text)[:n_prompt]
    res = rt.generate(prompt, max_tokens=n_decode, sampling=SamplingParams(temperature=0.0, repeat_penalty=1.3))
    m = res.metrics
    out = {"prefill": m.prefill_tps, "decode": m.decode_tps, "threads": threads, "generated": m.generated,
           "chosen": getattr(rt, "thread_history", [])}
print(json.dumps(out))
"""


def measure(kind: str, model: str, threads: str, n_prompt: int, n_decode: int) -> dict:
    proc = subprocess.run([sys.executable, "-c", CHILD, kind, model, threads, str(n_prompt), str(n_decode), str(ROOT)],
                          capture_output=True, text=True, timeout=1800)
    if proc.returncode != 0:
        return {"error": (proc.stderr.strip().splitlines() or ["?"])[-1]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def busy(n: int) -> list[subprocess.Popen]:
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]


def main() -> int:
    from model.select import demo_model_path

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default=None)
    ap.add_argument("--loads", default="0,1,2")
    ap.add_argument("--prompt-tokens", type=int, default=128)
    ap.add_argument("--decode", type=int, default=32)
    ap.add_argument("--max-threads", type=int, default=os.cpu_count() or 2)
    a = ap.parse_args()
    model = a.model or str(demo_model_path())
    rows = []
    for load in [int(x) for x in a.loads.split(",")]:
        procs = busy(load)
        time.sleep(1.0)
        try:
            configs = [("bare", str(t)) for t in range(1, a.max_threads + 1)]
            configs += [("ours", str(t)) for t in range(1, a.max_threads + 1)] + [("ours", "auto")]
            for kind, threads in configs:
                r = measure(kind, model, threads, a.prompt_tokens, a.decode) | {"kind": kind, "load": load}
                print(json.dumps(r), flush=True)
                rows.append(r)
        finally:
            for p in procs:
                p.kill()
                p.wait()
    print(f"\nmodel: {Path(model).name}; prompt {a.prompt_tokens} tokens, decode {a.decode} tokens; "
          f"{os.cpu_count()} CPUs\n")
    print("| competing busy processes | impl | threads | prefill tok/s | decode tok/s |")
    print("|---|---|---|---|---|")
    for r in rows:
        if "error" in r:
            print(f"| {r['load']} | {r['kind']} | {r.get('threads', '?')} | error: {r['error']} | |")
            continue
        chosen = f" (chose {r['chosen']})" if r.get("chosen") else ""
        print(f"| {r['load']} | {r['kind']} | {r['threads']}{chosen} | {r['prefill']:.1f} | {r['decode']:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
