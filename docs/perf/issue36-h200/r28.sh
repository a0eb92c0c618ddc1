#!/bin/bash
# Flat splits in waves rounded to a chunk for every group (lanes) in
# place of whole steps (lanes x items): fd5dcfb against the tree, each
# tuning cold from empty caches, the tuner's own figure (HOW=tune),
# alternated, the order reversed in the second round, on five flat
# problems down columns (r28/list.txt: r27's f16 amax, r25's f32 max,
# the issue's f64 min with ld 89, two more). Then the tree's emitted
# f16 amax file in the nvcc program (0 wrong: the launcher's geometry).
# Carry build/autotune and gpurun/bins/autotune-fd5d. About 6 minutes.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r28; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W
L=docs/perf/issue36-h200/r28/list.txt
HOW=tune LIMIT=30 sh tests/gpu/bench_reduce_builds.sh $L \
  fd5d=gpurun/bins/autotune-fd5d tree=build/autotune > "$O/ab1.txt" 2>&1
HOW=tune LIMIT=30 sh tests/gpu/bench_reduce_builds.sh $L \
  tree=build/autotune fd5d=gpurun/bins/autotune-fd5d > "$O/ab2.txt" 2>&1
AUTOTUNE_WORKER=$PWD/build/autotune timeout 80 sh tests/gpu/crosscheck_reduce.sh \
  f16:amax rows 1015457 47 > "$O/xcr.txt" 2>&1
cut -c1-200 "$O/ab1.txt" "$O/ab2.txt"
grep -E "emitted|crosscheck|autotune bench" "$O/xcr.txt" | cut -c1-200
