#!/bin/bash
# Item 2: would one aligned 4-byte load a row lift 2-byte elements down
# columns to f32's share? f16 max down 8410x4251 (odd ld) has none (76%,
# r55), f32 of the same bytes a row has (89-91%). The same problems with
# one column more (ld 4252, even: aligned vec2 strips exist), and f16 sum
# beside max. Carry build/autotune.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r59; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune
for pr in "f16 max 8410 4252" "f16 sum 8410 4252" "f16 sum 8410 4251" "f16 max 33640 4252"; do
    set -- $pr
    AUTOTUNE_CACHE=$W/c.db timeout 60 build/autotune reduce --type "$1" --op "$2" --axis rows \
        --rows "$3" --cols "$4" --record "$O/rec-$1-$2-$3x$4.csv" \
        -o "$W/k.cu" > "$W/rec-$1-$2-$3x$4.log" 2>&1
    echo "== $pr rc=$? $SECONDS s"; grep -A1 "^  best:" "$W/rec-$1-$2-$3x$4.log" | cut -c1-200
    # the best point of each vector width
    for v in 1 2 4 8; do
        awk -F, -v v="_vec${v}_" '$8=="ok" && index($5, v)' "$O/rec-$1-$2-$3x$4.csv" |
            sort -t, -k9,9g | head -1 | cut -d, -f5,9,13
    done
done
