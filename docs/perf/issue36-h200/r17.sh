#!/bin/bash
# Session of 2026-11-28 evening, call 1: r15.sh's part A (every tile point
# of every size bit for bit with the last line of tiles first, 488ad1c;
# memcheck on a sample), r16.sh (the reduce strips' last strip first, A/B,
# two rounds) and r15.sh's part C (the nvcc crosscheck). Carry
# build/autotune, build/tests/gpu_variants-rel, build/tests/lib,
# gpurun/bins/autotune-laststrip. Logs under $OUT.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r17; mkdir -p $W && chmod 700 $W
O=${OUT:-$W}
export HOME=$W LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
export AUTOTUNE_WORKER=$PWD/build/autotune
for T in every_point_1_byte every_point_2_bytes every_point_4_bytes every_point_8_bytes every_point_16_bytes; do
  s0=$SECONDS
  AT_GPU_TESTS="$T" timeout 120 build/tests/gpu_variants-rel > $O/gv-$T.tap 2>&1
  echo "== $T rc=$? $((SECONDS - s0)) s"; grep -E "^(ok|not ok)|FAILED" $O/gv-$T.tap | cut -c1-110
done | tee $O/a.txt
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
AT_GPU_TESTS=every_point_1_byte AT_GPU_SAMPLE=40 timeout 80 $CS --tool memcheck --error-exitcode 99 \
  build/tests/gpu_variants-rel > $O/memcheck.txt 2>&1
echo "== memcheck every 40th 1-byte point rc=$?" | tee -a $O/a.txt
grep -E "ERROR SUMMARY|^ok|^not ok" $O/memcheck.txt | head -4 | tee -a $O/a.txt
echo "== r16 at $SECONDS s"
for round in 1 2; do
  [ $SECONDS -lt 430 ] || { echo "round $round skipped: time"; break; }
  HOW=tune LIMIT=40 sh tests/gpu/bench_reduce_builds.sh docs/perf/issue36-h200/r16/list.txt \
    head=build/autotune last=gpurun/bins/autotune-laststrip
done | tee $O/r16.txt
echo "== crosscheck at $SECONDS s"
[ $SECONDS -lt 480 ] && timeout $((575 - SECONDS)) sh tests/gpu/crosscheck.sh i8:19194x22735 f64:10000x10000 f32:8191x8209 > $O/xc.txt 2>&1
grep -E "emitted|crosscheck|autotune bench" $O/xc.txt | cut -c1-200
echo "== table"; cat $O/a.txt; cat $O/r16.txt
