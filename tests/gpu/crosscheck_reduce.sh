#!/bin/sh
# Measuring a reduction as a user would (`make gpu-crosscheck`): for a
# few sum problems, the emitted .cu linked into a plain nvcc-built
# program (tests/gpu/crosscheck_reduce.cu) with CUB, timed back to back
# against memcpy, then `autotune bench reduce` of the same problem from
# the same cache. The two must agree within about 1%.
# Usage: crosscheck_reduce.sh [TYPE AXIS ROWS COLS ...] (AXIS all: ROWS 1)
cd "$(dirname "$0")/../.." || exit 1
T=$(mktemp -d)
export AUTOTUNE_CACHE="$T/cache.db"
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null || NVCC=/usr/local/cuda/bin/nvcc
# The suite's whole arrays and short rows, and two shapes it lacks.
[ $# -gt 0 ] || set -- f32 all 1 268435456  bf16 all 1 268435456 \
    f32 cols 4194304 64  bf16 cols 4194304 64  f32 rows 16384 16384 \
    f32 rows 77777 333  bf16 cols 12345 4321
rc=0
while [ $# -ge 4 ]; do
    t=$1 axis=$2 r=$3 c=$4
    shift 4
    case $t in f32) ct=float ;; bf16) ct=__nv_bfloat16 ;; f16) ct=__half ;;
        *) echo "crosscheck_reduce: type $t: f32, bf16 or f16" >&2; exit 2 ;;
    esac
    if [ "$axis" = all ]; then shape="--n $c"; else
        shape="--rows $r --cols $c --axis $axis"; fi
    # shellcheck disable=SC2086
    build/autotune reduce --arch auto --type "$t" --op sum $shape \
        --name "autotune_reduce_$t" -o "$T/r.cu" --quiet > "$T/tune.log" 2>&1 || { cat "$T/tune.log"; exit 1; }
    [ -f "$T/cub_$t.o" ] || "$NVCC" -c -O2 -arch=native -DAT_T="$ct" \
        -DAT_ACC=float -DAT_OP=0 templates/reduce_cub.cu -o "$T/cub_$t.o" || exit 1
    "$NVCC" -c -O2 -arch=native "$T/r.cu" -o "$T/r.o" || exit 1
    "$NVCC" -O2 -arch=native -DAT_T="$ct" -DAT_XC_FN="autotune_reduce_$t" \
        -DAT_XC_WS="autotune_reduce_${t}_workspace_bytes" \
        tests/gpu/crosscheck_reduce.cu "$T/r.o" "$T/cub_$t.o" -o "$T/xr" || exit 1
    sed -n 's/^ \* point: *\([^ ]*\).*/emitted point: \1/p' "$T/r.cu"
    "$T/xr" "$axis" "$r" "$c" || rc=1
    # shellcheck disable=SC2086
    sh tests/gpu/bench_rows.sh reduce --type "$t" --op sum $shape || rc=1
done
rm -rf "$T"
exit $rc
