"""CLI commands about the model and the install: ``doctor`` and ``model list|info|pull``.

``doctor`` reports what a user needs to trust the install: Python, the
llama.cpp build, the loop check (a tiny random ``nanbeige`` model run by
llama.cpp against a NumPy reference, well under a second), the default model
with its memory plan, the base prompt size, plugins, and the state folders.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
from pathlib import Path
from typing import Any

from .infra import paths

__all__ = ["add_commands", "doctor_report", "cmd_doctor", "cmd_model_info", "cmd_model_list", "cmd_model_pull"]

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Add ``doctor`` and ``model`` to the CLI's subparsers."""
    doc = sub.add_parser("doctor", help="check the install, the llama.cpp build and the default model",
                         description="Check Python, the llama.cpp build (looped-model verification), "
                                     "the default model and its memory plan, plugins and folders.")
    doc.add_argument("--json", action="store_true", help="print one JSON object")
    doc.add_argument("--model", metavar="PATH|NAME", help="check this model instead of the default")
    doc.add_argument("--canary", action="store_true",
                     help="only run the canary (a tiny model in a subprocess: does this llama.cpp build run here?)")
    doc.set_defaults(func=cmd_doctor)

    model = sub.add_parser("model", help="list, inspect or download models",
                           description="List pulled models, show a GGUF's facts and memory plan, or download one.")
    msub = model.add_subparsers(dest="model_command", metavar="COMMAND")
    ls = msub.add_parser("list", help="models on this machine: pulled, Hugging Face cache, LM Studio, Ollama, "
                                      "model.search_paths, demo",
                         description="List the GGUF models on this machine with their facts and memory plan.")
    ls.add_argument("--json", action="store_true", help="print JSON Lines")
    ls.set_defaults(func=cmd_model_list)
    info = msub.add_parser("info", help="facts and memory plan of a GGUF file",
                           description="Read a GGUF header (no weights loaded) and plan memory for it.")
    info.add_argument("path", metavar="PATH", help="a .gguf file, or a model name (e.g. demo)")
    info.add_argument("--ctx", type=_positive_int, metavar="N",
                      help="context size to plan for (default: trained context)")
    info.add_argument("--cache-type", default="f16", choices=["f16", "q8_0"], help="KV cache type (default f16)")
    info.add_argument("--json", action="store_true", help="print one JSON object")
    info.set_defaults(func=cmd_model_info)
    pull = msub.add_parser("pull", help="download a GGUF from the Hugging Face hub",
                           description="Download a model (e.g. nanbeige4.2-3b, owner/repo or owner/repo:FILE.gguf), "
                                       "verifying its sha256. Honours HF_ENDPOINT.")
    pull.add_argument("name", metavar="NAME")
    pull.add_argument("--json", action="store_true", help="print one JSON object")
    pull.set_defaults(func=cmd_model_pull)
    model.set_defaults(func=lambda args: (model.print_help(), EXIT_USAGE)[1])


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError("must be a positive number of tokens")
    return value


def _models_dir() -> Path:
    return paths.data_dir() / "models"


def _print_json(obj: Any) -> None:
    print(json.dumps(obj, default=str))


# ------------------------------------------------------------------ model info
def _resolve_path(value: str) -> Path:
    from model.select import resolve_model

    return resolve_model(value, {}, None, _models_dir()).path


def model_info(path: Path, *, ctx: int | None = None, cache_type: str = "f16") -> dict[str, Any]:
    """Facts and memory plan of ``path`` (raises ``model.gguf_facts.GGUFError``)."""
    from model.gguf_facts import read_facts
    from model.memory_plan import plan_memory

    facts = read_facts(path)
    plan = plan_memory(facts, requested_ctx=ctx, cache_type=cache_type)
    return {"facts": facts.as_dict(), "memory_plan": plan.as_dict(), "memory_summary": plan.summary()}


