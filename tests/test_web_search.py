"""web_search: tool logic with a fake backend, ddgs failure modes offline, Brave on loopback."""

from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest

from tools.base import RiskClass, ToolContext
from tools.web import WEB_TOOLS, DDGSBackend, SearchBlocked, SearchHit, SearchOffline, web_search
from tools.web.search import check_reachable, search_with_retry

HITS = [
    SearchHit("Sea otter - Wikipedia", "https://en.wikipedia.org/wiki/Sea_otter", "The sea otter is a marine mammal."),
    SearchHit("Otters <b>and</b> kelp", "https://example.org/kelp", ""),
]


class FakeBackend:
    """Replays a script: each item is a list of hits or an exception to raise."""

    name = "fake"

    def __init__(self, *script):
        self.script = list(script)
        self.calls = []

    def search(self, query, max_results, region, timelimit):
        self.calls.append((query, max_results, region, timelimit))
        item = self.script.pop(0)
        if isinstance(item, Exception):
            raise item
        return item[:max_results]


def _ctx(backend=None, **web):
    cfg = {"search_backoff_s": 0.0}
    cfg.update(web)
    ctx = ToolContext(config={"web": cfg})
    if backend is not None:
        ctx.state["web.search_backend"] = backend
    return ctx


def _search(ctx, **args):
    return web_search.invoke(ctx, web_search.validate({"query": "sea otters", **args}))


def test_both_tools_are_network_risk():
    assert [t.name for t in WEB_TOOLS] == ["web_search", "fetch_url"]
    assert all(t.risk is RiskClass.NETWORK for t in WEB_TOOLS)


def test_results_are_numbered_untrusted_and_their_urls_become_fetchable():
    backend = FakeBackend(HITS)
    ctx = _ctx(backend)
    res = _search(ctx, max_results=3, time_range="week", region="de-de")
    assert not res.error and res.untrusted
    assert "1. Sea otter - Wikipedia\n   https://en.wikipedia.org/wiki/Sea_otter\n   The sea otter" in res.text
    assert "2. Otters <b>and</b> kelp" in res.text
    assert backend.calls == [("sea otters", 3, "de-de", "w")]
    assert res.data["status"] == "ok" and len(res.data["hits"]) == 2
    assert "https://example.org/kelp" in ctx.state["web.allowed_urls"]


def test_no_results_is_not_an_error_and_says_so():
    res = _search(_ctx(FakeBackend([])))
    assert not res.error
    assert res.data["status"] == "no_results"
    assert res.text.startswith('No results for "sea otters"')


def test_rate_limit_is_retried_with_backoff_then_succeeds():
    backend = FakeBackend(SearchBlocked("HTTP 429"), SearchBlocked("HTTP 429"), HITS)
    res = _search(_ctx(backend, search_retries=2))
    assert not res.error and res.data["status"] == "ok"
    assert len(backend.calls) == 3


def test_backoff_doubles_between_attempts():
    slept = []
    backend = FakeBackend(SearchBlocked("429"), SearchBlocked("429"), SearchBlocked("429"))
    with pytest.raises(SearchBlocked):
        search_with_retry(backend, "q", 5, "us-en", None, retries=2, backoff_s=1.5, sleep=slept.append)
    assert slept == [1.5, 3.0]


def test_blocked_after_all_retries_is_told_apart_from_no_results():
    backend = FakeBackend(*[SearchBlocked("engines answered HTTP 202")] * 3)
    res = _search(_ctx(backend, search_retries=2))
    assert res.error
    assert res.data["status"] == "blocked"
    assert "rate-limiting or blocking" in res.text and "Do not guess results" in res.text
    assert len(backend.calls) == 3


def test_offline_is_not_retried():
    backend = FakeBackend(SearchOffline("no network: cannot resolve duckduckgo.com"))
    res = _search(_ctx(backend, search_retries=5))
    assert res.error and res.data["status"] == "offline" and "no network" in res.text
    assert len(backend.calls) == 1


def test_ddgs_backend_fails_fast_when_dns_fails(monkeypatch):
    monkeypatch.delenv("DDGS_PROXY", raising=False)

    def no_dns(*args, **kwargs):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_dns)
    ctx = _ctx(search_backends=["duckduckgo", "mojeek"])
    res = _search(ctx)
    assert res.error and res.data["status"] == "offline" and res.data["backend"] == "ddgs"
    assert "no network" in res.text and "duckduckgo.com" in res.text


def test_ddgs_backend_fails_fast_with_an_unreachable_proxy():
    with socket.socket() as s:  # a port that nothing listens on any more
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    backend = DDGSBackend(["duckduckgo"], proxy=f"http://127.0.0.1:{port}")
    with pytest.raises(SearchOffline, match="proxy"):
        backend.search("q", 5, "us-en", None)


