#!/bin/sh
# Builds r11.sh's programs into gpurun/ed (build machine, no GPU): what the
# paths an odd shape compiles in (AT_EDGE, AT_SHIFT_IN, AT_SKEW) cost a
# kernel on whole tiles. Two points, each emitted by emit_any
# (docs/perf/issue36-h200/tools/emit_point.c with AT_FAMILY=transpose) for
# u8 19200x22784 (whole tiles, rows on 128 bytes: no path) and built into
# the nvcc crosscheck program with the paths switched on one by one:
#   a: tile256x256_blk16x32 vec4 pk padb (u8 19200x22784's H200 winner)
#   b: tile64x256_blk8x32 vec2 pk pad1 (i8 19194x22735's H200 winner)
# suffix: 000 none, 100 AT_EDGE, 110 AT_EDGE AT_SHIFT_IN, 111 all three.
# gpurun/ed was built with cb29ebc's template, gpurun/ed2 (r12) with the
# shifted vector loads r12.txt describes, since taken out again.
set -eu
D=${1:-gpurun/ed}; mkdir -p "$D"
T=$(mktemp -d)
PR="rows=19200 cols=22784 ld_in=22784 ld_out=19200"
REST="pack=1 tiles=1 ldg=1 restrict=1 kind=0 steps=1 flat=0"
AT_FAMILY=transpose /tmp/emit_any u8 "$PR" \
    "tile_x=256 tile_y=256 block_x=16 block_y=32 vec=4 smem=3 $REST" 0 "$T/a.cu" autotune_transpose_u8
AT_FAMILY=transpose /tmp/emit_any u8 "$PR" \
    "tile_x=64 tile_y=256 block_x=8 block_y=32 vec=2 smem=1 $REST" 0 "$T/b.cu" autotune_transpose_u8
for p in a b; do
    grep -q '^#define AT_EDGE 0$' "$T/$p.cu"
    for v in 000 100 110 111; do
        e=$(echo $v | cut -c1) s=$(echo $v | cut -c2) k=$(echo $v | cut -c3)
        sed -e "s/^#define AT_EDGE 0$/#define AT_EDGE $e/" \
            -e "s/^#define AT_SHIFT_IN 0$/#define AT_SHIFT_IN $s/" \
            -e "s/^#define AT_SKEW 0$/#define AT_SKEW $k/" "$T/$p.cu" > "$T/$p$v.cu"
        /usr/local/cuda/bin/nvcc -O2 -arch=sm_90 -DAT_XC_TYPE=u8 -Xptxas -v \
            tests/gpu/crosscheck.cu "$T/$p$v.cu" -lcublas -o "$D/$p$v" 2>&1 |
            grep -A1 "autotune_transpose_u8_kernel" | grep -o "Used [0-9]* registers" |
            sed "s/^/$p$v: /" &
    done
    wait
done
rm -rf "$T"
