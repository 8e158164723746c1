#!/bin/sh
# Installs every Debian package fray needs to build, test and fuzz.
# Does nothing when all are present; uses sudo when not root.
set -eu

PACKAGES="build-essential cmake ninja-build pkg-config clang libclang-rt-14-dev
libcriterion-dev libjansson-dev libfyaml-dev libedit-dev libgmp-dev libopenmpi-dev openmpi-bin
libsqlite3-dev libcivetweb-dev curl jq"

missing=""
for p in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done

[ -z "$missing" ] && exit 0

echo "fray: installing missing packages:$missing"
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
