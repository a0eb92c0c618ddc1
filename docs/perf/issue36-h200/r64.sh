#!/bin/bash
# Item 1: gather/gather_probe.cu's second version (tiles in a loop, the
# next tile copied by cp.async while this one is transposed; staged
# output at a stride of R|1 words) beside its first (r63), on 1-byte
# transposes of a short side of input rows, and u8 31x3552786 and i8
# 24x4000037 by autotune bench as the anchor. Carry build/autotune and
# build/gather_probe (nvcc -O3 -arch=sm_90 -o build/gather_probe
# docs/perf/issue36-h200/gather/gather_probe.cu); from the repository root.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r64; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune
for pr in "31 3552786 3552786" "29 18193165 18193165" "13 19022487 19022487" \
          "26 7639115 7639115" "24 4000037 4000037" "16 8000001 8000001" \
          "2 380696732 380696732" "5 30000001 30000001" "64 2000003 2000003"; do
    set -- $pr
    timeout 60 build/gather_probe "$1" "$2" "$3" >> "$O/probe.txt"
    echo "   rc=$? $SECONDS s" >> "$O/probe.txt"
done
for pr in "u8 31 3552786" "i8 24 4000037" "i8 16 8000001"; do
    set -- $pr
    f=$W/b-$1-$2x$3
    AUTOTUNE_CACHE=$W/c.db timeout 60 build/autotune bench transpose --type "$1" \
        --rows "$2" --cols "$3" --quiet --csv "$f.csv" > "$f.log" 2>&1
    echo "== $pr rc=$? $SECONDS s"; cut -c1-220 "$f.log" | grep "^\[1/1\]"
done
(cd "$W" && tar -cJf "$O/records.tar.xz" b-*)
cat "$O/probe.txt"
