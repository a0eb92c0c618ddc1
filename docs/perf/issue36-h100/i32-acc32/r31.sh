#!/bin/bash
# (1) gpu_variants' new tests (dd19c3c), never run; (2) i32 min/max/amax
# with 32-bit accumulators against HEAD, cold, alternated (seed 95762426
# drew five of the problems; i32 sum is the control); (3) every i32 point
# of gpu_reduce.
set -u
export HOME=/tmp/home; mkdir -p $HOME
export AUTOTUNE_WORKER=$PWD/build/autotune
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in every_point_1_byte_rows_off_sectors every_point_2_bytes_rows_off_sectors; do
  s=$(date +%s)
  AT_GPU_TESTS=$t timeout 150 build/tests/gpu_variants-rel > $OUT/gv-$t.tap 2>&1
  echo "$t rc=$? $(( $(date +%s) - s )) s: $(grep -E '^(ok|not ok|# )' $OUT/gv-$t.tap | tail -3 | tr '\n' ' ')"
done
s=$(date +%s)
LIMIT=60 LOG=$OUT/ab-i32.log sh tests/gpu/bench_reduce_builds.sh gpurun/list-i32.txt head=gpurun/autotune-head acc32=build/autotune > $OUT/ab-i32.txt 2>&1
echo "ab $(( $(date +%s) - s )) s"
s=$(date +%s)
AT_GPU_ONLY='reduce_i32_*' timeout 200 build/tests/gpu_reduce-rel > $OUT/gpu_reduce-i32.tap 2>&1
echo "gpu_reduce i32 rc=$? $(( $(date +%s) - s )) s"
grep -E '^(ok|not ok)' $OUT/gpu_reduce-i32.tap
cat $OUT/ab-i32.txt
