"""Streaming ``/v1/completions`` requests: request bodies per engine, SSE reading, retries.

One request is one stream. Retries (connection errors, HTTP 5xx, 429) happen
only before the first chunk: once text has arrived, a broken stream ends the
request with finish "error" and the text is kept. Cancellation is checked
between chunks and closes the stream (the server stops on disconnect).
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import httpx

from .remote_probe import LLAMA_CPP, LLAMA_CPP_PYTHON, SGLANG, VLLM, ServerInfo, error_detail, http_error, one_line
from .types import ModelError, SamplingParams

__all__ = ["Completion", "completion_body", "stream_completion"]


def completion_body(info: ServerInfo, prompt: str, *, model: str | None, sampling: SamplingParams,
                    stop: list[str], max_tokens: int, grammar: str | None) -> dict[str, Any]:
    """The JSON body of one streaming ``/v1/completions`` request for ``info.engine``.

    Sampling fields the engine does not know are left out (a strict
    OpenAI-compatible server rejects unknown fields).
    """
    body: dict[str, Any] = {"prompt": prompt, "max_tokens": int(max_tokens), "stream": True,
                            "temperature": sampling.temperature, "top_p": sampling.top_p}
    if model:
        body["model"] = model
    if stop:
        body["stop"] = list(dict.fromkeys(stop))
    if sampling.seed is not None:
        body["seed"] = int(sampling.seed)
    if info.engine in (LLAMA_CPP, LLAMA_CPP_PYTHON):
        body.update(top_k=sampling.top_k, min_p=sampling.min_p, repeat_penalty=sampling.repeat_penalty)
    elif info.engine in (VLLM, SGLANG):
        body.update(top_k=sampling.top_k if sampling.top_k > 0 else -1, min_p=sampling.min_p,
                    repetition_penalty=sampling.repeat_penalty)
    if info.engine in (LLAMA_CPP, VLLM, SGLANG):
        body["stream_options"] = {"include_usage": True}
    if grammar:
        body.update(info.grammar_fields(grammar))
    return body


@dataclass
class Completion:
    """The end of one streamed request.

    Attributes:
        text: text received (cut where ``on_text`` asked to stop).
        finish: "stop", "length", "cancelled", "halted" (``on_text`` returned a
            cut), or "error" (the stream broke after the first chunk).
        chunks: text chunks received (about one per token).
        usage / timings: the server's ``usage`` / llama.cpp ``timings``, if sent.
        ttft_s: seconds from sending to the first chunk (0 if none).
        error: one line when ``finish`` is "error".
    """

    text: str = ""
    finish: str = "stop"
    chunks: int = 0
    usage: dict[str, Any] = field(default_factory=dict)
    timings: dict[str, Any] = field(default_factory=dict)
    ttft_s: float = 0.0
    error: str = ""


class _Retry(Exception):
    """A failure before the first chunk that may pass on a later attempt."""


def _events(resp: httpx.Response):
    """Decoded JSON payloads of an SSE stream, until ``[DONE]``."""
    for line in resp.iter_lines():
        if not line.startswith("data:"):
            continue
        data = line[5:].strip()
        if data == "[DONE]":
            return
        if not data:
            continue
        try:
            yield json.loads(data)
        except ValueError:
            continue


def stream_completion(client: httpx.Client, body: dict[str, Any], *,
                      on_text: Callable[[str], int | None] | None = None,
                      cancel: threading.Event | None = None, retries: int = 2,
                      backoff: float = 0.5) -> Completion:
    """POST ``/v1/completions`` with ``stream: true`` and read it to the end.

    Args:
        body: from :func:`completion_body`.
        on_text: called with each text chunk; returning an int ``n`` cuts the
            request's text to its first ``n`` characters and closes the stream
            (finish "halted"); None goes on.
        cancel: checked between chunks; when set the stream is closed (finish "cancelled").
        retries: extra attempts on connection errors, HTTP 5xx and 429, only
            before the first chunk; waits ``backoff * 2**i`` s (or ``Retry-After``, at most 30 s).

    Raises:
        ModelError: the server refused the request (4xx), or every attempt failed,
            or no first chunk came within the read timeout.
    """
    url = str(client.base_url).rstrip("/") + "/v1/completions"
    last = ""
    for attempt in range(retries + 1):
        if cancel is not None and cancel.is_set():
            return Completion(finish="cancelled")
        try:
            return _stream_once(client, body, on_text, cancel)
        except _Retry as exc:
            last = str(exc)
            if attempt == retries:
                break
            delay = min(30.0, float(exc.args[1]) if len(exc.args) > 1 and exc.args[1] else backoff * 2 ** attempt)
            if cancel is not None:
                if cancel.wait(delay):
                    return Completion(finish="cancelled")
            else:
                time.sleep(delay)
    raise ModelError(f"{url}: {last} (after {retries + 1} attempts)")


def _retry_after(resp: httpx.Response) -> float | None:
    try:
        return float(resp.headers.get("retry-after", ""))
    except ValueError:
        return None


def _stream_once(client: httpx.Client, body: dict[str, Any], on_text, cancel) -> Completion:
    out = Completion()
    parts: list[str] = []
    t0 = time.perf_counter()
    try:
        with client.stream("POST", "/v1/completions", json=body) as resp:
            if resp.status_code == 429 or resp.status_code >= 500:
                resp.read()
                raise _Retry(f"HTTP {resp.status_code}: {error_detail(resp)}", _retry_after(resp))
            if resp.status_code != 200:
                resp.read()
                raise http_error(resp, str(resp.request.url))
            for event in _events(resp):
                if not isinstance(event, dict):
                    continue
                if "error" in event:
                    err = event["error"]
                    msg = one_line(err.get("message", err) if isinstance(err, dict) else err)
                    if not out.chunks:
                        raise ModelError(f"the server failed: {msg}")
                    out.finish, out.error = "error", msg
                    break
                if isinstance(event.get("usage"), dict):
                    out.usage = event["usage"]
                if isinstance(event.get("timings"), dict):
                    out.timings = event["timings"]
                choices = event.get("choices") or []
                choice = choices[0] if choices and isinstance(choices[0], dict) else {}
                delta = str(choice.get("text") or "")
                if delta:
                    if not out.chunks:
                        out.ttft_s = time.perf_counter() - t0
                    out.chunks += 1
                    parts.append(delta)
                    cut = on_text(delta) if on_text is not None else None
                    if cut is not None:
                        out.text = "".join(parts)[:cut]
                        out.finish = "halted"
                        return out
                if choice.get("finish_reason"):
                    out.finish = "length" if choice["finish_reason"] == "length" else "stop"
                if cancel is not None and cancel.is_set():
                    out.finish = "cancelled"
                    break
    except httpx.TimeoutException as exc:
        if isinstance(exc, (httpx.ConnectTimeout, httpx.PoolTimeout)):
            raise _Retry(f"connection timed out ({type(exc).__name__})") from None
        if not out.chunks:
            raise ModelError(f"the server sent nothing within the read timeout ({type(exc).__name__}); "
                             "raise the timeout or check the server") from None
        out.finish, out.error = "error", f"the stream stalled ({type(exc).__name__})"
    except (httpx.TransportError, httpx.StreamError) as exc:
        if cancel is not None and cancel.is_set():
            out.finish = "cancelled"
        elif not out.chunks:
            raise _Retry(f"{type(exc).__name__}: {one_line(exc)}") from None
        else:
            out.finish, out.error = "error", f"the stream broke: {type(exc).__name__}: {one_line(exc)}"
    out.text = "".join(parts)
    return out
