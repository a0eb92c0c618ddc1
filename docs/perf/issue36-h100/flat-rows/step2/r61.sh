#!/bin/bash
# Flat rows, second step: bounds once a run (not a vector) and a split
# in waves of 16 warps an SM (not blocks): the committed build (67db25e,
# flat1) against the tree (flat2), cold tunes alternated, on seven short-
# row problems and four drawn now; gpu_reduce's flat points along rows
# on five type/op pairs (every 2nd, waves on 1, 7, 300 SMs), the any-
# input test; the crosscheck of two problems.
set -u
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export PATH=/usr/local/cuda/bin:$PATH HOME=/tmp/home; mkdir -p $HOME
export LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
export ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=1 LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp
R=$OUT/r61; mkdir -p $R
python3 gpurun/randrows_off.py "" 4 > gpurun/list-rand.txt 2> $R/seed.txt; cat $R/seed.txt
cat gpurun/list-flat.txt gpurun/list-rand.txt > $R/list.txt
HOW=tune LOG=$R/ab.log timeout 200 sh tests/gpu/bench_reduce_builds.sh $R/list.txt flat1=gpurun/bins/autotune-flat1 flat2=build/autotune > $R/ab.txt 2>&1
echo "ab $(( $(date +%s) - T0 )) s"
export AUTOTUNE_WORKER=$PWD/build/autotune
AT_GPU_ALONG=1 AT_GPU_FLAT=1 AT_GPU_SAMPLE=2 AT_GPU_ONLY="reduce_bf16_sum,reduce_f16_min,reduce_i32_sumsq,reduce_f64_amax,reduce_f32_max,reduce_i32_amax" \
  timeout 150 build/tests/gpu_reduce-rel > $R/flat-rows.tap 2>&1; echo "flat rows rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^not ok|FAILED|points verified" $R/flat-rows.tap | head -20
timeout 100 sh tests/gpu/crosscheck_reduce.sh f16:sum cols 1871852 31 bf16:min cols 311518 127 > $R/crosscheck.txt 2>&1
echo "crosscheck rc=$? $(( $(date +%s) - T0 )) s"
grep -E "emitted point|crosscheck|autotune bench" $R/crosscheck.txt | cut -c1-200
sed -e 's/--type //' -e 's/--op //' -e 's/--axis cols/rows of/' -e 's/--rows //' -e 's/ --cols /x/' $R/ab.txt | cut -c1-130
