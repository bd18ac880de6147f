"""Office tools: Word (.docx), Excel (.xlsx), CSV and PDF, read and written
through the task's workspace.

``OFFICE_TOOLS`` is the list the registry adds; :func:`pdf_bytes_to_text` is
used by the web tools for fetched PDFs.
"""

from tools.base import Tool
from tools.office.csvtools import csv_read, csv_write
from tools.office.docx_read import docx_read
from tools.office.docx_write import docx_create, docx_insert, docx_replace
from tools.office.pdf import pdf_bytes_to_text, pdf_info, pdf_read, pdf_search
from tools.office.pdf_pages import pdf_extract_pages, pdf_merge, pdf_rotate, pdf_split
from tools.office.xlsx import xlsx_info, xlsx_read
from tools.office.xlsx_write import xlsx_add_sheet, xlsx_append_rows, xlsx_recalc, xlsx_write

OFFICE_TOOLS: list[Tool] = [
    docx_read,
    docx_create,
    docx_replace,
    docx_insert,
    xlsx_info,
    xlsx_read,
    xlsx_write,
    xlsx_add_sheet,
    xlsx_append_rows,
    xlsx_recalc,
    csv_read,
    csv_write,
    pdf_info,
    pdf_read,
    pdf_search,
    pdf_merge,
    pdf_extract_pages,
    pdf_split,
    pdf_rotate,
]

__all__ = ["OFFICE_TOOLS", "pdf_bytes_to_text"]
