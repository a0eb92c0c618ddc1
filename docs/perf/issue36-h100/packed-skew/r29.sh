#!/bin/bash
# Shifted word loads (AT_SHIFT_IN): global loads (pointer arithmetic, not
# an integer) and the next thread's word by a shuffle. Every 1- and 2-byte
# point verified with both; then HEAD (4572932), global loads alone, and
# both, on problems with input rows off the word, each cold.
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME
export AUTOTUNE_WORKER=$PWD/build/autotune
W=/tmp/w; rm -rf $W; mkdir -p -m 700 $W/head $W/glob $W/shfl
for T in every_point_1_byte every_point_2_bytes; do
  s0=$SECONDS
  AT_GPU_TESTS=$T timeout 100 build/tests/gpu_variants-rel > $OUT/variants-$T.tap 2>&1
  echo "== $T rc=$? $((SECONDS - s0)) s"; grep -E "^(ok|not ok)|FAILED|^# [a-z0-9]+:" $OUT/variants-$T.tap | cut -c1-100
done
run() { # name bin args...
  local n=$1 b=$(readlink -f $2); shift 2; local f=$W/$n/$(echo "$*" | tr ' -' '__')
  AUTOTUNE_WORKER=$b AUTOTUNE_CACHE=$W/$n/c.db AUTOTUNE_CUBIN_CACHE=$W/$n/cub.db timeout 50 $b bench transpose --csv $f.csv "$@" > $f.txt 2>&1
  echo "$n rc=$? $*: $(grep -E '^\[[0-9]+/[0-9]+\] .*of copy' $f.txt | head -1 | sed 's/ (tuned in/ |/; s/, input seed.*//' | cut -c1-170)"
}
for P in "--type i8 --rows 8192 --cols 8192 --ld-in 8193" "--type u8 --rows 22119 --cols 17643" \
         "--type i8 --rows 19341 --cols 31629" "--type bf16 --rows 3017 --cols 84591"; do
  [ $SECONDS -lt 470 ] || { echo "skipped (time): $P"; continue; }
  run head gpurun/autotune-457 $P
  run glob gpurun/autotune-glob $P
  run shfl build/autotune $P
done > $OUT/ab-shift-in.txt 2>&1
cat $OUT/ab-shift-in.txt
echo END
