#!/bin/sh
# TAP: --json on a GPU loses nothing (issue 18's command): a tune of f32
# 4 x 4194304 prints "cols": 4194304 and "stride_in": 16777216 as integers,
# from the tune and from the cache; `autotune bench --json` prints one
# object. The outputs are kept in $JSON_OUT (if set): tests/data/json/
# holds them from a run, and `make check` validates them against
# docs/schema/. Skips without a GPU.
cd "$(dirname "$0")/../.." || exit 1
. tests/gpu/tap.sh
T=${AT_GPU_TMP:-/tmp}/json
mkdir -p "$T"
export AUTOTUNE_CACHE="$T/cache.db"
O=${JSON_OUT:-$T}
A=build/autotune
out=$($A transpose --arch auto --rows 4 --cols 4194304 -o "$T/t.cu" --json \
        --quiet 2>&1 > "$O/tune-h100-4x4194304.json")
rc=$?
skip_without_gpu $rc "$out"
plan 3
exact() { # file: the issue's sizes as JSON integers
    grep -q '"cols": 4194304,' "$1" && grep -q '"stride_in": 16777216,' "$1" &&
        grep -q '"ld_in": 4194304,' "$1"
}
ok=$rc
exact "$O/tune-h100-4x4194304.json" || ok=1
grep -q '"how": "tuned"' "$O/tune-h100-4x4194304.json" || ok=1
report $ok "tune --json: sizes exact" "$out
$(cat "$O/tune-h100-4x4194304.json" | head -30)"
out=$($A transpose --arch auto --rows 4 --cols 4194304 -o "$T/t.cu" --json \
        --quiet 2>&1 > "$T/hit.json")
ok=$?
exact "$T/hit.json" || ok=1
grep -q '"how": "cached"' "$T/hit.json" || ok=1
report $ok "tune --json from the cache: sizes exact" "$out"
out=$($A bench transpose --type f64 --rows 1000 --cols 777 --strategy random \
        --budget 40 --quiet --csv "$T/b.csv" --json 2> "$T/bench.err" \
        > "$O/bench-h100.json")
ok=$?
grep -q '"schema": "autotune.bench/1"' "$O/bench-h100.json" || ok=1
grep -q '"kernel": "cublas"' "$O/bench-h100.json" || ok=1
grep -q '^shape ' "$T/bench.err" || ok=1 # the table, on stderr
report $ok "bench --json: one object on stdout, the table on stderr" \
    "$(head -40 "$O/bench-h100.json")"
