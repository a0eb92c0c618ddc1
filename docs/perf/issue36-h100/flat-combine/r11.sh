#!/bin/bash
# Experiments on flat points (more chunk values; 16 partials in flight in
# the combine) against the tree, then the verification left from r10:
# i32's flat points, and every down-column point of i32 amax and f16 sum.
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME
W=/tmp/w; rm -rf $W; mkdir -p -m 700 $W
bench() { # bin label args
  local b=$1 l=$2; shift 2
  rm -f $W/c.db*
  AUTOTUNE_WORKER=$PWD/$b AUTOTUNE_CACHE=$W/c.db timeout 40 $b bench reduce "$@" > $W/b.txt 2>&1
  echo "$l rc=$? $* :: $(grep -E '^\[[0-9]+/[0-9]+\] .*of copy' $W/b.txt | head -1 | sed 's/, input seed.*//' | sed 's/.*: thr/thr/' | cut -c1-150)"
  { echo "### $l $*"; cat $W/b.txt; } >> $OUT/bench.txt
}
while read -r P; do
  bench build/autotune new $P
  bench gpurun/autotune-loads loads16 $P
  bench gpurun/autotune-chunks chunks $P
done < gpurun/list6.txt
AT_GPU_DOWN=1 AT_GPU_FLAT=1 AT_GPU_ONLY='reduce_i32_max,reduce_i32_min,reduce_i32_sumsq,reduce_i32_amax' timeout 100 build/tests/gpu_reduce-rel > $OUT/gpu_reduce_flat_i32.tap 2>&1
echo "== gpu_reduce flat i32 rc=$? ok=$(grep -c '^ok' $OUT/gpu_reduce_flat_i32.tap) notok=$(grep -c '^not ok' $OUT/gpu_reduce_flat_i32.tap)"
AT_GPU_DOWN=1 AT_GPU_ONLY='reduce_i32_amax,reduce_f16_sum' timeout 170 build/tests/gpu_reduce-rel > $OUT/gpu_reduce_down.tap 2>&1
echo "== gpu_reduce down i32 amax, f16 sum rc=$? ok=$(grep -c '^ok' $OUT/gpu_reduce_down.tap) notok=$(grep -c '^not ok' $OUT/gpu_reduce_down.tap)"
for f in $OUT/gpu_reduce_*.tap; do grep -E "FAILED|^# reduce .*failed" $f | grep -v " 0 failed" | head -3 | cut -c1-300; grep "points verified" $f; done
echo END
