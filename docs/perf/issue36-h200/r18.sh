#!/bin/bash
# Shifted word loads with a warp's words a lane apart (r18/build.sh; carry
# gpurun/coal). Each build in the nvcc crosscheck program (bit-exact each
# run), share of the copy, two rounds, on S1 u8 19200x22784 ld 22784/19200
# (whole tiles, rows on 128 bytes: the shift path's cost alone) and S3
# 19194x22735 ld 22735/19194 (rows off the word: the problem). Then ncu on
# S1: L1's wavefronts (global and shared), its throughput, the duration.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
S1="19200 22784 22784 19200"; S3="19194 22735 22735 19194"
O=${OUT:-/tmp}
for round in 1 2; do
  for p in a b c; do
    for v in 100 110_0 110_1 110_2 111_0 111_1 111_2; do
      for s in S1 S3; do
        [ $s = S3 ] && [ $v = 100 ] && continue
        eval sh=\$$s
        echo "$round $p$v $s $(gpurun/coal/$p$v $sh 2>&1 | grep -o 'tuned.*' | cut -c1-60)"
      done
    done
  done
done | tee $O/r18.txt
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
M=gpu__time_duration.sum,launch__registers_per_thread,l1tex__data_pipe_lsu_wavefronts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed
for v in a100 a110_0 a110_1 a110_2 c110_2; do
  echo "== ncu $v S1 $($NCU -k regex:autotune_transpose_.*_kernel\$ --launch-skip 5 --launch-count 1 \
    --metrics $M gpurun/coal/$v $S1 2>&1 | grep -E "__" | sed 's/  */ /g' | tr '\n' ' ')"
done | tee $O/r18-ncu.txt
# B: i8 19194x22735, the nvcc program 70.0% against autotune bench 79.7% in
# r17 (same cache, same point): the emitted file kept, its registers under
# nvcc against the tune's, the program twice, the bench once.
W=/tmp/r18; mkdir -p $W && chmod 700 $W
export HOME=$W AUTOTUNE_CACHE=$W/c.db AUTOTUNE_WORKER=$PWD/build/autotune
F="--type i8 --rows 19194 --cols 22735 --ld-in 22735 --ld-out 19194"
{ build/autotune transpose --arch auto $F -o $O/i8.cu --quiet
  grep -E "point:|occupancy|registers|AT_MAX_REGS|AT_MIN_BLOCKS" $O/i8.cu | head -8
  NV=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  $NV -O2 -arch=native -DAT_XC_TYPE=i8 -Xptxas -v tests/gpu/crosscheck.cu $O/i8.cu -lcublas -o $W/xc 2>&1 |
    grep -A1 "transpose_i8_kernel" | grep -E "registers|spill"
  for k in 1 2; do $W/xc 19194 22735 22735 19194 | grep -o "tuned.*" | cut -c1-70; done
  sh tests/gpu/bench_rows.sh transpose $F | cut -c1-120
  $NCU -k regex:autotune_transpose_.*_kernel\$ --launch-skip 5 --launch-count 1 --metrics $M $W/xc 19194 22735 22735 19194 2>&1 |
    grep -E "__" | sed 's/  */ /g'
} 2>&1 | tee $O/xc-i8.txt
echo "== table"; sed 's/tuned [0-9.]* ms [0-9.]* GB\/s //' $O/r18.txt | awk '{k=$2" "$3; v[k]=v[k]" "$4; if(!(k in seen)){seen[k]=1; ord[++n]=k}} END{for(i=1;i<=n;i++) print ord[i], v[ord[i]]}'
