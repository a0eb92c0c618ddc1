#!/bin/bash
# Shifted strips: f16 down-column points verified, then cold tunes HEAD
# (7aa502a) and the tree on odd-ld column problems, alternated.
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME
W=/tmp/w; rm -rf $W; mkdir -p -m 700 $W
AT_GPU_DOWN=1 AT_GPU_ONLY='reduce_f16_sum,reduce_f64_min,reduce_i32_max' timeout 200 build/tests/gpu_reduce-rel > $OUT/gpu_reduce_shift1.tap 2>&1
echo "== gpu_reduce rc=$? ok=$(grep -c '^ok' $OUT/gpu_reduce_shift1.tap) notok=$(grep -c '^not ok' $OUT/gpu_reduce_shift1.tap)"
grep -E "FAILED|^# reduce" $OUT/gpu_reduce_shift1.tap | head -20 | cut -c1-300
bench() { # bin label args
  local b=$1 l=$2; shift 2
  rm -f $W/c.db*
  AUTOTUNE_WORKER=$PWD/$b AUTOTUNE_CACHE=$W/c.db timeout 80 $b bench reduce "$@" > $W/b.txt 2>&1
  echo "$l rc=$? $* :: $(grep -E '^\[[0-9]+/[0-9]+\] .*of copy' $W/b.txt | head -1 | sed 's/, input seed.*//' | cut -c1-220)"
  { echo "### $l $*"; cat $W/b.txt; } >> $OUT/bench.txt
}
for P in "--type f16 --op sum --axis rows --rows 155 --cols 705911" \
         "--type bf16 --op sum --axis rows --rows 254 --cols 148614" \
         "--type f32 --op sum --axis rows --rows 8191 --cols 8191" \
         "--type f64 --op min --axis rows --rows 132920 --cols 61 --ld 89"; do
  bench gpurun/autotune-7aa head $P
  bench build/autotune new $P
done
echo END
