#!/bin/bash
# Each problem tuned cold by each build in turn, on one lease (an A/B
# whose builds share the lease's spread): ab_tunes.sh PROBLEMS SECONDS
# WORK BUILD... PROBLEMS: lines "type rows cols ld_in ld_out"; SECONDS:
# the time it may take (it stops starting tunes 20 s before); WORK: a
# folder of the caller's (a cache, CSV and log a tune); BUILD: a binary
# under build/. Prints a line a tune; from the repository root.
set -u
list=$1 limit=$2 work=$3
shift 3
while read -r t rows cols li lo; do
    for b in "$@"; do
        left=$((limit - SECONDS)); [ "$left" -gt 20 ] || break 2
        f=$work/b-$b-$t-${rows}x$cols
        AUTOTUNE_WORKER=$PWD/build/$b AUTOTUNE_CACHE=$f.db timeout "$left" build/"$b" \
            bench transpose --type "$t" --rows "$rows" --cols "$cols" --ld-in "$li" \
            --ld-out "$lo" --quiet --csv "$f.csv" > "$f.log" 2>&1
        echo "== $b $t ${rows}x$cols ld $li $lo rc=$? $SECONDS s: $(grep '^\[1/1\]' "$f.log" | sed 's/^.*: //' | cut -c1-120)"
    done
done < "$list"
