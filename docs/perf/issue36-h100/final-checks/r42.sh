#!/bin/bash
# The final checks, part 3: gpu_reduce's last types and ops (f64 amax,
# i32's five, the any-input tests of every type) every 6th point, and
# faults.sh with its winner check one-sided (a faster winner is noise).
set -u
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export HOME=/tmp/home; mkdir -p $HOME
export AUTOTUNE_WORKER=$PWD/build/autotune
t0=$(date +%s)
sh tests/gpu/run.sh tests/gpu/faults.sh > $OUT/faults.tap 2>&1; echo "faults rc=$? ($(( $(date +%s) - t0 )) s)"
grep -E "^(ok|not ok)" $OUT/faults.tap
t0=$(date +%s)
left=$(( 540 - $(date +%s) + T0 ))
AT_GPU_ONLY='reduce_f64_amax,reduce_i32_*,reduce_any_input_*' AT_GPU_SAMPLE=6 timeout $left build/tests/gpu_reduce-rel > $OUT/gpu_reduce-last.tap 2>&1; echo "gpu_reduce rc=$? ($(( $(date +%s) - t0 )) s)"
grep -E "^(ok|not ok)|FAILED" $OUT/gpu_reduce-last.tap | tr '\n' ' ' | head -c 1500; echo
echo END
