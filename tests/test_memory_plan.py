"""The memory plan counts every loop's KV layers."""

from __future__ import annotations

import pytest

from model.gguf_facts import ModelFacts
from model.memory_plan import GiB, kv_bytes_per_token, plan_memory


def nanbeige_42_3b(**over) -> ModelFacts:
    """Facts of Nanbeige4.2-3B from its public config (DESIGN.md)."""
    base = dict(
        path="nanbeige.gguf", file_size=2_500_000_000, architecture="nanbeige", name="Nanbeige4.2-3B",
        quantization="Q4_K_M", block_count=22, num_loops=2, kv_layers=44, head_count=48, head_count_kv=8,
        head_dim=128, head_dim_v=128, embedding_length=3072, feed_forward_length=10752,
        context_length=262144, vocab_size=166144, weight_bytes=2_400_000_000, has_chat_template=True,
    )
    base.update(over)
    return ModelFacts(**base)


def test_reference_figure_44_gib():
    plan = plan_memory(nanbeige_42_3b(), requested_ctx=262144, available=1 << 50)
    assert plan.n_ctx == 262144
    assert plan.kv_bytes == 44 * GiB
    assert plan.kv_bytes_full_context == 44 * GiB


def test_loops_double_the_kv():
    one = nanbeige_42_3b(num_loops=1, kv_layers=22)
    assert kv_bytes_per_token(nanbeige_42_3b()) == 2 * kv_bytes_per_token(one) == 180224


def test_q8_0_cache():
    assert kv_bytes_per_token(nanbeige_42_3b(), "q8_0") == 44 * 2 * 8 * 128 * 34 / 32


def test_unknown_cache_type():
    with pytest.raises(ValueError, match="unknown KV cache type"):
        kv_bytes_per_token(nanbeige_42_3b(), "q3_z")


def test_memory_limits_context():
    facts = nanbeige_42_3b()
    avail = 8 * GiB
    plan = plan_memory(facts, requested_ctx=262144, available=avail)
    assert plan.reason == "memory"
    assert plan.n_ctx % 256 == 0 and plan.n_ctx < 262144
    assert plan.total_bytes <= avail - plan.headroom_bytes
    # one more step of context would not fit
    more = plan.weight_bytes + plan.compute_bytes + (plan.n_ctx + 256) * plan.kv_bytes_per_token
    assert more > avail - plan.headroom_bytes
    # a q8_0 cache fits more tokens in the same memory
    assert plan_memory(facts, requested_ctx=262144, available=avail, cache_type="q8_0").n_ctx > plan.n_ctx


def test_setting_and_training_limits():
    facts = nanbeige_42_3b()
    assert plan_memory(facts, requested_ctx=8192, available=1 << 50).reason == "setting"
    assert plan_memory(facts, requested_ctx=10**7, available=1 << 50).n_ctx == 262144


def test_does_not_fit():
    plan = plan_memory(nanbeige_42_3b(), available=2 * GiB)
    assert not plan.fits
