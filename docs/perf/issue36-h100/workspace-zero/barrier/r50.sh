#!/bin/bash
# r49 (workspace check on every 10th reduce point, the combine's cost A/B)
# plus multi_size.sh (files of several sizes now carry AT_MIN_BLOCKS).
set -u
T0=$(date +%s)
export PATH=/usr/local/cuda/bin:$PATH HOME=/tmp/home; mkdir -p /tmp/home
t0=$(date +%s)
AT_GPU_TMP=$(mktemp -d) timeout 200 sh tests/gpu/multi_size.sh > $OUT/multi_size.tap 2>&1
echo "== multi_size rc=$? ($(( $(date +%s) - t0 )) s)"; grep -E "^(not ok|ok)" $OUT/multi_size.tap | cut -c1-150 | head -40
# gpurun/r49.sh is docs/perf/issue36-h100/atomic-minmax/r49.sh
bash gpurun/r49.sh 2>&1 | tee $OUT/r49.txt
echo "ALL END $(( $(date +%s) - T0 )) s"
