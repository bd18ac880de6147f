"""Web tools: ``web_search`` and ``fetch_url`` (risk class ``network``).

Results are flagged ``untrusted``; the agent fences them (``tools.untrusted``).
The agent calls :func:`allow_urls_from_text` on each user message so that
``fetch_url`` opens the URLs the user gave.
"""

from tools.web.backends import BraveBackend, DDGSBackend
from tools.web.search import SearchBackend, SearchBlocked, SearchError, SearchHit, SearchOffline
from tools.web.tools import fetch_url, web_search
from tools.web.urls import allow_urls_from_text

WEB_TOOLS = [web_search, fetch_url]

__all__ = [
    "WEB_TOOLS",
    "allow_urls_from_text",
    "web_search",
    "fetch_url",
    "SearchBackend",
    "SearchHit",
    "SearchError",
    "SearchBlocked",
    "SearchOffline",
    "DDGSBackend",
    "BraveBackend",
]
