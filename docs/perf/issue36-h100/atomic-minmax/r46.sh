#!/bin/bash
# Verify the atomic min/max/amax combines: every such point of every type
# (min, max, amax) on gpu_reduce's shapes and the check problems, run
# twice for the same bits; memcheck/racecheck on a sample; the emitted
# .cu of two atomic winners in the nvcc program against the bench.
set -u
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export HOME=/tmp/home; mkdir -p $HOME
export AUTOTUNE_WORKER=$PWD/build/autotune
export LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
t0=$(date +%s)
AT_GPU_ONLY='reduce_*_min,reduce_*_max,reduce_*_amax' AT_GPU_COMBINE=2 timeout 280 build/tests/gpu_reduce-rel > $OUT/gpu_reduce_atomic.tap 2>&1
echo "== gpu_reduce rc=$? ($(( $(date +%s) - t0 )) s)"
grep -E "^(ok|not ok)|FAILED|points verified" $OUT/gpu_reduce_atomic.tap | head -40 | cut -c1-200
t0=$(date +%s)
AT_GPU_ONLY='reduce_f64_min,reduce_f32_max,reduce_bf16_amax,reduce_i32_min,reduce_f16_max' AT_GPU_COMBINE=2 AT_GPU_REDUCE_SAMPLE=25 timeout 110 sh tests/gpu/sanitize.sh gpu_reduce > $OUT/sanitize.tap 2>&1
echo "== sanitize rc=$? ($(( $(date +%s) - t0 )) s)"
grep -E "^(ok|not ok)|ERROR SUMMARY|RACECHECK SUMMARY" $OUT/sanitize.tap | head -20 | cut -c1-200
t0=$(date +%s)
timeout 120 sh tests/gpu/crosscheck_reduce.sh f16:max rows 187725 161 f64:min rows 132920 61 > $OUT/crosscheck.txt 2>&1
echo "== crosscheck rc=$? ($(( $(date +%s) - t0 )) s)"
grep -E "emitted point|crosscheck rows|autotune bench" $OUT/crosscheck.txt | cut -c1-220
echo "END $(( $(date +%s) - T0 )) s"
