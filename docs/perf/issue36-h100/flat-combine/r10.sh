#!/bin/bash
# Flat points' combine by the whole block: benches HEAD (64db8ff) then the
# tree on four narrow column problems; the API suite (any input, never
# run); then every flat point of every type and op, and the two down-column
# runs owed (i32 amax, f16 sum).
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
  bench gpurun/autotune-64d head $P
  bench build/autotune new $P
done < gpurun/list5.txt
AT_GPU_TMP=$W ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=1 LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp" AUTOTUNE_WORKER=$PWD/build/autotune timeout 150 build/tests/gpu_api > $OUT/gpu_api.tap 2>&1
echo "== gpu_api rc=$? ok=$(grep -c '^ok' $OUT/gpu_api.tap) notok=$(grep -c '^not ok' $OUT/gpu_api.tap)"
grep -E "^not ok|FAIL" $OUT/gpu_api.tap | head -5 | cut -c1-300
AT_GPU_DOWN=1 AT_GPU_FLAT=1 timeout 200 build/tests/gpu_reduce-rel > $OUT/gpu_reduce_flat.tap 2>&1
echo "== gpu_reduce flat rc=$? ok=$(grep -c '^ok' $OUT/gpu_reduce_flat.tap) notok=$(grep -c '^not ok' $OUT/gpu_reduce_flat.tap)"
grep -E "FAILED|^# reduce .*failed" $OUT/gpu_reduce_flat.tap | grep -v " 0 failed" | head -5 | cut -c1-300
grep -E "points verified" $OUT/gpu_reduce_flat.tap | tail -3
echo END
