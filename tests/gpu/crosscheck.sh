#!/bin/sh
# Measuring as a user would (`make gpu-crosscheck`): for a few f32 shapes,
# the emitted .cu linked into a plain nvcc-built program
# (tests/gpu/crosscheck.cu) and timed back to back against memcpy,
# cuBLAS and cuTENSOR (with CUTENSOR_INCLUDE and AUTOTUNE_CUTENSOR set),
# then `autotune bench` of the same problem, from the same cache. The two
# must agree within about 1%. Usage: crosscheck.sh [R C ...]
cd "$(dirname "$0")/../.." || exit 1
T=$(mktemp -d)
export AUTOTUNE_CACHE="$T/cache.db"
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null || NVCC=/usr/local/cuda/bin/nvcc
[ $# -gt 0 ] || set -- 8192 8192 4099 2053 8191 8209
# cuTENSOR in the program too where its header and library are given
# (CUTENSOR_INCLUDE, AUTOTUNE_CUTENSOR: the bench loads the same library).
CT=""
if [ -n "${CUTENSOR_INCLUDE:-}" ] && [ -f "${AUTOTUNE_CUTENSOR:-}" ]; then
    CT="-DAT_XC_CUTENSOR -I$CUTENSOR_INCLUDE -Xlinker $AUTOTUNE_CUTENSOR \
        -Xlinker -rpath -Xlinker $(dirname "$AUTOTUNE_CUTENSOR")"
fi
rc=0
while [ $# -ge 2 ]; do
    r=$1 c=$2
    shift 2
    build/autotune transpose --arch auto --rows "$r" --cols "$c" \
        -o "$T/t.cu" --quiet > "$T/tune.log" 2>&1 || { cat "$T/tune.log"; exit 1; }
    # shellcheck disable=SC2086
    "$NVCC" -O2 -arch=native tests/gpu/crosscheck.cu "$T/t.cu" -lcublas \
        $CT -o "$T/xc" || exit 1
    sed -n 's/^ \* point: *\([^ ]*\).*/emitted point: \1/p' "$T/t.cu"
    "$T/xc" "$r" "$c" || rc=1
    sh tests/gpu/bench_rows.sh transpose --rows "$r" --cols "$c" || rc=1
done
rm -rf "$T"
exit $rc
