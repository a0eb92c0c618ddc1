#!/bin/bash
# The L2's fetch granularity against padded layouts (a plain read at the
# default and at 32 bytes); the tree's winners on four padded problems as
# a user builds them (emitted .cu + nvcc, beside memcpy and CUB, then
# autotune bench from the same cache); the any-input test of f64.
set -u
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export PATH=/usr/local/cuda/bin:$PATH HOME=/tmp/home; mkdir -p $HOME
export LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
export ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=1 LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp
export AUTOTUNE_WORKER=$PWD/build/autotune
R=$OUT/r65; mkdir -p $R
nvcc -arch=sm_90 -O3 -o /tmp/lc gpurun/layout_copy.cu
SH="8 719073 39 75 4 2543863 40 56 2 604257 83 157 2 7610912 25 43 2 331854 269 487"
/tmp/lc $SH > $R/layout-default.txt; L2G=32 /tmp/lc $SH > $R/layout-32.txt; L2G=128 /tmp/lc $SH > $R/layout-128.txt
paste -d'\n' $R/layout-default.txt $R/layout-32.txt $R/layout-128.txt | cut -c1-160
echo "layout $(( $(date +%s) - T0 )) s"
S=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
{ echo "--type i32 --op sumsq --axis rows --rows 700 --cols 59825"
  echo "--type f16 --op amax --axis rows --rows 338 --cols 311179"
  echo "--type i32 --op min --axis rows --rows 988 --cols 81015"
  python3 gpurun/randdown.py $S 6; } > $R/list.txt 2> $R/seed.txt
cat $R/seed.txt
HOW=tune LIMIT=40 timeout 200 sh tests/gpu/bench_reduce_builds.sh $R/list.txt c1=gpurun/bins/autotune-c1 new=build/autotune > $R/ab.txt 2>&1
echo "ab rc=$? $(( $(date +%s) - T0 )) s"
sed -e 's/--type //' -e 's/ --op / /' -e 's/ --axis / /' -e 's/ --rows / /' -e 's/ --cols /x/' $R/ab.txt
timeout 170 sh tests/gpu/crosscheck_reduce.sh f32:sum cols 34834 502:551 f64:min rows 719073 39:75 \
  i32:amax cols 25071 675:833 > $R/crosscheck.txt 2>&1
echo "crosscheck rc=$? $(( $(date +%s) - T0 )) s"
grep -E "emitted point|crosscheck|autotune bench|of copy|rror" $R/crosscheck.txt | cut -c1-230
AT_GPU_ONLY="reduce_any_input_f64" AT_GPU_SAMPLE=6 timeout 100 build/tests/gpu_reduce-rel > $R/any.tap 2>&1; echo "any rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^not ok|FAILED|^ok" $R/any.tap | head
AT_GPU_DOWN=1 AT_GPU_SAMPLE=9 AT_GPU_ONLY="reduce_i32_sumsq,reduce_f16_amax,reduce_f32_min,reduce_bf16_sum,reduce_f64_max" \
  timeout 80 build/tests/gpu_reduce-rel > $R/down.tap 2>&1; echo "down rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^not ok|FAILED|points verified" $R/down.tap | head
