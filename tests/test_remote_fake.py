"""The remote engine against a scripted OpenAI-compatible server on loopback.

The scripted server lets the tests pin down what the real one cannot show
deterministically: request bodies per engine, the cut at ``<tool_call>`` and
the grammar request that follows, retries, timeouts, refused keys.
"""

from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from model.remote import RemoteChatModel, probe_server
from model.remote_http import completion_body
from model.remote_probe import ServerInfo, normalize_base_url
from model.types import Message, ModelError, SamplingParams

TOOLS = [{"type": "function", "function": {
    "name": "read_file", "description": "Read a file",
    "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}}]
CHATML = ("{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}"
          "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")


class Fake:
    """A scripted server. ``script`` holds one entry per ``/v1/completions`` request:
    ``{"chunks": [...], "finish": "stop"}``, ``{"status": 503}``, ``{"drop": True}``,
    ``{"stall": True}`` (no answer) or ``{"chunks": [...], "stall_after": True}``."""

    def __init__(self, owned_by: str = "llamacpp", props: dict | None = None) -> None:
        self.owned_by, self.props = owned_by, props
        self.script: list[dict] = []
        self.requests: list[dict] = []
        self.tokens_per_char = 0.25
        self.release = threading.Event()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def _json(self, code: int, obj) -> None:
                data = json.dumps(obj).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                if self.path == "/v1/models":
                    self._json(200, {"object": "list", "data": [{"id": "fake-model", "owned_by": fake.owned_by}]})
                elif self.path == "/props" and fake.props is not None:
                    self._json(200, fake.props)
                else:
                    self._json(404, {"error": "not found"})

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])) or b"{}")
                fake.requests.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
                if self.path == "/tokenize":
                    return self._json(200, {"tokens": [1] * int(len(body["content"]) * fake.tokens_per_char)})
                step = fake.script.pop(0) if fake.script else {"chunks": ["ok"]}
                if step.get("drop"):
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                if step.get("stall"):
                    fake.release.wait(10)
                    return
                if "status" in step:
                    return self._json(step["status"], {"error": {"message": f"scripted {step['status']}"}})
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                try:
                    for text in step["chunks"]:
                        self._event({"choices": [{"text": text, "finish_reason": None}]})
                    if step.get("stall_after"):
                        fake.release.wait(10)
                        return
                    self._event({"choices": [{"text": "", "finish_reason": step.get("finish", "stop")}]})
                    self.wfile.write(b"data: [DONE]\n\n")
                except OSError:  # the client closed the stream
                    pass

            def _event(self, obj) -> None:
                self.wfile.write(b"data: " + json.dumps(obj).encode() + b"\n\n")
                self.wfile.flush()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def completions(self) -> list[dict]:
        return [r["body"] for r in self.requests if r["path"] == "/v1/completions"]

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def fake():
    f = Fake()
    yield f
    f.close()


def chat(fake: Fake, **kw) -> RemoteChatModel:
    kw.setdefault("template", None)
    return RemoteChatModel(fake.url, backoff=0, **kw)


MSGS = [Message("system", "Be brief."), Message("user", "Read a.txt")]


def test_base_url_forms():
    assert normalize_base_url("http://h:1/v1/") == "http://h:1"
    with pytest.raises(ModelError, match="http://"):
        normalize_base_url("h:1")


def test_request_fields_follow_the_engine():
    s = SamplingParams(temperature=0.1, top_p=0.9, top_k=0, min_p=0.05, repeat_penalty=1.1, seed=3)
    kw = dict(model="m", sampling=s, stop=["<|im_end|>", "<|im_end|>"], max_tokens=9, grammar="root ::= \"x\"")
    lcpp = completion_body(ServerInfo("u", engine="llama.cpp"), "p", **kw)
    assert lcpp["grammar"] == 'root ::= "x"' and lcpp["repeat_penalty"] == 1.1 and lcpp["stop"] == ["<|im_end|>"]
    vllm = completion_body(ServerInfo("u", engine="vllm", version="0.11.0"), "p", **kw)
    assert vllm["structured_outputs"] == {"grammar": 'root ::= "x"'} and vllm["top_k"] == -1
    assert vllm["repetition_penalty"] == 1.1 and "repeat_penalty" not in vllm
    assert completion_body(ServerInfo("u", engine="vllm", version="0.8.5"), "p", **kw)["guided_grammar"]
    assert completion_body(ServerInfo("u", engine="sglang"), "p", **kw)["ebnf"]
    plain = completion_body(ServerInfo("u"), "p", **{**kw, "grammar": None})
    assert set(plain) == {"prompt", "max_tokens", "stream", "temperature", "top_p", "model", "stop", "seed"}


