#!/bin/bash
# Ran 2026-11-28 16:27 UTC (H200; r22/xc.txt, xcr.txt). Which emitted
# build agrees with the tune: each problem tuned cold, its emitted .cu in
# the nvcc program as emitted (AT_MIN_BLOCKS, with AT_MAX_REGS where the
# blocks leave more registers: at_emit_max_regs) and without any bound
# (XC_UNBOUND=1), then autotune bench from the same cache. r19/r20: the
# bound alone left i8 19194x22735 2.6 points under the bench and i32 amax
# 2.0; unbounded nvcc built the i8 kernel exactly as NVRTC did. If the
# unbounded build agrees everywhere but the f16/bf16 reductions (whose
# headers differ), the rule can follow the type; if not, tune under the
# bound (PERFORMANCE.md "Registers held by the blocks alone"). Carry
# build/autotune. About 6 minutes.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r22; mkdir -p $W && chmod 700 $W
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune XC_UNBOUND=1
timeout 330 sh tests/gpu/crosscheck.sh i8:19194x22735 u8:22119x17643 \
  bf16:49063x1855 8192 8192 f64:10000x10000 u8:16384x16384 > $O/xc.txt 2>&1
timeout 200 sh tests/gpu/crosscheck_reduce.sh i32:amax rows 36716 1430 \
  f16:sumsq rows 100344 1534 bf16:max rows 1071940 464 > $O/xcr.txt 2>&1
cat $O/xc.txt $O/xcr.txt | grep -E "emitted|occupancy|crosscheck|unbounded|autotune bench" | cut -c1-170
