#!/bin/bash
# (1) Item 1: gather/gather_probe.cu (built here: nvcc -O3 -arch=sm_90 -o
# build/gather_probe docs/perf/issue36-h200/gather/gather_probe.cu) on
# 1-byte transposes of a short side of input rows, beside autotune bench
# on the same shapes. (2) Item 2: r58's col-pairs.patch (build/at-pairs,
# the tree with the patch applied) on f16 max down 8410x4252, whose
# winner is a vec2 aligned strip (r59, r62), every point recorded, and
# the tree's build beside it. Carry build/autotune, build/at-pairs and
# build/gather_probe; from the repository root.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r63; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W
for b in autotune at-pairs autotune at-pairs; do
    n=$((${n:-0} + 1)); f=$W/rec-$b-$n
    AUTOTUNE_WORKER=$PWD/build/$b AUTOTUNE_CACHE=$W/c-$b.db timeout 90 build/$b reduce \
        --type f16 --op max --axis rows --rows 8410 --cols 4252 --record "$f.csv" \
        -o "$W/k.cu" > "$f.log" 2>&1
    echo "== $b f16 max 8410x4252 rc=$? $SECONDS s: $(grep -A1 '^  best:' "$f.log" | tr -s ' \n' ' ' | cut -c1-150)"
    awk -F, 'NR > 1 && $8 == "ok" && index($5, "_vec2_") { print $9 }' "$f.csv" | sort -g | head -1 | sed 's/^/   best vec2 point ms: /'
done
export AUTOTUNE_WORKER=$PWD/build/autotune
for pr in "31 3552786 3552786" "31 3552786 3552800" "29 18193165 18193165" \
          "13 19022487 19022487" "26 7639115 7639115" "2 380696732 380696732" \
          "5 30000001 30000001" "64 2000003 2000003"; do
    set -- $pr
    timeout 60 build/gather_probe "$1" "$2" "$3" | tee -a "$O/probe.txt"
    echo "   rc=$? $SECONDS s"
done
for pr in "u8 31 3552786" "i8 29 18193165" "u8 13 19022487" "i8 26 7639115" "u8 64 2000003"; do
    set -- $pr
    left=$((585 - SECONDS)); [ "$left" -gt 20 ] || break
    f=$W/b-$1-$2x$3
    AUTOTUNE_CACHE=$W/c.db timeout "$left" build/autotune bench transpose --type "$1" \
        --rows "$2" --cols "$3" --quiet --csv "$f.csv" > "$f.log" 2>&1
    echo "== $pr rc=$? $SECONDS s"; cut -c1-220 "$f.log" | grep "^\[1/1\]"
done
(cd "$W" && tar -cJf "$O/records.tar.xz" rec-* b-*)
