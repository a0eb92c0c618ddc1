#!/bin/bash
# Flat points down columns past the block (reduce abi 8, AT_FLAT_K: a
# thread K = ceil(ld / threads) <= 4 vectors of a chunk; r33's hand
# flat_wide read 95.4-97.8% of the copy on i32 amax down 36716x1430
# where the strips read ~93%). Verified as the GPU suite does (gpu_reduce
# down shapes, FLAT_WIDE among them, AT_GPU_FLAT=2: those points alone),
# memcheck on every 3rd of two pairs; cold tunes of r35/list2.txt,
# 73eff04 against the tree (a round, then the first two again in the
# other order) and the crosscheck of i32 amax's emitted file. Carry
# build/autotune, build/tests/gpu_reduce-rel, build/tests/lib,
# gpurun/bins/autotune-base. About 4 minutes.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r38; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
ONLY=reduce_f32_sum,reduce_f32_max,reduce_bf16_sum,reduce_bf16_amax,reduce_f16_min
ONLY=$ONLY,reduce_f16_sumsq,reduce_f64_min,reduce_f64_sum,reduce_i32_sum,reduce_i32_amax
s0=$SECONDS
AUTOTUNE_WORKER=$PWD/build/autotune AT_GPU_DOWN=1 AT_GPU_FLAT=2 AT_GPU_ONLY=$ONLY \
  timeout 100 build/tests/gpu_reduce-rel > "$O/wide-down.tap" 2>&1
echo "== gpu_reduce flat past the block rc=$? $((SECONDS - s0)) s"
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
AUTOTUNE_WORKER=$PWD/build/autotune AT_GPU_DOWN=1 AT_GPU_FLAT=2 AT_GPU_SAMPLE=3 \
  AT_GPU_ONLY=reduce_f32_sum,reduce_i32_amax timeout 60 "$CS" --tool memcheck \
  --error-exitcode 99 build/tests/gpu_reduce-rel > "$O/memcheck.txt" 2>&1
echo "== memcheck rc=$? $((SECONDS - s0)) s"
L=docs/perf/issue36-h200/r35/list2.txt
HOW=tune LIMIT=40 sh tests/gpu/bench_reduce_builds.sh $L \
  base=gpurun/bins/autotune-base tree=build/autotune > "$O/ab1.txt" 2>&1
echo "== ab1 $((SECONDS - s0)) s"
AUTOTUNE_WORKER=$PWD/build/autotune timeout 45 sh tests/gpu/crosscheck_reduce.sh \
  i32:amax rows 36716 1430 > "$O/xcr.txt" 2>&1
head -2 $L > "$W/l2.txt"
HOW=tune LIMIT=40 sh tests/gpu/bench_reduce_builds.sh "$W/l2.txt" \
  tree=build/autotune base=gpurun/bins/autotune-base > "$O/ab2.txt" 2>&1
grep -E "^(ok|not ok)|points verified|FAILED" "$O/wide-down.tap" | cut -c1-170 | head -30
grep -E "ERROR SUMMARY|^ok|^not ok" "$O/memcheck.txt" | head -6
grep -E "emitted|crosscheck|autotune bench" "$O/xcr.txt" | cut -c1-220
cut -c1-200 "$O/ab1.txt" "$O/ab2.txt"
