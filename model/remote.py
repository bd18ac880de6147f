"""The remote engine: the same chat protocol on a llama.cpp / vLLM / SGLang server.

:class:`RemoteChatModel` implements :class:`model.types.ChatModel` over an
OpenAI-compatible ``/v1/completions`` endpoint. The prompt is rendered here,
with the same template, profile and parser as :class:`model.chat.LocalChatModel`,
so reasoning and tool-call handling do not depend on the server's chat support.

Grammar-constrained tool calls across requests. A server cannot switch the
sampler in the middle of one stream, so one turn may take several requests:

1. free generation, watching the stream for ``<tool_call>``;
2. when it appears the stream is closed (text after the trigger is dropped)
   and a second request continues ``prompt + text + "<tool_call>"`` under the
   tool-call grammar; the grammar ends with ``</tool_call>``, after which the
   server can only emit end-of-generation;
3. free generation continues from ``prompt + text``; repeat.

The server re-tokenizes the longer prompt; llama.cpp and llama-cpp-python
reuse their cached prefix, so only the new tokens are evaluated. A forced turn
(``force="tool_call_or_final"``) is one request under
:func:`model.grammar.forced_turn_grammar`. Without a grammar field (unknown
engine, or ``grammar="off"``) the text is generated freely and the parser
reports malformed calls as :class:`model.types.ParseError` for the model to
repair. Like the local model, a forced turn is constrained even with
``grammar="off"`` when the engine can take a grammar.

Reasoning budget: when the prompt opens ``<think>``, the first free request is
capped at the budget; if it ends there with the reasoning still open,
``\n</think>\n\n`` is appended and generation continues (as the local
runtime forces it). Cancellation is checked between streamed chunks (a server
still in prefill is not interrupted until its first chunk). Retries happen
only before a turn's first text; a request that fails later ends the turn with
stop_reason "error" and the text so far. ``token_ids`` are not available
remotely (always empty).
"""

from __future__ import annotations

import threading
import time
from typing import Any

from .remote_http import Completion, completion_body, stream_completion
from .remote_probe import ServerInfo, detect_server, make_client, probe_server, tokenize_remote
from .types import DeltaCallback, GenerationMetrics, Message, ModelError, SamplingParams, TurnOutput, union_of_tools

__all__ = ["RemoteChatModel", "probe_server", "DEFAULT_REMOTE_CTX"]

DEFAULT_REMOTE_CTX = 4096
"""Context size (tokens) assumed when neither the server nor the caller gives one."""

TRIGGER = "<tool_call>"
CALL_END = "</tool_call>"
THINK_END = "</think>"
FORCED_THINK_END = "\n</think>\n\n"
MAX_PHASES = 16
"""Most requests in one turn (a bound on call-after-call loops)."""


def _grammar_mode(grammar: Any) -> str:
    if grammar is True:
        return "on"
    if grammar is False or grammar is None:
        return "off"
    mode = str(grammar).lower()
    if mode not in ("auto", "on", "off"):
        raise ModelError(f"grammar must be 'auto', 'on' or 'off', not {grammar!r}")
    return mode


