#!/bin/bash
# Experiment: flat points split in k x 132 blocks (waves) against the
# tree; then any-input i32 (cut last time) and memcheck of bf16's.
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
LOG=$OUT/bench.txt sh tests/gpu/bench_reduce_builds.sh gpurun/list7.txt new=build/autotune waves=gpurun/autotune-waves
AT_GPU_ONLY='reduce_any_input_i32' timeout 80 build/tests/gpu_reduce-rel > $OUT/any_input_i32.tap 2>&1
echo "== any input i32 rc=$? ok=$(grep -c '^ok' $OUT/any_input_i32.tap) notok=$(grep -c '^not ok' $OUT/any_input_i32.tap)"
grep -E "^# (any input|FAILED)" $OUT/any_input_i32.tap | cut -c1-200
AT_GPU_SAMPLE=30 AT_GPU_ONLY='reduce_any_input_bf16' timeout 200 $CS --tool memcheck --error-exitcode 99 --print-limit 20 build/tests/gpu_reduce-rel > $OUT/memcheck_any_bf16.txt 2>&1
echo "== memcheck any bf16 rc=$? $(grep -E 'ERROR SUMMARY' $OUT/memcheck_any_bf16.txt | sort | uniq -c | tr '\n' ' ') $(grep -c '^ok' $OUT/memcheck_any_bf16.txt) ok"
grep -E "^# any input" $OUT/memcheck_any_bf16.txt | cut -c1-200
echo END
