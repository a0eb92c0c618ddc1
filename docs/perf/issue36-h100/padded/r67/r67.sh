#!/bin/bash
# Column strips' last rows as one step (loads past the strip's rows take
# row r again; the outputs stored unrolled): cold tunes, the committed
# build (c2) and the tree alternated twice, on eleven problems down
# columns of 184 to 311697 rows; then gpu_reduce down columns.
set -u
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export PATH=/usr/local/cuda/bin:$PATH HOME=/tmp/home; mkdir -p $HOME
export LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
export ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=1 LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp
export AUTOTUNE_WORKER=$PWD/build/autotune
R=$OUT/r67; mkdir -p $R
HOW=tune LIMIT=40 timeout 380 sh tests/gpu/bench_reduce_builds.sh gpurun/list-down.txt c2=gpurun/bins/autotune-c2 new=build/autotune c2b=gpurun/bins/autotune-c2 newb=build/autotune > $R/ab.txt 2>&1
echo "ab rc=$? $(( $(date +%s) - T0 )) s"
sed -e 's/--type //' -e 's/ --op / /' -e 's/ --axis / /' -e 's/ --rows / /' -e 's/ --cols /x/' -e 's/_acc1_/ /' -e 's/(tuned in//' $R/ab.txt | cut -c1-120
AT_GPU_DOWN=1 AT_GPU_SAMPLE=7 AT_GPU_ONLY="reduce_i32_sumsq,reduce_f16_amax,reduce_f32_min,reduce_bf16_sum,reduce_f64_max" \
  timeout 140 build/tests/gpu_reduce-rel > $R/down.tap 2>&1; echo "down rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^not ok|FAILED|points verified" $R/down.tap | head
