"""Concrete search backends: key-free ddgs metasearch and the keyed Brave API."""

from __future__ import annotations

import html
import os
import re
from typing import Any, Callable, Sequence

import httpx

from tools.web.search import SearchBlocked, SearchError, SearchHit, SearchOffline, check_reachable

__all__ = ["DDGSBackend", "BraveBackend", "DEFAULT_DDGS_ORDER"]

DEFAULT_DDGS_ORDER: tuple[str, ...] = ("auto",)
_BLOCK_STATUSES = {202, 403, 418, 429, 451, 503}
_TAG_RE = re.compile(r"<[^>]+>")


def _plain(text: Any) -> str:
    return html.unescape(_TAG_RE.sub("", str(text or ""))).strip()


class DDGSBackend:
    """Key-free metasearch through the ``ddgs`` package (``from ddgs import DDGS``).

    Args:
        backends: ddgs engine names tried in order until one returns hits
            (e.g. ``["duckduckgo", "brave", "mojeek"]``; "auto" lets ddgs pick).
        proxy: proxy URL for ddgs (http/https/socks5), or None.
        timeout_s: per-request timeout inside ddgs, seconds.
        probe_host: host resolved before searching, to fail fast when offline.

    ddgs turns an engine's non-200 answer (DuckDuckGo's 202 rate-limit page, a
    403 block) into "No results found."; this backend records the HTTP status
    of every engine request so that such a case raises :class:`SearchBlocked`
    instead of looking like an honest empty result.
    """

    name = "ddgs"

    def __init__(
        self,
        backends: Sequence[str] = DEFAULT_DDGS_ORDER,
        *,
        proxy: str | None = None,
        timeout_s: float = 10.0,
        probe_host: str = "duckduckgo.com",
    ) -> None:
        self.backends = [b.strip() for b in backends if b and b.strip()] or list(DEFAULT_DDGS_ORDER)
        self.proxy = proxy
        self.timeout_s = timeout_s
        self.probe_host = probe_host

    @staticmethod
    def _record_statuses(client: Any, engine_name: str) -> list[int] | None:
        """Wrap the engines' HTTP clients so each response status is recorded.
        Uses ddgs internals; returns None when they changed (no recording)."""
        statuses: list[int] = []
        try:
            engines = client._get_engines("text", engine_name)
            for engine in engines:
                http = engine.http_client
                original: Callable[..., Any] = http.request

                def request(*args: Any, _orig: Callable[..., Any] = original, **kwargs: Any) -> Any:
                    resp = _orig(*args, **kwargs)
                    statuses.append(int(getattr(resp, "status_code", 0)))
                    return resp

                http.request = request
        except Exception:  # noqa: BLE001 - recording is best effort
            return None
        return statuses

    def _one(self, engine_name: str, query: str, max_results: int, region: str, timelimit: str | None) -> list[SearchHit]:
        try:
            from ddgs import DDGS
            from ddgs.exceptions import DDGSException, RatelimitException, TimeoutException
        except ImportError as exc:
            raise SearchError(f"the ddgs package is not installed ({exc}); reinstall the assistant.") from None
        client = DDGS(proxy=self.proxy, timeout=max(1, int(self.timeout_s)))
        statuses = self._record_statuses(client, engine_name)
        try:
            rows = client.text(
                query, region=region, safesearch="moderate", timelimit=timelimit,
                max_results=max_results, backend=engine_name,
            )
        except RatelimitException as exc:
            raise SearchBlocked(f"{engine_name}: rate-limited ({exc})") from None
        except TimeoutException as exc:
            raise SearchError(f"{engine_name}: no answer in {self.timeout_s:g} s ({exc})", retryable=True) from None
        except DDGSException as exc:
            blocked = sorted({s for s in statuses or [] if s in _BLOCK_STATUSES or s >= 400})
            if blocked:
                raise SearchBlocked(f"{engine_name}: engines answered HTTP {', '.join(map(str, blocked))}") from None
            if "no results" in str(exc).lower():
                return []
            raise SearchError(f"{engine_name}: {exc}", retryable=True) from None
        return [
            SearchHit(title=_plain(r.get("title")), url=str(r.get("href") or r.get("url") or ""), snippet=_plain(r.get("body")))
            for r in rows or []
            if r.get("href") or r.get("url")
        ][:max_results]

    def search(self, query: str, max_results: int, region: str, timelimit: str | None) -> list[SearchHit]:
        """Try each configured engine in order; see :class:`SearchBackend`.

        Raises:
            SearchOffline: no network (checked first, within a few seconds).
            SearchBlocked: every engine tried was rate-limited or blocked.
            SearchError: other failures (message names each engine's error).
        """
        proxy = self.proxy or os.environ.get("DDGS_PROXY")
        if not proxy or "://" in proxy:  # aliases such as "tb" (Tor Browser) are not probed
            check_reachable(self.probe_host, proxy=proxy)
        errors: list[SearchError] = []
        for engine_name in self.backends:
            try:
                hits = self._one(engine_name, query, max_results, region, timelimit)
            except SearchError as exc:
                errors.append(exc)
                continue
            if hits:
                return hits
        if not errors:
            return []
        message = "; ".join(str(e) for e in errors)
        if any(isinstance(e, SearchBlocked) for e in errors):
            raise SearchBlocked(message)
        raise SearchError(message, retryable=any(e.retryable for e in errors))


