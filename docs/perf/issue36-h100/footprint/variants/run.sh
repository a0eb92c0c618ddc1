#!/bin/sh
# Variants of the i8/u8 and f16 winners built by nvcc in the crosscheck
# program (build.sh builds them into gpurun/xc on the build machine;
# carry gpurun/xc): w0 the winner, w1 the next word by a shuffle, w2 two tiles a
# block (w2b3, w2b4: bounded to 3, 4 blocks an SM), w3 both; h0/h1 f16.
set -u
X=gpurun/xc   # the binaries of results.txt, built on the build machine
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for round in 1 2; do
  for v in w0 w1 w2 w3 w2b3 w2b4; do
    for s in "19194 22735" "22119 17643"; do
      echo "$round $v $($X/$v $s 2>&1 | grep -o 'crosscheck.*' | sed 's/crosscheck //')"
    done
  done
  for v in h0 h1; do echo "$round $v $($X/$v 579 380071 2>&1 | grep -o 'crosscheck.*' | sed 's/crosscheck //')"; done
done
ncu -k 'regex:autotune_transpose_.*_kernel$' --launch-skip 5 --launch-count 1 \
  --section SpeedOfLight --section Occupancy --section WarpStateStats --section LaunchStats \
  --section SchedulerStats --section InstructionStats --section MemoryWorkloadAnalysis \
  --section SourceCounters $X/w0 19194 22735 > $OUT/ncu-w0.txt 2>&1
grep -E 'Duration|DRAM Throughput|Registers Per|Achieved Occupancy|Theoretical Occ|Issued Warp Per|Stall Long|Stall Short|Stall Barrier|Stall MIO|Stall LG|Stall Wait|Stall Not Sel|Warp Cycles Per Issued|Executed Instructions   |L1 Wavefronts Shared Excessive|Block Limit' $OUT/ncu-w0.txt
