#!/bin/bash
# The crosscheck of problems whose emitted files held AT_MAX_REGS before
# at_emit_max_regs (r7 B: f32 8192^2 96.4% program / 96.9% bench, u8
# 16384^2 93.5/93.7, i32 amax down 36716x1430 92.6/92.9), and one the
# crosschecks had not covered (bf16 24378x2976, a sweep's 2-byte miss).
# Carry build/autotune.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r20; mkdir -p $W && chmod 700 $W
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune
timeout 260 sh tests/gpu/crosscheck.sh 8192 8192 u8:16384x16384 bf16:24378x2976 > $O/xc.txt 2>&1
grep -E "emitted|crosscheck|autotune bench" $O/xc.txt | cut -c1-170
echo "== reduce at $SECONDS s"
[ $SECONDS -lt 300 ] && timeout 100 sh tests/gpu/crosscheck_reduce.sh i32:amax rows 36716 1430 > $O/xcr.txt 2>&1
tail -4 $O/xcr.txt | cut -c1-170
echo "== end at $SECONDS s"
