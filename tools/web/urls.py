"""Which URLs the web tools may touch.

Two independent gates:

* **Provenance** (:func:`allow_urls_from_text`, :func:`is_allowed`): by default
  ``fetch_url`` only opens URLs that came from the user, from a search result or
  from a page already fetched, never URLs the model made up. The allow-list is a
  set of normalised URLs in ``ctx.state["web.allowed_urls"]``.
* **Address** (:func:`check_target`): only http(s); the host is resolved and
  *every* address must be public (not private, loopback, link-local, reserved,
  multicast...) unless ``ctx.config["web"]["allow_private"]`` is true. The
  caller connects to the address that was checked, so a DNS answer cannot
  change between the check and the connection.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from dataclasses import dataclass
from typing import Any, Iterable, Mapping
from urllib.parse import urlsplit, urlunsplit

from tools.base import ToolContext, ToolError

__all__ = [
    "ALLOWED_KEY",
    "web_config",
    "extract_urls",
    "normalise_url",
    "allow_urls",
    "allow_urls_from_text",
    "is_allowed",
    "Target",
    "check_target",
    "resolve_host",
    "is_public_ip",
]

ALLOWED_KEY = "web.allowed_urls"

_URL_RE = re.compile(r"https?://[^\s<>\"'`\\^{}|]+", re.IGNORECASE)
_TRAILING = ".,;:!?'\")]}>*_"


def web_config(ctx: ToolContext) -> Mapping[str, Any]:
    """The ``web`` section of the tool config (an empty mapping when absent)."""
    cfg = ctx.config.get("web") if ctx.config else None
    return cfg if isinstance(cfg, Mapping) else {}


def extract_urls(text: str) -> list[str]:
    """Every http(s) URL in ``text``, in order, without trailing punctuation.

    A closing bracket is kept when the URL itself opened one
    (``https://en.wikipedia.org/wiki/Foo_(bar)``).
    """
    found = []
    for m in _URL_RE.finditer(text or ""):
        url = m.group(0)
        while url and url[-1] in _TRAILING:
            last = url[-1]
            pair = {")": "(", "]": "["}.get(last)
            if pair and url.count(pair) >= url.count(last):
                break
            url = url[:-1]
        if len(url) > len("https://"):
            found.append(url)
    return found


def normalise_url(url: str) -> str:
    """A canonical form for comparing URLs: lower-case scheme and host, no
    fragment, no default port, "/" for an empty path. Returns ``url`` stripped
    when it cannot be parsed."""
    url = (url or "").strip()
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        port = parts.port
    except ValueError:
        return url
    scheme = parts.scheme.lower()
    if ":" in host:
        host = f"[{host}]"
    if port and not ((scheme == "http" and port == 80) or (scheme == "https" and port == 443)):
        host = f"{host}:{port}"
    userinfo = parts.netloc.rpartition("@")[0]
    netloc = f"{userinfo}@{host}" if userinfo else host
    return urlunsplit((scheme, netloc, parts.path or "/", parts.query, ""))


def _allowed(ctx: ToolContext) -> set[str]:
    return ctx.state.setdefault(ALLOWED_KEY, set())


def allow_urls(ctx: ToolContext, urls: Iterable[str]) -> None:
    """Add ``urls`` (normalised) to the task's allow-list."""
    allowed = _allowed(ctx)
    for url in urls:
        if url and url.lower().startswith(("http://", "https://")):
            allowed.add(normalise_url(url))


def allow_urls_from_text(ctx: ToolContext, text: str) -> None:
    """Allow every http(s) URL found in ``text`` (the agent calls this on each
    user message). Stores into ``ctx.state["web.allowed_urls"]`` (a set)."""
    allow_urls(ctx, extract_urls(text))


def is_allowed(ctx: ToolContext, url: str) -> bool:
    """True when ``url`` may be fetched: it is on the allow-list, or the config
    sets ``web.allow_any_url``."""
    if web_config(ctx).get("allow_any_url"):
        return True
    return normalise_url(url) in _allowed(ctx)


@dataclass(frozen=True)
class Target:
    """A checked request target.

    Attributes:
        url: the URL as given (normalised).
        scheme: "http" or "https".
        host: host name as in the URL (no brackets for IPv6).
        port: TCP port.
        addresses: the IP addresses that passed the check, in resolver order;
            connect to these (and only these).
    """

    url: str
    scheme: str
    host: str
    port: int
    addresses: tuple[str, ...]


def is_public_ip(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """True for globally routable unicast addresses. Private, loopback,
    link-local (incl. 169.254.169.254 cloud metadata), CGNAT, reserved,
    multicast and unspecified addresses are not public; IPv4-mapped IPv6
    addresses are judged by their IPv4 address."""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def resolve_host(host: str, port: int) -> list[str]:
    """All addresses ``host`` resolves to (IP literals resolve to themselves).

    Raises:
        ToolError: the name does not resolve (offline or unknown host).
    """
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise ToolError(
            f"cannot resolve host {host!r} ({exc}). Check the URL, or the network connection."
        ) from None
    addresses: list[str] = []
    for info in infos:
        addr = str(info[4][0]).split("%", 1)[0]
        if addr not in addresses:
            addresses.append(addr)
    if not addresses:
        raise ToolError(f"host {host!r} has no addresses. Check the URL.")
    return addresses


def check_target(url: str, *, allow_private: bool) -> Target:
    """Validate one request target (the first URL or a redirect's Location).

    Args:
        url: absolute URL.
        allow_private: permit private / loopback / link-local addresses.

    Returns:
        a :class:`Target` carrying the address to connect to.

    Raises:
        ToolError: non-http(s) scheme, no host, unresolvable host, or a
            non-public address while ``allow_private`` is false.
    """
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as exc:
        raise ToolError(f"malformed URL {url!r} ({exc}).") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise ToolError(f"only http and https URLs can be fetched, not {scheme or 'no scheme'!r}: {url}")
    host = (parts.hostname or "").strip()
    if not host:
        raise ToolError(f"URL has no host: {url}")
    port = port or (443 if scheme == "https" else 80)
    addresses = resolve_host(host, port)
    if not allow_private:
        for addr in addresses:
            if not is_public_ip(ipaddress.ip_address(addr)):
                raise ToolError(
                    f"refused {url}: {host} resolves to the non-public address {addr} "
                    "(private, loopback or link-local). Set web.allow_private = true in the "
                    "config to allow fetching from the local network."
                )
    return Target(url=normalise_url(url), scheme=scheme, host=host, port=port, addresses=tuple(addresses))
