#!/bin/bash
# r28's A/B again with the flat loop's last rounds (fewer than items)
# loaded together instead of one at a time (templates/reduce.cu), beside
# the rounding of waves to lanes: fd5dcfb against the tree, tuning cold,
# the tuner's figure, one round in each order on r28/list.txt; the
# tree's emitted f64 min file in the nvcc program (0 wrong). Carry
# build/autotune and gpurun/bins/autotune-fd5d. About 3 minutes.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r29; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W
L=docs/perf/issue36-h200/r28/list.txt
HOW=tune LIMIT=30 sh tests/gpu/bench_reduce_builds.sh $L \
  tree=build/autotune fd5d=gpurun/bins/autotune-fd5d > "$O/ab1.txt" 2>&1
AUTOTUNE_WORKER=$PWD/build/autotune timeout 70 sh tests/gpu/crosscheck_reduce.sh \
  f64:min rows 132920 61:89 > "$O/xcr.txt" 2>&1
HOW=tune LIMIT=30 sh tests/gpu/bench_reduce_builds.sh $L \
  fd5d=gpurun/bins/autotune-fd5d tree=build/autotune > "$O/ab2.txt" 2>&1
cut -c1-200 "$O/ab1.txt" "$O/ab2.txt"
grep -E "emitted|crosscheck|autotune bench" "$O/xcr.txt" | cut -c1-200
