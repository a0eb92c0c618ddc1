#!/bin/bash
# Item 1: gathered strips for 2-byte elements too (the template's
# AT_GATHER takes a word of positions a thread). (1) gpu_variants' 1- and
# 2-byte strip tests, the gathered shapes first. (2) autotune bench on
# 2-byte short-input-row shapes by the build before gathered strips
# (build/at-old, 166d4a0) and by this one, and two 1-byte ones by this
# one. (3) The emitted .cu in the nvcc crosscheck program, and under
# compute-sanitizer memcheck. Carry build/autotune, build/at-old,
# build/tests/gpu_variants-rel and build/tests/lib; from the repository
# root.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r66; mkdir -p "$W/g" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W
export AUTOTUNE_WORKER=$PWD/build/autotune
for t in 2 1; do
    AT_GPU_TESTS="strip_points_${t}_bytes" AT_GPU_TMP=$W/g timeout 200 \
        build/tests/gpu_variants-rel > "$O/strip$t.tap" 2>&1
    echo "== gpu_variants strip_points_${t}_bytes rc=$? $SECONDS s"
    grep -E "^(ok|not ok)|FAILED" "$O/strip$t.tap" | cut -c1-160 | head -5
    grep -c "points verified" "$O/strip$t.tap"
done
for pr in "f16 31 1776393" "bf16 13 9511243" "bf16 29 9096582" "f16 16 4000001" \
          "f16 64 1000003" "bf16 8 10000001"; do
    set -- $pr
    for b in at-old autotune; do
        left=$((500 - SECONDS)); [ "$left" -gt 20 ] || break
        f=$W/b-$b-$1-$2x$3
        AUTOTUNE_WORKER=$PWD/build/$b AUTOTUNE_CACHE=$W/c-$b.db timeout "$left" build/$b \
            bench transpose --type "$1" --rows "$2" --cols "$3" --quiet --csv "$f.csv" > "$f.log" 2>&1
        echo "== $b $pr rc=$? $SECONDS s: $(grep '^\[1/1\]' "$f.log" | cut -c1-150)"
    done
done
for pr in "u8 31 3552786" "i8 8 20000003"; do
    set -- $pr
    left=$((520 - SECONDS)); [ "$left" -gt 20 ] || break
    f=$W/b-autotune-$1-$2x$3
    AUTOTUNE_CACHE=$W/c-autotune.db timeout "$left" build/autotune bench transpose --type "$1" \
        --rows "$2" --cols "$3" --quiet --csv "$f.csv" > "$f.log" 2>&1
    echo "== autotune $pr rc=$? $SECONDS s: $(grep '^\[1/1\]' "$f.log" | cut -c1-150)"
done
left=$((570 - SECONDS))
[ "$left" -gt 30 ] && timeout "$left" sh tests/gpu/crosscheck.sh f16:31x1776393 > "$O/xc.txt" 2>&1
echo "== crosscheck rc=$? $SECONDS s"; grep -E "emitted|crosscheck|bench:" "$O/xc.txt" | cut -c1-170
left=$((592 - SECONDS))
[ "$left" -gt 15 ] && XC_RUN="compute-sanitizer --tool memcheck" timeout "$left" \
    sh tests/gpu/crosscheck.sh bf16:29x100003 > "$O/memcheck.txt" 2>&1
echo "== memcheck rc=$? $SECONDS s"; grep -E "ERROR SUMMARY|emitted point|wrong" "$O/memcheck.txt" | head -4
(cd "$W" && tar -cJf "$O/bench.tar.xz" b-*)
