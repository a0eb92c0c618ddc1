#!/bin/bash
# A: __launch_bounds__'s blocks an SM on points with every path (r19/
# build.sh; carry gpurun/mb): each build in the nvcc crosscheck program,
# share of the copy, bit-exact each run, on S1 u8 19200x22784 ld
# 22784/19200 and S3 19194x22735 ld 22735/19194. B: the crosscheck with
# AT_MAX_REGS only where the blocks leave nvcc more registers than the
# tune's (at_emit_max_regs; carry build/autotune): i8 19194x22735 (70.0%
# in the program against 79.7% in the bench before), f64 10000x10000,
# and a reduction that keeps AT_MAX_REGS (f16 sumsq rows 100344x1534,
# 50 registers of 512 threads at 2 blocks).
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r19; mkdir -p $W && chmod 700 $W
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune
S1="19200 22784 22784 19200"; S3="19194 22735 22735 19194"
for round in 1 2; do
  [ $round = 2 ] && [ $SECONDS -gt 60 ] && break
  for v in a0 a2 b0 b4 b8 t0 t3 t4; do
    for s in S1 S3; do
      eval sh=\$$s
      echo "$round $v $s $(gpurun/mb/$v $sh 2>&1 | grep -o 'tuned.*' | cut -c1-60)"
    done
  done
done | tee $O/a.txt
echo "== B at $SECONDS s"
timeout 300 sh tests/gpu/crosscheck.sh i8:19194x22735 f64:10000x10000 > $O/xc.txt 2>&1
grep -E "emitted|crosscheck|autotune bench" $O/xc.txt | cut -c1-170
echo "== C at $SECONDS s"
[ $SECONDS -lt 420 ] && timeout $((560 - SECONDS)) sh tests/gpu/crosscheck_reduce.sh f16:sumsq rows 100344 1534 > $O/xcr.txt 2>&1
tail -5 $O/xcr.txt | cut -c1-170
echo "== table at $SECONDS s"
sed 's/tuned [0-9.]* ms [0-9.]* GB\/s //' $O/a.txt | awk '{k=$2" "$3; v[k]=v[k]" "$4; if(!(k in seen)){seen[k]=1; ord[++n]=k}} END{for(i=1;i<=n;i++) print ord[i], v[ord[i]]}'
