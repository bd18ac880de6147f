#!/usr/bin/env bash
# Build the one-folder app: dist/assistant/assistant (+ dist/assistant/_internal/).
#
# Usage: packaging/build.sh            (uses .venv/bin/python, or $PYTHON)
# Env:   PYTHON=path/to/python  DIST=output folder (default dist)  WORK=scratch (default build/pyinstaller)
# Needs: the project installed in that Python with the `package` extra (PyInstaller):
#        pip install -e '.[package]'
# Exit:  0 built and `assistant --help` runs; 1 build failed; 2 PyInstaller missing.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
PYTHON="${PYTHON:-$root/.venv/bin/python}"
DIST="${DIST:-$root/dist}"
WORK="${WORK:-$root/build/pyinstaller}"

if ! "$PYTHON" -P -c "import PyInstaller" 2>/dev/null; then
    echo "build.sh: PyInstaller is not installed in $PYTHON; run: $PYTHON -m pip install -e '$root[package]'" >&2
    exit 2
fi
mkdir -p "$WORK" "$DIST"
# Run from the scratch folder with -P: the source tree's `packaging/` folder
# must not shadow the PyPI `packaging` library that PyInstaller imports.
cd "$WORK"
start=$(date +%s)
"$PYTHON" -P -m PyInstaller --noconfirm --clean --log-level WARN \
    --distpath "$DIST" --workpath "$WORK" "$here/assistant.spec" || { echo "build.sh: PyInstaller failed" >&2; exit 1; }
"$DIST/assistant/assistant" --help >/dev/null || { echo "build.sh: the built app does not start" >&2; exit 1; }
"$DIST/assistant/assistant" doctor --canary || { echo "build.sh: the built app's llama.cpp does not run on this CPU" >&2; exit 1; }
echo "built $DIST/assistant in $(( $(date +%s) - start )) s ($(du -sh "$DIST/assistant" | cut -f1))"
