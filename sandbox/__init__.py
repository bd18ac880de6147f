"""The workspace jail and safe file primitives (see ``sandbox.workspace``)."""

from sandbox.blobs import BlobStore, sha256_hex
from sandbox.errors import SandboxError
from sandbox.paths import MAX_DEPTH
from sandbox.records import ChangeRecord
from sandbox.text import decode_text, looks_binary
from sandbox.undo import undo_changes
from sandbox.walk import Entry, glob_to_regex
from sandbox.workspace import Workspace

__all__ = [
    "MAX_DEPTH",
    "BlobStore",
    "ChangeRecord",
    "Entry",
    "SandboxError",
    "Workspace",
    "decode_text",
    "glob_to_regex",
    "looks_binary",
    "sha256_hex",
    "undo_changes",
]