class BraveBackend:
    """The Brave Search API (needs a key; https://api.search.brave.com).

    Args:
        api_key: the subscription token (stored as secret "brave_api_key").
        base_url: API root, overridable for tests.
        timeout_s: connect/read timeout, seconds.
    """

    name = "brave"

    def __init__(self, api_key: str, *, base_url: str = "https://api.search.brave.com", timeout_s: float = 10.0) -> None:
        if not api_key:
            raise SearchError(
                "no Brave API key: store it as the secret 'brave_api_key' (system keyring), "
                "or set web.search_engine = 'ddgs'."
            )
        self.api_key = api_key
        self.base_url = base_url.rstrip("/")
        self.timeout_s = timeout_s

    @staticmethod
    def _params(query: str, max_results: int, region: str, timelimit: str | None) -> dict[str, str]:
        params = {"q": query, "count": str(max(1, min(max_results, 20)))}
        country, _, lang = (region or "").lower().partition("-")
        if country and country not in ("wt", "xa") and len(country) == 2:
            params["country"] = country.upper()
        if lang and len(lang) == 2 and lang != "wt":
            params["search_lang"] = lang
        if timelimit in ("d", "w", "m", "y"):
            params["freshness"] = "p" + timelimit
        return params

    def search(self, query: str, max_results: int, region: str, timelimit: str | None) -> list[SearchHit]:
        """See :class:`SearchBackend`. HTTP 429 raises :class:`SearchBlocked`,
        401/403 a :class:`SearchError` about the key, connection failures
        :class:`SearchOffline`."""
        headers = {"X-Subscription-Token": self.api_key, "Accept": "application/json"}
        try:
            resp = httpx.get(
                f"{self.base_url}/res/v1/web/search",
                params=self._params(query, max_results, region, timelimit),
                headers=headers,
                timeout=httpx.Timeout(self.timeout_s),
            )
        except httpx.ConnectError as exc:
            raise SearchOffline(f"no network: cannot reach the Brave API ({exc}). Try again later.") from None
        except httpx.TimeoutException:
            raise SearchError(f"brave: no answer in {self.timeout_s:g} s", retryable=True) from None
        except httpx.HTTPError as exc:
            raise SearchError(f"brave: {type(exc).__name__}: {exc}") from None
        if resp.status_code == 429:
            raise SearchBlocked("brave: rate-limited (HTTP 429); the plan's quota may be used up")
        if resp.status_code in (401, 403):
            raise SearchError("brave: the API key was rejected; store a valid key as the secret 'brave_api_key'.")
        if resp.status_code >= 400:
            raise SearchError(f"brave: HTTP {resp.status_code}", retryable=resp.status_code >= 500)
        try:
            results = (resp.json().get("web") or {}).get("results") or []
        except (ValueError, AttributeError):
            raise SearchError("brave: the API answered with something that is not the expected JSON.") from None
        return [
            SearchHit(title=_plain(r.get("title")), url=str(r["url"]), snippet=_plain(r.get("description")))
            for r in results
            if isinstance(r, dict) and r.get("url")
        ][:max_results]
