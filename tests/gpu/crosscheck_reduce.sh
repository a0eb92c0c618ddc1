#!/bin/sh
# Measuring a reduction as a user would (`make gpu-crosscheck`): for a
# few problems (sums unless TYPE:OP says), the emitted .cu linked into a plain nvcc-built
# program (tests/gpu/crosscheck_reduce.cu) with CUB, timed back to back
# against memcpy, then `autotune bench reduce` of the same problem from
# the same cache. The two must agree within about 1%.
# Usage: crosscheck_reduce.sh [TYPE[:OP] AXIS ROWS COLS[:LD] ...] (AXIS
# all: ROWS 1; TYPE f32, f64, f16, bf16 or i32; OP sum, min, max, sumsq,
# amax; LD: rows LD elements apart, COLS when not given)
cd "$(dirname "$0")/../.." || exit 1
. tests/gpu/xc_builds.sh
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
export AUTOTUNE_CACHE="$T/cache.db"
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null || NVCC=/usr/local/cuda/bin/nvcc
# The suite's whole arrays and short rows, and two shapes it lacks.
[ $# -gt 0 ] || set -- f32 all 1 268435456  bf16 all 1 268435456 \
    f32 cols 4194304 64  bf16 cols 4194304 64  f32 rows 16384 16384 \
    f32 rows 77777 333  bf16 cols 12345 4321
# The program around emitted file $1, as $2 (the problem's type and op
# from the loop below); $3: flags for the file's compile.
program() {
    # shellcheck disable=SC2086
    "$NVCC" -c -O2 -arch=native ${3:-} "$1" -o "$1.o" || return 1
    "$NVCC" -O2 -arch=native -DAT_T="$ct" -DAT_XC_FN="autotune_reduce_$t" \
        -DAT_XC_WS="autotune_reduce_${t}_workspace_bytes" -DAT_OP=$o \
        -DAT_XC_TUNED="autotune_reduce_${t}_runs_tuned_cubin" \
        -DAT_OUT="$out" -DAT_INT=$int -DAT_XC_LABEL="\"$t $op\"" \
        tests/gpu/crosscheck_reduce.cu "$1.o" "$T/cub_${t}_$op.o" -o "$2"
}
rc=0
while [ $# -ge 4 ]; do
    t=${1%%:*} op=${1#*:} axis=$2 r=$3 c=${4%%:*} ld=${4#*:}
    shift 4
    [ "$op" != "$t" ] || op=sum
    out=float int=0
    case $t in f32) ct=float ;; bf16) ct=__nv_bfloat16 ;; f16) ct=__half ;;
        f64) ct=double out=double ;; i32) ct=int out=int64_t int=1 ;;
        *) echo "crosscheck_reduce: type $t: f32, f64, f16, bf16 or i32" >&2
           exit 2 ;;
    esac
    case $op in sum) o=0 ;; min) o=1 ;; max) o=2 ;; sumsq) o=3 ;; amax) o=4 ;;
        *) echo "crosscheck_reduce: op $op: sum, min, max, sumsq or amax" >&2
           exit 2 ;;
    esac
    if [ "$axis" = all ]; then shape="--n $c"; else
        shape="--rows $r --cols $c --ld $ld --axis $axis"; fi
    # shellcheck disable=SC2086
    build/autotune reduce --arch auto --type "$t" --op "$op" $shape \
        --name "autotune_reduce_$t" -o "$T/r.cu" --quiet > "$T/tune.log" 2>&1 || { cat "$T/tune.log"; exit 1; }
    [ -f "$T/cub_${t}_$op.o" ] || "$NVCC" -c -O2 -arch=native -DAT_T="$ct" \
        -DAT_ACC="$out" -DAT_OP=$o templates/reduce_cub.cu \
        -o "$T/cub_${t}_$op.o" || exit 1
    program "$T/r.cu" "$T/xr" || exit 1
    sed -n 's/^ \* point: *\([^ ]*\).*/emitted point: \1/p' "$T/r.cu"
    # XC_RUN: a prefix for the program (a profiler: XC_RUN="ncu -k
    # regex:_kernel$ ..." profiles the emitted kernel alone).
    # shellcheck disable=SC2086
    ${XC_RUN:-} "$T/xr" "$axis" "$r" "$c" "$ld" || rc=1
    # XC_SOURCE=1, XC_UNBOUND=1: other builds of the file (xc_builds.sh).
    xc_builds "$T/r.cu" program "$axis" "$r" "$c" "$ld"
    case $? in 2) exit 1 ;; 1) rc=1 ;; esac
    # shellcheck disable=SC2086
    sh tests/gpu/bench_rows.sh reduce --type "$t" --op "$op" $shape || rc=1
done
exit $rc
