#!/bin/sh
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
KEEP=$OUT/ab sh gpurun/ab.sh gpurun/list3.txt gpurun/bins/autotune-f9e0a2c build/autotune > $OUT/ab.txt 2>&1
for b in 1 2; do
  AT_GPU_SAMPLE=2 AT_GPU_TESTS="strip_points_${b}_bytes" timeout 75 build/tests/gpu_variants-rel > $OUT/gv-strips-$b.tap 2>&1; echo "gv$b rc=$?"
  grep -E "^(ok|not ok)|FAILED" $OUT/gv-strips-$b.tap | head -5; grep -c "verified" $OUT/gv-strips-$b.tap
done
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for b in 1 2; do
  AT_GPU_SAMPLE=9 AT_GPU_TESTS="strip_points_${b}_bytes" timeout 60 $CS --tool memcheck --error-exitcode 99 --print-limit 20 build/tests/gpu_variants-rel > $OUT/memcheck-$b.txt 2>&1; echo "memcheck$b rc=$?"
  grep -E "SUMMARY|^(ok|not ok)" $OUT/memcheck-$b.txt | head -4; grep -c verified $OUT/memcheck-$b.txt
done
echo "=== table"; grep -A30 "=== table" $OUT/ab.txt
