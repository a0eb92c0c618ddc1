#!/bin/bash
# compute-sanitizer memcheck on the new paths (one-element flat points
# down padded columns; rows with their head and tail loaded first), then
# autotune bench reduce --sweep 16 at a seed drawn now.
set -u
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export PATH=/usr/local/cuda/bin:$PATH HOME=/tmp/home; mkdir -p $HOME
export LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
export AUTOTUNE_WORKER=$PWD/build/autotune
R=$OUT/r66; mkdir -p $R
AT_GPU_DOWN=1 AT_GPU_FLAT=1 AT_GPU_SAMPLE=6 AT_GPU_ONLY="reduce_f64_min,reduce_bf16_sum,reduce_i32_amax" \
  timeout 130 compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 20 build/tests/gpu_reduce-rel > $R/memcheck-flat-down.txt 2>&1
echo "memcheck flat down rc=$? $(( $(date +%s) - T0 )) s"; grep -E "ERROR SUMMARY|points verified|not ok|^ok" $R/memcheck-flat-down.txt | head -8
AT_GPU_ALONG=1 AT_GPU_SAMPLE=12 AT_GPU_ONLY="reduce_f32_sum,reduce_f16_amax,reduce_f64_max" \
  timeout 130 compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 20 build/tests/gpu_reduce-rel > $R/memcheck-along.txt 2>&1
echo "memcheck along rc=$? $(( $(date +%s) - T0 )) s"; grep -E "ERROR SUMMARY|points verified|not ok|^ok" $R/memcheck-along.txt | head -8
S=$(od -An -N4 -tu4 /dev/urandom | tr -d ' '); echo "sweep seed $S"
cd $R && timeout 290 $OLDPWD/build/autotune bench reduce --sweep 16 --seed $S --quiet > sweep.log 2>&1; echo "sweep rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^\[[0-9]+/16\] " sweep.log | sed 's/, input seed.*//' | cut -c1-150
sed -n '/^shape /,$p' sweep.log | grep -E "MISSED|problems of|all:|-byte" | cut -c1-220
