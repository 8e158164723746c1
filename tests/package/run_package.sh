#!/usr/bin/env bash
# Issue 15 "A clean package for developers": fray installed into a fresh
# prefix, and a program built against it with pkg-config alone (the shared
# library, then the static one with --static) compiles, links and runs a
# fight of each ruleset.
# usage: run_package.sh BUILD_DIR SOURCE_DIR [sanitize|plain]
# (sanitize: the build's library has ASan and UBSan in it; so has the
# program then.)
set -u
build=$1
src=$2
san=
[ "${3:-plain}" = sanitize ] && san="-fsanitize=address,undefined"
if ! command -v pkg-config >/dev/null || ! command -v cc >/dev/null; then
    echo "no pkg-config or cc here: skipped"
    exit 77
fi
prefix=$(mktemp -d /tmp/fray-package-XXXXXX) || exit 1
trap 'rm -rf "$prefix"' EXIT
if ! cmake --install "$build" --prefix "$prefix" >"$prefix/install.log" 2>&1; then
    echo "FAIL: cmake --install"
    cat "$prefix/install.log"
    exit 1
fi
libdir=$(find "$prefix" -name fray.pc -path '*pkgconfig*' -printf '%h\n' | head -1)
if [ -z "$libdir" ]; then
    echo "FAIL: no fray.pc was installed"
    exit 1
fi
export PKG_CONFIG_PATH=$libdir
fail=0
encounters="$src/examples/towers/duel.yaml $src/examples/alloy/duel.yaml"
for kind in shared static; do
    flags=$(pkg-config --cflags --libs fray) || { echo "FAIL: pkg-config fray"; exit 1; }
    [ "$kind" = static ] && flags=$(pkg-config --static --cflags --libs fray | sed 's/-lfray/-l:libfray.a/')
    if ! cc -std=c17 -Wall -Wextra -Werror $san -o "$prefix/embed-$kind" \
        "$src/tests/package/embed.c" $flags 2>"$prefix/cc.log"; then
        echo "FAIL: the $kind build: cc ... $flags"
        cat "$prefix/cc.log"
        fail=1
        continue
    fi
    # (The shared library from the prefix, not from the build tree.)
    out=$(LD_LIBRARY_PATH=$(dirname "$libdir") "$prefix/embed-$kind" $encounters 2>&1)
    status=$?
    if [ $status -ne 0 ] || ! printf '%s\n' "$out" | grep -q "(towers)" ||
        ! printf '%s\n' "$out" | grep -q "(alloy)"; then
        echo "FAIL: the $kind program ran (status $status):"
        printf '%s\n' "$out"
        fail=1
    else
        echo "ok: $kind"
        printf '%s\n' "$out" | sed 's/^/  /'
    fi
done
exit $fail
