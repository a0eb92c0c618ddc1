#!/bin/sh
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for b in 1 2 4 8 16; do
  AT_GPU_TESTS="strip_points_${b}_bytes" timeout 60 build/tests/gpu_variants-rel > $OUT/gv-strips-$b.tap 2>&1; echo "gv$b rc=$?"
  grep -E "^(ok|not ok)|FAILED" $OUT/gv-strips-$b.tap | head -5
done
KEEP=$OUT/ab sh gpurun/ab.sh gpurun/list2.txt gpurun/bins/autotune-f9e0a2c build/autotune > $OUT/ab.txt 2>&1
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for b in 1 2; do
  AT_GPU_SAMPLE=5 AT_GPU_TESTS="strip_points_${b}_bytes" timeout 120 $CS --tool memcheck --error-exitcode 99 --print-limit 20 build/tests/gpu_variants-rel > $OUT/memcheck-$b.txt 2>&1; echo "memcheck$b rc=$?"
  grep -E "SUMMARY|^(ok|not ok)" $OUT/memcheck-$b.txt | head -4
done
timeout 100 sh tests/gpu/crosscheck.sh f16:21703965x10 > $OUT/xc.txt 2>&1; echo "xc rc=$?"
tail -15 $OUT/xc.txt
echo "=== table"; grep -A30 "=== table" $OUT/ab.txt
