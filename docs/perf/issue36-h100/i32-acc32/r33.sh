#!/bin/bash
# The nvcc crosscheck now takes any op and i32: three i32 problems of the
# A/B (the emitted .cu in a plain program with CUB, against the bench),
# and f32 sum 451023x202 as the float path's control (95.0 / 95.3% on
# 2026-11-27); then memcheck and racecheck on a sample of i32 min and amax.
set -u
export HOME=/tmp/home; mkdir -p $HOME
export AUTOTUNE_WORKER=$PWD/build/autotune
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
s=$(date +%s)
timeout 330 sh tests/gpu/crosscheck_reduce.sh i32:amax rows 133253 172 i32:min rows 228376 276 i32:max cols 216719 237 f32 rows 451023 202 > $OUT/crosscheck.txt 2>&1
echo "crosscheck rc=$? $(( $(date +%s) - s )) s"
grep -E "emitted point|crosscheck |autotune bench" $OUT/crosscheck.txt | cut -c1-260
s=$(date +%s)
AT_GPU_ONLY='reduce_i32_min,reduce_i32_amax' AT_GPU_REDUCE_SAMPLE=30 timeout 170 sh tests/gpu/sanitize.sh gpu_reduce > $OUT/sanitize-i32.tap 2>&1
echo "sanitize rc=$? $(( $(date +%s) - s )) s"
cat $OUT/sanitize-i32.tap | cut -c1-200
echo END
