"""Builders of hostile OOXML files for the tests and bench/office_hostile.py.

Everything is made in memory at run time from hand-written XML (no office
library needed): a minimal .xlsx and .docx, and a rewrite of one zip member
whose deflate data is followed by junk so that its *declared* compressed size
makes the declared compression ratio look harmless.
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib

__all__ = ["xlsx_zip", "docx_zip", "padded_zip", "tiny_paragraphs", "W_NS"]

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
_OFFDOC = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"


def _zip(parts: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, blob in parts.items():
            zf.writestr(name, blob)
    return out.getvalue()


def xlsx_zip(*, shared_strings: bytes = b"<si><t>hello</t></si>", sheet_data: bytes | None = None,
             shared_strings_part: bytes | None = None) -> bytes:
    """A one-sheet workbook; ``shared_strings`` is the body of <sst> (raw XML)
    or ``shared_strings_part`` the whole part; cell A1 shows string 0, or the
    sheet's <sheetData> holds ``sheet_data``."""
    sml = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    ct = (
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
        '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
        "</Types>"
    )
    rels = f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{_PKG_RELS}"><Relationship Id="rId1" Type="{_OFFDOC}" Target="xl/workbook.xml"/></Relationships>'
    wb = (
        f'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{sml}" xmlns:r="{_R_NS}">'
        '<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>'
    )
    wb_rels = (
        f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{_PKG_RELS}">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
        '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>'
        "</Relationships>"
    )
    rows = sheet_data if sheet_data is not None else b'<row r="1"><c r="A1" t="s"><v>0</v></c></row>'
    sheet = f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{sml}"><sheetData>'.encode() + rows + b"</sheetData></worksheet>"
    if shared_strings_part is not None:
        sst = shared_strings_part
    else:
        sst = f'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="{sml}">'.encode() + shared_strings + b"</sst>"
    return _zip({
        "[Content_Types].xml": ct.encode(),
        "_rels/.rels": rels.encode(),
        "xl/workbook.xml": wb.encode(),
        "xl/_rels/workbook.xml.rels": wb_rels.encode(),
        "xl/worksheets/sheet1.xml": sheet,
        "xl/sharedStrings.xml": sst,
    })


def docx_zip(*, body: bytes = b"<w:p><w:r><w:t>hello</w:t></w:r></w:p>", document: bytes | None = None,
             styles: bytes | None = None) -> bytes:
    """A Word document whose <w:body> holds ``body`` (raw XML), or whose
    document.xml is ``document`` when given; ``styles`` adds word/styles.xml."""
    ct = (
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
        + ('<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>' if styles else "")
        + "</Types>"
    )
    rels = f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{_PKG_RELS}"><Relationship Id="rId1" Type="{_OFFDOC}" Target="word/document.xml"/></Relationships>'
    doc_rels = f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{_PKG_RELS}">' + (
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>' if styles else ""
    ) + "</Relationships>"
    if document is None:
        document = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="{W_NS}" xmlns:r="{_R_NS}"><w:body>'.encode()
                    + body + b"</w:body></w:document>")
    parts = {
        "[Content_Types].xml": ct.encode(),
        "_rels/.rels": rels.encode(),
        "word/document.xml": document,
        "word/_rels/document.xml.rels": doc_rels.encode(),
    }
    if styles:
        parts["word/styles.xml"] = styles
    return _zip(parts)


def tiny_paragraphs(n: int, text: bytes = b"x") -> bytes:
    """``n`` body paragraphs of one short run each (``<w:p><w:r><w:t>x</w:t></w:r></w:p>``)."""
    return (b"<w:p><w:r><w:t>" + text + b"</w:t></w:r></w:p>") * n


def padded_zip(data: bytes, part: str, *, ratio: int = 100) -> bytes:
    """Rewrite ``part`` of the zip ``data`` so that its deflate stream is
    followed by junk: the declared compressed size grows until the declared
    ratio is ``ratio``:1 (under the zip-bomb ratio check), while the bytes it
    really inflates to stay the same. Python's zipfile stops at the end of the
    deflate stream and never reads the junk."""
    src = zipfile.ZipFile(io.BytesIO(data))
    raw = src.read(part)
    co = zlib.compressobj(9, zlib.DEFLATED, -15)
    stream = co.compress(raw) + co.flush()
    padded = stream + b"\x00" * max(0, len(raw) // ratio - len(stream))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            if info.filename == part:
                dst.writestr(zipfile.ZipInfo(part), padded, compress_type=zipfile.ZIP_STORED)
            else:
                dst.writestr(info.filename, src.read(info.filename))
    blob = bytearray(out.getvalue())
    name = part.encode()
    crc = zlib.crc32(raw)
    local = blob.find(b"PK\x03\x04")
    while local >= 0:  # local header: method @8, crc @14, sizes @18/@22, name @30
        n, e = struct.unpack_from("<HH", blob, local + 26)
        if bytes(blob[local + 30: local + 30 + n]) == name:
            struct.pack_into("<H", blob, local + 8, zipfile.ZIP_DEFLATED)
            struct.pack_into("<II", blob, local + 14, crc, len(padded))
            struct.pack_into("<I", blob, local + 22, len(raw))
            break
        csize = struct.unpack_from("<I", blob, local + 18)[0]
        local = blob.find(b"PK\x03\x04", local + 30 + n + e + csize)
    central = blob.find(b"PK\x01\x02")
    while central >= 0:  # central record: method @10, crc @16, sizes @20/@24, name @46
        n = struct.unpack_from("<H", blob, central + 28)[0]
        if bytes(blob[central + 46: central + 46 + n]) == name:
            struct.pack_into("<H", blob, central + 10, zipfile.ZIP_DEFLATED)
            struct.pack_into("<II", blob, central + 16, crc, len(padded))
            struct.pack_into("<I", blob, central + 24, len(raw))
            break
        central = blob.find(b"PK\x01\x02", central + 46)
    return bytes(blob)
