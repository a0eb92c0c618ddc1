#!/bin/bash
# The layout's own ceiling (memcpy2D, a plain read) on padded shapes;
# cold tunes, 39e2efc then the tree (rows' loads in flight at once,
# one-element flat points down columns skipping the padding), on the
# sweep's two padded misses and random padded problems drawn now; then
# gpu_reduce on the new paths (flat down columns, along rows, any input).
set -u
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export PATH=/usr/local/cuda/bin:$PATH HOME=/tmp/home; mkdir -p $HOME
export LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
export ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=1 LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp
export AUTOTUNE_WORKER=$PWD/build/autotune
R=$OUT/r64; mkdir -p $R
S=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
{ echo "--type f64 --op min --axis rows --rows 719073 --cols 39 --ld 75"
  echo "--type f32 --op sum --axis cols --rows 34834 --cols 502 --ld 551"
  python3 gpurun/randpad.py $S 8; } > $R/list.txt 2> $R/seed.txt
cat $R/seed.txt
nvcc -arch=sm_90 -O3 -o /tmp/lc gpurun/layout_copy.cu && \
  /tmp/lc $(awk '{t=$2; e=(t=="f64")?8:(t=="f32"||t=="i32")?4:2; print e, $8, $10, $12}' $R/list.txt | grep -v '^ *$') 8 719073 39 39 | tee $R/layout.txt
echo "layout $(( $(date +%s) - T0 )) s"
HOW=tune LIMIT=40 timeout 300 sh tests/gpu/bench_reduce_builds.sh $R/list.txt old=gpurun/bins/autotune-39e2efc new=build/autotune > $R/ab.txt 2>&1
echo "ab rc=$? $(( $(date +%s) - T0 )) s"
sed -e 's/--type //' -e 's/ --op / /' -e 's/ --axis / /' -e 's/ --rows / /' -e 's/ --cols /x/' -e 's/ --ld / ld /' $R/ab.txt
AT_GPU_DOWN=1 AT_GPU_FLAT=1 AT_GPU_SAMPLE=2 AT_GPU_ONLY="reduce_f64_min,reduce_f32_sum,reduce_bf16_amax,reduce_i32_sumsq,reduce_f16_max,reduce_f64_sumsq" \
  timeout 90 build/tests/gpu_reduce-rel > $R/flat-down.tap 2>&1; echo "flat down rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^not ok|FAILED|points verified" $R/flat-down.tap | head
AT_GPU_ALONG=1 AT_GPU_SAMPLE=7 AT_GPU_ONLY="reduce_f32_sum,reduce_bf16_min,reduce_i32_sumsq,reduce_f64_max,reduce_f16_amax" \
  timeout 90 build/tests/gpu_reduce-rel > $R/along.tap 2>&1; echo "along rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^not ok|FAILED|points verified" $R/along.tap | head
AT_GPU_ONLY="reduce_any_input_f64,reduce_any_input_f32" AT_GPU_SAMPLE=6 timeout 60 build/tests/gpu_reduce-rel > $R/any.tap 2>&1; echo "any rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^not ok|FAILED|^ok" $R/any.tap | head
