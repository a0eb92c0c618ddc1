#!/bin/sh
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
KEEP= sh docs/perf/issue36-h100/realign/ab.sh docs/perf/issue36-h100/fitted/list-flat.txt gpurun/bins/autotune-e18b28a build/autotune > $OUT/ab.txt 2>&1
timeout 100 sh tests/gpu/crosscheck.sh f16:75x400600 > $OUT/xc.txt 2>&1; echo "xc rc=$?"; grep -E "^crosscheck|autotune bench: [0-9]" $OUT/xc.txt | cut -c1-200
AT_GPU_SAMPLE=3 AT_GPU_TESTS="medium_thin_points_*" timeout 150 build/tests/gpu_variants-rel > $OUT/gv-medium.tap 2>&1; echo "gv rc=$? verified lines: $(grep -c verified $OUT/gv-medium.tap) failed: $(grep -c FAILED $OUT/gv-medium.tap)"
grep -E "^(ok|not ok)|FAILED" $OUT/gv-medium.tap | head -8
echo "=== table"; grep -A8 "=== table" $OUT/ab.txt
