#!/bin/bash
# A skewed tile's extra rows (at_put_extra) loaded all at once: r77's
# Nsight Compute samples put a fifth of f16 2777x107525's stalls on that
# loop's 2-byte loads, each turn waiting on its own. (1) gpu_variants on
# a sample of every 1- and 2-byte point with output rows off the
# sectors (skewed), and of every 4-byte point; (2) the build before
# (build/at-old, f5be202) and this one, each tuning cold, alternated, on
# r77's shapes and on r75's 2- to 16-byte skewed problems of 64 MiB or
# more. Carry build/autotune, build/at-old, build/tests/gpu_variants-rel
# and build/tests/lib; from the repository root.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r78; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune
AT_GPU_SAMPLE=7 AT_GPU_TESTS='every_point_*_rows_off_sectors' timeout 170 \
    build/tests/gpu_variants-rel > "$O/variants.txt" 2>&1
echo "== variants rc=$? $SECONDS s: $(grep -cE '^ok' "$O/variants.txt") ok, $(grep -cE '^not ok' "$O/variants.txt") not ok"
grep -E "^(not )?ok|failed|wrong" "$O/variants.txt" | head -8
while read -r t rows cols li lo; do
    for b in at-old autotune; do
        left=$((575 - SECONDS)); [ "$left" -gt 25 ] || break 2
        f=$W/b-$b-$t-${rows}x$cols
        AUTOTUNE_WORKER=$PWD/build/$b AUTOTUNE_CACHE=$W/c-$b.db timeout "$left" build/$b \
            bench transpose --type "$t" --rows "$rows" --cols "$cols" --ld-in "$li" \
            --ld-out "$lo" --quiet --csv "$f.csv" > "$f.log" 2>&1
        echo "== $b $t ${rows}x$cols ld $li $lo rc=$? $SECONDS s: $(grep '^\[1/1\]' "$f.log" | sed 's/^.*: //' | cut -c1-120)"
    done
done <<'LIST'
f16 2777 107525 107525 2777
f16 45598 7997 7997 45598
f16 2777 107528 107528 2777
bf16 276044 1319 1319 276044
u8 2341 52855 52885 2345
f32 263556 676 676 263556
f64 21842 4266 4266 21842
i8 6704 15777 15777 6704
c128 39359 1512 1549 39395
LIST
(cd "$W" && tar -cJf "$O/bench.tar.xz" b-*)
