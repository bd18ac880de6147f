#!/usr/bin/env bash
# Install (or remove) the one-folder build for the current user.
#
# Usage: packaging/install.sh [--from DIR] [--prefix DIR] [--uninstall]
#   --from DIR    the built app folder (default: dist/assistant next to packaging/)
#   --prefix DIR  install root (default: ~/.local); the app goes to PREFIX/lib/assistant,
#                 a link to PREFIX/bin/assistant, the desktop entry to
#                 ${XDG_DATA_HOME:-PREFIX/share}/applications/assistant.desktop
#   --uninstall   remove those three things (never your config, tasks or models,
#                 which live in the XDG config/state/data folders)
# Exit: 0 done; 1 installed but its llama.cpp cannot run on this CPU (the canary); 2 usage error.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
from="$(dirname "$here")/dist/assistant"
prefix="$HOME/.local"
action=install
while [ $# -gt 0 ]; do
    case "$1" in
        --from) from="${2:?--from needs a folder}"; shift 2 ;;
        --prefix) prefix="${2:?--prefix needs a folder}"; shift 2 ;;
        --uninstall) action=uninstall; shift ;;
        -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done

app_dir="$prefix/lib/assistant"
bin_link="$prefix/bin/assistant"
if [ -n "${XDG_DATA_HOME:-}" ] && [ "$prefix" = "$HOME/.local" ]; then
    apps_dir="$XDG_DATA_HOME/applications"
else
    apps_dir="$prefix/share/applications"
fi
desktop="$apps_dir/assistant.desktop"

if [ "$action" = uninstall ]; then
    rm -rf "$app_dir"
    if [ -L "$bin_link" ] && [ "$(readlink "$bin_link")" = "$app_dir/assistant" ]; then rm -f "$bin_link"; fi
    rm -f "$desktop"
    echo "removed $app_dir, $bin_link and $desktop (your config, tasks and models are kept)"
    exit 0
fi

if [ ! -x "$from/assistant" ]; then
    echo "install.sh: no built app at $from (expected $from/assistant); build it first: packaging/build.sh" >&2
    exit 2
fi
if [ -e "$bin_link" ] && [ ! -L "$bin_link" ]; then
    echo "install.sh: $bin_link exists and is not our link (a pipx install?); remove it or use --prefix" >&2
    exit 2
fi

mkdir -p "$prefix/lib" "$prefix/bin" "$apps_dir"
# Copy next to the old version, then swap: a failed copy leaves the old install working.
staging="$(mktemp -d "$prefix/lib/.assistant.XXXXXX")"
trap 'rm -rf "$staging"' EXIT
cp -a "$from/." "$staging/"
old=""
if [ -e "$app_dir" ]; then
    old="$prefix/lib/.assistant.old.$$"
    mv "$app_dir" "$old"
fi
mv "$staging" "$app_dir"
[ -n "$old" ] && rm -rf "$old"
ln -sfn "$app_dir/assistant" "$bin_link"
sed -e "s|^Exec=.*|Exec=$app_dir/assistant|" -e "s|^TryExec=.*|TryExec=$app_dir/assistant|" \
    "$here/assistant.desktop" > "$desktop.tmp"
mv "$desktop.tmp" "$desktop"
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database "$apps_dir" >/dev/null 2>&1 || true
# The canary: the bundled llama.cpp must run on this CPU (a build for another machine can die
# with an illegal instruction); it runs a tiny model in a subprocess and says what to do if not.
if ! "$app_dir/assistant" doctor --canary; then
    echo "install.sh: installed, but its llama.cpp cannot run on this CPU; build the app on this machine:" \
         "make rebuild-llama && packaging/build.sh && packaging/install.sh" >&2
    exit 1
fi
echo "installed $app_dir; run: $bin_link (make sure $prefix/bin is on PATH)"
