"""The example plugin in docs/plugins.md: installed as a distribution with an
``assistant.plugins`` entry point, discovered, and run against a real workspace."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from plugins import load_plugins
from tools.base import ToolContext

EXAMPLE = Path(__file__).parent / "example_plugin"
DOCS = Path(__file__).parents[1] / "docs" / "plugins.md"
MODULE = "assistant_word_count"


def doc_blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", DOCS.read_text(), flags=re.S)


def test_docs_show_exactly_the_example_that_is_tested():
    assert (EXAMPLE / f"{MODULE}.py").read_text() in doc_blocks("python")
    assert (EXAMPLE / "pyproject.toml").read_text() in doc_blocks("toml")


def install_as_dist(target: Path) -> None:
    """What an install leaves on sys.path: the module plus a dist-info whose
    entry_points.txt comes from the example's own pyproject."""
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text())["project"]
    shutil.copy(EXAMPLE / f"{MODULE}.py", target / f"{MODULE}.py")
    dist = target / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n")
    lines = ["[assistant.plugins]"] + [
        f"{k} = {v}" for k, v in project["entry-points"]["assistant.plugins"].items()]
    (dist / "entry_points.txt").write_text("\n".join(lines) + "\n")


@pytest.fixture
def workspace(tmp_path):
    from sandbox import Workspace

    root = tmp_path / "ws"
    root.mkdir()
    (root / "a.txt").write_text("one two three\n")
    return Workspace(root)


def check_loaded_and_runs(workspace) -> None:
    report = load_plugins({"plugins": {"word_count": {"max_bytes": 5}}}, include_bundled=False)
    assert report.failures == []
    plugin = report.get("word_count")
    assert plugin is not None and plugin.origin == f"entry point {MODULE}:register"
    tool = plugin.tools[0]
    ctx = ToolContext(workspace=workspace)
    out = tool.invoke(ctx, tool.validate({"path": "a.txt"}))
    assert out.error and "larger than 5 bytes" in out.text  # the settings block reached the plugin
    report = load_plugins({}, include_bundled=False)
    tool = report.get("word_count").tools[0]
    assert tool.invoke(ctx, tool.validate({"path": "a.txt"})).text == "a.txt: 3 words"
    assert report.get("word_count").slash_commands["wc"](ctx, "a.txt") == "a.txt: 3 words"


def test_example_plugin_is_discovered_through_its_entry_point(tmp_path, monkeypatch, workspace):
    target = tmp_path / "site"
    target.mkdir()
    install_as_dist(target)
    monkeypatch.syspath_prepend(str(target))
    monkeypatch.delitem(sys.modules, MODULE, raising=False)
    try:
        check_loaded_and_runs(workspace)
        report = load_plugins({"plugins": {"disabled": ["word_count"]}}, include_bundled=False)
        assert report.disabled == ["word_count"] and report.plugins == []
    finally:
        sys.modules.pop(MODULE, None)


def _can_build() -> bool:
    import setuptools

    major, minor = (int(x) for x in setuptools.__version__.split(".")[:2])
    return importlib.util.find_spec("wheel") is not None or (major, minor) >= (70, 1)


@pytest.mark.skipif(not _can_build(), reason="offline build needs wheel or setuptools>=70.1")
def test_example_plugin_installs_with_pip(tmp_path, monkeypatch, workspace):
    src = tmp_path / "src"
    shutil.copytree(EXAMPLE, src)
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
         "--no-index", "--target", str(target), str(src)],
        check=True, capture_output=True, timeout=300,
    )
    monkeypatch.syspath_prepend(str(target))
    monkeypatch.delitem(sys.modules, MODULE, raising=False)
    try:
        check_loaded_and_runs(workspace)
    finally:
        sys.modules.pop(MODULE, None)
