"""The in-process runtime: one ``llama_cpp.Llama``, one generation at a time.

What it adds over llama-cpp-python's own completion API:

* **Prefix reuse** — the token ids in the KV cache are tracked; a prompt that
  shares a prefix with them evaluates only the new suffix (prefill is the cost
  on a CPU: never evaluate the same tokens twice).
* **Prefix persistence** — the KV state of a long shared prefix (system prompt +
  tool schemas) is saved with ``llama_state_save_file`` under a key made of the
  model file's identity and the prefix token ids, and restored by a later
  process instead of being recomputed.
* **Phase-switched grammar** — decoding is free until the generated text ends
  with a trigger (``<tool_call>``); then a GBNF grammar constrains it until the
  grammar's text is complete; then it is free again. The prompt is never
  re-evaluated for the switch: only the sampler changes.
* Stop strings with hold-back for streaming, a reasoning budget that forces
  ``</think>``, cancellation between tokens and prefill batches, and metrics.
"""

from __future__ import annotations

import codecs
import contextlib
import hashlib
import os
import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from .gguf_facts import ModelFacts, read_facts
from .threads import ThreadPolicy, configure_environment
from .types import GenerationMetrics, GenerationResult, ModelError, SamplingParams

__all__ = ["Runtime", "GrammarPhase", "physical_cores", "common_prefix_len", "recurring_tail", "repeating_tail"]

TextCallback = Callable[[str], None]
ProgressCallback = Callable[[int, int], None]
"""``on_progress(done_tokens, total_tokens)`` while the prompt is read (prefill)."""


def physical_cores() -> int:
    """Physical CPU cores (Linux: distinct (package, core) pairs), else os.cpu_count()."""
    try:
        cores = set()
        pkg = core = None
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("physical id"):
                    pkg = line.split(":")[1].strip()
                elif line.startswith("core id"):
                    core = line.split(":")[1].strip()
                elif not line.strip():
                    if core is not None:
                        cores.add((pkg, core))
                    pkg = core = None
        if core is not None:
            cores.add((pkg, core))
        if cores:
            return len(cores)
    except OSError:
        pass
    return max(1, os.cpu_count() or 1)


THREAD_CHECK_TOKENS = 16
"""Decoded tokens between two thread-count checks (:meth:`Runtime._retune_threads`)."""

REPEAT_SPAN = 48
"""A loop is this many tokens (at least three periods) repeated verbatim at the end."""


def repeating_tail(tokens: Sequence[int], span: int = REPEAT_SPAN, max_period: int = 64) -> int:
    """The period (in tokens) of a loop at the end of ``tokens``, or 0.

    A loop is a block of ``p`` tokens repeated back to back covering at least
    ``max(span, 3p)`` tokens: small models at low temperature fall into such
    loops and would otherwise decode until the token cap.
    """
    n = len(tokens)
    for p in range(1, max_period + 1):
        need = max(span, 3 * p)
        if n < need:
            break
        tail = tokens[n - need :]
        if all(tail[i] == tail[i - p] for i in range(p, need)):
            return p
    return 0


# rows, cells and tables repeat their structure between values: no prose loop holds these
_DATA_MARKS = re.compile(r'["{}\[\]|\t]')


OPENING_WINDOW, OPENING_TIMES = 5, 8
"""A ramble: the same five tokens (a sentence's opening, the rest varied) eight
times among the last 768 (:func:`recurring_tail`). files_organise at db466c8: the
files sorted, the finish answer went on "The user can use the move function to
...", "The user can use the rename_many function to ...", one tool after another,
until the 300 s budget ran out and the task paused with no answer."""


