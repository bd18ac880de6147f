"""Table tools: read-only SQL over the workspace's CSV/TSV files and Excel sheets.

``TABLE_TOOLS`` is the list the registry adds (risk class: read).
"""

from tools.base import Tool
from tools.tables.loading import Column, Table, load_tables
from tools.tables.query import table_query

TABLE_TOOLS: list[Tool] = [table_query]

__all__ = ["TABLE_TOOLS", "Column", "Table", "load_tables", "table_query"]
