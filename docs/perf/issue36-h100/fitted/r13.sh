#!/bin/sh
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 100 sh tests/gpu/crosscheck.sh f16:75x400600 > $OUT/xc.txt 2>&1; echo "xc rc=$?"; grep -E "crosscheck|autotune bench|wrong|tuned|memcpy" $OUT/xc.txt | cut -c1-200 | head -12
AT_GPU_SAMPLE=7 AT_GPU_TESTS="medium_thin_points_2_bytes" timeout 110 compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 20 build/tests/gpu_variants-rel > $OUT/memcheck-2.txt 2>&1; echo "memcheck2 rc=$? shapes: $(grep -c verified $OUT/memcheck-2.txt) invalid: $(grep -c Invalid $OUT/memcheck-2.txt)"
grep -E "SUMMARY|^(ok|not ok)" $OUT/memcheck-2.txt | head -3
AT_GPU_SAMPLE=9 AT_GPU_TESTS="medium_thin_points_4_bytes" timeout 90 compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 20 build/tests/gpu_variants-rel > $OUT/memcheck-4.txt 2>&1; echo "memcheck4 rc=$? shapes: $(grep -c verified $OUT/memcheck-4.txt) invalid: $(grep -c Invalid $OUT/memcheck-4.txt)"
grep -E "SUMMARY|^(ok|not ok)" $OUT/memcheck-4.txt | head -3
python3 docs/perf/issue36-h100/fitted/randmid.py 3 > $OUT/rand.txt 2> $OUT/rand-seed.txt; cat $OUT/rand-seed.txt $OUT/rand.txt
KEEP= sh docs/perf/issue36-h100/realign/ab.sh $OUT/rand.txt gpurun/bins/autotune-a4699be build/autotune > $OUT/ab-rand.txt 2>&1
echo "=== table"; grep -A8 "=== table" $OUT/ab-rand.txt
