#!/bin/sh
# Builds r19.sh's programs into gpurun/mb (build machine, no GPU): what
# __launch_bounds__'s blocks an SM (AT_MIN_BLOCKS) do to points with every
# path (AT_EDGE, AT_SHIFT_IN, AT_SKEW) under nvcc. r18's a111 held to 2
# blocks ran at 89.7% of the copy on whole tiles where r11's, unbounded
# and on cb29ebc's template, ran at 73.2%: the bound or the template?
# a: tile256x256_blk16x32 vec4 pk padb, b: tile64x256_blk8x32 vec2 pk pad1,
# t: tile128x256_blk16x32 vec2 pk padb (i8 19194x22735's tuned winner);
# the suffix is the blocks asked (0: none).
# Needs /tmp/emit_any (tools/emit_point.c) built against the tree.
set -eu
D=${1:-gpurun/mb}; mkdir -p "$D"
T=$(mktemp -d)
PR="rows=19200 cols=22784 ld_in=22784 ld_out=19200"
REST="pack=1 tiles=1 ldg=1 restrict=1 kind=0 steps=1 flat=0"
for x in "a 0" "a 2" "b 0" "b 4" "b 8" "t 0" "t 3" "t 4"; do
    set -- $x
    case $1 in
    a) pt="tile_x=256 tile_y=256 block_x=16 block_y=32 vec=4 smem=3" ;;
    b) pt="tile_x=64 tile_y=256 block_x=8 block_y=32 vec=2 smem=1" ;;
    t) pt="tile_x=128 tile_y=256 block_x=16 block_y=32 vec=2 smem=3" ;;
    esac
    AT_FAMILY=transpose /tmp/emit_any u8 "$PR" "$pt $REST" "$2" "$T/$1$2.cu" autotune_transpose_u8
    sed -e "s/^#define AT_EDGE 0$/#define AT_EDGE 1/" \
        -e "s/^#define AT_SHIFT_IN 0$/#define AT_SHIFT_IN 1/" \
        -e "s/^#define AT_SKEW 0$/#define AT_SKEW 1/" "$T/$1$2.cu" > "$T/x$1$2.cu"
    /usr/local/cuda/bin/nvcc -O2 -arch=sm_90 -DAT_XC_TYPE=u8 -Xptxas -v \
        tests/gpu/crosscheck.cu "$T/x$1$2.cu" -lcublas -o "$D/$1$2" 2>&1 |
        grep -A3 "entry function 'autotune_transpose_u8_kernel'" |
        grep -oE "Used [0-9]+ registers|[0-9]+ bytes spill stores" | tr '\n' ' ' |
        sed "s/^/$1$2: /"; echo
done
rm -rf "$T"
