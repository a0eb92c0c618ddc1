#!/bin/bash
# Why f16 sumsq down 100344x1534's emitted .cu read 82.5% of the copy in
# the nvcc program against 91.2% in `autotune bench` (r3): each build
# (HEAD 828137d, strips in waves) tunes it, its .cu is built by nvcc
# (ptxas -v), and the program times it on its own sparse input (the
# sums of squares stay exact) and on dense input (-DAT_OP=0: the same
# kernel, the reference a sum, so "wrong" is expected there), then
# `autotune bench` from the same cache. Carry gpurun/bins/autotune-head,
# gpurun/bins/autotune-waves.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for B in waves head; do
  T=/tmp/r4$B; mkdir -p $T && chmod 700 $T
  export HOME=$T AUTOTUNE_CACHE=$T/c.db AUTOTUNE_WORKER=$PWD/gpurun/bins/autotune-$B
  A=gpurun/bins/autotune-$B
  $A reduce --arch auto --type f16 --op sumsq --axis rows --rows 100344 --cols 1534 --ld 1534 \
    --name autotune_reduce_f16 -o $T/r.cu > $T/tune.log 2>&1 || { tail -5 $T/tune.log; continue; }
  echo "== $B: $(grep -E 'best:' $T/tune.log | head -1) $(grep -o '[0-9.]*% of the device-to-device copy' $T/tune.log | head -1)"
  grep -E "registers|^ \* point" $T/r.cu | head -3
  nvcc -c -O2 -arch=native -Xptxas -v $T/r.cu -o $T/r.o 2>&1 | grep -E "Used" | head -2
  for op in 3 0; do
    nvcc -c -O2 -arch=native -DAT_T=__half -DAT_ACC=float -DAT_OP=$op templates/reduce_cub.cu -o $T/cub$op.o || exit 1
    nvcc -O2 -arch=native -DAT_T=__half -DAT_XC_FN=autotune_reduce_f16 -DAT_XC_WS=autotune_reduce_f16_workspace_bytes \
      -DAT_OP=$op -DAT_OUT=float -DAT_INT=0 -DAT_XC_LABEL="\"f16 op$op\"" tests/gpu/crosscheck_reduce.cu $T/r.o $T/cub$op.o -o $T/xr$op || exit 1
    for i in 1 2; do $T/xr$op rows 100344 1534 1534 | sed 's/ | no CUB.*//'; done
  done
  $A bench reduce --type f16 --op sumsq --axis rows --rows 100344 --cols 1534 --csv $T/b.csv 2>&1 | grep -E "of copy" | head -2 | cut -c1-200
done
echo END
