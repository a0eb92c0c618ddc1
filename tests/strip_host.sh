#!/bin/sh
# templates/transpose.cu's strips run on the host (no GPU): a few
# configurations, long output rows realigned (AT_REALIGN) or not, and
# long input rows, built under ASan and UBSan and run on problems whose
# long rows sit off every vector and sector, each warp's lanes in step at
# their shuffles (tests/host/transpose_strips.cpp says what it checks). A check of the template's arithmetic and lane
# logic before the GPU suite, not in its place. Skips without a C++20
# compiler.
cd "$(dirname "$0")/.." || exit 1
. tests/host/run_list.sh
host_setup
need_cxx20
# element bytes, short side, vec, steps, staged, realigned, short rows,
# gathered:
# long output rows, each realigned but one (the element path, a
# control): the winners on the H100 (f16 x 10 vec 8 staged, i8 x 21 vec
# 8 staged, f32 x 9 vec 4 staged), vectors of 2 to 16 bytes, two steps,
# unstaged runs; and long input rows (short rows), which are not
# realigned: i8 26 x N vec 4 staged (the H100's winner there), f16, f32;
# and gathered through shared memory (AT_GATHER): bytes, an even and an
# odd short side, 2 and 4 tiles a block; 2-byte elements.
CONFIGS="2 10 8 1 1 1 0 0
2 10 4 2 0 1 0 0
1 21 8 1 1 1 0 0
1 13 16 1 0 1 0 0
1 3 2 1 0 1 0 0
4 9 4 1 1 1 0 0
4 3 2 2 0 1 0 0
2 5 2 1 1 1 0 0
1 13 4 1 1 0 0 0
1 26 4 1 1 0 1 0
2 10 8 1 0 0 1 0
4 3 4 2 1 0 1 0
1 26 4 2 0 0 1 1
1 13 4 4 0 0 1 1
2 9 2 2 0 0 1 1"
echo "$CONFIGS" > "$T/list"
n=$(wc -l < "$T/list")
echo "1..$n"
pow2() { w=16; while [ $(($1 % w)) -ne 0 ]; do w=$((w / 2)); done; echo $w; }
one() {
    n=$1
    set -- $2
    "$CXX" -std=c++20 -O1 -g -fsanitize=address,undefined \
        -fno-sanitize-recover=all -w -pthread -Itests/host \
        -DAT_STRIP=1 -DAT_ELEM_BYTES="$1" -DAT_SHORT="$2" -DAT_SHORT_ROWS="$7" \
        -DAT_BLOCK_X=32 -DAT_BLOCK_Y=4 -DAT_VEC="$3" -DAT_STEPS="$4" \
        -DAT_LONG_BYTES=$(($3 * $1)) -DAT_DENSE_BYTES="$(pow2 $(($3 * $2 * $1)))" \
        -DAT_RUN_BYTES="$(pow2 $(($2 * $1)))" -DAT_STAGE="$5" -DAT_LDG=1 \
        -DAT_RESTRICT=0 -DAT_REALIGN="$6" -DAT_GATHER="$8" -DAT_KERNEL=k \
        -DTEMPLATE="\"$PWD/templates/transpose.cu\"" \
        tests/host/transpose_strips.cpp -o "$T/$n" > "$T/$n.out" 2>&1
    ran "$n" $?
}
run_list "problems [0-9]+ fails" \
    "E SHORT VEC STEPS STAGE REALIGN SHORT_ROWS GATHER"
