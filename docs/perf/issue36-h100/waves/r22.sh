#!/bin/bash
# Five down-column problems drawn at random (seed 1795749410, cols 17-500,
# 64-512 MiB): 8d6c490 against the tree, cold. Every flat point of i32
# bit for bit; the API suite.
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME
export AUTOTUNE_WORKER=$PWD/build/autotune
LIMIT=80 LOG=$OUT/bench.txt sh tests/gpu/bench_reduce_builds.sh gpurun/list12.txt head=gpurun/autotune-8d6 waves=build/autotune
AT_GPU_DOWN=1 AT_GPU_FLAT=1 AT_GPU_ONLY='reduce_i32_*' timeout 120 build/tests/gpu_reduce-rel > $OUT/flat_i32.tap 2>&1
echo "== gpu_reduce flat i32 rc=$? ok=$(grep -c '^ok' $OUT/flat_i32.tap) notok=$(grep -c '^not ok' $OUT/flat_i32.tap)"
grep -E "FAILED|^# reduce .*failed" $OUT/flat_i32.tap | grep -v " 0 failed" | head -5 | cut -c1-300
grep -E "points verified" $OUT/flat_i32.tap
timeout 150 build/tests/gpu_api > $OUT/gpu_api.tap 2>&1
echo "== gpu_api rc=$? ok=$(grep -c '^ok' $OUT/gpu_api.tap) notok=$(grep -c '^not ok' $OUT/gpu_api.tap)"
grep -E "^not ok|^# " $OUT/gpu_api.tap | head -10 | cut -c1-200
echo END
