#!/bin/bash
# Where the template's windows fall (r35, r36: no cold tune chose one)
# against the strips, every point of i32 amax down 36716x1430 recorded
# (the tree of r36), beside r32/col_shapes.cu on the same lease. Carry
# build/autotune. About 1 minute.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r37; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune AUTOTUNE_CACHE=$W/cache.db
timeout 90 build/autotune reduce --arch auto --type i32 --op amax --rows 36716 \
  --cols 1430 --axis rows --record "$O/rec.csv" -o "$W/a.cu" --quiet
echo "== rec rc=$?"
nvcc -O3 -arch=native -I tests/gpu docs/perf/issue36-h200/r32/col_shapes.cu -o "$W/cs"
timeout 60 "$W/cs" 36716 1430 > "$O/cs.txt" 2>&1
echo "== best 8"; grep ",ok," "$O/rec.csv" | sort -t, -k9g | head -8 | cut -d, -f5,9
echo "== best 8 windows"; grep ",ok," "$O/rec.csv" | grep "_win," | sort -t, -k9g | head -8 | cut -d, -f5,9
echo "== hand"; sort -k5 -t' ' "$O/cs.txt" | head -3; grep "^-" "$O/cs.txt" | head -12
