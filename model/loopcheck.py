"""Proof that this llama.cpp build runs looped models: tiny random GGUFs and a
NumPy reference forward pass.

:func:`write_tiny_nanbeige` writes a random-weight model of llama.cpp
architecture ``nanbeige`` (F32 weights, a 64-token SentencePiece-style vocab).
:func:`reference_logits` recomputes its forward pass in NumPy following
llama.cpp ``src/models/nanbeige.cpp``: per logical layer ``il`` (physical layer
``il % n_phys``) RMSNorm -> Q/K/V -> RoPE (NORM mode: adjacent pairs rotated) ->
causal grouped-query attention scaled by 1/sqrt(head_dim) -> output projection
-> residual -> RMSNorm -> SwiGLU FFN -> residual; after every loop but the last,
RMSNorm with ``output_norm`` unless ``skip_loop_final_norm``; finally RMSNorm
with ``output_norm`` and the output projection. :func:`verify_loops` compares
the two; it runs in well under a second.
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["TinyConfig", "write_tiny_nanbeige", "reference_logits", "llama_logits", "verify_loops", "LoopCheck"]


@dataclass
class TinyConfig:
    """Shape of a tiny nanbeige model (all sizes in elements)."""

    n_layer: int = 2
    num_loops: int = 2
    n_embd: int = 64
    n_head: int = 4
    n_head_kv: int = 2
    n_ff: int = 128
    n_vocab: int = 64
    n_ctx: int = 256
    rms_eps: float = 1e-5
    rope_base: float = 10000.0
    skip_loop_final_norm: bool = False
    seed: int = 0
    weights: dict[str, np.ndarray] = field(default_factory=dict, repr=False)

    @property
    def head_dim(self) -> int:
        return self.n_embd // self.n_head


def _make_weights(cfg: TinyConfig) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(cfg.seed)
    e, hd, ff = cfg.n_embd, cfg.head_dim, cfg.n_ff

    def mat(rows: int, cols: int, scale: float = 1.0) -> np.ndarray:
        return (rng.standard_normal((rows, cols)) * scale / np.sqrt(cols)).astype(np.float32)

    def norm_w() -> np.ndarray:
        return (1.0 + 0.1 * rng.standard_normal(e)).astype(np.float32)

    w: dict[str, np.ndarray] = {
        "token_embd.weight": rng.standard_normal((cfg.n_vocab, e)).astype(np.float32),
        "output_norm.weight": norm_w(),
        "output.weight": mat(cfg.n_vocab, e, 5.0),  # logits at scale ~5
    }
    for i in range(cfg.n_layer):
        w[f"blk.{i}.attn_norm.weight"] = norm_w()
        w[f"blk.{i}.attn_q.weight"] = mat(cfg.n_head * hd, e)
        w[f"blk.{i}.attn_k.weight"] = mat(cfg.n_head_kv * hd, e)
        w[f"blk.{i}.attn_v.weight"] = mat(cfg.n_head_kv * hd, e)
        w[f"blk.{i}.attn_output.weight"] = mat(e, cfg.n_head * hd)
        w[f"blk.{i}.ffn_norm.weight"] = norm_w()
        w[f"blk.{i}.ffn_gate.weight"] = mat(ff, e)
        w[f"blk.{i}.ffn_up.weight"] = mat(ff, e)
        w[f"blk.{i}.ffn_down.weight"] = mat(e, ff)
    return w


def write_tiny_nanbeige(path: str | Path, cfg: TinyConfig | None = None) -> TinyConfig:
    """Write a tiny random-weight ``nanbeige`` GGUF to ``path``.

    Returns:
        The config with ``weights`` filled in (for :func:`reference_logits`).
    """
    import gguf

    cfg = cfg or TinyConfig()
    cfg.weights = _make_weights(cfg)
    arch = "nanbeige"
    w = gguf.GGUFWriter(str(path), arch)
    w.add_name(f"tiny-nanbeige-l{cfg.n_layer}x{cfg.num_loops}")
    w.add_file_type(int(gguf.LlamaFileType.ALL_F32))
    w.add_context_length(cfg.n_ctx)
    w.add_embedding_length(cfg.n_embd)
    w.add_block_count(cfg.n_layer)
    w.add_feed_forward_length(cfg.n_ff)
    w.add_head_count(cfg.n_head)
    w.add_head_count_kv(cfg.n_head_kv)
    w.add_layer_norm_rms_eps(cfg.rms_eps)
    w.add_rope_freq_base(cfg.rope_base)
    w.add_uint32(f"{arch}.num_loops", cfg.num_loops)
    if cfg.skip_loop_final_norm:
        w.add_bool(f"{arch}.skip_loop_final_norm", True)
    tokens = ["<unk>", "<s>", "</s>", "<0x0A>"] + [f"t{i}" for i in range(4, cfg.n_vocab)]
    w.add_tokenizer_model("llama")
    w.add_token_list(tokens)
    w.add_token_scores([0.0] * 3 + [-1.0] + [-float(i) for i in range(4, cfg.n_vocab)])
    w.add_token_types([2, 3, 3, 6] + [1] * (cfg.n_vocab - 4))
    w.add_unk_token_id(0)
    w.add_bos_token_id(1)
    w.add_eos_token_id(2)
    for name, arr in cfg.weights.items():
        w.add_tensor(name, arr)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return cfg


def _rms(x: np.ndarray, weight: np.ndarray, eps: float) -> np.ndarray:
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps) * weight


def _rope_norm(x: np.ndarray, pos: np.ndarray, base: float) -> np.ndarray:
    """x: (T, H, D); rotate adjacent pairs (2i, 2i+1) by pos * base^(-2i/D)."""
    d = x.shape[-1]
    inv = base ** (-np.arange(0, d, 2, dtype=np.float64) / d)
    ang = pos[:, None].astype(np.float64) * inv[None, :]  # (T, D/2)
    cos, sin = np.cos(ang)[:, None, :], np.sin(ang)[:, None, :]
    x0, x1 = x[..., 0::2], x[..., 1::2]
    out = np.empty_like(x)
    out[..., 0::2] = x0 * cos - x1 * sin
    out[..., 1::2] = x0 * sin + x1 * cos
    return out


def reference_logits(cfg: TinyConfig, tokens: list[int]) -> np.ndarray:
    """NumPy forward pass of the looped stack.

    Returns:
        Logits of shape ``(len(tokens), n_vocab)`` (float64).
    """
    w = {k: v.astype(np.float64) for k, v in cfg.weights.items()}
    t = len(tokens)
    hd, nh, nkv = cfg.head_dim, cfg.n_head, cfg.n_head_kv
    pos = np.arange(t)
    x = w["token_embd.weight"][np.array(tokens)]
    mask = np.triu(np.full((t, t), -np.inf), k=1)
    n_logical = cfg.n_layer * cfg.num_loops
    for il in range(n_logical):
        p = f"blk.{il % cfg.n_layer}."
        h = _rms(x, w[p + "attn_norm.weight"], cfg.rms_eps)
        q = (h @ w[p + "attn_q.weight"].T).reshape(t, nh, hd)
        k = (h @ w[p + "attn_k.weight"].T).reshape(t, nkv, hd)
        v = (h @ w[p + "attn_v.weight"].T).reshape(t, nkv, hd)
        q, k = _rope_norm(q, pos, cfg.rope_base), _rope_norm(k, pos, cfg.rope_base)
        out = np.empty((t, nh, hd))
        for head in range(nh):
            g = head // (nh // nkv)
            s = q[:, head, :] @ k[:, g, :].T / np.sqrt(hd) + mask
            s = np.exp(s - s.max(axis=-1, keepdims=True))
            out[:, head, :] = (s / s.sum(axis=-1, keepdims=True)) @ v[:, g, :]
        x = out.reshape(t, nh * hd) @ w[p + "attn_output.weight"].T + x
        h = _rms(x, w[p + "ffn_norm.weight"], cfg.rms_eps)
        gate, up = h @ w[p + "ffn_gate.weight"].T, h @ w[p + "ffn_up.weight"].T
        x = (gate / (1.0 + np.exp(-gate)) * up) @ w[p + "ffn_down.weight"].T + x
        boundary = (il + 1) % cfg.n_layer == 0 and il + 1 < n_logical
        if cfg.num_loops > 1 and boundary and not cfg.skip_loop_final_norm:
            x = _rms(x, w["output_norm.weight"], cfg.rms_eps)
    x = _rms(x, w["output_norm.weight"], cfg.rms_eps)
    return x @ w["output.weight"].T


def llama_logits(path: str | Path, tokens: list[int], n_ctx: int = 256) -> np.ndarray:
    """Logits for every position computed by llama.cpp (via llama-cpp-python).

    Returns:
        Array of shape ``(len(tokens), n_vocab)``.
    """
    from .threads import configure_environment

    configure_environment()
    import llama_cpp
    from llama_cpp import Llama

    # An f32 KV cache keeps the comparison about the graph, not about f16 rounding.
    llm = Llama(model_path=str(path), n_ctx=n_ctx, n_batch=n_ctx, logits_all=True, verbose=False, n_threads=1,
                type_k=llama_cpp.GGML_TYPE_F32, type_v=llama_cpp.GGML_TYPE_F32)
    try:
        llm.eval(tokens)
        return np.array(llm.scores[: len(tokens)], dtype=np.float64)
    finally:
        llm.close()


@dataclass
class LoopCheck:
    """Outcome of :func:`verify_loops`.

    ``max_abs_err`` maps num_loops -> max |llama.cpp - reference|;
    ``loops_differ`` is True when the 2-loop logits differ from the 1-loop ones.
    """

    passed: bool
    max_abs_err: dict[int, float]
    loops_differ: bool
    seconds: float
    error: str = ""

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def verify_loops(loops: tuple[int, ...] = (1, 2, 3), tol: float = 1e-2, tokens: list[int] | None = None) -> LoopCheck:
    """Check llama.cpp against the NumPy reference for each ``num_loops``.

    Never raises: a load failure is reported in ``LoopCheck.error``.
    """
    start = time.perf_counter()
    tokens = tokens or [1, 5, 9, 17, 33, 42, 7, 60]
    errs: dict[int, float] = {}
    outs: dict[int, np.ndarray] = {}
    try:
        with tempfile.TemporaryDirectory(prefix="assistant-loopcheck-") as tmp:
            for n in loops:
                path = Path(tmp) / f"tiny-{n}.gguf"
                cfg = write_tiny_nanbeige(path, TinyConfig(num_loops=n))
                got = llama_logits(path, tokens)
                outs[n] = got
                errs[n] = float(np.max(np.abs(got - reference_logits(cfg, tokens))))
    except Exception as exc:  # noqa: BLE001 - reported, not raised
        return LoopCheck(False, errs, False, time.perf_counter() - start, f"{type(exc).__name__}: {exc}")
    differ = True
    if 1 in outs and 2 in outs:
        differ = float(np.max(np.abs(outs[1] - outs[2]))) > 10 * tol
    passed = all(e < tol for e in errs.values()) and differ
    return LoopCheck(passed, errs, differ, time.perf_counter() - start)
