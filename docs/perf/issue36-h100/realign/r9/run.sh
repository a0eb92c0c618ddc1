#!/bin/sh
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
KEEP= sh gpurun/ab.sh gpurun/list9.txt gpurun/bins/autotune-f9e0a2c build/autotune > $OUT/ab.txt 2>&1
KEEP= sh gpurun/ab.sh gpurun/list9b.txt build/autotune build/autotune > $OUT/ab-new.txt 2>&1
timeout 50 sh tests/gpu/crosscheck.sh f16:21703965x10 > $OUT/xc.txt 2>&1; echo "xc rc=$?"; grep -E "crosscheck|autotune bench" $OUT/xc.txt | cut -c1-200
for b in 2 1; do
  AT_GPU_SAMPLE=3 AT_GPU_TESTS="strip_points_${b}_bytes" timeout 50 build/tests/gpu_variants-rel > $OUT/gv-strips-$b.tap 2>&1; echo "gv$b rc=$? shapes: $(grep -c verified $OUT/gv-strips-$b.tap) failed: $(grep -c FAILED $OUT/gv-strips-$b.tap)"
  grep -E "^(ok|not ok)|FAILED" $OUT/gv-strips-$b.tap | head -4
done
AT_GPU_SAMPLE=11 AT_GPU_TESTS="strip_points_2_bytes" timeout 45 compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 20 build/tests/gpu_variants-rel > $OUT/memcheck-2.txt 2>&1; echo "memcheck2 rc=$? shapes: $(grep -c verified $OUT/memcheck-2.txt) invalid: $(grep -c Invalid $OUT/memcheck-2.txt)"
grep -E "SUMMARY|^(ok|not ok)" $OUT/memcheck-2.txt | head -3
echo "=== table"; grep -A8 "=== table" $OUT/ab.txt; grep -A6 "=== table" $OUT/ab-new.txt
