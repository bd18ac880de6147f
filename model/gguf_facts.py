"""Facts about a GGUF model file, read from its header without loading weights.

The header is parsed with the ``gguf`` package (the reference reader from the
llama.cpp project); tensor data is memory-mapped, never read. Looped models
(llama.cpp architecture ``nanbeige``) carry ``{arch}.num_loops``: the physical
layers run that many times per token and every run has its own KV-cache layer,
so ``kv_layers = block_count * num_loops`` (source: llama.cpp
``src/models/nanbeige.cpp``).
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["GGUFError", "ModelFacts", "read_facts", "read_metadata"]

GGUF_MAGIC = b"GGUF"

# Architectures llama.cpp knows that the installed gguf-py release may not list yet.
_EXTRA_ARCHES = {"nanbeige"}


class GGUFError(Exception):
    """The file is not a usable GGUF model; the message is one line naming the file."""


@dataclass
class ModelFacts:
    """What the runtime and the memory plan need to know about a model.

    Sizes are in bytes; counts are plain integers. ``kv_layers`` is
    ``block_count * num_loops``: the number of KV-cache layers llama.cpp allocates.
    """

    path: str
    file_size: int
    architecture: str
    name: str
    quantization: str
    block_count: int
    num_loops: int
    kv_layers: int
    head_count: int
    head_count_kv: int
    head_dim: int
    head_dim_v: int
    embedding_length: int
    feed_forward_length: int
    context_length: int
    vocab_size: int
    weight_bytes: int
    has_chat_template: bool
    chat_template: str | None = field(default=None, repr=False)
    special_tokens: dict[str, str] = field(default_factory=dict)
    skip_loop_final_norm: bool = False

    def as_dict(self, *, with_template: bool = False) -> dict[str, Any]:
        """JSON-friendly dict (the template text only when asked for)."""
        d = asdict(self)
        if not with_template:
            d.pop("chat_template")
        return d


def _check_header(path: Path) -> None:
    if not path.exists():
        raise GGUFError(f"{path}: no such file")
    if not path.is_file():
        raise GGUFError(f"{path}: not a regular file")
    with open(path, "rb") as fh:
        head = fh.read(8)
    if len(head) < 8 or head[:4] != GGUF_MAGIC:
        raise GGUFError(f"{path}: not a GGUF file (bad magic bytes {head[:4]!r})")
    version = int.from_bytes(head[4:8], "little")
    if version not in (2, 3):
        raise GGUFError(f"{path}: unsupported GGUF version {version} (llama.cpp reads 2 and 3)")


def read_metadata(path: str | os.PathLike[str]) -> tuple[dict[str, Any], list[Any]]:
    """All header key/values and tensor infos of a GGUF file.

    Returns:
        ``(metadata, tensors)``: metadata maps key -> Python value (str, int,
        float, bool or list); tensors are ``gguf.ReaderTensor`` objects.

    Raises:
        GGUFError: missing file, not GGUF, unsupported version, truncated header
            or tensor data extending past the end of the file.
    """
    import gguf

    p = Path(path)
    _check_header(p)
    try:
        reader = gguf.GGUFReader(str(p), "r")
    except Exception as exc:  # the reader raises ValueError/IndexError/struct errors on damage
        raise GGUFError(f"{p}: truncated or damaged GGUF header ({type(exc).__name__}: {exc})") from None
    meta: dict[str, Any] = {}
    for key, fld in reader.fields.items():
        if key.startswith("GGUF."):
            continue
        try:
            meta[key] = fld.contents()
        except Exception:  # noqa: BLE001 - a value we cannot decode is left out, not fatal
            continue
    size = p.stat().st_size
    for t in reader.tensors:
        if int(t.data_offset) + int(t.n_bytes) > size:
            raise GGUFError(f"{p}: truncated file (tensor {t.name} ends past the end of the file)")
    return meta, list(reader.tensors)


def _int(meta: dict[str, Any], key: str, default: int | None = None) -> int | None:
    v = meta.get(key, default)
    if isinstance(v, list):  # per-layer arrays (e.g. head_count_kv): use the maximum
        v = max(v) if v else default
    return int(v) if v is not None else None


def _quantization(meta: dict[str, Any], tensors: list[Any]) -> str:
    import gguf

    ft = meta.get("general.file_type")
    if ft is not None:
        try:
            return gguf.LlamaFileType(int(ft)).name.removeprefix("MOSTLY_").removeprefix("ALL_")
        except ValueError:
            pass
    counts: dict[str, int] = {}
    for t in tensors:
        name = t.tensor_type.name
        counts[name] = counts.get(name, 0) + int(t.n_elements)
    return max(counts, key=counts.get) if counts else "unknown"


def read_facts(path: str | os.PathLike[str]) -> ModelFacts:
    """Read :class:`ModelFacts` from a GGUF file's header.

    Raises:
        GGUFError: as :func:`read_metadata`, plus a missing architecture key,
            an architecture llama.cpp does not know, or missing layer/head counts.
    """
    import gguf

    p = Path(path)
    meta, tensors = read_metadata(p)
    arch = meta.get("general.architecture")
    if not isinstance(arch, str) or not arch:
        raise GGUFError(f"{p}: no general.architecture key; not a model file")
    known = set(gguf.MODEL_ARCH_NAMES.values()) | _EXTRA_ARCHES
    if arch not in known:
        raise GGUFError(f"{p}: unsupported architecture {arch!r}")
    a = arch
    blocks = _int(meta, f"{a}.block_count")
    heads = _int(meta, f"{a}.attention.head_count")
    embd = _int(meta, f"{a}.embedding_length")
    if not blocks or not heads or not embd:
        raise GGUFError(f"{p}: missing {a}.block_count / attention.head_count / embedding_length")
    kv_heads = _int(meta, f"{a}.attention.head_count_kv", heads) or heads
    head_dim = _int(meta, f"{a}.attention.key_length", embd // heads) or embd // heads
    head_dim_v = _int(meta, f"{a}.attention.value_length", head_dim) or head_dim
    loops = _int(meta, f"{a}.num_loops", 1) or 1
    tokens = meta.get("tokenizer.ggml.tokens")
    vocab = len(tokens) if isinstance(tokens, list) else (_int(meta, f"{a}.vocab_size", 0) or 0)
    special: dict[str, str] = {}
    for kind in ("bos", "eos", "eot", "pad", "unknown"):
        tid = meta.get(f"tokenizer.ggml.{kind}_token_id")
        if tid is not None and isinstance(tokens, list) and 0 <= int(tid) < len(tokens):
            special[kind] = str(tokens[int(tid)])
    template = meta.get("tokenizer.chat_template")
    return ModelFacts(
        path=str(p),
        file_size=p.stat().st_size,
        architecture=arch,
        name=str(meta.get("general.name") or p.stem),
        quantization=_quantization(meta, tensors),
        block_count=blocks,
        num_loops=loops,
        kv_layers=blocks * loops,
        head_count=heads,
        head_count_kv=kv_heads,
        head_dim=head_dim,
        head_dim_v=head_dim_v,
        embedding_length=embd,
        feed_forward_length=_int(meta, f"{a}.feed_forward_length", 0) or 0,
        context_length=_int(meta, f"{a}.context_length", 0) or 0,
        vocab_size=vocab,
        weight_bytes=sum(int(t.n_bytes) for t in tensors),
        has_chat_template=isinstance(template, str) and bool(template.strip()),
        chat_template=template if isinstance(template, str) else None,
        special_tokens=special,
        skip_loop_final_norm=bool(meta.get(f"{a}.skip_loop_final_norm", False)),
    )
