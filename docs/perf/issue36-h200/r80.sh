#!/bin/bash
# Two questions for the odd 2-byte tiles. (1) r77 counted a fifth of
# f16 2777x107525's warp instructions in the per-block setup (tile
# index, flags: 181 a warp), and its grid has a block a tile: a build
# whose tile grids stop at 16 blocks an SM, the blocks looping over the
# rest (build/at-cap: 54490d9 with r80/grid_cap.patch, an experiment,
# not committed), against the committed one, each tuning
# cold, alternated. (2) Nsight Compute per SASS instruction on the
# winners of the two one-sided shapes of r77 (output rows odd alone,
# input rows odd alone), for where their time goes. Carry
# build/autotune and build/at-cap; from the repository root.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r80; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune
while read -r t rows cols li lo; do
    for b in autotune at-cap; do
        left=$((400 - SECONDS)); [ "$left" -gt 25 ] || break 2
        f=$W/b-$b-$t-${rows}x$cols
        AUTOTUNE_WORKER=$PWD/build/$b AUTOTUNE_CACHE=$W/c-$b.db timeout "$left" build/$b \
            bench transpose --type "$t" --rows "$rows" --cols "$cols" --ld-in "$li" \
            --ld-out "$lo" --quiet --csv "$f.csv" > "$f.log" 2>&1
        echo "== $b $t ${rows}x$cols ld $li $lo rc=$? $SECONDS s: $(grep '^\[1/1\]' "$f.log" | sed 's/^.*: //' | cut -c1-120)"
    done
done <<'LIST'
f16 2777 107525 107525 2777
f16 2784 107528 107528 2784
f16 2777 107528 107528 2777
bf16 276044 1319 1319 276044
f32 8192 8192 8192 8192
u8 2341 52855 52885 2345
f16 2784 107525 107525 2784
f64 21842 4266 4266 21842
LIST
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
for p in f16:2777x107528 f16:2784x107525; do
    left=$((560 - SECONDS)); [ "$left" -gt 40 ] || break
    XC_RUN="$NCU -k regex:_kernel\$ -s 3 -c 1 --section SourceCounters --section WarpStateStats --section SpeedOfLight --section Occupancy --import-source no -f -o $W/${p#*:}" \
        timeout "$left" sh tests/gpu/crosscheck.sh "$p" > "$W/ncu-${p#*:}.log" 2>&1
    echo "== ncu $p rc=$? $SECONDS s: $(grep 'emitted point' "$W/ncu-${p#*:}.log")"
    "$NCU" -i "$W/${p#*:}.ncu-rep" --page source --csv --print-source sass > "$W/sass-${p#*:}.csv" 2>/dev/null
    "$NCU" -i "$W/${p#*:}.ncu-rep" --page details > "$W/details-${p#*:}.txt" 2>&1
    grep -E "Duration|DRAM Throughput|Registers Per|Achieved Occupancy|Issue Slots Busy|No Eligible" "$W/details-${p#*:}.txt" | head -8
done
(cd "$W" && tar -cJf "$O/r80.tar.xz" b-* ncu-*.log sass-*.csv details-*.txt 2>/dev/null)
