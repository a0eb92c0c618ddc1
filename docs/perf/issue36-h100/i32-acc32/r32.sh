#!/bin/bash
# Every i32 point of gpu_reduce again, now with the NaN check's planted
# INT_MIN and INT_MAX (amax's unsigned accumulator), and the any-input
# test; then the API, runtime, examples, json and bench_smoke suites.
set -u
export HOME=/tmp/home; mkdir -p $HOME
export AUTOTUNE_WORKER=$PWD/build/autotune
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
s=$(date +%s)
AT_GPU_ONLY='reduce_i32_*,reduce_any_input_i32' timeout 320 build/tests/gpu_reduce-rel > $OUT/gpu_reduce-i32.tap 2>&1
echo "gpu_reduce i32 rc=$? $(( $(date +%s) - s )) s"
grep -E '^(ok|not ok)|FAILED|points verified' $OUT/gpu_reduce-i32.tap | cut -c1-200
s=$(date +%s)
timeout 230 sh tests/gpu/run.sh build/tests/gpu_api build/tests/gpu_runtime tests/gpu/bench_smoke.sh tests/gpu/json.sh tests/gpu/examples.sh > $OUT/suite.txt 2>&1
echo "suite rc=$? $(( $(date +%s) - s )) s"
grep -E "^(ok|not ok)|^Result|^Files|Failed|SKIP" $OUT/suite.txt | head -40 | cut -c1-200
echo END
