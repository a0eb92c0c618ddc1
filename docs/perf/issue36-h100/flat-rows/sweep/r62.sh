#!/bin/bash
# The tree's flat points along rows on the 19 type/op pairs r61 did not
# run (every 3rd, waves on 1, 7, 300 SMs); then autotune bench reduce
# --sweep 16 at a seed drawn now, as far as the time allows.
set -u
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export PATH=/usr/local/cuda/bin:$PATH HOME=/tmp/home; mkdir -p $HOME
export LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
export ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=1 LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp
export AUTOTUNE_WORKER=$PWD/build/autotune
R=$OUT/r62; mkdir -p $R
AT_GPU_ALONG=1 AT_GPU_FLAT=1 AT_GPU_SAMPLE=3 AT_GPU_ONLY="reduce_f32_sum,reduce_f32_min,reduce_f32_sumsq,reduce_f32_amax,reduce_bf16_max,reduce_bf16_min,reduce_bf16_sumsq,reduce_bf16_amax,reduce_f16_sum,reduce_f16_max,reduce_f16_sumsq,reduce_f16_amax,reduce_f64_sum,reduce_f64_max,reduce_f64_min,reduce_f64_sumsq,reduce_i32_sum,reduce_i32_max,reduce_i32_min" \
  timeout 250 build/tests/gpu_reduce-rel > $R/flat-rows.tap 2>&1; echo "flat rows rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^not ok|FAILED" $R/flat-rows.tap | head; grep -h "points verified" $R/flat-rows.tap | awk '{s+=$4} END {print "verified", s, "in", NR, "pairs"}'
S=$(od -An -N4 -tu4 /dev/urandom | tr -d ' '); echo "sweep seed $S"
cd $R && timeout 270 $OLDPWD/build/autotune bench reduce --sweep 16 --seed $S --quiet > sweep.log 2>&1; echo "sweep rc=$? $(( $(date +%s) - T0 )) s"
tail -40 sweep.log | cut -c1-170
