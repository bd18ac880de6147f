"""PyInstaller entry script: the frozen ``assistant`` executable runs this.

It is the console script ``assistant = assistant.cli:main`` in a form
PyInstaller can analyse (a file, not an entry point).
"""

import sys

if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--canary-child":  # model.canary runs the build check here
        del sys.argv[1]
        from model.canary import run_child

        run_child()
        sys.exit(0)
    from assistant.cli import main

    sys.exit(main())
