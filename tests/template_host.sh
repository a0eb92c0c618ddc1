#!/bin/sh
# templates/transpose.cu's tiles run on the host (no GPU): a sample of
# the packed u8 and f16 configurations of the space and two unpacked ones
# (f32, f64), each built three ways (the element path with shifted loads,
# packed only, the element path alone, and a whole-tile kernel), under
# ASan and UBSan, run on problems around the skew's reach
# (tests/host/transpose_tiles.cpp says what it checks).
# A check of the template's index arithmetic before the GPU suite, not in
# its place. Skips without a C++ compiler.
cd "$(dirname "$0")/.." || exit 1
CXX=${CXX:-g++}
if ! command -v "$CXX" >/dev/null 2>&1; then
    echo "1..0 # SKIP no C++ compiler ($CXX)"
    exit 0
fi
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
# element bytes, tile x, tile y, block x, block y, vec, smem, and a
# padded tile's units after every 32 and at a row's end (AT_CSKEW,
# AT_ROW_EXTRA: for the packed padded ones, those gen/transpose_smem.c
# chooses; the 1-byte winner's, tile 128x256, both ways): eight of
# the 510 distinct packed configurations of u8 and f16 (the review's list,
# docs/perf/issue36-h100/packed-skew/host-emulation/results.txt.gz), with
# both element sizes, vectors of 1, 2 and 4, both shared-memory layouts
# and tiles of 64 to 512; two with a fitted side (96 rows of f16, 320
# columns of u8); and two unpacked, whose skewed stores move whole
# elements (f32 64x64, f64 32x64 swizzled).
CONFIGS="1 128 128 16 16 1 1 1 2
1 256 128 8 32 4 1 4 1
1 512 256 32 32 1 2 0 1
1 64 64 16 16 1 1 1 4
2 128 128 8 32 4 2 0 1
2 128 64 16 8 2 1 2 1
2 32 64 8 16 1 2 0 1
2 64 512 16 32 2 2 0 1
2 64 96 8 16 2 2 0 1
1 320 128 16 32 1 2 0 1
1 128 256 16 32 2 1 2 1
1 128 256 16 32 2 1 0 1
4 64 64 16 16 2 1 0 1
8 32 64 8 16 2 2 0 1"
# Each configuration as "E TX TY BX BY V S CS EX EDGE SHIFT_IN FLAT", one a
# line; FLAT 1: flat loads and stores compiled in (taken where a tile
# spans the matrix's side and its rows are end to end).
echo "$CONFIGS" | while read -r c; do
    # Shifted loads are for packed tiles (1- and 2-byte elements).
    if [ "${c%% *}" -le 2 ]; then echo "$c 1 1 1"; else echo "$c 1 0 1"; fi
    echo "$c 1 0 0"
    echo "$c 0 0 1"
done > "$T/list"
n=$(wc -l < "$T/list")
echo "1..$n"
# Build and run line N of the list: its output in $T/N.out, rc in $T/N.rc.
one() {
    n=$1
    set -- $2
    if "$CXX" -std=c++17 -O1 -g -fsanitize=address,undefined \
        -fno-sanitize-recover=all -w -Itests/host \
        -DAT_STRIP=0 -DAT_ELEM_BYTES="$1" -DAT_TILE_X="$2" -DAT_TILE_Y="$3" \
        -DAT_BLOCK_X="$4" -DAT_BLOCK_Y="$5" -DAT_PACK=$(($1 < 4 ? 4 / $1 : 1)) \
        -DAT_VEC="$6" -DAT_SMEM="$7" -DAT_CSKEW="$8" -DAT_ROW_EXTRA="$9" \
        -DAT_TILES=1 -DAT_LDG=1 \
        -DAT_RESTRICT=0 -DAT_SKEW=1 -DAT_THIN=0 -DAT_WIDE=0 \
        -DAT_EDGE="${10}" -DAT_SHIFT_IN="${11}" -DAT_FLAT_IN="${12}" \
        -DAT_FLAT_OUT="${12}" -DAT_KERNEL=k \
        -DTEMPLATE="\"$PWD/templates/transpose.cu\"" \
        tests/host/transpose_tiles.cpp -o "$T/$n" > "$T/$n.out" 2>&1
    then
        ASAN_OPTIONS=detect_leaks=1 "$T/$n" 7 > "$T/$n.out" 2>&1
        echo $? > "$T/$n.rc"
    else
        echo 2 > "$T/$n.rc"
    fi
    rm -f "$T/$n"
}
. tests/host/run_list.sh
run_list "problems [0-9]+ fails" "E TX TY BX BY V S CS EX EDGE SHIFT_IN FLAT"
