#!/bin/bash
# Nsight Compute on the tuned kernels of short rows (bf16 min 311518x127
# at 76%, bf16 amax 879225x146 at 83%) and of one at the copy (f16 sumsq
# 833368x266, 99.5%), each built by nvcc from its emitted .cu.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export HOME=/tmp/home; mkdir -p $HOME
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
export AUTOTUNE_WORKER=$PWD/build/autotune
for pr in "bf16:min cols 311518 127" "bf16:amax cols 879225 146" "f16:sumsq cols 833368 266"; do
  n=$(echo $pr | tr ' :' '__')
  XC_RUN="$NCU -k regex:_kernel\$ --launch-skip 5 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis" timeout 170 sh tests/gpu/crosscheck_reduce.sh $pr > $OUT/ncu-$n.txt 2>&1
  echo "$pr rc=$?"
  grep -E "emitted point|DRAM Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per|Block Size|Grid Size|Issued Warp Per|No Eligible|Warp Cycles Per Issued|Duration|Compute \(SM\) Th|Waves Per SM|autotune bench" $OUT/ncu-$n.txt | head -20
done
echo END
