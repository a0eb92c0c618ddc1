#!/bin/bash
# A sweep of 60 at a seed drawn now, with fitted sides and flat runs (7e3990a).
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export HOME=/tmp/home; mkdir -p $HOME
S=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
echo "seed $S"
W=$(mktemp -d)
AUTOTUNE_CACHE=$W/c.db timeout 370 build/autotune bench transpose --sweep 60 --seed $S --csv $OUT/sweep-$S.csv > $OUT/sweep-$S.log 2>&1
echo "rc=$?"
tail -25 $OUT/sweep-$S.log | cut -c1-160
