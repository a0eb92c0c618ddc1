#!/bin/bash
# Flat along rows, lanes' runs of items vectors: HEAD (7621f44) against
# the tree on short rows, seven fixed problems and five drawn now (end to
# end, off the vector), each tuned cold, alternated; then gpu_reduce's
# flat points along rows (every 2nd) for every type and op, the any-input
# test on the flat shape, memcheck on a sample.
set -u
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export PATH=/usr/local/cuda/bin:$PATH
export AUTOTUNE_WORKER=$PWD/build/autotune
export LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
export ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=1 LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp
R=$OUT/r58; mkdir -p $R
python3 gpurun/randrows_off.py "" 5 > gpurun/list-rand.txt 2> $R/seed.txt; cat $R/seed.txt
cat gpurun/list-rows.txt gpurun/list-rand.txt > $R/list.txt
LIMIT=40 LOG=$R/ab.log timeout 250 sh tests/gpu/bench_reduce_builds.sh $R/list.txt head=gpurun/bins/autotune-7621f44 flat=build/autotune > $R/ab.txt 2>&1
echo "ab $(( $(date +%s) - T0 )) s"
sed -e 's/--type //' -e 's/--op //' -e 's/--axis cols/rows of/' -e 's/--rows //' -e 's/ --cols /x/' -e 's/(tuned in \([0-9.]*\) s), [0-9]* GB\/s, / \1 s /' -e 's/ of copy.*//' $R/ab.txt | cut -c1-120
AT_GPU_ALONG=1 AT_GPU_FLAT=1 AT_GPU_SAMPLE=2 \
  timeout 170 build/tests/gpu_reduce-rel > $R/flat-rows.tap 2>&1; echo "flat rows rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^not ok|FAILED|points verified" $R/flat-rows.tap | head -40
AT_GPU_ONLY="reduce_any_input_bf16,reduce_any_input_f64" AT_GPU_SAMPLE=4 timeout 60 build/tests/gpu_reduce-rel > $R/any.tap 2>&1; echo "any input rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^not ok|FAILED|any input.*40009" $R/any.tap | head -20
AT_GPU_ALONG=1 AT_GPU_FLAT=1 AT_GPU_SAMPLE=3 AT_GPU_ONLY="reduce_bf16_sum,reduce_f64_min,reduce_i32_amax" \
  timeout 90 compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 20 build/tests/gpu_reduce-rel > $R/memcheck.txt 2>&1
echo "memcheck rc=$? $(( $(date +%s) - T0 )) s"; grep -E "SUMMARY|points verified|not ok" $R/memcheck.txt | head
