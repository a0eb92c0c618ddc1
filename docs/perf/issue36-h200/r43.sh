#!/bin/bash
# NOT RUN. The change below failed verification first: a helper's run of
# r39.sh carried the tree with it built in and gpu_reduce failed 24 of 48
# flat points of each i32 pair (r43/helper/). Reverted; the change is
# r43/fitted-block.patch, and this script what would have measured it.
# Flat points past the block launch the fewest whole warps that hold the
# span in K vectors a thread (at_rd_block_threads: ld 1127 vectors, K 3,
# 384 threads, not 512). Verified as r38 (gpu_reduce down columns, these
# points alone, every pair; the any-input test of i32; memcheck
# on every 3rd of i32 min), then cold tunes of r43/list3.txt (r35/list2.txt but f32 min, whose block is 512 either way), f525a3a
# against the tree, a round each way. Carry build/autotune,
# build/tests/gpu_reduce-rel, build/tests/lib, gpurun/bins/autotune-f525.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r43; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
export AUTOTUNE_WORKER=$PWD/build/autotune
ONLY=reduce_f32_sum,reduce_f32_max,reduce_bf16_amax,reduce_f16_sumsq,reduce_f64_min
ONLY=$ONLY,reduce_i32_min,reduce_i32_amax,reduce_i32_sum
AT_GPU_DOWN=1 AT_GPU_FLAT=2 AT_GPU_ONLY=$ONLY timeout 110 build/tests/gpu_reduce-rel > "$O/wide-down.tap" 2>&1
echo "== gpu_reduce flat past the block rc=$? $SECONDS s"
AT_GPU_ONLY=reduce_any_input_i32 timeout 90 build/tests/gpu_reduce-rel > "$O/any.tap" 2>&1
echo "== any input rc=$? $SECONDS s"
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
AT_GPU_DOWN=1 AT_GPU_FLAT=2 AT_GPU_SAMPLE=3 AT_GPU_ONLY=reduce_i32_min timeout 45 "$CS" --tool memcheck \
  --error-exitcode 99 build/tests/gpu_reduce-rel > "$O/memcheck.txt" 2>&1
echo "== memcheck rc=$? $SECONDS s"
grep -E "^(ok|not ok)|points verified|FAILED|any input" "$O/wide-down.tap" "$O/any.tap" | cut -c1-170 | head -40
grep -E "ERROR SUMMARY|^ok|^not ok" "$O/memcheck.txt" | head -6
L=docs/perf/issue36-h200/r43/list3.txt
HOW=tune LIMIT=40 sh tests/gpu/bench_reduce_builds.sh $L base=gpurun/bins/autotune-f525 tree=build/autotune 2>&1 | tee "$O/ab1.txt" | cut -c1-200
HOW=tune LIMIT=40 sh tests/gpu/bench_reduce_builds.sh $L tree=build/autotune base=gpurun/bins/autotune-f525 2>&1 | tee "$O/ab2.txt" | cut -c1-200
echo "== end $SECONDS s"
