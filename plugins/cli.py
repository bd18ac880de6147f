"""``assistant secret set|get|delete NAME``: argparse wiring for the secrets store.

:func:`add_secret_commands` adds a ``secret`` sub-command to an argparse
sub-parsers object. Each leaf sets ``args.func(args) -> int`` (exit code:
0 success, 1 failure such as no keyring backend or no such secret, 2 usage
error). ``set`` reads the value from stdin when it is not a terminal, otherwise
from a hidden prompt; a value is never taken from argv (it would land in shell
history and the process list).
"""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import Any, TextIO

from plugins import secrets as _secrets

__all__ = ["add_secret_commands", "run_secret"]


def _read_value(stdin: TextIO) -> str:
    if stdin.isatty():
        first = getpass.getpass("Secret value: ")
        second = getpass.getpass("Again: ")
        if first != second:
            raise ValueError("the two values differ: nothing stored")
        return first
    return stdin.read().rstrip("\r\n")


def run_secret(args: argparse.Namespace, *, stdin: TextIO | None = None,
               stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Run ``secret <action> NAME`` from parsed ``args`` (``secret_action``, ``name``).

    Returns the exit code; messages go to ``stderr``, a read value to ``stdout``.
    """
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    action, name = args.secret_action, args.name
    try:
        _secrets.validate_name(name)
        if action == "set":
            _secrets.set_secret(name, _read_value(stdin))
            print(f"secret {name} stored", file=stderr)
            return 0
        if action == "get":
            value = _secrets.get_secret(name)
            if value is None:
                print(f"no secret named {name}; set it with: assistant secret set {name}", file=stderr)
                return 1
            print(value, file=stdout)
            return 0
        if action == "delete":
            if not _secrets.delete_secret(name):
                print(f"no secret named {name}", file=stderr)
                return 1
            print(f"secret {name} deleted", file=stderr)
            return 0
    except ValueError as exc:
        print(f"error: {exc}", file=stderr)
        return 2
    except _secrets.SecretsUnavailable as exc:
        print(f"error: {exc}", file=stderr)
        return 1
    print("usage: assistant secret set|get|delete NAME", file=stderr)
    return 2


def add_secret_commands(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``secret set|get|delete NAME`` to ``subparsers`` (from
    ``ArgumentParser.add_subparsers()``) and return the ``secret`` parser.

    Each leaf parser sets ``func=run_secret``; call ``args.func(args)`` to get
    the exit code.
    """
    p = subparsers.add_parser(
        "secret",
        help="store, read or delete a secret in the OS keyring",
        description="Secrets live in the OS keyring (service 'assistant'). Plugins and "
        "MCP servers read them by name.",
    )
    sub = p.add_subparsers(dest="secret_action", metavar="set|get|delete", required=True)
    helps = {
        "set": "store a secret (value read from stdin or a hidden prompt, never argv)",
        "get": "print a secret to stdout",
        "delete": "delete a secret",
    }
    for action, text in helps.items():
        leaf = sub.add_parser(action, help=text, description=text)
        leaf.add_argument("name", metavar="NAME", help="secret name, e.g. github_token")
        leaf.set_defaults(func=run_secret)
    return p
