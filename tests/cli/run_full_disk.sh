#!/usr/bin/env bash
# Issue 11 "Output to a full disk": every command whose output cannot be
# written exits 3 (docs/fray.1 "EXIT STATUS") and says why on stderr, never
# 0. Standard output goes to /dev/full (every write fails with ENOSPC);
# `fray sim --report` writes under a file-size limit (ulimit -f, SIGXFSZ
# ignored: the write fails with EFBIG), and the report that was there
# before stays whole, with no temporary file left beside it.
# usage: run_full_disk.sh FRAY_BINARY SOURCE_DIR
set -u
fray=$1
src=$2
if [ ! -w /dev/full ]; then
    echo "no /dev/full here: skipped"
    exit 77
fi
cd "$src" || exit 1
duel=examples/towers/duel.yaml
pass=0
fail=0

# expect STATUS STDERR_PATTERN ARGS... (stdout to /dev/full)
expect_full() {
    local want=$1 pattern=$2
    shift 2
    local err
    err=$("$fray" "$@" 2>&1 >/dev/full </dev/null)
    local status=$?
    if [ "$status" -eq "$want" ] && printf '%s\n' "$err" | grep -q -- "$pattern"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: fray $* > /dev/full: exit $status (want $want), stderr:"
        printf '%s\n' "$err" | tail -3
    fi
}

nospace="fray: error writing standard output: No space left on device"
expect_full 3 "$nospace" --help
expect_full 3 "$nospace" version
expect_full 3 "$nospace" flip --help
expect_full 3 "$nospace" flip 3 --seed 1
expect_full 3 "$nospace" flip 3 --seed 1 --json
# A failed check (exit 1) whose answer is lost is a write error first.
expect_full 3 "$nospace" flip 1 --cards 2C --dtn 10
expect_full 3 "$nospace" roll 3d6 --seed 1
expect_full 3 "$nospace" odds flip 3
expect_full 3 "$nospace" odds attack 3 2 --json
expect_full 3 "$nospace" odds roll 3d6
expect_full 3 "$nospace" odds duel tests/data/towers/duel_knights.yaml
expect_full 3 "$nospace" check $duel
expect_full 3 "$nospace" check --json $duel
expect_full 3 "$nospace" fight $duel --seed 3
expect_full 3 "$nospace" fight $duel --seed 3 --json
expect_full 3 "$nospace" replay $duel tests/cli/input/duel_seed3.jsonl
expect_full 3 "$nospace" sim $duel -n 50 --threads 1
expect_full 3 "$nospace" sim $duel -n 50 --threads 1 --json
# Bad usage still says so, and still exits 2: nothing was to be written.
expect_full 2 "N must be a whole number, not 'x'" flip x

# Standard output closed from the start (>&-): an error only when something
# was to be written.
err=$("$fray" version 2>&1 >&- </dev/null)
status=$?
if [ "$status" -eq 3 ] && printf '%s\n' "$err" | grep -q "Bad file descriptor"; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
    echo "FAIL: fray version >&-: exit $status (want 3): $err"
fi
err=$("$fray" flip x 2>&1 >&- </dev/null)
status=$?
if [ "$status" -eq 2 ] && ! printf '%s\n' "$err" | grep -q "writing"; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
    echo "FAIL: fray flip x >&-: exit $status (want 2, no write error): $err"
fi

# --report to a file that cannot grow past 1 KB (the report is ~10 KB).
tmp=$(mktemp -d)
"$fray" sim $duel -n 20 --threads 1 --report "$tmp/r.svg" >/dev/null
before=$(cksum <"$tmp/r.svg")
err=$( (trap '' XFSZ; ulimit -f 1
        "$fray" sim $duel -n 40 --threads 1 --report "$tmp/r.svg") 2>&1 >/dev/null)
status=$?
after=$(cksum <"$tmp/r.svg")
left=$(find "$tmp" -name '.r.svg.*' | wc -l)
if [ "$status" -eq 3 ] && [ "$before" = "$after" ] && [ "$left" -eq 0 ] &&
    printf '%s\n' "$err" | grep -q "cannot write the report to '$tmp/r.svg': File too large"; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
    echo "FAIL: sim --report under ulimit -f 1: exit $status (want 3), old report" \
         "$([ "$before" = "$after" ] && echo kept || echo CHANGED), $left temporary" \
         "files left, stderr: $err"
fi
rm -rf "$tmp"

echo "cli full disk: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
