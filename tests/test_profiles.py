"""Choosing a model profile from GGUF metadata and the chat template."""

from __future__ import annotations

import pytest

from model.profiles import GENERIC_CHATML, NANBEIGE, QWEN_HERMES, SMOLLM2_DEMO, ModelProfile, select_profile


@pytest.mark.parametrize("metadata,template,expected", [
    ({"general.architecture": "nanbeige"}, None, NANBEIGE),
    ({"general.architecture": "llama", "general.name": "Nanbeige4.2 3B"}, None, NANBEIGE),
    ({}, "{% if tool_call_format == 'xml' %}<function={{ n }}>{% endif %}", NANBEIGE),
    ({"general.architecture": "qwen2"}, None, QWEN_HERMES),
    ({"general.architecture": "llama"}, '<tool_call>\n{"name": <function-name>, "arguments": {}}', QWEN_HERMES),
    ({"general.architecture": "llama", "general.basename": "smollm2"}, "{{ messages }}", SMOLLM2_DEMO),
    ({"general.architecture": "llama", "general.name": b"SmolLM2 135M"}, None, SMOLLM2_DEMO),
    ({"general.architecture": "gemma"}, "{{ messages }}", GENERIC_CHATML),
    ({}, None, GENERIC_CHATML),
])
def test_profile_is_chosen_from_metadata_and_template(metadata, template, expected):
    assert select_profile(metadata, template) is expected


def test_nanbeige_settings_follow_the_model_card():
    p = NANBEIGE
    assert (p.tool_call_format, p.thinking, p.preserve_thinking) == ("xml", True, True)
    assert (p.sampling.temperature, p.sampling.top_p, p.sampling.top_k) == (0.6, 0.95, 20)
    assert "<|im_end|>" in p.stop
    assert p.template_kwargs() == {"enable_thinking": True, "preserve_thinking": True, "tool_call_format": "xml"}


def test_only_the_fallback_warns():
    assert GENERIC_CHATML.warning and "generic" in GENERIC_CHATML.warning
    assert not NANBEIGE.warning and not QWEN_HERMES.warning and not SMOLLM2_DEMO.warning
    assert all(p.tool_call_format == "json" for p in (QWEN_HERMES, SMOLLM2_DEMO, GENERIC_CHATML))


@pytest.mark.parametrize("prompt,opens", [
    ("<|im_start|>assistant\n<think>\n", True),
    ("<|im_start|>assistant\n<think>", True),
    ("<|im_start|>assistant\n<think>\n\n</think>\n\n", False),
    ("<|im_start|>assistant\n", False),
    ("<think>\nold\n</think>\n<|im_start|>assistant\n", False),
])
def test_prompt_opens_think(prompt, opens):
    assert ModelProfile.prompt_opens_think(prompt) is opens
    assert NANBEIGE.starts_in_think(prompt) is opens
