"""PyInstaller entry script: the frozen ``assistant`` executable runs this.

It is the console script ``assistant = assistant.cli:main`` in a form
PyInstaller can analyse (a file, not an entry point).
"""

import sys

from assistant.cli import main

if __name__ == "__main__":
    sys.exit(main())
