#!/usr/bin/env python3
"""Build and install llama-cpp-python for *this* machine, then prove it runs here.

Usage (the Makefile runs both; stdlib only, so it runs before the project is installed):

    python packaging/llama_build.py install [--conservative]   # build (or reuse) the wheel, install it
    python packaging/llama_build.py canary                     # run the canary; rebuild once if it crashes

Why: llama.cpp's default build is ``GGML_NATIVE=ON`` (``-march=native``), which
compiles in every feature the CPU *advertises*. Cloud VMs advertise AMX and
AVX-512 they do not all execute, and the build then dies with an illegal
instruction at the first matrix multiply (llama.cpp #13678, #28328, #28756;
unsloth #4535). So on x86-64 the default here is a portable build: AVX2 + FMA +
F16C + BMI2 when ``/proc/cpuinfo`` lists them all (never AVX-512 or AMX), else
SSE only. The user's own ``CMAKE_ARGS`` (GPU flags from the README) are kept;
ours are added unless they set ``GGML_NATIVE`` themselves.

Wheels are cached per (version, CMake arguments) under
``${XDG_CACHE_HOME:-~/.cache}/assistant/llama-wheels/`` — pip's own wheel cache
ignores ``CMAKE_ARGS``, so a wheel built for another CPU would come back.

The canary (``python -m model.canary``) loads the demo model in a subprocess.
If that subprocess dies by a signal, the wheel is rebuilt once with the
conservative (SSE only) feature set, and the canary runs again.

Exit: 0 installed and the canary passed; 1 build or canary failure (one line says why); 2 usage.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shlex
import subprocess
import sys
from pathlib import Path

LLAMA_CPP_VERSION = os.environ.get("LLAMA_CPP_VERSION", "0.3.36")
"""The llama-cpp-python release we build: the first whose llama.cpp knows ``nanbeige`` loops."""

PORTABLE_AVX2 = "-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON"
CONSERVATIVE = ("-DGGML_NATIVE=OFF -DGGML_AVX=OFF -DGGML_AVX2=OFF -DGGML_AVX512=OFF -DGGML_FMA=OFF "
                "-DGGML_F16C=OFF -DGGML_BMI2=OFF")
# Kept equal to model.canary.CONSERVATIVE_CMAKE_ARGS (a test checks it): this script cannot import the project.

ROOT = Path(__file__).resolve().parent.parent
RECORD = "llama-build.json"


def cpu_flags(cpuinfo: str | None = None) -> set[str]:
    """The CPU flags the kernel lists (``/proc/cpuinfo``), empty off Linux."""
    if cpuinfo is None:
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text(errors="replace")
        except OSError:
            return set()
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("flags", "Features"):
            return set(value.split())
    return set()


def cmake_args(user_args: str, *, conservative: bool = False, machine: str | None = None,
               flags: set[str] | None = None) -> str:
    """The ``CMAKE_ARGS`` to build with.

    Args:
        user_args: the user's own ``CMAKE_ARGS`` (kept first).
        conservative: SSE only on x86-64 (the fallback after a crash).
        machine: ``platform.machine()`` (for tests).
        flags: CPU flags (for tests; default :func:`cpu_flags`).

    Returns:
        A string for the ``CMAKE_ARGS`` environment variable. Off x86-64, and when
        the user set ``GGML_NATIVE`` themselves, the user's arguments unchanged.
    """
    machine = (machine or platform.machine()).lower()
    if "GGML_NATIVE" in user_args or machine not in ("x86_64", "amd64"):
        return user_args.strip()
    flags = cpu_flags() if flags is None else flags
    if conservative or not {"avx", "avx2", "fma", "f16c", "bmi2"} <= flags:
        ours = CONSERVATIVE
    else:
        ours = PORTABLE_AVX2
    return f"{user_args.strip()} {ours}".strip()


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "assistant" / "llama-wheels"


def wheel_dir(version: str, args: str) -> Path:
    """The cache folder of one (version, CMake arguments) build."""
    key = hashlib.sha256(f"{version}\n{args}\n{sys.version_info[:2]}".encode()).hexdigest()[:16]
    return cache_root() / f"{version}-{key}"


def _say(line: str) -> None:
    print(f"llama_build: {line}", flush=True)


def _installed_record(python: str) -> dict:
    out = subprocess.run([python, "-c", "import sys; print(sys.prefix)"], capture_output=True, text=True)
    path = Path(out.stdout.strip()) / RECORD
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


def _write_record(python: str, record: dict) -> None:
    out = subprocess.run([python, "-c", "import sys; print(sys.prefix)"], capture_output=True, text=True)
    (Path(out.stdout.strip()) / RECORD).write_text(json.dumps(record, indent=1))


def _imports(python: str) -> bool:
    return subprocess.run([python, "-c", "import llama_cpp"], capture_output=True).returncode == 0


def install(python: str, *, conservative: bool = False, force: bool = False) -> int:
    """Build (or reuse) and install the wheel into ``python``'s environment. Returns an exit code."""
    args = cmake_args(os.environ.get("CMAKE_ARGS", ""), conservative=conservative)
    record = {"version": LLAMA_CPP_VERSION, "cmake_args": args}
    if not force and _installed_record(python) == record and _imports(python):
        return 0
    folder = wheel_dir(LLAMA_CPP_VERSION, args)
    wheels = sorted(folder.glob("llama_cpp_python-*.whl"))
    if not wheels:
        _say(f"compiling llama.cpp {LLAMA_CPP_VERSION} with CMAKE_ARGS={shlex.quote(args)} "
             "(about 8 minutes on 2 cores; cached afterwards)")
        folder.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, CMAKE_ARGS=args)
        env.setdefault("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 2))
        cmd = [python, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-cache-dir", "--no-binary",
               "llama-cpp-python", f"llama-cpp-python=={LLAMA_CPP_VERSION}", "-w", str(folder)]
        if subprocess.run(cmd, env=env).returncode != 0:
            _say("the llama.cpp build failed (see above); it needs a C/C++ compiler and CMake")
            return 1
        wheels = sorted(folder.glob("llama_cpp_python-*.whl"))
        if not wheels:
            _say(f"the build produced no wheel in {folder}")
            return 1
    cmd = [python, "-m", "pip", "install", "--quiet", "--no-deps", "--force-reinstall", str(wheels[-1])]
    if subprocess.run(cmd).returncode != 0:
        _say(f"could not install {wheels[-1].name}")
        return 1
    _write_record(python, record)
    return 0


def run_canary(python: str) -> tuple[int, str]:
    """Run ``python -m model.canary`` from the source tree. Returns (exit code, its one line)."""
    proc = subprocess.run([python, "-m", "model.canary"], cwd=ROOT, capture_output=True, text=True)
    lines = [ln for ln in (proc.stdout + proc.stderr).strip().splitlines() if ln.strip()]
    return proc.returncode, (lines[-1] if lines else f"exit status {proc.returncode}")


def canary(python: str, *, rebuild=install, check=run_canary) -> int:
    """Run the canary; on a crash (exit 3) rebuild once conservatively and run it again."""
    rc, line = check(python)
    if rc == 0:
        _say(line)
        return 0
    if rc != 3:
        _say(line)
        return 1
    if cmake_args(os.environ.get("CMAKE_ARGS", ""), conservative=True) == _installed_record(python).get("cmake_args"):
        _say(line)
        return 1
    _say("this llama.cpp build crashed on this CPU; rebuilding once with the conservative feature set (SSE only)")
    if rebuild(python, conservative=True, force=True) != 0:
        return 1
    rc, line = check(python)
    _say(line)
    return 0 if rc == 0 else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="llama_build.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=["install", "canary", "args"])
    parser.add_argument("--python", default=sys.executable, help="the environment to install into")
    parser.add_argument("--conservative", action="store_true", help="SSE only (after an illegal-instruction crash)")
    parser.add_argument("--force", action="store_true", help="reinstall even when the same build is installed")
    a = parser.parse_args(argv)
    if a.action == "args":
        print(cmake_args(os.environ.get("CMAKE_ARGS", ""), conservative=a.conservative))
        return 0
    if a.action == "install":
        return install(a.python, conservative=a.conservative, force=a.force or a.conservative)
    return canary(a.python)


if __name__ == "__main__":
    sys.exit(main())
