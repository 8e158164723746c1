#!/bin/sh
# Runs each libFuzzer target from its seed corpus.
# usage: run-fuzz.sh BUILD_DIR SECONDS [RUNS]
# With RUNS the run is repeatable (a fixed seed and a fixed number of
# inputs, SECONDS only as a cap): that is what the test suite uses, so CI
# does not pass or fail by luck. Without it, fuzz for SECONDS at random.
set -eu
build=$1
seconds=$2
runs=${3:-}
if [ -n "$runs" ]; then
    limits="-seed=1 -runs=$runs"
else
    limits=""
fi
root=$(cd "$(dirname "$0")/.." && pwd)
status=0
for f in "$build"/fuzz_*; do
    [ -x "$f" ] || continue
    name=$(basename "$f")
    corpus="$root/tests/fuzz/corpus/${name#fuzz_}"
    # A target whose every input plays a whole fight is slow: its file
    # tests/fuzz/NAME.runs caps the repeatable run's inputs. The caps
    # split the stage's time (about 4 minutes on one core) among the
    # targets: 99 Towers' command, journal and load targets gave half
    # their inputs to Alloy's (fuzz_alloy_command 10000 inputs, about
    # 16 s; fuzz_alloy_load 12000, 21 s; fuzz_alloy_journal 100000, 25 s).
    limits_here=$limits
    if [ -n "$runs" ] && [ -f "$root/tests/fuzz/$name.runs" ]; then
        cap=$(cat "$root/tests/fuzz/$name.runs")
        [ "$cap" -lt "$runs" ] && limits_here="-seed=1 -runs=$cap"
    fi
    work=$(mktemp -d)
    echo "fuzz: $name for ${seconds}s${runs:+ at most, ${limits_here#-seed=1 -runs=} inputs, seed 1}"
    # shellcheck disable=SC2086
    if ! "$f" -max_total_time="$seconds" $limits_here -print_final_stats=0 \
        -artifact_prefix="$work/" "$work" "$corpus" >"$work/log" 2>&1; then
        echo "fuzz: $name FAILED; its log:"
        grep -v -E '^#[0-9]+ ' "$work/log" | tail -n 40
        # Keep what crashed, and show it, so the failure can be replayed:
        #   $f ARTIFACT
        mkdir -p "$build/fuzz-artifacts"
        for a in "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-*; do
            [ -f "$a" ] || continue
            cp "$a" "$build/fuzz-artifacts/"
            echo "fuzz: input kept as $build/fuzz-artifacts/$(basename "$a"):"
            od -c "$a" | head -n 20
        done
        status=1
    else
        grep -E '^#[0-9]+ *DONE' "$work/log" || tail -n 1 "$work/log"
    fi
    rm -rf "$work"
done
exit $status
