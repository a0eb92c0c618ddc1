#!/bin/bash
# Item 3: a reduce sweep of 100 at a seed drawn here, with CUB's helpers
# built ahead (all the sweep's types and ops at once, before its first
# problem) and cuTENSOR. From the repository root on the GPU machine;
# carry build/autotune and .cutensor/ (shared/tools/cutensor-for-device).
# Ran 79 s: the helpers were built in 28.7 s, then the sweep stopped at
# its 8th problem, cuTENSOR's bf16 amax answering +inf (r49.sh goes on).
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r48; mkdir -p "$W/ct" && chmod 700 "$W"
O=${OUT:-$W}
python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" \
    .cutensor/libcutensor.so.2.sm90.xz "$W/ct/libcutensor.so.2" || exit 1
export AUTOTUNE_CUTENSOR=$W/ct/libcutensor.so.2 HOME=$W
export AUTOTUNE_WORKER=$PWD/build/autotune
S=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
echo "== seed $S"
AUTOTUNE_CACHE=$W/c.db timeout $((585 - SECONDS)) build/autotune bench reduce --sweep 100 \
    --seed "$S" --csv "$O/sweep-$S.csv" > "$O/sweep-$S.log" 2>&1
echo "== sweep rc=$? $SECONDS s"
grep -E '^CUB:' "$O/sweep-$S.log"
echo "CUB folders left in /tmp:" /tmp/autotune-cub-*
tail -42 "$O/sweep-$S.log" | cut -c1-170
