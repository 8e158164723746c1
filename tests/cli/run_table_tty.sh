#!/bin/sh
# The table on a terminal (src/cli/cmd_table.c; issue 13, section 3):
# `fray fight --table` with stdin a terminal reads its lines through
# libedit. Run in a pty made by script(1): a backspace edits the line
# ("statux", backspace, "s" is status), the up arrow recalls the last
# command from the session's history, Tab completes an id ("to" is
# "tony"), and the history is kept in the
# file FRAY_TABLE_HISTORY names. The build links libedit. (Scripts, stdin
# not a terminal, are read as before: the table goldens, run_golden.sh.)
# usage: run_table_tty.sh FRAY_BINARY SOURCE_DIR; exit 77: skipped.
set -u
fray=$1
src=$2
if ! command -v script >/dev/null 2>&1; then
    echo "skipped: no script(1) to make a pty"
    exit 77
fi
if command -v ldd >/dev/null 2>&1 && ! ldd "$fray" | grep -q libedit; then
    echo "FAIL: $fray does not link libedit"
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
FRAY_TABLE_HISTORY="$tmp/history"
export FRAY_TABLE_HISTORY
# (The pauses let libedit take the terminal before the keys come.)
{
    sleep 0.5; printf 'statux\177s\r'
    sleep 0.3; printf 'gm set tony stun 20\r'
    sleep 0.3; printf 'gm adjust tony stun -5\r'
    sleep 0.3; printf '\033[A\r'
    sleep 0.3; printf 'gm set to\t stun 22\r'
    sleep 0.3; printf 'quit\r'
    sleep 0.3
} | timeout 20 script -qfec "'$fray' fight -C '$src' examples/towers/reinforcements.yaml --table --seed 3" /dev/null \
    > "$tmp/out" 2>&1
if ! [ -s "$tmp/out" ]; then
    echo "skipped: script(1) made no pty here"
    exit 77
fi
out=$(tr -d '\r' < "$tmp/out")
fail=0
check() {
    if ! printf '%s\n' "$out" | grep -qF -- "$1"; then
        echo "FAIL: $2 (no '$1' in the session)"
        fail=1
    fi
}
check "At the table: 'help' lists the commands" "the terminal's greeting"
check "The fight goes on (phase 0)." "backspace: 'statux' edited to 'status'"
check "The GM adjusts Tony's STUN by -5, to 15 (was 20)." "the command"
check "The GM adjusts Tony's STUN by -5, to 10 (was 15)." \
    "the up arrow recalls the last command"
check "The GM sets Tony's STUN to 22 (was 10)." "Tab completes 'to' to 'tony'"
if ! grep -q 'gm.040adjust.040tony' "$tmp/history" 2>/dev/null &&
   ! grep -q 'gm adjust tony' "$tmp/history" 2>/dev/null; then
    echo "FAIL: the history file $FRAY_TABLE_HISTORY keeps no command"
    fail=1
fi
if [ "$fail" -ne 0 ]; then
    printf '%s\n' "--- the session:" "$out"
    exit 1
fi
echo "ok: the table on a terminal (libedit)"
