#!/bin/sh
# checksums.sh - a checksum of every example's simulation, and of the
# bench's N-against-N crowds (issue 16): what a change that must not
# change a fight is held to (docs/architecture.md, "Speed (issue 16)").
#
# usage: sh scripts/checksums.sh [path/to/fray]   (from the repository's root)
#
# Each line: the example, then the first 8 hex digits of the md5 of
# `fray sim FILE -n N --seed 7 --threads 1 --json --quiet` without its
# elapsed line. The crowds are written to a temporary directory as
# bench/bench_scale.c makes them (N Sellswords or Brawlers a side, in
# columns five spaces apart on an open map).
set -eu
F=${1:-build/fray}
[ -x "$F" ] || { echo "checksums.sh: no program at $F (build first)" >&2; exit 1; }
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
R=$(pwd)

crowd() { # crowd RULES N FILE
    if [ "$1" = alloy ]; then
        cat="$R/data/alloy/weapons.yaml"; sb="$R/examples/alloy/statblocks.yaml"; who=Brawler
    else
        cat="$R/data/towers/equipment.yaml"; sb="$R/examples/towers/statblocks.yaml"; who=Sellsword
    fi
    {
        printf 'fray: encounter\nrules: %s\nname: %dv%d\nseed: 1\n' "$1" "$2" "$2"
        printf 'catalog: [%s]\nstatblocks: [%s]\nsides: [West, East]\nmap:\n  art: |\n' "$cat" "$sb"
        y=0
        while [ $y -lt $(($2 + 2)) ]; do echo "    ............"; y=$((y + 1)); done
        echo "combatants:"
        i=1
        while [ $i -le "$2" ]; do
            echo "  - {id: west-$i, statblock: $who, side: West, at: [3, $i]}"; i=$((i + 1))
        done
        i=1
        while [ $i -le "$2" ]; do
            echo "  - {id: east-$i, statblock: $who, side: East, at: [8, $i]}"; i=$((i + 1))
        done
    } > "$3"
}

sum() { # sum NAME FILE N
    out=$("$F" sim "$2" -n "$3" --seed 7 --threads 1 --json --quiet) ||
        { echo "checksums.sh: fray sim $2 failed" >&2; exit 1; }
    printf '%s %s\n' "$1" "$(printf '%s\n' "$out" | grep -v elapsed | md5sum | cut -c1-8)"
}

for e in duel skirmish ambush; do sum towers/$e examples/towers/$e.yaml 20000; done
for n in 2 4 8 16; do crowd towers $n "$D/towers-$n.yaml"; sum towers/${n}v$n "$D/towers-$n.yaml" 2000; done
for n in 2 4 8 16; do crowd alloy $n "$D/alloy-$n.yaml"; sum alloy/${n}v$n "$D/alloy-$n.yaml" 2000; done
for e in ambush blackout disarm duel reinforcements shove skirmish; do sum alloy/$e examples/alloy/$e.yaml 2000; done
for e in duel brawl sniper storm cavalry huntress knight witch siege; do sum winter/$e examples/silent-winter/$e.yaml 20000; done
for e in blindfold brawl centaur duel firefight grapple wrestle tavern; do sum d6/$e examples/d6/$e.yaml 2000; done
