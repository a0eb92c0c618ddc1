#!/bin/bash
# compute-sanitizer memcheck on the tree's flat points along rows (bounds
# once a run): every 3rd of bf16 sum, f64 min, i32 amax and f16 max,
# waves included.
set -u
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export PATH=/usr/local/cuda/bin:$PATH HOME=/tmp/home; mkdir -p $HOME
export LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
export AUTOTUNE_WORKER=$PWD/build/autotune
R=$OUT/r63; mkdir -p $R
AT_GPU_ALONG=1 AT_GPU_FLAT=1 AT_GPU_SAMPLE=3 AT_GPU_ONLY="reduce_bf16_sum,reduce_f64_min,reduce_i32_amax,reduce_f16_max" \
  timeout 200 compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 20 build/tests/gpu_reduce-rel > $R/memcheck.txt 2>&1
echo "memcheck rc=$? $(( $(date +%s) - T0 )) s"; grep -E "SUMMARY|points verified|not ok|^ok" $R/memcheck.txt | head -12
