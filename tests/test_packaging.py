"""Packaging: the desktop entry, the install script, the build script's guard,
and (slow, opt-in) a real one-folder build whose binary passes ``doctor``.

The slow build runs only with ``ASSISTANT_BUILD_TESTS=1`` (it takes minutes and
~330 MB of disk), and only where PyInstaller is installed (the ``package`` extra).
"""

from __future__ import annotations

import configparser
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGING = ROOT / "packaging"
INSTALL = PACKAGING / "install.sh"
BUILD = PACKAGING / "build.sh"

needs_bash = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


def read_desktop(path: Path) -> configparser.SectionProxy:
    cp = configparser.ConfigParser(interpolation=None, strict=True)
    cp.optionxform = str  # keys are case-sensitive in desktop entries
    cp.read_string(path.read_text(encoding="utf-8"))
    return cp["Desktop Entry"]


def fake_build(tmp_path: Path, marker: str = "v1") -> Path:
    """A stand-in for dist/assistant: an executable that prints ``marker``."""
    app = tmp_path / f"dist-{marker}" / "assistant"
    (app / "_internal").mkdir(parents=True)
    exe = app / "assistant"
    exe.write_text(f"#!/bin/sh\necho {marker}\n")
    exe.chmod(0o755)
    (app / "_internal" / "data.txt").write_text(marker)
    return app


def install(*args: str, home: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "XDG_DATA_HOME"} | {"HOME": str(home)}
    return subprocess.run(["bash", str(INSTALL), *args], capture_output=True, text=True, env=env, timeout=60)


def test_desktop_entry_runs_the_cli_in_a_terminal():
    entry = read_desktop(PACKAGING / "assistant.desktop")
    assert entry["Type"] == "Application"
    assert entry["Terminal"] == "true"
    assert entry["Exec"].split()[0] == "assistant"
    assert entry["Name"] and entry["Comment"]
    assert entry["Categories"].endswith(";")


@needs_bash
def test_install_copies_the_app_links_it_and_points_the_desktop_entry_at_it(tmp_path):
    prefix = tmp_path / "prefix"
    r = install("--from", str(fake_build(tmp_path)), "--prefix", str(prefix), home=tmp_path)
    assert r.returncode == 0, r.stderr
    app = prefix / "lib" / "assistant" / "assistant"
    link = prefix / "bin" / "assistant"
    assert link.is_symlink() and link.resolve() == app.resolve()
    assert subprocess.run([str(link)], capture_output=True, text=True).stdout.strip() == "v1"
    entry = read_desktop(prefix / "share" / "applications" / "assistant.desktop")
    assert entry["Exec"] == str(app) and entry["TryExec"] == str(app)
    assert entry["Terminal"] == "true"