def test_props_template_and_context_are_used():
    f = Fake(props={"chat_template": "SERVED:" + CHATML, "default_generation_settings": {"n_ctx": 3072},
                    "eos_token": "<|im_end|>"})
    try:
        m = chat(f, context_size=999)
        assert (m.engine, m.context_size) == ("llama.cpp", 3072)
        f.script = [{"chunks": ["Hi", " there"]}]
        out = m.complete(MSGS, [])
        assert out.parsed.content == "Hi there" and out.stop_reason == "stop"
        assert f.completions()[0]["prompt"].startswith("SERVED:<|im_start|>system\nBe brief.")
        assert out.metrics.prompt_tokens > 0  # counted by the server's /tokenize
    finally:
        f.close()


def test_tool_call_trigger_cuts_the_stream_and_continues_under_the_grammar(fake):
    m = chat(fake)
    fake.script = [
        {"chunks": ["Let me look.", " <tool_call>\n{\"na", "never sent"]},
        {"chunks": ['\n{"name": "read_file", "arguments": {"path": "a.txt"}}\n</tool_call>']},
        {"chunks": [" Done."]},
    ]
    deltas = []
    out = m.complete(MSGS, TOOLS, on_delta=lambda k, t: deltas.append((k, t)))
    first, call, after = fake.completions()
    assert "grammar" not in first and "grammar" not in after and "read_file" in call["grammar"]
    assert call["prompt"] == first["prompt"] + "Let me look. <tool_call>"
    assert after["prompt"].endswith("a.txt\"}}\n</tool_call>")
    assert m.last_requests == ["free", "call", "free"]
    assert [c.arguments for c in out.parsed.tool_calls] == [{"path": "a.txt"}]
    assert out.parsed.content == "Let me look.  Done." and "never" not in out.parsed.raw
    assert [k for k, _ in deltas if k == "tool_call"] == ["tool_call"]


def test_a_failed_call_request_ends_the_turn_with_the_text_kept(fake):
    m = chat(fake, retries=0)
    fake.script = [{"chunks": ["Let me look. <tool_call>"]}, {"status": 400}]
    out = m.complete(MSGS, TOOLS)
    assert out.stop_reason == "error" and out.parsed.content == "Let me look."
    assert out.parsed.errors and m.last_requests == ["free", "call"]


@pytest.mark.parametrize("grammar", ["auto", "off"])
def test_forced_turn_is_one_grammar_request(fake, grammar):
    m = chat(fake, grammar=grammar)  # like the local model, a forced turn is constrained even with grammar off
    fake.script = [{"chunks": ['<tool_call>\n{"name": "read_file", "arguments": {"path": "b"}}\n</tool_call>']}]
    out = m.complete(MSGS, TOOLS, force="tool_call_or_final")
    assert m.last_requests == ["forced"] and "Final answer:" in fake.completions()[0]["grammar"]
    assert out.parsed.tool_calls[0].arguments == {"path": "b"}


def test_reasoning_budget_closes_the_think_block_and_goes_on(fake):
    from model.profiles import NANBEIGE

    m = chat(fake, profile=NANBEIGE, reasoning_budget=5)
    fake.script = [{"chunks": ["hmm "] * 5, "finish": "length"}, {"chunks": ["Answer."]}]
    out = m.complete(MSGS, [], max_tokens=100)
    first, second = fake.completions()
    assert first["prompt"].endswith("<think>\n") and first["max_tokens"] == 5
    assert second["prompt"] == first["prompt"] + "hmm " * 5 + "\n</think>\n\n" and second["max_tokens"] == 95
    assert (out.parsed.reasoning, out.parsed.content, out.stop_reason) == ("hmm hmm hmm hmm hmm", "Answer.", "stop")


