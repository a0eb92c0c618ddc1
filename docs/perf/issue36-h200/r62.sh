#!/bin/bash
# Two questions r61 left (docs/PERFORMANCE.md, "The skewed strips on a
# GPU"). (1) Item 2: does f16 down columns at an even ld trail f32 at the
# same bytes because it has twice the columns (twice the totals a split
# adds)? f16 max down 8410x4252 (twice f32's columns) and 16820x2126
# (f32's columns, twice its rows) against f32 max down 8410x2126, every
# point recorded. (2) Item 1: the short 1-byte sides of r61 with both
# pitches on 32 bytes and nothing padded (u8 160x786560, 1134016x96),
# beside u8 16384x16384 as the lease's aligned control and u8 31x3552786
# (the worst). Carry build/autotune; from the repository root.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r62; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune
for pr in "f16 8410 4252" "f16 16820 2126" "f32 8410 2126"; do
    set -- $pr
    f=$W/rec-$1-max-$2x$3
    AUTOTUNE_CACHE=$W/c.db timeout 90 build/autotune reduce --type "$1" --op max --axis rows \
        --rows "$2" --cols "$3" --record "$f.csv" -o "$W/k.cu" > "$f.log" 2>&1
    echo "== $pr rc=$? $SECONDS s"; grep -A1 "^  best:" "$f.log" | cut -c1-200
done
for pr in "u8 160 786560" "u8 1134016 96" "u8 16384 16384" "u8 31 3552786"; do
    set -- $pr
    left=$((585 - SECONDS)); [ "$left" -gt 20 ] || break
    f=$W/b-$2x$3
    AUTOTUNE_CACHE=$W/c.db timeout "$left" build/autotune bench transpose --type "$1" \
        --rows "$2" --cols "$3" --quiet --csv "$f.csv" > "$f.log" 2>&1
    echo "== $pr rc=$? $SECONDS s"; cut -c1-200 "$f.log" | grep "^\[1/1\]"
done
(cd "$W" && tar -cJf "$O/records.tar.xz" rec-* b-*)
