"""Secrets by name in the OS keyring (service ``assistant``), and redaction.

Secrets are stored with ``keyring`` (Secret Service, macOS Keychain, Windows
Credential Locker, or any configured backend). When keyring has no usable
backend every call raises :class:`SecretsUnavailable` with a one-line message
that names the fix. :func:`redact` strips secret values from text before it is
logged, put in a transcript or exported.
"""

from __future__ import annotations

import re
from typing import Iterable, Mapping

__all__ = [
    "SERVICE",
    "SecretsUnavailable",
    "get_secret",
    "set_secret",
    "delete_secret",
    "redact",
    "validate_name",
]

SERVICE = "assistant"
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,127}$")
MIN_REDACT_LEN = 4

FIX = (
    "no usable keyring backend: install and unlock a Secret Service (e.g. gnome-keyring "
    "or KWallet), or `pip install keyrings.alt` for a file-based store"
)


class SecretsUnavailable(RuntimeError):
    """No keyring backend can store secrets here; ``str(exc)`` is one line naming the fix."""


def validate_name(name: str) -> str:
    """Return ``name`` if it is a valid secret name (letters, digits, ``_.-``, at most
    128 characters, starting with a letter or digit); raise ``ValueError`` otherwise."""
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise ValueError(
            f"bad secret name {name!r}: use letters, digits, '_', '.', '-' (e.g. github_token)"
        )
    return name


def _backend():
    """The active keyring backend; raises :class:`SecretsUnavailable` if it is unusable."""
    try:
        import keyring
        from keyring.backends import fail
    except ImportError:  # pragma: no cover - keyring is a hard dependency
        raise SecretsUnavailable("the keyring package is not installed: pip install keyring") from None
    try:
        kr = keyring.get_keyring()
    except Exception as exc:  # noqa: BLE001 - any backend init failure means unusable
        raise SecretsUnavailable(f"{FIX} ({type(exc).__name__})") from None
    if isinstance(kr, fail.Keyring):
        raise SecretsUnavailable(FIX)
    try:
        from keyring.backends.chainer import ChainerBackend

        if isinstance(kr, ChainerBackend) and not kr.backends:
            raise SecretsUnavailable(FIX)
    except ImportError:  # pragma: no cover - older keyring
        pass
    return kr


def _call(op: str, fn, *args):
    from keyring.errors import KeyringError, PasswordDeleteError

    try:
        return fn(*args)
    except PasswordDeleteError:
        raise
    except KeyringError as exc:
        raise SecretsUnavailable(f"keyring could not {op} the secret: {exc}. {FIX}") from None


def get_secret(name: str) -> str | None:
    """The secret called ``name``, or None when it is not set.

    Raises:
        ValueError: bad name.
        SecretsUnavailable: no usable keyring backend.
    """
    validate_name(name)
    kr = _backend()
    return _call("read", kr.get_password, SERVICE, name)


def set_secret(name: str, value: str) -> None:
    """Store ``value`` under ``name`` (replacing any earlier value).

    Raises:
        ValueError: bad name or an empty value.
        SecretsUnavailable: no usable keyring backend.
    """
    validate_name(name)
    if not value:
        raise ValueError("empty secret value: nothing stored")
    kr = _backend()
    _call("store", kr.set_password, SERVICE, name, value)


def delete_secret(name: str) -> bool:
    """Delete the secret ``name``; True if it existed, False if there was none.

    Raises:
        ValueError: bad name.
        SecretsUnavailable: no usable keyring backend.
    """
    from keyring.errors import PasswordDeleteError

    validate_name(name)
    kr = _backend()
    if _call("read", kr.get_password, SERVICE, name) is None:
        return False
    try:
        _call("delete", kr.delete_password, SERVICE, name)
    except PasswordDeleteError:
        return False
    return True


def redact(text: str, secrets: Iterable[str] | Mapping[str, str]) -> str:
    """Replace every occurrence of each secret value in ``text``.

    Args:
        text: any text (log line, transcript, export).
        secrets: secret values, or ``{name: value}`` (then the replacement names
            the secret: ``[secret:name]``; otherwise ``[secret]``).

    Values shorter than 4 characters are not replaced (they would mangle
    ordinary text); longer values are replaced longest first, so a secret that
    contains another is removed whole.
    """
    if not text:
        return text
    if isinstance(secrets, Mapping):
        pairs = [(v, f"[secret:{k}]") for k, v in secrets.items() if v]
    else:
        pairs = [(v, "[secret]") for v in secrets if v]
    for value, label in sorted(pairs, key=lambda p: len(p[0]), reverse=True):
        if len(value) >= MIN_REDACT_LEN:
            text = text.replace(value, label)
    return text
