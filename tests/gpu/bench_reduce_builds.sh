#!/bin/sh
# Builds of autotune side by side on reduce problems: for each line of
# LIST (the flags of `autotune bench reduce`), each build in turn tunes the
# problem cold (its own empty caches) and times its winner against the
# copy. Prints a line per build and problem (the winner, its share of the
# copy); with LOG set, appends each run's whole output there. HOW=tune:
# the tune alone (`autotune reduce --arch auto`, the tuner's own figure;
# no CUB built, a few seconds a problem). Needs a GPU.
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
        cmd="bench reduce"
        [ "$HOW" != tune ] || cmd="reduce --arch auto -o $T/out.cu"
        # shellcheck disable=SC2086
        AUTOTUNE_WORKER=$bin AUTOTUNE_CACHE=$T/c.db \
            AUTOTUNE_CUBIN_CACHE=$T/cubins.db timeout "${LIMIT:-60}" \
            "$bin" $cmd $flags > "$T/out.txt" 2>&1
        rc=$?
        if [ "$HOW" = tune ]; then
            line="$(sed -n 's/^ *best: //p' "$T/out.txt" | head -1) $(grep -o \
                '[0-9.]*% of the device-to-device copy' "$T/out.txt" | head -1 |
                cut -d' ' -f1) ($(grep -o 'tuned in [0-9.]* s' "$T/out.txt" |
                head -1))"
        else
            line=$(grep -E '^\[[0-9]+/[0-9]+\] .*of copy' "$T/out.txt" |
                   head -1 | sed -e 's/, input seed.*//' -e 's/.*: thr/thr/')
        fi
        echo "$label rc=$rc $flags :: $line"
        [ -z "$LOG" ] || { echo "### $label $flags"; cat "$T/out.txt"; } >> "$LOG"
    done
done < "$list"
