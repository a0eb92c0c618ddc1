#!/bin/bash
# r31 profiled three column reductions under Nsight Compute's locked
# clocks (SM 1.47 GHz), where i32 amax down 36716x1430 drew 77.7% of
# DRAM's peak against a bare read's 78.5% (r27): level. At the clocks a
# user runs at it reads 93% of the copy where a read of 200 MiB would
# reach ~103%. So: (1) every point of its space recorded in a cold tune
# (which axes move it), also f16 sumsq down 100344x1534; (2) the winner
# and a bare read of 192 MiB profiled with --clock-control none.
# (3) r32/col_shapes.cu: load shapes and depths by hand on that problem.
# Carry build/autotune. About 4 minutes. (col_shapes.cu grew after this
# run: r33 added flat_wide and win_amax, which a rerun prints too.)
set -u
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
W=/tmp/r32; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune
export AUTOTUNE_CACHE=$W/cache.db
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
timeout 120 build/autotune reduce --arch auto --type i32 --op amax --rows 36716 \
  --cols 1430 --axis rows --record "$O/rec-i32-amax.csv" -o "$W/a.cu" --quiet
echo "== i32 rec rc=$?"
timeout 120 build/autotune reduce --arch auto --type f16 --op sumsq --rows 100344 \
  --cols 1534 --axis rows --record "$O/rec-f16-sumsq.csv" -o "$W/b.cu" --quiet
echo "== f16 rec rc=$?"
S="--clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy"
# shellcheck disable=SC2086
XC_RUN="$NCU -k regex:_kernel\$ -s 3 -c 1 $S" timeout 150 \
  sh tests/gpu/crosscheck_reduce.sh i32:amax rows 36716 1430 > "$O/red1-boost.txt" 2>&1
nvcc -O3 -arch=native -I tests/gpu docs/perf/issue36-h200/r26/read_ceiling.cu -o "$W/rc"
# shellcheck disable=SC2086
timeout 100 "$NCU" -k regex:read_all -s 2 -c 1 $S "$W/rc" 192 > "$O/read192-boost.txt" 2>&1
"$W/rc" 192 >> "$O/read192-boost.txt" 2>&1
nvcc -O3 -arch=native -I tests/gpu docs/perf/issue36-h200/r32/col_shapes.cu -o "$W/cs"
timeout 60 "$W/cs" 36716 1430 > "$O/col_shapes.txt" 2>&1
echo "== col_shapes rc=$?"
cat "$O/col_shapes.txt"
for f in red1-boost read192-boost; do
  echo "== $f"
  grep -E "emitted point|autotune bench:|^192 " "$O/$f.txt" | cut -c1-160
  grep -E "SM Frequency|Duration|DRAM Throughput|L2 Cache Throughput|Achieved Occupancy|Warp Cycles Per Issued|Compute \(SM\)" "$O/$f.txt" | head -10
done
for f in "$O"/rec-*.csv; do
  echo "== $f $(wc -l < "$f") lines"; head -1 "$f"
  # the 25 fastest verified points
  grep ",ok," "$f" | sort -t, -k9g | head -25 | cut -d, -f5,9,13
done