def recurring_tail(tokens: Sequence[int], window: int = 10, times: int = 6, within: int = 768) -> bool:
    """True when the last ``window`` tokens occur ``times`` times or more among the
    last ``within`` tokens: a loop whose cycle varies or is longer than
    :func:`repeating_tail` sees. handoff_not_found at 4826ac4 (constrain =
    "always"): "I could not find the phone number in the <name> folder." with the
    name cycling (11 tokens the same each time), inside a finish answer, until the
    300 s budget ran out. The runtime asks it only of prose (no quotes, brackets or
    "|" near the end): a list of cells repeats its keys between values."""
    n = len(tokens)
    if n < window * times:
        return False
    tail = list(tokens[n - window:])
    first = tail[0]
    seen = 0
    for i in range(max(0, n - within), n - window + 1):
        if tokens[i] == first and list(tokens[i:i + window]) == tail:
            seen += 1
            if seen >= times:
                return True
    return False


def common_prefix_len(a: Sequence[int], b: Sequence[int]) -> int:
    """Length of the longest common prefix of two token sequences."""
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


@dataclass
class GrammarPhase:
    """Constrain decoding after ``trigger`` appears in the output.

    Attributes:
        grammar: GBNF text for what follows the trigger (must end with ``end``).
        trigger: text that opens the constrained phase, e.g. ``<tool_call>``.
        end: text that closes it, e.g. ``</tool_call>``.
        from_start: constrain from the first token (a forced turn); the turn ends
            when the text reaches ``end`` (with ``end=""`` the grammar itself ends it).
        sampling: sampling while the grammar constrains (tool calls greedy or
            near-greedy, ``ModelProfile.action_sampling``); None: the turn's.
    """

    grammar: str
    trigger: str = "<tool_call>"
    end: str = "</tool_call>"
    from_start: bool = False
    sampling: SamplingParams | None = None


@contextlib.contextmanager
def _load_progress(llama_cpp: Any, callback: Callable[[float], None] | None):
    """Make the next ``Llama(...)`` report its load progress to ``callback``.

    ``llama_cpp`` is the low-level binding module ``llama_cpp.llama_cpp``, the one
    ``llama_cpp.llama`` calls through.

    llama-cpp-python 0.3.36's ``Llama.__init__`` takes no progress callback but
    builds its model parameters with ``llama_model_default_params()``; for the
    duration of this block that function returns parameters whose
    ``progress_callback`` calls ``callback(fraction)`` (llama.cpp's
    ``llama_progress_callback``: return true to go on loading).
    """
    if callback is None:
        yield
        return
    original = llama_cpp.llama_model_default_params

    def report(progress: float, _user: Any) -> bool:
        try:
            callback(max(0.0, min(1.0, float(progress))))
        except Exception:  # noqa: BLE001 - a UI error must not abort the load
            pass
        return True

    c_report = llama_cpp.llama_progress_callback(report)  # kept alive until the load ends

    def with_progress():
        params = original()
        params.progress_callback = c_report
        return params

    llama_cpp.llama_model_default_params = with_progress
    try:
        yield
    finally:
        llama_cpp.llama_model_default_params = original


