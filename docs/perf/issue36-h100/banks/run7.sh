#!/bin/bash
# u8 16384x16384's winner (tile256x256 vec4 packed, swizzled) built by nvcc
# into the crosscheck program without the element path (e0: AT_EDGE 0,
# the kernel its tune emits) and with it (e1: AT_EDGE 1, the kernel an
# odd shape's tune compiles), on 16384x16384 and on 19194x22735 at pitches
# 32768/32768 and 22736/19200 (e1 alone: e0's launcher sends odd shapes
# to its general kernel). Two rounds. Binaries: gpurun/banks/e0, e1,
# built by build2.sh.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for round in 1 2; do
  for v in e0 e1; do
    echo "$round $v 16384x16384 $(gpurun/banks/$v 16384 16384 2>&1 | grep -o 'tuned.*' | cut -c1-60)"
  done
  for ld in "32768 32768" "22736 19200"; do
    echo "$round e1 19194x22735 ld $ld $(gpurun/banks/e1 19194 22735 $ld 2>&1 | grep -o 'tuned.*' | cut -c1-60)"
  done
done
echo END
