"""Loop-aware memory plan: weights + KV cache + compute buffers vs. free memory.

KV bytes per token = kv_layers x (kv_heads x head_dim_k x b(type_k) +
kv_heads x head_dim_v x b(type_v)), where ``kv_layers = block_count x num_loops``
(a looped model keeps one KV layer per layer execution). With equal K and V
dimensions that is the usual ``layers x num_loops x 2 x kv_heads x head_dim x
bytes``. Bytes per element: f16 = 2, q8_0 = 34/32 (blocks of 32 int8 values plus
an f16 scale; source: ggml ``block_q8_0``), f32 = 4, q4_0 = 18/32.

Reference figure (DESIGN.md): Nanbeige4.2-3B, 22 layers x 2 loops, 8 KV heads,
head_dim 128, 262144 tokens, f16: 262144 x 44 x 2 x 8 x 128 x 2 B = 44 GiB.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from typing import Any

from .gguf_facts import ModelFacts

__all__ = [
    "CACHE_TYPE_BYTES",
    "MemoryPlan",
    "kv_bytes_per_token",
    "available_memory",
    "plan_memory",
    "GiB",
]

GiB = 1024**3
MiB = 1024**2

CACHE_TYPE_BYTES: dict[str, float] = {"f32": 4.0, "f16": 2.0, "bf16": 2.0, "q8_0": 34 / 32, "q4_0": 18 / 32}

# Context sizes are rounded down to this many tokens (llama.cpp pads KV to 256).
CTX_STEP = 256
MIN_CTX = 512


def kv_bytes_per_token(facts: ModelFacts, cache_type_k: str = "f16", cache_type_v: str | None = None) -> float:
    """KV-cache bytes one token occupies, over all ``kv_layers``.

    Raises:
        ValueError: an unknown cache type.
    """
    cache_type_v = cache_type_v or cache_type_k
    for t in (cache_type_k, cache_type_v):
        if t not in CACHE_TYPE_BYTES:
            raise ValueError(f"unknown KV cache type {t!r}; use one of {', '.join(CACHE_TYPE_BYTES)}")
    per_layer = facts.head_count_kv * (
        facts.head_dim * CACHE_TYPE_BYTES[cache_type_k] + facts.head_dim_v * CACHE_TYPE_BYTES[cache_type_v]
    )
    return facts.kv_layers * per_layer


def available_memory() -> int:
    """Bytes of memory the process can use now (``MemAvailable`` on Linux, else
    free physical pages; 8 GiB when neither can be read)."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 8 * GiB


@dataclass
class MemoryPlan:
    """The chosen context size and what it costs, in bytes.

    ``fits`` is False when even ``MIN_CTX`` tokens do not fit; ``reason`` says
    which limit chose ``n_ctx`` ("trained", "setting" or "memory").
    """

    n_ctx: int
    cache_type: str
    weight_bytes: int
    kv_bytes_per_token: float
    kv_bytes: int
    compute_bytes: int
    total_bytes: int
    available_bytes: int
    headroom_bytes: int
    fits: bool
    reason: str
    kv_bytes_full_context: int

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def summary(self) -> str:
        """One line for the user, sizes in GiB."""
        return (
            f"context {self.n_ctx} tokens ({self.reason}); weights {self.weight_bytes / GiB:.2f} GiB, "
            f"KV {self.kv_bytes / GiB:.2f} GiB ({self.cache_type}, {self.kv_bytes_per_token / 1024:.1f} KiB/token), "
            f"total {self.total_bytes / GiB:.2f} of {self.available_bytes / GiB:.2f} GiB available"
        )


def compute_buffer_bytes(facts: ModelFacts, n_batch: int = 512) -> int:
    """Rough size of llama.cpp's compute buffers: logits for a batch plus
    activations (an estimate with a 64 MiB floor, not a measured figure)."""
    logits = facts.vocab_size * 4 * n_batch
    acts = n_batch * max(facts.embedding_length, facts.feed_forward_length) * 4 * 4
    return max(64 * MiB, logits + acts)


def plan_memory(
    facts: ModelFacts,
    *,
    requested_ctx: int | None = None,
    cache_type: str = "f16",
    available: int | None = None,
    headroom: float = 0.15,
    n_batch: int = 512,
) -> MemoryPlan:
    """Pick the largest context that fits.

    Args:
        facts: the model's facts.
        requested_ctx: the user's setting (tokens); None means no limit beyond training.
        cache_type: KV cache type for K and V ("f16", "q8_0", ...).
        available: bytes available (default: :func:`available_memory`).
        headroom: fraction of ``available`` kept free (default 15%).
        n_batch: prefill batch size, for the compute-buffer estimate.

    Returns:
        A :class:`MemoryPlan`; ``n_ctx`` is a multiple of 256 (or the trained
        context when that is smaller), at most the trained context and the
        requested one.
    """
    per_tok = kv_bytes_per_token(facts, cache_type)
    avail = available_memory() if available is None else int(available)
    reserve = int(avail * headroom)
    weights = facts.weight_bytes
    compute = compute_buffer_bytes(facts, n_batch)
    trained = facts.context_length or 4096
    limit, reason = trained, "trained"
    if requested_ctx and requested_ctx < limit:
        limit, reason = int(requested_ctx), "setting"
    budget = avail - reserve - weights - compute
    by_memory = int(budget // per_tok) if per_tok > 0 else limit
    n_ctx = limit
    if by_memory < limit:
        n_ctx, reason = max(0, by_memory // CTX_STEP * CTX_STEP), "memory"
    fits = n_ctx >= min(MIN_CTX, limit)
    kv = int(per_tok * n_ctx)
    return MemoryPlan(
        n_ctx=n_ctx,
        cache_type=cache_type,
        weight_bytes=weights,
        kv_bytes_per_token=per_tok,
        kv_bytes=kv,
        compute_bytes=compute,
        total_bytes=weights + kv + compute,
        available_bytes=avail,
        headroom_bytes=reserve,
        fits=fits,
        reason=reason,
        kv_bytes_full_context=int(per_tok * trained),
    )
