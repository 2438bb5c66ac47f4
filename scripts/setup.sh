#!/usr/bin/env bash
# Installs the system packages Rewind needs, and only those that are missing.
# Debian/Ubuntu: apt-get (as root, or through sudo). macOS: prints the Homebrew command to run.
set -euo pipefail

apt_packages=(libwebsockets-dev libncurses-dev libsqlite3-dev tmux pkg-config)
brew_packages=(libwebsockets ncurses sqlite tmux pkg-config)

if [[ "$(uname -s)" == "Darwin" ]]; then
    missing=()
    for p in "${brew_packages[@]}"; do
        brew list --versions "$p" >/dev/null 2>&1 || missing+=("$p")
    done
    if ((${#missing[@]})); then
        echo "setup: missing Homebrew packages. Run:  brew install ${missing[*]}" >&2
        exit 1
    fi
    exit 0
fi

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "setup: not a Debian-family system; install these yourself: ${apt_packages[*]}" >&2
    exit 0
fi

missing=()
for p in "${apt_packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
((${#missing[@]})) || exit 0

echo "setup: installing ${missing[*]}" >&2
sudo=()
if [[ "$(id -u)" != 0 ]]; then
    command -v sudo >/dev/null 2>&1 || { echo "setup: need root or sudo to run apt-get install ${missing[*]}" >&2; exit 1; }
    sudo=(sudo)
fi
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
