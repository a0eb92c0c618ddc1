#!/bin/bash
# The tree as committed (gathered strips: batches whose output is off 16
# bytes at speed, runs apart correct, one buffer less). (1) gpu_variants'
# gathered points on every strip shape and its check shapes. (2) autotune
# bench, cold, on gathered problems, and the build before this session
# (build/at-old, 436e9ea) on two of them as the lease's control. (3) As a
# user would: the emitted .cu in the nvcc crosscheck program from its
# cubin and from its source, then memcheck on a gathered winner. Carry
# build/autotune, build/at-old, build/tests/gpu_variants-rel and
# build/tests/lib; from the repository root.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r73; mkdir -p "$W/g" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W
AUTOTUNE_WORKER=$PWD/build/autotune AT_GPU_GATHERED=1 AT_GPU_TESTS='strip_points_*' \
    AT_GPU_TMP=$W/g timeout 170 build/tests/gpu_variants-rel > "$O/gathered.tap" 2>&1
echo "== gpu_variants gathered rc=$? $SECONDS s"
grep -E "^(ok|not ok)|FAILED" "$O/gathered.tap" | cut -c1-160 | head -14
grep -c "verified" "$O/gathered.tap"
# build, type, rows, cols, batch, stride_out (0: dense)
while read -r b t rows cols n so; do
    left=$((440 - SECONDS)); [ "$left" -gt 20 ] || break
    f=$W/b-$b-$t-${rows}x$cols-$n-$so
    extra=""; [ "$so" = 0 ] || extra="--stride-out $so"
    # shellcheck disable=SC2086
    AUTOTUNE_WORKER=$PWD/build/$b AUTOTUNE_CACHE=$W/c-$b.db timeout "$left" build/$b \
        bench transpose --type "$t" --rows "$rows" --cols "$cols" --batch "$n" $extra \
        --quiet --csv "$f.csv" > "$f.log" 2>&1
    echo "== $b $t ${rows}x$cols batch $n so $so rc=$? $SECONDS s: $(grep '^\[1/1\]' "$f.log" | sed 's/^.*: //' | cut -c1-110)"
done <<'LIST'
autotune u8 31 3552786 1 0
at-old u8 31 3552786 1 0
autotune u8 62 2000003 1 0
at-old u8 62 2000003 1 0
autotune f16 31 1776393 1 0
autotune i8 16 8000001 1 0
autotune u8 13 19022487 1 0
autotune u8 31 200003 16 6200093
LIST
export AUTOTUNE_WORKER=$PWD/build/autotune
left=$((540 - SECONDS))
[ "$left" -gt 30 ] && XC_SOURCE=1 timeout "$left" sh tests/gpu/crosscheck.sh u8:31x3552786 > "$O/xc.txt" 2>&1
echo "== crosscheck rc=$? $SECONDS s"; grep -E "emitted point|crosscheck|autotune bench" "$O/xc.txt" | cut -c1-200 | head -8
left=$((590 - SECONDS))
[ "$left" -gt 15 ] && XC_RUN="compute-sanitizer --tool memcheck" timeout "$left" \
    sh tests/gpu/crosscheck.sh u8:31x200003 > "$O/memcheck.txt" 2>&1
echo "== memcheck rc=$? $SECONDS s"; grep -E "ERROR SUMMARY|emitted point|wrong" "$O/memcheck.txt" | head -4
(cd "$W" && tar -cJf "$O/bench.tar.xz" b-*)
