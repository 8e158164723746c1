#!/usr/bin/env bash
# Issue 11 "sim --json after Ctrl-C reports the requested trials, not those
# run": `fray sim` stopped by SIGINT exits 130 (docs/fray.1 "EXIT STATUS"),
# says so on stderr, and its report counts the fights it ran: in JSON
# "trials" is the sum of the variants' trials and below "trials_requested",
# with "interrupted": true; in text "stopped after N of M fights". A run
# that is not stopped says "interrupted": false and ran all it was asked.
# usage: run_sim_interrupt.sh FRAY_BINARY SOURCE_DIR
set -u
fray=$1
cd "$2" || exit 1
enc=examples/towers/skirmish.yaml
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL: $*"
}

# run_interrupted NAME ARGS...: fray sim ARGS, SIGINT after a second; waits
# at most 20 s for it to stop. Sets status; output in $tmp/NAME.out/.err.
run_interrupted() {
    local name=$1
    shift
    "$fray" sim "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" </dev/null &
    local pid=$!
    # Ctrl-C once fray catches it: a background job of a script starts with
    # SIGINT ignored, so a signal sent before fray sim sets its handler
    # (after loading, which a loaded machine or a sanitizer build can make
    # slow) would be lost. /proc says when the handler is set (SigCgt, the
    # bit of signal 2); then a second of simulation.
    local tries=0
    while [ $tries -lt 600 ] && kill -0 "$pid" 2>/dev/null; do
        local cgt
        cgt=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$pid/status" 2>/dev/null)
        [ -n "$cgt" ] && [ $((0x$cgt & 2)) -ne 0 ] && break
        sleep 0.1
        tries=$((tries + 1))
    done
    sleep 1
    kill -INT "$pid"
    local waited=0
    while kill -0 "$pid" 2>/dev/null && [ $waited -lt 200 ]; do
        sleep 0.1
        waited=$((waited + 1))
    done
    if kill -0 "$pid" 2>/dev/null; then
        kill -KILL "$pid"
        bad "$name: still running 20 s after Ctrl-C"
    fi
    wait "$pid"
    status=$?
}

# json_field NAME FILE: the first top-level number or boolean called NAME.
json_field() { sed -n "s/^{.*\"$1\":\([0-9a-z]*\).*/\1/p" "$2" | head -1; }

# 1. One variant, JSON.
run_interrupted one --threads 1 -n 100000000 --json $enc
trials=$(json_field trials "$tmp/one.out")
requested=$(json_field trials_requested "$tmp/one.out")
interrupted=$(json_field interrupted "$tmp/one.out")
variant_trials=$(grep -o '"variants":\[{"trials":[0-9]*' "$tmp/one.out" | grep -o '[0-9]*$')
if [ "$status" -eq 130 ] && [ "$requested" = 100000000 ] &&
    [ -n "$trials" ] && [ "$trials" -lt "$requested" ] &&
    [ "$interrupted" = true ] && [ "${variant_trials:-0}" = "$trials" ] &&
    grep -q "stopped (Ctrl-C) after $trials of 100000000 fights" "$tmp/one.err"; then
    ok
else
    bad "one variant --json: exit $status, trials '$trials' (variant" \
        "'$variant_trials') of '$requested', interrupted '$interrupted';" \
        "stderr: $(cat "$tmp/one.err")"
fi

# 2. A sweep, text: the header says how far it got.
run_interrupted sweep --threads 1 -n 50000000 --vary wren.PA=2..4 $enc
if [ "$status" -eq 130 ] &&
    grep -q "^Skirmish at the Waystation: stopped after [0-9,]* of 150,000,000 fights (50,000,000 per variant), seed" "$tmp/sweep.out"; then
    ok
else
    bad "sweep: exit $status; stdout: $(head -3 "$tmp/sweep.out"); stderr: $(cat "$tmp/sweep.err")"
fi

# 3. Not stopped: everything asked for ran.
"$fray" sim -n 300 --threads 2 --json $enc >"$tmp/all.out" 2>"$tmp/all.err"
status=$?
if [ "$status" -eq 0 ] && [ "$(json_field trials "$tmp/all.out")" = 300 ] &&
    [ "$(json_field trials_requested "$tmp/all.out")" = 300 ] &&
    [ "$(json_field interrupted "$tmp/all.out")" = false ]; then
    ok
else
    bad "a whole run: exit $status; $(head -c 200 "$tmp/all.out")"
fi

echo "cli sim interrupt: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