@needs_bash
def test_reinstall_replaces_the_old_version_and_leaves_no_staging_folders(tmp_path):
    prefix = tmp_path / "prefix"
    assert install("--from", str(fake_build(tmp_path, "v1")), "--prefix", str(prefix), home=tmp_path).returncode == 0
    r = install("--from", str(fake_build(tmp_path, "v2")), "--prefix", str(prefix), home=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (prefix / "lib" / "assistant" / "_internal" / "data.txt").read_text() == "v2"
    assert sorted(p.name for p in (prefix / "lib").iterdir()) == ["assistant"]


@needs_bash
def test_install_without_a_build_fails_with_a_hint_and_changes_nothing(tmp_path):
    prefix = tmp_path / "prefix"
    r = install("--from", str(tmp_path / "missing"), "--prefix", str(prefix), home=tmp_path)
    assert r.returncode == 2
    assert "packaging/build.sh" in r.stderr
    assert not prefix.exists()


@needs_bash
def test_install_refuses_to_replace_a_foreign_assistant_command(tmp_path):
    prefix = tmp_path / "prefix"
    (prefix / "bin").mkdir(parents=True)
    foreign = prefix / "bin" / "assistant"
    foreign.write_text("#!/bin/sh\necho pipx\n")
    r = install("--from", str(fake_build(tmp_path)), "--prefix", str(prefix), home=tmp_path)
    assert r.returncode == 2 and "not our link" in r.stderr
    assert foreign.read_text() == "#!/bin/sh\necho pipx\n"


@needs_bash
def test_uninstall_removes_the_app_but_not_user_data_or_foreign_links(tmp_path):
    prefix = tmp_path / "prefix"
    assert install("--from", str(fake_build(tmp_path)), "--prefix", str(prefix), home=tmp_path).returncode == 0
    user_data = prefix / "share" / "assistant" / "state.db"
    user_data.parent.mkdir(parents=True)
    user_data.write_text("tasks")
    r = install("--uninstall", "--prefix", str(prefix), home=tmp_path)
    assert r.returncode == 0, r.stderr
    assert not (prefix / "lib" / "assistant").exists()
    assert not (prefix / "bin" / "assistant").exists()
    assert not (prefix / "share" / "applications" / "assistant.desktop").exists()
    assert user_data.read_text() == "tasks"

    other = prefix / "bin" / "assistant"
    other.symlink_to("/usr/bin/true")
    assert install("--uninstall", "--prefix", str(prefix), home=tmp_path).returncode == 0
    assert other.is_symlink()


@needs_bash
def test_build_without_pyinstaller_says_how_to_get_it(tmp_path):
    no_pyinstaller = tmp_path / "python"
    no_pyinstaller.write_text("#!/bin/sh\nexit 1\n")
    no_pyinstaller.chmod(0o755)
    env = os.environ | {"PYTHON": str(no_pyinstaller), "DIST": str(tmp_path / "dist"), "WORK": str(tmp_path / "w")}
    r = subprocess.run(["bash", str(BUILD)], capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 2
    assert "[package]" in r.stderr
    assert not (tmp_path / "dist").exists()


def _has_pyinstaller() -> bool:
    r = subprocess.run([sys.executable, "-P", "-c", "import PyInstaller"], capture_output=True, cwd="/")
    return r.returncode == 0


@pytest.mark.slow
@pytest.mark.timeout(1800)
@pytest.mark.skipif(os.environ.get("ASSISTANT_BUILD_TESTS") != "1", reason="set ASSISTANT_BUILD_TESTS=1 to build")
def test_built_app_passes_doctor_with_the_bundled_llama_cpp_and_demo_model(tmp_path):
    if not _has_pyinstaller():
        pytest.skip("PyInstaller is not installed (pip install -e '.[package]')")
    dist = tmp_path / "dist"
    env = os.environ | {"PYTHON": sys.executable, "DIST": str(dist), "WORK": str(tmp_path / "work")}
    r = subprocess.run(["bash", str(BUILD)], capture_output=True, text=True, env=env, timeout=1700)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-4000:]
    app = dist / "assistant"
    internal = app / "_internal"
    assert (internal / "llama_cpp" / "lib" / "libllama.so").is_file()
    assert (internal / "assistant" / "tui" / "app.tcss").is_file()

    run_env = {k: v for k, v in os.environ.items() if not k.startswith(("ASSISTANT_", "PYTHON"))}
    run_env |= {"ASSISTANT_HOME": str(tmp_path / "home")}
    d = subprocess.run([str(app / "assistant"), "doctor", "--json"], capture_output=True, text=True,
                       env=run_env, cwd=tmp_path, timeout=600)
    report = json.loads(d.stdout)
    assert report["loop_check"]["passed"] and report["loop_check"]["loops_differ"], report["loop_check"]
    assert "error" not in report["llama_cpp"], report["llama_cpp"]
    model = report["default_model"]
    assert model.get("is_demo") and Path(model["path"]).resolve().is_relative_to(internal.resolve()), model
    assert report["version"] != "0+unknown"
    assert report["ok"] and d.returncode == 0


@needs_bash
def test_install_runs_the_canary_and_says_how_to_fix_a_build_this_cpu_cannot_run(tmp_path):
    app = fake_build(tmp_path)
    (app / "assistant").write_text('#!/bin/sh\nif [ "$1 $2" = "doctor --canary" ]; then\n'
                                   '  echo "llama.cpp crashed with SIGILL ... Rebuild it: ..."; exit 1\nfi\necho v1\n')
    prefix = tmp_path / "prefix"
    r = install("--from", str(app), "--prefix", str(prefix), home=tmp_path)
    assert r.returncode == 1 and "SIGILL" in r.stdout
    assert "make rebuild-llama && packaging/build.sh" in r.stderr
