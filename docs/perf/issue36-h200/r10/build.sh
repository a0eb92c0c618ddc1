#!/bin/sh
# Builds r10.sh's programs into gpurun/sk (build machine, no GPU): three
# points of i8 19194x22735 (the H200's winner, the H100's, the winner at
# output rows on the sectors) emitted by emit_any (docs/perf/issue36-h200/
# tools/emit_point.c with AT_FAMILY=transpose) and built into the nvcc
# crosscheck program with the skewed stores' boundary at 32 (as tuned),
# 64 and 128 bytes (-DAT_SKEW_BYTES). From the repository root.
set -eu
T=$(mktemp -d)
PR="rows=19194 cols=22735 ld_in=22735 ld_out=19194"
n=0
for P in "tile_x=64 tile_y=256 block_x=8 block_y=32 vec=2" \
         "tile_x=128 tile_y=256 block_x=16 block_y=32 vec=2" \
         "tile_x=128 tile_y=128 block_x=16 block_y=16 vec=2"; do
    n=$((n + 1))
    AT_FAMILY=transpose /tmp/emit_any i8 "$PR" \
        "$P pack=1 smem=1 tiles=1 ldg=1 restrict=1 kind=0 steps=1 flat=0" 0 \
        "$T/p$n.cu" autotune_transpose_i8
    for sk in 32 64 128; do
        /usr/local/cuda/bin/nvcc -O2 -arch=sm_90 -DAT_XC_TYPE=i8 -DAT_SKEW_BYTES=$sk \
            tests/gpu/crosscheck.cu "$T/p$n.cu" -lcublas -o gpurun/sk/p${n}s$sk &
    done
    wait
done
rm -rf "$T"
