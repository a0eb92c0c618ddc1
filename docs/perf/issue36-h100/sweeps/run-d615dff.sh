#!/bin/bash
# A sweep of 100 at a seed drawn now (d615dff: whole rows of skewed stores,
# fitted sides and flat runs, the tile order), with cuTENSOR. From the
# repository root on the GPU machine, .cutensor/ prepared by
# shared/tools/cutensor-for-device.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p /tmp/cutensor /tmp/swh && chmod 700 /tmp/swh
python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" \
    .cutensor/libcutensor.so.2.sm90.xz /tmp/cutensor/libcutensor.so.2 || exit 1
export AUTOTUNE_CUTENSOR=/tmp/cutensor/libcutensor.so.2 HOME=/tmp/swh
export AUTOTUNE_WORKER=$PWD/build/autotune
S=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
echo "seed $S"
AUTOTUNE_CACHE=/tmp/swh/c.db timeout 540 build/autotune bench transpose --sweep 100 --seed $S \
    --csv $OUT/sweep-$S.csv > $OUT/sweep-$S.log 2>&1
echo "rc=$?"
tail -25 $OUT/sweep-$S.log | cut -c1-170
