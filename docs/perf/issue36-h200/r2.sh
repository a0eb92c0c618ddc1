#!/bin/bash
# Column strips split in waves (reduce abi 6) against HEAD (828137d):
# every down-column point of f32 sum and bf16 amax on gpu_reduce's shapes
# (every 2nd), then cold tunes of list-r2.txt alternated (the tuner's own
# figure, HOW=tune), then every point's time on two problems (--record).
# Carry gpurun/bins (autotune-head, autotune-waves),
# build/tests/gpu_reduce-rel, build/tests/lib.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r2; mkdir -p $W && chmod 700 $W
export HOME=$W
export LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
export AUTOTUNE_WORKER=$PWD/gpurun/bins/autotune-waves
s0=$SECONDS
AT_GPU_DOWN=1 AT_GPU_SAMPLE=2 AT_GPU_ONLY='reduce_f32_sum,reduce_bf16_amax' timeout 200 \
  build/tests/gpu_reduce-rel > $OUT/gpu_reduce-down.tap 2>&1
echo "== gpu_reduce down rc=$? $((SECONDS - s0)) s"
grep -E "^(ok|not ok)|FAILED|# reduce|points verified" $OUT/gpu_reduce-down.tap | cut -c1-160 | head -30
unset AUTOTUNE_WORKER
HOW=tune LIMIT=60 LOG=$OUT/ab.log sh tests/gpu/bench_reduce_builds.sh docs/perf/issue36-h200/list-r2.txt \
  head=gpurun/bins/autotune-head waves=gpurun/bins/autotune-waves
for prob in "--type bf16 --op sum --axis rows --rows 5749 --cols 13821" "--type f32 --op min --axis rows --rows 874 --cols 21633"; do
  rm -f $W/c.db* $W/cu.db*
  n=$(echo $prob | awk '{print $2"-"$4"-"$8"x"$10}')
  # shellcheck disable=SC2086
  AUTOTUNE_WORKER=$PWD/gpurun/bins/autotune-waves AUTOTUNE_CACHE=$W/c.db AUTOTUNE_CUBIN_CACHE=$W/cu.db \
    timeout 60 gpurun/bins/autotune-waves reduce --arch auto $prob -o $W/o.cu --record $OUT/rec-$n.csv > $W/rec.log 2>&1
  echo "record $n rc=$? $(grep -E 'best:|of the device' $W/rec.log | head -2 | tr '\n' ' ')"
done
echo END
