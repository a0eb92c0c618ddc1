#!/bin/bash
# Every launch leaves the workspace zero (partials zeroed by their reader,
# strip lanes past the last column write nothing), checked after every
# verified launch (at_workspace_left): gpu_reduce on every 10th point of
# every type and op; then the combine's cost, 54608f2 against the change,
# on three deterministic problems (the last block's walk).
set -u
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export HOME=/tmp/home; mkdir -p $HOME
export AUTOTUNE_WORKER=$PWD/build/autotune
export LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
t0=$(date +%s)
AT_GPU_SAMPLE=10 timeout 140 build/tests/gpu_reduce-rel > $OUT/gpu_reduce_ws.tap 2>&1
echo "== gpu_reduce rc=$? ($(( $(date +%s) - t0 )) s)"
grep -E "^(ok|not ok)|FAILED|points verified" $OUT/gpu_reduce_ws.tap | grep -v "points verified" | tr '\n' ' ' | cut -c1-1500; echo
grep -E "FAILED" $OUT/gpu_reduce_ws.tap | head -5 | cut -c1-300
grep -c "points verified" $OUT/gpu_reduce_ws.tap
LIMIT=40 LOG=$OUT/ab-ws.log sh tests/gpu/bench_reduce_builds.sh gpurun/list-ws.txt head=gpurun/bins/autotune-head new=build/autotune 2>&1 | tee $OUT/ab-ws.txt | cut -c1-250
echo "END $(( $(date +%s) - T0 )) s"