def test_unknown_engine_gets_no_grammar_and_the_parser_reports_bad_calls():
    f = Fake(owned_by="someone")
    try:
        m = chat(f)
        assert m.engine == "openai-compatible" and not m.grammar_enabled
        f.script = [{"chunks": ['<tool_call>\n{"name": "nope", "arguments": {}}\n</tool_call>']}]
        out = m.complete(MSGS, TOOLS)
        body = f.completions()[0]
        assert "grammar" not in body and "top_k" not in body and m.last_requests == ["free"]
        assert out.parsed.errors and not out.parsed.tool_calls
        assert m.count_tokens(MSGS, TOOLS) == len(m.render(MSGS, TOOLS)) // 4  # no tokenizer route
    finally:
        f.close()


def test_retries_5xx_429_and_dropped_connections_before_the_first_token(fake):
    m = chat(fake, retries=3)
    fake.script = [{"status": 503}, {"status": 429}, {"drop": True}, {"chunks": ["fine"]}]
    assert m.complete(MSGS, []).parsed.content == "fine"
    assert len(fake.completions()) == 4


def test_gives_up_after_the_retries(fake):
    m = chat(fake, retries=1)
    fake.script = [{"status": 500}, {"status": 502}, {"chunks": ["too late"]}]
    with pytest.raises(ModelError, match="after 2 attempts"):
        m.complete(MSGS, [])
    assert len(fake.completions()) == 2


def test_a_stream_that_stalls_after_the_first_token_is_kept_not_retried(fake):
    m = chat(fake, timeout=0.5)
    fake.script = [{"chunks": ["Partial"], "stall_after": True}, {"chunks": ["again"]}]
    out = m.complete(MSGS, [])
    assert (out.stop_reason, out.parsed.content) == ("error", "Partial")
    assert len(fake.completions()) == 1


def test_no_first_token_within_the_read_timeout_is_an_error(fake):
    m = chat(fake, timeout=0.5)
    fake.script = [{"stall": True}]
    with pytest.raises(ModelError, match="read timeout"):
        m.complete(MSGS, [])
    assert len(fake.completions()) == 1


def test_refused_key_is_reported_without_the_key(fake):
    m = chat(fake, api_key="sk-secret-123")
    fake.script = [{"status": 401}]
    with pytest.raises(ModelError, match="API key") as err:
        m.complete(MSGS, [])
    assert "sk-secret-123" not in str(err.value) and "\n" not in str(err.value)
    assert fake.requests[-1]["auth"] == "Bearer sk-secret-123"
    assert len(fake.completions()) == 1


def test_cancel_between_chunks_closes_the_stream(fake):
    m = chat(fake)
    fake.script = [{"chunks": [f"w{i} " for i in range(50)]}]
    cancel = threading.Event()
    seen = []

    def on_delta(kind, text):
        seen.append(text)
        cancel.set()

    out = m.complete(MSGS, [], on_delta=on_delta, cancel=cancel)
    assert out.stop_reason == "cancelled" and "w49" not in out.parsed.content


def test_prompt_that_fills_the_context_is_refused(fake):
    m = chat(fake, context_size=100)
    fake.tokens_per_char = 5
    with pytest.raises(ModelError, match="no room"):
        m.complete(MSGS, [])
    assert fake.completions() == []


def test_probe_reports_the_server_and_fails_fast_on_a_dead_port(fake):
    info = probe_server(fake.url + "/v1")
    assert info["reachable"] and info["engine"] == "llama.cpp" and info["models"] == ["fake-model"]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        dead = s.getsockname()[1]
    with pytest.raises(ModelError, match="cannot reach") as err:
        probe_server(f"http://127.0.0.1:{dead}", timeout=2)
    assert "\n" not in str(err.value)
