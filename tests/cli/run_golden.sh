#!/usr/bin/env bash
# Golden-output tests of the fray command. Each line of cases.txt is
#   NAME  ARGS...
# (shell quoting allowed). Standard input is empty unless the case ends
# with a redirection from a script, < "$dir/input/NAME.txt" (fray fight
# --table). The expected stdout, stderr and exit status of `fray ARGS`
# are in golden/NAME.out. UPDATE_GOLDEN=1 rewrites them.
# usage: run_golden.sh FRAY_BINARY TESTS_CLI_DIR
set -u
fray=$1
dir=$2
pass=0
fail=0
while IFS= read -r line; do
    case "$line" in ''|'#'*) continue ;; esac
    name=${line%% *}
    args=${line#* }
    expected="$dir/golden/$name.out"
    actual=$(mktemp)
    {
        eval "\"$fray\" $args" </dev/null 2>"$actual.err"
        status=$?
        echo "--- stderr"
        cat "$actual.err"
        echo "--- exit $status"
    } >"$actual"
    if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
        cp "$actual" "$expected"
        pass=$((pass + 1))
    elif [ -f "$expected" ] && cmp -s "$actual" "$expected"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $name (fray $args)"
        if [ -f "$expected" ]; then
            diff -u "$expected" "$actual" | head -40
        else
            echo "  no golden file $expected"
        fi
    fi
    rm -f "$actual" "$actual.err"
done <"$dir/cases.txt"
echo "cli golden: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
