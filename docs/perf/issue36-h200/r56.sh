#!/bin/bash
# Item 3: the second transpose sweep of 100 at a seed drawn here, on
# the transposes r47 ran (527ece4's), with cuTENSOR. From the repository
# root on the GPU machine; carry build/autotune (or AT=build/at-strip)
# and .cutensor/'s library (shared/tools/cutensor-for-device).
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r56; mkdir -p "$W/ct" && chmod 700 "$W"
O=${OUT:-$W}
python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" \
    .cutensor/libcutensor.so.2.sm90.xz "$W/ct/libcutensor.so.2" || exit 1
export AUTOTUNE_CUTENSOR=$W/ct/libcutensor.so.2 HOME=$W
# AT=build/at-strip: the same binary stripped (strip -o), so that
# cuTENSOR, the tree and the binary fit the carry's 64 MiB.
AT=${AT:-build/autotune}
export AUTOTUNE_WORKER=$PWD/$AT
S=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
echo "== seed $S"
AUTOTUNE_CACHE=$W/c.db timeout $((585 - SECONDS)) "$AT" bench transpose --sweep 100 \
    --seed "$S" --csv "$O/sweep-$S.csv" > "$O/sweep-$S.log" 2>&1
echo "== sweep rc=$? $SECONDS s"
ls "$O"
tail -32 "$O/sweep-$S.log" | cut -c1-170
