#!/bin/bash
# Flat along rows: gpu_reduce's flat points along rows for every type and
# op (each verified on 131101x127 and the check problems, run twice for
# the same bits), the any-input test, memcheck on a sample; then HEAD
# (7621f44) against the tree on short rows, seven fixed problems and six
# drawn now, each tuned cold, alternated.
set -u
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export PATH=/usr/local/cuda/bin:$PATH
export AUTOTUNE_WORKER=$PWD/build/autotune
export LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
export ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=1 LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp
R=$OUT/r57; mkdir -p $R
AT_GPU_ALONG=1 AT_GPU_FLAT=1 AT_GPU_ONLY="reduce_f32_*,reduce_f64_*,reduce_f16_*,reduce_bf16_*,reduce_i32_*" \
  timeout 200 build/tests/gpu_reduce-rel > $R/flat-rows.tap 2>&1; echo "flat rows rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^not ok|FAILED|points verified" $R/flat-rows.tap | head -40
AT_GPU_ONLY="reduce_any_input_*" AT_GPU_SAMPLE=8 timeout 120 build/tests/gpu_reduce-rel > $R/any.tap 2>&1; echo "any input rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^not ok|FAILED|any input.*40009" $R/any.tap | head -20
AT_GPU_ALONG=1 AT_GPU_FLAT=1 AT_GPU_SAMPLE=3 AT_GPU_ONLY="reduce_bf16_sum,reduce_f64_min,reduce_i32_amax,reduce_f16_sumsq" \
  timeout 150 compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 20 build/tests/gpu_reduce-rel > $R/memcheck.txt 2>&1
echo "memcheck rc=$? $(( $(date +%s) - T0 )) s"; grep -E "SUMMARY|points verified|not ok" $R/memcheck.txt | head
python3 gpurun/randrows.py "" 6 > gpurun/list-rand.txt 2> $R/seed.txt; cat $R/seed.txt
cat gpurun/list-rows.txt gpurun/list-rand.txt > $R/list.txt
LIMIT=60 LOG=$R/ab.log sh tests/gpu/bench_reduce_builds.sh $R/list.txt head=gpurun/bins/autotune-7621f44 flat=build/autotune > $R/ab.txt 2>&1
echo "ab $(( $(date +%s) - T0 )) s"
sed -e 's/--type //' -e 's/--op //' -e 's/--axis cols/rows of/' -e 's/--rows //' -e 's/ --cols /x/' $R/ab.txt | cut -c1-150
