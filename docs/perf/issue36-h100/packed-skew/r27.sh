#!/bin/bash
# Packed skewed stores, shifted stores removed: every 1- and 2-byte point
# verified again; the emitted .cu of three winners in an nvcc program
# against autotune bench; compute-sanitizer on a sample of 1- and 2-byte
# points.
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME
export AUTOTUNE_WORKER=$PWD/build/autotune
for T in every_point_1_byte every_point_2_bytes; do
  s0=$SECONDS
  AT_GPU_TESTS=$T timeout 170 build/tests/gpu_variants-rel > $OUT/variants-$T.tap 2>&1
  echo "== $T rc=$? $((SECONDS - s0)) s"; grep -E "^(ok|not ok)|FAILED|^# (i8|u8|f16|bf16):" $OUT/variants-$T.tap | cut -c1-140
done
s0=$SECONDS
timeout 240 sh tests/gpu/crosscheck.sh u8:22119x17643 u8:2605x159740 bf16:49063x1855 u8:8192x8192:8192:8196 > $OUT/crosscheck.txt 2>&1
echo "== crosscheck rc=$? $((SECONDS - s0)) s"; grep -E "emitted point|crosscheck|of copy" $OUT/crosscheck.txt | cut -c1-230
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  left=$(( 585 - SECONDS )); [ $left -gt 20 ] || { echo "$tool skipped (time)"; continue; }
  every=40; [ $tool = racecheck ] && every=160
  AT_GPU_TESTS=every_point_1_byte AT_GPU_SAMPLE=$every timeout $left $CS --tool $tool --error-exitcode 99 --print-limit 20 build/tests/gpu_variants-rel > $OUT/$tool.txt 2>&1
  echo "== $tool (every ${every}th 1-byte point) rc=$?"; grep -E "^(ok|not ok)|ERROR SUMMARY|^# (i8|u8):" $OUT/$tool.txt | cut -c1-140
done
echo END
