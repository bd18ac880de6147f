"""llama.cpp runs looped (nanbeige) models: logits match a NumPy reference."""

from __future__ import annotations

import numpy as np
import pytest

from model.loopcheck import TinyConfig, llama_logits, reference_logits, verify_loops, write_tiny_nanbeige

TOKENS = [1, 7, 12, 40, 3, 55, 20, 9, 33]


@pytest.mark.parametrize("loops", [1, 2, 3])
def test_logits_match_reference(tmp_path, loops):
    path = tmp_path / "m.gguf"
    cfg = write_tiny_nanbeige(path, TinyConfig(num_loops=loops, n_layer=2, seed=loops))
    ref = reference_logits(cfg, TOKENS)
    got = llama_logits(path, TOKENS)
    assert got.shape == ref.shape == (len(TOKENS), 64)
    assert np.abs(ref).max() > 2.0  # logits at a meaningful scale
    assert np.max(np.abs(got - ref)) < 1e-2


def test_skip_loop_final_norm(tmp_path):
    path = tmp_path / "skip.gguf"
    cfg = write_tiny_nanbeige(path, TinyConfig(num_loops=2, skip_loop_final_norm=True))
    got = llama_logits(path, TOKENS)
    assert np.max(np.abs(got - reference_logits(cfg, TOKENS))) < 1e-2
    cfg.skip_loop_final_norm = False  # the reference without the flag must disagree
    assert np.max(np.abs(got - reference_logits(cfg, TOKENS))) > 0.1


def test_two_loops_differ_from_one(tmp_path):
    a, b = tmp_path / "a.gguf", tmp_path / "b.gguf"
    write_tiny_nanbeige(a, TinyConfig(num_loops=1, seed=5))
    write_tiny_nanbeige(b, TinyConfig(num_loops=2, seed=5))  # same weights, run twice
    assert np.max(np.abs(llama_logits(a, TOKENS) - llama_logits(b, TOKENS))) > 0.1


def test_reference_detects_a_single_pass(tmp_path):
    """The check has teeth: a 2-loop file compared with a 1-pass reference fails."""
    path = tmp_path / "m.gguf"
    cfg = write_tiny_nanbeige(path, TinyConfig(num_loops=2))
    cfg.num_loops = 1
    assert np.max(np.abs(llama_logits(path, TOKENS) - reference_logits(cfg, TOKENS))) > 0.1


def test_verify_loops_reports():
    r = verify_loops()
    assert r.passed and r.loops_differ and r.error == ""
    assert set(r.max_abs_err) == {1, 2, 3}
