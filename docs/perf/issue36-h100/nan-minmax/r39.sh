#!/bin/bash
# min.NaN / max.NaN (f32, f16, bf16 on sm_80+) and 16-bit pairs combined
# packed (nan) against HEAD: each problem tuned cold by each build,
# alternated; the min/max/amax misses, a sum as control, and 4
# drawn now. Then gpu_reduce on those types and ops, every 5th point.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export HOME=/tmp/home; mkdir -p $HOME
python3 gpurun/randreduce.py "" 4 min,max,amax f32,f16,bf16 >> gpurun/list-nan.txt 2> $OUT/seed.txt; cat $OUT/seed.txt; cp gpurun/list-nan.txt $OUT/
t0=$(date +%s)
LIMIT=40 LOG=$OUT/ab.log timeout 390 sh tests/gpu/bench_reduce_builds.sh gpurun/list-nan.txt head=gpurun/autotune-head nan=gpurun/autotune-nan > $OUT/ab.txt 2>&1; echo "ab rc=$? ($(( $(date +%s) - t0 )) s)"
sed -e 's/ :: / | /' -e 's/(tuned in [0-9.]* s), //' -e 's/ (.*//' $OUT/ab.txt
gzip -9 $OUT/ab.log
t0=$(date +%s)
export AUTOTUNE_WORKER=$PWD/gpurun/autotune-nan
AT_GPU_ONLY='reduce_bf16_m*,reduce_f16_amax,reduce_f32_max,reduce_f32_amax,reduce_any_input_bf16' AT_GPU_SAMPLE=5 timeout 150 build/tests/gpu_reduce-rel > $OUT/gpu_reduce-nan.tap 2>&1; echo "gpu_reduce rc=$? ($(( $(date +%s) - t0 )) s)"
grep -E "^(ok|not ok)|FAILED|points verified" $OUT/gpu_reduce-nan.tap | head -40
echo END
