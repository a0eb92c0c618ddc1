#!/bin/bash
# Reductions split in blocks per SM (axis bpsm): points verified (a
# sample of four type/op tests), then HEAD against the change on the
# column problems the issue names and two more, each cold in its own
# cache.
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME
W=/tmp/w; rm -rf $W; mkdir -p -m 700 $W/old $W/new
AT_GPU_ONLY="reduce_f32_sum,reduce_bf16_max,reduce_f64_min,reduce_i32_sum" AT_GPU_SAMPLE=4 timeout 200 build/tests/gpu_reduce-rel > $OUT/gpu_reduce.tap 2>&1
echo "== gpu_reduce rc=$?"; grep -E "^(ok|not ok)|FAILED|points" $OUT/gpu_reduce.tap | cut -c1-200 | head -20
run() { # name bin args...
  local n=$1 b=$2; shift 2; local f=$W/$n/$(echo "$*" | tr ' -' '__')
  AUTOTUNE_CACHE=$W/$n/c.db timeout 60 $b bench reduce --csv $f.csv "$@" > $f.txt 2>&1
  echo "$n rc=$? $*: $(grep -E '^\[[0-9]+/[0-9]+\] .*of copy' $f.txt | head -1 | sed 's/^\[1\/1\] //' | cut -c1-210)"
  grep -E "points pass" $f.txt | head -1 | sed 's/.*: \([0-9]* of [0-9]* points\).*/  \1/'
}
for P in "--type f32 --op min --axis rows --rows 13635 --cols 1432" \
         "--type i32 --op sum --axis rows --rows 29372 --cols 1080" \
         "--type f64 --op sum --axis rows --rows 39604 --cols 340" \
         "--type f64 --op min --axis rows --rows 132920 --cols 61 --ld 89" \
         "--type bf16 --op max --axis rows --rows 1071940 --cols 464" \
         "--type f32 --op min --axis rows --rows 135194 --cols 1009" \
         "--type f32 --op sum --axis all --n 268435456"; do
  run old gpurun/autotune-head $P
  run new build/autotune $P
done
for n in old new; do for f in $W/$n/*.txt; do cp $f $OUT/$n-$(basename $f); done; done
echo END
