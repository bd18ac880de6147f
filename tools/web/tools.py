"""The ``web_search`` and ``fetch_url`` tools.

Settings come from ``ctx.config["web"]`` (all optional):

=====================  ==========================================================
search_engine          "ddgs" (default) or "brave" (key: secret "brave_api_key")
search_backends        ddgs engines tried in order, list or "a,b" (default auto)
proxy                  proxy URL used by ddgs
search_timeout_s       per-request search timeout (10)
search_retries         retries when rate-limited (2); search_backoff_s (2.0)
brave_base_url         Brave API root (for tests / self-hosted mirrors)
allow_any_url          fetch URLs that did not come from the user or a page
allow_private          fetch private / loopback / link-local addresses
connect_timeout_s      10; read_timeout_s 20; total_timeout_s 60
max_bytes              download cap in bytes (5 000 000); max_redirects (5)
=====================  ==========================================================

Per-task state (``ctx.state``): "web.allowed_urls" (set of URLs),
"web.cache" (URL -> extracted page), "web.search_backend" (a backend to use
instead of the configured one, for tests and plugins).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from tools.base import RiskClass, ToolContext, ToolError, ToolResult, tool
from tools.web.backends import DEFAULT_DDGS_ORDER, BraveBackend, DDGSBackend
from tools.web.client import FetchLimits, http_get
from tools.web.extract import extract
from tools.web.search import SearchBackend, SearchBlocked, SearchError, SearchOffline, search_with_retry
from tools.web.urls import allow_urls, is_allowed, normalise_url, web_config

__all__ = ["web_search", "fetch_url", "WebSearchParams", "FetchUrlParams", "search_backend", "CACHE_KEY"]

CACHE_KEY = "web.cache"
CHARS_PER_TOKEN = 4
MAX_LINKS = 30
_TIMELIMITS = {"day": "d", "week": "w", "month": "m", "year": "y"}


class WebSearchParams(BaseModel):
    query: str = Field(min_length=1, max_length=400, description="What to search for.")
    max_results: int = Field(default=5, ge=1, le=20, description="How many results to return.")
    region: str = Field(default="us-en", description='Region code "country-language", e.g. "us-en", "de-de"; "wt-wt" for none.')
    time_range: Literal["day", "week", "month", "year"] | None = Field(
        default=None, description="Only results from the past day, week, month or year."
    )


class FetchUrlParams(BaseModel):
    url: str = Field(min_length=1, description="http(s) URL from the user, a search result or a fetched page.")
    start: int = Field(default=0, ge=0, description="Character offset to read from (for the next part of a long page).")
    max_tokens: int = Field(default=2000, ge=100, le=16000, description="Budget for this part, in tokens (~4 characters each).")


def search_backend(ctx: ToolContext) -> SearchBackend:
    """The backend for this task: ``ctx.state["web.search_backend"]`` if set,
    else the one named by ``web.search_engine``.

    Raises:
        ToolError: unknown engine name, or Brave without a key.
    """
    injected = ctx.state.get("web.search_backend")
    if injected is not None:
        return injected
    cfg = web_config(ctx)
    engine = str(cfg.get("search_engine") or "ddgs").lower()
    timeout_s = float(cfg.get("search_timeout_s", 10.0))
    if engine == "ddgs":
        order = cfg.get("search_backends") or DEFAULT_DDGS_ORDER
        if isinstance(order, str):
            order = order.split(",")
        return DDGSBackend(list(order), proxy=cfg.get("proxy") or None, timeout_s=timeout_s)
    if engine == "brave":
        try:
            return BraveBackend(
                ctx.secrets("brave_api_key") or "",
                base_url=str(cfg.get("brave_base_url") or "https://api.search.brave.com"),
                timeout_s=timeout_s,
            )
        except SearchError as exc:
            raise ToolError(str(exc)) from None
    raise ToolError(f"unknown web.search_engine {engine!r}; use 'ddgs' or 'brave'.")


def _format_hits(query: str, backend: str, hits: list[Any]) -> str:
    lines = [f'Search results for "{query}" ({backend}):']
    for i, hit in enumerate(hits, 1):
        lines.append(f"{i}. {hit.title or '(no title)'}\n   {hit.url}")
        if hit.snippet:
            lines.append(f"   {hit.snippet}")
    return "\n".join(lines)


@tool("web_search", risk=RiskClass.NETWORK)
def web_search(ctx: ToolContext, params: WebSearchParams) -> ToolResult:
    """Search the web; returns numbered results with title, URL and snippet."""
    cfg = web_config(ctx)
    backend = search_backend(ctx)
    name = getattr(backend, "name", type(backend).__name__)
    retries = int(cfg.get("search_retries", 2))
    try:
        hits = search_with_retry(
            backend, params.query, params.max_results, params.region,
            _TIMELIMITS.get(params.time_range or ""),
            retries=retries, backoff_s=float(cfg.get("search_backoff_s", 2.0)),
        )
    except SearchOffline as exc:
        return ToolResult.fail(f"web_search: {exc}", status="offline", backend=name)
    except SearchBlocked as exc:
        return ToolResult.fail(
            f"web_search: the search engine is rate-limiting or blocking requests ({exc}); "
            f"tried {retries + 1} times. Do not guess results: wait a minute and retry, tell the user, "
            "or configure another engine (web.search_engine = 'brave' with a key).",
            status="blocked", backend=name,
        )
    except SearchError as exc:
        return ToolResult.fail(f"web_search failed: {exc}. Retry later or rephrase the query.", status="error", backend=name)
    if not hits:
        return ToolResult(
            text=f'No results for "{params.query}" ({name}). The engine answered but found nothing; '
            "try fewer or different words.",
            data={"status": "no_results", "backend": name, "hits": []},
        )
    allow_urls(ctx, [h.url for h in hits])
    return ToolResult(
        text=_format_hits(params.query, name, hits),
        data={"status": "ok", "backend": name, "hits": [h.as_dict() for h in hits]},
        untrusted=True,
    )


def _limits(ctx: ToolContext) -> FetchLimits:
    cfg = web_config(ctx)
    return FetchLimits(
        connect_s=float(cfg.get("connect_timeout_s", 10.0)),
        read_s=float(cfg.get("read_timeout_s", 20.0)),
        total_s=float(cfg.get("total_timeout_s", 60.0)),
        max_bytes=int(cfg.get("max_bytes", 5_000_000)),
        max_redirects=int(cfg.get("max_redirects", 5)),
        allow_private=bool(cfg.get("allow_private", False)),
    )


def _load(ctx: ToolContext, url: str) -> dict[str, Any]:
    """Fetch and extract ``url`` once per task; later calls use the cache."""
    cache: dict[str, dict[str, Any]] = ctx.state.setdefault(CACHE_KEY, {})
    key = normalise_url(url)
    if key in cache:
        return cache[key]
    limits = _limits(ctx)
    resp = http_get(url, limits)
    page = extract(resp.body, resp.content_type, resp.charset, resp.final_url, truncated=resp.truncated)
    text = page.text or "(the page has no readable text)"
    if resp.truncated:
        text += f"\n\n[download stopped at the size cap of {limits.max_bytes} bytes; the rest of the page is missing]"
    links = page.links[:MAX_LINKS]
    if links:
        more = f" (first {MAX_LINKS} of {len(page.links)})" if len(page.links) > MAX_LINKS else ""
        text += f"\n\nLinks on this page{more}:\n" + "\n".join(f"- {label or '(link)'}: {href}" for href, label in links)
    entry = {
        "url": key,
        "final_url": resp.final_url,
        "title": page.title,
        "kind": page.kind,
        "content_type": resp.content_type,
        "text": text,
        "redirects": resp.redirects,
        "size_capped": resp.truncated,
    }
    cache[key] = entry
    cache.setdefault(normalise_url(resp.final_url), entry)
    allow_urls(ctx, [resp.final_url, *(href for href, _ in page.links)])
    return entry


def _cut(text: str, start: int, budget: int) -> tuple[str, int]:
    """``text[start:end]`` of at most ``budget`` characters, ending at a
    whitespace when one is near the end; returns (chunk, end)."""
    end = min(len(text), start + budget)
    if end < len(text):
        space = max(text.rfind("\n", start + budget * 4 // 5, end), text.rfind(" ", start + budget * 4 // 5, end))
        if space > start:
            end = space + 1
    return text[start:end], end


@tool("fetch_url", risk=RiskClass.NETWORK)
def fetch_url(ctx: ToolContext, params: FetchUrlParams) -> ToolResult:
    """Read a web page, PDF or text file by URL; long pages come in parts (use start)."""
    url = params.url.strip()
    if not url.lower().startswith(("http://", "https://")):
        raise ToolError(f"only http and https URLs can be fetched, not {url[:80]!r}.")
    if not is_allowed(ctx, url):
        raise ToolError(
            f"{url} did not come from the user, a search result or a fetched page, so it was not fetched. "
            "Use web_search to find the page, or ask the user for the link."
        )
    entry = _load(ctx, url)
    text = entry["text"]
    total = len(text)
    if params.start >= total:
        raise ToolError(f"start={params.start} is past the end of {url} ({total} characters). Use a smaller start.")
    chunk, end = _cut(text, params.start, params.max_tokens * CHARS_PER_TOKEN)
    header = f"URL: {entry['final_url']}\n"
    if entry["title"]:
        header += f"Title: {entry['title']}\n"
    header += f"Type: {entry['kind']}; characters {params.start}-{end} of {total}\n\n"
    body = header + chunk
    if end < total:
        body += f"\n[... truncated; call fetch_url with start={end} for more]"
    data = {k: entry[k] for k in ("url", "final_url", "title", "kind", "content_type", "redirects", "size_capped")}
    data.update(start=params.start, end=end, total_chars=total)
    return ToolResult(text=body, data=data, untrusted=True)
