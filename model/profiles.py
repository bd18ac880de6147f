"""Model profiles: the chat-protocol settings that differ between model families.

A profile says which call format the model was trained on, whether its
prompt opens ``<think>``, its stop strings and its sampling defaults. It is
chosen from GGUF metadata (``general.architecture``, ``general.name``,
``general.basename``) and the chat template text.

Sources: Nanbeige4.2 model card (../shared/DESIGN.md); Qwen2.5 generation
config (temperature 0.7, top_p 0.8, top_k 20, repetition penalty 1.05);
SmolLM2 model card (temperature 0.2, top_p 0.9).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .types import SamplingParams

__all__ = ["ModelProfile", "select_profile", "NANBEIGE", "QWEN_HERMES", "SMOLLM2_DEMO", "GENERIC_CHATML", "GREEDY"]

GREEDY = SamplingParams(temperature=0.0, top_p=1.0, top_k=1, min_p=0.0, repeat_penalty=1.0)
"""Greedy decoding: the most likely token every time."""


@dataclass(frozen=True)
class ModelProfile:
    """Chat-protocol settings of a model family.

    Attributes:
        name: profile id ("nanbeige", "qwen2-hermes", "smollm2-demo", "generic-chatml").
        tool_call_format: "xml" or "json" (see :mod:`model.call_format`).
        thinking: the model reasons; the prompt is rendered with
            ``enable_thinking`` and (for Nanbeige) opens ``<think>``.
        preserve_thinking: keep past reasoning in the history (keeps the KV
            cache prefix stable across steps).
        stop: stop strings ending a turn.
        sampling: sampling defaults (reasoning and free text).
        action_sampling: sampling while a grammar constrains a tool call
            (default greedy: a call is an action, not prose; a small model's
            most likely call is its best one). None: ``sampling``.
        warning: a line for the user when the profile is a guess ("" otherwise).
    """

    name: str
    tool_call_format: Literal["xml", "json"] = "json"
    thinking: bool = False
    preserve_thinking: bool = True
    stop: tuple[str, ...] = ("<|im_end|>",)
    sampling: SamplingParams = field(default_factory=SamplingParams)
    action_sampling: SamplingParams | None = field(default_factory=lambda: GREEDY)
    warning: str = ""

    def template_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for :meth:`model.chat_template.ChatTemplate.render`."""
        return {
            "enable_thinking": self.thinking,
            "preserve_thinking": self.preserve_thinking,
            "tool_call_format": self.tool_call_format,
        }

    @staticmethod
    def prompt_opens_think(prompt: str) -> bool:
        """True when the rendered prompt ends inside an open ``<think>`` block
        (``...<|im_start|>assistant\\n<think>\\n``), so the output starts as
        reasoning. A closed empty block (thinking off) gives False."""
        tail = prompt.rstrip()
        return tail.endswith("<think>")

    def starts_in_think(self, prompt: str) -> bool:
        """Alias of :meth:`prompt_opens_think` for the parser's ``starts_in_think``."""
        return self.prompt_opens_think(prompt)


NANBEIGE = ModelProfile(
    name="nanbeige",
    tool_call_format="xml",
    thinking=True,
    preserve_thinking=True,
    stop=("<|im_end|>",),
    sampling=SamplingParams(temperature=0.6, top_p=0.95, top_k=20),
)

QWEN_HERMES = ModelProfile(
    name="qwen2-hermes",
    tool_call_format="json",
    thinking=False,
    stop=("<|im_end|>", "<|endoftext|>"),
    sampling=SamplingParams(temperature=0.7, top_p=0.8, top_k=20, repeat_penalty=1.05),
)

SMOLLM2_DEMO = ModelProfile(
    name="smollm2-demo",
    tool_call_format="json",
    thinking=False,
    stop=("<|im_end|>",),
    sampling=SamplingParams(temperature=0.2, top_p=0.9, top_k=40),
)

GENERIC_CHATML = ModelProfile(
    name="generic-chatml",
    tool_call_format="json",
    thinking=False,
    stop=("<|im_end|>", "<|endoftext|>", "<|eot_id|>", "</s>"),
    sampling=SamplingParams(temperature=0.7, top_p=0.95, top_k=40),
    warning="unknown model family: using generic ChatML settings with JSON tool calls; "
            "tool calling may be unreliable",
)


def _text(metadata: dict[str, Any], key: str) -> str:
    value = metadata.get(key, "")
    if isinstance(value, (bytes, bytearray)):
        value = bytes(value).decode("utf-8", "replace")
    return str(value or "").lower()


def select_profile(metadata: dict[str, Any], template_source: str | None) -> ModelProfile:
    """Choose the profile for a model.

    Args:
        metadata: GGUF key/values (e.g. ``Llama.metadata``: strings; bytes are
            decoded).
        template_source: the chat template text, or None.

    Returns:
        Nanbeige when the architecture or name says so, or the template writes
        ``<function=`` calls with ``tool_call_format``; Qwen2.x/Hermes for
        qwen architectures or a template with ``<tool_call>`` JSON; the SmolLM2
        demo profile for SmolLM models; otherwise the generic ChatML profile,
        whose ``warning`` says it is a guess.
    """
    arch = _text(metadata, "general.architecture")
    names = " ".join(_text(metadata, k) for k in ("general.name", "general.basename", "general.finetune"))
    tmpl = template_source or ""
    if arch == "nanbeige" or "nanbeige" in names or ("<function=" in tmpl and "tool_call_format" in tmpl):
        return NANBEIGE
    if arch.startswith("qwen") or "qwen" in names or ("<tool_call>" in tmpl and '"arguments"' in tmpl):
        return QWEN_HERMES
    if "smollm" in names:
        return SMOLLM2_DEMO
    return GENERIC_CHATML
