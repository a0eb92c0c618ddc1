#!/bin/bash
# Item 2: every strip, shifted or not, split in waves or chunks, combined
# by atomics or the last block, stops near 2.7 TB/s (77% of the copy) on
# f16 max down 8410x4251 (r53's records). Is it the size (68 MiB: a fixed
# cost a tune) or the 2-byte element? The same columns at 2x and 4x the
# rows; the same bytes as f32 (half the columns, ld odd: shifted vec4); the
# same bytes as one f16 array. Carry build/autotune.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r54; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune
for pr in "f16 max rows 8410 4251" "f16 max rows 16820 4251" "f16 max rows 33640 4251" \
          "f32 max rows 8410 2125" "f32 max rows 33640 2125" "f16 max all 35750910 0"; do
    set -- $pr
    if [ "$3" = all ]; then sh="--n $4"; else sh="--rows $4 --cols $5"; fi
    # shellcheck disable=SC2086
    AUTOTUNE_CACHE=$W/c.db timeout 100 build/autotune reduce --type "$1" --op "$2" \
        --axis "$3" $sh --record "$O/rec-$1-$3-$4x$5.csv" -o "$W/k.cu" \
        > "$O/rec-$1-$3-$4x$5.log" 2>&1
    echo "== $pr rc=$? $SECONDS s"
    grep -A1 "^  best:" "$O/rec-$1-$3-$4x$5.log" | cut -c1-200
done
