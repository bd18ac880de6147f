"""URL provenance and address checks of the web tools (no network: IP literals only)."""

from __future__ import annotations

import ipaddress

import pytest

from tools.base import ToolContext, ToolError
from tools.web import allow_urls_from_text
from tools.web.urls import check_target, extract_urls, is_allowed, is_public_ip, normalise_url


def test_extract_urls_strips_trailing_punctuation_but_keeps_balanced_brackets():
    text = (
        "See https://example.com/a. Also (https://example.org/b), and "
        "https://en.wikipedia.org/wiki/Foo_(bar)! ftp://nope.example and mailto:x@y"
    )
    assert extract_urls(text) == [
        "https://example.com/a",
        "https://example.org/b",
        "https://en.wikipedia.org/wiki/Foo_(bar)",
    ]


def test_normalise_url_ignores_case_of_host_fragment_and_default_port():
    assert normalise_url("HTTPS://Example.COM:443#top") == "https://example.com/"
    assert normalise_url("http://example.com:8080/a?x=1#f") == "http://example.com:8080/a?x=1"


def test_allow_urls_from_text_fills_the_task_allow_list():
    ctx = ToolContext()
    allow_urls_from_text(ctx, "please read https://Example.com/page#intro and tell me")
    assert ctx.state["web.allowed_urls"] == {"https://example.com/page"}
    assert is_allowed(ctx, "https://example.com/page")
    assert not is_allowed(ctx, "https://example.com/other")


def test_allow_any_url_config_lifts_the_provenance_check():
    ctx = ToolContext(config={"web": {"allow_any_url": True}})
    assert is_allowed(ctx, "https://made-up.example/x")


@pytest.mark.parametrize(
    "addr",
    ["127.0.0.1", "10.1.2.3", "192.168.0.1", "172.16.0.1", "169.254.169.254", "100.64.0.1",
     "0.0.0.0", "::1", "fe80::1", "fc00::1", "::ffff:127.0.0.1", "224.0.0.1"],
)
def test_non_public_addresses_are_not_public(addr):
    assert not is_public_ip(ipaddress.ip_address(addr))


def test_public_addresses_are_public():
    assert is_public_ip(ipaddress.ip_address("93.184.216.34"))
    assert is_public_ip(ipaddress.ip_address("2606:4700::1111"))


@pytest.mark.parametrize("url", ["http://127.0.0.1:8080/", "http://169.254.169.254/latest/meta-data/", "http://[::1]/"])
def test_check_target_refuses_private_addresses_by_default(url):
    with pytest.raises(ToolError, match="non-public address"):
        check_target(url, allow_private=False)


def test_check_target_allows_private_when_configured():
    target = check_target("http://127.0.0.1:8080/x#frag", allow_private=True)
    assert target.addresses == ("127.0.0.1",)
    assert target.port == 8080
    assert target.url == "http://127.0.0.1:8080/x"


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://example.com/x", "javascript:alert(1)", "gopher://127.0.0.1/"])
def test_check_target_refuses_other_schemes(url):
    with pytest.raises(ToolError, match="only http and https"):
        check_target(url, allow_private=True)


def test_check_target_refuses_when_any_resolved_address_is_private(monkeypatch):
    from tools.web import urls

    monkeypatch.setattr(urls, "resolve_host", lambda host, port: ["93.184.216.34", "10.0.0.5"])
    with pytest.raises(ToolError, match="10.0.0.5"):
        check_target("https://rebind.example/", allow_private=False)
