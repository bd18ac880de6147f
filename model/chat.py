"""The local chat model: template + runtime + parser + grammar, one turn at a time.

:class:`LocalChatModel` implements :class:`model.types.ChatModel` on the
in-process :class:`model.runtime.Runtime`. It renders the prompt with the GGUF's
own chat template, tokenizes it so that the token ids already in the KV cache
(including the ids the model actually generated last turn) are reused, persists
the KV state of the system-prompt-plus-tools prefix, streams reasoning /
content / tool-call deltas, and constrains tool calls with a grammar.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any, Callable

from .gguf_facts import read_facts
from .memory_plan import plan_memory
from .runtime import GrammarPhase, Runtime
from .types import DeltaCallback, Message, ModelError, SamplingParams, TurnOutput, union_of_tools

__all__ = ["LocalChatModel", "open_chat_model", "DEFAULT_CTX"]

DEFAULT_CTX = 16384
"""Default context (tokens) when the user sets none; the memory plan may lower it."""


class LocalChatModel:
    """A :class:`~model.types.ChatModel` running in-process.

    Args:
        runtime: a loaded :class:`Runtime`.
        template: a ``model.chat_template.ChatTemplate``.
        profile: a ``model.profiles.ModelProfile``.
        grammar: constrain tool calls with a grammar (config ``model.grammar``).
        label: display name (e.g. "SmolLM2-135M-Instruct (demo model)").
        is_demo: True for the embedded demo model.
        reasoning_budget: tokens of reasoning before ``</think>`` is forced (None: no cap).
    """

    teaches_call_format = True  # the GGUF's chat template renders the tools and the call format

    def __init__(self, runtime: Runtime, template: Any, profile: Any, *, grammar: bool = True,
                 label: str = "", is_demo: bool = False, reasoning_budget: int | None = 2048,
                 sampling: SamplingParams | None = None) -> None:
        self.runtime = runtime
        self.template = template
        self.profile = profile
        self.grammar_enabled = grammar
        self.is_demo = is_demo
        self.name = label or runtime.facts.name
        self.context_size = runtime.n_ctx
        self.reasoning_budget = reasoning_budget
        self.sampling = sampling or profile.sampling
        self.facts = runtime.facts
        self.last_metrics = None
        self._kv_text = ""
        self._kv_tokens: list[int] = []
        self._stable: tuple[str, list[int]] = ("", [])  # the last prompt without its last message, and its ids
        self._next_stable = self._stable
        self._prefix_cache: dict[str, list[int]] = {}
        self._add_bos = bool(runtime.llm.metadata.get("tokenizer.ggml.add_bos_token", "false") == "true")

    # --------------------------------------------------------------- render
    @property
    def fmt(self) -> str:
        return self.profile.tool_call_format

    def render(self, messages: list[Message], tools: list[dict[str, Any]], *, add_generation_prompt: bool = True) -> str:
        """Prompt text for ``messages`` (raises ``model.chat_template.TemplateError``)."""
        return self.template.render(messages, tools, add_generation_prompt=add_generation_prompt,
                                    **self.profile.template_kwargs())

    def _tokenize_prompt(self, text: str, cut: int = 0) -> list[int]:
        """Token ids of a prompt, splicing in the ids of the longest known prefix:
        the last prompt + generation (so generated ids are reused) or the last
        prompt without its last message (so a trailing message that changes every
        step, like the agent's progress block, costs only itself and the turns
        after that prefix). With ``cut`` (characters), the text is also split
        there and ``(text[:cut], ids)`` becomes the next stable prefix."""
        rt = self.runtime
        known, ids = "", []
        for t, i in ((self._kv_text, self._kv_tokens), self._stable):
            if t and len(t) > len(known) and text.startswith(t):
                known, ids = t, list(i)
        bounds = [cut, len(text)] if cut > len(known) else [len(text)]
        start = len(known)
        for end in bounds:
            new = rt.tokenize(text[start:end]) if end > start else []
            if not ids and self._add_bos and (not new or new[0] != rt.bos_token_id):
                new = [rt.bos_token_id] + new
            ids += new
            if end == cut and end < len(text):
                self._next_stable = (text[:cut], list(ids))
            start = end
        return ids

    def _stable_cut(self, messages: list[Message], tools: list[dict[str, Any]], prompt: str) -> int:
        """Characters of ``prompt`` before its last message (0 when that is not a prefix of it)."""
        if len(messages) < 2:
            return 0
        try:
            head = self.render(messages[:-1], tools, add_generation_prompt=False)
        except Exception:  # noqa: BLE001 - a template that needs a user turn last
            return 0
        return len(head) if head and len(head) < len(prompt) and prompt.startswith(head) else 0

    def _persist_len(self, messages: list[Message], tools: list[dict[str, Any]], tokens: list[int]) -> int:
        """Length of the system+tools prefix whose KV state is persisted (0 if none)."""
        if not messages or messages[0].role != "system" or self.runtime.cache_dir is None:
            return 0
        try:
            head = self.render(messages[:1], tools, add_generation_prompt=False)
        except Exception:  # noqa: BLE001 - a template that needs a user turn: no persistence
            return 0
        ids = self._prefix_cache.get(head)
        if ids is None:
            ids = self.runtime.tokenize(head)
            if self._add_bos and (not ids or ids[0] != self.runtime.bos_token_id):
                ids = [self.runtime.bos_token_id] + ids
            self._prefix_cache = {head: ids}
        n = len(ids)
        return n if n < len(tokens) and tokens[:n] == ids else 0

    def count_tokens(self, messages: list[Message], tools: list[dict[str, Any]]) -> int:
        """Tokens of the rendered prompt (with the generation prompt)."""
        return len(self._tokenize_prompt(self.render(messages, tools)))

    # ------------------------------------------------------------- complete
    def complete(self, messages: list[Message], tools: list[dict[str, Any]], *,
                 on_delta: DeltaCallback | None = None, cancel: threading.Event | None = None,
                 force: str | None = None, max_tokens: int | None = None,
                 call_tools: list[dict[str, Any]] | None = None,
                 on_progress: Callable[[int, int], None] | None = None, vary: bool = False) -> TurnOutput:
        """Generate one assistant turn (see :class:`model.types.ChatModel`).

        ``on_progress(done, total)``: prompt tokens read so far, after each prefill
        batch; without it, and with ``on_delta``, the same goes out as
        ``on_delta("prefill", "DONE/TOTAL")`` (how the agent loop's events carry it).

        Raises:
            ModelError: the template fails or the prompt does not fit the context.
        """
        from .chat_template import TemplateError
        from .grammar import forced_turn_grammar, strip_final_answer, tool_call_grammar
        from .parsing import StreamParser

        try:
            prompt = self.render(messages, tools)
        except TemplateError as exc:
            raise ModelError(str(exc)) from None
        self._next_stable = self._stable
        tokens = self._tokenize_prompt(prompt, self._stable_cut(messages, tools, prompt))
        starts_in_think = self.profile.prompt_opens_think(prompt)
        grammar_tools = tools if call_tools is None else call_tools
        parser = StreamParser(union_of_tools(tools, grammar_tools), self.fmt, starts_in_think)
        tools = grammar_tools  # below: what the grammar lets a call use
        phase = None
        # calls greedy by default; free text keeps sampling, and so does a call after a repeated failure
        act = None if vary else getattr(self.profile, "action_sampling", None)
        if tools and force == "tool_call" and not starts_in_think:
            phase = GrammarPhase(tool_call_grammar(tools, self.fmt, include_open=True), from_start=True, sampling=act)
        elif tools and force in ("tool_call_or_final", "tool_call"):
            phase = GrammarPhase(forced_turn_grammar(tools, self.fmt, in_think=starts_in_think, max_calls=1),
                                 end="", from_start=True, sampling=None if starts_in_think else act)
        elif tools and self.grammar_enabled:
            phase = GrammarPhase(tool_call_grammar(tools, self.fmt), sampling=act)
        room = self.context_size - len(tokens) - 1
        if room < 16:
            raise ModelError(f"the prompt ({len(tokens)} tokens) leaves no room to answer in a context of {self.context_size}")
        limit = min(max_tokens or room, room)

        cut = _JsonCallCut(union_of_tools(tools, grammar_tools) if force is None else [], cancel)

        def on_text(delta: str) -> None:
            for kind, piece in parser.feed(delta):  # always fed: finish() needs the whole text
                cut.feed(kind, piece)
                if on_delta is not None:
                    on_delta(kind, piece)

        result = self.runtime.generate(
            tokens, max_tokens=limit, sampling=self.sampling, stop=list(self.profile.stop),
            on_text=on_text, cancel=cut, grammar=phase,
            persist_prefix=self._persist_len(messages, tools, tokens),
            reasoning=starts_in_think, reasoning_budget=self.reasoning_budget,
            on_progress=on_progress or (_prefill_delta(on_delta) if on_delta is not None else None),
        )
        for kind, piece in parser.flush():
            if on_delta is not None:
                on_delta(kind, piece)
        self._kv_text = prompt + result.text
        self._kv_tokens = tokens + result.token_ids
        self._stable = self._next_stable
        self.last_metrics = result.metrics
        parsed = parser.finish()
        if force:
            parsed.content = strip_final_answer(parsed.content)
        user_cancel = cancel is not None and cancel.is_set()
        stop_reason = result.stop_reason
        if result.stop_reason == "cancelled" and cut.done and not user_cancel:
            stop_reason = "length" if cut.prose else "stop"
        return TurnOutput(parsed=parsed, token_ids=result.token_ids, stop_reason=stop_reason, metrics=result.metrics)


class _JsonCallCut:
    """Ends a free turn once it holds a whole JSON tool call written as prose, or
    once it begins a ``<tool_response>`` of its own or the prompt's ``<tools>`` list (Qwen2.5-Coder-1.5B opened 8 of
    179 turns of two bench runs with an invented tool result and wrote one after
    prose in 2 more; the loop asks for such a turn again, constrained).

    Small models write a call as ``{"name": ..., "arguments": {...}}`` in a code
    block and go on writing (more calls, imagined results): Qwen2.5-Coder-1.5B
    filled a 300 s budget with one such turn. The loop runs only the first such
    call (:func:`model.parsing_failed.salvage_json_calls`), so generating past it
    is wasted. Passed to the runtime as its ``cancel`` (``is_set()``): set by the
    user's cancel, or once the content so far holds a call; ``done`` tells the two apart.
    """

    PROSE_CHARS = 2400
    """Prose (about 600 tokens) with no call begun ends the turn as cut off at the
    length limit: multistep_invoices_memo's first turn wrote a plan for 300 s, the
    whole time budget, without a call (a free answer is rarely this long; the
    constrained turn after the cut may still give it)."""

    def __init__(self, tools: list[dict[str, Any]], cancel: threading.Event | None) -> None:
        self.names = [str((t.get("function") or t).get("name", "")) for t in tools]
        self.cancel = cancel
        self.content: list[str] = []
        self.chars = 0
        self.done = False
        self.prose = False
        self.tail = ""

    def feed(self, kind: str, piece: str) -> None:
        if not self.names or self.done:
            return
        if kind != "content":
            self.chars = -10**9 if kind == "tool_call" else self.chars  # a call has begun: never prose
            return
        self.content.append(piece)
        self.chars += len(piece)
        self.tail = (self.tail + piece)[-64:]
        if "<tool_response>" in self.tail or "<tools>" in self.tail:  # a result it invents, or the prompt's tool
            # list written out again (a held-out task at 1de0702: 7 minutes of schemas, to the length limit):
            # nothing after it is real
            self.done = True
            return
        if "}" in piece:
            from .parsing_failed import salvage_json_calls

            self.done = bool(salvage_json_calls("".join(self.content), self.names)[0])
        if not self.done and self.chars > self.PROSE_CHARS and '"name"' not in "".join(self.content):
            self.done = self.prose = True

    def is_set(self) -> bool:
        return self.done or (self.cancel is not None and self.cancel.is_set())


def _prefill_delta(on_delta: DeltaCallback) -> Callable[[int, int], None]:
    """Prefill progress as ``on_delta("prefill", "DONE/TOTAL")``."""
    return lambda done, total: on_delta("prefill", f"{done}/{total}")


def open_chat_model(path: str | os.PathLike[str], *, n_ctx: int | None = None, cache_dir: str | os.PathLike[str] | None = None,
                    grammar: bool = True, label: str | None = None, is_demo: bool = False,
                    type_kv: str = "f16", n_threads: int | None = None,
                    on_load_progress: Any = None) -> LocalChatModel:
    """Load a GGUF as a :class:`LocalChatModel`, sizing the context with the memory plan.

    Args:
        path: GGUF file.
        n_ctx: the user's context setting (tokens); default :data:`DEFAULT_CTX`.
        cache_dir: folder for persisted prefix KV states.
        grammar: grammar-constrained tool calls.
        on_load_progress: ``callback(fraction)`` while the weights load (0.0 .. 1.0).

    Raises:
        ModelError: unreadable file, no memory for a minimal context, or a load failure.
    """
    from .chat_template import ChatTemplate, TemplateError
    from .gguf_facts import GGUFError
    from .profiles import select_profile

    try:
        facts = read_facts(path)
    except GGUFError as exc:
        raise ModelError(str(exc)) from None
    plan = plan_memory(facts, requested_ctx=n_ctx or DEFAULT_CTX, cache_type=type_kv)
    if not plan.fits:
        raise ModelError(f"{Path(path).name}: not enough memory: {plan.summary()}")
    runtime = Runtime(path, n_ctx=plan.n_ctx, cache_dir=cache_dir, type_kv=type_kv, n_threads=n_threads,
                      on_load_progress=on_load_progress)
    try:
        template = ChatTemplate(facts.chat_template, bos_token=facts.special_tokens.get("bos", ""),
                                eos_token=facts.special_tokens.get("eos", ""))
    except TemplateError:
        template = ChatTemplate.chatml_fallback()
    meta = {"general.architecture": facts.architecture, "general.name": facts.name}
    profile = select_profile(meta, facts.chat_template)
    return LocalChatModel(runtime, template, profile, grammar=grammar, label=label or facts.name, is_demo=is_demo)
