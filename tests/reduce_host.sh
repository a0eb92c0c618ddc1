#!/bin/sh
# templates/reduce.cu's column strips run on the host (no GPU): shifted
# strips of 16 bytes (bf16 and f32), with and without AT_ANY_BASE, and
# two strips that do not shift, as controls; built under ASan and UBSan
# and run on rows off the vector (tests/host/reduce_strips.cpp says what
# it checks). A check of the template's arithmetic and addressing before
# the GPU suite, not in its place. Skips without a C++20 compiler.
cd "$(dirname "$0")/.." || exit 1
. tests/host/run_list.sh
host_setup
need_cxx20
# type (0 f32, 3 bf16), op (0 sum, 2 max), threads, group, vec, items,
# shift, any base: bf16 and f32 16-byte strips shifted (row lanes 4 to
# 32, one to eight loads in flight, any base or not), and, not shifted,
# bf16 pairs (ld even only) and f32 elements.
CONFIGS="3 0 128 32 8 4 1 0
3 2 256 8 8 1 1 1
0 2 128 16 4 8 1 0
3 0 128 16 8 2 1 1
3 2 128 4 8 4 1 0
0 0 128 32 4 4 1 1
3 0 128 32 2 4 0 0
0 2 128 32 1 8 0 0"
echo "$CONFIGS" > "$T/list"
n=$(wc -l < "$T/list")
echo "1..$n"
one() {
    n=$1
    set -- $2
    "$CXX" -std=c++20 -O1 -g -fsanitize=address,undefined \
        -fno-sanitize-recover=all -w -pthread -Itests/host \
        -DAT_TYPE="$1" -DAT_OP="$2" -DAT_COLS=1 -DAT_THREADS="$3" \
        -DAT_GROUP="$4" -DAT_VEC="$5" -DAT_ITEMS="$6" -DAT_ACCS=1 \
        -DAT_COMBINE=0 -DAT_TREE=0 -DAT_FLAT=0 -DAT_SHIFT="$7" \
        -DAT_FLAT_K=1 -DAT_ANY_BASE="$8" -DAT_KERNEL=k \
        -DTEMPLATE="\"$PWD/templates/reduce.cu\"" \
        tests/host/reduce_strips.cpp -o "$T/$n" > "$T/$n.out" 2>&1
    ran "$n" $?
}
run_list "problems [0-9]+ fails" "TYPE OP THREADS GROUP VEC ITEMS SHIFT ANY_BASE"
