#!/bin/bash
# PREPARED 2026-11-28 afternoon; parts A and C ran in r17.sh (r17.txt), part B
# (cold tunes against cb29ebc) has not run. The last line of tiles first
# (488ad1c) through the shipped path.
# A: every tile point bit for bit with every path (gpu_variants' every-
# point tests), memcheck on a sample. B: cold tunes, cb29ebc (the order
# before) against the tree, back to back, on odd shapes of every element
# size from the sweeps (any tile with the element path has a cut line, not
# bytes alone). C: the nvcc crosscheck of three of them.
# Carry build/autotune, build/tests/gpu_variants-rel, build/tests/lib,
# gpurun/bins/autotune-cb29 (built from cb29ebc: git worktree add, make
# build/autotune). About 9 minutes on an H100; split A from B if a call
# has less.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r15; mkdir -p $W && chmod 700 $W
export HOME=$W LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
export AUTOTUNE_WORKER=$PWD/build/autotune
for T in every_point_1_byte every_point_2_bytes every_point_4_bytes every_point_8_bytes every_point_16_bytes; do
  s0=$SECONDS
  AT_GPU_TESTS="$T" timeout 150 build/tests/gpu_variants-rel > $W/gv-$T.tap 2>&1
  echo "== $T rc=$? $((SECONDS - s0)) s"; grep -E "^(ok|not ok)|FAILED" $W/gv-$T.tap | cut -c1-110
done
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
AT_GPU_TESTS=every_point_1_byte AT_GPU_SAMPLE=40 timeout 90 $CS --tool memcheck --error-exitcode 99 \
  build/tests/gpu_variants-rel > $W/memcheck.txt 2>&1
echo "== memcheck every 40th 1-byte point rc=$?"; grep -E "ERROR SUMMARY" $W/memcheck.txt | head -2
P="i8 19194 22735 22735 19194
u8 22119 17643 17643 22119
f16 579 380071 380071 579
bf16 49063 1855 1855 49063
f32 8191 8209 8209 8191
f32 2052 16948 16948 2052
f64 10000 10000 10000 10000
f64 5313 7403 7403 5313
c64 5871 13933 13933 5871
c128 421 48858 48858 421"
echo "$P" | while read -r t r c li lo; do
  for side in old new; do
    B=$PWD/build/autotune; [ $side = old ] && B=$PWD/gpurun/bins/autotune-cb29
    s0=$SECONDS; rm -f $W/x.csv
    AUTOTUNE_WORKER=$B AUTOTUNE_CACHE=$W/$side.db timeout 120 $B bench transpose --type $t \
      --rows $r --cols $c --ld-in $li --ld-out $lo --csv $W/x.csv > $W/x.log 2>&1
    rc=$?
    pt=$(sed -n 's/^\[1\/1\] [^:]*: \([^ ]*\) .*/\1/p' $W/x.log | head -1)
    fr=$(awk -F, '$11=="tuned"{printf "%.1f", $14*100}' $W/x.csv 2>/dev/null)
    echo "$t ${r}x$c $side rc=$rc $((SECONDS - s0))s tuned $fr% $pt"
  done
done | tee $W/ab.txt
timeout 200 sh tests/gpu/crosscheck.sh i8:19194x22735 f64:10000x10000 f32:8191x8209 2>&1 | grep -E "emitted|crosscheck|autotune bench" | cut -c1-200
echo "== table"; cat $W/ab.txt
