#!/bin/bash
# Two things in one call. (1) The skewed strips of skew/skew-strips.patch
# (skew/README.md): verified, then the 2-byte odd-ld column reductions
# tuned with every point recorded (skew/run.sh, its records under
# $OUT/skew). (2) Item 1: the worst 1-byte transposes of r56, each at its
# own pitches and at pitches on 32 bytes, one side at a time, to split the
# pitch's cost from the short side's. Build with the patch applied; carry
# build/autotune, build/tests/gpu_reduce-rel and build/tests/lib.
set -u
W=/tmp/r61; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
mkdir -p "$O/skew"
OUT=$O/skew timeout 400 bash docs/perf/issue36-h200/skew/run.sh
echo "== skew done $SECONDS s"
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune
for pr in "u8 164 786547 786547 164" "u8 164 786547 786560 164" \
          "u8 164 786547 786547 192" "u8 164 786547 786560 192" \
          "u8 1134006 70 70 1134006" "u8 1134006 70 96 1134006" \
          "u8 1134006 70 70 1134016" "u8 1134006 70 96 1134016"; do
    set -- $pr
    left=$((585 - SECONDS)); [ "$left" -gt 20 ] || break
    f=$W/b-$2x$3-$4-$5
    AUTOTUNE_CACHE=$W/c.db timeout "$left" build/autotune bench transpose --type "$1" \
        --rows "$2" --cols "$3" --ld-in "$4" --ld-out "$5" --quiet --csv "$f.csv" > "$f.log" 2>&1
    echo "== $pr rc=$? $SECONDS s: $(awk -F, '$11=="tuned" {printf "tuned %.4f", $14}' "$f.csv")"
done
(cd "$W" && tar -cJf "$O/bench.tar.xz" b-*)
