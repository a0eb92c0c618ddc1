#!/bin/bash
# Where three column reductions that miss item 2 spend their time, each
# tuned cold and its emitted kernel (the file's cubin) profiled in the
# crosscheck program, beside a bare read of the same size (r26's
# read_ceiling.cu): i32 amax down 36716x1430 (200 MiB, 91-95% of the
# copy against a read's ~103%), f16 sumsq down 100344x1534 (294 MiB,
# 93.9% against ~104.5%), f64 min down 132920x61 ld 89 (62 MiB summed,
# 79%). Carry build/autotune. About 5 minutes.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r31; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section WarpStateStats --section Occupancy --section LaunchStats --section SourceCounters"
n=0
for p in "i32:amax rows 36716 1430" "f16:sumsq rows 100344 1534" "f64:min rows 132920 61:89"; do
  n=$((n + 1))
  # shellcheck disable=SC2086
  XC_RUN="$NCU -k regex:_kernel\$ -s 3 -c 1 $S" timeout 150 \
    sh tests/gpu/crosscheck_reduce.sh $p > "$O/red$n.txt" 2>&1
  echo "== red$n $p rc=$?"
done
nvcc -O3 -arch=native -I tests/gpu docs/perf/issue36-h200/r26/read_ceiling.cu -o "$W/rc"
# shellcheck disable=SC2086
timeout 100 "$NCU" -k regex:read_all -s 2 -c 1 $S "$W/rc" 200 > "$O/read200.txt" 2>&1
"$W/rc" 200 > "$O/rc200.txt" 2>&1
for f in red1 red2 red3 read200; do
  echo "== $f"
  grep -E "emitted point|autotune bench:" "$O/$f.txt" | cut -c1-160
  grep -E "Duration|DRAM Throughput|L2 Hit Rate|L1/TEX Hit|Achieved Occupancy|Registers Per|Grid Size|Block Size|Warp Cycles Per Issued|No Eligible|Issue Slots Busy" "$O/$f.txt" | head -14
done
cat "$O/rc200.txt"
