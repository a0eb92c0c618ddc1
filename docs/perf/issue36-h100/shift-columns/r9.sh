#!/bin/bash
# The final tree: f16's other ops and i32 sumsq/amax (every 2nd down-column
# point), the API suite (7aa502a's launch cache), and the last four
# column problems of seed 3150915708's sweep, HEAD (7aa502a) then the tree.
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME
W=/tmp/w; rm -rf $W; mkdir -p -m 700 $W
AT_GPU_DOWN=1 AT_GPU_SAMPLE=2 AT_GPU_ONLY='reduce_f16_max,reduce_f16_min,reduce_f16_sumsq,reduce_f16_amax,reduce_i32_sumsq,reduce_i32_amax' timeout 120 build/tests/gpu_reduce-rel > $OUT/gpu_reduce_last.tap 2>&1
echo "== gpu_reduce last rc=$? ok=$(grep -c '^ok' $OUT/gpu_reduce_last.tap) notok=$(grep -c '^not ok' $OUT/gpu_reduce_last.tap)"
grep -E "FAILED" $OUT/gpu_reduce_last.tap | head -3 | cut -c1-300
AT_GPU_TMP=$W ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=1 LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp" AUTOTUNE_WORKER=$PWD/build/autotune timeout 100 build/tests/gpu_api > $OUT/gpu_api.tap 2>&1
echo "== gpu_api rc=$? ok=$(grep -c '^ok' $OUT/gpu_api.tap) notok=$(grep -c '^not ok' $OUT/gpu_api.tap)"
grep -E "^not ok" $OUT/gpu_api.tap | head -5
bench() { # bin label args
  local b=$1 l=$2; shift 2
  rm -f $W/c.db*
  AUTOTUNE_WORKER=$PWD/$b AUTOTUNE_CACHE=$W/c.db timeout 25 $b bench reduce "$@" > $W/b.txt 2>&1
  echo "$l rc=$? $* :: $(grep -E '^\[[0-9]+/[0-9]+\] .*of copy' $W/b.txt | head -1 | sed 's/, input seed.*//' | sed 's/.*: thr/thr/' | cut -c1-150)"
  { echo "### $l $*"; cat $W/b.txt; } >> $OUT/bench.txt
}
while read -r P; do
  bench gpurun/autotune-7aa head $P
  bench build/autotune new $P
done < gpurun/list4b.txt
echo END
