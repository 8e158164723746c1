#!/bin/sh
# run.sh - fray's Alloy duel against the npm package dnd-combat-simulator
# (issue 12 section 3: the aim is fray >= 25x its duels per second).
#
# Installs dnd-combat-simulator into this folder (node_modules, kept out
# of git), runs the comparable duel N times in node (duel.js), and runs
# bench_sim --alloy for fray's rates measured in the same run: the duel
# as `fray sim` runs it (src/rules/alloy/quick.c's shortcut: the duel
# qualifies), the long way (the engine step by step) and the bare loop.
#
# usage: bench/d20-compare/run.sh [N] [BUILD_DIR]
#   N          duels for node (default 200000)
#   BUILD_DIR  where bench_sim is (default: build, from the repository root)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
n=${1:-200000}
build=${2:-$root/build}

command -v node >/dev/null 2>&1 || { echo "run.sh: node is not installed" >&2; exit 1; }
command -v npm >/dev/null 2>&1 || { echo "run.sh: npm is not installed" >&2; exit 1; }
if [ ! -x "$build/bench_sim" ]; then
    echo "run.sh: $build/bench_sim not built (cmake --build build --target bench_sim)" >&2
    exit 1
fi
btype=$(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$build/CMakeCache.txt" 2>/dev/null || true)
if [ "$btype" != "Release" ]; then
    echo "run.sh: note: $build is a ${btype:-unknown} build; speeds are meant from a Release one" >&2
    echo "  (cmake -S . -B build-rel -G Ninja -DCMAKE_BUILD_TYPE=Release; then run.sh N build-rel)" >&2
fi

if [ ! -d "$here/node_modules/dnd-combat-simulator" ]; then
    if ! (cd "$here" && npm install --no-audit --no-fund --loglevel=error >/dev/null); then
        echo "run.sh: npm could not install dnd-combat-simulator (is the npm registry reachable?)" >&2
        exit 1
    fi
fi

echo "node $(node --version), dnd-combat-simulator $(node -p "require('$here/node_modules/dnd-combat-simulator/package.json').version")"
js=$(cd "$here" && node duel.js "$n")
echo "$js"
fray=$("$build/bench_sim" --alloy)
echo "$fray" | grep -E '^alloy-(duel|long|bare)-fights-per-s'

js_rate=$(echo "$js" | awk '/^dnd-combat-simulator-duels-per-s/ {print $2}')
fray_rate=$(echo "$fray" | awk '/^alloy-duel-fights-per-s/ {print $2}')
bare_rate=$(echo "$fray" | awk '/^alloy-bare-fights-per-s/ {print $2}')
long_rate=$(echo "$fray" | awk '/^alloy-long-fights-per-s/ {print $2}')
echo
printf '%-34s %14s\n' "duels per second" ""
printf '%-34s %14s\n' "dnd-combat-simulator (node)" "$js_rate"
if [ "${fray_rate:-0}" = "0" ]; then
    printf '%-34s %14s\n' "fray Alloy duel (engine)" "-"
    echo "(fray's Alloy engine is not built in this tree: no engine rate; its bare dice loop: $bare_rate)"
else
    printf '%-34s %14s\n' "fray Alloy duel (fray sim's path)" "$fray_rate"
    awk -v f="$fray_rate" -v j="$js_rate" 'BEGIN { printf "%-34s %13.1fx (aim: 25x)\n", "fray / dnd-combat-simulator", f / j }'
    if [ -n "${long_rate:-}" ]; then
        printf '%-34s %14s\n' "fray Alloy duel (the long way)" "$long_rate"
        awk -v f="$long_rate" -v j="$js_rate" 'BEGIN { printf "%-34s %13.1fx\n", "long way / dnd-combat-simulator", f / j }'
    fi
fi
printf '%-34s %14s\n' "fray bare dice loop" "$bare_rate"
awk -v f="$bare_rate" -v j="$js_rate" 'BEGIN { printf "%-34s %13.1fx\n", "bare loop / dnd-combat-simulator", f / j }'
