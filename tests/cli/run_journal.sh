#!/usr/bin/env bash
# Issue 11, "Nothing acknowledged is lost" and "Bounded time": the table's
# journal is written ahead (docs/journal.md "On disk"). Each check runs
# the real `fray fight --table` and does to it what a careless or hostile
# week did:
#   1. kill -9, SIGTERM, SIGHUP, SIGINT once every command was told: the
#      journal holds every one of them (byte for byte the journal of the
#      same session ended with quit, less its end mark) and replays, with
#      "cut short" said;
#   2. --resume carries the killed fight on: the journal then replays to
#      the fight of one whole session;
#   3. a journal that cannot grow (ulimit -f) stops the session with exit 3
#      and leaves a journal that replays to the last event told;
#   4. an unwritable --journal is refused before the first command; an old
#      journal at the path is replaced whole, its temporary file gone; the
#      table's `journal FILE` does not replace the journal it writes ahead;
#   5. `--table < /dev/zero` ends, with exit 2, within 10 seconds.
# usage: run_journal.sh FRAY_BINARY SOURCE_DIR
set -u
fray=$1
src=$2
duel="$src/examples/towers/duel.yaml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
pass=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# The session: the clock, an attack, the tactics, undo, redo, a chip word
# that fits nothing (refused: not in the journal), more tactics.
cat >"$work/cmds.txt" <<'EOF'
next
aldric attack black-knight
auto 3
undo
undo
redo
aldric dance
auto 2
EOF
n_cmds=$(wc -l <"$work/cmds.txt")

# The reference: the same session ended with quit.
(cat "$work/cmds.txt"; echo quit) |
    "$fray" fight "$duel" --table --seed 3 --journal "$work/ref.jsonl" \
        >/dev/null 2>&1 || bad "the reference session failed"
tail -n 1 "$work/ref.jsonl" | grep -q '^{"end":{"events":[0-9]*}}$' ||
    bad "a journal ended with quit ends with its end mark"
head -n -1 "$work/ref.jsonl" >"$work/ref_body.jsonl"

# Runs the session with its input from a FIFO kept open, waits until every
# command was told (the prompt after the last one is printed: --echo, and
# the table flushes after each line), then sends signal $1.
killed_session() {
    local sig=$1 journal=$2
    rm -f "$work/in" "$work/out"
    mkfifo "$work/in"
    # (Job control on: a background job of a script ignores SIGINT else.)
    set -m
    "$fray" fight "$duel" --table --seed 3 --echo --journal "$journal" \
        <"$work/in" >"$work/out" 2>"$work/err" &
    local pid=$!
    set +m
    exec 3>"$work/in"
    cat "$work/cmds.txt" >&3
    local prompts=0
    for _ in $(seq 1 200); do
        prompts=$(grep -c '> ' "$work/out" 2>/dev/null)
        [ "$prompts" -gt "$n_cmds" ] && break
        sleep 0.05
    done
    kill -s "$sig" "$pid"
    wait "$pid" 2>/dev/null
    exec 3>&-
    [ "$prompts" -gt "$n_cmds" ]
}

# 1. Killed once everything was told.
for sig in KILL TERM HUP INT; do
    j="$work/killed_$sig.jsonl"
    if ! killed_session "$sig" "$j"; then
        bad "SIG$sig: the session did not tell every command"
        continue
    fi
    if cmp -s "$j" "$work/ref_body.jsonl"; then ok; else
        bad "SIG$sig: the journal is not every command told"
        diff <(cut -c1-80 "$work/ref_body.jsonl") <(cut -c1-80 "$j") | head
    fi
    "$fray" replay "$duel" "$j" --quiet >"$work/replayed" 2>"$work/replay_err"
    st=$?
    if [ $st -eq 0 ] && grep -q 'cut short after event' "$work/replay_err"; then
        ok
    else
        bad "SIG$sig: replay of the killed journal (exit $st):" \
            "$(cat "$work/replay_err")"
    fi
done

# 2. --resume: kill -9 after the first half, carry on with the second.
head -n 4 "$work/cmds.txt" >"$work/first.txt"
tail -n +5 "$work/cmds.txt" >"$work/second.txt"
cp "$work/cmds.txt" "$work/all.txt"
cp "$work/first.txt" "$work/cmds.txt"
n_cmds=4
if killed_session KILL "$work/resumed.jsonl"; then
    (cat "$work/second.txt"; echo quit) |
        "$fray" fight "$duel" --table --resume "$work/resumed.jsonl" \
            >/dev/null 2>"$work/resume_err"
    st=$?
    "$fray" replay "$duel" "$work/resumed.jsonl" --json >"$work/a" 2>&1
    "$fray" replay "$duel" "$work/ref.jsonl" --json >"$work/b" 2>&1
    if [ $st -eq 0 ] && cmp -s "$work/a" "$work/b" &&
        grep -q 'cut short' "$work/resume_err"; then ok; else
        bad "--resume (exit $st) does not give the fight of one session"
        diff <(cut -c1-80 "$work/a") <(cut -c1-80 "$work/b") | head
    fi
else
    bad "--resume: the first half was not told"
fi
cp "$work/all.txt" "$work/cmds.txt"

# 3. A journal that cannot grow: the session stops (exit 3) at the first
# event it cannot write, and the file replays to the last event told.
(
    trap '' XFSZ
    ulimit -f 8
    (echo next; for _ in $(seq 1 40); do echo 'auto 1'; done; echo quit) |
        "$fray" fight "$duel" --table --seed 3 --journal "$work/full.jsonl" \
            >"$work/full_out" 2>"$work/full_err"
    echo $? >"$work/full_status"
)
st=$(cat "$work/full_status")
if [ "$st" = 3 ] && grep -q 'the fight stops here' "$work/full_err" &&
    [ "$(tail -c 1 "$work/full.jsonl" | od -An -c | tr -d ' ')" = '\n' ]; then
    ok
