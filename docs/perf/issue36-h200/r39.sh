#!/bin/bash
# Prepared 2026-11-28; run 2026-11-28 (second session) with R39_SWEEP
# unset: its sweep ran as r41.sh, after the any-input test's last types.
# What r38 left of flat points down columns past the block (reduce abi
# 8, AT_FLAT_K): gpu_reduce's FLAT_WIDE shapes for the i32 pairs (r38's
# 100 s stopped before them), the any-input test (AT_ANY_BASE, inputs 1
# and 15 bytes off; any_shapes now has 12007x1430) for every type; then a
# reduce sweep at a seed drawn now (item 3: problems of 64 MiB or more
# apart). Carry build/autotune, build/tests/gpu_reduce-rel,
# build/tests/lib. About 9 minutes.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r39; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
export AUTOTUNE_WORKER=$PWD/build/autotune
s0=$SECONDS
AT_GPU_DOWN=1 AT_GPU_FLAT=2 AT_GPU_ONLY=reduce_i32_sum,reduce_i32_amax,reduce_i32_min \
  timeout 120 build/tests/gpu_reduce-rel > "$O/wide-i32.tap" 2>&1
echo "== gpu_reduce i32 flat past the block rc=$? $((SECONDS - s0)) s"
AT_GPU_ONLY='reduce_any_input_*' timeout 150 build/tests/gpu_reduce-rel > "$O/any.tap" 2>&1
echo "== any input rc=$? $((SECONDS - s0)) s"
grep -E "^(ok|not ok)|points verified|FAILED|any input" "$O/wide-i32.tap" "$O/any.tap" | cut -c1-170 | head -40
[ -n "${R39_SWEEP:-}" ] || exit 0
S=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
echo "== sweep seed $S"
AUTOTUNE_CACHE=$W/c.db timeout 280 build/autotune bench reduce --sweep 24 --seed "$S" \
  --csv "$O/sweep-$S.csv" > "$O/sweep-$S.log" 2>&1
echo "== sweep rc=$? $((SECONDS - s0)) s"
tail -25 "$O/sweep-$S.log"
