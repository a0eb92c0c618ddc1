#!/bin/sh
# Builds r18.sh's programs into gpurun/coal (build machine, no GPU): the
# shifted word loads (AT_SHIFT_IN) with a warp's words a lane apart
# (AT_SHIFT_COAL, templates/transpose.cu) against a thread's words in a
# row (what r11 measured: 25 points under the vector loads on whole
# tiles). Points a and b of r11/build.sh, and c: a's tile swizzled
# (smem 2, where the put of a word's units is one 16-byte store).
# suffix: 100 AT_EDGE alone (the reference), 110/111 + AT_SHIFT_IN (+
# AT_SKEW), then COAL 0 (a thread's words in a row), 1 (words a lane apart,
# the next word loaded again), 2 (the next word from the next lane).
# a and c are held to 2 blocks an SM (AT_MIN_BLOCKS 2, 64 registers: words
# a lane apart took 97 to 109 without), b to none (32 to 40 registers).
# Needs /tmp/emit_any (tools/emit_point.c) built against the tree.
set -eu
D=${1:-gpurun/coal}; mkdir -p "$D"
T=$(mktemp -d)
PR="rows=19200 cols=22784 ld_in=22784 ld_out=19200"
REST="pack=1 tiles=1 ldg=1 restrict=1 kind=0 steps=1 flat=0"
AT_FAMILY=transpose /tmp/emit_any u8 "$PR" \
    "tile_x=256 tile_y=256 block_x=16 block_y=32 vec=4 smem=3 $REST" 2 "$T/a.cu" autotune_transpose_u8
AT_FAMILY=transpose /tmp/emit_any u8 "$PR" \
    "tile_x=64 tile_y=256 block_x=8 block_y=32 vec=2 smem=1 $REST" 0 "$T/b.cu" autotune_transpose_u8
AT_FAMILY=transpose /tmp/emit_any u8 "$PR" \
    "tile_x=256 tile_y=256 block_x=16 block_y=32 vec=4 smem=2 $REST" 2 "$T/c.cu" autotune_transpose_u8
for p in a b c; do
    grep -q '^#define AT_EDGE 0$' "$T/$p.cu"
    for v in 100 110_0 110_1 110_2 111_0 111_1 111_2; do
        e=$(echo $v | cut -c1) s=$(echo $v | cut -c2) k=$(echo $v | cut -c3)
        co=$(echo $v | cut -s -d_ -f2); co=${co:-0}
        sed -e "s/^#define AT_EDGE 0$/#define AT_EDGE $e/" \
            -e "s/^#define AT_SHIFT_IN 0$/#define AT_SHIFT_IN $s\n#define AT_SHIFT_COAL $co/" \
            -e "s/^#define AT_SKEW 0$/#define AT_SKEW $k/" "$T/$p.cu" > "$T/$p$v.cu"
        grep -q "^#define AT_SHIFT_COAL $co$" "$T/$p$v.cu"
        /usr/local/cuda/bin/nvcc -O2 -arch=sm_90 -DAT_XC_TYPE=u8 -Xptxas -v \
            tests/gpu/crosscheck.cu "$T/$p$v.cu" -lcublas -o "$D/$p$v" 2>&1 |
            grep -A1 "autotune_transpose_u8_kernel" | grep -o "Used [0-9]* registers" |
            sed "s/^/$p$v: /" &
    done
    wait
done
rm -rf "$T"
