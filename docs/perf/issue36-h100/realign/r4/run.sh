#!/bin/sh
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
KEEP=$OUT/ab sh gpurun/ab.sh gpurun/list4.txt gpurun/bins/autotune-f9e0a2c build/autotune > $OUT/ab.txt 2>&1
timeout 70 sh tests/gpu/crosscheck.sh i8:10924201x21 > $OUT/xc.txt 2>&1; echo "xc rc=$?"; grep -E "crosscheck|autotune bench|emitted" $OUT/xc.txt | cut -c1-220
for b in 1 2 4 8; do
  AT_GPU_SAMPLE=4 AT_GPU_TESTS="strip_points_${b}_bytes" timeout 45 build/tests/gpu_variants-rel > $OUT/gv-strips-$b.tap 2>&1; echo "gv$b rc=$? shapes: $(grep -c verified $OUT/gv-strips-$b.tap) failed: $(grep -c FAILED $OUT/gv-strips-$b.tap)"
  grep -E "^(ok|not ok)" $OUT/gv-strips-$b.tap
done
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
AT_GPU_SAMPLE=13 AT_GPU_TESTS="strip_points_1_bytes" timeout 50 $CS --tool memcheck --error-exitcode 99 --print-limit 20 build/tests/gpu_variants-rel > $OUT/memcheck-1.txt 2>&1; echo "memcheck1 rc=$? shapes: $(grep -c verified $OUT/memcheck-1.txt) errors: $(grep -c 'Invalid' $OUT/memcheck-1.txt)"
grep -E "SUMMARY|^(ok|not ok)" $OUT/memcheck-1.txt | head -3
echo "=== table"; grep -A30 "=== table" $OUT/ab.txt
