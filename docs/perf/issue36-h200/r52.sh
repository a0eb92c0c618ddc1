#!/bin/bash
# The second reduce sweep of 100 (seed 2699674353): r51 ran 42 problems
# before its call ended; run the rest with --resume. Carry build/autotune
# and .cutensor/.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r52; mkdir -p "$W/ct" && chmod 700 "$W"
O=${OUT:-$W}
python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" \
    .cutensor/libcutensor.so.2.sm90.xz "$W/ct/libcutensor.so.2" || exit 1
export AUTOTUNE_CUTENSOR=$W/ct/libcutensor.so.2 HOME=$W
export AUTOTUNE_WORKER=$PWD/build/autotune
S=2699674353
AUTOTUNE_CACHE=$W/c.db timeout 570 build/autotune bench reduce --sweep 100 \
    --seed $S --resume docs/perf/issue36-h200/r51/sweep-$S-first42.csv \
    --csv "$O/sweep-$S.csv" > "$O/sweep-$S.log" 2>&1
echo "== sweep rc=$? $SECONDS s"
grep -E '^CUB:|not timed|rows go to|problems from' "$O/sweep-$S.log" | cut -c1-250
tail -32 "$O/sweep-$S.log" | cut -c1-170
