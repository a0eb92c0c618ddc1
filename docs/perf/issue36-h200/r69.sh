#!/bin/bash
# Item 1: gathered strips where the output runs are apart (ld_out past
# the rows) or the output is off 16 bytes (at_gather_store_runs). (1)
# gpu_variants, gathered points alone (AT_GPU_GATHERED=1), every strip
# shape and its check shapes, 1 and 2 bytes. (2) autotune bench, cold:
# r67's three runs-apart draws, runs more than 16 bytes apart, a batch end
# to end off 16 bytes, and the flat control (u8 31x3552786); the build
# before (build/at-old, 436e9ea) on the three r67 has not measured.
# (3) compute-sanitizer memcheck on a runs-apart winner in the nvcc
# crosscheck program. Carry build/autotune, build/at-old,
# build/tests/gpu_variants-rel and build/tests/lib; from the repository
# root.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r69; mkdir -p "$W/g" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W
AUTOTUNE_WORKER=$PWD/build/autotune AT_GPU_GATHERED=1 AT_GPU_TESTS='strip_points_*' \
    AT_GPU_TMP=$W/g timeout 170 build/tests/gpu_variants-rel > "$O/gathered.tap" 2>&1
echo "== gpu_variants gathered rc=$? $SECONDS s"
grep -E "^(ok|not ok)|FAILED" "$O/gathered.tap" | cut -c1-160 | head -14
grep -c "verified" "$O/gathered.tap"
# build, type, rows, cols, ld_in, ld_out, batch, stride_out (0: dense)
while read -r b t rows cols li lo n so; do
    left=$((530 - SECONDS)); [ "$left" -gt 20 ] || break
    f=$W/b-$b-$t-${rows}x$cols-$li-$lo-$n-$so
    extra=""; [ "$so" = 0 ] || extra="--stride-out $so"
    # shellcheck disable=SC2086
    AUTOTUNE_WORKER=$PWD/build/$b AUTOTUNE_CACHE=$W/c-$b.db timeout "$left" build/$b \
        bench transpose --type "$t" --rows "$rows" --cols "$cols" --ld-in "$li" \
        --ld-out "$lo" --batch "$n" $extra --quiet --csv "$f.csv" > "$f.log" 2>&1
    echo "== $b $t ${rows}x$cols ld $li/$lo batch $n so $so rc=$? $SECONDS s: $(grep '^\[1/1\]' "$f.log" | sed 's/^.*: //' | cut -c1-110)"
done <<'LIST'
autotune u8 62 4105151 4105151 71 1 0
autotune i8 60 2504609 2504609 67 1 0
autotune f16 50 1129887 1129887 51 1 0
autotune u8 31 3552786 3552786 71 1 0
at-old u8 31 3552786 3552786 71 1 0
autotune bf16 24 2796203 2796203 40 1 0
at-old bf16 24 2796203 2796203 40 1 0
autotune u8 31 200003 200003 31 16 6200093
at-old u8 31 200003 200003 31 16 6200093
autotune u8 31 3552786 3552786 31 1 0
LIST
export AUTOTUNE_WORKER=$PWD/build/autotune
left=$((590 - SECONDS))
[ "$left" -gt 15 ] && XC_RUN="compute-sanitizer --tool memcheck" timeout "$left" \
    sh tests/gpu/crosscheck.sh u8:62x200003:200003:71 > "$O/memcheck.txt" 2>&1
echo "== memcheck rc=$? $SECONDS s"; grep -E "ERROR SUMMARY|emitted point|wrong" "$O/memcheck.txt" | head -4
(cd "$W" && tar -cJf "$O/bench.tar.xz" b-*)
