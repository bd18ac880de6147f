"""Models the assistant knows how to pull, and parsing of user-named repos.

A :class:`ModelSpec` says where a GGUF can be found on a Hugging Face-style hub:
candidate repos in order, and either a quantization to look for in each repo's
file list (resolved at pull time) or one exact file name.

Names accepted by :func:`resolve_spec`:

- a known key, case-insensitive: ``nanbeige4.2-3b``
- a known key with a quantization: ``nanbeige4.2-3b:Q8_0``
- any repo: ``owner/repo`` (default quantization Q4_K_M)
- any repo with a quantization: ``owner/repo:Q5_K_M``
- any repo with an exact file: ``owner/repo:File-Q4_K_M.gguf``
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

__all__ = ["ModelSpec", "KNOWN_MODELS", "DEFAULT_QUANT", "resolve_spec"]

DEFAULT_QUANT = "Q4_K_M"

_REPO_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$")
_QUANT_RE = re.compile(r"^[A-Za-z0-9_]+$")


@dataclass(frozen=True)
class ModelSpec:
    """Where to find one model's GGUF.

    Attributes:
        key: the name users type (lower case), e.g. ``"nanbeige4.2-3b"``.
        display_name: what the UI shows.
        repos: candidate hub repos ("owner/name"), tried in order.
        quant: quantization to match in GGUF file names (case-insensitive), e.g. "Q4_K_M".
        filename: an exact file to pull instead of matching ``quant`` (None: match).
        approx_bytes: expected download size in bytes (for messages; None if unknown).
        description: one line for ``assistant model list``.
    """

    key: str
    display_name: str
    repos: tuple[str, ...]
    quant: str = DEFAULT_QUANT
    filename: str | None = None
    approx_bytes: int | None = None
    description: str = ""


# Published community GGUFs of the reference model (DESIGN.md; sizes from the
# repos' public listings, not verifiable from here).
KNOWN_MODELS: dict[str, ModelSpec] = {
    "nanbeige4.2-3b": ModelSpec(
        key="nanbeige4.2-3b",
        display_name="Nanbeige4.2-3B",
        repos=("bartowski/Nanbeige_Nanbeige4.2-3B-GGUF", "owao/Nanbeige4.2-3B-GGUF"),
        quant=DEFAULT_QUANT,
        approx_bytes=2_680_000_000,
        description="Nanbeige4.2-3B looped transformer (22 layers x 2 loops), reference model",
    ),
}


def _split_suffix(name: str) -> tuple[str, str | None]:
    base, sep, suffix = name.partition(":")
    return base.strip(), (suffix.strip() if sep else None)


def resolve_spec(name: str) -> ModelSpec | None:
    """Turn a user-typed model name into a :class:`ModelSpec`.

    Args:
        name: a known key, ``owner/repo``, or either of them followed by
            ``:QUANT`` or ``:FILE.gguf`` (see the module docstring).

    Returns:
        The spec, or None when ``name`` is neither a known key nor a
        well-formed ``owner/repo`` (or its suffix is not a quant or a .gguf file).
    """
    base, suffix = _split_suffix(name)
    if not base or suffix == "":
        return None
    known = KNOWN_MODELS.get(base.lower())
    if known is not None:
        spec = known
    elif _REPO_RE.match(base):
        spec = ModelSpec(key=base.lower(), display_name=base, repos=(base,), description=f"GGUF from {base}")
    else:
        return None
    if suffix is None:
        return spec
    if suffix.lower().endswith(".gguf"):
        if "\\" in suffix or ".." in suffix.split("/") or suffix.startswith("/"):
            return None
        return replace(spec, filename=suffix, approx_bytes=None)
    if _QUANT_RE.match(suffix):
        quant = suffix.upper()
        return replace(spec, quant=quant, approx_bytes=spec.approx_bytes if quant == spec.quant else None)
    return None
