#!/usr/bin/env bash
# Every example encounter of the four rulesets simulated: each `fray sim`
# must end with exit 0. In the Debug build (the suite's sanitizer stage)
# every shortcut's check runs at each use (docs/architecture.md "Speed
# (issue 16)"), so a shortcut that disagrees with the long way stops the
# run here; the talents example once did (an armed talent's modifiers
# handed to the attack after they lapsed), and no test ran it.
# usage: run_examples_sim.sh FRAY_BINARY SOURCE_DIR
set -u
fray=$1
cd "$2" || exit 1
pass=0
fail=0
err=$(mktemp)
trap 'rm -f "$err"' EXIT
for f in examples/*/*.yaml; do
    # stat blocks and catalogs are not encounters
    grep -q '^fray: encounter' "$f" || continue
    "$fray" sim "$f" -n 300 --seed 7 --threads 2 --quiet > /dev/null 2> "$err"
    rc=$?
    if [ "$rc" -eq 0 ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: fray sim $f -n 300 --seed 7 (exit $rc):" >&2
        head -c 2000 "$err" >&2
    fi
done
echo "examples simulated: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 30 ]