class RemoteChatModel:
    """A :class:`~model.types.ChatModel` served by an OpenAI-compatible server.

    Args:
        base_url: server root, e.g. ``http://127.0.0.1:8080`` (a trailing ``/v1`` is accepted).
        model_name: the model id to request (default: the server's first model).
        api_key: bearer token (the app reads it from the keyring; never logged).
        template: a ``model.chat_template.ChatTemplate`` used when the server
            does not report its template (llama.cpp's ``/props`` does); else ChatML.
        profile: a ``model.profiles.ModelProfile`` (default: chosen from the model
            id and template with ``select_profile``).
        timeout: seconds to wait for the next streamed chunk (connect: at most 10).
        retries: extra attempts before the first token on connection errors, 5xx and 429.
        backoff: seconds before the first retry (doubled each time; a ``Retry-After`` header wins).
        grammar: "auto" (constrain calls when the engine has a grammar field),
            "on" (always send one; llama.cpp's field for unknown engines) or "off".
        context_size: tokens, when the server does not report it (default 4096).
        sampling: sampling settings (default: the profile's).
        label: display name (default: the model id).
        reasoning_budget: tokens of reasoning before ``</think>`` is inserted and
            generation continues after it (None: no cap); only when the prompt opens ``<think>``.

    Raises:
        ModelError: the server is unreachable, refuses the key, serves no model,
            or ``grammar`` is not one of the modes.
    """

    teaches_call_format = True  # the chat template (server's, given or ChatML) renders the call format

    def __init__(self, base_url: str, *, model_name: str | None = None, api_key: str | None = None,
                 template: Any = None, profile: Any = None, timeout: float = 60.0, retries: int = 2,
                 backoff: float = 0.5, grammar: Any = "auto", context_size: int | None = None,
                 sampling: SamplingParams | None = None, label: str = "",
                 reasoning_budget: int | None = 2048) -> None:
        from .chat_template import ChatTemplate, TemplateError
        from .profiles import select_profile

        mode = _grammar_mode(grammar)
        self.retries = max(0, int(retries))
        self.backoff = max(0.0, float(backoff))
        self.client = make_client(base_url, api_key, timeout)
        try:
            self.info: ServerInfo = detect_server(self.client)
        except ModelError:
            self.client.close()
            raise
        if model_name is None and not self.info.models:
            self.client.close()
            raise ModelError(f"{self.info.base_url} serves no model; start it with one or name one")
        self.model_name = model_name or self.info.models[0]
        self.template = None
        if self.info.chat_template:
            try:  # the server adds BOS itself: render without it
                self.template = ChatTemplate(self.info.chat_template, eos_token=self.info.eos_token)
            except TemplateError:
                self.template = None
        own = self.template or template
        self.template = own or ChatTemplate.chatml_fallback()
        meta = {"general.name": self.model_name}
        self.profile = profile or select_profile(meta, own.source if own is not None else None)
        self.sampling = sampling or self.profile.sampling
        self.grammar_enabled = mode == "on" or (mode == "auto" and self.info.grammar_supported)
        self.grammar_available = mode == "on" or self.info.grammar_supported
        """A grammar can be sent (forced turns use it even with ``grammar="off"``, as the local model does)."""
        self.name = label or self.model_name
        self.context_size = int(self.info.n_ctx or context_size or DEFAULT_REMOTE_CTX)
        self.is_demo = False
        self.reasoning_budget = reasoning_budget
        self.last_metrics: GenerationMetrics | None = None
        self.last_requests: list[str] = []
        """Kind of each request of the last turn: "free", "call" (tool-call grammar) or "forced"."""

    # --------------------------------------------------------------- basics
    @property
    def engine(self) -> str:
        """The detected engine ("llama.cpp", "llama-cpp-python", "vllm", "sglang", "openai-compatible")."""
        return self.info.engine

    @property
    def fmt(self) -> str:
        return self.profile.tool_call_format

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self.client.close()

    def render(self, messages: list[Message], tools: list[dict[str, Any]], *, add_generation_prompt: bool = True) -> str:
        """Prompt text for ``messages`` (raises ``model.chat_template.TemplateError``)."""
        return self.template.render(messages, tools, add_generation_prompt=add_generation_prompt,
                                    **self.profile.template_kwargs())

    def _count_text(self, text: str) -> tuple[int, bool]:
        """(tokens of ``text``, exact?) — the server's tokenizer, else ``len(text) // 4``."""
        ids = tokenize_remote(self.client, self.info, text, self.model_name)
        return (len(ids), True) if ids is not None else (len(text) // 4, False)

    def count_tokens(self, messages: list[Message], tools: list[dict[str, Any]]) -> int:
        """Tokens of the rendered prompt (the server's count, else an estimate of 4 characters a token)."""
        return self._count_text(self.render(messages, tools))[0]

    # ------------------------------------------------------------- complete
    def complete(self, messages: list[Message], tools: list[dict[str, Any]], *,
                 on_delta: DeltaCallback | None = None, cancel: threading.Event | None = None,
                 force: str | None = None, max_tokens: int | None = None,
                 call_tools: list[dict[str, Any]] | None = None, vary: bool = False) -> TurnOutput:
        """Generate one assistant turn (see :class:`model.types.ChatModel`).

        Raises:
            ModelError: the template fails, the prompt does not fit the context,
                or the server cannot be used (unreachable after retries, 4xx).
        """
        from .chat_template import TemplateError
        from .grammar import forced_turn_grammar, tool_call_grammar
        from .parsing import StreamParser

        try:
            prompt = self.render(messages, tools)
        except TemplateError as exc:
            raise ModelError(str(exc)) from None
        t_start = time.perf_counter()
        n_prompt, exact = self._count_text(prompt)
        room = self.context_size - n_prompt - 1
        if exact and room < 16:
            raise ModelError(f"the prompt ({n_prompt} tokens) leaves no room to answer in a context of {self.context_size}")
        limit = min(max_tokens or room, room) if exact else (max_tokens or max(16, room))
        starts_in_think = self.profile.prompt_opens_think(prompt)
        grammar_tools = tools if call_tools is None else call_tools
        parser = StreamParser(union_of_tools(tools, grammar_tools), self.fmt, starts_in_think)
        tools = grammar_tools  # below: what the grammar lets a call use
        m = GenerationMetrics(prompt_tokens=n_prompt)

        def emit(delta: str) -> None:
            if on_delta is not None and delta:
                for kind, piece in parser.feed(delta):
                    on_delta(kind, piece)
            elif delta:
                parser.feed(delta)

        self.last_requests = []
        if tools and force in ("tool_call_or_final", "tool_call") and self.grammar_available:
            if force == "tool_call" and not starts_in_think:
                g = tool_call_grammar(tools, self.fmt, include_open=True)
            else:
                g = forced_turn_grammar(tools, self.fmt, in_think=starts_in_think)
            res = self._request(prompt, limit, g, emit, cancel, "forced")
            reason = self._reason(res)
            self._account(m, res, first=True)
        else:
            call_grammar = tool_call_grammar(tools, self.fmt) if tools and self.grammar_enabled else None
            budget = self.reasoning_budget if starts_in_think else None
            _, reason = self._phases(prompt, limit, call_grammar, emit, cancel, m, budget)
        if on_delta is not None:
            for kind, piece in parser.flush():
                on_delta(kind, piece)
        m.decode_s = max(0.0, time.perf_counter() - t_start - m.ttft_s)
        self.last_metrics = m
        return TurnOutput(parsed=parser.finish(), token_ids=[], stop_reason=reason, metrics=m)

    def _phases(self, prompt: str, limit: int, call_grammar: str | None, emit, cancel, m: GenerationMetrics,
                think_left: int | None):
        """Free / constrained requests until the turn ends; returns (text, stop_reason).

        ``think_left``: tokens of reasoning allowed before ``</think>`` is
        written into the text and generation goes on from there (None: no cap).
        """
        text, left = "", limit
        for phase in range(MAX_PHASES):
            cap = left if think_left is None else max(1, min(left, think_left))
            watcher = _TriggerWatch(emit) if call_grammar else None
            res = self._request(prompt + text, cap, None, watcher.feed if watcher else emit, cancel, "free",
                                started=phase > 0)
            text += res.text
            n = self._account(m, res, first=phase == 0)
            left -= n
            if think_left is not None:
                think_left = None if THINK_END in text else think_left - n
            if res.finish == "length" and think_left is not None and think_left <= 0 and left > 0:
                emit(FORCED_THINK_END)  # the reasoning budget is spent: close it, as the local runtime does
                text += FORCED_THINK_END
                think_left = None
                continue
            if res.finish != "halted":
                return text, self._reason(res)
            if left <= 0:
                return text, "length"
            res = self._request(prompt + text, left, call_grammar, emit, cancel, "call", started=True)
            text += res.text
            left -= self._account(m, res, first=False)
            if res.finish != "stop":
                return text, self._reason(res)
            if not text.rstrip().endswith(CALL_END):
                return text, "stop"
            if left <= 0:
                return text, "length"
        return text, "length"

    def _request(self, prompt: str, max_tokens: int, grammar: str | None, on_text, cancel, kind: str,
                 started: bool = False) -> Completion:
        """One streamed request. When the turn already has text (``started``), a
        failed request ends the turn with finish "error" instead of raising."""
        self.last_requests.append(kind)
        body = completion_body(self.info, prompt, model=self.model_name, sampling=self.sampling,
                               stop=list(self.profile.stop), max_tokens=max(1, max_tokens), grammar=grammar)
        try:
            return stream_completion(self.client, body, on_text=on_text, cancel=cancel,
                                     retries=self.retries, backoff=self.backoff)
        except ModelError as exc:
            if not started:
                raise
            return Completion(finish="error", error=str(exc))

    @staticmethod
    def _reason(res: Completion) -> str:
        return {"halted": "stop", "stop": "stop"}.get(res.finish, res.finish)

    @staticmethod
    def _account(m: GenerationMetrics, res: Completion, *, first: bool) -> int:
        """Add a request's counts to ``m``; returns the tokens it generated."""
        n = int(res.usage.get("completion_tokens") or 0) if res.finish != "halted" else 0
        n = n or res.chunks
        m.generated += n
        t = res.timings
        if first:
            m.ttft_s = res.ttft_s
            m.prefill_s = float(t.get("prompt_ms", 0.0)) / 1000 if t else res.ttft_s
        prompt_n = t.get("prompt_n") if t else None
        m.evaluated += int(prompt_n) if isinstance(prompt_n, int) else (m.prompt_tokens if first else 0)
        if first and t and isinstance(t.get("cache_n"), int):
            m.reused = t["cache_n"]
        return n


class _TriggerWatch:
    """Streams text to ``emit`` until ``<tool_call>`` appears; then asks the
    stream to cut right after it (the grammar request takes over)."""

    def __init__(self, emit) -> None:
        self.emit = emit
        self.text = ""
        self.sent = 0

    def feed(self, delta: str) -> int | None:
        start = max(0, len(self.text) - len(TRIGGER) + 1)
        self.text += delta
        i = self.text.find(TRIGGER, start)
        if i == -1:
            keep = len(self.text)
            self.emit(self.text[self.sent:keep])
            self.sent = keep
            return None
        end = i + len(TRIGGER)
        self.emit(self.text[self.sent:end])
        self.sent = end
        return end
