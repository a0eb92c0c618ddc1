#!/bin/bash
# (1) r49's reduce sweep of 100 (seed 527326684) stopped at problem 70; run
# the other 31 with --resume (its first run on a GPU). (2) A second reduce
# sweep of 100 at a seed drawn here, for as long as the call lasts; the
# partial CSV it leaves is resumed in the next call. Carry build/autotune
# and .cutensor/.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r51; mkdir -p "$W/ct" && chmod 700 "$W"
O=${OUT:-$W}
python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" \
    .cutensor/libcutensor.so.2.sm90.xz "$W/ct/libcutensor.so.2" || exit 1
export AUTOTUNE_CUTENSOR=$W/ct/libcutensor.so.2 HOME=$W
export AUTOTUNE_WORKER=$PWD/build/autotune
R=docs/perf/issue36-h200/r49/sweep-527326684-first69.csv
AUTOTUNE_CACHE=$W/c.db timeout 300 build/autotune bench reduce --sweep 100 \
    --seed 527326684 --resume "$R" --csv "$O/sweep-527326684.csv" \
    > "$O/sweep-527326684.log" 2>&1
echo "== resumed sweep rc=$? $SECONDS s"
grep -E '^CUB:|not timed|rows go to|problems from' "$O/sweep-527326684.log" | cut -c1-250
echo "CUB folders left in /tmp:" /tmp/autotune-cub-*
tail -30 "$O/sweep-527326684.log" | cut -c1-170
S=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
echo "== seed $S, $SECONDS s"
AUTOTUNE_CACHE=$W/c2.db timeout $((585 - SECONDS)) build/autotune bench reduce --sweep 100 \
    --seed "$S" --csv "$O/sweep-$S.csv" > "$O/sweep-$S.log" 2>&1
echo "== sweep 2 rc=$? $SECONDS s"
ls "$O"
grep -E '^CUB:|not timed|rows go to' "$O/sweep-$S.log" | cut -c1-250
tail -5 "$O/sweep-$S.log" | cut -c1-170
