#!/bin/sh
# Builds r14.sh's programs into gpurun/rot (build machine): r11's points a
# (tile256x256 vec4 padb) and b (tile64x256 vec2 pad1) with the paths
# 100 (AT_EDGE) and 111 (AT_EDGE, AT_SHIFT_IN, AT_SKEW), as tuned (no
# suffix) and with the tile order rotated by one line of tiles ("r": the
# last tile column, where the tiles go down the columns, first), so the
# tiles cut by the last column run at the start instead of as the tail.
# Built with cb29ebc's template (the tree's takes that line first already).
set -eu
D=gpurun/rot; mkdir -p $D
T=$(mktemp -d)
PR="rows=19200 cols=22784 ld_in=22784 ld_out=19200"
REST="pack=1 tiles=1 ldg=1 restrict=1 kind=0 steps=1 flat=0"
AT_FAMILY=transpose /tmp/emit_any u8 "$PR" \
    "tile_x=256 tile_y=256 block_x=16 block_y=32 vec=4 smem=3 $REST" 0 "$T/a.cu" autotune_transpose_u8
AT_FAMILY=transpose /tmp/emit_any u8 "$PR" \
    "tile_x=64 tile_y=256 block_x=8 block_y=32 vec=2 smem=1 $REST" 0 "$T/b.cu" autotune_transpose_u8
for p in a b; do
    for v in 100 111; do
        e=$(echo $v | cut -c1) s=$(echo $v | cut -c2) k=$(echo $v | cut -c3)
        sed -e "s/^#define AT_EDGE 0$/#define AT_EDGE $e/" \
            -e "s/^#define AT_SHIFT_IN 0$/#define AT_SHIFT_IN $s/" \
            -e "s/^#define AT_SKEW 0$/#define AT_SKEW $k/" "$T/$p.cu" > "$T/$p$v.cu"
        sed 's/^    const long long bx = down ? i1 : i0, by = down ? i0 : i1;$/    i1 = i1 == 0 ? n1 - 1 : i1 - 1;\n&/' \
            "$T/$p$v.cu" > "$T/$p${v}r.cu"
        grep -q "i1 = i1 == 0" "$T/$p${v}r.cu"
        for x in "" r; do
            /usr/local/cuda/bin/nvcc -O2 -arch=sm_90 -DAT_XC_TYPE=u8 \
                tests/gpu/crosscheck.cu "$T/$p$v$x.cu" -lcublas -o "$D/$p$v$x" &
        done
    done
    wait
done
rm -rf "$T"
