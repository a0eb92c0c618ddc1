#!/bin/bash
# r43's fitted blocks done so a build fits any launch: the wide walk
# strides by blockDim.x (the build still for the threads axis), and the
# family launches the fewest whole warps holding the span in K vectors a
# thread. Verified on gpu_reduce's down shapes, these points alone (the
# cross-shape runs that failed r43's), then cold tunes of the two i32
# problems whose blocks change (1127 vectors: 384 threads; 1430: 480),
# f525a3a against the tree, a round each way. Carry build/autotune,
# build/tests/gpu_reduce-rel, build/tests/lib, gpurun/bins/autotune-f525.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r46; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
export AUTOTUNE_WORKER=$PWD/build/autotune
AT_GPU_DOWN=1 AT_GPU_FLAT=2 AT_GPU_ONLY=reduce_i32_min,reduce_i32_amax,reduce_f16_sumsq,reduce_f32_sum \
  timeout 75 build/tests/gpu_reduce-rel > "$O/wide-down.tap" 2>&1
echo "== gpu_reduce flat past the block rc=$? $SECONDS s"
grep -E "^(ok|not ok)|points verified|FAILED" "$O/wide-down.tap" | cut -c1-170 | head -12
L=docs/perf/issue36-h200/r46/list-i32.txt
HOW=tune LIMIT=30 sh tests/gpu/bench_reduce_builds.sh $L base=gpurun/bins/autotune-f525 tree=build/autotune 2>&1 | tee "$O/ab1.txt" | cut -c1-200
[ $SECONDS -lt 150 ] && HOW=tune LIMIT=30 sh tests/gpu/bench_reduce_builds.sh $L tree=build/autotune \
  base=gpurun/bins/autotune-f525 2>&1 | tee "$O/ab2.txt" | cut -c1-200
echo "== end $SECONDS s"
