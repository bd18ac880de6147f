"""Telling text from binary and decoding text whose encoding is unknown."""

from __future__ import annotations

import codecs

__all__ = ["decode_text", "looks_binary", "BinaryContentError"]

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)

_SIGNATURES = {
    b"%PDF": "PDF document",
    b"PK\x03\x04": "zip archive (also .docx/.xlsx/.pptx)",
    b"\x89PNG": "PNG image",
    b"\xff\xd8\xff": "JPEG image",
    b"GIF8": "GIF image",
    b"\x7fELF": "executable",
    b"GGUF": "GGUF model",
    b"\xd0\xcf\x11\xe0": "legacy Office document",
}


class BinaryContentError(ValueError):
    """The bytes are not text; ``kind`` names what they look like."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


def _bom_encoding(data: bytes) -> str | None:
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name
    return None


def looks_binary(data: bytes) -> str | None:
    """What kind of binary ``data`` is ("PDF document", "binary data"...), or
    None when it may be text. Looks at the first 8 KiB only."""
    head = data[:8192]
    for magic, kind in _SIGNATURES.items():
        if head.startswith(magic):
            return kind
    if _bom_encoding(head):
        return None
    if b"\x00" in head:
        return "binary data"
    return None


def decode_text(data: bytes) -> tuple[str, str]:
    """Decode ``data`` to text.

    Order: a byte-order mark wins; then strict UTF-8; then the best guess of
    charset-normalizer, except that cp1252 is preferred when it scores about
    as well (short Western texts are otherwise often read as cp1250). Line
    endings are kept as they are.

    Returns:
        ``(text, encoding)`` with a Python codec name (``"utf-8"``, ``"cp1252"``...).

    Raises:
        BinaryContentError: the data is binary or no encoding fits.
    """
    kind = looks_binary(data)
    if kind:
        raise BinaryContentError(kind)
    bom = _bom_encoding(data)
    if bom:
        try:
            return data.decode(bom), bom
        except UnicodeDecodeError:
            raise BinaryContentError("binary data") from None
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    results = from_bytes(data)
    best = results.best()
    if best is None:
        raise BinaryContentError("binary data")
    # Short Western text is often guessed as cp1250/cp775; prefer cp1252 when
    # it is about as plausible (charset-normalizer scores: chaos, coherence).
    for match in results:
        if (
            best.encoding != "cp1252"
            and "cp1252" in match.could_be_from_charset
            and match.chaos <= best.chaos + 0.15
            and match.coherence >= best.coherence - 0.1
        ):
            try:
                return data.decode("cp1252"), "cp1252"
            except UnicodeDecodeError:
                break
    return str(best), best.encoding