def _format_info(info: dict[str, Any]) -> str:
    f = info["facts"]
    gib = 1024**3
    rows = [
        ("file", f"{f['path']} ({f['file_size'] / gib:.2f} GiB)"),
        ("name", f["name"]),
        ("architecture", f["architecture"]),
        ("quantization", f["quantization"]),
        ("layers", f"{f['block_count']} physical x {f['num_loops']} loops = {f['kv_layers']} KV-cache layers"),
        ("attention", f"{f['head_count']} heads, {f['head_count_kv']} KV heads, head dim {f['head_dim']}"),
        ("embedding", f"{f['embedding_length']} (FFN {f['feed_forward_length']})"),
        ("context", f"{f['context_length']} tokens trained"),
        ("vocab", str(f["vocab_size"])),
        ("chat template", "yes" if f["has_chat_template"] else "no (ChatML fallback)"),
        ("special tokens", ", ".join(f"{k}={v}" for k, v in f["special_tokens"].items()) or "-"),
        ("memory plan", info["memory_summary"]),
        ("KV at full context", f"{info['memory_plan']['kv_bytes_full_context'] / gib:.2f} GiB"),
    ]
    return "\n".join(f"{k:>18}: {v}" for k, v in rows)


def cmd_model_info(args: argparse.Namespace) -> int:
    from model.gguf_facts import GGUFError
    from model.types import ModelError

    try:
        path = Path(args.path) if Path(args.path).exists() else _resolve_path(args.path)
        info = model_info(path, ctx=args.ctx, cache_type=args.cache_type)
    except (GGUFError, ModelError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAIL
    _print_json(info) if args.json else print(_format_info(info))
    return EXIT_OK


# ------------------------------------------------------------------ model list
def cmd_model_list(args: argparse.Namespace) -> int:
    from .cli_model_list import run_model_list

    return run_model_list(args, _models_dir())


# ------------------------------------------------------------------ model pull
def cmd_model_pull(args: argparse.Namespace) -> int:
    from model.pull import PullError, format_pull_result, pull_model

    try:
        r = pull_model(args.name, _models_dir(), progress=not args.json)
    except PullError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAIL
    if args.json:
        _print_json({"path": str(r.path), "repo": r.repo, "filename": r.filename, "sha256": r.sha256,
                     "size": r.size, "already_present": r.already_present})
    else:
        print(format_pull_result(r))
    return EXIT_OK


# ---------------------------------------------------------------------- doctor
def _llama_build() -> dict[str, Any]:
    """The build's version and CPU features; loaded in-process only after the canary passed."""
    from model.canary import build_features, machine_features
    from model.threads import configure_environment

    try:
        configure_environment()
        import llama_cpp

        info = llama_cpp.llama_print_system_info().decode(errors="replace").strip()
        return {"llama_cpp_python": llama_cpp.__version__, "system_info": info,
                "build_features": build_features(info), "machine_features": machine_features(),
                "mmap": bool(llama_cpp.llama_supports_mmap()),
                "gpu_offload": bool(llama_cpp.llama_supports_gpu_offload())}
    except Exception as exc:  # noqa: BLE001 - reported
        return {"error": f"llama-cpp-python failed to load: {exc}"}


def _canary() -> dict[str, Any]:
    """Run the canary subprocess (a tiny model on this build and CPU), fresh."""
    from model.canary import run_canary
    from model.types import ModelError

    try:
        return run_canary().as_dict()
    except ModelError as exc:
        return {"ok": False, "signal": "", "message": str(exc), "build_features": [], "machine_features": []}


def _remote_model(settings: Any, probe: dict[str, Any] | None) -> dict[str, Any]:
    """The model a task uses with ``model.backend = "openai"``: ``model.model_name``,
    else the first model the server lists (``probe``: ``probe_server``'s answer)."""
    m = settings.model
    if not m.base_url:
        return {"error": "model.backend is 'openai' but model.base_url is not set", "backend": "openai"}
    served = (probe or {}).get("models") or []
    name = m.model_name or (served[0] if served else None)
    return {"label": name or "the server's first model", "is_demo": False, "backend": "openai",
            "source": "model.model_name" if m.model_name else "the server's model list",
            "base_url": m.base_url, "model_name": name}


def _default_model(settings: Any, cli_value: str | None) -> dict[str, Any]:
    from model.gguf_facts import GGUFError
    from model.select import resolve_model
    from model.types import ModelError

    try:
        choice = resolve_model(cli_value, None, settings.model.path if settings else None, _models_dir())
        info = model_info(choice.path, ctx=(settings.model.n_ctx if settings else None) or 16384)
    except (ModelError, GGUFError) as exc:
        return {"error": str(exc)}
    return {"label": choice.label, "is_demo": choice.is_demo, "source": choice.source, "path": str(choice.path),
            "num_loops": info["facts"]["num_loops"], "memory_plan": info["memory_summary"],
            "n_ctx": info["memory_plan"]["n_ctx"]}


def _prompt_size(model_path: str | None) -> dict[str, Any]:
    """Tokens of system prompt + all built-in tool schemas on the demo tokenizer."""
    try:
        from model.chat import open_chat_model
        from model.select import demo_model_path

        from .loop.prompt import PROMPT_TOKEN_LIMIT, base_prompt_tokens
        from .toolset import build_toolset

        from .loop.toolgroups import GROUPS, active_schemas

        ts = build_toolset(None, plugins=True, mcp=False)
        try:
            chat = open_chat_model(demo_model_path(), n_ctx=8192, n_threads=1)
            try:
                core = active_schemas(ts.registry, [])
                n = base_prompt_tokens(chat, core, chat.fmt)
                n_all = base_prompt_tokens(chat, active_schemas(ts.registry, list(GROUPS)), chat.fmt)
            finally:
                chat.runtime.close()
        finally:
            ts.close()
        return {"tokens": n, "limit": PROMPT_TOKEN_LIMIT, "tools": len(core), "ok": n <= PROMPT_TOKEN_LIMIT,
                "all_groups_tokens": n_all, "all_tools": len(ts.registry)}
    except Exception as exc:  # noqa: BLE001 - reported
        return {"error": f"{type(exc).__name__}: {exc}"}


def _plugins(settings: Any) -> dict[str, Any]:
    """Every plugin and MCP server (started, then stopped) with its tools, state and error."""
    try:
        from .cli_plugins import collect_plugins
        from .config import Settings

        rows = [s.as_dict() for s in collect_plugins(settings if settings is not None else Settings())]
        problems = [f"{r['kind']} {r['name']}: {r['error']}" for r in rows if r["state"] == "failed"]
        tools = sum(len(r["tools"]) for r in rows)
        return {"tools": tools, "problems": problems, "plugins": rows}
    except Exception as exc:  # noqa: BLE001 - reported
        return {"error": f"{type(exc).__name__}: {exc}"}


def _remote(settings: Any) -> dict[str, Any] | None:
    if settings is None or settings.model.backend != "openai":
        return None
    try:
        from model.remote import probe_server

        from .infra.secret_cache import read_secret

        return probe_server(settings.model.base_url or "", api_key=read_secret("openai_api_key"), timeout=5)
    except Exception as exc:  # noqa: BLE001 - reported
        return {"error": str(exc)}


def doctor_report(cli_model: str | None = None) -> dict[str, Any]:
    """Everything ``assistant doctor`` checks, as a JSON-friendly dict.

    ``ok`` is False when the llama.cpp build fails the loop check, llama.cpp
    does not load, or the default model cannot be read.
    """
    from model.loopcheck import verify_loops

    settings = None
    config_error = None
    try:
        from .config import load_config

        settings = load_config(None)
    except Exception as exc:  # noqa: BLE001 - reported
        config_error = str(exc)
    from importlib.metadata import PackageNotFoundError, version

    try:
        __version__ = version("assistant")
    except PackageNotFoundError:  # running from a source tree that is not installed
        __version__ = "0+unknown"

    canary = _canary()
    if canary["ok"]:
        loop = verify_loops()
        loop_report = loop.as_dict() | {"max_abs_err": {str(k): v for k, v in loop.max_abs_err.items()}}
        build = _llama_build()
        prompt = _prompt_size(cli_model)
    else:  # loading llama.cpp in-process would crash the way the canary did
        skipped = "skipped: the canary failed"
        loop_report = {"passed": False, "error": skipped, "max_abs_err": {}, "loops_differ": False, "seconds": 0.0}
        build = {"error": canary["message"], "build_features": canary["build_features"],
                 "machine_features": canary["machine_features"]}
        prompt = {"error": skipped}
    report: dict[str, Any] = {
        "version": __version__,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "canary": canary,
        "llama_cpp": build,
        "loop_check": loop_report,
        "default_model": _default_model(settings, cli_model),
        "base_prompt": prompt,
        "plugins": _plugins(settings),
        "state_dir": str(paths.state_dir()),
        "config_file": str(paths.user_config_file()),
        "models_dir": str(_models_dir()),
        "config_error": config_error,
    }
    remote = _remote(settings)
    if remote is not None:
        report["remote_engine"] = remote
        report["default_model"] = _remote_model(settings, remote)
    report["ok"] = bool(canary["ok"] and loop_report["passed"] and "error" not in report["llama_cpp"]
                        and "error" not in report["default_model"]
                        and not config_error)
    return report


def _format_doctor(r: dict[str, Any]) -> str:
    def mark(ok: bool) -> str:
        return "ok  " if ok else "FAIL"

    lc = r["loop_check"]
    errs = ", ".join(f"{k} loop(s) {v:.1e}" for k, v in lc["max_abs_err"].items())
    cn = r["canary"]
    lc_ = r["llama_cpp"]
    lines = [
        f"assistant {r['version']} on Python {r['python']} ({r['platform']})",
        f"[{mark(cn['ok'])}] canary: " + (cn["message"] or f"a tiny model ran in a subprocess in {cn['seconds']:.1f} s"),
        f"[{mark('error' not in lc_)}] llama.cpp: "
        + (lc_.get("error") or f"llama-cpp-python {lc_['llama_cpp_python']}, "
           f"mmap {'yes' if lc_['mmap'] else 'no'}, GPU offload {'yes' if lc_['gpu_offload'] else 'no'}"),
        f"       CPU features of the build:   {' '.join(lc_.get('build_features') or []) or '?'}",
        f"       CPU features of the machine: {' '.join(lc_.get('machine_features') or []) or '?'}",
        f"[{mark(lc['passed'])}] looped models (nanbeige): "
        + (lc["error"] or f"llama.cpp matches the NumPy reference ({errs}); 2 loops differ from 1: "
           f"{'yes' if lc['loops_differ'] else 'NO'}; {lc['seconds']:.2f} s"),
    ]
    dm = r["default_model"]
    if "error" in dm:
        lines.append(f"[FAIL] default model: {dm['error']}")
    elif dm.get("backend") == "openai":
        lines.append(f"[ok  ] model: {dm['label']} on the OpenAI-compatible server {dm['base_url']} "
                     f"(model.backend = openai; from {dm['source']})")
    else:
        source = "" if dm["is_demo"] else f" (from {dm['source']})"
        lines.append(f"[ok  ] default model: {dm['label']}{source}, {dm['num_loops']} loop(s)")
        lines.append(f"       memory plan: {dm['memory_plan']}")
        if dm["is_demo"]:
            lines.append("       this is the small demo model; for real work: assistant model pull nanbeige4.2-3b")
    bp = r["base_prompt"]
    if "error" in bp:
        lines.append(f"[warn] base prompt: {bp['error']}")
    else:
        lines.append(f"[{mark(bp['ok'])}] base prompt: {bp['tokens']} tokens on the demo tokenizer (system prompt + "
                     f"{bp['tools']} core tools; limit {bp['limit']}); with every tool group loaded: "
                     f"{bp['all_groups_tokens']} tokens for {bp['all_tools']} tools")
    pl = r["plugins"]
    if "error" in pl:
        lines.append(f"[warn] plugins: {pl['error']}")
    else:
        from .cli_plugins import format_plugins

        n_mcp = sum(1 for p in pl["plugins"] if p["kind"] == "mcp")
        lines.append(f"[{mark(not pl['problems'])}] plugins: {len(pl['plugins']) - n_mcp} plugin(s), "
                     f"{n_mcp} MCP server(s), {pl['tools']} tools")
        lines += format_plugins(pl["plugins"], indent="       ")
    if "remote_engine" in r:
        re_ = r["remote_engine"]
        lines.append(f"[{mark('error' not in re_)}] remote engine: {re_.get('error') or re_}")
    if r["config_error"]:
        lines.append(f"[FAIL] config: {r['config_error']}")
    lines.append(f"       state: {r['state_dir']}   config: {r['config_file']}   models: {r['models_dir']}")
    return "\n".join(lines)


def cmd_doctor(args: argparse.Namespace) -> int:
    if getattr(args, "canary", False):
        res = _canary()
        _print_json(res) if args.json else print(res["message"] or f"canary passed in {res['seconds']:.1f} s")
        return EXIT_OK if res["ok"] else EXIT_FAIL
    report = doctor_report(getattr(args, "model", None))
    _print_json(report) if args.json else print(_format_doctor(report))
    return EXIT_OK if report["ok"] else EXIT_FAIL
