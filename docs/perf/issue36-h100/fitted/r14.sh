#!/bin/sh
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
AT_GPU_TESTS="medium_thin_points_*" timeout 300 build/tests/gpu_variants-rel > $OUT/gv-medium.tap 2>&1; echo "gv rc=$? verified lines: $(grep -c verified $OUT/gv-medium.tap) failed: $(grep -c FAILED $OUT/gv-medium.tap)"
grep -E "^(ok|not ok)|FAILED" $OUT/gv-medium.tap | head -12
for p in f16:75x400600 bf16:150x315067; do
timeout 100 sh tests/gpu/crosscheck.sh $p > $OUT/xc-$p.txt 2>&1; echo "xc $p rc=$?"; grep -E "^crosscheck|autotune bench: [0-9]" $OUT/xc-$p.txt | cut -c1-200
done