def test_dns_probe_that_hangs_counts_as_offline(monkeypatch):
    release = threading.Event()
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: release.wait(30))
    try:
        with pytest.raises(SearchOffline, match="no answer"):
            check_reachable("duckduckgo.com", timeout_s=0.2)
    finally:
        release.set()


class _FakeEngine:
    def __init__(self, status):
        outer = self

        class Client:
            def request(self, *a, **k):
                return type("Resp", (), {"status_code": outer.status})()

        self.status = status
        self.http_client = Client()


def _fake_ddgs(status, *, results=()):
    """A stand-in for ddgs.DDGS whose engines answer ``status``; like ddgs
    9.x it turns a non-200 answer into "No results found."."""
    from ddgs.exceptions import DDGSException

    class FakeDDGS:
        def __init__(self, proxy=None, timeout=None):
            self.engines = [_FakeEngine(status)]

        def _get_engines(self, category, backend):
            return self.engines

        def text(self, query, **kwargs):
            for engine in self.engines:
                engine.http_client.request("GET", "https://engine.invalid/")
            if results:
                return list(results)
            raise DDGSException("No results found.")

    return FakeDDGS


@pytest.fixture
def online(monkeypatch):
    monkeypatch.setattr("tools.web.backends.check_reachable", lambda *a, **k: None)


def test_ddgs_non_200_answer_is_reported_as_blocked(monkeypatch, online):
    pytest.importorskip("ddgs")
    monkeypatch.setattr("ddgs.DDGS", _fake_ddgs(202))
    with pytest.raises(SearchBlocked, match="HTTP 202"):
        DDGSBackend(["duckduckgo", "mojeek"]).search("q", 5, "us-en", None)


def test_ddgs_empty_answer_with_status_200_is_no_results(monkeypatch, online):
    pytest.importorskip("ddgs")
    monkeypatch.setattr("ddgs.DDGS", _fake_ddgs(200))
    assert DDGSBackend(["duckduckgo"]).search("q", 5, "us-en", None) == []


def test_ddgs_rows_become_hits(monkeypatch, online):
    pytest.importorskip("ddgs")
    rows = [{"title": "A &amp; B", "href": "https://a.example/", "body": "<b>bold</b> text"}, {"title": "no url"}]
    monkeypatch.setattr("ddgs.DDGS", _fake_ddgs(200, results=rows))
    assert DDGSBackend(["duckduckgo"]).search("q", 5, "us-en", None) == [
        SearchHit("A & B", "https://a.example/", "bold text")
    ]


def test_status_recording_hooks_into_the_installed_ddgs():
    ddgs = pytest.importorskip("ddgs")
    statuses = DDGSBackend._record_statuses(ddgs.DDGS(), "duckduckgo")
    assert statuses == []  # hooked (None would mean ddgs internals changed)


class _BraveHandler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        srv = self.server
        srv.requests.append((self.path, dict(self.headers)))
        status, payload = srv.reply
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def brave():
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _BraveHandler)
    srv.daemon_threads = True
    srv.requests = []
    srv.reply = (200, {})
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv
    srv.shutdown()
    srv.server_close()


def _brave_ctx(srv, key="k-123"):
    ctx = ToolContext(
        config={"web": {"search_engine": "brave", "brave_base_url": f"http://127.0.0.1:{srv.server_address[1]}",
                        "search_retries": 0, "search_backoff_s": 0.0}},
        secrets=lambda name: key if name == "brave_api_key" else None,
    )
    return ctx


def test_brave_backend_sends_key_and_parses_results(brave):
    brave.reply = (200, {"web": {"results": [
        {"title": "Sea <strong>otter</strong>", "url": "https://otters.example/", "description": "All about otters."}
    ]}})
    res = _search(_brave_ctx(brave), max_results=4, time_range="month", region="de-de")
    assert not res.error, res.text
    assert "1. Sea otter\n   https://otters.example/\n   All about otters." in res.text
    path, headers = brave.requests[0]
    query = parse_qs(urlsplit(path).query)
    assert urlsplit(path).path == "/res/v1/web/search"
    assert headers["X-Subscription-Token"] == "k-123"
    assert query == {"q": ["sea otters"], "count": ["4"], "country": ["DE"], "search_lang": ["de"], "freshness": ["pm"]}


def test_brave_rate_limit_is_blocked_and_bad_key_is_explained(brave):
    brave.reply = (429, {"error": "quota"})
    res = _search(_brave_ctx(brave))
    assert res.error and res.data["status"] == "blocked"
    brave.reply = (401, {"error": "unauthorized"})
    res = _search(_brave_ctx(brave))
    assert res.error and "API key was rejected" in res.text


def test_brave_without_a_key_says_where_to_put_it(brave):
    res = _search(_brave_ctx(brave, key=None))
    assert res.error and "brave_api_key" in res.text
    assert brave.requests == []


def test_unknown_engine_is_a_clear_error():
    res = _search(ToolContext(config={"web": {"search_engine": "altavista"}}))
    assert res.error and "altavista" in res.text and "'ddgs' or 'brave'" in res.text

