#!/bin/bash
# Shifted strips: every 2nd down-column point of f32, bf16, f16 and i32
# sumsq/amax verified; memcheck on a sample; the nvcc crosscheck.
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME
AT_GPU_DOWN=1 AT_GPU_SAMPLE=2 AT_GPU_ONLY='reduce_f32_*,reduce_bf16_*,reduce_f16_*,reduce_i32_sumsq,reduce_i32_amax' timeout 270 build/tests/gpu_reduce-rel > $OUT/gpu_reduce_rest.tap 2>&1
echo "== gpu_reduce rest rc=$? ok=$(grep -c '^ok' $OUT/gpu_reduce_rest.tap) notok=$(grep -c '^not ok' $OUT/gpu_reduce_rest.tap)"
grep -E "FAILED" $OUT/gpu_reduce_rest.tap | head -5 | cut -c1-300
grep -E "^# reduce " $OUT/gpu_reduce_rest.tap | awk '{s+=$(NF-3); f+=$(NF-1)} END {print "points", s, "failed", f}'
AT_GPU_DOWN=1 AT_GPU_SAMPLE=12 AT_GPU_ONLY='reduce_f16_sum,reduce_f64_max,reduce_i32_sumsq,reduce_bf16_amax' timeout 120 compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 20 build/tests/gpu_reduce-rel > $OUT/memcheck_shift.txt 2>&1
echo "== memcheck rc=$? $(grep -E 'ERROR SUMMARY' $OUT/memcheck_shift.txt | tail -1) ok=$(grep -c '^ok' $OUT/memcheck_shift.txt)"
timeout 110 sh tests/gpu/crosscheck_reduce.sh bf16 rows 254 148614 f16 rows 155 705911 > $OUT/crosscheck_shift.txt 2>&1
echo "== crosscheck rc=$?"
tail -8 $OUT/crosscheck_shift.txt
echo END
