"""Sampling for actions: a grammar-constrained tool call is decoded greedily by
default (per profile); free text and reasoning keep the profile's sampling."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

from model.chat import LocalChatModel
from model.profiles import GREEDY, NANBEIGE, QWEN_HERMES
from model.types import GenerationMetrics, GenerationResult, Message

TOOLS = [{"type": "function", "function": {"name": "read_file", "description": "Read a file.",
                                          "parameters": {"type": "object", "properties": {"path": {"type": "string"}},
                                                         "required": ["path"]}}}]


class StubRuntime:
    """Records what generate was asked for; returns an empty turn."""

    def __init__(self):
        self.facts = SimpleNamespace(name="stub")
        self.n_ctx = 4096
        self.llm = SimpleNamespace(metadata={})
        self.cache_dir = None
        self.seen = []

    def tokenize(self, text, **kw):
        return list(range(len(text) // 4 + 1))

    def generate(self, tokens, **kw):
        self.seen.append(kw)
        return GenerationResult("Done.", [1], "stop", GenerationMetrics())


class StubTemplate:
    def __init__(self, tail=""):
        self.tail = tail

    def render(self, messages, tools, add_generation_prompt=True, **kw):
        return "".join(m.content for m in messages) + self.tail


def _turn(profile, force=None, tail="", vary=False):
    rt = StubRuntime()
    chat = LocalChatModel(rt, StubTemplate(tail), profile)
    chat.complete([Message(role="user", content="hi")], TOOLS, force=force, vary=vary)
    return rt.seen[0]


def test_calls_are_greedy_and_free_text_keeps_the_profile_sampling():
    kw = _turn(QWEN_HERMES)
    assert kw["sampling"] == QWEN_HERMES.sampling  # the free part of the turn
    assert kw["grammar"].sampling == GREEDY  # the call, once <tool_call> opens
    assert _turn(QWEN_HERMES, force="tool_call")["grammar"].sampling == GREEDY


def test_a_forced_turn_that_opens_with_reasoning_keeps_the_profile_sampling():
    kw = _turn(NANBEIGE, force="tool_call_or_final", tail="<think>\n")
    assert kw["grammar"].sampling is None and kw["sampling"] == NANBEIGE.sampling


def test_a_profile_can_sample_its_calls():
    warm = replace(QWEN_HERMES, action_sampling=None)
    assert _turn(warm)["grammar"].sampling is None


def test_a_turn_asked_to_vary_samples_its_call():
    """After a call failed the same way twice the loop asks for a varied turn: greedy decoding wrote the same
    refused calendar start four times (calendar_next_weekday at 31f8af8, constrain = "always")."""
    kw = _turn(QWEN_HERMES, force="tool_call_or_final", vary=True)
    assert kw["grammar"].sampling is None and kw["sampling"] == QWEN_HERMES.sampling
