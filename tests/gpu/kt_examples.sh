#!/bin/bash
# GPU: Kernel Tuner's own examples (examples/kernels/kt, their .cu files
# unchanged) tuned to the end, as a user would (issue 34): each over its
# whole space, cold (empty caches, CUDA_CACHE_DISABLE=1), every point
# verified on the problem (--verify-all) against the example's reference;
# then its emitted .cu built with nvcc into a harness (kt_harness.cu) that
# calls the launcher on the tuner's own data (--data) and gets the same
# answers, timing it back to back. TAP, then a table:
#   example points evaluated failed wall_s configs_per_s best tuner_ms harness_ms
#   KT_ONLY="pnpoly matmul" runs some; KT_OUT=dir keeps the JSON, records,
#   .cu and logs (for docs/perf); KT_FLAGS adds tuning flags (a smoke run:
#   KT_FLAGS="--budget 40 --strategy random").
cd "$(dirname "$0")/../.." || exit 1
. tests/gpu/tap.sh
BIN=$PWD/build/autotune
T=${AT_GPU_TMP:-$(mktemp -d)}/kt-work
rm -rf "$T" && mkdir -p -m 700 "$T"
OUT=${KT_OUT:-$T}
mkdir -p "$OUT"
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null || NVCC=/usr/local/cuda/bin/nvcc
ALL="convolution/convolution pnpoly/pnpoly expdist/expdist reduction/reduction
spmv/spmv stencil/stencil zeromeanfilter/vertical zeromeanfilter/horizontal
matmul/matmul"
list=""
for e in $ALL; do
    name=$(basename "$e")
    if [ -z "$KT_ONLY" ] || printf ' %s ' "$KT_ONLY" | grep -q " $name "; then
        list="$list $e"
    fi
done

probe=$(AUTOTUNE_CACHE=$T/probe.db $BIN kernel examples/kernels/kt/stencil/stencil.yaml \
        --arch auto --budget 1 -o /dev/null 2>&1)
skip_without_gpu $? "$probe"
plan $((2 * $(echo $list | wc -w)))
table=""
for e in $list; do
    name=$(basename "$e")
    spec=examples/kernels/kt/$e.yaml
    rm -rf "$T/c" && mkdir -p "$T/c"
    t0=$(date +%s.%N)
    AUTOTUNE_CACHE=$T/c/cache.db CUDA_CACHE_DISABLE=1 $BIN kernel "$spec" \
        --arch auto --verify-all --json --record "$OUT/$name.csv" $KT_FLAGS \
        -o "$OUT/$name.cu" >"$OUT/$name.json" 2>"$OUT/$name.log"
    rc=$?
    t1=$(date +%s.%N)
    # The harness's data, apart from the timed tune: the tuned problem's
    # from the cache, or for reduction (3.2 GB of input) 16M floats, the
    # same kernel at a smaller n (the launcher takes n).
    # (A budgeted smoke run stores nothing: its data come by estimate.)
    case $name in
    reduction) data="--size 16777216 --effort estimate" ;;
    *) data="--effort wisdom-only" ;;
    esac
    [ -n "$KT_FLAGS" ] && [ "$name" != reduction ] && data="--effort estimate"
    AUTOTUNE_CACHE=$T/c/cache.db $BIN kernel "$spec" --arch auto $data \
        --data "$T/data-$name" -o /dev/null >>"$OUT/$name.log" 2>&1
    fig=$(python3 - "$OUT/$name.json" "$t0" "$t1" <<'EOF' 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
wall = float(sys.argv[3]) - float(sys.argv[2])
failed = d["compile_failed"] + d["wrong"] + d["launch_failed"] + d["faulted"]
# Every point verified on the problem: checked there, or the same code as
# one that was, or failed before it could be, or taken from a worker
# before a restart.
unchecked = d["evaluated"] - d["verified"] - d["same_code"] - failed - d["resumed"]
print(d["space_size"], d["evaluated"], failed, f"{wall:.1f}",
      f"{d['evaluated'] / wall:.2f}", d["point"], f"{d['median_ms']:.4f}",
      d["verified"], max(unchecked, 0))
EOF
)
    set -- $fig
    whole=$( [ -n "$KT_FLAGS" ] || [ "$1" = "$2" ]; echo $?)
    report $(test $rc = 0 -a "$whole" = 0 -a "${9:-1}" = 0; echo $?) \
        "$name: $2 of $1 points evaluated, every one verified ($8 on the problem, $9 not; $3 failed) in $4 s, $5 configs/s" \
        "$(grep -E "tuned in|also:|failed|checked:|best:|restart" "$OUT/$name.log" | head -12)"
    launcher=$(grep -o 'autotune_[A-Za-z0-9_]*_argv' "$OUT/$name.cu" | head -1)
    hout=$( "$NVCC" -O2 -arch=native -DXC_LAUNCHER="$launcher" \
              tests/gpu/kt_harness.cu "$OUT/$name.cu" -o "$T/h-$name" 2>&1 &&
            "$T/h-$name" "$T/data-$name" 20 2>&1)
    hrc=$?
    hms=$(printf '%s\n' "$hout" | sed -n 's/.*median \([0-9.]*\) ms.*/\1/p')
    # Whether the file carries the tuned cubin its launches run on this
    # GPU (gen/emit_tuned.c), or nvcc's build alone.
    runs="nvcc's build"
    grep -q '^ \* runs: ' "$OUT/$name.cu" && runs="its tuned cubin"
    report $hrc "$name: the emitted .cu ($runs) in a plain nvcc program gets the same answers" "$hout"
    table="$table
$name $1 $2 $3 $4 $5 $6 $7 ${hms:--}"
done
echo "# example points evaluated failed wall_s configs_per_s best tuner_ms harness_ms"
printf '%s\n' "$table" | sed '/^$/d; s/^/# /'
