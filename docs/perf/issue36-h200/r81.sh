#!/bin/bash
# The change of 54490d9 (a skewed tile's extra rows loaded all at once)
# checked wider than r79, and one question for the next session. (1)
# gpu_variants on every 3rd point of every element size, and of 1- and
# 2-byte elements with output rows off the sectors (skewed); (2)
# compute-sanitizer's memcheck and racecheck on a sample of the skewed
# ones (tests/gpu/sanitize.sh, those two tests alone); (3) Nsight
# Compute at the GPU's own clocks (--clock-control none; r76, r77 and r80
# ran at its locked base clocks, where L2 was the busiest unit, 87-94%)
# on f16 2777x107525 and its control 2784x107528. Carry build/autotune,
# build/tests/gpu_variants-rel and build/tests/lib; from the repository
# root.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r81; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune
AT_GPU_SAMPLE=3 AT_GPU_TESTS='every_point_*' timeout 240 \
    build/tests/gpu_variants-rel > "$O/variants.txt" 2>&1
echo "== variants rc=$? $SECONDS s: $(grep -cE '^ok' "$O/variants.txt") ok, $(grep -cE '^not ok' "$O/variants.txt") not ok"
grep -E "^(not )?ok|points verified|wrong" "$O/variants.txt" | head -16
AT_GPU_TESTS='every_point_*_rows_off_sectors' timeout 150 \
    sh tests/gpu/sanitize.sh gpu_variants > "$O/sanitize.txt" 2>&1
echo "== sanitize rc=$? $SECONDS s"; head -12 "$O/sanitize.txt" | cut -c1-160
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
for p in f16:2777x107525 f16:2784x107528; do
    left=$((560 - SECONDS)); [ "$left" -gt 40 ] || break
    XC_RUN="$NCU --clock-control none -k regex:_kernel\$ -s 3 -c 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy" \
        timeout "$left" sh tests/gpu/crosscheck.sh "$p" > "$O/ncu-${p#*:}.txt" 2>&1
    echo "== ncu $p rc=$? $SECONDS s"
    grep -E "emitted point|SM Frequency|Duration|DRAM Throughput|L2 Cache Throughput|L1/TEX Cache Throughput|Compute \(SM\)|Mem Busy|Achieved Occupancy" \
        "$O/ncu-${p#*:}.txt" | grep -v '^==PROF==' | cut -c1-120
done
