#!/bin/bash
# Flat column points, the rest: every down-column point of f16 sumsq/amax,
# f64 and i32 verified; compute-sanitizer on a sample of down-column
# points; the emitted .cu of three column problems built by nvcc against
# CUB and timed back to back (crosscheck_reduce.sh).
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME
AT_GPU_DOWN=1 AT_GPU_ONLY="reduce_f16_sumsq,reduce_f16_amax,reduce_f64_*,reduce_i32_*" timeout ${VLIM:-290} build/tests/gpu_reduce-rel > $OUT/gpu_reduce_down2.tap 2>&1
echo "== gpu_reduce down rc=$? ok=$(grep -c '^ok' $OUT/gpu_reduce_down2.tap) notok=$(grep -c '^not ok' $OUT/gpu_reduce_down2.tap)"
grep -E "FAILED" $OUT/gpu_reduce_down2.tap | head -5 | cut -c1-300
grep -E "^# reduce " $OUT/gpu_reduce_down2.tap | awk '{print $3,$4,$(NF-3),$(NF-1)}' | tr '\n' ';'; echo
AT_GPU_DOWN=1 AT_GPU_ONLY="reduce_f16_sum,reduce_f64_min,reduce_i32_sumsq,reduce_bf16_max" AT_GPU_REDUCE_SAMPLE=${SSAMPLE:-12} timeout ${SLIM:-150} sh tests/gpu/sanitize.sh gpu_reduce > $OUT/sanitize_down.tap 2>&1
echo "== sanitize rc=$?"; grep -E "^(ok|not ok)|SUMMARY" $OUT/sanitize_down.tap | head
export AUTOTUNE_WORKER=$PWD/build/autotune
timeout ${XLIM:-120} sh tests/gpu/crosscheck_reduce.sh f16 rows 1015457 47 bf16 rows 1071940 464 f32 rows 2000003 37 > $OUT/crosscheck_reduce.txt 2>&1
echo "== crosscheck rc=$?"; grep -E "emitted point|crosscheck|of copy" $OUT/crosscheck_reduce.txt | cut -c1-230
echo END
