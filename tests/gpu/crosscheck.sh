#!/bin/sh
# Measuring as a user would (`make gpu-crosscheck`): for a few shapes, the
# emitted .cu linked into a plain nvcc-built program
# (tests/gpu/crosscheck.cu) and timed back to back against memcpy,
# cuBLAS and cuTENSOR (with CUTENSOR_INCLUDE and AUTOTUNE_CUTENSOR set),
# then `autotune bench` of the same problem, from the same cache. The two
# must agree within about 1%.
# Usage: crosscheck.sh [R C ...]            f32 R x C problems
#        crosscheck.sh TYPE:RxC[:LDIN:LDOUT] ...  any type, leading dims
# (XC_SOURCE=1, XC_UNBOUND=1: each file also built and timed from its
# source, and without its occupancy bounds: tests/gpu/xc_builds.sh.)
cd "$(dirname "$0")/../.." || exit 1
. tests/gpu/xc_builds.sh
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
# The program around emitted file $1, as $2; $3: flags for its compile.
program() {
    # shellcheck disable=SC2086
    "$NVCC" -O2 -arch=native -DAT_XC_TYPE="$t" ${3:-} tests/gpu/crosscheck.cu \
        "$1" -lcublas $CT -o "$2"
}
rc=0
while [ $# -gt 0 ]; do
    case $1 in
    *:*) # TYPE:RxC[:LDIN:LDOUT]
        IFS=: read -r t shape li lo <<EOF
$1
EOF
        r=${shape%x*} c=${shape#*x}
        shift ;;
    *)
        [ $# -ge 2 ] || { echo "crosscheck.sh: R without C" >&2; exit 2; }
        t=f32 r=$1 c=$2 li="" lo=""
        shift 2 ;;
    esac
    li=${li:-$c} lo=${lo:-$r}
    flags="--type $t --rows $r --cols $c --ld-in $li --ld-out $lo"
    # shellcheck disable=SC2086
    build/autotune transpose --arch auto $flags -o "$T/t.cu" --quiet \
        > "$T/tune.log" 2>&1 || { cat "$T/tune.log"; exit 1; }
    program "$T/t.cu" "$T/xc" || exit 1
    sed -n 's/^ \* point: *\([^ ]*\).*/emitted point: \1/p' "$T/t.cu"
    # XC_RUN: a prefix for the program (a profiler: XC_RUN="ncu -k
    # regex:_kernel\$ ..." profiles the emitted kernel alone).
    # shellcheck disable=SC2086
    ${XC_RUN:-} "$T/xc" "$r" "$c" "$li" "$lo" || rc=1
    # XC_SOURCE=1, XC_UNBOUND=1: other builds of the file (xc_builds.sh).
    xc_builds "$T/t.cu" program "$r" "$c" "$li" "$lo"
    case $? in 2) exit 1 ;; 1) rc=1 ;; esac
    # shellcheck disable=SC2086
    sh tests/gpu/bench_rows.sh transpose $flags || rc=1
done
rm -rf "$T"
exit $rc