class Runtime:
    """Owns one llama.cpp context and serialises generations on it.

    Args:
        model_path: a GGUF file.
        n_ctx: context size in tokens (clamped to the trained context).
        n_threads: CPU threads; None: the cores other processes leave free, re-checked
            before each prefill and every :data:`THREAD_CHECK_TOKENS` decoded tokens
            (:class:`model.threads.ThreadPolicy`).
        n_batch: prefill batch size.
        cache_dir: folder for persisted prefix states (None: no persistence).
        type_kv: KV cache type "f16" (default) or "q8_0".
        verbose: llama.cpp logging.
        canary: first prove the llama.cpp build runs on this CPU in a subprocess
            (:func:`model.canary.ensure_canary`; once per build).
        on_load_progress: called with the fraction of the weights loaded (0.0 .. 1.0),
            from llama.cpp's load progress callback, while the model loads.

    Raises:
        ModelError: the file cannot be read, the build crashes on this CPU (the
            message names the signal and the rebuild command), or llama.cpp cannot load it.
    """

    def __init__(
        self,
        model_path: str | os.PathLike[str],
        *,
        n_ctx: int = 4096,
        n_threads: int | None = None,
        n_batch: int = 512,
        cache_dir: str | os.PathLike[str] | None = None,
        type_kv: str = "f16",
        verbose: bool = False,
        canary: bool = True,
        on_load_progress: Callable[[float], None] | None = None,
    ) -> None:
        from .canary import ensure_canary
        from .gguf_facts import GGUFError

        try:
            self.facts: ModelFacts = read_facts(model_path)
        except GGUFError as exc:
            raise ModelError(str(exc)) from None
        if self.facts.context_length:
            n_ctx = min(n_ctx, self.facts.context_length)
        if canary:
            ensure_canary(cache_dir)
        configure_environment()
        try:
            import llama_cpp
            from llama_cpp import Llama
        except ImportError as exc:  # pragma: no cover - a broken install
            raise ModelError(f"llama-cpp-python is not installed or failed to load: {exc}") from None
        kv_types = {"f16": llama_cpp.GGML_TYPE_F16, "q8_0": llama_cpp.GGML_TYPE_Q8_0, "f32": llama_cpp.GGML_TYPE_F32}
        kw: dict[str, Any] = {}
        if type_kv != "f16":
            if type_kv not in kv_types:
                raise ModelError(f"unknown KV cache type {type_kv!r}; use f16 or q8_0")
            kw.update(type_k=kv_types[type_kv], type_v=kv_types[type_kv], flash_attn=True)
        self.threads = ThreadPolicy(physical_cores(), fixed=n_threads)
        self.n_threads = self.threads.current
        self.thread_history: list[int] = [self.n_threads]
        started = time.perf_counter()
        try:
            with _load_progress(llama_cpp.llama_cpp, on_load_progress):
                self.llm = Llama(
                    model_path=str(model_path),
                    n_ctx=n_ctx,
                    n_batch=n_batch,
                    n_threads=self.n_threads,
                    n_threads_batch=self.n_threads,
                    use_mmap=True,
                    verbose=verbose,
                    **kw,
                )
        except Exception as exc:  # llama-cpp-python raises ValueError on load failure
            raise ModelError(f"{model_path}: llama.cpp could not load the model ({exc})") from None
        self.load_s = time.perf_counter() - started
        self.path = Path(model_path)
        self.n_ctx = self.llm.n_ctx()
        self.n_batch = n_batch
        self.type_kv = type_kv
        self.cache_dir = Path(cache_dir) if cache_dir else None
        self._lock = threading.Lock()
        self._identity = self._model_identity()

    # ----------------------------------------------------------------- tokens
    def tokenize(self, text: str, *, add_bos: bool = False, special: bool = True) -> list[int]:
        """Token ids of ``text`` (special tokens parsed when ``special``)."""
        return self.llm.tokenize(text.encode("utf-8"), add_bos=add_bos, special=special)

    def detokenize(self, tokens: Sequence[int]) -> str:
        """Text of ``tokens`` (special tokens rendered)."""
        return self.llm.detokenize(list(tokens), special=True).decode("utf-8", errors="replace")

    def _piece(self, token: int) -> bytes:
        """Raw bytes of one token (special tokens rendered, no space stripping)."""
        import ctypes

        import llama_cpp

        size = 64
        while True:
            buf = ctypes.create_string_buffer(size)
            n = llama_cpp.llama_token_to_piece(self.llm._model.vocab, llama_cpp.llama_token(token), buf, size, 0, True)
            if n >= 0:
                return buf.raw[:n]
            size = -n

    @property
    def bos_token_id(self) -> int:
        return self.llm.token_bos()

    @property
    def cached_tokens(self) -> list[int]:
        """Token ids currently in the KV cache, in order."""
        return [int(t) for t in self.llm.input_ids[: self.llm.n_tokens]]

    def close(self) -> None:
        """Free the llama.cpp context and model."""
        with self._lock:
            self.llm.close()

    # ------------------------------------------------------ prefix persistence
    def _model_identity(self) -> str:
        st = self.path.stat()
        raw = f"{self.path.resolve()}|{st.st_size}|{st.st_mtime_ns}|{self.n_ctx}|{self.type_kv}"
        return hashlib.sha256(raw.encode()).hexdigest()[:16]

    def prefix_key(self, tokens: Sequence[int]) -> str:
        """Cache key of a prefix: model identity + sha256 of the token ids."""
        h = hashlib.sha256(self._identity.encode())
        h.update(b"".join(int(t).to_bytes(4, "little", signed=True) for t in tokens))
        return h.hexdigest()[:32]

    def _prefix_file(self, tokens: Sequence[int]) -> Path | None:
        if self.cache_dir is None:
            return None
        return self.cache_dir / f"prefix-{self.prefix_key(tokens)}.state"

    def _save_prefix(self, tokens: Sequence[int]) -> None:
        import llama_cpp

        path = self._prefix_file(tokens)
        if path is None or path.exists():
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".tmp{os.getpid()}")
        arr = (llama_cpp.llama_token * len(tokens))(*tokens)
        if llama_cpp.llama_state_save_file(self.llm._ctx.ctx, str(tmp).encode(), arr, len(tokens)):
            os.replace(tmp, path)
        else:
            tmp.unlink(missing_ok=True)

    def _restore_prefix(self, tokens: Sequence[int]) -> bool:
        import ctypes

        import llama_cpp

        path = self._prefix_file(tokens)
        if path is None or not path.exists():
            return False
        n = len(tokens)
        out = (llama_cpp.llama_token * n)()
        count = ctypes.c_size_t(0)
        ok = llama_cpp.llama_state_load_file(self.llm._ctx.ctx, str(path).encode(), out, n, ctypes.byref(count))
        if not ok or count.value != n or list(out) != list(tokens):
            self.llm.reset()
            self.llm._ctx.kv_cache_seq_rm(-1, 0, -1)
            path.unlink(missing_ok=True)  # stale or damaged: recompute next time
            return False
        self.llm.input_ids[:n] = tokens
        self.llm.n_tokens = n
        return True

    # ---------------------------------------------------------------- threads
    def _retune_threads(self) -> None:
        """Give llama.cpp the thread count :class:`ThreadPolicy` chooses now."""
        n = self.threads.choose()
        if n != self.n_threads:
            import llama_cpp

            llama_cpp.llama_set_n_threads(self.llm._ctx.ctx, n, n)
            self.n_threads = n
            self.thread_history.append(n)

    # ---------------------------------------------------------------- prefill
    def _prefill(self, prompt: list[int], persist_prefix: int, cancel: threading.Event | None, m: GenerationMetrics,
                 on_progress: ProgressCallback | None = None) -> bool:
        """Bring the KV cache to ``prompt[:-1]`` evaluated plus the last token, reusing what is there.

        ``on_progress(done, total)`` is called once the reusable prefix is known and
        after each batch (``done``: prompt tokens in the cache, reused ones included).
        Returns False when cancelled.
        """
        llm = self.llm
        keep = common_prefix_len(self.cached_tokens, prompt)
        if keep >= len(prompt):
            keep = len(prompt) - 1  # re-evaluate one token to get fresh logits
        if 0 < persist_prefix <= len(prompt) and keep < persist_prefix:
            if self._restore_prefix(prompt[:persist_prefix]):
                m.restored = persist_prefix
                keep = persist_prefix if persist_prefix < len(prompt) else len(prompt) - 1
        m.reused = keep - m.restored if m.restored else keep
        llm.n_tokens = keep
        llm._ctx.kv_cache_seq_rm(-1, keep, -1)
        pos = keep
        self._retune_threads()
        t0 = time.perf_counter()
        if on_progress is not None:
            on_progress(pos, len(prompt))
        while pos < len(prompt):
            if cancel is not None and cancel.is_set():
                m.prefill_s += time.perf_counter() - t0
                return False
            end = min(len(prompt), pos + self.n_batch)
            if 0 < persist_prefix and pos < persist_prefix < end and not m.restored:
                end = persist_prefix  # stop exactly at the prefix to save it
            llm.eval(prompt[pos:end])
            m.evaluated += end - pos
            pos = end
            if on_progress is not None:
                on_progress(pos, len(prompt))
            if pos == persist_prefix and not m.restored:
                self._save_prefix(prompt[:persist_prefix])
        m.prefill_s += time.perf_counter() - t0
        return True

    # --------------------------------------------------------------- generate
    def generate(
        self,
        prompt: list[int],
        *,
        max_tokens: int = 512,
        sampling: SamplingParams | None = None,
        stop: Sequence[str] = (),
        on_text: TextCallback | None = None,
        cancel: threading.Event | None = None,
        grammar: GrammarPhase | None = None,
        persist_prefix: int = 0,
        reasoning: bool = False,
        reasoning_budget: int | None = None,
        reasoning_end: str = "</think>",
        on_progress: ProgressCallback | None = None,
    ) -> GenerationResult:
        """Generate from token ids.

        Args:
            prompt: full prompt token ids (BOS included if the model wants one).
            max_tokens: cap on generated tokens (also capped by free context).
            sampling: sampling settings (default :class:`SamplingParams`).
            stop: stop strings; the text up to (not including) the first one is returned.
            on_text: streaming callback receiving text deltas (stop strings held back).
            cancel: when set, stops at the next token or prefill batch ("cancelled").
            on_progress: ``(done, total)`` prompt tokens in the cache, after each prefill batch.
            grammar: optional phase-switched grammar.
            persist_prefix: number of leading prompt tokens whose KV state is
                saved to / restored from ``cache_dir`` (0: none).
            reasoning: the output starts inside a reasoning block (the prompt
                opened ``<think>``); its tokens are counted in ``reasoning_tokens``.
            reasoning_budget: when set (with ``reasoning``) and the output has not
                produced ``reasoning_end`` after this many tokens, it is inserted.
            reasoning_end: the text that ends reasoning.

        Returns:
            :class:`GenerationResult`; its ``metrics`` count evaluated, reused
            and restored prompt tokens.

        Raises:
            ModelError: the prompt is empty or does not fit the context.
        """
        if not prompt:
            raise ModelError("empty prompt")
        if len(prompt) >= self.n_ctx:
            raise ModelError(f"prompt of {len(prompt)} tokens does not fit the context of {self.n_ctx} tokens")
        with self._lock:
            return self._generate(
                list(prompt), max_tokens, sampling or SamplingParams(), list(stop), on_text, cancel,
                grammar, persist_prefix, reasoning, reasoning_budget, reasoning_end, on_progress,
            )

    def _sampler(self, s: SamplingParams, grammar_text: str | None):
        """A sampler for ``s``; with ``grammar_text``, one that asks the grammar about
        the chosen token only (:mod:`model.grammar_sampler`; a quarter slower otherwise)."""
        from .grammar_sampler import TryFirstGrammarSampler

        if s.seed is not None:
            self.llm.set_seed(s.seed)
        chain = self.llm._init_sampler(
            top_k=s.top_k, top_p=s.top_p, min_p=s.min_p, temp=s.temperature, repeat_penalty=s.repeat_penalty,
        )
        return TryFirstGrammarSampler(self.llm, chain, grammar_text) if grammar_text else chain

    @staticmethod
    def _opens(text: str, piece: str, trigger: str) -> bool:
        """True when ``piece`` (the newest token's text) completed ``trigger`` and
        nothing but whitespace follows it (the grammar then starts cleanly)."""
        i = text.rfind(trigger, max(0, len(text) - len(piece) - len(trigger) + 1))
        return i != -1 and not text[i + len(trigger):].strip()

    def _generate(self, prompt, max_tokens, s, stop, on_text, cancel, grammar, persist_prefix,
                  reasoning, reasoning_budget, reasoning_end, on_progress=None) -> GenerationResult:
        m = GenerationMetrics(prompt_tokens=len(prompt))
        t_start = time.perf_counter()
        if not self._prefill(prompt, persist_prefix, cancel, m, on_progress):
            return GenerationResult("", [], "cancelled", m)
        llm = self.llm
        max_tokens = max(0, min(max_tokens, self.n_ctx - len(prompt) - 1))
        free = self._sampler(s, None)
        constrained = grammar is not None and grammar.from_start
        sampler = self._sampler(grammar.sampling or s, grammar.grammar) if constrained else free
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        out_ids: list[int] = []
        text = ""
        emitted = 0
        reason = "length"
        in_reasoning = reasoning
        hold = max((len(x) for x in stop), default=1) - 1
        eos = {llm.token_eos()}
        try:
            eos.add(int(llm._model.token_eot()))
        except Exception:  # noqa: BLE001 - not every model has EOT
            pass
        t_dec = time.perf_counter()
        while len(out_ids) < max_tokens:
            if cancel is not None and cancel.is_set():
                reason = "cancelled"
                break
            tok = sampler.sample(llm._ctx, -1)
            if not out_ids:
                m.ttft_s = time.perf_counter() - t_start
            if tok in eos:
                reason = "eos"
                break
            forced: list[int] = [tok]
            piece = decoder.decode(self._piece(tok))
            if in_reasoning:
                m.reasoning_tokens += 1
            if in_reasoning and reasoning_end in text + piece:
                in_reasoning = False
            elif (in_reasoning and reasoning_budget is not None and m.reasoning_tokens >= reasoning_budget
                  and not constrained):  # a grammar sampler would not see forced tokens
                extra = "\n" + reasoning_end + "\n\n"
                forced += self.tokenize(extra)
                piece += extra
                in_reasoning = False
            out_ids.extend(forced)
            text += piece
            cut = -1
            for st in stop:
                i = text.find(st, max(0, len(text) - len(piece) - len(st)))
                if i != -1 and (cut == -1 or i < cut):
                    cut = i
            if cut != -1:
                text = text[:cut]
                reason = "stop"
                break
            if len(out_ids) >= max_tokens:
                break  # keep the last token out of the cache only when done
            # constrained output too: a grammar allows a loop inside a string (note_search at d59b864,
            # constrain = "always": the answer known, the last turn decoded until the 300 s budget ran out)
            if (len(out_ids) % 8 == 0 and repeating_tail(out_ids)) \
                    or (not _DATA_MARKS.search(text[-160:]) and (recurring_tail(out_ids) or recurring_tail(
                        out_ids, window=OPENING_WINDOW, times=OPENING_TIMES))):
                reason = "repetition"
                break
            if grammar is not None and grammar.from_start and constrained and grammar.end \
                    and text.rstrip().endswith(grammar.end):
                reason = "stop"  # a forced turn is the one constrained text: it ends where the grammar does
                break
            if len(out_ids) % THREAD_CHECK_TOKENS == 0:
                self._retune_threads()
            llm.eval(forced)
            if grammar is not None:
                if constrained and grammar.end and text.rstrip().endswith(grammar.end):
                    constrained, sampler = False, free
                elif not constrained and self._opens(text, piece, grammar.trigger):
                    constrained, sampler = True, self._sampler(grammar.sampling or s, grammar.grammar)
            if on_text is not None and len(text) - hold > emitted:
                on_text(text[emitted : len(text) - hold])
                emitted = len(text) - hold
        m.generated = len(out_ids)
        m.decode_s = time.perf_counter() - t_dec
        if on_text is not None and len(text) > emitted:
            on_text(text[emitted:])
        return GenerationResult(text, out_ids, reason, m)
