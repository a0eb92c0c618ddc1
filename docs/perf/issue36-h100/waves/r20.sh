#!/bin/bash
# Waves: cold tunes of the flat problems, 8d6c490 against the tree; the
# emitted .cu of a waves winner in an nvcc program; every flat point of
# f32 (waves included) bit for bit.
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME
export AUTOTUNE_WORKER=$PWD/build/autotune
LIMIT=80 LOG=$OUT/bench.txt sh tests/gpu/bench_reduce_builds.sh gpurun/list11.txt head=gpurun/autotune-8d6 waves=build/autotune
timeout 100 sh tests/gpu/crosscheck_reduce.sh f32 rows 2000003 37 f16 rows 1015457 47 > $OUT/crosscheck.txt 2>&1
echo "== crosscheck rc=$?"
grep -E "emitted point|GB/s|of copy|agree|MISMATCH|wrong" $OUT/crosscheck.txt | cut -c1-200 | head -20
AT_GPU_DOWN=1 AT_GPU_FLAT=1 AT_GPU_ONLY='reduce_f32_*' timeout 150 build/tests/gpu_reduce-rel > $OUT/flat_f32.tap 2>&1
echo "== gpu_reduce flat f32 rc=$? ok=$(grep -c '^ok' $OUT/flat_f32.tap) notok=$(grep -c '^not ok' $OUT/flat_f32.tap)"
grep -E "FAILED|^# reduce .*failed" $OUT/flat_f32.tap | grep -v " 0 failed" | head -5 | cut -c1-300
grep -E "points verified" $OUT/flat_f32.tap | tail -5
echo END
