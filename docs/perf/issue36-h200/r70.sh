#!/bin/bash
# (1) Runs apart, the layout's cost (r70/runs_apart_probe.cu): the output
# side of r69's runs-apart problems as plain copies, a kernel writing only
# the runs' bytes and one rewriting whole 16-byte chunks (gap bytes read
# back), beside memcpy. (2) The tree after r69: the end-to-end stretch
# without a division and odd short sides' stream by 16-byte loads;
# gpu_variants' gathered points again, then the batches off 16 bytes and
# the flat control, cold; every point's time on u8 62x4105151 ld_out 71
# (--record). Carry build/autotune, build/tests/gpu_variants-rel and
# build/tests/lib; from the repository root.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r70; mkdir -p "$W/g" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune
nvcc -O2 -arch=native docs/perf/issue36-h200/r70/runs_apart_probe.cu -o "$W/probe" &&
    "$W/probe" > "$O/probe.txt" 2>&1
echo "== probe rc=$? $SECONDS s"; cat "$O/probe.txt"
AT_GPU_GATHERED=1 AT_GPU_TESTS='strip_points_*' AT_GPU_TMP=$W/g timeout 170 \
    build/tests/gpu_variants-rel > "$O/gathered.tap" 2>&1
echo "== gpu_variants gathered rc=$? $SECONDS s"
grep -E "^(ok|not ok)|FAILED" "$O/gathered.tap" | cut -c1-160 | head -14
grep -c "verified" "$O/gathered.tap"
while read -r t rows cols lo n so; do
    left=$((500 - SECONDS)); [ "$left" -gt 20 ] || break
    f=$W/b-$t-${rows}x$cols-$lo-$n-$so
    extra=""; [ "$so" = 0 ] || extra="--stride-out $so"
    # shellcheck disable=SC2086
    AUTOTUNE_CACHE=$W/c.db timeout "$left" build/autotune bench transpose --type "$t" \
        --rows "$rows" --cols "$cols" --ld-out "$lo" --batch "$n" $extra --quiet \
        --csv "$f.csv" > "$f.log" 2>&1
    echo "== $t ${rows}x$cols ld_out $lo batch $n so $so rc=$? $SECONDS s: $(grep '^\[1/1\]' "$f.log" | sed 's/^.*: //' | cut -c1-110)"
done <<'LIST'
u8 31 200003 31 16 6200093
f16 26 250007 26 12 6500183
u8 31 3552786 31 1 0
LIST
left=$((580 - SECONDS))
[ "$left" -gt 20 ] && AUTOTUNE_CACHE=$W/c2.db timeout "$left" build/autotune transpose \
    --type u8 --rows 62 --cols 4105151 --ld-out 71 --record "$O/rec-u8-62-71.csv" \
    -o "$W/k.cu" > "$W/rec.log" 2>&1
echo "== record rc=$? $SECONDS s"; grep -A1 "^  best:" "$W/rec.log" | cut -c1-160
(cd "$W" && tar -cJf "$O/bench.tar.xz" b-*)
