#!/bin/bash
# The reduce tests r52 ran out of time for, with the workspace check
# (every 40th point): f64 sumsq and amax, every i32 op, any input.
set -u
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export HOME=/tmp/home; mkdir -p $HOME
export AUTOTUNE_WORKER=$PWD/build/autotune
export LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
AT_GPU_ONLY='reduce_f64_sumsq,reduce_f64_amax,reduce_i32_*,reduce_any_input_*' AT_GPU_SAMPLE=40 timeout 280 build/tests/gpu_reduce-rel > $OUT/gpu_reduce_rest.tap 2>&1
echo "== gpu_reduce rc=$? ($(( $(date +%s) - T0 )) s)"
grep -E "^(ok|not ok)" $OUT/gpu_reduce_rest.tap | tr '\n' ' '; echo
grep -E "FAILED|non-zero|not ok" $OUT/gpu_reduce_rest.tap | head -5 | cut -c1-300
grep "points verified" $OUT/gpu_reduce_rest.tap | awk '{s+=$4} END {print s, "points verified"}'
echo "END $(( $(date +%s) - T0 )) s"
