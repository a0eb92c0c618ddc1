#!/bin/bash
# Packed skewed stores: every 1- and 2-byte point verified; then HEAD
# (e70bdd7) and the change alternated on odd 1- and 2-byte shapes and
# two controls, each cold in its own cache; then last session's unrun
# reduce checks.
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME
W=/tmp/w; rm -rf $W; mkdir -p -m 700 $W/old $W/new
export AUTOTUNE_WORKER=$PWD/build/autotune
run() { # name bin args...
  local n=$1 b=$(readlink -f $2); shift 2; local f=$W/$n/$(echo "$*" | tr ' -' '__')
  AUTOTUNE_WORKER=$b AUTOTUNE_CACHE=$W/$n/c.db AUTOTUNE_CUBIN_CACHE=$W/$n/cub.db timeout 60 $b bench transpose --csv $f.csv "$@" > $f.txt 2>&1
  echo "$n rc=$? $*: $(grep -E '^\[[0-9]+/[0-9]+\] .*of copy' $f.txt | head -1 | cut -c1-220)"
}
while read -r P; do
  [ $SECONDS -lt ${AB_UNTIL:-250} ] || { echo "skipped (time): $P"; continue; }
  run old gpurun/autotune-e70 $P
  run new build/autotune $P
done < gpurun/list-skew.txt > $OUT/ab.txt 2>&1
cat $OUT/ab.txt
tar czf $OUT/bench.tgz -C $W old new --exclude='*.db*'
for T in every_point_1_byte every_point_2_bytes; do
  AT_GPU_TESTS=$T timeout $(( 540 - SECONDS < 170 ? 540 - SECONDS : 170 )) build/tests/gpu_variants-rel > $OUT/variants-$T.tap 2>&1
  echo "== $T rc=$?"; grep -E "^(ok|not ok)|FAILED|^# (i8|u8|f16|bf16):" $OUT/variants-$T.tap | cut -c1-140
done
AT_GPU_ONLY='reduce_any_input_*' timeout $(( 592 - SECONDS > 5 ? 592 - SECONDS : 5 )) build/tests/gpu_reduce-rel > $OUT/reduce-any.tap 2>&1
echo "== reduce any rc=$?"; grep -E "^(ok|not ok)|FAIL" $OUT/reduce-any.tap | head
echo END
