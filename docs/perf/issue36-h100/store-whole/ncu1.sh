#!/bin/bash
# Nsight Compute on tuned transposes that miss (each emitted .cu built by nvcc).
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export HOME=/tmp/home; mkdir -p $HOME
export LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
export AUTOTUNE_WORKER=$PWD/build/autotune
for pr in "$@"; do
  n=$(echo $pr | tr ':' '_')
  XC_RUN="$NCU -k regex:autotune_transpose_.*_kernel\$ --launch-skip 5 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --section InstructionStats --section ComputeWorkloadAnalysis --metrics dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_read.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum" timeout 200 sh tests/gpu/crosscheck.sh $pr > $OUT/ncu-$n.txt 2>&1
  echo "== $pr rc=$?"
  grep -E "emitted point|crosscheck|DRAM Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per|Block Size|Grid Size|Issued Warp Per|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Duration|Compute \(SM\) Th|dram__bytes|smsp__inst_executed.sum|lts__t_sectors|bank_conflicts|Shared Memory Configuration Size|Dynamic Shared|Static Shared|autotune bench|Stall" $OUT/ncu-$n.txt | head -40
done
echo END
