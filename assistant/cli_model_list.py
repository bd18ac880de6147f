"""``assistant model list [--json]``: the GGUFs on this machine, grouped by where they were found.

Sources (see :mod:`model.discover`): the pulled-models folder, the folders in
``model.search_paths``, the Hugging Face cache, LM Studio, Ollama, and the demo
model. Each usable model comes with its facts, its memory plan at the context
the runtime would use, and the command line that runs it; a file that is not a
usable GGUF is listed with a one-line problem.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import Any

__all__ = ["found_models", "use_hints", "format_found", "run_model_list"]


def found_models(settings: Any, models_dir: Path) -> list[Any]:
    """``list[model.discover.FoundModel]``, described, for ``settings`` (an
    ``assistant.config.Settings``, or None for defaults) and the pulled-models folder."""
    from model.discover import DEFAULT_CTX, discover_models

    model = settings.model if settings is not None else None
    return discover_models(pulled_dir=models_dir, extra_paths=model.search_paths if model else (),
                           n_ctx=(model.n_ctx if model else None) or DEFAULT_CTX)


def use_hints(path: str) -> tuple[str, str]:
    """``(command line, config.toml line)`` that run the model at ``path``."""
    return f"assistant run --model {shlex.quote(path)} GOAL", f"[model] path = {json.dumps(path)}"


def _model_arg(row: dict[str, Any]) -> str:
    """What ``--model`` takes for this row: the path, or "demo" for the demo model."""
    return "demo" if row["source"] == "demo" else row["path"]


def format_found(rows: list[dict[str, Any]], headings: dict[str, str], roots: dict[str, list[str]]) -> str:
    """Text for ``FoundModel.as_dict()`` rows, one group per source in ``headings``
    order (``roots``: source -> the folders searched, shown after the heading)."""
    lines: list[str] = []
    for source, heading in headings.items():
        group = [r for r in rows if r["source"] == source]
        if not group:
            continue
        where = ", ".join(roots.get(source, []))
        lines.append(heading + (f" ({where})" if where else ""))
        for r in group:
            if r["problem"]:
                lines.append(f"  {r['name']}: cannot use: {r['problem']}")
                continue
            lines.append(f"  {r['name']}  [{r['architecture']}, {r['num_loops']} loop(s), {r['quantization']}, "
                         f"{(r['size'] or 0) / 1024**3:.2f} GiB]")
            lines.append(f"      memory plan: {r['memory_plan']}" + ("" if r["fits"] else "  (DOES NOT FIT)"))
            lines.append(f"      use: {use_hints(_model_arg(r))[0]}")
    usable = [r for r in rows if not r["problem"] and r["source"] != "demo"]
    if usable:
        lines += ["", "To make one the default, put its path in config.toml, e.g.:  " + use_hints(usable[0]["path"])[1]]
    else:
        lines += ["", "No models found besides the demo model. Pull the reference model with: "
                  "assistant model pull nanbeige4.2-3b",
                  "(looked in the pulled-models folder, model.search_paths, the Hugging Face cache, "
                  "LM Studio and Ollama)"]
    return "\n".join(lines)


def run_model_list(args: argparse.Namespace, models_dir: Path) -> int:
    """``assistant model list``: JSON Lines with ``--json`` (``FoundModel.as_dict()``
    plus ``demo``, ``loops`` and ``use``), else grouped text. Always exit code 0."""
    from model.discover import SOURCES, search_roots

    from .config import ConfigError, load_config

    try:
        settings = load_config(None)
    except ConfigError as exc:
        print(f"warning: {exc} (model.search_paths not searched)", file=sys.stderr)
        settings = None
    rows = []
    for m in found_models(settings, models_dir):
        row = m.as_dict() | {"demo": m.source == "demo", "loops": m.facts.num_loops if m.facts else None}
        row["use"] = None if m.problem else dict(zip(("command", "config"), use_hints(_model_arg(row))))
        rows.append(row)
    if args.json:
        for r in rows:
            print(json.dumps(r))
        return 0
    roots: dict[str, list[str]] = {}
    extra = settings.model.search_paths if settings is not None else ()
    for root in search_roots(pulled_dir=models_dir, extra_paths=extra):
        if root.path.is_dir():
            roots.setdefault(root.source, []).append(str(root.path))
    print(format_found(rows, SOURCES, roots))
    return 0
