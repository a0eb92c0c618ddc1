#!/bin/bash
# The second reduce sweep of 100 (seed 2699674353): r51 ran 42 problems and r52 45 more
# before their calls ended; run the rest with --resume. Carry build/autotune
# and .cutensor/. Then item 2's records (below).
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r53; mkdir -p "$W/ct" && chmod 700 "$W"
O=${OUT:-$W}
python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" \
    .cutensor/libcutensor.so.2.sm90.xz "$W/ct/libcutensor.so.2" || exit 1
export AUTOTUNE_CUTENSOR=$W/ct/libcutensor.so.2 HOME=$W
export AUTOTUNE_WORKER=$PWD/build/autotune
S=2699674353
AUTOTUNE_CACHE=$W/c.db timeout 300 build/autotune bench reduce --sweep 100 \
    --seed $S --resume docs/perf/issue36-h200/r51/sweep-$S-first87.csv \
    --csv "$O/sweep-$S.csv" > "$O/sweep-$S.log" 2>&1
echo "== sweep rc=$? $SECONDS s"
grep -E '^CUB:|not timed|rows go to|problems from' "$O/sweep-$S.log" | cut -c1-250
tail -32 "$O/sweep-$S.log" | cut -c1-170
# Item 2: every point's time on the 2-byte down-column misses of the two
# sweeps (which strips, shifted or not, come near the copy).
for pr in "f16 max 8410 4251 4251" "f16 sumsq 13803 5047 5047" "bf16 max 21663 5288 5310"; do
    set -- $pr
    AUTOTUNE_CACHE=$W/r.db build/autotune reduce --type "$1" --op "$2" --axis rows \
        --rows "$3" --cols "$4" --ld "$5" --record "$O/rec-$1-$2-$3x$4.csv" \
        -o "$W/k.cu" > "$O/rec-$1-$2-$3x$4.log" 2>&1
    echo "== $pr rc=$? $SECONDS s"; tail -2 "$O/rec-$1-$2-$3x$4.log" | cut -c1-200
done
