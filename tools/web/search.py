"""Search backends: the interface, its errors, retries, and an offline probe.

A backend returns a list of :class:`SearchHit`; an *empty* list means the
engine answered and found nothing. Being rate-limited or blocked raises
:class:`SearchBlocked`; having no network raises :class:`SearchOffline`. The
difference matters: a caller that mistakes "blocked" for "no results" ends up
making results up.
"""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import asdict, dataclass
from typing import Any, Callable, Protocol
from urllib.parse import urlsplit

__all__ = [
    "SearchHit",
    "SearchBackend",
    "SearchError",
    "SearchBlocked",
    "SearchOffline",
    "search_with_retry",
    "check_reachable",
]


@dataclass(frozen=True)
class SearchHit:
    """One search result: ``title``, ``url`` and ``snippet`` (plain text)."""

    title: str
    url: str
    snippet: str = ""

    def as_dict(self) -> dict[str, str]:
        return asdict(self)


class SearchError(Exception):
    """The search failed; the message is one line for the model or the user.

    Attributes:
        retryable: True when trying again later may succeed (rate limits,
            timeouts).
    """

    retryable = False

    def __init__(self, message: str, *, retryable: bool | None = None) -> None:
        super().__init__(message)
        if retryable is not None:
            self.retryable = retryable


class SearchBlocked(SearchError):
    """The engine rate-limited or blocked the request (HTTP 202/403/429...)."""

    retryable = True


class SearchOffline(SearchError):
    """No network: the engine's or the proxy's host cannot be reached."""


class SearchBackend(Protocol):
    """A web search engine.

    ``name`` labels results for the UI. ``search`` returns at most
    ``max_results`` hits; ``region`` is a ddgs-style "cc-ll" code (e.g.
    "us-en", "wt-wt" for no region); ``timelimit`` is None or one of "d", "w",
    "m", "y" (past day/week/month/year). Raises :class:`SearchBlocked`,
    :class:`SearchOffline` or :class:`SearchError`; returns ``[]`` only when
    the engine really found nothing.
    """

    name: str

    def search(self, query: str, max_results: int, region: str, timelimit: str | None) -> list[SearchHit]:
        ...


def search_with_retry(
    backend: SearchBackend,
    query: str,
    max_results: int,
    region: str,
    timelimit: str | None,
    *,
    retries: int = 2,
    backoff_s: float = 2.0,
    sleep: Callable[[float], None] = time.sleep,
) -> list[SearchHit]:
    """Call ``backend.search``, retrying a retryable :class:`SearchError` up to
    ``retries`` times with exponential backoff (``backoff_s``, 2x, 4x... seconds).

    Raises:
        SearchError: the last error when every attempt failed, or at once for
            a non-retryable one (offline).
    """
    attempt = 0
    while True:
        try:
            return backend.search(query, max_results, region, timelimit)
        except SearchError as exc:
            if not exc.retryable or attempt >= retries:
                raise
        sleep(backoff_s * (2**attempt))
        attempt += 1


def check_reachable(host: str, port: int = 443, *, proxy: str | None = None, timeout_s: float = 4.0) -> None:
    """Fail fast when offline: resolve ``host`` (or, with a ``proxy`` URL,
    open a TCP connection to the proxy) within ``timeout_s`` seconds.

    Raises:
        SearchOffline: the name does not resolve, the proxy is unreachable, or
            the check did not finish in time.
    """
    if proxy:
        parts = urlsplit(proxy if "://" in proxy else f"http://{proxy}")
        p_host = parts.hostname or ""
        p_port = parts.port or (1080 if parts.scheme.startswith("socks") else 8080)
        try:
            with socket.create_connection((p_host, p_port), timeout=timeout_s):
                return
        except OSError as exc:
            raise SearchOffline(
                f"cannot reach the proxy {p_host}:{p_port} ({exc}). Check web.proxy in the config or the network."
            ) from None

    outcome: dict[str, Any] = {}

    def resolve() -> None:
        try:
            outcome["ok"] = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except OSError as exc:
            outcome["err"] = exc

    worker = threading.Thread(target=resolve, daemon=True, name="web-dns-probe")
    worker.start()
    worker.join(timeout_s)
    if "ok" in outcome:
        return
    why = outcome.get("err") or f"no answer in {timeout_s:g} s"
    raise SearchOffline(
        f"no network: cannot resolve {host} ({why}). Web search needs an internet connection; "
        "work offline or try again later."
    )
