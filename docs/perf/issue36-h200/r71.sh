#!/bin/bash
# Why gathered strips stop at about 90% of the copy. (1) The grid:
# r71/gather_grid.cu, u8 31 x 3552786's winner launched with its
# launcher's grid and with fewer blocks that loop. (2) Nsight Compute on
# its launcher's grid. (3) gpu_variants' gathered points on the strip
# shapes as committed (batches off 16 bytes added). Carry build/autotune,
# build/tests/gpu_variants-rel and build/tests/lib; from the repository
# root.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r71; mkdir -p "$W/g" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
# (gathered_u8_31.cu, the emitted point, is in r71/emitted.tar.xz since
# r72: tar -xJf it into $W and add -I"$W" to rerun this.)
(cd docs/perf/issue36-h200/r71 && nvcc -O2 -arch=native gather_grid.cu -o "$W/gg") &&
    "$W/gg" > "$O/grid.txt" 2>&1
echo "== grid rc=$? $SECONDS s"; cat "$O/grid.txt"
timeout 200 "$NCU" -k regex:gk_kernel -s 2 -c 1 --section SpeedOfLight --section Occupancy \
    --section LaunchStats --section WarpStateStats --section SchedulerStats \
    --section MemoryWorkloadAnalysis --metrics dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum \
    "$W/gg" > "$O/ncu.txt" 2>&1
echo "== ncu rc=$? $SECONDS s"
grep -E "DRAM Throughput|Memory Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per|Block Size|Grid Size|Waves Per SM|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Duration|dram__bytes|smsp__inst_executed|Stall|L2 Hit|Mem Busy|Max Bandwidth|Shared" "$O/ncu.txt" | cut -c1-150 | head -40
AT_GPU_GATHERED=1 AT_GPU_TESTS='strip_points_*' AT_GPU_TMP=$W/g timeout 170 \
    build/tests/gpu_variants-rel > "$O/gathered.tap" 2>&1
echo "== gpu_variants gathered rc=$? $SECONDS s"
grep -E "^(ok|not ok)|FAILED" "$O/gathered.tap" | cut -c1-160 | head -14
grep "verified" "$O/gathered.tap" | cut -c1-150 | head -12
