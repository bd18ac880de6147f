"""What is behind a server URL: engine, models, context size, template, tokenizer.

Servers spoken to (all OpenAI-compatible on ``/v1/completions``):

- ``llama.cpp`` (``llama-server``): ``GET /props`` gives the chat template,
  BOS/EOS text and ``n_ctx``; ``POST /tokenize {"content"}``; GBNF in the
  request's ``grammar`` field; ``/v1/models`` says ``owned_by: "llamacpp"``.
- ``llama-cpp-python`` (``python -m llama_cpp.server``): ``/v1/models`` says
  ``owned_by: "me"`` and ``/openapi.json`` lists ``/extras/tokenize``
  (``{"input"}``); GBNF in ``grammar``; no route gives ``n_ctx`` or the template.
- ``vllm``: ``owned_by: "vllm"``, ``max_model_len`` in ``/v1/models``,
  ``GET /version``; grammar in ``structured_outputs.grammar`` (>= 0.10.2) or
  ``guided_grammar`` (older; removed in 0.12.0); ``POST /tokenize {"prompt"}``.
- ``sglang``: ``owned_by: "sglang"``; grammar in ``ebnf``.
- anything else: ``openai-compatible`` — standard fields only, no grammar.

The vLLM/SGLang field names come from their documentation; only the two llama
engines are exercised by the tests. API keys travel in the ``Authorization``
header only and are never put in messages or logs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import httpx

from .types import ModelError

__all__ = ["ServerInfo", "normalize_base_url", "make_client", "detect_server", "probe_server", "tokenize_remote",
           "http_error", "error_detail", "one_line", "LLAMA_CPP", "LLAMA_CPP_PYTHON", "VLLM", "SGLANG", "GENERIC"]

LLAMA_CPP = "llama.cpp"
LLAMA_CPP_PYTHON = "llama-cpp-python"
VLLM = "vllm"
SGLANG = "sglang"
GENERIC = "openai-compatible"
GRAMMAR_ENGINES = {LLAMA_CPP, LLAMA_CPP_PYTHON, VLLM, SGLANG}


def normalize_base_url(base_url: str) -> str:
    """``http://host:port`` from a URL that may end in ``/`` or ``/v1``.

    Raises:
        ModelError: not an http(s) URL.
    """
    url = str(base_url or "").strip().rstrip("/")
    if url.endswith("/v1"):
        url = url[:-3]
    if not url.startswith(("http://", "https://")):
        raise ModelError(f"server URL {base_url!r} must start with http:// or https:// (e.g. http://127.0.0.1:8080)")
    return url


def make_client(base_url: str, api_key: str | None, timeout: float) -> httpx.Client:
    """An ``httpx.Client`` for the server: connect timeout ``min(timeout, 10)`` s,
    read timeout ``timeout`` s (the longest wait for the next chunk)."""
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    t = httpx.Timeout(timeout, connect=min(timeout, 10.0))
    return httpx.Client(base_url=normalize_base_url(base_url), headers=headers, timeout=t)


def _version_tuple(text: str) -> tuple[int, ...]:
    parts = []
    for p in str(text).split("+")[0].split("."):
        digits = "".join(ch for ch in p if ch.isdigit())
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts)


@dataclass
class ServerInfo:
    """What a server told us about itself.

    Attributes:
        base_url: root URL (no ``/v1``).
        engine: "llama.cpp", "llama-cpp-python", "vllm", "sglang" or "openai-compatible".
        models: model ids from ``/v1/models``.
        n_ctx: context size in tokens, when the server reports it.
        chat_template: the model's Jinja chat template, when the server reports it.
        bos_token / eos_token: their text, when reported.
        version: engine version, when reported.
    """

    base_url: str
    engine: str = GENERIC
    models: list[str] = field(default_factory=list)
    n_ctx: int | None = None
    chat_template: str | None = None
    bos_token: str = ""
    eos_token: str = ""
    version: str = ""

    @property
    def grammar_supported(self) -> bool:
        return self.engine in GRAMMAR_ENGINES

    def grammar_fields(self, grammar: str) -> dict[str, Any]:
        """Request fields carrying GBNF ``grammar`` for this engine (llama.cpp's
        ``grammar`` for unknown engines: used only when grammar is forced on)."""
        if self.engine == VLLM:
            v = _version_tuple(self.version)
            if v and v < (0, 10, 2):
                return {"guided_grammar": grammar}
            return {"structured_outputs": {"grammar": grammar}}
        if self.engine == SGLANG:
            return {"ebnf": grammar}
        return {"grammar": grammar}

    def as_dict(self) -> dict[str, Any]:
        """The ``probe_server`` shape (no template text)."""
        return {"reachable": True, "base_url": self.base_url, "engine": self.engine, "models": list(self.models),
                "n_ctx": self.n_ctx, "version": self.version, "grammar": self.grammar_supported}


def one_line(text: Any, limit: int = 200) -> str:
    return " ".join(str(text).split())[:limit]


def error_detail(resp: httpx.Response) -> str:
    try:
        body = resp.json()
    except ValueError:
        return one_line(resp.text) or resp.reason_phrase
    if isinstance(body, dict):
        err = body.get("error", body.get("detail", body))
        if isinstance(err, dict):
            err = err.get("message", err)
        return one_line(err)
    return one_line(body)


def http_error(resp: httpx.Response, what: str) -> ModelError:
    if resp.status_code in (401, 403):
        return ModelError(f"{what}: the server refused the API key (HTTP {resp.status_code}); check the key set for it")
    return ModelError(f"{what}: HTTP {resp.status_code}: {error_detail(resp)}")


def _get_json(client: httpx.Client, path: str) -> Any:
    """JSON of ``GET path``, or None when the route is missing or not JSON."""
    try:
        resp = client.get(path)
    except httpx.HTTPError:
        return None
    if resp.status_code != 200:
        return None
    try:
        return resp.json()
    except ValueError:
        return None


def detect_server(client: httpx.Client) -> ServerInfo:
    """Ask the server what it is (``/v1/models``, ``/props``, ``/openapi.json``, ``/version``).

    Raises:
        ModelError: unreachable, the API key is refused, or ``/v1/models`` is not OpenAI-shaped.
    """
    base = str(client.base_url).rstrip("/")
    try:
        resp = client.get("/v1/models")
    except httpx.TimeoutException:
        raise ModelError(f"cannot reach {base}: no answer in time; is the server running?") from None
    except httpx.HTTPError as exc:
        raise ModelError(f"cannot reach {base}: {one_line(exc) or type(exc).__name__}; is the server running?") from None
    if resp.status_code != 200:
        raise http_error(resp, f"{base}/v1/models")
    try:
        data = resp.json().get("data") or []
    except (ValueError, AttributeError):
        raise ModelError(f"{base}/v1/models did not return an OpenAI model list; is this an OpenAI-compatible server?") from None
    info = ServerInfo(base_url=base, models=[str(m.get("id", "")) for m in data if isinstance(m, dict)])
    owners = {str(m.get("owned_by", "")).lower() for m in data if isinstance(m, dict)}
    for m in data:
        if isinstance(m, dict) and isinstance(m.get("max_model_len"), int):
            info.n_ctx = m["max_model_len"]
    props = _get_json(client, "/props")
    if isinstance(props, dict) and ("default_generation_settings" in props or "chat_template" in props):
        info.engine = LLAMA_CPP
        dgs = props.get("default_generation_settings") or {}
        n_ctx = dgs.get("n_ctx", props.get("n_ctx"))
        info.n_ctx = int(n_ctx) if isinstance(n_ctx, int) and n_ctx > 0 else info.n_ctx
        info.chat_template = props.get("chat_template") or None
        info.bos_token = str(props.get("bos_token") or "")
        info.eos_token = str(props.get("eos_token") or "")
        info.version = str(props.get("build_info") or "")
    elif "llamacpp" in owners:
        info.engine = LLAMA_CPP
    elif "vllm" in owners:
        info.engine = VLLM
        ver = _get_json(client, "/version")
        info.version = str(ver.get("version", "")) if isinstance(ver, dict) else ""
    elif "sglang" in owners:
        info.engine = SGLANG
    elif "me" in owners:
        spec = _get_json(client, "/openapi.json")
        if isinstance(spec, dict) and "/extras/tokenize" in (spec.get("paths") or {}):
            info.engine = LLAMA_CPP_PYTHON
    return info


def probe_server(base_url: str, api_key: str | None = None, timeout: float = 5) -> dict[str, Any]:
    """Check a server for ``assistant doctor``.

    Returns:
        ``{"reachable": True, "base_url", "engine", "models": [ids], "n_ctx": int|None,
        "version": str, "grammar": bool}``.

    Raises:
        ModelError: one line — unreachable, refused key, or not OpenAI-compatible.
    """
    with make_client(base_url, api_key, timeout) as client:
        return detect_server(client).as_dict()


def tokenize_remote(client: httpx.Client, info: ServerInfo, text: str, model: str | None) -> list[int] | None:
    """Token ids of ``text`` from the server's tokenizer (special tokens parsed), or
    None when the engine has no known tokenize route or it fails."""
    if info.engine == LLAMA_CPP_PYTHON:
        path, body, key = "/extras/tokenize", {"input": text}, "tokens"
    elif info.engine == LLAMA_CPP:
        path, body, key = "/tokenize", {"content": text, "add_special": True, "parse_special": True}, "tokens"
    elif info.engine == VLLM:
        path, body, key = "/tokenize", {"prompt": text, **({"model": model} if model else {})}, "tokens"
    else:
        return None
    try:
        resp = client.post(path, json=body)
        if resp.status_code != 200:
            return None
        tokens = resp.json().get(key)
    except (httpx.HTTPError, ValueError, AttributeError):
        return None
    return [int(t) if not isinstance(t, dict) else int(t.get("id", 0)) for t in tokens] if isinstance(tokens, list) else None


