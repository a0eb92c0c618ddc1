#!/bin/bash
# r32/col_shapes.cu with rows read as one flat run however wide
# (flat_wide: K int4 vectors a thread of 512, chunks of 4 rows): does a
# column reduction of wide rows off the sectors read at the bare read's
# rate? i32 amax down 36716x1430 (r32: strips 91-94%), 25931x1127 (odd
# ld, rows % 4 = 3), 36716x1536 (rows on 128 bytes: the strips'
# control). win_amax (added after the first run): strips of windows on
# whole lines, each column in two. Built here. About 1 minute.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r33; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
nvcc -O3 -arch=native -I tests/gpu docs/perf/issue36-h200/r32/col_shapes.cu -o "$W/cs"
for s in "36716 1430" "25931 1127" "36716 1536"; do
  # shellcheck disable=SC2086
  timeout 100 "$W/cs" $s > "$O/cs-${s// /x}.txt" 2>&1
  echo "== $s rc=$?"
  cat "$O/cs-${s// /x}.txt"
done
