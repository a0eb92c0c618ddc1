#!/bin/bash
# Item 1: gathered strips (smem 3, AT_GATHER in templates/transpose.cu),
# the tree with them. (1) gpu_variants' 1-byte strip test, the gathered
# shapes first (31 x 100003; a batch of 3 of 16 x 65521, input rows and
# matrices off 16 bytes), every strip point on each shape and its check
# shapes. (2) autotune bench on the short-input-row shapes of r63/r64.
# (3) As a user would: the emitted .cu in the nvcc crosscheck program
# against the bench, and under compute-sanitizer memcheck. Carry
# build/autotune, build/tests/gpu_variants-rel and build/tests/lib; from
# the repository root.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r65; mkdir -p "$W/g" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune
AT_GPU_TESTS='strip_points_1_bytes' AT_GPU_TMP=$W/g timeout 260 build/tests/gpu_variants-rel \
    > "$O/strip1.tap" 2>&1
echo "== gpu_variants strip_points_1_bytes rc=$? $SECONDS s"
grep -E "^(ok|not ok)|FAILED|verified" "$O/strip1.tap" | cut -c1-160 | head -14
for pr in "u8 31 3552786" "i8 29 18193165" "u8 13 19022487" "i8 26 7639115" \
          "i8 24 4000037" "i8 16 8000001" "u8 64 2000003" "i8 8 20000003"; do
    set -- $pr
    left=$((520 - SECONDS)); [ "$left" -gt 20 ] || break
    f=$W/b-$1-$2x$3
    AUTOTUNE_CACHE=$W/c.db timeout "$left" build/autotune bench transpose --type "$1" \
        --rows "$2" --cols "$3" --quiet --csv "$f.csv" > "$f.log" 2>&1
    echo "== $pr rc=$? $SECONDS s: $(grep '^\[1/1\]' "$f.log" | cut -c1-170)"
done
left=$((585 - SECONDS))
[ "$left" -gt 30 ] && timeout "$left" sh tests/gpu/crosscheck.sh u8:31x3552786 > "$O/xc.txt" 2>&1
echo "== crosscheck rc=$? $SECONDS s"; tail -12 "$O/xc.txt" | cut -c1-160
left=$((590 - SECONDS))
[ "$left" -gt 20 ] && XC_RUN="compute-sanitizer --tool memcheck" timeout "$left" \
    sh tests/gpu/crosscheck.sh u8:31x200003 > "$O/memcheck.txt" 2>&1
echo "== memcheck rc=$? $SECONDS s"; grep -E "ERROR SUMMARY|emitted point|wrong" "$O/memcheck.txt" | head
(cd "$W" && tar -cJf "$O/bench.tar.xz" b-*)
