"""`assistant doctor` and `assistant model list|info|pull` as a user runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from model.loopcheck import TinyConfig, write_tiny_nanbeige


def run_cli(*args: str, home, env_extra: dict | None = None, timeout: float = 120):
    env = dict(os.environ, ASSISTANT_HOME=str(home), NO_COLOR="1", **(env_extra or {}))
    return subprocess.run([sys.executable, "-m", "assistant.cli", *args], capture_output=True, text=True,
                          env=env, timeout=timeout)


def test_version(tmp_path):
    r = run_cli("--version", home=tmp_path)
    assert r.returncode == 0 and "0.1" in r.stdout + r.stderr


def test_doctor_json_reports_loop_verification(tmp_path):
    r = run_cli("doctor", "--json", home=tmp_path, timeout=300)
    report = json.loads(r.stdout)
    assert report["loop_check"]["passed"] is True
    assert report["loop_check"]["loops_differ"] is True
    assert set(report["loop_check"]["max_abs_err"]) == {"1", "2", "3"}
    assert report["default_model"]["is_demo"] is True
    assert "demo model" in report["default_model"]["label"]
    assert report["llama_cpp"]["llama_cpp_python"] >= "0.3.36"
    assert str(tmp_path) in report["state_dir"]
    assert isinstance(report["base_prompt"].get("tokens", report["base_prompt"].get("error")), (int, str))


@pytest.mark.parametrize("loops", [1, 2, 3])
def test_model_info_tiny_nanbeige(tmp_path, loops):
    path = tmp_path / f"tiny-{loops}.gguf"
    write_tiny_nanbeige(path, TinyConfig(n_layer=2, num_loops=loops))
    r = run_cli("model", "info", str(path), "--json", home=tmp_path)
    assert r.returncode == 0, r.stderr
    info = json.loads(r.stdout)
    assert info["facts"]["num_loops"] == loops
    assert info["facts"]["kv_layers"] == 2 * loops
    # KV per token = kv_layers x 2 (K,V) x kv_heads x head_dim x 2 bytes (f16)
    assert info["memory_plan"]["kv_bytes_per_token"] == 2 * loops * 2 * 2 * 16 * 2
    text = run_cli("model", "info", str(path), home=tmp_path).stdout
    assert f"2 physical x {loops} loops = {2 * loops} KV-cache layers" in text


def test_model_info_demo(tmp_path):
    r = run_cli("model", "info", "demo", home=tmp_path)
    assert r.returncode == 0
    assert "30 physical x 1 loops" in r.stdout and "Q4_1" in r.stdout


def test_model_info_bad_file_one_line(tmp_path):
    bad = tmp_path / "report.gguf"
    bad.write_bytes(b"PK\x03\x04 this is a zip")
    r = run_cli("model", "info", str(bad), home=tmp_path)
    assert r.returncode == 1
    assert r.stderr.strip().count("\n") == 0 and "not a GGUF file" in r.stderr and str(bad) in r.stderr


def test_model_list_shows_demo_and_pulled(tmp_path):
    models = tmp_path / "data" / "models" / "someone__tiny"
    models.mkdir(parents=True)
    write_tiny_nanbeige(models / "tiny.gguf", TinyConfig(num_loops=2))
    r = run_cli("model", "list", "--json", home=tmp_path)
    rows = [json.loads(x) for x in r.stdout.splitlines()]
    assert any(row["demo"] for row in rows)
    assert any(row.get("loops") == 2 and row["path"].endswith("tiny.gguf") for row in rows)


def test_model_pull_offline_fails_fast(tmp_path):
    r = run_cli("model", "pull", "nanbeige4.2-3b", home=tmp_path,
                env_extra={"HF_ENDPOINT": "http://127.0.0.1:9"}, timeout=60)
    assert r.returncode == 1
    assert r.stderr.startswith("error:") and r.stderr.strip().count("\n") == 0


# ------------------------------------------------------- models already on disk
def _home_env(tmp_path) -> dict:
    """A user HOME with no Hugging Face / Ollama variables pointing elsewhere."""
    home = tmp_path / "userhome"
    home.mkdir(exist_ok=True)
    return {"HOME": str(home), "HF_HOME": "", "HF_HUB_CACHE": "", "XDG_CACHE_HOME": "", "OLLAMA_MODELS": ""}


def test_model_list_finds_gguf_files_already_on_disk_grouped_with_use_hints(tmp_path):
    from test_model_discover import hf_repo, ollama_model, tiny

    env = _home_env(tmp_path)
    home = tmp_path / "userhome"
    hf_repo(home / ".cache" / "huggingface" / "hub", "someone/Looped-GGUF", "looped-Q4_K_M.gguf", loops=3)
    ollama_model(home / ".ollama" / "models", ("registry.ollama.ai", "library", "tinyllm", "1b"), loops=1)
    lm = home / ".lmstudio" / "models" / "pub" / "repo"
    lm.mkdir(parents=True)
    (lm / "broken.gguf").write_bytes(b"PK\x03\x04 a zip, not a GGUF")
    mine = tmp_path / "my models"
    tiny(mine / "mine.gguf", loops=2)
    cfg = tmp_path / "config" / "config.toml"
    cfg.parent.mkdir()
    cfg.write_text(f'[model]\nsearch_paths = ["{mine}"]\n')

    r = run_cli("model", "list", "--json", home=tmp_path, env_extra=env)
    assert r.returncode == 0, r.stderr
    rows = {row["name"]: row for row in map(json.loads, r.stdout.splitlines())}
    assert rows["someone/Looped-GGUF:looped-Q4_K_M.gguf"]["source"] == "huggingface"
    assert rows["someone/Looped-GGUF:looped-Q4_K_M.gguf"]["num_loops"] == 3
    assert rows["tinyllm:1b"]["source"] == "ollama" and rows["tinyllm:1b"]["architecture"] == "nanbeige"
    assert rows["mine.gguf"]["source"] == "config" and rows["mine.gguf"]["memory_plan"].startswith("context")
    assert "not a GGUF file" in rows["pub/repo/broken.gguf"]["problem"] and rows["pub/repo/broken.gguf"]["use"] is None
    assert rows["tinyllm:1b"]["use"]["command"].startswith("assistant run --model ")
    assert any(row["demo"] for row in rows.values())

    text = run_cli("model", "list", home=tmp_path, env_extra=env).stdout
    for heading in ("Hugging Face cache", "Ollama", "LM Studio", "Folders from model.search_paths", "Demo model"):
        assert heading in text
    assert text.index("Folders from model.search_paths") < text.index("Hugging Face cache") < text.index("Ollama")
    assert "someone/Looped-GGUF:looped-Q4_K_M.gguf  [nanbeige, 3 loop(s), F32" in text
    assert f"use: assistant run --model '{mine / 'mine.gguf'}' GOAL" in text
    assert "pub/repo/broken.gguf: cannot use:" in text
    assert "use: assistant run --model demo GOAL" in text
    assert "[model] path = " in text


def test_doctor_names_the_remote_model_when_backend_is_openai(tmp_path, monkeypatch):
    from assistant import cli_model

    monkeypatch.setenv("ASSISTANT_HOME", str(tmp_path))
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.toml").write_text(
        '[model]\nbackend = "openai"\nbase_url = "http://127.0.0.1:9/v1"\nmodel_name = "qwen2.5-coder-1.5b"\n')
    # the canary is another test's business: a failed one skips the llama.cpp checks
    monkeypatch.setattr(cli_model, "_canary", lambda: {"ok": False, "signal": "", "message": "skipped in this test",
                                                       "build_features": [], "machine_features": []},
                        raising=False)  # without a canary step, doctor runs the loop check instead
    report = cli_model.doctor_report()
    dm = report["default_model"]
    assert dm["label"] == "qwen2.5-coder-1.5b" and dm["base_url"] == "http://127.0.0.1:9/v1"
    assert dm["is_demo"] is False and dm["backend"] == "openai"
    text = cli_model._format_doctor(report)
    assert "model: qwen2.5-coder-1.5b on the OpenAI-compatible server http://127.0.0.1:9/v1" in text
    assert "demo model" not in text.split("remote engine")[0]
