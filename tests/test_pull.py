"""`model pull` against a real HTTP server on 127.0.0.1 that serves the hub's layout.

Two servers: the "hub" answers ``GET /api/models/{repo}[/revision/{rev}]`` (file
list with LFS sha256) and ``HEAD|GET /{repo}/resolve/{rev}/{file}`` (a 302 to the
blob store carrying X-Repo-Commit, X-Linked-Etag and X-Linked-Size, like the real
hub); the "cdn" serves ``/blobs/{sha256}``. No Xet headers are sent, so
huggingface_hub takes its plain HTTP path.
"""

from __future__ import annotations

import hashlib
import json
import socket
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from model.loopcheck import write_tiny_nanbeige
from model.pull import PullError, format_pull_result, list_local_models, pull_model, select_gguf
from model.registry import KNOWN_MODELS, resolve_spec

pytestmark = pytest.mark.timeout(60)

BARTOWSKI, OWAO = KNOWN_MODELS["nanbeige4.2-3b"].repos
COMMIT = "0123456789abcdef0123456789abcdef01234567"


@dataclass
class FakeHub:
    """State shared by the hub and cdn servers."""

    repos: dict[str, dict[str, bytes]] = field(default_factory=dict)
    corrupt: set[str] = field(default_factory=set)  # sha256s served with wrong bytes
    list_lfs: bool = True  # False: the file list omits LFS metadata (the sha256 then comes from X-Linked-Etag)
    log: list[tuple[str, str, int]] = field(default_factory=list)  # (method, path, status)
    url: str = ""
    cdn_url: str = ""

    def add(self, repo: str, files: dict[str, bytes]) -> None:
        self.repos[repo] = {"README.md": b"# model card\n", **files}

    def blob(self, sha: str) -> bytes | None:
        for files in self.repos.values():
            for data in files.values():
                if hashlib.sha256(data).hexdigest() == sha:
                    return data
        return None

    def gets(self, prefix: str) -> list[str]:
        return [p for m, p, _ in self.log if m == "GET" and p.startswith(prefix)]


def _is_lfs(name: str) -> bool:
    return name.endswith(".gguf")


def _git_sha1(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


class _Handler(BaseHTTPRequestHandler):
    server: "_Server"

    def log_message(self, *args: object) -> None:  # keep pytest output clean
        pass

    def _send(self, status: int, body: bytes = b"", headers: dict[str, str] | None = None) -> None:
        path = urlsplit(self.path).path
        self.server.hub.log.append((self.command, path, status))
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_HEAD(self) -> None:
        self.do_GET()

    def do_GET(self) -> None:
        hub = self.server.hub
        path = unquote(urlsplit(self.path).path)
        if self.server.role == "cdn":
            sha = path.removeprefix("/blobs/")
            data = hub.blob(sha)
            if data is None:
                return self._send(404)
            if sha in hub.corrupt:
                data = bytes([data[0] ^ 0xFF]) + data[1:]  # same size, different content
            return self._send(200, data, {"Content-Type": "application/octet-stream"})
        if path.startswith("/api/models/"):
            parts = path.removeprefix("/api/models/").split("/")
            repo = "/".join(parts[:2])
            if repo not in hub.repos:
                return self._send(404, b'{"error":"Repository not found"}', {"X-Error-Code": "RepoNotFound"})
            return self._send(200, json.dumps(self._model_info(repo)).encode(), {"Content-Type": "application/json"})
        parts = path.lstrip("/").split("/")
        if len(parts) >= 5 and parts[2] == "resolve":
            repo, filename = "/".join(parts[:2]), "/".join(parts[4:])
            files = hub.repos.get(repo)
            if files is None:
                return self._send(404, b"", {"X-Error-Code": "RepoNotFound"})
            if filename not in files:
                return self._send(404, b"", {"X-Error-Code": "EntryNotFound", "X-Repo-Commit": COMMIT})
            data = files[filename]
            if not _is_lfs(filename):
                return self._send(200, data, {"ETag": f'"{_git_sha1(data)}"', "X-Repo-Commit": COMMIT})
            sha = hashlib.sha256(data).hexdigest()
            return self._send(302, b"", {
                "Location": f"{hub.cdn_url}/blobs/{sha}",
                "ETag": f'"{_git_sha1(data)}"',
                "X-Linked-Etag": f'"{sha}"',
                "X-Linked-Size": str(len(data)),
                "X-Repo-Commit": COMMIT,
            })
        return self._send(404)

    def _model_info(self, repo: str) -> dict:
        siblings = []
        for name, data in self.server.hub.repos[repo].items():
            s = {"rfilename": name, "size": len(data), "blobId": _git_sha1(data)}
            if _is_lfs(name) and self.server.hub.list_lfs:
                s["lfs"] = {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data), "pointerSize": 134}
            siblings.append(s)
        return {"id": repo, "modelId": repo, "sha": COMMIT, "private": False, "tags": ["gguf"], "siblings": siblings}


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, hub: FakeHub, role: str) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.hub, self.role = hub, role


