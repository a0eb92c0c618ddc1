#!/bin/bash
# Shifted strips (offsets from the address bits): every down-column point
# of f64 and i32 verified; then the 15 column problems of 64 MiB or more of
# the sweep drawn with seed 3150915708, HEAD (7aa502a) then the tree, cold.
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME
W=/tmp/w; rm -rf $W; mkdir -p -m 700 $W
AT_GPU_DOWN=1 AT_GPU_ONLY='reduce_f64_*,reduce_i32_*' timeout 300 build/tests/gpu_reduce-rel > $OUT/gpu_reduce_f64_i32.tap 2>&1
echo "== gpu_reduce f64 i32 rc=$? ok=$(grep -c '^ok' $OUT/gpu_reduce_f64_i32.tap) notok=$(grep -c '^not ok' $OUT/gpu_reduce_f64_i32.tap)"
grep -E "FAILED" $OUT/gpu_reduce_f64_i32.tap | head -5 | cut -c1-300
grep -E "^# reduce " $OUT/gpu_reduce_f64_i32.tap | awk '{s+=$(NF-3); f+=$(NF-1)} END {print "points", s, "failed", f}'
bench() { # bin label args
  local b=$1 l=$2; shift 2
  rm -f $W/c.db*
  local t0=$(date +%s.%N)
  AUTOTUNE_WORKER=$PWD/$b AUTOTUNE_CACHE=$W/c.db timeout 60 $b bench reduce "$@" > $W/b.txt 2>&1
  local rc=$? t1=$(date +%s.%N)
  echo "$l rc=$rc wall $(awk "BEGIN{printf \"%.1f\", $t1-$t0}") $* :: $(grep -E '^\[[0-9]+/[0-9]+\] .*of copy' $W/b.txt | head -1 | sed 's/, input seed.*//' | sed 's/.*: thr/thr/' | cut -c1-160)"
  { echo "### $l $*"; cat $W/b.txt; } >> $OUT/bench.txt
}
while read -r P; do
  bench gpurun/autotune-7aa head $P
  bench build/autotune new $P
done < gpurun/list4.txt
echo END
