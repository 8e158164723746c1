#!/bin/sh
# Runs each libFuzzer target for a few seconds from its seed corpus.
# usage: run-fuzz.sh BUILD_DIR SECONDS
set -eu
build=$1
seconds=$2
root=$(cd "$(dirname "$0")/.." && pwd)
status=0
for f in "$build"/fuzz_*; do
    [ -x "$f" ] || continue
    name=$(basename "$f")
    corpus="$root/tests/fuzz/corpus/${name#fuzz_}"
    work=$(mktemp -d)
    echo "fuzz: $name for ${seconds}s"
    if ! "$f" -max_total_time="$seconds" -print_final_stats=0 \
        -artifact_prefix="$work/" "$work" "$corpus" >"$work/log" 2>&1; then
        echo "fuzz: $name FAILED; its log:"
        tail -n 60 "$work/log"
        status=1
    else
        grep -E '^#[0-9]+ *DONE' "$work/log" || tail -n 1 "$work/log"
    fi
    rm -rf "$work"
done
exit $status
