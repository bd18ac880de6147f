"""The built-in file tools (all file access goes through ``ctx.workspace``).

Risk classes: list_dir, read_file, find_files, grep, file_info: read;
write_file, combine_files: write (destructive when they overwrite); edit_file: write;
move, copy, rename_many, delete: destructive.
"""

from tools.files.reading import file_info, find_files, grep, list_dir, read_file
from tools.files.writing import (apply_edit, combine_files, copy, delete, edit_file, move, preview_diff, rename_many,
                                 write_file)

FILE_TOOLS = [list_dir, read_file, write_file, edit_file, move, rename_many, copy, combine_files, delete, find_files,
              grep, file_info]
"""The file tools in the order the model sees them."""

__all__ = [
    "FILE_TOOLS",
    "apply_edit",
    "combine_files",
    "copy",
    "delete",
    "edit_file",
    "file_info",
    "find_files",
    "grep",
    "list_dir",
    "move",
    "preview_diff",
    "read_file",
    "rename_many",
    "write_file",
]
