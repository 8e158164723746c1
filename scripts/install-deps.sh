#!/bin/sh
# Installs every Debian package fray needs to build, test and fuzz.
# Does nothing when all are present; uses sudo when not root.
set -eu

PACKAGES="build-essential cmake ninja-build pkg-config clang libclang-rt-14-dev
libcriterion-dev libjansson-dev libfyaml-dev libedit-dev libgmp-dev libopenmpi-dev openmpi-bin
libsqlite3-dev libcivetweb-dev curl jq chromium"

missing=""
for p in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done

# The browser tests' node and npm (tests/web): Debian's, unless a node
# with its own npm is there already (another build of nodejs bundles npm,
# and Debian's npm package would conflict with it).
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"

if [ -n "$missing" ]; then
    echo "fray: installing missing packages:$missing"
    if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    # shellcheck disable=SC2086
    $SUDO apt-get install -y -qq --no-install-recommends $missing
fi

# playwright-core for the browser tests, pinned by tests/web's lock file:
# installed when node_modules is missing or older than the lock file.
web="$(dirname "$0")/../tests/web"
if [ ! -d "$web/node_modules/playwright-core" ] ||
   [ "$web/package-lock.json" -nt "$web/node_modules" ]; then
    echo "fray: npm ci in tests/web (playwright-core for the browser tests)"
    (cd "$web" && npm ci --no-audit --no-fund)
fi
