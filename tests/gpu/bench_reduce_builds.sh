#!/bin/sh
# Builds of autotune side by side on reduce problems: for each line of
# LIST (the flags of `autotune bench reduce`), each build in turn tunes the
# problem cold (its own empty caches) and times its winner against the
# copy. Prints a line per build and problem (the winner, its share of the
# copy); with LOG set, appends each run's whole output there. Needs a GPU.
# Usage: tests/gpu/bench_reduce_builds.sh LIST LABEL=AUTOTUNE [LABEL=AUTOTUNE ...]
[ $# -ge 2 ] || { echo "usage: $0 LIST LABEL=AUTOTUNE ..." >&2; exit 2; }
list=$1
shift
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
while read -r flags; do
    [ -n "$flags" ] || continue
    for build in "$@"; do
        label=${build%%=*} bin=$(readlink -f "${build#*=}")
        rm -f "$T"/c.db* "$T"/cubins.db*
        # shellcheck disable=SC2086
        AUTOTUNE_WORKER=$bin AUTOTUNE_CACHE=$T/c.db \
            AUTOTUNE_CUBIN_CACHE=$T/cubins.db timeout "${LIMIT:-60}" \
            "$bin" bench reduce $flags > "$T/out.txt" 2>&1
        rc=$?
        line=$(grep -E '^\[[0-9]+/[0-9]+\] .*of copy' "$T/out.txt" | head -1 |
               sed -e 's/, input seed.*//' -e 's/.*: thr/thr/')
        echo "$label rc=$rc $flags :: $line"
        [ -z "$LOG" ] || { echo "### $label $flags"; cat "$T/out.txt"; } >> "$LOG"
    done
done < "$list"
