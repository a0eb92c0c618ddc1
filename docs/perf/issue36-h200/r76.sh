#!/bin/bash
# For the next session: where r75's 2-byte tiles with odd sides lose.
# f16 2777x107525 (86.3% of the copy in r75) as a user builds it
# (tests/gpu/crosscheck.sh: its emitted .cu in an nvcc program), its
# tuned kernel under Nsight Compute beside f16 2784x107528 (both sides
# on 16 bytes) as the control. Carry build/autotune; from the repository
# root.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r76; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section LaunchStats --metrics dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"
for p in f16:2777x107525 f16:2784x107528; do
    left=$((230 - SECONDS)); [ "$left" -gt 30 ] || break
    # shellcheck disable=SC2086
    XC_RUN="$NCU -k regex:_kernel\$ -s 3 -c 1 $S" timeout "$left" \
        sh tests/gpu/crosscheck.sh "$p" > "$O/ncu-${p#*:}.txt" 2>&1
    echo "== $p rc=$? $SECONDS s"
    grep -E "emitted point|DRAM Throughput|Duration|Achieved Occupancy|Registers Per|Block Size|Grid Size|Warp Cycles Per Issued|No Eligible|Issue Slots Busy|dram__bytes|smsp__inst_executed|bank_conflicts|L2 Hit Rate|Mem Busy" \
        "$O/ncu-${p#*:}.txt" | grep -v '^==PROF==' | cut -c1-150 | head -20
done
