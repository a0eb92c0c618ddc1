#!/bin/sh
# TAP: `autotune bench` end to end on small problems (a budgeted tune, so
# it takes seconds): the CSV has the issue's header and a row per kernel,
# cuBLAS where it has the type and not for a batch, cuTENSOR where it is
# found ($AUTOTUNE_CUTENSOR, or libcutensor.so.2) and has the type, the
# table names every kernel; for reductions CUB along rows and the whole
# array, cuTENSOR for the floating types and ops it has (16-bit maxima
# widened for the check). Run with and without cuTENSOR. Skips without
# a GPU.
cd "$(dirname "$0")/../.." || exit 1
. tests/gpu/tap.sh
T=${AT_GPU_TMP:-/tmp}/bench_smoke
mkdir -p "$T"
export AUTOTUNE_CACHE="$T/cache.db"
A="build/autotune bench transpose --strategy random --budget 40 --quiet"
out=$($A --type f64 --rows 1000 --cols 777 --csv "$T/f64.csv" 2>&1)
rc=$?
skip_without_gpu $rc "$out"
plan 7
# The problem's columns are the family's fields (its table's names): the
# kernel column found by its name.
kernels() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == "kernel") k = i }
             NR > 1 { printf "%s ", $k }' "$1"
}
ok=$rc
[ "$(head -1 "$T/f64.csv")" = "gpu,family,type,rows,cols,ld_in,ld_out,batch,stride_in,stride_out,kernel,ms,gbps,frac_copy" ] || ok=1
# Without cuTENSOR the header says why, and there is no row for it.
if printf '%s\n' "$out" | grep -q "no cuTENSOR"; then
    ct="" what="five kernels (no cuTENSOR)"
else
    ct="cutensor " what="six kernels (cuTENSOR too)"
fi
[ "$(kernels "$T/f64.csv")" = "memcpy tuned cublas ${ct}naive classic " ] ||
    ok=1
grep -q ",f64,1000,777,777,1000,1,777000,777000,memcpy,[0-9.e+-]*,[0-9.e+-]*,1$" "$T/f64.csv" || ok=1
report $ok "bench f64 1000x777: CSV header, $what, copy at 1.0" \
    "$out
$(cat "$T/f64.csv")"
out=$($A --type i8 --rows 100 --cols 60 --batch 50 --csv "$T/i8.csv" 2>&1)
ok=$?
[ "$(kernels "$T/i8.csv")" = "memcpy tuned naive classic " ] || ok=1
printf '%s\n' "$out" | grep -q "^50x100x60 *i8 " || ok=1
report $ok "bench batched i8: no cuBLAS row (no batched geam), no cuTENSOR row (no 1-byte permute), table row" \
    "$out
$(cat "$T/i8.csv")"
out=$($A --type c128 --rows 0 --csv "$T/bad.csv" 2>&1)
rc=$?
ok=0
[ $rc -eq 2 ] || ok=1
[ -e "$T/bad.csv" ] && ok=1
report $ok "bench of a bad problem: usage error, no CSV" "$out"

# Reductions: which contenders run where, each checked against the CPU
# before its time counts (a wrong result fails the command).
R="build/autotune bench reduce --strategy random --budget 30 --quiet"
reduce_case() { # name, the kernels expected without cuTENSOR, with it, flags
    name=$1 plain=$2 with=$3
    shift 3
    out=$($R "$@" --csv "$T/$name.csv" 2>&1)
    ok=$?
    if [ -n "$ct" ]; then want=$with; else want=$plain; fi
    [ "$(kernels "$T/$name.csv")" = "$want" ] || ok=1
    report $ok "bench reduce $*: kernels $want" "$out
$(cat "$T/$name.csv" 2>/dev/null)"
}
reduce_case bf16max "memcpy tuned naive " "memcpy tuned cutensor naive " \
    --type bf16 --op max --axis rows --rows 3001 --cols 517 --ld 520
reduce_case f32sum "memcpy tuned cub naive " "memcpy tuned cub cutensor naive " \
    --type f32 --op sum --axis cols --rows 1000 --cols 777
reduce_case f16amax "memcpy tuned cub naive " "memcpy tuned cub cutensor naive " \
    --type f16 --op amax --axis cols --rows 2999 --cols 333
reduce_case i32amax "memcpy tuned cub naive " "memcpy tuned cub naive " \
    --type i32 --op amax --axis all --n 1000003
