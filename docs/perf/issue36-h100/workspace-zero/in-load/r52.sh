#!/bin/bash
# The flat and row walks zero their partials as they read them: the
# combine's cost, 54608f2 (no zeroing) against the tree, alternated, on
# four deterministic problems (flat, strips, rows); gpu_reduce with the
# workspace check on every 40th point of every type and op; a hit in a
# new process, timed as a user sees it.
set -u
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export HOME=/tmp/home PATH=/usr/local/cuda/bin:$PATH; mkdir -p $HOME
export AUTOTUNE_WORKER=$PWD/build/autotune
export LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
R=$OUT/r52; mkdir -p $R
LIMIT=40 LOG=$R/ab.log sh tests/gpu/bench_reduce_builds.sh gpurun/list-ws2.txt head=gpurun/bins/autotune-head new=build/autotune new2=build/autotune head2=gpurun/bins/autotune-head 2>&1 | tee $R/ab.txt | cut -c1-230
echo "== gpu_reduce $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
AT_GPU_SAMPLE=40 timeout 230 build/tests/gpu_reduce-rel > $R/gpu_reduce.tap 2>&1
echo "== gpu_reduce rc=$? ($(( $(date +%s) - t0 )) s)"
grep -E "^(ok|not ok)" $R/gpu_reduce.tap | tr '\n' ' '; echo
grep -E "FAILED|non-zero|not ok" $R/gpu_reduce.tap | head -5 | cut -c1-300
grep "points verified" $R/gpu_reduce.tap | awk '{s+=$4} END {print s, "points verified"}'
echo "== hit in a new process $(( $(date +%s) - T0 )) s"
export AUTOTUNE_CACHE=$R/hit.db
build/autotune transpose --arch auto --type f32 --rows 8192 --cols 8192 -o $R/t.cu --quiet > /dev/null 2>&1
for i in 1 2 3 4 5 6; do
  TIMEFORMAT="%R s wall, %U user, %S sys"
  { time build/autotune transpose --arch auto --type f32 --rows 8192 --cols 8192 -o $R/t.cu --quiet > /dev/null 2>&1; } 2>&1 | tail -1
  sleep 1
done | tee $R/hit.txt
rm -f $R/hit.db*
tar czf $OUT/r52.tgz -C $OUT r52 && rm -rf $R
echo "END $(( $(date +%s) - T0 )) s"
