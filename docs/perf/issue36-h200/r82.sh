#!/bin/bash
# Skewed stores within a tile's own rows (AT_SKEW_OWN): no extra rows
# read (r81, at the GPU's own clocks: L2 the busiest unit, ~91%, for
# f16 2777x107525 and its control alike, and the odd one reads 12.5%
# more through it for the extra rows), each output row's elements before
# its first 16-byte boundary and after its last whole vector written
# element by element by every tile. (1) gpu_variants, every 7th skewed
# 1- and 2-byte point; (2) the committed build (build/at-base, 54490d9)
# against it (build/at-own: 54490d9 with r82/skew_own.patch, not
# committed), each tuning cold, alternated. Carry
# build/at-base, build/at-own, build/tests/gpu_variants-rel and
# build/tests/lib; from the repository root.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r82; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/at-own
AT_GPU_SAMPLE=7 AT_GPU_TESTS='every_point_*_rows_off_sectors' timeout 60 \
    build/tests/gpu_variants-rel > "$O/variants.txt" 2>&1
echo "== variants rc=$? $SECONDS s: $(grep -cE '^ok' "$O/variants.txt") ok, $(grep -cE '^not ok' "$O/variants.txt") not ok"
while read -r t rows cols li lo; do
    for b in at-base at-own; do
        left=$((270 - SECONDS)); [ "$left" -gt 20 ] || break 2
        f=$W/b-$b-$t-${rows}x$cols
        AUTOTUNE_WORKER=$PWD/build/$b AUTOTUNE_CACHE=$W/c-$b.db timeout "$left" build/$b \
            bench transpose --type "$t" --rows "$rows" --cols "$cols" --ld-in "$li" \
            --ld-out "$lo" --quiet --csv "$f.csv" > "$f.log" 2>&1
        echo "== $b $t ${rows}x$cols ld $li $lo rc=$? $SECONDS s: $(grep '^\[1/1\]' "$f.log" | sed 's/^.*: //' | cut -c1-120)"
    done
done <<'LIST'
f16 2777 107525 107525 2777
bf16 276044 1319 1319 276044
u8 2341 52855 52885 2345
f16 2777 107528 107528 2777
f64 21842 4266 4266 21842
f32 263556 676 676 263556
LIST
(cd "$W" && tar -cJf "$O/bench.tar.xz" b-*)
