#!/bin/bash
# Column strips in waves, 2 to 4 (the landed version): gpu_reduce down
# columns of five more type/op pairs (every 3rd point), memcheck on every
# 15th down-column point of f32 sum and i32 amax, cold tunes of
# list-r3.txt (two from r2 where waves won, two of the named misses, four
# drawn at seed 1795857566) alternated twice against HEAD (828137d), and
# the emitted .cu of a waves winner in the nvcc program. Carry
# build/autotune, gpurun/bins/autotune-head, gpurun/bins/autotune-waves,
# build/tests/gpu_reduce-rel, build/tests/lib.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r3; mkdir -p $W && chmod 700 $W
export HOME=$W
export LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
export AUTOTUNE_WORKER=$PWD/build/autotune
s0=$SECONDS
AT_GPU_DOWN=1 AT_GPU_SAMPLE=3 AT_GPU_ONLY='reduce_f16_sumsq,reduce_i32_amax,reduce_f64_min,reduce_bf16_sum,reduce_f32_max' \
  timeout 200 build/tests/gpu_reduce-rel > $OUT/gpu_reduce-down.tap 2>&1
echo "== gpu_reduce down rc=$? $((SECONDS - s0)) s"
grep -E "^(ok|not ok)|FAILED|points verified" $OUT/gpu_reduce-down.tap | cut -c1-120 | head -20
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
s0=$SECONDS
AT_GPU_DOWN=1 AT_GPU_SAMPLE=15 AT_GPU_ONLY='reduce_f32_sum,reduce_i32_amax' timeout 150 $CS --tool memcheck \
  --error-exitcode 99 --print-limit 20 build/tests/gpu_reduce-rel > $OUT/memcheck-down.txt 2>&1
echo "== memcheck down every 15th rc=$? $((SECONDS - s0)) s"
grep -E "^(ok|not ok)|ERROR SUMMARY|points verified" $OUT/memcheck-down.txt | head -6
unset AUTOTUNE_WORKER
for round in 1 2; do
  HOW=tune LIMIT=60 LOG=$OUT/ab$round.log sh tests/gpu/bench_reduce_builds.sh docs/perf/issue36-h200/list-r3.txt \
    head=gpurun/bins/autotune-head waves=gpurun/bins/autotune-waves
done
export AUTOTUNE_WORKER=$PWD/build/autotune
timeout 120 sh tests/gpu/crosscheck_reduce.sh i32:amax rows 36716 1430 f16:sumsq rows 100344 1534 > $OUT/crosscheck.txt 2>&1
echo "== crosscheck rc=$?"; tail -8 $OUT/crosscheck.txt
echo END
