#!/bin/bash
# Where i8 19194x22735's points go on the H200 (74.6% of the copy there,
# 84% on the H100): cold tunes (`autotune bench`) with only the pitches
# changed, input rows on 16 bytes or not, output rows on the 32-byte
# sectors or not, and the shape with whole tiles; the footprint copy at
# 256 rows x 128 bytes beside each (docs/perf/issue36-h100/banks/run5.sh,
# run6.sh on the H100). Then Nsight Compute on the problem's winner.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc -O2 -arch=native -Itests/gpu -o /tmp/fp docs/perf/issue36-h100/footprint/footprint_copy.cu || exit 1
W=/tmp/r9; mkdir -p $W && chmod 700 $W
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune AUTOTUNE_CACHE=$W/c.db
L="i8 19194 22735 22735 19194
i8 19194 22735 22736 19200
i8 19194 22735 22735 19200
i8 19194 22735 22736 19194
i8 19194 22735 32768 32768
u8 19200 22784 22784 19200
u8 16384 16384 16384 16384"
echo "$L" | while read -r t r c li lo; do
  build/autotune bench transpose --type $t --rows $r --cols $c --ld-in $li --ld-out $lo \
    --csv $W/x.csv > $W/x.log 2>&1
  rc=$?
  pt=$(sed -n 's/^\[1\/1\] [^:]*: \([^ ]*\) .*/\1/p' $W/x.log | head -1)
  fp=$(/tmp/fp 1 $r $c $li $lo 256 128 2 0 2>&1 | grep -o 'footprint [0-9]* GB/s [0-9.]*%')
  echo "$t ${r}x$c ld $li/$lo rc=$rc tuned $(awk -F, '$11=="tuned"{printf "%.1f%%", $14*100}' $W/x.csv) $pt | $fp" | tee -a $W/t.txt
  rm -f $W/x.csv
done
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
XC_RUN="$NCU -k regex:autotune_transpose_.*_kernel\$ --launch-skip 5 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --section InstructionStats --metrics dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_read.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum" \
  timeout 200 sh tests/gpu/crosscheck.sh i8:19194x22735 > $W/ncu.txt 2>&1
echo "== ncu rc=$?"
grep -E "emitted point|crosscheck|DRAM Throughput|Memory Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per|Block Size|Grid Size|Issued Warp Per|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Duration|dram__bytes|smsp__inst_executed.sum|lts__t_sectors|bank_conflicts|l1tex__t_|Dynamic Shared|autotune bench|Stall|L1/TEX Hit|L2 Hit" $W/ncu.txt | cut -c1-160 | head -50
echo "== table"; cat $W/t.txt
