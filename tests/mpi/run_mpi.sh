#!/usr/bin/env bash
# Issue 4 section 4: `fray sim` under mpirun with 2 ranks gives exactly the
# single-process answer for the same seed (each rank runs a slice of the
# trial indices; the counts are summed). Exit 77 (skipped) when fray was
# built without -DFRAY_MPI=ON.
# usage: run_mpi.sh FRAY_BINARY SOURCE_DIR MPI_ON(0|1)
set -u
fray=$1
src=$2
if [ "${3:-0}" != 1 ]; then
    echo "sim_mpi: skipped (configure with -DFRAY_MPI=ON)"
    exit 77
fi
# mpirun refuses root unless told; a container has only one "slot" per core.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
# Shared memory only: no network interfaces needed on one machine.
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for enc in duel skirmish; do
    n=$([ "$enc" = duel ] && echo 5000 || echo 601)
    "$fray" sim "$src/examples/towers/$enc.yaml" -n "$n" --seed 7 --json \
        --vary "$([ "$enc" = duel ] && echo black-knight.PA=2..3 || echo bandit.PA=1,2)" \
        >"$tmp/one.json" || { echo "single process failed"; exit 1; }
    mpirun -n 2 "$fray" sim "$src/examples/towers/$enc.yaml" -n "$n" --seed 7 \
        --json --threads 1 \
        --vary "$([ "$enc" = duel ] && echo black-knight.PA=2..3 || echo bandit.PA=1,2)" \
        >"$tmp/two.json" 2>"$tmp/two.err" || {
        echo "mpirun -n 2 failed:"; cat "$tmp/two.err"; exit 1; }
    if cmp -s "$tmp/one.json" "$tmp/two.json"; then
        echo "sim_mpi: $enc: 2 ranks = 1 process ($n fights per variant)"
    else
        echo "sim_mpi: $enc: 2 ranks differ from 1 process:"
        diff "$tmp/one.json" "$tmp/two.json" | head -20
        status=1
    fi
done
exit $status
