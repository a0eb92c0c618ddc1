#!/bin/bash
# Windows on whole lines (reduce abi 8, axis win): every win point of
# ten type and op pairs verified as the GPU suite does (gpu_reduce's
# down shapes, WIN_ODD among them, AT_GPU_WIN=1: windows alone; on 1, 7
# and 300 SMs where split in waves), compute-sanitizer memcheck on those
# of two pairs; then cold tunes of r35/list.txt (rows off the lines: the
# first four, r32's and item 2's misses; bf16 on 32-byte sectors; an
# f32 square one column short), 73eff04 against the tree, the tuner's
# figure, a round in each order. Carry build/autotune,
# build/tests/gpu_reduce-rel, build/tests/lib, gpurun/bins/autotune-base.
# About 6 minutes.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r35; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
ONLY=reduce_f32_sum,reduce_f32_max,reduce_bf16_sum,reduce_bf16_amax,reduce_f16_min
ONLY=$ONLY,reduce_f16_sumsq,reduce_f64_min,reduce_f64_sum,reduce_i32_sum,reduce_i32_amax
s0=$SECONDS
AUTOTUNE_WORKER=$PWD/build/autotune AT_GPU_DOWN=1 AT_GPU_WIN=1 AT_GPU_ONLY=$ONLY \
  timeout 200 build/tests/gpu_reduce-rel > "$O/win-down.tap" 2>&1
echo "== gpu_reduce windows rc=$? $((SECONDS - s0)) s"
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
AUTOTUNE_WORKER=$PWD/build/autotune AT_GPU_DOWN=1 AT_GPU_WIN=1 \
  AT_GPU_ONLY=reduce_f32_sum,reduce_i32_amax timeout 150 "$CS" --tool memcheck \
  --error-exitcode 99 build/tests/gpu_reduce-rel > "$O/memcheck.txt" 2>&1
echo "== memcheck rc=$?"
L=docs/perf/issue36-h200/r35/list.txt
HOW=tune LIMIT=60 sh tests/gpu/bench_reduce_builds.sh $L \
  base=gpurun/bins/autotune-base tree=build/autotune > "$O/ab1.txt" 2>&1
HOW=tune LIMIT=60 sh tests/gpu/bench_reduce_builds.sh $L \
  tree=build/autotune base=gpurun/bins/autotune-base > "$O/ab2.txt" 2>&1
grep -E "^(ok|not ok)|points verified|FAILED|no points" "$O/win-down.tap" | cut -c1-170 | head -40
grep -E "ERROR SUMMARY|^ok|^not ok" "$O/memcheck.txt" | head -6
cut -c1-220 "$O/ab1.txt" "$O/ab2.txt"
