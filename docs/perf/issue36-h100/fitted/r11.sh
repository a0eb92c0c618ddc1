#!/bin/sh
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
KEEP= sh docs/perf/issue36-h100/realign/ab.sh docs/perf/issue36-h100/fitted/list-mid.txt (first six) gpurun/bins/autotune-a4699be build/autotune > $OUT/ab1.txt 2>&1
AT_GPU_SAMPLE=2 AT_GPU_TESTS="medium_thin_points_*" timeout 250 build/tests/gpu_variants-rel > $OUT/gv-medium.tap 2>&1; echo "gv rc=$? verified lines: $(grep -c verified $OUT/gv-medium.tap) failed: $(grep -c FAILED $OUT/gv-medium.tap)"
grep -E "^(ok|not ok)|FAILED" $OUT/gv-medium.tap | head -12
echo "=== table"; grep -A14 "=== table" $OUT/ab1.txt
