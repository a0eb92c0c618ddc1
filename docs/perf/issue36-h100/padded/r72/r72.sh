#!/bin/bash
# Along rows, a step up to twice a short row (one predicated step takes
# it whole): cold tunes, a875ba0 (c2's kernels) and the tree alternated
# twice; bench (CUB beside) of f64 min rows of 13536x1280 ld 1361 with
# each; gpu_reduce along rows.
set -u
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export PATH=/usr/local/cuda/bin:$PATH HOME=/tmp/home; mkdir -p $HOME
export LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
export ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=1 LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp
export AUTOTUNE_WORKER=$PWD/build/autotune
R=$OUT/r72; mkdir -p $R
HOW=tune LIMIT=30 timeout 110 sh tests/gpu/bench_reduce_builds.sh gpurun/list-rows2.txt c2=gpurun/bins/autotune-c2 new=build/autotune c2b=gpurun/bins/autotune-c2 newb=build/autotune > $R/ab.txt 2>&1
echo "ab rc=$? $(( $(date +%s) - T0 )) s"
sed -e 's/--type //' -e 's/ --op / /' -e 's/ --axis / /' -e 's/ --rows / /' -e 's/ --cols /x/' -e 's/_acc1_/ /' -e 's/(tuned in//' $R/ab.txt | cut -c1-120
echo "--type f64 --op min --axis cols --rows 13536 --cols 1280 --ld 1361" > /tmp/one.txt
LOG=$R/bench.log LIMIT=40 timeout 90 sh tests/gpu/bench_reduce_builds.sh /tmp/one.txt c2=gpurun/bins/autotune-c2 new=build/autotune > $R/bench.txt 2>&1
echo "bench rc=$? $(( $(date +%s) - T0 )) s"; cat $R/bench.txt | cut -c1-160; grep -E "^min rows" $R/bench.log | cut -c1-160
AT_GPU_ALONG=1 AT_GPU_SAMPLE=4 AT_GPU_ONLY="reduce_f64_min,reduce_f32_sum,reduce_bf16_sum,reduce_i32_amax,reduce_f16_max" \
  timeout 120 build/tests/gpu_reduce-rel > $R/along.tap 2>&1; echo "along rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^not ok|FAILED|points verified" $R/along.tap | head
