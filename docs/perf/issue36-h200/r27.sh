#!/bin/bash
# Where a column reduction's points go against a bare read of the same
# size (r26: f16 amax down 1015457x47, 91 MiB, tunes to 88.5% of the
# copy where a read of 96 MiB reaches 98.0%). Nsight Compute on the
# emitted kernel in the crosscheck program (the file's cubin) and on
# r26/read_ceiling.cu's read of 96 MiB (one launch each of the best
# configuration, 4 blocks an SM unrolled 4: the 2nd contender). Carry
# build/autotune. About 4 minutes.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r27; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section LaunchStats --section SchedulerStats"
# shellcheck disable=SC2086
XC_RUN="$NCU -k regex:_kernel\$ -s 3 -c 1 $S" timeout 200 \
  sh tests/gpu/crosscheck_reduce.sh f16:amax rows 1015457 47 > "$O/reduce.txt" 2>&1
nvcc -O3 -arch=native -I tests/gpu docs/perf/issue36-h200/r26/read_ceiling.cu -o "$W/rc"
# shellcheck disable=SC2086
timeout 120 "$NCU" -k regex:read_all -s 2 -c 1 $S "$W/rc" 96 > "$O/read.txt" 2>&1
grep -E "emitted|crosscheck|autotune bench" "$O/reduce.txt" | cut -c1-200
for f in reduce read; do
  echo "== $f"
  grep -E "Duration|DRAM Throughput|Memory Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per|Grid Size|Block Size|Warp Cycles Per Issued|No Eligible|Issued Warp|Waves Per SM" "$O/$f.txt" | head -20
done