else
    bad "a journal that cannot grow: exit $st, $(cat "$work/full_err")"
fi
if "$fray" replay "$duel" "$work/full.jsonl" --quiet >/dev/null 2>&1; then
    ok
else
    bad "the journal of a stopped session does not replay"
fi
# The last event told is the journal's last.
last_told=$(grep -c '^Phase [0-9]*, round' "$work/full_out")
in_file=$("$fray" replay "$duel" "$work/full.jsonl" 2>/dev/null |
    grep -c '^Phase [0-9]*, round')
if [ "$last_told" = "$in_file" ]; then ok; else
    bad "told $last_told actions, the journal has $in_file"
fi

# 4. An unwritable journal: refused before the first command; an old
# journal at a path that cannot be replaced is left as it was.
out=$(echo next | "$fray" fight "$duel" --table --journal \
    "$work/no-such-dir/j.jsonl" 2>&1)
st=$?
if [ $st -eq 2 ] && ! grep -q 'phase' <<<"$out" &&
    grep -q "cannot write the journal" <<<"$out"; then ok; else
    bad "an unwritable journal: exit $st: $out"
fi
cp "$work/ref.jsonl" "$work/old.jsonl"
mkdir "$work/old.jsonl.d"
echo quit | "$fray" fight "$duel" --table --seed 5 --journal "$work/old.jsonl" \
    >/dev/null 2>&1
if "$fray" replay "$duel" "$work/old.jsonl" --quiet >/dev/null 2>&1 &&
    ! cmp -s "$work/old.jsonl" "$work/ref.jsonl" &&
    [ -z "$(ls -A "$work" | grep '^\.old')" ]; then ok; else
    bad "a journal replaced: not whole, or its temporary file left behind"
fi

# The table's `journal FILE` cannot rename a snapshot over the journal it
# writes ahead (the file it appends to would be lost): refused.
printf 'next\njournal %s\naldric attack black-knight\nquit\n' \
    "$work/ahead.jsonl" |
    "$fray" fight "$duel" --table --seed 3 --journal "$work/ahead.jsonl" \
        >/dev/null 2>"$work/ahead_err"
if grep -q 'is the journal this table writes as it goes' "$work/ahead_err" &&
    [ "$(grep -c '"action":"attack"' "$work/ahead.jsonl")" = 1 ] &&
    tail -n 1 "$work/ahead.jsonl" | grep -q '^{"end":{"events":3}}$'; then
    ok
else
    bad "journal FILE over the journal written ahead: $(cat "$work/ahead_err")"
fi

# 5. Bounded time: /dev/zero is refused, not read forever.
timeout 10 "$fray" fight "$duel" --table --seed 3 </dev/zero >/dev/null \
    2>"$work/zero_err"
st=$?
if [ $st -eq 2 ] && grep -q 'not table commands' "$work/zero_err"; then ok; else
    bad "--table < /dev/zero: exit $st (124: still running after 10 s)"
fi

# 6. Alloy (seed 004): a table's journal with dice rolled by hand, undo and
# redo replays to the fight the session ended with; kill -9 after the
# commands loses none of them; --resume carries the fight on.
aduel="$src/examples/alloy/duel.yaml"
cat >"$work/acmds.txt" <<'EOC'
next
vance attack lyra dice 15 4
undo
redo
vance end
next
lyra attack vance dice 2
auto 3
EOC
(cat "$work/acmds.txt"; echo status; echo quit) |
    "$fray" fight "$aduel" --table --seed 3 --journal "$work/alloy.jsonl" \
        >"$work/alloy_out" 2>&1 || bad "Alloy: the table session failed"
told=$(sed -n '/^The fight goes on/,$p' "$work/alloy_out" | head -n 3)
"$fray" replay "$aduel" "$work/alloy.jsonl" --quiet >"$work/alloy_replayed" \
    2>&1
if [ "$told" = "$(cat "$work/alloy_replayed")" ] &&
    grep -q '"v":15' "$work/alloy.jsonl" &&
    tail -n 1 "$work/alloy.jsonl" | grep -q '^{"end":'; then ok; else
    bad "Alloy: the journal replays to another fight:" \
        "$told // $(cat "$work/alloy_replayed")"
fi
# Killed once every command was told; then carried on with --resume.
duel=$aduel
cp "$work/acmds.txt" "$work/cmds.txt"
n_cmds=$(wc -l <"$work/cmds.txt")
head -n -1 "$work/alloy.jsonl" >"$work/alloy_body.jsonl"
if killed_session KILL "$work/alloy_killed.jsonl"; then
    if cmp -s "$work/alloy_killed.jsonl" "$work/alloy_body.jsonl"; then ok; else
        bad "Alloy, SIGKILL: the journal is not every command told"
    fi
    echo quit | "$fray" fight "$aduel" --table \
        --resume "$work/alloy_killed.jsonl" >"$work/alloy_resumed" 2>&1
    if grep -q 'events replayed, round ' "$work/alloy_resumed" &&
        "$fray" replay "$aduel" "$work/alloy_killed.jsonl" --quiet |
        cmp -s - "$work/alloy_replayed"; then ok; else
        bad "Alloy, --resume: $(head -n 3 "$work/alloy_resumed")"
    fi
else
    bad "Alloy, SIGKILL: the session did not tell every command"
fi

echo "journal: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
