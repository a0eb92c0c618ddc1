#!/bin/bash
# Item 3: a transpose sweep of 100 at a seed drawn here, at 7100c96 (gathered
# strips as committed), cuTENSOR where carried. From the repository root on the GPU
# machine; carry build/autotune (and .cutensor/, shared/tools/cutensor-for-device,
# where the call can carry it).
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r75; mkdir -p "$W/ct" && chmod 700 "$W"
O=${OUT:-$W}
# (cuTENSOR where carried: r75 could not carry it, the tree and it passing
# the 64 MiB a call carries)
if [ -f .cutensor/libcutensor.so.2.sm90.xz ]; then
    python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" \
        .cutensor/libcutensor.so.2.sm90.xz "$W/ct/libcutensor.so.2" || exit 1
    export AUTOTUNE_CUTENSOR=$W/ct/libcutensor.so.2
fi
export HOME=$W
export AUTOTUNE_WORKER=$PWD/build/autotune
S=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
echo "== seed $S"
AUTOTUNE_CACHE=$W/c.db timeout $((585 - SECONDS)) build/autotune bench transpose --sweep 100 \
    --seed "$S" --csv "$O/sweep-$S.csv" > "$O/sweep-$S.log" 2>&1
echo "== sweep rc=$? $SECONDS s"
ls "$O"
tail -32 "$O/sweep-$S.log" | cut -c1-170
