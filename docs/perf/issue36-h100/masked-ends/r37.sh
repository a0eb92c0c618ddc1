#!/bin/bash
# Along rows, the head and tail of rows off the vector as one masked
# aligned vector each (ends) against HEAD's element-by-element ends: each
# problem tuned cold by each build, alternated; the short rows,
# an aligned control and 6 drawn now. Then gpu_reduce along rows (every
# 4th point, every type and op, the new short-row shapes).
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export HOME=/tmp/home; mkdir -p $HOME
python3 gpurun/randrows.py "" 6 >> gpurun/list-rows.txt 2> $OUT/seed.txt; cat $OUT/seed.txt; cp gpurun/list-rows.txt $OUT/
t0=$(date +%s)
LIMIT=40 LOG=$OUT/ab.log timeout 330 sh tests/gpu/bench_reduce_builds.sh gpurun/list-rows.txt head=gpurun/autotune-head ends=gpurun/autotune-ends > $OUT/ab.txt 2>&1; echo "ab rc=$? ($(( $(date +%s) - t0 )) s)"
sed -e 's/ :: / | /' -e 's/(tuned in [0-9.]* s), //' -e 's/ (.*//' $OUT/ab.txt
gzip -9 $OUT/ab.log
t0=$(date +%s)
export AUTOTUNE_WORKER=$PWD/gpurun/autotune-ends
AT_GPU_ALONG=1 AT_GPU_SAMPLE=6 timeout 230 build/tests/gpu_reduce-rel > $OUT/gpu_reduce-along.tap 2>&1; echo "gpu_reduce rc=$? ($(( $(date +%s) - t0 )) s)"
grep -E "^(ok|not ok)|FAILED" $OUT/gpu_reduce-along.tap | head -40
echo END
