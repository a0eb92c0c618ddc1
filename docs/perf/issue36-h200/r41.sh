#!/bin/bash
# What r39's 150 s left of the any-input test (f16, f64, i32: sampled
# points with every path on inputs off their vectors, 12007x1430 among
# the shapes, so flat points past the block), then r39's reduce sweep of
# 24 at a seed drawn here (item 3: problems of 64 MiB or more apart).
# Carry build/autotune, build/tests/gpu_reduce-rel, build/tests/lib.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r41; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
export AUTOTUNE_WORKER=$PWD/build/autotune
AT_GPU_ONLY='reduce_any_input_f16,reduce_any_input_f64,reduce_any_input_i32' timeout 300 \
  build/tests/gpu_reduce-rel > "$O/any.tap" 2>&1
echo "== any input rc=$? $SECONDS s"
grep -E "^(ok|not ok)|any input" "$O/any.tap" | cut -c1-170
S=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
echo "== sweep seed $S"
AUTOTUNE_CACHE=$W/c.db timeout $((575 - SECONDS)) build/autotune bench reduce --sweep 24 --seed "$S" \
  --csv "$O/sweep-$S.csv" > "$O/sweep-$S.log" 2>&1
echo "== sweep rc=$? $SECONDS s"
tail -30 "$O/sweep-$S.log"
