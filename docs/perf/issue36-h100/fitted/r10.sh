#!/bin/sh
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
AT_GPU_TESTS="fitted_points_*" timeout 200 build/tests/gpu_variants-rel > $OUT/gv-fitted.tap 2>&1; echo "gv rc=$? verified lines: $(grep -c verified $OUT/gv-fitted.tap) failed: $(grep -c FAILED $OUT/gv-fitted.tap)"
grep -E "^(ok|not ok)|FAILED" $OUT/gv-fitted.tap | head -12
KEEP=$OUT/ab1 sh docs/perf/issue36-h100/realign/ab.sh docs/perf/issue36-h100/fitted/list-mid.txt gpurun/bins/autotune-468bd1a build/autotune > $OUT/ab1.txt 2>&1
echo "=== table"; grep -A14 "=== table" $OUT/ab1.txt
