#!/bin/bash
# r78 again, the change as committed: at_put_extra's addresses kept in
# the tile loop (at_opaque; r78's build hoisted them, u8 128x256 tiles of
# 512 threads 32 registers to 40), and more problems: r75's 1-byte
# skewed ones. (1) gpu_variants on a sample of every point of every
# size (the unpacked extra rows are 4- to 16-byte points'); (2) the build
# before (build/at-old, f5be202) and this one, each tuning cold,
# alternated; (3) the first problem as a user builds it
# (tests/gpu/crosscheck.sh: its emitted .cu in an nvcc program). Carry
# build/autotune, build/at-old, build/tests/gpu_variants-rel and
# build/tests/lib; from the repository root.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r79; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune
AT_GPU_SAMPLE=7 AT_GPU_TESTS='every_point_*' timeout 150 \
    build/tests/gpu_variants-rel > "$O/variants.txt" 2>&1
echo "== variants rc=$? $SECONDS s: $(grep -cE '^ok' "$O/variants.txt") ok, $(grep -cE '^not ok' "$O/variants.txt") not ok"
grep -E "^(not )?ok|failed|wrong" "$O/variants.txt" | head -10
timeout 60 sh tests/gpu/crosscheck.sh f16:2777x107525 > "$O/crosscheck.txt" 2>&1
echo "== crosscheck rc=$? $SECONDS s"; tail -6 "$O/crosscheck.txt" | cut -c1-160
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
u8 2341 52855 52885 2345
bf16 276044 1319 1319 276044
f16 2777 107528 107528 2777
u8 3475 37006 37035 3496
i8 5377 54858 54919 5401
f16 45598 7997 7997 45598
f32 263556 676 676 263556
i8 6704 15777 15777 6704
f64 21842 4266 4266 21842
bf16 14165 9916 9916 14165
c128 39359 1512 1549 39395
LIST
(cd "$W" && tar -cJf "$O/bench.tar.xz" b-*)
