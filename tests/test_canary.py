"""The canary: a llama.cpp build this CPU cannot run ends in one line with the fix, never a fatal error.

A real illegal-instruction crash needs a build for another CPU; the tests make
the canary child kill itself with SIGILL (``ASSISTANT_CANARY_FAULT``) right
after it reports the build's features, which is what the parent sees when the
build dies on its first matrix multiply.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from model.canary import CONSERVATIVE_CMAKE_ARGS, build_features, machine_features, run_canary

ROOT = Path(__file__).resolve().parents[1]
needs_llama = pytest.mark.skipif(importlib.util.find_spec("llama_cpp") is None, reason="llama-cpp-python missing")

AMX_VM = "processor\t: 0\nflags\t\t: fpu sse sse2 pni ssse3 fma avx avx2 f16c bmi2 avx512f avx512_vnni amx_tile amx_int8\n"


def test_machine_features_come_from_cpuinfo_in_llama_cpp_names():
    assert machine_features(AMX_VM) == ["AMX_INT8", "AMX_TILE", "AVX", "AVX2", "AVX512", "AVX512_VNNI", "BMI2",
                                        "F16C", "FMA", "SSE3", "SSSE3"]
    assert machine_features("") == []


@pytest.mark.parametrize("info, features", [
    ("CPU : SSE3 = 1 | SSSE3 = 1 | AVX = 1 | AVX2 = 1 | F16C = 1 | FMA = 1 | BMI2 = 1 | LLAMAFILE = 1 | OPENMP = 1",
     ["AVX", "AVX2", "BMI2", "F16C", "FMA", "SSE3", "SSSE3"]),
    ("CPU : SSE3 = 1 | AVX512 = 1 | AMX_INT8 = 1 | REPACK = 1", ["AMX_INT8", "AVX512", "SSE3"]),
    ("CPU : SSE3 = 1 | AVX = 0 | AVX2 = 0", ["SSE3"]),
    ("", []),
])
def test_build_features_are_the_instruction_sets_switched_on(info, features):
    assert build_features(info) == features


@needs_llama
def test_the_canary_passes_on_this_build():
    res = run_canary()
    assert res.ok and not res.crashed and res.message == ""
    assert res.system_info and "SSE3" in res.build, res.system_info


@needs_llama
def test_a_canary_killed_by_sigill_is_one_line_naming_signal_features_and_fix(monkeypatch):
    monkeypatch.setenv("ASSISTANT_CANARY_FAULT", "SIGILL")
    res = run_canary()
    assert not res.ok and res.crashed and res.signal == "SIGILL"
    msg = res.message
    assert "\n" not in msg and "SIGILL" in msg and "Rebuild it:" in msg
    assert "build: " in msg and "machine: " in msg and "llama_build.py install --conservative" in msg
    assert res.build, "the child reported the build's features before it died"


@needs_llama
def test_runtime_refuses_a_build_whose_canary_crashed(monkeypatch):
    from model.runtime import Runtime
    from model.select import demo_model_path
    from model.types import ModelError

    monkeypatch.setenv("ASSISTANT_CANARY_FAULT", "SIGSEGV")
    with pytest.raises(ModelError, match="SIGSEGV") as exc:
        Runtime(demo_model_path(), n_ctx=256)
    assert "\n" not in str(exc.value)


@needs_llama
def test_a_pass_is_remembered_in_the_marker_folder(tmp_path, monkeypatch):
    import model.canary as canary

    monkeypatch.setattr(canary, "_passed", set())
    canary.ensure_canary(tmp_path)
    markers = list(tmp_path.glob("canary-*.ok"))
    assert len(markers) == 1 and json.loads(markers[0].read_text())["ok"] is True
    monkeypatch.setattr(canary, "_passed", set())
    monkeypatch.setattr(canary, "run_canary", lambda: pytest.fail("the marker should have been used"))
    canary.ensure_canary(tmp_path)


@needs_llama
def test_headless_run_with_a_crashing_build_exits_1_with_one_line(tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    env = {"PATH": "/usr/bin:/bin", "ASSISTANT_HOME": str(tmp_path / "home"), "ASSISTANT_CANARY_FAULT": "SIGILL",
           "HOME": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-m", "assistant.cli", "run", "say hi", "--workspace", str(ws)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stderr
    err = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert "Fatal Python error" not in proc.stderr and len(err) == 1, proc.stderr
    assert "SIGILL" in err[0] and "Rebuild it:" in err[0]


@needs_llama
def test_doctor_reports_the_crash_and_never_loads_llama_in_process(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "ASSISTANT_HOME": str(tmp_path / "home"), "ASSISTANT_CANARY_FAULT": "SIGILL",
           "HOME": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-m", "assistant.cli", "doctor", "--json"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1 and "Fatal Python error" not in proc.stderr
    report = json.loads(proc.stdout)
    assert report["ok"] is False and report["canary"]["signal"] == "SIGILL"
    assert "Rebuild it:" in report["llama_cpp"]["error"] and report["loop_check"]["passed"] is False


@needs_llama
def test_doctor_lists_build_and_machine_cpu_features(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "ASSISTANT_HOME": str(tmp_path / "home"), "HOME": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-m", "assistant.cli", "doctor"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert "[ok  ] canary:" in proc.stdout, proc.stdout + proc.stderr
    build = next(ln for ln in proc.stdout.splitlines() if "CPU features of the build:" in ln)
    machine = next(ln for ln in proc.stdout.splitlines() if "CPU features of the machine:" in ln)
    assert "SSE3" in build and "AMX" not in build  # our builds never compile AMX in
    assert machine.split(":", 1)[1].strip() == " ".join(machine_features()) or not machine_features()


# ----------------------------------------------------------------- the install
def _llama_build():
    spec = importlib.util.spec_from_file_location("llama_build", ROOT / "packaging" / "llama_build.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


AVX2_ONLY = {"sse", "sse2", "pni", "ssse3", "avx", "avx2", "fma", "f16c", "bmi2"}


@pytest.mark.parametrize("user, machine, flags, want", [
    ("", "x86_64", AVX2_ONLY | {"avx512f", "amx_tile", "amx_int8"}, "PORTABLE_AVX2"),
    ("", "x86_64", AVX2_ONLY, "PORTABLE_AVX2"),
    ("", "x86_64", {"sse", "sse2", "pni", "avx"}, "CONSERVATIVE"),
    ("-DGGML_CUDA=on", "x86_64", AVX2_ONLY, "-DGGML_CUDA=on PORTABLE_AVX2"),
    ("-DGGML_CUDA=on -DGGML_NATIVE=ON", "x86_64", AVX2_ONLY, "-DGGML_CUDA=on -DGGML_NATIVE=ON"),
    ("-DGGML_METAL=on", "arm64", set(), "-DGGML_METAL=on"),
    ("", "aarch64", set(), ""),
])
def test_default_build_flags_never_include_amx_or_avx512(user, machine, flags, want):
    lb = _llama_build()
    want = want.replace("PORTABLE_AVX2", lb.PORTABLE_AVX2).replace("CONSERVATIVE", lb.CONSERVATIVE)
    got = lb.cmake_args(user, machine=machine, flags=flags)
    assert got == want
    if "GGML_NATIVE=ON" not in user and machine == "x86_64":
        assert "-DGGML_NATIVE=OFF" in got and "AMX" not in got and "AVX512=ON" not in got


def test_conservative_flags_agree_between_install_and_app():
    assert _llama_build().CONSERVATIVE == CONSERVATIVE_CMAKE_ARGS


def test_the_wheel_cache_is_keyed_by_the_build_flags(tmp_path, monkeypatch):
    lb = _llama_build()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    a, b = lb.wheel_dir("0.3.36", lb.PORTABLE_AVX2), lb.wheel_dir("0.3.36", lb.CONSERVATIVE)
    assert a != b and a.parent == b.parent == tmp_path / "assistant" / "llama-wheels"


def test_install_canary_rebuilds_once_conservatively_after_a_crash(monkeypatch, capsys):
    lb = _llama_build()
    monkeypatch.setattr(lb, "_installed_record", lambda py: {"cmake_args": lb.PORTABLE_AVX2})
    results = iter([(3, "llama.cpp crashed with SIGILL ..."), (0, "llama.cpp canary passed")])
    rebuilds = []
    rc = lb.canary("py", rebuild=lambda py, **kw: rebuilds.append(kw) or 0, check=lambda py: next(results))
    out = capsys.readouterr().out
    assert rc == 0 and rebuilds == [{"conservative": True, "force": True}]
    assert "rebuilding once with the conservative feature set" in out and "canary passed" in out


def test_install_canary_gives_up_after_the_second_crash(monkeypatch, capsys):
    lb = _llama_build()
    monkeypatch.setattr(lb, "_installed_record", lambda py: {"cmake_args": lb.PORTABLE_AVX2})
    rebuilds = []
    rc = lb.canary("py", rebuild=lambda py, **kw: rebuilds.append(kw) or 0,
                   check=lambda py: (3, "llama.cpp crashed with SIGILL; Rebuild it: ..."))
    assert rc == 1 and len(rebuilds) == 1
    assert capsys.readouterr().out.strip().endswith("Rebuild it: ...")


def test_install_canary_does_not_rebuild_for_a_failure_that_is_not_a_crash(monkeypatch):
    lb = _llama_build()
    monkeypatch.setattr(lb, "_installed_record", lambda py: {})
    rc = lb.canary("py", rebuild=lambda py, **kw: pytest.fail("no rebuild"),
                   check=lambda py: (1, "llama-cpp-python is not installed"))
    assert rc == 1


@needs_llama
def test_the_install_canary_command_runs_the_real_canary():
    proc = subprocess.run([sys.executable, str(ROOT / "packaging" / "llama_build.py"), "canary"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and "canary passed" in proc.stdout, proc.stdout + proc.stderr
