"""Secrets through keyring, the `secret` CLI commands, and redaction."""

from __future__ import annotations

import argparse
import io

import keyring
import pytest
from keyring.backends import fail
from keyring.errors import PasswordDeleteError

from plugins import secrets
from plugins.cli import add_secret_commands
from plugins.secrets import SecretsUnavailable, delete_secret, get_secret, redact, set_secret


@pytest.fixture
def no_backend(ring):
    keyring.set_keyring(fail.Keyring())
    yield


def test_set_get_delete_round_trip_under_the_assistant_service(ring):
    assert get_secret("github_token") is None
    set_secret("github_token", "ghp_abc123")
    assert ring.store == {("assistant", "github_token"): "ghp_abc123"}
    assert get_secret("github_token") == "ghp_abc123"
    set_secret("github_token", "new")
    assert get_secret("github_token") == "new"
    assert delete_secret("github_token") is True
    assert delete_secret("github_token") is False
    assert get_secret("github_token") is None


def test_bad_names_and_empty_values_are_refused(ring):
    for bad in ("", "has space", "../x", "-lead"):
        with pytest.raises(ValueError, match="bad secret name"):
            get_secret(bad)
    with pytest.raises(ValueError, match="empty"):
        set_secret("ok", "")
    assert ring.store == {}


def test_no_backend_gives_one_line_message_naming_the_fix(no_backend):
    for call in (lambda: get_secret("x"), lambda: set_secret("x", "v"), lambda: delete_secret("x")):
        with pytest.raises(SecretsUnavailable) as info:
            call()
        msg = str(info.value)
        assert "keyrings.alt" in msg and "Secret Service" in msg and "\n" not in msg


def test_redact_removes_values_longest_first_and_names_them():
    text = "token=abcdef1234 and prefix abcdef and short ab"
    assert redact(text, ["abcdef", "abcdef1234", "ab"]) == "token=[secret] and prefix [secret] and short ab"
    assert redact(text, {"gh": "abcdef1234"}) == "token=[secret:gh] and prefix abcdef and short ab"
    assert redact("", ["abcd"]) == ""


def parser():
    p = argparse.ArgumentParser(prog="assistant")
    add_secret_commands(p.add_subparsers(dest="command"))
    return p


def run(argv, stdin="", capsys=None):
    args = parser().parse_args(argv)
    return args.func(args, stdin=io.StringIO(stdin))


def test_cli_set_reads_stdin_and_get_prints_value(ring, capsys):
    assert run(["secret", "set", "api_key"], stdin="s3cret-value\n") == 0
    assert ring.store[("assistant", "api_key")] == "s3cret-value"
    assert "s3cret-value" not in capsys.readouterr().err
    assert run(["secret", "get", "api_key"]) == 0
    assert capsys.readouterr().out == "s3cret-value\n"
    assert run(["secret", "delete", "api_key"]) == 0
    assert run(["secret", "get", "api_key"]) == 1
    assert "assistant secret set api_key" in capsys.readouterr().err
    assert run(["secret", "delete", "api_key"]) == 1


def test_cli_never_takes_the_value_from_argv(ring, capsys):
    with pytest.raises(SystemExit) as info:
        parser().parse_args(["secret", "set", "api_key", "the-value"])
    assert info.value.code == 2
    assert ring.store == {}


def test_cli_exit_codes_for_bad_name_empty_value_and_no_backend(ring, capsys):
    assert run(["secret", "set", "bad name"], stdin="v") == 2
    assert run(["secret", "set", "ok"], stdin="") == 2
    keyring.set_keyring(fail.Keyring())
    assert run(["secret", "get", "ok"]) == 1
    assert "keyrings.alt" in capsys.readouterr().err


def test_cli_func_uses_process_stdin_by_default(ring, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("from-stdin"))
    args = parser().parse_args(["secret", "set", "tok"])
    assert args.func(args) == 0
    assert secrets.get_secret("tok") == "from-stdin"
