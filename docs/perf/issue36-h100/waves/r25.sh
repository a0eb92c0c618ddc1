#!/bin/bash
# Segments taken as they go (AT_DYN) against one a block (67ee007), cold,
# on order-independent flat problems; every flat point of those ops bit
# for bit; memcheck and racecheck on a sample.
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME
export AUTOTUNE_WORKER=$PWD/build/autotune
LIMIT=80 LOG=$OUT/bench.txt sh tests/gpu/bench_reduce_builds.sh gpurun/list13.txt static=gpurun/autotune-67e dyn=build/autotune
AT_GPU_DOWN=1 AT_GPU_FLAT=1 AT_GPU_ONLY='reduce_f32_max,reduce_f32_min,reduce_f32_amax,reduce_bf16_amax,reduce_f16_max,reduce_f64_min,reduce_i32_sum,reduce_i32_sumsq,reduce_i32_max' timeout 150 build/tests/gpu_reduce-rel > $OUT/flat_dyn.tap 2>&1
echo "== gpu_reduce flat dyn ops rc=$? ok=$(grep -c '^ok' $OUT/flat_dyn.tap) notok=$(grep -c '^not ok' $OUT/flat_dyn.tap)"
grep -E "FAILED|^# reduce .*failed" $OUT/flat_dyn.tap | grep -v " 0 failed" | head -5 | cut -c1-300
grep -E "points verified" $OUT/flat_dyn.tap
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
AT_GPU_SAMPLE=10 AT_GPU_DOWN=1 AT_GPU_FLAT=1 AT_GPU_ONLY='reduce_f32_max,reduce_i32_sum' timeout 70 $CS --tool memcheck --error-exitcode 99 --print-limit 20 build/tests/gpu_reduce-rel > $OUT/memcheck_dyn.txt 2>&1
echo "== memcheck dyn rc=$? $(grep -E 'ERROR SUMMARY' $OUT/memcheck_dyn.txt | sort | uniq -c | tr '\n' ' ') $(grep -c '^ok' $OUT/memcheck_dyn.txt) ok"
AT_GPU_SAMPLE=20 AT_GPU_DOWN=1 AT_GPU_FLAT=1 AT_GPU_ONLY='reduce_f32_max' timeout 50 $CS --tool racecheck --error-exitcode 99 --print-limit 20 build/tests/gpu_reduce-rel > $OUT/racecheck_dyn.txt 2>&1
echo "== racecheck dyn rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $OUT/racecheck_dyn.txt | sort | uniq -c | tr '\n' ' ') $(grep -c '^ok' $OUT/racecheck_dyn.txt) ok"
echo END
