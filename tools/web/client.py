"""One guarded HTTP GET: timeouts, manual redirects re-checked hop by hop,
a size cap enforced while streaming, and connections pinned to the checked
address (so DNS cannot answer differently between the check and the request).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from urllib.parse import urljoin

import httpx

from tools.base import ToolError
from tools.web.urls import Target, check_target

__all__ = ["FetchLimits", "HttpResponse", "http_get", "USER_AGENT"]

USER_AGENT = "Mozilla/5.0 (compatible; assistant/0.1; +local personal assistant)"
_REDIRECTS = {301, 302, 303, 307, 308}


@dataclass(frozen=True)
class FetchLimits:
    """Limits for one fetch.

    Attributes:
        connect_s: seconds to establish a connection.
        read_s: seconds to wait for each chunk of the response.
        total_s: seconds for the whole fetch, redirects included.
        max_bytes: body bytes kept (decoded); the download stops past this.
        max_redirects: redirects followed before giving up.
        allow_private: permit private / loopback / link-local targets.
    """

    connect_s: float = 10.0
    read_s: float = 20.0
    total_s: float = 60.0
    max_bytes: int = 5_000_000
    max_redirects: int = 5
    allow_private: bool = False


@dataclass
class HttpResponse:
    """A fetched body.

    Attributes:
        url: the URL asked for.
        final_url: the URL after redirects.
        status: HTTP status of the final response.
        content_type: media type, lower case, without parameters ("" if absent).
        charset: the charset parameter of Content-Type, or None.
        body: the body bytes (at most ``max_bytes``).
        truncated: True when the body was cut at ``max_bytes``.
        redirects: each redirect target followed, in order.
    """

    url: str
    final_url: str
    status: int
    content_type: str
    charset: str | None
    body: bytes
    truncated: bool = False
    redirects: list[str] = field(default_factory=list)


def _send_pinned(client: httpx.Client, target: Target) -> httpx.Response:
    """Send a GET for ``target.url`` to one of its checked addresses (the next
    one when a connection is refused), keeping Host and TLS SNI/certificate
    checks on the original host name."""
    url = httpx.URL(target.url)
    headers = {"Host": url.netloc.decode("ascii")}
    extensions = {"sni_hostname": target.host} if target.scheme == "https" else {}
    error: httpx.ConnectError | None = None
    for address in target.addresses:
        request = client.build_request("GET", url.copy_with(host=address), headers=headers, extensions=extensions)
        try:
            return client.send(request, stream=True)
        except httpx.ConnectError as exc:
            error = exc
    assert error is not None
    raise error


def _split_content_type(value: str) -> tuple[str, str | None]:
    mime, _, params = value.partition(";")
    charset = None
    for param in params.split(";"):
        key, _, val = param.partition("=")
        if key.strip().lower() == "charset" and val.strip():
            charset = val.strip().strip("\"'")
    return mime.strip().lower(), charset


def _read_capped(resp: httpx.Response, max_bytes: int, deadline: float, url: str) -> tuple[bytes, bool]:
    chunks: list[bytes] = []
    size = 0
    for chunk in resp.iter_bytes():
        chunks.append(chunk)
        size += len(chunk)
        if size >= max_bytes:
            return b"".join(chunks)[:max_bytes], True
        if time.monotonic() > deadline:
            raise ToolError(f"{url} took too long to download. Try again later or use another source.")
    return b"".join(chunks), False


def http_get(url: str, limits: FetchLimits, *, client: httpx.Client | None = None) -> HttpResponse:
    """GET ``url`` within ``limits``, following redirects by hand.

    Every hop (the first URL and each ``Location``) goes through
    :func:`tools.web.urls.check_target` before anything is sent to it.

    Raises:
        ToolError: refused target, too many redirects, timeout, connection
            failure or an HTTP error status; the message says what to do.
    """
    own = client is None
    if client is None:
        timeout = httpx.Timeout(limits.read_s, connect=limits.connect_s)
        client = httpx.Client(timeout=timeout, follow_redirects=False, headers={"User-Agent": USER_AGENT})
    deadline = time.monotonic() + limits.total_s
    current = url
    redirects: list[str] = []
    try:
        for _hop in range(limits.max_redirects + 1):
            target = check_target(current, allow_private=limits.allow_private)
            try:
                resp = _send_pinned(client, target)
            except httpx.TimeoutException:
                raise ToolError(
                    f"timed out fetching {current}. The site is slow or unreachable; "
                    "try again later or use another source."
                ) from None
            except httpx.HTTPError as exc:
                raise ToolError(f"could not fetch {current}: {type(exc).__name__}: {exc}. Check the URL or the network.") from None
            try:
                if resp.status_code in _REDIRECTS and resp.headers.get("location"):
                    current = urljoin(current, resp.headers["location"])
                    redirects.append(current)
                    continue
                if resp.status_code >= 400:
                    raise ToolError(
                        f"HTTP {resp.status_code} {resp.reason_phrase} for {current}. "
                        "Check the URL, or search for another source."
                    )
                try:
                    body, truncated = _read_capped(resp, limits.max_bytes, deadline, current)
                except httpx.TimeoutException:
                    raise ToolError(
                        f"timed out reading {current}. The site is slow; try again later or use another source."
                    ) from None
                except httpx.HTTPError as exc:
                    raise ToolError(f"download of {current} failed: {type(exc).__name__}: {exc}.") from None
                mime, charset = _split_content_type(resp.headers.get("content-type", ""))
                return HttpResponse(
                    url=url,
                    final_url=current,
                    status=resp.status_code,
                    content_type=mime,
                    charset=charset,
                    body=body,
                    truncated=truncated,
                    redirects=redirects,
                )
            finally:
                resp.close()
        raise ToolError(f"too many redirects (more than {limits.max_redirects}) starting at {url}.")
    finally:
        if own:
            client.close()
