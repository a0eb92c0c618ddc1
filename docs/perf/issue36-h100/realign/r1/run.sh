#!/bin/sh
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export AT_GPU_TESTS="strip_points_1_bytes"
timeout 100 build/tests/gpu_variants-rel > $OUT/gv-strips-1.tap 2>&1; echo "gv1 rc=$?"
grep -E "^(ok|not ok)|FAILED" $OUT/gv-strips-1.tap | head -20
export AT_GPU_TESTS="strip_points_2_bytes"
timeout 100 build/tests/gpu_variants-rel > $OUT/gv-strips-2.tap 2>&1; echo "gv2 rc=$?"
grep -E "^(ok|not ok)|FAILED" $OUT/gv-strips-2.tap | head -20
unset AT_GPU_TESTS
KEEP=$OUT/ab sh gpurun/ab.sh gpurun/list1.txt gpurun/bins/autotune-f9e0a2c build/autotune 2>&1 | tail -22
