#!/bin/bash
# Flat along rows with splits in waves: HEAD (7621f44) against the tree
# by their cold tunes on short rows (seven fixed, the 25-long one that
# read 44%, six drawn now, end to end and off the vector), alternated;
# then gpu_reduce's flat points along rows (every 3rd; i32 and f64 first,
# which the last run did not reach), waves on 1, 7 and 300 SMs included.
set -u
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
export ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=1 LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp
R=$OUT/r59; mkdir -p $R
python3 gpurun/randrows_off.py "" 6 > gpurun/list-rand.txt 2> $R/seed.txt; cat $R/seed.txt
{ cat gpurun/list-rows.txt; echo "--type bf16 --op min --axis cols --rows 1962426 --cols 25"; cat gpurun/list-rand.txt; } > $R/list.txt
LOG=$R/ab.log timeout 230 sh docs/perf/issue36-h100/flat-rows/tune_ab.sh $R/list.txt head=gpurun/bins/autotune-7621f44 flat=build/autotune > $R/ab.txt 2>&1
echo "ab $(( $(date +%s) - T0 )) s"
export AUTOTUNE_WORKER=$PWD/build/autotune
AT_GPU_ALONG=1 AT_GPU_FLAT=1 AT_GPU_SAMPLE=3 AT_GPU_ONLY="reduce_i32_*,reduce_f64_*" \
  timeout 120 build/tests/gpu_reduce-rel > $R/flat-rows-1.tap 2>&1; echo "flat rows i32 f64 rc=$? $(( $(date +%s) - T0 )) s"
AT_GPU_ALONG=1 AT_GPU_FLAT=1 AT_GPU_SAMPLE=3 AT_GPU_ONLY="reduce_f32_*,reduce_f16_*,reduce_bf16_*" \
  timeout 170 build/tests/gpu_reduce-rel > $R/flat-rows-2.tap 2>&1; echo "flat rows f32 f16 bf16 rc=$? $(( $(date +%s) - T0 )) s"
cat $R/flat-rows-*.tap | grep -E "^not ok|FAILED|points verified" | head -40
sed -e 's/--type //' -e 's/--op //' -e 's/--axis cols/rows of/' -e 's/--rows //' -e 's/ --cols /x/' $R/ab.txt | cut -c1-130