@pytest.fixture(scope="module")
def tiny_gguf(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = tmp_path_factory.mktemp("gguf") / "tiny.gguf"
    write_tiny_nanbeige(path)
    data = path.read_bytes()
    assert data.startswith(b"GGUF")
    return data


@pytest.fixture
def hub(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("HF_ENDPOINT", raising=False)
    state = FakeHub()
    servers = [_Server(state, "hub"), _Server(state, "cdn")]
    threads = [threading.Thread(target=s.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True) for s in servers]
    for t in threads:
        t.start()
    state.url = f"http://127.0.0.1:{servers[0].server_address[1]}"
    state.cdn_url = f"http://127.0.0.1:{servers[1].server_address[1]}"
    yield state
    for s in servers:
        s.shutdown()
        s.server_close()


def _gguf(tag: str) -> bytes:
    return b"GGUF" + tag.encode() * 1000


def _pull(name: str, models: Path, hub: FakeHub | None = None, **kw):
    endpoint = kw.pop("endpoint", hub.url if hub else None)
    kw.setdefault("progress", False)
    return pull_model(name, models, endpoint=endpoint, timeout=5, **kw)


def test_pull_downloads_verifies_and_then_reports_already_present(hub: FakeHub, tiny_gguf: bytes, tmp_path: Path):
    q4 = "Nanbeige_Nanbeige4.2-3B-Q4_K_M.gguf"
    hub.add(BARTOWSKI, {q4: tiny_gguf, "Nanbeige_Nanbeige4.2-3B-Q8_0.gguf": _gguf("q8"),
                        "Nanbeige_Nanbeige4.2-3B-IQ4_K_M.gguf": _gguf("iq4")})
    models = tmp_path / "models"

    r = _pull("nanbeige4.2-3b", models, hub)

    assert (r.repo, r.filename, r.already_present) == (BARTOWSKI, q4, False)
    assert r.path.read_bytes() == tiny_gguf
    assert r.sha256 == hashlib.sha256(tiny_gguf).hexdigest()
    assert r.size == len(tiny_gguf)
    assert r.path.parent.parent == models
    assert list_local_models(models) == [r.path]  # no staging leftovers listed
    assert not (r.path.parent / ".partial").exists()
    assert len(hub.gets("/blobs/")) == 1
    assert "verified" in format_pull_result(r)

    again = _pull("NANBEIGE4.2-3B", models, hub)

    assert again.already_present and again.path == r.path and again.sha256 == r.sha256
    assert len(hub.gets("/blobs/")) == 1  # nothing downloaded the second time
    assert format_pull_result(again).startswith("already present")


def test_tampered_local_copy_is_replaced_by_a_verified_download(hub: FakeHub, tmp_path: Path):
    data = _gguf("good")
    hub.add("someone/Model-GGUF", {"model-Q4_K_M.gguf": data})
    models = tmp_path / "models"
    first = _pull("someone/Model-GGUF", models, hub)
    first.path.write_bytes(b"GGUF" + b"x" * (len(data) - 4))  # same size, different bytes

    r = _pull("someone/Model-GGUF", models, hub, progress=True)

    assert not r.already_present
    assert r.path.read_bytes() == data


def test_sha256_from_linked_etag_when_the_listing_has_no_lfs_metadata(hub: FakeHub, tmp_path: Path):
    data = _gguf("etag")
    hub.add("someone/Model-GGUF", {"model-Q4_K_M.gguf": data})
    hub.list_lfs = False

    r = _pull("someone/Model-GGUF", tmp_path, hub)

    assert r.sha256 == hashlib.sha256(data).hexdigest() and r.path.read_bytes() == data
    hub.corrupt.add(r.sha256)
    r.path.unlink()
    with pytest.raises(PullError, match="checksum mismatch"):
        _pull("someone/Model-GGUF", tmp_path, hub)


def test_corrupted_download_raises_and_leaves_no_file(hub: FakeHub, tmp_path: Path):
    data = _gguf("payload")
    hub.add(BARTOWSKI, {"Nanbeige_Nanbeige4.2-3B-Q4_K_M.gguf": data})
    hub.corrupt.add(hashlib.sha256(data).hexdigest())
    models = tmp_path / "models"

    with pytest.raises(PullError, match="checksum mismatch") as err:
        _pull("nanbeige4.2-3b", models, hub)

    assert "\n" not in str(err.value)
    assert list_local_models(models) == []
    assert not [p for p in models.rglob("*") if p.is_file() and p.suffix in {".gguf", ".incomplete"}]


def test_repo_without_matching_quant_lists_its_files(hub: FakeHub, tmp_path: Path):
    hub.add("someone/Other-GGUF", {"other-Q8_0.gguf": _gguf("a"), "other-Q6_K.gguf": _gguf("b")})

    with pytest.raises(PullError) as err:
        _pull("someone/Other-GGUF", tmp_path, hub)

    msg = str(err.value)
    assert "Q4_K_M" in msg and "other-Q8_0.gguf" in msg and "other-Q6_K.gguf" in msg
    assert "\n" not in msg
    assert list_local_models(tmp_path) == []


def test_first_candidate_404_falls_back_to_second_via_hf_endpoint_env(
        hub: FakeHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    lower = "nanbeige4.2-3b-q4_k_m.gguf"  # file-name case differs between references
    hub.add(OWAO, {lower: _gguf("owao"), "nanbeige4.2-3b-q8_0.gguf": _gguf("q8")})
    monkeypatch.setenv("HF_ENDPOINT", hub.url)

    r = pull_model("nanbeige4.2-3b", tmp_path, progress=False, timeout=5)

    assert (r.repo, r.filename) == (OWAO, lower)
    assert ("GET", f"/api/models/{BARTOWSKI}", 404) in [(m, p.split("/revision")[0], s) for m, p, s in hub.log]
    assert r.path.read_bytes() == _gguf("owao")


def test_all_candidates_missing_names_each_repo(hub: FakeHub, tmp_path: Path):
    with pytest.raises(PullError) as err:
        _pull("nanbeige4.2-3b", tmp_path, hub)
    assert BARTOWSKI in str(err.value) and OWAO in str(err.value) and "not found" in str(err.value)


def test_explicit_file_is_pulled_case_insensitively(hub: FakeHub, tmp_path: Path):
    hub.add("someone/Model-GGUF", {"Model-Q4_K_M.gguf": _gguf("q4"), "Model-Q8_0.gguf": _gguf("q8")})

    r = _pull("someone/Model-GGUF:model-q8_0.GGUF", tmp_path, hub)

    assert r.filename == "Model-Q8_0.gguf" and r.path.read_bytes() == _gguf("q8")


def test_unreachable_endpoint_fails_with_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    with socket.socket() as s:  # a port that was just free and is now closed
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]

    with pytest.raises(PullError, match="cannot reach") as err:
        _pull("nanbeige4.2-3b", tmp_path, endpoint=f"http://127.0.0.1:{port}")

    assert "\n" not in str(err.value) and f"127.0.0.1:{port}" in str(err.value)
    assert list_local_models(tmp_path) == []


def test_unknown_name_is_a_clear_error(tmp_path: Path):
    with pytest.raises(PullError, match="unknown model 'no-such-model'.*nanbeige4.2-3b"):
        pull_model("no-such-model", tmp_path, endpoint="http://127.0.0.1:9", progress=False)


def test_select_gguf_prefers_single_file_and_skips_projectors_and_lookalikes():
    files = ["README.md", "m-IQ4_K_M.gguf", "mmproj-m-Q4_K_M.gguf", "big/m-Q4_K_M-00001-of-00002.gguf",
             "big/m-Q4_K_M-00002-of-00002.gguf", "sub/m-Q4_K_M.gguf", "m.Q4_K_M.gguf"]
    assert select_gguf(files, "q4_k_m") == "m.Q4_K_M.gguf"
    with pytest.raises(PullError, match="only split"):
        select_gguf(files[:5], "Q4_K_M")
    with pytest.raises(PullError, match="no GGUF matching Q4_0 "):
        select_gguf(["m-Q4_0_4_4.gguf", "m-Q4_0_L.gguf"], "Q4_0")
    assert select_gguf(["m-Q4_0_4_4.gguf", "model_q4_0.gguf"], "Q4_0") == "model_q4_0.gguf"
    with pytest.raises(PullError, match="has no .gguf"):
        select_gguf(["README.md"], "Q4_K_M")


def test_resolve_spec_forms():
    assert resolve_spec("Nanbeige4.2-3B") is KNOWN_MODELS["nanbeige4.2-3b"]
    assert resolve_spec("nanbeige4.2-3b:q8_0").quant == "Q8_0"
    adhoc = resolve_spec("me/My-GGUF")
    assert adhoc.repos == ("me/My-GGUF",) and adhoc.quant == "Q4_K_M" and adhoc.filename is None
    assert resolve_spec("me/My-GGUF:dir/F.gguf").filename == "dir/F.gguf"
    for bad in ("", "nope", "me/My-GGUF:", "me/My-GGUF:../x.gguf", "a/b/c", "me/My-GGUF:Q4 K"):
        assert resolve_spec(bad) is None, bad


def test_on_progress_reports_bytes_until_the_whole_file(hub: FakeHub, tmp_path: Path):
    data = _gguf("progress") * 50  # ~400 KB: several chunks
    hub.add("someone/Model-GGUF", {"model-Q4_K_M.gguf": data})
    calls: list[tuple[int, int | None]] = []

    r = _pull("someone/Model-GGUF", tmp_path, hub, on_progress=lambda done, total: calls.append((done, total)))

    assert r.path.read_bytes() == data
    assert calls and calls[-1] == (len(data), len(data))
    dones = [d for d, _ in calls]
    assert dones == sorted(dones) and dones[0] < len(data)

    calls.clear()
    again = _pull("someone/Model-GGUF", tmp_path, hub, on_progress=lambda done, total: calls.append((done, total)))
    assert again.already_present and calls == []  # nothing downloaded, nothing reported
